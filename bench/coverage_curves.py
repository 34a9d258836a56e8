"""How often the simultaneous band of A − B over k holds the whole true difference curve: a seeded simulation.

    .venv/bin/python bench/coverage_curves.py                 # from the repository root; about 20 minutes on 2 cores
    .venv/bin/python bench/coverage_curves.py --draws 100 --out /tmp/curves.md   # a quick look

Writes the section "Two curves over k (issue 17 §4)" of docs/benchmarks.md (between its two marker lines,
replaced on every run) and prints it. Each scenario is a population of POPULATION problem pairs, each with
run A's and run B's true pass rate (p_A, p_B), drawn once from SEED. Each draw samples P problems from the
population (with replacement: problems like these), then c ~ Binomial(n, p) for each run, and calls
passk.results.curves.two_curves, the production code, at its own ks (every k to n, or log-spaced ones). The truth
at k is the population's mean of (1 - p_B)^k - (1 - p_A)^k, the difference of the expected pass@k.

Reported per scenario:
- band: the share of draws whose simultaneous band holds the truth at every k shown at once (target 95%);
- pointwise: the same for the compare table's 95% interval at each k on its own (what the band replaces);
- sup-t plain: the same for mean +- c SE with the band's critical value c (the textbook sup-t band, without
  the paired MOVER interval);
- level: the band's mean per-k level 1 - alpha*;
- crossing: where the true curves cross, the share of draws reporting a crossing, and of those the share
  whose interval (from the last k shown where the first leader is significantly ahead, or 1, to the first
  where the other is, or beyond n) holds the true crossing k.
"""

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from passk.results.curves import curve_ks  # noqa: E402
from passk.results.curves import DRAWS as CURVE_DRAWS, METHOD, two_curves  # noqa: E402
from passk.maths.estimator import estimate_pass_at_k  # noqa: E402
from passk.maths.intervals import PairedDifference  # noqa: E402
from passk.maths.stats import t_quantile  # noqa: E402

SEED = 20261126
DRAWS = 1000
POPULATION = 20_000
PROBLEMS = (20, 100, 500)
SAMPLES = (2, 8, 64)
BEGIN = "<!-- bench/coverage_curves.py: begin -->"
END = "<!-- bench/coverage_curves.py: end -->"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def rl_rates(base: np.ndarray) -> np.ndarray:
    """An "RL" run: sharper on the problems the base run solves a quarter of the time or more, lost on the rest."""
    return np.where(base > 0.25, np.minimum(1.0, 1.8 * base), 0.0)


