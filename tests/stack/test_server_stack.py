"""The production stack (nginx in front of gunicorn, scripts/run.sh) as a hostile client meets it.

Each test talks to a real stack on a loopback port over raw sockets or
http.client. No test times an answer: a stall shows as the wrong status (nginx's
own timeouts answer 408 or close), as a worker timeout in the log, or at worst
as a socket timeout of 60 s that only keeps the suite from hanging.
bench/slow_clients.py measures latencies under attack.
"""

import http.client
import json
import socket
import threading

import pytest

from deploy.stack import ProductionStack, find_executable
from passk.limits import LIMITS, size

MARKER = "zq-marker-4412"
LIMIT = LIMITS.upload_bytes

pytestmark = pytest.mark.skipif(
    not find_executable("nginx"),
    reason="the production stack needs nginx; scripts/test.sh installs it")


def exchange(stack, data, timeout=60):
    """Send raw bytes, return (status, headers dict with lower-case names, body) of the answer."""
    with socket.create_connection(("127.0.0.1", stack.port), timeout=timeout) as connection:
        connection.sendall(data)
        answer = b""
        try:
            while not _complete(answer) and (chunk := connection.recv(65536)):
                answer += chunk
        except ConnectionResetError:
            pass   # nginx resets a connection whose unread body it will not wait for
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _complete(answer):
    """True once the answer's headers and as many body bytes as Content-Length says have arrived."""
    head, separator, body = answer.partition(b"\r\n\r\n")
    length = [line.split(b":")[1] for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")]
    return bool(separator) and bool(length) and len(body) >= int(length[0])


def get(stack, path, headers=None, timeout=60):
    """(status, headers, body) of a GET through a fresh http.client connection."""
    return stack.request("GET", path, headers=headers, timeout=timeout)


# raw request, expected status, JSON answer expected (else HTML)
HOSTILE_REQUESTS = [
    pytest.param(f"GET /?n={MARKER} HTTP/1.1 extra\r\nHost: localhost\r\n\r\n".encode(), 400, False,
                 id="malformed-request-line"),
    pytest.param(f"GET /api/v1/pass-at-k?{MARKER} HTTP/1.1 junk\r\n\r\n".encode(), 400, True,
                 id="malformed-request-line-api"),
    pytest.param(f"GET / HTTP/1.1\r\nHost: localhost\r\nBad Name {MARKER}: 1\r\n\r\n".encode(), 400, False,
                 id="invalid-header-name"),
    pytest.param(f"\x16\x03\x01 {MARKER} not http\r\n\r\n".encode(), 400, False, id="tls-hello-garbage"),
    pytest.param(b"GET /api/v1/pass-at-k?n=" + b"9" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414, True,
                 id="request-line-over-8k-api"),
    pytest.param(b"GET /?n=" + b"9" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414, False,
                 id="request-line-over-8k"),
    pytest.param(b"GET /api/v1/pass-at-k HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"x" * 9000 + b"\r\n\r\n", 431, True,
                 id="header-over-8k-api"),
    pytest.param(f"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Length: {LIMIT + 2**21}\r\n\r\n".encode(),
                 413, True, id="declared-body-over-limit-api"),
    pytest.param(f"POST /benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Length: {10**15}\r\n\r\n".encode(),
                 413, False, id="declared-body-petabyte"),
    pytest.param(b"GET /?n=10&c=3&k=5 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", 400, False, id="untrusted-host"),
    pytest.param(b"GET /api/v1/pass-at-k?n=1&c=1&k=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", 400, True,
                 id="untrusted-host-api"),
    pytest.param(b"GET /?n=10&c=3&k=5 HTTP/1.0\r\n\r\n", 200, False, id="http-1.0-without-host"),
    pytest.param(b"GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 505, False, id="http-2-as-text"),
    pytest.param(b"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n", 501, True,
                 id="unknown-transfer-coding-api"),
    pytest.param(b"BREW / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 405, False, id="unknown-method"),
]


@pytest.mark.parametrize("request_bytes, status, as_json", HOSTILE_REQUESTS)
def test_every_answer_has_the_headers_and_a_sentence(stack, request_bytes, status, as_json):
    answer_status, headers, body = exchange(stack, request_bytes)
    assert answer_status == status
    assert headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers.get("referrer-policy") == "no-referrer"
    assert MARKER.encode() not in body and b"evil.example" not in body
    if as_json:
        assert headers["content-type"].startswith("application/json")
        assert json.loads(body)["error"].endswith(".")
    else:
        assert headers["content-type"].startswith(("text/html", "text/plain"))


def test_a_request_without_host_gets_links_to_localhost_not_nowhere(stack):
    _, _, body = exchange(stack, b"GET /?n=10&c=3&k=5 HTTP/1.0\r\n\r\n")
    assert b"http://localhost/?n=10&amp;c=3&amp;k=5" in body and b"http:///" not in body


@pytest.mark.parametrize("host", [b"", b"Host: lb.internal\r\n", b"Host: localhost\r\n"])
def test_health_checks_are_answered_whatever_host_they_name(stack, host):
    status, _, body = exchange(stack, b"GET /healthz HTTP/1.0\r\n" + host + b"\r\n")
    assert (status, body) == (200, b"ok\n")


def test_nothing_the_client_sent_reaches_the_log(stack):
    for request_bytes, *_ in (param.values for param in HOSTILE_REQUESTS):
        exchange(stack, request_bytes)
    get(stack, f"/?n={MARKER}&c=1&k=1")
    get(stack, f"/api/v1/pass-at-k?n=1&c=1&k={MARKER}")
    log = stack.log()
    assert MARKER not in log
    assert "ip=" not in log and "evil.example" not in log
    assert "Booting worker" in log   # the log is there, and read


def test_a_chunked_body_over_the_limit_is_refused_without_reading_it_all(stack):
    connection = socket.create_connection(("127.0.0.1", stack.port), timeout=60)
    connection.sendall(b"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (2**20, b" " * 2**20)
    sent = 0
    try:
        while sent < LIMIT + 8 * 2**20:
            connection.sendall(chunk)
            sent += 2**20
    except (BrokenPipeError, ConnectionResetError):
        pass   # nginx stopped reading once the body passed the limit
    answer = connection.recv(65536)
    connection.close()
    assert answer.startswith(b"HTTP/1.1 413")
    assert f'"error": "The upload is larger than the {size(LIMIT)} limit'.encode() in answer


def test_a_body_just_past_the_upload_limit_is_passed_on_so_the_app_answers_it(stack):
    """nginx passes on 1 MiB more than the app's limit (deploy/nginx.conf); past that it answers itself."""
    length = LIMIT + 2**19
    head = (f"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
            f"boundary=x\r\nContent-Length: {length}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", stack.port), timeout=60) as connection:
        connection.sendall(head)
        try:
            for _ in range(length // 2**20):
                connection.sendall(b" " * 2**20)
            connection.sendall(b" " * (length % 2**20))
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        while not _complete(answer) and (chunk := connection.recv(65536)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"or use the command line (the passk command)" in answer   # the app's sentence, not nginx's page


def test_connections_are_kept_alive(stack):
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
    sockets = []
    try:
        for path in ("/healthz", "/api/v1/pass-at-k?n=10&c=3&k=5", "/?n=10&c=3&k=5"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == 200
            assert response.getheader("Connection", "keep-alive").lower() == "keep-alive"
            sockets.append(connection.sock)
        assert sockets[0] is sockets[1] is sockets[2]   # the same connection served all three
    finally:
        connection.close()


def test_fingerprinted_static_files_pass_through_with_their_caching(stack):
    _, _, page = get(stack, "/")
    address = page.decode().split('href="/static/style.css?v=')[1].split('"')[0]
    status, headers, _ = get(stack, f"/static/style.css?v={address}")
    assert status == 200 and "immutable" in headers["cache-control"]
    status, headers, body = get(stack, "/favicon.ico")
    assert status == 200 and body[:4] == b"\x00\x00\x01\x00"


class Attackers:
    """Connections that never finish a request: idle, dribbling headers, dribbling a body."""

    def __init__(self, port, each):
        self.port, self.each = port, each
        self.sockets = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._dribble, daemon=True)

    def __enter__(self):
        for kind in ("idle", "headers", "body"):
            for _ in range(self.each):
                connection = socket.create_connection(("127.0.0.1", self.port), timeout=60)
                if kind == "headers":
                    connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
                elif kind == "body":
                    connection.sendall(b"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\n"
                                       b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
                self.sockets.append((kind, connection))
        self.thread.start()
        return self

    def _dribble(self):
        while not self.stopped.wait(0.5):
            for kind, connection in self.sockets:
                try:
                    if kind == "headers":
                        connection.sendall(b"X-Slow: 1\r\n")
                    elif kind == "body":
                        connection.sendall(b" ")
                except OSError:
                    pass

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join()
        for _, connection in self.sockets:
            connection.close()


def test_idle_and_dribbling_clients_do_not_stall_the_site(stack):
    """30 stuck connections against 2 workers: a bare gunicorn would answer nobody until its arbiter
    killed a stuck worker (WORKER TIMEOUT after 30 s), and then the next stuck connection would take it."""
    logged = len(stack.log())
    with Attackers(stack.port, each=10):
        for path in ("/?n=10&c=3&k=5", "/api/v1/pass-at-k?n=10&c=3&k=5", "/benchmark") * 3:
            status, _, _ = get(stack, path)
            assert status == 200
    assert "WORKER TIMEOUT" not in stack.log()[logged:]   # answered by the workers, not after freeing one


def test_a_graceful_stop_finishes_the_requests_under_way():
    """SIGTERM to run.sh: nginx stops taking connections, answers what it holds, then gunicorn stops."""
    body = json.dumps({"problems": [{"task_id": f"t{i}", "n": 1000 + i, "c": i % 1000} for i in range(20000)],
                       "k": [1, 10, 100]}).encode()
    running = ProductionStack(workers=2).start()
    statuses, sent = [], threading.Semaphore(0)

    def post():
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=60)
        try:
            connection.request("GET", "/healthz")   # nginx has accepted this connection ...
            connection.getresponse().read()
            connection.request("POST", "/api/v1/benchmark", body, {"Content-Type": "application/json"})
            sent.release()                          # ... and holds the whole request
            statuses.append(connection.getresponse().status)
        except OSError as error:
            statuses.append(repr(error))
            sent.release()
        finally:
            connection.close()

    clients = [threading.Thread(target=post) for _ in range(6)]
    for client in clients:
        client.start()
    for _ in clients:
        sent.acquire(timeout=30)   # every request is sent whole: each is under way when the stop comes
    running.close()
    for client in clients:
        client.join()
    assert statuses == [200] * 6
    assert running.process.returncode == 0


def test_a_page_asked_for_again_comes_from_nginx_cache_keyed_by_host(stack):
    path = "/?n=123&c=45&k=6"
    first = get(stack, path)
    assert first[0] == 200 and first[1]["x-cache"] == "MISS"
    # nginx files the answer once it has passed it on, so the next asks may still miss.
    again = next((answer for answer in (get(stack, path) for _ in range(50)) if answer[1]["x-cache"] == "HIT"), None)
    assert again is not None and again[2] == first[2]
    assert again[1]["x-content-type-options"] == "nosniff"   # the cached answer keeps the app's headers
    other_host = get(stack, path, headers={"Host": "localhost"})
    assert other_host[1]["x-cache"] == "MISS" and b"http://localhost/?n=123" in other_host[2]


def test_errors_and_health_are_never_cached(stack):
    for path in ("/?n=1&c=5&k=1", "/healthz"):
        get(stack, path)
        assert get(stack, path)[1].get("x-cache") in (None, "MISS", "BYPASS", "EXPIRED")
