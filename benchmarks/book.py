"""The opening book's figures: size, reading and look-up times, how much its values move with
depth (which sets ``book.CLOSE``), the variety and cost of its choices, and how long master
games stay in it.

* **file**: the shipped book's header, size, and the seconds a fresh process takes to read it
  (median of ``--runs`` fresh interpreters) and a look-up takes (median over book positions);
* **depth shift**: ``--sample`` book positions searched at the book's depth and two plies
  deeper (every legal move, ``book_build.best_move``): the median change of the value, which
  ``CLOSE`` is set against; also one ply deeper, for the odd-even shift;
* **variety**: ``--lines`` games from the start where both sides play from the book as the
  engine does (``pick(..., leaving=False)``, seeded): distinct lines, plies in the book, and the
  discs the choices gave away by the book's own values (best value minus the value chosen);
* **coverage** (``--coverage``, a few minutes): a book of the games up to 2018 at several
  ``--min-games`` thresholds, and how many plies the 2019-2021 games stay in each;
* **match** (``--match N``): the expert with the book against the expert without it, 1 s a
  move, ``N`` random 4-ply openings (``learned_match.openings``) each played with both colours.
  Both sides search with the same engine, so this shows what the book adds to (or takes from)
  that engine, not its worth against another.

    python benchmarks/book.py [--runs 9] [--sample 200] [--lines 200] [--coverage] [--match 10]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from reversi_widget import Board, Engine, Move, Rules, native
from reversi_widget.book import BOOK_FILE, CLOSE, canonical, load_book
from reversi_widget.geometry import geometry
from reversi_widget.squares import BLACK

READ = """
import time
start = time.perf_counter()
from reversi_widget.book import read_book
read_book({path!r})
print(time.perf_counter() - start)
"""


def sides(board: Board) -> tuple[int, int]:
    black, white = board.bitboards()
    return (black, white) if board.turn == BLACK else (white, black)


def board_of(p: int, o: int) -> Board:
    cells = "".join("X" if p >> sq & 1 else "O" if o >> sq & 1 else "-" for sq in range(64))
    return Board(f"{cells} X")


def file_figures(runs: int) -> None:
    book = load_book()
    header = book.header
    print(
        f"{BOOK_FILE.name}: {BOOK_FILE.stat().st_size:,} bytes, {len(book):,} positions from {header['games']:,} "
        f"games ({header['years']}), positions of {header['min_games']}+ games up to ply {header['max_ply']}, "
        f"searched at depth {header['depth']}; extensions: {header['extensions']}"
    )
    reads = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", READ.format(path=str(BOOK_FILE))], capture_output=True, text=True, check=True
        )
        reads.append(float(done.stdout.split()[-1]))
    print(f"read in a fresh process (import included): median {statistics.median(reads) * 1000:.0f} ms of {runs}")
    rng = random.Random(1)
    rows = rng.sample(range(len(book)), min(1000, len(book)))
    boards = [board_of(book.movers[row], book.opponents[row]) for row in rows]
    times = []
    for board in boards:
        start = time.perf_counter()
        book.lookup(board)
        times.append(time.perf_counter() - start)
    plies = [(book.movers[row] | book.opponents[row]).bit_count() - 4 for row in range(len(book))]
    print(
        f"lookup of a book position: median {statistics.median(times) * 1e6:.0f} µs over {len(boards)}; "
        f"positions by ply: {[plies.count(ply) for ply in range(max(plies) + 1)]}"
    )


def depth_shift(sample: int) -> None:
    from reversi_widget.book_build import best_move

    native.wait("midgame")
    book = load_book()
    depth = int(book.header["depth"])
    geo = geometry(8)
    rng = random.Random(2)
    rows = rng.sample(range(len(book)), sample)
    shifts: dict[int, list[float]] = {1: [], 2: []}
    seconds: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}
    for row in rows:
        p, o = book.movers[row], book.opponents[row]
        values = {}
        for extra in (0, 1, 2):
            start = time.process_time()
            values[extra] = best_move(p, o, geo.moves(p, o), depth + extra)[1] / 100
            seconds[extra] += time.process_time() - start
        for extra in (1, 2):
            shifts[extra].append(values[extra] - values[0])
    for extra, found in shifts.items():
        size = [abs(x) for x in found]
        print(
            f"depth {depth} -> {depth + extra}, {sample} book positions: median |change| {statistics.median(size):.2f} "
            f"discs, mean {statistics.mean(size):.2f}, mean signed {statistics.mean(found):+.2f}; "
            f"share under {CLOSE:g} disc {sum(x < CLOSE for x in size) / sample:.0%}"
        )
    print("CPU seconds a position: " + ", ".join(f"depth {depth + k}: {s / sample:.3f}" for k, s in seconds.items()))


def variety(lines: int) -> None:
    book = load_book()
    seen = set()
    lengths, costs = [], []
    for seed in range(lines):
        rng = random.Random(seed)
        board = Board()
        line, cost = [], 0.0
        while True:
            moves = book.lookup(board)
            picked = book.pick(board, rng, leaving=False)
            if picked is None:
                break
            cost += moves[0].value - picked.value
            board.push(picked.move)
            line.append(canonical(*sides(board))[0])
        seen.add(tuple(line))
        lengths.append(len(line))
        costs.append(cost / 2)  # each side's share
    print(
        f"{lines} seeded games from the start, both sides from the book (moves within {CLOSE:g} disc of the best): "
        f"{len(seen)} distinct lines, median {statistics.median(lengths)} plies in the book (range "
        f"{min(lengths)}-{max(lengths)}); discs a side gave away by the book's values: median "
        f"{statistics.median(costs):.2f}, mean {statistics.mean(costs):.2f}, max {max(costs):.2f}"
    )


def coverage() -> None:
    from reversi_widget.book_build import MAX_PLY, count_positions, read_records, select
    from reversi_widget.squares import parse_square
    from reversi_widget.train import DEFAULT_DATA

    native.wait("moves")
    records = read_records(DEFAULT_DATA, None, 0, False)
    train = [r for r in records if r.year <= 2018]
    test = [r for r in records if r.year >= 2019]
    geo = geometry(8)
    for min_games in (2, 3, 5, 8, 10, 20):
        tree = select(count_positions(train, MAX_PLY, min_games, False), min_games)
        plies = []
        for record in test:
            board_p, board_o = 0x0000000810000000, 0x0000001008000000
            count = 0
            for name in record.moves[:MAX_PLY]:
                sq = parse_square(name)
                f = geo.flips(board_p, board_o, sq)
                board_p, board_o = board_o ^ f, board_p | f | (1 << sq)
                if canonical(board_p, board_o)[0] not in tree:
                    break
                count += 1
            plies.append(count)
        print(
            f"positions of {min_games:2d}+ games of {len(train):,} (1977-2018): {len(tree):6,} positions; "
            f"the {len(test):,} games of 2019-2021 stay in it for a mean {statistics.mean(plies):.1f} plies "
            f"(median {statistics.median(plies):g}, 10+ plies {sum(p >= 10 for p in plies) / len(plies):.0%}, "
            f"20+ {sum(p >= 20 for p in plies) / len(plies):.0%})",
            flush=True,
        )


class Counting(Engine):
    """The engine, noting for every move whether it came from the book."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.from_book: list[bool] = []

    def choose(self, board: Board) -> Move:
        move = super().choose(board)
        self.from_book.append(self.last_search is not None and self.last_search.book)
        return move


