"""passk web application: thin views over the passk package."""

import hashlib
import io
import os
from urllib.parse import urlsplit

from flask import (Flask, Request, Response, current_app, jsonify, redirect, render_template, request,
                   send_from_directory, url_for)
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.formparser import FormDataParser
from werkzeug.sansio.utils import host_is_trusted
from werkzeug.security import safe_join

from passk import display, limits, paper
from passk.benchmark import DEFAULT_KS, parse_ks, summarize
from passk.planner import comparison_options, comparison_plan, plan, planning_options, top_pair_plan
from passk.calculator import API_EXAMPLE, FIELDS, calculate_query, json_count, read_json, read_query
from passk.charts import curve_chart, difference_chart, histogram_chart, interval_chart, k_curve_chart
from passk.formats import FORMAT_NAMES, FORMATS, EmptyInput, FormatError, read_json_body
from passk.report import (CARRIED_FIELDS, NO_INPUT, compare_uploads, json_chunks, per_problem_csv_chunks,
                          rank_uploads, report_from_carried, report_from_download, report_from_files,
                          report_from_share)
from passk.ranking import ALPHA, MAX_RUNS
from passk.sharing import ShareLinkError
from passk.quietlog import describe
from passk.steps import worked_steps

INPUT_ERRORS = (FormatError, ShareLinkError, ValueError)
# The API's own words for missing or empty input: the fields README and SPEC name, not the page's box.
API_NO_INPUT = ('Send the results as a multipart file field named "file", or a JSON body '
                '{"problems": [{"task_id", "n", "c"}, ...], "k": [1, 10]}.')
API_EMPTY = ('The input is empty: no problems were found; send a harness results file (JSONL, JSON or CSV) or '
             'task_id,n,c lines as the multipart file field "file".')
PAGE_EMPTY_RUN = "Run {} is empty: paste its results or choose its file."
API_NO_RUN = 'Run {} is missing: send the two runs as multipart file fields named "a" and "b".'
API_EMPTY_RUN = ('Run {} is empty: no problems were found; send a harness results file (JSONL, JSON or CSV) or '
                 'task_id,n,c lines as the multipart file field "{}".')
PER_PROBLEM_ROWS_SHOWN = 2000
SHARE_LINK_LIMIT = 8000   # characters; gunicorn refuses request lines over 8190

MAX_UPLOAD_BYTES = limits.MAX_UPLOAD_BYTES
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
])


STATIC_MAX_AGE = 3600                  # seconds, for a static file asked for without its fingerprint
FINGERPRINTED_MAX_AGE = 365 * 24 * 3600  # a fingerprinted address never changes its content
ANSWER_MAX_AGE = 600   # seconds: a GET answer is a pure function of its address (and Host)
CACHEABLE_ENDPOINTS = {"index", "embed", "api_pass_at_k", "benchmark", "compare_page"}
LOCAL_HOSTS = ["localhost", "127.0.0.1"]   # Werkzeug cannot match IPv6 literals
EMBED_THEMES = ("auto", "dark", "light")   # auto follows prefers-color-scheme
EMBED_HEIGHT = 520   # px: the iframe's height without the script: room for a calculation and its table
# What a docs author pastes (docs/embed.md): the iframe, at a fixed height that works without the
# script, and a few lines that size it to the height /embed posts (static/app.js).
EMBED_SNIPPET = """<iframe src="{src}" title="pass@k calculator" width="100%" height="{height}" loading="lazy" data-passk-embed></iframe>
<script>
addEventListener("message", function (event) {{
  if (event.origin !== "{origin}" || !event.data || event.data.type !== "passk:height") return;
  document.querySelectorAll("iframe[data-passk-embed]").forEach(function (frame) {{
    if (frame.contentWindow === event.source) frame.style.height = event.data.height + "px";
  }});
}});
</script>"""


class Passk(Flask):
    """Flask whose log of an unexpected error names code locations, never the request."""

    def log_exception(self, exc_info):
        self.logger.error("Unhandled %s", describe(exc_info[1]))


