"""maj@k and G-Pass@k beside pass@k in a benchmark's Summary (passk.results.metrics): means, error bars and limits, checked
against exact fractions, brute force over every k-subset, and the population interval's definition."""

import io
import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from oracles import assert_is_midp_interval, nearest, population_trials
from passk.results.benchmark import summarize
from passk.formats import read_files
from passk.formats._core import Parsed, Problem
from passk.formats.combine import combine
from passk.results.metrics import Beside, g_pass_table, majority_table
from passk.writing.answers import to_json
from where import REALDATA

ANSWERS = ["7", "8", "9", None, ""]   # None: no answer; "" votes (the readers turn "" into None where theirs does)


def vote(votes, tie):
    """One vote over (answer, verdict) pairs, from the definition: the most frequent valid (answer, verdict) wins;
    a tie earns the share of its correct answers (fractional) or nothing (wrong)."""
    counts = Counter((answer, verdict) for answer, verdict in votes if answer is not None)
    if not counts:
        return Fraction(0)
    top = max(counts.values())
    tied = [verdict for (_, verdict), count in counts.items() if count == top]
    if tie == "wrong":
        return Fraction(int(tied == [True]))
    return Fraction(sum(tied), len(tied))


def every_subset(votes, k, tie):
    """maj@k by brute force: the mean vote over all C(n, k) subsets."""
    return sum((vote([votes[i] for i in chosen], tie) for chosen in combinations(range(len(votes)), k)),
               Fraction(0)) / math.comb(len(votes), k)


@st.composite
def voted_problems(draw, most_samples=7, most_problems=6):
    """Problems whose samples carry votes: answers from a few values, the right ones drawn per problem."""
    problems = []
    for index in range(draw(st.integers(1, most_problems))):
        n = draw(st.integers(1, most_samples))
        answers = draw(st.lists(st.sampled_from(ANSWERS), min_size=n, max_size=n))
        right = draw(st.sets(st.sampled_from(ANSWERS[:3]), max_size=2))
        votes = tuple((answer, answer in right) for answer in answers)
        problems.append(Problem(f"p{index}", n, sum(verdict for _, verdict in votes), votes))
    return problems


@settings(max_examples=60, deadline=None)
@given(voted_problems(), st.sampled_from(["fractional", "wrong"]))
def test_maj_at_k_is_the_mean_over_problems_of_every_k_subset_vote(problems, tie):
    ks = list(range(1, 8))
    majority = summarize(problems, ks, tie=tie).majority
    if max(problem.n for problem in problems) == 1:   # maj@1 of one sample each would repeat pass@1
        assert majority is None
        return
    assert majority is not None and majority.tie == tie
    fewest = min(problem.n for problem in problems)
    for row in majority.results:
        if row.k > fewest:
            assert row.estimate is None and f"maj@{row.k}" in row.reason
            continue
        exact = [every_subset(problem.votes, row.k, tie) for problem in problems]
        assert row.estimate.value == nearest(sum(exact) / len(exact))   # the exact mean, rounded once
        first = sum(vote(problem.votes[:row.k], tie) for problem in problems) / len(problems)
        assert row.first_k == float(first)
        if len(problems) > 1 and 0 < sum(exact) < len(exact):
            variance = sum((value - sum(exact) / len(exact)) ** 2 for value in exact) / (len(exact) - 1)
            assert row.estimate.se == pytest.approx(math.sqrt(variance / len(exact)), rel=1e-12)
            mean, trials = population_trials(exact)
            assert_is_midp_interval(row.estimate.ci95, float(mean) * trials, trials)
    at_n = [vote(problem.votes, tie) for problem in problems]
    assert majority.at_n.value == float(sum(at_n) / len(at_n))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(2, 40), st.integers(0, 40)), min_size=2, max_size=30))
def test_maj_at_1_prints_as_pass_at_1_when_every_sample_has_an_answer(counts):
    """Both are the exact mean of c/n rounded once (NeMo-Skills' files once showed maj@1 an ulp below pass@1)."""
    problems = []
    for index, (n, c) in enumerate(counts):
        c = min(c, n)
        votes = tuple(("right", True) if i < c else (f"wrong {i}", False) for i in range(n))
        problems.append(Problem(f"p{index}", n, c, votes))
    summary = summarize(problems, [1])
    assert summary.majority.results[0].estimate.value == summary.results[0].pass_at_k == \
        nearest(sum(Fraction(min(c, n), n) for n, c in counts) / len(counts))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(0, 12)), min_size=1, max_size=8),
       st.sampled_from([0.25, 0.5, 0.75, 1.0, Fraction(2, 3)]))
def test_g_pass_is_the_mean_of_each_problems_hypergeometric_tail(pairs, tau):
    pairs = [(n, min(c, n)) for n, c in pairs]
    samples, correct = (np.array(values, dtype=np.int64) for values in zip(*pairs))
    table = g_pass_table(samples, correct, [1, 2, 5, 12], tau)
    for row in table.results:
        if row.k > min(samples):
            assert row.g_pass is None and row.reason.startswith(f"G-Pass@{row.k} is undefined")
            continue
        need = max(1, math.ceil(Fraction(tau) * row.k))
        tails = [sum(Fraction(math.comb(c, j) * math.comb(n - c, row.k - j), math.comb(n, row.k))
                     for j in range(need, row.k + 1)) for n, c in pairs]
        assert row.g_pass.value == pytest.approx(float(sum(tails) / len(tails)), rel=1e-15, abs=1e-300)
        # mG-Pass@k = 2/k sum_{m = ceil(k/2)+1}^{k} P(X >= m) = 2/k sum over j > ceil(k/2) of (j - ceil(k/2)) P(X = j)
        half = (row.k + 1) // 2
        mg = [Fraction(2, row.k) * sum((j - half) * Fraction(math.comb(c, j) * math.comb(n - c, row.k - j),
                                                             math.comb(n, row.k)) for j in range(half + 1, row.k + 1))
              for n, c in pairs]
        assert row.mg_pass.value == pytest.approx(float(sum(mg) / len(mg)), rel=1e-13, abs=1e-300)


