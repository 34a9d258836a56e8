"""`passk serve`'s HTTP server: waitress, with the site's bounds, its sentences and headers, and quiet logs.

waitress reads each request whole (headers and body) in one event loop before
a thread computes it, and takes each answer whole from the thread, so an idle
or dribbling client costs the loop a few kilobytes, never a thread: the part
of nginx's work (deploy/nginx.conf) that lets the site run without it on
one's own machine. On top of waitress's own settings this module gives it
nginx's bounds: 10 s for a request's headers, 8 KiB for the request line (414)
and each header (431), a chunked body's size lines bounded (400), bodies up to
1 MiB past the upload limit kept in memory, never in a file; its own answers
as a sentence (JSON under /api/, a short page elsewhere) with the site's
security headers, which any answer lacking them also gets; its log lines
without the path or an exception's message; and, as the stack's two gunicorn
pools, threads of their own for uploads and share links (Pools), so heavy work
never takes the threads pages and /healthz need.
"""

import html
import json
import logging
import re
import socket
import sys
from time import monotonic
from typing import Any, Protocol

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import ChunkedReceiver
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import BadRequest, Error, RequestHeaderFieldsTooLarge

from passk import limits
from passk.limits import LIMITS, KiB, MiB
from passk.web.quietlog import describe
from passk.web.app import served_app
from passk.web.hooks import CONTENT_SECURITY_POLICY

Headers = list[tuple[str, str]]

HEADER_SECONDS = 10          # a request's line and headers must arrive within this (nginx: client_header_timeout)
QUIET_SECONDS = 20           # a connection silent this long between requests or reads is closed (client_body_timeout)
HEADER_LINES = 4             # nginx's large_client_header_buffers: four buffers of header_bytes in all
BODY_BYTES = LIMITS.upload_bytes + MiB   # as nginx: a body just past the upload limit gets the app's own 413
CHUNK_LINE_BYTES = 1024      # a chunk's size line (hexadecimal digits and extensions)
CONNECTIONS = 1000           # open connections at once; past them new ones wait in the listen queue
API_REQUEST = re.compile(rb"[A-Z]+ +/api/")   # the server's own answers are JSON there, as the app's are
# Heavy requests, as deploy/nginx.conf's $passk_pool sends them to the stack's uploads pool: the uploads, and
# the share links of the benchmark and compare pages (and the ceiling's test-only endless statistic)
UPLOADS = ("/benchmark", "/benchmark/download", "/compare", "/api/v1/benchmark", "/api/v1/compare")
SHARE_LINKS = ("/benchmark", "/compare", "/benchmark/endless", "/compare/endless")

SECURITY_HEADERS: Headers = [
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
]

HEADER_TOO_LONG = (f"The address or a header is longer than {LIMITS.header_bytes // KiB} KiB; send long inputs in "
                   f"the body of a POST.")
SENTENCES = {
    "malformed": "The request could not be read as HTTP: its request line or a header is malformed.",
    "chunked": "The request's body could not be read: its chunked transfer coding is malformed (each chunk is its "
               "size in hexadecimal, CRLF, its bytes, CRLF, and a chunk of size 0 ends the body); send valid chunks, "
               "or the body whole with a Content-Length.",
    "headers": f"The address and headers together are longer than {HEADER_LINES * LIMITS.header_bytes // KiB} KiB "
               f"(and each at most {LIMITS.header_bytes // KiB} KiB); send long inputs in the body of a POST.",
    "line": HEADER_TOO_LONG,
    "header": HEADER_TOO_LONG,
    "upload": limits.upload_too_large(),
    "coding": "This server does not implement that transfer coding: send the body whole, with a Content-Length, "
              "or chunked.",
    "bug": "passk could not answer this request: an unexpected error, which the server's log records by its place "
           "in the code; try again, or compute it with the passk command.",
}
PAGES = {   # status: the reason, the page's title and its one link
    400: ("Bad Request", "Bad request", "/", "Open the calculator"),
    413: ("Request Entity Too Large", "Upload too large", "/benchmark", "Back to the benchmark page"),
    414: ("URI Too Long", "Address too long", "/benchmark", "Paste or upload on the benchmark page"),
    431: ("Request Header Fields Too Large", "Header too large", "/benchmark", "Paste or upload on the benchmark page"),
    500: ("Internal Server Error", "Server error", "/", "Open the calculator"),
    501: ("Not Implemented", "Not implemented", "/", "Open the calculator"),
}


