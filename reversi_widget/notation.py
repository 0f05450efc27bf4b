"""Text forms of positions and move lists, and their strict parsers.

Two position forms: the one-line form of Edax and the FFO test suites
(``X`` Black, ``O`` White, ``-`` empty, square by square from a1, then the side to
move, then the two supplies when the 32-disc supply is on), generalised to every size,
and the multi-line diagram that ``str(board)`` prints. ``parse_position`` reads both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidMoveError, InvalidPositionError, cut, quote
from .squares import ASCII_SPACE, BLACK, LETTERS, MAX_SIZE, MIN_SIZE, WHITE, Color, parse_square

__all__ = ["ParsedPosition", "format_diagram", "format_line", "parse_position", "parse_transcript"]

_BLACK_CHARS = "Xx*"
_WHITE_CHARS = "Oo"
_EMPTY_CHARS = "-."
_SIDE = {"x": BLACK, "black": BLACK, "b": BLACK, "o": WHITE, "white": WHITE, "w": WHITE}
_MAX_TEXT = 4096  # the largest legitimate position text is a 16x16 diagram of ~600 chars


@dataclass(frozen=True)
class ParsedPosition:
    """What a position text says, before it becomes a ``Board``."""

    size: int
    black: int
    white: int
    turn: Color
    supply: tuple[int, int] | None  # (black's, white's) remaining discs


# Text forms are ASCII: blanks, line breaks, digits and letters are matched as ASCII only
# (``re.ASCII``, no ``str.isdigit``, no case folding of other scripts), so an Arabic-Indic
# digit, a no-break space or the Kelvin sign is refused instead of read as its look-alike.
_BLANKS_RE = re.compile(r"[ \t\n\r\f\v]+")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
_COUNT_RE = re.compile(r"[0-9]{1,3}\Z")


def _words(text: str) -> list[str]:
    """``text.split()`` for ASCII blanks only."""
    return [word for word in _BLANKS_RE.split(text) if word]


def _side(word: str) -> Color | None:
    return _SIDE.get(word.lower()) if word.isascii() else None


def parse_position(text: str, size: int | None = None) -> ParsedPosition:
    """Parse either position form; ``size`` checks (or, if None, infers) the board size."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position must be a string, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidPositionError(f"position text of {len(text)} characters is too long to be a board")
    if "\n" in text.strip(ASCII_SPACE):
        return _parse_diagram(text, size)
    return _parse_line(text, size)


def _cells(chars: str, where: str) -> tuple[int, int]:
    black = white = 0
    for i, ch in enumerate(chars):
        if ch in _BLACK_CHARS:
            black |= 1 << i
        elif ch in _WHITE_CHARS:
            white |= 1 << i
        elif ch not in _EMPTY_CHARS:
            raise InvalidPositionError(
                f"{where}: {ch!r} at square {i + 1} is not a disc: expected X (black), O (white) or - (empty)"
            )
    return black, white


def _parse_side_and_supply(words: list[str], text: str) -> tuple[Color, tuple[int, int] | None]:
    if not words:
        raise InvalidPositionError(f"{quote(text)} does not say whose turn it is: end it with X or O")
    side = _side(words[0])
    if side is None:
        raise InvalidPositionError(f"{quote(text)}: side to move {quote(words[0])} must be X (black) or O (white)")
    rest = words[1:]
    if not rest:
        return side, None
    if len(rest) != 2 or not all(_COUNT_RE.match(w) for w in rest):
        raise InvalidPositionError(
            f"{quote(text)}: after the side to move expected nothing or two supply counts (0 to 999), "
            f"got {quote(' '.join(rest))}"
        )
    return side, (int(rest[0]), int(rest[1]))


def _parse_line(text: str, size: int | None) -> ParsedPosition:
    body = text.strip(ASCII_SPACE).rstrip(";").strip(ASCII_SPACE)
    board_part, _, tail = body.partition(" ")
    n = size if size is not None else _infer_size(len(board_part), text)
    if len(board_part) != n * n:
        raise InvalidPositionError(
            f"{quote(text)} has {len(board_part)} squares; a {n}x{n} board needs {n * n}, then the side to move"
        )
    black, white = _cells(board_part, quote(text))
    turn, supply = _parse_side_and_supply(_words(tail), text)
    return ParsedPosition(n, black, white, turn, supply)


def _infer_size(cells: int, text: str) -> int:
    for n in range(MIN_SIZE, MAX_SIZE + 1, 2):
        if n * n == cells:
            return n
    raise InvalidPositionError(
        f"{quote(text)} has {cells} squares, which is no board: expected 16, 36, 64, ... 256 squares "
        "(an even size from 4x4 to 16x16), then the side to move"
    )


_ROW_RE = re.compile(r"\s*([0-9]+)\s+(.*?)\s*(?:[0-9]+)?\s*\Z", re.ASCII)
_TURN_RE = re.compile(r"\s*(black|white|x|o)\b.*\bto move\s*\Z", re.IGNORECASE | re.ASCII)
_SUPPLY_RE = re.compile(r"\s*supply:\s*black\s+([0-9]{1,3}),\s*white\s+([0-9]{1,3})\s*\Z", re.IGNORECASE | re.ASCII)
_HEADER_RE = re.compile(r"\s*([a-p](\s+[a-p])*)\s*\Z", re.ASCII)


