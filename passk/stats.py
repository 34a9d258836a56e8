"""Student's t distribution without scipy: two-sided p-values and quantiles.

Both rest on the regularized incomplete beta function,

    P(|T| > t) = I_x(df/2, 1/2)    with x = df / (df + t^2),

evaluated by its continued fraction (modified Lentz; Numerical Recipes §6.4).
The quantile inverts that tail by safeguarded Newton steps started from the
Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5).

With many degrees of freedom x sits so close to 1 that its rounding alone
costs about df * 1e-16 of relative accuracy, so there, away from the far
tail, the Cornish-Fisher series gives the quantile and, inverted, the p-value.
Accurate to about 1e-12 relative for any df >= 1; df = inf is the normal.
"""

import math
from numbers import Real
from statistics import NormalDist

_STANDARD_NORMAL = NormalDist()
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_TINY = 1e-300           # keeps Lentz's denominators away from zero
_FRACTION_TOLERANCE = 1e-16
_NEWTON_STEPS = 100
SERIES_MIN_DF = 1000     # the series in 1/df is used from this df on ...
SERIES_MAX_RATIO = 0.01  # ... for t^2 <= 0.01 df, where its error is below 1e-13 relative


def _validate_df(df):
    """Raise ValueError unless df is a positive number (math.inf allowed)."""
    if isinstance(df, bool) or not isinstance(df, Real) or not df > 0:
        raise ValueError(f"degrees of freedom must be a positive number; got {df!r}.")


def _stirling_remainder(x):
    """s(x) = log Gamma(x) - [(x - 1/2) log x - x + log(2 pi)/2] for x > 0."""
    if x < 10:  # below 10 the series is poor, and lgamma's absolute error is tiny
        return math.lgamma(x) - ((x - 0.5) * math.log(x) - x + _HALF_LOG_2PI)
    inverse, inverse2 = 1.0 / x, 1.0 / (x * x)
    return inverse * (1 / 12 - inverse2 * (1 / 360 - inverse2 * (1 / 1260 - inverse2 * (1 / 1680 - inverse2 / 1188))))


def log_beta(a, b):
    """log B(a, b) = log Gamma(a) + log Gamma(b) - log Gamma(a + b), for a, b > 0.

    Written around Stirling's remainder so that a huge a with a small b (the
    t distribution with many degrees of freedom) loses nothing to the
    cancellation of three nearly equal log-gammas.
    """
    a, b = max(a, b), min(a, b)
    if a < 10:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return (_HALF_LOG_2PI + (b - 0.5) * math.log(b) - b * math.log(a + b) - (a - 0.5) * math.log1p(b / a)
            + _stirling_remainder(a) + _stirling_remainder(b) - _stirling_remainder(a + b))


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b), by the modified Lentz method.

    Converges quickly for x < (a + 1) / (a + b + 2), in about sqrt(max(a, b))
    terms at worst.
    """
    limit = 1000 + 20 * int(math.sqrt(max(a, b)))
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, limit):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            fraction *= c * d
        if abs(c * d - 1.0) < _FRACTION_TOLERANCE:
            return fraction
    raise ArithmeticError(f"the incomplete beta fraction did not converge for a={a}, b={b}, x={x}.")


def incomplete_beta_pair(a, b, x, y):
    """(I_x(a, b), I_y(b, a)) for y = 1 - x given exactly; the two sum to 1.

    I_x(a, b) is the regularized incomplete beta function. Whichever of the
    pair the continued fraction gives directly is the smaller one, and the
    other is 1 minus it, so both keep full relative accuracy when small.
    """
    if x <= 0:
        return 0.0, 1.0
    if y <= 0:
        return 1.0, 0.0
    # a * log x is huge for big a, so log x comes from log1p(-y) when y is small (and vice versa).
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_y = math.log1p(-x) if x < 0.5 else math.log(y)
    front = math.exp(a * log_x + b * log_y - log_beta(a, b))
    if x < (a + 1) / (a + b + 2):
        value = front * _beta_fraction(a, b, x) / a
        return value, 1.0 - value
    complement = front * _beta_fraction(b, a, y) / b
    return 1.0 - complement, complement


def _t_probabilities(t, df):
    """(P(|T| >= |t|), P(|T| < |t|)) by the incomplete beta function."""
    square = t * t
    return incomplete_beta_pair(df / 2, 0.5, df / (df + square), square / (df + square))


def _cornish_fisher(z, df):
    """The t quantile as a series in 1/df around the normal quantile z.

    Abramowitz & Stegun 26.7.5 with its fifth term; the first omitted term
    is of order z**13 / df**6.
    """
    z2 = z * z
    g1 = z * (z2 + 1) / 4
    g2 = z * ((5 * z2 + 16) * z2 + 3) / 96
    g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
    g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160
    g5 = z * (((((27 * z2 + 339) * z2 + 930) * z2 - 1782) * z2 - 765) * z2 + 17955) / 368640
    return z + (g1 + (g2 + (g3 + (g4 + g5 / df) / df) / df) / df) / df


def _series_applies(t, df):
    """Whether the Cornish-Fisher series is more accurate than the beta fraction at (t, df)."""
    return df >= SERIES_MIN_DF and t * t <= SERIES_MAX_RATIO * df


def _normal_equivalent(t, df):
    """The z with _cornish_fisher(z, df) = t, by Newton steps (the slope is 1 + O(1/df))."""
    z = t
    for _ in range(_NEWTON_STEPS):
        step = (_cornish_fisher(z, df) - t) / (1 + (3 * z * z + 1) / (4 * df))
        z -= step
        if abs(step) <= 1e-17 * abs(z):
            break
    return z


def t_two_sided_p(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom (df = inf: the normal).

    >>> round(t_two_sided_p(2.228138851986275, 10), 14)
    0.05
    """
    _validate_df(df)
    if isinstance(t, bool) or not isinstance(t, Real) or math.isnan(t):
        raise ValueError(f"t must be a number; got {t!r}.")
    t = abs(t)
    if math.isinf(t):
        return 0.0
    if _series_applies(t, df):
        return math.erfc(_normal_equivalent(t, df) / math.sqrt(2))  # 2 P(Z > z), accurate in the tail
    return _t_probabilities(t, df)[0]


