"""The public Python API, for notebooks and scripts: read a run, summarize it, compare, rank and plan.

Each function wraps the computation the command line and the website use (passk.writing.report, passk.results.benchmark,
passk.results.ranking, passk.results.planner), so a number here is the number they show. Each returns a frozen dataclass whose
fields are the JSON API's (docs/api.md; POST /api/v1/benchmark and /api/v1/compare), whose ``to_json()`` is the
API's answer for the same input, and which shows itself in Jupyter (``_repr_html_``: the page's tables and SVG
charts, no scripts; where HTML is not shown, ``to_markdown()``: the Markdown tables of ``passk --markdown``) and
becomes a pandas DataFrame with ``to_frame()`` (pandas is optional: pip install pandas).

Values are fractions (0.4575 is 45.75%), as in the JSON API.

Examples
--------
>>> import io, passk
>>> run = passk.read(io.BytesIO(b"task_id,n,c\\na,10,3\\nb,10,0\\nc,10,10\\n"))
>>> run.layout
'CSV (task_id,n,c, n,c or task_id,passed rows)'
>>> summary = passk.summarize(run, k=[1, 5])
>>> [(row.k, round(row.pass_at_k, 4)) for row in summary.results]
[(1, 0.4333), (5, 0.6389)]
"""

import contextlib
import io
import os
import re
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from numbers import Integral, Real
from typing import IO, Any, TypeAlias, cast

from passk.results import benchmark
from passk.maths.bayes import Bayes
from passk.results.benchmark import KComparison, KResult, Retries
from passk.results.calculator import printable
from passk.results.curves import CurveComparison, curves_of
from passk.maths.estimator import MAX_N
from passk.limits import LIMITS
from passk.formats import FORMAT_NAMES, SUITES, EmptyInput, FormatError, Parsed, Problem, by_position, read_files
from passk.formats._input import Source
from passk.maths.majority import TIES, Tie
from passk.results.metrics import GPass, Majority
from passk.results.metrics import Averages, Graded
from passk.results.planner import KPlan, option_value
from passk.results.ranking import KRanking, distinct_names, rank_runs
from passk.results.ranking import Ranking as RankingResult
from passk.writing.report import SOURCE_NAME_LIMIT, SUITED, Report, paired_by_line, suite_ignored
from passk.writing import notebook
from passk.writing.answers import per_problem_rows, to_json
from passk.writing.sentences import crossover_sentences

Readable: TypeAlias = "str | os.PathLike[str] | IO[bytes]"   # a path (.gz and the rest as on the command line)
                                                            # or a binary file
RunLike: TypeAlias = "Run | str | os.PathLike[str] | IO[bytes]"   # a Run, or what read() reads into one
Ks: TypeAlias = "int | Iterable[int] | str"   # 10, [1, 10], or "1,10" as the command's -k takes them


@dataclass(frozen=True)
class Run:
    """One run's problems as read from its file(s), and how they were read.

    Attributes
    ----------
    problems : tuple of passk.formats.Problem
        Each problem's task_id, n (samples) and c (samples that passed), in the order first seen; ``votes`` holds
        each sample's (extracted answer, verdict) where the file has answers (maj@k), else None.
    format : str
        The layout read, one of passk.formats.FORMATS ("humaneval", "evalplus", "csv", ...).
    layout : str
        The layout as people name it: "human-eval *_results.jsonl".
    source : str
        The harness (and version) that writes the layout, "" for plain counts.
    name : str or None
        The file's path or name (the first and how many more, for several), None for an unnamed file object.
    warnings : tuple of str
        What the reader noticed (said before the summary's own warnings).
    combined : str
        How several files were combined into one run, "" for one file.
    suite : str or None
        The EvalPlus suite read ("plus" or "base"), or lm-eval's filter or lighteval's metric asked for.
    notes : tuple of str
        Sentences about the choices made when reading (a suite given for a file without suites, an EvalPlus suite
        missing from the file), said after the summary's warnings as the command line says them.
    """

    problems: tuple[Problem, ...]
    format: str
    layout: str
    source: str
    name: str | None = None
    warnings: tuple[str, ...] = ()
    combined: str = ""
    suite: str | None = None
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<passk.Run {self.name or 'unnamed'}: {len(self.problems):,} problems read as {self.layout}>"

    def to_frame(self) -> Any:
        """A pandas DataFrame of a row per problem: task_id, n, c."""
        return notebook.problems_frame(self.problems)

    def _repr_html_(self) -> str:
        return notebook.run_html(self)

    def to_markdown(self) -> str:
        """The Markdown tables of `passk --markdown` for the same input: for a paper or a pull request."""
        return notebook.run_markdown(self)

    def _repr_markdown_(self) -> str:   # Jupyter's, where HTML is not shown
        return self.to_markdown()


