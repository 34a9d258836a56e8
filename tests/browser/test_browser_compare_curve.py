"""Two runs on /compare in a real Chromium: uploaded as files, their pass@k over k charted and the crossover read."""

import re

import pytest
from playwright.sync_api import expect

from passk.benchmark import compare
from passk.curves import curves_of
from passk.formats import Problem
from test_a11y import violations_in_both_schemes

pytestmark = pytest.mark.browser

# An RL run that solves half the problems always and the others never, and a base run that solves each a quarter
# of the time: RL leads at k = 1, base overtakes it as k grows.
RL = [(f"T/{i}", 8, 8 if i % 2 else 0) for i in range(36)] + [(f"T/{i}", 8, i % 9) for i in range(36, 48)]
BASE = [(f"T/{i}", 8, 2) for i in range(36)] + [(f"T/{i}", 8, (i * 5) % 9) for i in range(36, 48)]


@pytest.fixture
def run_files(tmp_path):
    paths = []
    for name, rows in (("rl.csv", RL), ("base.csv", BASE)):
        path = tmp_path / name
        path.write_text("".join(f"{task_id},{n},{c}\n" for task_id, n, c in rows))
        paths.append(str(path))
    return paths


def open_two_runs(page, run_files):
    """/compare with run A and run B uploaded as files; waits for the curves over k."""
    page.goto("/compare")
    page.locator("#file_a").set_input_files(run_files[0])
    page.locator("#file_b").set_input_files(run_files[1])
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#curve-over-k-heading")).to_have_text("pass@k over k, from 1 to 8")


def test_two_uploaded_runs_show_their_curves_and_where_they_cross(page, run_files):
    curve = curves_of(compare([Problem(*row) for row in RL], [Problem(*row) for row in BASE], [1]))
    open_two_runs(page, run_files)
    sentences = page.locator("#crossover li")
    expect(sentences).to_have_text(curve.sentences)
    expect(sentences.nth(1)).to_contain_text(f"The curves cross at k = {curve.crossing.k}: there A − B turns "
                                             f"negative, and run B is ahead.")

    for chart_id, name in (("runs-curve-chart", r"^pass@k over k of run A and run B"),
                           ("difference-curve-chart", r"^A − B over k, with its simultaneous 95% band")):
        chart = page.locator(f"#{chart_id} svg")
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("role", "img")
        expect(chart).to_have_accessible_name(re.compile(name))
    expect(page.locator("#difference-curve-chart line.marker-line title")).to_have_text(
        f"The curves cross at k = {curve.crossing.k}")

    page.get_by_text("The curves' values at each k").click()
    expect(page.locator("#curve-table tbody tr")).to_have_count(8)


def test_axe_finds_no_violations_in_the_curves_in_either_scheme(page, run_files):
    open_two_runs(page, run_files)
    page.get_by_text("The curves' values at each k").click()
    assert violations_in_both_schemes(page) == {"light": [], "dark": []}
