"""The server-drawn charts' geometry."""

import re

import numpy as np
import pytest

from passk.results import curves
from passk.results.calculator import calculate
from passk.writing.charts import (COUNT_FONT, EDGE, FONT, HEIGHT, MAX_BARS, MAX_POINTS, POINTS_PER_DECADE, WIDE_COUNT_FONT,
                                  WIDTH, Label, _path, curve_chart, difference_chart, histogram_chart, interval_axis,
                                  interval_chart, k_curve_chart, rate_bins, text_width)
from passk.writing.display import percent
from passk.results.ranking import rank_runs
from passk.results.benchmark import summarize
from passk.formats import Problem
from passk.maths.estimator import pass_at_k_for_ks


def points(path):
    return [tuple(map(float, pair.split(","))) for pair in re.findall(r"[\d.]+,[\d.]+", path)]


def test_curve_has_a_point_per_k_for_small_n_and_marks_the_chosen_k():
    chart = curve_chart(calculate(10, 3, 5))
    drawn = points(chart.unbiased_path)
    assert len(drawn) == 10 and not chart.log_x
    assert chart.marker == drawn[4]


def test_curve_is_non_decreasing_and_above_the_biased_one():
    chart = curve_chart(calculate(200, 7, 10))
    unbiased, biased = points(chart.unbiased_path), points(chart.biased_path)
    heights = [y for _, y in unbiased]
    assert heights == sorted(heights, reverse=True)   # SVG y grows downwards
    assert all(u[1] <= b[1] + 1e-9 for u, b in zip(unbiased, biased))


@pytest.mark.parametrize("n", [1000, 10**6, 10**12])
def test_large_n_uses_a_log_axis_with_few_points(n):
    chart = curve_chart(calculate(n, 1, 1))
    assert chart.log_x and len(points(chart.unbiased_path)) <= 240
    assert len(chart.x_ticks) <= 7


def test_marker_is_the_calculations_own_pass_at_k():
    calc = calculate(200, 57, 10)
    chart = curve_chart(calc)
    _, top, _, bottom = chart.plot
    assert chart.marker[1] == round(bottom - (bottom - top) * calc.pass_at_k, 1)


@pytest.mark.parametrize("n, c", [(200, 57), (1000, 3), (10**6, 2), (10**9, 2), (10**12, 2), (10**12, 10**6),
                                  (10**12, 5 * 10**11), (10**5, 99_990)])
def test_curve_stays_within_a_pixel_of_the_exact_curve(n, c):
    """About 120 points (more at huge n, where the rise is steep) draw what 240 drew: within 0.7 px."""
    chart = curve_chart(calculate(n, c, 1))
    drawn = points(chart.unbiased_path)
    assert len(drawn) <= max(MAX_POINTS, POINTS_PER_DECADE * 12)
    assert len(drawn) <= MAX_POINTS or n > 10**6
    ks = np.unique(np.geomspace(1, n, 5000).round().astype(np.int64))
    left, top, right, bottom = chart.plot
    xs = left + (right - left) * np.log(ks) / np.log(n)
    exact = bottom - (bottom - top) * pass_at_k_for_ks(n, c, ks)
    line = np.interp(xs, [x for x, _ in drawn], [y for _, y in drawn])
    assert np.max(np.abs(line - exact)) <= 0.75


def test_path_is_one_point_per_pair_to_a_tenth_of_a_pixel():
    drawn = _path(np.array([56.0, 60.04, 70.26]), np.array([256.0, 250.0, 16.01]))
    assert drawn == "M56.0,256.0 L60.0,250.0 L70.3,16.0"


def test_n_of_one_draws_without_dividing_by_zero():
    chart = curve_chart(calculate(1, 1, 1))
    assert chart.marker[1] == pytest.approx(chart.plot[1])


def test_histogram_keeps_broken_and_solid_apart():
    assert rate_bins([0, 0, 0.05, 0.5, 1]) == [("0", 2), ("0–10", 1), ("10–20", 0), ("20–30", 0), ("30–40", 0),
                                               ("40–50", 0), ("50–60", 1), ("60–70", 0), ("70–80", 0),
                                               ("80–90", 0), ("90–100", 0), ("100", 1)]


def test_histogram_tallest_bar_fills_the_plot():
    chart = histogram_chart([0, 0, 0, 0.5])
    _, top, _, bottom = chart.plot
    assert max(bar["height"] for bar in chart.bars) == pytest.approx(bottom - top)


