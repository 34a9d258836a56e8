"""MultiPL-E, SWE-bench and eval-arena readers, gzip input and TSV rows: counts checked by hand, errors with their place."""

import gzip
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passk import limits
from passk.results.benchmark import summarize
from passk.formats import FORMAT_NAMES, FormatError, _input, read_files, read_problems
from where import FIXTURES

MULTIPLE = FIXTURES / "multiple" / "HumanEval_0_has_close_elements.results.json"
MULTIPLE_GZ = FIXTURES / "multiple" / "HumanEval_2_truncate_number.results.json.gz"
SWEBENCH = FIXTURES / "swebench" / "openai__gpt-4o-2024-08-06.lite-run1.json"
EVALARENA = FIXTURES / "evalarena" / "humaneval_code-llama-multi-34b.jsonl"


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def read_fixture(path, **options):
    return read_problems(path.read_bytes(), filename=path.name, **options)


def error_of(content, **options):
    with pytest.raises(FormatError) as caught:
        read_problems(content, **options)
    return str(caught.value)


def multiple_json(results, **fields):
    """A MultiPL-E results document for [(status, exit_code), ...]."""
    document = {"name": "HumanEval_1_separate_paren_groups", "language": "rs", "prompt": "fn f() {",
                "tests": "}", "stop_tokens": ["\n}"], **fields,
                "results": [{"program": "fn f() {}", "timestamp": 1, "stdout": "", "stderr": "",
                             "exit_code": exit_code, "status": status} for status, exit_code in results]}
    return json.dumps(document)


def swebench_json(resolved, unresolved, total=None, **lists):
    report = {"resolved_ids": resolved, "unresolved_ids": unresolved, "error_ids": [], "empty_patch_ids": [],
              "incomplete_ids": [], "schema_version": 2, **lists}
    listed = len(resolved) + len(unresolved) + sum(len(ids) for ids in lists.values())
    return json.dumps({"total_instances": listed if total is None else total, **report}, indent=4)


def arena_jsonl(*records):
    return "".join(json.dumps(record) + "\n" for record in records)


# --- MultiPL-E -----------------------------------------------------------------


def test_multiple_results_file_is_one_problem_whose_ok_samples_with_exit_code_zero_pass():
    parsed = read_fixture(MULTIPLE)
    assert parsed.format == "multiple" and parsed.warnings == []
    assert counts(parsed) == [("HumanEval_0_has_close_elements", 5, 2)]   # OK/0 twice of five
    assert "MultiPL-E" in parsed.source


def test_multiple_gzip_file_is_unpacked_and_reads_like_the_json_inside():
    parsed = read_fixture(MULTIPLE_GZ)
    assert parsed.format == "multiple" and counts(parsed) == [("HumanEval_2_truncate_number", 4, 3)]
    assert read_problems(gzip.decompress(MULTIPLE_GZ.read_bytes())) == parsed


@pytest.mark.parametrize(("status", "exit_code", "passed"), [
    ("OK", 0, True), ("OK", 1, False), ("OK", None, False), ("Exception", 0, False), ("Timeout", -1, False),
    ("SyntaxError", 1, False),
])
def test_multiple_pass_rule_is_status_ok_and_exit_code_zero(status, exit_code, passed):
    parsed = read_problems(multiple_json([(status, exit_code), ("Exception", 1)]))
    assert counts(parsed) == [("HumanEval_1_separate_paren_groups", 2, int(passed))]


def test_multiple_files_of_a_run_combine_into_one_run():
    parsed = read_files([(MULTIPLE.name, MULTIPLE.read_bytes()), (MULTIPLE_GZ.name, MULTIPLE_GZ.read_bytes())])
    assert parsed.format == "multiple"
    assert counts(parsed) == [("HumanEval_0_has_close_elements", 5, 2), ("HumanEval_2_truncate_number", 4, 3)]


