"""The JSON API under /api/v1/: pass@k of one problem, a benchmark's report, and a comparison or ranking of runs."""

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from passk.results.benchmark import Comparison
from passk.results.curves import CurveComparison, curves_of
from passk.formats import FormatError
from passk.limits import LIMITS, TooLarge, check_curve_cells
from passk.results.planner import comparison_plan, top_pair_plan
from passk.writing.report import Report
from passk.writing.answers import to_json
from passk.web.addresses import query_args
from passk.web.forms import benchmark_form, compare_form
from passk.web.inputs import (API_NO_INPUT, API_NO_RUN, INPUT_ERRORS, api_sentence, comparison_from_request, error_status,
                              json_body, leaderboard_from_request, ranking_from_request, report_from_input,
                              report_from_json_body)
from passk.web.query import API_EXAMPLE, calculate_query, read_json, read_query

api = Blueprint("api", __name__, url_prefix="/api/v1")

PASS_AT_K_INPUT = (f"Send n, c and k as a JSON body {API_EXAMPLE} (Content-Type: application/json), "
                   "or in the query string of a GET: ?n=10&c=3&k=5.")


@api.route("/pass-at-k", methods=["GET", "POST"])
def pass_at_k() -> ResponseReturnValue:
    """n, c, k (and ks) in the query string of a GET, or as the JSON body of a POST."""
    try:
        query = read_query(query_args(), api=True) if request.method == "GET" else read_json(json_body(
            json_data(), API_EXAMPLE, otherwise=PASS_AT_K_INPUT))
    except FormatError as error:
        return jsonify(error=str(error)), 400
    except TooLarge as error:
        return jsonify(error=str(error)), 413
    calculation = calculate_query(query)   # None exactly when the query has errors
    if calculation is None:
        return jsonify(error=query.message()), 400
    return jsonify(to_json(calculation))


@api.post("/benchmark")
def benchmark() -> ResponseReturnValue:
    """A benchmark's report, from a JSON body of problems or a multipart file (or files) of one run."""
    try:
        return jsonify(benchmark_report().to_json())
    except INPUT_ERRORS as error:
        return jsonify(error=api_sentence(error)), error_status(error)


def benchmark_report() -> Report:
    """The report POST /api/v1/benchmark answers with, its planning options set, whichever way it was sent."""
    if request.is_json:
        return report_from_json_body(json_data())
    form = benchmark_form(request.form)
    return report_from_input(form, request.files, API_NO_INPUT).with_planning(form.planning())


def json_data() -> bytes | None:
    """The request's body when it is JSON (read once, within the guards' limits), else None."""
    return request.get_data(cache=False) if request.is_json else None


RANKING_CURVE = ('curve=1 draws the curves over k of two runs, sent as the file fields "a" and "b"; runs sent as '
                 '"run" fields are ranked, without curves.')
CURVE_VALUES = {"1": True, "true": True, "on": True, "yes": True, "0": False, "false": False, "off": False,
                "no": False, "": False}


@api.post("/compare")
def compare() -> ResponseReturnValue:
    """Two runs compared ("a" and "b"), or several ranked ("run"); "planner" only when "difference" is sent, and
    for two runs "curve" (passk.results.curves: both curves over k, A - B's simultaneous band, the crossover, where A is
    ahead, behind and undecided, where it first loses) with curve=1, at the ks of curve_k (like 1-128) if sent."""
    form, files = compare_form(request.form), request.files
    try:   # "planner" and "curve" only when asked for, so the two-run answer keeps its shape (a contract)
        planning = form.planning() if "difference" in request.form else None
        curve = curve_asked()
        if form.curve_k.strip() and not curve:
            raise ValueError('"curve_k" chooses the ks of the curves over k: send curve=1 with it.')
        curve_ks = form.curve_ks()
        ranked = leaderboard_from_request(form, files)   # one file of several models, sent alone: its models
        if ranked or "run" in files:   # several runs, each its own file, or those models: ranked (passk.results.ranking)
            ranking, formats = ranked or ranking_from_request(form, files, request.form.getlist("name"))
            body = to_json(ranking, formats)
            if curve:   # the curves compare two runs, sent as "a" and "b"
                body["warnings"].append(RANKING_CURVE)
            if planning is not None:   # the top two runs at each k, as `passk --runs --detect` gives it
                body["planner"] = top_pair_plan(ranking, **planning, work=LIMITS.plan_work)
            return jsonify(body)
        comparison, _ = comparison_from_request(form, files, (None, "a"), (None, "b"), API_NO_RUN)
    except INPUT_ERRORS as error:
        return jsonify(error=api_sentence(error)), error_status(error)
    body = to_json(comparison)
    if planning is not None:
        body["planner"] = comparison_plan(comparison, **planning, work=LIMITS.plan_work)
    if curve:
        try:
            body["curve"] = to_json(chosen_curves(comparison, curve_ks))
        except TooLarge as error:
            return jsonify(error=str(error)), 413
        except ValueError as error:   # a k of curve_k past the smallest n
            return jsonify(error=str(error)), 400
    return jsonify(body)


def chosen_curves(comparison: Comparison, ks: list[int] | None) -> CurveComparison:
    """The curves over k of a request's comparison at the ks chosen (curve_k), refused past LIMITS.curve_cells
    (TooLarge), or at the ks they choose themselves within the request's exact_work."""
    if ks is not None:
        check_curve_cells(comparison.paired, len(ks))
    return curves_of(comparison, ks)


def curve_asked() -> bool:
    """The form's "curve" field: 1 (or true, on, yes) asks for the curves over k; ValueError for other values."""
    given = request.form.get("curve", "")
    if given.strip().lower() not in CURVE_VALUES:
        raise ValueError(f'"curve" must be 1 (the curves over k) or 0; got {given[:40]!r}.')
    return CURVE_VALUES[given.strip().lower()]