class LineTooLong(BadRequest):  # type: ignore[misc]   # waitress publishes no types
    code, reason = 414, "URI Too Long"


class HeaderTooLong(RequestHeaderFieldsTooLarge):  # type: ignore[misc]
    pass


def with_security_headers(headers: Headers) -> Headers:
    """The headers, plus each of the site's security headers they lack (framing refused unless they set a policy).

    The app's own answers have them all (passk.web.hooks); the server's answers, and any the app were to send
    past its hooks, get the strictest set, as nginx adds it to the answers it writes itself."""
    present = {name.lower() for name, _ in headers}
    framing_set = "content-security-policy" in present   # /embed's policy allows framing and sends no X-Frame-Options
    return headers + [(name, value) for name, value in SECURITY_HEADERS
                      if name.lower() not in present and not (name == "X-Frame-Options" and framing_set)]


def overlong(head: bytes, most: int = LIMITS.header_bytes) -> Error | None:
    """A 414 when the request line, a 431 when a header, of the head received so far is longer than `most`."""
    end = head.find(b"\r\n\r\n")
    lines = (head if end < 0 else head[:end]).split(b"\r\n")
    if len(lines[0]) > most:
        return LineTooLong(f"request line over {most} bytes")
    if any(len(line) > most for line in lines[1:]):
        return HeaderTooLong(f"a header over {most} bytes")
    return None


def error_kind(error: Error, in_body: bool) -> str:
    """Which sentence answers a request waitress refused (`in_body`: the headers were read, the body was not)."""
    if isinstance(error, LineTooLong):
        return "line"
    if isinstance(error, HeaderTooLong):
        return "header"
    return {413: "upload", 431: "headers", 500: "bug", 501: "coding"}.get(
        error.code, "chunked" if in_body else "malformed")


def error_answer(status: int, kind: str, as_json: bool) -> tuple[str, Headers, bytes]:
    """The server's own answer: one sentence, as {"error": ...} or a short page, with the security headers."""
    reason, title, link, label = PAGES.get(status, PAGES[400])
    sentence = SENTENCES[kind]
    if as_json:
        content_type, body = "application/json", json.dumps({"error": sentence}) + "\n"
    else:
        content_type = "text/html; charset=utf-8"
        body = (f'<!doctype html><html lang="en"><meta charset="utf-8"><title>{title} · passk</title>'
                f'<h1>{title}</h1><p>{html.escape(sentence)} <a href="{link}">{label}</a>.</p></html>\n')
    return f"{status} {reason}", with_security_headers([("Content-Type", content_type)]), body.encode("utf-8")


class Parser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser, with nginx's bounds on the request line and each header, and a bound on a
    chunked body's size lines and trailer (waitress would copy an endless one over and over, up to the body's
    limit, in the loop every client waits on)."""

    as_json = False   # the request line names /api/
    completed: bool
    error: Error | None

    def received(self, data: bytes) -> int:
        if self.body_rcv is None and not self.completed:
            head = (self.header_plus + data).lstrip()
            self.as_json = API_REQUEST.match(head) is not None
            refusal = overlong(head)
            if refusal is not None:
                self.parse_header(b"GET / HTTP/1.0\r\n")   # as waitress does for its 431: a request to answer
                self.error, self.completed = refusal, True
                return len(data)
        consumed: int = super().received(data)
        chunks = self.body_rcv
        if isinstance(chunks, ChunkedReceiver) and not self.completed and (
                len(chunks.control_line) > CHUNK_LINE_BYTES or len(chunks.trailer) > LIMITS.header_bytes):
            self.error, self.completed = BadRequest("chunk size line or trailer too long"), True
        return consumed


class SecuredAnswer(WSGITask):  # type: ignore[misc]
    """The app's answer, given any security header it lacks."""

    response_headers: Headers

    def build_response_header(self) -> bytes:
        self.response_headers = with_security_headers(self.response_headers)
        header: bytes = super().build_response_header()
        return header


