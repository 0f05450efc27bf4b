"""The opening book of 8x8 classic Reversi: master-game openings, valued by the engine.

The book is a set of positions, each with the side to move to play. Its tree is every
position seen in enough WTHOR master games (``book_build``), and every position reached
from one by an engine extension (``book extend``). A position and its seven images under
the symmetries of the board (mirrors, turns, the diagonal flips) are one *entry*, stored
once in the orientation whose bitboards sort first; ``lookup`` finds a board in any
orientation and gives its moves in that orientation.

Each entry holds, in centi-discs for its side to move:

* ``leave``: the best move that leaves the book (its children not in the book) and its
  value, from the engine's search of the position with the book's moves excluded; none when
  every legal move stays in the book;
* ``value``: the best of ``leave`` and of the book's moves, each worth the negated value of
  the entry it leads to (a minimax over the book's tree, from the leaves to the root).

Values are estimates of the final disc margin (the engine's learned evaluation at the
book's depth, minimaxed), not proven results. ``choose`` plays one of the moves within
``CLOSE`` discs of the best, at random: the values cannot tell such moves apart (see
``CLOSE``), and the engine does not play the same line every game.

File layout (little-endian): the magic ``b"RWOPENBOOK"``, a uint16 format version, uint32
lengths of the JSON header and of the payload, the CRC-32 of header and payload together,
the JSON header (how the book was made: games read, depth, entries ...), then the payload,
zlib-compressed columns of ``entries`` rows sorted by (mover, opponent): mover and opponent
bitboards (uint64 each), master games through the position (uint32), value and leave value
(int16 each, ``NO_VALUE`` for no move leaving the book), leave square (int8, -1 for none).

The book is read on first use (``load_book``), with the standard library only; building it
(``python -m reversi_widget.book build``) needs the ``train`` extra. A missing, damaged or
foreign file is refused with an ``InvalidPositionError`` naming it.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import sys
import threading
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from .board import Board, Move
from .errors import InvalidPositionError, ReversiError
from .geometry import geometry, squares_of
from .squares import BLACK

__all__ = [
    "BOOK_FILE",
    "CLOSE",
    "ENGINE_LEVELS",
    "Book",
    "BookMove",
    "applies",
    "canonical",
    "choose",
    "load_book",
    "lookup",
    "pick",
    "read_book",
]

MAGIC = b"RWOPENBOOK"
VERSION = 1
PREFIX = struct.Struct("<HIII")  # version, header length, payload length, CRC-32
BOOK_FILE = Path(__file__).parent / "data" / "opening_book.bin"
#: The leave value of an entry whose legal moves all stay in the book.
NO_VALUE = -32768
#: The largest value a position can have, in centi-discs (a whole board).
MAX_VALUE = 6400
#: The columns of the payload: (typecode, bytes) of each, in order.
COLUMNS = (("Q", 8), ("Q", 8), ("I", 4), ("h", 2), ("h", 2), ("b", 1))
ROW_BYTES = sum(size for _, size in COLUMNS)
#: ``choose`` plays any move whose value is within this many discs of the best move's. The
#: book's values come from searches a few plies deep; the same positions searched two plies
#: deeper move by about a disc and a half (the median of ``book_build`` at build time,
#: kept in the header as ``depth_shift``), so a smaller gap is noise, and any move within it
#: is as good as the best by what the book knows.
CLOSE = 1.0
#: The engine levels that play from the book (``Engine(level, book=True)``).
ENGINE_LEVELS = (5, 6, 7)

SIZE = 8


# -- the symmetries of the board --------------------------------------------------------


def _mirror(x: int) -> int:
    """Columns reversed (a <-> h): the bits of every byte reversed."""
    x = ((x >> 1) & 0x5555555555555555) | ((x & 0x5555555555555555) << 1)
    x = ((x >> 2) & 0x3333333333333333) | ((x & 0x3333333333333333) << 2)
    return ((x >> 4) & 0x0F0F0F0F0F0F0F0F) | ((x & 0x0F0F0F0F0F0F0F0F) << 4)


def _flip(x: int) -> int:
    """Rows reversed (1 <-> 8): the bytes reversed."""
    x = ((x >> 8) & 0x00FF00FF00FF00FF) | ((x & 0x00FF00FF00FF00FF) << 8)
    x = ((x >> 16) & 0x0000FFFF0000FFFF) | ((x & 0x0000FFFF0000FFFF) << 16)
    return (x >> 32) | ((x & 0xFFFFFFFF) << 32)


def _transpose(x: int) -> int:
    """Rows and columns exchanged (a2 <-> b1): the board flipped on its a1-h8 diagonal."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x = x ^ t ^ (t >> 28)  # (not ^=: numpy would change the caller's array)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x = x ^ t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    return x ^ t ^ (t >> 7)


