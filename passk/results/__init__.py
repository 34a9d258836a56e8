"""A run's results: per-problem counts in, typed results out.

Owns a benchmark's summary and the paired comparison of two runs (benchmark.py), the metrics beside pass@k
(metrics.py: maj@k, G-Pass@k, graded means, avg@k), the ranking of several runs (ranking.py), the planner
(planner.py), two runs' curves over k (curves.py), DataFrames and big logs as counts (frames.py) and the
one-problem calculation (calculator.py). It imports the numbers (passk.maths), the readers (passk.formats),
passk.limits and passk.grammar, never the writing wing above it: JSON, table columns, the page's number formats
and the sentences only a page or the command shows are passk.writing's. The notes, reasons and plans' sentences
that the JSON API carries inside a result are written here, with passk.grammar.
"""
