"""lm-evaluation-harness `samples_<task>_<timestamp>.jsonl` (EleutherAI/lm-evaluation-harness, `--log_samples`).

One line per document and filter: `{"doc_id", "filter", "resps", "filtered_resps", "metrics": [name, ...],
name: value, ...}`. A filter (e.g. "strict-match", "flexible-extract") is one way of extracting the answer,
so a file of several filters holds several runs; one is read, chosen as EvalPlus's suites are (suite=),
by default the first in the file. The verdict is the value of the line's first metric (`metrics[0]`, such
as "exact_match" or "acc"): 1 (or true) passes, 0 fails; a list of them, one per response, is a sample each.
With `repeats` > 1 lm-eval reduces a document's responses to one answer per filter (maj@k, take_first):
such a line holds an aggregate, not a verdict per response, and is refused. Each response's extracted
answer ("filtered_resps") is kept as its vote for maj@k when every line has one per response.
"""

from collections.abc import Hashable, Iterable

from passk.formats._core import (JSON, FormatError, Problem, Tally, Vote, answer_of, field, show, tallied,
                                task_id_of)
from passk.formats import _cost
from passk.formats._input import json_lines
from passk.formats.evalplus import SUITES
from passk.formats.registry import register
from passk.limits import too_many_problems

NAME = "lmeval"
LABEL = "lm-evaluation-harness"   # the tool, as people name it
TITLE = "lm-evaluation-harness samples_*.jsonl"
SIGNATURE = 'JSONL lines with "doc_id" and "filter" or "resps"'   # what detection looks for
SOURCE = "lm-evaluation-harness (EleutherAI/lm-evaluation-harness) --log_samples"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
KNOWN_METRICS = ("exact_match", "acc", "acc_norm")   # read when a line (older lm-eval) has no "metrics"
FILTERS_NAMED = 5


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read the first filter's verdicts (see read_run)."""
    return read_run(chunks, SUITES[-1], limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of the filter named suite; "base" or "plus" (no choice made) read the first filter."""
    tally: Tally = {}
    votes: dict[str, list[Vote]] | None = {}   # each document's (answer, verdict) per response, while all have them
    filters: list[str] = []
    chosen = None if suite in SUITES else suite
    for number, sample in json_lines(chunks):
        where = f"Line {number}"
        name = _filter_of(sample, where)
        if name not in filters:
            filters.append(name)
        if chosen is None:
            chosen = name
        if name == chosen:
            verdicts = _count(tally, sample, name, where, limit)
            answers = _answers(sample, len(verdicts))
            if votes is not None and answers is not None:
                votes.setdefault(str(sample["doc_id"]), []).extend(zip(answers, verdicts))
            else:
                votes = None
    if chosen not in filters:
        raise FormatError(f"The file has no lm-eval filter {show(chosen)}; its filters: {_named(filters)}.")
    warnings = []
    if len(filters) > 1:
        others = [name for name in filters if name != chosen]
        warnings.append(f"The file holds {len(filters)} lm-eval filters, each a run; this is filter {show(chosen)}. "
                        f"The other{'s' if len(others) > 1 else ''}: {_named(others)}; choose one with the suite "
                        "choice (suite=, --suite).")
    problems = tallied(tally)
    if votes is not None:
        problems = [Problem(problem.task_id, problem.n, problem.c, tuple(votes[problem.task_id]))
                    for problem in problems]
    return problems, warnings


def _filter_of(sample: JSON, where: str) -> str:
    """The line's filter name ("none" when lm-eval wrote none)."""
    name = sample.get("filter", "none")
    if not isinstance(name, str) or not name:
        raise FormatError(f'{where}: "filter" must be a filter name; got {show(name)}.')
    return name


def _count(tally: Tally, sample: JSON, name: str, where: str, limit: int | None) -> list[bool]:
    """Add the verdicts of one line (one document, one filter) to tally, and return them."""
    doc_id = task_id_of(field(sample, "doc_id", where), where)
    verdicts = _verdicts(sample, name, where)
    counts = tally.get(doc_id)
    if counts is None:
        if limit is not None and len(tally) >= limit:
            raise FormatError(too_many_problems(limit))
        counts = tally[doc_id] = [0, 0]
    counts[0] += len(verdicts)
    counts[1] += sum(verdicts)
    return verdicts


def _answers(sample: JSON, responses: int) -> list[Hashable] | None:
    """The filter's extracted answer of each response ("filtered_resps", [[a, b, c]] or [a, b, c]), or None when
    the line has not one plain answer per response."""
    answers = sample.get("filtered_resps")
    if isinstance(answers, list) and len(answers) == 1 and isinstance(answers[0], list):
        answers = answers[0]
    if not isinstance(answers, list) or len(answers) != responses:
        return None
    if any(isinstance(answer, (list, dict)) for answer in answers):
        return None
    return [answer_of(answer) for answer in answers]


def _verdicts(sample: JSON, name: str, where: str) -> list[bool]:
    """The line's verdicts: its first metric's value, 1/0 (one response) or a list of them (one per response)."""
    metric = _metric(sample, where)
    value = field(sample, metric, where)
    responses = _responses(sample)
    values = value if isinstance(value, list) else [value]
    if not values or not all(_is_verdict(one) for one in values):
        raise FormatError(f'{where}: "{metric}" must be 1 or 0 (true or false) for each response; got {show(value)}. '
                          "pass@k needs a pass/fail verdict per response.")
    if len(values) == 1 and responses > 1:
        raise FormatError(f'{where}: the document has {responses:,} responses (the task used repeats) but filter '
                          f'{show(name)} gives one "{metric}" for them all (the majority answer\'s or the first '
                          "response's), not a verdict per response; the file does not say which responses passed, "
                          "so pass@k cannot be read from it.")
    if len(values) > 1 and len(values) != responses:
        raise FormatError(f'{where}: "{metric}" has {len(values):,} verdicts for {responses:,} responses; '
                          "each response needs one.")
    return [bool(one) for one in values]


def _metric(sample: JSON, where: str) -> str:
    """The name of the line's verdict: its first metric, or a known one when the line lists none."""
    metrics = sample.get("metrics")
    if isinstance(metrics, list) and metrics and isinstance(metrics[0], str):
        return metrics[0]
    known = next((metric for metric in KNOWN_METRICS if metric in sample), None)
    if metrics is None and known is not None:
        return known
    raise FormatError(f'{where}: "metrics" must list the names of the line\'s metrics, the first of them its '
                      f'verdict; got {show(metrics)}.')


def _responses(sample: JSON) -> int:
    """How many responses the document had: lm-eval writes "resps" as [[response, ...]] for a generation."""
    responses = sample.get("resps")
    if isinstance(responses, list) and len(responses) == 1 and isinstance(responses[0], list):
        return len(responses[0])
    return 1


def _is_verdict(value: JSON) -> bool:
    return isinstance(value, (bool, int, float)) and value in (0, 1)


def _named(filters: list[str]) -> str:
    named = ", ".join(show(name) for name in filters[:FILTERS_NAMED])
    return named + (f" and {len(filters) - FILTERS_NAMED:,} more" if len(filters) > FILTERS_NAMED else "")


register(__name__)
