"""The runtime's ceiling (passk/web/ceiling.py): every request computed in a sandbox whose CPU time and memory the
kernel bounds, so a statistic nobody estimated cannot hold a worker.

The deliberately endless statistic (passk/web/endless.py, behind PASSK_TEST_ENDLESS=1) stands for code not yet
written: looping in Python, stuck in one call into C, or allocating without end, each gets the ceiling's sentence
within the ceiling, and the next request is answered as usual. These run in-process under a 1-second ceiling;
tests/stack/test_ceiling_stack.py runs the same through nginx and gunicorn at the site's own.
"""

import io
import json
import os
import signal
import threading

import pytest
from werkzeug.test import Client

from passk.limits import LIMITS, ceiling_reached
from passk.web import endless
from passk.web.app import create_app
from passk.web.ceiling import REACHED, Ceiling, _body
from passk.web.errors import BUG

SHORT = LIMITS.__class__(cpu_seconds=1, memory_bytes=256 * 2**20)


@pytest.fixture(scope="module")
def ceiled():
    """The site under a 1 s, 256 MiB ceiling, with the endless statistic registered."""
    previous = os.environ.get(endless.SWITCH)
    os.environ[endless.SWITCH] = "1"
    try:
        ceiling = Ceiling(create_app(), SHORT)
    finally:
        if previous is None:
            del os.environ[endless.SWITCH]
        else:
            os.environ[endless.SWITCH] = previous
    yield Client(ceiling)
    ceiling.close()


def test_the_endless_statistic_is_not_registered_without_its_switch():
    assert endless.SWITCH not in os.environ
    assert create_app().test_client().get("/benchmark/endless").status_code == 404


@pytest.mark.parametrize("kind, reached", [("python", "cpu"), ("c", "cpu"), ("memory", "memory")])
def test_an_endless_statistic_gets_the_ceilings_sentence(ceiled, kind, reached):
    answer = ceiled.get(f"/benchmark/endless?kind={kind}")
    assert answer.status_code == 413
    assert ceiling_reached(reached, SHORT).replace("'", "&#39;") in answer.get_data(as_text=True)
    assert answer.headers["Content-Security-Policy"] and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert ceiled.get("/api/v1/pass-at-k?n=10&c=3&k=5").get_json()["exact"] == "11/12"


def test_the_api_says_the_ceiling_in_json(ceiled):
    answer = ceiled.get("/api/v1/endless?kind=c")
    assert answer.status_code == 413 and answer.get_json() == {"error": ceiling_reached("cpu", SHORT)}


def test_the_sentence_names_the_bound_and_the_way_out():
    assert ceiling_reached("cpu") == (
        f"This request needs more than {LIMITS.cpu_seconds} s of computing, the most one request may use on this "
        "site; ask for fewer problems, runs or k values, or compute it with the passk command on your own machine, "
        "which has no such limit.")
    assert "1,024 MiB of memory" in ceiling_reached("memory")


def test_answers_through_the_sandbox_are_the_apps_own(ceiled):
    bare = create_app().test_client()
    for path in ("/?n=10&c=3&k=5", "/api/v1/pass-at-k?n=200&c=37&k=10", "/benchmark?counts=10:3,10:0&k=5",
                 "/nowhere", "/api/v1/pass-at-k?n=x"):
        through, direct = ceiled.get(path), bare.get(path)
        assert (through.status_code, through.get_data()) == (direct.status_code, direct.get_data()), path
        assert through.headers["Content-Security-Policy"] == direct.headers["Content-Security-Policy"]


