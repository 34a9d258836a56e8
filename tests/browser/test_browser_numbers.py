"""Numbers and the live form (issue 8 §1): one number style on every page, counts with separators
in titles, a submitted form whose address is its share link, and the live update that names what
is wrong while it is typed. Through the test client, then in Chromium with and without JavaScript.
"""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

EXAMPLE = "/?n=10&c=3&k=5"
HUGE = "/?n=1000000000000&c=1000000&k=1000000"


def title(html):
    return unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1)).strip()


def k_table_cells(html):
    """{k: (percentage, fraction)} of the single-problem table."""
    rows = re.findall(r'<tr data-k="(\d+)"[^>]*>.*?<td[^>]*>([^<]*)</td><td>([^<]*)</td>', html, re.S)
    return {int(k): (unescape(share), unescape(fraction)) for k, share, fraction in rows}


# --- through the test client -------------------------------------------------

def test_a_table_column_keeps_one_style_below_the_smallest_fixed_value(client):
    """pass@1 and pass@5 of n = 10⁶, c = 1 were '1 × 10⁻⁴%' beside '0.0005%'."""
    cells = k_table_cells(client.get("/?n=1000000&c=1&k=1&ks=5,1000").get_data(as_text=True))
    tied = "\u00a0×\u00a0"   # no line ends inside a number
    assert cells[1] == (f"1.00{tied}10⁻⁴%", f"1.00{tied}10⁻⁶")
    assert cells[5] == (f"5.00{tied}10⁻⁴%", f"5.00{tied}10⁻⁶")
    assert cells[10] == (f"1.00{tied}10⁻³%", f"1.00{tied}10⁻⁵")
    assert cells[100] == ("0.01%", "0.0001")
    assert cells[1000] == ("0.10%", "0.0010")


@pytest.mark.parametrize("path, expected", [
    (HUGE, "pass@1,000,000 = 63.21% (n=1,000,000,000,000, c=1,000,000) — passk"),
    ("/?n=1000000&c=1&k=1", "pass@1 = 1.00\u00a0×\u00a010⁻⁴% (n=1,000,000, c=1) — passk"),   # no line ends inside
    ("/embed?n=1000000000000&c=1000000&k=1000000", "pass@1,000,000 = 63.21% — passk"),
])
def test_titles_write_counts_with_thousands_separators(client, path, expected):
    assert title(client.get(path).get_data(as_text=True)) == expected


def test_the_benchmark_table_writes_a_tiny_fixed_se_in_the_one_scientific_style(client):
    text = "a 1000000000000 1\nb 1000000000000 2\nc 1000000000000 0\n"
    html = client.post("/benchmark", data={"text": text, "k": "1"}).get_data(as_text=True)
    row = re.search(r'<tr data-k="1">(.*?)</tr>', html, re.S).group(1)
    cells = [unescape(cell) for cell in re.findall(r"<td[^>]*>([^<]*)</td>", row)]
    assert cells[0] == "1.00 × 10⁻¹⁰%" and cells[1] == "5.77 × 10⁻¹¹%" and cells[3] == "6.06 × 10⁻¹¹%"
    # Three problems within a quarter problem's worth of 0 say little of problems like them: as three 0s would.
    assert cells[2] == "0% – 99.19%"
    per_problem = re.search(r'<table id="per-problem".*?</table>', html, re.S).group(0)
    assert "<td>1,000,000,000,000</td>" in per_problem


