"""How the pages look in a real Chromium: phone to desktop widths, light and dark, print.

Every page at 320, 390 and 1280 px: the page never scrolls sideways (a wide
table may scroll inside its own box), the charts' labels neither overlap nor
get cut by the chart's edge. In the dark colour scheme the page is dark and
its text keeps a contrast ratio of at least 4.5; a theme class on <html>
overrides the system's choice. Printed, a page shows the result without the
form, navigation or buttons.
"""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

pytestmark = pytest.mark.browser

WIDTHS = (320, 390, 1280)
# examples/samples.jsonl_results.jsonl as the benchmark page's share link gives it (40 problems, n = 10).
BENCHMARK = ("/benchmark?counts=10:0*6,10:1*2,10:2*3,10:3*4,10:4*9,10:5,10:6*3,10:7*4,10:8*2,10:10*6"
             "&k=1,10,100")
RUN_A = "HumanEval/0,20,5\nHumanEval/1,20,0\nHumanEval/2,20,20\nHumanEval/3,20,11\nHumanEval/4,20,2\n"
RUN_B = "HumanEval/0,20,9\nHumanEval/1,20,3\nHumanEval/2,20,20\nHumanEval/3,20,8\nHumanEval/4,20,7\n"
PAGES = ("calculator", "benchmark", "compare", "embed")
CHARTS = {"curve": ("calculator", "#curve-chart"), "log curve": ("log calculator", "#curve-chart"),
          "histogram": ("benchmark", "#histogram"), "difference": ("compare", "#difference-chart")}


def show(page, name):
    """Open one of PAGES, with a result, and wait until the result is there."""
    if name == "compare":
        page.goto("/compare")
        page.locator("#text_a").fill(RUN_A)
        page.locator("#text_b").fill(RUN_B)
        page.locator("#k").fill("1, 5")
        page.get_by_role("button", name="Compare").click()
        expect(page.locator("#compare-result")).to_be_visible()
        return
    path, result = {"calculator": ("/?n=200&c=57&k=10", "#result"),
                    "log calculator": ("/?n=1000000&c=3&k=1000", "#result"),
                    "benchmark": (BENCHMARK, "#benchmark-result"),
                    "embed": ("/embed?n=10&c=3&k=5", "#result")}[name]
    page.goto(path)
    expect(page.locator(result)).to_be_visible()


# Relative luminance and contrast ratio as WCAG 2 defines them: the element's computed text colour
# (fill for SVG text) against the background of the nearest element, itself or around it, that has one.
CONTRAST = """(element) => {
  const channels = (colour) => colour.match(/[\\d.]+/g).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = channels(colour).slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let behind = element;
  let paper = "rgb(255, 255, 255)";
  for (; behind; behind = behind.parentElement) {
    const colour = getComputedStyle(behind).backgroundColor;
    if (channels(colour)[3] !== 0) { paper = colour; break; }
  }
  const style = getComputedStyle(element);
  const ink = element instanceof SVGElement ? style.fill : style.color;
  const [lighter, darker] = [luminance(ink), luminance(paper)].sort((a, b) => b - a);
  return {ink, paper, ratio: (lighter + 0.05) / (darker + 0.05)};
}"""


def contrast(page, selector):
    """{ink, paper, ratio} of the first element the selector finds."""
    return page.locator(selector).first.evaluate(CONTRAST)


# Resolves once the page's media queries see the window's new width (a resize reaches innerWidth a
# moment before the styles that depend on it); a function, not a string, which the CSP would refuse.
WIDTH_SEEN = """(width) => new Promise((resolve, reject) => {
  const query = matchMedia(`(width: ${width}px)`);
  if (query.matches) return resolve();
  query.addEventListener("change", () => resolve(), {once: true});
  setTimeout(() => reject(new Error(`the media queries never saw ${width} px`)), 5000);
})"""


def resize(page, width):
    """Make the window `width` px wide and wait until the page's styles follow."""
    page.set_viewport_size({"width": width, "height": 800})
    page.evaluate(WIDTH_SEEN, width)


