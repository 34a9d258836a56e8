"""lighteval's metric tests for pass@k, G-Pass@k, mG-Pass@k, maj@k and avg@k against passk.

Sources:
- huggingface/lighteval @ 3fd15266bc8448b797e61462d293aa3fd40b3580: tests/unit/metrics/test_cases/
  pass_at_k.json, pass_at_k_math.json, pass_at_k_letters.json, gpqa_instruct_pass_at_k.json, g_pass_at_k.json,
  g_pass_at_k_math.json, g_pass_at_k_latex.json (run by tests/unit/metrics/test_automated_metrics_pytest.py), each
  case's name below; src/lighteval/metrics/metrics_sample.py, PassAtK.pass_at_k (the human-eval product) and
  GPassAtK.g_pass_at_k (hypergeom.sf with m = max(ceil(k tau), 1); mG-Pass@k = (2/k) sum over i from
  ceil(k/2) + 1 to k of G-Pass@k at m = i).
- same commit: test_cases/maj_at_k.json, avg_at_k.json, avg_at_k_math.json, whose metric names (maj_at_k,
  avg_at_k) lighteval no longer has, so its runner skips them; their expected figures are those of MajAtK and
  AvgAtK at e7d885c3d175354a3a3ba36b15f36e1fd05b5141 (src/lighteval/metrics/metrics_sample.py): the vote over the
  first k samples, a tie going to the answer seen first (max(answers, key=answers.count)), and the mean score of
  the first k samples.

Each case's c is how many samples lighteval's grader (exact match, math or LaTeX extraction) passes; its figures
fix c uniquely. A figure with lighteval's tolerance (0.01) is a rounded one (0.66 for 2/3); the others are its
code's floats, within 1.2e-16 of exact. passk: passk.maths.estimator.pass_at_k, passk.maths.gpass.g_pass_at_k (tau = 0 is
pass@k, as lighteval's max(ceil(k tau), 1) makes it), passk.maths.gpass.mg_pass_at_k, passk.maths.majority.first_k_majority
(ties share the credit: correct tied answers / tied answers) and passk.results.metrics.average_table (avg@k).
Where lighteval's ceil(k tau) of a float differs from the decimal tau meant is in test_peer_opencompass.py.
"""

import math
from fractions import Fraction

import pytest

from passk.maths.estimator import pass_at_k
from passk.maths.gpass import g_pass_at_k, mg_pass_at_k
from passk.maths.majority import first_k_majority, majority_at_k_exact
from passk.results.metrics import average_table

# (file: case) -> (n, c, k, lighteval's expected figure, its tolerance)
PASS_AT_K = {
    "pass_at_k: Correct in K": (2, 1, 1, 0.5, 0.01),
    "pass_at_k: Not in K": (2, 0, 1, 0.0, 0.01),
    "pass_at_k: Multiple Attempts": (3, 1, 2, 0.66, 0.01),
    "pass_at_k_math: Correct Math": (2, 1, 1, 0.5, 0.01),
    "pass_at_k_math: Wrong Math": (2, 0, 1, 0.0, 0.01),
    "pass_at_k_math: Multiple Attempts": (3, 1, 2, 0.66, 0.01),
    "pass_at_k_letters: Correct Letters": (2, 0, 1, 0.0, 0.01),
    "pass_at_k_letters: Multiple Attempts": (3, 0, 2, 0.0, 0.01),
    "gpqa_instruct_pass_at_k: Multiple Samples All Correct": (3, 3, 2, 1.0, 0.01),
    "gpqa_instruct_pass_at_k: Mixed Correct and Incorrect": (4, 2, 2, 0.8333333333333333, 0.01),
    "gpqa_instruct_pass_at_k: Case Sensitivity": (2, 1, 1, 0.5, 0.01),
    "gpqa_instruct_pass_at_k: All Incorrect Samples": (3, 0, 1, 0.0, 0.01),
    "gpqa_instruct_pass_at_k: High K Value": (8, 4, 5, 1.0, 0.01),
    "gpqa_instruct_pass_at_k: Parentheses Format": (2, 2, 1, 1.0, 0.01),
}


@pytest.mark.parametrize("case", PASS_AT_K)
def test_pass_at_k_cases(case):
    n, c, k, expected, tolerance = PASS_AT_K[case]
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_at_k(n, c, k) == float(exact)
    assert abs(pass_at_k(n, c, k) - expected) <= tolerance


def test_gpqa_mixed_case_is_the_product_one_unit_low():
    """lighteval's product gives 0.8333333333333333 for 5/6; passk the nearest double, 0.8333333333333334."""
    assert pass_at_k(4, 2, 2) == 0.8333333333333334 == float(Fraction(5, 6))
    assert pass_at_k(4, 2, 2) - 0.8333333333333333 == 2.0**-53


