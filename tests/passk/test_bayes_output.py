"""Bayes@N in every face: the summary and its JSON, the API, the page, the command's outputs and the Python API.

Each shows the one computation, passk.maths.bayes.bayes_at_n of the run's counts; test_bayes.py checks its figures.
"""

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import passk
from passk.__main__ import main
from passk.maths.bayes import bayes_at_n
from passk.writing.answers import to_json
from passk.results.benchmark import summarize
from passk.formats import Problem
from where import REALDATA, ROOT

EXAMPLE = ROOT / "examples" / "samples.jsonl_results.jsonl"
EVALPLUS = REALDATA / "evalplus-old__tyfann_Evaluate_LLM_Evalplus__phi_1_eval_results.json"
# scorio's bayes_ci docstring example (mohsenhariri/scorio dedc4154, scorio/eval/bayes.py): 3 and 4 of 5 pass
COUNTS = "5 3\n5 4\n"
SCORIO = (0.6428571428571429, 0.11845088536983571, (0.41069767359538245, 0.8750166121189032))


def answered(*argv: object) -> tuple[int | str | None, str, str]:
    """(exit status, standard output, standard error) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status: int | str | None = main([str(arg) for arg in argv], stderr=err)
        except SystemExit as stopped:
            status = stopped.code
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def counts(tmp_path: Path) -> Path:
    path = tmp_path / "counts.txt"
    path.write_text(COUNTS)
    return path


def test_every_summary_has_bayes_at_n_of_its_counts() -> None:
    summary = summarize([Problem("a", 5, 3), Problem("b", 5, 4)], [1, 2])
    assert summary.bayes == bayes_at_n([5, 5], [3, 4])
    assert (summary.bayes.mean, summary.bayes.sd, summary.bayes.ci95) == SCORIO
    assert to_json(summary, "x")["bayes"] == {"bayes_at_n": SCORIO[0], "posterior_sd": SCORIO[1],
                                            "ci95": list(SCORIO[2])}


def test_the_api_answers_bayes_beside_the_keys_it_had(client: FlaskClient) -> None:
    body = {"problems": [{"task_id": "a", "n": 5, "c": 3}, {"task_id": "b", "n": 5, "c": 4}], "k": [1]}
    answer = client.post("/api/v1/benchmark", json=body).get_json()
    assert answer["bayes"] == {"bayes_at_n": SCORIO[0], "posterior_sd": SCORIO[1], "ci95": list(SCORIO[2])}
    assert {"problems", "format", "results", "per_problem", "warnings", "retries"} <= set(answer)
    upload = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(COUNTS.encode()), "r.txt"), "k": "1"},
                         content_type="multipart/form-data").get_json()
    assert upload["bayes"] == answer["bayes"]


def test_the_python_api_gives_the_apis_bayes(client: FlaskClient) -> None:
    summary = passk.summarize(EXAMPLE, k=[1, 10])
    assert summary.bayes is not None and summary.to_json()["bayes"]["bayes_at_n"] == summary.bayes.mean
    run = passk.read(EXAMPLE)
    assert summary.bayes == passk.bayes_at_n([problem.n for problem in run.problems],
                                             [problem.c for problem in run.problems])
    answer = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(EXAMPLE.read_bytes()), EXAMPLE.name),
                                                    "k": "1,10"}, content_type="multipart/form-data").get_json()
    assert answer["bayes"] == summary.to_json()["bayes"]


def test_the_page_says_bayes_at_n_under_pass_hat_k(client: FlaskClient) -> None:
    html = client.get("/benchmark?counts=5:3,5:4&k=1").get_data(as_text=True)
    sentence = html.split('id="bayes-at-n">', 1)[1].split("</p>", 1)[0]
    assert "<strong>64.29%</strong>" in sentence and "posterior SD 11.85%" in sentence
    assert "95% credible interval 41.07% to 87.50%" in sentence
    assert html.index('id="pass-hat-table"') < html.index('id="bayes-at-n"') < html.index('id="bayes-method"')
    assert "(c + 1)/(n + 2)" in html and "Hariri et al. 2025" in html


def test_the_command_prints_it_only_when_asked(counts: Path) -> None:
    status, out, _ = answered(counts, "-k", "1")
    assert status == 0 and "Bayes@N" not in out
    status, out, _ = answered(counts, "-k", "1", "--bayes")
    assert status == 0
    assert "Bayes@N 64.29%, posterior SD 11.85%, 95% credible interval [41.07%, 87.50%]" in out
    assert "(c + 1)/(n + 2)" in " ".join(out.split())


def test_the_json_always_holds_it(counts: Path) -> None:
    for flags in ([], ["--bayes"]):
        status, out, _ = answered(counts, "-k", "1", "--json", *flags)
        assert status == 0 and json.loads(out)["bayes"]["bayes_at_n"] == SCORIO[0]


@pytest.mark.parametrize("output, delimiter", [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_have_a_table_of_every_digit(counts: Path, output: str, delimiter: str) -> None:
    status, out, _ = answered(counts, "-k", "1", "-o", output, "--bayes")
    assert status == 0
    table = out.split("\n\n")[-1]
    rows = list(csv.DictReader(io.StringIO(table), delimiter=delimiter))
    assert rows == [{"bayes_at_n": repr(SCORIO[0]), "posterior_sd": repr(SCORIO[1]),
                     "ci95_low": repr(SCORIO[2][0]), "ci95_high": repr(SCORIO[2][1])}]
    assert "bayes_at_n" not in answered(counts, "-k", "1", "-o", output)[1]


def test_markdown_and_latex_have_a_table_for_the_paper(counts: Path) -> None:
    _, markdown, _ = answered(counts, "-k", "1", "-o", "markdown", "--bayes")
    assert "| Bayes@N (%) | posterior SD (%) | 95% credible interval (%) |" in markdown
    assert "| 64.29 | 11.85 | [41.07, 87.50] |" in markdown
    _, latex, _ = answered(counts, "-k", "1", "-o", "latex", "--bayes")
    assert r"Bayes@N (\%) & posterior SD (\%) & 95\% credible interval (\%) \\" in latex
    assert r"64.29 & 11.85 & [41.07, 87.50] \\" in latex


@pytest.mark.skipif(not EVALPLUS.is_file(), reason=f"no real harness file at {EVALPLUS}")
def test_each_evalplus_suite_has_its_own(tmp_path: Path) -> None:
    status, out, _ = answered(EVALPLUS, "-k", "1", "--bayes")
    lines = [line.strip() for line in out.splitlines() if "Bayes@N " in line and "suite:" in line]
    assert [line.split(":")[0] for line in lines] == ["EvalPlus plus suite", "EvalPlus base suite"]
    _, csv_out, _ = answered(EVALPLUS, "-k", "1", "-o", "csv", "--bayes")
    rows = list(csv.DictReader(io.StringIO(csv_out.split("\n\n")[-1])))
    by_suite = {suite: json.loads(answered(EVALPLUS, "-k", "1", "--json", "--suite", suite)[1])["bayes"]
                for suite in ("plus", "base")}
    assert [(row["suite"], float(row["bayes_at_n"])) for row in rows] == \
        [(suite, by_suite[suite]["bayes_at_n"]) for suite in ("plus", "base")]


def test_with_runs_it_is_refused(counts: Path) -> None:
    status, _, err = answered("--runs", counts, counts, "--bayes")
    assert status == 2 and "--bayes adds to the answer of one run: leave out --runs" in err
