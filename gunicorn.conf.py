"""Gunicorn settings for the checkout's stack (scripts/run.sh, and so serve.sh and the Dockerfile): the package's,
passk/web/gunicorn_conf.py, which `passk serve` uses too."""

from passk.web.gunicorn_conf import *  # noqa: F401,F403  (gunicorn reads the settings as this module's names)
