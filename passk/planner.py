"""Planning a run: where the noise comes from, and how many samples or problems a target needs.

For a k with every n_i >= 2k, the variance s^2 of the P per-problem pass@k
estimates (the ± SE is s / sqrt(P)) has two parts, since
E[s^2] = Var(true pass@k over the problems) + mean_i Var(estimate_i):

- sampling noise: mean_i V_i, the problems' own estimate variances (V_i as
  benchmark.estimate_variance, which SE fixed uses: SE fixed^2 = noise / P);
- the problems' spread: s^2 - noise, floored at 0.

Samples only shrink the noise, so with infinitely many per problem the 95%
interval for "problems like these" (the page's Wilson interval) shrinks to
the one with SE sqrt(spread / P) and no further (Miller 2024, arXiv
2411.00640). The fixed-benchmark half-width,
1.96 SE fixed, is recomputed at n' samples per problem with each problem's
pass rate c/n kept (c' = round(c n' / n)). Problems needed for a half-width
h: P' = (t s / h)^2, the t interval's (Wilson's comes near it with many
problems). For a paired comparison the smallest difference found with 80%
power at 5% two-sided is (z_0.975 + z_0.8) SE of the difference.

A paired comparison of runs A and B splits the same way. The two runs' samples
are independent, so on these very problems the difference's variance is
(sum_i V_A,i + sum_i V_B,i) / P^2, and the samples per problem in each run that
find a difference d 4 times in 5 are the fewest m with
(z_0.975 + z_0.8) sqrt(sum V at max(n_i, m)) / P <= d, each problem keeping
its c/n in each run. For problems like these, the variance s_d^2 of the P
differences is the spread of the true differences plus mean V_A + mean V_B;
with infinitely many samples only the spread is left, so the detectable
difference falls to (z_0.975 + z_0.8) sqrt(spread / P) and no further.
"""

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import norm

from passk.benchmark import CONFIDENCE, compare
from passk.variance import estimate_variance
from passk.estimator import MAX_N, distinct_pairs, estimate_pass_at_k
from passk.stats import t_quantile, wilson_interval

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
    weights = np.ones(np.shape(samples)) if weights is None else weights
    return Z_95 * math.sqrt(_variance_sum(samples, correct, k, per_problem, weights)) / float(np.sum(weights))


def _variance_sum(samples, correct, k, per_problem, weights=None):
    """sum_i w_i V_i with max(n_i, per_problem) samples for each entry, each keeping its pass rate c/n
    (weights: how many problems have each entry; one each by default)."""
    samples, correct = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    weights = np.ones(samples.shape) if weights is None else np.asarray(weights, dtype=float)
    scaled = np.maximum(samples, float(per_problem))
    variances = estimate_variance(scaled, np.rint(correct * scaled / samples), k)
    return float(np.sum(weights * variances))


def _distinct(samples, correct):
    """(n, c) of the distinct entries as float arrays, and how many entries have each."""
    pairs, where = distinct_pairs(np.asarray(samples, dtype=np.int64), np.asarray(correct, dtype=np.int64))
    return pairs[:, 0].astype(float), pairs[:, 1].astype(float), np.bincount(where, minlength=len(pairs))


def samples_needed(samples, correct, k, target):
    """The fewest samples per problem whose fixed_half_width is at most target (None beyond 10^12)."""
    samples, correct, weights = _distinct(samples, correct)
    return _fewest_samples(int(np.max(samples)), lambda per_problem: fixed_half_width(
        samples, correct, k, per_problem, weights) <= target)


