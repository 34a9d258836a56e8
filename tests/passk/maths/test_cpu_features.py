"""The estimator's tests once more on another SIMD path: numpy with every dispatched CPU feature this CPU has
switched off (NPY_DISABLE_CPU_FEATURES), so its loops run the baseline build's code.

numpy picks a loop for each ufunc by the CPU's features (AVX2, AVX-512, ...), and its log1p, exp and expm1
give different last bits on different paths: a value computed from them differs from machine to machine.
passk's point values use none of them, so tests/passk/maths/test_estimator.py, which holds every value to the
nearest double bit for bit, must pass unchanged here too. Its tests of arrays are rerun (ARRAY_TESTS: every
test where numpy's vector loops compute; one problem at a time is plain Python, whose floats are IEEE's on any
CPU): about 10 s on an idle machine, where the whole file took 24 s and, beside the suite's other worker and
its stack tests, over two minutes.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from numpy._core import _multiarray_umath

ROOT = Path(__file__).resolve().parents[3]
ARRAY_TESTS = "array or estimate or for_ks or stirling"   # test_estimator's tests of numpy arrays, by name


def cpu_flags() -> set[str]:
    """The CPU's flags as the kernel lists them (empty off Linux)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    return next((set(line.split(":", 1)[1].split()) for line in text.splitlines() if line.startswith("flags")), set())


def dispatched_features_on() -> list[str]:
    """The features numpy dispatches to beyond its baseline that this CPU has: the names NPY_DISABLE_CPU_FEATURES
    can switch off (a baseline feature cannot be, and numpy refuses an unknown name)."""
    return [name for name in _multiarray_umath.__cpu_dispatch__ if _multiarray_umath.__cpu_features__.get(name)]


def test_the_estimator_tests_pass_on_the_baseline_simd_path() -> None:
    features = dispatched_features_on()
    if not features:
        pytest.skip(f"this CPU has no feature beyond numpy's baseline ({_multiarray_umath.__cpu_baseline__}); "
                    f"its flags: {' '.join(sorted(flag for flag in cpu_flags() if 'avx' in flag or 'sse' in flag))}")
    environment = {**os.environ, "NPY_DISABLE_CPU_FEATURES": " ".join(features)}
    check = subprocess.run(
        [sys.executable, "-c", "from numpy._core import _multiarray_umath as m; "
                               "print(' '.join(n for n in m.__cpu_dispatch__ if m.__cpu_features__.get(n)))"],
        env=environment, capture_output=True, text=True, check=True)
    assert check.stdout.strip() == "", f"numpy still dispatches to {check.stdout.strip()} with {features} off"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-n", "0",
         "tests/passk/maths/test_estimator.py", "-k", ARRAY_TESTS],
        cwd=ROOT, env=environment, capture_output=True, text=True)
    assert run.returncode == 0, f"with {' '.join(features)} off:\n{run.stdout[-4000:]}\n{run.stderr[-2000:]}"
