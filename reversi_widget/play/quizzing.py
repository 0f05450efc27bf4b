"""Square-marking mode: a quiz on the position shown, the learner's marks, and Python's check.

A notebook asks a ``quizzes.Quiz`` (``w.quiz.ask``); while it is open a click on the board
marks or unmarks a square (the ``quiz_mark`` intent) instead of playing, Check compares the
marks with the answer computed from the position shown (``quiz_check``), Clear takes the
marks away, and Show the answer marks it. The marks belong to one position: when the game
moves on (from Python: ``w.play``...) they go, and the quiz asks about the new position.
Until the learner has it right or has asked for the answer, nothing on the board gives it
away: the legal moves, the hint, the scores and the concept overlay are not shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

from ..board import Board
from ..i18n import translate
from ..quizzes import Quiz, QuizError, QuizResult, check_squares
from ..squares import square_name
from .session import Session
from .texts import Joined, Refusal, Text, quote_input, squares_text

__all__ = ["QUIZ_INTENTS", "QuizControl", "QuizRun", "quiz_action", "quiz_picture", "without_answers"]

#: The intents of square-marking mode (js/PROTOCOL.md).
QUIZ_INTENTS = ("quiz_mark", "quiz_check", "quiz_clear", "quiz_reveal")


def _in_order(squares: Iterable[str]) -> list[str]:
    """Square names in board order: a1, b1, ... a2."""
    return sorted(squares, key=lambda name: (int(name[1:]), name[0]))


class QuizRun:
    """The quiz on the board: the marks of the position shown, and the last check of them."""

    def __init__(self, quiz: Quiz) -> None:
        self.quiz = quiz
        self.position = ""  # the position the marks and the check belong to
        self.marked: set[str] = set()
        self.result: QuizResult | None = None  # the last check, while the marks are unchanged
        self.revealed: frozenset[str] | None = None  # the answer, once asked for
        self.checks = 0  # checks on this position
        self.solved = False  # this position's answer was found (before it was shown)

    def follow(self, board: Board) -> None:
        """Drop the marks and the check of a position that is no longer shown."""
        key = f"{board.to_string()} {board.ply}"
        if key != self.position:
            self.position = key
            self.marked, self.result, self.revealed = set(), None, None
            self.checks, self.solved = 0, False

    def settled(self) -> bool:
        """The learner found the answer or asked for it: the board may show everything again."""
        return self.solved or self.revealed is not None

    def answer(self, board: Board) -> frozenset[str] | Refusal:
        """The quiz's answer on ``board``, or why it cannot be had."""
        try:
            return self.quiz.solve(board)
        except QuizError as error:
            return off_board(error, board.size, "quiz_answer_of_quiz")
        except Exception as error:  # the notebook's own function failed: say so, change nothing
            return Refusal(Text("notice_refused_quiz_failed", error=quote_input(error)), QuizError)

    def toggle(self, square: str) -> None:
        self.marked ^= {square}
        self.result = None

    def check(self, board: Board) -> Refusal | None:
        answer = self.answer(board)
        if isinstance(answer, Refusal):
            return answer
        self.result = QuizResult(frozenset(self.marked), answer)
        self.checks += 1
        self.solved = self.solved or (self.result.right and self.revealed is None)
        return None

    def reveal(self, board: Board) -> Refusal | None:
        answer = self.answer(board)
        if isinstance(answer, Refusal):
            return answer
        self.revealed = answer
        return None

    def verdict(self) -> Text | Joined | None:
        """What the last check says: right, or what is missing and which marks are wrong."""
        result = self.result
        if result is None:
            return None
        if result.right:
            names = _in_order(result.answer)
            return squares_text("quiz_right", names) if names else Text("quiz_right_none")
        problems = []
        if result.missed:
            problems.append(Text("quiz_missing", count=len(result.missed)))
        if result.wrong:
            problems.append(squares_text("quiz_wrong", _in_order(result.wrong)))
        return Text("quiz_not_yet", problems=Joined(tuple(problems)))

    def picture(self, board: Board, language: str) -> dict[str, object]:
        """The ``quiz_state`` trait (js/PROTOCOL.md)."""
        shown = self.position == f"{board.to_string()} {board.ply}"
        result = self.result if shown else None
        verdict = self.verdict() if shown else None
        revealed = self.revealed if shown else None
        answer_text = ""
        if revealed is not None:
            names = _in_order(revealed)
            answer_text = squares_text("quiz_answer", names).render(language) if names else ""
            answer_text = answer_text or translate("quiz_answer_none", language)
        return {
            "question": self.quiz.text(board, language),
            "marked": _in_order(self.marked) if shown else [],
            "verdict": "" if verdict is None else verdict.render(language),
            "verdict_kind": "" if result is None else "right" if result.right else "wrong",
            "wrong": [] if result is None else _in_order(result.wrong),
            "answer": [] if revealed is None else _in_order(revealed),
            "answer_text": answer_text,
            "checks": self.checks if shown else 0,
            "solved": self.solved if shown else False,
        }


def off_board(error: QuizError, size: int, what: str) -> Refusal:
    """The refusal of squares that are not the board's, naming the first."""
    last = square_name(size * size - 1, size)
    text = Text("notice_refused_quiz_square", what=Text(what), got=quote_input(error.got), size=size, last=last)
    return Refusal(text, QuizError)


