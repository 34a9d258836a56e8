"""NeMo-Skills evaluated generations, `output-rs<seed>.jsonl` (NVIDIA/NeMo-Skills, `ns eval`).

One file per random seed, one line per problem: the problem's own fields
(`problem`, `expected_answer`, an `id` in some datasets), the `generation`,
and what the benchmark's evaluator added. Several seed files are several
samples of one run: each file is read on its own, and passk.formats.combine
adds up each problem's samples over the files (n = the seeds with a verdict
for it, c = the correct ones), as NeMo-Skills' compute_metrics reads the
files side by side. A problem is named by its `id` when the line has one,
else by its line ("line 3"): files are then matched line by line, which is
how NeMo-Skills itself matches them.

A line's verdict is the one NeMo-Skills' metrics class for its benchmark
reads (nemo_skills/evaluation/metrics/), told apart by the fields it holds:

- answer-judge (`expected_judgement`): correct when the verdict parsed from
  `judgement` equals the one parsed from `expected_judgement` (the text after
  the last "Judgement:" starts with yes or no; anything else is no verdict,
  and two missing verdicts agree), AnswerJudgementMetrics' correct_judgements;
- IFEval (`strict_eval`, `loose_eval`): prompt-level `follow_all_instructions`,
  IFMetrics' prompt_strict_accuracy, the suite "strict", or its loose twin, "loose";
- Lean4 (`proof_status`): correct when it is "completed", Lean4Metrics';
- human-eval and other EvalPlus benchmarks (`is_correct-plus`): the suite
  "plus" reads `is_correct-plus` (by default, as EvalPlus does), "base" reads
  `is_correct`, EvalPlusMetrics' passing_plus_tests and passing_base_tests;
- the others: the first of VERDICTS a line holds, `symbolic_correct` (the math
  and multiple-choice checkers), `judge_correct`, `judgement` (true when the
  judge's text says "Judgement: Yes", MathMetrics' judge_correct), then
  `is_correct` (code, BFCL, RULER). NeMo-Skills reports each verdict present
  as its own column; passk reads the first and says so in a warning.

A line with no verdict is no sample. Each sample's score is 1.0 or 0.0 in
seed order (Problem.scores). A sample votes for majority@k with its
`predicted_answer` when the file has that field (only `null` abstains, as in
NeMo-Skills: "" is an answer), and on answer-judge files with its parsed
judgement (None abstains); other files have no votes.
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field as dataclass_field
from typing import NamedTuple

from passk.formats._core import JSON, FormatError, Problem, answer_of, show, task_id_of
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.registry import register
from passk.limits import too_many_problems

NAME = "nemoskills"
LABEL = "NeMo-Skills"   # the tool, as people name it
TITLE = "NeMo-Skills output-rs<seed>.jsonl"
SOURCE = "NeMo-Skills (NVIDIA/NeMo-Skills) ns eval output-rs<seed>.jsonl"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
VERDICTS = ("symbolic_correct", "judge_correct", "judgement", "is_correct")   # in the order one is chosen
ANSWER = "predicted_answer"
EXPECTED = "expected_judgement"   # an answer-judge line
PROOF = "proof_status"   # a Lean4 line
PLUS = "is_correct-plus"   # an EvalPlus line (human-eval, mbpp)
IFEVAL = ("strict_eval", "loose_eval")   # an IFEval line
KEYS = (*VERDICTS, EXPECTED, PROOF, PLUS, *IFEVAL)   # the fields that hold or decide a verdict
SIGNATURE = f'JSONL lines with "{ANSWER}" or a verdict ({", ".join(KEYS)})'   # what detection looks for
OTHER_LAYOUTS = ("task_id", "example_id", "doc_id", "sample_id")   # lines of human-eval, eval-arena, lm-eval, EEE
NO_CHOICE = ("base", "plus")   # a suite that names no NeMo-Skills suite: the default one (plus is read_problems')


class Suite(NamedTuple):
    """One suite of a NeMo-Skills benchmark: its name, the field read and NeMo-Skills' name for its figure."""

    name: str
    key: str
    metric: str


# The benchmarks with several suites, each with its suites, the default first.
SUITES = {
    "human-eval": (Suite("plus", PLUS, "passing_plus_tests"), Suite("base", "is_correct", "passing_base_tests")),
    "IFEval": (Suite("strict", "strict_eval", "prompt_strict_accuracy"),
               Suite("loose", "loose_eval", "prompt_loose_accuracy")),
}


@dataclass
class Seed:
    """One seed file read: each problem's verdict (None: the line has none) and vote, in line order; voted is
    false when the file holds nothing to vote with (Seed.answers is then all None)."""

    verdicts: dict[str, bool | None] = dataclass_field(default_factory=dict)
    answers: dict[str, Hashable] = dataclass_field(default_factory=dict)
    voted: bool = False
    warnings: list[str] = dataclass_field(default_factory=list)


