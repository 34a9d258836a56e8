"""Two runs' pass@k over k compared: both curves with their 95% bands, the paired difference with a band that
holds at every k shown at once, where the leading run's lead stops being significant, and where the curves cross.

For P problems paired by task id, run A and run B, and n the smallest number of samples of any problem in
either run, the curves are computed at k = 1 ... n (log-spaced ks when n is large, always with 1 and n:
passk.charts.curve_ks). Each run's curve is the mean of its per-problem unbiased pass@k with the pointwise
95% interval of passk.intervals.population_interval, as passk.benchmark.curve_over_k gives it on the
benchmark page. The difference d(k) = mean_i [pass@k_A,i - pass@k_B,i] is the mean of the per-problem
differences d_i(k).

Its band is simultaneous over the ks shown (METHOD, "sup-t"): the vectors (d_i(k))_k are independent over
the problems, so the t statistics T_k = (mean d(k) - true d(k)) / SE_k are jointly about multivariate t
with P - 1 degrees of freedom and the per-problem differences' correlation across k. The critical value c
with P(max_k |T_k| <= c) = 95% is the 95% quantile of max_k |T_k| over DRAWS draws from that multivariate
t (seeded with SEED, so that an answer never changes). At each k the band is then the paired interval of
passk.intervals.PairedDifference (the trinomial MOVER interval of the compare table) at the per-k level
1 - alpha*, alpha* = P(|t_{P-1}| > c): the same band as mean +- c SE where the differences are spread out,
but honest where few problems differ, as the table's interval is. With one k, or with ks whose
differences are perfectly correlated, alpha* = 5% and the band is the table's 95% interval. The coverage
was checked by simulation (bench/coverage_curves.py; docs/benchmarks.md, "Two curves over k"): the band
held the whole true curve 93.2-100% of the time in 43 of 45 scenarios (P = 20 to 500, n = 2 to 64, curves
that cross, most problems never or always solved), and 92.0% and 90.3% where a few rarely solved problems
carry a strongly skewed difference at large k.

The runs' own bands are pointwise (each k on its own), as on the benchmark page.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np

from passk.benchmark import Comparison, ProblemCounts, compare
from passk.charts import curve_ks
from passk.display import points
from passk.estimator import Floats, Ints, _pass_at_k_array, checked_pairs, stirling_work
from passk.intervals import CONFIDENCE, PairedDifference, population_interval
from passk.stats import t_two_sided_p

METHOD = "sup-t"
DRAWS = 20_000     # draws of the multivariate t whose max |T| gives the critical value
SEED = 20261126    # ... drawn from this seed, so that the same runs always give the same band

Interval: TypeAlias = tuple[float, float]


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

    @property
    def ahead(self) -> str | None:
        """"A" where the band is above 0, "B" where it is below, None where it holds 0 (or there is none)."""
        if self.band is None:
            return None
        return "A" if self.band[0] > 0 else "B" if self.band[1] < 0 else None

    def to_json(self) -> dict[str, Any]:
        return {"k": self.k, "a": self.a, "a_ci95": _listed(self.a_ci95), "b": self.b, "b_ci95": _listed(self.b_ci95),
                "difference": self.difference, "band": _listed(self.band)}


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

    def to_json(self) -> dict[str, Any]:
        return {"k": self.k, "ahead_before": self.before, "between": [self.after, self.at],
                "interval": [self.low, self.high]}


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
    sentences: list[str] = field(default_factory=list)

    @property
    def ks(self) -> list[int]:
        return [point.k for point in self.points]

    def to_json(self) -> dict[str, Any]:
        """The "curve" object of POST /api/v1/compare with curve=1, and of passk --runs A B --curve --json."""
        return {"method": METHOD, "confidence": CONFIDENCE, "per_k_level": self.level, "critical_t": self.critical_t,
                "draws": DRAWS, "seed": SEED, "problems": self.problems, "n": self.n,
                "points": [point.to_json() for point in self.points], "leader_at_1": self.leader,
                "lead_lost_at": self.lead_lost_at,
                "crossing": self.crossing.to_json() if self.crossing else None, "sentences": list(self.sentences)}


def _listed(interval: Interval | None) -> list[float] | None:
    return None if interval is None else list(interval)


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

    ks: the ks to show (each at most n); by default passk.charts.curve_ks(n, ...): every k up to n when n is
    small, else log-spaced ones, always with 1 and n.
    """
    count = len(task_ids)
    n = int(min(counts_a[0].min(), counts_b[0].min()))
    work_a_k = stirling_work(counts_a[0], counts_a[1]) + stirling_work(counts_b[0], counts_b[1])
    shown = curve_ks(n, 2 * count, work_a_k).tolist() if ks is None else sorted(set(ks))
    if not shown or shown[0] < 1 or shown[-1] > n:
        raise ValueError(f"The curves over k need every k from 1 to the smallest n ({n:,}); got {shown[:5]}.")
    runs = _RunValues(counts_a), _RunValues(counts_b)
    values = [(runs[0].at(k), runs[1].at(k)) for k in shown]
    differences = np.column_stack([values_a - values_b for values_a, values_b in values])
    critical = _critical_t(differences) if count >= 2 else None
    level = None if count < 2 else CONFIDENCE if critical is None else 1 - t_two_sided_p(critical, count - 1)
    means = [_mean(differences[:, index]) for index in range(len(shown))]
    curve_points = [CurvePoint(k, *_run_point(values_a), *_run_point(values_b), means[index],
                               None if level is None else _band(differences[:, index], means[index], level))
                    for index, (k, (values_a, values_b)) in enumerate(zip(shown, values))]
    leader = curve_points[0].ahead
    lost = next((point.k for point in curve_points if point.ahead != leader), None) if leader else None
    crossing = _crossing(curve_points, runs)
    result = CurveComparison(count, n, curve_points, level, critical, leader, lost, crossing, names)
    result.sentences = crossover_sentences(result)
    return result


