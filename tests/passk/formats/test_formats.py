"""Readers for harness output: every format, detection, errors with their place, limits, fuzzing."""

import ast
import codecs
import io
import re
import json
import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passk import formats
from passk.formats import FORMATS, SUITES, FormatError, Parsed, Problem, read_json_body, read_problems
from passk.writing.report import report_from_upload


def humaneval_jsonl(results):
    """human-eval results lines for {task_id: [passed, ...]}, shuffled so tasks interleave."""
    lines = [json.dumps({"task_id": task_id, "completion": "    return x\n", "result": "passed",
                         "passed": passed})
             for task_id, flags in results.items() for passed in flags]
    random.Random(7).shuffle(lines)
    return "\n".join(lines) + "\n"


def evalplus_json(statuses):
    """An EvalPlus eval_results.json for {task_id: [(base_status, plus_status), ...]}."""
    return json.dumps({"date": "2024-05-01 12:00", "hash": "abc", "eval": {
        task_id: [{"task_id": task_id, "solution": "def f(): pass", "base_status": base,
                   "plus_status": plus, "base_fail_tests": [], "plus_fail_tests": []}
                  for base, plus in samples]
        for task_id, samples in statuses.items()}})


def livecodebench_json(graded):
    return json.dumps([{"question_id": question_id, "code_list": ["x"] * len(flags),
                        "graded_list": flags, "pass@1": 0.5}
                       for question_id, flags in graded.items()])


def evalplus_old_json(statuses):
    """An EvalPlus 0.1.x eval_results.json for {task_id: [(base_status, plus_status), ...]}."""
    return json.dumps({"date": "2023-05-20 10:00", "hash": "abc", "eval": {
        task_id: {"nfiles": len(samples), "base": [[base, []] for base, _ in samples],
                  "plus": [[plus, []] for _, plus in samples if plus is not None]}
        for task_id, samples in statuses.items()}})


def bigcodebench_json(statuses):
    """A BigCodeBench *_eval_results.json for {task_id: [status, ...]}."""
    return json.dumps({"date": "2024-12-25 02:51", "eval": {
        task_id: [{"task_id": task_id, "solution": "def task_func(): pass", "status": status,
                   "details": {}} for status in samples]
        for task_id, samples in statuses.items()}})


def cruxeval_json(scored):
    return json.dumps({"raw_generations": {sample_id: ["'x'"] * len(flags) for sample_id, flags in scored.items()},
                       "raw_scored_generations": scored, "pass_at_1": 50.0, "pass_at_5": 60.0})


def livecodebench_eval_json(results):
    """A LiveCodeBench *_eval.json for {problem index: [[test results] per sample]}."""
    return json.dumps([{"pass@1": 0.5, "detail": {"pass@1": {}}}, results,
                       [["{}"] * len(samples) for samples in results.values()]])


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


EVALPLUS = {"HumanEval/0": [("pass", "pass"), ("pass", "fail"), ("fail", "fail")],
            "HumanEval/1": [("pass", "timeout"), ("timeout", "fail")]}


# --- each format ----------------------------------------------------------


def test_text_reads_n_c_per_line_and_names_problems_by_order():
    parsed = read_problems("10 3\n\n# a comment\n5\t0\n")
    assert counts(parsed) == [("problem 1", 10, 3), ("problem 2", 5, 0)]
    assert parsed.format == "text" and parsed.warnings == []


def test_text_reads_per_sample_lines_and_task_ids():
    parsed = read_problems("1 0 1 1 0\nHumanEval/0: 1 1 0\nmbpp:12: 1\nlcb/7: 200 37\n")
    assert counts(parsed) == [("problem 1", 5, 3), ("HumanEval/0", 3, 2), ("mbpp:12", 1, 1),
                              ("lcb/7", 200, 37)]


def test_text_two_zero_one_tokens_are_n_and_c_not_two_samples():
    assert counts(read_problems("1 0\n")) == [("problem 1", 1, 0)]


def test_csv_with_and_without_header_in_any_column_order():
    headerless = read_problems("HumanEval/0,10,3\nHumanEval/1,10,0\n")
    reordered = read_problems("C,Task_ID,n\n3,HumanEval/0,10\n0,HumanEval/1,10\n")
    assert counts(headerless) == counts(reordered) == [("HumanEval/0", 10, 3), ("HumanEval/1", 10, 0)]
    assert headerless.format == reordered.format == "csv"


def test_csv_per_sample_rows_are_merged_per_task():
    parsed = read_problems("task_id,passed\na,true\nb,0\na,False\na,1\nb,TRUE\n")
    assert counts(parsed) == [("a", 3, 2), ("b", 2, 1)]
    assert parsed.warnings == []


def test_humaneval_lines_of_one_task_need_not_be_adjacent():
    jsonl = humaneval_jsonl({"HumanEval/0": [True, False, True], "HumanEval/1": [False] * 4})
    parsed = read_problems(jsonl.encode())
    assert parsed.format == "humaneval"
    assert sorted(counts(parsed)) == [("HumanEval/0", 3, 2), ("HumanEval/1", 4, 0)]


def test_humaneval_is_read_from_a_binary_stream():
    jsonl = humaneval_jsonl({f"HumanEval/{t}": [t % 2 == 0, True] for t in range(50)})
    parsed = read_problems(io.BytesIO(jsonl.encode()))
    assert len(parsed.problems) == 50
    assert {(p.n, p.c) for p in parsed.problems} == {(2, 2), (2, 1)}


