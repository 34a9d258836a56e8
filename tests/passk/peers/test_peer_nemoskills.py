"""NeMo-Skills' metric tests against passk: pass@k, majority@k, pass@1[avg-of-k] and its spread across seeds.

Sources:
- NVIDIA/NeMo-Skills @ 0b012df8a09cd4730d31b16e90a0d8f13d145fb8: tests/test_metrics.py, test_metrics, which runs
  `ns summarize_results` on tests/data/eval_outputs/eval-results/ and compares with
  eval-results/metrics.json-test; the hendrycks_math (3 seeds) and gpqa (4 seeds) outputs' predicted_answer and
  symbolic_correct are written out below (output-rs{0,1,2[,3]}.jsonl-test, one line per problem), with the
  figures metrics.json-test has for them.
- same commit: nemo_skills/evaluation/metrics/base.py, BaseMetrics: _compute_pass_at_k (0/1 scores: 1 - C(n - c,
  k) / C(n, k) over all n seeds; other scores: the best of the first k), _compute_majority_at_k (the first k seeds'
  answers, None left out, a tie scored correct tied answers / tied answers), pass@1[avg-of-k] (the mean of the first
  k) and _add_std_metrics (std_dev_across_runs: the sample SD, ddof = 1, of the first k seeds' means;
  std_err_across_runs = that / sqrt(k); avg_sample_std_dev: the mean of each problem's sample SD over its first
  k), whose docstring example (3 problems x 4 seeds) is ported with the figures its code gives (run outside
  passk's environment): its docstring says std_dev_across_runs ~ 0.1925, the code gives 1/6.

passk's counterparts: passk.maths.estimator.pass_at_k, passk.maths.majority.first_k_majority (NeMo-Skills' order-dependent
rule; passk's own maj@k averages every k-subset), passk.results.metrics.average_table (avg@k, seeds_sd, seeds_se,
within_sd) and passk.results.metrics.graded_table's first_k (the best of the first k scores; passk's own max@k is the
expected best of a random k-subset).
"""

import math
from fractions import Fraction

import pytest

from passk.maths.estimator import pass_at_k
from passk.maths.majority import first_k_majority, majority_at_k_exact
from passk.results.metrics import average_table, graded_table

# problem -> each seed's (predicted_answer, symbolic_correct), seeds in order
SEEDS = {
    "hendrycks_math": [
        [("70", True), ("70", True), ("70", True)],
        [("300", False), ("300", False), ("300", False)],
        [("16", True), ("16", True), ("16", True)],
        [("117", True), ("117", True), ("117", True)],
        [("279", True), ("279", True), ("279", True)],
        [("504", True), ("504", True), ("2", False)],
        [("271", False), ("821", True), ("1", False)],
    ],
    "gpqa": [
        [("C", True), ("C", True), ("C", True), ("C", True)],
        [("C", True), ("B", False), ("D", False), ("D", False)],
        [("C", True), ("C", True), ("C", True), (None, False)],
        [("B", False), ("B", False), ("B", False), ("B", False)],
    ],
}
# metrics.json-test: symbolic_correct (percent) of pass@k and majority@k
PASS_AND_MAJORITY = {
    "hendrycks_math": {"pass@1": 71.42857142857143, "pass@2": 80.95238095238096, "pass@3": 85.71428571428571,
                       "majority@2": 78.57142857142857, "majority@3": 76.19047619047618},
    "gpqa": {"pass@1": 50.0, "pass@2": 62.5, "pass@3": 68.75, "pass@4": 75.0,
             "majority@2": 62.5, "majority@3": 58.33333333333333, "majority@4": 50.0},
}
# metrics.json-test: pass@1[avg-of-k]'s symbolic_correct_statistics: k -> (avg, std_dev_across_runs,
# std_err_across_runs, avg_sample_std_dev)
SPREAD = {
    "hendrycks_math": {2: (0.7857142857142857, 0.10101525445522103, 0.07142857142857138, 0.10101525445522108),
                       3: (0.7142857142857143, 0.14285714285714285, 0.08247860988423225, 0.16495721976846453)},
    "gpqa": {2: (0.625, 0.1767766952966369, 0.125, 0.1767766952966369),
             3: (0.5833333333333333, 0.14433756729740646, 0.08333333333333334, 0.14433756729740646),
             4: (0.5, 0.2041241452319315, 0.10206207261596575, 0.25)},
}
AGREEMENT = 2.3e-16   # NeMo-Skills' numpy sums and roots: within two units in the last place of exact (1.1e-16 found)


def answers_and_verdicts(benchmark):
    return [([answer for answer, _ in seeds], [verdict for _, verdict in seeds]) for seeds in SEEDS[benchmark]]


