"""pass@k over a benchmark: the mean over problems, its standard errors, paired comparison.

For P problems, problem i with n_i samples of which c_i passed, the benchmark's
pass@k is the mean of the problems' own pass@k (Chen et al. 2021,
arXiv:2107.03374), reported only when every n_i >= k. Two error bars:

- across problems: s / sqrt(P), s the sample standard deviation of the
  per-problem values, with the 95% interval of passk.maths.intervals: the mid-p
  binomial interval at the effective number of trials mean (1 - mean) / SE^2,
  which leans away from 0 and 1 where the values pile up;
- fixed benchmark (sampling noise only): sqrt(sum_i E[V_i]) / P, E[V_i] the
  variance of problem i's estimate averaged over a beta-binomial posterior for
  its pass rate (passk.maths.variance), with the same kind of interval over the
  sum_i n_i / k draws of k samples; needs every n_i >= 2k.

Paired comparisons give the difference's interval and p-value from one
procedure: the trinomial interval of passk.maths.intervals and the p-value it
inverts to, so the interval leaves out 0 exactly when p < 0.05.

Problems are any objects with .task_id, .n and .c. Benchmarks repeat a few
(n, c) pairs many times, so each distinct pair is computed once.
"""

import math
import re
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import filterfalse, islice
from numbers import Integral
from operator import attrgetter
from typing import Any, Protocol, TypeAlias, TypedDict, cast

import numpy as np
from numpy.typing import NDArray

from passk.maths.bayes import Bayes, bayes_at_n
from passk.grammar import agree, plural
from passk.maths.estimator import DEFAULT_KS, MAX_N, Floats, Ints, _pass_at_k_array, _pass_hat_k_array, distinct_pairs
from passk.maths.intervals import (PairedDifference, few_paired_note, fixed_interval, fixed_note, population_note, shape,
                                   spread_and_interval)
from passk.maths.passfail import binary_note
from passk.formats._core import Vote
from passk.limits import LIMITS
from passk.maths.majority import Tie
from passk.maths.means import exact_total
from passk.results.metrics import GPass, Majority, g_pass_table, majority_table
from passk.results.metrics import Averages, Graded, average_table, graded, graded_table
from passk.maths.scores import checked_scores
from passk.maths.variance import MAX_TERMS, expected_variance, fit_prior
from passk.maths.variance import _windows as _overlap_windows

IDS_NAMED = 5         # task ids a message names before "and N more"
CONFIDENCE = 0.95
_CHUNK = 1 << 16      # distinct (n, c) pairs per vectorised step, to bound memory

Positions: TypeAlias = NDArray[np.intp]   # indices into the problems (np.flatnonzero's), or task ids' codes
Prior: TypeAlias = tuple[float, float]    # Beta(a, b) for the pass rates, as passk.maths.variance.fit_prior fits it
Estimator: TypeAlias = Callable[[Ints, Ints, int], Floats]   # (n array, c array, k) -> a value per entry
Row: TypeAlias = dict[str, Any]           # a JSON object of the API's answer, keyed by passk.writing.columns' names


class ProblemCounts(Protocol):
    """What this module reads of a problem: passk.formats.Problem, or any object with these attributes."""

    @property
    def task_id(self) -> str: ...

    @property
    def n(self) -> int: ...      # samples generated

    @property
    def c(self) -> int: ...      # samples that passed


class Gain(TypedDict):
    """What drawing k samples instead of one adds, in percentage points."""
    k: int
    points: float


class Retries(TypedDict):
    """retries()'s answer: the gains over pass@1 per defined k, and a sentence about them."""
    pass_at_1: float
    gains: list[Gain]
    from_flaky: int
    broken: int
    sentence: str | None


class PairedProblemRow(TypedDict):
    """One paired problem of a Comparison: each run's pass@k and their difference by k, None where undefined."""
    task_id: str
    a: dict[int, float | None]
    b: dict[int, float | None]
    difference: dict[int, float | None]


@dataclass
class KResult:
    """One row of the results table: the benchmark's pass@k for one k and its error bars."""
    k: int
    pass_at_k: float | None
    se: float | None
    ci95: tuple[float, float] | None
    se_fixed: float | None
    reason: str | None
    pass_hat: "KResult | None" = None   # the same row for pass^k (all k samples pass), when computed
    ci95_fixed: tuple[float, float] | None = None   # the 95% interval on these very problems (from se_fixed)
    coverage_note: str | None = None    # where the 95% interval is known not to cover 93-97% of the time

    @property
    def defined(self) -> bool:
        """False where some problem has fewer than k samples (reason says which)."""
        return self.pass_at_k is not None


