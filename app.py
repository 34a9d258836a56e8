"""passk web application: thin views over the passk package."""

import hashlib
import os
from urllib.parse import quote, urlencode, urlsplit

from flask import (Flask, Response, current_app, jsonify, redirect, render_template, request, send_from_directory,
                   url_for)
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.security import safe_join

from passk import display, limits, paper
from passk.benchmark import parse_ks
from passk.planner import comparison_plan, plan, top_pair_plan
from passk.calculator import API_EXAMPLE, FIELDS, calculate_query, read_json, read_query
from passk.charts import curve_chart, difference_chart, histogram_chart, interval_chart, k_curve_chart
from passk.formats import FORMAT_NAMES, FORMATS, FormatError
from passk.limits import TooLarge
from passk.report import json_chunks, per_problem_csv_chunks, report_from_download, report_from_share
from passk.ranking import ALPHA, MAX_RUNS
from passk.sharing import ShareLinkError
from passk.quietlog import describe
from passk.steps import worked_steps
from web.guards import LimitedRequest, too_large_sentence, untrusted_host, whole_body_within_limit
from web.inputs import (API_NO_INPUT, API_NO_RUN, PAGE_EMPTY_RUN, api_sentence, benchmark_form, compare_form,
                        comparison_from_request, error_status, comparison_planning, json_body, more_runs_given, planned,
                        ranking_from_page, ranking_from_request, report_from_input, report_from_page,
                        summary_from_json_body)

INPUT_ERRORS = (FormatError, ShareLinkError, ValueError)
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
            query = read_query(_query_args(), api=True) if request.method == "GET" else read_json(json_body(
                API_EXAMPLE, otherwise=f"Send n, c and k as a JSON body {API_EXAMPLE} (Content-Type: "
                                       f"application/json), or in the query string of a GET: ?n=10&c=3&k=5."))
        except FormatError as error:
            return jsonify(error=str(error)), 400
        except TooLarge as error:
            return jsonify(error=str(error)), 413
        if query.errors:
            return jsonify(error=query.message()), 400
        return jsonify(calculate_query(query).to_json())

    @app.get("/benchmark")
    def benchmark():
        form = benchmark_form(request.args)
        if not (request.args.get("counts") or request.args.get("z")):
            return _benchmark_page(form)
        try:
            report = planned(report_from_share(request.args.get("counts"), request.args.get("z"),
                                                parse_ks(form["k"]), request.args.get("suite")), form)
        except INPUT_ERRORS as error:
            return _benchmark_page(form, error=str(error))
        return _benchmark_page(form, report=report)

    @app.post("/benchmark")
    def benchmark_upload():
        form = benchmark_form(request.form)
        try:
            report = planned(report_from_page(form), form)
        except INPUT_ERRORS as error:
            return _benchmark_page(form, error=error)
        return _benchmark_page(form, report=report)

    @app.post("/benchmark/download")
    def benchmark_download():
        kind = request.form.get("as", "csv")
        try:
            report = report_from_download(request.form.get("packed"), request.form.get("counts", ""),
                                          parse_ks(request.form.get("k", "")))
        except INPUT_ERRORS as error:
            return _benchmark_page(benchmark_form(request.form), error=error)
        if kind == "json":
            report.format = request.form.get("source_format", "csv")
            return _attachment(json_chunks(report), "application/json", "passk-benchmark.json")
        return _attachment(per_problem_csv_chunks(report.summary), "text/csv", "passk-per-problem.csv")

    @app.post("/api/v1/benchmark")
    def api_benchmark():
        try:
            if request.is_json:
                summary, format_name, planning = summary_from_json_body()
                body = summary.to_json(format_name)
                body["planner"] = [row.to_json() for row in plan(summary, **planning)]
                return jsonify(body)
            form = benchmark_form(request.form)
            return jsonify(planned(report_from_input(form, API_NO_INPUT), form).to_json())
        except INPUT_ERRORS as error:
            return jsonify(error=api_sentence(error)), error_status(error)

    @app.get("/compare")
    def compare_page():
        return _compare_page(compare_form(request.args))

    @app.post("/compare")
    def compare_upload():
        form = compare_form(request.form)
        try:
            planning = comparison_planning(form)
            if more_runs_given(form):   # three runs or more: ranked (passk.ranking)
                ranking, formats = ranking_from_page(form)
                return _compare_page(form, ranking=ranking, formats=formats, planning=planning)
            comparison, formats = comparison_from_request(form, ("text_a", "file_a"), ("text_b", "file_b"),
                                                           PAGE_EMPTY_RUN)
        except INPUT_ERRORS as error:
            return _compare_page(form, error=error)
        return _compare_page(form, comparison=comparison, formats=formats, planning=planning)

    @app.post("/api/v1/compare")
    def api_compare():
        form = compare_form(request.form)
        try:   # "planner" only when asked for, so the two-run answer keeps its shape (a contract)
            planning = comparison_planning(form) if "difference" in request.form else None
            if "run" in request.files:   # several runs, each its own file: ranked (passk.ranking)
                ranking, formats = ranking_from_request(form)
                body = ranking.to_json(formats)
                if planning is not None:   # the top two runs at each k, as `passk --runs --detect` gives it
                    body["planner"] = top_pair_plan(ranking, **planning)
                return jsonify(body)
            comparison, _ = comparison_from_request(form, (None, "a"), (None, "b"), API_NO_RUN)
        except INPUT_ERRORS as error:
            return jsonify(error=api_sentence(error)), error_status(error)
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

    known_parameters = {**{endpoint: FIELDS for endpoint in ("index", "api_pass_at_k")},
                        "embed": FIELDS + ("theme",), "benchmark": _names_read(benchmark_form),
                        "compare_page": _names_read(compare_form), "static": ("v",), "favicon": ()}

    @app.before_request
    def drop_unknown_parameters():
        """A cacheable address with a parameter its page never reads redirects to the address without it.

        nginx keeps an answer per address (deploy/nginx.conf), so ?x=1, ?x=2, ... would
        each be one more entry, holding whatever the client wrote. The address
        redirected to keeps the known parameters, every value of each, in one order.
        """
        known = known_parameters.get(request.endpoint)
        if request.method not in ("GET", "HEAD") or known is None or set(request.args) <= set(known):
            return None
        pairs = [(name, value) for name in known for value in request.args.getlist(name)]
        location = quote(request.script_root + request.path) + ("?" + urlencode(pairs) if pairs else "")
        return redirect(location, 308)

    app.before_request(whole_body_within_limit)
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


