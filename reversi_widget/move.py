"""``Move``: a disc placed on a square, or a pass; and the one shared ``Move`` of each square.

Listing legal moves builds no new objects: a move mask is turned into moves a byte at a
time through tables of the shared moves (``moves_of_mask``; ``Board`` inlines the 8x8 case).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, NamedTuple

from .errors import InvalidMoveError, quote
from .squares import ASCII_SPACE, MAX_SIZE, MIN_SIZE, Square, check_square, parse_square, square_name

__all__ = ["Move", "WordTables", "moves_of_mask", "single_word_tables"]


class _MoveFields(NamedTuple):
    square: Square | None
    size: int = 8


class Move(_MoveFields):
    """A disc placed on ``square``, or a pass (``square is None``; falsy like python-chess's null move).

    A named tuple, so that making one in a search or a playout costs next to nothing. It
    is always a square of its board: ``Move(64)`` on 8x8 is an ``InvalidMoveError``, and a
    square or size that is not an int (``19.0``, ``"d3"``, ``True``) is a ``TypeError``.
    """

    __slots__ = ()

    def __new__(cls, square: Square | None, size: int = 8) -> Move:
        if type(size) is not int or size not in _SIZES:
            if isinstance(size, bool) or not isinstance(size, int):
                raise TypeError(f"a move's board size is an int, got {quote(size)}")
            if size not in _SIZES:
                raise InvalidMoveError(f"a move is for a board of even size 4 to 16, got size {quote(size)}")
            size = int(size)
        if square is not None and (type(square) is not int or not 0 <= square < size * size):
            if isinstance(square, str):
                raise TypeError(
                    f"a move's square is an int or None, got {quote(square)}: use Move.from_name({quote(square)})"
                )
            square = check_square(square, size)
        return tuple.__new__(cls, (square, size))

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Move:  # type: ignore[override]
        """``namedtuple``'s maker (``_replace`` uses it) goes through the checks too."""
        return cls(*iterable)

    @classmethod
    def from_name(cls, name: str, size: int = 8) -> Move:
        """``Move.from_name("d3")``; ``"pass"`` gives the pass."""
        if cls is Move and type(size) is int and size in _SIZES:
            move = _moves_by_name(size).get(name)  # the usual spellings, looked up
            if move is not None:
                return move
        if isinstance(name, str) and name.isascii() and name.strip(ASCII_SPACE).lower() in ("pass", "pa"):
            return cls(None, size)
        return cls(parse_square(name, size), size)

    @classmethod
    def null(cls, size: int = 8) -> Move:
        """The pass."""
        return cls(None, size)

    def __str__(self) -> str:
        return "pass" if self.square is None else square_name(self.square, self.size)

    def __repr__(self) -> str:
        suffix = "" if self.size == 8 else f", size={self.size}"
        return f"Move.from_name({str(self)!r}{suffix})"

    def __bool__(self) -> bool:
        return self.square is not None


_SIZES = frozenset(range(MIN_SIZE, MAX_SIZE + 1, 2))


@cache
def _moves_of_size(size: int) -> tuple[Move, ...]:
    """One shared ``Move`` per square, so listing legal moves allocates nothing new."""
    return tuple(Move(sq, size) for sq in range(size * size))


@cache
def _moves_by_name(size: int) -> dict[str, Move]:
    """The move of each square name in lower and upper case, and of the pass words: reading
    a game record looks its moves up here instead of parsing each one."""
    table = {name: Move(None, size) for name in ("pass", "pa", "PASS", "PA", "Pass")}
    for move in _moves_of_size(size):
        name = str(move)
        table[name] = table[name.upper()] = move
    return table


_ByteTable = tuple[tuple[Move, ...], ...]  # the moves each of a byte's 256 values stands for
WordTables = tuple[_ByteTable, _ByteTable, _ByteTable, _ByteTable, _ByteTable, _ByteTable, _ByteTable, _ByteTable]
_WORD = (1 << 64) - 1


@cache
def _moves_by_word(size: int) -> tuple[WordTables, ...]:
    """For each 64 squares of a move mask, one table per byte: the moves each byte value stands for.

    Listing moves a byte at a time costs one table look-up per byte instead of several
    big-int operations per move; a whole 8x8 board is one word of eight look-ups."""
    table = _moves_of_size(size)
    squares = size * size
    words = -(-squares // 64)

    def byte_table(base: int) -> _ByteTable:
        return tuple(
            tuple(table[base + b] for b in range(8) if value >> b & 1 and base + b < squares) for value in range(256)
        )

    return tuple(
        (
            byte_table(base),
            byte_table(base + 8),
            byte_table(base + 16),
            byte_table(base + 24),
            byte_table(base + 32),
            byte_table(base + 40),
            byte_table(base + 48),
            byte_table(base + 56),
        )
        for base in range(0, words * 64, 64)
    )


def _moves_of_word(tables: WordTables, word: int) -> tuple[Move, ...]:
    """The moves of one 64-square word, joined in a single tuple display: C does all of it."""
    t0, t1, t2, t3, t4, t5, t6, t7 = tables
    b0, b1, b2, b3, b4, b5, b6, b7 = word.to_bytes(8, "little")
    return (*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7])


def single_word_tables(size: int) -> WordTables | None:
    """The byte tables of a board whose squares fit one 64-square word (up to 8x8), else None."""
    words = _moves_by_word(size)
    return words[0] if len(words) == 1 else None


def moves_of_mask(size: int, mask: int) -> tuple[Move, ...]:
    """The moves of a move mask, in square order."""
    words = _moves_by_word(size)
    if len(words) == 1:  # every board up to 8x8
        return _moves_of_word(words[0], mask)
    return sum((_moves_of_word(tables, mask >> 64 * i & _WORD) for i, tables in enumerate(words)), ())
