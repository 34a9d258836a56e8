"""G-Pass@k_tau and mG-Pass@k: how often at least a share tau of k drawn samples passes.

For one problem with ``n`` samples of which ``c`` passed, the passes X among
``k`` samples drawn without replacement follow the hypergeometric
distribution H(n, c, k), P(X = j) = C(c, j) C(n-c, k-j) / C(n, k). pass@k is
P(X >= 1), pass^k is P(X = k), and G-Pass@k_tau (Liu et al. 2024,
arXiv:2412.13147) is P(X >= ceil(tau k)): one family, all upper tails.

The tail is the exact probability given (n, c), so its mean over problems is
an unbiased estimate of the benchmark's G-Pass@k_tau, as pass@k's is. Up to
EXACT_TAIL_MAX_N samples it is summed in whole numbers and rounded once
(correctly rounded). Above, the tail beyond the mean is summed in floats
(the other side is 1 minus it), outward from its first term, which is
computed in O(1) by Stirling's series with the deviance of each binomial
factor taken from exact integer differences (Loader's saddle-point form):
the terms fall after the mode, and the sum stops where a geometric bound on
the rest is below TAIL_TOLERANCE of it. So a tail costs a few standard
deviations of terms (about SPREAD_TERMS), not the distance to its far end;
tail_cost prices it beforehand, so that a web request can bound its work.
"""

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from passk.estimator import Floats, _stirling_remainder_one, check_counts, checked_pairs

EXACT_TAIL_MAX_N = 2000       # tails summed exactly (Python ints) up to this n: about 1 ms at most
TAIL_TOLERANCE = 2.0 ** -60   # a float tail stops where the rest is provably below this share of its sum
FIRST_BLOCK = 256             # terms of a float tail's first vectorised step; each next one doubles, up to
LARGEST_BLOCK = 1 << 16       # ... this many terms
SPREAD_TERMS = 10             # a float tail stops within about this many standard deviations of the mean
# tail_cost's estimate, in microseconds (measured on a 2-core machine; docs/benchmarks.md, "Request limits")
CALL_COST = 8.0               # a tail with nothing to sum, or the Python around one that has
EXACT_COMB_DRAWS = 4          # an exact sum's binomial coefficients: min(k, n - k) / 4 microseconds
EXACT_TERM_COST = 0.4         # ... a term of an exact sum, plus n / EXACT_TERM_SAMPLES microseconds
EXACT_TERM_SAMPLES = 1500
FLOAT_COST = 40.0             # a float tail's first term and its first step
FLOAT_BLOCK_COST = 25.0       # ... each further step
FLOAT_TERM_COST = 0.03        # ... each term
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def threshold(k: int, tau: float) -> int:
    """m = ceil(tau k), at least 1: the passes G-Pass@k_tau needs among k draws; tau in (0, 1].

    A float tau is a binary fraction near the decimal meant: 0.4 is a little
    above 2/5 and 0.3 a little below 3/10. So a float tau k within k 2**-50 of a
    whole number counts as that number: 0.4 and 0.3 of 10 need 4 and 3
    passes, where ceil(0.4 * 10) of the exact binary value is 5. A Fraction is taken exactly.
    """
    if isinstance(tau, bool) or not isinstance(tau, (int, float, Fraction)):
        raise TypeError(f"tau must be a number from 0 (excluded) to 1; got {tau!r}.")
    if not 0 < tau <= 1:
        raise ValueError(f"tau must be above 0 and at most 1 (the share of the k samples that must pass); got {tau!r}.")
    share = Fraction(tau) * k
    if isinstance(tau, float):
        share -= Fraction(k, 2**50)
    return max(1, math.ceil(share))


