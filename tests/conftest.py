"""Fixtures shared by every test folder."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.lab import EXPOSE_APP, Server
from tests.support import MissingBrowser, chromium, jupyter_lab, unavailable


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A JupyterLab server for one test module, over a folder of its own."""
    root = tmp_path_factory.mktemp("lab")
    with jupyter_lab(root, EXPOSE_APP) as url:
        yield Server(url, root)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page, large enough for a board and its move list."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()
