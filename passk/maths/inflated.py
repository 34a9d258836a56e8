"""The planner's pass rates: a Beta prior with mass at exactly 0 and 1, fitted by maximum likelihood.

On a benchmark where many problems are never solved and many always are, a
Beta prior fitted by moments (passk.maths.variance.fit_prior) is U-shaped with both
parameters near 0, and gives every problem seen with c = 0 a posterior with
much of its mass at small but positive rates: at pass@10 those are the
noisiest, so that the planner asked for 2 to 3 times the samples a target
needed (issue 28). Here a problem's rate is 0 with chance `broken`, 1 with
chance `solid`, else drawn from Beta(a, b) (a zero/one-inflated Beta); its
c of n samples then has the chance

    broken [c = 0] + solid [c = n] + flaky C(n, c) B(a + c, b + n - c) / B(a, b),

flaky = 1 - broken - solid. The four parameters maximize the likelihood of the
observed (n, c) (EM: the shares from the chances that each problem with c = 0
or c = n is broken or solid, (a, b) by a Newton step on the flaky part's
beta-binomial likelihood). A problem whose rate is 0 or 1 makes no sampling
noise; one seen broken or solid is flaky with the chance its c and n leave
(flaky_chance), and then its rate has the posterior Beta(a + c, b + n - c), as
passk.maths.variance.expected_variance takes it. So each problem's expected noise is
its flaky chance times expected_variance's.

How sure the planned noise is: at m samples a problem's estimate has variance
about k^2 p (1 - p)^(2k - 1) / m (the first term of expected_variance's sum),
so the relative error of the planned noise is about that of
F = sum_i p_i (1 - p_i)^(2k - 1), whatever m. noise_uncertainty is its
relative SD: the problems' posterior variances of their terms (given the
prior), plus the prior's own uncertainty carried through by the delta method
(Kass and Steffey 1989, JASA 84:717), each parameter's variance from the
observed information of the likelihood.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import betaln, digamma, polygamma

from passk.maths.estimator import Floats, distinct_pairs

SMALLEST_SHAPE, LARGEST_SHAPE = 0.01, 1e4   # a and b kept within these: beyond, the Beta is a point in effect
LEAST_SHARE = 1e-12     # the flaky share a SQUAREM leap leaves at least
ROUNDS = 90             # EM steps at most, from each start (a third of them SQUAREM leaps)
TOLERANCE = 1e-6        # EM stops when the log-likelihood rises by less than this (its units: nats)
# What an EM step costs on this project's machine, in microseconds (each a little above the most measured), so
# that a request's planning is priced step by step before each is taken:
ROUND_COST = 250.0      # one step's numpy calls
PAIR_COST = 2.5         # one distinct (n, c) pair in a step


@dataclass(frozen=True)
class InflatedPrior:
    """The pass rates' prior: 0 with chance broken, 1 with chance solid, else Beta(a, b)."""
    broken: float
    solid: float
    a: float
    b: float

    @property
    def flaky(self) -> float:
        """The chance that a problem's rate is neither 0 nor 1."""
        return max(0.0, 1.0 - self.broken - self.solid)


def _pairs(samples: ArrayLike, correct: ArrayLike) -> tuple[Floats, Floats, Floats]:
    """(n, c, how many problems have each) for the distinct (n, c) pairs, as float arrays."""
    pairs, where = distinct_pairs(np.asarray(samples, dtype=np.int64), np.asarray(correct, dtype=np.int64))
    counts = np.bincount(where, minlength=len(pairs)).astype(float)
    return pairs[:, 0].astype(float), pairs[:, 1].astype(float), counts


def _log_beta_binomial(n: Floats, c: Floats, a: float, b: float) -> Floats:
    """log C(n, c) B(a + c, b + n - c) / B(a, b): the chance of c of n for a rate drawn from Beta(a, b)."""
    chances: Floats = betaln(a + c, b + n - c) - betaln(a, b) - betaln(c + 1, n - c + 1) - np.log1p(n)
    return chances


