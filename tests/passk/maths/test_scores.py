"""max@k, avg@k and the spread across seeds (passk.maths.scores, passk.results.metrics' graded and avg@k tables) against exact
Fractions, brute force over every k-subset, pass@k, and the peers' own figures (each named with its source)."""

import math
from fractions import Fraction
from itertools import combinations
from statistics import mean

import pytest
from hypothesis import given, strategies as st

from oracles import exact_pass_at_k, nearest
from passk.results.benchmark import summarize
from passk.maths.estimator import pass_at_k
from passk.formats._core import Problem
from passk.results.metrics import average_table, graded_table
from passk.maths.scores import (_python_sums, exponent, max_at_k, max_at_k_cost, max_at_k_exact, score_sums,
                                sqrt_nearest)
from passk.writing.answers import to_json

scores = st.floats(0.0, 1.0, allow_subnormal=True)
grades = st.sampled_from([0.0, 0.25, 0.5, 0.65, 0.75, 1.0])


def scored(*rows, n=None):
    """Problems p0, p1, ... with these scores in sample order (c counts the scores of 1)."""
    return [Problem(f"p{i}", len(row), sum(score == 1.0 for score in row), scores=tuple(map(float, row)))
            for i, row in enumerate(rows)]


def brute_max(values, k):
    """The mean best of every k-subset, one by one, exactly."""
    subsets = list(combinations([Fraction(value) for value in values], k))
    return sum((max(subset) for subset in subsets), Fraction(0)) / len(subsets)


# max@k


@given(st.lists(scores, min_size=1, max_size=8), st.data())
def test_max_at_k_is_the_mean_best_of_every_k_subset(values, data):
    k = data.draw(st.integers(1, len(values)))
    assert max_at_k_exact(values, k) == brute_max(values, k)
    assert max_at_k(values, k) == nearest(brute_max(values, k))


@given(st.integers(1, 60), st.data())
def test_max_at_k_of_zeros_and_ones_is_pass_at_k(n, data):
    c = data.draw(st.integers(0, n))
    k = data.draw(st.integers(1, n))
    order = data.draw(st.permutations([1.0] * c + [0.0] * (n - c)))
    assert max_at_k_exact(order, k) == exact_pass_at_k(n, c, k)
    assert max_at_k(order, k) == pass_at_k(n, c, k)


@given(st.lists(scores, min_size=1, max_size=30))
def test_max_at_1_is_the_mean_score_and_max_at_n_the_best(values):
    assert max_at_k_exact(values, 1) == sum(map(Fraction, values), Fraction(0)) / len(values)
    assert max_at_k(values, len(values)) == max(values)


@given(st.lists(scores, min_size=2, max_size=30))
def test_max_at_k_grows_with_k(values):
    found = [max_at_k_exact(values, k) for k in range(1, len(values) + 1)]
    assert found == sorted(found)


def test_scorio_max_at_k_docstring_figures():
    # scorio dedc4154f6daf01af79416b8c93560ac4b0fb88e, scorio/eval/max_reward.py, max_at_k's examples at k = 2:
    # R = [[0,1,1,0,1], [1,1,0,1,1]] gives 0.95; R = [[0,1,2,2,1], [1,1,0,2,2]] with w = [0, 0.5, 1] gives 0.85
    binary = graded_table([(0.0, 1.0, 1.0, 0.0, 1.0), (1.0, 1.0, 0.0, 1.0, 1.0)], [2]).results[0]
    rewards = graded_table([(0.0, 0.5, 1.0, 1.0, 0.5), (0.5, 0.5, 0.0, 1.0, 1.0)], [2]).results[0]
    assert binary.estimate.value == 0.95 and rewards.estimate.value == 0.85


