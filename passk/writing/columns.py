"""The columns of a benchmark's results, described once; every table and answer renders from them.

A Column is one statistic of a row: a results row (passk.results.benchmark.KResult,
one k), a problem's row, or a ranking's (a run, a pair of runs). It holds the
JSON key, the header, the unit, how passk.writing.display writes it, and which
outputs show it. The page's table, the terminal's, the Markdown and LaTeX
tables, the per-problem CSV and the JSON answers each take the columns shown
in them, in the order given here. Adding a statistic is one Column here and
the computation of its value.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from passk.writing.display import (Notation, difference, difference_interval, interval, label, probability,
                                   significance, spread, tally, whole)

HTML, TERMINAL, MARKDOWN, LATEX, CSV, JSON = "html", "terminal", "markdown", "latex", "csv", "json"
OUTPUTS = (HTML, TERMINAL, MARKDOWN, LATEX, CSV, JSON)
PAPER = frozenset({MARKDOWN, LATEX})
TABLES = frozenset({HTML, TERMINAL}) | PAPER

_PAPER_NOTATION = Notation(ascii=True, unit_in_header=True, interval="[{}, {}]", missing=None, thousands=False)
NOTATIONS = {
    HTML: Notation(),
    TERMINAL: Notation(ascii=True, interval="[{}, {}]"),
    MARKDOWN: _PAPER_NOTATION,
    LATEX: _PAPER_NOTATION,
    CSV: Notation(exact=True, missing="", thousands=False, formula_safe=True),
}

Formatter = Callable[[Any, Notation], str | None]


@dataclass(frozen=True)
class Column:
    """One statistic of a row, and how each output shows it."""
    name: str                   # the JSON key; the row's attribute of that name unless `source` says otherwise
    header: str                 # the tables' heading; "k" stands for the row's k where a column is per k
    unit: str                   # "%" for a probability shown in percent, "" for counts and text
    format: Formatter           # from passk.writing.display: probability, interval, whole, label
    outputs: frozenset[str]     # where it is shown: some of OUTPUTS
    source: str = ""            # the row's attribute path when it is not `name`: "pass_hat.se"

    def shown_in(self, output: str) -> bool:
        """Whether the output (one of OUTPUTS) shows this column."""
        return output in self.outputs

    def value(self, row: object) -> Any:
        """The row's value of this column (None where a step of the source path is None)."""
        for attribute in (self.source or self.name).split("."):
            if row is None:
                return None
            row = getattr(row, attribute)
        return row

    def heading(self, output: str) -> str:
        """The header in the output: with its unit in parentheses where the cells leave the unit out."""
        if self.unit and NOTATIONS[output].unit_in_header:
            return f"{self.header} ({self.unit})"
        return self.header

    def heading_at(self, k: int) -> str:
        """The header of a per-k column (one whose header ends in k) at one k: pass@k at 10 is pass@10."""
        return self.header.removesuffix("k") + str(k)

    def text(self, row: object, output: str) -> str | None:
        """The row's cell in the output, written by its notation."""
        return self.format(self.value(row), NOTATIONS[output])


def shown_in(output: str, columns: Iterable[Column]) -> tuple[Column, ...]:
    """The columns the output shows, in their order."""
    return tuple(column for column in columns if column.shown_in(output))


def headings(output: str, columns: Iterable[Column]) -> list[str]:
    """The header cells of the output's table."""
    return [column.heading(output) for column in shown_in(output, columns)]


def cells(row: object, output: str, columns: Iterable[Column]) -> list[str | None]:
    """A row's cells in the output's table."""
    return [column.text(row, output) for column in shown_in(output, columns)]


def json_value(value: Any) -> Any:
    """A value as JSON holds it: an interval as a list."""
    return list(value) if isinstance(value, tuple) else value


def json_row(row: object, columns: Iterable[Column]) -> dict[str, Any]:
    """A row as a JSON object: the JSON columns' keys in their order."""
    return {column.name: json_value(column.value(row)) for column in shown_in(JSON, columns)}


_EVERY_TABLE = TABLES | {JSON}
_NOT_HTML = _EVERY_TABLE - {HTML}   # the page shows pass^k as a table of its own, with all of its columns

