"""MkDocs hooks of passk's own docs site (mkdocs.yml; `.venv/bin/mkdocs build` or `serve` from the checkout).

The build writes the static calculator with `passk export-html` and serves it at calculator/ beside the pages, as
docs/static-calculator.md tells any MkDocs site to do, so the site's pages frame the calculator of the checkout
they are built from (none of its three files is committed under docs/).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]   # the checkout: `python -m passk` there is its own passk
CALCULATOR = "calculator"                    # where the site serves the static calculator


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the three files `passk export-html` writes to the site, under calculator/."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / CALCULATOR
        exported = subprocess.run([sys.executable, "-m", "passk", "export-html", str(folder)], cwd=ROOT,
                                  capture_output=True, text=True, timeout=120)
        if exported.returncode != 0:
            raise RuntimeError(f"passk export-html failed: {exported.stderr.strip()}")
        for path in sorted(folder.iterdir()):
            files.append(File.generated(config, f"{CALCULATOR}/{path.name}", content=path.read_bytes()))
    return files
