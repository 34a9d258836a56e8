"""NeMo-Skills output-rs<seed>.jsonl read as NeMo-Skills' own metrics classes read each benchmark's lines.

The fixtures in tests/fixtures/nemoskills/<benchmark>/ are small seed files modeled on NeMo-Skills' test files (see
their README). Every figure below is an exact fraction worked out from the lines, and the same figure NeMo-Skills'
metrics classes (nemo_skills/evaluation/metrics @ 0b012df8) give on these files, written as they print it (per cent).
The real files in ../shared/realdata are checked against NeMo-Skills' own metrics.json beside them.
"""

import json
from fractions import Fraction
from math import comb

import pytest

from passk.results.benchmark import summarize
from passk.formats import FormatError, read_files, read_problems
from passk.formats.detect import detect_format
from passk.formats.nemoskills import judgement_of
from passk.formats._core import answer_of
from passk.maths.majority import first_k_majority, majority_at_k_exact
from where import FIXTURES, REALDATA

NEMO = "nemoskills__NVIDIA_NeMo-Skills__"


def seeds_of(benchmark, suite="plus"):
    """A benchmark's fixture seed files read as one run, as the command line reads them."""
    paths = sorted((FIXTURES / "nemoskills" / benchmark).glob("output-rs*.jsonl"))
    return read_files([(path.name, path.read_bytes()) for path in paths], suite=suite)


def real_run(benchmark, suite="plus"):
    """A benchmark's real seed files (../shared/realdata) read as one run."""
    paths = sorted(REALDATA.glob(f"{NEMO}{benchmark}_output-rs*.jsonl"))
    return read_files([(path.name, path.read_bytes()) for path in paths], suite=suite)


def pass_at_k(problems, k):
    """The exact mean of 1 - C(n-c, k) / C(n, k) over problems."""
    return sum(1 - Fraction(comb(p.n - p.c, k), comb(p.n, k)) for p in problems) / len(problems)


def first_k(problems, k):
    """NeMo-Skills' majority@k: the mean over problems of the vote over the first k samples (exact)."""
    votes = [([answer for answer, _ in p.votes], [verdict for _, verdict in p.votes]) for p in problems]
    return sum((first_k_majority(answers, correct, k) for answers, correct in votes), Fraction(0)) / len(problems)


def every_subset(problems, k):
    """passk's maj@k: the mean over problems of the vote over every k-subset (exact)."""
    votes = [([answer for answer, _ in p.votes], [verdict for _, verdict in p.votes]) for p in problems]
    return sum((majority_at_k_exact(answers, correct, k) for answers, correct in votes), Fraction(0)) / len(problems)


def per_cent(figure):
    """A NeMo-Skills per-cent figure as the fraction it stands for, to the double it was printed from."""
    return Fraction(figure) / 100


def lines(*records):
    return "".join(json.dumps(record) + "\n" for record in records).encode()


needs_real_files = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")


# answer-judge: correct when the judgement's verdict is the expected one; the parsed judgement votes


def test_an_answer_judge_sample_is_correct_when_its_verdict_is_the_expected_one():
    parsed = seeds_of("answer-judge")
    assert parsed.format == "nemoskills"
    assert [(p.n, p.c) for p in parsed.problems] == [(3, 2), (3, 1), (3, 1), (3, 1)]   # "Yes" would pass line 2 twice
    for k, figure in {1: 41.66666666666667, 2: 75.0, 3: 100.0}.items():   # NeMo-Skills' correct_judgements
        assert pass_at_k(parsed.problems, k) == {1: Fraction(5, 12), 2: Fraction(3, 4), 3: Fraction(1)}[k]
        assert abs(float(pass_at_k(parsed.problems, k)) - figure / 100) <= 1e-15


