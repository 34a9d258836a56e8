"""Benchmark a human-eval upload against the production server, end to end.

    python bench/bench_upload.py      # from the repository root; under a minute

Any Python with requirements.txt installed will do (.venv/bin/python once
scripts/serve.sh has made it). Generated data goes to bench/data/, which git
ignores.

1. Writes (or reuses) a realistic 80 MB human-eval results file: 164 problems x
   1,000 samples, shuffled (see make_humaneval.py).
2. Starts gunicorn as in production (gunicorn.conf.py, one sync worker, a free
   port on 127.0.0.1) and POSTs the file to /api/v1/benchmark with k=1,10,100,
   streaming the multipart body from disk. Reports the request's wall time
   (best and median of --runs) and the worker's peak RSS growth (VmHWM, reset
   before each request through /proc/<pid>/clear_refs), and checks the answer
   against the generator's own counts, exactly, with Fractions.
3. Times the reference harness's own way of reading the same file (json.loads
   per line, passed flags per task, its product estimator) as a baseline.
4. Times the same request's stages in this process (werkzeug's multipart
   parser, the JSONL reader, the aggregation, JSON encoding) to show where the
   time goes.
5. Sends bodies one byte over the upload limit, with a Content-Length (the
   server should refuse from the headers alone) and chunked (no length, so the
   server must count), and checks each gets a 413 with a JSON error.

With --reading (in process, no server; see "reading at the limits" below), it
measures instead what the files of issue 25's reading cases cost to read, now
and at the commit before, against a plain-Python baseline in the same run, and
each price of passk/formats/_cost.py against what it measures.

Exits 1 when an answer is wrong, a 413 is not a 413 or a target is missed:
peak growth under 200 MB, and a median request under 3 s once the time the
worker spent waiting for a CPU (other load on the machine, from
/proc/<pid>/schedstat) is taken off; the raw wall time is judged and printed
too. The figures are also written to bench/data/bench_upload.json.
"""

import argparse
import http.client
import io
import json
import math
import os
import platform
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path

import numpy as np
from werkzeug.formparser import parse_form_data
from werkzeug.test import create_environ

import make_humaneval

REPO = Path(__file__).resolve().parent.parent
# the app itself, for its limit and the in-process stage timings (a reading child: the tree it measures)
sys.path.insert(0, os.environ.get("PASSK_BENCH_TREE", str(REPO)))

from app import create_app  # noqa: E402
from passk.results.benchmark import summarize  # noqa: E402
from passk.formats import read_problems  # noqa: E402
from passk.limits import LIMITS  # noqa: E402
from passk.writing.answers import to_json

KS = (1, 10, 100)
TARGET_SECONDS = 3.0
TARGET_GROWTH_MB = 200
RELATIVE_TOLERANCE = 1e-13             # SPEC, "Numerics"
BOUNDARY = "passk-bench-7d1f0c9a3e"
CHUNK = 1 << 20
MB = 1e6


# --- the request body -----------------------------------------------------


class MultipartBody(io.RawIOBase):
    """multipart/form-data with text fields and one file, read from disk piece by piece."""

    def __init__(self, path, fields, filename=None):
        head = b"".join(_field_part(name, value) for name, value in fields.items())
        head += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
                 f'filename="{filename or Path(path).name}"\r\n'
                 f"Content-Type: application/jsonl\r\n\r\n").encode()
        tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.length = len(head) + os.path.getsize(path) + len(tail)
        self._file = open(path, "rb", buffering=0)
        self._pieces = [io.BytesIO(head), self._file, io.BytesIO(tail)]

    content_type = f"multipart/form-data; boundary={BOUNDARY}"

    def readable(self):
        return True

    def readinto(self, buffer):
        while self._pieces:
            count = self._pieces[0].readinto(buffer)
            if count:
                return count
            self._pieces.pop(0)
        return 0

    def close(self):
        self._file.close()
        super().close()


def _field_part(name, value):
    return f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()


# --- the server -----------------------------------------------------------


@contextmanager
def production_server(log_path):
    """gunicorn with gunicorn.conf.py and one worker on a free loopback port; yields (port, worker pid)."""
    port = _free_port()
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
               "--workers", "1", "--bind", f"127.0.0.1:{port}", "app:app"]
    with open(log_path, "w") as log:
        master = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                  env={**os.environ, "WEB_CONCURRENCY": "1"})
    try:
        _wait_until_serving(port, master, log_path)
        yield port, _only_worker(master.pid)
    finally:
        master.terminate()
        try:
            master.wait(timeout=30)
        except subprocess.TimeoutExpired:
            master.kill()
            master.wait()


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_serving(port, master, log_path, seconds=60):
    """Poll the single-problem API until it answers 200; fail with gunicorn's log if it dies."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if master.poll() is not None:
            sys.exit(f"gunicorn exited with {master.returncode}:\n{Path(log_path).read_text()}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/api/v1/pass-at-k?n=10&c=3&k=5")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
        finally:
            connection.close()
    sys.exit(f"gunicorn did not answer within {seconds} s:\n{Path(log_path).read_text()}")


def _only_worker(master_pid):
    """The pid of the master's one worker process."""
    for _ in range(100):
        children = [pid for pid in _pids() if _parent(pid) == master_pid]
        if len(children) == 1:
            return children[0]
        time.sleep(0.1)
    sys.exit(f"expected one gunicorn worker under pid {master_pid}, found {children}")


