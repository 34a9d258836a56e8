"""How often the 95% intervals of maj@k, G-Pass@k_tau and mG-Pass@k hold the truth: a seeded simulation (issue 17).

    .venv/bin/python bench/coverage_beside.py            # from the repository root; 4-6 minutes on 2 cores
    .venv/bin/python bench/coverage_beside.py --quick    # 200 draws a scenario, printed only; about a minute
    .venv/bin/python bench/coverage_beside.py --calibrate   # a grid of Beta rates (bench/coverage_tails.py runs it too)

Writes the sections "maj@k and G-Pass@k (issue 17)" and "Near 0 or 1 with a thin tail" of docs/coverage.md
(each between its two marker lines, replaced on every run, appended when absent) and prints them. The second
adds pass@k and pass^k of pass rates piled near 1 and near 0 (MIRROR_RATES), and states how often
population_note speaks and how often the interval held the truth where it does (intervals.TAIL_COVERAGE).

The method is bench/coverage.py's population one, with "problems like these" made finite so that the truth is
exact: each scenario's population is POPULATION problem types drawn once from SEED (a mixture's shares at 0
and 1 exactly), each draw takes P of them with replacement and samples each n times, and the truth is the
population's mean of each type's true value.

- G-Pass@k_tau and mG-Pass@k: a type is a pass rate p; its samples pass with chance p, c ~ Binomial(n, p);
  the truth is the mean of P(Bin(k, p) >= ceil(tau k)) and of (2/k) sum_{i=ceil(k/2)+1}^{k} P(Bin(k, p) >= i).
  The estimate is passk.results.metrics' per-problem tail (passk.maths.gpass), its mean, s / sqrt(P) and the population
  interval. The three taus and mG-Pass@k share each draw's samples.
- maj@k: a type is a distribution over one correct answer, three wrong ones and no answer; each sample is one
  draw from it. The truth is the mean of the exact expected score of a vote over k independent draws
  (vote_truth: every composition of k into the five categories, its multinomial chance times its score under
  the tie rule). The estimate is passk.maths.majority.majority_at_k per problem (every k-subset of the n samples),
  its mean, s / sqrt(P) and the population interval. Both tie rules share each draw's samples.

The fast path computes each distinct per-problem value once (majority_at_k and estimate_g_pass_at_k, the
production functions) and calls passk.maths.intervals.population_interval on each draw's mean and SE; the first
CHECKED draws of every scenario go through passk.results.benchmark.summarize itself (the interval and its coverage note)
and the script stops if they differ.
"""

import argparse
import functools
import itertools
import math
import os
import platform
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from scipy.stats import betabinom, binom

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from passk.results.benchmark import summarize  # noqa: E402
from passk.formats import Problem  # noqa: E402
from passk.maths.gpass import estimate_g_pass_at_k, estimate_mg_pass_at_k  # noqa: E402
from passk.maths.estimator import estimate_pass_at_k, pass_hat_k  # noqa: E402
from passk.maths.intervals import (SKEWED, SKEWED_BELOW, SKEWED_FROM, TAIL_DISTANCE, TAIL_TRIALS,  # noqa: E402
                                   capped_trials, population_interval, population_note)
from passk.maths.majority import majority_at_k  # noqa: E402

SEED = 20261126
DRAWS = 4000
QUICK_DRAWS = 200
POPULATION = 2000
BAND = (0.93, 0.97)
POOR = 0.92                 # coverage below this is called clearly poor in the report
CHECKED = 2                 # draws per scenario compared with summarize()
CHECK_TOLERANCE = 1e-9
OTHER_POPULATIONS = 8      # populations besides the first in which each shortfall is run again
G_PROBLEMS = (20, 100, 500)
G_SAMPLES_AND_K = ((4, 2), (8, 2), (16, 2), (8, 4), (16, 4), (16, 8), (32, 8))   # n in {2k, 4k, 16}
TAUS = (0.5, 0.75, 1.0)
MAJ_PROBLEMS = (10, 20, 100, 500)
MAJ_SAMPLES_AND_K = ((4, 2), (16, 2), (8, 4), (16, 4), (16, 8))                   # n in {2k, 16}
TIES = ("fractional", "wrong")
WRONG = 3                   # wrong answers per problem; the categories are correct, WRONG wrong ones, no answer
BEGIN = "<!-- bench/coverage_beside.py: begin -->"
END = "<!-- bench/coverage_beside.py: end -->"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "coverage.md"
KIND_IDS = {"rates": 1, "answers": 2, "g_pass": 3, "majority": 4, "fresh": 5, "mirror_rates": 6, "mirror": 7}
TAIL_NOTE = "The mean is "   # how population_note's sentence for a mean near 0 or 1 with a tail begins
POPULATION_NOTES = ("The per-problem values pile up", TAIL_NOTE)   # how population_note's two sentences begin


def scenario_rng(seed, kind, *parts):
    """A generator of its own for each scenario, so that any one can be rerun alone."""
    return np.random.default_rng(np.random.SeedSequence([seed, KIND_IDS[kind], *parts]))


# ---------------------------------------------------------------------------
# Populations of problem types


class Rates:
    """Pass rates: shares never and always solved, the rest Beta(a, b)."""

    def __init__(self, name, never=0.0, always=0.0, beta=(1.0, 1.0)):
        self.name, self.never, self.always, self.beta = name, never, always, beta

    def types(self, rng, count):
        """count rates with exactly the shares at 0 and 1 (rounded), the rest from the Beta distribution."""
        never, always = round(self.never * count), round(self.always * count)
        return np.concatenate([np.zeros(never), np.ones(always), rng.beta(*self.beta, count - never - always)])

    def fresh(self, rng, shape):
        """Independent rates, each problem its own draw from the mixture (bench/coverage.py's population method)."""
        kind, middle = rng.random(shape), rng.beta(*self.beta, shape)
        return np.where(kind < self.never, 0.0, np.where(kind < self.never + self.always, 1.0, middle))

    def tail(self, k, least):
        """P(X >= least), least >= 1, for X the passes among k draws at a rate drawn from the mixture."""
        return self.always + (1 - self.never - self.always) * float(betabinom.sf(least - 1, k, *self.beta))


