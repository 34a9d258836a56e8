"""Share links for a benchmark: the per-problem counts, never file contents.

A link carries `counts=200:0*3,200:17,150:4`: each item is `n:c`, with `*r`
when r problems share it. Task ids are left out (they are not needed for the
numbers), and the items are sorted so equal problems collapse. When that plain
form would be longer than PLAIN_LIMIT characters the same text travels
deflated and base64url-encoded as `z=`.
"""

import base64
import binascii
import re
import zlib
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from passk.limits import LARGER_RUNS, LIMITS

if TYPE_CHECKING:   # imported for its type only: the benchmark module is not needed to make or read a link
    from passk.results.benchmark import ProblemCounts

PLAIN_LIMIT = 6000
INFLATED_LIMIT = 40 * LIMITS.problems   # characters: room for every problem's own "n:c*r," item
_ITEM = re.compile(r"([0-9]{1,13}):([0-9]{1,13})(?:\*([0-9]{1,7}))?")


class ShareLinkError(ValueError):
    """A share link that cannot be read, said in one sentence."""


def encode_counts(problems: Iterable["ProblemCounts"]) -> dict[str, str]:
    """The query parameters ({'counts': ...} or {'z': ...}) for these problems."""
    groups = Counter((problem.n, problem.c) for problem in problems)
    items = [f"{n}:{c}" + (f"*{times}" if times > 1 else "") for (n, c), times in sorted(groups.items())]
    plain = ",".join(items)
    if len(plain) <= PLAIN_LIMIT:
        return {"counts": plain}
    packed = base64.urlsafe_b64encode(zlib.compress(plain.encode("ascii"), 9)).decode("ascii")
    return {"z": packed.rstrip("=")}


def decode_counts(counts: str | None = None, z: str | None = None,
                  max_problems: int = LIMITS.problems) -> list[tuple[int, int]]:
    """(n, c) pairs, one per problem, from a share link's `counts` or `z` value.

    A link describing more than max_problems problems is refused before any is made.
    """
    if z:
        counts = _inflate(z)
    if not counts:
        raise ShareLinkError("The share link has no counts: it needs counts=n:c,n:c,… .")
    pairs: list[tuple[int, int]] = []
    for position, item in enumerate(counts.split(","), start=1):
        match = _ITEM.fullmatch(item.strip())
        if not match:
            raise ShareLinkError(f"Item {position} of the share link's counts, “{item[:40]}”, is not n:c or n:c*r.")
        n, c, times = int(match[1]), int(match[2]), int(match[3] or 1)
        if not 0 <= c <= n or n < 1 or times < 1:
            raise ShareLinkError(f"Item {position} of the share link's counts, “{item[:40]}”, needs 0 ≤ c ≤ n, "
                                 f"1 ≤ n and a repeat of at least 1.")
        if len(pairs) + times > max_problems:
            raise ShareLinkError(f"The share link describes more than {max_problems:,} problems, the most one "
                                 f"request may hold; {LARGER_RUNS}.")
        pairs.extend([(n, c)] * times)
    return pairs


def _inflate(z: str) -> str:
    """The plain counts text inside a `z=` value."""
    try:
        packed = base64.urlsafe_b64decode(z + "=" * (-len(z) % 4))
        inflater = zlib.decompressobj()
        plain = inflater.decompress(packed, INFLATED_LIMIT)
        if inflater.unconsumed_tail:
            raise ShareLinkError("The share link's packed counts are too large.")
        return plain.decode("ascii")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as error:
        if isinstance(error, ShareLinkError):
            raise
        raise ShareLinkError("The share link's packed counts (z=) are damaged; copy the whole link again.") from None
