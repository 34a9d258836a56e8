"""eval-arena's older layout gives pass1 as a share of samples without "count" (tests/fixtures/evalarena/README.md):
pass@1 would be the mean of pass1, but pass@k for k > 1 and every error bar need c of n, so the file is refused
with what to add; given "count", the same shares are read as c of n, exactly."""

import io
import json
import re
from fractions import Fraction
from html import unescape
from math import comb

import pytest
from hypothesis import given, strategies as st

from passk.results.benchmark import summarize
from passk.formats import FormatError, read_problems
from passk.formats.detect import detect_format
from where import FIXTURES

SHARES = FIXTURES / "evalarena" / "cruxeval-input_phind_pass1_shares.jsonl"
REFUSAL = ('Line 1: "pass1" = 0.8 is a share of several samples, but the record has no "count": the mean of pass1 is '
           'pass@1, while pass@k for k > 1 and every standard error need how many of how many samples passed; add '
           '"count" (the samples per example) to each record, as eval-arena\'s current files have it.')


def with_count(count):
    """The fixture's records, each given "count"."""
    records = [json.loads(line) for line in SHARES.read_text().splitlines()]
    return "".join(json.dumps({**record, "count": count}) + "\n" for record in records).encode()


def test_shares_without_count_are_detected_and_refused_saying_what_to_add():
    assert detect_format(SHARES.read_bytes(), SHARES.name) == "evalarena"
    with pytest.raises(FormatError) as refused:
        read_problems(SHARES.read_bytes(), filename=SHARES.name)
    assert str(refused.value) == REFUSAL


def test_the_page_and_the_api_give_the_same_sentence(client):
    def sent(path):
        return client.post(path, data={"file": (io.BytesIO(SHARES.read_bytes()), SHARES.name)},
                           content_type="multipart/form-data")
    page, api = sent("/benchmark"), sent("/api/v1/benchmark")
    assert page.status_code == api.status_code == 400 and api.get_json()["error"] == REFUSAL
    assert unescape(re.search(r'role="alert">([^<]*)<', page.get_data(as_text=True)).group(1)) == REFUSAL


def test_with_count_the_shares_are_c_of_n_and_pass_at_k_is_exact():
    parsed = read_problems(with_count(5), filename="shares.jsonl")
    assert [(problem.n, problem.c) for problem in parsed.problems] == [(5, 4), (5, 5), (5, 0), (5, 2)]
    summary = summarize(parsed.problems, [1, 2])
    assert summary.results[0].pass_at_k == float(Fraction(4 + 5 + 0 + 2, 20))   # the mean of pass1, 0.55
    exact = sum(1 - Fraction(comb(5 - c, 2), comb(5, 2)) for c in (4, 5, 0, 2)) / 4
    assert abs(summary.results[1].pass_at_k - float(exact)) <= 1e-15


@given(st.floats(min_value=0, max_value=1, exclude_min=True, exclude_max=True))
def test_any_share_strictly_between_0_and_1_without_count_is_refused(share):
    line = json.dumps({"model": "m", "example_id": "e", "pass1": share}).encode() + b"\n"
    with pytest.raises(FormatError, match=r'^Line 1: "pass1" = .* is a share of several samples, but the record has '
                                          r'no "count"'):
        read_problems(line, fmt="evalarena")


@pytest.mark.parametrize("share", [0, 1, 0.0, 1.0, True, False])
def test_a_pass1_of_0_or_1_without_count_is_still_one_sample(share):
    line = json.dumps({"model": "m", "example_id": "e", "pass1": share}).encode() + b"\n"
    assert [(problem.n, problem.c) for problem in read_problems(line, fmt="evalarena").problems] == [(1, int(share))]
