"""pass@k from tables of samples: pandas and polars DataFrames, Parquet and JSONL logs, and Dask frames.

A table holds one row per sample: a column names its problem (task), a column says whether it passed
(correct: true/false or 1/0), and optionally a column holds its extracted answer (for majority voting).
Each is reduced to per-problem counts (n, c) by a group-by of the table's own engine, never a Python loop
over rows, and then summarized as any harness file is (passk.results.benchmark.summarize):

- from_frame(frame, task=..., correct=...): a pandas or polars DataFrame in memory -> Summary;
- reduce_log(path, task=..., correct=...): a Parquet or JSONL log of any size on one machine, scanned by
  DuckDB in bounded memory -> [Problem] (10^8 rows: docs/benchmarks.md, "Reducing big logs");
- reduce_dask(frame, task=..., correct=...): a Dask DataFrame over a cluster -> [Problem].

None of pandas, polars, DuckDB or Dask is needed by passk itself: each is imported when used, the frame
libraries and Dask as their users have them, DuckDB with pip install "passk-calculator[logs]". See docs/frames.md.
"""

from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

from passk.results.benchmark import Summary, summarize
from passk.maths.estimator import DEFAULT_KS
from passk.formats._core import FormatError, Problem, answer_of
from passk.maths.majority import Tie

NAMED = 5   # rows or problems a message names before "and N more"
MEMORY_LIMIT = "1GB"   # what DuckDB may hold while it reduces a log; past it, it spills to disk
NUMBERS = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
           "FLOAT", "DOUBLE"}   # DuckDB's types of a column of 0/1 verdicts, besides BOOLEAN
DUCKDB = 'Reducing a log needs DuckDB, which is not installed: pip install "passk-calculator[logs]".'


def from_frame(frame: Any, task: str, correct: str, answer: str | None = None,
               ks: Iterable[int] = DEFAULT_KS, tau: float | None = None, tie: Tie = "fractional") -> Summary:
    """pass@k over the problems of a pandas or polars DataFrame of one row per sample.

    Parameters
    ----------
    frame : pandas.DataFrame or polars.DataFrame
        One row per sample.
    task : str
        The column that names each sample's problem.
    correct : str
        The column that says whether the sample passed: booleans, or integers or floats 0 and 1.
    answer : str, optional
        The column of each sample's extracted answer (null: no answer): the Summary then has maj@k
        (Summary.majority), each sample voting with its answer (votes_from_frame).
    ks : iterable of int
        The k values, as for passk.results.benchmark.summarize.
    tau, tie : optional
        G-Pass@k's share (Summary.g_pass) and maj@k's rule for a tied vote, as for summarize.

    Returns
    -------
    Summary
        passk.results.benchmark.summarize of the problems, in the order each first appears.

    Raises
    ------
    FormatError
        A column is missing, correct holds something other than true/false or 0/1, or either column
        holds nulls (saying how many and in which rows).

    Examples
    --------
    >>> import pandas as pd
    >>> samples = pd.DataFrame({"task": ["a", "a", "b", "b"], "correct": [True, False, False, False]})
    >>> from_frame(samples, task="task", correct="correct", ks=[1]).results[0].pass_at_k
    0.25
    """
    return summarize(frame_problems(frame, task, correct, answer), ks, tau=tau, tie=tie)


def frame_problems(frame: Any, task: str, correct: str, answer: str | None = None) -> list[Problem]:
    """The per-problem counts of a pandas or polars DataFrame of one row per sample (see from_frame), with each
    sample's vote when answer names a column."""
    if answer is not None:
        votes = votes_from_frame(frame, task, correct, answer)
        return [Problem(name, len(pairs), sum(verdict for _, verdict in pairs),
                        tuple((answer_of(vote), verdict) for vote, verdict in pairs))
                for name, pairs in votes.items()]
    library = _library(frame)
    _check_columns(frame, [task, correct])
    if library == "polars":
        import polars as pl
        _check_polars(frame, task, correct)
        grouped = frame.group_by(task, maintain_order=True).agg(
            pl.len().alias("n"), pl.col(correct).cast(pl.Int64).sum().alias("c"))
        return _problems(grouped[task].to_list(), grouped["n"].to_list(), grouped["c"].to_list())
    _check_pandas(frame, task, correct)
    grouped = frame.groupby(task, sort=False, observed=True)[correct].agg(["size", "sum"])
    return _problems(grouped.index.tolist(), grouped["size"].tolist(), grouped["sum"].tolist())