def sideways_overflow(page):
    """How far the page is wider than the window, in CSS pixels (0 when it does not scroll sideways).

    Waits up to 5 s for it to reach 0, as `expect` would: on a busy machine the layout can lag the resize.
    """
    try:
        page.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth", timeout=5000)
    except PlaywrightTimeoutError:
        pass
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def box_overflow(box):
    """How far a scroll box's content is wider than the box, waiting up to 5 s for it to fit (see above)."""
    try:
        box.page.wait_for_function("(box) => box.scrollWidth <= box.clientWidth", arg=box.element_handle(),
                                   timeout=5000)
    except PlaywrightTimeoutError:
        pass
    return box.evaluate("(box) => box.scrollWidth - box.clientWidth")


def sticking_out(page):
    """The first few elements whose right edge is past the window's, to say what widens the page."""
    return page.evaluate("""() => [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5).map((element) => `${element.tagName.toLowerCase()}#${element.id}.${element.getAttribute("class")}`
                                    + ` to ${Math.round(element.getBoundingClientRect().right)} px`)""")


@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways(page, name):
    show(page, name)
    for width in WIDTHS:
        resize(page, width)
        assert sideways_overflow(page) <= 0, (width, sticking_out(page))


@pytest.mark.parametrize("name, table", [("calculator", "#k-table"), ("benchmark", "#results-table"),
                                         ("compare", "#compare-table"), ("embed", "#k-table")])
def test_result_tables_fit_a_phone_without_scrolling_in_their_box(page, name, table):
    """Only the per-problem table, a long list of raw counts, may scroll sideways in its own box."""
    show(page, name)
    box = page.locator(".table-scroll").filter(has=page.locator(table))
    for width in WIDTHS:
        resize(page, width)
        assert box_overflow(box) <= 0, f"{width} px"


@pytest.mark.parametrize("name", PAGES)
def test_dark_scheme_is_dark_and_keeps_its_text_readable(new_context, name):
    colours = {}
    for scheme in ("light", "dark"):
        page = new_context(color_scheme=scheme, viewport={"width": 1280, "height": 800}).new_page()
        show(page, name)
        colours[scheme] = body = contrast(page, "body")
        assert body["ratio"] >= 4.5, (scheme, body)
        secondary = page.locator(".lede, .sub, .note, .help, td, thead th, .mode-switch a, .field-error")
        ratios = secondary.evaluate_all(f"(elements) => elements.filter((e) => e.checkVisibility())"
                                        f".map((e) => [e.className || e.tagName, ({CONTRAST})(e).ratio])")
        assert ratios and [(part, ratio) for part, ratio in ratios if ratio < 4.5] == [], scheme
        page.close()
    assert colours["dark"]["paper"] != colours["light"]["paper"]
    assert colours["dark"]["ink"] != colours["light"]["ink"]


@pytest.mark.parametrize("chart", ["curve", "histogram", "difference"])
def test_chart_labels_keep_their_contrast_in_both_schemes(new_context, chart):
    name, figure = CHARTS[chart]
    for scheme in ("light", "dark"):
        page = new_context(color_scheme=scheme).new_page()
        show(page, name)
        for text in (f"{figure} .tick", f"{figure} .axis-label"):
            assert contrast(page, text)["ratio"] >= 4.5, (scheme, text)


@pytest.mark.parametrize("forced, system", [("theme-dark", "light"), ("theme-light", "dark")])
@pytest.mark.parametrize("on", ["html", "body"])
def test_a_theme_class_overrides_the_system_scheme(new_context, forced, system, on):
    page = new_context(color_scheme=system).new_page()
    show(page, "calculator")
    before = contrast(page, "body")
    other = new_context(color_scheme="dark" if system == "light" else "light").new_page()
    show(other, "calculator")
    page.locator(on).evaluate("(element, name) => element.classList.add(name)", forced)
    for part in ("body", ".card h3", "#curve-chart .tick"):
        assert contrast(page, part) == contrast(other, part), part
    assert contrast(page, "body")["paper"] != before["paper"]


# Each label's box on screen, less half a pixel all round: boxes that only touch do not overlap.
LABEL_BOXES = """(figure) => {
  const svg = figure.querySelector('svg').getBoundingClientRect();
  const labels = [...figure.querySelectorAll('svg text')]
    .map((text) => ({text: text.textContent, box: text.getBoundingClientRect()}))
    .filter(({box}) => box.width > 0);
  return {svg: {left: svg.left, top: svg.top, right: svg.right, bottom: svg.bottom},
          labels: labels.map(({text, box}) => ({text, left: box.left + .5, top: box.top + .5,
                                                right: box.right - .5, bottom: box.bottom - .5}))};
}"""