def images(x: int) -> tuple[int, ...]:
    """The eight images of a bitboard: symmetry ``s`` mirrors the columns if ``s & 1``, then
    reverses the rows if ``s & 2``, then transposes if ``s & 4``. (Written on ints, and
    also correct on numpy uint64 arrays, which ``book_build`` passes.)"""
    mirrored = _mirror(x)
    plain = (x, mirrored, _flip(x), _flip(mirrored))
    return (*plain, *(_transpose(y) for y in plain))


def _square_images() -> tuple[tuple[int, ...], ...]:
    """``SQUARE_IMAGES[s][sq]``: where symmetry ``s`` takes square ``sq``."""
    by_square = [images(1 << sq) for sq in range(64)]
    return tuple(tuple(by_square[sq][s].bit_length() - 1 for sq in range(64)) for s in range(8))


SQUARE_IMAGES = _square_images()
#: ``SQUARE_ORIGINS[s][sq]``: the square that symmetry ``s`` takes to ``sq``.
SQUARE_ORIGINS = tuple(tuple(images_s.index(sq) for sq in range(64)) for images_s in SQUARE_IMAGES)


def canonical(p: int, o: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The entry key of a position (mover ``p``, opponent ``o``): the least of its eight
    images, and every symmetry that takes the position there (more than one when the
    position is symmetric itself)."""
    ps, os = images(p), images(o)
    key = min(zip(ps, os, strict=True))
    return key, tuple(s for s in range(8) if ps[s] == key[0] and os[s] == key[1])


# -- the book ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BookMove:
    """A move the book knows in a position, with the book's estimate of it.

    ``value``: the final disc margin the side to move can expect after the move (an
    estimate). ``games``: the master games that reached the position after it (0 for a
    position added by an engine extension, or for a move leaving the book). ``in_book``:
    False for the best move that leaves the book, valued by the engine's search alone."""

    move: Move
    value: float
    games: int
    in_book: bool

    def __str__(self) -> str:
        where = f"{self.games} games" if self.in_book else "leaves the book"
        return f"{self.move} {self.value:+.2f} ({where})"


class Book:
    """The entries of a book file, searched by key; ``lookup`` and ``choose`` ask it about a
    board. Read one with ``read_book`` (or the shipped one with ``load_book``)."""

    def __init__(self, path: Path, header: dict[str, Any], columns: Sequence[array[Any]]) -> None:
        self.path = path
        self.header = header
        self.movers, self.opponents, self.games, self.values, self.leave_values, self.leave_squares = columns

    def __len__(self) -> int:
        return len(self.movers)

    def __repr__(self) -> str:
        return f"<Book {self.path.name}: {len(self)} positions, depth {self.header.get('depth')}>"

    def index(self, p: int, o: int) -> int | None:
        """The row of the entry of ``(p, o)`` (any orientation), or None when not in the book."""
        (p, o), _ = canonical(p, o)
        return self._row(p, o)

    def _row(self, p: int, o: int) -> int | None:
        """The row of an entry key, or None."""
        movers, opponents = self.movers, self.opponents
        row = bisect_left(movers, p)
        while row < len(movers) and movers[row] == p:
            if opponents[row] == o:
                return row
            row += 1
        return None

    def value(self, p: int, o: int) -> float | None:
        """The book's value of a position for its side to move, in discs, or None."""
        row = self.index(p, o)
        return None if row is None else self.values[row] / 100

    def lookup(self, board: Board) -> list[BookMove]:
        """The book's moves in ``board``, best first: every legal move that leads to a book
        position, and the best move leaving the book (with its images, when the position is
        symmetric: they are the same move). Empty when the board is not in the book: another
        size or goal, a finished game, a pass, or a position the book does not hold."""
        if not applies(board):
            return []
        black, white = board.bitboards()
        p, o = (black, white) if board.turn == BLACK else (white, black)
        key, symmetries = canonical(p, o)
        row = self._row(*key)
        if row is None:
            return []
        geo = geometry(SIZE)
        found: list[BookMove] = []
        for sq in squares_of(geo.moves(p, o)):
            f = geo.flips(p, o, sq)
            child = self.index(o ^ f, p | f | (1 << sq))
            if child is not None:
                found.append(BookMove(Move(sq, SIZE), -self.values[child] / 100, self.games[child], True))
        leave = self.leave_squares[row]
        if leave >= 0:
            value = self.leave_values[row] / 100
            squares = sorted({SQUARE_ORIGINS[s][leave] for s in symmetries})
            found.extend(BookMove(Move(sq, SIZE), value, 0, False) for sq in squares)
        found.sort(key=lambda m: (-m.value, -m.games, m.move.square))
        return found

    def pick(self, board: Board, rng: random.Random, *, leaving: bool = True) -> BookMove | None:
        """One of the book's moves within ``CLOSE`` discs of the best, chosen with ``rng``;
        None when the board is not in the book. With ``leaving=False`` only moves that stay
        in the book are candidates (None when none is close to the best): the engine plays
        those, and searches for itself where the book knows only its own search."""
        moves = self.lookup(board)
        if not moves:
            return None
        best = moves[0].value
        close = [m for m in moves if m.value >= best - CLOSE and (leaving or m.in_book)]
        return rng.choice(close) if close else None

    def choose(self, board: Board, rng: random.Random, *, leaving: bool = True) -> Move | None:
        """The move to play from the book (see ``pick``), or None when out of book."""
        picked = self.pick(board, rng, leaving=leaving)
        return None if picked is None else picked.move


# -- the file ---------------------------------------------------------------------------


def _little_endian(column: array[Any]) -> array[Any]:
    """A column in the file's byte order (a swapped copy on a big-endian machine)."""
    if sys.byteorder == "big" and column.itemsize > 1:
        column = array(column.typecode, column)
        column.byteswap()
    return column


def write_book(path: Path, header: dict[str, Any], columns: Sequence[array[Any]]) -> int:
    """Write a book file of ``columns`` (``COLUMNS``' types, rows sorted by key) and
    ``header``; return its size in bytes."""
    rows = len(columns[0])
    if len(columns) != len(COLUMNS) or any(len(c) != rows for c in columns):
        raise ValueError(f"a book has {len(COLUMNS)} columns of one length each")
    for column, (typecode, size) in zip(columns, COLUMNS, strict=True):
        if column.typecode != typecode or column.itemsize != size:
            raise ValueError(f"book column of type {column.typecode!r}, expected {typecode!r} of {size} bytes")
    header = {**header, "entries": rows}
    head = json.dumps(header, sort_keys=True).encode()
    payload = zlib.compress(b"".join(_little_endian(c).tobytes() for c in columns), 9)
    crc = zlib.crc32(payload, zlib.crc32(head))
    data = MAGIC + PREFIX.pack(VERSION, len(head), len(payload), crc) + head + payload
    path.write_bytes(data)
    return len(data)


def read_book(path: str | Path) -> Book:
    """Read and check a book file; refuse anything else, naming the file and the fault."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InvalidPositionError(
            f"opening book {path} cannot be read ({error.strerror or error}); "
            "reinstall the package or build it with `python -m reversi_widget.book build`"
        ) from None
    start = len(MAGIC) + PREFIX.size
    if len(data) < start or not data.startswith(MAGIC):
        raise InvalidPositionError(f"opening book {path} is not an opening book file (bad magic bytes)")
    version, head_length, payload_length, crc = PREFIX.unpack_from(data, len(MAGIC))
    if version != VERSION:
        raise InvalidPositionError(f"opening book {path} has format version {version}; expected {VERSION}")
    if len(data) != start + head_length + payload_length:
        raise InvalidPositionError(
            f"opening book {path} is damaged: {len(data)} bytes where its lengths give "
            f"{start + head_length + payload_length} (cut short or extended)"
        )
    head, payload = data[start : start + head_length], data[start + head_length :]
    if zlib.crc32(payload, zlib.crc32(head)) != crc:
        raise InvalidPositionError(f"opening book {path} is damaged: its checksum does not match its contents")
    try:
        header = json.loads(head)
        raw = zlib.decompress(payload)
    except (ValueError, zlib.error) as error:
        raise InvalidPositionError(f"opening book {path} is damaged: {error}") from None
    rows = header.get("entries") if isinstance(header, dict) else None
    if not isinstance(rows, int) or rows < 1 or len(raw) != rows * ROW_BYTES:
        raise InvalidPositionError(
            f"opening book {path} is damaged: {len(raw)} bytes of entries do not make the "
            f"{rows!r} entries of {ROW_BYTES} bytes its header gives"
        )
    columns = []
    offset = 0
    for typecode, size in COLUMNS:
        column = array(typecode)
        column.frombytes(raw[offset : offset + rows * size])
        columns.append(_little_endian(column))
        offset += rows * size
    _check_entries(path, columns)
    return Book(path, header, columns)


def _check_entries(path: Path, columns: Sequence[array[Any]]) -> None:
    """Refuse entries that no book writes: keys out of order or overlapping, values beyond
    a board, a leave square off the board or without its value."""
    movers, opponents, _, values, leave_values, leave_squares = columns
    keys = list(zip(movers, opponents, strict=True))
    if any(a >= b for a, b in pairwise(keys)):
        raise InvalidPositionError(f"opening book {path} is damaged: its positions are not in order")
    if any(p & o for p, o in keys):
        raise InvalidPositionError(f"opening book {path} is damaged: a position has two discs on one square")
    if any(abs(v) > MAX_VALUE for v in values):
        raise InvalidPositionError(f"opening book {path} is damaged: a value is beyond {MAX_VALUE // 100} discs")
    for value, square in zip(leave_values, leave_squares, strict=True):
        if not (-1 <= square < 64) or (square < 0) != (value == NO_VALUE) or (square >= 0 and abs(value) > MAX_VALUE):
            raise InvalidPositionError(f"opening book {path} is damaged: a move leaving the book is not a square")


_lock = threading.Lock()
_books: dict[Path, Book] = {}


def load_book(path: str | Path | None = None) -> Book:
    """The book of ``path`` (by default the shipped one), read on first use and then kept."""
    path = BOOK_FILE if path is None else Path(path)
    with _lock:
        book = _books.get(path)
        if book is None:
            book = _books[path] = read_book(path)
    return book


def applies(board: Board) -> bool:
    """Whether the book can hold the board: 8x8, the classic goal, past any free placement.
    (Any start and either scoring: a position is looked up as it stands.)"""
    return board.size == SIZE and board.rules.goal == "classic" and not board.in_placement()


def lookup(board: Board) -> list[BookMove]:
    """The shipped book's moves in ``board``, best first (``Book.lookup``); the book is not
    read for a board it cannot hold."""
    return load_book().lookup(board) if applies(board) else []


def pick(board: Board, rng: random.Random, *, leaving: bool = True) -> BookMove | None:
    """A move of the shipped book for ``board`` with its value (``Book.pick``), or None."""
    return load_book().pick(board, rng, leaving=leaving) if applies(board) else None


def choose(board: Board, rng: random.Random, *, leaving: bool = True) -> Move | None:
    """A move of the shipped book for ``board`` (``Book.choose``), or None when out of book."""
    picked = pick(board, rng, leaving=leaving)
    return None if picked is None else picked.move


# -- the command ------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reversi_widget.book", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build the book from WTHOR master games")
    build.add_argument("--data", type=Path, default=None, help="folder of WTH_<year>.wtb files")
    build.add_argument("--games", type=int, default=None, help="read a random sample of this many games")
    build.add_argument("--seed", type=int, default=0, help="seed of the sample")
    build.add_argument("--min-games", type=int, default=None, help="positions seen in at least this many games")
    build.add_argument("--max-ply", type=int, default=None, help="positions up to this many moves from the start")
    build.add_argument("--depth", type=int, default=None, help="depth of the engine's searches")
    build.add_argument("--out", type=Path, default=BOOK_FILE, help=f"book file to write ({BOOK_FILE.name})")
    build.add_argument("--quiet", action="store_true", help="no progress bars")
    for name, text in (
        ("revalue", "search the book's positions again (same tree), e.g. after the engine got stronger"),
        ("extend", "extend the book by engine self-play at its leaves"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("--book", type=Path, default=BOOK_FILE, help="book file to read")
        command.add_argument("--out", type=Path, default=None, help="book file to write (the one read)")
        command.add_argument("--depth", type=int, default=None, help="depth of the searches (the book's)")
        command.add_argument("--quiet", action="store_true", help="no progress bars")
        if name == "extend":
            command.add_argument("--games", type=int, default=100, help="self-play games")
            command.add_argument("--seed", type=int, default=0, help="seed of the games' choices")
            command.add_argument("--plies", type=int, default=6, help="positions added after leaving the book")
    show = commands.add_parser("show", help="describe a book and the moves it knows in a position")
    show.add_argument("moves", nargs="?", default="", help="moves from the start, e.g. f5d6c3")
    show.add_argument("--book", type=Path, default=BOOK_FILE, help="book file to read")
    args = parser.parse_args(argv)
    for option in ("games", "min_games", "max_ply", "depth", "plies"):
        value = getattr(args, option, None)
        if value is not None and value < 1:
            parser.error(f"--{option.replace('_', '-')} must be at least 1, got {value}")
    if args.command == "show":
        return _show(args.book, args.moves)
    from . import book_build

    try:
        return book_build.run(args)
    except (InvalidPositionError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _show(path: Path, moves: str) -> int:
    """Print a book's header, its load and lookup times, and its moves after ``moves``."""
    start = time.perf_counter()
    try:
        book = read_book(path)
        board = Board.from_transcript(moves) if moves else Board()
    except ReversiError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    found = book.lookup(board)
    looked = time.perf_counter() - start
    print(f"{path}: {path.stat().st_size:,} bytes, {len(book):,} positions, read in {loaded * 1000:.0f} ms")
    print(json.dumps(book.header, indent=1, sort_keys=True))
    print(f"after {moves or 'the start'} (looked up in {looked * 1000:.2f} ms):")
    for move in found:
        print(f"  {move}")
    if not found:
        print("  not in the book")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
