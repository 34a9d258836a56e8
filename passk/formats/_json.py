"""JSON documents read as a stream of tokens (ijson's C parser, yajl), so memory follows what is kept, not the text.

A document is built into Python values as json.loads would build it, with three
differences that no reader notices: a string is kept to its first MAX_KEPT_TEXT
characters (no reader needs more than a task id's), a lone surrogate escape
("\\ud800") in a document of more than RETRACE_BYTES becomes "?" as yajl makes it
(shorter ones are read by json, which keeps it for task_id_of to refuse), and `only` can leave out the values of
an object's keys that a reader never looks at. A budget (passk.limits.Budget)
counts the tokens read, so a request of tiny values ([0,0,…], [{},{},…]) is
refused as soon as it passes the limit, before its values fill memory.
"""

import re
from collections.abc import Collection, Iterator
from itertools import islice

import ijson

from passk.formats import _cost
from passk.formats._core import JSON, FormatError
from passk.formats._input import Readable, load_json
from passk.limits import LARGER_RUNS, LIMITS, Budget, MiB, TooLarge, size

CHUNK = 256 * 1024         # read at once; ijson builds the events of a chunk before yielding the first
SMALLEST_PIECE = 1024      # read at once from a document known to be shorter than CHUNK
RETRACE_BYTES = 1 * MiB    # a document this short that yajl refuses is read again by json, for its exact message
MAX_KEPT_TEXT = LIMITS.task_id_chars + 1
TEXT_TOKEN_CHARACTERS = 32  # a kept string costs one token more for each this many characters
MAX_DEPTH = 100
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
NESTED_TOO_DEEPLY = "The input is nested too deeply to read; problems need only two or three levels."


def parse_json(stream: Readable, budget: Budget | None = None, only: Collection[str] | None = None,
               where: str = "The input", max_bytes: int | None = LIMITS.document_bytes) -> JSON:
    """The JSON document read from a binary stream, as Python values.

    budget: a passk.limits.Budget whose tokens this document spends, and whose
    limits bound a stretch without a string ending (json_stretch_bytes; None:
    no limits); only: the keys of the top-level object to keep (None: all);
    where: how error messages name the document. A document of more than
    max_bytes (None: no limit) is refused.
    """
    feed = _Feed(stream, max_bytes, budget)
    # a document known to be short (an archive member) is read in one piece of its size: yajl's buffer is set up
    # for each document, and a whole CHUNK costs more than a sample of an .eval log takes to read
    buf_size = CHUNK if max_bytes is None else min(CHUNK, max(max_bytes + 1, SMALLEST_PIECE))
    try:
        document, tokens = _build(ijson.basic_parse(feed, use_float=True, buf_size=buf_size), budget, only)
    except ijson.JSONError as error:
        if feed.retraced is None:   # too long to read again: yajl's own words
            raise FormatError(_placed(f"The input is not valid JSON: {_reason(error)}.", where)) from None
        document = _retraced(feed.retraced, where)
        tokens = _tokens_of(document)
    except RecursionError:
        raise FormatError(_placed(NESTED_TOO_DEEPLY, where)) from None
    if feed.retraced is not None and SURROGATE_ESCAPE.search(feed.retraced):   # json keeps one, for its message
        document = _retraced(feed.retraced, where)
        tokens = _tokens_of(document)
    if budget is not None:
        budget.spend_tokens(tokens)
        budget.spend_work(tokens * _cost.JSON_TOKEN)
    return document


def parse_short(content: bytes, budget: Budget | None = None, only: Collection[str] | None = None,
                where: str = "The input") -> JSON:
    """A short document (at most RETRACE_BYTES, read whole: an archive member), as parse_json reads it but by json.

    The same values but whole strings, the same tokens spent and json's errors, as parse_json gives a short
    document; its top-level keys outside only are dropped once read. Setting up ijson's parser costs more than a
    short document takes to read (a sample of an .eval log: about 10 µs against 3).
    """
    if budget is not None:
        budget.spend_work(len(content) * _cost.JSON_BYTE + content.count(b"\\") * _cost.JSON_ESCAPE)
    document = _retraced(content, where)
    tokens = _tokens_of(document)
    if budget is not None:
        if tokens > budget.tokens:
            raise TooLarge(budget.too_many_tokens())
        budget.spend_tokens(tokens)
        budget.spend_work(tokens * _cost.JSON_TOKEN)
    if only is not None and isinstance(document, dict):
        document = {key: value for key, value in document.items() if key in only}
    return document


