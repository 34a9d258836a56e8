"""What a new user of the command hit (issue 26, item 5): Ctrl-C and a reader that stops early end quietly, the
default ks are those every problem can answer, an undefined k asked for exits 3, and the answer fits the terminal."""

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from passk import cli
from passk.__main__ import main
from where import ROOT

EXAMPLE = str(ROOT / "examples" / "samples.jsonl_results.jsonl")   # 40 problems, n = 10
LEFT_OUT = ("passk: note: k = 100 left out of the default ks (1, 10, 100): pass@k needs k samples of every problem, "
            "and the fewest here is 10; -k chooses the ks.")


def command(*args, columns=None):
    """The real command in a subprocess, in this folder, its standard output a pipe (not a terminal); COLUMNS as
    given."""
    env = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])   # from any cwd
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return [sys.executable, "-m", "passk", *map(str, args)], {"env": env}


def ran(*args, columns=None):
    argv, options = command(*args, columns=columns)
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, **options)


def with_sigint_default():
    """In the child, before exec: Ctrl-C's default, whatever the tests' own process was started with (a job run in
    the background of a shell ignores SIGINT, and a child would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def results_lines(problems, samples):
    return "".join(json.dumps({"task_id": f"T/{index % problems}", "passed": index % 3 == 0}) + "\n"
                   for index in range(problems * samples))


# --- Ctrl-C and a reader gone -------------------------------------------------

def test_ctrl_c_while_a_file_is_read_is_a_quiet_exit_130(tmp_path):
    """The file is a FIFO held open: passk reads what was written and waits for more, so the signal comes while it
    reads, every time, with no sleep. The writer then closes, as a producer stopped by the same Ctrl-C would: a
    signal that lands between two reads (not in one) is handled once the read in C returns to Python, at the end of
    the input, and a FIFO held open for ever would keep that read waiting."""
    fifo = tmp_path / "big.jsonl"
    os.mkfifo(fifo)
    argv, options = command(fifo)
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=with_sigint_default, **options) as process:
        try:
            with open(fifo, "w") as writer:   # open() returns once passk has opened the FIFO to read it
                writer.write(results_lines(100, 10))   # 40 KB: within the pipe's buffer, so this never waits
                writer.flush()
                process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=60)
        finally:
            process.kill()
    assert process.returncode == 130
    assert out == "" and "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.splitlines() == ["passk: interrupted"]


def test_a_reader_that_stops_after_one_line_ends_the_answer_quietly(tmp_path):
    """`passk big.jsonl -o json | head -1`: the answer (every problem's row) is far more than a pipe holds, so
    passk is still writing when the reader goes."""
    path = tmp_path / "big.jsonl"
    path.write_text(results_lines(5_000, 2))
    argv, options = command(path, "-k", "1", "-o", "json")
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options) as process:
        try:
            assert process.stdout.readline() == "{\n"
            process.stdout.close()   # as head -1 does
            err = process.stderr.read()
            status = process.wait(timeout=120)
        finally:
            process.kill()
    assert status == 0 and err == ""


def test_a_file_that_cannot_seek_is_read_once_as_standard_input_is(tmp_path):
    """bash's `passk <(zcat results.jsonl.gz)` names a FIFO; it was refused with "File or stream is not seekable"."""
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)
    argv, options = command(fifo, "-k", "1", "--json")
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options) as process:
        try:
            with open(fifo, "w") as writer:
                writer.write(Path(EXAMPLE).read_text())
            out, err = process.communicate(timeout=60)
        finally:
            process.kill()
    assert process.returncode == 0, err
    assert json.loads(out)["results"][0]["pass_at_k"] == 0.4575


# --- the default ks -------------------------------------------------------------

def test_by_default_only_the_ks_every_problem_can_answer_are_shown_and_one_line_says_why():
    completed = ran(EXAMPLE)
    assert completed.returncode == 0
    assert [line.split()[0] for line in completed.stdout.splitlines() if re.match(r" *[0-9]+  [0-9.]+%", line)] == \
        ["1", "10"]
    assert "pass@100" not in completed.stdout and "k = 100" not in completed.stdout
    assert completed.stderr.splitlines() == [LEFT_OUT]


def test_the_default_ks_are_the_same_in_every_output_format(capsys):
    assert main([EXAMPLE, "--json"]) == 0
    out, err = capsys.readouterr()
    assert [row["k"] for row in json.loads(out)["results"]] == [1, 10] and err.splitlines()[-1] == LEFT_OUT
    assert main([EXAMPLE, "-o", "csv"]) == 0
    assert [line.split(",")[0] for line in capsys.readouterr().out.splitlines()] == ["k", "1", "10"]


