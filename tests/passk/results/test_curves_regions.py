"""The whole curve over k (passk.results.curves, issue 27): where A is significantly ahead, behind and undecided by the
simultaneous band, and the 95% confidence set for the first k where A loses; each on bands built by hand with
known answers, on runs whose answer is known, against the definitions, and the values at every k from 1 to 128
against exact fractions."""

import math
from fractions import Fraction

import numpy as np
import pytest

from passk.results.curves import (CurveComparison, CurvePoint, _mark_first_loss, correlation_root, k_ranges, ranges_text,
                                  two_curves)
from passk.writing.sentences import crossover_sentences
from passk.writing.answers import to_json


def by_hand(bands):
    """A curve whose A - B bands are given at k = 1, 2, ... (the values themselves do not matter here)."""
    points = [CurvePoint(k, 0.5, None, 0.5, None, (low + high) / 2, (low, high))
              for k, (low, high) in enumerate(bands, start=1)]
    _mark_first_loss(points)
    return CurveComparison(50, len(points), points, 0.99, 3.0, None, None, None)


AHEAD, LEVEL, BEHIND = (0.01, 0.05), (-0.02, 0.03), (-0.06, -0.01)


def test_the_three_regions_are_where_the_band_is_above_below_and_around_zero():
    curve = by_hand([AHEAD, AHEAD, LEVEL, LEVEL, BEHIND, BEHIND, BEHIND])
    assert curve.region("A") == [(1, 2)] and curve.region(None) == [(3, 4)] and curve.region("B") == [(5, 7)]
    assert [point.standing for point in curve.points] == ["ahead"] * 2 + ["undecided"] * 2 + ["behind"] * 3


def test_a_k_may_be_the_first_loss_when_its_band_reaches_below_zero_and_none_before_lies_below():
    curve = by_hand([AHEAD, AHEAD, LEVEL, LEVEL, BEHIND, BEHIND, BEHIND])
    # k = 3, 4: the band allows d < 0 there and d >= 0 before; k = 5: the first k where d < 0 for sure;
    # k = 6, 7: d(5) < 0 is certain, so they cannot be the first loss; "never" is out since d(5) < 0
    assert curve.first_loss == [(3, 5)] and curve.may_never_lose is False
    assert [point.may_first_lose for point in curve.points] == [False, False, True, True, True, False, False]
    assert curve.first_loss_text == "k = 3-5"


def test_a_run_that_may_never_lose_has_never_in_its_set():
    curve = by_hand([AHEAD, LEVEL, AHEAD, LEVEL])
    assert curve.first_loss == [(2, 2), (4, 4)] and curve.may_never_lose is True
    assert curve.first_loss_text == "k = 2 and 4, or never"


def test_a_run_significantly_ahead_everywhere_never_loses():
    curve = by_hand([AHEAD] * 5)
    assert curve.first_loss == [] and curve.may_never_lose is True and curve.region("B") == []
    assert curve.first_loss_text == "never, up to k = 5"
    assert to_json(curve)["first_loss"] == {"ks": [], "never": True}


def test_a_band_below_zero_from_k_1_puts_the_first_loss_at_1_only():
    curve = by_hand([BEHIND, AHEAD, LEVEL])
    assert curve.first_loss == [(1, 1)] and curve.may_never_lose is False


def test_the_json_lists_each_region_as_first_and_last_k():
    body = to_json(by_hand([AHEAD, LEVEL, BEHIND, LEVEL, BEHIND]))
    assert body["ahead"] == [[1, 1]] and body["undecided"] == [[2, 2], [4, 4]] and body["behind"] == [[3, 3], [5, 5]]
    assert body["first_loss"] == {"ks": [[2, 3]], "never": False}
    assert [point["standing"] for point in body["points"]] == ["ahead", "undecided", "behind", "undecided", "behind"]


def test_runs_of_ks_are_runs_of_the_ks_shown():
    points = [CurvePoint(k, 0, None, 0, None, 0, None) for k in (1, 2, 4, 8, 16)]
    assert k_ranges(points, [True, True, True, False, True]) == [(1, 4), (16, 16)]
    assert ranges_text([(1, 37)]) == "1-37" and ranges_text([(1, 4), (16, 16), (20, 1000)]) == "1-4, 16 and 20-1,000"


def test_one_problem_has_no_regions_and_no_first_loss_set():
    result = two_curves(["t"], (np.array([4]), np.array([3])), (np.array([4]), np.array([1])))
    assert result.first_loss is None and result.may_never_lose is None and result.first_loss_text is None
    assert to_json(result)["first_loss"] is None and result.region(None) == [(1, 4)]
    assert not any("first loses" in sentence for sentence in crossover_sentences(result))


# --- runs whose answer is known ------------------------------------------------------------------------------

def crossing_runs(problems=600, n=128):
    """A sharpened run A (twice the base rate, a quarter of the problems collapsed to never) against base run B:
    A leads at k = 1 (0.75 * 2 * 0.2 = 0.3 against 0.2 in expectation) and trails from small k on."""
    generator = np.random.default_rng(20261205)
    base = generator.beta(0.5, 2.0, problems)
    sharp = np.where(generator.random(problems) < 0.25, 0.0, np.minimum(1.0, 2 * base))
    samples = np.full(problems, n)
    return samples, generator.binomial(n, sharp), generator.binomial(n, base)


