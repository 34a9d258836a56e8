"""Geometry for the server-drawn SVG charts (the templates only place it).

An SVG scales with its box, so everything here is in viewBox units, and so is
the size of the chart's text in static/style.css: a constant size on screen,
about 13 px, which is the most viewBox units (FONT) where the chart is
narrowest, 12 px on a 320 px phone. Margins fit the widest label at FONT, and
labels are spaced so that none overlaps another at FONT; at the smaller sizes
of wider charts they only have more room."""

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias, TypedDict, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from passk.results import benchmark

from passk.maths import estimator
from passk.writing.display import axis_ticks, percent
from passk.grammar import agree, plural
from passk.writing.display import points as points_text
from passk.maths.estimator import Floats, Ints
from passk.limits import TooLarge
from passk.results.curves import FEWEST_DRAWN, CurveComparison, curve_points, ks_to_draw

if TYPE_CHECKING:   # for their types only: the charts need neither module at run time
    from passk.results.calculator import Calculation
    from passk.results.ranking import RunRank

WIDTH, HEIGHT = 640, 300
FONT = 27               # tick and axis labels where the chart is narrowest (style.css: .tick, .axis-label)
COUNT_FONT = 25         # the counts over the histogram's bars, likewise (style.css: .bar-count)
WIDE_COUNT_FONT = 20    # ... when a count of three digits or more would not fit its bar at COUNT_FONT (.bar-count-wide)
GAP = 6                 # from the plot to its x labels, and from a bar to its count
Y_GAP = 10              # from the plot to the right end of its y labels
EDGE = 2                # kept clear at the SVG's edges
MIN_MARGIN = 16         # at the top and on the right of a plot
X_TICK_DY = 0.95        # baseline of an x label below its anchor, in em: its top at the anchor
AXIS_LABEL_DY = 2.3     # ... of the axis title, in the row under the x labels
Y_TICK_DY = 0.35        # ... of a y label: centred on its grid line
MAX_POINTS = 120        # log-spaced points of a curve: the plot is about 540 units wide
POINTS_PER_DECADE = 20  # ... or more at huge n, whose steep rise needs them (both keep within 0.7 units)
MAX_BARS = 300          # bars of the difference chart; more problems share bars

# Advance widths in em of DejaVu Sans, the widest of the usual sans-serif faces (Helvetica, Arial,
# Roboto and San Francisco are narrower), and its ascent and descent: the box a label covers.
_EM = {**dict.fromkeys("0123456789", 0.64), **dict.fromkeys("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", 0.41), "%": 0.96, ",": 0.32,
       ".": 0.32, " ": 0.32, "–": 0.5, "−": 0.84, "+": 0.84, "k": 0.58}
LETTER_EM = 0.66        # any other character
ASCENT, DESCENT = 0.93, 0.24

Box: TypeAlias = tuple[float, float, float, float]    # (left, top, right, bottom) a label covers
Plot: TypeAlias = tuple[int, int, int, int]           # (left, top, right, bottom) of the plotting area
Interval: TypeAlias = tuple[float, float]             # a 95% interval (low, high)
KPoint: TypeAlias = tuple[int, float, Interval | None, float, Interval | None]   # k, pass@k, ci95, pass^k, ci95


@lru_cache(maxsize=4096)
def text_width(text: str, font: float = FONT) -> float:
    """How wide `text` is at `font` (viewBox units), a little over its width in DejaVu Sans.

    Kept per text: the same tick labels (1, 10, 10², 25%, ...) are measured on every chart drawn.
    """
    return font * sum(_EM.get(char, LETTER_EM) for char in text)


@dataclass(frozen=True)
class Label:
    """A <text> of a chart: anchored at (x, y), its baseline dy em below y."""

    x: float
    y: float
    text: str
    css: str = "tick"
    anchor: str = "middle"   # text-anchor: start, middle or end
    dy: float = 0.0

    @property
    def font(self) -> int:
        return _FONTS.get(self.css, FONT)

    def box(self) -> Box:
        """(left, top, right, bottom) the label covers at its largest size."""
        font = self.font
        width = text_width(self.text, font)
        left = self.x - (width / 2 if self.anchor == "middle" else width if self.anchor == "end" else 0)
        baseline = self.y + self.dy * font
        return (left, baseline - ASCENT * font, left + width, baseline + DESCENT * font)


_FONTS = {"bar-count": COUNT_FONT, "bar-count bar-count-wide": WIDE_COUNT_FONT}   # a label's size by its class


def _overlap(one: Box, other: Box, clearance: float = 0.0) -> bool:
    """True when two boxes (left, top, right, bottom) come closer than clearance."""
    return not (one[2] + clearance <= other[0] or other[2] + clearance <= one[0] or
                one[3] <= other[1] or other[3] <= one[1])


def _spaced(labels: list[Label], clearance: float = 4) -> list[Label]:
    """The labels, left to right, less any that would come closer than clearance to the one kept before.

    The first and the last are kept (they are 1 and n): the ones before the last give way to it.
    """
    kept = labels[:1]
    for label in labels[1:-1]:
        if not _overlap(kept[-1].box(), label.box(), clearance):
            kept.append(label)
    if len(labels) > 1:
        while len(kept) > 1 and _overlap(kept[-1].box(), labels[-1].box(), clearance):
            kept.pop()
        kept.append(labels[-1])
    return kept


def _left_margin(y_labels: Iterable[str]) -> int:
    """Room on the left for the widest y label."""
    return math.ceil(EDGE + Y_GAP + max(text_width(text) for text in y_labels))


def _bottom_margin(rows: int) -> int:
    """Room under the plot for `rows` rows of text: the x labels and the axis title (2), or the title (1)."""
    return math.ceil(GAP + ((AXIS_LABEL_DY if rows == 2 else X_TICK_DY) + DESCENT) * FONT + EDGE)


