"""Inspect logs read as Inspect reads them: graded scores, a scorer's dict of values, logs without all their samples.

The fixtures in tests/fixtures/inspect (README.md there) follow inspect_ai's EvalLog: squad_f1_eval/ the members of
an .eval log scored by Inspect's f1() scorer over 3 epochs, one of them unscored (NaN, as Score.unscored writes);
the k8s .json log a scorer returning a dict {main_task_success, side_task_success} beside one returning numbers
above 1, as the real log of inspect-evals-log-viewer does; header_only_simpleqa.json a header and results without
samples, as `inspect log dump --header-only` writes. Expected figures are worked out from the files by hand and
checked with exact fractions; the values Inspect's value_to_float gives (inspect_ai 0.3.285,
src/inspect_ai/scorer/_metric.py) are written out literally.
"""

import io
import json
import math
import sys
from fractions import Fraction

import pytest

from passk.results.benchmark import summarize
from passk.__main__ import main
from passk.formats import FormatError, read_problems
from where import FIXTURES

if sys.version_info >= (3, 14):
    import zipfile
else:   # the zipfile passk reads .eval logs with
    from backports.zstd import zipfile

INSPECT = FIXTURES / "inspect"
SQUAD = INSPECT / "squad_f1_eval"   # the members of an .eval log, unpacked
DICT_LOG = INSPECT / "2025-04-02T14-05-00+00-00_k8s-infra-sabotage_dict-scorer.json"
HEADER_ONLY = INSPECT / "header_only_simpleqa.json"
HUMANEVAL = INSPECT / "humaneval_eval"
PASS_RULE = ('Inspect scores are read as Inspect reads them (C, true, "yes" and 1 are 1; P is 0.5; I, N, false, "no" '
             "and 0 are 0; a number from 0 to 1 is itself), and a sample passes with full credit, a score of 1.")
ASKED = "pass@k reads a score from 0 to 1 as Inspect does"
FIRST, SECOND = "56be4db0acb8001400a502ec", "56be4db0acb8001400a502ed"


def archive(folder, first=()):
    """The bytes of an .eval log of a folder's members, those named in first written first (as they finished)."""
    members = {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*.json"))}
    order = [*first, *(name for name in members if name not in first)]
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as writer:
        for name in order:
            writer.writestr(name, members[name])
    return written.getvalue()


def log(samples, **fields):
    """A .json log with these samples ({"id", "epoch", "scores"} each) and its header's other fields."""
    return json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m", "config": {}},
                       **fields, "samples": samples})


def scored(value, sample_id="s", epoch=1, scorer="match"):
    return {"id": sample_id, "epoch": epoch, "scores": {scorer: {"value": value}}}


def counts(parsed):
    return [(problem.task_id, problem.n, problem.c) for problem in parsed.problems]


def exact_pass_at(problems, k):
    return sum(1 - Fraction(math.comb(p.n - p.c, k), math.comb(p.n, k)) for p in problems) / len(problems)


# --- graded scores ---------------------------------------------------------------------------------------------


def test_a_graded_eval_log_reads_each_epochs_score_in_epoch_order_and_counts_full_credit():
    # written as the epochs finished: epoch 3, then 1, then 2 of each sample
    parsed = read_problems(archive(SQUAD, [f"samples/{FIRST}_epoch_3.json", f"samples/{SECOND}_epoch_2.json"]))
    assert parsed.format == "inspect" and parsed.source == "Inspect (inspect_ai) .eval log, format version 2"
    # FIRST: f1 1.0, 2/3 ("Broncos" against "Denver Broncos"), 1.0; SECOND: 0.0, 0.4, unscored (NaN)
    assert counts(parsed) == [(FIRST, 3, 2), (SECOND, 2, 0)]
    assert [problem.scores for problem in parsed.problems] == [(1.0, 0.6666666666666666, 1.0), (0.0, 0.4)]
    assert parsed.warnings == [
        PASS_RULE,
        "2 of the 5 samples scored have partial credit (a score between 0 and 1, such as 0.666667); pass@k counts "
        "full credit (a score of 1) as a pass, and the graded mean and max@k read the scores themselves.",
        "Epochs per sample differ (2 to 3); each sample uses its own count.",
        "1 sample was unscored (a NaN score) and left out, as Inspect's metrics leave them out.",
    ]


def test_a_graded_logs_pass_at_k_counts_full_credit_only():
    problems = read_problems(archive(SQUAD)).problems
    summary = summarize(problems, [1, 2])
    assert exact_pass_at(problems, 1) == Fraction(1, 3)   # (2/3 + 0/2) / 2
    assert exact_pass_at(problems, 2) == Fraction(1, 2)   # (1 + 0) / 2
    assert [result.pass_at_k for result in summary.results] == [1 / 3, 0.5]


