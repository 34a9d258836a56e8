r"""Bayes@N: the posterior mean of a benchmark's pass rate, with its posterior SD and 95% credible interval.

Hariri et al. (2025), "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation",
arXiv:2510.04265, for 0/1 outcomes under its uniform prior. Each problem's pass rate p_i starts uniform,
Beta(1, 1); after c_i passes in n_i samples it is Beta(c_i + 1, n_i - c_i + 1), of mean
m_i = (c_i + 1) / (n_i + 2) (Laplace's rule of succession) and variance m_i (1 - m_i) / (n_i + 3). The
benchmark's rate is the mean of its P problems' rates, independent a posteriori, so

.. math:: \mu = \frac{1}{P} \sum_i m_i, \qquad
          \sigma^2 = \frac{1}{P^2} \sum_i \frac{m_i (1 - m_i)}{n_i + 3},

and the 95% credible interval is mu -/+ z sigma, z the standard normal's 97.5% quantile, clipped to [0, 1].
That is scorio's bayes_ci (mohsenhariri/scorio, scorio/eval/bayes.py: weights w = (0, 1), no prior outcomes,
bounds (0, 1)), whose T = N + 2 takes one N for every problem; here each problem has its own n_i.

mu and sigma^2 are rationals. Each figure returned is the double nearest its exact value, the same on every
CPU: the sums are bracketed in whole numbers (each term's fraction floored at PRECISIONS[0] bits, then more),
and a figure is returned once both ends of its bracket round to the same double; sigma's bracket comes from
integer square roots (math.isqrt). Where a bracket straddles a rounding boundary at every precision, the
exact sums are taken (up to EXACT_DENOMINATORS different n) and the square root refined until settled. The
interval's ends use z to Z_DIGITS digits: one closer than that to a rounding boundary, which no input is known
to reach, takes the rounding of its bracket's midpoint, still in whole numbers. The cost is one pass over
the distinct (n, c) pairs, plus a few operations on numbers of a few hundred bits for each distinct n.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from passk.estimator import checked_pairs

# the standard normal's 97.5% quantile, sqrt(2) erfinv(0.95), to Z_DIGITS significant digits (mpmath at 80 digits;
# tests/passk/test_bayes.py checks it against the normal distribution function summed as a series)
Z_DIGITS = 55
Z95 = Fraction("1.959963984540054235524594430520551527955550077869548398")
Z95_BOUND = Fraction(1, 10 ** (Z_DIGITS - 1))   # |z - Z95| is below this
PRECISIONS = (256, 2048)      # bits below the point at which the sums are first bracketed, then again
EXACT_DENOMINATORS = 64       # after them, the exact sums, where there are at most this many different n

Bracket = tuple[Fraction, Fraction]   # a value known to lie between the two, inclusive


@dataclass(frozen=True)
class Bayes:
    """Bayes@N of a benchmark: the posterior mean of its pass rate, the posterior SD and the 95% credible interval."""
    mean: float
    sd: float
    ci95: tuple[float, float]
    problems: int


def bayes_at_n(num_samples: ArrayLike, num_correct: ArrayLike) -> Bayes:
    """Bayes@N over problems with num_samples[i] samples of which num_correct[i] passed (see the module docstring).

    Parameters
    ----------
    num_samples, num_correct : int or array_like of int
        Each problem's n and c, as `passk.estimate_pass_at_k` takes them (a scalar n stands for every problem).

    Returns
    -------
    Bayes
        mean, sd and ci95, each the double nearest its exact value; ValueError for no problems.

    Examples
    --------
    Two problems with 3 and 4 passes in 5 samples (scorio's bayes_ci docstring example): the posterior means are
    4/7 and 5/7, so mu = 9/14.

    >>> result = bayes_at_n(5, [3, 4])
    >>> result.mean, round(result.sd, 6), [round(end, 4) for end in result.ci95]
    (0.6428571428571429, 0.118451, [0.4107, 0.875])
    """
    pairs, where = checked_pairs(num_samples, num_correct, 1)
    if where.size == 0:
        raise ValueError("Bayes@N needs at least one problem; got none.")
    counts = np.bincount(where, minlength=len(pairs)).tolist()
    firsts: dict[int, int] = {}    # n -> sum of (c + 1) over its problems
    seconds: dict[int, int] = {}   # n -> sum of (c + 1)(n - c + 1)
    for (n, c), count in zip(pairs.tolist(), counts):
        firsts[n] = firsts.get(n, 0) + count * (c + 1)
        seconds[n] = seconds.get(n, 0) + count * (c + 1) * (n - c + 1)
    problems = int(where.size)
    means = [(total, n + 2) for n, total in firsts.items()]                     # their sum is P mu
    spreads = [(total, (n + 2) ** 2 * (n + 3)) for n, total in seconds.items()]  # ... and P^2 sigma^2
    for bits in PRECISIONS:
        found = _settled(_scaled(_bracket(means, bits), problems), _scaled(_bracket(spreads, bits), problems ** 2),
                         bits)
        if found is not None:
            return Bayes(*found, problems)
    if len(means) <= EXACT_DENOMINATORS:
        mean, variance = _exact(means) / problems, _exact(spreads) / problems ** 2
        mean_bracket, variance_bracket = (mean, mean), (variance, variance)
    else:
        mean_bracket = _scaled(_bracket(means, PRECISIONS[-1]), problems)
        variance_bracket = _scaled(_bracket(spreads, PRECISIONS[-1]), problems ** 2)
    found = _settled(mean_bracket, variance_bracket, PRECISIONS[-1], last=True)
    assert found is not None   # the last pass settles every figure
    return Bayes(*found, problems)


def _settled(mean: Bracket, variance: Bracket, bits: int, last: bool = False
             ) -> tuple[float, float, tuple[float, float]] | None:
    """(mean, sd, ci95) where every bracket rounds to one double, else None; last: settle what is left (an exact
    mean or variance rounds once; the SD is refined; an interval's end takes its midpoint's rounding)."""
    sd = _sqrt(variance, bits)
    if last and variance[0] == variance[1]:   # an exact variance: its root is irrational, or reached exactly
        while _nearest(sd) is None and sd[0] != sd[1]:
            bits *= 2
            sd = _sqrt(variance, bits)
    low = _clipped(mean[0] - (Z95 + Z95_BOUND) * sd[1], mean[1] - (Z95 - Z95_BOUND) * sd[0])
    high = _clipped(mean[0] + (Z95 - Z95_BOUND) * sd[0], mean[1] + (Z95 + Z95_BOUND) * sd[1])
    figures = []
    for bracket in (mean, sd, low, high):
        figure = _nearest(bracket)
        if figure is None and not last:
            return None
        figures.append(float((bracket[0] + bracket[1]) / 2) if figure is None else figure)
    return figures[0], figures[1], (figures[2], figures[3])


def _bracket(terms: list[tuple[int, int]], bits: int) -> Bracket:
    """sum of numerator / denominator over the terms, between two multiples of 2**-bits (each term floored)."""
    low = sum((numerator << bits) // denominator for numerator, denominator in terms)
    return Fraction(low, 1 << bits), Fraction(low + len(terms), 1 << bits)


def _exact(terms: list[tuple[int, int]]) -> Fraction:
    """sum of numerator / denominator over the terms, exactly."""
    return sum((Fraction(numerator, denominator) for numerator, denominator in terms), Fraction(0))


def _scaled(bracket: Bracket, divisor: int) -> Bracket:
    return bracket[0] / divisor, bracket[1] / divisor


def _sqrt(bracket: Bracket, bits: int) -> Bracket:
    """A bracket of the square root of every value in the bracket (of positive values), to about `bits` bits of its
    own size: integer square roots of the ends scaled by 4**shift, floored below and raised above."""
    low, high = bracket
    size = (high.numerator.bit_length() - high.denominator.bit_length()) // 2
    shift = max(bits - size, 0)
    floor_root = math.isqrt(low.numerator * 4**shift // low.denominator)
    scaled_high = -(-high.numerator * 4**shift // high.denominator)   # the ceiling
    ceiling_root = math.isqrt(scaled_high)
    if ceiling_root * ceiling_root < scaled_high:
        ceiling_root += 1
    return Fraction(floor_root, 2**shift), Fraction(ceiling_root, 2**shift)


def _clipped(low: Fraction, high: Fraction) -> Bracket:
    """The bracket clipped to [0, 1], as the credible interval is."""
    return min(max(low, Fraction(0)), Fraction(1)), min(max(high, Fraction(0)), Fraction(1))


def _nearest(bracket: Bracket) -> float | None:
    """The double nearest every value of the bracket (float of a Fraction is correctly rounded), or None."""
    low, high = float(bracket[0]), float(bracket[1])
    return low if low == high else None
