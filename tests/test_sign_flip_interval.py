"""The exact sign-flip test's interval (passk.stats.sign_flip_interval) and the paired comparison that shows it.

Up to 20 paired problems the comparison gives the exact sign-flip p-value, so its interval must be the
inversion of that test: a shift delta is inside exactly when sign_flip_p(d - delta) >= 0.05. Issue 14
(finding 5): the Student-t interval it gave before excluded 0 at p = 0.0625.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from passk.benchmark import compare
from passk.estimator import pass_at_k
from passk.formats import Problem
from passk.ranking import rank_runs
from passk.stats import EXACT_MAX_PROBLEMS, sign_flip_interval, sign_flip_p


def kept(differences, delta):
    """Whether the sign-flip test, run directly on d - delta, keeps delta (p = 0.05 is not significant)."""
    return sign_flip_p(np.asarray(differences, dtype=float) - delta) >= 0.05


def inside(interval, delta):
    return interval[0] <= delta <= interval[1]


# --- (a) every delta where the test can change its mind, small P ---------------------------------

def random_differences(rng, count, kind):
    if kind == "continuous":
        return rng.uniform(-1, 1, count)
    if kind == "quarters":   # many ties
        return rng.integers(-4, 5, count) / 4
    # pass@1 of 10 samples in two runs: differences of floats such as 0.3 - 0.2, many of them 0
    return rng.integers(0, 11, count) / 10 - rng.integers(0, 11, count) / 10


def slack(differences, delta):
    """sign_flip_p's allowance for rounding at delta: 1e-12 of sum |d - delta|."""
    return 1e-12 * float(np.sum(np.abs(np.asarray(differences) - delta)))


@pytest.mark.parametrize("kind", ["continuous", "quarters", "tenths"])
@pytest.mark.parametrize("count", range(2, 11))
def test_the_interval_is_every_delta_the_test_keeps(count, kind):
    """At every subset mean (where the count of as-extreme sign patterns changes), at the midpoints between
    consecutive ones and beyond both, membership is sign_flip_p(d - delta) >= 0.05 computed directly.

    The one leeway: sign_flip_p counts sums within its slack (1e-12 of the differences) of a tie as ties,
    so it also keeps a delta that misses an end by less than that, such as the same subset mean summed in
    another order; the interval reports the subset mean itself. Anything farther out must be rejected."""
    rng = np.random.default_rng(1000 * count + len(kind))
    for _ in range(3):
        differences = random_differences(rng, count, kind)
        interval = sign_flip_interval(differences)
        means = sorted({float(np.mean(differences[list(subset)]))
                        for size in range(1, count + 1) for subset in itertools.combinations(range(count), size)})
        deltas = [means[0] - 0.5, *means, *((low + high) / 2 for low, high in zip(means, means[1:])), means[-1] + 0.5]
        for delta in deltas:
            if inside(interval, delta) != kept(differences, delta):
                assert kept(differences, delta), f"the interval holds {delta!r}, which the test rejects"
                assert min(abs(delta - end) for end in interval) <= slack(differences, delta), delta
        if count <= 5:   # 2 / 2^P >= 0.05: nothing is rejected
            assert interval == (-np.inf, np.inf)
            continue
        low, high = interval
        for end in interval:   # Hartigan: the ends are subset means (0 where the end is 0 but for rounding)
            assert min(abs(end - mean) for mean in means) <= slack(differences, end)
        # the test keeps the ends and rejects anything a little beyond them
        assert kept(differences, low) and kept(differences, high)
        assert not kept(differences, low - 1e-9) and not kept(differences, high + 1e-9)


def test_the_ends_are_subset_means_by_hand():
    """Seven problems: m = ceil(0.05 * 2^6) - 1 = 3 subsets must lie on each side. d = 0 (six times) and
    -1/8: the subset means below 0 are -1/8 (once), -1/16 (the -1/8 with one 0: six times), ...; the third
    smallest is -1/16. Above: the means 0 of the 63 sets of 0s, so the high end is 0."""
    assert sign_flip_interval([0.0] * 6 + [-0.125]) == (-1 / 16, 0.0)
    assert kept([0.0] * 6 + [-0.125], -1 / 16) and not kept([0.0] * 6 + [-0.125], -1 / 16 - 1e-9)


def test_a_difference_that_is_zero_but_for_rounding_is_a_tie_for_both():
    """0.1 + 0.2 - 0.3 is 5.6e-17 in floats; sign_flip_p treats it as 0, so it may take either sign and
    p = 4/64 (the observed signs, the mirror, each with it flipped), and the interval holds 0 too, though
    the smallest subset mean, the low end were it not for rounding, is that 5.6e-17: the low end is 0."""
    differences = [0.1 + 0.2 - 0.3] + [0.5] * 5
    assert differences[0] > 0 and sign_flip_p(differences) == 4 / 64
    assert sign_flip_interval(differences) == (0.0, 0.5)
    assert sign_flip_interval([-value for value in differences]) == (-0.5, 0.0)