def test_difference_chart_sorts_gains_first_and_uses_round_ticks():
    chart = difference_chart(["a", "b", "c"], [-0.2, 0.1, 0.0], 1)
    assert [bar["title"].split(":")[0] for bar in chart.bars] == ["b", "c", "a"]
    assert [tick.text for tick in chart.y_ticks] == ["−20", "−10", "0", "+10", "+20"]
    assert chart.bars[2]["css"] == "bar-negative"
    assert "ahead on 1 problem, behind on 1 problem, level on 1 problem" in chart.description


def test_difference_chart_of_many_problems_draws_at_most_max_bars_of_means():
    differences = [i / 10_000 - 0.5 for i in range(10_000)]
    chart = difference_chart([f"t{i}" for i in range(10_000)], differences, 1)
    assert len(chart.bars) == MAX_BARS
    assert chart.bars[0]["title"].startswith("t9999 to ") and "problems): +" in chart.bars[0]["title"]
    assert "Each bar is the mean of about 33 problems." in chart.description


def test_histogram_caption_agrees_with_one_problem():
    chart = histogram_chart([0.0, 1.0, 1.0, 0.5])
    assert chart.description == "1 problem never passes, 2 problems always pass, 1 problem passes sometimes."
    assert histogram_chart([0.5, 0.5]).description == \
        "0 problems never pass, 0 problems always pass, 2 problems pass sometimes."


def test_difference_chart_of_just_over_max_bars_says_about_1_problem():
    chart = difference_chart([f"t{i}" for i in range(MAX_BARS + 1)], [0.01] * (MAX_BARS + 1), 1)
    assert "Each bar is the mean of about 1 problem." in chart.description


# The geometry of the labels. An SVG scales with its box, so the charts' text is sized in viewBox units
# in style.css, largest (FONT, COUNT_FONT) where the chart is narrowest; Label.box() is the room a label
# takes at that size, in DejaVu Sans (the widest common sans-serif face). tests/browser/test_browser_look.py
# checks the same in the browser.

CURVES = [(1, 1, 1), (2, 1, 2), (7, 3, 7), (10, 3, 5), (11, 0, 1), (46, 20, 46), (50, 49, 1), (51, 1, 51),
          (200, 57, 10), (999, 5, 100), (1000, 1, 1), (12_345, 10, 1), (10**5, 99_990, 10**5), (10**6, 2, 1),
          (999_999, 3, 9), (10**9, 2, 1), (10**12, 10**6, 10**12)]
HISTOGRAMS = [[0.5], [0, 1], [0, 0, 0.05, 0.5, 1], [i / 164 for i in range(165)], [0.0] * 999 + [0.95] * 999,
              [0.3] * 100_000, [i / 100_000 for i in range(100_001)]]
K_CURVES = [([(2, 1)], [1, 2]), ([(10, 3), (10, 0), (10, 10), (10, 7)], [1, 5]),
            ([(200, 57), (200, 0), (200, 200), (250, 3)], [1, 10, 100]), ([(10**6, 5), (10**6, 999_000)], [1, 1000]),
            ([(10**12, 10**6), (10**12, 1)], [1, 7])]
DIFFERENCES = [[0.0], [1.0, -1.0], [0.004, -0.001], [0.2, -0.2, 0.0], [i / 1000 - 0.5 for i in range(1000)]]


def every_chart():
    yield from (curve_chart(calculate(*nck)) for nck in CURVES)
    yield from (histogram_chart(rates) for rates in HISTOGRAMS)
    yield from (difference_chart([f"t{i}" for i in range(len(d))], d, 1) for d in DIFFERENCES)
    yield from (k_curve_chart(benchmark_of(counts, ks)) for counts, ks in K_CURVES)


def benchmark_of(counts, ks):
    return summarize([Problem(f"t{i}", n, c) for i, (n, c) in enumerate(counts)], ks)


def overlap(one, other):
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


@pytest.mark.parametrize("chart", list(every_chart()), ids=lambda chart: type(chart).__name__)
def test_labels_do_not_overlap_at_the_largest_size(chart):
    boxes = [(label.text, label.box()) for label in chart.labels]
    clashes = [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:] if overlap(box_a, box_b)]
    assert clashes == []


@pytest.mark.parametrize("chart", list(every_chart()), ids=lambda chart: type(chart).__name__)
def test_labels_stay_inside_the_svg_at_the_largest_size(chart):
    for label in chart.labels:
        left, top, right, bottom = label.box()
        assert left >= EDGE - 0.5 and right <= WIDTH - EDGE + 0.5, label
        assert top >= 0 and bottom <= HEIGHT, label


