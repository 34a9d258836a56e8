"""Every real harness file in ../shared/realdata is read with detection and gives the harness's own figures.

The figures are those of ../shared/realdata/SOURCES.md, written here literally
(and checked to appear in that file's row for the file): a float as its repr,
or a string exactly as the row writes it ("5/7", "1.2%"). Each is compared, to
1e-15, with the exact mean of 1 - C(n-c, k)/C(n, k) over the parsed counts and
with passk's own pass@k (and pass^k, C(c, k)/C(n, k), where the harness gives it).

The layouts issue 17 added readers for (NOT_READ_YET, all now in READ) are
checked the same way. The fourth round's files (FOURTH_ROUND: layouts passk
misread or refused before issue 27 added their readers) assert the harness's
figures and behaviour as SOURCES.md gives them, by the harness's own rule
(NeMo-Skills' answer-judge verdict, its first-k majority vote, Inspect's per-key
scores). A layout a later round brings and no reader handles yet goes in TODAY:
its test is then a strict xfail naming the issue that adds the reader, raising
what happens today (ValueError: a refusal; AssertionError: a misread or a missing
warning), so it passes once the reader lands and no other breakage hides behind it. Data-level tests check each figure against the lines of the file
itself and, where the harness wrote one, its metrics file.
Files that hold a harness's aggregate figures rather than a run are not read
as runs; they serve as the harness's own numbers to compare with.

Outside CI a checkout without ../shared/realdata skips these tests; in CI
(the environment variable CI set) the missing directory is a failure.
"""

import json
import math
import os
import re
import zipfile
from collections import defaultdict
from fractions import Fraction

import pytest

from passk.results.benchmark import summarize
from passk.formats import FormatError, Problem, read_files, read_problems
from passk.maths.majority import first_k_majority
from where import REALDATA

IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
TOLERANCE = 1e-15
ZERO = {1: 0.0, 10: 0.0}   # the harness reports k = 1 and 10 at n = 10
TAUBENCH = "taubench__sierra-research_tau-bench__gpt-4o-airline.json"
SWEBENCH = "swebench__pepealonso95_TDAD__opencode-qwen3.5-baseline_report.json"
INSPECT = "inspect__UKGovernmentBEIS_inspect_ai__popularity_scored.eval"
INSPECT_ZSTD = "inspect__ewanchelley_inspect-eval__capitals_zstd.eval"
EVALARENA = "evalarena__crux-eval_eval-arena__humaneval_hf_29_models.jsonl"
NEMO = "nemoskills__NVIDIA_NeMo-Skills__"
NEMO_MATH = f"{NEMO}hendrycks_math_output-rs{{0,1,2}}.jsonl"
NEMO_GPQA = f"{NEMO}gpqa_output-rs{{0,1,2,3}}.jsonl"
NEMO_METRICS = f"{NEMO}eval-results_metrics.json"
LMEVAL_SAMPLES = "lmeval__pmemoli_Data-Science-Thesis__samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
LMEVAL_RESULTS = "lmeval__pmemoli_Data-Science-Thesis__results_gsm8k-phi-3-mini_2025-08-07T11-42-40.066002.json"
EEE = "eee__evaleval_every_eval_ever__helm_mmlu_gpt2_None_samples.jsonl"
NEMO_JUDGE = f"{NEMO}answer-judge_output-rs{{0,1,2,3}}.jsonl"
NEMO_HUMANEVAL = f"{NEMO}human-eval_output-rs{{0,1}}.jsonl"
NEMO_LEAN = f"{NEMO}minif2f_output-rs{{0,1,2,3}}.jsonl"
NEMO_IFEVAL = f"{NEMO}ifeval_output-rs{{0,1,2}}.jsonl"
TAU2 = "tau2__sierra-research_tau2-bench__adaptive-agent_airline_bare_list.json"
INSPECT_NO_SAMPLES = "inspect__evaleval_every_eval_ever__header_only_simpleqa.json"
INSPECT_TRIMMED = "inspect__evaleval_every_eval_ever__intercode_1_of_79_samples.json"
INSPECT_DICT = "inspect__UKGovernmentBEIS_inspect-evals-log-viewer__add_unit_tests_dict_scorer.eval"