@pytest.mark.parametrize(("content", "expected"), [
    (multiple_json([("OK", 0)]).replace(', "status": "OK"', ""), 'At results[0]: the field "status" is missing.'),
    (multiple_json([("OK", 0), ("OK", "0")]), 'At results[1].exit_code: expected a whole number (or null); got "0".'),
    (multiple_json([("OK", 0), (True, 0)]), 'At results[1].status: expected a status such as "OK"'),
    (multiple_json([]), 'has no samples (n = 0)'),
    (json.dumps({"name": "x", "language": "lua", "results": {"a": 1}}), "At results: expected a list of results"),
    (json.dumps({"name": "", "language": "lua", "results": []}), "At name: the task id is empty"),
    (json.dumps({"name": "x", "language": "lua", "completions": ["  return 1"]}),
     'The input has "completions" but no "results": this is a MultiPL-E completions file before evaluation'),
])
def test_multiple_errors_name_the_key_path(content, expected):
    assert expected in error_of(content)


def test_multiple_format_chosen_for_another_document_names_what_is_missing():
    assert error_of(json.dumps({"language": "lua", "results": []}), fmt="multiple") == \
        'At the top level: the field "name" is missing.'


# --- gzip input ---------------------------------------------------------------


def test_gzip_input_of_any_format_is_unpacked_and_streamed():
    lines = "".join(json.dumps({"task_id": f"t{i % 3}", "passed": i % 2 == 0}) + "\n" for i in range(30_000))
    parsed = read_problems(gzip.compress(lines.encode()))
    assert parsed.format == "humaneval" and counts(parsed) == [("t0", 10_000, 5_000), ("t1", 10_000, 5_000),
                                                              ("t2", 10_000, 5_000)]
    assert counts(read_problems(gzip.compress(b"a 10 3\nb 10 0\n"))) == [("a", 10, 3), ("b", 10, 0)]


def test_gzip_input_larger_than_max_bytes_is_refused_naming_the_limit():
    content = gzip.compress(b"a 10 3\n" * 1000)
    assert counts(read_problems(content, max_bytes=7000))[0] == ("a", 10, 3)
    message = error_of(content, max_bytes=6999)
    assert message.startswith("The gzip-compressed input unpacks to more than 6,999 bytes, the most that is read")


def test_gzip_input_over_the_limit_is_refused_while_streaming_lines(monkeypatch):
    monkeypatch.setattr(_input, "LIMITS", replace(limits.LIMITS, unpacked_bytes=200_000))
    lines = "".join(json.dumps({"task_id": "a", "passed": True}) + "\n" for _ in range(10_000))   # 330,000 bytes
    assert "unpacks to more than 200 KB" in error_of(gzip.compress(lines.encode()))


def test_a_gzip_bomb_unpacks_no_further_than_a_request_may_unpack():
    member = gzip.compress(b"\n" * 2**20)   # gzip members one after another are one stream
    bomb = member * (limits.LIMITS.unpacked_bytes // 2**20 + 1)
    assert len(bomb) < 2**20
    assert "unpacks to more than 256 MiB" in error_of(bomb)


@pytest.mark.parametrize("content", [
    gzip.compress(b"a 10 3\n" * 100, mtime=0)[:20],
    gzip.compress(b"a 10 3\n", mtime=0)[:-8] + b"\x00" * 8,
    b"\x1f\x8b" + b"not gzip at all",
    gzip.compress(b"a 10 3\n", mtime=0) + b"trailing garbage",
], ids=["cut short", "wrong checksum", "only the magic bytes", "trailing garbage"])
def test_a_broken_gzip_stream_is_a_format_error(content):
    assert error_of(content).startswith("The input starts as gzip-compressed data but cannot be unpacked (")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.booleans())
def test_any_bytes_after_the_gzip_magic_parse_or_raise_format_error(data, compress):
    content = gzip.compress(data) if compress else b"\x1f\x8b" + data
    try:
        parsed = read_problems(content)
    except FormatError as error:
        assert str(error)
    else:
        assert all(0 <= p.c <= p.n and p.n >= 1 for p in parsed.problems)


# --- SWE-bench ----------------------------------------------------------------


