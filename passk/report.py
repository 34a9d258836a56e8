"""A benchmark report: input in, summaries out, for the page, the API and downloads.

The page, `POST /api/v1/benchmark`, the downloads and the command line all get
their numbers from `benchmark.summarize`; this module only chooses the input
and, for EvalPlus, reads both suites.
"""

import csv
import io
from dataclasses import dataclass, field

from passk.benchmark import compare, summarize
from passk.formats import SUITES, FormatError, Problem, read_problems
from passk.sharing import decode_counts, encode_counts

NO_INPUT = "Paste results into the box or choose a file to upload; both are empty."


@dataclass
class Report:
    """The summary of the chosen suite and, for EvalPlus, of the other one."""

    summary: object
    format: str
    suite: str | None = None
    other_suites: dict = field(default_factory=dict)   # suite name -> Summary

    def to_json(self):
        """The POST /api/v1/benchmark answer; EvalPlus answers also say which suite."""
        body = self.summary.to_json(self.format)
        if self.suite and self.format == "evalplus":
            body["suite"] = self.suite
        return body

    def share_params(self, ks):
        """Query parameters of a link that reproduces these numbers."""
        params = encode_counts(self.summary.problems)
        params["k"] = ",".join(str(k) for k in ks)
        if self.suite:
            params["suite"] = self.suite
        return params


def report_from_upload(open_source, ks, fmt=None, suite="plus", filename=None):
    """Read a file or pasted text; open_source() gives a fresh binary stream each call."""
    parsed = read_problems(open_source(), fmt=fmt, suite=suite, filename=filename)
    report = Report(summarize(parsed.problems, ks, warnings=parsed.warnings), parsed.format)
    if parsed.format == "evalplus":
        report.suite = suite
        for other in SUITES:
            if other != suite:
                try:
                    again = read_problems(open_source(), fmt="evalplus", suite=other)
                except FormatError:  # a --base-only run has no plus results: show base alone
                    report.summary.warnings.append(f"The EvalPlus {other} suite is not in this file, so only "
                                                   f"{suite} is shown.")
                    continue
                report.other_suites[other] = summarize(again.problems, ks)
    return report


def report_from_share(counts, z, ks, suite=None):
    """The report a share link describes; task ids become problem 1, 2, …"""
    pairs = decode_counts(counts, z)
    problems = [Problem(f"problem {index}", n, c) for index, (n, c) in enumerate(pairs, start=1)]
    report = Report(summarize(problems, ks), "share link")
    report.suite = suite if suite in SUITES else None
    return report


def counts_csv(problems):
    """task_id,n,c lines: what the download form posts back, ids kept."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["task_id", "n", "c"])
    writer.writerows((problem.task_id, problem.n, problem.c) for problem in problems)
    return out.getvalue()


def per_problem_csv(summary):
    """The per-problem table as CSV: task_id, n, c, status, pass@k for each k."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["task_id", "n", "c", "status", *(f"pass@{k}" for k in summary.ks)])
    for row in summary.per_problem:
        values = [row["pass_at_k"][str(k)] for k in summary.ks]
        writer.writerow([_safe_cell(row["task_id"]), row["n"], row["c"], row["status"],
                         *("" if value is None else repr(value) for value in values)])
    return out.getvalue()


def _safe_cell(text):
    """Keep spreadsheet programs from running a task id as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def compare_uploads(open_a, open_b, ks, fmt=None, suite="plus", filenames=(None, None)):
    """Read two runs (each open_x() a binary stream) and pair them by task id."""
    runs = []
    for label, open_source, filename in (("A", open_a, filenames[0]), ("B", open_b, filenames[1])):
        try:
            runs.append(read_problems(open_source(), fmt=fmt, suite=suite, filename=filename))
        except FormatError as error:
            raise FormatError(f"Run {label}: {error}") from None
    return compare(runs[0].problems, runs[1].problems, ks), [run.format for run in runs]
