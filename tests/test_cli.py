"""python -m passk: the same numbers as the page and the API, as a table or JSON."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from passk.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
RESULTS = "".join(json.dumps({"task_id": f"T/{i % 3}", "passed": i % 4 == 0}) + "\n" for i in range(30))


def run(*args, stdin=""):
    """Run the real command line in a subprocess."""
    return subprocess.run([sys.executable, "-m", "passk", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_table_names_problems_samples_and_each_k(tmp_path, capsys):
    path = tmp_path / "samples.jsonl_results.jsonl"
    path.write_text(RESULTS)
    assert main([str(path), "-k", "1,5,20"]) == 0
    out = capsys.readouterr().out
    assert "3 problems, 30 samples (n = 10), format humaneval" in out
    assert "pass@20 is undefined" in out
    assert "pass@k" in out and "95% interval" in out


def test_json_equals_the_api_answer(tmp_path, capsys, client):
    path = tmp_path / "results.jsonl"
    path.write_text(RESULTS)
    assert main([str(path), "-k", "1,2,5", "--json"]) == 0
    cli_answer = json.loads(capsys.readouterr().out)
    api_answer = client.post("/api/v1/benchmark", content_type="multipart/form-data",
                             data={"file": (io.BytesIO(RESULTS.encode()), "results.jsonl"), "k": "1,2,5"}).json
    assert cli_answer == api_answer


def test_standard_input_with_a_dash():
    completed = run("-", "-k", "1,5", "--json", stdin="10 3\n10 0\n")
    assert completed.returncode == 0, completed.stderr
    answer = json.loads(completed.stdout)
    assert answer["problems"] == 2
    assert answer["results"][1]["pass_at_k"] == pytest.approx(11 / 24, rel=1e-13)


def test_evalplus_suite_option(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"},
                                               {"base_status": "pass", "plus_status": "pass"}]}}))
    assert main([str(path), "-k", "1", "--suite", "base", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["pass_at_k"] == 1.0
    assert main([str(path), "-k", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["pass_at_k"] == 0.5


@pytest.mark.parametrize("args, stdin, fragment", [
    (["missing-file.jsonl"], "", "Cannot read missing-file.jsonl"),
    (["-"], "", "empty"),
    (["-"], "10 11\n", "Line 1"),
    (["-", "-k", "0"], "10 3\n", "k"),
    (["-", "-k", "x"], "10 3\n", "x"),
])
def test_bad_input_exits_2_with_one_line_and_no_traceback(args, stdin, fragment):
    completed = run(*args, stdin=stdin)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert fragment in completed.stderr


def test_evalplus_table_shows_both_suites(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"}],
                                         "B": [{"base_status": "fail", "plus_status": "fail"}]}}))
    assert main([str(path), "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 problems, 2 samples" in out and "EvalPlus plus suite" in out and "EvalPlus base suite:" in out


def test_json_names_the_evalplus_suite(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"}]}}))
    assert main([str(path), "-k", "1", "--json", "--suite", "base"]) == 0
    assert json.loads(capsys.readouterr().out)["suite"] == "base"


def test_usage_mistakes_are_one_line_too():
    completed = run("-", "--suite", "xyz", stdin="10 3\n")
    assert completed.returncode == 2 and len(completed.stderr.strip().splitlines()) == 1
    assert "invalid choice: 'xyz'" in completed.stderr