@pytest.mark.parametrize("chart", list(every_chart()), ids=lambda chart: type(chart).__name__)
def test_y_labels_sit_left_of_the_plot_and_x_labels_under_it(chart):
    left, top, right, bottom = chart.plot
    assert all(tick.box()[2] < left and top <= tick.y <= bottom for tick in chart.y_ticks)
    assert all(tick.box()[1] > bottom and left - 1 <= tick.x <= right + 1 for tick in getattr(chart, "x_ticks", []))
    assert chart.axis_label.box()[1] > max([bottom, *(tick.box()[3] for tick in getattr(chart, "x_ticks", []))])


def test_the_left_margin_grows_with_the_widest_y_label():
    narrow, wide = histogram_chart([0.5] * 4), histogram_chart([0.5] * 40_000)
    assert [tick.text for tick in wide.y_ticks][-1] == "40,000"
    assert wide.plot[0] - narrow.plot[0] == pytest.approx(text_width("40,000") - text_width("4"), abs=1)


@pytest.mark.parametrize("n, first, last", [(7, "1", "7"), (46, "1", "46"), (10**5, "1", "10,000"),
                                             (10**12, "10⁰", "10¹²")])
def test_curve_keeps_the_first_and_last_k_on_its_axis(n, first, last):
    texts = [tick.text for tick in curve_chart(calculate(n, 1, 1)).x_ticks]
    assert texts[0] == first and texts[-1] == last


def test_curve_labels_at_the_ends_of_the_axis_turn_inwards():
    ticks = curve_chart(calculate(10**12, 1, 1)).x_ticks
    assert (ticks[0].anchor, ticks[1].anchor, ticks[-1].anchor) == ("start", "middle", "end")