def population(name: str, generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(p_A, p_B) of the scenario's POPULATION problem pairs."""
    size = POPULATION
    if name == "RL vs base (cross)":
        base = generator.beta(0.6, 1.4, size)
        return rl_rates(base), base
    if name == "40% never, 30% always, cross":
        kinds = generator.choice(3, size, p=[0.4, 0.3, 0.3])
        base = np.where(kinds == 0, 0.0, np.where(kinds == 1, 1.0, generator.beta(0.6, 1.4, size)))
        return np.where(kinds == 2, rl_rates(base), base), base
    if name == "null: equal rates":
        base = generator.beta(0.5, 0.5, size)
        return base, base.copy()
    if name == "null: 85% never, 10% always":
        kinds = generator.choice(3, size, p=[0.85, 0.1, 0.05])
        base = np.where(kinds == 0, 0.0, np.where(kinds == 1, 1.0, generator.uniform(size=size)))
        return base, base.copy()
    if name == "A better at every k":
        base = generator.beta(2, 5, size)
        return 1 - (1 - base) ** 2, base
    raise ValueError(name)


SCENARIOS = ("RL vs base (cross)", "40% never, 30% always, cross", "null: equal rates",
             "null: 85% never, 10% always", "A better at every k")


def truth(rate_a: np.ndarray, rate_b: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """The population's mean of (1 - p_B)^k - (1 - p_A)^k at each k."""
    return np.array([np.mean((1 - rate_b) ** k - (1 - rate_a) ** k) for k in ks.tolist()])


def true_crossing(curve: np.ndarray) -> int | None:
    """The first k (1-based) where the true difference has the sign opposite to its first non-zero one."""
    signs = np.sign(np.where(np.abs(curve) < 1e-12, 0.0, curve))
    first = next((sign for sign in signs if sign), 0)
    turned = np.flatnonzero(signs == -first) if first else []
    return int(turned[0]) + 1 if len(turned) else None


@dataclass
class Tally:
    draws: int = 0
    band: int = 0
    pointwise: int = 0
    plain: int = 0
    level: float = 0.0
    crossings: int = 0
    crossing_held: int = 0


def scenario(arguments: tuple[str, int, int, int]) -> tuple[str, int, int, Tally, int | None, float]:
    """Run one scenario's draws; returns (name, P, n, tally, true crossing k, seconds)."""
    name, count, n, draws = arguments
    started = time.process_time()
    generator = np.random.default_rng([SEED, SCENARIOS.index(name), count, n])
    rate_a, rate_b = population(name, generator)
    every_k = truth(rate_a, rate_b, np.arange(1, n + 1))
    crossing_k = true_crossing(every_k)
    tally = Tally()
    task_ids = [str(i) for i in range(count)]
    samples = np.full(count, n)
    for _ in range(draws):
        chosen = generator.integers(0, POPULATION, count)
        correct_a, correct_b = generator.binomial(n, rate_a[chosen]), generator.binomial(n, rate_b[chosen])
        result = two_curves(task_ids, (samples, correct_a), (samples, correct_b))
        ks = np.array(result.ks)
        true = every_k[ks - 1]
        tally.draws += 1
        tally.band += all(low <= value <= high for (low, high), value in zip((p.band for p in result.points), true))
        tally.level += result.level
        differences = np.column_stack([estimate_pass_at_k(samples, correct_a, k)
                                       - estimate_pass_at_k(samples, correct_b, k) for k in result.ks])
        means, sds = differences.mean(axis=0), differences.std(axis=0, ddof=1)
        pointwise = [PairedDifference(mean, float(np.mean(np.abs(column))), sd, count).interval()
                     for mean, sd, column in zip(means, sds, differences.T)]
        tally.pointwise += all(low <= value <= high for (low, high), value in zip(pointwise, true))
        c = result.critical_t or t_quantile(0.975, count - 1)   # None: at most one k varies
        half = c * sds / math.sqrt(count)
        tally.plain += bool(np.all((means - half <= true + 1e-15) & (true - 1e-15 <= means + half)))
        if crossing_k is not None and result.crossing is not None:
            tally.crossings += 1
            low, high = result.crossing.low or 1, result.crossing.high or math.inf
            tally.crossing_held += low < crossing_k <= high
    return name, count, n, tally, crossing_k, time.process_time() - started


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def report(rows: list[tuple[str, int, int, Tally, int | None, float]], draws: int, seconds: float) -> str:
    """The Markdown section."""
    standard_error = 100 * math.sqrt(0.95 * 0.05 / draws)
    lines = [
        BEGIN,
        "## Two curves over k (issue 17 §4)",
        "",
        f"`.venv/bin/python bench/coverage_curves.py` (seed {SEED}, {draws:,} draws a scenario, "
        f"{seconds / 60:.0f} minutes of CPU): how often the band of A − B over k that passk.results.curves draws "
        f"({METHOD}: the paired MOVER interval at each k, at the level whose t critical value is the 95% quantile "
        f"of max_k |T_k| under a multivariate t with the per-problem differences' correlation across k, from "
        f"{CURVE_DRAWS:,} seeded draws) holds the true difference at every k shown at once. Each scenario is a "
        f"population of {POPULATION:,} problem pairs; each draw takes P of them with replacement and n samples "
        f"of each run per problem; the truth at k is the population's mean of (1 − p_B)^k − (1 − p_A)^k. "
        f"A 95% coverage measured over {draws:,} draws has a standard error of {standard_error:.1f} points.",
        "",
        "- **band**: passk's simultaneous band (what the page, the API and the command line show);",
        "- **pointwise**: the compare table's 95% interval at each k, each on its own, held at every k at once;",
        "- **sup-t plain**: mean ± c SE with the band's critical value c, without the MOVER interval;",
        "- **level**: the band's mean per-k level;",
        "- **crossing**: where the true curves cross (at k\\*), the share of draws that report a crossing, and of "
        "those the share whose interval holds k\\*.",
        "",
        "| scenario | P | n | ks | band | pointwise | sup-t plain | level | true k* | crossing reported "
        "| interval holds k* |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, count, n, tally, crossing_k, _ in rows:
        shown = len(curve_ks(n, 2 * count))
        lines.append(f"| {name} | {count} | {n} | {shown} | {share(tally.band, tally.draws)} | "
                     f"{share(tally.pointwise, tally.draws)} | {share(tally.plain, tally.draws)} | "
                     f"{100 * tally.level / tally.draws:.2f}% | {crossing_k or '—'} | "
                     f"{share(tally.crossings, tally.draws) if crossing_k else '—'} | "
                     f"{share(tally.crossing_held, tally.crossings) if crossing_k else '—'} |")
    bands = [100 * tally.band / tally.draws for _, _, _, tally, _, _ in rows]
    lines += ["", f"The band's coverage ranged from {min(bands):.1f}% to {max(bands):.1f}% over the "
              f"{len(rows)} scenarios (median {float(np.median(bands)):.1f}%).", END]
    return "\n".join(lines)


def write_section(section: str, path: Path) -> None:
    """Put the section in path between the markers, replacing an earlier one, or at the end."""
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=DRAWS)
    parser.add_argument("--out", type=Path, default=DOCS, help="the Markdown file to write the section into")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = [(name, count, n, args.draws) for name in SCENARIOS for count in PROBLEMS for n in SAMPLES]
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        for row in pool.map(scenario, jobs):   # in order, each as soon as it and those before it are done
            rows.append(row)
            name, count, n, tally, _, seconds = row
            print(f"{name:32} P={count:4} n={n:3}  band {share(tally.band, tally.draws):>6}  "
                  f"pointwise {share(tally.pointwise, tally.draws):>6}  {seconds:.0f} s", file=sys.stderr, flush=True)
    section = report(rows, args.draws, sum(row[-1] for row in rows))
    write_section(section, args.out)
    print(section)


if __name__ == "__main__":
    main()