def t_quantile(p, df):
    """The t with P(T <= t) = p for Student's t with df degrees of freedom (df = inf: the normal).

    >>> round(t_quantile(0.975, 10), 12)
    2.228138851986
    """
    _validate_df(df)
    if isinstance(p, bool) or not isinstance(p, Real) or not 0 < p < 1:
        raise ValueError(f"p must be strictly between 0 and 1; got {p!r}.")
    if p == 0.5:
        return 0.0
    magnitude = _upper_quantile(min(p, 1 - p), df)  # 1 - p is exact for p >= 1/2
    return magnitude if p > 0.5 else -magnitude


def _upper_quantile(tail, df):
    """The t > 0 with P(T > t) = tail, for 0 < tail < 1/2."""
    z = -_STANDARD_NORMAL.inv_cdf(tail)
    if _series_applies(z, df):
        return _cornish_fisher(z, df)
    if df == 1:  # the Cauchy distribution, in closed form; 1/2 - tail is exact from 1/4 on
        return 1 / math.tan(math.pi * tail) if tail < 0.25 else math.tan(math.pi * (0.5 - tail))
    guess = _cornish_fisher(z, df) if df > 4 else z
    if tail < 0.25:
        return _solve_for_t(tail, df, guess, upper_tail=True)
    return _solve_for_t(1 - 2 * tail, df, guess, upper_tail=False)  # P(|T| < t), exact here


def _solve_for_t(target, df, guess, upper_tail):
    """The t > 0 with P(T > t) = target (upper_tail) or P(|T| < t) = target.

    Newton steps in log t on the log of the probability, which is nearly
    linear there both in the power-law tail and at the linear start of the
    central part; a step leaving the bracket known so far becomes a bisection.
    """
    low, high, t = 0.0, math.inf, guess
    previous_step = math.inf
    for _ in range(_NEWTON_STEPS):
        two_sided, central = _t_probabilities(t, df)
        value = two_sided / 2 if upper_tail else central
        if value == target:
            return t
        if (value > target) == upper_tail:
            low = t
        else:
            high = t
        proposal = math.nan
        if value > 0:
            # d log(value) / d log(t) = -t density / value (upper tail) or 2 t density / value (central)
            slope = math.exp(math.log(t) + _log_density(t, df) - math.log(value)) * (-1 if upper_tail else 2)
            step = (math.log(value) - math.log(target)) / slope
            # Converged, or within 1e-10 and no longer shrinking: the rounding noise of value is reached.
            if abs(step) <= 1e-15 or abs(previous_step) <= abs(step) < 1e-10:
                return t * math.exp(-step)
            previous_step = step
            proposal = t * math.exp(-step)
        if not low < proposal < high:
            proposal = 2 * low + 1 if math.isinf(high) else (low + high) / 2
        t = proposal
    return t


def _log_density(t, df):
    """The log of the t density at t."""
    return -log_beta(df / 2, 0.5) - 0.5 * math.log(df) - (df + 1) / 2 * math.log1p(t * t / df)
