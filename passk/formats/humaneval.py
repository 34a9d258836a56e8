"""human-eval's `<samples>.jsonl_results.jsonl` (openai/human-eval, evaluate_functional_correctness).

One sample a line, `{"task_id", "completion", "result", "passed": bool}`; the lines
of one task need not be adjacent. The same layout is written by the harnesses
that copied human-eval's evaluation (MBPP and HumanEval-X ports among them).
"""

import json
from collections.abc import Callable, Iterable

from passk.formats._core import JSON, FormatError, Problem, Tally, add_sample, field, show, tallied
from passk.formats import _cost
from passk.formats._input import chunk_lines, json_problem_name, spend
from passk.formats.registry import register

NAME = "humaneval"
LABEL = "human-eval"   # the tool, as people name it
TITLE = "human-eval *_results.jsonl"
SIGNATURE = 'JSONL lines with "task_id" and "passed"'   # what detection looks for
SOURCE = "human-eval (openai/human-eval) evaluate_functional_correctness"
COST = _cost.JSON_LINES   # what reading a line and a byte of it costs
# json.loads's parser, minus its whitespace and messages (typeshed leaves out scan_once, set by JSONDecoder.__init__)
_scan_json: Callable[[str, int], tuple[JSON, int]] = json.JSONDecoder().scan_once   # type: ignore[attr-defined]


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read human-eval results JSONL, one sample a line, merging the samples of each task."""
    tally: Tally = {}
    number = 0
    for chunk in chunks:
        number, work = _count_samples(tally, chunk_lines(chunk, number), number, limit)
        spend(chunks, work)
    return tallied(tally)


def _count_samples(tally: Tally, lines: Iterable[str], number: int, limit: int | None) -> tuple[int, float]:
    """Count the results lines that follow line `number` in tally; return the last line's number, and the
    microseconds building their values cost (passk.formats._cost.json_line_work).

    The common line, a sample of a task already seen, is counted here without the checks;
    every other line (a new task, a blank, anything wrong) goes through _checked_sample, which parses it
    again only when it is not a JSON object (for json's own message)."""
    work, long_line = 0.0, _cost.LONG_LINE
    objects = entries = plain = 0   # the lines priced by _cost.object_work, their entries, and of those the plain
    for text in lines:
        number += 1
        if not text:
            continue
        text = text.rstrip("\r")
        try:
            sample, end = _scan_json(text, 0)
        except (StopIteration, ValueError, RecursionError):
            sample, end = None, -1   # blank or broken: the checked path says which and where
        counts = passed = None
        size = len(text)
        if end == size and type(sample) is dict:
            task_id, passed = sample.get("task_id"), sample.get("passed")
            keys, known = len(sample), (type(task_id) is str) + (type(passed) is bool)
            if keys > 2:   # human-eval's own completion and result, strings
                known += (type(sample.get("completion")) is str) + (type(sample.get("result")) is str)
            if known == keys or size < long_line and "[" not in text and text.find("{", 1) < 0:   # no container
                objects += 1
                entries += keys
                plain += known   # the others may hold numbers, priced as such
            else:
                work += _cost.json_line_work(sample)
            if type(task_id) is int:
                task_id = str(task_id)   # as task_id_of names a problem of a whole-number id
            counts = tally.get(task_id) if type(task_id) is str else None
        else:
            work += _cost.json_line_work(sample)
            sample = None
        if counts is not None and type(passed) is bool:
            counts[0] += 1
            counts[1] += passed
        else:
            _checked_sample(tally, text, number, limit, sample)
    work += _cost.object_work(entries, plain, objects)
    return number, work


def _checked_sample(tally: Tally, text: str, number: int, limit: int | None, sample: JSON = None) -> None:
    """Count one results line in tally, or raise the FormatError that says what is wrong with it; sample: the
    line's object when it was parsed already (None: parse text)."""
    if sample is None:
        sample = _parsed_line(text, number)
        if sample is None:
            return
    task_id = field(sample, "task_id", f"Line {number}")
    if "completion" in sample and not {"passed", "result"} & sample.keys():
        raise FormatError(f'Line {number} has a "completion" but no "passed": this looks like samples '
                          "before evaluation; evaluate them with human-eval's "
                          "`evaluate_functional_correctness samples.jsonl`, which writes "
                          "samples.jsonl_results.jsonl, and give that file.")
    passed = field(sample, "passed", f"Line {number}")
    if not isinstance(passed, bool):
        raise FormatError(f'Line {number}: "passed" must be true or false; got {show(passed)}.')
    add_sample(tally, task_id, passed, f"Line {number}", limit)


def _parsed_line(text: str, number: int) -> JSON:
    """A results line as json reads it (None for a blank one), or the FormatError that says why it is not JSON."""
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"Line {number} is not valid JSON: {json_problem_name(error)} at column {error.colno}.") from None
    except (ValueError, RecursionError):
        raise FormatError(f"Line {number} is not a results line: it is nested too deeply "
                          "or holds an over-long number.") from None


register(__name__)
