"""Pasted text, one problem a line: `n c`, `task_id n c`, `n,c`, `1 0 1 1 0` or `task_id: 1 0 1`.

A line of exactly two numbers is always read as `n c` (so `1 0` is one problem
with one sample that failed, not two samples). Tabs and spaces both separate.
"""

import re
from collections.abc import Iterable

from passk.formats._core import DIGITS, FormatError, Problem, append, not_results, problem, show, task_id_of
from passk.formats._core import count_text, plain_problem
from passk.formats import _cost
from passk.formats._input import text_lines
from passk.formats.registry import register

NAME = "text"
LABEL = "text"   # the tool, as people name it
TASK_WORD = re.compile(r"[^-+.\d]")   # a word with any character a number does not have: a task id, not a count
TITLE = 'text ("n c", "task_id n c" or "task_id: 1 0 1", one problem a line)'
SOURCE = ""   # not a harness
COST = _cost.TEXT   # what reading a line and a byte of it costs
_COUNT_TOKEN = re.compile(r"(?<![^\s,:])[0-9]+(?![^\s,:])")   # a number standing alone
_WORD = re.compile(r"[^\W\d_]{2}")   # two letters in a row
_TEXT_HEADER = re.compile(r"task_id[ \t,]+n[ \t,]+c", re.IGNORECASE)


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read pasted lines: `n c`, `n,c`, `task_id n c`, `1 0 1 1 0`, or `task_id: 1 0 1`; skip blanks and # comments.

    A first line that names the columns (`task_id n c`, tab- or space-separated) is a header and skipped.
    """
    problems: list[Problem] = []
    for number, text in text_lines(chunks):
        line = text.strip()
        if not line or line.startswith("#"):
            continue
        if not problems and _TEXT_HEADER.fullmatch(line):
            continue
        if not problems and is_prose(line):   # not results at all: fails here, saying so
            _text_problem(line, 1, f"Line {number}", not_results(line, number))
        append(problems, _text_problem(line, len(problems) + 1, f"Line {number}"), limit)
    return problems


def is_prose(line: str) -> bool:
    """True for a line with words and at most one number standing alone: not results in any format."""
    return len(_COUNT_TOKEN.findall(line)) < 2 and bool(_WORD.search(line))


def _text_problem(line: str, index: int, where: str, unreadable: FormatError | None = None) -> Problem:
    """One pasted line as a Problem; two numbers are `n c`, more (or after a colon) are samples.

    `task_id n c` (space- or tab-separated) is read when the task id holds something
    other than digits, so that three numbers stay an error rather than a guess.
    """
    separator = "\t" if line.count("\t") == 2 else "," if line.count(",") in (1, 2) else None
    if separator:  # task_id,n,c or n,c (or task_id<tab>n<tab>c) among the others
        parts = [part.strip() for part in line.split(separator)]
        task_id = parts[0] if len(parts) == 3 else f"problem {index}"
        glanced = plain_problem(task_id, parts[-2], parts[-1])
        if glanced is not None:
            return glanced
        task_id = task_id_of(parts[0], where) if len(parts) == 3 else f"problem {index}"
        return problem(task_id, count_text(parts[-2], "n", where), count_text(parts[-1], "c", where), where)
    tokens = line.split(None, 3)   # three words, or more (not split further: a line of samples is split below)
    if (len(tokens) == 3 and not tokens[0].endswith(":") and not DIGITS.fullmatch(tokens[0])
            and all(DIGITS.fullmatch(token) for token in tokens[1:])):
        glanced = plain_problem(tokens[0], tokens[1], tokens[2])
        if glanced is not None:
            return glanced
        task_id = task_id_of(tokens[0], where)
        return problem(task_id, count_text(tokens[1], "n", where), count_text(tokens[2], "c", where), where)
    task_id, colon, rest = line.rpartition(":")
    task_id = task_id_of(task_id.strip(), where) if colon else f"problem {index}"
    tokens = rest.split()
    if len(tokens) == 2 and not colon and TASK_WORD.search(tokens[0]) and DIGITS.fullmatch(tokens[1]):
        raise FormatError(f'{where}: {show(line)} has a task id and one number, but a line needs both n and c: '
                          f'"task_id n c" (the samples, then how many passed).')
    if len(tokens) == 2:
        return problem(task_id, count_text(tokens[0], "n", where), count_text(tokens[1], "c", where), where)
    if (colon or len(tokens) > 2) and tokens:
        flags = "".join(tokens)
        if len(flags) == len(tokens) and not flags.strip("01"):   # each word a single 0 or 1
            return Problem(task_id, len(tokens), flags.count("1"))
    raise unreadable or FormatError(f'{where}: expected "n c", "task_id n c", "task_id,n,c", per-sample results like "1 0 1", '
                      f'or "task_id: 1 0 1"; got {show(line)}.')


register(__name__)
