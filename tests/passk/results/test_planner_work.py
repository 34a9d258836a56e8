"""Issue 25: the planner's sums priced before they are done, within a request's work (LIMITS.plan_work).

The planner's noise model sums a window of overlaps per different (n, c) pair, at the samples there are and at
each sample count its search tries. Each sum is priced in estimated microseconds (passk.results.planner's TRY_COST,
OVERLAP_COST, MISS_COST, VARIANCE_COST) before it is done; a k whose sums would pass what the request has left
gets a sentence pointing to the passk command instead. Spies count what was summed; no test here times anything.
"""

from collections import Counter

import numpy as np
import pytest

import passk.results.planner
from passk.results.benchmark import compare, summarize
from passk.formats import Problem
from passk.limits import LIMITS
from passk.results.planner import comparison_plan, plan, top_pair_plan
from passk.results.ranking import rank_runs
from passk.writing.answers import to_json

NEAR_1_9M = [1_900_000 + 1000 * index for index in range(20)]
LINK_PROBLEMS = [Problem("", 10_000_000, 1_900_000), Problem("", 10_000_001, 1_900_000)]   # the 221-character link


@pytest.fixture
def sums(monkeypatch):
    """What the planner summed: overlap x pair terms of its search (_Noise._misses_at) and the ks at which it
    summed the noise at the samples there are (passk.maths.variance.expected_variance)."""
    done = Counter()
    real_misses, real_variance = passk.results.planner._Noise._misses_at, passk.results.planner.expected_variance

    def misses_at(noise, k, overlaps):
        done["terms"] += overlaps.size * noise.samples.size
        return real_misses(noise, k, overlaps)

    def expected_variance(samples, correct, k, prior, at=None):
        done[f"variance at k = {k}"] += 1
        return real_variance(samples, correct, k, prior, at)
    monkeypatch.setattr(passk.results.planner._Noise, "_misses_at", misses_at)
    monkeypatch.setattr(passk.results.planner, "expected_variance", expected_variance)
    return done


def left_out(sentences):
    return [sentence for sentence in sentences if "not worked out here" in sentence]


def far_run(problems, run):
    """Each problem its own n near 10^12: every pair's noise is a window of its own."""
    return [Problem(f"p{i}", 10**12 - 7 * i - run, (7919 * i + run) % 10**6 + 1) for i in range(problems)]


def test_the_221_character_link_s_plan_sums_a_few_windows_at_each_k(sums):
    summary = summarize(LINK_PROBLEMS, NEAR_1_9M)
    bounded = plan(summary, work=LIMITS.plan_work)
    assert all(row.samples_per_problem and not left_out(row.sentences) for row in bounded)
    # 2 pairs x a window of about 12,000 overlaps (12 SDs each side) for each new sample count tried, a handful
    # of them a k; the plan used to take one numpy pass over the pairs per overlap (3.5 s)
    assert 0 < sums["terms"] <= 20 * 8 * 12_000 * 2
    assert [to_json(row) for row in bounded] == [to_json(row) for row in plan(summary)]   # the same answers


def test_a_plan_past_the_request_s_work_says_so_before_its_search_sums_anything(sums):
    rows = plan(summarize(LINK_PROBLEMS, NEAR_1_9M), work=1)
    assert sums["terms"] == 0
    for row, k in zip(rows, NEAR_1_9M):
        assert row.samples_per_problem is None and row.problems is not None   # problems need no search
        (sentence,) = left_out(row.sentences)
        assert sentence.startswith(f"The samples per problem that would bring the interval for these very problems "
                                   f"under ±1.00 points at pass@{k} are not worked out here")
        assert sentence.endswith(f"the passk command plans it without limits (`passk FILES -k {k} --target 1`).")


def test_the_ks_of_a_request_share_its_work():
    summary = summarize(LINK_PROBLEMS, NEAR_1_9M)
    whole = plan(summary)
    rows = plan(summary, work=LIMITS.plan_work / 3)
    answered = [row.samples_per_problem is not None for row in rows]
    assert answered[0] and not all(answered)
    assert [row.samples_per_problem for row in rows if row.samples_per_problem] == \
        [row.samples_per_problem for row, kept in zip(whole, answered) if kept]


