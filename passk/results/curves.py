"""Two runs' pass@k over k compared: both curves with their 95% bands, the paired difference with a band that
holds at every k shown at once, where the leading run's lead stops being significant, and where the curves cross.

For P problems paired by task id, run A and run B, and n the smallest number of samples of any problem in
either run, the curves are computed at k = 1 ... n (log-spaced ks when n is large, always with 1 and n:
curve_ks below), or at the ks asked for (a range such as 1-128: every k of it). Each run's curve is the mean of its
per-problem unbiased pass@k with the pointwise 95% interval of passk.maths.intervals.population_interval, as
passk.results.benchmark.curve_over_k gives it on the benchmark page. The difference d(k) = mean_i [pass@k_A,i - pass@k_B,i] is the mean of the per-problem
differences d_i(k).

Its band is simultaneous over the ks shown (METHOD, "sup-t"): the vectors (d_i(k))_k are independent over
the problems, so the t statistics T_k = (mean d(k) - true d(k)) / SE_k are jointly about multivariate t
with P - 1 degrees of freedom and the per-problem differences' correlation across k. The critical value c
with P(max_k |T_k| <= c) = 95% is the 95% quantile of max_k |T_k| over DRAWS draws from that multivariate
t (seeded with SEED, so that an answer never changes). At each k the band is then the paired interval of
passk.maths.intervals.PairedDifference (the trinomial MOVER interval of the compare table) at the per-k level
1 - alpha*, alpha* = P(|t_{P-1}| > c): the same band as mean +- c SE where the differences are spread out,
but honest where few problems differ, as the table's interval is. With one k, or with ks whose
differences are perfectly correlated, alpha* = 5% and the band is the table's 95% interval. The coverage
was checked by simulation (bench/coverage_curves.py; docs/benchmarks.md, "Two curves over k"): the band
held the whole true curve 93.2-100% of the time in 43 of 45 scenarios (P = 20 to 500, n = 2 to 64, curves
that cross, most problems never or always solved), and 92.0% and 90.3% where a few rarely solved problems
carry a strongly skewed difference at large k.

The runs' own bands are pointwise (each k on its own), as on the benchmark page.

From the band, over the ks shown: A is significantly ahead where the band is above 0, behind where it is below
0, and undecided where it holds 0 (regions, as runs of consecutive ks shown). The 95% confidence set for the
first k where A loses (the first k shown with true d(k) < 0) holds each k shown where the band allows d(k) < 0
(its low end below 0) and allows d(j) >= 0 at every j shown before it (their high ends at least 0), and "A never
loses" when the band allows d >= 0 at every k shown. Whenever the band holds the whole true curve, the true first
loss (or "never") meets those conditions, so the set holds it with at least the band's simultaneous 95%
confidence, by construction: no further test or multiplicity correction is made.
"""

import math
from fractions import Fraction
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from passk.results.benchmark import Comparison, ProblemCounts, compare
from passk.maths.estimator import Floats, Ints, _pass_at_k_array, checked_pairs, stirling_work
from passk.maths.means import exact_total
from passk.maths.intervals import CONFIDENCE, PairedDifference, population_interval
from passk.maths.stats import t_two_sided_p
from passk.limits import TooLarge, exact_work_left, too_much_exact_work

METHOD = "sup-t"
DRAWS = 20_000     # draws of the multivariate t whose max |T| gives the critical value
SEED = 20261126    # ... drawn from this seed, so that the same runs always give the same band
DRAWN_AT_ONCE = 2_000   # draws multiplied out at once: 16 MB at 1,024 ks, whatever DRAWS is
NEGLIGIBLE = 1e-12      # correlation directions whose variance is below this share of the largest are left out

Interval: TypeAlias = tuple[float, float]
KRange: TypeAlias = tuple[int, int]   # (first, last): a run of consecutive ks shown, first = last for one k


@dataclass
class CurvePoint:
    """One k of the two curves: each run's pass@k with its pointwise 95% interval, and A - B with its
    simultaneous band (None below two problems)."""
    k: int
    a: float
    a_ci95: Interval | None
    b: float
    b_ci95: Interval | None
    difference: float
    band: Interval | None
    may_first_lose: bool | None = None   # whether k is in the confidence set for A's first loss (None: no band)

    @property
    def ahead(self) -> str | None:
        """"A" where the band is above 0, "B" where it is below, None where it holds 0 (or there is none)."""
        if self.band is None:
            return None
        return "A" if self.band[0] > 0 else "B" if self.band[1] < 0 else None

    @property
    def first_loss_text(self) -> str | None:
        """"yes" where k may be the first k where A loses (may_first_lose), else "no"; None without a band."""
        return None if self.may_first_lose is None else "yes" if self.may_first_lose else "no"

    @property
    def standing(self) -> str:
        """A's standing at k by the band: "ahead", "behind" or "undecided"."""
        return STANDINGS[self.ahead]


