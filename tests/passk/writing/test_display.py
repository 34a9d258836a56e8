"""How numbers are written: one rule for every probability on every page.

Fixed decimals (2 for a percentage, 4 for a fraction, 3 for a p-value) while
they show the value; below that three significant digits in one scientific
form; next to the top as many decimals as it takes to stay below it. Exactly 0
and exactly 1 are the only values written as 0 and 1 (0% and 100%).
"""

import doctest
import math
import re

import pytest
from hypothesis import given, strategies as st

from passk.writing import display
from passk.results.calculator import calculate
from passk.writing.display import axis_ticks, decimal, fraction, p_value, percent, points
from passk.writing.steps import product_factors, worked_steps

SUPERSCRIPT_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
NUMBER = re.compile(r"(?P<approx>≈ )?(?P<sign>[+−]?)(?P<mantissa>\d+(?:\.(?P<decimals>\d+))?)"
                    r"(?: × 10(?P<power>[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)|e(?P<ascii_power>[-+]\d+))?"
                    r"(?P<unit>%| pts)?")


def read_back(text):
    """(value, precision) of a number as shown: what it says, and how far from the truth it may be."""
    match = NUMBER.fullmatch(text)
    assert match, f"not one of our number styles: {text!r}"
    value = float(match["mantissa"])
    places = len(match["decimals"] or "")
    power = match["power"] and int(match["power"].translate(SUPERSCRIPT_DIGITS))
    power = power if power is not None else match["ascii_power"] and int(match["ascii_power"])
    if power is not None:
        value, half_unit = value * 10.0**power, 0.5 * 10.0 ** (power - places)
    else:
        half_unit = 0.0 if (value in (0, 1, 100) and not places) else 0.5 * 10.0**-places
    if match["approx"]:
        half_unit = 1e-12 * value
    return (-value if match["sign"] == "−" else value), half_unit


@pytest.mark.parametrize("value, text", [
    (0.0, "0%"), (1.0, "100%"), (0.3, "30.00%"), (11 / 12, "91.67%"), (None, "—"),
    (1e-4, "0.01%"), (0.000099996, "0.01%"), (0.0000995, "9.95 × 10⁻³%"),
    (1e-5, "1.00 × 10⁻³%"), (1e-6, "1.00 × 10⁻⁴%"), (5e-6, "5.00 × 10⁻⁴%"), (1e-12, "1.00 × 10⁻¹⁰%"),
    (3.77e-23, "3.77 × 10⁻²¹%"), (5e-324, "4.94 × 10⁻³²²%"),
    (0.9999, "99.99%"), (0.99996, "99.996%"), (0.999999999999, "99.9999999999%"),
    (1 - 2**-53, "99.99999999999999%"),
])
def test_percent_table(value, text):
    assert percent(value) == text


@pytest.mark.parametrize("value, text", [
    (0.0, "0"), (1.0, "1"), (0.3, "0.3000"), (11 / 12, "0.9167"), (1e-4, "0.0001"), (1e-5, "1.00 × 10⁻⁵"),
    (5e-6, "5.00 × 10⁻⁶"), (0.99999, "0.99999"), (None, "—"),
])
def test_fraction_table(value, text):
    assert fraction(value) == text


@pytest.mark.parametrize("value, text", [
    (1 / 6, "+16.67 pts"), (-0.0299, "−2.99 pts"), (0.0, "0 pts"), (2e-7, "+2.00 × 10⁻⁵ pts"),
    (-3.2e-9, "−3.20 × 10⁻⁷ pts"), (1.0, "+100.00 pts"), (None, "—"),
])
def test_points_table(value, text):
    assert points(value) == text


@pytest.mark.parametrize("value, text", [
    (0.0462, "0.046"), (0.5, "0.500"), (0.001, "0.001"), (0.000999, "9.99 × 10⁻⁴"), (1.234e-12, "1.23 × 10⁻¹²"),
    (1.0, "1"), (0.9999, "0.9999"), (None, "—"),
])
def test_p_value_table(value, text):
    assert p_value(value) == text


@pytest.mark.parametrize("value, text", [
    (0.5, "50.00%"), (3.77e-23, "3.77e-21%"), (1e-6, "1.00e-04%"), (0.0, "0%"), (None, "—"),
])
def test_ascii_percent_for_the_command_line(value, text):
    assert percent(value, ascii=True) == text


