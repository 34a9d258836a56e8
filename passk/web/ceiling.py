"""The ceiling every request's computation runs under, enforced by the operating system rather than estimated.

The cost estimates of passk.limits refuse what is plainly too large before any
work. Behind them, each request (all but static files and /healthz) is computed
in a sandbox: a child process of the server's worker, kept for the requests
that follow, with two of the kernel's resource limits set afresh for each
request. RLIMIT_CPU ends the sandbox when the request has used
LIMITS.cpu_seconds of processor time (SIGXCPU), whatever code it was running,
a loop in Python or one long call into C; RLIMIT_DATA makes an allocation past
LIMITS.memory_bytes fail (MemoryError), and a wall-clock bound catches a child
that stopped without using its time. The worker waits on a pipe meanwhile, so
the worker never dies: it answers the request with one sentence (413, the
request's own page or JSON), starts a new sandbox for the next one, and serves
on. A statistic written next year runs under the same ceiling as today's.
"""

import importlib
import io
import math
import multiprocessing
import os
import pickle
import resource
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from flask import Flask
from threadpoolctl import threadpool_limits

from passk.limits import LIMITS, Limits
from passk.web.quietlog import describe

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
Answer = tuple[str, list[tuple[str, str]], bytes]

# Answered by the worker itself: files from disk and the health check, which compute nothing.
IN_WORKER = ("/static/", "/healthz", "/favicon.ico")
REACHED = "passk.ceiling"   # the environ key that tells the app, answering in the worker, which bound was reached
BOUNDS = "passk.ceiling.limits"   # the environ key of the Limits the request ran under (for the sentence)
WALL_SECONDS = 20.0         # a sandbox silent this long is ended (under gunicorn's 30 s worker timeout)
RECYCLE_BYTES = 256 * 2**20  # a sandbox whose data grew this much past its start ends after its answer
PAGE = os.sysconf("SC_PAGE_SIZE")
# The worker's own signal handlers (gunicorn's) make no sense in its sandbox: these go back to the default.
WORKER_SIGNALS = ("SIGTERM", "SIGQUIT", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGWINCH", "SIGTTIN", "SIGTTOU", "SIGCHLD")


class Sandbox:
    """One child process that computes requests one at a time under the ceiling, and answers through a pipe."""

    def __init__(self, app: Flask, limits: Limits, factory: str | None = None) -> None:
        """A sandbox forked from this process, with its app; or, when this process runs threads (one of which
        might hold a lock the child would then wait on for ever) and the app can be built anew by `factory`
        ("module:function"), one forked by multiprocessing's fork server, a process of one thread."""
        self.app = app
        if factory is not None and threading.active_count() > 1:
            context: Any = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([factory.partition(":")[0]])
            self.connection, child_end = context.Pipe()
            target: Callable[..., None] = _serve_built
            args: tuple[Any, ...] = (factory, limits, child_end)
        else:
            context = multiprocessing.get_context("fork")
            self.connection, child_end = context.Pipe()
            target, args = _serve, (app, limits, child_end)
        self.process: BaseProcess = context.Process(target=target, args=args, daemon=True, name="passk-sandbox")
        self.process.start()
        child_end.close()

    def answer(self, environ: Environ, body: bytes) -> Answer | str:
        """The app's answer to the request, or why there is none: "cpu" (its time ran out), "memory" (the kernel
        ended it for its memory) or "crash" (it ended otherwise: a bug)."""
        silent = False
        try:
            self.connection.send_bytes(pickle.dumps((environ, body), pickle.HIGHEST_PROTOCOL))
            if self.connection.poll(WALL_SECONDS):
                reply: Answer | str
                reply, ending = pickle.loads(self.connection.recv_bytes())
                if ending:   # the sandbox ends after this answer: reap it now, so no request is sent to it
                    self.close()
                return reply
            silent = True
        except (EOFError, OSError):   # the sandbox ended mid-request
            pass
        self.close()
        if silent or self.process.exitcode == -signal.SIGXCPU:
            return "cpu"
        if self.process.exitcode == -signal.SIGKILL:
            return "memory"
        self.app.logger.error("A sandbox ended while computing a request (exit status %s)", self.process.exitcode)
        return "crash"

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        """End the sandbox now (it may be mid-request) and reap it."""
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


class Ceiling:
    """WSGI middleware: the app's requests computed in sandboxes, one per request the server runs at once."""

    def __init__(self, app: Flask, limits: Limits = LIMITS, prestart: int = 0, factory: str | None = None) -> None:
        """`prestart` sandboxes are started at once: a threaded server starts its threads after building its
        application, so its sandboxes are forked while the process has one thread; the rest start when needed
        (from the fork server, when threads run by then and `factory`, "module:function", builds the app)."""
        self.app, self.limits, self.factory = app, limits, factory
        self._idle = [Sandbox(app, limits) for _ in range(prestart)]
        self._lock = threading.Lock()

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path.startswith(IN_WORKER):
            return self.app(environ, start_response)
        try:
            body = _body(environ, self.app.config["MAX_CONTENT_LENGTH"])
        except Exception:   # a body the server could not read (a malformed chunk, a client gone)
            return self._in_worker(environ, b"", "unreadable", start_response)
        try:
            sandbox = self._take()
            try:
                answer = sandbox.answer(_portable(environ, body), body)
            finally:
                self._give_back(sandbox)
        except Exception as error:   # a bug here, not in the request: the log says where, never what was sent
            self.app.logger.error("The ceiling could not compute a request: %s", describe(error))
            answer = "crash"
        if isinstance(answer, str):
            return self._in_worker(environ, body, answer, start_response)
        status, headers, content = answer
        start_response(status, headers)
        return [content]

    def _in_worker(self, environ: Environ, body: bytes, reached: str, start_response: StartResponse
                   ) -> Iterable[bytes]:
        """The app's own answer for a bound reached: its error page or JSON, computed here (it costs nothing)."""
        environ = dict(environ, **{REACHED: reached, BOUNDS: self.limits, "wsgi.input": io.BytesIO(body)})
        return self.app(environ, start_response)

    def _take(self) -> Sandbox:
        with self._lock:
            while self._idle:
                sandbox = self._idle.pop()
                if sandbox.alive:
                    return sandbox
                sandbox.close()
        return Sandbox(self.app, self.limits, self.factory)

    def _give_back(self, sandbox: Sandbox) -> None:
        if sandbox.alive:
            with self._lock:
                self._idle.append(sandbox)
        else:
            sandbox.close()

    def close(self) -> None:
        """End every idle sandbox (a server's shutdown; the daemonic children end with the worker anyway)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for sandbox in idle:
            sandbox.close()


def _body(environ: Environ, most: int) -> bytes:
    """The request's body, read in the worker: a declared length over the upload limit is left unread (the app
    refuses it by its Content-Length), and a chunked one is read to a byte past the limit, so the app sees it is over."""
    declared = environ.get("CONTENT_LENGTH") or ""
    stream = environ.get("wsgi.input")
    if stream is None:
        return b""
    if declared.isdigit():
        length = int(declared)
        return b"" if length > most else _read(stream, length)
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower() or environ.get("wsgi.input_terminated"):
        return _read(stream, most + 1)
    return b""


def _read(stream: Any, length: int) -> bytes:
    parts, left = [], length
    while left > 0:
        part = stream.read(min(left, 1 << 20))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _portable(environ: Environ, body: bytes) -> Environ:
    """What of the environ crosses to the sandbox: its plain values (the server's objects stay behind), with the
    body's true length in place of a chunked encoding."""
    portable = {key: value for key, value in environ.items()
                if isinstance(value, (str, bytes, int, float, bool, tuple)) or value is None}
    if body or "HTTP_TRANSFER_ENCODING" in portable:
        portable.pop("HTTP_TRANSFER_ENCODING", None)
        portable["CONTENT_LENGTH"] = str(len(body))
    return portable


def _serve_built(factory: str, limits: Limits, connection: Connection) -> None:
    """A sandbox of the fork server's: the app built by factory, then _serve."""
    module, _, function = factory.partition(":")
    _serve(getattr(importlib.import_module(module), function)(), limits, connection)


def one_blas_thread() -> None:
    """Let numpy's BLAS and LAPACK (the curves' eigensolver, matrix products) use one thread in this process:
    RLIMIT_CPU counts every thread's time, and the other workers need the other cores. A correlation root of
    1,024 ks took 2.2 s of CPU on two threads where one thread took 0.27 s."""
    threadpool_limits(limits=1)


def _serve(app: Flask, limits: Limits, connection: Connection) -> None:
    """The sandbox's life: take a request, compute it under the ceiling, answer, until the worker goes away."""
    _close_inherited(connection.fileno())
    for name in WORKER_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the server's to handle; the pipe's end stops this
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # a request ended at the ceiling leaves no core file behind
    one_blas_thread()
    statm = os.open("/proc/self/statm", os.O_RDONLY)
    start = _data_bytes(statm)
    while True:
        try:
            environ, body = pickle.loads(connection.recv_bytes())
        except EOFError:
            os._exit(0)
        # Each request's bounds count from where it starts (and hold while its answer is sent back).
        _bound(resource.RLIMIT_CPU, math.ceil(_cpu_seconds() + limits.cpu_seconds))
        _bound(resource.RLIMIT_DATA, _data_bytes(statm) + limits.memory_bytes)
        environ[BOUNDS] = limits
        answer = _run(app, environ, body)
        # a heap grown or torn by a large request is not kept for the next one
        ending = environ.get(REACHED) == "memory" or _data_bytes(statm) - start > RECYCLE_BYTES
        connection.send_bytes(pickle.dumps((answer, ending), pickle.HIGHEST_PROTOCOL))
        if ending:
            os._exit(0)


def _close_inherited(kept: int) -> None:
    """Close every descriptor forked with the worker but standard input, output, error and `kept`: the worker's
    end of this pipe (else the sandbox would never see the worker go) and its listening and client sockets (a
    connection the worker closes must close)."""
    most = os.sysconf("SC_OPEN_MAX")
    os.closerange(3, kept)
    os.closerange(kept + 1, most if 0 < most < 1 << 20 else 1 << 16)


def _run(app: Flask, environ: Environ, body: bytes) -> Answer | str:
    """The app's answer to one request, whole; "memory" when an allocation failed at the ceiling outside the
    app's handler for it."""
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        started[:] = [status, headers]
        return unwritten

    environ.update({"wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": False,
                    "wsgi.multiprocess": True})
    try:
        content = app(environ, start_response)
        try:
            whole = b"".join(content)
        finally:
            if hasattr(content, "close"):
                content.close()
    except MemoryError:   # past the app's own handler (passk.web.errors.out_of_memory): the worker answers
        environ[REACHED] = "memory"
        return "memory"
    status, headers = started
    return status, list(headers), whole


def unwritten(data: bytes) -> None:
    """WSGI's write(), which Flask never calls: its answers are iterables."""
    raise NotImplementedError("the sandbox takes answers as iterables, not through write()")


def _bound(which: int, soft: int) -> None:
    """Set a resource's soft limit, within its hard one (which an unprivileged process cannot raise)."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY and (soft == resource.RLIM_INFINITY or soft > hard):
        soft = hard
    resource.setrlimit(which, (soft, hard))


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _data_bytes(statm: int) -> int:
    """The process's data segment and stack now, in bytes, read from its open /proc/self/statm (a bound within the
    stack's few MB of VmData, what RLIMIT_DATA counts): a read of a kept file, a couple of microseconds."""
    return int(os.pread(statm, 128, 0).split()[5]) * PAGE
