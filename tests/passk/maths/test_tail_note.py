"""population_note's tail case (issue 28): a mean at most TAIL_DISTANCE problems' worth from 0 or 1, carried by
values the interval reads as more than TAIL_TRIALS trials per problem, carries the note, from 20 problems up;
pass/fail values, a mean exactly at 0 or 1, a mean further out and fewer problems do not. Every figure here is
exact (Fractions and math.comb); bench/coverage_tails.py measures the coverage behind the bounds."""

import io
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from passk.maths import intervals
from passk.__main__ import main
from passk.maths.intervals import BOUNDARY_PROBLEMS, population_interval, population_note, shape
from passk.results.metrics import average_table, estimate, graded_table, majority_table

TAIL = "The mean is"   # how the tail note begins


def pass_at_k(n, c, k):
    """The unbiased pass@k of c passing samples of n, exactly."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_figures(values):
    """(mean, P min(mean, 1 - mean), n*/P after the boundary cap) of the values, in exact arithmetic."""
    count = len(values)
    mean = sum(values, Fraction(0)) / count
    se2 = sum(((v - mean) ** 2 for v in values), Fraction(0)) / (count - 1) / count
    near = min(mean, 1 - mean)
    cap = count * (1 + (count * near / Fraction(BOUNDARY_PROBLEMS)) ** 2)
    trials = Fraction(count) if near == 0 else min(mean * (1 - mean) / se2, cap) if se2 else cap
    return mean, count * near, trials / count


def figures_of(values):
    """shape()'s four figures of the values, given as passk gives them: each distinct value with its count."""
    distinct = sorted(set(values))
    weights = np.array([values.count(v) for v in distinct], dtype=np.int64)
    return shape(np.array([float(v) for v in distinct]), weights, float(sum(values, Fraction(0)) / len(values)))


def note_of(values):
    figures = figures_of(values)
    mean, distance, trials = exact_figures(values)
    assert figures[2] == pytest.approx(float(distance), rel=1e-12)
    assert figures[3] == pytest.approx(float(trials), rel=1e-9)
    return population_note(len(values), *figures)


def interval_in_problems(values):
    """The population interval's ends as problems' worth from 1, for values near 1."""
    mean, _, _ = exact_figures(values)
    count = len(values)
    se = math.sqrt(float(sum(((v - mean) ** 2 for v in values), Fraction(0)) / (count - 1) / count))
    low, high = population_interval(float(mean), se, count)
    return count * (1 - high), count * (1 - low)


def test_the_audits_pass_at_100_draw_nearest_1_carries_the_note():
    """pass@100 of n = 200 at P = 1,000 with Beta(2, 5) rates: the truth is 1 - 1/371 (E[(1-p)^100] =
    (5 * 6) / (105 * 106)), 2.70 problems' worth from 1. A draw with one problem at c = 1 (pass@100 = 1/2) and one
    at c = 2 (299/398) is 0.75 problems' worth from 1, its interval lies short of the truth, and the earlier rule
    (from 1.25 problems' worth) said nothing."""
    assert 1 - Fraction(5 * 6, 105 * 106) == Fraction(370, 371)
    values = [pass_at_k(200, 1, 100), pass_at_k(200, 2, 100)] + [Fraction(1)] * 998
    assert values[:2] == [Fraction(1, 2), Fraction(299, 398)]
    mean, distance, trials = exact_figures(values)
    assert distance == Fraction(149, 199) and trials > Fraction(11, 10)
    nearest, furthest = interval_in_problems(values)
    assert furthest < 1000 * Fraction(1, 371)   # the truth is further from 1 than the interval reaches
    assert note_of(values).startswith(f"{TAIL} 0.7 problems' worth from 0 or 1")


def test_the_audits_pass_at_2_draw_of_rates_all_0_9_carries_the_note():
    """pass@2 of n = 5 at P = 164, every rate 0.9: the truth is 0.99, 1.64 problems' worth from 1. pass@2 is 1 at
    c >= 4, 9/10 at c = 3, 7/10 at c = 2. A draw with six problems at c = 3 is 0.6 problems' worth from 1."""
    assert [pass_at_k(5, c, 2) for c in (2, 3, 4, 5)] == [Fraction(7, 10), Fraction(9, 10), 1, 1]
    values = [Fraction(9, 10)] * 6 + [Fraction(1)] * 158
    mean, distance, trials = exact_figures(values)
    assert distance == Fraction(3, 5) and trials == 1 + (Fraction(3, 5) * 4) ** 2   # the boundary cap binds
    nearest, furthest = interval_in_problems(values)
    assert furthest < Fraction(164, 100)
    assert note_of(values).startswith(f"{TAIL} 0.6 problems' worth from 0 or 1")


@pytest.mark.parametrize("halves, noted", [(1, True), (39, True), (41, False), (200, False)])
def test_the_note_reaches_20_problems_worth_from_the_boundary(halves, noted):
    """1,000 problems, some at 1/2 and the rest at 1: it speaks up to 20 problems' worth."""
    values = [Fraction(1, 2)] * halves + [Fraction(1)] * (1000 - halves)
    assert exact_figures(values)[1] == Fraction(halves, 2)
    assert (note_of(values) is not None) is noted


