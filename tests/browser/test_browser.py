"""The single-problem page in a real Chromium, served by the live app.

Every test here also runs under the watch in conftest.py: no request to any
host but the live server, no uncaught script error, no CSP violation.
"""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# n=10, c=3, k=5: the paper's worked example, 1 - C(7,5)/C(10,5) = 11/12.
EXAMPLE = "/?n=10&c=3&k=5"


def fill_calculator(page, **fields):
    for name, value in fields.items():
        page.locator(f"#{name}").fill(value)


def submit(page, action):
    """Do `action`, which submits the form, and return the new document's response.

    Waits for the document request itself: with JavaScript on, the live update
    also changes the URL (history.replaceState), which is no submission. An
    address the server rewrites (an empty ks, say) is answered by a redirect
    first: the document is the answer at the end of it.
    """
    with page.expect_response(lambda response: response.request.is_navigation_request()
                              and not 300 <= response.status < 400) as document:
        action()
    return document.value


def expect_example_result(page):
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    expect(page.locator("#pass-at-k-fraction")).to_contain_text("0.9167")
    expect(page.locator("#pass-at-1")).to_have_text("30.00%")
    expect(page.locator("#exact")).to_have_text("11/12")
    expect(page.locator("#cross-check")).to_be_visible()


def test_first_visit_shows_the_default_calculation(page):
    page.goto("/")
    expect(page.locator("#n")).to_have_value("10")
    expect(page.locator("#c")).to_have_value("3")
    expect(page.locator("#k")).to_have_value("1")
    expect(page.locator("#pass-at-k")).to_have_text("30.00%")
    for name in ("n", "c", "k", "ks"):
        expect(page.locator(f"label[for={name}]")).to_be_visible()
    mode_switch = page.get_by_role("navigation").filter(has=page.get_by_role("link", name="Benchmark"))
    expect(mode_switch.get_by_role("link", name="Single problem")).to_have_attribute("href", "/")
    expect(mode_switch.get_by_role("link", name="Benchmark")).to_have_attribute("href", "/benchmark")


def test_submitting_the_form_shows_the_result_and_table(page):
    page.goto("/")
    fill_calculator(page, n="10", c="3", k="5", ks="2, 20")
    response = submit(page, page.get_by_role("button", name="Calculate").click)
    assert response.status == 200

    expect(page).to_have_url(re.compile(r"[?&]k=5(&|$)"))
    expect_example_result(page)
    table = page.locator("#k-table")
    expect(table.locator('tr[data-k="5"]')).to_contain_text("91.67%")
    expect(table.locator('tr[data-k="2"]')).to_contain_text("53.33%")
    expect(table.locator('tr[data-k="20"]')).to_contain_text("n < k")
    expect(table.locator('tr[data-k="100"]')).to_contain_text("n < k")


def test_form_works_without_javascript(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/")
    fill_calculator(page, n="10", c="3", k="5")
    response = submit(page, page.get_by_role("button", name="Calculate").click)
    assert response.status == 200
    expect(page).to_have_url(re.compile(r"[?&]k=5(&|$)"))
    expect_example_result(page)


def test_shared_link_reproduces_the_result(page, live_server):
    page.goto(EXAMPLE)
    expect_example_result(page)

    share_link = page.locator("a#share-link")
    href = urlsplit(share_link.get_attribute("href"))
    assert href.path == "/"
    assert parse_qs(href.query) == {"n": ["10"], "c": ["3"], "k": ["5"]}

    page.goto("/?n=20&c=1&k=1")
    page.goto(f"{live_server}/?{href.query}")
    expect_example_result(page)


@pytest.mark.parametrize(("field", "query"), [
    ("n", "n=ten&c=3&k=5"),
    ("c", "n=10&c=11&k=5"),
    ("k", "n=10&c=3&k=0"),
])
def test_bad_value_shows_an_alert_and_keeps_the_other_values(page, field, query):
    response = page.goto(f"/?{query}")
    assert response.status == 400

    error = page.locator(f"#{field}-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_be_visible()
    expect(error).not_to_be_empty()
    submitted = parse_qs(query)
    for name in ("n", "c", "k"):
        expect(page.locator(f"#{name}")).to_have_value(submitted[name][0])
        if name != field:
            expect(page.locator(f"#{name}-error")).to_be_hidden()


def test_k_larger_than_n_is_refused_through_the_form(page):
    page.goto("/")
    fill_calculator(page, n="4", c="1", k="5")
    response = submit(page, page.get_by_role("button", name="Calculate").click)
    assert response.status == 400
    expect(page.locator("#k-error")).to_be_visible()
    expect(page.locator("#n")).to_have_value("4")
    expect(page.locator("#c")).to_have_value("1")


def test_keyboard_alone_reaches_the_result(page):
    page.goto("/")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "n":
            break
    expect(page.locator("#n")).to_be_focused()

    for value in ("10", "3", "5"):
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type(value)
        if value != "5":
            page.keyboard.press("Tab")
    submit(page, lambda: page.keyboard.press("Enter"))

    expect(page).to_have_url(re.compile(r"[?&]k=5(&|$)"))
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")


def test_typing_updates_the_result_without_submitting(page):
    page.goto("/?n=10&c=3&k=1")
    expect(page.locator("#pass-at-k")).to_have_text("30.00%")
    # A submit would load a new document and lose this mark.
    page.evaluate("window.passkSamePage = true")

    page.locator("#k").select_text()
    page.locator("#k").press_sequentially("5")

    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    expect(page.locator('#k-table tr[data-k="5"]')).to_contain_text("91.67%")
    expect(page).to_have_url(re.compile(r"[?&]k=5(&|$)"))
    assert page.evaluate("window.passkSamePage") is True


def test_page_requests_nothing_from_other_hosts(page, page_watch, live_server):
    page.goto(EXAMPLE, wait_until="load")
    page.locator("#k").select_text()
    page.locator("#k").press_sequentially("2")
    expect(page.locator("#pass-at-k")).to_have_text("53.33%")

    assert page_watch.requests, "the watch saw no request at all"
    assert page_watch.foreign_requests == []
    assert all(url.startswith(live_server + "/") for url in page_watch.requests)


def test_page_logs_no_console_errors_or_csp_violations(page, page_watch):
    page.goto(EXAMPLE, wait_until="load")
    page.locator("#c").select_text()
    page.locator("#c").press_sequentially("4")
    expect(page.locator("#pass-at-1")).to_have_text("40.00%")

    assert page_watch.csp_violations == []
    assert page_watch.console_errors == []
    assert page_watch.page_errors == []


def test_half_typed_input_keeps_the_last_result_without_alarms(page):
    page.goto("/?n=10&c=3&k=5")
    page.evaluate("window.passkSamePage = true")
    page.locator("#n").fill("2")            # on the way to 200: c and k are now above n
    expect(page.locator("#result")).to_have_class(re.compile(r"\bstale\b"))
    expect(page.locator("#c-error")).to_be_hidden()
    expect(page.locator("#k-error")).to_be_hidden()
    expect(page).to_have_url(re.compile(r"n=10&"))
    page.locator("#n").fill("200")
    expect(page.locator("#result")).not_to_have_class(re.compile(r"\bstale\b"))
    expect(page.locator("#pass-at-k")).to_have_text("7.35%")
    expect(page.locator("#live-status")).to_have_text(re.compile(r"pass@5 = 7.35%"))
    assert page.evaluate("window.passkSamePage") is True
