"""Per-problem counts as JSON Lines ({"id", "n", "c"} a line): read by every face of passk, errors naming the line.

Each pass@k is checked against the exact mean of 1 - C(n - c, k) / C(n, k) over the fixture's problems
(tests/fixtures/countlines/README.md gives its counts).
"""

import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import passk
from passk.__main__ import main
from passk.formats import FORMAT_NAMES, FORMATS, FormatError, read_files, read_problems
from passk.formats.detect import detect_format

FIXTURES = Path(__file__).parents[2] / "fixtures" / "countlines"
RUN_A, RUN_B = FIXTURES / "run_a.jsonl", FIXTURES / "run_b.jsonl"
COUNTS_A = [("p1", 10, 7), ("p2", 10, 0), ("p3", 10, 10), ("p4", 10, 3), ("p5", 10, 1)]
COUNTS_B = [("p1", 10, 9), ("p2", 10, 2), ("p3", 10, 10), ("p4", 10, 5), ("p5", 10, 0)]


def counts(parsed):
    return [(problem.task_id, problem.n, problem.c) for problem in parsed.problems]


def exact_pass_at_k(problems, k):
    """The exact mean over (task id, n, c) of 1 - C(n - c, k) / C(n, k)."""
    return sum(1 - Fraction(math.comb(n - c, k), math.comb(n, k)) for _, n, c in problems) / len(problems)


def lines(*records):
    return "".join(json.dumps(record) + "\n" for record in records).encode()


def test_each_line_is_a_problem_named_by_id_with_n_samples_of_which_c_passed():
    parsed = read_problems(RUN_A.read_bytes(), filename=RUN_A.name)
    assert parsed.format == "jsonl" and counts(parsed) == COUNTS_A
    assert parsed.warnings == [] and parsed.source == ""


def test_task_id_num_samples_and_num_correct_are_read_as_id_n_and_c():
    parsed = read_problems(RUN_B.read_bytes(), filename=RUN_B.name)
    assert parsed.format == "jsonl" and counts(parsed) == COUNTS_B


@pytest.mark.parametrize("filename", [None, "counts.jsonl", "counts.json", "counts.txt"])
def test_the_layout_is_detected_by_its_first_line_whatever_the_file_is_called(filename):
    assert detect_format(RUN_A.read_bytes(), filename) == "jsonl"
    assert detect_format(lines({"id": "a", "n": 2, "c": 1}), filename) == "jsonl"   # one line alone too
    assert counts(read_problems(lines({"id": "a", "n": 2, "c": 1}), filename=filename)) == [("a", 2, 1)]


def test_a_task_id_with_counts_is_counts_not_a_human_eval_sample():
    assert detect_format(lines({"task_id": "HumanEval/0", "n": 5, "c": 2}) * 2, "r.jsonl") == "jsonl"
    assert detect_format(lines({"task_id": "HumanEval/0", "passed": True}) * 2, "r.jsonl") == "humaneval"


def test_other_keys_are_ignored_and_a_whole_float_is_a_count():
    parsed = read_problems(lines({"id": 7, "n": 4.0, "c": 1, "model": "m", "pass@1": 0.25}))
    assert counts(parsed) == [("7", 4, 1)]


def test_the_pass_at_k_of_counts_lines_is_the_exact_mean():
    summary = passk.summarize(passk.read(RUN_A), k=[1, 5, 10])
    for result in summary.results:
        assert abs(result.pass_at_k - float(exact_pass_at_k(COUNTS_A, result.k))) <= 1e-15, result.k
    assert exact_pass_at_k(COUNTS_A, 1) == Fraction(21, 50)


def test_a_task_id_on_two_lines_is_two_problems_and_a_warning():
    parsed = read_problems(lines({"id": "a", "n": 2, "c": 1}, {"id": "a", "n": 2, "c": 2}))
    assert counts(parsed) == [("a", 2, 1), ("a", 2, 2)]
    assert parsed.warnings == ['1 task id appears more than once and each row was kept as its own problem: "a".']


def test_files_of_one_run_add_up_per_task_id():
    parsed = read_files([(RUN_A.name, RUN_A.read_bytes()), (RUN_B.name, RUN_B.read_bytes())])
    assert parsed.format == "jsonl"
    assert counts(parsed) == [(a, n + m, c + d) for (a, n, c), (_, m, d) in zip(COUNTS_A, COUNTS_B)]


