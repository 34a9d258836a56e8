"""Two runs' pass@k over k compared (passk.results.curves): every point against exact fractions, the band's
identities, the crossover on runs whose crossing is known exactly, and the band's coverage by a small
seeded simulation (the large one is bench/coverage_curves.py)."""

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from passk.results.benchmark import compare, curve_over_k
from passk.writing.charts import EDGE, HEIGHT, WIDTH, difference_curve_chart, runs_curve_chart
from passk.results.curves import DRAWS, METHOD, CurvePoint, _first_turned, compare_curves, two_curves
from passk.formats import Problem
from passk.maths.intervals import CONFIDENCE
from passk.writing.sentences import crossover_sentences
from passk.writing.answers import to_json


def exact_pass_at_k(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def problems(counts, prefix="task"):
    return [Problem(f"{prefix}/{i}", n, c) for i, (n, c) in enumerate(counts)]


def arrays(counts):
    return np.array([n for n, _ in counts]), np.array([c for _, c in counts])


def curves(counts_a, counts_b, ks=None):
    return two_curves([f"task/{i}" for i in range(len(counts_a))], arrays(counts_a), arrays(counts_b), ks)


RL = ([(8, 8)] * 6 + [(8, 0)] * 6 + [(8, 7), (8, 1), (8, 4), (8, 0)]) * 3     # solves some always, others never
BASE = ([(8, 2)] * 12 + [(8, 3), (8, 1), (8, 5), (8, 2)]) * 3                   # solves every problem sometimes


def test_every_point_is_the_exact_mean():
    result = curves(RL, BASE)
    assert result.n == 8 and result.ks == list(range(1, 9)) and result.problems == 48
    for point in result.points:
        a = sum(exact_pass_at_k(n, c, point.k) for n, c in RL) / len(RL)
        b = sum(exact_pass_at_k(n, c, point.k) for n, c in BASE) / len(BASE)
        assert point.a == pytest.approx(float(a), abs=1e-15)
        assert point.b == pytest.approx(float(b), abs=1e-15)
        assert point.difference == pytest.approx(float(a - b), abs=1e-15)
        assert point.a_ci95[0] <= point.a <= point.a_ci95[1] and point.b_ci95[0] <= point.b <= point.b_ci95[1]
        assert point.band[0] <= point.difference <= point.band[1]


def test_each_runs_curve_is_the_benchmark_pages():
    result = curves(RL, BASE)
    for run, counts in (("a", RL), ("b", BASE)):
        page = curve_over_k(problems(counts), result.ks)
        assert [getattr(point, run) for point in result.points] == page.pass_at_k
        for point, interval in zip(result.points, page.pass_at_k_ci95):
            assert getattr(point, f"{run}_ci95") == pytest.approx(interval, abs=1e-14)


def test_the_crossing_is_the_first_k_where_the_exact_difference_turns():
    result = curves(RL, BASE)
    exact = {k: sum(exact_pass_at_k(n, c, k) for n, c in RL) - sum(exact_pass_at_k(n, c, k) for n, c in BASE)
             for k in range(1, 9)}
    assert exact[1] > 0
    first_negative = min(k for k, d in exact.items() if d < 0)
    assert result.crossing.k == result.crossing.at == first_negative
    assert result.crossing.before == "A" and result.crossing.after == first_negative - 1


def test_the_crossing_is_found_between_log_spaced_ks_by_its_search():
    rl = [(400, 400)] * 10 + [(400, 0)] * 10
    base = [(400, 3)] * 20   # pass@k = 1/2 first at the k where C(397, k)/C(400, k) <= 1/2
    result = curves(rl, base)
    assert len(result.ks) < 400 and result.ks[0] == 1 and result.ks[-1] == 400
    exact_k = next(k for k in range(1, 401) if Fraction(math.comb(397, k), math.comb(400, k)) < Fraction(1, 2))
    assert result.crossing.k == exact_k
    assert result.crossing.after < exact_k <= result.crossing.at
    assert f"no longer significant from k = {result.lead_lost_at} of the ks shown (band" in crossover_sentences(result)[0]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**6), st.integers(1, 10**6), st.data())
def test_the_first_turned_k_is_found_wherever_it_lies_and_soon_where_the_line_says(low, gap, data):
    high = low + gap
    turn = data.draw(st.integers(low + 1, high))
    before, at = (CurvePoint(k, 0, None, 0, None, difference, None)
                  for k, difference in ((low, data.draw(st.floats(0, 1))), (high, -data.draw(st.floats(1e-9, 1)))))
    asked = []
    assert _first_turned(before, at, lambda k: asked.append(k) or k >= turn) == turn
    assert len(asked) <= 2 + math.ceil(math.log2(gap + 1))
    share = before.difference / (before.difference - at.difference)
    if round(low * (high / low) ** share) == turn:   # the line's guess is right: it and its neighbour settle it
        assert len(asked) <= 2


