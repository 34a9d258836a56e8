"""Results as a paper prints them: Markdown and LaTeX tables and rows.

One place writes the cells, so the command line's --markdown and --latex
tables and the rows the pages offer to copy hold the same text.
"""

from passk import __version__
from passk.display import decimal

PAPER_HEADER = ["k", "pass@k (%)", "SE (%)", "95% interval (%)", "SE fixed (%)"]
# What the benchmark page offers to copy: a row per k with its interval.
INTERVAL_COLUMNS = ("Suite", "k", "pass@k (%)", "95% interval (%)")


def points(value):
    """A probability in percent with two decimals, as papers print pass@k; None when there is none.

    By the pages' rule (passk.display.decimal), a value the two decimals would hide keeps
    three significant digits (ASCII, as LaTeX and Markdown take it as it is), and one just
    below 1 is never printed as 100.00.

    >>> points(11 / 12), points(None), points(1e-12), points(0.99999), points(1.0)
    ('91.67', None, '1.00e-10', '99.999', '100.00')
    """
    if value is None:
        return None
    if value in (0, 1):
        return f"{100 * value:.2f}"
    return decimal(100 * value, 2, top=100, ascii=True) or "100.00"


def suites(report):
    """[(suite name or None, Summary)]: the chosen suite first, then for EvalPlus the other."""
    return [(report.suite, report.summary), *report.other_suites.items()]


def paper_rows(report):
    """(header, rows) of the paper tables: one row per suite and k, cells as text, None where undefined."""
    labelled = bool(report.other_suites) or report.suite is not None
    header = (["Suite"] if labelled else []) + PAPER_HEADER
    rows = []
    for suite, summary in suites(report):
        for row in summary.results:
            interval = f"[{points(row.ci95[0])}, {points(row.ci95[1])}]" if row.ci95 else None
            cells = [str(row.k), points(row.pass_at_k), points(row.se), interval, points(row.se_fixed)]
            rows.append(([suite] if labelled else []) + cells)
    return header, rows


def interval_rows(report):
    """(header, rows) for the benchmark page: the paper table's suite, k, pass@k and interval columns."""
    header, rows = paper_rows(report)
    keep = [index for index, name in enumerate(header) if name in INTERVAL_COLUMNS]
    return [header[index] for index in keep], [[row[index] for index in keep] for row in rows]


def calculation_rows(calc):
    """(header, rows) for one problem: the chosen k and its pass@k."""
    return ["k", "pass@k (%)"], [[str(calc.k), points(calc.pass_at_k)]]


MARKDOWN_SPECIAL = str.maketrans({char: "\\" + char for char in "\\|*_`<>"})
LATEX_SPECIAL = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                               "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                               "^": r"\textasciicircum{}"})


def markdown_line(cells):
    """| a | b |, escaped; — where a cell is undefined."""
    return "| " + " | ".join("—" if cell is None else cell.translate(MARKDOWN_SPECIAL) for cell in cells) + " |"


def latex_line(cells):
    r"""a & b \\, escaped; -- where a cell is undefined."""
    return " & ".join("--" if cell is None else cell.translate(LATEX_SPECIAL) for cell in cells) + r" \\"


def markdown_rows(rows):
    """Rows to paste into a Markdown table, one a line."""
    return "\n".join(map(markdown_line, rows))


def latex_rows(rows):
    """Rows to paste into a LaTeX tabular, one a line."""
    return "\n".join(map(latex_line, rows))


def markdown(report):
    """The results as a GitHub-flavoured Markdown table."""
    header, rows = paper_rows(report)
    align = ["---" if name == "Suite" else ":---:" if "interval" in name else "---:" for name in header]
    return "\n".join([markdown_line(header), "| " + " | ".join(align) + " |", *map(markdown_line, rows)])


def latex(report):
    """The results as a LaTeX tabular with booktabs rules."""
    header, rows = paper_rows(report)
    columns = "".join("l" if name == "Suite" else "c" if "interval" in name else "r" for name in header)
    return "\n".join([r"% passk " + __version__ + r"; the rules need \usepackage{booktabs}",
                      rf"\begin{{tabular}}{{{columns}}}", r"\toprule", latex_line(header), r"\midrule",
                      *map(latex_line, rows), r"\bottomrule", r"\end{tabular}"])
