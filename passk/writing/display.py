"""How numbers are written for people: percentages, fractions, counts.

One rule for every probability shown (percent, fraction, p-value, percentage
points): a fixed number of decimals while that reads well, and below the
smallest value those decimals can show, three significant digits in one
scientific form. A value that is not exactly 0 is never written as 0, and a
value that is not exactly 1 is never written as 1 (or 100%): next to the top
the decimals grow until they show the gap.

>>> [percent(v) for v in (0.3, 1e-4, 1e-6, 5e-6, 3.77e-23)]
['30.00%', '0.01%', '1.00 × 10⁻⁴%', '5.00 × 10⁻⁴%', '3.77 × 10⁻²¹%']

Each output writes by a Notation (the page's, a terminal's, a paper's, a
spreadsheet's), and the formatters of passk.writing.columns (probability, interval,
whole, label) take one.
"""

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

SIGNIFICANT = 3   # digits of a value written in scientific form
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MOST_PLACES = 17  # decimals beyond these say nothing about a double


def scientific(value: float, digits: int = SIGNIFICANT) -> str:
    """8.66 × 10⁻¹¹: a small number with a fixed number of significant digits, written for people.

    >>> scientific(8.66e-11), scientific(1e-6), scientific(1.5e-6, 4)
    ('8.66 × 10⁻¹¹', '1.00 × 10⁻⁶', '1.500 × 10⁻⁶')
    """
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


NBSP = "\u00a0"   # a space no line ends at
_INSIDE = re.compile(r" (?=× 10|10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]|pts\b|percentage points\b)")


def unbreakable(text: str) -> str:
    """The text with the spaces inside its numbers made no-break spaces, for a page: around the × of
    1.00 × 10⁻⁸ and before a difference's unit, so that a line never ends inside a number.

    >>> unbreakable("1.00 × 10⁻⁸%") == "1.00\\xa0×\\xa010⁻⁸%", unbreakable("3 of 5 pts") == "3 of 5\\xa0pts"
    (True, True)
    """
    return _INSIDE.sub(NBSP, text) if " " in text else text   # most numbers have no space to replace


def page_filter(format_number: Callable[..., str]) -> Callable[..., str]:
    """format_number for the templates: its text made unbreakable()."""
    @functools.wraps(format_number)
    def on_the_page(*args: Any, **kwargs: Any) -> str:
        return unbreakable(format_number(*args, **kwargs))
    return on_the_page


def _plain_scientific(value: float, digits: int = SIGNIFICANT) -> str:
    """3.77e-21: the scientific form in ASCII, for the command line's columns."""
    return f"{value:.{digits - 1}e}"


def decimal(value: float, places: int, top: float | None = None, ascii: bool = False) -> str | None:
    """A value >= 0 with `places` decimals, or in scientific form when those decimals would hide it.

    With `top` (1 for a fraction, 100 for a percentage) a value below top that
    rounds to it gets as many decimals as it takes to stay below; None when no
    double precision can (the caller writes "≈"). Exactly 0 is "0".

    >>> decimal(0.3, 4), decimal(2.5e-5, 4), decimal(0.99999, 4, top=1), decimal(0.00995, 2)
    ('0.3000', '2.50 × 10⁻⁵', '0.99999', '9.95 × 10⁻³')
    """
    if value == 0:
        return "0"
    smallest = 10.0 ** -places
    # (the two comparisons with smallest only skip the slower checks where their answer is plain)
    if value < 2 * smallest and float(f"{value:.{SIGNIFICANT - 1}e}") < smallest:  # would show as 0.00: keep
        return (_plain_scientific if ascii else scientific)(value)                    # its digits instead
    if top is None or value <= top - smallest:   # below top by at least a unit of the last place: rounds below it
        return f"{value:.{places}f}"
    for shown in range(places, MOST_PLACES + 1):
        text = f"{value:.{shown}f}"
        if float(text) < top:
            return text
    return None


def percent(value: float | None, places: int = 2, ascii: bool = False, fixed: bool = False) -> str:
    """A probability as a percentage that never rounds a non-zero value to 0% or 100%.

    ascii=True writes the scientific form as 3.77e-21%, for the command line; fixed=True writes exactly 0 and 1
    with the places too (0.00%, 100.00%), so that a column of them lines up with its other values.

    >>> percent(11 / 12), percent(1e-5), percent(0.9999999), percent(8.66e-13), percent(None)
    ('91.67%', '1.00 × 10⁻³%', '99.99999%', '8.66 × 10⁻¹¹%', '—')
    >>> percent(3.77e-23, ascii=True), percent(0.0, fixed=True), percent(1.0, fixed=True)
    ('3.77e-21%', '0.00%', '100.00%')
    """
    if value is None:
        return "—"
    if value == 0 or value == 1:
        return f"{value * 100:.{places if fixed else 0}f}%"
    text = decimal(value * 100, places, top=100, ascii=ascii)
    return "≈ 100%" if text is None else f"{text}%"


