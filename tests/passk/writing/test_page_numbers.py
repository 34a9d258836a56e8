"""The page's numbers written the cheap way read as the plain way writes them: a chart's coordinates as '%.1f'
does (looked up in a table of texts), a probability's decimals at the edges where decimal() skips a check."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from passk.results.calculator import printable
from passk.writing.charts import _path, _paths
from passk.writing.display import decimal, unbreakable


def written_by_percent_format(xs, ys):
    """A path as '%.1f' writes every coordinate: what _path gives, however it gets there."""
    return ("M" + " L".join(["%.1f,%.1f"] * len(xs))) % tuple(np.column_stack([xs, ys]).ravel().tolist())


coordinates = st.lists(st.floats(min_value=0, max_value=700, allow_subnormal=True), min_size=1, max_size=60)


@given(coordinates, coordinates)
def test_a_path_writes_each_coordinate_as_percent_format_does(xs, ys):
    size = min(len(xs), len(ys))
    xs, ys = np.array(xs[:size]), np.array(ys[:size])
    assert _path(xs, ys) == written_by_percent_format(xs, ys)


# Halves, where rounding 10 x could go either way, and their neighbours an ulp off; the table's ends; -0.0.
AWKWARD = [0.05, 0.15, 0.25, 12.25, 12.35, 56.45, 639.95, np.nextafter(0.15, 0), np.nextafter(0.15, 1),
           np.nextafter(12.35, 0), np.nextafter(12.35, 13), 0.0, -0.0, 1e-300, 0.04999999999, 640.0, 640.04, 640.05,
           640.06, 1e9, -0.04, -3.0]


@pytest.mark.parametrize("awkward", AWKWARD)
def test_a_path_through_an_awkward_coordinate_writes_it_as_percent_format_does(awkward):
    xs = np.array([56.3, awkward, 100.0])
    ys = np.array([awkward, 128.0, 256.04])
    assert _path(xs, ys) == written_by_percent_format(xs, ys)
    assert _paths(xs, ys, xs[::-1].copy()) == [written_by_percent_format(xs, ys),
                                               written_by_percent_format(xs, xs[::-1])]


def test_the_curves_of_a_chart_share_their_xs():
    xs = np.linspace(50.0, 624.0, 97)
    rows = [240 - 224 * np.linspace(0, 1, 97) ** power for power in (0.5, 1, 3)]
    assert _paths(xs, *rows) == [written_by_percent_format(xs, ys) for ys in rows]
    assert _paths(np.array([]), np.array([])) == ["M"]


@pytest.mark.parametrize("value, places, top, written", [
    (0.02, 2, None, "0.02"), (0.0199, 2, None, "0.02"), (0.01, 2, None, "0.01"),
    (0.009995, 2, None, "0.01"), (0.00999, 2, None, "9.99 × 10⁻³"), (0.00999999, 2, 100, "0.01"),
    (99.99, 2, 100, "99.99"), (99.9899999, 2, 100, "99.99"), (99.994999, 2, 100, "99.99"),
    (99.995, 2, 100, "99.995"), (99.99999999, 2, 100, "99.99999999"),
    (0.9999, 4, 1, "0.9999"), (0.99989999, 4, 1, "0.9999"), (0.99995, 4, 1, "0.99995"),
    (0.0002, 4, 1, "0.0002"), (0.000199999, 4, 1, "0.0002"), (9.9999e-05, 4, 1, "0.0001"),
])
def test_decimals_near_the_smallest_shown_value_and_near_the_top(value, places, top, written):
    assert decimal(value, places, top) == written


@pytest.mark.parametrize("text, unbroken", [("91.67%", "91.67%"), ("1.00 × 10⁻⁸%", "1.00\xa0×\xa010⁻⁸%"),
                                            ("+16.67 pts", "+16.67\xa0pts"), ("≈ 100%", "≈ 100%"), ("", "")])
def test_only_the_spaces_inside_a_number_are_made_unbreakable(text, unbroken):
    assert unbreakable(text) == unbroken


@pytest.mark.parametrize("typed, echoed", [("200", "200"), ("2\x000", "2\ufffd0"), ("\t", "\ufffd"),
                                           ("é" * 41, "é" * 40 + "…"), ("x" * 40, "x" * 40)])
def test_what_the_user_typed_is_echoed_printable_and_short(typed, echoed):
    assert printable(typed) == echoed
