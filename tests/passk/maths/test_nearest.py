"""passk.maths.nearest against exact arithmetic: each lemma's bound holds, and the rounding test never passes a value
that two ends of its interval would round differently.

Every check compares with Fractions (exact) or mpmath at 200 digits, never with passk's own results.
"""

import math
from decimal import Context, Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from oracles import nearest
from passk.maths import nearest as N

U2 = Fraction(2) ** -106   # u^2
# doubles whose products, quotients and the splitter's products stay far from overflow and underflow
moderate = st.floats(min_value=2.0**-400, max_value=2.0**400).flatmap(
    lambda x: st.sampled_from([x, -x]))
positive = st.floats(min_value=2.0**-400, max_value=2.0**400)


def exact(*parts):
    return sum((Fraction(part) for part in parts), Fraction(0))


@st.composite
def double_doubles(draw, strategy=positive):
    """A normalised (high, low): |low| <= u |high|, low anything up to half an ulp of high."""
    high = draw(strategy)
    low = draw(st.floats(-0.5, 0.5)) * (math.nextafter(high, math.inf) - high)
    high, low = N.fast_two_sum(high, low)
    return high, low


@given(moderate, moderate)
def test_two_sum_is_exact(a, b):
    s, e = N.two_sum(a, b)
    assert s == a + b and exact(s, e) == exact(a, b)


@given(moderate, moderate)
def test_fast_two_sum_is_exact_when_the_first_is_larger(a, b):
    a, b = (a, b) if abs(a) >= abs(b) else (b, a)
    s, e = N.fast_two_sum(a, b)
    assert exact(s, e) == exact(a, b)


@given(moderate, moderate)
def test_two_product_is_exact(a, b):
    p, e = N.two_product(a, b)
    assert p == a * b and exact(p, e) == Fraction(a) * Fraction(b)


@given(double_doubles(), st.integers(1, 2**53 - 1))
def test_times_float_within_its_bound(value, whole):
    high, low = N.times_float(*value, float(whole))
    product = exact(*value) * whole
    assert abs(exact(high, low) - product) <= Fraction(N.TIMES_FLOAT) * product
    assert abs(low) <= abs(high) * 2.0**-53


@given(double_doubles(), double_doubles())
def test_times_within_its_bound(a, b):
    high, low = N.times(*a, *b)
    product = exact(*a) * exact(*b)
    assert abs(exact(high, low) - product) <= Fraction(N.TIMES) * product


@given(double_doubles(), double_doubles())
def test_divided_within_its_bound(a, b):
    high, low = N.divided(*a, *b)
    quotient = exact(*a) / exact(*b)
    assert abs(exact(high, low) - quotient) <= Fraction(N.DIVIDED) * quotient


@given(double_doubles(st.floats(0.0, 1.0).filter(lambda x: x == 0 or x >= 2.0**-60)))
def test_one_minus_within_its_bound(value):
    high, low, bound = N.one_minus(*value)
    assert abs(exact(high, low) - (1 - exact(*value))) <= Fraction(bound)


# --- the rounding test ---------------------------------------------------------------------------------


@given(st.floats(2.0**-900, 2.0**900), st.floats(-1.0, 1.0), st.floats(0.0, 1.0))
def test_settled_passes_only_intervals_whose_ends_round_alike(high, share, width):
    gap = math.nextafter(high, math.inf) - high
    low, bound = share * gap / 2, width * gap / 2
    high, low = N.fast_two_sum(high, low)
    if N.settled_one(high, low, bound):
        ends = (exact(high, low) - Fraction(bound), exact(high, low) + Fraction(bound))
        assert nearest(ends[0]) == nearest(ends[1]) == high
    assert N.settled(np.array([high]), np.array([low]), np.array([bound]))[0] == N.settled_one(high, low, bound)


