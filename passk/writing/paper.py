"""Results as a paper prints them: Markdown and LaTeX tables and rows.

One place writes the cells, so the command line's Markdown and LaTeX tables
(passk.writing.output) and the rows the pages offer to copy hold the same text.
"""

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from passk.writing.columns import MARKDOWN, RESULT_COLUMNS, Column, cells, headings
from passk.writing.display import difference_interval, interval, label

if TYPE_CHECKING:   # only for the annotations: passk.writing.report reads the input, which this module never does
    from passk.results.benchmark import Summary
    from passk.results.calculator import Calculation
    from passk.writing.report import Report

Cells = list[str | None]

# What the pages offer to copy: for a benchmark, a row per k with its interval; for one problem, its k.
INTERVAL_COLUMNS = tuple(column for column in RESULT_COLUMNS if column.name in ("k", "pass_at_k", "ci95"))
CALCULATION_COLUMNS = tuple(column for column in RESULT_COLUMNS if column.name in ("k", "pass_at_k"))
SUITE = "Suite"
ALIGNMENT = {label: "l", interval: "c", difference_interval: "c"}   # by a column's formatter; numbers go right


def suites(report: "Report") -> list[tuple[str | None, "Summary"]]:
    """[(suite name or None, Summary)]: the chosen suite first, then for EvalPlus the other."""
    return [(report.suite, report.summary), *report.other_suites.items()]


def paper_rows(report: "Report", output: str = MARKDOWN,
               columns: Iterable[Column] = RESULT_COLUMNS) -> tuple[list[str], list[Cells]]:
    """(header, rows) of a paper table (output MARKDOWN or LATEX): a row per suite and k, None where undefined.

    The columns are those of passk.writing.columns the output shows, after a Suite column when the report has suites.
    """
    suite = [SUITE] if _labelled(report) else []
    rows = [([name] if suite else []) + cells(row, output, columns)
            for name, summary in suites(report) for row in summary.results]
    return suite + headings(output, columns), rows


def _labelled(report: "Report") -> bool:
    """Whether the rows say which suite they are of: EvalPlus results, which have suites."""
    return bool(report.other_suites) or report.suite is not None


def interval_rows(report: "Report") -> tuple[list[str], list[Cells]]:
    """(header, rows) for the benchmark page: the paper table's suite, k, pass@k and interval columns."""
    return paper_rows(report, MARKDOWN, INTERVAL_COLUMNS)


def calculation_rows(calc: "Calculation") -> tuple[list[str], list[Cells]]:
    """(header, rows) for one problem: the chosen k and its pass@k."""
    return headings(MARKDOWN, CALCULATION_COLUMNS), [cells(calc, MARKDOWN, CALCULATION_COLUMNS)]


MARKDOWN_SPECIAL = str.maketrans({char: "\\" + char for char in "\\|*_`<>"})
LATEX_SPECIAL = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                               "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                               "^": r"\textasciicircum{}", "±": r"$\pm$"})


def markdown_line(cells: Sequence[str | None]) -> str:
    """| a | b |, escaped; — where a cell is undefined."""
    return "| " + " | ".join("—" if cell is None else cell.translate(MARKDOWN_SPECIAL) for cell in cells) + " |"


def latex_line(cells: Sequence[str | None]) -> str:
    r"""a & b \\, escaped; -- where a cell is undefined."""
    return " & ".join("--" if cell is None else cell.translate(LATEX_SPECIAL) for cell in cells) + r" \\"


def markdown_rows(rows: Iterable[Sequence[str | None]]) -> str:
    """Rows to paste into a Markdown table, one a line."""
    return "\n".join(map(markdown_line, rows))


def latex_rows(rows: Iterable[Sequence[str | None]]) -> str:
    """Rows to paste into a LaTeX tabular, one a line."""
    return "\n".join(map(latex_line, rows))


MARKDOWN_RULES = {"l": "---", "c": ":---:", "r": "---:"}   # a Markdown table's rule under a header, by alignment
