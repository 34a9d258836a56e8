"""Student's t distribution for the intervals' scaling, from scipy's incomplete beta function; the exact
sign-flip test and the interval that inverts it.

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


def sign_flip_interval(differences, confidence=0.95, low=-math.inf, high=math.inf):
    """The exact test's interval for the mean difference: every shift delta that the two-sided sign-flip test
    of mean(d - delta) = 0 keeps at level alpha = 1 - confidence, clipped to [low, high].

    delta is inside when sign_flip_p(d - delta) >= alpha (p = 0.05 is not significant), so 0 is inside
    exactly when sign_flip_p(d) >= 0.05: the interval and the p-value never disagree. It is the inversion
    of Fisher's randomization test, whose ends are subset means (Hartigan 1969, JASA 64:1303, "Using
    subsample values as typical values"). For delta below mean(d) write e = d - delta, whose sum T is
    positive, and F for the problems whose sign a pattern flips: its sum is T - 2 e(F), as extreme as T
    when e(F) <= 0 or e(not F) <= 0, never both. So 2 (1 + N(delta)) of the 2^P patterns count, N(delta)
    the nonempty subsets S with mean_S(d) <= delta (the empty set is the observed pattern; the full set,
    of mean mean(d), never counts), and delta is kept while 1 + N(delta) >= alpha 2^(P-1). The low end is
    the m-th smallest of the 2^P - 1 subset means, m = ceil(alpha 2^(P-1)) - 1, the high end the m-th
    largest; both ends are kept, as a subset whose mean is delta ties. Ties among the d need nothing more.
    When m = 0 (2 / 2^P >= alpha: P <= 5 at 95%) no delta is rejected and the interval is [low, high];
    [-1, 1] is the whole range of a difference of pass@k values.

    Rounding: sign_flip_p counts a pattern within slack = 1e-12 sum|e| of the observed sum, so a subset
    whose sum is 0 but for rounding (0.3 - 0.2 - 0.1) ties, and 0 is read the same way here: 0 is inside
    exactly when sign_flip_p(d) keeps it, and an end within the slack of 0 is then reported as 0. The
    other ends are subset means, which sign_flip_p keeps; only a delta outside an end by less than the
    slack (about 1e-12 of the differences) can be kept by sign_flip_p and left out here. The interval
    always holds mean(d), where p = 1, however the means round.

    The 2^P - 1 subset means are built from the subset sums of two halves of the differences, one 8 MB
    array at P = 20; each end is picked from those within a bound found from a sample of them.

    >>> sign_flip_interval([0.1, 0.2, 0.3])   # 2/2^3 = 0.25: three problems reject nothing
    (-inf, inf)
    >>> sign_flip_interval([0, -1, -1, -1, -1, -1])   # m = ceil(0.05 * 32) - 1 = 1
    (-1.0, 0.0)

    In the second, the low end is the least subset mean (-1, of any set of the -1s) and the high end the
    greatest (0, the 0 alone). At delta = 0 the 0 may take either sign, so 4 of the 64 patterns reach
    |-5|: p = 0.0625, kept. Any delta above 0 leaves only the observed pattern and its mirror, p = 2/64,
    and any delta below -1 likewise.
    """
    values = np.asarray(differences, dtype=float)
    if not 0 < values.size <= EXACT_MAX_PROBLEMS:
        raise ValueError(f"the exact test enumerates 1 to {EXACT_MAX_PROBLEMS} differences; got {values.size}.")
    if not np.all(np.isfinite(values)):
        raise ValueError("the differences must be finite numbers.")
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence must be strictly between 0 and 1; got {confidence!r}.")
    # p = 2 (1 + N) / 2^P >= alpha  <=>  1 + N >= alpha 2^(P-1), a product by a power of 2, exact. p, with
    # at most 20 binary digits, is never 1 - 0.95 itself, so the float alpha decides as 0.05 would.
    rank = math.ceil((1 - confidence) * 2.0 ** (values.size - 1)) - 1
    if rank <= 0:
        return low, high
    halves = _sums_and_sizes(values[:_LOW_BITS]), _sums_and_sizes(values[_LOW_BITS:])
    means = _subset_means(*halves)
    centre = float(np.mean(values))   # p = 1 there: both ends reach it, whatever the rounding
    return (max(low, min(centre, _end(values, halves, means, rank, 1))),
            min(high, max(centre, _end(values, halves, means, rank, -1))))


def _end(values, halves, means, rank, side):
    """The low end of sign_flip_interval for side 1, the high end for side -1: the rank-th subset mean
    from that side, or 0 where that is 0 but for rounding and sign_flip_p keeps 0.

    Seen from the side (means and sums times side), sign_flip_p keeps 0 when at least rank subsets have
    sums at most slack / 2. That holds when the rank-th mean is at most 0 and fails when it is above
    slack / 2; between, those subsets are counted. The slack is taken at the rank-th mean, within
    slack / 2 of 0 whenever it matters, where it is the slack at 0 to within P 1e-12 of itself.
    """
    bound = _bound(means, rank, side)
    seen = side * (means if bound == math.inf else means[np.flatnonzero(means <= bound if side > 0 else
                                                                        means >= -bound)])
    end = float(np.partition(seen, rank - 1)[rank - 1])
    half_slack = 0.5e-12 * math.fsum(np.abs(values - side * end))
    if not -half_slack <= end <= half_slack:
        return side * end
    if end > 0:   # a rounding zero above 0: does sign_flip_p count enough subsets at 0?
        sums = _sums_at(*halves, np.flatnonzero(side * means <= end + half_slack))
        if np.count_nonzero(side * sums <= half_slack) < rank:
            return side * end
    return 0.0


_SAMPLE = 1 << 14   # subset means sampled to find a bound on the rank-th


def _bound(means, rank, side):
    """A number, seen from the side, that at least rank subset means reach (from a sample, checked; else
    inf), near enough the rank-th that the means within it are a few to sort, not 2^P."""
    if means.size <= 4 * _SAMPLE:
        return math.inf
    sample = side * means[np.arange(_SAMPLE, dtype=np.int64) * 2654435761 % means.size]   # spread over the bits
    expected = _SAMPLE * rank / means.size
    at = min(_SAMPLE - 1, math.ceil(expected + 4 * math.sqrt(expected) + 8))
    bound = float(np.partition(sample, at)[at])
    reached = np.count_nonzero(means <= bound if side > 0 else means >= -bound)
    return bound if reached >= rank else math.inf


def _subset_means(low, high):
    """The means of the 2^P - 1 nonempty subsets, from the sums and sizes of the subsets of each half:
    subset i (i >= 1, the empty set being 0) joins low subset i // 2^len(high) and high subset i % 2^len(high)
    and is at i - 1. One 8 MB array at P = 20, built in place."""
    means = np.add.outer(low[0], high[0])
    sizes = np.add.outer(low[1], high[1])
    sizes[0, 0] = 1   # the empty set, left out below, divides 0 by 1
    means /= sizes
    return means.ravel()[1:]


def _sums_at(low, high, indices):
    """The sums of the subsets at these indices of _subset_means, added as there."""
    index = indices + 1
    row, column = index >> (high[0].size.bit_length() - 1), index & (high[0].size - 1)   # 2^len(high) columns
    return low[0][row] + high[0][column]


def _sums_and_sizes(values):
    """The sums and sizes of all 2^len(values) subsets of values, the empty one first."""
    sums, sizes = np.zeros(1), np.zeros(1, dtype=np.int8)
    for value in values:
        sums, sizes = np.concatenate((sums, sums + value)), np.concatenate((sizes, sizes + 1))
    return sums, sizes


def _signed_sums(values):
    """The sums of values under every choice of signs (2^len(values) of them; [0.0] for none)."""
    sums = np.zeros(1)
    for value in values:
        sums = np.concatenate((sums + value, sums - value))
    return sums
