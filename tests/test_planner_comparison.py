"""The comparison planner: samples per problem in each run, the floor, the cost, against fractions and simulations."""

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from passk.benchmark import compare, summarize
from passk.variance import estimate_variance
from passk.estimator import MAX_N, estimate_pass_at_k
from passk.formats import Problem
from passk.planner import (Z_95, Z_POWER, comparison_options, comparison_plan, detectable_difference,
                           noise_split, planning_options, samples_to_detect)


def run(counts, n=10):
    """Problems t0, t1, … with n samples each and the given passes."""
    return [Problem(f"t{index}", n, int(c)) for index, c in enumerate(counts)]


def planned(a, b, ks, **options):
    """comparison_plan of run a against run b, given both runs' problems."""
    return comparison_plan(compare(a, b, ks), **options)


def exact_variance(n, c, k):
    """V = A(k)^2 - A(2k), A(j) = C(n - c, j) / C(n, j), as a fraction."""
    def a(j):
        return Fraction(comb(n - c, j), comb(n, j))
    return a(k) ** 2 - a(2 * k)


def detects_exactly(runs, k, per_problem, difference):
    """(z + z_0.8)^2 sum V <= (d P)^2 in fractions, each problem at max(n, m) samples keeping its c/n."""
    total = Fraction(0)
    for problems in runs:
        for problem in problems:
            n = max(problem.n, per_problem)
            total += exact_variance(n, round(Fraction(problem.c * n, problem.n)), k)
    count = len(runs[0])
    return (Z_95 + Z_POWER) ** 2 * total <= (Fraction(difference) * count) ** 2


# ---------------------------------------------------------------------------
# Samples per problem in each run, on these very problems


def test_two_coin_flip_problems_need_51_samples_for_20_points():
    # pass@1, every rate 1/2: V = 1/(4(m-1)) at even m, (m+1)/(4m^2) at odd m; four entries, P = 2.
    # (z + z_0.8)^2 sum V <= (0.2 * 2)^2 first holds at m = 51: 2.8016^2 * 52/2601 = 0.1569 <= 0.16,
    # while m = 50 gives 2.8016^2 / 49 = 0.1602.
    a = b = run([5, 5])
    (row,) = planned(a, b, [1], difference=0.2)
    assert row["samples"] == 51
    assert row["extra_samples"] == 4 * (51 - 10)
    assert "About 51 samples per problem in each run would find a 20.00-point difference at pass@1 on these " \
           "very problems 4 times in 5 (164 more samples in all)." in row["sentences"]


@pytest.mark.parametrize("counts_a, counts_b, n, k, difference", [
    ([3, 7, 5, 9, 0], [2, 7, 4, 10, 1], 10, 1, 0.05),
    ([3, 7, 5, 9, 0], [2, 7, 4, 10, 1], 10, 2, 0.04),
    ([1, 2, 3, 4], [4, 3, 2, 1], 8, 3, 0.1),
    ([6, 6, 1], [0, 6, 2], 6, 1, 0.15),
])
def test_the_samples_are_the_fewest_that_detect_in_exact_arithmetic(counts_a, counts_b, n, k, difference):
    a, b = run(counts_a, n), run(counts_b, n)
    (row,) = planned(a, b, [k], difference=difference)
    needed = row["samples"]
    assert detects_exactly((a, b), k, needed, difference)
    assert needed == max(n, 2 * k) or not detects_exactly((a, b), k, needed - 1, difference)


def test_pass_at_1_samples_follow_the_binomial_formula():
    # pass@1: V at m samples is p(1-p)/(m-1), so m - 1 = (z + z_0.8)^2 sum p(1-p) / (d P)^2 over both runs.
    rates_a, rates_b = np.tile([0.2, 0.5, 0.8, 0.4], 10), np.tile([0.4, 0.5, 0.6, 0.2], 10)
    a, b = run(rates_a * 20, 20), run(rates_b * 20, 20)
    (row,) = planned(a, b, [1], difference=0.02)
    spread = np.sum(rates_a * (1 - rates_a)) + np.sum(rates_b * (1 - rates_b))
    expected = 1 + (Z_95 + Z_POWER) ** 2 * spread / (0.02 * 40) ** 2
    assert row["samples"] == math.ceil(expected)


