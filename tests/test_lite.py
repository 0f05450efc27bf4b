"""The zero-install site (scripts/lite.sh): built from this clone, served from 127.0.0.1 and
opened in headless Chromium with nothing else reachable. Python runs in the browser
(Pyodide, without threads): the play notebook is run, its boards are played against a
person and against the expert with a hint and a review, and the page must not have asked
for anything outside 127.0.0.1. The build itself refuses, naming what is missing, when it
cannot make a whole site.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reversi_widget import Board, Move, explain
from reversi_widget.players import RandomPlayer
from tests import lite_site
from tests.lite_site import ROOT, BuildFailed, Outside, open_notebook, run_cell
from tests.support import KERNEL_IDLE, MissingBrowser, unavailable

CHECK_SITE = ROOT / "lite" / "check_site.py"


# -- the build refuses what would make a half site ---------------------------------------------


def check_site(site: Path) -> list[str]:
    done = subprocess.run([sys.executable, str(CHECK_SITE), str(site)], capture_output=True, text=True, check=False)
    problems = [line.removeprefix("check_site: ") for line in done.stderr.splitlines()]
    assert (done.returncode == 0) == (problems == []), done.stderr
    return problems


def small_site(root: Path) -> Path:
    """A site with the shape scripts/lite.sh makes, one wheel in its lock, every notebook."""
    wheel = root / "static/pyodide-lock/reversi_widget-0.1.0-py3-none-any.whl"
    wheel.parent.mkdir(parents=True)
    wheel.write_bytes(b"a wheel")
    lock = {
        "info": {},
        "packages": {
            "reversi-widget": {
                "name": "reversi-widget",
                "file_name": "../../static/pyodide-lock/" + wheel.name,
                "sha256": hashlib.sha256(b"a wheel").hexdigest(),
                "depends": [],
            }
        },
    }
    (wheel.parent / "pyodide-lock.json").write_text(json.dumps(lock))
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        (root / "static/pyodide").mkdir(parents=True, exist_ok=True)
        (root / "static/pyodide" / name).write_text("")
    (root / "files").mkdir()
    for notebook in (ROOT / "examples").glob("*.ipynb"):
        (root / "files" / notebook.name).write_text("{}")
    kernel = {
        "pyodideUrl": "./static/pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {
            "lockFileURL": "./static/pyodide-lock/pyodide-lock.json",
            "packages": ["reversi-widget"],
        },
    }
    extensions = [
        "anywidget",
        "@jupyter-widgets/jupyterlab-manager",
        "@jupyterlite/pyodide-kernel-extension",
        "reversi-run-when-ready",
    ]
    config = {
        "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel},
        "federated_extensions": [{"name": name} for name in extensions],
    }
    (root / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": config}))
    return root


def edit_config(site: Path, change: Any) -> None:
    path = site / "jupyter-lite.json"
    config = json.loads(path.read_text())
    change(config["jupyter-config-data"])
    path.write_text(json.dumps(config))


def edit_lock(site: Path, change: Any) -> None:
    path = site / "static/pyodide-lock/pyodide-lock.json"
    lock = json.loads(path.read_text())
    change(lock["packages"])
    path.write_text(json.dumps(lock))


def test_a_whole_small_site_passes_the_check(tmp_path: Path) -> None:
    assert check_site(small_site(tmp_path)) == []


def test_the_check_names_each_thing_missing_or_outside(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    kernel = "@jupyterlite/pyodide-kernel-extension:kernel"
    edit_config(site, lambda c: c["litePluginSettings"][kernel].update(pyodideUrl="https://cdn.example/pyodide.mjs"))
    edit_config(site, lambda c: c["litePluginSettings"][kernel].pop("disablePyPIFallback"))
    edit_config(site, lambda c: c["federated_extensions"].pop(0))
    remote = {"name": "micropip", "file_name": "https://cdn.example/micropip.whl", "sha256": "", "depends": []}
    absent = {"name": "jedi", "file_name": "jedi-0.19.2-py2.py3-none-any.whl", "sha256": "", "depends": []}
    edit_lock(site, lambda p: p.update(micropip=remote, jedi=absent))
    edit_lock(site, lambda p: p["reversi-widget"].update(depends=["ipywidgets"]))
    (site / "static/pyodide/python_stdlib.zip").unlink()
    (site / "files/01-play.ipynb").unlink()
    (site / "static/pyodide-lock/reversi_widget-0.1.0-py3-none-any.whl").write_bytes(b"another wheel")
    assert check_site(site) == [
        "Pyodide is loaded from https://cdn.example/pyodide.mjs, not from the site",
        "static/pyodide/python_stdlib.zip is missing",
        "the kernel would fall back to PyPI for a package the site lacks",
        "jedi: its wheel jedi-0.19.2-py2.py3-none-any.whl is not in the site",
        "micropip would load from outside the site: https://cdn.example/micropip.whl",
        "reversi_widget-0.1.0-py3-none-any.whl does not match the hash in the lock",
        "ipywidgets is needed before the first cell but not in the lock",
        "the JupyterLab extension anywidget is missing",
        "the notebook 01-play.ipynb is missing",
    ]


def test_the_check_needs_the_package_before_the_first_cell(tmp_path: Path) -> None:
    site = small_site(tmp_path)

    def options(config: Any) -> Any:
        return config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]

    edit_config(site, lambda c: options(c).update(packages=[]))
    assert check_site(site) == ["reversi-widget is not loaded before the first cell"]
    edit_config(site, lambda c: options(c).update(lockFileURL="https://cdn.example/pyodide-lock.json"))
    assert check_site(site) == ["the package lock https://cdn.example/pyodide-lock.json is not a file in the site"]


def test_the_build_names_a_missing_python_and_leaves_the_site_alone(tmp_path: Path) -> None:
    early = os.environ.get(lite_site.EARLY_BUILD_ENV)
    if early:  # a build started before the tests would swap the site in the middle of this test
        lite_site.wait_for_build(Path(early))
    not_python = tmp_path / "python3.11"
    not_python.write_text("#!/bin/sh\nexit 1\n")
    not_python.chmod(0o755)
    output = ROOT / "lite" / "_output"
    before = output.exists() and sorted(p.name for p in output.iterdir())
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "lite.sh")],
        capture_output=True,
        text=True,
        env={**os.environ, "LITE_PYTHON": str(not_python)},
        check=False,
    )
    assert done.returncode == 3
    assert done.stderr.strip() == f"scripts/lite.sh: LITE_PYTHON={not_python} is not a Python 3.12 or newer"
    after = output.exists() and sorted(p.name for p in output.iterdir())
    assert after == before


# -- what the package does differently in a browser ----------------------------------------------


@pytest.fixture
def in_a_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """sys.platform as Pyodide has it, with its notebook folder and /tmp under ``tmp_path``."""
    from reversi_widget import records

    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(records, "BROWSER_DRIVE", tmp_path / "drive")
    monkeypatch.setattr(records, "BROWSER_LOGS", tmp_path / "tmp")
    (tmp_path / "drive").mkdir()
    (tmp_path / "tmp").mkdir()
    monkeypatch.chdir(tmp_path / "drive")  # where JupyterLite runs a notebook
    return tmp_path


def test_a_game_log_in_the_browser_goes_where_sqlite_can_write(in_a_browser: Path) -> None:
    from reversi_widget.errors import InvalidPositionError
    from reversi_widget.game import Game
    from reversi_widget.records import GameLog

    log = GameLog("games.db")  # relative: not the notebook folder, but /tmp
    assert log.path == in_a_browser / "tmp" / "games.db"
    log.add(Game.from_transcript(finished_transcript(3)))
    assert len(GameLog(in_a_browser / "tmp" / "games.db")) == 1
    assert len(GameLog(":memory:")) == 0
    for inside in (in_a_browser / "drive" / "games.db", in_a_browser / "drive"):
        with pytest.raises(InvalidPositionError) as refused:
            GameLog(inside)
        assert str(refused.value) == (
            f"{inside}: SQLite cannot write in JupyterLite's notebook folder ({in_a_browser / 'drive'}); keep "
            f"the log under {in_a_browser / 'tmp'} (a relative path goes there), which lasts until the page is reloaded"
        )
    assert sorted(p.name for p in (in_a_browser / "drive").iterdir()) == []


def test_games_are_analysed_in_the_caller_where_no_process_can_start(
    in_a_browser: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures

    from reversi_widget.game import Game
    from reversi_widget.records import analyse_games

    def no_processes(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a process pool was started in a browser")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_processes)
    games = [Game.from_transcript(t) for t in ("f5d6c3", "f5f6e6f4", finished_transcript(3))]
    seen: list[tuple[int, int]] = []
    got = analyse_games(games, lambda g: len(g), progress=lambda done, total: seen.append((done, total)))
    assert got == [3, 4, len(games[2])] and seen == [(1, 3), (2, 3), (3, 3)]


def test_where_no_thread_can_start_the_engine_stays_on_the_pure_path_quietly(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import threading

    from reversi_widget import native

    def refuse(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    warm_up = native._WarmUp()
    warm_up.start()  # what the first board asking for a compiled kernel does
    warm_up.start()
    assert warm_up.failure == "no thread to compile in: can't start new thread"
    assert all(event.is_set() for event in warm_up.done.values()) and warm_up.modules == {}
    assert caplog.records == []  # nothing printed under a student's cell


# -- the site in the browser ---------------------------------------------------------------------


@dataclass
class Site:
    url: str
    browser: Any
    outside: Outside
    proxy: str

    def open(self, notebook: str, wait_kernel: bool = True) -> Any:
        return open_notebook(self.browser, self.url, self.outside, self.proxy, notebook, wait_kernel=wait_kernel)


@pytest.fixture(scope="module")
def built() -> Path:
    """The site, built once for the module by scripts/lite.sh from this clone, and checked."""
    try:
        folder = lite_site.build_site()
    except BuildFailed as error:
        if error.missing_tool:
            unavailable(f"scripts/lite.sh cannot build here:\n{error}")
        pytest.fail(f"scripts/lite.sh failed:\n{error}")
    assert check_site(folder) == []
    return folder


@pytest.fixture(scope="module")
def site(built: Path) -> Iterator[Site]:
    try:
        with lite_site.serve(built) as url, lite_site.lite_browser() as (browser, outside, proxy):
            yield Site(url, browser, outside, proxy)
    except MissingBrowser as error:
        unavailable(str(error))


def cell_of(notebook: str, start: str) -> int:
    """The index of the notebook's code cell whose source starts with ``start``."""
    cells = json.loads((ROOT / "examples" / notebook).read_text())["cells"]
    found = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and "".join(c["source"]).startswith(start)]
    assert len(found) == 1, (notebook, start, found)
    return found[0]