class NoSlurpStream(io.BytesIO):
    """A binary stream that fails the test if anyone reads it whole."""

    def read(self, size=-1):
        assert size is not None and 0 <= size <= formats.PEEK_BYTES, "read the whole stream"
        return super().read(size)


def test_humaneval_stream_is_read_line_by_line_never_whole():
    jsonl = humaneval_jsonl({f"HumanEval/{t}": [True, False, False] for t in range(2000)})
    assert len(jsonl) > 2 * formats.PEEK_BYTES
    parsed = read_problems(NoSlurpStream(jsonl.encode()))
    assert len(parsed.problems) == 2000 and {(p.n, p.c) for p in parsed.problems} == {(3, 1)}


@pytest.mark.parametrize("peek", [1, 5, 17, 64])
@pytest.mark.parametrize("content", [
    humaneval_jsonl({"a": [True, False], "b": [True]}),
    "task_id,n,c\na,3,1\nb,4,4\n",
    "3 1\n\n4 4",
])
def test_streamed_input_reads_the_same_across_chunk_boundaries(monkeypatch, content, peek):
    expected = counts(read_problems(content))
    monkeypatch.setattr(formats._input, "PEEK_BYTES", peek)
    assert counts(read_problems(io.BytesIO(content.encode()))) == expected


def test_humaneval_first_line_longer_than_the_detection_window():
    jsonl = humaneval_jsonl({"a": [True, True]}).replace("return x", "x" * 2 * formats.PEEK_BYTES)
    assert counts(read_problems(io.BytesIO(jsonl.encode()))) == [("a", 2, 2)]


@pytest.mark.parametrize(("suite", "expected"), [
    ("plus", [("HumanEval/0", 3, 1), ("HumanEval/1", 2, 0)]),
    ("base", [("HumanEval/0", 3, 2), ("HumanEval/1", 2, 1)]),
])
def test_evalplus_suites(suite, expected):
    parsed = read_problems(evalplus_json(EVALPLUS), suite=suite)
    assert parsed.format == "evalplus" and counts(parsed) == expected


def test_evalplus_default_suite_is_plus():
    assert counts(read_problems(evalplus_json(EVALPLUS))) == [("HumanEval/0", 3, 1), ("HumanEval/1", 2, 0)]


def test_evalplus_base_only_run_reads_with_base_suite():
    text = evalplus_json({"Mbpp/2": [("pass", None), ("fail", None)]})
    assert counts(read_problems(text, suite="base")) == [("Mbpp/2", 2, 1)]


def test_livecodebench_graded_lists():
    parsed = read_problems(livecodebench_json({"abc301_a": [True, False], "1873_A": [False, False, True]}))
    assert parsed.format == "livecodebench"
    assert counts(parsed) == [("abc301_a", 2, 1), ("1873_A", 3, 1)]


EVALPLUS_OLD = {"HumanEval/0": [("success", "success"), ("success", "failed"), ("failed", "success")],
                "HumanEval/1": [("success", "timed out"), ("timed out", "failed")]}


@pytest.mark.parametrize(("suite", "expected"), [
    ("plus", [("HumanEval/0", 3, 1), ("HumanEval/1", 2, 0)]),
    ("base", [("HumanEval/0", 3, 2), ("HumanEval/1", 2, 1)]),
])
def test_evalplus_0_1_layout_suites(suite, expected):
    parsed = read_problems(evalplus_old_json(EVALPLUS_OLD), suite=suite)
    assert parsed.format == "evalplus" and counts(parsed) == expected


def test_evalplus_0_1_base_only_run_reads_with_base_suite():
    text = evalplus_old_json({"Mbpp/2": [("success", None), ("failed", None)]})
    assert counts(read_problems(text, suite="base")) == [("Mbpp/2", 2, 1)]
    with pytest.raises(FormatError, match="choose the base suite"):
        read_problems(text)


def test_evalplus_0_1_report_shows_both_suites():
    report = report_from_upload(lambda: io.BytesIO(evalplus_old_json(EVALPLUS_OLD).encode()), [1])
    assert report.format == "evalplus" and report.suite == "plus"
    assert [(p.n, p.c) for p in report.other_suites["base"].problems] == [(3, 2), (2, 1)]


def test_bigcodebench_one_status_per_sample():
    parsed = read_problems(bigcodebench_json({"BigCodeBench/13": ["pass", "fail", "timeout", None, "pass"],
                                              "f_885_chien.py": ["fail"]}))
    assert parsed.format == "bigcodebench"
    assert counts(parsed) == [("BigCodeBench/13", 5, 2), ("f_885_chien.py", 1, 0)]


def test_cruxeval_scored_generations():
    parsed = read_problems(cruxeval_json({"sample_0": [True, False, True], "sample_1": [False]}))
    assert parsed.format == "cruxeval" and counts(parsed) == [("sample_0", 3, 2), ("sample_1", 1, 0)]


def test_livecodebench_eval_layout_passes_when_every_test_result_is_positive():
    parsed = read_problems(livecodebench_eval_json({
        "0": [[True, True], [True, False], [-2], [1, True], []],
        "1": [[-4], [True, -3], [0.5]],
    }))
    assert parsed.format == "livecodebench"
    assert counts(parsed) == [("0", 5, 3), ("1", 3, 1)]


@pytest.mark.parametrize("content", [
    evalplus_old_json({f"t{i}": [("success", "success")] for i in range(4)}),
    bigcodebench_json({f"t{i}": ["pass"] for i in range(4)}),
    cruxeval_json({f"t{i}": [True] for i in range(4)}),
    livecodebench_eval_json({str(i): [[True]] for i in range(4)}),
])
def test_new_layouts_keep_the_problem_limit(content):
    with pytest.raises(FormatError, match="more than 3 problems"):
        read_problems(content, max_problems=3, max_lines=10)
    assert len(read_problems(content, max_problems=4, max_lines=10).problems) == 4