def simulated_power(rates_a, rates_b, k, per_problem, draws, rng):
    """How often the fixed-benchmark z test, mean difference / (sqrt(sum V_A + sum V_B) / P), is beyond 1.96
    when each run draws per_problem samples of every problem at its true rate."""
    count = rates_a.size
    estimates, variances = [], []
    for rates in (rates_a, rates_b):
        correct = rng.binomial(per_problem, rates, size=(draws, count)).ravel()
        samples = np.full(correct.size, per_problem)
        estimates.append(estimate_pass_at_k(samples, correct, k).reshape(draws, count))
        variances.append(estimate_variance(samples, correct, k).reshape(draws, count))
    difference = (estimates[0] - estimates[1]).mean(1)
    se = np.sqrt(variances[0].sum(1) + variances[1].sum(1)) / count
    return float(np.mean(np.abs(difference) > Z_95 * se))


@pytest.mark.parametrize("k", [1, 3])
def test_the_planned_samples_find_the_true_difference_4_times_in_5(k):
    rng = np.random.default_rng(20261123)
    count = 60
    correct_a = rng.integers(0, 11, count)
    correct_b = np.clip(correct_a - (rng.random(count) < 0.3), 0, 10)   # B solves a little less
    rates_a, rates_b = correct_a / 10, correct_b / 10
    true = float(np.mean((1 - (1 - rates_a) ** k) - (1 - (1 - rates_b) ** k)))   # E pass@k at any n >= k
    (row,) = planned(run(correct_a), run(correct_b), [k], difference=true)
    needed = row["samples"]
    assert needed > 20    # the 10 samples there are would not do
    assert 0.74 <= simulated_power(rates_a, rates_b, k, needed, 4000, rng) <= 0.86
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
    assert samples_to_detect([10] * 4, [5] * 4, 1, 1e-9, 2) is None


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
    (row,) = planned(run(counts_a), run(counts_b), [1])
    differences = [Fraction(x - y, 10) for x, y in zip(counts_a, counts_b)]
    mean = sum(differences) / 6
    total = sum((d - mean) ** 2 for d in differences) / 5
    noise = sum(exact_variance(10, c, 1) for c in counts_a + counts_b) / 6   # mean V_A + mean V_B
    assert total > noise
    assert row["detectable_floor"] == pytest.approx((Z_95 + Z_POWER) * math.sqrt((total - noise) / 6), rel=1e-12)
    assert row["noise_share"] == pytest.approx(float(noise / total), rel=1e-12)
    assert f"More samples alone cannot bring the detectable difference at pass@1 below " \
           f"{row['detectable_floor'] * 100:.2f} points for problems like these; more problems can." \
           in row["sentences"]


@pytest.mark.parametrize("k", [1, 2, 5])
def test_against_a_run_that_never_passes_the_split_is_the_benchmark_planner_s(k):
    # Run B solves nothing: its estimates are 0 with no noise, so the differences are run A's own estimates.
    rng = np.random.default_rng(k)
    counts_a = rng.binomial(12, rng.beta(0.6, 0.6, 80))
    a, b = run(counts_a, 12), run([0] * 80, 12)
    (row,) = planned(a, b, [k])
    total, noise, spread = noise_split([12] * 80, counts_a, k)
    assert row["detectable_floor"] == pytest.approx(detectable_difference(math.sqrt(spread / 80)), rel=1e-9)
    assert row["noise_share"] == pytest.approx(noise / total, rel=1e-9)
    se_fixed = summarize(a, [k]).results[0].se_fixed
    assert row["detectable_fixed"] == pytest.approx(detectable_difference(se_fixed), rel=1e-9)


def test_differences_that_are_all_noise_have_no_floor():
    # Both runs 5/10 on every problem: no true difference varies, the estimates all equal.
    a, b = run([5, 4, 6, 5]), run([5, 6, 4, 5])
    (row,) = planned(a, b, [1])
    assert row["detectable_floor"] == 0.0 and row["noise_share"] == 1.0
    assert "look like sampling noise alone" in " ".join(row["sentences"])


def test_too_few_samples_for_the_noise_say_why_and_still_plan_samples():
    (row,) = planned(run([3, 7, 5, 9]), run([2, 7, 4, 10]), [6], difference=0.05)
    assert row["detectable_fixed"] is None and row["detectable_floor"] is None
    assert ("What more samples buy at pass@6 is known only when every paired problem has at least 12 samples "
            "in both runs.") in row["sentences"]
    assert row["samples"] >= 12


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
