"""Perft regression: the published counts of RULES.md ("Facts for tests")."""

import pytest

from reversi_widget import Board, Rules, perft

BIK_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216]
OEIS_6X6 = [4, 12, 56, 244, 1364, 7604, 47740, 308716]


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_8x8(depth: int) -> None:
    assert perft(Board(), depth) == BIK_8X8[depth - 1]


@pytest.mark.slow
def test_perft_8x8_depth_8() -> None:
    assert perft(Board(), 8) == 390216


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_6x6(depth: int) -> None:
    assert perft(Board(rules=Rules(size=6)), depth) == OEIS_6X6[depth - 1]


def test_perft_depth_zero_and_bad_depth() -> None:
    assert perft(Board(), 0) == 1
    with pytest.raises(ValueError, match="depth"):
        perft(Board(), -1)


def test_perft_leaves_board_unchanged() -> None:
    board = Board.from_transcript("f5d6c3")
    before = board.copy()
    perft(board, 3)
    assert board == before and board.move_stack == before.move_stack


def test_perft_counts_a_finished_game_as_one_leaf() -> None:
    # Wipe-out after f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 ... is rare; use a small end instead:
    # one black disc surrounded, white to move, nobody can move.
    board = Board.from_string("X" + "-" * 15 + " O")
    assert board.is_game_over()
    assert perft(board, 5) == 1


def test_perft_free_start_counts_placements() -> None:
    # Four placements on the centre: 4 * 3 * 2 * 1 orders.
    assert perft(Board(rules=Rules(start="free")), 4) == 24