def _pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _parent(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])


def memory_kb(pid):
    """VmRSS and VmHWM of pid in kB, from /proc/<pid>/status."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            values[name] = int(rest.split()[0])
    return values


def scheduler_seconds(pid):
    """(seconds pid has run on a CPU, seconds it has waited for one), from /proc/<pid>/schedstat."""
    on_cpu, waiting, _ = Path(f"/proc/{pid}/schedstat").read_text().split()
    return int(on_cpu) / 1e9, int(waiting) / 1e9


def reset_peak(pid):
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when not allowed."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


# --- the measured request -------------------------------------------------


def post_upload(port, path, ks):
    """POST path as the multipart `file` with k; return (seconds, status, decoded JSON)."""
    body = MultipartBody(path, {"k": ",".join(map(str, ks))})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300, blocksize=CHUNK)
    try:
        start = time.perf_counter()
        connection.request("POST", "/api/v1/benchmark", body=body, headers={
            "Content-Type": body.content_type, "Content-Length": str(body.length)})
        response = connection.getresponse()
        answer = response.read()
        seconds = time.perf_counter() - start
    finally:
        body.close()
        connection.close()
    return seconds, response.status, json.loads(answer)


def measured_uploads(port, worker, path, ks, runs):
    """Each run's wall time and the worker's peak RSS growth (MB) during it, after one warm-up."""
    post_small(port)
    runs_measured = []
    for _ in range(runs):
        peak_was_reset = reset_peak(worker)
        before, scheduled_before = memory_kb(worker), scheduler_seconds(worker)
        seconds, status, answer = post_upload(port, path, ks)
        after, scheduled = memory_kb(worker), scheduler_seconds(worker)
        # With the peak reset, VmHWM - VmRSS before is this request's growth; without it,
        # VmHWM after - before (exact for the first run, a lower bound after that).
        base = before["VmRSS"] if peak_was_reset else before["VmHWM"]
        runs_measured.append({"seconds": seconds, "status": status,
                              "cpu_seconds": scheduled[0] - scheduled_before[0],
                              "queued_seconds": scheduled[1] - scheduled_before[1], "answer": answer,
                              "growth_mb": (after["VmHWM"] - base) * 1024 / MB,
                              "rss_before_mb": before["VmRSS"] * 1024 / MB,
                              "peak_reset": peak_was_reset})
    return runs_measured


def post_small(port):
    """One small upload, so imports and first-use caches are not timed."""
    small = make_humaneval.DATA_DIR / "warmup_results.jsonl"
    small.write_text("".join(json.dumps({"task_id": f"t{i % 3}", "completion": "", "result": "passed",
                                         "passed": i % 2 == 0}) + "\n" for i in range(30)))
    _, status, _ = post_upload(port, small, KS[:1])
    if status != 200:
        sys.exit(f"the warm-up upload got HTTP {status}")


# --- checking the answer --------------------------------------------------


def exact_pass_at_k(counts, k):
    """The benchmark's pass@k as a Fraction: the mean of 1 - C(n-c, k)/C(n, k)."""
    total = sum(1 - Fraction(math.comb(n - c, k), math.comb(n, k)) for n, c in counts.values())
    return total / len(counts)


def check_answer(status, answer, counts, ks, exact):
    """Sentences for everything wrong in the API's answer; [] when it is right."""
    if status != 200:
        return [f"HTTP {status}: {answer.get('error')}"]
    wrong = []
    if answer["problems"] != len(counts) or answer["format"] != "humaneval":
        wrong.append(f"{answer['problems']} problems in format {answer['format']!r}, "
                     f"expected {len(counts)} in 'humaneval'")
    rows = {row["task_id"]: (row["n"], row["c"]) for row in answer["per_problem"]}
    mismatched = [task for task, (n, c) in counts.items() if rows.get(task) != (n, c)]
    if mismatched:
        wrong.append(f"n, c differ from the generator's for {len(mismatched)} tasks, e.g. {mismatched[0]}")
    if answer["warnings"]:
        wrong.append(f"unexpected warnings: {answer['warnings']}")
    results = {row["k"]: row["pass_at_k"] for row in answer["results"]}
    for k in ks:
        error = relative_error(results.get(k), exact[k])
        if error is None or error > RELATIVE_TOLERANCE:
            wrong.append(f"pass@{k} = {results.get(k)!r}, exact {float(exact[k])!r} (relative error {error})")
    return wrong


def relative_error(value, exact):
    if value is None:
        return None
    return float(abs(Fraction(value) - exact) / exact)


# --- the baseline: the reference harness's own script ---------------------


def harness_script(path, ks):
    """Read the file as the reference harness does and return its pass@k for each k."""
    passed_by_task = defaultdict(list)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            sample = json.loads(line)
            passed_by_task[sample["task_id"]].append(sample["passed"])
    total = np.array([len(flags) for flags in passed_by_task.values()])
    correct = np.array([sum(flags) for flags in passed_by_task.values()])
    return {k: reference_estimate(total, correct, k).mean() for k in ks if (total >= k).all()}