@pytest.mark.parametrize("benchmark", SEEDS)
def test_pass_at_k_is_the_unbiased_estimator_over_all_seeds(benchmark):
    problems = answers_and_verdicts(benchmark)
    for name, figure in PASS_AND_MAJORITY[benchmark].items():
        if name.startswith("pass@"):
            k = int(name.removeprefix("pass@"))
            values = [pass_at_k(len(verdicts), sum(verdicts), k) for _, verdicts in problems]
            exact = sum((1 - Fraction(math.comb(len(v) - sum(v), k), math.comb(len(v), k)) for _, v in problems),
                        Fraction(0)) / len(problems)
            assert abs(math.fsum(values) / len(values) - exact) <= 2.0**-53 and abs(figure / 100 - exact) <= AGREEMENT


@pytest.mark.parametrize("benchmark", SEEDS)
def test_majority_at_k_is_the_vote_over_the_first_k_seeds(benchmark):
    problems = answers_and_verdicts(benchmark)
    for name, figure in PASS_AND_MAJORITY[benchmark].items():
        if name.startswith("majority@"):
            k = int(name.removeprefix("majority@"))
            mean = sum((first_k_majority(answers, verdicts, k) for answers, verdicts in problems), Fraction(0))
            assert abs(figure / 100 - mean / len(problems)) <= AGREEMENT


def test_passk_maj_at_k_over_every_subset_differs_from_the_first_k_vote():
    """GPQA's problem 2 (C right, then B, D, D): its first two seeds tie C with B (1/2), while over every pair of
    its four seeds C wins none and ties three of six (1/4)."""
    answers, verdicts = answers_and_verdicts("gpqa")[1]
    assert first_k_majority(answers, verdicts, 2) == Fraction(1, 2)
    assert majority_at_k_exact(answers, verdicts, 2) == Fraction(1, 4)


@pytest.mark.parametrize("benchmark", SEEDS)
def test_avg_of_k_and_the_spread_across_seeds(benchmark):
    scores = [[float(verdict) for verdict in verdicts] for _, verdicts in answers_and_verdicts(benchmark)]
    for row in average_table(scores, sorted(SPREAD[benchmark])).results:
        average, spread, error, within = SPREAD[benchmark][row.k]
        exact = Fraction(sum(sum(problem[:row.k]) for problem in scores)) / (row.k * len(scores))
        assert row.estimate.value == float(exact) and abs(average - exact) <= AGREEMENT
        for mine, theirs in ((row.seeds_sd, spread), (row.seeds_se, error), (row.within_sd, within)):
            assert abs(mine - theirs) <= AGREEMENT


# base.py's _add_std_metrics docstring example: 3 problems x 4 seeds, and what BaseMetrics gives for it
DOCSTRING = [[1, 0, 1, 0], [1, 1, 0, 0], [0, 1, 1, 1]]
DOCSTRING_FIGURES = {   # k -> (avg, std_dev_across_runs, std_err_across_runs, avg_sample_std_dev)
    2: (0.6666666666666666, 0.0, 0.0, 0.47140452079103173),
    3: (0.6666666666666666, 0.0, 0.0, 0.5773502691896258),
    4: (0.5833333333333334, 0.16666666666666666, 0.08333333333333333, 0.5515668461264172),
}
DOCSTRING_PASS = {1: 58.333333333333336, 2: 88.8888888888889, 3: 100.0, 4: 100.0}
DOCSTRING_MAJORITY = {2: 66.66666666666667, 3: 100.0, 4: 66.66666666666667}   # answers "1" and "0"


def test_the_std_metrics_docstring_example():
    """The seeds' means are 2/3, 2/3, 2/3 and 1/3: their sample SD is 1/6 (the docstring's 0.1925 is a slip)."""
    rows = average_table([[float(score) for score in problem] for problem in DOCSTRING], [2, 3, 4]).results
    assert rows[2].seeds_sd == 1 / 6 and rows[2].seeds_se == 1 / 12
    for row in rows:
        for mine, theirs in zip((row.estimate.value, row.seeds_sd, row.seeds_se, row.within_sd),
                                DOCSTRING_FIGURES[row.k], strict=True):
            assert abs(mine - theirs) <= AGREEMENT
    for k, figure in DOCSTRING_PASS.items():
        assert abs(math.fsum(pass_at_k(4, sum(problem), k) for problem in DOCSTRING) / 3 - figure / 100) <= AGREEMENT
    for k, figure in DOCSTRING_MAJORITY.items():
        votes = sum((first_k_majority([str(score) for score in problem], [score == 1 for score in problem], k)
                     for problem in DOCSTRING), Fraction(0))
        assert abs(votes / 3 - figure / 100) <= AGREEMENT


# graded scores (not 0/1), as BaseMetrics scores them: pass@k is the best of the first k (its code's figures)
GRADED = [[0.5, 0.25, 1.0], [0.0, 0.75, 0.5]]
GRADED_PASS = {1: 25.0, 2: 62.5, 3: 87.5}


def test_graded_pass_at_k_is_the_best_of_the_first_k():
    """passk shows that as first_k beside its max@k, the expected best of k samples drawn at random."""
    table = graded_table(GRADED, [1, 2, 3])
    for row in table.results:
        assert row.first_k == GRADED_PASS[row.k] / 100
    assert table.results[1].estimate.value == 0.75   # every pair: (1/2 + 1 + 1) / 3 and (1/2 + 3/4 + 3/4) / 3
