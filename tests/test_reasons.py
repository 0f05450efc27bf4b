"""Reasons for mistakes (``reversi_widget.reasons``): positions worked out by hand, and on
random games every fact a reason states checked against the board itself, in every language."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import BLACK, WHITE, Board, IllegalMoveError, Rules, concepts, parse_square
from reversi_widget.i18n import LANGUAGES
from reversi_widget.reasons import PARITY_EMPTIES, STANDS_OUT, MistakeReason, why
from tests.support import play_random


def position(rows: list[str], turn: str = "X") -> Board:
    """A board from its rows, a1's row first (``X`` black, ``O`` white, ``-`` empty)."""
    return Board("".join(rows) + " " + turn)


#: Black to move: b2 flips c2 (towards d2), and then White takes a1 along a1-b2-c3.
CORNER = position(
    [
        "--------",
        "--OX----",
        "--O-----",
        "---OX---",
        "---XO---",
        "--------",
        "--------",
        "--------",
    ]
)


def opponent_moves(after: Board) -> set[str]:
    """The moves of the side to move after a move (the opponent), from the rules alone."""
    return {str(move) for move in after.legal_moves if move}


def after(board: Board, move: str) -> Board:
    following = board.copy(stack=False)
    following.push(move)
    return following


def test_a_move_that_gives_a_corner_says_so() -> None:
    assert "a1" not in opponent_moves(after(CORNER, "e6"))
    assert "a1" in opponent_moves(after(CORNER, "b2"))
    reason = why(CORNER, "b2", "e6")
    assert reason == MistakeReason("corner", "b2", "e6", WHITE, square="a1")
    assert reason.render("en") == "b2 gives White the corner a1"
    assert str(reason) == "b2 gives White the corner a1"


def test_an_x_square_beside_an_empty_corner_says_so() -> None:
    board = position(["--------", "--OX----", "--------", "---OX---", "---XO---", "--------", "--------", "--------"])
    reason = why(board, "b2", "e6")
    assert reason is not None and (reason.kind, reason.square) == ("x_square", "a1"), reason
    assert reason.render("en") == "b2 is an X-square next to the empty corner a1"


def test_nothing_stands_out_between_two_symmetric_moves() -> None:
    board = Board()  # the four first moves are one move under the board's symmetries
    assert why(board, "d3", "c4") is None


def test_under_the_inverted_goal_corners_and_stable_discs_are_no_reason() -> None:
    board = Board(CORNER.to_string(), rules=Rules(goal="inverted"))
    reason = why(board, "b2", "e6")
    assert reason is None or reason.kind in ("mobility", "parity")


def check_facts(board: Board, reason: MistakeReason) -> None:
    """Every fact ``reason`` states holds in ``board``, and it is large enough to say."""
    mover = board.turn
    mine, top = after(board, reason.move), after(board, reason.best)
    n = board.size
    corners = {f"{c}{r}" for c in ("a", "abcdefghijklmnop"[n - 1]) for r in (1, n)}
    if reason.kind == "corner":
        assert reason.color == (not mover) and reason.square in corners
        assert reason.square in opponent_moves(mine) and reason.square not in opponent_moves(top)
    elif reason.kind == "x_square":
        col, row = "abcdefghijklmnop".index(reason.move[0]), int(reason.move[1:]) - 1
        assert col in (1, n - 2) and row in (1, n - 2)
        corner = ("a" if col == 1 else "abcdefghijklmnop"[n - 1]) + str(1 if row == 1 else n)
        p, o = board.sides()
        assert reason.square == corner and not (p | o) >> parse_square(corner, n) & 1
    elif reason.kind == "mobility":
        assert reason.color == (not mover)
        assert (reason.count, reason.other) == (len(opponent_moves(mine)), len(opponent_moves(top)))
        assert reason.count - reason.other >= STANDS_OUT
    elif reason.kind == "stable":
        assert reason.color == mover
        assert (reason.count, reason.other) == (len(concepts.stable(mine, mover)), len(concepts.stable(top, mover)))
        assert reason.other - reason.count >= STANDS_OUT
    elif reason.kind == "frontier":
        assert reason.color == mover
        assert (reason.count, reason.other) == (
            len(concepts.frontier(mine, mover)),
            len(concepts.frontier(top, mover)),
        )
        assert reason.count - reason.other >= STANDS_OUT
    else:
        assert reason.kind == "parity" and board.empty_count() <= PARITY_EMPTIES
        region = {s: len(r.squares) for r in concepts.regions(board) for s in r.squares}
        assert (reason.count, reason.other) == (region[reason.move], region[reason.best])
        assert reason.count % 2 == 0 and reason.other % 2 == 1
    if board.rules.goal == "inverted":
        assert reason.kind in ("mobility", "parity")
    for language in LANGUAGES:
        text = reason.render(language)
        assert reason.move in text and (reason.square or str(reason.count)) in text


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([6, 8]),
    goal=st.sampled_from(["classic", "inverted"]),
    plies=st.integers(min_value=2, max_value=50),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_every_fact_a_reason_states_holds_in_its_position(size: int, goal: str, plies: int, seed: int) -> None:
    board = play_random(Board(rules=Rules(size=size, goal=goal)), random.Random(seed), plies)
    if board.is_game_over() or board.must_pass():
        return
    moves = [str(move) for move in board.legal_moves][:6]
    for played, best in itertools.permutations(moves, 2):
        reason = why(board, played, best)
        if reason is not None:
            check_facts(board, reason)


def test_reasons_of_every_kind_arise_in_real_play() -> None:
    """The kinds are not only possible in principle: random 8x8 games show each of them."""
    seen: set[str] = set()
    rng = random.Random(7)
    for _ in range(30):
        board = play_random(Board(), rng, rng.randrange(8, 52))
        if board.is_game_over() or board.must_pass():
            continue
        for played, best in itertools.permutations([str(m) for m in board.legal_moves][:5], 2):
            reason = why(board, played, best)
            if reason is not None:
                check_facts(board, reason)
                seen.add(reason.kind)
    assert seen >= {"corner", "mobility", "stable", "frontier"}, seen


def test_bad_input_is_refused_and_changes_nothing() -> None:
    board = CORNER.copy()
    before = board.to_string()
    with pytest.raises(TypeError, match="why needs a Board, got str"):
        why("d3", "b2", "e6")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="the played move"):
        why(board, "a1", "e6")
    with pytest.raises(IllegalMoveError, match="the best move"):
        why(board, "b2", "h8")
    with pytest.raises(ValueError, match="two different moves: both are b2"):
        why(board, "b2", "b2")
    assert board.to_string() == before
    assert board.turn == BLACK
