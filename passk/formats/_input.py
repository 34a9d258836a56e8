"""Reading input: bytes, text or a binary file, peeked at for detection, then streamed by lines or parsed whole."""

import codecs
import gzip
import io
import json
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import AnyStr, Protocol, TypeAlias

from passk.formats import _cost
from passk.formats._core import JSON, FormatError, show
from passk.limits import LARGER_RUNS, LIMITS, Budget, TooLarge, size, too_many_lines

PEEK_BYTES = 64 * 1024    # read ahead to detect the format, then stream the rest
HEAD_LINE_BYTES = 4 * 2**20   # the head ends at the end of a line shorter than this (one JSON document may have none)
GZIP_MAGIC = b"\x1f\x8b"


class Readable(Protocol):
    """A binary stream read by amounts: a file opened with "rb", an upload, a member of a zip archive, Joined."""

    def read(self, size: int = -1, /) -> bytes: ...


class Stream(Readable, Protocol):
    """A binary stream read by amounts and by lines: a file opened with "rb", an upload, Gunzipped input."""

    def readline(self, size: int = -1, /) -> bytes: ...


Source: TypeAlias = bytes | bytearray | memoryview | str | Stream   # what read_problems reads


def open_input(source: Source, max_lines: int | None = None, max_bytes: int | None = None,
               budget: Budget | None = None) -> tuple[bytes, Stream]:
    """Return (head, stream): the first lines of source as bytes, and a binary stream after them.

    Blank lines before the first text are counted, not kept, so that a file of
    nothing else costs time in proportion to its size and no memory; the head
    starts with one newline for each, so line numbers stay right. Gzip input
    (such as MultiPL-E's *.results.json.gz) is unpacked as it is read, up to
    max_bytes (None: LIMITS.unpacked_bytes, what one request may unpack), spending budget's unpacked bytes (a
    passk.limits.Budget; None: no budget).
    """
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(source)
    if not hasattr(source, "readline"):
        raise TypeError(f"read_problems needs bytes, str or a binary file; got {type(source).__name__}.")
    head = source.read(PEEK_BYTES)
    if not isinstance(head, bytes):
        raise TypeError("read_problems needs a binary file (opened with 'rb'), not a text one.")
    if head.startswith(GZIP_MAGIC):
        source = Gunzipped(head, source, LIMITS.unpacked_bytes if max_bytes is None else max_bytes, budget)
        head = source.read(PEEK_BYTES)
    if is_utf16(head):
        raise FormatError(UTF16)
    head, blank_lines = head.removeprefix(codecs.BOM_UTF8), 0
    while head.isspace():
        blank_lines += head.count(b"\n")
        head = source.read(PEEK_BYTES)
    if not head:
        return b"", source
    if max_lines is not None and blank_lines > max_lines:
        raise FormatError(too_many_lines(max_lines))
    for _ in range(2):  # end on a line boundary, with a second line even after a long first one (if not too long)
        head += source.readline(HEAD_LINE_BYTES)
    return b"\n" * blank_lines + head, source


class Gunzipped:
    """The unpacked bytes of a gzip stream, read as they are asked for, up to max_bytes.

    More than max_bytes, and a stream that is damaged or cut short, raise FormatError
    on the read that finds it, and more than the budget's unpacked bytes TooLarge;
    a gzip bomb costs at most that much unpacking.
    """

    def __init__(self, head: bytes, rest: Stream, max_bytes: int, budget: Budget | None = None) -> None:
        # typeshed's gzip fileobj must have seek, which GzipFile calls only to seek backwards, never done here
        self._file = gzip.GzipFile(fileobj=Joined(head, rest), mode="rb")   # type: ignore[call-overload]
        self._left = self.max_bytes = max_bytes
        self._budget = budget

    def read(self, size: int = -1) -> bytes:
        return self._unpack(self._file.read, size)

    def readline(self, size: int = -1) -> bytes:
        return self._unpack(self._file.readline, size)

    def _unpack(self, read: Callable[[int], bytes], amount: int | None) -> bytes:
        wanted = self._left + 1 if amount is None or amount < 0 else min(amount, self._left + 1)
        if self._budget is not None:
            wanted = min(wanted, self._budget.unpacked + 1)
        try:
            data = read(wanted)
        except (OSError, EOFError, zlib.error) as error:
            raise FormatError(f"The input starts as gzip-compressed data but cannot be unpacked ({error}); "
                              "send the file as it was written, or unpacked.") from None
        self._left -= len(data)
        if self._budget is not None:
            self._budget.spend_unpacked(len(data))
            self._budget.spend_work(len(data) * _cost.UNPACK_BYTE)
        if self._left < 0:
            raise FormatError(f"The gzip-compressed input unpacks to more than {size(self.max_bytes)}, the most "
                              "that is read; send counts per problem (task_id,n,c) or part of the file.")
        return data