def create_app(config=None):
    """Build the application; `config` overrides settings in tests."""
    app = Passk(__name__)
    public_url = os.environ.get("PASSK_PUBLIC_URL")
    app.request_class = LimitedRequest
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES, PUBLIC_URL=public_url,
                      MAX_FORM_MEMORY_SIZE=limits.MAX_TEXT_BYTES, MAX_FORM_PARTS=limits.MAX_FORM_PARTS,
                      TRUSTED_HOSTS=trusted_hosts(os.environ.get("PASSK_ALLOWED_HOSTS"), public_url),
                      SEND_FILE_MAX_AGE_DEFAULT=STATIC_MAX_AGE)
    app.config.update(config or {})
    fingerprints = {}
    app.json.sort_keys = False
    for name in ("percent", "pass_percent", "fraction", "p_value", "full", "count", "scientific", "points", "plural"):
        app.add_template_filter(getattr(display, name), name)
    app.add_template_filter(limits.size, "size")
    for name in ("calculation_rows", "interval_rows", "markdown_rows", "latex_rows"):
        app.add_template_filter(getattr(paper, name), name)

    @app.get("/")
    def index():
        query = read_query(_query_args())
        if clean := _canonical_address(query):
            return redirect(clean, 303)
        calc = calculate_query(query)
        page = render_template(
            "index.html", query=query, calc=calc,
            chart=calc and curve_chart(calc),
            steps=calc and worked_steps(calc),
            share_url=calc and _public_url("index", **query.link_params()),
            embed_snippet=calc and _textarea_text(embed_snippet(_public_url("embed", **query.link_params()))),
        )
        return page, 400 if query.errors else 200

    @app.get("/embed")
    def embed():
        query = read_query(_query_args())
        if clean := _canonical_address(query):
            return redirect(clean, 303)
        calc = calculate_query(query)
        full_url = _public_url("index", **(query.link_params() if calc else {}))
        theme = request.args.get("theme", "auto")
        return render_template("embed.html", query=query, calc=calc, full_url=full_url,
                               theme=theme if theme in EMBED_THEMES else "auto"), \
            400 if query.errors else 200

    @app.route("/api/v1/pass-at-k", methods=["GET", "POST"])
    def api_pass_at_k():
        """n, c, k (and ks) in the query string of a GET, or as the JSON body of a POST."""
        try:
            query = read_query(_query_args(), api=True) if request.method == "GET" else read_json(_json_body(
                API_EXAMPLE, otherwise=f"Send n, c and k as a JSON body {API_EXAMPLE} (Content-Type: "
                                       f"application/json), or in the query string of a GET: ?n=10&c=3&k=5."))
        except FormatError as error:
            return jsonify(error=str(error)), 400
        if query.errors:
            return jsonify(error=query.message()), 400
        return jsonify(calculate_query(query).to_json())

    @app.get("/benchmark")
    def benchmark():
        form = _benchmark_form(request.args)
        if not (request.args.get("counts") or request.args.get("z")):
            return _benchmark_page(form)
        try:
            report = _planned(report_from_share(request.args.get("counts"), request.args.get("z"),
                                                parse_ks(form["k"]), request.args.get("suite")), form)
        except INPUT_ERRORS as error:
            return _benchmark_page(form, error=str(error))
        return _benchmark_page(form, report=report)

    @app.post("/benchmark")
    def benchmark_upload():
        form = _benchmark_form(request.form)
        try:
            report = _planned(_report_from_page(form), form)
        except INPUT_ERRORS as error:
            return _benchmark_page(form, error=str(error))
        return _benchmark_page(form, report=report)

    @app.post("/benchmark/download")
    def benchmark_download():
        kind = request.form.get("as", "csv")
        try:
            report = report_from_download(request.form.get("packed"), request.form.get("counts", ""),
                                          parse_ks(request.form.get("k", "")))
        except INPUT_ERRORS as error:
            return _benchmark_page(_benchmark_form(request.form), error=str(error))
        if kind == "json":
            report.format = request.form.get("source_format", "csv")
            return _attachment(json_chunks(report), "application/json", "passk-benchmark.json")
        return _attachment(per_problem_csv_chunks(report.summary), "text/csv", "passk-per-problem.csv")

    @app.post("/api/v1/benchmark")
    def api_benchmark():
        try:
            if request.is_json:
                summary, format_name, planning = _summary_from_json_body()
                body = summary.to_json(format_name)
                body["planner"] = [row.to_json() for row in plan(summary, **planning)]
                return jsonify(body)
            form = _benchmark_form(request.form)
            return jsonify(_planned(_report_from_input(form, API_NO_INPUT), form).to_json())
        except INPUT_ERRORS as error:
            return jsonify(error=_api_sentence(error)), 400

    @app.get("/compare")
    def compare_page():
        return _compare_page(_compare_form(request.args))

    @app.post("/compare")
    def compare_upload():
        form = _compare_form(request.form)
        try:
            planning = _comparison_options(form)
            if _more_runs_given(form):   # three runs or more: ranked (passk.ranking)
                ranking, formats = _ranking_from_page(form)
                return _compare_page(form, ranking=ranking, formats=formats, planning=planning)
            comparison, formats = _comparison_from_request(form, ("text_a", "file_a"), ("text_b", "file_b"),
                                                           PAGE_EMPTY_RUN)
        except INPUT_ERRORS as error:
            return _compare_page(form, error=str(error))
        return _compare_page(form, comparison=comparison, formats=formats, planning=planning)

    @app.post("/api/v1/compare")
    def api_compare():
        form = _compare_form(request.form)
        try:   # "planner" only when asked for, so the two-run answer keeps its shape (a contract)
            planning = _comparison_options(form) if "difference" in request.form else None
            if "run" in request.files:   # several runs, each its own file: ranked (passk.ranking)
                ranking, formats = _ranking_from_request(form)
                body = ranking.to_json(formats)
                if planning is not None:   # the top two runs at each k, as `passk --runs --detect` gives it
                    body["planner"] = top_pair_plan(ranking, **planning)
                return jsonify(body)
            comparison, _ = _comparison_from_request(form, (None, "a"), (None, "b"), API_NO_RUN)
        except INPUT_ERRORS as error:
            return jsonify(error=_api_sentence(error)), 400
        body = comparison.to_json()
        if planning is not None:
            body["planner"] = comparison_plan(comparison, **planning)
        return jsonify(body)

    @app.get("/healthz")
    def healthz():
        """For load balancers and the container's health check: no computation."""
        return Response("ok\n", mimetype="text/plain", headers={"Cache-Control": "no-store"})

    @app.get("/favicon.ico")
    def favicon():
        return send_from_directory(app.static_folder, "favicon.ico", max_age=STATIC_MAX_AGE * 24)

    def fingerprint(filename):
        """The first 12 hex digits of the file's SHA-256 (None if there is no such file)."""
        if filename not in fingerprints:
            path = safe_join(app.static_folder, filename)
            if not (path and os.path.isfile(path)):
                return None
            with open(path, "rb") as file:
                fingerprints[filename] = hashlib.sha256(file.read()).hexdigest()[:12]
        return fingerprints[filename]

    @app.url_defaults
    def fingerprint_static(endpoint, values):
        """Static addresses carry ?v=<fingerprint>, so they can be cached for a year."""
        if endpoint == "static" and "filename" in values:
            values["v"] = fingerprint(values["filename"])

    @app.after_request
    def cache_answers(response):
        """Pages and API answers depend on nothing but the address: browsers and nginx may keep them."""
        if request.method in ("GET", "HEAD") and response.status_code == 200 \
                and request.endpoint in CACHEABLE_ENDPOINTS:
            response.cache_control.public = True
            response.cache_control.max_age = ANSWER_MAX_AGE
        return response

    @app.after_request
    def cache_fingerprinted(response):
        version = request.args.get("v")
        if (request.endpoint == "static" and version and response.status_code in (200, 304)
                and version == fingerprint(request.view_args["filename"])):
            response.cache_control.max_age = FINGERPRINTED_MAX_AGE
            response.cache_control.public = True
            response.cache_control.immutable = True
        return response

    app.before_request(_whole_body_within_limit)
    app.register_error_handler(HTTPException, _http_error)
    app.after_request(_security_headers)
    app.after_request(_close_unsent_file)
    return app


