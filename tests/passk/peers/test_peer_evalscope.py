"""evalscope's pass@k, pass^k, vote@k and max@k tests against passk.

Sources: modelscope/evalscope @ fde259d2a32ab8a4cdb3af44dc8b18f504f1e277:
- evalscope/metrics/utils/functions.py: calculate_pass_at_k (the human-eval product; its docstring example
  n = 5, c = 2, 4, 2 at k = 1) and calculate_pass_hat_k (C(c, k) / C(n, k));
- evalscope/metrics/aggregators/aggregators.py: MeanPassAtK and MeanPassHatK (each group's attempts, k up to the
  fewest any group has), MeanVoteAtK (the most frequent prediction among the first n attempts, a tie going to the
  one seen first, scoring 1 when that prediction was judged correct in any of them);
- tests/report/semantics/test_structured_aggregators.py: test_k_aggregators_emit_structured_identities_without_
  mutating_samples, test_pass_at_k_averages_unique_groups_instead_of_weighting_repetitions,
  test_k_aggregators_stop_at_the_shortest_group;
- tests/metrics/aggregators/test_missing_metric_keys.py: test_pass_at_k_keeps_humaneval_estimator,
  test_pass_hat_k_keeps_estimator, test_unusable_attempt_shrinks_n_instead_of_scoring_zero (a missing score
  leaves n = 3: passk reads only the attempts a file holds);
- tests/benchmark/test_wide_search.py: test_official_avg_pass_and_max_at_four.

passk's counterparts: passk.maths.estimator.pass_at_k and pass_hat_k, passk.maths.majority.first_k_majority (ties share the
credit where evalscope gives it to the first seen), passk.results.metrics.graded_table (max@k, the expected best of k
scores; at k = n the best score) and passk.summarize (a k only when every problem has k samples).
"""

import io
import math
from fractions import Fraction

import pytest

import passk
from passk.maths.estimator import pass_at_k, pass_hat_k
from passk.maths.majority import first_k_majority
from passk.results.metrics import graded_table


def test_calculate_pass_at_k_docstring_example():
    """calculate_pass_at_k([5, 5, 5], [2, 4, 2], 1) -> array([0.4, 0.8, 0.4])."""
    assert [pass_at_k(5, c, 1) for c in (2, 4, 2)] == [0.4, 0.8, 0.4]


# (a group's 0/1 scores in attempt order) -> evalscope's figures at k = 1, 2, ...
@pytest.mark.parametrize(("groups", "pass_figures", "pass_hat_figures"), [
    ([[1, 0], [1, 1]], [0.75, 1.0], [0.75, 0.5]),   # test_k_aggregators_emit_structured_identities_...: 2 groups
    ([[0, 0, 1, 1]], [0.5, 5 / 6], None),           # test_pass_at_k_keeps_humaneval_estimator
    ([[1, 1, 0, 0]], None, [0.5, 1 / 6]),           # test_pass_hat_k_keeps_estimator
    ([[1, 0, 0]], [1 / 3], None),                   # test_unusable_attempt_shrinks_n_instead_of_scoring_zero
])
def test_pass_at_k_and_pass_hat_k(groups, pass_figures, pass_hat_figures):
    for figures, value, exact in ((pass_figures, pass_at_k, lambda n, c, k: 1 - Fraction(math.comb(n - c, k),
                                                                                       math.comb(n, k))),
                                  (pass_hat_figures, pass_hat_k, lambda n, c, k: Fraction(math.comb(c, k),
                                                                                         math.comb(n, k)))):
        for k, figure in enumerate(figures or [], start=1):
            mine = [value(len(group), sum(group), k) for group in groups]
            truth = [exact(len(group), sum(group), k) for group in groups]
            assert mine == [float(part) for part in truth]
            assert abs(figure - sum(truth, Fraction(0)) / len(groups)) <= 2.0**-53


def counts_run(groups):
    lines = "".join(f"{name},{len(group)},{sum(group)}\n" for name, group in groups.items())
    return passk.read(io.BytesIO(f"task_id,n,c\n{lines}".encode()))


def test_pass_at_k_averages_groups_of_different_sizes():
    """A group of one attempt and one of two: pass@1 = (1 + 0) / 2, each group counted once."""
    assert passk.summarize(counts_run({"short": [1], "long": [0, 0]}), k=1).results[0].pass_at_k == 0.5


def test_a_k_stops_at_the_shortest_group():
    """evalscope emits k = 1 only when one group has a single attempt; passk says why k = 2 is undefined."""
    at_one, at_two = passk.summarize(counts_run({"short": [0], "long": [0, 1, 0]}), k=[1, 2]).results
    assert at_one.pass_at_k == float(Fraction(1, 3) / 2) and at_two.pass_at_k is None and at_two.reason


def test_vote_at_k_structured_case():
    """Attempts 1, 0 (predictions a, b) and 0, 1 (c, d): vote@1 = 0.5 and vote@2 = 0.5 in evalscope, the two-way
    ties going to a (right) and c (wrong); passk gives each tie 1/2, the same mean here."""
    groups = [(["a", "b"], [True, False]), (["c", "d"], [False, True])]
    for k, figure in ((1, 0.5), (2, 0.5)):
        assert sum(first_k_majority(answers, verdicts, k) for answers, verdicts in groups) / 2 == figure
    assert [first_k_majority(answers, verdicts, 2) for answers, verdicts in groups] == [Fraction(1, 2)] * 2


def test_wide_search_avg_pass_and_max_at_four():
    """Two groups of four attempts: success 0, 1, 0, 0 and 0, 0, 0, 0 (mean 0.125, pass@4 0.5); the first group's
    row F1 0, 0.8, 0, 0 has max 0.8 at k = 4, the second's 0.2 each a mean of 0.2."""
    summary = passk.summarize(counts_run({"en": [0, 1, 0, 0], "zh": [0, 0, 0, 0]}), k=[1, 4])
    assert [row.pass_at_k for row in summary.results] == [0.125, 0.5]
    assert graded_table([[0.0, 0.8, 0.0, 0.0]], [4]).results[0].estimate.value == 0.8
    assert graded_table([[0.2] * 4], [1]).mean.value == 0.2
