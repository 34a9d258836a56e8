"""The compare page and POST /api/v1/compare: two runs paired by task id."""

import io
import re
import statistics
from fractions import Fraction
from html import unescape
from math import comb, sqrt

import pytest

from passk.results.benchmark import compare
from passk.formats import read_problems
from passk.results.planner import comparison_plan

RUN_A = "A,10,3\nB,10,5\nC,10,10\nD,10,1\n"
RUN_B = "A,10,1\nB,10,5\nC,10,7\nE,10,2\n"


def exact(n, c, k):
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def api_compare(client, a, b, **fields):
    return client.post("/api/v1/compare", content_type="multipart/form-data",
                       data={"a": (io.BytesIO(a.encode()), "a.csv"), "b": (io.BytesIO(b.encode()), "b.csv"), **fields})


def test_api_pairs_by_task_id_and_lists_the_rest(client):
    body = api_compare(client, RUN_A, RUN_B, k="1,5").json
    assert list(body) == ["paired", "only_in_a", "only_in_b", "results", "warnings"]
    assert (body["paired"], body["only_in_a"], body["only_in_b"]) == (3, ["D"], ["E"])
    assert set(body["results"][0]) >= {"k", "a", "b", "difference", "se", "ci95", "p_value"}


def test_api_difference_and_se_match_a_direct_computation(client):
    row = api_compare(client, RUN_A, RUN_B, k="5").json["results"][0]
    differences = [exact(10, a, 5) - exact(10, b, 5) for a, b in ((3, 1), (5, 5), (10, 7))]
    mean = sum(differences) / 3
    assert abs(Fraction(row["difference"]) - mean) < Fraction(1, 10**14)
    assert row["se"] == pytest.approx(statistics.stdev(map(float, differences)) / sqrt(3), rel=1e-12)
    assert row["a"] - row["b"] == pytest.approx(row["difference"], abs=1e-15)
    # Three problems: no difference could reach p < 0.05, and the interval holds 0.
    assert row["p_value"] > 0.05 and row["test"] == "mover" and row["ci95"][0] < 0 < row["ci95"][1]
    assert row["reason"].startswith("Too few problems for any conclusion")


def test_page_shows_the_table_the_left_out_problems_and_the_chart(client):
    response = client.post("/compare", data={"text_a": RUN_A, "text_b": RUN_B, "k": "1,5"})
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "A − B on 3 paired problems" in html
    assert "Only in run A: D." in html and "Only in run B: E." in html
    assert re.search(r'<tr data-k="1">.*?\+16\.67 pts', html, re.S)
    assert 'id="difference-chart"' in html and html.count('class="bar') >= 2


@pytest.mark.parametrize("data, fragment", [
    ({"text_a": "", "text_b": RUN_B}, "Run A is empty"),
    ({"text_a": RUN_A, "text_b": ""}, "Run B is empty"),
    ({"text_a": "X,10,3\n", "text_b": "Y,10,3\n"}, "No task ids in common"),
    ({"text_a": "A,10,3\nA,10,4\n", "text_b": RUN_B}, "twice"),
    ({"text_a": "A,10,11\n", "text_b": RUN_B}, "Run A: Line 1"),
    ({"text_a": RUN_A, "text_b": RUN_B, "k": "zero"}, "zero"),
])
def test_bad_compare_input_is_400_with_the_input_kept(client, data, fragment):
    response = client.post("/compare", data=data)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 400
    assert fragment in re.search(r'role="alert">([^<]*)<', html).group(1)
    assert f'>{data["text_a"]}</textarea>' in html


