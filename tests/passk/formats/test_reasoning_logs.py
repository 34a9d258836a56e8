"""NeMo-Skills output-rs<seed>.jsonl: each seed file one sample per problem, seed files added up into one run.

The fixtures in tests/fixtures/nemoskills follow the layout NeMo-Skills' `ns eval` writes (see
their README); the counts expected here are worked out from them by hand.
"""

import json

import pytest

from passk.__main__ import main
from passk.results.benchmark import summarize
from passk.formats import FORMAT_NAMES, FORMATS, FormatError, read_files, read_problems
from passk.formats import nemoskills
from passk.formats.detect import detect_format
from where import FIXTURES, REALDATA

SEEDS = [FIXTURES / "nemoskills" / f"output-rs{seed}.jsonl" for seed in range(3)]


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def lines(*records):
    """JSONL bytes of records (dicts, or text written as it is)."""
    return "".join((record if isinstance(record, str) else json.dumps(record)) + "\n" for record in records).encode()


def read_seeds(*seeds):
    """Several seed files' bytes read as one run, named output-rs0.jsonl, output-rs1.jsonl, ..."""
    return read_files([(f"output-rs{seed}.jsonl", content) for seed, content in enumerate(seeds)])


def test_the_format_is_on_the_menu():
    assert "nemoskills" in FORMATS
    assert FORMAT_NAMES["nemoskills"] == "NeMo-Skills output-rs<seed>.jsonl"


def test_one_seed_file_is_one_sample_per_problem():
    parsed = read_problems(SEEDS[0].read_bytes(), filename=SEEDS[0].name)
    assert parsed.format == "nemoskills"
    assert counts(parsed) == [("algebra/1", 1, 1), ("algebra/2", 1, 0), ("geometry/7", 1, 1)]
    assert parsed.warnings == [] and "NeMo-Skills" in parsed.source


def test_seed_files_add_up_by_id_and_a_problem_missing_from_one_seed_has_fewer_samples():
    parsed = read_files([(path.name, path.read_bytes()) for path in SEEDS])
    assert parsed.format == "nemoskills"
    assert counts(parsed) == [("algebra/1", 3, 2), ("algebra/2", 3, 0), ("geometry/7", 2, 1)]
    assert "3 files combined into one run of 3 problems" in parsed.combined
    assert parsed.warnings == ['1 of 3 problems are in only some of the 3 files (such as "geometry/7"); '
                               "they have fewer samples than the others."]


def test_the_command_line_reads_the_seed_files_as_one_run(capsys):
    assert main([*map(str, SEEDS), "-k", "1,2"]) == 0
    out = capsys.readouterr().out
    assert "3 problems, 8 samples" in out and "NeMo-Skills output-rs<seed>.jsonl" in out


def test_lines_without_an_id_are_matched_by_line_number_and_said_once():
    first = lines({"predicted_answer": "5", "symbolic_correct": True},
                  {"predicted_answer": "1", "symbolic_correct": False})
    second = lines({"predicted_answer": "6", "symbolic_correct": False},
                   {"predicted_answer": "2", "symbolic_correct": True})
    parsed = read_seeds(first, second)
    assert counts(parsed) == [("line 1", 2, 1), ("line 2", 2, 1)]
    [warning] = parsed.warnings
    assert warning.startswith('All 2 files: 2 of 2 lines have no "id"') and "matched line by line" in warning


def test_a_seed_with_fewer_lines_leaves_its_last_problems_with_fewer_samples():
    verdict = {"predicted_answer": "A", "symbolic_correct": True}
    parsed = read_seeds(lines(verdict, verdict, verdict), lines(verdict, verdict))
    assert counts(parsed) == [("line 1", 2, 2), ("line 2", 2, 2), ("line 3", 1, 1)]
    assert any('in only some of the 2 files (such as "line 3")' in warning for warning in parsed.warnings)


@pytest.mark.parametrize("first_line, fmt", [
    ({"predicted_answer": "C", "symbolic_correct": True, "num_generated_tokens": 4086}, "nemoskills"),
    ({"id": 3, "problem": "?", "generation": "...", "predicted_answer": None}, "nemoskills"),
    ({"problem": "?", "judgement": "Judgement: Yes"}, "nemoskills"),
    ({"task_id": "HumanEval/0", "passed": True, "predicted_answer": "x"}, "humaneval"),
    ({"task_id": "HumanEval/0", "completion": "x"}, "humaneval"),
    ({"example_id": "HumanEval/0", "correct": 1, "count": 1}, "evalarena"),
    ({"problems": [{"task_id": "a", "n": 1, "c": 0}]}, "json"),
])
def test_detection_by_the_first_line_keeps_the_other_layouts(first_line, fmt):
    assert detect_format(lines(first_line, first_line), "output-rs0.jsonl") == fmt