def read(path_or_file: "Readable | Sequence[Readable]", format: str | None = None,
         suite: str | None = None) -> Run:
    """Read a harness results file (or several, the parts of one run) into a Run.

    Parameters
    ----------
    path_or_file : str, os.PathLike, binary file, or a list of them
        The file: a path (gzip-compressed files are unpacked, as on the command line) or a file opened in binary
        mode. A list is the parts of one run (MultiPL-E's file per problem, SWE-bench's repeated runs): each task
        id's samples are added up over the files, as ``passk FILE FILE`` does.
    format : str, optional
        The layout (passk.formats.FORMATS), detected from the content when None.
    suite : str, optional
        EvalPlus's suite ("plus", the default, or "base"); for lm-eval the filter and for lighteval the metric.

    Returns
    -------
    Run

    Raises
    ------
    passk.formats.FormatError
        A sentence naming what is wrong and where (line, key, file).

    Examples
    --------
    >>> import io, passk
    >>> run = passk.read(io.BytesIO(b"task_id,n,c\\nadd,4,1\\nsub,4,4\\n"))
    >>> [(problem.task_id, problem.n, problem.c) for problem in run.problems]
    [('add', 4, 1), ('sub', 4, 4)]
    >>> run.format
    'csv'
    """
    given: list[Readable] = list(path_or_file) if isinstance(path_or_file, (list, tuple)) else \
        [cast(Readable, path_or_file)]
    if not given:
        raise FormatError("No files given: read needs a path or a binary file.")
    with contextlib.ExitStack() as opened:
        files = [_opener(item, opened) for item in given]
        chosen = suite or "plus"

        def parts() -> list[tuple[str | None, Source]]:
            return [(name, open_part()) for name, open_part in files]
        try:
            parsed = read_files(parts(), fmt=format, suite=chosen)
        except EmptyInput as error:
            if len(files) > 1:   # read_files has named the file
                raise
            raise EmptyInput(f"{files[0][0] or 'The file'} is empty: no problems were found.") from error
        except FormatError as error:   # one file's error names it, as the command's does (read_files names one of several)
            name = files[0][0]
            if len(files) > 1 or name is None or str(error).startswith(name):
                raise
            raise type(error)(f"{name}: {error}") from None
        notes: list[str] = []
        if suite is not None and parsed.format not in SUITED:
            notes.append(suite_ignored([(None, parsed.format)]))
        if parsed.format == "evalplus":   # as passk.writing.report.report_from_files: a --base-only run has no plus suite
            for other in SUITES:
                if other != chosen and not _has_suite(parts, other):
                    notes.append(f"The EvalPlus {other} suite is not in this file, so only {chosen} is shown.")
    names = [name for name, _ in files]
    shown = None if names[0] is None else printable(names[0], SOURCE_NAME_LIMIT)
    if shown and len(names) > 1:
        shown = f"{shown} and {len(names) - 1:,} more files"
    kept = chosen if parsed.format == "evalplus" else suite if parsed.format in SUITED else None
    return Run(tuple(parsed.problems), parsed.format, FORMAT_NAMES.get(parsed.format, parsed.format), parsed.source,
               shown, tuple(parsed.warnings), parsed.combined, kept, tuple(notes))