class ErrorAnswer(ErrorTask):  # type: ignore[misc]
    """The server's own refusal (a malformed or oversized request, or an app that raised): a sentence."""

    def execute(self) -> None:
        request = self.request
        kind = error_kind(request.error, in_body=request.body_rcv is not None)
        status, headers, body = error_answer(request.error.code, kind, getattr(request, "as_json", False))
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class Channel(HTTPChannel):  # type: ignore[misc]
    """One client's connection: dropped when its headers take more than HEADER_SECONDS, and ended for good when
    closed (a sandbox the ceiling forked holds a copy of every socket open then)."""

    task_class = SecuredAnswer
    error_task_class = ErrorAnswer
    parser_class = Parser
    request_started = 0.0

    def received(self, data: bytes) -> bool:
        now = monotonic()
        if self.request is None:
            self.request_started = now
        elif not self.request.headers_finished and now - self.request_started > HEADER_SECONDS:
            self.will_close = True   # dropped without a word, as nginx drops a client slow with its headers
            return False
        return bool(super().received(data))

    def handle_close(self) -> None:
        if self.socket is not None:   # None once closed
            try:
                self.socket.shutdown(socket.SHUT_RDWR)
            except OSError:   # the client went first
                pass
        super().handle_close()


class Server(TcpWSGIServer):  # type: ignore[misc]
    channel_class = Channel


def heavy(method: str, path: str, query: str) -> bool:
    """True for the requests the stack's nginx sends to its uploads pool: uploads, and share links of the
    benchmark and compare pages, which may each take up to the ceiling's CPU time."""
    path = "/" + path.lstrip("/")
    return (method == "POST" and path in UPLOADS) or (method in ("GET", "HEAD") and bool(query)
                                                      and path in SHARE_LINKS)


