"""The static calculator of `passk export-html`, opened from file:// in Chromium with the network off.

Its script computes pass@k in the browser; here it is checked against exact
values on thousands of (n, c, k) up to n = 10^12 (exact fractions, or mpmath
at 60 digits), its sentences for bad input against the server's own
(web.query), and its chart against the server's (passk.writing.charts).
"""

import functools
import math
import random
import threading
from fractions import Fraction
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import mpmath
import pytest
from playwright.sync_api import expect

from passk.results import calculator

from passk.writing import charts

from passk.maths import estimator
from passk.writing.display import fraction, pass_percent, percent
from passk.export import export_html
from passk.web.query import read_query

CASES = 4000
RELATIVE = 1e-15   # the JS estimator against the exact value
ORIGINAL = "200", "37", "10"
SMALLEST_NORMAL = 2.0 ** -1022


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The folder written by export_html, and the file:// address of its page."""
    folder = tmp_path_factory.mktemp("static-calculator")
    export_html(folder)
    return (folder / "index.html").as_uri()


class Offline:
    """A browser context with the network off, which records every request and aborts any not for a file
    (or, with origin, any not for a file or that origin: a local server, which needs the network on)."""

    def __init__(self, browser, origin=None):
        self.context = browser.new_context()
        self.context.set_offline(origin is None)
        self.allowed = ("file://",) if origin is None else ("file://", origin + "/")
        self.requests, self.aborted, self.problems = [], [], []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.route("**/*", self._files_only)
        self.context.on("console", lambda message: message.type == "error" and self.problems.append(message.text))
        self.context.on("weberror", lambda error: self.problems.append(str(error.error)))

    def _files_only(self, route):
        if route.request.url.startswith(self.allowed):
            route.continue_()
        else:
            self.aborted.append(route.request.url)
            route.abort()

    def assert_clean(self):
        assert self.aborted == [] and [url for url in self.requests if not url.startswith(self.allowed)] == []
        assert self.problems == [], "script errors or Content-Security-Policy violations"


@pytest.fixture
def offline(browser):
    watch = Offline(browser)
    yield watch
    watch.context.close()
    watch.assert_clean()


@pytest.fixture
def page(offline, exported):
    page = offline.context.new_page()
    page.goto(exported)
    return page


