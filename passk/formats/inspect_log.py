"""Inspect evaluation logs (UKGovernmentBEIS/inspect_ai, `inspect eval`): `.json` logs and `.eval` archives.

A `.json` log is one EvalLog, `{"version": 2, "status", "eval": {"task", "model", "config":
{"epochs", ...}, ...}, "plan", "results", "stats", "samples": [{"id", "epoch", "scores":
{scorer: {"value", "answer", "explanation"}}, ...}]}` (version 1 logs gave a sample one "score").
An `.eval` log (inspect_ai 0.3.43 and later, its default format) is a zip archive of
`header.json` (the EvalLog without its samples), `summaries.json`, `_journal/...` and one
`samples/<id>_epoch_<n>.json` per sample and epoch, each an EvalSample as above; header.json and
the samples are read, with json and zipfile alone (inspect_ai itself is not needed). Members are
deflate or, since inspect_ai 0.3.206 (its default), zstd (zip method 93): Python 3.14's zipfile
unpacks zstd, and before 3.14 the same zipfile from backports.zstd does.

Each sample id is a problem and its epochs are its samples: n is the number of epochs present for
the id, c the number that pass. A score value of "C" (Inspect's CORRECT), 1 or true is a pass;
"I" (INCORRECT), "P" (PARTIAL), "N" (NOANSWER), 0 and false are a fail; any other value, such as
a float strictly between 0 and 1 or a dict of several values, is an error, as it has no pass rule.
With several scorers the first, in the log's order, is used. A sample that ended in an error
without a score is left out.
"""

import io
import re
import sys
import zlib
from collections.abc import Collection, Iterable, Iterator
from typing import BinaryIO

from passk.formats import _cost
from passk.formats._core import JSON, FormatError, Problem, Tally, add_sample, count, field, key_path, show, tallied
from passk.formats._core import task_id_of
from passk.formats._json import RETRACE_BYTES, parse_json, parse_short
from passk.formats.registry import register
from passk.limits import LARGER_RUNS, LIMITS, Budget, Limits, MiB, TooLarge, size

if sys.version_info >= (3, 14):
    import zipfile
    from compression.zstd import ZstdError
else:   # Python 3.14's zipfile, which unpacks zstd members (method 93) a bounded piece at a time
    from backports.zstd import ZstdError, zipfile

NAME = "inspect"
LABEL = "Inspect"   # the tool, as people name it
TITLE = "Inspect (inspect_ai) .eval or .json log"
SIGNATURE = 'an object with "version" and "eval": {"task", "model"}, and "samples"'   # what detection looks for
SOURCE = "Inspect (inspect_ai) log"
ZIP_MAGIC = b"PK\x03\x04"
HEADER = "header.json"
LOCAL_HEADER = 30         # bytes of a member's local header before its name
END_RECORD, ZIP64_LOCATOR = 22, 20   # bytes of the end of central directory record, and of the zip64 locator
SAMPLE_KEYS = frozenset(("id", "epoch", "scores", "score", "error"))   # what is kept of a sample
HEADER_KEYS = frozenset(("version", "status"))   # what is kept of the header
PASSES, FAILS = ("C",), ("I", "P", "N")
SCORED = PASSES + FAILS
SAMPLE_MEMBER = re.compile(r"samples/.+_epoch_[0-9]+\.json", re.DOTALL)
PASS_RULE = "Inspect scores: C, 1 and true count as a pass; I, P (partial), N, 0 and false count as a fail."


def looks_like(document: JSON) -> bool:
    """An object with a "version" and an "eval" that names its "task" and "model", as an EvalLog."""
    spec = document.get("eval") if isinstance(document, dict) else None
    return isinstance(spec, dict) and "version" in document and {"task", "model"} <= spec.keys()