@dataclass
class Summary:
    """A benchmark's pass@k for each k, with counts, statuses and warnings."""
    problems: list[ProblemCounts]
    ks: list[int]
    results: list[KResult]
    per_problem_pass_at_k: dict[int, Floats]   # k -> float array, nan where n_i < k
    samples: int
    min_n: int
    max_n: int
    broken: int
    flaky: int
    solid: int
    warnings: list[str]
    per_problem_pass_hat_k: dict[int, Floats] = field(default_factory=dict)   # k -> pass^k array, nan where n_i < k
    retries: Retries | None = None   # what retries buy: see retries()
    majority: Majority | None = None   # maj@k, when every problem's samples carry extracted answers (votes)
    g_pass: GPass | None = None        # G-Pass@k_tau and mG-Pass@k, when a tau was asked for
    graded: Graded | None = None       # the mean score and max@k, when some sample's score is neither 0 nor 1
    averages: Averages | None = None   # avg@k and the seeds' spread, when every problem's samples carry scores
    # Bayes@N (the posterior mean of the pass rate with its credible interval): worked out when first read
    computed_bayes: Bayes | None = field(default=None, repr=False, compare=False)

    @property
    def bayes(self) -> Bayes:
        """Bayes@N of the problems (passk.maths.bayes), computed once, when first asked for: most summaries (a
        simulation's, a share link's recalculation) never show it."""
        if self.computed_bayes is None:
            self.computed_bayes = bayes_at_n(*_counts(self.problems))
        return self.computed_bayes


def status(n: int, c: int) -> str:
    """'broken' when nothing passed, 'solid' when everything did, else 'flaky'."""
    return "broken" if c == 0 else "solid" if c == n else "flaky"


def summarize(problems: Iterable[ProblemCounts], ks: Iterable[int] = DEFAULT_KS,
              warnings: Iterable[str] = (), tau: float | None = None, tie: Tie = "fractional",
              vote_work: float | None = None, tail_work: float | None = None, score_work: float | None = None,
              variance_terms: int | None = None) -> Summary:
    """pass@k over the problems for each k, with both standard errors; see the module docstring.

    Beside it (passk.results.metrics): maj@k with the tie rule tie, when every problem carries its samples' votes,
    and G-Pass@k_tau with mG-Pass@k when tau is given; vote_work bounds the voting (metrics.majority_table),
    tail_work G-Pass@k's tails (metrics.g_pass_table), score_work max@k's sums (metrics.graded_table), in
    estimated microseconds (None: no bound); where every problem carries its samples' scores (Problem.scores),
    avg@k and the seeds' spread, and the mean score and max@k when some score is neither 0 nor 1;
    variance_terms the fixed-benchmark SE's overlap terms over every k (passk.maths.variance; None: no bound), a k's
    SE past it left out with a reason before its terms are summed.
    """
    problems = list(problems)
    if not problems:
        raise ValueError("No problems: the input holds no task with samples; give at least one "
                         "problem, as `n c` lines or a harness results file.")
    ks = _checked_ks(ks)
    samples, correct = _counts(problems)
    pairs = _DistinctPairs.of(samples, correct)
    # pass^k is pass@k's miss chance with passes and failures swapped: C(c, k)/C(n, k).
    swapped = _DistinctPairs(pairs.samples, pairs.samples - pairs.correct, pairs.weights, pairs.where)
    prior = fit_prior(samples, correct)   # the pass rates' spread, for the fixed-benchmark noise
    rates = _rate_sum(pairs)              # pass@1 = pass^1 = c/n, summed exactly
    results: list[KResult] = []
    terms = _Terms(variance_terms)
    per_problem: dict[int, Floats] = {}
    per_problem_hat: dict[int, Floats] = {}
    for k in ks:
        pair_values = _pass_at_k_where_defined(pairs.samples, pairs.correct, k)
        hat_values = _pass_hat_k_where_defined(pairs.samples, pairs.correct, k)
        per_problem[k], per_problem_hat[k] = pair_values[pairs.where], hat_values[pairs.where]
        exact = rates if k == 1 else exact_total(pairs.samples, pairs.correct, pairs.weights, k)
        result = _k_result(problems, samples, pairs, pair_values, k, prior, exact, terms)
        if result.pass_at_k is not None:
            exact_hat = rates if k == 1 else exact_total(swapped.samples, swapped.correct, swapped.weights, k, miss=True)
            result.pass_hat = _k_result(problems, samples, swapped, hat_values, k, prior[::-1], exact_hat, terms)
        results.append(result)
    broken = int(np.count_nonzero(correct == 0))
    flaky = int(np.count_nonzero((correct > 0) & (correct < samples)))
    return Summary(
        problems=problems, ks=ks, results=results, per_problem_pass_at_k=per_problem,
        per_problem_pass_hat_k=per_problem_hat,
        retries=retries(results, float(np.mean(correct / samples)), flaky, broken),
        samples=int(samples.sum()), min_n=int(samples.min()), max_n=int(samples.max()),
        broken=broken, solid=int(np.count_nonzero(correct == samples)), flaky=flaky,
        warnings=list(warnings) + _misuse_warnings(samples),
        majority=_majority(problems, ks, tie, vote_work),
        g_pass=None if tau is None else g_pass_table(samples, correct, ks, tau, tail_work),
        **_from_scores(problems, ks, score_work))


def _from_scores(problems: list[ProblemCounts], ks: list[int], work: float | None) -> dict[str, Any]:
    """Summary's graded and averages (metrics.graded_table, metrics.average_table) when every problem carries a
    score for each of its samples: averages where some problem has two samples or more, graded where some score
    is neither 0 nor 1; else nothing."""
    scores = [getattr(problem, "scores", None) for problem in problems]
    if not all(problem_scores and len(problem_scores) == problem.n for problem_scores, problem in zip(scores, problems)):
        return {}
    checked = [checked_scores(cast(tuple[float, ...], problem_scores), f"problem {problem.task_id}")
               for problem_scores, problem in zip(scores, problems)]
    return {"graded": graded_table(checked, ks, work) if graded(checked) else None,
            "averages": average_table(checked, ks) if max(problem.n for problem in problems) > 1 else None}


