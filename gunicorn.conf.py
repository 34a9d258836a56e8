"""Gunicorn settings for passk, used by scripts/serve.sh and the Dockerfile.

The app is stateless, so it scales out as replicas behind any load balancer;
within one machine, sync workers scale with its cores.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"

# The work is CPU-bound arithmetic and file parsing: the usual 2 x cores + 1
# sync workers, counting only the cores this process may run on (containers).
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * len(os.sched_getaffinity(0)) + 1))
worker_class = "sync"

# Uploads of harness files run to hundreds of MiB; give them time to arrive
# and be read before the worker counts as stuck.
timeout = 120
graceful_timeout = 30
keepalive = 5

# Benchmark share links carry their numbers in the query string: allow the
# longest request line gunicorn accepts.
limit_request_line = 8190

# Nothing the user sends is logged: no access log, so no request lines, query
# strings or addresses. Errors (tracebacks, worker restarts) go to stderr.
accesslog = None
errorlog = "-"
loglevel = "info"

# The worker heartbeat file belongs in memory, not on a container's overlay disk.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# No runtime control socket: nothing manages workers at run time, and the
# socket would need a writable home directory.
control_socket_disable = True

proc_name = "passk"
