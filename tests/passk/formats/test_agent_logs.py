"""τ-bench, τ²-bench and Inspect results: each fixture read with detection, counted by hand, errors with their place.

The fixtures in tests/fixtures/taubench and tests/fixtures/inspect follow the layouts the
tools write (tau-bench run.py's EnvRunResult list, tau2-bench's Results, inspect_ai's EvalLog
and .eval archive); the counts expected here are worked out from them by hand.
"""

import io
import json
import sys
import time
from dataclasses import replace
from unittest import mock

import pytest

from passk import formats
from passk.formats import FormatError, read_problems
from passk.formats import inspect_log
from passk.limits import LIMITS, TooLarge
from where import FIXTURES

if sys.version_info >= (3, 14):
    import zipfile
else:   # the zipfile passk reads .eval logs with, which writes zstd members too
    from backports.zstd import zipfile

TAU1 = FIXTURES / "taubench" / "tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm_0305141512.json"
TAU2 = FIXTURES / "taubench" / "tau2_airline_gpt-4.1_results.json"
TAU2_DIR = FIXTURES / "taubench" / "tau2_dir_results.json"
INSPECT_JSON = FIXTURES / "inspect" / "2025-01-10T12-00-00+00-00_gsm8k_Fq9nH2yTmV5cQ8rL3pXw7a.json"
INSPECT_EVAL = FIXTURES / "inspect" / "humaneval_eval"   # the members of an .eval log, unpacked
PASS_RULE = ('Inspect scores are read as Inspect reads them (C, true, "yes" and 1 are 1; P is 0.5; I, N, false, "no" '
             "and 0 are 0; a number from 0 to 1 is itself), and a sample passes with full credit, a score of 1.")


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def read_file(path, **options):
    with open(path, "rb") as stream:
        return read_problems(stream, filename=path.name, **options)


def tau1(rows):
    """τ-bench v1 results for [(task_id, trial, reward), ...]."""
    return json.dumps([{"task_id": task_id, "reward": reward, "info": {}, "traj": [], "trial": trial}
                       for task_id, trial, reward in rows])


def eval_archive(members=None, compression=zipfile.ZIP_DEFLATED):
    """The bytes of an .eval log: {name: text or JSON} (by default the fixture's members), in Inspect's order."""
    if members is None:
        members = {path.relative_to(INSPECT_EVAL).as_posix(): path.read_text()
                   for path in sorted(INSPECT_EVAL.rglob("*.json"))}
    order = ("_journal/start.json", "samples/", "_journal/summaries/", "summaries.json", "header.json")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", compression) as writer:
        for name in sorted(members, key=lambda name: [name.startswith(first) for first in order].index(True)
                           if any(name.startswith(first) for first in order) else len(order)):
            content = members[name]
            writer.writestr(name, content if isinstance(content, (str, bytes)) else json.dumps(content))
    return archive.getvalue()


def inspect_log_json(samples, **fields):
    """A .json log: an EvalLog header with these samples ({"id", "epoch", "scores"} each)."""
    return json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m", "config": {}},
                       **fields, "samples": samples})


def scored(sample_id, epoch, *values, names=("match",)):
    return {"id": sample_id, "epoch": epoch, "scores": {name: {"value": value} for name, value in zip(names, values)}}


def tau2(simulations):
    return json.dumps({"timestamp": "2025-06-12T10:14:58", "info": {"num_trials": 1}, "tasks": [],
                       "simulations": simulations})


# --- τ-bench -----------------------------------------------------------------


def test_tau_bench_counts_each_task_by_its_own_trials():
    parsed = read_file(TAU1)
    # task 0: rewards 1, 1, 0; task 1: 0, 0.999998 (more than 1e-6 short of 1), 0;
    # task 2: 0.9999995 (within 1e-6 of 1) and 1, its third trial missing.
    assert parsed.format == "taubench" and counts(parsed) == [("0", 3, 2), ("1", 3, 0), ("2", 2, 2)]
    assert parsed.source == "τ-bench (sierra-research/tau-bench run.py)"
    assert parsed.warnings[0].startswith("Trials per task differ (2 to 3); each task uses its own count.")
    assert "display_metrics divides by the run's number of trials" in parsed.warnings[0]


