"""Compiled move generation and flips for the boards that fit 64 bits (4x4, 6x6, 8x8).

The same bitboards as ``geometry``: bit ``row * n + col`` is one square, ``p`` the side to
move and ``o`` its opponent. One compiled version serves every size: the size ``n`` selects
the masks and ray tables, which are built from the pure ``Geometry`` so both paths share
one definition of the board.
"""

from __future__ import annotations

import numpy as np

from ..geometry import DIRECTIONS, geometry
from . import SIZES
from .bits import ONE, ZERO, kernel, leading_zeros

__all__ = ["DOWN", "FULL", "INNER", "RAYS", "UP", "flips", "legal", "play", "runs_down", "runs_up"]

#: Directions whose rays run towards higher bits, then those running towards lower bits.
UP = ("east", "south-east", "south", "south-west")
DOWN = ("west", "north-west", "north", "north-east")


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per size: every square (``FULL``), the opponent mask for steps that may wrap around a
    row (``INNER``: not the first column, not the last), and per square the ray of each
    direction (``RAYS[n, sq]``: the four of ``UP``, then the four of ``DOWN``)."""
    full = np.zeros(max(SIZES) + 1, dtype=np.uint64)
    inner = np.zeros(max(SIZES) + 1, dtype=np.uint64)
    rays = np.zeros((max(SIZES) + 1, 64, 8), dtype=np.uint64)
    for n in SIZES:
        geo = geometry(n)
        full[n] = geo.full
        col0 = sum(1 << (row * n) for row in range(n))
        inner[n] = geo.full & ~col0 & ~(col0 << (n - 1))
        for sq in range(n * n):
            for d, name in enumerate(UP + DOWN):
                rays[n, sq, d] = geo.rays[name][sq]
    assert set(UP + DOWN) == set(DIRECTIONS)
    return full, inner, rays


FULL, INNER, RAYS = _tables()


@kernel("uint64(uint64, uint64, int64)", inline=True)
def runs_up(p: int, m: int, s: int) -> int:
    """Squares just past a run of ``m`` discs that starts next to ``p``, stepping ``s`` bits up.

    The run grows one step twice, then two steps at a time through pairs of ``m`` discs:
    1 + 1 + 2 + 2 covers the longest run of 8x8 (6 discs) and of the smaller boards."""
    f = m & (p << s)
    f |= m & (f << s)
    pairs = m & (m << s)
    s2 = s + s
    f |= pairs & (f << s2)
    f |= pairs & (f << s2)
    return f << s


@kernel("uint64(uint64, uint64, int64)", inline=True)
def runs_down(p: int, m: int, s: int) -> int:
    """``runs_up`` stepping ``s`` bits down."""
    f = m & (p >> s)
    f |= m & (f >> s)
    pairs = m & (m >> s)
    s2 = s + s
    f |= pairs & (f >> s2)
    f |= pairs & (f >> s2)
    return f >> s


@kernel("uint64(int64, uint64, uint64)", inline=True)
def legal(n: int, p: int, o: int) -> int:
    """The legal moves of ``p`` on an ``n`` x ``n`` board, as a bitboard.

    Opponent discs are masked to the inner columns for the steps that can wrap around a row
    (a flanked run never touches the first or last column); vertical steps need no mask."""
    inner = o & INNER[n]
    full: int = FULL[n]
    r = runs_up(p, inner, 1) | runs_down(p, inner, 1)
    r |= runs_up(p, o, n) | runs_down(p, o, n)
    r |= runs_up(p, inner, n + 1) | runs_down(p, inner, n + 1)
    r |= runs_up(p, inner, n - 1) | runs_down(p, inner, n - 1)
    return r & ~(p | o) & full


@kernel("uint64(int64, int64, uint64, uint64)", inline=True)
def flips(n: int, sq: int, p: int, o: int) -> int:
    """The opponent discs a disc of ``p`` placed on ``sq`` flanks (0 if none).

    Along each ray the first square that is not the opponent's ends the run: going up the
    bits it is the lowest such bit (``c & -c``), going down the highest (leading zeros);
    if it holds one of ``p``'s discs, the squares before it flip."""
    r = ZERO
    not_o = ~o
    for d in range(4):
        ray = RAYS[n, sq, d]
        c = ray & not_o
        first = c & (ZERO - c)
        if first & p:
            r |= ray & (first - ONE)
    for d in range(4, 8):
        ray = RAYS[n, sq, d]
        c = ray & not_o
        if c:
            first = ONE << (63 - leading_zeros(c))
            if first & p:
                r |= ray & ~((first << ONE) - ONE)
    return r


@kernel("UniTuple(uint64, 2)(int64, int64, uint64, uint64)")
def play(n: int, sq: int, p: int, o: int) -> tuple[int, int]:
    """A move of ``p`` on ``sq`` in one call: (the discs it flips, the opponent's legal moves
    in the position it leads to), or (0, 0) when ``sq`` is occupied or flips nothing.

    ``Board.push`` calls it from Python, where each call costs far more than the work done
    in it, so the replies, which the next look at the board's legal moves needs, come along."""
    bit = ONE << sq
    if (p | o) & bit:
        return ZERO, ZERO
    f = flips(n, sq, p, o)
    if not f:
        return ZERO, ZERO
    return f, legal(n, o ^ f, p | f | bit)
