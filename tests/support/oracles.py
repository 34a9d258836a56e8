"""Exact references the tests compare passk with: fractions, and mpmath at 40 digits, written plainly.

Nothing here calls passk: each figure is recomputed from its definition. The nearest_* functions give the
double nearest an exact value (ties to even), which every point value passk returns must equal bit for bit:
from exact integers (Python's int / int rounds the exact quotient once) while min(c, k) is at most
EXACT_TERMS, else from mpmath at high precision, taken only when both ends of its error margin round to the
same double.
"""

import math
from fractions import Fraction

import mpmath

Z = 1.959963984540054           # the normal 97.5% quantile
BOUNDARY_PROBLEMS = Fraction(1, 4)


def exact_pass_at_k(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_pass_hat_k(n, c, k):
    return Fraction(math.comb(c, k), math.comb(n, k))


EXACT_TERMS = 3000          # min(c, k) up to this: exact integers (perm(10^12, 3000) has 120,000 bits)
MARGIN_DIGITS = 25          # mpmath's value is trusted to this many digits below its working precision


def nearest(value):
    """The double nearest a Fraction (or int), ties to even."""
    value = Fraction(value)
    return value.numerator / value.denominator


def nearest_mpf(value, digits):
    """The double nearest an mpmath value known to digits - MARGIN_DIGITS digits; AssertionError when that
    margin straddles a rounding boundary (give more digits)."""
    with mpmath.workdps(digits + 10):
        margin = abs(value) * mpmath.mpf(10) ** (MARGIN_DIGITS - digits)
        low, high = (_mpf_fraction(value - margin), _mpf_fraction(value + margin))
    below, above = nearest(max(low, Fraction(0))), nearest(high)
    assert below == above, f"the oracle cannot settle {mpmath.nstr(value, 30)} at {digits} digits"
    return above


def _mpf_fraction(value):
    """An mpf as the exact Fraction it is (a binary mantissa and exponent)."""
    mantissa, exponent = mpmath.mpf(value).man_exp
    return Fraction(mantissa) * Fraction(2) ** exponent


def _miss_integers(n, c, k):
    """C(n-c, k)/C(n, k) = perm(n - M, m)/perm(n, m) as (numerator, denominator) of whole numbers."""
    m, big = min(c, k), max(c, k)
    return math.perm(n - big, m), math.perm(n, m)


def _log_miss(n, c, k):
    """log C(n-c, k)/C(n, k) in mpmath at the current precision, from log-gamma."""
    return (mpmath.loggamma(n - c + 1) + mpmath.loggamma(n - k + 1) - mpmath.loggamma(n + 1)
            - mpmath.loggamma(n - c - k + 1))


def _digits(n):
    """Enough digits for log-gamma differences at n (about n log n cancels) and a 30-digit answer."""
    return 60 + 2 * len(str(n))


def nearest_miss(n, c, k):
    """The double nearest C(n-c, k)/C(n, k), the chance that no drawn sample passes."""
    if c == 0 or n - c < k:
        return float(c == 0)
    if min(c, k) <= EXACT_TERMS:
        part, whole = _miss_integers(n, c, k)
        return part / whole
    digits = _digits(n)
    with mpmath.workdps(digits):
        return nearest_mpf(mpmath.exp(_log_miss(n, c, k)), digits)


def nearest_pass_at_k(n, c, k):
    """The double nearest pass@k = 1 - C(n-c, k)/C(n, k)."""
    if c == 0 or n - c < k:
        return float(c > 0)
    if min(c, k) <= EXACT_TERMS:
        part, whole = _miss_integers(n, c, k)
        return (whole - part) / whole
    digits = _digits(n)
    with mpmath.workdps(digits):
        return nearest_mpf(-mpmath.expm1(_log_miss(n, c, k)), digits)


def nearest_pass_hat_k(n, c, k):
    """The double nearest pass^k = C(c, k)/C(n, k): the miss chance with passes and failures swapped."""
    return nearest_miss(n, n - c, k)


def nearest_biased(n, c, k):
    """The double nearest 1 - (1 - c/n)^k."""
    if c in (0, n):
        return float(c == n)
    if k * n.bit_length() <= 200_000:
        return nearest(1 - Fraction(n - c, n) ** k)
    digits = 60 + 2 * len(str(n)) + len(str(k))
    with mpmath.workdps(digits):
        return nearest_mpf(-mpmath.expm1(k * mpmath.log1p(-mpmath.mpf(c) / n)), digits)


def t_975(df):
    """Student's t 97.5% quantile, from mpmath's incomplete beta at 40 digits."""
    with mpmath.workdps(40):
        def tail(t):
            x = df / (df + t * t)
            return mpmath.betainc(df / mpmath.mpf(2), mpmath.mpf(1) / 2, 0, x, regularized=True) / 2 - mpmath.mpf("0.025")
        return float(mpmath.findroot(tail, 2.0))


def capped_trials(mean, variance_of_mean, units):
    """The effective trials of the spec: mean (1 - mean) / SE^2, capped at units (1 + (units m / (1/4))^2),
    m = min(mean, 1 - mean); units when the mean is 0 or 1. Exact inputs (Fractions) give an exact cap."""
    spread = mean * (1 - mean)
    if spread == 0:
        return Fraction(units)
    cap = units * (1 + (units * min(mean, 1 - mean) / BOUNDARY_PROBLEMS) ** 2)
    return min(spread / variance_of_mean, cap) if variance_of_mean else cap


def midp_tail(passes, trials, rate):
    """P(X > x) + P(X = x) / 2 for 'X binomial(trials, rate)' at real passes x: the mid-p lower end's equation."""
    with mpmath.workdps(40):
        passes, trials, rate = mpmath.mpf(passes), mpmath.mpf(trials), mpmath.mpf(rate)
        at_least = mpmath.betainc(passes, trials - passes + 1, 0, rate, regularized=True)
        beyond = mpmath.betainc(passes + 1, trials - passes, 0, rate, regularized=True) if trials > passes else 0
        return (at_least + beyond) / 2


def assert_is_midp_interval(interval, passes, trials, tail=0.025, tolerance=1e-9):
    """Each end of interval solves its mid-p equation at passes of trials (an end of 0 or 1 only where no rate
    below the smallest double, or above 1 - 1e-16, does)."""
    low, high = interval
    # The upper end is 1 minus the mirrored lower end, so it is known to 2^-53 absolute: the root must lie
    # between the end's neighbours that far away (and 1e-9 relative), where the tail is monotone.
    for end, x, slack in ((low, passes, 0.0), (1 - high, trials - passes, 2.0**-53)):
        if x <= 0:
            assert end == 0
            continue
        below = max(end * (1 - tolerance) - slack, 0.0)
        above = min(end * (1 + tolerance) + slack, 1.0)
        assert below == 0 or midp_tail(x, trials, below) <= tail, (interval, passes, trials)
        assert midp_tail(x, trials, max(above, 2.0**-1022)) >= tail, (interval, passes, trials)


def population_trials(values):
    """The population interval's trials for values (Fractions): capped_trials at SE^2 = s^2 / P, times (z/t)^2."""
    count = len(values)
    mean = sum(values) / count
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, float(capped_trials(mean, variance / count, count)) * (Z / t_975(count - 1)) ** 2


def fit_prior(counts, floor=Fraction(1, 10)):
    """Beta(a, b) fitted by moments to the c/n of counts [(n, c)], as the spec of passk.maths.variance says, exactly."""
    rates = [Fraction(c, n) for n, c in counts]
    mean = sum(rates) / len(rates)
    inverse = sum(Fraction(1, n) for n, _ in counts) / len(counts)
    spread = mean * (1 - mean)
    if len(rates) < 2 or spread == 0 or inverse >= 1:
        return floor, floor
    observed = sum((rate - mean) ** 2 for rate in rates) / (len(rates) - 1) / spread
    correlation = min(max((observed - inverse) / (1 - inverse), Fraction(1, 10**4)), Fraction(1))
    total = 1 / correlation - 1
    return max(mean * total, floor), max((1 - mean) * total, floor)


def posterior_variance(n, c, k, prior):
    """E[Var(pass@k estimate | p)] for p ~ Beta(a + c, b + n - c), by summing over every outcome c' of a
    fresh draw of n samples (beta-binomial) and subtracting the square of the mean: 40 digits."""
    with mpmath.workdps(40):
        a, b = mpmath.mpf(prior[0].numerator) / prior[0].denominator + c, \
            mpmath.mpf(prior[1].numerator) / prior[1].denominator + n - c
        base = mpmath.beta(a, b)
        second = mpmath.mpf(0)
        for outcome in range(n + 1):
            chance = math.comb(n, outcome) * mpmath.beta(a + outcome, b + n - outcome) / base
            second += chance * (mpmath.mpf(math.comb(n - outcome, k)) / math.comb(n, k)) ** 2
        # E[Var] = E[E[A^2 | p]] - E[(1 - p)^(2k)]: the estimate's mean given p is 1 - (1 - p)^k.
        return float(second - mpmath.beta(a, b + 2 * k) / base)


def hypergeometric_terms(n, c, k, low=0):
    """(j, C(c, j) C(n - c, k - j)) for each j from low up to min(c, k) where the term is not 0: the ways k drawn of
    n samples hold j of the c that pass. Each binomial comes from the one before by its ratio, in exact integer
    steps (C(c, j + 1) = C(c, j) (c - j) / (j + 1)), so the terms cost a few small multiplications each where
    math.comb would start over."""
    low, high = max(low, 0, k - (n - c)), min(c, k)
    if low > high:
        return
    passing, failing = math.comb(c, low), math.comb(n - c, k - low)
    for j in range(low, high + 1):
        yield j, passing * failing
        if j < high:
            passing = passing * (c - j) // (j + 1)
            failing = failing * (k - j) // (n - c - k + j + 1)
