"""BigCodeBench `*_eval_results.json` (bigcode-project/bigcodebench, `bigcodebench.evaluate`, 0.1 and later).

`{"date", "eval": {task_id: [{"task_id", "solution", "status", "details"}, ...]}}`: one status per
sample, "pass", "fail", "timeout" or null (the run could not tell); a sample passes when it is
"pass". Pre-release runs used ids like `f_885_chien.py`; they read the same way.
"""

from passk.formats._core import JSON, FormatError, Problem, field, read_eval_tasks, show
from passk.formats.registry import register

NAME = "bigcodebench"
LABEL = "BigCodeBench"   # the tool, as people name it
TITLE = "BigCodeBench *_eval_results.json"
SIGNATURE = '{"eval": {task_id: [{"status"}]}}'   # what detection looks for
SOURCE = "BigCodeBench (bigcodebench.evaluate)"
STATUSES = ("pass", "fail", "timeout", None)


def looks_like(document: JSON) -> bool:
    """True when the first sample under "eval" has BigCodeBench's one "status", not EvalPlus's two."""
    tasks = document.get("eval") if isinstance(document, dict) else None
    samples = next(iter(tasks.values()), None) if isinstance(tasks, dict) else None
    sample = samples[0] if isinstance(samples, list) and samples else None
    return isinstance(sample, dict) and "status" in sample and "base_status" not in sample


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read BigCodeBench *_eval_results.json (bigcodebench 0.1 and later, also its pre-release runs).

    {"date", "eval": {task_id: [{"task_id", "solution", "status", "details"}, ...]}}: one status
    per sample, "pass", "fail", "timeout" or null; a sample passes when it is "pass".
    """
    def task_passes(samples: JSON, path: str) -> list[bool]:
        if not isinstance(samples, list):
            raise FormatError(f"At {path}: expected a list of samples; got {show(samples)}.")
        passes = []
        for index, sample in enumerate(samples):
            status = field(sample, "status", f"At {path}[{index}]")
            if status not in STATUSES:
                raise FormatError(f'At {path}[{index}].status: expected "pass", "fail", "timeout" or null; '
                                  f"got {show(status)}.")
            passes.append(status == "pass")
        return passes
    return read_eval_tasks(document, "a BigCodeBench *_eval_results.json", task_passes, limit)


register(__name__)
