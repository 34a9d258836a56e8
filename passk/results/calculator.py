"""The single-problem calculation: compute once, one result object.

The HTML page, the embed and the JSON API all render a `Calculation`; none of
them computes anything of its own. Reading what a request asks for is web.query's.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from passk.maths import estimator

TABLE_KS = (1, 5, 10, 100)


def printable(text: str, limit: int = 40) -> str:
    """Echo user text safely: control characters replaced, long text cut."""
    if not text.isprintable():   # (most text is: then it needs no copy a character at a time)
        text = "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text)
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Row:
    """One row of the k table."""

    k: int
    pass_at_k: float | None
    reason: str | None = None


@dataclass
class Calculation:
    """Every number shown for one problem, computed once."""

    n: int
    c: int
    k: int
    pass_at_k: float
    pass_at_1: float
    cross_check: float | None
    agreeing_digits: int | None
    exact: str | None
    pass_hat_k: float
    biased_pass_at_k: float
    table: list[Row]
    miss_chance: float = 0.0   # C(n-c, k)/C(n, k), with its own digits (for the steps)


def table_rows(n: int, c: int, ks: Iterable[int]) -> list[Row]:
    """pass@k for each k; a k above n is a row that says why it is undefined."""
    return [Row(k, estimator.pass_at_k(n, c, k)) if k <= n else
            Row(k, None, f"n < k: you cannot draw {k:,} samples from the {n:,} you generated.")
            for k in ks]


def calculate(n: int, c: int, k: int, extra_ks: Iterable[int] = ()) -> Calculation:
    """The whole single-problem result for n samples, c correct, budget k."""
    n, c, k = estimator.check_counts(n, c, k)
    rows = table_rows(n, c, sorted({*TABLE_KS, k, *extra_ks}))
    value = next(row.pass_at_k for row in rows if row.k == k)
    pass_at_1 = next(row.pass_at_k for row in rows if row.k == 1)
    assert value is not None and pass_at_1 is not None   # 1 <= k <= n: both rows have a value
    cross = estimator.falling_ratio(n, c, k)
    return Calculation(
        n=n, c=c, k=k,
        pass_at_k=value,
        pass_at_1=pass_at_1,
        cross_check=cross,
        agreeing_digits=estimator.agreeing_digits(value, cross),
        exact=estimator.readable_fraction(estimator.exact_pass_at_k(n, c, k)),
        pass_hat_k=estimator.pass_hat_k(n, c, k),
        biased_pass_at_k=estimator.biased_pass_at_k(n, c, k),
        table=rows,
        miss_chance=estimator.miss_chance(n, c, k),
    )
