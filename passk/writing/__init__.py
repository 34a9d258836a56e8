"""How results are written: the same result as JSON, a table, a chart, a sentence, a link or a download.

Owns the numbers as text (display.py), the table columns each output shows and the JSON API's answers (columns.py,
answers.py), SVG charts (charts.py), the curve comparison in sentences (sentences.py), the worked steps of a
calculation (steps.py), the report of a benchmark page and its downloads (report.py), Markdown and LaTeX (paper.py),
the command's -o tables (output.py), notebook HTML and DataFrames (notebook.py) and share links (sharing.py). It
imports the results wing (passk.results) and everything below it; nothing below imports it.
"""