def source(document: JSON) -> str:
    """The log file and its format version."""
    return _source(".json", document.get("version"))


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read an Inspect .json log: each sample id is a problem, each of its epochs a sample."""
    return _count(_json_samples(document), document, limit)[0]


def warnings(document: JSON) -> list[str]:
    """The pass rule, and what else a reader of the log should know (scorers, epochs, errors, status)."""
    return _count(_json_samples(document), document, None)[1]


def read_archive(file: BinaryIO, limit: int | None,
                 budget: Budget | None = None) -> tuple[list[Problem], list[str], str]:
    """Read an Inspect .eval log, a seekable binary file of a zip archive; return (problems, warnings, source).

    The archive's entries are checked before any member is unpacked: at most
    limits.archive_members of them, no name twice, no two overlapping, and at
    most limits.unpacked_bytes unpacked in all (and what the budget, a
    passk.limits.Budget, has left; limits: the budget's, else LIMITS). No member is unpacked past the size its entry
    declares, and of a sample only the keys counted are kept.
    """
    limits = LIMITS if budget is None else budget.limits
    _check_declared_members(file, limits, budget)
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise FormatError(f"The input starts as a zip archive but cannot be opened as one ({error}); "
                          "send the .eval log as Inspect wrote it.") from None
    with archive:
        members = archive.infolist()
        _check_entries(members, budget, limits)
        names = {member.filename for member in members}
        if HEADER not in names:
            raise FormatError(_not_a_log(names))
        header = _member_json(archive, archive.getinfo(HEADER), budget, HEADER_KEYS)
        samples = ((member.filename, _member_json(archive, member, budget, SAMPLE_KEYS)) for member in members
                   if _is_sample(member.filename))
        problems, notes = _count(samples, header, limit)
    return problems, notes, _source(".eval", header.get("version") if isinstance(header, dict) else None)


def _source(kind: str, version: JSON) -> str:
    """Inspect (inspect_ai) .eval log, format version 2: the kind of file and the EvalLog version it says."""
    return f"Inspect (inspect_ai) {kind} log" + (f", format version {version}" if isinstance(version, int) else "")


def _json_samples(document: JSON) -> Iterator[tuple[str, JSON]]:
    """(path, sample) for each sample of a .json log."""
    samples = document.get("samples") if isinstance(document, dict) else None
    if not isinstance(samples, list):
        raise FormatError('The Inspect log has no "samples": it is a header only, or was written without '
                          "samples (--no-log-samples); pass@k needs the score of each sample.")
    return ((f"samples[{index}]", sample) for index, sample in enumerate(samples))


def _count(samples: Iterable[tuple[str, JSON]], header: JSON, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) from (path, sample) pairs and the log's header (its status)."""
    tally: Tally
    seen: dict[tuple[str, int], str]   # (sample id, epoch) -> where it is
    epochs: dict[str, int]   # sample id -> its epochs counted
    tally, seen, epochs = {}, {}, {}
    scorers: list[str] | None
    scorers, errored = None, 0
    for path, sample in samples:
        glanced = _glance(sample)
        if glanced is None:   # something to refuse, or an id or epoch written unusually: the full checks
            sample_id = task_id_of(field(sample, "id", _at(path)), _at(path, "id"))
            epoch = count(field(sample, "epoch", _at(path)), "epoch", _at(path, "epoch"))
        else:
            sample_id, epoch = glanced
        earlier = seen.setdefault((sample_id, epoch), path)
        if earlier != path:
            raise FormatError(f"{_at(path)}: {_named(sample_id, epoch)} appears twice (also at {earlier}); each "
                              "epoch of a sample is counted once.")
        scores = _scores(sample)
        if not scores and sample.get("error") is not None:
            errored += 1
            continue
        if not isinstance(scores, dict) or not scores:
            raise FormatError(f"{_at(path, 'scores')}: {_named(sample_id, epoch)} has no scores; score the log "
                              "first (inspect score) and give the scored log.")
        scorers = scorers or list(scores)
        add_sample(tally, sample_id, _passed(scores, scorers[0], path, sample_id, epoch), _at(path, "id"), limit)
        epochs[sample_id] = epochs.get(sample_id, 0) + 1
    if not tally:
        raise FormatError(_nothing_scored(errored))
    assert scorers is not None   # set by the first sample counted, and one was
    return tallied(tally), _notes(header, scorers, epochs.values(), errored)


def _glance(sample: JSON) -> tuple[str, int] | None:
    """(sample id, epoch) of a sample whose id (a string or a whole number) and epoch (a whole number) pass
    task_id_of's and count's checks at a glance, else None: the sample is checked in full."""
    if type(sample) is not dict:
        return None
    sample_id, epoch = sample.get("id"), sample.get("epoch")
    if type(sample_id) is int:
        sample_id = str(sample_id)
    elif not (type(sample_id) is str and 0 < len(sample_id) <= LIMITS.task_id_chars and sample_id.isascii()
              and not sample_id.isspace()):   # an ASCII string holds no surrogate
        return None
    if type(epoch) is not int or not 0 <= epoch <= LIMITS.largest_count:
        return None
    return sample_id, epoch


def _named(sample_id: str, epoch: int) -> str:
    """A sample and epoch, as an error names them."""
    return f"sample {show(sample_id)}, epoch {epoch},"


def _scores(sample: JSON) -> JSON:
    """A sample's {scorer: score}; a version 1 log's single "score" is named "score"."""
    if "scores" not in sample and isinstance(sample.get("score"), dict):
        return {"score": sample["score"]}
    return sample.get("scores")


def _passed(scores: dict[str, JSON], scorer: str, path: str, sample_id: str, epoch: int) -> bool:
    """True for a pass ("C", 1, true), False for a fail ("I", "P", "N", 0, false); any other value is an error."""
    score = scores.get(scorer)
    value = score.get("value") if type(score) is dict else None
    if value.__class__ is str and value in SCORED:   # the common score, read at a glance
        return value in PASSES
    named = _named(sample_id, epoch)
    if scorer not in scores:
        raise FormatError(f"{_at(path, 'scores')}: {named} has no score from {show(scorer)}, the scorer used "
                          "(the first of the log's); every sample needs one.")
    value = field(scores[scorer], "value", _at(path, key_path("scores", scorer)))
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in PASSES + FAILS:
        return value in PASSES
    if isinstance(value, (int, float)) and value in (0, 1):
        return value == 1
    shown = f"a dict of several values ({', '.join(map(str, value))[:60]})" if isinstance(value, dict) else show(value)
    partial = " (a partial score)" if isinstance(value, float) and 0 < value < 1 else ""
    raise FormatError(f"{_at(path, key_path('scores', scorer) + '.value')}: {named} is scored {shown}{partial} "
                      f"by {show(scorer)}, which is neither a pass nor a fail; pass@k reads C, 1 and true as a pass "
                      "and I, P, N, 0 and false as a fail, so score the log with a scorer that gives those.")


def _notes(header: JSON, scorers: list[str], epochs: Collection[int], errored: int) -> list[str]:
    """The warnings of a log: the pass rule, the scorer used, differing epochs, errored samples, its status."""
    notes = [PASS_RULE]
    if len(scorers) > 1:
        others = ", ".join(show(scorer) for scorer in scorers[1:])
        notes.append(f"The samples have {len(scorers)} scorers; the first, {show(scorers[0])}, was used "
                     f"(also in the log: {others}).")
    if min(epochs) != max(epochs):
        notes.append(f"Epochs per sample differ ({min(epochs):,} to {max(epochs):,}); each sample uses its own count.")
    if errored:
        notes.append(f"{errored:,} sample{'s' if errored > 1 else ''} ended in an error without a score and "
                     f"{'were' if errored > 1 else 'was'} left out.")
    status = header.get("status") if isinstance(header, dict) else None
    if status not in (None, "success"):
        notes.append(f"The Inspect log's status is {show(status)}, not \"success\", so it may hold only "
                     "some of the samples.")
    return notes


def _nothing_scored(errored: int) -> str:
    if errored:
        which = "its only sample" if errored == 1 else f"all {errored:,} samples"
        return f"The Inspect log has no scored samples: {which} ended in an error; there is nothing to count."
    return ("The Inspect log has no samples: it was written without them (--no-log-samples) or before any "
            "finished; pass@k needs the score of each sample.")


def _at(path: str, inner: str = "") -> str:
    """Where something is: "At samples[3].epoch" in a .json log, "In samples/3_epoch_1.json, at epoch" in an archive."""
    if path.endswith(".json"):
        return f"In {path}" + (f", at {inner}" if inner else "")
    return f"At {path}" + (f".{inner}" if inner else "")


# --- .eval archives ----------------------------------------------------------


def _is_sample(name: str) -> bool:
    """True for samples/<id>_epoch_<n>.json, one sample and epoch (ids such as HumanEval/0 hold slashes)."""
    return SAMPLE_MEMBER.fullmatch(name) is not None


def _check_declared_members(file: BinaryIO, limits: Limits, budget: Budget | None) -> None:
    """Refuse a zip whose end record declares more than limits.archive_members members, or more than the budget's
    reading work can open, before zipfile lists them."""
    length = file.seek(0, io.SEEK_END)
    file.seek(max(0, length - END_RECORD - 0xFFFF - ZIP64_LOCATOR))   # the end record, its comment, the locator
    tail = file.read()
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) < end + END_RECORD:
        return   # no end record: zipfile says the archive is damaged
    members = int.from_bytes(tail[end + 10:end + 12], "little")
    locator = end - ZIP64_LOCATOR
    if members == 0xFFFF and locator >= 0 and tail[locator:locator + 4] == b"PK\x06\x07":   # zip64
        file.seek(min(int.from_bytes(tail[locator + 8:locator + 16], "little"), length))
        record = file.read(40)
        if record[:4] == b"PK\x06\x06":
            members = int.from_bytes(record[32:40], "little")
    if members > limits.archive_members:
        raise _too_many_members(members, limits)
    if budget is not None and members * _cost.MEMBER > budget.work:
        raise TooLarge(_too_costly(members, members * _cost.MEMBER, budget))