def test_api_compare_without_files_names_the_fields_to_send(client):
    response = client.post("/api/v1/compare", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.json["error"] == 'Run A is missing: send the two runs as multipart file fields named "a" and "b".'
    response = client.post("/api/v1/compare", data={"a": (io.BytesIO(RUN_A.encode()), "a.csv")},
                           content_type="multipart/form-data")
    assert response.json["error"].startswith("Run B is missing")


def test_api_compare_with_an_empty_run_names_its_field(client):
    response = api_compare(client, RUN_A, "\n\n")
    assert response.status_code == 400
    assert response.json["error"] == ('Run B is empty: no problems were found; send a harness results file '
                                      '(JSONL, JSON or CSV) or task_id,n,c lines as the multipart file field "b".')
    page = client.post("/compare", data={"text_a": RUN_A, "text_b": "\n\n"})
    assert "paste" in unescape(page.get_data(as_text=True))   # the page keeps its own words


def test_runs_without_task_ids_are_paired_by_line_order_and_say_so(client):
    note = ("Runs A and B had no task ids, so the problems were named problem 1, 2, … by line and paired by "
            "line order; inputs with task ids (task_id,n,c lines or harness files) pair them safely.")
    body = api_compare(client, "10,3\n10,5\n", "10,1\n10,5\n", k="1").json
    assert body["paired"] == 2 and body["warnings"] == [note]
    html = unescape(client.post("/compare", data={"text_a": "10 3\n10 5\n", "text_b": "10 1\n10 5\n",
                                                   "k": "1"}).get_data(as_text=True))
    assert re.search(r'id="compare-warnings"><li>([^<]*)<', html).group(1) == note
    assert api_compare(client, RUN_A, RUN_B, k="1").json["warnings"] == []


def test_a_suite_chosen_for_runs_that_are_not_evalplus_is_warned_about(client):
    body = api_compare(client, RUN_A, RUN_B, k="1", suite="base").json
    assert body["warnings"] == ["The suite choice names a run only in files of EvalPlus (base or plus), NeMo-Skills "
                                "(human-eval's base or plus, IFEval's strict or loose), lm-evaluation-harness (a "
                                "filter), lighteval (a metric), eval-arena (a model) and Inspect (a scorer's key); run "
                                "A is a CSV file and run B is a CSV file, so it was ignored."]
    assert api_compare(client, RUN_A, RUN_B, k="1").json["warnings"] == []
    html = client.post("/compare", data={"text_a": RUN_A, "text_b": RUN_B, "k": "1", "suite": ""})
    assert 'id="compare-warnings"' not in html.get_data(as_text=True)   # the page's default is no choice


def test_mode_switch_links_the_compare_page(client):
    html = client.get("/compare").get_data(as_text=True)
    assert 'aria-current="page">Compare' in html and 'id="compare-form"' in html


def test_two_pasted_problems_are_not_certainty(client):
    """Issue 9's example: 10 3 / 10 5 against 10 4 / 10 6 once showed SE 0.00 pts, one-point interval and p-value 0."""
    response = client.post("/compare", data={"text_a": "10 3\n10 5\n", "text_b": "10 4\n10 6\n", "k": "1"})
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "−10.00 to −10.00" not in html and "exact</span>" not in html
    assert "Too few problems for any conclusion: with 2 paired problems" in html


def test_the_compare_page_says_what_the_comparison_could_detect(client):
    """The smallest difference found 4 times in 5 at p < 0.05: (z(0.975) + z(0.8)) SE of the paired difference."""
    text_a = "".join(f"t{i},10,{i % 11}\n" for i in range(30))
    text_b = "".join(f"t{i},10,{(i * 7) % 11}\n" for i in range(30))
    comparison = compare(read_problems(text_a).problems, read_problems(text_b).problems, [1])
    (plan,) = comparison_plan(comparison)
    assert plan["detectable"] == pytest.approx((1.959963984540054 + 0.8416212335729143) * comparison.results[0].se,
                                               rel=1e-9)
    html = unescape(client.post("/compare", data={"text_a": text_a, "text_b": text_b, "k": "1"}).get_data(as_text=True))
    assert "What this comparison could detect" in html and plan["sentences"][0] in html
