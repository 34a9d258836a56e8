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

Each sample id is a problem and its epochs are its samples: n is the number of epochs scored for the id,
Problem.scores each epoch's score in epoch order, and c the number with full credit (a score of 1). Scores
are read as Inspect's value_to_float reads them (passk.formats._inspect_scores): C, 1, true and "yes" are 1,
P (partial) 0.5, I, N, 0, false and "no" 0, a number from 0 to 1 itself (a graded score, such as 0.65).
A log holds one score per scorer, or per key of a scorer whose value is a dict, named as Inspect's results
name them; the suite choice names the one read (default: the first, in the samples' order), as EvalPlus's
suites are chosen. A sample that ended in an error without a score, or whose score is NaN (unscored), is
left out, as Inspect's metrics leave it out. A log without samples (a header, as `inspect log dump
--header-only` writes) holds aggregates only and is refused; one holding fewer samples than its results
count is read with a warning.
"""

import io
import math
import re
import sys
import zlib
from collections.abc import Collection, Iterable, Iterator
from typing import BinaryIO, TypeAlias

from passk.formats import _cost
from passk.formats import _inspect_scores
from passk.formats._core import JSON, FormatError, Problem, count, field, key_path, show, task_id_of
from passk.formats._inspect_scores import Named, Unscored
from passk.formats._json import RETRACE_BYTES, parse_json, parse_short
from passk.formats.registry import register
from passk.formats.evalplus import SUITES
from passk.limits import LARGER_RUNS, LIMITS, Budget, Limits, MiB, TooLarge, size, too_many_problems

if sys.version_info >= (3, 14):
    import zipfile
    from compression.zstd import ZstdError
else:   # Python 3.14's zipfile, which unpacks zstd members (method 93) a bounded piece at a time
    from backports.zstd import ZstdError, zipfile

NAME = "inspect"
LABEL = "Inspect"   # the tool, as people name it
TITLE = "Inspect (inspect_ai) .eval or .json log"
SIGNATURE = ('an object with "eval": {"task", "model"} beside an EvalLog\'s "version", "status", "results" or '
             '"samples"')   # what detection looks for
SOURCE = "Inspect (inspect_ai) log"
ZIP_MAGIC = b"PK\x03\x04"
HEADER = "header.json"
LOCAL_HEADER = 30         # bytes of a member's local header before its name
END_RECORD, ZIP64_LOCATOR = 22, 20   # bytes of the end of central directory record, and of the zip64 locator
SAMPLE_KEYS = frozenset(("id", "epoch", "scores", "score", "error"))   # what is kept of a sample
HEADER_KEYS = frozenset(("version", "status", "results"))   # what is kept of the header
LOG_KEYS = frozenset(("version", "status", "results", "samples", "plan", "stats"))   # an EvalLog's own keys
Scored: TypeAlias = tuple[str, str, int, dict[str, JSON]]   # a sample's (path, id, epoch, {scorer: score})
SAMPLE_MEMBER = re.compile(r"samples/.+_epoch_[0-9]+\.json", re.DOTALL)
PASS_RULE = (f"Inspect scores are read as Inspect reads them ({_inspect_scores.RULE}), and a sample passes with "
             "full credit, a score of 1.")


def looks_like(document: JSON) -> bool:
    """An object with an "eval" that names its "task" and "model" (strings) and one of an EvalLog's own keys
    ("version", "samples", "results", ...): a log, or a header without samples."""
    spec = document.get("eval") if isinstance(document, dict) else None
    return (isinstance(spec, dict) and isinstance(spec.get("task"), str) and isinstance(spec.get("model"), str)
            and not LOG_KEYS.isdisjoint(document))


def source(document: JSON) -> str:
    """The log file and its format version."""
    return _source(".json", document.get("version"))


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read an Inspect .json log: each sample id is a problem, each of its epochs a sample."""
    return read_log(document, suite, limit)[0]


def warnings(document: JSON) -> list[str]:
    """What a reader of the log should know besides its counts, when its first score is read (see read_log)."""
    return read_log(document, SUITES[-1], None)[1]


def read_log(document: JSON, suite: str, limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) of an Inspect .json log; suite names the score read ("base" or "plus": the first)."""
    return _count(_json_samples(document), document, suite, limit)


def read_archive(file: BinaryIO, limit: int | None, budget: Budget | None = None,
                 suite: str = SUITES[-1]) -> tuple[list[Problem], list[str], str]:
    """Read an Inspect .eval log, a seekable binary file of a zip archive; return (problems, warnings, source).

    suite names the score read, as read_log's does. The archive's entries are checked before any member is
    unpacked: at most limits.archive_members of them, no name twice, no two overlapping, and at
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
        problems, notes = _count(samples, header, suite, limit)
    return problems, notes, _source(".eval", header.get("version") if isinstance(header, dict) else None)


def _source(kind: str, version: JSON) -> str:
    """Inspect (inspect_ai) .eval log, format version 2: the kind of file and the EvalLog version it says."""
    return f"Inspect (inspect_ai) {kind} log" + (f", format version {version}" if isinstance(version, int) else "")


def _json_samples(document: JSON) -> Iterator[tuple[str, JSON]]:
    """(path, sample) for each sample of a .json log."""
    samples = document.get("samples") if isinstance(document, dict) else None
    if not isinstance(samples, list):
        total = _total_samples(document)
        over = f" over its {total:,} samples" if total else ""
        raise FormatError(f"The Inspect log holds no samples, only its header and results, as inspect log dump "
                          f"--header-only or a run with --no-log-samples writes it: its accuracy{over} is an "
                          "aggregate, while pass@k needs the score of each sample; give the .eval log itself, or "
                          "its JSON with the samples (inspect log dump, without --header-only).")
    return ((f"samples[{index}]", sample) for index, sample in enumerate(samples))


def _count(samples: Iterable[tuple[str, JSON]], header: JSON, suite: str,
           limit: int | None) -> tuple[list[Problem], list[str]]:
    """(problems, warnings) from (path, sample) pairs and the log's header (its status and results)."""
    wanted = None if suite in SUITES else suite
    scored: dict[str, dict[int, float]] = {}   # sample id -> {epoch: its score}
    seen: dict[tuple[str, int], str] = {}   # (sample id, epoch) -> where it is
    named: list[Named] = []   # the log's scores, from its first sample with none NaN (a NaN hides a dict's keys)
    score: Named | None = None   # the one read
    waiting: list[Scored] = []   # samples read before the log's scores are known
    errored = unscored = 0
    for path, sample in samples:
        sample_id, epoch = _sample_key(path, sample)
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
        waiting.append((path, sample_id, epoch, scores))
        if score is None and not _inspect_scores.any_unscored(scores):
            named = _inspect_scores.named_scores(scores)
            score = _inspect_scores.chosen(named, wanted)
        if score is not None:
            unscored += _keep(scored, waiting, score, limit)
    if waiting:   # every sample read has a NaN score: the first names the log's scores
        named = _inspect_scores.named_scores(waiting[0][3])
        score = _inspect_scores.chosen(named, wanted)
        unscored += _keep(scored, waiting, score, limit)
    if not scored:
        raise FormatError(_nothing_scored(errored, unscored))
    assert score is not None   # set when the first sample scored was kept
    problems = [_problem(sample_id, epochs) for sample_id, epochs in scored.items()]
    return problems, _notes(header, named, score, problems, (errored, unscored, len(seen)))


def _keep(scored: dict[str, dict[int, float]], waiting: list[Scored], score: Named, limit: int | None) -> int:
    """Keep each waiting sample's score named score (emptying waiting); return how many were unscored (NaN)."""
    unscored = 0
    for path, sample_id, epoch, scores in waiting:
        try:
            _add(scored, sample_id, epoch, _score(scores, score, path, sample_id, epoch), limit)
        except Unscored:
            unscored += 1
    waiting.clear()
    return unscored


def _sample_key(path: str, sample: JSON) -> tuple[str, int]:
    """(sample id, epoch) of a sample, checked at a glance or, when written unusually, in full."""
    glanced = _glance(sample)
    if glanced is not None:
        return glanced
    sample_id = task_id_of(field(sample, "id", _at(path)), _at(path, "id"))
    return sample_id, count(field(sample, "epoch", _at(path)), "epoch", _at(path, "epoch"))


def _add(scored: dict[str, dict[int, float]], sample_id: str, epoch: int, score: float, limit: int | None) -> None:
    """Keep an epoch's score, refusing more than limit sample ids (None: any number)."""
    epochs = scored.get(sample_id)
    if epochs is None:
        if limit is not None and len(scored) >= limit:
            raise FormatError(too_many_problems(limit))
        epochs = scored[sample_id] = {}
    epochs[epoch] = score


def _problem(sample_id: str, epochs: dict[int, float]) -> Problem:
    """A sample id's problem: its epochs' scores in epoch order, c those with full credit."""
    scores = tuple(epochs[epoch] for epoch in sorted(epochs))
    return Problem(sample_id, len(scores), scores.count(1.0), scores=scores)


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


def _score(scores: dict[str, JSON], score: Named, path: str, sample_id: str, epoch: int) -> float:
    """The sample's score named score, in [0, 1]; Unscored for NaN, a FormatError for any other value."""
    entry = scores.get(score.scorer)
    value = entry.get("value") if type(entry) is dict else None
    if value.__class__ is str and value in _inspect_scores.LETTERS:   # the common score, read at a glance
        return _inspect_scores.LETTERS[value]
    named = _named(sample_id, epoch)
    if score.scorer not in scores:
        raise FormatError(f"{_at(path, 'scores')}: {named} has no score from {show(score.scorer)}, the scorer read; "
                          "every sample needs one.")
    where = key_path("scores", score.scorer)
    value = field(scores[score.scorer], "value", _at(path, where))
    where += ".value"
    if score.key is not None:
        if isinstance(value, float) and math.isnan(value):   # Score.unscored: NaN for the whole dict
            raise Unscored
        if not isinstance(value, dict) or score.key not in value:
            raise FormatError(f"{_at(path, where)}: {named} has no {show(score.key)} in its value; the scorer "
                              f"{show(score.scorer)} gives a dict of values, and every sample needs the key read.")
        value, where = value[score.key], key_path(where, score.key)
    result = _inspect_scores.score_of(value)
    if result is None:
        shown, reason = _inspect_scores.why_not(value)
        raise FormatError(f"{_at(path, where)}: {named} is scored {shown} by {show(score.name)}, {reason}; pass@k "
                          f"reads a score from 0 to 1 as Inspect does ({_inspect_scores.RULE}), so choose a score "
                          "that gives one (suite=, --suite) or score the log with a scorer that does.")
    return result


def _notes(header: JSON, named: list[Named], score: Named, problems: list[Problem],
           left_out: tuple[int, int, int]) -> list[str]:
    """The warnings of a log: the score rule, partial credit, the score read, differing epochs, samples left out
    or missing from the file, its status. left_out: (samples errored, unscored, in the file)."""
    errored, unscored, records = left_out
    notes = [PASS_RULE, *_partial_credit(problems), *_scores_named(named, score)]
    epochs = [problem.n for problem in problems]
    if min(epochs) != max(epochs):
        notes.append(f"Epochs per sample differ ({min(epochs):,} to {max(epochs):,}); each sample uses its own count.")
    if errored:
        notes.append(f"{_samples(errored)} ended in an error without a score and {_were(errored)} left out.")
    if unscored:
        notes.append(f"{_samples(unscored)} {_were(unscored)} unscored (a NaN score) and left out, as Inspect's "
                     "metrics leave them out.")
    total = _total_samples(header)
    if total and records < total:
        notes.append(f"The log holds {records:,} of the {total:,} samples its results count (total_samples, "
                     "samples × epochs); the others are not in the file, so these figures are for the "
                     f"{records:,} present, not for the whole evaluation.")
    status = header.get("status") if isinstance(header, dict) else None
    if status not in (None, "success"):
        notes.append(f"The Inspect log's status is {show(status)}, not \"success\", so it may hold only "
                     "some of the samples.")
    return notes


def _partial_credit(problems: list[Problem]) -> list[str]:
    """The warning of a log with scores between 0 and 1, none for one of 0s and 1s."""
    partial = [score for problem in problems for score in problem.scores or () if 0.0 < score < 1.0]
    if not partial:
        return []
    samples = sum(problem.n for problem in problems)
    verb = "has" if len(partial) == 1 else "have"
    return [f"{len(partial):,} of the {samples:,} samples scored {verb} partial credit (a score between 0 and 1, "
            f"such as {partial[0]:g}); pass@k counts full credit (a score of 1) as a pass, and the graded mean and "
            "max@k read the scores themselves."]


def _scores_named(named: list[Named], score: Named) -> list[str]:
    """The warning of a log of several scores: which was read, and the others."""
    if len(named) < 2:
        return []
    others = [other.name for other in named if other != score]
    listed = ", ".join(show(name) for name in others[:5]) + (f" and {len(others) - 5:,} more" if len(others) > 5
                                                             else "")
    of = f" (a key of the dict of values scorer {show(score.scorer)} gives)" if score.key is not None else ""
    return [f"The log holds {len(named)} scores, each a run: this is {show(score.name)}{of}. "
            f"The other{'s' if len(others) > 1 else ''}: {listed}; choose one with the suite choice "
            "(suite=, --suite)."]


def _total_samples(header: JSON) -> int | None:
    """The samples the log's results count (dataset samples × epochs), when it says."""
    results = header.get("results") if isinstance(header, dict) else None
    total = results.get("total_samples") if isinstance(results, dict) else None
    return total if type(total) is int and total > 0 else None


def _samples(number: int) -> str:
    return f"{number:,} sample{'s' if number > 1 else ''}"


def _were(number: int) -> str:
    return "were" if number > 1 else "was"


def _nothing_scored(errored: int, unscored: int) -> str:
    left = errored + unscored
    if left:
        which = "its only sample" if left == 1 else f"all {left:,} samples"
        why = " or ".join(reason for reason, there in (("ended in an error", errored),
                                                        (f"{_were(left)} unscored (a NaN score)", unscored)) if there)
        return f"The Inspect log has no scored samples: {which} {why}; there is nothing to count."
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
