"""The pages: the calculator and its embed, the benchmark and compare pages, their downloads, health and favicon."""

from urllib.parse import urlencode, urlsplit

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, send_from_directory
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from passk.results.benchmark import Comparison
from passk.writing.display import pass_percent, percent
from passk.writing.charts import (CURVE_PLOT, CURVE_Y_TICKS, curve_chart, difference_chart, difference_curve_chart,
                                  histogram_chart, interval_chart, k_curve_chart, runs_curve_chart)
from passk.results.curves import DRAWS, METHOD
from passk.formats import FORMAT_NAMES, FORMATS
from passk.limits import LIMITS
from passk.results.planner import comparison_plan, top_pair_plan
from passk.results.ranking import ALPHA, Ranking
from passk.writing.report import Report, json_chunks, per_problem_csv_chunks, report_from_share
from passk.writing.steps import worked_steps
from passk.writing.answers import per_problem_rows
from passk.web.addresses import canonical_address, public_url, query_args
from passk.web.api import chosen_curves
from passk.web.caching import STATIC_MAX_AGE
from passk.web.forms import BenchmarkForm, CompareForm, benchmark_form, carried_fields, compare_form, download_form
from passk.web.inputs import (INPUT_ERRORS, PAGE_EMPTY_RUN, comparison_from_request, error_status, more_runs_given,
                              leaderboard_from_page, ranking_from_page, report_from_download_form, report_from_page)
from passk.web.query import CalculatorQuery, calculate_query, read_query

pages = Blueprint("pages", __name__)

LEARN_HERE = "\x00learn\x00"   # where the "learn" section goes (with_learn_section): no page has a NUL of its own
URL_SAFE = "!$'()*,/:;?@"   # what url_for leaves unquoted in a query string (Werkzeug's _urlencode)
EMBED_THEMES = ("auto", "dark", "light")   # auto follows prefers-color-scheme
EMBED_BACKGROUNDS = ("page", "transparent")   # transparent lets the docs site's own background show
EMBED_HEIGHT = 520   # px: the iframe's height without the script: room for a calculation and its table
# What a docs author pastes (docs/embed.md): the iframe, at a fixed height that works without the script, and a
# script that sizes it to the height /embed posts and tells it the site's theme (static/app.js has the other end).
EMBED_SNIPPET = ('<iframe src="{src}" title="pass@k calculator" width="100%" height="{height}" '
                 'referrerpolicy="strict-origin" loading="lazy" data-passk-embed></iframe>\n' """<script>
(function () {{
  var passk = "{origin}", frames = document.querySelectorAll("iframe[data-passk-embed]");
  var systemDark = matchMedia("(prefers-color-scheme: dark)");
  // The site's theme: MkDocs Material's scheme ("slate" is dark), data-theme (Furo, PyData Sphinx, Docusaurus),
  // else the reader's system.
  function theme() {{
    var body = document.body.dataset, root = document.documentElement.dataset;
    var scheme = [body.mdColorScheme, body.theme, root.theme].join(" ");
    return /slate|dark/.test(scheme) ? "dark" : /default|light/.test(scheme) ? "light" :
      systemDark.matches ? "dark" : "light";
  }}
  function sendTheme() {{
    var now = theme();
    frames.forEach(function (frame) {{
      frame.style.colorScheme = now;   // as the frame's, so that a transparent frame stays transparent
      frame.contentWindow.postMessage({{ type: "passk:theme", theme: now }}, passk);
    }});
  }}
  frames.forEach(function (frame) {{
    frame.style.border = "0";   // the embed has its own edges
    frame.addEventListener("load", sendTheme);
  }});
  var watch = {{ attributes: true, attributeFilter: ["data-md-color-scheme", "data-theme"] }};
  var observer = new MutationObserver(sendTheme);
  observer.observe(document.body, watch);
  observer.observe(document.documentElement, watch);
  systemDark.addEventListener("change", sendTheme);
  addEventListener("message", function (event) {{
    if (event.origin !== passk || !event.data || event.data.type !== "passk:height") return;
    frames.forEach(function (frame) {{
      if (frame.contentWindow !== event.source) return;
      frame.style.boxSizing = "content-box";   // the height is the inside's, whatever border the site adds
      frame.style.height = event.data.height + "px";
    }});
  }});
}})();
</script>""")


@pages.app_context_processor
def every_page() -> dict[str, object]:
    """What every template may use: `addresses`, the links on every page (an {% import %} of them in each page
    would look the module up again on every request)."""
    return {"addresses": site_addresses()}


