"""Time the exact endgame solver on real positions with 14 to 24 empty squares.

Positions come from WTHOR tournament games in ``shared/data/wthor`` (replayed until the wanted
number of empties); each is solved with a time limit (60 s by default). The report gives the
seconds, nodes and nodes per second of every solve, and the largest number of empties for
which every position was solved within the limit. At 24 empties the database records the
perfect-play score, which the solver's answer is checked against when it gets there.

    python benchmarks/endgame.py                       # 14, 16, ... 24 empties, 3 positions each
    python benchmarks/endgame.py --empties 14 15 16 --positions 5
    python benchmarks/endgame.py --six --limit 600     # try the whole 6x6 game from the start
"""

from __future__ import annotations

import argparse
import statistics
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from reversi_widget import BLACK, Board, Move, Rules
from reversi_widget.solver import solve

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def wthor_games(path: Path) -> Iterator[tuple[list[int], int]]:
    """(squares played, theoretical Black score) of each game of a .wtb file, with the
    package's reader when it is there, else straight from the bytes (16-byte header, 68-byte
    records: 8 bytes then 60 move bytes of 10 * row + column)."""
    try:
        from reversi_widget.squares import parse_square
        from reversi_widget.wthor import read_wthor

        for record in read_wthor(path):
            yield [parse_square(name) for name in record.moves], record.theoretical_score
        return
    except ImportError:
        pass
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 4)
    for index in range(count):
        record = data[16 + 68 * index : 16 + 68 * (index + 1)]
        squares = [(b // 10 - 1) * 8 + b % 10 - 1 for b in record[8:68] if b]
        yield squares, record[7]


def position_at(squares: list[int], empties: int) -> Board | None:
    """The game's position with ``empties`` empty squares and a move to make, or None."""
    board = Board()
    for square in squares:
        if board.empty_count() == empties:
            break
        if board.must_pass():
            board.push_pass()
        board.push(Move(square))
    if board.empty_count() != empties or board.is_game_over():
        return None
    if board.must_pass():
        board.push_pass()
    return board


def positions(data: Path, empties: int, count: int) -> list[tuple[Board, int]]:
    """``count`` positions with ``empties`` empties, from the most recent files first."""
    found: list[tuple[Board, int]] = []
    for path in sorted(data.glob("WTH_*.wtb"), reverse=True):
        for squares, theoretical in wthor_games(path):
            board = position_at(squares, empties)
            if board is not None:
                found.append((board, theoretical))
                if len(found) == count:
                    return found
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_*.wtb files")
    parser.add_argument("--empties", type=int, nargs="*", default=[14, 16, 18, 20, 22, 24])
    parser.add_argument("--positions", type=int, default=3, help="positions per number of empties")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds allowed for one solve")
    parser.add_argument("--six", action="store_true", help="solve 6x6 from the start instead")
    args = parser.parse_args(argv)
    if args.six:
        board = Board(rules=Rules(size=6))
        start = time.perf_counter()
        try:
            solution = solve(board, time_limit=args.limit)
        except TimeoutError:
            print(f"6x6 from the start: not solved within {args.limit:.0f} s")
            return 0
        print(f"6x6 from the start: {solution} in {time.perf_counter() - start:.1f} s, {solution.nodes} nodes")
        return 0
    if not args.data.is_dir():
        print(f"skipping: no WTHOR folder at {args.data}")
        return 0
    largest = None
    for empties in args.empties:
        cases = positions(args.data, empties, args.positions)
        times, rates, all_solved = [], [], bool(cases)
        for board, theoretical in cases:
            try:
                solution = solve(board, time_limit=args.limit)
            except TimeoutError:
                print(f"{empties} empties: {board.to_string()} not solved within {args.limit:.0f} s", flush=True)
                all_solved = False
                break
            rate = solution.nodes / max(solution.seconds, 1e-9)
            times.append(solution.seconds)
            rates.append(rate)
            check = ""
            if empties == 24:
                # Black's discs under perfect play, counting the empties as the database does.
                black_margin = solution.score if board.turn == BLACK else -solution.score
                check = f", database says Black {theoretical}, solver says Black {(64 + black_margin) // 2}"
            print(
                f"{empties} empties: score {solution.score:+d} best {' '.join(map(str, solution.best_moves))}, "
                f"{solution.seconds:.2f} s, {solution.nodes} nodes, {rate:,.0f} nodes/s{check}",
                flush=True,
            )
        if times:
            print(
                f"== {empties} empties: median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
                f"median {statistics.median(rates):,.0f} nodes/s over {len(times)} positions",
                flush=True,
            )
        if not all_solved:
            break
        largest = empties
    print(f"largest number of empties solved within {args.limit:.0f} s: {largest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
