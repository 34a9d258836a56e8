"""Command line: passk FILE... [-k 1,10,100] [--suite base|plus] [--input-format LAYOUT] [-o FORMAT].

`passk --runs FILE FILE...` ranks several runs, each FILE one run of its own (passk.results.ranking), and `passk --runs FILE`
the models of one eval-arena file of several, with no limit on their number;
with `--detect POINTS` it also plans, for the top two runs at each k, what it takes to find that difference;
`passk --runs A B --curve` compares two runs' pass@k over k = 1 ... n (passk.results.curves), and
`passk --runs BASELINE NEW --fail-if-worse [K]` exits with status 1 when NEW is significantly worse at pass@K.
Without -k, the default ks (1, 10, 100) are kept only where every problem has that many samples; a k asked for with -k
that is undefined (some problem has fewer samples) is answered, with why, and the exit status is 3.
`passk output-rs*.jsonl [--tie wrong]` adds maj@k from NeMo-Skills' extracted answers (passk.results.metrics), and
`--tau T` G-Pass@k_T with mG-Pass@k, to the table and the JSON; `--bayes` adds Bayes@N (passk.maths.bayes) to the tables,
which the JSON always holds.

Also run as ``python -m passk``. Standard output holds only the answer, in the format -o chooses (passk.writing.output:
the terminal's table, CSV or TSV for scripts, the API's JSON, or Markdown or LaTeX for a paper); warnings and
errors go to standard error, each line starting "passk:". Ctrl-C stops it with status 130 and one line, no
traceback; a reader that stops early (`passk FILE | head -1`) ends the answer quietly.
"""

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from passk import __version__
from passk.maths.estimator import DEFAULT_KS
from passk.formats import FORMATS, SUITES
from passk.maths.gpass import threshold
from passk.limits import LIMITS
from passk.maths.majority import TIES
from passk.writing.output import FORMATS as OUTPUT_FORMATS

EXIT_STATUS = """exit status:
  0  the answer was printed; a difference between runs never changes this,
     unless --fail-if-worse asks
  1  only with --fail-if-worse: NEW is significantly worse than BASELINE at
     pass@K by the pair table's own test (p (Holm) below 5%, so the two runs
     get different group letters); one line on standard error says so
  2  bad input: a file that cannot be read or holds no results, a bad k,
     options that do not go together, or a --fail-if-worse k at which the
     runs cannot be compared; one line on standard error says what
  3  a k given with -k is undefined (some problem, of some run, has fewer
     than k samples): the answer is printed, each such k with why; the
     default ks leave such a k out instead, saying so (with --fail-if-worse,
     its status stands)
130  interrupted (Ctrl-C)"""

