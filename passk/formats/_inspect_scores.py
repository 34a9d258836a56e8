"""An Inspect sample's score as a number in [0, 1], read as Inspect's own metrics read it, and which score is read.

Inspect (inspect_ai, scorer/_metric.py value_to_float) turns a score's value into a float: a number or
boolean as it is (true 1, false 0); "C" (CORRECT) 1, "P" (PARTIAL) 0.5, "I" (INCORRECT) and "N" (NOANSWER) 0;
any other string, lowercased, "yes" or "true" 1 and "no" or "false" 0, else a finite number written as text.
passk reads the same and refuses what Inspect would only warn about and count as 0 (a string of no such kind,
null, a list), and a score outside [0, 1], since pass@k counts full credit and the graded mean a share of it.
A NaN score is unscored (Score.unscored): Inspect's metrics and reducers skip it, and so does passk.

A scorer whose value is a dict ({"main_task_success": true, "side_task_success": false}) has a score per key,
named by the key, as Inspect's results name them; any other scorer's score is named by the scorer.
"""

import math
from dataclasses import dataclass

from passk.formats._core import JSON, FormatError, show

LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}   # Inspect's CORRECT, PARTIAL, INCORRECT, NOANSWER
WORDS = {"yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}
RULE = 'C, true, "yes" and 1 are 1; P is 0.5; I, N, false, "no" and 0 are 0; a number from 0 to 1 is itself'


class Unscored(Exception):
    """The score is NaN: Inspect's marker of a sample its scorer could not score."""


@dataclass(frozen=True)
class Named:
    """One score of a log as Inspect's results name it: a scorer, or one key of a scorer's dict of values."""

    name: str
    scorer: str
    key: str | None = None   # the key of the scorer's dict of values, None for a scorer of one value


def named_scores(scores: dict[str, JSON]) -> list[Named]:
    """The scores a sample's {scorer: score} holds, in its order: a scorer's, or each key's of a dict value."""
    named: list[Named] = []
    for scorer, score in scores.items():
        value = score.get("value") if isinstance(score, dict) else None
        if isinstance(value, dict) and value:
            named.extend(Named(str(key), scorer, str(key)) for key in value)
        else:
            named.append(Named(scorer, scorer))
    return named


def any_unscored(scores: dict[str, JSON]) -> bool:
    """True when some scorer's value is NaN, unscored: a scorer of a dict of values then shows no keys."""
    return any(isinstance(score, dict) and isinstance(score.get("value"), float) and math.isnan(score["value"])
               for score in scores.values())


def score_of(value: JSON) -> float | None:
    """value as Inspect's value_to_float reads it, if it is in [0, 1]; None for any other value (see why_not);
    Unscored for NaN."""
    if value.__class__ is str:
        letter = LETTERS.get(value)
        if letter is not None:
            return letter
        word = WORDS.get(value.lower())
        if word is not None:
            return word
        try:
            value = float(value)
        except ValueError:
            return None
        if not math.isfinite(value):
            return None
    elif isinstance(value, int):   # true and false too; a long integer is never in [0, 1] (nor a float)
        return float(value) if 0 <= value <= 1 else None
    elif not isinstance(value, float):
        return None
    if math.isnan(value):
        raise Unscored
    return value if 0.0 <= value <= 1.0 else None


def why_not(value: JSON) -> tuple[str, str]:
    """(value as shown, why it is no score in [0, 1]) for a value score_of gave None."""
    if isinstance(value, dict):
        return f"a dict of values ({', '.join(map(str, value))[:60]})", "not one score"
    if isinstance(value, list):
        return f"a list of {len(value):,} values", "not one score"
    if isinstance(value, str):
        return show(value), "which Inspect reads as no score (it counts it 0, with a warning)"
    if isinstance(value, (bool, int, float)):
        return show(value), "outside 0 to 1"
    return show(value), "which is no score"


def chosen(named: list[Named], suite: str | None) -> Named:
    """The score named suite (None: the first), or the FormatError listing the log's scores."""
    if suite is None:
        return named[0]
    for score in named:
        if score.name == suite:
            return score
    listed = ", ".join(show(score.name) for score in named[:8]) + (
        f" and {len(named) - 8:,} more" if len(named) > 8 else "")
    raise FormatError(f"The Inspect log has no score {show(suite)}; its scores, as its results name them: {listed}.")
