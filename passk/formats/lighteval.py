"""lighteval details, `details/<model>/<timestamp>/details_<task>_<timestamp>.parquet` (huggingface/lighteval,
`--save-details`).

One Parquet file per task, one row per document (a problem), written by `datasets` from lighteval's
DetailsLogger.Detail with the columns in sorted order. lighteval 0.11 and later write three struct columns:
`doc` (the Doc: `query`, `choices`, `gold_index`, `id` — the document's index — ...), `model_response` (`text`,
one generation per sample, ...) and `metric` ({metric name: value}). lighteval 0.8 to 0.10 wrote `example`,
`predictions`, ..., `metrics` ({metric name: value}, a struct too) and no id; before 0.8 every column was
written as Python's str() of its value, `metrics` as "{'acc': 1}". A problem is named by its `doc.id`, else by
its row ("row 3"); each row is a problem of its own (lighteval numbers the documents of each split from 0, so
a task of two splits repeats ids, which passk then warns about).

The file holds a value per document for each metric; which metrics give samples:
- `pass@k:k=1&n=16` (0.11+; any prefix, such as `math_pass@k`, and parameters in any order) and
  `pass@1:16_samples` (before 0.11) are pass@1 over the document's n samples, c/n: n = 16, c = value × 16;
  `avg@n:n=16` (the mean of the samples' 0/1 scores) too;
- a metric named without samples (`acc`, `em`, `extractive_match`, ...) is one sample's verdict: 1 (or true)
  passes, 0 fails, anything else has no pass rule;
- pass@k for k > 1, `maj@n` and G-Pass@k are already an aggregate over the samples, which passk cannot undo.
A file of several metrics holds several runs; one is read, chosen as lm-eval's filters are (suite=), by default
the first that counts the most samples. Parquet is read with pyarrow, an optional extra (passk-calculator[parquet]).
"""

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from passk.formats._core import JSON, FormatError, Problem, append, show, task_id_of
from passk.formats.evalplus import SUITES
from passk.formats.registry import register
from passk.limits import LARGER_RUNS, LIMITS, Budget, TooLarge, size, too_many_problems

NAME = "lighteval"
LABEL = "lighteval"   # the tool, as people name it
TITLE = "lighteval details_*.parquet"
SIGNATURE = "a Parquet file (it starts with PAR1)"   # what detection looks for
SOURCE = "lighteval (huggingface/lighteval) --save-details details_<task>_<timestamp>.parquet"
MAGIC = b"PAR1"
INSTALL = ('Reading a Parquet file (lighteval details) needs pyarrow, which is not installed: '
           'pip install "passk-calculator[parquet]".')
BATCH_ROWS = 65_536
VALUE_BYTES = 8   # what a value costs at least once read (a double; an index into a dictionary of strings)
FOOTER = 8        # the file ends with the metadata's length (4 bytes, little-endian) and PAR1
NEW_PARAMETERS = re.compile(r"(?P<metric>.*(?:pass@k|avg@n)):(?P<parameters>[a-z_]+=[^&]*(?:&[a-z_]+=[^&]*)*)")
OLD_SAMPLES = re.compile(r".*pass@(?P<k>[0-9]+):(?P<n>[0-9]+)_samples")
AGGREGATES = re.compile(r"maj@|g-pass@", re.IGNORECASE)
METRICS_NAMED = 5
GENERATIONS = ("model_response.text.list.element", "model_response.text.list.item",   # one a sample: 0.11+
               "predictions.list.element", "predictions.list.item")                # and before
LAYOUTS = {"metric": "lighteval 0.11 or later", "metrics": "lighteval 0.8 to 0.10", "str": "lighteval before 0.8"}
TEXT_COLUMNS = ("doc.id", "metrics")   # the columns of strings that may be read
METRICS_TEXT = 64 * 1024   # the longest metrics text read (a few names and numbers)


@dataclass(frozen=True)
class Metric:
    """One metric of the file: its name, and the samples each value stands for (None: an aggregate, why)."""

    name: str
    samples: int | None
    why_not: str = ""