def _fewest_samples(low, enough):
    """The fewest samples per problem from low up for which enough(samples) holds, by doubling then
    bisection (enough must not turn false again as samples grow); None when not even MAX_N is enough."""
    if enough(low):
        return low
    high = low
    while not enough(high):
        if high >= MAX_N:
            return None
        low, high = high, min(high * 2, MAX_N)
    while high - low > 1:   # not enough(low), enough(high)
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def fixed_detectable(samples, correct, k, count, per_problem=0, weights=None):
    """The difference a paired test on these very problems finds 4 times in 5 at 5% two-sided:
    (z_0.975 + z_0.8) sqrt(sum V_i) / count, the sum over both runs' entries (samples, correct: run A's
    then run B's), each with max(n_i, per_problem) samples at its pass rate c/n; needs every n >= 2k."""
    return detectable_difference(math.sqrt(_variance_sum(samples, correct, k, per_problem, weights)) / count)


def samples_to_detect(samples, correct, k, difference, count):
    """The fewest samples per problem in each run whose fixed_detectable is at most |difference|, counting
    from the most any entry has and at least 2k (None beyond 10^12); samples, correct: both runs' entries."""
    samples, correct, weights = _distinct(samples, correct)
    return _fewest_samples(max(int(np.max(samples)), 2 * k), lambda per_problem: fixed_detectable(
        samples, correct, k, count, per_problem, weights) <= abs(difference))


