"""Bayes@N (Hariri et al. 2025, arXiv:2510.04265) against exact arithmetic and scorio's own figures.

The mean and the variance are Fractions here, the SD and the interval's ends mpmath at 100 digits with z
recomputed from its definition; every figure passk returns must be their nearest double, bit for bit. scorio's
figures (floating point) agree to a few units in the last place.
"""

import math
from fractions import Fraction
from statistics import NormalDist

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import passk.maths.bayes as bayes
from oracles import nearest, nearest_mpf
from passk.maths.bayes import Z95, Z95_BOUND, bayes_at_n

DIGITS = 100


def exact_bayes(samples: list[int], correct: list[int]) -> tuple[float, float, tuple[float, float]]:
    """mu, sigma and mu -/+ z sigma clipped to [0, 1] from each problem's Beta(c + 1, n - c + 1) posterior."""
    problems = len(samples)
    mean = sum((Fraction(c + 1, n + 2) for n, c in zip(samples, correct)), Fraction(0)) / problems
    variance = sum((Fraction((c + 1) * (n - c + 1), (n + 2) ** 2 * (n + 3)) for n, c in zip(samples, correct)),
                   Fraction(0)) / problems**2
    with mpmath.workdps(DIGITS):
        z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))
        sd = mpmath.sqrt(mpmath.mpf(variance.numerator) / variance.denominator)
        mu = mpmath.mpf(mean.numerator) / mean.denominator
        low, high = mu - z * sd, mu + z * sd
    ends = (0.0 if low <= 0 else nearest_mpf(low, DIGITS), 1.0 if high >= 1 else nearest_mpf(high, DIGITS))
    return nearest(mean), nearest_mpf(sd, DIGITS), ends


def figures(result: bayes.Bayes) -> tuple[float, float, tuple[float, float]]:
    return result.mean, result.sd, result.ci95


# --- scorio's own figures: mohsenhariri/scorio at dedc4154f6daf01af79416b8c93560ac4b0fb88e (0.2.2), bayes_ci(R,
# bounds=(0.0, 1.0)) run in a separate venv; R's rows hold c passes of N. The first is its docstring example
# (scorio/eval/bayes.py: R = [[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]] -> 0.642857, 0.118451, 0.4107, 0.875); the others
# are random matrices (numpy default_rng(27)), then all solved (no clipping needed) and one failure (clipped at 0).
SCORIO = [
    (5, [3, 4], (0.6428571428571428, 0.11845088536983571, 0.4106976735953824, 0.8750166121189031)),
    (5, [3, 3], (0.5714285714285714, 0.12371791482634838, 0.3289459141265346, 0.8139112287306082)),
    (1, [1, 1, 1], (0.6666666666666666, 0.13608276348795434, 0.3999493513135939, 0.9333839820197394)),
    (2, [2, 0, 1, 1], (0.5, 0.10458250331675945, 0.29502206008611076, 0.7049779399138892)),
    (8, [3, 4, 6, 0, 8, 1, 1, 4, 2, 5], (0.43999999999999995, 0.04156047072968168, 0.35854297418929276,
                                         0.5214570258107072)),
    (16, [1, 7, 11, 6, 11, 7, 14, 0, 12, 6, 12, 0, 12, 1, 0, 5, 10, 0, 10, 10, 16, 14, 16, 16, 13, 4, 11, 10, 7, 15],
     (0.5314814814814816, 0.017052074048916177, 0.49806003048389574, 0.5649029324790673)),
    (64, [57, 17, 27, 0, 7, 2, 57, 33, 46, 38, 6, 27, 32, 32, 35, 56, 5, 7, 35, 6, 26, 12, 6, 64, 43, 29, 59, 18, 27,
          57, 26, 15, 4, 48, 18, 4, 23, 4, 2, 35, 37, 13, 44, 20, 2, 2, 23, 44, 34, 25],
     (0.4057575757575757, 0.007037017801113484, 0.39196527430882605, 0.41954987720632536)),
    (3, [3, 1, 2, 1, 2, 0, 1], (0.48571428571428577, 0.07190318509781665, 0.344786632548848, 0.6266419388797235)),
    (2, [2, 2, 2], (0.75, 0.11180339887498948, 0.5308693648558547, 0.9691306351441453)),
    (1, [0], (0.3333333333333333, 0.23570226039551584, 0.0, 0.795301274783226)),   # unclipped: -0.1286346081165593
]


@pytest.mark.parametrize("n, correct, expected", SCORIO)
def test_agrees_with_scorios_bayes_ci(n: int, correct: list[int], expected: tuple[float, ...]) -> None:
    result = bayes_at_n(n, correct)
    assert (result.mean, result.sd, *result.ci95) == pytest.approx(expected, rel=1e-15, abs=1e-16)
    assert figures(result) == exact_bayes([n] * len(correct), correct)


def test_scorios_docstring_example_is_laplaces_rule() -> None:
    result = bayes_at_n(5, [3, 4])   # posterior means 4/7 and 5/7
    assert result.mean == float(Fraction(9, 14)) and result.problems == 2
    with mpmath.workdps(DIGITS):   # (c + 1)(n - c + 1) / ((n + 2)^2 (n + 3)) summed, over P^2 = 4
        assert result.sd == nearest_mpf(mpmath.sqrt(mpmath.mpf(4 * 3 + 5 * 2) / (49 * 8 * 4)), DIGITS)


counts = st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))
runs = st.lists(counts, min_size=1, max_size=40)


@given(runs)
@settings(max_examples=80)
def test_every_figure_is_the_double_nearest_its_exact_value(pairs: list[tuple[int, int]]) -> None:
    samples, correct = (list(values) for values in zip(*pairs))
    assert figures(bayes_at_n(samples, correct)) == exact_bayes(samples, correct)


