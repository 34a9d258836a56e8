"""Three runs on /compare in a real Chromium: uploaded as files, ranked, charted, readable on a phone and
clean under axe."""

import re

import pytest
from playwright.sync_api import expect

from browsing import rank_files
from test_a11y import violations_in_both_schemes
from test_browser_look import box_overflow, resize, sideways_overflow, sticking_out

pytestmark = pytest.mark.browser

STRONG = "".join(f"HumanEval/{i},20,{15 + i % 6}\n" for i in range(30))
WEAK = "".join(f"HumanEval/{i},20,{2 + i % 5}\n" for i in range(30))
WEAKER = "".join(f"HumanEval/{i},20,{2 + (i * 3) % 5 - (i % 7 == 0)}\n" for i in range(1, 31))


@pytest.fixture
def run_files(tmp_path):
    paths = []
    for name, text in (("weak-model.csv", WEAK), ("strong-model.csv", STRONG), ("weaker-model.csv", WEAKER)):
        path = tmp_path / name
        path.write_text(text)
        paths.append(str(path))
    return paths


def open_three_runs(page, run_files):
    """/compare with run A and run B as files and the third under "More runs"; waits for the ranking."""
    rank_files(page, run_files)


def test_three_uploaded_runs_are_ranked_and_charted(page, run_files):
    open_three_runs(page, run_files)
    rows = page.locator("#ranking-table-1 tbody tr")
    expect(rows.locator("th")).to_have_text(["strong-model.csv", "weak-model.csv", "weaker-model.csv"])
    expect(rows.locator("td.groups")).to_have_text(["a", "b", "b"])
    expect(rows.first.locator("td.value")).to_have_text("87.50%")
    expect(page.locator("#pairs-table-1 tbody tr[data-pair]")).to_have_count(3)
    expect(page.locator('#pairs-table-1 tr[data-pair="weak-model.csv − weaker-model.csv"] td.p-holm')).to_have_text("0.645")
    expect(page.locator("#left-out li")).to_have_text([
        "weak-model.csv − weaker-model.csv: only in weak-model.csv: HumanEval/0; only in weaker-model.csv: HumanEval/30.",
        "strong-model.csv − weaker-model.csv: only in strong-model.csv: HumanEval/0; only in weaker-model.csv: "
        "HumanEval/30."])

    chart = page.locator("#interval-chart-1 svg")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_accessible_name(re.compile(r"strong-model\.csv, pass@1: 87\.50% \(95% interval \d"))
    expect(chart.locator("g.run-row")).to_have_count(3)
    expect(chart.locator("g.run-row .run-name")).to_have_text(["strong-model.csv a", "weak-model.csv b",
                                                               "weaker-model.csv b"])
    expect(chart.locator("g.run-row .run-group")).to_have_text(["a", "b", "b"])
    plot = chart.locator("line.grid").first.bounding_box()
    last_tick = chart.locator("line.grid").last.bounding_box()
    for index in range(3):
        whisker = chart.locator("g.run-row").nth(index).locator("line.whisker").first.bounding_box()
        dot = chart.locator("g.run-row").nth(index).locator("circle.run-dot").bounding_box()
        assert plot["x"] - 1 <= whisker["x"] and whisker["x"] + whisker["width"] <= last_tick["x"] + 1
        assert whisker["x"] - 1 <= dot["x"] + dot["width"] / 2 <= whisker["x"] + whisker["width"] + 1


def test_the_ranking_fits_a_320_px_phone(page, run_files):
    open_three_runs(page, run_files)
    for width in (320, 390):
        resize(page, width)
        assert sideways_overflow(page) <= 0, (width, sticking_out(page))
        for table in ("#ranking-table-1", "#pairs-table-1"):   # each row a block of labelled values
            assert box_overflow(page.locator(table).locator("xpath=..")) <= 0, (width, table)
        svg = page.locator("#interval-chart-1 svg").bounding_box()
        assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width
        names = page.locator("#interval-chart-1 .run-name")
        size = float(names.first.evaluate("(text) => parseFloat(getComputedStyle(text).fontSize)"))
        # 22 viewBox units, drawn about 9 px high or more where the chart is narrowest
        assert size * svg["width"] / 640 >= 8.5


def test_a_bad_difference_keeps_the_files_form_and_says_which_field(page, run_files):
    page.goto("/compare")
    page.locator("#text_a").fill(WEAK)
    page.locator("#text_b").fill(STRONG)
    page.locator("#text_c").fill(WEAKER)
    page.get_by_label("Difference to detect (points)").fill("lots")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("alert")).to_have_text(
        "The difference to detect (points) must be from 0.001 to 100; got 'lots'.")
    expect(page.locator("#text_c")).to_have_value(WEAKER)
    expect(page.get_by_label("Difference to detect (points)")).to_have_value("lots")


def test_axe_finds_no_violations_on_the_ranking(page, run_files):
    open_three_runs(page, run_files)
    assert violations_in_both_schemes(page) == {"light": [], "dark": []}
