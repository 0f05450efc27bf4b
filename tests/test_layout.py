"""The package's layout rules, read from its source: every module says what it exports and
exports only what it defines (a package's ``__init__`` gathers its members' names), no
module reads another's private attributes, and modules and classes stay short enough to read.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "reversi_widget"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 500

#: Names with a leading underscore that are protocols, not privacy: IPython's display hooks
#: and the named-tuple API.
PROTOCOL_NAMES = {"_repr_html_", "_repr_svg_", "_repr_mimebundle_", "_asdict", "_replace", "_make", "_fields"}


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def assigned_names(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds (imports excluded)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    names = []
    for target in targets:
        for leaf in ast.walk(target):
            if isinstance(leaf, ast.Name):
                names.append(leaf.id)
    return names


def exported(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if "__all__" in assigned_names(node):
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            assert isinstance(value, (ast.List, ast.Tuple)), "__all__ is a literal list"
            return [ast.literal_eval(element) for element in value.elts]
    return None


def test_the_rules_see_the_whole_package() -> None:
    names = {relative(path) for path in MODULES}
    assert {"board.py", "widget.py", "records/__init__.py", "puzzles/puzzle.py", "play/strings.py"} <= names
    assert len(names) > 60


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_every_module_exports_only_what_it_defines(path: Path) -> None:
    tree = tree_of(path)
    names = exported(tree)
    assert names is not None, f"{relative(path)} has no __all__"
    assert len(names) == len(set(names)), f"{relative(path)} lists a name twice"
    if path.name == "__init__.py":
        return
    defined = {name for node in tree.body for name in assigned_names(node)}
    foreign = sorted(set(names) - defined)
    assert not foreign, f"{relative(path)} exports names defined elsewhere: {foreign}"


def attributes_defined(tree: ast.Module) -> set[str]:
    """Every attribute name a module defines: methods, class attributes, ``x.name = ...``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                names.update(assigned_names(statement))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Attribute):
                        names.add(leaf.attr)
    return names


def private_reads(tree: ast.Module) -> list[tuple[int, str]]:
    """``thing._name`` where the module defines no ``_name`` (so it belongs to another module's
    class), and ``from x import _name``."""
    own = attributes_defined(tree)
    reads = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            reads += [(node.lineno, alias.name) for alias in node.names if is_private(alias.name)]
        elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own:
            reads.append((node.lineno, ast.unparse(node)))
    return reads


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PROTOCOL_NAMES


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_no_module_reads_another_modules_private_names(path: Path) -> None:
    reads = private_reads(tree_of(path))
    assert not reads, f"{relative(path)} reads private names of other modules: {reads}"


def test_the_private_read_check_finds_one() -> None:
    """The check itself: a module reading a board's private field is caught, its own is not."""
    tree = ast.parse("class A:\n    def f(self, b):\n        self._x = 1\n        return b._x, b._geo\n")
    assert private_reads(tree) == [(4, "b._geo")]
    assert private_reads(ast.parse("from .board import _named_start\n")) == [(1, "_named_start")]


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_modules_and_classes_stay_short(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_MODULE_LINES, f"{relative(path)} has {text.count(chr(10))} lines"
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.ClassDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            assert length <= MAX_CLASS_LINES, f"{relative(path)}: class {node.name} has {length} lines"


def test_architecture_names_files_that_exist() -> None:
    """ARCHITECTURE.md's paths (the layers, the twins and their tests, the click's path) are
    real files: a file that moves without the document is caught here."""
    root = PACKAGE.parent
    text = (root / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/.-]+\.(?:py|js|css|md|sh))`", text))
    assert len(named) > 15
    missing = sorted(p for p in named if not (root / p).exists() and not (PACKAGE / p).exists())
    assert not missing, f"ARCHITECTURE.md names files that are not there: {missing}"
