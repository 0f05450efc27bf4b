"""How close the inverted goal's evaluations come to exact scores, on games never trained on.

The inverted goal (fewer discs wins) has no master games, so the test set is self-play like
the training set (``reversi_widget.selfplay``), of another seed: the position each game reaches
at a given number of empties, solved exactly. For the hand-made inverted evaluation
(``make_evaluator(8, "inverted")``) and the learned one (``pattern_weights_inverted.bin``) it
reports, against the exact margin for the side to move (fewer discs wins):

* the mean absolute error in discs of the static evaluation and of depth-4 searches (the
  package's pure ``MidgameSearch`` with each evaluation at its leaves);
* the correlation, the share with the right winner (the estimate rounded to whole discs has
  the exact margin's sign), the right sign (drawn positions left out) and the spread of the
  estimates over that of the truth (1.0 = real discs).

Predicting 0 everywhere is the baseline row. Solving costs seconds a position at 20 empties
and tens of seconds at 22 (the inverted goal solves slower than the classic one).

    python benchmarks/evaluation_inverted.py                       # 100 positions at 16 and at 20 empties
    python benchmarks/evaluation_inverted.py --empties 22 --positions 30
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evaluation import Evaluate, print_rows, row, static

from reversi_widget import native
from reversi_widget.geometry import geometry
from reversi_widget.search import INFINITY, score_to_margin
from reversi_widget.search.endgame import make_endgame
from reversi_widget.search.evaluate import make_evaluator
from reversi_widget.search.midgame import MidgameSearch
from reversi_widget.search.patterns import INVERTED_WEIGHTS_FILE, make_pattern_evaluator, read_weights
from reversi_widget.selfplay import SelfPlaySettings, play_game

GOAL = "inverted"


@dataclass(frozen=True)
class Position:
    mover: int
    opponent: int
    exact: int  # the exact final margin for the mover, fewer discs winning


def test_positions(seed: int, empties: int, count: int) -> tuple[list[Position], float]:
    """(the position at ``empties`` of games 0, 1, ... of ``seed``, solved exactly, until
    ``count`` are found; seconds spent solving)."""
    settings = SelfPlaySettings(goal=GOAL)
    solver = make_endgame(8, GOAL)
    out: list[Position] = []
    solving = 0.0
    number = 0
    while len(out) < count:
        game = play_game(seed, number, settings)
        number += 1
        reached = next((pos for pos in game.positions if pos.empties <= empties), None)
        if reached is None or reached.empties != empties:
            continue  # over before, or the side to move passed there
        start = time.perf_counter()
        exact = solver.search(reached.mover, reached.opponent, -INFINITY, INFINITY)
        solving += time.perf_counter() - start
        out.append(Position(reached.mover, reached.opponent, exact))
        done = f"{len(out)}/{count} solved ({solving:.0f} s)"
        print(f"\r  {empties} empties: {done}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out, solving


def searched(evaluate: Evaluate, depth: int, positions: Sequence[Position]) -> tuple[list[float], float]:
    """(estimated margins, nodes per second) of depth-``depth`` inverted-goal searches."""
    moves = geometry(8).moves
    estimates = []
    nodes, start = 0, time.perf_counter()
    for pos in positions:
        search = MidgameSearch(8, GOAL, "count", evaluate)
        score = search.negamax(pos.mover, pos.opponent, depth, -INFINITY, INFINITY, moves(pos.mover, pos.opponent))
        estimates.append(score_to_margin(score)[0])
        nodes += search.take_nodes()
    return estimates, nodes / max(1e-9, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=INVERTED_WEIGHTS_FILE)
    parser.add_argument("--empties", default="16,20", help="comma-separated empties of the test positions")
    parser.add_argument("--positions", type=int, default=100, help="test positions at each number of empties")
    parser.add_argument("--depth", type=int, default=4, help="depth of the searches")
    parser.add_argument("--seed", type=int, default=2, help="seed of the test games (never the training seed)")
    args = parser.parse_args(argv)
    weights = read_weights(args.weights)
    if weights.goal != GOAL:
        parser.error(f"{args.weights} holds weights for the {weights.goal} goal")
    trained = weights.notes.get("seed")
    if trained == args.seed:
        parser.error(f"seed {args.seed} made the training games of {args.weights}: choose another")
    try:
        empties = [int(e) for e in args.empties.split(",")]
    except ValueError:
        parser.error(f"--empties takes numbers separated by commas, got {args.empties!r}")
    native.wait("midgame")
    native.wait("endgame")
    evaluators = {"hand-made": make_evaluator(8, GOAL), "learned": make_pattern_evaluator(args.weights, GOAL)}
    print(
        f"learned weights: {weights.notes.get('games')} self-play games of seed {trained}, "
        f"{weights.notes.get('positions')} positions; test games of seed {args.seed}"
    )
    for count in empties:
        positions, solving = test_positions(args.seed, count, args.positions)
        truth = [p.exact for p in positions]
        print(f"\n{len(positions)} test positions at {count} empties, solved exactly in {solving:.0f} s")
        rows = [row("always 0", [0.0] * len(truth), truth)]
        for name, evaluate in evaluators.items():
            rows.append(row(f"{name} static", static(evaluate, positions)[0], truth))
        for name, evaluate in evaluators.items():
            estimates, nps = searched(evaluate, args.depth, positions)
            rows.append(row(f"{name} depth {args.depth}", estimates, truth))
            print(f"  {name} depth {args.depth}: {nps:,.0f} nodes/s", file=sys.stderr)
        print_rows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
