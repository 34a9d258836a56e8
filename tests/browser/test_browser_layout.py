"""The pages' layout in a real Chromium, measured (issue 18, items 5, 6, 7 and 9).

Controls: every input, select and button of a form is as tall as the main form's, in its font and
colours, in both themes; one label style; the header lines up with the content; sort headers look
like buttons. Wrapping: no identifier or number is split over two lines (its text's line boxes are
counted), and a table too wide for its box scrolls in it with a shadow at the edge that has more.
Charts: their text is 11–16 px on screen at 320 and at 1280 px, each has a legend, and on `/` the
dashed biased line is drawn over the solid one. Print: on A4 the cards share one row and the chart
ends on the first page.

Each page is opened once for the module and measured at several widths.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browsing import compare_pasted, rank_files
from test_browser_look import resize

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).parents[2] / "examples" / "samples.jsonl_results.jsonl"
RUNS = {"weak-model-with-a-long-name.csv": "".join(f"HumanEval/{i},20,{2 + i % 5}\n" for i in range(30)),
        "strong-model.csv": "".join(f"HumanEval/{i},20,{15 + i % 6}\n" for i in range(30)),
        "weaker-model.csv": "".join(f"HumanEval/{i},20,{2 + (i * 3) % 5 - (i % 7 == 0)}\n" for i in range(1, 31))}
RUN_A = "".join(f"HumanEval/{i},20,{2 + i % 5}\n" for i in range(30))
RUN_B = "".join(f"HumanEval/{i},20,{15 + i % 6}\n" for i in range(30))
# A4 at 96 px an inch less Chromium's default print margins (0.4 in on each side).
A4_WIDTH, A4_HEIGHT = round(210 / 25.4 * 96 - 2 * 0.4 * 96), round(297 / 25.4 * 96 - 2 * 0.4 * 96)


def open_page(page, name, run_files):
    """Load one page with its result; every <details> opened, so that what it holds is laid out."""
    if name == "single":
        page.goto("/?n=200&c=57&k=10")
        expect(page.locator("#curve-chart")).to_be_visible()
    elif name == "benchmark":
        page.goto("/benchmark")
        page.locator("#file").set_input_files(str(EXAMPLE))
        page.get_by_role("button", name="Calculate").click()
        expect(page.locator("#per-problem")).to_be_attached()
    elif name == "ranking":
        rank_files(page, run_files)
    else:
        compare_pasted(page, RUN_A, RUN_B)
    page.evaluate("() => document.querySelectorAll('details').forEach((details) => { details.open = true; })")
    return page


@pytest.fixture(scope="module")
def shown(browser, live_server, tmp_path_factory):
    """shown(name): the page `name` (single, benchmark, ranking, pair) with its result, loaded once for the module."""
    folder = tmp_path_factory.mktemp("runs")
    run_files = []
    for file_name, text in RUNS.items():
        (folder / file_name).write_text(text)
        run_files.append(str(folder / file_name))
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 800})
    pages = {}

    def show(name, width=1280, scheme="light"):
        if name not in pages:
            pages[name] = open_page(context.new_page(), name, run_files)
        page = pages[name]
        page.emulate_media(media="screen", color_scheme=scheme)
        resize(page, width)
        return page

    yield show
    context.close()


# Every control of a form on the page: (what it is, height, font size, font family, background, text colour).
CONTROLS = """() => [...document.querySelectorAll(
    'main :is(input:not([type=file], [type=hidden]), select, button[type=submit], button.primary)')]
  .filter((control) => control.getClientRects().length)
  .map((control) => { const style = getComputedStyle(control);
    return [control.id || control.value, control.getBoundingClientRect().height, style.fontSize, style.fontFamily,
            style.backgroundColor, style.color, control.tagName === "INPUT" && control.type !== "submit"]; })"""


@pytest.mark.parametrize("name", ["benchmark", "ranking"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_is_as_tall_as_the_main_forms_in_its_font_and_colours(shown, name, scheme):
    page = shown(name, scheme=scheme)
    controls = page.evaluate(CONTROLS)
    main_input = next(control for control in controls if control[0] == "k")
    assert len(controls) >= 8   # the planning inputs (benchmark) and the runs' names (ranking) among them
    for control in controls:
        assert control[1] == pytest.approx(main_input[1], abs=0.5), control
        if control[6]:   # a text field: the main form's font and colours
            assert control[2:6] == main_input[2:6], control
        assert control[4] != "rgb(59, 59, 59)", control   # never the browser's grey field in dark
    labels = page.evaluate("""() => [...new Set(
      [...document.querySelectorAll('main form label, main .plan-inputs label')]
      .filter((label) => label.getClientRects().length)
      .map((label) => getComputedStyle(label).fontFamily + ' ' + getComputedStyle(label).fontWeight))]""")
    assert len(labels) == 1, labels


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_the_header_lines_up_with_the_content(shown, width):
    page = shown("single", width)
    edges = page.evaluate("""() => {
      const main = document.querySelector('main'), style = getComputedStyle(main), box = main.getBoundingClientRect();
      return [document.querySelector('.brand').getBoundingClientRect().left, box.left + parseFloat(style.paddingLeft),
              document.querySelector('.mode-switch').getBoundingClientRect().right,
              box.right - parseFloat(style.paddingRight)]; }""")
    assert edges[0] == pytest.approx(edges[1], abs=0.5) and edges[2] == pytest.approx(edges[3], abs=0.5)


def test_sort_headers_look_like_buttons(shown):
    page = shown("benchmark")
    header = page.locator("#per-problem thead th button").first
    look = header.evaluate("""(button) => [getComputedStyle(button).cursor,
      getComputedStyle(button.querySelector('.sort-arrow'), '::after').content]""")
    assert look == ["pointer", '" ↕"']
    page.locator("#per-problem thead th button").nth(1).focus()
    page.keyboard.press("Shift+Tab")   # by the keyboard, so that the focus ring shows
    expect(header).to_be_focused()
    assert header.evaluate("(button) => getComputedStyle(button).outlineStyle") == "solid"
    header.click()
    expect(header.locator(".sort-arrow")).to_have_text(" ▲")


# The task ids, run names and numbers in the tables and the result's sentences, each with the number of lines its
# text takes (the distinct tops of its line boxes), and every .num or .run-id element that takes more than one.
SPLIT = r"""() => {
  // a task id, a run's file name, a number with its sign, power of ten, % or unit
  const pattern = /[A-Za-z]+\/\d+|[\w.-]+\.csv|[−+]?\d[\d.,]*(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?%?(?: pts)?/g;
  const lines = (range) => new Set([...range.getClientRects()].filter((box) => box.width > 0)
                                    .map((box) => Math.round(box.top))).size;
  const split = [];
  for (const cell of document.querySelectorAll('main :is(td, th, .card, .sentence)')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(pattern)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (lines(range) > 1) split.push(`${match[0]} in ${cell.closest('[id]').id}`);
      }
    }
  }
  for (const element of document.querySelectorAll('main :is(.num, .run-id)')) {
    const range = document.createRange();
    range.selectNodeContents(element);
    if (element.getClientRects().length > 1 || lines(range) > 1) {
      split.push(`${element.textContent} in ${element.closest('[id]').id}`);
    }
  }
  return split;
}"""


@pytest.mark.parametrize("name", ["benchmark", "ranking", "pair"])
def test_no_identifier_or_number_breaks_across_lines(shown, name):
    for width in (320, 390, 1280):
        page = shown(name, width)
        assert page.evaluate(SPLIT) == [], f"{width} px"


def test_a_table_too_wide_for_its_box_scrolls_in_it_with_a_shadow_at_its_edge(shown):
    page = shown("benchmark", 320)
    box = page.locator(".table-scroll").filter(has=page.locator("#per-problem"))
    assert box.evaluate("(box) => box.scrollWidth > box.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    style = box.evaluate("(box) => [getComputedStyle(box).backgroundImage, getComputedStyle(box).backgroundAttachment]")
    assert style[0].count("radial-gradient") == 2 and style[1] == "local, local, scroll, scroll"


# Each chart text's size on screen: its font size in viewBox units times the SVG's scale.
TEXT_SIZES = """(svg) => [...svg.querySelectorAll('text')].map((text) =>
  [parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a, text.getBoundingClientRect().height])"""
CHARTS = {"single": ["#curve-chart"], "benchmark": ["#k-curve", "#histogram"],
          "ranking": ["#interval-chart-1"],
          "pair": ["#difference-chart", "#runs-curve-chart", "#difference-curve-chart"]}


@pytest.mark.parametrize("name", CHARTS)
def test_chart_text_keeps_a_readable_size_at_every_width(shown, name):
    for width in (320, 1280):
        page = shown(name, width)
        for chart in CHARTS[name]:
            sizes = page.locator(f"{chart} svg[role=img]").evaluate(TEXT_SIZES)
            assert sizes, chart
            for size, height in sizes:
                assert 11 <= size <= 16 and height <= 1.5 * 16, (chart, width, size, height)


@pytest.mark.parametrize("name", CHARTS)
def test_every_chart_has_a_legend(shown, name):
    page = shown(name)
    for chart in CHARTS[name]:
        legend = page.locator(f"{chart} .chart-legend li")
        expect(legend.first).to_be_visible()
        assert legend.locator(".swatch").count() == legend.count() >= 1


def test_the_dashed_biased_line_is_drawn_over_the_solid_one_and_both_show(shown):
    page = shown("single")
    lines = page.locator("#curve-chart svg[role=img] path")
    expect(lines).to_have_count(2)
    assert lines.evaluate_all("(paths) => paths.map((path) => path.getAttribute('class'))") == ["curve", "curve-biased"]
    solid, dashed = lines.evaluate_all("""(paths) => paths.map((path) => { const style = getComputedStyle(path);
      return [parseFloat(style.strokeWidth), style.stroke, style.strokeDasharray]; })""")
    assert solid[0] > dashed[0] and solid[1] != dashed[1] and solid[2] == "none" and dashed[2] != "none"
    legend = page.locator("#curve-chart .chart-legend li")
    expect(legend).to_have_text(["pass@k", re.compile("^biased"), "the chosen k"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a4_the_cards_share_a_row_and_the_chart_ends_on_the_first_page(shown, scheme):
    page = shown("single", scheme=scheme)
    page.set_viewport_size({"width": A4_WIDTH, "height": A4_HEIGHT})
    page.emulate_media(media="print", color_scheme=scheme)
    cards = page.locator("#result .cards").first.locator(".card").evaluate_all(
        "(cards) => cards.map((card) => card.getBoundingClientRect().top)")
    assert len(cards) == 3 and len(set(cards)) == 1, cards
    chart_bottom = page.locator("#curve-chart").evaluate("(chart) => chart.getBoundingClientRect().bottom + scrollY")
    assert chart_bottom <= A4_HEIGHT
    paper = page.locator("#curve-chart").evaluate("(chart) => getComputedStyle(chart).backgroundColor")
    assert paper == "rgb(255, 255, 255)"
    for hidden in ("nav", "#calculator", ".share", "button.copy"):
        for element in page.locator(hidden).all():
            expect(element).to_be_hidden()