def overlapping(labels):
    return [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


@pytest.mark.parametrize("chart", CHARTS)
def test_chart_labels_neither_overlap_nor_get_cut(page, chart):
    name, figure = CHARTS[chart]
    show(page, name)
    for width in WIDTHS:
        resize(page, width)
        expect(page.locator(f"{figure} svg")).to_be_visible()
        drawn = page.locator(figure).evaluate(LABEL_BOXES)
        labels, svg = drawn["labels"], drawn["svg"]
        assert len(labels) >= 5
        assert overlapping(labels) == [], f"{width} px"
        cut = [label["text"] for label in labels if label["left"] < svg["left"] or label["right"] > svg["right"]
               or label["top"] < svg["top"] or label["bottom"] > svg["bottom"]]
        assert cut == [], f"{width} px"


def test_chart_text_is_large_enough_to_read(page):
    show(page, "benchmark")
    for width in WIDTHS:
        resize(page, width)
        heights = page.locator("#histogram svg .tick").evaluate_all(
            "(ticks) => ticks.map((tick) => tick.getBoundingClientRect().height)")
        assert min(heights) >= 10, f"{width} px"  # the line box of a 9 px font or larger


@pytest.mark.parametrize("width", (390, 1280))
@pytest.mark.parametrize("path", ["/benchmark", "/compare"])
def test_file_inputs_and_selects_show_their_whole_text(page, path, width):
    resize(page, width)
    page.goto(path)
    expect(page.locator("#suite")).to_be_visible()
    room = page.evaluate("""() => {
      const measure = document.createElement('canvas').getContext('2d');
      const textWidth = (element, text) => { measure.font = getComputedStyle(element).font; return measure.measureText(text).width; };
      return [...document.querySelectorAll('select, input[type=file]')].map((element) => {
        const needed = element.tagName === 'SELECT'
          ? textWidth(element, element.options[element.selectedIndex].text) + 48   // padding and the arrow
          : textWidth(element, 'Choose Files') + textWidth(element, 'No file chosen') + 56;  // button padding, gap
        return {id: element.id, needed: Math.ceil(needed), width: element.clientWidth};
      });
    }""")
    assert [field for field in room if field["needed"] > field["width"]] == []


def test_undefined_rows_note_shows_only_with_an_undefined_row(page):
    page.goto("/?n=200&c=57&k=10")
    expect(page.locator("#k-table td.undefined")).to_have_count(0)
    expect(page.locator("#undefined-note")).to_have_count(0)
    page.goto("/?n=10&c=3&k=5")
    expect(page.locator("#k-table td.undefined")).not_to_have_count(0)
    expect(page.locator("#undefined-note")).to_contain_text("Rows with k > n are undefined")


@pytest.mark.parametrize("name, form, kept", [
    ("calculator", "#calculator", ["#pass-at-k", "#k-table", "#curve-chart svg", "#steps"]),
    ("benchmark", "#benchmark-form", ["#results-table", "#histogram svg", "#per-problem"]),
    ("compare", "#compare-form", ["#compare-table", "#difference-chart svg"]),
])
def test_print_shows_the_result_without_the_form(new_context, name, form, kept):
    page = new_context(color_scheme="dark").new_page()
    show(page, name)
    opened = {"calculator": "#steps-details", "benchmark": "#per-problem-section"}.get(name)
    if opened:   # a disclosure prints as the reader left it: open, with its content
        page.locator(f"{opened} > summary").click()
    page.emulate_media(media="print")
    expect(page.locator("#planning, #interval-method p").first).to_be_hidden()   # closed ones do not print
    for hidden in (form, "nav", ".site-footer", "main button:not(th button)"):
        for element in page.locator(hidden).all():
            expect(element).to_be_hidden()
    if name == "calculator":
        expect(page.locator(".learn")).to_be_hidden()
    for shown in kept:
        expect(page.locator(shown)).to_be_visible()
    body = contrast(page, "body")
    assert (body["ink"], body["paper"]) == ("rgb(0, 0, 0)", "rgb(255, 255, 255)")
    assert page.evaluate("getComputedStyle(document.querySelector('a'), '::after').content") in ("none", "normal")
