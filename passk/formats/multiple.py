"""MultiPL-E per-problem results (nuprl/MultiPL-E, `evaluation/src/main.py`, the evaluation container).

One problem a file, `<name>.results.json` or gzip-compressed `<name>.results.json.gz`: the
problem's fields copied from its completions file (`"name", "language", "prompt", "tests",
"stop_tokens"`, often `"temperature"`) and `"results": [{"program", "timestamp", "stdout",
"stderr", "exit_code", "status"}, ...]`, one per completion. Statuses are "OK", "Timeout",
"Exception", "SyntaxError" and others; as MultiPL-E's own `pass_k.py`, a sample passes when
its status is "OK" and its exit code 0. The task id is "name". Several files (a whole run)
combine into one run with `read_files`.
"""

from passk.formats._core import JSON, FormatError, Problem, append, field, problem, show, task_id_of
from passk.formats.registry import register

NAME = "multiple"
LABEL = "MultiPL-E"   # the tool, as people name it
TITLE = "MultiPL-E *.results.json(.gz), one problem a file"
SIGNATURE = 'an object with "name", "language" and "results"'   # what detection looks for
SOURCE = "MultiPL-E (evaluation/src/main.py) per-problem results"


def looks_like(document: JSON) -> bool:
    """An object with MultiPL-E's "name" and "language" and its "results" (or, before evaluation, "completions")."""
    return (isinstance(document, dict) and {"name", "language"} <= document.keys()
            and ("results" in document or "completions" in document))


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read one MultiPL-E *.results.json: one problem, a sample passing when status is "OK" and exit_code is 0."""
    if not isinstance(document, dict):
        raise FormatError('Expected a MultiPL-E *.results.json: an object with the problem\'s "name" and '
                          'its "results", one per completion.')
    task_id = task_id_of(field(document, "name", "At the top level"), "At name")
    if "results" not in document and "completions" in document:
        raise FormatError('The input has "completions" but no "results": this is a MultiPL-E completions file '
                          "before evaluation; evaluate it with MultiPL-E's evaluation container "
                          "(evaluation/src/main.py), which writes <name>.results.json, and give that file.")
    results = field(document, "results", "At the top level")
    if not isinstance(results, list):
        raise FormatError(f"At results: expected a list of results, one per completion; got {show(results)}.")
    passes = [_passed(result, f"results[{index}]") for index, result in enumerate(results)]
    problems: list[Problem] = []
    append(problems, problem(task_id, len(passes), sum(passes), "At results"), limit)
    return problems


def _passed(result: JSON, path: str) -> bool:
    """True when one MultiPL-E result has the status "OK" and the exit code 0."""
    status = field(result, "status", f"At {path}")
    exit_code = field(result, "exit_code", f"At {path}")
    if not isinstance(status, str):
        raise FormatError(f'At {path}.status: expected a status such as "OK", "Timeout" or "Exception"; '
                          f"got {show(status)}.")
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)):
        raise FormatError(f"At {path}.exit_code: expected a whole number (or null); got {show(exit_code)}.")
    return status == "OK" and exit_code == 0


register(__name__)