def test_a_posted_body_reaches_the_sandbox_whole(ceiled):
    problems = {"problems": [{"task_id": f"t{i}", "n": 10, "c": i % 11} for i in range(2000)], "k": [1, 5]}
    answer = ceiled.post("/api/v1/benchmark", json=problems)
    assert answer.status_code == 200 and answer.get_json()["problems"] == 2000
    chunked = ceiled.post("/api/v1/benchmark", data=json.dumps(problems).encode(),
                          headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    assert chunked.get_json() == answer.get_json()


def test_a_body_over_the_limit_is_left_unread_for_the_app_to_refuse_by_its_length():
    stream = io.BytesIO(b"x" * 100)
    assert _body({"CONTENT_LENGTH": "101", "wsgi.input": stream}, 100) == b"" and stream.tell() == 0
    assert _body({"CONTENT_LENGTH": "100", "wsgi.input": stream}, 100) == b"x" * 100
    chunked = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": io.BytesIO(b"y" * 500)}
    assert _body(chunked, 100) == b"y" * 101   # a byte past the limit, so the app sees the body is over it


def test_a_share_link_at_the_ceiling_keeps_its_fields():
    """The worker answers a link whose sandbox reached the ceiling with the page's form, filled from the link."""
    client = create_app().test_client()
    for path in ("/benchmark", "/compare"):
        answer = client.get(f"{path}?counts=10:3,10:0&k=5", environ_overrides={REACHED: "cpu"})
        page = answer.get_data(as_text=True)
        assert answer.status_code == 413 and ceiling_reached("cpu").replace("'", "&#39;") in page
        assert 'name="k" type="text" value="5"' in page and 'role="alert"' in page
    counts = client.get("/benchmark?counts=10:3,10:0&k=5", environ_overrides={REACHED: "memory"})
    assert '<input type="hidden" name="counts" value="10:3,10:0">' in counts.get_data(as_text=True)


def test_a_sandbox_that_dies_of_a_bug_gets_a_sentence_and_a_log_line_saying_so(ceiled, caplog):
    answer = ceiled.get("/api/v1/endless?kind=crash")
    assert answer.status_code == 500 and answer.get_json() == {"error": BUG}
    assert f"A sandbox ended while computing a request (exit status {-signal.SIGABRT})" in caplog.text
    assert "kind=crash" not in caplog.text   # the log says where, never what was asked
    assert ceiled.get("/api/v1/pass-at-k?n=10&c=3&k=5").status_code == 200


def test_a_bug_is_a_sentence_not_a_servers_page():
    app = create_app()

    @app.get("/api/v1/broken")
    def broken():
        raise RuntimeError("a bug")

    @app.get("/broken")
    def broken_page():
        raise RuntimeError("a bug")

    client = app.test_client()
    answer = client.get("/api/v1/broken")
    assert answer.status_code == 500 and "a bug, not your input" in answer.get_json()["error"]
    page = client.get("/broken")
    assert page.status_code == 500 and "a bug, not your input" in page.get_data(as_text=True).replace("&#39;", "'")
    assert page.headers["X-Frame-Options"] == "DENY"


def test_a_threaded_server_starts_new_sandboxes_from_the_fork_server(monkeypatch):
    """Forked from a process whose other threads may hold locks, a sandbox could wait for ever: with threads
    running, a new sandbox comes from multiprocessing's fork server and builds its app by the factory."""
    monkeypatch.setenv(endless.SWITCH, "1")
    ceiling = Ceiling(create_app(), SHORT, factory="passk.web.app:create_app")
    idle = threading.Event()
    other = threading.Thread(target=idle.wait)
    other.start()
    try:
        client = Client(ceiling)
        assert client.get("/api/v1/endless?kind=c").status_code == 413
        assert client.get("/api/v1/pass-at-k?n=10&c=3&k=5").get_json()["exact"] == "11/12"
        [sandbox] = ceiling._idle
        assert type(sandbox.process).__name__ == "ForkServerProcess"
    finally:
        idle.set()
        other.join()
        ceiling.close()


def test_a_sandbox_keeps_no_descriptor_of_the_worker(tmp_path):
    """The worker's sockets and files are closed in its sandbox: a connection the worker closes is closed."""
    held = open(tmp_path / "worker-only", "w")
    try:
        ceiling = Ceiling(create_app(), SHORT)
        Client(ceiling).get("/healthz")
        assert Client(ceiling).get("/api/v1/pass-at-k?n=10&c=3&k=5").status_code == 200
        [sandbox] = ceiling._idle
        descriptors = f"/proc/{sandbox.process.pid}/fd"
        kept = {os.readlink(f"{descriptors}/{fd}") for fd in os.listdir(descriptors)}
        assert str(tmp_path / "worker-only") not in kept
        ceiling.close()
    finally:
        held.close()
