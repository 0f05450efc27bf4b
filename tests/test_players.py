"""The players' registry and the two simple players."""

from __future__ import annotations

import pytest

from reversi_widget import Board, IllegalMoveError
from reversi_widget.players import (
    PLAYERS,
    GreedyPlayer,
    Player,
    RandomPlayer,
    UnknownPlayerError,
    make_player,
    register_player,
)
from tests.support import (
    END_33_29,
    Gate,
)

# -- players ----------------------------------------------------------------------------------


def test_players_registry_and_protocol() -> None:
    assert make_player("human") is None and make_player("Human") is None
    assert isinstance(make_player("random"), RandomPlayer) and isinstance(make_player("greedy"), GreedyPlayer)
    gate = Gate()
    assert make_player(gate) is gate and isinstance(gate, Player)
    with pytest.raises(UnknownPlayerError, match="object with choose"):
        make_player(3)
    register_player("first-legal", lambda: Gate())
    try:
        assert isinstance(make_player("first-legal"), Gate)
    finally:
        del PLAYERS["first-legal"]
    with pytest.raises(UnknownPlayerError):
        register_player("Bad Name", RandomPlayer)


def test_random_player_is_repeatable_and_legal() -> None:
    board = Board()
    picks = [RandomPlayer(seed=7).choose(board) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in board.legal_moves
    seen = {RandomPlayer(seed=s).choose(board) for s in range(40)}
    assert seen == set(board.legal_moves)


def test_greedy_player_takes_most_flips_then_corners() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
    best = max(len(board.flips(m)) for m in board.legal_moves)
    for seed in range(10):
        move = GreedyPlayer(seed=seed).choose(board)
        assert len(board.flips(move)) == best
    # Two moves flipping one disc each, one of them a corner: the corner wins.
    both = Board("-OX-OX--" + "-" * 56 + " X")  # a1 (corner) and d1 each flip one
    assert {str(m): len(both.flips(m)) for m in both.legal_moves} == {"a1": 1, "d1": 1}
    assert {str(GreedyPlayer(seed=s).choose(both)) for s in range(20)} == {"a1"}
    with pytest.raises(IllegalMoveError, match="must pass"):
        GreedyPlayer().choose(Board(END_33_29))
