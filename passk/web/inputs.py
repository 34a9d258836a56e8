"""How the pages and the API read what a request sends, given the request's form (web.forms) and its files: each
run's input (a file or pasted text), JSON bodies, and the counts a page carries; errors are FormatError or
ValueError sentences for the user."""

import functools
import io
from collections.abc import Callable, Mapping
from typing import IO, ParamSpec

from werkzeug.datastructures import FileStorage, MultiDict

from passk import limits
from passk.results.benchmark import Comparison, summarize, too_many_ks
from passk.results.calculator import printable
from passk.maths.estimator import DEFAULT_KS
from passk.formats import FORMATS, SUITES, EmptyInput, FormatError, read_files, read_json_body
from passk.formats._core import JSON
from passk.formats._json import NESTED_TOO_DEEPLY, parse_json
from passk.formats.evalarena import NAME as EVALARENA, SeveralModels
from passk.results.metrics import Beside
from passk.results.ranking import Ranking, rank_runs, too_few_runs
from passk.writing.report import (SOURCE_NAME_LIMIT, DamagedCounts, MissingCounts, Report, compare_uploads, distinct_pairs,
                                  rank_uploads, report_from_download, report_from_files, report_from_packed, report_from_share)
from passk.writing.sharing import ShareLinkError
from passk.web.forms import (CARRIED_DAMAGED, CARRIED_MISSING, DOWNLOAD_DAMAGED, NO_INPUT, BenchmarkForm, CompareForm,
                             DownloadForm, beside_options, json_ks, json_planning)
from passk.web.query import json_count

Files = MultiDict[str, FileStorage]   # a request's uploaded files by field name
Opener = Callable[[], IO[bytes]]      # open() of one input: a fresh binary stream, from its start, each call

# The API's own words for missing or empty input: the fields README and SPEC name, not the page's box.
API_NO_INPUT = ('Send the results as a multipart file field named "file", or a JSON body '
                '{"problems": [{"task_id", "n", "c"}, ...], "k": [1, 10]}.')
API_EMPTY = ('The input is empty: no problems were found; send a harness results file (JSONL, JSON or CSV) or '
             'task_id,n,c lines as the multipart file field "file".')
PAGE_EMPTY_RUN = "Run {} is empty: paste its results or choose its file."
API_NO_RUN = 'Run {} is missing: send the two runs as multipart file fields named "a" and "b".'
API_EMPTY_RUN = ('Run {} is empty: no problems were found; send a harness results file (JSONL, JSON or CSV) or '
                 'task_id,n,c lines as the multipart file field "{}".')
INPUT_ERRORS = (FormatError, ShareLinkError, ValueError)   # what a user sent wrong: a sentence, never a 500
# A file of several models sent as one run (passk.formats.evalarena.SeveralModels): how the pages and the API rank
# them, or read one; {} is the refusal's first half, which names the models.
SEVERAL_MODELS = ('{}; rank them all on the Compare page (this file as Run A, with no other run), with POST '
                  '/api/v1/compare (the file as its one "run" field) or with `passk --runs FILE`, or read one model '
                  "as a run with suite=MODEL (the API's suite field; `passk FILE --suite MODEL`).")


def report_from_page(form: BenchmarkForm, files: Files) -> Report:
    """The page's report: a new file or pasted text wins, else the counts the page carries."""
    upload = files.get("file")
    if not (upload and upload.filename) and not form.text.strip():
        # Recalculating an earlier result: its counts ride along in hidden fields.
        if form.carried:
            return report_from_carried(form.carried, form.ks(), form.suite or None, form.beside())
        if form.counts or form.z:
            return report_from_share(form.counts, form.z, form.ks(), form.suite or None, form.beside())
    return report_from_input(form, files, NO_INPUT)


Read = ParamSpec("Read")


def several_models_advice(read: Callable[Read, Report]) -> Callable[Read, Report]:
    """read, its refusal of a file of several models (SeveralModels) said with the web's ways to rank or choose them."""
    @functools.wraps(read)
    def reading(*args: Read.args, **kwargs: Read.kwargs) -> Report:
        try:
            return read(*args, **kwargs)
        except SeveralModels as several:
            if not several.held:   # one part of several files: its name leads the sentence already
                raise
            raise FormatError(SEVERAL_MODELS.format(several.held)) from None
    return reading