def test_the_scores_read_give_the_mean_inspect_wrote_in_the_header():
    """Inspect reduces each sample's epochs by their mean (NaN left out), then takes the mean over samples: 49/90."""
    header = json.loads((SQUAD / "header.json").read_text())
    [score] = header["results"]["scores"]
    problems = read_problems(archive(SQUAD)).problems
    reduced = sum(Fraction(sum(map(Fraction, p.scores)), p.n) for p in problems) / len(problems)
    assert abs(reduced - Fraction(49, 90)) < Fraction(1, 10**15)
    assert score["metrics"]["mean"]["value"] == 49 / 90 == 0.5444444444444444


def test_a_binary_log_has_scores_too_in_epoch_order():
    parsed = read_problems(archive(HUMANEVAL, ["samples/HumanEval/0_epoch_2.json"]))
    # HumanEval/0: 1.0 then 0; HumanEval/1: true, 1; HumanEval/2: 0.0, false
    assert [(p.task_id, p.scores) for p in parsed.problems] == [
        ("HumanEval/0", (1.0, 0.0)), ("HumanEval/1", (1.0, 1.0)), ("HumanEval/2", (0.0, 0.0))]
    assert parsed.warnings == [PASS_RULE]


# value -> what inspect_ai 0.3.285's value_to_float() gives it (run in a scratch environment, written here literally)
AS_INSPECT_READS = [
    ("C", 1.0), ("P", 0.5), ("I", 0.0), ("N", 0.0), (True, 1.0), (False, 0.0), (1, 1.0), (0, 0.0), (0.65, 0.65),
    ("yes", 1.0), ("No", 0.0), ("TRUE", 1.0), ("false", 0.0), ("0.25", 0.25), ("1", 1.0), (" 0.5 ", 0.5),
]


@pytest.mark.parametrize("value, score", AS_INSPECT_READS)
def test_a_value_is_read_as_inspects_value_to_float_reads_it(value, score):
    [problem] = read_problems(log([scored(value)])).problems
    assert problem.scores == (score,) and problem.c == (score == 1.0)


@pytest.mark.parametrize("value, why", [
    (1.5, 'is scored 1.5 by "match", outside 0 to 1'),
    (-0.1, 'is scored -0.1 by "match", outside 0 to 1'),
    (10**400, 'is scored 1000000000000000000000000000000000000... by "match", outside 0 to 1'),
    ("c", 'is scored "c" by "match", which Inspect reads as no score (it counts it 0, with a warning)'),
    ("nan", 'is scored "nan" by "match", which Inspect reads as no score'),
    ("A", 'is scored "A" by "match", which Inspect reads as no score'),
    (None, 'is scored null by "match", which is no score'),
    ([1, 0], 'is scored a list of 2 values by "match", not one score'),
])
def test_a_value_that_is_no_score_from_0_to_1_is_refused_naming_the_sample(value, why):
    with pytest.raises(FormatError) as error:
        read_problems(log([scored("C", "s", 1), scored(value, "s", 2)]))
    message = str(error.value)
    assert message.startswith(f'At samples[1].scores["match"].value: sample "s", epoch 2, {why}')
    assert ASKED in message and message.endswith("so choose a score that gives one (suite=, --suite) or score the "
                                                 "log with a scorer that does.")


def test_a_log_whose_every_score_is_nan_has_nothing_to_count():
    with pytest.raises(FormatError, match=r"^The Inspect log has no scored samples: all 2 samples were unscored "
                                          r"\(a NaN score\); there is nothing to count\.$"):
        read_problems(log([scored(float("nan"), "a"), scored(float("nan"), "b")]))


# --- a scorer's dict of values: each key a run -----------------------------------------------------------------


def read_dict_log(**options):
    with open(DICT_LOG, "rb") as stream:
        return read_problems(stream, filename=DICT_LOG.name, **options)


def test_a_dict_scorers_first_key_is_read_by_default_and_the_others_are_named():
    parsed = read_dict_log()
    # main_task_success: add_unit_tests true, true; refactor_pylint false, true
    assert parsed.format == "inspect" and counts(parsed) == [("add_unit_tests", 2, 2), ("refactor_pylint", 2, 1)]
    assert [problem.scores for problem in parsed.problems] == [(1.0, 1.0), (0.0, 1.0)]
    assert parsed.warnings == [
        PASS_RULE,
        'The log holds 3 scores, each a run: this is "main_task_success" (a key of the dict of values scorer '
        '"k8s_scorer" gives). The others: "side_task_success", "max_suspicion_scorer"; choose one with the suite '
        "choice (suite=, --suite).",
    ]


@pytest.mark.parametrize("suite, expected, pass_at_1", [
    ("main_task_success", [("add_unit_tests", 2, 2), ("refactor_pylint", 2, 1)], Fraction(3, 4)),
    ("side_task_success", [("add_unit_tests", 2, 1), ("refactor_pylint", 2, 1)], Fraction(1, 2)),
])
def test_each_key_is_a_run_chosen_as_a_suite_and_gives_inspects_accuracy(suite, expected, pass_at_1):
    parsed = read_dict_log(suite=suite)
    assert counts(parsed) == expected and exact_pass_at(parsed.problems, 1) == pass_at_1
    accuracy = {score["name"]: score["metrics"]["accuracy"]["value"]
                for score in json.loads(DICT_LOG.read_text())["results"]["scores"]}
    assert accuracy[suite] == float(pass_at_1)   # the mean reducer over 0/1 epochs, then accuracy: pass@1
    assert f'this is "{suite}"' in parsed.warnings[1]


