"""Self-play training data: games that repeat from their seed, labels that are exact margins."""

from __future__ import annotations

import itertools

import pytest

from reversi_widget import Board
from reversi_widget.errors import InvalidPositionError
from reversi_widget.notation import format_line
from reversi_widget.rules import Rules
from reversi_widget.search.endgame import make_endgame
from reversi_widget.selfplay import Game, SelfPlaySettings, label_game, play_game
from reversi_widget.solver import solve

#: Cheap games: a shallow level, exact labels only in the last few moves.
QUICK = SelfPlaySettings(level=3, solve_empties=8)
INVERTED = Rules(goal="inverted")


def board_of(mover: int, opponent: int, black: bool) -> Board:
    black_discs, white_discs = (mover, opponent) if black else (opponent, mover)
    return Board(format_line(8, black_discs, white_discs, black, None), rules=INVERTED)


def successors(board: Board) -> set[str]:
    """The positions one move after ``board`` (with the opponent's forced pass made)."""
    out = set()
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        if child.must_pass() and not child.is_game_over():
            child.push_pass()
        out.add(child.to_string())
    return out


def test_a_game_repeats_from_its_seed_and_number_and_is_a_legal_game() -> None:
    game = play_game(5, 0, QUICK)
    assert play_game(5, 0, QUICK) == game
    assert play_game(5, 1, QUICK) != game and play_game(6, 0, QUICK) != game
    boards = [board_of(p.mover, p.opponent, p.black) for p in game.positions]
    assert boards[0].to_string() == Board(rules=INVERTED).to_string()
    for here, after in itertools.pairwise(boards):
        assert after.to_string() in successors(here)
    last = boards[-1]
    assert any(_final(last, move) == (game.black, game.white) for move in last.legal_moves)


def _final(board: Board, move: object) -> tuple[int, int] | None:
    """The discs at the end if ``move`` ends the game from ``board``, else None."""
    child = board.copy()
    child.push(move)  # type: ignore[arg-type]
    return child.bitboards() if child.is_game_over() else None


def test_labels_are_exact_from_the_solve_point_and_the_game_value_before_it() -> None:
    game = play_game(7, 3, QUICK)
    labelled = label_game(game, make_endgame(8, "inverted"), QUICK.solve_empties)
    assert [(p.mover, p.opponent) for p in labelled] == [(p.mover, p.opponent) for p in game.positions]
    anchor = next(i for i, p in enumerate(game.positions) if p.empties <= QUICK.solve_empties)
    first = game.positions[anchor]
    anchor_value = solve(board_of(first.mover, first.opponent, first.black)).score
    for pos, label in zip(game.positions, labelled, strict=True):
        assert label.exact == (pos.empties <= QUICK.solve_empties)
        if label.exact:
            assert label.margin == solve(board_of(pos.mover, pos.opponent, pos.black)).score
        else:
            same_side = pos.black == first.black
            assert label.margin == (anchor_value if same_side else -anchor_value)


def test_a_game_over_before_the_solve_point_is_labelled_with_its_result() -> None:
    game = play_game(7, 3, QUICK)
    labelled = label_game(game, make_endgame(8, "inverted"), 0)  # no position has 0 empties and a move
    black_margin = game.white.bit_count() - game.black.bit_count()  # fewer discs wins
    assert not any(p.exact for p in labelled)
    assert [p.margin for p in labelled] == [black_margin if p.black else -black_margin for p in game.positions]
    assert label_game(Game((), 0, 0), make_endgame(8, "inverted"), 8) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"goal": "giveaway"}, "goal must be one of .*'giveaway'"),
        ({"level": 7}, r"fixed-depth level \(1-5\), got 7"),
        ({"opening": (5, 2)}, r"opening must be .* got \(5, 2\)"),
        ({"random_share": 1.5}, "random_share must be from 0 to 1, got 1.5"),
        ({"solve_empties": 21}, "solve_empties must be from 0 to 20, got 21"),
    ],
)
def test_bad_settings_are_refused_quoting_them(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        SelfPlaySettings(**changes)  # type: ignore[arg-type]
