"""The comparison planner: samples per problem in each run, the floor, the cost, against fractions and simulations.

Each run's noise is passk.maths.variance's model with that run's own prior, fitted to its paired problems' n and c;
test_planner's exact_expected_variance derives E[V_i] again in fractions by brute force over the beta-binomial.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from passk.results.benchmark import compare, summarize
from passk.maths.estimator import MAX_N, estimate_pass_at_k
from passk.formats import Problem
from passk.results.planner import (Z_95, Z_POWER, comparison_plan, detectable_difference, difference_noise_split,
                                   fixed_detectable, noise_split, samples_to_detect)
from passk.maths.variance import fit_prior
from passk.web.forms import comparison_options, planning_options
from test_planner import binomial_expected_variance, exact_expected_variance


def run(counts, n=10):
    """Problems t0, t1, … with n samples each and the given passes."""
    return [Problem(f"t{index}", n, int(c)) for index, c in enumerate(counts)]


def planned(a, b, ks, **options):
    """comparison_plan of run a against run b, given both runs' problems."""
    return comparison_plan(compare(a, b, ks), **options)


def prior_of(problems):
    """The run's own prior, fitted to its problems' n and c."""
    return fit_prior([problem.n for problem in problems], [problem.c for problem in problems])


def detects_exactly(runs, k, per_problem, difference):
    """(z + z_0.8)^2 sum E[V] <= (d P)^2 in fractions, each run with its own prior, each problem at max(n, m)."""
    total = Fraction(0)
    for problems in runs:
        prior = prior_of(problems)
        for problem in problems:
            total += exact_expected_variance(problem.n, problem.c, k, max(problem.n, per_problem), prior)
    count = len(runs[0])
    return (Z_95 + Z_POWER) ** 2 * total <= (Fraction(difference) * count) ** 2


# ---------------------------------------------------------------------------
# Samples per problem in each run, on these very problems


def test_two_coin_flip_problems_need_50_samples_for_20_points():
    # pass@1, two problems at 5/10 in each run: the rates do not vary, so each run's prior is as narrow as
    # fit_prior makes it (a = b = (1e9 - 1) / 2), and E[V] at m samples is 1/(4m) to 1e-9 relative.
    # (z + z_0.8)^2 4/(4m) <= (0.2 * 2)^2 first holds at m = 50 (m >= 7.8489 / 0.16 = 49.06). The unbiased
    # 1/(4(m-1)) said 51.
    a = b = run([5, 5])
    (row,) = planned(a, b, [1], difference=0.2)
    assert row["samples"] == 50
    assert detects_exactly((a, b), 1, 50, 0.2) and not detects_exactly((a, b), 1, 49, 0.2)
    assert row["extra_samples"] == 4 * (50 - 10)
    assert "About 50 samples per problem in each run would find a 20.00-point difference at pass@1 on these " \
           "very problems 4 times in 5 (160 more samples in all)." in row["sentences"]


@pytest.mark.parametrize("counts_a, counts_b, n, k, difference", [
    ([3, 7, 5, 9, 0], [2, 7, 4, 10, 1], 10, 1, 0.08),
    ([3, 7, 5, 9, 0], [2, 7, 4, 10, 1], 10, 2, 0.08),
    ([1, 2, 3, 4], [4, 3, 2, 1], 8, 3, 0.1),
    ([6, 6, 1], [0, 6, 2], 6, 1, 0.15),
])
def test_the_samples_are_the_fewest_that_detect_in_exact_arithmetic(counts_a, counts_b, n, k, difference):
    a, b = run(counts_a, n), run(counts_b, n)
    (row,) = planned(a, b, [k], difference=difference)
    needed = row["samples"]
    assert detects_exactly((a, b), k, needed, difference)
    assert needed == n or not detects_exactly((a, b), k, needed - 1, difference)


def test_pass_at_1_samples_follow_the_binomial_formula():
    # pass@1: E[V] at m samples is E[p(1-p)] / m, so m = (z + z_0.8)^2 S / (d P)^2 with S the sum over both
    # runs of E[p(1-p)] = alpha beta / ((alpha + beta)(alpha + beta + 1)), each run's posterior from its prior.
    rates_a, rates_b = np.tile([0.2, 0.5, 0.8, 0.4], 10), np.tile([0.4, 0.5, 0.6, 0.2], 10)
    a, b = run(rates_a * 20, 20), run(rates_b * 20, 20)
    (row,) = planned(a, b, [1], difference=0.02)
    spread = sum(binomial_expected_variance(problem.n, problem.c, 1, prior_of(problems))
                 for problems in (a, b) for problem in problems)
    expected = (Z_95 + Z_POWER) ** 2 * float(spread) / (0.02 * 40) ** 2
    assert row["samples"] == math.ceil(expected)


