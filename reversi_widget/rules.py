"""The variant being played: board size, start, goal, scoring and disc supply (R2-R9, R21-R23)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidPositionError
from .squares import check_size

#: Where Black's two centre discs stand, for each named start (R5-R8).
#: Keys are (row, column) offsets inside the 2x2 centre; White has the other two.
START_LAYOUTS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "standard": ((0, 1), (1, 0)),  # White d4 e5, Black e4 d5 (R5)
    "mirrored": ((0, 0), (1, 1)),  # colours swapped between the diagonals (R6)
    "parallel-top": ((0, 0), (0, 1)),  # same colours side by side (Iagno's four)
    "parallel-bottom": ((1, 0), (1, 1)),
    "parallel-left": ((0, 0), (1, 0)),
    "parallel-right": ((0, 1), (1, 1)),
}
FREE_START = "free"  # R8: the board starts empty; the four centre discs are placed one by one
GOALS = ("classic", "inverted")  # R21
SCORINGS = ("count", "tournament")  # R23


@dataclass(frozen=True)
class Rules:
    """An immutable description of the variant; ``Rules()`` is classic 8x8 Othello.

    ``start`` is a layout name from ``START_LAYOUTS``, ``"free"``, or a custom position
    in the string form of ``Board.to_string`` (its side to move is the side to move).
    ``supply`` is ``None`` for the common pool or the number of discs each player owns
    (R4); a player who has used them all borrows from the opponent, so the two supplies
    together must cover the board.
    """

    size: int = 8
    start: str = "standard"
    goal: str = "classic"
    scoring: str = "count"
    supply: int | None = None

    def __post_init__(self) -> None:
        try:
            check_size(self.size)
        except ValueError as error:
            raise InvalidPositionError(str(error)) from None
        if not isinstance(self.start, str):
            raise InvalidPositionError(f"start must be a layout name or a position string, got {self.start!r}")
        if not self.is_named_start:
            from .notation import parse_position  # a custom start must be a valid position

            parse_position(self.start, self.size)
        if self.goal not in GOALS:
            raise InvalidPositionError(f"goal must be one of {GOALS}, got {self.goal!r}")
        if self.scoring not in SCORINGS:
            raise InvalidPositionError(f"scoring must be one of {SCORINGS}, got {self.scoring!r}")
        if self.supply is not None:
            if isinstance(self.supply, bool) or not isinstance(self.supply, int):
                raise InvalidPositionError(f"supply must be None or a number of discs, got {self.supply!r}")
            if 2 * self.supply < self.size * self.size:
                raise InvalidPositionError(
                    f"supply {self.supply} per player cannot cover the {self.size * self.size} squares "
                    f"of a {self.size}x{self.size} board (need at least {self.size * self.size // 2})"
                )

    @property
    def is_named_start(self) -> bool:
        """True for a layout name or ``"free"``, False for a custom position string."""
        return self.start in START_LAYOUTS or self.start == FREE_START
