"""The estimator against exact arithmetic: exact integers, and mpmath at high precision for huge n.

The spec's bar (SPEC.md, "Numerics"): every point value (pass@k, pass^k, the
miss chance, the biased estimate; one problem and arrays) is the double nearest
the exact rational value, bit for bit, over the whole accepted range up to
n = 10^12; and the identities pass@1 = c/n, pass@k = 0 at c = 0, pass@k = 1 when
c > n - k, monotone in k and c. tests/passk/maths/test_cpu_features.py runs this file
again with numpy's wider SIMD paths switched off.
"""

import math
import re
from fractions import Fraction
from math import comb

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from passk.maths.estimator import (
                                   FALLING_RATIO_MAX_TERMS,
                                   MAX_N,
                                   _log_complement_one,
                                   _stirling_remainder,
                                   _stirling_remainder_one,
                                   distinct_pairs,
                                   agreeing_digits,
                                   biased_pass_at_k,
                                   estimate_pass_at_k,
                                   exact_pass_at_k,
                                   falling_ratio,
                                   log_complement,
                                   miss_chance,
                                   pass_at_k,
                                   pass_at_k_for_ks,
                                   pass_hat_k,
                                   readable_fraction,
                                   )
import oracles
from oracles import nearest, nearest_biased, nearest_miss, nearest_pass_at_k, nearest_pass_hat_k
from passk.maths import estimator, nearest as nearest_module
from passk.maths.estimator import _pass_hat_k_array
from strategies import benchmarks, counts, counts_with_short_product, huge_counts, many_problems

TOLERANCE = 1e-13     # the spec's relative-error bar
ORACLE_DIGITS = 60    # mpmath working precision for the huge-n oracle

# Exact arithmetic is slow next to the estimator, so no per-example deadline. The example
# database is on, as for every test (conftest.py): a failure found replays until fixed.
EXACT = settings(max_examples=300, deadline=None)
LARGE_EXACT = settings(max_examples=60, deadline=None)
HUGE = settings(max_examples=200, deadline=None)


# --- oracles ---------------------------------------------------------------


def exact_value(n, c, k):
    """pass@k = 1 - C(n-c, k)/C(n, k) as an exact Fraction, straight from the definition."""
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def exact_value_cheaply(n, c, k):
    """The same Fraction via C(n-c, k)/C(n, k) = C(n-k, c)/C(n, c), whichever binomials are smaller."""
    if c < k:
        return 1 - Fraction(comb(n - k, c), comb(n, c))
    return exact_value(n, c, k)


def mpmath_value(n, c, k):
    """pass@k to 60 digits as -expm1 of a sum of log-gamma values (fast for any n up to 10**12)."""
    with mpmath.workdps(ORACLE_DIGITS):
        if c == 0:
            return mpmath.mpf(0)
        if n - c < k:
            return mpmath.mpf(1)
        log_complement = (mpmath.loggamma(n - c + 1) - mpmath.loggamma(n - c - k + 1)
                          - mpmath.loggamma(n + 1) + mpmath.loggamma(n - k + 1))
        return -mpmath.expm1(log_complement)


def reference_pass_at_k(n, c, k):
    """The reference harness's product form, including its 1.0 for n - c < k (even when c = 0)."""
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


def relative_error(value, exact):
    """|value - exact| / |exact| without rounding; an exact zero demands exactly 0.0."""
    if exact == 0:
        return 0.0 if value == 0 else math.inf
    if isinstance(exact, Fraction):
        return float(abs((Fraction(value) - exact) / exact))
    with mpmath.workdps(ORACLE_DIGITS):
        return float(abs((mpmath.mpf(value) - exact) / exact))


# --- the spec's worked examples ----------------------------------------------


@pytest.mark.parametrize("n, c, k, exact, percent", [
    (10, 3, 1, Fraction(3, 10), "30.00%"),
    (10, 3, 5, Fraction(11, 12), "91.67%"),
    (5, 0, 1, Fraction(0), "0.00%"),
])
def test_worked_examples(n, c, k, exact, percent):
    value = pass_at_k(n, c, k)
    assert type(value) is float
    assert value == nearest(exact)
    assert f"{value:.2%}" == percent


def test_worked_example_of_two_problems_is_the_mean():
    per_problem = estimate_pass_at_k(10, [3, 0], 5)
    assert relative_error(float(per_problem.mean()), Fraction(11, 24)) <= TOLERANCE
    assert f"{per_problem.mean():.2%}" == "45.83%"


def test_reference_harness_says_one_for_k_above_n_where_we_refuse():
    assert reference_pass_at_k(3, 0, 5) == 1.0  # a silent, wrong 1.0 with nothing passing
    with pytest.raises(ValueError, match=r"k must be at most n \(3\)"):
        pass_at_k(3, 0, 5)
    with pytest.raises(ValueError, match="problem 0: k must be at most n"):
        estimate_pass_at_k(3, [0], 5)


# --- agreement with the exact value ------------------------------------------