def test_tau2_bench_leaves_out_infrastructure_errors_and_fails_a_simulation_without_reward():
    parsed = read_file(TAU2)
    # task "1": reward 0, an infrastructure error (left out), no reward_info (failed).
    assert parsed.format == "taubench" and counts(parsed) == [("0", 3, 3), ("1", 2, 0), ("2", 3, 2)]
    assert parsed.source == "τ²-bench (sierra-research/tau2-bench, tau2 run)"
    assert parsed.warnings == [
        "Trials per task differ (2 to 3); each task uses its own count.",
        "1 simulation ended in an infrastructure error and was left out, as τ²-bench's metrics leave them out.",
        "1 simulation has no reward and counts as failed, as in τ²-bench's metrics.",
    ]


def test_tau2_bench_dir_format_results_json_is_read_from_its_simulation_index():
    parsed = read_file(TAU2_DIR)
    assert counts(parsed) == [("a", 2, 1), ("b", 2, 1)]
    assert parsed.source.endswith("results.json of the dir format")
    assert parsed.warnings == ["1 simulation has no reward and counts as failed, as in τ²-bench's metrics."]


@pytest.mark.parametrize("reward, passed", [
    (1, True), (1.0, True), (1 - 1e-6, True), (1 + 1e-6, True), (0.9999995, True),
    (0.999998, False), (0.5, False), (0, False), (1.1, False),
])
def test_a_trial_passes_when_its_reward_is_1_within_1e_6(reward, passed):
    assert counts(read_problems(tau1([(7, 0, reward)]))) == [("7", 1, int(passed))]


def test_equal_trial_counts_give_no_warning():
    parsed = read_problems(tau1([(0, 0, 1.0), (1, 0, 0.0), (0, 1, 0.0), (1, 1, 0.0)]))
    assert counts(parsed) == [("0", 2, 1), ("1", 2, 0)] and parsed.warnings == []


def test_a_trial_of_a_task_seen_twice_is_an_error_naming_both():
    with pytest.raises(FormatError) as error:
        read_problems(tau1([(0, 0, 1.0), (0, 1, 1.0), (5, 1, 0.0), (0, 1, 0.0)]))
    assert str(error.value).startswith('At [3]: trial 1 of task "0" appears twice (also at [1])')


def test_a_tau2_trial_seen_twice_is_an_error_naming_both():
    simulation = {"id": "x", "task_id": "3", "trial": 0, "reward_info": {"reward": 1.0}}
    with pytest.raises(FormatError, match=r'At simulations\[1\]: trial 0 of task "3" appears twice '
                                          r'\(also at simulations\[0\]\)'):
        read_problems(tau2([simulation, simulation]))


@pytest.mark.parametrize("content, message", [
    (tau1([(0, 0, "1.0")]), 'At [0].reward: the reward must be a number (1 is a success); got "1.0".'),
    (tau1([(0, 0, True)]), "At [0].reward: the reward must be a number (1 is a success); got true."),
    (tau1([(0, -1, 1.0)]), "At [0].trial: trial must be a whole number"),
    (tau1([(0, 0, 1.0)]).replace('"reward": 1.0, ', ""), 'At [0]: the field "reward" is missing.'),
    (tau1([(0, 0, 1.0), (None, 0, 1.0)]), "At [1].task_id: the task id must be a string; got null."),
    (tau2([{"task_id": "1", "trial": 0, "reward_info": {"info": None}}]),
     'At simulations[0].reward_info: the field "reward" is missing.'),
    (tau2([{"task_id": "1", "trial": 0, "reward_info": {"reward": "high"}}]),
     'At simulations[0].reward_info.reward: the reward must be a number (1 is a success); got "high".'),
    (tau2([{"trial": 0, "reward_info": {"reward": 1.0}}]), 'At simulations[0]: the field "task_id" is missing.'),
    (tau2([{"task_id": "1", "termination_reason": "infrastructure_error", "reward_info": None}] * 2),
     "All 2 simulations of the τ²-bench results ended in an infrastructure error"),
    (tau2([]), "The τ²-bench results have no simulations"),
    (json.dumps({"tasks": [], "simulations": {"a": 1}}), "At simulations: expected a list of simulations"),
])
def test_tau_bench_errors_name_the_key_path(content, message):
    with pytest.raises(FormatError) as error:
        read_problems(content)
    assert str(error.value).startswith(message)


