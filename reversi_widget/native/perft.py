"""Compiled perft for the boards that fit 64 bits, counting as ``reversi_widget.perft`` does:
a forced pass uses up one ply, and a position where neither side can move is one leaf."""

from __future__ import annotations

from .bits import ZERO, kernel, popcount, trailing_zeros
from .moves import flips, legal

__all__ = ["perft"]


@kernel("int64(int64, uint64, uint64, int64)")
def perft(n: int, p: int, o: int, depth: int) -> int:
    """Leaves of the move tree ``depth`` >= 1 plies below ``p`` to move against ``o``.

    Bulk counting: the last ply is never played, its leaves are the number of legal moves
    (or one, for a pass or a finished game), and the ply before it counts its children's
    moves in a loop instead of a call per child."""
    moves = legal(n, p, o)
    if depth == 1:
        return max(popcount(moves), 1)
    if not moves:
        if not legal(n, o, p):
            return 1
        return perft(n, o, p, depth - 1)
    total = 0
    while moves:
        bit = moves & (ZERO - moves)
        moves ^= bit
        f = flips(n, trailing_zeros(bit), p, o)
        if depth == 2:
            total += max(popcount(legal(n, o ^ f, p | f | bit)), 1)
        else:
            total += perft(n, o ^ f, p | f | bit, depth - 1)
    return total