@pytest.mark.parametrize("below, settles", [(2.0**-54 * 0.99, True), (2.0**-54, False), (2.0**-53 * 0.75, False)])
def test_settled_knows_the_gap_below_a_power_of_two_is_half_the_gap_above(below, settles):
    """1.0's neighbours: 1 + 2^-52 above, 1 - 2^-53 below; the midpoint below is 1 - 2^-54, so an interval
    reaching down to 1 - 0.75 2^-53 does not settle, though it would against the gap above (1 + 2^-53)."""
    assert N.settled_one(1.0, -below / 2, below / 2) is settles


def test_settled_refuses_what_may_be_subnormal_or_is_not_a_number():
    assert not N.settled_one(2.0**-1000, 0.0, 0.0)
    assert not N.settled(np.array([np.nan, np.inf, 0.0]), np.zeros(3), np.zeros(3)).any()


# --- the factorial table and falling products ------------------------------------------------------------


def test_every_factorial_of_the_smallest_table_is_within_its_bound():
    table = N.Factorials(1 << 10)
    bound = Fraction(table.bound)
    for x in range(table.size):
        value = exact(table.high[x], table.low[x]) * Fraction(2) ** int(table.exponent[x])
        assert abs(value - math.factorial(x)) <= bound * math.factorial(x), x
        assert 0.5 <= table.high[x] < 1


@pytest.mark.parametrize("x", [0, 1, 2, 255, 256, 257, 40_000, 65_535, 65_536, 131_071])
def test_the_largest_table_holds_its_bound_at_block_edges(x):
    table = N.factorials(N.TABLE_MAX - 1)
    assert table.size == N.TABLE_MAX
    value = exact(table.high[x], table.low[x]) * Fraction(2) ** int(table.exponent[x])
    assert abs(value - math.factorial(x)) <= Fraction(table.bound) * math.factorial(x)


def test_the_table_grows_by_powers_of_two_and_is_kept():
    small = N.factorials(10)
    assert N.factorials(small.size - 1) is N.factorials(small.size - 1)
    assert N.factorials(small.size).size >= 2 * small.size


@settings(max_examples=200)
@given(st.integers(1, 10**12), st.integers(0, 10**12), st.integers(0, 80))
def test_falling_ratio_within_its_bound(n, big, m):
    assume(big + m <= n)
    h, l, exponent, bound = N.falling_ratio(np.array([float(n)]), np.array([float(big)]), np.array([float(m)]), 80)
    value = exact(h[0], l[0]) * Fraction(2) ** int(exponent[0])
    ratio = Fraction(math.perm(n - big, m), math.perm(n, m))
    assert abs(value - ratio) <= Fraction(float(bound[0])) * ratio


@settings(max_examples=100)
@given(st.integers(1, 5000), st.data())
def test_factorial_ratio_within_its_bound(n, data):
    a, b, c, d = (data.draw(st.integers(0, n)) for _ in range(4))
    table = N.factorials(n)
    h, l, exponent, bound = table.ratio(*(np.array([x]) for x in (a, b, c, d)))
    value = exact(h[0], l[0]) * Fraction(2) ** int(exponent[0])
    ratio = Fraction(math.factorial(a) * math.factorial(b), math.factorial(c) * math.factorial(d))
    assert abs(value - ratio) <= Fraction(bound) * ratio
    assert table.ratio_one(a, b, c, d) == (h[0], l[0], int(exponent[0]), bound)


# --- the decimal way --------------------------------------------------------------------------------------


def test_the_half_log_of_two_pi_is_right_to_its_stated_error():
    with mpmath.workdps(200):
        truth = mpmath.log(2 * mpmath.pi) / 2
        assert abs(mpmath.mpf(str(N._HALF_LOG_2PI)) - truth) <= mpmath.mpf(str(N._CONSTANT_ERROR))


@pytest.mark.parametrize("digits", [20, 45, 100])
@pytest.mark.parametrize("x", [0, 1, 2, 10, 63, 64, 103, 104, 263, 264, 265, 1000, 123_456, 10**6, 10**12 - 1])
def test_log_factorial_within_its_bound(x, digits):
    value, bound = N.log_factorial(x, Context(prec=digits))
    with mpmath.workdps(250):
        truth = mpmath.loggamma(x + 1)
        assert abs(mpmath.mpf(str(value)) - truth) <= mpmath.mpf(str(bound))
        assert mpmath.mpf(str(bound)) <= max(1, abs(truth)) * mpmath.mpf(10) ** (5 - digits)   # and not loose