def trusted_hosts(allowed=None, public_url=None):
    """The Host names the app answers for: PASSK_ALLOWED_HOSTS, else PASSK_PUBLIC_URL's and this machine's.

    Links the pages offer are built from the Host header when no public address
    is set, so a request naming any other host is refused rather than answered
    with links to that host.
    """
    if allowed == "*":
        return None  # any host: only for a deployment whose PASSK_PUBLIC_URL is set
    if allowed:
        return [name.strip() for name in allowed.split(",") if name.strip()]
    hosts = list(LOCAL_HOSTS)
    if public_url:
        hosts.append(urlsplit(public_url).hostname)
    return hosts


def embed_snippet(src):
    """The iframe and script a docs page pastes to show /embed at src, sized to its content."""
    parts = urlsplit(src)
    return EMBED_SNIPPET.format(src=src, height=EMBED_HEIGHT, origin=f"{parts.scheme}://{parts.netloc}")


def _textarea_text(text):
    """text escaped for a <textarea>, where only & and < need it: the quotes stay readable in the source."""
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def _benchmark_form(values):
    """The benchmark form's fields as typed, with defaults; suite is "" unless one was chosen."""
    return {
        "text": values.get("text", ""),
        "k": values.get("k") or ", ".join(map(str, DEFAULT_KS)),
        "format": values.get("format") or "",
        "suite": values.get("suite") or "",
        "counts": values.get("counts") or "",
        "z": values.get("z") or "",
        "carried": {name: values[name] for name in CARRIED_FIELDS if values.get(name)},
        "target": values.get("target") or "1",
        "tokens_per_sample": values.get("tokens_per_sample") or "",
        "price_per_million": values.get("price_per_million") or "",
    }


