"""The reference estimator of human-eval, which EvalPlus (and OpenCompass and evalscope) carry unchanged, against
passk.

Sources:
- openai/human-eval @ 6d43fb980f9fee3c892a914eda09951f772ad10d: human_eval/evaluation.py, estimate_pass_at_k
  (1 - prod(1 - k / arange(n - c + 1, n + 1)), and 1.0 whenever n - c < k) and the rule that pass@k is reported
  only when every problem has at least k samples (evaluate_functional_correctness); README.md, the sanity check
  on data/example_samples.jsonl ("should yield 0.5 pass@1", printed as {'pass@1': 0.4999999999999999}).
- evalplus/evalplus @ 26d6d00bb1fd0fa37f39c99d5290da67891d1c5e: evalplus/eval/__init__.py, estimate_pass_at_k (the
  same estimator), and evalplus/evaluate.py (pass@k for k in 1, 10, 100 only where (total >= k).all()).

The peers' figures below are what their code returns (run with numpy 2.4 outside passk's environment), written
out. passk returns the double nearest the exact value; the reference product is within 6.7e-16 of it on these.
"""

import io
import math
from fractions import Fraction

import pytest

import passk
from passk.maths.estimator import pass_at_k

# (n, c, k) -> estimate_pass_at_k([n], [c], k)[0], identical in human-eval and EvalPlus at the commits above
REFERENCE = {
    (6, 3, 1): 0.4999999999999999,        # the README's sanity check
    (10, 3, 5): 0.9166666666666666,
    (200, 37, 10): 0.8773745673794602,
    (128, 65, 1): 0.5078124999999993,     # the product's largest error on n <= 128 (6.7e-16)
    (1000, 1, 1): 0.0010000000000000009,
    (2000, 2, 100): 0.09752376188094047,
    (100000, 3, 1000): 0.029701294034880865,
    (128, 106, 112): 1.0,                 # n - c < k: every draw of 112 holds a pass
    (1000, 999, 10): 1.0,
}
AGREEMENT = 6.7e-16   # the most the reference product is off the exact value on these cases


def exact(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


@pytest.mark.parametrize(("n", "c", "k"), REFERENCE)
def test_pass_at_k_is_the_reference_estimator_rounded_once(n, c, k):
    assert pass_at_k(n, c, k) == float(exact(n, c, k))
    assert abs(pass_at_k(n, c, k) - REFERENCE[n, c, k]) <= AGREEMENT


def test_the_readme_sanity_check_gives_exactly_one_half():
    """Six completions of test/0: the three that return 1 pass; the reference prints 0.4999999999999999."""
    verdicts = [("failed: subprocess", False), ("timed out", False), ("failed: input", False),
                ("passed", True), ("passed", True), ("passed", True)]
    lines = "".join(f'{{"task_id": "test/0", "completion": "...", "result": "{result}", '
                    f'"passed": {str(passed).lower()}}}\n' for result, passed in verdicts)
    summary = passk.summarize(passk.read(io.BytesIO(lines.encode())), k=1)
    assert summary.results[0].pass_at_k == 0.5
    assert abs(0.5 - 0.4999999999999999) == 2.0**-53


@pytest.mark.parametrize(("n", "c", "k"), [(5, 0, 7), (3, 1, 5)])
def test_k_above_n_is_refused_where_the_reference_returns_one(n, c, k):
    """The reference's n - c < k branch returns 1.0 even with no pass at all; there is no unbiased value there."""
    with pytest.raises(ValueError, match=r"k must be at most n"):
        pass_at_k(n, c, k)


def test_a_k_is_reported_only_when_every_problem_has_k_samples():
    """evaluate_functional_correctness and EvalPlus's evaluate leave out a k some problem has fewer samples for."""
    run = passk.read(io.BytesIO(b"task_id,n,c\na,10,3\nb,5,0\n"))
    at_one, at_ten = passk.summarize(run, k=[1, 10]).results
    assert at_one.pass_at_k == float((Fraction(3, 10) + 0) / 2)
    assert at_ten.pass_at_k is None and "fewer than 10 samples" in at_ten.reason
