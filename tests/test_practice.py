"""Practice mode (rule R17): the learner flips the discs by hand, Python checks them.

The front end is simulated by sending intents straight to the widget's message handler.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from reversi_widget import Board, IllegalMoveError, Move, parse_square
from reversi_widget.practice import FlipRefusal, PracticeError, PracticeMove
from reversi_widget.widget import ReversiWidget

NOTICE_TRAITS = ("notice", "notice_kind", "notice_id")


def sq(name: str) -> int:
    return parse_square(name, 8)


def send(w: ReversiWidget, kind: str, **fields: Any) -> None:
    w._handle_custom_msg({"kind": kind, **fields, "ply": fields.pop("ply", w.ply)}, [])


def snapshot(w: ReversiWidget) -> dict[str, Any]:
    state = {k: v for k, v in copy.deepcopy(w.get_state()).items() if k not in NOTICE_TRAITS}
    state["_board"] = w.board.to_string()
    return state


def disc(w: ReversiWidget, name: str) -> str:
    return w.discs[sq(name)]


# -- the overlay itself ----------------------------------------------------------------------


def test_a_practice_move_starts_with_nothing_flipped() -> None:
    board = Board.from_transcript("f5d6c3d3c4")  # White's b3 flips c3 and c4
    move = Move.from_name("b3")
    practice = PracticeMove.start(board, move)
    assert practice.correct == frozenset(board.flips(move))
    black, white = practice.overlay()
    real_black, real_white = board.bitboards()
    assert white == real_white | 1 << sq("b3") and black == real_black  # placed, nothing turned
    assert practice.correct == {sq("c3"), sq("c4")}
    assert practice.missed == sorted(practice.correct) and practice.wrong == []
    assert not practice.checked and not practice.is_right


def test_toggle_check_and_reveal_count_mistakes_once() -> None:
    board = Board()
    practice = PracticeMove.start(board, Move.from_name("d3"))
    assert practice.refusal(sq("d3")) is FlipRefusal.PLACED
    assert practice.refusal(sq("e4")) is FlipRefusal.OWN
    assert practice.refusal(sq("a1")) is FlipRefusal.EMPTY
    assert practice.refusal(sq("e5")) is None
    with pytest.raises(PracticeError, match="e4 cannot be flipped"):
        practice.toggle(sq("e4"))
    practice.toggle(sq("e5"))  # wrong: e5 is not between d3 and a black disc
    assert not practice.check()
    assert practice.mistakes == 2  # one wrong (e5), one missed (d4)
    practice.toggle(sq("e5"))  # turned back
    practice.toggle(sq("d4"))
    assert practice.check() and practice.mistakes == 2  # the first check counts, corrections are free
    black, white = practice.overlay()
    after = Board.from_transcript("d3")
    assert (black, white) == after.bitboards()


def test_reveal_counts_what_was_wrong_at_that_moment() -> None:
    practice = PracticeMove.start(Board(), Move.from_name("d3"))
    practice.toggle(sq("e5"))
    practice.reveal()
    assert practice.mistakes == 2 and practice.is_right


def test_only_legal_moves_can_be_practised() -> None:
    with pytest.raises(IllegalMoveError):
        PracticeMove.start(Board(), Move.from_name("a1"))
    with pytest.raises(IllegalMoveError):
        PracticeMove.start(Board(), Move.null())


# -- the widget: intents -------------------------------------------------------------------------


def test_a_practice_move_places_the_disc_and_flips_nothing() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="d3")
    assert w.practice_move == "d3" and w.ply == 0
    assert disc(w, "d3") == "X" and disc(w, "d4") == "O"  # placed, d4 not flipped
    assert w.board.to_string() == Board().to_string()  # the engine's position is untouched
    assert w.legal == {} and w.can_undo
    assert w.status == "Black: click each disc that d3 flips, then press Done"
    assert w.counts == {"black": 3, "white": 2}


def test_wrong_flip_is_marked_then_corrected_and_the_opponent_moves() -> None:
    w = ReversiWidget(practice=True, white="greedy")
    send(w, "move", square="d3")
    send(w, "practice_flip", square="e5")  # wrong
    assert w.practice_flips == ["e5"] and disc(w, "e5") == "X"
    assert w.practice_wrong == [] and w.practice_missed == []  # no marks before Done
    send(w, "practice_done")
    assert w.practice_wrong == ["e5"] and w.practice_missed == ["d4"]
    assert w.notice_kind == "explain"
    assert w.notice.startswith("Not yet: e5 should not flip. d4 should flip too.")
    # The tally counts them beside the feedback that names them, not later beside "Correct!".
    assert (w.practice_mistakes, w.practice_moves) == (2, 0)
    assert w.ply == 0 and w.board.to_string() == Board().to_string()
    send(w, "practice_flip", square="e5")  # turned back: the marks follow the corrections
    assert w.practice_wrong == [] and w.practice_missed == ["d4"] and disc(w, "e5") == "O"
    send(w, "practice_flip", square="d4")
    assert w.practice_missed == []
    send(w, "practice_done")
    assert w.notice == "Correct! d3 is legal: it flips 1 disc."
    assert (w.practice_mistakes, w.practice_moves) == (2, 1)
    assert w.practice_move == "" and w.practice_flips == []
    assert w.wait(5)
    assert w.ply == 2 and w.board.transcript().startswith("d3")  # the computer replied


def test_a_right_first_answer_counts_no_mistake() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="f5")
    send(w, "practice_flip", square="e5")
    send(w, "practice_done")
    assert (w.practice_mistakes, w.practice_moves, w.ply) == (0, 1, 1)
    assert w.board.transcript() == "f5"
    assert w.practice_move == "" and w.turn == "white"


def test_reveal_plays_the_true_flips_and_counts_the_mistakes() -> None:
    board = Board.from_transcript("f5f6e6f4e3")  # White's d6 flips d5, e5 and e6 in three lines
    w = ReversiWidget(board, practice=True)
    send(w, "move", square="d6")
    send(w, "practice_flip", square="e5")  # one right, two missed
    send(w, "practice_reveal")
    board.push("d6")
    assert w.board.to_string() == board.to_string() and w.practice_move == ""
    assert (w.practice_mistakes, w.practice_moves) == (2, 1)
    assert w.notice == "The answer: d6 is legal: it flips 3 discs. The discs that flip: d5, e5, e6."


def test_flips_needing_two_checks_count_the_first_only() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="d3")
    send(w, "practice_done")  # nothing turned: one missed
    assert (w.practice_mistakes, w.practice_moves) == (1, 0)
    send(w, "practice_flip", square="e5")
    send(w, "practice_done")  # now one wrong and still one missed: not counted again
    assert (w.practice_mistakes, w.practice_moves) == (1, 0)
    send(w, "practice_reveal")
    assert (w.practice_mistakes, w.practice_moves) == (1, 1)


PRACTICE_REFUSALS = [
    ("flip outside practice", False, None, {"kind": "practice_flip", "square": "d4"}, "works only in practice mode"),
    ("done outside practice", False, None, {"kind": "practice_done"}, "practice_done works only in practice mode"),
    ("reveal outside practice", False, None, {"kind": "practice_reveal"}, "works only in practice mode"),
    ("flip with nothing placed", True, None, {"kind": "practice_flip", "square": "d4"}, "no practice move is waiting"),
    ("done with nothing placed", True, None, {"kind": "practice_done"}, "no practice move is waiting"),
    ("reveal with nothing placed", True, None, {"kind": "practice_reveal"}, "no practice move is waiting"),
    ("flip an empty square", True, "d3", {"kind": "practice_flip", "square": "a1"}, "a1 is empty"),
    ("flip the placed disc", True, "d3", {"kind": "practice_flip", "square": "d3"}, "d3 is the disc just placed"),
    ("flip an own disc", True, "d3", {"kind": "practice_flip", "square": "e4"}, "already had the mover's colour"),
    ("flip off the board", True, "d3", {"kind": "practice_flip", "square": "j9"}, "is not a square of this 8x8"),
    ("flip badly spelled", True, "d3", {"kind": "practice_flip", "square": "D4"}, "expected d4"),
    ("flip square as int", True, "d3", {"kind": "practice_flip", "square": 27}, "square must be a string"),
    ("flip without square", True, "d3", {"kind": "practice_flip"}, "exactly the fields kind, square, ply"),
    ("done with a square", True, "d3", {"kind": "practice_done", "square": "d4"}, "exactly the fields kind, ply"),
    ("stale flip", True, "d3", {"kind": "practice_flip", "square": "d4", "ply": 3}, "made at ply 3"),
    ("stale done", True, "d3", {"kind": "practice_done", "ply": 1}, "made at ply 1"),
    ("a move while placed", True, "d3", {"kind": "move", "square": "c4"}, "first finish the flips of d3"),
    ("a pass while placed", True, "d3", {"kind": "pass"}, "first finish the flips of d3"),
]


@pytest.mark.parametrize(
    ("practice", "placed", "intent", "reason"),
    [r[1:] for r in PRACTICE_REFUSALS],
    ids=[r[0] for r in PRACTICE_REFUSALS],
)
def test_practice_intents_are_refused_clearly_and_change_nothing(
    practice: bool, placed: str | None, intent: dict[str, Any], reason: str
) -> None:
    w = ReversiWidget(practice=practice)
    if placed:
        send(w, "move", square=placed)
        send(w, "practice_flip", square="d4")  # some work in progress that must survive
    refused: list[Any] = []
    w.comm.send = lambda data=None, metadata=None, buffers=None: refused.append(data)
    before, notice_id = snapshot(w), w.notice_id
    w._handle_custom_msg({"ply": w.ply, **intent}, [])
    assert snapshot(w) == before
    assert reason in w.notice and w.notice_kind == "error" and w.notice_id == notice_id + 1
    assert {"kind": "refused", "reason": w.notice} in [m["content"] for m in refused if m.get("method") == "custom"]


def test_an_illegal_practice_click_is_explained_like_any_illegal_move() -> None:
    w = ReversiWidget(practice=True)
    before = snapshot(w)
    send(w, "move", square="a1")
    assert snapshot(w) == before and w.practice_move == ""
    assert (w.notice_kind, w.notice) == ("explain", "a1: no white disc is flanked in any direction.")


# -- R17: the board stands once the opponent has moved -------------------------------------------


def test_undo_lifts_a_waiting_disc_and_never_reopens_a_played_move() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="d3")
    send(w, "practice_flip", square="d4")
    send(w, "undo")
    assert w.practice_move == "" and w.ply == 0 and w.discs == ReversiWidget().discs
    assert not w.can_undo and w.practice_moves == 0
    send(w, "move", square="d3")
    send(w, "practice_flip", square="d4")
    send(w, "practice_done")
    send(w, "move", square="c3")  # White, also practising
    send(w, "practice_flip", square="d4")
    send(w, "practice_done")
    assert w.ply == 2 and w.practice_moves == 2
    send(w, "undo")
    assert w.ply == 1 and w.practice_move == ""  # back before White's move: no overlay
    send(w, "redo")
    assert w.ply == 2 and w.board.transcript() == "d3c3"  # replayed with its true flips
    assert w.practice_moves == 2


def test_switching_practice_off_plays_the_waiting_move_uncounted() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="d3")
    w.practice = False
    assert w.ply == 1 and w.board.transcript() == "d3" and w.practice_move == ""
    assert (w.practice_mistakes, w.practice_moves) == (0, 0)


def test_the_front_end_can_switch_practice_and_show_me() -> None:
    w = ReversiWidget()
    w.set_state({"practice": True, "show_me": True})
    assert w.practice and w.show_me and w.notice == ""
    w.set_state({"practice": "yes"})
    assert w.practice is True and "expected true or false" in w.notice


def test_a_computer_side_is_never_practised() -> None:
    w = ReversiWidget(practice=True, black="greedy", white="human")
    assert w.wait(5) and w.ply == 1  # the computer played Black with its true flips
    assert w.practice_move == ""
    square = next(iter(w.legal))
    send(w, "move", square=square)
    assert w.practice_move == square


def test_a_side_switched_to_a_computer_drops_the_waiting_disc() -> None:
    w = ReversiWidget(practice=True)
    send(w, "move", square="d3")
    w.black = "greedy"
    assert w.wait(5)
    assert w.practice_move == "" and w.ply == 1


# -- the same from Python -------------------------------------------------------------------------


def test_python_api_for_practice() -> None:
    w = ReversiWidget(practice=True)
    with pytest.raises(PracticeError, match="no practice move is waiting"):
        w.practice_done()
    with pytest.raises(IllegalMoveError, match="a1: no white disc is flanked"):
        w.practice_place("a1")
    w.practice_place("d3")
    with pytest.raises(PracticeError, match="first finish the flips of d3"):
        w.practice_place("c4")
    with pytest.raises(PracticeError, match="e4 already had the mover's colour"):
        w.practice_flip("e4")
    w.practice_flip("e5")
    assert w.practice_done() is False and w.practice_wrong == ["e5"]
    w.practice_flip("e5")
    w.practice_flip("d4")
    assert w.practice_done() is True and w.ply == 1
    with pytest.raises(PracticeError, match="practice_place works only in practice mode"):
        ReversiWidget().practice_place("d3")


def test_practice_texts_in_polish_and_ukrainian() -> None:
    w = ReversiWidget(practice=True, language="pl")
    send(w, "move", square="d3")
    send(w, "practice_flip", square="e5")
    send(w, "practice_done")
    assert w.notice.startswith("Jeszcze nie: e5 nie powinien się odwrócić. d4 też powinien się odwrócić.")
    w.language = "uk"
    assert w.notice.startswith("Ще ні: e5 не має перевертатися. d4 теж має перевернутися.")
    assert w.status == "Темні: клацніть кожну фішку, яку перевертає d3, потім натисніть Готово"
