"""A benchmark report: input in, summaries out, for the page, the API and downloads.

The page, `POST /api/v1/benchmark`, the downloads and the command line all get
their numbers from `benchmark.summarize`; this module only chooses the input
and, for EvalPlus, reads both suites. With `limited=True` (the web application)
the input must stay within passk.limits.LIMITS; the command line passes no limits.
"""

import base64
import binascii
import csv
import io
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from functools import cached_property
from typing import Any, TypeAlias, TypedDict

from passk.results.benchmark import Comparison, PairedRun, ProblemCounts, Summary, compare_runs, summarize
from passk.results.calculator import printable
from passk.writing.columns import CSV, NOTATIONS, PER_K_COLUMNS, PROBLEM_COLUMNS, shown_in
from passk.formats import (FORMAT_LABELS, SUITES, EmptyInput, FormatError, Parsed, Problem, by_position,
                           read_files, source_of)
from passk.formats._input import Source
from passk.limits import (LIMITS, Budget, LimitError, check_cells, check_distinct, check_listed_ids,
                          download_too_large)
from passk.results.metrics import Beside
from passk.results.ranking import Ranking, distinct_names, listed_id_bytes, rank_runs
from passk.results.planner import KPlan, plan
from passk.writing.sharing import decode_counts, encode_counts
from passk.writing.answers import per_problem_rows, to_json

ROWS_PER_CHUNK = 2000     # per-problem rows built and sent at a time by a streamed download
SOURCE_NAME_LIMIT = 120   # characters of a file's name kept to say where the results came from

Opener: TypeAlias = Callable[[], Source]   # open() of one input: a fresh binary stream, from its start, each call
Limited: TypeAlias = bool | Budget          # a web request's limits (True, or the request's Budget), or False: none


class ReadBounds(TypedDict, total=False):
    """passk.formats.read_files' limits for a web request."""
    max_problems: int
    max_lines: int
    budget: Budget


class MissingCounts(FormatError):
    """The packed counts of the suite asked for are not there; each interface says so in its own words."""


class DamagedCounts(FormatError):
    """Packed counts (pack_counts) that do not unpack; each interface says so in its own words."""


@dataclass
class Report:
    """The summary of the chosen suite and, for EvalPlus, of the other one."""

    summary: Summary
    format: str
    suite: str | None = None
    other_suites: dict[str, Summary] = field(default_factory=dict)   # suite name -> Summary
    source_name: str | None = None   # the uploaded file's name (None for pasted text)
    source: str = ""                 # the harness and version whose layout was read
    combined: str = ""               # how several files were combined into one run, if they were
    planning: dict[str, float] = field(default_factory=dict)   # planner.plan's options: target, tokens and price
    plan_work: float | None = None   # a web request's bound on the planner (LIMITS.plan_work); None: no bound

    def planner(self) -> list[KPlan]:
        """planner.plan for the chosen suite, with this report's planning options (within plan_work)."""
        return plan(self.summary, **self.planning, work=self.plan_work)

    def with_planning(self, planning: Mapping[str, float]) -> "Report":
        """This report with planner.plan's options (target, tokens_per_sample, price_per_million) set."""
        return replace(self, planning=dict(planning))

    def to_json(self, per_problem: bool = True) -> dict[str, Any]:
        """The POST /api/v1/benchmark answer; EvalPlus answers also say which suite."""
        body: dict[str, Any] = to_json(self.summary, self.format, per_problem)
        if self.source:
            body["source"] = self.source
        if self.combined:
            body["combined"] = self.combined
        if self.suite and self.format == "evalplus":
            body["suite"] = self.suite
        body["planner"] = [to_json(row) for row in self.planner()]
        return body

    def share_params(self, ks: Iterable[int]) -> dict[str, str]:
        """Query parameters of a link that reproduces these numbers."""
        params = encode_counts(self.summary.problems)
        params["k"] = ",".join(str(k) for k in ks)
        if self.suite:
            params["suite"] = self.suite
        if self.summary.g_pass:
            params["tau"] = repr(self.summary.g_pass.tau)
        return params

    @cached_property
    def packed(self) -> dict[str, str | None]:
        """pack_counts of each suite's problems (key "" when the format has no suites); None where too large."""
        summaries = {self.suite or "": self.summary, **self.other_suites}
        return {suite: pack_counts(summary.problems) for suite, summary in summaries.items()}