def test_max_at_k_needs_k_from_1_to_n_and_scores_from_0_to_1():
    with pytest.raises(ValueError, match="max@k needs 1 ≤ k ≤ n: k = 4 with n = 3 scores"):
        max_at_k([0.5, 0.5, 0.5], 4)
    with pytest.raises(ValueError, match="Sample 2 of a problem scores 1.5: each score must be a number from 0 to 1"):
        max_at_k([0.5, 1.5], 1)
    with pytest.raises(ValueError, match="scores nan"):
        max_at_k([math.nan], 1)


def test_max_at_k_cost_grows_with_n_and_is_nothing_where_k_passes_n():
    assert max_at_k_cost(10, 11) == 0
    assert max_at_k_cost(64, 8) < max_at_k_cost(1000, 8) < max_at_k_cost(20_000, 10_000)


# correct rounding of a square root


@given(st.integers(0, 2**130), st.integers(1, 2**130))
def test_sqrt_nearest_is_the_double_nearest_the_root(numerator, denominator):
    value, root = Fraction(numerator, denominator), sqrt_nearest(numerator, denominator)
    below, above = math.nextafter(root, 0.0), math.nextafter(root, math.inf)
    # the root lies between the midpoints to the neighbouring doubles (a tie goes to the even one)
    assert ((Fraction(below) + Fraction(root)) / 2) ** 2 <= value <= ((Fraction(root) + Fraction(above)) / 2) ** 2


def test_sqrt_nearest_of_squares_is_exact():
    assert sqrt_nearest(1, 36) == 1 / 6 and sqrt_nearest(9, 4) == 1.5 and sqrt_nearest(0, 7) == 0.0


# the sums every table reads


@given(st.lists(st.lists(st.one_of(grades, scores), min_size=3, max_size=3), min_size=1, max_size=6),
       st.lists(st.lists(grades, min_size=1, max_size=5), min_size=1, max_size=6))
def test_score_sums_are_the_same_at_once_and_one_by_one(seeds, ragged):
    for rows in (seeds, ragged, [[float(score == 1.0) for score in row] for row in ragged]):
        least = min(map(len, rows))
        ks = sorted({1, least})
        at_once, one_by_one = score_sums(rows, ks), _python_sums(rows, ks, len(set(map(len, rows))) == 1)
        scale = 2 ** (one_by_one.power - at_once.power)   # the same sums, over 2^power each
        for k in ks:
            assert [value * scale for value in at_once.first[k]] == one_by_one.first[k]
            assert [value * scale * scale for value in at_once.first_squares[k]] == one_by_one.first_squares[k]
        assert [value * scale for value in at_once.whole] == one_by_one.whole
        assert [value * scale for value in at_once.seeds] == one_by_one.seeds
        assert one_by_one.whole == [sum(Fraction(score) * 2**one_by_one.power for score in row) for row in rows]


def test_verdicts_and_quarters_are_summed_at_once_and_decimals_one_by_one():
    assert score_sums([(1.0, 0.0)], [1]).power == 0 and score_sums([(0.25, 0.5)], [1]).power == 2
    assert score_sums([(0.65, 1.0)], [1]).power == exponent([0.65]) == 53   # 0.65 is 5854679515581645 / 2^53


# the graded table


def test_the_mean_score_is_the_mean_over_problems_of_each_problems_mean():
    graded = graded_table([(1.0, 0.0, 0.5), (0.65,)], [1])
    assert graded.mean.value == nearest((Fraction(1, 2) + Fraction(0.65)) / 2)
    assert graded.results[0].estimate.value == graded.mean.value   # max@1 is the mean score


def test_max_at_k_over_problems_is_the_exact_mean_and_first_k_the_mean_best_of_the_first_k():
    rows = [(1.0, 0.0, 0.5, 0.25), (0.0, 1.0, 1.0, 0.75), (0.0, 0.0, 0.0, 0.5)]
    graded = graded_table(rows, [2, 4, 8])
    at_2, at_4, at_8 = graded.results
    assert at_2.estimate.value == nearest(sum(brute_max(row, 2) for row in rows) / 3)   # 23/36
    assert at_2.first_k == nearest(Fraction(2, 3)) and at_4.first_k == nearest(Fraction(5, 6))
    assert at_8.estimate is None and at_8.reason == ("max@8 is undefined: 3 problems have fewer than 8 samples, "
                                                     "and every problem needs n ≥ 8.")


