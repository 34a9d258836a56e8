"""Slow and idle clients against the production stack, or against `passk serve` and the servers it could be.

    .venv/bin/python bench/slow_clients.py                  # the stack: 200 stuck connections for 60 s
    .venv/bin/python bench/slow_clients.py --seconds 20 --bare
    .venv/bin/python bench/slow_clients.py --serve --seconds 20              # passk serve: 20 slowloris + 40 idle
    .venv/bin/python bench/slow_clients.py --serve --candidates --seconds 20 # and gunicorn's gthread and gevent
    .venv/bin/python bench/slow_clients.py --serve --heavy 5 --seconds 30    # and five endless share links

While stuck sockets sit idle, dribble a header line a second (slowloris), or
dribble a request body a byte a second (reconnecting whenever the server drops
one), a normal client asks for pages and the API one request after another on
fresh connections. It prints that client's p50, p99 and worst latency and how
many of its requests failed (no answer within --timeout, or not a 200), next
to the same client measured with no attackers in the same run, and the ratio
of the two p99s. The stack gets --connections sockets, a third of each kind;
`--bare` also attacks gunicorn alone (sync workers, no nginx): the setup
before nginx was put in front. `--serve` attacks `passk serve` (no nginx) with
--slowloris and --idle sockets (the counts of issue 25), its normal client
asking for /healthz, / and a calculation, while --heavy clients ask for the
test-only endless share link (PASSK_TEST_ENDLESS, which the ceiling ends
after its CPU time) over and over; `--candidates` also runs the other
servers it could be, each with the same --workers: gunicorn's gthread workers
(4 threads each, as passk serve ran until issue 25) and gevent workers (when
gevent imports; --gevent-path adds a folder holding it to their path).
Everything is on 127.0.0.1 and stops by itself.
"""

import argparse
import asyncio
import http.client
import importlib.util
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.stack import ProductionStack, free_port  # noqa: E402

PATHS = ("/?n=200&c=57&k=10", "/api/v1/pass-at-k?n=200&c=57&k=10")
SERVE_PATHS = ("/healthz", "/", "/?n=200&c=57&k=10")
KINDS = ("idle", "headers", "body")
OPENINGS = {
    "idle": b"",
    "headers": b"GET / HTTP/1.1\r\nHost: localhost\r\n",
    "body": b"POST /api/v1/benchmark HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000\r\n\r\n{",
}
DRIBBLE = {"idle": b"", "headers": b"X-Slow: 1\r\n", "body": b" "}


async def attacker(port, kind, stop):
    """One stuck connection of its kind, opened again whenever the server drops it."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(OPENINGS[kind])
            while not stop.is_set() and not reader.at_eof():
                await asyncio.sleep(1)
                if DRIBBLE[kind]:
                    writer.write(DRIBBLE[kind])
                    await writer.drain()
            writer.close()
        except OSError:
            await asyncio.sleep(0.2)


def attack(port, kinds, stop):
    """Run one attacker of each kind listed until `stop` is set (in a thread of its own)."""
    async def main():
        done = asyncio.Event()
        tasks = [asyncio.create_task(attacker(port, kind, done)) for kind in kinds]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        done.set()
        await asyncio.wait(tasks, timeout=5)
    asyncio.run(main())


def normal_client(port, seconds, paths, timeout):
    """Latencies (s) by path, and failures, of one polite client asking in turn for `paths` for `seconds`."""
    latencies, failures = {path: [] for path in paths}, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in paths:
            started = time.monotonic()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                connection.close()
                failures += response.status != 200
            except OSError:
                failures += 1
            latencies[path].append(time.monotonic() - started)
    return latencies, failures


def heavy_client(port, stop, answers):
    """Ask for the test-only endless share link again and again (the ceiling ends each) until `stop` is set."""
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request("GET", "/benchmark/endless?kind=python")
            response = connection.getresponse()
            response.read()
            connection.close()
            answers.append(response.status)
        except OSError:
            answers.append(None)


def measure(port, kinds, seconds, paths=PATHS, timeout=60, heavy=0):
    """The normal client's figures with no attackers, then under attack (and `heavy` endless share links)."""
    calm = normal_client(port, min(5, seconds), paths, timeout)
    stop, answers = threading.Event(), []
    threads = [threading.Thread(target=attack, args=(port, kinds, stop), daemon=True)]
    threads += [threading.Thread(target=heavy_client, args=(port, stop, answers), daemon=True) for _ in range(heavy)]
    for thread in threads:
        thread.start()
    time.sleep(2)  # let every attacker connect before the client starts
    attacked = normal_client(port, seconds, paths, timeout)
    stop.set()
    for thread in threads:
        thread.join(timeout=130)
    if heavy:
        print(f"    endless share links answered: {', '.join(f'{answers.count(s)} x {s}' for s in set(answers))}")
    return calm, attacked


def p99(latencies):
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def summary(label, latencies, failures, baseline=None):
    """One line: the figures of all paths together (and p99 against the calm baseline's), then each path's p99."""
    every = sorted(value for values in latencies.values() for value in values)
    line = (f"{label:<44} {len(every):6d} requests  p50 {statistics.median(every) * 1000:8.1f} ms  "
            f"p99 {p99(every) * 1000:8.1f} ms  worst {every[-1] * 1000:8.1f} ms  failed {failures}")
    if baseline is not None:
        calm = p99([value for values in baseline.values() for value in values])
        line += f"  p99 x{p99(every) / calm:,.1f} of calm"
    if len(latencies) > 2:
        line += "\n" + " " * 45 + "  ".join(f"{path} p99 {p99(values) * 1000:.1f} ms"
                                           for path, values in latencies.items())
    return line


