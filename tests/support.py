"""What the browser tests, the Jupyter tests and the latency benchmark share.

Debian's Chromium under Playwright (``playwright install`` cannot download browsers
here), and a JupyterLab server on a free local port with its news pop-up turned off.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from reversi_widget import Board

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
            deadline = time.monotonic() + 60
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
