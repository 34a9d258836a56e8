"""passk 1.0's module paths (before the wings) still import, as the very module they became, with a
DeprecationWarning naming the new path (passk.moved)."""

import importlib
import subprocess
import sys

import pytest

from passk.moved import MOVED

# The top-level modules of passk 1.0 (commit 29b4f82) that now live in a wing
BEFORE_THE_WINGS = ("bayes benchmark calculator charts columns curves display estimator frames gpass inflated "
                    "intervals majority means metrics nearest notebook output paper passfail planner quietlog "
                    "ranking report scores sharing stats steps variance").split()


def test_every_module_that_moved_has_its_old_path():
    assert sorted(MOVED) == sorted(f"passk.{name}" for name in BEFORE_THE_WINGS)


@pytest.mark.parametrize("old, new", sorted(MOVED.items()))
def test_an_old_path_gives_the_module_at_its_new_path_and_says_where(old, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}; the old path forwards until passk 2.0"):
        forwarded = importlib.import_module(old)
    assert forwarded is importlib.import_module(new)


def test_the_documented_1_0_imports_still_work_in_a_fresh_interpreter():
    script = ("import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
              "try:\n    from passk.frames import reduce_log\nexcept DeprecationWarning as warning:\n"
              "    print(warning)\n"
              "warnings.simplefilter('ignore')\n"
              "from passk.frames import reduce_log\nfrom passk.benchmark import summarize\n"
              "from passk.results.frames import reduce_log as moved\nprint(reduce_log is moved, summarize.__module__)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["passk.frames is now passk.results.frames; the old path forwards until passk 2.0",
                                "True passk.results.benchmark"]


def test_a_name_passk_never_had_is_still_missing():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("passk.no_such_module")
