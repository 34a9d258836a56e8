"""The checkout's entry point for gunicorn (`app:app`, scripts/run.sh) and for the tests: the site itself is the
package's, passk.web (create_app in passk/web/app.py), as `passk serve` runs it from an installed wheel.

`app` is what a server runs: the site with each request computed under the runtime's ceiling
(passk.web.app.served_app; passk/web/ceiling.py). The tests build the bare site with create_app."""

from passk.web.app import create_app, served_app

__all__ = ["app", "create_app"]

app = served_app()
