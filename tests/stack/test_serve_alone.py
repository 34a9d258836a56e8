"""`passk serve` (waitress, no nginx) as a hostile client meets it: slow and idle connections, malformed and
oversized requests, and what reaches its log.

One server for the module, started as a user starts it, on a loopback port.
Time bounds are generous (the site answers in milliseconds; gunicorn's gthread
workers, which passk serve ran before, gave no answer for 15 s with these
connections open); bench/slow_clients.py --serve measures the latencies.
"""

import http.client
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from passk.limits import LIMITS, MiB
from passk.web import endless, server
from where import ROOT

MARKER = "zq-marker-6620"
SECURITY = {"content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy",
            "cross-origin-opener-policy"}


class Served:
    """`passk serve` on a free loopback port, its log (stderr) in a file."""

    def __init__(self, log_path):
        with socket.socket() as probe:   # a port free now, for the server to take
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log_path = log_path
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(   # --workers 1: one thread for heavy requests, one for the rest
                [sys.executable, "-m", "passk", "serve", "--port", str(self.port), "--workers", "1"], cwd=ROOT,
                stdout=subprocess.PIPE, stderr=log, start_new_session=True,
                env={**os.environ, endless.SWITCH: "1"})
        with selectors.DefaultSelector() as ready:   # its address line comes once it listens
            ready.register(self.process.stdout, selectors.EVENT_READ)
            said = self.process.stdout.readline().decode() if ready.select(timeout=60) else ""
        if not said.startswith("passk serve: http://"):
            self.stop()
            pytest.fail(f"passk serve did not start: {said!r} {self.log()}")

    def log(self):
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def get(self, path, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def exchange(self, data, timeout=30):
        """Send raw bytes; (status, headers with lower-case names, body) of the answer, read to the server's close."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as connection:
            connection.sendall(data)
            answer = b""
            try:
                while chunk := connection.recv(65536):
                    answer += chunk
            except ConnectionResetError:   # the server closed with some of the request unread
                pass
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
        return int(lines[0].split()[1]), headers, body

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.communicate(timeout=30)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    running = Served(tmp_path_factory.mktemp("serve") / "stderr.log")
    yield running
    running.stop()


def still_open(connection):
    """True when the server has neither closed nor answered the connection."""
    connection.setblocking(False)
    try:
        connection.recv(1)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        connection.setblocking(True)
    return False


def test_pages_are_answered_while_20_slowloris_and_40_idle_connections_are_open(served):
    opened = time.monotonic()
    idle = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(40)]
    slow = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(20)]
    took = []
    try:
        for connection in slow:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        for round in range(10):
            for connection in slow:   # one more header line each round, never the end of the headers
                connection.sendall(f"X-Slow-{round}: 1\r\n".encode())
            for path in ("/healthz", "/", "/?n=200&c=57&k=10"):
                started = time.monotonic()
                status, body = served.get(path)
                took.append(time.monotonic() - started)
                assert status == 200, body
        if time.monotonic() - opened < server.HEADER_SECONDS:   # else the server may have dropped them, rightly
            assert all(still_open(connection) for connection in idle + slow)   # held all along, unanswered
    finally:
        for connection in idle + slow:
            connection.close()
    assert max(took) < 5


def test_pages_are_answered_while_a_heavy_request_takes_every_heavy_thread(served):
    """The one heavy thread computes a share link that never ends until the ceiling stops it; pages, the API and
    /healthz are answered meanwhile by the other thread (one shared thread would hold them all until then)."""
    heavy = {}

    def share_link():
        heavy["answer"] = served.get("/benchmark/endless?kind=python", timeout=120)

    computing = threading.Thread(target=share_link)
    computing.start()
    try:
        for path in ("/healthz", "/", "/?n=200&c=57&k=10", "/api/v1/pass-at-k?n=200&c=57&k=10") * 2:
            assert served.get(path)[0] == 200
        assert "answer" not in heavy   # the pages came first, though the share link was asked for before them
    finally:
        computing.join(timeout=120)
    assert heavy["answer"][0] == 413   # the ceiling's sentence


@pytest.mark.parametrize("path, as_json", [("/api/v1/benchmark", True), ("/benchmark", False)])
def test_a_malformed_chunked_body_is_answered_400_with_a_sentence(served, path, as_json):
    status, headers, body = served.exchange(
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
        f"Content-Type: application/json\r\n\r\nZZ\r\n".encode())
    assert status == 400 and SECURITY <= set(headers)
    if as_json:
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["error"] == server.SENTENCES["chunked"]
    else:
        assert headers["content-type"] == "text/html; charset=utf-8" and b"chunked transfer coding" in body


LONG = "a" * (LIMITS.header_bytes + 1)


@pytest.mark.parametrize("request_text, status", [
    pytest.param(f"GET /?n={MARKER} HTTP/1.1 extra\r\nHost: localhost\r\n\r\n", 400, id="malformed-line"),
    pytest.param(f"GET /api/v1/pass-at-k?n={MARKER}{LONG} HTTP/1.1\r\nHost: localhost\r\n\r\n", 414, id="address"),
    pytest.param(f"GET /?n={MARKER} HTTP/1.1\r\nHost: localhost\r\nX-Long: {LONG}\r\n\r\n", 431, id="header"),
    pytest.param(f"POST /benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Length: {LIMITS.upload_bytes + MiB}"
                 f"\r\n\r\n{MARKER}", 413, id="body"),
    pytest.param(f"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n{MARKER}",
                 501, id="transfer-coding"),
])
def test_the_server_s_own_errors_carry_the_security_headers_and_a_sentence(served, request_text, status):
    answered, headers, body = served.exchange(request_text.encode())
    assert answered == status and SECURITY <= set(headers)
    assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
    text = body.decode()
    sentence = json.loads(text)["error"] if "/api/" in request_text.split("\r\n")[0] else text
    assert any(said in sentence for said in server.SENTENCES.values()) and MARKER not in text


def test_the_app_s_answers_keep_their_own_headers(served):
    status, headers, body = served.exchange(b"GET /embed?n=10&c=3&k=5 HTTP/1.1\r\nHost: localhost\r\n"
                                            b"Connection: close\r\n\r\n")
    assert status == 200 and "x-frame-options" not in headers   # /embed may be framed
    assert "frame-ancestors" not in headers["content-security-policy"]


def test_nothing_the_client_sent_reaches_the_log(served):
    served.get(f"/?n={MARKER}&c=1&k=1")
    served.exchange(f"GET /{MARKER} HTTP/1.1 x\r\n\r\n".encode())
    served.exchange(f"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                    f"X-Note: {MARKER}\r\n\r\n{MARKER}\r\n".encode())
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as gone:   # leaves before its answer
        gone.sendall(f"GET /?n=200&c={MARKER} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    assert served.get("/healthz")[0] == 200
    log = served.log()
    assert MARKER not in log and "127.0.0.1:" not in log.replace(f"127.0.0.1:{served.port}", "")
