"""What the browser tests, the Jupyter tests and the latency benchmark share.

Debian's Chromium under Playwright (``playwright install`` cannot download browsers
here), and a JupyterLab server on a free local port with its news pop-up turned off.
"""

from __future__ import annotations

import copy
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from reversi_widget import Board, Move
from reversi_widget.widget import ReversiWidget

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: JupyterLab's news pop-up would cover the page.
NEWS_OVERRIDE = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}


#: True once the notebook open in JupyterLab has a kernel, idle, and cells to run.
KERNEL_IDLE = """() => {
    const app = window.jupyterapp;
    const panel = app && app.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return !!kernel && kernel.status === "idle" && panel.content.widgets.length > 0;
}"""


def play_random(board: Board, rng: random.Random, plies: int | None = None) -> Board:
    """Random legal moves (forced passes included) until the end or until ``board.ply == plies``."""
    while not board.is_game_over() and (plies is None or board.ply < plies):
        if board.must_pass():
            board.push_pass()
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board


def cpu_seconds(thread: threading.Thread | None = None) -> float:
    """CPU seconds used so far by ``thread`` (default: the calling one). What a search costs,
    measured so that a loaded machine does not change it, as it stretches the wall clock: a
    deadline is kept in wall time, so a search that keeps it uses at most that much CPU (plus
    its overrun), and one that ignores it uses far more. Other threads (a background compile,
    another test's) are not counted."""
    if thread is None or thread.ident == threading.get_ident():
        return time.thread_time()
    assert thread.ident is not None, "the thread has not started"
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


#: Seconds to wait at most for a build scripts/test.sh started before the tests.
EARLY_BUILD_WAIT = 1800


def wait_for_early_build(log: Path, script: str) -> tuple[int, str]:
    """(exit status, output) of the build of ``script`` that scripts/test.sh started and that
    writes ``log``, once it has ended (its status goes beside the log, with ``.status`` added)."""
    status = log.with_name(log.name + ".status")
    deadline = time.monotonic() + EARLY_BUILD_WAIT
    while not status.exists():
        if time.monotonic() > deadline:
            return 1, f"{script} started by scripts/test.sh did not end in {EARLY_BUILD_WAIT} s"
        time.sleep(1)
    return int(status.read_text()), log.read_text(errors="replace")


def unavailable(reason: str) -> NoReturn:
    """A test's outside need is missing: a failure in CI (where it must run), a skip elsewhere."""
    import pytest

    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


class MissingBrowser(RuntimeError):
    """Playwright or Chromium is not installed."""


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser, closed on exit. Only one may be open at a time in a
    process: Playwright's sync API refuses a second one."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise MissingBrowser("playwright is not installed") from None
    if not Path(CHROMIUM).exists():
        raise MissingBrowser(f"Chromium not found at {CHROMIUM}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def disable_news() -> None:
    """Write the override that keeps JupyterLab's news pop-up away, merged with what is there."""
    settings = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    path = settings / "overrides.json"
    current = json.loads(path.read_text()) if path.exists() else {}
    if any(current.get(k) != v for k, v in NEWS_OVERRIDE.items()):
        current.update(NEWS_OVERRIDE)
        path.write_text(json.dumps(current, indent=2))


@contextmanager
def jupyter_lab(root: Path, extra_args: Sequence[str] = ()) -> Iterator[str]:
    """A JupyterLab server (which also serves Notebook 7) for ``root``; yields its URL."""
    disable_news()
    port = free_port()
    with (root / "server.log").open("w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyter",
                "lab",
                "--allow-root",
                "--no-browser",
                "--ip=127.0.0.1",
                f"--port={port}",
                "--IdentityProvider.token=",
                "--ServerApp.password=",
                f"--ServerApp.root_dir={root}",
                *extra_args,
            ],
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 300  # ends when the server answers; long only on a loaded machine
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/api/status", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter lab did not start:\n{(root / 'server.log').read_text()}")
                time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# -- the widget model without a browser (tests/test_widget_*.py, tests/stress) ----------------

