"""A benchmark's mean pass@k and pass^k, and two runs' mean difference, are the doubles nearest the exact means
where passk.maths.means sums them exactly (every n up to LARGEST_N), and within a unit in the last place of them past it."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from passk.results.benchmark import compare, summarize
from passk.formats import Problem
from passk.limits import exact_work_within
from passk.maths.means import EXACT_BITS, LARGEST_N, exact_total


def exact_pass(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_hat(n, c, k):
    return Fraction(math.comb(c, k), math.comb(n, k))


def exact_mean(problems, k, value=exact_pass):
    return sum((value(p.n, p.c, k) for p in problems), Fraction(0)) / len(problems)


runs = st.lists(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))), min_size=1,
                max_size=30)


@settings(max_examples=200, deadline=None)
@given(runs, st.integers(1, 40))
def test_the_mean_pass_at_k_and_pass_hat_k_are_the_doubles_nearest_the_exact_means(counts, k):
    problems = [Problem(f"t{i}", n, c) for i, (n, c) in enumerate(counts)]
    row = summarize(problems, [k]).results[0]
    if min(n for n, _ in counts) < k:
        assert row.pass_at_k is None
        return
    assert row.pass_at_k == float(exact_mean(problems, k))
    assert row.pass_hat.pass_at_k == float(exact_mean(problems, k, exact_hat))


@settings(max_examples=150, deadline=None)
@given(runs, st.integers(1, 20), st.randoms(use_true_random=False))
def test_the_mean_difference_of_two_whole_runs_is_the_double_nearest_the_exact_one(counts, k, random):
    problems_a = [Problem(f"t{i}", n, c) for i, (n, c) in enumerate(counts)]
    problems_b = [Problem(f"t{i}", n, random.randint(0, n)) for i, (n, _) in enumerate(counts)]
    row = compare(problems_a, problems_b, [k]).results[0]
    if min(n for n, _ in counts) < k:
        assert row.difference is None
        return
    exact_a, exact_b = exact_mean(problems_a, k), exact_mean(problems_b, k)
    assert (row.a, row.b, row.difference) == (float(exact_a), float(exact_b), float(exact_a - exact_b))


def test_scorio_s_pass_hat_2_is_9_20_to_the_last_bit():
    """scorio's binary_ref gives pass^2 = 9/20; the mean of the rounded values was 0.44999999999999996."""
    problems = [Problem("a", 4, 3), Problem("b", 4, 3), Problem("c", 4, 1), Problem("d", 4, 4)]
    exact = exact_mean(problems, 2, exact_hat)
    assert summarize(problems, [2]).results[0].pass_hat.pass_at_k == float(exact)


@pytest.mark.parametrize("n, k, expected", [
    (LARGEST_N, 3, True), (LARGEST_N + 1, 3, False), (10, 11, False)])
def test_the_exact_route_is_taken_up_to_its_bounds(n, k, expected):
    samples, correct, weights = (np.array([n]), np.array([n // 3]), np.array([1]))
    total = exact_total(samples, correct, weights, k)
    assert (total is not None) is expected
    if expected:
        assert total == exact_pass(n, n // 3, k)


def test_too_many_bits_fall_back_to_the_mean_of_the_rounded_values_within_an_ulp():
    n = LARGEST_N
    pairs = EXACT_BITS // n + 1
    samples, correct, weights = np.full(pairs, n), np.arange(pairs), np.ones(pairs, dtype=np.int64)
    assert exact_total(samples, correct, weights, 5) is None
    problems = [Problem(f"t{c}", n, c) for c in range(pairs)]
    mean = summarize(problems, [5]).results[0].pass_at_k
    assert abs(Fraction(mean) - exact_mean(problems, 5)) <= Fraction(math.ulp(mean))


def test_a_request_whose_exact_work_cannot_afford_it_keeps_the_mean_of_the_rounded_values(monkeypatch):
    monkeypatch.setattr("passk.maths.means.MICROSECONDS_PER_N", 1e9)   # the exact sum priced past any request's budget
    problems = [Problem("a", 1000, 300), Problem("b", 1000, 1)]
    with exact_work_within():
        mean = summarize(problems, [500]).results[0].pass_at_k
    assert abs(Fraction(mean) - exact_mean(problems, 500)) <= Fraction(math.ulp(mean))
