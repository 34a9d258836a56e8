"""Changing k or the suite after an upload: the page carries the file's counts, never the file (issue 7 §4)."""

import io
import json
import re
from html import unescape

import pytest

from passk.writing import report as report_module
from passk.limits import LIMITS
from passk.web.forms import CARRIED_FIELDS

from test_benchmark_page import EVALPLUS, HUMANEVAL_LINES, jsonl, result_cells, upload


def hidden_fields(html):
    """{name: value} of the benchmark form's hidden inputs."""
    form = html[html.index('id="benchmark-form"'):html.index("</form>")]
    return {name: unescape(value) for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                                                               form)}


def alert(html):
    return unescape(re.search(r'role="alert">([^<]*)<', html).group(1))


def recalculate(client, html, **fields):
    """Press Calculate again on the page in html, without choosing the file again (the browser emptied it)."""
    form = {"text": "", "format": "", "suite": "", **hidden_fields(html), **fields}
    return client.post("/benchmark", data={**form, "file": (io.BytesIO(b""), "")}, content_type="multipart/form-data")


def test_changing_k_after_an_upload_recalculates_without_the_file(client):
    first = upload(client, jsonl(HUMANEVAL_LINES), "samples_results.jsonl", k="1").get_data(as_text=True)
    assert set(hidden_fields(first)) == {"carried_name", "carried_format", "carried_counts"}
    again = recalculate(client, first, k="1,2")
    html = again.get_data(as_text=True)
    assert again.status_code == 200, alert(html)
    direct = upload(client, jsonl(HUMANEVAL_LINES), "samples_results.jsonl", k="1,2").get_data(as_text=True)
    assert result_cells(html) == result_cells(direct) and set(result_cells(html)) == {1, 2}
    assert 'read as <strong id="read-as">human-eval *_results.jsonl</strong>, the layout of human-eval' in html
    assert "HumanEval/1" in html
    note = unescape(re.search(r'id="carried-counts">(.*?)</p>', html, re.S).group(1))
    assert "Results from <strong>samples_results.jsonl</strong> (2 problems) — choose another file" in note
    assert hidden_fields(html) == hidden_fields(first)   # and again, as often as k changes


def test_the_carried_counts_keep_the_task_ids_but_not_the_samples(client):
    html = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    counts = report_module.unpack_counts(hidden_fields(html)["carried_counts"]).decode()
    assert counts == "task_id,n,c\nHumanEval/0,3,2\nHumanEval/1,3,1\n"


def test_evalplus_carries_both_suites_so_the_suite_can_change_too(client):
    first = upload(client, json.dumps(EVALPLUS).encode(), "eval_results.json", k="1").get_data(as_text=True)
    assert {"carried_plus", "carried_base"} <= set(hidden_fields(first)) and "carried_counts" not in first
    html = recalculate(client, first, k="1,2", suite="base").get_data(as_text=True)
    assert "Results — EvalPlus base" in html and "or the suite" in html
    assert result_cells(html) == {1: "75.00%", 2: "100%"}
    assert result_cells(html, "results-table-plus")[1] == "25.00%"
    assert not re.search(r'id="warnings"', html)


def test_evalplus_base_only_file_asks_for_the_base_suite(client):
    base_only = {"eval": {"A": [{"base_status": "pass", "plus_status": None}]}}
    first = upload(client, json.dumps(base_only).encode(), "eval_results.json", k="1", suite="base")
    first = first.get_data(as_text=True)
    assert "carried_base" in hidden_fields(first) and "carried_plus" not in hidden_fields(first)
    response = recalculate(client, first, suite="")
    assert response.status_code == 400
    assert alert(response.get_data(as_text=True)) == \
        "eval_results.json has no EvalPlus plus results; choose the base suite."


