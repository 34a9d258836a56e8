"""avg@k and the spread across seeds on NeMo-Skills' own seed files, against its summarize_results output
(realdata nemoskills__NVIDIA_NeMo-Skills__eval-results_metrics.json: NVIDIA/NeMo-Skills @ 0b012df8,
tests/data/eval_outputs/eval-results/metrics.json-test, pass@1[avg-of-k]'s *_statistics), written out here."""

import pytest

import passk
from where import REALDATA

NEMO = "nemoskills__NVIDIA_NeMo-Skills__"
pytestmark = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")

# benchmark: {k: (avg, std_dev_across_runs, std_err_across_runs, avg_sample_std_dev)}, as metrics.json-test has them
NEMO_SKILLS = {
    "hendrycks_math": {2: (0.7857142857142857, 0.10101525445522103, 0.07142857142857138, 0.10101525445522108),
                       3: (0.7142857142857143, 0.14285714285714285, 0.08247860988423225, 0.16495721976846453)},
    "gpqa": {2: (0.625, 0.1767766952966369, 0.125, 0.1767766952966369),
             3: (0.5833333333333333, 0.14433756729740646, 0.08333333333333334, 0.14433756729740646),
             4: (0.5, 0.2041241452319315, 0.10206207261596575, 0.25)},
    "answer-judge": {2: (0.375, 0.05892556509887899, 0.041666666666666685, 0.1767766952966369),
                     3: (0.4166666666666667, 0.08333333333333334, 0.04811252243246882, 0.1924500897298753),
                     4: (0.4375, 0.07978559231302818, 0.03989279615651409, 0.22122504486493763)},
    "minif2f": {2: (0.3333333333333333, 0.0, 0.0, 0.47140452079103173),
                3: (0.4444444444444444, 0.19245008972987526, 0.11111111111111112, 0.5773502691896258),
                4: (0.3333333333333333, 0.2721655269759087, 0.13608276348795434, 0.5257834230632086)},
}


@pytest.mark.parametrize("benchmark", list(NEMO_SKILLS))
def test_avg_at_k_and_the_seeds_spread_are_nemo_skills_figures(benchmark):
    expected = NEMO_SKILLS[benchmark]
    files = sorted(REALDATA.glob(f"{NEMO}{benchmark}_output-rs*.jsonl"))
    summary = passk.summarize(passk.read([str(path) for path in files]), k=sorted(expected))
    assert summary.averages.seeds == len(files) and summary.graded is None   # verdicts: no graded table
    for row in summary.averages.results:
        average, spread, error, within = expected[row.k]
        assert row.estimate.value == pytest.approx(average, rel=1e-15)
        # numpy's std, mean and sqrt round at each step: a few ulps from passk's correctly rounded figures
        assert (row.seeds_sd, row.seeds_se, row.within_sd) == pytest.approx((spread, error, within), rel=1e-14,
                                                                            abs=1e-16)
