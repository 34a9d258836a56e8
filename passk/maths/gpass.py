"""G-Pass@k_tau and mG-Pass@k: how often at least a share tau of k drawn samples passes.

For one problem with ``n`` samples of which ``c`` passed, the passes X among
``k`` samples drawn without replacement follow the hypergeometric
distribution H(n, c, k), P(X = j) = C(c, j) C(n-c, k-j) / C(n, k). pass@k is
P(X >= 1), pass^k is P(X = k), and G-Pass@k_tau (Liu et al. 2024,
arXiv:2412.13147) is P(X >= ceil(tau k)): one family, all upper tails.

The tail is the exact probability given (n, c), so its mean over problems is
an unbiased estimate of the benchmark's G-Pass@k_tau, as pass@k's is. Every
value returned is the double nearest the exact one. Up to EXACT_TAIL_MAX_N
samples the tail is summed in whole numbers and rounded once. Above, the tail
beyond the mean is summed in double-double arithmetic (passk.maths.nearest; the
other side is 1 minus it), outward from its first term P(X = start), taken
from the table of factorials (or, past it, from decimal log-factorials) with
a proven bound: the terms fall after the mode, and the sum stops where a
geometric bound on the rest is below TAIL_TOLERANCE of it. That bound, the
terms' and the sums' roundings make the value's error bound; where it
straddles a rounding boundary the tail is summed again to a tighter
tolerance, and then in whole numbers. So a tail costs a few standard
deviations of terms (about SPREAD_TERMS), not the distance to its far end;
tail_cost prices it beforehand, so that a web request can bound its work.
"""

import math
from collections.abc import Callable
from decimal import Context, Decimal
from fractions import Fraction
from typing import TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from passk.maths import nearest
from passk.maths.estimator import Floats, check_counts, checked_pairs

EXACT_TAIL_MAX_N = 2000       # tails summed exactly (Python ints) up to this n: about 1 ms at most
TAIL_TOLERANCE = 2.0 ** -60   # a tail stops where the rest is provably below this share of its sum
RETRY_TOLERANCE = 2.0 ** -100 # ... and, where its bound straddles a rounding boundary, below this share
FIRST_BLOCK = 256             # terms of a tail's first vectorised step; each next one doubles, up to
LARGEST_BLOCK = 1 << 16       # ... this many terms
SPREAD_TERMS = 10             # a tail stops within about this many standard deviations of the mean
# tail_cost's estimate, in microseconds (measured on a 2-core machine; docs/benchmarks.md, "Request limits")
CALL_COST = 8.0               # a tail with nothing to sum, or the Python around one that has
EXACT_COMB_DRAWS = 4          # an exact sum's binomial coefficients: min(k, n - k) / 4 microseconds
EXACT_TERM_COST = 0.4         # ... a term of an exact sum, plus n / EXACT_TERM_SAMPLES microseconds
EXACT_TERM_SAMPLES = 1500
# A double-double tail (above EXACT_TAIL_MAX_N) costs more than the float tail this priced before issue 26
# (40 us, 25 us a step, 0.03 us a term): re-measured on the same machine (docs/benchmarks.md, "Estimator").
FLOAT_COST = 400.0            # a tail's first term (from the table of factorials) and its first step
DECIMAL_TERM_COST = 2500.0    # ... more when n is past the table: the first term from decimal log-factorials
FLOAT_BLOCK_COST = 600.0      # ... each further step
FLOAT_TERM_COST = 1.0         # ... each term