def test_nearest_from_log_settles_on_the_nearest_double():
    """exp(log(5/6)) and 1 - exp(log(1/6)), with the log correctly rounded and its error bounded by an ulp."""
    def log_of(value):
        return lambda context: (context.ln(Decimal(value.numerator) / Decimal(value.denominator)),
                                Decimal(1).scaleb(2 - context.prec))
    assert N.nearest_from_log(log_of(Fraction(5, 6)), 25, complement=False) == nearest(Fraction(5, 6))
    assert N.nearest_from_log(log_of(Fraction(1, 6)), 25, complement=True) == nearest(Fraction(5, 6))


def test_nearest_from_log_gives_up_when_its_bound_never_settles():
    """A bound that stays wide at every precision: None, and the caller computes in exact integers."""
    assert N.nearest_from_log(lambda context: (Decimal(-1), Decimal("0.1")), 20, complement=True) is None


# --- double-doubles with their bounds carried: exp, log, Stirling's remainder ----------------------------------


def within(approx, truth, index=0):
    """|high + low - truth| <= the carried bound, in 250-digit arithmetic."""
    high, low, bound = (float(part[index]) for part in approx)
    return abs(mpmath.mpf(high) + mpmath.mpf(low) - truth) <= mpmath.mpf(bound)


@settings(max_examples=200)
@given(st.floats(-1100, 0), st.floats(-1e-3, 1e-3))
def test_expm1_within_its_carried_bound(high, share):
    low = share * math.ulp(high) if high else 0.0
    high, low = N.fast_two_sum(high, low)
    value = (np.array([high]), np.array([low]), np.array([abs(high) * 2.0**-100]))
    m, power = N.expm1(value)
    with mpmath.workdps(250):
        y = mpmath.mpf(high) + mpmath.mpf(low)
        # e^y = 2^k (1 + m): compare m with e^y 2^-k - 1, which the input's own bound moves by at most its size
        truth = mpmath.expm1(y) if power[0] == 0 else mpmath.exp(y) * mpmath.mpf(2) ** -int(power[0]) - 1
        slack = mpmath.exp(y) * mpmath.mpf(2) ** -int(power[0]) * (mpmath.exp(mpmath.mpf(value[2][0])) - 1)
        assert abs(mpmath.mpf(m[0][0]) + mpmath.mpf(m[1][0]) - truth) <= mpmath.mpf(m[2][0]) + slack
        assert m[2][0] <= abs(float(truth)) * 2.0**-95 + float(slack) * 4 + 1e-290   # and tight
    assert power[0] == 0 or high <= -0.34


@settings(max_examples=200)
@given(st.floats(-0.5, 0).filter(lambda z: z < 0), st.floats(-0.5, 0.5))
def test_log1p_and_log_within_their_carried_bounds(z, share):
    low = share * math.ulp(z)
    high, low = N.fast_two_sum(z, low)
    value = (np.array([high]), np.array([low]), np.array([0.0]))
    with mpmath.workdps(250):
        x = mpmath.mpf(high) + mpmath.mpf(low)
        result = N.log1p(value)
        assert within(result, mpmath.log1p(x)) and float(result[2][0]) <= abs(float(x)) * 2.0**-90 + 1e-290
        one_plus = N.fast_two_sum(1.0 + high, low - ((1.0 + high) - 1.0 - high))
        if 1 + x <= 0.5:
            result = N.log((np.array([one_plus[0]]), np.array([one_plus[1]]), np.array([0.0])))
            truth = mpmath.log(mpmath.mpf(one_plus[0]) + mpmath.mpf(one_plus[1]))
            assert within(result, truth) and float(result[2][0]) <= abs(float(truth)) * 2.0**-90 + 1e-290


