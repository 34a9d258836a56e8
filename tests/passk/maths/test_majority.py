"""maj@k against brute force over every k-subset (exact Fractions), by Hypothesis, and against NeMo-Skills' own
majority@k on its real seed files."""

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, strategies as st

import passk.maths.majority as majority
from oracles import nearest
from passk.__main__ import main
from passk.formats.nemoskills import read_seed
from passk.maths.majority import (
                                  EXACT_MAX_N,
                                  TIES,
                                  first_k_majority,
                                  inconsistent_answers,
                                  majority_at_k,
                                  majority_at_k_exact,
                                  majority_at_n,
                                  vote_score,
                                  votes_by_problem,
                                  )
from where import REALDATA

NEMO = "nemoskills__NVIDIA_NeMo-Skills__"


def brute_force(answers, correct, k, tie):
    """The mean vote over all C(n, k) subsets, one by one."""
    scores = (vote_score([answers[i] for i in chosen], [correct[i] for i in chosen], tie)
              for chosen in combinations(range(len(answers)), k))
    return sum(scores, Fraction(0)) / comb(len(answers), k)


@st.composite
def problems(draw, most=10):
    """A problem's samples: answers from a few values (None, no answer, among them), verdicts per answer."""
    n = draw(st.integers(1, most))
    answers = draw(st.lists(st.sampled_from(["A", "B", "C", "D", None, ""]), min_size=n, max_size=n))
    right = draw(st.sets(st.sampled_from(["A", "B", "C", "D"]), max_size=2))
    return answers, [answer in right for answer in answers]


@pytest.mark.parametrize("answers, correct, k, tie, expected", [
    (["7", "7", "5", None], [True, True, False, False], 2, "fractional", Fraction(2, 3)),
    (["7", "5"], [True, False], 2, "fractional", Fraction(1, 2)),
    (["7", "5"], [True, False], 2, "wrong", Fraction(0)),
    ([None, "[invalid]"], [False, False], 1, "fractional", Fraction(0)),
    (["7", "5", "5", "7", "3"], [True, False, False, True, False], 5, "fractional", Fraction(1, 2)),
    (["7", "5", "5", "7", "3"], [True, False, False, True, False], 5, "wrong", Fraction(0)),
])
def test_small_cases_by_hand_and_by_brute_force(answers, correct, k, tie, expected):
    assert majority_at_k_exact(answers, correct, k, tie) == expected == brute_force(answers, correct, k, tie)


@pytest.mark.parametrize("tie", TIES)
def test_every_k_of_a_tied_problem_with_invalid_answers_matches_brute_force(tie):
    answers = ["A", "B", "B", "A", "C", None, "[invalid]", "C", "A", "B"]
    correct = [answer == "A" for answer in answers]
    for k in range(1, len(answers) + 1):
        assert majority_at_k_exact(answers, correct, k, tie) == brute_force(answers, correct, k, tie)


@given(problems(), st.data())
def test_the_dynamic_program_equals_brute_force_exactly(problem, data):
    answers, correct = problem
    k = data.draw(st.integers(1, len(answers)))
    for tie in TIES:
        assert majority_at_k_exact(answers, correct, k, tie) == brute_force(answers, correct, k, tie)


@given(problems())
def test_maj_at_1_is_pass_at_1_of_the_voting_answers(problem):
    answers, correct = problem
    voting_correct = sum(verdict for answer, verdict in zip(answers, correct) if answer is not None)
    for tie in TIES:
        assert majority_at_k_exact(answers, correct, 1, tie) == Fraction(voting_correct, len(answers))


@given(problems())
def test_maj_at_n_is_the_vote_over_all_samples(problem):
    answers, correct = problem
    for tie in TIES:
        assert majority_at_k_exact(answers, correct, len(answers), tie) == vote_score(answers, correct, tie)
        assert majority_at_n(answers, correct, tie) == float(vote_score(answers, correct, tie))


@given(problems())
def test_a_tie_counted_wrong_never_scores_more_than_fractional_credit(problem):
    answers, correct = problem
    for k in range(1, len(answers) + 1):
        assert majority_at_k_exact(answers, correct, k, "wrong") <= majority_at_k_exact(answers, correct, k)


@given(problems(most=40), st.data())
def test_the_program_over_arrays_of_whole_numbers_equals_the_dict_one(problem, data):
    """Above EXACT_MAX_N samples maj@k steps over numpy arrays of Python ints: the same exact Fraction."""
    answers, correct = problem
    k = data.draw(st.integers(1, len(answers)))
    for tie in TIES:
        by_dict = majority_at_k_exact(answers, correct, k, tie)
        saved = majority.EXACT_MAX_N
        majority.EXACT_MAX_N = 0   # every n takes the array program
        try:
            assert majority_at_k_exact(answers, correct, k, tie) == by_dict
            assert majority_at_k(answers, correct, k, tie) == nearest(by_dict)
        finally:
            majority.EXACT_MAX_N = saved


@given(problems(most=12), st.data())
def test_maj_at_k_is_the_double_nearest_the_brute_force_value(problem, data):
    answers, correct = problem
    k = data.draw(st.integers(1, len(answers)))
    for tie in TIES:
        assert majority_at_k(answers, correct, k, tie) == nearest(brute_force(answers, correct, k, tie))