def widget(cell: int) -> str:
    """The board drawn in the output of the notebook's cell ``cell`` (0-based)."""
    return f".jp-Notebook .jp-Cell:nth-child({cell + 1}) .reversi-widget"


def discs_on(page: Any, board: str) -> int:
    return int(page.eval_on_selector_all(f'{board} [data-square]:not([data-disc="empty"])', "els => els.length"))


def squares(page: Any, board: str, attribute: str) -> list[str]:
    return list(
        page.eval_on_selector_all(f"{board} [data-square][{attribute}]", "els => els.map(e => e.dataset.square)")
    )


def finished_transcript(seed: int) -> str:
    board, player = Board(), RandomPlayer(seed)
    while not board.is_game_over():
        board.push(Move.null(board.size) if board.must_pass() else player.choose(board))
    return board.transcript()


def run_all(page: Any) -> list[str]:
    """Run every cell of the open notebook; the errors its outputs show."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    return all_ran(page)


def all_ran(page: Any) -> list[str]:
    """Once every code cell of the open notebook has run and its kernel is idle: the errors its
    outputs show."""
    page.wait_for_function(
        """() => {
            const panel = window.jupyterapp.shell.currentWidget;
            const code = panel.content.widgets.filter(c => c.model.type === 'code');
            return code.every(c => c.model.executionCount) && panel.sessionContext.session.kernel.status === 'idle';
        }""",
        timeout=300_000,
    )
    return list(
        page.evaluate(
            """() => window.jupyterapp.shell.currentWidget.content.widgets.flatMap(c => c.model.type !== 'code'
                ? [] : c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                    .map(o => o.ename + ': ' + o.evalue))"""
        )
    )


#: Run All, asked for the moment the notebook shows its cells (Python is far from ready then); the
#: page keeps what it saw: the kernels the notebook had, every notice shown, and Run All's result.
RUN_ALL_AT_ONCE = """() => {
    window.__early = {asked: null, kernels: [], notices: [], result: undefined};
    const early = window.__early;
    setInterval(() => {
        for (const n of document.querySelectorAll('.jp-toast-message'))
            if (!early.notices.includes(n.textContent)) early.notices.push(n.textContent);
    }, 20);
    const ask = () => {
        const app = window.jupyterapp;
        const panel = app && app.shell.currentWidget;
        const context = panel && panel.sessionContext;
        if (!context || !panel.content.activeCell) { setTimeout(ask, 0); return; }
        const kernel = () => context.session && context.session.kernel;
        const note = () => { const k = kernel(); if (k && !early.kernels.includes(k.id)) early.kernels.push(k.id); };
        note();
        context.kernelChanged.connect(note);
        early.asked = kernel() ? kernel().status : 'no kernel';
        app.commands.execute('notebook:run-all-cells').then(
            (ran) => { early.result = ran; }, (error) => { early.result = String(error); });
    };
    ask();
}"""


def run_all_at_once(page: Any) -> list[str]:
    """Run All as soon as the notebook shows, with Python still starting: the site says so,
    then runs every cell once, on the one kernel the page started. The errors the outputs show."""
    page.evaluate(RUN_ALL_AT_ONCE)
    page.wait_for_function("() => window.__early.asked !== null")
    errors = all_ran(page)
    page.wait_for_function("() => window.__early.result !== undefined")
    early = page.evaluate("() => window.__early")
    assert early["asked"] not in ("idle", "busy"), early  # asked before Python was ready
    assert early["notices"] == ["Python is still starting: the cells will run as soon as it is ready."], early
    assert early["result"] is True and len(early["kernels"]) == 1, early
    assert page.locator(".jp-toast-message").count() == 0  # the notice went once Python was ready
    counts = page.evaluate(
        """() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code').map(c => c.model.executionCount)"""
    )
    assert counts == list(range(1, len(counts) + 1))  # every cell, in order, once
    return errors