def _planned(report, form):
    """The report with the planner's target, tokens and price from the form (ValueError for bad ones)."""
    report.planning = planning_options(form["target"], form["tokens_per_sample"], form["price_per_million"])
    return report


def _report_from_page(form):
    """The page's report: a new file or pasted text wins, else the counts the page carries."""
    upload = request.files.get("file")
    if not (upload and upload.filename) and not form["text"].strip():
        # Recalculating an earlier result: its counts ride along in hidden fields.
        if form["carried"]:
            return report_from_carried(form["carried"], parse_ks(form["k"]), form["suite"] or None)
        if form["counts"] or form["z"]:
            return report_from_share(form["counts"], form["z"], parse_ks(form["k"]), form["suite"] or None)
    return _report_from_input(form, NO_INPUT)


def _report_from_input(form, empty_message):
    """A report from the uploaded files (the parts of one run), else the pasted text."""
    files = [(upload.filename, _reopener(upload)) for upload in request.files.getlist("file") if upload.filename]
    if not files:
        files = [_opener(form, "text", "file", empty_message)[::-1]]
    return report_from_files(files, parse_ks(form["k"]), form["format"] or None, form["suite"] or "plus",
                             limited=True, suite_chosen=bool(form["suite"]))


def _compare_form(values):
    """The compare form's fields as typed, with defaults."""
    form = _benchmark_form(values)
    form.update({f"{field}_{run}": values.get(f"{field}_{run}", "") for field in ("text", "name") for run in "abc"},
                difference=values.get("difference") or "")
    return form


def _comparison_options(form):
    """comparison_plan's keyword arguments from the form; ValueError naming the field for a bad value."""
    return comparison_options(form["difference"], form["tokens_per_sample"], form["price_per_million"])


def _run_c_given(form):
    """True when run C was pasted or has a file."""
    upload = request.files.get("file_c")
    return bool(form["text_c"].strip() or upload and upload.filename)


def _more_runs_given(form):
    """True when the page was given runs besides A and B: run C, or files under "More runs"."""
    return _run_c_given(form) or any(upload.filename for upload in request.files.getlist("run"))


