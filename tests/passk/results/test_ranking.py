"""passk.results.ranking: several runs ranked per k, every pair compared with Holm-adjusted p-values, letter groups."""

from itertools import combinations, permutations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from passk.results.benchmark import compare, summarize
from passk.formats import Problem
from passk.limits import LIMITS
from passk.results.ranking import ALPHA, distinct_names, holm, letter_groups, rank_runs
from passk.writing.answers import to_json


def run(*counts, n=10, prefix="T"):
    """Problems T0, T1, … with n samples each and the given passes."""
    return [Problem(f"{prefix}{index}", n, c) for index, c in enumerate(counts)]


def holm_by_definition(p_values):
    """Holm (1979) straight from the definition: for each p, the largest step-down bound up to its rank."""
    m = len(p_values)
    ordered = sorted(p_values)
    adjusted = []
    for p in p_values:
        i = ordered.index(p) + ordered.count(p)   # ties: the last of the equal ones, whose bound is the max
        adjusted.append(max(min(1.0, (m - j) * ordered[j]) for j in range(i)))
    return adjusted


@pytest.mark.parametrize("raw, expected", [
    ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),
    ([0.01, 0.02, 0.03, 0.04], [0.04, 0.06, 0.06, 0.06]),
    ([0.5, 0.001], [0.5, 0.002]),
    ([0.3, 0.9, 0.2], [0.6, 0.9, 0.6]),
    ([0.04], [0.04]),
    ([0.6, 0.7], [1.0, 1.0]),
    ([], []),
])
def test_holm_on_hand_examples(raw, expected):
    assert holm(raw) == pytest.approx(expected)
    assert holm_by_definition(raw) == pytest.approx(expected)


def test_holm_leaves_undefined_p_values_out_of_the_count():
    assert holm([0.02, None, 0.02]) == pytest.approx([0.04, None, 0.04])


@given(st.lists(st.floats(0, 1), max_size=30))
def test_holm_is_at_least_the_raw_at_most_one_and_monotone(raw):
    adjusted = holm(raw)
    assert adjusted == pytest.approx(holm_by_definition(raw))
    assert all(p <= q <= 1 for p, q in zip(raw, adjusted))
    for (p, q), (p2, q2) in combinations(zip(raw, adjusted), 2):
        if p <= p2:
            assert q <= q2
        else:
            assert q2 <= q


def check_letters(order, different, letters):
    """A compact letter display: no two runs that differ share a letter, every two that do not share one."""
    for x, y in combinations(order, 2):
        share = bool(set(letters[x]) & set(letters[y]))
        assert share == (frozenset({x, y}) not in different), (x, y, letters)


@pytest.mark.parametrize("different, expected", [
    (set(), {"a": "a", "b": "a", "c": "a"}),
    ({("a", "b"), ("a", "c"), ("b", "c")}, {"a": "a", "b": "b", "c": "c"}),
    ({("a", "c")}, {"a": "a", "b": "ab", "c": "b"}),
    ({("a", "b"), ("a", "c")}, {"a": "a", "b": "b", "c": "b"}),
])
def test_letter_groups_on_hand_cases(different, expected):
    different = {frozenset(pair) for pair in different}
    letters = letter_groups(["a", "b", "c"], different)
    assert letters == expected
    check_letters(["a", "b", "c"], different, letters)


def test_letter_groups_when_not_shown_different_is_not_transitive_along_a_chain():
    order = list("pqrst")   # each differs only from those two or more places away
    different = {frozenset({x, y}) for (i, x), (j, y) in combinations(enumerate(order), 2) if j - i >= 2}
    letters = letter_groups(order, different)
    assert letters == {"p": "a", "q": "ab", "r": "bc", "s": "cd", "t": "d"}
    check_letters(order, different, letters)


@given(st.integers(1, 8).flatmap(lambda size: st.tuples(
    st.just(size), st.sets(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))))))
