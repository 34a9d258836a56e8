"""passk -o FORMAT: every output format holds the JSON's numbers, for every answer; the exit statuses a CI job
gates on (issue 18, item 14)."""

import contextlib
import csv
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passk.__main__ import main
from where import REALDATA, ROOT

EXAMPLE = str(ROOT / "examples" / "samples.jsonl_results.jsonl")
EVALPLUS = str(REALDATA / "evalplus-old__tyfann_Evaluate_LLM_Evalplus__phi_1_eval_results.json")
NEMO = [str(REALDATA / f"nemoskills__NVIDIA_NeMo-Skills__gpqa_output-rs{seed}.jsonl") for seed in range(4)]
DAVINCI = str(REALDATA / "humaneval__BoyuanJackChen_human-eval__davinci002_results.jsonl")
ARENA = str(REALDATA / "evalarena__crux-eval_eval-arena__humaneval_hf_29_models.jsonl")
WRITTEN = ("csv", "tsv", "markdown", "latex")
needs_realdata = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"no real harness files at {REALDATA}")


def answered(*argv):
    """(exit status, standard output, standard error) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(arg) for arg in argv], stderr=err)
        except SystemExit as stopped:   # argparse's refusals
            status = stopped.code
    return status, out.getvalue(), err.getvalue()


UNDEFINED_K = 3   # the status of an answer with a k given with -k undefined (passk --help)


def json_of(*argv, status=0):
    said, out, err = answered(*argv, "--json")
    assert said == status, err
    return json.loads(out)


# --- reading each format back -------------------------------------------------

def delimited_tables(text, delimiter):
    """CSV or TSV read back by the csv module: a list of tables, each a list of {header: cell}."""
    tables, current = [], []
    for row in csv.reader(io.StringIO(text), delimiter=delimiter):
        if row:
            current.append(row)
        else:
            tables.append(current)
            current = []
    tables.append(current)
    assert all(len(row) == len(table[0]) for table in tables for row in table)   # rectangular
    return [[dict(zip(table[0], row)) for row in table[1:]] for table in tables]


def markdown_tables(text):
    """Markdown pipe tables: a list of (header, rows), checked for a rule under the header and a cell per column."""
    tables = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if not lines:
            continue   # a table's title
        header, rule, *rows = [split_cells(line) for line in lines]
        assert all(re.fullmatch(r":?-{3,}:?", cell) for cell in rule)
        assert all(len(row) == len(header) == len(rule) for row in rows)
        tables.append((header, rows))
    return tables


def split_cells(line):
    """A pipe table's line as cells; an escaped pipe stays inside its cell."""
    assert line.startswith("| ") and line.endswith(" |")
    return [cell.replace("\\|", "|") for cell in re.split(r"(?<!\\) \| ", line[2:-2])]


def latex_tables(text):
    """LaTeX tabulars: a list of (header, rows), checked for structure: begin and end, \\hline rules, as many
    cells in every row as the column specification has columns, and no unescaped % outside comments."""
    lines = text.splitlines()
    assert lines[0].startswith("% passk ")
    assert text.count(r"\begin{tabular}") == text.count(r"\end{tabular}") >= 1
    assert r"\toprule" not in text and "booktabs" not in text   # compiles with no package
    tables = []
    for block in text.split("\n\n"):
        body = [line for line in block.splitlines() if not line.startswith("%")]
        assert all(not re.search(r"(?<!\\)%", line) for line in body)
        spec = re.fullmatch(r"\\begin\{tabular\}\{([lcr]+)\}", body[0]).group(1)
        assert body[1] == body[3] == body[-2] == r"\hline" and body[-1] == r"\end{tabular}"
        header, *rows = [line.removesuffix(r" \\").split(" & ") for line in [body[2], *body[4:-2]]]
        assert all(line.endswith(r" \\") for line in [body[2], *body[4:-2]])
        assert all(len(row) == len(spec) for row in [header, *rows])
        tables.append((header, rows))
    return tables


# --- comparing with the JSON --------------------------------------------------

