"""Accessibility in a real Chromium: axe-core finds nothing, the keyboard reaches everything with a
visible focus ring, results are announced politely, and every chart says what it shows.

axe-core (bundled with axe-playwright-python) runs every rule it runs by default:
WCAG 2 A and AA (contrast included) and its best practices.
"""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from browsing import compare_pasted
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RUN_A = "HumanEval/0,10,3\nHumanEval/1,10,5\nHumanEval/2,10,10\nHumanEval/3,10,1\n"
RUN_B = "HumanEval/0,10,1\nHumanEval/1,10,5\nHumanEval/2,10,7\nHumanEval/4,10,2\n"


def open_single(page):
    page.goto("/?n=10&c=3&k=5&ks=2,20")
    expect(page.locator("#pass-at-k")).to_be_visible()


def open_benchmark_result(page):
    page.goto("/benchmark?counts=10:0,10:3*2,10:7,10:10*2,200:57&k=1,5,20")
    expect(page.locator("#results-table")).to_be_visible()


def open_compare_result(page):
    compare_pasted(page, RUN_A, RUN_B)


def open_embed(page):
    page.goto("/embed?n=10&c=3&k=5")
    expect(page.locator("#pass-at-k")).to_be_visible()


PAGES = {
    "single": open_single,
    "benchmark-empty": lambda page: page.goto("/benchmark"),
    "benchmark-result": open_benchmark_result,
    "compare-result": open_compare_result,
    "embed": open_embed,
}


def violations(page):
    """axe's violations, one readable line per rule: id, impact, the first few elements and the fix."""
    found = Axe().run(page).response["violations"]
    return [f"{rule['id']} ({rule['impact']}): {[node['target'] for node in rule['nodes'][:3]]} "
            f"{rule['nodes'][0].get('failureSummary', '')!r}" for rule in found]


def violations_in_both_schemes(page):
    """{scheme: violations} with the page shown light, then dark (the same page, no reload)."""
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found[scheme] = violations(page)
    return found


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_violations_in_either_scheme(page, name):
    PAGES[name](page)
    assert violations_in_both_schemes(page) == {"light": [], "dark": []}


def test_axe_finds_no_violations_in_the_embed_themed_over_the_readers_scheme(page):
    for theme in ("dark", "light"):
        page.goto(f"/embed?n=10&c=3&k=5&theme={theme}")
        expect(page.locator("#pass-at-k")).to_be_visible()
        assert violations_in_both_schemes(page) == {"light": [], "dark": []}, theme


FOCUS_RING = """element => {
    const style = getComputedStyle(element);
    return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? style.outlineColor : null;
}"""


def tab_to(page, element_id, presses=15):
    """Press Tab until the element with this id has the focus; the ids passed on the way."""
    passed = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id || document.activeElement.tagName")
        passed.append(focused)
        if focused == element_id:
            return passed
    raise AssertionError(f"Tab never reached #{element_id}: {passed}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_calculator_form_is_worked_by_keyboard_with_a_visible_focus_ring(new_context, scheme):
    page = new_context(color_scheme=scheme).new_page()
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box and box["x"] >= 0 and box["y"] >= 0, "the skip link shows when it has the focus"

    tab_to(page, "n")
    rings = {}
    for name, value in (("n", "10"), ("c", "3"), ("k", "5"), ("ks", "2")):
        field = page.locator(f"#{name}")
        expect(field).to_be_focused()
        rings[name] = field.evaluate(FOCUS_RING)
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    button = page.get_by_role("button", name="Calculate")
    expect(button).to_be_focused()
    rings["Calculate"] = button.evaluate(FOCUS_RING)
    assert None not in rings.values(), f"no visible outline on {[name for name, ring in rings.items() if not ring]}"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background not in rings.values()

    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"[?&]k=5(&|$)"))
    expect(page.locator('#k-table tr[data-k="2"]')).to_be_visible()


def test_copy_buttons_and_sorting_are_reached_by_keyboard_with_a_ring(page):
    open_benchmark_result(page)
    page.locator("#benchmark-heading").focus()
    tab_to(page, "BUTTON", presses=30)   # the first button after the heading: Copy link
    copy = page.get_by_role("button", name="Copy link")
    expect(copy).to_be_focused()
    assert copy.evaluate(FOCUS_RING)
    page.locator("#per-problem-section > summary").press("Enter")   # the disclosure opens from the keyboard
    sort = page.locator("#per-problem thead button").first
    sort.focus()
    assert sort.evaluate(FOCUS_RING)
    page.keyboard.press("Enter")
    expect(page.locator("#per-problem thead th").first).to_have_attribute("aria-sort", "ascending")


def test_a_new_result_is_announced_politely(page):
    page.goto("/?n=10&c=3&k=1")
    status = page.locator("#live-status")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_have_attribute("role", "status")
    page.locator("#k").select_text()
    page.locator("#k").press_sequentially("5")
    expect(status).to_contain_text("pass@5")


def test_the_embed_announces_its_result_politely(page):
    page.goto("/embed?n=10&c=3&k=1")
    expect(page.locator("#result")).to_have_attribute("aria-live", "polite")
    status = page.locator("#live-status")
    expect(status).to_have_attribute("aria-live", "polite")
    page.locator("#k").select_text()
    page.locator("#k").press_sequentially("5")
    expect(status).to_contain_text("pass@5")


def test_the_benchmark_upload_says_its_progress_politely(page):
    page.goto("/benchmark")
    expect(page.locator("#upload-status")).to_have_attribute("aria-live", "polite")


CHARTS = [
    ("single", "#curve-chart svg"),
    ("benchmark-result", "#histogram svg"),
    ("compare-result", "#difference-chart svg"),
]


@pytest.mark.parametrize("name, chart", CHARTS)
def test_every_chart_has_a_text_alternative(page, name, chart):
    PAGES[name](page)
    charts = page.locator("figure svg")
    expect(charts.first).to_be_visible()
    expect(page.locator(chart)).to_have_count(1)
    for index in range(charts.count()):
        svg = charts.nth(index)
        expect(svg).to_have_attribute("role", "img")
        # The title and the description name it together (aria-labelledby): what it shows, with numbers.
        expect(svg).to_have_accessible_name(re.compile(r"\w{3}.*\d"))