@pytest.mark.parametrize("record, verdict", [
    ({"judgement": "The answers match.\nJudgement: Yes"}, True),
    ({"judgement": "Judgement: yes, same value"}, True),
    ({"judgement": "Judgement: No"}, False),
    ({"judgement": "Judgement: Yes ... on reflection, Judgement: No"}, False),   # the last one counts
    ({"judgement": "no verdict written"}, False),   # NeMo-Skills counts an unreadable judgement as wrong
    ({"is_correct": True}, True),
    ({"judge_correct": 0}, False),
])
def test_each_verdict_field_is_read(record, verdict):
    parsed = read_problems(lines(record), fmt="nemoskills")
    assert counts(parsed) == [("line 1", 1, int(verdict))]


def test_several_verdicts_read_symbolic_correct_and_say_so():
    record = {"id": "a", "predicted_answer": "4", "symbolic_correct": False, "judgement": "Judgement: Yes"}
    parsed = read_problems(lines(record), filename="output-rs0.jsonl")
    assert counts(parsed) == [("a", 1, 0)]
    assert parsed.warnings == ["Line 1 holds several verdicts (symbolic_correct, judgement); passk reads "
                               "symbolic_correct, the first of symbolic_correct, judge_correct, judgement, is_correct "
                               "a line holds. NeMo-Skills reports each as its own column; to read another, keep "
                               "only that field."]


def test_a_line_without_a_verdict_is_no_sample():
    parsed = read_seeds(lines({"id": "a", "symbolic_correct": True}, {"id": "b", "predicted_answer": "2"}),
                        lines({"id": "a", "symbolic_correct": False}, {"id": "b", "symbolic_correct": True}))
    assert counts(parsed) == [("a", 2, 1), ("b", 1, 1)]
    assert "output-rs0.jsonl: 1 of 2 lines have no verdict" in parsed.warnings[0]


def test_each_samples_extracted_answer_is_kept():
    seed = nemoskills.read_seed([SEEDS[1].read_bytes()])
    assert seed.answers == {"geometry/7": "6", "algebra/1": "5", "algebra/2": None}
    assert seed.verdicts == {"geometry/7": False, "algebra/1": True, "algebra/2": False}


@pytest.mark.parametrize("content, message", [
    (b'{"id": "a", "symbolic_correct": true}\n{"id": "b", "symbolic_correct": tru}\n',
     "Line 2 is not valid JSON: Expecting value at column 33."),
    (lines({"id": "a", "symbolic_correct": True}, '["b", true]'),
     "Line 2: expected an object, one problem of one seed; got a list."),
    (lines({"id": "a", "symbolic_correct": True}, {"id": "b", "symbolic_correct": "yes"}),
     'Line 2: "symbolic_correct" must be true or false; got "yes".'),
    (lines({"id": "a", "is_correct": 0.5}),
     'Line 1: "is_correct" must be true or false; got 0.5.'),
    (lines({"id": "a", "judgement": True}),
     "Line 1: \"judgement\" must be the judge's text; got true."),
    (lines({"id": "a", "symbolic_correct": True}, "", {"id": "a", "symbolic_correct": False}),
     'Line 3 repeats the id "a": a seed file holds each problem once'),
    (lines({"id": "", "symbolic_correct": True}),
     'Line 1: "id": the task id is empty'),
    (lines({"id": "a", "generation": "...", "predicted_answer": "4"}, {"id": "b", "predicted_answer": None}),
     "None of the 2 lines has a verdict (symbolic_correct, judge_correct, judgement, is_correct, expected_judgement, "
     "proof_status, is_correct-plus, strict_eval, loose_eval): these look like generations before evaluation"),
])
def test_errors_name_the_line(content, message):
    with pytest.raises(FormatError) as error:
        read_problems(content, filename="output-rs0.jsonl")
    assert message in str(error.value)


def test_an_error_in_one_seed_file_names_the_file():
    with pytest.raises(FormatError, match=r"^output-rs1.jsonl: Line 1: \"symbolic_correct\" must be true or false"):
        read_seeds(lines({"symbolic_correct": True}), lines({"symbolic_correct": "true"}))


def test_more_problems_than_the_limit_are_refused():
    content = lines(*({"id": str(i), "symbolic_correct": True} for i in range(3)))
    assert len(read_problems(content, fmt="nemoskills", max_problems=3).problems) == 3
    with pytest.raises(FormatError, match="more than 2 problems"):
        read_problems(content, fmt="nemoskills", max_problems=2)


def test_lm_eval_responses_carry_their_extracted_answers_as_votes():
    parsed = read_problems((FIXTURES / "lmeval" / "samples_per-response_2025-01-01T00-00-00.000000.jsonl").read_bytes())
    assert [problem.votes for problem in parsed.problems][:2] == [
        (("18", True), ("17", False), ("18", True)), (("1", False), ("2", False), ("3", False))]
    majority = summarize(parsed.problems, [2]).majority
    assert majority is not None and majority.results[0].first_k is not None


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
def test_one_response_a_document_gives_no_majority_table():
    name = "lmeval__pmemoli_Data-Science-Thesis__samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
    parsed = read_problems((REALDATA / name).read_bytes(), filename=name)
    assert all(problem.votes is not None for problem in parsed.problems)
    assert summarize(parsed.problems, [1]).majority is None   # maj@1 would repeat pass@1 of the answered samples
