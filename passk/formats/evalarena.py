"""eval-arena per-question JSONL (crux-eval/eval-arena, the `data/*.jsonl` its run_arena.py reads).

One record a line, `{"benchmark_id", "model", "example_id", "pass1", "count", "correct"}`: the
model's `count` samples of one example, `correct` of them correct, and `pass1` = correct / count.
Older files leave out "correct" (c = pass1 × count) or both counts (`pass1` 0 or 1: one sample).
A record without "count" is one sample, its "correct" true/false or 1/0. The records of one
example_id add up, like human-eval's lines. eval-arena's own data files hold many models: each model
is a run, read when chosen by name as lm-eval's filters are (suite=, --suite); without a choice the refusal,
SeveralModels, carries every model's run, which `passk --runs FILE` and /compare rank.

The older layout of eval-arena's README (doc/eval-arena-readme.md: `{"model", "example_id", "pass1": 0.8}`)
gives a share without "count". eval-arena itself takes count 1 and rounds correct = pass1 × count (logging an
error), while its accuracy is the mean of pass1. The mean is pass@1 exactly, but which of n samples passed is
gone: pass@k for k > 1, and every standard error, need c of n. Such a record is refused with a sentence that
says so and what to add, rather than read as a guess.
"""

from collections.abc import Iterable, Sequence

from passk.formats._core import JSON, FormatError, Problem, Tally, count, field, problem, show, tallied, task_id_of
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.evalplus import SUITES
from passk.limits import too_many_problems
from passk.formats.registry import register

NAME = "evalarena"
LABEL = "eval-arena"   # the tool, as people name it
TITLE = 'eval-arena JSONL ({"model", "example_id", "correct", "count"} a line)'
SIGNATURE = 'JSONL lines with "example_id" and "correct"'   # what detection looks for
SOURCE = "eval-arena (crux-eval/eval-arena) per-question records"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
MODELS_NAMED = 5   # models named when a file holds several
EVERY = "\x00every record"   # read_models' key for all records together (no model name holds a NUL)
PASS1_TOLERANCE = 1e-6   # how far pass1 may be from correct / count, as written with fewer digits


