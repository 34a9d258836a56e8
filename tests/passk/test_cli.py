"""python -m passk: the same numbers as the page and the API, as a table or JSON."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

import passk
from passk import cli
from passk.writing import paper
from passk.writing.columns import RESULT_COLUMNS, shown_in
from passk.__main__ import main
from passk.writing.display import percent
from where import FIXTURES, ROOT

RESULTS = "".join(json.dumps({"task_id": f"T/{i % 3}", "passed": i % 4 == 0}) + "\n" for i in range(30))


def run(*args, stdin=""):
    """Run the real command line in a subprocess."""
    return subprocess.run([sys.executable, "-m", "passk", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def unwrapped(text):
    """The terminal's answer with its lines joined again: a sentence wrapped to the width reads as one line."""
    return " ".join(text.split())


def test_table_names_problems_samples_and_each_k(tmp_path, capsys):
    path = tmp_path / "samples.jsonl_results.jsonl"
    path.write_text(RESULTS)
    assert main([str(path), "-k", "1,5,20"]) == cli.UNDEFINED_K   # pass@20 asked for, and n = 10
    out = unwrapped(capsys.readouterr().out)
    assert ("3 problems, 30 samples (n = 10), read as human-eval *_results.jsonl "
            "(human-eval (openai/human-eval) evaluate_functional_correctness)") in out
    assert "pass@20 is undefined" in out
    assert "pass@k" in out and "95% interval" in out


def test_a_table_with_one_k_defined_has_no_retries_line(tmp_path, capsys):
    """Retries compare pass@1 with larger ks: with only k = 1 defined there is nothing to say (it printed None)."""
    path = tmp_path / "counts.csv"
    path.write_text("task_id,n,c\na,3,1\nb,3,3\n")
    assert main([str(path), "-k", "1,10,100"]) == cli.UNDEFINED_K
    lines = capsys.readouterr().out.splitlines()
    assert "None" not in lines and not any(line.startswith("Retries") for line in lines)


def test_json_equals_the_api_answer(tmp_path, capsys, client):
    path = tmp_path / "results.jsonl"
    path.write_text(RESULTS)
    assert main([str(path), "-k", "1,2,5", "--json"]) == 0
    cli_answer = json.loads(capsys.readouterr().out)
    api_answer = client.post("/api/v1/benchmark", content_type="multipart/form-data",
                             data={"file": (io.BytesIO(RESULTS.encode()), "results.jsonl"), "k": "1,2,5"}).json
    assert cli_answer == api_answer


def test_standard_input_with_a_dash():
    completed = run("-", "-k", "1,5", "--json", stdin="10 3\n10 0\n")
    assert completed.returncode == 0, completed.stderr
    answer = json.loads(completed.stdout)
    assert answer["problems"] == 2
    assert answer["results"][1]["pass_at_k"] == pytest.approx(11 / 24, rel=1e-13)


