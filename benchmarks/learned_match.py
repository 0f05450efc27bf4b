"""The expert with the learned pattern evaluation against today's expert, on 8x8.

Both play through the package's own search at the same time per move; only the evaluation at
the leaves differs (the learned one unperturbed, today's with the expert's usual small random
perturbation). Every opening (random 4-ply starts from a seed) is played twice, colours
swapped. Draws count half.

    python benchmarks/learned_match.py --openings 20 --seconds 1.0
"""

from __future__ import annotations

import argparse
import random
import time

from reversi_widget import BLACK, Board
from reversi_widget.engine import Engine, MidgameSearch
from reversi_widget.patterns import make_pattern_evaluator


class LearnedEngine(Engine):
    """``Engine`` whose 8x8 classic searches evaluate with the learned patterns."""

    def _search_for(self, board: Board) -> MidgameSearch:
        rules = board.rules
        key = (rules.size, rules.goal, rules.scoring)
        if key not in self._searches and rules.size == 8 and rules.goal == "classic":
            self._searches[key] = MidgameSearch(8, "classic", rules.scoring, make_pattern_evaluator())
        return super()._search_for(board)


def openings(count: int, seed: int, plies: int = 4) -> list[list[str]]:
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        board = Board()
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
        moves = [str(m) for m in board.move_stack]
        if moves not in out:
            out.append(moves)
    return out


def play(black: Engine, white: Engine, opening: list[str]) -> int:
    """Black's final disc margin."""
    board = Board()
    for name in opening:
        board.push(name)
    while not board.is_game_over():
        engine = black if board.turn == BLACK else white
        board.push(engine.choose(board))
    return board.count(True) - board.count(False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    points = 0.0
    games = 0
    start = time.perf_counter()
    for index, opening in enumerate(openings(args.openings, args.seed)):
        for learned_black in (True, False):
            learned = LearnedEngine("expert", time_limit=args.seconds, seed=index)
            today = Engine("expert", time_limit=args.seconds, seed=index)
            margin = play(learned, today, opening) if learned_black else -play(today, learned, opening)
            points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            games += 1
            print(
                f"opening {index + 1:2d} {' '.join(opening)}: learned as {'black' if learned_black else 'white'} "
                f"{margin:+d}; score {points:g}/{games} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    share = 100 * points / games
    print(f"learned expert vs today's expert at {args.seconds} s a move: {points:g}/{games} = {share:.0f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