def read_parquet(file: BinaryIO, suite: str, limit: int | None,
                 budget: Budget | None = None) -> tuple[list[Problem], list[str], str]:
    """(problems, warnings, source) of the metric named suite ("base" or "plus": no choice made) from a seekable binary
    file of lighteval details; the bytes the columns read unpack to, as the file's metadata declares them, are
    spent from budget (a passk.limits.Budget) before any is read (no budget: at most LIMITS.unpacked_bytes)."""
    details = _opened(_pyarrow_parquet(), file, budget)
    try:
        return _read(details, suite, limit, budget)
    except _read_errors() as error:   # a page that cannot be unpacked or decoded
        raise _damaged(error) from None


def _read(details: Any, suite: str, limit: int | None, budget: Budget | None) -> tuple[list[Problem], list[str], str]:
    """read_parquet of an opened file."""
    layout, names, id_path = _layout(details)
    if limit is not None and details.metadata.num_rows > limit:
        raise FormatError(too_many_problems(limit))
    if layout == "str":   # before 0.8 the metrics are text: their names are those of the first row
        _spend(details, ["metrics"], budget)
        rows = _text_metrics(details)
        names = list(next(rows, ({}, 0))[0])
    generations = _generations(details)
    metrics = [_metric(name, generations) for name in names]
    chosen = _chosen(metrics, None if suite in SUITES else suite)
    if layout != "str":
        _spend(details, [path for path in (id_path, f"{layout}.{chosen.name}") if path], budget)
    problems: list[Problem] = []
    values = _text_values(details, chosen.name) if layout == "str" else \
        _struct_values(details, layout, chosen.name, id_path)
    for row, (task_id, value) in enumerate(values, 1):
        append(problems, _problem(task_id or f"row {row}", value, chosen, f"Row {row}"), limit)
    return problems, _warnings(metrics, chosen), f"{SOURCE}, {LAYOUTS[layout]}"


def _pyarrow_parquet() -> Any:
    """pyarrow.parquet, or the FormatError that says what to install."""
    try:
        import pyarrow.parquet as parquet
    except ImportError:
        raise FormatError(INSTALL) from None
    return parquet


def _read_errors() -> tuple[type[Exception], ...]:
    """What pyarrow raises for a damaged file (ArrowInvalid is an ArrowException; text that is not UTF-8 raises
    UnicodeDecodeError as it is decoded), once it is imported."""
    import pyarrow
    return pyarrow.ArrowException, OSError, UnicodeDecodeError


def _opened(parquet: Any, file: BinaryIO, budget: Budget | None) -> Any:
    """The ParquetFile of file, after checking its ending and spending its metadata's length from budget."""
    file.seek(0, 2)
    length = file.tell()
    file.seek(max(length - FOOTER, 0))
    ending = file.read(FOOTER)
    footer = int.from_bytes(ending[:4], "little")
    if len(ending) < FOOTER or not ending.endswith(MAGIC) or footer > length - FOOTER - len(MAGIC):
        raise FormatError("The input starts as a Parquet file but does not end as one (it was cut short?); send "
                          "the details file as lighteval wrote it.")
    if footer > LIMITS.document_bytes:
        raise TooLarge(f"The Parquet file's metadata is {size(footer)}, more than the {size(LIMITS.document_bytes)} "
                       f"read of one document; {LARGER_RUNS}.")
    if budget is not None:
        budget.spend_unpacked(footer)
    try:
        file.seek(0)
        leaves = parquet.ParquetFile(file).schema
        strings = [leaves.column(at).path for at in range(len(leaves)) if leaves.column(at).path in TEXT_COLUMNS
                   and leaves.column(at).physical_type == "BYTE_ARRAY"]
        file.seek(0)
        return parquet.ParquetFile(file, read_dictionary=strings)   # each string once, then an index a row
    except _read_errors() as error:
        raise _damaged(error) from None


def _damaged(error: Exception) -> FormatError:
    return FormatError(f"The input starts as a Parquet file but cannot be read as one ({error}); send the details "
                       "file as lighteval wrote it.")