def test_an_answer_judge_sample_votes_with_its_parsed_judgement_and_none_abstains():
    parsed = seeds_of("answer-judge")
    assert [tuple(answer for answer, _ in p.votes) for p in parsed.problems] == [
        (True, False, True), (True, True, False), (None, True, None), (None, False, True)]
    assert first_k(parsed.problems, 2) == Fraction(3, 8) == per_cent(37.5)   # NeMo-Skills' majority@2
    assert first_k(parsed.problems, 3) == Fraction(1, 2) == per_cent(50.0)   # and majority@3
    assert every_subset(parsed.problems, 2) == Fraction(5, 12)
    majority = summarize(parsed.problems, [2, 3]).majority
    assert majority is not None and [row.first_k for row in majority.results] == [0.375, 0.5]


@pytest.mark.parametrize("text, verdict", [
    ("Judgement: Yes", True),
    ("Reasoning first.\nJudgement: yes, they match", True),
    ("Judgement: No\n\nReasoning: the forms differ.", False),
    ("Judgement: Yes ... on reflection, Judgement: No", False),   # the last one counts
    ("Judgement: maybe", None),
    ("I cannot tell whether the two answers match.", None),
])
def test_a_judgement_is_read_as_nemo_skills_reads_it(text, verdict):
    assert judgement_of(text) is verdict


@needs_real_files
def test_real_answer_judge_files_give_nemo_skills_counts_and_majority():
    parsed = real_run("answer-judge")
    metrics = json.loads((REALDATA / f"{NEMO}eval-results_metrics.json").read_text())["answer-judge"]
    assert [p.c for p in parsed.problems] == [0, 4, 0, 1, 2, 4, 1, 3, 4, 0, 0, 2]
    for k, figure in {2: Fraction(5, 12), 3: Fraction(11, 24), 4: Fraction(13, 24)}.items():
        assert first_k(parsed.problems, k) == figure
        assert abs(float(figure) - metrics[f"majority@{k}"]["correct_judgements"] / 100) <= 1e-15


# human-eval: the suites base (is_correct) and plus (is_correct-plus), plus by default as in EvalPlus


@pytest.mark.parametrize("suite, counts, figures", [
    ("plus", [1, 0, 1], {1: Fraction(1, 3), 2: Fraction(2, 3)}),   # NeMo-Skills' passing_plus_tests 33.33, 66.67
    ("base", [2, 1, 1], {1: Fraction(2, 3), 2: Fraction(1)}),      # passing_base_tests 66.67, 100
])
def test_human_eval_reads_the_chosen_suite(suite, counts, figures):
    parsed = seeds_of("human-eval", suite)
    assert [p.c for p in parsed.problems] == counts
    assert {k: pass_at_k(parsed.problems, k) for k in figures} == figures
    assert any(f"passk read {suite}, NeMo-Skills' passing_{suite}_tests" in warning for warning in parsed.warnings)


@needs_real_files
@pytest.mark.parametrize("suite, figures", [("plus", {1: Fraction(5, 8), 2: Fraction(3, 4)}),
                                            ("base", {1: Fraction(3, 4), 2: Fraction(3, 4)})])
def test_real_human_eval_files_give_both_suites(suite, figures):
    parsed = real_run("human-eval", suite)
    assert {k: pass_at_k(parsed.problems, k) for k in figures} == figures


def test_the_default_suite_is_plus_and_another_name_is_refused_naming_the_suites():
    assert [p.c for p in seeds_of("human-eval").problems] == [1, 0, 1]
    with pytest.raises(FormatError, match=r'Unknown suite "loose": NeMo-Skills human-eval lines have the suites '
                                          r"plus \(is_correct-plus\) and base \(is_correct\)\."):
        seeds_of("human-eval", "loose")


# Lean4: correct when proof_status is "completed"


def test_lean4_is_correct_when_the_proof_status_is_completed():
    parsed = seeds_of("minif2f")
    assert [p.c for p in parsed.problems] == [2, 0, 2]   # timeout, has_sorry and error fail
    assert [pass_at_k(parsed.problems, k) for k in (1, 2, 3)] == [Fraction(4, 9), Fraction(2, 3), Fraction(2, 3)]


@needs_real_files
def test_real_lean4_files_are_read():
    parsed = real_run("minif2f")
    assert [pass_at_k(parsed.problems, k) for k in (1, 2, 3, 4)] == [
        Fraction(1, 3), Fraction(11, 18), Fraction(5, 6), Fraction(1)]


