"""Strategy concepts of a position: mobility, frontier, stable discs, empty regions and the
special squares, for every board size.

A learner who knows the rules plays better by looking at these, and a quiz or a reason for a
mistake needs them as facts, not guesses. Each function takes a ``Board`` (and a colour where
one applies) and returns square names as a ``frozenset`` (``len`` gives the count), so a set of
squares a learner marks compares with it directly. Everything is worked out on the board's
bitboards in pure Python, on any size from 4x4 to 16x16.

The facts do not depend on the goal; what they are worth does. Under the classic goal a side
wants many moves, few frontier discs and many stable discs; under the inverted goal, where the
fewer discs win, stable discs and corners are a burden and the side with more moves can
afford to give discs away.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from .board import Board
from .errors import ReversiError, quote
from .geometry import geometry, squares_of
from .squares import LETTERS, Color

__all__ = [
    "Region",
    "c_squares",
    "corners",
    "frontier",
    "mobility",
    "potential_mobility",
    "regions",
    "stable",
    "x_squares",
]


@dataclass(frozen=True)
class Region:
    """A connected group of empty squares and whether it holds an odd number of them.

    Parity matters because, if play stays inside the region, the side that moves first
    in an odd region also gets its last square."""

    squares: frozenset[str]
    odd: bool


def mobility(board: Board, color: Color) -> frozenset[str]:
    """The squares ``color`` may play now: its legal moves whoever is to move (a side not to
    move gets the moves it would have if it were its turn).

    While the free start's centre is being filled (R8), that is the open centre squares."""
    _check_board(board)
    _check_color(color)
    if board.in_placement():
        return _names(board.geometry.centre & ~_occupied(board), board.size)
    own, other = _discs(board, color)
    return _names(board.geometry.moves(own, other), board.size)


def potential_mobility(board: Board, color: Color) -> frozenset[str]:
    """The empty squares next to (in any of the eight directions) a disc of the opponent of
    ``color``: where moves for ``color`` may appear later, even if none is legal yet."""
    _check_board(board)
    _check_color(color)
    _, other = _discs(board, color)
    return _names(_around(other, board.size) & _empty(board), board.size)


def frontier(board: Board, color: Color) -> frozenset[str]:
    """The discs of ``color`` next to (in any of the eight directions) an empty square: the
    discs that give the opponent moves, so a side wants few of them."""
    _check_board(board)
    _check_color(color)
    own, _ = _discs(board, color)
    return _names(own & _around(_empty(board), board.size), board.size)


def stable(board: Board, color: Color) -> frozenset[str]:
    """The discs of ``color`` that no continuation of the game can flip.

    The definition, sound and conservative (the compiled solver's ``native.endgame.stable``
    uses the same one): a disc is stable if along each of the four lines through it
    (horizontal, vertical, both diagonals) it is protected, that is

    * that whole line of the board is full, or
    * on that line it has no neighbour on one side (it is on the edge of the board), or
    * on that line one of its two neighbours is a stable disc of its own colour.

    The stable set is the least set with this property, grown from nothing until it stops
    growing, so every disc is in it because of a chain of protections that ends at an edge
    or a full line (two discs never hold each other up). Why that is enough: a disc flips along
    a line only if the move is on that line (so the line was not full) and the disc has a
    neighbour on both sides there, each of them the disc just played, a disc flipped with it,
    or the opponent's disc that closes the run. So a stable disc could only flip together with
    its protector, and that one with its own, down the chain to an edge or a full line, where
    nothing flips.

    A stable disc stays stable after any move. Discs that are safe for subtler reasons (say,
    between two stable opponent discs on one line) are not counted: the set never claims too much.
    """
    _check_board(board)
    _check_color(color)
    own, _ = _discs(board, color)
    occupied = _occupied(board)
    axes = _axes(board.size)
    protected = [_safe(lines, edge, occupied) for lines, edge, _ in axes]
    found = 0
    while True:
        grown = own
        for (_, _, neighbours), safe in zip(axes, protected, strict=True):
            grown &= safe | neighbours(found)
        if grown == found:
            return _names(found, board.size)
        found = grown


def regions(board: Board) -> list[Region]:
    """The empty regions, each with its parity, in board order (by each region's first square
    from a1 along the rows).

    Two empty squares belong to one region when they touch, diagonals included (8-connectivity),
    as in the parity literature: a disc played on one of two diagonal neighbours can flip along
    that diagonal and so decide who may play the other, so they are not independent."""
    _check_board(board)
    size = board.size
    left = _empty(board)
    found = []
    while left:
        grown = left & -left  # the first empty square left, then everything connected to it
        while True:
            bigger = grown | (_around(grown, size) & left)
            if bigger == grown:
                break
            grown = bigger
        left &= ~grown
        found.append(Region(_names(grown, size), grown.bit_count() % 2 == 1))
    return found