def site_addresses() -> Any:
    """templates/_addresses.html's module: the links every page has (.calculator, .embed, ...), which Jinja renders
    once and keeps (Template.module); Any, as its names are the template's."""
    if "passk.addresses" not in current_app.extensions:
        current_app.extensions["passk.addresses"] = current_app.jinja_env.get_template("_addresses.html").module
    return current_app.extensions["passk.addresses"]


@pages.get("/")
def index() -> ResponseReturnValue:
    query = read_query(query_args())
    if clean := canonical_address(query):
        return redirect(clean, 303)
    calc = calculate_query(query)
    share_url, embed_url, json_url = calculation_links(query) if calc else (None, None, None)
    page = render_template(
        "index.html", query=query, calc=calc,
        chart=calc and curve_chart(calc),
        chart_grid=calc and built_once("_curve_chart_parts.html", "grid", CURVE_PLOT, CURVE_Y_TICKS),
        chart_legend=calc and built_once("_curve_chart_parts.html", "legend"),
        steps=calc and worked_steps(calc),
        share_url=share_url, json_url=json_url,
        embed_snippet=embed_url and embed_snippet_text(embed_url),
        learn=LEARN_HERE,
    )
    return with_learn_section(page), 400 if query.errors else 200


@pages.get("/embed")
def embed() -> ResponseReturnValue:
    query = read_query(query_args())
    if clean := canonical_address(query):
        return redirect(clean, 303)
    calc = calculate_query(query)
    full_url = public_url("pages.index", **(query.link_params() if calc else {}))
    theme, background = request.args.get("theme", "auto"), request.args.get("background", "page")
    return render_template("embed.html", query=query, calc=calc, full_url=full_url,
                           theme=theme if theme in EMBED_THEMES else "auto",
                           background=background if background in EMBED_BACKGROUNDS else "page"), \
        400 if query.errors else 200


@pages.get("/benchmark")
def benchmark() -> ResponseReturnValue:
    form = benchmark_form(request.args)
    if not (form.counts or form.z):
        return benchmark_page(form)
    try:
        report = report_from_share(form.counts, form.z, form.ks(), form.suite or None,
                                   form.beside()).with_planning(form.planning())
    except INPUT_ERRORS as error:
        return benchmark_page(form, error=str(error))
    return benchmark_page(form, report=report)


@pages.post("/benchmark")
def benchmark_upload() -> ResponseReturnValue:
    form = benchmark_form(request.form)
    try:
        report = report_from_page(form, request.files).with_planning(form.planning())
    except INPUT_ERRORS as error:
        return benchmark_page(form, error=error)
    return benchmark_page(form, report=report)


@pages.post("/benchmark/download")
def benchmark_download() -> ResponseReturnValue:
    form = download_form(request.form)
    try:
        report = report_from_download_form(form)
    except INPUT_ERRORS as error:
        return benchmark_page(benchmark_form(request.form), error=error)
    if form.kind == "json":
        return _attachment(json_chunks(report), "application/json", "passk-benchmark.json")
    return _attachment(per_problem_csv_chunks(report.summary), "text/csv", "passk-per-problem.csv")


@pages.get("/compare")
def compare() -> ResponseReturnValue:
    return compare_page(compare_form(request.args))


@pages.post("/compare")
def compare_upload() -> ResponseReturnValue:
    form, files = compare_form(request.form), request.files
    try:
        planning = form.planning()
        if more_runs_given(form, files):   # three runs or more: ranked (passk.results.ranking)
            ranking, formats = ranking_from_page(form, files)
            return compare_page(form, ranking=ranking, formats=formats, planning=planning)
        if leaderboard := leaderboard_from_page(form, files):   # run A alone, one file of several models: ranked
            return compare_page(form, ranking=leaderboard[0], formats=leaderboard[1], planning=planning)
        comparison, formats = comparison_from_request(form, files, (form.text_a, "file_a"), (form.text_b, "file_b"),
                                                      PAGE_EMPTY_RUN)
    except INPUT_ERRORS as error:
        return compare_page(form, error=error)
    return compare_page(form, comparison=comparison, formats=formats, planning=planning)


@pages.get("/healthz")
def healthz() -> Response:
    """For load balancers and the container's health check: no computation."""
    return Response("ok\n", mimetype="text/plain", headers={"Cache-Control": "no-store"})


