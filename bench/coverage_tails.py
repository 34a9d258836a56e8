"""Thin tails: where the population interval covers less than 93%, do the draws without a coverage note keep the
promise? A seeded simulation (issue 28, "Thin tails, unflagged").

    .venv/bin/python bench/coverage_tails.py            # from the repository root; 12-15 minutes on 2 cores
    .venv/bin/python bench/coverage_tails.py --quick    # 200 draws a scenario, printed only; about 2 minutes

Writes the section "Thin tails: the draws without a note" of docs/coverage.md (between its two marker lines,
replaced on every run, appended when absent) and prints it. population_note's tail bounds (intervals.TAIL_DISTANCE,
TAIL_TRIALS) were chosen on this grid.

Each problem's pass rate is drawn afresh in every draw (bench/coverage.py's population method), so the truth is
exact: the beta-binomial (or binomial, for equal rates) tail of k draws. Each draw samples P problems n times and
computes pass@k, pass^k and G-Pass@k tau=0.75 per problem (passk's own tables of c = 0..n), their mean, s / sqrt(P),
the population interval and population_note, through bench/coverage_beside.py's tally; the first CHECKED draws of
every scenario go through passk.results.benchmark.summarize itself and the run stops if the interval or the note differs.

The grid: the audit's two scenarios (pass@100 at P = 1,000, n = 200, Beta(2, 5) rates; pass@2 at P = 164, n = 5,
every rate 0.9) at AUDIT_DRAWS draws; many samples per problem near 0 and 1 (NEAR_*); every problem at one rate
(EQUAL_*); and bench/coverage_beside.py's calibration grid of Beta rates (CALIBRATION_*).
"""

import argparse
import itertools
import math
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from scipy.stats import betabinom, binom

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from bench.coverage_beside import (CALIBRATION_BETAS, CALIBRATION_PROBLEMS, CALIBRATION_SAMPLES_AND_K,  # noqa: E402
                                   check, g_threshold, per_problem_table, tally, write_section)
from passk.results.benchmark import summarize  # noqa: E402
from passk.maths.estimator import estimate_pass_at_k, pass_hat_k  # noqa: E402
from passk.formats import Problem  # noqa: E402
from passk.maths.intervals import (SKEWED, SKEWED_BELOW, SKEWED_FROM, TAIL_DISTANCE, TAIL_TRIALS,  # noqa: E402
                                   capped_trials)

SEED = 20261205
DRAWS = 2000
AUDIT_DRAWS = 10_000
QUICK_DRAWS = 200
CHECKED = 2
PROMISE = 0.93
EARLIER = (1.25, 6.0, 1.4)   # the tail rule before issue 28: distance 1.25-6 problems' worth, >= 1.4 trials a problem
NEAR_BETAS = ((2, 5), (0.5, 0.5), (1, 1), (5, 2))
NEAR_PROBLEMS = (164, 500, 1000, 2000)
NEAR_SAMPLES_AND_K = ((200, 100), (200, 50), (100, 50), (200, 10), (50, 10), (20, 10))
EQUAL_RATES = (0.7, 0.8, 0.9, 0.95, 0.97, 0.99)
EQUAL_PROBLEMS = (30, 100, 164, 500, 1000)
EQUAL_SAMPLES_AND_K = ((3, 2), (4, 2), (5, 2), (10, 2), (5, 3), (10, 5))
BEGIN = "<!-- bench/coverage_tails.py: begin -->"
END = "<!-- bench/coverage_tails.py: end -->"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "coverage.md"


class Beta:
    """Pass rates drawn afresh from Beta(a, b) for every problem of every draw."""

    def __init__(self, a, b):
        self.a, self.b, self.name = a, b, f"Beta({a:g}, {b:g})"

    def draw(self, rng, shape):
        return rng.beta(self.a, self.b, shape)

    def tail(self, k, least):
        """P(X >= least) for X the passes among k draws at a rate from Beta(a, b): the beta-binomial tail."""
        return float(betabinom.sf(least - 1, k, self.a, self.b))


class Equal:
    """Every problem at one pass rate."""

    def __init__(self, rate):
        self.rate, self.name = rate, f"all {rate:g}"

    def draw(self, rng, shape):
        return np.full(shape, self.rate)

    def tail(self, k, least):
        return float(binom.sf(least - 1, k, self.rate))


