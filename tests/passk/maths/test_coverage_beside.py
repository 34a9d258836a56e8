"""bench/coverage_beside.py in small: maj@k's and G-Pass@k's 95% intervals hold the truth, and the truth is exact.

docs/coverage.md's section "maj@k and G-Pass@k (issue 17)" holds the whole grid. Here one G-Pass@k scenario
and one maj@k scenario the bench shows in the band are drawn DRAWS = 300 times with the bench's own seed; the
coverage must lie within 0.91-0.99, about 3.2 Monte Carlo standard errors (1.26 points) either side of 95%: an
interval that truly covers 95% fails by chance about once in 700 seeds, and the seed is fixed. The bench's
first draws go through summarize() itself and it raises if its fast path differs.

The truths are checked without Monte Carlo: the bench's composition sums against every sequence of k draws
scored by passk.maths.majority.vote_score (exact Fractions), the binomial tails against every pass/fail sequence, and
each truth against the expectation of the per-problem estimate over every outcome of n samples (unbiasedness).
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from bench import coverage_beside as bench
from passk.maths.gpass import estimate_g_pass_at_k, estimate_mg_pass_at_k
from passk.maths.majority import majority_at_k_exact, vote_score

DRAWS = 300
BAND = (0.91, 0.99)
NAMES = ["right", "wrong 1", "wrong 2", "wrong 3", None]   # the bench's categories: correct, wrong ones, none
DISTRIBUTIONS = [
    [Fraction(1, 3), Fraction(1, 3), Fraction(1, 6), Fraction(0), Fraction(1, 6)],
    [Fraction(1, 2), Fraction(1, 10), Fraction(1, 5), Fraction(1, 10), Fraction(1, 10)],
    [Fraction(0), Fraction(3, 4), Fraction(0), Fraction(0), Fraction(1, 4)],   # the right answer never drawn
    [Fraction(1), Fraction(0), Fraction(0), Fraction(0), Fraction(0)],          # ... always drawn
    [Fraction(1, 5)] * 5,
]


def chance_of(sequence, probabilities):
    return math.prod((probabilities[category] for category in sequence), start=Fraction(1))


def brute_vote(probabilities, k, tie):
    """The expected vote over every sequence of k draws, each scored by passk.maths.majority.vote_score."""
    total = Fraction(0)
    for sequence in itertools.product(range(len(probabilities)), repeat=k):
        answers = [NAMES[category] for category in sequence]
        total += chance_of(sequence, probabilities) * vote_score(answers, [category == 0 for category in sequence],
                                                                 tie)
    return total


@pytest.mark.parametrize("tie", ["fractional", "wrong"])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_vote_truth_is_the_expected_vote_over_every_sequence(k, tie):
    for probabilities in DISTRIBUTIONS:
        exact = brute_vote(probabilities, k, tie)
        assert bench.vote_truth_exact(probabilities, k, tie) == exact
        assert bench.vote_truth([float(p) for p in probabilities], k, tie)[0] == pytest.approx(float(exact),
                                                                                                abs=1e-14)


@pytest.mark.parametrize("tie", ["fractional", "wrong"])
def test_vote_truth_is_what_majority_at_k_estimates(tie):
    """The mean of passk's maj@k over every outcome of n = 5 samples, weighted by its multinomial chance, is the
    truth exactly: the estimate is unbiased for it."""
    n, k = 5, 3
    for probabilities in DISTRIBUTIONS[:3]:
        expected = Fraction(0)
        for sequence in itertools.combinations_with_replacement(range(len(probabilities)), n):
            counts = [sequence.count(category) for category in range(len(probabilities))]
            ways = math.factorial(n) // math.prod(math.factorial(x) for x in counts)
            answers = [NAMES[category] for category in sequence]
            value = majority_at_k_exact(answers, [category == 0 for category in sequence], k, tie)
            expected += ways * chance_of(sequence, probabilities) * value
        assert expected == bench.vote_truth_exact(probabilities, k, tie)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_g_pass_truths_are_the_tails_over_every_sequence(k):
    rates = [Fraction(0), Fraction(1, 7), Fraction(1, 2), Fraction(5, 6), Fraction(1)]
    for rate in rates:
        passes = {}   # chance of each number of passes among k, over every pass/fail sequence
        for sequence in itertools.product((0, 1), repeat=k):
            chance = math.prod((rate if x else 1 - rate for x in sequence), start=Fraction(1))
            passes[sum(sequence)] = passes.get(sum(sequence), 0) + chance
        for tau in (Fraction(1, 3), 0.5, 0.75, 1.0):
            least = next(m for m in range(1, k + 1) if m >= Fraction(tau) * k)
            tail = sum(chance for j, chance in passes.items() if j >= least)
            assert bench.g_pass_truth([float(rate)], k, tau)[0] == pytest.approx(float(tail), abs=1e-14)
        weighted = sum(Fraction(2, k) * max(0, j - ((k + 1) // 2 + 1) + 1) * chance for j, chance in passes.items())
        assert bench.mg_pass_truth([float(rate)], k)[0] == pytest.approx(float(weighted), abs=1e-14)


def test_g_pass_truths_are_what_the_estimates_estimate():
    """Over c ~ Binomial(n, p), the mean of the per-problem G-Pass@k and mG-Pass@k is the truth."""
    n, k, rates = 12, 4, np.array([0.0, 0.13, 0.5, 0.9, 1.0])
    chances = np.array([[math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)] for p in rates])
    for tau in bench.TAUS:
        np.testing.assert_allclose(chances @ estimate_g_pass_at_k(n, np.arange(n + 1), k, tau),
                                   bench.g_pass_truth(rates, k, tau), atol=1e-13)
    np.testing.assert_allclose(chances @ estimate_mg_pass_at_k(n, np.arange(n + 1), k), bench.mg_pass_truth(rates, k),
                               atol=1e-13)


def test_g_pass_interval_covers_95_percent():
    """mix 30/20 rates (30% never solved, 20% always), P = 100, n = 2k = 8: each tau and mG-Pass@k."""
    index = [rates.name for rates in bench.RATES].index("mix 30/20")
    population = {index: bench.RATES[index].types(bench.scenario_rng(bench.SEED, "rates", index), bench.POPULATION)}
    rows = bench.g_pass_case(bench.SEED, DRAWS, index, 100, 8, 4, population)
    assert [row["statistic"] for row in rows] == ["G-Pass τ=0.5", "G-Pass τ=0.75", "G-Pass τ=1", "mG-Pass"]
    for row in rows:
        assert BAND[0] <= row["coverage"] <= BAND[1], row


def test_majority_interval_covers_95_percent_with_few_problems():
    """Answers of which 30% of problems never give the right one and 20% always do, P = 20, n = 2k = 8."""
    index = [answers.name for answers in bench.ANSWERS].index("mix 30/20")
    types = bench.ANSWERS[index].types(bench.scenario_rng(bench.SEED, "answers", index), bench.POPULATION)
    assert np.allclose(types.sum(axis=1), 1) and np.mean(types[:, 0] == 0) == pytest.approx(0.3)
    rows = bench.majority_case(bench.SEED, DRAWS, index, 20, 8, 4, {index: types})
    assert [row["statistic"] for row in rows] == ["maj@k fractional", "maj@k wrong"]
    for row in rows:
        assert BAND[0] <= row["coverage"] <= BAND[1], row


def test_mirror_and_calibration_truths_are_what_the_estimates_estimate():
    """pass@k's truth 1 - (1 - p)^k and pass^k's p^k (mirror_case), and the calibration grid's beta-binomial tails,
    are the expectations of the per-problem estimates over c ~ Binomial(n, p)."""
    n, k, rates = 16, 4, np.array([0.0, 0.13, 0.5, 0.9, 1.0])
    chances = np.array([[math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)] for p in rates])
    tables = bench.calibration_tables(n, k)
    np.testing.assert_allclose(chances @ tables["pass@k"][0], 1 - (1 - rates) ** k, atol=1e-13)
    np.testing.assert_allclose(chances @ tables["pass^k"][0], rates**k, atol=1e-13)
    a, b = 2.0, 5.0   # the beta-binomial tail is the Beta(a, b) mean of the binomial one
    mean_hat = math.prod((a + i) / (a + b + i) for i in range(k))
    assert float(tables["pass^k"][1](a, b)) == pytest.approx(mean_hat, rel=1e-12)
    assert float(tables["pass@k"][1](b, a)) == pytest.approx(1 - mean_hat, rel=1e-12)
