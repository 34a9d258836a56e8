"""One file of many models is a leaderboard (issue 17): eval-arena's own data file ranked on /compare (as Run A
alone) and by POST /api/v1/compare (its one run field, or a alone), each model's pass@1 as the file's lines and
SOURCES.md give it; the ranking's cost bound (passk.limits.check_ranking) refuses past it in one sentence."""

import io
import json
import re
from collections import defaultdict
from fractions import Fraction
from html import unescape

import pytest

from passk.writing.display import percent
from passk.limits import LIMITS, PAIR_PROBLEMS, ranked_cells
from where import REALDATA

ARENA = REALDATA / "evalarena__crux-eval_eval-arena__humaneval_hf_29_models.jsonl"
needs_arena = pytest.mark.skipif(not ARENA.is_file(), reason=f"no real harness files at {REALDATA}")


def arena_jsonl(records):
    return "".join(json.dumps({"benchmark_id": "b", **record}) + "\n" for record in records).encode()


def models_file(models, problems=4):
    """A file of several models' records, one sample each: model i passes the first i + 1 problems (capped)."""
    return arena_jsonl({"model": model, "example_id": f"e{j}", "pass1": float(j <= index)}
                       for index, model in enumerate(models) for j in range(problems))


def api(client, field, content, k="1", **fields):
    data = {field: (io.BytesIO(content), "models.jsonl"), "k": k, **fields}
    response = client.post("/api/v1/compare", data=data, content_type="multipart/form-data")
    return response.status_code, response.get_json()


def page(client, content, k="1", **fields):
    data = {"file_a": (io.BytesIO(content), "models.jsonl"), "k": k, **fields}
    response = client.post("/compare", data=data, content_type="multipart/form-data")
    return response.status_code, response.get_data(as_text=True)


def ranking_rows(html, k=1):
    """[(place, run, pass@k)] of the page's ranking table at k, tags stripped and unescaped."""
    body = re.search(rf'<table[^>]*id="ranking-table-{k}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row,
                                                                                     re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]
    return [(row[0], row[1], row[2]) for row in rows]


def alert(html):
    return unescape(re.search(r'role="alert">([^<]*)<', html).group(1))


def arena_pass1():
    """{model: pass@1} of the real file as exact fractions of its lines (the mean of pass1), in the file's order."""
    passed = defaultdict(list)
    for line in ARENA.read_text().splitlines():
        record = json.loads(line)
        passed[record["model"]].append(Fraction(record["pass1"]))
    return {model: sum(values) / len(values) for model, values in passed.items()}


def sources_figures():
    """SOURCES.md's pass@1 of the models its eval-arena row names ("Qwen1.5-110B 0.5426829268292683", …)."""
    row = next(line for line in (REALDATA / "SOURCES.md").read_text().splitlines() if ARENA.name in line)
    return {model: float(value) for model, value in re.findall(r"([\w.-]+) (0\.\d+)", row.split("e.g.", 1)[1])}


@needs_arena
def test_the_29_models_of_eval_arenas_file_are_ranked_by_the_api_as_the_file_says(client):
    status, body = api(client, "run", ARENA.read_bytes(), k="1,10")
    exact = arena_pass1()
    assert status == 200 and len(exact) == 29
    assert [run["name"] for run in body["runs"]] == list(exact)
    assert {(run["format"], run["problems"]) for run in body["runs"]} == {("evalarena", 164)}
    ranking = body["results"][0]["ranking"]
    got = {row["name"]: row["pass_at_k"] for row in ranking}
    assert all(abs(got[model] - float(value)) <= 1e-15 for model, value in exact.items())
    figures = sources_figures()
    assert len(figures) == 4 and all(abs(got[model] - value) <= 1e-15 for model, value in figures.items())
    # best first; equal pass@1 keep the file's order
    assert [row["name"] for row in ranking] == sorted(exact, key=lambda model: -exact[model])
    assert len(body["results"][0]["pairs"]) == 29 * 28 // 2
    assert all(row["pass_at_k"] is None for row in body["results"][1]["ranking"])   # k = 10 > n = 1


