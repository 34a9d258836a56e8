"""lm-evaluation-harness and Every Eval Ever sample logs: each fixture read with detection, counted by hand,
errors with their line.

The fixtures in tests/fixtures/lmeval and tests/fixtures/everyevalever follow the layouts the tools write
(lm-eval's --log_samples lines, Every Eval Ever's instance-level schema); their READMEs say where from.
"""

import json
from dataclasses import replace

import pytest

from passk.formats import FormatError, _cost, read_problems
from passk.limits import LIMITS, Budget, TooLarge
from passk.formats.detect import detect_format
from where import FIXTURES

LMEVAL = FIXTURES / "lmeval"
GSM8K = LMEVAL / "samples_gsm8k_2025-01-01T00-00-00.000000.jsonl"
SELF_CONSISTENCY = LMEVAL / "samples_gsm8k-cot-self-consistency_2025-01-01T00-00-00.000000.jsonl"
PER_RESPONSE = LMEVAL / "samples_per-response_2025-01-01T00-00-00.000000.jsonl"
EEE = FIXTURES / "everyevalever" / "mmlu_gpt2_samples.jsonl"
EEE_TWO_MODELS = FIXTURES / "everyevalever" / "two_models_samples.jsonl"
EEE_PASS_RULE = ("Every Eval Ever: a sample passes when its evaluation.is_correct is true "
                 "(evaluation.score is not read).")


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def read_file(path, **options):
    with open(path, "rb") as stream:
        return read_problems(stream, filename=path.name, **options)


def lmeval_line(**fields):
    line = {"doc_id": 0, "resps": [["#### 18"]], "filtered_resps": ["18"], "filter": "strict-match",
            "metrics": ["exact_match"], "exact_match": 1.0}
    return json.dumps({**line, **fields})


def test_lmeval_file_is_detected_by_its_first_line():
    assert detect_format(GSM8K.read_bytes()) == "lmeval"
    assert detect_format(lmeval_line().encode()) == "lmeval"   # one line, no .jsonl name


def test_lmeval_reads_the_first_filter_and_names_the_others():
    parsed = read_file(GSM8K)
    assert parsed.format == "lmeval" and counts(parsed) == [("0", 1, 1), ("1", 1, 0), ("2", 1, 0)]
    [warning] = parsed.warnings
    assert '"strict-match"' in warning and '"flexible-extract"' in warning and "suite" in warning


@pytest.mark.parametrize("suite, expected", [
    ("strict-match", [("0", 1, 1), ("1", 1, 0), ("2", 1, 0)]),
    ("flexible-extract", [("0", 1, 1), ("1", 1, 1), ("2", 1, 0)]),
])
def test_lmeval_filter_is_chosen_as_a_suite(suite, expected):
    parsed = read_file(GSM8K, suite=suite)
    assert counts(parsed) == expected
    assert [f'this is filter "{suite}"' in warning for warning in parsed.warnings] == [True]


def test_lmeval_unknown_filter_lists_the_filters():
    with pytest.raises(FormatError, match='no lm-eval filter "maj@8"; its filters: "strict-match", "flexible-extract"'):
        read_file(GSM8K, suite="maj@8")


def test_a_suite_that_names_no_run_is_still_refused_for_other_formats():
    with pytest.raises(FormatError, match='Unknown suite "strict-match"'):
        read_problems("10 3\n", suite="strict-match")


@pytest.mark.parametrize("suite", ["plus", "score-first", "maj@4"])
def test_lmeval_repeats_with_one_verdict_per_filter_is_refused(suite):
    with pytest.raises(FormatError) as raised:
        read_file(SELF_CONSISTENCY, suite=suite)
    message = str(raised.value)
    assert message.startswith("Line 1: the document has 4 responses") if suite != "maj@4" else "Line 3:" in message
    assert "not a verdict per response" in message and "pass@k cannot be read" in message


def test_lmeval_verdicts_per_response_are_samples():
    parsed = read_file(PER_RESPONSE)
    assert counts(parsed) == [("0", 3, 2), ("1", 3, 0)] and parsed.warnings == []