def _layout(details: Any) -> tuple[str, list[str], str | None]:
    """(the column of the metrics, or "str" for text, the metric names, the path of doc.id or None)."""
    import pyarrow.types as types
    schema = details.schema_arrow
    for column in ("metric", "metrics"):
        index = schema.get_field_index(column)
        if index < 0:
            continue
        kind = schema.field(index).type
        if types.is_struct(kind):
            doc = schema.field("doc").type if schema.get_field_index("doc") >= 0 else None
            has_id = doc is not None and types.is_struct(doc) and doc.get_field_index("id") >= 0 \
                and _is_text(doc.field("id").type)
            return column, [kind.field(at).name for at in range(kind.num_fields)], "doc.id" if has_id else None
        if column == "metrics" and _is_text(kind):
            return "str", [], None
        raise FormatError(f'The Parquet file\'s "{column}" column is {kind}, not a metric name → value mapping; '
                          "it is not lighteval details.")
    raise FormatError('The Parquet file has no "metric" column (lighteval 0.11 and later) nor "metrics" (earlier): '
                      f"it is not lighteval details, the only Parquet files read; its columns: "
                      f"{', '.join(schema.names[:8])}.")


def _is_text(kind: Any) -> bool:
    """True for a column of strings (read as a dictionary of them, or not)."""
    import pyarrow.types as types
    return bool(types.is_string(kind) or types.is_large_string(kind)
                or types.is_dictionary(kind) and types.is_string(kind.value_type))


def _spend(details: Any, paths: list[str], budget: Budget | None) -> None:
    """Spend what the columns at paths unpack to (at least VALUE_BYTES a value) before reading them."""
    metadata = details.metadata
    declared = 0
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        for at in range(row_group.num_columns):
            chunk = row_group.column(at)
            if any(chunk.path_in_schema == path or chunk.path_in_schema.startswith(path + ".") for path in paths):
                declared += max(chunk.total_uncompressed_size, row_group.num_rows * VALUE_BYTES)
    if budget is not None:
        budget.spend_unpacked(declared)
    elif declared > LIMITS.unpacked_bytes:
        raise TooLarge(f"The Parquet file's columns read unpack to {declared / 1e6:,.0f} MB, more than the "
                       f"{size(LIMITS.unpacked_bytes)} read of one file; reduce the log with passk.results.frames.reduce_log.")


def _struct_values(details: Any, column: str, name: str, id_path: str | None) -> Iterator[tuple[str | None, JSON]]:
    """(doc.id or None, the metric's value) of each row, a batch of rows at a time."""
    paths = [path for path in (id_path, f"{column}.{name}") if path]
    for batch in details.iter_batches(batch_size=BATCH_ROWS, columns=paths):
        values = batch.column(batch.schema.get_field_index(column)).field(name).to_pylist()
        ids = _ids(batch.column(batch.schema.get_field_index("doc")).field("id")) if id_path else [None] * len(values)
        yield from zip(ids, values)


def _ids(doc_ids: Any) -> list[str | None]:
    """The doc.id of each row of a batch; an id longer than any task id is refused before it is decoded."""
    if hasattr(doc_ids, "dictionary"):   # each id once, then an index a row
        import pyarrow.compute as compute
        longest = compute.max(compute.binary_length(doc_ids.dictionary)).as_py() or 0
        if longest > 4 * LIMITS.task_id_chars:   # UTF-8: at most 4 bytes a character
            raise FormatError(f"A doc.id of the file is {longest:,} bytes long; a task id may have at most "
                              f"{LIMITS.task_id_chars} characters.")
        doc_ids = doc_ids.dictionary_decode()
    return [str(doc_id) if doc_id not in (None, "") else None for doc_id in doc_ids.to_pylist()]


def _text_metrics(details: Any) -> Iterator[tuple[dict[str, JSON], int]]:
    """({metric: value}, row) of each row of a file whose metrics are text (lighteval before 0.8)."""
    row = 0
    for batch in details.iter_batches(batch_size=BATCH_ROWS, columns=["metrics"]):
        column = batch.column(0)
        parsed: dict[int, dict[str, JSON]] = {}
        indices = column.indices.to_pylist() if hasattr(column, "indices") else range(len(column))
        texts = column.dictionary if hasattr(column, "indices") else column
        for index in indices:
            row += 1
            if index not in parsed:
                parsed[index] = _metrics_text(texts[index].as_py(), f"Row {row}")
            yield parsed[index], row


def _metrics_text(text: str | None, where: str) -> dict[str, JSON]:
    """The {metric: value} of a row's metrics written as text ("{'acc': 1}")."""
    try:
        metrics = ast.literal_eval(text) if text is not None and len(text) <= METRICS_TEXT else None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        metrics = None
    if not isinstance(metrics, dict) or not all(isinstance(key, str) for key in metrics):
        raise FormatError(f'{where}: "metrics" must be a metric name → value mapping; got {show(text)}.')
    return metrics