def _bounds(limited: Limited) -> ReadBounds:
    """read_problems' limits for a web request (limited: its Budget, or True for a budget of its own), else none."""
    if not limited:
        return {}
    return {"max_problems": LIMITS.problems, "max_lines": LIMITS.lines,
            "budget": limited if isinstance(limited, Budget) else Budget()}


# The formats whose files name their runs, chosen by the suite choice: format -> what a suite names in its files.
SUITED = {"evalplus": "base or plus", "nemoskills": "human-eval's base or plus, IFEval's strict or loose",
          "lmeval": "a filter", "lighteval": "a metric", "evalarena": "a model", "inspect": "a scorer's key"}


def suite_ignored(subjects: Sequence[tuple[str | None, str]]) -> str:
    """The warning for a suite chosen for input whose format names no runs (one not in SUITED).

    subjects: [(who, format)], such as [("run A", "csv")]; who is None for a single input.
    """
    named = [f"{_format_label(fmt)} ({names})" for fmt, names in SUITED.items()]
    applies = f"The suite choice names a run only in files of {', '.join(named[:-1])} and {named[-1]}"
    if len(subjects) == 1 and subjects[0][0] is None:
        return f"{applies}; this is a {_format_label(subjects[0][1])} file, so it was ignored."
    ignored = " and ".join(f"{who} is a {_format_label(fmt)} file" for who, fmt in subjects)
    return f"{applies}; {ignored}, so it was ignored."


def _format_label(fmt: str) -> str:
    return FORMAT_LABELS.get(fmt, fmt)


def distinct_pairs(problems: Iterable[ProblemCounts]) -> int:
    """How many different (n, c) pairs the problems have: what the computation's cost follows."""
    return len({(problem.n, problem.c) for problem in problems})


def report_from_upload(open_source: Opener, ks: Sequence[int], fmt: str | None = None, suite: str = "plus",
                       filename: str | None = None, limited: Limited = False, suite_chosen: bool = False,
                       beside: Beside = Beside()) -> Report:
    """Read a file or pasted text; open_source() gives a fresh binary stream each call.

    suite_chosen: the user asked for this suite rather than taking the default,
    so a file that has no suites gets a warning that the choice was ignored.
    """
    return report_from_files([(filename, open_source)], ks, fmt, suite, limited, suite_chosen, beside=beside)


def report_from_files(files: Sequence[tuple[str | None, Opener]], ks: Sequence[int], fmt: str | None = None,
                      suite: str = "plus", limited: Limited = False, suite_chosen: bool = False,
                      check: Callable[[list[Problem]], None] | None = None, beside: Beside = Beside()) -> Report:
    """Read [(file name or None, open()), ...], the parts of one run (passk.formats.read_files), as one report.

    check(problems), when given, may refuse them once read, before anything is computed; beside: what to
    compute beside pass@k (maj@k is computed whenever the problems carry votes, within LIMITS.vote_work when
    limited).
    """
    def summary(problems: list[Problem], warnings: Sequence[str] = ()) -> Summary:
        return summarize(problems, ks, warnings=warnings, tau=beside.tau, tie=beside.tie,
                         vote_work=LIMITS.vote_work if limited else None,
                         tail_work=LIMITS.tail_work if limited else None,
                         score_work=LIMITS.score_work if limited else None,
                         variance_terms=LIMITS.variance_terms if limited else None)

    def read(fmt: str | None, suite: str) -> Parsed:
        return read_files([(name, open_source()) for name, open_source in files], fmt=fmt, suite=suite,
                          **_bounds(limited))
    parsed = read(fmt, suite)
    if limited:
        check_cells(len(parsed.problems), ks)
        check_distinct(distinct_pairs(parsed.problems), ks)
    if check:
        check(parsed.problems)
    report = Report(summary(parsed.problems, parsed.warnings), parsed.format,
                    source_name=_source_name([name for name, _ in files]),
                    source=parsed.source, combined=parsed.combined,
                    plan_work=LIMITS.plan_work if limited else None)
    if suite_chosen and parsed.format not in SUITED:
        report.summary.warnings.append(suite_ignored([(None, parsed.format)]))
    if parsed.format == "evalplus":
        report.suite = suite
        for other in SUITES:
            if other != suite:
                try:
                    again = read("evalplus", other)
                except FormatError:  # a --base-only run has no plus results: show base alone
                    report.summary.warnings.append(f"The EvalPlus {other} suite is not in this file, so only "
                                                   f"{suite} is shown.")
                    continue
                report.other_suites[other] = summary(again.problems)
    return report


