"""The runtime's ceiling through the production stack (nginx in front of gunicorn, scripts/run.sh), at the site's
own bound (LIMITS.cpu_seconds of CPU, LIMITS.memory_bytes of memory).

The deliberately endless statistic (passk/web/endless.py, switched on for this stack alone) is the worst share
link there can be: five of them at once, looping in Python, stuck in C or allocating without end, each get the
ceiling's sentence, no worker dies, and fresh pages and /healthz are answered meanwhile, since nginx routes share
links to the uploads pool. No test times an answer: starvation would show as a light request answered only after
the heavy ones, a worker replaced or a timeout in the log; a socket timeout of 90 s only keeps the suite from hanging.
"""

import itertools
import threading

import pytest

from deploy.stack import ProductionStack, find_executable
from passk.limits import ceiling_reached

pytestmark = pytest.mark.skipif(not find_executable("nginx"),
                                reason="the production stack needs nginx; scripts/test.sh installs it")

HEAVY = ["python", "c", "memory", "python", "c"]
FRESH = (f"{path}?n={n}&c=3&k=5" for n in itertools.count(5000) for path in ("/", "/api/v1/pass-at-k"))


@pytest.fixture(scope="module")
def endless_stack():
    """Four workers (two for pages, two for uploads and share links), with the endless statistic switched on."""
    running = ProductionStack(workers=4, env={"PASSK_TEST_ENDLESS": "1"}).start()
    yield running
    running.close()


class Links:
    """The HEAVY links, requested at once; `finished` counts those answered."""

    def __init__(self, stack):
        self.answers, self.finished, self.lock = {}, 0, threading.Lock()
        start = threading.Barrier(len(HEAVY))

        def follow(index, kind):
            start.wait()
            status, headers, body = stack.request("GET", f"/benchmark/endless?kind={kind}&link={index}", timeout=90)
            with self.lock:
                self.answers[index] = (kind, status, headers, body.decode())
                self.finished += 1

        self.threads = [threading.Thread(target=follow, args=pair) for pair in enumerate(HEAVY)]
        for thread in self.threads:
            thread.start()

    def unfinished(self):
        with self.lock:
            return len(HEAVY) - self.finished

    def join(self):
        for thread in self.threads:
            thread.join()


def test_five_endless_links_get_the_sentence_while_pages_are_answered(endless_stack):
    stack = endless_stack
    logged, workers = len(stack.log()), set(stack.worker_pids())
    links = Links(stack)
    light = []
    while links.unfinished():
        for path in (next(FRESH), "/healthz"):
            status, _, body = stack.request("GET", path, timeout=90)
            light.append((path, status, links.unfinished()))
    links.join()

    assert all(status == 200 for _, status, _ in light), light
    # The heavy links take the ceiling's seconds each, two at a time: pages were answered meanwhile, many
    # while most of the links were still running (had they shared the page workers, none could be).
    assert sum(1 for *_, unfinished in light if unfinished >= 3) >= 4, light
    for kind, status, headers, body in links.answers.values():
        reached = "memory" if kind == "memory" else "cpu"
        assert status == 413, (kind, body[:300])
        assert ceiling_reached(reached).replace("'", "&#39;") in body, kind
        assert headers["x-frame-options"] == "DENY" and "default-src 'none'" in headers["content-security-policy"]
    log = stack.log()[logged:]
    assert "WORKER TIMEOUT" not in log and "SIGKILL" not in log and "Traceback" not in log
    assert set(stack.worker_pids()) == workers   # no worker died or was replaced
