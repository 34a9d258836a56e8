"""The whole curve over k in the three views (issue 27): `passk --runs A B --curve -k 1-128`, POST /api/v1/compare
with curve=1 and curve_k=1-128, and the compare page's curve_k field; each the one computation of passk.results.curves,
with where A is ahead, behind and undecided and the confidence set for its first loss, and each refusal a
sentence."""

import io
import json
import re
from html import unescape

import numpy as np
import pytest

from passk.__main__ import main
from passk.results.benchmark import compare
from passk.results.curves import curves_of
from passk.formats import Problem
from passk.limits import LIMITS
from passk.writing.sentences import crossover_sentences
from passk.writing.answers import to_json


def sharpened_runs(problems=300, n=128):
    """Run A sharpened (twice the base rate, a quarter of its problems collapsed to never) against base run B: A
    leads at k = 1 and trails at large k."""
    generator = np.random.default_rng(20261205)
    base = generator.beta(0.5, 2.0, problems)
    sharp = np.where(generator.random(problems) < 0.25, 0.0, np.minimum(1.0, 2 * base))
    return ([Problem(f"T/{i}", n, int(c)) for i, c in enumerate(generator.binomial(n, sharp))],
            [Problem(f"T/{i}", n, int(c)) for i, c in enumerate(generator.binomial(n, base))])


RL, BASE = sharpened_runs()


def expected(ks=range(1, 129)):
    return curves_of(compare(RL, BASE, [1]), list(ks))


def counts_jsonl(problems):
    return "".join(json.dumps({"id": p.task_id, "c": p.c, "n": p.n}) + "\n" for p in problems)


def csv(problems):
    return "".join(f"{p.task_id},{p.n},{p.c}\n" for p in problems)


@pytest.fixture
def run_files(tmp_path):
    paths = []
    for name, run in (("rl.jsonl", RL), ("base.jsonl", BASE)):
        (tmp_path / name).write_text(counts_jsonl(run))
        paths.append(str(tmp_path / name))
    return paths


# --- the command line ------------------------------------------------------------------------------------------

def test_the_command_prints_every_k_the_three_sets_and_the_first_loss_set(run_files, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["--runs", *run_files, "--curve", "-k", "1-128"]) == 0
    lines = capsys.readouterr().out.splitlines()
    curve = expected()
    assert lines[0].startswith("pass@k over k on 300 paired problems, k = 1 ... 128: A = ")
    assert [line.split()[0] for line in lines[2:130]] == [str(k) for k in range(1, 129)]
    assert lines[-4:] == crossover_sentences(curve)
    standing, loss = crossover_sentences(curve)[2:]
    assert standing.startswith("By the simultaneous 95% band, run A against run B: ahead at k = 1")
    assert standing.endswith(f"behind at {curve.region('B')[0][0]}-128.")
    assert loss == (f"Run A first loses to run B (A − B below 0) at some k in {curve.first_loss_text[4:]}, with 95% "
                    "confidence.")


