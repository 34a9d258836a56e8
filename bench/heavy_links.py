"""Fresh pages and /healthz while five worst-case share links run (issue 25, item 3), through the production stack.

    .venv/bin/python bench/heavy_links.py              # from the repository root; about a minute
    .venv/bin/python bench/heavy_links.py --rounds 3 --workers 5

It starts scripts/run.sh on a free port of 127.0.0.1 (deploy/stack.py) with the test-only endless statistic
switched on (PASSK_TEST_ENDLESS=1): the worst share link there can be, which only the runtime's ceiling ends.
Each round first measures light requests alone (fresh `/` addresses and /healthz, one client), the baseline,
then the same while five endless links (Python loops and one long C call) run at once, and prints the light
requests' p50, p99 and max latency in both phases, their ratio, the heavy links' answers, and whether any
worker was replaced. Bounded: five links a round, each ended by the ceiling (LIMITS.cpu_seconds of CPU).
"""

import argparse
import http.client
import itertools
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from deploy.stack import ProductionStack  # noqa: E402

KINDS = ["python", "c", "python", "c", "python"]
FRESH = (f"/?n={n}&c=3&k=5" for n in itertools.count(10_000))


def timed(port: int, path: str) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def light(port: int, keep_going) -> list[tuple[int, float]]:
    answers = []
    while keep_going():
        answers.append(timed(port, next(FRESH)))
        answers.append(timed(port, "/healthz"))
    return answers


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(name: str, answers: list[tuple[int, float]]) -> str:
    seconds = [latency for _, latency in answers]
    failed = sum(1 for status, _ in answers if status != 200)
    return (f"{name:>14}: {len(answers)} requests, {failed} not 200; p50 {statistics.median(seconds) * 1e3:7.1f} ms, "
            f"p99 {percentile(seconds, 0.99) * 1e3:7.1f} ms, max {max(seconds) * 1e3:7.1f} ms")


def one_round(stack: ProductionStack) -> tuple[float, float]:
    deadline = time.monotonic() + 5
    alone = light(stack.port, lambda: time.monotonic() < deadline)
    heavy: list[tuple[str, int, float]] = []
    threads = [threading.Thread(target=lambda kind=kind, i=i: heavy.append(
        (kind, *timed(stack.port, f"/benchmark/endless?kind={kind}&round={time.time()}&i={i}"))))
        for i, kind in enumerate(KINDS)]
    for thread in threads:
        thread.start()
    busy = light(stack.port, lambda: any(thread.is_alive() for thread in threads))
    for thread in threads:
        thread.join()
    print(describe("alone", alone))
    print(describe("beside 5 links", busy))
    for kind, status, seconds in sorted(heavy):
        print(f"{'':>16}link kind={kind}: {status} after {seconds:.1f} s")
    p99_alone = percentile([s for _, s in alone], 0.99)
    p99_busy = percentile([s for _, s in busy], 0.99)
    print(f"{'':>16}p99 beside the links / alone: {p99_busy / p99_alone:.1f}x")
    return p99_alone, p99_busy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="WEB_CONCURRENCY (default: run.sh's 2 x cores + 1)")
    args = parser.parse_args()
    with ProductionStack(workers=args.workers, env={"PASSK_TEST_ENDLESS": "1"}) as stack:
        workers = set(stack.worker_pids())
        results = [one_round(stack) for _ in range(args.rounds)]
        replaced = workers != set(stack.worker_pids())
        timeouts = stack.log().count("WORKER TIMEOUT")
    worst = max(busy for _, busy in results)
    print(f"worst p99 beside five links: {worst * 1e3:.0f} ms (goal: under 1,000 ms); workers replaced: {replaced}; "
          f"worker timeouts in the log: {timeouts}")
    return 0 if worst < 1.0 and not replaced and not timeouts else 1


if __name__ == "__main__":
    sys.exit(main())
