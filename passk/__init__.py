"""passk: the unbiased pass@k estimator, its error bars, and harness-file readers.

The estimator needs numpy only; the error bars use scipy; the ``passk`` command (``python -m passk``) is in
passk.__main__. The website that uses it (app.py) is not part of the package.
"""

from passk.estimator import estimate_pass_at_k, pass_at_k

__all__ = ["pass_at_k", "estimate_pass_at_k"]
__version__ = "1.0.0"   # the one place it is written: pyproject.toml reads it, passk --version prints it