def looks_like(record: JSON) -> bool:
    """True when record (a first line, parsed) is a NeMo-Skills evaluated line: a verdict or a predicted answer,
    and none of the other JSONL layouts' ids."""
    return (isinstance(record, dict) and not any(key in record for key in OTHER_LAYOUTS)
            and (ANSWER in record or any(key in record for key in KEYS)))


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read one seed file: each problem with a verdict is one sample (n = 1), c = 1 when it is correct."""
    return read_run(chunks, "plus", limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """The problems of one seed file, each with its score and (when the file has answers) its vote, and what the
    reader has to say about it; suite chooses between the suites of human-eval and IFEval files."""
    seed = read_seed(chunks, limit, suite)
    problems = [Problem(task_id, 1, int(verdict), ((seed.answers[task_id], verdict),) if seed.voted else None,
                        (float(verdict),))
                for task_id, verdict in seed.verdicts.items() if verdict is not None]
    if not problems and seed.verdicts:
        raise FormatError(f"None of the {len(seed.verdicts):,} lines has a verdict ({', '.join(KEYS)}): these "
                          "look like generations before evaluation; evaluate them with NeMo-Skills (ns eval), "
                          "which writes output-rs<seed>.jsonl with the verdicts, and give those files.")
    return problems, seed.warnings


def read_seed(chunks: Iterable[bytes], limit: int | None = None, suite: str = "plus") -> Seed:
    """Read one seed file's lines into a Seed, refusing more than limit problems (None: any number)."""
    seed = Seed()
    kinds: dict[tuple[str, ...], int] = {}   # verdict fields a line holds -> the first line holding them
    by_line = without = 0
    for number, record in json_lines(chunks, "an object, one problem of one seed"):
        task_id = _task_id(record, number)
        by_line += "id" not in record
        if task_id in seed.verdicts:
            raise FormatError(f"Line {number} repeats the id {show(task_id)}: a seed file holds each problem "
                              "once; give each seed's lines in its own output-rs<seed>.jsonl.")
        if limit is not None and len(seed.verdicts) >= limit:
            raise FormatError(too_many_problems(limit))
        present = tuple(key for key in KEYS if key in record)
        kinds.setdefault(present, number)
        verdict, vote = _verdict(record, present, number, suite)
        seed.verdicts[task_id] = verdict
        seed.answers[task_id] = vote
        seed.voted = seed.voted or ANSWER in record or EXPECTED in record
        without += verdict is None
    seed.warnings.extend(_warnings(kinds, by_line, without, len(seed.verdicts), suite))
    return seed


def _task_id(record: dict[str, JSON], number: int) -> str:
    """The problem's name: its "id", or "line <number>" when the line has none."""
    if "id" not in record:
        return f"line {number}"
    return task_id_of(record["id"], f'Line {number}: "id"')


def _verdict(record: dict[str, JSON], present: tuple[str, ...], number: int,
             suite: str) -> tuple[bool | None, Hashable]:
    """A line's verdict (None: it has none) and vote (None: no answer), by its benchmark's rule (the module)."""
    vote = answer_of(record.get(ANSWER), blank_votes=True)
    if EXPECTED in record:   # answer-judge: the judgement votes, and is right when it is the expected one
        said = judgement_of(_text(record, "judgement", number))
        return said == judgement_of(_text(record, EXPECTED, number)), said
    if any(key in record for key in IFEVAL):
        key = _suite_of("IFEval", suite).key
        return _flag(_object(record, key, number), "follow_all_instructions", f"{key}.", number), vote
    if PROOF in record:
        status = record[PROOF]
        if not isinstance(status, str):
            raise FormatError(f'Line {number}: "{PROOF}" must be the prover\'s status, such as "completed"; '
                              f"got {show(status)}.")
        return status == "completed", vote
    if PLUS in record:
        return _flag(record, _suite_of("human-eval", suite).key, "", number), vote
    _suite_of(None, suite)
    if not present:
        return None, vote
    if present[0] == "judgement":   # a judge of a math answer: anything but "Judgement: Yes" is wrong
        return judgement_of(_text(record, "judgement", number)) is True, vote
    return _flag(record, present[0], "", number), vote


def judgement_of(text: str) -> bool | None:
    """The verdict of a judge's text, as NeMo-Skills' is_correct_judgement reads it: what follows its last
    "Judgement:" starts with yes (True) or no (False); anything else is no verdict (None)."""
    _, said, verdict = text.rpartition("Judgement:")
    verdict = verdict.strip().lower()
    return None if not said else True if verdict.startswith("yes") else False if verdict.startswith("no") else None


