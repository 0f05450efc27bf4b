"""The compiled move generator and flips against the pure-Python ones, on every size that fits
64 bits: arbitrary discs (hypothesis) and the positions of seeded random games."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import native
from reversi_widget.geometry import geometry
from tests.native_support import random_positions, require_compiled


@pytest.fixture(scope="module")
def kernels() -> ModuleType:
    require_compiled("moves")
    from reversi_widget.native import moves

    return moves


@st.composite
def discs(draw: st.DrawFn) -> tuple[int, int, int]:
    """A size that fits 64 bits and two disjoint bitboards, sparse to packed."""
    size = draw(st.sampled_from(native.SIZES))
    full = (1 << size * size) - 1
    taken = draw(st.integers(0, full))
    if draw(st.booleans()):
        taken |= draw(st.integers(0, full))  # packed: long runs
    p = taken & draw(st.integers(0, full))
    return size, p, taken & ~p


def agree(kernels: ModuleType, size: int, p: int, o: int) -> None:
    """Both paths give the same legal moves and, on every empty square, the same flips; a
    whole move in one call (``play``) gives those flips and the replies after them, and
    nothing for an occupied square or one that flips nothing."""
    geo = geometry(size)
    assert kernels.legal(size, p, o) == geo.pure_moves(p, o)
    for sq in range(size * size):
        played = kernels.play(size, sq, p, o)
        if (p | o) >> sq & 1:
            assert played == (0, 0)
            continue
        flipped = geo.pure_flippers[sq](p, o)
        assert kernels.flips(size, sq, p, o) == flipped, (size, sq, hex(p), hex(o))
        bit = 1 << sq
        assert played == ((flipped, geo.pure_moves(o ^ flipped, p | flipped | bit)) if flipped else (0, 0))


@settings(max_examples=400, deadline=None)
@given(discs())
def test_arbitrary_discs(kernels: ModuleType, position: tuple[int, int, int]) -> None:
    size, p, o = position
    agree(kernels, size, p, o)
    agree(kernels, size, o, p)


@pytest.mark.parametrize("size", native.SIZES)
def test_positions_of_random_games(kernels: ModuleType, size: int) -> None:
    positions = 0
    for board in random_positions(size, games=40, seed=size):
        black, white = board.bitboards()
        agree(kernels, size, black, white)
        agree(kernels, size, white, black)
        positions += 1
    assert positions > 40 * (size * size - 4) // 2


@pytest.mark.parametrize("size", native.SIZES)
def test_geometry_switches_to_the_kernels(kernels: ModuleType, size: int) -> None:
    geo = geometry(size)
    assert geo.moves is not geo.pure_moves and geo.flippers is not geo.pure_flippers and geo.play is not None
    black, white = 1 << (size + 1), 1 << (2 * size + 2)
    assert geo.moves(black, white) == geo.pure_moves(black, white) != 0


@pytest.mark.parametrize("size", native.SIZES)
def test_board_push_through_one_compiled_call_plays_as_the_pure_path(kernels: ModuleType, size: int) -> None:
    """``Board.push`` plays a move in one compiled call whose replies fill the next
    position's legal-move cache: every position of random games lists the pure path's
    moves, and every push leaves the pure path's discs."""
    import random

    from reversi_widget import Board, Move, Rules
    from reversi_widget.geometry import squares_of

    geo, rng = geometry(size), random.Random(size)
    for _ in range(30):
        board = Board(rules=Rules(size=size))
        while not board.is_game_over():
            p, o = board.sides()
            assert list(board.legal_moves) == [Move(sq, size) for sq in squares_of(geo.pure_moves(p, o))]
            assert len(board.legal_moves) == geo.pure_moves(p, o).bit_count()
            if board.must_pass():
                board.push_pass()
                continue
            move = rng.choice(list(board.legal_moves))
            assert move.square is not None
            flipped = geo.pure_flippers[move.square](p, o)
            board.push(move)
            assert board.sides() == (o ^ flipped, p | flipped | 1 << move.square)
            if rng.random() < 0.2:  # take it back and play it again: the cache follows
                board.pop()
                assert board.sides() == (p, o) and board.legal_moves.count() == geo.pure_moves(p, o).bit_count()
                board.push(move)


def test_larger_boards_stay_pure(kernels: ModuleType) -> None:
    for size in (10, 16):
        geo = geometry(size)
        assert geo.moves is geo.pure_moves and geo.flippers is geo.pure_flippers and geo.play is None
