"""The rows beside pass@k: maj@k from the samples' extracted answers, and G-Pass@k_tau with mG-Pass@k.

Each is the mean over problems of a per-problem value in [0, 1] that is
unbiased for its problem (passk.maths.majority averages the vote over every
k-subset of the samples, passk.maths.gpass sums the hypergeometric tail), so each
gets pass@k's error bars across problems: s / sqrt(P) and the population
interval (passk.maths.intervals), with its note where the values are skewed and
few. The fixed-benchmark SE is pass@k's and pass^k's only (passk.maths.variance).
A k is defined when every problem has at least k samples, as for pass@k.
"""

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypedDict

import numpy as np

from passk.grammar import plural
from passk.maths.estimator import Floats, Ints, distinct_pairs
from passk.formats._core import Vote
from passk.maths.gpass import estimate_g_pass_at_k, estimate_mg_pass_at_k, tail_cost, threshold
from passk.maths.means import exact_total
from passk.maths.intervals import population_note, shape, spread_and_interval
from passk.maths.passfail import binary_note
from passk.maths.majority import Tie, inconsistent_answers, majority_at_k_exact, vote_cost, vote_score
from passk.maths.scores import (max_at_k_cost, max_at_k_exact, nearest_mean, sample_variance, score_sums, seed_spread,
                                sqrt_nearest)


@dataclass(frozen=True)
class Beside:
    """What to compute beside pass@k: G-Pass@k at tau (None: not asked for), and maj@k's rule for a tie."""
    tau: float | None = None
    tie: Tie = "fractional"


@dataclass
class Estimate:
    """A mean over problems with its SE and 95% interval (None below two problems), and the interval's note."""
    value: float
    se: float | None
    ci95: tuple[float, float] | None
    coverage_note: str | None = None


class _Row:
    """A row beside pass@k's at one k (its columns: passk.writing.answers.COLUMNS_OF)."""
    reason: str | None

    @property
    def defined(self) -> bool:
        """False where some problem has fewer than k samples, or the k was left out (reason says why)."""
        return self.main is not None

    @property
    def main(self) -> Estimate | None:
        raise NotImplementedError

    @property
    def coverage_note(self) -> str | None:
        return self.main.coverage_note if self.main else None


@dataclass
class _FirstKRow(_Row):
    """A statistic over every k-subset at one k (estimate; None where some problem has fewer than k samples) beside
    the same over the first k samples (first_k)."""
    k: int
    estimate: Estimate | None
    first_k: float | None
    reason: str | None = None

    @property
    def main(self) -> Estimate | None:
        return self.estimate


@dataclass
class MajorityRow(_FirstKRow):
    """maj@k at one k: over every k-subset (estimate), and NeMo-Skills' vote over the first k samples (first_k)."""


class VotingBuys(TypedDict):
    """What voting over all n samples does that a single sample does not, counted in problems."""
    right_below_half: int    # the vote is right (score 1) though fewer than half the samples are (pass@1 < 0.5)
    wrong_from_half: int     # the vote is not right (score 0) though at least half the samples are
    problems: int
    sentence: str


@dataclass
class Majority:
    """maj@k of a benchmark for each k, maj@n, and what voting buys; tie: the rule for a tied vote."""
    tie: Tie
    results: list[MajorityRow]
    at_n: Estimate                    # the vote over all of each problem's samples: maj@n
    voting_buys: VotingBuys
    judged_both_ways: list[str] = field(default_factory=list)   # problems where one answer is judged both ways


@dataclass
class GPassRow(_Row):
    """G-Pass@k_tau and mG-Pass@k at one k (None where some problem has fewer than k samples)."""
    k: int
    g_pass: Estimate | None
    mg_pass: Estimate | None
    reason: str | None = None

    @property
    def main(self) -> Estimate | None:
        return self.g_pass


@dataclass
class GPass:
    """G-Pass@k_tau (at least ceil(tau k) of k drawn samples pass) and mG-Pass@k for each k."""
    tau: float
    results: list[GPassRow]


def estimate(values: Floats, weights: Ints | None = None, exact: Fraction | None = None) -> Estimate:
    """The mean of per-problem values (values[i] held by weights[i] problems, 1 each by default) with its SE,
    95% interval and note; exact, when given, is the mean's exact value (rounded once)."""
    weights = np.ones(values.size, dtype=np.int64) if weights is None else weights
    count = int(weights.sum())
    mean = float(exact) if exact is not None else math.fsum(np.repeat(values, weights).tolist()) / count
    se, ci95 = spread_and_interval(values, weights, mean, count)
    note = (population_note(count, *shape(values, weights, mean)) or binary_note(values, weights)) if ci95 else None
    return Estimate(mean, se, ci95, note)