def test_g_pass_at_tau_1_is_pass_hat_k_and_near_0_is_pass_at_k():
    problems = [Problem("a", 10, 4), Problem("b", 10, 9), Problem("c", 10, 0)]
    summary = summarize(problems, [1, 3, 10], tau=1.0)
    low = summarize(problems, [1, 3, 10], tau=1e-9)
    for row, result, low_row in zip(summary.g_pass.results, summary.results, low.g_pass.results):
        assert row.g_pass.value == pytest.approx(result.pass_hat.pass_at_k, rel=1e-15)
        assert row.g_pass.se == pytest.approx(result.pass_hat.se, rel=1e-12)
        assert low_row.g_pass.value == pytest.approx(result.pass_at_k, rel=1e-15)


def test_without_votes_or_tau_nothing_is_computed_beside_pass_at_k():
    summary = summarize([Problem("a", 3, 1), Problem("b", 3, 2)], [1, 2])
    assert summary.majority is None and summary.g_pass is None
    assert "majority" not in to_json(summary, "csv") and "g_pass" not in to_json(summary, "csv")


def test_a_problem_with_fewer_votes_than_samples_gets_no_majority():
    problems = [Problem("a", 2, 1, (("7", True), ("8", False))), Problem("b", 3, 1, (("7", True),))]
    assert summarize(problems, [1]).majority is None


def test_the_vote_work_bound_leaves_out_ks_with_a_reason_before_computing_them():
    votes = tuple((str(index % 9), index % 3 == 0) for index in range(60))
    problems = [Problem(f"p{index}", 60, 20, votes) for index in range(3)]
    free = majority_table([p.task_id for p in problems], [p.votes for p in problems], [1, 30, 60])
    bounded = majority_table([p.task_id for p in problems], [p.votes for p in problems], [1, 30, 60], work=1_000)
    assert [row.estimate is not None for row in free.results] == [True, True, True]
    assert bounded.results[0].estimate == free.results[0].estimate
    assert bounded.results[2].estimate == free.results[2].estimate   # k = n: one vote each, cheap
    assert bounded.results[1].estimate is None
    assert "maj@30 is not computed here" in bounded.results[1].reason
    assert "the command line computes it" in bounded.results[1].reason


def test_voting_buys_counts_problems_where_the_vote_beats_a_single_sample():
    # 2 of 5 correct but the three wrong answers differ: the vote is right though pass@1 = 0.4
    spread = (("1", True), ("1", True), ("2", False), ("3", False), ("4", False))
    # 3 of 5 correct but with three different correct answers, and two equal wrong ones: the vote is wrong
    split = (("1", True), ("2", True), ("3", True), ("9", False), ("9", False))
    problems = [Problem("spread", 5, 2, spread), Problem("split", 5, 3, split)]
    buys = summarize(problems, [1]).majority.voting_buys
    assert (buys["right_below_half"], buys["wrong_from_half"], buys["problems"]) == (1, 1, 2)
    assert "1 problem (50.0%) where fewer than half the samples are correct" in buys["sentence"]


def test_combining_seed_files_adds_up_their_votes_in_file_order():
    one = Parsed([Problem("a", 1, 1, (("7", True),)), Problem("b", 1, 0, ((None, False),))], "nemoskills")
    two = Parsed([Problem("a", 1, 0, (("8", False),)), Problem("b", 1, 1, (("3", True),))], "nemoskills")
    combined = combine([("rs0", one), ("rs1", two)])
    assert [problem.votes for problem in combined.problems] == [(("7", True), ("8", False)),
                                                                ((None, False), ("3", True))]
    mixed = combine([("rs0", one), ("rs1", Parsed([Problem("a", 1, 1)], "nemoskills"))])
    assert all(problem.votes is None for problem in mixed.problems)


def test_beside_is_a_plain_value():
    assert Beside() == Beside(None, "fractional")


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
@pytest.mark.parametrize("benchmark, seeds, k, figure", [("hendrycks_math", 3, 3, Fraction(16, 21)),
                                                         ("gpqa", 4, 4, Fraction(1, 2))])
def test_nemo_skills_seed_files_give_their_majority_at_n(benchmark, seeds, k, figure):
    paths = [REALDATA / f"nemoskills__NVIDIA_NeMo-Skills__{benchmark}_output-rs{seed}.jsonl" for seed in range(seeds)]
    parsed = read_files([(path.name, io.BytesIO(path.read_bytes())) for path in paths])
    majority = summarize(parsed.problems, [k]).majority
    assert majority.results[0].estimate.value == float(figure) == majority.results[0].first_k
    assert majority.at_n.value == float(figure)
