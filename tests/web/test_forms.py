"""web.forms: the forms as frozen values, and the API's JSON numbers read as numbers (never as text parsed back)."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from passk.results.benchmark import parse_ks
from passk.limits import LIMITS
from passk.web.forms import BenchmarkForm, benchmark_form, compare_form, json_ks, json_planning


def test_a_form_is_a_frozen_value_with_the_pages_defaults():
    form = benchmark_form({})
    assert form == BenchmarkForm() and form.k == "1, 10, 100" and form.target == "1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        form.k = "5"


def test_the_compare_form_reads_each_runs_text_and_name():
    form = compare_form({"text_b": "10 3", "name_c": "base", "k": "1,5", "difference": "2"})
    assert (form.text_b, form.name_c, form.ks(), form.planning()) == ("10 3", "base", [1, 5], {"difference": 0.02})


def test_json_planning_reads_numbers_as_numbers():
    assert json_planning({"target": 2, "tokens_per_sample": 1200, "price_per_million": 3.5}) == \
        {"target": 0.02, "tokens_per_sample": 1200.0, "price_per_million": 3.5}


@pytest.mark.parametrize("body, message", [
    ({"target": 0}, "The target half-width (points) must be from 0.001 to 100; got '0'."),
    ({"target": 1e300}, "The target half-width (points) must be from 0.001 to 100; got '1e+300'."),
    ({"price_per_million": 10 ** 400}, "The price per million tokens must be a number above 0, at most "
                                       f"1,000,000,000,000; got '{str(10 ** 400)[:40]}'."),
])
def test_json_planning_refuses_a_number_out_of_range_as_the_form_does(body, message):
    with pytest.raises(ValueError) as error:
        json_planning(body)
    assert str(error.value) == message


@given(st.lists(st.integers(-10 ** 14, 10 ** 14) | st.integers(-3, 12), max_size=LIMITS.ks))
def test_json_ks_say_what_the_k_field_says(ks):
    """The JSON body's k numbers are read as numbers, with the sentences of the same list typed in the k field."""
    try:
        expected = parse_ks(",".join(map(str, ks)))
    except ValueError as error:
        with pytest.raises(ValueError) as refused:
            json_ks(ks)
        assert str(refused.value) == str(error)
    else:
        assert json_ks(ks) == expected