def simulated_power(rates_a, rates_b, k, per_problem, draws, rng):
    """How often the fixed-benchmark z test, mean difference beyond 1.96 of its own SD over the draws, finds the
    difference when each run draws per_problem samples of every problem at its true rate."""
    count = rates_a.size
    estimates = []
    for rates in (rates_a, rates_b):
        correct = rng.binomial(per_problem, rates, size=(draws, count)).ravel()
        estimates.append(estimate_pass_at_k(np.full(correct.size, per_problem), correct, k).reshape(draws, count))
    difference = (estimates[0] - estimates[1]).mean(1)
    return float(np.mean(np.abs(difference) > Z_95 * np.std(difference, ddof=1)))


@pytest.mark.parametrize("k", [1, 3])
def test_the_planned_samples_find_the_true_difference_4_times_in_5(k):
    # True rates from a beta, B a little behind on half the problems; the plan reads 10 samples of each.
    # Measured: 81% at k = 1, 83% at k = 3.
    rng = np.random.default_rng(20261123)
    count = 60
    rates_a = rng.beta(0.7, 0.7, count)
    rates_b = np.clip(rates_a - 0.05 * (rng.random(count) < 0.5), 0, 1)
    correct_a, correct_b = rng.binomial(10, rates_a), rng.binomial(10, rates_b)
    true = float(np.mean((1 - (1 - rates_a) ** k) - (1 - (1 - rates_b) ** k)))   # E pass@k at any n >= k
    (row,) = planned(run(correct_a), run(correct_b), [k], difference=true)
    needed = row["samples"]
    assert needed > 20    # the 10 samples there are would not do
    assert 0.74 <= simulated_power(rates_a, rates_b, k, needed, 4000, rng) <= 0.88
    assert simulated_power(rates_a, rates_b, k, needed // 3, 4000, rng) < 0.6


def test_with_no_spread_compare_s_own_paired_test_has_the_planned_power():
    # Every problem's true pass@1 differs by the same 5 points, so across problems the differences vary
    # by sampling noise alone: benchmark.compare's t test on fresh runs then has the planned power too.
    rng = np.random.default_rng(4)
    rates_a = np.tile([0.3, 0.5, 0.7, 0.9], 10)
    rates_b = rates_a - 0.1
    (row,) = planned(run(rates_a * 10), run(rates_b * 10), [1], difference=0.1)
    needed = row["samples"]
    found = 0
    for _ in range(600):
        a = [Problem(f"t{i}", needed, int(c)) for i, c in enumerate(rng.binomial(needed, rates_a))]
        b = [Problem(f"t{i}", needed, int(c)) for i, c in enumerate(rng.binomial(needed, rates_b))]
        found += compare(a, b, [1]).results[0].p_value < 0.05
    assert 0.72 <= found / 600 <= 0.88


def test_samples_there_are_may_already_be_enough():
    a, b = run([3, 8, 5], 200), run([1, 9, 2], 200)
    (row,) = planned(a, b, [1], difference=0.9)
    assert row["samples"] == 200 and row["extra_samples"] == 0
    assert "The samples there are would already find a 90.00-point difference at pass@1 on these very " \
           "problems 4 times in 5." in row["sentences"]


def test_a_difference_beyond_reach_says_so():
    (row,) = planned(run([5, 5]), run([5, 5]), [1], difference=1e-9)
    assert row["samples"] is None and row["extra_samples"] is None
    assert f"Not even {MAX_N:,} samples per problem in each run would find a 0.00-point difference at pass@1 " \
           f"on these very problems 4 times in 5." in row["sentences"]


def test_samples_to_detect_is_none_beyond_the_cap():
    counts = (np.full(2, 10), np.full(2, 5))
    assert samples_to_detect((counts, counts), 1, 1e-9) is None
    assert samples_to_detect((counts, counts), 1, 0.2) == 50   # the two coin flips above


def test_uneven_samples_count_only_the_extra_ones():
    a = [Problem("x", 10, 5), Problem("y", 40, 20)]
    b = [Problem("x", 30, 12), Problem("y", 10, 5)]
    (row,) = planned(a, b, [1], difference=0.3)
    needed = row["samples"]
    assert needed >= 40
    assert row["extra_samples"] == sum(max(needed - n, 0) for n in (10, 40, 30, 10))


# ---------------------------------------------------------------------------
# The floor for problems like these, and the noise now


def test_the_floor_is_the_spread_of_the_true_differences_in_fractions():
    counts_a, counts_b = [3, 7, 5, 9, 0, 10], [2, 4, 5, 10, 1, 6]
    a, b = run(counts_a), run(counts_b)
    (row,) = planned(a, b, [1])
    differences = [Fraction(x - y, 10) for x, y in zip(counts_a, counts_b)]
    mean = sum(differences) / 6
    total = sum((d - mean) ** 2 for d in differences) / 5
    noise = sum(binomial_expected_variance(10, c, 10, prior_of(problems))   # mean E[V_A] + mean E[V_B]
                for problems, counts in ((a, counts_a), (b, counts_b)) for c in counts) / 6
    assert total > noise
    assert row["detectable_floor"] == pytest.approx((Z_95 + Z_POWER) * math.sqrt((total - noise) / 6), rel=1e-12)
    assert row["noise_share"] == pytest.approx(float(noise / total), rel=1e-12)
    assert f"More samples alone cannot bring the detectable difference at pass@1 below " \
           f"{row['detectable_floor'] * 100:.2f} points for problems like these; more problems can." \
           in row["sentences"]


@pytest.mark.parametrize("k", [1, 2, 5])
@pytest.mark.parametrize("other", ["never passes", "all or nothing"])
def test_each_run_keeps_its_own_noise_the_two_runs_se_fixed_added(k, other):
    # Each run's prior is fitted to its own problems, as summarize fits it: the noise on these very problems is
    # the two runs' SE fixed^2 added, whatever the other run's rates.
    rng = np.random.default_rng(k)
    counts_a = rng.binomial(12, rng.beta(0.6, 0.6, 80))
    counts_b = [0] * 80 if other == "never passes" else [12 * (i % 3 == 0) for i in range(80)]
    a, b = run(counts_a, 12), run(counts_b, 12)
    (row,) = planned(a, b, [k])
    se_a, se_b = (summarize(problems, [k]).results[0].se_fixed for problems in (a, b))
    assert row["detectable_fixed"] == pytest.approx(detectable_difference(math.hypot(se_a, se_b)), rel=1e-9)
    noise = 80 * (se_a ** 2 + se_b ** 2)   # mean E[V_A] + mean E[V_B]
    values = estimate_pass_at_k(np.full(80, 12), counts_a, k) - estimate_pass_at_k(np.full(80, 12), counts_b, k)
    total = float(np.var(values, ddof=1))
    assert row["noise_share"] == pytest.approx(min(noise / total, 1.0), rel=1e-9)
    assert row["detectable_floor"] == pytest.approx(
        detectable_difference(math.sqrt(max(total - noise, 0) / 80)), rel=1e-9, abs=1e-12)
    if other == "never passes":   # the differences are run A's estimates: the benchmark planner's split plus B's noise
        run_total, run_noise, _ = noise_split([12] * 80, counts_a, k)
        assert total == pytest.approx(run_total, rel=1e-12) and noise == pytest.approx(run_noise + 80 * se_b ** 2)
    counts = (np.full(80, 12), counts_a), (np.full(80, 12), np.array(counts_b))
    assert difference_noise_split(values, np.zeros(80), *counts, k)[1] == pytest.approx(noise, rel=1e-9)
    assert fixed_detectable(counts, k) == pytest.approx(row["detectable_fixed"], rel=1e-12)


def test_differences_that_are_all_noise_have_no_floor():
    # Both runs 5/10 on every problem: no true difference varies, the estimates all equal.
    a, b = run([5, 4, 6, 5]), run([5, 6, 4, 5])
    (row,) = planned(a, b, [1])
    assert row["detectable_floor"] == 0.0 and row["noise_share"] == 1.0
    assert "look like sampling noise alone" in " ".join(row["sentences"])


def test_too_few_samples_for_the_noise_say_what_cannot_be_planned():
    (row,) = planned(run([3, 7, 5, 9]), run([2, 7, 4, 10]), [6], difference=0.05)
    assert row["detectable_fixed"] is None and row["detectable_floor"] is None and row["noise_share"] is None
    assert row["samples"] is None and row["extra_samples"] is None
    assert row["sentences"][-1] == (
        "With fewer than 12 samples per problem (all 4 paired problems have fewer in run A or B), sampling noise "
        "cannot be told apart from differences between problems, so the samples needed to find a 5.00-point "
        "difference at pass@6 cannot be planned; run at least 12 samples per problem in each run, even on a "
        "subset, to measure it.")
    assert row["detectable"] is not None and row["problems"] is not None   # problems like these still plan
    (row,) = planned(run([3, 7, 5, 9]), run([2, 7, 4, 10]), [6])
    assert row["sentences"][-1].endswith("so what more samples would buy at pass@6 cannot be planned; run at "
                                         "least 12 samples per problem in each run, even on a subset, to measure it.")


def test_one_short_problem_in_one_run_is_enough_to_say_so():
    a = run([3, 7, 5, 9])
    b = run([2, 7, 4, 10])[:3] + [Problem("t3", 3, 1)]
    (row,) = planned(a, b, [2], difference=0.05)
    assert row["samples"] is None and "(1 of the 4 paired problems has fewer in run A or B)" in row["sentences"][-1]


@pytest.mark.parametrize("samples_b", [1, 10])
def test_with_one_sample_per_problem_the_comparison_planner_says_it_cannot_plan(samples_b):
    """Issue 14: with n = 1 the rates look like 0 or 1, and the old planner took them as noiseless (here it said
    "About 2 samples per problem in each run would find a 5.00-point difference"). With n = 1 in either run it
    plans no samples, and says why."""
    rng = np.random.default_rng(1)
    rates = rng.beta(0.6, 0.6, 40)
    a = run(rng.binomial(1, rates), 1)
    b = run(rng.binomial(samples_b, np.clip(rates - 0.1, 0, 1)), samples_b)
    (row,) = planned(a, b, [1], difference=0.05)
    assert row["samples"] is None and row["extra_samples"] is None and row["detectable_fixed"] is None
    assert not any("samples per problem in each run would find" in sentence for sentence in row["sentences"])
    assert row["sentences"][-1] == (
        "With fewer than 2 samples per problem (all 40 paired problems have fewer in run A or B), sampling noise "
        "cannot be told apart from differences between problems, so the samples needed to find a 5.00-point "
        "difference at pass@1 cannot be planned; run at least 2 samples per problem in each run, even on a "
        "subset, to measure it.")


# ---------------------------------------------------------------------------
# Cost, the shape of the answer, and what stays as it was


def test_tokens_and_price_turn_the_extra_samples_into_cost():
    a, b = run([3, 7, 5, 9, 0, 10]), run([2, 4, 5, 10, 1, 6])
    (row,) = planned(a, b, [1], difference=0.05, tokens_per_sample=1500, price_per_million=3)
    assert row["extra_tokens"] == row["extra_samples"] * 1500
    assert row["extra_cost"] == pytest.approx(row["extra_samples"] * 1500 * 3 / 1e6)
    assert f"({row['extra_samples']:,} more samples in all, {row['extra_tokens']:,.0f} tokens, about " \
           f"{row['extra_cost']:,.2f} in token cost)." in row["sentences"][-1]
    (tokens_only,) = planned(a, b, [1], difference=0.05, tokens_per_sample=1500)
    assert tokens_only["extra_tokens"] == row["extra_tokens"] and tokens_only["extra_cost"] is None
    (price_only,) = planned(a, b, [1], difference=0.05, price_per_million=3)
    assert price_only["extra_tokens"] is None and price_only["extra_cost"] is None


def test_the_plan_starts_with_problems_like_these_and_reads_the_paired_counts_in_task_id_order():
    a, b = run([i % 11 for i in range(40)]), run([(i + 3) % 11 for i in range(40)])
    comparison = compare(a, b, [1])
    se = comparison.results[0].se
    (row,) = comparison_plan(comparison, difference=0.05)
    assert row["sentences"][:2] == [
        f"With 40 paired problems, a true difference of {detectable_difference(se) * 100:.2f} points at pass@1 "
        f"would be found 4 times in 5 (p < 0.05).",
        f"About {row['problems']:,} paired problems would find a difference of 5.00 points 4 times in 5."]
    (shuffled,) = comparison_plan(compare(a, b[::-1], [1]), difference=0.05)   # run B listed backwards
    assert shuffled == row and row["samples"] is not None and row["detectable_floor"] is not None


def test_every_answer_is_json_safe():
    import json
    rows = planned(run([3, 7, 5, 9, 0]), run([2, 7, 4, 10, 1]), [1, 2, 3, 11], difference=0.05,
                   tokens_per_sample=100, price_per_million=1)
    assert json.loads(json.dumps(rows)) == rows
    assert [set(row) for row in rows] == [{"k", "detectable", "problems", "samples", "sentences", "detectable_fixed",
                                           "noise_share", "detectable_floor", "extra_samples", "extra_tokens",
                                           "extra_cost"}] * 4
    assert rows[3]["sentences"] == [] and rows[3]["samples"] is None   # pass@11 is undefined with 10 samples
    assert rows[2]["samples"] is not None and rows[2]["noise_share"] is not None   # n = 10 >= 2k at k = 3


# ---------------------------------------------------------------------------
# The form fields


@pytest.mark.parametrize("fields, expected", [
    ({"difference": "3"}, {"difference": 0.03}),
    ({"difference": " 0.5 "}, {"difference": 0.005}),
    ({"difference": "100"}, {"difference": 1.0}),
    ({"difference": "2", "tokens_per_sample": "1200", "price_per_million": "3.5"},
     {"difference": 0.02, "tokens_per_sample": 1200.0, "price_per_million": 3.5}),
    ({}, {}),
    ({"difference": "", "tokens_per_sample": "  ", "price_per_million": None}, {}),
])
def test_comparison_options_read_the_difference_in_points(fields, expected):
    assert comparison_options(**fields) == pytest.approx(expected)


@pytest.mark.parametrize("fields, message", [
    ({"difference": "0"}, "The difference to detect (points) must be from 0.001 to 100; got '0'."),
    ({"difference": "-2"}, "The difference to detect (points) must be from 0.001 to 100; got '-2'."),
    ({"difference": "100.5"}, "The difference to detect (points) must be from 0.001 to 100; got '100.5'."),
    ({"difference": "three"}, "The difference to detect (points) must be from 0.001 to 100; got 'three'."),
    ({"difference": "nan"}, "The difference to detect (points) must be from 0.001 to 100; got 'nan'."),
    ({"tokens_per_sample": "0"}, "Tokens per sample must be a number above 0, at most 1,000,000,000,000; got '0'."),
    ({"price_per_million": "inf"}, "The price per million tokens must be a number above 0, at most "
                                   "1,000,000,000,000; got 'inf'."),
    ({"price_per_million": "1e400"}, "The price per million tokens must be a number above 0, at most "
                                     "1,000,000,000,000; got '1e400'."),
    ({"price_per_million": "1e13"}, "The price per million tokens must be a number above 0, at most "
                                    "1,000,000,000,000; got '1e13'."),
    ({"difference": "0.0001"}, "The difference to detect (points) must be from 0.001 to 100; got '0.0001'."),
])
def test_comparison_options_refuse_with_a_sentence_naming_the_field(fields, message):
    with pytest.raises(ValueError) as error:
        comparison_options(**fields)
    assert str(error.value) == message


def test_both_forms_read_their_fields_alike():
    assert comparison_options("", "800", "2") == planning_options("", "800", "2") == \
        {"tokens_per_sample": 800.0, "price_per_million": 2.0}
    assert comparison_options("1.5")["difference"] == planning_options("1.5")["target"]


def test_a_plan_whose_noise_exceeds_the_spread_explains_why_these_very_problems_need_more():
    """Differences that vary less than sampling noise predicts make the fixed figure the larger one: said so."""
    a = run([2 + i % 5 for i in range(1, 30)], n=20)
    b = run([2 + (i * 3) % 5 - (i % 7 == 0) for i in range(1, 30)], n=20)
    (row,) = planned(a, b, [1])
    assert row["noise_share"] == 1.0 and row["detectable_fixed"] > row["detectable"]
    assert any("vary less from problem to problem than sampling noise" in sentence for sentence in row["sentences"])
    (usual,) = planned(run([10, 0, 9, 1, 10, 0] * 5), run([0, 10, 1, 9, 1, 10] * 5), [1])   # real spread
    assert usual["noise_share"] < 0.1 and not any("vary less" in sentence for sentence in usual["sentences"])