# IFEval: prompt-level follow_all_instructions, strict by default, loose as the other suite


@pytest.mark.parametrize("suite, read, counts, figures", [
    ("plus", "strict", [0, 1], [Fraction(1, 4), Fraction(1, 2)]),   # no choice: NeMo-Skills' prompt_strict_accuracy
    ("base", "strict", [0, 1], [Fraction(1, 4), Fraction(1, 2)]),
    ("strict", "strict", [0, 1], [Fraction(1, 4), Fraction(1, 2)]),
    ("loose", "loose", [1, 2], [Fraction(3, 4), Fraction(1)]),      # prompt_loose_accuracy 75, 100
])
def test_ifeval_reads_prompt_level_strict_or_loose(suite, read, counts, figures):
    parsed = seeds_of("ifeval", suite)
    assert [p.c for p in parsed.problems] == counts
    assert [pass_at_k(parsed.problems, k) for k in (1, 2)] == figures
    assert any("IFEval lines hold the suites strict (strict_eval) and loose (loose_eval): passk read "
               f"{read}, NeMo-Skills' prompt_{read}_accuracy" in warning for warning in parsed.warnings)


@needs_real_files
def test_real_ifeval_files_give_nemo_skills_prompt_accuracy():
    metrics = json.loads((REALDATA / f"{NEMO}eval-results_metrics.json").read_text())["ifeval"]
    for suite in ("strict", "loose"):
        parsed = real_run("ifeval", suite)
        for k in (1, 2, 3):
            assert pass_at_k(parsed.problems, k) == Fraction(1, 3)
            assert abs(1 / 3 - metrics[f"pass@{k}"][f"prompt_{suite}_accuracy"] / 100) <= 1e-15


# Votes: only files with answers (or judgements) have them; "" is an answer, null is none


@pytest.mark.parametrize("benchmark", ["human-eval", "minif2f", "ifeval"])
def test_a_run_without_answers_has_no_votes_and_no_majority_table(benchmark):
    parsed = seeds_of(benchmark)
    assert all(p.votes is None for p in parsed.problems)
    assert summarize(parsed.problems, [1, 2]).majority is None


def test_an_empty_answer_votes_and_only_null_abstains():
    parsed = seeds_of("empty-answer")
    assert [[answer for answer, _ in p.votes] for p in parsed.problems] == [
        ["1", "1", ""], ["5", "5", None], ["", "", "7"]]
    # NeMo-Skills' majority@2 and @3: 66.67 each (dropping "" would give 1 and 1)
    assert first_k(parsed.problems, 2) == first_k(parsed.problems, 3) == Fraction(2, 3)
    assert every_subset(parsed.problems, 2) == Fraction(2, 3)   # 8/9 if "" abstained


@pytest.mark.parametrize("answer, nemo_skills, elsewhere", [
    ("", "", None), (" [invalid] ", " [invalid] ", None), ("[invalid]", "[invalid]", None), (None, None, None),
    ("7", "7", "7"), (7, 7, 7), ([1, 2], "[1, 2]", "[1, 2]")])
def test_only_a_missing_answer_abstains_in_a_nemo_skills_vote(answer, nemo_skills, elsewhere):
    """NeMo-Skills counts "" and "[invalid]" as answers; the other readers (lm-eval's "[invalid]" is its filters'
    no-match) read them as no answer, None, the one answer that does not vote."""
    assert answer_of(answer, blank_votes=True) == nemo_skills
    assert answer_of(answer) == elsewhere


def test_other_readers_keep_their_no_answer_markers():
    answers = ["[invalid]", "", "7"]
    assert majority_at_k_exact([answer_of(a) for a in answers], [False, False, True], 2) == Fraction(2, 3)
    assert majority_at_k_exact([answer_of(a, blank_votes=True) for a in answers], [False, False, True],
                               2) == Fraction(1, 3)