def _ranking_from_page(form):
    """Rank runs A, B and C (each pasted or a file) and the files of "More runs" (one run each).

    A run is named by its name field, else after its file; a pasted run without a name is "Run A", "B" or "C".
    """
    runs = [_opener(form, f"text_{run}", f"file_{run}", PAGE_EMPTY_RUN.format(run.upper())) for run in "ab"]
    if _run_c_given(form):
        runs.append(_opener(form, "text_c", "file_c", PAGE_EMPTY_RUN.format("C")))
    runs += [(_reopener(upload), upload.filename) for upload in request.files.getlist("run") if upload.filename]
    names = [form[f"name_{label.lower()}"].strip() or (None if filename else f"Run {label}")
             for (_, filename), label in zip(runs, "ABC")]
    return rank_uploads([(filename, open_run) for open_run, filename in runs], parse_ks(form["k"]),
                        form["format"] or None, form["suite"] or "plus", names=names, limited=True,
                        suite_chosen=bool(form["suite"]))


def _opener(form, text_field, file_field, empty_message):
    """(open(), filename) for one input: its uploaded file, else its pasted text."""
    upload = request.files.get(file_field)
    if upload and upload.filename:
        return _reopener(upload), upload.filename
    text = form.get(text_field) or "" if text_field else ""
    if not text.strip():
        raise FormatError(empty_message)
    data = text.encode("utf-8", "surrogatepass")
    return (lambda: io.BytesIO(data)), None


def _reopener(upload):
    """open() for an uploaded file: its stream, from the start, each time it is called."""
    def open_upload():
        upload.stream.seek(0)
        return upload.stream
    return open_upload


def _comparison_from_request(form, fields_a, fields_b, empty_message):
    """Pair run A and run B from the request's files or pasted texts; empty_message names the run with {}."""
    open_a, name_a = _opener(form, *fields_a, empty_message.format("A"))
    open_b, name_b = _opener(form, *fields_b, empty_message.format("B"))
    return compare_uploads(open_a, open_b, parse_ks(form["k"]), form["format"] or None, form["suite"] or "plus",
                           (name_a, name_b), limited=True, suite_chosen=bool(form["suite"]))


def _ranking_from_request(form):
    """Rank the request's "run" files, each one run, named by its "name" field (in order) or its file name."""
    uploads = request.files.getlist("run")
    files = [(upload.filename or None, _reopener(upload)) for upload in uploads]
    return rank_uploads(files, parse_ks(form["k"]), form["format"] or None, form["suite"] or "plus",
                        names=request.form.getlist("name"), limited=True, suite_chosen=bool(form["suite"]))


def _compare_page(form, comparison=None, formats=None, error=None, ranking=None, planning=None):
    """Render /compare: the inputs, and the two runs' comparison, the ranking of more, or the error."""
    planning = planning or {}
    if ranking:
        intervals = {result.k: interval_chart(result.ranking, result.k) for result in ranking.results
                     if any(row.pass_at_k is not None for row in result.ranking)}
        page = render_template("compare.html", form=form, ranking=ranking, formats=formats,
                               plans=top_pair_plan(ranking, **planning),
                               intervals=intervals, alpha=ALPHA, max_runs=MAX_RUNS, all_formats=FORMATS,
                               format_names=FORMAT_NAMES)
        return page, 200
    chart = None
    if comparison:
        defined = [row.k for row in comparison.results if row.difference is not None]
        if defined:
            k = defined[0]
            values_a, values_b = comparison.per_problem_pass_at_k[k]
            chart = difference_chart(comparison.task_ids, (values_a - values_b).tolist(), k)
    plans = [plan for plan in comparison_plan(comparison, **planning) if plan["sentences"]] if comparison else []
    page = render_template("compare.html", form=form, comparison=comparison, formats=formats or [],
                           all_formats=FORMATS, format_names=FORMAT_NAMES, chart=chart, error=error, plans=plans,
                           max_runs=MAX_RUNS)
    return page, 400 if error else 200


def _api_sentence(error):
    """An input error as the API says it: empty input names the field to send."""
    if isinstance(error, EmptyInput):
        run = getattr(error, "run", None)
        return API_EMPTY_RUN.format(run, run.lower()) if run else API_EMPTY
    return str(error)