def _y_labels(ys_and_texts: Iterable[tuple[float, str]], left: float) -> list[Label]:
    return [Label(left - Y_GAP, y, text, anchor="end", dy=Y_TICK_DY) for y, text in ys_and_texts]


def _axis_label(plot: Plot, text: str, rows: int = 2) -> Label:
    left, _, right, bottom = plot
    return Label(round((left + right) / 2, 1), bottom + GAP, text, css="axis-label",
                 dy=AXIS_LABEL_DY if rows == 2 else X_TICK_DY)


@dataclass
class CurveChart:
    """pass@k against k from 1 to n, with the chosen k marked."""

    width: int
    height: int
    unbiased_path: str
    biased_path: str
    marker: tuple[float, float]   # (x, y) of the chosen k
    x_ticks: list[Label]   # Labels under the plot, each at a vertical grid line (its x)
    y_ticks: list[Label]   # Labels left of the plot, each on a horizontal grid line (its y)
    axis_label: Label
    log_x: bool
    plot: Plot             # (left, top, right, bottom) of the plotting area
    description: str

    @property
    def labels(self) -> list[Label]:
        return [*self.y_ticks, *self.x_ticks, self.axis_label]


def _ks_to_draw(n: int) -> Ints:
    """Every k when n is small, else about max(MAX_POINTS, POINTS_PER_DECADE per power of ten) log-spaced k's."""
    points = max(MAX_POINTS, round(POINTS_PER_DECADE * math.log10(n)))
    if n <= points:
        return np.arange(1, n + 1)
    spaced = (float(n) ** _log_steps(points)).round().astype(np.int64)  # 1 to n, even on a log axis
    kept = np.empty(spaced.size, dtype=bool)   # never falling, so a repeat follows the k it repeats
    kept[0] = True
    np.greater(spaced[1:], spaced[:-1], out=kept[1:])
    return spaced[kept]


@lru_cache(maxsize=None)   # one a number of points: at most a few hundred, and the same ones on every chart
def _log_steps(points: int) -> Floats:
    """0 to 1 in `points` even steps: the exponents of n that _ks_to_draw rounds (kept read-only)."""
    steps = np.arange(points) / (points - 1)
    steps.flags.writeable = False
    return steps


def _path(xs: Floats, ys: Floats) -> str:
    """An SVG path through the points to a tenth of a pixel, 'M56.0,256.0 L60.7,250.1 ...', each as '%.1f' writes it."""
    return _paths(xs, ys)[0]


def _paths(xs: Floats, *ys_rows: Floats) -> list[str]:
    """_path(xs, ys) for each ys, the xs' texts found once.

    '%.1f' rounds a coordinate's exact binary value to tenths; so does rounding 10 x to a whole number, unless 10 x
    lies within its rounding error of a half (or a coordinate is off the table of texts, or not above 0, where
    '%.1f' would write -0.0): then '%.1f' writes them all. Looking the texts up costs a fifth of writing them.
    """
    coordinates = np.vstack([xs, *ys_rows])
    scaled = coordinates * 10
    tenths = np.floor(scaled + 0.5)
    x_texts, y_texts = _coordinate_texts()
    if not (coordinates.size and coordinates.min() > 0 and tenths.max() < len(x_texts)
            and np.abs(scaled - tenths).max() < 0.499999):
        return [("M" + " L".join(["%.1f,%.1f"] * len(xs))) % tuple(np.column_stack([xs, ys]).ravel().tolist())
                for ys in ys_rows]
    rows = tenths.astype(np.intp)
    points = np.empty(2 * len(xs), dtype=object)   # "x," and "y L" in turn: joined, a path with " L" to spare
    points[0::2] = x_texts[rows[0]]
    paths = []
    for row in rows[1:]:
        points[1::2] = y_texts[row]
        paths.append("M" + "".join(points.tolist())[:-2])
    return paths


@lru_cache(maxsize=1)
def _coordinate_texts() -> tuple[NDArray[np.object_], NDArray[np.object_]]:
    """Every coordinate from 0.0 to WIDTH.0 a tenth apart as '%.1f' writes it, with "," after it and with " L":
    a path's points, made at the first chart drawn (some 0.9 MB)."""
    texts = [f"{tenths // 10}.{tenths % 10}" for tenths in range(10 * WIDTH + 1)]
    return np.array([text + "," for text in texts], dtype=object), np.array([text + " L" for text in texts],
                                                                            dtype=object)


def _curve_frame() -> tuple[Plot, list[Label], dict[bool, Label]]:
    """The calculator's chart's plot, y labels and axis titles (linear, log): the same for every calculation."""
    y_texts = [f"{t}%" for t in (0, 25, 50, 75, 100)]
    plot = (_left_margin(y_texts), MIN_MARGIN, WIDTH - MIN_MARGIN, HEIGHT - _bottom_margin(rows=2))
    top, bottom = plot[1], plot[3]
    y_ticks = _y_labels([(round(bottom - (bottom - top) * (t / 100), 1), text)
                         for t, text in zip((0, 25, 50, 75, 100), y_texts)], plot[0])
    return plot, y_ticks, {log_x: _axis_label(plot, "k, samples drawn" + (" (log scale)" if log_x else ""))
                           for log_x in (False, True)}


# Worked out once: a page's chart computes only what its n, c and k change (the templates draw these once too).
CURVE_PLOT, CURVE_Y_TICKS, CURVE_AXIS_LABELS = _curve_frame()