def pools(workers: int) -> tuple[int, int]:
    """(heavy, light) threads for `workers` requests at once, split as scripts/run.sh splits the stack's
    workers: half of them, at least one, for heavy requests, and the rest, at least one, for everything else."""
    heavy = max(1, workers // 2)
    return heavy, max(1, workers - heavy)


class Pools:
    """waitress's task dispatcher, twice over: heavy requests have threads of their own, so that while they all
    run, pages, the API and /healthz are still answered (a heavy request past its threads waits its turn)."""

    def __init__(self, workers: int) -> None:
        self.threads = pools(workers)
        self.heavy, self.light = ThreadedTaskDispatcher(), ThreadedTaskDispatcher()

    def start(self) -> None:
        self.heavy.set_thread_count(self.threads[0])
        self.light.set_thread_count(self.threads[1])

    def add_task(self, channel: HTTPChannel) -> None:
        """Queue the channel's next request (its first) in its pool; malformed ones are light: they compute
        nothing."""
        request = channel.requests[0]
        weighs = request.error is None and heavy(getattr(request, "command", ""), getattr(request, "path", ""),
                                                 getattr(request, "query", ""))
        (self.heavy if weighs else self.light).add_task(channel)

    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool:
        heavy_done: bool = self.heavy.shutdown(cancel_pending, timeout)
        return self.light.shutdown(cancel_pending, timeout) and heavy_done


class Running(Protocol):
    """What `create` returns: a server, bound and listening, that runs until Ctrl-C or SIGTERM."""

    def run(self) -> None: ...


def settings(host: str, port: int, threads: int, forwarded: str = "") -> dict[str, Any]:
    """waitress's adjustments for passk serve. `forwarded`: PASSK_FORWARDED_ALLOW_IPS, the one address (or *)
    whose X-Forwarded-Proto is believed; every forwarded header from anyone else is dropped."""
    proxies = [name.strip() for name in forwarded.split(",") if name.strip()]
    if len(proxies) > 1:
        raise ValueError(f"PASSK_FORWARDED_ALLOW_IPS names {len(proxies)} addresses; passk serve believes "
                         f"X-Forwarded-Proto from one (or *): name the proxy in front of it.")
    trusted = {"trusted_proxy": proxies[0], "trusted_proxy_count": 1,
               "trusted_proxy_headers": {"x-forwarded-proto"}} if proxies else {}
    return dict(host=host, port=port, threads=threads, ident="passk", connection_limit=CONNECTIONS,
                asyncore_use_poll=True,   # select() stops at 1,024 descriptors
                channel_timeout=QUIET_SECONDS, cleanup_interval=max(1, QUIET_SECONDS // 4),
                max_request_header_size=HEADER_LINES * LIMITS.header_bytes, max_request_body_size=BODY_BYTES,
                # nothing a client sends, nor an answer, is written to a file: a buffer moves to one only past
                # these sizes, which no accepted body reaches; outbuf_high_watermark (16 MiB) bounds an answer's
                # buffers, as the thread waits for the client to read
                inbuf_overflow=BODY_BYTES, outbuf_overflow=BODY_BYTES,
                expose_tracebacks=False, log_socket_errors=False, clear_untrusted_proxy_headers=True, **trusted)


def create(host: str, port: int, workers: int, forwarded: str = "") -> Running:
    """The server for `workers` requests at once in two pools (Pools), listening on every address `host` names
    (localhost may be two), running served_app(slots=) its threads in all.

    The app comes first, before any socket or thread: the ceiling forks its sandboxes then, and they inherit
    neither the listening sockets nor a lock a thread holds."""
    dispatcher = Pools(workers)
    threads = sum(dispatcher.threads)
    adjustments = Adjustments(**settings(host, port, threads, forwarded))
    application = served_app(slots=threads)
    sockets: dict[int, Any] = {}
    try:
        servers = [Server(application, map=sockets, dispatcher=dispatcher, adj=adjustments, sockinfo=sockinfo)
                   for sockinfo in adjustments.listen]
    except OSError:   # an address in use or not this machine's: close what was opened before it
        wasyncore.close_all(sockets)
        if callable(close := getattr(application, "close", None)):   # the ceiling's sandboxes
            close()
        raise
    dispatcher.start()
    if len(servers) == 1:
        only: Running = servers[0]
        return only
    addresses = [server.getsockname() for server in servers]
    multi: Running = MultiSocketServer(sockets, adjustments, addresses, dispatcher, servers[0].log_info)
    return multi


class QuietRecords(logging.Filter):
    """waitress's log lines without what a client sent: the path or the address they name, a forwarded header's
    value, and an exception's message (which may quote the input), given instead as its type and code locations."""

    REWORDED = {
        "Client disconnected while serving": "A client disconnected before its answer was sent.",
        "Malformed proxy header": "Refused a malformed forwarded header (not logged: what the proxy sent).",
        "Exception while serving": "Error handling a request",
        "Exception when servicing": "Error handling a request",
        "uncaptured python exception": "Error in the server's loop, which closed one connection",
    }

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("waitress"):
            return True
        message = str(record.msg)
        said = next((said for start, said in self.REWORDED.items() if message.startswith(start)), None)
        error = record.exc_info[1] if record.exc_info else None
        if error is None and message.startswith("uncaptured python exception"):   # logged in its except block
            error = sys.exc_info()[1]
        if error is not None:   # the error's type and where, not its message
            record.msg, record.args = "%s: %s", (said or message, describe(error))
            record.exc_info, record.exc_text = None, None
        elif said is not None:
            record.msg, record.args = said, ()
        return True


def quiet_logging() -> None:
    """Log lines (errors, and waitress's notes) to stderr, through QuietRecords; no access log exists."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(QuietRecords())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
