"""What every request and answer goes through: size limits, caching, security headers, error pages, quiet logs."""

from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from passk.limits import LIMITS, exact_work_within
from passk.web.quietlog import describe
from passk.web import caching
from passk.web.errors import http_error, out_of_memory, refuse_at_ceiling
from passk.web.guards import whole_body_within_limit

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
])


class Passk(Flask):
    """Flask whose log of an unexpected error names code locations, never the request, and whose every request may
    spend at most LIMITS.exact_work on correct rounding (passk.limits.exact_work_within)."""

    def wsgi_app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with exact_work_within(LIMITS.exact_work):
            return super().wsgi_app(environ, start_response)

    def log_exception(self, exc_info: tuple[type, BaseException, TracebackType] | tuple[None, None, None]) -> None:
        assert exc_info[1] is not None   # Flask's handle_exception passes the error it is handling
        self.logger.error("Unhandled %s", describe(exc_info[1]))


def register(app: Flask) -> None:
    """Install the hooks on app; answers pass the after_request hooks last registered first."""
    app.url_defaults(caching.fingerprint_static)
    app.before_request(refuse_at_ceiling)
    app.before_request(caching.drop_unknown_parameters)
    app.before_request(whole_body_within_limit)
    app.after_request(caching.cache_answers)
    app.after_request(caching.cache_fingerprinted)
    app.after_request(security_headers)
    app.after_request(close_unsent_file)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(MemoryError, out_of_memory)


def close_unsent_file(response: Response) -> Response:
    """A 304 sends no body, so close the static file Werkzeug opened for it now, not at GC."""
    if response.status_code == 304 and hasattr(response.response, "close"):
        response.response.close()
    return response


def security_headers(response: Response) -> Response:
    """No framing (but of /embed), no sniffing, no referrer, and nothing loaded from elsewhere."""
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
