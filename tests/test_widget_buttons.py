"""Which buttons apply, decided in Python (``actions``), and how long a notice lives.

Session-level, without anywidget: the view function ``actions`` on a session and its aids.
"""

from __future__ import annotations

from reversi_widget import BLACK, WHITE, Board, Move
from reversi_widget.play.aids import Aids
from reversi_widget.play.practising import practice_done, practice_flip, practice_reveal
from reversi_widget.play.session import Notice, Session
from reversi_widget.play.texts import Text
from reversi_widget.play.view import actions, picture
from reversi_widget.players import Player
from tests.support import PASS_LINE, play_random, widget

# Black to move; after a8 White's only move, e1, ends the game.
BEFORE_THE_END = (
    "e6d6c3f4d7c5g4g3c4g5b5c7f5a5a6d8a4f7f6d3h4c2e7e3g6f8b4b3e2h5b6f3h6g7c6a7d2d1c1b1c8b2h7h8h2a3h3h1f2g2f1g1"
    "e8g8a2a1b7b8"
)


class Scripted:
    """A computer that plays the moves it is given, one per turn, then its first legal move."""

    name = "scripted"

    def __init__(self, *moves: str) -> None:
        self.moves = list(moves)

    def choose(self, board: Board) -> Move:
        return board.parse_move(self.moves.pop(0)) if self.moves else next(iter(board.legal_moves))


def session(board: Board | None = None, black: Player | None = None, white: Player | None = None) -> Session:
    return Session(Board() if board is None else board, {BLACK: black, WHITE: white})


def reply(s: Session) -> None:
    """The computer due moves now, as the widget's worker would make it."""
    player = s.computer_due()
    assert player is not None
    s.computer_moved(s.think(player), player.choose(s.board.copy()))


def buttons(s: Session) -> dict[str, str]:
    return actions(s, Aids(s))


# -- actions ------------------------------------------------------------------------------------


def test_two_people_get_undo_redo_new_and_hint_but_no_pause_and_no_pass() -> None:
    s = session()
    assert buttons(s) == {"undo": "disabled", "redo": "disabled", "new": "enabled", "hint": "enabled"}
    s.play(s.board.parse_move("f5"))
    s.undo()
    assert buttons(s) == {"undo": "disabled", "redo": "enabled", "new": "enabled", "hint": "enabled"}


def test_pause_only_while_computers_play_each_other() -> None:
    human_vs_computer = session(white=Scripted("f6"))
    human_vs_computer.play(human_vs_computer.board.parse_move("f5"))
    assert "pause" not in buttons(human_vs_computer)  # the computer answers the human: nothing to pause
    assert buttons(human_vs_computer)["hint"] == "disabled"  # the computer's turn: a hint must wait
    both = session(Board.from_transcript(BEFORE_THE_END + "a8"), black=Scripted(), white=Scripted("e1"))
    assert buttons(both)["pause"] == "enabled" and "hint" not in buttons(both)
    reply(both)  # the game ends
    assert both.board.is_game_over() and "pause" not in buttons(both)
    paused = session(white=Scripted())
    paused.set_paused(True)  # paused from Python in a game against the computer: Resume shows
    assert buttons(paused)["pause"] == "enabled"


def test_pass_shows_only_when_it_is_the_only_move_and_is_the_primary_action() -> None:
    s = session(Board.from_transcript(PASS_LINE))
    assert "pass" not in buttons(s)
    s.human_move(s.board.parse_move("f2"))  # Black has no move: the pass plays itself at the end of the line
    assert str(s.line[-1]) == "pass" and "pass" not in buttons(s)
    s.jump(len(s.line) - 1)  # back to the position before the pass: now Black must pass by hand
    assert s.board.must_pass() and buttons(s)["pass"] == "primary"
    assert buttons(s)["hint"] == "disabled"  # nothing to choose