def _opener(item: "Readable", opened: contextlib.ExitStack) -> tuple[str | None, Callable[[], Source]]:
    """(file name, open()) of a path or a binary file: each call gives its bytes from the start (EvalPlus files
    are read once for each suite); a file that cannot seek is read once."""
    if isinstance(item, (str, os.PathLike)):
        path = os.fspath(item)
        try:
            stream: IO[bytes] = opened.enter_context(open(path, "rb"))
        except OSError as error:
            raise FormatError(f"Cannot read {path}: {error.strerror or error}.") from None
        name: str | None = path
    elif isinstance(item, io.TextIOBase) or "b" not in getattr(item, "mode", "b"):
        raise TypeError("read needs a path or a file opened in binary mode: open(path, 'rb').")
    else:
        stream = item
        given = getattr(item, "name", None)
        name = given if isinstance(given, str) else None
    if not (stream.seekable() if hasattr(stream, "seekable") else False):
        data = stream.read()
        return name, lambda: io.BytesIO(data)
    start = stream.tell()

    def rewound() -> Source:
        stream.seek(start)
        return stream
    return name, rewound


def _has_suite(parts: Callable[[], list[tuple[str | None, Source]]], suite: str) -> bool:
    try:
        read_files(parts(), fmt="evalplus", suite=suite)
    except FormatError:
        return False
    return True


def _by_position(run: Run) -> bool:
    """True when the run's problems have no task ids of their own (named "problem i" by line)."""
    return by_position(Parsed(list(run.problems), run.format))


def _percent(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:.2f}%"


def _points(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:+.2f} points"


def _as_run(run: RunLike) -> Run:
    return run if isinstance(run, Run) else read(run)


K_FORMS = 'a whole number from 1 to 10^12, a list of them, or a string like "1,10" or "1-128"'
_K_RANGE = re.compile(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*")


def _shown(value: object) -> str:
    """value's repr for a sentence, shortened when long (a list of a million ks)."""
    shortened = reprlib.Repr()   # attributes, not arguments: Python 3.11's Repr takes none
    shortened.maxstring, shortened.maxother, shortened.maxlist, shortened.maxtuple = 60, 60, 8, 8
    return shortened.repr(value)


def _ks(k: object, argument: str = "k") -> list[int]:
    """The ks of an API call's k argument: an int, an iterable of ints, or a string as the command's -k takes it
    ("1,10", "1 5 10"). Anything else is a ValueError of one sentence naming the argument, the value given (whole,
    shortened when long) and what is taken."""
    def refused(problem: str) -> ValueError:
        return ValueError(f"{argument}={_shown(k)}: {problem}; give {K_FORMS}.")
    values: list[object]
    if isinstance(k, str):   # as -k takes it: "1,10", "1 5 10", ranges "1-128"
        tokens = [token for token in re.split(r"[\s,;]+", re.sub(r"(?<=[0-9])\s*-\s*(?=[0-9])", "-", k)) if token]
        bad = next((token for token in tokens if not re.fullmatch(r"[+-]?[0-9]+|[0-9]+-[0-9]+", token)), None)
        if bad is not None:
            raise refused(f"{_shown(bad)} is not a whole number or a range like 1-128")
        values = []
        for token in tokens:
            if ends := _K_RANGE.fullmatch(token):
                first, last = int(ends[1]), int(ends[2])
                if first > last:
                    raise refused(f"the range {token} runs backwards (write it {last}-{first})")
                if last - first >= LIMITS.curve_ks:
                    raise refused(f"the range {token} holds more than {LIMITS.curve_ks:,} ks (range({first}, "
                                  f"{last + 1}) is taken as it is)")
                values.extend(range(first, last + 1))
            else:
                values.append(int(token))
    elif isinstance(k, Integral) and not isinstance(k, bool):
        values = [k]
    elif isinstance(k, Iterable) and not isinstance(k, (bytes, bytearray, Mapping)):
        values = list(k)
    else:
        raise refused(_not_a_k(k))
    if not values:
        raise refused("no k is given")
    ks: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, Integral):
            raise refused(_not_a_k(value))
        if not 1 <= int(value) <= MAX_N:
            raise refused(f"{int(value):,} is {'below 1 (pass@k draws k samples)' if value < 1 else 'above 10^12'}")
        ks.append(int(value))
    return ks


def _not_a_k(value: object) -> str:
    """Why value, which is not an int, is not a k."""
    if isinstance(value, bool):
        return f"{value} is a bool, not a number of samples"
    if isinstance(value, Real) and float(value).is_integer():
        return f"{value!r} is a {type(value).__name__}: write it as the int {int(float(value))}"
    if isinstance(value, Real):
        return f"{value!r} is not a whole number"
    return "None is not a k" if value is None else f"a {type(value).__name__} is not a k"


