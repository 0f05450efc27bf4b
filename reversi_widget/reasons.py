"""Why a move lost: one sentence built from facts computed on the board, comparing the move
played with the best one.

The engine's score judges a move; this module only explains a loss the engine has already
found. It works out, for the position after each of the two moves, the strategy concepts of
``concepts`` (the corners the opponent can take, X-squares, the opponent's mobility, each
side's stable and frontier discs, the parity of the empty regions) and keeps the largest
difference between the two, if one stands out. Every number in the sentence is one of
those counts, so what it says holds in the position (``tests/test_reasons.py`` checks each
kind of fact against the board).

The facts that say which discs or squares are good assume the classic goal; under the
inverted goal, where the fewer discs win, corners and stable discs are a burden, so only
the facts that hold for both goals (mobility and parity) are used.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import concepts
from .board import Board, Move
from .errors import ReversiError
from .i18n import translate
from .squares import COLOR_NAMES, Color, parse_square, square_name

__all__ = ["PARITY_EMPTIES", "STANDS_OUT", "MistakeReason", "why"]

#: A difference stands out when it weighs at least this much (a count of moves or discs; a
#: corner given weighs 10, an X-square beside an empty corner 6, parity broken 4).
STANDS_OUT = 3
#: Parity is a reason only with this many empty squares or fewer, where regions decide who
#: plays last in them.
PARITY_EMPTIES = 16

_CORNER_WEIGHT = 10
_X_SQUARE_WEIGHT = 6
_PARITY_WEIGHT = 4


@dataclass(frozen=True)
class MistakeReason:
    """A computed fact that tells the played move from the best one.

    ``kind`` is the fact: ``"corner"`` (after ``move`` the opponent, ``color``, can take the
    corner ``square``, which it cannot after ``best``), ``"x_square"`` (``move`` is the
    X-square beside the empty corner ``square``, ``best`` is no such square),
    ``"mobility"`` (after ``move`` the opponent, ``color``, has ``count`` legal moves
    against ``other`` after ``best``), ``"stable"`` and ``"frontier"`` (``color``, the
    mover, has ``count`` stable or frontier discs after ``move`` against ``other`` after
    ``best``) and ``"parity"`` (``move`` plays into an empty region of ``count`` squares, an
    even number, and ``best`` into an odd one of ``other``)."""

    kind: str
    move: str
    best: str
    color: Color
    count: int = 0
    other: int = 0
    square: str = ""

    def render(self, language: str = "en") -> str:
        """The sentence in ``language`` (one of ``i18n.LANGUAGES``)."""
        color = translate(COLOR_NAMES[self.color], language)
        return translate(
            f"reason_{self.kind}",
            language,
            move=self.move,
            best=self.best,
            color=color,
            count=self.count,
            other=self.other,
            square=self.square,
        )

    def __str__(self) -> str:
        return self.render()


def why(board: Board, played: Move | str, best: Move | str) -> MistakeReason | None:
    """The largest computed difference between ``played`` and ``best`` in ``board`` (the
    position before the move), or None when none stands out (``STANDS_OUT``): then only the
    discs lost can be said. Both must be legal moves there, and different."""
    if not isinstance(board, Board):
        raise TypeError(f"why needs a Board, got {type(board).__name__}")
    mine, top = _after(board, played, "played"), _after(board, best, "best")
    move, best_name = str(mine.peek()), str(top.peek())
    if move == best_name:
        raise ReversiError(f"why compares two different moves: both are {move}")
    mover = board.turn
    other = not mover
    candidates: list[tuple[int, MistakeReason]] = []

    def add(weight: int, reason: MistakeReason) -> None:
        candidates.append((weight, reason))

    if board.rules.goal == "classic":
        given = sorted(_corners_open(mine, other) - _corners_open(top, other))
        if given:
            add(_CORNER_WEIGHT, MistakeReason("corner", move, best_name, other, square=given[0]))
        corner = _x_corner(board, move)
        if corner is not None and _x_corner(board, best_name) is None:
            add(_X_SQUARE_WEIGHT, MistakeReason("x_square", move, best_name, mover, square=corner))
        kept, lost = len(concepts.stable(top, mover)), len(concepts.stable(mine, mover))
        add(kept - lost, MistakeReason("stable", move, best_name, mover, lost, kept))
        wide, narrow = len(concepts.frontier(mine, mover)), len(concepts.frontier(top, mover))
        add(wide - narrow, MistakeReason("frontier", move, best_name, mover, wide, narrow))
    many, few = len(concepts.mobility(mine, other)), len(concepts.mobility(top, other))
    add(many - few, MistakeReason("mobility", move, best_name, other, many, few))
    if board.empty_count() <= PARITY_EMPTIES:
        region = {square: len(r.squares) for r in concepts.regions(board) for square in r.squares}
        if region[move] % 2 == 0 and region[best_name] % 2 == 1:
            add(_PARITY_WEIGHT, MistakeReason("parity", move, best_name, mover, region[move], region[best_name]))
    weight, reason = max(candidates, key=lambda c: c[0])
    return reason if weight >= STANDS_OUT else None


def _after(board: Board, move: Move | str, which: str) -> Board:
    """The position after ``move``, refused with a clear error when it is not a legal move."""
    after = board.copy(stack=False)
    try:
        after.push(move)
    except ReversiError as error:
        raise type(error)(f"why needs the {which} move to be legal: {error}") from None
    if after.peek() is None or not after.peek():
        raise ReversiError(f"why compares moves on the board, not a pass ({which})")
    return after


def _corners_open(board: Board, color: Color) -> frozenset[str]:
    """The corners ``color`` could play next."""
    return concepts.mobility(board, color) & concepts.corners(board)


def _x_corner(board: Board, name: str) -> str | None:
    """The empty corner beside ``name`` when it is an X-square, else None."""
    if name not in concepts.x_squares(board):
        return None
    n = board.size
    row, col = divmod(parse_square(name, n), n)
    corner = (0 if row < n // 2 else n - 1) * n + (0 if col < n // 2 else n - 1)
    p, o = board.sides()
    return None if (p | o) >> corner & 1 else square_name(corner, n)
