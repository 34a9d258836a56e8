"""τ²-bench simulations saved as a bare list (no Results around them): read as τ²-bench reads its simulations.

The fixture's counts are in tests/fixtures/taubench/README.md; a trial passes when its reward_info.reward is 1
within 1e-6, as τ²-bench's is_successful.
"""

import json
from pathlib import Path

import pytest

from passk.formats import FormatError, read_problems
from passk.formats.taubench import looks_like

FIXTURE = Path(__file__).parents[2] / "fixtures" / "taubench" / "tau2_bare_list_of_simulations.json"
BARE_SOURCE = "τ²-bench (sierra-research/tau2-bench, tau2 run), a bare list of simulations"


def counts(parsed):
    return [(problem.task_id, problem.n, problem.c) for problem in parsed.problems]


def simulation(task_id="0", trial=0, reward=1.0, **more):
    return {"id": f"sim-{task_id}-{trial}", "task_id": task_id, "trial": trial, "termination_reason": "user_stop",
            "reward_info": None if reward is None else {"reward": reward, "info": None}, "messages": [], **more}


def bare_list(*simulations):
    return json.dumps(list(simulations)).encode()


def test_a_bare_list_of_simulations_is_read_as_tau2_bench_results():
    parsed = read_problems(FIXTURE.read_bytes(), filename=FIXTURE.name)
    assert parsed.format == "taubench" and parsed.source == BARE_SOURCE
    assert counts(parsed) == [("0", 2, 2), ("1", 1, 0), ("2", 2, 1)]
    assert parsed.warnings == [
        "Trials per task differ (1 to 2); each task uses its own count.",
        "1 simulation ended in an infrastructure error and was left out, as τ²-bench's metrics leave them out.",
        "1 simulation has no reward and counts as failed, as in τ²-bench's metrics."]


def test_it_is_told_from_tau_bench_v1_lists_and_json_counts_by_reward_info():
    assert looks_like([simulation()])
    assert looks_like([{"task_id": 0, "trial": 0, "reward": 1.0}])   # τ-bench v1's EnvRunResult
    assert not looks_like([{"task_id": "0", "trial": 0, "n": 1, "c": 1}])
    assert read_problems(bare_list(simulation(), simulation(trial=1, reward=0.0))).format == "taubench"


def test_a_reward_within_a_millionth_of_one_passes():
    parsed = read_problems(bare_list(simulation("a", 0, 0.9999995), simulation("a", 1, 0.999998),
                                     simulation("b", 0, 1.0000004)))
    assert counts(parsed) == [("a", 2, 1), ("b", 1, 1)]


@pytest.mark.parametrize("simulations, message", [
    ([simulation(), simulation(trial=1, reward="1")],
     'At [1].reward_info.reward: the reward must be a number (1 is a success); got "1".'),
    ([simulation(), {**simulation(trial=1), "reward_info": {"info": None}}],
     'At [1].reward_info: the field "reward" is missing.'),
    ([simulation(), {k: v for k, v in simulation(trial=1).items() if k != "task_id"}],
     'At [1]: the field "task_id" is missing.'),
    ([simulation(), simulation()],
     'At [1]: trial 0 of task "0" appears twice (also at [0])'),
    ([simulation(termination_reason="infrastructure_error")] * 2,
     "All 2 simulations of the τ²-bench results ended in an infrastructure error"),
])
def test_errors_name_the_simulation(simulations, message):
    with pytest.raises(FormatError) as error:
        read_problems(bare_list(*simulations))
    assert str(error.value).startswith(message)
