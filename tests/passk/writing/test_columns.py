"""The column model (passk.writing.columns): one description of a result's columns, rendered by every output."""

import json
import re

import pytest

from passk.writing import columns, paper
from passk.cli import results_lines
from passk.results.benchmark import KResult, compare, summarize
from passk.writing.columns import (PAIR_COLUMNS, PER_K_COLUMNS, PROBLEM_COLUMNS, RANK_COLUMNS, RESULT_COLUMNS, Column,
                                   json_row, shown_in)
from passk.formats import Problem
from passk.results.ranking import rank_runs
from passk.writing.report import Report, per_problem_csv
from passk.writing.answers import per_problem_rows
from passk.writing.answers import to_json

API_KEYS = ["k", "pass_at_k", "se", "ci95", "se_fixed", "ci95_fixed", "coverage_note", "reason", "pass_hat_k",
            "pass_hat_k_se", "pass_hat_k_ci95", "pass_hat_k_se_fixed", "pass_hat_k_ci95_fixed",
            "pass_hat_k_coverage_note"]
PROBLEMS = [Problem("A", 10, 3), Problem("B", 10, 0), Problem("C", 10, 10), Problem("=D", 4, 2)]


def names(output):
    return [column.name for column in shown_in(output, RESULT_COLUMNS)]


@pytest.fixture(scope="module")
def summary():
    return summarize(PROBLEMS, [1, 2, 5])


def test_the_json_row_keeps_the_api_keys_in_their_order(summary):
    assert [column.name for column in RESULT_COLUMNS] == API_KEYS
    assert list(to_json(summary.results[0])) == API_KEYS
    assert list(json_row(summary.results[0], RESULT_COLUMNS)) == API_KEYS


def test_an_interval_is_a_json_list_and_an_undefined_k_is_null(summary):
    defined, _, undefined = (json.loads(json.dumps(to_json(row))) for row in summary.results)
    assert defined["ci95"] == list(summary.results[0].ci95)
    assert defined["pass_hat_k_ci95"] == list(summary.results[0].pass_hat.ci95)
    assert undefined["pass_at_k"] is None and undefined["pass_hat_k"] is None and "n ≥ 5" in undefined["reason"]


def test_every_table_shows_the_same_statistics_and_pass_hat_k_beside_them_but_in_html():
    """The page gives pass^k a table of its own, with its error bars; the other tables give it a column."""
    shared = ["k", "pass_at_k", "se", "ci95", "se_fixed"]
    assert names("html")[:5] == shared and "pass_hat_k" not in names("html")
    assert names("terminal") == names("markdown") == names("latex")
    assert [name for name in names("latex") if name != "pass_hat_k"] == names("html")


def test_each_output_writes_a_cell_by_its_notation(summary):
    row = summary.results[0]   # pass@1 = (0.3 + 0 + 1 + 0.5) / 4
    ci95 = shown_in("html", RESULT_COLUMNS)[3]
    assert [columns.cells(row, output, RESULT_COLUMNS)[1] for output in ("html", "terminal", "markdown")] == \
        ["45.00%", "45.00%", "45.00"]
    assert re.fullmatch(r"\d+\.\d\d% – \d+\.\d\d%", ci95.text(row, "html"))
    assert re.fullmatch(r"\[\d+\.\d\d%, \d+\.\d\d%\]", ci95.text(row, "terminal"))
    assert re.fullmatch(r"\[\d+\.\d\d, \d+\.\d\d\]", ci95.text(row, "latex"))


def test_a_missing_value_is_a_dash_on_screen_and_left_to_the_paper_table():
    row = KResult(1000, None, None, None, None, "undefined")
    k, *terminal = columns.cells(row, "terminal", RESULT_COLUMNS)
    assert k == "1,000" and set(terminal) == {"—"}
    k, *latex = columns.cells(row, "latex", RESULT_COLUMNS)
    assert k == "1000" and set(latex) == {None}


def test_paper_headers_carry_the_unit_that_their_cells_leave_out():
    assert columns.headings("markdown", RESULT_COLUMNS)[:5] == [
        "k", "pass@k (%)", "± SE (%)", "95% interval (%)", "SE fixed (%)"]
    assert columns.headings("terminal", RESULT_COLUMNS)[:5] == ["k", "pass@k", "± SE", "95% interval", "SE fixed"]
    assert columns.headings("latex", RESULT_COLUMNS) == [
        f"{column.header} ({column.unit})" if column.unit else column.header
        for column in shown_in("latex", RESULT_COLUMNS)]


def test_a_value_follows_its_source_and_is_none_past_a_missing_step(summary):
    pass_hat_se = next(column for column in RESULT_COLUMNS if column.name == "pass_hat_k_se")
    assert pass_hat_se.value(summary.results[0]) == summary.results[0].pass_hat.se
    assert pass_hat_se.value(summary.results[2]) is None   # pass@5 is undefined, so there is no pass^5 row


def test_the_paper_tables_and_the_terminal_table_hold_the_same_cells(summary):
    report = Report(summary, "csv")
    header, rows = paper.paper_rows(report)
    at = names("markdown").index("pass_hat_k")
    assert header[at] == "pass^k (%)" and rows[0][at] == "45.00"   # pass^1 = pass@1
    header, first = (re.split(r"\s{2,}", line.strip()) for line in results_lines(summary.results)[:2])
    assert header[at] == "pass^k" and first[at] == "45.00%"