NOTICE_TRAITS = ("notice", "notice_kind", "notice_id")
# A game (seeded random moves) whose last move, f2, leaves the opponent without a move.
PASS_LINE = (
    "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3a7g5g8c2h4g3a2h3c1d1d2e1f1f7a6h6e2b8g7c8h5g6h2h7h8g1b2"
)
# Neither side can move: a1 and h8 are empty, every line from them is black to the edge.
# 33 black, 29 white, 2 empty (the example of rule R23).
_ROWS = [
    "-XXXXXXX",
    "XXOOOOOX",
    "XOXOOOOX",
    "XOXXOOOX",
    "XOOOXOOX",
    "XOOOOXOX",
    "XOOOOOXX",
    "XXXXXXX-",
]
END_33_29 = "".join(_ROWS) + " X"
FULL_DRAW = "XO" * 32 + " X"
# Black plays c1 and White is wiped out: 3-0 with 61 empty squares.
WIPE_OUT = "XO" + "-" * 62 + " X"


class Capture:
    """Stands in for the front end's end of the comm: records every message Python sends."""

    def __init__(self, widget: ReversiWidget) -> None:
        self.messages: list[dict[str, Any]] = []
        widget.comm.send = self._send

    def _send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.messages.append(copy.deepcopy(data))

    def custom(self) -> list[dict[str, Any]]:
        return [m["content"] for m in self.messages if m.get("method") == "custom"]

    def updates(self) -> dict[str, Any]:
        """The latest value of every trait sent in state updates."""
        state: dict[str, Any] = {}
        for m in self.messages:
            if m.get("method") == "update":
                state.update(m["state"])
        return state

    def clear(self) -> None:
        self.messages.clear()


def widget(**kwargs: Any) -> tuple[ReversiWidget, Capture]:
    w = ReversiWidget(**kwargs)
    return w, Capture(w)


def send(w: ReversiWidget, content: Any, buffers: list[bytes] | None = None) -> None:
    """What a view's model.send(content) becomes on the Python side."""
    w._handle_custom_msg(content, buffers or [])


def snapshot(w: ReversiWidget) -> dict[str, Any]:
    """The whole game as Python and the front end see it, notices aside."""
    state = {k: v for k, v in copy.deepcopy(w.get_state()).items() if k not in NOTICE_TRAITS}
    state["_board"] = w.board.to_string()
    state["_stack"] = [str(m) for m in w.board.move_stack]
    state["_line"] = [str(m) for m in w.line]
    return state


def click(w: ReversiWidget, square: str) -> None:
    send(w, {"kind": "move", "square": square, "ply": w.ply})


def join_workers(w: ReversiWidget) -> None:
    for worker in list(w._workers.threads):
        worker.join(5)
        assert not worker.is_alive()


class Gate:
    """A computer player that waits for the test to let it answer."""

    name = "gate"

    def __init__(self, answer: str | None = None) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.answer = answer
        self.calls = 0

    def choose(self, board: Board) -> Move:
        self.calls += 1
        self.started.set()
        assert self.release.wait(5)
        if self.answer is not None:
            return Move.from_name(self.answer, board.size)
        return next(iter(board.legal_moves))


def as_unprivileged(run: Callable[[], object]) -> str:
    """What ``run()`` returns (``repr``) or raises (``"Type: message"``), run without the right to
    write read-only files. Root has that right, so as root it runs in a forked child that drops
    to the ``nobody`` user first; as anyone else it runs here."""

    def outcome() -> str:
        try:
            return repr(run())
        except Exception as error:
            return f"{type(error).__name__}: {error}"

    if os.geteuid() != 0:
        return outcome()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            text = outcome()
        except BaseException as error:
            text = f"child failed: {error!r}"
        os.write(write_end, text.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        text = pipe.read().decode()
    os.waitpid(pid, 0)
    return text