def json_value(row, key):
    """The JSON's value behind a CSV header: an interval's bound for name_low and name_high."""
    if key not in row and key.endswith(("_low", "_high")):
        bounds = row[key.rsplit("_", 1)[0]]
        return None if bounds is None else bounds[key.endswith("_high")]
    return row[key]


def same_as_json(cell, value):
    """A CSV cell holds the JSON's value exactly: "" for null, every digit of a number, a list's length."""
    if value is None:
        return cell == ""
    if isinstance(value, list):
        return int(cell) == len(value)   # the task ids only in one run: how many
    if isinstance(value, (int, float)):
        return float(cell) == value
    return cell == value


def check_delimited(table, json_rows, skip=()):
    assert len(table) == len(json_rows)
    for row, json_row in zip(table, json_rows):
        for key, cell in row.items():
            if key not in skip:
                assert same_as_json(cell, json_value(json_row, key)), (key, cell, json_row)


def paper_value(cell):
    """A paper table's cell as a number, [low, high], or None for the missing mark."""
    cell = cell.strip()
    if cell in ("—", "--"):
        return None
    if cell.startswith("["):
        return [paper_value(bound) for bound in cell.strip("[]").split(", ")]
    return float(cell)


def near(cell, value, percent):
    """A paper cell (two decimals of a percentage or points, three of a p-value) shows the JSON's value."""
    shown = paper_value(cell)
    if value is None:
        return shown is None
    if isinstance(value, list):
        return shown == pytest.approx([100 * bound for bound in value], abs=0.0051, rel=0.005)
    scale, places = (100, 0.0051) if percent else (1, 0.00051)
    return shown == pytest.approx(scale * value, abs=places, rel=0.005)


