"""Square-marking mode of js/widget.js in headless Chromium, drawn from what Python syncs: a click
or Enter sends ``quiz_mark`` (never a move) while a quiz is open, the marks and the check's
results are drawn on the squares Python names, and the panel's buttons send their intents."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget import quizzes
from reversi_widget.widget import ReversiWidget
from tests.frontend.test_concept_overlay import synced
from tests.frontend.test_frontend import V1, V2, attr_map, sent, set_traits, sq

pytestmark = pytest.mark.browser

#: A 40-ply game with stable discs of both colours.
LONG = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1g8f5g5a4"


def marks(page: Any, view: str, attr: str) -> dict[str, str]:
    return {square: value for square, value in attr_map(page, view, attr).items() if value is not None}


def push(page: Any, w: ReversiWidget) -> None:
    """Send the view what Python changed."""
    state = w.get_state()
    set_traits(page, **{key: state[key] for key in ("quiz_state", "legal", "ply", "discs", "strings")})


def test_a_click_marks_instead_of_playing(boot: Any) -> None:
    w = ReversiWidget(LONG)
    w.quiz.ask(quizzes.stable("black"))
    page = boot(8, **synced(w))
    assert page.locator(f"{V1} [data-role=quiz]").is_visible()
    assert page.text_content(f"{V1} [data-role=quiz-question]") == w.quiz_state["question"]
    assert page.get_attribute(V1, "data-quiz") == ""
    assert marks(page, V1, "data-legal") == {}  # Python sends no legal moves: nothing gives the answer away
    page.click(sq(V1, "a1"))
    page.click(sq(V2, "c4"))
    page.focus(f"{V1} [data-role=board]")
    page.keyboard.press("ArrowRight")  # the cursor was left on a1 by the click
    page.keyboard.press("Enter")
    ply = w.ply
    assert sent(page) == [{"kind": "quiz_mark", "square": square, "ply": ply} for square in ("a1", "c4", "b1")]
    assert page.get_attribute(sq(V1, "a1"), "data-disc") == "white"  # Python decides what a mark is


def test_marks_and_results_are_drawn_where_python_says(boot: Any) -> None:
    w = ReversiWidget(LONG)
    w.quiz.ask(quizzes.stable("black"))
    answer = sorted(w.quiz.reveal())
    w2 = ReversiWidget(LONG)
    w2.quiz.ask(quizzes.stable("black"))
    page = boot(8, **synced(w2))
    w2.quiz.mark(answer[0], "d4")
    push(page, w2)
    for view in (V1, V2):
        assert marks(page, view, "data-quiz") == {answer[0]: "marked", "d4": "marked"}
        assert marks(page, view, "data-quiz-result") == {}
    assert page.text_content(f"{V1} [data-role=quiz-count]") == "Marked: 2"
    assert page.get_attribute(sq(V1, "d4"), "aria-label").endswith(", marked")
    assert page.locator(f"{V1} [data-role=quiz-verdict]").is_hidden()
    w2.quiz.check()
    push(page, w2)
    assert marks(page, V1, "data-quiz-result") == {"d4": "wrong"}
    assert page.get_attribute(f"{V1} [data-role=quiz]", "data-verdict") == "wrong"
    assert page.text_content(f"{V1} [data-role=quiz-verdict]") == w2.quiz_state["verdict"]
    assert page.get_attribute(sq(V1, "d4"), "aria-label").endswith(", marked, not one of them")
    w2.quiz.reveal()
    push(page, w2)
    missed = {square: "missed" for square in answer[1:]}
    assert marks(page, V2, "data-quiz-result") == {"d4": "wrong", **missed}
    assert page.text_content(f"{V2} [data-role=quiz-answer]") == w2.quiz_state["answer_text"]
    assert page.is_disabled(f"{V1} [data-action=quiz_reveal]")
    w2.quiz.answer(answer)
    push(page, w2)
    assert marks(page, V1, "data-quiz") == dict.fromkeys(answer, "marked")
    assert marks(page, V1, "data-quiz-result") == {}
    assert page.get_attribute(f"{V1} [data-role=quiz]", "data-verdict") == "right"
    w2.quiz.end()
    push(page, w2)
    assert page.locator(f"{V1} [data-role=quiz]").is_hidden() and page.get_attribute(V1, "data-quiz") is None
    assert marks(page, V1, "data-quiz") == {} and marks(page, V1, "data-legal")
    page.click(sq(V1, next(iter(w2.legal))))
    assert sent(page)[-1]["kind"] == "move"  # clicks play again


def test_the_buttons_send_their_intents(boot: Any) -> None:
    w = ReversiWidget(language="ca")
    w.quiz.ask(quizzes.mobility("black"))
    w.quiz.mark("d3")
    page = boot(8, **synced(w))
    labels = [
        page.text_content(f"{V1} [data-action={action}]") for action in ("quiz_check", "quiz_clear", "quiz_reveal")
    ]
    assert labels == ["Comprova", "Esborra les marques", "Mostra la solució"]
    assert page.get_attribute(f"{V1} [data-action=quiz_check]", "data-primary") == ""
    for action in ("quiz_check", "quiz_clear", "quiz_reveal"):
        page.click(f"{V1} [data-action={action}]")
    assert sent(page) == [{"kind": kind, "ply": 0} for kind in ("quiz_check", "quiz_clear", "quiz_reveal")]


def test_the_question_is_text_not_markup(boot: Any) -> None:
    evil = "<img src=x onerror=alert(1)>"
    page = boot(8, quiz_state={"question": evil, "marked": [], "verdict": evil, "verdict_kind": "wrong"})
    assert page.text_content(f"{V1} [data-role=quiz-question]") == evil
    assert page.locator(".reversi-widget img").count() == 0