def _majority(problems: list[ProblemCounts], ks: list[int], tie: Tie, work: float | None) -> Majority | None:
    """metrics.majority_table of the problems when each carries a vote for each of its samples and some has two
    samples or more (with one sample each, maj@1 is pass@1 of the samples with an answer), else None."""
    votes = [getattr(problem, "votes", None) for problem in problems]
    if max(problem.n for problem in problems) < 2 or not all(problem_votes and len(problem_votes) == problem.n for problem_votes, problem in zip(votes, problems)):
        return None
    return majority_table([problem.task_id for problem in problems], cast(list[tuple[Vote, ...]], votes), ks, tie,
                          work)


def retries(results: Sequence[KResult], pass_at_1: float, flaky: int, broken: int) -> Retries:
    """What drawing k samples instead of one adds: per defined k, pass@k - pass@1 in points, and a sentence.

    Broken (c = 0) and solid (c = n) problems have pass@k = pass@1 for every k,
    so all of the gain comes from the flaky problems (0 < c < n).
    """
    # Exactly 0 where it is 0 by construction, not the last-bit difference of two ways to the same mean.
    gains: list[Gain] = [{"k": row.k, "points": 0.0 if row.k == 1 or not flaky else 100 * (row.pass_at_k - pass_at_1)}
             for row in results if row.pass_at_k is not None]
    largest = max((gain for gain in gains if gain["k"] > 1), key=lambda gain: gain["k"], default=None)
    helpless = (f"{plural(broken, 'problem')} never {agree(broken, 'passes', 'pass')} and no retry helps "
                f"{agree(broken, 'it', 'them')}." if broken else "no problem is broken (c = 0).")
    if largest is None:
        sentence = None
    elif not flaky:
        sentence = (f"Retries add nothing from pass@1 to pass@{largest['k']:,}: no problem is flaky "
                    f"(0 < c < n), and only flaky problems gain from more tries; {helpless}")
    else:
        sentence = (f"Retries add {largest['points']:.1f} points from pass@1 to pass@{largest['k']:,}, all from "
                    f"the {plural(flaky, 'flaky problem')}; {helpless}")
    return {"pass_at_1": pass_at_1, "gains": gains, "from_flaky": flaky, "broken": broken, "sentence": sentence}


def _k_result(problems: list[ProblemCounts], samples: Ints, pairs: "_DistinctPairs", pair_values: Floats, k: int,
              prior: Prior, exact: Fraction | None = None, terms: "_Terms | None" = None) -> KResult:
    """The results row for k: undefined unless every n_i >= k (prior: the pass-rate prior, for the fixed SE;
    exact: the problems' values summed exactly, when known)."""
    short = np.flatnonzero(samples < k)
    if short.size:
        return KResult(k, None, None, None, None,
                       f"pass@{k} is undefined: {_how_many_have(short, problems)} fewer than {k:,} "
                       f"samples{_which(short, problems)}, and every problem needs n ≥ {k:,}.")
    mean, se, ci95 = _mean_se_interval(pairs, pair_values, len(problems), exact)
    se_fixed, reason = _fixed_benchmark_se(problems, samples, pairs, k, prior, terms)
    ci95_fixed = None if se_fixed is None else fixed_interval(min(1.0, max(0.0, mean)), se_fixed, samples.sum() / k)
    notes = [population_note(len(problems), *_shape(pairs, pair_values, mean)) if ci95 else None,
             binary_note(pair_values, pairs.weights) if ci95 else None,
             fixed_note(len(problems), int(samples.min()) / k) if ci95_fixed else None]
    return KResult(k, mean, se, ci95, se_fixed, reason, ci95_fixed=ci95_fixed,
                   coverage_note=" ".join(filter(None, notes)) or None)


def _shape(pairs: "_DistinctPairs", pair_values: Floats, mean: float) -> tuple[float, float, float, float]:
    """(skewness, share of values strictly between 0 and 1, problems' worth from 0 or 1, trials per problem) of the
    per-problem values: intervals.shape."""
    return shape(pair_values, pairs.weights, mean)


def _mean_se_interval(pairs: "_DistinctPairs", pair_values: Floats, count: int, exact: Fraction | None = None
                      ) -> tuple[float, float | None, tuple[float, float] | None]:
    """The mean over the count problems, s / sqrt(P) and the 95% interval (None, None below two problems).

    The mean is the nearest double to the exact mean when the values' exact sum is given (pass@1 = c/n, and
    passk.maths.means' exact sums: 183/400 prints as 0.4575), else the sum of the rounded values (math.fsum) over P,
    within a unit or so in the last place of it and the same on every CPU.
    """
    mean = _mean(pairs, pair_values, count, exact)
    return (mean, *spread_and_interval(pair_values, pairs.weights, mean, count))


EXACT_MEAN_PAIRS = 10_000   # distinct (n, c) whose c/n are summed as fractions, at most


def _mean(pairs: "_DistinctPairs", pair_values: Floats, count: int, exact: Fraction | None = None) -> float:
    """sum_i value_i / count: from their exact sum when given, else from the rounded values' sum (math.fsum)."""
    if exact is not None:
        return float(exact / count)
    return math.fsum(np.repeat(pair_values, pairs.weights).tolist()) / count


