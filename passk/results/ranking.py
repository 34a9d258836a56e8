"""Several runs at once: each run's pass@k ranked, every pair compared, and the runs that cannot be told apart.

Runs are [(name, problems)]. For each k:

- ranking: each run's pass@k over all its own problems, with the across-problem
  SE and 95% interval, from passk.results.benchmark.summarize (the benchmark page's
  numbers), best first; runs whose pass@k is undefined at k come last;
- pairs: every pair of runs, in the order given (a before b), compared on the
  problems both have as passk.results.benchmark.compare_runs compares them (a minus b, SE, the
  trinomial interval and the p-value it inverts to), with the
  p-values adjusted for the number of pairs by Holm's step-down method
  (Holm 1979, Scand. J. Statist. 6:65-70): sort the m defined p-values
  ascending, p_(1) <= ... <= p_(m); the adjusted p_(i) is
  max over j <= i of min(1, (m - j + 1) p_(j)). It keeps the chance of any
  false "different" at 5% or below whatever the runs are;
- groups: two runs differ when their Holm-adjusted p-value is below 5%. Each
  maximal set of runs in which no two differ gets a letter (a compact letter
  display: the maximal cliques of the "not shown different" graph, which is
  what Piepho's 2004 insert-and-absorb algorithm ends with). Runs that share a
  letter cannot be told apart; any two runs that do not differ share at least
  one letter, and two that differ share none. Letters go in ranking order: the
  group holding the best run is "a". A pair with no p-value (one shared
  problem, or pass@k undefined) counts as not shown different.
"""

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from string import ascii_lowercase

from json.encoder import encode_basestring_ascii   # a str as JSON writes it (the API's json escapes non-ASCII)

import numpy as np

from passk.results.benchmark import (PairedRun, Positions, ProblemCounts, Summary, _checked_ks, paired_results,
                                     summarize)
from passk.grammar import plural
from passk.maths.estimator import DEFAULT_KS
from passk.limits import (LIMITS, LimitError, check_listed_ids, check_ranking, check_sample_counts,
                          too_many_groups)

ALPHA = 0.05      # the level at which two runs are told apart, after Holm's adjustment


@dataclass
class RunRank:
    """One run's place at one k: its pass@k over its own problems, SE, interval and group letters."""
    name: str
    pass_at_k: float | None
    se: float | None
    ci95: tuple[float, float] | None
    group: str          # letters; "" when pass@k is undefined
    reason: str | None
    place: int | None = None   # 1 for the best; None when pass@k is undefined


@dataclass
class PairResult:
    """Run a against run b at one k on the problems both have, with the Holm-adjusted p-value."""
    a: str
    b: str
    paired: int
    difference: float | None
    se: float | None
    ci95: tuple[float, float] | None
    p_value: float | None
    p_holm: float | None
    test: str | None
    reason: str | None
    only_in_a: list[str]
    only_in_b: list[str]


@dataclass
class KRanking:
    """The ranked runs and all pairs at one k."""
    k: int
    ranking: list[RunRank]
    pairs: list[PairResult]


