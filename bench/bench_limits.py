"""Measure the hostile requests of issues 6 and 15 against a baseline checkout, in process.

    .venv/bin/python bench/bench_limits.py                  # from the repository root; about 5 minutes
    .venv/bin/python bench/bench_limits.py --no-baseline --repeat 3   # this checkout only; a few minutes
    .venv/bin/python bench/bench_limits.py --no-baseline --hostile    # the refusals only; about a minute
    .venv/bin/python bench/bench_limits.py --issue15 --timeout 30 --memory 4   # issue 15 §3 against 719a8a0
    .venv/bin/python bench/bench_limits.py --quick                    # the same requests, this checkout only
    .venv/bin/python bench/bench_limits.py --issue25 --timeout 40     # issue 25 item 2 against fb37999

Each request runs in a fresh child process that imports the app (from this
checkout, or from the baseline commit unpacked with `git archive` into a
temporary directory), builds the request body, then calls the WSGI
application with it as a server would and reads the whole answer. The child
reports the status, the CPU seconds of the request (time.process_time), the
growth of its peak resident memory (VmHWM, reset through /proc/self/clear_refs
just before the request), how much of the body the app read, the bytes of the
answer and its error sentence. The hostile cases are those of
tests/web/test_limits.py, which checks their status, sentence and bytes read but
never their time: the time is measured here.
With --repeat, the run with the least CPU time is kept. A child is stopped
after --timeout seconds of CPU (twice that of wall time) and when it asks for
more than --memory GiB, so the baseline's worst requests end by themselves.

Nothing listens on a port: this is the application's own cost, without
gunicorn. CPU time grows when other work shares the cores, so the load
average is printed before and after. The figures are written to
bench/data/bench_limits.json too. Exits 1 when a request of this checkout
does not get the status wanted.
"""

import argparse
import base64
import hashlib
import io
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

from werkzeug.test import EnvironBuilder

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "bench" / "data"
BASELINE = "b7fa8f9"       # the last commit before the request limits of issue 6
BOUNDARY = "passk-limits-3c9e"
MiB = 2**20
TWENTY_KS = ",".join(str(k) for k in (1, 2, 3, 5, 10, 20, 30, 50, 100, 150, 200, 300, 500, 1000, 2000, 5000,
                                      10_000, 20_000, 50_000, 100_000))


# --- request bodies -----------------------------------------------------------


def multipart(fields=(), files=()):
    """A multipart/form-data body: fields are (name, text), files (name, filename, bytes)."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields]
    for name, filename, content in files:
        parts += [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                  f"Content-Type: application/octet-stream\r\n\r\n".encode(), content, b"\r\n"]
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def post(path, body, content_type, **extra):
    return {"method": "POST", "path": path, "input_stream": io.BytesIO(body), "content_length": len(body),
            "content_type": content_type, **extra}


def post_multipart(path, fields=(), files=()):
    return post(path, multipart(fields, files), f"multipart/form-data; boundary={BOUNDARY}")


def counts_csv(problems, ids="problem {}"):
    return ("task_id,n,c\n" + "".join(f"{ids.format(i)},200,{i % 201}\n" for i in range(problems))).encode()


def json_body(problems, ks):
    items = ",".join(f'{{"task_id":"problem {i}","n":200,"c":{i % 201}}}' for i in range(problems))
    return f'{{"problems":[{items}],"k":[{ks}]}}'.encode()


class Endless(io.RawIOBase):
    """A body of `size` bytes, read in pieces: `opening`, then `piece` again and again; never held whole."""

    def __init__(self, size, opening, piece):
        self.size, self.left, self.pending, self.piece = size, size, opening, piece

    @property
    def consumed(self):
        return self.size - self.left

    def readable(self):
        return True

    def readinto(self, buffer):
        self.pending = self.pending or self.piece
        data = self.pending[:min(len(buffer), self.left)]
        buffer[:len(data)] = data
        self.pending, self.left = self.pending[len(data):], self.left - len(data)
        return len(data)


JSON_PROBLEMS = b'{"task_id":"problem","n":200,"c":57},' * 1000
PASTED = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="text"\r\n\r\n'.encode()
FILE = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="r.txt"\r\n'
        "Content-Type: text/plain\r\n\r\n").encode()


def chunked(path, stream, content_type):
    """A body sent chunked: no Content-Length; the server marks such a stream as terminated."""
    return {"method": "POST", "path": path, "content_type": content_type, "chunked": stream}


def declared(path, stream, content_type):
    """An Endless body sent with its Content-Length."""
    return {"method": "POST", "path": path, "content_type": content_type, "declared": stream}


def chunked_json(size):
    return chunked("/api/v1/benchmark", Endless(size, b'{"problems":[', JSON_PROBLEMS), "application/json")


def packed(text):
    """A share link's or download form's packed counts (deflate, then URL-safe base64)."""
    return base64.urlsafe_b64encode(zlib.compress(text)).decode()


def urlencoded(path, fields):
    return post(path, urlencode(fields).encode(), "application/x-www-form-urlencoded")


def distinct_counts(problems):
    """Counts whose (n, c) pairs all differ and need long products: the costliest per problem."""
    return ("task_id,n,c\n" + "".join(f"p{i},{10**9 + i},{5000 + i % 1000}\n" for i in range(problems))).encode()


def wide_counts(problems):
    """Counts with 190-character task ids that do not compress: the widest per-problem table."""
    def task_id(seed):
        return base64.b64encode(b"".join(hashlib.sha512(b"%d/%d" % (seed, part)).digest() for part in range(3)))[:190]
    return b"task_id,n,c\n" + b"".join(b"%s,200,%d\n" % (task_id(i), i % 201) for i in range(problems))


def run_counts(problems, run):
    """One run of a ranking: distinct (n, c) pairs, different in each run, on the same task ids."""
    return ("task_id,n,c\n" + "".join(f"p{i},{10**6 + i},{(i * (run + 3)) % 100_000}\n"
                                      for i in range(problems))).encode()


def shifted_counts(problems):
    """Run B against counts_csv's run A: the same task ids and n, c one pass further round."""
    return ("task_id,n,c\n" + "".join(f"problem {i},200,{(i + 1) % 201}\n" for i in range(problems))).encode()


def long_id_counts(problems):
    """Counts with 190-character task ids that deflate to almost nothing: the largest download per packed byte."""
    return ("task_id,n,c\n" + "".join(f"{'x' * 181}{i:09d},200,{i % 201}\n" for i in range(problems))).encode()


def escaped_id_counts(problems):
    """Counts with 191 'é' in each task id: JSON writes each as \\u00e9, 6 bytes, so the answer outgrows the input."""
    return ("task_id,n,c\n" + "".join(f"{'é' * 191}{i:09d},200,{i % 201}\n" for i in range(problems))).encode()


def humaneval_file():
    sys.path.insert(0, str(REPO / "bench"))
    import make_humaneval
    path, _ = make_humaneval.ensure()
    return Path(path).read_bytes()


