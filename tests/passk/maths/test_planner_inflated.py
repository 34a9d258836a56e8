"""The planner's prior with mass at 0 and 1 (passk.maths.inflated), against exact fractions, and its decline rule.

A problem's rate is 0 with chance broken, 1 with chance solid, else drawn from Beta(a, b); its c of n samples
then has the chance broken [c = 0] + solid [c = n] + flaky C(n, c) E[p^c (1 - p)^(n - c)]. Here every chance,
posterior and expected variance is derived again in fractions from that sentence.
"""

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from passk.results.benchmark import summarize
from passk.formats import Problem
from passk.maths.inflated import InflatedPrior, fit_inflated, flaky_chance, log_likelihood, noise_doubt
from passk.maths.intervals import fixed_interval
from passk.results.planner import DOUBT_LIMIT, fixed_half_width, plan, samples_needed
from passk.maths.variance import fit_prior

PRIOR = InflatedPrior(broken=0.25, solid=0.125, a=0.5, b=1.5)   # every figure a double exactly
SAMPLES, CORRECT = [6, 6, 6, 4, 3, 6], [0, 6, 2, 4, 1, 0]


def moment(a, b, passes, misses):
    """E[p^passes (1 - p)^misses] for p ~ Beta(a, b), in fractions."""
    value = Fraction(1)
    for t in range(passes):
        value *= (a + t) / (a + b + t)
    for t in range(misses):
        value *= (b + t) / (a + b + passes + t)
    return value


def exact(prior):
    return tuple(Fraction(value) for value in (prior.broken, prior.solid, prior.a, prior.b))


def chance_of(n, c, prior):
    """The chance of c of n samples passing, in fractions."""
    broken, solid, a, b = exact(prior)
    flaky = 1 - broken - solid
    return broken * (c == 0) + solid * (c == n) + flaky * comb(n, c) * moment(a, b, c, n - c)


def exact_flaky(n, c, prior):
    """The chance that the problem's rate is neither 0 nor 1, given c of n."""
    broken, solid, a, b = exact(prior)
    return (1 - broken - solid) * comb(n, c) * moment(a, b, c, n - c) / chance_of(n, c, prior)


def exact_noise(n, c, k, m, prior):
    """E[Var of the pass@k estimate at m samples]: flaky chance times the Beta posterior's
    sum_j H(j) (E[(1-p)^(2k-j)] - E[(1-p)^(2k)]), H(j) = C(k, j) C(m - k, k - j) / C(m, k)."""
    _, _, a, b = exact(prior)
    alpha, beta = a + c, b + n - c
    total = sum(Fraction(comb(k, j) * comb(m - k, k - j), comb(m, k))
                * (moment(alpha, beta, 0, 2 * k - j) - moment(alpha, beta, 0, 2 * k)) for j in range(1, k + 1))
    return exact_flaky(n, c, prior) * total


def problems_of(samples, correct):
    return [Problem(f"task {i}", int(n), int(c)) for i, (n, c) in enumerate(zip(samples, correct))]


def test_the_likelihood_is_the_product_of_each_problem_s_chance():
    product = math.prod(chance_of(n, c, PRIOR) for n, c in zip(SAMPLES, CORRECT))
    assert log_likelihood(SAMPLES, CORRECT, PRIOR) == pytest.approx(math.log(product), rel=1e-13)


def test_a_problem_seen_broken_or_solid_is_flaky_with_the_chance_bayes_gives_it():
    expected = [exact_flaky(n, c, PRIOR) for n, c in zip(SAMPLES, CORRECT)]
    assert flaky_chance(SAMPLES, CORRECT, PRIOR).tolist() == pytest.approx([float(x) for x in expected], rel=1e-13)
    assert expected[2] == expected[4] == 1   # 0 < c < n: surely flaky


@pytest.mark.parametrize("k, per_problem", [(1, 0), (1, 40), (2, 0), (2, 25), (3, 14)])
def test_the_planned_noise_is_each_problem_s_flaky_chance_times_its_beta_posterior_s(k, per_problem):
    samples, correct = [10, 10, 10, 10, 16, 16, 12], [3, 0, 7, 10, 2, 16, 0]
    mean = sum(1 - Fraction(comb(n - c, k), comb(n, k)) for n, c in zip(samples, correct)) / 7
    total = sum(exact_noise(n, c, k, max(n, per_problem), PRIOR) for n, c in zip(samples, correct))
    low, high = fixed_interval(float(mean), math.sqrt(total) / 7, sum(max(n, per_problem) for n in samples) / k)
    assert fixed_half_width(samples, correct, k, per_problem, PRIOR) == pytest.approx((high - low) / 2, rel=1e-9)


def test_with_two_samples_the_fit_gives_back_the_shares_of_0_1_and_2_passes():
    # n = 2 leaves three chances and the prior has four parameters: the likeliest prior matches them exactly.
    correct = [0] * 12 + [1] * 6 + [2] * 12
    prior = fit_inflated([2] * 30, correct)
    chances = [float(chance_of(2, c, prior)) for c in (0, 1, 2)]
    assert chances == pytest.approx([12 / 30, 6 / 30, 12 / 30], abs=1e-4)


