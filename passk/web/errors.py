"""HTTP errors as a sentence: JSON under /api/, the form again for a 413 on a form page, an error page elsewhere.

A request that reached the runtime's ceiling (passk.web.ceiling) is answered here too, in the worker: the
sandbox that computed it is gone, and the worker raises the ceiling's 413 from the request's environ.
"""

from flask import Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, HTTPException, InternalServerError, MethodNotAllowed, RequestEntityTooLarge

from passk import limits
from passk.web.ceiling import BOUNDS, REACHED
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
        values = request.args if request.method == "GET" else {}   # a share link's fields are its address's
        if request.path == "/benchmark":
            page, _ = benchmark_page(benchmark_form(values), error=error_sentence(error))
        else:
            page, _ = compare_page(compare_form(values), error=error_sentence(error))
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
    if error.code == 500:
        return BUG
    return f"{error.name}: {error.description}"


BUG = ("Something went wrong inside passk while answering this request: a bug, not your input's fault. The server's "
       "log says where in the code (never what you sent); the passk command may compute the same answer meanwhile.")
UNREADABLE = ("The request's body could not be read: its chunked transfer encoding is malformed, or the connection "
              "ended before the body did.")


def refuse_at_ceiling() -> None:
    """Raise the answer of a request the worker answers itself: one that reached the ceiling, or whose body it
    could not read (passk.web.ceiling puts which in the environ)."""
    reached = request.environ.get(REACHED)
    if reached in ("cpu", "memory"):
        raise RequestEntityTooLarge(limits.ceiling_reached(reached, request.environ.get(BOUNDS, limits.LIMITS)))
    if reached == "unreadable":
        raise BadRequest(UNREADABLE)
    if reached:
        raise InternalServerError()


def out_of_memory(error: MemoryError) -> ResponseReturnValue:
    """An allocation failed at the sandbox's memory ceiling: the ceiling's sentence, and the sandbox, told through
    the environ, ends after this answer."""
    request.environ[REACHED] = "memory"
    return http_error(RequestEntityTooLarge(limits.ceiling_reached("memory", request.environ.get(BOUNDS, limits.LIMITS))))