class _RunValues:
    """One run's per-problem pass@k at any k, computed once for each distinct (n, c).

    The pairs are checked and made distinct once (estimate_pass_at_k's checks, at k = 1); each k then costs
    one vectorised pass over them, not a sort of them again (which was most of a curve's cost).
    """

    def __init__(self, counts: tuple[Ints, Ints]) -> None:
        self.pairs, self.where = checked_pairs(counts[0], counts[1], 1)
        self.most = int(self.pairs[:, 0].min()) if self.pairs.size else 0

    def at(self, k: int) -> Floats:
        if not 1 <= k <= self.most:   # two_curves shows ks up to the smallest n only
            raise ValueError(f"k must be from 1 to the smallest n ({self.most:,}); got {k:,}.")
        values: Floats = _pass_at_k_array(self.pairs[:, 0], self.pairs[:, 1], k)[self.where]
        return values


def _run_point(values: Floats) -> tuple[float, Interval | None]:
    """A run's pass@k and its 95% interval from its per-problem values: as passk.benchmark.curve_over_k finds
    them (the tests hold the two equal), without the pass^k it also computes."""
    count = values.size
    mean = _mean(values)
    if count < 2:
        return mean, None
    se = math.sqrt(float(np.sum((values - mean) ** 2)) / (count - 1) / count)
    return mean, population_interval(min(1.0, max(0.0, mean)), se, count)


def _mean(values: Floats) -> float:
    """The correctly rounded mean (math.fsum), as the compare table's."""
    return math.fsum(values.tolist()) / values.size


def _critical_t(differences: Floats) -> float | None:
    """The 95% quantile of max_k |T_k| for T multivariate t (P - 1 degrees of freedom) with the correlation of
    the columns of differences (problems x ks) that vary; None when fewer than two do."""
    count = differences.shape[0]
    varying = differences[:, np.std(differences, axis=0) > 0]
    if varying.shape[1] < 2:
        return None
    correlation = np.atleast_2d(np.corrcoef(varying, rowvar=False))
    eigenvalues, vectors = np.linalg.eigh(correlation)
    root = vectors * np.sqrt(np.clip(eigenvalues, 0.0, None))   # root @ root.T = correlation, singular or not
    generator = np.random.default_rng(SEED)
    normals = generator.standard_normal((DRAWS, root.shape[0])) @ root.T
    scales = np.sqrt(generator.chisquare(count - 1, DRAWS) / (count - 1))
    return float(np.quantile(np.max(np.abs(normals), axis=1) / scales, CONFIDENCE))