@pytest.mark.parametrize("x", [1, 2, 3, 10, 999, 1000, 1001, 12_345, 10**6, 2**40, 10**12])
def test_stirling_remainder_and_log_of_a_whole_number_within_their_bounds(x):
    with mpmath.workdps(250):
        truth = mpmath.loggamma(x + 1) - ((x + mpmath.mpf(0.5)) * mpmath.log(x) - x + mpmath.log(2 * mpmath.pi) / 2)
        assert within(N.stirling_remainder(np.array([float(x)])), truth)
        assert within(N.log_whole(np.array([float(x)])), mpmath.log(x))


# --- the nearest double of a scaled double-double, among the subnormals and just above them -------------------

GRID = Fraction(2) ** -1074   # the subnormals' spacing
RELATIVES = [0.0, 2.0**-120, 1e-26, 2.0**-60, 2.0**-45]


def scaled_parts(value, tilt=0):
    """(high, low, exponent) with (high + low) 2**exponent exactly value (a Fraction of at most 106 bits) and
    high in [1/2, 2) 2**tilt."""
    exponent = value.numerator.bit_length() - value.denominator.bit_length() - tilt
    scaled = value / Fraction(2) ** exponent
    high = nearest(scaled)
    low = nearest(scaled - Fraction(high))
    assert Fraction(high) + Fraction(low) == scaled, "not a double-double"
    return high, low, exponent


def nearest_scaled_both(high, low, exponent, relative):
    """nearest_scaled's (value, settled) for one value, checked against nearest_scaled_one's."""
    values, settled = N.nearest_scaled(np.array([high]), np.array([low]), np.array([exponent]), relative)
    one = N.nearest_scaled_one(high, low, exponent, relative)
    assert (one is not None) == bool(settled[0]) and (one is None or one == values[0])
    return float(values[0]), bool(settled[0])


def assert_every_value_within_rounds_to(found, high, low, exponent, relative):
    """Every Q* with |Q - Q*| <= relative max(Q, Q*) rounds to found: the ends Q (1 - r) and Q / (1 - r)
    (rounding is monotone)."""
    value = (exact(high) + exact(low)) * Fraction(2) ** exponent
    r = Fraction(relative)
    assert nearest(value * (1 - r)) == nearest(value / (1 - r)) == found
    assert math.copysign(1.0, found) == 1.0


@settings(max_examples=400)
@given(st.integers(960, 1080), st.integers(2**105, 2**106 - 1), st.sampled_from(RELATIVES), st.integers(-1, 1))
def test_nearest_scaled_settles_only_on_the_nearest_double_from_2_to_the_minus_1080_to_960(
        power, mantissa, relative, tilt):
    value = Fraction(mantissa, 2**106) * Fraction(2) ** -power
    found, settled = nearest_scaled_both(*scaled_parts(value, tilt), relative)
    if settled:
        assert_every_value_within_rounds_to(found, *scaled_parts(value, tilt), relative)
    if value < Fraction(2) ** -1021 and relative == 0:   # on the subnormal grid an exact value always settles
        assert settled and found == nearest(value)


@pytest.mark.parametrize("power", [960, 967, 968, 969, 1000, 1020, 1021, 1022, 1023, 1030, 1060, 1073, 1074,
                                   1075, 1076, 1079, 1080])
@pytest.mark.parametrize("relative", [0.0, 1e-26])
def test_nearest_scaled_settles_values_of_every_exponent_near_the_subnormals(power, relative):
    """Mantissas spread over [1, 2), each near a power of two: at 1e-26 (a factorial ratio's bound is 2e-26) none
    is near enough a rounding boundary to stay unsettled, and each is the double nearest it."""
    rng = np.random.default_rng(power)
    for _ in range(40):
        value = Fraction(int(rng.integers(2**52, 2**53)) * 2**53 + int(rng.integers(1, 2**53)), 2**105) \
            * Fraction(2) ** -power
        for tilt in (-1, 0, 1):
            parts = scaled_parts(value, tilt)
            found, settled = nearest_scaled_both(*parts, relative)
            assert settled
            assert_every_value_within_rounds_to(found, *parts, relative)