@EXACT
@given(counts(max_n=3000))
def test_pass_at_k_is_the_double_nearest_the_exact_fraction(problem):
    n, c, k = problem
    assert pass_at_k(n, c, k) == nearest(exact_value(n, c, k))


@LARGE_EXACT
@given(counts_with_short_product(max_n=100_000, max_short=50))
def test_pass_at_k_is_the_double_nearest_the_exact_fraction_up_to_n_100000(problem):
    n, c, k = problem
    assert pass_at_k(n, c, k) == nearest(exact_value_cheaply(n, c, k))


@LARGE_EXACT
@given(counts_with_short_product(max_n=MAX_N, max_short=400))
def test_pass_at_k_is_the_double_nearest_the_exact_fraction_up_to_n_10_to_the_12(problem):
    n, c, k = problem
    assert pass_at_k(n, c, k) == nearest_pass_at_k(n, c, k)


@pytest.mark.parametrize("n, c, k", [
    (100_000, 1, 1), (100_000, 1, 2), (100_000, 2, 2), (10**6, 1, 1),
    (100_000, 10, 10), (2000, 32, 32), (2000, 33, 33),
    (66, 33, 33), (67, 33, 33),                           # k = n - c and k = n - c - 1
])
def test_tiny_and_boundary_results_are_the_nearest_doubles(n, c, k):
    assert pass_at_k(n, c, k) == nearest(exact_value(n, c, k))


def test_reference_product_loses_accuracy_on_tiny_results():
    """Why we do not use the reference form: 1 - (1 - 1e-5) keeps only 11 digits."""
    exact = Fraction(1, 100_000)
    assert pass_at_k(100_000, 1, 1) == nearest(exact)
    assert relative_error(reference_pass_at_k(100_000, 1, 1), exact) > TOLERANCE


# --- edges, each a table row: the nearest double, bit for bit --------------------------------