def curve_chart(calc: "Calculation") -> CurveChart:
    """The chart of pass@k (and the biased estimate, dashed) for k = 1..n, with calc's k marked."""
    n, c, k = calc.n, calc.c, calc.k
    ks = _ks_to_draw(n)
    log_x = n > 50
    left, top, right, bottom = plot = CURVE_PLOT

    def x_of(values: ArrayLike) -> Floats:  # a k (then a numpy float), or an array of them
        if n == 1:
            return np.full(np.shape(values), (left + right) / 2)
        share = np.log(values) / math.log(n) if log_x else (np.asarray(values) - 1) / (n - 1)
        return left + (right - left) * share

    @overload
    def y_of(values: float) -> float: ...
    @overload
    def y_of(values: Floats) -> Floats: ...
    def y_of(values: float | Floats) -> float | Floats:  # a probability, or an array of them
        return bottom - (bottom - top) * values

    xs = x_of(ks)
    unbiased = estimator.pass_at_k_for_ks(n, c, ks)
    biased = -np.expm1(ks * np.log1p(-c / n)) if c < n else np.ones(ks.shape)
    unbiased_path, biased_path = _paths(xs, y_of(unbiased), y_of(biased))
    return CurveChart(
        width=WIDTH, height=HEIGHT,
        unbiased_path=unbiased_path,
        biased_path=biased_path,
        marker=(round(float(x_of(k)), 1), round(y_of(calc.pass_at_k), 1)),
        x_ticks=_x_ticks(n, log_x, x_of, plot),
        y_ticks=list(CURVE_Y_TICKS),
        axis_label=CURVE_AXIS_LABELS[log_x],
        log_x=log_x,
        plot=plot,
        description=_curve_description(n, c, k),
    )


def _x_ticks(n: int, log_x: bool, x_of: Callable[[list[int]], Floats], plot: Plot) -> list[Label]:
    """Labels of k under the plot: 1, about five steps and n on a linear axis; on a log axis the powers
    of ten, or every second, third... of them: no more than seven, and the first choice whose labels all fit."""
    def labels(values: list[int]) -> list[Label]:
        return [_x_label(x, text, plot) for text, x in zip(axis_ticks(values), x_of(values).tolist())]

    if not log_x:
        step = max(1, math.ceil(n / 5))
        return _spaced(labels(sorted({1, *range(step, n + 1, step), n})))
    top = int(math.log10(n))
    for every in range(math.ceil((top + 1) / 7), top + 2):
        fitting = labels([10 ** p for p in range(0, top + 1, every)])
        if len(_spaced(fitting)) == len(fitting):   # none left out (_spaced keeps some of these very labels)
            return fitting
    raise AssertionError("unreachable: the last choice has one label, which always fits")


def _x_label(x: float, text: str, plot: Plot) -> Label:
    """An x label centred under its tick; at the ends, starting or ending there instead where centred it
    would run into the y labels or past the SVG's edge."""
    half = text_width(text) / 2
    anchor = "start" if x - half < plot[0] - Y_GAP + 3 else "end" if x + half > WIDTH - EDGE else "middle"
    return Label(round(x, 1), plot[3] + GAP, text, anchor=anchor, dy=X_TICK_DY)


def _curve_description(n: int, c: int, k: int) -> str:
    """What the curve shows, in one sentence for screen readers and the caption."""
    if c == 0:
        return f"No sample passed, so pass@k is 0% for every k from 1 to {n:,}; the marked point is k = {k:,}."
    if c == n:
        return f"Every sample passed, so pass@k is 100% for every k from 1 to {n:,}; the marked point is k = {k:,}."
    reach = n - c + 1  # from this k on every draw holds a pass
    return (f"pass@k rises from {percent(c / n)} at k = 1 to 100% at k = {reach:,} and stays there; "
            f"the marked point is k = {k:,}.")


class CurveLine(TypedDict):
    """One line of the curve over k, and its 95% band (a closed path; None with one problem)."""
    name: str
    css: str
    band_css: str
    path: str
    band: str | None


class Marker(TypedDict):
    """A chosen k on a line of the curve over k, with its value as a title."""
    x: float
    y: float
    css: str
    title: str


@dataclass
class KCurveChart:
    """A benchmark's pass@k and pass^k against k from 1 to the smallest n, each in its 95% band."""

    width: int
    height: int
    lines: list[CurveLine]   # name, css, band_css, path, band (a closed path, or None with one problem)
    markers: list[Marker]    # x, y, css, title: the chosen ks on both lines
    points: list[KPoint]   # (k, pass@k, its ci95, pass^k, its ci95) drawn, for the tests and the text
    x_ticks: list[Label]
    y_ticks: list[Label]
    axis_label: Label
    log_x: bool
    plot: Plot
    description: str

    @property
    def labels(self) -> list[Label]:
        return [*self.y_ticks, *self.x_ticks, self.axis_label]


