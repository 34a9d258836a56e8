"""What every reader shares: the Problem it returns, its errors, and the checks on task ids and counts."""

import json
import re
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field as dataclass_field
from typing import Any, TypeAlias, cast

from passk.formats.registry import titles
from passk.limits import LIMITS, too_many_problems

DIGITS = re.compile(r"[0-9]{1,16}")
SURROGATE = re.compile("[\ud800-\udfff]")   # from JSON escapes like "\\ud800"; not encodable
JSON: TypeAlias = Any   # a value json or the streaming parser (_json) built: dict, list, str, int, float, bool or None
Tally: TypeAlias = dict[str, list[int]]   # {task_id: [n, c]}, as samples are counted
EMPTY = ("The input is empty: no problems were found; paste one problem a line (n c) "
         "or upload a harness results file (JSONL, JSON or CSV).")


Vote: TypeAlias = tuple[Hashable, bool]   # one sample's extracted answer (None: no answer) and its verdict


@dataclass(frozen=True)
class Problem:
    task_id: str
    n: int      # samples generated
    c: int      # samples that passed
    # each sample's (answer, verdict), in sample order, when the file holds extracted answers (passk.maths.majority)
    votes: tuple[Vote, ...] | None = dataclass_field(default=None, compare=False, repr=False)
    # each sample's score in [0, 1], in sample order, when the file gives one per sample: a graded score (0.65), or
    # 1.0 / 0.0 for a verdict where the order of the samples means something (the seeds of a NeMo-Skills run).
    # c counts the samples scoring 1 (full credit); passk.results.metrics reads the scores for the graded mean and max@k,
    # avg@k over the first k samples and the spread across seeds.
    scores: tuple[float, ...] | None = dataclass_field(default=None, compare=False, repr=False)


class FormatError(ValueError):
    """One sentence a user can act on: what is wrong, where, and what is allowed."""


class EmptyInput(FormatError):
    """The input holds no problems at all; each interface may say so in its own words."""


@dataclass
class Parsed:
    problems: list[Problem]                     # in first-seen order
    format: str                                 # one of passk.formats.FORMATS
    warnings: list[str] = dataclass_field(default_factory=list)
    source: str = dataclass_field(default="", compare=False)   # the harness and version whose layout was read
    combined: str = dataclass_field(default="", compare=False)  # how several files were combined, if they were


NO_ANSWER = frozenset({"[invalid]", ""})   # what harnesses write for no extracted answer: no vote, as None