def grid(calibration=True):
    """(family, rates, P, n, k) for every scenario; calibration: with bench/coverage_beside.py's grid too."""
    audit = [("audit", Beta(2, 5), 1000, 200, 100), ("audit", Equal(0.9), 164, 5, 2)]
    near = [("near", Beta(*ab), count, n, k) for ab, count, (n, k)
            in itertools.product(NEAR_BETAS, NEAR_PROBLEMS, NEAR_SAMPLES_AND_K)]
    equal = [("equal", Equal(rate), count, n, k) for rate, count, (n, k)
             in itertools.product(EQUAL_RATES, EQUAL_PROBLEMS, EQUAL_SAMPLES_AND_K)]
    calibration = [("calibration", Beta(*ab), count, n, k) for ab, count, (n, k)
                   in itertools.product(CALIBRATION_BETAS, CALIBRATION_PROBLEMS, CALIBRATION_SAMPLES_AND_K)]
    seen = {(rates.name, count, n, k) for _, rates, count, n, k in audit}   # the audit's at AUDIT_DRAWS only
    rest = [row for row in near + equal + (calibration if calibration else []) if row[1:] and
            (row[1].name, *row[2:]) not in seen]
    return audit + rest


def statistics(n, k):
    """(name, per-problem values of c = 0..n, the least passes among k that the truth counts, summarize's row)."""
    correct = np.arange(n + 1)
    rows = [("pass@k", estimate_pass_at_k(np.full(n + 1, n), correct, k), 1, lambda s: s.results[0]),
            ("pass^k", np.array([pass_hat_k(n, int(c), k) for c in correct]), k, lambda s: s.results[0].pass_hat)]
    if k > 2:   # tau = 0.75 at k = 2 is pass^2
        rows.append(("G-Pass τ=0.75", per_problem_table(n, k, 0.75), g_threshold(k, 0.75),
                     lambda s: s.g_pass.results[0].g_pass))
    return rows