def test_the_hand_worked_examples_in_the_docstrings_run():
    import doctest

    import passk.stats
    failed, attempted = doctest.testmod(passk.stats)
    assert failed == 0 and attempted >= 5


def test_bounds_confidence_and_input_checks():
    assert sign_flip_interval([0.1, -0.2, 0.3, 0.4, 0.5], low=-1.0, high=1.0) == (-1.0, 1.0)   # 2/32 >= 0.05
    assert sign_flip_interval([1.0] * 6, low=-1.0, high=1.0) == (1.0, 1.0)
    assert sign_flip_interval([0.0] * 8) == (0.0, 0.0)   # all 0: every shift but 0 leaves only 2 of 256 patterns
    # a lower confidence rejects more: 90% needs p >= 0.1, so m = ceil(0.1 * 32) - 1 = 3 subsets at six
    # problems. The subset means of 1..6 from below are 1, 1.5, 2 ({2} and {1, 3}), ...: the third is 2.
    wide, narrow = sign_flip_interval(range(1, 7)), sign_flip_interval(range(1, 7), confidence=0.9)
    assert (wide, narrow) == ((1.0, 6.0), (2.0, 5.0))
    for bad in ([], [0.1] * (EXACT_MAX_PROBLEMS + 1)):
        with pytest.raises(ValueError, match="1 to 20 differences"):
            sign_flip_interval(bad)
    with pytest.raises(ValueError, match="finite"):
        sign_flip_interval([0.1, float("nan")] * 3)
    with pytest.raises(ValueError, match="confidence"):
        sign_flip_interval([0.1] * 6, confidence=1.0)


# --- (b) 0 inside exactly when p >= 0.05, for any differences of 2 to 20 problems ------------------

@st.composite
def differences(draw, min_size=2, max_size=EXACT_MAX_PROBLEMS):
    """Differences of pass@k values drawn from a few (n, c), so ties and zeros are common, or raw floats
    in [-1, 1] drawn from a short list of values."""
    size = draw(st.integers(min_size, max_size))
    if draw(st.booleans()):
        k = draw(st.integers(1, 4))
        pool = draw(st.lists(st.integers(k, 30).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
                             min_size=1, max_size=5))
        values = sorted({float(pass_at_k(n, c, k)) for n, c in pool} | {0.0, 1.0})
        pairs = draw(st.lists(st.tuples(st.sampled_from(values), st.sampled_from(values)),
                              min_size=size, max_size=size))
        return [a - b for a, b in pairs]
    values = draw(st.lists(st.floats(-1, 1), min_size=1, max_size=6)) + [0.0]
    return draw(st.lists(st.sampled_from(values), min_size=size, max_size=size))


@settings(max_examples=150, deadline=None)
@given(differences())
def test_zero_is_inside_exactly_when_the_p_value_is_not_significant(values):
    interval = sign_flip_interval(values, low=-1.0, high=1.0)
    assert -1.0 <= interval[0] <= np.mean(values) + 1e-12 and np.mean(values) - 1e-12 <= interval[1] <= 1.0
    assert inside(interval, 0.0) == (sign_flip_p(values) >= 0.05)


@settings(max_examples=100, deadline=None)
@given(differences(max_size=12), st.floats(-1, 1))
def test_any_shift_is_inside_exactly_when_the_test_keeps_it(values, delta):
    interval = sign_flip_interval(values)
    # closer to an end than sign_flip_p's slack, it may keep a delta the interval leaves out (see above)
    if all(abs(delta - end) > 1e-9 for end in interval):
        assert inside(interval, delta) == kept(values, delta)


@st.composite
def paired_runs(draw):
    """Two runs of 2 to 20 problems each with n in 1..12, and a k every n allows."""
    size = draw(st.integers(2, EXACT_MAX_PROBLEMS))
    problem = st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))
    pool = draw(st.lists(problem, min_size=1, max_size=4))   # a few (n, c), so problems tie
    run_a, run_b = (draw(st.lists(st.sampled_from(pool) | problem, min_size=size, max_size=size)) for _ in "ab")
    k = draw(st.integers(1, min(n for n, _ in run_a + run_b)))
    return ([Problem(f"t{i}", n, c) for i, (n, c) in enumerate(run_a)],
            [Problem(f"t{i}", n, c) for i, (n, c) in enumerate(run_b)], k)


@settings(max_examples=150, deadline=None)
@given(paired_runs())
def test_compare_rows_show_an_interval_that_agrees_with_their_p_value(runs):
    run_a, run_b, k = runs
    row = compare(run_a, run_b, ks=[k]).results[0]
    assert row.test == "sign-flip"
    if row.ci95 is None:   # no spread: the row says so, and gives no interval
        assert row.reason.startswith("No spread between problems")
        return
    assert -1.0 <= row.ci95[0] <= row.difference <= row.ci95[1] <= 1.0
    assert inside(row.ci95, 0.0) == (row.p_value >= 0.05)
    differences = [pass_at_k(a.n, a.c, k) - pass_at_k(b.n, b.c, k) for a, b in zip(run_a, run_b)]
    assert row.ci95 == pytest.approx(sign_flip_interval(differences, low=-1.0, high=1.0), rel=0, abs=1e-12)


