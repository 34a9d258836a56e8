"""EvalPlus `eval_results.json` (evalplus/evalplus, `evalplus.evaluate`), versions 0.1.x and 0.2 or later.

0.2 and later: `{"eval": {task_id: [{"base_status", "plus_status", ...}, ...]}}`, statuses
"pass", "fail", "timeout". 0.1.x: `{"eval": {task_id: {"nfiles", "base": [[status, details], ...],
"plus": [...]}}}`, statuses "success", "failed", "timed out". A sample passes the base suite
when its base tests pass, and the plus suite when base and plus both pass.
"""

from passk.formats._core import JSON, FormatError, Problem, field, read_eval_tasks, show
from passk.formats.registry import register

NAME = "evalplus"
LABEL = "EvalPlus"   # the tool, as people name it
TITLE = "EvalPlus eval_results.json"
SIGNATURE = '{"eval": {task_id: [{"base_status", "plus_status"}]}}'   # what detection looks for (0.1.x: "base", "plus")
SOURCE = "EvalPlus (evalplus.evaluate)"
SUITES = ("base", "plus")
STATUSES = ("pass", "fail", "timeout")
OLD_STATUSES = ("success", "failed", "timed out")   # EvalPlus 0.1.x


def looks_like(document: JSON) -> bool:
    """An object with "eval" (BigCodeBench's, also under "eval", is recognised before this one)."""
    return isinstance(document, dict) and "eval" in document


def source(document: JSON) -> str:
    """The EvalPlus version whose layout document has."""
    tasks = document.get("eval")
    first = next(iter(tasks.values()), None) if isinstance(tasks, dict) else None
    return f"{SOURCE}, {'0.1.x' if isinstance(first, dict) else '0.2 or later'}"


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read EvalPlus eval_results.json; a sample passes "base" or "plus" (base and plus both pass).

    EvalPlus 0.2 and later write {"eval": {task_id: [{"base_status", "plus_status"}, ...]}};
    EvalPlus 0.1.x wrote {"eval": {task_id: {"nfiles", "base": [[status, details], ...], "plus": [...]}}}.
    """
    def task_passes(samples: JSON, path: str) -> list[bool]:
        if isinstance(samples, dict):
            return _old_passes(samples, path, suite)
        if not isinstance(samples, list):
            raise FormatError(f"At {path}: expected a list of samples (EvalPlus 0.2 or later) or an object "
                              f'with "base" and "plus" lists (EvalPlus 0.1.x); got {show(samples)}.')
        return [_passed(sample, f"{path}[{index}]", suite) for index, sample in enumerate(samples)]
    return read_eval_tasks(document, "an EvalPlus eval_results.json", task_passes, limit)


def _passed(sample: JSON, path: str, suite: str) -> bool:
    """True when one EvalPlus sample passes the suite's tests."""
    keys = ("base_status",) if suite == "base" else ("base_status", "plus_status")
    statuses = [field(sample, key, f"At {path}") for key in keys]
    for key, status in zip(keys, statuses):
        if status is None and key == "plus_status":
            raise FormatError(f"At {path}.plus_status: there is no plus result (the run used "
                              "--base-only?); choose the base suite.")
        if status not in STATUSES:
            raise FormatError(f"At {path}.{key}: expected \"pass\", \"fail\" or \"timeout\"; "
                              f"got {show(status)}.")
    return all(status == "pass" for status in statuses)


def _old_passes(task: JSON, path: str, suite: str) -> list[bool]:
    """Pass flags of one EvalPlus 0.1.x task; a sample passes plus when base and plus both say "success"."""
    base = _old_statuses(field(task, "base", f"At {path}"), f"{path}.base")
    nfiles = task.get("nfiles", len(base))
    if nfiles != len(base):
        raise FormatError(f"At {path}.nfiles: {show(nfiles)} samples, but base has {len(base):,} results; "
                          "each sample needs one.")
    if suite == "base":
        return [status == "success" for status in base]
    plus = _old_statuses(field(task, "plus", f"At {path}"), f"{path}.plus")
    if base and not plus:
        raise FormatError(f"At {path}.plus: there is no plus result (the run used --base-only?); "
                          "choose the base suite.")
    if len(plus) != len(base):
        raise FormatError(f"At {path}.plus: {len(plus):,} results for {len(base):,} base results; "
                          "each sample needs one of each.")
    return [b == p == "success" for b, p in zip(base, plus)]


def _old_statuses(results: JSON, path: str) -> list[str]:
    """The statuses of EvalPlus 0.1.x [[status, details], ...] results."""
    if not isinstance(results, list):
        raise FormatError(f"At {path}: expected a list of [status, details], one per sample; got {show(results)}.")
    statuses: list[str] = []
    for index, result in enumerate(results):
        status = result[0] if isinstance(result, list) and result else None
        if status not in OLD_STATUSES:
            raise FormatError(f'At {path}[{index}]: expected [status, details] with the status "success", '
                              f'"failed" or "timed out"; got {show(result if status is None else status)}.')
        statuses.append(status)
    return statuses


register(__name__)
