"""The public Python API (passk.api, exported by passk): its figures against exact arithmetic, its to_json against
the JSON API's answer for the same input, and how each result shows itself (HTML, Markdown, DataFrame)."""

import doctest
import gzip
import io
import json
import re
import subprocess
import sys
from fractions import Fraction
from html.parser import HTMLParser
from math import comb

import numpy
import pytest

import passk
import passk.api
from passk.formats import FormatError
from passk.writing.answers import to_json
from where import REALDATA, ROOT

SAMPLE = ROOT / "examples" / "samples.jsonl_results.jsonl"
COUNTS = b"task_id,n,c\nadd,5,0\nsub,5,2\nmul,5,5\ndiv,6,1\n"


def exact_pass_at_k(counts, k):
    return sum(1 - Fraction(comb(n - c, k), comb(n, k)) for n, c in counts) / len(counts)


def flipped(every):
    """The example run with every `every`-th sample's verdict flipped: another run of the same problems."""
    lines = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    for index, line in enumerate(lines):
        line["passed"] = line["passed"] != (index % every == 0)
    return ("\n".join(map(json.dumps, lines)) + "\n").encode()


@pytest.fixture(scope="module")
def example():
    return passk.read(SAMPLE)


@pytest.fixture(scope="module")
def runs(example):
    return [example, passk.read(io.BytesIO(flipped(7))), passk.read(io.BytesIO(flipped(3)))]


def answer(client, path, data):
    response = client.post(path, data=data, content_type="multipart/form-data")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def as_json(value):
    return json.loads(json.dumps(value))


def test_import_passk_stays_light_and_finds_the_api_when_asked():
    code = ("import sys, passk\nassert 'scipy' not in sys.modules and 'passk.api' not in sys.modules\n"
            "passk.summarize\nprint('scipy' in sys.modules)")
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert completed.stdout == "True\n"
    assert passk.read is passk.api.read and {"read", "summarize", "compare", "rank", "plan"} <= set(dir(passk))


def test_read_gives_the_problems_and_the_layout(example):
    assert (len(example.problems), sum(p.n for p in example.problems), sum(p.c for p in example.problems)) == \
        (40, 400, 183)
    assert example.problems[0].task_id == "HumanEval/19"
    assert (example.format, example.layout, example.name) == \
        ("humaneval", "human-eval *_results.jsonl", str(SAMPLE))
    assert "openai/human-eval" in example.source and example.warnings == ()


def test_read_takes_a_path_a_binary_file_and_gzip_alike(example, tmp_path):
    packed = tmp_path / "samples.jsonl_results.jsonl.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    with open(SAMPLE, "rb") as file:
        from_file = passk.read(file)
    for run in (passk.read(str(SAMPLE)), from_file, passk.read(packed)):
        assert run.problems == example.problems and run.format == "humaneval"


def test_several_files_are_parts_of_one_run(example, tmp_path):
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    parts = [tmp_path / "first.jsonl", tmp_path / "second.jsonl"]
    parts[0].write_bytes(b"".join(lines[:150]))
    parts[1].write_bytes(b"".join(lines[150:]))
    run = passk.read(parts)
    assert {p.task_id: (p.n, p.c) for p in run.problems} == {p.task_id: (p.n, p.c) for p in example.problems}
    assert run.combined and run.name == f"{parts[0]} and 1 more files"


def test_a_run_shows_its_first_problems(example):
    tags = parsed(example._repr_html_())
    self_contained(tags)
    assert tags.tables == [11] and "and 30 more problems" in example._repr_html_()
    [table] = markdown_tables(example.to_markdown())
    assert table[2] == ["HumanEval/19", "10", "7"] and len(table) == 12
    frame = example.to_frame()
    assert list(frame.columns) == ["task_id", "n", "c"] and frame["c"].sum() == 183