# file name -> (format, problems P, samples n, {suite (None: no suites): {k: figure}}, SOURCES.md row to find them in)
EXPECTED = {
    "humaneval__Rex-Gavsie_LLMComparisonScale__10SPT_results.jsonl":
        ("humaneval", 164, 10, {None: {1: 0.6573170731707317, 5: 0.6641260162601627, 10: 0.6646341463414634}}, None),
    "humaneval__BoyuanJackChen_human-eval__davinci002_results.jsonl":
        ("humaneval", 164, 1, {None: {1: 0.20121951219512196}}, None),
    "evalplus-new__mrthinger_llama3-exp__70B-instruct-base_eval_results.json":
        ("evalplus", 164, 1, {"base": {1: 0.774390243902439}, "plus": {1: 0.7073170731707317}}, None),
    "evalplus-new__Julien-pour_evaluate_model__rd_gene_1_1_eval_results.json":
        ("evalplus", 164, 1, {"base": {1: 0.5975609756097561}, "plus": {1: 0.5426829268292683}}, None),
    "evalplus-old__tyfann_Evaluate_LLM_Evalplus__phi_1_eval_results.json":
        ("evalplus", 164, 1, {"base": {1: 0.47560975609756095}, "plus": {1: 0.4146341463414634}}, None),
    "evalplus-old__Julien-pour_evaluate_model__n10_eval_results.json":
        ("evalplus", 164, 10, {"base": ZERO, "plus": ZERO}, None),
    "bigcodebench__wyettzeng_bigcodebench__Qwen2.5-Coder-7B-Instruct_hard-complete_eval_results.json":
        ("bigcodebench", 148, 1, {None: {1: 0.20270270270270271}}, None),
    "cruxeval__facebookresearch_cruxeval__scored_codellama-7b_temp0.2_output.json":
        ("cruxeval", 800, 10, {None: {1: 0.342125, 5: 0.40286706349206347, 10: 0.41875}}, None),
    "livecodebench__tisjayy_llm-spec-refinement__codegeneration_10_0.2_eval_all.json":
        ("livecodebench", 100, 10, {None: {1: 0.521, 5: 0.6137301587301587, 10: 0.64}}, None),
    "livecodebench__tisjayy_llm-spec-refinement__codegeneration_10_0.2_eval.json":
        ("livecodebench", 100, 10, {None: {1: 0.521, 5: 0.6137301587301587, 10: 0.64}},
         "livecodebench__tisjayy_llm-spec-refinement__codegeneration_10_0.2_eval_all.json"),
    TAUBENCH:
        ("taubench", 50, 4, {None: {1: 0.42, 2: 0.5666666666666667, 3: 0.66, 4: 0.72}}, None),
    INSPECT:
        ("inspect", 10, 1, {None: {1: 0.8}}, None),
    SWEBENCH:   # 6 of the 500 instances; its warning gives "24.0% of the 25 submitted" too (below)
        ("swebench", 500, 1, {None: {1: "1.2%"}}, None),
}

# file name -> {k: pass^k figure}, where the harness gives pass^k too
PASS_HAT = {
    TAUBENCH: {1: 0.42, 2: 0.2733333333333333, 3: 0.22, 4: 0.2},
}

# SOURCES.md row (its file column; "{0,1,2}" lists the seed files of one run) ->
# (the layout issue 17 reads, format (None: whatever issue 17 names it), P, n, {suite: {k: figure}}).
# A file of several runs names the one to read as EvalPlus's suites are named: suite= (a model, a filter).
NOT_READ_YET = {
    INSPECT_ZSTD: ("Inspect zstd .eval", "inspect", 2, 1, {None: {1: 1.0}}),
    EVALARENA: ("eval-arena multi-model", "evalarena", 164, 1,
                {"Qwen1.5-110B": {1: 0.5426829268292683}, "dbrx-base": {1: 0.4695121951219512},
                 "Mixtral-8x22B-v0.1": {1: 0.4024390243902439}, "llama_07B": {1: 0.12804878048780488}}),
    NEMO_MATH: ("NeMo-Skills output-rs*.jsonl", "nemoskills", 7, 3, {None: {1: "5/7", 2: "17/21", 3: "6/7"}}),
    NEMO_GPQA: ("NeMo-Skills output-rs*.jsonl", "nemoskills", 4, 4, {None: {1: "1/2", 2: "5/8", 4: "3/4"}}),
    LMEVAL_SAMPLES: ("lm-evaluation-harness samples_*.jsonl", "lmeval", 10, 1,
                     {"strict-match": {1: 0.1}, "flexible-extract": {1: 0.8}}),
    EEE: ("Every Eval Ever samples", "everyevalever", 10, 1, {None: {1: "1/10"}}),
}
# The rows of NOT_READ_YET whose readers have landed: checked exactly, with no xfail.
READ = {INSPECT_ZSTD, EVALARENA, NEMO_MATH, NEMO_GPQA, LMEVAL_SAMPLES, EEE}