HALFWAY = [0, 1, 2, 3, 4, 5, 12_345_678_901, 2**51 - 1, 2**51, 2**51 + 1, 2**52 - 2, 2**52 - 1]


@pytest.mark.parametrize("whole", HALFWAY)
@pytest.mark.parametrize("offset", [Fraction(0), Fraction(1, 2**40), -Fraction(1, 2**40), Fraction(1, 4),
                                    -Fraction(1, 4), Fraction(1, 2)])
@pytest.mark.parametrize("relative", [0.0, 2.0**-120, 2.0**-100])
def test_nearest_scaled_at_and_near_the_midpoints_of_the_subnormal_grid(whole, offset, relative):
    """Q = (m + 1/2 + offset) 2**-1074: exactly at a midpoint the exact value rounds to the even neighbour and any
    bound leaves it unsettled; beside it the nearest double, settled when the bound is clear of the midpoint."""
    value = (whole + Fraction(1, 2) + offset) * GRID
    for tilt in (-1, 0, 1):
        parts = scaled_parts(value, tilt)
        found, settled = nearest_scaled_both(*parts, relative)
        if relative == 0:
            assert settled and found == nearest(value)
        elif offset == 0:
            assert not settled
        elif abs(offset) == Fraction(1, 4) or offset == Fraction(1, 2):
            assert settled   # at most 2**52 2**-100 from Z: far from a half-integer
        if settled:
            assert_every_value_within_rounds_to(found, *parts, relative)
    if offset == 0:
        assert nearest(value) / 2.0**-1074 % 2 == 0   # the oracle's ties go to the even grid point, as passk's


@pytest.mark.parametrize("steps", [Fraction(-3, 2), Fraction(-1), Fraction(-3, 4), Fraction(-1, 2), Fraction(-1, 4),
                                   -Fraction(1, 2**30), Fraction(0), Fraction(1, 2**30), Fraction(1, 4),
                                   Fraction(1, 2), Fraction(3, 4), Fraction(1), Fraction(3, 2)])
@pytest.mark.parametrize("relative", RELATIVES)
def test_nearest_scaled_at_the_boundary_of_the_normal_range(steps, relative):
    """Q = 2**-1022 + steps 2**-1074: the largest subnormal, 2**-1022 and the next double are 2**-1074 apart, so
    the grid's way and the normal range's meet here; half-steps settle only when exact (ties to even)."""
    value = Fraction(2) ** -1022 + steps * GRID
    clear = abs(steps - round(steps)) not in (Fraction(1, 2), Fraction(1, 2**30)) and relative <= 1e-26
    for tilt in (-1, 0, 1):
        parts = scaled_parts(value, tilt)
        found, settled = nearest_scaled_both(*parts, relative)
        if relative == 0 or clear:
            assert settled and found == nearest(value)
        if settled:
            assert_every_value_within_rounds_to(found, *parts, relative)


def test_nearest_scaled_refuses_what_it_cannot_prove():
    """A bound above TRUSTED or not a number, a high part outside (0, 4], a low part that lost bits when scaled
    into the subnormals: not settled (the caller's slower way decides). Below 2**-1080 the value is 0.0."""
    high, low, exponent = scaled_parts(Fraction(12_345, 2**1060))
    for relative in (2.0**-39, math.nan, math.inf):
        assert nearest_scaled_both(high, low, exponent, relative)[1] is False
    for bad_high in (0.0, -1.0, 8.0, math.nan, math.inf):
        assert nearest_scaled_both(bad_high, 0.0, exponent, 0.0)[1] is False
    # scaled by 2**-6 into the grid, a low part of 2**-1070 keeps no bits: Z = h/64 + 2**-1076 is not what it holds
    assert nearest_scaled_both(0.75, 2.0**-1070, -1080, 0.0)[1] is False
    assert nearest_scaled_both(0.75, 2.0**-1068, -1080, 0.0) == (0.0, True)   # 0.75/64 + 2**-1074: rounds to 0
    assert nearest_scaled_both(3.9, 0.0, -1081, 1e-20) == (0.0, True)
