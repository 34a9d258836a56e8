"""OpenCompass's G-Pass@k formula against passk.

Source: open-compass/opencompass @ a5acc4bba3b658f151617a3b393602110fb7a740:
opencompass/openicl/icl_evaluator/icl_base_evaluator.py, compute_pass_at_k (the human-eval product),
_compute_g_pass_at_k (scipy's hypergeom.sf(m - 1, n, c, k)), compute_g_pass_at_k (m = max(int(np.ceil(k * t)), 1))
and compute_mg_pass_at_k ((2/k) times the sum of G-Pass@k at m = i for i from ceil(k/2) + 1 to k), called by
BaseEvaluator.evaluate with thresholds 0.0, 0.25, 0.5, 0.75 and 1.0 when n > 1 and some k > 1; docs/en/user_guides/
datasets.md gives the formula. lighteval's GPassAtK (test_peer_lighteval.py) is the same code.

The figures are what those functions return (scipy 1.17, numpy 2.4, run outside passk's environment), written
out. Over every n up to 40 (and n = 64, 100, 128), every c and k, at its five thresholds and 0.3, 0.6 and 0.7,
they are within 4.5e-16 of exact (G-Pass), 5.6e-16 (mG-Pass) and 6.7e-16 (pass@k); passk's are the nearest
doubles. One difference of definition: OpenCompass takes ceil(k * t) of the float product, so a decimal t whose
double is a little above it asks one pass more where t k is whole (t = 0.28, k = 25: 7.000000000000001 -> 8
passes); passk (and scorio) read t as the decimal meant (7). OpenCompass's own thresholds are binary fractions,
which never meet this.
"""

import math
from fractions import Fraction

import pytest

from passk.maths.estimator import pass_at_k
from passk.maths.gpass import g_pass_at_k, mg_pass_at_k, threshold

# (n, c, k, t) -> (compute_g_pass_at_k(n, c, k, t), compute_mg_pass_at_k(n, c, k))
OPENCOMPASS = {
    (4, 2, 2, 0.5): (0.8333333333333334, 0.16666666666666666),
    (8, 4, 5, 0.25): (0.9285714285714286, 0.02857142857142857),
    (8, 5, 5, 0.75): (0.28571428571428564, 0.1214285714285714),
    (8, 5, 5, 1.0): (0.017857142857142853, 0.1214285714285714),
    (20, 7, 10, 0.7): (0.0015479876160990713, 0.006037151702786378),
    (64, 40, 16, 0.75): (0.18659057318590622, 0.26163739832957644),
    (128, 64, 99, 0.5): (0.49999999999999956, 0.014285848003477734),   # G-Pass's largest error here, 4.4e-16
    (100, 3, 50, 0.25): (0.0, 0.0),
    (10, 0, 3, 0.5): (0.0, 0.0),
    (10, 10, 3, 1.0): (1.0, 0.6666666666666666),
}
MG_WORST = {(128, 106, 112): 0.6562499999999994}   # mG-Pass's largest error on the grid, 5.6e-16
AGREEMENT = 6.7e-16


def tail(n, c, k, m):
    """P(X >= m) for X ~ H(n, c, k), exactly."""
    return Fraction(sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(m, min(c, k) + 1)), math.comb(n, k))


def exact_mg(n, c, k):
    return 2 * sum((tail(n, c, k, i) for i in range(math.ceil(k / 2) + 1, k + 1)), Fraction(0)) / k


@pytest.mark.parametrize(("n", "c", "k", "t"), OPENCOMPASS)
def test_g_pass_and_mg_pass_agree(n, c, k, t):
    g_figure, mg_figure = OPENCOMPASS[n, c, k, t]
    g_exact = tail(n, c, k, max(1, math.ceil(Fraction(t) * k)))
    assert g_pass_at_k(n, c, k, t) == float(g_exact) and abs(g_figure - g_exact) <= AGREEMENT
    assert mg_pass_at_k(n, c, k) == float(exact_mg(n, c, k)) and abs(mg_figure - exact_mg(n, c, k)) <= AGREEMENT


def test_mg_pass_where_opencompass_is_furthest_off():
    (n, c, k), figure = next(iter(MG_WORST.items()))
    assert mg_pass_at_k(n, c, k) == float(exact_mg(n, c, k)) == 0.65625 and abs(figure - 0.65625) <= AGREEMENT


def test_pass_at_k_where_the_product_is_furthest_off():
    """compute_pass_at_k(128, 65, 1) = 0.5078124999999993; 65/128 is a double."""
    assert pass_at_k(128, 65, 1) == 65 / 128 == 0.5078125


# (n, c, k, t) -> (OpenCompass's m and figure, passk's m): t k is whole, its float product just above it
FLOAT_TAU = {
    (40, 10, 25, 0.28): (8, 0.17398328119390735, 7),
    (100, 20, 50, 0.14): (8, 0.8946466586176428, 7),
    (100, 50, 25, 0.56): (15, 0.17791431618021422, 14),
}


@pytest.mark.parametrize(("n", "c", "k", "t"), FLOAT_TAU)
def test_a_decimal_tau_is_read_as_meant_where_opencompass_asks_one_pass_more(n, c, k, t):
    their_m, figure, my_m = FLOAT_TAU[n, c, k, t]
    assert math.ceil(k * t) == their_m and threshold(k, t) == my_m == math.ceil(Fraction(str(t)) * k)
    assert abs(figure - tail(n, c, k, their_m)) <= AGREEMENT
    assert g_pass_at_k(n, c, k, t) == float(tail(n, c, k, my_m)) != pytest.approx(figure, abs=1e-3)
