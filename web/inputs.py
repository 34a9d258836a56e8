"""How the pages and the API read what a request sends: the forms' fields as typed, each run's input (a file or
pasted text), JSON bodies, and the planning fields; errors are FormatError or ValueError sentences for the user."""

import io

from flask import request
from markupsafe import escape

from passk import limits
from passk.benchmark import DEFAULT_KS, MAX_KS, parse_ks, summarize, too_many_ks
from passk.calculator import json_count
from passk.formats import EmptyInput, FormatError, read_json_body
from passk.formats._json import NESTED_TOO_DEEPLY, parse_json
from passk.planner import comparison_options, planning_options
from passk.ranking import MAX_RUNS
from passk.report import (CARRIED_FIELDS, NO_INPUT, Report, compare_uploads, distinct_pairs, rank_uploads,
                          report_from_carried, report_from_files, report_from_share)
from passk.sharing import ShareLinkError

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
K_ECHOED = 200   # characters of the k field a page shows back: enough for any list it accepts


class KField(str):
    """The k field as typed: the whole text for parse_ks, but a page shows back only its first K_ECHOED
    characters (Jinja escapes a value through its __html__), so a field of megabytes is not sent back."""

    def __html__(self):
        return str(escape(str.__str__(self)[:K_ECHOED]))


def too_many_runs(count):
    """The refusal of more runs than MAX_RUNS, said before any of them is read (passk.ranking's words)."""
    return f"Too many runs ({count}): rank at most {MAX_RUNS} at once."


def benchmark_form(values):
    """The benchmark form's fields as typed, with defaults; suite is "" unless one was chosen."""
    return {
        "text": values.get("text", ""),
        "k": KField(values.get("k") or ", ".join(map(str, DEFAULT_KS))),
        "format": values.get("format") or "",
        "suite": values.get("suite") or "",
        "counts": values.get("counts") or "",
        "z": values.get("z") or "",
        "carried": {name: values[name] for name in CARRIED_FIELDS if values.get(name)},
        "target": values.get("target") or "1",
        "tokens_per_sample": values.get("tokens_per_sample") or "",
        "price_per_million": values.get("price_per_million") or "",
    }


def planned(report, form):
    """The report with the planner's target, tokens and price from the form (ValueError for bad ones)."""
    report.planning = planning_options(form["target"], form["tokens_per_sample"], form["price_per_million"])
    return report


def report_from_page(form):
    """The page's report: a new file or pasted text wins, else the counts the page carries."""
    upload = request.files.get("file")
    if not (upload and upload.filename) and not form["text"].strip():
        # Recalculating an earlier result: its counts ride along in hidden fields.
        if form["carried"]:
            return report_from_carried(form["carried"], parse_ks(form["k"]), form["suite"] or None)
        if form["counts"] or form["z"]:
            return report_from_share(form["counts"], form["z"], parse_ks(form["k"]), form["suite"] or None)
    return report_from_input(form, NO_INPUT)


def report_from_input(form, empty_message):
    """A report from the uploaded files (the parts of one run), else the pasted text.

    The ks and the number of files are checked before any file is opened.
    """
    files = [(upload.filename, reopener(upload)) for upload in request.files.getlist("file") if upload.filename]
    if len(files) > limits.MAX_FORM_PARTS:   # the form parser refuses these first; kept for any other way in
        raise limits.LimitError(limits.too_many_fields())
    if not files:
        files = [opener(form, "text", "file", empty_message)[::-1]]
    ks = parse_ks(form["k"])
    return report_from_files(files, ks, form["format"] or None, form["suite"] or "plus",
                             limited=limits.Budget(), suite_chosen=bool(form["suite"]))


def compare_form(values):
    """The compare form's fields as typed, with defaults."""
    form = benchmark_form(values)
    form.update({f"{field}_{run}": values.get(f"{field}_{run}", "") for field in ("text", "name") for run in "abc"},
                difference=values.get("difference") or "")
    return form


def comparison_planning(form):
    """comparison_plan's keyword arguments from the form; ValueError naming the field for a bad value."""
    return comparison_options(form["difference"], form["tokens_per_sample"], form["price_per_million"])


def run_c_given(form):
    """True when run C was pasted or has a file."""
    upload = request.files.get("file_c")
    return bool(form["text_c"].strip() or upload and upload.filename)


def more_runs_given(form):
    """True when the page was given runs besides A and B: run C, or files under "More runs"."""
    return run_c_given(form) or any(upload.filename for upload in request.files.getlist("run"))


def check_run_count(count):
    """Refuse more than MAX_RUNS runs by their count alone, before any of them is read."""
    if count > MAX_RUNS:
        raise limits.LimitError(too_many_runs(count))


def ranking_from_page(form):
    """Rank runs A, B and C (each pasted or a file) and the files of "More runs" (one run each).

    A run is named by its name field, else after its file; a pasted run without a name is "Run A", "B" or "C".
    """
    more = [upload for upload in request.files.getlist("run") if upload.filename]
    check_run_count(2 + run_c_given(form) + len(more))
    runs = [opener(form, f"text_{run}", f"file_{run}", PAGE_EMPTY_RUN.format(run.upper())) for run in "ab"]
    if run_c_given(form):
        runs.append(opener(form, "text_c", "file_c", PAGE_EMPTY_RUN.format("C")))
    runs += [(reopener(upload), upload.filename) for upload in more]
    names = [form[f"name_{label.lower()}"].strip() or (None if filename else f"Run {label}")
             for (_, filename), label in zip(runs, "ABC")]
    ks = parse_ks(form["k"])
    return rank_uploads([(filename, open_run) for open_run, filename in runs], ks,
                        form["format"] or None, form["suite"] or "plus", names=names, limited=limits.Budget(),
                        suite_chosen=bool(form["suite"]))


