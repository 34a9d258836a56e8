"""maj@k and G-Pass@k on the benchmark page and in POST /api/v1/benchmark: the figures of NeMo-Skills' own seed files,
the tie and tau fields, their errors, and what a share link or a recalculation keeps."""

import io
import json
import re
from fractions import Fraction
from html import unescape

import pytest

from html_text import table_rows
from where import REALDATA

NEMO = "nemoskills__NVIDIA_NeMo-Skills__"
pytestmark = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")


def seed_files(benchmark="hendrycks_math", seeds=3):
    return [(io.BytesIO((REALDATA / f"{NEMO}{benchmark}_output-rs{seed}.jsonl").read_bytes()),
             f"output-rs{seed}.jsonl") for seed in range(seeds)]


def post(client, address, **fields):
    return client.post(address, data={"file": seed_files(), **fields}, content_type="multipart/form-data")


def test_the_page_shows_nemo_skills_majority_beside_pass_at_k(client):
    response = post(client, "/benchmark", k="1,2,3")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    rows = table_rows(html, "majority-table")
    # maj@3 = majority@3 = 16/21 (NeMo-Skills' metrics.json: 76.19); maj@2 over every pair, their first-2 vote
    assert [(row[0], row[1], row[-1]) for row in rows] == [("1", "71.43%", "71.43%"), ("2", "71.43%", "78.57%"),
                                                           ("3", "76.19%", "76.19%")]
    assert "maj@n, the vote over all of each problem’s samples: <strong>76.19%</strong>" in html
    assert "NeMo-Skills’ rule" in html and 'id="g-pass"' not in html


def test_the_api_answers_majority_and_g_pass_with_error_bars(client):
    body = post(client, "/api/v1/benchmark", k="1,2,3", tau="0.5").get_json()
    majority = body["majority"]
    assert majority["tie"] == "fractional"
    assert [row["maj_at_k"] for row in majority["results"]][-1] == float(Fraction(16, 21)) == majority["maj_at_n"]
    assert list(majority["results"][0]) == ["k", "maj_at_k", "se", "ci95", "first_k", "coverage_note", "reason"]
    assert majority["results"][0]["ci95"][0] < majority["results"][0]["maj_at_k"] < majority["results"][0]["ci95"][1]
    assert set(majority["voting_buys"]) == {"right_below_half", "wrong_from_half", "problems", "sentence"}
    g_pass = body["g_pass"]
    assert g_pass["tau"] == 0.5 and [row["k"] for row in g_pass["results"]] == [1, 2, 3]
    assert g_pass["results"][0]["g_pass_at_k"] == body["results"][0]["pass_at_k"]   # G-Pass@1 is pass@1


def test_a_tie_counted_wrong_scores_less_and_is_said(client):
    fractional = post(client, "/api/v1/benchmark", k="2").get_json()["majority"]
    wrong = post(client, "/api/v1/benchmark", k="2", tie="wrong").get_json()["majority"]
    assert wrong["tie"] == "wrong"
    assert wrong["results"][0]["maj_at_k"] < fractional["results"][0]["maj_at_k"]
    assert "A tied vote counts as wrong." in post(client, "/benchmark", k="2", tie="wrong").get_data(as_text=True)


def test_the_page_shows_g_pass_when_a_tau_is_given(client):
    html = client.post("/benchmark", data={"text": "10 4\n10 7\n10 10\n", "k": "1,5", "tau": "60%"}).get_data(
        as_text=True)
    rows = table_rows(html, "g-pass-table")
    at_5 = (Fraction(66, 252) + Fraction(231, 252) + 1) / 3   # at least 3 of 5 pass, for c = 4, 7 and 10
    assert rows[1][:2] == ["5", f"{100 * float(at_5):.2f}%"]
    assert "G-Pass@k at τ = 0.6" in html


@pytest.mark.parametrize("fields, message", [
    ({"tau": "1.5"}, "tau must be a share from 0 to 1"),
    ({"tau": "half"}, "tau must be a share from 0 to 1"),
    ({"tau": "-5%"}, "tau must be a share from 0 to 1"),
    ({"tie": "coin"}, "tie must be fractional or wrong"),
])
def test_a_bad_tau_or_tie_is_400_with_the_form_kept(client, fields, message):
    response = client.post("/benchmark", data={"text": "10 4\n", "k": "1", **fields})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in unescape(html) and "10 4" in html
    api = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(b"10 4\n"), "r.txt"), **fields})
    assert api.status_code == 400 and message in api.get_json()["error"]


@pytest.mark.parametrize("body, status", [({"tau": 0.25}, 200), ({"tau": "0.25"}, 400), ({"tau": 0}, 200),
                                          ({"tau": -0.25}, 400),
                                          ({"tie": 1}, 400), ({"tie": "wrong"}, 200)])