def test_the_plan_is_unbounded_without_work_as_on_the_command_line(sums):
    rows = plan(summarize(LINK_PROBLEMS, NEAR_1_9M[:2]), work=None)
    assert all(row.samples_per_problem for row in rows) and sums["terms"] > 0


def test_a_comparison_s_noise_past_the_work_is_left_out_before_it_is_summed(sums):
    comparison = compare(far_run(2000, 0), far_run(2000, 1), [1, 10, 100])
    whole = comparison_plan(comparison)
    sums.clear()
    # the noise at k = 1 sums one overlap per pair (2 runs x 2,000 pairs), at 10 and 100 eleven: only k = 1 fits
    answers = comparison_plan(comparison, work=2 * 2000 * 3 * passk.results.planner.VARIANCE_COST)
    assert sorted(name for name in sums if name.startswith("variance")) == ["variance at k = 1"]
    assert answers[0] == whole[0] and answers[0]["detectable_fixed"] is not None
    for answer, k in zip(answers[1:], (10, 100)):
        assert answer["detectable"] == whole[1 if k == 10 else 2]["detectable"]   # from the SE: no noise model
        assert answer["detectable_fixed"] is None and answer["noise_share"] is None
        assert left_out(answer["sentences"]) == [
            f"What more samples would buy at pass@{k} is not worked out here: the planner's sums would pass the "
            f"{2 * 2000 * 3 * passk.results.planner.VARIANCE_COST / 1e6:,.1f} s of planning one request may compute; the "
            f"passk command plans it without limits (`passk --runs FILE_A FILE_B -k {k} --detect 1`)."]


def test_a_comparison_s_search_for_samples_past_the_work_says_so(sums):
    comparison = compare(far_run(300, 0), far_run(300, 1), [10])
    noise = 2 * 300 * 11 * passk.results.planner.VARIANCE_COST   # the noise now fits, the search's first size does not
    (answer,) = comparison_plan(comparison, difference=0.001, work=noise + 1)
    assert answer["detectable_fixed"] is not None and answer["samples"] is None and sums["terms"] == 0
    (sentence,) = left_out(answer["sentences"])
    assert sentence.startswith("The samples per problem in each run that would find a 0.10-point difference at "
                               "pass@10 are not worked out here")
    assert "(`passk --runs FILE_A FILE_B -k 10 --detect 0.1`)" in sentence


def test_the_top_pair_plan_of_a_ranking_is_bounded_too(sums):
    runs = [("best", far_run(500, 0)), ("second", far_run(500, 1)), ("third", far_run(500, 2))]
    first, second = top_pair_plan(rank_runs(runs, [1, 10]), work=2 * 500 * 1.5 * passk.results.planner.VARIANCE_COST)
    assert first["plan"] is not None and second["plan"] is not None
    assert not left_out(first["plan"]["sentences"]) and left_out(second["plan"]["sentences"])
    assert sorted(name for name in sums if name.startswith("variance")) == ["variance at k = 1"]


def test_many_problems_with_few_different_pairs_plan_cheaply(sums):
    counts = np.random.default_rng(25).integers(0, 201, 100_000)
    summary = summarize([Problem(f"t{i}", 200, int(c)) for i, c in enumerate(counts)], [1, 10, 100])
    rows = plan(summary, target=0.0001, work=LIMITS.plan_work)
    assert all(row.samples_per_problem for row in rows) and not any(left_out(row.sentences) for row in rows)


def test_a_comparison_makes_each_run_s_noise_once_for_all_its_ks(monkeypatch):
    made = []
    real = passk.results.planner._Noise.__init__

    def init(noise, *args, **kwargs):
        made.append(args[0].size)
        real(noise, *args, **kwargs)
    monkeypatch.setattr(passk.results.planner._Noise, "__init__", init)
    comparison = compare(far_run(300, 0), far_run(300, 1), [1, 10, 100])
    answers = comparison_plan(comparison, difference=0.01)
    assert made == [300, 300] and all(answer["detectable_fixed"] for answer in answers)   # the two runs, once