def reference_estimate(num_samples, num_correct, k):
    """The reference product estimator, one problem at a time, 1.0 whenever n - c < k."""
    def one_problem(n, c):
        if n - c < k:
            return 1.0
        return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))
    return np.array([one_problem(int(n), int(c)) for n, c in zip(num_samples, num_correct)])


# --- where the time goes: the request's stages in this process ------------


def request_stages(path, ks):
    """CPU seconds of each stage of the API request, run in this process as the view runs them."""
    flask_app = create_app()
    body = MultipartBody(path, {"k": ",".join(map(str, ks))})
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": body.content_type,
               "CONTENT_LENGTH": str(body.length), "wsgi.input": body}
    stages = {}
    with _stage(stages, "multipart parsing (werkzeug, file spooled to a temporary file)"):
        _, _, files = parse_form_data(environ, max_content_length=LIMITS.upload_bytes,
                                      max_form_memory_size=flask_app.config["MAX_FORM_MEMORY_SIZE"],
                                      max_form_parts=flask_app.config["MAX_FORM_PARTS"])
    upload = files["file"]
    upload.stream.seek(0)
    with _stage(stages, "JSONL reader (passk.formats.read_problems)"):
        parsed = read_problems(upload.stream, filename=upload.filename)
    with _stage(stages, "aggregation (passk.results.benchmark.summarize)"):
        summary = summarize(parsed.problems, ks, warnings=parsed.warnings)
    with _stage(stages, "JSON encoding (passk.writing.answers.to_json, app.json.dumps)"), flask_app.app_context():
        flask_app.json.dumps(to_json(summary, parsed.format))
    body.close()
    return stages


def app_in_process(path, ks):
    """CPU seconds of the whole app answering the upload in this process: WSGI, no socket."""
    body = MultipartBody(path, {"k": ",".join(map(str, ks))})
    environ = create_environ("/api/v1/benchmark", method="POST")
    environ.update({"wsgi.input": body, "CONTENT_TYPE": body.content_type,
                    "CONTENT_LENGTH": str(body.length)})
    start = time.process_time()
    b"".join(create_app()(environ, lambda status, headers: None))
    seconds = time.process_time() - start
    body.close()
    return seconds


@contextmanager
def _stage(stages, name):
    """Record the CPU time of the with-block in stages[name]."""
    start = time.process_time()
    yield
    stages[name] = time.process_time() - start


# --- the 413 --------------------------------------------------------------


