"""LiveCodeBench (LiveCodeBench/LiveCodeBench, `lcb_runner`) `*_eval_all.json` and `*_eval.json`.

`*_eval_all.json`: `[{"question_id", "graded_list": [true/false per sample], ...}]`.
`*_eval.json`: `[metrics, results, metadata]`, results mapping each problem index to one
list of test results per sample.
"""

from passk.formats._core import JSON, FormatError, Problem, append, field, key_path, passed_flags, problem, show
from passk.formats._core import task_id_of
from passk.formats.registry import register

NAME = "livecodebench"
LABEL = "LiveCodeBench"   # the tool, as people name it
TITLE = "LiveCodeBench *_eval_all.json or *_eval.json"
SIGNATURE = 'a list of {"question_id", "graded_list"}, or [metrics, results, metadata]'   # what detection looks for
SOURCE = "LiveCodeBench (lcb_runner)"


def looks_like(document: JSON) -> bool:
    first = document[0] if isinstance(document, list) and document else None
    return (isinstance(first, dict) and "graded_list" in first) or _is_eval(document)


def source(document: JSON) -> str:
    return f"{SOURCE} {'*_eval.json' if _is_eval(document) else '*_eval_all.json'}"


def _is_eval(document: JSON) -> bool:
    """True for LiveCodeBench's *_eval.json: [metrics with "pass@k" keys, results, metadata]."""
    return (isinstance(document, list) and len(document) == 3 and isinstance(document[0], dict)
            and isinstance(document[1], dict) and any(str(key).startswith("pass@") for key in document[0]))


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read LiveCodeBench (lcb_runner) *_eval_all.json: [{"question_id", "graded_list": [bools]}], or *_eval.json."""
    if _is_eval(document):
        return _results(document[1], limit)
    if not isinstance(document, list):
        raise FormatError('Expected a LiveCodeBench *_eval_all.json: a list of problems with '
                          '"question_id" and "graded_list" (or an *_eval.json: [metrics, results, metadata]).')
    problems: list[Problem] = []
    for index, item in enumerate(document):
        where = f"At [{index}]"
        task_id = task_id_of(field(item, "question_id", where), f"{where}.question_id")
        n, c = passed_flags(field(item, "graded_list", where), f"{where}.graded_list")
        append(problems, problem(task_id, n, c, where), limit)
    return problems


def _results(results: dict[str, JSON], limit: int | None) -> list[Problem]:
    """LiveCodeBench *_eval.json's results: {problem index: [[test results] per sample]}.

    As lcb_runner's compute_metrics_from_results, a sample passes when every test
    result is > 0 (true); failures are false or a negative error code. Task ids
    are the problem indexes, in the order of the run's *_eval_all.json.
    """
    problems: list[Problem] = []
    for task_id, samples in results.items():
        where = "At " + key_path("[1]", task_id)
        if not isinstance(samples, list):
            raise FormatError(f"{where}: expected a list of samples, each a list of test results; "
                              f"got {show(samples)}.")
        passes = [_passed(sample, f"{where}[{index}]") for index, sample in enumerate(samples)]
        append(problems, problem(task_id_of(task_id, where), len(passes), sum(passes), where), limit)
    return problems


def _passed(tests: JSON, where: str) -> bool:
    """True when every test result of one LiveCodeBench sample is > 0 (true)."""
    if not isinstance(tests, list):
        raise FormatError(f"{where}: expected a list of test results; got {show(tests)}.")
    for index, result in enumerate(tests):
        if not isinstance(result, (bool, int, float)):
            raise FormatError(f"{where}[{index}]: expected true, false or an error code; got {show(result)}.")
    return all(result > 0 for result in tests)


register(__name__)
