"""Shared fixtures: the app and its test client, a live server, and the browser.

Browser tests (pytest-playwright) run in the Chromium named by PASSK_CHROMIUM,
which scripts/test.sh finds or installs. Every browser context they open is
watched: a request to any host but the live server, a server error (5xx), an
uncaught script error or a Content-Security-Policy violation fails the test.
"""

import os
import threading
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, settings
from werkzeug.serving import WSGIRequestHandler, make_server

from app import create_app

# Speed is measured in bench/, never asserted: no per-example deadline, which a busy machine
# (CI running beside other work) would miss and Hypothesis would then report as a flaky test,
# and no too_slow health check, which fails a test whose inputs took 30 s to generate.
# The example database stays on (.hypothesis/, ignored by git): a failure found replays until fixed.
# Under CI the parent is Hypothesis's own "ci" profile: derandomized, so every run tries the same
# examples (and keeps no database). A test's own suppress_health_check replaces this one, so such
# tests name too_slow as well.
settings.register_profile("passk", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("passk")

# As root on a machine with no network but package registries: no sandbox
# (root cannot have one), and none of Chromium's own calls home, which would
# only fill the log with refused connections.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture(scope="module")
def stack():
    """nginx in front of gunicorn, as scripts/serve.sh runs them; two workers only, so a handful of stuck
    connections would stall a bare gunicorn. Modules that use it skip themselves when nginx is missing."""
    from deploy.stack import ProductionStack
    running = ProductionStack(workers=2).start()
    yield running
    running.close()


@pytest.fixture
def client(app):
    return app.test_client()


class _QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler without its line per request (errors still print)."""

    def log_request(self, code="-", size="-"):
        pass


def _body_read_at_once(app):
    """The app with each response body read and closed before it is sent.

    When a browser drops a connection mid-response (it cancels a stylesheet on
    navigation, say), Werkzeug's development server raises in its clean-up
    before it closes the body, leaving a static file open until the garbage
    collector warns. gunicorn, which serves production, closes it; here the
    body is simply never left open.
    """
    def buffered(environ, start_response):
        body = app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()
    return buffered


@pytest.fixture(scope="session")
def live_server():
    """The production app served on a free port of 127.0.0.1; yields its base URL."""
    server = make_server("127.0.0.1", 0, _body_read_at_once(create_app()), threaded=True,
                         request_handler=_QuietRequestHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


@pytest.fixture(scope="session")
def base_url(live_server):
    """pytest-playwright's base URL, so pages open with page.goto("/")."""
    return live_server


def _running_in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch the Chromium that scripts/test.sh found, with the flags above."""
    chromium = os.environ.get("PASSK_CHROMIUM")
    if not chromium:
        message = ("Browser tests need Chromium: run `bash scripts/test.sh`, which finds or "
                   "installs it, or set PASSK_CHROMIUM=/path/to/chromium.")
        if _running_in_ci():
            pytest.fail(message + " Under CI they fail rather than skip.", pytrace=False)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


class PageWatch:
    """What the pages of one browser context did that ours never should."""

    def __init__(self, context, origin):
        self.origin = origin
        self.requests = []
        self.foreign_requests = []
        self.server_errors = []
        self.console_errors = []
        self.page_errors = []
        context.route("**/*", self._only_our_server)
        context.on("response", self._response)
        context.on("console", self._console)
        context.on("weberror", lambda web_error: self.page_errors.append(str(web_error.error)))

    def _only_our_server(self, route):
        url = route.request.url
        self.requests.append(url)
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" == self.origin:
            route.continue_()
        else:
            self.foreign_requests.append(url)
            route.abort()

    def _response(self, response):
        if response.status >= 500:
            self.server_errors.append(f"{response.status} {response.request.method} {response.url}")

    def _console(self, message):
        if message.type == "error":
            self.console_errors.append(message.text)

    @property
    def csp_violations(self):
        return [text for text in self.console_errors if "Content Security Policy" in text]

    def assert_clean(self):
        assert self.foreign_requests == [], "requests to hosts other than the live server"
        assert self.server_errors == [], "server errors (the traceback is in the captured log)"
        assert self.page_errors == [], "uncaught errors in the page's script"
        assert self.csp_violations == [], "Content-Security-Policy violations"


@pytest.fixture
def page_watches():
    """One PageWatch per browser context the test opened."""
    return []


@pytest.fixture
def new_context(new_context, live_server, page_watches):
    """pytest-playwright's context factory, with every context watched."""

    def watched_context(**kwargs):
        context = new_context(**kwargs)
        page_watches.append(PageWatch(context, live_server))
        return context

    yield watched_context
    for watch in page_watches:
        watch.assert_clean()


@pytest.fixture
def page_watch(page, page_watches):
    """The watch over the context of pytest-playwright's `page`."""
    return page_watches[0]
