"""passk web application: the factory that configures Flask and wires passk.web's pages, API and hooks together.

Its templates/ and static/ sit beside it, so the site runs from an installed wheel (`passk serve`) as from the
checkout (app.py, scripts/run.sh).
"""

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask.json.provider import DefaultJSONProvider

from passk import grammar, limits

from passk.writing import answers, display, paper, sentences
from passk.limits import LIMITS
from passk.web import hooks
from passk.web import endless
from passk.web.api import api
from passk.web.caching import STATIC_MAX_AGE
from passk.web.ceiling import Ceiling
from passk.web.guards import LimitedRequest
from passk.web.hooks import Passk
from passk.web.pages import pages

LOCAL_HOSTS = ["localhost", "127.0.0.1"]   # Werkzeug cannot match IPv6 literals
TEMPLATE_FILTERS = {
    **{name: getattr(display, name) for name in ("full", "count")}, "plural": grammar.plural,
    # a number and its unit never part at a line's end on a page (issue 18: no breaking inside numbers)
    **{name: display.page_filter(getattr(display, name))
       for name in ("percent", "pass_percent", "fraction", "p_value", "scientific", "points")},
    "size": limits.size,
    "columns_shown": answers.columns_shown, "crossover_sentences": sentences.crossover_sentences,
    **{name: getattr(paper, name) for name in ("calculation_rows", "interval_rows", "markdown_rows", "latex_rows")},
}


def create_app(config: Mapping[str, Any] | None = None) -> Passk:
    """Build the application; `config` overrides settings in tests."""
    app = Passk(__name__)
    public_url = os.environ.get("PASSK_PUBLIC_URL")
    app.request_class = LimitedRequest
    app.config.update(MAX_CONTENT_LENGTH=LIMITS.upload_bytes, PUBLIC_URL=public_url,
                      MAX_FORM_MEMORY_SIZE=LIMITS.text_bytes, MAX_FORM_PARTS=LIMITS.form_parts,
                      TRUSTED_HOSTS=trusted_hosts(os.environ.get("PASSK_ALLOWED_HOSTS"), public_url),
                      SEND_FILE_MAX_AGE_DEFAULT=STATIC_MAX_AGE)
    app.config.update(config or {})
    assert isinstance(app.json, DefaultJSONProvider)   # Flask's own provider: Passk sets no other
    app.json.sort_keys = False
    for name, template_filter in TEMPLATE_FILTERS.items():
        app.add_template_filter(template_filter, name)
    app.register_blueprint(pages)
    app.register_blueprint(api)
    if os.environ.get(endless.SWITCH) == "1":   # the ceiling's tests only
        app.register_blueprint(endless.endless)
    hooks.register(app)
    return app


def trusted_hosts(allowed: str | None = None, public_url: str | None = None) -> list[str] | None:
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
    if public_url and (hostname := urlsplit(public_url).hostname):   # none in an address without a scheme
        hosts.append(hostname)
    return hosts


def served_app(slots: int = 1) -> Ceiling:
    """The WSGI application a server runs: create_app()'s site, each request computed under the ceiling of
    passk.web.ceiling, in one sandbox per request the server runs at once (`slots`, started as they are needed)."""
    return Ceiling(create_app(), prestart=slots if slots > 1 else 0, factory="passk.web.app:create_app")