@pages.get("/favicon.ico")
def favicon() -> Response:
    assert current_app.static_folder is not None   # create_app keeps Flask's static folder, static/
    return send_from_directory(current_app.static_folder, "favicon.ico", max_age=STATIC_MAX_AGE * 24)


def calculation_links(query: CalculatorQuery) -> tuple[str, str, str]:
    """A calculation's share link, its embed's address and its JSON twin, as public_url and url_for write them with
    the query's link_params (the embed's with theme=auto): one query string after each route's path (built once,
    site_addresses), the shared two after the site's public address, which the calculator's own link begins with."""
    params = urlencode(query.link_params(), safe=URL_SAFE)
    addresses = site_addresses()
    calculator = public_url("pages.index")
    site = calculator.removesuffix(addresses.calculator)
    return (f"{calculator}?{params}", f"{site}{addresses.embed}?{params}&theme=auto",
            f"{addresses.pass_at_k_api}?{params}")


def with_learn_section(page: str) -> bytes:
    """The page as UTF-8, with the "learn" section where the page has LEARN_HERE.

    The section is half the page's text and the same on every page: its bytes are encoded once per process, and
    only the rest of the page on each request (encoding is about a tenth of the page's cost otherwise).
    """
    learned: dict[str, bytes] = current_app.extensions.setdefault("passk.encoded_once", {})
    if "_learn.html" not in learned:
        learned["_learn.html"] = built_once("_learn.html").encode()
    return page.encode().replace(LEARN_HERE.encode(), learned["_learn.html"], 1)


def built_once(template: str, macro: str | None = None, *constants: object) -> str:
    """A part of a page that depends on nothing a request sends: the template's output, or that of one of its
    macros called with constants, rendered at its first use and kept for the life of the process.

    It is HTML as a plain str, for a place in a page where autoescaping is off: Jinja then writes the very
    string, where a Markup would be copied on every page (the "learn" section is half the page's text).
    """
    parts: dict[tuple[str, str | None], str] = current_app.extensions.setdefault("passk.built_once", {})
    if (template, macro) not in parts:
        module = current_app.jinja_env.get_template(template).module   # rendered without the request's context
        parts[template, macro] = str(getattr(module, macro)(*constants) if macro else module)
    return parts[template, macro]


def embed_snippet(src: str) -> str:
    """The iframe and script a docs page pastes to show /embed at src, sized to its content."""
    parts = urlsplit(src)
    return EMBED_SNIPPET.format(src=src, height=EMBED_HEIGHT, origin=f"{parts.scheme}://{parts.netloc}")


def embed_snippet_text(src: str) -> Markup:
    """embed_snippet(src) as a <textarea> holds it (_textarea_text), from the snippet's text escaped once: only the
    address and its origin are escaped on each page (escaping is a character at a time, and none is in {...})."""
    parts = urlsplit(src)
    return Markup(_ESCAPED_SNIPPET.format(src=_textarea_text(src), height=EMBED_HEIGHT,
                                          origin=_textarea_text(f"{parts.scheme}://{parts.netloc}")))


def _textarea_text(text: str) -> Markup:
    """text escaped for a <textarea>, where only & and < need it: the quotes stay readable in the source."""
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


_ESCAPED_SNIPPET = str(_textarea_text(EMBED_SNIPPET))   # embed_snippet_text's: still a str.format template