def test_the_commands_json_holds_the_sets(run_files, capsys):
    assert main(["--runs", *run_files, "--curve", "-k", "1-128", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)["curve"]
    curve = expected()
    assert len(body["points"]) == 128
    assert body["ahead"] == [list(span) for span in curve.region("A")]
    assert body["behind"] == [list(span) for span in curve.region("B")]
    assert body["undecided"] == [list(span) for span in curve.region(None)]
    assert body["first_loss"] == {"ks": [list(span) for span in curve.first_loss], "never": False}


def test_the_commands_csv_has_the_standing_and_first_loss_at_each_k(run_files, capsys):
    assert main(["--runs", *run_files, "--curve", "-k", "1-4", "-o", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "k,a,b,difference,band_low,band_high,standing,may_first_lose"
    curve = expected(range(1, 5))
    assert [row.split(",")[-2:] for row in rows[1:]] == [[p.standing, p.first_loss_text] for p in curve.points]


@pytest.mark.parametrize("k, sentence", [
    ("128-1", "passk: The k range 128-1 runs backwards: write it from the smaller k to the larger, like 1-128."),
    ("1-2000", f"passk: Too many k values (2000, a range counted as the ks it holds): give at most "
               f"{LIMITS.curve_ks:,}."),
    ("1-1000000000001", "passk: k must be at most 10^12 (1,000,000,000,000); got 1000000000001."),
    ("1-200", "passk: The curves over k reach only k = 128, the fewest samples of any paired problem, and k = "
              "129-200 are past it: choose ks from 1 to 128, like 1-128."),
])
def test_the_command_refuses_a_range_it_cannot_draw_with_a_sentence(run_files, capsys, k, sentence):
    assert main(["--runs", *run_files, "--curve", "-k", k]) == 2
    assert capsys.readouterr().err.strip() == sentence


def test_without_curve_a_range_is_a_list_of_at_most_20_ks(run_files, capsys):
    assert main(["--runs", *run_files, "-k", "1-3,8", "--json"]) == 0
    assert [row["k"] for row in json.loads(capsys.readouterr().out)["results"]] == [1, 2, 3, 8]
    assert main(["--runs", *run_files, "-k", "1-128"]) == 2
    assert "Too many k values (128, a range counted as the ks it holds): give at most 20." in capsys.readouterr().err


# --- the API ---------------------------------------------------------------------------------------------------

def api_compare(client, a=RL, b=BASE, **fields):
    return client.post("/api/v1/compare", content_type="multipart/form-data",
                       data={"a": (io.BytesIO(csv(a).encode()), "rl.csv"),
                             "b": (io.BytesIO(csv(b).encode()), "base.csv"), "k": "1", **fields})


def test_the_api_draws_the_curve_at_the_ks_of_curve_k(client, run_files, capsys):
    response = api_compare(client, curve="1", curve_k="1-128")
    assert response.status_code == 200
    assert response.json["curve"] == json.loads(json.dumps(to_json(expected())))
    assert main(["--runs", *run_files, "--curve", "-k", "1-128", "--json"]) == 0   # the command's is the API's
    assert json.loads(capsys.readouterr().out)["curve"] == response.json["curve"]


@pytest.mark.parametrize("fields, status, sentence", [
    ({"curve_k": "1-8"}, 400, '"curve_k" chooses the ks of the curves over k: send curve=1 with it.'),
    ({"curve": "1", "curve_k": "8-1"}, 400,
     "The k range 8-1 runs backwards: write it from the smaller k to the larger, like 1-8."),
    ({"curve": "1", "curve_k": "1-1025"}, 400,
     "Too many k values (1025, a range counted as the ks it holds): give at most 1,024."),
    ({"curve": "1", "curve_k": "1-129"}, 400,
     "The curves over k reach only k = 128, the fewest samples of any paired problem, and k = 129 is past it: "
     "choose ks from 1 to 128, like 1-128."),
])
def test_the_api_refuses_a_curve_k_it_cannot_draw(client, fields, status, sentence):
    response = api_compare(client, **fields)
    assert response.status_code == status and response.json == {"error": sentence}


def test_the_api_refuses_more_problem_ks_than_a_request_may_compute_before_computing_them(client):
    many = [Problem(f"T/{i}", 1024, i % 7) for i in range(1000)]
    response = api_compare(client, many, many, curve="1", curve_k="1-1024")
    assert response.status_code == 413
    assert response.json["error"].startswith(
        f"The curves over k at 1,024 ks of 1,000 paired problems make 1,024,000 problem-ks, more than the "
        f"{LIMITS.curve_cells:,} one request may compute: choose at most {LIMITS.curve_cells // 1000:,} ks")


# --- the page --------------------------------------------------------------------------------------------------

def compare_page(client, **fields):
    return client.post("/compare", content_type="multipart/form-data",
                       data={"file_a": (io.BytesIO(csv(RL).encode()), "rl.csv"),
                             "file_b": (io.BytesIO(csv(BASE).encode()), "base.csv"), **fields})


def test_the_page_draws_the_curve_at_the_ks_of_its_curve_k_field_with_the_regions_marked(client):
    html = compare_page(client, curve_k="1-128").data.decode()
    curve = expected()
    assert 'name="curve_k" type="text" value="1-128"' in html
    assert len(re.findall(r'<tr data-k="\d+"><th scope="row">', html)) == 128
    regions = dict(re.findall(r'<dd data-standing="(\w+)">k = ([^<]*)</dd>', html))
    assert regions == {standing: text for standing, _, text in curve.standing_regions()}
    assert unescape(re.search(r'<dd id="first-loss">([^<]*)</dd>', html)[1]) == curve.first_loss_text
    shaded = re.findall(r'<rect class="(region-ahead|region-behind|first-loss)"[^>]*><title>([^<]*)</title>', html)
    assert ("region-ahead", f"A significantly ahead at k = 1-{curve.region('A')[0][1]}") in shaded
    assert ("first-loss", f"A may first lose at k = {curve.first_loss_text[4:]} (95% confidence set)") in shaded
    assert f"where A first loses, 95% confidence set: {curve.first_loss_text}" in unescape(html)


def test_the_page_without_curve_k_chooses_its_ks_and_says_of_the_ks_shown(client):
    html = unescape(compare_page(client).data.decode())
    assert 'name="curve_k" type="text" value=""' in html
    assert "(of the 41 ks shown)" in html


def test_the_page_leaves_the_curves_out_with_the_sentence_for_a_bad_curve_k(client):
    html = unescape(compare_page(client, curve_k="1-500").data.decode())
    assert ("The curves over k are left out: The curves over k reach only k = 128, the fewest samples of any "
            "paired problem, and k = 129-500 are past it") in html
    assert 'id="compare-table"' in html and 'id="curve-over-k"' not in html