@pytest.mark.parametrize("content, message", [
    (lines({"id": "a", "n": 2, "c": 1}, {"id": "b", "n": 2}),
     'Line 2: the field "c" is missing; "n" (samples generated) and "c" (samples that passed) go together.'),
    (lines({"id": "a", "n": 2, "c": 1}, {"task_id": "b", "num_correct": 1}),
     'Line 2: the field "num_samples" is missing; "num_samples" (samples generated) and "num_correct"'),
    (lines({"id": "a", "n": 2, "c": 1}, {"id": "b", "samples": 2}),
     'Line 2: the fields "n" and "c" are missing; give each problem "n" (samples generated) and "c"'),
    (lines({"id": "a", "n": 2, "c": 1}, {"name": "b", "n": 2, "c": 1}),
     'Line 2: the field "id" is missing; name each problem with "id" or "task_id".'),
    (lines({"id": "a", "n": 2, "c": 3}), "Line 1: c = 3 is larger than n = 2; c counts the samples that passed"),
    (lines({"id": "a", "n": 0, "c": 0}), 'Line 1: task "a" has no samples (n = 0)'),
    (lines({"id": "a", "n": "10", "c": 1}), "Line 1: n must be a whole number from 1 to 1,000,000,000,000; send it "
                                            'as a number, not a string; got "10".'),
    (lines({"id": "a", "num_samples": 3, "num_correct": 1.5}), 'Line 1: "num_correct": c must be a whole number'),
    (lines({"id": None, "n": 2, "c": 1}), 'Line 1: "id": the task id must be a string; got null.'),
    (lines({"id": "a", "n": 2, "c": 1}) + b'{"id": "b", "n": 2,\n', "Line 2 is not valid JSON: Expecting property "
                                                                   "name enclosed in double quotes at column 20."),
    (lines({"id": "a", "n": 2, "c": 1}) + b"[1, 2]\n", "Line 2: expected an object; got a list."),
])
def test_errors_name_the_line(content, message):
    with pytest.raises(FormatError) as error:
        read_problems(content, filename="counts.jsonl")
    assert str(error.value).startswith(message)


def test_the_problem_limit_counts_lines():
    with pytest.raises(FormatError, match="problems"):
        read_problems(RUN_A.read_bytes(), max_problems=4)


def test_the_format_is_listed_and_can_be_chosen():
    assert "jsonl" in FORMATS and FORMAT_NAMES["jsonl"] == 'JSONL counts ({"id", "n", "c"} a line)'
    assert counts(read_problems(RUN_A.read_bytes(), fmt="jsonl")) == COUNTS_A


# --- the command, the API and the page --------------------------------------------------------------------------


def test_the_command_reads_a_counts_file(capsys):
    assert main([str(RUN_A), "-k", "1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["format"] == "jsonl" and answer["problems"] == 5
    assert abs(answer["results"][0]["pass_at_k"] - 0.42) <= 1e-15


def test_the_command_compares_two_counts_files(capsys):
    assert main(["--runs", str(RUN_A), str(RUN_B), "-k", "1", "-o", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [run["format"] for run in answer["runs"]] == ["jsonl", "jsonl"]
    [result] = answer["results"]
    assert [(run["name"], run["pass_at_k"]) for run in result["ranking"]] == [(str(RUN_B), 0.52), (str(RUN_A), 0.42)]
    [pair] = result["pairs"]
    # A - B on each problem at k = 1: -0.2, -0.2, 0, -0.2, +0.1; mean -1/10, SE² = (0.08 / 4) / 5 = 1/250
    assert pair["paired"] == 5 and abs(pair["difference"] - float(Fraction(-1, 10))) <= 1e-15
    assert abs(pair["se"] - math.sqrt(1 / 250)) <= 1e-15


def test_the_api_reads_an_uploaded_counts_file(client):
    body = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(RUN_B.read_bytes()), RUN_B.name), "k": "1,10"},
                       content_type="multipart/form-data").json
    assert body["format"] == "jsonl" and body["problems"] == 5
    for result in body["results"]:
        assert abs(result["pass_at_k"] - float(exact_pass_at_k(COUNTS_B, result["k"]))) <= 1e-15


def test_the_page_offers_the_format_and_reads_an_upload(client):
    assert '<option value="jsonl">jsonl</option>' in client.get("/benchmark").get_data(as_text=True)
    html = client.post("/benchmark", data={"file": (io.BytesIO(RUN_A.read_bytes()), RUN_A.name), "k": "1"},
                       content_type="multipart/form-data").get_data(as_text=True)
    assert "42.00%" in html and "JSONL counts" in html