def test_tau_bench_is_read_when_named_and_counts_json_is_not_taken_for_it():
    assert read_problems(tau1([(0, 0, 1.0)]), fmt="taubench").format == "taubench"
    assert read_problems('[{"task_id": "a", "n": 3, "c": 1}]').format == "json"


def test_tau_bench_tasks_count_towards_the_problem_limit():
    with pytest.raises(FormatError, match="more than 2 problems"):
        read_problems(tau1([(0, 0, 1.0), (1, 0, 1.0), (2, 0, 1.0)]), max_problems=2)


# --- Inspect -------------------------------------------------------------------


def test_inspect_json_log_counts_each_sample_ids_epochs():
    parsed = read_file(INSPECT_JSON)
    # scorer "match": id 1 scores C, C, I; id 2 scores I, P, N; id gsm-3 scores C, (an error), C.
    assert parsed.format == "inspect" and counts(parsed) == [("1", 3, 2), ("2", 3, 0), ("gsm-3", 2, 2)]
    assert [p.scores for p in parsed.problems] == [(1.0, 1.0, 0.0), (0.0, 0.5, 0.0), (1.0, 1.0)]
    assert parsed.source == "Inspect (inspect_ai) .json log, format version 2"
    assert parsed.warnings == [
        PASS_RULE,
        "1 of the 8 samples scored has partial credit (a score between 0 and 1, such as 0.5); pass@k counts full "
        "credit (a score of 1) as a pass, and the graded mean and max@k read the scores themselves.",
        'The log holds 2 scores, each a run: this is "match". The other: "includes"; choose one with the suite '
        "choice (suite=, --suite).",
        "Epochs per sample differ (2 to 3); each sample uses its own count.",
        "1 sample ended in an error without a score and was left out.",
    ]


def test_inspect_eval_archive_is_detected_and_read_member_by_member():
    parsed = read_problems(eval_archive())
    # values 1.0 and 0; true and 1; 0.0 and false; ids with a slash are members in a folder.
    assert parsed.format == "inspect" and counts(parsed) == [("HumanEval/0", 2, 1), ("HumanEval/1", 2, 2),
                                                             ("HumanEval/2", 2, 0)]
    assert parsed.source == "Inspect (inspect_ai) .eval log, format version 2"
    assert parsed.warnings == [PASS_RULE]


def test_an_eval_archive_and_the_json_log_of_it_give_the_same_counts():
    header = json.loads((INSPECT_EVAL / "header.json").read_text())
    samples = [json.loads(path.read_text()) for path in sorted((INSPECT_EVAL / "samples").rglob("*.json"))]
    from_json = read_problems(json.dumps({**header, "samples": samples}))
    from_archive = read_problems(io.BytesIO(eval_archive()), fmt="inspect")
    assert sorted(counts(from_json)) == sorted(counts(from_archive))


def test_a_stored_eval_archive_is_read_as_well():
    assert counts(read_problems(eval_archive(compression=zipfile.ZIP_STORED)))[0] == ("HumanEval/0", 2, 1)


