"""Colours and square names.

A square is an ``int``: ``row * size + column``, with a1 the top-left square
(columns a.. left to right, rows 1.. top to bottom, as printed transcripts write them).
"""

from __future__ import annotations

import re

from .errors import InvalidMoveError, InvalidPositionError, quote

__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "ASCII_SPACE",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "BLACK",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "COLOR_NAMES",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "H7",
    "H8",
    "LETTERS",
    "MAX_SIZE",
    "MIN_SIZE",
    "SQUARE_NAMES",
    "WHITE",
    "Color",
    "Square",
    "check_size",
    "check_square",
    "parse_square",
    "square_name",
]

#: A side, as python-chess has it: ``BLACK`` is ``True``, ``WHITE`` is ``False``.
Color = bool
#: Black, who moves first (R9).
BLACK: Color = True
#: White.
WHITE: Color = False
#: Each side's name in English, as messages and records write it.
COLOR_NAMES = {BLACK: "black", WHITE: "white"}

#: A square: its index ``row * size + column``, a1 being 0 (see ``parse_square``).
Square = int

MIN_SIZE = 4
MAX_SIZE = 16
LETTERS = "abcdefghijklmnop"

#: The blanks a text form may have around its words: ASCII only, like everything else in them.
ASCII_SPACE = " \t\n\r\f\v"

# A letter of either case and one or two ASCII digits: no case folding (which reads the
# Kelvin sign as k) and no \d (which reads Arabic-Indic digits as 0-9).
_SQUARE_RE = re.compile(r"([a-pA-P])([1-9][0-9]?)\Z")


def check_size(size: object) -> int:
    """Return ``size`` if it is a playable board size (even, 4 to 16), else raise
    ``InvalidPositionError``."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise InvalidPositionError(f"board size must be an int, got {quote(size)}")
    if size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPositionError(f"board size must be even and between 4 and 16, got {quote(size)}")
    return size


def check_square(square: object, size: int) -> Square:
    """Return ``square`` if it is a square of a ``size`` x ``size`` board.

    A wrong type (a float, a name, a bool: ``True`` is not b1) is a ``TypeError``; an int
    off the board is an ``InvalidMoveError``."""
    if type(square) is not int:
        if isinstance(square, bool) or not isinstance(square, int):
            hint = f" (use parse_square({quote(square)}) for a name)" if isinstance(square, str) else ""
            raise TypeError(f"a square is an int 0-{size * size - 1}, got {quote(square)}{hint}")
        square = int(square)
    if not 0 <= square < size * size:
        raise InvalidMoveError(
            f"square {quote(square)} is off a {size}x{size} board: expected an int 0-{size * size - 1}"
        )
    return square


def square_name(square: Square, size: int = 8) -> str:
    """``square_name(19) == "d3"`` on 8x8."""
    row, col = divmod(check_square(square, check_size(size)), size)
    return f"{LETTERS[col]}{row + 1}"


def parse_square(name: str, size: int = 8) -> Square:
    """``parse_square("d3") == 19`` on 8x8; raises ``InvalidMoveError`` for anything else."""
    if not isinstance(name, str):
        raise InvalidMoveError(f"a square name must be a string like 'd3', got {quote(name)}")
    check_size(size)
    match = _SQUARE_RE.match(name.strip(ASCII_SPACE))
    if match is None:
        raise InvalidMoveError(
            f"{quote(name)} is not a square name: expected a letter a-{LETTERS[size - 1]} and a row 1-{size}, like 'd3'"
        )
    col = LETTERS.index(match.group(1).lower())
    row = int(match.group(2)) - 1
    if col >= size or not 0 <= row < size:
        raise InvalidMoveError(
            f"{quote(name)} is off a {size}x{size} board: columns a-{LETTERS[size - 1]}, rows 1-{size}"
        )
    return row * size + col


#: The names of the 64 squares of the 8x8 board, by index: ``SQUARE_NAMES[0]`` is ``"a1"``.
SQUARE_NAMES = [square_name(sq) for sq in range(64)]
"""Names of the 64 squares of the standard board, indexed by square."""

(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
) = range(64)  # fmt: skip