INTERRUPTED = 130   # 128 + SIGINT, as a shell reports a program that Ctrl-C stopped
READER_GONE = 141   # 128 + SIGPIPE: standard output's (or standard error's) reader went away mid-way


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on standard error, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"passk: {message} (see passk --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="passk", epilog=EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="pass@k with error bars from a benchmark harness's output file (human-eval\n"
                    "JSONL, EvalPlus, LiveCodeBench, CSV/JSON counts or pasted lines). Standard output\n"
                    "holds only the answer; warnings, notes and errors go to standard error, each\n"
                    "line starting \"passk:\". `passk export-html DIR` writes the single-problem calculator\n"
                    "as a static folder for a docs site (see passk export-html --help); `passk serve` runs the\n"
                    "website from the installed package (passk-calculator[web]; see passk serve --help).")
    parser.add_argument("--version", action="version", version=f"passk {__version__}")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="the results file; - reads standard input; several files that are parts of one run "
                             "(MultiPL-E's per-problem files, repeated SWE-bench runs) combine by task id")
    parser.add_argument("--runs", action="store_true",
                        help="each FILE is a whole run of its own: rank the runs per k, compare every pair on "
                             "their shared problems (p-values Holm-adjusted) and group those that cannot be "
                             "told apart at 5%%")
    parser.add_argument("-k", default=None,
                        help=f"comma-separated budgets k, or ranges like 1-8 (default: "
                             f"{','.join(map(str, DEFAULT_KS))}, less those larger than the fewest samples of a "
                             "problem; a k given here that some problem cannot answer is shown undefined, with exit "
                             "status 3); with --curve, the curve's ks, such as 1-128")
    parser.add_argument("--suite", default=None,
                        help=f"EvalPlus suite: {' or '.join(SUITES)}, base tests only or base and plus (default: "
                             "plus); for a file of several runs, the run: an lm-eval filter (default: the first)")
    parser.add_argument("--input-format", "--format", dest="format", metavar="LAYOUT", type=_layout, choices=FORMATS,
                        default=None,
                        help=f"the layout of the FILEs: {', '.join(FORMATS)} (default: detected from their "
                             "content); --format is its old name, still taken")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("-o", "--output-format", dest="output", metavar="FORMAT", choices=OUTPUT_FORMATS,
                        help="what standard output holds: table (the default, for people), csv or tsv (for "
                             "scripts: the JSON's keys as the header row, fractions with every digit, tables "
                             "parted by an empty line), json (the API's answer), markdown or latex (a paper's "
                             "tables, with the table's numbers)")
    output.add_argument("--json", dest="output", action="store_const", const="json", help="same as -o json")
    output.add_argument("--markdown", dest="output", action="store_const", const="markdown",
                        help="same as -o markdown")
    output.add_argument("--latex", dest="output", action="store_const", const="latex", help="same as -o latex")
    parser.set_defaults(output="table")
    parser.add_argument("--majority", action="store_true",
                        help="insist on maj@k, the majority vote over the samples' extracted answers, averaged over "
                             "every k-subset (beside NeMo-Skills' vote over the first k seeds): an error when the "
                             "files have no answers; files with answers (NeMo-Skills output-rs<seed>.jsonl) get it "
                             "without asking")
    parser.add_argument("--tie", choices=TIES, default=TIES[0],
                        help="a tied maj@k vote: fractional (default; it earns the share of the tied answers "
                             "that are correct, as NeMo-Skills counts it) or wrong (it scores 0)")
    parser.add_argument("--tau", metavar="T", type=_tau,
                        help="also print G-Pass@k_T, the chance that at least ceil(T k) of k drawn samples pass "
                             "(Liu et al. 2024), and mG-Pass@k, beside pass@k for each k; T from 0 to 1 (0 gives "
                             "pass@k)")
    parser.add_argument("--bayes", action="store_true",
                        help="also print Bayes@N (Hariri et al. 2025): the posterior mean of the pass rate under a "
                             "uniform prior, its posterior SD and 95%% credible interval, as a table in every "
                             "output format (the JSON always holds it, as \"bayes\")")
    parser.add_argument("--curve", action="store_true",
                        help="with --runs and two FILEs: pass@k of both runs over k = 1 ... n (log-spaced ks when n "
                             "is large), A - B with a 95%% band simultaneous over the ks shown, where the leading "
                             "run's lead stops being significant, where the curves cross, where A is significantly "
                             "ahead, behind or undecided, and a 95%% confidence set for the first k where A loses "
                             f"(-k chooses the curve's ks, up to {LIMITS.curve_ks:,}, such as 1-128; else they are "
                             "chosen for it)")
    parser.add_argument("--fail-if-worse", metavar="K", nargs="?", const=1, type=_gate_k,
                        help="with --runs BASELINE NEW: exit with status 1 when NEW is significantly worse than "
                             "BASELINE at pass@K (default K: 1; K must be one of -k's), by the pair table's own "
                             "test; without it a difference never changes the exit status")
    planning = parser.add_argument_group("planning")
    planning.add_argument("--detect", metavar="POINTS", type=_planning_option("difference"),
                          help="with --runs: a difference in percentage points to plan for, for the top two runs "
                               "at each k: the paired problems and the samples per problem in each run that would "
                               "find it 4 times in 5 (p < 0.05), and the least more samples alone can reach; "
                               "printed after the ranking, and under \"planner\" with --json")
    planning.add_argument("--plan", action="store_true",
                          help="a single run: after the table, what more samples or more problems would buy "
                               "(where the noise comes from, and what brings the 95 percent interval under "
                               "--target); --target, --tokens-per-sample and --price-per-million ask for it too")
    planning.add_argument("--target", metavar="POINTS", type=_planning_option("target"),
                          help="the 95 percent half-width a single run's plan aims for, in percentage points "
                               "(default: 1)")
    planning.add_argument("--tokens-per-sample", metavar="TOKENS", type=_planning_option("tokens_per_sample"),
                          help="tokens one sample takes: --detect's plan then says how many tokens the extra "
                               "samples take and, with --price-per-million, what they cost")
    planning.add_argument("--price-per-million", metavar="PRICE", type=_planning_option("price_per_million"),
                          help="the price of a million tokens: with --tokens-per-sample, the plans (a single "
                               "run's, or --detect's) say what the extra samples cost")
    return parser


