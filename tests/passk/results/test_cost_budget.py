"""Issue 15 §3, a cost budget per request: what was made cheaper gives the same numbers, and what is refused says why.

The time and memory are measured by bench/bench_limits.py --issue15, never here: these tests check outcomes
(status, sentence, values) against independent computations, at the edges the faster code paths have.
"""

import base64
import io
import json
import math
import zlib
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import betainc

import oracles
from passk.results.benchmark import summarize
from passk.maths.estimator import estimate_pass_at_k, log_complement
from passk.formats import Problem
from passk.maths.intervals import PairedDifference, _midp_lower, midp_interval
from passk.limits import LIMITS, LimitError, size
from passk.results.planner import _Noise
from passk.writing.report import Report, check_download, download_bytes, json_chunks
from passk.maths.variance import expected_variance, fit_prior, overlaps_worth_summing


def brentq_midp_lower(passes, trials, tail):
    """The mid-p lower end found as issue 14 found it (brentq on the tail in log rate), to 1e-15."""
    fails = trials - passes

    def excess(log_rate):
        rate = math.exp(log_rate)
        beyond = betainc(passes + 1, fails, rate) if fails > 0 else 0.0
        return 0.5 * (betainc(passes, fails + 1, rate) + beyond) - tail

    return math.exp(brentq(excess, math.log(2.0**-1022), 0.0, xtol=1e-15, rtol=4 * 2.0**-52, maxiter=500))


@pytest.mark.parametrize("passes, trials, tail", [
    (3, 10, 0.025), (7.3, 20.5, 0.025), (150.2, 1000, 0.001), (0.02, 50, 0.025), (1, 10**7, 1e-200),
    (0.63, 1.37, 2.2e-178), (999_999.5, 10**6, 0.025), (5e5, 10**6, 1e-300), (19, 20, 0.49),
])
def test_newton_mid_p_ends_are_the_brentq_ends(passes, trials, tail):
    assert _midp_lower(passes, trials, tail) == pytest.approx(brentq_midp_lower(passes, trials, tail), rel=1e-12)


def test_newton_mid_p_ends_solve_their_equation_at_forty_digits():
    for passes, trials in [(3, 10), (0.5, 2.5), (40.25, 41), (1234.5, 5000)]:
        oracles.assert_is_midp_interval(midp_interval(passes, trials), passes, trials, tolerance=1e-12)


def paired_from(differences):
    count = len(differences)
    mean = math.fsum(differences) / count
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in differences) / (count - 1))
    return PairedDifference(mean, math.fsum(map(abs, differences)) / count, sd, count)


@pytest.mark.parametrize("differences", [
    [1, 0, 0, 1, -1, 1, 0, 1, 1, 0] * 10,
    [0.25, -0.1, 0.5, 0.0, 0.05] * 20,
    [1.0] * 3 + [0.0] * 97,
    [-0.3, 0.1, -0.2, 0.25, 0.0, -0.05] * 10,
])
def test_p_value_is_the_level_at_which_the_interval_reaches_zero(differences):
    paired = paired_from(differences)
    p_value = paired.p_value()
    assert 0 < p_value < 1
    low, high = paired.interval(1 - p_value)
    nearer = low if paired.mean > 0 else high
    assert abs(nearer) < 1e-6 * (high - low)   # 1 - p rounds p to 1e-16 absolute
    just_inside, just_outside = paired.interval(1 - p_value * (1 + 1e-6)), paired.interval(1 - p_value * (1 - 1e-6))
    assert (just_inside[0] > 0 if paired.mean > 0 else just_inside[1] < 0)
    assert (just_outside[0] <= 0 if paired.mean > 0 else just_outside[1] >= 0)


def test_an_end_that_touches_zero_and_turns_back_gives_p_one_as_before():
    # One share 0 (no problem favours run B) and three problems: at every level the interval keeps 0.
    paired = PairedDifference(0.035225444062261434, 0.035225444062261434, 0.06101225883501224, 3)
    assert paired.p_value() == 1.0