# name -> (what it is, the answer wanted now, a function building the request)
CASES = {
    "share-link-1m": (
        "GET /benchmark?counts=10^12:5·10^11*1000000&k=1,10,100 (63-byte URL)", "400",
        lambda: {"method": "GET", "path": "/benchmark",
                 "query_string": "counts=1000000000000:500000000000*1000000&k=1,10,100"}),
    "download-1m-20ks": (
        "POST /benchmark/download, 1,000,000 counts rows, 20 ks", "413",
        lambda: post("/benchmark/download", urlencode({"counts": counts_csv(10**6).decode(), "k": TWENTY_KS,
                                                       "as": "csv"}).encode(),
                     "application/x-www-form-urlencoded")),
    "blank-lines-64mib": (
        "POST /api/v1/benchmark, a multipart file of 64 MiB of blank lines", "400",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "blank.txt", b"\n" * (64 * MiB))])),
    "json-1m-20ks": (
        "POST /api/v1/benchmark, JSON body of 1,000,000 problems, 20 ks", "413",
        lambda: post("/api/v1/benchmark", json_body(10**6, TWENTY_KS), "application/json")),
    "json-8mib-objects": (
        "POST /api/v1/benchmark, JSON body of 8 MiB of empty objects", "400",
        lambda: post("/api/v1/benchmark", b'{"problems":[' + b"{}," * (8 * MiB // 3 - 10) + b"{}]}",
                     "application/json")),
    "json-8mib-ks": (
        "POST /api/v1/benchmark, JSON body with 1,000,000 distinct ks", "400",
        lambda: post("/api/v1/benchmark", b'{"problems":[{"task_id":"a","n":10,"c":3}],"k":['
                     + b",".join(b"%d" % k for k in range(1, 1_000_001)) + b"]}", "application/json")),
    "compare-1m": (
        "POST /compare, two files of 1,000,000 tasks each", "400",
        lambda: post_multipart("/compare", fields=[("k", "1,10,100")],
                               files=[("file_a", "a.csv", counts_csv(10**6)), ("file_b", "b.csv", counts_csv(10**6))])),
    "chunked-json-257mib": (
        "POST /api/v1/benchmark, chunked JSON body of 257 MiB", "413",
        lambda: chunked_json(257 * MiB)),
    "paste-600kb": (
        "POST /benchmark, 600 KB pasted in the text box", "200",
        lambda: post_multipart("/benchmark", fields=[("text", counts_csv(26_000).decode()), ("k", "1,10")])),
    "paste-3mib": (
        "POST /benchmark, 3 MiB pasted in the text box", "413",
        lambda: post_multipart("/benchmark", fields=[("text", counts_csv(130_000).decode()), ("k", "1,10")])),
    "form-1001-parts": (
        "POST /benchmark, a form of 1,001 fields", "413",
        lambda: post_multipart("/benchmark", fields=[("text", "10 3")] + [("x", "1")] * 1000)),
    "ks-1600-api": (
        "GET /api/v1/pass-at-k?n=10&c=3&k=1&ks=1,…,1600", "400",
        lambda: {"method": "GET", "path": "/api/v1/pass-at-k",
                 "query_string": "n=10&c=3&k=1&ks=" + ",".join(map(str, range(1, 1601)))}),
    # The other refusals of tests/web/test_limits.py (status, sentence and bytes read are tested there; time here).
    "share-link-deflate-bomb": (
        "GET /benchmark?z=… (64 MiB of commas, deflated to 64 KB)", "400",
        lambda: {"method": "GET", "path": "/benchmark", "query_string": "z=" + packed(b"," * (64 * MiB))}),
    "share-link-100k-then-10m": (
        "GET /benchmark?counts=200:57*99999,10:1*9999999", "400",
        lambda: {"method": "GET", "path": "/benchmark", "query_string": "counts=200:57*99999,10:1*9999999&k=1"}),
    "ks-1600-share-link": (
        "GET /benchmark?counts=10:3&k=1,…,1600", "400",
        lambda: {"method": "GET", "path": "/benchmark",
                 "query_string": "counts=10:3&k=" + ",".join(map(str, range(1, 1601)))}),
    "download-packed-1m": (
        "POST /benchmark/download, 1,000,000 counts rows packed (4.5 MB), k = 1", "400",
        lambda: urlencoded("/benchmark/download", {"packed": packed(counts_csv(10**6)), "k": "1", "as": "csv"})),
    "download-packed-100k-20ks": (
        "POST /benchmark/download, 100,000 counts rows packed, 20 ks, as JSON", "400",
        lambda: urlencoded("/benchmark/download", {"packed": packed(counts_csv(100_000)), "k": TWENTY_KS,
                                                   "as": "json"})),
    "blank-lines-64mib-page": (
        "POST /benchmark, a multipart file of 32 MiB of CRLF blank lines", "400",
        lambda: post_multipart("/benchmark", files=[("file", "blank.txt", b"\r\n" * (32 * MiB))])),
    "problem-then-64mib-blank": (
        "POST /api/v1/benchmark, a JSONL file of one problem then 64 MiB of blank lines", "400",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "r.jsonl", b"10 3\n" + b"\n" * (64 * MiB))])),
    "json-200k-problems": (
        "POST /api/v1/benchmark, JSON body of 200,000 short problems (under 8 MiB)", "400",
        lambda: post("/api/v1/benchmark", json.dumps({"problems": [{"task_id": i, "n": 1, "c": 1}
                                                                   for i in range(200_000)]}).encode(),
                     "application/json")),
    "json-100k-20ks": (
        "POST /api/v1/benchmark, JSON body of 100,000 problems, 20 ks (2,000,000 cells)", "400",
        lambda: post("/api/v1/benchmark", json_body(100_000, TWENTY_KS), "application/json")),
    "ks-1600-json": (
        "POST /api/v1/benchmark, JSON body of one problem and 1,600 ks", "400",
        lambda: post("/api/v1/benchmark", json.dumps({"problems": [{"task_id": "a", "n": 10, "c": 3}],
                                                      "k": list(range(1, 1601))}).encode(), "application/json")),
    "compare-api-50k-20ks": (
        "POST /api/v1/compare, two files of 50,000 tasks, 20 ks", "400",
        lambda: post_multipart("/api/v1/compare", fields=[("k", TWENTY_KS)],
                               files=[("a", "a.csv", counts_csv(50_000)), ("b", "b.csv", counts_csv(50_000))])),
    "paste-100001-problems": (
        "POST /benchmark, 100,001 problems pasted in the text box (400 KB)", "400",
        lambda: post_multipart("/benchmark", fields=[("text", "1 1\n" * 100_001), ("k", "1")])),
    "form-1001-parts-api": (
        "POST /api/v1/benchmark, a form of 1,001 fields", "413",
        lambda: post_multipart("/api/v1/benchmark", fields=[("text", "10 3")] + [("x", "1")] * 1000)),
    "declared-form-64mib": (
        "POST /benchmark/download, Content-Length of a 64 MiB URL-encoded form", "413",
        lambda: declared("/benchmark/download", Endless(64 * MiB, b"k=1&counts=", b"1+1%0A" * 1000),
                         "application/x-www-form-urlencoded")),
    "declared-upload-257mib": (
        "POST /api/v1/benchmark, Content-Length of a 257 MiB multipart upload", "413",
        lambda: declared("/api/v1/benchmark", Endless(257 * MiB, FILE, b"1 1\n" * 1000),
                         f"multipart/form-data; boundary={BOUNDARY}")),
    "paste-64mib": (
        "POST /api/v1/benchmark, 64 MiB pasted in the text field (with its Content-Length)", "413",
        lambda: declared("/api/v1/benchmark", Endless(64 * MiB, PASTED, b"1 1\n" * 1000),
                         f"multipart/form-data; boundary={BOUNDARY}")),
    "chunked-paste-64mib": (
        "POST /api/v1/benchmark, chunked multipart of 64 MiB pasted in the text field", "413",
        lambda: chunked("/api/v1/benchmark", Endless(64 * MiB, PASTED, b"1 1\n" * 1000),
                        f"multipart/form-data; boundary={BOUNDARY}")),
    "chunked-form-64mib": (
        "POST /benchmark, chunked URL-encoded form of 64 MiB", "413",
        lambda: chunked("/benchmark", Endless(64 * MiB, b"k=1&text=", b"1+1%0A" * 1000),
                        "application/x-www-form-urlencoded")),
    "chunked-upload-257mib": (
        "POST /api/v1/benchmark, chunked multipart upload of 257 MiB (read to the 256 MiB limit)", "413",
        lambda: chunked("/api/v1/benchmark", Endless(257 * MiB, FILE, b"1 1\n" * 1000),
                        f"multipart/form-data; boundary={BOUNDARY}")),
    # What must still work, and the costliest input the limits let through.
    "page-100k": (
        "POST /benchmark, a CSV file of 100,000 problems, k = 1,10,100", "200",
        lambda: post_multipart("/benchmark", fields=[("k", "1,10,100")],
                               files=[("file", "counts.csv", counts_csv(100_000, "HumanEval/{}"))])),
    "page-widest": (
        "POST /benchmark, 15,000 problems × 20 ks with 190-character random task ids", "200",
        lambda: post_multipart("/benchmark", fields=[("k", TWENTY_KS)],
                               files=[("file", "wide.csv", wide_counts(15_000))])),
    "api-json-100k": (
        "POST /api/v1/benchmark, JSON body of 100,000 problems, k = 1,10,100", "200",
        lambda: post("/api/v1/benchmark", json_body(100_000, "1,10,100"), "application/json")),
    "api-worst-1000": (
        "POST /api/v1/benchmark, 100,000 distinct long-product (n, c), 3 ks near 1000", "400",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "800,900,1000")],
                               files=[("file", "worst.csv", distinct_counts(100_000))])),
    "api-worst-128": (
        "POST /api/v1/benchmark, 100,000 distinct long-product (n, c), 3 ks near 128", "400",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "126,127,128")],
                               files=[("file", "worst.csv", distinct_counts(100_000))])),
    "api-worst-32": (
        "POST /api/v1/benchmark, 100,000 distinct (n, c), 3 ks near 32", "200",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "30,31,32")],
                               files=[("file", "worst.csv", distinct_counts(100_000))])),
    "lines-500k-samples": (
        "POST /api/v1/benchmark, a per-sample CSV of 500,000 rows (task_id,passed)", "200",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "1,10,100")], files=[
            ("file", "samples.csv", b"task_id,passed\n" + b"".join(b"t%d,%d\n" % (i % 5000, i % 3 == 0)
                                                                    for i in range(499_999)))])),
    "lines-500k-humaneval": (
        "POST /api/v1/benchmark, human-eval JSONL of 500,000 short lines", "200",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "1,10,100")], files=[
            ("file", "r.jsonl", b"".join(b'{"task_id":"t%d","passed":%s}\n' % (i % 5000, b"true" if i % 3 else b"false")
                                         for i in range(500_000)))])),
    "lines-500k-comments": (
        "POST /api/v1/benchmark, a problem then 499,999 comment lines", "200",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "c.txt", b"10 3\n" + b"#\n" * 499_999)])),
    "compare-100k": (
        "POST /compare, two files of 100,000 tasks each, k = 1,10,100", "200",
        lambda: post_multipart("/compare", fields=[("k", "1,10,100")],
                               files=[("file_a", "a.csv", counts_csv(100_000)),
                                      ("file_b", "b.csv", counts_csv(100_000, "problem {}"))])),
    "rank-12x25k": (
        "POST /api/v1/compare, 12 runs of 25,000 tasks (the 300,000-cell limit), k = 1, difference = 1; each task its "
        "own n, so refused since issue 17 (sample_counts)", "400",
        lambda: post_multipart("/api/v1/compare", fields=[("k", "1"), ("difference", "1")],
                               files=[("run", f"run{run}.csv", run_counts(25_000, run)) for run in range(12)])),
    "rank-page-12x8k-3ks": (
        "POST /compare, runs A, B and 10 more of 8,333 tasks, k = 1,10,100, difference = 1; each task its own n, so "
        "refused since issue 17 (sample_counts)", "400",
        lambda: post_multipart("/compare", fields=[("k", "1,10,100"), ("difference", "1")],
                               files=[("file_a", "a.csv", run_counts(8_333, 0)), ("file_b", "b.csv", run_counts(8_333, 1))]
                               + [("run", f"run{run}.csv", run_counts(8_333, run)) for run in range(2, 12)])),
    "humaneval-79mb": (
        "POST /api/v1/benchmark, human-eval JSONL of 164 × 1,000 samples (79 MB)", "200",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "1,10,100")],
                               files=[("file", "samples.jsonl_results.jsonl", humaneval_file())])),
}