def quiz_action(session: Session, kind: str, square: str = "") -> Refusal | None:
    """One of ``QUIZ_INTENTS``: only while a quiz is open, on a position of the game."""
    run = session.quiz
    if run is None:
        return Refusal(Text("notice_refused_no_quiz", kind=kind), QuizError)
    if session.editor is not None:
        return Refusal(Text("notice_refused_editing"))
    refusal = session.practice_waiting()
    if refusal is not None:
        return refusal
    board = session.board
    run.follow(board)
    if kind == "quiz_mark":
        run.toggle(square)
    elif kind == "quiz_clear":
        run.marked, run.result = set(), None
    elif kind == "quiz_check":
        refusal = run.check(board)
    else:
        refusal = run.reveal(board)
    if refusal is None:
        session.clear_notice()  # a refusal shown before is out of date
    return refusal


def quiz_picture(session: Session, language: str) -> dict[str, object]:
    """``quiz_state`` for the position shown: ``{}`` without a quiz (or while editing)."""
    run = session.quiz
    if run is None or session.editor is not None:
        return {"quiz_state": {}}
    return {"quiz_state": run.picture(session.board, language)}


def without_answers(session: Session) -> dict[str, object]:
    """What a quiz hides while open: the legal moves always (a click marks), and the aids and
    the concept overlay until the learner has the answer or asked for it."""
    run = session.quiz
    if run is None or session.editor is not None:
        return {}
    hidden: dict[str, object] = {"legal": {}}
    shown = run.position == f"{session.board.to_string()} {session.board.ply}"
    if not (shown and run.settled()):
        hidden.update(hints=[], scores={}, lines={}, concept_marks={}, concept_note="")
    return hidden


Act = Callable[[Callable[[Session], "Refusal | None"]], None]


class QuizControl:
    """``w.quiz``: the Python side of square-marking mode, as the learner's clicks are.

    ``ask`` opens a quiz; ``mark``, ``check``, ``clear`` and ``reveal`` do what the board's
    clicks and buttons do (refusals are raised, nothing changed); ``answer`` marks exactly
    the squares given and checks them; ``end`` closes the quiz."""

    def __init__(self, session: Session, act: Act, operation: Callable[[], AbstractContextManager[Any]]) -> None:
        self._session = session
        self._act = act
        self._operation = operation

    def ask(self, quiz: Quiz | str, answer: Any = None) -> None:
        """Open ``quiz`` on the board (a ``Quiz``, or a question's text with its ``answer``:
        square names, or a function of the board giving them). The answer is computed on the
        position shown first: squares off the board raise ``QuizError`` and open nothing."""
        if not isinstance(quiz, Quiz):
            quiz = Quiz(quiz, answer)
        elif answer is not None:
            raise QuizError("give the answer inside the Quiz, or a question's text and its answer")
        asked = quiz

        def open_quiz(session: Session) -> Refusal | None:
            run = QuizRun(asked)
            refusal = run.answer(session.board)
            if isinstance(refusal, Refusal):
                return refusal
            if session.editor is not None:
                return Refusal(Text("notice_refused_editing"))
            session.quiz = run
            run.follow(session.board)
            session.clear_notice()
            return None

        self._act(open_quiz)

    def mark(self, *squares: str) -> None:
        """Mark each square, or unmark it if marked (all checked first: one off the board
        raises ``QuizError`` and marks nothing)."""
        names = self._squares(squares)
        with self._operation():
            for name in names:
                self._act(partial(quiz_action, kind="quiz_mark", square=name))

    def check(self) -> QuizResult:
        """Check the marks: the result is True when right; ``missed`` and ``wrong`` say what is not."""
        with self._operation():
            self._act(lambda session: quiz_action(session, "quiz_check"))
            run = self._session.quiz
            assert run is not None and run.result is not None
            return run.result

    def answer(self, squares: Iterable[str]) -> QuizResult:
        """Mark exactly ``squares`` and check them (off the board: ``QuizError``, nothing changed)."""
        names = set(self._squares(squares))
        with self._operation():
            self._act(lambda session: quiz_action(session, "quiz_clear"))
            for name in _in_order(names):
                self._act(partial(quiz_action, kind="quiz_mark", square=name))
            return self.check()

    def clear(self) -> None:
        self._act(lambda session: quiz_action(session, "quiz_clear"))

    def reveal(self) -> frozenset[str]:
        """Show the answer on the board, and return it."""
        with self._operation():
            self._act(lambda session: quiz_action(session, "quiz_reveal"))
            run = self._session.quiz
            assert run is not None and run.revealed is not None
            return run.revealed

    def end(self) -> None:
        """Close the quiz: clicks play again."""

        def close(session: Session) -> None:
            session.quiz = None

        self._act(close)

    @property
    def marked(self) -> list[str]:
        """The squares marked on the position shown, in board order."""
        with self._operation():
            run = self._session.quiz
            if run is None:
                return []
            run.follow(self._session.board)
            return _in_order(run.marked)

    @property
    def open(self) -> bool:
        return self._session.quiz is not None

    def _squares(self, squares: Iterable[str]) -> list[str]:
        """The names given, checked against the board shown before anything changes."""
        with self._operation():
            if self._session.quiz is None:
                raise QuizError("no quiz is open: ask one first (w.quiz.ask)")
            size = self._session.board.size
            try:
                return _in_order(check_squares(squares, size, "the answer given"))
            except QuizError as error:
                raise off_board(error, size, "quiz_answer_of_learner").exception("en") from None
