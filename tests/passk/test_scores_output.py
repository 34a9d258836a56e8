"""The graded scores' and avg@k's tables in every face: the command's table, --json and each -o format, and the
Python API (passk.summarize, passk.max_at_k), all holding the same numbers (passk.results.metrics' graded and avg@k tables)."""

import contextlib
import csv
import io
import json
from fractions import Fraction

import pytest

import passk
from passk.__main__ import main
from passk.writing.answers import to_json

GRADED = {"problems": [{"task_id": "a", "scores": [1, 0, 0.5, 0.25]}, {"task_id": "b", "scores": [0, 1, 1, 0.75]},
                       {"task_id": "c", "scores": [0, 0, 0, 0.5]}]}


@pytest.fixture
def graded_file(tmp_path):
    path = tmp_path / "graded.json"
    path.write_text(json.dumps(GRADED), encoding="utf-8")
    return str(path)


def answered(*argv):
    """(exit status, standard output, standard error) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv), stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_table_shows_the_mean_score_max_at_k_and_avg_at_k_with_the_seeds_spread(graded_file):
    status, out, _ = answered(graded_file, "-k", "1,2,4")
    assert status == 0
    assert "Mean score, each problem's mean over its samples: 41.67%" in out
    lines = out.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("k   max@k")))
    assert lines[at + 2].split()[:2] == ["2", "63.89%"] and lines[at + 2].split()[-1] == "66.67%"
    at = lines.index(next(line for line in lines if line.startswith("k   avg@k")))
    assert lines[at + 3].split()[-3:] == ["96.16%]", "9.62%", "4.81%"]   # sqrt(1/108), sqrt(1/432)


def test_json_holds_the_api_keys(graded_file):
    _, out, _ = answered(graded_file, "-k", "2,4", "--json")
    answer = json.loads(out)
    assert answer["graded"]["results"][0]["max_at_k"] == float(Fraction(23, 36))
    assert answer["avg_at_k"]["results"][1]["seeds_se"] == 0.048112522432468816   # the double nearest sqrt(1/432)


def test_csv_writes_each_table_with_every_digit(graded_file):
    _, out, _ = answered(graded_file, "-k", "2,4", "-o", "csv")
    tables = [list(csv.reader(io.StringIO(part))) for part in out.strip().split("\n\n")]
    graded = next(table for table in tables if table[0][1] == "max_at_k")
    averages = next(table for table in tables if table[0][1] == "avg_at_k")
    assert graded[0] == ["k", "max_at_k", "se", "ci95_low", "ci95_high", "first_k"]
    assert float(graded[1][1]) == float(Fraction(23, 36))
    assert averages[0] == ["k", "avg_at_k", "se", "ci95_low", "ci95_high", "seeds_sd", "seeds_se"]
    assert float(averages[2][5]) == 0.09622504486493763


@pytest.mark.parametrize("output, heading", [("markdown", "| k | max@k (%) |"), ("latex", "k & avg@k (\\%)")])
def test_paper_tables_hold_them_too(graded_file, output, heading):
    _, out, err = answered(graded_file, "-k", "2,4", "-o", output)
    assert heading in out and "Mean score, each problem's mean over its samples: 41.67%" in err


def test_the_python_api_gives_the_same_tables(graded_file):
    summary = passk.summarize(passk.read(graded_file), k=[2, 4])
    assert summary.graded.mean.value == float(Fraction(5, 12))
    assert summary.averages.results[1].seeds_sd == 0.09622504486493763
    assert summary.to_json()["graded"] == to_json(summary.graded)
    assert "max@k" in summary.to_markdown() and "avg@k" in summary._repr_html_()
    assert passk.max_at_k([0.0, 0.5, 1.0, 0.25], 2) == float(Fraction(17, 24)) and "max_at_k" in passk.__all__


def test_counts_alone_have_neither_table(tmp_path):
    path = tmp_path / "counts.json"
    path.write_text(json.dumps({"problems": [{"task_id": "a", "n": 4, "c": 1}]}), encoding="utf-8")
    _, out, _ = answered(str(path), "-k", "1", "--json")
    assert "graded" not in json.loads(out) and "avg_at_k" not in json.loads(out)
