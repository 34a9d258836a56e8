"""lm-evaluation-harness `samples_<task>_<timestamp>.jsonl` (EleutherAI/lm-evaluation-harness, `--log_samples`).

One line per document and filter: `{"doc_id", "filter", "resps", "filtered_resps", "metrics": [name, ...],
name: value, ...}`. A filter (e.g. "strict-match", "flexible-extract") is one way of extracting the answer,
so a file of several filters holds several runs; one is read, chosen as EvalPlus's suites are (suite=),
by default the first in the file. The score is the value of the line's first metric (`metrics[0]`, such
as "exact_match", "acc" or a task's own "f1"): 1 (or true) passes, 0 fails, and a share between them is
partial credit (a graded score, such as a document's f1 of 0.65: read into Problem.scores, c counting the
responses with full credit); a list of them, one per response, is a sample each. A metric lm-eval computes
over the whole set (bleu, or f1 of a multiple-choice task) logs its reference and prediction instead, and
is refused, as is a value outside [0, 1]. With `repeats` > 1 lm-eval reduces a document's responses to one
answer per filter (maj@k, take_first): such a line holds an aggregate, not a verdict per response, and is
refused. Each response's extracted answer ("filtered_resps") is kept as its vote for maj@k when every line
has one per response.
"""

import math
from collections.abc import Hashable, Iterable

from passk.formats._core import JSON, FormatError, Problem, Tally, Vote, answer_of, field, show, tallied, task_id_of
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
    """Read the first filter's scores (see read_run)."""
    return read_run(chunks, SUITES[-1], limit)[0]


