"""The 95% intervals (passk.maths.intervals): their definition, the six findings of issue 14, continuity."""

import math
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings, strategies as st
from scipy.stats import binom

import oracles
from passk.results.benchmark import compare, summarize
from passk.formats import Problem
from passk.maths.intervals import PairedDifference, fixed_interval, midp_interval, population_interval
from where import ROOT


def pass_fail(ones, count):
    """count problems with n = 1, the first `ones` of them solved: values 0 and 1."""
    return [Problem(i, 1, int(i < ones)) for i in range(count)]


# --- the mid-p interval itself -------------------------------------------------------------------

@pytest.mark.parametrize(("passes", "trials"), [(1, 1), (0, 10), (3, 10), (10, 10), (57, 200), (1, 10**6), (999, 1000)])
def test_whole_numbers_give_the_mid_p_interval_of_binomial_sums(passes, trials):
    """At whole numbers the ends solve P(X > x) + P(X = x)/2 = 2.5% and its mirror, summed by scipy's binom."""
    low, high = midp_interval(passes, trials)
    if passes:
        assert binom.sf(passes, trials, low) + binom.pmf(passes, trials, low) / 2 == pytest.approx(0.025, rel=1e-9)
    else:
        assert low == 0
    if passes < trials:
        assert binom.cdf(passes - 1, trials, high) + binom.pmf(passes, trials, high) / 2 == pytest.approx(0.025, rel=1e-9)
    else:
        assert high == 1


@settings(max_examples=200, deadline=None)
@given(st.floats(0.05, 2000), st.floats(0, 1))
def test_real_passes_and_trials_solve_the_mid_p_equation(trials, share):
    interval = midp_interval(share * trials, trials)
    oracles.assert_is_midp_interval(interval, share * trials, trials)
    assert 0 <= interval[0] <= share <= interval[1] <= 1


# --- finding 1: the dip near 0 and 1 ---------------------------------------------------------------

def coverage(count, truth):
    """The exact chance, over X ~ binomial(count, truth) solved problems, that the interval holds the truth."""
    hits = 0.0
    for ones in range(count + 1):
        values_mean = ones / count
        se = math.sqrt(count / (count - 1) * values_mean * (1 - values_mean) / count)
        low, high = population_interval(values_mean, se, count)
        hits += binom.pmf(ones, count, truth) * (low <= truth <= high)
    return hits


@pytest.mark.parametrize(("count", "truth"), [(30, 0.0053), (164, 0.001), (1000, 0.0005), (164, 1 - 0.00071)])
def test_pass_fail_values_near_the_boundary_keep_the_promise(count, truth):
    """Issue 14 (1): Wilson's interval covered 85.2%, 84.9%, 91% and 89% at these truths."""
    assert coverage(count, truth) >= 0.93


def test_the_issue_s_reproduction_covers_the_truth():
    """163 of 164 solved: the upper end must reach past 0.99929, the truth of the issue's scenario."""
    row = summarize(pass_fail(163, 164), [1]).results[0]
    assert row.ci95[1] > 0.99929
    assert coverage(164, 0.99929) >= 0.93


def test_pass_fail_values_keep_at_least_93_percent_across_the_boundary_scan_at_30_problems():
    assert min(coverage(30, truth / 10_000) for truth in range(25, 326, 10)) >= 0.93


# --- finding 2: continuity ---------------------------------------------------------------------------

def test_values_of_one_and_one_less_a_rounding_get_the_same_interval():
    """Issue 14 (2): {1, 1} gave [0.006, 1] and {1, 1 - 1.6e-16} [0.99999999999, 1]."""
    exact_ones = summarize([Problem("a", 26, 1), Problem("b", 26, 2)], [26]).results[0]
    almost = summarize([Problem("a", 26, 1), Problem("b", 56, 30)], [26]).results[0]
    assert exact_ones.se == 0.0 and 0 < almost.se < 1e-15
    assert almost.ci95 == pytest.approx(exact_ones.ci95, abs=1e-9)


def test_the_command_line_reproduction_gives_a_wide_interval():
    completed = subprocess.run([sys.executable, "-m", "passk", "-", "-k", "26", "--json"], input="a 26 1\nb 56 30\n",
                               capture_output=True, text=True, check=True)
    assert '"ci95": [' in completed.stdout
    row = summarize([Problem("a", 26, 1), Problem("b", 56, 30)], [26]).results[0]
    assert row.ci95[0] < 0.5 and row.ci95[1] == 1.0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=40), st.integers(0, 39), st.floats(-1e-9, 1e-9))
