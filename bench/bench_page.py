"""Time the single-problem page and its JSON twin in process, against /healthz.

    .venv/bin/python bench/bench_page.py [--seconds 0.3] [--repeat 7]    # from the repository root
    .venv/bin/python bench/bench_page.py --instructions                  # the same, counted by valgrind

Each address is asked for by calling the WSGI application as a server does
(no test client, no network), over and over for about --seconds per round (an
address with {n} with a new n each time, so nothing computed for one request
serves the next, as for bench/load.py's "new address" routes); the addresses
take turns, --repeat rounds each, and the best round counts, so a busy moment
does not count against one address. The figure is this process's CPU time a
request, also given as a multiple of /healthz measured in the same run: the
request machinery alone, which the ratio takes out. Every request must answer
200. Nothing is written; the whole run takes about 15 seconds.

--instructions counts the instructions each request executes instead, under
valgrind's callgrind (it needs valgrind, its callgrind.h and a C compiler, for
the few lines that switch the counting on and off around each address). The
count does not change with the machine's load, so it compares two checkouts
on a busy machine where times cannot; about a minute.
"""

import argparse
import ctypes
import io
import itertools
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
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
    "/?n={n}&c=3&k=5",
    "/api/v1/pass-at-k?n=200&c=57&k=10",
    "/api/v1/pass-at-k?n={n}&c=57&k=10",
]
FRESH = itertools.count(5000)   # the n of the addresses with {n}: never the same twice in a run
COUNTED = 60                    # requests an address under --instructions
SWITCH = r"""
#include <valgrind/callgrind.h>
void count_from_here(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void count_to_here(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS; }
"""


def environ(address):
    """The WSGI environment a server would give a GET of address from 127.0.0.1."""
    path, _, query = address.partition("?")
    return {"REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr, "wsgi.version": (1, 0),
            "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False}


def ask(app, address, count):
    """Ask for address count times, reading each whole answer as a server would send it."""
    for _ in range(count):
        statuses = []
        body = app(environ(address.format(n=next(FRESH)) if "{n}" in address else address),
                   lambda status, headers, exc_info=None: statuses.append(status))
        b"".join(body)
        if hasattr(body, "close"):
            body.close()
        if not statuses[0].startswith("200"):
            raise SystemExit(f"{address} answered {statuses[0]}")


def round_size(app, address, seconds):
    """How many requests to `address` take about `seconds`."""
    ask(app, address, 20)  # warm up: templates compiled, the parts built once built
    count = 1
    while True:
        start = time.process_time()
        ask(app, address, count)
        if time.process_time() - start >= seconds / 4:
            return count * 4
        count *= 2


def per_request(app, seconds, repeat):
    """Best-of-`repeat` CPU seconds per request for each address; the rounds take turns, so load hits all alike."""
    counts = {address: round_size(app, address, seconds) for address in ADDRESSES}
    best = dict.fromkeys(ADDRESSES, float("inf"))
    for _ in range(repeat):
        for address, count in counts.items():
            start = time.process_time()
            ask(app, address, count)
            best[address] = min(best[address], (time.process_time() - start) / count)
    return best


def counted_per_request():
    """Instructions per request for each address: this script again under callgrind, counting each address's
    COUNTED requests alone (a dump each), after its warm-up."""
    valgrind, compiler = shutil.which("valgrind"), shutil.which("cc") or shutil.which("gcc")
    if not (valgrind and compiler):
        raise SystemExit("--instructions needs valgrind and a C compiler (cc): install them, or time without it.")
    with tempfile.TemporaryDirectory() as scratch:
        source, library = Path(scratch) / "switch.c", Path(scratch) / "switch.so"
        source.write_text(SWITCH)
        built = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", library, source], capture_output=True)
        if built.returncode:
            raise SystemExit(f"could not build the counting switch (is valgrind's callgrind.h installed?): "
                             f"{built.stderr.decode(errors='replace').strip()}")
        subprocess.run([valgrind, "--tool=callgrind", "--instr-atstart=no",
                        f"--callgrind-out-file={scratch}/counted.%p", sys.executable, __file__,
                        "--counted-by", str(library)], check=True, capture_output=True)
        dumps = sorted(Path(scratch).glob("counted.*.*"), key=lambda path: int(path.name.rsplit(".", 1)[1]))
        totals = [int(re.search(r"^totals: (\d+)", dump.read_text(), re.M)[1]) for dump in dumps]
    if len(totals) != len(ADDRESSES):
        raise SystemExit(f"callgrind wrote {len(totals)} counts for {len(ADDRESSES)} addresses")
    return {address: total / COUNTED for address, total in zip(ADDRESSES, totals)}


def counted_child(library):
    """Under callgrind: each address warmed up, then its COUNTED requests counted alone."""
    switch = ctypes.CDLL(library)
    app = create_app()
    for address in ADDRESSES:
        ask(app, address, 20)
        switch.count_from_here()
        ask(app, address, COUNTED)
        switch.count_to_here()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="length of one timing round (0.3)")
    parser.add_argument("--repeat", type=int, default=7, help="rounds per address; the best counts (7)")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    parser.add_argument("--counted-by", help=argparse.SUPPRESS)   # the run under valgrind, with its switch
    options = parser.parse_args()
    if options.counted_by:
        return counted_child(options.counted_by)
    print(f"passk page benchmark: Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; in process, the WSGI app called directly")
    if options.instructions:
        figures, unit, scale = counted_per_request(), "M instr/req", 1e-6
    else:
        figures, unit, scale = per_request(create_app(), options.seconds, options.repeat), "CPU ms/req", 1e3
    print(f"{'address':<42} {unit:>12} {'× /healthz':>10}")
    for address, figure in figures.items():
        print(f"{address:<42} {figure * scale:>12.3f} {figure / figures['/healthz']:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
