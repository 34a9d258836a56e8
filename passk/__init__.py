"""passk: the unbiased pass@k estimator, its error bars, and harness-file readers."""

from passk.estimator import estimate_pass_at_k, pass_at_k

__all__ = ["pass_at_k", "estimate_pass_at_k"]
__version__ = "1.0.0"
