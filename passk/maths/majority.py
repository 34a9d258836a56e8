"""maj@k, majority voting over extracted answers, without bias and exactly.

One problem has n samples, each with an extracted answer (None: no answer, no
vote; the readers turn a harness's own marks of no answer, such as "[invalid]",
into None: passk.formats' answer_of) and a verdict. Voting over
k samples picks the most frequent valid answer; maj@k is the expected score of
that vote over a uniformly random k-subset of the n samples, all C(n, k)
subsets equally likely. It does not depend on the order of the samples, unlike
a vote over "the first k".

Score of one vote (vote_score):

- no valid answer among the k: 0;
- TIE = "fractional" (default, NeMo-Skills' rule): among the answers sharing the
  top count, (tied answers that are correct) / (tied answers);
- TIE = "wrong": 1 when exactly one answer has the top count and it is correct,
  else 0.

An answer is an (extracted answer, verdict) pair, as NeMo-Skills counts them:
an answer judged correct in one sample and wrong in another is two answers
(inconsistent_answers lists such answers so that a reader can say so).

NeMo-Skills' own majority@k (nemo_skills/evaluation/metrics/base.py,
_compute_majority_at_k) votes over the first k seeds, predicted_answers[:k];
for k = n both are the same vote, and first_k_majority reproduces theirs for
k < n. passk's majority_at_k averages over all k-subsets instead. Only a
missing answer (None) abstains there: an empty answer "" votes, so the
NeMo-Skills reader keeps such texts as answers.

The dynamic program (majority_at_k_exact): the subset's count of each answer is
multivariate hypergeometric. For each correct answer g with m_g samples and
each count j >= 1 of it in the subset, the C(m_g, j) ways are multiplied by the
number of ways to fill the other k - j places so that every other answer has at
most j (exactly j: a tie, counted as t), the invalid samples free. A DP over
the other answers builds ways[(s, t)], the ways the other answers give s places
with t of them tied at j; the invalid samples fill the remaining k - j - s. The
vote then credits g with 1 / (1 + t) (fractional; the credits of the tied
correct answers add up to tied correct / tied) or with 1 only when t = 0
(wrong). Summed and divided by C(n, k), in exact integers and one Fraction:
maj@k is the double nearest that exact value, on every machine. Up to
EXACT_MAX_N samples the program walks a dict of reachable states; above, the
same program steps over whole arrays of Python ints (numpy object arrays),
which costs fewer Python operations when the states are many.
"""

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Literal, TypeAlias

import numpy as np

Tie: TypeAlias = Literal["fractional", "wrong"]
TIES: tuple[Tie, ...] = ("fractional", "wrong")
Answer: TypeAlias = Hashable | None
EXACT_MAX_N = 128   # the dict program up to this n, the array program of whole numbers above (_credit_arrays)
ARRAY_DIGIT_SAMPLES = 32   # vote_cost: the array program's whole numbers cost 1 + n / this times a float's


@dataclass
class Votes:
    """One problem's samples for voting: each sample's extracted answer and verdict, in sample order."""

    answers: list[Answer] = field(default_factory=list)
    correct: list[bool] = field(default_factory=list)


def votes_by_problem(runs: Iterable[tuple[Mapping[str, Answer], Mapping[str, bool | None]]]) -> dict[str, Votes]:
    """Each problem's votes over several runs, such as NeMo-Skills' seed files (each run's answers and verdicts by
    problem, e.g. nemoskills.read_seed's Seed.answers and Seed.verdicts): a problem's verdict in a run is one
    sample, in the order of the runs; a verdict of None is no sample."""
    problems: dict[str, Votes] = {}
    for answers, verdicts in runs:
        for problem, verdict in verdicts.items():
            if verdict is not None:
                votes = problems.setdefault(problem, Votes())
                votes.answers.append(answers.get(problem))
                votes.correct.append(verdict)
    return problems


def is_vote(answer: Answer) -> bool:
    """True when answer votes: every answer but None."""
    return answer is not None


def vote_score(answers: Sequence[Answer], correct: Sequence[bool], tie: Tie = "fractional") -> Fraction:
    """The score of one majority vote over all of answers (each with its verdict in correct)."""
    counts = Counter((answer, bool(verdict)) for answer, verdict in _pairs(answers, correct, tie) if is_vote(answer))
    if not counts:
        return Fraction(0)
    top = max(counts.values())
    tied = [verdict for (_, verdict), count in counts.items() if count == top]
    if tie == "wrong":
        return Fraction(int(tied == [True]))
    return Fraction(sum(tied), len(tied))


def first_k_majority(answers: Sequence[Answer], correct: Sequence[bool], k: int,
                     tie: Tie = "fractional") -> Fraction:
    """The vote over the first k samples only: NeMo-Skills' majority@k (order-dependent; see the module)."""
    _check_k(len(answers), k)
    return vote_score(answers[:k], correct[:k], tie)


