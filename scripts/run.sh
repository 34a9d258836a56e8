#!/usr/bin/env bash
# Run passk's production stack in the foreground: two pools of gunicorn workers
# on unix sockets, behind nginx listening on HOST:PORT (default 127.0.0.1:8000).
# Uploads (the benchmark and compare POSTs, which take up to a couple of
# seconds of CPU each) go to their own pool, everything else to the other, so
# heavy work waits for upload workers and never for the ones pages need.
#
# It installs nothing: scripts/serve.sh (and the Dockerfile) provide gunicorn
# and nginx, then exec this. GUNICORN and PASSK_NGINX name other executables (nginx itself reads NGINX); the
# run directory (socket, nginx's buffers, Werkzeug's upload spool) lives in
# memory under /dev/shm where there is one (PASSK_SPOOL names another place),
# and is removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

gunicorn=${GUNICORN:-.venv/bin/gunicorn}
nginx=${PASSK_NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
listen="${HOST:-127.0.0.1}:${PORT:-8000}"
[[ $listen == *:*:* ]] && listen="[${HOST}]:${PORT:-8000}"   # an IPv6 address

spool=${PASSK_SPOOL:-/dev/shm}
[[ -d $spool && -w $spool ]] || spool=${TMPDIR:-/tmp}
run_dir=$(mktemp -d "$spool/passk.XXXXXX")
# When root, nginx's workers run as nobody: they may pass through, not list.
chmod 711 "$run_dir"

# WEB_CONCURRENCY workers in all (default 2 x the cores this process may run
# on + 1, as gunicorn.conf.py counts): half of them, at least one, take
# uploads, and the rest, at least one, take everything else. An upload that
# finds every upload worker busy waits in that pool's listen queue (nginx
# gives it proxy_read_timeout, 60 s) while pages are still answered.
workers=${WEB_CONCURRENCY:-$(( 2 * $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) + 1 ))}
[[ $workers =~ ^[1-9][0-9]*$ ]] || { echo "WEB_CONCURRENCY must be a whole number of workers, not '$workers'" >&2; exit 2; }
upload_workers=$(( workers / 2 > 0 ? workers / 2 : 1 ))
page_workers=$(( workers - upload_workers > 0 ? workers - upload_workers : 1 ))

gunicorn_pid= uploads_pid= nginx_pid=
stop() {
    set +e
    # nginx first, gracefully (QUIT): it stops accepting and finishes the
    # requests under way, which still need gunicorn; then both gunicorn pools
    # (TERM is gunicorn's graceful stop).
    [[ -n $nginx_pid ]] && kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    [[ -n $gunicorn_pid ]] && kill -TERM "$gunicorn_pid" 2>/dev/null
    [[ -n $uploads_pid ]] && kill -TERM "$uploads_pid" 2>/dev/null
    [[ -n $gunicorn_pid ]] && wait "$gunicorn_pid" 2>/dev/null
    [[ -n $uploads_pid ]] && wait "$uploads_pid" 2>/dev/null
    rm -rf "$run_dir"
}
trap stop EXIT
trap 'exit 0' TERM INT

sed -e "s|@RUN_DIR@|$run_dir|g" -e "s|@LISTEN@|$listen|g" deploy/nginx.conf >"$run_dir/nginx.conf"
"$nginx" -t -q -p "$run_dir" -c "$run_dir/nginx.conf" -e stderr

TMPDIR=$run_dir WEB_CONCURRENCY=$page_workers "$gunicorn" --config gunicorn.conf.py \
    --bind "unix:$run_dir/gunicorn.sock" "$@" app:app &
gunicorn_pid=$!
TMPDIR=$run_dir WEB_CONCURRENCY=$upload_workers "$gunicorn" --config gunicorn.conf.py --name passk-uploads \
    --bind "unix:$run_dir/uploads.sock" "$@" app:app &
uploads_pid=$!
# nginx starts once both pools listen, so its first requests find a worker.
until [[ -S $run_dir/gunicorn.sock && -S $run_dir/uploads.sock ]]; do
    kill -0 "$gunicorn_pid" 2>/dev/null || { wait "$gunicorn_pid"; exit; }
    kill -0 "$uploads_pid" 2>/dev/null || { wait "$uploads_pid"; exit; }
    sleep 0.05
done
"$nginx" -p "$run_dir" -c "$run_dir/nginx.conf" -e stderr -g "daemon off;" &
nginx_pid=$!
echo "passk is serving http://$listen/ (nginx in front of gunicorn; Ctrl-C stops them all)" >&2

# Whichever stops first, the others follow (the EXIT trap stops them).
set +e
while kill -0 "$gunicorn_pid" 2>/dev/null && kill -0 "$uploads_pid" 2>/dev/null && kill -0 "$nginx_pid" 2>/dev/null; do
    wait -n "$gunicorn_pid" "$uploads_pid" "$nginx_pid"
done
exit 1
