# passk in production: gunicorn serving the Flask app, as a non-root user.
#
#   docker build -t passk .
#   docker run --rm -p 8000:8000 passk            # http://localhost:8000/
#
# Stateless: run as many replicas as needed behind any load balancer.
# WEB_CONCURRENCY sets the workers per container (default 2 x cores + 1);
# PASSK_PUBLIC_URL (e.g. https://passk.example.org) makes share links and the
# embed snippet use the public address behind a TLS-terminating proxy.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

# The app writes only the temporary files Werkzeug spools large uploads to (in
# /tmp: keep it writable, and on disk rather than tmpfs if memory is tight),
# so its user needs no home and owns none of the code.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin passk

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt ./
RUN pip install --no-input --requirement requirements.txt

# Only what the app serves from (see .dockerignore).
COPY . ./

USER passk
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/v1/pass-at-k?n=1&c=1&k=1' % os.environ['PORT'], timeout=4)"]

CMD ["gunicorn", "--config", "gunicorn.conf.py", "app:app"]