def g_pass_at_k(n: int, c: int, k: int, tau: float) -> float:
    r"""G-Pass@k_tau of one problem: the chance that at least ceil(tau k) of k drawn samples pass.

    Parameters
    ----------
    n, c, k : int
        Samples generated, how many passed, and the budget, as for `passk.pass_at_k`.
    tau : float
        The share of the k samples that must pass, in (0, 1].

    Returns
    -------
    float
        P(X >= ceil(tau k)) for X ~ H(n, c, k), in [0, 1]; correctly rounded up to
        n = EXACT_TAIL_MAX_N, else to a relative error of about 1e-11 (exp of a log-space anchor).

    Notes
    -----
    Liu et al. (2024) [1]_, their definition of G-Pass@k_tau (its equation number was not checked here):

    .. math:: \mathrm{G\text{-}Pass@}k_\tau = \sum_{j=\lceil \tau k \rceil}^{c}
              \binom{c}{j}\binom{n-c}{k-j} \Big/ \binom{n}{k}

    tau at most 1/k gives pass@k (at least one pass); tau = 1 gives pass^k.

    References
    ----------
    .. [1] J. Liu et al., "Are Your LLMs Capable of Stable Reasoning?", arXiv:2412.13147, 2024.

    Examples
    --------
    Four of ten samples passed; of five drawn, at least three pass in
    C(4,3) C(6,2) + C(4,4) C(6,1) = 66 of the C(10,5) = 252 draws:

    >>> g_pass_at_k(10, 4, 5, 0.6)
    0.2619047619047619
    """
    n, c, k = check_counts(n, c, k)
    return at_least(n, c, k, threshold(k, tau))


def mg_pass_at_k(n: int, c: int, k: int) -> float:
    r"""mG-Pass@k of one problem: G-Pass@k_tau averaged over tau from 0.5 to 1.

    Liu et al. (2024), their definition of mG-Pass@k (equation number not checked), the sum as written there:

    .. math:: \mathrm{mG\text{-}Pass@}k = 2\int_{0.5}^{1} \mathrm{G\text{-}Pass@}k_\tau\, d\tau
              = \frac{2}{k} \sum_{i=\lceil k/2 \rceil + 1}^{k} \mathrm{G\text{-}Pass@}k_{i/k}

    Summed over j instead of i, it is (2/k) E[(X - a + 1)^+] with
    a = ceil(k/2) + 1 and X ~ H(n, c, k): one pass over the tail. At k = 1 the
    sum is empty and mG-Pass@1 = 0, as the formula (and OpenCompass) give.

    >>> mg_pass_at_k(10, 4, 5)    # (2/5) (G-Pass@5_0.8 + G-Pass@5_1) = (2/5) (6/252 + 0)
    0.009523809523809525
    """
    n, c, k = check_counts(n, c, k)
    start, low, high = (k + 1) // 2 + 1, max(0, c + k - n), min(c, k)
    if start > high:
        return 0.0
    if low == high:   # c = n or k = n: X = high, every time
        return float(Fraction(2 * (high - start + 1), k))
    if n <= EXACT_TAIL_MAX_N:
        weighted = _exact_sum(n, c, k, max(start, low), high, base=start)
        return float(Fraction(2 * weighted, k * math.comb(n, k)))
    if start * n > k * c:   # the tail beyond the mean: summed as it is
        return 2 / k * _tail(n, c, k, start, weighted=True)[0]
    # (X - start + 1)^+ = (X - start + 1) + (start - 1 - X)^+, and start - 1 - X = Y - (k - start + 1) for the
    # failures Y = k - X ~ H(n, n - c, k): the mean's part, exact, and Y's weighted tail beyond its mean
    rest = k - start + 2
    beyond = _tail(n, n - c, k, rest, weighted=True)[0] if rest <= min(n - c, k) else 0.0
    return 2 / k * ((k * c - (start - 1) * n) / n + beyond)


