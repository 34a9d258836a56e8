"""The example file the README uses gives the figures the README and examples/README.md quote."""

import json
from fractions import Fraction
from math import comb

from passk.__main__ import main
from passk.formats import read_problems
from where import ROOT

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


def test_means_print_as_exact_as_they_are(capsys):
    """183/400 is 0.4575 in the JSON, not 0.4574999999999999 (issue 14): the mean of c/n is summed exactly,
    and every other mean is the correctly rounded sum (math.fsum) over P."""
    assert main([str(SAMPLE), "-k", "1,5", "--json"]) == 0
    answer = capsys.readouterr().out
    assert '"pass_at_k": 0.4575,' in answer and '"pass_at_1": 0.4575,' in answer
    problems = read_problems(SAMPLE.read_bytes()).problems
    five = json.loads(answer)["results"][1]
    assert five["pass_at_k"] == float(exact_pass_at_k(problems, 5))   # correctly rounded: the nearest double