class Answers:
    """Answer distributions: shares whose samples are never and always right; the rest have a chance of the correct
    answer from Beta(a, b), a no-answer share uniform up to none of the remainder, and the wrong answers sharing
    what is left by Dirichlet(wrong, ..., wrong) weights (small: one wrong answer dominates)."""

    def __init__(self, name, never=0.0, always=0.0, beta=(1.0, 1.0), none=0.3, wrong=1.0):
        self.name, self.never, self.always, self.beta = name, never, always, beta
        self.none, self.wrong = none, wrong

    def types(self, rng, count):
        """(count, WRONG + 2) probabilities: correct, the wrong answers, no answer."""
        never, always = round(self.never * count), round(self.always * count)
        right = np.concatenate([np.zeros(never), np.ones(always), rng.beta(*self.beta, count - never - always)])
        silent = (1 - right) * rng.uniform(0, self.none, count)
        wrong = (1 - right - silent)[:, None] * rng.dirichlet(np.full(WRONG, self.wrong), count)
        return np.column_stack([right, wrong, silent])


RATES = (Rates("Beta(0.5, 0.5)", beta=(0.5, 0.5)), Rates("Beta(2, 5)", beta=(2.0, 5.0)),
         Rates("mix 30/20", never=0.3, always=0.2), Rates("mix 85/10", never=0.85, always=0.10))
ANSWERS = (Answers("spread"), Answers("mix 30/20", never=0.3, always=0.2),
           Answers("mix 85/10", never=0.85, always=0.10),
           Answers("one rival", beta=(2.0, 3.0), wrong=0.2))


# ---------------------------------------------------------------------------
# The truths


def g_threshold(k, tau):
    """ceil(tau k), at least 1, in exact arithmetic (the taus here are binary fractions)."""
    return max(1, math.ceil(Fraction(tau) * k))


def g_pass_truth(rates, k, tau):
    """P(Bin(k, p) >= ceil(tau k)) for each rate p."""
    return binom.sf(g_threshold(k, tau) - 1, k, np.asarray(rates, dtype=float))