# --- the requests of issue 15 §3: its table's rows, and the worst legitimate request of each route ----------

ISSUE_15_BASELINE = "719a8a0"   # the start of issue 15 §1 and §3 (its §2, §4 and §5 are in already)
BIG_KS = "1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000,200000,500000,1000000"


def gzipped(opening, piece, size, closing=b""):
    """gzip of opening + piece repeated to size bytes + closing, compressed piece by piece (never held whole)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = piece * (MiB // len(piece))
    parts, left = [packer.compress(opening)], size
    while left > 0:
        parts.append(packer.compress(block[:left]))
        left -= len(block)
    return b"".join(parts + [packer.compress(closing), packer.flush()])


def zeros_gzip(size):
    return gzipped(b"[", b"0,", (size - 3) // 2 * 2, b"0]")


def objects_gzip(size):
    return gzipped(b"[", b"{},", (size - 4) // 3 * 3, b"{}]")


def eval_zip(header):
    """An Inspect .eval archive whose header.json is the given bytes (deflated)."""
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", b'{"version": 2}')
        archive.writestr("header.json", header)
    return buffer.getvalue()


def repeated_member_zip(entries):
    """A zip whose central directory lists `entries` names, every one pointing at the same member (zip64 end)."""
    import struct
    member, data = b"samples/1.json", b'{"id": 1, "epoch": 1, "scores": {}}'
    crc = zlib.crc32(data)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data), len(member), 0)
    body = local + member + data
    central = b"".join(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, len(data), len(data),
                                   len(name), 0, 0, 0, 0, 0, 0) + name
                       for name in (b"samples/%d.json" % index for index in range(entries)))
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, entries, entries, len(central), len(body))
    locator = struct.pack("<IIQI", 0x07064B50, 0, len(body) + len(central), 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return body + central + end64 + locator + end


def valid_json_gzip(size):
    """gzip of a JSON list of counts per problem, repeated to size bytes (valid JSON; its task ids repeat)."""
    piece = b'{"task_id":"t","n":10,"c":3},'
    return gzipped(b"[", piece, (size - 40) // len(piece) * len(piece), b'{"task_id":"u","n":10,"c":3}]')


def distinct_json(problems, ks):
    items = ",".join(f'{{"task_id":"p{i}","n":{10**9 + i},"c":{5000 + i % 1000}}}' for i in range(problems))
    return f'{{"problems":[{items}],"k":[{ks}]}}'.encode()


def single_problem_query(path):
    return {"method": "GET", "path": path,
            "query_string": f"n=1000000000000&c=1000000&k=1000000&ks={BIG_KS}"}


def ranking(path, problems, ks, difference=None):
    """12 runs of `problems` tasks each, sent as run files (the API) or file_a, file_b and 10 runs (the page)."""
    fields = [("k", ks)] + ([("difference", difference)] if difference else [])
    runs = [("run", f"run{run}.csv", run_counts(problems, run)) for run in range(12)]
    if path == "/compare":
        runs = [("file_a", "a.csv", runs[0][2]), ("file_b", "b.csv", runs[1][2])] + runs[2:]
    return post_multipart(path, fields=fields, files=runs)


def two_runs(path, problems, difference=None, ks="1,10,100"):
    names = ("file_a", "file_b") if path == "/compare" else ("a", "b")
    fields = [("k", ks)] + ([("difference", difference)] if difference else [])
    return post_multipart(path, fields=fields, files=[(names[0], "a.csv", counts_csv(problems)),
                                                      (names[1], "b.csv", shifted_counts(problems))])


TWENTY_SMALL_KS = ",".join(map(str, range(1, 21)))
SIXTEEN_SMALL_KS = ",".join(map(str, range(1, 17)))
ARENA = Path("/work/shared/realdata/evalarena__crux-eval_eval-arena__humaneval_hf_29_models.jsonl")


def arena():
    """eval-arena's own HumanEval data file: 29 models × 164 problems, one sample each."""
    return ARENA.read_bytes()


