"""The embed in a real docs site: MkDocs with the Material theme, built by the test and served from another origin.

The page holds the snippet the main page offers, as a docs author copies it
from Share → Embed, and the header has Material's light/dark palette toggle.
The frame must fit its content exactly (no scrolling inside it, either way)
after it loads, after a live update and after a recalculation, at a desktop
and a phone width; and it must take the site's palette when the reader
switches it, whatever the system's colour scheme says.
"""

import re
import zlib

import pytest
from docs_site import CALCULATION, build_docs_site, offered_snippet, serve_site
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FRAME = "iframe[data-passk-embed]"
# Inside the frame (functions, not expressions: the embed's CSP refuses eval): how its document measures
# against the frame's viewport, and whether it fits exactly: no scrolling inside either way, no empty space.
# A box that scrolls sideways inside it (the table's, say) counts as scrolling too.
MEASURE = """() => { const root = document.documentElement;
  const sideways = [...document.querySelectorAll("*")].filter(box => /auto|scroll/.test(getComputedStyle(box).overflowX)
    && box.scrollWidth > box.clientWidth).map(box => `${box.className} ${box.scrollWidth}/${box.clientWidth}`);
  return {scrollHeight: root.scrollHeight, clientHeight: root.clientHeight, scrollWidth: root.scrollWidth,
          clientWidth: root.clientWidth, content: Math.ceil(root.getBoundingClientRect().height), sideways}; }"""
FITS = f"""() => {{ const measured = ({MEASURE})();
  return measured.scrollHeight === measured.clientHeight && measured.scrollWidth <= measured.clientWidth
    && measured.content === measured.clientHeight && measured.sideways.length === 0; }}"""
WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def docs_site(live_server, tmp_path_factory):
    """The built site served on a free port of 127.0.0.1: an origin other than passk's. Yields its address."""
    site = build_docs_site(tmp_path_factory.mktemp("mkdocs"), offered_snippet(live_server))
    server, thread, address = serve_site(site)
    yield address
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


@pytest.fixture
def docs_page(new_context, docs_site):
    """A page of a watched browser context that may also load the docs site."""
    def make(**kwargs):
        context = new_context(**kwargs)
        context.route(f"{docs_site}/**", lambda route: route.continue_())   # registered after the watch: first
        return context.new_page()
    return make


def frame_of(page):
    return page.locator(FRAME).element_handle().content_frame()


def assert_fits(page, when):
    """Wait until the frame fits its document exactly; if it never does, say how far off it is."""
    frame = frame_of(page)
    try:
        frame.wait_for_function(FITS, timeout=5000)
    except PlaywrightError:
        pytest.fail(f"{when}: the frame does not fit its content: {frame.evaluate(MEASURE)}")


@pytest.mark.parametrize("viewport", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_frame_fits_its_content_after_load_live_update_and_recalculation(docs_page, docs_site, viewport):
    page = docs_page(viewport=viewport)
    page.goto(docs_site + "/")
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#pass-at-k")).to_have_text("91.67%")
    assert_fits(page, "after load")

    frame.locator("#k").fill("2")                 # typed, not submitted: the live update swaps the result in
    expect(frame.locator("#k-table tr.chosen")).to_have_attribute("data-k", "2")
    expect(frame.locator("#pass-at-k")).to_have_text("53.33%")
    assert_fits(page, "after a live update")

    frame.locator("#n").fill("200")
    frame.locator("#c").fill("57")
    frame.locator("#k").fill("20")
    frame.get_by_role("button", name="Calculate").click()
    expect(frame.locator("#k-table tr.chosen")).to_have_attribute("data-k", "20")
    expect(frame.locator("#n")).to_have_value("200")
    assert_fits(page, "after a recalculation")


def theme_colours(page, live_server):
    """The embed's own text colour in each forced theme: what the frame shows once it follows the site."""
    colours = {}
    for theme in ("dark", "light"):
        page.goto(f"{live_server}/embed?{CALCULATION}&theme={theme}")
        colours[theme] = page.evaluate("() => getComputedStyle(document.body).color")
    assert colours["dark"] != colours["light"]
    return colours


def switch_palette(page, to):
    """Click Material's toggle (the one offering `to`) and wait for the site to take it."""
    page.get_by_title(f"Switch to {to} mode").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate" if to == "dark" else "default")


def assert_frame_theme(page, theme, colours):
    frame = page.frame_locator(FRAME)
    expect(frame.locator("html")).to_have_class(re.compile(rf"\btheme-{theme}\b"))
    expect(frame.locator("body")).to_have_css("color", colours[theme])


@pytest.mark.parametrize("system", ["light", "dark"])
def test_the_frame_follows_the_sites_palette_not_the_system(docs_page, docs_site, live_server, system):
    page = docs_page(color_scheme=system, viewport=WIDTHS["desktop"])
    colours = theme_colours(page, live_server)
    site = "dark" if system == "light" else "light"
    page.goto(docs_site + "/")
    if site == "dark":       # Material opens in its first palette, light
        switch_palette(page, "dark")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate" if site == "dark" else "default")
    assert_frame_theme(page, site, colours)
    switch_palette(page, system)
    assert_frame_theme(page, system, colours)
    switch_palette(page, site)
    assert_frame_theme(page, site, colours)

    frame = page.frame_locator(FRAME)
    frame.locator("#k").fill("3")
    frame.get_by_role("button", name="Calculate").click()   # the frame's own reload: a new document
    expect(frame.locator("#k-table tr.chosen")).to_have_attribute("data-k", "3")
    assert_frame_theme(page, site, colours)
    assert_fits(page, "after a recalculation in the site's theme")
    switch_palette(page, system)                              # the reloaded frame still follows the site
    assert_frame_theme(page, system, colours)


def pixel(page, x, y):
    """The colour painted at (x, y) of the page, frames included, as (r, g, b)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, animations="disabled")
    data, at = b"", 8
    while at < len(png):                         # PNG chunks: length, type, data, CRC
        length, kind = int.from_bytes(png[at:at + 4], "big"), png[at + 4:at + 8]
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    return tuple(zlib.decompress(data)[1:4])     # one row of one pixel: its filter byte, then r, g, b


@pytest.mark.parametrize("system", ["light", "dark"])
def test_a_transparent_frame_shows_the_sites_own_background(docs_page, docs_site, live_server, system):
    page = docs_page(color_scheme=system, viewport=WIDTHS["desktop"])
    colours = theme_colours(page, live_server)
    page.goto(docs_site + "/transparent/")
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#pass-at-k")).to_have_text("91.67%")
    for palette in ("light", "dark", "light"):    # Material opens in its first palette, light
        if palette != "light" or page.locator("body[data-md-color-scheme=slate]").count():
            switch_palette(page, palette)
        assert_frame_theme(page, palette, colours)
        box = page.locator(FRAME).bounding_box()
        inside = pixel(page, box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)   # the embed's margin
        outside = pixel(page, box["x"] + box["width"] - 3, box["y"] + box["height"] + 3)  # the site below it
        assert inside == outside, f"{palette} site, {system} system: frame paints {inside} on the site's {outside}"
