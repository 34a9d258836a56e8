"""The planner against exact arithmetic and seeded brute-force simulations."""

import math
from fractions import Fraction

import numpy as np
import pytest

from passk.benchmark import compare, summarize
from passk.estimator import estimate_pass_at_k
from passk.formats import Problem
from passk.planner import (Z_95, detectable_difference, fixed_half_width, noise_split, plan, problems_needed,
                           problems_to_detect, samples_needed)
from passk.stats import t_quantile, wilson_interval

RATES = np.random.default_rng(20261123).beta(0.6, 0.6, 300)   # the true pass rates of 300 problems


def problems_of(samples, correct):
    return [Problem(f"task {i}", int(n), int(c)) for i, (n, c) in enumerate(zip(samples, correct))]


def test_pass_at_1_noise_is_the_mean_unbiased_binomial_variance_exactly():
    samples, correct = [10, 10, 10, 4], [3, 0, 7, 2]
    total, noise, spread = noise_split(samples, correct, 1)
    # Var(c/n) = p(1-p)/n, estimated without bias by p̂(1-p̂)/(n-1).
    expected = sum(Fraction(c, n) * (1 - Fraction(c, n)) / (n - 1) for n, c in zip(samples, correct)) / 4
    assert noise == pytest.approx(float(expected), rel=1e-12)
    rates = [Fraction(c, n) for n, c in zip(samples, correct)]
    mean = sum(rates) / 4
    assert total == pytest.approx(float(sum((r - mean) ** 2 for r in rates) / 3), rel=1e-12)
    assert spread == pytest.approx(total - noise)


@pytest.mark.parametrize("k", [1, 3])
def test_noise_and_spread_match_a_simulation_of_repeated_runs(k):
    rng = np.random.default_rng(7)
    n, runs = 12, 1500
    correct = rng.binomial(n, RATES, size=(runs, RATES.size))
    estimates = estimate_pass_at_k(np.full(correct.size, n), correct.ravel(), k).reshape(correct.shape)
    true_noise = float(np.mean(np.var(estimates, axis=0, ddof=1)))
    true_spread = float(np.var(1 - (1 - RATES) ** k, ddof=1))
    splits = np.array([noise_split(np.full(RATES.size, n), row, k) for row in correct[:400]])
    assert splits[:, 1].mean() == pytest.approx(true_noise, rel=0.03)
    assert splits[:, 2].mean() == pytest.approx(true_spread, rel=0.05)


@pytest.mark.parametrize("k, more", [(1, 40), (4, 60)])
def test_fixed_half_width_at_more_samples_matches_a_simulation(k, more):
    rng = np.random.default_rng(11)
    samples = np.full(RATES.size, 20)
    correct = np.rint(RATES * 20).astype(int)
    rates = correct / 20                                   # exact at `more`, a multiple of 20
    predicted = fixed_half_width(samples, correct, k, more)
    simulated = rng.binomial(more, rates, size=(4000, rates.size))
    means = estimate_pass_at_k(np.full(simulated.size, more), simulated.ravel(), k).reshape(simulated.shape).mean(1)
    assert predicted == pytest.approx(Z_95 * np.std(means, ddof=1), rel=0.06)


def test_samples_needed_is_the_fewest_that_meet_the_target():
    samples, correct = np.full(50, 10), np.arange(50) % 11
    needed = samples_needed(samples, correct, 1, 0.01)
    assert fixed_half_width(samples, correct, 1, needed) <= 0.01 < fixed_half_width(samples, correct, 1, needed - 1)
    # pass@1: 1.96^2 mean(p(1-p)) / (P n) = target^2 at about n = 1.96^2 mean(p(1-p)) / (P target^2).
    rates = correct / 10
    assert needed == pytest.approx(Z_95 ** 2 * np.mean(rates * (1 - rates)) / (50 * 0.01 ** 2), rel=0.05)


def test_samples_already_enough_are_the_samples_there_are():
    assert samples_needed(np.full(50, 100), np.full(50, 50), 1, 0.5) == 100


@pytest.mark.parametrize("sd, target", [(0.4, 0.01), (0.3, 0.2), (0.45, 0.05)])
def test_problems_needed_meet_the_target_and_one_fewer_does_not(sd, target):
    needed = problems_needed(sd, target)

    def half_width(count):
        return t_quantile(0.975, count - 1) * sd / math.sqrt(count)
    assert half_width(needed) <= target < half_width(needed - 1)