def test_histogram_axis_reads_0_to_100_with_broken_and_solid_at_the_ends():
    chart = histogram_chart([0, 0.05, 0.55, 1])
    assert [tick.text for tick in chart.x_ticks] == ["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]
    bars = chart.bars
    assert chart.x_ticks[0].x == pytest.approx(bars[0]["x"] + bars[0]["width"] / 2, abs=0.1)
    assert chart.x_ticks[-1].x == pytest.approx(bars[-1]["x"] + bars[-1]["width"] / 2, abs=0.1)
    # 10 is where the first of the ten inner bins ends and the second begins
    assert bars[1]["x"] + bars[1]["width"] < chart.x_ticks[1].x < bars[2]["x"]
    assert [bar["title"] for bar in (bars[0], bars[1], bars[-1])] == \
        ["exactly 0% (broken): 1 problem", "0–10%: 1 problem", "exactly 100% (solid): 1 problem"]


def test_histogram_counts_are_drawn_over_the_bars_when_they_fit():
    chart = histogram_chart([0, 0, 0.5, 1])
    counts = [(bar["count"].text if bar["count"] else None) for bar in chart.bars]
    assert counts == ["2", *[None] * 5, "1", *[None] * 4, "1"]
    assert all(bar["count"].box()[3] <= bar["y"] for bar in chart.bars if bar["count"])
    assert chart.plot[1] >= COUNT_FONT  # room over the tallest bar for its count


def test_histogram_counts_too_wide_for_their_bars_are_left_to_the_bars_titles():
    chart = histogram_chart([0.0] * 10_000 + [0.5])
    assert all(bar["count"] is None for bar in chart.bars)
    assert chart.bars[0]["title"] == "exactly 0% (broken): 10,000 problems"


@pytest.mark.parametrize("text, wider_than", [("100%", "10%"), ("10⁶", "10"), ("−0.5", "0.5"), ("1,000", "1000")])
def test_text_width_grows_with_the_characters(text, wider_than):
    assert text_width(text) > text_width(wider_than) > 0


def test_a_label_box_follows_its_anchor_and_baseline():
    label = Label(100, 50, "10", anchor="end", dy=0.5)
    left, top, right, bottom = label.box()
    assert right == 100 and left == pytest.approx(100 - text_width("10"))
    assert top < 50 + 0.5 * FONT < bottom


# --- pass@k and pass^k of a benchmark against k (issue 9 §5) -------------------------------------

def bands(chart):
    """{name: (line points, band points)} of the k-curve chart."""
    return {line["name"]: (points(line["path"]), points(line["band"] or "")) for line in chart.lines}


@pytest.mark.parametrize("counts, ks", K_CURVES)
def test_k_curve_bands_contain_their_lines_and_pass_hat_k_stays_under_pass_at_k(counts, ks):
    chart = k_curve_chart(benchmark_of(counts, ks))
    drawn = bands(chart)
    for name, (line, band) in drawn.items():
        if len(counts) < 2:
            assert band == []
            continue
        upper, lower = band[:len(line)], band[len(line):][::-1]
        assert [x for x, _ in upper] == [x for x, _ in line] == [x for x, _ in lower]
        assert all(high <= y + 0.1 and y <= low + 0.1 for (_, y), (_, high), (_, low) in zip(line, upper, lower))
    at, hat = drawn["pass@k"][0], drawn["pass^k"][0]
    assert all(y_at <= y_hat + 0.1 for (_, y_at), (_, y_hat) in zip(at, hat))   # higher on the page is larger
    for k, pass_at_k, ci, pass_hat_k, hat_ci in chart.points:
        assert pass_hat_k <= pass_at_k * (1 + 1e-13)
        if ci:
            assert ci[0] <= pass_at_k <= ci[1] and hat_ci[0] <= pass_hat_k <= hat_ci[1]


def test_k_curve_draws_every_k_to_the_smallest_n_when_few_and_marks_the_chosen_ones():
    chart = k_curve_chart(benchmark_of([(12, 5), (10, 2)], [1, 3, 20]))
    assert [point[0] for point in chart.points] == list(range(1, 11)) and not chart.log_x
    assert [marker["title"].split(":")[0] for marker in chart.markers] == ["pass@1", "pass@3", "pass^1", "pass^3"]
    assert "pass@3: " in chart.description and "pass^3: " in chart.description


def test_k_curve_of_large_n_samples_at_most_60_log_spaced_ks_plus_the_chosen_and_reads_the_summary():
    summary = benchmark_of([(10**6, 5), (10**6, 999_000), (500_000, 250_000)], [1, 777])
    chart = k_curve_chart(summary)
    ks = [point[0] for point in chart.points]
    assert chart.log_x and ks[0] == 1 and ks[-1] == 500_000 and 777 in ks and len(ks) <= 61
    row = next(row for row in summary.results if row.k == 777)
    point = chart.points[ks.index(777)]
    assert point[1:] == (row.pass_at_k, row.ci95, row.pass_hat.pass_at_k, row.pass_hat.ci95)


def test_k_curve_is_left_out_when_every_problem_has_one_sample():
    assert k_curve_chart(benchmark_of([(1, 1), (1, 0)], [1])) is None


def test_the_curve_over_k_computes_fewer_ks_for_large_benchmarks():
    """Its cost follows the request's size: 60 ks up to 25,000 problems, then fewer, never under 15."""
    from passk.writing import charts
    assert curves.curve_points(164) == curves.curve_points(25_000) == 60
    assert curves.curve_points(50_000) == 30 and curves.curve_points(100_000) == 15
    assert curves.curve_points(10**7) == 15


# The forest plot of several runs (passk.writing.charts.interval_chart)

def ranking_of(*runs, ks=(1,)):
    """rank_runs over runs given as (name, [(n, c), ...]), task ids by position."""
    return rank_runs([(name, [Problem(f"t{i}", n, c) for i, (n, c) in enumerate(counts)]) for name, counts in runs],
                     list(ks))


THREE_RUNS = ranking_of(("strong", [(20, 15 + i % 6) for i in range(30)]), ("weak", [(20, 2 + i % 5) for i in range(30)]),
                        ("weaker", [(20, 2 + (i * 3) % 5 - (i % 7 == 0)) for i in range(30)]))
FOREST_CASES = [
    THREE_RUNS.results[0],
    ranking_of(("a", [(10, 5), (10, 6)]), ("b", [(10, 5), (10, 5)])).results[0],
    ranking_of(*((f"model-{i}-with-a-rather-long-results-file-name.jsonl", [(10, (i + j) % 11) for j in range(12)])
                 for i in range(12))).results[0],
    ranking_of(("all", [(10, 10)] * 3), ("none", [(10, 0)] * 3), ("half", [(10, 5)] * 3)).results[0],
    ranking_of(("one", [(5, 2)]), ("two", [(50, 20), (50, 21)]), ks=(10,)).results[0],   # "one" undefined at 10
]


def forest(result):
    return interval_chart(result.ranking, result.k)


def test_the_forest_plot_has_a_row_per_run_best_first_with_its_letters():
    chart = forest(THREE_RUNS.results[0])
    assert [row["name"] for row in chart.rows] == ["strong", "weak", "weaker"]
    texts = [[label.text for label in row["labels"]] for row in chart.rows]
    assert texts == [["strong a", "87.50%"], ["weak b", "20.00%"], ["weaker b", "19.17%"]]
    assert [(row["shown"], row["group"]) for row in chart.rows] == [("strong", "a"), ("weak", "b"), ("weaker", "b")]
    ys = [row["y"] for row in chart.rows]
    assert ys == sorted(ys) and len(set(ys)) == 3


@pytest.mark.parametrize("result", FOREST_CASES, ids=lambda result: f"{len(result.ranking)} runs")
def test_the_forest_plot_whiskers_stay_in_the_plot_around_their_dots(result):
    chart = forest(result)
    left, top, right, bottom = chart.plot
    low, high = interval_axis([v for row in result.ranking if row.pass_at_k is not None
                               for v in (row.pass_at_k, *(row.ci95 or ()))])[:2]
    for row, run in zip(chart.rows, result.ranking):
        assert top <= row["y"] <= bottom
        if run.pass_at_k is None:
            assert row["dot"] is None and row["low"] is None
            continue
        assert left <= row["dot"] <= right
        assert row["dot"] == pytest.approx(left + (right - left) * (run.pass_at_k - low) / (high - low), abs=0.05)
        if run.ci95:
            assert left <= row["low"] <= row["dot"] <= row["high"] <= right


@pytest.mark.parametrize("result", FOREST_CASES, ids=lambda result: f"{len(result.ranking)} runs")
def test_the_forest_plot_labels_neither_overlap_nor_leave_the_svg(result):
    chart = forest(result)
    boxes = [(label.text, label.box()) for label in chart.labels]
    assert [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:] if overlap(box_a, box_b)] == []
    for label in chart.labels:
        left, top, right, bottom = label.box()
        assert left >= EDGE - 0.5 and right <= WIDTH - EDGE + 0.5 and top >= 0 and bottom <= chart.height, label
    assert all(tick.box()[1] > chart.plot[3] for tick in chart.x_ticks)