@pytest.mark.parametrize("failed, halves", [(0, 1), (2, 1), (3, 1), (4, 1), (8, 2), (9, 2), (0, 2)])
def test_the_note_speaks_past_1_1_trials_per_problem(failed, halves):
    """Values 0 and 1 with a few at 1/2: the more of them are exactly 0, the nearer pass/fail the values read."""
    values = [Fraction(0)] * failed + [Fraction(1, 2)] * halves + [Fraction(1)] * (500 - failed - halves)
    _, distance, trials = exact_figures(values)
    assert distance <= intervals.TAIL_DISTANCE
    assert (note_of(values) is not None) is (trials > Fraction(11, 10))


def test_both_sides_of_the_trials_bound_are_in_the_table_above():
    """The table above holds a draw at 1.1 trials per problem or fewer and one just past it."""
    readings = [exact_figures([Fraction(0)] * f + [Fraction(1, 2)] * h + [Fraction(1)] * (500 - f - h))[2]
                for f, h in [(3, 1), (2, 1)]]
    assert readings[0] <= Fraction(11, 10) < readings[1]


@pytest.mark.parametrize("values, count", [
    ([Fraction(0)] * 3, 1000),                      # pass/fail values: exactly one trial per problem
    ([], 1000),                                      # every value 1: the mean at the boundary
    ([Fraction(1, 2)] * 6, 19),                      # too few problems to say
])
def test_no_tail_note_for_pass_fail_values_a_mean_at_the_boundary_or_few_problems(values, count):
    values = values + [Fraction(1)] * (count - len(values))
    note = note_of(values)
    assert note is None or not note.startswith(TAIL)


def test_the_mirror_near_0_speaks_as_near_1_does():
    values = [Fraction(1, 2), Fraction(101, 398)] + [Fraction(0)] * 998   # pass^100 of the same counts, mirrored
    assert note_of(values) == note_of([1 - v for v in values])


# The rows that are means of per-problem values all take population_note from metrics.estimate.


def test_maj_at_k_rows_carry_the_tail_note():
    """maj@1 of 100 problems: 96 always right, 4 right in 3 of 4 samples (maj@1 = 3/4): 1 problem's worth."""
    votes = [[("a", True)] * 4] * 96 + [[("a", True)] * 3 + [("b", False)]] * 4
    row = majority_table([f"t{i}" for i in range(100)], votes, [1]).results[0]
    assert row.estimate.value == pytest.approx(0.99) and row.estimate.coverage_note.startswith(TAIL)


def test_graded_mean_and_avg_at_k_rows_carry_the_tail_note():
    """100 problems scored [1, 1], 4 scored [1/2, 1]: mean score 3/4 on those, avg@1 1/2."""
    scores = [[1.0, 1.0]] * 96 + [[0.5, 1.0]] * 4
    mean = graded_table(scores, [2]).mean
    assert mean.value == pytest.approx(0.99) and mean.coverage_note.startswith(TAIL)
    [row] = average_table(scores, [1]).results
    assert row.estimate.value == pytest.approx(0.98) and row.estimate.coverage_note.startswith(TAIL)


def test_estimate_gives_the_note_of_the_values_it_is_given():
    values = np.array([1.0] * 994 + [0.9] * 6)
    assert estimate(values).coverage_note == note_of([Fraction(9, 10)] * 6 + [Fraction(1)] * 994)


def test_the_mean_scores_note_is_on_the_page_and_in_the_command(client, tmp_path, capsys):
    """The graded mean score's note (mean_score_coverage_note in the JSON) is shown beside its sentence too:
    96 problems scored [1, 1] and 4 scored [1/2, 1], a mean score of 99%, 1 problem's worth from 1."""
    problems = [{"task_id": f"t{i}", "scores": [1, 1] if i < 96 else [0.5, 1]} for i in range(100)]
    document = json.dumps({"problems": problems})
    html = client.post("/benchmark", data={"file": (io.BytesIO(document.encode()), "graded.json"), "k": "1"},
                       content_type="multipart/form-data").get_data(as_text=True)
    sentence = html.split('id="mean-score"', 1)[1].split("</p>", 1)[0]
    assert "<strong>99.00%</strong>" in sentence and f'<span class="coverage-note">{TAIL} 1.0' in sentence
    path = tmp_path / "graded.json"
    path.write_text(document)
    assert main([str(path), "-k", "1"]) == 0
    assert f"Mean score, each problem's mean over its samples: 99.00% (95% interval 97.60% to 99.68%). {TAIL} 1.0" in (
        " ".join(capsys.readouterr().out.split()))


def test_maj_at_n_carries_the_note_in_the_command():
    """maj@n of 100 problems: 96 always right, 4 with one right and one wrong answer (a tie: 1/2), 2 problems'
    worth from 1."""
    from passk.results.benchmark import summarize
    from passk.cli import _maj_at_n
    from passk.formats import Problem
    problems = [Problem(f"t{i}", 2, 2, votes=(("a", True), ("a", True))) for i in range(96)]
    problems += [Problem(f"u{i}", 2, 1, votes=(("a", True), ("b", False))) for i in range(4)]
    summary = summarize(problems, [1])
    note = summary.majority.at_n.coverage_note
    assert note.startswith(f"{TAIL} 2.0") and _maj_at_n(summary).endswith(f". {note}")

