"""Heavy work cannot starve light work (issue 15 §4), through the real stack.

Uploads (the benchmark and compare POSTs) go to their own pool of gunicorn
workers (scripts/run.sh, deploy/nginx.conf); pages and the single-problem API go
to the other. So while uploads run, and more wait for an upload worker, light
requests are still answered. No test times an answer: starvation shows as a
light request answered only after every upload finished, as a failure, as a
worker timeout in the log or a worker replaced; a socket timeout of 60 s only
keeps the suite from hanging.
"""

import http.client
import itertools
import json
import threading
from pathlib import Path

import pytest

from deploy.stack import _children, find_executable
from bodies import BOUNDARY, gzipped, multipart as form_body

pytestmark = pytest.mark.skipif(
    not find_executable("nginx"),
    reason="the production stack needs nginx; scripts/test.sh installs it")

HEAVY = 5
# Addresses no test asked for before, so each is computed by a worker, not answered from nginx's cache.
LIGHT_ADDRESSES = (f"{path}?n={n}&c=3&k=5" for n in itertools.count(1000) for path in ("/", "/api/v1/pass-at-k"))
# 100,000 problems at 3 ks: about a second of a worker's CPU.
BIG_BENCHMARK = json.dumps({
    "problems": [{"task_id": f"t{i}", "n": 20, "c": i % 21} for i in range(100_000)],
    "k": [1, 5, 10],
}).encode()


class Uploads:
    """HEAVY uploads started together (a barrier); `sent` counts those whose body nginx has whole."""

    def __init__(self, stack, path, body, content_type):
        self.answers = []
        self.sent = threading.Semaphore(0)
        self.finished = 0
        self.lock = threading.Lock()
        start = threading.Barrier(HEAVY)

        def upload():
            connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
            try:
                start.wait()
                connection.request("POST", path, body, {"Content-Type": content_type})
                self.sent.release()
                response = connection.getresponse()
                answer = (response.status, response.read())
            except OSError as error:
                answer = (repr(error), b"")
                self.sent.release()
            finally:
                connection.close()
            with self.lock:
                self.answers.append(answer)
                self.finished += 1

        self.threads = [threading.Thread(target=upload) for _ in range(HEAVY)]
        for thread in self.threads:
            thread.start()
        for _ in self.threads:
            self.sent.acquire(timeout=60)   # every upload is sent whole: all are under way or waiting

    def unfinished(self):
        with self.lock:
            return HEAVY - self.finished

    def join(self):
        for thread in self.threads:
            thread.join()


def test_pages_and_the_single_problem_api_are_answered_while_uploads_run(stack):
    logged = len(stack.log())
    workers = set(stack.worker_pids())
    uploads = Uploads(stack, "/api/v1/benchmark", BIG_BENCHMARK, "application/json")
    light, unfinished = [], []
    for path in itertools.islice(LIGHT_ADDRESSES, 6):
        status, _, body = stack.request("GET", path)
        light.append((path, status, body[:200]))
        unfinished.append(uploads.unfinished())
    uploads.join()

    for path, status, body in light:
        assert status == 200, (path, body)
    # Every light request was answered while four uploads at least were still in their pool: with
    # one upload worker (2 workers in all) the five run one after another. Had pages shared the
    # workers with uploads, all but perhaps the first would have waited in line behind them.
    assert min(unfinished) >= HEAVY - 1, unfinished
    assert [status for status, _ in uploads.answers] == [200] * HEAVY   # waited, never refused
    for _, body in uploads.answers:
        assert json.loads(body)["problems"] == 100_000
    log = stack.log()[logged:]
    assert "WORKER TIMEOUT" not in log
    assert "SIGKILL" not in log
    assert set(stack.worker_pids()) == workers   # no worker killed or replaced


def test_five_gzip_bombs_at_once_are_refused_and_kill_no_worker(stack):
    """The issue's last row: five 256 MiB [0,0,...] bombs (about 1 MB each, sent) took every worker down."""
    body = form_body([("k", "1")], [("file", "results.json.gz", gzipped(b"0,", 256 * 2**20))])
    logged = len(stack.log())
    workers = set(stack.worker_pids())
    uploads = Uploads(stack, "/api/v1/benchmark", body, f"multipart/form-data; boundary={BOUNDARY}")
    statuses = [stack.request("GET", path)[0] for path in itertools.islice(LIGHT_ADDRESSES, 4)]
    uploads.join()
    assert statuses == [200] * 4
    for status, answer in uploads.answers:
        assert status == 413 and "3,000,000 keys and values" in json.loads(answer)["error"]
    log = stack.log()[logged:]
    assert "WORKER TIMEOUT" not in log and "SIGKILL" not in log
    assert set(stack.worker_pids()) == workers


def test_page_uploads_and_comparisons_take_the_upload_pool_too(stack):
    """A big form posted to the benchmark page is heavy as well: pages are answered meanwhile."""
    lines = "\n".join(f"t{i},20,{i % 21}" for i in range(100_000))
    form = f"text={lines}&k=1,5,10".encode()
    uploads = Uploads(stack, "/benchmark", form, "application/x-www-form-urlencoded")
    statuses, unfinished = [], []
    for path in itertools.islice(LIGHT_ADDRESSES, 4):
        statuses.append(stack.request("GET", path)[0])
        unfinished.append(uploads.unfinished())
    uploads.join()
    assert statuses == [200] * 4
    assert min(unfinished) >= HEAVY - 1, unfinished
    assert all(status in (200, 400) for status, _ in uploads.answers)   # the app's page, never nginx's 503


def test_light_posts_stay_in_the_page_pool(stack):
    """POST /api/v1/pass-at-k is the single-problem API, answered however many arrive at once."""
    answers = []

    def light_post():
        answers.append(stack.request("POST", "/api/v1/pass-at-k", b'{"n": 10, "c": 3, "k": 5}',
                            {"Content-Type": "application/json"})[0])

    threads = [threading.Thread(target=light_post) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 8


def test_both_pools_run_and_stop_with_the_stack(stack):
    """Two gunicorn masters under run.sh, one per pool, sharing the workers asked for."""
    masters = [pid for pid in _children(stack.process.pid) if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(masters) == 2
    assert [len(_children(master)) for master in masters] == [1, 1]
    status, _, body = stack.request("POST", "/api/v1/compare", b"", {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 400 and "error" in json.loads(body)   # the app's own answer, through the upload pool
