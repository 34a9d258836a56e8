"""Statistics of each sample's score in [0, 1]: the expected best of k scores (max@k), the mean of the first k
(avg@k) and the spread of the seeds' means.

A problem's n scores s_1..s_n are given in sample order (graded scores, or 1.0 / 0.0 verdicts of ordered seeds).

- max@k, the expected best of k scores drawn without replacement from the n: with the scores sorted,
  s_(1) <= ... <= s_(n), E[max] = sum_i s_(i) C(i - 1, k - 1) / C(n, k), since s_(i) is the best of a k-subset
  exactly when the subset holds it and k - 1 of the i - 1 below it. For 0/1 scores it is pass@k (Chen et al.
  2021); max@1 is the mean score. It is unbiased for the best of k fresh samples, as pass@k is.
- avg@k, the mean of the first k scores (lighteval's avg@n; NeMo-Skills' pass@1[avg-of-k]): unbiased for the
  mean score where the samples are exchangeable, and the only one of these that reads the samples' order.
- Over seeds (every problem with the same n, sample j of each drawn by seed j): the seeds' means r_j, their
  sample standard deviation (ddof = 1) over the first k seeds, its standard error sd / sqrt(k), and the mean
  over problems of each problem's own sample standard deviation over its first k scores, as NeMo-Skills'
  std_dev_across_runs, std_err_across_runs and avg_sample_std_dev.

Every value is the double nearest its exact value: a float score is a whole multiple of 2^-1074, so the sums are
whole numbers over a power of two, and each result is rounded once (square roots by sqrt_nearest). So the
figures are the same on every CPU. max@k's sum grows with n and k (max_at_k_cost prices it).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate, chain

import numpy as np

from passk.maths.estimator import Floats

# max_at_k_cost's estimate, in microseconds on a 2-core machine: within a factor of two of max_at_k_exact's time on
# random scores from n = 10 to 20,000 and k from 5 to n / 2 (measured with time.process_time in a shell, not a test)
CALL_COST = 5.0          # a problem's sum's start
SAMPLE_COST = 1.0        # a score made a whole number, and sorted
TERM_COST = 0.3          # a term of the sum: a multiply and a divide of whole numbers
WORD_COST = 0.012        # ... and each 64-bit word of C(i - 1, k - 1), which grows to log2 C(n, k) bits


def checked_scores(scores: Sequence[float], where: str = "a problem") -> tuple[float, ...]:
    """The scores as a tuple of floats, or ValueError naming the first one outside [0, 1] (or not a number)."""
    checked = tuple(map(float, scores))
    for index, score in enumerate(checked):
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"Sample {index + 1} of {where} scores {score!r}: each score must be a number from 0 "
                             "to 1.")
    return checked


def exponent(scores: Sequence[float]) -> int:
    """The smallest E with every score a whole multiple of 2^-E (0 for whole scores)."""
    return max((score.as_integer_ratio()[1].bit_length() - 1 for score in scores), default=0)


def scaled(scores: Sequence[float], power: int) -> list[int]:
    """Each score times 2^power, as whole numbers (power at least exponent(scores))."""
    numerators = []
    for score in scores:
        numerator, denominator = score.as_integer_ratio()
        numerators.append(numerator << (power - denominator.bit_length() + 1))
    return numerators


def nearest_mean(scores: Sequence[float]) -> float:
    """The double nearest the exact mean of the scores (one rounding, so the same in any order)."""
    power = exponent(scores)
    return float(Fraction(sum(scaled(scores, power)), len(scores) << power))


def max_at_k_exact(scores: Sequence[float], k: int) -> Fraction:
    """The expected best of k of the scores drawn without replacement, exactly: sum_i s_(i) C(i-1, k-1) / C(n, k).

    >>> max_at_k_exact([0.25, 1.0, 0.5], 2)
    Fraction(5, 6)
    """
    n = len(scores)
    if not 1 <= k <= n:
        raise ValueError(f"max@k needs 1 ≤ k ≤ n: k = {k:,} with n = {n:,} scores.")
    power = exponent(scores)
    ordered = sorted(scaled(scores, power))
    total, weight = 0, 1   # weight = C(i - 1, k - 1) at i = k
    for i in range(k, n + 1):
        total += ordered[i - 1] * weight
        weight = weight * i // (i - k + 1)
    return Fraction(total, math.comb(n, k) << power)


def max_at_k(scores: Sequence[float], k: int) -> float:
    """max@k of one problem's scores (each in [0, 1]): the double nearest the expected best of k drawn without
    replacement. It equals pass@k when the scores are 0 and 1.

    >>> max_at_k([0.0, 0.5, 1.0, 0.25], 2)
    0.7083333333333334
    """
    return float(max_at_k_exact(checked_scores(scores), k))


def max_at_k_cost(n: int, k: int) -> float:
    """An estimate of max_at_k's microseconds for n scores at k (0 where k > n, which is not computed)."""
    if k > n:
        return 0.0
    words = _log2_comb(n, k) / 64
    return CALL_COST + SAMPLE_COST * n + (n - k + 1) * (TERM_COST + WORD_COST * words)


