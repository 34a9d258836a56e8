"""Issue 25: a ranking's work within the documented limits, counted rather than timed.

A run's exact pass@1 adds the passes over each n as whole numbers before it sums fractions, so it sums one
fraction per different n, not one per different (n, c); every pair of runs is compared by paired_results, which
gives compare_runs' rows without the per-problem lists a page shows, and takes a run's mean once when a pairing
pairs all of it.
"""

import random
from fractions import Fraction
from itertools import combinations

import pytest

import passk.results.benchmark
from passk.results.benchmark import PairedRun, compare, compare_runs, paired_results, summarize
from passk.formats import Problem
from passk.results.ranking import rank_runs


def run_of(run, problems=4240, different_n=625, shuffled=False):
    """A run as the benchmark's 32 x 4,240 ranking has them: different_n different n, c drawn per problem."""
    draw = random.Random(run)
    tasks = [Problem(f"p{i}", 200 + run * different_n + i % different_n, 0) for i in range(problems)]
    tasks = [Problem(task.task_id, task.n, draw.randint(0, task.n)) for task in tasks]
    if shuffled:
        draw.shuffle(tasks)
    return tasks


@pytest.fixture
def summed(monkeypatch):
    """The lengths of the lists of fractions passk.results.benchmark.pairwise_sum added."""
    lengths = []
    real = passk.results.benchmark.pairwise_sum

    def counted(terms):
        lengths.append(len(terms))
        return real(terms)
    monkeypatch.setattr(passk.results.benchmark, "pairwise_sum", counted)
    return lengths


def test_a_run_s_exact_pass_at_1_sums_one_fraction_per_different_n(summed):
    problems = run_of(0)
    (row,) = summarize(problems, [1]).results
    assert summed == [625]   # pass@1 and pass^1 = c/n share one exact sum
    exact = sum((Fraction(problem.c, problem.n) for problem in problems), Fraction(0)) / len(problems)
    assert row.pass_at_k == float(exact) and row.pass_hat.pass_at_k == float(exact)


@pytest.mark.parametrize("shuffled", [False, True])
def test_paired_results_are_compare_runs_rows(shuffled):
    problems_b = run_of(2, shuffled=shuffled)[:4000]
    run_a, run_b = PairedRun(run_of(1), "A"), PairedRun(problems_b, "B")
    at_a, at_b, rows, only_in_a, only_in_b = paired_results(run_a, run_b, [1, 2, 1000])
    comparison = compare_runs(run_a, run_b, [1, 2, 1000])
    assert rows == comparison.results and at_a.size == comparison.paired == 4000
    in_b = {problem.task_id for problem in problems_b}
    assert only_in_a == comparison.only_in_a == [f"p{i}" for i in range(4240) if f"p{i}" not in in_b]
    assert only_in_b == [] and len(only_in_a) == 240
    assert rows[2].difference is None and "fewer than 1,000 samples" in rows[2].reason


def test_a_pairing_of_whole_runs_takes_each_run_s_mean_as_its_own():
    a, b = run_of(3), run_of(4, shuffled=True)
    row = compare(a, b, [5]).results[0]
    assert row.a == summarize(a, [5]).results[0].pass_at_k and row.b == summarize(b, [5]).results[0].pass_at_k


def test_the_ranking_s_pairs_are_compare_s(monkeypatch):
    runs = [(f"run {r}", run_of(r, problems=300, different_n=30, shuffled=r % 2 == 1)) for r in range(4)]
    ranking = rank_runs(runs, [1, 10])
    for index, k in enumerate([1, 10]):
        pairs = {(pair.a, pair.b): pair for pair in ranking.results[index].pairs}
        for (a, problems_a), (b, problems_b) in combinations(runs, 2):
            row = compare(problems_a, problems_b, [k]).results[0]
            pair = pairs[a, b]
            assert (pair.difference, pair.se, pair.ci95, pair.p_value, pair.paired) == \
                (row.difference, row.se, row.ci95, row.p_value, 300)
