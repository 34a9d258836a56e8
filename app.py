"""The checkout's entry point for gunicorn (`app:app`, scripts/run.sh) and for the tests: the site itself is the
package's, passk.web (create_app in passk/web/app.py), as `passk serve` runs it from an installed wheel."""

from passk.web.app import create_app

__all__ = ["app", "create_app"]

app = create_app()