def many_runs(path, runs, problems, ks, samples=200):
    """`runs` runs of `problems` tasks, c drawn per run (seeded); samples=None gives each task its own n (10^6 + i),
    the costliest exact mean. The page takes file_a, file_b and the rest under run."""
    def counts(run):
        draw = random.Random(run)
        rows = (f"p{i},{samples or 10**6 + i},{draw.randint(0, samples or 1000)}\n" for i in range(problems))
        return ("task_id,n,c\n" + "".join(rows)).encode()
    files = [("run", f"run{run}.csv", counts(run)) for run in range(runs)]
    if path == "/compare":
        files = [("file_a", "a.csv", files[0][2]), ("file_b", "b.csv", files[1][2])] + files[2:]
    return post_multipart(path, fields=[("k", ks)], files=files)

# name -> (what it is, the answer wanted now, a function building the request); "row N": the issue's table
ISSUE_15 = {
    "bomb-zeros-256mib": (
        "row 1: POST /api/v1/benchmark, a gzip file of 256 MiB of [0,0,…]", "413",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "r.json.gz", zeros_gzip(256 * MiB))])),
    "bomb-objects-256mib": (
        "row 1: POST /api/v1/benchmark, a gzip file of 256 MiB of [{},{},…]", "413",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "r.json.gz", objects_gzip(256 * MiB))])),
    "bomb-zeros-64mib": (
        "row 2: POST /api/v1/benchmark, a gzip file of 64 MiB of [0,0,…]", "413",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "r.json.gz", zeros_gzip(64 * MiB))])),
    "eval-header-64mib": (
        "row 3: POST /api/v1/benchmark, an .eval zip whose header.json is 64 MiB of {}", "413",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "log.eval", eval_zip(
            b'{"version":2,"eval":{"task":"t","model":"m"},"x":[' + b"{}," * (64 * MiB // 3) + b"{}]}"))])),
    "eval-100k-entries": (
        "row 4: POST /api/v1/benchmark, an .eval zip of 100,000 central-directory entries at one member", "400",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", "log.eval", repeated_member_zip(100_000))])),
    "json-k-4m-repeats": (
        "row 5: POST /api/v1/benchmark, JSON body with \"k\": [1,1,1,…] (4,190,000 entries, 8.4 MB)", "413",
        lambda: post("/api/v1/benchmark", b'{"problems":[{"task_id":"a","n":10,"c":3}],"k":['
                     + b"1," * 4_189_999 + b"1]}", "application/json")),
    "form-k-2mib-repeats": (
        "row 6: POST /benchmark, multipart k=1,1,1,… of 2 MiB", "400",
        lambda: post_multipart("/benchmark", fields=[("text", "10 3"), ("k", "1," * 1_048_000 + "1")])),
    "runs-13-gzip-16mib": (
        "row 7: POST /api/v1/compare, 13 run files, each a 16 MiB gzip of valid JSON", "400",
        lambda: post_multipart("/api/v1/compare", files=[("run", f"run{run}.json.gz", valid_json_gzip(16 * MiB))
                                                         for run in range(13)])),
    "files-8-gzip-64mib": (
        "row 8: POST /api/v1/benchmark, 8 file parts, each a 64 MiB gzip", "413",
        lambda: post_multipart("/api/v1/benchmark", files=[("file", f"part{part}.json.gz", zeros_gzip(64 * MiB))
                                                           for part in range(8)])),
    "api-worst-32": (
        "row 9: POST /api/v1/benchmark, 100,000 distinct (n, c), k = 30,31,32 (multipart)", "400",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "30,31,32")],
                               files=[("file", "worst.csv", distinct_counts(100_000))])),
    "api-json-worst-32": (
        "row 9: POST /api/v1/benchmark, 100,000 distinct (n, c), k = 30,31,32 (JSON body)", "400",
        lambda: post("/api/v1/benchmark", distinct_json(100_000, "30,31,32"), "application/json")),
    "api-worst-32-at-limit": (
        "POST /api/v1/benchmark, 33,333 distinct (n, c), k = 30,31,32 (multipart: the different-pairs limit)", "200",
        lambda: post_multipart("/api/v1/benchmark", fields=[("k", "30,31,32")],
                               files=[("file", "worst.csv", distinct_counts(33_333))])),
    "api-json-worst-32-at-limit": (
        "POST /api/v1/benchmark, 33,333 distinct (n, c), k = 30,31,32 (JSON body)", "200",
        lambda: post("/api/v1/benchmark", distinct_json(33_333, "30,31,32"), "application/json")),
    "page-worst-32-at-limit": (
        "POST /benchmark, 33,333 distinct (n, c), k = 30,31,32", "200",
        lambda: post_multipart("/benchmark", fields=[("k", "30,31,32")],
                               files=[("file", "worst.csv", distinct_counts(33_333))])),
    "planner-page-0.001": (
        "row 10: POST /compare, 2 × 100,000 tasks, k = 1,10,100, difference = 0.001", "200",
        lambda: two_runs("/compare", 100_000, "0.001")),
    "planner-api-0.001": (
        "row 10: POST /api/v1/compare, 2 × 100,000 tasks, k = 1,10,100, difference = 0.001", "200",
        lambda: two_runs("/api/v1/compare", 100_000, "0.001")),
    "planner-api-distinct-0.001": (
        "row 10: POST /api/v1/compare, 2 × 100,000 distinct (n, c) near 10^6, k = 1,10,100, difference = 0.001",
        "200", lambda: post_multipart("/api/v1/compare", fields=[("k", "1,10,100"), ("difference", "0.001")],
                                      files=[("a", "a.csv", run_counts(100_000, 0)),
                                             ("b", "b.csv", run_counts(100_000, 1))])),
    "download-escaped-ids": (
        "row 11: POST /benchmark/download, 100,000 problems, 200-character non-ASCII ids packed (914 KB), as JSON",
        "400", lambda: urlencoded("/benchmark/download", {"packed": packed(escaped_id_counts(100_000)),
                                                          "k": "1,10,100", "as": "json"})),
    # row 12 (5 bombs at once) is row 1 five times over; tests/stack/test_heavy_and_light.py runs requests at once.
    "single-page": ("GET /?n=10^12&c=10^6&k=10^6&ks=… (20 ks up to 10^6)", "200", lambda: single_problem_query("/")),
    "single-embed": ("GET /embed, the same", "200", lambda: single_problem_query("/embed")),
    "single-api": ("GET /api/v1/pass-at-k, the same", "200", lambda: single_problem_query("/api/v1/pass-at-k")),
    "share-link-100k": (
        "GET /benchmark?counts=10^9:5·10^8*99999,10^9:1&k=30,31,32 (a share link of 100,000 problems)", "200",
        lambda: {"method": "GET", "path": "/benchmark",
                 "query_string": "counts=1000000000:500000000*99999,1000000000:1&k=30,31,32"}),
    "page-worst-32": (
        "POST /benchmark, 100,000 distinct (n, c), k = 30,31,32", "400",
        lambda: post_multipart("/benchmark", fields=[("k", "30,31,32")],
                               files=[("file", "worst.csv", distinct_counts(100_000))])),
    "download-long-ids-json": (
        "POST /benchmark/download, 100,000 problems, 190-character ids packed (720 KB), k = 1,10,100, as JSON",
        "200", lambda: urlencoded("/benchmark/download", {"packed": packed(long_id_counts(100_000)),
                                                          "k": "1,10,100", "as": "json"})),
    "download-long-ids-csv": (
        "POST /benchmark/download, the same as CSV", "200",
        lambda: urlencoded("/benchmark/download", {"packed": packed(long_id_counts(100_000)), "k": "1,10,100",
                                                   "as": "csv"})),
    "compare-api-100k": ("POST /api/v1/compare, 2 × 100,000 tasks, k = 1,10,100", "200",
                         lambda: two_runs("/api/v1/compare", 100_000)),
    "compare-page-100k": ("POST /compare, 2 × 100,000 tasks, k = 1,10,100", "200",
                          lambda: two_runs("/compare", 100_000)),
    "rank-api-12x1000-20ks": (
        "POST /api/v1/compare, 12 runs × 1,000 tasks, k = 1…20 (2,376,000: refused since issue 25's 2,000,000)",
        "400", lambda: ranking("/api/v1/compare", 1000, TWENTY_SMALL_KS)),
    "rank-api-12x1000-20ks-difference": (
        "POST /api/v1/compare, 12 runs × 1,000 tasks, k = 1…20, difference = 0.001 (refused too)", "400",
        lambda: ranking("/api/v1/compare", 1000, TWENTY_SMALL_KS, "0.001")),
    "rank-page-12x1000-20ks": (
        "POST /compare, runs A, B and 10 more of 1,000 tasks, k = 1…20, difference = 0.001 (refused too)", "400",
        lambda: ranking("/compare", 1000, TWENTY_SMALL_KS, "0.001")),
    "rank-api-12x1000-16ks": (
        "POST /api/v1/compare, 12 runs × 1,000 tasks, k = 1…16, difference = 0.001 (1,900,800)", "200",
        lambda: ranking("/api/v1/compare", 1000, SIXTEEN_SMALL_KS, "0.001")),
    "rank-page-12x1000-16ks": (
        "POST /compare, runs A, B and 10 more of 1,000 tasks, k = 1…16, difference = 0.001", "200",
        lambda: ranking("/compare", 1000, SIXTEEN_SMALL_KS, "0.001")),
    "rank-api-12x25k": (
        "POST /api/v1/compare, 12 runs × 25,000 tasks (300,000 cells), k = 1, difference = 0.001; each task its own "
        "n, so refused since issue 17 (sample_counts)", "400",
        lambda: ranking("/api/v1/compare", 25_000, "1", "0.001")),
}
# Issue 17: one file of many models ranked, and the ranking's cost bound (ranked_cells = pairs × k values ×
# (problems + 800), at most 32 runs) at its corners.
ISSUE_17 = {
    "rank-page-arena-29": (
        "POST /compare, eval-arena's 29-model HumanEval file as Run A alone, k = 1,10,100", "200",
        lambda: post_multipart("/compare", fields=[("k", "1,10,100")], files=[("file_a", ARENA.name, arena())])),
    "rank-api-arena-29": (
        "POST /api/v1/compare, the same file as the one run field, k = 1,10,100, difference = 1", "200",
        lambda: post_multipart("/api/v1/compare", fields=[("k", "1,10,100"), ("difference", "1")],
                               files=[("run", ARENA.name, arena())])),
    "rank-api-arena-29-5ks": (
        "POST /api/v1/compare, the same file, k = 1,2,3,4,5 (1,958,040 of 2,000,000)", "200",
        lambda: post_multipart("/api/v1/compare", fields=[("k", "1,2,3,4,5")], files=[("run", ARENA.name, arena())])),
    "rank-api-arena-29-20ks": (
        "POST /api/v1/compare, the same file, k = 1…20 (refused: 7,827,680)", "400",
        lambda: post_multipart("/api/v1/compare", fields=[("k", TWENTY_SMALL_KS)],
                               files=[("run", ARENA.name, arena())])),
    "rank-api-32x40-6ks": (
        "POST /api/v1/compare, 32 runs × 40 tasks of 10 samples, k = 1…6 (2,499,840: refused since issue 25)", "400",
        lambda: many_runs("/api/v1/compare", 32, 40, "1,2,3,4,5,6", samples=10)),
    "rank-page-32x40-6ks": (
        "POST /compare, runs A, B and 30 more, the same (refused too)", "400",
        lambda: many_runs("/compare", 32, 40, "1,2,3,4,5,6", samples=10)),
    "rank-api-32x40-4ks": (
        "POST /api/v1/compare, 32 runs × 40 tasks of 10 samples, k = 1…4 (1,666,560): the most pairs × ks", "200",
        lambda: many_runs("/api/v1/compare", 32, 40, "1,2,3,4", samples=10)),
    "rank-page-32x40-4ks": (
        "POST /compare, runs A, B and 30 more, the same", "200",
        lambda: many_runs("/compare", 32, 40, "1,2,3,4", samples=10)),
    "rank-api-32x4240": (
        "POST /api/v1/compare, 32 runs × 4,240 tasks of 200 samples, k = 1 (2,499,840: refused since issue 25)",
        "400", lambda: many_runs("/api/v1/compare", 32, 4240, "1")),
    "rank-page-32x4240": (
        "POST /compare, runs A, B and 30 more, the same (refused too)", "400",
        lambda: many_runs("/compare", 32, 4240, "1")),
    "rank-api-32x3232": (
        "POST /api/v1/compare, 32 runs × 3,232 tasks of 200 samples, k = 1 (1,999,872)", "200",
        lambda: many_runs("/api/v1/compare", 32, 3232, "1")),
    "rank-page-32x3232": (
        "POST /compare, runs A, B and 30 more, the same", "200",
        lambda: many_runs("/compare", 32, 3232, "1")),
    "rank-api-12x25k-same-n": (
        "POST /api/v1/compare, 12 runs × 25,000 tasks of 200 samples (300,000 cells), k = 1", "200",
        lambda: many_runs("/api/v1/compare", 12, 25_000, "1")),
    "rank-api-2x10k-distinct-n": (
        "POST /api/v1/compare, 2 runs × 10,000 tasks, each task its own n (20,000 sample counts: exact means of "
        "10,000 fractions)", "200", lambda: many_runs("/api/v1/compare", 2, 10_000, "1", samples=None)),
    "rank-api-32x625-distinct-n": (
        "POST /api/v1/compare, 32 runs × 625 tasks, each task its own n (20,000 sample counts)", "200",
        lambda: many_runs("/api/v1/compare", 32, 625, "1", samples=None)),
    "rank-api-12x10k-distinct-n": (
        "POST /api/v1/compare, 12 runs × 10,000 tasks, each task its own n (refused: 120,000 sample counts; 7.6 s "
        "before)", "400", lambda: many_runs("/api/v1/compare", 12, 10_000, "1", samples=None)),
    "rank-api-3x100k": (
        "POST /api/v1/compare, 3 runs × 100,000 tasks of 200 samples, k = 1 (the most problems)", "200",
        lambda: many_runs("/api/v1/compare", 3, 100_000, "1")),
}
ISSUE_15.update(ISSUE_17)
CASES.update(ISSUE_15)

