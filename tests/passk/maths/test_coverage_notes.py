"""Where simulation found an interval short of its promise, the result says so: the JSON's "coverage_note",
the page's note under the row and the command's note line, with the figures of docs/coverage.md."""

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from passk.maths import intervals
from passk.maths.intervals import population_note, shape
from passk.__main__ import main
from passk.results.benchmark import compare, summarize
from passk.formats import Problem
from passk.writing.answers import to_json
from where import ROOT

REPORT = json.loads((ROOT / "docs" / "coverage.json").read_text())
EDGES = json.loads((ROOT / "docs" / "coverage_edges.json").read_text())   # bench/coverage_edges.py
COVERAGE_MD = (ROOT / "docs" / "coverage.md").read_text()
TAIL = "The mean is"     # how the note for a mean near 0 or 1 with a thin tail begins
SKEW = "The per-problem values pile up near one end"


def skewed_run(count, seed=3):
    """pass@10 from 20 samples of Beta(2, 5) rates: values piled near 1 with a thin tail towards 0."""
    rng = np.random.default_rng(seed)
    correct = rng.binomial(20, rng.beta(2, 5, count))
    return [Problem(f"t{i}", 20, int(c)) for i, c in enumerate(correct)]


def test_the_notes_quote_the_coverage_report():
    short = [row["new"]["coverage"] for row in EDGES["skewed"] if row["new"]["coverage"] < 0.93]   # 10,000 draws
    assert intervals.SKEWED_COVERAGE == (round(100 * min(short), 1), round(100 * max(short), 1))
    [border] = [row for row in EDGES["fixed"] if row["P"] == 30]
    assert intervals.FEW_FIXED_TWO_COVERAGE == round(100 * border["coverage"], 1)
    power = {row["P"]: row for row in EDGES["power"] if row["effect"] == "better"}
    assert intervals.FEW_PAIRED_POWER == tuple((count, round(100 * power[count]["mover"], 1),
                                                round(100 * power[count]["t_test"], 1)) for count in (5, 10))
    few = [row["new"]["coverage"] for row in REPORT["fixed"] if row["P"] == 10 and row.get("given")]
    assert intervals.FEW_FIXED_COVERAGE == (round(100 * min(few), 1), round(100 * max(few), 1))
    low, high = intervals.TAIL_COVERAGE
    assert f"held the truth {low:.1f}–{high:.1f}% of the time (intervals.TAIL_COVERAGE" in COVERAGE_MD
    limits = " ".join((ROOT / "docs" / "limits.md").read_text(encoding="utf-8").split())   # the manual's Limits page
    assert f"held the truth {low:.1f}–{high:.1f}% of the time" in limits


def test_skewed_values_over_few_problems_carry_a_note_in_the_json():
    row = summarize(skewed_run(30, seed=5), [10]).results[0]
    skewness, inside = row_shape(skewed_run(30, seed=5), 10)
    assert abs(skewness) >= 2 and inside >= 0.5
    assert to_json(row)["coverage_note"].startswith("The per-problem values pile up near one end")
    low, high = intervals.SKEWED_COVERAGE
    assert f"{low}–{high}%" in row.coverage_note


def row_shape(problems, k):
    values = np.array([1 - np.prod([1 - k / i for i in range(p.n - p.c + 1, p.n + 1)]) for p in problems])
    deviations = values - values.mean()
    return float(np.mean(deviations**3) / np.mean(deviations**2) ** 1.5), float(np.mean((values > 0) & (values < 1)))


@pytest.mark.parametrize("count", [10, 400])
def test_no_population_note_outside_20_to_199_problems(count):
    row = summarize(skewed_run(count, seed=5), [10]).results[0]
    assert row.coverage_note is None or not row.coverage_note.startswith("The per-problem values")


def test_pass_fail_values_carry_no_skew_note():
    """1 of 60 solved is skewed, but its note is the pass/fail one (an exact figure), not the skew note's."""
    row = summarize([Problem(i, 1, int(i == 0)) for i in range(60)], [1]).results[0]
    assert row.coverage_note.startswith("Every problem scored 0 or 1 and only 1 of 60 pass")


