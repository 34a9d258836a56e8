# passk in production: nginx in front of gunicorn (scripts/run.sh), as a non-root user.
#
#   docker build -t passk .
#   docker run --rm -p 8000:8000 passk                  # http://localhost:8000/
#   docker compose -f deploy/compose.yaml up --build    # two replicas behind HAProxy, :8080
#
# Stateless: run as many replicas as needed behind any load balancer.
#   WEB_CONCURRENCY      gunicorn workers per container, split between the page and upload pools (default 2 x cores + 1)
#   PASSK_PUBLIC_URL     the address share links and the embed snippet name,
#                        e.g. https://passk.example.org behind a TLS proxy
#   PASSK_ALLOWED_HOSTS  Host names answered (comma list; default localhost,
#                        127.0.0.1 and PASSK_PUBLIC_URL's); keep localhost,
#                        which the health check names
#   PASSK_SPOOL          where nginx buffers request bodies and Werkzeug spools
#                        uploads (up to 256 MiB each, twice over): /tmp, on the
#                        container's disk, since Docker's /dev/shm is only 64 MB;
#                        /dev/shm with --shm-size=1g keeps them in memory
#
# No Docker daemon was at hand where this was written: deploy/check_image.py
# checks what it copies and runs its CMD and HEALTHCHECK as an unprivileged
# user with this environment and Debian bookworm's nginx.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    GUNICORN=gunicorn \
    PASSK_SPOOL=/tmp

# Debian's nginx; run.sh gives it its own configuration, run directory and
# logs, so it needs nothing of the package's /etc/nginx or /var/lib/nginx.
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/*

# The user writes only run.sh's run directory under PASSK_SPOOL; it needs no
# home and owns none of the code.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin passk

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt ./
RUN pip install --no-input --requirement requirements.txt

# Only what the stack serves from (see .dockerignore).
COPY . ./

USER passk
EXPOSE 8000

# /healthz computes nothing; localhost is a Host name the app answers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import http.client, os; c = http.client.HTTPConnection('127.0.0.1', int(os.environ['PORT']), timeout=4); c.request('GET', '/healthz', headers={'Host': 'localhost'}); raise SystemExit(c.getresponse().status != 200)"]

# bash is PID 1: run.sh traps SIGTERM (docker stop) and stops nginx and gunicorn.
CMD ["bash", "scripts/run.sh"]
