"""The example file the README uses gives the figures the README and examples/README.md quote."""

from fractions import Fraction
from math import comb
from pathlib import Path

from passk.__main__ import main
from passk.formats import read_problems

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "samples.jsonl_results.jsonl"


def exact_pass_at_k(problems, k):
    return sum(1 - Fraction(comb(p.n - p.c, k), comb(p.n, k)) for p in problems) / len(problems)


def test_the_example_file_gives_the_quoted_figures(capsys):
    problems = read_problems(SAMPLE.read_bytes()).problems
    assert (len(problems), sum(p.n for p in problems), sum(p.c for p in problems)) == (40, 400, 183)
    assert exact_pass_at_k(problems, 1) == Fraction(4575, 10000)
    assert exact_pass_at_k(problems, 10) == Fraction(34, 40)
    assert main([str(SAMPLE), "-k", "1,10"]) == 0
    table = capsys.readouterr().out
    assert "45.75%" in table and "85.00%" in table
    quoted = (ROOT / "examples" / "README.md").read_text() + (ROOT / "README.md").read_text()
    assert "45.75%" in quoted and "85.00%" in quoted
