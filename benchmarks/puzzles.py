"""Time what puzzles cost: proving the shipped set, and mining master games.

Proving re-checks every score and reply of ``reversi_widget/data/puzzles.txt`` with the exact
solver, as CI does (compiled, the deepest first, on two threads). The report gives, per board
size and number of empty squares, the puzzles and the median and slowest seconds of one proof
on the compiled path, then the whole set one puzzle after the other and on two threads. The
peer is the pure-Python path, measured in the same run in a child process
(``REVERSI_WIDGET_PURE=1``) on the puzzles of up to ``--pure-empties`` empty squares (deeper
ones take it minutes each), next to the compiled path on the same puzzles. Mining runs
``from_games`` over WTHOR games on a local process pool and reports games and puzzles a second.

    python benchmarks/puzzles.py                         # prove the shipped set
    python benchmarks/puzzles.py --mine 40 --empties 12  # and mine 40 games at 12 empties
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from reversi_widget import native, read_wthor
from reversi_widget.puzzles import Puzzle, from_games, shipped
from reversi_widget.search.endgame import make_endgame

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def prove_one(puzzle: Puzzle) -> float:
    """Seconds to re-prove one puzzle with a fresh solver, as the CI test does."""
    search = make_endgame(puzzle.rules.size, puzzle.rules.goal, puzzle.rules.scoring)
    started = time.perf_counter()
    puzzle.prove(search)
    return time.perf_counter() - started


def prove_seconds(puzzles: list[Puzzle]) -> list[float]:
    return [prove_one(puzzle) for puzzle in puzzles]


def up_to(empties: int) -> list[Puzzle]:
    return [p for p in shipped() if p.difficulty.empties <= empties]


def pure_peer(empties: int) -> float:
    """Seconds the pure path takes on the puzzles of up to ``empties`` empties, in a child."""
    env = {**os.environ, native.PURE_ENV: "1"}
    command = [sys.executable, __file__, "--pure-child", str(empties)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def prove_shipped(pure_empties: int) -> None:
    if not native.wait("endgame"):
        sys.exit(f"the compiled solver is not available: {native.failure()}")
    puzzles = shipped()
    seconds: dict[tuple[int, int], list[float]] = defaultdict(list)
    for puzzle, took in zip(puzzles, prove_seconds(puzzles), strict=True):
        seconds[puzzle.rules.size, puzzle.difficulty.empties].append(took)
    for (size, empties), times in sorted(seconds.items(), key=lambda item: (-item[0][0], item[0][1])):
        median, slowest = statistics.median(times) * 1000, max(times) * 1000
        where = f"{size}x{size} {empties:2d} empties: {len(times):3d} puzzles"
        print(f"{where}, median {median:8.1f} ms, slowest {slowest:8.1f} ms")
    print(f"one after the other: {sum(map(sum, seconds.values())):.1f} s for {len(puzzles)} puzzles")
    deepest_first = sorted(puzzles, key=lambda p: -p.difficulty.empties)
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        list(pool.map(prove_one, deepest_first))
    print(f"on two threads, the deepest first (the CI test): {time.perf_counter() - started:.1f} s wall")
    if pure_empties:
        subset = up_to(pure_empties)
        compiled = sum(prove_seconds(subset))
        pure = pure_peer(pure_empties)
        print(
            f"up to {pure_empties} empties ({len(subset)} puzzles): compiled {compiled:.1f} s, pure {pure:.1f} s, "
            f"compiled/pure {compiled / pure:.3f}"
        )


def mine(data: Path, games: int, empties: int, workers: int) -> None:
    records = list(itertools.islice(read_wthor(data / "WTH_2000.wtb"), games))
    started = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        found = from_games(records, empties, played="any", executor=pool, progress=False)
    seconds = time.perf_counter() - started
    print(
        f"mined {games} games at {empties} empties on {workers} processes: {len(found)} puzzles in {seconds:.1f} s "
        f"({games / seconds:.1f} games/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--mine", type=int, default=0, help="games to mine (0: do not mine)")
    parser.add_argument("--empties", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pure-empties", type=int, default=14, help="the pure peer's deepest puzzles (0: no peer)")
    parser.add_argument("--pure-child", type=int, default=0, help=argparse.SUPPRESS)  # the peer's own process
    args = parser.parse_args()
    if args.pure_child:
        print(sum(prove_seconds(up_to(args.pure_child))))
        return
    prove_shipped(args.pure_empties)
    if args.mine:
        mine(args.data, args.mine, args.empties, args.workers)


if __name__ == "__main__":
    main()
