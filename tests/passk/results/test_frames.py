"""passk.results.frames: pandas and polars DataFrames, Parquet and JSONL logs and Dask frames, reduced to (n, c).

The oracle for every reduction is a plain count of the rows (collections.Counter); the figures are those of
passk.results.benchmark.summarize on the same counts, checked against exact fractions.
"""

import doctest
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from math import comb

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

import passk
import passk.results.frames
from passk.results.benchmark import summarize
from passk.formats import FormatError, Problem
from passk.results.frames import DUCKDB, frame_problems, from_frame, reduce_dask, reduce_log, votes_from_frame
from passk.writing.answers import per_problem_rows, to_json
from where import ROOT

LIBRARIES = {"pandas": pd.DataFrame, "polars": pl.DataFrame}
SAMPLES = {"task": ["a", "a", "a", "b", "b", "b", "c"], "correct": [True, False, True, False, False, True, True]}


def oracle(tasks, verdicts):
    """[(task, n, c)] by counting the rows one by one, in order of first appearance."""
    samples, passed = Counter(), Counter()
    for name, verdict in zip(tasks, verdicts):
        samples[name] += 1
        passed[name] += bool(verdict)
    return [(name, samples[name], passed[name]) for name in samples]


def counts(problems):
    return [(problem.task_id, problem.n, problem.c) for problem in problems]


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_frame_gives_the_summary_of_its_counts(library):
    summary = from_frame(LIBRARIES[library](SAMPLES), task="task", correct="correct", ks=[1, 2])
    assert counts(summary.problems) == [("a", 3, 2), ("b", 3, 1), ("c", 1, 1)]
    expected = summarize([Problem("a", 3, 2), Problem("b", 3, 1), Problem("c", 1, 1)], [1, 2])
    assert [to_json(result) for result in summary.results] == [to_json(result) for result in expected.results]
    assert per_problem_rows(summary) == per_problem_rows(expected)
    assert summary.results[0].pass_at_k == pytest.approx(float(Fraction(2, 3) / 3 + Fraction(1, 3) / 3 + 1 / 3),
                                                          rel=1e-15)
    assert summary.results[1].pass_at_k is None   # c has one sample: pass@2 is undefined, as for any input


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(["x", "y", "z", "w"]), st.booleans()), min_size=1, max_size=30),
       st.sampled_from(sorted(LIBRARIES)), st.sampled_from([bool, int, float]))
def test_the_counts_are_those_of_the_rows(rows, library, kind):
    tasks, verdicts = [name for name, _ in rows], [kind(verdict) for _, verdict in rows]
    frame = LIBRARIES[library]({"task": tasks, "correct": verdicts})
    assert counts(frame_problems(frame, "task", "correct")) == oracle(tasks, verdicts)


def test_integer_task_ids_are_named_as_text_and_unused_categories_are_no_problems():
    problems = frame_problems(pd.DataFrame({"task": [7, 7, 3], "correct": [1, 0, 1]}), "task", "correct")
    assert counts(problems) == [("7", 2, 1), ("3", 1, 1)]
    categories = pd.DataFrame({"task": pd.Categorical(["a", "a"], categories=["a", "unused"]), "correct": [1, 0]})
    assert counts(frame_problems(categories, "task", "correct")) == [("a", 2, 1)]


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize(("columns", "names", "message"), [
    ({"task": ["a"], "correct": [True]}, ("problem", "correct"),
     'The table has no column "problem"; its columns: "task", "correct".'),
    ({"task": ["a", "b", None, None], "correct": [True, True, False, True]}, ("task", "correct"),
     'The column "task" is empty (null) in 2 rows: 2, 3; every sample needs a task and a verdict'),
    ({"task": ["a", "b", "c"], "correct": [1.0, None, 0.0]}, ("task", "correct"),
     'The column "correct" is empty (null) in 1 row: 1; every sample needs a task and a verdict'),
    ({"task": ["a", "b", "c"], "correct": [1, 2, 0]}, ("task", "correct"),
     'The column "correct" is neither true/false nor 1/0 in 1 row: 1;'),
    ({"task": ["a", "b"], "correct": [0.5, 1.0]}, ("task", "correct"),
     'The column "correct" is neither true/false nor 1/0 in 1 row: 0;'),
    ({"task": ["a", "b"], "correct": ["yes", "no"]}, ("task", "correct"), 'The column "correct" holds '),
])
def test_errors_name_the_column_and_the_rows(library, columns, names, message):
    frame = LIBRARIES[library](columns)
    with pytest.raises(FormatError) as error:
        from_frame(frame, task=names[0], correct=names[1])
    assert message in str(error.value)