def test_at_the_fit_each_share_is_the_mean_chance_that_a_problem_is_broken_or_solid():
    # The likelihood's own equations for the shares (EM's fixed point), on 1,000 problems of n = 20.
    correct = [0] * 400 + [20] * 400 + [1 + i % 19 for i in range(200)]
    samples = [20] * 1000
    prior = fit_inflated(samples, correct)
    flaky = flaky_chance(samples, correct, prior)
    broken = np.where(np.array(correct) == 0, 1 - flaky, 0.0).mean()
    solid = np.where(np.array(correct) == 20, 1 - flaky, 0.0).mean()
    assert (prior.broken, prior.solid) == pytest.approx((broken, solid), abs=1e-5)
    assert 0.35 < prior.broken < 0.4 and 0.35 < prior.solid < 0.4   # some of the 400 seen broken are flaky
    assert log_likelihood(samples, correct, prior) >= log_likelihood(samples, correct, PRIOR)


def test_problems_seen_broken_keep_little_noise_where_most_are_so():
    # 400 broken, 400 solid, 200 flaky at n = 20: the moment-fitted Beta gave each c = 0 problem much of the noise
    # at pass@10; here it gives almost none, and the samples planned fall with it.
    correct = [0] * 400 + [20] * 400 + [1 + i % 19 for i in range(200)]
    samples = [20] * 1000
    prior = fit_inflated(samples, correct)
    assert flaky_chance([20], [0], prior)[0] < 0.05
    old = samples_needed(samples, correct, 10, 0.002, fit_prior(samples, correct))
    assert samples_needed(samples, correct, 10, 0.002) < old / 2


# ---------------------------------------------------------------------------
# The decline rule


def declined(rows):
    return [sentence for row in rows for sentence in row.sentences if "are not planned" in sentence]


def test_two_samples_of_30_problems_are_too_few_to_plan_with_and_the_plan_says_so():
    samples, correct = [2] * 30, [0] * 10 + [1] * 10 + [2] * 10   # ten seen flaky: the doubt decides
    (row,) = plan(summarize(problems_of(samples, correct), [1]), target=0.01)
    doubt = noise_doubt(samples, correct, 1, fit_inflated(samples, correct))
    assert row.noise_doubt == doubt > DOUBT_LIMIT and row.samples_per_problem is None
    (sentence,) = declined([row])
    assert sentence == (f"The samples per problem that would bring the interval for these very problems under "
                        f"±1.00 points at pass@1 are not planned: with 2 samples of 30 problems the sampling noise "
                        f"at pass@1 is uncertain by ±{doubt * 100:.0f}% (one SD), so a plan could miss its target "
                        f"by more than 15%; more samples of every problem (or more problems) would pin it down.")


def test_a_thousand_problems_of_20_samples_are_enough_to_plan_with():
    samples, correct = [20] * 1000, [0] * 400 + [20] * 400 + [1 + i % 19 for i in range(200)]
    rows = plan(summarize(problems_of(samples, correct), [1, 5]), target=0.002)
    assert not declined(rows)
    for row in rows:
        assert row.noise_doubt <= DOUBT_LIMIT
        assert row.samples_per_problem == samples_needed(samples, correct, row.k, 0.002)


def test_the_doubt_of_a_run_whose_noise_is_sure_is_small():
    # Problems of 10^7 samples: each rate is known to a few in 10^4 whatever the prior, so the noise is sure.
    samples, correct = [10_000_000] * 3, [1_900_000, 5_000_000, 9_000_000]
    assert noise_doubt(samples, correct, 1, fit_inflated(samples, correct)) < 0.01


@pytest.mark.parametrize("flaky, message", [(9, "only 9 of the 1,009 problems"), (0, "none of the 1,000 problems")])
def test_too_few_problems_seen_both_passing_and_failing_are_declined_with_a_sentence(flaky, message):
    # Beside 1,000 problems seen broken or solid, 9 flaky ones cannot tell how many of the others may be flaky.
    samples = [20] * (1000 + flaky)
    correct = [0] * 500 + [20] * 500 + [10] * flaky
    (row,) = plan(summarize(problems_of(samples, correct), [1]), target=0.001)
    (sentence,) = declined([row])
    assert row.samples_per_problem is None and row.noise_doubt is None
    assert sentence == (f"The samples per problem that would bring the interval for these very problems under "
                        f"±0.10 points at pass@1 are not planned: {message} passed some samples and failed others, "
                        f"too few to tell how many of the 1,000 that passed all or none of theirs may pass or fail "
                        f"with more samples; more samples of every problem (or more problems) would tell.")


def test_ten_problems_seen_flaky_are_enough_where_the_rest_are_all_flaky_too():
    # No problem seen broken or solid: nothing to tell apart, and the noise of ten flaky problems of n = 400 is sure.
    samples, correct = [400] * 10, [40 * i + 20 for i in range(10)]
    (row,) = plan(summarize(problems_of(samples, correct), [1]), target=0.002)
    assert not declined([row]) and row.noise_doubt <= DOUBT_LIMIT and row.samples_per_problem > 400
