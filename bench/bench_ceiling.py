"""What the runtime's ceiling costs a request (passk/web/ceiling.py): the site called in-process, bare
(create_app) and through its sandbox (served_app), on addresses never asked before.

    .venv/bin/python bench/bench_ceiling.py            # from the repository root; about half a minute
    .venv/bin/python bench/bench_ceiling.py --requests 2000

For each route it prints the wall time and the CPU time per request (this process and its sandbox, read from
/proc) of both, and their ratio, measured in the same run; then the time an endless statistic takes to get the
ceiling's sentence. The ceiling's cost is the environ and the answer crossing a pipe (pickled) and the
sandbox's wake-up: a fixed amount per request, whatever the request computes.
"""

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from werkzeug.test import Client  # noqa: E402

from passk.limits import LIMITS  # noqa: E402
from passk.web.app import create_app  # noqa: E402
from passk.web.ceiling import Ceiling  # noqa: E402

ROUTES = {"/ new address": "/?n={n}&c=3&k=5", "api new address": "/api/v1/pass-at-k?n={n}&c=3&k=5",
          "/healthz (in the worker)": "/healthz"}
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes, from /proc/<pid>/stat."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def per_request(client: Client, path: str, requests: int, pids) -> tuple[float, float]:
    for n in range(50):   # warm: templates compiled, the sandbox started
        client.get(path.format(n=10 + n))
    start_wall, start_cpu = time.perf_counter(), cpu_seconds(pids())
    for n in range(requests):
        assert client.get(path.format(n=1000 + n)).status_code == 200
    return (time.perf_counter() - start_wall) / requests, (cpu_seconds(pids()) - start_cpu) / requests


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    os.environ["PASSK_TEST_ENDLESS"] = "1"
    bare, ceiled = create_app(), Ceiling(create_app())
    me = [os.getpid()]

    def with_sandboxes() -> list[int]:
        return me + [sandbox.process.pid for sandbox in ceiled._idle if sandbox.process.pid]

    print(f"{'route':<26}{'bare ms':>9}{'cpu ms':>8}{'ceiled ms':>11}{'cpu ms':>8}{'wall x':>8}{'cpu x':>7}")
    for name, path in ROUTES.items():
        wall_bare, cpu_bare = per_request(Client(bare), path, args.requests, lambda: me)
        wall_ceiled, cpu_ceiled = per_request(Client(ceiled), path, args.requests, with_sandboxes)
        print(f"{name:<26}{wall_bare * 1e3:>9.3f}{cpu_bare * 1e3:>8.3f}{wall_ceiled * 1e3:>11.3f}"
              f"{cpu_ceiled * 1e3:>8.3f}{wall_ceiled / wall_bare:>8.2f}{cpu_ceiled / max(cpu_bare, 1e-9):>7.2f}")
    client = Client(ceiled)
    for kind in ("python", "c", "memory"):
        started = time.perf_counter()
        status = client.get(f"/api/v1/endless?kind={kind}").status_code
        print(f"endless kind={kind}: {status} after {time.perf_counter() - started:.2f} s "
              f"(ceiling: {LIMITS.cpu_seconds} s of CPU, {LIMITS.memory_bytes // 2**20:,} MiB)")
    ceiled.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