# --- issue 25, item 2: the costs the estimates missed (G-Pass@k's tails, the curves, bytes of ids) ----------------

ISSUE_25_BASELINE = "fb37999"   # the last commit before issue 25's pricing of G-Pass@k, the curves and the ranking
NEAR_1_9M = ",".join(str(1_900_000 + 1000 * index) for index in range(20))


def gpass_link(counts, ks, tau="0.5"):
    return {"method": "GET", "path": "/benchmark",
            "query_string": f"counts={counts}&k={ks}" + (f"&tau={tau}" if tau else "")}


def far_counts(problems, run):
    """One run of a curve comparison: each task its own n near 10^12 (the costliest curve per problem)."""
    return ("task_id,n,c\n" + "".join(f"p{i},{10**12 - i * 7 - run},{(i * 7919 + run) % 10**6 + 1}\n"
                                      for i in range(problems))).encode()


def curve_request(path, problems=100_000):
    names = ("file_a", "file_b") if path == "/compare" else ("a", "b")
    return post_multipart(path, fields=[("k", "1,10,100"), ("curve", "1")],
                          files=[(names[0], "a.csv", far_counts(problems, 0)),
                                 (names[1], "b.csv", far_counts(problems, 1))])


def wide_ranking(runs, problems, per_run_n=1, gzip=False, ids="é", ks="1"):
    """`runs` runs of `problems` tasks with 200-character ids of `ids` (non-ASCII: 2 to 4 bytes a character), n one
    of per_run_n values per run (200 + run * per_run_n + i % per_run_n), each file gzipped when asked."""
    def counts(run):
        draw = random.Random(run)
        rows = []
        for i in range(problems):
            n = 200 + run * per_run_n + i % per_run_n
            rows.append(f"{ids * (200 - 9)}{i:09d},{n},{draw.randint(0, n)}\n")
        text = ("task_id,n,c\n" + "".join(rows)).encode()
        return gzip_bytes(text) if gzip else text
    suffix = ".csv.gz" if gzip else ".csv"
    return post_multipart("/api/v1/compare", fields=[("k", ks)],
                          files=[("run", f"run{run}{suffix}", counts(run)) for run in range(runs)])


