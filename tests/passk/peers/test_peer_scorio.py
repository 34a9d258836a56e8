"""scorio (Hariri et al., Bayesian evaluation toolkit; arXiv 2510.04265) against passk.

Sources:
- mohsenhariri/scorio @ dedc4154f6daf01af79416b8c93560ac4b0fb88e: the Examples of scorio/eval/pass_at_k.py
  (pass_at_k, pass_hat_k, pass_at_k_ci), gpass.py (g_pass_at_k, g_pass_at_k_tau, mg_pass_at_k), maj.py (maj_at_k),
  max_reward.py (max_at_k), avg.py (avg) and bayes.py (bayes, bayes_ci), all on R = [[0,1,1,0,1], [1,1,0,1,1]].
- same commit: tests/eval/test_eval_apis.py, whose binary_ref is tests/data/R_top_p.npz["aime25"][0, :12, :20]
  (written out below): test_pass_point_metrics_match_closed_form_references (k = 3, tau = 0.7),
  test_pass_point_metrics_remain_finite_for_large_n_and_k (N = 2000, k = 1000), test_pass_aliases_and_tau_edge_
  equivalences (tau = 0 is pass@k, tau = 1 pass^k), test_pass_mg_k1_edge_case, test_majority_matches_reference_
  and_threshold_equivalences, test_max_reward_matches_reference_and_binary_pass_equivalence; their figures are
  scorio 0.2.3's (PyPI) on that matrix.
- scorio_cases.json: 500 random one-problem cases and scorio 0.2.3's figures (make_scorio_cases.py).

How scorio's names map to passk (each per problem, then the mean over problems):
pass_at_k = passk.maths.estimator.pass_at_k; pass_hat_k = g_pass_at_k (its alias) = passk.maths.estimator.pass_hat_k;
g_pass_at_k_tau = passk.maths.gpass.g_pass_at_k (both need max(1, ceil(tau k)) passes, decimal taus read as meant);
mg_pass_at_k = passk.maths.gpass.mg_pass_at_k; maj_at_k on 0/1 outcomes (more than half of the k draws pass) =
passk.maths.gpass.at_least(n, c, k, k // 2 + 1), which is passk.maths.majority's vote when every wrong sample gives one same
answer and a tie counts as wrong (passk's default gives a tie half credit); max_at_k on 0/1 outcomes is pass@k,
on graded outcomes (R's categories scored by w) passk.maths.scores.max_at_k of each problem's scores; avg's mean is
passk's pass@1 (graded: passk.results.metrics.graded_table's mean score), its sigma is scorio's own (no passk
counterpart); bayes and bayes_ci with 0/1 outcomes, no prior outcomes R0 and bounds (0, 1) are
passk.maths.bayes.bayes_at_n (scorio's categories with weights and R0 have no passk counterpart).
"""

import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import passk
from passk.maths.estimator import pass_at_k, pass_hat_k
from passk.maths.gpass import at_least, g_pass_at_k, mg_pass_at_k
from passk.maths.bayes import bayes_at_n
from passk.maths.majority import majority_at_k_exact
from passk.results.metrics import graded_table
from passk.maths.scores import max_at_k

DOC_R = ["01101", "11011"]   # the R of every Examples section: (n, c) = (5, 3) and (5, 4)
BINARY_REF = [               # test_eval_apis.py's binary_ref: 12 AIME-25 questions x 20 top-p samples
    "01110011100001100111", "10100111010101000100", "10101000011010001010", "11101010110010000001",
    "01001111100101000001", "00011100101001011000", "10100101001001011000", "11010001000101001101",
    "11100101110010000001", "01011001100000110001", "10001011110000000010", "01100001101000000011",
]


def ways(n, c, k):
    """C(c, j) C(n - c, k - j) for j = 0..k: the draws of k with j passes (zero where j is impossible)."""
    return [math.comb(c, j) * math.comb(n - c, k - j) for j in range(k + 1)] if k <= 64 else _ways_by_steps(n, c, k)


