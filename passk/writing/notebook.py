"""How passk.api's results show themselves: HTML for Jupyter, Markdown, and pandas DataFrames.

The HTML is self-contained (no script, no stylesheet or font fetched: each SVG element carries its own colours)
and built with html.escape, as jinja2 is not a dependency of the library. The tables take their columns and cells
from passk.writing.columns, as every other output does; the charts take their geometry from passk.writing.charts, as the page's.
"""

import html
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from passk.results.benchmark import Comparison, KResult, Summary
from passk.writing.charts import Histogram, IntervalChart, KCurveChart, DifferenceChart, Label, difference_chart, \
    histogram_chart, interval_chart, k_curve_chart
from passk.writing.columns import AVERAGE_COLUMNS, GRADED_COLUMNS
from passk.writing.answers import per_problem_rows, to_json
from passk.writing.sentences import sizes, statuses
from passk.writing.columns import (COMPARISON_COLUMNS, G_PASS_COLUMNS, HTML, JSON, MAJORITY_COLUMNS, PAIR_COLUMNS,
                                   PER_K_COLUMNS, PROBLEM_COLUMNS, RANK_COLUMNS, RESULT_COLUMNS, Column, shown_in)
from passk.grammar import plural
from passk.writing.output import INTERVALS, Table, markdown, ranking_tables, report_tables
from passk.writing.paper import markdown_line
from passk.results.planner import KPlan
from passk.results.ranking import Ranking
from passk.writing.report import Report

PANDAS = ('to_frame needs pandas, which is not installed: pip install pandas '
          '(or pip install "passk-calculator[pandas]").')
BLUE, ORANGE, GREEN, INK, MUTED, LINE = "#1f6feb", "#d9480f", "#2f9e44", "currentColor", "#8c959f", "#d0d7de"
FONT_SIZE = 16   # viewBox units: about 16 px where the chart is drawn 640 px wide
# Each chart class of static/style.css as SVG attributes, so that the chart needs no stylesheet.
PAINT = {
    "grid": f'stroke="{LINE}" stroke-width="1"',
    "zero-line": f'stroke="{MUTED}" stroke-width="1"',
    "tick-mark": f'stroke="{MUTED}" stroke-width="1"',
    "curve": f'fill="none" stroke="{BLUE}" stroke-width="3.5"',
    "curve-biased": f'fill="none" stroke="{ORANGE}" stroke-width="2" stroke-dasharray="7 5"',
    "band-pass-at-k": f'fill="{BLUE}" fill-opacity="0.18" stroke="none"',
    "band-pass-hat-k": f'fill="{ORANGE}" fill-opacity="0.18" stroke="none"',
    "bar": f'fill="{BLUE}"',
    "bar-negative": f'fill="{ORANGE}"',
    "bar-broken": f'fill="{ORANGE}"',
    "bar-solid": f'fill="{GREEN}"',
    "whisker": f'stroke="{BLUE}" stroke-width="2"',
    "run-dot": f'fill="{INK}"',
}
DOT = {"curve": BLUE, "curve-biased": ORANGE, "majority": GREEN}   # a marker's fill by its line; else open
TABLE_STYLE = "border-collapse:collapse;margin:0.5em 0;font-variant-numeric:tabular-nums"
CELL_STYLE = "padding:2px 10px;border-bottom:1px solid #d0d7de;text-align:right;white-space:nowrap"
TEXT_STYLE = "padding:2px 10px;border-bottom:1px solid #d0d7de;text-align:left"


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(PANDAS) from None
    return pandas


# --- DataFrames -------------------------------------------------------------------------------------------------

def flat(row: object, columns: Iterable[Column]) -> dict[str, Any]:
    """A row's JSON columns as a DataFrame's row: an interval as two values, name_low and name_high."""
    cells: dict[str, Any] = {}
    for column in shown_in(JSON, columns):
        value = column.value(row)
        if column.format in INTERVALS:
            cells[f"{column.name}_low"], cells[f"{column.name}_high"] = value if value is not None else (None, None)
        else:
            cells[column.name] = value
    return cells


def at_k(name: str, k: int | str) -> str:
    """A per-k column's name at one k: pass_at_k at 10 is pass_at_10."""
    return f"{name.removesuffix('k')}{k}"


def problems_frame(problems: Sequence[Any]) -> Any:
    """A row per problem: its task_id, n and c."""
    return _pandas().DataFrame({"task_id": [problem.task_id for problem in problems],
                                "n": [problem.n for problem in problems], "c": [problem.c for problem in problems]})


