"""How much each problem's pass@k estimate would move if its samples were drawn again: the sampling noise.

The estimate 1 - C(n-c, k)/C(n, k) of a problem with pass rate p has variance

    Var_n(p) = sum_{j >= 1} H(j) [(1 - p)^(2k-j) - (1 - p)^(2k)],

H(j) the hypergeometric chance that two random k-subsets of the n samples
share j of them (two subsets both miss every pass with chance (1-p)^|union|).
The unbiased estimate of it from c alone (A(k)^2 - A(2k)) is 0 whenever c = 0
or n - c < k, also for a problem that is far from certain, and with few flaky
problems the interval built on it covered 59% (issue 14). Here the rate is not
plugged in but averaged over what the data say about it: a beta-binomial model
whose Beta(a, b) prior for the pass rates is fitted to all the problems by
moments (empirical Bayes; the model of Bayes@N, arXiv 2510.04265), so that a
problem with c = 0 keeps the noise its neighbours make plausible, and a
benchmark whose problems are all-or-nothing keeps almost none. With
p ~ Beta(a + c, b + n - c) after the data, E[(1-p)^s] = B(a', b' + s)/B(a', b'),
so the expected variance is a sum of k terms at most, each a difference of two
beta functions computed as one product (nothing cancels).

The same formula at m > n samples is what the planner asks: how the noise
shrinks with more samples, each problem keeping what its c/n says of its rate.
"""

import math
from typing import overload

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import betaln

from passk.maths.estimator import Floats, Ints, log_complement

PRIOR_FLOOR = 0.1      # neither prior parameter below this: no problem's rate is taken to be exactly 0 or 1
SMALLEST_CORRELATION = 1e-4   # a + b at most 10^4: rates more alike than that change little, and beta
                              # functions of larger arguments lose digits in their differences
OVERLAP_SIGMAS = 12    # overlaps j further than this many SDs from k^2/m are left out (their chance < 1e-30)
MAX_TERMS = 4_000_000  # overlap terms per k in all; beyond, the unbiased estimate stands in for the widest windows
SHARED_OVERLAPS = 64   # up to this k the planner sums all k overlaps for every size (the negligible ones too)
_CHUNK = 1 << 18       # matrix entries per vectorised step
VARIANCE_TERMS = 128   # the unbiased V_i is summed term by term up to this min(c, k), above it by Stirling;
                       # each term costs about 6 ns per distinct (n, c) and k, so this bounds a request's cost


def fit_prior(samples: ArrayLike, correct: ArrayLike) -> tuple[float, float]:
    """Beta(a, b) for the problems' pass rates, fitted by moments to the c_i / n_i (each n_i >= 2).

    Var(c/n) = m (1 - m) [rho + (1 - rho) / n] for a beta-binomial with mean m
    and intra-problem correlation rho = 1 / (a + b + 1); averaged over the
    problems' n this gives rho, then a + b = 1/rho - 1. rho is kept at least
    SMALLEST_CORRELATION and both parameters at least PRIOR_FLOOR.
    """
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    rates = correct / samples
    mean = math.fsum(rates.tolist()) / rates.size
    inverse = math.fsum((1 / samples).tolist()) / samples.size
    spread = mean * (1 - mean)
    if rates.size < 2 or spread <= 0 or inverse >= 1:
        return PRIOR_FLOOR, PRIOR_FLOOR
    observed = float(np.var(rates, ddof=1)) / spread
    correlation = min(max((observed - inverse) / (1 - inverse), SMALLEST_CORRELATION), 1.0)
    total = 1 / correlation - 1
    return max(mean * total, PRIOR_FLOOR), max((1 - mean) * total, PRIOR_FLOOR)


