"""The manual is a MkDocs Material site (mkdocs.yml, docs/), built here as a reader builds it: `mkdocs build
--strict`, offline, into a temporary folder. Every page of docs/ is in its nav and built, no link or anchor leads
nowhere, and its pages frame passk's calculator both ways a docs site can: the static one `passk export-html`
writes (served at calculator/) and the live /embed, pasted as the main page offers it."""

import html
import re
import shutil

import pytest
import yaml
from docs_site import mkdocs_build

from passk.export import PAGE, SCRIPT, STYLESHEET, export_html
from where import ROOT

EMBEDDED = "n=200&c=37&k=10"   # the calculation both frames of the site show


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `mkdocs build --strict` writes it from the checkout."""
    site = tmp_path_factory.mktemp("site")
    built = mkdocs_build(ROOT / "mkdocs.yml", site)
    assert built.returncode == 0, built.stdout + built.stderr
    return site


def nav_pages(entries):
    """The Markdown files the nav lists, in order."""
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        yield from nav_pages(value) if isinstance(value, list) else [value]


def built_page(site, page):
    """A page's HTML as the site serves it (use_directory_urls: docs/limits.md is limits/index.html)."""
    folder = site if page == "index.md" else site / page.removesuffix(".md")
    return (folder / "index.html").read_text(encoding="utf-8")


def offered_snippet(client, calculation):
    """The snippet the main page offers under Share → Embed for a passk at http://127.0.0.1:8000."""
    page = client.get(f"/?{calculation}", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    return html.unescape(re.search(r'<textarea id="embed-snippet"[^>]*>(.*?)</textarea>', page, re.S)[1])


def test_the_config_is_strict_material_with_a_nav_of_every_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["strict"] is True and config["theme"]["name"] == "material"
    assert all(config["validation"][kind] == "warn" for kind in ("unrecognized_links", "anchors", "omitted_files"))
    pages = list(nav_pages(config["nav"]))
    assert len(pages) == len(set(pages)) and pages[0] == "index.md"
    assert set(pages) == {path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").rglob("*.md")}


def test_every_page_of_the_nav_is_built(site):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    for page in nav_pages(config["nav"]):
        title = re.search(r"^# (.+)$", (ROOT / "docs" / page).read_text(encoding="utf-8"), re.M)[1].replace("`", "")
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", built_page(site, page), re.S)[1]
        assert html.unescape(re.sub(r"<[^>]+>", "", heading)).rstrip("¶").strip() == title, page   # ¶: the permalink
    assert (site / "quickstart.ipynb").is_file() and (site / "screenshots").is_dir()   # linked from the pages


def test_the_site_serves_the_static_calculator_export_html_writes(site, tmp_path):
    exported = tmp_path / "calculator"
    export_html(exported)
    for name in (PAGE, SCRIPT, STYLESHEET):
        assert (site / "calculator" / name).read_bytes() == (exported / name).read_bytes(), name
    assert f'<iframe src="calculator/index.html?{EMBEDDED}"' in built_page(site, "index.md")


def test_the_site_frames_the_live_calculator_as_the_main_page_offers_it(site, client):
    snippet = offered_snippet(client, EMBEDDED)
    assert snippet in (ROOT / "docs" / "website.md").read_text(encoding="utf-8")   # pasted as copied
    page = built_page(site, "website.md")
    assert 'src="http://127.0.0.1:8000/embed?n=200&c=37&k=10&theme=auto"' in page and "passk:height" in page
    assert page.count("data-passk-embed") == 2   # the frame, and the script that finds it


def test_a_link_to_nowhere_fails_the_build(tmp_path):
    """--strict is what keeps the pages' links true: a page that links to a missing page or anchor stops it."""
    for name in ("mkdocs.yml", "scripts/docs_hooks.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    home = tmp_path / "docs" / "index.md"
    for broken in ("[the limits](no-such-page.md)", "[the limits](website.md#no-such-section)"):
        home.write_text(home.read_text(encoding="utf-8").replace("## Try it", f"{broken}\n\n## Try it", 1))
        built = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site", PYTHONPATH=str(ROOT))
        assert built.returncode != 0 and ("no-such-page.md" in built.stderr or "no-such-section" in built.stderr)
        home.write_text((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