def counts(seed=19, size=CASES):
    """(n, c, k) over every scale up to 10^12: uniform c and k, small ones, log-spread ones, and the edges."""
    rng = random.Random(seed)
    cases = []
    for _ in range(size):
        n = max(1, int(10 ** rng.uniform(0, 12)))
        spread = lambda: min(n, int(10 ** rng.uniform(0, math.log10(n))))   # noqa: E731
        c = rng.choice([rng.randint(0, n), rng.randint(0, min(n, 100)), spread()])
        k = rng.choice([rng.randint(1, n), rng.randint(1, min(n, 100)), max(1, spread())])
        cases.append((n, c, k))
    top = estimator.MAX_N
    short = estimator.SHORT_PRODUCT
    cases += [(top, 1, 1), (top, 2, 2), (top, short, short), (top, short + 1, short + 1), (top, 10**6, 10**6),
              (top, top // 2, 40), (top, top - 700, 36), (top, 1, top), (top, top, 1), (top, 0, top),
              (2 * short + 2, short + 1, short + 1), (10**9, 10**5, 10**9 - 10**5), (10**4, 5000, 5000)]
    return cases


def exact_pass_at_k(n, c, k):
    """pass@k exactly: a Fraction for n up to 2,000, else mpmath's log-gamma at 60 digits."""
    if c == 0 or n - c < k:
        return mpmath.mpf(int(c > 0))
    if n <= 2000:
        value = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
        return mpmath.mpf(value.numerator) / value.denominator
    with mpmath.workdps(60):
        log = mpmath.loggamma(n - c + 1) + mpmath.loggamma(n - k + 1) - mpmath.loggamma(n + 1) \
            - mpmath.loggamma(n - c - k + 1)
        return -mpmath.expm1(log)


def relative_difference(value, exact):
    return float(abs(mpmath.mpf(value) - exact) / exact) if exact else abs(value)


def test_the_estimator_in_the_browser_agrees_with_exact_values_to_1e_15(page):
    cases = counts()
    values = page.evaluate("cases => cases.map(([n, c, k]) => passk.passAtK(n, c, k))", cases)
    with mpmath.workdps(60):
        differences = [relative_difference(value, exact_pass_at_k(*case)) for case, value in zip(cases, values)]
    worst = max(range(len(cases)), key=differences.__getitem__)
    print(f"{len(cases)} cases; largest relative difference {differences[worst]:.3g} at (n, c, k) = {cases[worst]}")
    assert len(cases) >= 3000 and differences[worst] <= RELATIVE, cases[worst]
    # Python's estimator loses up to about 1e-15 where Stirling's three log1p terms nearly cancel; the script
    # sums their linear parts in closed form there, so it is never further from Python than that.
    python = [estimator.pass_at_k(*case) for case in cases]
    assert max(relative_difference(value, mpmath.mpf(theirs)) for value, theirs in zip(values, python)) < 2e-15


def test_pass_hat_k_and_the_cross_check_agree_with_python(page):
    cases = counts(seed=5, size=600)
    found = page.evaluate("cases => cases.map(([n, c, k]) => [passk.passHatK(n, c, k), passk.fallingRatio(n, c, k)])",
                          cases)
    with mpmath.workdps(60):
        for (n, c, k), (hat, cross) in zip(cases, found):
            exact = mpmath.mpf(0) if c < k else mpmath.exp(mpmath.loggamma(c + 1) - mpmath.loggamma(c - k + 1)
                                                           - mpmath.loggamma(n + 1) + mpmath.loggamma(n - k + 1))
            # exp() turns L's rounding into a relative error of about 1e-16 |L| (estimator.miss_chance)
            if exact < SMALLEST_NORMAL:   # below the doubles' full precision, down to 0
                assert hat < SMALLEST_NORMAL, (n, c, k)
            else:
                assert relative_difference(hat, exact) <= 1e-15 * (1 + float(abs(mpmath.log(exact)))), (n, c, k)
            theirs = estimator.falling_ratio(n, c, k)
            assert (cross is None) == (theirs is None), (n, c, k)
            assert theirs is None or abs(cross - theirs) <= 4e-16 * max(abs(theirs), 1e-300), (n, c, k)


def test_numbers_are_written_as_the_server_writes_them(page):
    rng = random.Random(3)
    values = [0.0, 1.0, 11 / 12, 1e-5, 0.9999999, 8.66e-13, 3.77e-23, 1 / 32, 0.125, 0.99995, 0.999999999999, 1e-4,
              9.995e-5, 0.5, 5e-324, 1e16, 1234567890123456.0, 0.1 + 0.2, 1 - 2**-53,
              *(10 ** rng.uniform(-30, 0) for _ in range(300)), *(1 - 10 ** rng.uniform(-16, -1) for _ in range(300))]
    written = page.evaluate("values => values.map(v => [passk.percent(v), passk.fraction(v), passk.full(v)])", values)
    assert written == [[percent(value), fraction(value), repr(value)] for value in values]


def test_a_user_fills_the_form_with_the_keyboard_and_gets_the_result_and_a_link(page, exported):
    page.get_by_label("n samples").focus()
    page.keyboard.press("Control+A")
    for value in ORIGINAL:
        page.keyboard.type(value)
        page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
    page.get_by_label("Extra k values").fill("2, 20")
    page.keyboard.press("Enter")
    expect(page.locator("#pass-at-k")).to_have_text("87.74%")
    calc = calculator.calculate(200, 37, 10, [2, 20])
    expect(page.locator("#pass-at-k")).to_have_attribute("title", repr(calc.pass_at_k))
    expect(page.locator("#cross-check .big")).to_have_text("87.74%")
    expect(page.locator("#agreeing-digits")).to_have_text(str(calc.agreeing_digits))
    expect(page.locator("#k-table-body th")).to_have_text([f"pass@{row.k}" for row in calc.table])
    expect(page.locator("#live-status")).to_have_text("pass@10 = 87.74% (n=200, c=37)")
    # The exported script keeps the float log form (docs/static-calculator.md: within 1e-15 relative), where the
    # library's pass^k is correctly rounded: the two may differ in the last place, no more.
    shown = float(page.locator("#pass-hat-k .big").get_attribute("title"))
    assert math.isclose(shown, calc.pass_hat_k, rel_tol=1e-15, abs_tol=0.0)
    assert page.url == exported + "?n=200&c=37&k=10&ks=2%2C20"


def test_a_link_with_numbers_opens_with_its_result(page, exported):
    page.goto(exported + "?n=200&c=37&k=10")
    expect(page.locator("#pass-at-k")).to_have_text("87.74%")
    expect(page.get_by_label("n samples")).to_have_value("200")
    expect(page.locator("#k-table-body tr.chosen th")).to_have_text("pass@10")
    page.goto(exported)   # no numbers: the server's example
    expect(page.locator("#pass-at-k-label")).to_have_text("pass@1")
    expect(page.locator("#pass-at-k")).to_have_text("30.00%")


BAD_INPUT = [
    {"n": "", "c": "3", "k": "1", "ks": ""},
    {"n": "ten", "c": "-1", "k": "1.5", "ks": "2, x"},
    {"n": "10000000000000", "c": "3", "k": "0", "ks": ",".join(["2"] * 21)},
    {"n": "10", "c": "11", "k": "12", "ks": "0"},
    {"n": "00200", "c": "2\u0007", "k": "3" * 50, "ks": "10000000000001"},
    {"n": " 200\t", "c": "\u00a037", "k": " 10 ", "ks": "2\u00a020, 5\u2028"},
]


FIELD_STATE = """() => ["n", "c", "k", "ks"].map(name => [document.getElementById(name).value,
    document.getElementById(name + "-error").textContent, document.getElementById(name + "-error").hidden])"""


def test_bad_input_is_refused_with_the_servers_sentences(page):
    for fields in BAD_INPUT:
        for name, value in fields.items():
            page.locator(f"#{name}").fill(value)
        page.get_by_role("button", name="Calculate").click()
        errors = read_query({name: [value] for name, value in fields.items()}).errors
        fields_wrong = f"{len(errors)} field{'s' if len(errors) > 1 else ''}"
        expect(page.locator("#form-summary")).to_have_text(f"Please fix {fields_wrong} below.")
        expect(page.locator("#result")).to_be_hidden()
        # each field keeps what was typed, and shows the server's sentence for it, or none
        assert page.evaluate(FIELD_STATE) == [[value, errors.get(name, ""), name not in errors]
                                              for name, value in fields.items()]
    first = next(name for name in ("n", "c", "k", "ks") if name in errors)
    expect(page.locator(f"#{first}")).to_be_focused()   # the first field in error takes the focus


def test_while_typing_a_result_stays_marked_out_of_date_under_the_servers_sentence(page, exported):
    page.goto(exported + "?n=200&c=37&k=10")
    page.get_by_label("c passed").fill("201")
    sentence = read_query({"n": ["200"], "c": ["201"], "k": ["10"]}).errors["c"]
    expect(page.locator("#stale-note")).to_have_text(f"Not updated: {sentence} The result below is for the last "
                                                     "numbers that made one.")
    expect(page.locator("#result")).to_have_class("result stale")
    expect(page.locator("#pass-at-k")).to_have_text("87.74%")
    page.get_by_label("c passed").fill("57")
    expect(page.locator("#stale-note")).to_be_hidden()
    expect(page.locator("#pass-at-k")).to_have_text(pass_percent(estimator.pass_at_k(200, 57, 10), 200, 57, 10))
    assert page.url == exported + "?n=200&c=57&k=10"


def test_a_field_given_twice_in_a_link_is_refused_as_the_server_refuses_it(page, exported):
    page.goto(exported + "?n=10&n=20&c=3&k=1")
    expect(page.locator("#n-error")).to_have_text(read_query({"n": ["10", "20"], "c": ["3"], "k": ["1"]}).errors["n"])


CHARTED = [(200, 37, 10), (7, 3, 2), (10**12, 123456, 10**6), (1, 1, 1), (60, 0, 60), (10**5, 99_000, 500)]


def test_the_chart_is_the_servers_chart(page):
    drawn = page.evaluate("cases => cases.map(([n, c, k]) => passk.curveChart(passk.calculate(n, c, k)))", CHARTED)
    for counts, ours in zip(CHARTED, drawn):
        chart = charts.curve_chart(calculator.calculate(*counts))
        assert [(label["text"], label["anchor"], label["x"], label["y"], label["dy"]) for label in
                ours["yTicks"] + ours["xTicks"] + [ours["axisLabel"]]] == \
            [(label.text, label.anchor, label.x, label.y, label.dy) for label in chart.labels], counts
        assert ours["marker"] == list(chart.marker) and ours["description"] == chart.description, counts
        for path, theirs in ((ours["unbiasedPath"], chart.unbiased_path), (ours["biasedPath"], chart.biased_path)):
            points, expected = (path[1:].split(" L"), theirs[1:].split(" L"))
            assert len(points) == len(expected), counts
            assert all(abs(float(a) - float(b)) <= 0.1 + 1e-9   # a value drawn at a tenth's rounding boundary
                       for point, other in zip(points, expected) for a, b in zip(point.split(","), other.split(","))), \
                counts


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_the_folder_works_in_an_mkdocs_site_as_docs_static_calculator_md_says(browser, tmp_path):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nTry the [pass@k calculator](calculator/index.html).\n")
    (tmp_path / "docs" / "usage.md").write_text(
        '# Usage\n\n<iframe src="../calculator/index.html?n=200&c=37&k=10" title="pass@k calculator" '
        'width="100%" height="1900" loading="lazy"></iframe>\n')
    export_html(tmp_path / "docs" / "calculator")
    (tmp_path / "mkdocs.yml").write_text("site_name: Our docs\ntheme:\n  name: material\n  font: false\nplugins: []\n")
    build(load_config(str(tmp_path / "mkdocs.yml"), strict=True))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietFiles, directory=tmp_path / "site"))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_port}"
    watch = Offline(browser, origin)
    try:
        page = watch.context.new_page()
        page.goto(origin + "/usage/")
        expect(page.frame_locator("iframe").locator("#pass-at-k")).to_have_text("87.74%")
        page.goto(origin + "/")
        page.get_by_role("link", name="pass@k calculator").click()
        expect(page.locator("#pass-at-k")).to_have_text("30.00%")
    finally:
        watch.context.close()
        server.shutdown()
        server.server_close()
    watch.assert_clean()