def test_swebench_report_is_one_sample_per_instance_passed_when_resolved():
    parsed = read_fixture(SWEBENCH)
    assert parsed.format == "swebench" and parsed.warnings == [
        "Only 9 of the 10 instances were submitted: 3 resolved is 30.0% of all 10 and 33.3% of the 9 submitted. "
        "passk counts all 10 (the 1 not submitted as unresolved), as SWE-bench's own resolved_instances / "
        "total_instances does; a figure over the submitted alone is the 33.3%."]
    assert len(parsed.problems) == 10 and {p.n for p in parsed.problems} == {1}
    assert [p.task_id for p in parsed.problems if p.c] == ["astropy__astropy-12907", "django__django-11099",
                                                           "sympy__sympy-20590"]
    report = json.loads(SWEBENCH.read_text())
    [result] = summarize(parsed.problems, [1]).results
    assert result.pass_at_k == report["resolved_instances"] / report["total_instances"] == 0.3


def test_swebench_error_empty_patch_and_incomplete_instances_count_as_failed():
    parsed = read_problems(swebench_json(["a"], ["b"], error_ids=["c"], empty_patch_ids=["d"], incomplete_ids=["e"]))
    assert counts(parsed) == [("a", 1, 1), ("b", 1, 0), ("c", 1, 0), ("d", 1, 0), ("e", 1, 0)]


def test_swebench_report_of_all_its_instances_submitted_has_no_warning():
    report = json.loads(swebench_json(["a"], ["b"]))
    assert read_problems(json.dumps({**report, "submitted_ids": ["a", "b"], "submitted_instances": 2})).warnings == []


@pytest.mark.parametrize("submitted", [{"submitted_ids": ["a", "b"]}, {"submitted_instances": 2}])
def test_swebench_report_of_few_instances_submitted_gives_both_rates(submitted):
    report = json.loads(swebench_json(["a"], ["b"], incomplete_ids=[f"x{index}" for index in range(6)]))
    [warning] = read_problems(json.dumps({**report, **submitted})).warnings
    assert warning.startswith("Only 2 of the 8 instances were submitted: 1 resolved is 12.5% of all 8 and 50.0% of "
                              "the 2 submitted. passk counts all 8 (the 6 not submitted as unresolved)")


def test_swebench_report_listing_fewer_ids_than_total_instances_warns():
    parsed = read_problems(swebench_json(["a"], ["b", "c"], total=300))
    assert counts(parsed) == [("a", 1, 1), ("b", 1, 0), ("c", 1, 0)]
    assert parsed.warnings == ["The report lists 3 instance ids but total_instances is 300: the 297 not listed are "
                               "left out, so pass@1 here is over the 3 listed, not resolved_instances / "
                               "total_instances as SWE-bench reports it."]


def test_swebench_runs_of_one_model_combine_into_samples_per_instance():
    runs = [("m.run1.json", swebench_json(["a", "b"], ["c"])), ("m.run2.json", swebench_json(["a"], ["b", "c"])),
            ("m.run3.json", swebench_json(["a", "c"], ["b"]))]
    assert counts(read_files(runs)) == [("a", 3, 3), ("b", 3, 1), ("c", 3, 1)]


@pytest.mark.parametrize(("content", "expected"), [
    (swebench_json(["a", "b"], ["c", "b"]),
     'At unresolved_ids[1]: the instance "b" is also in resolved_ids; an instance is either resolved or not'),
    (swebench_json(["a"], [], error_ids=["a"]), 'At error_ids[0]: the instance "a" is also in resolved_ids'),
    (swebench_json(["a", {"id": 1}], []), "At resolved_ids[1]: the task id must be a string; got an object."),
    (json.dumps({"resolved_ids": "a", "unresolved_ids": []}), 'At resolved_ids: expected a list of instance ids; got "a".'),
    (json.dumps({"resolved_ids": [], "unresolved_ids": [], "error_ids": 3}),
     "At error_ids: expected a list of instance ids; got 3."),
    (json.dumps({"resolved_ids": [], "unresolved_ids": []}), "The input is empty"),
])
def test_swebench_errors_name_the_key_path(content, expected):
    assert expected in error_of(content)


def test_swebench_format_chosen_for_another_document_names_what_is_missing():
    assert error_of(json.dumps({"resolved_ids": ["a"]}), fmt="swebench") == \
        'At the top level: the field "unresolved_ids" is missing.'


