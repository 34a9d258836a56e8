"""`passk serve`: the website from the installed package (`pip install "passk-calculator[web]"`), served by
waitress with the settings of passk/web/server.py: no nginx, no root, no checkout.

waitress reads whole requests before a thread computes them, so slow and idle clients cost it memory, not
threads; it still answers the clients itself, without nginx's cache, gzip or TLS, so it is for one's own machine
or a trusted network, and a public deployment belongs behind nginx, as the checkout's `bash scripts/serve.sh` and
the Dockerfile run it.
"""

import argparse
import importlib.util
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from types import FrameType
from typing import TextIO

NOTICE = ("passk serve: waitress alone, for your own machine or a trusted network; a public deployment belongs "
          "behind nginx (the README's `bash scripts/serve.sh`) or the Dockerfile.")
SPOOLS = ("/dev/shm",)   # where Werkzeug's spooled uploads go when PASSK_SPOOL names no place: memory, not disk


def default_workers() -> int:
    """2 x the cores this process may run on (a container's, not the machine's) + 1, as gunicorn counts them."""
    return 2 * len(os.sched_getaffinity(0)) + 1


def parser() -> argparse.ArgumentParser:
    serve = argparse.ArgumentParser(
        prog="passk serve", description="Serve the passk website from the installed package with waitress.",
        epilog="The site answers for localhost and 127.0.0.1 only, unless PASSK_ALLOWED_HOSTS (names, "
               "comma-separated) or PASSK_PUBLIC_URL (the address people use) says otherwise. " + NOTICE)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    serve.add_argument("--workers", type=int, default=None,
                       help="requests computed at once: waitress's threads in one process, each request computed "
                            "in a sandbox process of its own under the request ceiling; slow and idle clients "
                            "take none of them. As the stack splits its workers, half of them (at least one) take "
                            "uploads and share links, the rest (at least one) pages, the API and /healthz "
                            "(default: 2 x the cores this process may use + 1)")
    return serve


def spool(setting: str | None) -> str | None:
    """Where uploads are spooled while they are read: PASSK_SPOOL, else /dev/shm (memory) where it is writable,
    else None (the system's temporary directory)."""
    for place in ([setting] if setting else []) + list(SPOOLS):
        if os.path.isdir(place) and os.access(place, os.W_OK | os.X_OK):
            return place
    return None


def stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends the server as Ctrl-C does: waitress closes its sockets and threads, then main returns."""
    raise SystemExit(0)


def main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Check the site can run here, say what it is for, then serve until Ctrl-C or SIGTERM."""
    args = parser().parse_args(argv)
    if not 0 < args.port < 65536 or (args.workers is not None and args.workers < 1):
        print("passk serve: the port must be 1-65535 and --workers at least 1.", file=stderr)
        return 2
    missing = [name for name in ("flask", "waitress", "jinja2") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"passk serve needs the website's packages ({', '.join(missing)} missing): "
              f'pip install "passk-calculator[web]".', file=stderr)
        return 2
    print(NOTICE, file=stderr, flush=True)
    if (place := spool(os.environ.get("PASSK_SPOOL"))) is not None:
        os.environ["TMPDIR"] = tempfile.tempdir = place
    from passk.web import server   # the web extra's: imported only once it is known to be there

    workers = args.workers or default_workers()
    server.quiet_logging()   # before the site is built, so that Flask's logger finds the handler and adds none
    try:
        running = server.create(args.host, args.port, workers, os.environ.get("PASSK_FORWARDED_ALLOW_IPS", ""))
    except ValueError as refusal:
        print(f"passk serve: {refusal}", file=stderr)
        return 2
    except OSError as error:
        print(f"passk serve: cannot listen on {args.host} port {args.port} ({error.strerror or error}).",
              file=stderr)
        return 1
    host = f"[{args.host}]" if ":" in args.host else args.host
    heavy, light = server.pools(workers)
    print(f"passk serve: http://{host}:{args.port}/ (at once: {heavy} of uploads and share links, {light} of "
          f"the rest)", file=stdout, flush=True)
    signal.signal(signal.SIGTERM, stop)
    running.run()
    return 0
