"""Pass/fail values (every per-problem value 0 or 1): the population interval's exact coverage, a binomial sum, and
the note where it falls below 93% for the count in hand (passk.maths.passfail; docs/coverage.md, "Pass/fail values")."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from passk.__main__ import main
from passk.results.benchmark import summarize
from passk.formats import Problem
from passk.maths.passfail import ALLOWED, binary_note, lowest_coverage, pass_fail_interval
from passk.writing.answers import to_json
from where import ROOT

REPORT = json.loads((ROOT / "docs" / "coverage_edges.json").read_text())
NOTE = "Every problem scored 0 or 1"


def exact_coverage(rate, count, ends):
    """sum over x of C(count, x) rate^x (1 - rate)^(count - x), for the x whose interval holds rate, in Fractions."""
    rate = Fraction(rate)
    return sum(math.comb(count, x) * rate**x * (1 - rate) ** (count - x)
               for x, (low, high) in enumerate(ends) if Fraction(low) <= rate <= Fraction(high))


def float_coverage(rate, count, ends):
    """exact_coverage's sum in doubles (each term to a few ulps): for scanning many rates."""
    return math.fsum(math.comb(count, x) * rate**x * (1 - rate) ** (count - x)
                     for x, (low, high) in enumerate(ends) if low <= rate <= high)


def ends_of(count, last):
    return [pass_fail_interval(x, count) for x in range(last + 1)]


def pass_fail(count, passes, n=1):
    return [Problem(f"t{i}", n, n * int(i < passes)) for i in range(count)]


def test_the_issues_file_of_1000_problems_and_3_passes_carries_the_note_with_its_figure():
    row = summarize(pass_fail(1000, 3), [1]).results[0]
    assert [round(100 * end, 2) for end in row.ci95] == [0.08, 0.82]
    assert to_json(row)["coverage_note"] == (
        "Every problem scored 0 or 1 and only 3 of 1,000 pass: for pass/fail counts like this the 95% interval's "
        "exact coverage falls to 91.7% at a true rate of 0.31%, a rate these data allow, not 95% (docs/coverage.md).")


@pytest.mark.parametrize("count", [164, 1000])
def test_the_quoted_coverage_is_the_exact_binomial_sum_just_past_an_intervals_end(count):
    lowest, rate = lowest_coverage(3, count)
    ends = ends_of(count, 60)   # counts past 60 have a chance below 1e-30 at rates near 3 / count
    step = Fraction(1, 10**15)
    exact = min(exact_coverage(Fraction(rate) + step, count, ends), exact_coverage(Fraction(rate) - step, count, ends))
    assert float(exact) == pytest.approx(lowest, abs=1e-9)
    assert lowest < 0.93 and 3.0 <= count * rate <= 3.07


def test_no_rate_the_count_allows_has_a_lower_exact_coverage_than_the_one_quoted():
    count = 1000
    lowest, _ = lowest_coverage(3, count)
    low, high = pass_fail_interval(3, count, ALLOWED)
    ends = ends_of(count, 60)
    rates = [low + (high - low) * i / 2000 for i in range(2001)]
    assert min(float_coverage(rate, count, ends) for rate in rates) >= lowest - 1e-12


def test_the_issues_rates_have_the_issues_coverage():
    """Audit figures: 91.9% at P = 164 and rate 0.0184; 92.8% at P = 1,000 and 0.0050."""
    for count, rate, figure in ((164, 0.0184, 91.9), (1000, 0.0050, 92.8)):
        assert round(100 * float(exact_coverage(rate, count, ends_of(count, 60))), 1) == figure


def test_near_1_mirrors_near_0():
    row = summarize(pass_fail(1000, 997), [1]).results[0]
    assert row.coverage_note.startswith(f"{NOTE} and only 3 of 1,000 fail:")
    assert "falls to 91.7% at a true rate of 99.69%" in row.coverage_note


def test_broken_and_solid_problems_at_any_k_are_pass_fail_values():
    summary = summarize(pass_fail(164, 160, n=5), [1, 5])
    assert all(row.coverage_note.startswith(f"{NOTE} and only 4 of 164 fail") for row in summary.results)
    assert all(row.pass_hat.coverage_note == row.coverage_note for row in summary.results)


@pytest.mark.parametrize("count, passes", [(10, 1), (20, 0), (30, 3),   # P <= 30: never below 93% (exact scan)
                                           (1000, 15), (1000, 500), (164, 11)])  # counts whose 99% rates are fine
def test_no_note_where_every_rate_the_count_allows_is_covered_93_percent(count, passes):
    assert summarize(pass_fail(count, passes), [1]).results[0].coverage_note is None


def test_values_between_0_and_1_are_not_pass_fail():
    values, weights = np.array([0.0, 0.5, 1.0]), np.array([997, 1, 2])
    assert binary_note(values, weights) is None and binary_note(np.array([0.0, 1.0]), np.array([997, 3]))


def test_the_note_reaches_the_command_and_the_page(client, tmp_path, capsys):
    text = "".join(f"t{i},1,{int(i < 3)}\n" for i in range(1000))
    path = tmp_path / "counts.csv"
    path.write_text(text)
    assert main([str(path), "-k", "1"]) == 0
    assert f"note: {NOTE} and only 3 of 1,000 pass" in " ".join(capsys.readouterr().out.split())
    html = client.post("/benchmark", data={"text": text, "k": "1"}).get_data(as_text=True)
    assert 'class="row-note coverage-note"' in html and "falls to 91.7% at a true rate of 0.31%" in html


def test_the_report_quotes_the_notes_figures():
    audit = REPORT["audit"]["three_of_1000"]
    assert (audit["lowest"], audit["at"]) == lowest_coverage(3, 1000)
    for row in REPORT["pass_fail"]:
        if row["short_problems"]:   # the draws at rates below 93% nearly all carry the note
            assert row["noted_where_short"] > 0.999 and row["missed_quietly_where_short"] < 0.001
        assert row["missed_quietly_most"] < 0.07 and row["quiet_coverage_lowest"] >= 0.93