def percent_figure(value: float | None) -> str | None:
    """A probability in percent with two decimals and no sign, as papers print pass@k; None when there is none.

    By decimal()'s rule, a value the two decimals would hide keeps three
    significant digits (ASCII, as LaTeX and Markdown take it as it is), and one
    just below 1 is never printed as 100.00.

    >>> percent_figure(11 / 12), percent_figure(None), percent_figure(1e-12), percent_figure(0.99999)
    ('91.67', None, '1.00e-10', '99.999')
    """
    if value is None:
        return None
    if value in (0, 1):
        return f"{100 * value:.2f}"
    return decimal(100 * value, 2, top=100, ascii=True) or "100.00"


def pass_percent(value: float, n: int, c: int, k: int, fixed: bool = False) -> str:
    """percent(), except that a pass@k which rounds to 1.0 without being certain reads ≈ 100%.

    >>> pass_percent(1.0, 200, 100, 100), pass_percent(1.0, 200, 150, 100), pass_percent(1.0, 20, 20, 1, fixed=True)
    ('≈ 100%', '100%', '100.00%')
    """
    if value == 1 and 0 < c and n - c >= k:
        return "≈ 100%"
    return percent(value, fixed=fixed)


def fraction(value: float | None) -> str:
    """A probability as a decimal with four places, by the same rule as percent().

    >>> fraction(11 / 12), fraction(1e-5), fraction(1.0), fraction(0.99999)
    ('0.9167', '1.00 × 10⁻⁵', '1', '0.99999')
    """
    return _probability(value, 4)


def p_value(value: float | None, ascii: bool = False) -> str:
    """A p-value with three decimals, by the same rule as percent(): 0.046, 1.23 × 10⁻⁵, 1.

    >>> p_value(0.0462), p_value(1.234e-5), p_value(1.0), p_value(None), p_value(1.234e-5, ascii=True)
    ('0.046', '1.23 × 10⁻⁵', '1', '—', '1.23e-05')
    """
    return _probability(value, 3, ascii)


def _probability(value: float | None, places: int, ascii: bool = False) -> str:
    """A probability as a decimal with `places` places, by decimal()'s rule; 0 and 1 exactly as "0" and "1"."""
    if value is None:
        return "—"
    if value == 0 or value == 1:
        return f"{value:.0f}"
    text = decimal(value, places, top=1, ascii=ascii)
    return ("~ 1" if ascii else "≈ 1") if text is None else text


def points(value: float | None, signed: bool = True, unit: str = "pts", ascii: bool = False) -> str:
    """A difference of probabilities in percentage points, by the same rule as percent().

    >>> points(1 / 6), points(-0.0299), points(2e-7), points(0.0052, signed=False), points(0.0)
    ('+16.67 pts', '−2.99 pts', '+2.00 × 10⁻⁵ pts', '0.52 pts', '0 pts')
    >>> points(-2e-7, ascii=True), points(0.0052, unit="")
    ('-2.00e-05 pts', '+0.52')
    """
    if value is None:
        return "—"
    minus = "-" if ascii else "−"
    sign = (minus if value < 0 else "+" if value > 0 else "") if signed else (minus if value < 0 else "")
    return f"{sign}{decimal(abs(value) * 100, 2, ascii=ascii)} {unit}".rstrip()


def axis_ticks(values: Sequence[float]) -> list[str]:
    """Labels for the ticks of one axis, all in one style: with thousands separators while the
    widest is short (below a million), else every power of ten as 10ⁿ (1 is 10⁰).

    >>> axis_ticks([1, 10, 100, 1000, 10000]), axis_ticks([1, 100, 10**4, 10**6])
    (['1', '10', '100', '1,000', '10,000'], ['10⁰', '10²', '10⁴', '10⁶'])
    """
    powers = [_power_of_ten(value) for value in values]
    if max(values, default=0) < 10**6 or None in powers:
        return [f"{value:,}" for value in values]
    return ["10" + str(power).translate(SUPERSCRIPT) for power in powers]