def pairwise_sum(terms: list[Fraction]) -> Fraction:
    """The exact sum of fractions, added in pairs, then pairs of pairs: the denominators stay small for longer than
    in a running sum, where each step's grows to the lcm of all before (10,000 c/n with different n: 8x faster)."""
    while len(terms) > 1:
        terms = [sum(terms[start:start + 2], Fraction(0)) for start in range(0, len(terms), 2)]
    return terms[0] if terms else Fraction(0)


def _rate_sum(pairs: "_DistinctPairs") -> Fraction | None:
    """Every problem's c/n added up exactly (None when there are too many distinct pairs for that to be cheap): the
    passes over each n added as whole numbers first, then those fractions by pairwise_sum (a run of 4,240
    different c/n over 625 different n: 2 ms, where the 4,240 fractions took 37)."""
    if pairs.samples.size > EXACT_MEAN_PAIRS:
        return None
    passes: dict[int, int] = {}   # n -> the passes of the problems with n samples
    for n, c, problems in zip(pairs.samples.tolist(), pairs.correct.tolist(), pairs.weights.tolist()):
        passes[n] = passes.get(n, 0) + c * problems
    return pairwise_sum(list(map(Fraction, passes.values(), passes)))


@dataclass
class KCurve:
    """pass@k and pass^k of a benchmark at many k, each with its 95% interval (None with one problem)."""
    ks: list[int]
    pass_at_k: list[float]
    pass_at_k_ci95: list[tuple[float, float] | None]
    pass_hat_k: list[float]
    pass_hat_k_ci95: list[tuple[float, float] | None]


def curve_over_k(problems: Iterable[ProblemCounts], ks: Sequence[int]) -> KCurve:
    """The means and 95% intervals of pass@k and pass^k at each k (every n_i >= k), without the fixed SE."""
    problems = list(problems)
    samples, correct = _counts(problems)
    if any(k > samples.min() for k in ks):
        raise ValueError(f"The curve over k needs every k at most the smallest n ({int(samples.min()):,}).")
    pairs = _DistinctPairs.of(samples, correct)
    curve = KCurve(list(ks), [], [], [], [])
    for k in ks:
        for means, intervals, values, exact in (
                (curve.pass_at_k, curve.pass_at_k_ci95, _pass_at_k_where_defined(pairs.samples, pairs.correct, k),
                 exact_total(pairs.samples, pairs.correct, pairs.weights, k)),
                (curve.pass_hat_k, curve.pass_hat_k_ci95, _pass_hat_k_where_defined(pairs.samples, pairs.correct, k),
                 exact_total(pairs.samples, pairs.samples - pairs.correct, pairs.weights, k, miss=True))):
            mean, _, ci95 = _mean_se_interval(pairs, values, len(problems), exact)
            means.append(mean)
            intervals.append(ci95)
    return curve


class _Terms:
    """What a request may still spend on the fixed-benchmark SE's overlap terms (None: no bound)."""

    def __init__(self, left: int | None) -> None:
        self.limit = self.left = left

    def spend(self, samples: Ints, k: int) -> str | None:
        """Spend the terms of expected_variance at k for these distinct n (the windows of passk.maths.variance, at most
        MAX_TERMS: past it, the unbiased estimate stands in); None when they fit, else why the SE is left out."""
        if self.left is None or self.limit is None:
            return None
        low, high = _overlap_windows(samples.astype(float), k)
        cost = min(float(np.sum(high - low + 1)), float(MAX_TERMS))
        if cost > self.left:
            return (f"The fixed-benchmark SE for k = {k:,} is not computed here: its noise model would sum about "
                    f"{cost:,.0f} terms for these {plural(samples.size, 'different (n, c) pair')}, past the "
                    f"{self.limit:,} one request may sum; the passk command computes it without limits.")
        self.left -= int(cost)
        return None


def _fixed_benchmark_se(problems: list[ProblemCounts], samples: Ints, pairs: "_DistinctPairs", k: int, prior: Prior,
                        terms: _Terms | None = None) -> tuple[float | None, str | None]:
    """(sqrt(sum_i E[V_i]) / P, None) from passk.maths.variance's model, or (None, why) when some n_i < 2k or its terms
    would pass what the request may still sum (terms)."""
    short = np.flatnonzero(samples < 2 * k)
    if short.size:
        return None, (f"The fixed-benchmark SE for k = {k:,} needs n ≥ {2 * k:,}: "
                      f"{_how_many_have(short, problems)} fewer samples{_which(short, problems)}.")
    refused = terms.spend(pairs.samples, k) if terms else None
    if refused:
        return None, refused
    pair_variances = expected_variance(pairs.samples, pairs.correct, k, prior)
    return math.sqrt(math.fsum((pairs.weights * pair_variances).tolist())) / len(problems), None


