"""Square-marking mode in the widget model, driven by the messages a view sends: marks, Check,
Clear and Show the answer; the quiz's answers are ``concepts``' sets; bad quizzes, bad answers
and messages a view should never send are refused with a reason and change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import BLACK, WHITE, Board, Rules, concepts, quizzes
from reversi_widget.i18n import LANGUAGES
from reversi_widget.quizzes import Quiz, QuizError
from reversi_widget.widget import ReversiWidget
from tests.support import click, play_random, send, snapshot, widget

#: 18 plies, discs on three edges.
GAME = "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1"
#: A 40-ply game with stable discs of both colours and discs on X- and C-squares.
LONG = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1g8f5g5a4"


def mark(w: ReversiWidget, square: str) -> None:
    send(w, {"kind": "quiz_mark", "square": square, "ply": w.ply})


def press(w: ReversiWidget, kind: str) -> None:
    send(w, {"kind": kind, "ply": w.ply})


def test_marks_check_and_the_verdicts() -> None:
    w, capture = widget(board=LONG)
    assert w.quiz_state == {} and not w.quiz.open
    assert w.legal  # a human is to move: the legal moves are shown
    w.quiz.ask(quizzes.stable("black"))
    answer = sorted(concepts.stable(w.board, BLACK))
    assert len(answer) > 2
    state = w.quiz_state
    assert state["question"] == "Black: mark every stable disc of this side (a disc that no move can ever flip)."
    assert state["marked"] == [] and state["verdict"] == "" and w.legal == {}  # a click marks now
    mark(w, answer[0])
    mark(w, "d4")  # not stable
    assert set(w.quiz_state["marked"]) == {answer[0], "d4"} and w.quiz.marked == w.quiz_state["marked"]
    press(w, "quiz_check")
    state = w.quiz_state
    assert state["verdict_kind"] == "wrong" and state["wrong"] == ["d4"] and state["checks"] == 1
    missing = len(answer) - 1
    assert state["verdict"] == (
        f"Not yet: {missing} squares are missing. d4 is not one of them. "
        "Change your marks and press Check again, or ask for the answer."
    )
    mark(w, "d4")  # unmark
    assert w.quiz_state["verdict"] == ""  # the marks changed: the last check no longer stands
    for square in answer[1:]:
        mark(w, square)
    press(w, "quiz_check")
    state = w.quiz_state
    assert state["verdict_kind"] == "right" and state["solved"] and state["checks"] == 2
    in_order = sorted(answer, key=lambda name: (int(name[1:]), name[0]))
    assert state["verdict"] == f"Right: all {len(answer)} of them, {', '.join(in_order)}."
    assert not [m for m in capture.custom() if m.get("kind") == "refused"]


def test_show_the_answer_and_clear() -> None:
    w, _ = widget(board=GAME)
    w.quiz.ask(quizzes.mobility("white"))
    mark(w, "a1")
    press(w, "quiz_reveal")
    expected = sorted(concepts.mobility(w.board, WHITE), key=lambda name: (int(name[1:]), name[0]))
    state = w.quiz_state
    assert state["answer"] == expected and state["answer_text"].startswith(f"The answer: {expected[0]}")
    assert state["answer_text"].endswith(f"{len(expected)} squares.") and not state["solved"]
    press(w, "quiz_clear")
    assert w.quiz_state["marked"] == [] and w.quiz_state["answer"] == expected
    w.quiz.answer(expected)
    assert w.quiz_state["verdict_kind"] == "right" and not w.quiz_state["solved"]  # found after it was shown


def test_an_empty_answer_is_right_with_no_marks() -> None:
    w = ReversiWidget()
    w.quiz.ask(quizzes.stable("black"))
    result = w.quiz.check()
    assert result and result.right and w.quiz_state["verdict"] == "Right: there is none here."
    assert not w.quiz.answer(["d4"]) and w.quiz_state["wrong"] == ["d4"]


def test_the_answer_follows_the_position_and_marks_go_with_it() -> None:
    w = ReversiWidget()
    w.quiz.ask(quizzes.mobility("black"))
    mark(w, "d3")
    w.play("d3")  # Python still plays; the quiz asks about the new position
    assert w.quiz_state["marked"] == [] and w.quiz.marked == []
    assert w.quiz.answer(sorted(concepts.mobility(w.board, BLACK)))
    w.undo()
    assert w.quiz_state["verdict"] == "" and w.quiz.answer(["c4", "d3", "e6", "f5"])


def test_answers_stay_hidden_until_found_or_shown() -> None:
    w = ReversiWidget(LONG, concept="stable", show_scores=True, analysis_depth=1)
    w.wait(10)
    assert w.concept_marks and w.scores
    w.quiz.ask(quizzes.stable("black"))
    assert w.concept_marks == {} and w.concept_note == "" and w.scores == {} and w.legal == {}
    w.quiz.reveal()
    assert w.concept_marks == ReversiWidget(LONG, concept="stable").concept_marks
    w.hint()  # settled: the hint may be asked for again
    assert w.legal == {}  # clicks still mark
    w.quiz.end()
    assert w.quiz_state == {} and w.legal


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_in_every_language(language: str) -> None:
    w = ReversiWidget(LONG, language=language)
    for name, make in quizzes.BUILT_IN.items():
        quiz = make("black") if name in ("mobility", "frontier", "stable") else make()
        w.quiz.ask(quiz)
        w.quiz.answer(["a1"])
        state = w.quiz_state
        assert state["question"] and state["verdict"] and "{" not in state["question"] + state["verdict"]
        w.quiz.reveal()
        assert w.quiz_state["answer_text"] and "{" not in w.quiz_state["answer_text"]


# -- the built-in quizzes' answers, against their definitions square by square ---------------------


def brute_corner_gifts(board: Board) -> set[str]:
    n = board.size
    corners = {f"{file}{rank}" for file in "a" + "abcdefghijklmnop"[n - 1] for rank in (1, n)}
    gifts = set()
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        if after.turn != board.turn and any(str(reply) in corners for reply in after.legal_moves):
            gifts.add(str(move))
    return gifts


def brute_x_square_moves(board: Board) -> set[str]:
    n = board.size
    letters = "abcdefghijklmnop"
    pairs = {(1, 1): (0, 0), (1, n - 2): (0, n - 1), (n - 2, 1): (n - 1, 0), (n - 2, n - 2): (n - 1, n - 1)}
    out = set()
    for (row, col), (crow, ccol) in pairs.items():
        name, corner = f"{letters[col]}{row + 1}", f"{letters[ccol]}{crow + 1}"
        if board.disc_at(corner) is None and any(str(move) == name for move in board.legal_moves):
            out.add(name)
    return out


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([4, 6, 8, 10]), goal=st.sampled_from(["classic", "inverted"]), seed=st.integers(0, 10**6))
def test_built_in_answers_are_their_definitions(size: int, goal: str, seed: int) -> None:
    rng = random.Random(seed)
    board = play_random(Board(rules=Rules(size=size, goal=goal)), rng, rng.randrange(size * size - 3))
    side = rng.choice([BLACK, WHITE])
    color = "black" if side == BLACK else "white"
    assert quizzes.stable(color).solve(board) == concepts.stable(board, side)
    assert quizzes.frontier(color).solve(board) == concepts.frontier(board, side)
    assert quizzes.mobility(color).solve(board) == concepts.mobility(board, side)
    odd = {square for region in concepts.regions(board) if region.odd for square in region.squares}
    assert quizzes.odd_regions().solve(board) == odd
    assert quizzes.corner_gifts().solve(board) == brute_corner_gifts(board)
    assert quizzes.x_square_moves().solve(board) == brute_x_square_moves(board)


def test_hand_checked_corner_gifts_and_x_square_moves() -> None:
    board = Board.from_transcript("f5f4f3f6d6f2g5h4")
    # Black g7 flips f6, and then White's h8 flips g7, f6 and e5 back: the corner is given away.
    # Black g2 (flipping f3) sits next to the empty h1, but White cannot take h1 after it.
    assert quizzes.corner_gifts().solve(board) == {"g7"} == brute_corner_gifts(board)
    assert quizzes.x_square_moves().solve(board) == {"g2", "g7"} == brute_x_square_moves(board)


# -- refusals: nothing changes ---------------------------------------------------------------------


def test_a_quiz_answer_off_the_board_is_refused_and_changes_nothing() -> None:
    w = ReversiWidget(rules=Rules(size=6))
    before = snapshot(w)
    with pytest.raises(QuizError, match=r"names 'g7', which is not a square of the 6x6 board \(a1 to f6\)"):
        w.quiz.ask("Mark the corners", ["a1", "g7"])
    with pytest.raises(QuizError, match="names 'A1'"):
        w.quiz.ask("Mark the corners", ["A1"])
    with pytest.raises(QuizError, match="square names"):
        w.quiz.ask("Mark the corners", "a1")
    with pytest.raises(QuizError, match="question"):
        w.quiz.ask(" ", ["a1"])
    assert snapshot(w) == before and not w.quiz.open
    w.quiz.ask("Mark the corners", ["a1", "f1", "a6", "f6"])
    w.quiz.mark("a1")
    before = snapshot(w)
    for bad in (["b2", "h8"], ["b2", 7], ["b2", "b02"], "b2"):
        with pytest.raises(QuizError, match=r"the answer given|square names"):
            w.quiz.answer(bad)  # type: ignore[arg-type]
        with pytest.raises(QuizError):
            w.quiz.mark(*bad)
    assert snapshot(w) == before and w.quiz.marked == ["a1"]
    assert w.quiz.answer(["f6", "a6", "a1", "f1"])


def test_an_answer_function_off_the_board_or_failing_is_refused_at_check() -> None:
    w, capture = widget()

    def corners(board: Board) -> list[str]:
        return ["a1", "h1", "a8", "h8"] if board.ply == 0 else ["a1", "i9"]

    w.quiz.ask("Mark the corners", corners)
    w.play("d3")
    mark(w, "a1")
    before = snapshot(w)
    press(w, "quiz_check")
    assert w.notice == (
        "Refused: the quiz's answer names 'i9', which is not a square of the 8x8 board (a1 to h8); "
        "nothing was marked or checked"
    )
    assert capture.custom()[-1] == {"kind": "refused", "reason": w.notice}
    assert snapshot(w) == before
    with pytest.raises(QuizError, match="names 'i9'"):
        w.quiz.check()

    def broken(board: Board) -> list[str]:
        raise RuntimeError("no answer here")

    before = snapshot(w)
    with pytest.raises(QuizError, match=r"could not be computed here \(RuntimeError\('no answer here'\)\)"):
        w.quiz.ask(Quiz("Broken", broken))
    assert snapshot(w) == before and w.quiz_state["question"] == "Mark the corners"


BAD_MESSAGES: list[tuple[dict[str, Any], str]] = [
    ({"kind": "quiz_mark", "square": "i1", "ply": 0}, "'i1' is not a square of this 8x8 board"),
    ({"kind": "quiz_mark", "square": "D3", "ply": 0}, "'D3'"),
    ({"kind": "quiz_mark", "square": 19, "ply": 0}, "square"),
    ({"kind": "quiz_mark", "ply": 0}, "square"),
    ({"kind": "quiz_mark", "square": "d3", "ply": 0, "marks": ["d3"]}, "marks"),
    ({"kind": "quiz_mark", "square": "d3", "ply": 5}, "5"),
    ({"kind": "quiz_check", "ply": "0"}, "ply"),
    ({"kind": "quiz_answer", "squares": ["d3"], "ply": 0}, "quiz_answer"),
    ({"kind": "move", "square": "d3", "ply": 0}, "a quiz is open"),
    ({"kind": "edit", "ply": 0}, "a quiz is open"),
    ({"kind": "hint", "ply": 0}, "no hint while a quiz waits for its answer"),
]


@pytest.mark.parametrize(("message", "said"), BAD_MESSAGES, ids=[str(m) for m, _ in BAD_MESSAGES])
def test_messages_a_view_never_sends_are_refused_and_change_nothing(message: dict[str, Any], said: str) -> None:
    w, capture = widget()
    w.quiz.ask(quizzes.mobility("black"))
    mark(w, "c4")
    before = snapshot(w)
    capture.clear()
    send(w, message)
    assert said in w.notice and w.notice_kind == "error"
    assert capture.custom() == [{"kind": "refused", "reason": w.notice}]
    assert snapshot(w) == before


@pytest.mark.parametrize("kind", ["quiz_mark", "quiz_check", "quiz_clear", "quiz_reveal"])
def test_quiz_messages_without_a_quiz_are_refused(kind: str) -> None:
    w, _ = widget()
    before = snapshot(w)
    send(w, {"kind": kind, "ply": 0, **({"square": "d3"} if kind == "quiz_mark" else {})})
    assert w.notice == f"Refused: {kind} needs a quiz on the board; ask one from Python first (w.quiz.ask)"
    assert snapshot(w) == before
    with pytest.raises(QuizError, match="no quiz is open"):
        w.quiz.mark("d3")


def test_no_quiz_while_editing_and_no_marks_on_the_editor() -> None:
    w = ReversiWidget()
    w.edit()
    with pytest.raises(Exception, match=r"editing|editor"):
        w.quiz.ask(quizzes.stable("black"))
    w.edit_cancel()
    w.quiz.ask(quizzes.stable("black"))
    w.edit()  # from Python the editor opens; the quiz waits and its marks are refused meanwhile
    assert w.quiz_state == {}
    before = snapshot(w)
    mark(w, "d4")
    assert snapshot(w) == before and w.notice_kind == "error"
    w.edit_cancel()
    assert w.quiz_state["question"]


def test_the_quiz_on_six_by_six_under_the_inverted_goal() -> None:
    board = play_random(Board(rules=Rules(size=6, goal="inverted")), random.Random(4), 20)
    w = ReversiWidget(board)
    w.quiz.ask(quizzes.odd_regions())
    odd = {square for region in concepts.regions(board) if region.odd for square in region.squares}
    assert bool(w.quiz.answer(sorted(odd)))
    click(w, "a1")  # a move is refused while the quiz is open
    assert "a quiz is open" in w.notice
