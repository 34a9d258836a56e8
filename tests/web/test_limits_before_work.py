"""Issue 15 §2: the limits on a request's shape are checked before any work.

The count of k values (all of them, repeats included), of runs and of file parts is
read off the request and refused before any file is opened or any value checked. As
in tests/web/test_limits.py no test here times a request (a busy machine must not fail
one): each sees instead that the work was not done, with counting spies on the
readers (passk.formats.read_problems, the read_files that passk.writing.report calls,
passk.web.inputs.read_json_body) and on the opening of each uploaded file, and, for a
body sent as a stream, how much of it the app read.
"""

import dataclasses
import gzip
import json
import re
from collections import Counter
from functools import lru_cache
from html import unescape

import numpy as np
import pytest

import passk.results.benchmark
import passk.formats
import passk.maths.gpass
import passk.limits
import passk.results.planner
import passk.results.ranking
import passk.writing.report
import passk.web.api
import passk.web.forms
import passk.web.inputs
from passk.results.benchmark import parse_ks, summarize
from passk.formats import Problem
from passk.limits import LIMITS
from passk.maths.variance import MAX_TERMS, _windows
from bodies import BOUNDARY, Endless, multipart
from test_limits import (MULTIPART, READ_AHEAD, get, post_body, post_form, post_urlencoded, refusal, send)

MiB = 2**20
COUNTS = b"task_id,n,c\na,10,3\nb,10,7\n"
TOO_MANY_RUNS = f"Too many runs ({LIMITS.runs + 1}): rank at most {LIMITS.runs} at once."
TOO_MANY_FIELDS = "more than 1,000 fields and files, the most one request may send"
MANY_KS = f"Too many k values (more than 10,000): give at most {LIMITS.ks}."
FORM_KS = "1," * (MiB - 100)   # a k field just under the form's 2 MiB limit on one field