class SeveralModels(FormatError):
    """A file of several models read without a choice of one: the refusal, with each model's run (models: [(model,
    problems)] in the file's order, as passk.results.ranking.rank_runs takes runs) and held, the sentence's first half."""

    def __init__(self, message: str, models: Sequence[tuple[str, list[Problem]]] = (), held: str = "") -> None:
        super().__init__(message)
        self.models, self.held = list(models), held


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read a file of one model's records (see read_run)."""
    return read_run(chunks, SUITES[-1], limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of the model named suite; "base" or "plus" (no choice made) read a file of one model
    and refuse a file of several, naming them (SeveralModels, which holds their runs)."""
    runs = read_models(chunks, limit)
    models = [model for model in runs if model is not None and model != EVERY]
    if suite not in SUITES:
        if suite not in runs:
            raise FormatError(f"The file has no eval-arena model {show(suite)}; its models: {_named(models)}.")
        return tallied(runs[suite]), []
    if len(models) > 1:
        held = f"The file holds the records of {len(models):,} models ({_named(models)})"
        raise SeveralModels(f"{held}; choose one with the suite choice (suite=, --suite), or rank them all with "
                            "`passk --runs FILE`.", _runs(runs), held)
    if len(runs) > 1:   # one model's records, some of them without "model": read together, in line order
        return tallied(runs[EVERY]), []
    return tallied(next(iter(runs.values()), {})), []


def read_models(chunks: Iterable[bytes], limit: int | None) -> dict[str | None, Tally]:
    """{model: its samples of each example_id} in the order the models come (None: records without "model"),
    and under EVERY, when the records are not all of one model, every record's; limit bounds each model's problems."""
    runs: dict[str | None, Tally] = {}
    every: Tally = {}
    for number, record in json_lines(chunks):
        _count_record(runs, every, record, f"Line {number}", limit)
    if len(runs) > 1:
        runs[EVERY] = every
    return runs


def _runs(runs: dict[str | None, Tally]) -> list[tuple[str, list[Problem]]]:
    """[(model, problems)] of read_models' answer, records without "model" under "no model"."""
    return [(model if model is not None else "no model", tallied(tally)) for model, tally in runs.items()
            if model != EVERY]


def _named(models: list[str]) -> str:
    named = ", ".join(show(model) for model in models[:MODELS_NAMED])
    return named + (f" and {len(models) - MODELS_NAMED:,} more" if len(models) > MODELS_NAMED else "")


def _count_record(runs: dict[str | None, Tally], every: Tally, record: JSON, where: str, limit: int | None) -> None:
    """Add one record's samples to its model's tally ({example_id: [n, c]}) and to every."""
    example_id = task_id_of(field(record, "example_id", where), where)
    model = None
    if "model" in record:
        model = record["model"] if isinstance(record["model"], str) else show(record["model"])
    n, c = _samples(record, where)
    problem(example_id, n, c, where)   # n > 0 and c <= n
    tally = runs.setdefault(model, {})
    counts = tally.get(example_id)
    if counts is None:
        if limit is not None and len(tally) >= limit:
            raise FormatError(too_many_problems(limit))
        counts = tally[example_id] = [0, 0]
    counts[0] += n
    counts[1] += c
    total = every.setdefault(example_id, [0, 0])
    total[0] += n
    total[1] += c


def _samples(record: JSON, where: str) -> tuple[int, int]:
    """(n, c) of one record: correct of count, correct alone (one sample), or pass1 of count (older files)."""
    if "count" in record:
        n = count(record["count"], '"count"', where)
        if "correct" in record:
            return n, count(record["correct"], '"correct"', where)
        return n, _correct_of_pass1(field(record, "pass1", where), n, where)
    if "correct" in record:
        return 1, _one_sample(record["correct"], "correct", where)
    if "pass1" in record:
        if _is_share(record["pass1"]):
            raise FormatError(f'{where}: "pass1" = {show(record["pass1"])} is a share of several samples, but the '
                              'record has no "count": the mean of pass1 is pass@1, while pass@k for k > 1 and every '
                              'standard error need how many of how many samples passed; add "count" (the samples '
                              'per example) to each record, as eval-arena\'s current files have it.')
        return 1, _one_sample(record["pass1"], "pass1", where)
    raise FormatError(f'{where}: the field "correct" is missing; give "correct" (and "count" when the record '
                      "covers several samples).")


def _is_share(value: JSON) -> bool:
    """True for a number strictly between 0 and 1: the share of several samples that passed."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0 < value < 1


def _one_sample(value: JSON, name: str, where: str) -> int:
    """1 or 0 for one sample's result: true/false or 1/0."""
    if value in (0, 1) and not isinstance(value, str):
        return int(value)
    hint = '; with several samples give "count" too' if isinstance(value, (int, float)) else ""
    raise FormatError(f'{where}: "{name}" must be true, false, 1 or 0 for one sample{hint}; got {show(value)}.')


def _correct_of_pass1(pass1: JSON, n: int, where: str) -> int:
    """correct = pass1 × count, when that is a whole number (pass1 is correct / count)."""
    if isinstance(pass1, bool) or not isinstance(pass1, (int, float)) or not 0 <= pass1 <= 1:
        raise FormatError(f'{where}: "pass1" must be a fraction from 0 to 1; got {show(pass1)}.')
    if n == 0:
        return 0   # refused as a problem without samples
    correct = round(pass1 * n)
    if abs(pass1 - correct / n) > PASS1_TOLERANCE:
        raise FormatError(f'{where}: "pass1" = {show(pass1)} of "count" = {n:,} samples is not a whole number of '
                          'correct samples; give "correct" as well.')
    return correct


register(__name__)