STANDINGS = {"A": "ahead", "B": "behind", None: "undecided"}   # CurvePoint.ahead -> A's standing


@dataclass
class Crossing:
    """Where A - B changes sign, and which run was ahead before: the first k shown with the other sign (at),
    the k shown before it (after), the first whole k with the other sign (k, found between them by
    bisection), and its interval: from the last k shown before the crossing where the band is on the first
    sign's side (low; None: none is, so from k = 1) to the first k shown where it is on the other side (high;
    None: none is up to n, so the curves may not cross at all)."""
    before: str          # "A" or "B": the run ahead before the crossing
    after: int
    at: int
    k: int
    low: int | None
    high: int | None


@dataclass
class CurveComparison:
    """Run A's and run B's pass@k over k on their paired problems, A - B with its simultaneous band, and
    the crossover: see the module docstring."""
    problems: int
    n: int
    points: list[CurvePoint]
    level: float | None          # the per-k confidence of the band (1 - alpha*), None below two problems
    critical_t: float | None     # c: the simultaneous 95% quantile of max |T_k| (None: at most one k varies)
    leader: str | None           # "A" or "B" when its lead at k = 1 is significant (the band leaves out 0)
    lead_lost_at: int | None     # the smallest k shown where that lead is no longer significant
    crossing: Crossing | None
    names: tuple[str, str] = ("run A", "run B")

    @property
    def ks(self) -> list[int]:
        return [point.k for point in self.points]

    @property
    def every_k(self) -> bool:
        """Whether the ks shown are every k from 1 to the last one (else a run of ks shown may skip some)."""
        return len(self.points) == self.points[-1].k

    def region(self, ahead: str | None) -> list[KRange]:
        """The runs of consecutive ks shown where the band says ahead: "A" (A significantly ahead, the band above
        0), "B" (A significantly behind, below 0) or None (undecided: the band holds 0, or there is none)."""
        return k_ranges(self.points, [point.ahead == ahead for point in self.points])

    def standing_regions(self) -> list[tuple[str, list[KRange], str]]:
        """(standing, its runs of ks, those written 1-37 and 65-128) for "ahead", "undecided" and "behind", each that
        occurs, in the order of their first k."""
        regions = [(STANDINGS[ahead], ranges) for ahead in ("A", None, "B") if (ranges := self.region(ahead))]
        return [(standing, ranges, ranges_text(ranges)) for standing, ranges in sorted(regions, key=lambda r: r[1])]

    @property
    def first_loss(self) -> list[KRange] | None:
        """The ks of the 95% confidence set for the first k shown where A loses (true A - B < 0), as runs of ks
        shown (points' may_first_lose); None without a band."""
        if self.points[0].band is None:
            return None
        return k_ranges(self.points, [bool(point.may_first_lose) for point in self.points])

    @property
    def first_loss_text(self) -> str | None:
        """The first-loss set in words: 'k = 41-70', 'k = 41-70, or never', 'never, up to k = 128' (None without a
        band)."""
        first_loss = self.first_loss
        if first_loss is None:
            return None
        if not first_loss:
            return f"never, up to k = {self.points[-1].k:,}"
        return f"k = {ranges_text(first_loss)}{', or never' if self.may_never_lose else ''}"

    @property
    def may_never_lose(self) -> bool | None:
        """Whether "A never loses at any k shown" is in the confidence set: every band reaches 0 or above (None
        without a band)."""
        if self.points[0].band is None:
            return None
        return all(point.band is not None and point.band[1] >= 0 for point in self.points)


def k_ranges(points: Sequence[CurvePoint], chosen: Sequence[bool]) -> list[KRange]:
    """The runs of consecutive points (consecutive among those given) that are chosen, as (first k, last k)."""
    ranges: list[KRange] = []
    for index, (point, keep) in enumerate(zip(points, chosen)):
        if keep and index and chosen[index - 1]:
            ranges[-1] = (ranges[-1][0], point.k)
        elif keep:
            ranges.append((point.k, point.k))
    return ranges