def mg_pass_truth(rates, k):
    """(2/k) sum_{i=ceil(k/2)+1}^{k} P(Bin(k, p) >= i) for each rate p (0 at k = 1)."""
    rates = np.asarray(rates, dtype=float)
    tails = [binom.sf(i - 1, k, rates) for i in range((k + 1) // 2 + 1, k + 1)]
    return 2 / k * np.sum(tails, axis=0) if tails else np.zeros_like(rates)


def statistic_truth(tail, k, tau):
    """G-Pass@k_tau (tau None: mG-Pass@k) from tail(i) = P(X >= i), X the passes among k draws."""
    if tau is None:
        return 2 / k * sum(tail(i) for i in range((k + 1) // 2 + 1, k + 1))
    return tail(g_threshold(k, tau))


def composition_score(composition, tie):
    """The vote's score for these counts of (correct, wrong..., no answer): 0 without votes; fractional: 1 / the
    number of answers tied at the top when the correct one is among them; wrong: 1 when it is alone at the top."""
    voting = composition[:-1]
    top = max(voting)
    if top == 0 or composition[0] != top:
        return Fraction(0)
    tied = sum(count == top for count in voting)
    return Fraction(1, tied) if tie == "fractional" else Fraction(int(tied == 1))


@functools.lru_cache(maxsize=None)
def compositions(k, categories):
    """Every way to put k draws into categories, with its multinomial coefficient, as two arrays."""
    rows = [bars for bars in itertools.product(range(k + 1), repeat=categories - 1) if sum(bars) <= k]
    counts = np.array([(*bars, k - sum(bars)) for bars in rows], dtype=np.int64)
    coefficients = np.array([math.factorial(k) // math.prod(math.factorial(x) for x in row) for row in counts],
                            dtype=float)
    return counts, coefficients


def vote_truth(probabilities, k, tie):
    """The expected score of a vote over k independent draws, for each row of category probabilities
    (correct, wrong..., no answer): the sum over every composition of its multinomial chance times its score."""
    probabilities = np.atleast_2d(np.asarray(probabilities, dtype=float))
    counts, coefficients = compositions(k, probabilities.shape[1])
    scores = np.array([float(composition_score(tuple(row), tie)) for row in counts])
    chances = coefficients * np.prod(probabilities[:, None, :] ** counts[None, :, :], axis=2)
    return chances @ scores


def vote_truth_exact(probabilities, k, tie):
    """vote_truth of one distribution in exact arithmetic (probabilities as Fractions), for the tests."""
    counts, _ = compositions(k, len(probabilities))
    total = Fraction(0)
    for row in counts:
        ways = math.factorial(k) // math.prod(math.factorial(int(x)) for x in row)
        chance = math.prod((p ** int(x) for p, x in zip(probabilities, row)), start=Fraction(1))
        total += ways * chance * composition_score(tuple(int(x) for x in row), tie)
    return total


# ---------------------------------------------------------------------------
# The draws


@functools.lru_cache(maxsize=1 << 18)
def interval(mean, se, count):
    return population_interval(min(1.0, max(0.0, mean)), se, count)


def tally(values, truth, count):
    """Coverage, misses, width and note share of one scenario's draws (values: draws x problems)."""
    means = values.mean(axis=1)
    ses = values.std(axis=1, ddof=1) / math.sqrt(count)
    ends = np.array([interval(float(m), float(s), count) for m, s in zip(means, ses)])
    deviations = values - means[:, None]
    second, third = np.mean(deviations**2, axis=1), np.mean(deviations**3, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        skewness = np.where(second > 0, third / second**1.5, 0.0)
    inside = np.mean((values > 0) & (values < 1), axis=1)
    before = (SKEWED_FROM <= count < SKEWED_BELOW) & (np.abs(skewness) >= SKEWED) & (inside >= 0.5)
    below, above = float(np.mean(truth < ends[:, 0])), float(np.mean(truth > ends[:, 1]))
    clamped = np.clip(means, 0.0, 1.0)
    distances = count * np.minimum(clamped, 1 - clamped)
    trials = [capped_trials(float(m), float(s), count) / count for m, s in zip(clamped, ses)]
    notes = [population_note(count, *figures) for figures in zip(skewness.tolist(), inside.tolist(),
                                                                 distances.tolist(), trials)]
    noted = np.array([note is not None for note in notes])
    tail = np.array([note is not None and note.startswith(TAIL_NOTE) for note in notes])
    covered = (truth >= ends[:, 0]) & (truth <= ends[:, 1])
    return {"coverage": 1 - below - above, "truth_below": below, "truth_above": above,
            "width": float(np.mean(ends[:, 1] - ends[:, 0])), "noted": float(np.mean(noted)),
            "tail_noted": float(np.mean(tail)), "noted_before": float(np.mean(before)),
            "covered_when_tail": float(np.mean(covered[tail])) if tail.any() else None,
            "covered_when_silent": float(np.mean(covered[~noted])) if not noted.all() else None,
            "distance": float(np.median(distances)),
            "trials": float(np.median(trials)), "draws": int(values.shape[0])}, ends, noted


def check(name, production, ends, noted, count):
    """Stop when summarize()'s estimate differs from the fast path's."""
    if production is None or production.ci95 is None:
        raise AssertionError(f"{name}: summarize() gave no interval")
    shown = (production.coverage_note or "").startswith(POPULATION_NOTES)   # it comes first, before the others
    if any(abs(a - b) > CHECK_TOLERANCE for a, b in zip(production.ci95, ends)) or shown != bool(noted):
        raise AssertionError(f"{name}: fast path {tuple(ends)} (note {bool(noted)}) but summarize() "
                             f"{production.ci95} (note {production.coverage_note!r})")


def g_pass_case(seed, draws, rates_index, count, n, k, population):
    """One draw set: rows for each tau and for mG-Pass@k."""
    rates = population[rates_index]
    rng = scenario_rng(seed, "g_pass", rates_index, count, n, k)
    picked = rates[rng.integers(0, rates.size, (draws, count))]
    passed = rng.binomial(n, picked)
    scenario = {"rates": RATES[rates_index].name, "P": count, "n": n, "k": k}
    rows = []
    for tau in (*TAUS, None):
        if tau is None:
            table, truths = estimate_mg_pass_at_k(n, np.arange(n + 1), k), mg_pass_truth(rates, k)
        else:
            table, truths = estimate_g_pass_at_k(n, np.arange(n + 1), k, tau), g_pass_truth(rates, k, tau)
        truth = float(np.mean(truths))
        figures, ends, noted = tally(table[passed], truth, count)
        label = "mG-Pass" if tau is None else f"G-Pass τ={tau:g}"
        for draw in range(min(CHECKED, draws)):
            problems = [Problem(f"t{i}", n, int(c)) for i, c in enumerate(passed[draw])]
            row = summarize(problems, [k], tau=0.5 if tau is None else tau).g_pass.results[0]
            check(f"{label} {scenario} draw {draw}", row.mg_pass if tau is None else row.g_pass,
                  ends[draw], noted[draw], count)
        rows.append({**scenario, "statistic": label, "tau": tau, "truth": truth, **figures})
    return rows


def per_problem_table(n, k, tau):
    """G-Pass@k_tau (tau None: mG-Pass@k) of c = 0..n passing samples of n."""
    if tau is None:
        return estimate_mg_pass_at_k(n, np.arange(n + 1), k)
    return estimate_g_pass_at_k(n, np.arange(n + 1), k, tau)


def robustness(seed, draws, row):
    """A G-Pass row's scenario again: with rates drawn afresh for each problem of each draw (the truth the mixture's
    beta-binomial tail, exact), and in OTHER_POPULATIONS other finite populations of POPULATION types."""
    index = [rates.name for rates in RATES].index(row["rates"])
    rates, count, n, k, tau = RATES[index], row["P"], row["n"], row["k"], row["tau"]
    table = per_problem_table(n, k, tau)
    rng = scenario_rng(seed, "fresh", index, count, n, k)
    truth = statistic_truth(lambda least: rates.tail(k, least), k, tau)
    fresh, _, _ = tally(table[rng.binomial(n, rates.fresh(rng, (draws, count)))], truth, count)
    others = []
    for population in range(1, OTHER_POPULATIONS + 1):
        types = rates.types(scenario_rng(seed, "rates", index, population), POPULATION)
        rng = scenario_rng(seed, "g_pass", index, count, n, k, population)
        passed = rng.binomial(n, types[rng.integers(0, types.size, (draws, count))])
        other = float(np.mean(statistic_truth(lambda least: binom.sf(least - 1, k, types), k, tau)))
        others.append(tally(table[passed], other, count)[0]["coverage"])
    return {**{key: row[key] for key in ("statistic", "rates", "P", "n", "k", "coverage")},
            "fresh_truth": truth, "fresh": fresh, "others": others}


MIRROR_RATES = (Rates("Beta(5, 2)", beta=(5.0, 2.0)), Rates("Beta(2, 5)", beta=(2.0, 5.0)))
MIRROR_PROBLEMS = (20, 100, 500)
MIRROR_SAMPLES_AND_K = ((8, 4), (16, 4), (8, 8), (16, 8))


def mirror_case(seed, draws, rates_index, count, n, k, population):
    """pass@k and pass^k of one draw set (the same samples), each through summarize()'s row for the first draws."""
    rates = population[rates_index]
    rng = scenario_rng(seed, "mirror", rates_index, count, n, k)
    passed = rng.binomial(n, rates[rng.integers(0, rates.size, (draws, count))])
    correct = np.arange(n + 1)
    scenario = {"rates": MIRROR_RATES[rates_index].name, "P": count, "n": n, "k": k}
    tables = {"pass@k": (estimate_pass_at_k(np.full(n + 1, n), correct, k), 1 - (1 - rates) ** k),
              "pass^k": (np.array([pass_hat_k(n, int(c), k) for c in correct]), rates**k)}
    rows = []
    for statistic, (table, truths) in tables.items():
        truth = float(np.mean(truths))
        figures, ends, noted = tally(table[passed], truth, count)
        for draw in range(min(CHECKED, draws)):
            row = summarize([Problem(f"t{i}", n, int(c)) for i, c in enumerate(passed[draw])], [k]).results[0]
            check(f"{statistic} {scenario} draw {draw}", row if statistic == "pass@k" else row.pass_hat,
                  ends[draw], noted[draw], count)
        rows.append({**scenario, "statistic": statistic, "truth": truth, **figures})
    return rows


def canonical(counts):
    """Counts of (correct, wrong..., no answer) with the wrong ones in decreasing order: what maj@k depends on."""
    wrong = -np.sort(-counts[..., 1:-1], axis=-1)
    return np.concatenate([counts[..., :1], wrong, counts[..., -1:]], axis=-1)


def votes_of(counts):
    """A problem's (answer, verdict) votes for counts of (correct, wrong..., no answer)."""
    names = ["right", *[f"wrong {i}" for i in range(1, WRONG + 1)], None]
    return tuple((name, index == 0) for index, (name, x) in enumerate(zip(names, counts)) for _ in range(int(x)))


@functools.lru_cache(maxsize=None)
def majority_value(counts, k, tie):
    votes = votes_of(counts)
    return majority_at_k([answer for answer, _ in votes], [verdict for _, verdict in votes], k, tie)


def majority_case(seed, draws, answers_index, count, n, k, population):
    """One draw set: a row for each tie rule."""
    types = population[answers_index]
    rng = scenario_rng(seed, "majority", answers_index, count, n, k)
    picked = types[rng.integers(0, len(types), (draws, count))]
    counts = canonical(rng.multinomial(n, picked))
    codes, where = np.unique(counts.reshape(-1, counts.shape[-1]), axis=0, return_inverse=True)
    scenario = {"answers": ANSWERS[answers_index].name, "P": count, "n": n, "k": k}
    rows = []
    for tie in TIES:
        distinct = np.array([majority_value(tuple(int(x) for x in code), k, tie) for code in codes])
        truth = float(np.mean(vote_truth(types, k, tie)))
        figures, ends, noted = tally(distinct[where.reshape(-1)].reshape(draws, count), truth, count)
        for draw in range(min(CHECKED, draws)):
            problems = [Problem(f"t{i}", n, int(x[0]), votes=votes_of(x)) for i, x in enumerate(counts[draw])]
            row = summarize(problems, [k], tie=tie).majority.results[0]
            check(f"maj@k {tie} {scenario} draw {draw}", row.estimate, ends[draw], noted[draw], count)
        rows.append({**scenario, "statistic": f"maj@k {tie}", "truth": truth, **figures})
    return rows


CALIBRATION_BETAS = ((5, 2), (2, 5), (0.5, 0.5), (1, 1), (8, 1), (1, 8), (2, 2))
CALIBRATION_PROBLEMS = (20, 50, 100, 200, 500)
CALIBRATION_SAMPLES_AND_K = ((8, 4), (16, 4), (16, 8), (32, 8), (8, 2))
CALIBRATION_DRAWS = 2000


def calibration_tables(n, k):
    """Per-problem pass@k, pass^k and G-Pass@k tau=0.75 of c = 0..n passing samples of n, with their truths for
    rates drawn afresh from Beta(a, b) (the beta-binomial tails, exact)."""
    correct = np.arange(n + 1)
    return {"pass@k": (estimate_pass_at_k(np.full(n + 1, n), correct, k), lambda a, b: betabinom.sf(0, k, a, b)),
            "pass^k": (np.array([pass_hat_k(n, int(c), k) for c in correct]),
                       lambda a, b: betabinom.sf(k - 1, k, a, b)),
            "G-Pass τ=0.75": (per_problem_table(n, k, 0.75),
                              lambda a, b: betabinom.sf(g_threshold(k, 0.75) - 1, k, a, b))}


def calibrate(seed, draws, progress):
    """The wider grid population_note's bounds were chosen from (printed, not written): each problem's rate drawn
    afresh from Beta(a, b) in every draw. For each scenario: coverage, the truth's problems' worth from 0 or 1,
    and the share of draws where the tail rule (TAIL_DISTANCE, TAIL_TRIALS, P >= SKEWED_FROM) holds."""
    short, fine = [], []
    print("| statistic | rates | P | n | k | P × distance | coverage | tail rule holds |")
    print("|---|---|---|---|---|---|---|---|")
    for (a, b), count, (n, k) in itertools.product(CALIBRATION_BETAS, CALIBRATION_PROBLEMS, CALIBRATION_SAMPLES_AND_K):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 8, int(10 * a), int(10 * b), count, n, k]))
        passed = rng.binomial(n, rng.beta(a, b, (draws, count)))
        for statistic, (table, truth_of) in calibration_tables(n, k).items():
            if statistic.startswith("G-Pass") and k == 2:   # tau = 0.75 at k = 2 is pass^2
                continue
            truth = float(truth_of(a, b))
            values = table[passed]
            means = values.mean(axis=1)
            ses = values.std(axis=1, ddof=1) / math.sqrt(count)
            ends = np.array([interval(float(m), float(s), count) for m, s in zip(means, ses)])
            coverage = float(np.mean((truth >= ends[:, 0]) & (truth <= ends[:, 1])))
            clamped = np.clip(means, 0.0, 1.0)
            distances = count * np.minimum(clamped, 1 - clamped)
            trials = np.array([capped_trials(float(m), float(s), count) / count for m, s in zip(clamped, ses)])
            holds = float(np.mean((count >= SKEWED_FROM) & (distances <= TAIL_DISTANCE) & (trials > TAIL_TRIALS)))
            (short if coverage < BAND[0] else fine if coverage >= 0.94 else []).append(holds)
            print(f"| {statistic} | Beta({a:g}, {b:g}) | {count} | {n} | {k} | {count * min(truth, 1 - truth):.2f} | "
                  f"{marked(coverage)} | {percent(holds, 0)} |", flush=True)
    progress(f"{len(short)} scenarios below 93%: the rule holds in {span_of(short)} of draws (median "
             f"{percent(float(np.median(short)), 0)}); {len(fine)} at 94% or more: in {percent(np.mean(fine))} of "
             "draws on average")


# ---------------------------------------------------------------------------
# The report


def percent(value, digits=1):
    return f"{100 * value:.{digits}f}%"


def marked(value):
    text = percent(value)
    return f"**{text}**" if not BAND[0] <= value <= BAND[1] else text


def mc_se(row):
    return math.sqrt(row["coverage"] * (1 - row["coverage"]) / row["draws"])


def flag(row):
    coverage = row["coverage"]
    return "below" if coverage < BAND[0] else "above" if coverage > BAND[1] else ""


def table(rows, population_key):
    head = ["statistic", "population", "P", "n", "k", "truth", "coverage", "MC SE", "misses ↓ / ↑", "mean width",
            "n*/P", "note shown", "old rule", "outside 93-97%"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        lines.append(f"| {row['statistic']} | {row[population_key]} | {row['P']} | {row['n']} | {row['k']} | "
                     f"{row['truth']:.4f} | {marked(row['coverage'])} | {100 * mc_se(row):.2f} | "
                     f"{percent(row['truth_below'])} / {percent(row['truth_above'])} | {row['width']:.3f} | "
                     f"{row['trials']:.1f} | {percent(row['noted'], 0)} | {percent(row['noted_before'], 0)} | "
                     f"{flag(row)} |")
    return "\n".join(lines)


def summary_table(rows):
    """For each statistic: scenarios, coverage range, and how many below 93%, below POOR, above 97%."""
    lines = ["| statistic | scenarios | lowest | median | highest | below 93% | below 92% | above 97% |",
             "|---|---|---|---|---|---|---|---|"]
    for statistic in dict.fromkeys(row["statistic"] for row in rows):
        values = [row["coverage"] for row in rows if row["statistic"] == statistic]
        lines.append(f"| {statistic} | {len(values)} | {percent(min(values))} | {percent(float(np.median(values)))} "
                     f"| {percent(max(values))} | {sum(v < BAND[0] for v in values)} | {sum(v < POOR for v in values)} "
                     f"| {sum(v > BAND[1] for v in values)} |")
    return "\n".join(lines)


def name(row):
    population = row.get("rates", row.get("answers"))
    return f"{row['statistic']}, {population}, P={row['P']}, n={row['n']}, k={row['k']}"


def extremes(rows, lowest=True, many=8):
    ordered = sorted(rows, key=lambda row: row["coverage"] if lowest else -row["coverage"])[:many]
    return "\n".join(f"- {name(row)}: {percent(row['coverage'])} (truth {row['truth']:.4f}, misses "
                     f"{percent(row['truth_below'])} / {percent(row['truth_above'])}, note shown in "
                     f"{percent(row['noted'], 0)} of draws)" for row in ordered)


def section(results):
    g_rows, maj_rows = results["g_pass"], results["majority"]
    draws = results["draws"]
    se95 = 100 * math.sqrt(0.95 * 0.05 / draws)
    words = "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 110)
                        for paragraph in results["words"].split("\n\n"))
    return "\n".join([
        BEGIN,
        "## maj@k and G-Pass@k (issue 17)",
        "",
        f"*Generated by `bench/coverage_beside.py`; do not edit by hand.* Command: `{results['command']}`. "
        f"Seed {results['seed']}, {draws:,} draws per scenario (Monte Carlo SE of a 95% coverage: {se95:.2f} "
        f"points), {results['runtime_seconds'] / 60:.1f} minutes on {results['machine']}.",
        "",
        "**Method.** The population interval of pass@k (above), applied as passk.results.metrics applies it to the "
        "per-problem values of maj@k, G-Pass@k_tau and mG-Pass@k: the mean over problems, s / sqrt(P) and "
        "population_interval. \"Problems like these\" is a population of "
        f"{POPULATION:,} problem types drawn once per scenario from the seed (mixtures with exactly their shares "
        "never and always solved); each draw takes P types with replacement and samples each n times; the truth is "
        "the population's mean of each type's true value, exact. For G-Pass@k_tau a type is a pass rate p and its "
        "true value P(Bin(k, p) ≥ ⌈τk⌉) (mG-Pass@k: (2/k) Σ_{i=⌈k/2⌉+1..k} P(Bin(k, p) ≥ i)); "
        "the rates are "
        "Beta(0.5, 0.5), Beta(2, 5), \"mix 30/20\" (30% at 0, 20% at 1, the rest uniform) and \"mix 85/10\". "
        "For maj@k a type is a distribution over one correct answer, three wrong ones and no answer, and its true "
        "value the expected score of a vote over k independent draws, summed over every composition of k into "
        "the five categories (the tie rule scoring each). \"spread\": chance of the correct answer uniform, "
        "no answer up to 30% of the rest, the wrong answers sharing the remainder by Dirichlet(1, 1, 1); "
        "\"mix 30/20\" and \"mix 85/10\": that share of problems whose samples are always wrong (no sample has the "
        "correct answer) and always right; \"one rival\": chance of the correct answer Beta(2, 3) and the wrong "
        "share mostly on one wrong answer (Dirichlet(0.2, 0.2, 0.2)). The three taus and mG-Pass@k share each "
        "draw's samples, and so do the two tie rules. The first "
        f"{CHECKED} draws of every scenario go through summarize() itself, interval and note, and the run stops "
        "if they differ from the fast path. Misses ↓ / ↑: the share of draws with the truth below the interval "
        "/ above it. n*/P: the median over draws of the trials the interval reads the mean at, mean (1 - mean) "
        "/ SE² after the boundary cap (intervals.capped_trials, before the t scaling), per problem: 1 for "
        "pass/fail values, more when the values are fractions with little spread. \"note shown\": the share of "
        "draws whose row carries population_note's sentence; \"old rule\": the same under the rule before the note "
        "for a mean near 0 or 1 (the section \"Near 0 or 1 with a thin tail\"). Figures outside 93-97% are in bold.",
        "",
        words,
        "",
        "### Summary",
        "",
        summary_table(g_rows + maj_rows),
        "",
        "Lowest coverage:",
        "",
        extremes(g_rows + maj_rows),
        "",
        "Highest coverage:",
        "",
        extremes(g_rows + maj_rows, lowest=False, many=5),
        "",
        "### The G-Pass shortfalls again",
        "",
        "Each G-Pass scenario below 93% (once where, at k = 2, three statistics are one) drawn again: with "
        "each problem's rate drawn afresh from the mixture in every draw (bench/coverage.py's population method; "
        "the truth the mixture's beta-binomial tail, exact), and in "
        f"{OTHER_POPULATIONS} other populations of {POPULATION:,} types from other seeds, {draws:,} draws each.",
        "",
        shortfall_table(results["shortfalls"]),
        "",
        "### G-Pass@k_tau and mG-Pass@k",
        "",
        table(g_rows, "rates"),
        "",
        "### maj@k",
        "",
        table(maj_rows, "answers"),
        END,
    ])


TAIL_BEGIN = "<!-- bench/coverage_beside.py tail note: begin -->"
TAIL_END = "<!-- bench/coverage_beside.py tail note: end -->"


def held_in(row, key):
    return "–" if row[key] is None else percent(row[key], 0)


def tail_section(results):
    """The section on the coverage note for a mean near 0 or 1 with a thin tail: pass@k and pass^k of skewed rates,
    and the note's figures over every scenario of the run."""
    mirror, draws = results["mirror"], results["draws"]
    every = results["g_pass"] + results["majority"] + mirror
    mostly = [row for row in every if row["tail_noted"] >= 0.5]
    low, high = min(row["coverage"] for row in mostly), max(row["coverage"] for row in mostly)
    short = [row for row in every if row["coverage"] < BAND[0]]
    fine = [row for row in every if row["coverage"] >= BAND[0]]
    shown = sum(row["tail_noted"] * row["draws"] for row in every)
    held = sum(row["covered_when_tail"] * row["tail_noted"] * row["draws"] for row in every if row["tail_noted"])
    head = ["statistic", "rates", "P", "n", "k", "truth", "P × distance", "coverage", "misses ↓ / ↑", "n*/P",
            "note before", "note after", "held: tail note / no note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in mirror:
        distance = row["P"] * min(row["truth"], 1 - row["truth"])
        lines.append(f"| {row['statistic']} | {row['rates']} | {row['P']} | {row['n']} | {row['k']} | "
                     f"{row['truth']:.4f} | {distance:.1f} | {marked(row['coverage'])} | "
                     f"{percent(row['truth_below'])} / {percent(row['truth_above'])} | {row['trials']:.1f} | "
                     f"{percent(row['noted_before'], 0)} | {percent(row['noted'], 0)} | "
                     f"{held_in(row, 'covered_when_tail')} / {held_in(row, 'covered_when_silent')} |")
    short_lines = [f"- {name(row)}: {percent(row['coverage'])}, note before {percent(row['noted_before'], 0)}, "
                   f"after {percent(row['noted'], 0)}; held the truth in {held_in(row, 'covered_when_tail')} of the "
                   f"draws with the tail note and {held_in(row, 'covered_when_silent')} of those without a note"
                   for row in sorted(short, key=lambda row: row["coverage"])]
    words = f"""\
**The rule.** passk.maths.intervals.population_note speaks, besides its older case (skewed values mostly strictly
inside (0, 1), 20 to 199 problems), when there are at least {SKEWED_FROM} problems, the mean is at most
{TAIL_DISTANCE:g} problems' worth from 0 or 1 (P min(mean, 1 − mean)), and the interval reads the values at more
than {TAIL_TRIALS:g} trials per problem (n*/P after the boundary cap): values exactly 0 (or 1) and a tail of
fractions. Pass/fail values read as one trial per problem (their exact coverage is the mid-p interval's own), and
a mean exactly at 0 or 1 too. The bounds were chosen on the grid of the section "Thin tails: the draws without a
note" (`bench/coverage_tails.py`), so that in each scenario there below 93% the draws without a note hold the
truth 93% of the time or more; an earlier rule (1.25–6 problems' worth, 1.4 trials per problem) left the misses
in the draws whose mean came out nearest the boundary.

**This run.** Over all {len(every)} scenarios of this run (G-Pass@k_tau and mG-Pass@k, maj@k, and pass@k and
pass^k below), the note for a mean near 0 or 1 showed in at least half the draws of {len(mostly)}; there the
population interval held the truth {100 * low:.1f}–{100 * high:.1f}% of the time (intervals.TAIL_COVERAGE, the
range the note states). Over the {shown:,.0f} draws it showed in, the interval held the truth in
{percent(held / shown)}. The {len(short)} scenarios below 93% show a note (either case) in
{span_of([row['noted'] for row in short]) if short else '–'} of draws (before this rule:
{span_of([row['noted_before'] for row in short]) if short else '–'}); the {len(fine)} at 93% or more show it in
{percent(sum(row['noted'] for row in fine) / len(fine))} of draws on average (before:
{percent(sum(row['noted_before'] for row in fine) / len(fine))}). The interval itself is unchanged, so the
coverage figures are those before the rule too.

**What the note can and cannot see.** The note is evidence about data like these, not about the one draw: it
speaks in most draws of scenarios that cover 95% or more too (the table: "note after"), since a draw cannot tell
a population that covers 88% from one that covers 97%. Where it stays silent in a scenario that covers 93% or
more, the silent draws are that scenario's extremes (a mean more than {TAIL_DISTANCE:g} problems' worth out, or
values nearly all 0 or 1), and they hold the misses any 95% interval is allowed (the list below: held when the
tail note shows / when no note shows)."""
    return "\n".join([
        TAIL_BEGIN,
        "## Near 0 or 1 with a thin tail: pass@k and pass^k, and the coverage note",
        "",
        f"*Generated by `bench/coverage_beside.py`; do not edit by hand.* Command: `{results['command']}`. "
        f"Seed {results['seed']}, {draws:,} draws per scenario.",
        "",
        "**Method.** As in the section above: pass@k and pass^k (both through summarize()'s rows for the first "
        f"{CHECKED} draws of each scenario) from pass rates Beta(5, 2), piled near 1, and Beta(2, 5), piled near 0, "
        f"in populations of {POPULATION:,} types; the truths are the populations' means of 1 − (1 − p)^k and p^k. "
        "P × distance: the truth's problems' worth from 0 or 1. \"note before\" / \"note after\": the share of draws "
        "whose row carries population_note's sentence under the old rule (20 to 199 problems, |skewness| ≥ 2, at "
        "least half the values strictly inside (0, 1)) and under the rule now in passk.",
        "",
        "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 110) for paragraph in words.split("\n\n")),
        "",
        "Every scenario of this run below 93%:",
        "",
        "\n".join(short_lines),
        "",
        "\n".join(lines),
        TAIL_END,
    ])


def write_section(text, path, begin=BEGIN, end=END):
    """Replace the section between the markers of path, or append it."""
    old = path.read_text()
    if begin in old and end in old:
        new = old[:old.index(begin)] + text + old[old.index(end) + len(end):]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.write_text(new)


def span(rows):
    return span_of([row["coverage"] for row in rows])


def span_of(values):
    return f"{percent(min(values))}–{percent(max(values))}"


def shortfall_table(shortfalls):
    """Each G-Pass scenario below 93% again, with rates drawn afresh and in other populations."""
    lines = ["| scenario | this population | rates afresh: truth | coverage | misses ↓ / ↑ | "
             f"{OTHER_POPULATIONS} other populations: lowest–highest | median |", "|---|---|---|---|---|---|---|"]
    for row in shortfalls:
        fresh = row["fresh"]
        lines.append(f"| {name(row)} | {marked(row['coverage'])} | {row['fresh_truth']:.4f} | "
                     f"{marked(fresh['coverage'])} | "
                     f"{percent(fresh['truth_below'])} / {percent(fresh['truth_above'])} | "
                     f"{span_of(row['others'])} | {percent(float(np.median(row['others'])))} |")
    return "\n".join(lines)


def one(rows, statistic, population, count, n, k):
    """The single row of rows for this scenario."""
    found = [row for row in rows if (row["statistic"], row.get("rates", row.get("answers")), row["P"], row["n"],
                                     row["k"]) == (statistic, population, count, n, k)]
    if len(found) != 1:
        raise LookupError(f"{len(found)} rows for {statistic}, {population}, P={count}, n={n}, k={k}")
    return found[0]


def words_for(results):
    """The plain-words paragraphs: this run's figures, the words written for the default run (seed SEED)."""
    g_rows, maj_rows = results["g_pass"], results["majority"]
    rows = g_rows + maj_rows
    below = [row for row in rows if row["coverage"] < BAND[0]]
    above = [row for row in rows if row["coverage"] > BAND[1]]
    g_below = [row for row in g_rows if row["coverage"] < BAND[0]]
    worst = one(g_rows, "G-Pass τ=1", "Beta(2, 5)", 500, 16, 8)
    second = one(g_rows, "G-Pass τ=1", "Beta(2, 5)", 100, 8, 4)
    noted = one(g_rows, "G-Pass τ=1", "Beta(2, 5)", 100, 16, 4)
    others = [row for row in g_below if row is not worst and row is not second]
    again = {(row["statistic"], row["P"], row["n"], row["k"]): row for row in results["shortfalls"]}
    worst_again, second_again = (again[(row["statistic"], row["P"], row["n"], row["k"])] for row in (worst, second))
    others_again = [row for row in results["shortfalls"] if row is not worst_again and row is not second_again]
    small = [row for row in maj_rows if row["P"] == 10]
    mixed = [row for row in rows if row.get("rates", row.get("answers")) == "mix 85/10" and row["P"] <= 20]
    return f"""\
**In plain words.** Of {len(rows)} scenarios ({len(g_rows)} of G-Pass@k_tau and mG-Pass@k, {len(maj_rows)} of
maj@k), {len(below)} cover below 93% ({sum(row['coverage'] < POOR for row in rows)} below 92%) and {len(above)}
above 97% (the figures are this run's; the words were written for the default run, seed {SEED} with
{DRAWS:,} draws). maj@k covers {span(maj_rows)} with either tie rule: never below 93%, with problems always or never
right, with 10 problems and at n = 2k. (At k = 2, G-Pass τ=0.75, τ=1 and mG-Pass@2 are one statistic, the chance
that both draws pass, and G-Pass τ=0.5 is pass@2, so their rows agree.)

**Where it falls short, and why.** Every G-Pass scenario below 93% ({len(g_below)}: {span(g_below)}) has
Beta(2, 5) rates and a tail that needs most of the k draws to pass (τ = 0.75 or 1, or mG-Pass@k). Most problems
then have a value near 0 and a few, the ones with high rates, carry most of the mean: the truth is only a few
problems' worth (P × truth = {worst['P'] * worst['truth']:.1f} at P = 500, k = 8 and
{second['P'] * second['truth']:.1f} at P = 100, k = 4). A draw of P problems often holds fewer of them than the
population does, and then its mean and its SE both come out small, so the interval lies below the truth: the
misses are on that side ({percent(worst['truth_above'])} and {percent(second['truth_above'])} of draws, against
{percent(worst['truth_below'])} and {percent(second['truth_below'])} the other way). Clearly short are
G-Pass@8 τ=1 at P = 500, n = 16 ({percent(worst['coverage'])}, truth {worst['truth']:.4f}) and G-Pass@4 τ=1 at
P = 100, n = 8 ({percent(second['coverage'])}, truth {second['truth']:.4f}). Drawn again with each problem's
rate drawn afresh in every draw (pass@k's
population method above) they cover {percent(worst_again['fresh']['coverage'])} and
{percent(second_again['fresh']['coverage'])}, and in {OTHER_POPULATIONS} other populations of {POPULATION:,}
types {span_of(worst_again['others'])} and {span_of(second_again['others'])}: at P = 500 coverage swings with
the handful of high-rate types a population happens to hold, at P = 100 it stays low. pass^k's row in the
pass@k table is G-Pass τ=1 with the same values and the same interval, so it shares these figures. The values
there are fractions
(C(c, 8)/C(16, 8) is 1/12,870 at c = 8), so the interval reads the mean at mean (1 − mean) / SE² ≈
{worst['trials']:.1f} and {second['trials']:.1f} trials per problem, and the boundary cap that falls back to one
pass/fail trial per problem binds only within about a quarter of a problem's worth of 0. The coverage note
(population_note) now speaks in these, in {percent(worst['noted'], 0)} and {percent(second['noted'], 0)} of
draws (before, when it spoke only from 20 to 199 problems with at least half the values strictly between 0
and 1, in {percent(worst['noted_before'], 0)} and {percent(second['noted_before'], 0)}): a mean at most
{TAIL_DISTANCE:g} problems' worth from 0 or 1 read at more than {TAIL_TRIALS:g} trials per problem (the section
"Near 0 or 1 with a thin tail" below). G-Pass@4 τ=1 at P = 100, n = 16 covers
{percent(noted['coverage'])} with the note in {percent(noted['noted'], 0)} of draws. The other {len(others)}
below 93% cover {span(others)}, at P = 20 and 100 (rates drawn afresh:
{span_of([row['fresh']['coverage'] for row in others_again])}), with the note in
{span_of([row['noted'] for row in others])} of draws.

**Where it is wider than it need be.** Over 97%: maj@k at P = 10 ({span(small)} over all its scenarios) and the
85/10 mixtures at P ≤ 20 ({span(mixed)}), where most values are exactly 0 or 1, so the interval is a binomial
one over a handful of problems (n*/P ≈ 1) with few degrees of freedom; and G-Pass τ=1 from Beta(2, 5) rates at
P = 20 and 100 with truths of a few hundredths, where the boundary cap binds (n*/P 1-3). These keep the promise
at the cost of width, as pass@k's population interval does in the same places (above)."""


# ---------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DRAWS} draws a scenario, printed only")
    parser.add_argument("--draws", type=int, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--calibrate", action="store_true", help="the wider grid the coverage note's bounds were "
                        f"chosen from, printed only ({CALIBRATION_DRAWS:,} draws a scenario unless --draws; 1-2 "
                        "minutes)")
    parser.add_argument("--out", default=None, help="the Markdown file whose section to write (default: "
                        "docs/coverage.md, none with --quick)")
    arguments = parser.parse_args()
    draws = arguments.draws or (QUICK_DRAWS if arguments.quick else DRAWS)
    out = Path(arguments.out) if arguments.out else None if arguments.quick else DOCS
    seed = arguments.seed
    started = time.perf_counter()

    def progress(message):
        print(f"[{time.perf_counter() - started:7.1f} s] {message}", file=sys.stderr, flush=True)

    if arguments.calibrate:
        calibrate(seed, arguments.draws or CALIBRATION_DRAWS, progress)
        return

    rates = [rate.types(scenario_rng(seed, "rates", index), POPULATION) for index, rate in enumerate(RATES)]
    answers = [kind.types(scenario_rng(seed, "answers", index), POPULATION) for index, kind in enumerate(ANSWERS)]
    g_rows, maj_rows = [], []
    for index, count, (n, k) in itertools.product(range(len(RATES)), G_PROBLEMS, G_SAMPLES_AND_K):
        rows = g_pass_case(seed, draws, index, count, n, k, rates)
        g_rows += rows
        progress(" · ".join(f"{name(row)} {percent(row['coverage'])}" for row in rows))
    shortfalls, seen = [], set()
    for row in g_rows:
        table = per_problem_table(row["n"], row["k"], row["tau"])
        key = (row["rates"], row["P"], row["n"], row["k"], table.tobytes())   # at k = 2 three statistics are one
        if row["coverage"] < BAND[0] and key not in seen:
            seen.add(key)
            shortfalls.append(robustness(seed, draws, row))
            progress(f"{name(row)} again: rates afresh {percent(shortfalls[-1]['fresh']['coverage'])}, other "
                     f"populations {span_of(shortfalls[-1]['others'])}")
    for index, count, (n, k) in itertools.product(range(len(ANSWERS)), MAJ_PROBLEMS, MAJ_SAMPLES_AND_K):
        rows = majority_case(seed, draws, index, count, n, k, answers)
        maj_rows += rows
        progress(" · ".join(f"{name(row)} {percent(row['coverage'])}" for row in rows))
    mirror_rates = [rate.types(scenario_rng(seed, "mirror_rates", index), POPULATION)
                    for index, rate in enumerate(MIRROR_RATES)]
    mirror_rows = []
    for index, count, (n, k) in itertools.product(range(len(MIRROR_RATES)), MIRROR_PROBLEMS, MIRROR_SAMPLES_AND_K):
        rows = mirror_case(seed, draws, index, count, n, k, mirror_rates)
        mirror_rows += rows
        progress(" · ".join(f"{name(row)} {percent(row['coverage'])} note {percent(row['noted'], 0)}"
                            for row in rows))
    command = ".venv/bin/python bench/coverage_beside.py" + (" --quick" if arguments.quick else "") + "".join(
        f" --{key} {value}" for key, value, default in (("draws", arguments.draws, None), ("seed", seed, SEED))
        if value != default)
    results = {"seed": seed, "draws": draws, "command": command, "g_pass": g_rows, "majority": maj_rows,
               "shortfalls": shortfalls, "mirror": mirror_rows,
               "runtime_seconds": time.perf_counter() - started,
               "machine": f"{os.cpu_count()} CPUs ({platform.machine()}), Python {platform.python_version()}, "
                          f"numpy {np.__version__}, shared with other work"}
    results["words"] = words_for(results)
    text, tail = section(results), tail_section(results)
    print(text, tail, sep="\n\n")
    if out is not None:
        write_section(text, out)
        write_section(tail, out, TAIL_BEGIN, TAIL_END)
        progress(f"wrote the two sections of {out}")


if __name__ == "__main__":
    main()
