"""Perft: count the leaves of the move tree, the standard check of a move generator.

Counting as published by Aart Bik (and reproduced by Egaroucid): a forced pass uses
up one ply, and a position where neither side can move is one leaf even with depth
left. From the 8x8 start: 4, 12, 56, 244, 1396, 8200, 55092, 390216, ...

On 4x4, 6x6 and 8x8 the count runs in the compiled kernel of ``native.perft`` when it is
loaded; a deep count waits for it, since pure Python would need longer than compiling.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import native
from .board import Board
from .squares import BLACK

__all__ = ["WAIT_DEPTH", "perft"]

#: From this depth on, ``perft`` waits for the compiled kernel rather than count in Python.
WAIT_DEPTH = 8


def perft(board: Board, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies below ``board`` (which is left unchanged)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft depth must be a non-negative int, got {depth!r}")
    if depth == 0:
        return 1
    if board.in_placement():
        return _perft_board(board.copy(stack=False), depth)
    black, white = board.bitboards()
    p, o = (black, white) if board.turn == BLACK else (white, black)
    if board.size in native.SIZES and (native.ready("perft") or (depth >= WAIT_DEPTH and native.wait("perft"))):
        from .native.perft import perft as compiled_perft

        return int(compiled_perft(board.size, p, o, depth))
    geo = board.geometry
    return _perft_bits(p, o, depth, geo.moves, geo.flippers)


def _perft_bits(
    p: int, o: int, depth: int, moves: Callable[[int, int], int], flippers: Sequence[Callable[[int, int], int]]
) -> int:
    legal = moves(p, o)
    if depth == 1:
        return legal.bit_count() or 1  # a pass or a finished game is one leaf
    if not legal:
        return _perft_bits(o, p, depth - 1, moves, flippers) if moves(o, p) else 1
    total = 0
    while legal:
        bit = legal & -legal
        legal ^= bit
        flipped = flippers[bit.bit_length() - 1](p, o)
        total += _perft_bits(o ^ flipped, p | bit | flipped, depth - 1, moves, flippers)
    return total


def _perft_board(board: Board, depth: int) -> int:
    """The slow path through ``Board``, for the free start's placement phase."""
    if depth == 0 or board.is_game_over():
        return 1
    if not board.legal_moves:
        board.push_pass()
        total = _perft_board(board, depth - 1)
        board.pop()
        return total
    if not board.in_placement():
        return perft(board, depth)
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _perft_board(board, depth - 1)
        board.pop()
    return total