# --- eval-arena ---------------------------------------------------------------


def test_evalarena_records_give_correct_of_count_and_add_up_per_example():
    parsed = read_fixture(EVALARENA)
    assert parsed.format == "evalarena" and parsed.warnings == []
    assert counts(parsed) == [("HumanEval/0", 2, 2), ("HumanEval/1", 5, 4), ("HumanEval/2", 2, 0),
                              ("HumanEval/3", 10, 3)]


def test_evalarena_records_without_count_are_one_sample_each():
    content = arena_jsonl({"example_id": "a", "correct": True}, {"example_id": "b", "correct": 0},
                          {"example_id": "a", "correct": False}, {"example_id": "a", "correct": 1},
                          {"example_id": "c", "pass1": 1}, {"example_id": "c", "pass1": 0.0})
    assert counts(read_problems(content)) == [("a", 3, 2), ("b", 1, 0), ("c", 2, 1)]


def test_evalarena_pass1_of_count_is_read_when_correct_is_left_out():
    content = arena_jsonl({"model": "m", "example_id": "leetcode.2728", "pass1": 0.3, "count": 10},
                          {"model": "m", "example_id": "leetcode.2730", "pass1": 1.0, "count": 10},
                          {"model": "m", "example_id": "y", "pass1": 2 / 3, "count": 3})
    assert counts(read_problems(content)) == [("leetcode.2728", 10, 3), ("leetcode.2730", 10, 10), ("y", 3, 2)]


def test_evalarena_is_told_from_human_eval_jsonl_by_its_example_id():
    one = arena_jsonl({"benchmark_id": "humaneval", "model": "m", "example_id": "HumanEval/0", "correct": 1,
                       "count": 2})
    for content, filename in [(one, None), (one, "arena.jsonl"), (one * 3, None)]:
        assert read_problems(content, filename=filename).format == "evalarena"
    human_eval = arena_jsonl({"task_id": "HumanEval/0", "example_id": 3, "passed": True}) * 2
    assert read_problems(human_eval).format == "humaneval"


def test_evalarena_file_of_several_models_without_a_choice_is_refused_naming_at_most_five():
    models = [f"model-{index}" for index in range(7)]
    content = arena_jsonl(*({"model": model, "example_id": "HumanEval/0", "correct": 1, "count": 1}
                            for model in models))
    assert error_of(content) == ('The file holds the records of 7 models ("model-0", "model-1", "model-2", '
                                 '"model-3", "model-4" and 2 more); choose one with the suite choice (suite=, '
                                 "--suite), or rank them all with `passk --runs FILE`.")
    assert error_of(content, suite="base") == error_of(content)
    assert '2 models ("a", "b")' in error_of(arena_jsonl({"model": "a", "example_id": "x", "correct": 1},
                                                         {"model": "b", "example_id": "x", "correct": 1}))


def several_models():
    return arena_jsonl({"model": "a", "example_id": "x", "correct": 1}, {"model": "b", "example_id": "x", "correct": 0},
                       {"model": "a", "example_id": "y", "correct": 0, "count": 2},
                       {"model": "b", "example_id": "y", "pass1": 0.5, "count": 2},
                       {"model": "a", "example_id": "x", "correct": 1})


def test_evalarena_model_chosen_with_suite_is_read_as_its_run():
    assert counts(read_problems(several_models(), suite="a")) == [("x", 2, 2), ("y", 2, 0)]
    parsed = read_problems(several_models(), suite="b")
    assert parsed.format == "evalarena" and counts(parsed) == [("x", 1, 0), ("y", 2, 1)]
    assert counts(read_files([("m.jsonl", several_models())], suite="b")) == [("x", 1, 0), ("y", 2, 1)]


def test_evalarena_unknown_model_is_refused_listing_the_models():
    assert error_of(several_models(), suite="c") == 'The file has no eval-arena model "c"; its models: "a", "b".'
    one = arena_jsonl({"model": "a", "example_id": "x", "correct": 1})
    assert counts(read_problems(one, suite="a")) == [("x", 1, 1)]
    assert error_of(one, suite="z") == 'The file has no eval-arena model "z"; its models: "a".'


