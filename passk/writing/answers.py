"""The JSON API's answers: each result of passk.results as the objects of POST /api/v1/benchmark and /compare.

to_json(result) is the one place a result becomes JSON, for the API, the command's --json and the Python API; a
row's keys are its columns' (passk.writing.columns), in their order, so the API and every table say the same.
"""

from dataclasses import fields
from functools import singledispatch
from typing import Any

from passk.maths.intervals import CONFIDENCE
from passk.results.benchmark import Comparison, KComparison, KResult, Summary, floats_or_none, row_dicts, status
from passk.results.calculator import Calculation
from passk.results.curves import DRAWS, METHOD, SEED, Crossing, CurveComparison, CurvePoint, KRange
from passk.results.metrics import AverageRow, Averages, GPass, GPassRow, Graded, GradedRow, Majority, MajorityRow
from passk.results.planner import KPlan
from passk.results.ranking import KRanking, PairResult, Ranking, RunRank
from passk.writing.columns import (AVERAGE_COLUMNS, BAYES_COLUMNS, COMPARISON_COLUMNS, G_PASS_COLUMNS, GRADED_COLUMNS,
                                   MAJORITY_COLUMNS, PAIR_COLUMNS, PER_K_COLUMNS, PROBLEM_COLUMNS, RANK_COLUMNS,
                                   RESULT_COLUMNS, Column, json_row, shown_in)
from passk.writing.sentences import crossover_sentences

Row = dict[str, Any]

# Each kind of row and its columns (passk.writing.columns, which the command reads without the results' scipy): its
# JSON keys (to_json) and what each table shows (columns_shown)
COLUMNS_OF: dict[type, tuple[Column, ...]] = {
    KResult: RESULT_COLUMNS, KComparison: COMPARISON_COLUMNS, RunRank: RANK_COLUMNS, PairResult: PAIR_COLUMNS,
    MajorityRow: MAJORITY_COLUMNS, GPassRow: G_PASS_COLUMNS, GradedRow: GRADED_COLUMNS, AverageRow: AVERAGE_COLUMNS}


def columns_shown(row: object, output: str) -> tuple[Column, ...]:
    """The columns an output (passk.writing.columns: "html", "terminal", ...) shows of a kind of row."""
    return shown_in(output, COLUMNS_OF[type(row)])


@singledispatch
def to_json(result: object, *options: Any) -> Any:
    """result as the JSON API writes it: a row of its columns' keys, or the object of its part of the answer. A
    Summary takes its format's name and per_problem (False: an empty list, to stream it), a Ranking its runs'
    formats."""
    return json_row(result, COLUMNS_OF[type(result)])


@to_json.register
def _summary(summary: Summary, format_name: str, per_problem: bool = True) -> Row:
    """The POST /api/v1/benchmark response; per_problem=False leaves its list empty (to stream it)."""
    return {"problems": len(summary.problems), "format": format_name,
            "results": [to_json(row) for row in summary.results],
            "per_problem": per_problem_rows(summary) if per_problem else [], "warnings": list(summary.warnings),
            "samples": summary.samples, "min_n": summary.min_n, "max_n": summary.max_n,
            "status": {"broken": summary.broken, "flaky": summary.flaky, "solid": summary.solid},
            "retries": summary.retries,
            **({"majority": to_json(summary.majority)} if summary.majority else {}),
            **({"g_pass": to_json(summary.g_pass)} if summary.g_pass else {}),
            **({"graded": to_json(summary.graded)} if summary.graded else {}),
            **({"avg_at_k": to_json(summary.averages)} if summary.averages else {}),
            **({"bayes": json_row(summary.bayes, BAYES_COLUMNS)} if summary.bayes else {})}


def per_problem_rows(summary: Summary, stop: int | None = None, start: int = 0) -> list[Row]:
    """Rows start to stop of the answer's per_problem list (to the end when stop is None), without building the
    rest: each problem's PROBLEM_COLUMNS, then a {k: value} object per PER_K_COLUMNS column (None where undefined)."""
    shown = summary.problems[start:stop]
    names = [column.name for column in (*PROBLEM_COLUMNS, *PER_K_COLUMNS)]
    by_k = [row_dicts({str(k): floats_or_none(values[start:start + len(shown)])
                       for k, values in column.value(summary).items()}, len(shown))
            for column in PER_K_COLUMNS]
    return [dict(zip(names, (problem.task_id, problem.n, problem.c, status(problem.n, problem.c), *values)))
            for problem, *values in zip(shown, *by_k)]