def difference_noise_split(values_a, values_b, counts_a, counts_b, k):
    """(total, noise, spread) variance of the paired differences of pass@k estimates: total the sample
    variance of the P differences, noise mean V_A + mean V_B (each run's (n, c) arrays in counts_x),
    spread = total - noise floored at 0; needs every n >= 2k and P >= 2."""
    total = float(np.var(np.asarray(values_a) - np.asarray(values_b), ddof=1))
    samples, correct, weights = _distinct(np.concatenate([counts_a[0], counts_b[0]]),
                                          np.concatenate([counts_a[1], counts_b[1]]))
    noise = _variance_sum(samples, correct, k, 0, weights) / len(values_a)
    return total, noise, max(total - noise, 0.0)


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
    if not target >= SMALLEST_POINTS / 100:
        raise ValueError(f"The target half-width must be at least {SMALLEST_POINTS:g} points; got {target * 100:g}.")
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
    half_width = (row.ci95[1] - row.ci95[0]) / 2   # the page's Wilson interval, now and with noise gone
    floor = wilson_interval(min(1.0, max(0.0, row.pass_at_k)), math.sqrt(spread / count), count)
    result = KPlan(k, half_width=half_width, half_width_floor=min(half_width, (floor[1] - floor[0]) / 2),
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


def comparison_plan(comparison, difference=None, tokens_per_sample=None, price_per_million=None):
    """For each k of a paired comparison (passk.benchmark.compare), a dict of JSON-safe answers (fractions)
    with a sentence for each:

    - "detectable": the smallest difference found with 80% power at 5% two-sided (None where the row has no SE);
    - "problems": the paired problems needed to find `difference` (a fraction; None without it);
    - from the paired problems' n and c (comparison.paired_counts):
      "detectable_fixed" (on these very problems, with the samples there are), "noise_share", "detectable_floor"
      (the least more samples can reach for problems like these), "samples" (per problem in each run to find
      `difference` on these very problems; None when not even 10^12 would), "extra_samples" (more in all,
      both runs), "extra_tokens" (with tokens_per_sample) and "extra_cost" (with the price per 10^6 tokens too).
    """
    counts = comparison.paired_counts
    return [_k_comparison_plan(comparison, row, counts, difference, tokens_per_sample, price_per_million)
            for row in comparison.results]


def _k_comparison_plan(comparison, row, counts, difference, tokens_per_sample, price_per_million):
    """comparison_plan's answers for one results row."""
    k, count = row.k, comparison.paired
    result = {"k": k, "detectable": None, "problems": None, "detectable_fixed": None, "noise_share": None,
              "detectable_floor": None, "samples": None, "extra_samples": None, "extra_tokens": None,
              "extra_cost": None, "sentences": []}
    sentences = result["sentences"]
    if row.se:
        result["detectable"] = detectable_difference(row.se)
        sentences.append(f"With {count:,} paired problems, a true difference of {points(result['detectable'])} "
                         f"points at pass@{k} would be found 4 times in 5 (p < 0.05).")
        if difference:
            result["problems"] = problems_to_detect(row.se * math.sqrt(count), difference)
            sentences.append(f"About {result['problems']:,} paired problems would find a difference of "
                             f"{points(abs(difference))} points 4 times in 5.")
    if row.difference is None:
        return result
    (samples_a, correct_a), (samples_b, correct_b) = counts
    if min(int(samples_a.min()), int(samples_b.min())) >= 2 * k:
        _noise_answers(result, comparison, counts)
    else:
        sentences.append(f"What more samples buy at pass@{k} is known only when every paired problem has at "
                         f"least {2 * k:,} samples in both runs.")
    if difference:
        samples, correct = np.concatenate([samples_a, samples_b]), np.concatenate([correct_a, correct_b])
        _samples_answer(result, samples, correct, count, difference, tokens_per_sample, price_per_million)
    return result


def _noise_answers(result, comparison, counts):
    """The detectable difference on these very problems now, the noise share and the floor (every n >= 2k)."""
    k, count, sentences = result["k"], comparison.paired, result["sentences"]
    samples = np.concatenate([counts[0][0], counts[1][0]])
    correct = np.concatenate([counts[0][1], counts[1][1]])
    samples, correct, weights = _distinct(samples, correct)
    result["detectable_fixed"] = fixed_detectable(samples, correct, k, count, weights=weights)
    sentences.append(f"On these very problems, the samples there are would find a difference of "
                     f"{points(result['detectable_fixed'])} points at pass@{k} 4 times in 5.")
    if count < 2:
        return
    total, noise, spread = difference_noise_split(*comparison.per_problem_pass_at_k[k], *counts, k)
    if total > 0:
        result["noise_share"] = min(noise / total, 1.0)
        sentences.append(f"Sampling noise is {result['noise_share'] * 100:.0f} percent of the variation between "
                         f"problems' pass@{k} differences; real differences between the problems are the other "
                         f"{(1 - result['noise_share']) * 100:.0f} percent.")
    if noise > total and result["detectable"] and result["detectable_fixed"] > result["detectable"]:
        sentences.append(f"The differences at pass@{k} vary less from problem to problem than sampling noise "
                         f"alone would make them, which happens by chance; so the difference found on these very "
                         f"problems comes out larger than for problems like these, and is the cautious figure.")
    result["detectable_floor"] = detectable_difference(math.sqrt(spread / count))
    if result["detectable_floor"] > 0:
        sentences.append(f"More samples alone cannot bring the detectable difference at pass@{k} below "
                         f"{points(result['detectable_floor'])} points for problems like these; more problems can.")
    else:
        sentences.append(f"The differences between problems at pass@{k} look like sampling noise alone, so more "
                         f"samples could bring the detectable difference for problems like these as low as wanted.")


def _samples_answer(result, samples, correct, count, difference, tokens_per_sample, price_per_million):
    """The samples per problem in each run that find difference on these very problems, and what they cost."""
    k, sentences = result["k"], result["sentences"]
    needed = samples_to_detect(samples, correct, k, difference, count)
    wanted = f"a {points(abs(difference))}-point difference at pass@{k} on these very problems 4 times in 5"
    if needed is None:
        sentences.append(f"Not even {MAX_N:,} samples per problem in each run would find {wanted}.")
        return
    result["samples"] = needed
    result["extra_samples"] = extra = int(np.sum(np.maximum(needed - samples, 0)))
    if extra == 0:
        sentences.append(f"The samples there are would already find {wanted}.")
        return
    cost = ""
    if tokens_per_sample:
        result["extra_tokens"] = extra * tokens_per_sample
        cost = f", {result['extra_tokens']:,.0f} tokens"
        if price_per_million:
            result["extra_cost"] = result["extra_tokens"] * price_per_million / 1e6
            cost += f", about {result['extra_cost']:,.2f} in token cost"
    sentences.append(f"About {needed:,} samples per problem in each run would find {wanted} "
                     f"({extra:,} more samples in all{cost}).")


def top_pair_plan(ranking, difference=None, tokens_per_sample=None, price_per_million=None):
    """For each k of a passk.ranking.Ranking, comparison_plan for its top two runs (the best minus the second):
    [{"k", "a", "b", "plan" (comparison_plan's dict, or None), "reason" (why there is no plan, or None)}]."""
    ks = [row.k for row in ranking.results]
    plans, pairs = [], {}
    for index, row in enumerate(ranking.results):
        top = [entry.name for entry in row.ranking if entry.pass_at_k is not None][:2]
        if len(top) < 2:
            plans.append({"k": row.k, "a": None, "b": None, "plan": None,
                          "reason": f"Fewer than two runs have pass@{row.k}, so there is no pair to plan for."})
            continue
        a, b = top
        if (a, b) not in pairs:
            problems_a, problems_b = ranking.summaries[a].problems, ranking.summaries[b].problems
            try:
                comparison = compare(problems_a, problems_b, ks)
            except ValueError as error:   # no task ids in common
                pairs[a, b] = None, str(error)
            else:
                pairs[a, b] = comparison, comparison_plan(comparison, difference, tokens_per_sample,
                                                          price_per_million)
        comparison, answers = pairs[a, b]
        if comparison is None:
            plans.append({"k": row.k, "a": a, "b": b, "plan": None, "reason": answers})
            continue
        answer = answers[index]
        reason = None if answer["sentences"] else comparison.results[index].reason or \
            "The pair's difference has no spread to plan with."
        plans.append({"k": row.k, "a": a, "b": b, "plan": answer, "reason": reason})
    return plans


# The planning fields of the forms, the API and the command line: name -> (label, in points?).
# A field in points is from SMALLEST_POINTS to 100 and is read as a fraction: below it the problems needed pass
# 10^13 and their square overflows a double. The others are above 0 and at most LARGEST_AMOUNT, so that a cost
# stays a finite number (JSON has no Infinity).
OPTIONS = {"target": ("The target half-width (points)", True),
           "difference": ("The difference to detect (points)", True),
           "tokens_per_sample": ("Tokens per sample", False),
           "price_per_million": ("The price per million tokens", False)}
SMALLEST_POINTS = 0.001
LARGEST_AMOUNT = 1e12


def option_value(name, text):
    """One planning field's value from its text (see OPTIONS); ValueError naming the field otherwise."""
    label, in_points = OPTIONS[name]
    text = (text or "").strip()
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (SMALLEST_POINTS <= value <= 100 if in_points else 0 < value <= LARGEST_AMOUNT):
        allowed = f"from {SMALLEST_POINTS:g} to 100" if in_points else \
            f"a number above 0, at most {LARGEST_AMOUNT:,.0f}"
        raise ValueError(f"{label} must be {allowed}; got {text[:40]!r}.")
    return value / 100 if in_points else value


def _options(**texts):
    """{name: option_value(name, text)} for the fields that are not empty."""
    return {name: option_value(name, text) for name, text in texts.items() if (text or "").strip()}


def planning_options(target="1", tokens_per_sample="", price_per_million=""):
    """plan()'s keyword arguments from form fields: the target in points, tokens per sample, price per 10^6 tokens."""
    return _options(target=target, tokens_per_sample=tokens_per_sample, price_per_million=price_per_million)


def comparison_options(difference="", tokens_per_sample="", price_per_million=""):
    """comparison_plan()'s keyword arguments from form fields: the difference to detect in points, tokens per
    sample, price per 10^6 tokens."""
    return _options(difference=difference, tokens_per_sample=tokens_per_sample,
                    price_per_million=price_per_million)