def _misuse_warnings(samples: Ints) -> list[str]:
    """Warnings about n = 1 everywhere, n differing across problems, or a single problem."""
    warnings: list[str] = []
    low, high = int(samples.min()), int(samples.max())
    if high == 1:
        warnings.append("n = 1 for every problem: pass@k for k > 1 is undefined, and pass@1 is a single "
                        "(often greedy) sample each, not an estimate from many samples.")
    elif low != high:
        warnings.append(f"n differs across problems (from {low:,} to {high:,} samples): pass@k for k above "
                        f"{low:,} is undefined, and problems with more samples have more precise estimates.")
    if samples.size == 1:
        warnings.append("Only one problem: the standard error across problems and its 95% interval "
                        "need at least two.")
    return warnings


class _DistinctPairs:
    """The distinct (n, c) pairs, how many problems have each, and each problem's pair."""

    def __init__(self, samples: Ints, correct: Ints, weights: Positions, where: Positions) -> None:
        self.samples, self.correct, self.weights, self.where = samples, correct, weights, where

    @classmethod
    def of(cls, samples: Ints, correct: Ints) -> "_DistinctPairs":
        pairs, where = distinct_pairs(samples, correct)
        return cls(pairs[:, 0], pairs[:, 1], np.bincount(where, minlength=len(pairs)), where)


def _where_defined(estimator: Estimator, samples: Ints, correct: Ints, k: int) -> Floats:
    """estimator(samples, correct, k) per entry where n >= k, nan where n < k."""
    values = np.full(samples.shape, np.nan)
    defined = samples >= k
    if defined.any():
        values[defined] = _in_chunks(estimator, samples[defined], correct[defined], k)
    return values


def _pass_at_k_where_defined(samples: Ints, correct: Ints, k: int) -> Floats:
    """pass@k per entry of checked, distinct (n, c) pairs, nan where n < k: estimate_pass_at_k's values, without
    its checks and its sort into distinct pairs again (most of a large comparison's cost)."""
    return _where_defined(_pass_at_k_array, samples, correct, k)


def _pass_hat_k_where_defined(samples: Ints, correct: Ints, k: int) -> Floats:
    """pass^k = C(c, k)/C(n, k) per entry (1 - pass@k with c and n - c swapped, kept exact when small),
    nan where n < k."""
    return _where_defined(_pass_hat_k, samples, correct, k)


def _pass_hat_k(samples: Ints, correct: Ints, k: int) -> Floats:
    """C(c, k)/C(n, k) for int arrays with n >= k, each the double nearest its exact value (passk.maths.estimator)."""
    return _pass_hat_k_array(samples, correct, k)


def _in_chunks(function: Estimator, samples: Ints, correct: Ints, k: int) -> Floats:
    """function(samples, correct, k) over slices of _CHUNK entries, concatenated."""
    return np.concatenate([function(samples[start:start + _CHUNK], correct[start:start + _CHUNK], k)
                           for start in range(0, samples.size, _CHUNK)])


def _counts(problems: list[ProblemCounts]) -> tuple[Ints, Ints]:
    """The n_i and c_i as int64 arrays; ValueError naming the first problem out of range."""
    samples, correct = _whole_numbers(problems, "n", low=1), _whole_numbers(problems, "c", low=0)
    bad = np.flatnonzero((samples < 1) | (samples > MAX_N) | (correct < 0) | (correct > samples))
    if bad.size:
        problem = problems[bad[0]]
        allowed = f"n must be from 1 to {MAX_N:,}" if not 1 <= problem.n <= MAX_N else \
            f"c must be from 0 to n ({problem.n:,})"
        raise ValueError(f"Problem {problem.task_id}: {allowed}; got n = {problem.n:,}, c = {problem.c:,}.")
    return samples, correct


def _whole_numbers(problems: list[ProblemCounts], name: str, low: int) -> Ints:
    """Attribute `name` of every problem as an int64 array; ValueError naming the first that is not one."""
    values = list(map(attrgetter(name), problems))
    if all(kind is not bool and issubclass(kind, Integral) for kind in set(map(type, values))):
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:  # beyond int64, so beyond MAX_N
            i = next(i for i, value in enumerate(values) if not -2**63 <= value < 2**63)
            raise ValueError(f"Problem {problems[i].task_id}: {name} must be from {low} to {MAX_N:,}; "
                             f"got {values[i]:,}.") from None
    i = next(i for i, value in enumerate(values) if isinstance(value, bool) or not isinstance(value, Integral))
    raise ValueError(f"Problem {problems[i].task_id}: {name} must be a whole number; got {values[i]!r}.")


def too_many_ks(count: int, more: bool = False, most: int | None = None) -> str:
    """The refusal of a k list of `count` entries (repeats counted, a range as the ks it holds); more: at least that
    many were counted; most: the limit it passes (LIMITS.ks, or LIMITS.curve_ks for a curve over k)."""
    most = LIMITS.ks if most is None else most
    return f"Too many k values ({'more than ' if more else ''}{count:{',' if more else ''}}): give at most {most:,}."


def _checked_ks(ks: Iterable[int]) -> list[int]:
    """The ks as a sorted list of distinct ints from 1 to MAX_N; ValueError otherwise.

    The list's length, repeats included, is checked first, so that a long list is refused before any of its
    values is looked at.
    """
    if not isinstance(ks, Sized):
        ks = list(ks)
    if len(ks) > LIMITS.ks:
        raise ValueError(too_many_ks(len(ks)))
    ks = list(ks)
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, Integral) or not 1 <= k <= MAX_N:
            raise ValueError(f"k must be a whole number from 1 to {MAX_N:,}; got {k!r}.")
    ks = sorted({int(k) for k in ks})
    if not ks:
        raise ValueError("No k given: choose at least one, like 1, 10, 100.")
    return ks