@pytest.mark.parametrize("n, correct", [(1, [1]), (1, [0, 1]), (2, [0] * 40), (10**12, [0, 10**12, 5 * 10**11]),
                                        (10**12 - 1, [1]), (999_999_999_989, [123_456_789_012] * 7 + [3])])
def test_clipped_ends_and_the_largest_n_are_exact(n: int, correct: list[int]) -> None:
    assert figures(bayes_at_n(n, correct)) == exact_bayes([n] * len(correct), correct)
    assert bayes_at_n(1, [1]).ci95[1] == 1.0 and bayes_at_n(1, [0]).ci95[0] == 0.0


def test_problems_sharing_a_pair_count_once_each() -> None:
    samples, correct = [10] * 1000 + [7] * 3, [3] * 500 + [4] * 500 + [0, 7, 7]
    assert figures(bayes_at_n(samples, correct)) == exact_bayes(samples, correct)
    assert bayes_at_n(samples, correct).problems == 1003


def both_ways(samples: list[int], correct: list[int]) -> tuple[object, object]:
    """(the double-double way's figures or None, the whole numbers' way's figures) of the same problems."""
    pairs, where = bayes.checked_pairs(samples, correct, 1)
    counts = np.bincount(where, minlength=len(pairs))
    fast = bayes._double_double(pairs[:, 0].astype(np.float64), pairs[:, 1].astype(np.float64),
                                counts.astype(np.float64), len(samples))
    return fast, bayes._whole_numbers(pairs.tolist(), counts.tolist(), len(samples))


@given(runs)
@settings(max_examples=100)
def test_the_double_double_way_and_the_whole_numbers_way_agree_bit_for_bit(pairs: list[tuple[int, int]]) -> None:
    samples, correct = (list(values) for values in zip(*pairs))
    fast, whole = both_ways(samples, correct)
    assert fast is not None and fast == whole


@given(runs)
def test_a_probability_with_the_mean_inside_its_interval(pairs: list[tuple[int, int]]) -> None:
    samples, correct = zip(*pairs)
    result = bayes_at_n(samples, correct)
    low, high = result.ci95
    assert 0.0 <= low <= result.mean <= high <= 1.0
    assert 0.0 < result.sd <= 0.5 / math.sqrt(3 * len(pairs))   # each m (1 - m)/(n + 3) is at most 1/12


@given(runs, st.data())
def test_more_passes_never_lower_the_mean(pairs: list[tuple[int, int]], data: st.DataObject) -> None:
    samples, correct = (list(values) for values in zip(*pairs))
    index = data.draw(st.integers(0, len(pairs) - 1))
    more = correct.copy()
    more[index] = data.draw(st.integers(correct[index], samples[index]))
    assert bayes_at_n(samples, more).mean >= bayes_at_n(samples, correct).mean


@given(st.integers(1, 10**9), st.integers(1, 200))
def test_with_nothing_known_about_a_rate_the_mean_is_one_half(n: int, problems: int) -> None:
    # half the samples of every problem pass: each posterior is symmetric about 1/2, and so is the interval
    result = bayes_at_n(2 * n, [n] * problems)
    assert result.mean == 0.5 and result.ci95[0] == pytest.approx(1 - result.ci95[1], rel=1e-15)


def test_the_exact_sums_settle_what_brackets_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = [(n, c) for n in range(1, 30) for c in (0, n // 3, n)]
    samples, correct = (list(values) for values in zip(*pairs))
    monkeypatch.setattr(bayes, "_double_double", lambda *counts: None)
    monkeypatch.setattr(bayes, "PRECISIONS", (4,))   # far too coarse: every bracket straddles a boundary
    assert figures(bayes_at_n(samples, correct)) == exact_bayes(samples, correct)


def test_past_the_exact_denominators_a_coarse_bracket_takes_its_midpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = list(range(1, 200))
    correct = [n // 2 for n in samples]
    expected = exact_bayes(samples, correct)
    monkeypatch.setattr(bayes, "_double_double", lambda *counts: None)
    monkeypatch.setattr(bayes, "PRECISIONS", (40,))
    mean, sd, (low, high) = figures(bayes_at_n(samples, correct))
    assert (mean, sd, low, high) == pytest.approx((expected[0], expected[1], *expected[2]), rel=1e-9)


def test_many_problems_each_with_its_own_n() -> None:
    samples = np.arange(1, 100_001)
    correct = samples // 3
    result = bayes_at_n(samples, correct)
    means = (correct + 1) / (samples + 2)
    assert result.mean == pytest.approx(math.fsum(means.tolist()) / samples.size, rel=1e-14)
    assert result.sd == pytest.approx(math.sqrt(math.fsum((means * (1 - means) / (samples + 3)).tolist()))
                                      / samples.size, rel=1e-14)


def test_z_is_the_normals_975_quantile() -> None:
    with mpmath.workdps(80):
        z95 = mpmath.mpf(Z95.numerator) / Z95.denominator
        assert abs(z95 - mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))) < mpmath.mpf(Z95_BOUND.numerator) / \
            Z95_BOUND.denominator
        assert abs(mpmath.ncdf(z95) - mpmath.mpf("0.975")) < 1e-54
    assert Z95_BOUND <= Fraction(1, 10**50)
    assert float(Z95) == pytest.approx(NormalDist().inv_cdf(0.975), rel=1e-15)


@pytest.mark.parametrize("samples, correct, message", [
    ([], [], "Bayes@N needs at least one problem"),
    ([5, 0], [1, 0], "problem 1: "),
    ([5], [6], "problem 0: "),
])
def test_bad_counts_are_refused_naming_the_problem(samples: list[int], correct: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bayes_at_n(samples, correct)
