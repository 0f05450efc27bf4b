"""How long ``review()`` of a whole 8x8 game takes, on games of several kinds, and where the time goes.

Games from the WTHOR database (real tournament games, replayed to their end), chosen the same
way every run from ``--years``:

* close: a full board won by 2 discs at most (60 plies);
* wipe-out: one colour has no disc left at the end, after 55 plies or more;
* passes: four passes or more, 62 plies or more, both colours still on the board.

Each game is reviewed as ``review(game)`` (the defaults a notebook and the widget use) on the
compiled core, in a fresh process per game so no table carries over; ``--widget`` also times the
widget's review, from ``w.review()`` to ``w.wait()`` returning. With ``--parts`` the seconds
inside the exact solving at the end, the analyses and the deeper checks are added up, to see
which one a slow review spends its time in. ``--baseline DIR`` times an older copy of the
package (a checkout of an earlier commit) on the same games, in turns, and prints the ratios.

Target: every 60-70-ply review under 5 s.

    python benchmarks/review.py [--data ../shared/data/wthor] [--per-kind 3] [--baseline DIR] [--widget]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"
TARGET_SECONDS = 5.0

#: Run in a fresh interpreter (the package under test on its path): reviews one game given as
#: a transcript with passes, and prints its figures as JSON.
REVIEW_ONE = r"""
import json, sys, time
from reversi_widget import Board, native
from reversi_widget import analysis

moves, parts, widget = sys.argv[1].split(), sys.argv[2] == "1", sys.argv[3] == "1"
if not (native.wait("midgame") and native.wait("endgame")):
    raise SystemExit("the compiled core is not available")
board = Board()
for move in moves:
    board.push_pass() if move == "pass" else board.push(move)
spent = {}

def timed(name, function):
    def run(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started
    return run

try:  # review() lives in game_review since the per-move searches moved out of analysis
    from reversi_widget import game_review as reviewing
except ImportError:
    reviewing = analysis
if parts:  # the deeper checks are _checked_deeper in older copies, judged (after analyse) since
    reviewing._exact_values = timed("exact", reviewing._exact_values)
    reviewing.analyse = timed("analyses", reviewing.analyse)
    checks = "_checked_deeper" if hasattr(reviewing, "_checked_deeper") else "judged"
    setattr(reviewing, checks, timed("checks", getattr(reviewing, checks)))
warm = Board.from_transcript("f5d6c3d3c4f4c5b3c2e6")
analysis.analyse(warm)  # the evaluation's weights read, as in a notebook that has analysed before
spent.clear()
started, cpu = time.perf_counter(), time.process_time()
reviews = analysis.review(board)
figures = {"seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu, "parts": dict(spent)}
figures["exact_from"] = next((r.ply for r in reviews if r.exact and not r.forced), None)
if widget:
    from reversi_widget.widget import ReversiWidget
    w = ReversiWidget(board)
    started = time.perf_counter()
    w.review()
    assert w.wait(300) and w.review_moves
    figures["widget"] = time.perf_counter() - started
print(json.dumps(figures))
"""


def pick_games(folder: Path, years: range, per_kind: int) -> dict[str, list[tuple[str, list[str]]]]:
    """(name, moves with passes) of the first ``per_kind`` games of each kind in those years."""
    from reversi_widget.wthor import read_wthor, replay

    kinds: dict[str, list[tuple[str, list[str]]]] = {"close": [], "wipe-out": [], "passes": []}
    for year in years:
        path = folder / f"WTH_{year}.wtb"
        if not path.exists():
            continue
        for index, record in enumerate(read_wthor(path), 1):
            board = replay(record)
            outcome = board.outcome()
            if outcome is None:
                continue
            passes = sum(1 for move in board.move_stack if not move)
            moves = [str(move) if move else "pass" for move in board.move_stack]
            name = f"{year} #{index} {outcome.black}-{outcome.white}, {board.ply} plies, {passes} passes"
            if board.ply == 60 and abs(outcome.black - outcome.white) <= 2:
                kind = "close"
            elif min(outcome.black, outcome.white) == 0 and board.ply >= 55:
                kind = "wipe-out"
            elif passes >= 4 and board.ply >= 62 and min(outcome.black, outcome.white) > 0:
                kind = "passes"
            else:
                continue
            if len(kinds[kind]) < per_kind:
                kinds[kind].append((name, moves))
        if all(len(games) >= per_kind for games in kinds.values()):
            break
    return kinds


def review_in(tree: Path | None, moves: list[str], parts: bool, widget: bool) -> dict[str, Any]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run(
        [sys.executable, "-c", REVIEW_ONE, " ".join(moves), str(int(parts)), str(int(widget))],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the review failed ({tree or 'this tree'}):\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the WTHOR folder")
    parser.add_argument("--years", default="2000-2021", help="first-last year to pick games from")
    parser.add_argument("--per-kind", type=int, default=3, help="games of each kind")
    parser.add_argument("--baseline", type=Path, help="a checkout of an older copy of the package")
    parser.add_argument("--parts", action="store_true", help="add up the time of each part of the review")
    parser.add_argument("--widget", action="store_true", help="time the widget's review too")
    args = parser.parse_args()
    first, last = (int(year) for year in args.years.split("-"))
    games = pick_games(args.data, range(first, last + 1), args.per_kind)
    here = Path(__file__).resolve().parent.parent
    trees: dict[str, Path | None] = {"this": here}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    for tree in trees.values():  # compile (or load) each tree's kernels before timing anything
        review_in(tree, games["close"][0][1][:40], False, False) if games["close"] else None
    seconds: dict[str, list[float]] = {name: [] for name in trees}
    for kind, chosen in games.items():
        print(f"\n{kind}:")
        for name, moves in chosen:
            line = [f"  {name}:"]
            for label, tree in trees.items():
                figures = review_in(tree, moves, args.parts, args.widget)
                seconds[label].append(figures["seconds"])
                text = f"{label} {figures['seconds']:.2f} s (cpu {figures['cpu']:.2f})"
                if args.widget:
                    text += f", widget {figures['widget']:.2f} s"
                if figures["parts"]:
                    text += " [" + ", ".join(f"{k} {v:.2f}" for k, v in sorted(figures["parts"].items())) + "]"
                if figures.get("exact_from") is not None:
                    text += f", exact from ply {figures['exact_from']}"
                line.append(text)
            print(" ".join(line), flush=True)
    print()
    for label, values in seconds.items():
        if values:
            median, worst = statistics.median(values), max(values)
            under = sum(v < TARGET_SECONDS for v in values)
            print(f"{label}: median {median:.2f} s, max {worst:.2f} s over {len(values)} reviews; {under} under 5 s")
    if args.baseline is not None and seconds["this"]:
        ratios = [b / t for t, b in zip(seconds["this"], seconds["baseline"], strict=True)]
        print(f"baseline / this: median {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
