"""The 95% intervals behind every error bar: one binomial interval, read at an effective number of trials.

A mean of P values in [0, 1] with standard error SE carries as much information
as a proportion seen in n* = mean (1 - mean) / SE^2 pass/fail trials (for 0/1
values n* is P - 1; values between 0 and 1 with little spread give more). Each
interval below is the mid-p binomial interval at n* trials with mean * n* of
them passing (Lancaster 1961; recommended for coverage near the nominal level
by Agresti and Gottard 2007, Statistical Science 22:2, and Brown, Cai and
DasGupta 2001, Statistical Science 16:101), with trials and passes allowed to
be any non-negative numbers through the incomplete beta function. Near 0 and 1
it leans away from the boundary as the Poisson tail does, which the Wilson
interval does not (its coverage dips to 85% one or two outcomes from the
boundary); it is continuous in the data.

- population_interval: problems as a sample of problems like these. n* is
  scaled by (z / t_{P-1})^2 for the few degrees of freedom of the SE (Korn and
  Graubard 1998, Survey Methodology 24:193). It never claims more than a
  boundary cap allows: with less than about a quarter of a problem's worth of
  distance between the mean and 0 or 1 (P min(mean, 1 - mean)), an unseen
  problem at the other end could move the mean more than the spread of the ones
  seen suggests, so n* falls smoothly to P, as if the problems were pass/fail.
  That keeps [1, 1 - 1e-16] and [1, 1] apart by nothing but 1e-16.
- fixed_interval: these very problems, with the sampling noise of their
  estimates only (passk.maths.variance's SE); the trials are the disjoint k-sample
  draws sum_i n_i / k, the same cap applies to them, and no t scaling (the
  variance comes from a model, not from a spread of P values).
- paired_interval: a paired difference of two runs, d_i in [-1, 1], as two
  proportions of one trinomial: q+ = (mean |d| + mean d) / 2 and
  q- = (mean |d| - mean d) / 2 at n* = (mean |d| - mean d^2) / SE^2 trials,
  combined by the method of variance estimates recovery (MOVER: Zou and Donner
  2008, Computational Statistics & Data Analysis 52:5; Newcombe 1998,
  Statistics in Medicine 17:2635) with the trinomial's correlation. When few
  problems differ between the runs it stays as wide as their number warrants
  (all d_i = 0 give about +-3/P, the rule of three), where mean +- t SE gives
  nothing or a point. Its p-value is the level at which the interval touches 0,
  so the two never disagree.
"""

import math
from collections.abc import Callable
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray
from scipy.special import betainc, betaln

from passk.maths.stats import t_quantile

CONFIDENCE = 0.95
BOUNDARY_PROBLEMS = 0.25   # the cap's scale: problems' worth of distance from 0 or 1 (see the module docstring)
_NORMAL = NormalDist()
_Z = t_quantile(0.5 + CONFIDENCE / 2, math.inf)
_TINY = 2.0**-1022   # the smallest normal double


