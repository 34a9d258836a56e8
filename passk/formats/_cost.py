"""What reading costs: the processor time each unit of input takes to read, charged to the request's budget.

A web request's files are read within limits.read_work estimated microseconds
(passk.limits.Budget.spend_work), all its files together. Each reader charges
what it meets as it meets it: a line format each piece of whole lines before
it is read (its bytes and lines), and after it the values its JSON lines built;
a JSON document each piece it reads, and its tokens; an .eval archive its
members, counted from the central directory before any is unpacked. A request
whose reading passes the budget is refused at the piece that passes it (an
archive at once). The command line and the Python API pass no budget.

Each rate is the costliest content of its kind measured on this project's
machine (2 CPUs, Python 3.11, at the load of the other work it shares), so an
estimate is an upper bound there: `python bench/bench_upload.py --reading`
measures each again and prints it beside its price. The costliest JSON lines
are made of values (`{"a":0,"b":0,…}`, `[0,0,…]`), priced by the entries and
items they built once each line is read, and of long whole numbers (Python
turns n digits into an int in time n²); the costliest byte of one is an
escape (`\\"`). A CSV row with a quote is read by csv's reader, which makes
every cell, so a CSV byte is priced as a cell of two bytes; a text byte as a
per-sample result (`1 0 1 …`).
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LineCost:
    """What a line format costs to read, in microseconds: per byte and per line."""

    byte: float
    line: float

    def of(self, chunk: bytes, lines: int) -> float:
        """The estimated microseconds of reading chunk, which holds lines lines."""
        return len(chunk) * self.byte + lines * self.line


JSON_LINES = LineCost(byte=0.011, line=0.7)   # human-eval, lm-eval, NeMo-Skills, eval-arena, Every Eval Ever
CSV = LineCost(byte=0.025, line=1.0)
TEXT = LineCost(byte=0.035, line=1.5)

JSON_ENTRY = 0.4         # a key and its value in an object of a JSON line (a whole number, the costliest)
JSON_PLAIN_ENTRY = 0.1   # the same, its value known to be a string, true, false or null
JSON_ITEM = 0.26         # a value in a list of a JSON line (a whole number)
JSON_CONTAINER = 0.35    # an object or a list of a JSON line, on top of its entries or items
LONG_NUMBER = 100        # digits past which a whole number of a JSON line costs more than its bytes
LONG_LINE = 1000         # characters of a JSON line that may hold a number costing more than its bytes (1,000: 9 µs)
DIGITS_SQUARED = 9e-6    # of such a number: Python turns n digits into an int in about n² times this

JSON_BYTE = 0.003        # a byte of a JSON document (ijson's yajl)
JSON_ESCAPE = 0.035      # a backslash of a JSON document, on top of its byte (yajl unescapes byte by byte)
JSON_TOKEN = 0.4         # a key, value or bracket of a JSON document, built as a Python value
UNPACK_BYTE = 0.002      # a byte unpacked from gzip, or from an archive member (deflate, zstd)
MEMBER = 50.0            # an .eval archive's member: listed, opened, its JSON read and its sample counted

_LONG_BITS = int(LONG_NUMBER / 0.30103)   # bits of a whole number of LONG_NUMBER digits


def json_line_work(record: Any) -> float:
    """What building record, one JSON line (json.loads's values), cost in microseconds: each object's entries
    (JSON_PLAIN_ENTRY, or JSON_ENTRY when it holds a number or a container) and each list's items (JSON_ITEM,
    priced as whole numbers, the costliest); each container (JSON_CONTAINER); and the digits of each whole number
    of more than LONG_NUMBER (DIGITS_SQUARED)."""
    if record.__class__ is dict and _LOOKED_INTO.isdisjoint(map(type, record.values())):
        return object_work(len(record), len(record))   # the common line: strings, booleans and nulls
    work = 0.0
    pending = [record]
    while pending:   # only containers and numbers are looked into: the rest is counted by len()
        value = pending.pop()
        kind = value.__class__
        if kind is dict:
            looked_into = [item for item in value.values() if item.__class__ in _LOOKED_INTO]
            work += object_work(len(value), len(value) - len(looked_into))
            pending += looked_into
        elif kind is list:
            work += JSON_CONTAINER + len(value) * JSON_ITEM
            pending += [item for item in value if item.__class__ in _LOOKED_INTO]
        elif kind is int and value.bit_length() > _LONG_BITS:   # a long whole number
            work += (value.bit_length() * 0.30103) ** 2 * DIGITS_SQUARED
    return work


def object_work(entries: int, plain: int = 0, objects: int = 1) -> float:
    """What building objects of a JSON line (or of several) with that many entries in all cost, in microseconds,
    none of them containers and plain of them known to hold a string, true, false or null (JSON_PLAIN_ENTRY); the
    others may hold numbers."""
    return objects * JSON_CONTAINER + (entries - plain) * JSON_ENTRY + plain * JSON_PLAIN_ENTRY


_LOOKED_INTO = frozenset((dict, list, int, float))   # what an entry holds when it is not plain
