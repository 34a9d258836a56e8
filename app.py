"""passk web application: thin views over the passk package."""

from flask import Flask, jsonify, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from passk import display
from passk.calculator import FIELDS, calculate_query, read_query
from passk.charts import curve_chart
from passk.steps import worked_steps

MAX_UPLOAD_BYTES = 256 * 1024 * 1024
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
])


def create_app(config=None):
    """Build the application; `config` overrides settings in tests."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES, JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.json.sort_keys = False
    for name in ("percent", "fraction", "full", "count"):
        app.add_template_filter(getattr(display, name), name)

    @app.get("/")
    def index():
        query = read_query(_query_args())
        calc = calculate_query(query)
        page = render_template(
            "index.html", query=query, calc=calc,
            chart=calc and curve_chart(calc.n, calc.c, calc.k),
            steps=calc and worked_steps(calc),
            share_url=calc and url_for("index", _external=True, **query.link_params()),
            embed_url=calc and url_for("embed", _external=True, **query.link_params()),
        )
        return page, 400 if query.errors else 200

    @app.get("/embed")
    def embed():
        query = read_query(_query_args())
        calc = calculate_query(query)
        full_url = url_for("index", _external=True, **(query.link_params() if calc else {}))
        return render_template("embed.html", query=query, calc=calc, full_url=full_url), \
            400 if query.errors else 200

    @app.get("/api/v1/pass-at-k")
    def api_pass_at_k():
        query = read_query(_query_args())
        if query.errors:
            return jsonify(error=" ".join(query.errors[name] for name in FIELDS if name in query.errors)), 400
        return jsonify(calculate_query(query).to_json())

    app.register_error_handler(HTTPException, _http_error)
    app.after_request(_security_headers)
    return app


def _query_args():
    """The query string as name -> list of values, for the pure readers."""
    return {name: request.args.getlist(name) for name in request.args}


def _http_error(error):
    """Errors as JSON under /api/, as a page elsewhere; never a stack trace."""
    if request.path.startswith("/api/"):
        return jsonify(error=_error_sentence(error)), error.code
    return render_template("error.html", error=error, message=_error_sentence(error)), error.code


def _error_sentence(error):
    if error.code == 413:
        return (f"The upload is larger than the {MAX_UPLOAD_BYTES // 2**20} MiB limit; "
                f"send counts per problem instead of per-sample results, or split the file.")
    if error.code == 404:
        return f"There is no page at {request.path}."
    return f"{error.name}: {error.description}"


def _security_headers(response):
    if request.path == "/embed":  # the one page any site may frame
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
            "frame-ancestors 'none'", "frame-ancestors *")
    else:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    return response


app = create_app()
