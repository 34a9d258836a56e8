"""A real docs site around passk's embed: MkDocs with the Material theme, built offline and served from an origin
of its own. tests/browser/test_embed_docs_site.py checks the frame in it; scripts/screenshots.py pictures it.
mkdocs_build builds passk's own manual (mkdocs.yml) as a reader does, for tests/stack/test_docs_site.py and
tests/browser/test_docs_site_frames.py."""

import functools
import html
import os
import re
import subprocess
import sys
import threading
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CALCULATION = "n=10&c=3&k=5"
MKDOCS_YML = """\
site_name: Our docs
theme:
  name: material
  font: false            # Material would fetch Roboto from Google Fonts
  palette:
    - scheme: default
      toggle: {icon: material/brightness-7, name: Switch to dark mode}
    - scheme: slate
      toggle: {icon: material/brightness-4, name: Switch to light mode}
plugins: []              # no search index: the site needs nothing but its pages
"""
PAGE_MD = "# {title}\n\nTry the calculator:\n\n{snippet}\n\nThe frame above is passk.\n"


def offered_snippet(passk_url: str, calculation: str = CALCULATION) -> str:
    """The snippet in the main page's Share → Embed box, as a docs author copies it."""
    with urllib.request.urlopen(f"{passk_url}/?{calculation}") as response:
        page = response.read().decode()
    return html.unescape(re.search(r'<textarea id="embed-snippet"[^>]*>(.*?)</textarea>', page, re.S)[1])


def build_docs_site(folder: Path, snippet: str) -> Path:
    """Build the site in folder: its index page holds the snippet, transparent/ the snippet with
    background=transparent added to the frame's address as docs/embed.md says. Returns the built site's path."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    (folder / "docs").mkdir()
    (folder / "mkdocs.yml").write_text(MKDOCS_YML)
    transparent = snippet.replace("theme=auto", "theme=auto&background=transparent", 1)
    assert transparent != snippet   # the offered src says theme=auto, and the docs say to add the background there
    (folder / "docs" / "index.md").write_text(PAGE_MD.format(title="Our docs", snippet=snippet))
    (folder / "docs" / "transparent.md").write_text(PAGE_MD.format(title="Transparent", snippet=transparent))
    build(load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site")))
    return folder / "site"


def mkdocs_build(config: Path, site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the config into site, as a reader runs it (a new process, offline)."""
    quiet = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}   # Material's notice about MkDocs 2, on every build
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(site)], cwd=config.parent, capture_output=True, text=True,
                          timeout=300, env=quiet)


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve_site(site: Path) -> tuple[ThreadingHTTPServer, threading.Thread, str]:
    """The built site on a free port of 127.0.0.1 in a daemon thread: (server, thread, its address)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietFiles, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, name="mkdocs-site", daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_port}"