def _planning_option(name: str) -> Callable[[str], float]:
    """An argparse type for the planning field `name` (passk.results.planner.OPTIONS): the web form's sentence on error."""
    def parse(text: str) -> float:
        from passk.results.planner import option_value   # here: the planner imports scipy
        try:
            return option_value(name, text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = name
    return parse


def _layout(text: str) -> str:
    """An argparse type for --input-format: a layout's name; an output format's name is sent to -o."""
    if text not in FORMATS and text in OUTPUT_FORMATS:
        raise argparse.ArgumentTypeError(f"{text} is an output format, and --format/--input-format names the "
                                         f"input's layout: for {text} output give -o {text}")
    return text


def _gate_k(text: str) -> int:
    """An argparse type for --fail-if-worse's k: a whole number >= 1, or pass@K."""
    k = text.removeprefix("pass@")
    if not k.isdigit() or int(k) < 1:
        raise argparse.ArgumentTypeError(f"its k is a whole number of at least 1; got {text!r} (give the FILEs "
                                         "before --fail-if-worse, or write --fail-if-worse=1)")
    return int(k)


def _tau(text: str) -> float:
    """An argparse type for --tau: a share in [0, 1]."""
    try:
        tau = float(text)
        threshold(1, tau)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error) if "tau" in str(error) else
                                         f"tau must be a number from 0 to 1; got {text!r}.") from None
    return tau


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status. stderr (default sys.stderr) gets warnings,
    errors and, when it is a terminal, the progress bar. The arguments are read before passk.cli, and with it
    numpy's and scipy's computing, is imported: `passk --version` and `passk --help` need none of it."""
    stderr = stderr or sys.stderr
    try:
        return _main(sys.argv[1:] if argv is None else list(argv), stderr)
    except KeyboardInterrupt:   # Ctrl-C: a quiet stop (the progress bar is wiped as the files close)
        _said("passk: interrupted\n", stderr)
        return INTERRUPTED
    except BrokenPipeError:   # a reader gone (standard error's too): nobody is left to tell
        _silenced()
        return READER_GONE


def _main(argv: list[str], stderr: TextIO) -> int:
    if argv[:1] == ["export-html"]:   # a command of its own, with its own arguments (passk.export)
        from passk import export
        return export.main(argv[1:], sys.stdout, stderr)
    if argv[:1] == ["serve"]:   # the website from the installed package (passk.serve)
        from passk import serve
        return serve.main(argv[1:], sys.stdout, stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    from passk import cli
    return cli.run(parser, args, stderr)


def _said(text: str, stream: TextIO) -> None:
    """Write text to stream, saying nothing when the stream is gone."""
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


def _silenced() -> None:
    """Point standard output and standard error at os.devnull, so that flushing them at exit raises nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):   # a stream with no descriptor (a test's StringIO)
            pass


if __name__ == "__main__":
    sys.exit(main())