def summary_frame(summary: Summary, per_problem: bool) -> Any:
    """A row per k (RESULT_COLUMNS), or per problem (PROBLEM_COLUMNS, then each per-k column at each k)."""
    pandas = _pandas()
    if not per_problem:
        return pandas.DataFrame([flat(row, RESULT_COLUMNS) for row in summary.results])
    fixed = [column.name for column in PROBLEM_COLUMNS]
    return pandas.DataFrame(
        [{**{name: row[name] for name in fixed},
          **{at_k(column.name, k): row[column.name][str(k)] for column in PER_K_COLUMNS for k in summary.ks}}
         for row in per_problem_rows(summary)])


def comparison_frame(comparison: Comparison, per_problem: bool) -> Any:
    """A row per k (COMPARISON_COLUMNS), or per paired problem: each run's pass@k and the difference at each k."""
    pandas = _pandas()
    if not per_problem:
        return pandas.DataFrame([flat(row, COMPARISON_COLUMNS) for row in comparison.results])
    rows = []
    for row in comparison.per_problem:
        cells: dict[str, Any] = {"task_id": row["task_id"]}
        for k in row["a"]:
            cells |= {f"pass_at_{k}_a": row["a"][k], f"pass_at_{k}_b": row["b"][k],
                      f"difference_{k}": row["difference"][k]}
        rows.append(cells)
    return pandas.DataFrame(rows)


def ranking_frame(ranking: Ranking, per_problem: bool) -> Any:
    """A row per k and run, best first (RANK_COLUMNS, with its place); or per run and problem."""
    pandas = _pandas()
    if not per_problem:
        return pandas.DataFrame([{"k": result.k, "place": row.place, **flat(row, RANK_COLUMNS)}
                                 for result in ranking.results for row in result.ranking])
    frames = [summary_frame(ranking.summaries[name], True) for name in ranking.names]
    for name, frame in zip(ranking.names, frames):
        frame.insert(0, "run", name)
    return pandas.concat(frames, ignore_index=True)


def plan_frame(rows: Sequence[KPlan]) -> Any:
    """A row per k: the planner's numbers, and its sentences joined."""
    pandas = _pandas()
    return pandas.DataFrame([{**{name: value for name, value in to_json(row).items() if name != "sentences"},
                              "sentences": " ".join(row.sentences)} for row in rows])


# --- HTML ------------------------------------------------------------------------------------------------------

