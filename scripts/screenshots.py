"""Screenshots of passk's pages for the README, taken in the real browser.

    .venv/bin/python scripts/screenshots.py            # writes docs/screenshots/*.png
    .venv/bin/python scripts/screenshots.py --out DIR  # somewhere else

Serves the app on a free port of 127.0.0.1 (Werkzeug, in a thread) and drives
Chromium with Playwright: the calculator, the benchmark page with the result
for examples/samples.jsonl_results.jsonl, the compare page with two runs and
with four runs ranked, and the embed in a docs page (a MkDocs Material site built from the snippet the
calculator offers, its palette switched to the theme), each in the light and the dark colour scheme, at 1280 px
(desktop) and 390 px (phone). The calculator is the window's first screen; the benchmark and
compare pictures run from the result's heading to the end of its chart. Each
is stored with a palette of at most 256 colours (the pages are flat colours
and their text's edges), about a third of the size of the browser's PNG.
Chromium is PASSK_CHROMIUM, else chromium (or chromium-browser, google-chrome)
on PATH, as for the tests.
"""

import argparse
import base64
import os
import shutil
import struct
import sys
import tempfile
import threading
import zlib
from pathlib import Path

import numpy as np
from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import WSGIRequestHandler, make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "tests" / "support"))

from app import create_app  # noqa: E402  (after the path is set)
from docs_site import build_docs_site, offered_snippet, serve_site  # noqa: E402

EXAMPLE_FILE = ROOT / "examples" / "samples.jsonl_results.jsonl"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
THEMES = ("light", "dark")
TALLEST = 1400   # px: a picture of part of a page stops here
COLOURS = 256    # at most, in a picture's palette
# Two runs of 24 problems with 20 samples each for the compare page: B is A with a better model.
RUN_A = "".join(f"HumanEval/{i},20,{(7 * i) % 21}\n" for i in range(24))
RUN_B = "".join(f"HumanEval/{i},20,{min(20, max(0, (7 * i) % 21 + (5 * i) % 9 - 2))}\n" for i in range(24))


def find_chromium():
    """PASSK_CHROMIUM, else a Chromium on PATH; exits with a message when there is none."""
    for candidate in (os.environ.get("PASSK_CHROMIUM"), *map(shutil.which, (
            "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"))):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("screenshots.py needs Chromium: set PASSK_CHROMIUM=/path/to/chromium "
             "(bash scripts/test.sh finds or installs one).")


class _QuietRequestHandler(WSGIRequestHandler):
    def log_request(self, code="-", size="-"):
        pass


