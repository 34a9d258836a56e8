"""Every real harness file gives its harness's own figures through the three views people use: the benchmark page,
POST /api/v1/benchmark and the command line (tests/passk/formats/test_realdata.py checks the library's reading of
the same files, and the figures against SOURCES.md). Also NeMo-Skills' majority@k and SWE-bench's pair of figures."""

import gc
import io
import json
import re
from fractions import Fraction
from html import unescape

import pytest

from passk.__main__ import main
from where import REALDATA
from test_realdata import (EXPECTED, NEMO_GPQA, NEMO_MATH, NOT_READ_YET, SWEBENCH, TOLERANCE, files_of, needs_files,
                           value_of)

# Werkzeug's test client (EnvironBuilder) spools a body over 500 KB to a temporary file it leaves open; the
# application's own files are checked closed elsewhere (tests/web/test_app.py). Those files are collected here,
# within these tests, not in whichever test the garbage collector happens to run in next.
pytestmark = [needs_files, pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]


@pytest.fixture(autouse=True)
def spooled_bodies_collected():
    yield
    gc.collect()
CASES = [(name, [name], suite, figures) for name, (_, _, _, suites, _) in EXPECTED.items()
         for suite, figures in suites.items()] + \
        [(row, files_of(row), suite, figures) for row, (_, _, _, _, suites) in NOT_READ_YET.items()
         for suite, figures in suites.items()]
MAJORITY = {NEMO_MATH: {3: Fraction(16, 21)}, NEMO_GPQA: {4: Fraction(1, 2)}}   # metrics.json: 76.19, 50


def uploads(names):
    return [(io.BytesIO((REALDATA / name).read_bytes()), name) for name in names]


def fields(names, figures, suite):
    return {"file": uploads(names), "k": ",".join(map(str, figures)), **({"suite": suite} if suite else {})}


def close(value, figure):
    return abs(value - float(value_of(figure))) <= TOLERANCE


@pytest.mark.parametrize("row, names, suite, figures", CASES, ids=[f"{case[0][:40]}-{case[2]}" for case in CASES])
def test_the_api_page_and_command_line_give_the_harness_figures(client, capsys, row, names, suite, figures):
    api = client.post("/api/v1/benchmark", data=fields(names, figures, suite), content_type="multipart/form-data")
    assert api.status_code == 200, api.get_json()
    by_k = {result["k"]: result["pass_at_k"] for result in api.get_json()["results"]}
    assert all(close(by_k[k], figure) for k, figure in figures.items()), (by_k, figures)

    page = client.post("/benchmark", data=fields(names, figures, suite), content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    table = html.split('id="results-table"', 1)[1].split("</table>", 1)[0]
    shown = {int(k): float(unescape(full)) for k, full in
             re.findall(r'<tr data-k="(\d+)">\s*<th[^>]*>[^<]*</th>\s*<td class="value" title="([^"]+)"', table)}
    assert all(close(shown[k], figure) for k, figure in figures.items()), (shown, figures)

    paths = [str(REALDATA / name) for name in names]
    assert main([*paths, "-k", ",".join(map(str, figures)), "--json", *(["--suite", suite] if suite else [])]) == 0
    answer = json.loads(capsys.readouterr().out)
    by_k = {result["k"]: result["pass_at_k"] for result in answer["results"]}
    assert all(close(by_k[k], figure) for k, figure in figures.items()), (by_k, figures)


@pytest.mark.parametrize("row", sorted(MAJORITY))
def test_nemo_skills_majority_at_n_through_every_view(client, capsys, row):
    (k, figure), names = next(iter(MAJORITY[row].items())), files_of(row)
    api = client.post("/api/v1/benchmark", data=fields(names, {k: 0}, None), content_type="multipart/form-data")
    [result] = api.get_json()["majority"]["results"]
    assert result["maj_at_k"] == float(figure) == result["first_k"]
    html = client.post("/benchmark", data=fields(names, {k: 0}, None),
                       content_type="multipart/form-data").get_data(as_text=True)
    assert f'title="{float(figure)!r}"' in html.split('id="majority-table"', 1)[1].split("</table>", 1)[0]
    assert main([*(str(REALDATA / name) for name in names), "-k", str(k), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["majority"]["results"][0]["maj_at_k"] == float(figure)


def test_swebench_says_both_figures_everywhere(client, capsys):
    said = "24.0% of the 25 submitted"
    api = client.post("/api/v1/benchmark", data=fields([SWEBENCH], {1: 0}, None), content_type="multipart/form-data")
    assert any(said in warning for warning in api.get_json()["warnings"])
    html = client.post("/benchmark", data=fields([SWEBENCH], {1: 0}, None),
                       content_type="multipart/form-data").get_data(as_text=True)
    assert said in html.split('id="warnings"', 1)[1].split("</ul>", 1)[0]
    assert main([str(REALDATA / SWEBENCH), "-k", "1"]) == 0
    assert said in capsys.readouterr().err
