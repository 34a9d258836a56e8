"""The whole curve over k on the command line (issue 27, item 3): `passk --runs A.jsonl B.jsonl --curve -k 1-128`
on 1,000 problems, against the same command without --curve, measured in the same run.

    .venv/bin/python bench/bench_curve.py                 # 1,000 problems, n = 128 and n = 1,024: about a minute
    .venv/bin/python bench/bench_curve.py --repeats 3     # fewer repeats

Two counts JSONL files ({"id", "c", "n"} a line) are written to --dir (default /tmp, not committed): run A
sharpened (twice run B's rate, a quarter of its problems collapsed to never solved), so that A leads at k = 1 and
trails at large k, as RL-trained models do against their base. Each command runs --repeats times in a fresh
`python -m passk` process (imports included); the wall time and the child's CPU time (user + system) of each run
are taken and the median reported, with the ratio to the baseline: `passk --runs A B` on the same files (reading
both, pairing them and comparing them at the default ks, the same start-up and reading). Each curve's answer is
checked: 128 (or 1,024) rows and the first-loss sentence. In process, the seconds of passk.results.curves.two_curves
alone are reported too.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261205


def write_runs(directory: Path, problems: int, n: int) -> tuple[Path, Path]:
    """Run A (sharpened) and run B (base) as counts JSONL files of `problems` problems with n samples each."""
    generator = np.random.default_rng(SEED)
    base = generator.beta(0.5, 2.0, problems)
    sharp = np.where(generator.random(problems) < 0.25, 0.0, np.minimum(1.0, 2 * base))
    paths = []
    for name, rates in (("sharp", sharp), ("base", base)):
        path = directory / f"curve-{name}-{problems}x{n}.jsonl"
        path.write_text("".join(json.dumps({"id": f"task/{i}", "c": int(c), "n": n}) + "\n"
                                for i, c in enumerate(generator.binomial(n, rates))))
        paths.append(path)
    return paths[0], paths[1]


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, child CPU seconds, standard output) of one `python -m passk` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "passk", *argv], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"passk {' '.join(argv)} exited {done.returncode}: {done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def median_of(argv: list[str], repeats: int) -> tuple[float, float, str]:
    runs = [timed(argv) for _ in range(repeats)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2]


def in_process(a: Path, b: Path, ks: range) -> float:
    """Seconds of passk.results.curves.two_curves alone (the reading and pairing left out), the best of three."""
    sys.path.insert(0, str(ROOT))
    from passk.api import read
    from passk.results.benchmark import compare
    from passk.results.curves import curves_of
    runs = [read(path).problems for path in (a, b)]
    comparison = compare(runs[0], runs[1], [1])
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        curves_of(comparison, list(ks))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp"))
    args = parser.parse_args()
    print(f"{args.problems:,} problems, median of {args.repeats} runs; CPU is the child's user + system")
    print(f"{'command':<52} {'wall s':>7} {'CPU s':>7} {'wall ×':>7} {'CPU ×':>7}")
    for n in (128, 1024):
        a, b = write_runs(args.dir, args.problems, n)
        base_wall, base_cpu, _ = median_of(["--runs", str(a), str(b)], args.repeats)
        print(f"{f'baseline: --runs A B (n = {n:,})':<52} {base_wall:7.2f} {base_cpu:7.2f} {1:7.2f} {1:7.2f}")
        for ks in ("1-128", "1-1024")[: 1 if n == 128 else 2]:
            wall, cpu, out = median_of(["--runs", str(a), str(b), "--curve", "-k", ks], args.repeats)
            rows = sum(1 for line in out.splitlines()
                       if line.split()[:1] and line.split()[0].replace(",", "").isdigit())
            assert rows == int(ks.split("-")[1]) and "first loses" in out, out[-2000:]
            print(f"{f'--curve -k {ks} (n = {n:,})':<52} {wall:7.2f} {cpu:7.2f} {wall / base_wall:7.2f} "
                  f"{cpu / base_cpu:7.2f}")
            alone = in_process(a, b, range(1, int(ks.split("-")[1]) + 1))
            print(f"{'  passk.results.curves alone, in process':<52} {alone:7.2f}")
    print("\nthe last answer's sentences:")
    print("\n".join(out.strip().splitlines()[-6:]))


if __name__ == "__main__":
    main()