@pytest.mark.parametrize("new_input", ["text", "file"])
def test_a_new_file_or_new_text_wins_over_the_carried_counts(client, new_input):
    first = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    form = {"format": "", "suite": "", "k": "1", **hidden_fields(first)}
    if new_input == "text":
        form.update(text="10 3\n10 0\n", file=(io.BytesIO(b""), ""))
    else:
        form.update(text="", file=(io.BytesIO(b"A,10,3\nB,10,0\n"), "counts.csv"))
    html = client.post("/benchmark", data=form, content_type="multipart/form-data").get_data(as_text=True)
    assert result_cells(html) == {1: "15.00%"} and "HumanEval/1<" not in html
    if new_input == "text":   # the text stays in its box; nothing else is carried
        assert hidden_fields(html) == {}
    else:
        assert hidden_fields(html)["carried_name"] == "counts.csv"


def test_an_error_keeps_the_carried_counts_for_the_next_try(client):
    first = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    response = recalculate(client, first, k="zero")
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "zero" in alert(html)
    assert hidden_fields(html) == hidden_fields(first)
    assert recalculate(client, html, k="2").status_code == 200


def test_damaged_carried_counts_are_400_not_500(client):
    first = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    response = recalculate(client, first, carried_counts="not packed!")
    assert response.status_code == 400
    assert alert(response.get_data(as_text=True)) == "The page's counts for r.jsonl are damaged; choose the file again."


def test_carried_counts_over_the_field_limit_are_not_carried(client, monkeypatch):
    pack = report_module.pack_counts
    monkeypatch.setattr(report_module, "pack_counts", lambda problems: pack(problems, limit=20))
    html = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    assert hidden_fields(html) == {}
    assert "too large to keep in the page" in unescape(html) and "choose the file again" in html


def test_carried_fields_stay_within_the_form_field_limit():
    # pack_counts refuses anything over LIMITS.text_bytes, which is also MAX_FORM_MEMORY_SIZE, the
    # largest form field the app reads; so a page never carries a field it would refuse.
    from app import create_app
    assert create_app().config["MAX_FORM_MEMORY_SIZE"] == LIMITS.text_bytes
    assert report_module.pack_counts.__defaults__ == (LIMITS.text_bytes,)
    assert len(CARRIED_FIELDS) + 7 <= create_app().config["MAX_FORM_PARTS"]


def test_the_api_reads_no_carried_counts(client):
    first = upload(client, jsonl(HUMANEVAL_LINES), "r.jsonl", k="1").get_data(as_text=True)
    response = client.post("/api/v1/benchmark", data={**hidden_fields(first), "k": "1"},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and 'multipart file field named "file"' in response.json["error"]


def test_nothing_is_carried_after_pasted_text_and_a_share_link_keeps_its_counts(client):
    html = client.post("/benchmark", data={"text": "10 3\n10 0\n", "k": "1"}).get_data(as_text=True)
    assert hidden_fields(html) == {}
    shared = client.get("/benchmark?counts=10:3,10:0&k=1").get_data(as_text=True)
    assert hidden_fields(shared) == {"counts": "10:3,10:0"} and 'id="shared-counts"' in shared
    # uploading a file from a shared page replaces the link's counts with the file's
    replaced = client.post("/benchmark", content_type="multipart/form-data", data={
        "counts": "10:3,10:0", "text": "", "k": "1", "file": (io.BytesIO(jsonl(HUMANEVAL_LINES)), "r.jsonl")})
    replaced = replaced.get_data(as_text=True)
    assert "counts" not in hidden_fields(replaced) and 'id="shared-counts"' not in replaced


def test_another_suite_of_a_nemo_skills_file_asks_for_the_file_again(client):
    """NeMo-Skills' IFEval names its runs strict and loose; the counts carried are the strict run's, so choosing
    loose says the file is needed again rather than that the choice means nothing for this format."""
    from where import FIXTURES
    first = upload(client, (FIXTURES / "nemoskills" / "ifeval" / "output-rs0.jsonl").read_bytes(),
                   "output-rs0.jsonl", k="1").get_data(as_text=True)
    html = unescape(recalculate(client, first, k="1", suite="loose").get_data(as_text=True))
    assert "needs the file again: upload it with that choice" in html
    assert "so it was ignored" not in html
