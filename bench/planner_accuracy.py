"""Does the planner's "m samples per problem bring the fixed-benchmark interval under ±target" come true?

    .venv/bin/python bench/planner_accuracy.py                   # the grid, 200 plans a row; writes docs/coverage.md's
                                                                 # planner section and docs/planner_accuracy.json
    .venv/bin/python bench/planner_accuracy.py --plans 20 --out /tmp/planner.md   # a quick look

Each plan: true pass rates drawn from the row's distribution for P problems, n0 initial samples of each, the plan
(passk.results.planner.plan's model: the zero/one-inflated Beta prior fitted by passk.maths.inflated, or its sentence declining),
then the planned design's real half-width: half the width of passk.maths.intervals.fixed_interval at the true mean pass@k
and the true SE, sqrt(sum_i Var_m(p_i)) / P, with Var_m(p) = sum_j H(j) [(1-p)^(2k-j) - (1-p)^(2k)] exactly at
the true rates (no simulation noise in the truth; the randomness is the initial samples the plan is made from).
Beside it the old model's plan (the Beta prior fitted by moments, passk.maths.variance.fit_prior) on the same samples.
Seeded; about a minute on one core.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from passk.maths.inflated import fit_inflated                                   # noqa: E402
from passk.maths.intervals import fixed_interval                                # noqa: E402
from passk.results.planner import DOUBT_LIMIT, FEWEST_FLAKY, declines, plan_doubt, samples_needed  # noqa: E402
from passk.maths.variance import fit_prior, log_overlap_chance                  # noqa: E402

SEED = 20261205
# name -> (share at 0, share at 1, Beta of the rest)
DISTRIBUTIONS = {"40/40/20": (0.4, 0.4, (1.0, 1.0)), "85/10/5": (0.85, 0.10, (1.0, 1.0)),
                 "Beta(0.5, 0.5)": (0.0, 0.0, (0.5, 0.5)), "Beta(2, 5)": (0.0, 0.0, (2.0, 5.0))}
SIZES = (30, 164, 1000)
DESIGNS = ((1, 1), (2, 1), (5, 1), (20, 1), (20, 10))   # (initial samples n0, k)
GOAL = 4                                        # the target is what about GOAL n0 samples give on average
LOW, HIGH = 0.85, 1.15


def rates_of(name, count, rng):
    """count true pass rates from the named distribution."""
    broken, solid, (a, b) = DISTRIBUTIONS[name]
    kind = rng.choice(3, count, p=[broken, solid, 1 - broken - solid])
    return np.where(kind == 0, 0.0, np.where(kind == 1, 1.0, rng.beta(a, b, count)))


def true_variance(rates, m, k):
    """Var_m(p_i) of each problem's pass@k estimate at m samples, exactly at its true rate."""
    overlaps = np.arange(1.0, k + 1)
    chances = np.exp(log_overlap_chance(float(m), k, overlaps))
    misses = 1 - rates[:, None]
    return (chances * (misses ** (2 * k - overlaps) - misses ** (2 * k))).sum(axis=1)


def true_half_width(rates, m, k):
    """Half the width of the fixed-benchmark interval with m samples of each problem, at the truth."""
    mean = float(np.mean(1 - (1 - rates) ** k))
    se = math.sqrt(float(true_variance(rates, m, k).sum())) / rates.size
    low, high = fixed_interval(min(1.0, max(0.0, mean)), se, rates.size * m / k)
    return (high - low) / 2


def fewest_true(rates, k, target, start):
    """The fewest m >= start whose true half-width is at most target (bisection; it falls with m)."""
    if true_half_width(rates, start, k) <= target:
        return start
    low, high = start, start * 2
    while true_half_width(rates, high, k) > target:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if true_half_width(rates, middle, k) <= target else (middle, high)
    return high


def row_target(name, count, initial, k, rng):
    """The target of a row: the mean true half-width at GOAL * n0 samples over a few draws of the rates."""
    return float(np.mean([true_half_width(rates_of(name, count, rng), GOAL * initial, k) for _ in range(20)]))