def _shares(n: Floats, c: Floats, prior: InflatedPrior) -> tuple[Floats, Floats, Floats, Floats]:
    """(log chance of each pair, and the chances that its problem is broken, solid or flaky given its c)."""
    with np.errstate(divide="ignore"):
        parts = np.stack([np.where(c == 0, math.log(prior.broken) if prior.broken > 0 else -np.inf, -np.inf),
                          np.where(c == n, math.log(prior.solid) if prior.solid > 0 else -np.inf, -np.inf),
                          (math.log(prior.flaky) if prior.flaky > 0 else -np.inf)
                          + _log_beta_binomial(n, c, prior.a, prior.b)])
    total = np.logaddexp.reduce(parts, axis=0)
    broken, solid, flaky = np.exp(parts - total)
    return total, broken, solid, flaky


def log_likelihood(samples: ArrayLike, correct: ArrayLike, prior: InflatedPrior) -> float:
    """The log-likelihood of the problems' (n, c) under the prior."""
    n, c, counts = _pairs(samples, correct)
    return math.fsum((counts * _shares(n, c, prior)[0]).tolist())


def flaky_chance(samples: ArrayLike, correct: ArrayLike, prior: InflatedPrior) -> Floats:
    """For each problem, the chance that its rate is neither 0 nor 1, given its c of n (1 where 0 < c < n)."""
    n, c = np.asarray(samples, dtype=float), np.asarray(correct, dtype=float)
    return _shares(n, c, prior)[3]


def fit_inflated(samples: ArrayLike, correct: ArrayLike,
                 spend: Callable[[float], None] | None = None) -> InflatedPrior:
    """The zero/one-inflated Beta prior of the largest likelihood for the problems' (n, c), by EM; spend (the
    planner's work) is handed each step's estimated cost in microseconds before the step is taken."""
    n, c, counts = _pairs(samples, correct)
    total = float(counts.sum())
    seen_broken, seen_solid = float(counts[c == 0].sum()) / total, float(counts[c == n].sum()) / total
    starts = [InflatedPrior(seen_broken / 2, seen_solid / 2, 0.5, 0.5),          # a U-shaped Beta from half the ends
              InflatedPrior(seen_broken * 0.9, seen_solid * 0.9, 1.0, 1.0)]      # a flat one from most of them
    fits = [_em(n, c, counts, start, spend) for start in starts]
    return max(fits, key=lambda fit: fit[1])[0]


