"""passk/ (with passk/web/) and app.py type-check under mypy --strict (pyproject.toml's [tool.mypy]), so CI keeps them typed."""

import subprocess
import sys
from where import ROOT



def test_mypy_strict_finds_no_errors(tmp_path):
    # A cache of its own under the test's tmp dir: the checkout stays clean, and no stale cache hides an error.
    checked = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy_cache")],
                             cwd=ROOT, capture_output=True, text=True)
    output = checked.stdout + checked.stderr
    assert checked.returncode == 0 and "Success" in checked.stdout, f"mypy found errors:\n{output}"