def test_no_difference_gives_p_one_and_all_one_sided_a_small_p():
    assert paired_from([0.0] * 50).p_value() == 1.0
    assert paired_from([1.0] * 50).p_value() < 1e-10


def test_values_near_1e_minus_160_do_not_underflow_the_skewness():
    # pass^30 of c = 5,000 of n = 10^9 is about 1e-160; its moments used to underflow to a ZeroDivisionError (500).
    problems = [Problem(f"p{i}", 10**9 + i, 5000 + i % 1000) for i in range(2000)]
    summary = summarize(problems, [30, 31, 32])
    for row in summary.results:
        assert 0 < row.pass_hat.pass_at_k < 1e-150
        assert row.pass_hat.ci95[0] <= row.pass_hat.pass_at_k <= row.pass_hat.ci95[1]


@pytest.mark.parametrize("n, c, k", [(40, 3, 30), (10**9 + 7, 5003, 32), (100, 30, 32), (64, 1, 32), (33, 1, 32)])
def test_short_products_step_by_step_match_exact_fractions(n, c, k):
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert estimate_pass_at_k(np.array([n, 50, n]), np.array([c, 0, c]), k)[0] == pytest.approx(float(exact), rel=1e-13)


def test_short_products_of_mixed_lengths_each_keep_their_own():
    n = np.array([40.0, 10**6, 200, 60, 10**12])
    c = np.array([3.0, 31, 1, 17, 29])
    logs = log_complement(n, c, 32)
    for value, (size_, passed) in zip(logs, zip(n.astype(int), c.astype(int))):
        exact = Fraction(math.comb(size_ - passed, 32), math.comb(size_, 32))
        assert value == pytest.approx(math.log(exact), rel=1e-13)


def windowed_variance(n, c, k, prior):
    """E[Var] summed at 30 digits (mpmath) over the overlaps worth summing, each term on its own: no grouping of
    rows into matrices and no running sums. (The window leaves out 4.5e-9 of the 1e-90 variance of n = 2,798,
    c = 2,725 at k = 32, where (1-p)^(2k-j) grows faster than the overlap's chance falls.)"""
    with mpmath.workdps(30):
        a, b, n = mpmath.mpf(c) + prior[0], mpmath.mpf(n - c) + prior[1], int(n)
        total = mpmath.mpf(0)
        for j in overlaps_worth_summing(n, k).astype(int).tolist():
            chance = mpmath.binomial(k, j) * mpmath.binomial(n - k, k - j) / mpmath.binomial(n, k)
            total += chance * (mpmath.beta(a, b + 2 * k - j) - mpmath.beta(a, b + 2 * k)) / mpmath.beta(a, b)
        return float(total)


def test_the_expected_variance_grouped_by_eight_columns_matches_its_terms_summed_one_by_one():
    rng = np.random.default_rng(15)
    n = rng.integers(64, 3000, 400).astype(float)
    c = np.floor(rng.random(400) * (n + 1))
    prior = fit_prior(n, c)
    for k in (2, 17, 32):
        variances = expected_variance(n, c, k, prior)
        for index in range(0, 400, 53):
            assert variances[index] == pytest.approx(windowed_variance(n[index], c[index], k, prior),
                                                     rel=1e-9, abs=1e-300)


def test_the_planners_running_sums_match_the_windows_at_one_size():
    rng = np.random.default_rng(16)
    n = rng.integers(100, 400, 300)
    c = np.floor(rng.random(300) * (n + 1)).astype(np.int64)
    noise = _Noise(n, c)
    for k, size_ in [(10, 400), (32, 5000), (50, 10**6)]:
        by_overlap = noise.variance_sum(k, size_)
        by_windows = math.fsum(noise.weights * expected_variance(noise.samples, noise.correct, k, noise.prior,
                                                                 at=size_))
        assert by_overlap == pytest.approx(by_windows, rel=1e-9)


def escaped_ids(problems):
    return [Problem("é" * 191 + f"{index:09d}", 200, index % 201) for index in range(problems)]