@several_models_advice
def report_from_input(form: BenchmarkForm, files: Files, empty_message: str) -> Report:
    """A report from the uploaded files (the parts of one run), else the pasted text.

    The ks and the number of files are checked before any file is opened.
    """
    parts: list[tuple[str | None, Opener]] = [(upload.filename, reopener(upload)) for upload in files.getlist("file")
                                              if upload.filename]
    if len(parts) > limits.LIMITS.form_parts:   # the form parser refuses these first; kept for any other way in
        raise limits.LimitError(limits.too_many_fields())
    if not parts:
        parts = [opener(files, form.text, "file", empty_message)[::-1]]
    ks, beside = form.ks(), form.beside()
    return report_from_files(parts, ks, form.format or None, form.suite or "plus",
                             limited=limits.Budget(), suite_chosen=bool(form.suite), beside=beside)


def report_from_carried(carried: Mapping[str, str], ks: list[int], suite: str | None,
                        beside: Beside = Beside()) -> Report:
    """Recalculate an upload from the counts the page carried (web.forms.carried_fields) for new ks or suite.

    suite: the suite the user chose, None for the default (plus); beside: what to compute beside pass@k (the
    counts carry no votes, so maj@k needs the file again).
    """
    fmt = carried.get("carried_format", "") if carried.get("carried_format") in FORMATS else "csv"
    name = printable(carried.get("carried_name") or "the uploaded file", SOURCE_NAME_LIMIT)
    packed = {other: carried.get(f"carried_{other}") for other in SUITES} if fmt == "evalplus" else \
        {"": carried.get("carried_counts")}
    try:
        return report_from_packed(packed, ks, fmt, name, suite, beside)
    except MissingCounts:
        raise FormatError(CARRIED_MISSING) from None
    except DamagedCounts:
        raise FormatError(CARRIED_DAMAGED.format(name)) from None


def report_from_download_form(form: DownloadForm) -> Report:
    """The report the page's download form describes, read as the results were."""
    ks = form.ks()
    try:
        return report_from_download(form.packed, form.counts, ks, form.source_format)
    except DamagedCounts:
        raise FormatError(DOWNLOAD_DAMAGED) from None


def leaderboard_from_page(form: CompareForm, files: Files) -> tuple[Ranking, list[str]] | None:
    """The ranking of the models in run A when it is the only run given and one file of several models (eval-arena's
    own data files); None for any other input, which the two-run comparison then reads or refuses."""
    if not run_given(files, form.text_a, "a") or run_given(files, form.text_b, "b") or more_runs_given(form, files):
        return None
    open_run, filename = opener(files, form.text_a, "file_a", PAGE_EMPTY_RUN.format("A"))
    return models_ranking(form, open_run, filename)


def leaderboard_from_request(form: CompareForm, files: Files) -> tuple[Ranking, list[str]] | None:
    """The API's ranking of the models in its one run, sent as the only "run" file or as "a" without "b"; None
    for any other request. A lone "run" file of anything else is refused (a ranking needs two runs) without
    being read again."""
    runs = files.getlist("run")
    field = "run" if len(runs) == 1 else "a" if not runs and "a" in files and "b" not in files else None
    if field is None:
        return None
    upload = files[field]
    ranked = models_ranking(form, reopener(upload), upload.filename or None)
    if ranked is None and field == "run":   # one run, read already: refused without reading it again
        raise ValueError(too_few_runs(1))
    return ranked


def models_ranking(form: CompareForm, open_run: Opener, filename: str | None) -> tuple[Ranking, list[str]] | None:
    """Rank the models of one file of several (each model a run, passk.results.ranking.rank_runs within the web's bounds);
    None when the input is anything else, or cannot be read (the comparison then says why)."""
    ks = form.ks()
    try:
        read_files([(filename, open_run())], fmt=form.format or None, suite=form.suite or "plus",
                   max_problems=limits.LIMITS.problems, max_lines=limits.LIMITS.lines, budget=limits.Budget())
    except SeveralModels as several:
        models = [(printable(model, SOURCE_NAME_LIMIT), problems) for model, problems in several.models]
        limits.check_cells(sum(len(problems) for _, problems in models), ks)
        return rank_runs(models, ks), [EVALARENA] * len(models)
    except INPUT_ERRORS:
        return None
    return None