@needs_arena
def test_the_page_ranks_eval_arenas_file_given_as_run_a_alone(client):
    status, html = page(client, ARENA.read_bytes())
    exact = arena_pass1()
    assert status == 200 and "29 runs ranked" in html and 'id="compare-table"' not in html
    order = sorted(exact, key=lambda model: -exact[model])
    assert ranking_rows(html) == [(str(place), model, percent(float(exact[model])))
                                  for place, model in enumerate(order, 1)]
    assert ranking_rows(html)[0] == ("1", "Qwen1.5-110B", "54.27%")
    status, body = api(client, "a", ARENA.read_bytes())   # the API's a, sent without b
    assert status == 200 and [row["name"] for row in body["results"][0]["ranking"]] == order


def test_a_file_of_models_is_ranked_and_a_file_of_one_is_still_one_run(client):
    content = models_file(["m0", "m1", "m2"])
    status, body = api(client, "run", content)
    assert status == 200 and [row["name"] for row in body["results"][0]["ranking"]] == ["m2", "m1", "m0"]
    assert [row["pass_at_k"] for row in body["results"][0]["ranking"]] == [0.75, 0.5, 0.25]
    one = models_file(["m0"])
    status, body = api(client, "run", one)
    assert status == 400 and body["error"] == "Give at least two runs to rank; got 1."
    status, body = api(client, "a", one)
    assert status == 400 and body["error"].startswith('Run B is missing: send the two runs as multipart file fields')
    status, html = page(client, one)
    assert status == 400 and alert(html) == "Run B is empty: paste its results or choose its file."


def test_a_model_chosen_by_suite_is_read_as_one_run_not_ranked(client):
    content = models_file(["m0", "m1", "m2"])
    status, html = page(client, content, suite="m1")
    assert status == 400 and alert(html) == "Run B is empty: paste its results or choose its file."
    response = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(content), "models.jsonl"), "k": "1",
                                                      "suite": "m1"}, content_type="multipart/form-data")
    assert response.status_code == 200 and response.get_json()["results"][0]["pass_at_k"] == 0.5
    response = client.post("/api/v1/compare", data={"a": (io.BytesIO(content), "a.jsonl"), "k": "1", "suite": "m1",
                                                    "b": (io.BytesIO(content), "b.jsonl")},
                           content_type="multipart/form-data")
    assert response.status_code == 200 and response.get_json()["results"][0]["a"] == 0.5


def test_the_benchmark_page_and_api_say_how_to_rank_a_file_of_models(client):
    content = models_file(["m0", "m1"])
    response = client.post("/benchmark", data={"file": (io.BytesIO(content), "models.jsonl")},
                           content_type="multipart/form-data")
    expected = ('The file holds the records of 2 models ("m0", "m1"); rank them all on the Compare page (this file '
                'as Run A, with no other run), with POST /api/v1/compare (the file as its one "run" field) or with '
                "`passk --runs FILE`, or read one model as a run with suite=MODEL (the API's suite field; "
                "`passk FILE --suite MODEL`).")
    assert response.status_code == 400 and alert(response.get_data(as_text=True)) == expected
    response = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(content), "models.jsonl")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and response.get_json()["error"] == expected


def test_more_models_than_the_runs_limit_are_refused_in_one_sentence(client):
    content = models_file([f"m{i}" for i in range(LIMITS.runs + 1)], problems=2)
    status, body = api(client, "run", content)
    assert status == 400 and body["error"] == f"Too many runs ({LIMITS.runs + 1}): rank at most {LIMITS.runs} at once."
    status, html = page(client, content)
    assert status == 400 and alert(html) == body["error"]


