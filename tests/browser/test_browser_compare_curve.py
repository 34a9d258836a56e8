"""Two runs on /compare in a real Chromium: uploaded as files, their pass@k over k charted and the crossover read."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from passk.results.benchmark import compare
from passk.results.curves import curves_of
from passk.formats import Problem
from passk.writing.sentences import crossover_sentences
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
    expect(sentences).to_have_text(crossover_sentences(curve))
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


# --- the whole curve: the ks chosen with the curve_k field, the regions marked (issue 27) ---------------------

def sharpened_rows(problems=200, n=32):
    """Run A sharpened (twice the base rate, a quarter of its problems collapsed to never) against base run B."""
    generator = np.random.default_rng(20261205)
    base = generator.beta(0.5, 2.0, problems)
    sharp = np.where(generator.random(problems) < 0.25, 0.0, np.minimum(1.0, 2 * base))
    return ([(f"T/{i}", n, int(c)) for i, c in enumerate(generator.binomial(n, sharp))],
            [(f"T/{i}", n, int(c)) for i, c in enumerate(generator.binomial(n, base))])


SHARP, PLAIN = sharpened_rows()


@pytest.fixture
def sharpened_files(tmp_path):
    paths = []
    for name, rows in (("sharp.csv", SHARP), ("plain.csv", PLAIN)):
        path = tmp_path / name
        path.write_text("".join(f"{task_id},{n},{c}\n" for task_id, n, c in rows))
        paths.append(str(path))
    return paths


def open_whole_curve(page, files):
    page.goto("/compare")
    page.locator("#file_a").set_input_files(files[0])
    page.locator("#file_b").set_input_files(files[1])
    page.get_by_label("ks of the curves").fill("1-32")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#curve-over-k-heading")).to_have_text("pass@k over k, from 1 to 32")


def test_the_regions_of_the_whole_curve_are_listed_shaded_and_in_the_legend(page, sharpened_files):
    curve = curves_of(compare([Problem(*row) for row in SHARP], [Problem(*row) for row in PLAIN], [1]),
                      list(range(1, 33)))
    open_whole_curve(page, sharpened_files)
    expect(page.get_by_label("ks of the curves")).to_have_value("1-32")
    regions = curve.standing_regions()
    assert [standing for standing, _, _ in regions] == ["ahead", "undecided", "behind"]
    for standing, _, text in regions:
        expect(page.locator(f'#curve-regions dd[data-standing="{standing}"]')).to_have_text(f"k = {text}")
    expect(page.locator("#first-loss")).to_have_text(curve.first_loss_text)
    expect(page.locator("#crossover li")).to_have_text(crossover_sentences(curve))

    chart = page.locator("#difference-curve-chart")
    ahead, behind = curve.region("A"), curve.region("B")
    expect(chart.locator("rect.region-ahead")).to_have_count(len(ahead))
    expect(chart.locator("rect.region-behind")).to_have_count(len(behind))
    expect(chart.locator("rect.first-loss")).to_have_count(len(curve.first_loss))
    expect(chart.locator("rect.region-behind title").last).to_have_text(
        f"A significantly behind at k = {behind[-1][0]}-32")
    legend = chart.locator(".chart-legend li")
    expect(legend.filter(has_text="A significantly ahead:")).to_have_text(f"A significantly ahead: k = {regions[0][2]}")
    expect(legend.filter(has_text="where A first loses")).to_have_text(
        f"where A first loses, 95% confidence set: {curve.first_loss_text}")
    # the shaded stretches lie within the plot, left to right in the order of their ks
    boxes = [chart.locator(f"rect.{css}").first.bounding_box() for css in ("region-ahead", "region-behind")]
    assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] + 0.5

    page.get_by_text("The curves' values at each k").click()
    expect(page.locator("#curve-table tbody tr")).to_have_count(32)
    expect(page.locator('#curve-table tr[data-k="1"] td').nth(4)).to_have_text("ahead")


def test_a_curve_k_past_the_smallest_n_leaves_the_curves_out_with_its_sentence(page, sharpened_files):
    page.goto("/compare")
    page.locator("#file_a").set_input_files(sharpened_files[0])
    page.locator("#file_b").set_input_files(sharpened_files[1])
    page.get_by_label("ks of the curves").fill("1-64")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#curve-left-out")).to_have_text(
        "The curves over k are left out: The curves over k reach only k = 32, the fewest samples of any paired "
        "problem, and k = 33-64 are past it: choose ks from 1 to 32, like 1-32.")
    expect(page.locator("#compare-table")).to_be_visible()


def test_axe_finds_no_violations_in_the_marked_regions_in_either_scheme(page, sharpened_files):
    open_whole_curve(page, sharpened_files)
    page.get_by_text("The curves' values at each k").click()
    assert violations_in_both_schemes(page) == {"light": [], "dark": []}
