"""What the game-record readers cost, up to the largest input they accept.

* WTHOR: reading every record of the database in ``shared/data/wthor`` (records per second),
  and turning records into games (``to_game`` replays every move).
* GGF: real games (WTHOR games written by ``write_ggf``), per character and per game; the
  largest text accepted written two ways: 16 MiB of real games, and ``MAX_GAMES`` of the
  smallest games there are (``(;GM[Othello];)``), with the peak memory of each read.
* the refusal of a 3 GB file (a sparse file: no disk space), which must cost nothing.

Times are CPU seconds of this process (``time.process_time``), the median of ``--repeat`` runs,
as the machine is shared. Run:

    python benchmarks/records.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from reversi_widget import ReversiError
from reversi_widget.ggf import MAX_GAMES, MAX_TEXT_CHARS, load_ggf, read_ggf_games, write_ggf_games
from reversi_widget.wthor import read_wthor

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"
MB = 1 << 20


def cpu_median(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return statistics.median(times)


def peak_memory(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_*.wtb files")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (the median is shown)")
    args = parser.parse_args()
    files = sorted(args.data.glob("WTH_*.wtb"))
    if not files:
        raise SystemExit(f"no WTHOR files in {args.data}")

    records = sum(1 for path in files for _ in read_wthor(path))
    took = cpu_median(lambda: sum(1 for path in files for _ in read_wthor(path)), args.repeat)
    print(f"WTHOR read: {records:,} records in {took:.2f} s: {records / took:,.0f} records/s")
    largest = max(files, key=lambda p: p.stat().st_size)
    sample = list(islice(read_wthor(largest), 2000))
    took = cpu_median(lambda: [record.to_game() for record in sample], args.repeat)
    print(f"WTHOR to_game: {took / len(sample) * 1e6:.0f} us a game ({len(sample):,} games of {largest.name})")

    games = [record.to_game() for record in sample]
    real = write_ggf_games(games)
    took = cpu_median(lambda: read_ggf_games(real), args.repeat)
    print(
        f"GGF real games: {len(real) / MB:.2f} MiB, {len(games):,} games: {took:.2f} s, "
        f"{took / len(real) * 1e6:.2f} us a character, {took / len(games) * 1e6:.0f} us a game, "
        f"peak memory {peak_memory(lambda: read_ggf_games(real)) / len(real):.1f} times the text"
    )
    for name, text in (
        ("16 MiB of real games", (real * (MAX_TEXT_CHARS // len(real) + 1))[:MAX_TEXT_CHARS].rsplit("\n", 1)[0]),
        (f"{MAX_GAMES:,} of the smallest games", "(;GM[Othello];)" * MAX_GAMES),
    ):
        took = cpu_median(lambda text=text: read_ggf_games(text), 1)  # type: ignore[misc]
        peak = peak_memory(lambda text=text: read_ggf_games(text))  # type: ignore[misc]
        print(f"GGF largest accepted, {name}: {len(text) / MB:.1f} MiB in {took:.1f} s, peak {peak / MB:.0f} MB")

    with tempfile.TemporaryDirectory() as folder:
        huge = Path(folder) / "huge.ggf"
        with open(huge, "wb") as handle:
            handle.write(b"(;GM[Othello];)")
            handle.truncate(3 * 1024**3)

        def refuse() -> None:
            try:
                load_ggf(huge)
            except ReversiError:
                return
            raise AssertionError("a 3 GB file was read")

        print(f"GGF 3 GB file refused in {cpu_median(refuse, args.repeat) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
