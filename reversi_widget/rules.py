"""The variant being played: board size, start, goal, scoring and disc supply (R2-R9, R21-R23)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidPositionError, quote
from .notation import parse_position
from .squares import Color, check_size

__all__ = ["FREE_START", "GOALS", "SCORINGS", "START_LAYOUTS", "PositionState", "Rules", "read_position", "supplies"]

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
        check_size(self.size)
        if not isinstance(self.start, str):
            raise InvalidPositionError(f"start must be a layout name or a position string, got {quote(self.start)}")
        if not isinstance(self.goal, str) or self.goal not in GOALS:
            raise InvalidPositionError(f"goal must be one of {GOALS}, got {quote(self.goal)}")
        if not isinstance(self.scoring, str) or self.scoring not in SCORINGS:
            raise InvalidPositionError(f"scoring must be one of {SCORINGS}, got {quote(self.scoring)}")
        if self.supply is not None:
            if isinstance(self.supply, bool) or not isinstance(self.supply, int):
                raise InvalidPositionError(f"supply must be None or a number of discs, got {quote(self.supply)}")
            if 2 * self.supply < self.size * self.size:
                raise InvalidPositionError(
                    f"supply {quote(self.supply)} per player cannot cover the {self.size * self.size} squares "
                    f"of a {self.size}x{self.size} board (need at least {self.size * self.size // 2})"
                )
        if not self.is_named_start:
            read_position(self.start, self)  # a custom start must be one a Board of these rules can use

    @property
    def is_named_start(self) -> bool:
        """True for a layout name or ``"free"``, False for a custom position string."""
        return self.start in START_LAYOUTS or self.start == FREE_START


#: A position as a ``Board`` holds it: black's and white's bitboards, the side to move, and
#: each player's discs left (``None`` without a supply).
PositionState = tuple[int, int, Color, tuple[int, int] | None]


def read_position(text: str, rules: Rules) -> PositionState:
    """The position a text gives under ``rules``, checked whole: the text, its size, and its
    supply counts against the rules' supply. Raises ``InvalidPositionError``."""
    parsed = parse_position(text, rules.size)
    if parsed.black & parsed.white:
        raise InvalidPositionError("a square cannot hold two discs")
    if parsed.supply is not None and rules.supply is None:
        raise InvalidPositionError(
            f"position {quote(text)} gives disc supplies but the rules have no supply (use Rules(supply=32))"
        )
    return parsed.black, parsed.white, parsed.turn, supplies(rules, parsed.black, parsed.white, parsed.supply)


def supplies(rules: Rules, black: int, white: int, given: tuple[int, int] | None) -> tuple[int, int] | None:
    """Each player's discs left (R4): as given, or the supply less the discs of that colour
    on the board (a colour with more discs than its supply has borrowed the rest)."""
    total = rules.supply
    if total is None:
        return None
    if given is not None:
        empties = rules.size * rules.size - (black | white).bit_count()
        if sum(given) < empties:
            raise InvalidPositionError(f"supplies {given[0]} + {given[1]} cannot cover the {empties} empty squares")
        return given
    black_left = total - black.bit_count()
    white_left = total - white.bit_count()
    if black_left < 0:
        white_left += black_left
        black_left = 0
    if white_left < 0:
        black_left += white_left
        white_left = 0
    return black_left, white_left
