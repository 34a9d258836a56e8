"""Student's t distribution for the intervals and p-values, from scipy's incomplete beta function;
the Wilson interval for a mean of values in [0, 1]; the exact sign-flip test.

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

import numpy as np

from scipy.special import beta, betainc, betaincc, betaincinv

_NORMAL = NormalDist()


def _validate_df(df):
    """Raise ValueError unless df is a positive number (math.inf allowed)."""
    if isinstance(df, bool) or not isinstance(df, Real) or not df > 0:
        raise ValueError(f"degrees of freedom must be a positive number; got {df!r}.")


def t_two_sided_p(t, df):
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
        return float(betaincc(0.5, df / 2, square / (df + square)))
    return float(betainc(df / 2, 0.5, df / (df + square)))


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


def _newton_step(magnitude, df, tail, central):
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


def _density(t, df):
    """Student's t density at t: (1 + t^2/df)^(-(df+1)/2) / (sqrt(df) B(df/2, 1/2))."""
    return math.exp(-(df + 1) / 2 * math.log1p(t * t / df)) / (math.sqrt(df) * float(beta(df / 2, 0.5)))


def wilson_interval(mean, se, count, confidence=0.95):
    """The 95% interval for the mean of count values in [0, 1], given their mean and SE (s / sqrt(count)).

    It is Wilson's score interval for a proportion (Wilson 1927, JASA 22:209)
    at the effective sample size n* = mean (1 - mean) / SE^2, scaled by
    (z / t(count - 1))^2 for the few degrees of freedom (Korn and Graubard 1998,
    Survey Methodology 24:193). For 0/1 values n* is count - 1 before the
    scaling; for values between, n* grows as their spread shrinks. Unlike mean ± t SE it leans away from 0 and 1, where skewed
    values pile up, and never leaves [0, 1]. Values all equal to 0 or all to 1
    have SE 0 and the interval of count - 1 such values; values all equal to
    one number strictly between have no spread and give [mean, mean].

    >>> [round(end, 4) for end in wilson_interval(0.5, 0.5 / 3, 10)]   # five 0s and five 1s
    [0.199, 0.801]
    """
    if not 0 <= mean <= 1 or not se >= 0 or count < 2:
        raise ValueError(f"the Wilson interval needs a mean in [0, 1], an SE >= 0 and two values or more; "
                         f"got mean {mean!r}, SE {se!r}, {count!r} values.")
    spread = mean * (1 - mean)
    if se == 0 and spread > 0:
        return mean, mean
    effective = spread / se**2 if spread > 0 else count - 1
    z = _NORMAL.inv_cdf(0.5 + confidence / 2)
    return wilson_score(mean, effective * (z / t_quantile(0.5 + confidence / 2, count - 1)) ** 2, z)


def wilson_score(proportion, trials, z):
    """Wilson's score interval for a proportion seen in trials (any positive number of them) at quantile z."""
    shrink = z * z / trials
    centre = (proportion + shrink / 2) / (1 + shrink)
    half_width = z * math.sqrt(proportion * (1 - proportion) / trials + shrink / trials / 4) / (1 + shrink)
    low = 0.0 if proportion == 0 else max(0.0, centre - half_width)     # exact ends where rounding would miss them
    return low, 1.0 if proportion == 1 else min(1.0, centre + half_width)


EXACT_MAX_PROBLEMS = 20   # 2^20 sign patterns: about 8 MB and 10 ms to count
_LOW_BITS = 12            # patterns of the first 12 values, added to those of the rest: a 4096 x 256 table at most


def sign_flip_p(differences):
    """The exact two-sided p-value of the paired sign-flip (permutation) test that the mean difference is 0.

    Under the null each problem's difference is as likely to have had the other
    sign, so the p-value is the share of the 2^P sign patterns whose |sum| is at
    least the observed one. It is valid for any P (no normal approximation), and
    never below 2 / 2^P: the observed pattern and its mirror always count.

    >>> sign_flip_p([0.1, 0.2, 0.3])   # only the observed signs and their mirror reach |0.6|
    0.25
    """
    values = np.asarray(differences, dtype=float)
    if not 0 < values.size <= EXACT_MAX_PROBLEMS:
        raise ValueError(f"the exact test enumerates 1 to {EXACT_MAX_PROBLEMS} differences; got {values.size}.")
    observed = abs(math.fsum(values))
    slack = 1e-12 * math.fsum(np.abs(values))   # sums of the same values in another order differ in the last bits
    sums = _signed_sums(values[:_LOW_BITS])[:, None] + _signed_sums(values[_LOW_BITS:])[None, :]
    return int(np.count_nonzero(np.abs(sums) >= observed - slack)) / 2.0**values.size


def _signed_sums(values):
    """The sums of values under every choice of signs (2^len(values) of them; [0.0] for none)."""
    sums = np.zeros(1)
    for value in values:
        sums = np.concatenate((sums + value, sums - value))
    return sums
