"""Where simulation found an interval short of its promise, the result says so: the JSON's "coverage_note",
the page's note under the row and the command's note line, with the figures of docs/coverage.md."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from passk import intervals
from passk.intervals import population_note, shape
from passk.__main__ import main
from passk.benchmark import summarize
from passk.formats import Problem
from where import ROOT

REPORT = json.loads((ROOT / "docs" / "coverage.json").read_text())
COVERAGE_MD = (ROOT / "docs" / "coverage.md").read_text()
TAIL = "The mean is only"     # how the note for a mean near 0 or 1 with a thin tail begins
SKEW = "The per-problem values pile up near one end"


def skewed_run(count, seed=3):
    """pass@10 from 20 samples of Beta(2, 5) rates: values piled near 1 with a thin tail towards 0."""
    rng = np.random.default_rng(seed)
    correct = rng.binomial(20, rng.beta(2, 5, count))
    return [Problem(f"t{i}", 20, int(c)) for i, c in enumerate(correct)]


def test_the_notes_quote_the_coverage_report():
    short = [row["new"]["coverage"] for row in REPORT["population"] if row["P"] >= 30 and row["new"]["coverage"] < 0.93]
    assert intervals.SKEWED_COVERAGE == (round(100 * min(short), 1), round(100 * max(short), 1))
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
    assert row.to_json()["coverage_note"].startswith("The per-problem values pile up near one end")
    assert "92.1–92.8%" in row.coverage_note


def row_shape(problems, k):
    values = np.array([1 - np.prod([1 - k / i for i in range(p.n - p.c + 1, p.n + 1)]) for p in problems])
    deviations = values - values.mean()
    return float(np.mean(deviations**3) / np.mean(deviations**2) ** 1.5), float(np.mean((values > 0) & (values < 1)))


@pytest.mark.parametrize("count", [10, 400])
def test_no_population_note_outside_20_to_199_problems(count):
    row = summarize(skewed_run(count, seed=5), [10]).results[0]
    assert row.coverage_note is None or not row.coverage_note.startswith("The per-problem values")


def test_pass_fail_values_carry_no_skew_note():
    """Values all 0 or 1 are the mid-p interval's home ground: 1 of 60 solved is skewed but needs no note."""
    row = summarize([Problem(i, 1, int(i == 0)) for i in range(60)], [1]).results[0]
    assert row.coverage_note is None


def test_few_problems_note_the_fixed_interval_on_the_page_and_in_the_command(client, tmp_path, capsys):
    text = "".join(f"t{i},20,{c}\n" for i, c in enumerate([0, 3, 7, 12, 20, 20, 1, 0, 5]))
    row = summarize([Problem(f"t{i}", 20, c) for i, c in enumerate([0, 3, 7, 12, 20, 20, 1, 0, 5])], [1]).results[0]
    assert row.coverage_note.startswith("With fewer than 30 problems the interval on these very problems")
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
    ([15, 14, 13], 500),                             # under one problem's worth from 0: the interval over-covers
    ([16] * 5 + [15] * 6, 100),                      # 8 problems' worth from 0
    (THIN_TAIL, 19),                                 # too few problems to say
])
def test_no_tail_note_where_the_interval_keeps_its_promise(tail, count):
    values = tail_values(count, tail)
    distance, trials = exact_figures(values)
    assert not (1.25 <= distance <= 6 and trials >= Fraction(7, 5)) or count < 20
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
    [row] = summarize(problems, [8]).to_json("text")["results"]
    assert row["pass_hat_k_coverage_note"].startswith(TAIL) and row["coverage_note"] is None
    counts = tmp_path / "counts.txt"
    counts.write_text("".join(f"16 {problem.c}\n" for problem in problems))
    assert main([str(counts), "-k", "8"]) == 0
    assert f"note (pass^8): {TAIL}" in capsys.readouterr().out
    assert main([str(counts), "-k", "8", "--markdown"]) == 0
    assert f"note: pass^8: {TAIL}" in capsys.readouterr().err
