"""Student's t distribution, for the intervals' scaling, from scipy's incomplete beta function.

Two-sided tails of Student's t are regularized incomplete beta functions,

    P(|T| > t) = I_x(df/2, 1/2) = 1 - I_y(1/2, df/2),   x = df / (df + t^2),  y = t^2 / (df + t^2),

and scipy.special's betainc, betaincc and their inverses (Boost's ibeta
family, which scipy.stats.t also rests on) give them to about 1e-15. The
functions below only choose, for each argument, the form whose input keeps
its digits: x near 1 (t near 0) loses them, y does not, and the other way
round far in the tail. scipy.stats.t's own cdf and ppf skip that choice, so
near the median they keep only absolute accuracy (1e-11 in a p-value at
t = 1e-6, df = 1), and Boost's inverse stops at about 1e-12 relative for large
df, which one Newton step on the forward function mends. Accurate to about
1e-13 relative for any df >= 1; df = inf is the normal distribution.
"""

import math
from numbers import Real
from statistics import NormalDist

from scipy.special import beta, betainc, betaincc, betaincinv

_NORMAL = NormalDist()


def _validate_df(df: float) -> None:
    """Raise ValueError unless df is a positive number (math.inf allowed)."""
    if isinstance(df, bool) or not isinstance(df, Real) or not df > 0:
        raise ValueError(f"degrees of freedom must be a positive number; got {df!r}.")


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom (df = inf: the normal).

    >>> round(t_two_sided_p(2.228138851986275, 10), 14)
    0.05
    """
    _validate_df(df)
    if isinstance(t, bool) or not isinstance(t, Real) or math.isnan(t):
        raise ValueError(f"t must be a number; got {t!r}.")
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2))
    square = t * t
    if square < df:   # t near 0: from y, which keeps its digits there
        y = square / (df + square)
        # Where I_y(1/2, df/2) is below 1/2, 1 - I_y loses at most a bit, and scipy's betaincc(1/2, 1/2, y)
        # is 0.5% off its small complement for y near 1e-18 (a Hypothesis run found it).
        below = float(betainc(0.5, df / 2, y))
        return 1.0 - below if below < 0.5 else float(betaincc(0.5, df / 2, y))
    return float(betainc(df / 2, 0.5, df / (df + square)))


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p for Student's t with df degrees of freedom (df = inf: the normal).

    >>> round(t_quantile(0.975, 10), 12)
    2.228138851986
    """
    _validate_df(df)
    if isinstance(p, bool) or not isinstance(p, Real) or not 0 < p < 1:
        raise ValueError(f"p must be strictly between 0 and 1; got {p!r}.")
    if p == 0.5:
        return 0.0
    if math.isinf(df):
        return _NORMAL.inv_cdf(p)
    tail, central = min(p, 1 - p), abs(2 * p - 1)   # both exact: 1 - p is, for p >= 1/2
    if tail < 0.25:   # far out: from x = df / (df + t^2), small here
        x = float(betaincinv(df / 2, 0.5, 2 * tail))
        magnitude = math.sqrt(df * (1 - x) / x) if x > 0 else math.inf
    else:             # near the median: from y = t^2 / (df + t^2), with I_y(1/2, df/2) = |2p - 1|
        y = float(betaincinv(0.5, df / 2, central))
        magnitude = math.sqrt(df * y / (1 - y))
    magnitude = _newton_step(magnitude, df, tail, central)
    return magnitude if p > 0.5 else -magnitude


def _newton_step(magnitude: float, df: float, tail: float, central: float) -> float:
    """One Newton step on the forward functions, which scipy gives more accurately than their inverses.

    Boost's inverse incomplete beta stops at about 1e-12 relative once df passes
    about 10^4; one step on the forward function, accurate to 1e-15, recovers the rest.
    """
    density = _density(magnitude, df)
    if not (math.isfinite(magnitude) and density > 0):
        return magnitude
    if tail < 0.25:
        miss = t_two_sided_p(magnitude, df) - 2 * tail
    else:
        square = magnitude * magnitude
        miss = central - float(betainc(0.5, df / 2, square / (df + square)))
    return magnitude + miss / (2 * density)


def _density(t: float, df: float) -> float:
    """Student's t density at t: (1 + t^2/df)^(-(df+1)/2) / (sqrt(df) B(df/2, 1/2))."""
    return math.exp(-(df + 1) / 2 * math.log1p(t * t / df)) / (math.sqrt(df) * float(beta(df / 2, 0.5)))