def test_nemo_skills_pass_at_k_of_graded_scores_is_passks_first_k_max():
    # NeMo-Skills 0b012df8a09cd4730d31b16e90a0d8f13d145fb8, nemo_skills/evaluation/metrics/base.py
    # (_compute_pass_at_k: max(scores_list[:k]) for scores that are not 0/1), run on these three problems:
    # pass@2 66.66666666666667, pass@3 66.66666666666667, pass@4 83.33333333333333 (percent).
    graded = graded_table([(1.0, 0.0, 0.5, 0.25), (0.0, 1.0, 1.0, 0.75), (0.0, 0.0, 0.0, 0.5)], [2, 3, 4])
    assert [100 * row.first_k for row in graded.results] == pytest.approx([66.66666666666667, 66.66666666666667,
                                                                           83.33333333333333], rel=1e-15)


def test_a_k_past_the_work_is_left_to_the_command_line():
    graded = graded_table([(0.5, 1.0, 0.25)] * 4, [1, 2], work=0.0)
    assert all(row.estimate is None for row in graded.results)
    assert graded.results[1].reason == ("max@2 is not computed here: its sums would take about 0.0 s for these 1 "
                                        "different set of scores; the passk command computes it without limits "
                                        "(`passk FILES -k 2`).")


# avg@k and the seeds


def test_avg_at_k_is_the_mean_of_the_first_k_scores():
    rows = [(1.0, 0.0, 0.5, 0.25), (0.0, 1.0, 1.0, 0.75), (0.0, 0.0, 0.0, 0.5)]
    averages = average_table(rows, [1, 3, 4])
    assert [row.estimate.value for row in averages.results] == [
        nearest(sum(sum(map(Fraction, row[:k])) / k for row in rows) / 3) for k in (1, 3, 4)]


def test_lighteval_avg_at_k_cases():
    # lighteval 3fd15266bc8448b797e61462d293aa3fd40b3580, tests/unit/metrics/test_cases/avg_at_k.json: the answers
    # scored 1 where they match the gold, in order; expected avg@k:k=2 0.5, avg@k:k=1 0.0, avg@k:k=3 0.33
    for row, k, expected in [((1.0, 0.0, 0.0), 2, 0.5), ((0.0, 0.0, 1.0), 1, 0.0), ((0.0, 1.0, 0.0, 0.0), 3, 0.33)]:
        assert average_table([row], [k]).results[0].estimate.value == pytest.approx(expected, abs=0.01)


def test_the_spread_across_seeds_is_the_sample_sd_of_the_seeds_means():
    # NeMo-Skills 0b012df8a09cd4730d31b16e90a0d8f13d145fb8, nemo_skills/evaluation/metrics/base.py (_add_std_metrics,
    # np.std(..., ddof=1)), run on its docstring's example [[1,0,1,0], [1,1,0,0], [0,1,1,1]]: at k = 4
    # std_dev_across_runs 0.16666666666666666, std_err_across_runs 0.08333333333333333, avg_sample_std_dev
    # 0.5515668461264172; at k = 3 0.0, 0.0 and 0.5773502691896258, one ulp above the double nearest sqrt(1/3), which
    # passk gives. (The docstring says 0.1925 at k = 4; its code gives 1/6.)
    averages = average_table([(1.0, 0.0, 1.0, 0.0), (1.0, 1.0, 0.0, 0.0), (0.0, 1.0, 1.0, 1.0)], [1, 3, 4])
    assert averages.seeds == 4
    at_1, at_3, at_4 = averages.results
    assert (at_1.seeds_sd, at_1.seeds_se, at_1.within_sd) == (None, None, None)   # one seed has no spread
    assert (at_3.seeds_sd, at_3.seeds_se, at_3.within_sd) == (0.0, 0.0, math.nextafter(0.5773502691896258, 0))
    assert (at_4.seeds_sd, at_4.seeds_se, at_4.within_sd) == (0.16666666666666666, 0.08333333333333333,
                                                              0.5515668461264172)