@dataclass
class Ranking:
    """Several runs ranked per k; summaries: name -> passk.results.benchmark.Summary of the run."""
    names: list[str]
    summaries: dict[str, Summary]
    results: list[KRanking]
    warnings: list[str] = field(default_factory=list)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values, in the order given; None stays None and is not counted in m.

    adjusted p_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) over the m p-values sorted ascending.

    >>> holm([0.01, 0.04, 0.03, None])
    [0.03, 0.06, 0.06, None]
    """
    defined = sorted((p, index) for index, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running, m = 0.0, len(defined)
    for rank, (p, index) in enumerate(defined):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = running
    return adjusted


def letter_groups(order: Sequence[str], different: Collection[frozenset[str]],
                  most: int | None = None) -> dict[str, str]:
    """Compact letters for the runs in `order` (best first): the maximal sets of runs no two of which differ.

    different: a set of frozenset({x, y}) pairs told apart. Returns {run: letters}. The sets are found by
    Bron–Kerbosch with Tomita's pivot (each branch skips the pivot's neighbours), at most 3^(r/3) calls for r
    runs rather than 2^r without it; past `most` sets (None: no bound), LimitError.

    >>> letter_groups(["x", "y", "z"], {frozenset({"x", "z"})})
    {'x': 'a', 'y': 'ab', 'z': 'b'}
    """
    rank = {run: index for index, run in enumerate(order)}
    neighbours = {run: {other for other in order if other != run and frozenset({run, other}) not in different}
                  for run in order}
    cliques: list[list[str]] = []

    def extend(clique: set[str], candidates: set[str], excluded: set[str]) -> None:   # every maximal clique once
        if not candidates:
            if not excluded:
                cliques.append(sorted(clique, key=rank.__getitem__))
                if most is not None and len(cliques) > most:
                    raise LimitError(too_many_groups(most))
            return
        pivot = max(candidates | excluded, key=lambda run: (len(candidates & neighbours[run]), -rank[run]))
        for run in sorted(candidates - neighbours[pivot], key=rank.__getitem__):
            extend(clique | {run}, candidates & neighbours[run], excluded & neighbours[run])
            candidates = candidates - {run}
            excluded = excluded | {run}

    extend(set(), set(order), set())
    cliques.sort(key=lambda clique: [rank[run] for run in clique])
    letters = {run: "" for run in order}
    for index, clique in enumerate(cliques):
        for run in clique:
            letters[run] += _letter(index)
    return letters


def _letter(index: int) -> str:
    """a, b, …, z, then aa, ab, …"""
    return ascii_lowercase[index] if index < 26 else _letter(index // 26 - 1) + ascii_lowercase[index % 26]


def too_few_runs(count: int) -> str:
    """The refusal of a ranking of fewer than two runs."""
    return f"Give at least two runs to rank; got {count}."


def rank_runs(runs: Iterable[tuple[str | None, Iterable[ProblemCounts]]], ks: Iterable[int] = DEFAULT_KS,
              limited: bool = True) -> Ranking:
    """Rank [(name, problems)] per k and compare every pair; see the module docstring.

    limited: within the web's bounds (passk.limits.check_ranking: LIMITS.runs runs and LIMITS.ranked_cells;
    LIMITS.sample_counts different n; LIMITS.listed_id_bytes of ids listed as only in one run of a pair, counted
    before any pair is compared; at most LIMITS.groups letter groups at each k); the command line ranks any
    number."""
    given = [(name, list(problems)) for name, problems in runs]
    if len(given) < 2:
        raise ValueError(too_few_runs(len(given)))
    ks = _checked_ks(ks)
    if limited:
        check_ranking([len(problems) for _, problems in given], ks)
        check_sample_counts(sum(len({problem.n for problem in problems}) for _, problems in given))
    names = distinct_names([name for name, _ in given])
    named = list(zip(names, (problems for _, problems in given)))   # the runs, each under its distinct name
    for name, problems in named:
        _check_once_each(name, problems)
    registry: dict[str, int] = {}   # task id -> number, shared: pairing two runs is then array work
    prepared = [(name, PairedRun(problems, name).coded(registry)) for name, problems in named]   # pass@k once each
    if limited:   # before any run is summarized or pair compared
        check_listed_ids(listed_id_bytes(list(registry), [run.codes for _, run in prepared]) * len(ks), True)
    summaries = {name: summarize(problems, ks) for name, problems in named}
    comparisons = {(a, b): _pair(a, run_a, b, run_b, ks) for (a, run_a), (b, run_b) in combinations(prepared, 2)}
    most = LIMITS.groups if limited else None
    results = [_k_ranking(k, index, names, summaries, comparisons, most) for index, k in enumerate(ks)]
    return Ranking(names, summaries, results)


def listed_id_bytes(ids: Sequence[str], codes: Sequence[Positions | None]) -> int:
    """The bytes of the task ids a ranking lists, for each pair of runs once, as only in one of the two (the
    answer's only_in_a and only_in_b), as JSON writes them with their separators (`é` as `\u00e9`, a character
    up to 12 bytes); ids: the task ids in the order of their codes, codes: each run's (PairedRun.coded). An id
    that m of the R runs have is listed by m (R - m) pairs, so nothing is paired to count them."""
    held = np.bincount(np.concatenate([each for each in codes if each is not None]), minlength=len(ids))
    listings = held * (len(codes) - held)
    listed = np.flatnonzero(listings)
    sizes = np.fromiter((len(encode_basestring_ascii(ids[code])) + 2 for code in listed.tolist()), np.int64,
                        listed.size)
    return int(np.dot(sizes, listings[listed]))


def _k_ranking(k: int, index: int, names: list[str], summaries: dict[str, Summary],
               comparisons: dict[tuple[str, str], Callable[[int], PairResult]], most: int | None) -> KRanking:
    """The ranking and pairs at the index-th k; most: at most so many letter groups (None: any number)."""
    rows = {name: summaries[name].results[index] for name in names}
    pairs = [comparisons[a, b](index) for a, b in comparisons]
    for pair, adjusted in zip(pairs, holm([pair.p_value for pair in pairs])):
        pair.p_holm = adjusted
    defined = {name: value for name in names if (value := rows[name].pass_at_k) is not None}   # name -> pass@k
    order = sorted(defined, key=lambda name: -defined[name])   # stable: ties keep the order given
    different = {frozenset({pair.a, pair.b}) for pair in pairs
                 if pair.p_holm is not None and pair.p_holm < ALPHA and pair.a in defined and pair.b in defined}
    groups = letter_groups(order, different, most)
    places = {name: place for place, name in enumerate(order, 1)}
    ranking = [RunRank(name, rows[name].pass_at_k, rows[name].se, rows[name].ci95, groups.get(name, ""),
                       rows[name].reason, places.get(name))
               for name in order + [name for name in names if name not in groups]]
    return KRanking(k, ranking, pairs)


def _pair(a: str, run_a: PairedRun, b: str, run_b: PairedRun, ks: Iterable[int]) -> Callable[[int], PairResult]:
    """A function of the k's index giving the PairResult of a against b (no p_holm yet)."""
    if run_a.by_id.keys().isdisjoint(run_b.by_id):
        reason = (f"No task ids in common: {a} has {plural(len(run_a.by_id), 'problem')} and {b} "
                  f"{len(run_b.by_id):,}, but none share a task_id, so nothing can be paired.")
        only_in_a, only_in_b = list(run_a.by_id), list(run_b.by_id)
        return lambda index: PairResult(a, b, 0, None, None, None, None, None, None, reason, only_in_a, only_in_b)
    at_a, _, rows, only_in_a, only_in_b = paired_results(run_a, run_b, list(ks))   # no per-problem lists

    def at(index: int) -> PairResult:
        row = rows[index]
        return PairResult(a, b, at_a.size, row.difference, row.se, row.ci95, row.p_value, None, row.test,
                          row.reason, only_in_a, only_in_b)
    return at


def distinct_names(names: Iterable[str | None]) -> list[str]:
    """The names, each made unique: a repeated or missing name gets " (2)", " (3)", … or "run i"."""
    given = [name or f"run {index}" for index, name in enumerate(names, 1)]
    seen: set[str] = set()
    result: list[str] = []
    for name in given:
        unique, copy = name, 1
        while unique in seen:
            copy += 1
            unique = f"{name} ({copy})"
        seen.add(unique)
        result.append(unique)
    return result


def _check_once_each(name: str, problems: list[ProblemCounts]) -> None:
    """ValueError naming the run and the task when a run lists a task twice, or has no problems."""
    if not problems:
        raise ValueError(f"No problems in {name}: give at least one problem, as `task_id,n,c` lines "
                         f"or a harness results file.")
    seen: set[str] = set()
    for problem in problems:
        if problem.task_id in seen:
            raise ValueError(f"{name} lists task {problem.task_id} twice; each task must appear once to be paired.")
        seen.add(problem.task_id)
