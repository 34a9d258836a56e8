"""Command line: python -m passk FILE [-k 1,10,100] [--suite base|plus] [--format F] [--json]."""

import argparse
import io
import json
import sys

from passk.benchmark import DEFAULT_KS, parse_ks
from passk.display import percent, plural
from passk.formats import FORMATS, SUITES, FormatError
from passk.report import report_from_upload


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on standard error, like every other error."""

    def error(self, message):
        self.exit(2, f"passk: {message} (see python -m passk --help)\n")


def build_parser():
    parser = _OneLineParser(
        prog="python -m passk",
        description="pass@k with error bars from a benchmark harness's output file "
                    "(human-eval JSONL, EvalPlus, LiveCodeBench, CSV/JSON counts or pasted lines).")
    parser.add_argument("file", help="the results file; - reads standard input")
    parser.add_argument("-k", default=",".join(map(str, DEFAULT_KS)),
                        help="comma-separated budgets k (default: %(default)s)")
    parser.add_argument("--suite", choices=SUITES, default="plus",
                        help="EvalPlus suite: base tests only, or base and plus (default: %(default)s)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="the file's format (default: detected from its content)")
    parser.add_argument("--json", action="store_true", help="print the JSON API's answer instead of a table")
    return parser


def read(path, ks, fmt, suite):
    """The report for FILE (or standard input for '-'), as the benchmark page makes it."""
    if path == "-":
        data = sys.stdin.buffer.read()  # read once: EvalPlus files are read again for the other suite
        return report_from_upload(lambda: io.BytesIO(data), ks, fmt, suite)
    try:
        with open(path, "rb") as stream:
            def reopen():
                stream.seek(0)
                return stream
            return report_from_upload(reopen, ks, fmt, suite, filename=path)
    except OSError as error:
        raise FormatError(f"Cannot read {path}: {error.strerror or error}.") from None


def table(summary, format_name):
    """The summary as lines of text for a terminal."""
    ns = f"n = {summary.min_n:,}" if summary.min_n == summary.max_n else \
        f"n from {summary.min_n:,} to {summary.max_n:,}"
    lines = [f"{plural(len(summary.problems), 'problem')}, {plural(summary.samples, 'sample')} ({ns}), "
             f"format {format_name}",
             f"{summary.broken:,} broken (c = 0) · {summary.flaky:,} flaky · {summary.solid:,} solid (c = n)",
             "",
             f"{'k':>7}  {'pass@k':>10}  {'± SE':>9}  {'95% interval':>21}  {'SE fixed':>9}"]
    for row in summary.results:
        if row.pass_at_k is None:
            lines.append(f"{row.k:>7}  {row.reason}")
            continue
        interval = f"[{percent(row.ci95[0])}, {percent(row.ci95[1])}]" if row.ci95 else "—"
        lines.append(f"{row.k:>7}  {percent(row.pass_at_k):>10}  {percent(row.se):>9}  "
                     f"{interval:>21}  {percent(row.se_fixed):>9}")
        if row.reason:
            lines.append(f"{'':>7}  note: {row.reason}")
    lines += [f"warning: {warning}" for warning in summary.warnings]
    return "\n".join(lines)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        report = read(args.file, parse_ks(args.k), args.format, args.suite)
    except (FormatError, ValueError) as error:
        print(f"passk: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0
    print(table(report.summary, report.format + (f", EvalPlus {report.suite} suite" if report.suite else "")))
    for suite, other in report.other_suites.items():
        print(f"\nEvalPlus {suite} suite:")
        print("\n".join(table(other, report.format).splitlines()[3:]))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stderr.close()
        sys.exit(0)
