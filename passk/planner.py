"""Planning a run: where the noise comes from, and how many samples or problems a target needs.

For a k with every n_i >= 2k, the variance s^2 of the P per-problem pass@k
estimates (the ± SE is s / sqrt(P)) has two parts, since
E[s^2] = Var(true pass@k over the problems) + mean_i Var(estimate_i):

- sampling noise: mean_i V_i, the problems' own estimate variances (V_i as
  benchmark.estimate_variance, which SE fixed uses: SE fixed^2 = noise / P);
- the problems' spread: s^2 - noise, floored at 0.

Samples only shrink the noise, so with infinitely many per problem the 95%
half-width for "problems like these" falls to t sqrt(spread / P) and no
further (Miller 2024, arXiv 2411.00640). The fixed-benchmark half-width,
1.96 SE fixed, is recomputed at n' samples per problem with each problem's
pass rate c/n kept (c' = round(c n' / n)). Problems needed for a half-width
h: P' = (t s / h)^2. For a paired comparison the smallest difference found
with 80% power at 5% two-sided is (z_0.975 + z_0.8) SE of the difference.
"""

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import norm

from passk.benchmark import CONFIDENCE, estimate_variance
from passk.estimator import MAX_N, distinct_pairs, estimate_pass_at_k
from passk.stats import t_quantile

DEFAULT_TARGET = 0.01     # ± 1 point
POWER = 0.8
Z_95 = float(norm.ppf(0.5 + CONFIDENCE / 2))
Z_POWER = float(norm.ppf(POWER))


def points(value):
    """A fraction as percentage points for a sentence: 0.01234 -> '1.23'."""
    return f"{value * 100:.2f}"


def noise_split(samples, correct, k):
    """(total, noise, spread) variance of the per-problem pass@k estimates; needs every n >= 2k and P >= 2."""
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    estimates = estimate_pass_at_k(samples, correct, k)
    total = float(np.var(estimates, ddof=1))
    noise = float(np.mean(estimate_variance(samples, correct, k)))
    return total, noise, max(total - noise, 0.0)


def fixed_half_width(samples, correct, k, per_problem, weights=None):
    """1.96 SE fixed with max(n_i, per_problem) samples for each problem, each keeping its pass rate c/n.

    weights: how many problems have each (samples, correct) entry (default one each).
    """
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    weights = np.ones(samples.shape) if weights is None else np.asarray(weights, dtype=float)
    scaled = np.maximum(samples, float(per_problem))
    variances = estimate_variance(scaled, np.rint(correct * scaled / samples), k)
    return Z_95 * math.sqrt(float(np.sum(weights * variances))) / float(np.sum(weights))


def samples_needed(samples, correct, k, target):
    """The fewest samples per problem whose fixed_half_width is at most target (None beyond 10^12)."""
    pairs, where = distinct_pairs(np.asarray(samples, dtype=np.int64), np.asarray(correct, dtype=np.int64))
    weights = np.bincount(where, minlength=len(pairs))

    def half_width(per_problem):
        return fixed_half_width(pairs[:, 0], pairs[:, 1], k, per_problem, weights)
    low = int(np.max(pairs[:, 0]))
    if half_width(low) <= target:
        return low
    high = low
    while half_width(high) > target:
        if high >= MAX_N:
            return None
        low, high = high, min(high * 2, MAX_N)
    while high - low > 1:   # half_width(low) > target >= half_width(high)
        middle = (low + high) // 2
        if half_width(middle) <= target:
            high = middle
        else:
            low = middle
    return high


def problems_needed(sd, target):
    """The fewest P' problems like these with t(P'-1, 0.975) sd / sqrt(P') <= target: P' = (t sd / target)^2."""
    def half_width(count):
        return t_quantile(0.5 + CONFIDENCE / 2, count - 1) * sd / math.sqrt(count)
    count = max(2, math.ceil((Z_95 * sd / target) ** 2))   # t > z: the answer is at least this
    while half_width(count) > target:                      # t(P'-1) falls towards z: a few steps at most
        count = max(count + 1, math.ceil((t_quantile(0.5 + CONFIDENCE / 2, count - 1) * sd / target) ** 2))
    while count > 2 and half_width(count - 1) <= target:
        count -= 1
    return count


def detectable_difference(se_difference):
    """The true difference a paired test at 5% two-sided finds with 80% power: (z_0.975 + z_0.8) SE."""
    return (Z_95 + Z_POWER) * se_difference


def problems_to_detect(sd_difference, difference):
    """Paired problems for 80% power at 5% two-sided against a true difference: ((z + z_0.8) sd / d)^2."""
    return max(2, math.ceil(((Z_95 + Z_POWER) * sd_difference / abs(difference)) ** 2 * (1 - 1e-12)))


