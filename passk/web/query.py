"""The calculator's query: n, c, k and ks read from a page's or the GET API's query string, or from the POST API's
JSON body, with one sentence per field that is wrong, in the words of whoever asked (the page's labels or the API's
parameter names)."""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, TypedDict, cast

from passk.results.calculator import Calculation, calculate, printable
from passk.maths.estimator import MAX_N
from passk.formats._core import JSON
from passk.limits import LIMITS

DEFAULTS = {"n": 10, "c": 3, "k": 1}
FIELDS = ("n", "c", "k", "ks")
_WHOLE = re.compile(r"[0-9]+")
_NAMES = {
    "n": "n (completions per problem)",
    "c": "c (completions that passed)",
    "k": "k (samples you draw)",
    "ks": "Extra k values",
}
_API_NAMES = {**_NAMES, "ks": "ks (extra k values)"}
API_EXAMPLE = '{"n": 10, "c": 3, "k": 5}'
Count: TypeAlias = Literal["n", "c", "k"]


class Values(TypedDict, total=False):
    """What a query means, for the fields read without an error: the counts, and the extra ks (sorted, distinct)."""
    n: int
    c: int
    k: int
    ks: list[int]


@dataclass(frozen=True)
class CalculatorQuery:
    """The calculator's fields: what the user typed (kept to refill the form) and what it means."""

    raw: dict[str, str] = field(default_factory=dict)       # field -> text as typed
    values: Values = field(default_factory=Values)          # n, c, k -> int; ks -> list of int
    errors: dict[str, str] = field(default_factory=dict)    # field -> one sentence
    source: str = "page"   # whose words the errors use: "page", "query" (GET API) or "json" (POST API)

    def message(self) -> str:
        """Every error as one text, in the order of the fields (the API's answer)."""
        return " ".join(self.errors[name] for name in ("body", *FIELDS) if name in self.errors)

    def name(self, field_name: str) -> str:
        """How the errors name a field: the page's labels, or the API's parameter names."""
        return (_NAMES if self.source == "page" else _API_NAMES)[field_name]

    def link_params(self) -> dict[str, int | str]:
        """The query-string parameters that reproduce this calculation."""
        params: dict[str, int | str] = {name: self.values[name] for name in ("n", "c", "k")}
        if self.values.get("ks"):
            params["ks"] = ",".join(str(k) for k in self.values["ks"])
        return params


def read_query(args: Mapping[str, Sequence[str]], api: bool = False) -> CalculatorQuery:
    """Parse n, c, k and ks from a mapping of name -> list of strings.

    With none of n, c, k given, the page shows the DEFAULTS example; the API
    (api=True) says what is missing instead, in its own words.
    """
    query = CalculatorQuery(source="query" if api else "page")
    if not api and not any(args.get(name) for name in ("n", "c", "k")):
        query.raw.update((name, str(value)) for name, value in DEFAULTS.items())
        query.raw["ks"] = _single(args, "ks", query) or ""
    else:
        for field_name in FIELDS:
            query.raw[field_name] = _single(args, field_name, query) or ""
    for name in ("n", "c", "k"):
        if name not in query.errors:
            _read_count(query, name)
    if "ks" not in query.errors:
        _read_extra_ks(query)
    _check_ranges(query)
    return query


def _single(args: Mapping[str, Sequence[str]], name: str, query: CalculatorQuery) -> str | None:
    """The one value given for a field; a repeated field is an error."""
    given = args.get(name) or []
    if len(given) > 1:
        where = "the link" if query.source == "page" else "the query string"
        query.errors[name] = f"{query.name(name)} was given {len(given)} times in {where}; give it once."
    return printable(given[0], len(given[0])) if given else None


def _read_count(query: CalculatorQuery, name: Count) -> None:
    text = query.raw[name].strip()
    if not text:
        query.errors[name] = _missing(query, name)
    elif not _WHOLE.fullmatch(text):
        query.errors[name] = (f"{query.name(name)} must be a whole number written with digits only, "
                              f"like 200; got “{printable(text)}”.")
    elif _too_large(text):
        query.errors[name] = f"{query.name(name)} must be at most {MAX_N:,} (10^12); got {printable(text)}."
    else:
        _accept_count(query, name, _number(text))


def _missing(query: CalculatorQuery, name: str) -> str:
    """The sentence for a count not given, in the words of whoever asked."""
    if query.source == "page":
        return f"Enter {query.name(name)}: a whole number."
    if query.source == "query":
        return f"{query.name(name)} is missing: give {name} as a whole number, as in ?n=10&c=3&k=5."
    return f'"{name}" is missing: {query.name(name)} is a whole number, as in {API_EXAMPLE}.'


def _accept_count(query: CalculatorQuery, name: Count, number: int) -> None:
    """Keep a count within its own range (c >= 0, n and k >= 1, all <= MAX_N), else say which it is not."""
    low = 0 if name == "c" else 1
    if number > MAX_N:
        query.errors[name] = (f"{query.name(name)} must be at most {MAX_N:,} (10^12); "
                              f"got {printable(f'{number:,}')}.")
    elif number < low:
        query.errors[name] = f"{query.name(name)} must be at least {low}; got {number:,}."
    else:
        query.values[name] = number