def test_the_compare_table_writes_se_and_p_value_by_the_same_rule(client):
    html = client.post("/compare", data={"text_a": "x,10,3\ny,10,5\nz,10,9\n", "text_b": "x,10,1\ny,10,5\nz,10,2\n",
                                         "k": "1"}).get_data(as_text=True)
    row = re.search(r'<tr data-k="1">(.*?)</tr>', html, re.S).group(1)
    cells = [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    assert cells[:4] == ["56.67%", "26.67%", "+30.00\u00a0pts", "20.82\u00a0pts"]   # a number keeps its unit
    assert re.fullmatch(r"[−+]\d+\.\d\d\xa0pts to [−+]\d+\.\d\d\xa0pts", cells[4])
    assert re.fullmatch(r"0\.\d\d\d", cells[5])   # three decimals, as every p-value on the page


@pytest.mark.parametrize("path, clean", [
    ("/?n=10&c=3&k=5&ks=", "/?n=10&c=3&k=5"),
    ("/?n=10&c=3&k=5&ks=+", "/?n=10&c=3&k=5"),
    ("/?n=010&c=3&k=05&ks=20,+2", "/?n=10&c=3&k=5&ks=2,20"),
    ("/?ks=", "/"),
    ("/?n=10&c=12&k=5&ks=", "/?n=10&c=12&k=5"),
    ("/embed?n=10&c=3&k=5&ks=", "/embed?n=10&c=3&k=5"),
    ("/embed?n=10&c=3&k=5&ks=&theme=dark", "/embed?n=10&c=3&k=5&theme=dark"),
])
def test_an_address_with_empty_or_unwritten_fields_is_sent_to_the_clean_one(client, path, clean):
    response = client.get(path)
    assert response.status_code == 303 and response.headers["Location"] == clean
    assert client.get(path, follow_redirects=True).get_data() == client.get(clean).get_data()


@pytest.mark.parametrize("path", ["/", EXAMPLE, "/?k=5&n=10&c=3", "/?n=10&c=3&k=5&ks=2,20", "/?n=&c=&k=",
                                  "/?n=&c=3&k=5", "/?n=10&c=3&k=5&ks=2&ks=3", "/embed?n=10&c=3&k=5&theme=dark"])
def test_a_clean_address_or_one_whose_empty_fields_are_the_message_is_answered_in_place(client, path):
    assert client.get(path).status_code in (200, 400)


def test_the_redirect_lands_on_the_share_link(client):
    response = client.get("/?n=10&c=3&k=5&ks=20,+2", follow_redirects=True)
    share = unescape(re.search(r'id="share-link" href="([^"]+)"', response.get_data(as_text=True)).group(1))
    assert urlsplit(share).query == response.request.query_string.decode() == "n=10&c=3&k=5&ks=2,20"


# --- in Chromium ----------------------------------------------------------------

def fill(page, **fields):
    for name, value in fields.items():
        page.locator(f"#{name}").fill(value)


def submit(page):
    with page.expect_navigation():
        page.get_by_role("button", name="Calculate").click()


def share_query(page):
    return urlsplit(page.locator("a#share-link").get_attribute("href")).query


@pytest.mark.browser
def test_a_column_of_tiny_values_keeps_one_style_in_the_browser(page):
    page.goto("/?n=1000000&c=1&k=1&ks=5")
    expect(page.locator('#k-table tr[data-k="1"] td').first).to_have_text("1.00 × 10⁻⁴%")
    expect(page.locator('#k-table tr[data-k="5"] td').first).to_have_text("5.00 × 10⁻⁴%")
    expect(page).to_have_title("pass@1 = 1.00 × 10⁻⁴% (n=1,000,000, c=1) — passk")


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("extra, query", [("", "n=10&c=3&k=5"), ("20, 2", "n=10&c=3&k=5&ks=2,20")])
def test_the_submitted_address_is_the_share_link(new_context, javascript, extra, query):
    page = new_context(java_script_enabled=javascript).new_page()
    page.goto("/")
    fill(page, n="10", c="3", k="5", ks=extra)
    submit(page)
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    assert urlsplit(page.url).query == query == share_query(page)


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_embed_form_sends_no_empty_fields(new_context, javascript):
    page = new_context(java_script_enabled=javascript).new_page()
    page.goto("/embed?n=10&c=3&k=1")
    fill(page, k="5")
    submit(page)
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    assert "ks" not in parse_qs(urlsplit(page.url).query, keep_blank_values=True)


LIVE_PROBLEMS = [
    # (field, typed, what the note says): every state the server refuses
    ("c", "12", "c must be from 0 to n (10): no more samples can pass than were generated; got 12."),
    ("k", "11", "k must be from 1 to n (10): you cannot draw more samples than you generated; got 11."),
    ("n", "", "Enter n (completions per problem): a whole number."),
    ("n", "ten", "n (completions per problem) must be a whole number written with digits only"),
    ("c", "2.5", "c (completions that passed) must be a whole number"),
    ("c", "-1", "got “-1”"),
    ("k", "0", "k (samples you draw) must be at least 1; got 0."),
    ("n", "10000000000000", "n (completions per problem) must be at most 1,000,000,000,000 (10^12)"),
    ("ks", "2, x", "Extra k values must be whole numbers from 1 to 10^12"),
]


@pytest.mark.browser
@pytest.mark.parametrize("field, typed, said", LIVE_PROBLEMS, ids=[f"{f}={t!r}" for f, t, _ in LIVE_PROBLEMS])
def test_the_live_update_names_the_problem_as_it_is_typed(page, field, typed, said):
    page.goto(EXAMPLE)
    page.evaluate("window.passkSamePage = true")   # a submit would load a new document and lose this mark
    fill(page, **{field: typed})
    note = page.locator("#result .stale-note")
    expect(note).to_contain_text(said)
    expect(page.locator("#result")).to_have_class(re.compile(r"\bstale\b"))
    expect(page.locator("#live-status")).to_contain_text(said)
    expect(page.locator(f"#{field}-error")).to_be_hidden()   # no alarm before a submit
    assert urlsplit(page.url).query == "n=10&c=3&k=5"

    fill(page, **{field: {"n": "10", "c": "3", "k": "5", "ks": ""}[field]})
    expect(note).to_have_count(0)
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    assert page.evaluate("window.passkSamePage") is True


@pytest.mark.browser
def test_both_problems_are_named_when_n_drops_below_c_and_k(page):
    page.goto(EXAMPLE)
    fill(page, n="2")
    note = page.locator("#result .stale-note")
    expect(note).to_contain_text("c must be from 0 to n (2)")
    expect(note).to_contain_text("k must be from 1 to n (2)")
    fill(page, n="200")
    expect(page.locator("#pass-at-k")).to_have_text("7.35%")
    expect(note).to_have_count(0)


@pytest.mark.browser
def test_on_a_page_sent_with_errors_the_field_messages_follow_the_typing(page):
    response = page.goto("/?n=10&c=12&k=5")
    assert response.status == 400
    expect(page.locator("#c-error")).to_contain_text("got 12")
    fill(page, c="13")
    expect(page.locator("#c-error")).to_contain_text("got 13")
    fill(page, c="3")
    expect(page.locator("#pass-at-k")).to_have_text("91.67%")
    expect(page.locator("#c-error")).to_be_hidden()
    expect(page.locator("#c")).not_to_have_attribute("aria-invalid", "true")


@pytest.mark.browser
def test_the_embed_names_the_problem_as_it_is_typed(page):
    page.goto("/embed?n=10&c=3&k=5")
    fill(page, c="12")
    expect(page.locator("#result .stale-note")).to_contain_text("c must be from 0 to n (10)")
    fill(page, c="4")
    expect(page.locator("#pass-at-k")).to_have_text(re.compile(r"\d+\.\d\d%"))
    expect(page.locator("#result .stale-note")).to_have_count(0)


@pytest.mark.browser
def test_the_live_address_is_the_share_link(page):
    page.goto(EXAMPLE)
    fill(page, ks="20, 2")
    expect(page.locator('#k-table tr[data-k="2"]')).to_contain_text("53.33%")
    expect(page).to_have_url(re.compile(r"\?n=10&c=3&k=5&ks=2,20$"))
    assert urlsplit(page.url).query == share_query(page)
    fill(page, ks="")
    expect(page.locator('#k-table tr[data-k="2"]')).to_have_count(0)
    expect(page).to_have_url(re.compile(r"\?n=10&c=3&k=5$"))
    assert urlsplit(page.url).query == share_query(page)
