"""G-Pass@k_tau and mG-Pass@k against every k-subset counted (exact Fractions) and the hypergeometric's pmf.

The bar: correctly rounded at every n, the double nearest the Fraction sum of
pmfs bit for bit: summed in whole numbers up to EXACT_TAIL_MAX_N samples, in
double-double with a proven bound above (each route forced alone below).
"""

import math
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import passk.maths.gpass as gpass
from oracles import hypergeometric_terms, nearest, nearest_mpf
from passk.maths import nearest as nearest_module
from passk.__main__ import main
from passk.maths.estimator import pass_at_k, pass_hat_k
from passk.maths.gpass import (at_least, estimate_g_pass_at_k, estimate_mg_pass_at_k, g_pass_at_k, mg_pass_at_k,
                               threshold)


def enumerated(n: int, c: int, k: int, m: int) -> Fraction:
    """P(at least m of k drawn pass), counting every k-subset of n samples whose first c pass."""
    draws = list(combinations(range(n), k))
    return Fraction(sum(sum(sample < c for sample in draw) >= m for draw in draws), len(draws))


@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n),
                                                      st.integers(-1, n + 1))))
def test_the_oracles_terms_are_the_binomial_products(case: tuple[int, int, int, int]) -> None:
    n, c, k, low = case
    assert dict(hypergeometric_terms(n, c, k, low)) == {
        j: math.comb(c, j) * math.comb(n - c, k - j) for j in range(max(low, 0), min(c, k) + 1)
        if math.comb(n - c, k - j)}


def pmf_sum(n: int, c: int, k: int, m: int) -> Fraction:
    """sum_{j >= m} C(c, j) C(n-c, k-j) / C(n, k): the numerators summed as whole numbers, one division at the end
    (a Fraction per term reduced thousands of huge fractions)."""
    return Fraction(sum(ways for _, ways in hypergeometric_terms(n, c, k, m)), math.comb(n, k))


counts = st.integers(1, 200).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n)))
taus = st.fractions(0, 1).map(float).filter(lambda tau: 0 <= tau <= 1)