def _suite_of(benchmark: str | None, suite: str) -> Suite:
    """The suite of benchmark (a key of SUITES; None: a benchmark without suites) named suite, its default when
    suite makes no choice (base or plus, except on human-eval); a FormatError naming the suites for another."""
    if benchmark is None:
        if suite in NO_CHOICE:
            return Suite("", "", "")
        raise FormatError(f"Unknown suite {show(suite)}: this NeMo-Skills file has one verdict and no suites; "
                          f"{_suites_named()}.")
    suites = SUITES[benchmark]
    chosen = [one for one in suites if one.name == suite]
    if chosen:
        return chosen[0]
    if suite in NO_CHOICE:
        return suites[0]
    raise FormatError(f"Unknown suite {show(suite)}: NeMo-Skills {benchmark} lines have the suites "
                      f"{_listed(suites)}.")


def _suites_named() -> str:
    """Which NeMo-Skills files have suites, and which."""
    return "; ".join(f"its {benchmark} files have {_listed(suites)}" for benchmark, suites in SUITES.items())


def _listed(suites: Iterable[Suite]) -> str:
    """Suites as a sentence names them: "plus (is_correct-plus) and base (is_correct)"."""
    return " and ".join(f"{suite.name} ({suite.key})" for suite in suites)


def _text(record: dict[str, JSON], key: str, number: int) -> str:
    """A judge's text under key, or a FormatError."""
    value = record.get(key)
    if not isinstance(value, str):
        raise FormatError(f'Line {number}: "{key}" must be the judge\'s text; got {show(value)}.')
    return value


def _object(record: dict[str, JSON], key: str, number: int) -> dict[str, JSON]:
    """The object under key (an IFEval line's strict_eval or loose_eval), or a FormatError."""
    value = record.get(key)
    if not isinstance(value, dict):
        raise FormatError(f'Line {number}: "{key}" must be the IFEval evaluation, an object with '
                          f'"follow_all_instructions"; got {"nothing" if value is None else show(value)}.')
    return value


def _flag(record: dict[str, JSON], key: str, path: str, number: int) -> bool:
    """The true/false (or 1/0) under key; path names the object it is in ("strict_eval.")."""
    value = record.get(key)
    if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
        return bool(value)
    got = f"got {show(value)}" if key in record else "it is missing"
    raise FormatError(f'Line {number}: "{path}{key}" must be true or false; {got}.')


def _warnings(kinds: dict[tuple[str, ...], int], by_line: int, without: int, lines: int, suite: str) -> list[str]:
    """What a seed file's lines call for: several verdicts, a suite read, problems matched by line, lines without
    a verdict."""
    warnings = []
    several = [(present, number) for present, number in kinds.items() if len(present) > 1 and _several(present)]
    if several:
        present, number = several[0]
        warnings.append(f"Line {number} holds several verdicts ({', '.join(present)}); passk reads {present[0]}, "
                        f"the first of {', '.join(VERDICTS)} a line holds. NeMo-Skills reports each as its own "
                        "column; to read another, keep only that field.")
    fields = {key for present in kinds for key in present}
    suited = [benchmark for benchmark, suites in SUITES.items() if any(one.key in fields for one in suites)]
    for benchmark in suited:
        read = _suite_of(benchmark, suite)
        warnings.append(f"NeMo-Skills {benchmark} lines hold the suites {_listed(SUITES[benchmark])}: passk read "
                        f"{read.name}, NeMo-Skills' {read.metric}; choose the other with the suite choice "
                        "(suite=, --suite).")
    if suite == "base" and not suited and fields:   # base is a choice (plus the default), of nothing here
        warnings.append(f"The suite base was ignored: this NeMo-Skills file has one verdict and no suites; "
                        f"{_suites_named()}.")
    if by_line:
        warnings.append(f'{by_line:,} of {lines:,} lines have no "id": those problems are named by their line '
                        '("line 1", ...), and seed files are matched line by line, as NeMo-Skills matches them; '
                        "every seed file must list the problems in the same order.")
    if without:
        warnings.append(f"{without:,} of {lines:,} lines have no verdict ({', '.join(KEYS)}): those are no "
                        "sample of their problem in this file.")
    return warnings


def _several(present: tuple[str, ...]) -> bool:
    """True when a line's verdict fields are several verdicts of the other benchmarks (symbolic_correct and
    judgement), not the fields of one (an answer-judge's judgement and expected_judgement, EvalPlus's two)."""
    return not any(key in present for key in (EXPECTED, PROOF, PLUS, *IFEVAL))


register(__name__)