def compare_page(form: CompareForm, comparison: Comparison | None = None, formats: list[str] | None = None,
                 error: Exception | str | None = None, ranking: Ranking | None = None,
                 planning: dict[str, float] | None = None) -> tuple[str, int]:
    """Render /compare: the inputs, and the two runs' comparison, the ranking of more, or the error."""
    planning = planning or {}
    if ranking:
        intervals = {result.k: interval_chart(result.ranking, result.k) for result in ranking.results
                     if any(row.pass_at_k is not None for row in result.ranking)}
        page = render_template("compare.html", form=form, ranking=ranking, formats=formats,
                               plans=top_pair_plan(ranking, **planning, work=LIMITS.plan_work),
                               intervals=intervals, alpha=ALPHA, max_runs=LIMITS.runs, max_curve_ks=LIMITS.curve_ks,
                               all_formats=FORMATS,
                               format_names=FORMAT_NAMES)
        return page, 200
    chart = None
    if comparison:
        defined = [row.k for row in comparison.results if row.difference is not None]
        if defined:
            k = defined[0]
            values_a, values_b = comparison.per_problem_pass_at_k[k]
            chart = difference_chart(comparison.task_ids, (values_a - values_b).tolist(), k)
    plans = ([plan for plan in comparison_plan(comparison, **planning, work=LIMITS.plan_work) if plan["sentences"]]
             if comparison else [])
    curve, curve_error = None, None
    try:   # both runs over k, A − B's simultaneous band (passk.results.curves), at the curve_k field's ks if given
        curve = comparison and chosen_curves(comparison, form.curve_ks())
    except ValueError as refused:   # curve_k, or the request's exact_work: the comparison without its curves
        curve_error = str(refused)
    page = render_template("compare.html", form=form, comparison=comparison, formats=formats or [],
                           all_formats=FORMATS, format_names=FORMAT_NAMES, chart=chart, error=error and str(error),
                           plans=plans, curve=curve, curve_error=curve_error, curve_method=METHOD, curve_draws=DRAWS,
                           runs_curve=curve and runs_curve_chart(curve),
                           difference_curve=curve and difference_curve_chart(curve),
                           max_runs=LIMITS.runs, max_curve_ks=LIMITS.curve_ks)
    return page, error_status(error) if error else 200


def benchmark_page(form: BenchmarkForm, report: Report | None = None,
                   error: Exception | str | None = None) -> tuple[str, int]:
    """Render /benchmark: the form, and the report or the error."""
    share_url = report and public_url("pages.benchmark", **report.share_params(report.summary.ks))
    table_ks = [k for k in report.summary.ks if k <= report.summary.max_n] if report else []   # the table's columns
    if share_url and len(share_url) > LIMITS.share_link_chars:
        share_url = None  # servers and browsers refuse such long addresses; the downloads remain
    page = render_template(
        "benchmark.html", form=form, report=report, error=error and str(error), all_formats=FORMATS,
        format_names=FORMAT_NAMES,
        carried=_carried_fields(form, report), plans=report and report.planner(),
        histogram=report and histogram_chart([p.c / p.n for p in report.summary.problems]),
        k_curve=report and k_curve_chart(report.summary),
        table_ks=table_ks, rows=report and per_problem_cells(per_problem_rows(report.summary, LIMITS.rows_shown),
                                                             table_ks),
        share_url=share_url, packed=report and report.packed[report.suite or ""],
        rows_shown=LIMITS.rows_shown, share_limit=LIMITS.share_link_chars,
        max_upload_bytes=current_app.config["MAX_CONTENT_LENGTH"], limits=LIMITS,
    )
    return page, error_status(error) if error else 200


def per_problem_cells(rows: list[dict[str, Any]], ks: list[int]) -> list[tuple[dict[str, Any], Markup]]:
    """Each shown row of the per-problem table with its pass@k and pass^k cells as HTML, written here at once: the
    template's loop over them (40 a row at 20 ks) took most of a 2,000-row page's time. Each cell carries its value
    for sorting (data-value, -1 where undefined) and shows it as the template's filters would."""
    shown = []
    for row in rows:
        n, c = row["n"], row["c"]
        at_k = (row["pass_at_k"][str(k)] for k in ks)
        hat_k = (row["pass_hat_k"][str(k)] for k in ks)
        cells = [_cell(value, None if value is None else pass_percent(value, n, c, k, fixed=True))
                 for k, value in zip(ks, at_k)]
        cells += [_cell(value, None if value is None else percent(value, fixed=True)) for value in hat_k]
        shown.append((row, Markup("".join(cells))))
    return shown


def _cell(value: float | None, text: str | None) -> str:
    """A table cell of a value (None: undefined, sorted as -1) shown as text."""
    if value is None or text is None:
        return '<td data-value="-1">—</td>'
    return f'<td data-value="{value!r}">{escape(text)}</td>'


def _carried_fields(form: BenchmarkForm, report: Report | None) -> dict[str, str] | None:
    """The hidden fields that carry counts into the next calculation, so that changing k needs no new upload.

    A report from a file carries its counts (None when too large); one from a share link
    its link's counts; one from pasted text nothing (the text stays in its box). After an
    error the fields come back as they were sent.
    """
    shared = {name: value for name, value in (("counts", form.counts), ("z", form.z)) if value}
    if report is None:
        return dict(form.carried) or shared
    if report.source_name:
        return carried_fields(report)
    return shared if report.format == "share link" else {}


def _attachment(body: Iterable[str], mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