# --- (c) the finding's example ----------------------------------------------------------------------

def test_the_findings_example_holds_zero_at_p_0_0625():
    """A = 1, 0, 0, 0, 0, 0 against B = 1 six times (n = 1): d = 0, -1, -1, -1, -1, -1. The 0 may take
    either sign, so 4 of the 64 patterns reach |-5|: p = 0.0625. Six problems need m = ceil(0.05 * 32) - 1
    = 1 subset on each side: the ends are the least and greatest subset means, -1 and 0 (the 0 alone). The
    t interval was (-1.0, -0.405), which left 0 out."""
    run_a = [Problem(f"t{i}", 1, c) for i, c in enumerate([1, 0, 0, 0, 0, 0])]
    run_b = [Problem(f"t{i}", 1, 1) for i in range(6)]
    row = compare(run_a, run_b, ks=[1]).results[0]
    assert (row.p_value, row.test) == (0.0625, "sign-flip")
    assert row.ci95 == (-1.0, 0.0)


def test_five_problems_or_fewer_give_the_whole_range():
    """d = 1, 1, 1, 1, 1/2: only the observed signs and their mirror reach |4.5|, p = 2 / 2^5 = 0.0625, the
    least five problems can give, so no difference is excluded and the interval is all of [-1, 1], beside
    the note that says why."""
    row = compare([Problem(f"t{i}", 2, 2) for i in range(5)],
                  [Problem(f"t{i}", 2, c) for i, c in enumerate([0, 0, 0, 0, 1])], ks=[1]).results[0]
    assert (row.p_value, row.ci95) == (0.0625, (-1.0, 1.0))
    assert row.reason.startswith("Too few problems for any conclusion")


def test_the_ranking_shows_each_pair_the_comparisons_interval():
    """The ranking's pairs come from the same comparison: the exact interval, agreeing with p."""
    runs = [(name, [Problem(f"t{i}", 4, c) for i, c in enumerate(counts)])
            for name, counts in [("a", [4, 4, 3, 4, 2, 4, 3, 4]), ("b", [1, 0, 2, 1, 0, 1, 3, 0]),
                                 ("c", [4, 3, 3, 4, 1, 4, 4, 3])]]
    for pair in rank_runs(runs, ks=[1, 2]).results[1].pairs:
        row = compare(dict(runs)[pair.a], dict(runs)[pair.b], ks=[2]).results[0]
        assert (pair.ci95, pair.p_value, pair.test) == (row.ci95, row.p_value, "sign-flip")
        assert inside(pair.ci95, 0.0) == (pair.p_value >= 0.05)


# --- (d) how often it excludes 0 under the null, and covers a true shift ---------------------------

DRAWS, PROBLEMS = 2000, 8


def test_under_the_null_the_interval_excludes_zero_in_at_most_5_percent_of_draws():
    """Symmetric differences (no true difference) at P = 8: with continuous ones the exact test rejects
    at p <= 6/128, so the interval excludes 0 in 4.7% of draws (2,000 draws: a Monte Carlo SD of 0.5
    points, hence the bound 5.5%); pass@1 differences of two runs at the same rates tie, and it excludes
    0 less often. (The t interval it replaces excludes 0 in 5.3% of these continuous draws.)"""
    rng = np.random.default_rng(20240614)
    continuous = rng.uniform(-0.5, 0.5, (DRAWS, PROBLEMS))
    rates = rng.uniform(0, 1, (DRAWS, PROBLEMS))
    tied = (rng.binomial(10, rates) - rng.binomial(10, rates)) / 10
    for draws in (continuous, tied):
        excluded = [not inside(sign_flip_interval(d), 0.0) for d in draws]
        assert excluded == [sign_flip_p(d) < 0.05 for d in draws]
        assert np.mean(excluded) <= 0.055
    assert np.mean([not inside(sign_flip_interval(d), 0.0) for d in continuous]) >= 0.035   # not vacuous


def test_the_interval_covers_a_true_shift_in_about_95_percent_of_draws():
    """d_i = delta + symmetric noise: the interval inverts a test whose size is 6/128 when the noise is
    continuous, so it covers delta in 95.3% of draws; pass@1 differences of two runs at the same rate
    (ties, zeros) make it cover more. The bound leaves room for Monte Carlo error."""
    rng = np.random.default_rng(14)
    delta = 0.15
    continuous = delta + rng.normal(0, 0.3, (DRAWS, PROBLEMS))
    rates = rng.uniform(0, 1, (DRAWS, PROBLEMS))
    tied = delta + (rng.binomial(10, rates) - rng.binomial(10, rates)) / 10
    for draws in (continuous, tied):
        assert np.mean([inside(sign_flip_interval(d), delta) for d in draws]) >= 0.93