@dataclass(frozen=True)
class Summary:
    """A run's pass@k (and pass^k) at each k, with both standard errors: the benchmark page's numbers.

    The fields are those of the POST /api/v1/benchmark answer (``per_problem`` is built when first asked for);
    the values are fractions. ``report`` is the computation behind them (passk.writing.report.Report).
    """

    problems: int
    format: str
    results: tuple[KResult, ...]
    warnings: tuple[str, ...]
    samples: int
    min_n: int
    max_n: int
    status: Mapping[str, int]
    retries: Retries | None
    planner: tuple[KPlan, ...]
    majority: Majority | None = None
    g_pass: GPass | None = None
    graded: Graded | None = None        # the mean score and max@k, where some sample's score is neither 0 nor 1
    averages: Averages | None = None    # avg@k and the seeds' spread, where the samples carry scores in order
    bayes: Bayes | None = None          # Bayes@N: the posterior mean of the pass rate, its SD and credible interval
    source: str = ""
    combined: str = ""
    suite: str | None = None
    run: Run | None = field(default=None, repr=False, compare=False)
    report: Report | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        values = ", ".join(f"pass@{row.k:,} {_percent(row.pass_at_k)}" for row in self.results)
        return f"<passk.Summary of {self.problems:,} problems: {values}>"

    @cached_property
    def per_problem(self) -> list[dict[str, Any]]:
        """Each problem's task_id, n, c, status and its pass@k and pass^k by k (keys "1", "10", ...), built once."""
        return per_problem_rows(self._report.summary)

    @property
    def _report(self) -> Report:
        assert self.report is not None, "a Summary is made by passk.summarize"
        return self.report

    def to_json(self) -> dict[str, Any]:
        """The POST /api/v1/benchmark answer for the same file and ks."""
        return self._report.to_json()

    def to_frame(self, per_problem: bool = False) -> Any:
        """A pandas DataFrame: a row per k (an interval as two columns, _low and _high); per_problem=True, a row
        per problem with its pass@k and pass^k at each k (pass_at_1, pass_hat_1, ...)."""
        return notebook.summary_frame(self._report.summary, per_problem)

    def _repr_html_(self) -> str:
        return notebook.summary_html(self._report, self.run)

    def to_markdown(self) -> str:
        """The Markdown tables of `passk --markdown` for the same input: for a paper or a pull request."""
        return notebook.summary_markdown(self._report, self.run)

    def _repr_markdown_(self) -> str:   # Jupyter's, where HTML is not shown
        return self.to_markdown()


def summarize(run: RunLike, k: Ks = (1, 10), tau: float | None = None, tie: Tie = "fractional") -> Summary:
    """pass@k of a run at each k, with its standard errors and 95% intervals, as the benchmark page shows it.

    Parameters
    ----------
    run : Run, or a path or binary file to read
    k : int, iterable of int, or str
        The ks: 10, [1, 10], or "1,10" as the command's -k takes them (a range of ks: range(1, 11)); pass@k is
        undefined (None, with the reason) where some problem has fewer than k samples. Anything else (a bool, a
        float, a k below 1 or above 10^12) is a ValueError naming it.
    tau : float, optional
        Adds G-Pass@k at this share (0 <= tau <= 1; 0 gives pass@k) and mG-Pass@k (Summary.g_pass).
    tie : {"fractional", "wrong"}
        maj@k's rule for a tied vote, where the run has extracted answers (Summary.majority).

    Returns
    -------
    Summary

    Examples
    --------
    pass@1 is the mean of c/n, and pass@k the mean of 1 - C(n - c, k)/C(n, k):

    >>> import io, passk
    >>> run = passk.read(io.BytesIO(b"task_id,n,c\\na,4,1\\nb,4,2\\n"))
    >>> summary = passk.summarize(run, k=[1, 2])
    >>> summary.results[0].pass_at_k                  # (1/4 + 2/4) / 2, summed exactly
    0.375
    >>> passk.pass_at_k(4, 2, 2)                      # 5/6: the double nearest it, on every CPU
    0.8333333333333334
    >>> round(summary.results[1].pass_at_k, 12)       # (1/2 + 5/6) / 2 = 2/3
    0.666666666667
    >>> summary.status
    {'broken': 0, 'flaky': 2, 'solid': 0}
    """
    if tie not in TIES:
        raise ValueError(f"tie must be one of {', '.join(TIES)} (maj@k's rule for a tied vote); got {tie!r}.")
    run = _as_run(run)
    result = benchmark.summarize(run.problems, _ks(k), warnings=run.warnings, tau=tau, tie=tie)
    result.warnings.extend(run.notes)
    report = Report(result, run.format, suite=run.suite if run.format == "evalplus" else None,
                    source_name=run.name, source=run.source, combined=run.combined)
    return Summary(
        problems=len(result.problems), format=run.format, results=tuple(result.results),
        warnings=tuple(result.warnings), samples=result.samples, min_n=result.min_n, max_n=result.max_n,
        status={"broken": result.broken, "flaky": result.flaky, "solid": result.solid}, retries=result.retries,
        planner=tuple(report.planner()), majority=result.majority, g_pass=result.g_pass,
        graded=result.graded, averages=result.averages, bayes=result.bayes, source=run.source,
        combined=run.combined, suite=report.suite, run=run, report=report)