def k_curve_chart(summary: benchmark.Summary) -> KCurveChart | None:
    """pass@k (blue) and pass^k (orange, dashed) for k = 1..min n with 95% bands; None when min n is 1."""
    n = summary.min_n
    if n < 2:
        return None
    samples = np.fromiter((problem.n for problem in summary.problems), np.int64, len(summary.problems))
    correct = np.fromiter((problem.c for problem in summary.problems), np.int64, len(summary.problems))
    affordable = curve_points(len(summary.problems), estimator.stirling_work(samples, correct, hat=True))
    if affordable < FEWEST_DRAWN:   # the request's exact_work is spent: no curve rather than no page
        return None
    ks = ks_to_draw(n, summary.ks, affordable)
    try:
        curve = benchmark.curve_over_k(summary.problems, ks.tolist())
    except TooLarge:   # the chosen ks drawn too passed it
        return None
    log_x = n > 50
    y_texts = [f"{t}%" for t in (0, 25, 50, 75, 100)]
    left, top, right, bottom = _left_margin(y_texts), MIN_MARGIN, WIDTH - MIN_MARGIN, HEIGHT - _bottom_margin(rows=2)
    plot = (left, top, right, bottom)

    def x_of(values: ArrayLike) -> Floats:
        share = np.log(values) / math.log(n) if log_x else (np.asarray(values) - 1) / (n - 1)
        return left + (right - left) * share

    def y_of(values: ArrayLike) -> Floats:
        return bottom - (bottom - top) * np.asarray(values, dtype=float)

    xs = x_of(ks)
    lines: list[CurveLine]
    markers: list[Marker]
    lines, markers = [], []
    for name, css, band_css, values, intervals in (
            ("pass@k", "curve", "band-pass-at-k", curve.pass_at_k, curve.pass_at_k_ci95),
            ("pass^k", "curve-biased", "band-pass-hat-k", curve.pass_hat_k, curve.pass_hat_k_ci95)):
        lines.append(_curve_line(name, css, band_css, xs, y_of(values), intervals, y_of))
        for k in summary.ks:
            if k <= n:
                i = int(np.searchsorted(ks, k))
                markers.append({"x": round(float(xs[i]), 1), "y": round(float(y_of(values[i])), 1), "css": css,
                                "title": _point_text(name.replace("k", f"{k:,}"), values[i], intervals[i])})
    points = list(zip(ks.tolist(), curve.pass_at_k, curve.pass_at_k_ci95, curve.pass_hat_k, curve.pass_hat_k_ci95))
    beside = _beside_markers(summary, n, x_of, y_of)
    markers += beside
    return KCurveChart(
        width=WIDTH, height=HEIGHT, lines=lines, markers=markers, points=points,
        x_ticks=_x_ticks(n, log_x, x_of, plot),
        y_ticks=_y_labels([(round(float(y_of(t / 100)), 1), text) for t, text in zip((0, 25, 50, 75, 100), y_texts)],
                          left),
        axis_label=_axis_label(plot, "k, samples drawn" + (" (log scale)" if log_x else "")),
        log_x=log_x, plot=plot,
        description=" ".join([_k_curve_description(summary, points), *_beside_description(beside)]))


def _beside_markers(summary: benchmark.Summary, n: int, x_of: Callable[[ArrayLike], Floats],
                    y_of: Callable[[ArrayLike], Floats]) -> list[Marker]:
    """maj@k (css "majority") and G-Pass@k (css "g-pass") at the chosen ks where the summary has them."""
    rows = [("majority", f"maj@{row.k:,}", row.k, row.estimate)
            for row in (summary.majority.results if summary.majority else [])]
    tau = summary.g_pass.tau if summary.g_pass else None
    rows += [("g-pass", f"G-Pass@{row.k:,} at τ = {tau:g}", row.k, row.g_pass)
             for row in (summary.g_pass.results if summary.g_pass else [])]
    return [{"x": round(float(x_of(k)), 1), "y": round(float(y_of(estimate.value)), 1), "css": css,
             "title": _point_text(name, estimate.value, estimate.ci95)}
            for css, name, k, estimate in rows if estimate is not None and k <= n]


def _beside_description(markers: list[Marker]) -> list[str]:
    """The maj@k and G-Pass@k points, in words."""
    return [f"{label}: {'; '.join(marker['title'] for marker in markers if marker['css'] == css)}."
            for css, label in (("majority", "Majority vote (dots in green)"), ("g-pass", "G-Pass@k (open dots)"))
            if any(marker["css"] == css for marker in markers)]


def _curve_line(name: str, css: str, band_css: str, xs: Floats, ys: Floats, intervals: Sequence[Interval | None],
                y_of: Callable[[ArrayLike], Floats]) -> CurveLine:
    """A line through (xs, ys) and its band: the closed path along the intervals' highs and back along their lows
    (None when the first interval is None, as with one problem)."""
    band = None
    if intervals[0] is not None:
        low, high = np.array(intervals).T
        band = _path(np.concatenate([xs, xs[::-1]]), y_of(np.concatenate([high, low[::-1]]))) + " Z"
    return {"name": name, "css": css, "band_css": band_css, "path": _path(xs, ys), "band": band}


def _point_text(name: str, value: float, interval: Interval | None) -> str:
    """'pass@10: 45.00% (95% interval 40.00% – 50.00%)'."""
    within = f" (95% interval {percent(interval[0])} – {percent(interval[1])})" if interval else ""
    return f"{name}: {percent(value)}{within}"


def _k_curve_description(summary: benchmark.Summary, points: list[KPoint]) -> str:
    """Both curves from k = 1 to the smallest n, then each chosen k's values with their intervals."""
    first, last = points[0], points[-1]
    chosen = [point for point in points if point[0] in summary.ks]
    at_chosen = "; ".join(f"{_point_text(f'pass@{k:,}', at, at_ci)}, {_point_text(f'pass^{k:,}', hat, hat_ci)}"
                          for k, at, at_ci, hat, hat_ci in chosen)
    return (f"Over the {plural(len(summary.problems), 'problem')}, pass@k rises from {percent(first[1])} at k = 1 "
            f"to {percent(last[1])} at k = {last[0]:,}, and pass^k, all k samples passing, falls from "
            f"{percent(first[3])} to {percent(last[3])}; each in its 95% band. "
            + (f"At the chosen k: {at_chosen}." if at_chosen else ""))


class Bar(TypedDict):
    """One bar of a chart: its box, its class and the title a pointer shows."""
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


class HistogramBar(Bar):
    """One bin's bar, and its count above it where the counts fit."""
    count: Label | None