def test_few_problems_note_the_fixed_interval_on_the_page_and_in_the_command(client, tmp_path, capsys):
    text = "".join(f"t{i},20,{c}\n" for i, c in enumerate([0, 3, 7, 12, 20, 20, 1, 0, 5]))
    row = summarize([Problem(f"t{i}", 20, c) for i, c in enumerate([0, 3, 7, 12, 20, 20, 1, 0, 5])], [1]).results[0]
    assert row.coverage_note.startswith(f"With fewer than {intervals.FEW_FIXED} problems the interval on these very")
    html = client.post("/benchmark", data={"text": text, "k": "1"}).get_data(as_text=True)
    assert 'class="row-note coverage-note"' in html and "88.3–100%" in html
    path = tmp_path / "counts.csv"
    path.write_text(text)
    assert main([str(path), "-k", "1"]) == 0
    assert "note: With fewer than 30 problems" in capsys.readouterr().out


# pass^8 of n = 16 samples: C(c, 8) / C(16, 8), 0 below c = 8.
def pass_hat_8(c):
    return Fraction(math.comb(c, 8), math.comb(16, 8))


def tail_values(count, tail):
    """count problems: pass^8 of the counts in tail, 0 for the others (fewer than 8 of 16 passed)."""
    return [pass_hat_8(c) for c in tail] + [Fraction(0)] * (count - len(tail))


def exact_figures(values):
    """(P min(mean, 1 - mean), mean (1 - mean) / SE^2 / P) in exact arithmetic."""
    count = len(values)
    mean = sum(values) / count
    se2 = sum((v - mean) ** 2 for v in values) / (count - 1) / count
    return count * min(mean, 1 - mean), mean * (1 - mean) / se2 / count


def shape_of(values):
    distinct = sorted(set(values))
    weights = np.array([values.count(v) for v in distinct], dtype=np.int64)
    return shape(np.array([float(v) for v in distinct]), weights, float(sum(values) / len(values)))


# A few problems with most of their samples passing carry pass^8 over 500 problems (bench/coverage_beside.py's
# G-Pass@8 tau=1 at P = 500, n = 16, where the interval held the truth 89% of the time): 1.6 problems' worth.
THIN_TAIL = [15, 15, 14, 14, 13, 12, 12]


@pytest.mark.parametrize("mirrored", [False, True])
def test_a_mean_near_0_or_1_carried_by_a_tail_of_fractions_carries_the_tail_note(mirrored):
    values = tail_values(500, THIN_TAIL)
    if mirrored:   # pass@k of high rates: values exactly 1 and a thin tail below
        values = [1 - v for v in values]
    distance, trials = exact_figures(values)
    skewness, inside, got_distance, got_trials = shape_of(values)
    assert got_distance == pytest.approx(float(distance), rel=1e-12) and 1.25 <= distance <= 6
    assert got_trials == pytest.approx(float(trials), rel=1e-9) and trials >= Fraction(7, 5)
    assert inside < 0.5 and skewness == pytest.approx(12.8 if not mirrored else -12.8, abs=0.5)
    note = population_note(500, skewness, inside, got_distance, got_trials)
    low, high = intervals.TAIL_COVERAGE
    assert note.startswith(f"{TAIL} {float(distance):.1f} problems' worth from 0 or 1")
    assert f"held the truth {low}–{high}% of the time" in note


@pytest.mark.parametrize("tail, count", [
    ([16, 16, 16, 16, 16, 16, 16, 16, 15], 2000),   # pass/fail 1s and one half: read as about 1 trial a problem
    ([16] * 30 + [15] * 10, 100),                    # 35 problems' worth from 0 (tests/passk/maths/test_tail_note.py)
    (THIN_TAIL, 19),                                 # too few problems to say
])
def test_no_tail_note_where_the_interval_keeps_its_promise(tail, count):
    values = tail_values(count, tail)
    distance, trials = exact_figures(values)
    assert not (distance <= 20 and trials > Fraction(11, 10)) or count < 20
    note = population_note(count, *shape_of(values))
    assert note is None or not note.startswith(TAIL)


