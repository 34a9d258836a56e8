"""Benchmark: estimate_pass_at_k against the reference harness's per-problem loop.

Run from the repository root:

    .venv/bin/python bench/bench_estimator.py [--problems 100000] [--repeat 5]

Every speed-up is the ratio of two timings taken in this run on this machine
(best of several, so a busy moment does not count against either side). Every
value passk returns is the double nearest the exact one (issue 26): the
"not nearest" column counts, on a sample of each batch, the values that are
not (it must be 0; the reference's are counted beside). The script exits with
status 1 if a batch at n = 200 is under 150x the reference loop, or one
pass_at_k call with min(c, k) <= 10 (n = 200 and 10^6) under 2.5x the
reference product. It also times 100,000 different n near 10^12 against the
float log form passk used before (the reference loop would take minutes).
"""

import argparse
import itertools
import math
import os
import platform
import sys
import time
import timeit
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from passk.maths import nearest  # noqa: E402
from passk.maths.estimator import LONG_EXACT_BITS, estimate_pass_at_k, falling_ratio, log_complement, pass_at_k  # noqa: E402

REQUIRED_SPEED_UP = 150       # a batch at n = 200 against the reference loop
REQUIRED_SINGLE_RATIO = 2.5   # one pass_at_k call with a short product (min(c, k) <= 10) against the reference
SHORT = 10
CHECKED = 2000                # values of each batch checked against the exact fraction
SINGLE_CASES = [  # (n, c, k): the reference product has c factors, so small c is its best case
    (200, 37, 10),
    (200, 57, 10),
    (10**6, 37, 10),
    (10**6, 1000, 100),
    (10**12, 10**6, 10**6),
]
KS = (1, 10, 100)
HARD_CASES = [  # (n, c, k) where pass@k is tiny, so 1 - (a product near 1) loses digits
    (200, 1, 1),
    (100_000, 1, 1),
    (100_000, 1, 100),
    (100_000, 10, 10),
    (10**6, 1, 1),
    (10**9, 1, 1),
    (10**12, 1, 1),
]


def reference_estimator(n, c, k):
    """One problem, as the reference harness computes it: a product of c factors."""
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


def reference_estimate_pass_at_k(num_samples, num_correct, k):
    """The reference harness's estimate_pass_at_k: a Python loop over problems."""
    if isinstance(num_samples, int):
        samples = itertools.repeat(num_samples, len(num_correct))
    else:
        samples = iter(num_samples)
    return np.array([reference_estimator(int(n), int(c), k) for n, c in zip(samples, num_correct)])