_K_TOKEN = re.compile(r"[^\s,;]+")
_K_RANGE = re.compile(r"([+-]?[0-9]+)-([+-]?[0-9]+)")   # "1-128": every k from 1 to 128
_KS_COUNTED = 10_000   # tokens a too-long k list is counted up to before its refusal says "more than"


def parse_ks(text: str, most: int | None = None) -> list[int]:
    """The ks in a text field, sorted and distinct: '1,10,100' -> [1, 10, 100], '1, 5 10' -> [1, 5, 10], and with
    ranges '1-4,8' -> [1, 2, 3, 4, 8].

    Raises ValueError with a sentence for anything but whole numbers from 1 to 10^12 and ranges of them written
    from low to high, or for more than `most` ks (LIMITS.ks; a curve over k takes LIMITS.curve_ks). The entries
    are counted first, repeats included, and only up to a bound: a field of a million "1,"s is refused after
    reading its first few thousand, before any value is checked; a range counts as the ks it holds, found from
    its ends before any is listed.
    """
    most = LIMITS.ks if most is None else most
    count = sum(1 for _ in islice(_K_TOKEN.finditer(text), _KS_COUNTED + 1))
    if not count:
        raise ValueError("No k given: list whole numbers from 1 to 10^12 separated by commas, like 1,10,100.")
    if count > most:
        raise ValueError(too_many_ks(_KS_COUNTED, True, most) if count > _KS_COUNTED
                         else too_many_ks(count, most=most))
    spans = [_k_span(token) for token in _K_TOKEN.findall(text)]
    total = sum(last - first + 1 for first, last in spans)
    if total > most:
        raise ValueError(too_many_ks(total, most=most).replace("):", ", a range counted as the ks it holds):", 1))
    return sorted({k for first, last in spans for k in range(first, last + 1)})


def _k_span(token: str) -> tuple[int, int]:
    """(first, last) of one entry of a k field: a whole number (first = last) or a range like 1-128."""
    ranged = _K_RANGE.fullmatch(token)
    if ranged:
        first, last = (_k_value(end) for end in ranged.groups())
        if first > last:
            raise ValueError(f"The k range {token[:40]} runs backwards: write it from the smaller k to the larger, "
                             f"like {last}-{first}.")
        return first, last
    if not re.fullmatch(r"[+-]?[0-9]+", token):
        raise ValueError(f"k must be a whole number, and {token[:40]!r} is not one; list them like 1,10,100, or "
                         "give a range like 1-128.")
    k = _k_value(token)
    return k, k


def _k_value(token: str) -> int:
    """One k written as a whole number, checked to be from 1 to 10^12 (its digits counted before it is read)."""
    digits = token.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_N)) or int(token) > MAX_N:
        raise ValueError(f"k must be at most 10^12 ({MAX_N:,}); got {token[:40]}.")
    if int(token) < 1:
        raise ValueError(f"k must be at least 1; got {int(token)}.")
    return int(token)


def _how_many_have(indices: Positions, problems: Sequence[ProblemCounts], noun: str = "problem") -> str:
    """'3 of 164 problems have', '1 of 164 problems has', 'all 164 problems have'."""
    if len(indices) == len(problems) > 1:
        return f"all {len(problems):,} {noun}s have"
    return f"{len(indices):,} of {plural(len(problems), noun)} {'has' if len(indices) == 1 else 'have'}"


def _which(indices: Positions, problems: Sequence[ProblemCounts]) -> str:
    """' (HumanEval/19, HumanEval/23 and 38 more)': the task ids at indices, up to IDS_NAMED of them; '' for problems
    without names (a share link's, whose ids are empty: it carries counts only)."""
    if not problems[indices[0]].task_id:
        return ""
    names = ", ".join(str(problems[i].task_id) for i in indices[:IDS_NAMED])
    rest = len(indices) - IDS_NAMED
    return f" ({names} and {rest:,} more)" if rest > 0 else f" ({names})"


def row_dicts(columns: dict[str, list[float | None]], count: int) -> list[dict[str, float | None]]:
    """{key: column[i]} for each of the count rows of columns ({key: list}), built by zip (a third of the time)."""
    if not columns:
        return [{} for _ in range(count)]
    keys = list(columns)
    return [dict(zip(keys, row)) for row in zip(*columns.values())]


def floats_or_none(values: Floats) -> list[float | None]:
    """A float array as a list of floats, with None for nan."""
    floats: list[float | None] = values.tolist()
    if not np.isnan(values).any():
        return floats
    return [None if value != value else value for value in floats]


# ---------------------------------------------------------------------------
# Paired comparison of two runs


@dataclass
class KComparison:
    """One k of a paired comparison: both runs' pass@k, their mean difference and its error bars."""
    k: int
    a: float | None
    b: float | None
    difference: float | None
    se: float | None
    ci95: tuple[float, float] | None
    p_value: float | None
    reason: str | None
    test: str | None = None   # how the p-value and interval were found: "mover" (the trinomial interval of
                              # passk.maths.intervals, and the p-value it inverts to)