def check_paper(paper_table, keys, json_rows):
    """A Markdown or LaTeX table against the JSON: keys are the columns' JSON keys (the CSV's, intervals joined)."""
    header, rows = paper_table
    assert len(header) == len(keys) and len(rows) == len(json_rows)
    percent = ["(%)" in heading or r"(\%)" in heading or "(pts)" in heading for heading in header]
    for row, json_row in zip(rows, json_rows):
        for cell, key, scaled in zip(row, keys, percent):
            value = json_value(json_row, key)
            if isinstance(value, str):   # as escaped; "" (no group letter) as the missing mark
                assert cell.replace("\\", "") == value.replace("\\", "") or (value, cell) in (("", "—"), ("", "--"))
            elif isinstance(value, list) and (not value or isinstance(value[0], str)):   # task ids: how many
                assert int(cell) == len(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                assert int(cell) == value
            else:
                assert near(cell, value, scaled), (key, cell, value)


def json_keys(csv_header):
    """The JSON keys of a CSV header: an interval's two columns become one."""
    keys = []
    for name in csv_header:
        base = re.sub(r"_(low|high)$", "", name)
        if name != base and keys and keys[-1] == base:
            continue
        keys.append(base)
    return keys


def report_json_tables(answer):
    """The JSON's rows of each table of one run: pass@k, then maj@k, G-Pass@k, max@k and avg@k where there are any."""
    tables = [answer["results"]]
    tables += [answer[name]["results"] for name in ("majority", "g_pass", "graded", "avg_at_k") if answer.get(name)]
    return tables


# --- one run -------------------------------------------------------------------

RUNS = {   # pass@100 of the example (n = 10) and pass@10 of the EvalPlus file (n = 1) are undefined: status 3
    "example": ([EXAMPLE, "-k", "1,10,100"], UNDEFINED_K),
    "evalplus": ([EVALPLUS, "-k", "1,10"], UNDEFINED_K),
    "nemo": ([*NEMO, "-k", "1,2,4", "--tau", "0.5"], 0),
}


@needs_realdata
@pytest.mark.parametrize("name, output", [(name, output) for name in ("example", "nemo") for output in WRITTEN] +
                         [("evalplus", "csv"), ("evalplus", "latex")])   # two suites: a Suite column
def test_every_format_of_one_run_holds_the_json_numbers(name, output):
    argv, expected_status = RUNS[name]
    status, out, err = answered(*argv, "-o", output)
    assert status == expected_status, err
    csv_tables = delimited_tables(answered(*argv, "-o", "csv")[1], ",")
    suites = dict.fromkeys(row.get("suite") for row in csv_tables[0])   # EvalPlus: each suite against its JSON
    answers = {suite: json_of(*argv, *(["--suite", suite] if suite else []), status=expected_status)
               for suite in suites}
    expected = [[row for suite, answer in answers.items() for row in report_json_tables(answer)[index]]
                for index in range(len(csv_tables))]
    # the suites' rows in the order the tables give them: the chosen (plus) suite first
    assert [row.get("suite") for row in csv_tables[0]] == [suite for suite in answers
                                                           for _ in answers[suite]["results"]]
    if output in ("csv", "tsv"):
        tables = delimited_tables(out, "," if output == "csv" else "\t")
        assert len(tables) == len(expected) == (4 if name == "nemo" else 1)   # NeMo-Skills: maj@k, G-Pass@k, avg@k
        for table, json_rows in zip(tables, expected):
            check_delimited(table, json_rows, skip={"suite"})
    else:
        tables = markdown_tables(out) if output == "markdown" else latex_tables(out)
        assert len(tables) == len(expected)
        for table, csv_table, json_rows in zip(tables, csv_tables, expected):
            keys = json_keys(csv_table[0])
            if keys[0] == "suite":
                assert [row[0] for row in table[1]] == [row["suite"] for row in csv_table]
                table = (table[0][1:], [row[1:] for row in table[1]])
                keys = keys[1:]
            check_paper(table, keys, json_rows)


def test_markdown_and_latex_of_one_run_keep_the_old_paper_table():
    """One table of one run: no title, the header first, as --markdown and --latex always printed it."""
    status, markdown, _ = answered(EXAMPLE, "-k", "1,10", "--markdown")
    assert status == 0 and markdown.splitlines()[0].startswith("| k | pass@k (%) | ± SE (%) | 95% interval (%) |")
    assert markdown == answered(EXAMPLE, "-k", "1,10", "-o", "markdown")[1]
    latex = answered(EXAMPLE, "-k", "1,10", "--output-format", "latex")[1]
    assert latex == answered(EXAMPLE, "-k", "1,10", "--latex")[1]
    assert latex.splitlines()[1] == r"\begin{tabular}{rrrcrr}" and r"95\% interval (\%)" in latex


def test_csv_and_tsv_say_on_standard_error_what_their_rows_cannot():
    """An undefined k is an empty row in the CSV; why is a line on standard error, as beside the paper tables."""
    status, out, err = answered(EXAMPLE, "-k", "1,100", "-o", "csv")
    assert status == UNDEFINED_K and out.splitlines()[-1] == "100,,,,,,"
    assert "passk: warning: pass@100 is undefined: all 40 problems have fewer than 100 samples" in err
    assert "undefined" not in out


def test_names_holding_delimiters_or_quotes_read_back_whole(tmp_path):
    one, two = tmp_path / "a, the first.csv", tmp_path / 'the "second".csv'
    one.write_text("x,10,3\ny,10,4\n")
    two.write_text("x,10,5\ny,10,6\n")
    for output, delimiter in (("csv", ","), ("tsv", "\t")):
        status, out, _ = answered("--runs", one, two, "-k", "1", "-o", output)
        ranking, pairs = delimited_tables(out, delimiter)
        assert [row["name"] for row in ranking] == [str(two), str(one)]
        assert (pairs[0]["a"], pairs[0]["b"]) == (str(one), str(two))


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex (apt-get install texlive-latex-base)")
def test_the_latex_tables_compile_with_no_package(tmp_path):
    """One run with a tiny value and a ranking with underscores in its names, in a bare article."""
    tiny, runs = tmp_path / "tiny_counts.txt", write_runs(tmp_path, BASELINE, WORSE)
    tiny.write_text("a 1000000 1\nb 1000000 2\n")
    tables = [answered(tiny, "-k", "1", "-o", "latex")[1], answered("--runs", *runs, "-k", "1", "-o", "latex")[1]]
    assert "1.50e-04" in tables[0] and r"\_" in tables[1]
    document = tmp_path / "tables.tex"
    document.write_text("\\documentclass{article}\n\\begin{document}\n" + "\n\n".join(tables) + "\n\\end{document}\n")
    compiled = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", document.name],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout[-2000:]


# --- several runs, two runs, curves ---------------------------------------------

@needs_realdata
@pytest.mark.parametrize("runs, output", [([EXAMPLE, DAVINCI], output) for output in WRITTEN] + [([ARENA], "tsv")],
                         ids=[*WRITTEN, "eval-arena-tsv"])
def test_every_format_of_a_ranking_holds_the_json_numbers(runs, output):
    argv = ["--runs", *runs, "-k", "1,10" if len(runs) > 1 else "1"]   # 29 models: 406 pairs at each k
    expected_status = UNDEFINED_K if len(runs) > 1 else 0   # the davinci run has n = 1: its pass@10 is undefined
    answer = json_of(*argv, status=expected_status)
    ranked = [{"k": row["k"], **entry} for row in answer["results"] for entry in row["ranking"]]
    paired = [{"k": row["k"], **pair} for row in answer["results"] for pair in row["pairs"]]
    status, out, err = answered(*argv, "-o", output)
    assert status == expected_status, err
    csv_tables = delimited_tables(answered(*argv, "-o", "csv")[1], ",")
    if output in ("csv", "tsv"):
        ranking, pairs = delimited_tables(out, "," if output == "csv" else "\t")
        check_delimited(ranking, ranked, skip={"place"})
        check_delimited(pairs, paired)
        for row in answer["results"]:   # the place is the order of the runs with a pass@k, best first
            places = [entry["place"] for entry in ranking if entry["k"] == str(row["k"])]
            defined = sum(entry["pass_at_k"] is not None for entry in row["ranking"])
            assert places == [str(place) for place in range(1, defined + 1)] + [""] * (len(places) - defined)
    else:
        tables = markdown_tables(out) if output == "markdown" else latex_tables(out)
        assert len(tables) == 2 and tables[0][0][:3] in (["k", "rank", "run"],)
        for table, csv_table, json_rows in zip(tables, csv_tables, (ranked, paired)):
            keys = json_keys(csv_table[0])
            if keys[1] == "place":
                table = ([table[0][0], *table[0][2:]], [[row[0], *row[2:]] for row in table[1]])
                keys = [keys[0], *keys[2:]]
            check_paper(table, keys, json_rows)


def write_runs(tmp_path, baseline, new):
    """Two runs of task_id,n,c lines: (path of the baseline, path of the new run)."""
    paths = []
    for name, counts in (("baseline.csv", baseline), ("new.csv", new)):
        paths.append(tmp_path / name)
        paths[-1].write_text("".join(f"t{index},10,{c}\n" for index, c in enumerate(counts)))
    return paths


BASELINE = [8, 9, 7, 10, 6, 9, 8, 7, 9, 10] * 3
WORSE = [3, 4, 2, 5, 1, 4, 3, 2, 4, 5] * 3
LEVEL = [7, 9, 8, 10, 6, 8, 8, 7, 9, 10] * 3


@pytest.mark.parametrize("output", WRITTEN)
def test_every_format_of_the_curves_holds_the_json_numbers(tmp_path, output):
    argv = ["--runs", *write_runs(tmp_path, BASELINE, LEVEL), "--curve", "-k", "1"]
    points = [{**point, "may_first_lose": {True: "yes", False: "no", None: ""}[point["may_first_lose"]]}
              for point in json_of(*argv)["curve"]["points"]]   # the tables write the JSON's true/false as yes/no
    status, out, err = answered(*argv, "-o", output)
    assert status == 0 and "passk: note: A = " in err
    if output in ("csv", "tsv"):
        [table] = delimited_tables(out, "," if output == "csv" else "\t")
        assert list(table[0]) == ["k", "a", "b", "difference", "band_low", "band_high", "standing", "may_first_lose"]
        check_delimited(table, points)
    else:
        [table] = markdown_tables(out) if output == "markdown" else latex_tables(out)
        check_paper(table, ["k", "a", "b", "difference", "band", "standing", "may_first_lose"], points)


# --- the same numbers whatever the counts -------------------------------------------

@settings(max_examples=25)
@given(counts=st.lists(st.tuples(st.integers(1, 30), st.integers(0, 30)).map(lambda nc: (nc[0], min(nc))),
                       min_size=1, max_size=12),
       ks=st.lists(st.integers(1, 40), min_size=1, max_size=4, unique=True),
       output=st.sampled_from(WRITTEN))
def test_any_counts_give_the_json_numbers_in_every_format(counts, ks, output):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "counts.csv"
        path.write_text("task_id,n,c\n" + "".join(f"p{index},{n},{c}\n" for index, (n, c) in enumerate(counts)))
        argv = [path, "-k", ",".join(map(str, ks))]
        expected_status = UNDEFINED_K if max(ks) > min(n for n, _ in counts) else 0
        results = json_of(*argv, status=expected_status)["results"]
        status, out, err = answered(*argv, "-o", output)
        header = next(csv.reader([answered(*argv, "-o", "csv")[1].splitlines()[0]]))
    assert status == expected_status, err
    if output in ("csv", "tsv"):
        [table] = delimited_tables(out, "," if output == "csv" else "\t")
        check_delimited(table, results)
    else:
        [table] = markdown_tables(out) if output == "markdown" else latex_tables(out)
        check_paper(table, json_keys(header), results)


# --- option names -------------------------------------------------------------

def test_format_still_names_the_input_layout_and_input_format_is_the_same(tmp_path):
    path = tmp_path / "counts.txt"
    path.write_text("a,10,3\nb,10,5\n")
    answers = [json_of(path, "-k", "1", *option) for option in ([], ["--format", "csv"], ["--input-format", "csv"])]
    assert answers[0] == answers[1] == answers[2] and answers[1]["format"] == "csv"


def test_an_output_format_given_to_format_is_sent_to_o():
    status, out, err = answered(EXAMPLE, "--format", "markdown")
    assert status == 2 and out == ""
    assert err.startswith("passk: argument --input-format/--format: markdown is an output format") \
        and "give -o markdown" in err and len(err.splitlines()) == 1


def test_a_file_that_is_not_the_layout_format_names_says_o_writes_that_format():
    status, _, err = answered(EXAMPLE, "--format", "csv")
    assert status == 2 and err.endswith("(--format csv reads the FILEs as CSV counts; -o csv writes CSV)\n")


@pytest.mark.parametrize("options", [["-o", "csv", "--json"], ["--markdown", "-o", "latex"]])
def test_output_options_stay_mutually_exclusive(options):
    status, out, err = answered(EXAMPLE, *options)
    assert status == 2 and out == "" and "not allowed with argument" in err


def test_an_unknown_output_format_lists_the_formats():
    status, _, err = answered(EXAMPLE, "-o", "xlsx")
    assert status == 2
    assert "invalid choice: 'xlsx' (choose from 'table', 'csv', 'tsv', 'json', 'markdown', 'latex')" in err


# --- exit statuses ------------------------------------------------------------------

def test_a_significantly_worse_new_run_exits_1_with_one_sentence(tmp_path):
    baseline, new = write_runs(tmp_path, BASELINE, WORSE)
    status, out, err = answered("--runs", baseline, new, "-k", "1,10", "--fail-if-worse", "-o", "csv")
    pair = json_of("--runs", baseline, new, "-k", "1,10")["results"][0]["pairs"][0]
    assert status == 1 and delimited_tables(out, ",")[1][0]["p_holm"] == repr(pair["p_holm"])   # the answer first
    assert pair["a"] == str(baseline) and pair["difference"] > 0 and pair["p_holm"] < 0.05
    gate = [line for line in err.splitlines() if not line.startswith("passk: note: ")]   # the notes: k = 10's
    assert gate == [f"passk: {new} is significantly worse than {baseline} at pass@1: -50.00 pts (95% "
                    f"interval {-100 * pair['ci95'][1]:+.2f} pts to {-100 * pair['ci95'][0]:+.2f} pts, "
                    f"p = {pair['p_holm']:.2e}) on 30 paired problems."]


@pytest.mark.parametrize("baseline, new, gate", [
    (BASELINE, WORSE, []),                        # worse, but nobody asked: a difference never changes the status
    (WORSE, BASELINE, ["--fail-if-worse"]),       # better
    (BASELINE, LEVEL, ["--fail-if-worse"]),       # a little worse, not significantly (p (Holm) above 5%)
    (BASELINE, WORSE, ["--fail-if-worse", "10"]),  # at pass@10 both solve every problem: no difference
])
def test_no_significant_worsening_exits_0(tmp_path, baseline, new, gate):
    paths = write_runs(tmp_path, baseline, new)
    status, out, err = answered("--runs", *paths, "-k", "1,10", *gate)
    assert status == 0 and out and "significantly worse" not in err
    [pair] = json_of("--runs", *paths, "-k", "1")["results"][0]["pairs"]
    if gate == ["--fail-if-worse"] and baseline is BASELINE:
        assert 0 < pair["difference"] and pair["p_holm"] >= 0.05


def test_fail_if_worse_takes_pass_at_k_and_works_beside_the_curves(tmp_path):
    paths = write_runs(tmp_path, BASELINE, WORSE)
    assert answered("--runs", *paths, "-k", "1,10", "--fail-if-worse=pass@1", "--json")[0] == 1
    status, out, err = answered("--runs", *paths, "-k", "1", "--curve", "--fail-if-worse")
    assert status == 1 and out.startswith("pass@k over k") and "significantly worse" in err.splitlines()[-1]


@pytest.mark.parametrize("argv, said", [
    (["--fail-if-worse", "0"], "its k is a whole number of at least 1; got '0'"),
    (["-k", "10", "--fail-if-worse"], "--fail-if-worse gates on pass@1, and -k 10 leaves it out: add 1 to -k"),
    (["-k", "11", "--fail-if-worse", "11"], "--fail-if-worse cannot compare"),   # n = 10 < 11: undefined
])
def test_a_gate_that_cannot_be_judged_exits_2(tmp_path, argv, said):
    status, _, err = answered("--runs", *write_runs(tmp_path, BASELINE, WORSE), *argv)
    assert status == 2 and said in err and err.startswith("passk: ") and err.count("passk: ") == 1


@pytest.mark.parametrize("argv", [["a.csv", "b.csv", "--fail-if-worse"], ["--runs", "a", "b", "c", "--fail-if-worse"]])
def test_fail_if_worse_needs_a_baseline_and_a_new_run(argv):
    status, _, err = answered(*argv)
    assert status == 2 and "give --runs BASELINE NEW (two FILEs)" in err


def test_files_after_fail_if_worse_are_explained(tmp_path):
    baseline, new = write_runs(tmp_path, BASELINE, WORSE)
    status, _, err = answered("--runs", "--fail-if-worse", baseline, new)
    assert status == 2 and "give the FILEs before --fail-if-worse, or write --fail-if-worse=1" in err


@pytest.mark.parametrize("argv", [["missing.jsonl"], ["."], ["--runs", "missing.jsonl", EXAMPLE],
                                  ["--runs", EXAMPLE, "."], ["--runs", "missing.jsonl"], [EXAMPLE, "-k", "0"],
                                  ["--runs", EXAMPLE, EXAMPLE, "-k", "x", "-o", "csv"]])
def test_bad_input_exits_2_with_one_line_naming_it_once(argv):
    status, out, err = answered(*argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("passk: ")
    named = next((arg for arg in argv if arg in ("missing.jsonl", ".")), None)
    assert named is None or err.count(f" {named}:") == 1


def test_the_installed_command_exits_1_and_2_as_the_help_says(tmp_path):
    """The real process: the statuses a CI job sees."""
    baseline, new = write_runs(tmp_path, BASELINE, WORSE)
    command = [sys.executable, "-m", "passk", "--runs", str(baseline), str(new), "-k", "1"]
    worse = subprocess.run([*command, "--fail-if-worse", "-o", "tsv"], capture_output=True, text=True, timeout=60)
    assert worse.returncode == 1 and worse.stdout.startswith("k\tplace\tname\t")
    assert "is significantly worse than" in worse.stderr
    missing = subprocess.run([*command[:4], str(tmp_path / "missing.csv"), str(new)], capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 2 and missing.stdout == "" and "Cannot read" in missing.stderr