def threshold(k: int, tau: float) -> int:
    """m = ceil(tau k), at least 1: the passes G-Pass@k_tau needs among k draws; tau in [0, 1].

    At least one pass is always needed, as lighteval (max(ceil(k tau), 1)) and scorio (max(1, ceil(tau k)))
    count it: so tau = 0, and any tau up to 1/k, gives pass@k.

    A float tau is a binary fraction near the decimal meant: 0.4 is a little
    above 2/5 and 0.3 a little below 3/10. So a float tau k within k 2**-50 of a
    whole number counts as that number: 0.4 and 0.3 of 10 need 4 and 3
    passes, where ceil(0.4 * 10) of the exact binary value is 5. A Fraction is taken exactly.
    """
    if isinstance(tau, bool) or not isinstance(tau, (int, float, Fraction)):
        raise TypeError(f"tau must be a number from 0 to 1; got {tau!r}.")
    if not 0 <= tau <= 1:
        raise ValueError(f"tau must be from 0 to 1 (the share of the k samples that must pass; 0 gives pass@k); "
                         f"got {tau!r}.")
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
        The share of the k samples that must pass, in [0, 1].

    Returns
    -------
    float
        P(X >= ceil(tau k)) for X ~ H(n, c, k), in [0, 1]: the double nearest its
        exact value, at every n (see the module docstring).

    Notes
    -----
    Liu et al. (2024) [1]_, their definition of G-Pass@k_tau (its equation number was not checked here):

    .. math:: \mathrm{G\text{-}Pass@}k_\tau = \sum_{j=\lceil \tau k \rceil}^{c}
              \binom{c}{j}\binom{n-c}{k-j} \Big/ \binom{n}{k}

    tau at most 1/k, 0 included, gives pass@k (at least one pass, as lighteval and scorio count it); tau = 1
    gives pass^k.

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
    def exact() -> Fraction:
        return Fraction(2 * _exact_sum(n, c, k, max(start, low), high, base=start), k * math.comb(n, k))
    if n <= EXACT_TAIL_MAX_N:
        return float(exact())
    value: DoubleDouble | None = None
    for tolerance in (TAIL_TOLERANCE, RETRY_TOLERANCE):
        if start * n > k * c:   # the tail beyond the mean: summed as it is
            tail = _tail(n, c, k, start, weighted=True, tolerance=tolerance)[0]
            value = None if tail is None else _times_two_over(k, tail)
        else:
            # (X - start + 1)^+ = (X - start + 1) + (start - 1 - X)^+, and start - 1 - X = Y - (k - start + 1) for
            # the failures Y = k - X ~ H(n, n - c, k): the mean's part, exact, and Y's weighted tail beyond its mean
            rest = k - start + 2
            beyond = _tail(n, n - c, k, rest, weighted=True, tolerance=tolerance)[0] if rest <= min(n - c, k) \
                else (0.0, 0.0, 0.0)
            value = None if beyond is None else _times_two_over(k, _plus(_quotient(k * c - (start - 1) * n, n), beyond))
        if value is None or value == VANISHING or nearest.settled_one(*value):
            break
    return _nearest_or(value, exact)


def at_least(n: int, c: int, k: int, m: int) -> float:
    """P(X >= m) for X ~ H(n, c, k): the chance that at least m of k samples drawn from the n pass."""
    n, c, k = check_counts(n, c, k)
    low, high = max(0, c + k - n), min(c, k)
    if m <= low:
        return 1.0
    if m > high:
        return 0.0
    def exact() -> Fraction:   # the shorter side in whole numbers: the upper tail itself, or 1 - the lower
        if high - m <= m - low:
            return Fraction(_exact_sum(n, c, k, m, high), math.comb(n, k))
        return 1 - Fraction(_exact_sum(n, c, k, low, m - 1), math.comb(n, k))
    if n <= EXACT_TAIL_MAX_N:
        return float(exact())
    value: DoubleDouble | None = None
    for tolerance in (TAIL_TOLERANCE, RETRY_TOLERANCE):
        if m * n > k * c:   # above the mean: the upper tail is the smaller, summed as it is
            value = _tail(n, c, k, m, tolerance=tolerance)[0]
        else:   # 1 - P(X <= m - 1); X <= m - 1 is k - X >= k - m + 1 failures among the draws
            tail = _tail(n, n - c, k, k - m + 1, tolerance=tolerance)[0]
            value = None if tail is None else _one_minus(tail)
        if value is None or value == VANISHING or nearest.settled_one(*value):
            break
    return _nearest_or(value, exact)


