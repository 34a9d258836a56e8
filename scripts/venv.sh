# Sourced by serve.sh and test.sh (run from the repo root): ensure_venv FILE.

# Create .venv if missing and install a requirements file into it, skipping
# pip when the stamp records the same requirements (and the same Python).
ensure_venv() {
    local requirements=$1
    local stamp=".venv/.stamp-${requirements%.txt}"
    if ! .venv/bin/python -c "" 2>/dev/null; then
        echo "Creating .venv with $(python3 --version)" >&2
        rm -rf .venv
        python3 -m venv .venv
    fi
    local digest
    digest=$(cat requirements*.txt <(.venv/bin/python --version) | sha256sum | cut -d' ' -f1)
    if [[ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]]; then
        echo "Installing $requirements into .venv" >&2
        # pip's output only matters when it fails; then show all of it.
        if ! .venv/bin/python -m pip install --disable-pip-version-check --no-input \
            --requirement "$requirements" >.venv/pip.log 2>&1; then
            cat .venv/pip.log >&2
            echo "Installing $requirements failed (log above, also in .venv/pip.log)." >&2
            exit 1
        fi
        echo "$digest" >"$stamp"
    fi
}
