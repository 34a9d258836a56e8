"""passk serve's arguments, what it says, and the server it starts (tests/stack/test_serve_alone.py meets that server
as clients do; tests/stack/test_packaging.py runs it from an installed wheel)."""

import io
import os
import socket

import pytest

from passk import serve
from passk.__main__ import main
from passk.web import server

SPOOL = serve.spool   # the real one: the tests of main keep this process's temporary directory

class Started:
    """Stands in for passk.web.server.create: notes what it was asked for, and runs at once."""

    def __init__(self):
        self.asked, self.ran = [], False

    def __call__(self, host, port, threads, forwarded=""):
        self.asked.append((host, port, threads, forwarded))
        return self

    def run(self):
        self.ran = True


@pytest.fixture(autouse=True)
def this_process_kept(monkeypatch):
    """The test process keeps its own SIGTERM handler, log handlers and temporary directory."""
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    monkeypatch.setattr(server, "quiet_logging", lambda: None)
    monkeypatch.setattr(serve, "spool", lambda setting: None)
    monkeypatch.delenv("PASSK_FORWARDED_ALLOW_IPS", raising=False)


@pytest.fixture
def started(monkeypatch):
    fake = Started()
    monkeypatch.setattr(server, "create", fake)
    return fake


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "70000"], ["--workers", "0"]])
def test_bad_numbers_are_refused_with_status_2_before_anything_starts(argv, started):
    said = io.StringIO()
    assert main(["serve", *argv], stderr=said) == 2
    assert "port must be 1-65535" in said.getvalue()
    assert not started.asked


def test_the_first_line_says_where_a_public_deployment_belongs(started):
    said, out = io.StringIO(), io.StringIO()
    assert serve.main(["--port", "8124"], out, said) == 0
    first = said.getvalue().splitlines()[0]
    assert "trusted network" in first and "nginx" in first and "Dockerfile" in first
    assert started.ran and out.getvalue().startswith("passk serve: http://127.0.0.1:8124/")


def test_workers_are_the_requests_computed_at_once(started):
    serve.main(["--port", "8124", "--workers", "3", "--host", "::1"], io.StringIO(), io.StringIO())
    serve.main(["--port", "8125"], io.StringIO(), io.StringIO())
    assert started.asked == [("::1", 8124, 3, ""), ("127.0.0.1", 8125, 2 * len(os.sched_getaffinity(0)) + 1, "")]


def test_the_help_says_what_workers_are():
    text = " ".join(serve.parser().format_help().split())
    assert "requests computed at once" in text and "sandbox process" in text and "slow and idle clients" in text
    assert "half of them (at least one) take uploads and share links" in text


def test_forwarded_headers_are_believed_from_one_proxy_only(monkeypatch):
    monkeypatch.setenv("PASSK_FORWARDED_ALLOW_IPS", "10.0.0.1, 10.0.0.2")
    said = io.StringIO()
    assert serve.main(["--port", "8126"], io.StringIO(), said) == 2   # refused before any socket is bound
    assert "PASSK_FORWARDED_ALLOW_IPS names 2 addresses" in said.getvalue()


def test_a_port_in_use_is_a_sentence_and_status_1():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        said = io.StringIO()
        assert serve.main(["--port", str(port), "--workers", "1"], io.StringIO(), said) == 1
    assert f"cannot listen on 127.0.0.1 port {port}" in said.getvalue()


def test_uploads_are_spooled_in_memory_where_there_is_some(tmp_path):
    assert SPOOL(str(tmp_path)) == str(tmp_path)   # PASSK_SPOOL first
    if os.access("/dev/shm", os.W_OK):
        assert SPOOL(None) == "/dev/shm" and SPOOL(str(tmp_path / "missing")) == "/dev/shm"
