"""JSON of per-problem counts or per-sample rows, as scripts and the JSON API send them.

`[{"task_id", "n", "c"}]`, `[{"task_id", "samples": [true, false]}]` or
`[{"task_id", "passed"}]`, as a list or under `{"problems": [...]}`. Counts are
JSON numbers with whole values; strings are refused. Beside "samples", an
"answers" list (each sample's extracted answer, null for none) gives maj@k.
`{"task_id", "scores": [0.65, 1, 0]}` gives each sample's score in [0, 1] in
sample order (Problem.scores: the graded mean and max@k, avg@k, the seeds'
spread); a score of 1 counts as passed.
"""

from passk.formats._core import FormatError, add_sample, append, count, field, passed_flags, problem, show, tallied, task_id_of
from passk.formats._core import JSON, Problem, Tally, answer_of
from passk.formats.registry import document_readers, register

NAME = "json"
LABEL = "JSON"   # the tool, as people name it
TITLE = 'JSON ([{"task_id", "n", "c"}, ...])'
SIGNATURE = '{"problems": [{"task_id", "n", "c"}]} or a list of such problems'   # what detection looks for
SOURCE = ""   # not a harness


def looks_like(document: JSON) -> bool:
    """Any JSON document not claimed by a harness is read as counts; errors then say what was expected."""
    return True


def _fits_none(document: JSON) -> bool:
    """True for an object without "problems", or a list of objects that are not problems."""
    if isinstance(document, dict):
        return True
    first = document[0] if isinstance(document, list) and document else None
    return isinstance(first, dict) and not {"task_id", "n", "c", "samples", "passed", "scores"} & first.keys()


def _fits_no_layout(what: str) -> FormatError:
    """The error for a JSON document no reader claims: what it is, and what detection looked for."""
    looked_for = "; ".join(f"{module.LABEL}: {module.SIGNATURE}" for module in document_readers())
    return FormatError(f"This JSON fits none of the layouts passk reads ({what}). It looked for {looked_for}.")


def _described(mapping: dict[str, JSON]) -> str:
    """An object, by its first keys, for an error message."""
    keys = list(mapping)
    if not keys:
        return "an empty object"
    more = f" and {len(keys) - 5:,} more" if len(keys) > 5 else ""
    return f"an object with the keys {', '.join(show(key) for key in keys[:5])}{more}"


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read counts [{"task_id", "n", "c"}], samples [{"task_id", "samples"}] or rows [{"task_id", "passed"}]."""
    items, path = document, ""
    if isinstance(document, dict) and "problems" in document:
        items, path = document["problems"], "problems"
    elif _fits_none(document):
        raise _fits_no_layout(_described(document) if isinstance(document, dict) else f"a list of {_described(document[0])}")
    if not isinstance(items, list):
        raise FormatError('The JSON must be a list of problems or an object with a "problems" list; '
                          f"got {show(items)}{' at problems' if path else ''}.")
    if items and isinstance(items[0], dict) and "passed" in items[0]:
        return _json_samples(items, path, limit)
    problems: list[Problem] = []
    for index, item in enumerate(items):
        append(problems, _json_problem(item, f"{path}[{index}]"), limit)
    return problems


def _json_problem(item: JSON, path: str) -> Problem:
    """One JSON problem: {"task_id", "n", "c"} or {"task_id", "samples": [bools]}, with "answers" (each sample's
    extracted answer, null for none) beside "samples" for majority voting."""
    task_id = task_id_of(field(item, "task_id", f"At {path}"), f"At {path}.task_id")
    if "scores" in item:
        if "samples" in item:
            raise FormatError(f'At {path}: give "samples" (true/false) or "scores" (from 0 to 1) for the samples, not '
                              "both.")
        return _scored(task_id, item["scores"], path)
    if "samples" in item:
        n, c = passed_flags(item["samples"], f"At {path}.samples")
        if "answers" in item:
            return _voted(task_id, item["samples"], item["answers"], path)
    elif "answers" in item:
        raise FormatError(f'At {path}: "answers" needs "samples" beside it, each answer\'s verdict in the same order.')
    else:
        n = count(field(item, "n", f"At {path}"), "n", f"At {path}.n")
        c = count(field(item, "c", f"At {path}"), "c", f"At {path}.c")
    return problem(task_id, n, c, f"At {path}")


def _voted(task_id: str, samples: list[bool], answers: JSON, path: str) -> Problem:
    """A problem of samples with their extracted answers: one answer (a string, a number or null) per sample."""
    if not isinstance(answers, list) or len(answers) != len(samples):
        got = f"{len(answers):,} answers" if isinstance(answers, list) else show(answers)
        raise FormatError(f'At {path}.answers: expected a list of one answer per sample ({len(samples):,}), null for '
                          f"none; got {got}.")
    for index, answer in enumerate(answers):
        if isinstance(answer, (list, dict)):
            raise FormatError(f"At {path}.answers[{index}]: an answer is a string, a number or null; "
                              f"got {show(answer)}.")
    votes = tuple((answer_of(answer), verdict) for answer, verdict in zip(answers, samples))
    found = problem(task_id, len(samples), sum(samples), f"At {path}")
    return Problem(found.task_id, found.n, found.c, votes)


def _scored(task_id: str, scores: JSON, path: str) -> Problem:
    """A problem of graded samples: one score from 0 to 1 per sample, in sample order; 1 counts as passed."""
    if not isinstance(scores, list):
        raise FormatError(f"At {path}.scores: expected a list of numbers from 0 to 1, one per sample; got "
                          f"{show(scores)}.")
    for index, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
            raise FormatError(f"At {path}.scores[{index}]: a score is a number from 0 to 1; got {show(score)}.")
    found = problem(task_id, len(scores), sum(score == 1 for score in scores), f"At {path}")
    return Problem(found.task_id, found.n, found.c, scores=tuple(float(score) for score in scores))


def _json_samples(items: list[JSON], path: str, limit: int | None) -> list[Problem]:
    """Per-sample rows [{"task_id", "passed"}], merged per task."""
    tally: Tally = {}
    for index, item in enumerate(items):
        where = f"At {path}[{index}]"
        passed = field(item, "passed", where)
        if not isinstance(passed, bool):
            raise FormatError(f"{where}.passed: expected true or false; got {show(passed)}.")
        add_sample(tally, field(item, "task_id", where), passed, f"{where}.task_id", limit)
    return tallied(tally)


register(__name__)