def test_anything_but_a_pandas_or_polars_frame_is_refused():
    with pytest.raises(TypeError, match="from_frame needs a pandas or polars DataFrame; got dict."):
        from_frame(SAMPLES, task="task", correct="correct")
    with pytest.raises(TypeError, match=r"got LazyFrame \(collect\(\) it, or write it to Parquet for reduce_log\)."):
        from_frame(pl.LazyFrame(SAMPLES), task="task", correct="correct")


@pytest.mark.parametrize("library", LIBRARIES)
def test_votes_are_each_problems_answer_and_verdict_pairs_in_row_order(library):
    frame = LIBRARIES[library]({**SAMPLES, "answer": ["4", "5", "4", "1", None, "2", "9"]})
    assert votes_from_frame(frame, task="task", correct="correct", answer="answer") == {
        "a": [("4", True), ("5", False), ("4", True)], "b": [("1", False), (None, False), ("2", True)],
        "c": [("9", True)]}
    with pytest.raises(FormatError, match='no column "extracted"'):
        from_frame(frame, task="task", correct="correct", answer="extracted")


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_frame_with_answers_gives_maj_at_k_as_its_votes_do(library):
    frame = LIBRARIES[library]({**SAMPLES, "answer": ["4", "5", "4", "1", None, "2", "9"]})
    summary = from_frame(frame, task="task", correct="correct", answer="answer", ks=[1], tau=0.5, tie="wrong")
    votes = [Problem(name, len(pairs), sum(v for _, v in pairs), tuple(pairs))
             for name, pairs in votes_from_frame(frame, "task", "correct", "answer").items()]
    assert summary.majority == summarize(votes, [1], tie="wrong").majority
    # maj@1 = the share of samples with an answer that are correct: a 2/3, b 1/3, c 1
    assert summary.majority.results[0].estimate.value == float((Fraction(2, 3) + Fraction(1, 3) + 1) / 3)
    assert summary.majority.tie == "wrong" and summary.g_pass.tau == 0.5
    assert [(p.n, p.c) for p in summary.problems] == [(p.n, p.c) for p in from_frame(frame, "task", "correct",
                                                                                    ks=[1]).problems]


def test_a_nan_answer_does_not_vote():
    frame = pd.DataFrame({"task": ["a", "a"], "correct": [True, False], "answer": [1.0, float("nan")]})
    assert votes_from_frame(frame, "task", "correct", "answer") == {"a": [(1.0, True), (None, False)]}


@pytest.fixture
def log_rows():
    tasks = [f"t{index % 7}" for index in range(200)]
    verdicts = [(index * 31) % 5 < 2 for index in range(200)]
    return tasks, verdicts


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_a_log_is_reduced_to_the_counts_of_its_rows(tmp_path, log_rows, suffix):
    tasks, verdicts = log_rows
    path = tmp_path / f"log{suffix}"
    if suffix == ".parquet":
        pq.write_table(pa.table({"task": tasks, "correct": verdicts, "answer": ["x"] * len(tasks)}), path,
                       row_group_size=50)
    else:
        path.write_text("".join(json.dumps({"task": name, "correct": verdict}) + "\n"
                                for name, verdict in zip(tasks, verdicts)))
    assert counts(reduce_log(path, task="task", correct="correct")) == sorted(oracle(tasks, verdicts))