def _log2_comb(n: int, k: int) -> float:
    """log2 C(n, k), from log-gamma (a price, so its last digits do not matter)."""
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


SMALL_POWER = 16   # scores that are whole multiples of 2^-16 (0/1 verdicts, halves, tenths of a 16th) sum in int64


@dataclass(frozen=True)
class Sums:
    """Whole-number sums of the problems' scores over 2^power (their squares' over 4^power): for each k asked, each
    problem's sum of its first k scores and of their squares; each problem's sum of all its scores; and, where every
    problem has the same n (seeds), each seed's total over the problems."""
    power: int
    first: dict[int, list[int]]
    first_squares: dict[int, list[int]]
    whole: list[int]
    seeds: list[int]


def score_sums(scores: Sequence[Sequence[float]], ks: Sequence[int]) -> Sums:
    """The Sums of the problems' scores (each in [0, 1]) at each k in ks that every problem reaches.

    Scores that are whole multiples of 2^-SMALL_POWER are summed at once in int64 arrays (exact: a sum of 2^30
    such squares stays below 2^62); others one by one in Python's whole numbers.
    """
    sizes = np.fromiter(map(len, scores), np.int64, len(scores))
    flat = np.fromiter(chain.from_iterable(scores), np.float64, int(sizes.sum()))
    least, equal = int(sizes.min()), int(sizes.min()) == int(sizes.max())
    shown = sorted({k for k in ks if k <= least})
    power = _small_power(flat) if flat.size < 2**30 else None
    if power is None:
        return _python_sums(scores, shown, equal)
    numerators = np.ldexp(flat, power).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    sums = np.concatenate(([0], np.cumsum(numerators)))
    squares = np.concatenate(([0], np.cumsum(numerators * numerators)))
    return Sums(power, {k: (sums[starts + k] - sums[starts]).tolist() for k in shown},
                {k: (squares[starts + k] - squares[starts]).tolist() for k in shown},
                (sums[starts + sizes] - sums[starts]).tolist(),
                numerators.reshape(len(scores), least).sum(axis=0).tolist() if equal else [])


def _small_power(flat: Floats) -> int | None:
    """The smallest power p <= SMALL_POWER with every score a whole multiple of 2^-p, else None."""
    for power in range(SMALL_POWER + 1):
        scaled_up = np.ldexp(flat, power)
        if np.array_equal(scaled_up, np.floor(scaled_up)):
            return power
    return None


def _python_sums(scores: Sequence[Sequence[float]], shown: Sequence[int], equal: bool) -> Sums:
    """score_sums one score at a time, in Python's whole numbers over the largest power any score needs."""
    power = max(exponent(problem) for problem in scores)
    first: dict[int, list[int]] = {k: [] for k in shown}
    first_squares: dict[int, list[int]] = {k: [] for k in shown}
    whole: list[int] = []
    seeds = [0] * len(scores[0]) if equal else []
    for problem in scores:
        numerators = scaled(problem, power)
        sums, squares = list(accumulate(numerators)), list(accumulate(value * value for value in numerators))
        for k in shown:
            first[k].append(sums[k - 1])
            first_squares[k].append(squares[k - 1])
        whole.append(sums[-1])
        if equal:
            seeds = [total + value for total, value in zip(seeds, numerators)]
    return Sums(power, first, first_squares, whole, seeds)


def sqrt_nearest(numerator: int, denominator: int) -> float:
    """The double nearest sqrt(numerator / denominator), for whole numbers numerator >= 0, denominator > 0.

    The root is taken in whole numbers to at least 56 bits, and a half added where it is inexact: the true root
    lies strictly between two whole numbers there, and no rounding boundary of a double does, so the double
    nearest root + 1/2 is the double nearest the true root.
    """
    if numerator == 0:
        return 0.0
    shift = max(0, (114 - numerator.bit_length() + denominator.bit_length()) // 2 + 1)
    square, rest = divmod(numerator << (2 * shift), denominator)
    root = math.isqrt(square)
    inexact = rest != 0 or root * root != square
    return float(Fraction(2 * root + inexact, 1 << (shift + 1)))


def sample_variance(total: int, squares: int, count: int) -> tuple[int, int]:
    """The sample variance (ddof = 1) of count whole numbers with this sum and sum of squares, as (numerator,
    denominator): (count * squares - total^2) / (count (count - 1)); count at least 2."""
    return count * squares - total * total, count * (count - 1)


def seed_spread(totals: Sequence[int], scale: int, k: int) -> tuple[float, float]:
    """The sample standard deviation of the first k seeds' means and its standard error sd / sqrt(k), where seed
    j's mean is totals[j] / scale (k at least 2)."""
    first = totals[:k]
    spread, count = sample_variance(sum(first), sum(total * total for total in first), k)
    return sqrt_nearest(spread, count * scale * scale), sqrt_nearest(spread, k * count * scale * scale)
