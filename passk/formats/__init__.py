"""Readers that turn benchmark harness output into per-problem counts.

Every reader returns problems as ``(task_id, n, c)``: ``n`` samples generated,
``c`` of them passed. Anything wrong with the input raises ``FormatError``
with one sentence naming the line (text, CSV, JSONL) or the key path (JSON).

One module per layout (``text``, ``table``, ``humaneval``, ``evalplus``, ...)
holds its reader, its pass rule and the tool and version that writes it;
``detect`` registers them all and chooses among them.
"""

import io
from collections.abc import Collection, Sequence
from typing import BinaryIO, cast

from passk.formats._core import EMPTY, EmptyInput, FormatError, Parsed, Problem, parsed, show
from passk.formats._core import JSON
from passk.formats._input import PEEK_BYTES, Joined, Source, Stream, line_chunks, not_text, open_input
from passk.formats._json import parse_json
from passk.formats.combine import by_position, combine
from passk.formats.detect import FORMAT_LABELS, FORMAT_NAMES, LINE_READERS, detect_format, document_format, source_of
from passk.formats.detect import warnings_of
from passk.formats.registry import FORMATS, READERS, RunReader
from passk.formats.evalplus import SUITES
from passk.formats import inspect_log, lighteval
from passk.limits import Budget

__all__ = ["FORMATS", "FORMAT_NAMES", "FORMAT_LABELS", "SUITES", "PEEK_BYTES",
           "Problem", "Parsed", "FormatError", "EmptyInput", "read_problems", "read_files", "read_json_body",
           "by_position", "combine", "source_of"]


def read_problems(source: Source, *, fmt: str | None = None, suite: str = "plus", filename: str | None = None,
                  max_problems: int | None = None, max_lines: int | None = None, max_bytes: int | None = None,
                  budget: Budget | None = None) -> Parsed:
    """Read per-problem counts from bytes, str or a binary file; detect the format unless fmt is given.

    More than max_problems problems, or more than max_lines lines in a line
    format, raise FormatError as soon as they are seen (None: no limit).
    Gzip-compressed input is unpacked, up to max_bytes (None: LIMITS.unpacked_bytes).
    budget (a passk.limits.Budget, shared by the files of one request) bounds the
    bytes unpacked and the JSON read, and its limits (a Limits) the size of a
    JSON document and of a line: past them, TooLarge.
    """
    _check_choice("format", fmt, FORMATS, allow_none=True)
    if not (suite and isinstance(suite, str) and _names_runs(fmt)):   # another name may be a run's (a filter)
        _check_choice("suite", suite, SUITES)
    head, stream = open_input(source, max_lines, max_bytes, budget)
    if not head.strip():
        raise EmptyInput(EMPTY)
    if head.startswith(inspect_log.ZIP_MAGIC):   # a zip archive: an Inspect .eval log, or said not to be one
        if fmt not in (None, inspect_log.NAME):
            raise FormatError(f"The input is a zip archive, not {FORMAT_NAMES[fmt]}; the only zip archives read "
                              "are Inspect .eval logs.")
        problems, warnings, source_name = inspect_log.read_archive(_rewound(head, stream), max_problems, budget,
                                                                   suite)
        return _parsed(problems, inspect_log.NAME, source_name, warnings)
    if head.startswith(lighteval.MAGIC) or fmt == lighteval.NAME:   # a Parquet file: lighteval details, or said not
        problems, warnings, source_name = _read_parquet(head, stream, fmt, suite, max_problems, budget)
        return _parsed(problems, lighteval.NAME, source_name, warnings)
    if b"\x00" in head:
        raise not_text("The input")
    name = fmt or detect_format(head, filename)
    if not (_names_runs(name) or fmt is None and name == "json"):   # a JSON document is placed once parsed
        _check_choice("suite", suite, SUITES)
    if name in LINE_READERS:
        chunks = line_chunks(head, stream, max_lines, budget, LINE_READERS[name].COST)
        if hasattr(READERS[name], "read_run"):   # a file of runs named by suite, or with warnings of its own
            reader: RunReader = READERS[name]
            problems, warnings = reader.read_run(chunks, suite, max_problems)
            return _parsed(problems, name, warnings=warnings)
        return _parsed(LINE_READERS[name].read_lines(chunks, max_problems), name)
    document = parse_json(Joined(head, stream), budget,
                          max_bytes=None if budget is None else budget.limits.document_bytes)
    if fmt is None:
        name = document_format(document)
        if not _names_runs(name):
            _check_choice("suite", suite, SUITES)
    if name == "humaneval":  # one results line, sent without a .jsonl name
        return _parsed(LINE_READERS[name].read_lines([head], max_problems), name)
    if name == inspect_log.NAME:   # a log of several scores, one chosen by suite, and warnings of that one
        problems, warnings = inspect_log.read_log(document, suite, max_problems)
        return _parsed(problems, name, source_of(name, document), warnings)
    return _parsed(READERS[name].read(document, suite, max_problems), name, source_of(name, document),
                   warnings_of(name, document))


