"""Issue 25: task ids counted in bytes where an answer lists them (LIMITS.listed_id_bytes).

A comparison's answer lists the task ids only one of its runs has, and a ranking's lists them for every pair at
every k: runs that share few ids of 200 characters of 😀 (12 bytes each as JSON escapes them) made answers of
hundreds of megabytes. The bytes are counted from the runs' ids, as JSON writes them, before any pair is compared.
"""

import io
import json
from itertools import combinations

import pytest

import passk.results.ranking
import passk.writing.report
from passk.results.benchmark import PairedRun
from passk.formats import Problem
from passk.limits import LIMITS, LimitError
from passk.results.ranking import listed_id_bytes, rank_runs
from passk.writing.report import compare_uploads

EMOJI = "😀" * 190   # 760 bytes of UTF-8, 2,280 as JSON writes it (\ud83d\ude00)


def run_of(ids):
    return [Problem(task_id, 10, index % 11) for index, task_id in enumerate(ids)]


def written(ids):
    """The bytes the ids take in a JSON list, as the API writes it: each escaped, quoted and followed by ', '."""
    return sum(len(json.dumps(task_id)) + 2 for task_id in ids)


@pytest.mark.parametrize("runs", [
    [["a", "b", "c"], ["a", "b", "c"]],                     # the same tasks: nothing listed
    [["a", "b", "é"], ["b", "c"], ["a", "d", "😀x"]],       # some shared, some not, non-ASCII ones
    [[f"{EMOJI}{i}" for i in range(5)], [f"{EMOJI}{i}" for i in range(3, 9)], ["z"], ["z", "q\"uote"]],
])
def test_the_listed_bytes_are_every_pair_s_only_in_lists_as_json_writes_them(runs):
    registry = {}
    codes = [PairedRun(run_of(ids), f"r{index}").coded(registry).codes for index, ids in enumerate(runs)]
    expected = sum(written([i for i in a if i not in b]) + written([i for i in b if i not in a])
                   for a, b in combinations(runs, 2))
    assert listed_id_bytes(list(registry), codes) == expected


def test_a_ranking_of_runs_apart_is_refused_before_any_run_is_summarized(monkeypatch):
    summarized = []
    monkeypatch.setattr(passk.results.ranking, "summarize", lambda *args, **kwargs: summarized.append(args))
    runs = [(f"run {r}", run_of([f"{EMOJI}{r}-{i}" for i in range(2000)])) for r in range(12)]
    with pytest.raises(LimitError) as refused:
        rank_runs(runs, [1, 10])
    # 66 pairs × 4,000 ids × 2,290 bytes × 2 ks
    assert str(refused.value).startswith("The runs share too few task ids: the ids only one run of a pair has, "
                                         "listed in the answer, for each pair of runs at each k, would take about "
                                         "1,209 MB, more than the 32 MiB one answer may list; compare runs of the "
                                         "same tasks, fewer runs or k values, or use the command line")
    assert not summarized


def test_the_command_line_ranks_runs_apart_as_they_are():
    runs = [(f"run {r}", run_of([f"{EMOJI}{r}-{i}" for i in range(2000)])) for r in range(3)]
    ranking = rank_runs(runs, [1], limited=False)
    assert all(len(pair.only_in_a) == 2000 for pair in ranking.results[0].pairs)


def test_runs_of_the_same_long_ids_list_nothing_and_are_ranked():
    ids = [f"{EMOJI}{i}" for i in range(2000)]
    ranking = rank_runs([(f"run {r}", run_of(ids)) for r in range(12)], [1])
    assert all(pair.paired == 2000 and not pair.only_in_a for pair in ranking.results[0].pairs)


def jsonl(ids):
    return "".join(json.dumps({"task_id": task_id, "passed": index % 2 == 0}) + "\n"
                   for index, task_id in enumerate(ids)).encode()


def test_a_comparison_of_runs_apart_is_refused_before_it_is_compared(monkeypatch):
    compared = []
    monkeypatch.setattr(passk.writing.report, "compare_runs", lambda *args: compared.append(args))
    shared = [f"{EMOJI}shared"]
    a, b = (jsonl(shared + [f"{EMOJI}{side}{i}" for i in range(8000)]) for side in "ab")
    with pytest.raises(LimitError) as refused:
        compare_uploads(lambda: io.BytesIO(a), lambda: io.BytesIO(b), [1], limited=True)
    assert "listed in the answer would take about 37 MB, more than the 32 MiB one answer may list" in \
        str(refused.value)
    assert not compared
    assert LIMITS.listed_id_bytes == 32 * 2**20


def test_the_command_line_compares_them_whatever_they_list():
    shared = ["t"]
    a, b = (jsonl(shared + [f"{EMOJI}{side}{i}" for i in range(8000)]) for side in "ab")
    comparison, _ = compare_uploads(lambda: io.BytesIO(a), lambda: io.BytesIO(b), [1])
    assert comparison.paired == 1 and len(comparison.only_in_a) == 8000


def test_the_command_line_s_rankings_pass_no_web_limit():
    """passk --runs reads its files through rank_uploads, which ranked them within the web's limits."""
    files = [(f"run{r}.csv", lambda r=r: io.BytesIO(f"task_id,n,c\nt1,10,{r % 11}\nt2,10,3\n".encode()))
             for r in range(LIMITS.runs + 1)]
    ranking, _ = passk.writing.report.rank_uploads(files, [1])
    assert len(ranking.names) == LIMITS.runs + 1
    with pytest.raises(LimitError, match=f"Too many runs \\({LIMITS.runs + 1}\\)"):
        passk.writing.report.rank_uploads(files, [1], limited=True)