def at_least(n: int, c: int, k: int, m: int) -> float:
    """P(X >= m) for X ~ H(n, c, k): the chance that at least m of k samples drawn from the n pass."""
    n, c, k = check_counts(n, c, k)
    low, high = max(0, c + k - n), min(c, k)
    if m <= low:
        return 1.0
    if m > high:
        return 0.0
    if n <= EXACT_TAIL_MAX_N:
        if high - m <= m - low:   # sum the shorter side: the upper tail itself, or 1 - the lower
            return float(Fraction(_exact_sum(n, c, k, m, high), math.comb(n, k)))
        return float(1 - Fraction(_exact_sum(n, c, k, low, m - 1), math.comb(n, k)))
    if m * n > k * c:   # above the mean: the upper tail is the smaller, summed as it is
        return _tail(n, c, k, m)[0]
    # 1 - P(X <= m - 1); X <= m - 1 is k - X >= k - m + 1 failures among the draws
    return 1.0 - _tail(n, n - c, k, k - m + 1)[0]


def _exact_sum(n: int, c: int, k: int, start: int, stop: int, base: int | None = None) -> int:
    """sum_{j=start}^{stop} w_j C(c, j) C(n-c, k-j) in whole numbers, low <= start: w_j = 1, or j - base + 1."""
    term = math.comb(c, start) * math.comb(n - c, k - start)
    total = 0
    for j in range(start, stop + 1):
        total += term if base is None else (j - base + 1) * term
        if j < stop:   # C(c, j+1) C(n-c, k-j-1) from C(c, j) C(n-c, k-j): the division is exact
            term = term * (c - j) * (k - j) // ((j + 1) * (n - c - k + j + 1))
    return total


def _tail(n: int, c: int, k: int, start: int, weighted: bool = False) -> tuple[float, int]:
    """(sum_{j >= start} w_j P(X = j), the terms summed), w_j = j - start + 1 if weighted else 1, in floats.

    start is beyond the mean (start n > k c) and at most min(c, k), with 0 < c < n and 0 < k < n. From
    P(X = start) (log_pmf), the terms are walked outward by P(j+1)/P(j) = (c-j)(k-j) / ((j+1)(n-c-k+j+1)),
    a vectorised step at a time. That ratio falls as j grows (the distribution is log-concave), so once it is
    r < 1 at the last term t summed, the rest is at most t r/(1 - r) (weighted, at most t (w r/(1 - r)
    + r/(1 - r)^2) for the last weight w): the sum stops when that bound is below TAIL_TOLERANCE of it.
    """
    top, spare = min(c, k), n - c - k
    total, scale, first, size, summed = 0.0, 1.0, start, FIRST_BLOCK, 0
    while True:
        last = min(top, first + size - 1)
        js = np.arange(first, last + 1, dtype=float)   # whole numbers below 2**53: exact
        terms = np.empty(js.size)
        terms[0] = scale   # P(X = first) / P(X = start)
        before = js[:-1]
        np.cumprod((c - before) * (k - before) / ((before + 1) * (spare + before + 1)), out=terms[1:])
        terms[1:] *= scale
        total += float(np.dot(terms, js - (start - 1))) if weighted else float(terms.sum())
        summed += js.size
        if last == top:
            break
        ratio = (c - last) * (k - last) / ((last + 1) * (spare + last + 1))   # whole numbers: one rounding
        if ratio < 1:
            rest = ratio / (1 - ratio)
            if weighted:
                rest = (last - start + 1) * rest + rest / (1 - ratio)
            if terms[-1] * rest <= TAIL_TOLERANCE * total:
                break
        scale, first, size = float(terms[-1]) * ratio, last + 1, min(2 * size, LARGEST_BLOCK)
    return math.exp(log_pmf(n, c, k, start) + math.log(total)), summed


def log_pmf(n: int, c: int, k: int, j: int) -> float:
    """log P(X = j) for X ~ H(n, c, k), 0 < c < n, 0 < k < n, max(0, c + k - n) <= j <= min(c, k), in O(1).

    P(X = j) = b(j; c, p) b(k - j; n - c, p) / b(k; n, p) for any p, binomial pmfs b; with p = k/n each is
    Loader's saddle-point form (Stirling's remainders and the deviances x log(x/M) + M - x, _deviance), whose
    deviances vanish in b(k; n, k/n). Each deviance is taken from whole-number differences, so the absolute
    error is a few ulps of the largest term: about 1e-15 (1 + |log P|) relative in P.
    """
    return (_log_binomial(j, c, k, n) + _log_binomial(k - j, n - c, k, n)
            - _log_binomial(k, n, k, n))


