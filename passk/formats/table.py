"""CSV rows, as spreadsheets and scripts write them: task_id,n,c (header optional), n,c, or task_id,passed (header needed)."""

import csv
import itertools
from collections.abc import Iterable, Iterator

from passk.formats._core import FormatError, add_sample, append, count_text, not_results, problem, show, tallied, task_id_of
from passk.formats._core import Problem, Tally, plain_problem as _plain_problem
from passk.formats import _cost
from passk.formats._input import text_lines
from passk.formats.text import is_prose
from passk.formats.registry import register

NAME = "csv"
LABEL = "CSV"   # the tool, as people name it
TITLE = "CSV (task_id,n,c, n,c or task_id,passed rows)"
SOURCE = ""   # not a harness
COST = _cost.CSV   # what reading a line and a byte of it costs
_CSV_PASSED = {"true": True, "1": True, "false": False, "0": False}


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read task_id,n,c rows (header optional) or task_id,passed rows (header needed)."""
    lines = text_lines(chunks)
    number, first = next(_csv_rows(lines), (0, None))
    if first is None:
        return []
    header = _csv_header(first, number)
    if header is None and is_prose(", ".join(first)):
        raise not_results(", ".join(first), number)   # prose with a comma, not rows of counts
    # no header: task_id,n,c rows, or n,c rows named by order
    columns = header or ({"n": 0, "c": 1} if len(first) == 2 else {"task_id": 0, "n": 1, "c": 2})
    # the cells past the last column read stay one (n,c rows have exactly two, so theirs are all split)
    rows = _csv_rows(lines, max(columns.values()) + 1 if "task_id" in columns else -1)
    if header is None:
        rows = itertools.chain([(number, first)], rows)
    if "passed" in columns:
        return _csv_samples(rows, columns, limit)
    return _csv_counts(rows, columns, limit)


def _csv_rows(lines: Iterator[tuple[int, str]], maxsplit: int = -1) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number, cells) for each non-blank CSV row; the cells of a plain row (no quote) are split at its
    first maxsplit commas (-1: all), the rest kept as one cell, so that a row costs the columns read and no more.

    A row with a quote (whose cells may hold commas and span lines) or a carriage return is read by csv's own
    reader, and the same cells kept; its number is its last line's.
    """
    for number, text in lines:
        if '"' in text or "\r" in text:
            number, every = _quoted_row(number, text, lines)
            cells = [cell.strip() for cell in (every if maxsplit < 0 else every[:maxsplit + 1])]
            blank = not any(cells) and not any(cell.strip() for cell in every)
        else:
            cells = [cell.strip() for cell in text.split(",", maxsplit)]
            blank = not cells[0] and not text.replace(",", "").strip()   # every cell, split or not, is spaces
        if not blank:
            yield number, cells


def _quoted_row(number: int, text: str, lines: Iterator[tuple[int, str]]) -> tuple[int, list[str]]:
    """(number of its last line, cells) of the row that starts with text, line number, read by csv's reader, which
    takes the lines a quoted cell spans from lines."""
    reader = csv.reader(itertools.chain([text], (more for _, more in lines)))
    try:
        cells = next(reader, [])
    except csv.Error as error:
        raise FormatError(f"Line {number + reader.line_num - 1}: this is not valid CSV ({error}).") from None
    return number + reader.line_num - 1, cells or [""]


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


def _csv_samples(rows: Iterable[tuple[int, list[str]]], columns: dict[str, int], limit: int | None) -> list[Problem]:
    tally: Tally = {}
    task_at, passed_at, last = columns["task_id"], columns["passed"], max(columns.values())
    for number, cells in rows:
        if len(cells) <= last:
            _csv_cells(cells, columns, number)   # names the columns expected
        task_id, flag = cells[task_at], cells[passed_at]
        passed = _CSV_PASSED.get(flag)
        if passed is None:
            passed = _CSV_PASSED.get(flag.lower())
            if passed is None:
                raise FormatError(f"Line {number}: passed must be true, false, 1 or 0; got {show(flag)}.")
        counts = tally.get(task_id)
        if counts is None:   # a new task: checked, and counted against the limit
            add_sample(tally, task_id, passed, f"Line {number}", limit)
        else:
            counts[0] += 1
            counts[1] += passed
    return tallied(tally)


register(__name__)