def test_an_eval_archive_of_zstd_members_as_inspect_writes_since_0_3_206_gives_the_same_counts():
    archive = eval_archive(compression=zipfile.ZIP_ZSTANDARD)
    assert {member.compress_type for member in zipfile.ZipFile(io.BytesIO(archive)).infolist()} == {93}
    from_zstd = read_problems(archive, filename="log.eval")
    assert from_zstd.format == "inspect" and from_zstd.warnings == [PASS_RULE]
    assert counts(from_zstd) == counts(read_problems(eval_archive())) and counts(from_zstd)[0] == ("HumanEval/0", 2, 1)


def test_a_member_of_a_method_not_read_says_which_methods_are():
    archive = bytearray(eval_archive({"header.json": {"version": 2, "eval": {"task": "t", "model": "m"}},
                                      "samples/1_epoch_1.json": scored(1, 1, "C")}, compression=zipfile.ZIP_STORED))
    local, entry = archive.index(b"PK\x03\x04"), archive.index(b"PK\x01\x02")   # the sample's, written first
    archive[local + 8:local + 10] = archive[entry + 10:entry + 12] = (98).to_bytes(2, "little")   # PPMd
    with pytest.raises(FormatError, match=r"^In samples/1_epoch_1.json: the member is compressed with zip method 98, "
                                          r"which is not read \(only stored, deflate and zstd are, the methods "
                                          r"Inspect writes\); send the \.eval log as Inspect wrote it, or its \.json "
                                          r"log \(inspect log convert --to json\)\.$"):
        read_problems(bytes(archive))


@pytest.mark.parametrize("values, passed", [
    (["C", "C", "I"], 2), (["I", "P", "N"], 0), ([1, 1.0, 0], 2), ([True, False, 0.0], 1),
])
def test_inspect_pass_rule(values, passed):
    samples = [scored("s", epoch, value) for epoch, value in enumerate(values, start=1)]
    assert counts(read_problems(inspect_log_json(samples))) == [("s", len(values), passed)]


@pytest.mark.parametrize("value, shown", [
    (1.5, 'is scored 1.5 by "match", outside 0 to 1'),
    (-0.25, 'is scored -0.25 by "match", outside 0 to 1'),
    ([1, 0.5], 'is scored a list of 2 values by "match", not one score'),
    ("A", 'is scored "A" by "match", which Inspect reads as no score (it counts it 0, with a warning)'),
    (2, 'is scored 2 by "match", outside 0 to 1'),
    (None, 'is scored null by "match", which is no score'),
])
def test_an_inspect_value_that_is_no_score_from_0_to_1_is_an_error_naming_the_sample_and_value(value, shown):
    samples = [scored("s1", 1, "C"), scored(7, 2, value)]
    with pytest.raises(FormatError) as error:
        read_problems(inspect_log_json(samples))
    message = str(error.value)
    assert message.startswith(f'At samples[1].scores["match"].value: sample "7", epoch 2, {shown}; ')
    assert "pass@k reads a score from 0 to 1 as Inspect does" in message


def test_inspect_errors_in_an_eval_archive_name_the_member():
    members = {"header.json": {"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}},
               "samples/3_epoch_1.json": scored(3, 1, 1.25)}
    with pytest.raises(FormatError, match=r'^In samples/3_epoch_1.json, at scores\["match"\].value: sample "3", '
                                          r'epoch 1, is scored 1.25 by "match", outside 0 to 1;'):
        read_problems(eval_archive(members))


def test_the_first_scorer_is_used_and_every_sample_needs_it():
    samples = [scored("a", 1, "C", "I", names=("exact", "f1")), scored("a", 2, "I", names=("f1",))]
    with pytest.raises(FormatError, match=r'^At samples\[1\].scores: sample "a", epoch 2, has no score from "exact"'):
        read_problems(inspect_log_json(samples))


@pytest.mark.parametrize("content, message", [
    (inspect_log_json([scored("a", 1, "C"), scored("b", 1, "C"), scored("a", 1, "I")]),
     'At samples[2]: sample "a", epoch 1, appears twice (also at samples[0])'),
    (inspect_log_json([{"id": "a", "epoch": 1}]),
     'At samples[0].scores: sample "a", epoch 1, has no scores; score the log first'),
    (inspect_log_json([{"id": "a", "scores": {}}]), 'At samples[0]: the field "epoch" is missing.'),
    (inspect_log_json([{"epoch": 1, "scores": {}}]), 'At samples[0]: the field "id" is missing.'),
    (inspect_log_json([{"id": "a", "epoch": 1, "scores": {"match": {"answer": "x"}}}]),
     'At samples[0].scores["match"]: the field "value" is missing.'),
    (inspect_log_json([{"id": "a", "epoch": 1, "error": {"message": "boom"}}]),
     "The Inspect log has no scored samples: its only sample ended in an error"),
    (inspect_log_json([]), "The Inspect log has no samples: it was written without them"),
    (json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}),
     "The Inspect log holds no samples, only its header and results"),
])
def test_inspect_errors_name_the_key_path(content, message):
    with pytest.raises(FormatError) as error:
        read_problems(content)
    assert str(error.value).startswith(message)