def _ways_by_steps(n, c, k):
    """ways() by the ratio of neighbouring terms, from the fewest passes possible: one pass for large k."""
    low, high = max(0, c + k - n), min(c, k)
    terms, term = [0] * (k + 1), math.comb(c, low) * math.comb(n - c, k - low)
    for j in range(low, high + 1):
        terms[j] = term
        term = term * (c - j) * (k - j) // ((j + 1) * (n - c - k + j + 1)) if j < high else 0
    return terms


def tail(n, c, k, m):
    """P(X >= m) for X ~ H(n, c, k), exactly."""
    return Fraction(sum(ways(n, c, k)[max(m, 0):]), math.comb(n, k))


def exact_mg(n, c, k):
    """mG-Pass@k = (2/k) sum_{i = ceil(k/2)+1}^{k} P(X >= i), as scorio's reference in test_eval_apis.py sums it:
    summed over j instead, (2/k) sum_j (j - ceil(k/2)) P(X = j) for j above ceil(k/2)."""
    half = math.ceil(k / 2)
    weighted = sum((j - half) * term for j, term in enumerate(ways(n, c, k)) if j > half)
    return Fraction(2 * weighted, k * math.comb(n, k))


# scorio's name -> (passk's per-problem value, the exact value)
METRICS = {
    "pass_at_k": (pass_at_k, lambda n, c, k: tail(n, c, k, 1)),
    "pass_hat_k": (pass_hat_k, lambda n, c, k: tail(n, c, k, k)),
    "g_pass_at_k": (lambda n, c, k: g_pass_at_k(n, c, k, 1.0), lambda n, c, k: tail(n, c, k, k)),
    "g_pass_at_k_tau(0.5)": (lambda n, c, k: g_pass_at_k(n, c, k, 0.5),
                             lambda n, c, k: tail(n, c, k, math.ceil(k / 2))),
    "g_pass_at_k_tau(0.7)": (lambda n, c, k: g_pass_at_k(n, c, k, 0.7),
                             lambda n, c, k: tail(n, c, k, math.ceil(7 * k / 10))),
    "g_pass_at_k_tau(1.0)": (lambda n, c, k: g_pass_at_k(n, c, k, 1.0), lambda n, c, k: tail(n, c, k, k)),
    "mg_pass_at_k": (mg_pass_at_k, exact_mg),
    "maj_at_k": (lambda n, c, k: at_least(n, c, k, k // 2 + 1), lambda n, c, k: tail(n, c, k, k // 2 + 1)),
    "max_at_k": (pass_at_k, lambda n, c, k: tail(n, c, k, 1)),
}


def counts(rows):
    return [(len(row), row.count("1")) for row in rows]


def mean_of(metric, rows, k):
    """passk's mean over the rows (each problem's value checked to be its exact value's nearest double) and the
    exact mean."""
    value, exact = METRICS[metric]
    per_problem = [(value(n, c, k), exact(n, c, k)) for n, c in counts(rows)]
    assert all(mine == float(truth) for mine, truth in per_problem)
    return math.fsum(mine for mine, _ in per_problem) / len(per_problem), \
        sum((truth for _, truth in per_problem), Fraction(0)) / len(per_problem)


@pytest.mark.parametrize(("metric", "k", "printed"), [
    ("pass_at_k", 1, 0.7), ("pass_at_k", 2, 0.95),
    ("pass_hat_k", 1, 0.7), ("pass_hat_k", 2, 0.45), ("g_pass_at_k", 1, 0.7), ("g_pass_at_k", 2, 0.45),
    ("g_pass_at_k_tau(0.5)", 2, 0.95), ("g_pass_at_k_tau(1.0)", 2, 0.45),
    ("mg_pass_at_k", 2, 0.45), ("mg_pass_at_k", 3, 0.166667),
    ("maj_at_k", 1, 0.7), ("maj_at_k", 2, 0.45), ("maj_at_k", 3, 0.85),
    ("max_at_k", 2, 0.95),
])
def test_docstring_examples(metric, k, printed):
    """scorio prints each rounded to 6 places."""
    mine, exact = mean_of(metric, DOC_R, k)
    assert round(float(exact), 6) == printed
    assert abs(mine - exact) <= 2.0**-53


@pytest.mark.parametrize(("k", "scorio"), [(1, 0.7), (2, 0.45), (3, 0.85)])
def test_binary_maj_at_k_is_the_vote_with_one_wrong_answer_and_ties_counted_wrong(k, scorio):
    """scorio's binary maj@k asks whether more than half of the k draws pass: passk's vote, when all wrong samples
    share one answer and a tie scores 0. passk's default (a tie scores 1/2) gives 0.7 at k = 2, not 0.45."""
    votes = [(list("rrrww"), [True] * 3 + [False] * 2), (list("rrrrw"), [True] * 4 + [False])]
    wrong_ties = sum(majority_at_k_exact(answers, verdicts, k, tie="wrong") for answers, verdicts in votes) / 2
    assert wrong_ties == tail(5, 3, k, k // 2 + 1) / 2 + tail(5, 4, k, k // 2 + 1) / 2
    assert abs(scorio - wrong_ties) <= 2.0**-53
    if k == 2:
        assert sum(majority_at_k_exact(answers, verdicts, 2) for answers, verdicts in votes) / 2 == Fraction(7, 10)


def run_of(rows):
    """A passk run of these problems, as the CSV layout (task_id, n, c)."""
    lines = "".join(f"q{index},{n},{c}\n" for index, (n, c) in enumerate(counts(rows)))
    return passk.read(io.BytesIO(f"task_id,n,c\n{lines}".encode()))


# scorio 0.2.3 on binary_ref: pass_at_k and pass_hat_k at k = 1..8, the rest at k = 3 (maj_at_k at 1..3)
SCORIO_PASS = [0.425, 0.6793859649122806, 0.8274122807017544, 0.9108015135878912, 0.9560436016511867,
               0.9795278637770898, 0.9910926212590297, 0.9964356592839566]
SCORIO_PASS_HAT = [0.425, 0.1706140350877193, 0.06425438596491229, 0.02253181974544204, 0.007299191606467148,
                   0.0021671826625387, 0.0005847953216374269, 0.000141568098224445]
SCORIO_AT_3 = {"g_pass_at_k_tau(0.7)": 0.06425438596491229, "mg_pass_at_k": 0.042836257309941526,
               "max_at_k": 0.8274122807017545}
SCORIO_MAJ = [0.425, 0.1706140350877193, 0.3833333333333333]
AGREEMENT = 2.3e-16   # scorio within 2.2e-16 of the exact means here (its max_at_k one unit in the last place off)


def test_eval_api_pass_family_on_binary_ref():
    summary = passk.summarize(run_of(BINARY_REF), k=range(1, 9))
    for row, scorio, scorio_hat in zip(summary.results, SCORIO_PASS, SCORIO_PASS_HAT, strict=True):
        for metric, mine, theirs in (("pass_at_k", row.pass_at_k, scorio), ("pass_hat_k", row.pass_hat.pass_at_k,
                                                                            scorio_hat)):
            _, exact = mean_of(metric, BINARY_REF, row.k)
            assert abs(mine - exact) <= 2.0**-53 * 2 and abs(theirs - exact) <= AGREEMENT


def test_eval_api_g_pass_mg_pass_maj_and_max_on_binary_ref():
    for metric, scorio in SCORIO_AT_3.items():
        mine, exact = mean_of(metric, BINARY_REF, 3)
        assert abs(mine - exact) <= 2.0**-53 and abs(scorio - exact) <= AGREEMENT
    for k, scorio in enumerate(SCORIO_MAJ, start=1):
        mine, exact = mean_of("maj_at_k", BINARY_REF, k)
        assert abs(mine - exact) <= 2.0**-53 and abs(scorio - exact) <= AGREEMENT
    g_pass = passk.summarize(run_of(BINARY_REF), k=3, tau=0.7).g_pass.results[0]
    assert abs(g_pass.g_pass.value - SCORIO_AT_3["g_pass_at_k_tau(0.7)"]) <= AGREEMENT
    assert abs(g_pass.mg_pass.value - SCORIO_AT_3["mg_pass_at_k"]) <= AGREEMENT


def test_tau_edges_and_majority_thresholds_on_binary_ref():
    """test_pass_aliases_and_tau_edge_equivalences: tau = 0 is pass@k and tau = 1 pass^k;
    test_majority_matches_reference_and_threshold_equivalences: maj@k is G-Pass@k at tau = (k // 2 + 1) / k, and
    maj@1, maj@2 are pass^1, pass^2; each problem's value, bit for bit."""
    for n, c in counts(BINARY_REF):
        assert g_pass_at_k(n, c, 3, 0.0) == pass_at_k(n, c, 3) and g_pass_at_k(n, c, 3, 1.0) == pass_hat_k(n, c, 3)
        for k in (1, 2, 3):
            majority = at_least(n, c, k, k // 2 + 1)
            assert majority == g_pass_at_k(n, c, k, Fraction(k // 2 + 1, k))
            assert k == 3 or majority == pass_hat_k(n, c, k)


def test_mg_pass_at_one_is_zero():
    """test_pass_mg_k1_edge_case: the sum over i from ceil(1/2) + 1 = 2 to 1 is empty."""
    assert all(mg_pass_at_k(n, c, 1) == 0.0 for n, c in counts(BINARY_REF))


def test_large_n_and_k_stay_finite_and_exact():
    """test_pass_point_metrics_remain_finite_for_large_n_and_k: one problem all passes, one none, N = 2000 and
    k = 1000: pass@k, pass^k, G-Pass@k_0.5 and mG-Pass@k are all 1/2 (scorio: 0.5 each)."""
    run = passk.read(io.BytesIO(b"task_id,n,c\nall,2000,2000\nnone,2000,0\n"))
    summary = passk.summarize(run, k=1000, tau=0.5)
    row, g_pass = summary.results[0], summary.g_pass.results[0]
    assert (row.pass_at_k, row.pass_hat.pass_at_k, g_pass.g_pass.value, g_pass.mg_pass.value) == (0.5,) * 4


CASES = json.loads(Path(__file__).with_name("scorio_cases.json").read_text(encoding="utf-8"))
# the most scorio 0.2.3 is off the exact value on the 500 cases, by metric (passk: the nearest double, always)
SCORIO_ERROR = {"pass_at_k": 1.7e-16, "pass_hat_k": 1.2e-16, "g_pass_at_k_tau": 2.5e-16, "mg_pass_at_k": 1.2e-15,
                "maj_at_k": 3.9e-16}


def case_values(n, c, k, tau):
    """passk's and the exact value of each column of scorio_cases.json, for one case (tau > 0)."""
    return {"pass_at_k": (pass_at_k(n, c, k), tail(n, c, k, 1)),
            "pass_hat_k": (pass_hat_k(n, c, k), tail(n, c, k, k)),
            "g_pass_at_k_tau": (g_pass_at_k(n, c, k, tau), tail(n, c, k, max(1, math.ceil(Fraction(str(tau)) * k)))),
            "mg_pass_at_k": (mg_pass_at_k(n, c, k), exact_mg(n, c, k)),
            "maj_at_k": (at_least(n, c, k, k // 2 + 1), tail(n, c, k, k // 2 + 1))}


def test_random_cases_against_the_installed_package():
    columns = CASES["columns"]
    assert len(CASES["cases"]) == 500
    for case in CASES["cases"]:
        figures = dict(zip(columns, case, strict=True))
        n, c, k, tau = (figures[name] for name in ("n", "c", "k", "tau"))
        for metric, (mine, exact) in case_values(n, c, k, tau or 1.0).items():
            if metric == "g_pass_at_k_tau" and tau == 0:
                continue   # test_random_cases_at_tau_zero
            assert mine == float(exact), (metric, n, c, k, tau)
            assert abs(figures[metric] - exact) <= SCORIO_ERROR[metric], (metric, n, c, k, tau)


def test_random_cases_at_tau_zero():
    """scorio's tau = 0 is pass@k (at least one pass), as lighteval's is."""
    zero = [dict(zip(CASES["columns"], case, strict=True)) for case in CASES["cases"] if case[3] == 0]
    assert len(zero) > 50
    for case in zero:
        n, c, k = case["n"], case["c"], case["k"]
        assert g_pass_at_k(n, c, k, 0.0) == float(tail(n, c, k, 1)) == pass_at_k(n, c, k)
        assert abs(case["g_pass_at_k_tau"] - tail(n, c, k, 1)) <= SCORIO_ERROR["pass_at_k"]


# scorio 0.2.3's bayes_ci (confidence 0.95, bounds (0, 1)): (mu, sigma, lo, hi)
SCORIO_BAYES = {"docstring": (0.6428571428571428, 0.11845088536983571, 0.4106976735953824, 0.8750166121189031),
                "binary_ref": (0.4318181818181817, 0.0296790163795076, 0.37364837861777245, 0.489987985018591)}


@pytest.mark.parametrize(("rows", "scorio"), [(DOC_R, SCORIO_BAYES["docstring"]),
                                              (BINARY_REF, SCORIO_BAYES["binary_ref"])], ids=list(SCORIO_BAYES))
def test_bayes_at_n_is_scorios_posterior_with_its_credible_interval(rows, scorio):
    """bayes.py's Examples print (0.642857, 0.118451, 0.4107, 0.875) for the docstring's R; the posterior mean is
    the mean of (c + 1) / (N + 2), 9/14 there and 114/264 on binary_ref."""
    samples, correct = zip(*counts(rows))
    result = bayes_at_n(samples, correct)
    mean = sum((Fraction(c + 1, n + 2) for n, c in counts(rows)), Fraction(0)) / len(rows)
    variance = sum((Fraction(c + 1, n + 2) * (1 - Fraction(c + 1, n + 2)) / (n + 3) for n, c in counts(rows)),
                   Fraction(0)) / len(rows) ** 2
    assert result.mean == float(mean) and abs(result.sd - math.sqrt(variance)) <= 2.0**-52 * result.sd
    for mine, theirs in zip((result.mean, result.sd, *result.ci95), scorio, strict=True):
        assert abs(mine - theirs) <= 2.3e-16
    if rows is DOC_R:
        assert (round(result.mean, 6), round(result.sd, 6), *(round(end, 4) for end in result.ci95)) == \
            (0.642857, 0.118451, 0.4107, 0.875)


GRADED_R = ["01221", "11022"]   # the graded Examples (avg, max_at_k): categories scored by w = (0, 0.5, 1)
W = (0.0, 0.5, 1.0)
SCORIO_MAX = [0.6, 0.85, 0.95, 1.0, 1.0]   # scorio 0.2.3's max_at_k(R, k, w) for k = 1..5; the docstring: k = 2, 0.85


def test_graded_max_at_k_and_mean_score_are_scorios():
    scores = [[W[int(category)] for category in row] for row in GRADED_R]
    table = graded_table(scores, [1, 2, 3, 4, 5])
    assert table.mean.value == 0.6   # scorio's avg(R, w): (0.6, 0.147196), its sigma scorio's own
    for row, scorio in zip(table.results, SCORIO_MAX, strict=True):
        assert row.estimate.value == scorio == math.fsum(max_at_k(problem, row.k) for problem in scores) / 2
