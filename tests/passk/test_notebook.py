"""docs/quickstart.ipynb runs in a real Jupyter kernel (nbclient) and shows what it says it shows; it is stored
with the outputs of a run, so that it reads as a page of results (GitHub and the docs show it as stored).

To store it again after a change that alters what it prints:
    cd docs && PYTHONPATH=.. ../.venv/bin/jupyter execute --inplace quickstart.ipynb
"""

import json
import os
import re
import sys

import nbclient
import nbformat
import pytest

import passk
from where import ROOT

NOTEBOOK = ROOT / "docs" / "quickstart.ipynb"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Each code cell's outputs, from one run of the notebook in docs/ (as a reader runs it there), in a kernel of
    this very Python (a kernelspec of its own, not whatever "python3" the machine has); the kernel finds passk in
    this checkout, as it would in an installed package."""
    kernels = tmp_path_factory.mktemp("jupyter")
    spec = kernels / "kernels" / "passk-tests"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "passk tests", "language": "python"}))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        patch.setenv("JUPYTER_PATH", str(kernels))
        patch.setenv("JUPYTER_PLATFORM_DIRS", "1")   # jupyter_core's platformdirs paths, without its warning
        nbclient.NotebookClient(notebook, timeout=60, kernel_name="passk-tests",
                                resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return {cell.source: cell.outputs for cell in notebook.cells if cell.cell_type == "code"}


def output_of(outputs, start):
    """The outputs of the cell whose source starts with start."""
    [cell] = [cell_outputs for source, cell_outputs in outputs.items() if source.startswith(start)]
    return cell


def shown(outputs, start, kind):
    """What the cell shows as kind ("text/html", ...), or prints ("stream")."""
    return "".join(output.text if kind == "stream" else output.data[kind]
                   for output in output_of(outputs, start)
                   if (output.output_type == "stream") == (kind == "stream") and (kind == "stream" or
                                                                                  kind in output.data))


def printed(cell_outputs):
    """What a cell prints and what its result reads as in plain text (the HTML's charts are left out)."""
    return [output.text if output.output_type == "stream" else output.data.get("text/plain")
            for output in cell_outputs]


def test_the_notebook_is_valid_and_stored_with_the_outputs_of_one_run_in_order():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert all(cell.outputs for cell in code) and not any(output.output_type == "error" for cell in code
                                                           for output in cell.outputs)
    assert notebook.metadata.kernelspec.name == "python3"   # a reader's kernel, not the tests' own


def test_the_stored_outputs_are_what_the_notebook_prints_now(outputs):
    stored = {cell.source: cell.outputs for cell in nbformat.read(NOTEBOOK, as_version=4).cells
              if cell.cell_type == "code"}
    assert {source: printed(cell) for source, cell in stored.items()} == \
        {source: printed(cell) for source, cell in outputs.items()}, __doc__.split("\n\n")[-1]


def test_the_notebook_uses_the_public_api_only():
    sources = [cell.source for cell in nbformat.read(NOTEBOOK, as_version=4).cells if cell.cell_type == "code"]
    assert not any(re.search(r"\._[a-z]", source) for source in sources)


def test_the_summary_shows_its_tables_and_charts(outputs):
    html = shown(outputs, "summary = passk.summarize", "text/html")
    assert "45.75%" in html and "85.00%" in html and html.count("<svg") == 2 and "<script" not in html
    assert shown(outputs, "print(f\"pass@1", "stream") == "pass@1 = 45.75%\n"


def test_the_frames_have_a_row_per_k_and_per_problem(outputs):
    expected = passk.summarize(ROOT / "examples" / "samples.jsonl_results.jsonl", k=[1, 10])
    assert shown(outputs, "frame = summary.to_frame()", "stream") == f"{expected.to_frame().shape}\n"
    assert shown(outputs, "problems = summary.to_frame(per_problem=True)", "stream") == "(40, 8)\n"
    assert "HumanEval/19" in shown(outputs, "problems = summary.to_frame(per_problem=True)", "text/html")


def test_compare_rank_and_plan_show_themselves(outputs):
    comparison = shown(outputs, "import io", "text/html")
    assert "−1.00" in comparison and "p-value" in comparison   # A - B at k = 1: 45.75% - 46.75%
    ranking = shown(outputs, "ranking = passk.rank", "text/html")
    assert ranking.index("every 3rd flipped") < ranking.index("every 7th flipped") < ranking.index(">example<")
    assert "pairs at k = 10" in ranking
    assert "Planning for a 95% half-width of ± 2 points" in shown(outputs, "passk.plan(summary, target=2)",
                                                                  "text/html")
    markdown = shown(outputs, "print(summary.to_markdown())", "stream")
    assert "| 1 | 45.75 |" in markdown and "| 10 | 85.00 |" in markdown
