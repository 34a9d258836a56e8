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
CPU, found one of two ways (as passk.maths.nearest finds pass@k's):

- in double-double arithmetic over the distinct (n, c) pairs at once (passk.maths.nearest's lemmas, and one Newton
  step for the square root: SQRT), each figure with a proven bound, taken where the bound settles it;
- else in whole numbers: the sums bracketed (each term's fraction floored at PRECISIONS[0] bits, then more),
  a figure taken once both ends of its bracket round to the same double, sigma's bracket from integer square
  roots (math.isqrt); where a bracket straddles a rounding boundary at every precision, the exact sums and
  the square root refined until settled. Past EXACT_DENOMINATORS different n, whose exact sums could grow
  with each, one bracket at PRECISIONS[0] bits is taken as it is.

The interval's ends use z to Z_DIGITS digits. A figure whose bracket still straddles a rounding boundary (an
end within 10**-54 of one, or, past EXACT_DENOMINATORS different n, a figure within 2**-200 of one) takes
the rounding of its bracket's midpoint, still in whole numbers, so the same on every CPU. The cost is a few
numpy passes over the distinct (n, c) pairs (100,000 pairs with n near 10**12: 0.07 s on a 2-core machine);
the whole numbers' way, rarely needed, a few operations on numbers of a few hundred bits for each distinct n
(0.3 s for 100,000 of them).
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from passk.maths import nearest
from passk.maths.estimator import Floats, checked_pairs

# the standard normal's 97.5% quantile, sqrt(2) erfinv(0.95), to Z_DIGITS significant digits (mpmath at 80 digits;
# tests/passk/maths/test_bayes.py checks it against mpmath's erfinv and normal distribution function)
Z_DIGITS = 55
Z95 = Fraction("1.959963984540054235524594430520551527955550077869548398")
Z95_BOUND = Fraction(1, 10 ** (Z_DIGITS - 1))   # |z - Z95| is below this
PRECISIONS = (256, 2048)      # bits below the point at which the sums are first bracketed, then again
EXACT_DENOMINATORS = 64       # after them, the exact sums, where there are at most this many different n

# one Newton step s + (V - s^2)/(2s) from s = fl(sqrt(V_high)): V - s^2 is within 5.02 u^2 V of the double-double
# computed, so the step within 2.51 u^2 s; its division's rounding is 1.51 u^2 s, the step's own error at most
# (V - s^2)^2/(8 s^3) <= 1.13 u^2 s: 5.15 u^2 s in all, beside half of V's relative error
SQRT = 6.01 * nearest.U * nearest.U + nearest.UNDERFLOW
Z95_HIGH = float(Z95)
Z95_LOW = float(Z95 - Fraction(Z95_HIGH))
Z95_RELATIVE = nearest.U * nearest.U + 1e-54   # (Z95_HIGH, Z95_LOW) against z: the low part's rounding, Z95's

Bracket = tuple[Fraction, Fraction]   # a value known to lie between the two, inclusive
Figures = tuple[float, float, tuple[float, float]]   # mean, sd, ci95


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
    counts = np.bincount(where, minlength=len(pairs))
    problems = int(where.size)
    found = _double_double(pairs[:, 0].astype(np.float64), pairs[:, 1].astype(np.float64),
                           counts.astype(np.float64), problems)
    return Bayes(*(found or _whole_numbers(pairs.tolist(), counts.tolist(), problems)), problems)


def _double_double(samples: Floats, correct: Floats, counts: Floats, problems: int) -> Figures | None:
    """The figures in double-double arithmetic (passk.maths.nearest) over the distinct pairs, counts[i] problems each,
    or None where a bound straddles a rounding boundary."""
    zeros = np.zeros_like(samples)
    mean_high, mean_low = nearest.divided(correct + 1, zeros, samples + 2, zeros)         # m_i
    rest_high, rest_low = nearest.divided(samples - correct + 1, zeros, samples + 2, zeros)   # 1 - m_i
    spread_high, spread_low = nearest.divided(*nearest.times(mean_high, mean_low, rest_high, rest_low),
                                              samples + 3, zeros)                        # m_i (1 - m_i)/(n_i + 3)
    mean = _mean(*nearest.times_float(mean_high, mean_low, counts),
                 nearest.compose(nearest.DIVIDED, nearest.TIMES_FLOAT), problems)
    variance = _mean(*nearest.times_float(spread_high, spread_low, counts),
                     nearest.compose(nearest.DIVIDED, nearest.DIVIDED, nearest.TIMES, nearest.DIVIDED,
                                     nearest.TIMES_FLOAT), problems, problems)
    sd = _root(*variance)
    spread_high, spread_low = nearest.times(Z95_HIGH, Z95_LOW, sd[0], sd[1])
    spread = spread_high, spread_low, nearest.compose(Z95_RELATIVE, sd[2], nearest.TIMES)
    figures = [_settled_one(*mean), _settled_one(*sd), _end(mean, spread, -1.0), _end(mean, spread, 1.0)]
    if None in figures:
        return None
    mean_figure, sd_figure, low, high = (float(figure or 0.0) for figure in figures)
    return mean_figure, sd_figure, (low, high)


def _mean(high: Floats, low: Floats, relative: float, *divisors: int) -> tuple[float, float, float]:
    """The sum of nonnegative double-doubles within `relative` each, divided by each divisor (whole numbers below
    2**53), as (high, low, relative bound)."""
    total_high, total_low, depth = nearest.summed(high, low)
    bound = nearest.compose(relative, depth * nearest.ADD)
    for divisor in divisors:
        total_high, total_low = nearest.divided(total_high, total_low, float(divisor), 0.0)
        bound = nearest.compose(bound, nearest.DIVIDED)
    return total_high, total_low, bound


def _root(high: float, low: float, relative: float) -> tuple[float, float, float]:
    """The square root of a positive double-double within `relative`: one Newton step (SQRT)."""
    root = math.sqrt(high)
    square, error = nearest.two_product(root, root)
    step = (((high - square) - error) + low) / (2 * root)
    root_high, root_low = nearest.fast_two_sum(root, step)
    return root_high, root_low, nearest.compose(relative / 2, SQRT)


def _end(mean: tuple[float, float, float], spread: tuple[float, float, float], sign: float) -> float | None:
    """mean + sign spread clipped to [0, 1], where its bound settles it, else None. The difference can cancel, so
    its bound is absolute: the operands' own, and the roundings of e + (l1 + sign l2) (4 u^2 of the operands)."""
    total, error = nearest.two_sum(mean[0], sign * spread[0])
    high, low = nearest.two_sum(total, error + (mean[1] + sign * spread[1]))
    bound = (mean[0] * mean[2] + spread[0] * spread[2] + 4 * nearest.U * nearest.U * (mean[0] + spread[0])) \
        * nearest.SLACK
    value, margin = Fraction(high) + Fraction(low), Fraction(bound)   # compared exactly: no rounding to misjudge
    if value + margin <= 0:
        return 0.0
    if value - margin >= 1:
        return 1.0
    if value - margin <= 0 or not nearest.settled_one(high, low, bound):
        return None
    return min(float(high), 1.0)


def _settled_one(high: float, low: float, relative: float) -> float | None:
    return high if nearest.settled_one(high, low, relative * high) else None


def _whole_numbers(pairs: list[list[int]], counts: list[int], problems: int) -> Figures:
    """The figures from sums bracketed in whole numbers, then exact (the module docstring)."""
    firsts: dict[int, int] = {}    # n -> sum of (c + 1) over its problems
    seconds: dict[int, int] = {}   # n -> sum of (c + 1)(n - c + 1)
    for (n, c), count in zip(pairs, counts):
        firsts[n] = firsts.get(n, 0) + count * (c + 1)
        seconds[n] = seconds.get(n, 0) + count * (c + 1) * (n - c + 1)
    means = [(total, n + 2) for n, total in firsts.items()]                     # their sum is P mu
    spreads = [(total, (n + 2) ** 2 * (n + 3)) for n, total in seconds.items()]  # ... and P^2 sigma^2
    many = len(means) > EXACT_DENOMINATORS   # no exact sums: one bracket, at the first precision, settled as it is
    for bits in PRECISIONS[:1] if many else PRECISIONS:
        mean_bracket = _scaled(_bracket(means, bits), problems)
        variance_bracket = _scaled(_bracket(spreads, bits), problems ** 2)
        found = _settled(mean_bracket, variance_bracket, bits, last=many)
        if found is not None:
            return found
    mean, variance = _exact(means) / problems, _exact(spreads) / problems ** 2
    found = _settled((mean, mean), (variance, variance), PRECISIONS[-1], last=True)
    assert found is not None   # the last pass settles every figure
    return found


def _settled(mean: Bracket, variance: Bracket, bits: int, last: bool = False) -> Figures | None:
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