MEAN_DENOMINATORS = 64   # exact means of Fractions with at most this many different denominators


def exact_mean(values: Sequence[Fraction]) -> Fraction | None:
    """The exact mean of the values, or None when they have more than MEAN_DENOMINATORS different denominators
    (their sum's denominator would grow with each; estimate then sums the rounded values, math.fsum)."""
    by_denominator: dict[int, int] = {}
    for value in values:
        by_denominator[value.denominator] = by_denominator.get(value.denominator, 0) + value.numerator
        if len(by_denominator) > MEAN_DENOMINATORS:
            return None
    total = sum((Fraction(numerator, denominator) for denominator, numerator in by_denominator.items()), Fraction(0))
    return total / len(values)


def undefined(k: int, samples: Ints, statistic: str) -> str | None:
    """Why statistic at k is undefined (some problems have fewer than k samples), or None when it is defined."""
    short = int(np.count_nonzero(samples < k))
    if not short:
        return None
    return (f"{statistic} is undefined: {plural(short, 'problem')} {'has' if short == 1 else 'have'} fewer than "
            f"{k:,} samples, and every problem needs n ≥ {k:,}.")


def g_pass_table(samples: Ints, correct: Ints, ks: Sequence[int], tau: float, work: float | None = None) -> GPass:
    """G-Pass@k_tau and mG-Pass@k over the problems (n_i = samples, c_i = correct) for each k.

    work bounds the tails' estimated microseconds (passk.maths.gpass.tail_cost, priced per different (n, c) pair;
    None: no bound): a k that would pass it is left out with a reason, before any of it is computed.
    """
    threshold(1, tau)   # ValueError for a tau outside [0, 1]
    pairs, where = distinct_pairs(samples, correct)
    weights = np.bincount(where, minlength=len(pairs))
    rows = []
    spent = 0.0
    for k in ks:
        reason = undefined(k, samples, f"G-Pass@{k:,}")
        if not reason and work is not None:
            cost = math.fsum(tail_cost(pairs[:, 0], pairs[:, 1], k, tau).tolist())
            if spent + cost > work:
                reason = g_pass_left_out(k, tau, cost, len(pairs), work)
            else:
                spent += cost
        if reason:
            rows.append(GPassRow(k, None, None, reason))
            continue
        rows.append(GPassRow(k, estimate(estimate_g_pass_at_k(pairs[:, 0], pairs[:, 1], k, tau), weights,
                                         _g_pass_exact_mean(pairs, weights, k, tau)),
                             estimate(estimate_mg_pass_at_k(pairs[:, 0], pairs[:, 1], k), weights)))
    return GPass(tau, rows)


def _g_pass_exact_mean(pairs: Ints, weights: Ints, k: int, tau: float) -> Fraction | None:
    """G-Pass@k_tau's exact mean where it is pass@k (one pass needed: tau up to 1/k) or pass^k (all k), from
    passk.maths.means as theirs are, so the three agree to the bit; None otherwise, or where that is not afforded."""
    needed = threshold(k, tau)
    samples, correct = pairs[:, 0], pairs[:, 1]
    total = exact_total(samples, correct, weights, k) if needed == 1 else \
        exact_total(samples, samples - correct, weights, k, miss=True) if needed == k else None
    return None if total is None else total / int(weights.sum())


def g_pass_left_out(k: int, tau: float, cost: float, pairs: int, work: float) -> str:
    """Why G-Pass@k at k is not computed in a request whose tails may take work microseconds in all."""
    return (f"G-Pass@{k:,} is not computed here: its tails would take about {cost / 1e6:,.1f} s for these "
            f"{plural(pairs, 'different (n, c) pair')}, past the {work / 1e6:,.1f} s of G-Pass@k one request may "
            f"compute; the passk command computes it without limits (`passk FILES -k {k} --tau {tau}`).")


