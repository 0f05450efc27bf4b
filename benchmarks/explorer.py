"""The opening explorer on the whole WTHOR database: build, add a year, look up, size, dask.

* build: every game of ``shared/data/wthor`` but one year, to ``--depth`` plies, on
  ``--workers`` local processes (wall time, and the CPU seconds the workers used, with the
  machine's load average: on a shared machine the wall time depends on what else runs);
  beside it, in the same run, the time just to read those records (the floor of any build).
* add a year: the held-out year (``--add-year``) added to that index.
* lookup: the median time of ``Explorer.lookup`` and of the widget's panel for it
  (``panel_rows``), over ``--lookups`` positions taken from the games (every ply below the
  depth, symmetric positions and mirror images included).
* size on disk, and per ply: the positions, and the share of games still in a position that
  another game reached too (what a deeper index would add).
* dask: the same build on a ``LocalCluster`` of ``--workers`` processes gives the identical
  index (its tables compared row by row through a hash).

Run (about five minutes here):

    python benchmarks/explorer.py [--depth 24] [--workers 2] [--no-dask]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import random
import resource
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from reversi_widget import Board, explorer
from reversi_widget.wthor import read_wthor, replay
from reversi_widget.wthor_data import wthor_years

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def digest(path: Path) -> str:
    """A hash of both tables, row by row in key order: equal hashes, identical indexes."""
    sha = hashlib.sha256()
    with sqlite3.connect(path) as conn:
        for table, order in (("moves", "position, move"), ("games", "id")):
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY {order}"):
                sha.update(repr(row).encode())
    return sha.hexdigest()[:16]


def depth_table(path: Path, games: int) -> list[tuple[int, int, float]]:
    """(ply, positions, share of games in a position another game reached too)."""
    positions: Counter[int] = Counter()
    alone: Counter[int] = Counter()
    with sqlite3.connect(path) as conn:
        for key, count in conn.execute("SELECT position, sum(games) FROM moves GROUP BY position"):
            pair = int.from_bytes(key[:16], "big")
            ply = (pair >> 64 | pair & (1 << 64) - 1).bit_count() - 4
            positions[ply] += 1
            alone[ply] += count == 1
    return [(ply, positions[ply], 1 - alone[ply] / games) for ply in sorted(positions)]


def probes(files: list[Path], depth: int, count: int) -> list[Board]:
    """Positions from real games at every ply below the depth, some mirrored."""
    rng = random.Random(1)
    records = [record for path in rng.sample(files, min(8, len(files))) for record in read_wthor(path)]
    boards = []
    for record in rng.sample(records, count):
        stack = replay(record).move_stack
        board = Board()
        for move in stack[: rng.randrange(depth)]:
            board.push(move)
        boards.append(board)
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_*.wtb files")
    parser.add_argument("--depth", type=int, default=explorer.DEFAULT_DEPTH, help="plies indexed")
    parser.add_argument("--workers", type=int, default=2, help="local processes (and dask workers)")
    parser.add_argument("--add-year", type=int, default=2019, help="the year held out, then added")
    parser.add_argument("--lookups", type=int, default=2000, help="positions looked up")
    parser.add_argument("--no-dask", action="store_true", help="skip the dask build")
    args = parser.parse_args()
    years = wthor_years(args.data)
    held = years.pop(args.add_year)
    files = list(years.values())
    with tempfile.TemporaryDirectory() as folder:
        index_path = Path(folder) / "index.sqlite"
        started = time.perf_counter()
        records = sum(1 for path in files for _ in read_wthor(path))
        read = time.perf_counter() - started

        cpu = children_cpu()
        started = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            index = explorer.build(files, index_path, pool, depth=args.depth, progress=False)
        built = time.perf_counter() - started
        cpu = children_cpu() - cpu
        report = index.report
        assert report is not None
        print(
            f"build: {report.added:,} games of {len(files)} years to {args.depth} plies on {args.workers} processes: "
            f"{built:.1f} s ({cpu:.1f} CPU s in the workers; load average {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores); reading the {records:,} records alone {read:.1f} s "
            f"({built / read:.0f}x); skipped {len(report.skipped)}"
        )

        started = time.perf_counter()
        added = index.add(held, progress=False)
        print(f"add a year: {added.added:,} games of {held.name} in {time.perf_counter() - started:.2f} s")

        boards = probes(files, args.depth, args.lookups)
        for name, run in (("lookup", index.lookup), ("panel", lambda board: explorer.panel_rows(index, board))):
            times = []
            for board in boards:
                began = time.perf_counter()
                run(board)
                times.append(time.perf_counter() - began)
            print(
                f"{name}: median {statistics.median(times) * 1e3:.2f} ms, 90th percentile "
                f"{statistics.quantiles(times, n=10)[-1] * 1e3:.2f} ms over {len(boards):,} positions"
            )
        total = len(index)
        index.close()
        print(f"size on disk: {index_path.stat().st_size / 1e6:.0f} MB for {total:,} games")
        print("ply  positions  games sharing a position")
        for ply, positions, shared in depth_table(index_path, total):
            print(f"{ply:3d} {positions:10,d} {100 * shared:8.1f}%")

        if not args.no_dask:
            from dask.distributed import Client, LocalCluster

            files.append(held)
            with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
                explorer.build(files, Path(folder) / "processes.sqlite", pool, depth=args.depth, progress=False).close()
            with (
                LocalCluster(
                    n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
                ) as cluster,
                Client(cluster) as client,
            ):
                started = time.perf_counter()
                on_dask = explorer.build(
                    files, Path(folder) / "dask.sqlite", client.get_executor(), depth=args.depth, progress=False
                )
                took = time.perf_counter() - started
                on_dask.close()
            same = digest(Path(folder) / "dask.sqlite") == digest(Path(folder) / "processes.sqlite")
            print(
                f"dask LocalCluster ({args.workers} workers): {took:.1f} s; identical to the process-built one: {same}"
            )


if __name__ == "__main__":
    main()