@dataclass
class Histogram:
    """Bars of how many problems fall in each pass-rate bin."""

    width: int
    height: int
    bars: list[HistogramBar]   # x, y, width, height, css, title, and count (a Label or None)
    x_ticks: list[Label]   # Labels under the plot, each with a tick mark (its x)
    y_ticks: list[Label]   # Labels left of the plot, each on a grid line (its y)
    axis_label: Label
    plot: Plot
    description: str

    @property
    def labels(self) -> list[Label]:
        return [*self.y_ticks, *self.x_ticks, self.axis_label, *(bar["count"] for bar in self.bars if bar["count"])]


def rate_bins(rates: ArrayLike) -> list[tuple[str, int]]:
    """Counts for: exactly 0, ten bins over (0, 1), exactly 1 — broken and solid stand apart."""
    rates = np.asarray(rates, dtype=float)
    inner = rates[(rates > 0) & (rates < 1)]
    middle = np.histogram(inner, bins=10, range=(0.0, 1.0))[0] if inner.size else np.zeros(10, int)
    labels = ["0"] + [f"{10 * i}–{10 * (i + 1)}" for i in range(10)] + ["100"]
    return list(zip(labels, [int((rates == 0).sum()), *map(int, middle), int((rates == 1).sum())]))


# Where each bin's bar starts, in bar widths: broken, a half-width gap, the ten bins over (0, 1)
# side by side, a gap, solid. The x axis reads 0 (under broken), 10, 20, ... 90 (where two of the
# ten meet), 100 (under solid).
BIN_SLOTS = [0.0, *(1.5 + i for i in range(10)), 12.0]
SLOTS = 13.0


def histogram_chart(rates: ArrayLike) -> Histogram:
    """The histogram of per-problem pass rates c/n."""
    bins = rate_bins(rates)
    tallest = max(count for _, count in bins) or 1
    step = max(1, math.ceil(tallest / 4))
    y_values = list(range(0, tallest + 1, step))
    left = _left_margin([f"{t:,}" for t in y_values])
    right = WIDTH - MIN_MARGIN
    slot = (right - left) / SLOTS
    counts = [f"{count:,}" for _, count in bins]
    # the counts at the largest size they fit their bars at (smaller on a phone when they are that wide), else none
    count_font = next((font for font in (COUNT_FONT, WIDE_COUNT_FONT)
                       if all(text_width(text, font) <= slot - 2 for text in counts)), None)
    with_counts = count_font is not None
    count_css = "bar-count" if count_font == COUNT_FONT else "bar-count bar-count-wide"
    top = math.ceil(GAP + ASCENT * count_font + EDGE) if count_font else MIN_MARGIN
    bottom = HEIGHT - _bottom_margin(rows=2)

    def y_of(count: int) -> float:
        return bottom - (bottom - top) * count / tallest

    bars: list[HistogramBar] = []
    for index, ((label, count), start) in enumerate(zip(bins, BIN_SLOTS)):
        css, title = ("bar-broken", "exactly 0% (broken)") if index == 0 else \
            ("bar-solid", "exactly 100% (solid)") if index == len(bins) - 1 else ("bar", f"{label}%")
        center = round(left + (start + 0.5) * slot, 1)
        bars.append({"x": round(left + start * slot + 1, 1), "y": round(y_of(count), 1),
                     "width": round(slot - 2, 1), "height": round(bottom - y_of(count), 1), "css": css,
                     "title": f"{title}: {plural(count, 'problem')}",
                     "count": Label(center, round(y_of(count) - GAP, 1), counts[index], css=count_css)
                     if count and with_counts else None})
    x_ticks = [Label(round(left + 0.5 * slot, 1), bottom + GAP, "0", dy=X_TICK_DY),
               *(Label(round(left + (1.5 + i) * slot, 1), bottom + GAP, str(10 * i), dy=X_TICK_DY)
                 for i in range(1, 10)),
               Label(round(left + 12.5 * slot, 1), bottom + GAP, "100", dy=X_TICK_DY)]
    plot = (left, top, right, bottom)
    return Histogram(
        width=WIDTH, height=HEIGHT, bars=bars, x_ticks=x_ticks,
        y_ticks=_y_labels([(round(y_of(t), 1), f"{t:,}") for t in y_values], left),
        axis_label=_axis_label(plot, "pass rate c/n (%)"),
        plot=plot,
        description=_histogram_description(bins[0][1], sum(count for _, count in bins[1:-1]), bins[-1][1]),
    )


def _histogram_description(never: int, sometimes: int, always: int) -> str:
    """'1 problem never passes, 2 problems always pass, 0 problems pass sometimes.'"""
    return (f"{plural(never, 'problem')} never {agree(never, 'passes', 'pass')}, "
            f"{plural(always, 'problem')} always {agree(always, 'passes', 'pass')}, "
            f"{plural(sometimes, 'problem')} {agree(sometimes, 'passes', 'pass')} sometimes.")


class DifferenceBar(Bar):
    """One bar of the difference chart: a problem, or the mean of a run of neighbours."""


@dataclass
class DifferenceChart:
    """Per-problem differences A − B for one k, sorted, as bars around zero."""

    width: int
    height: int
    k: int
    bars: list[DifferenceBar]   # x, y, width, height, css, title
    zero: float            # y of the zero line
    y_ticks: list[Label]   # Labels left of the plot, each on a grid line (its y)
    axis_label: Label
    plot: Plot
    description: str

    @property
    def labels(self) -> list[Label]:
        return [*self.y_ticks, self.axis_label]


def _points(share: float) -> str:
    """A difference as signed percentage points: +50, 0, −0.5."""
    return "0" if share == 0 else f"{100 * share:+g}".replace("-", "−")