def _text_values(details: Any, name: str) -> Iterator[tuple[str | None, JSON]]:
    for metrics, row in _text_metrics(details):
        if name not in metrics:
            raise FormatError(f'Row {row}: "metrics" has no metric "{name}"; it has {_named(list(metrics))}.')
        yield None, metrics[name]


def _generations(details: Any) -> int | None:
    """The generations (samples) of each document, when the file's metadata says every document has as many:
    lighteval's pass@k without n takes n from the first document's generations (the length of
    model_response.text, or predictions before 0.11)."""
    metadata, values = details.metadata, 0
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        values += sum(row_group.column(at).num_values for at in range(row_group.num_columns)
                      if row_group.column(at).path_in_schema in GENERATIONS)
    rows = metadata.num_rows
    return values // rows if rows and values and values % rows == 0 else None


def _metric(name: str, generations: int | None = None) -> Metric:
    """What a value of the metric called name stands for, read from the name lighteval gives it (generations:
    the samples of each document, for a metric whose name does not say n)."""
    new = NEW_PARAMETERS.fullmatch(name)
    old = OLD_SAMPLES.fullmatch(name)
    if new:
        parameters = dict(part.split("=", 1) for part in new["parameters"].split("&"))
        k = parameters.get("k", "1" if new["metric"].endswith("avg@n") else "")
        n = parameters.get("n", str(generations or ""))
    elif old:
        k, n = old["k"], old["n"]
    elif AGGREGATES.search(name):
        return Metric(name, None, "an aggregate over the samples (a majority vote or G-Pass@k), not their verdicts")
    else:
        return Metric(name, 1)
    if not n.isdigit() or int(n) < 1:
        return Metric(name, None, "computed over samples it does not count (no n in its name, and the documents' "
                                  "generations differ in number)")
    if k != "1":
        return Metric(name, None, f"pass@{k} of each problem's {n} samples, an estimate, not their verdicts; choose "
                                  "a k=1 metric, from which passk computes every k")
    return Metric(name, int(n))


def _chosen(metrics: list[Metric], name: str | None) -> Metric:
    """The metric named name, or (None) the first of those that count the most samples."""
    if not metrics:
        raise FormatError("The details file has no metrics: lighteval wrote no value for any document.")
    if name is not None:
        chosen = next((metric for metric in metrics if metric.name == name), None)
        if chosen is None:
            raise FormatError(f"The file has no lighteval metric {show(name)}; its metrics: "
                              f"{_named([metric.name for metric in metrics])}.")
    else:
        chosen = max(metrics, key=lambda metric: metric.samples or 0)
    if chosen.samples is None:
        raise FormatError(f"The lighteval metric {show(chosen.name)} is {chosen.why_not}; its metrics: "
                          f"{_named([metric.name for metric in metrics])}.")
    return chosen


def _problem(task_id: str, value: JSON, metric: Metric, where: str) -> Problem:
    """A row's problem: metric.samples samples, value × samples of them passed."""
    samples = metric.samples or 1
    passed = value * samples if isinstance(value, (int, float)) and 0 <= value <= 1 else None
    if passed is None or abs(passed - round(passed)) > 1e-9 * samples:
        rule = "1 or 0 (true or false), a sample's verdict" if samples == 1 else \
            f"c/{samples}, the share of its {samples} samples that passed"
        raise FormatError(f'{where}: metric "{metric.name}" must be {rule}; got {show(value)}.')
    return Problem(task_id_of(task_id, where), samples, round(passed))


def _warnings(metrics: list[Metric], chosen: Metric) -> list[str]:
    """Which metric was read, and the others, when the file holds several."""
    if len(metrics) == 1:
        return []
    others = [metric.name for metric in metrics if metric is not chosen]
    return [f"The file holds {len(metrics)} lighteval metrics; this is metric {show(chosen.name)} "
            f"({chosen.samples} sample{'s' if chosen.samples != 1 else ''} a problem). The other"
            f"{'s' if len(others) > 1 else ''}: {_named(others)}; choose one with the suite choice (suite=, --suite)."]


def _named(names: list[str]) -> str:
    named = ", ".join(show(name) for name in names[:METRICS_NAMED])
    return named + (f" and {len(names) - METRICS_NAMED:,} more" if len(names) > METRICS_NAMED else "")


register(__name__)