def midp_interval(passes: float, trials: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The mid-p interval for a proportion with passes of trials (both real numbers, 0 <= passes <= trials).

    The lower end L solves P(X > x) + P(X = x) / 2 = alpha / 2 for X binomial
    (trials, L), written with the regularized incomplete beta function so that
    x and the trials need not be whole; the upper end mirrors it.

    >>> [round(end, 4) for end in midp_interval(3, 10)]
    [0.0809, 0.6469]
    """
    return _midp_ends(passes, trials, (1 - confidence) / 2)


def _midp_ends(passes: float, trials: float, tail: float) -> tuple[float, float]:
    """midp_interval at one-sided level tail (given as such, so that levels below 1e-16 keep their digits)."""
    if not (0 <= passes <= trials and trials > 0):
        raise ValueError(f"the mid-p interval needs 0 <= passes <= trials and trials > 0; "
                         f"got {passes!r} of {trials!r}.")
    return _midp_lower(passes, trials, tail), 1.0 - _midp_lower(trials - passes, trials, tail)


def _midp_lower(passes: float, trials: float, tail: float) -> float:
    """The mid-p lower end for passes of trials at one-sided level tail (0 when nothing passed)."""
    return _midp_lower_and_slope(passes, trials, tail)[0]


def _midp_lower_and_slope(passes: float, trials: float, tail: float) -> tuple[float, float]:
    """(the mid-p lower end L, dL / d log tail): passes of trials at one-sided level tail."""
    if passes <= 0 or tail <= 0:   # nothing passed, or a level so near 1 that no rate is excluded
        return 0.0, 0.0
    fails = trials - passes
    if (1.0 if fails > 0 else 0.5) <= tail:   # the whole tail at rate 1 is within the level: the end sits at 1
        return 1.0, 0.0
    # Solved for log(rate), where the tail is smooth however small the end (a few hundredths of a trial put it
    # near 1e-250), from Wilson's end at the same level. An end below the smallest normal double is 0.
    tail_at, log_tail = _UpperTail(passes, fails), math.log(tail)
    guess = _wilson_lower(passes, trials, tail)
    low = math.log(_TINY)
    log_rate, slope, _ = _newton_root(lambda log_rate: tail_at.log_excess(log_rate, log_tail),
                                      math.log(guess) if guess > _TINY else low / 2, low, 0.0, _LOG_RATE_TOLERANCE)
    if log_rate <= low * (1 - _LOG_RATE_TOLERANCE) and tail_at.tail(_TINY) >= tail:
        return 0.0, 0.0
    end = math.exp(log_rate)
    return end, end / slope if slope > 0 else 0.0


_MOST_STEPS = 200
_LOG_RATE_TOLERANCE = 1e-15   # relative, in log(rate): the ends to their last digit or two
_LOG_LEVEL_TOLERANCE = 1e-12  # relative, in log(level): the p-value to about 1e-11
_HALF = math.log(0.5)


def _newton_root(function: Callable[[float], tuple[float, float]], start: float, low: float, high: float,
                 tolerance: float) -> tuple[float, float, bool]:
    """(x, slope there, crossed) where an increasing function(x) -> (value, slope) reaches 0 in [low, high].

    Newton's method from start; a step that would leave the bracket known so far halves it instead, so it
    cannot wander. It stops when a step or the bracket is within tolerance (relative, at least absolute).
    crossed: whether values of both signs were seen (else the caller may check the ends).
    """
    point, slope, signs = start, math.nan, set()
    for _ in range(_MOST_STEPS):
        value, slope = function(point)
        if value == 0:
            return point, slope, True
        signs.add(value > 0)
        low, high = (point, high) if value < 0 else (low, point)
        step = -value / slope if slope > 0 else math.inf
        if abs(step) <= tolerance * max(1.0, abs(point)):
            return point + step, slope, len(signs) == 2
        point = point + step if low < point + step < high else 0.5 * (low + high)
        if high - low <= tolerance * max(1.0, abs(point)):
            break
    return point, slope, len(signs) == 2


class _UpperTail:
    """The mid-p upper tail P(X > x) + P(X = x) / 2 of passes x of x + fails trials, as a function of the rate.

    It is 0.5 (I_r(x, fails + 1) + I_r(x + 1, fails)), I the regularized incomplete beta function (the
    second term 0 when fails = 0); its derivative in the rate, 0.5 r^(x-1) (1-r)^(fails-1) (1 - r + r fails
    / x) ... over B(x, fails + 1), needs one beta function for all rates.
    """

    def __init__(self, passes: float, fails: float) -> None:
        self.passes, self.fails = passes, fails
        self.log_beta = float(betaln(passes, fails + 1))

    def tail(self, rate: float) -> float:
        beyond = betainc(self.passes + 1, self.fails, rate) if self.fails > 0 else 0.0
        return 0.5 * float(betainc(self.passes, self.fails + 1, rate) + beyond)

    def log_excess(self, log_rate: float, log_tail: float) -> tuple[float, float]:
        """(log tail(r) - log_tail, its derivative in log r) at r = e^log_rate."""
        rate = math.exp(log_rate)
        upper = self.tail(rate)
        if upper <= 0:
            return -math.inf, math.nan
        if rate >= 1:
            return math.log(upper) - log_tail, math.nan
        passes, fails = self.passes, self.fails
        log_density = passes * log_rate + fails * math.log1p(-rate) - self.log_beta   # r x' of I_r(x, f+1)
        density = 0.5 * math.exp(log_density) * (1 + rate * fails / ((1 - rate) * passes))
        return math.log(upper) - log_tail, density / upper


def _wilson_lower(passes: float, trials: float, tail: float) -> float:
    """Wilson's score lower end at one-sided level tail: where the search for the mid-p end starts."""
    z = -_NORMAL.inv_cdf(tail) if tail > 1e-300 else 37.5
    share, shrink = passes / trials, z * z / trials
    return max(0.0, ((share + shrink / 2) - z * math.sqrt(share * (1 - share) / trials + shrink / trials / 4))
               / (1 + shrink))


def capped_trials(mean: float, se: float, units: float) -> float:
    """mean (1 - mean) / SE^2, at most units (1 + (units min(mean, 1 - mean) / BOUNDARY_PROBLEMS)^2): see above.

    units is the number of independent units (problems, or k-sample draws); a
    mean of exactly 0 or 1 gives units, as pass/fail units would.
    """
    cap = units * (1 + (units * min(mean, 1 - mean) / BOUNDARY_PROBLEMS) ** 2)
    spread = mean * (1 - mean)
    if spread <= 0:
        return float(units)
    return min(spread / se**2, cap) if se > 0 else cap


def population_interval(mean: float, se: float, count: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The 95% interval for the mean over problems like these of count values in [0, 1] with this SE.

    >>> [round(end, 4) for end in population_interval(0.5, 0.5 / 3, 10)]   # five 0s and five 1s
    [0.1771, 0.8229]
    >>> population_interval(1.0, 0.0, 164)[0] > 0.97                       # 164 solved of 164
    True
    """
    if not (0 <= mean <= 1 and se >= 0 and count >= 2):
        raise ValueError(f"the interval needs a mean in [0, 1], an SE >= 0 and two values or more; "
                         f"got mean {mean!r}, SE {se!r}, {count!r} values.")
    scale = (_Z / t_quantile(0.5 + confidence / 2, count - 1)) ** 2
    trials = capped_trials(mean, se, count) * scale
    return midp_interval(mean * trials, trials, confidence)


def spread_and_interval(values: NDArray[np.float64], weights: NDArray[np.int64], mean: float, count: int
                        ) -> tuple[float | None, tuple[float, float] | None]:
    """s / sqrt(P) and population_interval for the mean of count per-problem values in [0, 1], values[i] held by
    weights[i] problems (count = their sum); (None, None) below two problems."""
    if count < 2:
        return None, None
    se = _standard_error(values, weights, mean, count)
    return se, population_interval(min(1.0, max(0.0, mean)), se, count)


def _standard_error(values: NDArray[np.float64], weights: NDArray[np.int64], mean: float, count: int) -> float:
    """s / sqrt(P) of count >= 2 values, values[i] held by weights[i] problems."""
    variance = np.sum(weights * (values - mean) ** 2) / (count - 1)
    return float(np.sqrt(variance / count))


def shape(values: NDArray[np.float64], weights: NDArray[np.int64], mean: float
          ) -> tuple[float, float, float, float]:
    """(skewness, share of values strictly between 0 and 1, problems' worth between the mean and the nearer of 0
    and 1, trials per problem n*/P) of per-problem values (0 skew without spread), for population_note; values[i]
    is held by weights[i] problems. n* is the trials the population interval reads the mean at (capped_trials,
    before the t scaling): 1 per problem for pass/fail values, more when the values are fractions."""
    deviations = values - mean
    largest = float(np.max(np.abs(deviations))) if deviations.size else 0.0
    if largest > 0:   # skewness does not depend on the scale; values near 1e-160 would underflow its moments
        deviations = deviations / largest
    second = float(np.sum(weights * deviations**2))
    third = float(np.sum(weights * deviations**3))
    total = float(np.sum(weights))
    skewness = third / total / (second / total) ** 1.5 if second > 0 else 0.0
    inside = float(np.sum(weights[(values > 0) & (values < 1)])) / total
    count, clamped = int(total), min(1.0, max(0.0, mean))
    if count < 2:
        return skewness, inside, count * min(clamped, 1 - clamped), 1.0
    trials = capped_trials(clamped, _standard_error(values, weights, mean, count), count) / count
    return skewness, inside, count * min(clamped, 1 - clamped), trials


def fixed_interval(mean: float, se: float, draws: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The 95% interval for the mean on these very problems, given the SE of their sampling noise alone.

    draws is sum_i n_i / k, the disjoint k-sample draws the samples make.
    """
    if not (0 <= mean <= 1 and se >= 0 and draws > 0):
        raise ValueError(f"the interval needs a mean in [0, 1], an SE >= 0 and some samples; "
                         f"got mean {mean!r}, SE {se!r}, {draws!r} draws.")
    trials = capped_trials(mean, se, draws)
    return midp_interval(mean * trials, trials, confidence)


class PairedDifference:
    """The paired difference of P values in [-1, 1]: its trinomial form, its interval and its p-value."""

    def __init__(self, mean: float, mean_absolute: float, sd: float, count: int) -> None:
        self.mean, self.count = mean, count
        self.up = min(1.0, max(0.0, (mean_absolute + mean) / 2))     # q+: the share that favours run A
        self.down = min(1.0, max(0.0, (mean_absolute - mean) / 2))   # q-: the share that favours run B
        spread = max(mean_absolute - mean * mean, 0.0)
        se = sd / math.sqrt(count)
        cap = count * (1 + (count * mean_absolute / BOUNDARY_PROBLEMS) ** 2)
        trials = count if spread <= 0 else min(spread / se**2, cap) if se > 0 else cap
        self.trials = trials * (_Z / t_quantile(0.5 + CONFIDENCE / 2, count - 1)) ** 2
        inside = 0 < self.up < 1 and 0 < self.down < 1
        self.correlation = -math.sqrt(self.up * self.down / ((1 - self.up) * (1 - self.down))) if inside else 0.0

    def interval(self, confidence: float = CONFIDENCE) -> tuple[float, float]:
        """(low, high) within [-1, 1]: MOVER from the mid-p intervals of q+ and q- at the trials."""
        tail = (1 - confidence) / 2
        return self._low(tail), self._high(tail)

    def _lower_end(self, share: float, tail: float) -> float:
        return _midp_lower(share * self.trials, self.trials, tail)

    def _upper_end(self, share: float, tail: float) -> float:
        return 1.0 - _midp_lower((1 - share) * self.trials, self.trials, tail)

    def _low(self, tail: float) -> float:
        up_low, down_high = self._lower_end(self.up, tail), self._upper_end(self.down, tail)
        return max(-1.0, self.mean - self._recovered(self.up - up_low, down_high - self.down))

    def _high(self, tail: float) -> float:
        up_high, down_low = self._upper_end(self.up, tail), self._lower_end(self.down, tail)
        return min(1.0, self.mean + self._recovered(up_high - self.up, self.down - down_low))

    def _recovered(self, first: float, second: float) -> float:
        """sqrt(first^2 + second^2 - 2 r first second): one side's half-width from the two parts' (MOVER)."""
        return math.sqrt(max(first * first + second * second - 2 * self.correlation * first * second, 0.0))

    def p_value(self) -> float:
        """The two-sided p-value: 1 - the confidence at which the interval's nearer end reaches 0."""
        if self.mean == 0:
            return 1.0
        low, high = math.log(1e-300), math.log(1 - 1e-12)
        # Newton's method in log(level) from the normal approximation's p-value: a few steps.
        guess = math.erfc(abs(self.mean) / math.sqrt(2 * max(self.up + self.down - self.mean**2, 1e-300) / self.trials))
        start = min(max(math.log(max(guess, 1e-300)), low), high)
        log_level, _, crossed = _newton_root(self._beyond_zero, start, low, high, _LOG_LEVEL_TOLERANCE)
        # Seen from one side only, 0 may stay inside the interval at every level, or outside it; and near level 1
        # the nearer end can touch 0 and turn back (when one share is 0): then 0 is inside at level 1, p = 1.
        if (log_level > _HALF or not crossed and log_level > start) and self._beyond_zero(high)[0] <= 0:
            return 1.0
        if not crossed and log_level < start and self._beyond_zero(low)[0] > 0:
            return 0.0
        return math.exp(log_level)

    def _beyond_zero(self, log_level: float) -> tuple[float, float]:
        """(how far the nearer end of the interval at confidence 1 - e^log_level is from 0, its slope in log_level).

        The end is mean -+ the MOVER half-width toward 0 of two parts, each a share minus a mid-p lower end:
        q+ and 1 - q- for the low end, 1 - q+ and q- for the high end.
        """
        tail = math.exp(log_level) / 2
        shares = (self.up, 1 - self.down) if self.mean > 0 else (1 - self.up, self.down)
        (first, first_slope), (second, second_slope) = (
            _midp_lower_and_slope(share * self.trials, self.trials, tail) for share in shares)
        if self.mean > 0:
            first, second = self.up - first, (1.0 - second) - self.down
        else:
            first, second = (1.0 - first) - self.up, self.down - second
        width = self._recovered(first, second)
        if width <= 0:
            return abs(self.mean), math.nan
        rho = self.correlation
        return abs(self.mean) - width, ((first - rho * second) * first_slope
                                        + (second - rho * first) * second_slope) / width


# Where the simulated coverage of docs/coverage.md fell below 93%, and the sentence that says so beside the interval
# (tests/passk/maths/test_coverage_notes.py keeps the figures equal to the report's). Skewed values mostly strictly inside
# (0, 1): bench/coverage.py, seed 20261124, 2,000 draws a scenario.
SKEWED = 2.0            # |skewness| of the per-problem values from which the population note speaks
SKEWED_BELOW = 200      # ... with fewer problems than this, and at least SKEWED_FROM (fewer: it over-covers)
SKEWED_FROM = 20
# SKEWED_COVERAGE: the population interval where bench/coverage.py's skewed scenarios at P >= 30 fell below 93%,
# measured again with 10,000 draws each (bench/coverage_edges.py, seed 20261205): the range of those below 93%.
SKEWED_COVERAGE = (91.9, 92.5)
# A mean within some problems' worth of 0 or 1, made of exact 0s (or 1s) and a thin tail of fractions (pass^k and
# G-Pass@k_tau >= 0.75 of low pass rates, pass@k of high ones, pass@100 of n = 200): the interval reads the
# fractions as several trials per problem, and a draw that holds fewer of the rare far values than the population
# does (or one more) lies off the truth. The note speaks from 0 problems' worth up: the misses are in the draws
# whose mean came out nearest the boundary. bench/coverage_tails.py (seed 20261205) chose the bounds on its grid of
# 1,198 scenarios; bench/coverage_beside.py (seed 20261126) measures TAIL_COVERAGE (docs/coverage.md).
TAIL_DISTANCE = 20.0          # problems' worth between the mean and 0 or 1 up to which the tail note speaks (P >= 20)
TAIL_TRIALS = 1.1             # ... when the interval reads the values as more than this many trials per problem
TAIL_COVERAGE = (88.3, 99.2)  # the population interval in bench/coverage_beside.py's scenarios where it mostly shows
FEW_FIXED = 30          # the fixed-benchmark note below this many problems
FEW_FIXED_COVERAGE = (88.3, 100.0)   # the fixed-benchmark interval at P = 10
# With only two k-sample draws of a problem (n < 3k) the fixed interval needs more problems: at n = 2, k = 1 it
# held the truth 92.7% of the time at P = 30, 93.2% at 40, 93.5% at 50 (bench/coverage_edges.py, 20 benchmarks).
FEW_FIXED_TWO = 50
FEW_FIXED_TWO_COVERAGE = 92.7       # the fixed-benchmark interval at P = 30, n = 2, k = 1, Beta(0.5, 0.5)


def population_note(count: int, skewness: float, inside_share: float, distance: float,
                    trials_per_problem: float) -> str | None:
    """A sentence where the population interval is known to fall short (else None): strongly skewed values, mostly
    strictly between 0 and 1, of few problems; else a mean within TAIL_DISTANCE problems' worth of 0 or 1 carried
    by a tail of fractions (distance: P min(mean, 1 - mean); trials_per_problem: n*/P). shape() gives the four
    figures."""
    if SKEWED_FROM <= count < SKEWED_BELOW and abs(skewness) >= SKEWED and inside_share >= 0.5:
        return (f"The per-problem values pile up near one end with a thin tail (skewness {skewness:+.1f}) and there "
                f"are only {count:,} problems: in simulations like this the 95% interval held the truth "
                f"{SKEWED_COVERAGE[0]}–{SKEWED_COVERAGE[1]}% of the time, not 95% (docs/coverage.md).")
    if count < SKEWED_FROM or distance > TAIL_DISTANCE or trials_per_problem <= TAIL_TRIALS:
        return None
    return (f"The mean is {distance:.1f} problems' worth from 0 or 1 (within the {TAIL_DISTANCE:g} where fractional "
            f"values, here read as {trials_per_problem:.1f} trials per problem, can mislead the interval): in "
            f"simulations like this the 95% interval held the truth {TAIL_COVERAGE[0]}–{TAIL_COVERAGE[1]}% of the "
            f"time, often less than 95% (docs/coverage.md).")


def fixed_note(count: int, draws_per_problem: float = math.inf) -> str | None:
    """A sentence when there are too few problems for the fixed-benchmark interval to keep its promise
    (draws_per_problem: the fewest samples of a problem over k)."""
    if count < FEW_FIXED:
        return (f"With fewer than {FEW_FIXED} problems the interval on these very problems held the truth "
                f"{FEW_FIXED_COVERAGE[0]:g}–{FEW_FIXED_COVERAGE[1]:g}% of the time in simulations at 10 problems, "
                f"not 95% (docs/coverage.md).")
    if count < FEW_FIXED_TWO and draws_per_problem < 3:
        return (f"With fewer than {FEW_FIXED_TWO} problems and fewer than 3k samples of some problem, the interval "
                f"on these very problems held the truth {FEW_FIXED_TWO_COVERAGE:g}% of the time in simulations at "
                f"30 problems of 2 samples each, not 95% (docs/coverage.md).")
    return None


# The paired interval's caution at few problems: where run A is truly better, the share of runs in which p < 0.05,
# by compare's p-value (MOVER) and by the paired t test. bench/coverage_edges.py, seed 20261205, 10,000 draws
# (docs/coverage.md, "Power of the paired test at small P"; tests/passk/maths/test_coverage_notes.py keeps them equal).
FEW_PAIRED = 20                                      # the compare note on power below this many paired problems
FEW_PAIRED_POWER = ((5, 8.5, 13.9), (10, 45.0, 52.4))   # (P, MOVER %, paired t test %)


def few_paired_note(count: int) -> str | None:
    """A sentence for a comparison of fewer than FEW_PAIRED problems: its p-value finds a real gap less often
    than the paired t test does, so a p-value above 0.05 says little."""
    if count >= FEW_PAIRED:
        return None
    (small, mover_small, t_small), (large, mover_large, t_large) = FEW_PAIRED_POWER
    return (f"With only {count} paired problems this p-value is cautious: in simulations where run A was truly "
            f"better it fell below 0.05 in {mover_small:.1f}% of runs at {small} problems and {mover_large:.1f}% "
            f"at {large}, where the paired t test did in {t_small:.1f}% and {t_large:.1f}%; a p-value above 0.05 "
            f"here is weak evidence that the runs are equal (docs/coverage.md).")
