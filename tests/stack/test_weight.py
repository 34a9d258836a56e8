"""Page weight through the production stack (nginx in front of gunicorn), as a browser loads it.

Every response of a page load is recorded in Chromium and its bytes on the
wire (headers and the encoded body) summed: each page, with a fresh cache,
stays within BUDGET, and asks nothing of any other origin. nginx gzips text
for clients that accept it, including answers it serves from its cache.
"""

import gzip
import http.client
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from deploy.stack import find_executable
from where import ROOT

BUDGET = 60_000   # bytes transferred for a page and everything it loads
EXAMPLE_FILE = ROOT / "examples" / "samples.jsonl_results.jsonl"
TEXT_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
              "application/json")

pytestmark = pytest.mark.skipif(
    not find_executable("nginx"),
    reason="the production stack needs nginx; scripts/test.sh installs it")


class Transfer:
    """The requests of one browser context, refused (and listed) when they leave the stack's origin."""

    def __init__(self, context, origin):
        self.origin, self.requests, self.foreign = origin, [], []
        context.route("**/*", self._route)
        context.on("requestfinished", lambda request: self.requests.append(request))

    def _route(self, route):
        parts = urlsplit(route.request.url)
        if f"{parts.scheme}://{parts.netloc}" == self.origin:
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def responses(self):
        """[(url, content type, bytes on the wire, bytes decoded, content-encoding)] of every finished request."""
        rows = []
        for request in self.requests:
            response = request.response()
            sizes = request.sizes()
            headers = response.headers
            rows.append((request.url, headers.get("content-type", "").split(";")[0],
                         sizes["responseHeadersSize"] + sizes["responseBodySize"],
                         sizes["responseHeadersSize"] + len(response.body()), headers.get("content-encoding")))
        return rows

    def check(self):
        """(bytes on the wire, bytes had nothing been compressed); fails on foreign requests or plain text."""
        assert self.foreign == [], "requests to other origins"
        rows = self.responses()
        assert rows and all(url.startswith(self.origin + "/") for url, *_ in rows)
        plain = [(url, size) for url, kind, size, _, encoding in rows
                 if kind in TEXT_TYPES and size > 2000 and encoding != "gzip"]
        assert plain == [], "text sent without gzip to a browser that accepts it"
        wire, decoded = sum(row[2] for row in rows), sum(row[3] for row in rows)
        assert wire <= BUDGET, f"{wire:,} bytes over the {BUDGET:,} budget: {rows}"
        return wire, decoded


@pytest.fixture
def fresh(browser, stack):
    """(page, Transfer) in a new browser context: nothing cached."""
    contexts = []

    def open_page():
        context = browser.new_context()
        contexts.append(context)
        transfer = Transfer(context, stack.url)
        return context.new_page(), transfer

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/", "/benchmark", "/compare", "/embed"])
def test_each_page_loads_within_the_budget_from_its_own_origin(fresh, stack, path):
    page, transfer = fresh()
    page.goto(stack.url + path, wait_until="networkidle")
    expect(page.locator("main")).to_be_visible()
    wire, decoded = transfer.check()
    print(f"{path}: {wire:,} bytes transferred, {decoded:,} uncompressed")


@pytest.mark.browser
def test_the_benchmark_page_with_the_example_files_result_is_within_the_budget(fresh, stack):
    page, transfer = fresh()
    page.goto(stack.url + "/benchmark", wait_until="networkidle")
    page.locator("#file").set_input_files(EXAMPLE_FILE)
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#results-table")).to_be_visible()
    page.wait_for_load_state("networkidle")
    wire, decoded = transfer.check()
    print(f"/benchmark with {EXAMPLE_FILE.name}: {wire:,} bytes transferred, {decoded:,} uncompressed")


def get(stack, path, encoding=None):
    """(headers with lower-case names, body) of a GET; Accept-Encoding as given (http.client sends identity)."""
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=15)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": encoding} if encoding else {})
        response = connection.getresponse()
        assert response.status == 200
        return {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()


def until_cached(stack, path, encoding):
    """Ask until nginx answers from its cache (it files an answer once it has passed it on)."""
    for _ in range(50):
        headers, body = get(stack, path, encoding)
        if headers["x-cache"] == "HIT":
            return headers, body
    raise AssertionError(f"{path} never came from the cache")


@pytest.mark.parametrize("first", ["gzip", None])
def test_a_cached_page_goes_out_gzipped_to_those_who_accept_it_and_plain_to_the_others(stack, first):
    path = f"/?n=77&c=7&k=7&ks={'1' if first else '2'}"
    get(stack, path, first)   # the cache is filled by a client that accepts gzip, or by one that does not
    zipped_headers, zipped = until_cached(stack, path, "gzip, deflate, br")
    plain_headers, plain = until_cached(stack, path, None)
    assert zipped_headers["content-encoding"] == "gzip" and "content-encoding" not in plain_headers
    assert gzip.decompress(zipped) == plain and b"pass@7" in plain
    assert len(zipped) < len(plain) / 2
    assert "Accept-Encoding" in zipped_headers["vary"] and "Accept-Encoding" in plain_headers["vary"]


def test_static_text_is_gzipped_and_tiny_answers_are_not(stack):
    _, page = get(stack, "/")
    for name in ("style.css", "app.js"):
        address = page.decode().split(f"/static/{name}?v=")[1].split('"')[0]
        headers, _ = get(stack, f"/static/{name}?v={address}", "gzip")
        assert headers["content-encoding"] == "gzip" and "immutable" in headers["cache-control"]
    headers, body = get(stack, "/healthz", "gzip")
    assert "content-encoding" not in headers and body == b"ok\n"


def test_the_stack_lets_the_embed_be_framed_and_nothing_else(stack):
    headers, _ = get(stack, "/embed?n=10&c=3&k=5&theme=dark", "gzip")
    assert "frame-ancestors" not in headers["content-security-policy"] and "x-frame-options" not in headers
    headers, _ = get(stack, "/?n=10&c=3&k=5", "gzip")
    assert "frame-ancestors 'none'" in headers["content-security-policy"] and headers["x-frame-options"] == "DENY"