@dataclass
class Comparison:
    """Two runs paired by task id: per k, run A minus run B."""
    paired: int
    only_in_a: list[str]
    only_in_b: list[str]
    results: list[KComparison]
    task_ids: list[str]            # the paired problems, in run A's order
    per_problem_pass_at_k: dict[int, tuple[Floats, Floats]]   # k -> (run A values, run B values), nan where n_i < k
    paired_counts: tuple[tuple[Ints, Ints], ...] = ()   # ((n, c) of run A, (n, c) of run B), in task_ids' order
    warnings: list[str] = field(default_factory=list)   # about the pairing or the input, for the user

    @cached_property
    def per_problem(self) -> list[PairedProblemRow]:
        """[{"task_id", "a": {k: value}, "b": {k: value}, "difference": {k: a - b}}], None where undefined."""
        columns = {k: (floats_or_none(a), floats_or_none(b), floats_or_none(a - b))
                   for k, (a, b) in self.per_problem_pass_at_k.items()}
        return [{"task_id": task_id,
                 "a": {k: column[0][i] for k, column in columns.items()},
                 "b": {k: column[1][i] for k, column in columns.items()},
                 "difference": {k: column[2][i] for k, column in columns.items()}}
                for i, task_id in enumerate(self.task_ids)]


def compare(problems_a: Iterable[ProblemCounts], problems_b: Iterable[ProblemCounts],
            ks: Iterable[int] = DEFAULT_KS) -> Comparison:
    """Run A against run B on the problems both have: mean paired difference, SE, 95% interval, p-value."""
    return compare_runs(PairedRun(problems_a, "A"), PairedRun(problems_b, "B"), ks)


class PairedRun:
    """A run made ready for pairing, once however many runs it meets: its problems by task id, their n and c,
    and their pass@k at each k (computed once for each distinct (n, c))."""

    def __init__(self, problems: Iterable[ProblemCounts], run: str = "A") -> None:
        self.problems = list(problems)
        self.by_id = _by_task_id(self.problems, run)
        self.position = dict(zip(self.by_id, range(len(self.problems))))
        self.ids = list(self.by_id)
        self.samples, self.correct = _counts(self.problems)
        self._pairs = _DistinctPairs.of(self.samples, self.correct)
        self._values: dict[int, Floats] = {}
        self._means: dict[int, float] = {}
        self._totals: dict[int, Fraction | None] = {}
        self.least = int(self.samples.min()) if self.samples.size else 0   # the smallest n
        self.codes: Positions | None = None   # each task id's number in a registry shared by several runs (see coded)

    def coded(self, registry: dict[str, int]) -> "PairedRun":
        """Number the task ids in registry ({task_id: number}, shared by the runs), so that pairing this run
        with another is a few array operations rather than a dictionary look-up per task and pair."""
        self.codes = np.fromiter((registry.setdefault(task_id, len(registry)) for task_id in self.by_id), np.intp,
                                 len(self.by_id))
        return self

    def pass_at_k(self, k: int) -> Floats:
        """Each problem's pass@k (nan where n < k), in the run's order."""
        if k not in self._values:
            pairs = self._pairs
            self._values[k] = _pass_at_k_where_defined(pairs.samples, pairs.correct, k)[pairs.where]
        return self._values[k]

    def total(self, k: int) -> Fraction | None:
        """The exact sum of all the run's pass@k (every n >= k), where passk.maths.means affords it, else None."""
        if k not in self._totals:
            pairs = self._pairs
            self._totals[k] = exact_total(pairs.samples, pairs.correct, pairs.weights, k)
        return self._totals[k]

    def mean(self, k: int) -> float:
        """The mean of all the run's pass@k (every n >= k): the nearest double to the exact mean where
        passk.maths.means affords it, else the mean of the rounded values (math.fsum); the mean over the paired problems
        of a pairing that pairs all of them, in whatever order."""
        if k not in self._means:
            total = self.total(k)
            self._means[k] = float(total / len(self.problems)) if total is not None else \
                math.fsum(self.pass_at_k(k).tolist()) / len(self.problems)
        return self._means[k]


def compare_runs(run_a: PairedRun, run_b: PairedRun, ks: Iterable[int] = DEFAULT_KS) -> Comparison:
    """compare() for two PairedRuns: the paired problems in run A's order."""
    ks = _checked_ks(ks)
    at_a, at_b, results, only_in_a, only_in_b = paired_results(run_a, run_b, ks)
    task_ids = list(map(run_a.ids.__getitem__, at_a))
    counts_a = run_a.samples[at_a], run_a.correct[at_a]
    counts_b = run_b.samples[at_b], run_b.correct[at_b]
    per_problem = {k: (run_a.pass_at_k(k)[at_a], run_b.pass_at_k(k)[at_b]) for k in ks}
    return Comparison(
        paired=len(task_ids), results=results, task_ids=task_ids, per_problem_pass_at_k=per_problem,
        paired_counts=(counts_a, counts_b),
        only_in_a=only_in_a, only_in_b=only_in_b)