def votes_from_frame(frame: Any, task: str, correct: str, answer: str) -> dict[str, list[tuple[Hashable, bool]]]:
    """Each problem's (answer, verdict) pairs, in row order, for majority voting; a missing answer (null, NaN)
    is None, which does not vote (passk.maths.majority)."""
    library = _library(frame)
    _check_columns(frame, [task, correct, answer])
    if library == "polars":
        import polars as pl
        _check_polars(frame, task, correct)
        grouped = frame.group_by(task, maintain_order=True).agg(pl.col(answer), pl.col(correct).cast(pl.Boolean))
        return {str(name): list(zip(answers, map(bool, verdicts))) for name, answers, verdicts
                in zip(grouped[task].to_list(), grouped[answer].to_list(), grouped[correct].to_list())}
    _check_pandas(frame, task, correct)
    pairs = frame[[task, answer, correct]].astype({answer: object})
    pairs[answer] = pairs[answer].where(pairs[answer].notna(), None)
    grouped = pairs.groupby(task, sort=False, observed=True).agg(list)
    return {str(name): list(zip(answers, map(bool, verdicts))) for name, answers, verdicts
            in zip(grouped.index.tolist(), grouped[answer].tolist(), grouped[correct].tolist())}


def reduce_log(path: str | Path, task: str, correct: str, memory_limit: str = MEMORY_LIMIT) -> list[Problem]:
    """The per-problem counts of a Parquet or JSONL log (one row, one line, per sample), of any number of rows.

    DuckDB scans the file once with a streaming group-by, in at most memory_limit (spilling to disk past it):
    10^8 rows of 100,000 problems take about 8 s and 240 MB as Parquet, 23 s and 300 MB as JSONL, on two cores
    (docs/benchmarks.md, "Reducing big logs"). A name ending in .parquet is read as Parquet, any other as JSON
    lines; a glob ("logs/*.parquet") reads several files. The problems come in the order of their names.
    """
    try:
        import duckdb
    except ImportError:
        raise FormatError(DUCKDB) from None
    reader = "read_parquet" if str(path).endswith(".parquet") else "read_json_auto"
    source = {"path": str(path)}
    with duckdb.connect(config={"memory_limit": memory_limit}) as connection:
        try:
            types = {row[0]: row[1] for row in connection.execute(f"DESCRIBE SELECT * FROM {reader}($path)",
                                                                  source).fetchall()}
            _check_names(list(types), [task, correct])
            extremes = "0, 1" if types[correct] == "BOOLEAN" else "min(v), max(v)"   # booleans are 0/1 once cast
            rows = connection.execute(
                f'SELECT "{_quoted(task)}", count(*), sum(v), count(*) - count(v), {extremes} FROM '
                f'(SELECT "{_quoted(task)}", {_verdict(correct, types[correct])} AS v FROM {reader}($path)) '
                "GROUP BY 1 ORDER BY 1", source).fetchall()
        except duckdb.Error as error:
            raise FormatError(f"Cannot reduce {path}: {str(error).splitlines()[0]}") from None
    _check_reduced(rows, correct)
    return _problems([row[0] for row in rows], [row[1] for row in rows], [row[2] for row in rows])


def _verdict(correct: str, kind: str) -> str:
    """The SQL of a sample's verdict as 0 or 1 from the column correct of DuckDB type kind; -1 for any other
    number, which the reduction then refuses."""
    column = f'"{_quoted(correct)}"'
    if kind == "BOOLEAN":
        return f"{column}::INTEGER"
    if kind in NUMBERS:
        return f"CASE WHEN {column} IN (0, 1) THEN {column}::INTEGER WHEN {column} IS NOT NULL THEN -1 END"
    raise FormatError(f'The column "{correct}" holds {kind} values; it must hold true/false or 1/0, one verdict '
                      "a sample.")


def reduce_dask(frame: Any, task: str, correct: str) -> list[Problem]:
    """The per-problem counts of a Dask DataFrame of one row per sample, reduced on its cluster: a group-by
    of count and sum, each partition's partial counts added up (the same reduction as from_frame's).
    The problems come in the order of their names."""
    _check_columns(frame, [task, correct])
    wrong = int((frame[task].isna() | ~frame[correct].isin([0, 1])).sum().compute())   # a pass of its own
    if wrong:
        raise FormatError(f'{wrong:,} samples have no task (null), or no verdict true/false or 1/0 in "{correct}"; '
                          "every sample needs both.")
    counts = frame[[task, correct]].astype({correct: "int64"}).groupby(task)[correct].agg(["count", "sum"])
    reduced = counts.compute().sort_index()
    return _problems(reduced.index.tolist(), reduced["count"].tolist(), reduced["sum"].tolist())