@dataclass(frozen=True)
class Comparison:
    """Run A against run B on the problems both have, at each k: the POST /api/v1/compare answer's fields.

    ``results`` holds, per k, both runs' pass@k, the mean paired difference A - B, its SE, 95% interval and
    p-value; ``comparison`` is the computation behind them (passk.results.benchmark.Comparison).
    """

    paired: int
    only_in_a: tuple[str, ...]
    only_in_b: tuple[str, ...]
    results: tuple[KComparison, ...]
    warnings: tuple[str, ...]
    names: tuple[str, str] = ("A", "B")
    comparison: benchmark.Comparison | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        values = ", ".join(f"pass@{row.k:,} {_points(row.difference)} (p = {row.p_value:.3g})"
                           if row.p_value is not None else f"pass@{row.k:,} {_points(row.difference)}"
                           for row in self.results)
        return f"<passk.Comparison of {self.names[0]} - {self.names[1]} on {self.paired:,} problems: {values}>"

    @property
    def _comparison(self) -> benchmark.Comparison:
        assert self.comparison is not None, "a Comparison is made by passk.compare"
        return self.comparison

    def to_json(self) -> dict[str, Any]:
        """The POST /api/v1/compare answer for the same two files and ks."""
        return cast(dict[str, Any], to_json(self._comparison))

    def to_frame(self, per_problem: bool = False) -> Any:
        """A pandas DataFrame: a row per k; per_problem=True, a row per paired problem with each run's pass@k and
        the difference at each k (pass_at_1_a, pass_at_1_b, difference_1, ...)."""
        return notebook.comparison_frame(self._comparison, per_problem)

    def _repr_html_(self) -> str:
        return notebook.comparison_html(self._comparison, self.names)

    def to_markdown(self) -> str:
        """The Markdown tables of `passk --markdown` for the same input: for a paper or a pull request."""
        return notebook.comparison_markdown(self._comparison, self.names)

    def _repr_markdown_(self) -> str:   # Jupyter's, where HTML is not shown
        return self.to_markdown()

    def curves(self, k: "Ks | None" = None) -> "Curves":
        """Both runs' pass@k over k with A - B's band, simultaneous over every k shown: `passk --runs A B --curve`.

        k: the ks of the curves (an int, ints or a text such as "1-128"), each from 1 to the smallest n of a
        paired problem; None lets passk choose (every k up to a small n, else log-spaced ones). The answer's
        region("A") / region("B") / region(None) are the ks where A is significantly ahead, behind and neither,
        first_loss the 95% confidence set for the first k where A loses (None when there is no band), and
        to_json() the API's "curve".
        """
        names = (f"run {self.names[0]}", f"run {self.names[1]}")
        curve = curves_of(self._comparison, None if k is None else _ks(k), names)
        return Curves(**{name.name: getattr(curve, name.name) for name in fields(curve)})


