# Sourced by serve.sh and test.sh (run from the repo root): ensure_venv FILE, ensure_nginx.

# Create .venv if missing and install a requirements file into it, skipping
# pip when its stamp records the same requirements (and the same Python). A
# file's stamp covers the files it includes with -r, and installing it stamps
# them too: the serve command after the test command installs nothing.
ensure_venv() {
    local requirements=$1 file
    if ! .venv/bin/python -c "" 2>/dev/null; then
        echo "Creating .venv with $(python3 --version)" >&2
        rm -rf .venv
        python3 -m venv .venv
    fi
    if [[ "$(cat "$(_stamp "$requirements")" 2>/dev/null)" != "$(_digest "$requirements")" ]]; then
        echo "Installing $requirements into .venv" >&2
        # The installers' output only matters when they fail; then show all of it.
        if ! _install "$requirements" >.venv/pip.log 2>&1; then
            cat .venv/pip.log >&2
            echo "Installing $requirements failed (log above, also in .venv/pip.log)." >&2
            exit 1
        fi
        for file in $(_included "$requirements"); do
            _digest "$file" >"$(_stamp "$file")"
        done
    fi
}

# FILE and the requirements files it includes with -r lines.
# uv (pinned, itself installed by pip) installs the pinned requirements in a
# few seconds where pip took a minute; pip stays the fallback.
UV_REQUIREMENT="uv==0.13.8"
_install() {
    if .venv/bin/python -m pip install --disable-pip-version-check --no-input "$UV_REQUIREMENT" &&
        .venv/bin/python -m uv pip install --python .venv/bin/python --requirement "$1"; then
        return
    fi
    echo "uv could not install $1; pip installs it instead."
    .venv/bin/python -m pip install --disable-pip-version-check --no-input --requirement "$1"
}

_included() {
    echo "$1"
    sed -n 's/^-r[[:space:]]*//p' "$1"
}

_stamp() {
    echo ".venv/.stamp-${1%.txt}"
}

# What a stamp records: FILE's requirements, those it includes, and the Python.
_digest() {
    cat $(_included "$1") <(.venv/bin/python --version) | sha256sum | cut -d' ' -f1
}

# Install Debian's package NAME system-wide with apt-get when this is root on a
# Debian-like machine, saying first in one line what and why (WHY: what it is
# for); say why not otherwise. apt's and dpkg's own output goes to APT_LOG, and
# only when they fail is its end shown, with where the rest is. apt's lists are
# refreshed once per run. When another apt-get or dpkg holds apt's locks
# (unattended-upgrades, a second checkout's setup), wait for them for up to
# APT_LOCK_WAIT seconds rather than fail.
APT_LOCK_WAIT=300
APT_LOG=.venv/apt.log
apt_install() {
    local name=$1 why=$2
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
        echo "Cannot install Debian's $name package ($why) here: that needs root and apt-get." >&2
        return 1
    fi
    echo "Installing Debian's $name package system-wide with apt-get, $why; apt's output goes to $APT_LOG." >&2
    mkdir -p "$(dirname "$APT_LOG")"
    echo "== apt-get install $name, $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >>"$APT_LOG"
    if [[ -z "${PASSK_APT_UPDATED:-}" ]]; then
        _apt_update || { _apt_failed "apt-get update"; return 1; }
        PASSK_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=$APT_LOCK_WAIT \
        install -y -qq --no-install-recommends "$name" >>"$APT_LOG" 2>&1 ||
        { _apt_failed "Installing $name"; return 1; }
}

# What failed (WHAT), after the end of APT_LOG, which holds the rest.
_apt_failed() {
    tail -n 5 "$APT_LOG" >&2
    echo "$1 failed; apt-get's whole output is in $APT_LOG." >&2
}

# apt-get update, its output into APT_LOG. DPkg::Lock::Timeout makes apt-get
# wait for the dpkg lock, but update takes the package lists' lock, which
# apt-get (2.6) does not wait for: while another process holds that one, try
# again every 5 s.
_apt_update() {
    local said waited=0
    while ! said=$(LC_ALL=C DEBIAN_FRONTEND=noninteractive \
                   apt-get -o DPkg::Lock::Timeout=$APT_LOCK_WAIT update -qq 2>&1); do
        if [[ $said != *"Could not get lock"* ]] || (( waited >= APT_LOCK_WAIT )); then
            echo "$said" >>"$APT_LOG"
            return 1
        fi
        if (( waited == 0 )); then
            echo "Waiting up to $APT_LOCK_WAIT s for another apt-get to release apt's package lists." >&2
        fi
        sleep 5
        waited=$((waited + 5))
    done
    if [[ -n $said ]]; then echo "$said" >>"$APT_LOG"; fi
}

# nginx fronts gunicorn (deploy/nginx.conf). Exports PASSK_NGINX, the executable
# $PASSK_NGINX if set, else nginx on PATH or in /usr/sbin, else Debian's package.
ensure_nginx() {
    local candidate
    for candidate in "${PASSK_NGINX:-}" "$(command -v nginx)" /usr/sbin/nginx; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            export PASSK_NGINX=$candidate
            return
        fi
    done
    if apt_install nginx "to serve the site in front of gunicorn (and for the tests of that stack)" &&
        [[ -x /usr/sbin/nginx ]]; then
        export PASSK_NGINX=/usr/sbin/nginx
        return
    fi
    cat >&2 <<'MESSAGE'
passk serves through nginx, which buffers requests so slow clients cannot stall
gunicorn's workers, and nginx could not be found or installed. Install it
(Debian/Ubuntu: apt-get install nginx; macOS: brew install nginx), or name it
with PASSK_NGINX=/path/to/nginx, then run the command again.
MESSAGE
    exit 2
}