def match(count: int, seconds: float) -> None:
    from learned_match import openings, play

    native.wait("midgame")
    rules = Rules()
    points, margins, booked = 0.0, [], []
    for index, opening in enumerate(openings(count, 7, rules)):
        for book_black in (True, False):
            with_book = Counting("expert", time_limit=seconds, seed=index)
            without = Engine("expert", time_limit=seconds, seed=index, book=False)
            black, white = (with_book, without) if book_black else (without, with_book)
            margin = play(black, white, opening, rules)[0]
            margin = margin if book_black else -margin
            points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            margins.append(margin)
            booked.append(sum(with_book.from_book))
            print(
                f"opening {' '.join(opening)}: book as {'black' if book_black else 'white'}, margin {margin:+d}, "
                f"{sum(with_book.from_book)} of its {len(with_book.from_book)} moves from the book",
                flush=True,
            )
    games = len(margins)
    print(
        f"with the book against without, {games} games at {seconds:g} s a move: {points:g}/{games} "
        f"({points / games:.1%}), mean margin {statistics.mean(margins):+.1f}, median "
        f"{statistics.median(margins):+g}; book moves a game: median {statistics.median(booked):g}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes timing the read")
    parser.add_argument("--sample", type=int, default=200, help="book positions searched deeper")
    parser.add_argument("--lines", type=int, default=200, help="seeded games from the start")
    parser.add_argument("--coverage", action="store_true", help="also measure coverage at several thresholds")
    parser.add_argument("--match", type=int, default=0, help="openings of the match with and without the book")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds a move in the match")
    args = parser.parse_args()
    file_figures(args.runs)
    variety(args.lines)
    depth_shift(args.sample)
    if args.coverage:
        coverage()
    if args.match:
        match(args.match, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
