"""How often passk's 95% intervals hold the truth: a seeded simulation, old methods and new side by side.

    .venv/bin/python bench/coverage.py                          # from the repository root; about 10 minutes
    .venv/bin/python bench/coverage.py --draws 200 --out /tmp/coverage.md   # a quick look

Writes docs/coverage.md (the tables) and docs/coverage.json beside it (the raw
figures, for the tests and the README to quote). Issue 14's grid: P problems in
{10, 30, 164, 1000}; (n, k) in {(1, 1), (2, 1), (20, 10), (5, 1), (50, 10),
(200, 1), (200, 10), (200, 200)}; pass rates from Beta(0.5, 0.5), Beta(2, 5),
Beta(0.8, 0.8), "mix 40/40" (40% of problems at rate 0, 40% at 1, 20%
uniform), "mix 85/10" (85% at 0, 10% at 1, 5% uniform) and "all equal" (every
rate 0.3).

- population (passk.maths.intervals.population_interval, the summary's ci95): each
  draw new rates and new samples; the truth is E[1 - (1 - p)^k] over the rate
  distribution, in closed form.
- fixed benchmark (fixed_interval, ci95_fixed): the rates are drawn once per
  scenario (mixtures with exactly their shares at 0 and 1), each draw new
  samples only; the truth is the mean of 1 - (1 - p_i)^k over those rates.
  Only where n >= 2k.
- paired (compare's ci95): run B's rates from the distribution, run A's equal
  to them ("null", truth 0) or 1 - (1 - p_B)^2 ("better"); each draw new
  shared rates and new samples of both runs. The truth of "better" is
  E[(1-p)^k - (1-p)^2k] in closed form, checked against a seeded Monte Carlo
  of 4,000,000 rates.
- boundary scan: pass/fail values (k = n or n = 1) make the number of passing
  problems binomial, so coverage is summed exactly over X = 0..P.

The old methods (before commit f893970) are reproduced here from their
formulas: the Wilson score interval at n* = mean (1 - mean) / SE^2 scaled by
(z / t_{P-1})^2; mean +- 1.96 sqrt(sum V_i) / P with the unbiased V_i; and
mean(d) +- t_{P-1} sd / sqrt(P) for every P.

The new intervals are the production functions, called once per draw on means
and SDs computed here with numpy from a per-(n, c) lookup table; the first
draws of every scenario are checked against summarize() and compare() (the
real code path) and the script stops if they differ.
"""

import argparse
import datetime
import functools
import json
import math
import os
import platform
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from scipy.special import betaln
from scipy.stats import binom

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from passk.results.benchmark import compare, summarize  # noqa: E402
from passk.maths.estimator import estimate_pass_at_k  # noqa: E402
from passk.formats import Problem  # noqa: E402
from passk.maths.intervals import PairedDifference, fixed_interval, population_interval  # noqa: E402
from passk.maths.stats import t_quantile  # noqa: E402
from passk.maths.variance import estimate_variance, expected_variance, fit_prior  # noqa: E402

SEED = 20261124
DRAWS = 2000
BAND = (0.93, 0.97)
Z = 1.959963984540054
PROBLEMS = (10, 30, 164, 1000)
SAMPLES_AND_K = ((1, 1), (2, 1), (20, 10), (5, 1), (50, 10), (200, 1), (200, 10), (200, 200))
CHECKED = 2                 # draws per scenario compared with summarize()/compare()
CHECK_TOLERANCE = 1e-9      # the fast path's means and SDs differ from the production's in the last bits
TRUTH_CHECK_RATES = 4_000_000
SCAN_POINTS = 4000          # truths per fine boundary scan


class Rates:
    """A distribution of pass rates: Beta(a, b), or a mixture with shares at 0 and 1 and the rest uniform,
    or one rate for every problem."""

    def __init__(self, name, beta=None, zero=0.0, one=0.0, equal=None):
        self.name, self.beta, self.zero, self.one, self.equal = name, beta, zero, one, equal

    def draw(self, rng, shape):
        """Independent rates (each problem its own draw from the distribution)."""
        if self.beta:
            return rng.beta(*self.beta, shape)
        if self.equal is not None:
            return np.full(shape, self.equal)
        kind, uniform = rng.random(shape), rng.random(shape)
        return np.where(kind < self.zero, 0.0, np.where(kind < self.zero + self.one, 1.0, uniform))

    def fixed(self, rng, count):
        """One benchmark's rates: a mixture has exactly its shares at 0 and 1 (rounded), the rest uniform."""
        if self.beta or self.equal is not None:
            return self.draw(rng, count)
        zeros, ones = math.floor(self.zero * count + 0.5), math.floor(self.one * count + 0.5)
        return np.concatenate([np.zeros(zeros), np.ones(ones), rng.random(count - zeros - ones)])

    def miss(self, power):
        """E[(1 - p)^power] over the distribution, exactly."""
        if self.beta:
            a, b = self.beta
            return math.exp(betaln(a, b + power) - betaln(a, b))
        if self.equal is not None:
            return (1 - self.equal) ** power
        return self.zero + (1 - self.zero - self.one) / (power + 1)

    def pass_at_k(self, k):
        return 1 - self.miss(k)


