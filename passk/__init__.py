"""passk: the unbiased pass@k estimator, its error bars, and harness-file readers.

The estimator needs numpy only; the error bars use scipy; the ``passk`` command (``python -m passk``) is in
passk.__main__; ``passk.from_frame`` reads a pandas or polars DataFrame (passk.frames, docs/frames.md). The
website that uses it (app.py) is not part of the package.
"""

from typing import TYPE_CHECKING, Any

from passk.estimator import estimate_pass_at_k, pass_at_k

if TYPE_CHECKING:
    from passk.frames import from_frame

__all__ = ["pass_at_k", "estimate_pass_at_k", "from_frame"]
__version__ = "1.0.0"   # the one place it is written: pyproject.toml reads it, passk --version prints it


def __getattr__(name: str) -> Any:
    """passk.from_frame, imported when first asked for: it brings in the benchmark's modules (scipy), which
    the estimator alone does not need (pandas and polars are never imported by passk)."""
    if name == "from_frame":
        from passk.frames import from_frame
        return from_frame
    raise AttributeError(f"module 'passk' has no attribute {name!r}")
