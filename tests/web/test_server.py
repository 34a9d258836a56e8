"""passk serve's server (passk/web/server.py), piece by piece: its bounds on what a request may send, its own
answers and their headers, what it keeps in memory and what it logs (tests/stack/test_serve_alone.py meets the
whole server over sockets)."""

import json
import logging
import re
import socket
import sys
from types import SimpleNamespace

import pytest
from waitress.adjustments import Adjustments

from passk.limits import LIMITS, MiB, size
from passk.web import server
from passk.web.hooks import CONTENT_SECURITY_POLICY
from where import ROOT

MARKER = "zq-marker-5108"
ADJUSTMENTS = Adjustments(**server.settings("127.0.0.1", 8000, 2))
SECURITY = {"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
            "Cross-Origin-Opener-Policy"}


def parsed(*pieces):
    """A request parser fed `pieces` of a request as a channel feeds it what each read brings."""
    parser = server.Parser(ADJUSTMENTS)
    for piece in pieces:
        while piece and not parser.completed:
            piece = piece[parser.received(piece):]
    return parser


def refusal(parser):
    """(status, sentence kind) of the answer to a request waitress refused."""
    return parser.error.code, server.error_kind(parser.error, in_body=parser.body_rcv is not None)


LONG = b"a" * (LIMITS.header_bytes + 1)


@pytest.mark.parametrize("request_bytes, status, kind", [
    pytest.param(b"GET /?n=" + LONG + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414, "line", id="address"),
    pytest.param(b"GET /?n=" + LONG, 414, "line", id="address-still-arriving"),
    pytest.param(b"GET / HTTP/1.1\r\nX-Long: " + LONG + b"\r\n\r\n", 431, "header", id="one-header"),
    pytest.param(b"GET / HTTP/1.1\r\n" + (b"X-Many: " + b"a" * 8000 + b"\r\n") * 5, 431, "headers", id="all-headers"),
    pytest.param(b"GET / HTTP/1.1 extra\r\n\r\n", 400, "malformed", id="request-line"),
    pytest.param(b"POST /api/v1/benchmark HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n", 400, "chunked",
                 id="chunk-size"),
    pytest.param(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + b"1" * 5000, 400, "chunked",
                 id="endless-chunk-size"),
    pytest.param(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + LONG, 400, "chunked",
                 id="endless-trailer"),
    pytest.param(b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "coding", id="transfer-coding"),
    pytest.param(f"POST / HTTP/1.1\r\nContent-Length: {LIMITS.upload_bytes + MiB}\r\n\r\n".encode(), 413, "upload",
                 id="declared-body"),
])
def test_what_a_request_may_not_send_is_refused_before_any_thread_sees_it(request_bytes, status, kind):
    assert refusal(parsed(request_bytes)) == (status, kind)


def test_the_address_line_and_each_header_may_be_8_kib_long():
    line = b"/?n=" + b"1" * (LIMITS.header_bytes - len(b"GET /?n= HTTP/1.1"))
    parser = parsed(b"GET " + line + b" HTTP/1.1\r\nX-Long: " + b"a" * (LIMITS.header_bytes - 8) + b"\r\n\r\n")
    assert parser.completed and parser.error is None


def test_a_chunked_body_arriving_in_pieces_is_read_whole():
    parser = parsed(b"POST /api/v1/benchmark HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", b"5\r\nhel",
                    b"lo\r\n6\r\n world\r\n", b"0\r\n\r\n")
    assert parser.error is None and parser.completed and parser.get_body_stream().read() == b"hello world"


def test_a_body_just_past_the_upload_limit_is_passed_on_so_the_app_answers_it():
    parser = parsed(f"POST / HTTP/1.1\r\nContent-Length: {LIMITS.upload_bytes + 1}\r\n\r\n".encode())
    assert parser.error is None   # the body is read, then the app refuses it with its own 413 sentence


def test_nothing_a_client_sends_is_written_to_a_file():
    """waitress moves a buffer to a temporary file past inbuf_overflow or outbuf_overflow: no accepted body
    reaches either, and the answers' buffers are bounded by the high-water mark well below."""
    assert ADJUSTMENTS.max_request_body_size == LIMITS.upload_bytes + MiB
    assert ADJUSTMENTS.inbuf_overflow >= ADJUSTMENTS.max_request_body_size
    assert ADJUSTMENTS.outbuf_overflow > ADJUSTMENTS.outbuf_high_watermark + LIMITS.download_bytes
    assert not ADJUSTMENTS.expose_tracebacks


