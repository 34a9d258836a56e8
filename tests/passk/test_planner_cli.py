"""passk --runs ... --detect POINTS: the comparison planner for the top two runs at each k, as text and JSON."""

import json
import subprocess
import sys

import numpy as np
import pytest

from passk.__main__ import build_parser, main
from passk.results.benchmark import compare
from passk.formats import Problem
from passk.results.planner import comparison_plan
from where import ROOT

RNG = np.random.default_rng(9)
RATES = RNG.beta(0.8, 0.8, 30)
# Three runs of 30 problems with 20 samples each: "best" ahead of "close" at pass@1, "far" behind both.
COUNTS = {"best.csv": RNG.binomial(20, np.clip(RATES + 0.1, 0, 1)),
          "close.csv": RNG.binomial(20, RATES),
          "far.csv": RNG.binomial(20, RATES * 0.3)}


@pytest.fixture
def run_files(tmp_path):
    paths = []
    for name, counts in COUNTS.items():
        path = tmp_path / name
        path.write_text("".join(f"T{index},20,{c}\n" for index, c in enumerate(counts)))
        paths.append(str(path))
    return paths


def problems(name):
    return [Problem(f"T{index}", 20, int(c)) for index, c in enumerate(COUNTS[name])]


def expected_plans(a, b, ks, **options):
    """comparison_plan for run a against run b, computed here from the counts."""
    comparison = compare(problems(a), problems(b), ks)
    return comparison_plan(comparison, **options)


def test_detect_prints_the_top_pair_s_plan_after_the_ranking(run_files, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")   # a wide terminal: the table and its sentences on one line each
    assert main(["--runs", *run_files, "-k", "1,5,25", "--detect", "3", "--tokens-per-sample", "800",
                 "--price-per-million", "2.5"]) == 3   # pass@25 asked for, and n = 20: undefined
    out = capsys.readouterr().out
    ranking, planning = out.split("\n\nplanning for the top two runs at each k (a - b), to find a difference of "
                                  "3.00 points 4 times in 5 at p < 0.05:\n")
    assert "pairs at k = 5" in ranking and "pass@25: undefined for every run" in ranking
    lines = planning.splitlines()
    assert lines[0].startswith("  pass@1: ") and lines[0].endswith("best.csv vs " + run_files[1])
    plans = expected_plans("best.csv", "close.csv", [1, 5, 25], difference=0.03, tokens_per_sample=800,
                           price_per_million=2.5)
    first, second = (["    " + sentence for sentence in plan["sentences"]] for plan in plans[:2])
    assert lines[1:1 + len(first)] == first
    assert any("samples per problem in each run would find a 3.00-point difference at pass@1" in line and
               "tokens, about" in line and "in token cost" in line for line in first)
    assert any("More samples alone cannot bring the detectable difference at pass@1" in line or
               "look like sampling noise alone" in line for line in first)
    assert lines[2 + len(first):2 + len(first) + len(second)] == second
    assert lines[-2:] == ["  pass@25:", "    Fewer than two runs have pass@25, so there is no pair to plan for."]


def test_detect_adds_the_planner_to_the_json_and_only_then(run_files, capsys):
    assert main(["--runs", *run_files, "-k", "1,5", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "planner" not in plain
    assert main(["--runs", *run_files, "-k", "1,5", "--json", "--detect", "2.5"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body.pop("planner") == [{"k": k, "a": run_files[0], "b": run_files[1], "plan": plan, "reason": None}
                                   for k, plan in zip([1, 5], expected_plans("best.csv", "close.csv", [1, 5],
                                                                             difference=0.025))]
    assert body == plain


def test_the_pair_follows_the_ranking_at_each_k(tmp_path, capsys):
    # x leads at pass@1, y at pass@5 (y's passes are spread over more problems).
    x, y, z = tmp_path / "x.csv", tmp_path / "y.csv", tmp_path / "z.csv"
    x.write_text("".join(f"T{i},10,{10 if i < 6 else 0}\n" for i in range(10)))
    y.write_text("".join(f"T{i},10,{5}\n" for i in range(10)))
    z.write_text("".join(f"T{i},10,{1}\n" for i in range(10)))
    assert main(["--runs", str(x), str(y), str(z), "-k", "1,5", "--json", "--detect", "5"]) == 0
    planner = json.loads(capsys.readouterr().out)["planner"]
    assert [(row["k"], row["a"], row["b"]) for row in planner] == [(1, str(x), str(y)), (5, str(y), str(x))]


def test_without_detect_the_ranking_text_is_unchanged(run_files, capsys):
    assert main(["--runs", *run_files, "-k", "1"]) == 0
    assert "planning" not in capsys.readouterr().out


def test_a_single_run_s_plan_prices_its_samples_too(run_files, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")   # a wide terminal: the table and its sentences on one line each
    assert main([run_files[0], "-k", "1", "--tokens-per-sample", "1000", "--price-per-million", "2"]) == 0
    assert "in token cost) would bring the interval for these very problems" in capsys.readouterr().out
    assert main([run_files[0], "-k", "1", "--json", "--tokens-per-sample", "1000", "--price-per-million", "2"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["planner"]
    assert row["extra_cost"] == pytest.approx(row["extra_samples"] * 1000 * 2 / 1e6)


def run(*args):
    """The real command line in a subprocess."""
    return subprocess.run([sys.executable, "-m", "passk", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)


@pytest.mark.parametrize("flags, message", [
    (["--detect", "abc"], "passk: argument --detect: The difference to detect (points) must be from 0.001 to "
                          "100; got 'abc'. (see passk --help)"),
    (["--detect", "0"], "passk: argument --detect: The difference to detect (points) must be from 0.001 to "
                        "100; got '0'. (see passk --help)"),
    (["--detect", "250"], "passk: argument --detect: The difference to detect (points) must be from 0.001 to "
                          "100; got '250'. (see passk --help)"),
    (["--detect", ""], "passk: argument --detect: The difference to detect (points) must be from 0.001 to "
                       "100; got ''. (see passk --help)"),
    (["--detect", "3", "--tokens-per-sample", "0"],
     "passk: argument --tokens-per-sample: Tokens per sample must be a number above 0, at most "
     "1,000,000,000,000; got '0'. (see passk --help)"),
    (["--detect", "3", "--price-per-million", "cheap"],
     "passk: argument --price-per-million: The price per million tokens must be a number above 0, at most "
     "1,000,000,000,000; got 'cheap'. (see passk --help)"),
    (["--tokens-per-sample", "500"],
     "passk: with --runs, --tokens-per-sample and --price-per-million price the samples that --detect POINTS "
     "plans; give --detect too (see passk --help)"),
])
def test_bad_planning_flags_exit_2_with_one_line_naming_the_flag(run_files, flags, message):
    completed = run("--runs", *run_files[:2], *flags)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.splitlines() == [message]


def test_detect_without_runs_is_refused(run_files):
    completed = run(run_files[0], "--detect", "3")
    assert completed.returncode == 2
    assert completed.stderr == "passk: --detect plans the comparison of the top two runs: use it with --runs " \
                               "(see passk --help)\n"


def test_help_explains_each_planning_flag():
    text = build_parser().format_help()
    for flag, words in (("--detect POINTS", "4 times in 5"), ("--tokens-per-sample TOKENS", "how many tokens"),
                        ("--price-per-million PRICE", "what the extra samples cost")):
        assert flag in text
        assert words in " ".join(text.split())