# SOURCES.md's fourth table (layouts passk misreads or refuses today): row ->
# (the layout issue 27 reads, format (None: whatever issue 27 names it), P, n, {suite: {k: figure}}).
# A suite names what to read as EvalPlus's suites are named: "base"/"plus" tests, one key of an Inspect scorer's dict.
FOURTH_ROUND = {
    NEMO_JUDGE: ("NeMo-Skills answer-judge", "nemoskills", 12, 4, {None: {1: "7/16", 2: "5/9", 3: "5/8", 4: "2/3"}}),
    NEMO_HUMANEVAL: ("NeMo-Skills human-eval", "nemoskills", 4, 2,
                     {"base": {1: "3/4", 2: "3/4"}, "plus": {1: "5/8", 2: "3/4"}}),
    NEMO_LEAN: ("NeMo-Skills Lean4", "nemoskills", 3, 4, {None: {1: "1/3", 2: "11/18", 3: "5/6", 4: "1"}}),
    # IFEval's pass is prompt-level strict (strict_eval.follow_all_instructions)
    NEMO_IFEVAL: ("NeMo-Skills IFEval", "nemoskills", 3, 3, {None: {1: "1/3", 2: "1/3", 3: "1/3"}}),
    TAU2: ("τ²-bench bare list of simulations", None, 50, 1, {None: {1: "49/50"}}),
    INSPECT_TRIMMED: ("Inspect .json log", "inspect", 1, 1, {None: {1: "0/1"}}),
    INSPECT_DICT: ("Inspect dict-valued scorer", "inspect", 1, 1,
                   {"main_task_success": {1: 1.0}, "side_task_success": {1: 1.0}}),
}
# A fourth-round file that holds no run: the refusal SOURCES.md asks for, as a pattern its sentence matches.
REFUSED = {INSPECT_NO_SAMPLES: r"\bno samples\b"}

# What passk does today instead of the harness's figures, by (row, suite): the exception the check raises (ValueError:
# passk refuses the file; AssertionError: it reads other counts) and why. A pair absent here gives the figures; remove
# a pair once its reader lands (its strict xfail then fails as XPASS). Empty since issue 27 read the fourth round.
TODAY: dict[tuple[str, str | None], tuple[type[Exception], str]] = {}

# NeMo-Skills answer-judge by its own rule: each line's correct count of 4 seeds, and majority@k over the first k seeds
# (the parsed judgement votes, None abstains, ties fractional) as exact fractions; SOURCES.md writes the majority in
# per cent to two places, its metrics.json as floats.
JUDGE_COUNTS = [0, 4, 0, 1, 2, 4, 1, 3, 4, 0, 0, 2]
JUDGE_MAJORITY = {2: "5/12", 3: "11/24", 4: "13/24"}
# NeMo-Skills' metrics.json: benchmark and {suite: metric} of each fourth-round run
NEMO_METRICS_OF = {
    NEMO_JUDGE: ("answer-judge", {None: "correct_judgements"}),
    NEMO_HUMANEVAL: ("human-eval", {"base": "passing_base_tests", "plus": "passing_plus_tests"}),
    NEMO_LEAN: ("minif2f", {None: "lean4_correct"}),
    NEMO_IFEVAL: ("ifeval", {None: "prompt_strict_accuracy"}),
}

needs_files = pytest.mark.skipif(
    not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA} " + (
        "(CI is set, so test_the_real_harness_files_are_there fails)" if IN_CI else "(outside CI that is no failure)"))


def is_aggregate(name):
    """True for a file of a harness's aggregate figures, not a run: the part after the last "__" is the
    harness's own file name, such as BigCodeBench's *_pass_at_k.json, NeMo-Skills' metrics.json or
    lm-eval's results_<timestamp>.json."""
    own = name.rpartition("__")[2]
    return own.endswith(("_pass_at_k.json", "metrics.json")) or (own.startswith("results_") and own.endswith(".json"))


def harness_files():
    if not REALDATA.is_dir():
        return []
    return sorted(path.name for path in REALDATA.iterdir() if path.name != "SOURCES.md" and not is_aggregate(path.name))


def files_of(row_name):
    """The file names a SOURCES.md row names: "x-rs{0,1,2}.jsonl" is x-rs0.jsonl, x-rs1.jsonl and x-rs2.jsonl."""
    match = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", row_name)
    if not match:
        return [row_name]
    head, choices, tail = match.groups()
    return [f"{head}{choice}{tail}" for choice in choices.split(",")]


