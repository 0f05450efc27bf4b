"""What a fresh process waits for before its first board, and before its first analysis.

Each figure is timed in a fresh Python process (imports included), taking turns with the same
figure of an older copy of the package when ``--baseline DIR`` names one (a checkout of an
earlier commit, e.g. made with ``git worktree add /tmp/baseline origin/main``), so a change
is measured against what it replaced in one run:

* first board: ``import reversi_widget``, ``ReversiWidget(...)`` and its state, what the front
  end receives to draw (for a plain widget, and one with the expert to move first);
* first analysis: ``analyse()`` of an opening position, the first that needs an evaluation
  (on the pure path, as in a fresh process before the compiled core has loaded).

    python benchmarks/first_use.py [--runs 15] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

FIRST_BOARD = """
import time
start = time.perf_counter()
from reversi_widget import ReversiWidget
widget = ReversiWidget({arguments})
widget.get_state()
widget._repr_mimebundle_()
print(time.perf_counter() - start)
"""

FIRST_ANALYSIS = """
import time
from reversi_widget import Board, analyse
board = Board.from_transcript("f5d6c3d3c4f4c5b3c2e6")
start = time.perf_counter()
analyse(board)
print(time.perf_counter() - start)
"""

FIGURES = {
    "first board, ReversiWidget()": FIRST_BOARD.format(arguments=""),
    "first board, ReversiWidget(black='expert')": FIRST_BOARD.format(arguments="black='expert'"),
    "first analysis (pure path)": FIRST_ANALYSIS,
}


def seconds(code: str, tree: Path | None) -> float:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd="/")
    return float(done.stdout.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--baseline", type=Path, help="a checkout of an older copy of the package")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees: dict[str, Path | None] = {"this copy": here}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    for name, code in FIGURES.items():
        times: dict[str, list[float]] = {tree: [] for tree in trees}
        for _ in range(args.runs):
            for tree, path in trees.items():
                times[tree].append(seconds(code, path))
        figures = ", ".join(f"{tree} {1000 * statistics.median(t):.0f} ms" for tree, t in times.items())
        print(f"{name}: {figures} (medians of {args.runs})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