def test_forwarded_headers_are_dropped_unless_one_proxy_is_named():
    assert ADJUSTMENTS.clear_untrusted_proxy_headers and ADJUSTMENTS.trusted_proxy is None
    behind = Adjustments(**server.settings("127.0.0.1", 8000, 2, forwarded="127.0.0.1"))
    assert behind.trusted_proxy == "127.0.0.1" and behind.trusted_proxy_headers == {"x-forwarded-proto"}
    with pytest.raises(ValueError, match="PASSK_FORWARDED_ALLOW_IPS names 2 addresses"):
        server.settings("127.0.0.1", 8000, 2, forwarded="10.0.0.1,10.0.0.2")


@pytest.mark.parametrize("status, kind", [(400, "malformed"), (400, "chunked"), (413, "upload"), (414, "line"),
                                          (431, "header"), (431, "headers"), (500, "bug"), (501, "coding")])
@pytest.mark.parametrize("as_json", [True, False])
def test_the_server_s_own_answers_are_a_sentence_with_the_security_headers(status, kind, as_json):
    status_line, headers, body = server.error_answer(status, kind, as_json)
    named = dict(headers)
    assert status_line.startswith(f"{status} ") and SECURITY <= set(named)
    assert named["Content-Security-Policy"] == CONTENT_SECURITY_POLICY and named["X-Frame-Options"] == "DENY"
    text = body.decode()
    if as_json:
        assert named["Content-Type"] == "application/json"
        sentence = json.loads(text)["error"]
    else:
        assert named["Content-Type"] == "text/html; charset=utf-8" and text.startswith("<!doctype html>")
        sentence = text.split("<p>")[1].split(" <a ")[0].replace("&#x27;", "'")
    assert sentence == server.SENTENCES[kind] and sentence.endswith(".") and sentence.count(". ") == 0


def test_the_sentences_name_the_limits():
    assert f"larger than the {size(LIMITS.upload_bytes)} limit" in server.SENTENCES["upload"]
    assert f"longer than {LIMITS.header_bytes // 1024} KiB" in server.SENTENCES["line"]
    assert "chunked" in server.SENTENCES["chunked"] and "Content-Length" in server.SENTENCES["chunked"]