def exact_mean(problems, k):
    """The exact mean over problems of pass@k = 1 - C(n-c, k) / C(n, k)."""
    total = sum(1 - Fraction(math.comb(p.n - p.c, k), math.comb(p.n, k)) for p in problems)
    return total / len(problems)


def exact_hat_mean(problems, k):
    """The exact mean over problems of pass^k = C(c, k) / C(n, k), all k samples passing."""
    return sum(Fraction(math.comb(p.c, k), math.comb(p.n, k)) for p in problems) / len(problems)


def as_written(figure):
    """How SOURCES.md writes a figure: a float as its repr, a string as it is."""
    return figure if isinstance(figure, str) else repr(figure)


def value_of(figure):
    """A figure's exact value: "5/7" is 5/7, "1.2%" is 3/250, a float its own binary value."""
    if isinstance(figure, str) and figure.endswith("%"):
        return Fraction(figure[:-1]) / 100
    return Fraction(figure)


def sources_row(name):
    """The line of SOURCES.md's table that describes the file name (or files, as "x-rs{0,1}.jsonl")."""
    [row] = [line for line in (REALDATA / "SOURCES.md").read_text().splitlines()
             if line.startswith(f"| {name} |")]
    return row


def read_run(names, suite):
    """The run held by the files names (several: seeds of one run, read as the command line reads them)."""
    chosen = {"suite": suite} if suite else {}
    if len(names) == 1:
        return read_problems((REALDATA / names[0]).read_bytes(), filename=names[0], **chosen)
    return read_files([(name, (REALDATA / name).read_bytes()) for name in names], **chosen)


def assert_figures(parsed, fmt, size, n, figures, hats=None):
    """parsed has P = size problems of n samples each, and both passk and the exact mean give each figure."""
    if fmt is not None:
        assert parsed.format == fmt
    assert len(parsed.problems) == size and {p.n for p in parsed.problems} == {n}
    summary = summarize(parsed.problems, sorted(set(figures) | set(hats or {})))
    for k, figure in figures.items():
        exact = exact_mean(parsed.problems, k)
        if isinstance(figure, str):   # written as a fraction or per cent: exactly that value
            assert exact == value_of(figure), k
        assert abs(float(exact) - float(value_of(figure))) <= TOLERANCE, k
        [result] = [result for result in summary.results if result.k == k]
        assert abs(result.pass_at_k - float(value_of(figure))) <= TOLERANCE, k
        assert abs(result.pass_at_k - float(exact)) <= TOLERANCE, k
    for k, figure in (hats or {}).items():
        exact = exact_hat_mean(parsed.problems, k)
        assert abs(float(exact) - figure) <= TOLERANCE, ("pass^k", k)
        [result] = [result for result in summary.results if result.k == k]
        assert abs(result.pass_hat.pass_at_k - figure) <= TOLERANCE, ("pass^k", k)
        assert abs(result.pass_hat.pass_at_k - float(exact)) <= TOLERANCE, ("pass^k", k)


def issue_17(row_name):
    """The strict xfail of a layout issue 17 adds a reader for: today its read raises a ValueError (FormatError);
    none once its reader has landed (READ)."""
    if row_name in READ:
        return ()
    layout = NOT_READ_YET[row_name][0]
    return pytest.mark.xfail(strict=True, raises=ValueError, reason=f"issue 17 adds the {layout} reader")


def issue_27(row_name, suite=None):
    """The strict xfail of a fourth-round check that passk fails today (TODAY), raising what it raises today;
    none where passk already gives the harness's figures."""
    if (row_name, suite) not in TODAY:
        return ()
    raised, why = TODAY[row_name, suite]
    return pytest.mark.xfail(strict=True, raises=raised, reason=f"issue 27 reads the {FOURTH_ROUND[row_name][0]} "
                                                                f"layout as its harness does; today {why}")


def judgement_of(text):
    """NeMo-Skills' verdict of a judge's text: what follows its last "Judgement:" starts with yes (True) or no
    (False); anything else is no verdict (None)."""
    if "Judgement:" not in text:
        return None
    verdict = text.rpartition("Judgement:")[2].strip().lower()
    return True if verdict.startswith("yes") else False if verdict.startswith("no") else None


# The harness's own pass rule for one line of a NeMo-Skills seed file, by run and suite
NEMO_RULE = {
    NEMO_JUDGE: {None: lambda line: judgement_of(line["judgement"]) == judgement_of(line["expected_judgement"])},
    NEMO_HUMANEVAL: {"base": lambda line: line["is_correct"], "plus": lambda line: line["is_correct-plus"]},
    NEMO_LEAN: {None: lambda line: line["proof_status"] == "completed"},
    NEMO_IFEVAL: {None: lambda line: line["strict_eval"]["follow_all_instructions"]},
}