def test_read_refuses_a_text_file_and_names_a_missing_one(tmp_path):
    with open(SAMPLE, encoding="utf-8") as file, pytest.raises(TypeError, match="binary mode"):
        passk.read(file)
    with pytest.raises(FormatError, match="Cannot read .*missing.jsonl"):
        passk.read(tmp_path / "missing.jsonl")


def test_an_empty_file_is_named(tmp_path):
    (tmp_path / "empty.jsonl").write_bytes(b"")
    with pytest.raises(FormatError) as error:
        passk.read(tmp_path / "empty.jsonl")
    assert str(error.value) == f"{tmp_path / 'empty.jsonl'} is empty: no problems were found."
    with pytest.raises(FormatError, match="^The file is empty"):
        passk.read(io.BytesIO(b"\n"))


REAL_RUNS = [   # (files of one run, the form's fields): EvalPlus with either suite, NeMo-Skills' seeds with maj@k
    (["evalplus-new__mrthinger_llama3-exp__70B-instruct-base_eval_results.json"], {"suite": "base"}),
    (["evalplus-new__Julien-pour_evaluate_model__rd_gene_1_1_eval_results.json"], {}),
    ([f"nemoskills__NVIDIA_NeMo-Skills__gpqa_output-rs{seed}.jsonl" for seed in range(4)], {"tau": "0.5"}),
]


@pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")
@pytest.mark.parametrize(("names", "fields"), REAL_RUNS)
def test_summarize_is_the_benchmark_api_on_real_harness_files(client, names, fields):
    paths = [REALDATA / name for name in names]
    summary = passk.summarize(passk.read(paths, suite=fields.get("suite")), k=[1, 2],
                              tau=float(fields["tau"]) if "tau" in fields else None)
    body = answer(client, "/api/v1/benchmark", {"file": [(io.BytesIO(path.read_bytes()), path.name) for path in paths],
                                                "k": "1,2", **fields})
    assert as_json(summary.to_json()) == body
    assert ("majority" in body) == (len(paths) > 1) and (summary.majority is not None) == (len(paths) > 1)


def test_summarize_agrees_with_exact_fractions():
    counts = [(5, 0), (5, 2), (5, 5), (6, 1)]
    summary = passk.summarize(passk.read(io.BytesIO(COUNTS)), k=[1, 2, 5, 6])
    for row in summary.results[:3]:
        assert row.pass_at_k == float(exact_pass_at_k(counts, row.k))
    assert summary.results[3].pass_at_k is None and "fewer than 6" in summary.results[3].reason
    assert (summary.problems, summary.samples, summary.min_n, summary.max_n) == (4, 21, 5, 6)
    assert summary.status == {"broken": 1, "flaky": 2, "solid": 1}


@pytest.mark.parametrize(("options", "message"), [
    ({"k": 0}, "k=0: 0 is below 1"),
    ({"tau": 2}, "tau must be from 0 to 1"),
    ({"tie": "coin"}, "tie must be one of fractional, wrong (maj@k's rule for a tied vote); got 'coin'."),
])
def test_summarize_refuses_options_out_of_range(example, options, message):
    with pytest.raises(ValueError) as error:
        passk.summarize(example, **options)
    assert str(error.value).startswith(message)


TAKEN = 'give a whole number from 1 to 10^12, a list of them, or a string like "1,10" or "1-128".'


@pytest.mark.parametrize(("k", "ks"), [
    (10, [10]), (numpy.int64(5), [5]), ([1, 10], [1, 10]), ((10, 1, 10), [1, 10]), (range(1, 4), [1, 2, 3]),
    (numpy.array([1, 5]), [1, 5]), ("1,10", [1, 10]), ("1, 5 10", [1, 5, 10]), (" 2 ", [2]),
])
def test_k_is_an_int_a_list_of_them_or_the_commands_text(example, k, ks):
    assert [row.k for row in passk.summarize(example, k=k).results] == ks


