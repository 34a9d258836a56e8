"""pass@k over a benchmark, its standard errors and the paired comparison, against exact arithmetic."""

import json
import math
import statistics
from collections import namedtuple
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings, strategies as st

from passk.results.benchmark import compare, pairwise_sum, parse_ks, summarize
from passk.maths.estimator import DEFAULT_KS
from passk.maths.variance import estimate_variance
from passk.formats import Problem
from passk.maths.stats import t_quantile
from passk.writing.answers import per_problem_rows
from passk.writing.answers import to_json

import oracles


# --- exact references, written plainly ---------------------------------------------------------

def exact_pass_at_k(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_variance(n, c, k):
    """V = A(k)^2 - A(2k), A(j) = C(n-c, j) / C(n, j)."""
    def none_pass(j):
        return Fraction(math.comb(n - c, j), math.comb(n, j))
    return none_pass(k) ** 2 - none_pass(2 * k)


def relative_error(value, exact):
    return abs(Fraction(value) - exact) / exact if exact else abs(Fraction(value))


def make_problems(counts):
    return [Problem(f"task/{i}", n, c) for i, (n, c) in enumerate(counts)]


@st.composite
def benchmarks(draw, max_n=60, max_problems=25):
    """A list of (n, c) and a few ks, some of which may exceed some n."""
    counts = draw(st.lists(st.integers(1, max_n).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
                           min_size=1, max_size=max_problems))
    ks = draw(st.lists(st.integers(1, max_n), min_size=1, max_size=4))
    return counts, ks


def result_for(summary, k):
    return next(row for row in summary.results if row.k == k)


# --- the worked example and the mean -----------------------------------------------------------

def test_worked_example_two_problems_n10_k5_with_c3_and_c0_is_45_83_percent():
    summary = summarize([Problem("a", 10, 3), Problem("b", 10, 0)], ks=[5])
    row = result_for(summary, 5)
    assert row.pass_at_k == pytest.approx(float(Fraction(11, 12) / 2), rel=1e-15)
    assert round(100 * row.pass_at_k, 2) == 45.83
    assert per_problem_rows(summary)[0]["pass_at_k"]["5"] == pytest.approx(11 / 12, rel=1e-15)
    assert per_problem_rows(summary)[1]["pass_at_k"]["5"] == 0.0


@settings(max_examples=150, deadline=None)
@given(benchmarks())
def test_pass_at_k_is_the_mean_of_the_exact_per_problem_values(benchmark):
    counts, ks = benchmark
    summary = summarize(make_problems(counts), ks)
    for k in summary.ks:
        row = result_for(summary, k)
        if all(n >= k for n, _ in counts):
            exact = sum(exact_pass_at_k(n, c, k) for n, c in counts) / len(counts)
            assert relative_error(row.pass_at_k, exact) <= 1e-13
        else:
            assert row.pass_at_k is None
        for problem, (n, c) in zip(per_problem_rows(summary), counts):
            value = problem["pass_at_k"][str(k)]
            if n < k:
                assert value is None
            else:
                assert relative_error(value, exact_pass_at_k(n, c, k)) <= 1e-13


@settings(max_examples=150, deadline=None)
@given(benchmarks())
def test_se_is_the_sample_sd_over_root_p_and_the_interval_is_the_mid_p_at_the_effective_trials(benchmark):
    counts, ks = benchmark
    assume(len(counts) >= 2)
    summary = summarize(make_problems(counts), ks)
    for k in summary.ks:
        row = result_for(summary, k)
        if row.pass_at_k is None:
            assert row.se is None and row.ci95 is None
            continue
        values = [exact_pass_at_k(n, c, k) for n, c in counts]
        mean, trials = oracles.population_trials(values)
        variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
        assert row.se == pytest.approx(math.sqrt(variance / len(values)), rel=1e-10, abs=1e-15)
        oracles.assert_is_midp_interval(row.ci95, float(mean) * trials, trials)


@settings(max_examples=40, deadline=None)
@given(benchmarks(max_n=30, max_problems=12))
def test_fixed_benchmark_se_is_root_sum_of_the_posterior_expected_variances_over_p(benchmark):
    counts, ks = benchmark
    summary = summarize(make_problems(counts), ks)
    prior = oracles.fit_prior(counts)
    for k in summary.ks:
        row = result_for(summary, k)
        if row.pass_at_k is None:
            assert row.se_fixed is None
        elif all(n >= 2 * k for n, _ in counts):
            total = sum(oracles.posterior_variance(n, c, k, prior) for n, c in counts)
            assert row.se_fixed == pytest.approx(math.sqrt(total) / len(counts), rel=1e-9, abs=1e-300)
            assert row.reason is None
            mean = sum(exact_pass_at_k(n, c, k) for n, c in counts) / len(counts)
            trials = float(oracles.capped_trials(mean, Fraction(row.se_fixed) ** 2, Fraction(sum(n for n, _ in counts), k)))
            # The interval's trials are mean (1 - mean) / SE^2 with the mean a double: 1 - mean then carries a
            # relative error of about 1e-16 / (1 - mean), and the ends follow it (pass@13 of 13 in 26 is 1 - 1e-7).
            conditioning = 1e-15 / float(min(mean, 1 - mean)) if 0 < mean < 1 else 0.0
            oracles.assert_is_midp_interval(row.ci95_fixed, float(mean) * trials, trials,
                                            tolerance=max(1e-9, conditioning))
        else:
            assert row.se_fixed is None and row.ci95_fixed is None
            assert f"needs n ≥ {2 * k}" in row.reason


def test_a_problem_that_never_passed_still_has_sampling_noise():
    """The unbiased estimate says 0 for c = 0 (issue 14): the posterior keeps what the other problems make likely."""
    counts = [(20, 0), (20, 3), (20, 10), (20, 17)]
    summary = summarize(make_problems(counts), [10])
    prior = oracles.fit_prior(counts)
    assert float(estimate_variance([20], [0], 10)[0]) == 0.0
    alone = oracles.posterior_variance(20, 0, 10, prior)
    assert alone > 1e-3
    total = sum(oracles.posterior_variance(n, c, 10, prior) for n, c in counts)
    assert result_for(summary, 10).se_fixed == pytest.approx(math.sqrt(total) / 4, rel=1e-9)


@st.composite
def large_counts(draw):
    """(n, c, k) with n up to 10^12, 2k <= n, and exact binomials still cheap."""
    n = draw(st.one_of(st.integers(2, 10**6), st.integers(2, 10**12)))
    k = draw(st.integers(1, min(n // 2, 80)))
    c = draw(st.one_of(st.integers(0, min(n, 80)), st.integers(max(0, n - 80), n), st.integers(0, n)))
    assume(min(c, k) <= 80 or n <= 3000)
    return n, c, k


@settings(max_examples=200, deadline=None)
@given(large_counts())
def test_each_problems_variance_estimate_matches_exact_arithmetic(counts):
    n, c, k = counts
    exact = exact_variance(n, c, k)
    value = float(estimate_variance([n], [c], k)[0])
    assert value >= 0
    if exact < 1e-290:  # below the normal doubles: only closeness to zero is meaningful
        assert value < 1e-280
    else:
        # exp of a log: an error of 1e-13 relative in log V becomes 1e-13 |log V| in V.
        assert relative_error(value, exact) <= 1e-12 + 1e-13 * abs(math.log(exact))


@pytest.mark.parametrize("n, c, k", [(10**7, 1100, 1100), (10**6, 1500, 1030), (2 * 10**6, 5000, 1025),
                                     (10**5, 2000, 1500)])
def test_variance_estimate_of_long_products_keeps_about_1e_16_n_over_k(n, c, k):
    error = relative_error(float(estimate_variance([n], [c], k)[0]), exact_variance(n, c, k))
    assert error <= 1e-13 + 1e-15 * n / k


def test_variance_estimate_is_zero_for_broken_and_solid_problems():
    assert estimate_variance([10, 10, 200], [0, 10, 200], 3).tolist() == [0.0, 0.0, 0.0]


# --- undefined k, the reasons and the warnings -------------------------------------------------

def test_k_above_some_n_is_undefined_naming_how_many_and_which():
    problems = [Problem("a", 10, 3), Problem("b", 3, 1), Problem("c", 5, 0)]
    row = result_for(summarize(problems, ks=[10]), 10)
    assert (row.pass_at_k, row.se, row.ci95, row.se_fixed) == (None, None, None, None)
    assert row.reason == ("pass@10 is undefined: 2 of 3 problems have fewer than 10 samples (b, c), "
                          "and every problem needs n ≥ 10.")


def test_one_short_problem_is_named_in_the_singular():
    row = result_for(summarize([Problem("a", 10, 3), Problem("b", 3, 1)], ks=[5]), 5)
    assert "1 of 2 problems has fewer than 5 samples (b)" in row.reason


def test_reason_says_all_when_every_problem_is_short():
    row = result_for(summarize([Problem("a", 1, 1), Problem("b", 1, 0)], ks=[10]), 10)
    assert row.reason.startswith("pass@10 is undefined: all 2 problems have fewer than 10 samples (a, b)")


def test_reason_names_five_task_ids_then_how_many_more():
    problems = [Problem(f"HumanEval/{i}", 1, 0) for i in range(12)] + [Problem("long", 100, 5)]
    row = result_for(summarize(problems, ks=[10]), 10)
    assert "12 of 13 problems have fewer than 10 samples" in row.reason
    assert "(HumanEval/0, HumanEval/1, HumanEval/2, HumanEval/3, HumanEval/4 and 7 more)" in row.reason


def test_per_problem_pass_at_k_is_none_only_where_n_is_below_k():
    summary = summarize([Problem("a", 10, 3), Problem("b", 3, 1)], ks=[1, 5])
    assert per_problem_rows(summary)[0]["pass_at_k"] == {"1": pytest.approx(0.3), "5": pytest.approx(11 / 12)}
    assert per_problem_rows(summary)[1]["pass_at_k"] == {"1": pytest.approx(1 / 3), "5": None}


def test_fixed_benchmark_se_is_missing_when_some_n_is_below_2k_and_says_why():
    row = result_for(summarize([Problem("a", 10, 3), Problem("b", 7, 1)], ks=[4]), 4)
    assert row.pass_at_k is not None and row.se is not None
    assert row.se_fixed is None
    assert row.reason == "The fixed-benchmark SE for k = 4 needs n ≥ 8: 1 of 2 problems has fewer samples (b)."


def test_n_equal_to_1_everywhere_warns_that_pass_at_1_is_one_sample_each():
    summary = summarize([Problem("a", 1, 1), Problem("b", 1, 0)])
    assert any(warning.startswith("n = 1 for every problem: pass@k for k > 1 is undefined")
               for warning in summary.warnings)
    assert [row.pass_at_k for row in summary.results] == [0.5, None, None]


def test_n_differing_across_problems_warns_with_the_smallest_and_largest_n():
    summary = summarize([Problem("a", 200, 3), Problem("b", 20, 1)])
    assert summary.warnings == ["n differs across problems (from 20 to 200 samples): pass@k for k above 20 is "
                                "undefined, and problems with more samples have more precise estimates."]


def test_same_n_everywhere_gives_no_warning():
    assert summarize([Problem("a", 200, 3), Problem("b", 200, 1)]).warnings == []


def test_reader_warnings_are_passed_through_first():
    reader = ["Task a appears twice; its samples were added together."]
    summary = summarize([Problem("a", 200, 3), Problem("b", 20, 1)], warnings=reader)
    assert summary.warnings[0] == reader[0]
    assert len(summary.warnings) == 2


def test_single_problem_has_no_se_across_problems_and_a_warning():
    summary = summarize([Problem("a", 200, 3)], ks=[1])
    row = result_for(summary, 1)
    assert row.pass_at_k == pytest.approx(3 / 200)
    assert row.se is None and row.ci95 is None
    assert row.se_fixed is not None
    assert "Only one problem" in " ".join(summary.warnings)


def test_no_problems_is_an_error():
    with pytest.raises(ValueError, match="^No problems: "):
        summarize([])


@pytest.mark.parametrize("problem, message", [
    (Problem("bad", 10, 11), r"Problem bad: c must be from 0 to n \(10\); got n = 10, c = 11\."),
    (Problem("bad", 0, 0), r"Problem bad: n must be from 1 to 1,000,000,000,000; got n = 0, c = 0\."),
    (Problem("bad", 10, -1), r"Problem bad: c must be from 0 to n \(10\)"),
    (Problem("bad", 10**13, 1), r"Problem bad: n must be from 1 to 1,000,000,000,000"),
    (Problem("bad", 10.0, 1), r"Problem bad: n must be a whole number"),
    (Problem("bad", 10, True), r"Problem bad: c must be a whole number"),
    (Problem("bad", 10**30, 1), r"Problem bad: n must be from 1 to 1,000,000,000,000; got 1,000,"),
    (Problem("bad", 10, -10**30), r"Problem bad: c must be from 0 to 1,000,000,000,000; got -1,000,"),
    (Problem("bad", "10", 1), r"Problem bad: n must be a whole number; got '10'\."),
])
def test_invalid_counts_are_refused_naming_the_problem(problem, message):
    with pytest.raises(ValueError, match=message):
        summarize([Problem("good", 10, 1), problem])


@pytest.mark.parametrize("ks, message", [
    ([0], "k must be a whole number from 1"),
    ([1.5], "k must be a whole number from 1"),
    ([10**13], "k must be a whole number from 1"),
    ([], "No k given"),
    (range(1, 22), r"Too many k values \(21\)"),
])
def test_invalid_ks_are_refused(ks, message):
    with pytest.raises(ValueError, match=message):
        summarize([Problem("a", 10, 1)], ks)


def test_ks_are_sorted_and_distinct():
    assert summarize([Problem("a", 10, 1)], [5, 1, 5]).ks == [1, 5]


def test_default_ks_are_1_10_100():
    assert DEFAULT_KS == (1, 10, 100)
    assert summarize([Problem("a", 200, 1)]).ks == [1, 10, 100]


def test_counts_of_problems_samples_and_statuses():
    summary = summarize([Problem("a", 10, 0), Problem("b", 10, 4), Problem("c", 20, 20), Problem("d", 5, 0)])
    assert (summary.samples, summary.min_n, summary.max_n) == (45, 5, 20)
    assert (summary.broken, summary.flaky, summary.solid) == (2, 1, 1)
    assert [problem["status"] for problem in per_problem_rows(summary)] == ["broken", "flaky", "solid", "broken"]


def test_the_interval_stays_between_0_and_1_where_mean_plus_or_minus_t_se_would_leave_it():
    row = result_for(summarize([Problem("a", 10, 10), Problem("b", 10, 0), Problem("c", 10, 10)], ks=[1]), 1)
    half_width = t_quantile(0.975, 2) * row.se
    assert row.pass_at_k - half_width < 0 and row.pass_at_k + half_width > 1
    assert 0.0 < row.ci95[0] < row.pass_at_k < row.ci95[1] < 1.0


def test_identical_problems_have_zero_se_but_not_a_point_interval():
    """Four problems that agree do not pin the mean of problems like them: the trials are capped at
    P (1 + (P min(mean, 1 - mean) / (1/4))^2) = 4 (1 + 4.8^2)."""
    row = result_for(summarize([Problem("a", 10, 3)] * 4, ks=[1]), 1)
    assert row.se == 0.0
    trials = float(oracles.capped_trials(Fraction(3, 10), 0, 4)) * (oracles.Z / oracles.t_975(3)) ** 2
    assert trials == pytest.approx(4 * (1 + 4.8**2) * (oracles.Z / oracles.t_975(3)) ** 2)
    oracles.assert_is_midp_interval(row.ci95, 0.3 * trials, trials)
    assert row.ci95[0] < 0.3 < row.ci95[1]


def test_any_object_with_task_id_n_and_c_is_a_problem():
    Counts = namedtuple("Counts", "task_id n c")
    assert result_for(summarize([Counts("x", 4, 2)], [1]), 1).pass_at_k == 0.5


# --- JSON ---------------------------------------------------------------------------------------

def test_benchmark_json_has_the_api_shape():
    summary = summarize([Problem("a", 10, 3), Problem("b", 3, 1)], ks=[1, 5], warnings=["w"])
    body = to_json(summary, "csv")
    json.dumps(body, allow_nan=False)
    assert {"problems", "format", "results", "per_problem", "warnings"} <= set(body)
    assert (body["problems"], body["format"]) == (2, "csv")
    assert body["warnings"][0] == "w"
    defined, undefined = body["results"]
    assert {"k", "pass_at_k", "se", "ci95", "se_fixed", "ci95_fixed", "coverage_note", "reason", "pass_hat_k",
            "pass_hat_k_se", "pass_hat_k_ci95", "pass_hat_k_se_fixed", "pass_hat_k_ci95_fixed"} <= set(defined)
    # (every key, in order, is tests/passk/writing/test_columns.py's API_KEYS)
    assert isinstance(defined["ci95"], list) and len(defined["ci95"]) == 2
    assert undefined["pass_at_k"] is None and undefined["ci95"] is None and undefined["reason"]
    row = body["per_problem"][1]
    assert {name: row[name] for name in ("task_id", "n", "c", "status", "pass_at_k", "pass_hat_k")} == {
        "task_id": "b", "n": 3, "c": 1, "status": "flaky",
        "pass_at_k": {"1": pytest.approx(1 / 3), "5": None}, "pass_hat_k": {"1": pytest.approx(1 / 3), "5": None}}
    assert (body["samples"], body["min_n"], body["max_n"]) == (13, 3, 10)
    assert body["status"] == {"broken": 0, "flaky": 2, "solid": 0}


def test_a_million_problems_are_summarized():
    """Speed is measured in bench/, not asserted here (a busy machine must not fail the suite)."""
    shapes = [Problem(f"task/{c}", 200, c) for c in range(201)]
    problems = shapes * (10**6 // len(shapes) + 1)
    summary = summarize(problems[:10**6])
    assert result_for(summary, 1).pass_at_k == pytest.approx(0.5, abs=1e-3)


# --- k lists ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ks", [
    ("1,10,100", [1, 10, 100]),
    ("1, 5 10", [1, 5, 10]),
    (" 10 1 10 ", [1, 10]),
    ("100;1", [1, 100]),
    ("1,,2", [1, 2]),
    ("007", [7]),
    ("1000000000000", [10**12]),
    (",".join(map(str, range(1, 21))), list(range(1, 21))),
])
def test_parse_ks_accepts_whole_numbers_separated_by_commas_or_spaces(text, ks):
    assert parse_ks(text) == ks


@pytest.mark.parametrize("text, message", [
    ("", "No k given"),
    (" , ", "No k given"),
    ("abc", "k must be a whole number, and 'abc' is not one"),
    ("1.5", "k must be a whole number, and '1.5' is not one"),
    ("1e3", "k must be a whole number"),
    ("١٢", "k must be a whole number"),
    ("0", "k must be at least 1; got 0"),
    ("-1", "k must be at least 1; got -1"),
    ("1000000000001", "k must be at most 10"),
    ("9" * 5000, "k must be at most 10"),
    (",".join(map(str, range(1, 22))), r"Too many k values \(21\): give at most 20"),
])
def test_parse_ks_refuses_anything_else_with_a_sentence(text, message):
    with pytest.raises(ValueError, match=message):
        parse_ks(text)


# --- comparing two runs -------------------------------------------------------------------------

RUN_A = [Problem("a", 10, 3), Problem("b", 10, 5), Problem("c", 10, 1), Problem("x", 10, 1)]
RUN_B = [Problem("a", 10, 1), Problem("b", 10, 5), Problem("y", 3, 3), Problem("c", 10, 0)]


def test_compare_pairs_by_task_id_and_lists_the_unpaired():
    comparison = compare(RUN_A, RUN_B, ks=[1, 5])
    assert comparison.paired == 3
    assert (comparison.only_in_a, comparison.only_in_b) == (["x"], ["y"])
    assert [row["task_id"] for row in comparison.per_problem] == ["a", "b", "c"]


def test_compare_difference_se_interval_and_p_value_on_a_worked_example():
    one, five = compare(RUN_A, RUN_B, ks=[1, 5]).results
    # k = 1: differences 0.2, 0, 0.1 -> mean 0.1, sd 0.1, t = sqrt(3) on 2 degrees of freedom,
    # where P(|T| > t) = 1 - t / sqrt(2 + t^2) exactly.
    assert (one.a, one.b) == (pytest.approx(0.3), pytest.approx(0.2))
    assert one.difference == pytest.approx(0.1, rel=1e-14)
    assert one.se == pytest.approx(0.1 / math.sqrt(3), rel=1e-14)
    # Three problems: even 100 points on each would not reach p < 0.05, and the interval says as much.
    assert one.test == "mover" and one.p_value > 0.05
    assert one.reason.startswith("Too few problems for any conclusion: with 3 paired problems")
    assert one.ci95[0] < 0 < 0.1 < one.ci95[1]
    # k = 5: differences 11/12 - 1/2, 0, 1/2 - 0; y (n = 3) is unpaired so does not make k = 5 undefined.
    differences = [float(Fraction(5, 12)), 0.0, 0.5]
    se = statistics.stdev(differences) / math.sqrt(3)
    assert five.difference == pytest.approx(float(Fraction(11, 36)), rel=1e-14)
    assert five.se == pytest.approx(se, rel=1e-13)
    assert five.p_value > 0.05 and five.ci95[0] < 0 < five.ci95[1]


@st.composite
def paired_runs(draw):
    size = draw(st.integers(2, 40))
    def run():
        return [Problem(f"t{i}", n, c) for i, (n, c) in enumerate(draw(st.lists(
            st.integers(5, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
            min_size=size, max_size=size)))]
    return run(), run(), draw(st.integers(1, 5))


@settings(max_examples=100, deadline=None)
@given(paired_runs())
def test_compare_gives_the_mean_difference_and_the_trinomial_interval_with_its_p_value(runs):
    run_a, run_b, k = runs
    row = compare(run_a, run_b, ks=[k]).results[0]
    exact = [exact_pass_at_k(a.n, a.c, k) - exact_pass_at_k(b.n, b.c, k) for a, b in zip(run_a, run_b)]
    count = len(exact)
    mean = sum(exact) / count
    assert row.difference == pytest.approx(float(mean), rel=1e-12, abs=1e-15)
    assert row.a - row.b == pytest.approx(row.difference, abs=1e-14)
    variance = sum((d - mean) ** 2 for d in exact) / (count - 1)
    assert row.se == pytest.approx(math.sqrt(variance / count), rel=1e-9, abs=1e-15)
    assert row.test == "mover"
    low, high = row.ci95
    assert low <= row.difference + 1e-12 and row.difference - 1e-12 <= high
    assert -1 <= low and high <= 1
    if abs(row.p_value - 0.05) > 1e-7:
        assert (low > 0 or high < 0) == (row.p_value < 0.05)


def test_identical_runs_differ_by_zero_with_p_value_1():
    row = compare(RUN_A, RUN_A, ks=[1]).results[0]
    assert (row.difference, row.se, row.p_value) == (0.0, 0.0, 1.0)
    assert row.ci95[0] < 0 < row.ci95[1]   # three problems say little: a wide interval, not a point


def test_two_problems_with_one_difference_are_no_certainty():
    """The issue's example: 10 3 / 10 5 against 10 4 / 10 6 once gave SE 0, an interval of one point and p = 0."""
    better = [Problem("a", 10, 4), Problem("b", 10, 6)]
    worse = [Problem("a", 10, 3), Problem("b", 10, 5)]
    row = compare(better, worse, ks=[1]).results[0]
    assert row.difference == pytest.approx(0.1) and row.se < 1e-16
    assert row.p_value > 0.05 and row.ci95[0] < 0 < row.ci95[1] and row.test == "mover"
    assert row.reason.startswith("Too few problems for any conclusion: with 2 paired problems")


@pytest.mark.parametrize("count", [21, 40])
def test_a_constant_difference_over_many_problems_is_found_with_an_interval_around_it(count):
    better = [Problem(f"t{i}", 10, 4) for i in range(count)]
    worse = [Problem(f"t{i}", 10, 3) for i in range(count)]
    row = compare(better, worse, ks=[1]).results[0]
    assert row.test == "mover" and row.p_value < 1e-6
    assert 0 < row.ci95[0] < 0.1 < row.ci95[1] < 0.2


@pytest.mark.parametrize("count", [21, 30, 164])
def test_runs_that_agree_on_every_problem_get_the_rule_of_three_not_a_point(count):
    """All d_i = 0: q+ = q- = 0, each with the mid-p upper end 1 - 0.05^(1/m), m = P (z / t)^2; MOVER adds
    nothing from the zero sides, so the interval is that end either way."""
    run = [Problem(f"t{i}", 10, i % 11) for i in range(count)]
    row = compare(run, run, ks=[1]).results[0]
    trials = count * (oracles.Z / oracles.t_975(count - 1)) ** 2
    end = 1 - 0.05 ** (1 / trials)
    assert row.ci95 == (pytest.approx(-end, rel=1e-12), pytest.approx(end, rel=1e-12))
    assert (row.difference, row.p_value, row.test) == (0.0, 1.0, "mover")


def test_compare_k_above_a_paired_n_is_undefined_naming_the_problem():
    row = compare([Problem("a", 10, 3), Problem("b", 4, 1)], [Problem("a", 10, 1), Problem("b", 10, 1)],
                  ks=[5]).results[0]
    assert (row.a, row.b, row.difference, row.se, row.ci95, row.p_value) == (None,) * 6
    assert row.reason == "pass@5 is undefined: 1 of 2 paired problems has fewer than 5 samples in run A or B (b)."


def test_compare_with_one_paired_problem_has_no_se():
    row = compare([Problem("a", 10, 3)], [Problem("a", 10, 1), Problem("z", 10, 1)], ks=[1]).results[0]
    assert row.difference == pytest.approx(0.2)
    assert (row.se, row.ci95, row.p_value) == (None, None, None)
    assert "Only one problem is paired" in row.reason


def test_compare_json_has_the_api_shape():
    body = to_json(compare(RUN_A, RUN_B, ks=[1]))
    json.dumps(body, allow_nan=False)
    assert {"paired", "only_in_a", "only_in_b", "results"} <= set(body)
    assert {"k", "a", "b", "difference", "se", "ci95", "p_value"} <= set(body["results"][0])
    assert isinstance(body["results"][0]["ci95"], list)


@pytest.mark.parametrize("run_a, run_b, message", [
    ([], RUN_B, "No problems in run A"),
    (RUN_A, [], "No problems in run B"),
    ([Problem("p", 10, 1)], [Problem("q", 10, 1)], "No task ids in common"),
    ([Problem("a", 10, 1), Problem("a", 10, 2)], RUN_B, "Run A lists task a twice"),
])
def test_compare_refuses_runs_that_cannot_be_paired(run_a, run_b, message):
    with pytest.raises(ValueError, match=message):
        compare(run_a, run_b)


# --- pass^k: all k samples pass (Yao et al. 2024, arXiv:2406.12045) ------------------------------

def exact_pass_hat_k(n, c, k):
    return Fraction(math.comb(c, k), math.comb(n, k))


def exact_pass_hat_variance(n, c, k):
    """B(k)^2 - B(2k), B(j) = C(c, j)/C(n, j): pass@k's V with passes and failures swapped."""
    return exact_pass_hat_k(n, c, k) ** 2 - exact_pass_hat_k(n, c, 2 * k)


@settings(max_examples=40, deadline=None)
@given(benchmarks(max_n=30, max_problems=12))
def test_pass_hat_k_is_the_mean_of_exact_per_problem_values_with_the_same_error_bars(benchmark):
    counts, ks = benchmark
    summary = summarize(make_problems(counts), ks)
    for k in summary.ks:
        row = result_for(summary, k)
        for problem, (n, c) in zip(per_problem_rows(summary), counts):
            value = problem["pass_hat_k"][str(k)]
            assert value is None if n < k else relative_error(value, exact_pass_hat_k(n, c, k)) <= 1e-13
        if row.pass_at_k is None:
            assert row.pass_hat is None and to_json(row)["pass_hat_k"] is None
            continue
        hat = row.pass_hat
        values = [exact_pass_hat_k(n, c, k) for n, c in counts]
        assert relative_error(hat.pass_at_k, sum(values) / len(values)) <= 1e-13
        if len(counts) >= 2:
            mean = sum(values) / len(values)
            variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
            assert hat.se == pytest.approx(math.sqrt(variance / len(values)), rel=1e-10, abs=1e-15)
            _, trials = oracles.population_trials(values)
            oracles.assert_is_midp_interval(hat.ci95, float(mean) * trials, trials)
        if all(n >= 2 * k for n, _ in counts):
            swapped = oracles.fit_prior(counts)[::-1]   # pass^k is pass@k of the failures
            exact = math.sqrt(sum(oracles.posterior_variance(n, n - c, k, swapped) for n, c in counts)) / len(counts)
            assert hat.se_fixed == pytest.approx(exact, rel=1e-9, abs=1e-15)
        else:
            assert hat.se_fixed is None
        body = to_json(row)
        assert (body["pass_hat_k"], body["pass_hat_k_se"], body["pass_hat_k_se_fixed"]) == (hat.pass_at_k, hat.se,
                                                                                            hat.se_fixed)
        assert body["pass_hat_k_ci95"] == (list(hat.ci95) if hat.ci95 else None)


@pytest.mark.parametrize("n, c, k", [(4, 2, 1), (6, 4, 2), (7, 5, 3), (8, 8, 2), (8, 0, 3)])
def test_pass_hat_k_variance_estimate_is_unbiased_under_binomial_sampling(n, c, k):
    """E[B(k)^2 - B(2k)] = Var B(k) exactly, c ~ Binomial(n, p), at p = 1/3 and 3/4 (c only names the case)."""
    for p in (Fraction(1, 3), Fraction(3, 4)):
        chance = [math.comb(n, j) * p**j * (1 - p)**(n - j) for j in range(n + 1)]
        mean = sum(w * exact_pass_hat_k(n, j, k) for j, w in enumerate(chance))
        assert mean == p**k
        variance = sum(w * exact_pass_hat_k(n, j, k) ** 2 for j, w in enumerate(chance)) - mean**2
        assert sum(w * exact_pass_hat_variance(n, j, k) for j, w in enumerate(chance)) == variance


@settings(max_examples=150, deadline=None)
@given(benchmarks())
def test_pass_hat_k_is_at_most_pass_at_1_which_is_at_most_pass_at_k_and_falls_with_k(benchmark):
    counts, _ = benchmark
    ks = list(range(1, min(n for n, _ in counts) + 1))[:20]
    summary = summarize(make_problems(counts), ks)
    pass_at_1 = result_for(summary, 1).pass_at_k
    assert result_for(summary, 1).pass_hat.pass_at_k == pass_at_1
    hats = [row.pass_hat.pass_at_k for row in summary.results]
    assert all(later <= earlier * (1 + 1e-13) for earlier, later in zip(hats, hats[1:]))
    for row in summary.results:
        assert row.pass_hat.pass_at_k <= pass_at_1 * (1 + 1e-13) and pass_at_1 <= row.pass_at_k * (1 + 1e-13)


def test_pass_hat_k_keeps_its_digits_when_tiny_and_at_huge_n():
    summary = summarize([Problem("a", 10**6, 10**6 - 1), Problem("b", 200, 3)], ks=[3, 1000])
    assert relative_error(per_problem_rows(summary)[1]["pass_hat_k"]["3"], exact_pass_hat_k(200, 3, 3)) <= 1e-13
    assert per_problem_rows(summary)[0]["pass_hat_k"]["1000"] == pytest.approx(1 - 1000 / 10**6, rel=1e-12)


# --- what retries buy ----------------------------------------------------------------------------

def test_retries_say_how_many_points_all_from_the_flaky_problems_and_who_never_passes():
    counts = [(10, 3), (10, 0), (10, 10), (10, 7), (10, 0)]
    summary = summarize(make_problems(counts), ks=[1, 5, 10])
    retries = to_json(summary, "x")["retries"]
    gains = {gain["k"]: gain["points"] for gain in retries["gains"]}
    pass_at_1 = sum(Fraction(c, n) for n, c in counts) / len(counts)
    assert gains[1] == 0.0
    assert gains[10] == pytest.approx(float(100 * (Fraction(3, 5) - pass_at_1)), rel=1e-12)
    flaky_gain = sum(exact_pass_at_k(n, c, 5) - Fraction(c, n) for n, c in counts if 0 < c < n) / len(counts)
    assert gains[5] == pytest.approx(float(100 * flaky_gain), rel=1e-12)
    assert (retries["from_flaky"], retries["broken"]) == (2, 2)
    assert retries["sentence"] == ("Retries add 20.0 points from pass@1 to pass@10, all from the 2 flaky problems; "
                                   "2 problems never pass and no retry helps them.")


def test_retries_without_flaky_problems_add_nothing_and_with_k_1_alone_say_nothing():
    assert summarize(make_problems([(5, 0), (5, 5)]), ks=[1, 3]).retries["sentence"] == (
        "Retries add nothing from pass@1 to pass@3: no problem is flaky (0 < c < n), and only flaky problems "
        "gain from more tries; 1 problem never passes and no retry helps it.")
    assert summarize(make_problems([(5, 2)]), ks=[1]).retries["sentence"] is None


def test_retries_add_exactly_nothing_at_k_1_and_without_flaky_problems():
    gains = summarize([Problem("a", 10, 3), Problem("b", 10, 7)], [1, 5]).retries["gains"]
    assert gains[0] == {"k": 1, "points": 0.0} and gains[1]["points"] > 0
    steady = summarize([Problem("a", 10, 0), Problem("b", 10, 10)], [1, 5]).retries
    assert [gain["points"] for gain in steady["gains"]] == [0.0, 0.0]
    assert steady["sentence"].startswith("Retries add nothing from pass@1 to pass@5")


@pytest.mark.parametrize("count", [1_023, 1_024, 1_100, 5_000])
def test_large_paired_benchmarks_compare_without_overflow(count):
    """2 / 2^P once overflowed a double from P = 1,024 on: both with no spread and with some."""
    same = compare([Problem(f"t{i}", 10, 6) for i in range(count)], [Problem(f"t{i}", 10, 3) for i in range(count)], [1])
    row = same.results[0]
    assert row.test == "mover" and row.p_value < 1e-100 and row.ci95[0] < 0.3 < row.ci95[1]
    mixed = compare([Problem(f"t{i}", 10, i % 11) for i in range(count)],
                    [Problem(f"t{i}", 10, (i * 7) % 11) for i in range(count)], [1])
    assert mixed.results[0].test == "mover" and mixed.results[0].reason is None


@settings(max_examples=50, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=10**6), max_size=40))
def test_the_pairwise_sum_of_fractions_is_their_sum(terms):
    assert pairwise_sum(terms) == sum(terms, Fraction(0))