def test_long_run_names_are_shortened_in_the_plot_but_whole_in_its_text():
    chart = forest(FOREST_CASES[2])
    name = "model-0-with-a-rather-long-results-file-name.jsonl"
    drawn = [row["shown"] for row in chart.rows]
    assert all(text.endswith("…") for text in drawn) and name not in drawn
    assert name in chart.description and any(row["title"].startswith(name) for row in chart.rows)


def test_the_forest_plot_description_has_every_runs_numbers():
    chart = forest(THREE_RUNS.results[0])
    strong = THREE_RUNS.results[0].ranking[0]
    assert chart.description.startswith("pass@1 of 3 runs, best first: strong, pass@1: 87.50% (95% interval ")
    assert f"{percent(strong.ci95[0])} – {percent(strong.ci95[1])}), group a; weak" in chart.description
    undefined = forest(FOREST_CASES[4])
    assert "one, pass@10: undefined" in undefined.description


@pytest.mark.parametrize("values, axis", [
    ([0.42, 0.51], (0.42, 0.52, 0.02)),
    ([0.1, 0.9], (0.0, 1.0, 0.25)),
    ([0.5, 0.5], (0.495, 0.505, 0.005)),
    ([0.0, 0.03], (0.0, 0.03, 0.01)),
    ([0.97, 1.0], (0.97, 1.0, 0.01)),
    ([0.2, 0.7], (0.2, 0.7, 0.1)),
])
def test_the_forest_plot_axis_is_zoomed_to_round_ticks(values, axis):
    low, high, step = interval_axis(values)
    assert (low, high, step) == pytest.approx(axis)
    assert low <= min(values) and high >= max(values) and 0 <= low and high <= 1
    assert round((high - low) / step) <= 5


def test_a_wide_spread_uses_the_whole_axis_with_its_ticks_labelled():
    chart = forest(FOREST_CASES[3])
    assert not chart.zoomed and [tick.text for tick in chart.x_ticks] == ["0%", "25%", "50%", "75%", "100%"]
    assert forest(THREE_RUNS.results[0]).x_ticks[0].text == "0%"


def test_histogram_counts_of_three_digits_are_drawn_smaller_rather_than_left_out():
    chart = histogram_chart([0.0] * 150 + [0.5])
    counts = [bar["count"] for bar in chart.bars if bar["count"]]
    assert [count.text for count in counts] == ["150", "1"]
    assert {count.css for count in counts} == {"bar-count bar-count-wide"}
    assert all(count.font == WIDE_COUNT_FONT < COUNT_FONT for count in counts)
    for bar in chart.bars:
        if bar["count"]:
            left, top, right, bottom = bar["count"].box()
            assert right - left <= bar["width"] and bottom <= bar["y"] and top >= 0