@pytest.mark.parametrize("document", [
    [{"task_id": "a", "n": 10, "c": 3}, {"task_id": "b", "samples": [True, False]}],
    {"problems": [{"task_id": "a", "n": 10, "c": 3}, {"task_id": "b", "samples": [True, False]}]},
])
def test_json_counts_and_sample_lists(document):
    parsed = read_problems(json.dumps(document))
    assert parsed.format == "json" and counts(parsed) == [("a", 10, 3), ("b", 2, 1)]


def test_json_per_sample_rows_are_merged_per_task():
    rows = [{"task_id": "a", "passed": True}, {"task_id": "b", "passed": False},
            {"task_id": "a", "passed": False}]
    assert counts(read_problems(json.dumps(rows))) == [("a", 2, 1), ("b", 1, 0)]


def test_json_body_of_the_api():
    body = {"problems": [{"task_id": "a", "n": 5, "c": 5}, {"task_id": 7, "samples": [False]}], "k": [1]}
    assert read_json_body(body) == Parsed([Problem("a", 5, 5), Problem("7", 1, 0)], "json", [])


def test_task_ids_are_kept_as_given():
    task_id = '<script>alert("x")</script> ünï'
    assert counts(read_problems(json.dumps([{"task_id": task_id, "n": 1, "c": 1}]))) == [(task_id, 1, 1)]


def test_utf8_byte_order_mark_is_ignored():
    assert counts(read_problems("\ufefftask_id,n,c\na,2,1\n".encode())) == [("a", 2, 1)]


# --- detection and override -----------------------------------------------


@pytest.mark.parametrize(("content", "filename", "expected"), [
    ("10 3\n5 1\n", None, "text"),
    ("a: 1 0 1\n", None, "text"),
    ("a,10,3\n", None, "csv"),
    ("task_id,passed\na,true\n", None, "csv"),
    (humaneval_jsonl({"a": [True, False]}), None, "humaneval"),
    (humaneval_jsonl({"a": [True]}), "run_results.jsonl", "humaneval"),
    (evalplus_json(EVALPLUS), None, "evalplus"),
    (json.dumps({"eval": {"a": [{"base_status": "pass", "plus_status": "pass"}]}}, indent=2), None, "evalplus"),
    (livecodebench_json({"q": [True]}), None, "livecodebench"),
    (livecodebench_eval_json({"0": [[True]]}), None, "livecodebench"),
    (evalplus_old_json(EVALPLUS_OLD), None, "evalplus"),
    (bigcodebench_json({"a": ["pass"]}), None, "bigcodebench"),
    (json.dumps({"eval": {"a": [{"status": "pass"}]}}, indent=2), None, "bigcodebench"),
    (cruxeval_json({"a": [True]}), None, "cruxeval"),
    (json.dumps([{"task_id": "a", "n": 1, "c": 0}], indent=2), None, "json"),
])
def test_format_is_detected(content, filename, expected):
    assert read_problems(content, filename=filename).format == expected


def test_csv_extension_is_a_hint_when_the_first_line_has_no_comma():
    with pytest.raises(FormatError, match="Line 1: expected 3 columns task_id,n,c"):
        read_problems("a 10 3\n", filename="counts.csv")


def test_a_lone_json_sample_line_is_read_as_a_one_line_results_file():
    line = json.dumps({"task_id": "a", "passed": True}) + "\n"
    for parsed in (read_problems(line), read_problems(line, filename="samples.jsonl_results.jsonl")):
        assert parsed.format == "humaneval" and counts(parsed) == [("a", 1, 1)]


def test_a_long_run_of_blank_lines_is_not_an_empty_input():
    parsed = read_problems(b"\n" * (formats.PEEK_BYTES + 10) + b"10 3\n")
    assert counts(parsed) == [("problem 1", 10, 3)]
    with pytest.raises(FormatError, match=f"Line {formats.PEEK_BYTES + 11}:"):
        read_problems(b"\n" * (formats.PEEK_BYTES + 10) + b"10 x\n")


def test_explicit_format_overrides_detection():
    with pytest.raises(FormatError, match="Line 1"):
        read_problems("task_id,passed\na,true\n", fmt="text")
    parsed = read_problems(humaneval_jsonl({"a": [True]}), fmt="humaneval")
    assert parsed.format == "humaneval" and counts(parsed) == [("a", 1, 1)]


def test_pasted_text_may_mix_n_c_and_task_id_n_c_lines():
    parsed = read_problems("200 57\n200 0\nHumanEval/2,200,200\n", fmt="text")
    assert counts(parsed) == [("problem 1", 200, 57), ("problem 2", 200, 0), ("HumanEval/2", 200, 200)]


# --- errors name the place and what is allowed ------------------------------


def sample_line(**fields):
    return json.dumps({"task_id": "t", "passed": True, **fields})


