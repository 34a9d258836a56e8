"""Copy buttons: what lands on the clipboard, the fallback without the clipboard API, and no buttons without script.

The texts are the server's (passk.writing.paper writes the Markdown and LaTeX rows for
the pages and the command line alike); the script only copies them.
"""

import re

import pytest
from playwright.sync_api import expect

from passk.writing import paper
from passk.writing.report import report_from_share

pytestmark = pytest.mark.browser

COUNTS, KS = "10:0,10:3*2,10:7,10:10*2,200:57", [1, 5, 20]


@pytest.fixture
def clipboard_page(new_context):
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    return context.new_page()


def copied(page, button_name):
    """Click the copy button so named, first opening the disclosure it waits behind as a reader would (a click on
    its summary); return what the clipboard then holds."""
    button = page.locator("button.copy").filter(has_text=re.compile(f"^{re.escape(button_name)}$"))
    closed = page.locator("details:not([open])").filter(has=button)
    if closed.count():
        closed.locator("summary").click()
    page.get_by_role("button", name=button_name, exact=True).click()
    expect(page.locator("#copy-status")).to_have_text(re.compile(r"^Copied"))
    return page.evaluate("navigator.clipboard.readText()")


def test_the_single_problem_page_copies_value_link_rows_and_snippet(clipboard_page, live_server):
    page = clipboard_page
    page.goto("/?n=10&c=3&k=5")
    assert copied(page, "Copy value") == page.locator("#pass-at-k").inner_text()
    assert copied(page, "Copy link") == f"{live_server}/?n=10&c=3&k=5"
    assert copied(page, "Copy Markdown row") == "| 5 | 91.67 |"
    assert copied(page, "Copy LaTeX row") == r"5 & 91.67 \\"
    snippet = copied(page, "Copy snippet")
    assert snippet == page.locator("#embed-snippet").input_value()
    assert snippet.startswith(f'<iframe src="{live_server}/embed?n=10&c=3&k=5&theme=auto"')
    expect(page.locator("#copy-status")).to_have_attribute("aria-live", "polite")


def test_the_copied_rows_follow_the_live_update(clipboard_page):
    page = clipboard_page
    page.goto("/?n=10&c=3&k=1")
    page.locator("#k").select_text()
    page.locator("#k").press_sequentially("5")
    expect(page.locator("#markdown-row")).to_have_text("| 5 | 91.67 |")
    assert copied(page, "Copy Markdown row") == "| 5 | 91.67 |"


def test_the_benchmark_page_copies_a_row_per_k_with_its_interval(clipboard_page):
    page = clipboard_page
    page.goto(f"/benchmark?counts={COUNTS}&k={','.join(map(str, KS))}")
    _, rows = paper.interval_rows(report_from_share(COUNTS, None, KS))
    markdown = copied(page, "Copy Markdown rows")
    assert markdown == paper.markdown_rows(rows)
    assert markdown.splitlines()[0] == "| 1 | 51.21 | [18.14, 83.48] |"   # (0 + .3 + .3 + .7 + 1 + 1 + .285) / 7
    assert markdown.splitlines()[2].startswith("| 20 | — |")   # k = 20 > n = 10 for six problems
    latex = copied(page, "Copy LaTeX rows")
    assert latex == paper.latex_rows(rows) and latex.splitlines()[0] == r"1 & 51.21 & [18.14, 83.48] \\"
    assert copied(page, "Copy link").startswith("http")


def test_without_the_clipboard_api_the_text_is_selected_for_copying(new_context):
    context = new_context()
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page = context.new_page()
    page.goto("/?n=10&c=3&k=5")
    page.get_by_text("Rows for a paper's table").click()
    page.get_by_role("button", name="Copy LaTeX row").click()
    expect(page.locator("#copy-status")).to_have_text(re.compile(r"(Copied|press Ctrl\+C to copy the) LaTeX row"))
    assert page.evaluate("getSelection().toString()") == r"5 & 91.67 \\"


def test_without_script_there_are_no_copy_buttons_but_the_texts_are_there(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/?n=10&c=3&k=5")
    expect(page.locator("#markdown-row")).to_have_text("| 5 | 91.67 |")
    expect(page.locator("button.copy").first).to_be_attached()
    for index in range(page.locator("button.copy").count()):
        expect(page.locator("button.copy").nth(index)).to_be_hidden()
