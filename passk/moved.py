"""The module paths of passk 1.0, before its wings: each still imports, as the module it became, with a
DeprecationWarning naming the new path. They forward through the 1.x releases and are gone in 2.0.

`import passk` puts Forward on sys.meta_path, behind the finders of the files that exist, so `from passk.frames
import reduce_log` gets passk.results.frames itself (one module object under both names).
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

WINGS = {
    "maths": "bayes estimator gpass inflated intervals majority means nearest passfail scores stats variance",
    "results": "benchmark calculator curves frames metrics planner ranking",
    "writing": "charts columns display notebook output paper report sharing steps",
    "web": "quietlog",
}
MOVED = {f"passk.{name}": f"passk.{wing}.{name}" for wing, names in WINGS.items() for name in names.split()}


class Forward(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of MOVED and loads it as the module at its new path."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} is now {new}; the old path forwards until passk 2.0", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path is already loaded."""


def install() -> None:
    """Puts Forward on sys.meta_path once, after every other finder."""
    if not any(isinstance(finder, Forward) for finder in sys.meta_path):
        sys.meta_path.append(Forward())