@pytest.mark.parametrize(("k", "sentence"), [
    (True, "k=True: True is a bool, not a number of samples; "),
    (1.5, "k=1.5: 1.5 is not a whole number; "),
    (2.0, "k=2.0: 2.0 is a float: write it as the int 2; "),
    (-1, "k=-1: -1 is below 1 (pass@k draws k samples); "),
    (0, "k=0: 0 is below 1 (pass@k draws k samples); "),
    (10**13, "k=10000000000000: 10,000,000,000,000 is above 10^12; "),
    ("abc", "k='abc': 'abc' is not a whole number or a range like 1-128; "),
    ("1,abc", "k='1,abc': 'abc' is not a whole number or a range like 1-128; "),
    ("1,0", "k='1,0': 0 is below 1 (pass@k draws k samples); "),
    ("10-1", "k='10-1': the range 10-1 runs backwards (write it 1-10); "),
    ("1-5000", "k='1-5000': the range 1-5000 holds more than 1,024 ks (range(1, 5001) is taken as it is); "),
    ("", "k='': no k is given; "),
    ([], "k=[]: no k is given; "),
    ([1, 2.5], "k=[1, 2.5]: 2.5 is not a whole number; "),
    ([1, False], "k=[1, False]: False is a bool, not a number of samples; "),
    (None, "k=None: None is not a k; "),
    (b"1", "k=b'1': a bytes is not a k; "),
    (list(range(-1, 1000)), "k=[-1, 0, 1, 2, 3, 4, 5, 6, ...]: -1 is below 1 (pass@k draws k samples); "),
])
def test_a_k_that_is_not_taken_is_one_sentence_naming_the_whole_value(example, k, sentence):
    for function, arguments in ((passk.summarize, [example]), (passk.compare, [example, example]),
                                (passk.rank, [[example, example]])):
        with pytest.raises(ValueError) as error:
            function(*arguments, k=k)
        assert str(error.value) == sentence + TAKEN


def test_the_example_gives_the_readme_figures(example):
    summary = passk.summarize(example, k=[1, 10])
    assert [row.pass_at_k for row in summary.results] == [float(Fraction(183, 400)), float(Fraction(34, 40))]
    assert passk.summarize(SAMPLE, k=10).results[0].pass_at_k == 0.85   # a path is read first


def test_summarize_is_the_benchmark_api(client):
    summary = passk.summarize(passk.read(SAMPLE, suite="base"), k=[1, 10], tau=0.5)
    body = answer(client, "/api/v1/benchmark", {"file": (io.BytesIO(SAMPLE.read_bytes()), SAMPLE.name),
                                                "k": "1,10", "suite": "base", "tau": "0.5"})
    assert as_json(summary.to_json()) == body
    assert "The suite choice names a run only in files of EvalPlus" in body["warnings"][-1]
    assert [as_json(to_json(row)) for row in summary.results] == body["results"]
    assert (summary.problems, summary.format, summary.samples, dict(summary.status), summary.source) == \
        (body["problems"], body["format"], body["samples"], body["status"], body["source"])
    assert as_json(summary.per_problem) == body["per_problem"] and list(summary.warnings) == body["warnings"]
    assert as_json(to_json(summary.g_pass)) == body["g_pass"]


def test_plan_is_the_benchmark_api_planner(client, example):
    plan = passk.plan(passk.summarize(example, k=[1, 10]), target=2, tokens_per_sample=500, price_per_million=3)
    body = answer(client, "/api/v1/benchmark", {"file": (io.BytesIO(SAMPLE.read_bytes()), SAMPLE.name),
                                                "k": "1,10", "target": "2", "tokens_per_sample": "500",
                                                "price_per_million": "3"})
    assert as_json(plan.to_json()) == body["planner"]
    assert plan.results[0].samples_per_problem and plan.results[0].extra_cost and plan.results[1].reason