def serve():
    """The app on a free port of 127.0.0.1 in a daemon thread; returns (server, base URL)."""
    server = make_server("127.0.0.1", 0, create_app(), threaded=True, request_handler=_QuietRequestHandler)
    threading.Thread(target=server.serve_forever, name="passk", daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def calculator(page, base_url):
    """The calculator's first screen; None: the window, not a part of the page."""
    page.goto(base_url + "/?n=200&c=57&k=10")
    expect(page.locator("#pass-at-k")).to_be_visible()


def benchmark(page, base_url):
    """The example file's result, from its heading to the histogram."""
    page.goto(base_url + "/benchmark")
    page.locator("#file").set_input_files(str(EXAMPLE_FILE))
    page.locator("#k").fill("1, 10, 100")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#histogram")).to_be_visible()
    return "#benchmark-heading", "#histogram"


def compare(page, base_url):
    """Two runs compared, from the heading to the difference chart."""
    page.goto(base_url + "/compare")
    page.locator("#text_a").fill(RUN_A)
    page.locator("#text_b").fill(RUN_B)
    page.locator("#k").fill("1, 10")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#difference-chart")).to_be_visible()
    return "#compare-heading", "#difference-chart"


# Two more runs for the ranking: C close to A, and D, a file, between A and B.
RUN_C = "".join(f"HumanEval/{i},20,{min(20, max(0, (7 * i) % 21 + (3 * i) % 5 - 2))}\n" for i in range(24))
RUN_D = "".join(f"HumanEval/{i},20,{min(20, (7 * i) % 21 + 3 + i % 3)}\n" for i in range(24))


def ranking(page, base_url):
    """Four runs ranked (three pasted, one a file), from the heading to the first k's forest plot."""
    page.goto(base_url + "/compare")
    for run, text in (("a", RUN_A), ("b", RUN_B), ("c", RUN_C)):
        page.locator(f"#text_{run}").fill(text)
    page.locator("input[name=run]").set_input_files(
        {"name": "model-d.csv", "mimeType": "text/csv", "buffer": RUN_D.encode()})
    page.locator("#k").fill("1, 10")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#interval-chart-1")).to_be_visible()
    return "#ranking-heading", "#interval-chart-1"


def embed(page, docs_url):
    """The embed in a docs page: the site's palette switched to the browser's theme, the frame sized to fit."""
    page.goto(docs_url + "/")
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    if dark:   # Material opens in its first palette, light
        page.get_by_title("Switch to dark mode").click()
    frame = page.frame_locator("iframe[data-passk-embed]")
    expect(frame.locator("html")).to_have_class("theme-dark" if dark else "theme-light")
    inside = page.locator("iframe[data-passk-embed]").element_handle().content_frame()   # another origin's
    inside.wait_for_function("() => document.documentElement.scrollHeight === document.documentElement.clientHeight")
    return "article h1", "iframe[data-passk-embed]"


PAGES = {"calculator": calculator, "benchmark": benchmark, "compare": compare, "ranking": ranking, "embed": embed}


def screenshot(page, part):
    """The window as PNG bytes, or the page from part's first element to the end of its second."""
    if not part:
        return page.screenshot(animations="disabled", caret="hide")
    first, last = (page.locator(selector).bounding_box() for selector in part)
    scrolled = page.evaluate("window.scrollY")
    top = max(0, first["y"] + scrolled - 12)
    bottom = min(last["y"] + scrolled + last["height"] + 12, top + TALLEST)
    width = page.viewport_size["width"]
    return page.screenshot(full_page=True, animations="disabled", caret="hide",
                           clip={"x": 0, "y": top, "width": width, "height": bottom - top})


# A blank page reads a PNG back as pixels (a canvas does the decoding), which need no decoder here.
PIXELS = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const bytes = context.getImageData(0, 0, image.width, image.height).data;
  let text = "";
  for (let start = 0; start < bytes.length; start += 32768) {
    text += String.fromCharCode.apply(null, bytes.subarray(start, start + 32768));
  }
  return [image.width, image.height, btoa(text)];
}"""


def pixels(blank, png):
    """The picture as an array of (height, width, 3) bytes."""
    width, height, data = blank.evaluate(PIXELS, base64.b64encode(png).decode("ascii"))
    return np.frombuffer(base64.b64decode(data), np.uint8).reshape(height, width, 4)[:, :, :3]


def palette_png(image, colours=COLOURS):
    """PNG bytes of the image with a palette: its most common colours, every pixel as the nearest of them.

    Flat backgrounds and text take nearly every pixel; the rarer shades at the edges of letters move
    to a neighbouring colour, which the eye does not see at this size.
    """
    height, width, _ = image.shape
    codes = (image.astype(np.uint32) << np.array([16, 8, 0], np.uint32)).sum(axis=2).ravel()
    unique, inverse, counts = np.unique(codes, return_inverse=True, return_counts=True)
    palette = unique[np.argsort(-counts, kind="stable")[:colours]]
    rgb = lambda code: np.stack([(code >> 16) & 255, (code >> 8) & 255, code & 255], axis=-1).astype(np.int32)
    nearest = np.empty(len(unique), np.uint8)
    for start in range(0, len(unique), 4096):  # every distinct colour to its nearest palette colour
        distance = ((rgb(unique[start:start + 4096])[:, None, :] - rgb(palette)[None, :, :]) ** 2).sum(axis=2)
        nearest[start:start + 4096] = distance.argmin(axis=1)
    indices = nearest[inverse].reshape(height, width)
    rows = np.hstack([np.zeros((height, 1), np.uint8), indices])  # filter type 0 before each row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", rgb(palette).astype(np.uint8).tobytes())
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
            + chunk(b"IEND", b""))


def take(out, chromium):
    """Every page in every theme and viewport into out/<page>-<theme>-<viewport>.png; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    server, base_url = serve()
    site_folder = tempfile.TemporaryDirectory()
    docs, _, docs_url = serve_site(build_docs_site(Path(site_folder.name), offered_snippet(base_url)))
    written = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium,
                                                 args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
            blank = browser.new_page()
            for theme in THEMES:
                for device, viewport in VIEWPORTS.items():
                    # Not is_mobile: Chromium's emulation of a phone enlarges some paragraphs' text
                    # (font boosting) where a phone's own browser, given width=device-width, does not.
                    context = browser.new_context(viewport=viewport, color_scheme=theme, device_scale_factor=1)
                    for name, show in PAGES.items():
                        page = context.new_page()
                        png = screenshot(page, show(page, docs_url if show is embed else base_url))
                        path = out / f"{name}-{theme}-{device}.png"
                        path.write_bytes(palette_png(pixels(blank, png)))
                        written.append(path)
                        page.close()
                    context.close()
            browser.close()
    finally:
        server.shutdown()
        docs.shutdown()
        site_folder.cleanup()
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots",
                        help="folder for the PNG files (default: docs/screenshots)")
    args = parser.parse_args(argv)
    paths = take(args.out, find_chromium())
    for path in paths:
        print(f"{path.stat().st_size / 1024:7.1f} KiB  {path.relative_to(args.out)}")
    print(f"{sum(path.stat().st_size for path in paths) / 1024:7.1f} KiB  in {len(paths)} files")


if __name__ == "__main__":
    main()
