"""Planning a run: where the noise comes from, and how many samples or problems a target needs.

The planner's noise is the intervals' own (passk.maths.variance): each problem's
pass rate has a beta-binomial posterior, Beta(a + c_i, b + n_i - c_i) with the
Beta(a, b) prior fitted to all the run's problems (variance.fit_prior), and its
pass@k estimate's sampling variance is that rate's variance averaged over the
posterior, E[V_i] (variance.expected_variance). Unlike the unbiased estimate of
V_i, which is 0 for every problem with c = 0 or n - c < k (at n = 2k most of
them, so that the noise often looked far smaller than a simulation shows it,
issue 14), E[V_i] is small only where the prior itself says the rates are
close to all-or-nothing. With m samples for each problem, E[V_i] at max(n_i, m) is how
the noise shrinks, each problem keeping the posterior its c_i/n_i gives it.
Every answer about samples needs n_i >= 2k for every problem: with fewer,
sampling noise and real differences between problems cannot be told apart, and
the planner says so instead of answering.

The samples a target needs (plan, samples_needed, fixed_half_width) take the
prior from passk.maths.inflated instead: a rate is 0 or 1 with the fitted chances,
else Beta(a, b), so a problem seen never (or always) passing makes noise only
with the chance that it is flaky after all. The moment-fitted Beta gave each
such problem much of the noise at pass@10, and on a benchmark of 40% never and
40% always solved the plans asked for 2 to 3 times the samples needed (issue
28). Where the noise that prior gives is itself too uncertain (its relative SD,
passk.maths.inflated.NoiseDoubt, above DOUBT_LIMIT; or fewer than FEWEST_FLAKY
problems seen both passing and failing beside some seen always or never), plan
says so in a sentence instead of planning: bench/planner_accuracy.py measures
how far the plans land from their targets. The noise split and the page's SE
fixed keep the Beta prior above.

For a k, the variance s^2 of the P per-problem pass@k estimates (the ± SE is
s / sqrt(P)) has two parts, since
E[s^2] = Var(true pass@k over the problems) + mean_i Var(estimate_i):

- sampling noise: mean_i E[V_i] (SE fixed^2 = sum_i E[V_i] / P^2 = noise / P);
- the problems' spread: s^2 - noise, floored at 0.

Samples only shrink the noise, so with infinitely many per problem the 95%
interval for "problems like these" (the page's population_interval) shrinks
to the same interval at SE sqrt(spread / P) and no further (Miller 2024, arXiv
2411.00640). The fixed-benchmark half-width is half the width of the page's
fixed_interval: now, exactly the page's; at m samples per problem, the same
interval at SE sqrt(sum_i E[V_i at max(n_i, m)]) / P and sum_i max(n_i, m) / k
draws, with the mean kept. Problems needed for a half-width h:
P' = (t s / h)^2, the t interval's, which the population interval comes near
away from 0 and 1.

A paired comparison of runs A and B splits the same way, each run with its own
prior fitted to its paired problems' n and c. The two runs' samples are
independent, so on these very problems the difference's variance is
(sum_i E[V_A,i] + sum_i E[V_B,i]) / P^2; the smallest difference found with 80%
power at 5% two-sided is (z_0.975 + z_0.8) times its square root, and the
samples per problem in each run that find a difference d 4 times in 5 are the
fewest m with (z_0.975 + z_0.8) sqrt(sum E[V] at max(n_i, m)) / P <= d. For
problems like these, the variance s_d^2 of the P differences is the spread of
the true differences plus mean E[V_A] + mean E[V_B]; with infinitely many
samples only the spread is left, so the detectable difference falls to
(z_0.975 + z_0.8) sqrt(spread / P) and no further.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import NormalDist
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import betaln

from passk.results.benchmark import CONFIDENCE, Comparison, KComparison, KResult, Summary, compare
from passk.maths.estimator import MAX_N, Floats, Ints, distinct_pairs, estimate_pass_at_k
from passk.maths.inflated import InflatedPrior, NoiseDoubt, fit_inflated, flaky_chance, noise_doubt
from passk.maths.intervals import fixed_interval, population_interval
from passk.limits import LIMITS
from passk.maths.stats import t_quantile
from passk.maths.variance import MAX_TERMS, SHARED_OVERLAPS, expected_variance, fit_prior, overlaps_worth_summing
from passk.maths.variance import _log_comb   # log C(n, r) by betaln: the overlap chances' pieces, kept per k
from passk.maths.variance import _windows as _overlap_windows

DEFAULT_TARGET = 0.01     # ± 1 point
POWER = 0.8
Z_95 = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)   # statistics, not scipy.stats: most of a second to import
Z_POWER = NormalDist().inv_cdf(POWER)
BLOCK = 1 << 18           # overlaps x (n, c) pairs summed at once by _Noise._misses_at (2 MiB a matrix)
# What the planner's sums cost on this project's machine, in microseconds (bench/bench_limits.py's planner cases;
# each a little above the most measured), so that a request's planning is priced before it is done:
TRY_COST = 40.0           # one sample count the search tries, beside its overlaps
OVERLAP_COST = 0.2        # one overlap's chance at a sample count tried (_Noise._common_variance_sum)
MISS_COST = 0.05          # one overlap of one different (n, c) pair, summed once for all sizes (_Noise._misses_at)
VARIANCE_COST = 0.15      # one term of passk.maths.variance.expected_variance (the noise at the samples there are)
# The planner declines where the noise it would plan with is too uncertain for a plan to land within 15% of its
# target (bench/planner_accuracy.py): its relative SD (passk.maths.inflated.NoiseDoubt) above DOUBT_LIMIT, or fewer than
# FEWEST_FLAKY problems seen both passing and failing beside some seen never or always passing.
DOUBT_LIMIT = 0.12
FEWEST_FLAKY = 10
Prior: TypeAlias = tuple[float, float]              # Beta(a, b) for the pass rates, as variance.fit_prior fits it
Counts: TypeAlias = tuple[ArrayLike, ArrayLike]     # one run's (n, c) per problem

if TYPE_CHECKING:   # for its type only: the planner needs nothing of the ranking at run time
    from passk.results.ranking import Ranking


def points(value: float) -> str:
    """A fraction as percentage points for a sentence: 0.01234 -> '1.23'."""
    return f"{value * 100:.2f}"


class PastWork(Exception):
    """Planning that would pass what the request may still compute (_Work): raised before the sum is done."""


class _Work:
    """What a request's planning may still compute, in estimated microseconds, counted down as each sum is priced,
    before it is done (limit None: no bound, as on the command line and in the Python API)."""

    def __init__(self, limit: float | None = None) -> None:
        self.limit, self.left = limit, limit

    def spend(self, cost: float) -> None:
        """Take cost from what is left; PastWork (nothing taken) when it is not there."""
        if self.left is None:
            return
        if cost > self.left:
            raise PastWork
        self.left -= cost

    def left_out(self, what: str, command: str) -> str:
        """The sentence for a plan left out here: what (its subject) is not worked out, and the command that is."""
        return (f"{what} {'is' if what.startswith('What') else 'are'} not worked out here: the planner's sums "
                f"would pass the {(self.limit or 0) / 1e6:,.1f} s of planning one request may compute; the passk "
                f"command plans it without limits (`{command}`).")


class _Noise:
    """One run's problems for the noise model: the distinct (n, c), how many problems have each, the prior."""

    def __init__(self, samples: ArrayLike, correct: ArrayLike, prior: Prior | InflatedPrior | None = None,
                 work: _Work | None = None) -> None:
        samples, correct = np.asarray(samples, dtype=np.int64), np.asarray(correct, dtype=np.int64)
        pairs, where = distinct_pairs(samples, correct)
        self.samples, self.correct = pairs[:, 0].astype(float), pairs[:, 1].astype(float)
        self.weights = np.bincount(where, minlength=len(pairs)).astype(float)
        # The noise weighs each pair by its problems that may be flaky: a rate of exactly 0 or 1 makes none.
        self.noisy = self.weights
        self.doubt = NoiseDoubt(samples, correct, prior) if isinstance(prior, InflatedPrior) else None
        if isinstance(prior, InflatedPrior):
            self.noisy = self.weights * flaky_chance(self.samples, self.correct, prior)
            prior = (prior.a, prior.b)
        self.prior = fit_prior(samples, correct) if prior is None else prior
        self.count, self.most = samples.size, int(samples.max())
        self.work = work or _Work()   # the request's planning, shared by its runs and ks; priced before each sum
        # k -> (overlaps j, ascending; sum_i w_i E_i[(1-p)^(2k-j) - (1-p)^(2k)] and log C(k, j) for each): what the
        # sizes tried so far summed
        self._misses: dict[int, tuple[Floats, Floats, Floats]] = {}

    def variance_sum(self, k: int, per_problem: int = 0) -> float:
        """sum_i E[V_i] with max(n_i, per_problem) samples for each problem (every n_i >= 2k), priced against the
        request's work before it is summed (PastWork past it)."""
        return _variance_sums([self], k, per_problem)

    def cost(self, k: int, per_problem: int = 0) -> float:
        """What variance_sum(k, per_problem) would cost now, in estimated microseconds (the overlaps of the
        search's sizes summed before are not summed again)."""
        if per_problem and per_problem >= self.most:
            overlaps, missing, _ = self._overlaps(k, per_problem)
            return TRY_COST + OVERLAP_COST * overlaps.size + MISS_COST * missing.size * self.samples.size
        drawn = np.maximum(self.samples, float(per_problem)) if per_problem else self.samples
        return VARIANCE_COST * variance_terms(drawn, k)

    def summed(self, k: int, per_problem: int = 0) -> float:
        """variance_sum, already priced."""
        if per_problem and per_problem >= self.most:
            return self._common_variance_sum(k, per_problem)
        variances = expected_variance(self.samples, self.correct, k, self.prior, at=per_problem or None)
        return math.fsum((self.noisy * variances).tolist())

    def _overlaps(self, k: int, size: int) -> tuple[Floats, Floats, NDArray[np.intp] | None]:
        """(the overlaps worth summing at size, those of them no size tried before summed, where each of the first
        is among those summed (None when none is))."""
        overlaps = np.arange(1.0, k + 1) if k <= SHARED_OVERLAPS else overlaps_worth_summing(float(size), k)
        known = self._misses.get(k)
        if known is None:
            return overlaps, overlaps, None
        at = np.minimum(np.searchsorted(known[0], overlaps), known[0].size - 1)
        return overlaps, overlaps[known[0][at] != overlaps], at

    def _common_variance_sum(self, k: int, size: int) -> float:
        """variance_sum when every problem has size samples: expected_variance's terms, summed in another order.

        E[V_i] = sum_j H(j) E_i[(1-p)^(2k-j) - (1-p)^(2k)], and with one size for all the overlap chances H(j)
        are the same for every problem: the sums over the problems, one per overlap j, do not depend on the
        size and are kept, so that each further size the search tries costs its window's overlaps not summed
        before (nor does it reach expected_variance's term budget, past which it keeps the variance at n_i).
        """
        overlaps, missing, at = self._overlaps(k, size)
        known = self._misses.get(k)
        if missing.size:
            found = self._misses_at(k, missing) + (_log_comb(float(k), missing),)
            known = self._misses[k] = found if known is None else _merged(known, found)
            at = np.searchsorted(known[0], overlaps)
        assert known is not None and at is not None
        _, misses, log_choose = known
        # log H(j) as passk.maths.variance.log_overlap_chance, log C(k, j) kept from the sizes tried before
        chances = np.exp(log_choose[at] + _log_comb(size - k, k - overlaps) - _log_comb(float(size), k))
        return math.fsum((chances * misses[at]).tolist())

    def _misses_at(self, k: int, overlaps: Floats) -> tuple[Floats, Floats]:
        """(overlaps, misses): misses[j] = sum_i w_i E_i[(1-p)^(2k-j) - (1-p)^(2k)] for the overlaps j given
        (ascending whole numbers).

        With B(a, b + 2k - j) = e^shorter: e^(shorter - base) (1 - e^(longest - shorter)), longest - shorter
        kept as a running sum of log(1 - a / (a + b + 2k - j)) along consecutive j (one log1p a step, not a
        beta function), started from beta functions only where the overlaps start past SHARED_OVERLAPS. (With
        n = 10^12 the difference of two beta functions near -10^7 came out of sign: a negative variance.) Each
        stretch of consecutive overlaps is an overlaps x pairs matrix, BLOCK entries at a time, its running sums
        a cumsum down the overlaps: numpy is called a few times a block, not a few times an overlap (the
        221-character link's 2 pairs at k near 1.9 million sum windows of 12,000 overlaps).
        """
        a, b = self.correct + self.prior[0], self.samples - self.correct + self.prior[1]
        base, longest, whole = betaln(a, b), betaln(a, b + 2 * k), a + b + 2 * k
        rows = max(1, BLOCK // a.size)
        found: list[tuple[Floats, Floats]] = []
        for first, last in _stretches(overlaps):
            if first <= SHARED_OVERLAPS:   # from j = 0: a difference of beta functions of 10^12 loses every digit
                origin, gap = 0.0, np.zeros(a.shape)
            else:
                origin, gap = first, longest - betaln(a, b + 2 * k - first)
                found.append(self._misses_of(np.array([first]), gap[None, :], longest, base))
            for low in np.arange(origin + 1, last + 1, rows).tolist():
                js = np.arange(low, min(low + rows, last + 1))
                running = np.empty((js.size + 1, a.size))   # the gap carried in, then a step per overlap
                running[0] = gap
                steps = running[1:]
                np.subtract(whole, js[:, None], out=steps)
                np.divide(a, steps, out=steps)
                np.log1p(np.negative(steps, out=steps), out=steps)
                np.cumsum(running, axis=0, out=running)      # in order down the overlaps, as one j at a time
                gap = running[-1].copy()
                kept = js >= first
                found.append(self._misses_of(js[kept], steps[kept], longest, base))
        return np.concatenate([js for js, _ in found]), np.concatenate([sums for _, sums in found])

    def _misses_of(self, js: Floats, gaps: Floats, longest: Floats, base: Floats) -> tuple[Floats, Floats]:
        """(js, misses at each): -sum_i w_i e^(longest - gap - base) (e^gap - 1) for each row of gaps."""
        terms = np.subtract(longest, gaps)
        terms -= base
        np.exp(terms, out=terms)
        terms *= np.expm1(gaps)
        sums: Floats = -(terms @ self.noisy)
        return js, sums

    def mean(self, k: int) -> float:
        """The mean of the problems' pass@k estimates."""
        return math.fsum((self.weights * estimate_pass_at_k(self.samples, self.correct, k)).tolist()) / self.count

    def half_width(self, k: int, per_problem: int, mean: float) -> float:
        """Half the width of the fixed-benchmark 95% interval at max(n_i, per_problem) samples per problem."""
        se = math.sqrt(self.variance_sum(k, per_problem)) / self.count
        draws = (self.count * per_problem if per_problem >= self.most else
                 math.fsum((self.weights * np.maximum(self.samples, float(per_problem))).tolist())) / k
        low, high = fixed_interval(min(1.0, max(0.0, mean)), se, draws)
        return (high - low) / 2


def _seen(samples: ArrayLike, correct: ArrayLike) -> tuple[int, int]:
    """(the problems seen both passing and failing, those seen always or never passing)."""
    samples, correct = np.asarray(samples), np.asarray(correct)
    flaky = int(np.count_nonzero((correct > 0) & (correct < samples)))
    return flaky, samples.size - flaky


def _too_uncertain(wanted: str, k: int, samples: Ints, doubt: float) -> str:
    """The sentence for a plan declined: the noise model's relative SD (doubt) above DOUBT_LIMIT."""
    how = "cannot be told at all" if math.isinf(doubt) else f"is uncertain by ±{doubt * 100:.0f}% (one SD)"
    return (f"{wanted} are not planned: with {int(samples.min()):,}"
            f"{'' if samples.min() == samples.max() else f' to {int(samples.max()):,}'} samples of "
            f"{samples.size:,} problems the sampling noise at pass@{k} {how}, so a plan could miss its target by "
            f"more than 15%; more samples of every problem (or more problems) would pin it down.")


def plan_doubt(samples: ArrayLike, correct: ArrayLike, k: int, prior: InflatedPrior | None = None) -> float:
    """The relative SD of the noise the planner plans with at pass@k (passk.maths.inflated.noise_doubt; the prior
    fitted to these problems by default)."""
    prior = fit_inflated(samples, correct) if prior is None else prior
    return noise_doubt(samples, correct, k, prior)


def declines(samples: ArrayLike, correct: ArrayLike, k: int, prior: InflatedPrior | None = None) -> bool:
    """Whether plan() declines to plan the samples per problem at pass@k for these problems (every n >= 2k)."""
    flaky, ends = _seen(samples, correct)
    return flaky < FEWEST_FLAKY and ends > 0 or plan_doubt(samples, correct, k, prior) > DOUBT_LIMIT


def _variance_sums(runs: Sequence[_Noise], k: int, per_problem: int = 0) -> float:
    """The runs' variance_sum at k added up, all of them priced before any is summed (they share one work)."""
    runs[0].work.spend(math.fsum(run.cost(k, per_problem) for run in runs))
    return sum(run.summed(k, per_problem) for run in runs)


def variance_terms(samples: Floats, k: int) -> float:
    """The terms passk.maths.variance.expected_variance sums at k for problems of these n (float array): its windows
    of overlaps, at most MAX_TERMS in all (past it the unbiased estimate stands in)."""
    low, high = _overlap_windows(samples, k)
    return min(float(np.sum(high - low + 1)), float(MAX_TERMS))


def _stretches(overlaps: Floats) -> list[tuple[float, float]]:
    """The runs of consecutive whole numbers in ascending overlaps, as (first, last) of each."""
    breaks = np.flatnonzero(np.diff(overlaps) != 1) + 1
    firsts, lasts = np.concatenate([[0], breaks]), np.concatenate([breaks - 1, [overlaps.size - 1]])
    return list(zip(overlaps[firsts].tolist(), overlaps[lasts].tolist()))


def _merged(*tables: tuple[Floats, Floats, Floats]) -> tuple[Floats, Floats, Floats]:
    """Tables of columns (keys, values, …) with no key in common, as one sorted by key."""
    columns = [np.concatenate(column) for column in zip(*tables)]
    order = np.argsort(columns[0], kind="stable")
    return columns[0][order], columns[1][order], columns[2][order]


def _short_of(samples: ArrayLike, k: int) -> None:
    """ValueError unless every n_i >= 2k, which the noise model needs."""
    if np.min(samples) < 2 * k:
        raise ValueError(f"Planning pass@{k} needs at least {2 * k:,} samples for every problem.")


def noise_split(samples: ArrayLike, correct: ArrayLike, k: int,
                prior: Prior | None = None) -> tuple[float, float, float]:
    """(total, noise, spread) variance of the per-problem pass@k estimates: total their sample variance, noise
    mean_i E[V_i] (prior: the pass rates' Beta prior, fitted to these problems by default), spread = total -
    noise floored at 0; needs every n >= 2k and P >= 2."""
    _short_of(samples, k)
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    return _split(estimate_pass_at_k(samples, correct, k), _Noise(samples, correct, prior).variance_sum(k))


def _split(values: Floats, variance_sum: float) -> tuple[float, float, float]:
    """(total, noise, spread): the sample variance of the P values, sum E[V] / P, and their difference >= 0."""
    total = float(np.var(values, ddof=1))
    noise = variance_sum / len(values)
    return total, noise, max(total - noise, 0.0)


def fixed_half_width(samples: ArrayLike, correct: ArrayLike, k: int, per_problem: int,
                     prior: Prior | InflatedPrior | None = None, mean: float | None = None) -> float:
    """Half the width of the fixed-benchmark 95% interval (passk.maths.intervals.fixed_interval) with
    max(n_i, per_problem) samples for each problem, each keeping its posterior for its pass rate.

    prior: the pass rates' prior, by default the planner's (passk.maths.inflated.fit_inflated: mass at 0 and 1 beside
    a Beta, fitted to these problems); a Beta (a, b) as passk.maths.variance.fit_prior fits it gives the page's noise.
    mean: the pass@k the interval is about (the mean of the problems' estimates by default). Needs every n >= 2k.
    """
    _short_of(samples, k)
    noise = _Noise(samples, correct, fit_inflated(samples, correct) if prior is None else prior)
    return noise.half_width(k, per_problem, noise.mean(k) if mean is None else mean)


def samples_needed(samples: ArrayLike, correct: ArrayLike, k: int, target: float,
                   prior: Prior | InflatedPrior | None = None, mean: float | None = None) -> int | None:
    """The fewest samples per problem, from the most any problem has, whose fixed_half_width is at most target
    (None beyond 10^12); prior and mean as fixed_half_width's. It plans even where plan() declines (see
    plan_doubt)."""
    _short_of(samples, k)
    return _samples_needed(_Noise(samples, correct, fit_inflated(samples, correct) if prior is None else prior),
                           k, target, mean)


def _samples_needed(noise: _Noise, k: int, target: float, mean: float | None = None) -> int | None:
    """samples_needed for a run's _Noise (PastWork when its search would pass the request's planning)."""
    mean = noise.mean(k) if mean is None else mean
    return _fewest_samples(noise.most, lambda per_problem: noise.half_width(k, per_problem, mean), target)


def _fewest_samples(low: int, measure: Callable[[int], float], target: float) -> int | None:
    """The fewest samples per problem from low up with measure(samples) <= target, where measure (a half-width
    or a detectable difference) falls as samples grow; None when not even MAX_N samples are enough.

    The answer is bracketed, not guessed: lo (not enough) < hi (enough) until hi = lo + 1. The tries solve
    log measure = log target along log samples (the noise falls about as 1/samples, so the measure about as
    its square root: nearly a straight line), first extrapolating from lo, then by the Illinois variant of
    regula falsi, which closes in from both sides; a bisection step is taken whenever the bracket has not
    halved (in log samples) in two tries, so that there are never many more tries than bisection would take.
    A handful of tries do where the measure falls smoothly (each past the first costs about k terms: see
    _Noise._common_variance_sum).
    """
    lo, lo_value = low, measure(low)
    if lo_value <= target:
        return low
    hi = hi_value = None
    slope = -0.5                   # d log measure / d log samples from lo, as far as known
    widths: list[float]
    kept: str | None
    widths, kept = [], None        # log(hi / lo) before each try in the bracket; the end the last try kept
    excess = {"lo": 1.0, "hi": 1.0}   # Illinois: the weight on each end's log(measure / target)
    while hi is None or hi - lo > 1:
        if hi is None:             # no bracket yet: extrapolate from lo, at least doubling along a flat stretch
            reach = math.log(target / lo_value) / min(slope, -0.05)
            guess = max(2 * lo if slope > -0.05 else lo + 1, math.ceil(lo * math.exp(min(reach, 60.0))))
            guess = min(MAX_N, guess)
        else:
            width = math.log(hi / lo)
            assert hi_value is not None   # measured with hi
            if hi_value <= 0 or len(widths) >= 2 and width > widths[-2] / 2:
                guess = (lo + hi) // 2 if hi < 4 * lo else math.isqrt(lo * hi)   # bisect
            else:
                above = excess["lo"] * math.log(lo_value / target)   # > 0
                below = excess["hi"] * math.log(hi_value / target)   # <= 0
                guess = math.ceil(lo * math.exp(width * above / (above - below)))
            widths.append(width)
            guess = min(max(guess, lo + 1), hi - 1)
        value = measure(guess)
        side = "hi" if value <= target else "lo"
        if side == "hi":
            hi, hi_value = guess, value
        elif guess >= MAX_N:
            return None
        else:
            if value > 0 and guess > lo:
                slope = math.log(value / lo_value) / math.log(guess / lo)
            lo, lo_value = guess, value
        other = "lo" if side == "hi" else "hi"
        excess[other] = excess[other] / 2 if kept == side else 1.0   # the end kept twice counts half
        excess[side] = 1.0
        kept = side
    return hi


def _runs(counts: Sequence[Counts], k: int, priors: Sequence[Prior | None] | None) -> list[_Noise]:
    """_Noise for each run's paired (n, c) in counts, with its own prior (fitted to it unless given)."""
    priors = (None, None) if priors is None else priors
    for samples, _ in counts:
        _short_of(samples, k)
    return [_Noise(samples, correct, prior) for (samples, correct), prior in zip(counts, priors)]


def fixed_detectable(counts: Sequence[Counts], k: int, per_problem: int = 0,
                     priors: Sequence[Prior | None] | None = None) -> float:
    """The difference a paired test on these very problems finds 4 times in 5 at 5% two-sided:
    (z_0.975 + z_0.8) sqrt(sum E[V_A,i] + sum E[V_B,i]) / P with max(n_i, per_problem) samples for each problem.

    counts: ((n, c) of run A, (n, c) of run B), paired in the same order (Comparison.paired_counts); priors:
    each run's Beta prior, by default fitted to that run's paired problems. Needs every n >= 2k.
    """
    runs = _runs(counts, k, priors)
    return _detectable(runs, k, per_problem)


def _detectable(runs: list[_Noise], k: int, per_problem: int) -> float:
    return detectable_difference(math.sqrt(_variance_sums(runs, k, per_problem)) / runs[0].count)


def samples_to_detect(counts: Sequence[Counts], k: int, difference: float,
                      priors: Sequence[Prior | None] | None = None) -> int | None:
    """The fewest samples per problem in each run, from the most any paired problem has, whose fixed_detectable
    is at most |difference| (None beyond 10^12); counts and priors as fixed_detectable's. Needs every n >= 2k."""
    runs = _runs(counts, k, priors)
    most = max(int(np.max(samples)) for samples, _ in counts)
    return _fewest_samples(most, lambda per_problem: _detectable(runs, k, per_problem), abs(difference))


def difference_noise_split(values_a: ArrayLike, values_b: ArrayLike, counts_a: Counts, counts_b: Counts, k: int,
                           priors: Sequence[Prior | None] | None = None) -> tuple[float, float, float]:
    """(total, noise, spread) variance of the paired differences of pass@k estimates: total the sample
    variance of the P differences, noise mean E[V_A] + mean E[V_B] (each run's (n, c) arrays in counts_x, each
    with its own prior as in fixed_detectable), spread = total - noise floored at 0; needs every n >= 2k, P >= 2."""
    runs = _runs((counts_a, counts_b), k, priors)
    return _split(np.asarray(values_a) - np.asarray(values_b), _variance_sums(runs, k))


def problems_needed(sd: float, target: float) -> int:
    """The fewest P' problems like these with t(P'-1, 0.975) sd / sqrt(P') <= target: P' = (t sd / target)^2."""
    def half_width(count: int) -> float:
        return t_quantile(0.5 + CONFIDENCE / 2, count - 1) * sd / math.sqrt(count)
    count = max(2, math.ceil((Z_95 * sd / target) ** 2))   # t > z: the answer is at least this
    while half_width(count) > target:                      # t(P'-1) falls towards z: a few steps at most
        count = max(count + 1, math.ceil((t_quantile(0.5 + CONFIDENCE / 2, count - 1) * sd / target) ** 2))
    while count > 2 and half_width(count - 1) <= target:
        count -= 1
    return count


def detectable_difference(se_difference: float) -> float:
    """The true difference a paired test at 5% two-sided finds with 80% power: (z_0.975 + z_0.8) SE."""
    return (Z_95 + Z_POWER) * se_difference


def problems_to_detect(sd_difference: float, difference: float) -> int:
    """Paired problems for 80% power at 5% two-sided against a true difference: ((z + z_0.8) sd / d)^2."""
    return max(2, math.ceil(((Z_95 + Z_POWER) * sd_difference / abs(difference)) ** 2 * (1 - 1e-12)))


@dataclass
class KPlan:
    """The planner's answers for one k, as fractions (0.01 is one point), with a sentence for each."""
    k: int
    noise_share: float | None = None
    spread_share: float | None = None
    half_width: float | None = None           # the population interval's: "how good is the model on problems
                                              # like these"
    half_width_floor: float | None = None     # the same with infinitely many samples per problem
    fixed_half_width: float | None = None     # the fixed interval's: "how good is it on these very problems"
    samples_per_problem: int | None = None    # for the fixed half-width under the target
    extra_samples: int | None = None
    extra_cost: float | None = None
    noise_doubt: float | None = None          # the relative SD of the noise samples_per_problem rests on
    problems: int | None = None               # for the half-width "problems like these" under the target
    sentences: list[str] = field(default_factory=list)
    reason: str | None = None


def plan(summary: Summary, target: float = DEFAULT_TARGET, tokens_per_sample: float | None = None,
         price_per_million: float | None = None, work: float | None = None) -> list[KPlan]:
    """A KPlan for each of the summary's ks; target is the 95% half-width wanted, as a fraction.

    Half-widths are half the widths of the summary's intervals (asymmetric near 0 and 1); the noise is
    passk.maths.variance's, with the prior fitted to all the summary's problems as summarize fits it. work bounds the
    search for the samples needed, over every k, in estimated microseconds (None: no bound): each sample count
    tried is priced before it is summed (TRY_COST, OVERLAP_COST, MISS_COST), and a k whose search would pass
    what is left says so instead of answering.
    """
    if not target >= LIMITS.smallest_points / 100:
        raise ValueError(f"The target half-width must be at least {LIMITS.smallest_points:g} points; "
                         f"got {target * 100:g}.")
    samples = np.array([problem.n for problem in summary.problems], dtype=np.int64)
    correct = np.array([problem.c for problem in summary.problems], dtype=np.int64)
    budget = _Work(work)
    try:   # the rates' prior with mass at 0 and 1 (passk.maths.inflated), fitted once for all ks, each step priced
        prior: InflatedPrior | None = fit_inflated(samples, correct, budget.spend) if samples.min() >= 2 else None
    except PastWork:
        prior = None
    run = _Noise(samples, correct, prior, budget) if prior is not None else None
    return [_k_plan(samples, correct, run, budget, summary.per_problem_pass_at_k[row.k], row, target,
                    tokens_per_sample, price_per_million) for row in summary.results]


def _k_plan(samples: Ints, correct: Ints, run: _Noise | None, budget: _Work, values: Floats, row: KResult,
            target: float, tokens_per_sample: float | None, price_per_million: float | None) -> KPlan:
    """The plan for one results row (values: its per-problem pass@k); a reason instead where its SE or SE fixed
    is missing (SE fixed is missing where some n_i < 2k: the noise cannot be told apart from the spread, and the
    reason says so)."""
    k, count = row.k, samples.size
    if row.se is None or row.se_fixed is None or row.ci95_fixed is None:
        return KPlan(k, reason=row.reason or "Planning needs at least two problems.")
    # The noise is the page's SE fixed's, sum_i E[V_i] = (P SE fixed)^2: noise_split's, not computed again.
    total, noise, spread = _split(values, (count * row.se_fixed) ** 2)
    assert row.pass_at_k is not None and row.ci95 is not None   # a row with an SE has its value and interval
    mean = min(1.0, max(0.0, row.pass_at_k))
    half_width = (row.ci95[1] - row.ci95[0]) / 2   # the page's population interval, now and with noise gone
    floor = population_interval(mean, math.sqrt(spread / count), count)
    half_width_floor = min(half_width, (floor[1] - floor[0]) / 2)
    fixed_half_width = (row.ci95_fixed[1] - row.ci95_fixed[0]) / 2
    result = KPlan(k, half_width=half_width, half_width_floor=half_width_floor, fixed_half_width=fixed_half_width)
    sentences = result.sentences
    if total > 0:
        result.noise_share = min(noise / total, 1.0)
        result.spread_share = 1.0 - result.noise_share
        sentences.append(f"Sampling noise is {result.noise_share * 100:.0f} percent of the variation between "
                         f"problems' pass@{k} estimates; real differences between the problems are the other "
                         f"{result.spread_share * 100:.0f} percent.")
    else:
        sentences.append(f"No spread between problems at pass@{k}: every problem's estimate is the same.")
    narrow = half_width - half_width_floor
    sentences.append(f"More samples would narrow the ±{points(half_width)} point interval for problems "
                     f"like these by at most {points(narrow)} points, to ±{points(half_width_floor)}; "
                     f"only more problems would narrow it further.")
    _samples_per_problem(result, run, budget, (samples, correct), target, mean, tokens_per_sample,
                         price_per_million)
    if half_width_floor > target:
        sentences.append(f"No number of samples brings the interval for problems like these under "
                         f"±{points(target)} points with {count:,} problems: its floor is "
                         f"±{points(half_width_floor)}.")
    result.problems = problems_needed(math.sqrt(total), target) if total > 0 else count
    sentences.append(f"About {result.problems:,} problems like these (now {count:,}) would bring the "
                     f"interval for problems like these under ±{points(target)} points.")
    return result


def _samples_per_problem(result: KPlan, run: _Noise | None, budget: _Work, counts: tuple[Ints, Ints], target: float,
                         mean: float, tokens_per_sample: float | None, price_per_million: float | None) -> None:
    """Into result: the samples per problem that bring the interval for these very problems under target, the
    more in all and their cost, with a sentence (or the sentence that says why not: the planner's sums past the
    request's work, or a noise model too uncertain to plan with, passk.maths.inflated.noise_doubt above DOUBT_LIMIT)."""
    k, sentences, now = result.k, result.sentences, result.fixed_half_width
    samples, correct = counts
    wanted = (f"The samples per problem that would bring the interval for these very problems under "
              f"±{points(target)} points at pass@{k}")
    try:
        if run is None or run.doubt is None:
            raise PastWork
        flaky, ends = _seen(samples, correct)
        if flaky < FEWEST_FLAKY and ends:
            some = f"only {flaky:,}" if flaky else "none"
            sentences.append(f"{wanted} are not planned: {some} of the {samples.size:,} problems passed "
                             f"some samples and failed others, too few to tell how many of the {ends:,} that "
                             f"passed all or none of theirs may pass or fail with more samples; more samples of "
                             f"every problem (or more problems) would tell.")
            return
        budget.spend(run.doubt.cost())
        result.noise_doubt = doubt = run.doubt.at(k)
        if doubt > DOUBT_LIMIT:
            sentences.append(_too_uncertain(wanted, k, samples, doubt))
            return
        needed = _samples_needed(run, k, target, mean)
    except PastWork:
        sentences.append(budget.left_out(wanted, f"passk FILES -k {k} --target {target * 100:g}"))
        return
    if needed is None:
        sentences.append(f"Not even {MAX_N:,} samples per problem would bring the interval for these very "
                         f"problems under ±{points(target)} points.")
        return
    result.samples_per_problem = needed
    result.extra_samples = int(np.sum(np.maximum(needed - samples, 0)))
    cost = ""
    if tokens_per_sample and price_per_million:
        result.extra_cost = result.extra_samples * tokens_per_sample * price_per_million / 1e6
        cost = f", about {result.extra_cost:,.2f} in token cost"
    assert now is not None   # set before the samples are planned
    if result.extra_samples == 0 and now > target:   # the page's SE fixed gives every problem seen broken some noise
        sentences.append(f"By the planner's model, in which a problem never or always solved is likely always so, "
                         f"the samples there are already bring the interval for these very problems under "
                         f"±{points(target)} points; the page's ±{points(now)} counts every such problem as "
                         f"possibly flaky.")
        return
    sentences.append(f"{needed:,} samples per problem ({result.extra_samples:,} more in all{cost}) would bring "
                     f"the interval for these very problems (now ±{points(now)}) under ±{points(target)} points.")


class ComparisonAnswer(TypedDict):
    """comparison_plan's answers for one k, as fractions (0.01 is one point), with a sentence for each."""
    k: int
    detectable: float | None
    problems: int | None
    detectable_fixed: float | None
    noise_share: float | None
    detectable_floor: float | None
    samples: int | None
    extra_samples: int | None
    extra_tokens: float | None
    extra_cost: float | None
    sentences: list[str]


class PairPlan(TypedDict):
    """top_pair_plan's answer for one k: the top two runs a and b, and their plan or why there is none."""
    k: int
    a: str | None
    b: str | None
    plan: ComparisonAnswer | None
    reason: str | None


def comparison_plan(comparison: Comparison, difference: float | None = None, tokens_per_sample: float | None = None,
                    price_per_million: float | None = None, work: float | None = None) -> list[ComparisonAnswer]:
    """For each k of a paired comparison (passk.results.benchmark.compare), a dict of JSON-safe answers (fractions)
    with a sentence for each:

    - "detectable": the smallest difference found with 80% power at 5% two-sided (None where the row has no SE);
    - "problems": the paired problems needed to find `difference` (a fraction; None without it);
    - from the paired problems' n and c (comparison.paired_counts), each run's noise from its own prior fitted to
      its paired problems, and only where every paired problem has n >= 2k in both runs (else a sentence says
      what cannot be planned, and these stay None): "detectable_fixed" (on these very problems, with the samples
      there are), "noise_share", "detectable_floor" (the least more samples can reach for problems like these),
      "samples" (per problem in each run to find `difference` on these very problems; None when not even 10^12
      would), "extra_samples" (more in all, both runs), "extra_tokens" (with tokens_per_sample) and
      "extra_cost" (with the price per 10^6 tokens too).

    work bounds the noise model's sums over every k, in estimated microseconds (None: no bound): each is priced
    before it is done (VARIANCE_COST a term at the samples there are; the search for the samples as plan's),
    and a k whose sums would pass what is left says so instead of answering.
    """
    return _comparison_plan(comparison, difference, tokens_per_sample, price_per_million, _Work(work))


def _comparison_plan(comparison: Comparison, difference: float | None, tokens_per_sample: float | None,
                     price_per_million: float | None, budget: _Work) -> list[ComparisonAnswer]:
    """comparison_plan within what budget has left (a request's, which several comparisons may share)."""
    @cache
    def runs() -> tuple[_Noise, _Noise]:   # each run's noise from its paired problems, once for every k
        (samples_a, correct_a), (samples_b, correct_b) = comparison.paired_counts
        return _Noise(samples_a, correct_a, work=budget), _Noise(samples_b, correct_b, work=budget)
    return [_k_comparison_plan(comparison, row, runs, difference, tokens_per_sample, price_per_million)
            for row in comparison.results]


def _k_comparison_plan(comparison: Comparison, row: KComparison, noise: Callable[[], tuple[_Noise, _Noise]],
                       difference: float | None, tokens_per_sample: float | None,
                       price_per_million: float | None) -> ComparisonAnswer:
    """comparison_plan's answers for one results row; noise(): the two runs' _Noise, made at the first k that
    plans with them."""
    k, count = row.k, comparison.paired
    result: ComparisonAnswer = {"k": k, "detectable": None, "problems": None, "detectable_fixed": None,
                                "noise_share": None, "detectable_floor": None, "samples": None, "extra_samples": None,
                                "extra_tokens": None, "extra_cost": None, "sentences": []}
    sentences = result["sentences"]
    if row.se:
        result["detectable"] = detectable = detectable_difference(row.se)
        sentences.append(f"With {count:,} paired problems, a true difference of {points(detectable)} "
                         f"points at pass@{k} would be found 4 times in 5 (p < 0.05).")
        if difference:
            result["problems"] = problems_to_detect(row.se * math.sqrt(count), difference)
            sentences.append(f"About {result['problems']:,} paired problems would find a difference of "
                             f"{points(abs(difference))} points 4 times in 5.")
    if row.difference is None:
        return result
    (samples_a, _), (samples_b, _) = comparison.paired_counts
    short = int(np.count_nonzero((samples_a < 2 * k) | (samples_b < 2 * k)))
    if short:
        sentences.append(_cannot_plan(k, short, count, difference))
        return result
    runs = list(noise())
    command = f"passk --runs FILE_A FILE_B -k {k} --detect {abs(difference) * 100 if difference else 1:g}"
    try:
        _noise_answers(result, comparison, runs)
    except PastWork:
        sentences.append(runs[0].work.left_out(f"What more samples would buy at pass@{k}", command))
        return result
    if difference:
        try:
            _samples_answer(result, comparison.paired_counts, runs, difference, tokens_per_sample, price_per_million)
        except PastWork:
            sentences.append(runs[0].work.left_out(f"The samples per problem in each run that would find a "
                                                   f"{points(abs(difference))}-point difference at pass@{k}", command))
    return result


def _cannot_plan(k: int, short: int, count: int, difference: float | None) -> str:
    """The sentence for a comparison where some paired problems have fewer than 2k samples in run A or B."""
    which = f"all {count:,} paired problems have" if short == count else \
        f"{short:,} of the {count:,} paired problems {'has' if short == 1 else 'have'}"
    what = f"the samples needed to find a {points(abs(difference))}-point difference at pass@{k}" if difference \
        else f"what more samples would buy at pass@{k}"
    return (f"With fewer than {2 * k:,} samples per problem ({which} fewer in run A or B), sampling noise cannot "
            f"be told apart from differences between problems, so {what} cannot be planned; run at least "
            f"{2 * k:,} samples per problem in each run, even on a subset, to measure it.")


def _noise_answers(result: ComparisonAnswer, comparison: Comparison, runs: list[_Noise]) -> None:
    """The detectable difference on these very problems now, the noise share and the floor (every n >= 2k)."""
    k, count, sentences = result["k"], comparison.paired, result["sentences"]
    variance_sum = _variance_sums(runs, k)
    # as fixed_detectable:
    result["detectable_fixed"] = detectable_fixed = detectable_difference(math.sqrt(variance_sum) / count)
    sentences.append(f"On these very problems, the samples there are would find a difference of "
                     f"{points(detectable_fixed)} points at pass@{k} 4 times in 5.")
    if count < 2:
        return
    values_a, values_b = comparison.per_problem_pass_at_k[k]
    total, noise, spread = _split(values_a - values_b, variance_sum)   # as difference_noise_split
    if total > 0:
        result["noise_share"] = noise_share = min(noise / total, 1.0)
        sentences.append(f"Sampling noise is {noise_share * 100:.0f} percent of the variation between "
                         f"problems' pass@{k} differences; real differences between the problems are the other "
                         f"{(1 - noise_share) * 100:.0f} percent.")
    if noise > total and result["detectable"] and detectable_fixed > result["detectable"]:
        sentences.append(f"The differences at pass@{k} vary less from problem to problem than sampling noise "
                         f"alone would make them, which happens by chance; so the difference found on these very "
                         f"problems comes out larger than for problems like these, and is the cautious figure.")
    result["detectable_floor"] = detectable_floor = detectable_difference(math.sqrt(spread / count))
    if detectable_floor > 0:
        sentences.append(f"More samples alone cannot bring the detectable difference at pass@{k} below "
                         f"{points(detectable_floor)} points for problems like these; more problems can.")
    else:
        sentences.append(f"The differences between problems at pass@{k} look like sampling noise alone, so more "
                         f"samples could bring the detectable difference for problems like these as low as wanted.")


def _samples_answer(result: ComparisonAnswer, counts: Sequence[tuple[Ints, Ints]], runs: list[_Noise],
                    difference: float, tokens_per_sample: float | None, price_per_million: float | None) -> None:
    """The samples per problem in each run that find difference on these very problems, and what they cost."""
    k, sentences = result["k"], result["sentences"]
    most = max(int(np.max(samples)) for samples, _ in counts)
    needed = _fewest_samples(most, lambda per_problem: _detectable(runs, k, per_problem), abs(difference))
    wanted = f"a {points(abs(difference))}-point difference at pass@{k} on these very problems 4 times in 5"
    if needed is None:
        sentences.append(f"Not even {MAX_N:,} samples per problem in each run would find {wanted}.")
        return
    result["samples"] = needed
    result["extra_samples"] = extra = sum(int(np.sum(np.maximum(needed - samples, 0))) for samples, _ in counts)
    if extra == 0:
        sentences.append(f"The samples there are would already find {wanted}.")
        return
    cost = ""
    if tokens_per_sample:
        result["extra_tokens"] = extra_tokens = extra * tokens_per_sample
        cost = f", {extra_tokens:,.0f} tokens"
        if price_per_million:
            result["extra_cost"] = extra_cost = extra_tokens * price_per_million / 1e6
            cost += f", about {extra_cost:,.2f} in token cost"
    sentences.append(f"About {needed:,} samples per problem in each run would find {wanted} "
                     f"({extra:,} more samples in all{cost}).")


def top_pair_plan(ranking: "Ranking", difference: float | None = None, tokens_per_sample: float | None = None,
                  price_per_million: float | None = None, work: float | None = None) -> list[PairPlan]:
    """For each k of a passk.results.ranking.Ranking, comparison_plan for its top two runs (the best minus the second):
    [{"k", "a", "b", "plan" (comparison_plan's dict, or None), "reason" (why there is no plan, or None)}];
    work: as comparison_plan's, for all the pairs together."""
    budget = _Work(work)
    ks = [row.k for row in ranking.results]
    plans: list[PairPlan] = []
    pairs: dict[tuple[str, str], tuple[Comparison, list[ComparisonAnswer]] | tuple[None, str]] = {}
    for index, row in enumerate(ranking.results):
        top = [entry.name for entry in row.ranking if entry.pass_at_k is not None][:2]
        if len(top) < 2:
            plans.append({"k": row.k, "a": None, "b": None, "plan": None,
                          "reason": f"Fewer than two runs have pass@{row.k}, so there is no pair to plan for."})
            continue
        a, b = top
        if (a, b) not in pairs:
            problems_a, problems_b = ranking.summaries[a].problems, ranking.summaries[b].problems
            try:
                comparison = compare(problems_a, problems_b, ks)
            except ValueError as error:   # no task ids in common
                pairs[a, b] = None, str(error)
            else:
                pairs[a, b] = comparison, _comparison_plan(comparison, difference, tokens_per_sample,
                                                           price_per_million, budget)
        paired = pairs[a, b]
        if paired[0] is None:   # (None, why): indexed, not unpacked, so that mypy keeps the two apart
            plans.append({"k": row.k, "a": a, "b": b, "plan": None, "reason": paired[1]})
            continue
        comparison, answers = paired
        answer = answers[index]
        reason = None if answer["sentences"] else comparison.results[index].reason or \
            "The pair's difference has no spread to plan with."
        plans.append({"k": row.k, "a": a, "b": b, "plan": answer, "reason": reason})
    return plans


# The planning fields of the forms, the API and the command line: name -> (label, in points?).
# A field in points is from LIMITS.smallest_points to LIMITS.largest_points and is read as a fraction: below it the
# problems needed pass 10^13 and their square overflows a double. The others are above 0 and at most
# LIMITS.largest_amount, so that a cost stays a finite number (JSON has no Infinity).
OPTIONS: dict[str, tuple[str, bool]] = {"target": ("The target half-width (points)", True),
           "difference": ("The difference to detect (points)", True),
           "tokens_per_sample": ("Tokens per sample", False),
           "price_per_million": ("The price per million tokens", False)}


def option_value(name: str, text: str | None) -> float:
    """One planning option's value from its text, as the command line's flags give it (see checked_option)."""
    text = (text or "").strip()
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    return checked_option(name, value, text)


def checked_option(name: str, value: float, shown: str) -> float:
    """One planning option's value (see OPTIONS): a target or difference in points as a fraction, an amount as it
    is; ValueError naming the option, and showing the value as it was given (shown), outside its range."""
    label, in_points = OPTIONS[name]
    if not (LIMITS.smallest_points <= value <= LIMITS.largest_points if in_points
            else 0 < value <= LIMITS.largest_amount):
        allowed = f"from {LIMITS.smallest_points:g} to {LIMITS.largest_points:g}" if in_points else \
            f"a number above 0, at most {LIMITS.largest_amount:,.0f}"
        raise ValueError(f"{label} must be {allowed}; got {shown[:40]!r}.")
    return value / 100 if in_points else value