def one_plan(name, count, initial, k, target, rng):
    """One plan from fresh rates and initial samples, with its real half-width (and the old model's)."""
    rates = rates_of(name, count, rng)
    samples = np.full(count, initial)
    correct = rng.binomial(initial, rates)
    ideal = fewest_true(rates, k, target, initial)
    if initial < 2 * k:   # the planner's own rule: the noise cannot be told from the spread
        return {"doubt": None, "declined": True, "planned": None, "old": None, "ideal": ideal, "ratio": None,
                "old_ratio": None}
    prior = fit_inflated(samples, correct)
    doubt = plan_doubt(samples, correct, k, prior)
    planned = samples_needed(samples, correct, k, target, prior=prior)
    old = samples_needed(samples, correct, k, target, prior=fit_prior(samples, correct))
    return {"doubt": doubt, "declined": declines(samples, correct, k, prior), "planned": planned,
            "old": old, "ideal": ideal,
            "ratio": None if planned is None else true_half_width(rates, planned, k) / target,
            "old_ratio": None if old is None else true_half_width(rates, old, k) / target}


def summary(plans, key):
    """Quantiles of the ratios under key, over the plans made."""
    ratios = np.array([plan[key] for plan in plans if plan[key] is not None])
    if not ratios.size:
        return None
    return {"min": float(ratios.min()), "p05": float(np.quantile(ratios, 0.05)),
            "median": float(np.median(ratios)), "p95": float(np.quantile(ratios, 0.95)),
            "max": float(ratios.max()),
            "outside": float(np.mean((ratios < LOW) | (ratios > HIGH)))}


def run(plans_per_row, seed):
    rng = np.random.default_rng(seed)
    rows = []
    scenarios = [(name, count, initial, k) for name in DISTRIBUTIONS for count in SIZES
                 for initial, k in DESIGNS]
    scenarios.append(("40/40/20", 164, 20, 10, 0.006))   # the audit's: ±0.6 points
    for scenario in scenarios:
        name, count, initial, k = scenario[:4]
        target = scenario[4] if len(scenario) > 4 else row_target(name, count, initial, k, rng)
        plans = [one_plan(name, count, initial, k, target, rng) for _ in range(plans_per_row)]
        made = [plan for plan in plans if not plan["declined"]]
        rows.append({"rates": name, "P": count, "n0": initial, "k": k, "target": target,
                     "declined": 1 - len(made) / len(plans),
                     "ideal": float(np.median([plan["ideal"] for plan in plans])),
                     "planned": float(np.median([plan["planned"] for plan in made])) if made else None,
                     "old": float(np.median([plan["old"] for plan in plans])) if made or initial >= 2 * k else None,
                     "doubt": summary(plans, "doubt"),
                     "made": summary(made, "ratio"), "all": summary(plans, "ratio"),
                     "old_all": summary(plans, "old_ratio"),
                     "made_in_band": summary(made, "ratio") is None or
                     (summary(made, "ratio")["p05"] >= LOW and summary(made, "ratio")["p95"] <= HIGH)})
        print(rows[-1], flush=True)
    return rows


BEGIN, END = "<!-- bench/planner_accuracy.py: begin -->", "<!-- bench/planner_accuracy.py: end -->"


def span(stats):
    """'0.93–1.08 (0.87–1.12)': the 5th to 95th percentile of half-width / target, and the least and most."""
    if stats is None:
        return "–"
    return f"{stats['p05']:.2f}–{stats['p95']:.2f} ({stats['min']:.2f}–{stats['max']:.2f})"


def share(value):
    return "–" if value is None else f"{value * 100:.0f}%"