def test_letter_groups_are_a_compact_letter_display(case):
    size, edges = case
    order = [f"run {index}" for index in range(size)]
    different = {frozenset({order[i], order[j]}) for i, j in edges if i != j}
    letters = letter_groups(order, different)
    assert all(letters[name] for name in order)
    check_letters(order, different, letters)


def test_two_runs_equal_compare():
    a, b = run(3, 5, 10, 1, 7, 2), run(1, 5, 7, 2, 9, 0)
    ranking = rank_runs([("A", a), ("B", b)], ks=[1, 5])
    expected = compare(a, b, [1, 5])
    for row, want in zip(ranking.results, expected.results):
        [pair] = row.pairs
        assert (pair.a, pair.b, pair.paired) == ("A", "B", expected.paired)
        assert (pair.difference, pair.se, pair.ci95, pair.p_value, pair.test) == \
            (want.difference, want.se, want.ci95, want.p_value, want.test)
        assert pair.p_holm == pair.p_value   # one pair: nothing to adjust


def test_each_runs_numbers_are_the_benchmark_pages():
    runs = [("A", run(3, 5, 10, 1)), ("B", run(1, 5, 7, 2)), ("C", run(9, 9, 8, 10))]
    ranking = rank_runs(runs, ks=[1, 2])
    for index, row in enumerate(ranking.results):
        for entry in row.ranking:
            want = summarize(dict(runs)[entry.name], [1, 2]).results[index]
            assert (entry.pass_at_k, entry.se, entry.ci95) == (want.pass_at_k, want.se, want.ci95)


def test_ranking_is_best_first_and_pairs_in_the_order_given():
    runs = [("low", run(1, 2, 1, 0)), ("high", run(9, 8, 10, 9)), ("middle", run(5, 4, 6, 5))]
    row = rank_runs(runs, ks=[1]).results[0]
    assert [entry.name for entry in row.ranking] == ["high", "middle", "low"]
    assert [(pair.a, pair.b) for pair in row.pairs] == [("low", "high"), ("low", "middle"), ("high", "middle")]


def test_groups_follow_the_holm_p_values():
    many = 30   # enough problems for clear differences
    runs = [("strong", run(*[9, 10, 8] * 10)), ("strong too", run(*[10, 9, 8] * 10)),
            ("weak", run(*[1, 0, 2] * 10))]
    row = rank_runs(runs, ks=[1]).results[0]
    assert len(run(*[9, 10, 8] * 10)) == many
    groups = {entry.name: entry.group for entry in row.ranking}
    assert groups == {"strong": "a", "strong too": "a", "weak": "b"}
    for pair in row.pairs:
        shared = bool(set(groups[pair.a]) & set(groups[pair.b]))
        assert shared == (pair.p_holm >= ALPHA)


def test_holm_adjusts_over_all_pairs():
    runs = [(name, run(*[c, c + 1, c, c + 2, c + 1, c] * 4)) for name, c in (("x", 1), ("y", 3), ("z", 6))]
    row = rank_runs(runs, ks=[1]).results[0]
    assert [pair.p_holm for pair in row.pairs] == holm([pair.p_value for pair in row.pairs])


def test_problems_missing_from_some_runs_are_listed_per_pair():
    a = run(3, 5, 7)
    b = [Problem("T0", 10, 2), Problem("T1", 10, 5), Problem("X", 10, 1)]
    c = run(3, 5, 7, 9)
    row = rank_runs([("a", a), ("b", b), ("c", c)], ks=[1]).results[0]
    listed = {(pair.a, pair.b): (pair.paired, pair.only_in_a, pair.only_in_b) for pair in row.pairs}
    assert listed == {("a", "b"): (2, ["T2"], ["X"]), ("a", "c"): (3, [], ["T3"]),
                      ("b", "c"): (2, ["X"], ["T2", "T3"])}


