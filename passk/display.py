"""How numbers are written for people: percentages, fractions, counts.

One rule for every probability shown (percent, fraction, p-value, percentage
points): a fixed number of decimals while that reads well, and below the
smallest value those decimals can show, three significant digits in one
scientific form. A value that is not exactly 0 is never written as 0, and a
value that is not exactly 1 is never written as 1 (or 100%): next to the top
the decimals grow until they show the gap.

>>> [percent(v) for v in (0.3, 1e-4, 1e-6, 5e-6, 3.77e-23)]
['30.00%', '0.01%', '1.00 × 10⁻⁴%', '5.00 × 10⁻⁴%', '3.77 × 10⁻²¹%']
"""

SIGNIFICANT = 3   # digits of a value written in scientific form
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MOST_PLACES = 17  # decimals beyond these say nothing about a double


def scientific(value, digits=SIGNIFICANT):
    """8.66 × 10⁻¹¹: a small number with a fixed number of significant digits, written for people.

    >>> scientific(8.66e-11), scientific(1e-6), scientific(1.5e-6, 4)
    ('8.66 × 10⁻¹¹', '1.00 × 10⁻⁶', '1.500 × 10⁻⁶')
    """
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


def _plain_scientific(value, digits=SIGNIFICANT):
    """3.77e-21: the scientific form in ASCII, for the command line's columns."""
    return f"{value:.{digits - 1}e}"


def decimal(value, places, top=None, ascii=False):
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
    if float(f"{value:.{SIGNIFICANT - 1}e}") < smallest:  # would show as 0.00: keep its digits instead
        return (_plain_scientific if ascii else scientific)(value)
    if top is None:
        return f"{value:.{places}f}"
    for shown in range(places, MOST_PLACES + 1):
        text = f"{value:.{shown}f}"
        if float(text) < top:
            return text
    return None


def percent(value, places=2, ascii=False):
    """A probability as a percentage that never rounds a non-zero value to 0% or 100%.

    ascii=True writes the scientific form as 3.77e-21%, for the command line.

    >>> percent(11 / 12), percent(1e-5), percent(0.9999999), percent(8.66e-13), percent(None)
    ('91.67%', '1.00 × 10⁻³%', '99.99999%', '8.66 × 10⁻¹¹%', '—')
    >>> percent(3.77e-23, ascii=True)
    '3.77e-21%'
    """
    if value is None:
        return "—"
    if value == 0 or value == 1:
        return f"{value * 100:.0f}%"
    text = decimal(value * 100, places, top=100, ascii=ascii)
    return "≈ 100%" if text is None else f"{text}%"


def pass_percent(value, n, c, k):
    """percent(), except that a pass@k which rounds to 1.0 without being certain reads ≈ 100%.

    >>> pass_percent(1.0, 200, 100, 100), pass_percent(1.0, 200, 150, 100)
    ('≈ 100%', '100%')
    """
    if value == 1 and 0 < c and n - c >= k:
        return "≈ 100%"
    return percent(value)


def fraction(value):
    """A probability as a decimal with four places, by the same rule as percent().

    >>> fraction(11 / 12), fraction(1e-5), fraction(1.0), fraction(0.99999)
    ('0.9167', '1.00 × 10⁻⁵', '1', '0.99999')
    """
    return _probability(value, 4)


def p_value(value):
    """A p-value with three decimals, by the same rule as percent(): 0.046, 1.23 × 10⁻⁵, 1.

    >>> p_value(0.0462), p_value(1.234e-5), p_value(1.0), p_value(None)
    ('0.046', '1.23 × 10⁻⁵', '1', '—')
    """
    return _probability(value, 3)


def _probability(value, places):
    """A probability as a decimal with `places` places, by decimal()'s rule; 0 and 1 exactly as "0" and "1"."""
    if value is None:
        return "—"
    if value == 0 or value == 1:
        return f"{value:.0f}"
    text = decimal(value, places, top=1)
    return "≈ 1" if text is None else text


def points(value, signed=True, unit="pts"):
    """A difference of probabilities in percentage points, by the same rule as percent().

    >>> points(1 / 6), points(-0.0299), points(2e-7), points(0.0052, signed=False), points(0.0)
    ('+16.67 pts', '−2.99 pts', '+2.00 × 10⁻⁵ pts', '0.52 pts', '0 pts')
    """
    if value is None:
        return "—"
    sign = ("−" if value < 0 else "+" if value > 0 else "") if signed else ("−" if value < 0 else "")
    return f"{sign}{decimal(abs(value) * 100, 2)} {unit}"


def axis_ticks(values):
    """Labels for the ticks of one axis, all in one style: with thousands separators while the
    widest is short (below a million), else every power of ten as 10ⁿ (1 is 10⁰).

    >>> axis_ticks([1, 10, 100, 1000, 10000]), axis_ticks([1, 100, 10**4, 10**6])
    (['1', '10', '100', '1,000', '10,000'], ['10⁰', '10²', '10⁴', '10⁶'])
    """
    powers = [_power_of_ten(value) for value in values]
    if max(values, default=0) < 10**6 or None in powers:
        return [f"{value:,}" for value in values]
    return ["10" + str(power).translate(SUPERSCRIPT) for power in powers]


def _power_of_ten(value):
    """p when value == 10**p for a whole p >= 0, else None."""
    if value < 1 or value != int(value):
        return None
    power = len(str(int(value))) - 1
    return power if value == 10**power else None


def full(value):
    """All seventeen significant digits, for copying."""
    return "—" if value is None else repr(float(value))


def plural(count, noun):
    """'1 problem', '2 problems', '1,000 samples'."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def agree(count, one, many):
    """The verb form that agrees with count: agree(1, "passes", "pass") is 'passes'."""
    return one if count == 1 else many


def count(value):
    """A whole number with thousands separators."""
    return f"{value:,}"
