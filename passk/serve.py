"""`passk serve`: the website from the installed package (`pip install "passk[web]"`), run by gunicorn with the
package's settings (passk/web/gunicorn_conf.py): no nginx, no root, no checkout.

gunicorn alone answers the clients itself, so it is for one's own machine or a trusted network; a public
deployment belongs behind nginx, as the checkout's `bash scripts/serve.sh` and the Dockerfile run it.
"""

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from passk.limits import LIMITS

NOTICE = ("passk serve: gunicorn alone, for your own machine or a trusted network; a public deployment belongs "
          "behind nginx (the README's `bash scripts/serve.sh`) or the Dockerfile.")
THREADS = 4   # per worker: an idle or slow client holds a thread, not the worker, when nothing stands in front
# gunicorn's largest bound on the request line (the stack leaves it to nginx): at most the site's own 8 KiB
REQUEST_LINE = min(8190, LIMITS.header_bytes)


def parser() -> argparse.ArgumentParser:
    serve = argparse.ArgumentParser(
        prog="passk serve", description="Serve the passk website from the installed package with gunicorn.",
        epilog="The site answers for localhost and 127.0.0.1 only, unless PASSK_ALLOWED_HOSTS (names, "
               "comma-separated) or PASSK_PUBLIC_URL (the address people use) says otherwise. " + NOTICE)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    serve.add_argument("--workers", type=int, default=None,
                       help="gunicorn worker processes (default: 2 x the cores this process may use + 1)")
    return serve


def gunicorn_command(host: str, port: int, workers: int | None) -> list[str]:
    """The gunicorn command line: the package's settings, then what serving without nginx needs on top of them
    (threads, and gunicorn's own bound on the request line, which nginx sets in the stack; each header's is the
    settings' 16 KiB)."""
    command = [sys.executable, "-m", "gunicorn", "--config", "python:passk.web.gunicorn_conf",
               "--bind", f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
               "--worker-class", "gthread", "--threads", str(THREADS),
               "--limit-request-line", str(REQUEST_LINE)]
    if workers is not None:
        command += ["--workers", str(workers)]
    return command + ["passk.web.app:create_app()"]


def main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """Check the site can run here, say what it is for, then become gunicorn (the exit status is gunicorn's)."""
    args = parser().parse_args(argv)
    if not 0 < args.port < 65536 or (args.workers is not None and args.workers < 1):
        print("passk serve: the port must be 1-65535 and --workers at least 1.", file=stderr)
        return 2
    missing = [name for name in ("flask", "gunicorn", "jinja2") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"passk serve needs the website's packages ({', '.join(missing)} missing): "
              f'pip install "passk[web]".', file=stderr)
        return 2
    print(NOTICE, file=stderr, flush=True)
    print(f"passk serve: http://{args.host}:{args.port}/", file=stdout, flush=True)
    command = gunicorn_command(args.host, args.port, args.workers)
    os.execv(command[0], command)
    return 0   # not reached: execv replaces this process
