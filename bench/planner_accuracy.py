"""Does the planner's "m samples per problem bring the fixed-benchmark interval under ±target" come true?

    .venv/bin/python bench/planner_accuracy.py                   # the grid, 200 plans a row; writes docs/coverage.md's
                                                                 # planner section and bench/data/planner_accuracy.json
    .venv/bin/python bench/planner_accuracy.py --plans 20 --out /tmp/planner.md   # a quick look

Each plan: true pass rates drawn from the row's distribution for P problems, n0 initial samples of each, the plan
(passk.planner.plan's model: the zero/one-inflated Beta prior fitted by passk.inflated, or its sentence declining),
then the planned design's real half-width: half the width of passk.intervals.fixed_interval at the true mean pass@k
and the true SE, sqrt(sum_i Var_m(p_i)) / P, with Var_m(p) = sum_j H(j) [(1-p)^(2k-j) - (1-p)^(2k)] exactly at
the true rates (no simulation noise in the truth; the randomness is the initial samples the plan is made from).
Beside it the old model's plan (the Beta prior fitted by moments, passk.variance.fit_prior) on the same samples.
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

from passk.inflated import fit_inflated                                   # noqa: E402
from passk.intervals import fixed_interval                                # noqa: E402
from passk.planner import DOUBT_LIMIT, plan_doubt, samples_needed           # noqa: E402
from passk.variance import fit_prior, log_overlap_chance                  # noqa: E402

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
    return {"doubt": doubt, "declined": doubt is not None and doubt > DOUBT_LIMIT, "planned": planned,
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=200)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", default=None)
    arguments = parser.parse_args()
    started = time.process_time()
    rows = run(arguments.plans, arguments.seed)
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(rows, indent=1))
    print(f"{time.process_time() - started:.1f} s CPU", file=sys.stderr)