def post_oversized(port, chunked=False):
    """Send a multipart body of limit + 1 bytes, stopping once the server answers.

    With a Content-Length the server can refuse from the headers; chunked, it has to
    count what it reads. Returns (status, JSON or text, seconds to the answer, MB sent).
    """
    total = LIMITS.upload_bytes + 1
    head = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big_results.jsonl"'
            f"\r\nContent-Type: application/jsonl\r\n\r\n").encode()
    length_header = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    request_head = (f"POST /api/v1/benchmark HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
                    f"{length_header}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        start = time.perf_counter()
        sock.sendall(request_head)
        sent = _send_until_answered(sock, _oversized_pieces(head, total), chunked)
        response = http.client.HTTPResponse(sock, method="POST")
        response.begin()
        seconds = time.perf_counter() - start
        text = response.read().decode("utf-8", "replace")
    try:
        answer = json.loads(text)
    except ValueError:
        answer = text[:200]
    return response.status, answer, seconds, sent / MB


def _oversized_pieces(head, total):
    """The body in pieces: the part's header, then filler up to total bytes in all."""
    yield head
    filler = b"x" * (CHUNK - 1) + b"\n"
    remaining = total - len(head)
    while remaining > 0:
        yield filler[:remaining]
        remaining -= min(remaining, len(filler))


def _send_until_answered(sock, pieces, chunked):
    """Send pieces while the server is silent; return the body bytes sent."""
    sent = 0
    for piece in pieces:
        readable, _, _ = select.select([sock], [], [], 0)
        if readable:
            return sent
        frame = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
        try:
            sock.sendall(frame)
        except (BrokenPipeError, ConnectionResetError):
            return sent
        sent += len(piece)
    if chunked:
        sock.sendall(b"0\r\n\r\n")
    return sent


# --- the report -----------------------------------------------------------


def machine():
    """A line about where this ran."""
    model = next((line.partition(":")[2].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.machine())
    return (f"{len(os.sched_getaffinity(0))} cores ({model}), Python {platform.python_version()}, "
            f"gunicorn {version('gunicorn')}, werkzeug {version('werkzeug')}, numpy {np.__version__}")


def seconds_line(times):
    return (f"best {min(times):.2f} s, median {statistics.median(times):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)})")


def report_uploads(runs, counts, exact, figures):
    """Print the timed requests and the answer's check; return the failures."""
    failures = [f"run {number}: {problem}" for number, run in enumerate(runs, 1)
                for problem in check_answer(run["status"], run["answer"], counts, KS, exact)]
    times = [run["seconds"] for run in runs]
    queued = [run["queued_seconds"] for run in runs]
    uncontended = statistics.median(wall - wait for wall, wait in zip(times, queued))
    growths = [run["growth_mb"] for run in runs]
    print(f"\nPOST /api/v1/benchmark, k={','.join(map(str, KS))}, gunicorn 1 sync worker:")
    print(f"  wall time: {seconds_line(times)}; target < {TARGET_SECONDS:g} s (median): "
          f"{'met' if statistics.median(times) < TARGET_SECONDS else 'MISSED'}")
    on_cpu = [run["cpu_seconds"] for run in runs]
    print(f"  worker on a CPU: {', '.join(f'{cpu:.2f}' for cpu in on_cpu)} s; waiting for one "
          f"(other load): {', '.join(f'{wait:.2f}' for wait in queued)} s; "
          f"median wall time less that wait: {uncontended:.2f} s")
    print(f"  worker peak RSS growth: {', '.join(f'{growth:.1f}' for growth in growths)} MB "
          f"(RSS before {runs[0]['rss_before_mb']:.1f} MB); target < {TARGET_GROWTH_MB} MB: "
          f"{'met' if max(growths) < TARGET_GROWTH_MB else 'MISSED'}")
    answer = runs[-1]["answer"]
    print(f"  answer: {answer.get('problems')} problems, n = "
          f"{sorted({row['n'] for row in answer.get('per_problem', [])})}, "
          f"{'checks passed' if not failures else f'{len(failures)} checks failed'}")
    values = {row["k"]: row["pass_at_k"] for row in answer.get("results", [])}
    for k in KS:
        same = " (bit-equal to the exact mean)" if values.get(k) == float(exact[k]) else ""
        print(f"    pass@{k} = {values.get(k)!r}; exact {float(exact[k])!r}; "
              f"relative error {relative_error(values.get(k), exact[k]):.1e}{same}")
    if uncontended >= TARGET_SECONDS:
        failures.append(f"median request {uncontended:.2f} s without waiting for a CPU, target {TARGET_SECONDS:g} s")
    if max(growths) >= TARGET_GROWTH_MB:
        failures.append(f"peak RSS growth {max(growths):.1f} MB, target {TARGET_GROWTH_MB} MB")
    figures.update(request_seconds=times, worker_cpu_seconds=on_cpu,
                   worker_queued_seconds=queued, growth_mb=growths, pass_at_k=values)
    return failures


def report_baseline(path, runs, request_runs, exact, figures):
    """Time the reference harness's script on the file and print it beside the API request."""
    walls, cpus, values = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        values = harness_script(path, KS)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    request_walls = [run["seconds"] for run in request_runs]
    request_cpus = [run["cpu_seconds"] for run in request_runs]
    wall_ratio = statistics.median(request_walls) / statistics.median(walls)
    cpu_ratio = statistics.median(request_cpus) / statistics.median(cpus)
    print(f"\nbaseline, the reference harness's own script on the same file: {seconds_line(walls)}; "
          f"CPU {statistics.median(cpus):.2f} s (median)")
    print(f"  API request / harness script: {wall_ratio:.2f}x wall time (medians), "
          f"{cpu_ratio:.2f}x CPU time (server worker vs script)")
    for k, value in values.items():
        print(f"    harness pass@{k} = {float(value)!r}; relative error {relative_error(value, exact[k]):.1e}")
    figures.update(harness_seconds=walls, harness_cpu_seconds=cpus, ratio_wall=wall_ratio, ratio_cpu=cpu_ratio)


def report_stages(path, request_runs, figures):
    """Print where the request's time goes, measured in this process."""
    stages = request_stages(path, KS)
    whole_app = app_in_process(path, KS)
    worker = statistics.median(run["cpu_seconds"] for run in request_runs)
    print(f"\nthe request's stages, CPU time in this process (total {sum(stages.values()):.2f} s):")
    for stage, seconds in stages.items():
        print(f"  {seconds:7.3f} s  {stage}")
    print(f"  the whole app called in this process (WSGI, no socket): {whole_app:.2f} s; the worker's "
          f"{worker:.2f} s less that, {worker - whole_app:.2f} s, is gunicorn and the socket receiving the body")
    figures.update(stages_seconds=stages, app_in_process_seconds=whole_app)


def report_refusals(refusals, figures):
    """Print the answers to the oversized uploads; return the failures."""
    failures = []
    print(f"\nuploads one byte over the limit ({LIMITS.upload_bytes // 2**20} MiB + 1 byte):")
    for label, (status, error, seconds, sent_mb) in refusals.items():
        print(f"  {label}: HTTP {status} after {seconds * 1000:.0f} ms, {sent_mb:.1f} MB of the body sent; "
              f"{json.dumps(error, ensure_ascii=False)}")
        if status != 413 or not isinstance(error, dict) or not isinstance(error.get("error"), str):
            failures.append(f"{label} upload over the limit: HTTP {status}, {error!r}")
        figures.setdefault("over_limit", {})[label] = {"status": status, "seconds": seconds, "sent_mb": sent_mb}
    return failures


# --- reading at the limits (issue 25): each file's cost, and what is refused at once -----------------------
#
#     python bench/bench_upload.py --reading                 # this checkout and BEFORE_READING; about 20 minutes
#     python bench/bench_upload.py --reading --before none   # this checkout only; about 5 minutes
#     python bench/bench_upload.py --reading --before none --no-rates --cases eval-199998-deflate,csv-500k-samples
#     python bench/bench_upload.py --reading --repeat 3 --cases humaneval-79mb   # the cheapest of 3 runs each
#
# Each case is read as a web request reads its files (passk.formats.read_files with the request's Budget and
# the per-request limits), in a fresh child process of this checkout or of the tree at --before (unpacked with
# git archive), stopped after --timeout s of CPU. The child reports the CPU time of the reading
# (time.process_time), its peak memory growth (VmHWM, reset just before), what came of it and, in this checkout,
# the reading work the budget was charged (the estimate, passk.formats._cost); then it times a baseline on the
# same bytes in the same process: the plainest Python reading of that format (json.loads per line, csv.reader,
# zipfile and json.loads per member), so that "now / baseline" compares runs on a busy machine. A case that must
# be refused is checked: the child of this checkout exits 1 when one is read, or one that must be read is not.

BEFORE_READING = "457f590"   # the last commit before issue 25's reading costs
READING_TIMEOUT = 60         # CPU seconds a child may take (the baseline tree's worst cases take about 25)
EVAL_BASELINE_MEMBERS = 20_000   # a baseline reads at most this many members of an archive, and is scaled up


def _jsonl(lines, line):
    """lines human-eval results lines, line(i) the bytes of line i without its newline."""
    return b"".join(line(index) + b"\n" for index in range(lines))


def _gzip(data):
    import gzip
    return gzip.compress(data, 1)


def _escaped_completion(index):
    completion = b'    return \\"\\\\n\\".join(x)\\n' * 15   # 450 bytes of escapes, as json.dumps writes code
    return (b'{"task_id": "HumanEval/%d", "completion": "%s", "result": "passed", "passed": %s}'
            % (index % 164, completion, b"true" if index % 3 else b"false"))


def _value_line(index):
    return b'{"task_id": "t%d", "passed": true, "x": [%s0]}' % (index % 5000, b"0," * 250)


def _eval_archive(members, zstd=False):
    """An Inspect .eval archive: header.json and members - 1 tiny samples (20,000 ids, an epoch each pass)."""
    if zstd:
        from backports.zstd import zipfile as zstd_zipfile
        module, method = zstd_zipfile, zstd_zipfile.ZIP_ZSTANDARD
    else:
        import zipfile
        module, method = zipfile, zipfile.ZIP_DEFLATED
    archive = io.BytesIO()
    with module.ZipFile(archive, "w", method) as writer:
        writer.writestr("header.json", b'{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}')
        for index in range(members - 1):
            sample, epoch = index % 20_000, index // 20_000 + 1
            writer.writestr(f"samples/{sample}_epoch_{epoch}.json",
                            b'{"id": %d, "epoch": %d, "scores": {"match": {"value": "C"}}}' % (sample, epoch))
    return archive.getvalue()


def _escaped_json(size):
    """JSON counts of one problem, padded with strings of escapes to size bytes, gzipped."""
    piece = b'"' + b'\\"' * 32_000 + b'",'
    body = b'{"problems": [{"task_id": "a", "n": 10, "c": 3}], "padding": [' + piece * (size // len(piece)) + b'""]}'
    return _gzip(body)


def _humaneval_79mb():
    path, _ = make_humaneval.ensure()
    return path.read_bytes()


# name: (what it is, "read" or "refused" now, the files [(name, bytes)], the baseline's reading)
READING_CASES = {
    "eval-199998-deflate": (
        "Inspect .eval, 199,998 tiny deflate members (issue 25's row)", "refused",
        lambda: [("log.eval", _eval_archive(199_998))], "eval"),
    "eval-199998-zstd": (
        "Inspect .eval, 199,998 tiny zstd members", "refused",
        lambda: [("log.eval", _eval_archive(199_998, zstd=True))], "eval"),
    "eval-25k": (
        "Inspect .eval, 25,000 tiny deflate members (about the most a request's reading opens)", "read",
        lambda: [("log.eval", _eval_archive(25_000))], "eval"),
    "humaneval-500k-short": (
        "human-eval JSONL, 500,000 short lines (5,000 tasks)", "read",
        lambda: [("r.jsonl", _jsonl(500_000, lambda i: b'{"task_id":"t%d","passed":%s}'
                                    % (i % 5000, b"true" if i % 3 else b"false")))], "jsonl"),
    "humaneval-79mb": (
        "human-eval JSONL, 164 x 1,000 samples of realistic code (79 MB)", "read",
        lambda: [("samples.jsonl_results.jsonl", _humaneval_79mb())], "jsonl"),
    "humaneval-escaped-250mb": (
        "human-eval JSONL, 500,000 lines of escaped code (250 MB, near the upload limit)", "refused",
        lambda: [("r.jsonl", _jsonl(500_000, _escaped_completion))], "jsonl"),
    "humaneval-escaped-gzip": (
        "the same, gzipped (its size unknown until unpacked)", "refused",
        lambda: [("r.jsonl.gz", _gzip(_jsonl(500_000, _escaped_completion)))], "jsonl"),
    "humaneval-values-gzip": (
        "human-eval JSONL, 500,000 lines each with a list of 251 zeros, gzipped (256 MB unpacked)", "refused",
        lambda: [("r.jsonl.gz", _gzip(_jsonl(500_000, _value_line)))], "jsonl"),
    "csv-500k-samples": (
        "per-sample CSV, 500,000 rows task_id,passed (5,000 tasks)", "read",
        lambda: [("s.csv", b"task_id,passed\n" + b"".join(b"t%d,%d\n" % (i % 5000, i % 3 == 0)
                                                             for i in range(499_999)))], "csv"),
    "csv-many-cells-gzip": (
        "per-sample CSV, 500,000 rows of 252 cells, the third quoted, gzipped (130 MB unpacked)", "refused",
        lambda: [("s.csv.gz", _gzip(b"task_id,passed,note\n" + b"".join(
            b't%d,%d,"n"%s\n' % (i % 5000, i % 3 == 0, b",x" * 124) for i in range(499_999))))], "csv"),
    "csv-40-files": (
        "per-sample CSV in 40 parts of 200,000 rows each (8,000,000 rows in one request)", "refused",
        lambda: [(f"part{part}.csv", b"task_id,passed\n" + b"".join(b"t%d,%d\n" % (i % 5000, i % 3 == 0)
                                                                    for i in range(200_000))) for part in range(40)],
        "csv"),
    "text-50k-samples": (
        "text, 50,000 lines task: 1 0 1 … of 250 samples (25 MB)", "read",
        lambda: [("r.txt", b"".join(b"t%d: %s\n" % (i, b" ".join([b"1", b"0"] * 125)) for i in range(50_000)))],
        "text"),
    "text-100k-samples": (
        "the same, 100,000 lines (50 MB)", "refused",
        lambda: [("r.txt", b"".join(b"t%d: %s\n" % (i, b" ".join([b"1", b"0"] * 125)) for i in range(100_000)))],
        "text"),
    "share-100k": (
        "GET /benchmark, a share link of 100,000 problems (counts=10^9:5·10^8*99999,…), k = 1, 10, 100", "read",
        lambda: "/benchmark?counts=1000000000:500000000*99999,1000000000:1&k=1,10,100", "share"),
    "json-escaped-4x60mib": (
        "JSON in 4 gzip parts, each 60 MiB of escaped strings (one problem)", "refused",
        lambda: [(f"part{part}.json.gz", _escaped_json(60 * 2**20)) for part in range(4)], "json"),
}


BASELINES = {   # what each kind of case's baseline does, in the same child, on the same bytes
    "jsonl": "json.loads per line", "csv": "csv.reader", "text": "str.split per line", "json": "json.loads",
    "eval": "zipfile and json.loads per member, the first 20,000 timed and scaled",
    "share": "the page of a one-problem link"}


def reading_baseline(kind, files):
    """CPU seconds of the plainest Python reading of files (kind: jsonl, csv, text, eval, json), tallying passes per
    task as the formats' own scripts do; an archive's first EVAL_BASELINE_MEMBERS members, scaled to all."""
    import csv
    import gzip
    import zipfile
    start = time.process_time()
    tally = defaultdict(int)
    scale = 1.0
    for _, data in files:
        data = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        if kind == "jsonl":
            for line in data.splitlines():
                record = json.loads(line)
                tally[record["task_id"]] += record["passed"]
        elif kind == "csv":
            rows = csv.reader(io.StringIO(data.decode()))
            next(rows)
            for row in rows:
                tally[row[0]] += row[1] == "1"
        elif kind == "text":
            for line in data.decode().splitlines():
                task, _, flags = line.partition(":")
                tally[task] += flags.split().count("1")
        elif kind == "json":
            json.loads(data)
        else:   # an .eval archive: zipfile itself (backports.zstd's reads zstd members too)
            from backports.zstd import zipfile as zstd_zipfile
            with zstd_zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = archive.infolist()
                read = members[:EVAL_BASELINE_MEMBERS]
                for member in read:
                    sample = json.loads(archive.read(member))
                    tally[sample.get("id")] += 1
                scale = len(members) / len(read)
    return (time.process_time() - start) * scale


def reading_child(name):
    """Read one case as a web request reads it, time its baseline, and print the figures as JSON."""
    from passk.formats import FormatError, read_files
    from passk.limits import Budget
    files = READING_CASES[name][2]()
    if isinstance(files, str):   # an address: the page asked for, in this process
        return share_child(files)
    budget = Budget()
    Path("/proc/self/clear_refs").write_text("5")   # VmHWM := VmRSS
    resident = memory_kb(os.getpid())["VmRSS"]
    start = time.process_time()
    try:
        parsed = read_files([(filename, io.BytesIO(data)) for filename, data in files], budget=budget,
                            max_problems=LIMITS.problems, max_lines=LIMITS.lines)
        outcome, said = "read", f"{len(parsed.problems):,} problems"
    except (FormatError, ValueError) as error:
        outcome, said = "refused", str(error)
    seconds = time.process_time() - start
    growth = (memory_kb(os.getpid())["VmHWM"] - resident) / 1024
    estimate = (LIMITS.read_work - budget.work) / 1e6 if hasattr(budget, "work") else None
    baseline = reading_baseline(READING_CASES[name][3], files)
    print(json.dumps({"outcome": outcome, "said": said, "cpu": seconds, "growth_mb": growth, "estimate": estimate,
                      "baseline": baseline, "bytes": sum(len(data) for _, data in files)}))


def share_child(address):
    """GET address from the app (after one request to warm it), and a one-problem link as the baseline."""
    client = create_app().test_client()
    client.get("/benchmark?counts=10:3&k=1")
    Path("/proc/self/clear_refs").write_text("5")
    resident = memory_kb(os.getpid())["VmRSS"]
    start = time.process_time()
    response = client.get(address)
    seconds = time.process_time() - start
    growth = (memory_kb(os.getpid())["VmHWM"] - resident) / 1024
    start = time.process_time()
    client.get("/benchmark?counts=10:3&k=1,10,100")
    baseline = time.process_time() - start
    outcome = "read" if response.status_code == 200 else "refused"
    print(json.dumps({"outcome": outcome, "said": f"HTTP {response.status_code}, {len(response.data):,} bytes",
                      "cpu": seconds, "growth_mb": growth, "estimate": None, "baseline": baseline,
                      "bytes": len(address)}))


def measure_reading(name, tree, timeout, repeat=1):
    """Run reading_child(name) in a child importing passk from tree, repeat times (the run of least CPU kept, and
    a case stopped once is not run again); its figures, or why it was stopped."""
    import resource

    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (timeout, timeout + 5))
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, __file__, "--reading-child", name], capture_output=True, text=True,
                              env={**os.environ, "PASSK_BENCH_TREE": tree}, preexec_fn=limit_cpu)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return {"stopped": f"stopped at {timeout} s of CPU" if done.returncode in (-9, -24) else last[:120]}
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return min(runs, key=lambda figures: figures["cpu"])


