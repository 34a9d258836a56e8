"""passk's own manual (mkdocs.yml, docs/) frames the calculator both ways a docs site can, in Chromium: the home
page the static calculator that `passk export-html` writes and the build serves at calculator/, the website page
the live /embed as the main page offers it. The site is built with `mkdocs build --strict` and served from an
origin of its own; the embed's address, http://127.0.0.1:8000 in the snippet, is the live server's here, as the
docs of another passk would paste that passk's."""

import pytest
from docs_site import mkdocs_build, serve_site
from playwright.sync_api import expect

from where import ROOT

pytestmark = pytest.mark.browser

PASTED = "\"http://127.0.0.1:8000"   # the passk whose snippet docs/website.md holds, as src="… and passk = "…


@pytest.fixture(scope="module")
def manual(live_server, tmp_path_factory):
    """The built manual, its embed pointing at the live server, served on a free port; yields its address."""
    site = tmp_path_factory.mktemp("manual")
    built = mkdocs_build(ROOT / "mkdocs.yml", site)
    assert built.returncode == 0, built.stderr
    website = site / "website" / "index.html"
    page = website.read_text(encoding="utf-8")
    assert page.count(PASTED) == 2   # the frame's src and the script's origin
    website.write_text(page.replace(PASTED, f"\"{live_server}"), encoding="utf-8")
    server, thread, address = serve_site(site)
    yield address
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


@pytest.fixture
def manual_page(new_context, manual):
    """A page of a watched browser context that may also load the manual."""
    context = new_context(viewport={"width": 1280, "height": 800})
    context.route(f"{manual}/**", lambda route: route.continue_())   # registered after the watch: first
    return context.new_page()


def test_the_home_page_frames_the_static_calculator(manual_page, manual):
    manual_page.goto(manual + "/")
    frame = manual_page.frame_locator("iframe[data-passk-static]")
    expect(frame.locator("#pass-at-k")).to_have_text("87.74%")
    frame.locator("#k").fill("1")   # computed in the browser as it is typed
    expect(frame.locator("#pass-at-k")).to_have_text("18.50%")


def test_the_website_page_frames_the_live_calculator_sized_to_its_content(manual_page, manual):
    manual_page.goto(manual + "/website/")
    frame = manual_page.frame_locator("iframe[data-passk-embed]")
    expect(frame.locator("#pass-at-k")).to_have_text("87.74%")
    inside = manual_page.locator("iframe[data-passk-embed]").element_handle().content_frame()
    inside.wait_for_function("() => document.documentElement.scrollHeight === document.documentElement.clientHeight")
    frame.locator("#k").fill("1")
    frame.get_by_role("button", name="Calculate").click()   # computed by the server
    expect(frame.locator("#pass-at-k")).to_have_text("18.50%")
