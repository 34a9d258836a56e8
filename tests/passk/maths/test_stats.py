"""Student's t distribution (scipy behind passk.maths.stats), checked against mpmath at 50 digits."""

import math
from statistics import NormalDist

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from passk.maths.stats import t_quantile, t_two_sided_p

mpmath.mp.dps = 50

degrees_of_freedom = st.one_of(
    st.integers(1, 30),
    st.integers(31, 10**7),
    st.sampled_from([999, 1000, 1001, 10**5 - 1, 10**5, 10**7]),
)
upper_probabilities = st.one_of(   # from 1e-4 above the median: see test_t_quantile_near_the_median
    st.floats(0.5001, 1.0, exclude_max=True),
    st.floats(-16, -1).map(lambda exponent: 1 - 10**exponent),
)
lower_tails = st.floats(-150, -1).map(lambda exponent: 10**exponent)   # below, t passes 1e150 at df = 1 and x underflows


def reference_two_sided_p(t, df):
    """P(|T| >= |t|) = I_x(df/2, 1/2) with x = df / (df + t^2), by mpmath.

    Far below what a double can hold (under 1e-310) it returns an upper bound
    instead: I_x(a, 1/2) <= 2 x^(a-1) / B(a, 1/2). The tests need no more there
    than "it underflows", and mpmath's series for such tails with millions of
    degrees of freedom can run for minutes.
    """
    t, df = mpmath.mpf(t), mpmath.mpf(df)
    half = mpmath.mpf(1) / 2
    x = df / (df + t * t)
    bound = 2 * mpmath.exp((df / 2 - 1) * mpmath.log(x) - mpmath.log(mpmath.beta(df / 2, half)))
    if bound < mpmath.mpf("1e-310"):
        return bound
    return mpmath.betainc(df / 2, half, 0, x, regularized=True)


def reference_density(t, df):
    t, df = mpmath.mpf(t), mpmath.mpf(df)
    return mpmath.exp(mpmath.loggamma((df + 1) / 2) - mpmath.loggamma(df / 2)
                      - mpmath.log(df * mpmath.pi) / 2 - (df + 1) / 2 * mpmath.log1p(t * t / df))


def quantile_relative_error(t, p, df):
    """|t - t_exact| / |t| to first order: the probability missed, over density times t."""
    tail = reference_two_sided_p(t, df) / 2          # P(T > |t|)
    wanted = 1 - mpmath.mpf(p) if p > 0.5 else mpmath.mpf(p)
    return float(abs(tail - wanted) / (reference_density(t, df) * abs(t)))


@pytest.mark.parametrize("p, df, expected", [
    (0.975, 1, 12.706204736174704),     # cot(pi * 0.025), with 0.025 as the double 1 - 0.975
    (0.975, 10, 2.2281388519862747),    # mpmath; scipy's long-quoted 2.2281388519649385 is 1e-11 off
    (0.975, 163, 1.9746246209663613),
    (0.995, 2, 9.9248432009182882),     # closed form for df = 2: (2p - 1) / sqrt(2p(1 - p))
    (0.975, math.inf, 1.959963984540054),
])
def test_t_quantile_matches_known_values(p, df, expected):
    assert t_quantile(p, df) == pytest.approx(expected, rel=1e-14)


def test_t_quantile_for_df_2_has_a_closed_form():
    for p in (0.6, 0.9, 0.975, 0.999999):
        exact = (2 * mpmath.mpf(p) - 1) / mpmath.sqrt(2 * mpmath.mpf(p) * (1 - mpmath.mpf(p)))
        assert t_quantile(p, 2) == pytest.approx(float(exact), rel=1e-14)


@settings(max_examples=200, deadline=None)
@given(p=upper_probabilities, df=degrees_of_freedom)
def test_t_quantile_agrees_with_mpmath(p, df):
    assert quantile_relative_error(t_quantile(p, df), p, df) < 1e-12


@settings(max_examples=100, deadline=None)
@given(p=lower_tails, df=degrees_of_freedom)
def test_t_quantile_is_accurate_far_in_the_lower_tail(p, df):
    t = t_quantile(p, df)
    assert t < 0
    assert quantile_relative_error(t, p, df) < 1e-12


@given(p=st.floats(0.5, 1.0, exclude_min=True, exclude_max=True), df=degrees_of_freedom)
def test_t_quantile_is_antisymmetric(p, df):
    assert t_quantile(1 - p, df) == -t_quantile(p, df)


@settings(max_examples=200, deadline=None)
@given(t=st.one_of(st.floats(0, 50), st.floats(0, 1e-3), st.floats(50, 1e6)), df=degrees_of_freedom)
def test_t_two_sided_p_agrees_with_mpmath(t, df):
    expected = reference_two_sided_p(t, df)
    if expected < 1e-300:  # the double underflows: only closeness to zero is meaningful
        assert t_two_sided_p(t, df) < 1e-290
    else:
        assert float(abs(t_two_sided_p(t, df) - expected) / expected) < 1e-12


@settings(deadline=None)
@given(df=degrees_of_freedom)
def test_p_value_at_the_975_quantile_is_five_percent(df):
    assert t_two_sided_p(t_quantile(0.975, df), df) == pytest.approx(0.05, rel=1e-12)


@given(t=st.floats(-1e6, 1e6), df=degrees_of_freedom)
def test_p_value_is_symmetric_in_t_and_a_probability(t, df):
    p = t_two_sided_p(t, df)
    assert p == t_two_sided_p(-t, df)
    assert 0 <= p <= 1


def test_p_value_at_the_extremes():
    assert t_two_sided_p(0.0, 5) == 1.0
    assert t_two_sided_p(math.inf, 5) == 0.0
    assert t_two_sided_p(1e300, 3) == 0.0


@given(t=st.floats(-40, 40))
def test_infinite_df_is_the_normal_distribution(t):
    normal_tail = math.erfc(abs(t) / math.sqrt(2))
    assert t_two_sided_p(t, math.inf) == pytest.approx(normal_tail, rel=1e-15, abs=1e-300)


def test_infinite_df_quantile_is_the_normal_quantile():
    assert t_quantile(0.975, math.inf) == pytest.approx(NormalDist().inv_cdf(0.975), rel=1e-15)


@settings(max_examples=100, deadline=None)
@given(offset=st.floats(1e-16, 1e-4), df=degrees_of_freedom)
def test_t_quantile_near_the_median_is_accurate_in_absolute_terms(offset, df):
    """Within 1e-4 of p = 1/2 scipy's inversion keeps absolute, not relative, accuracy: no interval uses it."""
    p = 0.5 + offset
    t = t_quantile(p, df)
    assert t > 0 and abs(reference_two_sided_p(t, df) / 2 - (1 - mpmath.mpf(p))) < 1e-15


@pytest.mark.parametrize("p, df, message", [
    (0.0, 5, "p must be strictly between 0 and 1"),
    (1.0, 5, "p must be strictly between 0 and 1"),
    (math.nan, 5, "p must be strictly between 0 and 1"),
    (0.975, 0, "degrees of freedom must be a positive number"),
    (0.975, -3, "degrees of freedom must be a positive number"),
    (0.975, math.nan, "degrees of freedom must be a positive number"),
    (0.975, True, "degrees of freedom must be a positive number"),
])
def test_t_quantile_rejects_invalid_arguments(p, df, message):
    with pytest.raises(ValueError, match=message):
        t_quantile(p, df)


def test_t_two_sided_p_rejects_nan():
    with pytest.raises(ValueError, match="t must be a number"):
        t_two_sided_p(math.nan, 5)