def test_runs_with_nothing_in_common_are_a_pair_without_numbers():
    row = rank_runs([("a", run(3, 5)), ("b", run(2, 6, prefix="U"))], ks=[1]).results[0]
    [pair] = row.pairs
    assert (pair.paired, pair.difference, pair.p_value, pair.p_holm) == (0, None, None, None)
    assert pair.reason.startswith("No task ids in common: a has 2 problems and b 2")
    assert [entry.group for entry in row.ranking] == ["a", "a"]   # not shown different


def test_a_run_undefined_at_k_comes_last_without_a_group():
    row = rank_runs([("few samples", run(1, 1, n=2)), ("many", run(3, 5, 4))], ks=[5]).results[0]
    assert [(entry.name, entry.group) for entry in row.ranking] == [("many", "a"), ("few samples", "")]
    assert row.ranking[1].reason.startswith("pass@5 is undefined")
    assert row.pairs[0].p_holm is None


@pytest.mark.parametrize("runs, message", [
    ([("only", run(1))], "Give at least two runs to rank; got 1."),
    ([(f"r{i}", run(1)) for i in range(LIMITS.runs + 1)],
     f"Too many runs ({LIMITS.runs + 1}): rank at most {LIMITS.runs}"),
    ([("a", run(1, 2)), ("b", [Problem("T0", 10, 1), Problem("T0", 10, 2)])],
     "b lists task T0 twice; each task must appear once to be paired."),
    ([("a", run(1, 2)), ("b", [])], "No problems in b"),
])
def test_bad_input_is_a_sentence(runs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rank_runs(runs, ks=[1])


def test_names_are_made_distinct():
    assert distinct_names(["a.jsonl", "a.jsonl", None, "a.jsonl"]) == ["a.jsonl", "a.jsonl (2)", "run 3",
                                                                       "a.jsonl (3)"]


def test_the_order_of_the_runs_does_not_change_the_groups():
    runs = [("a", run(*[9, 8, 10] * 8)), ("b", run(*[5, 6, 4] * 8)), ("c", run(*[5, 4, 6] * 8)),
            ("d", run(*[1, 0, 2] * 8))]
    groupings = set()
    for order in permutations(runs):
        row = rank_runs(list(order), ks=[1]).results[0]
        groupings.add(frozenset(frozenset(entry.name for entry in row.ranking if letter in entry.group)
                                for letter in "abcd"))
    assert len(groupings) == 1


def test_the_examples_run_as_doctests():
    import doctest

    import passk.results.ranking
    failed, attempted = doctest.testmod(passk.results.ranking)
    assert (failed, attempted > 0) == (0, True)


# ---------------------------------------------------------------------------
# POST /api/v1/compare with repeated "run" fields

RUNS = {"strong.csv": "A,10,9\nB,10,8\nC,10,10\nD,10,9\n",
        "middle.csv": "A,10,5\nB,10,4\nC,10,6\nE,10,5\n",
        "weak.csv": "A,10,1\nB,10,0\nC,10,2\nD,10,1\n"}


def api_rank(client, runs=RUNS, **fields):
    import io
    data = {"run": [(io.BytesIO(text.encode()), name) for name, text in runs.items()], **fields}
    return client.post("/api/v1/compare", content_type="multipart/form-data", data=data)


def test_api_ranks_runs_sent_as_run_fields(client):
    response = api_rank(client, k="1,5")
    assert response.status_code == 200
    body = response.json
    assert list(body) == ["runs", "results", "warnings"]
    assert [run["name"] for run in body["runs"]] == list(RUNS)
    assert [row["k"] for row in body["results"]] == [1, 5]
    row = body["results"][0]
    assert [entry["name"] for entry in row["ranking"]] == ["strong.csv", "middle.csv", "weak.csv"]
    assert set(row["ranking"][0]) == {"name", "pass_at_k", "se", "ci95", "group", "reason"}
    assert set(row["pairs"][0]) >= {"a", "b", "paired", "difference", "se", "ci95", "p_value", "p_holm",
                                    "only_in_a", "only_in_b"}
    first = row["pairs"][0]
    assert (first["a"], first["b"], first["paired"], first["only_in_a"], first["only_in_b"]) == \
        ("strong.csv", "middle.csv", 3, ["D"], ["E"])


def test_api_ranking_is_the_librarys(client):
    from passk.formats import read_problems
    import io
    body = api_rank(client, k="1").json
    expected = to_json(rank_runs([(name, read_problems(io.BytesIO(text.encode())).problems)
                          for name, text in RUNS.items()], ks=[1]))
    assert body["results"] == expected["results"]


def test_api_runs_take_their_name_fields(client):
    body = api_rank(client, k="1", name=["model x", "model y", "model z"]).json
    assert [run["name"] for run in body["runs"]] == ["model x", "model y", "model z"]


def test_api_two_runs_as_a_and_b_keep_their_answer(client):
    import io
    response = client.post("/api/v1/compare", content_type="multipart/form-data", data={
        "a": (io.BytesIO(RUNS["strong.csv"].encode()), "a.csv"),
        "b": (io.BytesIO(RUNS["weak.csv"].encode()), "b.csv")})
    assert list(response.json) == ["paired", "only_in_a", "only_in_b", "results", "warnings"]


@pytest.mark.parametrize("runs, message", [
    ({"only.csv": "A,10,1\n"}, "Give at least two runs to rank; got 1."),
    ({"a.csv": "A,10,1\n", "b.csv": "\n\n"}, "Run b.csv is empty: no problems were found in it."),
    ({"a.csv": "A,10,1\n", "b.csv": "A,10,11\n"}, "Run b.csv: "),
])
def test_api_ranking_errors_are_sentences(client, runs, message):
    response = api_rank(client, runs)
    assert response.status_code == 400
    assert response.json["error"].startswith(message)


# ---------------------------------------------------------------------------
# passk --runs FILE FILE...


@pytest.fixture
def run_files(tmp_path):
    paths = []
    for name, text in RUNS.items():
        path = tmp_path / name
        path.write_text(text)
        paths.append(str(path))
    return paths


def test_cli_runs_prints_the_ranked_table_and_the_pairs(run_files, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")   # a wide terminal: the table and its sentences on one line each
    from passk.__main__ import main
    assert main(["--runs", *run_files, "-k", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "pass@1"
    assert lines[1].split() == ["rank", "run", "pass@k", "±", "SE", "95%", "interval", "group"]
    assert [line.split()[1].rsplit("/", 1)[-1] for line in lines[2:5]] == ["strong.csv", "middle.csv", "weak.csv"]
    assert lines[2].split()[2] == "90.00%"
    assert "p-values Holm-adjusted over 3 pairs" in out
    assert "p (Holm)" in out


def test_cli_runs_json_is_the_api_answer(run_files, capsys, client):
    import io
    import json

    from passk.__main__ import main
    assert main(["--runs", *run_files, "-k", "1,5", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    api = client.post("/api/v1/compare", content_type="multipart/form-data", data={
        "k": "1,5", "run": [(io.BytesIO(Path(path).read_bytes()), path) for path in run_files]}).json
    assert body == api


def test_cli_without_runs_still_combines_the_files_into_one_run(run_files, capsys):
    from passk.__main__ import main
    assert main([*run_files[:2], "-k", "1"]) == 0
    assert "rank" not in capsys.readouterr().out


def test_cli_runs_prints_paper_tables_too(run_files, capsys):
    from passk.__main__ import main
    assert main(["--runs", *run_files, "-k", "1", "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("| k | rank | run | pass@k (%) |") and any(line.startswith("| k | run | other | paired |") for line in lines)


def test_cli_runs_needs_two_files(run_files):
    import io

    from passk.__main__ import main
    stderr = io.StringIO()
    assert main(["--runs", run_files[0]], stderr=stderr) == 2
    assert stderr.getvalue().strip() == "passk: Give at least two runs to rank; got 1."