def test_a_download_whose_json_passes_the_limit_is_refused_naming_it():
    with pytest.raises(LimitError) as refused:
        check_download(escaped_ids(100_000), [1, 10, 100])
    assert f"more than the {size(LIMITS.download_bytes)} limit for a download" in str(refused.value)
    assert "The download would be about 144 MB" in str(refused.value)


def test_the_estimate_is_at_least_the_json_written():
    problems = escaped_ids(300) + [Problem(f"HumanEval/{index}", 10**12, 10**6) for index in range(300)]
    ks = [1, 10, 100, 100_000]
    report = Report(summarize(problems, ks), "csv")
    written = len("".join(json_chunks(report)).encode())
    rows = written - len(json.dumps(report.to_json(per_problem=False)).encode())
    assert rows <= download_bytes(problems, ks) <= 1.5 * written


def packed(text):
    return base64.urlsafe_b64encode(zlib.compress(text.encode())).decode()


def test_the_download_route_refuses_a_packed_form_that_unpacks_to_a_huge_answer(client):
    counts = "task_id,n,c\n" + "".join(f"{'é' * 191}{index:09d},200,{index % 201}\n" for index in range(100_000))
    answer = client.post("/benchmark/download", data={"packed": packed(counts), "k": "1,10,100", "as": "json"})
    assert answer.status_code == 400
    assert b"limit for a download" in answer.data
    assert len(answer.data) < 100_000


def test_the_download_route_still_streams_a_large_legitimate_answer(client):
    counts = "task_id,n,c\n" + "".join(f"{'x' * 181}{index:09d},200,{index % 201}\n" for index in range(20_000))
    answer = client.post("/benchmark/download", data={"packed": packed(counts), "k": "1,10,100", "as": "csv"})
    assert answer.status_code == 200
    assert answer.is_streamed or answer.data
    assert answer.data.count(b"\n") == 20_001


def distinct_csv(problems):
    return "task_id,n,c\n" + "".join(f"p{index},{10**9 + index},{5000 + index % 1000}\n" for index in range(problems))


TWENTY_KS = ",".join(str(k) for k in range(11, 31))
DISTINCT_REFUSED = ("The input has 5,001 different (n, c) pairs × 20 k values, 100,020 in all; at most "
                    f"{LIMITS.distinct_cells:,} are computed per request, as each pair is computed on its own "
                    "(runs that give every problem the same n have a few hundred): choose fewer k values, or use "
                    "the command line (the passk command) for larger runs.")


def test_more_different_n_c_pairs_times_ks_than_the_limit_are_refused_by_the_api(client):
    # 5,001 problems (a file small enough to stay in memory) at 20 ks: 100,020 pass@k values of different pairs.
    answer = client.post("/api/v1/benchmark", data={"k": TWENTY_KS,
                                                    "file": (io.BytesIO(distinct_csv(5_001).encode()), "w.csv")})
    assert answer.status_code == 400
    assert answer.get_json() == {"error": DISTINCT_REFUSED}


def test_a_share_link_of_as_many_different_pairs_is_refused_too(client):
    counts = ",".join(f"{10**9 + index}:{5000 + index % 1000}" for index in range(5_001))
    answer = client.get("/benchmark", query_string={"counts": counts, "k": TWENTY_KS})
    assert answer.status_code == 400
    assert "5,001 different (n, c) pairs × 20 k values" in answer.get_data(as_text=True)


def test_the_same_problems_at_one_k_are_computed(client):
    pasted = "".join(f"{10**9 + index} {5000 + index % 1000}\n" for index in range(100_000))   # 1.6 MB, in memory
    answer = client.post("/api/v1/benchmark", data={"k": "1", "text": pasted})
    assert answer.status_code == 200
    assert answer.get_json()["problems"] == 100_000


def test_many_problems_with_few_different_pairs_keep_every_k(client):
    pasted = "".join(f"200 {index % 201}\n" for index in range(100_000))
    answer = client.post("/api/v1/benchmark", data={"k": "1,10,100", "text": pasted})
    assert answer.status_code == 200
    assert [row["k"] for row in answer.get_json()["results"]] == [1, 10, 100]