@pytest.mark.parametrize("k", [1, 2, 16, 129, 256, 299, 300])
def test_three_hundred_samples_take_the_array_program_and_give_the_nearest_double(k):
    answers = [str(i % 7) if i % 5 else "right" for i in range(300)]
    correct = [answer == "right" for answer in answers]
    assert len(answers) > EXACT_MAX_N
    value = majority_at_k(answers, correct, k)
    saved = majority.EXACT_MAX_N
    majority.EXACT_MAX_N = 300   # the dict program, as the exact reference
    try:
        assert value == nearest(majority_at_k_exact(answers, correct, k))
    finally:
        majority.EXACT_MAX_N = saved
    assert majority_at_k(answers, correct, 1) == 60 / 300


def test_the_first_k_vote_depends_on_the_order_and_the_subset_mean_does_not():
    answers, correct = ["B", "A", "A"], [False, True, True]
    assert first_k_majority(answers, correct, 2) == Fraction(1, 2)
    assert first_k_majority(answers[::-1], correct[::-1], 2) == 1
    assert majority_at_k_exact(answers, correct, 2) == majority_at_k_exact(answers[::-1], correct[::-1], 2)


def test_an_answer_judged_both_ways_is_named():
    assert inconsistent_answers(["7", "7", "5", None], [True, False, False, True]) == ["7"]


@pytest.mark.parametrize("k", [0, 4, True])
def test_k_outside_one_to_n_is_refused(k):
    with pytest.raises(ValueError, match="k must be a whole number from 1 to n"):
        majority_at_k(["A", "B", "C"], [True, False, False], k)


def test_an_unknown_tie_rule_is_refused():
    with pytest.raises(ValueError, match="tie must be one of fractional, wrong"):
        majority_at_k(["A"], [True], 1, "coin")   # type: ignore[arg-type]


# NeMo-Skills' majority@k over its real seed files: first_k_majority (their rule, the first k seeds) gives their
# metrics.json figures; the subset mean of passk agrees at k = n, where both are the one vote over every seed.
FIGURES = {   # benchmark: (seeds, {k: majority@k of metrics.json as the exact fraction it is})
    "gpqa": (4, {2: Fraction(5, 8), 3: Fraction(7, 12), 4: Fraction(1, 2)}),
    "hendrycks_math": (3, {2: Fraction(11, 14), 3: Fraction(16, 21)}),
}
SUBSET_MEANS = {"gpqa": {2: Fraction(9, 16), 3: Fraction(13, 24)}, "hendrycks_math": {2: Fraction(5, 7)}}


def nemo_votes(benchmark, seeds):
    runs = [read_seed([(REALDATA / f"{NEMO}{benchmark}_output-rs{seed}.jsonl").read_bytes()]) for seed in range(seeds)]
    return list(votes_by_problem((run.answers, run.verdicts) for run in runs).values())


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
@pytest.mark.parametrize("benchmark", FIGURES)
def test_nemo_skills_own_majority_figures_are_reproduced(benchmark):
    seeds, figures = FIGURES[benchmark]
    metrics = json.loads((REALDATA / f"{NEMO}eval-results_metrics.json").read_text())[benchmark]
    problems = nemo_votes(benchmark, seeds)
    assert not any(inconsistent_answers(votes.answers, votes.correct) for votes in problems)
    for k, figure in figures.items():
        theirs = sum((first_k_majority(votes.answers, votes.correct, k) for votes in problems), Fraction(0))
        assert theirs / len(problems) == figure
        assert float(100 * figure) == pytest.approx(metrics[f"majority@{k}"]["symbolic_correct"], rel=1e-15)
        ours = sum((majority_at_k_exact(votes.answers, votes.correct, k) for votes in problems), Fraction(0))
        assert ours / len(problems) == (figure if k == seeds else SUBSET_MEANS[benchmark][k])


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
@pytest.mark.parametrize("asked", [[], ["--majority"]])
def test_the_command_line_prints_maj_at_k_beside_pass_at_k(asked, capsys):
    files = [str(REALDATA / f"{NEMO}gpqa_output-rs{seed}.jsonl") for seed in range(4)]
    assert main([*files, "-k", "1,2,3,4", *asked]) == 0
    table = capsys.readouterr().out.split("NeMo-Skills' majority@k):")[1].splitlines()
    assert table[1].split()[:3] == ["k", "maj@k", "±"]
    assert table[1].split()[-3:] == ["first", "k", "only"]
    # every k-subset: 1/2, 9/16, 13/24, 1/2; the first k seeds: 3/4, 5/8, 7/12, 1/2 (NeMo-Skills' majority@4: 50)
    assert [(line.split()[1], line.split()[-1]) for line in table[2:6]] == [
        ("50.00%", "75.00%"), ("56.25%", "62.50%"), ("54.17%", "58.33%"), ("50.00%", "50.00%")]
    assert "maj@n, the vote over all of each problem's samples: 50.00%" in table[6]


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
def test_the_command_line_refuses_majority_for_files_without_answers(capsys):
    assert main([str(REALDATA / "humaneval__BoyuanJackChen_human-eval__davinci002_results.jsonl"), "--majority"]) == 2
    assert "--majority needs each sample's extracted answer, and these files have none" in capsys.readouterr().err


def test_majority_adds_to_the_answer_of_one_run(capsys):
    with pytest.raises(SystemExit):
        main(["a.jsonl", "b.jsonl", "--majority", "--runs"])
    assert "--majority adds to the answer of one run: leave out --runs" in capsys.readouterr().err