def ranges_text(ranges: Sequence[KRange]) -> str:
    """'1-37, 40 and 65-128': runs of ks written compactly."""
    texts = [f"{first:,}" if first == last else f"{first:,}-{last:,}" for first, last in ranges]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def compare_curves(problems_a: Iterable[ProblemCounts], problems_b: Iterable[ProblemCounts],
                   ks: Sequence[int] | None = None, names: tuple[str, str] = ("run A", "run B")) -> CurveComparison:
    """Run A's and run B's curves over k on the problems both have (paired by task id, as compare() pairs)."""
    return curves_of(compare(problems_a, problems_b, [1]), ks, names)


def curves_of(comparison: Comparison, ks: Sequence[int] | None = None,
              names: tuple[str, str] = ("run A", "run B")) -> CurveComparison:
    """The curves over k of a paired comparison's problems (its paired_counts, in its task ids' order)."""
    (samples_a, correct_a), (samples_b, correct_b) = comparison.paired_counts
    return two_curves(comparison.task_ids, (samples_a, correct_a), (samples_b, correct_b), ks, names)


def two_curves(task_ids: Sequence[str], counts_a: tuple[Ints, Ints], counts_b: tuple[Ints, Ints],
               ks: Sequence[int] | None = None, names: tuple[str, str] = ("run A", "run B")) -> CurveComparison:
    """The curves over k of paired problems given as arrays: (n, c) of run A and of run B, problem by problem.

    ks: the ks to show (each at most n); by default curve_ks(n, ...): every k up to n when n is
    small, else log-spaced ones, always with 1 and n.
    """
    count = len(task_ids)
    n = int(min(counts_a[0].min(), counts_b[0].min()))
    work_a_k = stirling_work(counts_a[0], counts_a[1]) + stirling_work(counts_b[0], counts_b[1])
    shown = curve_ks(n, 2 * count, work_a_k).tolist() if ks is None else sorted(set(ks))
    if not shown or shown[0] < 1 or shown[-1] > n:
        raise ValueError(_outside(shown, n))
    runs = _RunValues(counts_a), _RunValues(counts_b)
    values = [(runs[0].at(k), runs[1].at(k)) for k in shown]
    differences = np.column_stack([values_a - values_b for values_a, values_b in values])
    critical = _critical_t(differences) if count >= 2 else None
    level = None if count < 2 else CONFIDENCE if critical is None else 1 - t_two_sided_p(critical, count - 1)
    totals = [(runs[0].total(k), runs[1].total(k)) for k in shown]
    means = [float((total_a - total_b) / count) if total_a is not None and total_b is not None
             else _mean(differences[:, index]) for index, (total_a, total_b) in enumerate(totals)]
    curve_points = [CurvePoint(k, *_run_point(values_a, total_a), *_run_point(values_b, total_b), means[index],
                               None if level is None else _band(differences[:, index], means[index], level))
                    for index, (k, (values_a, values_b), (total_a, total_b))
                    in enumerate(zip(shown, values, totals))]
    _mark_first_loss(curve_points)
    leader = curve_points[0].ahead
    lost = next((point.k for point in curve_points if point.ahead != leader), None) if leader else None
    crossing = _crossing(curve_points, runs)
    return CurveComparison(count, n, curve_points, level, critical, leader, lost, crossing, names)


def _outside(ks: list[int], n: int) -> str:
    """The refusal of curve ks outside 1 to n, the smallest number of samples of a paired problem."""
    if not ks:
        return "No k given for the curves over k: choose ks from 1 to the smallest n, like 1-8."
    past = [k for k in ks if not 1 <= k <= n]
    runs = [(k, k) for k in past[:1]]
    for k in past[1:]:
        runs[-1:] = [(runs[-1][0], k)] if k == runs[-1][1] + 1 else [runs[-1], (k, k)]
    return (f"The curves over k reach only k = {n:,}, the fewest samples of any paired problem, and k = "
            f"{ranges_text(runs)} {'is' if len(past) == 1 else 'are'} past it: choose ks from 1 to {n:,}, like "
            f"1-{n}.")


def _mark_first_loss(curve: list[CurvePoint]) -> None:
    """Set each point's may_first_lose: its band reaches below 0, and every band before it reaches 0 or above, so
    that k may be the first k shown where the true A - B < 0 (None for all without a band)."""
    still_level = True   # every band so far allows A - B >= 0
    for point in curve:
        if point.band is None:
            return
        point.may_first_lose = still_level and point.band[0] < 0
        still_level = still_level and point.band[1] >= 0


