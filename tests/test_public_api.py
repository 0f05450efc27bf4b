"""Every public import of the README, the documentation's pages and the example notebooks
works, and so do the import paths that were public before the package was laid out in folders (issue 28)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import reversi_widget
from reversi_widget.moved import MOVED

ROOT = Path(__file__).resolve().parent.parent
#: The README and every page of the documentation (where most of the README's text went).
README = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))

#: ``from reversi_widget... import a, b`` (doctest prompts allowed), and ``import reversi_widget...``.
FROM_IMPORT = re.compile(r"^(?:>>> )?\s*from (reversi_widget[\w.]*) import \(?([\w, ]+)\)?", re.M)
DOTTED = re.compile(r"\breversi_widget(?:\.\w+)+")
PATH = re.compile(r"`(reversi_widget/[\w/.]+)`")

#: Names that were importable from these modules before the layout of issue 28, and still are.
FORMER_NAMES = {
    "reversi_widget.widget": (
        "ANIMATIONS ANIMATION_STEP ASSETS DEMO_LINE_STEPS INTENTS LEVEL_NAMES MAX_FILL_LENGTH MAX_INTENT_SIZE "
        "MAX_MARK_LENGTH MAX_PIXELS MIN_PIXELS PROGRESS_EVERY REVIEW_MARKS SETTINGS SHOWN_MAX THEMES TIMELESS_INTENTS "
        "AidKey AnalysisRefusedError GameOverCallback InvalidAnnotationError InvalidSettingError MoveCallback "
        "NavigationError ReversiWidget UnknownLanguageError evaluations running_in_marimo"
    ),
    "reversi_widget.svg": "SYMBOLS THEMES SvgImage board boards game escape CELL ORIENTATIONS Theme",
    "reversi_widget.board": "Board LegalMoveList Move Outcome Termination",
    "reversi_widget.records": "GameLog MostPlayed Stats Table analyse_games",
    "reversi_widget.puzzles": (
        "Difficulty FORMAT_LINE MoveResult Puzzle Source TASKS Verdict exact_results format_puzzles "
        "parse_puzzles quick_order read_puzzles write_puzzles from_games shipped pose class_results puzzle_tries"
    ),
}


def imports_in(text: str) -> list[tuple[str, str]]:
    """(module, name) for every name of every ``from ... import`` in ``text``."""
    found = []
    for module, names in FROM_IMPORT.findall(text):
        found += [(module, name.strip()) for name in names.split(",") if name.strip()]
    return found


def notebook_code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


def resolve(dotted: str) -> object:
    """The object a dotted path names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            thing: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            thing = getattr(thing, attribute)
        return thing
    raise ModuleNotFoundError(dotted)


def test_the_readme_and_notebooks_name_what_this_test_checks() -> None:
    """The patterns find the README's imports, so the tests below check something."""
    names = imports_in(README)
    assert ("reversi_widget.records", "GameLog") in names and ("reversi_widget.puzzles", "shipped") in names
    assert len(names) > 15 and len(NOTEBOOKS) >= 5
    assert "reversi_widget.native.ready" in DOTTED.findall(README)


@pytest.mark.parametrize(
    "module, name",
    sorted(set(imports_in(README)) | {pair for nb in NOTEBOOKS for pair in imports_in(notebook_code(nb))}),
)
def test_every_import_of_the_readme_and_the_notebooks_works(module: str, name: str) -> None:
    imported = importlib.import_module(module)
    assert hasattr(imported, name) or importlib.util.find_spec(f"{module}.{name}") is not None


@pytest.mark.parametrize("dotted", sorted(set(DOTTED.findall(README))))
def test_every_dotted_name_in_the_readme_resolves(dotted: str) -> None:
    assert resolve(dotted) is not None


@pytest.mark.parametrize("path", sorted(set(PATH.findall(README))))
def test_every_package_path_in_the_readme_exists(path: str) -> None:
    assert (ROOT / path).exists()


@pytest.mark.parametrize("name", reversi_widget.__all__)
def test_every_name_the_package_exports_is_there(name: str) -> None:
    assert getattr(reversi_widget, name) is not None


@pytest.mark.parametrize("module, names", FORMER_NAMES.items())
def test_names_keep_their_former_import_paths(module: str, names: str) -> None:
    imported = importlib.import_module(module)
    missing = [name for name in names.split() if not hasattr(imported, name)]
    assert not missing


@pytest.mark.parametrize("old, new", MOVED.items())
def test_a_moved_module_keeps_its_old_path(old: str, new: str) -> None:
    """The old path gives the module itself (the same classes), and says where it went."""
    first_time = old not in sys.modules  # once imported, a module is not loaded (nor warned of) again
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__ is not None and module.__spec__.name == new
    assert not first_time or any(issubclass(w.category, DeprecationWarning) and new in str(w.message) for w in caught)


def test_an_old_path_still_warns_in_a_fresh_process() -> None:
    """``from reversi_widget.tables import Table`` works and says where ``tables`` went."""
    code = (
        "from reversi_widget.tables import Table\n"
        "from reversi_widget.records import tables\n"
        "assert Table is tables.Table\n"
    )
    result = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "reversi_widget.tables moved to reversi_widget.records.tables" in result.stderr