def report(results):
    """The planner section of docs/coverage.md, between its markers."""
    rows, plans = results["rows"], results["plans"]
    planned = [row for row in rows if row["made"] is not None]
    failing = [row for row in planned if not row["made_in_band"]]
    outside = sum(row["made"]["outside"] * (1 - row["declined"]) * plans for row in planned)
    made = sum((1 - row["declined"]) * plans for row in planned)
    audit = rows[-1]
    lines = [
        BEGIN, "## The planner's samples per problem, planned and simulated (issue 28)", "",
        f"*Generated by `bench/planner_accuracy.py`* (`{results['command']}`; seed {results['seed']}, "
        f"{plans} plans a row, {results['cpu_seconds'] / 60:.1f} minutes of CPU). Each plan draws P true pass rates "
        "from the row's distribution (40/40/20: 40% of the problems never solved, 40% always, 20% with a rate "
        "uniform on (0, 1); 85/10/5 likewise), n0 samples of each, and asks the planner (`passk FILE --plan "
        "--target`, the page's plan, the API: `passk.results.planner.plan`) for the samples per problem that bring the "
        "fixed-benchmark half-width under the target; then the planned design's real half-width is worked out "
        "exactly at the true rates (sqrt(sum_i Var_m(p_i)) / P in `fixed_interval`, no simulation noise in it). The "
        "target is the mean true half-width at 4 n0 samples (the audit's row: ±0.6 points), so a good plan asks "
        "for about 4 n0. Columns: the fewest samples that meet the target at the truth (median over the plans), "
        "the samples planned (median), the share of plans declined (the planner's noise too uncertain: "
        f"`plan_doubt` above {DOUBT_LIMIT:.2f}, fewer than {FEWEST_FLAKY} problems seen both passing and failing "
        "beside some seen always or never passing, or n0 < 2k), and the real half-width over the target among the "
        "plans made: 5th–95th percentile (least–most), and the share outside 0.85–1.15. The old model (a Beta "
        "prior fitted by moments, no mass at 0 or 1, no declining) beside it on the same samples.", "",
        f"Of the {len(rows)} rows the planner plans in {len(planned)}; in "
        f"{len(planned) - len(failing)} of them the 5th–95th percentile of the real half-width is within "
        f"0.85–1.15 of the target" + (f" (not in {', '.join(label(row) for row in failing)})" if failing else "")
        + f". Over all {made:,.0f} plans made, {outside / made * 100:.1f}% land outside 0.85–1.15. The audit's "
        f"row ({label(audit)}, target ±0.6 points): the old model asked for {audit['old']:.0f} samples "
        f"(real half-width {span(audit['old_all'])} of the target) where {audit['ideal']:.0f} meet it; the "
        f"planner now declines {share(audit['declined'])} of such runs, since with 20 samples of 164 problems "
        f"the pass@10 noise, which comes mostly from problems with small rates that 20 samples cannot tell "
        f"from never solved, is uncertain by ±{audit['doubt']['median'] * 100:.0f}% (median); its plans, had it "
        f"made them, would have given {span(audit['all'])}.", "",
        "Declining has a price where the old model planned well: " + "; ".join(
            f"{label(row)}: {share(row['declined'])} declined (old model {span(row['old_all'])})"
            for row in rows if row["old_all"] and row["old_all"]["outside"] <= 0.05 and row["declined"] >= 0.25
            and row["n0"] >= 2 * row["k"]) + ". The planner's noise there is as uncertain as its doubt says "
        "(the plans it would have made land wider), and the old model was right for these rates only because "
        "they have no mass at 0 or 1, which the samples alone cannot show.", "",
        "| rates | P | n0 | k | target (points) | needed | planned | declined | half-width / target | outside "
        "| old: planned | old: half-width / target |",
        "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|",
    ]
    for row in rows:
        old = "–" if row["old"] is None else f"{row['old']:.0f}"
        planned_m = "–" if row["planned"] is None else f"{row['planned']:.0f}"
        lines.append(f"| {row['rates']} | {row['P']:,} | {row['n0']} | {row['k']} | {row['target'] * 100:.3f} "
                     f"| {row['ideal']:.0f} | {planned_m} | {share(row['declined'])} | {span(row['made'])} "
                     f"| {share(row['made'] and row['made']['outside'])} | {old} | {span(row['old_all'])} |")
    lines += ["", END]
    return "\n".join(lines)


def label(row):
    return f"{row['rates']}, P = {row['P']:,}, n0 = {row['n0']}, k = {row['k']}"


def write(section, path):
    """Put the section between its markers in path (at the end the first time)."""
    text = Path(path).read_text()
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    Path(path).write_text(text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=200)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default=str(ROOT / "docs" / "coverage.md"))
    parser.add_argument("--json", default=str(ROOT / "docs" / "planner_accuracy.json"))
    parser.add_argument("--report-only", action="store_true", help="write the section from --json, run nothing")
    arguments = parser.parse_args()
    if arguments.report_only:
        write(report(json.loads(Path(arguments.json).read_text())), arguments.out)
        sys.exit()
    started = time.process_time()
    rows = run(arguments.plans, arguments.seed)
    command = ".venv/bin/python bench/planner_accuracy.py" + \
        ("" if arguments.plans == 200 else f" --plans {arguments.plans}")
    results = {"command": command, "seed": arguments.seed, "plans": arguments.plans,
               "cpu_seconds": time.process_time() - started, "rows": rows}
    Path(arguments.json).write_text(json.dumps(results, indent=1) + "\n")
    if not Path(arguments.out).exists():
        Path(arguments.out).write_text("")
    write(report(results), arguments.out)