def seed_lines(row_name):
    """The lines of a run's seed files, problem by problem: [(seed 0's line, seed 1's line, ...), ...]."""
    seeds = [[json.loads(line) for line in (REALDATA / name).read_text().splitlines()] for name in files_of(row_name)]
    assert len({len(seed) for seed in seeds}) == 1, row_name
    return list(zip(*seeds))


def test_the_real_harness_files_are_there():
    if not REALDATA.is_dir() and not IN_CI:
        pytest.skip(f"no real harness files at {REALDATA}: this checkout has no ../shared/realdata next to it; "
                    "in CI (CI set) that is a failure")
    assert REALDATA.is_dir(), (f"CI is set, but the real harness files are missing: {REALDATA} is not a directory; "
                               "CI must provide ../shared/realdata, or these tests check nothing")


@needs_files
def test_every_file_has_its_figures():
    waiting = [name for row_name in [*NOT_READ_YET, *FOURTH_ROUND, *REFUSED] for name in files_of(row_name)]
    everything = {path.name for path in REALDATA.iterdir()} - {"SOURCES.md"}
    aggregates = {name for name in everything if is_aggregate(name)}
    assert harness_files() and set(harness_files()) == everything - aggregates
    assert set(EXPECTED).isdisjoint(waiting) and len(set(waiting)) == len(waiting)
    assert set(harness_files()) == set(EXPECTED) | set(waiting), "a new file in realdata: add its figures from SOURCES.md"
    assert aggregates == {"bigcodebench__wyettzeng_bigcodebench__Qwen2.5-Coder-7B-Instruct_hard-complete_pass_at_k.json",
                          NEMO_METRICS, LMEVAL_RESULTS}


@needs_files
def test_every_figure_is_written_in_its_sources_row():
    for name, (_, _, _, suites, row_of) in EXPECTED.items():
        row = sources_row(row_of or name)
        for figures in suites.values():
            assert all(as_written(figure) in row for figure in figures.values()), name
        assert all(repr(figure) in row for figure in PASS_HAT.get(name, {}).values()), name
    for row_name, (_, _, _, _, suites) in [*NOT_READ_YET.items(), *FOURTH_ROUND.items()]:
        row = sources_row(row_name)
        for suite, figures in suites.items():
            assert suite is None or suite in row, (row_name, suite)
            assert all(as_written(figure) in row for figure in figures.values()), row_name
    judge = sources_row(NEMO_JUDGE)
    assert ",".join(map(str, JUDGE_COUNTS)) in judge
    assert ", ".join(f"{float(100 * value_of(figure)):.2f}" for figure in JUDGE_MAJORITY.values()) in judge
    assert "no samples" in sources_row(INSPECT_NO_SAMPLES)
    assert "1 of the 79 samples" in sources_row(INSPECT_TRIMMED)
    assert "6 of 25 submitted" in sources_row(SWEBENCH) and "24.0%" in sources_row(SWEBENCH)


@needs_files
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_file_gives_the_harness_figures(name):
    fmt, size, n, suites, _ = EXPECTED[name]
    for suite, figures in suites.items():
        parsed = read_run([name], suite)
        assert_figures(parsed, fmt, size, n, figures, PASS_HAT.get(name))


@needs_files
@pytest.mark.parametrize("row_name", [pytest.param(row_name, marks=issue_17(row_name)) for row_name in NOT_READ_YET])
def test_a_layout_issue_17_reads_gives_the_harness_figures(row_name):
    _, fmt, size, n, suites = NOT_READ_YET[row_name]
    for suite, figures in suites.items():
        assert_figures(read_run(files_of(row_name), suite), fmt, size, n, figures)


@needs_files
def test_bigcodebench_agrees_with_its_sibling_pass_at_k_file():
    name = "bigcodebench__wyettzeng_bigcodebench__Qwen2.5-Coder-7B-Instruct_hard-complete"
    stored = json.loads((REALDATA / f"{name}_pass_at_k.json").read_text())["pass@1"]
    parsed = read_problems((REALDATA / f"{name}_eval_results.json").read_bytes())
    assert abs(float(exact_mean(parsed.problems, 1)) - stored) <= TOLERANCE


