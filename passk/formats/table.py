"""CSV rows, as spreadsheets and scripts write them: task_id,n,c (header optional), n,c, or task_id,passed (header needed)."""

import csv
import itertools
from collections.abc import Iterable, Iterator

from passk.formats._core import FormatError, add_sample, append, count_text, not_results, problem, show, tallied, task_id_of
from passk.formats._core import Problem, Tally
from passk.formats._input import text_lines
from passk.formats.text import is_prose
from passk.formats.registry import register
from passk.limits import LIMITS

NAME = "csv"
LABEL = "CSV"   # the tool, as people name it
TITLE = "CSV (task_id,n,c, n,c or task_id,passed rows)"
SOURCE = ""   # not a harness
_CSV_PASSED = {"true": True, "1": True, "false": False, "0": False}


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read task_id,n,c rows (header optional) or task_id,passed rows (header needed)."""
    rows = _csv_rows(text_lines(chunks))
    number, first = next(rows, (0, None))
    if first is None:
        return []
    columns = _csv_header(first, number)
    if columns is None and is_prose(", ".join(first)):
        raise not_results(", ".join(first), number)   # prose with a comma, not rows of counts
    if columns is None:   # no header: task_id,n,c rows, or n,c rows named by order
        columns = {"n": 0, "c": 1} if len(first) == 2 else {"task_id": 0, "n": 1, "c": 2}
        rows = itertools.chain([(number, first)], rows)
    if "passed" in columns:
        return _csv_samples(rows, columns, limit)
    return _csv_counts(rows, columns, limit)


def _csv_rows(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number, cells) for each non-blank CSV row."""
    reader = csv.reader(text for _, text in lines)
    try:
        for cells in reader:
            cells = [cell.strip() for cell in cells]
            if any(cells):
                yield reader.line_num, cells
    except csv.Error as error:
        raise FormatError(f"Line {reader.line_num}: this is not valid CSV ({error}).") from None


def _csv_header(cells: list[str], number: int) -> dict[str, int] | None:
    """Map column names to positions when cells is a header row, else None."""
    names = [cell.lower() for cell in cells]
    if not {"task_id", "n", "c", "passed"} & set(names):
        return None
    columns: dict[str, int] = {name: names.index(name) for name in ("task_id", "n", "c", "passed") if name in names}
    if names == ["n", "c"]:   # n,c rows, named by order
        return columns
    if "task_id" not in columns or not ({"n", "c"} <= set(columns) or "passed" in columns):
        raise FormatError(f"Line {number}: the header must name the columns task_id,n,c "
                          f"or task_id,passed; got {show(','.join(cells))}.")
    return columns


def _csv_cells(cells: list[str], columns: dict[str, int], number: int) -> dict[str, str]:
    """The named cells of one row, or an error saying which columns were expected."""
    if len(cells) <= max(columns.values()):
        expected = ",".join(sorted(columns, key=columns.__getitem__))
        raise FormatError(f"Line {number}: expected {len(columns)} columns {expected}; "
                          f"got {len(cells)}.")
    return {name: cells[index] for name, index in columns.items()}


def _csv_counts(rows: Iterable[tuple[int, list[str]]], columns: dict[str, int], limit: int | None) -> list[Problem]:
    problems: list[Problem] = []
    named, last = "task_id" in columns, max(columns.values())
    n_at, c_at, task_at = columns["n"], columns["c"], columns.get("task_id", 0)
    for number, cells in rows:
        if len(cells) <= last or not named and len(cells) != 2:
            _csv_cells(cells, columns, number)   # names the columns expected when there are too few
            raise FormatError(f"Line {number}: expected 2 columns n,c like the rows before; got {len(cells)}.")
        task_id = cells[task_at] if named else f"problem {len(problems) + 1}"
        row = _plain_problem(task_id, cells[n_at], cells[c_at])
        if row is None:   # something to refuse: the checks that say what and where
            where = f"Line {number}"
            row = problem(task_id_of(task_id, where) if named else task_id, count_text(cells[n_at], "n", where),
                          count_text(cells[c_at], "c", where), where)
        append(problems, row, limit)
    return problems


def _plain_problem(task_id: str, n_text: str, c_text: str) -> Problem | None:
    """The problem of a row that passes every check at a glance (a task id of 1 to LIMITS.task_id_chars characters,
    counts of 1 to 12 ASCII digits, 0 <= c <= n and n > 0), else None: the row is checked in full, to name what is
    wrong.
    (A cell is stripped, and decoded UTF-8 holds no surrogate, so task_id_of would keep such an id as it is.)"""
    if not (0 < len(task_id) <= LIMITS.task_id_chars and 0 < len(n_text) <= 12 and 0 < len(c_text) <= 12
            and n_text.isascii() and n_text.isdigit() and c_text.isascii() and c_text.isdigit()):
        return None
    n, c = int(n_text), int(c_text)
    return Problem(task_id, n, c) if 0 <= c <= n and n > 0 else None


def _csv_samples(rows: Iterable[tuple[int, list[str]]], columns: dict[str, int], limit: int | None) -> list[Problem]:
    tally: Tally = {}
    for number, cells in rows:
        row = _csv_cells(cells, columns, number)
        passed = _CSV_PASSED.get(row["passed"].lower())
        if passed is None:
            raise FormatError(f"Line {number}: passed must be true, false, 1 or 0; got {show(row['passed'])}.")
        counts = tally.get(row["task_id"])
        if counts is None:   # a new task: checked, and counted against the limit
            add_sample(tally, row["task_id"], passed, f"Line {number}", limit)
        else:
            counts[0] += 1
            counts[1] += passed
    return tallied(tally)


register(__name__)
