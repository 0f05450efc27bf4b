"""Old import paths of the modules that moved into a component's folder, kept working.

``import reversi_widget.tables`` gives ``reversi_widget.records.tables`` itself (the same
module object, so its classes are the same classes), with a ``DeprecationWarning`` that
names the new path. The package installs the finder when it is imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["MOVED", "MovedModules", "install"]

#: Old module path -> where the module lives now.
MOVED = {
    "reversi_widget.batch": "reversi_widget.records.batch",
    "reversi_widget.logfile": "reversi_widget.records.logfile",
    "reversi_widget.logtable": "reversi_widget.records.logtable",
    "reversi_widget.tables": "reversi_widget.records.tables",
    "reversi_widget.puzzle": "reversi_widget.puzzles.puzzle",
    "reversi_widget.puzzle_file": "reversi_widget.puzzles.puzzle_file",
    "reversi_widget.strings": "reversi_widget.play.strings",
    "reversi_widget.evaluation": "reversi_widget.search.evaluate",
    "reversi_widget.patterns": "reversi_widget.search.patterns",
}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths in ``MOVED`` and loads each as its new module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the usual empty module: exec_module puts the real one in its place

    def exec_module(self, module: ModuleType) -> None:
        new = MOVED[module.__name__]
        warnings.warn(f"{module.__name__} moved to {new}; import it from there", DeprecationWarning, stacklevel=2)
        # The import system returns whatever sys.modules holds under the name once this returns.
        sys.modules[module.__name__] = importlib.import_module(new)


def install() -> None:
    """Put the finder on ``sys.meta_path``, once (after the usual finders: a real module wins)."""
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(MovedModules())