def majority_table(task_ids: Sequence[str], votes: Sequence[Sequence[Vote]], ks: Sequence[int],
                   tie: Tie = "fractional", work: float | None = None) -> Majority:
    """maj@k for each k, maj@n and what voting buys, from each problem's (answer, verdict) votes.

    work bounds the voting's estimated microseconds (passk.maths.majority.vote_cost; None: no bound): a k that would
    pass it is left out with a reason, before any of it is computed.
    """
    answers = [[answer for answer, _ in problem] for problem in votes]
    verdicts = [[bool(verdict) for _, verdict in problem] for problem in votes]
    samples = np.array([len(problem) for problem in votes], dtype=np.int64)
    rows = []
    spent = 0.0
    for k in ks:
        reason = undefined(k, samples, f"maj@{k:,}")
        if not reason and work is not None:
            cost = math.fsum(vote_cost(a, v, k, tie) for a, v in zip(answers, verdicts))
            spent += cost
            if spent > work:
                spent -= cost
                reason = (f"maj@{k:,} is not computed here: its vote counting would take about {cost / 1e6:.1f} s "
                          f"for these {plural(len(votes), 'problem')}; the command line computes it "
                          "(`passk FILES -k ...`).")
        if reason:
            rows.append(MajorityRow(k, None, None, reason))
            continue
        exact = [majority_at_k_exact(a, v, k, tie) for a, v in zip(answers, verdicts)]
        first = sum((vote_score(a[:k], v[:k], tie) for a, v in zip(answers, verdicts)), Fraction(0))
        rows.append(MajorityRow(k, estimate(np.array([float(value) for value in exact]), exact=exact_mean(exact)),
                                float(first / len(votes))))
    scores = [vote_score(a, v, tie) for a, v in zip(answers, verdicts)]
    at_n = estimate(np.array([float(score) for score in scores]), exact=sum(scores, Fraction(0)) / len(scores))
    judged = [task_id for task_id, a, v in zip(task_ids, answers, verdicts) if inconsistent_answers(a, v)]
    return Majority(tie, rows, at_n, _voting_buys(scores, verdicts), judged)


def _voting_buys(scores: Sequence[Fraction], verdicts: Sequence[Sequence[bool]]) -> VotingBuys:
    """The problems where the vote over all samples is right though fewer than half the samples are, and the
    other way round."""
    below = sum(score == 1 and 2 * sum(v) < len(v) for score, v in zip(scores, verdicts))
    from_half = sum(score == 0 and 2 * sum(v) >= len(v) for score, v in zip(scores, verdicts))
    problems = len(scores)
    sentence = (f"Voting over all samples picks a correct answer on {plural(below, 'problem')} "
                f"({100 * below / problems:.1f}%) where fewer than half the samples are correct (pass@1 < 0.5), "
                f"and misses on {plural(from_half, 'problem')} ({100 * from_half / problems:.1f}%) where at least "
                "half are: the answers of the correct samples differ, or the wrong ones agree.")
    return {"right_below_half": below, "wrong_from_half": from_half, "problems": problems, "sentence": sentence}


# ---------------------------------------------------------------------------
# From each sample's score in [0, 1] (Problem.scores; passk.maths.scores): the graded mean and max@k, avg@k and the seeds


@dataclass
class GradedRow(_FirstKRow):
    """max@k at one k: the expected best of k scores over every k-subset (estimate), and the mean best of the first
    k samples (first_k, NeMo-Skills' pass@k for scores that are not 0/1)."""


@dataclass
class Graded:
    """Graded scores: the mean score (the mean over problems of each problem's mean score) and max@k for each k."""
    mean: Estimate
    results: list[GradedRow]


@dataclass
class AverageRow(_Row):
    """avg@k at one k (the mean of the first k samples' scores) and, where the samples are seeds, the spread of the
    first k seeds' means (their sample SD and its SE) and the mean of each problem's SD over its first k."""
    k: int
    estimate: Estimate | None    # None where some problem has fewer than k samples
    seeds_sd: float | None = None
    seeds_se: float | None = None
    within_sd: float | None = None
    reason: str | None = None

    @property
    def main(self) -> Estimate | None:
        return self.estimate


@dataclass
class Averages:
    """avg@k for each k; seeds: the n of every problem when all have the same (sample j drawn by seed j), else
    None (no spread across seeds)."""
    seeds: int | None
    results: list[AverageRow]


def graded(scores: Sequence[Sequence[float]]) -> bool:
    """Whether some sample's score is neither 0 nor 1, so that the mean score and max@k say more than pass@k."""
    return any(score not in (0.0, 1.0) for problem in scores for score in problem)


