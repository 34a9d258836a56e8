"""scripts/setup.sh's apt_install, which the test and serve commands use for nginx, chromium and haproxy: one line
first saying what it installs system-wide and why, apt's and dpkg's own output in .venv/apt.log, and where that log
is when they fail. Run with stand-ins for apt-get and id on the PATH: nothing is installed."""

import shutil
import subprocess

import pytest
from where import ROOT

DPKG_SAYS = ["Selecting previously unselected package haproxy.", "Preparing to unpack .../haproxy_2.6.12_amd64.deb ...",
             "Unpacking haproxy (2.6.12-1) ...", "Setting up haproxy (2.6.12-1) ..."]


@pytest.fixture
def checkout(tmp_path):
    """A scratch checkout holding scripts/setup.sh, and a bin/ of stand-ins: id says root, apt-get prints what dpkg
    prints and exits with $FAKE_APT_STATUS (update always succeeds)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts")
    bin = tmp_path / "bin"
    bin.mkdir()
    (bin / "id").write_text("#!/bin/sh\necho 0\n")
    said = "\n".join(f"echo '{line}'" for line in DPKG_SAYS)
    (bin / "apt-get").write_text(f'#!/bin/sh\ncase " $* " in *" update "*) exit 0 ;; esac\n{said}\n'
                                 'exit "${FAKE_APT_STATUS:-0}"\n')
    for stand_in in ("id", "apt-get"):
        (bin / stand_in).chmod(0o755)
    return tmp_path


def apt_install(checkout, status):
    return subprocess.run(["bash", "-c", 'PATH="$PWD/bin:$PATH"; source scripts/setup.sh && '
                                         'apt_install haproxy "for the replica test"'],
                          cwd=checkout, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "FAKE_APT_STATUS": str(status)})


def test_one_line_says_what_is_installed_and_why_and_apt_s_output_goes_to_a_log(checkout):
    done = apt_install(checkout, 0)
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.splitlines() == ["Installing Debian's haproxy package system-wide with apt-get, for the replica "
                                        "test; apt's output goes to .venv/apt.log."]
    log = (checkout / ".venv" / "apt.log").read_text().splitlines()
    assert log[0].startswith("== apt-get install haproxy, ") and log[1:] == DPKG_SAYS


def test_a_failure_shows_the_log_s_end_and_where_the_rest_is(checkout):
    done = apt_install(checkout, 100)
    assert done.returncode == 1
    said = done.stderr.splitlines()
    log = (checkout / ".venv" / "apt.log").read_text().splitlines()
    assert said[0].startswith("Installing Debian's haproxy package") and said[1:-1] == log[-5:]
    assert log[-4:] == DPKG_SAYS
    assert said[-1] == "Installing haproxy failed; apt-get's whole output is in .venv/apt.log."
