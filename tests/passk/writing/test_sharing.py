"""Share links carry counts only, compactly, and read back exactly."""

import random
from urllib.parse import urlencode

import pytest
from hypothesis import given, strategies as st

from passk.formats import Problem
from passk.writing.sharing import ShareLinkError, decode_counts, encode_counts


def problems_from(pairs):
    return [Problem(f"t{index}", n, c) for index, (n, c) in enumerate(pairs)]


pairs_strategy = st.lists(
    st.integers(1, 10**12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
    min_size=1, max_size=50)


@given(pairs_strategy)
def test_share_link_round_trip_keeps_every_count(pairs):
    params = encode_counts(problems_from(pairs))
    assert sorted(decode_counts(params.get("counts"), params.get("z"))) == sorted(pairs)


def test_repeated_pairs_collapse():
    params = encode_counts(problems_from([(10, 3), (10, 0), (10, 3), (10, 3)]))
    assert params == {"counts": "10:0,10:3*3"}


@pytest.mark.parametrize("spread", [lambda: 200, lambda: random.randint(1, 1000)])
def test_link_for_2000_problems_stays_under_8_kb(spread):
    random.seed(7)
    pairs = [(n, random.randint(0, n)) for n in (spread() for _ in range(2000))]
    link = "http://127.0.0.1:8000/benchmark?" + urlencode({**encode_counts(problems_from(pairs)), "k": "1,10,100"})
    assert len(link) < 8192
    params = encode_counts(problems_from(pairs))
    assert sorted(decode_counts(params.get("counts"), params.get("z"))) == sorted(pairs)


@pytest.mark.parametrize("counts, z, fragment", [
    ("", None, "no counts"),
    ("10:3,abc", None, "Item 2"),
    ("10:11", None, "0 ≤ c ≤ n"),
    ("0:0", None, "1 ≤ n"),
    ("10:3*0", None, "repeat of at least 1"),
    ("10:3*99999,10:3*2", None, "more than 100,000 problems, the most one request may hold"),
    (None, "not-base64!!", "damaged"),
    (None, "eJwDAAAAAAE", "no counts"),
])
def test_broken_share_links_say_what_is_wrong(counts, z, fragment):
    with pytest.raises(ShareLinkError, match=fragment):
        decode_counts(counts, z)
