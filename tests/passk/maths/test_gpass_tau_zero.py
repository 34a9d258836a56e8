"""G-Pass@k at tau = 0 is pass@k, to the bit, in every view (issue 27).

lighteval's GPassAtK (huggingface/lighteval 3fd15266, src/lighteval/metrics/metrics_sample.py) needs
max(int(ceil(k t)), 1) passes and lists 0.0 among its default thresholds; scorio's g_pass_at_k_tau
(mohsenhariri/scorio dedc4154, scorio/eval/gpass.py) needs max(1, ceil(tau k)) and returns pass@k at tau <= 0.
passk counts it the same way: at least one pass, always.
"""

import io
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

import passk
from passk.__main__ import main
from passk.results.benchmark import summarize
from passk.maths.estimator import estimate_pass_at_k, pass_at_k
from passk.formats import Problem
from passk.maths.gpass import estimate_g_pass_at_k, g_pass_at_k, threshold

small = st.integers(1, 300).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n)))
large = st.sampled_from([2001, 10**4, 10**6, 10**9, 10**12]).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, min(n, 10**5))))
zeros = st.sampled_from([0, 0.0, -0.0, Fraction(0)])


@pytest.mark.parametrize("k", [1, 2, 3, 10, 1000, 10**12])
@pytest.mark.parametrize("tau", [0, 0.0, Fraction(0)])
def test_tau_zero_needs_one_pass(k: int, tau: float) -> None:
    assert threshold(k, tau) == 1


@given(small, zeros)
@settings(max_examples=400)
def test_tau_zero_is_pass_at_k_to_the_bit_where_tails_are_summed_exactly(counts: tuple[int, int, int],
                                                                         tau: float) -> None:
    n, c, k = counts
    assert g_pass_at_k(n, c, k, tau).hex() == pass_at_k(n, c, k).hex()


@given(large)
@settings(max_examples=150)
def test_tau_zero_is_pass_at_k_to_the_bit_where_tails_are_summed_in_double_double(counts: tuple[int, int, int]
                                                                                  ) -> None:
    n, c, k = counts
    assert g_pass_at_k(n, c, k, 0.0).hex() == pass_at_k(n, c, k).hex()


@given(st.lists(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))), min_size=1,
                max_size=30), st.integers(1, 60))
def test_every_problems_value_at_tau_zero_is_its_pass_at_k(pairs: list[tuple[int, int]], k: int) -> None:
    samples, correct = (np.array(values) for values in zip(*pairs))
    if k > samples.min():
        return
    assert estimate_g_pass_at_k(samples, correct, k, 0).tobytes() == estimate_pass_at_k(samples, correct, k).tobytes()


PROBLEMS = [Problem("a", 10, 4), Problem("b", 10, 9), Problem("c", 10, 0), Problem("d", 10, 10)]


def test_the_summarys_g_pass_at_tau_zero_is_its_pass_at_k() -> None:
    summary = summarize(PROBLEMS, [1, 3, 10], tau=0.0)
    assert summary.g_pass is not None and summary.g_pass.tau == 0.0
    for row, result in zip(summary.g_pass.results, summary.results, strict=True):
        assert row.g_pass is not None and row.g_pass.value == result.pass_at_k


def test_the_python_api_takes_tau_zero() -> None:
    run = passk.Run((Problem("a", 4, 2), Problem("b", 4, 1)), format="counts", layout="counts", source="")
    summary = passk.summarize(run, k=[1, 2], tau=0)
    assert summary.g_pass is not None
    assert [row.g_pass.value for row in summary.g_pass.results if row.g_pass] == \
        [row.pass_at_k for row in summary.results] == pytest.approx([3 / 8, 2 / 3], rel=1e-15)


def test_the_command_line_takes_tau_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    counts = tmp_path / "counts.txt"
    counts.write_text("10 4\n10 7\n10 10\n")
    assert main([str(counts), "-k", "1,5", "--tau", "0"]) == 0
    out = capsys.readouterr().out
    table = out.split("G-Pass@k at tau = 0", 1)[1].splitlines()
    at_5 = (1 - Fraction(6, 252) + 1 + 1) / 3   # pass@5 of c = 4 (miss: C(6,5)/C(10,5)), 7 and 10
    assert table[3].split()[1] == f"{100 * float(at_5):.2f}%"


def test_the_api_and_the_page_take_tau_zero(client: FlaskClient) -> None:
    body = {"problems": [{"task_id": "a", "n": 4, "c": 2}, {"task_id": "b", "n": 4, "c": 1}], "k": [1, 2], "tau": 0}
    answer = client.post("/api/v1/benchmark", json=body).get_json()
    assert answer["g_pass"]["tau"] == 0
    assert [row["g_pass_at_k"] for row in answer["g_pass"]["results"]] == \
        [row["pass_at_k"] for row in answer["results"]]
    page = client.post("/benchmark", data={"file": (io.BytesIO(b"4 2\n4 1\n"), "r.txt"), "k": "1,2", "tau": "0"},
                       content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "G-Pass@k at τ = 0" in html and "tau=0" in html
