"""The worked steps for one problem, written with the user's own numbers."""

from typing import TYPE_CHECKING

from passk.writing.display import fraction, pass_percent, percent

if TYPE_CHECKING:   # for its type only, as at run time the steps need nothing of the calculator
    from passk.results.calculator import Calculation

SHOWN_FACTORS = 3  # with more factors than 2 * this, the middle ones are elided


def _factor(k: int, i: int) -> str:
    return f"(1 − {k:,}/{i:,})"


def product_factors(n: int, c: int, k: int) -> str:
    """The reference product's factors (1 − k/i), i = n−c+1..n, eliding the middle."""
    first = range(n - c + 1, n + 1)
    if len(first) <= 2 * SHOWN_FACTORS:
        return " × ".join(_factor(k, i) for i in first)
    head = " × ".join(_factor(k, i) for i in first[:SHOWN_FACTORS])
    tail = " × ".join(_factor(k, i) for i in first[-SHOWN_FACTORS:])
    return f"{head} × … ({c - 2 * SHOWN_FACTORS:,} more factors) … × {tail}"


def _plain(value: float) -> str:
    """A probability in the page's fraction style: 0.0833, or 1.20 × 10⁻⁵⁹ for tiny values."""
    return fraction(value)


def _result(calc: "Calculation") -> str:
    """The result as a fraction and percentage, or a note that it rounds to 100%."""
    if calc.pass_at_k == 1:
        return "100% after rounding: a double cannot hold the difference"
    return f"{fraction(calc.pass_at_k)} = {percent(calc.pass_at_k)}"


def worked_steps(calc: "Calculation") -> list[str]:
    """A list of plain sentences that take the reader from n, c, k to the result."""
    n, c, k = calc.n, calc.c, calc.k
    steps = [f"Inputs: n = {n:,} samples, c = {c:,} passed, k = {k:,} drawn; "
             f"0 ≤ c ≤ n and 1 ≤ k ≤ n hold."]
    if c == 0:
        steps.append("No sample passed (c = 0), so no draw of k samples can contain a pass: "
                     "pass@k = 0.")
    elif n - c < k:
        steps.append(f"Only n − c = {n - c:,} samples failed, fewer than k = {k:,}: every draw of "
                     f"k samples must include a passing one, so pass@k = 1.")
    else:
        miss = _plain(calc.miss_chance)
        steps += [
            f"n − c = {n - c:,} ≥ k = {k:,}, so some draws miss every pass. Their share is "
            f"C(n − c, k) / C(n, k) = C({n - c:,}, {k:,}) / C({n:,}, {k:,}).",
            f"As the reference product over i = {n - c + 1:,} … {n:,}: {product_factors(n, c, k)} = {miss}.",
            f"pass@k = 1 − {miss} = {_result(calc)}" + (f" (exactly {calc.exact})." if calc.exact else "."),
        ]
    steps.append(_identity_check(calc))
    return steps


def _identity_check(calc: "Calculation") -> str:
    """The checks every result passes, stated with this result's numbers."""
    checks = [f"pass@1 = c/n = {calc.c:,}/{calc.n:,} = {percent(calc.pass_at_1)}",
              f"pass@1 ≤ pass@k ≤ 1 ({percent(calc.pass_at_1)} ≤ "
              f"{pass_percent(calc.pass_at_k, calc.n, calc.c, calc.k)})"]
    if calc.cross_check is not None:
        checks.append(f"the falling-ratio product gives {calc.cross_check!r}, agreeing to "
                      f"{calc.agreeing_digits} significant digits")
    return "Check: " + "; ".join(checks) + "."
