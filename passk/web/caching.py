"""What browsers and nginx may keep: GET answers for ten minutes, fingerprinted static files for a year, and one
address per answer (a parameter no page reads redirects to the address without it)."""

import hashlib
import os
from typing import Any
from urllib.parse import quote, urlencode

from flask import Response, current_app, redirect, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response as BaseResponse

from passk.web.addresses import names_read
from passk.web.forms import benchmark_form, compare_form
from passk.web.query import FIELDS

STATIC_MAX_AGE = 3600                  # seconds, for a static file asked for without its fingerprint
FINGERPRINTED_MAX_AGE = 365 * 24 * 3600  # a fingerprinted address never changes its content
ANSWER_MAX_AGE = 600   # seconds: a GET answer is a pure function of its address (and Host)
CACHEABLE_ENDPOINTS = {"pages.index", "pages.embed", "api.pass_at_k", "pages.benchmark", "pages.compare"}
KNOWN_PARAMETERS = {**{endpoint: FIELDS for endpoint in ("pages.index", "api.pass_at_k")},
                    "pages.embed": FIELDS + ("theme", "background"), "pages.benchmark": names_read(benchmark_form),
                    "pages.compare": names_read(compare_form), "static": ("v",), "pages.favicon": ()}


def fingerprint(filename: str) -> str | None:
    """The first 12 hex digits of the static file's SHA-256 (None if there is no such file)."""
    fingerprints: dict[str, str] = current_app.extensions.setdefault("passk.fingerprints", {})
    if filename not in fingerprints:
        folder = current_app.static_folder   # None only for an app without static files: then there is no file
        path = safe_join(folder, filename) if folder is not None else None
        if not (path and os.path.isfile(path)):
            return None
        with open(path, "rb") as file:
            fingerprints[filename] = hashlib.sha256(file.read()).hexdigest()[:12]
    return fingerprints[filename]


def fingerprint_static(endpoint: str, values: dict[str, Any]) -> None:
    """Static addresses carry ?v=<fingerprint>, so they can be cached for a year."""
    if endpoint == "static" and "filename" in values:
        values["v"] = fingerprint(values["filename"])


_KNOWN_SETS = {endpoint: frozenset(names) for endpoint, names in KNOWN_PARAMETERS.items()}   # (for the lookups)


def drop_unknown_parameters() -> BaseResponse | None:
    """A cacheable address with a parameter its page never reads redirects to the address without it.

    nginx keeps an answer per address (deploy/nginx.conf), so ?x=1, ?x=2, ... would
    each be one more entry, holding whatever the client wrote. The address
    redirected to keeps the known parameters, every value of each, in one order.
    """
    endpoint = request.endpoint or ""   # "": no route, and no parameters known
    known = _KNOWN_SETS.get(endpoint)
    if known is None or request.method not in ("GET", "HEAD") or known.issuperset(request.args):
        return None
    pairs = [(name, value) for name in KNOWN_PARAMETERS[endpoint] for value in request.args.getlist(name)]
    location = quote(request.script_root + request.path) + ("?" + urlencode(pairs) if pairs else "")
    return redirect(location, 308)


ANSWER_CACHE_CONTROL = f"public, max-age={ANSWER_MAX_AGE}"


def cache_answers(response: Response) -> Response:
    """Pages and API answers depend on nothing but the address: browsers and nginx may keep them."""
    if request.method in ("GET", "HEAD") and response.status_code == 200 \
            and request.endpoint in CACHEABLE_ENDPOINTS:
        response.headers["Cache-Control"] = ANSWER_CACHE_CONTROL   # set whole: cache_control parses and rewrites
    return response


def cache_fingerprinted(response: Response) -> Response:
    """A static file asked for with its current fingerprint may be kept a year, unchanged."""
    if request.endpoint != "static":   # (before the query string: pages ask for no fingerprint)
        return response
    version = request.args.get("v")
    if (version and response.status_code in (200, 304)
            and request.view_args is not None and version == fingerprint(request.view_args["filename"])):
        response.cache_control.max_age = FINGERPRINTED_MAX_AGE
        response.cache_control.public = True
        response.cache_control.immutable = True
    return response
