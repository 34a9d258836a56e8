"""passk: the unbiased pass@k estimator, its error bars, and harness-file readers.

The estimator needs numpy only; the error bars use scipy; the ``passk`` command (``python -m passk``) is in
passk.__main__. The public API for notebooks and scripts (passk.api, docs/api.md):

- ``passk.read(path)`` reads a harness results file into a Run;
- ``passk.summarize(run, k=[1, 10])``, ``passk.compare(a, b)``, ``passk.rank([a, b, c])`` and
  ``passk.plan(summary, target=1)`` answer as the JSON API does, show themselves in Jupyter and become pandas
  DataFrames (``to_frame()``);
- ``passk.pass_at_k(n, c, k)`` and ``passk.estimate_pass_at_k`` compute single values and arrays;
  ``passk.max_at_k(scores, k)`` the expected best of k graded scores (pass@k for 0/1 scores);
  ``passk.bayes_at_n(n, c)`` Bayes@N, the posterior mean of the pass rate with its credible interval;
- ``passk.from_frame`` reads a pandas or polars DataFrame of samples (passk.results.frames, docs/frames.md);
- ``passk.FormatError`` (a ValueError) is what reading raises: one sentence naming the file and what is wrong.

Everything but the estimator is imported when first used, so ``import passk`` stays light (numpy only). The
website that uses it is passk.web (Flask, the web extra), which `import passk` does not import.
"""

from typing import TYPE_CHECKING, Any

from passk import moved
from passk.maths.estimator import estimate_pass_at_k, pass_at_k

if TYPE_CHECKING:
    from passk.api import Comparison, Plan, Ranking, Run, Summary, compare, plan, rank, read, summarize
    from passk.formats import FormatError
    from passk.results.frames import from_frame
    from passk.maths.scores import max_at_k
    from passk.maths.bayes import bayes_at_n

__all__ = ["pass_at_k", "estimate_pass_at_k", "from_frame", "read", "summarize", "compare", "rank", "plan",
           "Run", "Summary", "Comparison", "Ranking", "Plan", "FormatError", "max_at_k", "bayes_at_n"]
__version__ = "1.0.0"   # the one place it is written: pyproject.toml reads it, passk --version prints it

_LAZY = {"from_frame": "passk.results.frames", "FormatError": "passk.formats", "max_at_k": "passk.maths.scores",
         "bayes_at_n": "passk.maths.bayes", **dict.fromkeys(
    ["read", "summarize", "compare", "rank", "plan", "Run", "Summary", "Comparison", "Ranking", "Plan"], "passk.api")}


moved.install()   # passk 1.0's module paths (passk.frames, passk.benchmark, ...) forward, with a warning


def __getattr__(name: str) -> Any:
    """passk.read, passk.summarize, ... and passk.from_frame, imported when first asked for: they bring in the
    benchmark's modules (scipy), which the estimator alone does not need (pandas and polars are never imported
    by passk)."""
    if name in _LAZY:
        from importlib import import_module
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'passk' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
