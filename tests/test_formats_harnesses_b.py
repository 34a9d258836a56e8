"""τ-bench and τ²-bench results: each fixture read with detection, counted by hand, errors with their place.

The fixtures in tests/fixtures/taubench follow the layouts the tools write (tau-bench
run.py's EnvRunResult list, tau2-bench's Results); the counts expected here are worked out
from them by hand.
"""

import json
from pathlib import Path

import pytest

from passk import formats
from passk.formats import FormatError, read_problems

FIXTURES = Path(__file__).parent / "fixtures"
TAU1 = FIXTURES / "taubench" / "tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm_0305141512.json"
TAU2 = FIXTURES / "taubench" / "tau2_airline_gpt-4.1_results.json"
TAU2_DIR = FIXTURES / "taubench" / "tau2_dir_results.json"


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def read_file(path, **options):
    with open(path, "rb") as stream:
        return read_problems(stream, filename=path.name, **options)


def tau1(rows):
    """τ-bench v1 results for [(task_id, trial, reward), ...]."""
    return json.dumps([{"task_id": task_id, "reward": reward, "info": {}, "traj": [], "trial": trial}
                       for task_id, trial, reward in rows])


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


def test_prose_lists_the_new_formats_among_those_accepted():
    with pytest.raises(FormatError) as error:
        read_problems("Dear diary, today I went to the market.\n")
    message = str(error.value)
    assert "this is not a results file; accepted formats: " in message and formats.FORMAT_NAMES["taubench"] in message