def _parse_diagram(text: str, size: int | None) -> ParsedPosition:
    rows: list[str] = []
    turn: Color | None = None
    supply: tuple[int, int] | None = None
    for number, line in enumerate(_LINE_BREAK_RE.split(text), 1):
        where = f"diagram line {number} {quote(line)}"
        if not line.strip(ASCII_SPACE) or _HEADER_RE.match(line):
            continue
        if m := _TURN_RE.match(line):
            turn = _SIDE[m.group(1).lower()]
        elif m := _SUPPLY_RE.match(line):
            supply = (int(m.group(1)), int(m.group(2)))
        elif m := _ROW_RE.match(line):
            if int(m.group(1)) != len(rows) + 1:
                raise InvalidPositionError(f"{where}: expected row {len(rows) + 1}, found row {cut(m.group(1), 12)}")
            cells = m.group(2).replace(" ", "")
            if bad := set(cells) - set(_BLACK_CHARS + _WHITE_CHARS + _EMPTY_CHARS):
                raise InvalidPositionError(f"{where}: {sorted(bad)[0]!r} is not a disc: expected X, O or -")
            rows.append(cells)
        else:
            raise InvalidPositionError(f"{where}: expected a row like '4 - - - O X - - -' or 'black to move'")
    n = size if size is not None else _infer_size(len(rows) ** 2, text)
    if len(rows) != n or any(len(r) != n for r in rows):
        lengths = [len(r) for r in rows]
        shown = f"{lengths[: n + 1]}"[:-1] + ", ...]" if len(lengths) > n + 1 else f"{lengths}"
        raise InvalidPositionError(f"diagram must have {n} rows of {n} squares, got {len(rows)} rows: {shown}")
    if turn is None:
        raise InvalidPositionError("diagram does not say whose turn it is: add a line 'black to move'")
    black, white = _cells("".join(rows), "diagram")
    return ParsedPosition(n, black, white, turn, supply)


def format_line(size: int, black: int, white: int, turn: Color, supply: tuple[int, int] | None) -> str:
    """The one-line form, e.g. ``'---...-OX---... X'``."""
    cells = "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(size * size))
    side = "X" if turn == BLACK else "O"
    tail = f" {supply[0]} {supply[1]}" if supply is not None else ""
    return f"{cells} {side}{tail}"


def format_diagram(size: int, black: int, white: int, turn: Color, supply: tuple[int, int] | None) -> str:
    """The multi-line diagram that ``str(board)`` shows and ``parse_position`` reads back."""
    header = "   " + " ".join(LETTERS[:size])
    lines = [header]
    for row in range(size):
        cells = (
            "X" if black >> (row * size + c) & 1 else "O" if white >> (row * size + c) & 1 else "-" for c in range(size)
        )
        lines.append(f"{row + 1:>2} " + " ".join(cells))
    lines.append(f"{'black (X)' if turn == BLACK else 'white (O)'} to move")
    if supply is not None:
        lines.append(f"supply: black {supply[0]}, white {supply[1]}")
    return "\n".join(lines)


_PASS = r"(pass|pa|ps|--)"
# On boards of up to 9 rows a square has one digit, so "a10" is never read as one square there.
_TOKEN_SMALL = re.compile(rf"\s*(?:{_PASS}|([a-p][1-9]))", re.IGNORECASE | re.ASCII)
_TOKEN_LARGE = re.compile(rf"\s*(?:{_PASS}|([a-p](?:1[0-9]|[1-9])))", re.IGNORECASE | re.ASCII)
_MAX_TRANSCRIPT = 4 * MAX_SIZE * MAX_SIZE * 3  # generous: every square plus passes, with spaces


def parse_transcript(text: str, size: int) -> list[int | None]:
    """Squares (``None`` for an explicit pass) of a transcript like ``"f5d6c3 d3 c4"``."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a transcript must be a string, got {type(text).__name__}")
    if len(text) > _MAX_TRANSCRIPT:
        raise InvalidMoveError(f"transcript of {len(text)} characters is longer than any game")
    token_re = _TOKEN_SMALL if size <= 9 else _TOKEN_LARGE
    out: list[int | None] = []
    body = text.rstrip(ASCII_SPACE)
    pos = 0
    while pos < len(body):
        m = token_re.match(body, pos)
        if m is None:
            raise InvalidMoveError(
                f"transcript {quote(text)}: cannot read {quote(body[pos : pos + 6].strip(ASCII_SPACE))} at character "
                f"{pos + 1}: expected a square like 'f5' or 'pass'"
            )
        if m.group(1):
            out.append(None)
        else:
            try:
                out.append(parse_square(m.group(2), size))
            except InvalidMoveError as error:
                raise InvalidMoveError(f"transcript {quote(text)}, move {len(out) + 1}: {error}") from None
        pos = m.end()
    return out