def _source_name(names: Sequence[str | None]) -> str | None:
    """What the results are from, for the page: a file's name, the first and how many more, or None (pasted)."""
    if not names or names[0] is None:
        return None
    first = printable(names[0], SOURCE_NAME_LIMIT)
    return first if len(names) == 1 else f"{first} and {len(names) - 1:,} more files"


def report_from_share(counts: str | None, z: str | None, ks: Sequence[int], suite: str | None = None,
                      beside: Beside = Beside()) -> Report:
    """The report a share link describes, within the limits; its problems have no names (empty task ids), as the
    link carries counts only, so notes name none and the per-problem table shows a dash."""
    pairs = decode_counts(counts, z)
    check_cells(len(pairs), ks)
    check_distinct(len(set(pairs)), ks)
    problems = [Problem("", n, c) for n, c in pairs]
    return Report(summarize(problems, ks, tau=beside.tau, tail_work=LIMITS.tail_work,
                            variance_terms=LIMITS.variance_terms), "share link",
                  suite=suite if suite in SUITES else None, plan_work=LIMITS.plan_work)


def report_from_packed(packed: Mapping[str, str | None], ks: Sequence[int], fmt: str, name: str,
                       suite: str | None = None, beside: Beside = Beside()) -> Report:
    """Recalculate an upload from its packed counts (Report.packed) for new ks or suite, within the limits.

    packed: suite -> pack_counts' text, under "" for a format without suites; fmt: the format it was read as;
    name: what it was called; suite: the suite chosen, None for the default (plus). MissingCounts when the
    suite's counts are not there, DamagedCounts when they do not unpack. The counts carry no votes: maj@k needs
    the file again.
    """
    if fmt != "evalplus":
        report = _report_from_packed(packed.get(""), ks, fmt, name, beside)
        if suite:
            report.summary.warnings.append(suite_ignored([(None, fmt)]) if fmt not in SUITED else (
                f"The counts carried from the upload are those of the run read then; choosing {SUITED[fmt]} of a "
                f"{_format_label(fmt)} file needs the file again: upload it with that choice."))
        return report
    chosen = suite or "plus"
    present = [other for other in SUITES if packed.get(other)]
    if present and chosen not in present:
        raise FormatError(f"{name} has no EvalPlus {chosen} results; choose the {present[0]} suite.")
    report = _report_from_packed(packed.get(chosen), ks, fmt, name, beside)
    report.suite = chosen
    for other in SUITES:
        if other == chosen:
            continue
        if packed.get(other):
            report.other_suites[other] = _report_from_packed(packed[other], ks, fmt, name, beside).summary
        else:
            report.summary.warnings.append(f"The EvalPlus {other} suite is not in this file, so only "
                                           f"{chosen} is shown.")
    return report


def _report_from_packed(packed: str | None, ks: Sequence[int], fmt: str, name: str, beside: Beside) -> Report:
    """The report of one suite's packed counts, named after the file they came from."""
    if not packed:
        raise MissingCounts("The packed counts are missing.")
    data = unpack_counts(packed)
    report = report_from_upload(lambda: io.BytesIO(data), ks, fmt="csv", limited=True, beside=beside)
    report.format, report.source_name, report.source = fmt, name, source_of(fmt)
    return report


def counts_csv(problems: Iterable[ProblemCounts]) -> str:
    """task_id,n,c lines: what the download form posts back, ids kept."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["task_id", "n", "c"])
    writer.writerows((problem.task_id, problem.n, problem.c) for problem in problems)
    return out.getvalue()


def pack_counts(problems: Iterable[ProblemCounts], limit: int = LIMITS.text_bytes) -> str | None:
    """counts_csv deflated and base64url-encoded, for the page's download form; None if over limit characters."""
    packed = base64.urlsafe_b64encode(zlib.compress(counts_csv(problems).encode("utf-8"))).decode("ascii")
    return packed if len(packed) <= limit else None