ERRORS = [
    # (content, keyword arguments, expected fragments)
    ("", {}, ["The input is empty"]),
    ("  \n\n", {}, ["The input is empty"]),
    ("# only a comment\n", {}, ["The input is empty"]),
    ("[]", {}, ["The input is empty"]),
    (b"PK\x03\x04\x00\x00binary", {}, ["starts as a zip archive but cannot be opened as one"]),
    (b"10 3\n\xff\xfe 1\n", {}, ["Line 2", "not a text file"]),
    ("10 3\n5 x\n", {}, ["Line 2", "c must be a whole number"]),
    ("10 -3\n", {}, ["Line 1", "c must be a whole number from 0"]),
    ("10.5 3\n", {}, ["Line 1", "n must be a whole number"]),
    ("10 3\n3 10\n", {}, ["Line 2", "c = 10 is larger than n = 3"]),
    ("0 0\n", {}, ["Line 1", "no samples (n = 0)"]),
    (f"{10**12 + 1} 1\n", {}, ["Line 1", "n must be a whole number from 1 to 1,000,000,000,000"]),
    ("7\n", {}, ["Line 1", 'expected "n c"']),
    ("1 0 2 1\n", {}, ["Line 1", 'expected "n c"']),
    (": 1 0\n", {}, ["Line 1", "task id is empty"]),
    ("x" * 201 + ": 1 0\n", {}, ["Line 1", "201 characters", "at most 200"]),
    ("a,10,3\nb,10\n", {}, ["Line 2", "expected 3 columns task_id,n,c"]),
    ("id,n,c\na,1,1\n", {}, ["Line 1", "header must name the columns task_id,n,c"]),
    ("task_id,passed\na,yes\n", {}, ["Line 2", "passed must be true, false, 1 or 0"]),
    ("task_id,n,c\n\na,3,4\n", {}, ["Line 3", "c = 4 is larger than n = 3"]),
    (sample_line() + "\n{oops\n", {}, ["Line 2 is not valid JSON", "column 2"]),
    (sample_line() + "\n" + json.dumps({"task_id": "t"}) + "\n", {}, ["Line 2", '"passed" is missing']),
    (sample_line() + "\n" + json.dumps({"passed": True}) + "\n", {}, ["Line 2", '"task_id" is missing']),
    (sample_line() + "\n" + sample_line(passed="true") + "\n", {}, ["Line 2", "must be true or false"]),
    (sample_line() + "\n" + sample_line(passed=1) + "\n", {}, ["Line 2", "must be true or false"]),
    (sample_line() + "\n[1, 2]\n", {}, ["Line 2", "expected an object"]),
    ('{"eval": {"a": [}', {}, ["not valid JSON", "line 1, column 17"]),
    ("[" * 100_000, {}, ["nested too deeply"]),
    ('[{"task_id": "a", "n": 1, "c": 1}, {"task_id": "b", "n": 2}]', {}, ["At [1]", '"c" is missing']),
    ('[{"task_id": "a", "n": 2.5, "c": 1}]', {}, ["At [0].n", "whole number", "got 2.5"]),
    ('[{"task_id": "a", "n": "2", "c": 1}]', {}, ["At [0].n", "whole number", "send it as a number, not a string", 'got "2"']),
    ('[{"task_id": "a", "n": true, "c": 1}]', {}, ["At [0].n", "whole number"]),
    ('[{"task_id": "a", "n": 5, "c": -1}]', {}, ["At [0].c", "from 0"]),
    ('{"problems": [{"task_id": "a", "n": 2, "c": 3}]}', {}, ["At problems[0]", "c = 3 is larger than n = 2"]),
    ('{"problems": [{"task_id": "a", "samples": []}]}', {}, ["At problems[0]", "no samples"]),
    ('{"problems": [{"task_id": "a", "samples": [true, "x"]}]}', {}, ["At problems[0].samples[1]", "true or false"]),
    ('[{"task_id": ["a"], "n": 1, "c": 1}]', {}, ["At [0].task_id", "must be a string"]),
    ('[{"task_id": "\\ud800", "n": 1, "c": 1}]', {}, ["At [0].task_id", "unpaired surrogate"]),
    ('[{"task_id": "a", "passed": true}, {"task_id": "a", "passed": null}]', {}, ["At [1].passed", "true or false"]),
    ('{"k": [1]}', {}, ['fits none of the layouts passk reads (an object with the keys "k")',
                        'EvalPlus: {"eval"', 'SWE-bench: an object with "resolved_ids"', 'JSON: {"problems"']),
    ('[{"a": 1}]', {}, ['fits none of the layouts passk reads (a list of an object with the keys "a")']),
    ('{"k": [1]}', {"fmt": "json"}, ["fits none of the layouts"]),
    ("42", {"fmt": "json"}, ['"problems" list', "got 42"]),
    (evalplus_json({"HumanEval/3": [("pass", "pass")] * 2 + [("pass", "PASSED")]}), {},
     ['At eval["HumanEval/3"][2].plus_status', '"pass", "fail" or "timeout"']),
    (evalplus_json({"HumanEval/3": [("pass", None)]}), {}, ['eval["HumanEval/3"][0].plus_status', "base suite"]),
    (evalplus_json({"HumanEval/3": []}), {}, ['At eval["HumanEval/3"]', "no samples"]),
    ('{"eval": {"HumanEval/3": 3}}', {}, ['At eval["HumanEval/3"]', "list of samples", "EvalPlus 0.1.x"]),
    ('{"eval": {"HumanEval/3": {"base": []}}}', {}, ['At eval["HumanEval/3"]', '"plus" is missing']),
    ('{"eval": {"HumanEval/3": {"nfiles": 1, "base": [["passed", []]], "plus": []}}}', {},
     ['At eval["HumanEval/3"].base[0]', '"success", "failed" or "timed out"', 'got "passed"']),
    ('{"eval": {"HumanEval/3": {"nfiles": 1, "base": ["success"], "plus": []}}}', {},
     ['At eval["HumanEval/3"].base[0]', "[status, details]"]),
    ('{"eval": {"HumanEval/3": {"nfiles": 1, "base": [["success", []]], "plus": []}}}', {},
     ['At eval["HumanEval/3"].plus', "base suite"]),
    ('{"eval": {"HumanEval/3": {"nfiles": 2, "base": [["success", []]], "plus": [["success", []]]}}}', {},
     ['At eval["HumanEval/3"].nfiles', "2 samples", "base has 1 results"]),
    ('{"eval": {"HumanEval/3": {"nfiles": 2, "base": [["success", []]] , "plus": [["success", []]]}}}',
     {"suite": "base"}, ['At eval["HumanEval/3"].nfiles']),
    ('{"eval": {"HumanEval/3": {"base": [["success", []], ["failed", []]], "plus": [["success", []]]}}}', {},
     ['At eval["HumanEval/3"].plus', "1 results for 2 base results"]),
    ('{"eval": {"a": [{"status": "pass"}, {"status": "PASS"}]}}', {},
     ['At eval["a"][1].status', '"pass", "fail", "timeout" or null', 'got "PASS"']),
    ('{"eval": {"a": [{"status": "pass"}], "b": {"status": "pass"}}}', {}, ['At eval["b"]', "list of samples"]),
    ('{"eval": {"a": [{"status": "pass"}], "b": [{"solution": ""}]}}', {}, ['At eval["b"][0]', '"status" is missing']),
    ("[1, 2]", {"fmt": "bigcodebench"}, ["BigCodeBench", '"eval" maps each task id']),
    ('{"raw_scored_generations": {"sample_0": [true, 1]}}', {},
     ['At raw_scored_generations["sample_0"][1]', "true or false"]),
    ('{"raw_scored_generations": {"sample_0": []}}', {}, ['At raw_scored_generations["sample_0"]', "no samples"]),
    ('{"raw_scored_generations": [true]}', {}, ["CRUXEval", '"raw_scored_generations" maps each sample id']),
    ('[{"pass@1": 0.5}, {"0": [[true], [true, "x"]]}, []]', {}, ['At [1]["0"][1][1]', "error code"]),
    ('[{"pass@1": 0.5}, {"0": [[true], 3]}, []]', {}, ['At [1]["0"][1]', "list of test results"]),
    ('[{"pass@1": 0.5}, {"0": {"a": [true]}}, []]', {}, ['At [1]["0"]', "list of samples"]),
    ('[{"pass@1": 0.5}, {"0": []}, []]', {}, ['At [1]["0"]', "no samples"]),
    ('{"eval": {"a": [{"plus_status": "pass"}]}}', {}, ['At eval["a"][0]', '"base_status" is missing']),
    ("[1, 2]", {"fmt": "evalplus"}, ['"eval" maps each task id']),
    ('[{"question_id": "q", "graded_list": [true, true, true, true, true, true, true, 0]}]', {},
     ["At [0].graded_list[7]", "true or false"]),
    ('[{"question_id": "q", "graded_list": [true]}, {"graded_list": []}]', {}, ["At [1]", '"question_id" is missing']),
    ('{"a": 1}', {"fmt": "livecodebench"}, ['"question_id" and "graded_list"']),
    ("10 3\n", {"fmt": "yaml"}, ['Unknown format "yaml"', ", ".join(FORMATS)]),
    ("10 3\n", {"suite": "extra"}, ['Unknown suite "extra"', "base, plus"]),
]