def test_plan_refuses_a_target_out_of_range(example):
    with pytest.raises(ValueError, match="target"):
        passk.plan(passk.summarize(example, k=1), target=0)


def test_compare_is_the_compare_api(client, runs):
    comparison = passk.compare(runs[0], runs[1], k=[1, 10])
    body = answer(client, "/api/v1/compare", {"a": (io.BytesIO(SAMPLE.read_bytes()), "a.jsonl"),
                                              "b": (io.BytesIO(flipped(7)), "b.jsonl"), "k": "1,10"})
    assert as_json(comparison.to_json()) == body
    assert [as_json(to_json(row)) for row in comparison.results] == body["results"]
    assert comparison.paired == body["paired"] == 40


def test_compare_agrees_with_exact_fractions():
    a = passk.read(io.BytesIO(COUNTS))
    b = passk.read(io.BytesIO(b"task_id,n,c\nsub,5,1\nadd,5,3\nmul,5,4\nmod,4,4\n"))
    comparison = passk.compare(a, b, k=[1, 2])
    assert (comparison.paired, comparison.only_in_a, comparison.only_in_b) == (3, ("div",), ("mod",))
    for row in comparison.results:
        mine, theirs = [(5, 0), (5, 2), (5, 5)], [(5, 3), (5, 1), (5, 4)]
        exact = exact_pass_at_k(mine, row.k), exact_pass_at_k(theirs, row.k)
        assert (row.a, row.b, row.difference) == pytest.approx(
            (float(exact[0]), float(exact[1]), float(exact[0] - exact[1])), rel=1e-15)


def test_runs_without_task_ids_are_paired_by_line_and_said_so(client):
    a, b = b"3 1\n5 2\n", b"3 2\n5 5\n"
    comparison = passk.compare(passk.read(io.BytesIO(a)), passk.read(io.BytesIO(b)), k=1)
    assert as_json(comparison.to_json()) == answer(client, "/api/v1/compare", {
        "a": (io.BytesIO(a), "a.txt"), "b": (io.BytesIO(b), "b.txt"), "k": "1"})
    assert comparison.warnings[-1].startswith("Runs A and B had no task ids, so the problems were named problem 1")
    ranking = passk.rank([io.BytesIO(a), io.BytesIO(b), SAMPLE], k=1, names=["x", "y", "z"])
    assert ranking.warnings[-1].startswith("Run x and Run y had no task ids")


def test_rank_is_the_compare_api_for_several_runs(client, runs):
    ranking = passk.rank(runs, k=[1, 10], names=["base", "seven", "three"])
    body = answer(client, "/api/v1/compare", {
        "run": [(io.BytesIO(SAMPLE.read_bytes()), "x.jsonl"), (io.BytesIO(flipped(7)), "y.jsonl"),
                (io.BytesIO(flipped(3)), "z.jsonl")], "name": ["base", "seven", "three"], "k": "1,10"})
    assert as_json(ranking.to_json()) == body
    assert [run["name"] for run in ranking.runs] == ["base", "seven", "three"]
    best = ranking.results[0].ranking
    assert [row.place for row in best] == [1, 2, 3]
    assert [row.pass_at_k for row in best] == sorted((row.pass_at_k for row in best), reverse=True)


def test_rank_names_runs_after_their_files_or_their_place(runs):
    ranking = passk.rank(runs, k=1, names=["mine"])
    assert [run["name"] for run in ranking.runs] == ["mine", "run 2", "run 3"]
    assert passk.rank([SAMPLE, SAMPLE], k=1).runs[1]["name"] == f"{SAMPLE} (2)"


class Tags(HTMLParser):
    """Every start tag, and the rows (<tr>) of each <table>."""

    def __init__(self):
        super().__init__()
        self.tags, self.tables, self.open = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append(0)
        elif tag == "tr":
            self.tables[-1] += 1
        self.open.append(tag)

    def handle_startendtag(self, tag, attrs):   # <line .../>: opened and closed at once
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert self.open.pop() == tag, f"</{tag}> closes another element"