def _library(frame: Any) -> str:
    """"pandas" or "polars", by the module of the frame's class; anything else is refused."""
    module, kind = type(frame).__module__.partition(".")[0], type(frame).__name__
    if module not in ("pandas", "polars") or kind != "DataFrame":
        hint = " (collect() it, or write it to Parquet for reduce_log)" if kind == "LazyFrame" else ""
        raise TypeError(f"from_frame needs a pandas or polars DataFrame; got {kind}{hint}.")
    return module


def _check_columns(frame: Any, names: Sequence[str]) -> None:
    _check_names([str(name) for name in frame.columns], names)


def _check_names(columns: Sequence[str], names: Sequence[str]) -> None:
    """Refuse a column name that is not among columns, naming the ones there are."""
    for name in names:
        if name not in columns:
            shown = ", ".join(f'"{column}"' for column in columns[:10]) + (" ..." if len(columns) > 10 else "")
            raise FormatError(f'The table has no column "{name}"; its columns: {shown}.')


def _check_pandas(frame: Any, task: str, correct: str) -> None:
    """Refuse nulls in either column and verdicts other than true/false and 0/1, naming the rows."""
    for name in (task, correct):
        missing = frame[name].isna()
        if missing.any():
            _refuse_rows(frame.index[missing.to_numpy()].tolist(), name, "is empty (null)")
    verdicts = frame[correct]
    kind = verdicts.dtype.kind
    if kind not in "biuf" and str(verdicts.dtype) != "boolean":
        raise FormatError(f'The column "{correct}" holds {verdicts.dtype} values; it must hold true/false '
                          "or 1/0, one verdict a sample.")
    wrong = ~verdicts.isin([0, 1])
    if wrong.any():
        _refuse_rows(frame.index[wrong.to_numpy()].tolist(), correct, "is neither true/false nor 1/0")


def _check_polars(frame: Any, task: str, correct: str) -> None:
    """As _check_pandas, for a polars DataFrame (rows counted from 0, as polars does)."""
    import polars as pl
    for name in (task, correct):
        if frame[name].null_count():
            _refuse_rows(frame.with_row_index("row").filter(pl.col(name).is_null())["row"].to_list(), name,
                         "is empty (null)")
    verdicts = frame[correct]
    if not (verdicts.dtype == pl.Boolean or verdicts.dtype.is_numeric()):
        raise FormatError(f'The column "{correct}" holds {verdicts.dtype} values; it must hold true/false '
                          "or 1/0, one verdict a sample.")
    if verdicts.dtype != pl.Boolean:
        wrong = frame.with_row_index("row").filter(~((pl.col(correct) == 0) | (pl.col(correct) == 1)))["row"].to_list()
        if wrong:
            _refuse_rows(wrong, correct, "is neither true/false nor 1/0")


def _refuse_rows(rows: list[Any], column: str, what: str) -> None:
    """The error for the rows (their labels) whose column holds what no sample may."""
    named = ", ".join(map(str, rows[:NAMED])) + (f" and {len(rows) - NAMED:,} more" if len(rows) > NAMED else "")
    count = "1 row" if len(rows) == 1 else f"{len(rows):,} rows"
    raise FormatError(f'The column "{column}" {what} in {count}: {named}; every sample needs a task and a verdict, '
                      "true/false or 1/0.")


def _check_reduced(rows: list[tuple[Any, ...]], correct: str) -> None:
    """Refuse a log whose reduction found a sample without a task or a verdict, or a verdict not 0 or 1."""
    without_task = next((row for row in rows if row[0] is None), None)
    if without_task is not None:
        raise FormatError(f"{without_task[1]:,} samples have no task (null); every sample needs one.")
    missing = [(row[0], row[3]) for row in rows if row[3]]
    if missing:
        named = ", ".join(f'"{name}" ({count:,})' for name, count in missing[:NAMED])
        raise FormatError(f'{sum(count for _, count in missing):,} samples have no "{correct}" (null), in '
                          f"{len(missing):,} problems: {named}; every sample needs a verdict.")
    wrong = [row[0] for row in rows if row[4] is not None and (row[4] < 0 or row[5] > 1)]
    if wrong:
        named = ", ".join(f'"{name}"' for name in wrong[:NAMED])
        raise FormatError(f'"{correct}" must be true/false or 1/0; problems {named} have other values.')


def _quoted(name: str) -> str:
    return name.replace('"', '""')


def _problems(tasks: list[Any], samples: list[Any], passed: list[Any]) -> list[Problem]:
    return [Problem(str(name), int(n), int(c)) for name, n, c in zip(tasks, samples, passed)]
