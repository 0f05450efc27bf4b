"""Quizzes on a position: a question, and the set of squares that answers it, computed.

A quiz is what the widget's square-marking mode asks (``w.quiz.ask``): the learner marks
squares on the board and presses Check, and Python compares the marks with the answer,
computed from the position shown when it is checked, so a quiz follows the game. The
questions below are built from ``reversi_widget.concepts``: their answers are the
concepts' own sets, never a list typed in by hand. ``Quiz(question, answer)`` makes any
other one: the answer is a function of the board, or a fixed set of squares for a board
whose position stays put.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from . import concepts
from .board import Board, Move
from .errors import ReversiError
from .i18n import translate
from .squares import BLACK, WHITE, Color, parse_square, square_name

__all__ = [
    "BUILT_IN",
    "Quiz",
    "QuizError",
    "QuizResult",
    "check_squares",
    "corner_gifts",
    "frontier",
    "mobility",
    "odd_regions",
    "stable",
    "x_square_moves",
]

Answer = Callable[[Board], Iterable[str]]


class QuizError(ReversiError):
    """A quiz or an answer that cannot be checked: squares off the board, a question that is no
    text. ``got`` is the value refused (a square name that is not one of the board's)."""

    def __init__(self, message: str, got: object = None) -> None:
        super().__init__(message)
        self.got = got


@dataclass(frozen=True)
class QuizResult:
    """A checked set of marks: right when nothing is missed and nothing is wrong.

    ``missed`` are squares of the answer left unmarked, ``wrong`` marked squares that are not
    part of it; ``answer`` is the whole answer. True in a condition when right."""

    marked: frozenset[str]
    answer: frozenset[str]

    @property
    def missed(self) -> frozenset[str]:
        return self.answer - self.marked

    @property
    def wrong(self) -> frozenset[str]:
        return self.marked - self.answer

    @property
    def right(self) -> bool:
        return self.marked == self.answer

    def __bool__(self) -> bool:
        return self.right

    def __str__(self) -> str:
        if self.right:
            return f"right: {_listed(self.answer) or 'none'}"
        return f"not yet: {len(self.missed)} missing, wrong: {_listed(self.wrong) or 'none'}"


@dataclass(frozen=True)
class Quiz:
    """A question on the position shown and how to compute its answer.

    ``question`` is the text shown (a plain string, said as it is in every language), or a
    function of the board and the language (the built-in quizzes say theirs in the
    widget's language). ``answer`` is a function of the board giving square names, or a
    fixed collection of square names (for a board whose position does not change)."""

    question: str | Callable[[Board, str], str]
    answer: Answer | Iterable[str]
    name: str = ""

    def __post_init__(self) -> None:
        if not (isinstance(self.question, str) and self.question.strip()) and not callable(self.question):
            raise QuizError(f"a quiz's question is a non-empty text or a function, got {self.question!r:.60}")
        if not callable(self.answer):
            if isinstance(self.answer, str) or not isinstance(self.answer, Iterable):
                raise QuizError(f"a quiz's answer is square names or a function of the board, got {self.answer!r:.60}")
            object.__setattr__(self, "answer", tuple(self.answer))

    def text(self, board: Board, language: str = "en") -> str:
        """The question as shown on ``board``, in ``language``."""
        return self.question if isinstance(self.question, str) else self.question(board, language)

    def solve(self, board: Board) -> frozenset[str]:
        """The answer on ``board``: ``QuizError`` naming any square that is not on it."""
        given = self.answer(board) if callable(self.answer) else self.answer
        return check_squares(given, board.size, "the quiz's answer")


def check_squares(squares: object, size: int, what: str) -> frozenset[str]:
    """Square names of a ``size`` board, as written ("d3"), or ``QuizError`` naming the first that is not."""
    if isinstance(squares, str) or not isinstance(squares, Iterable):
        raise QuizError(f"{what} must be square names such as ['d3', 'e6'], got {squares!r:.60}", squares)
    names = []
    for square in squares:
        try:
            name = square_name(parse_square(square, size), size) if isinstance(square, str) else None
        except ReversiError:
            name = None
        if name is None or name != square:
            last = square_name(size * size - 1, size)
            board = f"{size}x{size} board (a1 to {last})"
            raise QuizError(f"{what} names {square!r:.20}, which is not a square of the {board}", square)
        names.append(name)
    return frozenset(names)


def _listed(squares: Iterable[str]) -> str:
    return ", ".join(sorted(squares, key=lambda name: (int(name[1:]), name[0])))


def _color(color: str) -> Color:
    if color not in ("black", "white"):
        raise QuizError(f"color must be 'black' or 'white', got {color!r:.20}")
    return BLACK if color == "black" else WHITE


def _asked(key: str, color: str | None) -> Callable[[Board, str], str]:
    """The question of locale text ``key``, naming ``color`` (None: the side to move)."""

    def question(board: Board, language: str) -> str:
        side = color if color is not None else "black" if board.turn == BLACK else "white"
        return translate(key, language, color=translate(side, language))

    return question


# -- the built-in quizzes, one per strategy concept ---------------------------------------


def mobility(color: str) -> Quiz:
    """Every square where ``color`` could play now (its mobility), whoever is to move."""
    side = _color(color)
    return Quiz(_asked("quiz_mobility", color), lambda board: concepts.mobility(board, side), "mobility")


def frontier(color: str) -> Quiz:
    """Every frontier disc of ``color``: a disc next to an empty square."""
    side = _color(color)
    return Quiz(_asked("quiz_frontier", color), lambda board: concepts.frontier(board, side), "frontier")


def stable(color: str) -> Quiz:
    """Every stable disc of ``color`` (``concepts.stable``: no sequence of moves can flip it)."""
    side = _color(color)
    return Quiz(_asked("quiz_stable", color), lambda board: concepts.stable(board, side), "stable")


def odd_regions() -> Quiz:
    """Every empty square of a region with an odd number of empty squares (parity)."""

    def answer(board: Board) -> frozenset[str]:
        return frozenset(square for region in concepts.regions(board) if region.odd for square in region.squares)

    return Quiz(_asked("quiz_odd_regions", None), answer, "odd_regions")


def corner_gifts() -> Quiz:
    """Every move of the side to move after which the opponent, to move, can take a corner
    that it could not take before the move."""

    def answer(board: Board) -> frozenset[str]:
        corners = concepts.corners(board)
        gifts = set()
        for move in board.legal_moves:
            if not move:
                continue
            after = board.copy(stack=False)
            after.push(move)
            replies = list(after.legal_moves) if after.turn != board.turn and not after.is_game_over() else []
            if any(str(reply) in corners for reply in replies):
                gifts.add(str(move))
        return frozenset(gifts)

    return Quiz(_asked("quiz_corner_gifts", None), answer, "corner_gifts")


def x_square_moves() -> Quiz:
    """Every move of the side to move on an X-square whose corner is empty."""

    def answer(board: Board) -> frozenset[str]:
        n = board.size
        empty_corners = [name for name in concepts.corners(board) if board.disc_at(name) is None]
        risky = set()
        for move in board.legal_moves:
            if move and str(move) in concepts.x_squares(board):
                row, col = divmod(_index(move), n)
                corner = square_name((0 if row < n // 2 else n - 1) * n + (0 if col < n // 2 else n - 1), n)
                if corner in empty_corners:
                    risky.add(str(move))
        return frozenset(risky)

    return Quiz(_asked("quiz_x_squares", None), answer, "x_square_moves")


def _index(move: Move) -> int:
    assert move.square is not None
    return move.square


#: The built-in quizzes by name: a function of a colour for those about one side.
BUILT_IN: dict[str, Callable[..., Quiz]] = {
    "mobility": mobility,
    "frontier": frontier,
    "stable": stable,
    "odd_regions": odd_regions,
    "corner_gifts": corner_gifts,
    "x_square_moves": x_square_moves,
}