def graded_table(scores: Sequence[Sequence[float]], ks: Sequence[int], work: float | None = None) -> Graded:
    """The mean score and max@k for each k, with first-k max beside it, from each problem's scores in order.

    work bounds max@k's estimated microseconds (passk.maths.scores.max_at_k_cost, priced per different set of scores;
    None: no bound): a k that would pass it is left out with a reason, before any of it is computed.
    """
    sums = score_sums(scores, ())
    samples = np.array([len(problem) for problem in scores], dtype=np.int64)
    by_samples: Counter[int] = Counter()   # each n's problems' sums of scores
    for total, n in zip(sums.whole, samples.tolist()):
        by_samples[n] += total
    shares = Counter({Fraction(1, n << sums.power): total for n, total in by_samples.items()})
    mean = estimate(np.array([total / (n << sums.power) for total, n in zip(sums.whole, samples.tolist())]),
                    exact=_weighted_mean(shares, len(scores)))
    ordered = [tuple(sorted(problem)) for problem in scores]
    distinct = Counter(ordered)
    rows = []
    spent = 0.0
    for k in ks:
        reason = undefined(k, samples, f"max@{k:,}")
        if not reason and work is not None:
            cost = math.fsum(max_at_k_cost(len(problem), k) for problem in distinct)
            if spent + cost > work:
                reason = (f"max@{k:,} is not computed here: its sums would take about {cost / 1e6:,.1f} s for these "
                          f"{plural(len(distinct), 'different set')} of scores; the passk command computes it "
                          f"without limits (`passk FILES -k {k}`).")
            else:
                spent += cost
        if reason:
            rows.append(GradedRow(k, None, None, reason))
            continue
        exact = {problem: max_at_k_exact(problem, k) for problem in distinct}
        nearest = {problem: float(value) for problem, value in exact.items()}
        by_value: Counter[Fraction] = Counter()
        for problem, count in distinct.items():
            by_value[exact[problem]] += count
        rows.append(GradedRow(k, estimate(np.array([nearest[problem] for problem in ordered]),
                                          exact=_weighted_mean(by_value, len(scores))),
                              nearest_mean([max(problem[:k]) for problem in scores])))
    return Graded(mean, rows)


def average_table(scores: Sequence[Sequence[float]], ks: Sequence[int]) -> Averages:
    """avg@k for each k from each problem's scores in sample order and, where every problem has the same n, the
    spread across seeds (passk.maths.scores.seed_spread, NeMo-Skills' std_dev_across_runs and std_err_across_runs)."""
    samples = np.array([len(problem) for problem in scores], dtype=np.int64)
    sums = score_sums(scores, ks)
    seeds = len(sums.seeds) or None
    rows = []
    for k in ks:
        reason = undefined(k, samples, f"avg@{k:,}")
        if reason:
            rows.append(AverageRow(k, None, reason=reason))
            continue
        firsts, squares = sums.first[k], sums.first_squares[k]
        scale = k << sums.power
        row = AverageRow(k, estimate(np.array([total / scale for total in firsts]),
                                     exact=Fraction(sum(firsts), len(firsts) * scale)))
        if seeds and k >= 2:
            row.seeds_sd, row.seeds_se = seed_spread(sums.seeds, len(scores) << sums.power, k)
            within = {pair: sqrt_nearest(*_scaled_variance(*pair, k, sums.power)) for pair in set(zip(firsts, squares))}
            row.within_sd = math.fsum(within[pair] for pair in zip(firsts, squares)) / len(scores)
        rows.append(row)
    return Averages(seeds, rows)


def _weighted_mean(weights: Counter[Fraction], count: int) -> Fraction | None:
    """The exact sum of value x weight over count, or None past MEAN_DENOMINATORS different denominators (as
    exact_mean: estimate then sums the rounded values)."""
    by_denominator: dict[int, int] = {}
    for value, weight in weights.items():
        by_denominator[value.denominator] = by_denominator.get(value.denominator, 0) + value.numerator * weight
        if len(by_denominator) > MEAN_DENOMINATORS:
            return None
    return sum((Fraction(numerator, denominator) for denominator, numerator in by_denominator.items()),
               Fraction(0)) / count


def _scaled_variance(total: int, squares: int, count: int, power: int) -> tuple[int, int]:
    """The sample variance of count scores whose sum is total / 2^power and sum of squares squares / 4^power."""
    spread, denominator = sample_variance(total, squares, count)
    return spread, denominator << (2 * power)