def _check_entries(members: list[zipfile.ZipInfo], budget: Budget | None, limits: Limits) -> None:
    """Refuse too many members, a name twice, overlapping members (a zip bomb's trick) and too much unpacked."""
    if len(members) > limits.archive_members:
        raise _too_many_members(len(members), limits)
    names: set[str] = set()
    for member in members:
        if member.filename in names:
            raise FormatError(f"The zip archive holds {show(member.filename)} twice; an Inspect .eval log holds "
                              "each member once, so this one is not read.")
        names.add(member.filename)
    end = 0
    for member in sorted(members, key=lambda entry: entry.header_offset):
        if member.header_offset < end:
            raise FormatError(f"The zip archive's member {show(member.filename)} overlaps the one before it, "
                              "as in a zip bomb; an archive built that way is not read.")
        end = member.header_offset + LOCAL_HEADER + len(member.orig_filename.encode("utf-8", "surrogateescape")) \
            + member.compress_size
    unpacked = sum(member.file_size for member in members)
    if unpacked > limits.unpacked_bytes:
        raise TooLarge(f"The zip archive unpacks to {unpacked / MiB:,.0f} MiB, more than the "
                       f"{limits.unpacked_bytes // MiB:,} MiB that is read; split the evaluation into smaller logs.")
    if budget is not None:
        budget.spend_unpacked(unpacked)
        opening = len(members) * _cost.MEMBER + unpacked * _cost.UNPACK_BYTE
        if opening + unpacked * _cost.JSON_BYTE > budget.work:   # its JSON is spent as it is read: it would not fit
            raise TooLarge(_too_costly(len(members), opening + unpacked * _cost.JSON_BYTE, budget, unpacked))
        budget.spend_work(opening)