def _log_binomial(x: int, size: int, k: int, n: int) -> float:
    """log b(x; size, k/n), the binomial pmf of x successes in size trials of chance k/n, 0 < k < n."""
    deviances = _deviance(x, size * k, n) + _deviance(size - x, size * (n - k), n)
    if x == 0 or x == size:
        return -deviances
    s = _stirling_remainder_one
    return (s(size) - s(x) - s(size - x) - deviances
            + 0.5 * math.log(size / (x * (size - x))) - _HALF_LOG_2PI)


def _deviance(x: int, scaled: int, n: int) -> float:
    """x log(x / M) + M - x for the whole number x >= 0 and the mean M = scaled / n (whole numbers).

    Near M, as the series 2x sum_j v^(2j+1) / (2j+1) - (x - M) v... rearranged: (x - M) v + 2x sum_{j>=1}
    v^(2j+1) / (2j+1) with v = (x - M) / (x + M), from the whole numbers x n - scaled and x n + scaled, each
    quotient rounded once; the subtraction x log(x/M) - (x - M) would lose the digits of a small deviance.
    """
    if x == 0:
        return scaled / n
    gap, both = x * n - scaled, x * n + scaled
    if 10 * abs(gap) >= both:   # |v| >= 1/10: the difference keeps its digits
        return x * math.log(x * n / scaled) - gap / n
    v = gap / both
    square, power, series, odd = v * v, v * v * v, 0.0, 3
    while True:
        grown = series + power / odd
        if grown == series:
            break
        series, power, odd = grown, power * square, odd + 2
    return gap / n * v + 2 * x * series