@pytest.mark.parametrize(("content", "options", "fragments"), ERRORS)
def test_errors_say_what_and_where(content, options, fragments):
    with pytest.raises(FormatError) as caught:
        read_problems(content, **options)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message
    assert "\n" not in message


def test_error_for_json_body_that_is_not_an_object():
    with pytest.raises(FormatError, match='"problems" list'):
        read_json_body([{"task_id": "a", "n": 1, "c": 1}])


# --- warnings and limits ----------------------------------------------------


def test_duplicate_task_ids_in_counts_are_kept_with_a_warning():
    rows = "".join(f"t{i},2,1\nt{i},3,0\n" for i in range(7))
    parsed = read_problems(rows)
    assert len(parsed.problems) == 14
    [warning] = parsed.warnings
    assert '"t0", "t1", "t2", "t3", "t4" and 2 more' in warning and "7 task ids" in warning


def test_too_many_problems_are_refused():
    with pytest.raises(FormatError, match="more than 3 problems"):
        read_problems("1 1\n" * 4, max_problems=3)
    with pytest.raises(FormatError, match="more than 3 problems"):
        read_problems(humaneval_jsonl({f"t{i}": [True] for i in range(4)}), max_problems=3)
    with pytest.raises(FormatError, match="more than 3 problems"):
        read_problems(json.dumps([{"task_id": f"t{i}", "n": 1, "c": 1} for i in range(4)]), max_problems=3)
    assert len(read_problems("1 1\n" * 3, max_problems=3).problems) == 3
    assert len(read_problems("1 1\n" * 4).problems) == 4   # no limit unless one is given


def test_too_many_lines_are_refused_blank_ones_included():
    with pytest.raises(FormatError, match="more than 5 lines"):
        read_problems("1 1\n" + "\n" * 5, max_lines=5)
    with pytest.raises(FormatError, match="more than 5 lines"):
        read_problems("\n" * 6 + "1 1\n", max_lines=5)
    assert len(read_problems("\n" * 4 + "1 1\n", max_lines=5).problems) == 1