class _RunValues:
    """One run's per-problem pass@k at any k, computed once for each distinct (n, c).

    The pairs are checked and made distinct once (estimate_pass_at_k's checks, at k = 1); each k then costs
    one vectorised pass over them, not a sort of them again (which was most of a curve's cost).
    """

    def __init__(self, counts: tuple[Ints, Ints]) -> None:
        self.pairs, self.where = checked_pairs(counts[0], counts[1], 1)
        self.weights = np.bincount(self.where, minlength=len(self.pairs))
        self.most = int(self.pairs[:, 0].min()) if self.pairs.size else 0

    def total(self, k: int) -> Fraction | None:
        """The exact sum of the run's pass@k where passk.maths.means affords it (as the compare table's), else None."""
        return exact_total(self.pairs[:, 0], self.pairs[:, 1], self.weights, k)

    def at(self, k: int) -> Floats:
        if not 1 <= k <= self.most:   # two_curves shows ks up to the smallest n only
            raise ValueError(f"k must be from 1 to the smallest n ({self.most:,}); got {k:,}.")
        values: Floats = _pass_at_k_array(self.pairs[:, 0], self.pairs[:, 1], k)[self.where]
        return values


def _run_point(values: Floats, total: Fraction | None = None) -> tuple[float, Interval | None]:
    """A run's pass@k and its 95% interval from its per-problem values (and their exact sum, when known): as
    passk.results.benchmark.curve_over_k finds them (the tests hold the two equal), without the pass^k it also computes."""
    count = values.size
    mean = _mean(values) if total is None else float(total / count)
    if count < 2:
        return mean, None
    se = math.sqrt(float(np.sum((values - mean) ** 2)) / (count - 1) / count)
    return mean, population_interval(min(1.0, max(0.0, mean)), se, count)


def _mean(values: Floats) -> float:
    """The mean of the rounded values (math.fsum), as the compare table's where no exact sum is afforded."""
    return math.fsum(values.tolist()) / values.size


def _critical_t(differences: Floats) -> float | None:
    """The 95% quantile of max_k |T_k| for T multivariate t (P - 1 degrees of freedom) with the correlation of
    the columns of differences (problems x ks) that vary; None when fewer than two do."""
    count = differences.shape[0]
    varying = differences[:, np.std(differences, axis=0) > 0]
    if varying.shape[1] < 2:
        return None
    root = correlation_root(varying)
    generator = np.random.default_rng(SEED)
    largest = np.concatenate([np.max(np.abs(generator.standard_normal((min(DRAWN_AT_ONCE, DRAWS - start),
                                                                         root.shape[1])) @ root.T), axis=1)
                              for start in range(0, DRAWS, DRAWN_AT_ONCE)])
    scales = np.sqrt(generator.chisquare(count - 1, DRAWS) / (count - 1))
    return float(np.quantile(largest / scales, CONFIDENCE))


def correlation_root(varying: Floats) -> Floats:
    """A ks x r matrix whose product with its transpose is the correlation of the columns of varying (problems x
    ks, each column varying), but for the directions of negligible variance (below NEGLIGIBLE of the largest).

    Curves over k are smooth, so a few dozen directions carry the correlation even at 1,024 ks, and each draw of
    the critical value costs those directions times the ks. With fewer problems than ks the smaller matrix
    scaled @ scaled.T has the same eigenvalues, and scaled.T times its eigenvectors is the root: an eigensolver's
    cube of the problems rather than of the ks."""
    centred = varying - varying.mean(axis=0)
    scaled = centred / np.sqrt(np.sum(centred ** 2, axis=0))   # scaled.T @ scaled is the correlation
    few_problems = scaled.shape[0] < scaled.shape[1]
    eigenvalues, vectors = np.linalg.eigh(scaled @ scaled.T if few_problems else scaled.T @ scaled)
    kept = eigenvalues > NEGLIGIBLE * eigenvalues[-1]
    root: Floats = scaled.T @ vectors[:, kept] if few_problems else vectors[:, kept] * np.sqrt(eigenvalues[kept])
    return root


def _band(differences: Floats, mean: float, level: float) -> Interval:
    """The paired MOVER interval of the differences (their mean given) at the per-k level
    (passk.maths.intervals.PairedDifference)."""
    count = differences.size
    paired = PairedDifference(mean, _mean(np.abs(differences)), float(np.std(differences, ddof=1)), count)
    return paired.interval(level)