def gzip_bytes(data):
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


def distinct_link(pairs, ks, tau=None):
    """A share link of `pairs` problems, every (n, c) its own (n = 10^9 + i), at the given ks (and tau)."""
    counts = ",".join(f"{10**9 + i}:{5000 + i % 1000}" for i in range(pairs))
    return {"method": "GET", "path": "/benchmark",
            "query_string": f"counts={counts}&k={ks}" + (f"&tau={tau}" if tau else "")}


ISSUE_25 = {
    "gpass-link-221": (
        "GET /benchmark?counts=10000000:1900000,10000001:1900000&k=<20 ks near 1.9 M>&tau=0.5 (221 characters)",
        "200", lambda: gpass_link("10000000:1900000,10000001:1900000", NEAR_1_9M)),
    "plan-link-221": (
        "GET /benchmark?counts=10000000:1900000,10000001:1900000&k=<20 ks near 1.9 M> (the same link without tau: "
        "the planner's search)", "200", lambda: gpass_link("10000000:1900000,10000001:1900000", NEAR_1_9M, tau="")),
    "gpass-link-far-half": (
        "GET /benchmark, n = 10^12 - i, c = k = 5·10^11 + i (4 pairs), 20 ks near 5·10^11, tau = 0.5 (wide tails)",
        "200", lambda: gpass_link(",".join(f"{10**12 - i}:{5 * 10**11 + i}" for i in range(4)),
                                  ",".join(str(5 * 10**11 + 10**9 * j) for j in range(20)))),
    "gpass-exact-5000x20": (
        "GET /benchmark, a share link of 5,000 distinct (n, c) near n = 10,000, k = 1…20·500, tau = 0.5",
        "200", lambda: gpass_link(",".join(f"{10_000 - i // 10}:{i}" for i in range(5000)),
                                  ",".join(str(500 * j) for j in range(1, 21)))),
    "distinct-link-5000x20": (
        "GET /benchmark, a share link of 5,000 distinct (n, c) near 10^9, 20 ks up to 100,000 (the 100,000 limit)",
        "200", lambda: distinct_link(5000, TWENTY_KS)),
    "distinct-link-5000x20-tau": (
        "GET /benchmark, the same with tau = 0.5", "200", lambda: distinct_link(5000, TWENTY_KS, "0.5")),
    "variance-link-5000x20": (
        "GET /benchmark, a share link of 5,000 distinct (n, c) near n = 10^5, k = 2,500 … 50,000 (fixed-SE windows)",
        "200", lambda: gpass_link(",".join(f"{100_000 + i}:{(i * 7919) % 100_000}" for i in range(5000)),
                                  ",".join(str(2500 * j) for j in range(1, 21)), tau="")),
    "curve-api-2x100k-far": (
        "POST /api/v1/compare, curve = 1, 2 × 100,000 tasks, each its own n near 10^12, k = 1,10,100 (the curves' "
        "correct rounding, about 1 s a k, past LIMITS.exact_work)", "413", lambda: curve_request("/api/v1/compare")),
    "curve-page-2x100k-far": (
        "POST /compare, the same (its k = 100 alone passes LIMITS.exact_work)", "413",
        lambda: curve_request("/compare")),
    "rank-12x25k-wide-ids-gzip": (
        "POST /api/v1/compare, 12 runs × 25,000 tasks, 200-character ids of 'é', gzipped, k = 1 (120 MB of CSV "
        "unpacked: past LIMITS.read_work)", "413",
        lambda: wide_ranking(12, 25_000, gzip=True)),
    "rank-12x25k-50n": (
        "POST /api/v1/compare, 12 runs × 25,000 tasks of 50 n per run, k = 1", "200",
        lambda: many_runs_n("/api/v1/compare", 12, 25_000, 50)),
    "rank-12x25k-disjoint-ids": (
        "POST /api/v1/compare, 12 runs × 25,000 tasks, 20-character ids, no id in two runs (every pair lists all of "
        "both runs' ids: 79 MB of JSON a k)", "400", lambda: disjoint_ranking(12, 25_000, 20)),
    "rank-12x12k-disjoint-long-ids": (
        "POST /api/v1/compare, 12 runs × 12,000 tasks, 200-character ids, no id in two runs (the listing: 323 MB of "
        "JSON)", "400", lambda: disjoint_ranking(12, 12_000, 200)),
    "rank-12x12k-emoji-jsonl": (
        "POST /api/v1/compare, 12 human-eval JSONL runs of the same 12,000 tasks, 200-character ids of 😀 "
        "(4 bytes each), k = 1", "200", lambda: emoji_jsonl_ranking(12, 12_000)),
    "compare-2x60k-emoji-apart": (
        "POST /api/v1/compare, two human-eval JSONL runs of 60,000 tasks with 200-character ids of 😀, one task "
        "shared (the answer would list 120,000 ids: 290 MB of JSON)", "400", lambda: emoji_pair_apart(60_000)),
    "rank-32x4240-20000n": (
        "POST /api/v1/compare, 32 runs × 4,240 tasks, 20,000 distinct n in all, k = 1 (2,499,840: refused since "
        "ranked_cells is 2,000,000)", "400", lambda: many_runs_n("/api/v1/compare", 32, 4240, 625)),
    "rank-32x3232-20000n": (
        "POST /api/v1/compare, 32 runs × 3,232 tasks, 20,000 distinct n in all, k = 1 (1,999,872)", "200",
        lambda: many_runs_n("/api/v1/compare", 32, 3232, 625)),
    "rank-32x625-tiny-rates": (
        "POST /api/v1/compare, 32 runs × 625 tasks, n = 10^6, c up to 1,000 (pass rates near 0.05%: each pair's "
        "p-value search takes 3.5 ms, not 0.7), k = 1", "200", lambda: tiny_rate_runs(32, 625)),
}


