"""Where things are, for tests at any depth of tests/."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]          # the checkout
FIXTURES = ROOT / "tests" / "fixtures"               # layouts written by hand, each with a README
REALDATA = ROOT.parent / "shared" / "realdata"      # real harness files, beside the checkout (CI provides them)