def unpacked_tree(revision, directory):
    """The app as it was at revision, unpacked into directory."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "passk", "app.py"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)
    return directory


def reading_figure(figures):
    """One side of a row: what came of it, CPU s and peak MB (and the estimate, in this checkout)."""
    if "stopped" in figures:
        return figures["stopped"]
    said = figures["said"] if figures["outcome"] == "read" else f"refused: “{figures['said'][:70]}…”"
    estimate = f", estimated {figures['estimate']:.2f} s" if figures.get("estimate") is not None else ""
    return f"{said}; {figures['cpu']:.2f} s{estimate}, +{figures['growth_mb']:.0f} MB"


def calibrate_reading(repeat=3):
    """Rows (unit, measured µs, estimated µs): the costliest content of each kind read (best of repeat) and the
    work the budget was charged for it, per unit; JSON line contents net of a file of short lines."""
    from dataclasses import replace
    from passk.formats import read_files
    from passk.limits import Budget
    unlimited = replace(LIMITS, read_work=10**15, json_tokens=10**12, unpacked_bytes=2**50, document_bytes=2**50)

    def read(files):
        """(CPU seconds, estimated seconds) of reading files."""
        best = math.inf
        for _ in range(repeat):
            budget = Budget(unlimited)
            start = time.process_time()
            read_files([(name, io.BytesIO(data)) for name, data in files], budget=budget)
            best = min(best, time.process_time() - start)
        return best, (unlimited.read_work - budget.work) / 1e6

    lines = 100_000
    short = lambda tail: _jsonl(lines, lambda i: b'{"task_id":"t%d","passed":true%s}' % (i % 5000, tail))  # noqa
    base = read([("r.jsonl", short(b""))])
    rows = [("JSON line (a short one)", base[0] / lines * 1e6, base[1] / lines * 1e6)]
    for unit, tail, count in [
            ("byte of JSON lines (escapes)", b',"c":"' + b'\\"' * 250 + b'"', 509),
            ("key of JSON lines (with a zero)", b"," + b",".join(b'"a%d":0' % j for j in range(60)), 60),
            ("value of JSON lines (a zero in a list)", b',"x":[' + b"0," * 250 + b"0]", 251),
            ("value of JSON lines (a list in a list)", b',"x":' + b"[" * 99 + b"]" * 99, 99),
            ("digit of JSON lines (numbers of 4,000)", b',"x":[' + b",".join([b"9" * 4000] * 2) + b"]", 8000)]:
        cpu, estimate = read([("r.jsonl", short(tail))])
        rows.append((unit, (cpu - base[0]) / (lines * count) * 1e6, (estimate - base[1]) / (lines * count) * 1e6))
    cases = [
        ("CSV row (task_id,passed)", [("s.csv", b"task_id,passed\n" + b"".join(
            b"t%d,1\n" % (i % 5000) for i in range(lines)))], lines),
        ("byte of CSV rows of 250 cells, one quoted", [("q.csv", b"task_id,passed,note\n" + b"".join(
            b't%d,1,"n"%s\n' % (i % 5000, b",x" * 248) for i in range(lines)))], lines * 507),
        ("byte of text lines of 0s and 1s", [("t.txt", b"".join(
            b"t%d: %s\n" % (i, b" ".join([b"1", b"0"] * 125)) for i in range(lines)))], lines * 508),
        ("byte of a JSON document of escapes", [("e.json.gz", _escaped_json(16 * 2**20))], 16 * 2**20),
        ("token of a JSON document of zeros", [("z.json", b'{"problems": [{"task_id": "a", "n": 1, "c": 1}], '
                                                b'"padding": [' + b"0," * 1_000_000 + b"0]}")], 1_000_010),
        ("member of an .eval archive (tiny, deflate)", [("l.eval", _eval_archive(20_000))], 20_000)]
    for unit, files, count in cases:
        cpu, estimate = read(files)
        rows.append((unit, cpu / count * 1e6, estimate / count * 1e6))
    return rows


def main_reading(args):
    """Print the reading cases before (--before) and now, with their baselines, and the rates; 1 when a case of
    this checkout is not refused or read as it must be."""
    names = args.cases.split(",") if args.cases else list(READING_CASES)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; {machine()}; load average {load}")
    print(f"the request's reading budget: {LIMITS.read_work / 1e6:g} s estimated; before: "
          f"{args.before if args.before != 'none' else '(not measured)'}\n")
    failures, figures = [], {}
    with tempfile.TemporaryDirectory() as directory:
        before_tree = None if args.before == "none" else unpacked_tree(args.before, directory)
        for name in names:
            description, wanted = READING_CASES[name][:2]
            now = measure_reading(name, str(REPO), args.timeout, args.repeat)
            before = measure_reading(name, before_tree, args.timeout, args.repeat) if before_tree else None
            figures[name] = {"now": now, "before": before}
            print(f"{name}: {description}")
            if before:
                print(f"  before: {reading_figure(before)}")
            print(f"  now:    {reading_figure(now)}")
            if "baseline" in now:
                print(f"  baseline ({BASELINES[READING_CASES[name][3]]}): {now['baseline']:.2f} s; now / baseline "
                      f"{now['cpu'] / now['baseline']:.2f}"
                      + (f"; before / baseline {before['cpu'] / now['baseline']:.2f}" if before and "cpu" in before
                         else ""))
            if now.get("outcome") != wanted:
                failures.append(f"{name}: {now.get('outcome') or now.get('stopped')}, wanted {wanted}")
    if args.rates:
        print("\nthe rates of passk.formats._cost, each on its costliest content (µs a unit; best of 3):")
        for unit, measured, estimated in calibrate_reading():
            print(f"  {unit:48} measured {measured:8.4f}   estimated {estimated:8.4f}   estimated / measured "
                  f"{estimated / measured:4.2f}")
    (make_humaneval.DATA_DIR / "bench_reading.json").write_text(json.dumps(figures, indent=1))
    print("\n" + ("FAILED:\n  " + "\n  ".join(failures) if failures else "every case read or refused as it must be"))
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed requests and baseline runs (default 3)")
    parser.add_argument("--regenerate", action="store_true", help="write the data file again")
    parser.add_argument("--reading", action="store_true", help="only the reading cases of issue 25, in process")
    parser.add_argument("--before", default=BEFORE_READING, help="the tree the reading cases are compared with "
                        f"(default {BEFORE_READING}; none: not measured)")
    parser.add_argument("--cases", help="the reading cases to run, comma-separated (default: all)")
    parser.add_argument("--timeout", type=int, default=READING_TIMEOUT, help="CPU seconds of a reading child")
    parser.add_argument("--repeat", type=int, default=1, help="with --reading, runs of each case and tree, the "
                        "cheapest kept (default 1)")
    parser.add_argument("--rates", action=argparse.BooleanOptionalAction, default=True,
                        help="with --reading, measure each rate of passk.formats._cost too (default: yes)")
    parser.add_argument("--reading-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.reading_child:
        return reading_child(args.reading_child)
    if args.reading:
        return main_reading(args)

    path, counts = make_humaneval.ensure(regenerate=args.regenerate)
    samples = sum(n for n, _ in counts.values())
    load = Path("/proc/loadavg").read_text().split()[0]
    figures = {"date": time.strftime("%Y-%m-%d"), "machine": machine(), "load_average": load,
               "file_mb": path.stat().st_size / MB, "problems": len(counts), "samples": samples}
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; {machine()}; load average {load}")
    print(f"file: {path.relative_to(REPO)}, {figures['file_mb']:.1f} MB, "
          f"{len(counts)} problems, {samples:,} samples (lines)")
    exact = {k: exact_pass_at_k(counts, k) for k in KS}

    with production_server(make_humaneval.DATA_DIR / "gunicorn.log") as (port, worker):
        runs = measured_uploads(port, worker, path, KS, args.runs)
        refusals = {"Content-Length": post_oversized(port), "chunked": post_oversized(port, chunked=True)}
    failures = report_uploads(runs, counts, exact, figures)
    report_baseline(path, args.runs, runs, exact, figures)
    report_stages(path, runs, figures)
    failures += report_refusals(refusals, figures)

    figures["failures"] = failures
    (make_humaneval.DATA_DIR / "bench_upload.json").write_text(json.dumps(figures, indent=1))
    print("\n" + conclusion(failures, figures))
    return 1 if failures else 0


def conclusion(failures, figures):
    """The last line: what failed, or that everything passed (saying when other load slowed it)."""
    if failures:
        return "FAILED:\n  " + "\n  ".join(failures)
    if statistics.median(figures["request_seconds"]) >= TARGET_SECONDS:
        return (f"checks passed; the wall-time target was missed only while the worker waited for a CPU "
                f"(load average {figures['load_average']} on {len(os.sched_getaffinity(0))} cores): "
                "rerun on a quiet machine for the headline figure")
    return "all checks passed and targets met"


if __name__ == "__main__":
    sys.exit(main())
