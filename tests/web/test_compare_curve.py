"""Two runs' pass@k over k on /compare, in POST /api/v1/compare with curve=1 and in passk --runs A B --curve: one
computation (passk.results.curves) in three views, with the two-run answer's keys unchanged."""

import io
import json
import math
import re
from fractions import Fraction
from html import unescape

import pytest

from passk.__main__ import main
from passk.results.benchmark import compare
from passk.results.curves import curves_of
from passk.formats import Problem
from passk.web.api import RANKING_CURVE
from passk.writing.sentences import crossover_sentences
from passk.writing.answers import to_json

# Run A ("RL") solves 18 problems always and 18 never; run B ("base") solves each of them a quarter of the time.
RL = "".join(f"T/{i},8,{8 if i % 2 else 0}\n" for i in range(36)) + "".join(f"T/{i},8,{i % 9}\n" for i in range(36, 48))
BASE = "".join(f"T/{i},8,2\n" for i in range(36)) + "".join(f"T/{i},8,{(i * 5) % 9}\n" for i in range(36, 48))


def rows(text):
    return [Problem(task_id, int(n), int(c)) for task_id, n, c in (line.split(",") for line in text.splitlines())]


def expected():
    return curves_of(compare(rows(RL), rows(BASE), [1]))


def exact_mean(text, k):
    problems = rows(text)
    return sum(1 - Fraction(math.comb(p.n - p.c, k), math.comb(p.n, k)) for p in problems) / len(problems)


def api_compare(client, **fields):
    return client.post("/api/v1/compare", content_type="multipart/form-data",
                       data={"a": (io.BytesIO(RL.encode()), "rl.csv"), "b": (io.BytesIO(BASE.encode()), "base.csv"),
                             "k": "1,8", **fields})


def test_api_with_curve_1_adds_the_curve_after_the_usual_keys(client):
    plain, curved = api_compare(client).json, api_compare(client, curve="1").json
    assert list(plain) == ["paired", "only_in_a", "only_in_b", "results", "warnings"]
    assert list(curved) == [*plain, "curve"] and {key: curved[key] for key in plain} == plain
    assert curved["curve"] == json.loads(json.dumps(to_json(expected())))
    assert "curve" not in api_compare(client, curve="0").json


def test_api_curve_points_are_the_exact_means(client):
    curve = api_compare(client, curve="1").json["curve"]
    assert curve["method"] == "sup-t" and curve["n"] == 8 and [p["k"] for p in curve["points"]] == list(range(1, 9))
    for point in curve["points"]:
        a, b = exact_mean(RL, point["k"]), exact_mean(BASE, point["k"])
        assert abs(Fraction(point["a"]) - a) < Fraction(1, 10**15)
        assert abs(Fraction(point["b"]) - b) < Fraction(1, 10**15)
        assert abs(Fraction(point["difference"]) - (a - b)) < Fraction(1, 10**15)
        assert point["band"][0] <= point["difference"] <= point["band"][1]
    assert curve["leader_at_1"] == "A" and curve["crossing"]["ahead_before"] == "A"


def test_api_refuses_a_curve_value_it_cannot_read(client):
    response = api_compare(client, curve="maybe")
    assert response.status_code == 400
    assert response.json["error"] == "\"curve\" must be 1 (the curves over k) or 0; got 'maybe'."


def test_page_shows_both_charts_the_sentences_and_the_values(client):
    response = client.post("/compare", data={"text_a": RL, "text_b": BASE, "k": "1,8"})
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    sentences = re.findall(r"<li>([^<]*)</li>", html[html.index('id="crossover"'):html.index('id="runs-curve-chart"')])
    assert sentences == crossover_sentences(expected())
    for chart in ("runs-curve-chart", "difference-curve-chart"):
        figure = html[html.index(f'id="{chart}"'):]
        figure = figure[:figure.index("</figure>")]
        assert 'role="img"' in figure and f'aria-labelledby="{chart}-title {chart}-desc"' in figure
        assert re.search(rf'<desc id="{chart}-desc">[^<]+</desc>', figure) and "<figcaption>" in figure
        assert "<script" not in figure and "style=" not in figure   # the page's CSP allows neither
    assert html.count('class="band-pass-at-k"') >= 2 and 'class="zero-line"' in html
    assert len(re.findall(r'<tr data-k="\d+"><th scope="row">', html)) == 8


def test_page_with_one_sample_per_problem_has_sentences_but_no_charts(client):
    html = unescape(client.post("/compare", data={"text_a": "a,1,1\nb,1,0\nc,1,1\n",
                                                  "text_b": "a,1,0\nb,1,0\nc,1,1\n", "k": "1"}).get_data(as_text=True))
    assert 'id="crossover"' in html and "The curves do not cross within k = 1 … 1" in html
    assert 'id="runs-curve-chart"' not in html and 'id="difference-curve-chart"' not in html


def test_the_command_line_prints_the_table_and_the_sentences(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")   # a wide terminal: the table and its sentences on one line each
    (tmp_path / "rl.csv").write_text(RL)
    (tmp_path / "base.csv").write_text(BASE)
    assert main(["--runs", str(tmp_path / "rl.csv"), str(tmp_path / "base.csv"), "--curve"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("pass@k over k on 48 paired problems, k = 1 ... 8: A = ")
    assert lines[1].split() == ["k", "A", "B", "A", "-", "B", "simultaneous", "95%", "band", "A", "is", "may", "first",
                                "lose"]
    first = expected().points[0]
    assert lines[2].split()[:4] == ["1", f"{100 * first.a:.2f}%", f"{100 * first.b:.2f}%",
                                    f"{100 * first.difference:+.2f}"]
    assert lines[-4:] == crossover_sentences(expected())
    assert lines[2].split()[-2:] == [expected().points[0].standing, expected().points[0].first_loss_text]


def test_the_command_lines_json_is_the_apis(tmp_path, capsys, client):
    (tmp_path / "rl.csv").write_text(RL)
    (tmp_path / "base.csv").write_text(BASE)
    assert main(["--runs", str(tmp_path / "rl.csv"), str(tmp_path / "base.csv"), "--curve", "--json", "-k",
                 "1-3,8"]) == 0   # with --curve, -k gives the curve's ks; the comparison keeps the default ks (1 here)
    answer = json.loads(capsys.readouterr().out)
    assert answer == api_compare(client, k="1", curve="1", curve_k="1-3,8").json
    assert [point["k"] for point in answer["curve"]["points"]] == [1, 2, 3, 8]
    assert [row["k"] for row in answer["results"]] == [1]


@pytest.mark.parametrize("argv", [["a.csv", "b.csv", "--curve"], ["--runs", "a.csv", "--curve"],
                                  ["--runs", "a.csv", "b.csv", "c.csv", "--curve"],
                                  ["--runs", "a.csv", "--curve", "--latex"]])
def test_the_command_line_wants_two_runs_for_a_curve(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "--curve compares two runs' curves over k: give --runs and two FILEs" in capsys.readouterr().err


def test_a_ranking_asked_for_a_curve_says_it_has_none(client):
    files = [(io.BytesIO(text.encode()), name) for text, name in ((RL, "rl.csv"), (BASE, "base.csv"))]
    body = client.post("/api/v1/compare", content_type="multipart/form-data",
                       data={"run": files, "k": "1", "curve": "1"}).json
    assert "curve" not in body and body["warnings"][-1] == RANKING_CURVE