@lru_cache(maxsize=None)
def gzip_bomb(inside=16 * MiB):
    """A gzip member of a few kilobytes that holds `inside` bytes of valid JSON, [0,0,…,0]."""
    return gzip.compress(b"[" + b"0," * (inside // 2 - 1) + b"0]", compresslevel=9, mtime=0)


@pytest.fixture
def work(monkeypatch):
    """What the app did: calls of the readers, and openings of uploaded files (a file never opened is never read)."""
    done = Counter()

    def spy(module, name):
        real = getattr(module, name)

        def counted(*args, **kwargs):
            done[name] += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)

    spy(passk.writing.report, "read_files")
    spy(passk.formats, "read_files")
    spy(passk.formats, "read_problems")
    spy(passk.web.inputs, "read_json_body")
    spy(passk.web.inputs, "summarize")
    real_reopener = passk.web.inputs.reopener

    def reopener(upload):
        open_upload = real_reopener(upload)

        def opened():
            done["opened"] += 1
            return open_upload()
        return opened
    monkeypatch.setattr(passk.web.inputs, "reopener", reopener)
    return done


# --- the requests --------------------------------------------------------------------------------


def json_ks(ks, problems=({"task_id": "a", "n": 10, "c": 3},)):
    return post_body("/api/v1/benchmark", json.dumps({"problems": list(problems), "k": ks}).encode(),
                     "application/json")


def bombs(name, count, start=0):
    return [(name, f"run{i}.json.gz", gzip_bomb()) for i in range(start, start + count)]


HOSTILE = [
    # k lists: counted with their repeats, before any value or problem is looked at
    pytest.param(lambda: json_ks([1] * 100_000), 400, f"Too many k values (100000): give at most {LIMITS.ks}.",
                 id="json-k-of-100000-repeats"),
    pytest.param(lambda: json_ks([1] * 100_000 + ["x"], problems=[]), 400,
                 f"Too many k values (100001): give at most {LIMITS.ks}.",
                 id="json-k-repeats-then-a-string-no-problems"),
    pytest.param(lambda: json_ks([1] * (LIMITS.ks + 1)), 400,
                 f"Too many k values ({LIMITS.ks + 1}): give at most {LIMITS.ks}.",
                 id="json-k-one-over-the-limit-all-repeats"),
    pytest.param(lambda: post_form("/benchmark", fields=[("k", FORM_KS)], files=[("file", "r.json.gz", gzip_bomb())]),
                 400, MANY_KS, id="page-form-k-of-2-mib"),
    pytest.param(lambda: post_form("/benchmark", fields=[("k", FORM_KS + "abc"), ("text", "10 3")]),
                 400, MANY_KS, id="page-form-k-of-2-mib-then-a-word"),
    pytest.param(lambda: post_form("/api/v1/benchmark", fields=[("k", FORM_KS)],
                                   files=[("file", "r.json.gz", gzip_bomb())]),
                 400, MANY_KS, id="api-form-k-of-2-mib"),
    pytest.param(lambda: post_form("/compare", fields=[("k", FORM_KS)],
                                   files=[("file_a", "a.json.gz", gzip_bomb()), ("file_b", "b.json.gz", gzip_bomb())]),
                 400, MANY_KS, id="compare-page-form-k-of-2-mib"),
    pytest.param(lambda: post_form("/compare", fields=[("k", FORM_KS)],
                                   files=bombs("file_a", 1) + bombs("file_b", 1) + bombs("run", 2)),
                 400, MANY_KS, id="compare-page-4-runs-form-k-of-2-mib"),
    pytest.param(lambda: post_form("/api/v1/compare", fields=[("k", FORM_KS)],
                                   files=[("a", "a.json.gz", gzip_bomb()), ("b", "b.json.gz", gzip_bomb())]),
                 400, MANY_KS, id="compare-api-form-k-of-2-mib"),
    pytest.param(lambda: post_form("/api/v1/compare", fields=[("k", FORM_KS)], files=bombs("run", 3)),
                 400, MANY_KS, id="compare-api-3-runs-form-k-of-2-mib"),
    pytest.param(lambda: get("/benchmark", "counts=10:3&k=" + "1," * 100_000), 400, MANY_KS,
                 id="share-link-k-of-100000-repeats"),
    pytest.param(lambda: post_urlencoded("/benchmark/download", {"counts": "a,10,3", "k": "1 " * (MiB // 2)}),
                 400, MANY_KS, id="download-k-of-1-mib"),
    # runs: counted by their parts, before any is opened
    pytest.param(lambda: post_form("/api/v1/compare", fields=[("k", "1")], files=bombs("run", LIMITS.runs + 1)),
                 400, TOO_MANY_RUNS, id="compare-api-13-gzip-bombs"),
    pytest.param(lambda: post_form("/compare", fields=[("k", "1")],
                                   files=bombs("file_a", 1) + bombs("file_b", 1) + bombs("run", LIMITS.runs - 1, 2)),
                 400, TOO_MANY_RUNS, id="compare-page-13-gzip-bombs"),
    pytest.param(lambda: post_form("/compare", fields=[("k", "1"), ("text_a", "10 3"), ("text_b", "10 4"),
                                                        ("text_c", "10 5")], files=bombs("run", LIMITS.runs - 2)),
                 400, TOO_MANY_RUNS, id="compare-page-3-pasted-and-10-gzip-bombs"),
    # file parts of one run: the form parser counts them as they come
    pytest.param(lambda: post_form("/api/v1/benchmark", fields=[("k", "1")], files=bombs("file", 1000)),
                 413, TOO_MANY_FIELDS, id="api-1001-file-parts"),
    pytest.param(lambda: post_form("/benchmark", files=bombs("file", 1001)),
                 413, TOO_MANY_FIELDS, id="page-1001-file-parts"),
    pytest.param(lambda: post_form("/compare", fields=[("k", "1")],
                                   files=bombs("file_a", 1) + bombs("file_b", 1) + bombs("run", 999, 2)),
                 413, TOO_MANY_FIELDS, id="compare-page-1001-more-runs"),
]


@pytest.mark.parametrize("build, status, sentence", HOSTILE)
def test_a_request_over_a_count_limit_is_refused_before_any_work(app, work, build, status, sentence):
    request = build()
    response = send(app, request)
    assert response.status_code == status
    assert sentence in refusal(request, response)
    assert not work, f"work was done before the refusal: {dict(work)}"


@pytest.mark.parametrize("path, fields, files", [
    ("/benchmark", [("k", "1,10")], [("file", "r.csv", COUNTS)]),
    ("/api/v1/compare", [("k", "1")], [("a", "a.csv", COUNTS), ("b", "b.csv", COUNTS)]),
    ("/api/v1/compare", [("k", "1,1,1")], [("run", f"r{i}.csv", COUNTS) for i in range(LIMITS.runs)]),
    ("/compare", [("k", "1")], [("file_a", "a.csv", COUNTS), ("file_b", "b.csv", COUNTS)]
     + [("run", f"r{i}.csv", COUNTS) for i in range(LIMITS.runs - 2)]),
])
def test_the_spies_see_the_work_of_a_request_within_the_limits(app, work, path, fields, files):
    """So that no work seen above means none was done: the same spies count the reading of an allowed request."""
    response = send(app, post_form(path, fields=fields, files=files))
    assert response.status_code == 200
    assert work["opened"] == len(files) and work["read_problems"] >= len(files)


def test_a_json_body_within_the_limits_is_read_by_the_spied_reader(app, work):
    response = send(app, json_ks([1] * LIMITS.ks))   # LIMITS.ks repeats are still allowed, and collapse to one k
    assert response.status_code == 200 and [row["k"] for row in response.json["results"]] == [1]
    assert work["read_json_body"] == 1 and work["summarize"] == 1


def test_a_form_k_of_megabytes_is_not_sent_back(app):
    response = send(app, post_form("/benchmark", fields=[("k", FORM_KS), ("text", "10 3")]))
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and MANY_KS in unescape(html)
    echoed = re.search(r'<input id="k" name="k" type="text" value="([^"]*)"', html).group(1)
    assert echoed == FORM_KS[:passk.web.forms.K_ECHOED]   # the form is kept, cheaply
    assert len(html) < 200_000 and "10 3</textarea>" in html


def test_an_echoed_k_is_still_escaped(app):
    response = send(app, post_form("/benchmark", fields=[("k", '"><script>1</script>'), ("text", "10 3")]))
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "<script>1</script>" not in html
    assert 'value="&#34;&gt;&lt;script&gt;1&lt;/script&gt;"' in html


def streamed_1001_file_parts():
    """A body sent as a stream: 1,001 file parts, then 64 MiB more of them."""
    parts = multipart(files=bombs("file", 1001))
    parts = parts[:parts.rindex(f"--{BOUNDARY}--".encode())]
    more = multipart(files=bombs("file", 1, 1001))
    body = Endless(64 * MiB, parts, more[:more.rindex(f"--{BOUNDARY}--".encode())])
    return {"method": "POST", "path": "/api/v1/benchmark", "content_type": MULTIPART, "declared": body}, body, parts


def test_1001_file_parts_are_refused_having_read_no_further_than_the_1001st(app, work):
    request, body, parts = streamed_1001_file_parts()
    response = send(app, request)
    assert response.status_code == 413
    assert body.consumed <= len(parts) + READ_AHEAD and not work


def test_1001_streamed_file_parts_are_told_the_part_limit(app):
    request, _, _ = streamed_1001_file_parts()
    response = send(app, request)
    assert TOO_MANY_FIELDS in refusal(request, response)


# --- the library's own checks --------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("1," * (LIMITS.ks + 1), rf"Too many k values \({LIMITS.ks + 1}\): give at most {LIMITS.ks}\."),
    ("1 " * 10**6 + "x", r"Too many k values \(more than 10,000\)"),
    ("x," * (LIMITS.ks + 1), r"Too many k values \(21\)"),   # counted before any value is checked
])
def test_parse_ks_counts_every_entry_first(text, message):
    with pytest.raises(ValueError, match=message):
        parse_ks(text)


def test_parse_ks_still_collapses_repeats_within_the_limit():
    assert parse_ks("10," * LIMITS.ks) == [10] and parse_ks("1, 1 10;10") == [1, 10]


@pytest.mark.parametrize("ks", [[1] * (LIMITS.ks + 1), [object()] * 10**5, (k for k in [1] * (LIMITS.ks + 1))],
                         ids=["repeats", "values-never-checked", "a-generator"])
def test_summarize_refuses_a_long_k_list_by_its_length(ks):
    with pytest.raises(ValueError, match=r"Too many k values \(\d+\): give at most 20\."):
        summarize([Problem("a", 10, 3)], ks)


def test_summarize_still_collapses_repeats_within_the_limit():
    assert summarize([Problem("a", 10, 3)], [5, 1, 5]).ks == [1, 5]
    assert summarize([Problem("a", 10, 3)], iter([1] * LIMITS.ks)).ks == [1]


# --- issue 25: G-Pass@k priced by the terms its tails sum, before any is summed ---------------------------------

NEAR_1_9M = ",".join(str(1_900_000 + 1000 * index) for index in range(20))
G_PASS_LINK = f"counts=10000000:1900000,10000001:1900000&k={NEAR_1_9M}&tau=0.5"
WIDE_TAILS = (",".join(f"{10**12 - i}:{5 * 10**11 + i}" for i in range(4)) + "&k="
              + ",".join(str(5 * 10**11 + 10**9 * j) for j in range(20)))


@pytest.fixture
def tails(monkeypatch):
    """The float tails G-Pass@k and mG-Pass@k summed (passk.maths.gpass._tail), and their terms."""
    done = Counter()
    real = passk.maths.gpass._tail

    def counted(*args, **kwargs):
        value, terms = real(*args, **kwargs)
        done["tails"] += 1
        done["terms"] += terms
        return value, terms
    monkeypatch.setattr(passk.maths.gpass, "_tail", counted)
    return done


def test_the_221_character_g_pass_link_sums_a_few_spreads_of_each_tail(app, tails):
    assert len(f"/benchmark?{G_PASS_LINK}") == 221
    response = send(app, get("/benchmark", G_PASS_LINK))
    assert response.status_code == 200 and "is not computed here" not in unescape(response.get_data(as_text=True))
    # 2 pairs × 20 ks × (G-Pass, mG-Pass); each tail a few standard deviations (about 490), where summing from
    # the far end took 950,000 terms a tail
    assert tails["tails"] <= 80 and tails["terms"] <= 80 * 20 * 490


def test_g_pass_past_the_request_s_work_is_left_to_the_command_line_before_its_tails_are_summed(app, tails):
    response = send(app, get("/benchmark", f"counts={WIDE_TAILS}&tau=0.5"))
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and html.count("is not computed here") == 20
    assert "the passk command computes it without limits (`passk FILES -k 500000000000 --tau 0.5`)" in html
    assert tails["tails"] == 0


def test_the_api_says_why_a_g_pass_row_is_left_out(app, tails):
    problems = [{"task_id": f"t{i}", "n": 10**12 - i, "c": 5 * 10**11 + i} for i in range(4)]
    body = {"problems": problems, "k": [1, 5 * 10**11], "tau": 0.5}
    response = send(app, post_body("/api/v1/benchmark", json.dumps(body).encode(), "application/json"))
    first, wide = response.json["g_pass"]["results"]
    assert first["g_pass_at_k"] is not None and wide["g_pass_at_k"] is None
    assert wide["reason"].startswith("G-Pass@500,000,000,000 is not computed here: its tails would take about")
    assert f"past the {LIMITS.tail_work / 1e6:.1f} s of G-Pass@k one request may compute" in wide["reason"]


def test_g_pass_work_within_the_budget_is_all_computed(app):
    response = send(app, get("/benchmark", "counts=200:57*50,200:3*50&k=1,10,100&tau=0.5"))
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "mG-Pass@k" in html and "is not computed here" not in html


# --- issue 25: the fixed-benchmark SE's overlap terms, counted over every k before any is summed ------------------

WIDE_WINDOWS = (",".join(f"{100_000 + i}:{(i * 7919) % 100_000}" for i in range(5000)) + "&k="
                + ",".join(str(2500 * j) for j in range(1, 21)))


@pytest.fixture
def variances(monkeypatch):
    """The ks at which passk.results.benchmark computed a fixed-benchmark SE (passk.maths.variance.expected_variance)."""
    done = []
    real = passk.results.benchmark.expected_variance

    def counted(samples, correct, k, prior, at=None):
        done.append(k)
        return real(samples, correct, k, prior, at)
    monkeypatch.setattr(passk.results.benchmark, "expected_variance", counted)
    return done


def test_fixed_benchmark_se_past_the_request_s_terms_is_left_out_before_it_is_summed(app, variances):
    response = send(app, get("/benchmark", f"counts={WIDE_WINDOWS}"))
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert f"past the {LIMITS.variance_terms:,} one request may sum; the passk command computes it" in html
    # what was summed: each computed SE's windows (at most passk.maths.variance.MAX_TERMS), within the limit
    samples = np.array([100_000.0 + i for i in range(5000)])
    summed = sum(min(float(np.sum(high - low + 1)), MAX_TERMS) for low, high in (_windows(samples, k) for k in variances))
    assert 0 < summed <= LIMITS.variance_terms and len(variances) < 40


def test_summarize_bounds_the_terms_only_when_asked(variances):
    problems = [Problem(f"t{i}", 10_000 + i, (i * 7919) % 10_000) for i in range(50)]
    # windows of about 11,000 terms at k = 1,000 and 20,000 at 2,000, counted for pass@k and for pass^k
    bounded = summarize(problems, [1000, 2000], variance_terms=30_000)
    assert [row.se_fixed is None for row in bounded.results] == [False, True] and variances == [1000, 1000]
    assert "is not computed here" in bounded.results[1].reason
    unbounded = summarize(problems, [1000, 2000])   # the command line and the Python API: no bound
    assert all(row.se_fixed is not None for row in unbounded.results)


# --- issue 25: the planner's sums priced within the request's work (LIMITS.plan_work) ----------------------------

PLAN_LINK = f"counts=10000000:1900000,10000001:1900000&k={NEAR_1_9M}"   # the 221-character link without tau


@pytest.fixture
def planned(monkeypatch):
    """What the planner summed: its search's overlap x pair terms, and the ks of its noise at the samples there are."""
    done = Counter()
    real_misses, real_variance = passk.results.planner._Noise._misses_at, passk.results.planner.expected_variance

    def misses_at(noise, k, overlaps):
        done["terms"] += overlaps.size * noise.samples.size
        return real_misses(noise, k, overlaps)

    def expected_variance(samples, correct, k, prior, at=None):
        done[k] += 1
        return real_variance(samples, correct, k, prior, at)
    monkeypatch.setattr(passk.results.planner._Noise, "_misses_at", misses_at)
    monkeypatch.setattr(passk.results.planner, "expected_variance", expected_variance)
    return done


def far_counts(problems, run):
    """A run whose every task has its own n near 10^12: a window of the noise model per task."""
    return "task_id,n,c\n" + "".join(f"p{i},{10**12 - 7 * i - run},{(7919 * i + run) % 10**6 + 1}\n"
                                     for i in range(problems))


def test_the_221_character_link_plans_every_k_with_a_few_windows_each(app, planned):
    response = send(app, get("/benchmark", PLAN_LINK))
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "not worked out here" not in html
    assert html.count("samples per problem (") == 20   # each k's answer: "N samples per problem (M more in all)"
    # 2 pairs × windows of about 12,000 overlaps, a handful of sample counts a k (one numpy call an overlap took
    # 3.5 s)
    assert 0 < planned["terms"] <= 20 * 8 * 12_000 * 2


def test_a_benchmark_s_plan_past_the_request_s_work_is_left_to_the_command_line(app, planned, monkeypatch):
    monkeypatch.setattr(passk.writing.report, "LIMITS", dataclasses.replace(LIMITS, plan_work=1))
    html = unescape(send(app, get("/benchmark", PLAN_LINK)).get_data(as_text=True))
    assert html.count("are not worked out here") == 20 and planned["terms"] == 0
    assert "the passk command plans it without limits (`passk FILES -k 1900000 --target 1`)" in html


def test_the_benchmark_api_bounds_its_plan_too(app, planned, monkeypatch):
    monkeypatch.setattr(passk.limits, "LIMITS", dataclasses.replace(LIMITS, plan_work=1))   # as inputs.py reads it
    body = {"problems": [{"task_id": f"t{i}", "n": 10_000_000 + i, "c": 1_900_000} for i in range(2)],
            "k": [1_900_000]}
    response = send(app, post_body("/api/v1/benchmark", json.dumps(body).encode(), "application/json"))
    (row,) = response.json["planner"]
    assert row["samples_per_problem"] is None and planned["terms"] == 0
    assert any("are not worked out here" in sentence for sentence in row["sentences"])


def test_the_compare_page_s_plan_stops_at_the_request_s_work_before_summing_more(app, planned):
    files = [("file_a", "a.csv", far_counts(40_000, 0).encode()), ("file_b", "b.csv", far_counts(40_000, 1).encode())]
    html = unescape(send(app, post_form("/compare", fields=[("k", "1,10,100")], files=files)).get_data(as_text=True))
    # each run's noise at the samples there are: a window of 1 overlap a task at k = 1 and of 11 at k = 10 and 100
    # (passk.results.planner.VARIANCE_COST each), 2 × 40,000 tasks: k = 1 and 10 fit, 100 would pass LIMITS.plan_work
    assert sorted(key for key in planned if isinstance(key, int)) == [1, 10]
    assert "What more samples would buy at pass@100 is not worked out here" in html
    assert "(`passk --runs FILE_A FILE_B -k 100 --detect 1`)" in html


def test_the_compare_api_bounds_the_plan_it_is_asked_for(app, planned, monkeypatch):
    monkeypatch.setattr(passk.web.api, "LIMITS", dataclasses.replace(LIMITS, plan_work=1))
    files = [("a", "a.csv", far_counts(100, 0).encode()), ("b", "b.csv", far_counts(100, 1).encode())]
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1"), ("difference", "1")], files=files))
    (answer,) = response.json["planner"]
    assert answer["detectable"] is not None and answer["detectable_fixed"] is None and not planned
    assert any("not worked out here" in sentence for sentence in answer["sentences"])


# --- issue 25: task ids counted in bytes where an answer lists them (LIMITS.listed_id_bytes) ----------------------

EMOJI_ID = "😀" * 190   # 2,280 bytes as JSON writes it


def emoji_run(ids):
    return "".join(json.dumps({"task_id": task_id, "passed": index % 2 == 0}, ensure_ascii=False) + "\n"
                   for index, task_id in enumerate(ids)).encode()


def test_a_ranking_that_would_list_megabytes_of_ids_is_refused_before_any_run_is_summarized(app, monkeypatch):
    summarized = Counter()
    real = passk.results.ranking.summarize
    monkeypatch.setattr(passk.results.ranking, "summarize", lambda *args, **kwargs: summarized.update(["runs"]) or
                        real(*args, **kwargs))
    files = [("run", f"run{r}.jsonl", emoji_run([f"{EMOJI_ID}{r}-{i}" for i in range(2000)])) for r in range(4)]
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1")], files=files))
    assert response.status_code == 400 and not summarized
    assert response.json["error"].startswith("The runs share too few task ids: the ids only one run of a pair has, "
                                             "listed in the answer, for each pair of runs at each k, would take "
                                             "about 55 MB, more than the 32 MiB one answer may list")


def test_a_comparison_that_would_list_megabytes_of_ids_is_refused_before_it_is_compared(app, monkeypatch):
    compared = Counter()
    real = passk.writing.report.compare_runs
    monkeypatch.setattr(passk.writing.report, "compare_runs", lambda *args: compared.update(["pairs"]) or real(*args))
    a, b = (emoji_run([f"{EMOJI_ID}shared"] + [f"{EMOJI_ID}{side}{i}" for i in range(8000)]) for side in "ab")
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1")], files=[("a", "a.jsonl", a),
                                                                                 ("b", "b.jsonl", b)]))
    assert response.status_code == 400 and not compared
    assert "would take about 37 MB, more than the 32 MiB one answer may list" in response.json["error"]


def test_runs_of_the_same_long_ids_are_compared(app):
    ids = [f"{EMOJI_ID}{i}" for i in range(2000)]
    files = [("run", f"run{r}.jsonl", emoji_run(ids)) for r in range(4)]
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1")], files=files))
    assert response.status_code == 200
    assert all(pair["paired"] == 2000 and pair["only_in_a"] == [] for pair in response.json["results"][0]["pairs"])