def earlier_silent(values, count):
    """Per draw, whether population_note before issue 28 (the skew case, and the tail case by EARLIER) was silent."""
    means = values.mean(axis=1)
    ses = values.std(axis=1, ddof=1) / math.sqrt(count)
    deviations = values - means[:, None]
    second, third = np.mean(deviations**2, axis=1), np.mean(deviations**3, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        skewness = np.where(second > 0, third / second**1.5, 0.0)
    inside = np.mean((values > 0) & (values < 1), axis=1)
    skewed = (SKEWED_FROM <= count < SKEWED_BELOW) & (np.abs(skewness) >= SKEWED) & (inside >= 0.5)
    clamped = np.clip(means, 0.0, 1.0)
    distances = count * np.minimum(clamped, 1 - clamped)
    trials = np.array([capped_trials(float(m), float(s), count) / count for m, s in zip(clamped, ses)])
    low, high, least = EARLIER
    return ~(skewed | ((count >= SKEWED_FROM) & (distances >= low) & (distances <= high) & (trials >= least)))


def case(seed, index, family, rates, count, n, k, draws):
    """Rows for each statistic of one draw set (the statistics share the samples)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    passed = rng.binomial(n, rates.draw(rng, (draws, count)))
    summaries = [summarize([Problem(f"t{i}", n, int(c)) for i, c in enumerate(passed[draw])], [k], tau=0.75)
                 for draw in range(min(CHECKED, draws))]
    rows = []
    for statistic, table, least, production in statistics(n, k):
        values, truth = table[passed], rates.tail(k, least)
        figures, ends, noted = tally(values, truth, count)
        for draw, summary in enumerate(summaries):
            check(f"{statistic} {rates.name} P={count} n={n} k={k} draw {draw}", production(summary), ends[draw],
                  noted[draw], count)
        covered = (truth >= ends[:, 0]) & (truth <= ends[:, 1])
        silent, before = ~noted, earlier_silent(values, count)
        rows.append({"family": family, "statistic": statistic, "rates": rates.name, "P": count, "n": n, "k": k,
                     "truth": truth, **figures, "silent": float(np.mean(silent)),
                     "silent_missed": float(np.mean(silent & ~covered)),
                     "before_silent": float(np.mean(before)), "before_silent_missed": float(np.mean(before & ~covered)),
                     "before_held": float(np.mean(covered[before])) if before.any() else None})
    return rows


# ---------------------------------------------------------------------------
# The report


def percent(value, digits=1):
    return "–" if value is None else f"{100 * value:.{digits}f}%"


def name(row):
    return f"{row['statistic']}, {row['rates']}, P={row['P']}, n={row['n']}, k={row['k']}"


def distance(row):
    return row["P"] * min(row["truth"], 1 - row["truth"])


def table(rows):
    head = ["scenario", "P × distance", "coverage", "note shown", "held without a note", "missed without a note",
            "earlier rule: held without a note", "missed without a note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        lines.append(f"| {name(row)} | {distance(row):.1f} | {percent(row['coverage'])} | {percent(row['noted'], 0)} "
                     f"| {percent(row['covered_when_silent'])} | {percent(row['silent_missed'])} "
                     f"| {percent(row['before_held'])} | {percent(row['before_silent_missed'])} |")
    return "\n".join(lines)


def audit_words(row):
    """How the note fared in one of the audit's scenarios, and how the earlier rule did."""
    now = (f"the note shows in {percent(row['noted'])} of draws, and the draws without it held the truth in "
           f"{percent(row['covered_when_silent'])} ({percent(row['silent_missed'])} of all draws missed with no "
           "note)" if row["covered_when_silent"] is not None else "the note shows in every draw")
    return (f"{now}; under the earlier rule the draws without a note held it in {percent(row['before_held'])} "
            f"({percent(row['before_silent_missed'])} of all draws missed with no note)")


def again_words(row):
    """One shortfall drawn again: its coverage and how the draws without a note did."""
    again = row["again"]
    held = (f"held without a note {percent(again['covered_when_silent'])} of {percent(again['silent'])} of draws"
            if again["covered_when_silent"] is not None else "a note in every draw")
    return f"{name(row)} {percent(again['coverage'])}, {held}"


def section(results):
    rows, draws = results["rows"], results["draws"]
    short = sorted((row for row in rows if row["coverage"] < PROMISE), key=lambda row: row["coverage"])
    fine = [row for row in rows if row["coverage"] >= PROMISE]
    kept = [row for row in short if row["covered_when_silent"] is None or row["covered_when_silent"] >= PROMISE]
    again = [row for row in rows if "again" in row]
    broken = [row["again"] for row in again if row["again"]["coverage"] < PROMISE
              and (row["again"]["covered_when_silent"] or 1.0) < PROMISE]
    edges = [row for row in fine if row["covered_when_silent"] is not None and row["covered_when_silent"] < PROMISE]
    audit = [row for row in rows if row["family"] == "audit" and row["statistic"] == "pass@k"]
    held = [row["covered_when_silent"] for row in short if row["covered_when_silent"] is not None]
    before = [row["before_held"] for row in short if row["before_held"] is not None]
    audit_lines = "\n".join(f"- {name(row)} ({row['draws']:,} draws): coverage {percent(row['coverage'])}; "
                            f"{audit_words(row)}" for row in audit)
    words = f"""\
**The rule.** population_note's tail case speaks when there are at least {SKEWED_FROM} problems, the mean is at
most {TAIL_DISTANCE:g} problems' worth from 0 or 1 (P min(mean, 1 − mean)), and the interval reads the values as
more than {TAIL_TRIALS:g} trials per problem (n*/P after the boundary cap: 1 for pass/fail values, more when a
tail of fractions carries the mean). The earlier rule spoke from {EARLIER[0]:g} to {EARLIER[1]:g} problems' worth
at {EARLIER[2]:g} trials per problem or more; it left silent the draws whose mean came out nearest the boundary,
and those held the misses.

**Where the interval falls short.** {len(short)} of {len(rows)} scenarios cover below 93%. In
{len(kept)} of them the draws without a note held the truth 93% of the time or more (under the earlier rule: in
{sum(row['before_held'] is None or row['before_held'] >= PROMISE for row in short)}, the lowest
{percent(min(before)) if before else '–'}). Each of the {len(again)} others drawn again with {AUDIT_DRAWS:,} draws
(seed + 1): coverage, and how the draws without a note did:
{'; '.join(again_words(row) for row in again) or '–'}. {len(broken)} of them still below 93% with
the draws without a note below 93% too{': ' + ', '.join(name(row) for row in broken) if broken else ''}.
The audit's two:

{audit_lines}

**Where it keeps its promise.** In the {len(fine)} scenarios at 93% or more the note shows in
{percent(sum(row['noted'] for row in fine) / len(fine))} of draws on average (the earlier rule:
{percent(sum(1 - row['before_silent'] for row in fine) / len(fine))}): a draw cannot tell a population that
covers 88% from one that covers 97%, and this grid sits near 0 and 1 on purpose. In {len(edges)} of them the few
draws without a note held the truth less than 93% of the time ({percent(max(row['silent'] for row in edges)) if
edges else '–'} of draws at most, {percent(max(row['silent_missed'] for row in edges)) if edges else '–'} of all
draws missed with no note at most): there the silent draws are the scenario's extremes, a mean more than
{TAIL_DISTANCE:g} problems' worth out or values nearly all 0 or 1, and they carry the misses any 95% interval is
allowed. Every rule with a bound has such edges; they keep the scenario's coverage at 93% or more."""
    return "\n".join([
        BEGIN,
        "## Thin tails: the draws without a note",
        "",
        f"*Generated by `bench/coverage_tails.py`; do not edit by hand.* Command: `{results['command']}`. "
        f"Seed {results['seed']}, {draws:,} draws per scenario ({results['audit_draws']:,} for the audit's two), "
        f"{results['runtime_seconds'] / 60:.1f} minutes.",
        "",
        "**Method.** Each problem's pass rate drawn afresh in every draw; the truth the beta-binomial (or "
        "binomial) tail of k draws, exact. pass@k, pass^k and G-Pass@k τ=0.75 (k > 2) from the same samples; "
        "the interval and population_note as passk computes them (the first 2 draws of every scenario through "
        "summarize() itself). The grid: the audit's two scenarios; Beta(2, 5), (0.5, 0.5), (1, 1) and (5, 2) "
        "rates at P = 164, 500, 1,000, 2,000 with (n, k) = (200, 100), (200, 50), (100, 50), (200, 10), (50, 10), "
        "(20, 10); every rate 0.7, 0.8, 0.9, 0.95, 0.97 or 0.99 at P = 30, 100, 164, 500, 1,000 with (n, k) = "
        "(3, 2), (4, 2), (5, 2), (10, 2), (5, 3), (10, 5); and (unless --no-calibration) bench/coverage_beside.py's "
        "calibration grid (Beta (5, 2), (2, 5), (0.5, 0.5), (1, 1), (8, 1), (1, 8), (2, 2) at P = 20-500). "
        "\"held without a note\": the "
        "coverage among the draws whose row carries no population note; \"missed without a note\": those misses "
        "as a share of all draws.",
        "",
        "\n\n".join(paragraph if paragraph.startswith("- ") else textwrap.fill(" ".join(paragraph.split()), 110)
                    for paragraph in words.split("\n\n")),
        "",
        "Every scenario below 93%:",
        "",
        table(short),
        "",
        "The scenarios at 93% or more whose draws without a note held the truth less than 93% of the time:",
        "",
        table(edges),
        END,
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DRAWS} draws a scenario, printed only")
    parser.add_argument("--draws", type=int, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-calibration", action="store_true", help="leave out bench/coverage_beside.py's "
                        "calibration grid (175 of the 275 draw sets)")
    parser.add_argument("--out", default=None, help="the Markdown file whose section to write (default: "
                        "docs/coverage.md, none with --quick)")
    arguments = parser.parse_args()
    draws = arguments.draws or (QUICK_DRAWS if arguments.quick else DRAWS)
    audit_draws = QUICK_DRAWS if arguments.quick else max(draws, AUDIT_DRAWS)
    out = Path(arguments.out) if arguments.out else None if arguments.quick else DOCS
    started = time.perf_counter()
    rows = []
    for index, (family, rates, count, n, k) in enumerate(grid()):
        if arguments.no_calibration and family == "calibration":
            continue
        rows += case(arguments.seed, index, family, rates, count, n, k,
                     audit_draws if family == "audit" else draws)
        print(f"[{time.perf_counter() - started:7.1f} s] {rates.name} P={count} n={n} k={k}: " + " · ".join(
            f"{row['statistic']} {percent(row['coverage'])} note {percent(row['noted'], 0)} held without "
            f"{percent(row['covered_when_silent'])}" for row in rows if (row["rates"], row["P"], row["n"], row["k"])
            == (rates.name, count, n, k)), file=sys.stderr, flush=True)
    scenarios = list(enumerate(grid()))
    for row in rows:   # a shortfall whose silent draws held less than 93%: drawn again, AUDIT_DRAWS, seed + 1
        if row["coverage"] < PROMISE and (row["covered_when_silent"] or 1.0) < PROMISE and not arguments.quick:
            index, (family, rates, count, n, k) = next((i, s) for i, s in scenarios if (s[1].name, *s[2:]) == (
                row["rates"], row["P"], row["n"], row["k"]))
            row["again"] = next(again for again in case(arguments.seed + 1, index, family, rates, count, n, k,
                                                        AUDIT_DRAWS) if again["statistic"] == row["statistic"])
            print(f"{name(row)} again: {percent(row['again']['coverage'])}, held without a note "
                  f"{percent(row['again']['covered_when_silent'])}", file=sys.stderr, flush=True)
    command = ".venv/bin/python bench/coverage_tails.py" + (" --quick" if arguments.quick else "") + "".join(
        f" --{key} {value}" for key, value, default in (("draws", arguments.draws, None),
                                                         ("seed", arguments.seed, SEED)) if value != default) + (
        " --no-calibration" if arguments.no_calibration else "")
    results = {"seed": arguments.seed, "draws": draws, "audit_draws": audit_draws, "command": command, "rows": rows,
               "runtime_seconds": time.perf_counter() - started}
    text = section(results)
    print(text)
    if out is not None:
        write_section(text, out, BEGIN, END)


if __name__ == "__main__":
    main()
