"""Issue 28's edges: pass/fail values (exact), the fixed-benchmark borderline, the skew note's figures and the
paired test's power at small P. Seeded; the exact part has no Monte Carlo error.

    .venv/bin/python bench/coverage_edges.py            # from the repository root; about 3 minutes on 2 cores
    .venv/bin/python bench/coverage_edges.py --quick    # 1,000 draws a scenario, printed only

Writes docs/coverage_edges.json (the figures the notes quote; tests/passk/maths/test_coverage_notes.py and
test_binary_note.py hold them equal) and the section "Pass/fail values and small P (issue 28)" of
docs/coverage.md between its two marker lines.

- Pass/fail values: for P in PROBLEMS the population interval of every count x (passk.maths.passfail's
  pass_fail_interval, equal to summarize()'s), and at RATE_POINTS true rates p from 0.01 to 200 problems' worth
  from 0 (the whole range up to 1/2 for P <= 1,000) coverage(p) = sum_x Binomial(P, p)(x) [p in CI(x)], with the
  note's verdict for each x (passk.maths.passfail.binary_note). Reported: the lowest coverage and its rates, how often
  the note fires where the coverage is fine, and the share of draws that miss with no note.
- Fixed borderline: bench/coverage.py's fixed-benchmark case at n = 2, k = 1 and P from 30 to 50.
- Skew note: bench/coverage.py's population cases that fell below 93% at P >= 30, with DRAWS draws, and how
  often population_note fires in them.
- Power: two runs on the same P problems, n = 10 samples each, pass@1; run B's rates from Beta(0.5, 0.5), run
  A's equal (null) or 1 - (1 - p_B)^2 (better); the share of draws with p < 0.05 by the MOVER p-value
  (compare's) and by the paired t test.
"""

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
from scipy.stats import beta
from scipy.stats import t as student_t

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import coverage as grid  # noqa: E402  bench/coverage.py: its scenarios and rates
from passk.results.benchmark import compare, summarize  # noqa: E402
from passk.formats import Problem  # noqa: E402
from passk.maths.intervals import PairedDifference, population_note, shape  # noqa: E402
from passk.maths.passfail import FLOOR, NEAREST, binomial_chances, lowest_coverage, pass_fail_interval  # noqa: E402

SEED = 20261205
DRAWS = 10_000
PROBLEMS = (10, 20, 30, 50, 100, 164, 300, 500, 1000, 3000, 10_000, 30_000, 100_000)
RATE_POINTS = 20_000
REACH = 200            # problems' worth from 0 scanned (the whole range up to 1/2 where P <= WHOLE)
WHOLE = 1000
FIXED_PROBLEMS = (30, 40, 50, 75, 100)
FIXED_CHECKED = 40    # every rate distribution at this P
BENCHMARKS = 20
SKEWED_CASES = ((30, 20, 10, "Beta(2, 5)"), (30, 20, 10, "Beta(0.8, 0.8)"), (30, 50, 10, "Beta(2, 5)"),
                (30, 50, 10, "Beta(0.8, 0.8)"), (164, 20, 10, "all equal 0.3"))
POWER_PROBLEMS = (5, 10, 20, 30)
POWER_SAMPLES = 10
BEGIN = "<!-- bench/coverage_edges.py: begin -->"
END = "<!-- bench/coverage_edges.py: end -->"