def test_the_tail_note_reaches_pass_hat_k_and_g_pass_rows():
    """pass^8 (the pass^k row) and G-Pass@8 tau=1 (the g_pass row) of 500 problems are the same values."""
    problems = [Problem(f"t{i}", 16, c) for i, c in enumerate(THIN_TAIL + [3] * 493)]
    summary = summarize(problems, [8], tau=1.0)
    assert summary.results[0].pass_hat.coverage_note.startswith(TAIL)
    assert summary.g_pass.results[0].g_pass.coverage_note == summary.results[0].pass_hat.coverage_note
    mirrored = summarize([Problem(f"t{i}", 16, 16 - c) for i, c in enumerate(THIN_TAIL + [3] * 493)], [8])
    assert mirrored.results[0].coverage_note == summary.results[0].pass_hat.coverage_note   # 1 - the values


def test_pass_hat_k_note_is_in_the_json_and_the_command_line(tmp_path, capsys):
    problems = [Problem(f"t{i}", 16, c) for i, c in enumerate(THIN_TAIL + [3] * 493)]
    [row] = to_json(summarize(problems, [8]), "text")["results"]
    assert row["pass_hat_k_coverage_note"].startswith(TAIL) and row["coverage_note"] is None
    counts = tmp_path / "counts.txt"
    counts.write_text("".join(f"16 {problem.c}\n" for problem in problems))
    assert main([str(counts), "-k", "8"]) == 0
    assert f"note (pass^8): {TAIL}" in capsys.readouterr().out
    assert main([str(counts), "-k", "8", "--markdown"]) == 0
    assert f"note: pass^8: {TAIL}" in capsys.readouterr().err


def two_samples(count):
    return [Problem(f"t{i}", 2, i % 3) for i in range(count)]


def test_two_samples_a_problem_note_the_fixed_interval_below_50_problems():
    """n = 2, k = 1: 92.7% at 30 problems, 93.2% at 40 and 93.5% at 50 (bench/coverage_edges.py)."""
    noted = summarize(two_samples(40), [1]).results[0]
    assert noted.ci95_fixed and (f"With fewer than {intervals.FEW_FIXED_TWO} problems and fewer than 3k samples of "
                                 f"some problem") in noted.coverage_note
    assert f"held the truth {intervals.FEW_FIXED_TWO_COVERAGE}% of the time" in noted.coverage_note
    for problems in (two_samples(50), [Problem(f"t{i}", 3, i % 4) for i in range(40)]):
        assert "these very problems" not in (summarize(problems, [1]).results[0].coverage_note or "")


POWER = "paired problems this p-value is cautious"


def paired_runs(count):
    better = [Problem(f"t{i}", 10, 7 + i % 4) for i in range(count)]
    worse = [Problem(f"t{i}", 10, 5 + i % 3) for i in range(count)]
    return better, worse


@pytest.mark.parametrize("count", [5, 10, 19])
def test_a_comparison_of_5_to_19_problems_says_its_p_value_is_cautious(count):
    row = compare(*paired_runs(count), [1]).results[0]
    (small, mover_small, t_small), (large, mover_large, t_large) = intervals.FEW_PAIRED_POWER
    assert to_json(row)["reason"] == (
        f"With only {count} {POWER}: in simulations where run A was truly better it fell below 0.05 in "
        f"{mover_small}% of runs at 5 problems and {mover_large}% at 10, where the paired t test did in {t_small}% "
        f"and {t_large}%; a p-value above 0.05 here is weak evidence that the runs are equal (docs/coverage.md).")


def test_from_20_problems_no_power_note_and_below_5_the_too_few_note():
    assert compare(*paired_runs(20), [1]).results[0].reason is None
    assert compare(*paired_runs(4), [1]).results[0].reason.startswith("Too few problems for any conclusion")


def test_the_power_note_reaches_the_compare_page_and_the_command(client, tmp_path, capsys):
    better, worse = paired_runs(10)
    files = []
    for name, run in (("a.csv", better), ("b.csv", worse)):
        path = tmp_path / name
        path.write_text("".join(f"{p.task_id},{p.n},{p.c}\n" for p in run))
        files.append(str(path))
    assert main(["--runs", *files, "-k", "1"]) in (0, 1)
    assert POWER in " ".join(capsys.readouterr().out.split())
    text_a, text_b = (Path(name).read_text() for name in files)
    html = client.post("/compare", data={"text_a": text_a, "text_b": text_b, "k": "1"}).get_data(as_text=True)
    assert POWER in html