def paired_results(run_a: PairedRun, run_b: PairedRun, ks: Sequence[int]
                   ) -> tuple[Positions, Positions, list[KComparison], list[str], list[str]]:
    """compare_runs' findings without the per-problem lists a page shows: the positions in A and in B of the
    paired problems (in A's order), each k's row, and the ids only in A and only in B (ks already checked).
    passk.results.ranking pairs every two of its runs with it."""
    at_a, at_b, only_in_a, only_in_b = _paired_positions(run_a, run_b)
    if not at_a.size:
        raise ValueError(f"No task ids in common: run A has {plural(len(run_a.by_id), 'problem')} and run B "
                         f"{len(run_b.by_id):,}, but none share a task_id, so nothing can be paired.")
    return at_a, at_b, [_k_comparison(run_a, at_a, run_b, at_b, k) for k in ks], only_in_a, only_in_b


def _paired_positions(run_a: PairedRun, run_b: PairedRun) -> tuple[Positions, Positions, list[str], list[str]]:
    """(positions in A, positions in B) of the task ids both runs have, in A's order; and the ids only in A, B."""
    if run_a.codes is None or run_b.codes is None:
        task_ids = list(filter(run_b.by_id.__contains__, run_a.by_id))  # map and filter: a million ids in a blink
        at_a = np.fromiter(map(run_a.position.__getitem__, task_ids), np.intp, len(task_ids))
        at_b = np.fromiter(map(run_b.position.__getitem__, task_ids), np.intp, len(task_ids))
        return (at_a, at_b, list(filterfalse(run_b.by_id.__contains__, run_a.by_id)),
                list(filterfalse(run_a.by_id.__contains__, run_b.by_id)))
    found_in_b, found_in_a = _found(run_a.codes, run_b.codes), _found(run_b.codes, run_a.codes)
    at_a = np.flatnonzero(found_in_b >= 0)
    return (at_a, found_in_b[at_a], list(map(run_a.ids.__getitem__, np.flatnonzero(found_in_b < 0))),
            list(map(run_b.ids.__getitem__, np.flatnonzero(found_in_a < 0))))


def _found(codes: Positions, other: Positions) -> Positions:
    """For each code, its position among other's codes (-1 where other lacks it)."""
    where = np.full(int(max(codes.max(), other.max())) + 1, -1, np.intp)
    where[other] = np.arange(other.size)
    return where[codes]


def _k_comparison(run_a: PairedRun, at_a: Positions, run_b: PairedRun, at_b: Positions, k: int) -> KComparison:
    """The comparison row for k of the problems at at_a in A and at_b in B: undefined unless every paired problem
    has n >= k in both runs."""
    if min(run_a.least, run_b.least) < k:
        short = np.flatnonzero((run_a.samples[at_a] < k) | (run_b.samples[at_b] < k))
        if short.size:
            problems = list(map(run_a.problems.__getitem__, at_a))
            return KComparison(k, None, None, None, None, None, None,
                               f"pass@{k} is undefined: {_how_many_have(short, problems, 'paired problem')} fewer "
                               f"than {k:,} samples in run A or B{_which(short, problems)}.")
    values_a, values_b = run_a.pass_at_k(k)[at_a], run_b.pass_at_k(k)[at_b]
    differences = values_a - values_b
    count = differences.size
    # all of a run paired: its mean, summed once for every pair it is in (fsum is exact, so the order is moot)
    a, b = (run.mean(k) if count == len(run.problems) else math.fsum(values.tolist()) / count
            for run, values in ((run_a, values_a), (run_b, values_b)))
    whole = count == len(run_a.problems) == len(run_b.problems)   # both runs paired whole: their exact sums
    totals = (run_a.total(k), run_b.total(k)) if whole else (None, None)
    difference = float((totals[0] - totals[1]) / count) if totals[0] is not None and totals[1] is not None else \
        math.fsum(differences.tolist()) / count
    if count < 2:
        return KComparison(k, a, b, difference, None, None, None,
                           "Only one problem is paired: the SE, interval and p-value need at least two.")
    sd = float(np.std(differences, ddof=1))
    paired = PairedDifference(difference, math.fsum(np.abs(differences).tolist()) / count, sd, count)
    return KComparison(k, a, b, difference, sd / math.sqrt(count), paired.interval(), paired.p_value(),
                       _too_few(count) or few_paired_note(count), "mover")


@lru_cache(maxsize=64)
def _too_few(count: int) -> str | None:
    """A note when even runs that differ by 100 points on each of the count problems would not reach p < 0.05."""
    smallest = PairedDifference(1.0, 1.0, 0.0, count).p_value()
    if smallest < 0.05:
        return None
    return (f"Too few problems for any conclusion: with {count} paired problems, not even runs that differ by "
            f"100 points on every problem would reach p < 0.05 (the smallest possible p-value is {smallest:.2g}).")


def _by_task_id(problems: Iterable[ProblemCounts], run: str) -> dict[str, ProblemCounts]:
    """{task_id: problem}; ValueError if the run is empty or lists a task twice."""
    problems = list(problems)
    by_id = dict(zip(map(attrgetter("task_id"), problems), problems))
    if len(by_id) < len(problems):
        seen: set[str] = set()
        for problem in problems:   # the first task id listed a second time
            if problem.task_id in seen:
                raise ValueError(f"Run {run} lists task {problem.task_id} twice; each task must appear once to be "
                                 f"paired.")
            seen.add(problem.task_id)
    if not by_id:
        raise ValueError(f"No problems in run {run}: give at least one problem, as `task_id,n,c` lines "
                         f"or a harness results file.")
    return by_id