class _NameRecorder(dict):
    """An empty form whose reader's questions are written down: the names a form reads, in its order."""

    def __init__(self):
        super().__init__()
        self.names = []

    def get(self, name, default=None):
        if name not in self.names:
            self.names.append(name)
        return default

    def getlist(self, name, type=None):
        self.get(name)
        return []


def _names_read(form_reader):
    """The parameter names form_reader (benchmark_form, compare_form) looks up, in the order it does."""
    recorder = _NameRecorder()
    form_reader(recorder)
    return tuple(recorder.names)


def embed_snippet(src):
    """The iframe and script a docs page pastes to show /embed at src, sized to its content."""
    parts = urlsplit(src)
    return EMBED_SNIPPET.format(src=src, height=EMBED_HEIGHT, origin=f"{parts.scheme}://{parts.netloc}")


def _textarea_text(text):
    """text escaped for a <textarea>, where only & and < need it: the quotes stay readable in the source."""
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


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
                           all_formats=FORMATS, format_names=FORMAT_NAMES, chart=chart, error=error and str(error),
                           plans=plans,
                           max_runs=MAX_RUNS)
    return page, error_status(error) if error else 200


def _benchmark_page(form, report=None, error=None):
    """Render /benchmark: the form, and the report or the error."""
    share_url = report and _public_url("benchmark", **report.share_params(report.summary.ks))
    if share_url and len(share_url) > SHARE_LINK_LIMIT:
        share_url = None  # servers and browsers refuse such long addresses; the downloads remain
    page = render_template(
        "benchmark.html", form=form, report=report, error=error and str(error), all_formats=FORMATS,
        format_names=FORMAT_NAMES,
        carried=_carried_fields(form, report),
        histogram=report and histogram_chart([p.c / p.n for p in report.summary.problems]),
        k_curve=report and k_curve_chart(report.summary),
        rows=report and report.summary.per_problem_rows(PER_PROBLEM_ROWS_SHOWN),
        share_url=share_url, packed=report and report.packed[report.suite or ""],
        rows_shown=PER_PROBLEM_ROWS_SHOWN, share_limit=SHARE_LINK_LIMIT,
        max_upload_bytes=current_app.config["MAX_CONTENT_LENGTH"], limits=limits,
    )
    return page, error_status(error) if error else 200


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
    if untrusted_host():  # no links can be built for such a request, so no page either
        sentence = ("This server does not answer for the host named in the request; its operator can add "
                    "the name to PASSK_ALLOWED_HOSTS.")
        if request.path.startswith("/api/"):
            return jsonify(error=sentence), 400
        return Response(sentence + "\n", 400, mimetype="text/plain")
    if request.path.startswith("/api/"):
        return jsonify(error=_error_sentence(error)), error.code
    if error.code == 413 and request.path in ("/benchmark", "/compare"):  # keep the user on the form
        render = _benchmark_page if request.path == "/benchmark" else _compare_page
        page, _ = render(compare_form({}), error=_error_sentence(error))
        return page, 413
    return render_template("error.html", error=error, message=_error_sentence(error)), error.code


def _error_sentence(error):
    if error.code == 413:
        return too_large_sentence(error)
    if error.code == 404:
        return f"There is no page at {request.path}."
    if error.code == 405:
        allowed = " or ".join(sorted(set(error.valid_methods or ()) - {"HEAD", "OPTIONS"}))
        return f"{request.path} answers {allowed} requests, not {request.method}."
    return f"{error.name}: {error.description}"


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