def parsed(html):
    tags = Tags()
    tags.feed(html)
    tags.close()
    assert tags.open == [], "every element is closed"
    return tags


def self_contained(tags):
    names = {tag for tag, _ in tags.tags}
    assert not names & {"script", "link", "img", "iframe", "style"}
    assert not [attrs for _, attrs in tags.tags if {"src", "href"} & attrs.keys() or
                any(name.startswith("on") for name in attrs)]


def test_every_result_shows_itself_as_html_without_scripts(example, runs):
    summary = passk.summarize(example, k=[1, 10])
    tags = parsed(summary._repr_html_())
    self_contained(tags)
    assert tags.tables[:2] == [3, 3]   # pass@k and pass^k: a header row and a row per k
    assert sum(tag == "svg" for tag, _ in tags.tags) == 2   # the curve over k and the pass-rate histogram
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", summary._repr_html_())
    assert cells[:2] == ["pass@1", "45.75%"] and "pass^10" in cells
    comparison = parsed(passk.compare(runs[0], runs[1], k=[1, 10])._repr_html_())
    self_contained(comparison)
    assert comparison.tables == [3] and sum(tag == "rect" for tag, _ in comparison.tags) > 0
    ranking = parsed(passk.rank(runs, k=[1, 10])._repr_html_())
    self_contained(ranking)
    assert ranking.tables == [4, 4, 4, 4]   # per k: three runs, three pairs
    plan = parsed(passk.plan(summary)._repr_html_())
    self_contained(plan)
    assert plan.tables == [3]


def test_html_escapes_names(runs):
    ranking = passk.rank(runs[:2], k=1, names=["<b>bold</b>", "a & b"])._repr_html_()
    assert "<b>" not in ranking and "&lt;b&gt;bold&lt;/b&gt;" in ranking and "a &amp; b" in ranking