def _exact_sum(n: int, c: int, k: int, start: int, stop: int, base: int | None = None) -> int:
    """sum_{j=start}^{stop} w_j C(c, j) C(n-c, k-j) in whole numbers, low <= start: w_j = 1, or j - base + 1."""
    term = math.comb(c, start) * math.comb(n - c, k - start)
    total = 0
    for j in range(start, stop + 1):
        total += term if base is None else (j - base + 1) * term
        if j < stop:   # C(c, j+1) C(n-c, k-j-1) from C(c, j) C(n-c, k-j): the division is exact
            term = term * (c - j) * (k - j) // ((j + 1) * (n - c - k + j + 1))
    return total


DoubleDouble: TypeAlias = tuple[float, float, float]   # (high, low, a bound on the error of high + low)
# A value below 2**-1076 (half the smallest subnormal: its nearest double is 0.0), its bound written 0: every
# test it meets compares doubles, which differ by at least 2**-1074 where they differ at all, so a true
# bound of 2**-1076 can change none of them.
VANISHING: DoubleDouble = (0.0, 0.0, 0.0)


def _tail(n: int, c: int, k: int, start: int, weighted: bool = False, tolerance: float = TAIL_TOLERANCE
          ) -> tuple[DoubleDouble | None, int]:
    """(sum_{j >= start} w_j P(X = j) as a double-double with its error bound, the terms summed), w_j =
    j - start + 1 if weighted else 1; None for the sum where its first term is too small to carry (below
    2**-960, and not provably negligible): the caller then sums in whole numbers.

    start is beyond the mean (start n > k c) and at most min(c, k), with 0 < c < n and 0 < k < n. From
    P(X = start) (_first_term), the terms are walked outward by P(j+1)/P(j) = (c-j)(k-j) / ((j+1)(n-c-k+j+1)),
    a vectorised step at a time: each ratio a double-double quotient of whole numbers (exact products, one
    `divided`), their running products by doubling, the step's terms added pairwise. That ratio falls as j
    grows (the distribution is log-concave), so once it is r < 1 at the last term t summed, the rest is at
    most t r/(1 - r) (weighted, at most t (w r/(1 - r) + r/(1 - r)^2) for the last weight w): the sum stops
    when that bound is below `tolerance` of it, and the bound joins the error bound.
    """
    first_term = _first_term(n, c, k, start)
    if first_term is None:
        return None, 0
    anchor_high, anchor_low, anchor_bound = first_term
    top, spare = min(c, k), n - c - k
    if anchor_high == 0:   # P(X = start) below 2**anchor_bound: the tail is below that times sum_i r^i
        start_high, start_low = (float(part[0]) for part in _ratios(c, k, spare, np.array([float(start)])))
        ratio_up = (start_high + abs(start_low)) * (1 + 2.0**-40)
        if ratio_up >= 1:
            return None, 0
        geometric = 1 / (1 - ratio_up) ** (2 if weighted else 1)   # weighted: sum_i (i + 1) r^i
        # below 2**-1076: VANISHING, which no comparison of doubles near a settled value can tell from 0
        return (VANISHING, 0) if anchor_bound + math.log2(geometric) + 2.0**-20 < -1076 else (None, 0)
    total_high, total_low, total_bound = 0.0, 0.0, 0.0   # the sum so far, in units of P(X = start)
    scale_high, scale_low, scale_bound = 1.0, 0.0, 0.0   # the step's first term, in those units
    first, size, summed, rest = start, FIRST_BLOCK, 0, 0.0
    while True:
        last = min(top, first + size - 1)
        js = np.arange(first, last + 1, dtype=np.float64)   # whole numbers below 2**53: exact
        before = js[:-1]
        ratio_high, ratio_low = _ratios(c, k, spare, before)
        high, low = nearest.running_products(ratio_high, ratio_low)
        term_high, term_low = nearest.times(scale_high, scale_low, np.concatenate([[1.0], high]),
                                            np.concatenate([[0.0], low]))   # P(X = j) / P(X = start)
        terms_bound = nearest.compose(scale_bound, js.size * (nearest.DIVIDED + nearest.TIMES), nearest.TIMES)
        high, low, sum_bound = term_high, term_low, terms_bound
        if weighted:
            high, low = nearest.times_float(term_high, term_low, js - (start - 1))
            sum_bound = nearest.compose(terms_bound, nearest.TIMES_FLOAT)
        step_high, step_low, depth = nearest.summed(high, low)
        total_high, total_low = nearest.plus(total_high, total_low, step_high, step_low)
        total_bound = nearest.compose(max(total_bound, nearest.compose(sum_bound, depth * nearest.ADD)), nearest.ADD)
        summed += js.size
        if last == top:
            break
        next_high, next_low = (float(part[0]) for part in _ratios(c, k, spare, np.array([float(last)])))
        ratio_up = (next_high + abs(next_low)) * (1 + 2.0**-40)   # above the ratio: its bound is far inside
        if ratio_up < 1:
            geometric = ratio_up / (1 - ratio_up)
            weight = (last - start + 1) * geometric + geometric / (1 - ratio_up) if weighted else geometric
            # above the rest: the last term's own bound and this arithmetic's roundings (a few u) are covered
            rest = float(term_high[-1]) * (1 + terms_bound) * weight * (1 + 2.0**-40)
            if rest <= tolerance * total_high:
                break
            rest = 0.0
        scale_high, scale_low = nearest.times(float(term_high[-1]), float(term_low[-1]), next_high, next_low)
        scale_bound = nearest.compose(terms_bound, nearest.DIVIDED, nearest.TIMES)
        first, size = last + 1, min(2 * size, LARGEST_BLOCK)
    value_high, value_low = nearest.times(anchor_high, anchor_low, total_high, total_low)
    bound = (value_high * nearest.compose(anchor_bound, total_bound, nearest.TIMES)
             + anchor_high * (1 + anchor_bound) * rest + summed * 2.0**-1074) * nearest.SLACK
    return (value_high, value_low, bound), summed


