"""Hypothesis strategies for pass@k inputs: valid (n, c, k) and whole benchmarks.

Every count is drawn so that both ends of its range, and values close to them,
are as likely as the middle: c = 0, c = n, k = 1, k = n − c and their
neighbours are where the estimator branches, so that is where bugs hide.
"""

import numpy as np
from hypothesis import strategies as st

from passk.maths.estimator import MAX_N


def _spread(draw, low, high):
    """An integer in [low, high] whose distance from one end is log-uniform in magnitude."""
    if low >= high:
        return low
    span = high - low
    digits = draw(st.integers(0, len(str(span))))
    offset = draw(st.integers(0, min(span, 10**digits)))
    if draw(st.booleans()):
        return high - offset
    return low + offset


@st.composite
def counts(draw, max_n=3000):
    """A valid (n, c, k): 0 <= c <= n <= max_n and 1 <= k <= n."""
    n = _spread(draw, 1, max_n)
    return n, _spread(draw, 0, n), _spread(draw, 1, n)


@st.composite
def counts_with_short_product(draw, max_n=100_000, max_short=50):
    """A valid (n, c, k) with min(c, k) <= max_short, so exact fractions stay cheap for large n."""
    n = _spread(draw, 1, max_n)
    short = min(max_short, n)
    if draw(st.booleans()):
        return n, draw(st.integers(0, short)), _spread(draw, 1, n)
    return n, _spread(draw, 0, n), draw(st.integers(1, short))


def huge_counts():
    """A valid (n, c, k) with n anywhere up to MAX_N = 10**12."""
    return counts(max_n=MAX_N)


@st.composite
def benchmarks(draw, max_n=MAX_N, max_problems=60):
    """(num_samples, num_correct, k) as int64 arrays with every n_i >= k.

    Problems are drawn from a small pool of (n, c) pairs so that pairs repeat,
    as they do in real benchmarks (many problems at c = 0 or c = n).
    """
    pool_size = draw(st.integers(1, 8))
    samples = [_spread(draw, 1, max_n) for _ in range(pool_size)]
    pool = [(n, _spread(draw, 0, n)) for n in samples]
    problems = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_problems))
    k = _spread(draw, 1, min(n for n, _ in problems))
    num_samples = np.array([n for n, _ in problems], dtype=np.int64)
    num_correct = np.array([c for _, c in problems], dtype=np.int64)
    return num_samples, num_correct, k


@st.composite
def many_problems(draw, max_n=MAX_N, min_problems=48, max_problems=160):
    """(num_samples, num_correct, k) of many different (n, c) pairs (enough for passk's vectorised paths, which
    take 48 pairs and more), n spread over every scale up to max_n and c over every distance from its ends."""
    k = _spread(draw, 1, min(max_n, draw(st.sampled_from([10, 200, 5000, max_n]))))
    size = draw(st.integers(min_problems, max_problems))
    samples = [_spread(draw, k, max_n) for _ in range(size)]
    num_correct = np.array([_spread(draw, 0, n) for n in samples], dtype=np.int64)
    return np.array(samples, dtype=np.int64), num_correct, k