def test_a_tiny_change_in_one_value_moves_the_interval_a_little(values, index, nudge):
    """Continuity: moving one value by at most 1e-9 moves each end by far less than the interval's scale."""
    assume(index < len(values))
    moved = list(values)
    moved[index] = min(1.0, max(0.0, moved[index] + nudge))

    def interval(values):
        count = len(values)
        mean = math.fsum(values) / count
        se = math.sqrt(math.fsum((value - mean) ** 2 for value in values) / (count - 1) / count)
        return population_interval(min(1.0, max(0.0, mean)), se, count)

    before, after = interval(values), interval(moved)
    assert after == pytest.approx(before, abs=1e-5)


# --- finding 3: the fixed benchmark -------------------------------------------------------------------

def test_the_fixed_interval_of_problems_that_never_pass_is_not_a_point():
    """c = 0 everywhere: the unbiased variance is 0; the interval reaches the rule of three over the draws."""
    row = summarize([Problem(i, 20, 0) for i in range(30)], [10]).results[0]
    draws = 30 * 20 / 10
    assert row.ci95_fixed[0] == 0 and row.ci95_fixed[1] == pytest.approx(1 - 0.05 ** (1 / draws), rel=1e-9)


def test_the_fixed_interval_is_the_mid_p_at_the_draws_effective_trials():
    row = summarize([Problem(i, 20, c) for i, c in enumerate([0, 3, 7, 12, 20, 20, 1, 0, 5])], [5]).results[0]
    mean = Fraction(row.pass_at_k)
    draws = Fraction(9 * 20, 5)
    trials = float(oracles.capped_trials(mean, Fraction(row.se_fixed) ** 2, draws))
    oracles.assert_is_midp_interval(row.ci95_fixed, row.pass_at_k * trials, trials)
    assert fixed_interval(row.pass_at_k, row.se_fixed, 36) == row.ci95_fixed


# --- finding 5: one procedure for the test and the interval ---------------------------------------

@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([-1.0, -0.5, -0.1, 0.0, 0.0, 0.0, 0.1, 0.3, 1.0]), min_size=21, max_size=80))
def test_the_trinomial_interval_leaves_out_0_exactly_when_its_p_value_is_below_5_percent(differences):
    count = len(differences)
    mean = math.fsum(differences) / count
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in differences) / (count - 1))
    paired = PairedDifference(mean, math.fsum(map(abs, differences)) / count, sd, count)
    low, high = paired.interval()
    p_value = paired.p_value()
    assume(abs(p_value - 0.05) > 1e-7)
    assert (low > 0 or high < 0) == (p_value < 0.05)
    assert low <= mean <= high


def test_the_issue_s_small_comparison_does_not_disagree():
    """Issue 14 (5): an interval (-1.0, -0.405) that left out 0 with p = 0.0625."""
    row = compare(pass_fail(1, 6), pass_fail(6, 6), [1]).results[0]
    assert row.p_value > 0.05 and row.ci95[0] <= 0 <= row.ci95[1]


# --- finding 6: say what it is ---------------------------------------------------------------------

def test_five_of_ten_is_the_mid_p_interval_at_nine_trials_scaled_for_t():
    """Not Wilson's [0.237, 0.763] for 5 of 10, and not [0.199, 0.801]: the mid-p at 9 (z / t_9)^2 trials."""
    low, high = summarize(pass_fail(5, 10), [1]).results[0].ci95
    trials = 9 * (oracles.Z / oracles.t_975(9)) ** 2
    oracles.assert_is_midp_interval((low, high), trials / 2, trials)
    assert (round(low, 3), round(high, 3)) == (0.162, 0.838)


def test_the_manual_names_the_interval_it_gives():
    text = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    assert "mid-p" in text and "effective number of trials" in text
    assert "Wilson's interval for a proportion" not in text


def test_identical_values_between_0_and_1_do_not_collapse_to_a_point():
    low, high = population_interval(0.25, 0.0, 30)
    assert low < 0.25 < high


@pytest.mark.parametrize(("mean", "se", "count"), [(-0.1, 0.1, 10), (1.1, 0.1, 10), (0.5, -1.0, 10), (0.5, 0.1, 1)])
def test_impossible_inputs_are_refused(mean, se, count):
    with pytest.raises(ValueError, match="the interval needs"):
        population_interval(mean, se, count)


def test_more_spread_gives_a_wider_interval():
    narrow = population_interval(0.4, 0.02, 100)
    wide = population_interval(0.4, 0.03, 100)
    assert wide[0] < narrow[0] < 0.4 < narrow[1] < wide[1]
