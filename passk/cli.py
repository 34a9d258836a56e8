"""The command line's work (passk.__main__ reads the arguments, then calls run): reading the FILEs, the
terminal's tables and the JSON (the other output formats: passk.writing.output), rankings, plans, the curves over k and
the exit status (--fail-if-worse's, and 3 for a k asked for that is undefined).

The terminal's answer fits the terminal's width (80 columns when standard output is not a terminal): a table
wider than that is written a row at a time as "heading: value" items, and a longer sentence is wrapped."""

import argparse
import contextlib
import io
import json
import os
import shutil
import stat
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from passk import __version__
from passk.results.benchmark import KResult, Summary, compare, parse_ks
from passk.writing.columns import (LATEX, CURVE_COLUMNS, G_PASS_COLUMNS, MAJORITY_COLUMNS, PAIR_COLUMNS, RANK_COLUMNS,
                                   RESULT_COLUMNS, TERMINAL, Column, cells, headings)
from passk.writing.columns import AVERAGE_COLUMNS, GRADED_COLUMNS
from passk.writing.columns import BAYES_COLUMNS
from passk.results.curves import METHOD, curves_of
from passk.writing.display import p_value, points as in_points
from passk.grammar import plural
from passk.maths.estimator import DEFAULT_KS
from passk.formats import FORMAT_NAMES, EmptyInput, FormatError, Problem
from passk.formats import evalarena, read_files
from passk.formats.evalarena import SeveralModels
from passk.limits import LIMITS
from passk.results.metrics import Beside, Estimate, GPassRow, MajorityRow
from passk.results.metrics import AverageRow, GradedRow
from passk.writing.output import JSON, TABLE, WRITTEN, Table, curve_tables, ranking_tables, report_tables, written
from passk.writing.paper import suites
from passk.writing.answers import to_json
from passk.writing.sentences import crossover_sentences, sizes, statuses
from passk.results.planner import DEFAULT_TARGET, PairPlan, points, top_pair_plan
from passk.results.ranking import ALPHA, Ranking, rank_runs
from passk.writing.report import Opener, Report, rank_uploads, report_from_files

STDIN = "-"
CHUNK = 1 << 20     # bytes read at a time where the reader asks for everything, so the bar moves
UNDEFINED_K = 3     # the exit status when a k given with -k is undefined (passk.__main__.EXIT_STATUS)
NARROWEST = 40      # columns the terminal's answer is fitted to at the least, however narrow the terminal


def terminal_width() -> int:
    """The columns the terminal's answer may take: the terminal's (standard output's, or $COLUMNS), 80 when
    standard output is not a terminal, at least NARROWEST."""
    return max(shutil.get_terminal_size((80, 24)).columns, NARROWEST)


@dataclass
class DefaultKs:
    """The ks when -k is not given: DEFAULT_KS, less those larger than the fewest samples a problem has (pass@k
    needs k samples of every problem), once the problems are read; left_out holds those left out."""

    ks: list[int] = field(default_factory=lambda: list(DEFAULT_KS))
    left_out: list[int] = field(default_factory=list)
    fewest: int = 0   # the fewest samples a problem has, once narrowed

    def narrow(self, fewest: int, keep: Iterable[int] = ()) -> None:
        """Leave out, in place, the ks above fewest samples (but those in keep, and always the first)."""
        kept = [k for index, k in enumerate(self.ks) if k <= fewest or k in keep or index == 0]
        self.left_out = [k for k in self.ks if k not in kept]
        self.ks[:] = kept
        self.fewest = fewest

    def check(self, problems: Sequence[Problem]) -> None:
        """passk.writing.report.report_from_files' check: narrow the ks before anything is computed with them."""
        self.narrow(min((problem.n for problem in problems), default=0))

    def note(self) -> str | None:
        """The line for standard error that says which default ks were left out and why (None: none was)."""
        if not self.left_out:
            return None
        named = " and ".join([", ".join(f"{k:,}" for k in self.left_out[:-1]), f"{self.left_out[-1]:,}"]
                             if len(self.left_out) > 1 else [f"{self.left_out[0]:,}"])
        return (f"note: k = {named} left out of the default ks ({', '.join(map(str, DEFAULT_KS))}): pass@k needs "
                f"k samples of every problem, and the fewest here is {self.fewest:,}; -k chooses the ks.")


def fitted(text: str, width: int | None) -> str:
    """text with each line longer than width wrapped at its spaces, the continuation indented two more than the
    line (None: as it is). A word longer than width (a long path) stays whole."""
    if width is None:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "  ",
                               break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


