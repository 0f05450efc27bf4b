"""The compiled perft against the pure-Python count, on positions of seeded random games of
every size that fits 64 bits, and against the published counts."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from reversi_widget import Board, Rules, native, perft
from reversi_widget.perft import _perft_bits
from tests.native_support import random_positions, require_compiled
from tests.test_perft import BIK_8X8, OEIS_6X6


@pytest.fixture(scope="module")
def kernels() -> ModuleType:
    require_compiled("perft")
    from reversi_widget.native import perft as kernels

    return kernels


def sides(board: Board) -> tuple[int, int]:
    black, white = board.bitboards()
    return (black, white) if board.turn else (white, black)


@pytest.mark.parametrize("size", native.SIZES)
def test_random_positions_agree_with_the_pure_count(kernels: ModuleType, size: int) -> None:
    rng = random.Random(size)
    geo = Board(rules=Rules(size=size)).geometry
    checked = 0
    for board in random_positions(size, games=25, seed=100 + size):
        if rng.random() < 0.25:
            p, o = sides(board)
            depth = rng.randint(1, 4 if size > 4 else 6)
            assert kernels.perft(size, p, o, depth) == _perft_bits(p, o, depth, geo.pure_moves, geo.pure_flippers)
            checked += 1
    assert checked >= 25


def test_published_counts(kernels: ModuleType) -> None:
    p, o = sides(Board())
    assert [kernels.perft(8, p, o, d) for d in range(1, 10)] == [*BIK_8X8, 3005288]
    p, o = sides(Board(rules=Rules(size=6)))
    assert [kernels.perft(6, p, o, d) for d in range(1, 9)] == OEIS_6X6


def test_perft_uses_the_kernel_once_loaded(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, int, int]] = []
    counted = kernels.perft

    def spy(n: int, p: int, o: int, depth: int) -> int:
        calls.append((n, p, o, depth))
        return int(counted(n, p, o, depth))

    monkeypatch.setattr(kernels, "perft", spy)
    board = Board.from_transcript("f5d6c3d3c4")
    assert perft(board, 3) == _perft_bits(*sides(board), 3, board.geometry.pure_moves, board.geometry.pure_flippers)
    assert calls == [(8, *sides(board), 3)]
    assert perft(Board(rules=Rules(size=10)), 3) == 56 and len(calls) == 1  # 10x10 stays pure
