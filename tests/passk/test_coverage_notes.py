"""Where simulation found an interval short of its promise, the result says so: the JSON's "coverage_note",
the page's note under the row and the command's note line, with the figures of docs/coverage.md."""

import json

import numpy as np
import pytest

from passk import intervals
from passk.__main__ import main
from passk.benchmark import summarize
from passk.formats import Problem
from where import ROOT

REPORT = json.loads((ROOT / "docs" / "coverage.json").read_text())


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