def test_evalplus_suite_option(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"},
                                               {"base_status": "pass", "plus_status": "pass"}]}}))
    assert main([str(path), "-k", "1", "--suite", "base", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["pass_at_k"] == 1.0
    assert main([str(path), "-k", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["pass_at_k"] == 0.5


@pytest.mark.parametrize("args, stdin, fragment", [
    (["missing-file.jsonl"], "", "Cannot read missing-file.jsonl"),
    (["-"], "", "empty"),
    (["-"], "10 11\n", "Line 1"),
    (["-", "-k", "0"], "10 3\n", "k"),
    (["-", "-k", "x"], "10 3\n", "x"),
])
def test_bad_input_exits_2_with_one_line_and_no_traceback(args, stdin, fragment):
    completed = run(*args, stdin=stdin)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert fragment in completed.stderr


def test_evalplus_table_shows_both_suites(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"}],
                                         "B": [{"base_status": "fail", "plus_status": "fail"}]}}))
    assert main([str(path), "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 problems, 2 samples" in out and "EvalPlus plus suite" in out and "EvalPlus base suite:" in out


def test_json_names_the_evalplus_suite(tmp_path, capsys):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"}]}}))
    assert main([str(path), "-k", "1", "--json", "--suite", "base"]) == 0
    assert json.loads(capsys.readouterr().out)["suite"] == "base"


def test_usage_mistakes_are_one_line_too():
    completed = run("-", "--format", "xyz", stdin="10 3\n")
    assert completed.returncode == 2 and len(completed.stderr.strip().splitlines()) == 1
    assert "invalid choice: 'xyz'" in completed.stderr


def test_a_suite_no_file_names_is_refused_in_one_line():
    completed = run("-", "--suite", "xyz", stdin="10 3\n")
    assert completed.returncode != 0 and len(completed.stderr.strip().splitlines()) == 1
    assert 'Unknown suite "xyz": choose one of base, plus' in completed.stderr


def test_an_lm_eval_filter_is_chosen_with_suite(capsys):
    path = FIXTURES / "lmeval" / "samples_gsm8k_2025-01-01T00-00-00.000000.jsonl"
    assert main([str(path), "-k", "1", "--json", "--suite", "flexible-extract"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["format"] == "lmeval" and answer["results"][0]["pass_at_k"] == 2 / 3
    assert any('this is filter "flexible-extract"' in warning for warning in answer["warnings"])
    assert not any("suite choice names a run only" in warning for warning in answer["warnings"])



def test_runs_of_one_eval_arena_file_of_several_models_ranks_its_models(tmp_path, capsys):
    records = [{"model": model, "example_id": f"HumanEval/{index}", "pass1": float(index < passed)}
               for model, passed in (("weak", 2), ("strong", 9), ("middle", 5)) for index in range(10)]
    path = tmp_path / "arena.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    answer = json_answer(capsys, "--runs", str(path), "-k", "1")
    [row] = answer["results"]
    assert [(entry["name"], entry["pass_at_k"]) for entry in row["ranking"]] == [
        ("strong", 0.9), ("middle", 0.5), ("weak", 0.2)]
    assert len(row["pairs"]) == 3
    assert main(["--runs", str(path), "-k", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:3] == ["1", "strong", "90.00%"]
    assert main([str(path), "-k", "1"]) == 2
    assert "rank them all with `passk --runs FILE`" in capsys.readouterr().err
    assert json_answer(capsys, str(path), "-k", "1", "--suite", "middle")["results"][0]["pass_at_k"] == 0.5
    assert main(["--runs", str(path), str(path), "-k", "1", "--suite", "weak"]) == 0   # several files: as before

# --- issue 7 §2: the installed command ------------------------------------

class Terminal(io.StringIO):
    """A standard error that says it is a terminal, to see the progress bar."""

    def isatty(self):
        return True


def write_results(tmp_path, text=RESULTS, name="results.jsonl"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def json_answer(capsys, *args, status=0):
    assert main([*args, "--json"]) == status
    return json.loads(capsys.readouterr().out)


def test_version_names_the_program_and_the_package_version(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"passk {passk.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", passk.__version__)


def test_help_calls_the_program_passk(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: passk ") and "--markdown" in out and "--latex" in out
    assert "-o FORMAT, --output-format FORMAT" in out and "--input-format LAYOUT, --format LAYOUT" in out
    assert "exit status:\n  0  the answer was printed" in out and "\n  2  bad input" in out


@pytest.mark.parametrize("options", [["--json", "--markdown"], ["--markdown", "--latex"], ["--latex", "--json"]])
def test_output_options_are_mutually_exclusive(options):
    completed = run("-", *options, stdin="10 3\n")
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith("passk: argument ") and "not allowed with argument" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def percents(row):
    """A results row of the JSON as the paper tables write it (the columns they show, by their JSON keys):
    percentages to two places, None where undefined."""
    def points(value):
        return None if value is None else round(100 * value, 2)

    def cell(value):
        return value if isinstance(value, int) else [points(bound) for bound in value] if isinstance(value, list) \
            else points(value)
    return [cell(row[column.name]) for column in shown_in("markdown", RESULT_COLUMNS)]


def approx_cells(cells):
    """Cells as two-decimal tables print them: within half a hundredth (an end just below 100% prints as 99.999)."""
    return [pytest.approx(cell, abs=0.0051) if isinstance(cell, (float, list)) else cell for cell in cells]


def cell_value(cell, missing):
    """A table cell back as a number, an [low, high] list, or None for the missing mark."""
    cell = cell.strip()
    if cell == missing:
        return None
    if cell.startswith("["):
        return [float(bound) for bound in cell.strip("[]").split(",")]
    return int(cell) if cell.isdigit() else float(cell)


def test_markdown_table_holds_the_json_numbers(tmp_path, capsys):
    path = write_results(tmp_path)
    answer = json_answer(capsys, path, "-k", "1,2,5,20", status=cli.UNDEFINED_K)
    assert main([path, "-k", "1,2,5,20", "--markdown"]) == cli.UNDEFINED_K
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| k | pass@k (%) | ± SE (%) | 95% interval (%) | SE fixed (%) |")
    assert "| pass^k (%) |" in lines[0] and lines[1].startswith("| ---: | ---: | ---: | :---: | ---: |")
    rows = [[cell_value(cell, "—") for cell in line.strip("|").split(" | ")] for line in lines[2:]]
    assert rows == [approx_cells(percents(row)) for row in answer["results"]]
    assert rows[0][1] == 26.67 and rows[-1][0] == 20 and set(rows[-1][1:]) == {None}   # pass@20 is undefined: n = 10


def test_latex_tabular_holds_the_json_numbers(tmp_path, capsys):
    path = write_results(tmp_path)
    answer = json_answer(capsys, path, "-k", "1,2,5,20", status=cli.UNDEFINED_K)
    assert main([path, "-k", "1,2,5,20", "--latex"]) == cli.UNDEFINED_K
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"% passk {passk.__version__}"   # a plain tabular: no package needed
    assert lines[1].startswith(r"\begin{tabular}{rrrcr") and lines[2::2][:2] == [r"\hline", r"\hline"]
    assert lines[3].startswith(r"k & pass@k (\%) & $\pm$ SE (\%) & 95\% interval (\%) & SE fixed (\%) & ")
    assert r" & pass\textasciicircum{}k (\%)" in lines[3]
    assert lines[-2:] == [r"\hline", r"\end{tabular}"]
    body = lines[5:-2]
    assert all(line.endswith(r" \\") for line in body)
    rows = [[cell_value(cell, "--") for cell in line.removesuffix(r" \\").split(" & ")] for line in body]
    assert rows == [approx_cells(percents(row)) for row in answer["results"]]


def test_evalplus_paper_tables_have_a_row_per_suite_and_k(tmp_path, capsys):
    path = write_results(tmp_path, json.dumps({"eval": {
        "A": [{"base_status": "pass", "plus_status": "fail"}, {"base_status": "pass", "plus_status": "pass"}],
        "B": [{"base_status": "fail", "plus_status": "fail"}, {"base_status": "pass", "plus_status": "fail"}]}}),
        name="eval_results.json")
    assert main([path, "-k", "1", "--markdown"]) == 0
    header, _, plus, base = capsys.readouterr().out.splitlines()
    assert plus.startswith("| plus | 1 | 25.00 | 25.00 | [1.14e-71, 100.00] | 18.54 |")
    assert base.startswith("| base | 1 | 75.00 | 25.00 | [4.85e-23, 100.00] | 18.54 |")
    header, plus, base = (line.strip("| ").split(" | ") for line in (header, plus, base))
    at = header.index("pass^k (%)")   # pass^1 = pass@1
    assert (plus[at], base[at]) == ("25.00", "75.00")
    assert main([path, "-k", "1", "--latex", "--suite", "base"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(r"\begin{tabular}{lrrrcr") and lines[3].startswith("Suite & k & ")
    assert [line.split(" & ")[:3] for line in lines[5:7]] == [["base", "1", "75.00"], ["plus", "1", "25.00"]]


@pytest.mark.parametrize("text, latex, markdown", [
    ("95%", r"95\%", "95%"),
    ("gpt_4o & co", r"gpt\_4o \& co", r"gpt\_4o & co"),
    ("#1 $5 {x}", r"\#1 \$5 \{x\}", "#1 $5 {x}"),
    ("a~b^c\\d", r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d", r"a~b^c\\d"),
    ("a|b *c* `d`", "a|b *c* `d`", r"a\|b \*c\* \`d\`"),
])
def test_paper_tables_escape_their_text(text, latex, markdown):
    assert text.translate(paper.LATEX_SPECIAL) == latex
    assert text.translate(paper.MARKDOWN_SPECIAL) == markdown


def test_warnings_go_to_standard_error_and_leave_the_output_clean(tmp_path, capsys):
    path = write_results(tmp_path, "T/1 10 3\nT/2 20 5\nT/1 10 4\n")   # n differs; T/1 twice
    for output in ([], ["--markdown"], ["--latex"], ["--json"]):
        assert main([path, "-k", "1,15", *output]) == cli.UNDEFINED_K   # n = 10 for T/2
        out, err = capsys.readouterr()
        assert "warning" not in out.lower() and "undefined" not in out or output in ([], ["--json"])
        lines = err.splitlines()
        assert lines and all(line.startswith(("passk: warning: ", "passk: note: ")) for line in lines)
        assert any("more than once" in line for line in lines) and any("n differs" in line for line in lines)
    assert json.loads(out)["warnings"]   # the JSON keeps its own list too


def test_undefined_k_is_explained_on_standard_error_for_paper_tables(tmp_path, capsys):
    assert main([write_results(tmp_path), "-k", "1,20", "--markdown"]) == cli.UNDEFINED_K
    out, err = capsys.readouterr()
    twenty = next(line for line in out.splitlines() if line.startswith("| 20 |"))
    assert set(twenty.strip("| ").split(" | ")[1:]) == {"—"}
    assert err.startswith("passk: warning: pass@20 is undefined: all 3 problems have fewer than 20 samples")


def test_a_repeated_warning_is_said_once(tmp_path, capsys):
    path = write_results(tmp_path, json.dumps({"eval": {"A": [{"base_status": "pass", "plus_status": "fail"}]}}),
                         name="eval_results.json")
    assert main([path, "-k", "1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(set(err)) and any("Only one problem" in line for line in err)


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\t \r\n"])
def test_an_empty_file_is_described_in_command_line_words(tmp_path, capsys, text):
    path = write_results(tmp_path, text)
    assert main([path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"passk: {path} is empty: no problems were found.\n"


def test_empty_standard_input_is_described_too():
    completed = run("-", stdin="\n \n")
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == "passk: standard input is empty: no problems were found.\n"


def long_results(tmp_path):
    """About 600 KB of human-eval results: several of the readers' 64 KiB pieces."""
    lines = (json.dumps({"task_id": f"HumanEval/{i % 164}", "passed": i % 3 == 0}) + "\n" for i in range(164 * 40))
    return write_results(tmp_path, "".join(lines) * 2)


def test_a_long_file_shows_a_progress_bar_on_a_terminal_and_clears_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli.Progress, "delay", 0.0)
    monkeypatch.setattr(cli.Progress, "interval", 0.0)
    path = long_results(tmp_path)
    terminal = Terminal()
    assert main([path, "-k", "1,10", "--json"], stderr=terminal) == 0
    assert json.loads(capsys.readouterr().out)["problems"] == 164   # the answer is untouched
    drawn = terminal.getvalue().split("\r")
    bars = [line for line in drawn if line.strip()]
    assert len(bars) >= 5 and all(line.startswith("passk: reading results.jsonl [") for line in bars)
    assert max(len(line.rstrip()) for line in bars) <= 79   # one row, which "\r" can redraw
    mib = f"{os.path.getsize(path) / 2**20:.1f}"
    assert bars[-1].rstrip().endswith(f"] 100%  {mib} of {mib} MiB")
    assert drawn[-2].strip() == "" and len(drawn[-2]) >= len(bars[-1].rstrip()) and drawn[-1] == ""   # wiped


def test_no_progress_bar_when_standard_error_is_not_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli.Progress, "delay", 0.0)
    assert main([long_results(tmp_path), "-k", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_no_progress_bar_for_input_of_unknown_size():
    reading, writing = os.pipe()
    with os.fdopen(reading, "rb") as pipe, os.fdopen(writing, "wb"):
        assert cli.watched(pipe, "standard input", Terminal()) is pipe
    in_memory = io.BytesIO(b"10 3\n")
    assert cli.watched(in_memory, "x", Terminal()) is in_memory


def test_a_long_file_name_is_cut_to_keep_the_bar_on_one_row():
    terminal = Terminal()
    progress = cli.Progress(io.BytesIO(b"x" * 10), 10, "passk: reading " + "r" * 100 + ".jsonl", terminal,
                            clock=iter([0.0, 1.0]).__next__)
    progress.read(5)
    line = terminal.getvalue()
    assert len(line) == 1 + 79 and "rrr… [" in line and line.endswith("]  50%  0.0 of 0.0 MiB")


def test_the_progress_bar_redraws_at_most_ten_times_a_second():
    times = iter([0.0, 0.55, 0.6, 0.64, 0.66, 0.7, 0.8, 0.85])
    terminal = Terminal()
    progress = cli.Progress(io.BytesIO(b"x" * 100), 100, "passk: reading f", terminal, clock=lambda: next(times))
    for _ in range(7):
        progress.read(10)
    shares = re.findall(r"(\d+)%", terminal.getvalue())
    assert shares == ["10", "40", "60"]   # at 0.55 s (past the delay), 0.66 s and 0.8 s
    progress.clear()
    assert terminal.getvalue().endswith("\r")


def test_python_dash_m_passk_runs_the_same_command(tmp_path, capsys):
    path = write_results(tmp_path)
    completed = run(path, "-k", "1", "--markdown")
    assert completed.returncode == 0, completed.stderr
    assert main([path, "-k", "1", "--markdown"]) == 0
    assert completed.stdout == capsys.readouterr().out
    assert completed.stdout.splitlines()[2].startswith("| 1 | 26.67 | 3.33 | [")
    assert all(line.startswith("passk: note: ") for line in completed.stderr.splitlines())


def test_several_files_of_one_run_combine_and_say_how(tmp_path, capsys):
    """Repeated runs (here three SWE-bench-like CSVs) add up per task id; the note says so on standard error."""
    paths = []
    for run, rows in enumerate(["x,1,1\ny,1,0\n", "x,1,1\ny,1,1\n", "x,1,0\ny,1,0\n"]):
        paths.append(tmp_path / f"run{run}.csv")
        paths[-1].write_text("task_id,n,c\n" + rows)
    assert main([*map(str, paths), "-k", "1", "--json"]) == 0
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    assert [row["n"] for row in answer["per_problem"]] == [3, 3]
    assert [row["pass_at_k"]["1"] for row in answer["per_problem"]] == [2 / 3, 1 / 3]
    assert answer["combined"].startswith("3 files combined into one run of 2 problems")
    assert "passk: note: 3 files combined into one run of 2 problems" in captured.err


def test_an_error_in_one_of_several_files_names_it(tmp_path, capsys):
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text("task_id,n,c\nx,1,1\n")
    bad.write_text("task_id,n,c\nx,1,2\n")
    assert main([str(good), str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"passk: {bad}: Line 2: c = 2 is larger than n = 1")


@pytest.mark.parametrize(("options", "warned"), [([], False), (["--suite", "plus"], True), (["--suite", "base"], True)])
def test_a_suite_chosen_for_a_file_without_suites_is_said_to_be_ignored(tmp_path, capsys, options, warned):
    path = tmp_path / "results.jsonl"
    path.write_text(RESULTS)
    assert main([str(path), "-k", "1", *options]) == 0
    said = "passk: warning: The suite choice names a run only in files of EvalPlus (base or plus)"
    assert (said in capsys.readouterr().err) == warned


# --- issue 8 §1: one number style, columns that line up --------------------

TINY = "a 1000000000000 1\nb 1000000000000 2\nc 1000000000000 0\n"   # pass@k and its SEs far below 0.01%


def cell_ends(line):
    """Where each cell of a text-table line ends (cells are parted by two spaces or more)."""
    return [match.end() for match in re.finditer(r"\S+(?: \S+)*", line)]


def text_rows(out):
    """The header and the value rows of the terminal table: the lines that start with a k and hold a percentage
    (not the notes, their wrapped lines, nor undefined rows)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["k", "pass@k"])
    return lines[start], [line for line in lines[start + 1:] if re.match(r" *[0-9][0-9,]*  .*%", line)]


@pytest.mark.parametrize("stdin, ks", [
    (TINY, "1,10,1000000"),
    ("a 10 3\nb 10 0\nc 10 10\n", "1,2,5"),
    ("a 200 199\nb 200 200\n", "1,10,100"),
])
def test_text_table_columns_line_up_whatever_the_numbers(tmp_path, capsys, stdin, ks):
    assert main([write_results(tmp_path, stdin, "counts.txt"), "-k", ks]) == 0
    header, rows = text_rows(capsys.readouterr().out)
    assert len(rows) == len(ks.split(","))
    assert all(cell_ends(row) == cell_ends(header) for row in rows), "\n".join([header, *rows])


def test_text_table_writes_tiny_values_in_the_page_style_never_as_zero(tmp_path, capsys):
    path = write_results(tmp_path, TINY, "counts.txt")
    answer = json_answer(capsys, path, "-k", "1,1000000")
    assert main([path, "-k", "1,1000000"]) == 0
    header, rows = text_rows(capsys.readouterr().out)
    for row, result in zip(rows, answer["results"]):
        cells = re.split(r"\s{2,}", row.strip())
        assert cells[0] == f"{result['k']:,}"
        assert cells[1] == percent(result["pass_at_k"], ascii=True) and "e-" in cells[1]
        assert cells[4] == percent(result["se_fixed"], ascii=True) and cells[4] != "0.00%"
        assert all(re.fullmatch(r"\d\.\d\de-\d\d%", cell) for cell in (cells[1], cells[2], cells[4]))
    assert rows[0].split()[1] == "1.00e-10%"


def test_text_table_uses_two_decimals_where_they_show_the_value(tmp_path, capsys):
    assert main([write_results(tmp_path), "-k", "1,5"]) == 0
    header, rows = text_rows(capsys.readouterr().out)
    assert re.split(r"\s{2,}", rows[0].strip())[:3] == ["1", "26.67%", "3.33%"]


def test_paper_tables_never_print_a_tiny_value_as_zero(tmp_path, capsys):
    """pass@1 of one success in 10^6 samples per problem is 1e-4 %: 0.00 would be wrong; so would 100.00 for 1 - 1e-7."""
    path = tmp_path / "counts.csv"
    path.write_text("task_id,n,c\na,1000000,1\nb,1000000,1\n")
    assert main([str(path), "-k", "1", "--markdown"]) == 0
    assert "| 1 | 1.00e-04 |" in capsys.readouterr().out
    from passk.writing.display import percent_figure
    assert percent_figure(1 - 1e-7) == "99.99999" and percent_figure(0.0) == "0.00"


def test_the_table_gives_pass_hat_k_and_what_retries_buy(capsys):
    """The example file: pass^10 with n = 10 is the share of problems that always pass, 6 of 40."""
    assert main([str(ROOT / "examples" / "samples.jsonl_results.jsonl"), "-k", "1,10"]) == 0
    out = capsys.readouterr().out
    header, (one, ten) = text_rows(out)
    assert header.split()[-1] == "pass^k" and one.split()[-1] == "45.75%" and ten.split()[-1] == "15.00%"
    assert ("Retries add 39.2 points from pass@1 to pass@10, all from the 28 flaky problems; "
            "6 problems never pass and no retry helps them.") in unwrapped(out)


def test_the_error_of_one_file_names_the_file(tmp_path, capsys):
    prose = tmp_path / "prose.txt"
    prose.write_text("This is prose, not results.\n")
    assert main([str(prose)]) == 2
    assert capsys.readouterr().err.startswith(f'passk: {prose}: Line 1 is "This is prose, not results."')
    binary = tmp_path / "weights.bin"
    binary.write_bytes(b"\x00\x01\x02" * 10)
    assert main([str(binary)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"passk: {binary}: ") and "upload" not in err and "passk reads JSONL" in err


@pytest.mark.parametrize("argument", ["--version", "--help"])
def test_version_and_help_are_answered_before_scipy_or_the_computing_is_imported(argument):
    code = ("import sys\nfrom passk.__main__ import main\ntry:\n    main([%r])\nexcept SystemExit:\n    pass\n"
            "print(sorted(name for name in ('scipy', 'passk.cli', 'passk.results.benchmark') if name in sys.modules))"
            % argument)
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert completed.stdout.splitlines()[-1] == "[]", completed.stderr
