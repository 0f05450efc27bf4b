"""The widget's session, intents, aids and view as plain Python: no anywidget, no traits,
no threads. Refusals are values, so each test says which one it expects."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reversi_widget import BLACK, WHITE, Board, IllegalMoveError, Move
from reversi_widget.analysis import analyse
from reversi_widget.play.aids import Aids, AnalysisRefusedError
from reversi_widget.play.intents import ACTIONS, INTENTS, Intent, parse, perform
from reversi_widget.play.practising import practice_done, practice_flip, practice_place, set_practice_mode
from reversi_widget.play.session import NavigationError, Notice, Played, Session
from reversi_widget.play.texts import Explained, Joined, Listed, Plain, Refusal, Text, result_text
from reversi_widget.play.view import picture
from reversi_widget.players import GreedyPlayer, Player
from reversi_widget.practice import PracticeError
from tests.support import END_33_29, PASS_LINE


def session(board: Board | None = None, black: Player | None = None, white: Player | None = None) -> Session:
    return Session(Board() if board is None else board, {BLACK: black, WHITE: white})


def moves(s: Session) -> list[str]:
    return [str(move) for move in s.line]


def test_the_internals_load_without_anywidget_traitlets_or_ipywidgets() -> None:
    code = (
        "import sys\n"
        "for name in ('anywidget', 'traitlets', 'ipywidgets'):\n"
        "    sys.modules[name] = None  # any import of them fails\n"
        "from reversi_widget.play import aids, intents, loading, session, texts, view, workers\n"
        "print('loaded')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "loaded"


# -- navigation -------------------------------------------------------------------------------


def test_play_undo_redo_jump_and_their_refusals() -> None:
    s = session()
    assert s.undo() == Refusal(Text("notice_refused_undo"), NavigationError)
    assert s.redo() == Refusal(Text("notice_refused_redo"), NavigationError)
    for name in ("f5", "d6", "c3"):
        assert s.play(s.board.parse_move(name)) is None
    assert moves(s) == ["f5", "d6", "c3"] and s.board.ply == 3
    assert s.undo() is None and s.board.ply == 2  # two humans: one move back
    assert s.jump(0) is None and s.board.ply == 0 and moves(s) == ["f5", "d6", "c3"]
    assert s.jump(4) == Refusal(Text("notice_refused_jump", got="4", length=3), NavigationError)
    assert s.redo() is None and s.board.ply == 1
    assert s.play(s.board.parse_move("f4")) is None  # a new move replaces the redo tail
    assert moves(s) == ["f5", "f4"] and s.redo_target() is None


def test_a_refused_action_changes_nothing() -> None:
    s = session(Board.from_transcript("f5d6"))
    before = (s.board.to_string(), moves(s), s.generation, s.line_id, s.notice_id)
    illegal = s.play(s.board.parse_move("a1"))
    assert isinstance(illegal, Refusal) and illegal.error is IllegalMoveError and illegal.kind == "explain"
    assert isinstance(illegal.text, Explained)
    assert illegal.text.render("en") == "a1: no white disc is flanked in any direction."
    assert s.play(s.pass_move()) is not None
    assert s.jump(-1) is not None and s.redo() is not None
    assert (s.board.to_string(), moves(s), s.generation, s.line_id, s.notice_id) == before


def test_a_refusal_raises_its_error_in_the_language() -> None:
    refusal = Refusal(Text("notice_refused_undo"), NavigationError)
    error = refusal.exception("pl")
    assert isinstance(error, NavigationError) and isinstance(error, IndexError)
    assert str(error) == Text("notice_refused_undo").render("pl") != Text("notice_refused_undo").render("en")


def test_a_forced_pass_is_played_with_a_notice_and_told_to_the_callbacks() -> None:
    s = session(Board.from_transcript(PASS_LINE))
    assert s.human_move(s.board.parse_move("f2")) is None
    assert moves(s)[-2:] == ["f2", "pass"] and s.board.turn == WHITE
    assert s.notice == Notice("pass", Text("notice_pass", color=Text("black"), other=Text("white")), lasting=True)
    assert [str(played.move) for played in s.played] == ["f2", "pass"]
    # Undo skips the forced pass back to White's decision before f2.
    assert s.undo_target() == len(s.line) - 2 and s.undo() is None and s.board.ply == len(s.line) - 2


def test_the_game_over_is_told_with_its_outcome() -> None:
    s = session(Board("XO" + "-" * 62 + " X"))
    assert s.human_move(s.board.parse_move("c1")) is None
    assert s.played == [Played(Move.from_name("c1"), s.board.outcome())]
    refusal = s.human_move(s.pass_move())
    outcome = s.board.outcome()
    assert outcome is not None
    expected = Text("notice_refused_over", result=result_text(outcome, s.board))
    assert refusal == Refusal(expected, IllegalMoveError)
    assert refusal.text.render("en").startswith("Refused: the game is over (Black wins: Black 3, White 0")


# -- turn-taking with a computer ----------------------------------------------------------------


def test_a_computer_move_is_asked_for_and_played_only_while_current() -> None:
    greedy = GreedyPlayer(seed=1)
    s = session(white=greedy)
    assert s.computer_due() is None  # a human is to move
    assert s.human_move(s.board.parse_move("d3")) is None
    assert s.computer_due() is greedy
    generation = s.think(greedy)
    assert s.computer_due() is None and s.pending == generation
    thinking = Text("notice_refused_thinking", color=Text("white"), player=Plain("greedy"))
    assert s.human_move(s.board.parse_move("c3")) == Refusal(thinking, IllegalMoveError)
    choice = greedy.choose(s.board.copy())
    assert s.undo() is None and s.board.ply == 0 and s.pending is None  # the move went stale
    s.computer_moved(generation, choice)
    assert s.board.ply == 0 and moves(s) == ["d3"]  # never played
    assert s.human_move(s.board.parse_move("d3")) is None
    generation = s.think(greedy)
    s.computer_moved(generation, choice)
    assert moves(s) == ["d3", str(choice)] and s.pending is None and s.computer_due() is None


def test_a_failing_computer_pauses_with_a_notice() -> None:
    s = session(white=GreedyPlayer())
    s.human_move(s.board.parse_move("d3"))
    player = s.computer_due()
    assert player is not None
    s.computer_moved(s.think(player), RuntimeError("out of ideas"))
    assert s.paused and s.board.ply == 1 and s.computer_due() is None
    assert s.notice == Notice(
        "error", Text("notice_player_failed", color=Text("white"), player=Plain("greedy"), error="out of ideas")
    )
    assert s.resume() is None and s.notice is None and s.computer_due() is player


def test_a_computer_side_is_refused_to_humans_and_pause_needs_a_computer() -> None:
    s = session(black=GreedyPlayer())
    not_human = Text("notice_refused_not_human", color=Text("black"), player=Plain("greedy"))
    assert s.human_move(s.board.parse_move("d3")) == Refusal(not_human, IllegalMoveError)
    assert s.pause() is None and s.paused and s.computer_due() is None
    assert session().pause() == Refusal(Text("notice_refused_pause_no_computer"))


# -- practice ---------------------------------------------------------------------------------


def test_practice_from_placing_to_playing() -> None:
    s = session()
    off = Refusal(Text("notice_refused_practice_off", kind="practice_place"), PracticeError)
    assert practice_place(s, s.board.parse_move("d3")) == off
    set_practice_mode(s, True)
    assert s.human_move(s.board.parse_move("d3")) is None
    assert s.practice is not None and s.board.ply == 0  # placed; nothing played yet
    waiting = Refusal(Text("notice_refused_practice_pending", square="d3"), PracticeError)
    assert s.human_move(s.board.parse_move("c4")) == waiting
    own = Refusal(Text("notice_refused_practice_own", square="e4"), PracticeError)
    assert practice_flip(s, s.board.parse_move("e4")) == own
    assert practice_flip(s, s.board.parse_move("e5")) is None  # wrong: e5 does not flip
    assert practice_done(s) is None and s.practice is not None
    problems: tuple[Text, ...] = (Text("practice_should_not_flip", squares=Listed(("e5",)), count=1),)
    problems += (Text("practice_should_flip", squares=Listed(("d4",)), count=1),)
    assert s.notice is not None and s.notice.kind == "explain"
    assert s.notice.text == Text("notice_practice_not_yet", square="d3", problems=Joined(problems))
    practice_flip(s, s.board.parse_move("e5"))
    practice_flip(s, s.board.parse_move("d4"))
    assert practice_done(s) is None and s.practice is None and moves(s) == ["d3"]
    assert (s.mistakes, s.practised) == (2, 1)


def test_practice_switched_off_plays_the_waiting_move() -> None:
    s = session()
    set_practice_mode(s, True)
    s.human_move(s.board.parse_move("f5"))
    set_practice_mode(s, False)
    assert moves(s) == ["f5"] and s.practice is None and s.practised == 0


# -- intents ----------------------------------------------------------------------------------


def test_every_intent_kind_has_one_action() -> None:
    assert set(ACTIONS) == set(INTENTS)


SPELLING = Text("notice_refused_square_spelling", got="'D3'", square="d3")
NOT_AN_INTEGER = Text("notice_refused_type", field="ply", expected=Text("type_integer"), got="True")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ({"kind": "move", "square": "d3", "ply": 0}, Intent("move", Move.from_name("d3"))),
        ({"kind": "pass", "ply": 0}, Intent("pass", Move.null())),
        ({"kind": "jump", "to": 0, "ply": 0}, Intent("jump", Move.null(), 0)),
        ({"kind": "pause", "ply": 99}, Intent("pause", Move.null())),  # never stale
        ({"kind": "move", "square": "D3", "ply": 0}, Refusal(SPELLING)),
        ({"kind": "undo", "ply": 3}, Refusal(Text("notice_refused_stale", got="3", ply=0))),
        ({"kind": "undo", "ply": True}, Refusal(NOT_AN_INTEGER)),
        ("d3", Refusal(Text("notice_refused_not_dict", got="'d3'"))),
    ],
)
def test_parse_gives_an_intent_or_a_refusal(content: object, expected: object) -> None:
    assert parse(content, [], session()) == expected


def test_an_intent_goes_through_the_same_action_as_python() -> None:
    by_intent, by_python = session(), session()
    for name in ("f5", "d6"):
        intent = parse({"kind": "move", "square": name, "ply": by_intent.board.ply}, [], by_intent)
        assert isinstance(intent, Intent) and perform(intent, by_intent, Aids(by_intent)) is None
        by_python.human_move(by_python.board.parse_move(name))
    undo = parse({"kind": "undo", "ply": 2}, [], by_intent)
    assert isinstance(undo, Intent) and perform(undo, by_intent, Aids(by_intent)) is None
    by_python.undo()
    assert by_intent.board == by_python.board and moves(by_intent) == moves(by_python)


# -- aids and the view ---------------------------------------------------------------------------


def test_a_hint_is_refused_as_a_value_and_asked_for_otherwise() -> None:
    over = session(Board(END_33_29))
    assert Aids(over).hint() == Refusal(Text("notice_refused_hint_over"), AnalysisRefusedError)
    s = session()
    aids = Aids(s)
    assert aids.hint() is None and aids.hint_for == aids.key()
    [job] = aids.due()
    assert job.name == "analysis" and job.alive()
    result = job.compute(lambda fraction, message: None)
    job.finish(result)
    assert aids.current_analysis() == result and s.notice is not None
    assert s.notice.text == aids.hint_text(result)
    assert picture(s, aids, "en")["hints"] == [str(e.move) for e in result.moves if e.score == result.best.score]
    s.play(s.board.parse_move("d3"))
    assert not job.alive() and picture(s, aids, "en")["hints"] == []  # another position: gone


def test_a_stale_analysis_result_is_dropped() -> None:
    s = session()
    aids = Aids(s)
    aids.show_scores = True
    [job] = aids.due()
    s.play(s.board.parse_move("d3"))
    job.finish(analyse(Board(), depth=1))
    assert aids.analysis is None and aids.analysis_job is None
    assert [later.name for later in aids.due()] == ["analysis"]  # the new position's analysis


def test_the_view_is_a_function_of_the_session_and_the_language() -> None:
    s = session(Board.from_transcript("f5d6"), white=GreedyPlayer())
    aids = Aids(s)
    english, polish = picture(s, aids, "en"), picture(s, aids, "pl")
    assert english == picture(s, aids, "en")
    differ = {name for name in english if english[name] != polish[name]}
    assert differ == {"status", "count_labels", "players", "strings", "opening"}
    opening_en, opening_pl = english["opening"], polish["opening"]
    assert isinstance(opening_en, dict) and isinstance(opening_pl, dict)
    assert opening_en["name"] == opening_pl["name"] == "Perpendicular"  # the name is not translated
    assert opening_en["text"] == "Opening: Perpendicular" != opening_pl["text"]
    assert english["status"] == "Black to move" and english["moves"] == ["f5", "d6"]
    s.human_move(s.board.parse_move("a1"))  # refused: the view does not change
    assert picture(s, aids, "en") == english