@needs_files
def test_cruxeval_agrees_with_the_percentages_it_stores():
    path = REALDATA / "cruxeval__facebookresearch_cruxeval__scored_codellama-7b_temp0.2_output.json"
    document = json.loads(path.read_text())
    parsed = read_problems(path.read_bytes())
    for k in (1, 5):
        assert abs(float(exact_mean(parsed.problems, k)) - document[f"pass_at_{k}"] / 100) <= TOLERANCE


@needs_files
def test_livecodebench_eval_agrees_with_its_own_metrics_and_per_problem_detail():
    stem = "livecodebench__tisjayy_llm-spec-refinement__codegeneration_10_0.2"
    metrics = json.loads((REALDATA / f"{stem}_eval.json").read_text())[0]
    parsed = read_problems((REALDATA / f"{stem}_eval.json").read_bytes())
    every = read_problems((REALDATA / f"{stem}_eval_all.json").read_bytes())
    assert [(p.n, p.c) for p in parsed.problems] == [(p.n, p.c) for p in every.problems]
    for k in (1, 5, 10):
        assert abs(float(exact_mean(parsed.problems, k)) - metrics[f"pass@{k}"]) <= TOLERANCE
        detail = metrics["detail"][f"pass@{k}"]
        assert set(detail) == {p.task_id for p in parsed.problems}
        for problem in parsed.problems:
            assert abs(float(exact_mean([problem], k)) - detail[problem.task_id]) <= TOLERANCE


@needs_files
def test_taubench_pass_hat_k_rounds_to_its_readme():
    parsed = read_problems((REALDATA / TAUBENCH).read_bytes(), filename=TAUBENCH)
    readme = [f"{float(exact_hat_mean(parsed.problems, k)):.3f}" for k in (1, 2, 3, 4)]
    assert readme == ["0.420", "0.273", "0.220", "0.200"]
    assert " / ".join(readme) in sources_row(TAUBENCH)


@needs_files
def test_inspect_log_agrees_with_the_accuracy_in_its_header():
    content = (REALDATA / INSPECT).read_bytes()
    with zipfile.ZipFile(REALDATA / INSPECT) as archive:
        [score] = json.loads(archive.read("header.json"))["results"]["scores"]
    parsed = read_problems(content, filename=INSPECT)
    assert abs(float(exact_mean(parsed.problems, 1)) - score["metrics"]["accuracy"]["value"]) <= TOLERANCE


@needs_files
def test_inspect_zstd_log_lists_two_samples_of_one_epoch():
    with zipfile.ZipFile(REALDATA / INSPECT_ZSTD) as archive:
        samples = sorted(name for name in archive.namelist() if name.startswith("samples/"))
        assert {member.compress_type for member in archive.infolist()} == {93}   # zstd, every member
    assert samples == ["samples/1_epoch_1.json", "samples/2_epoch_1.json"]


@needs_files
def test_swebench_report_agrees_with_the_counts_it_states():
    document = json.loads((REALDATA / SWEBENCH).read_text())
    parsed = read_problems((REALDATA / SWEBENCH).read_bytes(), filename=SWEBENCH)
    assert len(parsed.problems) == document["total_instances"] == 500
    assert exact_mean(parsed.problems, 1) == Fraction(document["resolved_instances"], document["total_instances"])
    assert (document["resolved_instances"], document["submitted_instances"]) == (6, 25)


@needs_files
def test_swebench_report_says_how_many_instances_were_submitted():
    parsed = read_problems((REALDATA / SWEBENCH).read_bytes(), filename=SWEBENCH)
    said = [*parsed.warnings, parsed.source, parsed.combined]
    assert any(re.search(r"\b25\b[^.]*submitted|submitted[^.]*\b25\b", sentence) for sentence in said), said
    assert any("1.2% of all 500 and 24.0% of the 25 submitted" in sentence for sentence in parsed.warnings)


@needs_files
def test_nemo_skills_figures_are_those_of_its_metrics_json():
    metrics = json.loads((REALDATA / NEMO_METRICS).read_text())
    for row_name, benchmark in ((NEMO_MATH, "hendrycks_math"), (NEMO_GPQA, "gpqa")):
        for k, figure in NOT_READ_YET[row_name][4][None].items():
            stored = metrics[benchmark][f"pass@{k}"]["symbolic_correct"] / 100
            assert abs(float(value_of(figure)) - stored) <= TOLERANCE, (benchmark, k)


