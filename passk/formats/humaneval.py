"""human-eval's `<samples>.jsonl_results.jsonl` (openai/human-eval, evaluate_functional_correctness).

One sample a line, `{"task_id", "completion", "result", "passed": bool}`; the lines
of one task need not be adjacent. The same layout is written by the harnesses
that copied human-eval's evaluation (MBPP and HumanEval-X ports among them).
"""

import json
from collections.abc import Callable, Iterable

from passk.formats._core import JSON, FormatError, Problem, Tally, add_sample, field, show, tallied
from passk.formats._input import chunk_lines, json_problem_name
from passk.formats.registry import register

NAME = "humaneval"
LABEL = "human-eval"   # the tool, as people name it
TITLE = "human-eval *_results.jsonl"
SIGNATURE = 'JSONL lines with "task_id" and "passed"'   # what detection looks for
SOURCE = "human-eval (openai/human-eval) evaluate_functional_correctness"
# json.loads's parser, minus its whitespace and messages (typeshed leaves out scan_once, set by JSONDecoder.__init__)
_scan_json: Callable[[str, int], tuple[JSON, int]] = json.JSONDecoder().scan_once   # type: ignore[attr-defined]


def read_lines(chunks: Iterable[bytes], limit: int | None) -> list[Problem]:
    """Read human-eval results JSONL, one sample a line, merging the samples of each task."""
    tally: Tally = {}
    number = 0
    for chunk in chunks:
        number = _count_samples(tally, chunk_lines(chunk, number), number, limit)
    return tallied(tally)


def _count_samples(tally: Tally, lines: Iterable[str], number: int, limit: int | None) -> int:
    """Count the results lines that follow line `number` in tally; return the last line's number.

    The common line, a sample of a task already seen, is counted here without the checks;
    every other line (a new task, a blank, anything wrong) goes through _checked_sample."""
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
        if end == len(text) and type(sample) is dict:
            task_id, passed = sample.get("task_id"), sample.get("passed")
            counts = tally.get(task_id) if type(task_id) is str else None
        if counts is not None and type(passed) is bool:
            counts[0] += 1
            counts[1] += passed
        else:
            _checked_sample(tally, text, number, limit)
    return number


def _checked_sample(tally: Tally, text: str, number: int, limit: int | None) -> None:
    """Count one results line in tally, or raise the FormatError that says what is wrong with it."""
    if not text.strip():
        return
    try:
        sample = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"Line {number} is not valid JSON: {json_problem_name(error)} at column {error.colno}.") from None
    except (ValueError, RecursionError):
        raise FormatError(f"Line {number} is not a results line: it is nested too deeply "
                          "or holds an over-long number.") from None
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


register(__name__)