# NeMo-Skills @ 0b012df8, tests/data/output-rs{0,1,2}.test (50 MATH problems, 3 seeds, with ids): passk's maj@2 over
# every 2-subset is 117/150 when "" votes, as NeMo-Skills counts it, and was 119/150 when "" abstained. The two
# problems with an empty predicted_answer (seed 2 of each) make the difference, their votes as the files give them:
EMPTY_IN_NEMO_TESTS = {
    "train/algebra/635.json": (["1", "1", ""], [True, True, False]),
    "train/number_theory/918.json": (["5", "5", ""], [True, True, False]),
}


@pytest.mark.parametrize("task_id", sorted(EMPTY_IN_NEMO_TESTS))
def test_the_empty_answers_of_nemo_skills_test_files_take_two_thirds_from_their_maj_at_2(task_id):
    answers, correct = EMPTY_IN_NEMO_TESTS[task_id]
    content = b"".join(lines({"id": task_id, "predicted_answer": answer, "symbolic_correct": verdict})
                       for answer, verdict in zip(answers, correct))
    seeds = [(f"output-rs{seed}.jsonl", line + b"\n") for seed, line in enumerate(content.splitlines())]
    [problem] = read_files(seeds).problems
    votes = [answer for answer, _ in problem.votes]
    assert majority_at_k_exact(votes, correct, 2) == Fraction(2, 3)   # a tie of "1" and "" in 2 of the 3 pairs
    assert majority_at_k_exact(["1", "1", None], correct, 2) == 1    # the old rule: "" did not vote
    assert Fraction(119, 150) - Fraction(117, 150) == len(EMPTY_IN_NEMO_TESTS) * (1 - Fraction(2, 3)) / 50


# Scores: each sample's verdict as 1.0 / 0.0, in seed order


def test_every_sample_has_its_score_in_seed_order():
    parsed = seeds_of("minif2f")
    assert [p.scores for p in parsed.problems] == [(1.0, 0.0, 1.0), (0.0, 0.0, 0.0), (0.0, 1.0, 1.0)]
    for k, figure in {2: Fraction(1, 3), 3: Fraction(4, 9)}.items():   # NeMo-Skills' pass@1[avg-of-k]
        assert sum(Fraction(sum(p.scores[:k])) / k for p in parsed.problems) / len(parsed.problems) == figure


@needs_real_files
def test_real_scores_give_nemo_skills_average_of_the_first_k_seeds():
    metrics = json.loads((REALDATA / f"{NEMO}eval-results_metrics.json").read_text())
    for benchmark, metric in (("minif2f", "lean4_correct"), ("answer-judge", "correct_judgements"),
                              ("hendrycks_math", "symbolic_correct"), ("gpqa", "symbolic_correct")):
        problems = real_run(benchmark).problems
        for k in range(2, problems[0].n + 1):
            average = sum(Fraction(sum(p.scores[:k])) / k for p in problems) / len(problems)
            stored = metrics[benchmark][f"pass@1[avg-of-{k}]"][f"{metric}_statistics"]["avg"]
            assert abs(float(average) - stored) <= 1e-15, (benchmark, k)


# Detection, suites of files without them, and refusals


@pytest.mark.parametrize("first_line", [
    {"judgement": "Judgement: No", "expected_judgement": "Judgement: Yes", "num_generated_tokens": 44},
    {"num_generated_tokens": 1406, "is_correct": True, "is_correct-plus": True},
    {"num_generated_tokens": 3055, "proof_status": "timeout"},
    {"num_generated_tokens": 2819, "strict_eval": {"follow_all_instructions": False},
     "loose_eval": {"follow_all_instructions": True}},
])
def test_each_benchmarks_lines_are_detected(first_line):
    assert detect_format(lines(first_line, first_line), "output-rs0.jsonl") == "nemoskills"


def test_a_file_without_suites_refuses_a_suite_name_and_says_base_was_ignored():
    content = lines({"predicted_answer": "4", "symbolic_correct": True})
    with pytest.raises(FormatError, match=r'Unknown suite "loose": this NeMo-Skills file has one verdict and no '
                                          r"suites; its human-eval files have plus \(is_correct-plus\)"):
        read_problems(content, fmt="nemoskills", suite="loose")
    parsed = read_problems(content, fmt="nemoskills", suite="base")
    assert parsed.problems[0].c == 1
    assert parsed.warnings[0].startswith("The suite base was ignored: this NeMo-Skills file has one verdict")


