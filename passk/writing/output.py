"""The command line's answers as scripts and papers take them: CSV, TSV, Markdown and LaTeX (`passk -o FORMAT`).

Each answer is first a list of Tables: the results of one run (pass@k, and maj@k and G-Pass@k when there are
any), a ranking of several runs (the runs at each k, then the pairs), or two runs' curves over k. A table's
columns are those of passk.writing.columns that the terminal's table shows, so every format holds the terminal's
rows and numbers, written by a notation of its own:

- csv and tsv, for programs: a header row of the JSON's keys (an interval is two columns, `ci95_low` and
  `ci95_high`), the numbers as the JSON holds them (fractions, every digit), an empty cell where a value is
  undefined; several tables are parted by an empty line;
- markdown and latex, for papers: the paper tables' headers and cells (percent with two decimals, the unit in
  the header); a LaTeX table is a plain tabular that needs no package, headed by a comment line.

Importing this module computes nothing and reads no input: the command line's argument parser takes FORMATS
from it.
"""

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from passk.writing.columns import (CSV, G_PASS_COLUMNS, LATEX, MAJORITY_COLUMNS, MARKDOWN, NOTATIONS, PAIR_COLUMNS,
                                   RANK_COLUMNS, RESULT_COLUMNS, TERMINAL, CURVE_COLUMNS, Column, shown_in)
from passk.writing.columns import AVERAGE_COLUMNS, GRADED_COLUMNS
from passk.writing.columns import BAYES_COLUMNS
from passk.writing.display import difference_interval, interval, label, whole
from passk.writing.paper import ALIGNMENT, MARKDOWN_RULES, MARKDOWN_SPECIAL, latex_line, markdown_line, suites

if TYPE_CHECKING:   # only for the annotations: importing these would import the computing
    from passk.results.curves import CurveComparison
    from passk.results.ranking import Ranking
    from passk.results.benchmark import Summary
    from passk.writing.report import Report

TABLE, JSON = "table", "json"   # the terminal's table (passk.cli) and the API's JSON (the answers' to_json)
WRITTEN = ("csv", "tsv", MARKDOWN, LATEX)   # the formats this module writes
FORMATS = (TABLE, "csv", "tsv", JSON, MARKDOWN, LATEX)   # every output format of the command line, in --help's order
DELIMITERS = {"csv": ",", "tsv": "\t"}
INTERVALS = (interval, difference_interval)   # the formatters of a pair of bounds: two cells in CSV


@dataclass(frozen=True)
class Placed:
    """A row of a table beside what places it: the k it is at (rankings), or the EvalPlus suite it is of."""
    row: object
    k: int | None = None
    suite: str | None = None


K = Column("k", "k", "", whole, frozenset({TERMINAL}))
SUITE = Column("suite", "Suite", "", label, frozenset({TERMINAL}))


@dataclass(frozen=True)
class Table:
    """One table of an answer: a title (a caption for papers; "" for none), its columns and its rows."""
    title: str
    columns: tuple[Column, ...]
    rows: Sequence[object]


def _placed(columns: Sequence[Column], *lead: Column) -> tuple[Column, ...]:
    """The terminal's columns of a row read through Placed, after the lead columns (K, SUITE) read from Placed."""
    return lead + tuple(replace(column, source=f"row.{column.source or column.name}")
                        for column in shown_in(TERMINAL, columns))


def report_tables(report: "Report", bayes: bool = False) -> list[Table]:
    """A run's tables: pass@k per (suite and) k, then maj@k and G-Pass@k where the report has them, and Bayes@N
    (a row per suite) when bayes is asked for.

    The pass@k table of a run that has no other table has no title: it is the paper table `passk --markdown`
    always printed (and `--latex`, with \\hline rules now rather than booktabs)."""
    named = suites(report)
    lead = (SUITE,) if any(suite for suite, _ in named) else ()
    tables = [Table("pass@k", _placed(RESULT_COLUMNS, *lead),
                    [Placed(row, suite=suite) for suite, summary in named for row in summary.results])]
    majority = [Placed(row, suite=suite) for suite, summary in named if summary.majority
                for row in summary.majority.results]
    if majority:
        tables.append(Table("maj@k, the majority vote over the extracted answers (every k-subset alike); "
                            "first k only: the vote over the first k samples", _placed(MAJORITY_COLUMNS, *lead),
                            majority))
    g_pass = [(summary.g_pass.tau, Placed(row, suite=suite)) for suite, summary in named if summary.g_pass
              for row in summary.g_pass.results]
    if g_pass:
        tables.append(Table(f"G-Pass@k at tau = {g_pass[0][0]:g} and mG-Pass@k", _placed(G_PASS_COLUMNS, *lead),
                            [row for _, row in g_pass]))
    tables += score_tables(named, lead)
    posteriors = [Placed(summary.bayes, suite=suite) for suite, summary in named if summary.bayes]
    if bayes and posteriors:
        tables.append(Table("Bayes@N: the posterior mean of the pass rate under a uniform prior, its SD and 95% "
                            "credible interval (Hariri et al. 2025)", _placed(BAYES_COLUMNS, *lead), posteriors))
    if len(tables) == 1:
        tables[0] = replace(tables[0], title="")
    return tables


