#!/usr/bin/env bash
# Serve passk with gunicorn, as in production, on HOST:PORT (default 127.0.0.1:8000).
#
#   bash scripts/serve.sh                      # http://127.0.0.1:8000/
#   PORT=9000 HOST=0.0.0.0 bash scripts/serve.sh
#
# Extra arguments go to gunicorn. Settings live in gunicorn.conf.py.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/venv.sh
ensure_venv requirements.txt
exec .venv/bin/gunicorn --config gunicorn.conf.py "$@" app:app