RATES = (Rates("Beta(0.5, 0.5)", beta=(0.5, 0.5)), Rates("Beta(2, 5)", beta=(2.0, 5.0)),
         Rates("Beta(0.8, 0.8)", beta=(0.8, 0.8)), Rates("mix 40/40", zero=0.4, one=0.4),
         Rates("mix 85/10", zero=0.85, one=0.10), Rates("all equal 0.3", equal=0.3))
KIND_IDS = {"population": 1, "fixed": 2, "paired": 3, "truth": 4}


def scenario_rng(seed, kind, *parts):
    """A generator of its own for each scenario, so that any one can be rerun alone."""
    return np.random.default_rng(np.random.SeedSequence([seed, KIND_IDS[kind], *parts]))


def value_table(n, k):
    """pass@k for c = 0..n samples passing of n."""
    return estimate_pass_at_k(n, np.arange(n + 1), k)


def tally(lows, highs, truth):
    """Coverage and the shares of misses with the truth below the interval and above it."""
    lows, highs = np.asarray(lows), np.asarray(highs)
    below, above = float(np.mean(truth < lows)), float(np.mean(truth > highs))
    return {"coverage": 1 - below - above, "truth_below": below, "truth_above": above}


def mc_se(coverage, draws):
    return math.sqrt(coverage * (1 - coverage) / draws)


def close(first, second):
    return all(abs(a - b) <= CHECK_TOLERANCE for a, b in zip(first, second))


def problems_of(n, counts):
    return [Problem(f"t{i}", n, int(c)) for i, c in enumerate(counts)]


# ---------------------------------------------------------------------------
# The old methods, from their formulas (git show 5fa7885:passk/maths/stats.py, passk/results/benchmark.py)