def test_evalarena_one_model_with_some_records_unnamed_reads_as_before():
    content = arena_jsonl({"model": "a", "example_id": "x", "correct": 1}, {"example_id": "y", "correct": 0},
                          {"model": "a", "example_id": "y", "correct": 1}, {"example_id": "x", "correct": 0})
    assert counts(read_problems(content)) == [("x", 2, 1), ("y", 2, 1)]


@pytest.mark.parametrize(("records", "expected"), [
    ([{"example_id": "a", "correct": 1}, {"example_id": "b", "correct": 3, "count": 2}],
     "Line 2: c = 3 is larger than n = 2"),
    ([{"example_id": "a", "correct": 1, "count": "2"}], 'Line 1: "count" must be a whole number from 0 to'),
    ([{"example_id": "a", "correct": 2}], 'Line 1: "correct" must be true, false, 1 or 0 for one sample; '
                                          'with several samples give "count" too; got 2.'),
    ([{"example_id": "a", "pass1": 0.35, "count": 10}],
     'Line 1: "pass1" = 0.35 of "count" = 10 samples is not a whole number of correct samples'),
    ([{"example_id": "a", "pass1": 1.5, "count": 10}], 'Line 1: "pass1" must be a fraction from 0 to 1; got 1.5.'),
    ([{"example_id": "a", "count": 10}], 'Line 1: the field "pass1" is missing.'),
    ([{"example_id": "a", "count": 0, "correct": 0}], 'Line 1: task "a" has no samples (n = 0)'),
    ([{"example_id": "a", "model": "m"}], 'Line 1: the field "correct" is missing; give "correct"'),
    ([{"example_id": ["a"], "correct": 1}], "Line 1: the task id must be a string; got a list."),
])
def test_evalarena_errors_name_the_line_and_field(records, expected):
    assert expected in error_of(arena_jsonl(*records))


def test_evalarena_lines_that_are_not_records_name_their_line():
    first = arena_jsonl({"example_id": "a", "correct": 1})
    assert error_of(first + '{"example_id": "b", "correct": \n') == \
        "Line 2 is not valid JSON: Expecting value at column 32."
    assert error_of(first + "[1, 2]\n") == "Line 2: expected an object; got a list."
    assert error_of(first + '{"correct": 1}\n') == 'Line 2: the field "example_id" is missing.'


def test_evalarena_keeps_the_problem_limit():
    content = arena_jsonl(*({"example_id": f"e{index}", "correct": 1} for index in range(3)))
    assert len(read_problems(content, max_problems=3).problems) == 3
    assert "more than 2 problems" in error_of(content, max_problems=2)


# --- TSV rows and the list of formats -------------------------------------------


def test_tsv_rows_with_a_header_are_read_as_task_id_n_c():
    content = "task_id\tn\tc\r\nHumanEval/0\t200\t57\r\nmy task\t10\t3\r\n"
    parsed = read_problems(content.encode(), filename="counts.tsv")
    assert parsed.format == "text" and counts(parsed) == [("HumanEval/0", 200, 57), ("my task", 10, 3)]
    assert "Line 3:" in error_of("task_id\tn\tc\nA\t10\t3\nB\t10\t11\n", filename="counts.tsv")


def test_not_a_results_file_lists_the_new_formats():
    message = error_of("Dear diary, today I went to the market.\n")
    for name in ("multiple", "swebench", "evalarena"):
        assert FORMAT_NAMES[name] in message
    assert {"multiple", "swebench", "evalarena"} <= FORMAT_NAMES.keys()


# Fixtures of a layout passk refuses, with their own tests (tests/passk/formats/test_evalarena_shares.py).
REFUSED_FIXTURES = {"cruxeval-input_phind_pass1_shares.jsonl"}


def test_every_fixture_is_detected_without_a_format():
    expected = {"multiple": "multiple", "swebench": "swebench", "evalarena": "evalarena"}
    for folder, fmt in expected.items():
        files = [path for path in (FIXTURES / folder).iterdir() if path.name not in {"README.md", *REFUSED_FIXTURES}]
        assert files and all(read_fixture(path).format == fmt for path in files)