@needs_files
def test_nemo_skills_seed_files_line_up_to_the_figures():
    """Each seed file holds one line per problem, in the same order; symbolic_correct is the verdict."""
    for row_name in (NEMO_MATH, NEMO_GPQA):
        seeds = [[json.loads(line)["symbolic_correct"] for line in (REALDATA / name).read_text().splitlines()]
                 for name in files_of(row_name)]
        problems = [Problem(f"line {line}", len(verdicts), sum(verdicts))
                    for line, verdicts in enumerate(zip(*seeds), 1)]
        assert {len(seed) for seed in seeds} == {NOT_READ_YET[row_name][2]}
        for k, figure in NOT_READ_YET[row_name][4][None].items():
            assert exact_mean(problems, k) == value_of(figure), (row_name, k)


@needs_files
def test_lm_eval_figures_are_those_of_its_results_json():
    results = json.loads((REALDATA / LMEVAL_RESULTS).read_text())["results"]["gsm8k"]
    samples = [json.loads(line) for line in (REALDATA / LMEVAL_SAMPLES).read_text().splitlines()]
    for flavour, figures in NOT_READ_YET[LMEVAL_SAMPLES][4].items():
        verdicts = [sample["exact_match"] for sample in samples if sample["filter"] == flavour]
        assert len(verdicts) == 10 and sum(verdicts) / len(verdicts) == figures[1] == results[f"exact_match,{flavour}"]


@needs_files
def test_eval_arena_and_every_eval_ever_figures_are_those_of_their_lines():
    pass1 = defaultdict(list)
    for line in (REALDATA / EVALARENA).read_text().splitlines():
        record = json.loads(line)
        pass1[record["model"]].append(record["pass1"])
    assert len(pass1) == 29 and {len(values) for values in pass1.values()} == {164}
    for model, figures in NOT_READ_YET[EVALARENA][4].items():
        assert abs(sum(pass1[model]) / 164 - figures[1]) <= TOLERANCE, model
    correct = [json.loads(line)["evaluation"]["is_correct"] for line in (REALDATA / EEE).read_text().splitlines()]
    assert Fraction(sum(correct), len(correct)) == value_of(NOT_READ_YET[EEE][4][None][1])


# The fourth round: layouts passk misreads or refuses today (issue 27)


@needs_files
@pytest.mark.parametrize("row_name, suite", [
    pytest.param(row_name, suite, marks=issue_27(row_name, suite), id=f"{row_name}-{suite}")
    for row_name, (_, _, _, _, suites) in FOURTH_ROUND.items() for suite in suites])
def test_a_fourth_round_file_gives_the_harness_figures(row_name, suite):
    _, fmt, size, n, suites = FOURTH_ROUND[row_name]
    assert_figures(read_run(files_of(row_name), suite), fmt, size, n, suites[suite])


@needs_files
def test_nemo_skills_answer_judge_counts_a_sample_correct_when_its_verdict_is_the_expected_one():
    parsed = read_run(files_of(NEMO_JUDGE), None)
    assert [problem.c for problem in parsed.problems] == JUDGE_COUNTS


@needs_files
def test_nemo_skills_answer_judge_majority_is_its_vote_over_the_first_k_seeds():
    parsed = read_run(files_of(NEMO_JUDGE), None)
    for k, figure in JUDGE_MAJORITY.items():
        votes = [(list(answers), list(correct)) for answers, correct in
                 (zip(*problem.votes) for problem in parsed.problems)]
        scored = sum((first_k_majority(answers, correct, k) for answers, correct in votes), Fraction(0))
        assert scored / len(parsed.problems) == value_of(figure), k


@needs_files
@pytest.mark.parametrize("row_name", [
    NEMO_HUMANEVAL, NEMO_LEAN, NEMO_IFEVAL])
def test_a_nemo_skills_run_without_answers_has_no_majority(row_name):
    """Nothing to vote on (no predicted_answer): no maj@k table at all, rather than one of zeros."""
    _, _, _, n, _ = FOURTH_ROUND[row_name]
    parsed = read_run(files_of(row_name), None)
    assert summarize(parsed.problems, range(1, n + 1)).majority is None


@needs_files
def test_an_inspect_log_without_samples_is_refused_as_holding_none():
    with pytest.raises(FormatError, match=f"(?i){REFUSED[INSPECT_NO_SAMPLES]}"):
        read_run([INSPECT_NO_SAMPLES], None)


@needs_files
def test_an_inspect_log_holding_1_of_its_79_samples_says_so():
    parsed = read_run([INSPECT_TRIMMED], None)
    assert any(re.search(r"\b1 of (the |its )?79\b", warning) for warning in parsed.warnings), parsed.warnings


