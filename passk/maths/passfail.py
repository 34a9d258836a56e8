"""Pass/fail values: the population interval's exact coverage, and the note where it dips below 93%.

When every per-problem value is 0 or 1 (pass@1 of one sample a problem, or any k when every problem is broken
or solid), the number X of passing problems among P drawn from problems of which a share p pass is
Binomial(P, p), so the population interval's coverage at p is an exact sum, with no simulation:

    coverage(p) = sum_x C(P, x) p^x (1 - p)^(P - x) [p in CI(x)].

The mid-p interval holds 95% on average over p but not at every p: just past the upper ends of the intervals
for 0 and for 1 passing problem (about 3.0 / P and 4.9 / P) its coverage falls to 91.7-92.9% at P >= 50
(bench/coverage_edges.py scans P = 10 ... 100,000 and every count up to 200 problems' worth from 0 or 1).
binary_note finds the lowest coverage over the rates that a count allows (its 99% interval) and speaks when that
is below 93%; then a true rate where the interval falls short is covered by the note in 99.97% of draws.
"""

import math
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from scipy.special import gammaln, xlog1py, xlogy

from passk.maths.intervals import CONFIDENCE, population_interval

FLOOR = 0.93      # the note speaks where the exact coverage can fall below this
ALLOWED = 0.99    # the rates a count allows: its population interval at this level
NEAREST = 20      # counts of the rarer outcome scanned; past them no allowed rate dips (bench/coverage_edges.py)
_MARGIN = 6.0     # standard deviations of X past the highest allowed rate that the sum includes


def pass_fail_interval(passes: int, count: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The population interval for passes of count pass/fail values (0 < count), as summarize() gives it."""
    mean = passes / count
    return population_interval(mean, math.sqrt(mean * (1 - mean) / (count - 1)), count, confidence)


def binomial_chances(passes: NDArray[np.int64], count: int, rates: NDArray[np.float64]) -> NDArray[np.float64]:
    """C(count, x) r^x (1 - r)^(count - x) for every rate (rows) and x in passes (columns)."""
    x, r = passes[None, :], rates[:, None]
    logs = gammaln(count + 1) - gammaln(x + 1) - gammaln(count - x + 1) + xlogy(x, r) + xlog1py(count - x, -r)
    return np.asarray(np.exp(logs), dtype=np.float64)


@lru_cache(maxsize=1024)
def lowest_coverage(rarer: int, count: int) -> tuple[float, float]:
    """(the lowest exact coverage of the 95% interval over the rates the 99% interval of rarer passing of count
    allows, the rate where it is), near 0; near 1 mirrors it.

    The coverage at p sums the chances of a run of counts (those whose interval holds p); between two ends of
    intervals the run is fixed and its chance is unimodal in p, so the infimum is at an end of the allowed
    rates or just past an interval's end, where that count has left the run. Counts past the highest allowed
    rate by more than _MARGIN standard deviations are left out of the sum (a chance below 1e-9).
    """
    low, high = pass_fail_interval(rarer, count, ALLOWED)
    reach = count * high
    last = min(count, math.ceil(reach + _MARGIN * math.sqrt(reach) + _MARGIN))
    ends = np.array([pass_fail_interval(x, count) for x in range(last + 1)])
    counts = np.arange(last + 1)
    inner = (ends > low) & (ends < high)
    rates = np.concatenate([[low, high], ends[inner]])
    left_out = np.concatenate([[-1, -1], np.broadcast_to(counts[:, None], ends.shape)[inner]])
    held = ((ends[None, :, 0] <= rates[:, None]) & (rates[:, None] <= ends[None, :, 1])
            & (counts[None, :] != left_out[:, None]))
    coverage = (binomial_chances(counts, count, rates) * held).sum(axis=1)
    worst = int(np.argmin(coverage))
    return float(coverage[worst]), float(rates[worst])


def binary_note(values: NDArray[np.float64], weights: NDArray[np.int64]) -> str | None:
    """A sentence where every per-problem value is 0 or 1 and the population interval's exact coverage falls
    below 93% at some rate the count allows (values[i] held by weights[i] problems); else None."""
    count = int(weights.sum())
    if count < 2 or not np.all((values == 0) | (values == 1)):
        return None
    passes = int(weights[values == 1].sum())
    rarer = min(passes, count - passes)
    if rarer > NEAREST:
        return None
    lowest, rate = lowest_coverage(rarer, count)
    if lowest >= FLOOR:
        return None
    outcome, rate = ("pass", rate) if passes == rarer else ("fail", 1 - rate)
    return (f"Every problem scored 0 or 1 and only {rarer:,} of {count:,} {outcome}: for pass/fail counts like "
            f"this the 95% interval's exact coverage falls to {100 * lowest:.1f}% at a true rate of "
            f"{_percent(rate)}, a rate these data allow, not 95% (docs/coverage.md).")


def _percent(rate: float) -> str:
    """A rate in percent with two significant digits of its distance from 0 or 1 (0.31%, 99.69%)."""
    distance = 100 * min(rate, 1 - rate)
    decimals = max(0, 1 - math.floor(math.log10(distance))) if distance > 0 else 0
    return f"{100 * rate:.{decimals}f}%"