def markdown_tables(text):
    """The Markdown tables in text: each a list of rows of cells."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append([cell.strip() for cell in line.strip("|").split(" | ")])
        elif current:
            tables.append(current)
            current = []
    return tables


def test_every_result_shows_itself_as_markdown_tables(example, runs):
    summary = passk.summarize(example, k=[1, 10])
    [table] = markdown_tables(summary.to_markdown())
    assert table[0][:2] == ["k", "pass@k (%)"] and table[1][0] == "---:"
    assert [row[:2] for row in table[2:]] == [["1", "45.75"], ["10", "85.00"]]
    assert len({len(row) for row in table}) == 1
    [comparison] = markdown_tables(passk.compare(runs[0], runs[1], k=[1, 10]).to_markdown())
    assert comparison[0][:4] == ["k", "A (%)", "B (%)", "A − B (pts)"] and len(comparison) == 4
    ranks, pairs = markdown_tables(passk.rank(runs, k=[1, 10]).to_markdown())
    assert len(ranks) == 2 + 6 and len(pairs) == 2 + 6
    [plan] = markdown_tables(passk.plan(summary).to_markdown())
    assert plan[0] == ["k", "plan"] and len(plan) == 4
    for result in (example, summary, passk.compare(runs[0], runs[1]), passk.rank(runs), passk.plan(summary)):
        assert result._repr_markdown_() == result.to_markdown()   # what Jupyter shows where HTML is not


def test_to_frame_has_a_row_per_k_and_per_problem(example, runs):
    summary = passk.summarize(example, k=[1, 10])
    frame = summary.to_frame()
    assert list(frame.columns[:6]) == ["k", "pass_at_k", "se", "ci95_low", "ci95_high", "se_fixed"]
    assert frame["pass_at_k"].tolist() == [0.4575, 0.85]
    assert (frame.loc[0, "ci95_low"], frame.loc[0, "ci95_high"]) == summary.results[0].ci95
    problems = summary.to_frame(per_problem=True)
    assert problems.shape == (40, 8)
    assert list(problems.columns) == ["task_id", "n", "c", "status", "pass_at_1", "pass_at_10", "pass_hat_1",
                                      "pass_hat_10"]
    assert problems["pass_at_1"].tolist() == [p.c / p.n for p in example.problems]
    comparison = passk.compare(runs[0], runs[1], k=[1, 10])
    assert comparison.to_frame()["difference"].tolist() == [row.difference for row in comparison.results]
    paired = comparison.to_frame(per_problem=True)
    assert paired.shape == (40, 7)
    assert (paired["pass_at_1_a"] - paired["pass_at_1_b"]).tolist() == paired["difference_1"].tolist()
    ranking = passk.rank(runs, k=[1, 10], names=["x", "y", "z"])
    assert ranking.to_frame().shape[0] == 6 and ranking.to_frame(per_problem=True).shape == (120, 9)
    assert passk.plan(summary).to_frame()["k"].tolist() == [1, 10]


def test_to_frame_says_to_install_pandas_when_it_is_missing(example, monkeypatch):
    summary = passk.summarize(example, k=1)
    monkeypatch.setitem(sys.modules, "pandas", None)   # import pandas now raises ImportError, as in the base install
    with pytest.raises(ImportError) as error:
        summary.to_frame()
    assert str(error.value) == 'to_frame needs pandas, which is not installed: pip install pandas (or pip install ' \
                               '"passk-calculator[pandas]").'


@pytest.mark.parametrize("name", ["read", "summarize", "compare", "rank", "plan"])
def test_each_function_has_a_numpydoc_docstring_with_an_example(name):
    doc = getattr(passk, name).__doc__
    for section in ("Parameters", "Returns", "Examples"):
        assert f"\n    {section}\n    {'-' * len(section)}\n" in doc
    assert ">>> " in doc


def test_the_docstring_examples_run():
    results = doctest.testmod(passk.api)
    assert results.failed == 0 and results.attempted >= 20


def test_the_examples_of_docs_api_md_run(monkeypatch):
    monkeypatch.chdir(ROOT)   # they read examples/ from the checkout's root
    results = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert results.failed == 0 and results.attempted >= 20


def test_a_file_read_by_the_library_is_named_in_its_error_and_the_error_is_public(tmp_path):
    path = tmp_path / "missing_col.csv"
    path.write_text("task_id,n\na,4\n")
    with pytest.raises(passk.FormatError, match=rf"^{re.escape(str(path))}: Line 1: the header"):
        passk.read(path)
    assert issubclass(passk.FormatError, ValueError) and "FormatError" in passk.__all__


def test_a_range_of_ks_as_text_is_every_k_in_it(example):
    """k="1-3,10" is k=[1, 2, 3, 10], as the command's -k takes it."""
    assert [row.k for row in passk.summarize(example, k="1-3, 10").results] == [1, 2, 3, 10]


def test_a_comparison_gives_its_curves_over_every_k_asked(example):
    """Comparison.curves(k="1-10"): both curves, A - B's simultaneous band, the regions and the first-loss set,
    as `passk --runs A B --curve -k 1-10` gives them; the curve's k equals the comparison table's k to the bit."""
    other = passk.read(io.BytesIO("".join(f"HumanEval/{i},10,{i % 11}\n" for i in range(40)).encode()),
                       format="csv")
    comparison = passk.compare(example, other, k=[1, 10])
    curves = comparison.curves(k="1-10")
    assert curves.ks == list(range(1, 11))
    table = {row.k: row.difference for row in comparison.results}
    assert [point.difference for point in curves.points if point.k in table] == [table[1], table[10]]
    standings = [standing for standing, _, _ in curves.standing_regions()]
    assert standings and set(standings) <= {"ahead", "behind", "undecided"}
    assert curves.to_json()["first_loss"] is not None
