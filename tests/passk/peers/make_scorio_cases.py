"""Writes scorio_cases.json: 500 random one-problem cases and scorio's own figures for them.

Run in a virtual environment of its own with scorio installed from PyPI (never passk's .venv):

    python -m venv /tmp/scorio && /tmp/scorio/bin/pip install scorio==0.2.3
    /tmp/scorio/bin/python tests/passk/peers/make_scorio_cases.py

Each case is one problem: n samples of which c passed, a budget k and a share tau. Its row of
scorio's R matrix holds c ones then n - c zeros (scorio's metrics depend on the count only).
test_peer_scorio.py reads the file; it never imports scorio.
"""

import json
import random
from pathlib import Path

import numpy as np
import scorio
from scorio import eval as scorio_eval

SEED = 27
CASES = 500
TAUS = (0.0, 0.25, 0.5, 0.7, 0.75, 1.0)


def random_case(rng: random.Random) -> tuple[int, int, int, float]:
    """Mostly the sizes reasoning evals use (n up to 40), some up to 300 and a few up to 3,000."""
    draw = rng.random()
    n = rng.randint(1, 40) if draw < 0.7 else rng.randint(41, 300) if draw < 0.9 else rng.randint(301, 3000)
    tau = rng.choice(TAUS + (round(rng.random(), 3),))
    return n, rng.randint(0, n), rng.randint(1, n), tau


def figures(n: int, c: int, k: int, tau: float) -> list[float]:
    """scorio's pass@k, pass^k, G-Pass@k_tau, mG-Pass@k and maj@k for the one-problem matrix."""
    matrix = np.array([[1] * c + [0] * (n - c)])
    return [scorio_eval.pass_at_k(matrix, k), scorio_eval.pass_hat_k(matrix, k),
            scorio_eval.g_pass_at_k_tau(matrix, k, tau), scorio_eval.mg_pass_at_k(matrix, k),
            scorio_eval.maj_at_k(matrix, k)]


def main() -> None:
    rng = random.Random(SEED)
    cases = [[*case, *figures(*case)] for case in (random_case(rng) for _ in range(CASES))]
    columns = ["n", "c", "k", "tau", "pass_at_k", "pass_hat_k", "g_pass_at_k_tau", "mg_pass_at_k", "maj_at_k"]
    document = {"source": f"scorio {scorio.__version__} (PyPI), scorio.eval, random.Random({SEED})",
                "columns": columns, "cases": cases}
    path = Path(__file__).with_name("scorio_cases.json")
    path.write_text(json.dumps(document, separators=(",", ":")).replace("],[", "],\n[") + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