def test_inspect_version_1_logs_give_each_sample_one_score():
    samples = [{"id": 1, "epoch": 1, "score": {"value": "C"}}, {"id": 1, "epoch": 2, "score": {"value": "I"}}]
    parsed = read_problems(json.dumps({"version": 1, "status": "success", "eval": {"task": "t", "model": "m"},
                                       "samples": samples}))
    assert counts(parsed) == [("1", 2, 1)] and parsed.source.endswith("format version 1")


def test_an_inspect_log_that_did_not_succeed_says_it_may_be_incomplete():
    parsed = read_problems(inspect_log_json([scored("a", 1, "C")], status="cancelled"))
    assert parsed.warnings[-1] == ('The Inspect log\'s status is "cancelled", not "success", so it may hold only '
                                   "some of the samples.")


def test_an_inspect_json_log_is_not_taken_for_evalplus_which_also_has_eval():
    assert read_problems(inspect_log_json([scored("a", 1, "C")])).format == "inspect"
    evalplus = '{"eval": {"HumanEval/0": [{"base_status": "pass", "plus_status": "pass"}]}}'
    assert read_problems(evalplus).format == "evalplus"


# --- zip archives --------------------------------------------------------------


def test_a_zip_without_header_json_is_not_an_inspect_log():
    with pytest.raises(FormatError) as error:
        read_problems(eval_archive({"results.csv": "task_id,n,c\na,10,3\n"}))
    assert str(error.value).startswith("The input is a zip archive without header.json: not an Inspect .eval log")


def test_an_unfinished_eval_log_says_so():
    with pytest.raises(FormatError, match="has no header.json: its evaluation had not finished"):
        read_problems(eval_archive({"_journal/start.json": {"version": 2},
                                    "samples/1_epoch_1.json": scored(1, 1, "C")}))


def test_a_zip_is_refused_for_another_named_format():
    with pytest.raises(FormatError, match=r"^The input is a zip archive, not EvalPlus eval_results.json; the only zip "
                                          r"archives read are Inspect .eval logs."):
        read_problems(eval_archive(), fmt="evalplus")


def test_a_damaged_zip_says_so():
    with pytest.raises(FormatError, match="starts as a zip archive but cannot be opened as one"):
        read_problems(eval_archive()[:200])


def test_a_zip_with_too_many_members_is_refused_before_it_is_opened():
    archive = eval_archive()
    with mock.patch.object(inspect_log, "LIMITS", replace(LIMITS, archive_members=3)), \
            mock.patch.object(inspect_log.zipfile, "ZipFile", side_effect=AssertionError("opened")):
        with pytest.raises(FormatError, match=r"^The zip archive has 10 members, more than the 3 that are read"):
            read_problems(archive)


