"""k ranges (passk.results.benchmark.parse_ks, issue 27): '1-128' and '1,2,4-8' in the command's -k, the API and the
pages, each range counted as the ks it holds before any is listed; tables keep LIMITS.ks, the curves over k take
LIMITS.curve_ks. Every refusal is one sentence."""

import pytest

from passk.results.benchmark import parse_ks
from passk.limits import LIMITS


@pytest.mark.parametrize("text, ks", [
    ("1-8", list(range(1, 9))),
    ("1,2,4-8", [1, 2, 4, 5, 6, 7, 8]),
    ("4-8 1 2", [1, 2, 4, 5, 6, 7, 8]),
    ("5-5", [5]),
    ("1-3;2-4", [1, 2, 3, 4]),           # overlapping ranges: each k once
    ("010-012", [10, 11, 12]),
    ("999999999999-1000000000000", [10**12 - 1, 10**12]),
    ("1-20", list(range(1, 21))),        # the table's limit, exactly
])
def test_ranges_give_every_k_from_their_first_to_their_last(text, ks):
    assert parse_ks(text) == ks


def test_a_curve_takes_up_to_curve_ks_from_a_range():
    assert parse_ks("1-128", LIMITS.curve_ks) == list(range(1, 129))
    assert parse_ks(f"1-{LIMITS.curve_ks}", LIMITS.curve_ks) == list(range(1, LIMITS.curve_ks + 1))


@pytest.mark.parametrize("text, most, sentence", [
    ("128-1", LIMITS.curve_ks, "The k range 128-1 runs backwards: write it from the smaller k to the larger, like "
                               "1-128."),
    ("1-128", None, "Too many k values (128, a range counted as the ks it holds): give at most 20."),
    ("1-10,5-15", None, "Too many k values (21, a range counted as the ks it holds): give at most 20."),
    ("1-1025", LIMITS.curve_ks, "Too many k values (1025, a range counted as the ks it holds): give at most 1,024."),
    ("1-1000000000001", LIMITS.curve_ks, "k must be at most 10^12 (1,000,000,000,000); got 1000000000001."),
    ("1-" + "9" * 5000, LIMITS.curve_ks, "k must be at most 10^12 (1,000,000,000,000); got " + "9" * 40 + "."),
    ("0-5", LIMITS.curve_ks, "k must be at least 1; got 0."),
    ("1--5", LIMITS.curve_ks, "k must be at least 1; got -5."),
    ("1-x", LIMITS.curve_ks, "k must be a whole number, and '1-x' is not one; list them like 1,10,100, or give a "
                             "range like 1-128."),
    ("1-2-3", LIMITS.curve_ks, "k must be a whole number, and '1-2-3' is not one; list them like 1,10,100, or give "
                               "a range like 1-128."),
])
def test_a_range_it_cannot_take_is_refused_with_a_sentence(text, most, sentence):
    with pytest.raises(ValueError) as refused:
        parse_ks(text, most)
    assert str(refused.value) == sentence


def test_a_huge_range_is_refused_from_its_ends_without_listing_its_ks():
    with pytest.raises(ValueError, match=r"Too many k values \(1000000000000, a range counted"):
        parse_ks("1-1000000000000", LIMITS.curve_ks)   # listing 10^12 ks would never end


def test_the_tokens_are_still_counted_before_any_range_is_read():
    with pytest.raises(ValueError, match=r"^Too many k values \(21\): give at most 20\.$"):
        parse_ks("x-y " * 21)
