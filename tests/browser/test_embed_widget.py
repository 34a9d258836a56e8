"""The embed widget: /embed inside an iframe of a page from another origin, sized by the snippet.

The page around it is served from a second port of 127.0.0.1 (another origin)
and holds the snippet the main page offers, as a docs author pastes it.
"""

import html
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from passk.web.pages import EMBED_HEIGHT, embed_snippet
from html_text import element_text
from where import ROOT

FRAME = "iframe[data-passk-embed]"
# Inside the frame: the document is as tall as the frame's viewport, the iframe's content box.
# A function, not an expression: Playwright evals an expression in the page, which the CSP refuses.
FITS = "() => Math.ceil(document.documentElement.getBoundingClientRect().height) === window.innerHeight"


class DocsPages:
    """A second origin serving the pages of a made-up docs site: path -> HTML."""

    def __init__(self):
        self.pages = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path, "").encode()
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, name="docs-site", daemon=True)

    def page(self, path, body):
        self.pages[path] = f'<!doctype html><html lang="en"><meta charset="utf-8"><title>Docs</title>' \
                           f'<h1>Our docs</h1><p>Try it:</p>{body}<p>The end.</p></html>'
        return self.origin + path


@pytest.fixture(scope="module")
def docs_site():
    site = DocsPages()
    site.thread.start()
    yield site
    site.server.shutdown()
    site.thread.join(timeout=10)
    site.server.server_close()


@pytest.fixture
def docs_context(new_context, docs_site):
    """A browser context, watched as every other, that may also open the docs site's pages."""
    def make(**kwargs):
        context = new_context(**kwargs)
        context.route(f"{docs_site.origin}/**", lambda route: route.continue_())  # before the watch's route
        return context
    return make


def offered_snippet(page, query="n=10&c=3&k=5"):
    """The snippet the main page offers for this calculation, as a docs author copies it."""
    page.goto(f"/?{query}")
    return page.locator("#embed-snippet").input_value()


def frame_height(page):
    """Wait until the frame is exactly as tall as its document, then return that height."""
    frame = page.locator(FRAME).element_handle().content_frame()
    frame.wait_for_function(FITS)
    height = frame.evaluate("window.innerHeight")
    expect(page.locator(FRAME)).to_have_css("height", f"{height}px")
    return height


def recalculate(frame, k):
    frame.locator("#k").fill(str(k))
    frame.get_by_role("button", name="Calculate").click()
    expect(frame.locator('#k-table tr.chosen')).to_have_attribute("data-k", str(k))


@pytest.mark.browser
def test_the_snippet_sizes_the_frame_to_the_embed_and_follows_a_new_result(docs_context, docs_site):
    page = docs_context().new_page()
    snippet = offered_snippet(page)
    page.goto(docs_site.page("/sized.html", snippet))
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#pass-at-k")).to_contain_text("91.67")

    fitted = frame_height(page)
    assert fitted != EMBED_HEIGHT   # the script has sized it: the fixed height was a guess

    recalculate(frame, 3)            # k = 3 is not in the table's 1, 5, 10, 100: a row more
    grown = frame_height(page)
    assert grown > fitted

    recalculate(frame, 5)            # back to the four rows
    assert frame_height(page) == fitted


@pytest.mark.browser
def test_the_frame_follows_the_live_update_inside_it(docs_context, docs_site):
    page = docs_context().new_page()
    page.goto(docs_site.page("/live.html", offered_snippet(page)))
    frame = page.frame_locator(FRAME)
    fitted = frame_height(page)
    frame.locator("#k").select_text()
    frame.locator("#k").press_sequentially("2")   # typed, not submitted: the live update swaps the result
    expect(frame.locator('#k-table tr[data-k="2"]')).to_be_visible()
    assert frame_height(page) > fitted


@pytest.mark.browser
def test_without_script_the_frame_keeps_its_height_and_the_embed_still_works(docs_context, docs_site):
    page = docs_context(java_script_enabled=False).new_page()
    iframe_only = offered_snippet(page).split("<script>")[0]
    page.goto(docs_site.page("/fixed.html", iframe_only))
    expect(page.locator(FRAME)).to_have_css("height", f"{EMBED_HEIGHT}px")
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#pass-at-k")).to_contain_text("91.67")
    recalculate(frame, 3)
    expect(page.locator(FRAME)).to_have_css("height", f"{EMBED_HEIGHT}px")


# Inside the frame: note the root's classes after each message, once the embed's own listener (added first) has run.
# noted once every listener has seen the message (a task after it), whichever of them was added first
NOTE_MESSAGES = """() => { window.seen = [];
  addEventListener('message', () => setTimeout(() => seen.push(document.documentElement.className))); }"""
SENT_TO_ITSELF = "() => postMessage({type: 'passk:theme', theme: 'dark'}, '*')"
FROM_THE_PAGE = "theme => document.querySelector('iframe').contentWindow.postMessage({type: 'passk:theme', theme}, '*')"


def theme_messages(page, url):
    """Open the docs page at url, whose frame will note what each message left on its <html>; return the frame."""
    page.goto(url)
    frame = page.locator(FRAME).element_handle().content_frame()
    expect(page.frame_locator(FRAME).locator("#pass-at-k")).to_contain_text("91.67")
    frame.wait_for_function("() => document.readyState === 'complete'")   # app.js (deferred) listens by now
    frame.evaluate(NOTE_MESSAGES)
    return frame


