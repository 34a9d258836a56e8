"""JSON of per-problem counts or per-sample rows, as scripts and the JSON API send them.

`[{"task_id", "n", "c"}]`, `[{"task_id", "samples": [true, false]}]` or
`[{"task_id", "passed"}]`, as a list or under `{"problems": [...]}`. Counts are
JSON numbers with whole values; strings are refused.
"""

from passk.formats._core import FormatError, add_sample, append, count, field, passed_flags, problem, show, tallied, task_id_of

NAME = "json"
LABEL = "JSON"   # the tool, as people name it
TITLE = 'JSON ([{"task_id", "n", "c"}, ...])'
SOURCE = ""   # not a harness


def looks_like(document):
    """Any JSON document not claimed by a harness is read as counts; errors then say what was expected."""
    return True


def read(document, suite, limit):
    """Read counts [{"task_id", "n", "c"}], samples [{"task_id", "samples"}] or rows [{"task_id", "passed"}]."""
    items, path = document, ""
    if isinstance(document, dict) and "problems" in document:
        items, path = document["problems"], "problems"
    if not isinstance(items, list):
        raise FormatError('The JSON must be a list of problems or an object with a "problems" list; '
                          f"got {show(items)}{' at problems' if path else ''}.")
    if items and isinstance(items[0], dict) and "passed" in items[0]:
        return _json_samples(items, path, limit)
    problems = []
    for index, item in enumerate(items):
        append(problems, _json_problem(item, f"{path}[{index}]"), limit)
    return problems


def _json_problem(item, path):
    """One JSON problem: {"task_id", "n", "c"} or {"task_id", "samples": [bools]}."""
    task_id = task_id_of(field(item, "task_id", f"At {path}"), f"At {path}.task_id")
    if "samples" in item:
        n, c = passed_flags(item["samples"], f"At {path}.samples")
    else:
        n = count(field(item, "n", f"At {path}"), "n", f"At {path}.n")
        c = count(field(item, "c", f"At {path}"), "c", f"At {path}.c")
    return problem(task_id, n, c, f"At {path}")


def _json_samples(items, path, limit):
    """Per-sample rows [{"task_id", "passed"}], merged per task."""
    tally = {}
    for index, item in enumerate(items):
        where = f"At {path}[{index}]"
        passed = field(item, "passed", where)
        if not isinstance(passed, bool):
            raise FormatError(f"{where}.passed: expected true or false; got {show(passed)}.")
        add_sample(tally, field(item, "task_id", where), passed, f"{where}.task_id", limit)
    return tallied(tally)