def _too_costly(members: int, work: float, budget: Budget, unpacked: int | None = None) -> str:
    """The refusal of an archive whose reading, estimated from its entries (work, in microseconds), passes what
    the budget has left."""
    content = "" if unpacked is None else f", with their {size(unpacked)} of JSON,"
    return (f"The zip archive has {members:,} members; opening and counting each costs about {_cost.MEMBER:g} µs, "
            f"so reading them{content} would take about {work / 1e6:.2g} s of computing, more than is left of "
            f"the {budget.limits.read_work / 1e6:g} s one request may spend reading (all of its files together); "
            "an Inspect .eval log has one per sample and epoch, so split the evaluation into smaller logs, or "
            f"{LARGER_RUNS}.")


def _too_many_members(members: int, limits: Limits) -> FormatError:
    return FormatError(f"The zip archive has {members:,} members, more than the {limits.archive_members:,} that "
                       "are read; an Inspect .eval log has one per sample and epoch, so split the evaluation into "
                       "smaller logs.")


def _not_a_log(names: Collection[str]) -> str:
    if "_journal/start.json" in names:
        return ("The .eval log has no header.json: its evaluation had not finished when it was copied; give the "
                "log once Inspect has finished it (a stopped run can be finished with inspect eval-retry).")
    return ("The input is a zip archive without header.json: not an Inspect .eval log, the only zip archive "
            "read; give the results file itself.")


def _member_json(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget | None,
                 only: Collection[str] | None = None) -> JSON:
    """The JSON of one member (of a sample, only the keys counted), unpacked no further than its entry declares."""
    name = member.filename
    try:
        with archive.open(member) as stream:
            if member.file_size <= RETRACE_BYTES:   # read whole, never past its declared size
                return parse_short(stream.read(member.file_size), budget, only, where=f"In {name}")
            return parse_json(stream, budget, only, where=f"In {name}", max_bytes=member.file_size)
    except NotImplementedError:
        raise FormatError(f"In {name}: the member is compressed with zip method {member.compress_type}, which is "
                          "not read (only stored, deflate and zstd are, the methods Inspect writes); send the "
                          ".eval log as Inspect wrote it, or its .json log (inspect log convert --to json).") from None
    except RuntimeError:   # zipfile's error for an encrypted member
        raise FormatError(f"In {name}: the member is encrypted; give the log unencrypted.") from None
    except (zipfile.BadZipFile, zlib.error, ZstdError, EOFError, OSError) as error:
        raise FormatError(f"In {name}: the archive is damaged ({error}); send the .eval log as Inspect "
                          "wrote it.") from None


register(__name__)