def read_files(files: Sequence[tuple[str | None, Source]], *, fmt: str | None = None, suite: str = "plus",
               max_problems: int | None = None, max_lines: int | None = None,
               budget: Budget | None = None) -> Parsed:
    """Read [(file name, source), ...], the parts of one run, as one run (see combine); NeMo-Skills seed files in
    the order of their names, as NeMo-Skills reads them.

    An error names the file it is in when there are several.
    """
    runs: list[tuple[str | None, Parsed]] = []
    for name, source in files:
        try:
            runs.append((name, read_problems(source, fmt=fmt, suite=suite, filename=name,
                                             max_problems=max_problems, max_lines=max_lines, budget=budget)))
        except FormatError as error:
            if len(files) == 1:
                raise
            raise type(error)(f"{name}: {error}") from None
    if all(name and parsed.format == "nemoskills" for name, parsed in runs):
        # NeMo-Skills reads its seeds in the order of their file names (output-rs0, rs1, rs10, rs2, ...), and so does
        # passk, whatever order they came in: first-k majority and avg@k depend on it
        runs.sort(key=lambda run: run[0] or "")
    return combine(runs, max_problems)


def read_json_body(body: JSON, max_problems: int | None = None) -> Parsed:
    """Read the API's JSON body {"problems": [...], "k": [...]} into problems."""
    if not isinstance(body, dict) or "problems" not in body:
        got = show(body) if not isinstance(body, dict) else "an object without it"
        raise FormatError(f'The JSON body must be an object with a "problems" list; got {got}.')
    return _parsed(READERS["json"].read(body, "plus", max_problems), "json")


def _read_parquet(head: bytes, stream: Stream, fmt: str | None, suite: str, max_problems: int | None,
                  budget: Budget | None) -> tuple[list[Problem], list[str], str]:
    """Problems, warnings and source of a Parquet file, which only lighteval's reader reads."""
    if fmt not in (None, lighteval.NAME):
        raise FormatError(f"The input is a Parquet file, not {FORMAT_NAMES[fmt]}; the only Parquet files read are "
                          "lighteval details.")
    if not head.startswith(lighteval.MAGIC):
        raise FormatError("The input is not a Parquet file (it does not start with PAR1); lighteval details are "
                          "the Parquet files details_<task>_<timestamp>.parquet.")
    return lighteval.read_parquet(_rewound(head, stream), suite, max_problems, budget)


def _rewound(head: bytes, stream: Stream) -> BinaryIO:
    """The whole input as a seekable file for zipfile: the stream itself, back at its start, when it can seek
    (an upload spooled by the server, a file), else its bytes."""
    if stream.seekable() if hasattr(stream, "seekable") else False:
        file = cast(BinaryIO, stream)   # a stream that can seek is a file (or an upload spooled to one)
        file.seek(file.tell() - len(head))
        return file
    return io.BytesIO(head + stream.read())


def _parsed(problems: list[Problem], name: str, source: str | None = None,
            warnings: Sequence[str] = ()) -> Parsed:
    """Parsed problems of format name; warnings are the reader's own, said before the shared ones."""
    result = parsed(problems, name)
    result.source = source or READERS[name].SOURCE
    result.warnings[:0] = warnings
    return result


def _names_runs(fmt: str | None) -> bool:
    """True when fmt (None: not yet known) may name its runs by suite, as lm-eval's filters, lighteval's
    metrics and Inspect's scores are."""
    return fmt is None or hasattr(READERS[fmt], "read_run") or fmt in (lighteval.NAME, inspect_log.NAME)


def _check_choice(name: str, value: str | None, allowed: Collection[str], allow_none: bool = False) -> None:
    """Refuse a format or suite name outside allowed, listing the allowed ones."""
    if value is None and allow_none:
        return
    if not isinstance(value, str) or value not in allowed:
        raise FormatError(f"Unknown {name} {show(value)}: choose one of {', '.join(allowed)}.")
