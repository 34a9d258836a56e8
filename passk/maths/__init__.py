"""The numbers: pure functions of counts, votes and scores, each value the double nearest the exact one.

Owns the unbiased estimators (pass@k and pass^k in estimator.py, correctly rounded through nearest.py; G-Pass@k in
gpass.py; maj@k in majority.py; max@k and graded means in scores.py; Bayes@N in bayes.py; exact means in means.py),
their error bars (intervals.py, with Student's t in stats.py; each problem's noise in variance.py; the note on 0/1
values in passfail.py) and the planner's prior (the zero/one-inflated Beta of inflated.py). It imports nothing of
passk but passk.limits (what a request may spend) and its own modules: no file, no run, no wording for a page.
"""
