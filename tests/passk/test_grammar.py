"""passk.grammar: the agreement of a count with its noun and verb."""

from passk.grammar import agree, plural


def test_plural_and_agree_write_one_as_one():
    assert [plural(n, "problem") for n in (0, 1, 2, 1000)] == ["0 problems", "1 problem", "2 problems", "1,000 problems"]
    assert plural(1, "paired problem") == "1 paired problem"
    assert [agree(n, "passes", "pass") for n in (0, 1, 2)] == ["pass", "passes", "pass"]