class Progress:
    """A binary file being read, drawn on a terminal as a bar of the bytes read out of its size.

    Draws nothing for a read that ends within `delay` seconds, then at most
    once every `interval` seconds; clear() wipes the bar's line.
    """

    delay = 0.5
    interval = 0.1
    width = 24      # characters of the bar itself
    columns = 79    # of the whole line, which must not wrap: "\r" goes back only to the start of its last row

    def __init__(self, stream: BinaryIO, size: int, label: str, terminal: TextIO,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.size, self.label, self.terminal, self.clock = stream, size, label, terminal, clock
        self.position = 0
        self.next_draw = clock() + self.delay
        self.drawn = 0  # characters on the terminal's line now

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:  # all of it, in pieces so that the bar moves meanwhile
            return b"".join(iter(lambda: self.read(CHUNK), b""))
        return self._count(self.stream.read(size))

    def readline(self, size: int = -1) -> bytes:
        return self._count(self.stream.readline(size))

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = self.stream.seek(offset, whence)
        return self.position

    def __getattr__(self, name: str) -> Any:  # anything else (closed, name, ...) is the file's own
        return getattr(self.stream, name)

    def _count(self, data: bytes) -> bytes:
        self.position += len(data)
        now = self.clock()
        if now >= self.next_draw:
            self.next_draw = now + self.interval
            self.draw()
        return data

    def draw(self) -> None:
        share = min(self.position / self.size, 1.0)
        filled = round(share * self.width)
        bar = (f" [{'#' * filled}{'.' * (self.width - filled)}] {share:4.0%}  "
               f"{self.position / 2**20:,.1f} of {self.size / 2**20:,.1f} MiB")
        room = self.columns - len(bar)
        line = (self.label if len(self.label) <= room else self.label[:room - 1] + "…") + bar
        self.terminal.write("\r" + line.ljust(self.drawn))
        self.terminal.flush()
        self.drawn = len(line)

    def clear(self) -> None:
        if self.drawn:
            self.terminal.write("\r" + " " * self.drawn + "\r")
            self.terminal.flush()
            self.drawn = 0


def file_size(stream: BinaryIO) -> int | None:
    """The size of a regular file behind stream, else None (a pipe, a terminal, no file at all)."""
    try:
        status = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def watched(stream: BinaryIO, label: str, terminal: TextIO) -> BinaryIO | Progress:
    """stream wrapped in a Progress bar when terminal is a terminal and the size is known, else stream."""
    size = file_size(stream)
    is_terminal = getattr(terminal, "isatty", None)
    if not size or not (is_terminal and is_terminal()):
        return stream
    return Progress(stream, size, f"passk: reading {os.path.basename(label)}", terminal)


def read(paths: Sequence[str], ks: Sequence[int], fmt: str | None, suite: str | None,
         terminal: TextIO | None = None, beside: Beside = Beside(),
         check: Callable[[list[Problem]], None] | None = None) -> Report:
    """The report for the FILEs (standard input for '-'), as the benchmark page makes it.

    suite: None for the default (plus), which then draws no warning for files without suites; beside: what to
    compute beside pass@k (G-Pass@k's tau, maj@k's tie rule); check(problems): called once they are read, before
    anything is computed (DefaultKs.check narrows ks there).
    A progress bar is drawn on terminal (standard error) while a long file is read.
    """
    terminal = terminal or sys.stderr
    with contextlib.ExitStack() as files:
        openers = [(name, files.enter_context(_opened(path, name, terminal)))
                   for path in paths for name in [_display_name(path)]]
        try:
            return report_from_files([(None if path == STDIN else path, opener)
                                      for path, (_, opener) in zip(paths, openers)],
                                     ks, fmt, suite or "plus", suite_chosen=suite is not None, check=check,
                                     beside=beside)
        except EmptyInput as error:
            if len(paths) > 1:   # read_files has named the file
                raise
            raise FormatError(f"{openers[0][0]} is empty: no problems were found.") from error


def _display_name(path: str) -> str:
    return "standard input" if path == STDIN else path


@contextlib.contextmanager
def _opened(path: str, name: str, terminal: TextIO) -> Iterator[Opener]:
    """open() for one FILE: each call gives its bytes from the start; the file is closed, the bar wiped, after.
    Standard input and a file that cannot seek (a FIFO, bash's <(command)) are read once, into memory."""
    stream: BinaryIO | Progress | None = None
    try:
        with contextlib.ExitStack() as files:
            file = sys.stdin.buffer if path == STDIN else files.enter_context(open(path, "rb"))
            stream = opened = watched(file, name, terminal)
            if path == STDIN or not file.seekable():
                data = opened.read()  # read once: EvalPlus files are read again for the other suite
                yield lambda: io.BytesIO(data)
                return

            def reopen() -> BinaryIO | Progress:
                opened.seek(0)
                return opened
            yield reopen
    except OSError as error:
        raise FormatError(f"Cannot read {name}: {error.strerror or error}.") from None
    finally:
        if isinstance(stream, Progress):
            stream.clear()


def table(summary: Summary, format_name: str, width: int | None = None) -> str:
    """The summary as lines of text for a terminal, each column as wide as its widest cell (the table fitted to
    width; its sentences are left for fitted to wrap)."""
    lines = [f"{sizes(summary)}, read as {format_name}", statuses(summary), ""]
    return "\n".join(lines + results_lines(summary.results, width))


def results_lines(results: Sequence[KResult], width: int | None = None) -> list[str]:
    """The results under their header (passk.writing.columns' terminal columns), right-aligned, each column as wide
    as its widest cell (wider than width: a row at a time, _laid_out); an undefined k is followed by why, and a
    note goes under its row."""
    header = headings(TERMINAL, RESULT_COLUMNS)
    rows = [[str(cell) for cell in cells(result, TERMINAL, RESULT_COLUMNS)] for result in results]
    lead = max(len(row[0]) for row in [header, *rows])
    lines, laid = _laid_out(header, rows, 0, width)
    for result, row, row_lines in zip(results, rows, laid):
        if result.pass_at_k is None:
            lines.append(f"{row[0]:>{lead}}  {result.reason}")
            continue
        lines += row_lines
        lines += [f"{'':>{lead}}  note: {note}" for note in (result.reason, result.coverage_note) if note]
        if result.pass_hat and result.pass_hat.coverage_note not in (None, result.coverage_note):
            lines.append(f"{'':>{lead}}  note (pass^{result.k:,}): {result.pass_hat.coverage_note}")
    return lines


def _laid_out(header: Sequence[str], rows: Sequence[Sequence[str | None]], left: int,
              width: int | None, lead: int = 1) -> tuple[list[str], list[list[str]]]:
    """(the header's lines, each row's lines) of a table: the first `left` columns left-aligned, the rest
    right-aligned, each as wide as its widest cell. A table wider than width has no header line, and each row is
    its first `lead` cells as "heading: value", then the rest as such items packed into lines under it."""
    texts = [[str(cell) for cell in row] for row in rows]   # the terminal's notation writes a missing value "—"
    widths = [max(map(len, column)) for column in zip(header, *texts)]

    def aligned(row: Sequence[str]) -> str:
        return "  ".join(cell.ljust(size) if column < left else cell.rjust(size)
                         for column, (cell, size) in enumerate(zip(row, widths))).rstrip()
    lines = [aligned(row) for row in [header, *texts]]
    if width is None or max(map(len, lines)) <= width:
        return lines[:1], [[line] for line in lines[1:]]
    return [], [[", ".join(f"{heading}: {cell}" for heading, cell in zip(header[:lead], row[:lead])),
                 *_packed([f"{heading}: {cell}" for heading, cell in zip(header[lead:], row[lead:])], width, "    ")]
                for row in texts]


def _packed(items: Sequence[str], width: int, indent: str) -> list[str]:
    """items parted by commas in lines of at most width characters (an item longer than that has a line of its
    own), each line after indent; no item is split."""
    lines: list[str] = []
    line = ""
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if line and len(indent) + len(line) + 1 + len(piece) > width:
            lines.append(indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    return lines + ([indent + line] if line else [])


def read_as(report: Report) -> str:
    """The layout the input was read as and, for a harness's, the tool and version that writes it."""
    name = FORMAT_NAMES.get(report.format, report.format)
    return f"{name} ({report.source})" if report.source else name


PLAN_HINT = "\nplanning: --plan says what more samples or more problems would buy."


def text(report: Report, width: int | None = None, plan: bool = True, bayes: bool = False) -> str:
    """The terminal's tables: the chosen suite's, then (EvalPlus) the other suite's results; fitted to width
    columns (None: lines as long as they come); bayes: Bayes@N after what is beside pass@k."""
    parts = [table(report.summary, read_as(report) + (f", EvalPlus {report.suite} suite" if report.suite else ""),
                   width)]
    for suite, other in report.other_suites.items():
        parts.append(f"\nEvalPlus {suite} suite:\n" + "\n".join(table(other, report.format, width).splitlines()[3:]))
    retries = report.summary.retries
    if retries and retries["sentence"] and len(report.summary.results) > 1:   # no sentence: one k defined
        parts.append(f"\n{retries['sentence']}")
    parts += beside_lines(report.summary, width)
    if bayes:
        parts += bayes_lines(report)
    return fitted("\n".join(parts + (planning_lines(report) if plan else [PLAN_HINT])), width)


def planning_lines(report: Report) -> list[str]:
    """The single run's plan (planning: where the noise comes from), when it has anything to say."""
    plans = [row for row in report.planner() if row.sentences]
    if not plans:
        return []
    target = report.planning.get("target", DEFAULT_TARGET)
    return [f"\nplanning (half-widths of 95 percent intervals, target ±{points(target)} points):",
            *(f"  k = {row.k:,}: {sentence}" for row in plans for sentence in row.sentences)]


def json_text(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2)


def answer_text(report: Report, output: str, width: int | None = None, plan: bool = True,
                bayes: bool = False) -> str:
    """The report in an output format (passk.writing.output.FORMATS): the terminal's table (fitted to width), the JSON, or
    the tables of passk.writing.output; bayes adds Bayes@N to the tables (the JSON always holds it)."""
    if output == TABLE:
        return text(report, width, plan, bayes)
    return json_text(report) if output == JSON else _written(report_tables(report, bayes), output)


def notices(report: Report, output: str) -> list[str]:
    """The lines for standard error: the report's warnings and, where the output has no room for them
    (CSV, TSV, Markdown, LaTeX), why a k is undefined or has no fixed-benchmark SE."""
    lines = [f"note: {report.combined}"] if report.combined else []
    for suite, summary in suites(report):
        lines += [f"warning: {warning}" for warning in summary.warnings]
        if output in WRITTEN:
            where = f"(EvalPlus {suite} suite) " if suite else ""
            lines += [f"{'warning' if row.pass_at_k is None else 'note'}: {where}{row.reason}"
                      for row in summary.results if row.reason]
            lines += [f"note: {where}pass@{row.k}: {row.coverage_note}" for row in summary.results if row.coverage_note]
            lines += [f"note: {where}pass^{row.k}: {row.pass_hat.coverage_note}" for row in summary.results
                      if row.pass_hat and row.pass_hat.coverage_note not in (None, row.coverage_note)]
            beside = [*(summary.majority.results if summary.majority else ()),
                      *(summary.g_pass.results if summary.g_pass else ())]
            lines += [f"note: {where}{row.reason}" for row in beside if row.reason]
            scored = [*(summary.graded.results if summary.graded else ()),
                      *(summary.averages.results if summary.averages else ())]
            lines += [f"note: {where}{row.reason}" for row in scored if row.reason]
            if summary.graded:
                lines.append(f"note: {where}{_mean_score(summary)}")
            if summary.majority:
                lines += [f"note: {where}{sentence}" for sentence in (_maj_at_n(summary),
                                                                      summary.majority.voting_buys["sentence"])]
    return list(dict.fromkeys(lines))  # the other suite repeats the misuse warnings: say each once


def run(parser: argparse.ArgumentParser, args: argparse.Namespace, stderr: TextIO) -> int:
    """The command line's work once its arguments are read (passk.__main__.main); parser.error refuses a mix of
    options that do not go together."""
    if (args.majority or args.tau is not None) and args.runs:
        parser.error(f"{'--majority' if args.majority else '--tau'} adds to the answer of one run: leave out --runs")
    if args.bayes and args.runs:
        parser.error("--bayes adds to the answer of one run: leave out --runs")
    if args.curve and (not args.runs or len(args.files) != 2):
        parser.error("--curve compares two runs' curves over k: give --runs and two FILEs")
    if args.fail_if_worse is not None and (not args.runs or len(args.files) != 2):
        parser.error("--fail-if-worse compares a new run with its baseline: give --runs BASELINE NEW (two FILEs)")
    if args.runs:
        if args.target is not None:
            parser.error("--target is a single run's plan; with --runs, plan a comparison with --detect POINTS")
        if args.detect is None and (args.tokens_per_sample or args.price_per_million):
            parser.error("with --runs, --tokens-per-sample and --price-per-million price the samples that "
                         "--detect POINTS plans; give --detect too")
        return main_runs(args, stderr)
    if args.detect is not None:
        parser.error("--detect plans the comparison of the top two runs: use it with --runs")
    defaults = DefaultKs()
    try:
        report = read(args.files, defaults.ks if args.k is None else parse_ks(args.k), args.format, args.suite,
                      terminal=stderr, beside=Beside(args.tau, args.tie),
                      check=defaults.check if args.k is None else None)
    except (FormatError, ValueError) as error:
        # a file's error names it (with several, read_files does; an empty file's sentence starts with it)
        unnamed = isinstance(error, FormatError) and len(args.files) == 1 and args.files[0] != STDIN \
            and args.files[0] not in str(error)
        print(f"passk: {args.files[0] + ': ' if unnamed else ''}{error}{layout_hint(args.format)}", file=stderr)
        return 2
    if args.majority and not report.summary.majority:
        print("passk: --majority needs each sample's extracted answer, and these files have none (read as "
              f"{FORMAT_NAMES.get(report.format, report.format)}): give NeMo-Skills output-rs<seed>.jsonl files.",
              file=stderr)
        return 2
    report.planning.update({name: value for name in ("target", "tokens_per_sample", "price_per_million")
                            for value in [getattr(args, name)] if value is not None})
    planned = args.plan or any(getattr(args, name) is not None
                               for name in ("target", "tokens_per_sample", "price_per_million"))
    _printed(answer_text(report, args.output, terminal_width(), planned, bayes=args.bayes), (), stderr)
    # after the answer, so that a long one does not scroll them away
    for line in [*notices(report, args.output), *filter(None, [defaults.note()])]:
        print(f"passk: {line}", file=stderr)
    if args.output in WRITTEN and planned:   # asked for, and the tables have no room for it
        for line in planning_lines(report):
            print(f"passk: {line.strip()}", file=stderr)
    undefined = any(row.pass_at_k is None for _, summary in suites(report) for row in summary.results)
    return UNDEFINED_K if undefined and args.k is not None else 0


def layout_hint(layout: str | None) -> str:
    """What to add to a reading error when --format named a layout that is also an output format (csv, json)."""
    if layout not in ("csv", "json"):
        return ""
    return f" (--format {layout} reads the FILEs as {layout.upper()} counts; -o {layout} writes {layout.upper()})"


def beside_lines(summary: Summary, width: int | None = None) -> list[str]:
    """maj@k (when the samples carry extracted answers) and G-Pass@k (when a tau was given), as terminal tables
    (each fitted to width, its sentences left for fitted to wrap)."""
    lines = []
    if summary.majority:
        majority = summary.majority
        rule = "a tie earns the share of its answers that are correct" if majority.tie == "fractional" else \
            "a tie scores 0"
        lines += [f"\nmaj@k, the majority vote over the extracted answers, every k-subset alike ({rule}; no "
                  "answer, no vote); first k only: the vote over the first k samples (NeMo-Skills' majority@k):"]
        lines += rows_lines(majority.results, MAJORITY_COLUMNS, width)
        lines.append(_maj_at_n(summary))
        lines.append(majority.voting_buys["sentence"])
        if majority.judged_both_ways:
            named = ", ".join(majority.judged_both_ways[:5])
            lines.append(f"note: an answer is judged both correct and wrong in {named}: each (answer, verdict) "
                         "votes on its own, as NeMo-Skills counts them.")
    if summary.g_pass:
        tau = summary.g_pass.tau
        lines += [f"\nG-Pass@k at tau = {tau:g}: at least ceil({tau:g} k) of k drawn samples pass; mG-Pass@k: its "
                  "mean over tau from 0.5 to 1 (Liu et al. 2024):"]
        lines += rows_lines(summary.g_pass.results, G_PASS_COLUMNS, width)
    return lines + score_lines(summary, width)


BAYES_SENTENCE = ("Bayes@N (Hariri et al. 2025): the mean over problems of each pass rate's posterior mean, "
                  "(c + 1)/(n + 2) under a uniform prior, with its posterior SD and the 95% credible interval "
                  "mean ± 1.96 SD (scorio's bayes_ci)")


def bayes_lines(report: Report) -> list[str]:
    """Bayes@N of each suite, a line each under the sentence that says what it is."""
    lines = [f"\n{BAYES_SENTENCE}:"]
    for suite, summary in suites(report):
        if summary.bayes:
            mean, sd, interval = cells(summary.bayes, TERMINAL, BAYES_COLUMNS)
            lines.append(f"  {f'EvalPlus {suite} suite: ' if report.other_suites else ''}Bayes@N {mean}, "
                         f"posterior SD {sd}, 95% credible interval {interval}")
    return lines


def score_lines(summary: Summary, width: int | None = None) -> list[str]:
    """The graded scores' table (mean score and max@k, where some score is neither 0 nor 1) and avg@k's (where
    the samples carry scores in order), as terminal tables fitted to width."""
    lines = []
    if summary.graded:
        lines += [f"\n{_mean_score(summary)} max@k: the expected best of k scores drawn from each problem's n, every "
                  "k-subset alike (pass@k for 0/1 scores); first k only: the mean best of the first k samples "
                  "(NeMo-Skills' pass@k for graded scores):"]
        lines += rows_lines(summary.graded.results, GRADED_COLUMNS, width)
    if summary.averages:
        spread = ("; SD across seeds: the sample SD of the first k seeds' means, and its SE (NeMo-Skills' "
                  "std_dev_across_runs and std_err_across_runs)" if summary.averages.seeds else
                  "; no SD across seeds, as the problems' n differ")
        lines += [f"\navg@k: the mean score of the first k samples (lighteval's avg@k, NeMo-Skills' "
                  f"pass@1[avg-of-k]){spread}:"]
        lines += rows_lines(summary.averages.results, AVERAGE_COLUMNS, width)
    return lines


def _mean_score(summary: Summary) -> str:
    """The sentence of the mean score over problems (each problem's mean over its samples), with its interval."""
    assert summary.graded
    return _estimate_sentence("Mean score, each problem's mean over its samples", summary.graded.mean)


def _maj_at_n(summary: Summary) -> str:
    """The sentence of maj@n, the vote over all of each problem's samples, with its interval."""
    assert summary.majority
    return _estimate_sentence("maj@n, the vote over all of each problem's samples", summary.majority.at_n)


def _estimate_sentence(what: str, estimate: Estimate) -> str:
    """'<what>: 41.67% (95% interval ... to ...). <its coverage note>'."""
    interval = f" (95% interval {_percent(estimate.ci95[0])} to {_percent(estimate.ci95[1])})" if estimate.ci95 else ""
    note = f" {estimate.coverage_note}" if estimate.coverage_note else ""
    return f"{what}: {_percent(estimate.value)}{interval}.{note}"


def rows_lines(rows: Sequence[MajorityRow | GPassRow | GradedRow | AverageRow], columns: Sequence[Column],
               width: int | None = None) -> list[str]:
    """Rows beside pass@k under their header (passk.writing.columns' terminal columns; wider than width, a row at a time),
    an undefined k followed by why."""
    header = headings(TERMINAL, columns)
    cells_of = [[cell or "" for cell in cells(row, TERMINAL, columns)] for row in rows]
    lead = max(len(row[0]) for row in [header, *cells_of])
    lines, laid = _laid_out(header, cells_of, 0, width)
    for row, cells_shown, row_lines in zip(rows, cells_of, laid):
        lines += [f"{cells_shown[0]:>{lead}}  {row.reason}"] if row.reason else row_lines
    return lines


def _percent(value: float | None) -> str:
    """A share as the terminal tables write it ("—" for none)."""
    return "—" if value is None else f"{100 * value:.2f}%"


def read_runs(paths: Sequence[str], ks: Sequence[int], fmt: str | None, suite: str | None,
              terminal: TextIO | None = None) -> tuple[Ranking, list[str]]:
    """(Ranking, formats) for the FILEs, each its own run named after its path ('-': standard input)."""
    terminal = terminal or sys.stderr
    with contextlib.ExitStack() as files:
        if len(paths) == 1 and paths[0] != STDIN and (models := _model_runs(paths[0], fmt)) is not None:
            return rank_runs(models, ks, limited=False), [evalarena.NAME] * len(models)
        openers = [files.enter_context(_opened(path, _display_name(path), terminal)) for path in paths]
        return rank_uploads([(None if path == STDIN else path, opener) for path, opener in zip(paths, openers)],
                            ks, fmt, suite or "plus", suite_chosen=suite is not None)


def _model_runs(path: str, fmt: str | None) -> list[tuple[str, list[Problem]]] | None:
    """[(model, problems)] of a file of several models' runs (eval-arena's own data files), else None: the runs the
    reader's refusal to read such a file as one run holds (evalarena.SeveralModels), as the web ranks them."""
    try:
        with open(path, "rb") as file:
            read_files([(path, file)], fmt=fmt)
    except SeveralModels as several:
        return several.models
    except FormatError:   # not a file of several models: ranked as one run, which says what is wrong
        return None
    except OSError as error:
        raise FormatError(f"Cannot read {path}: {error.strerror or error}.") from None
    return None


def ranking_text(ranking: Ranking, width: int | None = None) -> str:
    """Per k: the runs best first with their group letters, then every pair with its Holm-adjusted p-value
    (passk.writing.columns' RANK_COLUMNS and PAIR_COLUMNS that the terminal shows), fitted to width columns (None: lines
    as long as they come). A k at which no run has a pass@k is a line saying so, with each run's reason."""
    parts: list[str] = []
    for row in ranking.results:
        if all(entry.pass_at_k is None for entry in row.ranking):   # a table of dashes would say nothing
            parts += [f"pass@{row.k:,}: undefined for every run",
                      *[f"  {entry.name}: {entry.reason}" for entry in row.ranking], ""]
            continue
        ranked = [cells(entry, TERMINAL, RANK_COLUMNS) for entry in row.ranking]
        pairs = [cells(pair, TERMINAL, PAIR_COLUMNS) for pair in row.pairs]
        defined = sum(pair.p_value is not None for pair in row.pairs)
        parts += [f"pass@{row.k:,}", *_columns(headings(TERMINAL, RANK_COLUMNS), ranked, 2, width, lead=2),
                  *[f"  note: {entry.name}: {entry.reason}" for entry in row.ranking if entry.reason],
                  "", f"pairs at k = {row.k:,} (run - other on the problems both have; p-values Holm-adjusted over "
                      f"{plural(defined, 'pair')}; runs sharing a group letter are not told apart at 5%)",
                  *_columns(headings(TERMINAL, PAIR_COLUMNS), pairs, 2, width, lead=2),
                  *[f"  note: {pair.a} vs {pair.b}: {pair.reason}" for pair in row.pairs if pair.reason], ""]
    return fitted("\n".join(parts).rstrip(), width)


def _written(tables: Sequence[Table], output: str) -> str:
    """The tables as -o asks; LaTeX opens with a comment naming the passk that wrote it."""
    text = written(tables, output)
    return f"% passk {__version__}\n{text}" if output == LATEX else text


def _columns(header: Sequence[str], rows: Sequence[Sequence[str | None]], left: int, width: int | None = None,
             lead: int = 1) -> list[str]:
    """Lines of a table: the first `left` columns left-aligned, the rest right-aligned, each as wide as needed;
    wider than width, a row at a time (_laid_out)."""
    header_lines, laid = _laid_out(header, rows, left, width, lead)
    return header_lines + [line for row_lines in laid for line in row_lines]


def planning_text(plans: Sequence[PairPlan], difference: float) -> str:
    """top_pair_plan's answers for the terminal: per k, which pair, then its sentences."""
    lines = [f"planning for the top two runs at each k (a - b), to find a difference of {points(difference)} points "
             f"4 times in 5 at p < 0.05:"]
    for row in plans:
        lines.append(f"  pass@{row['k']:,}: {row['a']} vs {row['b']}" if row["a"] else f"  pass@{row['k']:,}:")
        sentences = row["plan"]["sentences"] if row["plan"] and row["plan"]["sentences"] else [row["reason"]]
        lines += [f"    {sentence}" for sentence in sentences]
    return "\n".join(lines)


def main_runs(args: argparse.Namespace, stderr: TextIO) -> int:
    """passk --runs FILE FILE...: the ranked table and the pairs (or with --curve the curves over k) in the output
    format asked for; with --fail-if-worse, status 1 when the second run is significantly worse than the first,
    else status 3 when a k given with -k is undefined for some run. Without -k, the default ks that some run's
    problems cannot answer are left out of the answer (DefaultKs), --fail-if-worse's k kept."""
    defaults = DefaultKs()
    width = terminal_width()
    try:   # with --curve, -k chooses the curve's ks (up to LIMITS.curve_ks) and the comparison keeps the defaults
        curve_ks = parse_ks(args.k, LIMITS.curve_ks) if args.curve and args.k is not None else None
        ks = defaults.ks if args.k is None or args.curve else parse_ks(args.k)
        if args.fail_if_worse is not None and args.fail_if_worse not in ks:
            raise ValueError(f"--fail-if-worse gates on pass@{args.fail_if_worse}, and -k "
                             f"{args.k or ','.join(map(str, ks))} leaves it out: add {args.fail_if_worse} to -k, or "
                             "give --fail-if-worse one of its ks.")
        ranking, formats = read_runs(args.files, ks, args.format, args.suite, terminal=stderr)
        if args.k is None or args.curve:
            defaults.narrow(min(summary.min_n for summary in ranking.summaries.values()),
                            keep=[args.fail_if_worse] if args.fail_if_worse is not None else [])
            ranking.results = [row for row in ranking.results if row.k in defaults.ks]
        answer, notes = curve_answer(ranking, defaults.ks, args.output, width, curve_ks) if args.curve else \
            ranking_answer(ranking, formats, args, width)
    except (FormatError, ValueError) as error:
        print(f"passk: {error}{layout_hint(args.format)}", file=stderr)
        return 2
    _printed(answer, ranking.warnings, stderr)
    for note in [*notes, *filter(None, [defaults.note() if curve_ks is None else None])]:
        print(f"passk: {note}", file=stderr)
    if args.fail_if_worse is None:
        undefined = any(entry.pass_at_k is None for row in ranking.results for entry in row.ranking)
        return UNDEFINED_K if undefined and args.k is not None else 0
    status, sentence = gate(ranking, args.fail_if_worse)
    if sentence:
        print(f"passk: {sentence}", file=stderr)
    return status


def ranking_answer(ranking: Ranking, formats: Sequence[str], args: argparse.Namespace,
                   width: int | None = None) -> tuple[str, list[str]]:
    """(the answer, the notes for standard error) of a ranking in args.output (the terminal's fitted to width),
    with --detect's plan if asked."""
    plans = None if args.detect is None else top_pair_plan(ranking, args.detect, args.tokens_per_sample,
                                                          args.price_per_million)
    planned = [] if plans is None else planning_text(plans, args.detect).splitlines()
    if args.output == JSON:
        body = to_json(ranking, formats)
        if plans is not None:
            body["planner"] = plans
        return json.dumps(body, indent=2), []
    if args.output == TABLE:
        return fitted(ranking_text(ranking, width) + ("" if plans is None else "\n\n" + "\n".join(planned)),
                      width), []
    notes = [f"note: pass@{row.k:,}: {entry.name}: {entry.reason}" for row in ranking.results
             for entry in row.ranking if entry.reason]
    notes += [f"note: pass@{row.k:,}: {pair.a} vs {pair.b}: {pair.reason}" for row in ranking.results
              for pair in row.pairs if pair.reason]
    return _written(ranking_tables(ranking), args.output), notes + [line.strip() for line in planned]


def gate(ranking: Ranking, k: int) -> tuple[int, str | None]:
    """--fail-if-worse at k: (exit status, the sentence for standard error). 1 when the second run (new) is
    significantly worse than the first (the baseline) by the pair table's test: its Holm-adjusted p-value below
    ALPHA, so the runs get different group letters, with the baseline ahead; 2 when the pair has no p-value."""
    [pair] = next(row.pairs for row in ranking.results if row.k == k)
    if pair.p_holm is None or pair.difference is None or pair.ci95 is None:
        return 2, f"--fail-if-worse cannot compare {pair.b} with {pair.a} at pass@{k:,}: {pair.reason}"
    if pair.difference > 0 and pair.p_holm < ALPHA:
        low, high = (-bound for bound in reversed(pair.ci95))   # new - baseline, as the sentence says it
        return 1, (f"{pair.b} is significantly worse than {pair.a} at pass@{k:,}: "
                   f"{in_points(-pair.difference, ascii=True)} (95% interval {in_points(low, ascii=True)} to "
                   f"{in_points(high, ascii=True)}, p = {p_value(pair.p_holm, ascii=True)}) on "
                   f"{plural(pair.paired, 'paired problem')}.")
    return 0, None


def curve_answer(ranking: Ranking, ks: Sequence[int], output: str, width: int | None = None,
                 curve_ks: Sequence[int] | None = None) -> tuple[str, list[str]]:
    """passk --runs A B --curve: the table of both curves over k (at curve_ks, else ks the curves choose) with A - B's
    simultaneous band, and what they say: where A is ahead, behind and undecided, and where it first loses (fitted
    to width); with --json the API's answer to POST /api/v1/compare with curve=1 and curve_k (the comparison at ks,
    and "curve"); in passk.writing.output's formats its table, and (the notes for standard error) what they say."""
    name_a, name_b = ranking.names
    comparison = compare(ranking.summaries[name_a].problems, ranking.summaries[name_b].problems, ks)
    comparison.warnings += ranking.warnings
    curve = curves_of(comparison, curve_ks)
    if output == JSON:
        return json.dumps({**to_json(comparison), "curve": to_json(curve)}, indent=2), []
    if output in WRITTEN:
        return _written(curve_tables(curve, (name_a, name_b)), output), \
            [f"note: A = {name_a}, B = {name_b}", *(f"note: {sentence}" for sentence in crossover_sentences(curve))]
    rows = [cells(point, TERMINAL, CURVE_COLUMNS) for point in curve.points]
    level = "" if curve.level is None else f": each k's interval at {100 * curve.level:.2f}%"
    lines = [f"pass@k over k on {plural(curve.problems, 'paired problem')}, k = 1 ... {curve.n:,}: "
             f"A = {name_a}, B = {name_b}",
             *_columns(headings(TERMINAL, CURVE_COLUMNS), rows, 1, width),
             f"the band of A - B holds at all {len(rows):,} ks at once ({METHOD}{level}); A's and B's pointwise 95% "
             f"intervals are in --json", "", *crossover_sentences(curve)]
    return fitted("\n".join(lines), width), []


def _printed(answer: str, warnings: Sequence[str], stderr: TextIO) -> int:
    """Print the answer (quietly when the reader has gone: `passk FILE | head -1`), then the warnings on standard
    error."""
    try:
        print(answer, flush=True)
    except BrokenPipeError:   # nothing left to say, nor at exit, when standard output is flushed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    for warning in warnings:
        print(f"passk: warning: {warning}", file=stderr)
    return 0
