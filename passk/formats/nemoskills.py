"""NeMo-Skills evaluated generations, `output-rs<seed>.jsonl` (NVIDIA/NeMo-Skills, `ns eval`).

One file per random seed, one line per problem: the problem's own fields
(`problem`, `expected_answer`, an `id` in some datasets), the `generation`,
the `predicted_answer` its evaluator extracted, and the evaluator's verdict.
Several seed files are several samples of one run: each file is read on its
own, and passk.formats.combine adds up each problem's samples over the files
(n = the seeds with a verdict for it, c = the correct ones), as NeMo-Skills'
compute_metrics reads the files side by side. A problem is named by its `id`
when the line has one, else by its line ("line 3"): files are then matched
line by line, which is how NeMo-Skills itself matches them.

The verdict of a line is the first of VERDICTS it holds: `symbolic_correct`
(the math and multiple-choice checkers; NeMo-Skills' summary reports it as
its "symbolic_correct" column), `judge_correct`, `judgement` (an LLM judge's
text: true when what follows its last "Judgement:" starts with "yes", as
NeMo-Skills' is_correct_judgement reads it), then `is_correct` (the code,
BFCL and RULER evaluators). NeMo-Skills reports every verdict present as its
own column (and both_correct / any_correct when there are two); when a line
holds several, passk reads the first and says so in a warning. A line with
no verdict is no sample. Each sample's `predicted_answer` is kept by
read_seed (Seed.answers) for majority voting; `null` means no answer.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field as dataclass_field

from passk.formats._core import JSON, FormatError, Problem, answer_of, show, task_id_of
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.registry import register
from passk.limits import too_many_problems

NAME = "nemoskills"
LABEL = "NeMo-Skills"   # the tool, as people name it
TITLE = "NeMo-Skills output-rs<seed>.jsonl"
SIGNATURE = 'JSONL lines with "predicted_answer" or a verdict such as "symbolic_correct"'   # what detection looks for
SOURCE = "NeMo-Skills (NVIDIA/NeMo-Skills) ns eval output-rs<seed>.jsonl"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
VERDICTS = ("symbolic_correct", "judge_correct", "judgement", "is_correct")   # in the order one is chosen
ANSWER = "predicted_answer"
OTHER_LAYOUTS = ("task_id", "example_id", "doc_id", "sample_id")   # lines of human-eval, eval-arena, lm-eval, EEE


@dataclass
class Seed:
    """One seed file read: each problem's verdict (None: the line has none) and extracted answer, in line order."""

    verdicts: dict[str, bool | None] = dataclass_field(default_factory=dict)
    answers: dict[str, JSON] = dataclass_field(default_factory=dict)
    warnings: list[str] = dataclass_field(default_factory=list)


def looks_like(record: JSON) -> bool:
    """True when record (a first line, parsed) is a NeMo-Skills evaluated line: a verdict or a predicted answer,
    and none of the other JSONL layouts' ids."""
    return (isinstance(record, dict) and not any(key in record for key in OTHER_LAYOUTS)
            and (ANSWER in record or any(key in record for key in VERDICTS)))


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read one seed file: each problem with a verdict is one sample (n = 1), c = 1 when it is correct, its vote
    the predicted answer and the verdict."""
    return read_run(chunks, "", limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """The problems of one seed file (see read_lines) and what the reader has to say about it; a seed file
    holds one run, so suite is not used."""
    seed = read_seed(chunks, limit)
    problems = [Problem(task_id, 1, int(verdict), ((answer_of(seed.answers.get(task_id)), verdict),))
                for task_id, verdict in seed.verdicts.items() if verdict is not None]
    if not problems and seed.verdicts:
        raise FormatError(f"None of the {len(seed.verdicts):,} lines has a verdict ({', '.join(VERDICTS)}): these "
                          "look like generations before evaluation; evaluate them with NeMo-Skills (ns eval), "
                          "which writes output-rs<seed>.jsonl with the verdicts, and give those files.")
    return problems, seed.warnings


def read_seed(chunks: Iterable[bytes], limit: int | None = None) -> Seed:
    """Read one seed file's lines into a Seed, refusing more than limit problems (None: any number)."""
    seed = Seed()
    kinds: dict[tuple[str, ...], int] = {}   # verdict keys a line holds -> the first line holding them
    by_line = without = 0
    for number, record in json_lines(chunks, "an object, one problem of one seed"):
        task_id = _task_id(record, number)
        by_line += "id" not in record
        if task_id in seed.verdicts:
            raise FormatError(f"Line {number} repeats the id {show(task_id)}: a seed file holds each problem "
                              "once; give each seed's lines in its own output-rs<seed>.jsonl.")
        if limit is not None and len(seed.verdicts) >= limit:
            raise FormatError(too_many_problems(limit))
        present = tuple(key for key in VERDICTS if key in record)
        kinds.setdefault(present, number)
        seed.verdicts[task_id] = _verdict(record, present[0], number) if present else None
        without += not present
        seed.answers[task_id] = record.get(ANSWER)
    seed.warnings.extend(_warnings(kinds, by_line, without, len(seed.verdicts)))
    return seed


def _task_id(record: dict[str, JSON], number: int) -> str:
    """The problem's name: its "id", or "line <number>" when the line has none."""
    if "id" not in record:
        return f"line {number}"
    return task_id_of(record["id"], f'Line {number}: "id"')


def _verdict(record: dict[str, JSON], key: str, number: int) -> bool:
    """The verdict under key: true/false (or 1/0), or a judge's "Judgement: Yes/No" text."""
    value = record[key]
    if key == "judgement":
        if not isinstance(value, str):
            raise FormatError(f'Line {number}: "judgement" must be the judge\'s text; got {show(value)}.')
        _, said, verdict = value.rpartition("Judgement:")
        return bool(said) and verdict.strip().lower().startswith("yes")
    if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
        return bool(value)
    raise FormatError(f'Line {number}: "{key}" must be true or false; got {show(value)}.')


def _warnings(kinds: dict[tuple[str, ...], int], by_line: int, without: int, lines: int) -> list[str]:
    """What a seed file's lines call for: several verdicts, problems matched by line, lines without a verdict."""
    warnings = []
    several = [(present, number) for present, number in kinds.items() if len(present) > 1]
    if several:
        present, number = several[0]
        warnings.append(f"Line {number} holds several verdicts ({', '.join(present)}); passk reads {present[0]}, "
                        f"the first of {', '.join(VERDICTS)} a line holds. NeMo-Skills reports each as its own "
                        "column; to read another, keep only that field.")
    if by_line:
        warnings.append(f'{by_line:,} of {lines:,} lines have no "id": those problems are named by their line '
                        '("line 1", ...), and seed files are matched line by line, as NeMo-Skills matches them; '
                        "every seed file must list the problems in the same order.")
    if without:
        warnings.append(f"{without:,} of {lines:,} lines have no verdict ({', '.join(VERDICTS)}): those are no "
                        "sample of their problem in this file.")
    return warnings


register(__name__)