def _em(n: Floats, c: Floats, counts: Floats, prior: InflatedPrior,
        spend: Callable[[float], None] | None) -> tuple[InflatedPrior, float]:
    """(the prior EM climbs to from prior, its log-likelihood), EM sped up by SQUAREM (Varadhan and Roland 2008,
    Scand. J. Stat. 35:335): from two EM steps a longer one along their line, kept when it climbs higher."""
    def step(prior: InflatedPrior) -> tuple[InflatedPrior, float]:
        if spend is not None:
            spend(ROUND_COST + PAIR_COST * n.size)
        likelihood, broken, solid, flaky = _shares(n, c, prior)
        a, b = _newton_step(n, c, counts * flaky, prior.a, prior.b)
        total = float(counts.sum())
        return (InflatedPrior(float(counts @ broken) / total, float(counts @ solid) / total, a, b),
                math.fsum((counts * likelihood).tolist()))

    last = -math.inf
    for _ in range(ROUNDS // 3):
        once, now = step(prior)               # now: prior's log-likelihood
        if now - last <= TOLERANCE:
            break
        last = now
        twice, at_once = step(once)
        start, first, second = (_vector(x) for x in (prior, once, twice))
        reach, bend = first - start, second - 2 * first + start
        stretch = min(-math.sqrt(float(reach @ reach) / float(bend @ bend)), -1.0) if bend @ bend > 0 else -1.0
        leap = _prior_of(start - 2 * stretch * reach + stretch**2 * bend)
        landed, at_leap = step(leap)
        prior = landed if at_leap >= at_once else twice   # either way no lower than once
    return prior, log_likelihood_of(n, c, counts, prior)


def log_likelihood_of(n: Floats, c: Floats, counts: Floats, prior: InflatedPrior) -> float:
    """The log-likelihood of the distinct pairs (n, c) held counts times each."""
    return math.fsum((counts * _shares(n, c, prior)[0]).tolist())


def _vector(prior: InflatedPrior) -> Floats:
    return np.array([prior.broken, prior.solid, math.log(prior.a), math.log(prior.b)])


def _prior_of(vector: Floats) -> InflatedPrior:
    """The prior nearest a vector (broken, solid, log a, log b): shares within [0, 1] adding to at most 1."""
    # some chance left for each kind, so that every (n, c) keeps a chance above 0 (a leap may pass a bound)
    broken = min(max(float(vector[0]), 0.0), 1.0 - 2 * LEAST_SHARE)
    solid = min(max(float(vector[1]), 0.0), 1.0 - broken - LEAST_SHARE)
    low, high = math.log(SMALLEST_SHAPE), math.log(LARGEST_SHAPE)
    a, b = (math.exp(min(max(float(x), low), high)) for x in vector[2:])
    return InflatedPrior(broken, solid, a, b)


def _newton_step(n: Floats, c: Floats, weights: Floats, a: float, b: float) -> tuple[float, float]:
    """One Newton step in (log a, log b) up the weighted beta-binomial log-likelihood, halved until it rises."""
    if weights.sum() <= 0:
        return a, b

    def value(a_: float, b_: float) -> float:
        return float(weights @ (betaln(a_ + c, b_ + n - c) - betaln(a_, b_)))

    both = digamma(a + b) - digamma(a + b + n)
    gradient = np.array([weights @ (digamma(a + c) - digamma(a) + both),
                         weights @ (digamma(b + n - c) - digamma(b) + both)])
    curve = polygamma(1, a + b) - polygamma(1, a + b + n)
    hessian = np.array([[weights @ (polygamma(1, a + c) - polygamma(1, a) + curve), weights @ curve],
                        [weights @ curve, weights @ (polygamma(1, b + n - c) - polygamma(1, b) + curve)]])
    scale = np.array([a, b])   # to log a, log b: d/dlog a = a d/da
    log_gradient = scale * gradient
    log_hessian = np.outer(scale, scale) * hessian + np.diag(log_gradient)
    try:
        step = -np.linalg.solve(log_hessian, log_gradient)
    except np.linalg.LinAlgError:
        step = log_gradient
    if not np.all(np.isfinite(step)) or step @ log_gradient <= 0:   # not uphill: a gradient step instead
        step = log_gradient / max(1.0, float(np.max(np.abs(log_gradient))))
    step = np.clip(step, -2.0, 2.0)
    start = value(a, b)
    low, high = math.log(SMALLEST_SHAPE), math.log(LARGEST_SHAPE)
    for _ in range(30):
        new_a, new_b = (math.exp(min(max(math.log(x) + s, low), high)) for x, s in zip((a, b), step.tolist()))
        if value(new_a, new_b) >= start:
            return new_a, new_b
        step = step / 2
    return a, b


STEP = 1e-4              # the finite differences' step in each parameter (shares; log a, log b)
LEAST_INFORMATION = 1e-6  # nats per squared unit of a parameter: a direction with less counts as this little
EVALUATION_COST = 80.0   # one likelihood or first-terms sum in microseconds, beside PAIR_COST a distinct (n, c) pair


class NoiseDoubt:
    """How sure the planned noise is at each k, for one run's problems under its fitted prior: the relative SD of
    F = sum_i p_i (1 - p_i)^(2k - 1) over the problems' posteriors and the prior's own uncertainty (g' I^-1 g,
    g the gradient of E[F] in the prior's free parameters and I the observed information, both by central
    differences; a share at its bound, 0 or none left, is held). The information is worked out once for all ks."""

    def __init__(self, samples: ArrayLike, correct: ArrayLike, prior: InflatedPrior) -> None:
        self.n, self.c, self.counts = _pairs(samples, correct)
        self.prior = prior
        self.free = [index for index, share in ((0, prior.broken), (1, prior.solid)) if share > 2 * STEP]
        self.free += [2, 3] if prior.flaky > 2 * STEP else []
        self._directions: tuple[Floats, Floats] | None = None

    def cost(self) -> float:
        """What the next at(k) costs, in estimated microseconds (the first works out the information too)."""
        size = len(self.free)
        evaluations = 1 + 2 * size + (0 if self._directions else 1 + 2 * size * size)
        return evaluations * (EVALUATION_COST + PAIR_COST * self.n.size)

    def at(self, k: int) -> float:
        """The relative SD of the planned noise at pass@k (inf where F is 0 and not surely so)."""
        expected, spread = _first_terms(self.n, self.c, self.counts, k, self.prior)
        if self.free:
            strengths, directions = self._information()
            unit = np.eye(len(self.free)) * STEP
            gradient = np.array([(self._expected(k, move) - self._expected(k, -move)) / (2 * STEP) for move in unit])
            reach = directions.T @ gradient
            # A direction the samples hardly tell (information below LEAST_INFORMATION) counts as that little: the
            # doubt along it is then large unless the noise does not move along it.
            spread += float(np.sum(reach**2 / np.maximum(strengths, LEAST_INFORMATION)))
        if expected <= 0:
            return 0.0 if spread <= 0 else math.inf
        return math.sqrt(spread) / expected

    def _moved(self, moves: Floats) -> InflatedPrior:
        """The prior with its free parameters (0 broken, 1 solid, 2 log a, 3 log b) moved by moves."""
        values = [self.prior.broken, self.prior.solid, math.log(self.prior.a), math.log(self.prior.b)]
        for index, move in zip(self.free, moves.tolist()):
            values[index] += move
        return InflatedPrior(values[0], values[1], math.exp(values[2]), math.exp(values[3]))

    def _expected(self, k: int, moves: Floats) -> float:
        return _first_terms(self.n, self.c, self.counts, k, self._moved(moves))[0]

    def _likelihood(self, moves: Floats) -> float:
        return log_likelihood_of(self.n, self.c, self.counts, self._moved(moves))

    def _information(self) -> tuple[Floats, Floats]:
        """The observed information's eigenvalues and eigenvectors, by central differences of the likelihood."""
        if self._directions is None:
            size = len(self.free)
            unit, centre = np.eye(size) * STEP, self._likelihood(np.zeros(size))
            information = np.empty((size, size))
            for i in range(size):
                for j in range(i, size):
                    if i == j:
                        change = self._likelihood(unit[i]) - 2 * centre + self._likelihood(-unit[i])
                    else:
                        change = (self._likelihood(unit[i] + unit[j]) - self._likelihood(unit[i] - unit[j])
                                  - self._likelihood(unit[j] - unit[i]) + self._likelihood(-unit[i] - unit[j])) / 4
                    information[i, j] = information[j, i] = -change / STEP**2
            self._directions = np.linalg.eigh(information)
        return self._directions


def noise_doubt(samples: ArrayLike, correct: ArrayLike, k: int, prior: InflatedPrior) -> float:
    """NoiseDoubt(samples, correct, prior).at(k): the relative SD of the planned noise at pass@k."""
    return NoiseDoubt(samples, correct, prior).at(k)


def _first_terms(n: Floats, c: Floats, counts: Floats, k: int, prior: InflatedPrior) -> tuple[float, float]:
    """(E[F], the sum of the problems' posterior variances of their terms) given the prior."""
    flaky = _shares(n, c, prior)[3]
    alpha, beta = prior.a + c, prior.b + n - c
    base = betaln(alpha, beta)
    first = np.exp(betaln(alpha + 1, beta + 2 * k - 1) - base)
    second = np.exp(betaln(alpha + 2, beta + 4 * k - 2) - base)
    expected = math.fsum((counts * flaky * first).tolist())
    spread = math.fsum((counts * (flaky * second - flaky**2 * first**2)).tolist())
    return expected, max(spread, 0.0)