@pytest.mark.parametrize("line, message", [
    (lmeval_line(exact_match=1.5), 'Line 2: "exact_match" must be a score from 0 to 1 for each response'),
    (lmeval_line(metrics=[], exact_match=1), 'Line 2: "metrics" must list the names'),
    (lmeval_line(exact_match=[1, 0]), 'Line 2: "exact_match" has 2 verdicts for 1 responses'),
    (lmeval_line(filter=3), 'Line 2: "filter" must be a filter name; got 3'),
    ('{"doc_id": 1, "resps": [[', "Line 2 is not valid JSON"),
    ("[1]", "Line 2: expected an object; got a list"),
    (lmeval_line(doc_id=None), "Line 2: the task id must be a string; got null"),
])
def test_lmeval_errors_name_the_line(line, message):
    with pytest.raises(FormatError) as raised:
        read_problems(f"{lmeval_line()}\n{line}\n", filename="samples_gsm8k_x.jsonl")
    assert message in str(raised.value)


def test_lmeval_line_without_metrics_uses_a_known_verdict():
    line = json.loads(lmeval_line())
    del line["metrics"]
    assert counts(read_problems(json.dumps(line) + "\n")) == [("0", 1, 1)]


def test_lmeval_refuses_more_problems_than_the_limit():
    text = "".join(lmeval_line(doc_id=doc) + "\n" for doc in range(3))
    with pytest.raises(FormatError, match="more than 2 problems"):
        read_problems(text, max_problems=2)


def eee_line(**fields):
    line = json.loads(EEE.read_text().splitlines()[0])
    return json.dumps({**line, **fields})


def test_every_eval_ever_file_is_detected_by_its_first_line():
    assert detect_format(EEE.read_bytes()) == "everyevalever"
    assert detect_format(eee_line().encode()) == "everyevalever"


def test_every_eval_ever_counts_each_sample_id_and_states_its_pass_rule():
    parsed = read_file(EEE)
    assert parsed.format == "everyevalever" and counts(parsed) == [("id1", 2, 1), ("id2", 1, 0), ("id3", 1, 0)]
    assert parsed.warnings == [EEE_PASS_RULE]


def test_every_eval_ever_file_of_two_models_is_refused():
    models = 'models "openai/gpt2" and "openai/gpt2-medium"'
    with pytest.raises(FormatError, match=f"^Line 2 starts another run: .*{models}"):
        read_file(EEE_TWO_MODELS)


@pytest.mark.parametrize("line, message", [
    (eee_line(evaluation={"score": 1.0, "is_correct": None}),
     'Line 2: "evaluation.is_correct" must be true or false; got null'),
    (eee_line(evaluation={"score": 1.0}), 'Line 2: evaluation: the field "is_correct" is missing'),
    (eee_line(schema_version="0.1.0"), 'Line 2: "schema_version" is "0.1.0"; the instance-level schema read is 0.2.x'),
    (eee_line(sample_id=""), "Line 2: the task id is empty"),
    (eee_line(model_id=7), 'Line 2: "model_id" must be a string; got 7'),
    ('{"sample_id": ', "Line 2 is not valid JSON"),
])
def test_every_eval_ever_errors_name_the_line(line, message):
    with pytest.raises(FormatError) as raised:
        read_problems(f"{eee_line()}\n{line}\n", filename="samples.jsonl")
    assert message in str(raised.value)


# --- what reading them costs a web request (issue 25): bytes and lines, then each line's values -----------


def test_lmeval_lines_spend_their_values_from_the_request_budget_as_well_as_their_bytes():
    text = GSM8K.read_bytes()
    budget = Budget()
    read_problems(text, filename=GSM8K.name, budget=budget)
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    values = sum(map(_cost.json_line_work, lines))
    assert LIMITS.read_work - budget.work == pytest.approx(_cost.JSON_LINES.of(text, text.count(b"\n")) + values)


def test_an_lmeval_file_of_values_is_refused_where_its_reading_passes_the_budget():
    text = "".join(lmeval_line(doc_id=doc, doc={"numbers": [0] * 2000}) + "\n" for doc in range(1000))   # its dataset row
    with pytest.raises(TooLarge, match=r"^Reading the input takes more than the 0\.2 s of computing one request"):
        read_problems(text, filename="samples_gsm8k_x.jsonl", budget=Budget(replace(LIMITS, read_work=200_000)))
    assert read_problems(text, filename="samples_gsm8k_x.jsonl").problems[999].n == 1   # no budget, no limit