@pytest.mark.parametrize("blank", [b"\n", b"\r\n", b" \t\n"])
def test_blank_lines_before_the_first_problem_keep_line_numbers(blank):
    with pytest.raises(FormatError, match="^Line 70001: "):
        read_problems(blank * 70_000 + b"10 11\n")
    with pytest.raises(FormatError, match="empty"):
        read_problems(codecs.BOM_UTF8 + blank * 70_000)


def test_the_largest_count_is_accepted():
    assert counts(read_problems(f"{10**12} 1\n")) == [("problem 1", 10**12, 1)]


def test_formats_and_suites_are_listed():
    assert FORMATS == ("text", "csv", "humaneval", "evalarena", "evalplus", "bigcodebench", "cruxeval",
                       "livecodebench", "multiple", "swebench", "taubench", "inspect", "lmeval", "lighteval",
                       "everyevalever", "nemoskills", "json", "jsonl")
    assert SUITES == ("base", "plus")


# --- human-eval: the fast path for a task already seen changes nothing ----------


def no_fast_path(text, index):
    """A stand-in for formats.humaneval._scan_json that sends every line through the checked path."""
    raise StopIteration(index)


def humaneval_outcome(content):
    """What read_problems makes of content read as human-eval JSONL: the Parsed or the error."""
    try:
        return read_problems(io.BytesIO(content), fmt="humaneval")
    except FormatError as error:
        return str(error)


def awkward_samples():
    """(task_id, passed, line) for repeated tasks, with every kind of line the fast path hands on."""
    flags = [(f"HumanEval/{t}", t % 3 == 0 or s == 1) for t in range(40) for s in range(3)]
    samples = [(task_id, passed, sample_line(task_id=task_id, passed=passed)) for task_id, passed in flags]
    samples += [
        ("7", True, json.dumps({"task_id": 7, "passed": True})),
        ("7", False, json.dumps({"task_id": "7", "passed": False})),
        ("7", True, json.dumps({"passed": True, "task_id": 7, "result": "passed"})),
        ("HumanEval/1", True, '  {"task_id": "HumanEval/1", "passed": true}\t'),
        ("HumanEval/2", False, sample_line(task_id="HumanEval/2", passed=False) + "\r"),
        ("ünï 🙂", True, json.dumps({"task_id": "ünï 🙂", "passed": True})),
        ("ünï 🙂", False, json.dumps({"task_id": "ünï 🙂", "passed": False}, ensure_ascii=False)),
        ("HumanEval/3", False, sample_line(task_id="HumanEval/3", passed=False, result="failed: \ud83d\ude42")),
        (None, None, ""), (None, None, "   "), (None, None, "\r"),
    ]
    random.Random(11).shuffle(samples)
    return samples


@pytest.mark.parametrize("peek", [100, 4096, formats.PEEK_BYTES])
def test_humaneval_fast_path_reads_the_same_as_the_checked_path(peek):
    samples = awkward_samples()
    content = "\n".join(line for _, _, line in samples).encode() + b"\n"
    expected = {task_id: [0, 0] for task_id, _, _ in samples if task_id is not None}
    for task_id, passed, _ in samples:
        if task_id is not None:
            expected[task_id][0] += 1
            expected[task_id][1] += passed
    with mock.patch.object(formats._input, "PEEK_BYTES", peek):
        fast = humaneval_outcome(content)
        with mock.patch.object(formats.humaneval, "_scan_json", no_fast_path):
            assert humaneval_outcome(content) == fast
    assert {p.task_id: [p.n, p.c] for p in fast.problems} == expected and fast.warnings == []


LATE_ERRORS = [
    # (the bad line, after 300 good ones, a blank and a CRLF one; expected fragment)
    (b"{oops", "is not valid JSON: Expecting property name enclosed in double quotes at column 2."),
    (sample_line(task_id="HumanEval/0") + " x", "is not valid JSON: Extra data at column"),
    (sample_line(task_id="HumanEval/0", passed="true"), '"passed" must be true or false; got "true".'),
    (json.dumps({"task_id": "HumanEval/0"}), 'the field "passed" is missing.'),
    (json.dumps([{"task_id": "HumanEval/0", "passed": True}]), "expected an object; got a list."),
    (sample_line(task_id=["HumanEval/0"]), "the task id must be a string; got a list."),
    (sample_line(task_id="\ud800"), "the task id holds an unpaired surrogate"),
    ('{"task_id": "HumanEval/0", "passed": 1' + "0" * 5000 + "}", "holds an over-long number."),
    ("[" * 100_000, "is nested too deeply"),
    (sample_line(task_id="HumanEval/0") + "\x00", "is not UTF-8 text"),
    (b'{"task_id": "HumanEval/0", "passed": true, "completion": "\xff"}', "is not UTF-8 text"),
    # a surrogate encoded in UTF-8 bytes, which strict UTF-8 (unlike json.loads on bytes) refuses
    (b'{"task_id": "HumanEval/0", "passed": true, "completion": "\xed\xa0\x80"}', "is not UTF-8 text"),
]


@pytest.mark.parametrize("peek", [100, 4096])
@pytest.mark.parametrize(("bad_line", "fragment"), LATE_ERRORS)
def test_humaneval_error_after_the_fast_path_started_names_its_line(peek, bad_line, fragment):
    good = humaneval_jsonl({f"HumanEval/{t}": [True, False] * 50 for t in range(3)}).encode()
    bad_line = bad_line if isinstance(bad_line, bytes) else bad_line.encode()
    content = good + b"\n" + sample_line(task_id="HumanEval/1").encode() + b"\r\n" + bad_line + b"\n" + good
    with mock.patch.object(formats._input, "PEEK_BYTES", peek):
        fast = humaneval_outcome(content)
        with mock.patch.object(formats.humaneval, "_scan_json", no_fast_path):
            assert humaneval_outcome(content) == fast
    assert fast.startswith("Line 303") and fragment in fast