def test_practice_makes_done_the_primary_action_and_nothing_else() -> None:
    s = session()
    s.practice_mode = True
    s.human_move(s.board.parse_move("d3"))
    assert s.practice is not None
    expected = {
        "undo": "enabled",
        "redo": "disabled",
        "new": "enabled",
        "hint": "disabled",
        "practice_done": "primary",
        "practice_reveal": "enabled",
    }
    assert buttons(s) == expected
    # the front-end tests draw exactly this (tests/frontend/test_frontend.py, PRACTICE)
    from tests.frontend.test_frontend import PRACTICE

    assert PRACTICE["actions"] == expected


def test_a_finished_game_offers_its_review_until_it_is_done_then_a_new_game() -> None:
    w, _ = widget(board=play_random(Board(), __import__("random").Random(5)), analysis_depth=1)
    assert w.game_over and w.actions["review"] == "primary" and w.actions["new"] == "enabled"
    assert "hint" not in w.actions and "pass" not in w.actions and w.can_review
    w.review()
    assert w.wait(60) and w.review_moves
    assert "review" not in w.actions and w.actions["new"] == "primary" and not w.can_review
    w.jump(3)  # reviewing the game: still reviewed, still no Review button
    assert "review" not in w.actions and w.review_moves


# -- notices ------------------------------------------------------------------------------------


def test_a_pass_notice_turns_to_history_when_the_computer_moves_on_and_goes_when_the_human_acts() -> None:
    """A forced pass is said until the side that passed acts (issue 27, item 6), in the past
    once the other side has moved again, so it is never stale (issue 13, item 5)."""
    s = session(Board.from_transcript(PASS_LINE), white=Scripted("f2", "b1"))
    reply(s)  # White plays f2, Black has no move and passes
    assert s.notice is not None and s.notice.kind == "pass" and str(s.line[-1]) == "pass"
    assert s.notice.text.render("en") == "Black has no legal move and passes; White moves again"
    reply(s)  # White moves again (b1, after which Black can move): said as what happened
    assert s.notice is not None and s.board.ply == len(s.line) and s.board.turn == BLACK
    assert s.notice.text.render("en") == "Black had no legal move and passed; White played f2, b1"
    s.human_move(next(iter(s.board.legal_moves)))  # Black acts: the notice has said its piece
    assert s.notice is None or s.notice.kind != "pass"
    end = session(Board.from_transcript(BEFORE_THE_END), white=Scripted("e1"))
    end.notify("pass", Text("notice_pass", color=Text("white"), other=Text("black")))
    end.human_move(end.board.parse_move("a8"))
    reply(end)
    assert end.board.is_game_over() and end.notice is None
    assert picture(end, Aids(end), "en")["notice"] == ""


def test_a_refusal_goes_with_the_computers_move() -> None:
    s = session(white=Scripted("f6"))
    s.play(s.board.parse_move("f5"))
    s.notify("error", Text("notice_refused_thinking", color=Text("white"), player=Text("level_expert")))
    reply(s)
    assert s.notice is None


def test_practice_feedback_stays_through_the_reply_until_the_learner_acts_or_the_game_ends() -> None:
    s = session(white=Scripted("c3"))
    s.practice_mode = True
    s.human_move(s.board.parse_move("d3"))
    practice_flip(s, s.board.parse_move("d4"))
    practice_done(s)
    assert (
        s.notice is not None
        and s.notice.lasting
        and isinstance(s.notice.text, Text)
        and s.notice.text.key == "notice_practice_correct"
    )
    feedback = s.notice
    reply(s)
    assert s.notice is feedback  # the learner still reads why d3 was right
    s.human_move(s.board.parse_move("c4"))  # places the next practice disc: the old feedback goes
    assert s.notice is None
    end = session(Board.from_transcript(BEFORE_THE_END), white=Scripted("e1"))
    end.practice_mode = True
    end.human_move(end.board.parse_move("a8"))
    assert practice_reveal(end) is None and end.notice is not None and end.notice.lasting
    reply(end)  # the reply ends the game: nothing is left under the banner
    assert end.board.is_game_over() and end.notice is None


def test_a_notice_is_a_value() -> None:
    assert Notice("info", Text("x")) == Notice("info", Text("x"), False) != Notice("info", Text("x"), True)