def test_graded_seeds_spread_is_correctly_rounded_where_numpy_is_one_ulp_off():
    # NeMo-Skills (as above) on [[1,0,0.5,0.25], [0,1,1,0.75], [0,0,0,0.5]] at k = 4: std_dev_across_runs
    # 0.09622504486493764 and std_err_across_runs 0.04811252243246882, each one ulp above the double nearest
    # sqrt(1/108) and sqrt(1/432), which passk gives; avg_sample_std_dev 0.3833995480216687 alike.
    at_4 = average_table([(1.0, 0.0, 0.5, 0.25), (0.0, 1.0, 1.0, 0.75), (0.0, 0.0, 0.0, 0.5)], [4]).results[0]
    assert at_4.seeds_sd == sqrt_nearest(1, 108) == math.nextafter(0.09622504486493764, 0)
    assert at_4.seeds_se == sqrt_nearest(1, 432) == math.nextafter(0.04811252243246882, 0)
    assert at_4.within_sd == 0.3833995480216687


@given(st.lists(st.lists(grades, min_size=4, max_size=4), min_size=2, max_size=6))
def test_seeds_spread_agrees_with_exact_arithmetic(rows):
    at_4 = average_table(rows, [4]).results[0]
    means = [sum(map(Fraction, seed)) / len(rows) for seed in zip(*rows)]
    centre = mean(means)
    variance = sum((value - centre) ** 2 for value in means) / 3
    assert at_4.seeds_sd == sqrt_nearest(variance.numerator, variance.denominator)
    assert at_4.seeds_se == sqrt_nearest(variance.numerator, 4 * variance.denominator)


def test_no_spread_across_seeds_where_the_problems_n_differ():
    averages = average_table([(1.0, 0.0, 1.0), (0.5, 0.5)], [1, 2])
    assert averages.seeds is None and averages.results[1].seeds_sd is None
    assert averages.results[1].estimate.value == 0.5


# what a benchmark's summary shows


def test_graded_scores_bring_the_mean_score_and_max_at_k():
    summary = summarize(scored((1.0, 0.65), (0.0, 0.5)), [1, 2])
    assert summary.graded is not None and summary.averages is not None
    assert summary.graded.mean.value == nearest((Fraction(1.65) / 2 + Fraction(1, 4)) / 2)


def test_zero_one_scores_bring_avg_at_k_but_no_graded_table():
    summary = summarize(scored((1.0, 0.0, 1.0), (0.0, 0.0, 1.0)), [1, 2])
    assert summary.graded is None
    assert [row.estimate.value for row in summary.averages.results] == [0.5, 0.25]   # (1 + 0)/2, (1/2 + 0)/2
    assert "graded" not in to_json(summary, "x") and to_json(summary, "x")["avg_at_k"]["seeds"] == 3


def test_problems_without_scores_have_neither():
    summary = summarize([Problem("a", 3, 1), Problem("b", 3, 2)], [1])
    assert summary.graded is None and summary.averages is None
    assert "avg_at_k" not in to_json(summary, "x")


def test_one_sample_each_has_a_mean_score_but_no_avg_at_k():
    summary = summarize(scored((0.5,), (0.75,)), [1])
    assert summary.averages is None and summary.graded.mean.value == 0.625


def test_a_score_outside_0_to_1_is_refused_naming_the_problem():
    with pytest.raises(ValueError, match="Sample 1 of problem p0 scores 2.0: each score must be a number from 0 to 1"):
        summarize([Problem("p0", 1, 0, scores=(2.0,))], [1])