@pytest.mark.parametrize("n", range(1, 13))
def test_every_k_subset_counted_agrees_exactly(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            for m in range(1, k + 1):
                assert Fraction(at_least(n, c, k, m)) == Fraction(float(enumerated(n, c, k, m))), (n, c, k, m)


@pytest.mark.parametrize("n, c, k", [(12, 5, 6), (9, 9, 4), (11, 3, 11), (10, 0, 5), (8, 6, 1), (12, 7, 12)])
def test_mg_pass_is_the_papers_sum_over_enumerated_subsets(n: int, c: int, k: int) -> None:
    exact = Fraction(2, k) * sum((enumerated(n, c, k, i) for i in range((k + 1) // 2 + 1, k + 1)), Fraction(0))
    assert mg_pass_at_k(n, c, k) == float(exact)


@given(counts, taus)
@settings(max_examples=300)
def test_agrees_with_the_fraction_sum_of_pmfs(counts: tuple[int, int, int], tau: float) -> None:
    n, c, k = counts
    assert g_pass_at_k(n, c, k, tau) == nearest(pmf_sum(n, c, k, threshold(k, tau)))


@given(counts)
def test_tau_at_most_one_over_k_is_pass_at_k(counts: tuple[int, int, int]) -> None:
    n, c, k = counts
    assert g_pass_at_k(n, c, k, 1 / k) == g_pass_at_k(n, c, k, 1e-9)
    assert g_pass_at_k(n, c, k, 1e-9) == pass_at_k(n, c, k)   # both the nearest double of one value


@given(counts)
def test_tau_one_is_pass_hat_k(counts: tuple[int, int, int]) -> None:
    n, c, k = counts
    assert g_pass_at_k(n, c, k, 1.0) == pass_hat_k(n, c, k)


@given(counts, taus, taus)
def test_decreasing_in_tau_and_a_probability(counts: tuple[int, int, int], tau: float, other: float) -> None:
    n, c, k = counts
    low, high = sorted((tau, other))
    assert 0.0 <= g_pass_at_k(n, c, k, high) <= g_pass_at_k(n, c, k, low) <= 1.0
    assert 0.0 <= mg_pass_at_k(n, c, k) <= 1.0


@given(counts)
def test_mg_pass_agrees_with_the_fraction_sum_of_its_terms(counts: tuple[int, int, int]) -> None:
    n, c, k = counts
    exact = Fraction(2, k) * sum((pmf_sum(n, c, k, i) for i in range((k + 1) // 2 + 1, k + 1)), Fraction(0))
    assert mg_pass_at_k(n, c, k) == nearest(exact)


@pytest.mark.parametrize("n, c, k, tau, expected", [
    (10, 0, 5, 0.2, 0.0),       # c = 0: nothing passes
    (10, 10, 5, 1.0, 1.0),      # c = n: everything does
    (10, 4, 10, 0.4, 1.0),      # k = n: exactly c of the k pass (0.4 * 10 needs 4, though 0.4 is above 2/5)
    (10, 4, 10, 0.5, 0.0),
    (10, 4, 1, 1.0, 0.4),       # k = 1: c/n for every tau
    (10, 4, 1, 0.01, 0.4),
    (10, 3, 10, 0.3, 1.0),      # 0.3 * 10 needs 3 passes, not ceil(3.0000000000000004) = 4
    (7, 5, 7, 5 / 7, 1.0),
])
def test_edge_cases(n: int, c: int, k: int, tau: float, expected: float) -> None:
    assert g_pass_at_k(n, c, k, tau) == expected


def test_mg_pass_at_one_is_the_empty_sum() -> None:
    assert mg_pass_at_k(10, 10, 1) == 0.0


@pytest.mark.parametrize("tau", [-0.5, -1e-300, 1.5, float("nan"), float("inf")])
def test_tau_outside_zero_to_one_is_refused(tau: float) -> None:
    with pytest.raises(ValueError, match="tau must be from 0 to 1"):
        g_pass_at_k(10, 3, 5, tau)


def test_tau_must_be_a_number() -> None:
    with pytest.raises(TypeError, match="tau must be a number"):
        g_pass_at_k(10, 3, 5, True)


def test_counts_are_checked_as_pass_at_k_checks_them() -> None:
    with pytest.raises(ValueError, match="k must be at most n"):
        g_pass_at_k(5, 1, 6, 0.5)


@pytest.mark.parametrize("n, c, k, m", [(2000, 80, 1365, 59), (2000, 1000, 1000, 520), (1999, 3, 50, 2),
                                        (2000, 1990, 100, 100), (2000, 1400, 300, 150)])
def test_correctly_rounded_up_to_the_exact_limit(n: int, c: int, k: int, m: int) -> None:
    assert n <= gpass.EXACT_TAIL_MAX_N
    assert at_least(n, c, k, m) == float(pmf_sum(n, c, k, m))


@pytest.mark.parametrize("n, c, k, m", [(10_000, 400, 6827, 293), (10_000, 5000, 5000, 2600), (9_999, 3, 50, 2),
                                        (10_000, 9_990, 100, 100), (10_000, 7000, 300, 150),
                                        (10_000, 5000, 5000, 2501), (2001, 1000, 1000, 500)])
def test_just_above_the_exact_limit_the_nearest_doubles(n: int, c: int, k: int, m: int) -> None:
    assert n > gpass.EXACT_TAIL_MAX_N
    assert at_least(n, c, k, m) == nearest(pmf_sum(n, c, k, m))
    assert mg_pass_at_k(n, c, k) == nearest(mg_sum(n, c, k))


def mg_sum(n: int, c: int, k: int) -> Fraction:
    """mG-Pass@k = (2/k) sum_{j >= start} (j - start + 1) P(X = j), start = ceil(k/2) + 1, in whole numbers."""
    start = (k + 1) // 2 + 1
    weighted = sum((j - start + 1) * ways for j, ways in hypergeometric_terms(n, c, k, start))
    return Fraction(2 * weighted, k * math.comb(n, k))


ROUTES = {   # each way a tail above EXACT_TAIL_MAX_N is taken, forced at every n the test draws
    "double-double, first term from the table": {},
    "double-double, first term from decimal log-factorials": {(nearest_module, "TABLE_MAX"): 0},
    "whole numbers where nothing settles": {(nearest_module, "settled_one"): lambda high, low, bound: False},
}


@pytest.mark.parametrize("route", ROUTES)
@given(case=st.sampled_from([50, 200, 1000, 5000]).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(1, n - 1), st.integers(1, n - 1), st.floats(0.001, 1))))
@settings(max_examples=80)
def test_each_route_above_the_exact_limit_gives_the_nearest_double(route: str,
                                                                   case: tuple[int, int, int, float]) -> None:
    n, c, k, tau = case
    m = threshold(k, tau)
    patch = pytest.MonkeyPatch()
    patch.setattr(gpass, "EXACT_TAIL_MAX_N", 0)
    for (module, name), value in ROUTES[route].items():
        patch.setattr(module, name, value)
    try:
        found = at_least(n, c, k, m), mg_pass_at_k(n, c, k)
    finally:
        patch.undo()
    assert found == (nearest(pmf_sum(n, c, k, m)), nearest(mg_sum(n, c, k)))


@pytest.mark.parametrize("n, c, k, m", [(10**12, 3 * 10**11, 1000, 400), (10**12, 3 * 10**11, 1000, 250),
                                        (10**7, 10**6, 4000, 500), (10**9, 5, 10**6, 2)])
def test_huge_n_is_the_nearest_double_of_a_100_digit_sum(n: int, c: int, k: int, m: int) -> None:
    with mpmath.workdps(100):
        def pmf(j: int) -> mpmath.mpf:
            return mpmath.exp(mpmath.loggamma(c + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(c - j + 1)
                              + mpmath.loggamma(n - c + 1) - mpmath.loggamma(k - j + 1)
                              - mpmath.loggamma(n - c - k + j + 1) - mpmath.loggamma(n + 1)
                              + mpmath.loggamma(k + 1) + mpmath.loggamma(n - k + 1))
        if m * n > k * c:
            exact = mpmath.fsum(pmf(j) for j in range(m, min(c, k) + 1))
        else:
            exact = 1 - mpmath.fsum(pmf(j) for j in range(max(0, c + k - n), m))
        assert at_least(n, c, k, m) == nearest_mpf(exact, 100)


def test_many_problems_at_once() -> None:
    per_problem = estimate_g_pass_at_k(np.array([10, 10, 12, 10]), [4, 0, 12, 4], 5, 0.6)
    assert per_problem.tolist() == [g_pass_at_k(10, 4, 5, 0.6), 0.0, 1.0, g_pass_at_k(10, 4, 5, 0.6)]
    assert estimate_mg_pass_at_k(10, [4, 10], 5).tolist() == [mg_pass_at_k(10, 4, 5), mg_pass_at_k(10, 10, 5)]
    assert estimate_g_pass_at_k(10, [], 5, 0.5).size == 0
    with pytest.raises(ValueError, match="problem 1: k must be at most n"):
        estimate_g_pass_at_k([10, 4], [1, 1], 5, 0.5)


def test_the_command_line_prints_g_pass_beside_pass_at_k(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")   # a wide terminal: the table and its sentences on one line each
    counts = tmp_path / "counts.txt"
    counts.write_text("10 4\n10 7\n10 10\n")
    assert main([str(counts), "-k", "1,5", "--tau", "0.6"]) == 0
    table = capsys.readouterr().out.split("G-Pass@k at tau = 0.6", 1)[1].splitlines()
    assert table[1].split()[:2] == ["k", "G-Pass@k"] and "mG-Pass@k" in table[1]
    at_5 = (Fraction(66, 252) + Fraction(231, 252) + 1) / 3   # at least 3 of 5 pass, for c = 4, 7 and 10
    assert table[3].split()[1] == f"{100 * float(at_5):.2f}%"


@pytest.mark.parametrize("argv, message", [(["--tau", "1.5"], "tau must be from 0 to 1"),
                                           (["--tau", "x"], "tau must be a number"),
                                           (["--tau", "0.5", "--runs"], "--tau adds to the answer of one run")])
def test_the_command_line_refuses_a_bad_tau(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                           message: str) -> None:
    counts = tmp_path / "counts.txt"
    counts.write_text("10 4\n")
    with pytest.raises(SystemExit):
        main([str(counts), *argv])
    assert message in capsys.readouterr().err


# --- what a tail costs: priced before it is summed (tail_cost), as a web request's budget needs --------------------

float_counts = st.sampled_from([2001, 10**4, 10**6, 10**9, 10**12]).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(1, n - 1), st.integers(1, n - 1)))


def summed_terms(n: int, c: int, k: int, m: int, weighted: bool) -> int | None:
    """The terms _tail sums for at_least's tail from m (weighted: mg_pass_at_k's from its start m), None if none."""
    if m * n > k * c:
        return gpass._tail(n, c, k, m, weighted)[1]
    start = k - m + (2 if weighted else 1)
    return gpass._tail(n, n - c, k, start, weighted)[1] if start <= min(n - c, k) else None


@given(float_counts, taus, st.sampled_from([None, 0.0, 0.5, 2.0]))
@settings(max_examples=300)
def test_a_float_tail_sums_no_more_terms_than_its_price(counts: tuple[int, int, int], tau: float,
                                                        near_the_mean: float | None) -> None:
    n, c, k = counts
    m = threshold(k, tau)
    if near_the_mean is not None:   # the costliest tails start near the mean, where the terms fall slowest
        spread = math.sqrt(k * c / n * (1 - c / n) * (n - k) / (n - 1))
        m = max(1, round(k * c / n + near_the_mean * spread))
    low, high = max(0, c + k - n), min(c, k)
    for start, weighted in ((m, False), ((k + 1) // 2 + 1, True)):
        if start > high or low == high or (start <= low and not weighted):
            continue
        terms = summed_terms(n, c, k, start, weighted)
        price, _ = gpass._float_terms(np.array([float(n)]), np.array([float(c)]), k, start, weighted)
        assert terms is None or terms <= price[0]


def test_a_tail_near_the_mean_sums_a_few_spreads_not_the_distance_to_its_far_end() -> None:
    # n = 10^7, c = k = 1.9 M: the standard deviation is about 490, the tail from tau = 0.5 reaches 950,000 terms
    _, terms = gpass._tail(10**7, 1_900_000, 1_900_000, 361_001)
    assert terms <= 2 * gpass.SPREAD_TERMS * 490 + gpass.FIRST_BLOCK


@pytest.mark.parametrize("n, c, k", [(10**7, 1_900_000, 1_900_000), (10**12, 5 * 10**11, 5 * 10**11 + 1),
                                     (10**12, 3 * 10**11, 1000), (10**9, 5, 10**6), (100_000, 30_000, 3000)])
def test_a_tails_first_term_is_within_its_bound(n: int, c: int, k: int) -> None:
    mean = k * c // n
    with mpmath.workdps(80):
        for j in {max(max(0, c + k - n), mean - 7), mean, mean + 3, min(c, k)}:
            exact = mpmath.exp(mpmath.loggamma(c + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(c - j + 1)
                               + mpmath.loggamma(n - c + 1) - mpmath.loggamma(k - j + 1)
                               - mpmath.loggamma(n - c - k + j + 1) - mpmath.loggamma(n + 1)
                               + mpmath.loggamma(k + 1) + mpmath.loggamma(n - k + 1))
            high, low, bound = gpass._first_term(n, c, k, j)
            if high == 0:   # below 2**bound
                assert exact < mpmath.mpf(2) ** bound and bound < -950
            else:
                assert abs(mpmath.mpf(high) + mpmath.mpf(low) - exact) <= mpmath.mpf(bound) * exact


def test_the_price_of_a_pair_that_is_not_computed_is_nothing() -> None:
    assert gpass.tail_cost([5, 10], [3, 3], 6, 0.5).tolist()[0] == 0.0


def test_the_price_follows_the_work_exact_or_float() -> None:
    small, exact, near, far = gpass.tail_cost([200, 2000, 10**12, 10**12], [57, 1000, 5 * 10**11, 3 * 10**11],
                                              100, 0.5).tolist()
    assert small < exact and small < 100                  # n = 200: a few dozen whole-number terms
    wide = gpass.tail_cost(10**12, 5 * 10**11, 5 * 10**11, 0.5)[0]   # sd 250,000: millions of float terms
    assert wide > 100_000 > 10 * max(near, far)           # k = 100: a spread of 5 terms, one step
