"""The suite choice names an eval-arena model (--suite MODEL): the model is read and nothing says it was ignored;
a file whose format names no runs says which formats do."""

import json
import pytest

from passk.__main__ import main
from passk.writing.report import SUITED, suite_ignored

# two models in one file, as eval-arena's own data files hold many: 4 samples each of HumanEval/0-2
RECORDS = [("deepseek-coder-6.7b", 0, 4), ("deepseek-coder-6.7b", 1, 1), ("deepseek-coder-6.7b", 2, 0),
           ("starcoder2-3b", 0, 2), ("starcoder2-3b", 1, 0), ("starcoder2-3b", 2, 1)]
APPLIES = ("The suite choice names a run only in files of EvalPlus (base or plus), NeMo-Skills (human-eval's base or "
           "plus, IFEval's strict or loose), lm-evaluation-harness (a filter), lighteval (a metric), eval-arena (a "
           "model) and Inspect (a scorer's key)")


@pytest.fixture
def two_models(tmp_path):
    path = tmp_path / "humaneval.jsonl"
    path.write_text("".join(json.dumps({"benchmark_id": "humaneval", "model": model, "example_id": f"HumanEval/{task}",
                                        "pass1": correct / 4, "count": 4, "correct": correct}) + "\n"
                            for model, task, correct in RECORDS))
    return path


@pytest.mark.parametrize("model, passed", [("deepseek-coder-6.7b", [4, 1, 0]), ("starcoder2-3b", [2, 0, 1])])
def test_suite_model_reads_that_model_without_a_warning(two_models, capsys, model, passed):
    assert main([str(two_models), "--suite", model, "-k", "1", "--json"]) == 0
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    assert answer["format"] == "evalarena"
    assert [row["c"] for row in answer["per_problem"]] == passed and {row["n"] for row in answer["per_problem"]} == {4}
    assert answer["results"][0]["pass_at_k"] == sum(passed) / 12
    assert not any("suite choice" in warning for warning in answer["warnings"])
    assert "suite choice" not in captured.err


def test_a_model_the_file_lacks_is_refused_naming_its_models(two_models, capsys):
    assert main([str(two_models), "--suite", "gpt-4", "-k", "1"]) == 2
    assert ('The file has no eval-arena model "gpt-4"; its models: "deepseek-coder-6.7b", "starcoder2-3b".'
            in capsys.readouterr().err)


def test_a_suite_for_a_csv_file_says_which_formats_name_runs(tmp_path, capsys):
    path = tmp_path / "counts.csv"
    path.write_text("task_id,n,c\na,2,1\n")
    assert main([str(path), "--suite", "plus", "-k", "1"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"passk: warning: {APPLIES}; this is a CSV file, so it was ignored." in err


def test_the_sentence_names_every_format_that_names_runs():
    assert set(SUITED) == {"evalplus", "nemoskills", "lmeval", "lighteval", "evalarena", "inspect"}
    assert suite_ignored([(None, "jsonl")]) == f"{APPLIES}; this is a JSONL counts file, so it was ignored."
    assert suite_ignored([("run A", "csv"), ("run B", "taubench")]) == (
        f"{APPLIES}; run A is a CSV file and run B is a τ-bench file, so it was ignored.")