def _json_body(example, otherwise=API_NO_INPUT):
    """The request's JSON body; FormatError, showing the example, when it is not JSON (otherwise: what to send)."""
    if not request.is_json:
        raise FormatError(otherwise)
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise FormatError(f"The JSON body is nested too deeply; send {example}.") from None
    if body is None:
        raise FormatError(f"The request body is not valid JSON; send {example}.")
    return body


def _summary_from_json_body():
    """The API's JSON body: {"problems": [...], "k": [...]}."""
    body = _json_body('{"problems": [...], "k": [1, 10]}')
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
    return summarize(parsed.problems, ks, warnings=parsed.warnings), "json", _json_planning(body)


def _json_planning(body):
    """plan()'s options from the JSON body's "target" (points), "tokens_per_sample" and "price_per_million"."""
    names = ("target", "tokens_per_sample", "price_per_million")
    options = {name: body[name] for name in names if name in body} if isinstance(body, dict) else {}
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FormatError(f'"{name}" must be a JSON number, like {{"{name}": 2}}.')
    return planning_options(**{name: repr(value) for name, value in options.items()})


def _benchmark_page(form, report=None, error=None):
    """Render /benchmark: the form, and the report or the error."""
    share_url = report and _public_url("benchmark", **report.share_params(report.summary.ks))
    if share_url and len(share_url) > SHARE_LINK_LIMIT:
        share_url = None  # servers and browsers refuse such long addresses; the downloads remain
    page = render_template(
        "benchmark.html", form=form, report=report, error=error, all_formats=FORMATS, format_names=FORMAT_NAMES,
        carried=_carried_fields(form, report),
        histogram=report and histogram_chart([p.c / p.n for p in report.summary.problems]),
        k_curve=report and k_curve_chart(report.summary),
        rows=report and report.summary.per_problem_rows(PER_PROBLEM_ROWS_SHOWN),
        share_url=share_url, packed=report and report.packed[report.suite or ""],
        rows_shown=PER_PROBLEM_ROWS_SHOWN, share_limit=SHARE_LINK_LIMIT,
        max_upload_bytes=current_app.config["MAX_CONTENT_LENGTH"], limits=limits,
    )
    return page, 400 if error else 200


def _carried_fields(form, report):
    """The hidden fields that carry counts into the next calculation, so that changing k needs no new upload.

    A report from a file carries its counts (None when too large); one from a share link
    its link's counts; one from pasted text nothing (the text stays in its box). After an
    error the fields come back as they were sent.
    """
    if report is None:
        shared = {name: form[name] for name in ("counts", "z") if form[name]}
        return form["carried"] or shared
    if report.source_name:
        return report.carried_fields()
    if report.format == "share link":
        return {name: form[name] for name in ("counts", "z") if form[name]}
    return {}