@needs_files
def test_nemo_skills_fourth_round_seed_files_line_up_to_the_figures():
    """Each run's figures, by the harness's own pass rule applied to each seed's line of a problem."""
    for row_name, rules in NEMO_RULE.items():
        lines = seed_lines(row_name)
        _, _, size, n, suites = FOURTH_ROUND[row_name]
        assert len(lines) == size and {len(seeds) for seeds in lines} == {n}
        for suite, passes in rules.items():
            problems = [Problem(f"line {number}", n, sum(bool(passes(seed)) for seed in seeds))
                        for number, seeds in enumerate(lines, 1)]
            for k, figure in suites[suite].items():
                assert exact_mean(problems, k) == value_of(figure), (row_name, suite, k)
            if row_name == NEMO_JUDGE:
                assert [problem.c for problem in problems] == JUDGE_COUNTS


@needs_files
def test_nemo_skills_answer_judge_majority_by_its_rule_is_that_of_its_metrics_json():
    """NeMo-Skills' majority@k: the first k seeds vote with their parsed judgements (None abstains); a vote is
    right when it is the expected judgement's verdict, a tie earning the share of tied answers that are right."""
    metrics = json.loads((REALDATA / NEMO_METRICS).read_text())["answer-judge"]
    lines = seed_lines(NEMO_JUDGE)
    for k, figure in JUDGE_MAJORITY.items():
        scored = Fraction(0)
        for seeds in lines:
            answers = [judgement_of(seed["judgement"]) for seed in seeds]
            correct = [answer == judgement_of(seed["expected_judgement"]) for answer, seed in zip(answers, seeds)]
            scored += first_k_majority(answers, correct, k)
        assert scored / len(lines) == value_of(figure), k
        assert abs(float(value_of(figure)) - metrics[f"majority@{k}"]["correct_judgements"] / 100) <= TOLERANCE, k


@needs_files
def test_nemo_skills_fourth_round_figures_are_those_of_its_metrics_json():
    metrics = json.loads((REALDATA / NEMO_METRICS).read_text())
    for row_name, (benchmark, names) in NEMO_METRICS_OF.items():
        for suite, metric in names.items():
            for k, figure in FOURTH_ROUND[row_name][4][suite].items():
                stored = metrics[benchmark][f"pass@{k}"][metric] / 100
                assert abs(float(value_of(figure)) - stored) <= TOLERANCE, (benchmark, suite, k)
    assert not any(key.startswith("majority@") for benchmark in ("human-eval", "minif2f", "ifeval")
                   for key in metrics[benchmark])


@needs_files
def test_tau2_bench_bare_list_figure_is_that_of_its_rewards():
    simulations = json.loads((REALDATA / TAU2).read_text())
    assert isinstance(simulations, list) and {simulation["trial"] for simulation in simulations} == {0}
    rewards = {simulation["task_id"]: simulation["reward_info"]["reward"] for simulation in simulations}
    assert len(rewards) == len(simulations) == 50
    solved = Fraction(sum(reward == 1 for reward in rewards.values()), len(rewards))
    assert solved == value_of(FOURTH_ROUND[TAU2][4][None][1]) and float(solved) == 0.98


@needs_files
def test_inspect_fourth_round_logs_agree_with_their_headers():
    header_only = json.loads((REALDATA / INSPECT_NO_SAMPLES).read_text())
    [score] = header_only["results"]["scores"]
    assert "samples" not in header_only and header_only["results"]["total_samples"] == 1000
    assert score["metrics"]["accuracy"]["value"] == 0.431   # an aggregate: no per-problem data to read
    trimmed = json.loads((REALDATA / INSPECT_TRIMMED).read_text())
    [score] = trimmed["results"]["scores"]
    assert len(trimmed["samples"]) == 1 and trimmed["results"]["total_samples"] == 79
    assert f"{score['metrics']['accuracy']['value']:.3f}" == "0.354"   # 28 of the 79, not this file's 0 of 1
    assert [sample["scores"]["includes"]["value"] for sample in trimmed["samples"]] == ["I"]
    with zipfile.ZipFile(REALDATA / INSPECT_DICT) as archive:
        scores = json.loads(archive.read("header.json"))["results"]["scores"]
        [sample] = [json.loads(archive.read(name)) for name in archive.namelist() if name.startswith("samples/")]
    accuracy = {score["name"]: score["metrics"]["accuracy"]["value"] for score in scores}
    for suite, figures in FOURTH_ROUND[INSPECT_DICT][4].items():
        assert accuracy[suite] == figures[1] and sample["scores"]["k8s_scorer"]["value"][suite] is True, suite