def unpack_counts(packed: str) -> bytes:
    """The task_id,n,c text inside pack_counts' answer, as bytes; DamagedCounts when it is damaged."""
    counts: bytes | None
    try:
        inflater = zlib.decompressobj()
        longest = LIMITS.problems * (4 * LIMITS.task_id_chars + 64)   # every problem's row, at its longest
        counts = inflater.decompress(base64.urlsafe_b64decode(packed), longest)
    except (binascii.Error, zlib.error, ValueError):
        counts = None   # (and inflater, read only when counts is not None, goes unused)
    if counts is None or inflater.unconsumed_tail or not inflater.eof:
        raise DamagedCounts("The packed counts are damaged.")
    return counts


def report_from_download(packed: str | None, counts: str, ks: Sequence[int], fmt: str = "csv") -> Report:
    """The report to download: packed counts (pack_counts; DamagedCounts when damaged), else task_id,n,c text,
    as a report of results read as fmt.

    LimitError, before any pass@k is computed, when its download would pass LIMITS.download_bytes.
    """
    data = unpack_counts(packed) if packed else counts.encode("utf-8", "surrogatepass")
    report = report_from_files([(None, lambda: io.BytesIO(data))], ks, fmt="csv", limited=True,
                               check=lambda problems: check_download(problems, ks))
    return replace(report, format=fmt)


DOWNLOAD_ROW_BYTES = 110     # a JSON row's keys, n, c and status, beside its task id
DOWNLOAD_VALUE_BYTES = 26    # one value and its separators, beside its k: pass@k and pass^k for each k


def download_bytes(problems: Sequence[ProblemCounts], ks: Iterable[int]) -> int:
    """About how many bytes the JSON download of these problems takes (the CSV takes fewer)."""
    ids = sum(map(len, map(json.dumps, map(attrgetter("task_id"), problems))))
    values = 2 * sum(DOWNLOAD_VALUE_BYTES + len(str(k)) for k in ks)
    return ids + len(problems) * (DOWNLOAD_ROW_BYTES + values)


def check_download(problems: Sequence[ProblemCounts], ks: Iterable[int]) -> None:
    """LimitError naming the limit when the download of these problems would pass LIMITS.download_bytes."""
    estimate = download_bytes(problems, ks)
    if estimate > LIMITS.download_bytes:
        raise LimitError(download_too_large(estimate))


def per_problem_csv(summary: Summary) -> str:
    """The per-problem table as CSV: task_id, n, c, status, then pass@k for each k and pass^k for each k."""
    return "".join(per_problem_csv_chunks(summary))