def _attachment(body, mimetype, filename):
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _public_url(endpoint, **params):
    """An absolute link for sharing: from PASSK_PUBLIC_URL when set, else from the request."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **params)
    return url_for(endpoint, _external=True, **params)


def _query_args():
    """The query string as name -> list of values, for the pure readers."""
    return {name: request.args.getlist(name) for name in request.args}


def _canonical_address(query):
    """This page's address as its share link writes it, when the request's differs; else None.

    A form sent without JavaScript carries its empty fields (&ks=), and typed
    values may be written otherwise (k=05, ks=20, 2): a calculation's n, c, k
    and ks are rewritten as the share link has them, an empty ks is dropped
    whatever the rest says, and any other parameter is kept as it came. The
    page at the new address is the same page.
    """
    given = _query_args()
    fields = {name: values for name, values in given.items() if name in FIELDS}
    if query.errors:
        canonical = {name: values for name, values in fields.items()
                     if not (name == "ks" and len(values) == 1 and not values[0].strip())}
    else:
        link = {name: [str(value)] for name, value in query.link_params().items()}
        canonical = {name: link[name] for name in fields if name in link}
    if canonical == fields:
        return None
    others = {name: values for name, values in given.items() if name not in FIELDS}
    return url_for(request.endpoint, **canonical, **others)


def _http_error(error):
    """Errors as JSON under /api/, as a page elsewhere; never a stack trace."""
    if _untrusted_host():  # no links can be built for such a request, so no page either
        sentence = ("This server does not answer for the host named in the request; its operator can add "
                    "the name to PASSK_ALLOWED_HOSTS.")
        if request.path.startswith("/api/"):
            return jsonify(error=sentence), 400
        return Response(sentence + "\n", 400, mimetype="text/plain")
    if request.path.startswith("/api/"):
        return jsonify(error=_error_sentence(error)), error.code
    if error.code == 413 and request.path in ("/benchmark", "/compare"):  # keep the user on the form
        render = _benchmark_page if request.path == "/benchmark" else _compare_page
        page, _ = render(_compare_form({}), error=_error_sentence(error))
        return page, 413
    return render_template("error.html", error=error, message=_error_sentence(error)), error.code


def _error_sentence(error):
    if error.code == 413:
        return _too_large_sentence(error)
    if error.code == 404:
        return f"There is no page at {request.path}."
    if error.code == 405:
        allowed = " or ".join(sorted(set(error.valid_methods or ()) - {"HEAD", "OPTIONS"}))
        return f"{request.path} answers {allowed} requests, not {request.method}."
    return f"{error.name}: {error.description}"


class _PartCounter:
    """A multipart body's stream that counts the parts read so far, to tell which form limit a 413 passed."""

    def __init__(self, stream, boundary):
        self._stream, self._delimiter = stream, b"--" + boundary
        self._tail, self.parts, self.over_size = b"", -1, False   # the closing delimiter starts no part

    def read(self, size=-1):
        try:
            data = self._stream.read(size)
        except RequestEntityTooLarge:
            self.over_size = True
            raise
        seen = self._tail + data
        self.parts += seen.count(self._delimiter)
        self._tail = seen[1 - len(self._delimiter):]
        return data


class _FormParser(FormDataParser):
    """Werkzeug's form parser, whose 413 names the limit passed: a field's size or the number of fields."""

    def _parse_multipart(self, stream, mimetype, content_length, options):
        counter = _PartCounter(stream, options.get("boundary", "").encode("ascii"))
        try:
            return super()._parse_multipart(counter, mimetype, content_length, options)
        except RequestEntityTooLarge:
            if counter.over_size:
                raise
            too_many = self.max_form_parts is not None and counter.parts > self.max_form_parts
            raise RequestEntityTooLarge(limits.too_many_fields() if too_many else limits.field_too_large()) from None


class LimitedRequest(Request):
    form_data_parser_class = _FormParser


def _whole_body_within_limit():
    """JSON bodies and forms without a file are read into memory at once, so their limits are smaller."""
    if request.is_json:
        limit = limits.MAX_JSON_BYTES
    elif request.mimetype == "application/x-www-form-urlencoded":
        limit = limits.MAX_FORM_BYTES
    else:
        return
    request.max_content_length = limit + 1   # Werkzeug cuts a chunked body at the limit: read a byte more to tell
    if len(request.get_data()) > limit:
        raise RequestEntityTooLarge()


def _too_large_sentence(error):
    """A 413's sentence: the one raised with it, else the limit on this kind of body."""
    if error.description != RequestEntityTooLarge.description:
        return error.description
    if request.is_json:
        return limits.json_too_large()
    if request.mimetype == "application/x-www-form-urlencoded":
        return limits.form_too_large()
    return limits.upload_too_large(current_app.config["MAX_CONTENT_LENGTH"])


def _untrusted_host():
    trusted = current_app.config.get("TRUSTED_HOSTS")
    return bool(trusted) and not host_is_trusted(request.environ.get("HTTP_HOST", ""), trusted)


def _close_unsent_file(response):
    """A 304 sends no body, so close the static file Werkzeug opened for it now, not at GC."""
    if response.status_code == 304 and hasattr(response.response, "close"):
        response.response.close()
    return response


def _security_headers(response):
    if request.path == "/embed":  # the one page any page may frame, file:// docs included
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
            "; frame-ancestors 'none'", "")
    else:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    return response


app = create_app()
