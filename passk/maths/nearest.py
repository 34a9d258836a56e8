"""The double nearest an exact value, by construction: the same bits on every CPU.

passk's point values (pass@k, pass^k, the miss chance, ...) are exact
rationals; each is returned as the double nearest it (ties to even), so no
libm function or SIMD path can change a digit. Three ways, cheapest first:

- exact integers: Python's ``int / int`` rounds the exact quotient once;
- double-double arithmetic: a value carried as ``hi + lo`` (about 106 bits),
  built only from +, -, * and /, which IEEE 754 rounds correctly on every CPU
  and SIMD path, with a proven bound on its error (the lemmas below). Its
  result is taken only where every value within the bound rounds to one double
  (`settled`); elsewhere the next way decides;
- the decimal module (whose ln and exp are correctly rounded) at a precision
  that grows until its bound settles (Ziv's strategy), ending in exact
  integers if it never does.

For long products at huge n there are also double-doubles that carry their
own bound (Approx: add, multiply, divide), and with them expm1, log1p, log
and Stirling's remainder, each from + - * / only: numpy's log and log1p are
never used for a value, only to pick a grid point or a Newton start whose
error the carried bound already covers.

Double-double lemmas (u = 2**-53, round to nearest, no overflow, results above
2**-968 so nothing is subnormal; (h, l) is normalised: |l| <= u |h|):

- two_sum, and fast_two_sum when |a| >= |b|, give s + e = a + b exactly
  (Knuth; Dekker); two_product gives p + e = a b exactly (Dekker, with
  Veltkamp's split by 2**27 + 1).
- times_float: (h, l) f to a relative error of at most 3.01 u^2. The product
  is p + e + l f; l f is rounded (at most u |l f| <= u^2 |h f|) and so is
  t + e (at most u (|t| + |e|) <= 2 u^2 (1 + u) |h f|): (3 + 2u) u^2 |h f| in
  all, against |(h + l) f| >= (1 - u) |h f|.
- times: (h1, l1)(h2, l2) to 6.01 u^2. With H = |h1 h2|: h1 l2 and l1 h2 are
  rounded (u^2 H each) and added (2 u^3 H), e + t is rounded (u (|e| + |t|)
  <= 3 u^2 (1 + u)^2 H), l1 l2 (<= u^2 H) is dropped: 6 u^2 H + O(u^3 H),
  against a product of at least (1 - u)^2 H.
- divided: (h1, l1) / (h2, l2) to 13.1 u^2. With q1 = fl(h1/h2) and R = |h1|,
  the remainder rho = X - q1 Y = (h1 - p - e) + l1 - q1 l2 is at most
  3 u (1 + u) R; h1 - p is exact (Sterbenz), and the three other roundings of
  rho are at most u^2 R, u^2 R and 2 u^2 R, the sum's u |rho| <= 3 u^2 R:
  |r - rho| <= 7 u^2 R. q2 = fl(r / h2) is then within u |r / h2| <= 3 u^2 R/|h2|
  of r/h2, which is within 7 u^2 R/|h2| + |rho/h2| u/(1 - u) <= 10 u^2 R/|h2|
  of rho/Y: 13 u^2 |h1/h2| + O(u^3) in all, against |X/Y| >= |h1/h2| (1 - u)/(1 + u).

Relative bounds then add up: values with relative errors r1, r2, ... (each
below 2**-40 in sum, as every bound here is) combined by an operation of
error r0 are off by at most (r0 + r1 + r2 + ...) (1 + 2**-30) relative, since
prod (1 + r_i) - 1 <= S (1 + S) for S = sum r_i <= 1; the same factor covers
the rounding of that sum itself. `compose` writes it.

Values below 2**-968 (pass^k at large k) are settled the same way, by construction: nearest_scaled rounds a
scaled double-double Q = (h + l) 2**e either in the normal range, where the grid scales by powers of two, or,
below 2**-1022, on the subnormal grid, whose doubles are the multiples of 2**-1074 (its docstring proves both).
"""

import math
import threading
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

Floats: TypeAlias = NDArray[np.float64]
U = 2.0 ** -53                 # binary64's unit roundoff
_SPLITTER = 134217729.0        # 2**27 + 1: Veltkamp's split into halves of 26 and 27 bits
UNDERFLOW = 2.0 ** -1000       # a renormalisation's or scaling's subnormal low part: relative to a high part
                               # of at least 1/4 at most 2**-1074, added to every operation's bound
TIMES_FLOAT = 3.01 * U * U + UNDERFLOW   # the lemmas' relative bounds
TIMES = 6.01 * U * U + UNDERFLOW
DIVIDED = 13.1 * U * U + UNDERFLOW
SLACK = 1 + 2.0 ** -30         # covers second-order terms and the rounding of a bound's own arithmetic
SMALLEST_SETTLED = 2.0 ** -968   # below this a double-double's low part may be subnormal: not settled here
                                 # (nearest_scaled settles smaller values scaled up, or on the subnormal grid)


# --- double-double arithmetic, on floats or numpy arrays alike (only + - * /) ------------------------------