def sign_of(value: float) -> int:
    return (value > 0) - (value < 0)


def _crossing(curve: list[CurvePoint], runs: tuple["_RunValues", "_RunValues"]) -> Crossing | None:
    """Where A - B first takes the sign opposite to its first non-zero one (None if it never does)."""
    signs = [sign_of(point.difference) for point in curve]
    first = next((sign for sign in signs if sign), 0)
    at = next((index for index, sign in enumerate(signs) if sign == -first), None) if first else None
    if at is None:
        return None
    after = at - 1   # the k before has d of the first sign or 0; the first whole k that turns lies between
    turned = _first_turned(curve[after], curve[at],
                           lambda k: sign_of(_mean(runs[0].at(k) - runs[1].at(k))) == -first)
    side, other = ("A", "B") if first > 0 else ("B", "A")
    low = next((point.k for point in reversed(curve[:at]) if point.ahead == side), None)
    high = next((point.k for point in curve[at:] if point.ahead == other), None)
    return Crossing(side, curve[after].k, curve[at].k, turned, low, high)


def _first_turned(before: CurvePoint, at: CurvePoint, turned: Callable[[int], bool]) -> int:
    """A whole k in (before.k, at.k] where turned(k) holds and turned(k - 1) does not (given that turned(at.k)
    holds and turned(before.k) does not): the first such k when the difference turns once between them.

    The first guess is where the straight line through the two differences meets 0 on a log scale of k,
    then its neighbour on the side the turn lies; after those two, halving. On smooth curves the two guesses
    usually find it (two k's computed in place of the log2 of the gap)."""
    low, high = before.k, at.k
    share = before.difference / (before.difference - at.difference)   # in [0, 1): where the line meets 0
    guesses, guessing = [round(low * (high / low) ** share)], True
    while high - low > 1:
        k = min(max(guesses.pop() if guesses else (low + high) // 2, low + 1), high - 1)
        if turned(k):
            high, neighbour = k, k - 1
        else:
            low, neighbour = k, k + 1
        if guessing:
            guesses, guessing = [neighbour], False
    return high


# ---------------------------------------------------------------------------
# The ks a curve over k is computed at, within the request's exact work

K_CURVE_POINTS = 60     # ks computed for the benchmark's curve over k: each costs a pass over the distinct (n, c)
K_CURVE_FEWEST = 15     # ... fewer for large benchmarks, so the curve costs at most about 1.5M problem-ks
K_CURVE_CELLS = 1_500_000   # (0.5 s of CPU at the 100,000-problem limit, against 2 s with 60 points)
FEWEST_DRAWN = 5        # a curve the request's exact_work affords fewer ks of is not drawn


def curve_points(problems: int, work_a_k: float = 0.0) -> int:
    """How many ks the curve over k computes for a benchmark of `problems` problems, each k costing work_a_k
    estimated microseconds of correct rounding (estimator.stirling_work): no more than the request's exact_work
    left affords (passk.limits), which may be fewer than K_CURVE_FEWEST, or none."""
    points = max(K_CURVE_FEWEST, min(K_CURVE_POINTS, K_CURVE_CELLS // max(problems, 1)))
    left = exact_work_left()
    if work_a_k > 0 and left is not None:
        points = min(points, int(left // work_a_k))
    return points


def ks_to_draw(n: int, chosen: Iterable[int], points: int = K_CURVE_POINTS) -> Ints:
    """Every k up to n when n is small, else `points` log-spaced ones; with the chosen ks up to n."""
    if n <= points:
        ks = np.arange(1, n + 1)
    else:
        ks = np.unique((float(n) ** (np.arange(points) / (points - 1))).round().astype(np.int64))
    return np.union1d(ks, [k for k in chosen if k <= n]).astype(np.int64)


def curve_ks(n: int, values: int, work_a_k: float = 0.0) -> Ints:
    """The ks a curve over k up to n is computed at, for `values` per-problem values at each k (problems times
    runs) costing work_a_k (as curve_points takes it): every k when n is small, else log-spaced ones as the
    benchmark page's, always with 1 and n; TooLarge when the request's exact_work affords fewer than FEWEST_DRAWN."""
    points = curve_points(values, work_a_k)
    if points < FEWEST_DRAWN:
        raise TooLarge(too_much_exact_work())
    return ks_to_draw(n, (), points)