def majority_at_k(answers: Sequence[Answer], correct: Sequence[bool], k: int, tie: Tie = "fractional") -> float:
    """maj@k of one problem: the expected score of the vote over a random k-subset of its samples.

    The double nearest the exact value (majority_at_k_exact, rounded once by Fraction's int / int).

    Examples
    --------
    >>> majority_at_k(["7", "7", "5", None], [True, True, False, False], 2)   # 7 wins 4 pairs of 6
    0.6666666666666666
    """
    return float(majority_at_k_exact(answers, correct, k, tie))


def vote_cost(answers: Sequence[Answer], correct: Sequence[bool], k: int, tie: Tie = "fractional") -> float:
    """An estimate of majority_at_k's CPU time in microseconds on a 2026 core (within about 4x either way), from
    the steps of its dynamic program, in O(answers x k): for a website to bound a request's work before doing it."""
    pairs = _pairs(answers, correct, tie)
    base = 50.0 + len(pairs)   # reading the votes
    if k == 1 or k == len(pairs):
        return base
    groups, _ = _groups(pairs)
    counts = [count for _, count in groups]
    exact = len(pairs) <= EXACT_MAX_N
    steps = cells = 0
    for verdict, size in groups:
        for j in range(1, min(size, k) + 1) if verdict else ():
            bound = sum(count >= j for count in counts) - 1
            width = min(j, k - j) + 1
            steps += 1 + bound * width
            # the dict program keeps the places taken within n - k of the room (else the rest could not fill it)
            places = min(k - j, len(pairs) - k) + 1 if exact else k - j + 1
            cells += bound * width * places * (min(bound, (k - j) // j) + 1)
    cost = 2 * steps + cells / 1000   # as the same program costs in floats
    # whole numbers cost more: the dict's states 6 times as much, the arrays' ints more as they grow with n
    return base + cost * (6 if exact else 1 + len(pairs) / ARRAY_DIGIT_SAMPLES)


def majority_at_n(answers: Sequence[Answer], correct: Sequence[bool], tie: Tie = "fractional") -> float:
    """maj@n: the vote over all n samples (deterministic)."""
    return float(vote_score(answers, correct, tie))


def majority_at_k_exact(answers: Sequence[Answer], correct: Sequence[bool], k: int,
                        tie: Tie = "fractional") -> Fraction:
    """maj@k of one problem as an exact Fraction, by the dynamic program of the module docstring (k = 1 at once:
    one sample votes alone, and its answer counts when it is one and correct)."""
    pairs = _pairs(answers, correct, tie)
    _check_k(len(pairs), k)
    if k == 1:
        return Fraction(sum(is_vote(answer) and bool(verdict) for answer, verdict in pairs), len(pairs))
    groups, invalid = _groups(pairs)
    credit = _credit if len(pairs) <= EXACT_MAX_N or k == len(pairs) else _credit_arrays
    total = sum((credit(size, others, invalid, k, tie) for size, others in _correct_groups(groups)), Fraction(0))
    return total / comb(len(pairs), k)


def _groups(pairs: list[tuple[Answer, bool]]) -> tuple[list[tuple[bool, int]], int]:
    """Each voting (answer, verdict)'s verdict and count, and the number of samples that do not vote."""
    counts = Counter((answer, bool(verdict)) for answer, verdict in pairs if is_vote(answer))
    return [(verdict, count) for (_, verdict), count in counts.items()], len(pairs) - sum(counts.values())


def _correct_groups(groups: list[tuple[bool, int]]) -> list[tuple[int, list[int]]]:
    """Each correct answer's count beside the counts of all the other answers."""
    return [(size, [count for other, (_, count) in enumerate(groups) if other != index])
            for index, (verdict, size) in enumerate(groups) if verdict]


def inconsistent_answers(answers: Sequence[Answer], correct: Sequence[bool]) -> list[Answer]:
    """The voting answers judged correct in one sample and wrong in another, in order of first appearance."""
    verdicts: dict[Answer, set[bool]] = {}
    for answer, verdict in zip(answers, correct, strict=True):
        if is_vote(answer):
            verdicts.setdefault(answer, set()).add(bool(verdict))
    return [answer for answer, seen in verdicts.items() if len(seen) > 1]


def _credit(size: int, others: list[int], invalid: int, k: int, tie: Tie) -> Fraction:
    """Sum over subsets of the credit one correct answer of size samples gets, times C(n, k)."""
    credit = Fraction(0)
    for j in range(1, min(size, k) + 1):
        room = k - j
        most = j if tie == "fractional" else j - 1   # how often another answer may appear beside j of this one
        # an answer of fewer than j samples can neither beat nor tie this one: its samples are free places
        bound = [count for count in others if count >= j]
        free = invalid + sum(count for count in others if count < j)
        by_ties: dict[int, int] = {}
        for (taken, ties), ways in _bound_ways(bound, j, most, room, free).items():
            by_ties[ties] = by_ties.get(ties, 0) + ways * comb(free, room - taken)
        credit += comb(size, j) * sum((Fraction(ways, 1 + ties) for ties, ways in by_ties.items()), Fraction(0))
    return credit


def _bound_ways(bound: list[int], j: int, most: int, room: int, free: int) -> dict[tuple[int, int], int]:
    """ways[(s, t)]: the ways to take s of room places from the answers in bound, each at most `most` times,
    t of them exactly j times (a tie); states that the rest cannot fill up to room are dropped."""
    left = sum(bound) + free   # samples still to come after each step
    ways = {(0, 0): 1}
    for count in bound:
        left -= count
        step: dict[tuple[int, int], int] = {}
        for (taken, ties), before in ways.items():
            for x in range(max(0, room - taken - left), min(most, room - taken) + 1):
                key = (taken + x, ties + (x == j))
                step[key] = step.get(key, 0) + before * comb(count, x)
        ways = step
    return ways


def _credit_arrays(size: int, others: list[int], invalid: int, k: int, tie: Tie) -> Fraction:
    """_credit by the same program over arrays of whole numbers: ways[s, t] (s places taken, t answers tied at
    j) grows answer by answer, C(count, x) ways adding x places (a tie when x = j); each array step is one numpy
    call over Python ints, so exact sums cost a few calls a count, not a loop over every state."""
    credit = Fraction(0)
    for j in range(1, min(size, k) + 1):
        room = k - j
        most = j if tie == "fractional" else j - 1
        bound = [count for count in others if count >= j]
        free = invalid + sum(count for count in others if count < j)
        most_ties = min(len(bound), room // j) if tie == "fractional" else 0
        ways = np.ones((1, 1), dtype=object)   # grows with the places and ties the answers so far can reach
        for count in bound:
            step = np.zeros((min(room, ways.shape[0] - 1 + most) + 1, min(most_ties, ways.shape[1]) + 1),
                            dtype=object)
            for x in range(min(most, room) + 1):
                span = min(ways.shape[0], step.shape[0] - x)
                if x == j:
                    ties = min(ways.shape[1], step.shape[1] - 1)
                    step[x:x + span, 1:1 + ties] += ways[:span, :ties] * comb(count, x)
                else:
                    step[x:x + span, :ways.shape[1]] += ways[:span] * comb(count, x)
            ways = step
        fill = np.array([comb(free, room - taken) for taken in range(ways.shape[0])], dtype=object)
        by_ties = (fill @ ways).tolist()   # the rest of the room from the free samples (C(free, r) = 0 past free)
        credit += comb(size, j) * sum((Fraction(int(ways_tied), 1 + ties) for ties, ways_tied in enumerate(by_ties)),
                                      Fraction(0))
    return credit


def _pairs(answers: Sequence[Answer], correct: Sequence[bool], tie: str) -> list[tuple[Answer, bool]]:
    """answers and their verdicts side by side; ValueError when the lengths differ or tie is unknown."""
    if tie not in TIES:
        raise ValueError(f"tie must be one of {', '.join(TIES)}; got {tie!r}.")
    if len(answers) != len(correct):
        raise ValueError(f"Each answer needs its verdict: {len(answers):,} answers, {len(correct):,} verdicts.")
    return list(zip(answers, correct))


def _check_k(n: int, k: int) -> None:
    """ValueError unless 1 <= k <= n."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise ValueError(f"k must be a whole number from 1 to n ({n:,} samples); got {k!r}.")


@dataclass(frozen=True)
class MajorityRow:
    """maj@k of a benchmark at one k: the mean over its problems of passk's maj@k (every k-subset) and of the
    vote over the first k samples only (NeMo-Skills' majority@k), each the exact mean rounded once."""

    k: int
    majority: float
    first_k: float


def majority_rows(problems: Sequence[Votes], ks: Iterable[int], tie: Tie = "fractional") -> list[MajorityRow]:
    """One MajorityRow for each k from 1 to the fewest samples a problem has (larger ks are left out), and for that
    fewest n (maj@n when every problem has n samples); ValueError when there are no problems."""
    if not problems:
        raise ValueError("There are no problems with a verdict to vote on.")
    fewest = min(len(votes.answers) for votes in problems)
    rows = []
    for k in sorted({k for k in ks if 1 <= k <= fewest} | {fewest}):
        subsets = sum((majority_at_k_exact(votes.answers, votes.correct, k, tie) for votes in problems), Fraction(0))
        first = sum((first_k_majority(votes.answers, votes.correct, k, tie) for votes in problems), Fraction(0))
        rows.append(MajorityRow(k, float(subsets / len(problems)), float(first / len(problems))))
    return rows
