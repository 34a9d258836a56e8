"""Start and stop passk's production stack (scripts/run.sh) on loopback, for tests and benchmarks.

    with ProductionStack() as stack:
        urllib.request.urlopen(stack.url + "/healthz")

The stack is nginx in front of gunicorn, exactly as `bash scripts/serve.sh`
runs it, on a free port of 127.0.0.1. Its standard error (gunicorn's and
nginx's logs) is kept in `stack.log()` so tests can check what was logged.
"""

import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_executable(name):
    """A Debian server's executable: $PASSK_<NAME>, else name on PATH or in /usr/sbin; None when absent.

    scripts/setup.sh and run.sh look in the same places.
    """
    for candidate in (os.environ.get(f"PASSK_{name.upper()}"), shutil.which(name), f"/usr/sbin/{name}"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ProductionStack:
    """scripts/run.sh on a free port: start(), url, log(), worker_pids(), stop()."""

    def __init__(self, port=None, workers=None, env=None, start_timeout=30):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.env = env or {}
        self.start_timeout = start_timeout
        self.process = None
        self._log = tempfile.TemporaryFile()

    def start(self):
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), **self.env}
        if self.workers:
            env["WEB_CONCURRENCY"] = str(self.workers)
        env.setdefault("GUNICORN", str(ROOT / ".venv" / "bin" / "gunicorn"))
        self.process = subprocess.Popen(["bash", str(ROOT / "scripts" / "run.sh")], cwd=ROOT, env=env,
                                        stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"scripts/run.sh stopped at once:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200 and self._all_workers_up():
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"passk did not answer /healthz within {self.start_timeout} s:\n{self.log()}")

    def _all_workers_up(self):
        """True once every worker asked for has booted (/healthz answers as soon as one has)."""
        return not self.workers or len(self.worker_pids()) >= self.workers

    def stop(self, timeout=30):
        """A graceful stop (TERM: requests under way finish), then KILL if it hangs."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def request(self, method, path, body=None, headers=None, timeout=60):
        """(status, headers with lower-case names, body) of one request on a fresh connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def log(self):
        """Everything gunicorn and nginx wrote so far."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def worker_pids(self):
        """The gunicorn workers' process ids (children of the gunicorn masters: the page and upload pools)."""
        pids = []
        for master in _children(self.process.pid):
            if b"gunicorn" in Path(f"/proc/{master}/cmdline").read_bytes():
                pids.extend(_children(master))
        return pids

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def close(self):
        """Stop, and let go of the captured log."""
        self.stop()
        self._log.close()


def _children(pid):
    """The process ids whose parent is pid (Linux /proc)."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def rss_bytes(pid):
    """The resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0
