"""The single-problem calculator as a static folder: `passk export-html DIR` (issue 19, item 2).

The folder holds index.html, passk-calculator.js and style.css, and nothing
else: the page computes pass@k, pass^k, the k table, the cross-check and the
chart in the browser (the estimator of passk/maths/estimator.py, in log space),
fetches nothing from any origin, and works from file://, so a static docs site
(GitHub Pages, Read the Docs, MkDocs, Sphinx) can serve it as it is. The page
and its script are this package's data (calculator.html, passk-calculator.js);
the stylesheet is the website's own, copied at export time, and the page
carries passk's own constants (the limits, the estimator's threshold, the
chart's geometry) in a JSON block, so that it follows the passk that wrote it.
"""

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO

HERE = Path(__file__).resolve().parent
PAGE = "index.html"
SCRIPT = "passk-calculator.js"
STYLESHEET = "style.css"


class FolderNotEmpty(ValueError):
    """The folder to export into holds files already, and --force was not given."""


@dataclass(frozen=True)
class Written:
    """One file the export wrote: its path and size in bytes."""

    path: Path
    size: int


def _site_stylesheet() -> Path:
    """The website's stylesheet, passk/web/static/style.css, which the wheel ships with the site."""
    stylesheet = HERE.parent / "web" / "static" / STYLESHEET
    if not stylesheet.is_file():
        raise FileNotFoundError(f"the site's stylesheet is missing from this install: {stylesheet}.")
    return stylesheet


def settings() -> dict[str, Any]:
    """passk's constants the page's script computes and draws with, as the JSON block index.html carries."""
    from passk.results import calculator
    from passk.writing import charts
    from passk.maths import estimator   # here: they import numpy, which `passk --version` skips
    from passk.limits import LIMITS
    chart_names = ("WIDTH", "HEIGHT", "FONT", "GAP", "Y_GAP", "EDGE", "MIN_MARGIN", "X_TICK_DY", "AXIS_LABEL_DY",
                   "Y_TICK_DY", "MAX_POINTS", "POINTS_PER_DECADE", "ASCENT", "DESCENT", "LETTER_EM")
    return {
        "max_n": LIMITS.largest_count,
        "extra_ks": LIMITS.extra_ks,
        "short_product": estimator.SHORT_PRODUCT,
        "falling_ratio_max_terms": estimator.FALLING_RATIO_MAX_TERMS,
        "table_ks": list(calculator.TABLE_KS),
        "chart": {**{name.lower(): getattr(charts, name) for name in chart_names}, "em": charts._EM},
    }


def page() -> str:
    """index.html: the package's calculator.html with the settings in its JSON block."""
    block = json.dumps(settings(), ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    return (HERE / "calculator.html").read_text(encoding="utf-8").replace("{{ settings }}", block)


def export_html(folder: str | Path, force: bool = False) -> list[Written]:
    """Write the static calculator (index.html, passk-calculator.js, style.css) into folder; returns what it wrote.

    The folder is made when missing. One that holds anything already is
    refused (FolderNotEmpty) unless force is true, when the three files are
    overwritten and anything else in it is left alone.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder} is a file, not a folder: give a folder to write the calculator into.")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise FolderNotEmpty(f"{folder} is not empty: give an empty or new folder, or --force to overwrite "
                             f"{PAGE}, {SCRIPT} and {STYLESHEET} in it.")
    folder.mkdir(parents=True, exist_ok=True)
    contents = {PAGE: page().encode(), SCRIPT: (HERE / SCRIPT).read_bytes(),
                STYLESHEET: _site_stylesheet().read_bytes()}
    written = []
    for name, content in contents.items():
        target = folder / name
        target.write_bytes(content)
        written.append(Written(target, len(content)))
    return written


class _OneLineParser(argparse.ArgumentParser):
    """A usage mistake is one line on standard error, as for the rest of the command line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"passk export-html: {message} (see passk export-html --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="passk export-html",
        description="Write the single-problem calculator as a static folder (index.html, its script and its "
                    "stylesheet) that computes in the browser, requests nothing from any origin and works from "
                    "file://: drop it into a static docs site (docs/static-calculator.md).")
    parser.add_argument("folder", metavar="DIR", help="the folder to write into; made when missing, "
                                                      "refused when it holds anything unless --force")
    parser.add_argument("--force", action="store_true",
                        help=f"write into a folder that is not empty, overwriting {PAGE}, {SCRIPT} and {STYLESHEET}")
    return parser


def main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """`passk export-html DIR [--force]`: prints each file written with its size; exit status 2 for bad input."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:   # argparse's usage errors and --help
        return int(exit.code or 0)
    try:
        written = export_html(args.folder, force=args.force)
    except (OSError, ValueError) as error:
        stderr.write(f"passk: {error}\n")
        return 2
    for item in written:
        stdout.write(f"{item.path}  {item.size:,} bytes\n")
    stdout.write(f"{sum(item.size for item in written):,} bytes in all; open {written[0].path} in a browser.\n")
    return 0
