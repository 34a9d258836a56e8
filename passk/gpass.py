"""G-Pass@k_tau and mG-Pass@k: how often at least a share tau of k drawn samples passes.

For one problem with ``n`` samples of which ``c`` passed, the passes X among
``k`` samples drawn without replacement follow the hypergeometric
distribution H(n, c, k), P(X = j) = C(c, j) C(n-c, k-j) / C(n, k). pass@k is
P(X >= 1), pass^k is P(X = k), and G-Pass@k_tau (Liu et al. 2024,
arXiv:2412.13147) is P(X >= ceil(tau k)): one family, all upper tails.

The tail is the exact probability given (n, c), so its mean over problems is
an unbiased estimate of the benchmark's G-Pass@k_tau, as pass@k's is. Up to
EXACT_TAIL_MAX_N samples it is summed in whole numbers and rounded once
(correctly rounded); above, in floats from the tail's far end, in log space,
by the ratio of successive terms, taking whichever tail is the smaller.
"""

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from passk.estimator import Floats, _log_complement_one, check_counts, checked_pairs

EXACT_TAIL_MAX_N = 10_000       # tails summed exactly (Python ints) up to this n: about 10 ms at n = 10**4
FLOAT_TAIL_MAX_TERMS = 1_000_000  # above EXACT_TAIL_MAX_N, a tail of more terms than this is refused
_RESCALE = 2.0 ** 600           # the float sum is divided by this whenever a term grows past it


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
    return 2 / k * _float_sum(n, c, k, start, weighted=True)


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
        return _float_sum(n, c, k, m)
    # 1 - P(X <= m - 1); X <= m - 1 is k - X >= k - m + 1 failures among the draws
    return 1.0 - _float_sum(n, n - c, k, k - m + 1)


def _exact_sum(n: int, c: int, k: int, start: int, stop: int, base: int | None = None) -> int:
    """sum_{j=start}^{stop} w_j C(c, j) C(n-c, k-j) in whole numbers, low <= start: w_j = 1, or j - base + 1."""
    term = math.comb(c, start) * math.comb(n - c, k - start)
    total = 0
    for j in range(start, stop + 1):
        total += term if base is None else (j - base + 1) * term
        if j < stop:   # C(c, j+1) C(n-c, k-j-1) from C(c, j) C(n-c, k-j): the division is exact
            term = term * (c - j) * (k - j) // ((j + 1) * (n - c - k + j + 1))
    return total


def _float_sum(n: int, c: int, k: int, m: int, weighted: bool = False) -> float:
    """sum_{j=m}^{top} w_j P(X = j), top = min(c, k), w_j = j - m + 1 if weighted else 1, in floats.

    Starts from P(X = top), a ratio C(a, b) / C(n, b) computed in log space
    (passk.estimator), and walks down by P(j-1)/P(j) = j (n-c-k+j) / ((c-j+1) (k-j+1)).
    Needs c < n and k < n (else the distribution is one point, handled by the caller).
    """
    top = min(c, k)
    if top - m + 1 > FLOAT_TAIL_MAX_TERMS:
        raise ValueError(f"G-Pass@k at n = {n:,} sums {top - m + 1:,} terms, more than {FLOAT_TAIL_MAX_TERMS:,}: "
                         f"choose a smaller k or tau further from the share of passes.")
    log_top = _log_complement_one(n, n - max(c, k), min(c, k))  # C(c, k)/C(n, k) or C(k, c)/C(n, c)
    term, total, log_scale, d = 1.0, 0.0, 0.0, n - c - k
    for j in range(top, m - 1, -1):
        total += (j - m + 1) * term if weighted else term
        if j > m:
            term *= (j / (c - j + 1)) * ((d + j) / (k - j + 1))
            if term > _RESCALE:
                term, total, log_scale = term / _RESCALE, total / _RESCALE, log_scale + math.log(_RESCALE)
    return math.exp(log_top + log_scale + math.log(total))


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