@pytest.mark.parametrize("compression", [zipfile.ZIP_DEFLATED, zipfile.ZIP_ZSTANDARD])
def test_a_zip_that_unpacks_past_the_cap_is_refused_before_unpacking(compression):
    with mock.patch.object(inspect_log, "LIMITS", replace(LIMITS, unpacked_bytes=10 * 2**20)):
        big = {**{"header.json": {"version": 2, "eval": {"task": "t", "model": "m"}}},
               "samples/1_epoch_1.json": " " * (11 * 2**20) + json.dumps(scored(1, 1, "C"))}
        with pytest.raises(TooLarge, match=r"^The zip archive unpacks to 11 MiB, more than the 10 MiB that is read"):
            read_problems(eval_archive(big, compression))
    assert LIMITS.unpacked_bytes == 256 * 2**20   # what one request may unpack


@pytest.mark.parametrize("compression", [zipfile.ZIP_DEFLATED, zipfile.ZIP_ZSTANDARD])
def test_a_member_larger_than_its_entry_declares_is_not_read_past_it(compression):
    archive = bytearray(eval_archive({"header.json": {"version": 2, "eval": {"task": "t", "model": "m"}},
                                      "samples/1_epoch_1.json": scored(1, 1, "C")}, compression))
    entry = archive.rindex(b"samples/1_epoch_1.json") - 46   # the sample's entry in the central directory
    archive[entry + 24:entry + 28] = (5).to_bytes(4, "little")               # declare 5 bytes unpacked
    with pytest.raises(FormatError, match=r"^In samples/1_epoch_1.json: the (archive is damaged|member unpacks)"):
        read_problems(bytes(archive))


def test_a_damaged_zstd_member_says_the_archive_is_damaged():
    archive = bytearray(eval_archive({"header.json": {"version": 2, "eval": {"task": "t", "model": "m"}},
                                      "samples/1_epoch_1.json": scored(1, 1, "C")}, zipfile.ZIP_ZSTANDARD))
    frame = archive.index(b"samples/1_epoch_1.json") + len("samples/1_epoch_1.json")   # the sample's zstd frame
    assert archive[frame:frame + 4] == b"\x28\xb5\x2f\xfd"   # zstd's magic number
    archive[frame:frame + 4] = bytes(4)
    with pytest.raises(FormatError, match=r"^In samples/1_epoch_1.json: the archive is damaged \(.+\); send the "):
        read_problems(bytes(archive))


def test_a_zstd_bomb_declaring_100_bytes_is_refused_at_once_without_unpacking_it():
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_ZSTANDARD) as writer:
        writer.writestr("header.json", json.dumps({"version": 2, "eval": {"task": "t", "model": "m"}}))
        with writer.open("samples/1_epoch_1.json", "w") as member:
            for _ in range(256):
                member.write(b" " * 2**20)   # 256 MiB of spaces, a few kB once compressed
    bomb = bytearray(archive.getvalue())
    entry = bomb.rindex(b"samples/1_epoch_1.json") - 46
    assert len(bomb) < 2**20 and int.from_bytes(bomb[entry + 24:entry + 28], "little") == 256 * 2**20
    bomb[entry + 24:entry + 28] = (100).to_bytes(4, "little")   # declare 100 bytes unpacked
    started = time.perf_counter()
    with pytest.raises(FormatError, match=r"^In samples/1_epoch_1.json: the archive is damaged"):
        read_problems(bytes(bomb))
    assert time.perf_counter() - started < 1   # a few ms: unpacked a bounded piece at a time, stopped at 100 bytes


def test_a_member_that_is_not_json_is_named():
    with pytest.raises(FormatError, match=r"^In header.json: not valid JSON: Expecting value at line 1, column 1."):
        read_problems(eval_archive({"header.json": "not json", "samples/1_epoch_1.json": scored(1, 1, "C")}))


def test_prose_lists_the_new_formats_among_those_accepted():
    with pytest.raises(FormatError) as error:
        read_problems("Dear diary, today I went to the market.\n")
    message = str(error.value)
    assert "this is not a results file; accepted formats: " in message
    assert formats.FORMAT_NAMES["taubench"] in message and formats.FORMAT_NAMES["inspect"] in message
    assert {"taubench", "inspect"} <= set(formats.FORMATS)