def line_bytes(text):
    return text.encode("utf-8", "surrogatepass")


HUMANEVAL_LINES = st.one_of(
    st.builds(lambda task_id, passed: json.dumps({"task_id": task_id, "passed": passed}).encode(),
              st.sampled_from(["a", "a", "b", 7, "7", "", " ", None, ["a"], "\ud800"]),
              st.sampled_from([True, False, True, 1, 0, "true", None])),
    st.sampled_from([b"", b"  ", b"\r", b"{", b"[1]", b'{"task_id": "a"}', b'{"passed": true}',
                     b'{"task_id": "a", "passed": true} x', b' {"task_id": "a", "passed": true}',
                     b'{"task_id": "a", "passed": false}\r', b"\x00", b"\xff", b"\xed\xa0\x80",
                     b"\xef\xbb\xbf{}"]),
    st.text(alphabet='{}[]":, ab\r\\utrue01\u2003', max_size=40).map(line_bytes),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(HUMANEVAL_LINES, max_size=30), st.sampled_from([b"\n", b"\r\n"]), st.integers(1, 300))
def test_humaneval_fast_and_checked_paths_agree_on_any_lines(lines, newline, peek):
    content = newline.join(lines)
    with mock.patch.object(formats._input, "PEEK_BYTES", peek):
        fast = humaneval_outcome(content)
        with mock.patch.object(formats.humaneval, "_scan_json", no_fast_path):
            assert humaneval_outcome(content) == fast


# --- nothing but FormatError, whatever the input -----------------------------


def assert_parsed_or_format_error(source, **options):
    try:
        parsed = read_problems(source, **options)
    except FormatError as error:
        assert str(error)
    else:
        assert parsed.problems and parsed.format in FORMATS
        assert all(0 <= p.c <= p.n and p.n >= 1 for p in parsed.problems)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_parse_or_raise_format_error(source):
    assert_parsed_or_format_error(source)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('01 \n:,#{}[]"tasknpcdegl_-.\\u0\x00é'), max_size=200),
       st.sampled_from((None,) + FORMATS), st.sampled_from(SUITES))
def test_any_text_in_any_format_parses_or_raises_format_error(source, fmt, suite):
    assert_parsed_or_format_error(source, fmt=fmt, suite=suite)


def _json_containers(inner):
    """Lists and objects of inner values, with the keys the readers look for."""
    keys = st.sampled_from(["task_id", "n", "c", "passed", "samples", "problems", "eval", "base_status",
                            "plus_status", "question_id", "graded_list"]) | st.text(max_size=3)
    return st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**13) | st.floats() | st.text(max_size=5),
    _json_containers, max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.sampled_from((None,) + FORMATS))
def test_any_json_document_parses_or_raises_format_error(document, fmt):
    assert_parsed_or_format_error(json.dumps(document), fmt=fmt)


# --- issue 7 §4: what a newcomer pasted -------------------------------------


def test_task_id_n_c_separated_by_spaces_is_read():
    parsed = read_problems("HumanEval/0 200 57\nHumanEval/1 200 0\n")
    assert parsed.format == "text"
    assert counts(parsed) == [("HumanEval/0", 200, 57), ("HumanEval/1", 200, 0)]


def test_task_id_n_c_separated_by_tabs_is_read_with_or_without_a_header():
    parsed = read_problems("task_id\tn\tc\nHumanEval/0\t200\t57\nmy task\t10\t3\n")
    assert counts(parsed) == [("HumanEval/0", 200, 57), ("my task", 10, 3)]
    assert counts(read_problems("HumanEval/0\t200\t57\n")) == [("HumanEval/0", 200, 57)]


def test_three_numbers_stay_an_error_rather_than_a_guessed_task_id():
    with pytest.raises(FormatError, match='Line 1: expected "n c", "task_id n c"'):
        read_problems("200 57 10\n")


def test_n_c_csv_rows_are_read_and_named_by_order():
    parsed = read_problems("200,57\n100,3\n")
    assert parsed.format == "csv" and counts(parsed) == [("problem 1", 200, 57), ("problem 2", 100, 3)]
    assert counts(read_problems("n,c\n200,57\n")) == [("problem 1", 200, 57)]
    assert counts(read_problems("200 57\n100,3\n", fmt="text")) == [("problem 1", 200, 57), ("problem 2", 100, 3)]
    with pytest.raises(FormatError, match="Line 2: expected 2 columns n,c"):
        read_problems("200,57\na,1,1\n")


@pytest.mark.parametrize("content", [
    "Dear diary, today I went to the market.\nIt rained.\n",
    "Dear diary today I ate 3 apples\n",
    "hello\n",
])
def test_prose_is_not_a_results_file_and_the_formats_are_listed(content):
    with pytest.raises(FormatError) as error:
        read_problems(content)
    message = str(error.value)
    assert message.startswith("Line 1 is ") and "this is not a results file; accepted formats: " in message
    assert all(name in message for name in formats.FORMAT_NAMES.values())
    assert "column" not in message and message.count(".") >= 1