EDGES = [
    # (n, c, k): c = 0, c = n, n - c < k, k = 1 (c/n), c = 1 (k/n), k = n
    (1, 0, 1), (1, 1, 1), (10, 0, 10), (10, 10, 1), (10, 3, 8), (10, 3, 10), (10**12, 10**12, 10**12),
    (10**12, 0, 1), (10**12, 10**12 - 1, 2), (7, 3, 1), (10**12, 123_456_789, 1), (10**12, 1, 999_999),
    (10, 1, 10), (10, 9, 1),
    # the example: 5/6, whose nearest double is 0.8333333333333334
    (4, 2, 2),
    # exact doubles: 1/2, 3/4 and k/n at powers of two
    (4, 1, 2), (4, 2, 1), (8, 6, 1), (2**17, 1, 2**16), (2**39, 2**38, 1), (2**38, 1, 2**37), (2**39, 3 * 2**37, 2),
    # n at powers of two and the ends of the paths: exact integers, the factorial table (below 2**17),
    # falling products (up to 64 factors beyond), the decimal way
    (2**17 - 1, 5000, 3000), (2**17, 5000, 3000), (2**17, 64, 64), (2**17, 65, 65), (2**17 + 1, 700, 70),
    (10**12, 64, 64), (10**12, 65, 65), (10**12, 30, 30), (10**12, 31, 31), (10**12, 200, 200),
    (10**12, 201, 201), (10**12, 10**6, 10**6), (10**12, 10**6, 10**12 - 10**6), (10**12, 10**6, 10**12 - 10**6 - 1),
    (2**53 // 2**14, 3, 3), (3000, 1500, 1500), (3000, 1500, 1499), (4000, 2000, 5), (5000, 4999, 1),
    # tiny and near-one values, subnormal and vanishing miss chances
    (10**12, 2, 2), (10**12, 3, 2), (100, 50, 40), (2000, 1000, 1000), (1100, 550, 550),
    (10**12, 10**11, 10**5),
]


@pytest.mark.parametrize("n, c, k", EDGES)
def test_every_statistic_is_the_nearest_double_at_the_edges(n, c, k):
    assert pass_at_k(n, c, k) == nearest_pass_at_k(n, c, k)
    assert miss_chance(n, c, k) == nearest_miss(n, c, k)
    assert pass_hat_k(n, c, k) == nearest_pass_hat_k(n, c, k)
    assert biased_pass_at_k(n, c, k) == nearest_biased(n, c, k)
    assert estimate_pass_at_k([n] * 50, [c] * 49 + [0], k)[0] == pass_at_k(n, c, k)


def test_five_sixths_is_rounded_up_as_the_nearest_double_is():
    assert pass_at_k(4, 2, 2) == 0.8333333333333334 == nearest(Fraction(5, 6))
    assert estimate_pass_at_k(4, [2] * 100, 2).tolist() == [0.8333333333333334] * 100


# --- huge inputs against a 60-digit oracle -----------------------------------


@pytest.mark.parametrize("n, c, k", [(10, 3, 5), (3000, 1, 1), (3000, 1500, 700), (2000, 33, 1966)])
def test_mpmath_oracle_agrees_with_exact_fractions(n, c, k):
    exact = exact_value(n, c, k)
    with mpmath.workdps(ORACLE_DIGITS):
        exact_digits = mpmath.mpf(exact.numerator) / exact.denominator
        assert abs(mpmath_value(n, c, k) - exact_digits) <= mpmath.mpf(10) ** -40 * exact_digits


@pytest.mark.parametrize("n, c, k", [
    (10**12, 10**6, 10**6),
    (10**12, 1, 1),
    (10**12, 10**11, 10),
    (10**12, 10**5, 10**5),
    (10**12, 32, 10**6), (10**12, 33, 10**6),            # either side of the Stirling switch
    (10**12, 10**6, 10**12 - 10**6 - 1),                  # k = n - c - 1 (d = 1)
    (10**12, 10**6, 10**12 - 10**6),                      # k = n - c (d = 0)
    (10**12, 10, 10**12 - 11),
    (10**12, 1, 10**12 - 1),
    (10**12, 10**12 - 1, 1),                               # c near n
    (10**12, 10**12 - 10**6, 10**5),
    (10**12, 5 * 10**11, 2), (10**12, 2, 5 * 10**11),
    (999_999_999_989, 12_345, 67_890),
])
def test_huge_inputs_are_the_nearest_doubles(n, c, k):
    assert pass_at_k(n, c, k) == nearest_pass_at_k(n, c, k)
    assert miss_chance(n, c, k) == nearest_miss(n, c, k)
    assert pass_hat_k(n, c, k) == nearest_pass_hat_k(n, c, k)


@HUGE
@given(huge_counts())
def test_pass_at_k_is_the_nearest_double_up_to_n_10_to_the_12(problem):
    n, c, k = problem
    assert pass_at_k(n, c, k) == nearest_pass_at_k(n, c, k)


# --- identities ----------------------------------------------------------------


@HUGE
@given(huge_counts())
def test_pass_at_1_is_c_over_n(problem):
    n, c, _ = problem
    assert pass_at_k(n, c, 1) == c / n


@HUGE
@given(huge_counts())
def test_pass_at_k_is_zero_when_no_sample_passed(problem):
    n, _, k = problem
    assert pass_at_k(n, 0, k) == 0.0


@HUGE
@given(huge_counts())
def test_pass_at_k_is_exactly_one_when_c_exceeds_n_minus_k(problem):
    n, c, k = problem
    c = n - k + 1 + c % k  # every c in (n - k, n]: some pass is in every k-subset
    assert pass_at_k(n, c, k) == 1.0


@HUGE
@given(huge_counts())
def test_pass_at_k_is_non_decreasing_in_k(problem):
    n, c, k = problem
    assume(k < n)
    assert pass_at_k(n, c, k) <= pass_at_k(n, c, k + 1)


@HUGE
@given(huge_counts())
def test_pass_at_k_is_non_decreasing_in_c(problem):
    n, c, k = problem
    assume(c < n)
    assert pass_at_k(n, c, k) <= pass_at_k(n, c + 1, k)


def test_pass_at_k_is_non_decreasing_on_the_whole_grid_for_n_200():
    grid = np.array([estimate_pass_at_k(200, np.arange(201), k) for k in range(1, 201)])
    assert (np.diff(grid, axis=0) >= 0).all()  # along k
    assert (np.diff(grid, axis=1) >= 0).all()  # along c


# --- the three forms agree -------------------------------------------------------


@EXACT
@given(counts(max_n=3000))
def test_log_space_falling_ratio_and_reference_product_agree(problem):
    n, c, k = problem
    value = pass_at_k(n, c, k)
    exact_branch = c == 0 or n - c < k  # all three return exactly 0.0 or 1.0 there
    for other in (falling_ratio(n, c, k), reference_pass_at_k(n, c, k)):
        assert other == value if exact_branch else abs(other - value) <= 1e-9 * value


def test_falling_ratio_agrees_at_the_longest_product_it_takes():
    n, c, k = 10**12, 10**6, FALLING_RATIO_MAX_TERMS
    assert abs(falling_ratio(n, c, k) - pass_at_k(n, c, k)) <= 1e-9 * pass_at_k(n, c, k)


def test_falling_ratio_declines_longer_products():
    longer = FALLING_RATIO_MAX_TERMS + 1
    assert falling_ratio(10**12, longer, longer) is None
    assert falling_ratio(10**12, 0, longer) == 0.0
    assert falling_ratio(10**12, 10**12 - 1, longer) == 1.0


# --- one problem in plain Python, many with numpy: the same forms ------------------------


@HUGE
@given(huge_counts())
def test_one_problem_in_plain_python_agrees_with_the_array_form(problem):
    """pass_at_k and miss_chance sum the terms without numpy; estimate_pass_at_k uses log_complement."""
    n, c, k = problem
    assume(c > 0 and n - c >= k)
    one, array = _log_complement_one(n, c, k), log_complement(n, c, k)[0]
    assert abs(one - array) <= 1e-15 * abs(array)


def mpmath_log_complement(n, c, k):
    """log C(n-c, k)/C(n, k) to 60 digits."""
    with mpmath.workdps(ORACLE_DIGITS):
        return (mpmath.loggamma(n - c + 1) - mpmath.loggamma(n - c - k + 1)
                - mpmath.loggamma(n + 1) + mpmath.loggamma(n - k + 1))


@pytest.mark.parametrize("n, c, k", [
    (10, 3, 4), (200, 57, 10), (200, 57, 32), (200, 57, 33),   # the short sum, and Stirling just past it
    (66, 33, 33), (67, 33, 33), (80, 40, 40),                   # Stirling with d = 0, 1 and s(d) below 20
    (10**12, 32, 32), (10**12, 33, 33), (10**12, 10**6, 10**6), (10**6, 185_000, 10),
])
def test_one_problem_in_plain_python_at_the_switches(n, c, k):
    exact = mpmath_log_complement(n, c, k)
    with mpmath.workdps(ORACLE_DIGITS):
        assert abs((_log_complement_one(n, c, k) - exact) / exact) <= 1e-15
    assert pass_at_k(n, c, k) == nearest_pass_at_k(n, c, k)


def test_stirling_remainder_of_one_number_is_the_array_ones():
    xs = [1, 2, 19, 20, 21, 100, 10**6, 10**12]
    np.testing.assert_allclose([_stirling_remainder_one(x) for x in xs], _stirling_remainder(xs), rtol=1e-14)


@EXACT
@given(counts(max_n=3000))
def test_miss_chance_is_the_double_nearest_the_exact_fraction(problem):
    """Subnormal and vanishing values included: the nearest double of 1e-320 is a subnormal, of 1e-400 zero."""
    n, c, k = problem
    assert miss_chance(n, c, k) == nearest(Fraction(comb(n - c, k), comb(n, k)))


# --- pass@k for several k at once ---------------------------------------------------------


@HUGE
@given(huge_counts())
def test_pass_at_k_for_ks_draws_pass_at_k_per_k(problem):
    """The chart's curve: from the float log of the complement, within its stated 1e-15 relative of the
    correctly rounded values (it is drawn, not printed)."""
    n, c, k = problem
    ks = sorted({1, k, max(1, k // 2), min(n, 2 * k), n})
    together = pass_at_k_for_ks(n, c, ks)
    one_by_one = [pass_at_k(n, c, each) for each in ks]
    np.testing.assert_allclose(together, one_by_one, rtol=1e-15, atol=0)
    assert (np.diff(together) >= 0).all()


def test_pass_at_k_for_ks_of_the_worked_example():
    together = pass_at_k_for_ks(10, 3, [1, 5, 8, 10])
    assert together.tolist() == [pass_at_k(10, 3, 1), pass_at_k(10, 3, 5), 1.0, 1.0]


@pytest.mark.parametrize("ks, message", [
    ([1, 11], "k must be at most n (10)"),
    ([0, 5], "k must be at least 1"),
])
def test_pass_at_k_for_ks_refuses_any_k_out_of_range(ks, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        pass_at_k_for_ks(10, 3, ks)


@pytest.mark.parametrize("ks", [[2.5, 5], [True, 5], np.array([True, False]), np.array([2.0, 5.0])])
def test_pass_at_k_for_ks_refuses_ks_that_are_not_whole_numbers(ks):
    with pytest.raises(TypeError):
        pass_at_k_for_ks(10, 3, ks)


# --- estimate_pass_at_k ------------------------------------------------------------


def test_estimate_with_one_n_for_all_problems():
    per_problem = estimate_pass_at_k(10, [3, 0, 10], 5)
    assert isinstance(per_problem, np.ndarray) and per_problem.dtype == np.float64
    assert per_problem.tolist() == [pass_at_k(10, 3, 5), 0.0, 1.0]


@settings(max_examples=150, deadline=None)
@given(benchmarks(max_n=MAX_N))
def test_estimate_equals_pass_at_k_per_problem(benchmark):
    num_samples, num_correct, k = benchmark
    per_problem = estimate_pass_at_k(num_samples, num_correct, k)
    one_by_one = np.array([pass_at_k(int(n), int(c), k) for n, c in zip(num_samples, num_correct)])
    assert isinstance(per_problem, np.ndarray) and per_problem.dtype == np.float64
    assert per_problem.shape == num_correct.shape
    assert per_problem.tolist() == one_by_one.tolist()


@settings(max_examples=30, deadline=None)
@given(many_problems())
def test_arrays_of_many_different_pairs_are_the_nearest_doubles(benchmark):
    """Enough different (n, c) pairs for the vectorised paths (exact float products, the factorial table,
    falling products), n over every scale to 10^12: pass@k and pass^k, each problem bit for bit."""
    num_samples, num_correct, k = benchmark
    problems = list(zip(num_samples.tolist(), num_correct.tolist()))
    assert estimate_pass_at_k(num_samples, num_correct, k).tolist() == \
        [nearest_pass_at_k(n, c, k) for n, c in problems]
    assert _pass_hat_k_array(num_samples, num_correct, k).tolist() == \
        [nearest_pass_hat_k(n, c, k) for n, c in problems]


def _benchmark_of(low, high, problems=3000, seed=0):
    """Problems with n log-uniform in [low, high] and c binomial at a Beta(1/2, 1/2) pass rate."""
    rng = np.random.default_rng(seed)
    num_samples = np.exp(rng.uniform(math.log(low), math.log(high), problems)).astype(np.int64)
    num_correct = rng.binomial(num_samples, rng.beta(0.5, 0.5, problems))
    return num_samples, num_correct


@pytest.mark.parametrize("low, high", [(200, 200), (10, 10**9), (10, 10**12)],
                         ids=["counting-grid", "packed-sort", "pair-sort"])
def testdistinct_pairs_rebuild_every_problem(low, high):
    num_samples, num_correct = _benchmark_of(low, high)
    pairs, where = distinct_pairs(num_samples, num_correct)
    assert len({tuple(pair) for pair in pairs.tolist()}) == len(pairs)
    assert (pairs[where] == np.stack([num_samples, num_correct], axis=1)).all()


@pytest.mark.parametrize("high", [5000, 10**9, 10**12])
@pytest.mark.parametrize("k", [1, 10])
def test_estimate_over_wide_ranges_of_n_equals_pass_at_k(high, k):
    num_samples, num_correct = _benchmark_of(10, high, problems=400, seed=k)
    per_problem = estimate_pass_at_k(num_samples, num_correct, k)
    assert per_problem.tolist() == [nearest_pass_at_k(int(n), int(c), k) for n, c in zip(num_samples, num_correct)]


@pytest.mark.parametrize("num_samples", [10, np.array([], dtype=np.int64)])
def test_estimate_of_no_problems_is_an_empty_float_array(num_samples):
    per_problem = estimate_pass_at_k(num_samples, np.array([], dtype=np.int64), 3)
    assert isinstance(per_problem, np.ndarray) and per_problem.dtype == np.float64
    assert per_problem.shape == (0,)


def test_estimate_of_an_empty_list_is_an_empty_float_array():
    assert estimate_pass_at_k(10, [], 3).shape == (0,)


@pytest.mark.parametrize("num_samples, num_correct, k, error, message", [
    ([10, 10, 5], [3, 11, 1], 1, ValueError, "problem 1: c must be from 0 to n (10); got 11."),
    ([10, 10, 10], [1, 2, -1], 1, ValueError, "problem 2: c must be from 0 to n (10); got -1."),
    (5, [1, 6], 2, ValueError, "problem 1: c must be from 0 to n (5); got 6."),
    ([10, 3], [1, 1], 5, ValueError, "problem 1: k must be at most n (3)"),
    ([10, 0], [1, 0], 1, ValueError, "problem 1: n must be from 1 to 1,000,000,000,000 samples; got 0."),
    ([10, 10**12 + 1], [1, 1], 1, ValueError, "problem 1: n must be from 1 to 1,000,000,000,000 samples; "
                                              "got 1,000,000,000,001."),
    (10, [1, 2], 0, ValueError, "problem 0: k must be at least 1; got 0."),
    ([10, 10], [1, 2, 3], 1, ValueError, "num_samples has 2 entries but num_correct has 3."),
    ([10.5], [1], 1, TypeError, "num_samples must hold whole numbers; got dtype float64."),
    (10, [0.5], 1, TypeError, "num_correct must hold whole numbers; got dtype float64."),
    (10, [True], 1, TypeError, "num_correct must hold whole numbers; got dtype bool."),
    (10, [1], 2.0, TypeError, "k must be a whole number (int); got 2.0."),
    (10, [1], True, TypeError, "k must be a whole number (int); got True."),
])
def test_invalid_benchmarks_are_refused_naming_the_problem(num_samples, num_correct, k, error, message):
    with pytest.raises(error) as raised:
        estimate_pass_at_k(num_samples, num_correct, k)
    assert message in str(raised.value)


# --- pass^k and the biased estimate ------------------------------------------------


def exact_pass_hat_k(n, c, k):
    """pass^k = C(c, k)/C(n, k) as an exact Fraction."""
    return Fraction(comb(c, k), comb(n, k))


@EXACT
@given(counts(max_n=3000))
def test_pass_hat_k_is_the_double_nearest_the_exact_fraction(problem):
    """Subnormal and vanishing values included."""
    n, c, k = problem
    assert pass_hat_k(n, c, k) == nearest(exact_pass_hat_k(n, c, k))


@EXACT
@given(st.integers(10**6, 10**12), st.integers(33, 5_000), st.integers(33, 120))
def test_pass_hat_k_of_a_few_passes_among_very_many_samples_keeps_its_digits(n, c, k):
    """C(c, k)/C(n, k) with c far below n (once an error of 2.3e-7 relative at n = 170,499,035,389, c = 703,
    k = 36 in the float log form): the nearest double, one problem and in an array."""
    assume(k <= c)
    expected = nearest_pass_hat_k(n, c, k)
    assert pass_hat_k(n, c, k) == expected
    assert _pass_hat_k_array(np.full(60, n), np.arange(c, c + 60), k)[0] == expected


@pytest.mark.parametrize("n, c, k", [(67, 33, 33), (100, 40, 40), (120, 33, 33)])
def test_pass_hat_k_when_every_pass_is_drawn(n, c, k):
    assert pass_hat_k(n, c, k) == nearest(exact_pass_hat_k(n, c, k))


@pytest.mark.parametrize("n, c, k", [(2761, 2416, 2202), (639_882, 7684, 130), (1100, 550, 550), (3000, 1500, 1500)])
def test_pass_hat_k_near_underflow_is_the_nearest_double(n, c, k):
    """Near 1e-290, among the subnormals (about 1e-320) and below them (0.0)."""
    assert pass_hat_k(n, c, k) == nearest(exact_pass_hat_k(n, c, k))


@HUGE
@given(huge_counts())
def test_pass_hat_k_edges_and_bounds(problem):
    n, c, k = problem
    value = pass_hat_k(n, c, k)
    if c < k:
        assert value == 0.0
    if c == n:
        assert value == 1.0
    # All k pass is rarer than any of k passes (equal at k = 1): rounding to nearest keeps the order.
    assert value <= pass_at_k(n, c, k)
    assert pass_hat_k(n, c, 1) == c / n


@EXACT
@given(counts(max_n=3000))
def test_biased_pass_at_k_is_one_minus_miss_rate_to_the_k(problem):
    n, c, k = problem
    assert biased_pass_at_k(n, c, k) == nearest(1 - (1 - Fraction(c, n)) ** k)


@HUGE
@given(huge_counts())
def test_biased_pass_at_k_is_the_nearest_double_up_to_n_10_to_the_12(problem):
    n, c, k = problem
    assert biased_pass_at_k(n, c, k) == nearest_biased(n, c, k)


@HUGE
@given(huge_counts())
def test_biased_pass_at_k_is_biased_low(problem):
    n, c, k = problem
    biased, unbiased = biased_pass_at_k(n, c, k), pass_at_k(n, c, k)
    assert biased <= unbiased   # equal at k = 1; rounding to nearest keeps the order


@EXACT
@given(counts(max_n=3000))
def test_biased_pass_at_k_is_strictly_lower_when_the_gap_exceeds_rounding(problem):
    n, c, k = problem
    unbiased, biased = exact_value(n, c, k), 1 - (1 - Fraction(c, n)) ** k
    assume(unbiased - biased > 1e-12 * unbiased)  # near 1.0 both may round to the same float
    assert biased_pass_at_k(n, c, k) < pass_at_k(n, c, k)


# --- the exact fraction and agreeing digits ------------------------------------------


@EXACT
@given(counts(max_n=2000))
def test_exact_pass_at_k_is_the_exact_fraction(problem):
    assert exact_pass_at_k(*problem) == exact_value(*problem)


@pytest.mark.parametrize("n, c, k, shown", [
    (10, 3, 5, "11/12"),
    (10, 3, 1, "3/10"),
    (5, 0, 1, "0/1"),
    (10, 10, 5, "1/1"),
    (2000, 1, 1, "1/2000"),
    (2000, 1000, 100, None),  # the reduced denominator is far longer than 12 digits
    (2001, 1, 1, None),       # above the size where an exact fraction is computed
    (10**12, 1, 1, None),
])
def test_readable_fraction(n, c, k, shown):
    assert readable_fraction(exact_pass_at_k(n, c, k)) == shown


@pytest.mark.parametrize("value, shown", [
    (None, None),
    (Fraction(1, 10**11), "1/100000000000"),   # 12 digits: shown
    (Fraction(1, 10**12), None),               # 13 digits: not
])
def test_readable_fraction_limits_the_denominator(value, shown):
    assert readable_fraction(value) == shown


@pytest.mark.parametrize("a, b, digits", [
    (0.9166666666666666, 0.9166666666666666, 16),
    (0.0, 0.0, 16),
    (1.0, math.nextafter(1.0, 2.0), 15),
    (1234.5, 1234.0, 3),
    (0.5, 0.25, 0),
    (1.0, -1.0, 0),
    (None, 0.5, None),
    (0.5, None, None),
])
def test_agreeing_digits(a, b, digits):
    assert agreeing_digits(a, b) == digits


def test_cross_check_agrees_to_at_least_14_digits_on_the_worked_example():
    assert agreeing_digits(pass_at_k(10, 3, 5), falling_ratio(10, 3, 5)) >= 14


# --- invalid input ------------------------------------------------------------------------


INVALID = [
    # (n, c, k), exception, fragments the message must contain (the value and what is allowed)
    ((10, 11, 1), ValueError, ["c must be from 0 to n (10)", "got 11"]),
    ((10, 3, 11), ValueError, ["k must be at most n (10)", "got k = 11"]),
    ((10, 3, 0), ValueError, ["k must be at least 1", "got 0"]),
    ((10, 3, -2), ValueError, ["k must be at least 1", "got -2"]),
    ((10, -1, 1), ValueError, ["c must be from 0 to n (10)", "got -1"]),
    ((-5, 0, 1), ValueError, ["n must be from 1 to 1,000,000,000,000", "got -5"]),
    ((0, 0, 1), ValueError, ["n must be from 1 to 1,000,000,000,000", "got 0"]),
    ((10**12 + 1, 0, 1), ValueError, ["n must be from 1 to 1,000,000,000,000", "got 1,000,000,000,001"]),
    ((3.0, 1, 1), TypeError, ["n must be a whole number", "got 3.0 of type float"]),
    ((10, 3.5, 1), TypeError, ["c must be a whole number", "got 3.5 of type float"]),
    ((10, 3, 3.0), TypeError, ["k must be a whole number", "got 3.0 of type float"]),
    ((True, 0, 1), TypeError, ["n must be a whole number", "got True of type bool"]),
    ((10, 3, True), TypeError, ["k must be a whole number", "got True of type bool"]),
    (("10", 3, 1), TypeError, ["n must be a whole number", "got '10' of type str"]),
    ((10, None, 1), TypeError, ["c must be a whole number", "got None of type NoneType"]),
]


@pytest.mark.parametrize("function", [pass_at_k, pass_hat_k, biased_pass_at_k, falling_ratio,
                                      exact_pass_at_k])
@pytest.mark.parametrize("arguments, error, fragments", INVALID,
                         ids=[repr(arguments) for arguments, _, _ in INVALID])
def test_invalid_input_is_refused_with_a_clear_message(function, arguments, error, fragments):
    with pytest.raises(error) as raised:
        function(*arguments)
    for fragment in fragments:
        assert fragment in str(raised.value)


def test_numpy_integers_are_whole_numbers():
    assert pass_at_k(np.int64(10), np.int32(3), np.uint8(5)) == pass_at_k(10, 3, 5)


@given(huge_counts())
def test_pass_at_1_is_exactly_the_division_c_over_n(problem):
    n, c, _ = problem
    assert pass_at_k(n, c, 1) == c / n
    assert estimate_pass_at_k(np.array([n]), np.array([c]), 1)[0] == c / n


@given(huge_counts())
def test_one_pass_gives_exactly_k_over_n(problem):
    n, _, k = problem
    assert pass_at_k(n, 1, k) == (k / n if n - 1 >= k else 1.0)


def test_biased_estimate_of_nothing_passing_is_plus_zero():
    assert math.copysign(1, biased_pass_at_k(5, 0, 1)) == 1


def test_estimate_accepts_whole_floats_as_the_harness_passes_them():
    assert estimate_pass_at_k(200.0, np.array([3.0, 0.0]), 1).tolist() == [3 / 200, 0.0]
    with pytest.raises(TypeError):
        estimate_pass_at_k(10, np.array([2.5]), 1)
    with pytest.raises(ValueError, match="above the largest n"):
        estimate_pass_at_k(2**63, [1], 1)


# --- each route alone gives the nearest double ------------------------------------------------------------
# The thresholds pick the cheapest route that applies; here each is forced for every input it can take, so a
# wrong bound or a wrong rounding in any one of them shows, not only where it is usually taken.

SCALAR_ROUTES = {
    "exact integers": {(estimator, "EXACT_BITS"): 10**12},
    "factorial table": {(estimator, "EXACT_BITS"): 0},
    "decimal": {(estimator, "EXACT_BITS"): 0, (estimator, "LONG_EXACT_BITS"): 0, (nearest_module, "TABLE_MAX"): 0},
    "exact integers after the decimal way gives up": {
        (estimator, "EXACT_BITS"): 0, (estimator, "LONG_EXACT_BITS"): 0, (nearest_module, "TABLE_MAX"): 0,
        (nearest_module, "MOST_DIGITS"): 0},
}
ARRAY_ROUTES = {
    "every pair vectorised": {(estimator, "VECTOR_PROBLEMS"): 0},
    "the factorial table without exact float products": {(estimator, "VECTOR_PROBLEMS"): 0,
                                                          (estimator, "EXACT_FLOAT_TERMS"): 0},
    "falling products at every n": {(estimator, "VECTOR_PROBLEMS"): 0, (estimator, "EXACT_FLOAT_TERMS"): 0,
                                    (nearest_module, "TABLE_MAX"): 0, (estimator, "FALLING_TERMS"): 400},
    "Stirling's form in double-double at every n": {(estimator, "VECTOR_PROBLEMS"): 0,
                                                     (estimator, "EXACT_FLOAT_TERMS"): 0,
                                                     (nearest_module, "TABLE_MAX"): 0, (estimator, "FALLING_TERMS"): 0},
    "nothing settles: one at a time": {(estimator, "VECTOR_PROBLEMS"): 0,
                                       (nearest_module, "settled"): lambda h, l, bound: np.zeros(h.shape, bool)},
}


def forced(route):
    """A context in which the route's thresholds are set."""
    patch = pytest.MonkeyPatch()
    for (module, name), value in route.items():
        patch.setattr(module, name, value)
    return patch


@pytest.mark.parametrize("route", SCALAR_ROUTES)
@settings(max_examples=60, deadline=None)
@given(problem=counts(max_n=3000))
def test_each_scalar_route_alone_gives_the_nearest_double(route, problem):
    n, c, k = problem
    patch = forced(SCALAR_ROUTES[route])
    try:
        values = pass_at_k(n, c, k), miss_chance(n, c, k), pass_hat_k(n, c, k)
    finally:
        patch.undo()
    assert values == (nearest_pass_at_k(n, c, k), nearest_miss(n, c, k), nearest_pass_hat_k(n, c, k))


@pytest.mark.parametrize("route", ["decimal", "exact integers after the decimal way gives up"])
@settings(max_examples=30, deadline=None)
@given(problem=counts_with_short_product(max_n=MAX_N, max_short=300))
def test_the_decimal_route_gives_the_nearest_double_up_to_n_10_to_the_12(route, problem):
    n, c, k = problem
    patch = forced(SCALAR_ROUTES[route])
    try:
        values = pass_at_k(n, c, k), pass_hat_k(n, c, k)
    finally:
        patch.undo()
    assert values == (nearest_pass_at_k(n, c, k), nearest_pass_hat_k(n, c, k))


@pytest.mark.parametrize("route", ARRAY_ROUTES)
@settings(max_examples=25, deadline=None)
@given(benchmark=many_problems(max_n=MAX_N, min_problems=1, max_problems=60))
def test_each_array_route_alone_gives_the_nearest_doubles(route, benchmark):
    num_samples, num_correct, k = benchmark
    problems = list(zip(num_samples.tolist(), num_correct.tolist()))
    patch = forced(ARRAY_ROUTES[route])
    try:
        found = estimate_pass_at_k(num_samples, num_correct, k), _pass_hat_k_array(num_samples, num_correct, k)
    finally:
        patch.undo()
    assert found[0].tolist() == [nearest_pass_at_k(n, c, k) for n, c in problems]
    assert found[1].tolist() == [nearest_pass_hat_k(n, c, k) for n, c in problems]


def _pass_hat_k_near(n, k, power):
    """The c whose pass^k = C(c, k)/C(n, k) is nearest 2**-power from above (by lgamma: near enough)."""
    def log2_value(c):
        return (math.lgamma(c + 1) - math.lgamma(c - k + 1) - math.lgamma(n + 1) + math.lgamma(n - k + 1)) / math.log(2)
    low, high = k, n
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if log2_value(middle) < -power else (low, middle)
    return high


# pass^k from 2**-960 down to 2**-1078 (the last few 0.0): 60 pairs, enough for the arrays' vectorised ways
DRAWN = (2_500, 5_000, 15_000, 40_000)
NEAR_SUBNORMAL = [(99_000 + 37 * i, _pass_hat_k_near(99_000 + 37 * i, DRAWN[i % 4], 960 + 2 * i), DRAWN[i % 4])
                  for i in range(60)]
# n near 10^12, 500 to 1,267 failures, k picked so that pass^k = C(n - f, k)/C(n, k) ~ (1 - k/n)^f ~ 2**-(960 + 2i):
# Stirling's form in double-double (more than FALLING_TERMS failures and drawn samples, n past the table)
FAR_SUBNORMAL = [(10**12 - 7919 * i, 10**12 - 7919 * i - (500 + 13 * i),
                  int(-math.expm1(-(960 + 2 * i) * math.log(2) / (500 + 13 * i)) * (10**12 - 7919 * i)))
                 for i in range(60)]


@pytest.mark.parametrize("pairs", [NEAR_SUBNORMAL, FAR_SUBNORMAL], ids=["factorial table", "Stirling"])
def test_pass_hat_k_among_the_subnormals_settles_in_the_arrays(pairs, monkeypatch):
    """pass^k between 2**-1080 and 2**-960 (a share link at large k): each the double nearest the exact fraction
    (Python's int / int rounds once, into the subnormals too), and none left to _miss_one one at a time, where
    each took decimal arithmetic (440 us a pair near n = 10^5)."""
    n, c, k = (np.array(column, dtype=np.int64) for column in zip(*pairs))
    left = []
    one_at_a_time = estimator._miss_one
    monkeypatch.setattr(estimator, "_miss_one", lambda *pair: left.append(pair) or one_at_a_time(*pair))
    found = _pass_hat_k_array(n, c, k)
    assert left == []
    expected = []
    for whole, passed, drawn in pairs:   # C(c, k)/C(n, k) = perm(n - k, f)/perm(n, f) with f = n - c failures
        failed = whole - passed
        short, long = min(failed, drawn), max(failed, drawn)
        expected.append(math.perm(whole - long, short) / math.perm(whole, short))
    assert found.tolist() == expected
    assert sum(2.0**-1080 < value < 2.0**-1022 for value in expected) >= 20   # subnormals among them
    assert sum(2.0**-1022 <= value < 2.0**-968 for value in expected) >= 20   # and normals below 2**-968