# A benchmark's results at one k (passk.results.benchmark.KResult); the JSON keys are the API's, in its order.
# The notes (reason, coverage_note) are shown under a row in the tables, and on standard error beside paper tables.
RESULT_COLUMNS = (
    Column("k", "k", "", whole, _EVERY_TABLE),
    Column("pass_at_k", "pass@k", "%", probability, _EVERY_TABLE),
    Column("se", "± SE", "%", probability, _EVERY_TABLE),
    Column("ci95", "95% interval", "%", interval, _EVERY_TABLE),
    Column("se_fixed", "SE fixed", "%", probability, _EVERY_TABLE),
    Column("ci95_fixed", "95% interval fixed", "%", interval, frozenset({JSON})),
    Column("coverage_note", "coverage", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
    Column("pass_hat_k", "pass^k", "%", probability, _NOT_HTML, "pass_hat.pass_at_k"),
    Column("pass_hat_k_se", "pass^k ± SE", "%", probability, frozenset({JSON}), "pass_hat.se"),
    Column("pass_hat_k_ci95", "pass^k 95% interval", "%", interval, frozenset({JSON}), "pass_hat.ci95"),
    Column("pass_hat_k_se_fixed", "pass^k SE fixed", "%", probability, frozenset({JSON}), "pass_hat.se_fixed"),
    Column("pass_hat_k_ci95_fixed", "pass^k 95% interval fixed", "%", interval, frozenset({JSON}),
           "pass_hat.ci95_fixed"),
    Column("pass_hat_k_coverage_note", "pass^k coverage", "", label, frozenset({JSON}), "pass_hat.coverage_note"),
)

# A problem's row (passk.results.benchmark.Summary.per_problem_rows): the JSON keys in order; CSV has a column per k.
_PER_PROBLEM = frozenset({CSV, JSON})
PROBLEM_COLUMNS = (
    Column("task_id", "task_id", "", label, _PER_PROBLEM),
    Column("n", "n", "", whole, _PER_PROBLEM),
    Column("c", "c", "", whole, _PER_PROBLEM),
    Column("status", "status", "", label, _PER_PROBLEM),
)
# Per k, each problem's value: name is the JSON key of the {k: value} object, source the Summary's {k: array}.
PER_K_COLUMNS = (
    Column("pass_at_k", "pass@k", "", probability, _PER_PROBLEM, "per_problem_pass_at_k"),
    Column("pass_hat_k", "pass^k", "", probability, _PER_PROBLEM, "per_problem_pass_hat_k"),
)

# Two runs paired at one k (passk.results.benchmark.KComparison), run A minus run B; the JSON keys in their order.
# (The compare page writes its own table: templates/compare.html.)
COMPARISON_COLUMNS = (
    Column("k", "k", "", whole, frozenset({JSON})),
    Column("a", "A", "%", probability, frozenset({JSON})),
    Column("b", "B", "%", probability, frozenset({JSON})),
    Column("difference", "A − B", "pts", difference, frozenset({JSON})),
    Column("se", "± SE", "pts", spread, frozenset({JSON})),
    Column("ci95", "95% interval", "pts", difference_interval, frozenset({JSON})),
    Column("p_value", "p-value", "", significance, frozenset({JSON})),
    Column("test", "test", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
)

# Several runs ranked at one k (passk.results.ranking): a run's row (RunRank), then a pair's (PairResult); JSON keys in order.
_RANKING = frozenset({TERMINAL, JSON})
RANK_COLUMNS = (
    Column("place", "rank", "", whole, frozenset({TERMINAL})),
    Column("name", "run", "", label, _RANKING),
    Column("pass_at_k", "pass@k", "%", probability, _RANKING),
    Column("se", "± SE", "%", probability, _RANKING),
    Column("ci95", "95% interval", "%", interval, _RANKING),
    Column("group", "group", "", label, _RANKING),
    Column("reason", "note", "", label, frozenset({JSON})),
)
PAIR_COLUMNS = (
    Column("a", "run", "", label, _RANKING),        # the tables say run and other, as group letters are a, b, ...
    Column("b", "other", "", label, _RANKING),
    Column("paired", "paired", "", whole, _RANKING),
    Column("difference", "run - other", "pts", difference, _RANKING),
    Column("se", "± SE", "pts", spread, _RANKING),
    Column("ci95", "95% interval", "pts", difference_interval, _RANKING),
    Column("p_value", "p", "", significance, _RANKING),
    Column("p_holm", "p (Holm)", "", significance, _RANKING),
    Column("test", "test", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
    Column("only_in_a", "only in run", "", tally, _RANKING),
    Column("only_in_b", "only in other", "", tally, _RANKING),
)

# maj@k at one k (passk.results.metrics.MajorityRow), from the samples' extracted answers; the JSON keys in their order.
MAJORITY_COLUMNS = (
    Column("k", "k", "", whole, _EVERY_TABLE),
    Column("maj_at_k", "maj@k", "%", probability, _EVERY_TABLE, "estimate.value"),
    Column("se", "± SE", "%", probability, _EVERY_TABLE, "estimate.se"),
    Column("ci95", "95% interval", "%", interval, _EVERY_TABLE, "estimate.ci95"),
    Column("first_k", "first k only", "%", probability, _EVERY_TABLE),
    Column("coverage_note", "coverage", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
)

# G-Pass@k_tau and mG-Pass@k at one k (passk.results.metrics.GPassRow); the JSON keys in their order.
G_PASS_COLUMNS = (
    Column("k", "k", "", whole, _EVERY_TABLE),
    Column("g_pass_at_k", "G-Pass@k", "%", probability, _EVERY_TABLE, "g_pass.value"),
    Column("se", "± SE", "%", probability, _EVERY_TABLE, "g_pass.se"),
    Column("ci95", "95% interval", "%", interval, _EVERY_TABLE, "g_pass.ci95"),
    Column("mg_pass_at_k", "mG-Pass@k", "%", probability, _EVERY_TABLE, "mg_pass.value"),
    Column("mg_pass_at_k_se", "mG ± SE", "%", probability, _EVERY_TABLE, "mg_pass.se"),
    Column("mg_pass_at_k_ci95", "mG 95% interval", "%", interval, _EVERY_TABLE, "mg_pass.ci95"),
    Column("coverage_note", "coverage", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
)

# Two runs' curves over k at one k (passk.results.curves.CurvePoint): what the terminal's table of --curve shows, and the
# tables of its other outputs (passk.writing.output); the JSON is CurvePoint.to_json, which has the pointwise intervals too.
CURVE_COLUMNS = (
    Column("k", "k", "", whole, frozenset({TERMINAL})),
    Column("a", "A", "%", probability, frozenset({TERMINAL})),
    Column("b", "B", "%", probability, frozenset({TERMINAL})),
    Column("difference", "A - B", "pts", difference, frozenset({TERMINAL})),
    Column("band", "simultaneous 95% band", "pts", difference_interval, frozenset({TERMINAL})),
    Column("standing", "A is", "", label, frozenset({TERMINAL})),
    Column("may_first_lose", "may first lose", "", label, frozenset({TERMINAL}), "first_loss_text"),
)

# max@k at one k (passk.results.metrics.GradedRow), from each sample's graded score; the JSON keys in their order.
GRADED_COLUMNS = (
    Column("k", "k", "", whole, _EVERY_TABLE),
    Column("max_at_k", "max@k", "%", probability, _EVERY_TABLE, "estimate.value"),
    Column("se", "± SE", "%", probability, _EVERY_TABLE, "estimate.se"),
    Column("ci95", "95% interval", "%", interval, _EVERY_TABLE, "estimate.ci95"),
    Column("first_k", "first k only", "%", probability, _EVERY_TABLE),
    Column("coverage_note", "coverage", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
)

# avg@k at one k (passk.results.metrics.AverageRow), the mean of the first k samples' scores, and the spread of the seeds'
# means over the first k seeds (where every problem has the same n); the JSON keys in their order.
AVERAGE_COLUMNS = (
    Column("k", "k", "", whole, _EVERY_TABLE),
    Column("avg_at_k", "avg@k", "%", probability, _EVERY_TABLE, "estimate.value"),
    Column("se", "± SE", "%", probability, _EVERY_TABLE, "estimate.se"),
    Column("ci95", "95% interval", "%", interval, _EVERY_TABLE, "estimate.ci95"),
    Column("seeds_sd", "SD across seeds", "%", probability, _EVERY_TABLE),
    Column("seeds_se", "seeds' SE", "%", probability, _EVERY_TABLE),
    Column("within_sd", "mean SD within problems", "%", probability, frozenset({JSON})),
    Column("coverage_note", "coverage", "", label, frozenset({JSON})),
    Column("reason", "note", "", label, frozenset({JSON})),
)

# Bayes@N of a benchmark (passk.maths.bayes.Bayes, one row, not per k): the posterior mean of its pass rate under a uniform
# prior, the posterior SD and the 95% credible interval (Hariri et al. 2025); the JSON keys in their order.
BAYES_COLUMNS = (
    Column("bayes_at_n", "Bayes@N", "%", probability, _EVERY_TABLE, "mean"),
    Column("posterior_sd", "posterior SD", "%", probability, _EVERY_TABLE, "sd"),
    Column("ci95", "95% credible interval", "%", interval, _EVERY_TABLE),
)
