"""Command line: python -m passk FILE [-k 1,10,100] [--suite base|plus] [--format F] [--json]."""

import argparse
import json
import sys

from passk.benchmark import DEFAULT_KS, parse_ks, summarize
from passk.display import percent
from passk.formats import FORMATS, SUITES, FormatError, read_problems


def build_parser():
    parser = argparse.ArgumentParser(
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


def read(path, fmt, suite):
    """Parse FILE (or standard input for '-') into problems."""
    if path == "-":
        return read_problems(sys.stdin.buffer, fmt=fmt, suite=suite)
    try:
        with open(path, "rb") as stream:
            return read_problems(stream, fmt=fmt, suite=suite, filename=path)
    except OSError as error:
        raise FormatError(f"Cannot read {path}: {error.strerror or error}.") from None


def table(summary, format_name):
    """The summary as lines of text for a terminal."""
    ns = f"n = {summary.min_n:,}" if summary.min_n == summary.max_n else \
        f"n from {summary.min_n:,} to {summary.max_n:,}"
    lines = [f"{len(summary.problems):,} problems, {summary.samples:,} samples ({ns}), format {format_name}",
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
        ks = parse_ks(args.k)
        parsed = read(args.file, args.format, args.suite)
        summary = summarize(parsed.problems, ks, warnings=parsed.warnings)
    except (FormatError, ValueError) as error:
        print(f"passk: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary.to_json(parsed.format), indent=2))
    else:
        print(table(summary, parsed.format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