def opener(form, text_field, file_field, empty_message):
    """(open(), filename) for one input: its uploaded file, else its pasted text."""
    upload = request.files.get(file_field)
    if upload and upload.filename:
        return reopener(upload), upload.filename
    text = form.get(text_field) or "" if text_field else ""
    if not text.strip():
        raise FormatError(empty_message)
    data = text.encode("utf-8", "surrogatepass")
    return (lambda: io.BytesIO(data)), None


def reopener(upload):
    """open() for an uploaded file: its stream, from the start, each time it is called."""
    def open_upload():
        upload.stream.seek(0)
        return upload.stream
    return open_upload


def comparison_from_request(form, fields_a, fields_b, empty_message):
    """Pair run A and run B from the request's files or pasted texts; empty_message names the run with {}."""
    open_a, name_a = opener(form, *fields_a, empty_message.format("A"))
    open_b, name_b = opener(form, *fields_b, empty_message.format("B"))
    ks = parse_ks(form["k"])
    return compare_uploads(open_a, open_b, ks, form["format"] or None, form["suite"] or "plus",
                           (name_a, name_b), limited=limits.Budget(), suite_chosen=bool(form["suite"]))


def ranking_from_request(form):
    """Rank the request's "run" files, each one run, named by its "name" field (in order) or its file name."""
    uploads = request.files.getlist("run")
    check_run_count(len(uploads))
    files = [(upload.filename or None, reopener(upload)) for upload in uploads]
    ks = parse_ks(form["k"])
    return rank_uploads(files, ks, form["format"] or None, form["suite"] or "plus",
                        names=request.form.getlist("name"), limited=limits.Budget(), suite_chosen=bool(form["suite"]))


def api_sentence(error):
    """An input error as the API says it: empty input names the field to send."""
    if isinstance(error, EmptyInput):
        run = getattr(error, "run", None)
        return API_EMPTY_RUN.format(run, run.lower()) if run else API_EMPTY
    return str(error)


def error_status(error):
    """An input error's status: 413 for input past a size limit (TooLarge), 400 for anything else."""
    return 413 if isinstance(error, limits.TooLarge) else 400


def json_body(example, otherwise=API_NO_INPUT):
    """The request's JSON body, read as a stream of tokens within the request's budget (TooLarge past it);
    FormatError, showing the example, when it is not JSON (otherwise: what to send)."""
    if not request.is_json:
        raise FormatError(otherwise)
    try:
        body = parse_json(io.BytesIO(request.get_data(cache=False)), limits.Budget())
    except FormatError as error:
        if str(error) == NESTED_TOO_DEEPLY:
            raise FormatError(f"The JSON body is nested too deeply; send {example}.") from None
        raise FormatError(f"The request body is not valid JSON; send {example}.") from None
    if body is None:
        raise FormatError(f"The request body is not valid JSON; send {example}.")
    return body


def report_from_json_body():
    """The report of the API's JSON body {"problems": [...], "k": [...]}, with its planning options."""
    body = json_body('{"problems": [...], "k": [1, 10]}')
    if isinstance(body, dict) and isinstance(body.get("k"), list) and len(body["k"]) > MAX_KS:
        raise FormatError(too_many_ks(len(body["k"])))   # by the list's length, before any value or problem is read
    try:
        parsed = read_json_body(body, limits.MAX_PROBLEMS)
    except EmptyInput:
        raise FormatError('"problems" is empty: give at least one problem, like '
                          '{"problems": [{"task_id": "a", "n": 10, "c": 3}], "k": [1, 10]}.') from None
    ks = body.get("k", list(DEFAULT_KS)) if isinstance(body, dict) else DEFAULT_KS
    if isinstance(ks, list) and any(isinstance(k, str) for k in ks):
        raise FormatError('"k" must be a list of JSON numbers, not strings: send [1, 10], not ["1", "10"].')
    if not isinstance(ks, list) or None in map(json_count, ks):
        raise FormatError('"k" must be a list of whole numbers, like [1, 10, 100].')
    ks = parse_ks(",".join(str(json_count(k)) for k in ks))
    limits.check_cells(len(parsed.problems), ks)
    limits.check_distinct(distinct_pairs(parsed.problems), ks)
    return Report(summarize(parsed.problems, ks, warnings=parsed.warnings), "json", planning=json_planning(body))


def json_planning(body):
    """plan()'s options from the JSON body's "target" (points), "tokens_per_sample" and "price_per_million"."""
    names = ("target", "tokens_per_sample", "price_per_million")
    options = {name: body[name] for name in names if name in body} if isinstance(body, dict) else {}
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FormatError(f'"{name}" must be a JSON number, like {{"{name}": 2}}.')
    return planning_options(**{name: repr(value) for name, value in options.items()})