def difference_chart(task_ids: Sequence[str], differences: Sequence[float], k: int) -> DifferenceChart:
    """Bars of d_i = pass@k of A minus pass@k of B, largest gain first.

    With more than MAX_BARS problems, each bar is the mean of a run of
    neighbours in that order, so the page stays small whatever the input.
    """
    order = sorted(range(len(differences)), key=lambda i: -differences[i])
    groups = [order[start:stop] for start, stop in _spans(len(order), MAX_BARS)]
    means = [sum(differences[i] for i in group) / len(group) for group in groups]
    largest = max(abs(d) for d in differences)
    reach = next(step for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0) if step >= largest - 1e-12)
    ticks = [-reach, -reach / 2, 0.0, reach / 2, reach]
    left = _left_margin([_points(t) for t in ticks])
    top, right, bottom = MIN_MARGIN, WIDTH - MIN_MARGIN, HEIGHT - _bottom_margin(rows=1)
    zero = (top + bottom) / 2

    def y_of(value: float) -> float:
        return zero - (bottom - top) / 2 * value / reach

    slot = (right - left) / len(groups)
    bars: list[DifferenceBar] = [
        {"x": round(left + position * slot, 2), "width": round(max(slot - 1, 0.5), 2),
         "y": round(min(zero, y_of(mean)), 2), "height": round(abs(y_of(mean) - zero), 2),
         "css": "bar" if mean >= 0 else "bar-negative", "title": _bar_title(task_ids, group, mean)}
        for position, (group, mean) in enumerate(zip(groups, means))]
    better = sum(d > 0 for d in differences)
    worse = sum(d < 0 for d in differences)
    averaged = "" if len(groups) == len(order) else \
        f" Each bar is the mean of about {plural(len(order) // len(groups), 'problem')}."
    return DifferenceChart(
        width=WIDTH, height=HEIGHT, k=k, bars=bars, zero=round(zero, 2),
        y_ticks=_y_labels([(round(y_of(t), 1), _points(t)) for t in ticks], left),
        axis_label=_axis_label((left, top, right, bottom), "problems, largest gain for A first", rows=1),
        plot=(left, top, right, bottom),
        description=f"pass@{k:,}: run A is ahead on {plural(better, 'problem')}, "
                    f"behind on {plural(worse, 'problem')}, "
                    f"level on {plural(len(differences) - better - worse, 'problem')}.{averaged}")


def _spans(count: int, most: int) -> list[tuple[int, int]]:
    """(start, stop) of at most `most` runs of nearly equal length that cover range(count)."""
    parts = min(count, most)
    edges = [round(part * count / parts) for part in range(parts + 1)]
    return list(zip(edges, edges[1:]))


def _bar_title(task_ids: Sequence[str], group: list[int], mean: float) -> str:
    if len(group) == 1:
        return f"{task_ids[group[0]]}: {100 * mean:+.2f} points"
    return (f"{task_ids[group[0]]} to {task_ids[group[-1]]} ({len(group):,} problems): "
            f"{100 * mean:+.2f} points on average")


class RunRow(TypedDict):
    """One run's row of the interval chart; dot, low and high are x positions (None where undefined)."""
    name: str
    shown: str
    group: str
    y: float
    labels: list[Label]
    dot: float | None
    low: float | None
    high: float | None
    title: str


@dataclass
class IntervalChart:
    """Several runs' pass@k at one k, best first: a dot at each estimate, a whisker over its 95% interval.

    Each run takes a row: its name and group letters on a line, its pass@k at the line's right end,
    and under them the dot and whisker on the shared x axis (0–100%, or zoomed to the data).
    """

    width: int
    height: int
    k: int
    rows: list[RunRow]   # name, shown (the name as drawn), group, title, y, dot, low, high (x or None),
                           # labels: the name with the group letters, and the value
    x_ticks: list[Label]   # Labels under the plot, each at a vertical grid line (its x)
    axis_label: Label
    plot: Plot
    zoomed: bool           # the x axis shows only part of 0–100%
    description: str

    @property
    def labels(self) -> list[Label]:
        return [*(label for row in self.rows for label in row["labels"]), *self.x_ticks, self.axis_label]


ROW_GAP = 4           # between a run's name line and its whisker
WHISKER_ROOM = 20     # the whisker's row: its caps are this tall
ROW_SPACE = 10        # between one run's whisker and the next run's name
NAME_GAP = 10         # between a run's name (with its group letters) and its value
INTERVAL_STEPS = (0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25)   # tick steps of a zoomed axis
MOST_INTERVALS = 5    # steps between ticks on the x axis at most
ZOOM_BELOW = 0.6      # the axis reads 0–100% when the data spread over this much of it


