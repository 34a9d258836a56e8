"""passk export-html: the static calculator's folder, its files and their promises (no origin, a CSP, file://)."""

import json
import re

import pytest

from passk.results import calculator

from passk.writing import charts

from passk.maths import estimator
from passk.__main__ import main
from passk.export import PAGE, SCRIPT, STYLESHEET, FolderNotEmpty, _site_stylesheet, export_html, settings
from passk.limits import LIMITS

NAMES = [PAGE, SCRIPT, STYLESHEET]


@pytest.fixture
def exported(tmp_path):
    folder = tmp_path / "calculator"
    return folder, export_html(folder)


def test_the_folder_holds_the_page_its_script_and_the_sites_stylesheet(exported):
    folder, written = exported
    assert sorted(path.name for path in folder.iterdir()) == sorted(NAMES)
    assert [item.path for item in written] == [folder / name for name in NAMES]
    assert all(item.size == item.path.stat().st_size > 1000 for item in written)
    assert (folder / STYLESHEET).read_bytes() == _site_stylesheet().read_bytes()
    assert sum(item.size for item in written) < 200_000   # about 65 kB: no framework, no font


def test_the_page_allows_only_its_own_script_and_stylesheet(exported):
    page = (exported[0] / PAGE).read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page).group(1)
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert "unsafe" not in policy
    assert re.findall(r'<script\b[^>]*\bsrc="([^"]*)"', page) == [SCRIPT]   # a classic script: not type="module"
    assert 'type="module"' not in page
    assert re.findall(r'<link\b[^>]*\bhref="([^"]*)"', page) == [STYLESHEET]
    assert re.findall(r"\s(?:style|on[a-z]+)=", page) == []   # no inline style or handler for the policy to refuse


@pytest.mark.parametrize("name", NAMES)
def test_no_file_names_any_other_origin(exported, name):
    text = (exported[0] / name).read_text(encoding="utf-8")
    assert re.findall(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import|url\(", text, re.IGNORECASE) == []


def test_the_page_carries_passks_own_constants(exported):
    page = (exported[0] / PAGE).read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="passk-settings">(.*?)</script>', page, re.S).group(1)
    carried = json.loads(block)
    assert carried == settings()
    assert (carried["max_n"], carried["extra_ks"]) == (estimator.MAX_N, LIMITS.extra_ks)
    assert (carried["short_product"], carried["table_ks"]) == (estimator.SHORT_PRODUCT, list(calculator.TABLE_KS))
    assert (carried["chart"]["font"], carried["chart"]["width"]) == (charts.FONT, charts.WIDTH)


def test_a_folder_that_holds_anything_is_refused_unless_forced(exported):
    folder, _ = exported
    (folder / "notes.txt").write_text("mine")
    (folder / PAGE).write_text("old")
    with pytest.raises(FolderNotEmpty, match=r"is not empty: give an empty or new folder, or --force"):
        export_html(folder)
    assert (folder / PAGE).read_text() == "old"
    export_html(folder, force=True)
    assert (folder / PAGE).read_text(encoding="utf-8").startswith("<!doctype html>")
    assert (folder / "notes.txt").read_text() == "mine"


def test_the_command_prints_what_it_wrote_with_sizes(tmp_path, capsys):
    folder = tmp_path / "out"
    assert main(["export-html", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    sizes = {name: (folder / name).stat().st_size for name in NAMES}
    assert lines[:3] == [f"{folder / name}  {size:,} bytes" for name, size in sizes.items()]
    assert lines[3].startswith(f"{sum(sizes.values()):,} bytes in all")


def test_the_command_refuses_bad_input_with_status_2(tmp_path, capsys):
    (tmp_path / "taken.txt").write_text("x")
    assert main(["export-html", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"passk: {tmp_path} is not empty: give an empty or new folder, or --force to "
                                       f"overwrite {PAGE}, {SCRIPT} and {STYLESHEET} in it.\n")
    assert main(["export-html", str(tmp_path / "taken.txt")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["export-html", str(tmp_path), "--force"]) == 0
    assert main(["export-html"]) == 2
    assert capsys.readouterr().err.startswith("passk export-html: the following arguments are required: DIR")