def old_population(means, ses, count):
    """The Wilson score interval at n* = mean (1 - mean) / SE^2 (count - 1 at 0 or 1), times (z / t)^2."""
    means, ses = np.asarray(means, dtype=float), np.asarray(ses, dtype=float)
    spread = means * (1 - means)
    point = (ses == 0) & (spread > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        effective = np.where(spread > 0, spread / np.where(point, 1.0, ses) ** 2, count - 1.0)
    trials = effective * (Z / t_quantile(0.975, count - 1)) ** 2
    shrink = Z * Z / trials
    centre = (means + shrink / 2) / (1 + shrink)
    half = Z * np.sqrt(spread / trials + shrink / trials / 4) / (1 + shrink)
    lows = np.where(means == 0, 0.0, np.maximum(0.0, centre - half))
    highs = np.where(means == 1, 1.0, np.minimum(1.0, centre + half))
    return np.where(point, means, lows), np.where(point, means, highs)


def old_fixed(means, ses):
    return means - Z * ses, means + Z * ses


def old_paired(means, sds, count):
    half = t_quantile(0.975, count - 1) * sds / math.sqrt(count)
    return means - half, means + half


# ---------------------------------------------------------------------------
# The new intervals, per draw (memoised: pass/fail values repeat their means and SDs)


@functools.lru_cache(maxsize=1 << 16)
def new_population(mean, se, count):
    return population_interval(min(1.0, max(0.0, mean)), se, count)


@functools.lru_cache(maxsize=1 << 16)
def new_paired_mover(mean, mean_absolute, sd, count):
    return PairedDifference(mean, mean_absolute, sd, count).interval()


def new_fixed_se(n, k, counts):
    """se_fixed for one draw: the prior fitted to all problems, E[V] once per distinct c, weighted by count."""
    prior = fit_prior(np.full(counts.size, float(n)), counts)
    distinct, weights = np.unique(counts, return_counts=True)
    variances = expected_variance(np.full(distinct.size, float(n)), distinct.astype(float), k, prior)
    return math.sqrt(math.fsum(weights * variances)) / counts.size


def population_means(values, counts, n, k):
    """Per-draw means as the production computes them: exact for pass@1 (sum c / (n P)), else the float mean."""
    count = values.shape[1]
    if k == 1:
        return counts.sum(axis=1) / (n * count)
    return values.mean(axis=1)


# ---------------------------------------------------------------------------
# The simulations


def population_case(seed, draws, count, n, k, rates_index):
    rates = RATES[rates_index]
    rng = scenario_rng(seed, "population", count, n, k, rates_index)
    truth = rates.pass_at_k(k)
    counts = rng.binomial(n, rates.draw(rng, (draws, count)))
    values = value_table(n, k)[counts]
    means = population_means(values, counts, n, k)
    ses = values.std(axis=1, ddof=1) / math.sqrt(count)
    new = np.array([new_population(float(m), float(s), count) for m, s in zip(means, ses)])
    for draw in range(min(CHECKED, draws)):
        row = summarize(problems_of(n, counts[draw]), [k]).results[0]
        if not close(row.ci95, new[draw]):
            raise AssertionError(f"population P={count} n={n} k={k} {rates.name} draw {draw}: fast path "
                                 f"{tuple(new[draw])} but summarize() {row.ci95}")
    old = old_population(np.clip(means, 0, 1), ses, count)
    return {"P": count, "n": n, "k": k, "rates": rates.name, "truth": truth,
            "old": tally(*old, truth), "new": tally(new[:, 0], new[:, 1], truth)}


def fixed_case(seed, draws, count, n, k, rates_index):
    rates = RATES[rates_index]
    row = {"P": count, "n": n, "k": k, "rates": rates.name}
    if n < 2 * k:
        return {**row, "given": False, "reason": "not given: n < 2k"}
    rng = scenario_rng(seed, "fixed", count, n, k, rates_index)
    problem_rates = rates.fixed(rng, count)
    truth = math.fsum(1 - (1 - problem_rates) ** k) / count
    counts = rng.binomial(n, problem_rates, (draws, count))
    values = value_table(n, k)[counts]
    means = np.clip(population_means(values, counts, n, k), 0, 1)
    ses = np.array([new_fixed_se(n, k, counts[draw]) for draw in range(draws)])
    trials = count * n / k
    new = np.array([fixed_interval(float(m), float(s), trials) for m, s in zip(means, ses)])
    for draw in range(min(CHECKED, draws)):
        result = summarize(problems_of(n, counts[draw]), [k]).results[0]
        if not close(result.ci95_fixed, new[draw]) or abs(result.se_fixed - ses[draw]) > CHECK_TOLERANCE:
            raise AssertionError(f"fixed P={count} n={n} k={k} {rates.name} draw {draw}: fast path "
                                 f"{tuple(new[draw])} but summarize() {result.ci95_fixed}")
    old_ses = np.sqrt(estimate_variance(np.full(n + 1, n), np.arange(n + 1), k)[counts].sum(axis=1)) / count
    return {**row, "given": True, "truth": truth,
            "old": tally(*old_fixed(means, old_ses), truth), "new": tally(new[:, 0], new[:, 1], truth)}


def paired_truth(rates, k, effect):
    return 0.0 if effect == "null" else rates.miss(k) - rates.miss(2 * k)


def paired_case(seed, draws, count, n, k, rates_index, effect):
    rates = RATES[rates_index]
    rng = scenario_rng(seed, "paired", count, n, k, rates_index, 0 if effect == "null" else 1)
    truth = paired_truth(rates, k, effect)
    rates_b = rates.draw(rng, (draws, count))
    rates_a = rates_b if effect == "null" else 1 - (1 - rates_b) ** 2
    counts_a, counts_b = rng.binomial(n, rates_a), rng.binomial(n, rates_b)
    table = value_table(n, k)
    differences = table[counts_a] - table[counts_b]
    means = differences.mean(axis=1)
    sds = differences.std(axis=1, ddof=1)
    absolute = np.abs(differences).mean(axis=1)
    new = np.array([new_paired_mover(float(m), float(a), float(s), count)
                    for m, a, s in zip(means, absolute, sds)])
    for draw in range(min(CHECKED, draws)):
        result = compare(problems_of(n, counts_a[draw]), problems_of(n, counts_b[draw]), [k]).results[0]
        production = result.ci95
        if not close(production, new[draw]):
            raise AssertionError(f"paired P={count} n={n} k={k} {rates.name} {effect} draw {draw}: fast path "
                                 f"{tuple(new[draw])} but compare() {result.ci95}")
    old = old_paired(means, sds, count)
    return {"P": count, "n": n, "k": k, "rates": rates.name, "effect": effect, "truth": truth,
            "old": tally(*old, truth), "new": tally(new[:, 0], new[:, 1], truth)}


def truth_checks(seed):
    """The closed-form E[(1-p)^k - (1-p)^2k] against a seeded Monte Carlo of TRUTH_CHECK_RATES rates."""
    checks = []
    for rates_index, rates in enumerate(RATES):
        rng = scenario_rng(seed, "truth", rates_index)
        misses = 1 - rates.draw(rng, TRUTH_CHECK_RATES)
        for k in sorted({k for _, k in SAMPLES_AND_K}):
            gains = misses**k - misses ** (2 * k)
            estimate, error = float(gains.mean()), float(gains.std() / math.sqrt(gains.size))
            exact = paired_truth(rates, k, "better")
            if abs(estimate - exact) > 5 * error + 1e-12:
                raise AssertionError(f"paired truth {rates.name} k={k}: exact {exact} but Monte Carlo "
                                     f"{estimate} +- {error}")
            checks.append({"rates": rates.name, "k": k, "exact": exact, "monte_carlo": estimate,
                           "monte_carlo_se": error})
    return checks


# ---------------------------------------------------------------------------
# The boundary scan: pass/fail values, exact


def pass_fail_intervals(count):
    """For X = 0..count passing problems of count pass/fail ones: the new interval (from summarize()) and the old."""
    passing = np.arange(count + 1)
    means = passing / count
    ses = np.sqrt(count / (count - 1) * means * (1 - means)) / math.sqrt(count)
    new = []
    for x in passing:
        row = summarize([Problem(f"t{i}", 1, int(i < x)) for i in range(count)], [1]).results[0]
        if not close(row.ci95, population_interval(float(means[x]), float(ses[x]), count)):
            raise AssertionError(f"boundary P={count} X={x}: summarize() {row.ci95} differs from the formula")
        new.append(row.ci95)
    return np.array(new), np.array(old_population(means, ses, count)).T


def exact_coverage(intervals, count, truths):
    """Coverage, truth-below and truth-above shares at each truth, summed over X ~ Binomial(count, truth)."""
    truths = np.atleast_1d(np.asarray(truths, dtype=float))
    chances = binom.pmf(np.arange(count + 1)[None, :], count, truths[:, None])
    below = (chances * (truths[:, None] < intervals[None, :, 0])).sum(axis=1)
    above = (chances * (truths[:, None] > intervals[None, :, 1])).sum(axis=1)
    return 1 - below - above, below, above


def boundary_scan(progress):
    points, ranges, scans = [], [], []
    picked = {30: [*np.round(np.arange(0.0025, 0.03251, 0.0025), 4), 0.0053],
              164: [0.001, 0.00071], 1000: [0.0005]}
    for count in PROBLEMS:
        intervals = dict(zip(("new", "old"), pass_fail_intervals(count)))
        progress(f"boundary scan P={count}: intervals for X = 0..{count}")

        def at(truths):
            return {name: exact_coverage(found, count, truths) for name, found in intervals.items()}

        for side, mirror in (("near 0", lambda t: t), ("near 1", lambda t: 1 - t)):
            for distance in sorted(picked.get(count, [])):
                truth = float(mirror(distance))
                figures = at([truth])
                points.append({"P": count, "side": side, "distance": float(distance), "truth": truth,
                               **{name: {"coverage": float(c[0]), "truth_below": float(b[0]),
                                         "truth_above": float(a[0])}
                                  for name, (c, b, a) in figures.items()}})
            spans = [("fine scan", 0.05 / count, 10 / count)]
            if count == 30:
                spans.append(("issue range", 0.0025, 0.0325))
            for label, start, stop in spans:
                distances = np.linspace(start, stop, SCAN_POINTS)
                figures = at(mirror(distances))
                summary = {"P": count, "side": side, "span": label, "from": start, "to": stop,
                           "points": SCAN_POINTS}
                for name, (coverage, _, _) in figures.items():
                    worst = int(np.argmin(coverage))
                    summary[name] = {"min": float(coverage[worst]), "min_at": float(mirror(distances[worst])),
                                     "mean": float(coverage.mean()),
                                     "share_below_93": float(np.mean(coverage < BAND[0]))}
                (ranges if label == "issue range" else scans).append(summary)
    near = {side: [(row["P"], row.get("distance", row.get("span")), row["old"], row["new"])
                   for row in points + ranges + scans if row["side"] == side] for side in ("near 0", "near 1")}
    symmetric = all(p0 == p1 and d0 == d1 and all(abs(o0[key] - o1[key]) < 1e-12 and abs(n0[key] - n1[key]) < 1e-12
                                                  for key in ("coverage", "min", "mean") if key in o0)
                    for (p0, d0, o0, n0), (p1, d1, o1, n1) in zip(near["near 0"], near["near 1"]))
    return {"points": points, "ranges": ranges, "scans": scans, "mirror_symmetric": symmetric}


# ---------------------------------------------------------------------------
# The report


def percent(value, digits=1):
    return f"{100 * value:.{digits}f}%"


def outside(value):
    return not BAND[0] <= value <= BAND[1]


def marked(value, digits=1):
    text = percent(value, digits)
    return f"**{text}**" if outside(value) else text


def flag(row, key="coverage"):
    old, new = outside(row["old"][key]), outside(row["new"][key])
    return "both" if old and new else "old" if old else "new" if new else ""


def misses(figures):
    return f"{percent(figures['truth_below'])} / {percent(figures['truth_above'])}"


def simulated_table(rows, draws, extra=(), after=()):
    head = ["P", "n", "k", "pass rates", *[name for name, _ in extra], "truth", "old", "old misses ↓ / ↑",
            "new", "new misses ↓ / ↑", "MC SE (new)", "outside 93-97%", *[name for name, _ in after]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    shown = set()
    for row in rows:
        cells = [str(row["P"]), str(row["n"]), str(row["k"]), row["rates"], *[get(row) for _, get in extra]]
        if row.get("given") is False:   # one row for every rate distribution
            if (row["P"], row["n"], row["k"]) in shown:
                continue
            shown.add((row["P"], row["n"], row["k"]))
            cells[3] = "any"
            cells += ["—", row["reason"], "", "", "", "", ""]
        else:
            cells += [truth_text(row["truth"]), marked(row["old"]["coverage"]), misses(row["old"]),
                      marked(row["new"]["coverage"]), misses(row["new"]),
                      f"{100 * mc_se(row['new']['coverage'], draws):.2f}", flag(row), *[get(row) for _, get in after]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def truth_text(truth):
    """Four decimals, or the value itself where that would print 0.0000."""
    return f"{truth:.4f}" if truth == 0 or abs(truth) >= 0.001 else f"{truth:.2g}"


def scenario_name(row):
    text = f"P={row['P']}, n={row['n']}, k={row['k']}, {row['rates']}"
    return text + (f", {row['effect']}" if "effect" in row else "")


WORST_LISTS = (("lowest by old", "old", 1), ("lowest by new", "new", 1), ("highest by new", "new", -1))


def worst_five(rows, method, order=1):
    """The five rows with the lowest coverage by method (order -1: the highest)."""
    given = [row for row in rows if row.get("given", True)]
    return sorted(given, key=lambda row: order * row[method]["coverage"])[:5]


def worst_table(rows, name=None, digits=1):
    """Three lists of five: the lowest coverage by the old method, by the new one, and the highest by the new."""
    name = name or scenario_name
    lines = ["| list | scenario | old | new |", "|---|---|---|---|"]
    for label, method, order in WORST_LISTS:
        for row in worst_five(rows, method, order):
            lines.append(f"| {label} | {name(row)} | {marked(row['old']['coverage'], digits)} | "
                         f"{marked(row['new']['coverage'], digits)} |")
    return "\n".join(lines)


def boundary_tables(boundary):
    lines = ["Coverage at single truths (exact):", "",
             "| P | truth | old | old misses ↓ / ↑ | new | new misses ↓ / ↑ | outside 93-97% |",
             "|---|---|---|---|---|---|---|"]
    for row in boundary["points"]:
        lines.append(f"| {row['P']} | {row['truth']:.5g} | {marked(row['old']['coverage'], 2)} | "
                     f"{misses(row['old'])} | "
                     f"{marked(row['new']['coverage'], 2)} | {misses(row['new'])} | {flag(row)} |")
    lines += ["", f"Minimum and mean coverage over {SCAN_POINTS:,} evenly spaced truths (exact; \"near 1\" "
              "is the mirror image, 1 minus each truth):", "",
              "| P | span | side | truths | old min (at) | old mean | new min (at) | new mean | outside 93-97% (min) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for row in boundary["ranges"] + boundary["scans"]:
        old, new = row["old"], row["new"]
        span = "issue range" if row["span"] == "issue range" else "0.05/P to 10/P"
        lines.append(f"| {row['P']} | {span} | {row['side']} | {row['from']:.4g} to {row['to']:.4g} | "
                     f"{marked(old['min'], 2)} ({old['min_at']:.4g}) | {percent(old['mean'], 2)} | "
                     f"{marked(new['min'], 2)} ({new['min_at']:.4g}) | {percent(new['mean'], 2)} | "
                     f"{flag(row, 'min')} |")
    return "\n".join(lines)


def boundary_rows(boundary):
    """The boundary figures as rows for worst_table: single truths and the scans' minima, near 0 only when
    near 1 mirrors them exactly."""
    mirrored = boundary["mirror_symmetric"]
    rows = [{"old": {"coverage": row["old"]["coverage"]}, "new": {"coverage": row["new"]["coverage"]},
             "name": f"P={row['P']}, truth {row['truth']:.5g}"}
            for row in boundary["points"] if not (mirrored and row["side"] == "near 1")]
    rows += [{"old": {"coverage": row["old"]["min"]}, "new": {"coverage": row["new"]["min"]},
              "name": f"P={row['P']}, min over {row['span']} ({row['from']:.4g} to {row['to']:.4g})"
                      + ("" if mirrored else f" {row['side']}")}
             for row in boundary["ranges"] + boundary["scans"] if not (mirrored and row["side"] == "near 1")]
    return rows


def count_outside(rows, method, low_only=False):
    """(rows outside the band, or below it, by method; rows with an interval)."""
    given = [row for row in rows if row.get("given", True)]
    test = (lambda value: value < BAND[0]) if low_only else outside
    return sum(test(row[method]["coverage"]) for row in given), len(given)


def given_rows(rows, **where):
    """The rows with an interval that match every key = value (P_at_least=30 for P >= 30)."""
    least = where.pop("P_at_least", 0)
    return [row for row in rows if row.get("given", True) and row["P"] >= least
            and all(row.get(key) == value for key, value in where.items())]


def span(rows, method="new", key="coverage"):
    """'lowest–highest' coverage by method over the rows."""
    values = [row[method][key] for row in rows]
    return f"{percent(min(values))}–{percent(max(values))}"


def one(rows, method="new", **where):
    """The coverage by method of the single row matching where."""
    found = given_rows(rows, **where)
    if len(found) != 1:
        raise LookupError(f"{len(found)} rows match {where}")
    return percent(found[0][method]["coverage"])


def tally_text(rows, method, low_only=False):
    bad, total = count_outside(rows, method, low_only)
    return f"{bad} of {total}"


def intro(results):
    """The plain-words paragraphs, each filled to 100 columns."""
    return "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 100)
                       for paragraph in intro_text(results).split("\n\n"))


def intro_text(results):
    """The paragraphs. The figures are this run's; the words were written for the default run."""
    draws = results["draws"]
    population, fixed, paired = results["population"], results["fixed"], results["paired"]
    boundary = results["boundary"]
    big = {name: given_rows(rows, P_at_least=30) for name, rows in
           (("population", population), ("fixed", fixed), ("paired", paired))}
    ten = {name: given_rows(rows, P=10) for name, rows in
           (("population", population), ("fixed", fixed), ("paired", paired))}
    scans = {(row["P"], row["side"]): row for row in boundary["scans"]}
    issue_range = next(row for row in boundary["ranges"] if row["side"] == "near 0")
    tiny = next(row for row in boundary["points"] if row["P"] == 30 and row["truth"] == 0.0025)
    skewed = [row for row in population if row["P"] == 30 and row["k"] == 10 and row["n"] in (20, 50)
              and row["rates"] in ("Beta(2, 5)", "Beta(0.8, 0.8)")]
    flat = [row for row in population if row["P"] == 30 and row["k"] == 10 and row["rates"] == "all equal 0.3"]
    mixes = [row for row in big["fixed"] if row["rates"].startswith("mix")]
    unmixed = [row for row in big["fixed"] if not row["rates"].startswith("mix")]
    better10 = [row for row in ten["paired"] if row["effect"] == "better"]
    nulls10 = [row for row in ten["paired"] if row["effect"] == "null"]
    over_paired = [row for row in big["paired"] if row["new"]["coverage"] > BAND[1]]
    small_null = given_rows(paired, P=30, n=200, k=1, rates="Beta(0.5, 0.5)", effect="null")[0]
    scan_text = ", ".join(f"{percent(scans[(count, 'near 0')]['new']['min'])} at P = {count:,} "
                          f"(truth {scans[(count, 'near 0')]['new']['min_at']:.3g})" for count in PROBLEMS)
    scan_old = ", ".join(percent(scans[(count, "near 0")]["old"]["min"]) for count in PROBLEMS)
    below_scan = ", ".join(f"{percent(scans[(count, 'near 0')]['new']['share_below_93'])} at P = {count:,}"
                           for count in PROBLEMS)
    se95 = 100 * mc_se(0.95, draws)
    return f"""\
Each interval answers its own question. The **population** interval (the
summary's 95% interval) is about problems like these: had the benchmark been
another draw of problems of the same kind and the model sampled again, where
would pass@k be? The **fixed-benchmark** interval is about these very
problems: only the model's samples are drawn again. The **paired** interval is
for the difference of two runs on the same problems, in the population sense.
A 95% interval keeps its promise when it holds the truth in about 95% of
repeated experiments. With {draws:,} draws the Monte Carlo standard error of a
95% coverage is {se95:.2f} points, so the band 93-97% is about {2 / se95:.0f}
standard errors wide on either side, and a figure just outside it may be
chance. (The figures below are this run's; the words were written for the
default run, seed {SEED} with {DRAWS:,} draws.)

**Population.** At P ≥ 30 the new interval is outside 93-97% in
{tally_text(big['population'], 'new')} scenarios (old:
{tally_text(big['population'], 'old')}) and below 93% in
{tally_text(big['population'], 'new', True)} (old:
{tally_text(big['population'], 'old', True)}). The shortfalls are pass@10 at
P = 30 from Beta(2, 5) and Beta(0.8, 0.8) rates ({span(skewed)}; old
{span(skewed, 'old')}), and pass@10 at n = 20 with every rate at 0.3 at P = 164
({one(population, P=164, n=20, k=10, rates='all equal 0.3')}; old
{one(population, 'old', P=164, n=20, k=10, rates='all equal 0.3')}): values
piled up near 1 with a long, thin tail towards 0, which a few dozen problems
often do not show, so the mean comes out high and the spread small; most
misses have the truth below the interval. Most excesses come from the boundary
cap: pass@10 with every rate at 0.3 gives values all close to 0.97, where the
interval allows for one unseen problem far from the rest (the cap binds in
about half the draws at n = 20 and in all at n = 200) and covers {span(flat)}
(old {span(flat, 'old')}); and pass@k at k = n with the truth within a few
percent of 1 (100% when it is 1 to double precision, as with every rate at
0.3: any interval that reaches the boundary holds it). The others are within
a point of 97%. With P = 10 problems the new interval never falls below
93% but covers {span(ten['population'])}, over 97% in
{tally_text(ten['population'], 'new')} scenarios: ten values tell too little
about their own spread for any interval built on it to be right in every shape
of rates, and this one errs on the wide side (old: {span(ten['population'], 'old')}).

**Fixed benchmark.** For Beta and equal rates at P ≥ 30 the new interval
covers {span(unmixed)} (old {span(unmixed, 'old')}). The mixtures cover {span(mixes)},
over 97% in {sum(row['new']['coverage'] > BAND[1] for row in mixes)} of {len(mixes)} (old
{span(mixes, 'old')}): a problem that never passes in n
samples may have rate 0 (no noise at all, as in the mixtures) or a rate near
1/n (noise), and nothing in the data tells the two apart, so the interval keeps
the noise the second would make; likewise for a problem that always passes.
The issue's case, P = 30, n = 20, k = 10 with 40% of problems at 0 and 40% at
1, went from {one(fixed, 'old', P=30, n=20, k=10, rates='mix 40/40')} to
{one(fixed, P=30, n=20, k=10, rates='mix 40/40')} (its old coverage depends on
the uniform rates drawn: {one(fixed, 'old', P=10, n=20, k=10, rates='mix 40/40')}
at P = 10 here, 59% in the issue). At P = 10 the new interval covers
{span(ten['fixed'])} (old {span(ten['fixed'], 'old')}), below 93% at n = 2
(20 samples in all), at n = 20 with a truth of 0.97 and at n = 5 in the 40/40
mixture. At P = 10 the "mix 85/10" rates are nine problems at 0 and one at 1:
no sampling noise at all, and every interval covers.

**Paired.** The new interval is the trinomial (MOVER) interval at every P.
At P ≥ 30 it never falls below 93% (lowest
{percent(min(row['new']['coverage'] for row in big['paired']))}; old
{percent(min(row['old']['coverage'] for row in big['paired']))}) but covers more
than 97% in {len(over_paired)} of {len(big['paired'])} scenarios. Where most
problems differ by nothing (the mixtures, k = n) it keeps about ±3/P, the
rule of three, while the truth is 0 or a few thousandths; and where the
differences are small but spread, its boundary cap (at most
P (1 + (P mean|d| / 0.25)^2) trials) binds: P = 30, n = 200, k = 1, the same
rates in both runs, covers {percent(small_null['new']['coverage'])}. At P = 10
it covers {span(ten['paired'])} (old {span(ten['paired'], 'old')}); when run A
is better, {span(better10)} (old {span(better10, 'old')}), and under the null
{span(nulls10)}. In commit 5fa7885, an hour earlier, passk gave up to 20 paired
problems the exact sign-flip test's inversion instead: exact for the null, but
it assumes the differences symmetric about their mean, and when run A was
better on a few problems it covered 0-90% in this grid (a point or nearly one
at 0 where most problems differ by nothing), so it was replaced.

**Boundary scan.** Pass/fail values (n = 1 or k = n) make the coverage a
sawtooth in the truth, computed exactly here. Over truths from 0.05/P to 10/P
the new interval's lowest coverage is {scan_text}; the share of those truths
below 93% is {below_scan}: the mid-p interval holds 95% on average, not at
every truth, and at P = 164 and 1,000 dips a few points at truths near 3/P (the Wilson
interval's lowest: {scan_old}). In the issue's range 0.0025-0.0325 at P = 30
the new interval's lowest is {percent(issue_range['new']['min'])} (old
{percent(issue_range['old']['min'])}). A truth within a fraction of one problem
of 0 or 1 is covered about 100% of the time by any interval that includes the
boundary when nothing (or everything) passes, which is then the likeliest
outcome: at P = 30 and truth 0.0025, {percent(tiny['new']['coverage'])}."""



def write_report(results, path):
    draws = results["draws"]
    sections = [
        "# Coverage of the 95% intervals",
        "",
        f"*Generated by `bench/coverage.py`; do not edit by hand.* Command: `{results['command']}`. "
        f"Seed {results['seed']}, run {results['date']}, {draws:,} draws per simulated scenario "
        f"(Monte Carlo SE of a 95% coverage: {100 * mc_se(0.95, draws):.2f} points), "
        f"{results['runtime_seconds'] / 60:.1f} minutes on {results['machine']}. "
        f"The raw figures are in `{Path(path).with_suffix('.json').name}`.",
        "",
        intro(results),
        "",
        "Old is the method before commit f893970 (Wilson at the effective sample size; mean ± 1.96 SE with the "
        "unbiased variance estimate; mean ± t SE for a paired difference), new is the method now in passk. "
        "Misses ↓ / ↑: the share of draws whose interval lay wholly above the truth (truth below it) or wholly "
        "below it (truth above it). Figures outside 93-97% are in bold.",
        "",
        "## Population interval (problems as a sample)",
        "",
        "Each draw new pass rates and new samples; truth E[1 - (1 - p)^k] over the rate distribution.",
        "",
        simulated_table(results["population"], draws),
        "",
        "## Fixed-benchmark interval (these very problems)",
        "",
        "Rates drawn once per scenario (the mixtures with exactly their shares at 0 and 1); each draw new samples "
        "only; truth the mean of 1 - (1 - p_i)^k over those rates. Not given where n < 2k.",
        "",
        simulated_table(results["fixed"], draws),
        "",
        "## Paired difference of two runs",
        "",
        "Run B's rates from the distribution; run A's the same (null, truth 0) or 1 - (1 - p_B)^2 (better). "
        "Each draw new shared rates and new samples of both runs. The new interval is the trinomial (MOVER) "
        "interval at every P.",
        "",
        simulated_table(results["paired"], draws, extra=(("effect", lambda row: row["effect"]),)),
        "",
        "## Boundary scan (pass/fail values, exact)",
        "",
        "With n = 1 or k = n every problem's value is 0 or 1, so the number X of passing problems is binomial "
        "(P, truth) and coverage is the sum of the binomial chances of the X whose interval holds the truth, "
        "with no Monte Carlo error. The new intervals come from summarize() itself.",
        "",
        boundary_tables(results["boundary"]),
        "",
        "## The worst five scenarios",
        "",
        "For each kind, the five scenarios with the lowest coverage by the old method (the promise broken worst), "
        "the five lowest by the new one, and the five highest by the new one (intervals wider than they need be).",
        "",
    ]
    for title, rows in (("Population", results["population"]), ("Fixed benchmark", results["fixed"]),
                        ("Paired", results["paired"])):
        sections += [f"### {title}", "", worst_table(rows), ""]
    mirror = (" (near 1 mirrors near 0 exactly, so only near 0 is listed)"
              if results["boundary"]["mirror_symmetric"] else "")
    sections += ["### Boundary scan", "", f"Single truths and the minima of the scans{mirror}.", "",
                 worst_table(boundary_rows(results["boundary"]), lambda row: row["name"], 2), ""]
    Path(path).write_text("\n".join(sections))


# ---------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=DRAWS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default="docs/coverage.md")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite the .md from the .json beside it, without simulating")
    arguments = parser.parse_args()
    out = Path(arguments.out)
    if arguments.report_only:
        write_report(json.loads(out.with_suffix(".json").read_text()), out)
        return
    started = time.perf_counter()

    def progress(message):
        print(f"[{time.perf_counter() - started:7.1f} s] {message}", flush=True)

    draws, seed = arguments.draws, arguments.seed
    grid = [(count, n, k, index) for count in PROBLEMS for n, k in SAMPLES_AND_K for index in range(len(RATES))]
    results = {"seed": seed, "draws": draws, "band": list(BAND)}

    progress("paired truths against the Monte Carlo")
    results["paired_truth_checks"] = truth_checks(seed)
    results["boundary"] = boundary_scan(progress)
    for name, run, variants in (("population", population_case, [()]), ("fixed", fixed_case, [()]),
                                ("paired", paired_case, [("null",), ("better",)])):
        rows = []
        for position, case in enumerate(grid):
            for variant in variants:
                row = run(seed, draws, *case, *variant)
                rows.append(row)
                if row.get("given", True):
                    progress(f"{name} {position + 1}/{len(grid)} {scenario_name(row)}: old "
                             f"{percent(row['old']['coverage'])}, new {percent(row['new']['coverage'])}")
        results[name] = rows

    command = ".venv/bin/python bench/coverage.py" + "".join(
        f" --{key} {value}" for key, value, default in (("draws", draws, DRAWS), ("seed", seed, SEED),
                                                         ("out", arguments.out, "docs/coverage.md"))
        if value != default)
    results.update(command=command, date=datetime.date.today().isoformat(),
                   runtime_seconds=time.perf_counter() - started,
                   machine=f"{os.cpu_count()} CPUs ({platform.machine()}), Python {platform.python_version()}, "
                           f"numpy {np.__version__}, shared with other work")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n")
    write_report(results, out)
    progress(f"wrote {out} and {out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