def test_a_sharpened_run_is_ahead_at_1_behind_at_large_k_and_its_first_loss_between():
    samples, correct_a, correct_b = crossing_runs()
    result = two_curves([str(i) for i in range(samples.size)], (samples, correct_a), (samples, correct_b),
                        range(1, 129))
    assert result.ks == list(range(1, 129)) and result.every_k
    ahead, behind = result.region("A"), result.region("B")
    assert ahead[0][0] == 1 and behind[-1][1] == 128 and ahead[-1][1] < behind[0][0]
    first, last = result.first_loss[0][0], result.first_loss[-1][1]
    # the set runs from just past the last k where A is ahead to the first where it is behind, no further
    assert first == ahead[-1][1] + 1 and last == behind[0][0] and result.may_never_lose is False
    assert len(result.first_loss) == 1
    standing, loss = crossover_sentences(result)[2:]
    assert standing == (f"By the simultaneous 95% band, run A against run B: ahead at k = {ranges_text(ahead)}, "
                        f"undecided at {ranges_text(result.region(None))}, behind at {ranges_text(behind)}.")
    assert loss == (f"Run A first loses to run B (A − B below 0) at some k in {first}-{last}, with 95% "
                    "confidence.")


def test_the_sets_follow_the_definition_at_every_k_of_a_real_curve():
    samples, correct_a, correct_b = crossing_runs(200, 64)
    result = two_curves([str(i) for i in range(200)], (samples, correct_a), (samples, correct_b), range(1, 65))
    bands = {point.k: point.band for point in result.points}
    in_set = [k for k in range(1, 65) if bands[k][0] < 0 and all(bands[j][1] >= 0 for j in range(1, k))]
    assert [k for first, last in result.first_loss for k in range(first, last + 1)] == in_set
    assert result.may_never_lose == all(band[1] >= 0 for band in bands.values())
    for ahead, test in (("A", lambda band: band[0] > 0), ("B", lambda band: band[1] < 0),
                        (None, lambda band: band[0] <= 0 <= band[1])):
        listed = [k for first, last in result.region(ahead) for k in range(first, last + 1)]
        assert listed == [k for k in range(1, 65) if test(bands[k])]


def test_the_first_loss_set_holds_the_true_first_loss_about_95_percent_of_the_time():
    """A population of 2,000 problem pairs whose true curves cross at a known k; 150 draws of 40 problems with
    n = 12 samples: the set must hold the true first k where A - B < 0 at least as often as the band covers."""
    generator = np.random.default_rng(23)
    rate_b = generator.beta(0.6, 1.6, 2000)
    rate_a = np.where(generator.random(2000) < 0.3, 0.0, np.minimum(1.0, 1.8 * rate_b))
    ks = np.arange(1, 13)
    truth = np.mean(np.power.outer(1 - rate_b, ks) - np.power.outer(1 - rate_a, ks), axis=0)
    true_first = int(ks[np.argmax(truth < 0)])
    assert truth[0] > 0 > truth[-1]   # the true curves cross within the ks
    held = covered = 0
    for _ in range(150):
        chosen = generator.integers(0, 2000, 40)
        samples = np.full(40, 12)
        result = two_curves([str(i) for i in range(40)], (samples, generator.binomial(12, rate_a[chosen])),
                            (samples, generator.binomial(12, rate_b[chosen])))
        held += any(first <= true_first <= last for first, last in result.first_loss)
        covered += all(p.band[0] <= true <= p.band[1] for p, true in zip(result.points, truth))
    assert held >= covered and held / 150 >= 0.9


# --- every k from 1 to 128, exactly -----------------------------------------------------------------------

def exact_pass_at_k(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def test_every_k_from_1_to_128_is_the_exact_mean():
    counts_a = [(128, c) for c in (0, 1, 3, 64, 127, 128, 9, 40)]
    counts_b = [(128, c) for c in (2, 0, 30, 50, 100, 128, 1, 5)]
    arrays = [(np.array([n for n, _ in counts]), np.array([c for _, c in counts])) for counts in (counts_a, counts_b)]
    result = two_curves([str(i) for i in range(8)], *arrays, range(1, 129))
    assert result.ks == list(range(1, 129))
    for point in result.points:
        a = sum(exact_pass_at_k(n, c, point.k) for n, c in counts_a) / 8
        b = sum(exact_pass_at_k(n, c, point.k) for n, c in counts_b) / 8
        assert point.a == pytest.approx(float(a), abs=1e-15) and point.b == pytest.approx(float(b), abs=1e-15)
        assert point.difference == pytest.approx(float(a - b), abs=2e-15)


@pytest.mark.parametrize("problems, ks", [(30, 8), (40, 100), (300, 64), (5, 1024)])
def test_the_critical_values_root_is_the_correlation_with_few_problems_or_many(problems, ks):
    generator = np.random.default_rng(problems)
    level = generator.random((problems, 1))
    differences = level * np.linspace(1, 2, ks) + 0.3 * generator.standard_normal((problems, ks))
    root = correlation_root(differences)
    assert root.shape[0] == ks and root.shape[1] <= min(problems, ks)
    np.testing.assert_allclose(root @ root.T, np.corrcoef(differences, rowvar=False), rtol=0, atol=1e-9)