def interval_axis(values: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, step) of the x axis over values in [0, 1]: 0–100% by 25 when they spread wide, else the
    smallest round step with at most MOST_INTERVALS steps from a multiple of it below to one above.

    >>> interval_axis([0.42, 0.51]), interval_axis([0.1, 0.9])
    ((0.42, 0.52, 0.02), (0.0, 1.0, 0.25))
    """
    low, high = min(values, default=0.0), max(values, default=1.0)
    if high - low >= ZOOM_BELOW:
        return 0.0, 1.0, 0.25
    for step in INTERVAL_STEPS:
        first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if last == first:   # one value (or all equal): a step either side
            first, last = first - 1, last + 1
        first, last = max(first, 0), min(last, round(1 / step))
        if last - first <= MOST_INTERVALS:
            return round(first * step, 6), round(last * step, 6), step
    return 0.0, 1.0, 0.25


def _tick_text(value: float) -> str:
    """An x tick as a percentage with no more decimals than it needs: 40%, 2.5%, 0.5%."""
    return f"{round(value * 100, 1):g}%"


def _fitting(text: str, room: float) -> str:
    """text, shortened with an ellipsis until it is at most `room` wide at FONT."""
    if text_width(text) <= room:
        return text
    while text and text_width(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


def interval_chart(ranking: Sequence["RunRank"], k: int) -> IntervalChart:
    """The forest plot of one k's ranking (passk.results.ranking RunRank rows, best first): one row per run."""
    defined = [row for row in ranking if row.pass_at_k is not None]
    values = [value for row in defined for value in (row.pass_at_k, *(row.ci95 or ()))]
    low, high, step = interval_axis(values)
    ticks = [low + index * step for index in range(round((high - low) / step) + 1)]
    margin = math.ceil(EDGE + max(text_width(_tick_text(tick)) for tick in ticks) / 2)
    left, right, top = margin, WIDTH - margin, EDGE
    line = (ASCENT + DESCENT) * FONT
    row_height = line + ROW_GAP + WHISKER_ROOM + ROW_SPACE
    bottom = math.ceil(top + row_height * len(ranking))
    height = bottom + _bottom_margin(rows=2)

    def x_of(value: float) -> float:
        return round(left + (right - left) * (min(max(value, low), high) - low) / (high - low), 1)

    rows: list[RunRow] = []
    for index, row in enumerate(ranking):
        row_top = top + index * row_height
        y = round(row_top + line + ROW_GAP + WHISKER_ROOM / 2, 1)
        value = percent(row.pass_at_k) if row.pass_at_k is not None else "undefined"
        value_label = Label(right, round(row_top, 1), value, css="run-value", anchor="end", dy=ASCENT)
        letters = f" {row.group}" if row.group else ""   # drawn in the name's <text>, as a <tspan>
        shown = _fitting(row.name, right - left - text_width(value) - NAME_GAP - text_width(letters))
        name = Label(left, round(row_top, 1), shown + letters, css="run-name", anchor="start", dy=ASCENT)
        drawn: RunRow = {"name": row.name, "shown": shown, "group": row.group, "y": y,
                         "labels": [name, value_label], "dot": None, "low": None, "high": None,
                         "title": _run_text(row, k)}
        if row.pass_at_k is not None:
            drawn["dot"] = x_of(row.pass_at_k)
            if row.ci95:
                drawn["low"], drawn["high"] = x_of(row.ci95[0]), x_of(row.ci95[1])
        rows.append(drawn)
    plot = (left, top, right, bottom)
    x_ticks = _spaced([Label(x_of(tick), bottom + GAP, _tick_text(tick), dy=X_TICK_DY) for tick in ticks])
    zoomed = (low, high) != (0.0, 1.0)
    return IntervalChart(
        width=WIDTH, height=height, k=k, rows=rows, x_ticks=x_ticks,
        axis_label=_axis_label(plot, f"pass@{k:,} (%)" + (", zoomed" if zoomed else "")),
        plot=plot, zoomed=zoomed,
        description=f"pass@{k:,} of {plural(len(ranking), 'run')}, best first: "
                    + "; ".join(_run_text(row, k) for row in ranking) + ".")


def _run_text(row: "RunRank", k: int) -> str:
    """'model-a, pass@10: 45.00% (95% interval 40.00% – 50.00%), group a', or that it is undefined."""
    if row.pass_at_k is None:
        return f"{row.name}, pass@{k:,}: undefined"
    group = f", group {row.group}" if row.group else ""
    return f"{row.name}, {_point_text(f'pass@{k:,}', row.pass_at_k, row.ci95)}{group}"


@dataclass
class OverKChart:
    """Lines over k = 1..n, each in its shaded band: two runs' pass@k, or their difference A − B."""

    width: int
    height: int
    lines: list[CurveLine]   # name, css, band_css, path, band (a closed path, or None with one problem)
    x_ticks: list[Label]
    y_ticks: list[Label]
    axis_label: Label
    log_x: bool
    plot: Plot
    description: str
    zero: float | None = None        # y of the zero line (the difference chart)
    crossing: Marker | None = None   # the whole k where the curves cross, as a vertical line at x (its y unused)
    regions: list[Bar] = field(default_factory=list)   # shaded ks: where A is ahead or behind, may first lose
    region_legend: list[tuple[str, str]] = field(default_factory=list)   # (css, text) of each kind of region

    @property
    def labels(self) -> list[Label]:
        return [*self.y_ticks, *self.x_ticks, self.axis_label]


FIRST_LOSS_HEIGHT = 8   # the strip along the top of the plot that marks the confidence set for A's first loss
REGION_WORDS = {"ahead": "A significantly ahead", "behind": "A significantly behind", "undecided": "undecided"}


def _regions(curve: CurveComparison, xs: Floats, plot: Plot) -> tuple[list[Bar], list[tuple[str, str]]]:
    """The stretches of the plot where A is significantly ahead or behind (shaded; undecided left clear), and the
    strip along its top over the ks where A may first lose, each from half-way to the k shown before it to half-way
    to the k after; with the legend's (css, text) of each kind."""
    left, top, right, bottom = plot
    edges = [float(left), *((xs[1:] + xs[:-1]) / 2).tolist(), float(right)]
    index = {k: i for i, k in enumerate(curve.ks)}

    def stretch(first: int, last: int, y: float, height: float, css: str, title: str) -> Bar:
        x = edges[index[first]]
        return {"x": round(x, 1), "y": y, "width": round(edges[index[last] + 1] - x, 1), "height": height,
                "css": css, "title": title}
    regions, legend = [], []
    for standing, ranges, text in curve.standing_regions():
        regions += [stretch(first, last, float(top), float(bottom - top), f"region-{standing}",
                            f"{REGION_WORDS[standing]} at k = {ranges_text_of((first, last))}")
                    for first, last in ranges if standing != "undecided"]
        legend.append((f"region-{standing}", f"{REGION_WORDS[standing]}: k = {text}"))
    first_loss = curve.first_loss or []
    regions += [stretch(first, last, float(top), FIRST_LOSS_HEIGHT, "first-loss",
                        f"A may first lose at k = {ranges_text_of((first, last))} (95% confidence set)")
                for first, last in first_loss]
    if curve.first_loss_text:
        legend.append(("first-loss", f"where A first loses, 95% confidence set: {curve.first_loss_text}"))
    return regions, legend