def _ratios(c: int, k: int, spare: int, js: Floats) -> tuple[Floats, Floats]:
    """P(j+1)/P(j) = (c - j)(k - j) / ((j + 1)(spare + j + 1)) for each whole j, as double-doubles: each
    product of two whole numbers below 2**53 is exact as a double-double (two_product), the quotient within
    nearest.DIVIDED."""
    top_high, top_low = nearest.two_product(c - js, k - js)
    bottom_high, bottom_low = nearest.two_product(js + 1, spare + js + 1)
    high, low = nearest.divided(top_high, top_low, bottom_high, bottom_low)
    return high, low


def _first_term(n: int, c: int, k: int, j: int) -> DoubleDouble | None:
    """P(X = j) = c! (n-c)! k! (n-k)! / (j! (c-j)! (k-j)! (n-c-k+j)! n!) as (high, low, relative bound): from the
    table of factorials below its top, else from decimal log-factorials. Below about 2**-955, where a
    double-double may lose its low part, (0.0, 0.0, e) with P below 2**e instead; None if the decimal way's
    bound is too wide to use (never seen)."""
    tops, bottoms = [c, n - c, k, n - k], [j, c - j, k - j, n - c - k + j, n]
    if n < nearest.TABLE_MAX:
        high, low, exponent, bound = nearest.factorials(n).quotient_one(tops, bottoms)
        if exponent < -958:   # (high + |low|)(1 + bound) < 8: P below 2**(exponent + 3)
            return 0.0, 0.0, float(exponent + 3)
        return math.ldexp(high, exponent), math.ldexp(low, exponent), bound
    digits = 34 + 2 * len(str(n))   # ln n! is about n ln n: its digits, and 30 more for P
    context = Context(prec=digits)
    log, log_bound, sizes = Decimal(0), Decimal(0), Decimal(0)
    for x, sign in [(x, 1) for x in tops] + [(x, -1) for x in bottoms]:
        term, term_bound = nearest.log_factorial(x, context)
        log = context.add(log, term) if sign > 0 else context.subtract(log, term)
        log_bound, sizes = nearest._BOUNDS.add(log_bound, term_bound), nearest._BOUNDS.add(sizes, nearest._size(x))
    unit = Decimal(1).scaleb(1 - digits) / 2
    log_bound = nearest._BOUNDS.add(log_bound, nearest._BOUNDS.multiply(9 * unit, sizes))   # the nine additions
    if log_bound > Decimal("0.001"):
        return None
    if log + log_bound < -660:   # P below 2**-952: only its bound is carried (ln 2 < 0.6932, so this is above)
        return 0.0, 0.0, float(math.floor(float(log + log_bound) / 0.6932) + 2)
    power = context.exp(log)
    power_high = float(power)
    power_low = float(Context(prec=digits + 40).subtract(power, Decimal(power_high)))
    # exp: within 1.01 (2 b + e) of itself (nearest.nearest_from_log); low: rounded, at most u^2 of high
    relative = float(nearest._BOUNDS.multiply(Decimal("1.01"), nearest._BOUNDS.add(
        nearest._BOUNDS.multiply(2, log_bound), unit))) * (1 + 2.0**-40) + nearest.U * nearest.U
    return power_high, power_low, relative


