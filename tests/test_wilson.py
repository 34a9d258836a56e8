"""The benchmark's 95% interval: Wilson's score interval at the effective sample size (passk.stats)."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st
from scipy.stats import binomtest

from passk.benchmark import summarize
from passk.formats import Problem
from passk.stats import t_quantile, wilson_interval, wilson_score

Z = 1.959963984540054


@pytest.mark.parametrize(("successes", "trials"), [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (57, 200), (1, 10**6)])
def test_the_score_interval_is_scipys_wilson_interval(successes, trials):
    expected = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_score(successes / trials, trials, Z) == pytest.approx((expected.low, expected.high), abs=1e-14)


def exact_mean_and_se(values):
    """The mean and s / sqrt(P) of the values, the variance from exact fractions."""
    values = [Fraction(value) for value in values]
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


@pytest.mark.parametrize(("ones", "count"), [(1, 2), (3, 10), (29, 30), (82, 164)])
def test_zeros_and_ones_get_wilsons_interval_at_count_minus_one_trials_scaled_for_t(ones, count):
    """For 0/1 values mean (1 - mean) / SE^2 is exactly count - 1; the t quantile scales it by (z / t)^2."""
    mean, se = exact_mean_and_se([1] * ones + [0] * (count - ones))
    assert mean * (1 - mean) / Fraction(se) ** 2 == pytest.approx(count - 1, rel=1e-12)
    trials = (count - 1) * (Z / t_quantile(0.975, count - 1)) ** 2
    assert wilson_interval(float(mean), se, count) == pytest.approx(wilson_score(float(mean), trials, Z), abs=1e-12)


@pytest.mark.parametrize("count", [2, 3, 30, 164])
@pytest.mark.parametrize("value", [0.0, 1.0])
def test_all_zeros_or_all_ones_keep_the_interval_of_that_many_bernoulli_values(value, count):
    """SE 0 at 0 or 1 is no certainty: the limit of 0/1 values, count - 1 trials scaled for t."""
    low, high = wilson_interval(value, 0.0, count)
    trials = (count - 1) * (Z / t_quantile(0.975, count - 1)) ** 2
    assert (low, high) == pytest.approx(wilson_score(value, trials, Z))
    assert (low == 0.0 < high < 1.0) if value == 0 else (0.0 < low < high == 1.0)


def test_values_all_equal_between_zero_and_one_have_no_spread():
    assert wilson_interval(0.25, 0.0, 30) == (0.25, 0.25)


@pytest.mark.parametrize(("mean", "se", "count"), [(-0.1, 0.1, 10), (1.1, 0.1, 10), (0.5, -0.1, 10),
                                                   (0.5, math.nan, 10), (0.5, 0.1, 1)])
def test_impossible_inputs_are_refused(mean, se, count):
    with pytest.raises(ValueError, match="Wilson interval needs"):
        wilson_interval(mean, se, count)


values_in_unit = st.lists(st.fractions(0, 1, max_denominator=1000), min_size=2, max_size=60)


@given(values_in_unit)
def test_the_interval_holds_the_mean_and_stays_in_zero_to_one(values):
    mean, se = exact_mean_and_se(values)
    low, high = wilson_interval(float(mean), se, len(values))
    assert 0.0 <= low <= float(mean) + 1e-12 and float(mean) - 1e-12 <= high <= 1.0


@given(st.floats(0.01, 0.99), st.floats(1e-4, 0.2), st.integers(2, 10**4))
def test_a_larger_se_gives_a_wider_interval(mean, se, count):
    low, high = wilson_interval(mean, se, count)
    wider_low, wider_high = wilson_interval(mean, se * 1.5, count)
    assert wider_low <= low + 1e-15 and high <= wider_high + 1e-15


def test_with_many_problems_near_the_middle_it_is_mean_plus_or_minus_t_se():
    """Wilson's lean fades as the effective sample grows: at P = 10,000 it is within 0.1% of mean ± t SE."""
    low, high = wilson_interval(0.45, 0.004, 10_000)
    half = t_quantile(0.975, 9_999) * 0.004
    assert (low, high) == pytest.approx((0.45 - half, 0.45 + half), rel=1e-3)


def test_the_benchmark_interval_leans_away_from_one_where_the_values_pile_up():
    """29 problems always pass and one never: the t interval reached 1; Wilson's stops short and leans low."""
    problems = [Problem(f"t{i}", 10, 10) for i in range(29)] + [Problem("t29", 10, 0)]
    row = summarize(problems, [10]).results[0]
    mean, se = exact_mean_and_se([1] * 29 + [0])
    assert row.pass_at_k == pytest.approx(float(mean)) and row.se == pytest.approx(se)
    low, high = row.ci95
    assert high < 1.0 and high - row.pass_at_k < row.pass_at_k - low
    assert row.ci95 == pytest.approx(wilson_interval(float(mean), se, 30), abs=1e-15)