def expected_variance(samples: ArrayLike, correct: ArrayLike, k: int, prior: tuple[float, float],
                      at: float | None = None) -> Floats:
    """E[Var_m(p)] over each problem's posterior for its rate, m = max(n_i, at) samples; float arrays in, out.

    Problems are given by samples n_i and correct c_i (n_i >= 2k); prior is
    fit_prior's (a, b). Each problem sums the overlaps j where H(j) lives
    (overlaps_worth_summing: all of 1..k for small m, a dozen or so when k^2/m is small),
    from one beta function and one hypergeometric chance at the window's start
    and a running product after it. Where the windows would pass MAX_TERMS in
    all, the unbiased estimate A(k)^2 - A(2k) at n_i, times n_i / m, stands in
    for the widest (their n is then in the hundreds or more, where it is
    accurate).
    """
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    drawn = samples if at is None else np.maximum(samples, float(at))
    a, b = correct + prior[0], samples - correct + prior[1]
    low, high = _windows(drawn, k)
    widths = (high - low + 1).astype(np.int64)
    order = np.argsort(widths, kind="stable")
    kept = order[:int(np.searchsorted(np.cumsum(widths[order]), MAX_TERMS, side="right"))]
    variances = np.empty(samples.shape)
    rest = np.setdiff1d(np.arange(samples.size), kept, assume_unique=True)
    # The leading term of an m-sample estimate's variance is k^2 zeta_1 / m: scale the unbiased one from n_i.
    variances[rest] = estimate_variance(samples[rest], correct[rest], k) * (samples[rest] / drawn[rest])
    # Rows of about the same width share a matrix: widths rounded up to 8 columns to 1.25 times (few matrices,
    # little masked past the windows).
    buckets = _columns(widths[kept])
    for columns in np.unique(buckets).tolist():
        rows = kept[buckets == columns]
        for start in range(0, rows.size, max(1, _CHUNK // columns)):
            chunk = rows[start:start + max(1, _CHUNK // columns)]
            variances[chunk] = _window_sums(drawn[chunk], a[chunk], b[chunk], k, low[chunk], widths[chunk], columns)
    return variances


def _columns(widths: Ints) -> Ints:
    """Each width rounded up to a matrix's columns: a multiple of 8 with at most a quarter more than the width."""
    grain = np.left_shift(1, np.maximum(3, np.floor(np.log2(np.maximum(widths, 1) / 4))).astype(np.int64))
    return -(-widths // grain) * grain


def _windows(size: Floats, k: int) -> tuple[Floats, Floats]:
    """(first, last) overlap j >= 1 worth summing for each size (float arrays): the hypergeometric's mass."""
    fraction = k / size
    spread = np.sqrt(k * fraction * (1 - fraction) * (size - k) / np.maximum(size - 1, 1))
    centre = k * fraction
    low = np.maximum(np.maximum(1.0, 2 * k - size), np.floor(centre - OVERLAP_SIGMAS * spread - 10))
    high = np.minimum(float(k), np.ceil(centre + OVERLAP_SIGMAS * spread + 10))
    return low, high


def _window_sums(size: Floats, a: Floats, b: Floats, k: int, low: Floats, widths: Ints, columns: int) -> Floats:
    """sum_j H(j) E[(1-p)^(2k-j) - (1-p)^(2k)], p ~ Beta(a, b), over j = low .. low + width - 1 per row.

    From the window's start: log H(j+1) - log H(j) = log((k-j)^2 / ((j+1)(m-2k+j+1))), and with
    g = log(1 - a/(a+b+2k-j-1)) both log E[(1-p)^(2k-j)] falls and
    log E[(1-p)^(2k)] - log E[(1-p)^(2k-j)] rises by g each step.
    """
    steps = np.arange(columns, dtype=float)[None, :]
    valid = steps < widths[:, None]
    overlap = np.minimum(low[:, None] + steps, float(k))   # past the window: repeats of the last, masked below
    a_, b_, size_ = a[:, None], b[:, None], size[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        chance_step = _log_whole_pair(overlap, k) - np.log(size_ - 2 * k + overlap + 1)
        moment_step = np.log1p(-a_ / (a_ + b_ + 2 * k - overlap - 1))
    log_chance = _running_sum(log_overlap_chance(size, k, low), chance_step)
    running = _running_sum(np.zeros(size.shape), moment_step)
    log_moment = betaln(a, b + 2 * k - low) - betaln(a, b)
    first_gap = np.where(low == 1, np.log1p(-a / (a + b + 2 * k - 1)),
                         betaln(a, b + 2 * k) - betaln(a, b + 2 * k - low))
    log_chance += log_moment[:, None]
    log_chance -= running
    running += first_gap[:, None]          # the gap log E[(1-p)^(2k)] - log E[(1-p)^(2k-j)]
    with np.errstate(invalid="ignore"):
        terms = np.exp(log_chance, out=log_chance)
        terms *= -np.expm1(running, out=running)
    sums: Floats = np.where(valid, terms, 0.0).sum(axis=1)
    return sums


_WHOLE_LOGS = 1 << 20    # log j for j up to this from a table: a lookup costs less than a log


def _log_whole_pair(overlap: Floats, k: int) -> Floats:
    """2 log(k - j) - log(j + 1) for whole numbers j in [1, k] (a float array), by table for k below _WHOLE_LOGS."""
    if k + 2 > _WHOLE_LOGS:
        return 2 * np.log(k - overlap) - np.log(overlap + 1)
    with np.errstate(divide="ignore"):
        logs: Floats = np.log(np.arange(k + 2, dtype=float))
    index = overlap.astype(np.intp)
    return 2 * logs[k - index] - logs[index + 1]


def _running_sum(start: Floats, steps: Floats) -> Floats:
    """Per row: start, start + steps[0], start + steps[0] + steps[1], ... (as many as steps has columns)."""
    total = np.empty(steps.shape)
    total[:, 0] = 0.0
    np.cumsum(steps[:, :-1], axis=1, out=total[:, 1:])
    total += start[:, None]
    return total


def overlaps_worth_summing(size: float, k: int) -> Floats:
    """The overlaps j >= 1 of two k-subsets of size samples worth summing, as expected_variance sums them."""
    low, high = _windows(np.array([float(size)]), k)
    overlaps: Floats = np.arange(low[0], high[0] + 1)
    return overlaps


@overload
def _log_comb(n: float, r: float) -> np.float64: ...
@overload
def _log_comb(n: Floats, r: float | Floats) -> Floats: ...
@overload
def _log_comb(n: float, r: Floats) -> Floats: ...
def _log_comb(n: float | Floats, r: float | Floats) -> Floats | np.float64:
    """log C(n, r) for float arrays, through betaln, which keeps its digits for n up to 10^12 and beyond."""
    log_comb: Floats | np.float64 = -np.log1p(n) - betaln(n - r + 1, r + 1)   # a numpy float for two numbers
    return log_comb


def log_overlap_chance(size: float | Floats, k: int, overlaps: Floats) -> Floats:
    """log H(j): the chance two random k-subsets of size samples share j of them."""
    return _log_comb(k, overlaps) + _log_comb(size - k, k - overlaps) - _log_comb(size, k)


def estimate_variance(num_samples: ArrayLike, num_correct: ArrayLike, k: int) -> Floats:
    """V = A(k)^2 - A(2k) per problem, A(j) = C(n-c, j)/C(n, j): unbiased for Var(pass@k estimate).

    Needs every n >= 2k. Written as A(k)^2 (1 - A(2k)/A(k)^2) so that nothing
    cancels; see _log_variance_ratio.
    """
    n, c = (np.asarray(v, dtype=float) for v in (num_samples, num_correct))
    variances = np.zeros(n.shape)
    # c = 0: both A are 1 and V = 0. n - c < k: both A are 0 and V = 0.
    live = (c > 0) & (n - c >= k)
    n, c = n[live], c[live]
    log_a_k = log_complement(n, c, k)
    log_ratio = np.full(n.shape, -np.inf)           # A(2k) = 0 when n - c < 2k: V = A(k)^2
    both = n - c >= 2 * k
    log_ratio[both] = _log_variance_ratio(n[both], c[both], k)
    # The ratio is <= 1 exactly; clip any rounding above it so V >= 0.
    variances[live] = np.exp(2 * log_a_k) * -np.expm1(np.minimum(log_ratio, 0.0))
    return variances


def _log_variance_ratio(n: Floats, c: Floats, k: int) -> Floats:
    """log(A(2k) / A(k)^2) for float arrays with 1 <= c and 2k <= n - c.

    With m = min(c, k), s = max(c, k) the ratio is the product over j < m of
    (n-k-s-j)(n-j) / ((n-k-j)(n-s-j)) = 1 - k s / ((n-k-j)(n-s-j)), summed as
    logs term by term for m <= VARIANCE_TERMS. Longer products take the
    difference of Stirling-series logs, which cancels down to about
    1e-16 n / k relative accuracy (measured: 4e-12 at n = 10^6, 3e-9 at
    10^9, 7e-6 at 10^12): plenty for an error bar, and O(1) per problem.
    """
    result = np.empty(n.shape)
    short = np.minimum(c, k) <= VARIANCE_TERMS
    if short.any():
        result[short] = _log_variance_ratio_by_terms(n[short], c[short], k)
    if (~short).any():
        long_n, long_c = n[~short], c[~short]
        result[~short] = log_complement(long_n, long_c, 2 * k) - 2 * log_complement(long_n, long_c, k)
    return result


def _log_variance_ratio_by_terms(n: Floats, c: Floats, k: int) -> Floats:
    """log(A(2k) / A(k)^2) as a sum of min(c, k) log terms, one vectorised step per term."""
    m, s = np.minimum(c, k), np.maximum(c, k)
    order = np.argsort(m, kind="stable")        # rows still summing at step j are then a suffix
    n, m, s = n[order], m[order], s[order]
    total = np.zeros(n.shape)
    for j in range(int(m[-1])):
        rows = slice(np.searchsorted(m, j, side="right"), None)
        shifted_k, shifted_s = n[rows] - k - j, n[rows] - s[rows] - j   # exact in float below 2**53
        denominator = shifted_k * shifted_s
        ratio = (shifted_s - k) * (n[rows] - j) / denominator            # in (0, 1]
        # log(r) is accurate when r is small, log1p(-x) when x = 1 - r is: pick per term.
        terms = np.log1p(-k * s[rows] / denominator)
        np.log(ratio, out=terms, where=ratio < 0.5)
        total[rows] += terms
    result = np.empty(n.shape)
    result[order] = total
    return result