def score_tables(named: Sequence[tuple[str | None, "Summary"]], lead: tuple[Column, ...]) -> list[Table]:
    """max@k (where some sample's score is neither 0 nor 1) and avg@k (where the samples carry scores in order)."""
    tables = []
    graded = [Placed(row, suite=suite) for suite, summary in named if summary.graded for row in summary.graded.results]
    if graded:
        tables.append(Table("max@k, the expected best of k graded scores (every k-subset alike); first k only: the "
                            "mean best of the first k samples", _placed(GRADED_COLUMNS, *lead), graded))
    averages = [Placed(row, suite=suite) for suite, summary in named if summary.averages
                for row in summary.averages.results]
    if averages:
        tables.append(Table("avg@k, the mean score of the first k samples, with the sample SD of the first k seeds' "
                            "means and its SE", _placed(AVERAGE_COLUMNS, *lead), averages))
    return tables


def ranking_tables(ranking: "Ranking") -> list[Table]:
    """Several runs' tables: the runs at each k best first with their group letters, then every pair."""
    return [Table("runs at each k, best first (runs sharing a group letter are not told apart at 5%)",
                  _placed(RANK_COLUMNS, K), [Placed(entry, k=row.k) for row in ranking.results
                                             for entry in row.ranking]),
            Table("pairs at each k: run - other on the problems both have, p-values Holm-adjusted over the pairs",
                  _placed(PAIR_COLUMNS, K), [Placed(pair, k=row.k) for row in ranking.results for pair in row.pairs])]


def curve_tables(curve: "CurveComparison", names: tuple[str, str]) -> list[Table]:
    """Two runs' curves over k: A's and B's pass@k and A - B with its simultaneous 95% band (names: A's and B's)."""
    name_a, name_b = names
    return [Table(f"pass@k over k on {curve.problems:,} paired problems: A = {name_a}, B = {name_b}; the band of "
                  f"A - B holds at all {len(curve.points):,} ks at once", shown_in(TERMINAL, CURVE_COLUMNS),
                  curve.points)]


def written(tables: Sequence[Table], output: str) -> str:
    """The tables in one of WRITTEN's formats."""
    if output in DELIMITERS:
        return delimited(tables, DELIMITERS[output])
    return (markdown if output == MARKDOWN else latex)(tables)


def names(column: Column) -> list[str]:
    """A column's header cells in CSV and TSV: its JSON key, or two for an interval's bounds."""
    return [f"{column.name}_low", f"{column.name}_high"] if column.format in INTERVALS else [column.name]


def values(column: Column, row: object) -> list[str]:
    """A row's cells of a column in CSV and TSV: a number as the JSON holds it (repr), "" where there is none."""
    value = column.value(row)
    if column.format in INTERVALS:
        return ["", ""] if value is None else [repr(float(bound)) for bound in value]
    if isinstance(value, float):
        return [repr(float(value))]   # a difference, a p-value: every digit, as a fraction (no percent, no unit)
    return [column.format(value, NOTATIONS[CSV]) or ""]


def delimited(tables: Sequence[Table], delimiter: str) -> str:
    """CSV (delimiter ",") or TSV ("\\t"): each table a header row and its rows, tables parted by an empty line."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    for index, table in enumerate(tables):
        if index:
            writer.writerow([])
        writer.writerow([name for column in table.columns for name in names(column)])
        writer.writerows([cell for column in table.columns for cell in values(column, row)] for row in table.rows)
    return out.getvalue().removesuffix("\n")


def alignments(columns: Sequence[Column]) -> list[str]:
    """Each column's alignment in a paper table: l for text, c for an interval, r for a number."""
    return [ALIGNMENT.get(column.format, "r") for column in columns]


def _paper(table: Table, output: str) -> tuple[list[str], list[list[str | None]]]:
    """(header, rows) of a paper table (output MARKDOWN or LATEX), None where a value is undefined."""
    return ([column.heading(output) for column in table.columns],
            [[column.text(row, output) for column in table.columns] for row in table.rows])


def markdown(tables: Sequence[Table]) -> str:
    """GitHub-flavoured Markdown tables, each after its title (when it has one), parted by an empty line."""
    blocks = []
    for table in tables:
        header, rows = _paper(table, MARKDOWN)
        rule = "| " + " | ".join(MARKDOWN_RULES[side] for side in alignments(table.columns)) + " |"
        title = [table.title.translate(MARKDOWN_SPECIAL), ""] if table.title else []
        blocks.append("\n".join([*title, markdown_line(header), rule, *map(markdown_line, rows)]))
    return "\n\n".join(blocks)


def latex(tables: Sequence[Table]) -> str:
    """Plain LaTeX tabulars (\\hline rules: no package needed), each after a comment line with its title (the command
    puts its version above them)."""
    blocks = []
    for table in tables:
        header, rows = _paper(table, LATEX)
        title = [f"% {table.title}"] if table.title else []
        blocks.append("\n".join([*title, rf"\begin{{tabular}}{{{''.join(alignments(table.columns))}}}", r"\hline",
                                 latex_line(header), r"\hline", *map(latex_line, rows), r"\hline",
                                 r"\end{tabular}"]))
    return "\n\n".join(blocks)