def _band(differences: Floats, mean: float, level: float) -> Interval:
    """The paired MOVER interval of the differences (their mean given) at the per-k level
    (passk.intervals.PairedDifference)."""
    count = differences.size
    paired = PairedDifference(mean, _mean(np.abs(differences)), float(np.std(differences, ddof=1)), count)
    return paired.interval(level)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _crossing(curve: list[CurvePoint], runs: tuple["_RunValues", "_RunValues"]) -> Crossing | None:
    """Where A - B first takes the sign opposite to its first non-zero one (None if it never does)."""
    signs = [_sign(point.difference) for point in curve]
    first = next((sign for sign in signs if sign), 0)
    at = next((index for index, sign in enumerate(signs) if sign == -first), None) if first else None
    if at is None:
        return None
    after = at - 1   # the k before has d of the first sign or 0; the first whole k that turns lies between
    turned = _first_turned(curve[after], curve[at],
                           lambda k: _sign(_mean(runs[0].at(k) - runs[1].at(k))) == -first)
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


def crossover_sentences(result: CurveComparison) -> list[str]:
    """What the curves say, in sentences: the lead at k = 1 and where it stops being significant, and whether
    and where the curves cross."""
    names = {"A": result.names[0], "B": result.names[1]}
    first, last = result.points[0], result.points[-1]
    if first.band is None:
        lead = "With one paired problem there is no band, so no lead is significant."
    elif result.leader is None:
        lead = (f"Neither run is significantly ahead at k = 1: A − B is {_points(first.difference)} and its "
                f"simultaneous 95% band ({_band_text(first.band)}) holds 0.")
    else:
        lead = (f"{_capital(names[result.leader])} is ahead at k = 1 by "
                f"{_points(abs(first.difference), signed=False)} (A − B's simultaneous 95% band "
                f"{_band_text(first.band)}); ")
        lost = next((point for point in result.points if point.k == result.lead_lost_at), None)
        shown = "" if len(result.points) == last.k else " of the ks shown"
        lead += (f"its lead is no longer significant from k = {lost.k:,}{shown} (band {_band_text(lost.band)})."
                 if lost and lost.band else f"its lead stays significant at every k shown, up to k = {last.k:,}.")
    return [lead, _crossing_sentence(result, names)]


def _crossing_sentence(result: CurveComparison, names: dict[str, str]) -> str:
    """Whether and where the curves cross, with the crossing's interval from the band."""
    crossing, last = result.crossing, result.points[-1]
    everywhere = "every k" if len(result.points) == last.k else f"each of the {len(result.points)} ks shown"
    if crossing is None:
        signs = {_sign(point.difference) for point in result.points} - {0}
        if not signs:
            return f"The curves do not cross: A − B is 0 at {everywhere} from 1 to {last.k:,}."
        above = "above" if signs == {1} else "below"
        return (f"The curves do not cross within k = 1 … {last.k:,}: run A's curve stays {above} run B's "
                f"(or level with it) at {everywhere}.")
    before, after = crossing.before, "B" if crossing.before == "A" else "A"
    sentence = (f"The curves cross at k = {crossing.k:,}: there A − B turns "
                f"{'negative' if after == 'B' else 'positive'}, and {names[after]} is ahead. ")
    if crossing.high is None:
        since = (f"after k = {crossing.low:,}, the last k where {names[before]} is significantly ahead"
                 if crossing.low else "anywhere from k = 1")
        return sentence + (f"With 95% simultaneous confidence it lies {since}; {names[after]} is never "
                           f"significantly ahead up to k = {last.k:,}, so the curves may not cross at all.")
    since = (f"k = {crossing.low:,}, the last k where {names[before]} is significantly ahead," if crossing.low
             else f"k = 1 ({names[before]} is never significantly ahead before it)")
    return sentence + (f"With 95% simultaneous confidence the crossing lies between {since} and "
                       f"k = {crossing.high:,}, the first where {names[after]} is.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _points(value: float, signed: bool = True) -> str:
    return points(value, signed, unit="points")


def _band_text(band: Interval) -> str:
    return f"{_points(band[0])} to {_points(band[1])}"
