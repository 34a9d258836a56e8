"""τ-bench and τ²-bench results (sierra-research/tau-bench `run.py`; sierra-research/tau2-bench `tau2 run`).

τ-bench (v1) `run.py` writes a JSON list of EnvRunResult, one per trial of a task:
`[{"task_id": int, "reward": float, "info": {...}, "traj": [...], "trial": int}, ...]`.
τ²-bench writes its Results: `{"timestamp", "info", "tasks": [...], "simulations": [{"id",
"task_id", "trial", "reward_info": {"reward", ...}, "termination_reason", ...}]}`; its "dir"
format keeps each simulation in a file of its own and writes a results.json whose
"simulation_index" lists `{"id", "task_id", "trial", "reward", "termination_reason"}`, read alike.
τ²-bench simulations saved as a bare list, without the Results around them (as some leaderboard
submissions' trajectories are), are told from τ-bench's list by "reward_info" and read as τ²-bench's.

A trial passes when its reward is 1 within 1e-6 (1 − 1e-6 ≤ reward ≤ 1 + 1e-6), the test of both
harnesses' is_successful. Each task's n is the number of its trials in the file, so a task with a
missing trial has a smaller n. (τ-bench v1's display_metrics divides every task's pass^k by the
run's number of trials instead, which understates the tasks that have fewer.) As τ²-bench's own
metrics do, simulations that ended in an infrastructure error are left out, and a simulation
without a reward counts as a failure.
"""

import math
from collections.abc import Iterable

from passk.formats._core import JSON, FormatError, Problem, Tally, add_sample, count, field, show, tallied, task_id_of
from passk.formats.registry import register

NAME = "taubench"
LABEL = "τ-bench"   # the tool, as people name it
TITLE = "τ-bench or τ²-bench results JSON"
SIGNATURE = 'a list of {"task_id", "trial", "reward" or "reward_info"}, or {"tasks", "simulations"}'   # detection
SOURCE = "τ-bench (sierra-research/tau-bench run.py)"
TAU2_SOURCE = "τ²-bench (sierra-research/tau2-bench, tau2 run)"
BARE_LIST = "a bare list of simulations"
TOLERANCE = 1e-6
LEFT_OUT = "infrastructure_error"   # a termination reason τ²-bench's metrics leave out


def looks_like(document: JSON) -> bool:
    """τ²-bench's Results, or a list whose first item has "task_id", "trial" and "reward" (or "traj") as τ-bench's
    have, or "reward_info" as τ²-bench's simulations have."""
    if isinstance(document, dict):
        return "tasks" in document and bool({"simulations", "simulation_index"} & document.keys())
    first = document[0] if isinstance(document, list) and document else None
    return (isinstance(first, dict) and {"task_id", "trial"} <= first.keys()
            and bool({"reward", "traj", "reward_info"} & first.keys()))


def source(document: JSON) -> str:
    """τ-bench for its list, τ²-bench for an object (its dir format's results.json says so) or a bare list of
    simulations."""
    if _simulations_listed(document):
        return f"{TAU2_SOURCE}, {BARE_LIST}"
    if not isinstance(document, dict):
        return SOURCE
    return TAU2_SOURCE if document.get("simulations") else f"{TAU2_SOURCE}, results.json of the dir format"


def _simulations_listed(document: JSON) -> bool:
    """True for τ²-bench simulations saved as a bare list: its first item has "reward_info" and no "reward"."""
    first = document[0] if isinstance(document, list) and document else None
    return isinstance(first, dict) and "reward_info" in first and "reward" not in first


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read τ-bench's list of EnvRunResult, or τ²-bench's Results or bare list of simulations, into problems."""
    return _count(document, limit)[0]


def warnings(document: JSON) -> list[str]:
    """What a reader of these results should know: trials per task that differ, simulations left out."""
    return _count(document, None)[1]


def _count(document: JSON, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of τ-bench or τ²-bench results."""
    if isinstance(document, dict):
        return _read_tau2(document, limit)
    if _simulations_listed(document):
        return _read_simulations(document, "", False, limit)
    if not isinstance(document, list):
        raise FormatError('Expected τ-bench results, a list of {"task_id", "reward", "trial"} (one per trial), '
                          'or τ²-bench results, an object with "simulations".')
    problems, counts = _tally((_v1_trial(item, f"[{index}]") for index, item in enumerate(document)), limit)
    return problems, _differ(counts, " τ-bench's own display_metrics divides by the run's number of trials "
                                     "instead, which understates the tasks with fewer.")


def _v1_trial(item: JSON, path: str) -> tuple[str, str, int, bool]:
    """(path, task id, trial, passed) of one τ-bench EnvRunResult."""
    where = f"At {path}"
    task_id = task_id_of(field(item, "task_id", where), f"{where}.task_id")
    trial = count(field(item, "trial", where), "trial", f"{where}.trial")
    return path, task_id, trial, _passed(field(item, "reward", where), f"{where}.reward")