def test_the_json_body_takes_tau_as_a_number(client, body, status):
    response = client.post("/api/v1/benchmark", json={"problems": [{"task_id": "a", "n": 4, "c": 2}], "k": [1, 2],
                                                       **body})
    assert response.status_code == status, response.get_json()
    if status == 200 and "tau" in body:
        assert response.get_json()["g_pass"]["results"][1]["g_pass_at_k"] == pytest.approx(5 / 6, rel=1e-15)


def test_a_share_link_keeps_tau_and_a_recalculation_says_maj_at_k_needs_the_files(client):
    html = post(client, "/benchmark", k="1,2", tau="0.5").get_data(as_text=True)
    share = unescape(re.search(r'id="share-link" href="([^"]+)"', html).group(1))
    assert "tau=0.5" in share
    shared = client.get(share[share.index("/benchmark"):]).get_data(as_text=True)
    assert 'id="g-pass-table"' in shared and 'id="majority-table"' not in shared
    carried = dict(re.findall(r'<input type="hidden" name="(carried_[a-z]+)" value="([^"]*)"', html))
    again = client.post("/benchmark", data={**{name: unescape(value) for name, value in carried.items()}, "k": "1,3"})
    text = again.get_data(as_text=True)
    assert again.status_code == 200 and 'id="majority-table"' not in text
    assert "maj@k needs each sample’s extracted answer" in text


def test_the_vote_work_limit_is_reported_not_exceeded(client, monkeypatch):
    from passk import limits
    monkeypatch.setattr(limits, "LIMITS", limits.Limits(vote_work=1))
    import passk.writing.report
    monkeypatch.setattr(passk.writing.report, "LIMITS", limits.LIMITS)
    majority = post(client, "/api/v1/benchmark", k="2").get_json()["majority"]
    assert majority["results"][0]["maj_at_k"] is None
    assert "the command line computes it" in majority["results"][0]["reason"]
    assert json.dumps(majority)   # the reason and nulls are plain JSON


def test_the_curve_over_k_marks_maj_at_k_and_g_pass_at_the_chosen_ks(client):
    html = post(client, "/benchmark", k="1,3", tau="0.5").get_data(as_text=True)
    chart = html.split('id="k-curve"', 1)[1].split("</figure>", 1)[0]
    majority = re.findall(r'class="marker marker-majority"[^>]*><title>([^<]+)</title>', chart)
    g_pass = re.findall(r'class="marker marker-g-pass"[^>]*><title>([^<]+)</title>', chart)
    assert [unescape(title).split(" (")[0] for title in majority] == ["maj@1: 71.43%", "maj@3: 76.19%"]
    assert [unescape(title).split(" (")[0] for title in g_pass] == ["G-Pass@1 at τ = 0.5: 71.43%",
                                                                    "G-Pass@3 at τ = 0.5: 71.43%"]
    assert "green dots maj@k, open dots G-Pass@k" in chart
    assert "Majority vote (dots in green): maj@1: 71.43%" in unescape(chart)


def test_the_json_body_votes_with_answers_beside_samples(client):
    problems = [{"task_id": "a", "samples": [True, True, False, False], "answers": ["7", "7", "5", None]},
                {"task_id": "b", "samples": [False, True, False], "answers": [3, 4, 3]}]
    body = client.post("/api/v1/benchmark", json={"problems": problems, "k": [2, 4]}).get_json()
    # a's 6 pairs: 7+7, 7+null (twice) score 1, 7+5 (twice) tie at 1/2, 5+null 0: 2/3;
    # b's 3 pairs: 3+4 (twice) tie at 1/2, 3+3 scores 0: 1/3
    [two, four] = body["majority"]["results"]
    assert two["maj_at_k"] == (Fraction(2, 3) + Fraction(1, 3)) / 2
    assert four["maj_at_k"] is None and four["reason"].startswith("maj@4 is undefined: 1 problem has fewer than 4")
    wrong = client.post("/api/v1/benchmark", json={"problems": problems, "k": [2], "tie": "wrong"}).get_json()
    assert wrong["majority"]["tie"] == "wrong"


@pytest.mark.parametrize("problem, message", [
    ({"task_id": "a", "samples": [True], "answers": ["7", "8"]}, "expected a list of one answer per sample (1)"),
    ({"task_id": "a", "samples": [True], "answers": [["7"]]}, "an answer is a string, a number or null"),
    ({"task_id": "a", "n": 1, "c": 1, "answers": ["7"]}, '"answers" needs "samples" beside it'),
])
def test_bad_answers_in_the_json_body_are_named(client, problem, message):
    response = client.post("/api/v1/benchmark", json={"problems": [problem], "k": [1]})
    assert response.status_code == 400 and message in response.get_json()["error"]
