"""Time what puzzles cost: proving the shipped set, and mining master games.

Proving re-checks every score and reply of ``reversi_widget/data/puzzles.txt`` with the exact
solver (what CI does); the report gives the median seconds a puzzle per number of empty
squares and the total. Mining runs ``from_games`` over WTHOR games on a local process pool
and reports games and puzzles a second.

    python benchmarks/puzzles.py                         # prove the shipped set
    python benchmarks/puzzles.py --mine 40 --empties 12  # and mine 40 games at 12 empties
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import statistics
import time
from collections import defaultdict
from pathlib import Path

from reversi_widget import read_wthor
from reversi_widget.puzzles import from_games, shipped

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def prove_shipped() -> None:
    seconds: dict[int, list[float]] = defaultdict(list)
    started = time.perf_counter()
    for puzzle in shipped():
        t = time.perf_counter()
        puzzle.prove()
        seconds[puzzle.difficulty.empties].append(time.perf_counter() - t)
    total = time.perf_counter() - started
    for empties in sorted(seconds):
        times = seconds[empties]
        print(f"{empties:2d} empties: {len(times):3d} puzzles, median {statistics.median(times) * 1000:8.1f} ms")
    print(f"proved {sum(map(len, seconds.values()))} puzzles in {total:.1f} s")


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
    args = parser.parse_args()
    prove_shipped()
    if args.mine:
        mine(args.data, args.mine, args.empties, args.workers)


if __name__ == "__main__":
    main()
