"""HTTP errors as a sentence: JSON under /api/, the form again for a 413 on a form page, an error page elsewhere."""

from flask import Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from passk.web.guards import too_large_sentence, untrusted_host
from passk.web.forms import benchmark_form, compare_form
from passk.web.pages import benchmark_page, compare_page

UNTRUSTED_HOST = ("This server does not answer for the host named in the request; its operator can add "
                  "the name to PASSK_ALLOWED_HOSTS.")


def http_error(error: HTTPException) -> ResponseReturnValue:
    """Errors as JSON under /api/, as a page elsewhere; never a stack trace."""
    assert error.code is not None   # Flask hands an HTTPException without a code back as it is, not to a handler
    if untrusted_host():  # no links can be built for such a request, so no page either
        if request.path.startswith("/api/"):
            return jsonify(error=UNTRUSTED_HOST), 400
        return Response(UNTRUSTED_HOST + "\n", 400, mimetype="text/plain")
    if request.path.startswith("/api/"):
        return jsonify(error=error_sentence(error)), error.code
    if error.code == 413 and request.path in ("/benchmark", "/compare"):  # keep the user on the form
        if request.path == "/benchmark":
            page, _ = benchmark_page(benchmark_form({}), error=error_sentence(error))
        else:
            page, _ = compare_page(compare_form({}), error=error_sentence(error))
        return page, 413
    return render_template("error.html", error=error, message=error_sentence(error)), error.code


def error_sentence(error: HTTPException) -> str:
    """What went wrong, for the user: the limit passed, the address not found, or the methods allowed."""
    if error.code == 413:
        return too_large_sentence(error)
    if error.code == 404:
        return f"There is no page at {request.path}."
    if error.code == 405 and isinstance(error, MethodNotAllowed):   # routing's 405, which knows the methods
        allowed = " or ".join(sorted(set(error.valid_methods or ()) - {"HEAD", "OPTIONS"}))
        return f"{request.path} answers {allowed} requests, not {request.method}."
    return f"{error.name}: {error.description}"