def per_problem_csv_chunks(summary: Summary, rows: int = ROWS_PER_CHUNK) -> Iterator[str]:
    """per_problem_csv in pieces of `rows` problems each, for a download that streams."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    problem_columns, per_k_columns = shown_in(CSV, PROBLEM_COLUMNS), shown_in(CSV, PER_K_COLUMNS)
    writer.writerow([*(column.header for column in problem_columns),
                     *(column.heading_at(k) for column in per_k_columns for k in summary.ks)])
    notation = NOTATIONS[CSV]
    fixed = [(column.name, column.format) for column in problem_columns]
    per_k = [(column.name, str(k), column.format) for column in per_k_columns for k in summary.ks]
    for start in range(0, len(summary.problems), rows):
        for row in per_problem_rows(summary, stop=start + rows, start=start):
            writer.writerow([write(row[name], notation) for name, write in fixed] +
                            [write(row[name][k], notation) for name, k, write in per_k])
        yield out.getvalue()
        out.seek(0)
        out.truncate()


def json_chunks(report: Report, rows: int = ROWS_PER_CHUNK) -> Iterator[str]:
    """report.to_json() as JSON text in pieces: the per_problem list `rows` problems at a time."""
    body = report.to_json(per_problem=False)
    for index, (key, value) in enumerate(body.items()):
        yield ("{" if index == 0 else ", ") + json.dumps(key) + ": "
        if key != "per_problem":
            yield json.dumps(value)
            continue
        yield "["
        for start in range(0, len(report.summary.problems), rows):
            yield ("" if start == 0 else ", ") + ", ".join(
                map(json.dumps, per_problem_rows(report.summary, stop=start + rows, start=start)))
        yield "]"
    yield "}"


def compare_uploads(open_a: Opener, open_b: Opener, ks: Sequence[int], fmt: str | None = None, suite: str = "plus",
                    filenames: tuple[str | None, str | None] = (None, None), limited: Limited = False,
                    suite_chosen: bool = False) -> tuple[Comparison, list[str]]:
    """Read two runs (each open_x() a binary stream) and pair them by task id; see report_from_upload."""
    runs: list[Parsed] = []
    for label, open_source, filename in (("A", open_a, filenames[0]), ("B", open_b, filenames[1])):
        try:
            runs.append(read_files([(filename, open_source())], fmt=fmt, suite=suite, **_bounds(limited)))
            if limited:
                check_cells(len(runs[-1].problems), ks)
        except ValueError as error:
            labelled = type(error)(f"Run {label}: {error}")
            # so that an interface can put an empty run in its own words (read with getattr: error's class,
            # any ValueError, declares no such attribute)
            setattr(labelled, "run", label)
            raise labelled from None
    paired = PairedRun(runs[0].problems, "A"), PairedRun(runs[1].problems, "B")
    if limited:   # the ids only one run has, which the answer lists, counted before anything is compared
        registry: dict[str, int] = {}
        codes = [run.coded(registry).codes for run in paired]
        check_listed_ids(listed_id_bytes(list(registry), codes))
    comparison = compare_runs(*paired, ks)
    unnamed = [label for label, run in zip("AB", runs) if by_position(run)]
    if unnamed:
        comparison.warnings.append(paired_by_line(unnamed, pair=True))
    ignored = [(f"run {label}", run.format) for label, run in zip("AB", runs) if run.format not in SUITED]
    if suite_chosen and ignored:
        comparison.warnings.append(suite_ignored(ignored))
    return comparison, [run.format for run in runs]


def rank_uploads(files: Sequence[tuple[str | None, Opener]], ks: Sequence[int], fmt: str | None = None,
                 suite: str = "plus", names: Sequence[str | None] = (), limited: Limited = False,
                 suite_chosen: bool = False) -> tuple[Ranking, list[str]]:
    """Read several runs, [(file name or None, open())] each a whole run, and rank them (passk.results.ranking).

    names: a name per run, in the same order; a run without one is named after its file, else "run i".
    Returns (Ranking, [format of each run]).
    """
    names = list(names) + [None] * (len(files) - len(names))
    labels = distinct_names([printable(given, SOURCE_NAME_LIMIT) if (given := name or filename) else None
                             for name, (filename, _) in zip(names, files)])
    runs: list[Parsed] = []
    for label, (filename, open_source) in zip(labels, files):
        try:
            runs.append(read_files([(filename, open_source())], fmt=fmt, suite=suite, **_bounds(limited)))
        except EmptyInput:
            raise FormatError(f"{_run_called(label)} is empty: no problems were found in it.") from None
        except ValueError as error:
            raise type(error)(f"{_run_called(label)}: {error}") from None
    if limited:
        check_cells(sum(len(run.problems) for run in runs), ks)
    ranking = rank_runs([(label, run.problems) for label, run in zip(labels, runs)], ks, limited=bool(limited))
    unnamed = [label for label, run in zip(labels, runs) if by_position(run)]
    if unnamed:
        ranking.warnings.append(paired_by_line(unnamed))
    ignored = [(f"run {label}", run.format) for label, run in zip(labels, runs) if run.format not in SUITED]
    if suite_chosen and ignored:
        ranking.warnings.append(suite_ignored(ignored))
    return ranking, [run.format for run in runs]


def paired_by_line(runs: Sequence[str], pair: bool = False) -> str:
    """The warning for the runs without task ids, whose problems are paired by line order: runs are "A" and "B" of
    a pair (pair=True: "Runs A and B"), else ranked runs' names ("Run a.jsonl and Run b.jsonl")."""
    named = (f"{'Run' if len(runs) == 1 else 'Runs'} {' and '.join(runs)}" if pair
             else _and(list(map(_run_called, runs))))
    return (f"{named} had no task ids, so the problems were named problem 1, 2, … by line and paired by line order; "
            "inputs with task ids (task_id,n,c lines or harness files) pair them safely.")


def _run_called(label: str) -> str:
    """How a sentence names a run: "Run a.jsonl", and "Run A" for a run the page already calls "Run A"."""
    return label if label.startswith("Run ") else f"Run {label}"


def _and(names: Sequence[str]) -> str:
    """"x", "x and y", "x, y and z"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
