#!/usr/bin/env bash
# Run the whole test suite, browser tests included, in .venv.
#
#   bash scripts/test.sh                     # everything
#   bash scripts/test.sh -k browser -x       # extra arguments go to pytest
#
# Browser tests drive a real Chromium. It is looked for in this order:
# $PASSK_CHROMIUM; chromium, chromium-browser or google-chrome on PATH;
# Playwright's own downloaded browser; `playwright install chromium`;
# Debian's chromium package (only as root with apt-get). Whatever is found
# is exported as PASSK_CHROMIUM for tests/conftest.py. The tests of the
# production stack need nginx, found or installed as serve.sh does (PASSK_NGINX),
# and the replica test HAProxy (installed the same way when it can be).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/setup.sh

# True when $1 is a browser that starts and tells its version (a snap stub
# named chromium-browser, for one, does not).
runs() {
    [[ -n "$1" && -x "$1" ]] && timeout 30 "$1" --version >/dev/null 2>&1
}

# Print the path of Playwright's own Chromium build when it is downloaded.
playwright_chromium() {
    local path
    path=$(.venv/bin/python -c '
from playwright.sync_api import sync_playwright
with sync_playwright() as playwright:
    print(playwright.chromium.executable_path)
' 2>/dev/null) || return 1
    runs "$path" && echo "$path"
}

find_chromium() {
    if [[ -n "${PASSK_CHROMIUM:-}" ]]; then
        runs "$PASSK_CHROMIUM" && return
        echo "PASSK_CHROMIUM=$PASSK_CHROMIUM does not run as a browser; set it to a Chromium executable." >&2
        exit 2
    fi
    local name
    for name in chromium chromium-browser google-chrome google-chrome-stable; do
        PASSK_CHROMIUM=$(command -v "$name") && runs "$PASSK_CHROMIUM" && return
    done
    PASSK_CHROMIUM=$(playwright_chromium) && return

    echo "No Chromium found; trying Playwright's download." >&2
    if timeout 300 .venv/bin/python -m playwright install chromium >.venv/playwright-install.log 2>&1; then
        PASSK_CHROMIUM=$(playwright_chromium) && return
    else
        echo "Playwright could not download it: $(grep -m1 -i error .venv/playwright-install.log)" >&2
    fi

    if apt_install chromium "for the browser tests"; then
        for PASSK_CHROMIUM in "$(command -v chromium)" /usr/bin/chromium; do
            runs "$PASSK_CHROMIUM" && return
        done
    fi

    cat >&2 <<'MESSAGE'
The browser tests need Chromium, and none could be found or installed.
Install Chromium (Debian/Ubuntu: apt-get install chromium), then run
    PASSK_CHROMIUM=/path/to/chromium bash scripts/test.sh
Meanwhile the other tests run with
    .venv/bin/python -m pytest -m "not browser"
MESSAGE
    exit 2
}

ensure_venv requirements-dev.txt
ensure_nginx
# The replica test puts two stacks behind HAProxy; it is skipped, saying so,
# where HAProxy can be neither found nor installed.
command -v haproxy >/dev/null || [[ -x /usr/sbin/haproxy ]] ||
    apt_install haproxy "for the replica test (two stacks behind HAProxy)" ||
    echo "HAProxy is missing, so the replica test will be skipped (apt-get install haproxy)." >&2
find_chromium
export PASSK_CHROMIUM
echo "Browser tests use $PASSK_CHROMIUM" >&2

# Four workers for two cores, each taking work from the others when its own runs
# out (worksteal): many tests wait (on Chromium, on a server, on a subprocess)
# while the others compute. Measured 2026-12-05 on the same clone: 510 s with
# three workers, 492 s with four and worksteal (earlier, 341 s with three and
# 396 s with two). (`-n 0` after it, in the extra arguments, turns this off.)
exec .venv/bin/python -m pytest -n 4 --dist worksteal "$@"