@to_json.register
def _calculation(calculation: Calculation) -> Row:
    """GET /api/v1/pass-at-k's answer."""
    return {"n": calculation.n, "c": calculation.c, "k": calculation.k, "pass_at_k": calculation.pass_at_k,
            "pass_at_1": calculation.pass_at_1, "cross_check": calculation.cross_check, "exact": calculation.exact,
            "pass_hat_k": calculation.pass_hat_k, "biased_pass_at_k": calculation.biased_pass_at_k,
            "table": [{"k": row.k, "pass_at_k": row.pass_at_k, "reason": row.reason} for row in calculation.table]}


@to_json.register
def _plan(plan: KPlan) -> Row:
    """One k of the benchmark answer's "planner" list: every field of the plan."""
    return {field.name: getattr(plan, field.name) for field in fields(plan)}


@to_json.register
def _comparison(comparison: Comparison) -> Row:
    """The POST /api/v1/compare response."""
    return {"paired": comparison.paired, "only_in_a": list(comparison.only_in_a),
            "only_in_b": list(comparison.only_in_b), "results": [to_json(row) for row in comparison.results],
            "warnings": list(comparison.warnings)}


@to_json.register
def _majority(majority: Majority) -> Row:
    """The "majority" object of the benchmark answer."""
    return {"tie": majority.tie, "results": [to_json(row) for row in majority.results],
            "maj_at_n": majority.at_n.value, "maj_at_n_se": majority.at_n.se,
            "maj_at_n_ci95": None if majority.at_n.ci95 is None else list(majority.at_n.ci95),
            "voting_buys": majority.voting_buys, "judged_both_ways": majority.judged_both_ways}


@to_json.register
def _g_pass(g_pass: GPass) -> Row:
    """The "g_pass" object of the benchmark answer."""
    return {"tau": g_pass.tau, "results": [to_json(row) for row in g_pass.results]}


@to_json.register
def _graded(graded: Graded) -> Row:
    """The "graded" object of the benchmark answer."""
    return {"mean_score": graded.mean.value, "mean_score_se": graded.mean.se,
            "mean_score_ci95": None if graded.mean.ci95 is None else list(graded.mean.ci95),
            "mean_score_coverage_note": graded.mean.coverage_note,
            "results": [to_json(row) for row in graded.results]}


@to_json.register
def _averages(averages: Averages) -> Row:
    """The "avg_at_k" object of the benchmark answer."""
    return {"seeds": averages.seeds, "results": [to_json(row) for row in averages.results]}


@to_json.register
def _k_ranking(ranking: KRanking) -> Row:
    return {"k": ranking.k, "ranking": [to_json(row) for row in ranking.ranking],
            "pairs": [to_json(pair) for pair in ranking.pairs]}


@to_json.register
def _ranking(ranking: Ranking, formats: list[str | None] | None = None) -> Row:
    """The POST /api/v1/compare answer for runs sent as "run" fields."""
    formats = formats or [None] * len(ranking.names)
    runs = [{"name": name, "problems": len(ranking.summaries[name].problems), "format": fmt}
            for name, fmt in zip(ranking.names, formats)]
    return {"runs": runs, "results": [to_json(row) for row in ranking.results], "warnings": list(ranking.warnings)}


@to_json.register
def _curve_point(point: CurvePoint) -> Row:
    return {"k": point.k, "a": point.a, "a_ci95": _listed(point.a_ci95), "b": point.b,
            "b_ci95": _listed(point.b_ci95), "difference": point.difference, "band": _listed(point.band),
            "standing": point.standing, "may_first_lose": point.may_first_lose}


@to_json.register
def _crossing(crossing: Crossing) -> Row:
    return {"k": crossing.k, "ahead_before": crossing.before, "between": [crossing.after, crossing.at],
            "interval": [crossing.low, crossing.high]}


@to_json.register
def _curve(curve: CurveComparison) -> Row:
    """The "curve" object of POST /api/v1/compare with curve=1, and of passk --runs A B --curve --json."""
    first_loss = curve.first_loss
    return {"method": METHOD, "confidence": CONFIDENCE, "per_k_level": curve.level, "critical_t": curve.critical_t,
            "draws": DRAWS, "seed": SEED, "problems": curve.problems, "n": curve.n,
            "points": [to_json(point) for point in curve.points], "leader_at_1": curve.leader,
            "lead_lost_at": curve.lead_lost_at,
            "crossing": to_json(curve.crossing) if curve.crossing else None,
            "ahead": _listed_ranges(curve.region("A")), "behind": _listed_ranges(curve.region("B")),
            "undecided": _listed_ranges(curve.region(None)),
            "first_loss": None if first_loss is None else {"ks": _listed_ranges(first_loss),
                                                           "never": curve.may_never_lose},
            "sentences": crossover_sentences(curve)}


def _listed_ranges(ranges: list[KRange]) -> list[list[int]]:
    return [list(run) for run in ranges]


def _listed(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)
