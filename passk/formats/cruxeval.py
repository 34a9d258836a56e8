"""CRUXEval scored generations (facebookresearch/cruxeval, `evaluation/evaluate_generations.py`).

`{"raw_generations", "raw_scored_generations": {sample id: [true/false per generation]},
"pass_at_1", "pass_at_5"}`: each true is a generation that passed.
"""

from passk.formats._core import JSON, FormatError, Problem, append, key_path, passed_flags, problem, task_id_of
from passk.formats.registry import register

NAME = "cruxeval"
LABEL = "CRUXEval"   # the tool, as people name it
TITLE = "CRUXEval scored generations"
SIGNATURE = 'an object with "raw_scored_generations"'   # what detection looks for
SOURCE = "CRUXEval (evaluate_generations.py)"


def looks_like(document: JSON) -> bool:
    return isinstance(document, dict) and "raw_scored_generations" in document


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read CRUXEval scored generations (facebookresearch/cruxeval, evaluation/evaluate_generations.py).

    {"raw_generations", "raw_scored_generations": {sample id: [true/false per generation]},
    "pass_at_1", "pass_at_5"}: each true is a generation that passed.
    """
    scored = document.get("raw_scored_generations") if isinstance(document, dict) else None
    if not isinstance(scored, dict):
        raise FormatError('Expected CRUXEval scored generations: an object whose "raw_scored_generations" '
                          "maps each sample id to a list of true/false.")
    problems: list[Problem] = []
    for task_id, flags in scored.items():
        where = "At " + key_path("raw_scored_generations", task_id)
        n, c = passed_flags(flags, where)
        append(problems, problem(task_id_of(task_id, where), n, c, where), limit)
    return problems


register(__name__)