@pytest.mark.parametrize(("table", "message"), [
    ({"task": ["a", "b"], "correct": [1, 0]}, None),
    ({"task": ["a", "a", "b"], "correct": [True, None, None]}, '2 samples have no "correct" (null), in 2 problems: '
                                                               '"a" (1), "b" (1); every sample needs a verdict.'),
    ({"task": ["a", None], "correct": [True, True]}, "1 samples have no task (null); every sample needs one."),
    ({"task": ["a", "b"], "correct": [0.5, 1.0]}, '"correct" must be true/false or 1/0; problems "a" have other '
                                                  "values."),
    ({"task": ["a", "b"], "correct": ["yes", "no"]}, 'The column "correct" holds VARCHAR values; it must hold '
                                                     "true/false or 1/0"),
    ({"task": ["a"], "passed": [True]}, 'The table has no column "correct"; its columns: "task", "passed".'),
])
def test_a_log_with_a_bad_column_is_refused(tmp_path, table, message):
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table(table), path)
    if message is None:
        assert counts(reduce_log(path, task="task", correct="correct")) == [("a", 1, 1), ("b", 1, 0)]
        return
    with pytest.raises(FormatError) as error:
        reduce_log(path, task="task", correct="correct")
    assert message in str(error.value)


def test_a_log_that_is_not_there_is_refused_naming_it(tmp_path):
    with pytest.raises(FormatError, match="Cannot reduce .*missing.parquet"):
        reduce_log(tmp_path / "missing.parquet", task="task", correct="correct")


def test_without_duckdb_reduce_log_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)
    with pytest.raises(FormatError) as error:
        reduce_log(tmp_path / "log.parquet", task="task", correct="correct")
    assert str(error.value) == DUCKDB and 'pip install "passk-calculator[logs]"' in DUCKDB


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        yield client


def test_dask_on_a_local_cluster_of_two_workers_gives_the_single_machine_counts(dask_client, log_rows):
    import dask.dataframe as dd
    tasks, verdicts = log_rows
    frame = pd.DataFrame({"task": tasks, "correct": verdicts})
    assert len(dask_client.scheduler_info()["workers"]) == 2
    problems = reduce_dask(dd.from_pandas(frame, npartitions=4), task="task", correct="correct")
    assert counts(problems) == sorted(counts(frame_problems(frame, "task", "correct"))) \
        == sorted(oracle(tasks, verdicts))
    with pytest.raises(FormatError, match='1 samples have no task .null., or no verdict true/false or 1/0 in "c"'):
        reduce_dask(dd.from_pandas(pd.DataFrame({"t": ["a", "b"], "c": [1, 2]}), npartitions=1), task="t",
                    correct="c")


def test_the_figures_are_exact(log_rows):
    tasks, verdicts = log_rows
    summary = from_frame(pd.DataFrame({"task": tasks, "correct": verdicts}), task="task", correct="correct",
                         ks=[1, 5])
    per_problem = oracle(tasks, verdicts)
    for result in summary.results:
        exact = sum(1 - Fraction(comb(n - c, result.k), comb(n, result.k)) for _, n, c in per_problem) / 7
        assert result.pass_at_k == pytest.approx(float(exact), rel=1e-15, abs=0)


def test_importing_passk_imports_no_frame_library():
    script = ("import sys, passk; passk.from_frame; "
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'polars', 'pyarrow', 'duckdb', "
              "'dask'}))")
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert completed.stdout == "[]\n"
    assert passk.from_frame is from_frame


def test_every_module_imports_and_text_is_read_without_the_optional_packages():
    script = """
import pkgutil, sys
for name in ("pyarrow", "pandas", "polars", "duckdb", "dask", "distributed"):
    sys.modules[name] = None   # import pyarrow now raises ImportError, as in the base install
import passk
for module in pkgutil.walk_packages(passk.__path__, "passk."):
    __import__(module.name)
from passk.formats import FormatError, read_problems
assert [(p.n, p.c) for p in read_problems("10 3\\n").problems] == [(10, 3)]
try:
    read_problems(b"PAR1" + bytes(100))
except FormatError as error:
    print(error)
"""
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == 'Reading a Parquet file (lighteval details) needs pyarrow, which is not installed: ' \
                               'pip install "passk-calculator[parquet]".\n'


def test_the_docstring_examples_run():
    results = doctest.testmod(passk.results.frames)
    assert results.failed == 0 and results.attempted >= 3


def test_the_examples_of_docs_frames_md_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the example writes log.parquet
    results = doctest.testfile(str(ROOT / "docs" / "frames.md"), module_relative=False)
    assert results.failed == 0 and results.attempted >= 20