def compare(a: RunLike, b: RunLike, k: Ks = (1, 10)) -> Comparison:
    """Run A against run B, paired by task id: the mean difference A - B at each k, its SE, 95% interval, p-value.

    Parameters
    ----------
    a, b : Run, or a path or binary file to read
    k : int, iterable of int, or str
        As summarize's.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import io, passk
    >>> a = passk.read(io.BytesIO(b"task_id,n,c\\nx,4,4\\ny,4,2\\nz,4,0\\n"))
    >>> b = passk.read(io.BytesIO(b"task_id,n,c\\nx,4,2\\ny,4,2\\nw,4,1\\n"))
    >>> comparison = passk.compare(a, b, k=1)
    >>> comparison.paired, comparison.only_in_a, comparison.only_in_b
    (2, ('z',), ('w',))
    >>> comparison.results[0].difference   # ((4 - 2) / 4 + 0) / 2
    0.25
    """
    run_a, run_b = _as_run(a), _as_run(b)
    result = benchmark.compare(run_a.problems, run_b.problems, _ks(k))
    unnamed = [label for label, run in zip("AB", (run_a, run_b)) if _by_position(run)]
    if unnamed:
        result.warnings.append(paired_by_line(unnamed, pair=True))
    names = (run_a.name or "A", run_b.name or "B")
    return Comparison(result.paired, tuple(result.only_in_a), tuple(result.only_in_b), tuple(result.results),
                      tuple(result.warnings), names, result)


@dataclass
class Curves(CurveComparison):
    """Two runs' pass@k over k with A - B's simultaneous band (Comparison.curves), as the API's "curve"."""

    @property
    def sentences(self) -> list[str]:
        """What the curves say: the lead at k = 1, the crossing, where A is ahead, behind and undecided."""
        return crossover_sentences(self)

    def to_json(self) -> dict[str, Any]:
        """The "curve" object of POST /api/v1/compare with curve=1 for the same runs and ks."""
        return cast(dict[str, Any], to_json(self))


@dataclass(frozen=True)
class Ranking:
    """Several runs ranked at each k, every pair compared (Holm-adjusted p-values) and the runs that cannot be told
    apart sharing a group letter: the fields of POST /api/v1/compare's answer for several runs.

    ``runs``: each run's name, problem count and format; ``results``: per k, the ranking (best first) and the
    pairs; ``ranking`` is the computation behind them (passk.results.ranking.Ranking).
    """

    runs: tuple[Mapping[str, Any], ...]
    results: tuple[KRanking, ...]
    warnings: tuple[str, ...]
    ranking: RankingResult | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        orders = "; ".join(f"pass@{row.k:,}: " + ", ".join(f"{rank.name} {_percent(rank.pass_at_k)} {rank.group}"
                                                           for rank in row.ranking) for row in self.results)
        return f"<passk.Ranking of {len(self.runs)} runs, best first: {orders}>"

    @property
    def _ranking(self) -> RankingResult:
        assert self.ranking is not None, "a Ranking is made by passk.rank"
        return self.ranking

    def to_json(self) -> dict[str, Any]:
        """The POST /api/v1/compare answer for the same runs (sent as "run" fields) and ks."""
        return {"runs": [dict(run) for run in self.runs], "results": [to_json(row) for row in self.results],
                "warnings": list(self.warnings)}

    def to_frame(self, per_problem: bool = False) -> Any:
        """A pandas DataFrame: a row per k and run, best first; per_problem=True, a row per run and problem."""
        return notebook.ranking_frame(self._ranking, per_problem)

    def _repr_html_(self) -> str:
        return notebook.ranking_html(self._ranking)

    def to_markdown(self) -> str:
        """The Markdown tables of `passk --markdown` for the same input: for a paper or a pull request."""
        return notebook.ranking_markdown(self._ranking)

    def _repr_markdown_(self) -> str:   # Jupyter's, where HTML is not shown
        return self.to_markdown()