@dataclass
class KPlan:
    """The planner's answers for one k, as fractions (0.01 is one point), with a sentence for each."""
    k: int
    noise_share: float | None = None
    spread_share: float | None = None
    half_width: float | None = None           # t SE: "how good is the model on problems like these"
    half_width_floor: float | None = None     # the same with infinitely many samples per problem
    fixed_half_width: float | None = None     # 1.96 SE fixed: "how good is it on these very problems"
    samples_per_problem: int | None = None    # for the fixed half-width under the target
    extra_samples: int | None = None
    extra_cost: float | None = None
    problems: int | None = None               # for the half-width "problems like these" under the target
    sentences: list[str] = field(default_factory=list)
    reason: str | None = None

    def to_json(self):
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def plan(summary, target=DEFAULT_TARGET, tokens_per_sample=None, price_per_million=None):
    """A KPlan for each of the summary's ks; target is the 95% half-width wanted, as a fraction."""
    if not target > 0:
        raise ValueError(f"The target half-width must be above 0 points; got {target * 100:g}.")
    samples = np.array([problem.n for problem in summary.problems], dtype=np.int64)
    correct = np.array([problem.c for problem in summary.problems], dtype=np.int64)
    return [_k_plan(samples, correct, row, target, tokens_per_sample, price_per_million)
            for row in summary.results]


def _k_plan(samples, correct, row, target, tokens_per_sample, price_per_million):
    """The plan for one results row; a reason instead where its SE or SE fixed is missing."""
    k, count = row.k, samples.size
    if row.se is None or row.se_fixed is None:
        return KPlan(k, reason=row.reason or "Planning needs at least two problems.")
    total, noise, spread = noise_split(samples, correct, k)
    quantile = t_quantile(0.5 + CONFIDENCE / 2, count - 1)
    result = KPlan(k, half_width=quantile * row.se, half_width_floor=quantile * math.sqrt(spread / count),
                   fixed_half_width=Z_95 * row.se_fixed)
    sentences = result.sentences
    if total > 0:
        result.noise_share = min(noise / total, 1.0)
        result.spread_share = 1.0 - result.noise_share
        sentences.append(f"Sampling noise is {result.noise_share * 100:.0f} percent of the variation between "
                         f"problems' pass@{k} estimates; real differences between the problems are the other "
                         f"{result.spread_share * 100:.0f} percent.")
    else:
        sentences.append(f"No spread between problems at pass@{k}: every problem's estimate is the same.")
    narrow = result.half_width - result.half_width_floor
    sentences.append(f"More samples would narrow the ±{points(result.half_width)} point interval for problems "
                     f"like these by at most {points(narrow)} points, to ±{points(result.half_width_floor)}; "
                     f"only more problems would narrow it further.")
    needed = samples_needed(samples, correct, k, target)
    if needed is None:
        sentences.append(f"Not even {MAX_N:,} samples per problem would bring the interval for these very "
                         f"problems under ±{points(target)} points.")
    else:
        result.samples_per_problem = needed
        result.extra_samples = int(np.sum(np.maximum(needed - samples, 0)))
        cost = ""
        if tokens_per_sample and price_per_million:
            result.extra_cost = result.extra_samples * tokens_per_sample * price_per_million / 1e6
            cost = f", about {result.extra_cost:,.2f} in token cost"
        sentences.append(f"{needed:,} samples per problem ({result.extra_samples:,} more in all{cost}) would bring "
                         f"the interval for these very problems (now ±{points(result.fixed_half_width)}) "
                         f"under ±{points(target)} points.")
    if result.half_width_floor > target:
        sentences.append(f"No number of samples brings the interval for problems like these under "
                         f"±{points(target)} points with {count:,} problems: its floor is "
                         f"±{points(result.half_width_floor)}.")
    result.problems = problems_needed(math.sqrt(total), target) if total > 0 else count
    sentences.append(f"About {result.problems:,} problems like these (now {count:,}) would bring the "
                     f"interval for problems like these under ±{points(target)} points.")
    return result


def comparison_plan(comparison, difference=None):
    """For each k of a paired comparison: the smallest difference found with 80% power, and the problems
    needed to find `difference` (a fraction), with a sentence for each; None where the row has no SE."""
    plans = []
    for row in comparison.results:
        if not row.se:
            plans.append({"k": row.k, "detectable": None, "problems": None, "sentences": []})
            continue
        detectable = detectable_difference(row.se)
        sentences = [f"With {comparison.paired:,} paired problems, a true difference of "
                     f"{points(detectable)} points at pass@{row.k} would be found 4 times in 5 (p < 0.05)."]
        problems = None
        if difference:
            problems = problems_to_detect(row.se * math.sqrt(comparison.paired), difference)
            sentences.append(f"About {problems:,} paired problems would find a difference of "
                             f"{points(abs(difference))} points 4 times in 5.")
        plans.append({"k": row.k, "detectable": detectable, "problems": problems, "sentences": sentences})
    return plans


def planning_options(target="1", tokens_per_sample="", price_per_million=""):
    """plan()'s keyword arguments from form fields: the target in points, tokens per sample, price per 10^6 tokens."""
    options = {}
    for name, text, label in (("target", target, "The target half-width (points)"),
                              ("tokens_per_sample", tokens_per_sample, "Tokens per sample"),
                              ("price_per_million", price_per_million, "The price per million tokens")):
        text = (text or "").strip()
        if not text:
            continue
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0 and (name != "target" or value <= 100)):
            allowed = "from above 0 to 100" if name == "target" else "a number above 0"
            raise ValueError(f"{label} must be {allowed}; got {text[:40]!r}.")
        options[name] = value / 100 if name == "target" else value
    return options