@pytest.mark.browser
def test_only_the_page_that_framed_the_embed_sets_its_theme(docs_context, docs_site):
    page = docs_context(color_scheme="light").new_page()
    iframe = offered_snippet(page).split("<script>")[0]
    frame = theme_messages(page, docs_site.page("/themed.html", iframe))
    frame.evaluate(SENT_TO_ITSELF)             # not from the parent window: refused
    frame.wait_for_function("() => seen.length === 1")
    page.evaluate(FROM_THE_PAGE, "bright")     # not a theme: refused
    frame.wait_for_function("() => seen.length === 2")
    assert frame.evaluate("() => seen") == ["", ""]
    page.evaluate(FROM_THE_PAGE, "dark")
    frame.wait_for_function("() => seen.length === 3")
    assert frame.evaluate("() => seen[2]") == "theme-dark"
    expect(page.frame_locator(FRAME).locator("body")).to_have_css("color", "rgb(227, 232, 239)")   # --ink, dark

    hidden = iframe.replace('referrerpolicy="strict-origin"', 'referrerpolicy="no-referrer"')
    page = page.context.new_page()             # a new tab: nothing remembered of the frame above
    frame = theme_messages(page, docs_site.page("/anonymous.html", hidden))
    page.evaluate(FROM_THE_PAGE, "dark")       # the frame cannot tell who framed it: refused
    frame.wait_for_function("() => seen.length === 1")
    assert frame.evaluate("() => seen") == [""]


@pytest.mark.browser
def test_the_embed_takes_the_theme_it_is_asked_for_over_the_readers(page):
    """theme=dark in a light browser looks as the embed does in a dark one, and the other way round."""
    def looks(scheme, query=""):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"/embed?n=10&c=3&k=5{query}")
        return page.evaluate("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
    light, dark = looks("light"), looks("dark")
    assert light != dark
    assert looks("light", "&theme=dark") == dark and looks("dark", "&theme=light") == light
    assert looks("dark", "&theme=auto") == dark and looks("light", "&theme=auto") == light


@pytest.mark.browser
def test_the_theme_survives_recalculating_but_not_the_link_to_the_full_page(page):
    page.goto("/embed?n=10&c=3&k=5&theme=dark")
    recalculate(page, 3)
    expect(page).to_have_url(re.compile(r"[?&]theme=dark(&|$)"))
    expect(page.locator("html")).to_have_class(re.compile(r"\btheme-dark\b"))
    full = page.get_by_role("link", name=re.compile("Full calculator"))
    expect(full).not_to_have_attribute("href", re.compile("theme"))


@pytest.mark.parametrize("query, theme_class", [
    ("theme=dark", "theme-dark"), ("theme=light", "theme-light"), ("theme=auto", None), ("", None),
    ("theme=purple", None),
])
def test_embed_theme_parameter(client, query, theme_class):
    page = client.get(f"/embed?n=10&c=3&k=5&{query}").get_data(as_text=True)
    root = re.search(r"<html[^>]*>", page)[0]
    assert (f'class="{theme_class}"' in root) if theme_class else "class=" not in root
    kept = re.search(r'<input type="hidden" name="theme" value="(\w+)">', page)
    assert (kept and kept[1]) == (theme_class and theme_class.removeprefix("theme-"))
    assert element_text(page, "pass-at-k") == "91.67%"
    assert 'href="http://localhost/?n=10&amp;c=3&amp;k=5"' in page


def test_the_offered_snippet_checks_the_origin_and_the_message_type(client):
    page = client.get("/?n=10&c=3&k=5").get_data(as_text=True)
    snippet = html.unescape(re.search(r'<textarea id="embed-snippet"[^>]*>(.*?)</textarea>', page, re.S)[1])
    assert snippet == embed_snippet("http://localhost/embed?n=10&c=3&k=5&theme=auto")
    assert snippet.startswith('<iframe src="http://localhost/embed?n=10&c=3&k=5&theme=auto" ')
    assert f'height="{EMBED_HEIGHT}"' in snippet
    assert 'var passk = "http://localhost"' in snippet and "event.origin !== passk" in snippet
    assert '"passk:height"' in snippet and '"passk:theme"' in snippet and "postMessage(" in snippet
    assert re.search(r"postMessage\([^;]*, passk\)", snippet)   # the theme goes to passk's origin only


def test_the_docs_show_the_snippet_the_page_offers():
    docs = (ROOT / "docs" / "embed.md").read_text()
    assert embed_snippet("https://passk.example.org/embed?n=10&c=3&k=5&theme=auto") in docs


@pytest.mark.parametrize("query, transparent", [
    ("background=transparent", True), ("background=page", False), ("", False), ("background=purple", False),
    ("background=", False), ("background=transparent&theme=dark", True),
])
def test_embed_background_parameter(client, query, transparent):
    response = client.get(f"/embed?n=10&c=3&k=5&{query}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    body = re.search(r"<body[^>]*>", page)[0]
    assert ("embed-transparent" in body) == transparent
    kept = '<input type="hidden" name="background" value="transparent" form="calculator">' in page
    assert kept == transparent   # Calculate keeps it
    assert element_text(page, "pass-at-k") == "91.67%"


def test_the_embeds_parameters_are_its_own_address_and_others_are_dropped(client):
    kept = client.get("/embed?n=10&c=3&k=5&theme=dark&background=transparent")
    assert kept.status_code == 200
    dropped = client.get("/embed?n=10&c=3&k=5&background=transparent&origin=x")
    assert dropped.status_code == 308 and dropped.location.endswith("/embed?n=10&c=3&k=5&background=transparent")


def test_only_the_embed_may_be_framed(client):
    embed = client.get("/embed?n=10&c=3&k=5&theme=dark")
    assert "frame-ancestors" not in embed.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in embed.headers
    assert client.get("/?n=10&c=3&k=5").headers["X-Frame-Options"] == "DENY"