def read_run(chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of the filter named suite; "base" or "plus" (no choice made) read the first filter."""
    tally: Tally = {}
    votes: dict[str, list[Vote]] | None = {}   # each document's (answer, full credit) per response, while all have them
    scores: dict[str, list[float]] = {}   # each document's score per response
    partial: tuple[float, str, int] | None = None   # the first partial credit: (score, metric, line)
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
            metric, line_scores = _count(tally, scores, sample, name, where, limit)
            if partial is None:
                partial = next(((score, metric, number) for score in line_scores if 0.0 < score < 1.0), None)
            answers = _answers(sample, len(line_scores))
            if votes is not None and answers is not None:
                votes.setdefault(str(sample["doc_id"]), []).extend(zip(answers, (s == 1.0 for s in line_scores)))
            else:
                votes = None
    if chosen not in filters:
        raise FormatError(f"The file has no lm-eval filter {show(chosen)}; its filters: {_named(filters)}.")
    problems = [Problem(problem.task_id, problem.n, problem.c,
                        None if votes is None else tuple(votes[problem.task_id]),
                        None if partial is None else tuple(scores[problem.task_id]))
                for problem in tallied(tally)]
    return problems, _warnings(filters, chosen, partial, problems)


def _warnings(filters: list[str], chosen: str | None, partial: tuple[float, str, int] | None,
              problems: list[Problem]) -> list[str]:
    """The filter read, when the file has others, and partial credit, when a response has it."""
    warnings = []
    if len(filters) > 1:
        others = [name for name in filters if name != chosen]
        warnings.append(f"The file holds {len(filters)} lm-eval filters, each a run; this is filter {show(chosen)}. "
                        f"The other{'s' if len(others) > 1 else ''}: {_named(others)}; choose one with the suite "
                        "choice (suite=, --suite).")
    if partial is not None:
        score, metric, number = partial
        graded = sum(1 for problem in problems for one in problem.scores or () if 0.0 < one < 1.0)
        responses = sum(problem.n for problem in problems)
        verb = "has" if graded == 1 else "have"
        warnings.append(f"{graded:,} of the {responses:,} responses {verb} partial credit ({show(metric)} between 0 "
                        f"and 1, such as {score:g} on line {number:,}); pass@k counts full credit (a score of 1) as "
                        "a pass, and the graded mean and max@k read the scores themselves.")
    return warnings


def _filter_of(sample: JSON, where: str) -> str:
    """The line's filter name ("none" when lm-eval wrote none)."""
    name = sample.get("filter", "none")
    if not isinstance(name, str) or not name:
        raise FormatError(f'{where}: "filter" must be a filter name; got {show(name)}.')
    return name


def _count(tally: Tally, scores: dict[str, list[float]], sample: JSON, name: str, where: str,
           limit: int | None) -> tuple[str, list[float]]:
    """Add the scores of one line (one document, one filter) to tally and scores; return its metric and scores."""
    doc_id = task_id_of(field(sample, "doc_id", where), where)
    metric, line_scores = _scores(sample, name, where)
    counts = tally.get(doc_id)
    if counts is None:
        if limit is not None and len(tally) >= limit:
            raise FormatError(too_many_problems(limit))
        counts = tally[doc_id] = [0, 0]
    counts[0] += len(line_scores)
    counts[1] += line_scores.count(1.0)
    scores.setdefault(doc_id, []).extend(line_scores)
    return metric, line_scores


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


def _scores(sample: JSON, name: str, where: str) -> tuple[str, list[float]]:
    """The line's metric and scores: its first metric's value, a score from 0 to 1 (one response) or a list of
    them (one per response)."""
    metric = _metric(sample, where)
    value = field(sample, metric, where)
    responses = _responses(sample)
    values = value if isinstance(value, list) else [value]
    scores = [_score_of(one) for one in values]
    if not values or None in scores:
        raise FormatError(_not_scores(metric, value, where))
    if len(values) == 1 and responses > 1:
        raise FormatError(f'{where}: the document has {responses:,} responses (the task used repeats) but filter '
                          f'{show(name)} gives one "{metric}" for them all (the majority answer\'s or the first '
                          "response's), not a verdict per response; the file does not say which responses passed, "
                          "so pass@k cannot be read from it.")
    if len(values) > 1 and len(values) != responses:
        raise FormatError(f'{where}: "{metric}" has {len(values):,} verdicts for {responses:,} responses; '
                          "each response needs one.")
    return metric, [score for score in scores if score is not None]


def _score_of(value: JSON) -> float | None:
    """A response's score: true, false or a number from 0 to 1, as a float; None for anything else."""
    if isinstance(value, int):   # true and false too; a long integer is never in [0, 1] (nor a float)
        return float(value) if 0 <= value <= 1 else None
    if isinstance(value, float) and 0.0 <= value <= 1.0:   # NaN is not
        return value
    return None


def _not_scores(metric: str, value: JSON, where: str) -> str:
    """The refusal of a line whose metric holds no score from 0 to 1 per response."""
    if isinstance(value, list) and any(isinstance(one, str) for one in value):
        return (f'{where}: "{metric}" holds the reference and the prediction, as lm-eval logs a metric it computes '
                "over the whole set (bleu, or f1 of a multiple-choice task), not a score per response; pass@k needs "
                "each response's score from 0 to 1, so give a task whose first metric is one.")
    shown = "NaN" if isinstance(value, float) and math.isnan(value) else show(value)
    return (f'{where}: "{metric}" must be a score from 0 to 1 for each response (1 or true passes, 0 or false '
            f"fails, a share between is partial credit); got {shown}.")


def _metric(sample: JSON, where: str) -> str:
    """The name of the line's score: its first metric, or a known one when the line lists none."""
    metrics = sample.get("metrics")
    if isinstance(metrics, list) and metrics and isinstance(metrics[0], str):
        return metrics[0]
    known = next((metric for metric in KNOWN_METRICS if metric in sample), None)
    if metrics is None and known is not None:
        return known
    raise FormatError(f'{where}: "metrics" must list the names of the line\'s metrics, the first of them its '
                      f'score; got {show(metrics)}.')


def _responses(sample: JSON) -> int:
    """How many responses the document had: lm-eval writes "resps" as [[response, ...]] for a generation."""
    responses = sample.get("resps")
    if isinstance(responses, list) and len(responses) == 1 and isinstance(responses[0], list):
        return len(responses[0])
    return 1


def _named(filters: list[str]) -> str:
    named = ", ".join(show(name) for name in filters[:FILTERS_NAMED])
    return named + (f" and {len(filters) - FILTERS_NAMED:,} more" if len(filters) > FILTERS_NAMED else "")


register(__name__)