def _read_tau2(document: dict[str, JSON], limit: int | None) -> tuple[list[Problem], list[str]]:
    """τ²-bench's Results: its simulations, or the simulation_index of a dir-format results.json."""
    key = "simulations"
    if not document.get(key) and document.get("simulation_index"):
        key = "simulation_index"
    simulations = document.get(key)
    if not isinstance(simulations, list):
        raise FormatError(f"At {key}: expected a list of simulations; got {show(simulations)}.")
    return _read_simulations(simulations, key, key == "simulation_index", limit)


def _read_simulations(simulations: list[JSON], key: str, indexed: bool,
                      limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of τ²-bench simulations found at key ("" for a bare list); indexed: they are a
    simulation_index's entries, with "reward" in place of "reward_info"."""
    trials: list[tuple[str, str, int | None, bool | None]] = []
    for index, simulation in enumerate(simulations):
        trial = _tau2_trial(simulation, f"{key}[{index}]", indexed)
        if trial is not None:
            trials.append(trial)
    left_out = len(simulations) - len(trials)
    if not trials:
        raise FormatError(_no_trials(len(simulations)))
    unrewarded = sum(passed is None for *_, passed in trials)
    problems, counts = _tally(((path, task_id, trial, bool(passed)) for path, task_id, trial, passed in trials), limit)
    warnings = _differ(counts)
    if left_out:
        warnings.append(f"{_simulations(left_out)} ended in an infrastructure error and "
                        f"{'was' if left_out == 1 else 'were'} left out, as τ²-bench's metrics leave them out.")
    if unrewarded:
        warnings.append(f"{_simulations(unrewarded)} {'has' if unrewarded == 1 else 'have'} no reward and "
                        f"{'counts' if unrewarded == 1 else 'count'} as failed, as in τ²-bench's metrics.")
    return problems, warnings


def _tau2_trial(simulation: JSON, path: str, indexed: bool) -> tuple[str, str, int | None, bool | None] | None:
    """(path, task id, trial, passed) of one τ²-bench simulation (passed None: no reward), or None if left out."""
    where = f"At {path}"
    task_id = task_id_of(field(simulation, "task_id", where), f"{where}.task_id")
    if simulation.get("termination_reason") == LEFT_OUT:
        return None
    trial = simulation.get("trial")
    trial = None if trial is None else count(trial, "trial", f"{where}.trial")
    if indexed:
        reward, reward_path = simulation.get("reward"), f"{where}.reward"
    else:
        reward_info = simulation.get("reward_info")
        reward = None if reward_info is None else field(reward_info, "reward", f"{where}.reward_info")
        reward_path = f"{where}.reward_info.reward"
    return path, task_id, trial, None if reward is None else _passed(reward, reward_path)


def _no_trials(simulations: int) -> str:
    if not simulations:
        return "The τ²-bench results have no simulations: the run saved no trials to count."
    return (f"All {_simulations(simulations)} of the τ²-bench results ended in an infrastructure error, "
            "so there are no trials to count; run them again.")


def _simulations(number: int) -> str:
    return "1 simulation" if number == 1 else f"{number:,} simulations"


def _passed(reward: JSON, where: str) -> bool:
    """True when a reward is 1 within TOLERANCE, as τ-bench's and τ²-bench's is_successful."""
    if isinstance(reward, bool) or not isinstance(reward, (int, float)) or not math.isfinite(reward):
        raise FormatError(f"{where}: the reward must be a number (1 is a success); got {show(reward)}.")
    return 1 - TOLERANCE <= reward <= 1 + TOLERANCE


def _tally(trials: Iterable[tuple[str, str, int | None, bool]], limit: int | None) -> tuple[list[Problem], list[int]]:
    """Problems and their trial counts from (path, task id, trial, passed), refusing a task's trial seen twice."""
    tally: Tally
    seen: dict[tuple[str, int], str]   # (task id, trial) -> where it is
    tally, seen = {}, {}
    for path, task_id, trial, passed in trials:
        if trial is not None:
            earlier = seen.setdefault((task_id, trial), path)
            if earlier != path:
                raise FormatError(f"At {path}: trial {trial} of task {show(task_id)} appears twice (also at "
                                  f"{earlier}); each trial of a task is counted once, so remove the repeat "
                                  "or keep the runs in separate files.")
        add_sample(tally, task_id, passed, f"At {path}.task_id", limit)
    return tallied(tally), [n for n, _ in tally.values()]


def _differ(counts: list[int], note: str = "") -> list[str]:
    """A warning, in a list, when tasks have different numbers of trials (none when they agree)."""
    if not counts or min(counts) == max(counts):
        return []
    return [f"Trials per task differ ({min(counts):,} to {max(counts):,}); each task uses its own count.{note}"]


register(__name__)
