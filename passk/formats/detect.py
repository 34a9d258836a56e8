"""Which reader a file needs: every reader is imported here (registering itself), and detection happens here alone.

Line formats (text, CSV, and the JSONL of human-eval, eval-arena, NeMo-Skills, lm-eval and Every Eval Ever) are
told apart by their first lines;
a JSON document is offered to each harness's `looks_like` in the order below,
the most specific first, and falls back to JSON counts.
"""

import json
import pkgutil
from importlib import import_module
from pathlib import Path

from passk.formats._core import JSON
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


def detect_format(head: bytes, filename: str | None = None) -> str:
    """Name the reader for input that begins with head (bytes); JSON documents say "json" until parsed."""
    lines = (line.strip() for line in head.split(b"\n"))
    first, second = (list(filter(None, lines))[:2] + [b"", b""])[:2]
    extension = (filename or "").rpartition(".")[2].lower()
    if first.startswith(b"{") and (second or extension == "jsonl") and is_sample_line(first):
        return "humaneval"
    if first.startswith(b"{") and b'"example_id"' in first and is_arena_line(first):
        return "evalarena"
    if first.startswith(b"{") and is_nemoskills_line(first):
        return "nemoskills"
    named = first.startswith(b"{") and (b'"doc_id"' in first or b'"sample_id"' in first)
    keys = line_keys(first) if named else set()
    if "doc_id" in keys and keys & {"filter", "resps"}:   # one line even: no JSON document has these keys
        return "lmeval"
    if {"schema_version", "sample_id", "evaluation"} <= keys:
        return "everyevalever"
    if first.startswith((b"{", b"[")):
        return "json"
    if b"\t" in first or extension == "tsv":   # tab-separated rows, whose task ids may hold commas
        return "text"
    if b"," in first or extension == "csv":
        return "csv"
    return "text"


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


def is_arena_line(line: bytes) -> bool:
    """True when line is a JSON object with an "example_id" and no "task_id", like an eval-arena record."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(record, dict) and "example_id" in record and "task_id" not in record


def line_keys(line: bytes) -> set[str]:
    """The keys of a line that is a JSON object (none for any other line)."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return set()
    return set(record) if isinstance(record, dict) else set()


def is_nemoskills_line(line: bytes) -> bool:
    """True when line is a JSON object like a NeMo-Skills evaluated line (a verdict or a predicted answer)."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return bool(READERS["nemoskills"].looks_like(record))


def is_sample_line(line: bytes) -> bool:
    """True when line is a JSON object with a "task_id", like a human-eval results line."""
    try:
        sample = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(sample, dict) and "task_id" in sample