def _power_of_ten(value: float) -> int | None:
    """p when value == 10**p for a whole p >= 0, else None."""
    if value < 1 or value != int(value):
        return None
    power = len(str(int(value))) - 1
    return power if value == 10**power else None


def full(value: float | None) -> str:
    """All seventeen significant digits, for copying."""
    return "—" if value is None else repr(float(value))


def count(value: int) -> str:
    """A whole number with thousands separators."""
    return f"{value:,}"


@dataclass(frozen=True)
class Notation:
    """How one output writes a table's cells."""
    ascii: bool = False            # 3.77e-21 rather than 3.77 × 10⁻²¹: terminals, Markdown, LaTeX
    unit_in_header: bool = False   # "pass@k (%)" over 91.67, rather than 91.67% in each cell
    exact: bool = False            # every digit (repr), for programs that read the numbers back
    interval: str = "{} – {}"      # how an interval's two ends are joined
    missing: str | None = "—"      # a value there is none of (None: the table's writer chooses)
    thousands: bool = True         # 1,000 rather than 1000
    formula_safe: bool = False     # text that a spreadsheet would run as a formula gets a leading '


def probability(value: float | None, notation: Notation) -> str | None:
    """A probability as the notation writes it: 91.67%, 91.67 (unit in the header) or 0.9166666666666666.

    >>> probability(11 / 12, Notation()), probability(11 / 12, Notation(unit_in_header=True))
    ('91.67%', '91.67')
    """
    if value is None:
        return notation.missing
    if notation.exact:
        return repr(float(value))
    if notation.unit_in_header:
        return percent_figure(value)
    return percent(value, ascii=notation.ascii)


def interval(bounds: tuple[float, float] | None, notation: Notation) -> str | None:
    """An interval's two ends as probabilities, joined as the notation joins them.

    >>> interval((0.1, 0.25), Notation()), interval((0.1, 0.25), Notation(interval="[{}, {}]"))
    ('10.00% – 25.00%', '[10.00%, 25.00%]')
    """
    if not bounds:
        return notation.missing
    return notation.interval.format(*(probability(bound, notation) for bound in bounds))


def whole(value: int | None, notation: Notation) -> str | None:
    """A whole number, with thousands separators where the notation has them.

    >>> whole(1000, Notation()), whole(1000, Notation(thousands=False))
    ('1,000', '1000')
    """
    if value is None:
        return notation.missing
    return f"{value:,}" if notation.thousands else str(value)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def label(value: str | None, notation: Notation) -> str | None:
    """Text as it is (a task id, a status, a note); a leading ' keeps a spreadsheet from running it as a formula.

    >>> label("=1+1", Notation(formula_safe=True)), label("HumanEval/0", Notation()), label("", Notation())
    ("'=1+1", 'HumanEval/0', '—')
    """
    if not value:
        return notation.missing
    return "'" + value if notation.formula_safe and value[:1] in FORMULA_STARTS else value


def difference(value: float | None, notation: Notation) -> str | None:
    """A difference of probabilities in signed percentage points: +16.67 pts (+16.67 under a header in pts).

    >>> difference(-0.0299, Notation()), difference(-0.0299, Notation(ascii=True, unit_in_header=True))
    ('−2.99 pts', '-2.99')
    """
    if value is None:
        return notation.missing
    return points(value, unit="" if notation.unit_in_header else "pts", ascii=notation.ascii)


def spread(value: float | None, notation: Notation) -> str | None:
    """A standard error of a difference, in percentage points without a sign: 15.55 pts."""
    if value is None:
        return notation.missing
    return points(value, signed=False, unit="" if notation.unit_in_header else "pts", ascii=notation.ascii)


def difference_interval(bounds: tuple[float, float] | None, notation: Notation) -> str | None:
    """An interval of a difference, its ends in signed percentage points.

    >>> difference_interval((-0.5891, 0.6664), Notation(ascii=True, interval="[{}, {}]"))
    '[-58.91 pts, +66.64 pts]'
    """
    if not bounds:
        return notation.missing
    return notation.interval.format(*(difference(bound, notation) for bound in bounds))


def significance(value: float | None, notation: Notation) -> str | None:
    """A p-value by p_value()'s rule, in the notation's characters."""
    if value is None:
        return notation.missing
    return p_value(value, ascii=notation.ascii)


def tally(values: Sequence[object] | None, notation: Notation) -> str | None:
    """How many values a list holds (the task ids left out of a pair), as whole() writes it."""
    if values is None:
        return notation.missing
    return whole(len(values), notation)
