"""The expert with the learned inverted evaluation against today's inverted expert, on 8x8.

Inverted goal: fewer discs wins. Both play at the same time per move; every opening (random
4-ply starts from a seed) is played twice, colours swapped; draws count half.

``--today pure`` (the default) runs both on the pure-Python ``MidgameSearch``, so only the
evaluation at the leaves differs (the learned one unperturbed, today's hand-made one with the
expert's usual small random perturbation), and both hand the end to the same solver at the
same point. ``--today compiled`` plays against the expert as it is shipped, whose search runs
compiled (many times more nodes a second) and solves from further out.

    python benchmarks/learned_match_inverted.py --openings 20 --seconds 1.0
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from reversi_widget import BLACK, Board, native
from reversi_widget.engine import Engine, Midgame, MidgameSearch
from reversi_widget.evaluation import Evaluate, default_weights, make_evaluator
from reversi_widget.patterns import INVERTED_WEIGHTS_FILE, make_pattern_evaluator
from reversi_widget.rules import Rules

RULES = Rules(goal="inverted")


class PureEngine(Engine):
    """``Engine`` whose 8x8 searches run on the pure ``MidgameSearch`` with ``evaluation()``."""

    def evaluation(self, board: Board) -> Evaluate:
        weights = default_weights(board.rules.goal).perturbed(self._rng, self.settings.spread)
        return make_evaluator(board.size, board.rules.goal, weights)

    def _search_for(self, board: Board) -> Midgame:
        rules = board.rules
        key = (rules.size, rules.goal, rules.scoring, False)
        search = self._searches.get(key)
        if search is None:
            search = MidgameSearch(rules.size, rules.goal, rules.scoring, self.evaluation(board))
            search.stop = self.stop_signal
            self._searches[key] = search
        return search


class LearnedEngine(PureEngine):
    """The pure search with the learned inverted pattern evaluation at its leaves."""

    weights: Path = INVERTED_WEIGHTS_FILE

    def evaluation(self, board: Board) -> Evaluate:
        if board.size != 8 or board.rules.goal != "inverted":
            return super().evaluation(board)
        return make_pattern_evaluator(self.weights, "inverted")


def openings(count: int, seed: int, plies: int = 4) -> list[list[str]]:
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        board = Board(rules=RULES)
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
        moves = [str(m) for m in board.move_stack]
        if moves not in out:
            out.append(moves)
    return out


def play(black: Engine, white: Engine, opening: list[str]) -> int:
    """Black's final margin under the inverted goal: White's discs minus Black's."""
    board = Board(rules=RULES)
    for name in opening:
        board.push(name)
    while not board.is_game_over():
        engine = black if board.turn == BLACK else white
        board.push(engine.choose(board))
    return board.count(False) - board.count(True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--weights", type=Path, default=INVERTED_WEIGHTS_FILE)
    parser.add_argument("--today", choices=("pure", "compiled"), default="pure", help="how today's expert searches")
    args = parser.parse_args()
    native.wait("midgame")
    native.wait("endgame")
    LearnedEngine.weights = args.weights
    points = 0.0
    games = 0
    start = time.perf_counter()
    for index, opening in enumerate(openings(args.openings, args.seed)):
        for learned_black in (True, False):
            learned = LearnedEngine("expert", time_limit=args.seconds, seed=index)
            today_class = PureEngine if args.today == "pure" else Engine
            today = today_class("expert", time_limit=args.seconds, seed=index)
            margin = play(learned, today, opening) if learned_black else -play(today, learned, opening)
            points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            games += 1
            print(
                f"opening {index + 1:2d} {' '.join(opening)}: learned as {'black' if learned_black else 'white'} "
                f"{margin:+d}; score {points:g}/{games} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    share = 100 * points / games
    print(
        f"learned inverted expert vs today's ({args.today}) at {args.seconds} s a move: "
        f"{points:g}/{games} = {share:.0f}%"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
