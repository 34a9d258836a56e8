"""Time the single-problem page and its JSON twin in process, against /healthz.

    .venv/bin/python bench/bench_page.py [--seconds 0.3] [--repeat 7]    # from the repository root

Each address is asked for through Flask's test client (no server, no
network), over and over for about --seconds per round (an address with {n}
with a new n each time, so nothing computed for one request serves the
next, as for bench/load.py's "new address" routes); the addresses take
turns, --repeat rounds each, and the best round counts, so a busy moment does
not count against one address. Each figure is also given as a multiple of
/healthz measured in the same run: the request machinery alone, which the
ratio takes out. Every request must answer 200. Nothing is written; the whole
run takes about 15 seconds.
"""

import argparse
import itertools
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from app import create_app  # noqa: E402

ADDRESSES = [
    "/healthz",
    "/?n=200&c=57&k=10",
    "/?n=10&c=3&k=5",
    "/?n=1000000000000&c=1000000&k=1000000",
    "/?n={n}&c=57&k=10",   # a new n on every request, as bench/load.py's "/ new address"
    "/api/v1/pass-at-k?n=200&c=57&k=10",
    "/api/v1/pass-at-k?n={n}&c=57&k=10",
]
FRESH = itertools.count(5000)   # the n of the addresses with {n}: never the same twice in a run


def round_size(client, address, seconds):
    """How many requests to `address` take about `seconds`."""
    client.get(address)  # warm up: templates compiled, caches filled
    count = 1
    while True:
        start = time.perf_counter()
        _ask(client, address, count)
        if time.perf_counter() - start >= seconds / 4:
            return count * 4
        count *= 2


def per_request(client, seconds, repeat):
    """Best-of-`repeat` seconds per request for each address; the rounds take turns, so load hits all alike."""
    counts = {address: round_size(client, address, seconds) for address in ADDRESSES}
    best = dict.fromkeys(ADDRESSES, float("inf"))
    for _ in range(repeat):
        for address, count in counts.items():
            start = time.perf_counter()
            _ask(client, address, count)
            best[address] = min(best[address], (time.perf_counter() - start) / count)
    return best


def _ask(client, address, count):
    for _ in range(count):
        response = client.get(address.format(n=next(FRESH)) if "{n}" in address else address)
        if response.status_code != 200:
            raise SystemExit(f"{address} answered {response.status_code}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="length of one timing round (0.3)")
    parser.add_argument("--repeat", type=int, default=7, help="rounds per address; the best counts (7)")
    options = parser.parse_args()
    client = create_app({"TESTING": True}).test_client()
    print(f"passk page benchmark: Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; in process, Flask test client")
    print(f"{'address':<42} {'ms/request':>10} {'× /healthz':>10}")
    best = per_request(client, options.seconds, options.repeat)
    for address, seconds in best.items():
        print(f"{address:<42} {seconds * 1e3:>10.3f} {seconds / best['/healthz']:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