def test_the_lead_and_its_loss_come_from_the_band():
    result = curves(RL, BASE)
    assert result.leader == "A" and result.points[0].band[0] > 0
    lost = result.lead_lost_at
    assert all(point.band[0] > 0 for point in result.points if point.k < lost)
    assert next(point for point in result.points if point.k == lost).band[0] <= 0
    low, high = result.crossing.low, result.crossing.high
    assert low is None or next(p for p in result.points if p.k == low).band[0] > 0
    assert high is None or next(p for p in result.points if p.k == high).band[1] < 0


def test_one_k_gives_the_compare_tables_interval():
    result = curves(RL, BASE, ks=[3])
    row = compare(problems(RL), problems(BASE), [3]).results[0]
    assert result.level == CONFIDENCE and result.critical_t is None
    assert result.points[0].band == row.ci95 and result.points[0].difference == row.difference


def test_the_band_widens_with_more_ks_than_the_pointwise_interval():
    result = curves(RL, BASE)
    assert 0.95 < result.level < 1 - 0.05 / len(result.ks) + 1e-12   # between pointwise and Bonferroni
    row = compare(problems(RL), problems(BASE), [2]).results[0]
    band = result.points[1].band
    assert band[0] < row.ci95[0] and band[1] > row.ci95[1]


def test_the_band_is_the_same_every_time():
    assert to_json(curves(RL, BASE)) == to_json(curves(RL, BASE))


def test_the_sentences_name_the_lead_its_loss_and_the_crossing():
    result = curves(RL, BASE)
    lead, cross, _, _ = crossover_sentences(result)
    assert lead.startswith(f"Run A is ahead at k = 1 by {100 * result.points[0].difference:.2f} points (A − B's "
                           f"simultaneous 95% band +")
    assert f"its lead is no longer significant from k = {result.lead_lost_at}" in lead
    assert cross.startswith(f"The curves cross at k = {result.crossing.k}: there A − B turns negative, and run B "
                            f"is ahead.")


def test_curves_that_do_not_cross_say_so_plainly():
    better = [(10, min(10, c + 2)) for _, c in [(10, 3)] * 20]
    result = curves(better, [(10, 3)] * 20)
    assert result.crossing is None
    assert crossover_sentences(result)[1] == ("The curves do not cross within k = 1 … 10: run A's curve stays above run B's "
                                   "(or level with it) at every k.")


def test_one_problem_has_no_band():
    result = curves([(5, 2)], [(5, 1)])
    assert result.level is None and all(point.band is None for point in result.points)
    assert crossover_sentences(result)[0].startswith("With one paired problem there is no band")


def test_pairing_by_task_id_and_the_json():
    result = compare_curves(problems(RL), list(reversed(problems(BASE))))
    assert to_json(result) == to_json(curves(RL, BASE))
    body = to_json(result)
    assert body["method"] == METHOD == "sup-t" and body["draws"] == DRAWS and body["confidence"] == 0.95
    assert set(body["points"][0]) == {"k", "a", "a_ci95", "b", "b_ci95", "difference", "band", "standing",
                                      "may_first_lose"}
    assert body["crossing"]["interval"] == [result.crossing.low, result.crossing.high]


def test_ks_beyond_the_smallest_n_are_refused():
    with pytest.raises(ValueError, match=r"^The curves over k reach only k = 8, the fewest samples of any paired "
                                         r"problem, and k = 9 is past it: choose ks from 1 to 8, like 1-8\.$"):
        curves(RL, BASE, ks=[1, 9])
    with pytest.raises(ValueError, match=r"and k = 9-12 and 20 are past it"):
        curves(RL, BASE, ks=[*range(1, 13), 20])


# --- properties ---------------------------------------------------------------------------------------

@st.composite
def paired_runs(draw):
    count = draw(st.integers(2, 12))
    n = draw(st.integers(1, 12))
    run = st.lists(st.integers(0, n), min_size=count, max_size=count)
    return [(n, c) for c in draw(run)], [(n, c) for c in draw(run)]


@settings(max_examples=40, deadline=None)
@given(paired_runs())
def test_the_difference_of_the_curves_is_the_curve_of_the_differences(runs):
    for point in curves(*runs).points:
        assert point.difference == pytest.approx(point.a - point.b, abs=2e-15)


@settings(max_examples=25, deadline=None)
@given(paired_runs())
def test_swapping_the_runs_negates_the_difference_and_its_band(runs):
    forward, backward = curves(*runs), curves(*reversed(runs))
    for there, back in zip(forward.points, backward.points):
        assert back.difference == -there.difference and (back.a, back.b) == (there.b, there.a)
        assert back.band == pytest.approx((-there.band[1], -there.band[0]), abs=1e-12)
    assert (forward.crossing is None) == (backward.crossing is None)
    if forward.crossing:
        assert forward.crossing.k == backward.crossing.k