def test_a_bad_first_line_of_results_keeps_its_own_message():
    for content, fragment in [("7\n", 'expected "n c"'), ("10 x\n", "c must be a whole number"),
                              ("a,10,3\nb,10\n", "expected 3 columns"), ("10 11\n", "larger than n")]:
        with pytest.raises(FormatError, match=fragment):
            read_problems(content)


def test_every_format_has_a_name_for_people():
    assert tuple(formats.FORMAT_NAMES) == FORMATS


@pytest.mark.parametrize("content, filename", [
    ("".join(json.dumps({"task_id": f"HumanEval/{i}", "completion": "    return 1\n"}) + "\n" for i in range(3)),
     "samples.jsonl"),
    ("".join(json.dumps({"task_id": f"HumanEval/{i}", "completion": "    return 1\n"}) + "\n" for i in range(3)), None),
    (json.dumps({"task_id": "HumanEval/0", "completion": "    return 1\n"}) + "\n", None),
])
def test_samples_before_evaluation_are_named_with_how_to_evaluate_them(content, filename):
    with pytest.raises(FormatError) as error:
        read_problems(content, filename=filename)
    message = str(error.value)
    assert message.startswith('Line 1 has a "completion" but no "passed": this looks like samples before evaluation')
    assert "`evaluate_functional_correctness samples.jsonl`" in message
    assert "samples.jsonl_results.jsonl" in message and "is missing" not in message


@pytest.mark.parametrize("content, expected", [
    (sample_line() + '\n{"task_id": "HumanEval/0", "completion": "abc\n',
     "Line 2 is not valid JSON: Unterminated string starting at column 42."),
    ('{"eval": {"a": "b', "The input is not valid JSON: Unterminated string starting at line 1, column 16."),
    (sample_line() + '\n{"task_id": "a\x01"}\n', "Line 2 is not valid JSON: Invalid control character at column 15."),
])
def test_json_errors_say_at_once(content, expected):
    with pytest.raises(FormatError) as error:
        read_problems(content)
    assert str(error.value) == expected and "at at" not in expected


@pytest.mark.parametrize("n", [10, 10.0, 1e1])
def test_a_json_count_is_a_number_with_a_whole_value(n):
    """One rule for counts in JSON, as the harnesses write them: numbers, 10 and 10.0 alike; strings refused."""
    assert read_json_body({"problems": [{"task_id": "a", "n": n, "c": 3.0}]}).problems == [Problem("a", 10, 3)]


@pytest.mark.parametrize("header", ["", "task_id\tn\tc\n"])
def test_tab_separated_task_ids_may_hold_commas(header):
    content = header + "HumanEval/0, variant a\t10\t3\nb\t5\t5\n"
    assert read_problems(content).problems == [Problem("HumanEval/0, variant a", 10, 3), Problem("b", 5, 5)]


def test_the_format_modules_import_one_another_without_a_circle():
    package = Path(formats.__file__).parent
    graph = {path.stem: set(imported_format_modules(path)) for path in package.glob("*.py")}
    assert graph["registry"] == set() and "detect" not in graph["_core"] | graph["counts"]
    done = set()

    def visit(module, path):
        assert module not in path, " -> ".join(path + [module])
        if module not in done:
            for other in graph.get(module, ()):
                visit(other, path + [module])
            done.add(module)

    for module in graph:
        visit(module, [])


def imported_format_modules(path):
    """The modules of passk.formats that a module's source imports, at any depth of its code."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "passk.formats":
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("passk.formats."):
            yield node.module.removeprefix("passk.formats.")


def test_every_reader_module_registered_itself_in_the_listed_order():
    from passk.formats import registry
    assert list(registry.titles()) == list(registry.FORMATS) == list(FORMATS)
    assert [module.NAME for module in registry.document_readers()] == list(registry.DOCUMENT_ORDER)
    assert all(registry.READERS[name].NAME == name for name in registry.FORMATS)


@given(st.text(max_size=210), st.from_regex(r"[0-9]{0,14}|[0-9 +-]{1,4}|٣", fullmatch=True),
       st.from_regex(r"[0-9]{0,14}|[0-9 +-]{1,4}|٣", fullmatch=True))
def test_a_csv_row_read_at_a_glance_is_the_row_the_full_checks_read(task_id, n_text, c_text):
    from passk.formats import table
    from passk.formats._core import count_text, problem, task_id_of
    glance = table._plain_problem(task_id.strip(), n_text, c_text)
    try:
        checked = problem(task_id_of(task_id.strip(), "Line 1"), count_text(n_text, "n", "Line 1"),
                          count_text(c_text, "c", "Line 1"), "Line 1")
    except FormatError:
        checked = None
    assert glance is None or glance == checked


@pytest.mark.parametrize("content", [
    "task_id,n,c\r\na,4,1\r\n".encode("utf-16"),          # PowerShell's > (a byte-order mark)
    "task_id,n,c\na,4,1\n".encode("utf-16-le"),           # no mark, little-endian
    "task_id,n,c\na,4,1\n".encode("utf-16-be"),
])
def test_a_utf16_file_is_named_as_such_with_what_to_do(content):
    with pytest.raises(FormatError, match=r"^The input is UTF-16 text .* save it as UTF-8"):
        read_problems(content)


@pytest.mark.parametrize("content, said", [
    (b"a 10 3\nb 10\n", 'Line 2: "b 10" has a task id and one number, but a line needs both n and c'),
    (b"a 10 3\nb x\n", "Line 2: n must be a whole number from 1 to"),
])
def test_a_pasted_line_short_of_a_column_says_so(content, said):
    with pytest.raises(FormatError, match="^" + re.escape(said)):
        read_problems(content)