def tiny_rate_runs(runs, problems):
    """`runs` runs of `problems` tasks of 10^6 samples, c drawn up to 1,000 per run (seeded)."""
    def counts(run):
        draw = random.Random(run)
        return ("task_id,n,c\n" + "".join(f"p{i},1000000,{draw.randint(0, 1000)}\n" for i in range(problems))).encode()
    return post_multipart("/api/v1/compare", fields=[("k", "1")],
                          files=[("run", f"run{run}.csv", counts(run)) for run in range(runs)])


def disjoint_ranking(runs, problems, id_chars, per_run_ks="1"):
    """`runs` runs of `problems` tasks, each run's ids its own (no task shared), ids of id_chars ASCII characters:
    every pair lists every id of both runs as only in one of them, at each k."""
    def counts(run):
        return ("task_id,n,c\n" + "".join(f"{'x' * (id_chars - 12)}r{run:02d}p{i:08d},200,{(i * 7 + run) % 201}\n"
                                          for i in range(problems))).encode()
    return post_multipart("/api/v1/compare", fields=[("k", per_run_ks)],
                          files=[("run", f"run{run}.csv", counts(run)) for run in range(runs)])


def emoji_jsonl_ranking(runs, problems, path="/api/v1/compare"):
    """`runs` human-eval JSONL runs of the same `problems` tasks, one sample a line, each id 200 characters of 😀
    (4 bytes in UTF-8 and in memory; 12 as JSON escapes it): ids as large as bytes make them."""
    def lines(run):
        draw = random.Random(run)
        return "".join(json.dumps({"task_id": "😀" * 191 + f"{i:09d}", "passed": draw.random() < 0.5},
                                  ensure_ascii=False) + "\n" for i in range(problems)).encode()
    return post_multipart(path, fields=[("k", "1")],
                          files=[("run", f"run{run}.jsonl", lines(run)) for run in range(runs)])


def emoji_pair_apart(problems):
    """Two human-eval JSONL runs of `problems` tasks with 200-character ids of 😀 that share one task: the answer
    lists every other id as only in its run (12 bytes a character as JSON escapes it)."""
    def lines(run):
        return "".join(json.dumps({"task_id": "😀" * 190 + f"{i:09d}" + ("ab"[run] if i else "s"),
                                   "passed": i % 2 == 0}, ensure_ascii=False) + "\n" for i in range(problems)).encode()
    return post_multipart("/api/v1/compare", fields=[("k", "1")],
                          files=[("a", "a.jsonl", lines(0)), ("b", "b.jsonl", lines(1))])


def many_runs_n(path, runs, problems, per_run_n):
    """`runs` runs of `problems` tasks, per_run_n different n in each run (each run's own), c drawn per run."""
    def counts(run):
        draw = random.Random(run)
        rows = []
        for i in range(problems):
            n = 200 + run * per_run_n + i % per_run_n
            rows.append(f"p{i},{n},{draw.randint(0, n)}\n")
        return ("task_id,n,c\n" + "".join(rows)).encode()
    return post_multipart(path, fields=[("k", "1")], files=[("run", f"run{run}.csv", counts(run)) for run in range(runs)])


CASES.update(ISSUE_25)

# The requests that must be refused: every case but those wanted 200.
HOSTILE = tuple(name for name, (_, wanted, _) in CASES.items() if wanted != "200")


# --- one request, in a child process ---------------------------------------------


def _status_kib(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))


def _error_sentence(content_type, head):
    if content_type.startswith("application/json"):
        try:
            return json.loads(head).get("error")
        except (ValueError, AttributeError):
            return None
    found = re.search(rb'role="alert"[^>]*>([^<]*)<', head)
    return unescape(found[1].decode()) if found else None