def test_the_default_ks_leave_nothing_out_when_every_problem_has_100_samples(tmp_path, capsys):
    path = tmp_path / "counts.csv"
    path.write_text("task_id,n,c\na,100,30\nb,200,0\n")
    assert main([str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [row["k"] for row in json.loads(out)["results"]] == [1, 10, 100] and "left out" not in err


def test_an_explicit_k_stays_as_asked_and_an_undefined_one_exits_3():
    completed = ran(EXAMPLE, "-k", "1,10,100")
    assert completed.returncode == cli.UNDEFINED_K == 3
    assert "pass@100 is undefined: all 40 problems have fewer than 100 samples" in " ".join(completed.stdout.split())
    assert "left out" not in completed.stderr
    assert ran(EXAMPLE, "-k", "1,10").returncode == 0


def test_the_help_names_every_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = capsys.readouterr().out
    assert "\n  3  a k given with -k is undefined" in help_text and "\n130  interrupted (Ctrl-C)" in help_text
    assert "less those larger than the fewest samples of a problem" in " ".join(help_text.split())


# --- several runs -----------------------------------------------------------------

@pytest.fixture
def two_runs(tmp_path, monkeypatch):
    """Two runs of 40 problems, n = 10, the second passing more often: a.csv and b.csv, in the folder the command
    runs in."""
    (tmp_path / "b.csv").write_text("".join(f"HumanEval/{index},10,{min(10, index % 11 + 2)}\n"
                                            for index in range(40)))
    (tmp_path / "a.csv").write_text("".join(f"HumanEval/{index},10,{index % 11}\n" for index in range(40)))
    monkeypatch.chdir(tmp_path)
    return "a.csv", "b.csv"


def test_runs_by_default_leave_out_pass_at_100_and_say_why(two_runs):
    completed = ran("--runs", *two_runs)
    assert completed.returncode == 0
    assert "pass@100" not in completed.stdout and "pass@10" in completed.stdout
    assert completed.stderr.splitlines()[-1] == LEFT_OUT


def test_runs_asked_for_an_undefined_k_say_so_in_a_line_not_a_block_of_dashes(two_runs):
    completed = ran("--runs", *two_runs, "-k", "1,100", columns=1000)
    assert completed.returncode == cli.UNDEFINED_K
    block = completed.stdout.split("pass@100", 1)[1].splitlines()
    assert block[0] == ": undefined for every run"
    assert [line.split(": ", 1)[0].strip() for line in block[1:]] == [*two_runs]
    assert all("pass@100 is undefined: all 40 problems have fewer than 100 samples" in line for line in block[1:])
    assert not any(set(line.replace(" ", "")) <= set("—-") for line in completed.stdout.splitlines() if line)


def test_fail_if_worse_keeps_its_k_among_the_default_ks(two_runs):
    completed = ran("--runs", *two_runs, "--fail-if-worse", "100")
    assert completed.returncode == 2 and "--fail-if-worse cannot compare" in completed.stderr


# --- the terminal's width -------------------------------------------------------

def test_runs_fit_80_columns_when_standard_output_is_not_a_terminal(two_runs):
    completed = ran("--runs", *two_runs, "-k", "1,10,100")
    lines = completed.stdout.splitlines()
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    assert lines[1].split()[:3] == ["rank", "run", "pass@k"]   # the ranking fits as a table
    # the pairs' table (166 columns) does not: a pair at a time, its cells as "heading: value"
    assert [line for line in lines if line.startswith("run: ")] == ["run: a.csv, other: b.csv"] * 2
    assert "\n    paired: 40, run - other: -17.75 pts, ± SE: 0.91 pts,\n" in completed.stdout


@pytest.mark.parametrize("columns", [40, 60, 100])
def test_every_answer_fits_the_terminal_it_is_given(two_runs, columns, capsys, monkeypatch):
    """In this process (COLUMNS is what the command reads of a terminal's width): twelve commands in subprocesses
    took 5-7 s a width, most of it importing numpy and scipy again."""
    monkeypatch.setenv("COLUMNS", str(columns))
    for args in ([EXAMPLE, "-k", "1,10,100", "--tau", "0.5", "--plan"], ["--runs", *two_runs],
                 ["--runs", *two_runs, "--curve"], ["--runs", *two_runs, "--detect", "5"]):
        main([str(arg) for arg in args])
        lines = capsys.readouterr().out.splitlines()
        too_wide = [line for line in lines if len(line) > columns and " " in line.strip()]
        assert not too_wide, (args, too_wide)   # only a word longer than the width (a path) may stick out


def test_a_wide_terminal_shows_the_tables(two_runs):
    lines = ran("--runs", *two_runs, "-k", "1", columns=250).stdout.splitlines()
    assert lines[1].split() == ["rank", "run", "pass@k", "±", "SE", "95%", "interval", "group"]
    assert lines[6].split()[:3] == ["run", "other", "paired"]


def test_a_terminal_narrower_than_40_columns_gets_40():
    lines = ran(EXAMPLE, columns=20).stdout.splitlines()
    assert max(map(len, lines)) <= cli.NARROWEST == 40 and lines[0].startswith("40 problems, 400 samples")


def test_fitted_wraps_only_what_is_too_long_and_indents_what_follows():
    text = "short\n  note: " + "word " * 20
    assert cli.fitted(text, 30).splitlines() == [
        "short", "  note: word word word word", "    word word word word word", "    word word word word word",
        "    word word word word word", "    word"]
    assert cli.fitted(text, None) == text
