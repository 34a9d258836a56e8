"""The setup the two README commands share (scripts/setup.sh), run in a scratch checkout."""

import shutil
import subprocess
from where import ROOT



def ensure_venv(checkout, requirements):
    """Run setup.sh's ensure_venv for one requirements file in checkout; return what it said."""
    done = subprocess.run(["bash", "-c", f"source scripts/setup.sh && ensure_venv {requirements}"],
                          cwd=checkout, capture_output=True, text=True, timeout=300, check=True)
    return done.stderr


def test_serve_after_test_installs_nothing(tmp_path):
    """The test command's install covers the serve command's requirements: no second pip run."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts")
    (tmp_path / "requirements.txt").write_text("# runtime: nothing (only uv itself comes from the registry)\n")
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\n# tests: nothing either\n")
    assert "Installing requirements-dev.txt" in ensure_venv(tmp_path, "requirements-dev.txt")
    assert "Installing" not in ensure_venv(tmp_path, "requirements.txt")
    assert "Installing" not in ensure_venv(tmp_path, "requirements-dev.txt")
    (tmp_path / "requirements.txt").write_text("# runtime: changed\n")
    assert "Installing requirements.txt" in ensure_venv(tmp_path, "requirements.txt")
    assert "Installing requirements-dev.txt" in ensure_venv(tmp_path, "requirements-dev.txt")
