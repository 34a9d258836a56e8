"""A request's correct rounding is priced before it runs (LIMITS.exact_work, passk.limits.exact_work_within).

Each value is the double nearest its exact value; for a different (n, c) pair with n above the factorial table's top
that takes Stirling's form in double-double (a few microseconds a pair and k) or, rarely, arithmetic one at a time.
A curve over k of 2 × 100,000 tasks each with its own n near 10^12 took 15 s. Nothing here times anything: a spy
counts the pairs computed, so a refusal is seen to come before the work.
"""

import dataclasses
from html import unescape

import numpy as np
import pytest

import passk.maths.estimator
import passk.web.hooks
from passk.maths import nearest
from passk.maths.estimator import STIRLING_BLOCK, STIRLING_CALL_US, STIRLING_PAIR_US, estimate_pass_at_k, stirling_work
from passk.limits import LIMITS, TooLarge, exact_work_left, exact_work_within, too_much_exact_work
from test_limits import get, post_form, send
from test_limits_before_work import far_counts


@pytest.fixture
def computed(monkeypatch):
    """How many pairs went through Stirling's form, and one at a time."""
    counts = {"stirling": 0, "one": 0}
    stirling, one = passk.maths.estimator._stirling_double_double, passk.maths.estimator._miss_one

    def counted_stirling(n, c, k, complement):
        counts["stirling"] += n.size
        return stirling(n, c, k, complement)

    def counted_one(*args):
        counts["one"] += 1
        return one(*args)
    monkeypatch.setattr(passk.maths.estimator, "_stirling_double_double", counted_stirling)
    monkeypatch.setattr(passk.maths.estimator, "_miss_one", counted_one)
    return counts


def far_pairs(count):
    n = 10**12 - 7 * np.arange(count, dtype=np.int64)
    return n, (7919 * np.arange(count, dtype=np.int64)) % 10**6 + 17


def test_without_a_bound_nothing_is_refused(computed):
    n, c = far_pairs(600)
    assert exact_work_left() is None
    values = estimate_pass_at_k(n, c, 100)
    assert computed["stirling"] == 600 and np.all((values > 0) & (values <= 1))


def test_stirling_s_form_past_what_is_left_is_refused_before_any_pair_is_computed(computed):
    n, c = far_pairs(600)
    cost = STIRLING_CALL_US + 600 * STIRLING_PAIR_US
    with exact_work_within(cost - 1), pytest.raises(TooLarge) as refused:
        estimate_pass_at_k(n, c, 100)
    assert str(refused.value) == too_much_exact_work() and computed["stirling"] == 0
    with exact_work_within(cost):
        estimate_pass_at_k(n, c, 100)
        assert exact_work_left() == 0
    assert computed["stirling"] == 600


def test_pairs_left_to_one_at_a_time_are_priced_before_the_first(computed):
    """d = n - c - k = 0 (k = n - c) goes one pair at a time: beyond the table, decimal arithmetic."""
    n, c = far_pairs(60)
    with exact_work_within(59 * passk.maths.estimator.ONE_BEYOND_US), pytest.raises(TooLarge):
        passk.maths.estimator._pass_at_k_array(n, c, n - c)
    assert computed["one"] == 0


@pytest.mark.parametrize("n, c, hat, pairs", [
    (1000, 500, True, 0),                          # the factorial table: no Stirling's form
    (nearest.TABLE_MAX, 17, False, 1),             # at the table's top, more than FALLING_TERMS passes
    (nearest.TABLE_MAX, 16, False, 0),             # falling products
    (nearest.TABLE_MAX, 16, True, 1),              # ... but pass^k's failures are many
    (10**12, 10**12 - 3, True, 1),                 # pass@k's Stirling, pass^k's falling products
])
def test_stirling_work_counts_the_pairs_that_take_it(n, c, hat, pairs):
    work = stirling_work([n, n, n], [c, c, c], hat=hat)   # one different pair
    assert work == (STIRLING_CALL_US + STIRLING_PAIR_US) * pairs


def test_stirling_work_counts_a_call_a_block():
    n, c = far_pairs(STIRLING_BLOCK + 1)
    assert stirling_work(n, c) == 2 * STIRLING_CALL_US + (STIRLING_BLOCK + 1) * STIRLING_PAIR_US


@pytest.fixture
def small_budget(monkeypatch):
    """LIMITS.exact_work of 40 ms, as the app's hooks read it."""
    monkeypatch.setattr(passk.web.hooks, "LIMITS", dataclasses.replace(LIMITS, exact_work=40_000))


def far_files(names, problems=2000):
    return [(names[0], "a.csv", far_counts(problems, 0).encode()), (names[1], "b.csv", far_counts(problems, 1).encode())]


def test_the_api_s_curves_past_the_request_s_work_are_a_413_before_they_are_computed(app, small_budget, computed):
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1"), ("curve", "1")],
                                   files=far_files(("a", "b"))))
    assert response.status_code == 413 and response.json == {"error": too_much_exact_work()}
    assert computed["stirling"] == 0   # k = 1 needs none; the curve's ks were priced and refused first


def test_the_compare_page_says_its_curves_are_left_out(app, small_budget):
    response = send(app, post_form("/compare", fields=[("k", "1")], files=far_files(("file_a", "file_b"))))
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and 'id="curve-left-out"' in html and 'id="curve-over-k"' not in html
    assert too_much_exact_work() in html


def test_the_benchmark_page_draws_no_curve_it_cannot_afford(app, small_budget):
    link = ",".join(f"{10**12 - 7 * i}:{7919 * i % 10**6 + 17}" for i in range(300))
    response = send(app, get("/benchmark", f"counts={link}&k=1"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and 'id="k-curve"' not in html and 'id="per-problem"' in html


def test_the_same_curves_are_drawn_when_they_fit(app):
    response = send(app, post_form("/api/v1/compare", fields=[("k", "1"), ("curve", "1")],
                                   files=far_files(("a", "b"), problems=200)))
    assert response.status_code == 200 and len(response.json["curve"]["points"]) >= 5


def test_the_command_line_s_library_has_no_bound():
    n, c = far_pairs(20_000)
    with exact_work_within(None):
        assert estimate_pass_at_k(n, c, 1000).shape == (20_000,)
