"""Graded scores, avg@k and the spread across seeds on the benchmark page and in POST /api/v1/benchmark: the
"scores" of a JSON problem, the figures of passk.maths.scores, the work limit of max@k and what bad scores get."""

import io
import json
import re
from fractions import Fraction
from html import unescape

import pytest

from html_text import table_rows
from where import REALDATA

NEMO = "nemoskills__NVIDIA_NeMo-Skills__"
GRADED = [{"task_id": "a", "scores": [1, 0, 0.5, 0.25]}, {"task_id": "b", "scores": [0, 1, 1, 0.75]},
          {"task_id": "c", "scores": [0, 0, 0, 0.5]}]


def upload(client, address, problems=GRADED, **fields):
    document = json.dumps({"problems": problems}).encode()
    return client.post(address, data={"file": (io.BytesIO(document), "graded.json"), **fields},
                       content_type="multipart/form-data")


def test_the_page_shows_the_mean_score_max_at_k_and_avg_at_k(client):
    response = upload(client, "/benchmark", k="1,2,4")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    # the mean score: (7/16 + 11/16 + 1/8) / 3
    assert "Mean score, each problem’s mean over its samples: <strong>41.67%</strong>" in html
    # max@2, the mean best of every pair: (17/24 + 23/24 + 1/4) / 3 = 23/36; first k only: (1 + 1 + 0) / 3
    graded = table_rows(html, "graded-table")
    assert [(row[0], row[1], row[-1]) for row in graded] == [("1", "41.67%", "33.33%"), ("2", "63.89%", "66.67%"),
                                                             ("4", "83.33%", "83.33%")]
    averages = table_rows(html, "averages-table")
    assert [(row[0], row[1], row[-2], row[-1]) for row in averages] == [("1", "33.33%", "—", "—"),
                                                                        ("2", "33.33%", "0%", "0%"),
                                                                        ("4", "41.67%", "9.62%", "4.81%")]
    assert "NeMo-Skills’ std_dev_across_runs" in html


def test_zero_one_scores_show_avg_at_k_but_no_graded_section(client):
    problems = [{"task_id": "a", "scores": [1, 0, 1]}, {"task_id": "b", "scores": [0, 0, 1]}]
    html = upload(client, "/benchmark", problems, k="1,2").get_data(as_text=True)
    assert 'id="graded"' not in html and 'id="averages-table"' in html


def test_the_api_answers_graded_and_avg_at_k_keys(client):
    body = client.post("/api/v1/benchmark", json={"problems": GRADED, "k": [2, 4]}).get_json()
    graded = body["graded"]
    assert graded["mean_score"] == float(Fraction(5, 12))
    assert list(graded["results"][0]) == ["k", "max_at_k", "se", "ci95", "first_k", "coverage_note", "reason"]
    assert graded["results"][0]["max_at_k"] == float(Fraction(23, 36))
    averages = body["avg_at_k"]
    assert averages["seeds"] == 4
    assert list(averages["results"][0]) == ["k", "avg_at_k", "se", "ci95", "seeds_sd", "seeds_se", "within_sd",
                                            "coverage_note", "reason"]
    assert averages["results"][1]["seeds_sd"] == 0.09622504486493763   # the double nearest sqrt(1/108)
    # pass@2 counts the scores of 1 as passes: (1/2 + 5/6 + 0) / 3
    assert body["results"][0]["pass_at_k"] == pytest.approx(float(Fraction(4, 9)), rel=1e-15)


def test_the_max_at_k_work_limit_is_reported_not_exceeded(client, monkeypatch):
    from passk import limits
    monkeypatch.setattr(limits, "LIMITS", limits.Limits(score_work=1))
    graded = client.post("/api/v1/benchmark", json={"problems": GRADED, "k": [2]}).get_json()["graded"]
    assert graded["results"][0]["max_at_k"] is None
    assert "the passk command computes it without limits" in graded["results"][0]["reason"]


@pytest.mark.parametrize("scores, message", [
    ([0.5, 1.5], "At problems[0].scores[1]: a score is a number from 0 to 1; got 1.5."),
    ([0.5, True], "At problems[0].scores[1]: a score is a number from 0 to 1; got true."),
    ("0.5", 'At problems[0].scores: expected a list of numbers from 0 to 1, one per sample; got "0.5".'),
    ([], "At problems[0]: task \"a\" has no samples (n = 0); every problem needs at least one."),
])
def test_bad_scores_in_the_json_body_are_named(client, scores, message):
    response = client.post("/api/v1/benchmark", json={"problems": [{"task_id": "a", "scores": scores}], "k": [1]})
    assert response.status_code == 400 and response.get_json()["error"] == message


def test_scores_beside_samples_are_refused(client):
    problem = {"task_id": "a", "samples": [True, False], "scores": [1, 0.5]}
    response = client.post("/api/v1/benchmark", json={"problems": [problem], "k": [1]})
    assert response.status_code == 400 and response.get_json()["error"] == (
        'At problems[0]: give "samples" (true/false) or "scores" (from 0 to 1) for the samples, not both.')


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
def test_nemo_skills_seeds_show_avg_at_k_and_a_recalculation_says_it_needs_the_files(client):
    seeds = [(io.BytesIO((REALDATA / f"{NEMO}gpqa_output-rs{seed}.jsonl").read_bytes()), f"output-rs{seed}.jsonl")
             for seed in range(4)]
    html = client.post("/benchmark", data={"file": seeds, "k": "1,4"},
                       content_type="multipart/form-data").get_data(as_text=True)
    # NeMo-Skills' metrics.json-test: pass@1[avg-of-4] 50, std_dev_across_runs 0.2041241452319315
    assert [(row[0], row[1], row[-2]) for row in table_rows(html, "averages-table")] == [("1", "75.00%", "—"),
                                                                                       ("4", "50.00%", "20.41%")]
    assert 'id="graded"' not in html and 'id="scores-need-file"' not in html
    carried = dict(re.findall(r'<input type="hidden" name="(carried_[a-z]+)" value="([^"]*)"', html))
    again = client.post("/benchmark", data={**{name: unescape(value) for name, value in carried.items()}, "k": "1,2"})
    text = again.get_data(as_text=True)
    assert again.status_code == 200 and 'id="averages-table"' not in text
    assert "avg@k, the spread across seeds and graded scores need each sample’s score" in text