class Joined:
    """head, then the rest of the stream it was read from."""

    def __init__(self, head: bytes, rest: Stream) -> None:
        self._head, self._rest = head, rest

    def read(self, size: int = -1) -> bytes:
        if not self._head:
            return self._rest.read(size)
        if size is None or size < 0:
            data, self._head = self._head + self._rest.read(), b""
            return data
        data, self._head = self._head[:size], self._head[size:]
        return data


class Chunks:
    """A line format's input: pieces of whole lines (iterate it), and the request's budget their reading is spent
    from. line_chunks spends each piece's bytes and lines before it is read; a reader of JSON lines spends what
    building its values cost (passk.formats._cost.json_line_work) with spend."""

    def __init__(self, pieces: Iterator[bytes], budget: Budget | None) -> None:
        self._pieces, self._budget = pieces, budget

    def __iter__(self) -> Iterator[bytes]:
        return self._pieces

    def spend(self, microseconds: float) -> None:
        if self._budget is not None:
            self._budget.spend_work(microseconds)


def spend(chunks: Iterable[bytes], microseconds: float) -> None:
    """Spend microseconds of reading from the budget of chunks, when they are Chunks (lines read with a budget)."""
    if isinstance(chunks, Chunks):
        chunks.spend(microseconds)


def line_chunks(head: bytes, stream: Stream, max_lines: int | None = None, budget: Budget | None = None,
                cost: _cost.LineCost = _cost.TEXT) -> Chunks:
    """Pieces of head and stream of about PEEK_BYTES that each end at the end of a line, read within budget.

    Refuses input of more than max_lines lines, counting as it goes, and then
    (a web request) lines longer than LIMITS.line_bytes too. With a budget (None: none), each piece's reading,
    priced by cost (the format's), is spent before it is read: past the budget, TooLarge. (A file's size alone
    says too little to refuse it before reading: a line of values costs five times a line of text, and a blank
    line next to nothing.)
    """
    return Chunks(_pieces(head, stream, max_lines, budget, cost), budget)


def _pieces(head: bytes, stream: Stream, max_lines: int | None, budget: Budget | None,
            cost: _cost.LineCost) -> Iterator[bytes]:
    """The pieces of line_chunks."""
    longest = None if max_lines is None else LIMITS.line_bytes
    lines = 0
    chunk = head if head.endswith(b"\n") else head + _rest_of_line(stream, head, longest, head.count(b"\n") + 1)
    while chunk:
        count = chunk.count(b"\n")
        lines += count
        if max_lines is not None and lines > max_lines:
            raise FormatError(too_many_lines(max_lines))
        if budget is not None:
            budget.spend_work(cost.of(chunk, count))
        yield chunk
        chunk = stream.read(PEEK_BYTES)
        if chunk and not chunk.endswith(b"\n"):
            chunk += _rest_of_line(stream, chunk, longest, lines + chunk.count(b"\n") + 1)


def _rest_of_line(stream: Stream, chunk: bytes, longest: int | None, number: int) -> bytes:
    """The rest of line number, which chunk ends within, up to its "\\n"; TooLarge when the line is more than
    longest bytes (None: any)."""
    if longest is None:
        return stream.readline()
    started = len(chunk) - chunk.rfind(b"\n") - 1
    rest = stream.readline(max(longest - started, 0) + 1)
    if started + len(rest) > longest:
        raise TooLarge(f"Line {number:,} is longer than {size(longest)}, the longest line read; no results "
                       f"file has lines that long, so send counts per problem (task_id,n,c), or {LARGER_RUNS}.")
    return rest