def two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """(s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    virtual = s - a
    return s, (a - (s - virtual)) + (b - virtual)


def fast_two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """(s, e) with s + e = a + b exactly, for |a| >= |b| (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _split(a: Any) -> tuple[Any, Any]:
    """a = high + low with halves of 26 and 27 significant bits (Veltkamp)."""
    t = _SPLITTER * a
    high = t - (t - a)
    return high, a - high


def two_product(a: Any, b: Any) -> tuple[Any, Any]:
    """(p, e) with p = fl(a b) and p + e = a b exactly (Dekker)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def times_float(h: Any, l: Any, f: Any) -> tuple[Any, Any]:
    """(h + l) f for a double f, normalised, within TIMES_FLOAT relative."""
    p, e = two_product(h, f)
    return fast_two_sum(p, l * f + e)


def times(h1: Any, l1: Any, h2: Any, l2: Any) -> tuple[Any, Any]:
    """(h1 + l1)(h2 + l2), normalised, within TIMES relative."""
    p, e = two_product(h1, h2)
    return fast_two_sum(p, e + (h1 * l2 + l1 * h2))


def divided(h1: Any, l1: Any, h2: Any, l2: Any) -> tuple[Any, Any]:
    """(h1 + l1) / (h2 + l2), normalised, within DIVIDED relative."""
    q1 = h1 / h2
    p, e = two_product(q1, h2)
    r = ((h1 - p) - e) + (l1 - q1 * l2)
    return fast_two_sum(q1, r / h2)


def one_minus(h: Any, l: Any) -> tuple[Any, Any, Any]:
    """1 - (h + l) as (hi, lo, the bound on its one rounding): exact but for fl(t - l), at most u (|t| + |l|)."""
    s, t = two_sum(1.0, -h)
    w = t - l
    hi, lo = two_sum(s, w)
    return hi, lo, (abs(t) + abs(l)) * (U * SLACK)


def compose(*relative: Any) -> Any:
    """The relative bound of a result from its operands' bounds and its operation's (module docstring)."""
    total = relative[0]
    for bound in relative[1:]:
        total = total + bound
    return total * SLACK


# --- the rounding test -----------------------------------------------------------------------------------

def settled(h: Floats, l: Floats, bound: Floats) -> NDArray[np.bool_]:
    """Where h is the double nearest every value within bound of h + l (h > 0, (h, l) normalised).

    The values within bound lie in [h + l - bound, h + l + bound]; each rounds to h when the interval is
    strictly inside (h - gap below / 2, h + gap above / 2), the gaps to h's neighbours (unequal at a power of
    two). fl(l + bound) < gap/2 implies l + bound < gap/2, as rounding is monotone and gap/2 a double, and so
    for the other end: the test's own roundings cannot pass a value that should fail.
    """
    with np.errstate(invalid="ignore"):   # an infinite or NaN h (never settled) makes NaN gaps
        above = np.nextafter(h, np.inf) - h
        below = h - np.nextafter(h, 0.0)
        inside = (l + bound < 0.5 * above) & (l - bound > -0.5 * below)
    result: NDArray[np.bool_] = inside & (h >= SMALLEST_SETTLED) & np.isfinite(h)
    return result


def settled_one(h: float, l: float, bound: float) -> bool:
    """settled for one value, in plain Python."""
    if not SMALLEST_SETTLED <= h < math.inf:
        return False
    return l + bound < 0.5 * (math.nextafter(h, math.inf) - h) and l - bound > -0.5 * (h - math.nextafter(h, 0.0))


def _renormalised(h: Floats, l: Floats) -> tuple[Floats, Floats, NDArray[np.int64]]:
    """(h, l) = (h' + l') 2**e with h' in [0.5, 1): exact (a power of two scales both parts)."""
    mantissa, exponent = np.frexp(h)
    return mantissa, np.ldexp(l, -exponent), exponent.astype(np.int64)


# --- x! in double-double, for every x up to a table's size -----------------------------------------------

TABLE_MAX = 1 << 17   # the largest table of factorials kept (3 MB): n up to this goes through it