def pass_fail_scan(count):
    """Exact coverage at RATE_POINTS rates near 0 (near 1 mirrors it), with the note's share of each rate's draws."""
    top = count / 2 if count <= WHOLE else REACH
    rates = np.linspace(0.01 / count, top / count, RATE_POINTS)
    last = min(count, math.ceil(top + 8 * math.sqrt(top) + 8))
    counts = np.arange(last + 1)
    ends = np.array([pass_fail_interval(x, count) for x in counts])
    for x in (0, 1, last // 2):   # the fast path is summarize()'s interval
        row = summarize([Problem(f"t{i}", 1, int(i < x)) for i in range(count)], [1]).results[0]
        assert max(abs(a - b) for a, b in zip(row.ci95, ends[x])) < 1e-12, (count, x)
    rarer = np.minimum(counts, count - counts)
    noted = np.array([r <= NEAREST and lowest_coverage(int(r), count)[0] < FLOOR for r in rarer])
    coverage, noted_share, missed_quietly, quiet_coverage = [], [], [], []
    for chunk in np.array_split(rates, max(1, rates.size * counts.size // 2_000_000)):
        chances = binomial_chances(counts, count, chunk)
        held = (ends[None, :, 0] <= chunk[:, None]) & (chunk[:, None] <= ends[None, :, 1])
        quiet = chances * ~noted[None, :]
        coverage.append((chances * held).sum(axis=1))
        noted_share.append((chances * noted[None, :]).sum(axis=1))
        missed_quietly.append((quiet * ~held).sum(axis=1))
        quiet_coverage.append((quiet * held).sum(axis=1) / np.maximum(quiet.sum(axis=1), 1e-300))
    coverage, noted_share, missed_quietly, quiet_coverage = map(
        np.concatenate, (coverage, noted_share, missed_quietly, quiet_coverage))
    short, fine = coverage < FLOOR, coverage >= FLOOR
    near = count * rates
    worst = int(np.argmin(coverage))
    quiet_enough = (1 - noted_share) >= 0.5
    return {
        "P": count, "to_problems": float(top), "points": RATE_POINTS,
        "lowest": float(coverage[worst]), "lowest_at": float(rates[worst]), "mean": float(coverage.mean()),
        "short_problems": [float(near[short].min()), float(near[short].max())] if short.any() else None,
        "short_share": float(short.mean()),
        "noted_most": int(rarer[noted].max()) if noted.any() else None,
        "fires_where_fine_10": float(noted_share[fine & (near <= 10)].mean()),
        "fires_where_fine_30": float(noted_share[fine & (near <= 30)].mean()),
        "fires_where_fine_all": float(noted_share[fine].mean()),
        "noted_where_short": float(noted_share[short].min()) if short.any() else None,
        "missed_quietly_where_short": float(missed_quietly[short].max()) if short.any() else None,
        "missed_quietly_most": float(missed_quietly.max()),
        "quiet_coverage_lowest": float(quiet_coverage[quiet_enough].min()),
    }


def by_construction(count):
    """The road not taken: Clopper-Pearson upper ends for 0, 1 and 2 passing (lower ends mirrored near 1) in place
    of the mid-p ones, and the exact coverage either way over 0.01 to 40 problems' worth from 0."""
    last = min(count, 120)
    ends = np.array([pass_fail_interval(x, count) for x in range(last + 1)])
    widened = ends.copy()
    for x in (0, 1, 2):
        widened[x, 1] = max(ends[x, 1], float(beta.ppf(0.975, x + 1, count - x)))
    rates = np.linspace(0.01 / count, 40 / count, RATE_POINTS)
    chances = binomial_chances(np.arange(last + 1), count, rates)
    row = {"P": count, "upper_ends_now": (count * ends[:3, 1]).tolist(),
           "upper_ends_widened": (count * widened[:3, 1]).tolist()}
    for name, found in (("now", ends), ("widened", widened)):
        held = (found[None, :, 0] <= rates[:, None]) & (rates[:, None] <= found[None, :, 1])
        coverage = (chances * held).sum(axis=1)
        row[name] = {"lowest": float(coverage.min()), "mean_10": float(coverage[count * rates <= 10].mean()),
                     "mean_40": float(coverage.mean())}
    return row


def audit_points():
    """The issue's figures at its own rates, with the note's verdict on the count the issue names."""
    points = []
    for count, rate in ((164, 0.0184), (164, 0.0187), (1000, 0.0031), (1000, 0.0050)):
        counts = np.arange(min(count, 60) + 1)
        ends = np.array([pass_fail_interval(x, count) for x in counts])
        chances = binomial_chances(counts, count, np.array([rate]))[0]
        held = (ends[:, 0] <= rate) & (rate <= ends[:, 1])
        points.append({"P": count, "rate": rate, "coverage": float((chances * held).sum())})
    lowest, at = lowest_coverage(3, 1000)
    return {"rates": points, "three_of_1000": {"ci95": list(pass_fail_interval(3, 1000)), "lowest": lowest, "at": at},
            "lowest_164": lowest_coverage(3, 164)[0], "lowest_1000": lowest}


def fixed_borderline(draws, seed, progress):
    """bench/coverage.py's fixed case at n = 2, k = 1 on BENCHMARKS benchmarks a P (each its own rates, drawn
    once, and draws / 10 draws of samples): the fixed interval's coverage depends on the benchmark drawn."""
    rows = []
    for count in FIXED_PROBLEMS:
        for index in range(len(grid.RATES)) if count == FIXED_CHECKED else (0,):
            found = [grid.fixed_case(seed + benchmark, draws // 10, count, 2, 1, index)
                     for benchmark in range(BENCHMARKS)]
            coverages = [row["new"]["coverage"] for row in found]
            row = {"P": count, "n": 2, "k": 1, "rates": found[0]["rates"], "benchmarks": BENCHMARKS,
                   "draws": BENCHMARKS * (draws // 10), "coverage": float(np.mean(coverages)),
                   "lowest": float(min(coverages)), "highest": float(max(coverages)),
                   "below_93": float(np.mean(np.array(coverages) < FLOOR))}
            row["mc_se"] = grid.mc_se(row["coverage"], row["draws"])
            rows.append(row)
            progress(f"fixed P={count} n=2 k=1 {row['rates']}: {grid.percent(row['coverage'], 2)} "
                     f"(benchmarks {grid.percent(row['lowest'])}–{grid.percent(row['highest'])})")
    return rows


def skewed(draws, seed, progress):
    """The population cases below 93% at P >= 30, again: coverage, the share of draws population_note speaks in
    (skew or tail) and the coverage of the draws it is silent in (the same draws: bench/coverage.py's generator)."""
    rows = []
    for count, n, k, name in SKEWED_CASES:
        index = [rates.name for rates in grid.RATES].index(name)
        row = grid.population_case(seed, draws, count, n, k, index)
        rng = grid.scenario_rng(seed, "population", count, n, k, index)   # population_case's draws again
        counts = rng.binomial(n, grid.RATES[index].draw(rng, (draws, count)))
        values = grid.value_table(n, k)[counts]
        means = grid.population_means(values, counts, n, k)
        ses = values.std(axis=1, ddof=1) / math.sqrt(count)
        spoken, held = np.zeros(draws, bool), np.zeros(draws, bool)
        for draw in range(draws):
            distinct, weights = np.unique(values[draw], return_counts=True)
            note = population_note(count, *shape(distinct, weights, float(means[draw])))
            spoken[draw] = note is not None   # the skew note, or the tail note (a mean near 0 or 1)
            low, high = grid.new_population(float(means[draw]), float(ses[draw]), count)
            held[draw] = low <= row["truth"] <= high
        assert abs(held.mean() - row["new"]["coverage"]) < 1e-12, (row, held.mean())
        row.update(mc_se=grid.mc_se(row["new"]["coverage"], draws), note_share=float(spoken.mean()),
                   quiet_coverage=float(held[~spoken].mean()) if (~spoken).any() else None,
                   missed_quietly=float(np.mean(~held & ~spoken)))
        rows.append(row)
        progress(f"skewed {grid.scenario_name(row)}: {grid.percent(row['new']['coverage'], 2)}, note in "
                 f"{grid.percent(row['note_share'])} of draws, no-note draws cover "
                 f"{grid.percent(row['quiet_coverage'] or 0)}")
    return rows


def paired_p_values(differences):
    """(MOVER p-value as compare() gives it, the paired t test's) for each draw's row of differences."""
    count = differences.shape[1]
    means, sds = differences.mean(axis=1), differences.std(axis=1, ddof=1)
    absolute = np.abs(differences).mean(axis=1)
    mover = np.array([PairedDifference(float(m), float(a), float(s), count).p_value()
                      for m, a, s in zip(means, absolute, sds)])
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.abs(means) / (sds / math.sqrt(count))
    t_test = np.where(sds > 0, 2 * student_t.sf(statistic, count - 1), np.where(means == 0, 1.0, 0.0))
    return mover, t_test


def power(draws, seed, progress):
    rows = []
    rates = grid.RATES[0]
    for count in POWER_PROBLEMS:
        for effect in ("null", "better"):
            rng = np.random.default_rng(np.random.SeedSequence([seed, 28, count, effect == "better"]))
            rates_b = rates.draw(rng, (draws, count))
            rates_a = rates_b if effect == "null" else 1 - (1 - rates_b) ** 2
            counts_a, counts_b = rng.binomial(POWER_SAMPLES, rates_a), rng.binomial(POWER_SAMPLES, rates_b)
            mover, t_test = paired_p_values((counts_a - counts_b) / POWER_SAMPLES)
            check = compare(grid.problems_of(POWER_SAMPLES, counts_a[0]), grid.problems_of(POWER_SAMPLES, counts_b[0]),
                            [1]).results[0]
            assert abs(check.p_value - mover[0]) < 1e-9, (count, effect, check.p_value, mover[0])
            row = {"P": count, "n": POWER_SAMPLES, "k": 1, "rates": rates.name, "effect": effect,
                   "mover": float(np.mean(mover < 0.05)), "t_test": float(np.mean(t_test < 0.05))}
            rows.append(row)
            progress(f"power P={count} {effect}: MOVER {grid.percent(row['mover'])}, t {grid.percent(row['t_test'])}")
    return rows


def section(results):
    """The Markdown section for docs/coverage.md."""
    lines = [BEGIN, "## Pass/fail values and small P (issue 28)", "",
             f"*Generated by `bench/coverage_edges.py` (seed {results['seed']}, {results['draws']:,} draws a "
             f"simulated scenario); do not edit by hand.* Raw figures: `coverage_edges.json`.", "",
             "### Pass/fail values, exact", "",
             "Every value 0 or 1: the count of passing problems is Binomial(P, p), so coverage is an exact sum "
             "at each true rate p. The note (passk.maths.passfail.binary_note) speaks for a count whose 99% interval "
             "holds a rate where the 95% interval's exact coverage is below 93%, and quotes the lowest such "
             "coverage. *Fires where fine*: the chance of the note at rates whose coverage is at least 93%, "
             "averaged over those rates within 10 and 30 problems' worth of 0. *Missed with no note*: the "
             "largest share of draws that miss the truth and carry no note, at the rates below 93% and at any "
             "rate. *No-note coverage*: the lowest coverage of the draws without the note, over rates where at "
             "least half the draws carry none (at a rate in the dip nearly every draw carries the note, and the "
             "few without it are counts far from the truth, which miss).", "",
             "| P | scanned (problems' worth) | lowest | at (problems' worth) | below 93% (problems' worth) | "
             "counts noted | fires where fine ≤10 / ≤30 | missed with no note: dip / anywhere | "
             "no-note coverage |", "|" + "---|" * 9]
    for row in results["pass_fail"]:
        short = row["short_problems"]
        noted = f"0–{row['noted_most']}" if row["noted_most"] is not None else "none"
        lines.append(
            f"| {row['P']:,} | {row['to_problems']:,.0f} | {grid.percent(row['lowest'], 2)} | "
            f"{row['P'] * row['lowest_at']:.2f} | {f'{short[0]:.2f}–{short[1]:.2f}' if short else '—'} | "
            f"{noted} | "
            f"{grid.percent(row['fires_where_fine_10'])} / {grid.percent(row['fires_where_fine_30'])} | "
            f"{grid.percent(row['missed_quietly_where_short'], 2) if short else '—'} / "
            f"{grid.percent(row['missed_quietly_most'], 2)} | {grid.percent(row['quiet_coverage_lowest'], 2)} |")
    audit = results["audit"]
    lines += ["", "The issue's rates: " + "; ".join(
        f"P = {point['P']:,}, p = {point['rate']}: {grid.percent(point['coverage'], 2)}" for point in audit["rates"])
        + f". Three passing of 1,000: interval [{grid.percent(audit['three_of_1000']['ci95'][0], 2)}, "
        f"{grid.percent(audit['three_of_1000']['ci95'][1], 2)}], note quoting "
        f"{grid.percent(audit['three_of_1000']['lowest'])} at {grid.percent(audit['three_of_1000']['at'], 2)}.",
        "", "Instead of the note, the interval could keep 93% by construction: Clopper-Pearson upper ends for 0, 1 "
        "and 2 passing problems (their mirror near 1) in place of the mid-p ones. Exact coverage over 0.01 to 40 "
        "problems' worth from 0, now and so widened (not chosen: it would move every pass/fail interval near 0 or "
        "1 that passk has shown, and the note says where the shortfall is instead):", "",
        "| P | upper ends for 0, 1, 2 (problems' worth): now → widened | lowest: now → widened | "
        "mean ≤ 10 problems' worth | mean ≤ 40 |", "|---|---|---|---|---|"]
    for row in results["by_construction"]:
        ends = ", ".join(f"{now:.2f}→{wide:.2f}"
                         for now, wide in zip(row["upper_ends_now"], row["upper_ends_widened"]))
        now, wide = row["now"], row["widened"]
        lines.append(f"| {row['P']:,} | {ends} | {grid.percent(now['lowest'], 2)} → "
                     f"{grid.percent(wide['lowest'], 2)} | "
                     f"{grid.percent(now['mean_10'], 2)} → {grid.percent(wide['mean_10'], 2)} | "
                     f"{grid.percent(now['mean_40'], 2)} → {grid.percent(wide['mean_40'], 2)} |")
    lines += ["", "### Fixed benchmark at n = 2, k = 1", "",
        f"Each P: {BENCHMARKS} benchmarks (rates drawn once each), {results['draws'] // 10:,} draws of samples "
        "on each; coverage over all their draws, and the lowest and highest benchmark's.", "",
        "| P | pass rates | coverage | MC SE | benchmarks: lowest–highest | benchmarks below 93% |",
        "|---|---|---|---|---|---|"]
    for row in results["fixed"]:
        lines.append(f"| {row['P']} | {row['rates']} | {grid.percent(row['coverage'], 2)} | "
                     f"{100 * row['mc_se']:.2f} | {grid.percent(row['lowest'])}–{grid.percent(row['highest'])} | "
                     f"{grid.percent(row['below_93'], 0)} |")
    lines += ["", "### The skew note's scenarios again", "",
              "| P | n | k | pass rates | coverage | MC SE | a note (skew or tail) in | no-note draws cover | "
              "missed with no note |",
              "|---|---|---|---|---|---|---|---|---|"]
    for row in results["skewed"]:
        lines.append(f"| {row['P']} | {row['n']} | {row['k']} | {row['rates']} | "
                     f"{grid.percent(row['new']['coverage'], 2)} | {100 * row['mc_se']:.2f} | "
                     f"{grid.percent(row['note_share'])} | "
                     f"{grid.percent(row['quiet_coverage']) if row['quiet_coverage'] is not None else '—'} | "
                     f"{grid.percent(row['missed_quietly'])} |")
    lines += ["", "### Power of the paired test at small P", "",
              f"Two runs on P problems, n = {POWER_SAMPLES}, pass@1, run B's rates Beta(0.5, 0.5); null: run A "
              "the same; better: run A's rate 1 - (1 - p_B)^2. The share of draws with p < 0.05.", "",
              "| P | effect | MOVER (compare's p-value) | paired t test |", "|---|---|---|---|"]
    for row in results["power"]:
        lines.append(f"| {row['P']} | {row['effect']} | {grid.percent(row['mover'])} | {grid.percent(row['t_test'])} |")
    return "\n".join(lines + ["", END])


def write_section(text, path):
    """Replace the section between the markers of path, or append it."""
    old = path.read_text()
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.write_text(new)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 draws a scenario, printed only")
    parser.add_argument("--seed", type=int, default=SEED)
    arguments = parser.parse_args()
    draws = 1000 if arguments.quick else DRAWS

    def progress(message):
        print(message, flush=True)

    results = {"seed": arguments.seed, "draws": draws, "pass_fail": []}
    for count in PROBLEMS:
        results["pass_fail"].append(pass_fail_scan(count))
        row = results["pass_fail"][-1]
        progress(f"pass/fail P={count:,}: lowest {grid.percent(row['lowest'], 2)} at {count * row['lowest_at']:.2f} "
                 f"problems' worth; missed with no note {row['missed_quietly_most']:.4f}")
    results["audit"] = audit_points()
    results["by_construction"] = [by_construction(count) for count in PROBLEMS if count >= 50]
    results["fixed"] = fixed_borderline(draws, arguments.seed, progress)
    results["skewed"] = skewed(draws, arguments.seed, progress)
    results["power"] = power(draws, arguments.seed, progress)
    text = section(results)
    if arguments.quick:
        print(text)
        return
    docs = HERE.parent / "docs"
    (docs / "coverage_edges.json").write_text(json.dumps(results, indent=1) + "\n")
    write_section(text, docs / "coverage.md")
    progress("wrote docs/coverage_edges.json and docs/coverage.md's section")


if __name__ == "__main__":
    main()