def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def table_html(caption: str, header: Sequence[str], rows: Iterable[Sequence[str | None]],
               text_columns: Sequence[bool] = ()) -> str:
    """A <table> with a caption, a header row and a row per entry; None cells show a dash."""
    def cell(tag: str, value: str | None, index: int) -> str:
        style = TEXT_STYLE if index < len(text_columns) and text_columns[index] else CELL_STYLE
        return f'<{tag} style="{style}">{escape("—" if value is None else value)}</{tag}>'
    head = "".join(cell("th", name, index) for index, name in enumerate(header))
    body = "".join("<tr>" + "".join(cell("td", value, index) for index, value in enumerate(row)) + "</tr>"
                   for row in rows)
    caption_html = f'<caption style="text-align:left;font-weight:bold">{escape(caption)}</caption>' if caption else ""
    return (f'<table style="{TABLE_STYLE}">{caption_html}<thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def columns_table(caption: str, columns: Sequence[Column], rows: Iterable[object], symbol: str = "") -> str:
    """A table of rows in the given columns, each cell written as the page writes it (passk.writing.columns, HTML); with a
    symbol ("pass@", "pass^"), the first column is k, written as pass@1, and the headers say the symbol."""
    texts = [column.format.__name__ == "label" for column in columns]
    header = [column.heading(HTML).replace("pass@", symbol) if symbol else column.heading(HTML) for column in columns]
    cells = [[column.text(row, HTML) for column in columns] for row in rows]
    if symbol:
        cells = [[f"{symbol}{row[0]}", *row[1:]] for row in cells]
    return table_html(caption, header, cells, texts)


def notes_html(notes: Iterable[str | None]) -> str:
    shown = [note for note in notes if note]
    return "<ul>" + "".join(f"<li>{escape(note)}</li>" for note in shown) + "</ul>" if shown else ""


def page(*parts: str) -> str:
    return '<div class="passk-result">' + "".join(parts) + "</div>"


RUN_ROWS = 10   # problems a run shows before "and N more"


def run_html(run: Any) -> str:
    """How the run was read, its warnings, and its first problems."""
    shown = run.problems[:RUN_ROWS]
    more = len(run.problems) - len(shown)
    return page(f"<p>{escape(run_line(run))}</p>",
                table_html("", ["task_id", "n", "c"], [[p.task_id, f"{p.n:,}", f"{p.c:,}"] for p in shown],
                           [True, False, False]),
                f"<p>and {plural(more, 'more problem')}</p>" if more else "", notes_html(run.warnings))


def run_line(run: Any) -> str:
    read_as = f"{run.layout} ({run.source})" if run.source else run.layout
    return f"{run.name or 'A run'}: {plural(len(run.problems), 'problem')}, read as {read_as}"


def run_markdown(run: Any) -> str:
    shown = run.problems[:RUN_ROWS]
    more = len(run.problems) - len(shown)
    rows = [markdown_line(["task_id", "n", "c"]), "| --- | ---: | ---: |",
            *(markdown_line([p.task_id, f"{p.n:,}", f"{p.c:,}"]) for p in shown)]
    return "\n\n".join(filter(None, [run_line(run).translate(MARKDOWN_ESCAPES), "\n".join(rows),
                                      f"and {plural(more, 'more problem')}" if more else "",
                                      bullets(run.warnings)]))


def summary_html(report: Report, run: Any) -> str:
    """The benchmark page's answer: counts, the results table (pass@k, then pass^k), maj@k and G-Pass@k where
    computed, the curve over k and the pass-rate histogram, the notes and the warnings."""
    summary = report.summary
    shown = [column for column in RESULT_COLUMNS if column.shown_in(HTML)]
    tables = [columns_table("pass@k (at least one of k samples passes)", shown, summary.results, "pass@")]
    hats = [row.pass_hat for row in summary.results if row.pass_hat is not None]
    if hats:
        tables.append(columns_table("pass^k (all k samples pass)", shown, hats, "pass^"))
    if summary.majority:
        tables.append(columns_table("maj@k", shown_in(HTML, MAJORITY_COLUMNS), summary.majority.results))
    if summary.g_pass:
        tables.append(columns_table(f"G-Pass@k at tau = {summary.g_pass.tau:g} and mG-Pass@k",
                                    shown_in(HTML, G_PASS_COLUMNS), summary.g_pass.results))
    if summary.graded:
        tables.append(columns_table("max@k (the expected best of k graded scores)", shown_in(HTML, GRADED_COLUMNS),
                                    summary.graded.results))
    if summary.averages:
        tables.append(columns_table("avg@k (the mean of the first k scores) and the SD across seeds",
                                    shown_in(HTML, AVERAGE_COLUMNS), summary.averages.results))
    curve = k_curve_chart(summary)
    rates = np.array([problem.c / problem.n for problem in summary.problems])
    return page(f"<p>{escape(counts_line(report, run))}</p>", *tables,
                notes_html(result_notes(summary.results)),
                "" if curve is None else k_curve_svg(curve), histogram_svg(histogram_chart(rates)),
                notes_html(summary.warnings))


def counts_line(report: Report, run: Any) -> str:
    """"40 problems, 400 samples (n = 10), read as ...; 6 broken (c = 0), 29 flaky, 5 solid (c = n)"."""
    summary = report.summary
    layout = run.layout if run is not None else report.format
    read_as = f"{layout} ({report.source})" if report.source else layout
    return (f"{sizes(summary)}, read as {read_as}{' (' + report.suite + ' suite)' if report.suite else ''}; "
            f"{statuses(summary, ', ')}")


def result_notes(results: Sequence[KResult]) -> list[str]:
    """Each k's reason and coverage note, said once however many ks share it."""
    notes: list[str] = []
    for row in results:
        for note in (row.reason, row.coverage_note):
            if note and note not in notes:
                notes.append(note)
    return notes


def comparison_html(comparison: Comparison, names: tuple[str, str]) -> str:
    """The paired difference at each k, the per-problem differences at the first k that has them, the warnings."""
    columns = [column for column in COMPARISON_COLUMNS if column.name != "test"]
    defined = next((row.k for row in comparison.results if row.difference is not None), None)
    chart = ""
    if defined is not None:
        values_a, values_b = comparison.per_problem_pass_at_k[defined]
        chart = difference_svg(difference_chart(comparison.task_ids, (values_a - values_b).tolist(), defined))
    paired = plural(comparison.paired, "paired problem")
    return page(f"<p>{escape(f'A = {names[0]}, B = {names[1]}: {paired}')}"
                f"{escape(only_in(comparison.only_in_a, comparison.only_in_b))}</p>",
                columns_table("A − B on the paired problems", columns, comparison.results), chart,
                notes_html(comparison.warnings))


def only_in(only_a: Sequence[str], only_b: Sequence[str]) -> str:
    parts = [f"{plural(len(ids), 'problem')} only in {run}" for run, ids in (("A", only_a), ("B", only_b)) if ids]
    return f" ({', '.join(parts)}, left out)" if parts else ""


def ranking_html(ranking: Ranking) -> str:
    """Each k's ranking, best first, with its forest plot, then every pair."""
    ranked = [column for column in RANK_COLUMNS if column.name != "reason"]
    parts = []
    for result in ranking.results:
        parts.append(columns_table(f"pass@{result.k:,}, best first (a shared letter: not told apart at 5%)", ranked,
                                   result.ranking))
        if any(row.pass_at_k is not None for row in result.ranking):
            parts.append(interval_svg(interval_chart(result.ranking, result.k)))
        parts.append(columns_table(f"pairs at k = {result.k:,}: run − other, p-values Holm-adjusted",
                                   [column for column in PAIR_COLUMNS if column.name not in ("test", "reason")],
                                   result.pairs))
    return page(*parts, notes_html(ranking.warnings))


def plan_html(rows: Sequence[KPlan], target: float) -> str:
    """The planner's sentences for each k."""
    return page(table_html(plan_title(target), ["k", "plan"],
                           [[f"{row.k:,}", plan_text(row)] for row in rows], [False, True]))


def plan_title(target: float) -> str:
    return f"Planning for a 95% half-width of ± {target:g} point{'' if target == 1 else 's'}"


def plan_text(row: KPlan) -> str:
    return " ".join(row.sentences) or row.reason or ""


# --- SVG -------------------------------------------------------------------------------------------------------

def svg(width: int, height: int, title: str, description: str, body: Iterable[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
            f'style="max-width:{width}px" role="img" font-family="sans-serif"><title>{escape(title)}</title>'
            f"<desc>{escape(description)}</desc>{''.join(body)}</svg>")


def paint(css: str) -> str:
    """A chart class's SVG attributes (the first of its classes that has some)."""
    return next((PAINT[name] for name in css.split() if name in PAINT), f'fill="{INK}"')


def text(label: Label) -> str:
    dy = f' dy="{label.dy}em"' if label.dy else ""
    anchor = f' text-anchor="{label.anchor}"' if label.anchor != "start" else ""
    return (f'<text x="{label.x}" y="{label.y}"{dy}{anchor} fill="{INK}" font-size="{FONT_SIZE}">'
            f"{escape(label.text)}</text>")


def line(css: str, x1: float, x2: float, y1: float, y2: float) -> str:
    return f'<line {paint(css)} x1="{x1}" x2="{x2}" y1="{y1}" y2="{y2}"/>'


def grid(chart: KCurveChart | Histogram) -> list[str]:
    left, top, right, bottom = chart.plot
    return [part for tick in chart.y_ticks for part in (line("grid", left, right, tick.y, tick.y), text(tick))]


def k_curve_svg(chart: KCurveChart) -> str:
    """pass@k and pass^k over k in their 95% bands, the chosen ks marked: the benchmark page's chart."""
    left, top, right, bottom = chart.plot
    body = grid(chart)
    body += [part for tick in chart.x_ticks for part in (line("grid", tick.x, tick.x, top, bottom), text(tick))]
    body.append(text(chart.axis_label))
    body += [f'<path {paint(curve["band_css"])} d="{curve["band"]}"/>' for curve in chart.lines if curve["band"]]
    body += [f'<path {paint(curve["css"])} d="{curve["path"]}"/>' for curve in chart.lines]
    body += [f'<circle cx="{marker["x"]}" cy="{marker["y"]}" r="6" fill="{DOT.get(marker["css"], "white")}" '
             f'stroke="{INK}" stroke-width="1.5"><title>{escape(marker["title"])}</title></circle>'
             for marker in chart.markers]
    legend = "pass@k (blue), pass^k (orange, dashed), each in its 95% band"
    return figure(svg(chart.width, chart.height, "pass@k and pass^k against k", chart.description, body), legend)


def histogram_svg(chart: Histogram) -> str:
    """How many problems fall in each pass-rate bin: broken, flaky and solid."""
    left, top, right, bottom = chart.plot
    body = grid(chart)
    body += [part for tick in chart.x_ticks for part in (line("tick-mark", tick.x, tick.x, bottom, bottom + 4),
                                                         text(tick))]
    body.append(text(chart.axis_label))
    for bar in chart.bars:
        body.append(f'<rect {paint(bar["css"])} x="{bar["x"]}" y="{bar["y"]}" width="{bar["width"]}" '
                    f'height="{bar["height"]}"><title>{escape(bar["title"])}</title></rect>')
        if bar["count"]:
            body.append(text(bar["count"]))
    legend = "problems by pass rate c/n: broken (c = 0, orange), flaky (blue), solid (c = n, green)"
    return figure(svg(chart.width, chart.height, "Problems by pass rate", chart.description, body), legend)


def difference_svg(chart: DifferenceChart) -> str:
    """Each paired problem's pass@k of A minus B, largest gain first."""
    left, top, right, bottom = chart.plot
    body = [part for tick in chart.y_ticks for part in (line("grid", left, right, tick.y, tick.y), text(tick))]
    body += [f'<rect {paint(bar["css"])} x="{bar["x"]}" y="{bar["y"]}" width="{bar["width"]}" '
             f'height="{bar["height"]}"><title>{escape(bar["title"])}</title></rect>' for bar in chart.bars]
    body += [line("zero-line", left, right, chart.zero, chart.zero), text(chart.axis_label)]
    legend = f"pass@{chart.k:,} of A − B per problem: A does better (blue), B does better (orange)"
    return figure(svg(chart.width, chart.height, f"A − B per problem at k = {chart.k:,}", chart.description, body),
                  legend)


def interval_svg(chart: IntervalChart) -> str:
    """Each run's pass@k with its 95% interval, best first: the compare page's forest plot."""
    left, top, right, bottom = chart.plot
    body = [part for tick in chart.x_ticks for part in (line("grid", tick.x, tick.x, top, bottom), text(tick))]
    body.append(text(chart.axis_label))
    for row in chart.rows:
        name, value = row["labels"]
        group = f' <tspan fill="{BLUE}" font-weight="bold">{escape(row["group"])}</tspan>' if row["group"] else ""
        parts = [f'<text x="{name.x}" y="{name.y}" dy="{name.dy}em" fill="{INK}" font-size="{FONT_SIZE}">'
                 f'{escape(row["shown"])}{group}</text>', text(value)]
        low, high, y = row["low"], row["high"], row["y"]
        if low is not None and high is not None:
            parts += [line("whisker", low, high, y, y), line("whisker", low, low, y - 7, y + 7),
                      line("whisker", high, high, y - 7, y + 7)]
        if row["dot"] is not None:
            parts.append(f'<circle {paint("run-dot")} cx="{row["dot"]}" cy="{y}" r="6"/>')
        body.append(f'<g><title>{escape(row["title"])}</title>{"".join(parts)}</g>')
    legend = f"each run's pass@{chart.k:,}: the dot is the estimate, the line its 95% interval"
    return figure(svg(chart.width, chart.height, f"pass@{chart.k:,} of each run, best first", chart.description,
                      body), legend)


def figure(drawing: str, caption: str) -> str:
    return f'<figure style="margin:0.5em 0">{drawing}<figcaption>{escape(caption)}</figcaption></figure>'


# --- Markdown --------------------------------------------------------------------------------------------------

def summary_markdown(report: Report, run: Any) -> str:
    """The counts, then the tables `passk --markdown` writes, then the notes and warnings as a list."""
    notes = [*result_notes(report.summary.results), *report.summary.warnings]
    return "\n\n".join(filter(None, [counts_line(report, run).translate(MARKDOWN_ESCAPES),
                                     markdown(report_tables(report)), bullets(notes)]))


def comparison_markdown(comparison: Comparison, names: tuple[str, str]) -> str:
    columns = tuple(column for column in COMPARISON_COLUMNS if column.name not in ("test", "reason"))
    title = f"A = {names[0]}, B = {names[1]}: A − B on {plural(comparison.paired, 'paired problem')}" + \
        only_in(comparison.only_in_a, comparison.only_in_b)
    notes = [*(row.reason for row in comparison.results if row.reason), *comparison.warnings]
    return "\n\n".join(filter(None, [markdown([Table(title, columns, comparison.results)]), bullets(notes)]))


def ranking_markdown(ranking: Ranking) -> str:
    return "\n\n".join(filter(None, [markdown(ranking_tables(ranking)), bullets(ranking.warnings)]))


def plan_markdown(rows: Sequence[KPlan], target: float) -> str:
    return "\n".join([plan_title(target).translate(MARKDOWN_ESCAPES), "",
                      markdown_line(["k", "plan"]), "| ---: | --- |",
                      *(markdown_line([f"{row.k:,}", plan_text(row)]) for row in rows)])


MARKDOWN_ESCAPES = str.maketrans({char: "\\" + char for char in "\\*_`<>[]"})


def bullets(notes: Iterable[str | None]) -> str:
    unique = list(dict.fromkeys(note for note in notes if note))
    return "\n".join(f"- {note.translate(MARKDOWN_ESCAPES)}" for note in unique)