def test_the_detectable_difference_is_found_80_percent_of_the_time():
    rng = np.random.default_rng(3)
    count, sd = 60, 0.3
    difference = detectable_difference(sd / math.sqrt(count))
    differences = rng.normal(difference, sd, size=(20000, count))
    z = differences.mean(1) / (sd / math.sqrt(count))
    assert np.mean(np.abs(z) > Z_95) == pytest.approx(0.8, abs=0.015)
    assert problems_to_detect(sd, difference) == count


def test_plan_reads_each_k_and_says_why_when_it_cannot():
    rng = np.random.default_rng(5)
    correct = rng.binomial(20, RATES[:100])
    summary = summarize(problems_of(np.full(100, 20), correct), [1, 5, 20])
    one, five, twenty = plan(summary, target=0.02, tokens_per_sample=1000, price_per_million=2.0)
    assert one.noise_share + one.spread_share == pytest.approx(1.0)
    low, high = summary.results[0].ci95   # half the page's interval, and the same interval with the noise gone
    assert one.half_width == pytest.approx((high - low) / 2)
    _, noise, spread = noise_split(np.full(100, 20), correct, 1)
    floor = wilson_interval(summary.results[0].pass_at_k, math.sqrt(spread / 100), 100)
    assert one.half_width_floor == pytest.approx((floor[1] - floor[0]) / 2) and one.half_width_floor < one.half_width
    assert one.fixed_half_width == pytest.approx(Z_95 * summary.results[0].se_fixed)
    assert one.extra_cost == pytest.approx(one.extra_samples * 1000 * 2.0 / 1e6)
    assert "more samples would narrow" in " ".join(one.sentences).lower()
    assert five.samples_per_problem >= 20
    assert twenty.reason and "needs n ≥ 40" in twenty.reason and twenty.sentences == []


def test_plan_says_so_when_every_problem_is_the_same():
    summary = summarize(problems_of([10] * 5, [5] * 5), [1])
    (row,) = plan(summary)
    assert row.noise_share is None and "No spread between problems" in row.sentences[0]


def test_a_target_of_zero_is_refused():
    with pytest.raises(ValueError, match="at least 0.001 points"):
        plan(summarize(problems_of([10, 10], [1, 2]), [1]), target=0)


def test_comparison_plan_names_the_detectable_difference():
    from passk.planner import comparison_plan
    a = problems_of([10] * 40, [i % 11 for i in range(40)])
    b = problems_of([10] * 40, [(i + 3) % 11 for i in range(40)])
    comparison = compare(a, b, [1])
    (row,) = comparison_plan(comparison, difference=0.05)
    assert row["detectable"] == pytest.approx(detectable_difference(comparison.results[0].se))
    assert row["problems"] == problems_to_detect(comparison.results[0].se * math.sqrt(40), 0.05)
    assert "4 times in 5" in row["sentences"][0]


@pytest.mark.parametrize("fields, message", [
    ({"target": "0"}, "target half-width"), ({"target": "abc"}, "'abc'"), ({"target": "101"}, "to 100"),
    ({"tokens_per_sample": "-5"}, "Tokens per sample"), ({"price_per_million": "inf"}, "price per million")])
def test_planning_options_refuse_what_is_not_a_positive_number(fields, message):
    from passk.planner import planning_options
    with pytest.raises(ValueError, match=message):
        planning_options(**fields)


def test_planning_options_read_the_target_in_points():
    from passk.planner import planning_options
    assert planning_options("0.5", "1200", "3") == {"target": 0.005, "tokens_per_sample": 1200.0,
                                                    "price_per_million": 3.0}
    assert planning_options("", "", "") == {}


# The page, the API and the command line show the same plan.

COUNTS = "".join(f"{n} {c}\n" for n, c in zip([20] * 40, [0, 3, 7, 10, 12, 15, 18, 20] * 5))


def test_the_benchmark_page_shows_the_noise_split_and_the_answers_for_the_target(client):
    page = client.post("/benchmark", data={"text": COUNTS, "k": "1,5,20", "target": "2"}).get_data(as_text=True)
    assert 'id="planning"' in page and "how good is the model on problems like these" in page.lower()
    assert "how good is it on these very problems" in page.lower()
    assert "Sampling noise" in page and "under ±2.00 points" in page
    assert 'name="target" form="benchmark-form"' in page and 'value="2"' in page
    assert '<input type="submit" form="benchmark-form" value="Plan again">' in page
    assert "needs n ≥ 40" in page   # k = 20 says why it has no plan


def test_a_bad_target_is_an_error_on_the_page_and_in_the_api(client):
    page = client.post("/benchmark", data={"text": COUNTS, "k": "1", "target": "-1"})
    assert page.status_code == 400 and "target half-width" in page.get_data(as_text=True)
    answer = client.post("/api/v1/benchmark", data={"file": (__import__("io").BytesIO(COUNTS.encode()), "c.txt"),
                                                    "k": "1", "target": "x"}, content_type="multipart/form-data")
    assert answer.status_code == 400 and "target half-width" in answer.json["error"]


