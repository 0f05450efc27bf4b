"""Fixtures shared by every test folder, and how a parallel run (pytest-xdist) splits the tests.

``scripts/test.sh`` runs ``pytest -n auto --dist loadgroup --no-loadscope-reorder``: each test
module is one unit of work, kept whole on one worker so its module-scoped fixtures (a browser,
the built JupyterLite site) are made once; the modules that use the JupyterLab server form one
unit, so a run starts one server. The slowest units go first (``SLOW_FIRST``), so that no long
module starts last while the other worker has nothing left to do.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.lab import EXPOSE_APP, Server, shut_down_kernels
from tests.support import MissingBrowser, chromium, jupyter_lab, unavailable

#: Units of work, slowest first (seconds each took in one serial run on the 2-core machine):
#: test_lite 350, the JupyterLab modules 230, test_native_midgame 120, test_analysis 95...
SLOW_FIRST = (
    "test_lite.py",
    "jupyterlab",
    "test_native_midgame.py",
    "test_analysis.py",
    "test_train.py",
    "test_concurrency.py",
    "test_native_solver.py",
    "test_puzzles.py",
    "test_messages.py",
    "test_lab_script.py",
    "test_files.py",
    "test_records_stress.py",
    "test_wthor.py",
)


def lab_modules(items: list[pytest.Item]) -> set[Path]:
    """The test modules where some test uses the JupyterLab server (found from the fixtures
    each test asks for, so that a new module with lab tests joins the others by itself)."""
    return {item.path for item in items if "lab_server" in getattr(item, "fixturenames", ())}


def unit_of(item: pytest.Item, lab: set[Path]) -> str:
    """The unit of work a test belongs to: its module, or the modules sharing the server."""
    return "jupyterlab" if item.path in lab else item.path.relative_to(item.config.rootpath).as_posix()


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    lab = lab_modules(items)
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(unit_of(item, lab).rsplit("/", 1)[-1], len(rank)))  # stable: as collected
    for item in items:
        item.add_marker(pytest.mark.xdist_group(unit_of(item, lab)))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for one test module (closed after it, so the next module can open its own)."""
    try:
        with chromium() as b:
            yield b
    except MissingBrowser as error:
        unavailable(str(error))


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user may enter (pytest's own temporary folders are the owner's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="gamelog-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One JupyterLab server for the run, over a folder of its own (each test writes its own
    notebook there)."""
    root = tmp_path_factory.mktemp("lab")
    with jupyter_lab(root, EXPOSE_APP) as url:
        yield Server(url, root)


@pytest.fixture
def server(lab_server: Server) -> Iterator[Server]:
    """The run's JupyterLab server; the kernels a test started are shut down after it."""
    yield lab_server
    shut_down_kernels(lab_server)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page, large enough for a board and its move list."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(120_000)  # a wait ends when its element shows: long only for a failure, or a loaded machine
    yield pg
    context.close()
