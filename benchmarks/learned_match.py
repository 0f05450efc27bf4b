"""The expert as it ships (the learned pattern evaluation on 8x8) against today's expert with
the hand-made evaluation (``Engine(..., learned=False)``), both on the compiled core, under
the classic goal or (``--goal inverted``, fewer discs wins) the inverted one.

Both play through the package's own search at the same time per move; only the evaluation at
the leaves differs (the learned one unperturbed, the hand-made one with the expert's usual
small random perturbation). The compiled kernels are ready before the first game, so neither
side plays a move on the pure path. Every opening (random 4-ply starts from a seed) is played
twice, colours swapped. Draws count half.

    python benchmarks/learned_match.py --openings 20 --seconds 1.0
    python benchmarks/learned_match.py --pure      # both on the pure-Python path instead
    python benchmarks/learned_match.py --goal inverted
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from reversi_widget import BLACK, Board, Rules, native
from reversi_widget.engine import Engine


def openings(count: int, seed: int, rules: Rules, plies: int = 4) -> list[list[str]]:
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        board = Board(rules=rules)
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
        moves = [str(m) for m in board.move_stack]
        if moves not in out:
            out.append(moves)
    return out


def play(black: Engine, white: Engine, opening: list[str], rules: Rules) -> tuple[int, list[int]]:
    """Black's final margin as the goal counts it (positive: Black won), and the depth each
    estimated move reached: positive for Black's moves, negative for White's."""
    board = Board(rules=rules)
    for name in opening:
        board.push(name)
    depths: list[int] = []
    while not board.is_game_over():
        engine = black if board.turn == BLACK else white
        board.push(engine.choose(board))
        info = engine.last_search
        if info is not None and not info.proven and info.depth:
            depths.append(info.depth if engine is black else -info.depth)
    margin = board.count(True) - board.count(False)
    return (-margin if rules.goal == "inverted" else margin), depths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--pure", action="store_true", help="play both sides on the pure-Python path")
    parser.add_argument("--goal", choices=["classic", "inverted"], default="classic")
    args = parser.parse_args()
    rules = Rules(goal=args.goal)
    if args.pure:
        os.environ[native.PURE_ENV] = "1"
    else:
        start = time.perf_counter()
        if not all([native.wait(name) for name in native.KERNELS]):
            raise SystemExit(f"the compiled core is not available: {native.failure()}")
        print(f"compiled kernels ready after {time.perf_counter() - start:.1f} s", flush=True)
    path = "pure Python" if args.pure else "compiled"
    points = 0.0
    games = wins = draws = 0
    margins: list[int] = []
    learned_depths: list[int] = []
    hand_depths: list[int] = []
    start = time.perf_counter()
    for index, opening in enumerate(openings(args.openings, args.seed, rules)):
        for learned_black in (True, False):
            # No opening book: its values come from the learned evaluation, and this compares evaluations.
            learned = Engine("expert", time_limit=args.seconds, seed=index, book=False)
            hand = Engine("expert", time_limit=args.seconds, seed=index, learned=False, book=False)
            if learned_black:
                margin, depths = play(learned, hand, opening, rules)
            else:
                margin, depths = play(hand, learned, opening, rules)
                margin, depths = -margin, [-d for d in depths]
            learned_depths += [d for d in depths if d > 0]
            hand_depths += [-d for d in depths if d < 0]
            points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            wins += margin > 0
            draws += margin == 0
            games += 1
            margins.append(margin)
            print(
                f"opening {index + 1:2d} {' '.join(opening)}: learned as {'black' if learned_black else 'white'} "
                f"{margin:+d}; score {points:g}/{games} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    share = 100 * points / games
    print(
        f"learned expert vs hand-made expert, {args.goal} goal, {path}, {args.seconds:g} s a move:"
        f" {wins}/{draws}/{games - wins - draws}"
        f" (won/drawn/lost), {points:g}/{games} = {share:.1f}%; median margin {statistics.median(margins):+g} discs;"
        f" median depth of estimated moves {statistics.median(learned_depths or [0]):g} (learned)"
        f" vs {statistics.median(hand_depths or [0]):g} (hand-made)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
