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

import numpy as np
from scipy.special import betaln

from passk.estimator import log_complement

PRIOR_FLOOR = 0.1      # neither prior parameter below this: no problem's rate is taken to be exactly 0 or 1
SMALLEST_CORRELATION = 1e-6   # a + b at most 10^6: rates more alike than that change nothing below 10^6
                              # samples, and beta functions of larger arguments lose digits in their differences
OVERLAP_SIGMAS = 12    # overlaps j further than this many SDs from k^2/m are left out (their chance < 1e-30)
MAX_TERMS = 4_000_000  # overlap terms per k in all past SHARED_OVERLAPS; beyond, the unbiased estimate stands in
SHARED_OVERLAPS = 64   # up to this k every problem sums all k overlaps, vectorised
_CHUNK = 1 << 18       # matrix entries per vectorised step
VARIANCE_TERMS = 128   # the unbiased V_i is summed term by term up to this min(c, k), above it by Stirling;
                       # each term costs about 6 ns per distinct (n, c) and k, so this bounds a request's cost


def fit_prior(samples, correct):
    """Beta(a, b) for the problems' pass rates, fitted by moments to the c_i / n_i (each n_i >= 2).

    Var(c/n) = m (1 - m) [rho + (1 - rho) / n] for a beta-binomial with mean m
    and intra-problem correlation rho = 1 / (a + b + 1); averaged over the
    problems' n this gives rho, then a + b = 1/rho - 1. rho is kept at least
    SMALLEST_CORRELATION and both parameters at least PRIOR_FLOOR.
    """
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    rates = correct / samples
    mean = math.fsum(rates) / rates.size
    inverse = math.fsum(1 / samples) / samples.size
    spread = mean * (1 - mean)
    if rates.size < 2 or spread <= 0 or inverse >= 1:
        return PRIOR_FLOOR, PRIOR_FLOOR
    observed = float(np.var(rates, ddof=1)) / spread
    correlation = min(max((observed - inverse) / (1 - inverse), SMALLEST_CORRELATION), 1.0)
    total = 1 / correlation - 1
    return max(mean * total, PRIOR_FLOOR), max((1 - mean) * total, PRIOR_FLOOR)


def expected_variance(samples, correct, k, prior, at=None):
    """E[Var_m(p)] over each problem's posterior for its rate, m = max(n_i, at) samples; float arrays in, out.

    Problems are given by samples n_i and correct c_i (n_i >= 2k); prior is
    fit_prior's (a, b). Where the overlap sums would pass MAX_TERMS in all, the
    unbiased estimate A(k)^2 - A(2k) at n_i, times n_i / m, stands in for those
    problems (their n is then above 128, where it is accurate).
    """
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    drawn = samples if at is None else np.maximum(samples, float(at))
    a, b = correct + prior[0], samples - correct + prior[1]
    if k <= SHARED_OVERLAPS:   # every overlap 1..k for every problem: one matrix, in chunks
        overlaps = np.arange(1, k + 1, dtype=float)
        variances = np.empty(samples.shape)
        for start in range(0, samples.size, _CHUNK // (2 * k)):
            rows = slice(start, start + _CHUNK // (2 * k))
            weights = _log_overlap_chance(drawn[rows, None], k, overlaps[None, :])
            variances[rows] = _averaged_by_products(a[rows], b[rows], k, weights)
        return variances
    # Past the budget: the unbiased estimate at n_i, scaled by n_i / m as the variance of an estimate from m
    # samples falls (its leading term is k^2 zeta_1 / m); these problems have n_i > 2 SHARED_OVERLAPS.
    variances = estimate_variance(samples, correct, k) * (samples / drawn)
    budget = MAX_TERMS
    for size in np.unique(drawn):
        rows = np.flatnonzero(drawn == size)
        overlaps = _overlaps(size, k)
        if overlaps.size * rows.size > budget:
            break
        budget -= overlaps.size * rows.size
        weights = _log_overlap_chance(size, k, overlaps)[None, :]
        variances[rows] = _averaged(a[rows], b[rows], k, overlaps, weights)
    return variances


def _overlaps(size, k):
    """The overlaps j >= 1 of two k-subsets of size samples worth summing: all, or a window around k^2/size."""
    low, high = max(1.0, 2 * k - size), float(k)
    fraction = k / size
    spread = math.sqrt(k * fraction * (1 - fraction) * (size - k) / max(size - 1, 1))
    centre = k * fraction
    low = max(low, math.floor(centre - OVERLAP_SIGMAS * spread - 50))
    high = min(high, math.ceil(centre + OVERLAP_SIGMAS * spread + 50))
    return np.arange(low, high + 1)


def _log_comb(n, r):
    """log C(n, r) for float arrays, through betaln, which keeps its digits for n up to 10^12 and beyond."""
    return -np.log1p(n) - betaln(n - r + 1, r + 1)


def _log_overlap_chance(size, k, overlaps):
    """log H(j): the chance two random k-subsets of size samples share j of them."""
    return _log_comb(k, overlaps) + _log_comb(size - k, k - overlaps) - _log_comb(size, k)


def _averaged_by_products(a, b, k, log_weights):
    """_averaged for small k, with E[(1-p)^s] = prod_{i<s} (1 - a/(a+b+i)) summed as logs: every factor
    keeps its digits however large a + b grows, where differences of beta functions would lose them."""
    steps = np.log1p(-a[:, None] / (a[:, None] + b[:, None] + np.arange(2 * k)[None, :]))
    moments = np.concatenate([np.zeros((a.size, 1)), np.cumsum(steps, axis=1)], axis=1)   # log E[(1-p)^s]
    shorter = moments[:, 2 * k - 1:k - 1:-1]          # s = 2k - j for j = 1..k
    longest = moments[:, 2 * k:]
    terms = np.exp(log_weights + shorter) * -np.expm1(longest - shorter)
    return terms.sum(axis=1)


def _averaged(a, b, k, overlaps, log_weights):
    """sum_j H(j) E[(1-p)^(2k-j) - (1-p)^(2k)] for p ~ Beta(a, b), per row (log_weights: log H, rows x j)."""
    base = betaln(a, b)[:, None]
    shorter = betaln(a[:, None], b[:, None] + 2 * k - overlaps[None, :])
    longest = betaln(a, b + 2 * k)[:, None]
    terms = np.exp(log_weights + shorter - base) * -np.expm1(longest - shorter)
    return terms.sum(axis=1)


def estimate_variance(num_samples, num_correct, k):
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


def _log_variance_ratio(n, c, k):
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


def _log_variance_ratio_by_terms(n, c, k):
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
