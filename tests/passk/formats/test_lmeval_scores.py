"""lm-evaluation-harness samples whose first metric is a graded score: read into Problem.scores, c full credit.

samples_longbench_hotpotqa_*.jsonl (tests/fixtures/lmeval/README.md) follows lm-eval's LongBench hotpotqa task
(lm_eval/tasks/longbench/hotpotqa.yaml at EleutherAI/lm-evaluation-harness 4e7e0d47): process_results
get_qa_f1_with_score returns {"score": f1, "qa_f1_score": f1}, so each line's first metric, "score", is the
document's token F1 from 0 to 1. Binary files read as they always have (tests/passk/formats/test_eval_logs.py).
"""

import json
import math
from fractions import Fraction

import pytest

from passk.results.benchmark import summarize
from passk.formats import FormatError, read_problems
from where import FIXTURES

LMEVAL = FIXTURES / "lmeval"
HOTPOTQA = LMEVAL / "samples_longbench_hotpotqa_2025-01-01T00-00-00.000000.jsonl"
GSM8K = LMEVAL / "samples_gsm8k_2025-01-01T00-00-00.000000.jsonl"
PER_RESPONSE = LMEVAL / "samples_per-response_2025-01-01T00-00-00.000000.jsonl"


def read_file(path, **options):
    with open(path, "rb") as stream:
        return read_problems(stream, filename=path.name, **options)


def counts(parsed):
    return [(problem.task_id, problem.n, problem.c) for problem in parsed.problems]


def line(**fields):
    base = {"doc_id": 0, "resps": [["Paris"]], "filtered_resps": ["Paris"], "filter": "none", "metrics": ["f1"],
            "f1": 1.0}
    return json.dumps({**base, **fields})


def test_a_graded_first_metric_is_read_into_scores_and_full_credit_counts_as_a_pass():
    parsed = read_file(HOTPOTQA)
    # the documents' F1: 1.0, 1/3 ("Spielberg was born in 1946" against "1946"), 0.0, 1.0
    assert parsed.format == "lmeval" and counts(parsed) == [("0", 1, 1), ("1", 1, 0), ("2", 1, 0), ("3", 1, 1)]
    assert [problem.scores for problem in parsed.problems] == [(1.0,), (0.33333333333333337,), (0.0,), (1.0,)]
    assert parsed.warnings == [
        '1 of the 4 responses has partial credit ("score" between 0 and 1, such as 0.333333 on line 2); pass@k '
        "counts full credit (a score of 1) as a pass, and the graded mean and max@k read the scores themselves."]
    assert summarize(parsed.problems, [1]).results[0].pass_at_k == 0.5   # 2 of 4 documents with full credit


def test_the_scores_mean_is_lm_evals_own_aggregate_of_the_metric():
    """lm-eval aggregates "score" by its mean over documents: (1 + 1/3 + 0 + 1) / 4, as the floats it logged."""
    parsed = read_file(HOTPOTQA)
    logged = [json.loads(text)["score"] for text in HOTPOTQA.read_text().splitlines()]
    assert [score for problem in parsed.problems for score in problem.scores] == logged
    assert abs(Fraction(math.fsum(logged)) / 4 - Fraction(7, 12)) < Fraction(1, 10**15)


def test_graded_scores_per_response_keep_the_order_of_the_responses():
    text = line(resps=[["a", "b", "c"]], filtered_resps=[["a", "b", "c"]], f1=[0.5, 1.0, 0.25]) + "\n"
    [problem] = read_problems(text, filename="samples_t.jsonl").problems
    assert (problem.n, problem.c, problem.scores) == (3, 1, (0.5, 1.0, 0.25))
    assert [verdict for _, verdict in problem.votes] == [False, True, False]   # maj@k counts full credit too


@pytest.mark.parametrize("path", [GSM8K, PER_RESPONSE])
def test_a_binary_file_reads_as_before_without_scores(path):
    parsed = read_file(path)
    assert all(problem.scores is None for problem in parsed.problems)
    assert not any("partial credit" in warning for warning in parsed.warnings)


def test_true_and_false_are_scores_of_1_and_0():
    text = line(f1=True) + "\n" + line(doc_id=1, f1=False) + "\n" + line(doc_id=2, f1=0.75) + "\n"
    assert [problem.scores for problem in read_problems(text, filename="samples_t.jsonl").problems] == [
        (1.0,), (0.0,), (0.75,)]


@pytest.mark.parametrize("fields, message", [
    ({"f1": 35.2}, 'Line 2: "f1" must be a score from 0 to 1 for each response (1 or true passes, 0 or false fails, '
                   "a share between is partial credit); got 35.2."),
    ({"f1": -0.5}, 'Line 2: "f1" must be a score from 0 to 1 for each response'),
    ({"f1": float("nan")}, 'Line 2: "f1" must be a score from 0 to 1 for each response (1 or true passes, 0 or false '
                           "fails, a share between is partial credit); got NaN."),
    ({"f1": 10**400}, 'Line 2: "f1" must be a score from 0 to 1 for each response'),
    ({"metrics": ["bleu"], "bleu": ["Paris", "paris"]},
     'Line 2: "bleu" holds the reference and the prediction, as lm-eval logs a metric it computes over the whole set '
     "(bleu, or f1 of a multiple-choice task), not a score per response; pass@k needs each response's score from 0 "
     "to 1, so give a task whose first metric is one."),
])
def test_a_value_that_is_no_score_from_0_to_1_is_refused_naming_the_line(fields, message):
    with pytest.raises(FormatError) as error:
        read_problems(line() + "\n" + line(doc_id=1, **fields) + "\n", filename="samples_t.jsonl")
    assert str(error.value).startswith(message)