def rank(runs: Sequence[RunLike], k: Ks = (1, 10), names: Sequence[str | None] | None = None) -> Ranking:
    """Rank several runs at each k and compare every pair, on the problems each pair has.

    Parameters
    ----------
    runs : sequence of Run, or paths or binary files to read
        Two runs or more, each a whole run.
    k : int, iterable of int, or str
        As summarize's.
    names : sequence of str, optional
        A name per run; a run without one is named after its file, else "run i".

    Returns
    -------
    Ranking

    Examples
    --------
    >>> import io, passk
    >>> runs = [passk.read(io.BytesIO(f"task_id,n,c\\nx,10,{c}\\ny,10,{c}\\n".encode())) for c in (2, 9, 5)]
    >>> ranking = passk.rank(runs, k=1, names=["small", "large", "medium"])
    >>> [(row.name, row.pass_at_k) for row in ranking.results[0].ranking]
    [('large', 0.9), ('medium', 0.5), ('small', 0.2)]
    """
    given = [_as_run(run) for run in runs]
    chosen = list(names or []) + [None] * (len(given) - len(names or []))
    labels = distinct_names([printable(label, SOURCE_NAME_LIMIT) if (label := name or run.name) else None
                             for name, run in zip(chosen, given)])
    result = rank_runs([(label, run.problems) for label, run in zip(labels, given)], _ks(k), limited=False)
    unnamed = [label for label, run in zip(labels, given) if _by_position(run)]
    if unnamed:
        result.warnings.append(paired_by_line(unnamed))
    body = to_json(result, [run.format for run in given])
    return Ranking(tuple(body["runs"]), tuple(result.results), tuple(result.warnings), result)


@dataclass(frozen=True)
class Plan:
    """The planner's answer for each of a summary's ks: where the noise comes from, and the samples per problem or
    problems a target 95% half-width needs (the "planner" list of the POST /api/v1/benchmark answer)."""

    target: float                       # the half-width wanted, in percentage points
    tokens_per_sample: float | None
    price_per_million: float | None
    results: tuple[KPlan, ...]

    def __repr__(self) -> str:
        ks = ", ".join(f"{row.k:,}" for row in self.results)
        return f"<passk.Plan for ± {self.target:g} point{'' if self.target == 1 else 's'} at k = {ks}>"

    def to_json(self) -> list[dict[str, Any]]:
        """The "planner" list of POST /api/v1/benchmark's answer for the same options."""
        return [to_json(row) for row in self.results]

    def to_frame(self, per_problem: bool = False) -> Any:
        """A pandas DataFrame of a row per k (the sentences joined in one column); a plan has no per-problem rows."""
        if per_problem:
            raise ValueError("A plan has no per-problem rows; the summary's to_frame(per_problem=True) has them.")
        return notebook.plan_frame(self.results)

    def _repr_html_(self) -> str:
        return notebook.plan_html(self.results, self.target)

    def to_markdown(self) -> str:
        """The Markdown tables of `passk --markdown` for the same input: for a paper or a pull request."""
        return notebook.plan_markdown(self.results, self.target)

    def _repr_markdown_(self) -> str:   # Jupyter's, where HTML is not shown
        return self.to_markdown()


def plan(summary: Summary, target: float = 1.0, tokens_per_sample: float | None = None,
         price_per_million: float | None = None) -> Plan:
    """Plan the next run: the samples per problem, or problems, that bring the 95% half-width under target.

    Parameters
    ----------
    summary : Summary
        passk.summarize's answer; the plan has a row for each of its ks.
    target : float
        The 95% half-width wanted, in percentage points (1 is ± 1 point), as the page's and the command line's
        --target.
    tokens_per_sample, price_per_million : float, optional
        What a sample takes and what a million tokens cost: the plan then says what the extra samples cost.

    Returns
    -------
    Plan

    Examples
    --------
    >>> import io, passk
    >>> counts = "task_id,n,c\\n" + "".join(f"t{i},10,{i % 11}\\n" for i in range(40))
    >>> summary = passk.summarize(passk.read(io.BytesIO(counts.encode())), k=[1])
    >>> answer = passk.plan(summary, target=5)
    >>> answer.results[0].k, answer.results[0].problems
    (1, 153)
    """
    options = {"target": option_value("target", repr(float(target)))}
    for name, value in (("tokens_per_sample", tokens_per_sample), ("price_per_million", price_per_million)):
        if value is not None:
            options[name] = option_value(name, repr(float(value)))
    rows = summary._report.with_planning(options).planner()
    return Plan(float(target), tokens_per_sample, price_per_million, tuple(rows))