@pytest.mark.parametrize("ticks, labels", [
    ([1, 2, 3], ["1", "2", "3"]),
    ([1, 10, 100, 1000, 10000, 100000], ["1", "10", "100", "1,000", "10,000", "100,000"]),
    ([1, 10, 100, 1000, 10**4, 10**5, 10**6], ["10⁰", "10¹", "10²", "10³", "10⁴", "10⁵", "10⁶"]),
    ([1, 100, 10**4, 10**6, 10**8, 10**10, 10**12], ["10⁰", "10²", "10⁴", "10⁶", "10⁸", "10¹⁰", "10¹²"]),
    ([1, 250_000, 1_000_000], ["1", "250,000", "1,000,000"]),
])
def test_axis_ticks_share_one_style(ticks, labels):
    assert axis_ticks(ticks) == labels


PROBABILITIES = st.floats(min_value=0, max_value=1)
FORMATTERS = [
    pytest.param(lambda v: percent(v), 100, id="percent"),
    pytest.param(lambda v: percent(v, ascii=True), 100, id="ascii-percent"),
    pytest.param(fraction, 1, id="fraction"),
    pytest.param(p_value, 1, id="p-value"),
    pytest.param(points, 100, id="points"),
]


@pytest.mark.parametrize("show, scale", FORMATTERS)
@given(value=PROBABILITIES)
def test_the_shown_value_reads_back_within_its_shown_precision(show, scale, value):
    shown, half_unit = read_back(show(value))
    assert abs(shown - value * scale) <= half_unit * (1 + 1e-9) + 1e-15 * scale


@pytest.mark.parametrize("show, scale", FORMATTERS)
@given(values=st.lists(PROBABILITIES, min_size=2, max_size=2))
def test_a_larger_value_is_never_shown_smaller(show, scale, values):
    low, high = sorted(values)
    assert read_back(show(low))[0] <= read_back(show(high))[0]


@given(st.floats(min_value=-1, max_value=1))
def test_points_keep_the_sign_and_never_show_a_difference_as_zero(value):
    shown, _ = read_back(points(value))
    assert math.copysign(1, shown) == math.copysign(1, value) or value == 0
    assert (points(value) == "0 pts") == (value == 0)


@given(PROBABILITIES)
def test_percent_is_0_or_100_only_for_exact_0_or_1(value):
    text = percent(value)
    assert (text == "0%") == (value == 0)
    assert (text == "100%") == (value == 1)
    assert not re.fullmatch(r"0\.0+%|100\.0+%", text)


@given(PROBABILITIES)
def test_one_style_at_a_time_fixed_or_scientific(value):
    """Fixed decimals down to the smallest they can show, scientific below, never both forms in one range."""
    text = percent(value)
    scientific = "×" in text
    assert scientific == (0 < value and float(f"{value * 100:.2e}") < 0.01)
    if not scientific and value not in (0, 1) and "≈" not in text:
        assert len(text.split(".")[1]) >= 3  # two decimals and the percent sign, or more next to 100%


def test_decimal_without_a_top_keeps_its_places():
    assert decimal(99.999, 2) == "100.00"
    assert decimal(99.999, 2, top=100) == "99.999"


def test_docstring_examples_run():
    assert doctest.testmod(display).failed == 0


def test_product_factors_elide_the_middle():
    assert product_factors(10, 3, 5) == "(1 − 5/8) × (1 − 5/9) × (1 − 5/10)"
    long = product_factors(200, 50, 10)
    assert long.startswith("(1 − 10/151) × (1 − 10/152) × (1 − 10/153) × … (44 more factors) …")
    assert long.endswith("(1 − 10/200)")


@pytest.mark.parametrize("n, c, k, fragment", [
    (5, 0, 1, "No sample passed (c = 0)"),
    (10, 8, 5, "fewer than k = 5"),
    (10, 3, 5, "C(7, 5) / C(10, 5)"),
])
def test_worked_steps_name_the_branch_that_applies(n, c, k, fragment):
    steps = worked_steps(calculate(n, c, k))
    assert any(fragment in step for step in steps)
    assert steps[-1].startswith("Check: pass@1 = c/n")