def run_given(files: Files, text: str, run: str) -> bool:
    """True when run ("a", "b" or "c") was pasted or has a file."""
    upload = files.get(f"file_{run}")
    return bool(text.strip() or upload and upload.filename)


def run_c_given(form: CompareForm, files: Files) -> bool:
    """True when run C was pasted or has a file."""
    return run_given(files, form.text_c, "c")


def more_runs_given(form: CompareForm, files: Files) -> bool:
    """True when the page was given runs besides A and B: run C, or files under "More runs"."""
    return run_c_given(form, files) or any(upload.filename for upload in files.getlist("run"))


def check_run_count(count: int, ks: list[int]) -> None:
    """Refuse more than limits.LIMITS.runs runs, or more pairs × ks than a ranking may compute, by their count
    alone, before any of them is read."""
    limits.check_ranking([0] * count, ks)


def ranking_from_page(form: CompareForm, files: Files) -> tuple[Ranking, list[str]]:
    """Rank runs A, B and C (each pasted or a file) and the files of "More runs" (one run each).

    A run is named by its name field, else after its file; a pasted run without a name is "Run A", "B" or "C".
    """
    more = [upload for upload in files.getlist("run") if upload.filename]
    check_run_count(2 + run_c_given(form, files) + len(more), form.ks())
    texts = {"a": form.text_a, "b": form.text_b, "c": form.text_c}
    runs = [opener(files, texts[run], f"file_{run}", PAGE_EMPTY_RUN.format(run.upper())) for run in "ab"]
    if run_c_given(form, files):
        runs.append(opener(files, form.text_c, "file_c", PAGE_EMPTY_RUN.format("C")))
    runs += [(reopener(upload), upload.filename) for upload in more]
    names = [name.strip() or (None if filename else f"Run {label}")
             for (_, filename), label, name in zip(runs, "ABC", (form.name_a, form.name_b, form.name_c))]
    ks = form.ks()
    return rank_uploads([(filename, open_run) for open_run, filename in runs], ks,
                        form.format or None, form.suite or "plus", names=names, limited=limits.Budget(),
                        suite_chosen=bool(form.suite))


def opener(files: Files, text: str | None, file_field: str, empty_message: str) -> tuple[Opener, str | None]:
    """(open(), filename) for one input: its uploaded file, else its pasted text (None: the input takes none)."""
    upload = files.get(file_field)
    if upload and upload.filename:
        return reopener(upload), upload.filename
    if not (text or "").strip():
        raise FormatError(empty_message)
    data = (text or "").encode("utf-8", "surrogatepass")
    return (lambda: io.BytesIO(data)), None


def reopener(upload: FileStorage) -> Opener:
    """open() for an uploaded file: its stream, from the start, each time it is called."""
    def open_upload() -> IO[bytes]:
        upload.stream.seek(0)
        return upload.stream
    return open_upload


def comparison_from_request(form: CompareForm, files: Files, run_a: tuple[str | None, str],
                            run_b: tuple[str | None, str], empty_message: str) -> tuple[Comparison, list[str]]:
    """Pair run A and run B, each (its pasted text or None, its file field), from the request's files or the
    texts; empty_message names the run with {}."""
    open_a, name_a = opener(files, *run_a, empty_message.format("A"))
    open_b, name_b = opener(files, *run_b, empty_message.format("B"))
    ks = form.ks()
    return compare_uploads(open_a, open_b, ks, form.format or None, form.suite or "plus",
                           (name_a, name_b), limited=limits.Budget(), suite_chosen=bool(form.suite))