def bare_gunicorn(workers):
    """gunicorn alone on a TCP port, the way passk was served before nginx: (process, port)."""
    port = free_port()
    process = subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "--config", "gunicorn.conf.py", "--workers",
                                str(workers), "--bind", f"127.0.0.1:{port}", "app:app"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, port


def candidate(name, workers, gevent_path=None, plain=False):
    """One server passk serve could be, on a free port: (process, port). `waitress` is passk serve itself; the
    gunicorn ones run served_app (the request ceiling's sandboxes), or with `plain` the site without them."""
    port = free_port()
    gunicorn = [sys.executable, "-m", "gunicorn", "--config", "python:passk.web.gunicorn_conf",
                "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--limit-request-line", "8190"]
    app = "passk.web.app:create_app()" if plain else f"passk.web.app:served_app({4 if name == 'gthread' else 1})"
    commands = {
        "waitress": [sys.executable, "-m", "passk", "serve", "--port", str(port), "--workers", str(workers)],
        "gthread": gunicorn + ["--worker-class", "gthread", "--threads", "4", app],
        "gevent": gunicorn + ["--worker-class", "gevent", app],
    }
    env = dict(os.environ, PASSK_TEST_ENDLESS="1")   # the test-only endless statistic, for --heavy
    if gevent_path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [gevent_path, env.get("PYTHONPATH")]))
    process = subprocess.Popen(commands[name], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    return process, port


def started(process, port):
    """Wait (up to 60 s) until the server answers /healthz; stop it and raise if it does not."""
    for _ in range(600):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.1)
    stopped(process)
    raise RuntimeError("the server did not start")


def stopped(process):
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def gevent_importable(path):
    if path:
        sys.path.insert(0, path)
    return importlib.util.find_spec("gevent") is not None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=200, help="the stack's stuck sockets (a third each kind)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2 * len(os.sched_getaffinity(0)) + 1)
    parser.add_argument("--bare", action="store_true", help="also attack gunicorn alone, without nginx")
    parser.add_argument("--serve", action="store_true", help="attack passk serve instead of the stack")
    parser.add_argument("--candidates", action="store_true", help="with --serve: also gunicorn gthread and gevent")
    parser.add_argument("--slowloris", type=int, default=20, help="with --serve: sockets dribbling headers")
    parser.add_argument("--idle", type=int, default=40, help="with --serve: sockets that send nothing")
    parser.add_argument("--slow-bodies", type=int, default=0, help="with --serve: sockets dribbling a body")
    parser.add_argument("--heavy", type=int, default=0,
                        help="with --serve: clients asking for an endless share link over and over meanwhile")
    parser.add_argument("--timeout", type=float, default=15, help="with --serve: the normal client's patience (s)")
    parser.add_argument("--plain", action="store_true",
                        help="with --candidates: the gunicorn ones serve create_app(), without the ceiling")
    parser.add_argument("--gevent-path", help="a folder holding gevent (pip install --target), for its candidate")
    args = parser.parse_args()
    if args.serve:
        kinds = ["headers"] * args.slowloris + ["idle"] * args.idle + ["body"] * args.slow_bodies
        names = ["waitress"]
        if args.candidates:
            names.append("gthread")
            if gevent_importable(args.gevent_path):
                names.append("gevent")
            else:
                print("gevent does not import here: its candidate is left out (see --gevent-path)")
        print(f"{args.slowloris} slowloris, {args.idle} idle and {args.slow_bodies} slow-body connections and "
              f"{args.heavy} endless share links for {args.seconds:g} s; --workers {args.workers}; the normal "
              f"client asks for {', '.join(SERVE_PATHS)} and gives up after {args.timeout:g} s")
        for name in names:
            process, port = candidate(name, args.workers, args.gevent_path, args.plain and name != "waitress")
            try:
                started(process, port)
                calm, attacked = measure(port, kinds, args.seconds, SERVE_PATHS, args.timeout, args.heavy)
            finally:
                stopped(process)
            label = "passk serve (waitress)" if name == "waitress" else \
                f"gunicorn {name}{', no ceiling' if args.plain else ''}"
            print(summary(f"{label}, no attack", *calm))
            print(summary(f"{label}, under attack", *attacked, baseline=calm[0]))
        return
    kinds = [KINDS[i % 3] for i in range(args.connections)]
    print(f"{args.connections} stuck connections (idle, dribbling headers, dribbling a body) for "
          f"{args.seconds:g} s; {args.workers} gunicorn workers; normal client asks for {', '.join(PATHS)}")
    with ProductionStack(workers=args.workers) as stack:
        calm, attacked = measure(stack.port, kinds, args.seconds)
    print(summary("nginx + gunicorn, no attack", *calm))
    print(summary("nginx + gunicorn, under attack", *attacked, baseline=calm[0]))
    if args.bare:
        process, port = bare_gunicorn(args.workers)
        try:
            started(process, port)
            calm, attacked = measure(port, kinds, args.seconds)
        finally:
            stopped(process)
        print(summary("bare gunicorn, no attack", *calm))
        print(summary("bare gunicorn, under attack", *attacked, baseline=calm[0]))


if __name__ == "__main__":
    main()