def corners(board: Board) -> frozenset[str]:
    """The four corners: a disc there can never be flipped."""
    _check_board(board)
    n = board.size
    return _names(_square_bits(n, [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]), n)


def x_squares(board: Board) -> frozenset[str]:
    """The squares diagonally next to a corner (b2 and the like): playing one while its corner
    is empty often hands the corner to the opponent. On 4x4 they are the centre."""
    _check_board(board)
    n = board.size
    return _names(_square_bits(n, [(1, 1), (1, n - 2), (n - 2, 1), (n - 2, n - 2)]), n)


def c_squares(board: Board) -> frozenset[str]:
    """The edge squares next to a corner (a2, b1 and the like), risky for the same reason as
    X-squares. On 4x4 they are every edge square but the corners."""
    _check_board(board)
    n = board.size
    ends = (0, 1, n - 2, n - 1)
    cells = [(row, col) for row in ends for col in ends if min(row, n - 1 - row) + min(col, n - 1 - col) == 1]
    return _names(_square_bits(n, cells), n)


# -- checking the input ----------------------------------------------------------------


def _check_board(board: object) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"board must be a Board, got {type(board).__name__} {quote(board)}")


def _check_color(color: object) -> None:
    if not isinstance(color, bool):  # BLACK is True and WHITE is False, and nothing else is a colour
        raise ReversiError(f"color must be BLACK or WHITE (from reversi_widget), got {quote(color)}")


# -- bitboards -------------------------------------------------------------------------


def _discs(board: Board, color: Color) -> tuple[int, int]:
    """(discs of ``color``, discs of its opponent)."""
    black, white = board.bitboards()
    return (black, white) if color else (white, black)


def _occupied(board: Board) -> int:
    black, white = board.bitboards()
    return black | white


def _empty(board: Board) -> int:
    return board.geometry.full & ~_occupied(board)


@cache
def _names_of(size: int) -> tuple[str, ...]:
    return tuple(f"{LETTERS[sq % size]}{sq // size + 1}" for sq in range(size * size))


def _names(bits: int, size: int) -> frozenset[str]:
    names = _names_of(size)
    return frozenset(names[sq] for sq in squares_of(bits))


def _square_bits(size: int, cells: list[tuple[int, int]]) -> int:
    return sum({1 << (row * size + col) for row, col in cells})


@cache
def _columns(size: int) -> tuple[int, int, int]:
    """(every square, every square but the first column, every square but the last column)."""
    full = (1 << size * size) - 1
    first = sum(1 << (row * size) for row in range(size))
    return full, full & ~first, full & ~(first << (size - 1))


def _around(bits: int, size: int) -> int:
    """The squares next to a square of ``bits`` in any of the eight directions (and ``bits``)."""
    full, not_first, not_last = _columns(size)
    # A shift by one square that runs off a row's end lands in the first or last column.
    row = bits | ((bits << 1) & not_first) | ((bits >> 1) & not_last)
    return (row | (row << size) | (row >> size)) & full


@cache
def _axes(size: int) -> tuple[tuple[tuple[int, ...], int, Callable[[int], int]], ...]:
    """Per axis (horizontal, vertical, the two diagonals): every line of the board along it,
    the squares with no neighbour on one side along it, and a function giving the squares
    next to a set of squares along it."""
    geo = geometry(size)
    full, not_first, not_last = _columns(size)
    shifts = (  # (forward, backward, shift forward, column mask forward, column mask backward)
        ("east", "west", 1, not_first, not_last),
        ("south", "north", size, full, full),
        ("south-east", "north-west", size + 1, not_first, not_last),
        ("south-west", "north-east", size - 1, not_last, not_first),
    )
    axes = []
    for forward, backward, shift, mask_forward, mask_backward in shifts:
        ahead, behind = geo.rays[forward], geo.rays[backward]
        lines = tuple(sorted({ahead[sq] | behind[sq] | 1 << sq for sq in range(size * size)}))
        edge = sum(1 << sq for sq in range(size * size) if not ahead[sq] or not behind[sq])

        def neighbours(bits: int, s: int = shift, f: int = mask_forward, b: int = mask_backward) -> int:
            return (((bits << s) & f) | ((bits >> s) & b)) & full

        axes.append((lines, edge, neighbours))
    return tuple(axes)


def _safe(lines: tuple[int, ...], edge: int, occupied: int) -> int:
    """The squares that cannot flip along one axis whatever their neighbours: on the edge
    along it, or on a full line."""
    safe = edge
    for line in lines:
        if occupied & line == line:
            safe |= line
    return safe