def test_a_ranking_past_ranked_cells_is_refused_naming_the_limit(client):
    models, problems, ks = 29, 164, list(range(1, 21))
    content = models_file([f"m{i}" for i in range(models)], problems=problems)
    cost = ks[-1] * (models * (models - 1) // 2) * (problems + PAIR_PROBLEMS)
    assert cost == ranked_cells([problems] * models, len(ks)) > LIMITS.ranked_cells
    status, body = api(client, "run", content, k=",".join(map(str, ks)))
    assert status == 400 and body["error"] == (
        f"29 runs make 406 pairs; comparing them at 20 k values on up to 164 problems costs {cost:,} (pairs × k "
        f"values × (problems + 800)), more than the {LIMITS.ranked_cells:,} one request may compute: choose fewer "
        "k values, rank fewer runs, or use the command line (the passk command) for larger runs.")
    status, body = api(client, "run", content, k="1,2,3,4,5")   # 1,958,040: within it
    assert status == 200 and len(body["runs"]) == 29


def test_model_names_are_escaped_on_the_page_and_kept_in_the_json(client):
    names = ['<script>alert("x")</script>', "<b>bold</b> & co"]
    content = models_file(names)
    status, html = page(client, content)
    assert status == 200 and "<script>alert" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(" in html and "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html
    assert [row[1] for row in ranking_rows(html)] == names[::-1]
    status, body = api(client, "run", content)
    assert [run["name"] for run in body["runs"]] == names


def test_runs_with_more_different_sample_counts_than_the_limit_are_refused(client):
    """Each run's pass@1 is an exact sum of fractions c/n: every different n makes it longer."""
    per_run = LIMITS.sample_counts // 2 + 1
    run = "".join(f"t{i},{10**6 + i},{i % 7}\n" for i in range(per_run)).encode()
    data = {"run": [(io.BytesIO(run), "a.csv"), (io.BytesIO(run), "b.csv")], "k": "1"}
    response = client.post("/api/v1/compare", data=data, content_type="multipart/form-data")
    assert response.status_code == 400 and response.get_json()["error"] == (
        f"The runs have {2 * per_run:,} different sample counts n (each run's added up), more than the "
        f"{LIMITS.sample_counts:,} one ranking may have: each run's pass@1 is an exact sum of fractions c/n, which "
        "grows with every different n. Give the problems of a run the same n, rank fewer runs, or use the command "
        "line (the passk command) for larger runs.")


def test_the_pairs_and_ks_are_counted_before_any_run_is_read(client):
    """20 runs at 20 ks cost more than ranked_cells whatever their problems: refused before the files (which are
    not results at all) are opened."""
    runs, ks = 20, 20
    files = [(io.BytesIO(b"\x00 not a results file"), f"r{index}.bin") for index in range(runs)]
    response = client.post("/api/v1/compare", data={"run": files, "k": ",".join(map(str, range(1, ks + 1)))},
                           content_type="multipart/form-data")
    cost = ranked_cells([0] * runs, ks)
    assert cost == 190 * 20 * PAIR_PROBLEMS > LIMITS.ranked_cells
    assert response.status_code == 400 and response.get_json()["error"] == (
        f"20 runs make 190 pairs; comparing them at 20 k values costs at least {cost:,} (pairs × k values × "
        f"(problems + 800)), more than the {LIMITS.ranked_cells:,} one request may compute: choose fewer k values, "
        "rank fewer runs, or use the command line (the passk command) for larger runs.")


def test_one_file_of_models_ranks_as_the_same_models_sent_as_separate_run_files(client):
    """The leaderboard of one file is the many-runs ranking itself: its answer is that of a run file per model."""
    models = ["m0", "m1", "m2", "m3"]
    status, whole = api(client, "run", models_file(models, problems=6), k="1,2")
    records = [json.loads(line) for line in models_file(models, problems=6).decode().splitlines()]
    files = [(io.BytesIO(arena_jsonl(record for record in records if record["model"] == model)), f"{model}.jsonl")
             for model in models]
    response = client.post("/api/v1/compare", data={"run": files, "k": "1,2", "name": models},
                           content_type="multipart/form-data")
    assert status == response.status_code == 200
    assert whole["results"] == response.get_json()["results"] and whole["runs"] == response.get_json()["runs"]