def run_one(name, tree):
    """Send one request to the app in `tree`; print its figures as JSON."""
    sys.path.insert(0, tree)
    from app import create_app
    app = create_app()
    request = CASES[name][2]()
    stream, endless = request.pop("chunked", None), request.pop("declared", None)
    environ = EnvironBuilder(**request).get_environ()
    if stream:   # as a server passes a chunked body: no length, and a stream it ends itself
        environ.pop("CONTENT_LENGTH", None)
        environ.update({"wsgi.input": stream, "wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"})
    elif endless:   # an Endless body behind its Content-Length (EnvironBuilder would seek in it)
        environ.update({"wsgi.input": endless, "CONTENT_LENGTH": str(endless.size)})
    if stream or endless:   # EnvironBuilder, given no body, puts its own multipart boundary in the type
        environ["CONTENT_TYPE"] = request["content_type"]
    body_stream = environ["wsgi.input"]
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer.update(status=int(status.split()[0]), content_type=dict(headers).get("Content-Type", ""))

    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")   # VmHWM := VmRSS
    resident = _status_kib("VmRSS")
    started_cpu, started = time.process_time(), time.perf_counter()
    body = app(environ, start_response)
    size, head = 0, b""
    for chunk in body:
        size += len(chunk)
        head = head if len(head) >= 64 * 1024 else head + chunk[:64 * 1024]
    if hasattr(body, "close"):
        body.close()
    figures = {"status": answer["status"], "cpu": time.process_time() - started_cpu,
               "wall": time.perf_counter() - started, "growth_mb": (_status_kib("VmHWM") - resident) / 1024,
               "read": body_stream.consumed if isinstance(body_stream, Endless) else body_stream.tell(),
               "bytes": size, "error": _error_sentence(answer["content_type"], head)}
    print(json.dumps(figures))


def measure(name, tree, timeout, memory_gib):
    """Run one case in a child with limits; its figures, or why it was stopped."""
    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (timeout, timeout + 5))
        resource.setrlimit(resource.RLIMIT_AS, (memory_gib * 2**30, memory_gib * 2**30))
    try:
        done = subprocess.run([sys.executable, __file__, "--child", name, "--tree", tree], capture_output=True,
                              text=True, timeout=timeout * 2, preexec_fn=limits, cwd=tree)
    except subprocess.TimeoutExpired:
        return {"stopped": f"over {timeout * 2} s of wall time"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if done.returncode in (-9, -24) or "MemoryError" in last:
            last = f"stopped at the {timeout} s CPU or {memory_gib} GiB memory limit ({last[:60]})"
        return {"stopped": last}
    return json.loads(done.stdout.strip().splitlines()[-1])


def baseline_tree(revision, directory):
    """Unpack the app as it was at `revision` into directory."""
    present = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", revision], capture_output=True,
                             text=True, check=True).stdout.split()
    paths = [path for path in ("app.py", "passk", "web", "templates", "static") if path in present]   # old trees too
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, *paths], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)
    return directory


def show(figures):
    if "stopped" in figures:
        return f"stopped: {figures['stopped']}"
    return (f"{figures['status']}  {figures['cpu']:6.2f} s CPU  {figures['wall']:6.2f} s wall  "
            f"{figures['growth_mb']:7.1f} MB  {figures['read'] / 1e6:8.2f} MB read  "
            f"{figures['bytes'] / 1e6:8.2f} MB out")


def markdown(results):
    """The figures as a Markdown table: request, bytes sent, then status, CPU s and peak MB before and now."""
    def cells(figures):
        if not figures:
            return "", "", ""
        if "stopped" in figures:
            return "stopped", figures["stopped"][:40], ""
        return str(figures["status"]), f"{figures['cpu']:.2f}", f"{figures['growth_mb']:.0f}"
    lines = ["| request | bytes sent | before: status | CPU s | peak MB | now: status | CPU s | peak MB | answer |",
             "|---|---|---|---|---|---|---|---|---|"]
    for figures in results.values():
        now = figures["now"]
        sent = f"{now['read'] / 1e6:,.2f} MB" if "read" in now else ""
        answer = f"{now['bytes'] / 1e6:,.2f} MB" if "bytes" in now else ""
        lines.append(f"| {figures['description']} | {sent} | {' | '.join(cells(figures.get('before')))} | "
                     f"{' | '.join(cells(now))} | {answer} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help=f"git revision to compare with (default {BASELINE}, "
                                           f"{ISSUE_15_BASELINE} with --issue15)")
    parser.add_argument("--issue15", action="store_true",
                        help="the requests of issue 15 §3 (docs/benchmarks.md, 'Cost per request'); about 8 minutes")
    parser.add_argument("--quick", action="store_true", help="the issue 15 requests on this checkout only; 3 minutes")
    parser.add_argument("--issue25", action="store_true",
                        help=f"issue 25's G-Pass@k, curve, variance and ranking requests against {ISSUE_25_BASELINE} "
                             "(docs/benchmarks.md, 'Request limits'); about 6 minutes")
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--hostile", action="store_true", help="only the requests that must be refused")
    parser.add_argument("--timeout", type=int, default=60, help="CPU seconds allowed per request")
    parser.add_argument("--memory", type=int, default=8, help="GiB of address space allowed per request")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each request; the cheapest is kept")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_one(args.child, args.tree)
    if args.issue25:
        args.cases = ",".join(ISSUE_25) if args.cases == ",".join(CASES) else args.cases
        args.baseline = args.baseline or ISSUE_25_BASELINE
    if args.issue15 or args.quick:
        args.cases = ",".join(ISSUE_15) if args.cases == ",".join(CASES) else args.cases
        args.baseline = args.baseline or ISSUE_15_BASELINE
        args.no_baseline = args.no_baseline or args.quick
    args.baseline = args.baseline or BASELINE
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    cases = [name for name in args.cases.split(",") if name in HOSTILE or not args.hostile]
    if "humaneval-79mb" in cases:
        humaneval_file()   # write it once, outside the measured children
    results = {}
    with tempfile.TemporaryDirectory(prefix="passk-baseline-") as directory:
        trees = {"now": str(REPO)}
        if not args.no_baseline:
            trees = {"before": baseline_tree(args.baseline, directory), **trees}
        for name in cases:
            description, wanted, _ = CASES[name]
            print(f"\n{name}: {description} (want {wanted})", flush=True)
            results[name] = {"description": description, "wanted": wanted}
            for label, tree in trees.items():
                runs = [measure(name, tree, args.timeout, args.memory) for _ in range(args.repeat)]
                figures = results[name][label] = min(runs, key=lambda run: run.get("cpu", float("inf")))
                print(f"  {label:>6}: {show(figures)}", flush=True)
                if figures.get("error"):
                    print(f"          “{figures['error'][:150]}”")
            before, now = results[name].get("before", {}), results[name]["now"]
            if "cpu" in before and "cpu" in now:
                print(f"  before ÷ now: CPU {before['cpu'] / max(now['cpu'], 0.01):.3g}, "
                      f"memory {max(before['growth_mb'], 0.1) / max(now['growth_mb'], 0.1):.3g}, "
                      f"answer {max(before['bytes'], 1) / max(now['bytes'], 1):.3g}")
    print(f"\nload average {os.getloadavg()[0]:.2f}")
    DATA_DIR.mkdir(exist_ok=True)
    name = ("bench_limits_issue25.json" if args.issue25 else
            "bench_limits_issue15.json" if args.issue15 or args.quick else "bench_limits.json")
    (DATA_DIR / name).write_text(json.dumps(results, indent=1))
    print("\n" + markdown(results))
    missed = [name for name, figures in results.items()
              if str(figures["now"].get("status")) != figures["wanted"]]
    if missed:
        print(f"\nNot the status wanted: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