def test_answers_lacking_security_headers_get_them_and_the_app_s_own_are_kept():
    bare = dict(server.with_security_headers([("Content-Type", "text/plain")]))
    assert SECURITY <= set(bare) and bare["X-Frame-Options"] == "DENY"
    embed_policy = CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", "")
    embed = [("Content-Security-Policy", embed_policy), ("X-Content-Type-Options", "nosniff"),
             ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Opener-Policy", "same-origin")]
    assert server.with_security_headers(embed) == embed   # /embed may be framed: no X-Frame-Options added


def test_errors_under_api_are_json():
    assert parsed(b"GET /api/v1/pass-at-k?n=" + LONG).as_json
    assert not parsed(b"GET /?n=" + LONG).as_json


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_client_that_takes_over_10_s_for_its_headers_is_dropped(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(server, "monotonic", clock)
    ours, theirs = socket.socketpair()
    fake_server = SimpleNamespace(active_channels={}, add_task=lambda channel: None)
    channel = server.Channel(fake_server, ours, ("127.0.0.1", 1), ADJUSTMENTS, map={})
    try:
        assert channel.received(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        clock.now += server.HEADER_SECONDS - 1
        assert channel.received(b"X-Slow: 1\r\n") and not channel.will_close
        clock.now += 2
        assert not channel.received(b"X-Slow: 1\r\n") and channel.will_close
    finally:
        channel.handle_close()
        theirs.close()


def test_a_client_whose_requests_keep_coming_is_not_dropped(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(server, "monotonic", clock)
    ours, theirs = socket.socketpair()
    fake_server = SimpleNamespace(active_channels={}, add_task=lambda channel: None)
    channel = server.Channel(fake_server, ours, ("127.0.0.1", 1), ADJUSTMENTS, map={})
    try:
        for _ in range(3):   # each request's headers arrive in time; together they take longer than the bound
            assert channel.received(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
            clock.now += server.HEADER_SECONDS - 1
            assert channel.received(b"\r\n") and not channel.will_close
            channel.requests.clear()   # as the thread that answered it would
    finally:
        channel.handle_close()
        theirs.close()


def record(message, *args, exc_info=None, name="waitress"):
    return logging.LogRecord(name, logging.ERROR, __file__, 1, message, args, exc_info)


def raised():
    try:
        raise ValueError(f"bad task id {MARKER}")
    except ValueError:
        return sys.exc_info()


@pytest.mark.parametrize("line", [
    record(f"Client disconnected while serving /?n={MARKER}"),
    record(f"Exception while serving /?n={MARKER}", exc_info=raised()),
    record("Exception when servicing %r", f"<task {MARKER}>", exc_info=raised()),
    record('Malformed proxy header "%s" from "%s": %s value: %s', "x-forwarded-proto", "127.0.0.1", "bad", MARKER),
])
def test_the_log_says_where_never_what_a_client_sent(line):
    assert server.QuietRecords().filter(line)
    formatted = logging.Formatter().format(line)
    assert MARKER not in formatted and "127.0.0.1" not in formatted
    if "Error handling" in formatted:
        assert "ValueError in" in formatted and "test_server.py" in formatted


def test_a_loop_error_is_logged_by_its_place_in_the_code():
    try:
        raise KeyError(MARKER)
    except KeyError:   # waitress logs these from inside its except block, with the channel's address
        line = record(f"uncaptured python exception, closing channel <Channel 127.0.0.1:5 {MARKER}>")
        server.QuietRecords().filter(line)
    formatted = logging.Formatter().format(line)
    assert MARKER not in formatted and "127.0.0.1" not in formatted and "KeyError in" in formatted


def test_the_app_s_own_log_lines_pass_unchanged():
    line = record("Unhandled %s", "ValueError in passk/web/app.py:1 (view)", name="passk.web.app")
    assert server.QuietRecords().filter(line)
    assert line.getMessage() == "Unhandled ValueError in passk/web/app.py:1 (view)"


REQUESTS = [("POST", "/benchmark", ""), ("POST", "/api/v1/compare", ""), ("POST", "/benchmark/download", ""),
            ("GET", "/benchmark", "counts=10:3&k=1"), ("HEAD", "/compare", "a=10:3&b=10:4"),
            ("GET", "/benchmark/endless", "kind=python"), ("GET", "/benchmark", ""), ("GET", "/", "n=10&c=3&k=1"),
            ("GET", "/healthz", ""), ("GET", "/api/v1/pass-at-k", "n=10&c=3&k=1"), ("POST", "/", ""),
            ("GET", "/static/style.css", "v=1"), ("GET", "/embed", "n=10&c=3&k=1"), ("GET", "//benchmark", "k=1")]


def nginx_pool(method, path, query):
    """The pool deploy/nginx.conf's $passk_pool map names for a request (nginx merges a path's slashes)."""
    text = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    block = text[text.index('map "$request_method $uri$is_args" $passk_pool {'):]
    block = block[:block.index("}")]
    uri = "/" + path.lstrip("/") + ("?" if query else "")
    for pattern, pool in re.findall(r'"~([^"]+)"\s+(\w+);', block):
        if re.search(pattern, f"{method} {uri}"):
            return pool
    return "passk"


@pytest.mark.parametrize("method, path, query", REQUESTS)
def test_heavy_requests_are_those_the_stack_sends_to_its_uploads_pool(method, path, query):
    assert server.heavy(method, path, query) == (nginx_pool(method, path, query) == "passk_uploads")


@pytest.mark.parametrize("workers, heavy, light", [(1, 1, 1), (2, 1, 1), (3, 1, 2), (5, 2, 3), (8, 4, 4)])
def test_workers_are_split_between_heavy_and_light_requests_as_the_stack_splits_them(workers, heavy, light):
    assert server.pools(workers) == (heavy, light)


def test_each_request_is_queued_in_its_pool():
    dispatcher = server.Pools(3)
    queued = {"heavy": [], "light": []}
    dispatcher.heavy.add_task, dispatcher.light.add_task = queued["heavy"].append, queued["light"].append
    for method, path, query in REQUESTS:
        channel = SimpleNamespace(requests=[parsed(f"{method} {path}?{query} HTTP/1.1\r\n\r\n".encode())])
        dispatcher.add_task(channel)
        assert channel in queued["heavy" if server.heavy(method, path, query) else "light"]
    malformed = SimpleNamespace(requests=[parsed(b"POST /benchmark?k=1 HTTP/1.1 junk\r\n\r\n")])
    dispatcher.add_task(malformed)
    assert malformed in queued["light"]   # answered at once, computing nothing