def test_the_api_answer_has_the_planner_per_k(client):
    import io
    answer = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(COUNTS.encode()), "c.txt"), "k": "1,5",
                                                    "target": "0.5", "tokens_per_sample": "1000",
                                                    "price_per_million": "2"}, content_type="multipart/form-data")
    planner = answer.json["planner"]
    assert [row["k"] for row in planner] == [1, 5]
    summary = summarize(problems_of([20] * 40, [0, 3, 7, 10, 12, 15, 18, 20] * 5), [1, 5])
    expected = plan(summary, target=0.005, tokens_per_sample=1000, price_per_million=2)
    assert planner == [row.to_json() for row in expected]
    assert planner[0]["extra_cost"] == pytest.approx(planner[0]["extra_samples"] * 1000 * 2 / 1e6)


def test_the_command_line_prints_a_planning_block(tmp_path, capsys):
    from passk.__main__ import main
    path = tmp_path / "counts.txt"
    path.write_text(COUNTS)
    assert main([str(path), "-k", "1,5"]) == 0
    out = capsys.readouterr().out
    assert "planning (half-widths of 95 percent intervals, target ±1.00 points):" in out
    assert "k = 1: Sampling noise is" in out and "percent of the variation between problems' pass@1" in out
    assert "More samples would narrow" in out


PROBLEMS_JSON = [{"task_id": f"t{i}", "n": n, "c": c}
                 for i, (n, c) in enumerate(zip([20] * 40, [0, 3, 7, 10, 12, 15, 18, 20] * 5))]


def test_the_json_body_api_answers_with_the_same_planner_as_an_upload(client):
    answer = client.post("/api/v1/benchmark", json={"problems": PROBLEMS_JSON, "k": [1, 5], "target": 0.5,
                                                    "tokens_per_sample": 1000, "price_per_million": 2})
    summary = summarize(problems_of([20] * 40, [0, 3, 7, 10, 12, 15, 18, 20] * 5), [1, 5])
    expected = plan(summary, target=0.005, tokens_per_sample=1000, price_per_million=2)
    assert answer.status_code == 200 and answer.json["planner"] == [row.to_json() for row in expected]
    plain = client.post("/api/v1/benchmark", json={"problems": PROBLEMS_JSON, "k": [1]}).json
    assert plain["planner"] == [row.to_json() for row in plan(summarize(summary.problems, [1]))]   # ±1 point


@pytest.mark.parametrize("field, value, message", [
    ("target", "2", '"target" must be a JSON number'),
    ("target", True, '"target" must be a JSON number'),
    ("target", 0, "target half-width (points) must be from 0.001 to 100; got '0'"),
    ("target", 1e999, "got 'inf'"),
    ("tokens_per_sample", -5, "Tokens per sample must be a number above 0, at most 1,000,000,000,000"),
    ("price_per_million", None, '"price_per_million" must be a JSON number'),
    ("target", 1e-300, "must be from 0.001 to 100; got '1e-300'"),        # once an OverflowError: a 500
    ("tokens_per_sample", 1e308, "at most 1,000,000,000,000; got '1e+308'"),   # a cost of Infinity is not JSON
])
def test_bad_planning_numbers_in_a_json_body_are_400_sentences(client, field, value, message):
    answer = client.post("/api/v1/benchmark", json={"problems": PROBLEMS_JSON, "k": [1], field: value})
    assert answer.status_code == 400 and message in answer.json["error"]


def test_the_command_line_plans_for_the_target_it_is_given(tmp_path, capsys):
    from passk.__main__ import main
    path = tmp_path / "counts.txt"
    path.write_text(COUNTS)
    assert main([str(path), "-k", "1", "--target", "0.5"]) == 0
    out = capsys.readouterr().out
    (expected,) = plan(summarize(problems_of([20] * 40, [0, 3, 7, 10, 12, 15, 18, 20] * 5), [1]), target=0.005)
    assert "planning (half-widths of 95 percent intervals, target ±0.50 points):" in out
    assert all(f"k = 1: {sentence}" in out for sentence in expected.sentences) and "under ±0.50 points" in out
    with pytest.raises(SystemExit) as exit_:
        main([str(path), "--target", "0"])
    assert exit_.value.code == 2 and "--target: The target half-width (points) must be" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--runs", str(path), str(path), "--target", "2"])
    assert exit_.value.code == 2 and "with --runs, plan a comparison with --detect" in capsys.readouterr().err
