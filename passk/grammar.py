"""Number agreement for every sentence passk writes, from a reader's error to a note on a page; imports nothing."""


def plural(count: int, noun: str) -> str:
    """'1 problem', '2 problems', '1,000 samples'."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def agree(count: int, one: str, many: str) -> str:
    """The verb form that agrees with count: agree(1, "passes", "pass") is 'passes'."""
    return one if count == 1 else many