def tail_cost(n: ArrayLike, c: ArrayLike, k: int, tau: float) -> Floats:
    """Estimated microseconds of G-Pass@k_tau and mG-Pass@k for each (n, c) (arrays), before computing either.

    What the computation does, priced term by term: an exact sum's terms (each costing more as n grows, with
    the size of its whole numbers), or a float tail's (_float_terms). passk.metrics bounds a web request's
    work by the sum. A pair with n < k costs nothing (it is not computed). tests/passk/test_gpass.py holds the
    price above the terms summed.
    """
    n_values = np.atleast_1d(np.asarray(n, dtype=float))
    c_values = np.atleast_1d(np.asarray(c, dtype=float))
    return np.where(n_values < k, 0.0, _side_cost(n_values, c_values, k, threshold(k, tau), False)
                    + _side_cost(n_values, c_values, k, (k + 1) // 2 + 1, True))


def _side_cost(n: Floats, c: Floats, k: int, m: int, weighted: bool) -> Floats:
    """tail_cost's price of one tail from m (at_least's, or mg_pass_at_k's weighted tail from its start)."""
    low, high = np.maximum(0.0, c + k - n), np.minimum(c, float(k))
    # the others answer at once: a side with nothing in it, or a distribution of one point
    busy = (m <= high) & (low < high) & ((m > low) | weighted)
    if weighted:   # exactly, the whole upper part; in floats, the side beyond the mean
        exact_terms = high - np.maximum(m, low) + 1
    else:   # exactly, the shorter side
        exact_terms = np.minimum(high - m + 1, m - low)
    exact = CALL_COST + np.minimum(k, n - k) / EXACT_COMB_DRAWS + exact_terms * (EXACT_TERM_COST + n / EXACT_TERM_SAMPLES)
    terms, blocks = _float_terms(n, c, k, m, weighted)
    floating = np.where(terms > 0, FLOAT_COST + FLOAT_BLOCK_COST * blocks + FLOAT_TERM_COST * terms, CALL_COST)
    cost: Floats = np.where(busy, np.where(n <= EXACT_TAIL_MAX_N, exact, floating), CALL_COST)
    return cost


def _float_terms(n: Floats, c: Floats, k: int, m: int, weighted: bool) -> tuple[Floats, Floats]:
    """The terms and steps of _tail for the tail from m (at_least's, or mg_pass_at_k's weighted one).

    The side beyond the mean starts at j0 (m itself, or its mirror among the failures), where the ratio of
    successive terms is r0. As the ratio only falls, the terms fall at least as r0^i, which bounds how many
    are summed before the stopping rule holds; near the mean (r0 near 1) they fall as a normal's, and about
    SPREAD_TERMS standard deviations are summed. Whole steps: a step's terms are all summed.
    """
    upper = m * n > k * c
    draws = np.where(upper, c, n - c)            # the side's passes: X's, or the failures Y = k - X
    start = np.where(upper, float(m), k - m + (1.0 if not weighted else 2.0))
    top = np.minimum(draws, float(k))
    length = np.maximum(top - start + 1, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (draws - start) * (k - start) / ((start + 1) * (n - draws - k + start + 1))
        falling = np.where((ratio > 0) & (ratio < 1), -np.log(ratio), 0.0)
        margin = math.log(1 / TAIL_TOLERANCE) + np.log(ratio / (1 - ratio))
        if weighted:
            margin += np.log(1 / (1 - ratio)) + np.log(length + 1)
        geometric = np.where(falling > 0, np.maximum(margin, 0.0) / falling + 1, np.inf)
    spread = np.sqrt(k * (c / n) * (1 - c / n) * np.maximum(n - k, 0.0) / np.maximum(n - 1, 1.0))
    needed = np.minimum(np.minimum(geometric, 2 * SPREAD_TERMS * spread + 2), length)
    # steps of FIRST_BLOCK, 2 FIRST_BLOCK, ... up to LARGEST_BLOCK: the whole steps that hold `needed` terms
    doubling = math.log2(LARGEST_BLOCK // FIRST_BLOCK) + 1   # the steps before the largest
    most = FIRST_BLOCK * (2 ** doubling - 1)               # ... and their terms
    steps = np.where(needed <= most, np.ceil(np.log2(needed / FIRST_BLOCK + 1)),
                     doubling + np.ceil((needed - most) / LARGEST_BLOCK))
    whole = np.where(needed <= most, FIRST_BLOCK * (2 ** steps - 1), most + (steps - doubling) * LARGEST_BLOCK)
    return np.minimum(whole, length), np.maximum(steps, 1.0)


def estimate_g_pass_at_k(num_samples: ArrayLike, num_correct: ArrayLike, k: int, tau: float) -> Floats:
    """G-Pass@k_tau of every problem, with the arguments of `passk.estimate_pass_at_k` and tau.

    The mean of the returned array is the benchmark's G-Pass@k_tau, an
    unbiased estimate of it. Each distinct (n, c) pair is computed once.

    >>> estimate_g_pass_at_k(10, [4, 0, 10], 5, 0.6)
    array([0.26190476, 0.        , 1.        ])
    """
    threshold(1, tau)   # refused even when there are no problems
    return _per_problem(lambda n, c, k: at_least(n, c, k, threshold(k, tau)), num_samples, num_correct, k)


def estimate_mg_pass_at_k(num_samples: ArrayLike, num_correct: ArrayLike, k: int) -> Floats:
    """mG-Pass@k of every problem (see `mg_pass_at_k`), with the arguments of `passk.estimate_pass_at_k`."""
    return _per_problem(mg_pass_at_k, num_samples, num_correct, k)


def _per_problem(function: Callable[[int, int, int], float], num_samples: ArrayLike, num_correct: ArrayLike,
                 k: int) -> Floats:
    """function(n, c, k) per problem, validated as passk.estimate_pass_at_k validates, once per distinct (n, c)."""
    pairs, where = checked_pairs(num_samples, num_correct, k)
    values = np.array([function(n, c, int(k)) for n, c in pairs.tolist()])
    result: Floats = values[where] if where.size else np.zeros(0)
    return result