def ranges_text_of(span: tuple[int, int]) -> str:
    """'37' or '1-37': one run of ks."""
    first, last = span
    return f"{first:,}" if first == last else f"{first:,}-{last:,}"


DIFFERENCE_STEPS = (0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5)   # tick steps of the difference's axis
DIFFERENCE_INTERVALS = 6   # steps between ticks at most


def _over_k_frame(n: int, y_texts: Sequence[str]) -> tuple[Plot, Callable[[ArrayLike], Floats], bool]:
    """The plot's box for y labels y_texts, and x_of for k = 1..n (on a log axis above 50), as k_curve_chart's."""
    log_x = n > 50
    left, top, right, bottom = _left_margin(y_texts), MIN_MARGIN, WIDTH - MIN_MARGIN, HEIGHT - _bottom_margin(rows=2)

    def x_of(values: ArrayLike) -> Floats:
        share = np.log(values) / math.log(n) if log_x else (np.asarray(values) - 1) / (n - 1)
        return left + (right - left) * share
    return (left, top, right, bottom), x_of, log_x


def runs_curve_chart(curve: CurveComparison) -> OverKChart | None:
    """Run A's (blue) and run B's (orange, dashed) pass@k for k = 1..n, each in its pointwise 95% band;
    None when n is 1."""
    if curve.n < 2:
        return None
    y_texts = [f"{t}%" for t in (0, 25, 50, 75, 100)]
    plot, x_of, log_x = _over_k_frame(curve.n, y_texts)
    left, top, _, bottom = plot

    def y_of(values: ArrayLike) -> Floats:
        return bottom - (bottom - top) * np.asarray(values, dtype=float)

    xs = x_of(curve.ks)
    points = curve.points
    lines = [_curve_line(name, css, band_css, xs, y_of([getattr(point, run) for point in points]),
                         [getattr(point, f"{run}_ci95") for point in points], y_of)
             for name, run, css, band_css in (("A", "a", "curve", "band-pass-at-k"),
                                              ("B", "b", "curve-biased", "band-pass-hat-k"))]
    first, last = points[0], points[-1]
    return OverKChart(
        width=WIDTH, height=HEIGHT, lines=lines, x_ticks=_x_ticks(curve.n, log_x, x_of, plot),
        y_ticks=_y_labels([(round(float(y_of(t / 100)), 1), text) for t, text in zip((0, 25, 50, 75, 100), y_texts)],
                          left),
        axis_label=_axis_label(plot, "k, samples drawn" + (" (log scale)" if log_x else "")), log_x=log_x, plot=plot,
        description=(f"Over the {plural(curve.problems, 'paired problem')}, run A's pass@k goes from "
                     f"{percent(first.a)} at k = 1 to {percent(last.a)} at k = {last.k:,}, and run B's from "
                     f"{percent(first.b)} to {percent(last.b)}; each in its 95% band."))


def difference_axis(values: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, step) of the difference's y axis: 0 and the values within, the smallest round step with at
    most DIFFERENCE_INTERVALS steps, within [-1, 1].

    >>> difference_axis([0.093, -0.42, 0.17])
    (-0.6, 0.2, 0.2)
    """
    low, high = min(0.0, *values), max(0.0, *values)
    for step in DIFFERENCE_STEPS:
        first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if last == first:
            last += 1
        if last - first <= DIFFERENCE_INTERVALS:
            return max(round(first * step, 6), -1.0), min(round(last * step, 6), 1.0), step
    return -1.0, 1.0, 0.5


def difference_curve_chart(curve: CurveComparison) -> OverKChart | None:
    """A − B for k = 1..n in its simultaneous 95% band, around a zero line, with the crossing marked;
    None when n is 1."""
    if curve.n < 2:
        return None
    points = curve.points
    bands = [point.band for point in points]
    low, high, step = difference_axis([value for point in points
                                       for value in (point.difference, *(point.band or ()))])
    ticks = [round(low + index * step, 6) for index in range(round((high - low) / step) + 1)]
    y_texts = [_points(tick) for tick in ticks]
    plot, x_of, log_x = _over_k_frame(curve.n, y_texts)
    left, top, _, bottom = plot

    def y_of(values: ArrayLike) -> Floats:
        return bottom - (bottom - top) * (np.asarray(values, dtype=float) - low) / (high - low)

    xs = x_of(curve.ks)
    line = _curve_line("A − B", "curve", "band-pass-at-k", xs, y_of([point.difference for point in points]),
                       bands, y_of)
    regions, region_legend = _regions(curve, xs, plot)
    crossing: Marker | None = None
    if curve.crossing:
        crossing = {"x": round(float(x_of(curve.crossing.k)), 1), "y": float(top), "css": "marker-line",
                    "title": f"The curves cross at k = {curve.crossing.k:,}"}
    first, last = points[0], points[-1]
    return OverKChart(
        width=WIDTH, height=HEIGHT, lines=[line], x_ticks=_x_ticks(curve.n, log_x, x_of, plot),
        y_ticks=_y_labels([(round(float(y_of(tick)), 1), text) for tick, text in zip(ticks, y_texts)], left),
        axis_label=_axis_label(plot, "k, samples drawn" + (" (log scale)" if log_x else "")), log_x=log_x, plot=plot,
        zero=round(float(y_of(0.0)), 1), crossing=crossing, regions=regions, region_legend=region_legend,
        description=(f"A − B goes from {points_text(first.difference)} at k = 1 to "
                     f"{points_text(last.difference)} at k = {last.k:,}"
                     + (", in a band that holds at every k shown at once." if first.band else ".")))