def test_per_problem_rows_hold_the_problem_columns_then_one_object_per_k_statistic(summary):
    row = per_problem_rows(summary)[0]
    assert list(row) == [column.name for column in (*PROBLEM_COLUMNS, *PER_K_COLUMNS)]
    assert [row[name] for name in ("task_id", "n", "c", "status")] == ["A", 10, 3, "flaky"]
    assert row["pass_at_k"] == {"1": 0.3, "2": pytest.approx(8 / 15), "5": pytest.approx(11 / 12)}
    assert row["pass_hat_k"] == {"1": 0.3, "2": pytest.approx(1 / 15), "5": 0.0}


def test_the_csv_has_a_column_per_k_of_each_per_k_statistic_and_defuses_formulas(summary):
    lines = per_problem_csv(summary).splitlines()
    assert lines[0].startswith("task_id,n,c,status,pass@1,pass@2,pass@5,pass^1,pass^2,pass^5")
    cells = lines[4].split(",")   # n = 4 < 5: pass@5 and pass^5 are empty
    assert cells[:4] == ["'=D", "4", "2", "flaky"] and cells[6] == cells[9] == ""
    assert [float(cell) for cell in cells[4:6] + cells[7:9]] == pytest.approx([0.5, 5 / 6, 0.5, 1 / 6], rel=1e-15)


def test_a_per_k_header_puts_the_k_in_place_of_its_last_letter():
    assert [column.heading_at(10) for column in PER_K_COLUMNS[:2]] == ["pass@10", "pass^10"]


def test_a_new_statistic_is_one_column_and_every_output_shows_it(summary):
    """What issue 16 asks of the model: a column added to the tuple reaches each output with no other change."""
    squared = Column("pass_at_k", "pass@k squared", "%", lambda value, notation: columns.probability(
        None if value is None else value**2, notation), frozenset(columns.OUTPUTS))
    extended = (*RESULT_COLUMNS, squared)
    row = summary.results[0]
    assert columns.headings("latex", extended)[-1] == "pass@k squared (%)"
    assert columns.cells(row, "html", extended)[-1] == "20.25%"
    assert paper.paper_rows(Report(summary, "csv"), "markdown", extended)[1][0][-1] == "20.25"


def test_html_table_has_a_header_per_column_and_an_undefined_k_spans_the_rest(client):
    html = client.post("/benchmark", data={"text": "A,10,3\nB,4,2\n", "k": "1,5"}).get_data(as_text=True)
    table = re.search(r'<table id="results-table".*?</table>', html, re.S).group(0)
    headers = re.findall(r'<th scope="col">(.*?)</th>', table)
    assert headers == [column.heading("html") for column in shown_in("html", RESULT_COLUMNS)]
    assert f'<td colspan="{len(headers) - 1}" class="undefined">pass@5 is undefined' in table
    hat_table = re.search(r'<table id="pass-hat-table".*?</table>', html, re.S).group(0)
    assert re.findall(r'<th scope="col">(.*?)</th>', hat_table)[1] == "pass^k"


def test_a_ranking_keeps_its_api_keys_and_the_terminal_its_headers():
    ranking = rank_runs([("strong", PROBLEMS), ("weak", [Problem("A", 10, 1), Problem("B", 10, 0)])], [1, 5])
    run, pair = ranking.results[0].ranking[0], ranking.results[0].pairs[0]
    assert list(to_json(run)) == ["name", "pass_at_k", "se", "ci95", "group", "reason"]
    assert list(to_json(pair)) == ["a", "b", "paired", "difference", "se", "ci95", "p_value", "p_holm", "test",
                                    "reason", "only_in_a", "only_in_b"]
    assert to_json(pair)["only_in_a"] == ["C", "=D"] and isinstance(to_json(run)["ci95"], list)
    assert columns.headings("terminal", RANK_COLUMNS) == ["rank", "run", "pass@k", "± SE", "95% interval", "group"]
    assert columns.headings("terminal", PAIR_COLUMNS)[3:6] == ["run - other", "± SE", "95% interval"]
    assert columns.headings("terminal", PAIR_COLUMNS)[:2] == ["run", "other"]   # a, b, ... name groups there


def test_a_ranking_row_in_the_terminal_is_ascii_and_says_where_nothing_is_defined():
    ranking = rank_runs([("strong", PROBLEMS), ("weak", [Problem("A", 10, 1), Problem("B", 10, 0)])], [1, 5])
    best = columns.cells(ranking.results[0].ranking[0], "terminal", RANK_COLUMNS)
    assert best[:3] == ["1", "strong", "45.00%"] and best[-1] == "a"
    pair = columns.cells(ranking.results[0].pairs[0], "terminal", PAIR_COLUMNS)
    assert pair[:4] == ["strong", "weak", "2", "+10.00 pts"] and pair[-2:] == ["2", "0"]
    assert re.fullmatch(r"\[-?\+?\d+\.\d\d pts, \+\d+\.\d\d pts\]", pair[5])
    strong = next(entry for entry in ranking.results[1].ranking if entry.name == "strong")   # n = 4 < 5
    undefined = columns.cells(strong, "terminal", RANK_COLUMNS)
    assert undefined[1] == "strong" and set(undefined) - {"strong"} == {"—"}


def test_a_two_run_comparison_keeps_its_api_keys():
    comparison = compare(PROBLEMS, [Problem("A", 10, 1), Problem("B", 10, 0)], [1])
    row = to_json(comparison.results[0])
    assert list(row) == ["k", "a", "b", "difference", "se", "ci95", "p_value", "test", "reason"]
    assert row["difference"] == pytest.approx(0.1) and isinstance(row["ci95"], list)