@pytest.mark.browser
@pytest.mark.slow
def test_the_play_notebook_in_the_browser_with_nothing_from_outside(site: Site) -> None:
    """The whole play notebook runs; two people play its first board and a refused click
    explains itself as in JupyterLab; three moves against the expert, a hint and a review
    on its board (Python in the browser has no threads); nothing is asked of any address
    but 127.0.0.1. Run All is asked for before Python has started (issue 27: JupyterLab alone
    starts a second kernel, counts the cells as run, runs none and says nothing)."""
    page = site.open("01-play.ipynb", wait_kernel=False)
    assert run_all_at_once(page) == []

    friend = widget(cell_of("01-play.ipynb", "friend = ReversiWidget()"))
    page.click(f'{friend} [data-square="d3"]')
    page.wait_for_selector(f'{friend} [data-square="d3"][data-disc="black"]')
    page.click(f'{friend} [data-square="a1"]')  # White cannot play a1: the reason, in one sentence
    notice = f'{friend} [data-role="notice"]'
    page.wait_for_selector(f'{notice}[data-kind="explain"]:not([hidden])')
    assert page.inner_text(f"{notice} .rw-notice-text") == explain(Board.from_transcript("d3"), "a1").short()
    assert page.get_attribute(f'{friend} [data-square="a1"]', "data-disc") == "empty"

    expert = widget(cell_of("01-play.ipynb", "from reversi_widget.engine import Engine"))
    for move in range(1, 4):
        page.click(f'{expert} [data-square="{squares(page, expert, "data-legal")[0]}"]')
        page.wait_for_function(
            "([v, n]) => document.querySelectorAll(v + ' [data-square]:not([data-disc=\"empty\"])').length >= n",
            arg=[expert, 4 + 2 * move],
        )
        page.wait_for_selector(f'{expert}[data-turn="black"]:not([data-thinking])')
    page.click(f'{expert} [data-action="hint"]')
    page.wait_for_selector(f"{expert} [data-square][data-hint]")
    assert set(squares(page, expert, "data-hint")) <= set(squares(page, expert, "data-legal"))
    assert page.inner_text(f'{expert} [data-role="notice"] .rw-notice-text').startswith("Hint for Black: ")
    printed = run_cell(
        page, "import sys\nprint(sys.platform, friend.board.transcript(), len(expert.moves), expert.hints, 'END')"
    )
    platform, transcript, plies, hints, _ = printed.split(maxsplit=4)
    assert (platform, transcript, plies) == ("emscripten", "d3", "6")
    assert hints.startswith("['") and discs_on(page, expert) == 10

    game = finished_transcript(4)
    run_cell(page, f"expert.white = 'human'\nexpert.load({game!r})\nprint('END')")
    page.click(f'{expert} [data-action="review"]')
    reviewed = len(Board.from_transcript(game).move_stack)
    page.wait_for_function(
        "([v, n]) => document.querySelectorAll(v + ' [data-role=\"review-chart\"] circle[data-ply]').length === n",
        arg=[expert, reviewed + 1],
        timeout=300_000,
    )
    printed = run_cell(page, "print(len(expert.review_moves), expert.busy or '-', 'END')")
    assert printed.split() == [str(reviewed), "-", "END"]

    printed = run_cell(
        page,
        "from reversi_widget.records import GameLog\n"
        "print(GameLog('games.db').path)\n"
        "try:\n    GameLog('/drive/games.db')\nexcept ValueError as error:\n    print(error)\nprint('END')",
    )
    kept, refused, _ = printed.split("\n", 2)
    assert kept == "/tmp/games.db" and refused.startswith("/drive/games.db: SQLite cannot write in JupyterLite's")

    assert not site.outside, site.outside
    # The recorders do see a request outside: the proxy from the page and from a worker (where
    # the kernel runs), Playwright from the page (it misses requests from some workers).
    page.evaluate("""() => {
        fetch('http://outside.invalid/page').catch(() => {});
        const code = "fetch('http://outside.invalid/worker').catch(() => {})";
        new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})));
    }""")
    expected = ["GET http://outside.invalid/page", "GET http://outside.invalid/worker"]
    # A worker starts late on a loaded machine: the wait ends as soon as both are seen, and
    # is long only for a failure (requests outside then never come back).
    deadline = time.monotonic() + 120

    def seen() -> bool:
        return sorted(site.outside.proxied) == expected and "http://outside.invalid/page" in site.outside.requested

    while not seen() and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # Playwright hands over its events only while it waits
    assert sorted(site.outside.proxied) == expected
    assert "http://outside.invalid/page" in site.outside.requested
    site.outside.proxied.clear()
    site.outside.requested.clear()
    page.context.close()


@pytest.mark.browser
@pytest.mark.slow
def test_every_other_example_notebook_runs_in_the_browser(site: Site) -> None:
    """Each starts Python by itself (whatever kernel its file names) and runs without an error.
    They are opened one after the other in one page, as a student would open them, each
    notebook's Python shut down once it has run: the browser compiles Pyodide once, not six times."""
    notebooks = sorted(p.name for p in (ROOT / "examples").glob("*.ipynb") if p.name != "01-play.ipynb")
    page = site.open(notebooks[0])
    for notebook in notebooks:
        if notebook != notebooks[0]:
            page.evaluate("(path) => { window.jupyterapp.commands.execute('docmanager:open', {path}); }", notebook)
            page.wait_for_function(
                f"(path) => ({KERNEL_IDLE})() && window.jupyterapp.shell.currentWidget.context.path === path",
                arg=notebook,
                timeout=180_000,
            )
        assert (notebook, run_all(page)) == (notebook, [])
        page.evaluate(
            """async () => { const panel = window.jupyterapp.shell.currentWidget;
                await panel.sessionContext.shutdown();
                panel.dispose(); }"""
        )
    page.context.close()
    assert not site.outside, site.outside
