"""Opening names: which named line of Othello theory a game follows, and where it left theory.

Players name the first moves of a game as chess players do: 1. f5 d6 is the Perpendicular
opening, f5 d6 c3 d3 c4 the Tiger, and so on. ``name(game)`` gives the longest named line the
game follows, in any of the board's eight orientations, and the ply at which the game left
every line of the table (its "theory").

The table is ``data/openings.txt``, written for this package, one named line per row, each
with the public description it was taken from. Its format (version 1)::

    # reversi-widget openings 1
    source: rose-book Brian Rose, "Othello: A Minute to Learn... A Lifetime to Master" (2005)
    opening: f5 d6 c3 d3 c4 | Tiger | rose-book

The first line names the format. ``source: KEY TEXT`` cites a description (a URL or a
publication); ``opening: MOVES | NAME | KEY`` gives a named line and the source it was taken
from. Every line is written from Black's first move f5 (the other three first moves are its
images), and must replay legally from the standard start without a pass; a name may repeat
(two move orders to the same name), a line may not. Blank lines and ``#`` comments are
ignored. A malformed table is refused with an ``InvalidPositionError`` naming the file and the
line.

Names are matched on the positions a game goes through, each up to the board's eight
symmetries: a game follows a line while every position it reaches is one that some line of the
table reaches at the same ply. So a game is named in any orientation, also where a position on
the way is symmetric and the game goes on in the mirror image of the line (after 1. f5 f6 2. e6
the replies f4 and d6 are one position), and a named position reached by another move order
through positions of the table has its name (f5 d6 c4 d3 c3 is the Tiger, by way of the Cat).
One position has one name: two rows that reach the same position under different names are
refused. The names are those of classic 8x8 Othello: a board of another size or goal, or one
that did not start from the standard position (or one of its images, such as the "mirrored"
start), has none.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from .board import Board, Move
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, quote
from .explorer.symmetry import canonical
from .game import Game
from .notation import parse_transcript
from .squares import BLACK, parse_square, square_name

__all__ = [
    "FORMAT_LINE",
    "OPENINGS_FILE",
    "NamedLine",
    "Opening",
    "OpeningTable",
    "load_openings",
    "name",
    "parse_openings",
    "read_openings",
]

#: The first line of a table of openings: it names the format and its version.
FORMAT_LINE = "# reversi-widget openings 1"
#: The table that ships with the package.
OPENINGS_FILE = Path(__file__).parent / "data" / "openings.txt"
#: Longest table read; a longer file is refused before it is read.
MAX_FILE_BYTES = 1024 * 1024
_SIZE = 8
_FIRST = parse_square("f5", _SIZE)
_KEY_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}\Z")
_SOURCE_RE = re.compile(r"source:\s*(\S+)\s+(\S.*)\Z")
_OPENING_RE = re.compile(r"opening:(.*)\Z")
_MAX_NAME = 60


@dataclass(frozen=True)
class NamedLine:
    """One row of the table: a named line as the table writes it (from 1. f5)."""

    name: str
    #: The squares of the line, from Black's first move f5.
    squares: tuple[int, ...]
    #: The key of the source the row cites, and that source's citation.
    source: str
    citation: str

    @property
    def moves(self) -> str:
        """The line as a transcript, ``"f5d6c3d3c4"``."""
        return "".join(square_name(square, _SIZE) for square in self.squares)


@dataclass(frozen=True)
class Opening:
    """The named opening a game follows (``name``).

    ``moves`` is the named line as the game played it (in the game's orientation) and ``line``
    the same line as the table writes it, from 1. f5; ``plies`` is its length. ``left_theory``
    is the ply (counted from 1) of the game's first move that no line of the table continues
    with, or ``None`` while every move played is on a line of the table; it can come after
    ``plies`` when the game follows a longer, unnamed stretch of a line towards another name.
    ``source`` is the citation of the description the name was taken from."""

    name: str
    moves: tuple[Move, ...]
    line: str
    plies: int
    left_theory: int | None
    source: str


class OpeningTable:
    """The named lines of a table, with every position on every line (its theory) for lookup.

    Positions are kept in their canonical form (``explorer.symmetry.canonical``), so a line is
    found in all eight orientations and through its symmetric positions alike."""

    def __init__(self, lines: tuple[NamedLine, ...], where: str) -> None:
        self.lines = lines
        self.where = where
        #: Every position of a line of the table, and the named line ending there (or None).
        self._theory: dict[int, NamedLine | None] = {}
        ends = [line_positions(line.squares) for line in lines]
        for positions in ends:
            for key in positions[:-1]:
                self._theory.setdefault(key, None)
        # a name wins over an unnamed position, the first row over a later one
        for line, positions in zip(lines, ends, strict=True):
            if self._theory.get(positions[-1]) is None:
                self._theory[positions[-1]] = line

    def __len__(self) -> int:
        return len(self.lines)

    def __contains__(self, key: object) -> bool:
        """Whether a position's key (``position_key``) is on a line of the table."""
        return key in self._theory

    def follow(self, positions: tuple[int | None, ...]) -> tuple[NamedLine | None, int, int]:
        """The last named position of the table among ``positions`` (canonical keys of a game's
        positions after each ply, ``None`` after a pass) while every one is in the table: its
        line, the ply that reached it (0 when none did), and how many plies are in the table."""
        named: NamedLine | None = None
        named_at = 0
        depth = 0
        for key in positions:
            if key is None or key not in self._theory:  # a pass is never theory
                break
            depth += 1
            found = self._theory[key]
            if found is not None:
                named, named_at = found, depth
        return named, named_at, depth


def position_key(board: Board) -> int:
    """A position's key, the same for all its eight images (black and white discs; the side
    to move follows from the ply, as the table's lines have no pass)."""
    black, white = board.bitboards()
    return canonical(black, white)[0]


def line_positions(squares: tuple[int, ...]) -> tuple[int, ...]:
    """The key of every position of a line played from the standard start, after each ply."""
    board = Board()
    keys = []
    for square in squares:
        board.push(Move(square, _SIZE))
        keys.append(position_key(board))
    return tuple(keys)


# -- reading the table --------------------------------------------------------------------


def parse_openings(text: str, where: str = "<text>") -> OpeningTable:
    """The table in ``text``, checked whole; ``where`` names it in errors."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"{where}: an opening table must be a string, got {type(text).__name__}")
    rows = text.splitlines()
    first = next((i for i, row in enumerate(rows) if row.strip()), None)
    if first is None or rows[first].strip() != FORMAT_LINE:
        raise InvalidPositionError(f"{where}: not an opening table: the first line must be {FORMAT_LINE!r}")
    sources: dict[str, str] = {}
    pending: list[tuple[int, str, tuple[int, ...], str]] = []
    seen: dict[tuple[int, ...], int] = {}
    named: dict[int, tuple[int, str]] = {}  # the key of a row's last position -> its line and name
    for number, raw in enumerate(rows[first + 1 :], first + 2):
        row = raw.strip()
        if not row or row.startswith("#"):
            continue
        try:
            if row.startswith("source:"):
                key, citation = _source(row)
                if key in sources:
                    raise InvalidPositionError(f"source {key!r} is given twice")
                sources[key] = citation
            elif row.startswith("opening:"):
                label, squares, key = _opening(row)
                if squares in seen:
                    raise InvalidPositionError(f"this line is already named on line {seen[squares]}")
                seen[squares] = number
                end = line_positions(squares)[-1]
                other, other_label = named.setdefault(end, (number, label))
                if other_label != label:
                    named_there = f"line {other} names {quote(other_label)}"
                    raise InvalidPositionError(f"this line reaches the position that {named_there}, under another name")
                pending.append((number, label, squares, key))
            else:
                raise InvalidPositionError(f"expected 'source: ...' or 'opening: ...', got {quote(row)}")
        except (InvalidPositionError, InvalidMoveError, IllegalMoveError) as error:
            raise InvalidPositionError(f"{where}, line {number}: {error}") from None
    lines = []
    for number, label, squares, key in pending:
        if key not in sources:
            raise InvalidPositionError(f"{where}, line {number}: source {key!r} is not given by any 'source:' line")
        lines.append(NamedLine(label, squares, key, sources[key]))
    if not lines:
        raise InvalidPositionError(f"{where}: the table names no opening")
    return OpeningTable(tuple(lines), where)


def _source(row: str) -> tuple[str, str]:
    match = _SOURCE_RE.match(row)
    if match is None:
        raise InvalidPositionError(f"a source reads 'source: KEY CITATION', got {quote(row)}")
    key, citation = match.groups()
    if not _KEY_RE.match(key):
        raise InvalidPositionError(f"source key {quote(key)} must be lower-case letters, digits and '-'")
    return key, citation.strip()


def _opening(row: str) -> tuple[str, tuple[int, ...], str]:
    match = _OPENING_RE.match(row)
    fields = [] if match is None else [field.strip() for field in match.group(1).split("|")]
    if len(fields) != 3 or not all(fields):
        raise InvalidPositionError(f"an opening reads 'opening: MOVES | NAME | SOURCE', got {quote(row)}")
    moves, label, key = fields
    if len(label) > _MAX_NAME or not label.isprintable():
        raise InvalidPositionError(f"the name {quote(label)} must be printable and at most {_MAX_NAME} characters")
    if not _KEY_RE.match(key):
        raise InvalidPositionError(f"source key {quote(key)} must be lower-case letters, digits and '-'")
    squares = parse_transcript(moves, _SIZE)
    if not squares or squares[0] != _FIRST:
        raise InvalidPositionError(f"the line {quote(moves)} must begin with Black's f5")
    board = Board()
    for ply, square in enumerate(squares, 1):
        if square is None:
            raise InvalidPositionError(f"the line {quote(moves)} passes at move {ply}: a named line has no pass")
        move = Move(square, _SIZE)
        if move not in board.legal_moves:
            raise IllegalMoveError(f"the line {quote(moves)} cannot play {move} at move {ply}")
        board.push(move)
    return label, tuple(s for s in squares if s is not None), key


def read_openings(path: str | Path) -> OpeningTable:
    """The table of a file, checked whole (every line replayed); refused naming the file."""
    where = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise InvalidPositionError(f"{where}: {size} bytes is more than an opening table holds ({MAX_FILE_BYTES})")
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        raise InvalidPositionError(f"{where}: cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InvalidPositionError(f"{where}: is not UTF-8 text ({error.reason} at byte {error.start})") from None
    return parse_openings(text, where)


_loaded: OpeningTable | None = None
_loading = threading.Lock()


def load_openings() -> OpeningTable:
    """The shipped table, read once."""
    global _loaded
    with _loading:
        if _loaded is None:
            _loaded = read_openings(OPENINGS_FILE)
        return _loaded


# -- naming a game ------------------------------------------------------------------------


def name(board_or_line: Board | Game | str, *, table: OpeningTable | None = None) -> Opening | None:
    """The longest named opening that a game follows, or ``None``.

    Takes a ``Board`` (its move stack from its root position), a ``Game`` or a transcript
    like ``"f5d6c3d3c4"`` (played from the standard start). Each position of the game is
    matched up to the board's eight symmetries, so 1. e6, c4 or d3 name their lines as 1. f5
    does, a game from the "mirrored" start is named by the mirror images of the lines, and a
    game that goes on in the mirror image of a line from a symmetric position on it is named
    too. ``table`` defaults to the shipped one."""
    board = _board_of(board_or_line)
    if board.size != _SIZE or board.rules.goal != "classic" or not board.move_stack:
        return None
    table = load_openings() if table is None else table
    replay = board.root()
    if replay.turn != BLACK or position_key(replay) != position_key(Board()):
        return None
    positions: list[int | None] = []
    for move in board.move_stack:
        if move.square is None:
            positions.append(None)
            break
        replay.push(move)
        key = position_key(replay)
        positions.append(key)
        if key not in table:
            break
    named, plies, depth = table.follow(tuple(positions))
    if named is None:
        return None
    left = None if depth == len(board.move_stack) else depth + 1
    return Opening(
        name=named.name,
        moves=tuple(board.move_stack[:plies]),
        line=named.moves,
        plies=plies,
        left_theory=left,
        source=named.citation,
    )


def _board_of(value: Board | Game | str) -> Board:
    if isinstance(value, Board):
        return value
    if isinstance(value, Game):
        return value.board()
    if isinstance(value, str):
        return Board.from_transcript(value)
    raise TypeError(f"name needs a Board, a Game or a transcript, got {type(value).__name__}")