def _build(events: Iterator[tuple[str, JSON]], budget: Budget | None,
           only: Collection[str] | None) -> tuple[JSON, int]:
    """(document, tokens spent) from ijson's basic_parse events; TooLarge past the budget's tokens."""
    allowed = budget.tokens if budget is not None else None
    numbered = enumerate(events if allowed is None else islice(events, allowed + 1), 1)
    stack: list[JSON]
    root, stack, key, tokens, extra = None, [], None, 0, 0
    place = None      # where the next value goes: the open list's append, or the open object's __setitem__
    for tokens, (event, value) in numbered:
        if event == "map_key":
            key = value[:MAX_KEPT_TEXT]
            if only is not None and len(stack) == 1 and key not in only:
                tokens = _skip(numbered, tokens)
            continue
        if event == "string":
            value = value[:MAX_KEPT_TEXT]
            extra += len(value) // TEXT_TOKEN_CHARACTERS
            if allowed is not None and tokens + extra > allowed:
                assert budget is not None   # allowed is its tokens
                raise TooLarge(budget.too_many_tokens())
        elif event == "start_map":
            value = {}
        elif event == "start_array":
            value = []
        elif event == "end_map" or event == "end_array":
            stack.pop()
            place = stack[-1] if stack else None
            continue
        if place is None:
            root = value
        elif place.__class__ is list:
            place.append(value)
        else:
            place[key] = value
        if event == "start_map" or event == "start_array":
            stack.append(value)
            place = value
            if len(stack) > MAX_DEPTH:
                raise RecursionError
    if allowed is not None and (tokens > allowed or tokens + extra > allowed):
        assert budget is not None   # allowed is its tokens
        raise TooLarge(budget.too_many_tokens())
    return root, tokens + extra


def _skip(events: Iterator[tuple[int, tuple[str, JSON]]], tokens: int) -> int:
    """Read past the next value of events (enumerated basic_parse events) without building it; the last token's
    number (tokens if there was none)."""
    depth = 0
    for tokens, (event, _) in events:
        if event == "start_map" or event == "start_array":
            depth += 1
        elif event == "end_map" or event == "end_array":
            depth -= 1
        if depth == 0:
            break
    return tokens


def _tokens_of(document: JSON) -> int:
    """The tokens a document built by json would have cost, as _build counts them."""
    tokens, pending = 0, [document]
    while pending:
        value = pending.pop()
        tokens += 1
        if isinstance(value, dict):
            tokens += 1 + len(value)
            pending += value.values()
        elif isinstance(value, list):
            tokens += 1
            pending += value
        elif isinstance(value, str):
            tokens += len(value[:MAX_KEPT_TEXT]) // TEXT_TOKEN_CHARACTERS
    return tokens


def _retraced(content: bytes, where: str) -> JSON:
    """A short document yajl refused, read by json: its exact message (line, column), or the document when json
    takes what yajl does not (NaN, integers past 64 bits), so short documents read as json.loads reads them."""
    try:
        return load_json(content)
    except FormatError as error:
        raise FormatError(_placed(str(error), where)) from None


def _placed(message: str, where: str) -> str:
    """A message about "The input" said of where ("In header.json: not valid JSON: ...")."""
    if where == "The input":
        return message
    return f"{where}: {message.removeprefix('The input is ').removeprefix('The input ')}"


def _reason(error: Exception) -> str:
    """yajl's reason, without its drawing of where ("parse error: premature EOF\\n  …  (right here) ------^")."""
    reason = str(error).split("\n", 1)[0].strip()
    return reason.removeprefix("parse error: ").removeprefix("lexical error: ").rstrip(".") or "it ends early"


class _Feed:
    """The stream ijson reads: refused past max_bytes, and its first RETRACE_BYTES kept in case yajl refuses it.

    With a budget, each piece read is spent from its reading work, and a stretch of more than its limits'
    json_stretch_bytes without a string's closing quote is refused: yajl lexes a value split over chunks again from
    its start, so a value n bytes long costs about n² / CHUNK (64 MiB: 15 s).
    """

    retraced: bytes | None   # what was read, while it is no more than RETRACE_BYTES; then None

    def __init__(self, stream: Readable, max_bytes: int | None, budget: Budget | None) -> None:
        self._stream, self._max_bytes, self._budget = stream, max_bytes, budget
        self._longest_stretch = None if budget is None else budget.limits.json_stretch_bytes
        self._left, self.retraced, self._stretch = max_bytes, b"", 0

    def read(self, amount: int = -1) -> bytes:
        data = self._stream.read(amount)
        if self._left is not None and amount != 0:
            self._left -= len(data)
            if self._left < 0:
                assert self._max_bytes is not None   # _left counts it down
                raise TooLarge(f"The JSON input holds more than {size(self._max_bytes)} of JSON, the most one "
                               f"document may hold; send counts per problem (task_id,n,c), or {LARGER_RUNS}.")
        if self._budget is not None:   # an escape costs yajl more than any other byte
            self._budget.spend_work(len(data) * _cost.JSON_BYTE + data.count(b"\\") * _cost.JSON_ESCAPE)
        ended = data.count(b'"') > data.count(b'\\"')   # a quote ending a string (\\" is rare)
        if self._longest_stretch is None or ended:
            self._stretch = 0
        else:
            self._stretch += len(data)
            if self._stretch > self._longest_stretch:
                raise TooLarge(f"The JSON input goes on for more than {size(self._longest_stretch)} without a "
                               "string ending: a string, a number or a list without strings that long is not part of "
                               f"a results file; send counts per problem (task_id,n,c), or {LARGER_RUNS}.")
        if self.retraced is not None:
            self.retraced += data
            if len(self.retraced) > RETRACE_BYTES:
                self.retraced = None
        return data