def test_the_fields_of_one_benchmark_are_not_several_verdicts():
    for benchmark in ("answer-judge", "human-eval"):
        assert not any("several verdicts" in warning for warning in seeds_of(benchmark).warnings)


@pytest.mark.parametrize("record, message", [
    ({"judgement": "Judgement: Yes", "expected_judgement": None},
     'Line 1: "expected_judgement" must be the judge\'s text; got null.'),
    ({"proof_status": True}, 'Line 1: "proof_status" must be the prover\'s status, such as "completed"; got true.'),
    ({"strict_eval": {"follow_instruction_list": [True]}},
     'Line 1: "strict_eval.follow_all_instructions" must be true or false; it is missing.'),
    ({"loose_eval": {"follow_all_instructions": True}},
     'Line 1: "strict_eval" must be the IFEval evaluation, an object with "follow_all_instructions"; got nothing.'),
    ({"is_correct": True, "is_correct-plus": "yes"}, 'Line 1: "is_correct-plus" must be true or false; got "yes".'),
])
def test_a_malformed_verdict_is_refused_naming_the_line_and_field(record, message):
    with pytest.raises(FormatError) as error:
        read_problems(lines(record), fmt="nemoskills")
    assert str(error.value) == message


# benchmark -> {suite: NeMo-Skills' metric} of every real run, for the test below
METRIC_OF = {
    "answer-judge": {"plus": "correct_judgements"}, "gpqa": {"plus": "symbolic_correct"},
    "hendrycks_math": {"plus": "symbolic_correct"}, "minif2f": {"plus": "lean4_correct"},
    "human-eval": {"plus": "passing_plus_tests", "base": "passing_base_tests"},
    "ifeval": {"strict": "prompt_strict_accuracy", "loose": "prompt_loose_accuracy"},
}


@needs_real_files
@pytest.mark.parametrize("benchmark", sorted(METRIC_OF))
def test_every_pass_and_majority_figure_of_nemo_skills_metrics_json(benchmark):
    """Each pass@k and majority@k NeMo-Skills' metrics.json gives for the whole run (not its subsets)."""
    stored = json.loads((REALDATA / f"{NEMO}eval-results_metrics.json").read_text())[benchmark]
    for suite, metric in METRIC_OF[benchmark].items():
        problems = real_run(benchmark, suite).problems
        figures = {name: value[metric] for name, value in stored.items() if name.startswith(("pass@", "majority@"))
                   and "[" not in name}
        n = problems[0].n
        voted = {f"majority@{k}" for k in range(2, n + 1)} if problems[0].votes else set()
        assert set(figures) == {f"pass@{k}" for k in range(1, n + 1)} | voted   # every figure, none left out
        for name, figure in figures.items():
            kind, k = name.split("@")
            ours = pass_at_k(problems, int(k)) if kind == "pass" else first_k(problems, int(k))
            assert abs(float(ours) - figure / 100) <= 1e-15, (suite, name)


def test_seed_files_are_read_in_the_order_of_their_names_whatever_order_they_come_in():
    """NeMo-Skills reads output-rs0, rs1, rs10, rs2, ... in name order; a page upload may bring them in any order,
    and first-k majority and avg@k depend on it."""
    seeds = [(f"output-rs{seed}.jsonl", json.dumps({"id": "q", "predicted_answer": str(seed % 3),
                                                    "symbolic_correct": seed % 3 == 0}).encode())
             for seed in (0, 1, 2, 10)]
    in_order = read_files(sorted(seeds))
    shuffled = read_files([seeds[3], seeds[1], seeds[0], seeds[2]])
    assert shuffled.problems[0].votes == in_order.problems[0].votes
    assert shuffled.problems[0].scores == in_order.problems[0].scores == (1.0, 0.0, 0.0, 0.0)
