"""Fixtures for the front-end tests: js/widget.js in headless Chromium with a fake model.

No Jupyter is involved: harness.html builds a fake anywidget model and renders two views of it.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reversi_widget.play.strings import front_end_strings
from reversi_widget.widget import ReversiWidget

HERE = Path(__file__).parent
JS = HERE.parent.parent / "js"
FILES = "abcdefghijklmnop"
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
#: What Python syncs once for every widget: the front end's constants and English labels.
_FRESH = ReversiWidget()
CONFIG: dict[str, Any] = _FRESH.config
ENGLISH: dict[str, str] = front_end_strings("en")
#: The buttons of a new game between two people: New game, Hint, and Undo/Redo disabled.
START_ACTIONS: dict[str, str] = _FRESH.actions


def square(n: int, i: int) -> str:
    return f"{FILES[i % n]}{i // n + 1}"


def _legal_moves(discs: str, n: int, me: str) -> dict[str, list[str]]:
    """Legal squares -> flips, so the fake model carries realistic traits (not the widget's job)."""
    them = "O" if me == "X" else "X"
    out: dict[str, list[str]] = {}
    for i, d in enumerate(discs):
        if d != "-":
            continue
        flips: list[str] = []
        for dr, dc in DIRS:
            r, c, line = i // n + dr, i % n + dc, []
            while 0 <= r < n and 0 <= c < n and discs[r * n + c] == them:
                line.append(r * n + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < n and 0 <= c < n and discs[r * n + c] == me:
                flips += [square(n, j) for j in line]
        if flips:
            out[square(n, i)] = flips
    return out


def start_traits(n: int = 8, **over: Any) -> dict[str, Any]:
    """The traits Python would sync for a fresh n x n game with Black to move."""
    cells = ["-"] * (n * n)
    a, b = n // 2 - 1, n // 2
    cells[a * n + a] = cells[b * n + b] = "O"
    cells[a * n + b] = cells[b * n + a] = "X"
    discs = "".join(cells)
    traits: dict[str, Any] = {
        "board_size": n,
        "discs": discs,
        "turn": "black",
        "ply": 0,
        "legal": _legal_moves(discs, n, "X"),
        "last_move": "",
        "last_flips": [],
        "counts": {"black": 2, "white": 2},
        "supply": {},
        "status": "Black to move",
        "notice": "",
        "notice_kind": "info",
        "notice_id": 0,
        "game_over": False,
        "result": "",
        "moves": [],
        "can_undo": False,
        "can_redo": False,
        "thinking": False,
        "players": {"black": "Human", "white": "Computer (greedy)"},
        "strings": ENGLISH,
        "config": CONFIG,
        "actions": START_ACTIONS,
        "fill": {},
        "marks": {},
        "arrows": [],
        "show_legal": True,
        "show_flips": True,
        "show_coordinates": True,
        "animation": "off",
        "theme": "light",
        "size": None,
    }
    traits.update(over)
    return traits


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("frontend")
    shutil.copy(HERE / "harness.html", root / "harness.html")
    shutil.copy(JS / "widget.js", root / "widget.js")
    shutil.copy(JS / "widget.css", root / "widget.css")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/harness.html"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def _shared_page(browser: Any, server_url: str) -> Iterator[Any]:
    # One page per test module: a new context costs ~0.5 s; boot() resets the harness instead.
    context = browser.new_context(viewport={"width": 800, "height": 1400})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def dismiss(dialog: Any) -> None:
        errors.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    pg.on("dialog", dismiss)
    pg.goto(server_url)
    pg.wait_for_function("window.harnessReady === true")
    pg.js_errors = errors
    yield pg
    context.close()


@pytest.fixture
def page(_shared_page: Any) -> Iterator[Any]:
    pg = _shared_page
    pg.js_errors.clear()
    pg.emulate_media(reduced_motion="no-preference")
    pg.mouse.move(790, 1390)  # no hover left over from the previous test
    yield pg
    errors = list(pg.js_errors)
    assert not errors, errors  # no uncaught errors and no alert() from injected markup


@pytest.fixture
def legal_moves() -> Callable[[str, int, str], dict[str, list[str]]]:
    """The rules, for tests that build their own positions."""
    return _legal_moves


@pytest.fixture
def boot(page: Any) -> Callable[..., Any]:
    """boot(n=8, **traits): render two views of a fake model; returns the page."""

    def _boot(n: int = 8, **over: Any) -> Any:
        page.evaluate("t => window.boot(t)", start_traits(n, **over))  # render() is synchronous
        return page

    return _boot