def _nearest_or(value: DoubleDouble | None, exact: Callable[[], Fraction]) -> float:
    """The double nearest the value that value's double-double and bound approximate, where they settle it (0.0
    where it is VANISHING); else float(exact()), the exact value in whole numbers."""
    if value == VANISHING:
        return 0.0
    if value is not None and nearest.settled_one(*value):
        return value[0]
    return float(exact())


def _one_minus(value: DoubleDouble) -> DoubleDouble:
    """1 - value, its bound and its one rounding's (nearest.one_minus)."""
    high, low, rounding = nearest.one_minus(value[0], value[1])
    return high, low, (value[2] + rounding) * nearest.SLACK


def _quotient(top: int, bottom: int) -> DoubleDouble:
    """top / bottom for whole numbers 0 <= top < 2**106 (exact as a double-double) and 0 < bottom < 2**53."""
    high = float(top)
    low = float(top - int(high))   # below 2**53: exact
    quotient_high, quotient_low = nearest.divided(high, low, float(bottom), 0.0)
    return quotient_high, quotient_low, quotient_high * nearest.DIVIDED * nearest.SLACK


def _plus(a: DoubleDouble, b: DoubleDouble) -> DoubleDouble:
    """a + b for nonnegative values: their bounds and the addition's (nearest.ADD)."""
    high, low = nearest.plus(a[0], a[1], b[0], b[1])
    return high, low, (a[2] + b[2] + high * nearest.ADD) * nearest.SLACK


def _times_two_over(k: int, value: DoubleDouble) -> DoubleDouble:
    """(2/k) value: times 2 is exact, the division by k within nearest.DIVIDED."""
    high, low = nearest.divided(2 * value[0], 2 * value[1], float(k), 0.0)
    return high, low, (2 * value[2] / k + high * nearest.DIVIDED) * nearest.SLACK


def tail_cost(n: ArrayLike, c: ArrayLike, k: int, tau: float) -> Floats:
    """Estimated microseconds of G-Pass@k_tau and mG-Pass@k for each (n, c) (arrays), before computing either.

    What the computation does, priced term by term: an exact sum's terms (each costing more as n grows, with
    the size of its whole numbers), or a double-double tail's (_float_terms: the terms a tail sums, as the float
    tails that first priced them did). passk.results.metrics bounds a web request's
    work by the sum. A pair with n < k costs nothing (it is not computed). tests/passk/maths/test_gpass.py holds the
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
    first = FLOAT_COST + np.where(n >= nearest.TABLE_MAX, DECIMAL_TERM_COST, 0.0)
    floating = np.where(terms > 0, first + FLOAT_BLOCK_COST * blocks + FLOAT_TERM_COST * terms, CALL_COST)
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
