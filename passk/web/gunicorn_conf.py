"""Gunicorn settings for passk: the checkout's stack reads them through gunicorn.conf.py (scripts/run.sh, and so
serve.sh and the Dockerfile), `passk serve` as `python:passk.web.gunicorn_conf` with a few of its own on top.

gunicorn's sync workers serve one request at a time, so they sit behind nginx
(deploy/nginx.conf), which reads whole requests and takes whole answers before
a worker is involved: a slow client can hold a connection, never a worker.
run.sh starts this configuration twice, as two pools on unix sockets only nginx
uses: one for uploads (the benchmark and compare POSTs) and one for everything
else, so heavy work never takes the workers pages need (issue 15 §4).
"""

import os
import sys
from typing import Any

from gunicorn.glogging import Logger

from passk.web.quietlog import describe

# The work is CPU-bound arithmetic and file parsing: the usual 2 x cores + 1
# sync workers, counting only the cores this process may run on (containers).
# run.sh counts them so too, then sets WEB_CONCURRENCY for each pool: half of
# them (at least one) for uploads, the rest (at least one) for the pages.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * len(os.sched_getaffinity(0)) + 1))
worker_class = "sync"

# nginx hands over a request at loopback speed; the app bounds its own work
# (about 2 s at most), so a worker silent for 30 s is stuck and is replaced.
timeout = 30
graceful_timeout = 30

# nginx bounds the request line and each header (passk.limits.LIMITS.header_bytes,
# 8 KiB: large_client_header_buffers); gunicorn must never be the one to refuse
# what nginx let through, so it has no limit on the request line (0) and its
# limit on a header sits above nginx's (tests/web/test_limits_table.py checks both).
limit_request_line = 0
limit_request_field_size = 16384

# Forwarded headers are honoured from nginx alone. gunicorn trusts whatever
# reaches it through the unix socket run.sh binds (only nginx connects there),
# and nginx replaces X-Forwarded-Proto with the scheme of its own connection
# and drops the other scheme headers a client might send (deploy/nginx.conf).
# No TCP peer is trusted unless PASSK_FORWARDED_ALLOW_IPS names it, and no
# header may rewrite the script name or path.
forwarded_allow_ips = os.environ.get("PASSK_FORWARDED_ALLOW_IPS", "")
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
forwarder_headers = ""


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    """Read the rest of a body the app refused without reading (a 413 from its Content-Length).

    nginx has the whole body already and is still writing it to the socket; closing a
    unix socket with unread bytes makes nginx's read of the answer fail (ECONNRESET), and
    the client gets nginx's 503 instead of the app's 413. nginx stops writing (and the
    read ends) as soon as it has the whole answer, and never sends more than its
    client_max_body_size.
    """
    body = environ.get("wsgi.input")
    try:
        while body is not None and body.read(1 << 20):
            pass
    except Exception:   # nginx closed first: nothing left to read
        pass


class QuietLogger(Logger):  # type: ignore[misc]   # gunicorn publishes no types
    """gunicorn's error log without the client's address, request line or URI."""

    def warning(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if str(msg).startswith("Invalid request from"):
            msg, args = "Refused a malformed request (not logged: what the client sent).", ()
        super().warning(msg, *args, **kwargs)

    def exception(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if str(msg).startswith("Error handling request"):
            error = sys.exc_info()[1]
            self.error("Error handling a request: %s", describe(error) if error else "unknown")
            return
        super().exception(msg, *args, **kwargs)


# Nothing the user sends is logged: no access log, so no request lines, query
# strings or addresses. Errors (code locations, worker restarts) go to stderr.
accesslog = None
errorlog = "-"
loglevel = "info"
logger_class = QuietLogger

# The worker heartbeat file belongs in memory, not on a container's overlay disk.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# No runtime control socket: nothing manages workers at run time, and the
# socket would need a writable home directory.
control_socket_disable = True

proc_name = "passk"
