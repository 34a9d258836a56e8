"""Group letters found with Tomita's pivot are every maximal set of runs no two of which differ, as brute force finds
them, however many runs (issue 17: 29 models in one file); the web bounds the groups and a ranking's cost."""

from itertools import combinations

import pytest
from hypothesis import given, strategies as st

from passk.limits import LIMITS, PAIR_PROBLEMS, LimitError, ranked_cells
from passk.results.ranking import letter_groups


def maximal_sets(order, different):
    """Every maximal set of runs no two of which differ, by trying every subset (small cases only)."""
    def together(runs):
        return all(frozenset(pair) not in different for pair in combinations(runs, 2))
    sets = [set(runs) for size in range(1, len(order) + 1) for runs in combinations(order, size) if together(runs)]
    return {frozenset(runs) for runs in sets if not any(runs < other for other in sets)}


@st.composite
def graphs(draw):
    """(runs best first, the pairs told apart)."""
    order = [f"r{index}" for index in range(draw(st.integers(1, 8)))]
    pairs = list(combinations(order, 2))
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return order, {frozenset(pair) for pair, differs in zip(pairs, chosen) if differs}


@given(graphs())
def test_each_letter_is_one_maximal_set_of_runs_that_do_not_differ(graph):
    order, different = graph
    letters = letter_groups(order, different)
    names = sorted({letter for run in order for letter in _split(letters[run])})
    found = {frozenset(run for run in order if name in _split(letters[run])) for name in names}
    assert found == maximal_sets(order, different) and len(names) == len(found)


def _split(letters):
    """'ab' -> ['a', 'b'] (the cases here have at most 26 groups)."""
    return list(letters)


def test_twenty_nine_runs_none_of_which_differ_share_one_letter():
    order = [f"model {index}" for index in range(29)]   # 2^29 branches without the pivot
    assert set(letter_groups(order, set()).values()) == {"a"}


def moon_moser(triples):
    """Runs in triples that differ within each triple and nowhere else: 3^triples maximal groups."""
    order = [f"r{index}" for index in range(3 * triples)]
    different = {frozenset(pair) for start in range(0, len(order), 3)
                 for pair in combinations(order[start:start + 3], 2)}
    return order, different


def test_past_the_most_groups_the_letters_are_refused_in_one_sentence():
    order, different = moon_moser(4)   # 81 groups
    assert len(maximal_sets(order, different)) == 81
    assert all(letter_groups(order, different, most=81).values())   # 81 is not past 81
    with pytest.raises(LimitError, match=r"^The runs fall into more than 80 overlapping groups \(sets of runs no two "
                                         r"of which can be told apart\), more than group letters can show; rank fewer "
                                         r"runs at once, or use the command line"):
        letter_groups(order, different, most=80)
    assert LIMITS.groups >= 3 * LIMITS.runs   # an ordinary ranking of the most runs is never refused for its letters


@given(st.lists(st.integers(0, 10**5), min_size=0, max_size=12), st.integers(1, 20))
def test_ranked_cells_is_every_pair_at_its_larger_run_and_each_k(problems, ks):
    expected = sum(ks * (max(a, b) + PAIR_PROBLEMS) for a, b in combinations(problems, 2))
    assert ranked_cells(problems, ks) == expected
