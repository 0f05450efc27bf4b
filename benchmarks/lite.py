"""The zero-install site (scripts/lite.sh) against JupyterLab, measured in headless Chromium.

* size: the site's bytes and files on disk, the same gzip-compressed (what a host that
  compresses sends), and what a first visit downloads before the first board is drawn.
* page to first board: from opening the play notebook's address to the first square of
  its first board, running the import cell and the board's cell as a student would: in a
  new browser profile (nothing cached) and on a second visit (the browser's cache warm).
  The same in JupyterLab on this machine, with its Python kernel.
* the expert per move: ``Engine("expert").choose`` on the same five midgame positions, run
  in a cell (seconds, depth reached, nodes per second), and from a click on its board to
  its reply drawn. Python in the browser (Pyodide) against the CPython of JupyterLab.

Medians. Run (builds the site first unless ``--no-build``):

    python benchmarks/lite.py [--visits 3] [--no-build]

Needs Python 3.12+ and npm for the build, jupyterlab, playwright and Chromium.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# The helpers are the tests' own: run this from the repository root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.lite_site import ROOT, SITE, build_site, lite_browser, open_notebook, run_cell, serve, site_size
from tests.support import KERNEL_IDLE, jupyter_lab

NOTEBOOK = "01-play.ipynb"
IMPORT_CELL, BOARD_CELL = 1, 3  # the import, then `friend = ReversiWidget()`

# Run the two cells and resolve once the first square is drawn.
FIRST_BOARD = """async ([cells]) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    for (const i of cells) {
        panel.content.activeCellIndex = i;
        await app.commands.execute('notebook:run-cell');
    }
    const node = panel.content.widgets[cells[cells.length - 1]].node;
    await new Promise((resolve) => {
        const drawn = () => node.querySelector('.reversi-widget [data-square]');
        const check = () => (drawn() ? resolve() : requestAnimationFrame(check));
        check();
    });
}"""

ENGINE_CELL = """import json, time
from reversi_widget import Board, Engine, Move
from reversi_widget.players import RandomPlayer
board, player, positions = Board(), RandomPlayer(7), []
while len(positions) < 5:
    board.push(Move.null(board.size) if board.must_pass() else player.choose(board))
    if board.ply % 8 == 0:
        positions.append(board.copy())
engine, rows = Engine("expert", seed=1), []
for position in positions:
    start = time.perf_counter()
    engine.choose(position)
    info = engine.last_search
    rows.append([time.perf_counter() - start, info.depth, info.nodes])