@settings(max_examples=40, deadline=None)
@given(paired_runs())
def test_identical_runs_differ_by_zero_everywhere_and_never_cross(runs):
    result = curves(runs[0], runs[0])
    assert all(point.difference == 0 and point.band[0] < 0 < point.band[1] for point in result.points)
    assert result.crossing is None and result.leader is None and result.lead_lost_at is None
    assert crossover_sentences(result)[1].startswith("The curves do not cross: A − B is 0 at every k")


# --- coverage, small: bench/coverage_curves.py runs it large ------------------------------------------

def test_the_band_covers_the_whole_true_difference_curve_about_95_percent_of_the_time():
    """A population of 2,000 problem pairs (a fifth never solved, a fifth always, the rest flaky, run A
    sharper than run B, so that the curves cross); 200 draws of 30 problems with n = 4 samples each."""
    generator = np.random.default_rng(17)
    kinds = generator.choice(3, 2000, p=[0.2, 0.2, 0.6])
    rate_b = np.where(kinds == 0, 0.0, np.where(kinds == 1, 1.0, generator.beta(0.7, 1.5, 2000)))
    rate_a = np.where(kinds == 2, np.where(rate_b > 0.3, np.minimum(1, 1.6 * rate_b), 0.0), rate_b)
    ks = np.arange(1, 5)
    truth = np.mean(np.power.outer(1 - rate_b, ks) - np.power.outer(1 - rate_a, ks), axis=0)   # pass@k = 1 - (1 - p)^k
    covered = 0
    for _ in range(200):   # about 6 ms each
        chosen = generator.integers(0, 2000, 30)
        samples = np.full(30, 4)
        result = two_curves([str(i) for i in range(30)], (samples, generator.binomial(4, rate_a[chosen])),
                            (samples, generator.binomial(4, rate_b[chosen])))
        covered += all(low <= true <= high for (low, high), true in zip((p.band for p in result.points), truth))
    assert 0.90 <= covered / 200 <= 0.995   # 95% +- 3.2 standard errors of 200 draws, high end a little wider


# --- the charts (passk.writing.charts) ------------------------------------------------------------------------

def path_points(path):
    return [tuple(map(float, pair.split(","))) for pair in re.findall(r"[\d.]+,[\d.]+", path or "")]


def boxes_overlap(one, other):
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


CHARTED = [(RL, BASE), ([(400, 400)] * 10 + [(400, 0)] * 10, [(400, 3)] * 20), ([(2, 1), (2, 2)], [(2, 0), (2, 1)]),
           ([(10**6, 5)] * 3, [(10**6, 900_000)] * 3)]


@pytest.mark.parametrize("runs", CHARTED, ids=lambda runs: f"n={runs[0][0][0]}")
def test_both_charts_draw_every_k_in_its_band_with_labels_apart_and_inside(runs):
    result = curves(*runs)
    for chart in (runs_curve_chart(result), difference_curve_chart(result)):
        left, top, right, bottom = chart.plot
        for line in chart.lines:
            drawn, band = path_points(line["path"]), path_points(line["band"])
            assert len(drawn) == len(result.ks) and len(band) == 2 * len(result.ks)
            assert drawn[0][0] == pytest.approx(left) and drawn[-1][0] == pytest.approx(right)
            for (x, y), (_, high), (_, low) in zip(drawn, band, reversed(band)):
                assert top - 0.1 <= high <= y + 0.1 and y - 0.1 <= low <= bottom + 0.1   # y grows downwards
        boxes = [label.box() for label in chart.labels]
        assert not any(boxes_overlap(one, other) for i, one in enumerate(boxes) for other in boxes[i + 1:])
        assert all(box[0] >= EDGE - 0.5 and box[2] <= WIDTH - EDGE + 0.5 and 0 <= box[1] and box[3] <= HEIGHT
                   for box in boxes)


def test_the_difference_chart_has_its_zero_line_and_the_crossing():
    result = curves(RL, BASE)
    chart = difference_curve_chart(result)
    zero = next(tick for tick in chart.y_ticks if tick.text == "0")
    assert chart.zero == zero.y and chart.plot[1] < chart.zero < chart.plot[3]
    assert chart.crossing["title"] == f"The curves cross at k = {result.crossing.k}"
    assert chart.description.startswith(f"A − B goes from +{100 * result.points[0].difference:.2f} pts at k = 1")
    assert runs_curve_chart(result).description.startswith("Over the 48 paired problems, run A's pass@k goes from")


def test_no_chart_for_one_sample_per_problem():
    result = curves([(1, 1), (1, 0)], [(1, 0), (1, 0)])
    assert runs_curve_chart(result) is None and difference_curve_chart(result) is None