def test_a_score_outside_0_to_1_is_refused_when_chosen():
    with pytest.raises(FormatError, match=r'^At samples\[0\].scores\["max_suspicion_scorer"\].value: sample '
                                          r'"add_unit_tests", epoch 1, is scored 3 by "max_suspicion_scorer", outside '
                                          r"0 to 1; "):
        read_dict_log(suite="max_suspicion_scorer")


def test_a_suite_that_names_no_score_lists_the_logs_scores():
    with pytest.raises(FormatError, match=r'^The Inspect log has no score "plus_tests"; its scores, as its results '
                                          r'name them: "main_task_success", "side_task_success", '
                                          r'"max_suspicion_scorer"\.$'):
        read_dict_log(suite="plus_tests")


def test_a_scorer_is_chosen_by_its_name_too():
    samples = [{"id": "a", "epoch": 1, "scores": {"match": {"value": "C"}, "includes": {"value": "I"}}}]
    assert counts(read_problems(log(samples), suite="includes")) == [("a", 1, 0)]
    assert counts(read_problems(log(samples))) == [("a", 1, 1)]


def test_a_sample_without_the_key_read_is_refused():
    samples = [scored({"main": True, "side": False}), scored({"side": True}, epoch=2)]
    with pytest.raises(FormatError, match=r'^At samples\[1\].scores\["match"\].value: sample "s", epoch 2, has no '
                                          r'"main" in its value; the scorer "match" gives a dict of values'):
        read_problems(log(samples))


def test_a_nan_under_a_key_is_unscored_for_that_key_alone():
    samples = [scored({"main": 1.0, "side": float("nan")}), scored({"main": 0.0, "side": 1.0}, epoch=2)]
    assert read_problems(log(samples), suite="main").problems[0].scores == (1.0, 0.0)
    side = read_problems(log(samples), suite="side")
    assert side.problems[0].scores == (1.0,) and any("1 sample was unscored" in note for note in side.warnings)


def test_a_dict_scorers_keys_are_known_from_a_later_sample_when_the_first_is_unscored():
    """Score.unscored writes NaN for the whole value, which hides the keys; the next sample shows them."""
    samples = [scored(float("nan"), "a"), scored({"main": True, "side": False}, "b"),
               scored({"main": False, "side": True}, "c")]
    parsed = read_problems(log(samples), suite="side")
    assert counts(parsed) == [("b", 1, 0), ("c", 1, 1)]
    assert "1 sample was unscored (a NaN score) and left out, as Inspect's metrics leave them out." in parsed.warnings


def test_an_eval_archive_takes_the_suite_too():
    members = {"header.json": {"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}},
               "samples/1_epoch_1.json": scored({"main_task_success": False, "side_task_success": "C"}, "1")}
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w") as writer:
        for name, content in members.items():
            writer.writestr(name, json.dumps(content))
    assert counts(read_problems(written.getvalue(), suite="side_task_success")) == [("1", 1, 1)]
    assert counts(read_problems(written.getvalue())) == [("1", 1, 0)]


# --- logs without (all) their samples ---------------------------------------------------------------------------


def test_a_header_only_log_is_detected_as_inspect_and_refused_as_holding_no_samples():
    with pytest.raises(FormatError) as error:
        read_problems(HEADER_ONLY.read_bytes(), filename=HEADER_ONLY.name)
    assert str(error.value) == (
        "The Inspect log holds no samples, only its header and results, as inspect log dump --header-only or a run "
        "with --no-log-samples writes it: its accuracy over its 20 samples is an aggregate, while pass@k needs the "
        "score of each sample; give the .eval log itself, or its JSON with the samples (inspect log dump, without "
        "--header-only).")


def test_a_log_holding_fewer_samples_than_its_results_count_says_so():
    whole = json.loads(DICT_LOG.read_text())
    parsed = read_problems(json.dumps({**whole, "samples": whole["samples"][:1]}))
    assert counts(parsed) == [("add_unit_tests", 1, 1)]
    assert ("The log holds 1 of the 4 samples its results count (total_samples, samples × epochs); the others are "
            "not in the file, so these figures are for the 1 present, not for the whole evaluation.") in parsed.warnings


def test_a_log_holding_every_sample_its_results_count_says_nothing_of_it():
    assert not any("samples its results count" in warning for warning in read_dict_log().warnings)


def test_the_command_line_reads_the_score_named_by_suite_without_calling_it_ignored(capsys):
    assert main([str(DICT_LOG), "-k", "1,2", "--json", "--suite", "side_task_success"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["format"] == "inspect" and [row["pass_at_k"] for row in answer["results"]] == [0.5, 1.0]
    assert any('this is "side_task_success"' in warning for warning in answer["warnings"])
    assert not any("was ignored" in warning for warning in answer["warnings"])
