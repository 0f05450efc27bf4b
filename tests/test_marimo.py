"""The widget in a real marimo app in Chromium: a cell that reads the game runs again after
every move, the human's click and the computer's reply alike (docs/howto/use-it-in-marimo.md)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support import free_port, unavailable

pytestmark = [pytest.mark.browser, pytest.mark.slow]

APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    from reversi_widget import ReversiWidget
    from reversi_widget.players import GreedyPlayer

    board = mo.ui.anywidget(ReversiWidget(white=GreedyPlayer(seed=1), animation="off"))
    board
    return board, mo


@app.cell
def _(board, mo):
    mo.md(f"MOVES[{' '.join(board.widget.moves)}] STATUS[{board.widget.status}]")
    return


if __name__ == "__main__":
    app.run()
"""


def test_a_cell_reading_the_game_runs_again_after_each_move(tmp_path: Path, browser: Any) -> None:
    try:
        import marimo  # noqa: F401
    except ImportError:
        unavailable("marimo is not installed")
    (tmp_path / "app.py").write_text(APP)
    port = free_port()
    log = (tmp_path / "marimo.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "marimo", "run", "app.py", "--headless", "--no-token", "--port", str(port)],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "marimo.log").read_text()
                time.sleep(0.3)
        page = browser.new_page(viewport={"width": 1200, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(url)
        board = ".reversi-widget"
        page.wait_for_selector(f'{board} [data-square="d3"][data-legal]')
        page.wait_for_selector("text=MOVES[] STATUS[Black to move]")
        page.click(f'{board} [data-square="d3"]')
        # the click and the computer's reply each reach the cell below the board
        text = page.wait_for_selector("text=/MOVES\\[d3 [a-h][1-8]\\] STATUS\\[Black to move\\]/").inner_text()
        reply = text.split("MOVES[d3 ")[1][:2]
        assert page.get_attribute(f'{board} [data-square="{reply}"]', "data-disc") == "white"
        legal = page.eval_on_selector_all(f"{board} [data-square][data-legal]", "els => els.map(e => e.dataset.square)")
        page.click(f'{board} [data-square="{legal[0]}"]')
        page.wait_for_selector(f"text=/MOVES\\[d3 {reply} {legal[0]} [a-h][1-8]\\]/")
        page.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