def best_time(function, repeat):
    """The fastest of `repeat` runs of function(), in seconds, and its last result."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def realistic_correct(num_samples, rng):
    """c per problem: binomial at a per-problem pass rate drawn from Beta(1/2, 1/2).

    The U shape matches real benchmarks: many problems almost always or almost
    never solved, the rest spread between.
    """
    return rng.binomial(num_samples, rng.beta(0.5, 0.5, np.size(num_samples)))


def not_nearest(values, num_samples, num_correct, k):
    """How many of the first CHECKED values are not the double nearest the exact pass@k (int / int rounds once)."""
    count = 0
    samples = itertools.repeat(num_samples) if isinstance(num_samples, int) else num_samples
    for value, n, c in zip(values[:CHECKED], samples, num_correct[:CHECKED]):
        n, c = int(n), int(c)
        m, big = min(c, k), max(c, k)
        if c == 0 or n - c < k:
            exact = float(c > 0)
        else:
            whole, part = math.perm(n, m), math.perm(n - big, m)
            exact = (whole - part) / whole
        count += value != exact
    return count


def compare_on(label, num_samples, num_correct, repeat):
    """Print one row per k: both timings, the speed-up, the largest difference and the values not nearest."""
    print(f"\n{label}")
    print(f"{'k':>5} {'problems':>9} {'reference ms':>13} {'estimate ms':>12} {'speed-up':>9} {'max |diff|':>11}"
          f" {'not nearest (of ' + str(CHECKED) + ')':>22}")
    speed_ups = []
    for k in KS:
        usable = np.asarray(num_samples) >= k
        samples = num_samples if isinstance(num_samples, int) else num_samples[usable]
        correct = num_correct if isinstance(num_samples, int) else num_correct[usable]
        estimate_pass_at_k(samples, correct, k)  # warm up
        reference_seconds, reference = best_time(
            lambda: reference_estimate_pass_at_k(samples, correct, k), max(2, repeat // 2))
        estimate_seconds, ours = best_time(lambda: estimate_pass_at_k(samples, correct, k), repeat * 4)
        speed_up = reference_seconds / estimate_seconds
        speed_ups.append(speed_up)
        wrong = f"{not_nearest(ours, samples, correct, k)} ours, {not_nearest(reference, samples, correct, k)} ref"
        print(f"{k:>5} {len(correct):>9,} {reference_seconds * 1e3:>13.1f} {estimate_seconds * 1e3:>12.2f}"
              f" {speed_up:>8.0f}x {np.max(np.abs(reference - ours)):>11.1e} {wrong:>22}")
    return speed_ups


def huge_n(problems, repeat, rng):
    """100,000 different n near 10^12, c up to 10^6: passk against the float log form it used before."""
    print(f"\n{problems:,} problems, each its own n near 10^12, c up to 10^6 (every (n, c) different)")
    print(f"{'k':>5} {'float log form ms':>18} {'estimate ms':>12} {'ratio':>7}")
    samples = 10**12 - rng.integers(0, 10**6, problems)
    correct = rng.integers(1, 10**6, problems)
    for k in (10, 100, 1000):
        float_seconds, _ = best_time(lambda: -np.expm1(log_complement(samples, correct, k)), repeat)
        estimate_seconds, _ = best_time(lambda: estimate_pass_at_k(samples, correct, k), max(2, repeat // 2))
        print(f"{k:>5} {float_seconds * 1e3:>18.1f} {estimate_seconds * 1e3:>12.1f} "
              f"{estimate_seconds / float_seconds:>6.1f}x")


def scalar_latency():
    """Per-call time of pass_at_k, and of the reference product, for one problem; the smallest ratio at n <= 10**6
    where min(c, k) <= SHORT (a longer product costs passk exact integers or double-double: see docs)."""
    print("\nOne problem: time per call")
    print(f"{'n, c, k':>40} {'pass_at_k us':>13} {'reference us':>13} {'ratio':>7}")
    ratios = []
    for n, c, k in SINGLE_CASES:
        if n * 2 > nearest.TABLE_MAX and min(c, k) * n.bit_length() > LONG_EXACT_BITS:
            # the decimal way caches log-factorials (a pair's ks share them): time a first call, not a repeat
            ours = _per_call(lambda: (nearest._log_factorial.cache_clear(), pass_at_k(n, c, k)))
        else:
            ours = _per_call(lambda: pass_at_k(n, c, k))
        reference = _per_call(lambda: reference_estimator(n, c, k))
        if n <= 10**6 and min(c, k) <= SHORT:
            ratios.append(reference / ours)
        print(f"{f'{n:,}, {c:,}, {k:,}':>40} {ours * 1e6:>13.2f} {reference * 1e6:>13.1f} {reference / ours:>6.1f}x")
    return min(ratios)


def _per_call(function):
    """Best-of-5 seconds per call, each timing long enough (about 0.2 s) to be steady."""
    timer = timeit.Timer(function)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


def accuracy_on_hard_cases():
    """Relative error of each form against the exact Fraction, where pass@k is tiny."""
    print("\nAccuracy against the exact fraction (relative error; passk's is its rounding, at most 2^-53)")
    print(f"{'n, c, k':>22} {'exact':>10} {'pass_at_k':>10} {'falling ratio':>14} {'reference':>10}")
    for n, c, k in HARD_CASES:
        exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
        errors = [float(abs(Fraction(value) - exact) / exact)
                  for value in (pass_at_k(n, c, k), falling_ratio(n, c, k), reference_estimator(n, c, k))]
        print(f"{f'{n:,}, {c}, {k}':>22} {float(exact):>10.3e}" + "".join(
            f" {error:>{width}.1e}" for error, width in zip(errors, (10, 14, 10))))


def simd():
    """The SIMD features numpy dispatches to on this CPU (its baseline beyond them)."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:
        return "unknown"
    on = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
    return f"{' '.join(umath.__cpu_baseline__)} + {' '.join(on) or 'nothing'}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=100_000, help="problems per benchmark (100000)")
    parser.add_argument("--repeat", type=int, default=5, help="timings per measurement; the best counts (5)")
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    rng = np.random.default_rng(options.seed)

    print(f"passk estimator benchmark: Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, SIMD {simd()}")

    same_n = compare_on(f"{options.problems:,} problems, n = 200 for every problem",
                        200, realistic_correct(np.full(options.problems, 200), rng), options.repeat)
    varied_n = rng.integers(1, 5001, options.problems)
    compare_on(f"{options.problems:,} problems, n from 1 to 5,000 (only problems with n >= k count)",
               varied_n, realistic_correct(varied_n, rng), options.repeat)
    huge_n(options.problems, options.repeat, rng)
    single = scalar_latency()
    accuracy_on_hard_cases()

    slowest = min(same_n)
    verdict = "ok" if slowest >= REQUIRED_SPEED_UP else "TOO SLOW"
    print(f"\nSmallest speed-up at n = 200: {slowest:.0f}x (required {REQUIRED_SPEED_UP}x): {verdict}")
    verdict = "ok" if single >= REQUIRED_SINGLE_RATIO else "TOO SLOW"
    print(f"One call with min(c, k) <= {SHORT} against the reference product, n = 200 and 10^6: at least "
          f"{single:.1f}x (required {REQUIRED_SINGLE_RATIO}x): {verdict}")
    return 0 if slowest >= REQUIRED_SPEED_UP and single >= REQUIRED_SINGLE_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