def answer_of(value: JSON, blank_votes: bool = False) -> Hashable:
    """A sample's extracted answer as a vote: None for no answer (null, or a text of NO_ANSWER such as "[invalid]"
    unless blank_votes: NeMo-Skills counts "" as an answer), a string, number or true/false as it is, a list or an
    object as its JSON text (so that equal answers are one answer)."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if isinstance(value, str) and not blank_votes and value.strip() in NO_ANSWER:
        return None
    return cast(Hashable, value)


def show(value: JSON) -> str:
    """A short rendering of a value for an error message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def task_id_of(value: JSON, where: str) -> str:
    """Return value as a task id (strings as given, integers as text) or raise."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise FormatError(f"{where}: the task id must be a string; got {show(value)}.")
    if not value.strip():
        raise FormatError(f"{where}: the task id is empty; give each problem a name.")
    if len(value) > LIMITS.task_id_chars:
        raise FormatError(f"{where}: the task id is {len(value):,} characters long; "
                          f"at most {LIMITS.task_id_chars} are allowed.")
    if SURROGATE.search(value):
        raise FormatError(f"{where}: the task id holds an unpaired surrogate; use valid Unicode text.")
    return value


def count(value: JSON, name: str, where: str) -> int:
    """Return a JSON number with a whole value (10, 10.0, 1e1) as a count from 0 to LIMITS.largest_count.

    A string is refused, as harnesses write counts as numbers; text formats use count_text.
    """
    if type(value) is float and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LIMITS.largest_count:
        hint = "; send it as a number, not a string" if isinstance(value, str) else ""
        raise FormatError(f"{where}: {name} must be a whole number from {_lowest(name)} to "
                          f"{LIMITS.largest_count:,}{hint}; got {show(value)}.")
    return value


def count_text(text: str, name: str, where: str) -> int:
    """Return text of digits (a CSV cell, a word of a pasted line) as a count from 0 to LIMITS.largest_count."""
    value = int(text) if DIGITS.fullmatch(text) else None
    if value is None or value > LIMITS.largest_count:
        raise FormatError(f"{where}: {name} must be a whole number from {_lowest(name)} to "
                          f"{LIMITS.largest_count:,}; got {show(text)}.")
    return value


def _lowest(name: str) -> int:
    """The smallest count a field may hold, as a sentence says it: n (samples) at least 1, the others 0."""
    return 1 if name == "n" else 0


def problem(task_id: str, n: int, c: int, where: str) -> Problem:
    """Build a Problem after checking that it has samples and 0 <= c <= n."""
    if n == 0:
        raise FormatError(f"{where}: task {show(task_id)} has no samples (n = 0); "
                          "every problem needs at least one.")
    if c > n:
        raise FormatError(f"{where}: c = {c:,} is larger than n = {n:,}; c counts the samples "
                          "that passed, so 0 ≤ c ≤ n.")
    return Problem(task_id, n, c)


def plain_problem(task_id: str, n_text: str, c_text: str) -> Problem | None:
    """The problem of a row (a CSV row, a pasted line) that passes every check at a glance (a task id of 1 to
    LIMITS.task_id_chars characters, counts of 1 to 12 ASCII digits, 0 <= c <= n and n > 0), else None: the row is
    checked in full, to name what is wrong.
    (A cell or word is stripped, and decoded UTF-8 holds no surrogate, so task_id_of would keep such an id as it
    is.)"""
    if not (0 < len(task_id) <= LIMITS.task_id_chars and 0 < len(n_text) <= 12 and 0 < len(c_text) <= 12
            and n_text.isascii() and n_text.isdigit() and c_text.isascii() and c_text.isdigit()):
        return None
    n, c = int(n_text), int(c_text)
    return Problem(task_id, n, c) if 0 <= c <= n and n > 0 else None


def append(problems: list[Problem], problem: Problem, limit: int | None) -> None:
    """Add problem to the list, refusing more than limit problems (None: any number)."""
    if limit is not None and len(problems) >= limit:
        raise FormatError(too_many_problems(limit))
    problems.append(problem)


def add_sample(tally: Tally, task_id: JSON, passed: bool, where: str, limit: int | None) -> None:
    """Count one sample of task_id in tally ({task_id: [n, c]}), merging samples of one task."""
    counts = tally.get(task_id) if type(task_id) is str else None
    if counts is None:
        task_id = task_id_of(task_id, where)
        if task_id not in tally and limit is not None and len(tally) >= limit:
            raise FormatError(too_many_problems(limit))
        counts = tally.setdefault(task_id, [0, 0])
    counts[0] += 1
    counts[1] += passed


def tallied(tally: Tally) -> list[Problem]:
    return [Problem(task_id, n, c) for task_id, (n, c) in tally.items()]


def passed_flags(values: JSON, where: str) -> tuple[int, int]:
    """Return (n, c) for a JSON list of booleans, one per sample."""
    if not isinstance(values, list):
        raise FormatError(f"{where}: expected a list of true/false, one per sample; got {show(values)}.")
    for index, value in enumerate(values):
        if not isinstance(value, bool):
            raise FormatError(f"{where}[{index}]: expected true or false; got {show(value)}.")
    return len(values), sum(values)


def field(mapping: JSON, key: str, where: str) -> JSON:
    """mapping[key], or a FormatError naming the missing field."""
    if not isinstance(mapping, dict):
        raise FormatError(f"{where}: expected an object; got {show(mapping)}.")
    if key not in mapping:
        raise FormatError(f'{where}: the field "{key}" is missing.')
    return mapping[key]


def key_path(prefix: str, key: str) -> str:
    """A JSON key path for messages: prefix["key"], with the key quoted as JSON."""
    return f"{prefix}[{json.dumps(key, ensure_ascii=False)}]"


def parsed(problems: list[Problem], fmt: str) -> Parsed:
    """Wrap problems as Parsed, refusing none and warning about repeated task ids."""
    if not problems:
        raise EmptyInput(EMPTY)
    repeated = [task_id for task_id, seen in Counter(p.task_id for p in problems).items() if seen > 1]
    warnings = []
    if repeated:
        named = ", ".join(show(task_id) for task_id in repeated[:5])
        more = f" and {len(repeated) - 5:,} more" if len(repeated) > 5 else ""
        subject = "1 task id appears" if len(repeated) == 1 else f"{len(repeated):,} task ids appear"
        warnings.append(f"{subject} more than once and each row was kept "
                        f"as its own problem: {named}{more}.")
    return Parsed(problems, fmt, warnings)


def not_results(line: str, number: int) -> FormatError:
    """The error for a first line that is not results at all, such as prose, listing what is accepted."""
    return FormatError(f"Line {number} is {show(line)}: this is not a results file; accepted formats: "
                       f"{', '.join(titles().values())}.")


def read_eval_tasks(document: JSON, layout: str, task_passes: Callable[[JSON, str], list[bool]],
                    limit: int | None) -> list[Problem]:
    """Problems from an {"eval": {task_id: samples}} document; task_passes(samples, path) flags each sample."""
    tasks = document.get("eval") if isinstance(document, dict) else None
    if not isinstance(tasks, dict):
        raise FormatError(f'Expected {layout}: an object whose "eval" maps each task id to its samples.')
    problems: list[Problem] = []
    for task_id, samples in tasks.items():
        path = key_path("eval", task_id)
        passes = task_passes(samples, path)
        where = f"At {path}"
        append(problems, problem(task_id_of(task_id, where), len(passes), sum(passes), where), limit)
    return problems