class Factorials:
    """x! = (high[x] + low[x]) 2**exponent[x] for 0 <= x < size, each within `bound` relative.

    Built in O(size) vectorised steps: the x are cut into `blocks` blocks of `width`; each block's running
    products are taken side by side (one times_float a step), the blocks' starting factorials F_b = (b width)!
    one after another, and each entry is F_b times its block's running product. An entry has had at most
    `width` times_float and `blocks + 1` times, whence `bound`.
    """

    def __init__(self, size: int) -> None:
        blocks = 1 << ((size.bit_length() - 1 + 1) // 2)
        width = size // blocks
        first = np.arange(blocks, dtype=np.float64) * width    # each block's first x
        high, low = np.ones(blocks), np.zeros(blocks)
        exponent = np.zeros(blocks, dtype=np.int64)
        running_high, running_low = np.empty((width, blocks)), np.empty((width, blocks))
        running_exponent = np.empty((width, blocks), dtype=np.int64)
        for i in range(width + 1):   # step i: the product of first + 1 .. first + i
            if i:
                high, low, shift = _renormalised(*times_float(high, low, first + i))
                exponent += shift
            if i < width:
                running_high[i], running_low[i], running_exponent[i] = high, low, exponent
        # F_b: the blocks' totals (high, low, exponent at step width) multiplied in order, in plain floats
        starts_high, starts_low = np.empty(blocks), np.empty(blocks)
        starts_exponent = np.empty(blocks, dtype=np.int64)
        start_high, start_low, start_exponent = 1.0, 0.0, 0
        for b in range(blocks):
            starts_high[b], starts_low[b], starts_exponent[b] = start_high, start_low, start_exponent
            start_high, start_low = times(start_high, start_low, float(high[b]), float(low[b]))
            mantissa, power = math.frexp(start_high)
            start_high, start_low = mantissa, math.ldexp(start_low, -power)
            start_exponent += power + int(exponent[b])
        high, low = times(starts_high, starts_low, running_high, running_low)   # broadcast: [width, blocks]
        high, low, shift = _renormalised(high, low)
        self.high = np.ascontiguousarray(high.T).ravel()   # x = b width + i
        self.low = np.ascontiguousarray(low.T).ravel()
        self.exponent = np.ascontiguousarray((shift + running_exponent + starts_exponent).T).ravel()
        self.size = size
        # width times_float, then blocks + 1 times (the starts' chain and the last step), composed one by one
        bound = 0.0
        for _ in range(width):
            bound = compose(bound, TIMES_FLOAT)
        start = 0.0
        for _ in range(blocks):
            start = compose(start, bound, TIMES)
        self.bound = compose(start, bound, TIMES)

    def ratio(self, top1: NDArray[np.int64], top2: NDArray[np.int64], bottom1: NDArray[np.int64],
              bottom2: NDArray[np.int64]) -> tuple[Floats, Floats, NDArray[np.int64], float]:
        """top1! top2! / (bottom1! bottom2!) as (high, low, exponent, relative bound): (high + low) 2**exponent,
        high + low in (1/4, 4). Every argument below size."""
        h1, l1 = times(self.high[top1], self.low[top1], self.high[top2], self.low[top2])
        h2, l2 = times(self.high[bottom1], self.low[bottom1], self.high[bottom2], self.low[bottom2])
        h, l = divided(h1, l1, h2, l2)
        exponent = self.exponent[top1] + self.exponent[top2] - self.exponent[bottom1] - self.exponent[bottom2]
        product = compose(self.bound, self.bound, TIMES)
        return h, l, exponent, compose(product, product, DIVIDED)

    def quotient_one(self, tops: list[int], bottoms: list[int]) -> tuple[float, float, int, float]:
        """prod x! over tops / prod x! over bottoms (each list not empty, every x below size) as (high, low,
        exponent, relative bound), in plain Python: the products by times, then one division."""
        def product(xs: list[int]) -> tuple[float, float, int, float]:
            h, l, shift, bound = float(self.high[xs[0]]), float(self.low[xs[0]]), int(self.exponent[xs[0]]), self.bound
            for x in xs[1:]:
                h, l = times(h, l, float(self.high[x]), float(self.low[x]))
                mantissa, power = math.frexp(h)
                h, l, shift = mantissa, math.ldexp(l, -power), shift + power + int(self.exponent[x])
                bound = compose(bound, self.bound, TIMES)
            return h, l, shift, bound
        h1, l1, shift1, bound1 = product(tops)
        h2, l2, shift2, bound2 = product(bottoms)
        h, l = divided(h1, l1, h2, l2)
        return h, l, shift1 - shift2, compose(bound1, bound2, DIVIDED)

    def ratio_one(self, top1: int, top2: int, bottom1: int, bottom2: int) -> tuple[float, float, int, float]:
        """ratio for one set of whole numbers, in plain Python."""
        high, low = self.high, self.low
        h1, l1 = times(float(high[top1]), float(low[top1]), float(high[top2]), float(low[top2]))
        h2, l2 = times(float(high[bottom1]), float(low[bottom1]), float(high[bottom2]), float(low[bottom2]))
        h, l = divided(h1, l1, h2, l2)
        exponent = self.exponent
        shift = int(exponent[top1]) + int(exponent[top2]) - int(exponent[bottom1]) - int(exponent[bottom2])
        product = compose(self.bound, self.bound, TIMES)
        return h, l, shift, compose(product, product, DIVIDED)


_tables: list[Factorials] = []
_building = threading.Lock()


def factorials(largest: int) -> Factorials:
    """A table holding x! for every x <= largest <= TABLE_MAX (built once, grown by powers of two)."""
    if _tables and _tables[-1].size > largest:
        return _tables[-1]
    with _building:
        if not _tables or _tables[-1].size <= largest:
            _tables.append(Factorials(max(1 << 10, 1 << largest.bit_length())))
            del _tables[:-1]
        return _tables[-1]


# --- a falling product in double-double -------------------------------------------------------------------

FALLING_STEPS = 24   # steps between renormalisations: 24 factors below 2**40 stay below 2**960


def falling_ratio(n: Floats, big: Floats, m: Floats, terms: int) -> tuple[Floats, Floats, NDArray[np.int64], Floats]:
    """prod_{j < m} (n - big - j) / (n - j) for whole-number float arrays (n < 2**53, 0 <= m <= terms), as
    (high, low, exponent, relative bound) like Factorials.ratio: the numerator's and the denominator's products
    in double-double (times_float by each whole factor, exact as a double), then one division.

    Past a row's own m its factors are 1, which times_float multiplies by exactly (p = h, e = 0, t = l).
    """
    top_h, top_l, bottom_h, bottom_l = np.ones(n.shape), np.zeros(n.shape), np.ones(n.shape), np.zeros(n.shape)
    exponent = np.zeros(n.shape, dtype=np.int64)
    for j in range(terms):
        live = j < m
        top_h, top_l = times_float(top_h, top_l, np.where(live, n - big - j, 1.0))
        bottom_h, bottom_l = times_float(bottom_h, bottom_l, np.where(live, n - j, 1.0))
        if (j + 1) % FALLING_STEPS == 0 or j == terms - 1:
            top_h, top_l, top_shift = _renormalised(top_h, top_l)
            bottom_h, bottom_l, bottom_shift = _renormalised(bottom_h, bottom_l)
            exponent += top_shift - bottom_shift
    h, l = divided(top_h, top_l, bottom_h, bottom_l)
    # m times_float composed: (((T SLACK + T) SLACK + T) ...) <= m T SLACK**m
    product = m * TIMES_FLOAT * SLACK ** m
    return h, l, exponent, compose(product, product, DIVIDED)


# --- from a double-double with its bound to the nearest double ---------------------------------------------

SMALLEST_NORMAL = 2.0 ** -1022
SUBNORMAL_STEP = 2.0 ** -1074   # the doubles in [0, 2**-1021] are exactly the multiples of this
GRID_TOP = 2.0 ** 53            # Z = Q 2**1074 below this takes the subnormal grid's way (Q below 2**-1021)
TRUSTED = 2.0 ** -40            # a larger relative bound settles nothing here (the proofs assume at most this)


def nearest_scaled(h: Floats, l: Floats, exponent: NDArray[np.int64], relative: Any
                   ) -> tuple[Floats, NDArray[np.bool_]]:
    """The double nearest each Q = (h + l) 2**exponent, and where that is settled, for h in (0, 4] and a true
    value Q* within `relative` e of either, |Q - Q*| <= e max(Q, Q*), so |Q - Q*| <= e Q / (1 - e), e <= TRUSTED
    (else, or for h outside (0, 4], not settled). Three ways, each a proof that every value within the bound
    rounds to the double returned:

    - exponent below -1080: Q* < 4 (1 + 2**-52) 2**-1081 (1 + 2e) < 2**-1075, so 0.0.
    - Z = Q 2**1074 below 2**53, so Q below 2**-1021: the subnormal grid. The doubles in [0, 2**-1021] are
      exactly the multiples of 2**-1074 (the subnormals m 2**-1074 with m < 2**52, then the binade
      [2**-1022, 2**-1021), whose spacing is 2**-1074 too), and m is odd exactly when its double's last bit is
      1. So the double nearest Q* is m 2**-1074 with m the integer nearest Z* = Q* 2**1074, ties to even, while
      Z* <= 2**53 - 1/2 (above 2**53 the spacing is 2). (zh, zl) = (h, l) 2**(exponent + 1074) is Z exactly
      where scaling back gives h and l again (checked: a part scaled into the subnormals that lost bits does not
      come back). c = rint(zh) and
      r = zh - c, |r| <= 1/2, are exact (c = 0, or Sterbenz: c/2 <= zh <= 2c); c < 2**53, as zh >= 2**52 is a
      whole number. Where zh is itself a half-integer (r = +-1/2, as half of all zh in [2**51, 2**52) are) and zl
      points past it, c moves one step toward Z and r to -+1/2 (zh >= 1/2 there, and c <= 2**52). Z* lies within
      B = ((zh + |zl|) e + 2**-1074) SLACK of Z: the 2**-1074 covers an underflow of the product, SLACK its
      roundings and 1/(1 - e) (module docstring). Z* rounds to c when Z + B < c + 1/2 and Z - B > c - 1/2,
      that is zl + B < 1/2 - r and zl - B > -1/2 - r. Where zh >= 1/2, zh and so r are multiples of 2**-53, and
      1/2 - r, -1/2 - r (in [-1, 1]) are exact doubles; for zh in [1/4, 1/2), c = 0 and 1/2 - zh is exact
      (Sterbenz). Elsewhere 1/4 and -1/2 stand in for them, no more than the true margins (0 <= zh < 1/2).
      Each test compares one rounded sum with an exact double: fl(zl + B) < up implies zl + B < up, rounding
      being monotone. A value exactly at a half-integer (zl equal to an exact margin: r + zl = +-1/2) settles
      only with no bound at all (e = 0, so B = 0 and Z* = Z), to the even neighbour; with any bound it does
      not. Settled, Z* is in (c - 1/2, c + 1/2) with c < 2**53, or Z = Z* is a tie and m <= 2**53: the double
      m 2**-1074 <= 2**-1021 is then made by ldexp exactly.
    - otherwise `settled(h, l, B')` with B' = ((h + |l|) e + 2**-1074) SLACK: the test is valid there, h being
      normal (h >= 2**-968), and the double is qh = h 2**exponent where that is at least 2**-1022 and exact
      (scaling back gives h). The normal grid scales by powers of two: qh's neighbours are h's times
      2**exponent, but at qh = 2**-1022, whose neighbour below (2**-1022 - 2**-1074) is farther than the scaled
      one (2**-1022 - 2**-1075). So every value within half the scaled gaps of qh, as every value whose scaled
      copy rounds to h is, rounds to qh. A Q whose nearest double is below 2**-1022 is the grid's (which also
      settles exact ties up to 2**-1021, where this test, strict, does not).
    """
    h, l = np.asarray(h, dtype=np.float64), np.asarray(l, dtype=np.float64)
    exponent = np.asarray(exponent, dtype=np.int64)
    relative = np.asarray(relative, dtype=np.float64)
    usable = (relative <= TRUSTED) & (h > 0) & (h <= 4)   # False for NaN
    scale = np.clip(exponent, -1080, 1021)   # what ldexp takes: no overflow for h <= 4
    faithful = scale == exponent
    shift = np.minimum(scale + 1074, 60)     # (past 60 not on the grid, checked below; clipped for ldexp)
    with np.errstate(over="ignore", invalid="ignore"):   # an infinite or NaN part is never settled
        zh, zl = np.ldexp(h, shift), np.ldexp(l, shift)   # Z = Q 2**1074 = zh + zl, where on_grid
        on_grid = (faithful & (zh < GRID_TOP) & (np.ldexp(zh, -shift) == h) & (np.ldexp(zl, -shift) == l)
                   & (scale + 1074 <= 60))
        whole = np.rint(zh)
        r = zh - whole
        step = np.where((r == 0.5) & (zl > 0), 1.0, np.where((r == -0.5) & (zl < 0), -1.0, 0.0))
        whole, r = whole + step, r - step
        bound = np.where(relative == 0, 0.0, ((zh + np.abs(zl)) * relative + SUBNORMAL_STEP) * SLACK)
        up = np.where(zh < 0.25, 0.25, 0.5 - r)
        down = np.where(zh < 0.5, -0.5, -0.5 - r)
        inside = (zl + bound < up) & (zl - bound > down)
        odd = np.floor(whole * 0.5) * 2 != whole
        tie_up = (bound == 0) & (zh >= 0.25) & (zl == up)       # Z = c + 1/2 exactly
        tie_down = (bound == 0) & (zh >= 0.5) & (zl == down)    # Z = c - 1/2 exactly
        chosen = np.where(tie_up & odd, whole + 1, np.where(tie_down & odd, whole - 1, whole))
        grid = on_grid & (inside | tie_up | tie_down)
        grid_value = np.ldexp(np.where(grid, chosen, 0.0), -1074)
        qh = np.ldexp(h, scale)
        normal = (faithful & settled(h, l, ((h + np.abs(l)) * relative + SUBNORMAL_STEP) * SLACK)
                  & (qh >= SMALLEST_NORMAL) & (np.ldexp(qh, -scale) == h))
    vanishing = exponent < -1080
    value = np.where(vanishing, 0.0, np.where(grid, grid_value, qh))
    return value, usable & (vanishing | grid | normal)


def nearest_one_minus_scaled(h: Floats, l: Floats, exponent: NDArray[np.int64], relative: Any
                             ) -> tuple[Floats, NDArray[np.bool_]]:
    """The double nearest each 1 - Q for Q as in nearest_scaled (Q <= 1), and where that is settled. Q below
    2**-55 gives 1.0, settled: 1 - Q is then above 1 - 2**-54, the midpoint below 1."""
    negligible = exponent < -57   # Q < 4 2**-58 (1 + relative)
    scale = np.where(negligible, 0, exponent)
    qh, ql = np.ldexp(h, scale), np.ldexp(l, scale)
    ph, pl, rounding = one_minus(qh, ql)
    ok = settled(ph, pl, (qh * relative + rounding + 2.0 ** -1074) * SLACK) | negligible
    return np.where(negligible, 1.0, ph), ok


def nearest_scaled_one(h: float, l: float, exponent: int, relative: float) -> float | None:
    """nearest_scaled for one value in plain Python, the same three ways; None when not settled."""
    if not (relative <= TRUSTED and 0 < h <= 4 and exponent <= 1021):
        return None
    if exponent < -1080:
        return 0.0
    shift = exponent + 1074
    if shift <= 60:
        zh, zl = math.ldexp(h, shift), math.ldexp(l, shift)
        if zh < GRID_TOP and math.ldexp(zh, -shift) == h and math.ldexp(zl, -shift) == l:
            return _on_grid_one(zh, zl, relative)
    qh = math.ldexp(h, exponent)
    if qh >= SMALLEST_NORMAL and math.ldexp(qh, -exponent) == h \
            and settled_one(h, l, ((h + abs(l)) * relative + SUBNORMAL_STEP) * SLACK):
        return qh
    return None


def _on_grid_one(zh: float, zl: float, relative: float) -> float | None:
    """nearest_scaled's subnormal grid for one Z = zh + zl (0 < zh < 2**53, exact): m 2**-1074, or None."""
    whole = float(round(zh))   # ties to even, as rint
    r = zh - whole
    if abs(r) == 0.5 and r * zl > 0:   # zh a half-integer, Z past it
        whole, r = whole + 2 * r, -r
    bound = 0.0 if relative == 0 else ((zh + abs(zl)) * relative + SUBNORMAL_STEP) * SLACK
    up = 0.25 if zh < 0.25 else 0.5 - r
    down = -0.5 if zh < 0.5 else -0.5 - r
    if zl + bound < up and zl - bound > down:
        return math.ldexp(whole, -1074)
    odd = whole % 2 == 1
    if bound == 0 and zh >= 0.25 and zl == up:     # Z = c + 1/2 exactly
        return math.ldexp(whole + 1 if odd else whole, -1074)
    if bound == 0 and zh >= 0.5 and zl == down:    # Z = c - 1/2 exactly
        return math.ldexp(whole - 1 if odd else whole, -1074)
    return None


def nearest_one_minus_scaled_one(h: float, l: float, exponent: int, relative: float) -> float | None:
    """nearest_one_minus_scaled for one value in plain Python; None when not settled."""
    if exponent < -57:
        return 1.0
    qh, ql = math.ldexp(h, exponent), math.ldexp(l, exponent)
    ph, pl, rounding = one_minus(qh, ql)
    return ph if settled_one(ph, pl, (qh * relative + rounding + 2.0 ** -1074) * SLACK) else None


# --- decimal arithmetic at a growing precision (Ziv) --------------------------------------------------------

# log(2 pi)/2 to 125 digits (mpmath; tests/passk/maths/test_nearest.py checks it at 200)
_HALF_LOG_2PI = Decimal("0.91893853320467274178032973640561763986139747363778341281715154048276569592726039769474"
                        "329863595419762200564662463433744636686")
_CONSTANT_ERROR = Decimal("1e-124")   # the constant's own
_BOUNDS = Context(prec=12, rounding=ROUND_CEILING)   # bounds, each rounded up
MOST_DIGITS = 320                     # precision at which the decimal way gives up for exact integers


def _up(value: Decimal | int | Fraction) -> Decimal:
    """value rounded up to a Decimal of _BOUNDS' precision."""
    if isinstance(value, Fraction):
        return _BOUNDS.divide(Decimal(value.numerator), Decimal(value.denominator))
    return _BOUNDS.plus(Decimal(value))


def _size(x: int) -> Decimal:
    """An upper bound on (x + 1)(ln x + 1), the largest magnitude in log_factorial(x): ln x <= 0.6932 bits."""
    return _BOUNDS.multiply(Decimal(x + 1), _BOUNDS.add(_BOUNDS.multiply(Decimal("0.6932"), x.bit_length()), 1))


@lru_cache(maxsize=None)
def _stirling_coefficients(count: int) -> tuple[tuple[Fraction, ...], tuple[float, ...]]:
    """B_2j / (2j (2j - 1)) for j = 1..count (Bernoulli numbers, exactly), and each one's log10 magnitude."""
    bernoulli = [Fraction(1)]
    for m in range(1, 2 * count + 1):   # sum_{j<=m} C(m+1, j) B_j = 0
        bernoulli.append(-sum((math.comb(m + 1, j) * bernoulli[j] for j in range(m)), Fraction(0)) / (m + 1))
    coefficients = tuple(bernoulli[2 * j] / (2 * j * (2 * j - 1)) for j in range(1, count + 1))
    return coefficients, tuple(math.log10(abs(c.numerator)) - math.log10(c.denominator) for c in coefficients)


def log_factorial(x: int, context: Context) -> tuple[Decimal, Decimal]:
    """(ln x!, a bound on its error) at the context's precision p (rounding half even).

    Below 2p + 64, ln of the exact x!, rounded once. Above, Stirling's series
    (x + 1/2) ln x - x + ln(2 pi)/2 + sum_{j<=K} B_2j / (2j (2j-1) x^(2j-1)), whose remainder is at most the
    first omitted term (DLMF 5.11.10 and 5.11(ii), for real x > 0). With e = 10^(1-p)/2 the relative error of
    one operation: ln x (e), (x + 1/2) ln x (x + 1/2 exact; e more), - x, + ln(2 pi)/2 (e each, and e for the
    constant), the K terms (e for the coefficient, e for the division) and their K additions, + the sum (e):
    at most e (5.02 (x + 1)(ln x + 1) + K + 4), as every partial result is below (x + 1)(ln x + 1).
    """
    return _log_factorial(x, context.prec)


@lru_cache(maxsize=4096)   # a pair's tails and ks share most of their factorials (n!, c!, (n-c)!)
def _log_factorial(x: int, digits: int) -> tuple[Decimal, Decimal]:
    """log_factorial at `digits` digits."""
    context = Context(prec=digits)
    unit = Decimal(1).scaleb(1 - digits) / 2
    if x <= 1:
        return Decimal(0), Decimal(0)
    if x < 2 * digits + 64:
        value = context.ln(Decimal(math.factorial(x)))
        return value, _up(unit * abs(value))
    coefficients, magnitudes = _stirling_coefficients(max(8, digits))
    size = math.log10(x)
    terms = next(j for j in range(len(magnitudes)) if magnitudes[j] - (2 * j + 1) * size < -digits - 3)
    whole = Decimal(x)
    value = context.subtract(context.multiply(context.add(whole, Decimal("0.5")), context.ln(whole)), whole)
    value = context.add(value, context.plus(_HALF_LOG_2PI))
    series = Decimal(0)
    for j in range(terms):
        coefficient = context.divide(Decimal(coefficients[j].numerator), Decimal(coefficients[j].denominator))
        series = context.add(series, context.divide(coefficient, Decimal(x ** (2 * j + 1))))
    value = context.add(value, series)
    omitted = _BOUNDS.divide(_up(abs(coefficients[terms])), Decimal(x) ** (2 * terms + 1))
    bound = _BOUNDS.multiply(unit, _BOUNDS.add(_BOUNDS.multiply(Decimal("5.02"), _size(x)), terms + 4))
    return value, _BOUNDS.add(_BOUNDS.add(bound, omitted), _CONSTANT_ERROR)


def nearest_from_log(log: Any, digits: int, complement: bool) -> float | None:
    """The double nearest exp(L), or 1 - exp(L) when complement, for L <= 0 given by log(context) -> (L, bound):
    at `digits` decimal digits, then more (Ziv) until every value within the bound rounds alike; None past
    MOST_DIGITS (the caller then computes in exact integers).

    exp(L) is E = exp(L~)(1 + t), |t| <= e, so within exp(L~) (|exp(d) - 1| + e) <= 1.01 E (2 b + e) of
    exp(L) for |d| <= b <= 1; 1 - E adds its own rounding, e |1 - E|.
    """
    while digits <= MOST_DIGITS:
        context = Context(prec=digits)
        unit = Decimal(1).scaleb(1 - digits) / 2
        value, bound = log(context)
        if bound <= 1:
            if complement and value + bound < -40:   # exp(L) < e^-40 < 2^-55: 1 - exp(L) rounds to 1
                return 1.0
            if not complement and value + bound < -746:   # exp(L) < 2^-1075: rounds to 0
                return 0.0
            power = context.exp(value)
            error = _BOUNDS.multiply(_BOUNDS.multiply(Decimal("1.01"), power),
                                     _BOUNDS.add(_BOUNDS.multiply(2, bound), unit))
            if complement:
                power = context.subtract(1, power)
                error = _BOUNDS.add(error, _BOUNDS.multiply(unit, abs(power)))
            settled_value = _settle(power, error, digits)
            if settled_value is not None:
                return settled_value
        digits += max(20, digits // 2)
    return None


def _settle(value: Decimal, error: Decimal, digits: int) -> float | None:
    """float(value) when every number within error of value (a number >= 0) rounds to the same double; float()
    of a Decimal is correctly rounded (CPython's strtod) and monotone."""
    low = Context(prec=digits + 20, rounding=ROUND_FLOOR).subtract(value, error)
    high = Context(prec=digits + 20, rounding=ROUND_CEILING).add(value, error)
    low_double, high_double = float(max(low, Decimal(0))), float(high)
    return high_double if low_double == high_double else None


# --- sums and running products of double-doubles -------------------------------------------------------------

# plus: (h1, l1) + (h2, l2) for nonnegative operands, within ADD relative. s + e = h1 + h2 exactly; l1 + l2 is
# rounded (at most u^2 (h1 + h2)), e + t too (u (|e| + |t|) <= 2.01 u^2 (h1 + h2)): 3.02 u^2 (h1 + h2), against
# a sum of at least (1 - u)(h1 + h2).
ADD = 3.03 * U * U + UNDERFLOW


def plus(h1: Any, l1: Any, h2: Any, l2: Any) -> tuple[Any, Any]:
    """(h1 + l1) + (h2 + l2) for nonnegative double-doubles, normalised, within ADD relative."""
    s, e = two_sum(h1, h2)
    return fast_two_sum(s, e + (l1 + l2))


def summed(h: Floats, l: Floats) -> tuple[float, float, int]:
    """The sum of nonnegative double-doubles, pairwise, as (high, low, depth): within depth ADD (composed)
    relative, as each level's additions are each within ADD of their own sums and all terms are nonnegative."""
    depth = 0
    while h.size > 1:
        if h.size % 2:
            h, l = np.append(h, 0.0), np.append(l, 0.0)
        h, l = plus(h[0::2], l[0::2], h[1::2], l[1::2])
        depth += 1
    return (float(h[0]), float(l[0]), depth) if h.size else (0.0, 0.0, 0)


def running_products(h: Floats, l: Floats) -> tuple[Floats, Floats]:
    """The prefix products prod_{q <= i} (h_q + l_q). Entry i is a product of its i + 1 factors formed by some
    tree of i `times` (times by an exact 1 is exact), so it is within the sum of its factors' bounds and
    i TIMES (composed), whatever the tree.

    Up to RUNNING_WIDTH squared factors by doubling (Hillis and Steele: log2 of the size full passes); above,
    rows of RUNNING_WIDTH are multiplied out along the row, the rows' totals by this same function, and each
    row by the product of the rows before it: a few times an entry, not one a pass.
    """
    if h.size <= RUNNING_WIDTH * RUNNING_WIDTH:
        shift = 1
        while shift < h.size:
            high, low = times(h[shift:], l[shift:], h[:-shift], l[:-shift])
            h, l = np.concatenate([h[:shift], high]), np.concatenate([l[:shift], low])
            shift *= 2
        return h, l
    size = h.size
    rows = -(-size // RUNNING_WIDTH)
    padded_h, padded_l = np.ones(rows * RUNNING_WIDTH), np.zeros(rows * RUNNING_WIDTH)
    padded_h[:size], padded_l[:size] = h, l
    grid_h, grid_l = padded_h.reshape(rows, RUNNING_WIDTH), padded_l.reshape(rows, RUNNING_WIDTH)
    for column in range(1, RUNNING_WIDTH):
        grid_h[:, column], grid_l[:, column] = times(grid_h[:, column], grid_l[:, column],
                                                     grid_h[:, column - 1], grid_l[:, column - 1])
    before_h, before_l = running_products(grid_h[:-1, -1].copy(), grid_l[:-1, -1].copy())
    before_h, before_l = np.concatenate([[1.0], before_h]), np.concatenate([[0.0], before_l])
    grid_h, grid_l = times(grid_h, grid_l, before_h[:, None], before_l[:, None])
    return grid_h.ravel()[:size], grid_l.ravel()[:size]


RUNNING_WIDTH = 16   # running_products' rows


# --- double-doubles with their error bounds carried along: exp, log and Stirling's series ---------------------
# An Approx is (high, low, error): arrays with |high + low - x| <= error for the value x it stands for. Each
# operation below returns its result's bound from its operands' bounds and its own lemma's (module docstring;
# ADD_ANY below for sums of any sign), every bound computed in floats and multiplied by SLACK, which covers the
# few roundings of that computation (each at most u relative, all terms nonnegative). UNDERFLOW joins each bound
# as an absolute term: no value here is near the subnormals but the low parts of sums that cancel.

Approx: TypeAlias = tuple[Floats, Floats, Floats]
# (h1, l1) + (h2, l2) of any signs: s + e = h1 + h2 exactly; l1 + l2 rounded (u^2 (|h1| + |h2|)), e + t too
# (u (|e| + |t|) <= 2.01 u^2 (|h1| + |h2|)), two_sum exact: 3.01 u^2 (|h1| + |h2|), written 4.01 for margin.
ADD_ANY = 4.01 * U * U
LN2_HIGH = 0.6931471803691238      # ln 2 = LN2_HIGH + LN2_MIDDLE + LN2_LOW within 6e-43 (mpmath, 60 digits);
LN2_MIDDLE = 1.9082149292705877e-10   # LN2_HIGH has 32 bits, so k LN2_HIGH is exact for |k| < 2**21
LN2_LOW = 1.1612227229362532e-26
LN2_ERROR = 1e-42
TAYLOR_TERMS = 11                  # expm1's series, for |r| <= 0.35 / 2**HALVINGS
HALVINGS = 8


def exact(x: Floats) -> Approx:
    """Doubles as an Approx of themselves."""
    return x, np.zeros(x.shape), np.zeros(x.shape)


def add(a: Approx, b: Approx) -> Approx:
    """a + b, any signs."""
    s, e = two_sum(a[0], b[0])
    high, low = two_sum(s, e + (a[1] + b[1]))
    return high, low, (a[2] + b[2] + ADD_ANY * (abs(a[0]) + abs(b[0])) + UNDERFLOW) * SLACK


def negative(a: Approx) -> Approx:
    """-a, exactly."""
    return -a[0], -a[1], a[2]


def multiply(a: Approx, b: Approx) -> Approx:
    """a b: the lemma's TIMES of the product of the represented values, and the operands' bounds
    |A| e_b + |B| e_a + e_a e_b."""
    high, low = times(a[0], a[1], b[0], b[1])
    size_a, size_b = abs(a[0]) + abs(a[1]), abs(b[0]) + abs(b[1])
    return high, low, (size_a * b[2] + size_b * a[2] + a[2] * b[2] + TIMES * size_a * size_b + UNDERFLOW) * SLACK


def divide(a: Approx, b: Approx) -> Approx:
    """a / b, for |B| > 2 e_b: the lemma's DIVIDED of A/B, and |A/B - a/b| <= (|A| e_b/|B| + e_a)/(|B| - e_b)."""
    high, low = divided(a[0], a[1], b[0], b[1])
    size_a, size_b = abs(a[0]) + abs(a[1]), abs(b[0]) - abs(b[1])   # |A| above, |B| below
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = (size_a * b[2] / size_b + a[2]) / (size_b - b[2])
        bound = (spread + DIVIDED * (abs(high) + abs(low)) * 2 + UNDERFLOW) * SLACK
    return high, low, np.where(size_b > 2 * b[2], bound, np.inf)


def scaled(a: Approx, power: int) -> Approx:
    """a 2**power, exactly (no value here is near the subnormals)."""
    return np.ldexp(a[0], power), np.ldexp(a[1], power), np.ldexp(a[2], power)


@lru_cache(maxsize=None)
def _reciprocal_factorials() -> tuple[tuple[float, float, float], ...]:
    """1/i! for i = 0..TAYLOR_TERMS as double-doubles, each within u^2 of itself."""
    values = []
    for i in range(TAYLOR_TERMS + 1):
        value = Fraction(1, math.factorial(i))
        high = value.numerator / value.denominator
        low_value = value - Fraction(high)
        low = low_value.numerator / low_value.denominator
        values.append((high, low, float(abs(value)) * U * U))
    return tuple(values)


def expm1(y: Approx) -> tuple[Approx, NDArray[np.int64]]:
    """(m, k) with e^y = 2**k (1 + m), for -1100 <= y <= 0 (k = 0 where y > -ln 2 / 2, so m = e^y - 1 keeps
    its relative accuracy near 0).

    y = k ln 2 + r with |r| <= ln 2 / 2 + (bound of y); e^r - 1 = m(r) by its Taylor series at r / 2**8 (Horner,
    the omitted tail at most |t|^12 / 12! 2 for |t| <= 1), then doubled back 8 times, m(2t) = m(t)(m(t) + 2).
    """
    k = np.rint(y[0] / LN2_HIGH)
    middle_high, middle_low = two_product(k, LN2_MIDDLE)
    r = add(add(y, exact(-k * LN2_HIGH)), (-middle_high, -middle_low, np.zeros(k.shape)))
    r = add(r, (-k * LN2_LOW, np.zeros(k.shape), np.abs(k) * (LN2_LOW * U + LN2_ERROR)))
    t = scaled(r, -HALVINGS)
    coefficients = _reciprocal_factorials()
    shape = k.shape
    high, low, error = coefficients[TAYLOR_TERMS]
    series: Approx = (np.full(shape, high), np.full(shape, low), np.full(shape, error))
    for i in range(TAYLOR_TERMS - 1, 0, -1):
        high, low, error = coefficients[i]
        series = add((np.full(shape, high), np.full(shape, low), np.full(shape, error)), multiply(t, series))
    m = multiply(t, series)
    size = abs(t[0]) + abs(t[1]) + t[2]
    omitted = 2 * size ** (TAYLOR_TERMS + 1) / math.factorial(TAYLOR_TERMS + 1)
    m = m[0], m[1], np.where(size <= 1, (m[2] + omitted) * SLACK, np.inf)
    for _ in range(HALVINGS):
        m = multiply(m, add(m, exact(np.full(shape, 2.0))))
    return m, k.astype(np.int64)


ATANH_TERMS = 8      # 2 atanh(w)'s series for |w| <= 2**-7: the first omitted term is below 2**-112 of it
LOG_GRID = 64        # ln f for f in [1/2, 1] from ln(i/LOG_GRID), i = 32..64, and f / (i/LOG_GRID) near 1


@lru_cache(maxsize=None)
def _odd_reciprocals() -> tuple[tuple[float, float, float], ...]:
    """1/(2j + 1) for j = 0..ATANH_TERMS - 1 as double-doubles, each within u^2 of itself."""
    values = []
    for j in range(ATANH_TERMS):
        value = Fraction(1, 2 * j + 1)
        high = value.numerator / value.denominator
        rest = value - Fraction(high)
        values.append((high, rest.numerator / rest.denominator, float(value) * U * U))
    return tuple(values)


@lru_cache(maxsize=None)
def _log_grid() -> tuple[Floats, Floats, float]:
    """ln(i / LOG_GRID) for i = 0..LOG_GRID (the first half unused) as double-doubles, and their common bound:
    decimal's ln at 50 digits (correctly rounded), split into two doubles (the low one rounded once)."""
    context = Context(prec=50)
    high, low = np.zeros(LOG_GRID + 1), np.zeros(LOG_GRID + 1)
    for i in range(LOG_GRID // 2, LOG_GRID + 1):
        value = context.ln(Decimal(i) / LOG_GRID)
        high[i] = float(value)
        low[i] = float(Context(prec=80).subtract(value, Decimal(high[i])))
    return high, low, 1e-49 + U * U * 0.7   # the 50 digits, and low's rounding (|ln| <= ln 2)


def _atanh_twice(w: Approx) -> Approx:
    """2 atanh(w) = ln((1 + w)/(1 - w)) = 2 w sum_j w^(2j)/(2j + 1) for |w| <= 2**-7, by Horner in w^2; the
    rest is below |w|^17/(17 (1 - w^2)) of 2|w|, and w's own bound grows by at most 1/(1 - w^2) (the
    derivative's)."""
    shape = w[0].shape
    square = multiply(w, w)
    reciprocals = _odd_reciprocals()
    high, low, error = reciprocals[-1]
    series: Approx = (np.full(shape, high), np.full(shape, low), np.full(shape, error))
    for high, low, error in reciprocals[-2::-1]:
        series = add((np.full(shape, high), np.full(shape, low), np.full(shape, error)), multiply(square, series))
    value = multiply(w, series)
    size = np.abs(w[0]) + np.abs(w[1]) + w[2]
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        omitted = 2 * size ** (2 * ATANH_TERMS + 1) / ((2 * ATANH_TERMS + 1) * (1 - size * size))
        bound = np.where(size <= 2.0**-6, (2 * value[2] + omitted) * SLACK, np.inf)
    return 2 * value[0], 2 * value[1], bound


def log1p(z: Approx) -> Approx:
    """ln(1 + z) for -1/2 <= z <= 0, to a bound relative to |z|: 2 atanh(z/(2 + z)) where that argument is at
    most 2**-7 (z near 0, the usual case); elsewhere log(1 + z), whose bound is relative to |ln(1 + z)| >= 2**-7
    there (1 + z is then exact to 4 u^2)."""
    shape = z[0].shape
    w = divide(z, add(exact(np.full(shape, 2.0)), z))
    small = np.abs(w[0]) <= 2.0**-7
    if small.all():
        return _atanh_twice(w)
    value = _atanh_twice(tuple(np.where(small, part, 0.0) for part in w))   # type: ignore[arg-type]
    rows = np.flatnonzero(~small)
    rest = log(add(exact(np.ones(rows.size)), tuple(part[rows] for part in z)))   # type: ignore[arg-type]
    for part, other in zip(value, rest):
        part[rows] = other
    return value


def log(v: Approx) -> Approx:
    """ln v for v > 0 (normal), to a bound relative to max(|ln v|, 2**-7): v = 2**e f with f in [1/2, 1)
    (exact), f = (i / LOG_GRID) q with i the nearest grid point, so |q - 1| <= 1/LOG_GRID, and
    ln v = e ln 2 + ln(i / LOG_GRID) + 2 atanh((q - 1)/(q + 1))."""
    _, powers = np.frexp(v[0])
    f = scaled_each(v, -powers.astype(np.int64))
    grid = np.rint(f[0] * LOG_GRID)
    q = divide(f, exact(grid / LOG_GRID))
    w = divide(add(q, exact(-np.ones(grid.shape))), add(q, exact(np.ones(grid.shape))))
    table_high, table_low, table_bound = _log_grid()
    index = grid.astype(np.int64)
    e = powers.astype(np.float64)
    return add(add(_times_ln2(e), (table_high[index], table_low[index], np.full(grid.shape, table_bound))),
               _atanh_twice(w))


LN2_SECOND = 1.9082149291141208e-10   # ln 2 = LN2_HIGH + LN2_SECOND + LN2_THIRD within 1e-36 (mpmath, 80 digits);
LN2_THIRD = 1.564670158533888e-20    # LN2_SECOND has 33 bits, so e LN2_SECOND is exact for |e| < 2**20


def _times_ln2(e: Floats) -> Approx:
    """e ln 2 for whole e below 2**11: e LN2_HIGH and e LN2_SECOND exact, e LN2_THIRD rounded once."""
    zeros = np.zeros(e.shape)
    return add(add(exact(e * LN2_HIGH), exact(e * LN2_SECOND)),
               (e * LN2_THIRD, zeros, np.abs(e) * (LN2_THIRD * U + 1e-36)))


def scaled_each(a: Approx, powers: NDArray[np.int64]) -> Approx:
    """a 2**powers elementwise, exactly."""
    return np.ldexp(a[0], powers), np.ldexp(a[1], powers), np.ldexp(a[2], powers)


SERIES_FROM = 1000     # Stirling's remainder by its series from here, below from the table of factorials
SERIES_TERMS = 7       # its terms: the first omitted, below 0.03 x^-15, is under 1e-46 for x >= 1000
# ln(2 pi)/2 as a double-double, within 1e-40 (from the 125 digits above)
_HALF_LOG_2PI_HIGH = float(_HALF_LOG_2PI)
_HALF_LOG_2PI_LOW = float(_HALF_LOG_2PI - Decimal(_HALF_LOG_2PI_HIGH))


@lru_cache(maxsize=None)
def _stirling_terms() -> tuple[tuple[float, float, float], ...]:
    """B_2j / (2j (2j - 1)) for j = 1..SERIES_TERMS + 1 as (high, low, error) double-doubles."""
    values = []
    for coefficient in _stirling_coefficients(SERIES_TERMS + 1)[0]:
        high = coefficient.numerator / coefficient.denominator
        rest = coefficient - Fraction(high)
        values.append((high, rest.numerator / rest.denominator, abs(float(coefficient)) * U * U))
    return tuple(values)


def log_whole(x: Floats) -> Approx:
    """ln x for whole numbers 1 <= x < 2**53 (exact doubles): x = 2**e f with f in [1/2, 1), ln x = e ln 2 +
    log1p(f - 1), f - 1 exact (Sterbenz)."""
    mantissa, power = np.frexp(x)
    return add(_times_ln2(power.astype(np.float64)), log1p(exact(mantissa - 1.0)))


def stirling_remainder(x: Floats) -> Approx:
    """s(x) = ln x! - [(x + 1/2) ln x - x + ln(2 pi)/2] for whole numbers 1 <= x < 2**53.

    From SERIES_FROM on, its series sum_j B_2j / (2j (2j - 1) x^(2j-1)) by Horner in 1/x^2, with the first
    omitted term as the remainder's bound (DLMF 5.11(ii)); below, from the table of factorials: ln x! =
    e ln 2 + ln(high + low) of its entry.
    """
    shape = x.shape
    terms = _stirling_terms()
    least = max(float(np.min(x)), SERIES_FROM)   # as many terms as the smallest x needs, the first omitted
    count = next((j for j in range(1, SERIES_TERMS)   # below 2**-125 (its bound joins each x's anyway)
                  if abs(terms[j][0]) * least ** -(2 * j + 1) < 2.0**-125), SERIES_TERMS)
    reciprocal = divide(exact(np.ones(shape)), exact(np.maximum(x, SERIES_FROM)))
    square = multiply(reciprocal, reciprocal)
    high, low, error = terms[count - 1]
    series: Approx = (np.full(shape, high), np.full(shape, low), np.full(shape, error))
    for j in range(count - 2, -1, -1):
        high, low, error = terms[j]
        series = add((np.full(shape, high), np.full(shape, low), np.full(shape, error)), multiply(square, series))
    series = multiply(reciprocal, series)
    size = abs(reciprocal[0]) * (1 + 2.0**-40)
    omitted = abs(terms[count][0]) * 1.01 * size ** (2 * count + 1)
    series = series[0], series[1], (series[2] + omitted) * SLACK
    small = x < SERIES_FROM
    if not small.any():
        return series
    table = factorials(SERIES_FROM)
    wholes = np.where(small, x, 1.0).astype(np.int64)
    entry_high, entry_low = table.high[wholes], table.low[wholes]
    powers = table.exponent[wholes].astype(np.float64)
    # ln x! = e ln 2 + log1p((high + low) - 1): high in [1/2, 1) so high - 1 is exact; low added exactly-ish
    log_entry = log1p(add(exact(entry_high - 1.0), exact(entry_low)))
    log_entry = log_entry[0], log_entry[1], log_entry[2] + table.bound * 2   # the entry's own bound
    ln_factorial = add(_times_ln2(powers), log_entry)
    small_x = np.where(small, x, 1.0)
    main = add(multiply(exact(small_x + 0.5), log_whole(small_x)), exact(-small_x))
    main = add(main, (np.full(shape, _HALF_LOG_2PI_HIGH), np.full(shape, _HALF_LOG_2PI_LOW), np.full(shape, 1e-40)))
    direct = add(ln_factorial, negative(main))
    return tuple(np.where(small, one, other) for one, other in zip(direct, series))   # type: ignore[return-value]