def split_lines(chunk: AnyStr) -> list[AnyStr]:
    """The lines of a chunk (bytes or text) without their "\\n"; a final "\\n" ends the last line."""
    lines = chunk.split(b"\n" if isinstance(chunk, bytes) else "\n")
    if not lines[-1]:
        lines.pop()
    return lines


def line_text(raw: bytes, number: int) -> str:
    """Line number's bytes as text without a trailing "\\r", refusing NUL bytes and invalid UTF-8."""
    if b"\x00" in raw:
        raise not_text(f"Line {number}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise not_text(f"Line {number}") from None
    return text.rstrip("\r")


def text_lines(chunks: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for every line of the chunks, refusing input that is not UTF-8 text."""
    number = 0
    for chunk in chunks:
        for number, text in enumerate(chunk_lines(chunk, number), number + 1):
            yield number, text.rstrip("\r")


def chunk_lines(chunk: bytes, number: int) -> Iterable[str]:
    """The lines of a chunk as text; one with a NUL byte or invalid UTF-8 is checked line by line."""
    if b"\x00" not in chunk:
        try:
            return split_lines(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            pass
    return (line_text(raw, at) for at, raw in enumerate(split_lines(chunk), number + 1))


UTF16 = ("The input is UTF-16 text (what Windows PowerShell's > and Out-File write), not UTF-8: save it as UTF-8 "
         "(PowerShell: ... | Out-File -Encoding utf8), then read it again.")


def is_utf16(head: bytes) -> bool:
    """True when the head starts with a UTF-16 byte-order mark, or is ASCII text with a NUL after (or before)
    every character, as UTF-16 without a mark writes it."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    sample = head[:64] if len(head) >= 64 else head[:len(head) - len(head) % 2]
    if len(sample) < 4:
        return False
    odd, even = sample[1::2], sample[::2]
    return (set(odd) == {0} and 0 not in even) or (set(even) == {0} and 0 not in odd)


def not_text(where: str) -> FormatError:
    return FormatError(f"{where} is not UTF-8 text (it holds NUL bytes or invalid characters): "
                       "this is not a text file; passk reads JSONL, JSON, CSV, plain text, lighteval's Parquet, "
                       "Inspect's .eval archives and gzip files of these.")


def load_json(content: bytes) -> JSON:
    """Parse a whole JSON document, turning every failure into a FormatError."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        raise not_text("The input") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"The input is not valid JSON: {json_problem_name(error)} at line {error.lineno}, "
                          f"column {error.colno}.") from None
    except RecursionError:
        raise FormatError("The JSON is nested too deeply to read; problems need only "
                          "two or three levels.") from None
    except ValueError:  # an integer literal longer than Python converts (over 4300 digits)
        raise FormatError("The JSON holds a number far too long to be a count.") from None


def json_problem_name(error: json.JSONDecodeError) -> str:
    """What json found wrong, without the " at" some of its messages end with ("Unterminated string starting at")."""
    return error.msg.removesuffix(" at")


def json_line(text: str, number: int, expected: str = "an object") -> dict[str, JSON]:
    """Line number of a JSON-lines file as an object, or the FormatError that says what is wrong with it
    (expected: what the line should be, for the message)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"Line {number} is not valid JSON: {json_problem_name(error)} "
                          f"at column {error.colno}.") from None
    except (ValueError, RecursionError):
        raise FormatError(f"Line {number} is not a record: it is nested too deeply "
                          "or holds an over-long number.") from None
    if not isinstance(record, dict):
        raise FormatError(f"Line {number}: expected {expected}; got {show(record)}.")
    return record


def json_lines(chunks: Iterable[bytes], expected: str = "an object") -> Iterator[tuple[int, dict[str, JSON]]]:
    """Yield (line number, object) for every line of a JSON-lines file that is not blank (see json_line), each
    line's values spent from the budget of chunks (Chunks) once built."""
    for number, text in text_lines(chunks):
        if text.strip():
            record = json_line(text, number, expected)
            spend(chunks, _cost.json_line_work(record))
            yield number, record
