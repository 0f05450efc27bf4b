"""A practice move (rule R17): the learner places a disc, then flips the discs by hand.

Rule R17 lets a disc wrongly flipped, or wrongly left, be corrected as long as the
opponent has not moved. A ``PracticeMove`` is that moment made explicit: the engine's
position stays as it was before the move, and this object holds what the learner has
done on top of it (the placed disc and the discs turned so far). Nothing here can make
the real position wrong; the move is played only once the flips are right or the answer
is shown, and from then on the board stands.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .board import Board, Move
from .errors import IllegalMoveError, ReversiError
from .squares import BLACK, Color, Square, square_name

__all__ = ["FlipRefusal", "PracticeError", "PracticeMove"]


class PracticeError(ReversiError):
    """A practice action that does not fit: no practice move waiting, or a square that cannot flip."""


class FlipRefusal(enum.Enum):
    """Why a click on a square cannot turn a disc during a practice move."""

    EMPTY = "empty"  # nothing to flip there
    PLACED = "placed"  # the disc just placed never flips in its own move
    OWN = "own"  # a disc that already had the mover's colour: only opponent discs flip (R10)


@dataclass
class PracticeMove:
    """A placed disc whose flips the learner is working out.

    ``correct`` is what the move really flips (``board.flips``); ``flipped`` is what the
    learner has turned so far. ``mistakes`` is fixed at the first check (``check`` or
    ``reveal``): the discs wrongly flipped plus the ones missed at that moment, so that
    correcting afterwards is allowed (R17) but does not erase the first attempt.
    """

    move: Move
    color: Color
    black: int  # the real position before the move, as bitboards
    white: int
    correct: frozenset[Square]
    flipped: set[Square] = field(default_factory=set)
    mistakes: int | None = None

    @classmethod
    def start(cls, board: Board, move: Move) -> PracticeMove:
        """Place ``move`` for the side to move; raises ``IllegalMoveError`` for an illegal move."""
        if not move or move not in board.legal_moves:
            raise IllegalMoveError(f"{move} is not a legal move here")
        black, white = board.bitboards()
        return cls(move, board.turn, black, white, frozenset(board.flips(move)))

    @property
    def square(self) -> Square:
        assert self.move.square is not None  # a pass is never practised
        return self.move.square

    @property
    def checked(self) -> bool:
        """True once the learner has pressed Done (or asked for the answer)."""
        return self.mistakes is not None

    @property
    def wrong(self) -> list[Square]:
        """Discs turned that the move does not flip."""
        return sorted(self.flipped - self.correct)

    @property
    def missed(self) -> list[Square]:
        """Discs the move flips that are still unturned."""
        return sorted(self.correct - self.flipped)

    @property
    def is_right(self) -> bool:
        return self.flipped == self.correct

    def refusal(self, square: Square) -> FlipRefusal | None:
        """Why ``square`` cannot be turned, or None when it holds an opponent disc."""
        if square == self.square:
            return FlipRefusal.PLACED
        own, other = (self.black, self.white) if self.color == BLACK else (self.white, self.black)
        if own >> square & 1:
            return FlipRefusal.OWN
        if not other >> square & 1:
            return FlipRefusal.EMPTY
        return None

    def toggle(self, square: Square) -> None:
        """Turn an opponent disc, or turn it back if the learner had turned it already."""
        refusal = self.refusal(square)
        if refusal is not None:
            name = square_name(square, self.move.size)
            raise PracticeError(f"{name} cannot be flipped ({refusal.value}): only the opponent's discs flip")
        self.flipped ^= {square}

    def check(self) -> bool:
        """Done: record the mistakes of the first check, then say whether the flips are right."""
        if self.mistakes is None:
            self.mistakes = len(self.wrong) + len(self.missed)
        return self.is_right

    def reveal(self) -> None:
        """Show the answer: the first check counts the mistakes as they stand, then the
        correct flips replace the learner's."""
        self.check()
        self.flipped = set(self.correct)

    def overlay(self) -> tuple[int, int]:
        """(black, white) as the learner sees them: the real position, the placed disc and
        the learner's flips."""
        turned = sum(1 << sq for sq in self.flipped)
        placed = 1 << self.square
        if self.color == BLACK:
            return self.black | placed | turned, self.white & ~turned
        return self.black & ~turned, self.white | placed | turned
