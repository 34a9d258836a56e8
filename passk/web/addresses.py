"""The addresses the pages build and read: share links, the query string as lists, and a calculation's own address."""

from collections.abc import Callable, Mapping
from typing import Any

from flask import current_app, request, url_for

from passk.web.query import FIELDS, CalculatorQuery


def public_url(endpoint: str, **params: Any) -> str:
    """An absolute link for sharing: from PASSK_PUBLIC_URL when set, else from the request."""
    base: str | None = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **params)
    return url_for(endpoint, _external=True, **params)


def query_args() -> dict[str, list[str]]:
    """The query string as name -> list of values, for the pure readers."""
    return {name: request.args.getlist(name) for name in request.args}


def canonical_address(query: CalculatorQuery) -> str | None:
    """This page's address as its share link writes it, when the request's differs; else None.

    A form sent without JavaScript carries its empty fields (&ks=), and typed
    values may be written otherwise (k=05, ks=20, 2): a calculation's n, c, k
    and ks are rewritten as the share link has them, an empty ks is dropped
    whatever the rest says, and any other parameter is kept as it came. The
    page at the new address is the same page.
    """
    given = query_args()
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
    # As url_for's **values, typed Any: mypy cannot tell these names from its own _anchor, _external, ...
    parameters: dict[str, Any] = {**canonical, **others}   # (no name is in both)
    assert request.endpoint is not None   # the pages call this from their views: the request matched a route
    return url_for(request.endpoint, **parameters)


class _NameRecorder(dict[str, str]):
    """An empty form whose reader's questions are written down: the names a form reads, in its order."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def get(self, name: str, default: Any = None) -> Any:   # the default back, whatever dict.get's callers give
        if name not in self.names:
            self.names.append(name)
        return default

    def getlist(self, name: str, type: object = None) -> list[str]:
        self.get(name)
        return []


def names_read(form_reader: Callable[[Mapping[str, str]], object]) -> tuple[str, ...]:
    """The parameter names form_reader (benchmark_form, compare_form) looks up, in the order it does."""
    recorder = _NameRecorder()
    form_reader(recorder)
    return tuple(recorder.names)