def ranking_from_request(form: CompareForm, files: Files, names: list[str]) -> tuple[Ranking, list[str]]:
    """Rank the request's "run" files, each one run, named by names (in order) or by its file name."""
    uploads = files.getlist("run")
    check_run_count(len(uploads), form.ks())
    runs = [(upload.filename or None, reopener(upload)) for upload in uploads]
    ks = form.ks()
    return rank_uploads(runs, ks, form.format or None, form.suite or "plus",
                        names=names, limited=limits.Budget(), suite_chosen=bool(form.suite))


def api_sentence(error: Exception) -> str:
    """An input error as the API says it: empty input names the field to send."""
    if isinstance(error, EmptyInput):
        run = getattr(error, "run", None)
        return API_EMPTY_RUN.format(run, run.lower()) if run else API_EMPTY
    return str(error)


def error_status(error: Exception | str) -> int:
    """An input error's status: 413 for input past a size limit (TooLarge), 400 for anything else."""
    return 413 if isinstance(error, limits.TooLarge) else 400


def json_body(data: bytes | None, example: str, otherwise: str = API_NO_INPUT) -> JSON:
    """A request's JSON body (data; None when the request is not JSON), read as a stream of tokens within the
    request's budget (TooLarge past it); FormatError, showing the example, when it is not JSON (otherwise: what
    to send)."""
    if data is None:
        raise FormatError(otherwise)
    try:
        body = parse_json(io.BytesIO(data), limits.Budget())
    except FormatError as error:
        if str(error) == NESTED_TOO_DEEPLY:
            raise FormatError(f"The JSON body is nested too deeply; send {example}.") from None
        raise FormatError(f"The request body is not valid JSON; send {example}.") from None
    if body is None:
        raise FormatError(f"The request body is not valid JSON; send {example}.")
    return body


def report_from_json_body(data: bytes | None) -> Report:
    """The report of the API's JSON body {"problems": [...], "k": [...]}, with its planning options."""
    body = json_body(data, '{"problems": [...], "k": [1, 10]}')
    if isinstance(body, dict) and isinstance(body.get("k"), list) and len(body["k"]) > limits.LIMITS.ks:
        raise FormatError(too_many_ks(len(body["k"])))   # by the list's length, before any value or problem is read
    try:
        parsed = read_json_body(body, limits.LIMITS.problems)
    except EmptyInput:
        raise FormatError('"problems" is empty: give at least one problem, like '
                          '{"problems": [{"task_id": "a", "n": 10, "c": 3}], "k": [1, 10]}.') from None
    given = body.get("k", list(DEFAULT_KS)) if isinstance(body, dict) else DEFAULT_KS
    if isinstance(given, list) and any(isinstance(k, str) for k in given):
        raise FormatError('"k" must be a list of JSON numbers, not strings: send [1, 10], not ["1", "10"].')
    counts = list(map(json_count, given)) if isinstance(given, list) else [None]
    if None in counts:
        raise FormatError('"k" must be a list of whole numbers, like [1, 10, 100].')
    ks = json_ks([k for k in counts if k is not None])
    beside = json_beside(body)
    limits.check_cells(len(parsed.problems), ks)
    limits.check_distinct(distinct_pairs(parsed.problems), ks)
    return Report(summarize(parsed.problems, ks, warnings=parsed.warnings, tau=beside.tau, tie=beside.tie,
                            vote_work=limits.LIMITS.vote_work, tail_work=limits.LIMITS.tail_work,
                            score_work=limits.LIMITS.score_work,
                            variance_terms=limits.LIMITS.variance_terms), "json",
                  planning=json_planning(body), plan_work=limits.LIMITS.plan_work)


def json_beside(body: JSON) -> Beside:
    """What the JSON body asks beside pass@k: "tau", a number in [0, 1] for G-Pass@k, and "tie", maj@k's rule
    for a tied vote when its problems carry "answers"."""
    tau, tie = (body.get("tau"), body.get("tie")) if isinstance(body, dict) else (None, None)
    if tau is not None and (isinstance(tau, bool) or not isinstance(tau, (int, float))):
        raise FormatError('"tau" must be a JSON number from 0 to 1, like 0.5.')
    if tie is not None and not isinstance(tie, str):
        raise FormatError('"tie" must be "fractional" or "wrong".')
    return beside_options("" if tau is None else repr(tau), tie or "")
