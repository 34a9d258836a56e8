"""The README is the researcher's path (issue 26, item 4): what passk is, `pip install passk-calculator` and
`passk results.jsonl` with what it prints, then the website, the tests and deployment, in at most 300 lines; the
manual is docs/ (tests/stack/test_docs_site.py builds it)."""

import os
import re
import subprocess
import sys

from where import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = "examples/samples.jsonl_results.jsonl"


def as_a_terminal_shows(*args):
    """What `passk ARGS` prints in an 80-column terminal, standard error where it falls among standard output."""
    return subprocess.run([sys.executable, "-m", "passk", *args], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "80", "PYTHONUNBUFFERED": "1"}).stdout


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 300


def test_it_opens_with_what_passk_is_the_install_and_the_command():
    title, what, first_block = README.split("\n\n", 3)[:3]
    assert title == "# passk — the pass@k calculator" and what.startswith("passk computes pass@k")
    assert first_block.startswith("```sh\npip install passk-calculator ") and "\npassk results.jsonl " in first_block
    opener = README.split("\n## ", 1)[0]   # everything before the first section
    assert f"```console\n$ passk {EXAMPLE}\n" in opener


def test_the_example_shows_what_the_command_prints():
    shown = re.search(rf"```console\n\$ passk {re.escape(EXAMPLE)}\n(.*?)```\n", README, re.S)[1]
    assert shown == as_a_terminal_shows(EXAMPLE)


def test_the_website_the_tests_and_deployment_follow():
    sections = re.findall(r"^## (.+)$", README, re.M)
    assert sections[:1] == ["The website and the tests"] and "Deployment" in sections
    commands = README.index("```sh\nbash scripts/serve.sh ")
    assert README.index("\nbash scripts/test.sh ", commands) < README.index("```\n", commands + 3)   # one block


def test_every_link_of_the_readme_leads_to_a_file():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_the_readme_names_every_page_of_the_manual():
    pages = {path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md")}
    assert pages <= set(re.findall(r"\]\((docs/[^)#]+\.md)", README))