THRESHOLDS = (0.0, 0.25, 0.5, 0.75, 1.0)
TWO_OF_FOUR = ((0.8333333333333334,) * 3 + (0.16666666666666666,) * 2, 0.16666666666666666)   # n = 4, c = 2, k = 2
# (file: case) -> (n, c, k, G-Pass@k at each of THRESHOLDS, mG-Pass@k), as the case's expected_output has them
G_PASS = {
    "g_pass_at_k: Basic Single Sample Correct": (1, 1, 1, (1.0, 1.0, 1.0, 1.0, 1.0), 0.0),
    "g_pass_at_k: Multiple Samples All Correct": (3, 3, 2, (1.0, 1.0, 1.0, 1.0, 1.0), 1.0),
    "g_pass_at_k: Mixed Correct and Incorrect": (4, 2, 2, *TWO_OF_FOUR),
    "g_pass_at_k: Case Sensitivity": (2, 1, 1, (0.5, 0.5, 0.5, 0.5, 0.5), 0.0),
    "g_pass_at_k: All Incorrect Samples": (3, 0, 1, (0.0, 0.0, 0.0, 0.0, 0.0), 0.0),
    "g_pass_at_k: High K Value": (8, 4, 5, (1.0, 0.9285714285714286, 0.5, 0.07142857142857142, 0.0),
                                  0.02857142857142857),
    "g_pass_at_k: Numeric Answer": (3, 1, 1, (0.3333333333333333,) * 5, 0.0),
    "g_pass_at_k: Partial Match": (4, 2, 2, *TWO_OF_FOUR),
    "g_pass_at_k: Edge Case Empty String": (1, 1, 1, (1.0, 1.0, 1.0, 1.0, 1.0), 0.0),
    "g_pass_at_k_latex: High K Value": (8, 5, 5, (1.0, 1.0, 0.8214285714285715, 0.28571428571428564,
                                                  0.017857142857142853), 0.1214285714285714),
    "g_pass_at_k_latex: Edge Case Single Sample": (1, 0, 1, (0.0, 0.0, 0.0, 0.0, 0.0), 0.0),
    "g_pass_at_k_math: Mixed Correct and Incorrect": (4, 0, 2, (0.0, 0.0, 0.0, 0.0, 0.0), 0.0),
    "g_pass_at_k_math: Fractions": (3, 2, 1, (0.6666666666666667,) * 5, 0.0),
    "g_pass_at_k_math: High K Value": (8, 0, 5, (0.0, 0.0, 0.0, 0.0, 0.0), 0.0),
    "g_pass_at_k_math: Complex Expression": (4, 2, 2, *TWO_OF_FOUR),
}
AGREEMENT = 1.2e-16   # lighteval's hypergeom.sf figures within this of exact on these cases


def tail(n, c, k, m):
    """P(X >= m) for X ~ H(n, c, k), exactly."""
    return Fraction(sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(m, min(c, k) + 1)), math.comb(n, k))


@pytest.mark.parametrize("case", G_PASS)
def test_g_pass_and_mg_pass_cases(case):
    n, c, k, expected, mg_expected = G_PASS[case]
    for tau, figure in zip(THRESHOLDS, expected, strict=True):
        exact = tail(n, c, k, max(1, math.ceil(Fraction(tau) * k)))
        assert g_pass_at_k(n, c, k, tau) == float(exact)
        assert abs(figure - exact) <= AGREEMENT
    mg_exact = 2 * sum((tail(n, c, k, i) for i in range(math.ceil(k / 2) + 1, k + 1)), Fraction(0)) / k
    assert mg_pass_at_k(n, c, k) == float(mg_exact)
    assert abs(mg_expected - mg_exact) <= AGREEMENT


def test_tau_zero_is_pass_at_k():
    """lighteval's default thresholds start at 0.0; at least one pass is still needed there."""
    for n, c, k, expected, _ in G_PASS.values():
        assert g_pass_at_k(n, c, k, 0.0) == pass_at_k(n, c, k)
        assert abs(pass_at_k(n, c, k) - expected[0]) <= AGREEMENT   # "Fractions": lighteval 0.6666666666666667


# maj_at_k.json (k = 3; gold "Paris"): the samples' answers -> lighteval's figure (first k, first-seen tie)
MAJORITY = {
    "Majority Correct": (["Paris", "Paris", "London"], 1),
    "No Majority": (["Paris", "London", "Berlin"], 1),
    "All Correct": (["Paris", "Paris", "Paris"], 1),
    "Wrong Answer": (["London", "London", "London"], 0),
}


@pytest.mark.parametrize("case", MAJORITY)
def test_maj_at_k_cases(case):
    """The same vote over the first k, but a three-way tie shares the credit in passk (1/3; 0 with tie="wrong")
    where lighteval's max() gives it to the answer seen first ("Paris", right: 1)."""
    answers, lighteval = MAJORITY[case]
    correct = [answer == "Paris" for answer in answers]
    mine = first_k_majority(answers, correct, 3)
    assert mine == majority_at_k_exact(answers, correct, 3)   # k = n: every 3-subset is the first three
    if case == "No Majority":
        assert (mine, first_k_majority(answers, correct, 3, tie="wrong"), lighteval) == (Fraction(1, 3), 0, 1)
    else:
        assert mine == lighteval


# avg_at_k.json and avg_at_k_math.json: (the samples' scores in order, k) -> lighteval's figure, tolerance 0.01
AVERAGE = {
    "avg_at_k: Correct in Top K": ([1.0, 0.0, 0.0], 2, 0.5),           # Paris, London, Berlin; gold Paris
    "avg_at_k: Not in Top K": ([0.0, 0.0, 1.0], 1, 0.0),               # London, Berlin, Paris
    "avg_at_k: Multiple Correct": ([0.0, 1.0, 0.0, 0.0], 3, 0.33),     # the first gold, London, scores
    "avg_at_k_math: Correct Math": ([1.0], 1, 1.0),
    "avg_at_k_math: Wrong Math": ([0.0], 1, 0.0),
    "avg_at_k_math: Multiple Attempts": ([1.0, 0.0], 2, 0.5),
}


@pytest.mark.parametrize("case", AVERAGE)
def test_avg_at_k_cases(case):
    """avg@k is the mean of the first k scores: samples after the k-th do not count."""
    scores, k, lighteval = AVERAGE[case]
    value = average_table([scores], [k]).results[0].estimate.value
    assert value == float(Fraction(sum(scores[:k])) / k)
    assert abs(value - lighteval) <= 0.01