def _number(digits: str) -> int:
    """A string of digits as an int, however many leading zeros it has."""
    return int(digits.lstrip("0") or "0")


def _too_large(digits: str) -> bool:
    """True when a string of digits is a number above MAX_N."""
    return len(digits.lstrip("0")) > len(str(MAX_N)) or _number(digits) > MAX_N


def _read_extra_ks(query: CalculatorQuery) -> None:
    if not query.raw["ks"]:   # (most queries give none)
        query.values["ks"] = []
        return
    parts = [part for part in re.split(r"[\s,]+", query.raw["ks"].strip()) if part]
    bad = [part for part in parts if not _WHOLE.fullmatch(part) or _too_large(part) or not part.strip("0")]
    if len(parts) > LIMITS.extra_ks:
        query.errors["ks"] = f"Give at most {LIMITS.extra_ks} extra k values; got {len(parts):,}."
    elif bad:
        query.errors["ks"] = (f"{query.name('ks')} must be whole numbers from 1 to 10^12, separated by "
                              f"commas; “{printable(bad[0])}” is not.")
    else:
        query.values["ks"] = sorted({_number(part) for part in parts})


def read_json(body: "JSON") -> CalculatorQuery:
    """Parse the API's JSON body {"n": 10, "c": 3, "k": 5, "ks": [2, 20]} into a CalculatorQuery.

    Counts are JSON numbers with a whole value (10, 10.0 and 1e1 alike); a string
    such as "10" is refused with a sentence that says to send a number.
    """
    query = CalculatorQuery(source="json")
    unknown = [name for name in body if name not in FIELDS] if isinstance(body, dict) else []
    if not isinstance(body, dict):
        query.errors["body"] = f"The JSON body must be an object like {API_EXAMPLE}; got {_shown(body)}."
    elif unknown:
        query.errors["body"] = (f"Unknown field {_shown(unknown[0])}: the JSON body takes n, c, k and "
                                f"optionally ks, as in {API_EXAMPLE}.")
    if query.errors:
        return query
    query.raw.update((name, _shown(body[name]) if name in body else "") for name in FIELDS)
    for name in ("n", "c", "k"):
        number = json_count(body.get(name))
        if name not in body:
            query.errors[name] = _missing(query, name)
        elif number is None:
            query.errors[name] = _not_a_count(query.name(name), body[name])
        else:
            _accept_count(query, name, number)
    _read_json_ks(query, body.get("ks", []))
    _check_ranges(query)
    return query


def _read_json_ks(query: CalculatorQuery, ks: "JSON") -> None:
    """The JSON body's optional "ks": a list of up to LIMITS.extra_ks whole numbers from 1 to 10^12."""
    name = query.name("ks")
    if not isinstance(ks, list):
        query.errors["ks"] = f"{name} must be a list of whole numbers, like [2, 20]; got {_shown(ks)}."
        return
    if len(ks) > LIMITS.extra_ks:
        query.errors["ks"] = f"Give at most {LIMITS.extra_ks} extra k values; got {len(ks):,}."
        return
    numbers = list(map(json_count, ks))
    for value, number in zip(ks, numbers):
        if isinstance(value, str):
            query.errors["ks"] = f'{name} must be JSON numbers, not strings: send [2, 20], not ["2", "20"]; ' \
                                 f"got {_shown(value)}."
            return
        if number is None or not 1 <= number <= MAX_N:
            query.errors["ks"] = f"{name} must be whole numbers from 1 to 10^12; got {_shown(value)}."
            return
    query.values["ks"] = sorted(set(cast(list[int], numbers)))   # ints: the loop returned at any None


def json_count(value: "JSON") -> int | None:
    """A JSON number with a whole value (10, 10.0, 1e1) as an int; None for anything else, strings included."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value if type(value) is int else None


def _not_a_count(name: str, value: "JSON") -> str:
    """Why a JSON value is not a count: a string is told to be a number, anything else to be whole."""
    if isinstance(value, str):
        return f'{name} must be a JSON number, not a string: send 10, not "10"; got {_shown(value)}.'
    return f"{name} must be a whole number, like 200; got {_shown(value)}."


def _shown(value: "JSON") -> str:
    """A JSON value as it was sent, cut short and made printable, for a message; containers by their kind."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    return printable(json.dumps(value, ensure_ascii=False))


def _check_ranges(query: CalculatorQuery) -> None:
    """The checks between fields: c <= n and k <= n."""
    n, c, k = query.values.get("n"), query.values.get("c"), query.values.get("k")
    if n is None:
        return
    if c is not None and c > n:
        query.errors["c"] = f"c must be from 0 to n ({n:,}): no more samples can pass than were generated; got {c:,}."
        del query.values["c"]
    if k is not None and k > n:
        query.errors["k"] = (f"k must be from 1 to n ({n:,}): you cannot draw more samples than you "
                             f"generated; got {k:,}.")
        del query.values["k"]


def calculate_query(query: CalculatorQuery) -> Calculation | None:
    """The calculation for a query without errors, else None."""
    if query.errors:
        return None
    values = query.values
    return calculate(values["n"], values["c"], values["k"], values.get("ks", ()))
