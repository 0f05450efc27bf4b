"""Make the puzzle set shipped with the package: ``reversi_widget/data/puzzles.txt``.

The shipped file is exactly what this command writes (from the repository's root, with the
shared WTHOR folder beside the clone, and the ``fast`` extra installed)::

    python scripts/make_puzzles.py --wthor ../shared/data/wthor --seed 2026

The WTHOR games are shuffled with the seed; each quota below (board size, goal, empty
squares, how many) takes one puzzle per game from the next games in that order, mined by
``reversi_widget.puzzles.from_games`` on a process pool. The 6x6 puzzles come from games
the package's engine plays against itself from seeded random openings (the database has no
6x6 games). The same seed, data and package version give the same file. The quotas of 17 to
20 empties (15 to 19 for the inverted goal) come last, so the shallower part of the set stays
what it was before they were added. Those deep positions need the compiled solver
(``reversi_widget.native``): the script waits for it in every process, and stops if it cannot
be had (pure Python would take hours).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import sys
import time
from collections import Counter
from pathlib import Path

from reversi_widget import Board, Engine, Game, Rules, native, read_wthor
from reversi_widget.puzzles import Puzzle, from_games, write_puzzles

ROOT = Path(__file__).resolve().parents[1]

#: (size, goal, empties, puzzles wanted, games per round, master's move filter)
QUOTAS: list[tuple[int, str, int, int, int, str]] = [
    *[(8, "classic", e, 21, 40, "interesting") for e in range(8, 13)],
    (8, "classic", 13, 12, 30, "interesting"),
    (8, "classic", 14, 8, 30, "interesting"),
    *[(8, "classic", e, 5, 20, "interesting") for e in (15, 16)],
    *[(8, "inverted", e, 8, 30, "any") for e in range(8, 13)],
    (8, "inverted", 13, 6, 30, "any"),
    (8, "inverted", 14, 4, 30, "any"),
    *[(6, "classic", e, 4, 20, "any") for e in (8, 10, 12, 14)],
    *[(6, "inverted", e, 2, 20, "any") for e in (8, 10, 12)],
    # The deep end, mined and proved with the compiled solver. The inverted goal stops at 19
    # empties: its proofs at 20 took 15-34 s each (the solver cuts off less there), more than
    # all the other puzzles together, and CI re-proves every puzzle.
    *[(8, "classic", e, 4, 20, "interesting") for e in range(17, 21)],
    *[(8, "inverted", e, 2, 20, "any") for e in range(15, 20)],
]


def compiled_solver() -> None:
    """Wait for the compiled solver (each worker process runs this first)."""
    if not native.wait("endgame"):
        raise SystemExit(f"the compiled solver is needed for the deep puzzles: {native.failure()}")


def wthor_games(folder: Path, rng: random.Random) -> list[Game]:
    """Every finished WTHOR game, shuffled (records are turned into games when used)."""
    records = [record for path in sorted(folder.glob("WTH_*.wtb")) for record in read_wthor(path)]
    rng.shuffle(records)
    return [record.to_game() for record in records[:20_000]]


def engine_games(size: int, count: int, seed: int) -> list[Game]:
    """Games of the engine against itself from random openings of 6 to 9 plies."""
    rng = random.Random(seed)
    games = []
    for number in range(count):
        board = Board(rules=Rules(size=size))
        for _ in range(rng.randint(6, 9)):
            if board.is_game_over():
                break
            board.push_pass() if board.must_pass() else board.push(rng.choice(list(board.legal_moves)))
        engines = (Engine(3, seed=seed + 2 * number), Engine(3, seed=seed + 2 * number + 1))
        while not board.is_game_over():
            board.push_pass() if board.must_pass() else board.push(engines[board.ply % 2].choose(board))
        games.append(
            Game.from_board(
                board,
                black_player=f"engine {seed + 2 * number}",
                white_player=f"engine {seed + 2 * number + 1}",
                event=f"{size}x{size} engine games",
            )
        )
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wthor", type=Path, default=ROOT.parent / "shared" / "data" / "wthor")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=ROOT / "reversi_widget" / "data" / "puzzles.txt")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    compiled_solver()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    pools = {8: wthor_games(args.wthor, rng), 6: engine_games(6, 400, args.seed)}
    print(f"{len(pools[8])} WTHOR games, {len(pools[6])} 6x6 games ({time.perf_counter() - started:.0f} s)")
    next_game = dict.fromkeys(pools, 0)
    puzzles: list[Puzzle] = []
    names: set[str] = set()
    with concurrent.futures.ProcessPoolExecutor(args.workers, initializer=compiled_solver) as pool:
        for size, goal, empties, wanted, batch, played in QUOTAS:
            got = 0
            while got < wanted:
                games = pools[size][next_game[size] : next_game[size] + batch]
                if not games:
                    sys.exit(f"ran out of {size}x{size} games for {goal} puzzles at {empties} empties")
                next_game[size] += batch
                found = from_games(games, empties, goal=goal, played=played, per_game=1, executor=pool, progress=False)
                for puzzle in found[: wanted - got]:
                    if puzzle.name in names:
                        continue
                    names.add(puzzle.name)
                    puzzles.append(puzzle)
                    got += 1
            print(f"{size}x{size} {goal} {empties} empties: {got} ({time.perf_counter() - started:.0f} s)", flush=True)
    puzzles.sort(key=lambda p: (-p.rules.size, p.rules.goal, p.difficulty.empties, p.difficulty.level, p.name))
    write_puzzles(puzzles, args.out)
    tasks = Counter(p.task for p in puzzles)
    levels = Counter(p.difficulty.level for p in puzzles)
    print(f"{len(puzzles)} puzzles in {args.out}: tasks {dict(tasks)}, levels {dict(sorted(levels.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