print(json.dumps(rows), "END")"""

# Click the first legal square of the board in the last cell; resolve with the ms until the
# expert's reply is drawn (two more discs, nobody thinking).
EXPERT_REPLY = """async () => {
    const boards = document.querySelectorAll('.jp-Notebook .reversi-widget');
    const root = boards[boards.length - 1];
    const discs = () => root.querySelectorAll('[data-square]:not([data-disc="empty"])').length;
    const before = discs();
    const t0 = performance.now();
    root.querySelector('[data-square][data-legal]').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await new Promise((resolve) => {
        const check = () => (discs() >= before + 2 && !root.hasAttribute('data-thinking')
            && root.getAttribute('data-turn') === 'black') ? resolve() : setTimeout(check, 5);
        check();
    });
    return performance.now() - t0;
}"""


def compressed_size(site: Path) -> int:
    return sum(len(gzip.compress(p.read_bytes(), 6)) for p in site.rglob("*") if p.is_file())


def engine_and_replies(page: Any, moves: int) -> tuple[list[list[float]], list[float]]:
    rows = json.loads(run_cell(page, ENGINE_CELL).split("END")[0])
    run_cell(
        page,
        "from reversi_widget import ReversiWidget\nw = ReversiWidget(white='expert', animation='off')\n"
        "display(w)\nprint('END')",
    )
    page.wait_for_selector(".jp-Notebook .reversi-widget [data-square][data-legal]")
    replies = [float(page.evaluate(EXPERT_REPLY)) for _ in range(moves)]
    return rows, replies


def in_the_browser(visits: int, moves: int) -> dict[str, Any]:
    served: list[tuple[str, int]] = []
    cold, warm = [], []
    with serve(SITE, served) as url, lite_browser() as (browser, outside, proxy):
        for visit in range(visits):
            served.clear()
            start = time.monotonic()
            page = open_notebook(browser, url, outside, proxy, NOTEBOOK)
            page.evaluate(FIRST_BOARD, [[IMPORT_CELL, BOARD_CELL]])
            cold.append(time.monotonic() - start)
            first_visit = (sum(size for _, size in served), len(served))
            if visit == 0:
                page.reload()
                start = time.monotonic()
                page.wait_for_function(KERNEL_IDLE, timeout=180_000)
                page.evaluate(FIRST_BOARD, [[IMPORT_CELL, BOARD_CELL]])
                warm.append(time.monotonic() - start)
                rows, replies = engine_and_replies(page, moves)
            page.context.close()
        assert not outside, outside
    return {"cold": cold, "warm": warm, "first visit": first_visit, "engine": rows, "replies": replies}


def in_jupyterlab(visits: int, moves: int) -> dict[str, Any]:
    from tests.support import chromium

    root = Path(tempfile.mkdtemp(prefix="reversi-lite-bench-"))
    shutil.copy(ROOT / "examples" / NOTEBOOK, root / NOTEBOOK)
    cold = []
    flags = ["--LabApp.expose_app_in_browser=True"]
    with jupyter_lab(root, flags) as url, chromium() as browser:
        for visit in range(visits):
            context = browser.new_context(viewport={"width": 1300, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(120_000)
            start = time.monotonic()
            page.goto(f"{url}/lab/tree/{NOTEBOOK}?reset")
            page.wait_for_function(KERNEL_IDLE, timeout=60_000)
            page.evaluate(FIRST_BOARD, [[IMPORT_CELL, BOARD_CELL]])
            cold.append(time.monotonic() - start)
            if visit == 0:
                rows, replies = engine_and_replies(page, moves)
            page.evaluate("() => window.jupyterapp.commands.execute('kernelmenu:shutdown')")
            context.close()
    shutil.rmtree(root, ignore_errors=True)
    return {"cold": cold, "engine": rows, "replies": replies}


def engine_line(rows: list[list[float]]) -> str:
    seconds = statistics.median(r[0] for r in rows)
    depth = statistics.median(r[1] for r in rows)
    rate = statistics.median(r[2] / r[0] for r in rows)
    return f"{seconds:.2f} s a move, depth {depth:g}, {rate:,.0f} nodes/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visits", type=int, default=3, help="first visits to time in a new browser profile")
    parser.add_argument("--moves", type=int, default=5, help="clicks answered by the expert, timed")
    parser.add_argument("--no-build", action="store_true", help="measure lite/_output as it is")
    args = parser.parse_args()
    if not args.no_build:
        build_site()
    size, files = site_size(SITE)
    print(f"site: {size / 1e6:.1f} MB in {files} files on disk, {compressed_size(SITE) / 1e6:.1f} MB gzip-compressed")
    lite = in_the_browser(args.visits, args.moves)
    lab = in_jupyterlab(args.visits, args.moves)
    downloaded, requests = lite["first visit"]
    print(f"first visit downloads {downloaded / 1e6:.1f} MB in {requests} requests (uncompressed, as served here)")
    print(
        f"page to first board: site {statistics.median(lite['cold']):.1f} s first visit, "
        f"{statistics.median(lite['warm']):.1f} s cached; JupyterLab {statistics.median(lab['cold']):.1f} s"
    )
    print(f"expert in a cell: site {engine_line(lite['engine'])}; JupyterLab {engine_line(lab['engine'])}")
    print(
        f"click to the expert's reply drawn: site {statistics.median(lite['replies']) / 1000:.2f} s, "
        f"JupyterLab {statistics.median(lab['replies']) / 1000:.2f} s"
    )


if __name__ == "__main__":
    main()
