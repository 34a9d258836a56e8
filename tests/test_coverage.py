"""Seeded simulations: do the 95% intervals cover, and is the paired test's 5% level kept?

Nominal 95% must land within 93-97% for P >= 30 problems (issue 9). Each case
draws a fixed number of benchmarks from a known model of problems, so the true
value is known exactly, and counts how often the interval holds it. With 1,500
draws the standard error of a 95% coverage is 0.56 points, so 93-97% is about
3.5 standard errors wide on each side: a correct interval fails by chance about
once in 4,000 runs, and the seed makes each run the same.
"""

import numpy as np
import pytest
from scipy.special import beta

from passk.benchmark import compare, summarize
from passk.formats import Problem

DRAWS = 1500


def population_pass_at_k(a, b, k):
    """E[1 - (1 - p)^k] for pass rates p ~ Beta(a, b): 1 - B(a, b + k) / B(a, b)."""
    return 1 - beta(a, b + k) / beta(a, b)


def benchmark(rates, n, rng):
    """One run: n samples of each problem, each passing with its problem's rate."""
    return [Problem(f"t{i}", n, int(c)) for i, c in enumerate(rng.binomial(n, rates))]


@pytest.mark.parametrize(("problems", "n", "k", "a", "b"), [
    (30, 10, 1, 0.6, 0.9),     # a U-shaped mix of broken, flaky and solid problems
    (30, 50, 10, 1.0, 3.0),
    (100, 10, 5, 0.5, 0.5),
    (164, 5, 1, 1.0, 2.0),
    # Where mean ± t·SE covered only 59-92%: values piling up against 0 or 1 (the Wald interval's weakness;
    # at k = n every per-problem value is 0 or 1). The Wilson interval at the effective sample size holds here.
    (30, 20, 5, 2.0, 3.0),     # pass@5 of about 0.8, skewed towards 1: t covered 92%
    (30, 10, 10, 0.5, 0.5),    # k = n: every per-problem value is 0 or 1: t covered 90%
    (50, 5, 5, 3.0, 1.0),      # k = n with pass rates near 1: t covered 59%, the interval often [1, 1]
    (30, 10, 1, 20.0, 1.0),    # pass@1 of 0.95: t covered 92%
    (30, 10, 1, 0.3, 2.0),     # pass@1 of 0.13, most problems broken: t covered 93%
])
def test_the_population_interval_covers_95_percent(problems, n, k, a, b):
    """'How good is the model on problems like these': new problems and new samples each draw."""
    rng = np.random.default_rng(20261123 + problems + n + k)
    truth = population_pass_at_k(a, b, k)
    covered = 0
    for _ in range(DRAWS):
        row = summarize(benchmark(rng.beta(a, b, problems), n, rng), [k]).results[0]
        covered += row.ci95[0] <= truth <= row.ci95[1]
    assert 0.93 <= covered / DRAWS <= 0.97


@pytest.mark.parametrize(("problems", "n", "k"), [(30, 20, 1), (50, 40, 10), (164, 200, 10)])
def test_the_fixed_benchmark_interval_covers_95_percent(problems, n, k):
    """'How good is it on these very problems': the same problems, new samples each draw; mean ± 1.96 SE fixed."""
    rng = np.random.default_rng(7 + problems + k)
    rates = rng.beta(0.8, 0.8, problems)
    truth = float(np.mean(1 - (1 - rates) ** k))
    covered = 0
    for _ in range(DRAWS):
        row = summarize(benchmark(rates, n, rng), [k]).results[0]
        covered += abs(row.pass_at_k - truth) <= 1.959963984540054 * row.se_fixed
    assert 0.93 <= covered / DRAWS <= 0.97


@pytest.mark.parametrize(("problems", "n"), [(8, 10), (40, 10)])   # the exact sign-flip test, then the t test
def test_two_equally_good_runs_differ_at_5_percent_no_more_than_5_percent_of_the_time(problems, n):
    """Under the null (both runs draw from the same rates), p < 0.05 must be at most about 5% of draws."""
    rng = np.random.default_rng(99 + problems)
    rates = rng.beta(0.7, 0.7, problems)
    rejections = sum(compare(benchmark(rates, n, rng), benchmark(rates, n, rng), [1]).results[0].p_value < 0.05
                     for _ in range(DRAWS))
    assert rejections / DRAWS <= 0.065
