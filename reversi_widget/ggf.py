"""GGF, the Generic Game Format of GGS and Edax: read and write game records.

A GGF game is one node between ``(;`` and ``;)``, a run of properties ``NAME[value]``::

    (;GM[Othello]PC[GGS/os]DT[2003.12.15]PB[alice]PW[bob]RB[2197]RW[2199]TI[05:00]
      TY[8]RE[+4.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
      B[d3//1.2]W[c5]...;)

How the properties map onto a ``Game``:

- ``GM`` must be present and say ``Othello`` (any case).
- ``BO`` is the size, the squares from a1 (``*`` black, ``O`` white, ``-`` empty; GGS puts a
  space after each row, which is accepted and written) and the side to move. A position equal
  to a named start of ``START_LAYOUTS`` reads as that name, an empty board with Black to move
  as the free start; any other position becomes a custom start in the one-line form of
  ``Board.to_string``. Without ``BO`` the game starts from the standard layout.
- ``TY`` is the size plus variant letters: ``a`` (anti) is the inverted goal, ``r`` (random
  start: the position is in ``BO``) and ``b``/``w`` (colour preference) change nothing here;
  ``s`` (synchro: two games scored as one) and ``k`` (komi: a fractional result) are refused.
  A ``TY`` that is not exactly what would be written (``8r``) is kept in ``metadata["TY"]``.
- ``B``/``W`` are the moves, passes as ``pa`` (``PASS``/``pass`` are read too), squares in
  any case, with optional ``/eval/time`` suffixes that are read and dropped. A forced pass
  that a file leaves out is put back. ``PB``/``PW`` are the players, ``PC`` the event (the
  place), ``DT`` the date; every other property goes to ``metadata`` under its name.
- ``RE`` is Black's disc margin (``+4.000``, ``-2``, ``0``; a ``:r`` style suffix is allowed).
  ``Game.result`` is the ``(black, white)`` count it stands for: when the replayed game is
  over and the margin is the board's count, or its count with the empties given to the winner
  (R23, the Othello convention), that count; otherwise, when the margin fits the board
  (an integer with the parity of the squares), the split of all squares it implies (a game
  won by resignation or time, as WTHOR records it); else ``None``. The ``RE`` text is kept
  in ``metadata["RE"]`` whenever it is not the ``+4.000`` form of that result.

GGF has no way to say which scoring (R23) or disc supply (R4) a game used: games read from
GGF have count scoring and no supply, ``write_ggf`` refuses a game with a supply, and a game
with tournament scoring is written with its result and read back with count scoring.
Metadata keys that are not property names (capital letters) are not written.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import NamedTuple

from .board import Board, Move
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, ReversiError, cut, naming_file, quote
from .game import Game
from .notation import format_line
from .rules import FREE_START, START_LAYOUTS, Rules
from .squares import ASCII_SPACE, BLACK, COLOR_NAMES, WHITE, check_size

__all__ = [
    "MAX_GAMES",
    "MAX_GAME_CHARS",
    "MAX_TEXT_CHARS",
    "load_ggf",
    "read_ggf",
    "read_ggf_games",
    "write_ggf",
    "write_ggf_games",
]

#: The limits of what is read, each refused before it costs time. The text: 16 MiB (a file's
#: size is checked before it is read), some 35,000 real games. The games: 50,000, so that
#: 16 MiB of the smallest games costs no more than 16 MiB of real ones (1.1 million of them
#: took 14 s and 440 MB). One game: 200,000 characters (a 16x16 game with evaluations, times
#: and comments is far below it). Real games read at about 0.5 microseconds a character, so
#: the largest text accepted takes some 9 s of one core here and about twice its size in
#: memory; 50,000 of the smallest games take 0.3 s (``benchmarks/records.py``).
MAX_TEXT_CHARS = 16 * 1024 * 1024
MAX_GAMES = 50_000
MAX_GAME_CHARS = 200_000

#: Properties with a place in ``Game``; metadata under these names is never written.
_RESERVED = frozenset({"GM", "PC", "DT", "PB", "PW", "TY", "RE", "BO", "B", "W"})

# ASCII only, like the format: no Unicode blanks between properties, no digits of other
# scripts in sizes and margins, no case folding of other scripts.
_SPACE_RE = re.compile(r"\s*", re.ASCII)
_NAME_RE = re.compile(r"[A-Z]+")
# A whole property with an unescaped value and the blanks after it: most properties of a
# real file, read in one match (the others take the careful path of ``_scan``).
_PLAIN_PROPERTY_RE = re.compile(r"([A-Z]+)\[([^\]\\]*)\]\s*", re.ASCII)
_VALUE_STOP_RE = re.compile(r"[\\\]]")
_PROPERTY_NAME_RE = re.compile(r"[A-Z]+\Z")
_TYPE_TOKEN_RE = re.compile(r"[0-9]+|r[0-9]*|[a-z]")
_NUMBER_RE = re.compile(r"[0-9]+\Z")
_MARGIN_RE = re.compile(r"\s*([+-]?[0-9]+(?:\.[0-9]*)?)", re.ASCII)
_BLANKS_RE = re.compile(r"[ \t\n\r\f\v]+")

_BO_CELLS = {"*": "X", "O": "O", "-": "-"}
_BO_SIDES = {"*": BLACK, "O": WHITE}


class _Property(NamedTuple):
    name: str
    value: str  # unescaped
    offset: int  # 0-based character offset of the name


class _RawGame(NamedTuple):
    number: int  # 1-based
    offset: int
    properties: list[_Property]


# -- reading ---------------------------------------------------------------------------


def read_ggf(text: str | bytes) -> Game:
    """The one game of a GGF text (raise if it holds none or several)."""
    games = read_ggf_games(text)
    if len(games) != 1:
        raise InvalidPositionError(f"expected exactly one GGF game, found {len(games)}")
    return games[0]


def read_ggf_games(text: str | bytes) -> list[Game]:
    """Every game of a GGF text, in order (an empty text gives an empty list). Each game is
    built as soon as it is scanned: the raw properties of one game at a time are held, not
    those of the whole text (which take some 30 times the text's size)."""
    return [_build_game(raw) for raw in _scan(_as_text(text))]


def load_ggf(path: str | os.PathLike[str]) -> list[Game]:
    """Every game of a GGF file; errors name the file as well as the game and move.

    The file's size is checked before it is read: a file past the limit is refused unread.
    Its ``OSError`` exceptions (missing, a folder, unreadable) stay such exceptions, naming it."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_TEXT_CHARS:
                raise InvalidPositionError(
                    f"{os.fspath(path)}: GGF input of {size} bytes is too long (limit {MAX_TEXT_CHARS})"
                )
            data = handle.read(MAX_TEXT_CHARS + 1)  # a device or a growing file stops here, refused below
    except OSError as error:
        raise naming_file(error, path) from None
    try:
        return read_ggf_games(data)
    except ReversiError as error:
        raise type(error)(f"{os.fspath(path)}: {error}") from None


def _as_text(text: str | bytes) -> str:
    if isinstance(text, (bytes, bytearray)):
        data = bytes(text)
        if len(data) > MAX_TEXT_CHARS:
            raise InvalidPositionError(f"GGF input of {len(data)} bytes is too long (limit {MAX_TEXT_CHARS})")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            game = data[: error.start].count(b"(;") or 1
            raise InvalidPositionError(
                f"GGF game {game}: byte {data[error.start]:#04x} at byte offset {error.start} is not UTF-8 text"
            ) from None
    if not isinstance(text, str):
        raise TypeError(f"GGF input must be str or bytes, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidPositionError(f"GGF text of {len(text)} characters is too long (limit {MAX_TEXT_CHARS})")
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # a byte-order mark: blank it out, keeping character offsets
    return text


def _snippet(text: str, pos: int) -> str:
    """The text from ``pos``, as a message quotes it: a dozen characters or so."""
    return quote(text[pos : pos + 16], 15)


def _short(value: str) -> str:
    """A property name or value as messages quote it: long ones cut short."""
    return cut(value, 24)


def _ascii_lower(text: str) -> str:
    """``text.lower()`` for ASCII text; other text is kept as it is, so it matches nothing."""
    return text.lower() if text.isascii() else text


def _scan(text: str) -> Iterator[_RawGame]:
    """The games of the text as raw properties, one at a time, checking the syntax."""
    number = 0
    end = len(text)
    pos = _skip_space(text, 0)
    while pos < end:
        number += 1
        where = f"GGF game {number}"
        if number > MAX_GAMES:
            raise InvalidPositionError(
                f"{where} (from character {pos + 1}): a text of more than {MAX_GAMES:,} games is not read; split it"
            )
        if not text.startswith("(;", pos):
            raise InvalidPositionError(
                f"{where}: expected '(;' to start a game at character {pos + 1}, found {_snippet(text, pos)}"
            )
        start = pos
        pos += 2
        properties: list[_Property] = []
        while True:
            pos = _skip_space(text, pos)
            if pos - start > MAX_GAME_CHARS:
                raise InvalidPositionError(
                    f"{where} (from character {start + 1}) runs past {MAX_GAME_CHARS} characters: no game is that long"
                )
            if pos >= end:
                raise InvalidPositionError(
                    f"{where} (from character {start + 1}) is truncated: the text ends before its closing ';)'"
                )
            plain = _PLAIN_PROPERTY_RE.match(text, pos)
            if plain is not None and text[plain.end() : plain.end() + 1] != "[":
                properties.append(_Property(plain.group(1), plain.group(2), pos))
                pos = plain.end()
                continue
            if text.startswith(";)", pos):
                pos += 2
                break
            name_match = _NAME_RE.match(text, pos)
            if name_match is None:
                raise InvalidPositionError(
                    f"{where}: unexpected {_snippet(text, pos)} at character {pos + 1}: "
                    "expected a property like PB[name] (capital letters, then a value in brackets) or ';)'"
                )
            name, name_at = name_match.group(), pos
            pos = _skip_space(text, name_match.end())
            if not text.startswith("[", pos):
                raise InvalidPositionError(
                    f"{where}: property {_short(name)} at character {name_at + 1} has no value: "
                    f"expected {_short(name)}[...]"
                )
            value, pos = _read_value(text, pos + 1, f"{where}: property {_short(name)} at character {name_at + 1}")
            if text.startswith("[", _skip_space(text, pos)):
                raise InvalidPositionError(
                    f"{where}: property {_short(name)} at character {name_at + 1} has more than one value"
                )
            properties.append(_Property(name, value, name_at))
        yield _RawGame(number, start, properties)
        pos = _skip_space(text, pos)


def _skip_space(text: str, pos: int) -> int:
    match = _SPACE_RE.match(text, pos)
    return pos if match is None else match.end()


def _read_value(text: str, pos: int, where: str) -> tuple[str, int]:
    """The unescaped value from just after ``[`` and the position after its ``]``."""
    parts: list[str] = []
    while True:
        stop = _VALUE_STOP_RE.search(text, pos)
        if stop is None or (stop.group() == "\\" and stop.end() >= len(text)):
            raise InvalidPositionError(f"{where} is never closed with ']' (the text is truncated)")
        parts.append(text[pos : stop.start()])
        if stop.group() == "]":
            return "".join(parts), stop.end()
        parts.append(text[stop.end()])  # an escaped character stands for itself
        pos = stop.end() + 1


def _build_game(raw: _RawGame) -> Game:
    """Check the properties of one game and replay its moves."""
    where = f"GGF game {raw.number} (from character {raw.offset + 1})"
    header: dict[str, _Property] = {}
    moves: list[_Property] = []
    for prop in raw.properties:
        if prop.name in ("B", "W"):
            moves.append(prop)
        elif prop.name in header:
            raise InvalidPositionError(
                f"{where}: property {_short(prop.name)} is given twice (characters {header[prop.name].offset + 1} "
                f"and {prop.offset + 1})"
            )
        else:
            header[prop.name] = prop
    if "GM" not in header:
        raise InvalidPositionError(f"{where} has no GM property: expected GM[Othello]")
    if _ascii_lower(header["GM"].value.strip(ASCII_SPACE)) != "othello":
        raise InvalidPositionError(
            f"{where} is a game of {quote(header['GM'].value)}, not Othello: expected GM[Othello]"
        )
    rules, type_text = _read_rules(header, where)
    board = _replay(rules, moves, raw.number)

    metadata = {name: prop.value for name, prop in header.items() if name not in _RESERVED}
    if type_text is not None and type_text != _type_text(rules):
        metadata["TY"] = type_text
    result = None
    if "RE" in header:
        raw_result = header["RE"].value
        result = _result_from(board, _margin(raw_result))
        if result is None or raw_result != _format_margin(result):
            metadata["RE"] = raw_result
    return Game(
        list(board.move_stack),
        rules,
        black_player=header["PB"].value if "PB" in header else "Black",
        white_player=header["PW"].value if "PW" in header else "White",
        event=header["PC"].value if "PC" in header else "",
        date=header["DT"].value if "DT" in header else "",
        result=result,
        metadata=metadata,
    )


def _read_rules(header: dict[str, _Property], where: str) -> tuple[Rules, str | None]:
    """The rules from ``TY`` and ``BO``, and the ``TY`` text as given."""
    type_prop = header.get("TY")
    size: int | None = None
    goal = "classic"
    type_text = None
    if type_prop is not None:
        type_text = type_prop.value
        size, goal = _parse_type(type_text, f"{where}: TY[{_short(type_text)}] at character {type_prop.offset + 1}")
    board_prop = header.get("BO")
    if board_prop is None:
        return _rules(8 if size is None else size, "standard", goal), type_text
    board_where = f"{where}: BO at character {board_prop.offset + 1}"
    bo_size, position = _parse_bo(board_prop.value, board_where)
    if size is not None and size != bo_size:
        raise InvalidPositionError(f"{board_where} is a {bo_size}x{bo_size} board but TY says {size}x{size}")
    try:
        return _rules(bo_size, _start_name(bo_size, position), goal), type_text
    except InvalidPositionError as error:
        raise InvalidPositionError(f"{board_where}: {error}") from None


def _parse_type(text: str, where: str) -> tuple[int, str]:
    """(size, goal) from a GGS game type such as ``8``, ``8a``, ``s8r20``."""
    compact = _ascii_lower(text.strip(ASCII_SPACE))
    tokens = _TYPE_TOKEN_RE.findall(compact)
    if not compact or "".join(tokens) != compact:
        raise InvalidPositionError(f"{where}: expected a board size with optional variant letters, like 8 or 8a")
    size: int | None = None
    goal = "classic"
    for token in tokens:
        if _NUMBER_RE.match(token):
            if size is not None:
                raise InvalidPositionError(f"{where}: two board sizes")
            size = _check_size(token, where)
        elif token == "a":
            goal = "inverted"
        elif token == "s":
            raise InvalidPositionError(f"{where}: synchro games (s) are two games scored as one and are not supported")
        elif token == "k":
            raise InvalidPositionError(f"{where}: komi games (k) have a fractional result and are not supported")
        elif token[0] == "r" or token in ("b", "w"):
            continue  # random start (the position is in BO) or colour preference: nothing to do
        else:
            raise InvalidPositionError(
                f"{where}: unknown variant letter {quote(token)}: expected a, r, b, w (s, k refused)"
            )
    if size is None:
        raise InvalidPositionError(f"{where}: no board size")
    return size, goal


def _check_size(token: str, where: str) -> int:
    """The board size an ASCII number gives, or a refusal."""
    if not _NUMBER_RE.match(token) or len(token) > 3:
        raise InvalidPositionError(f"{where}: board size {quote(token, 12)} is not an even number from 4 to 16")
    try:
        return check_size(int(token))
    except InvalidPositionError as error:
        raise InvalidPositionError(f"{where}: {error}") from None


def _parse_bo(text: str, where: str) -> tuple[int, str]:
    """(size, position in ``Board.to_string`` form) from ``BO[8 ---...--- *]``."""
    words = [word for word in _BLANKS_RE.split(text) if word]
    if len(words) < 3 or not _NUMBER_RE.match(words[0]):
        raise InvalidPositionError(
            f"{where}: expected the size, the squares and the side to move, like BO[8 {'-' * 8} ... *]"
        )
    size = _check_size(words[0], where)
    cells = "".join(words[1:-1])
    if len(cells) != size * size:
        raise InvalidPositionError(f"{where}: {len(cells)} squares, but a {size}x{size} board has {size * size}")
    converted = []
    for index, char in enumerate(cells):
        if char not in _BO_CELLS:
            raise InvalidPositionError(
                f"{where}: {quote(char)} at square {index + 1} is not a disc: "
                "expected * (black), O (white) or - (empty)"
            )
        converted.append(_BO_CELLS[char])
    side = words[-1]
    if side not in _BO_SIDES:
        raise InvalidPositionError(f"{where}: side to move {quote(side)} must be * (black) or O (white)")
    return size, "".join(converted) + (" X" if _BO_SIDES[side] == BLACK else " O")


@cache
def _named_starts(size: int) -> dict[str, str]:
    """Position string -> start name, for the named starts of one size."""
    names = [*START_LAYOUTS, FREE_START]
    return {Board(rules=Rules(size=size, start=name)).to_string(): name for name in reversed(names)}


@lru_cache(maxsize=256)
def _rules(size: int, start: str, goal: str) -> Rules:
    """The rules of a game, shared by the games of a file that have the same."""
    return Rules(size=size, start=start, goal=goal)


def _start_name(size: int, position: str) -> str:
    return _named_starts(size).get(position, position)


def _replay(rules: Rules, moves: list[_Property], game_number: int) -> Board:
    board = Board(rules=rules)
    for number, prop in enumerate(moves, 1):
        token = prop.value.split("/", 1)[0].strip(ASCII_SPACE)
        if len(token) > len("pass"):  # longer than any square name (p16) or pass word
            raise InvalidPositionError(
                f"{_move_where(game_number, number, prop)}: not a move: expected a square like d3, or pa for a pass"
            )
        try:
            move = Move.from_name(token, rules.size)
        except InvalidMoveError as error:
            raise InvalidPositionError(f"{_move_where(game_number, number, prop)}: {error}") from None
        if (prop.name == "B") != board.turn:
            if not board.must_pass():
                color = COLOR_NAMES[prop.name == "B"]
                raise IllegalMoveError(
                    f"{_move_where(game_number, number, prop)}: it is {COLOR_NAMES[board.turn]}'s turn, not {color}'s"
                )
            board.push_pass()  # a forced pass the file leaves out
        try:
            board.push(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"{_move_where(game_number, number, prop)}: {error}") from None
    return board


def _move_where(game_number: int, number: int, prop: _Property) -> str:
    """Where a move is, for a message (only worked out when there is one to write)."""
    return f"GGF game {game_number}, move {number} {prop.name}[{_short(prop.value)}] at character {prop.offset + 1}"


def _margin(text: str) -> float | None:
    """Black's margin, or None when the text does not start with a finite number (a margin
    of 400 digits is read as infinity by ``float``: no count, so no margin)."""
    match = _MARGIN_RE.match(text)
    if match is None:
        return None
    margin = float(match.group(1))
    return margin if math.isfinite(margin) else None


def _result_from(board: Board, margin: float | None) -> tuple[int, int] | None:
    """The ``(black, white)`` count that Black's margin stands for on this final board."""
    if margin is None or margin != int(margin):
        return None
    diff = int(margin)
    squares = board.size * board.size
    if board.is_game_over():
        black, white = board.count(BLACK), board.count(WHITE)
        if black - white == diff:
            return black, white
        tournament = Board(board.to_string(), rules=_with_tournament_scoring(board.rules)).outcome()
        if tournament is not None and tournament.black - tournament.white == diff:
            return tournament.black, tournament.white
    if abs(diff) <= squares and (squares + diff) % 2 == 0:
        return (squares + diff) // 2, (squares - diff) // 2
    return None


def _with_tournament_scoring(rules: Rules) -> Rules:
    return Rules(size=rules.size, start=rules.start, goal=rules.goal, scoring="tournament", supply=rules.supply)


def _format_margin(result: tuple[int, int]) -> str:
    return f"{result[0] - result[1]:+.3f}"


# -- writing ---------------------------------------------------------------------------


def write_ggf(game: Game) -> str:
    """One game as a GGF line ``(;GM[Othello]...;)`` (raise if GGF cannot hold its rules)."""
    rules = game.rules
    if rules.supply is not None:
        raise InvalidPositionError(
            f"GGF has no way to record a disc supply (R4): this game uses {rules.supply} discs each"
        )
    parts = ["(;GM[Othello]"]
    if game.event:
        parts.append(_prop("PC", game.event))
    if game.date:
        parts.append(_prop("DT", game.date))
    parts.append(_prop("PB", game.black_player))
    parts.append(_prop("PW", game.white_player))
    for name, value in game.metadata.items():
        if name not in _RESERVED and _PROPERTY_NAME_RE.match(name):
            parts.append(_prop(name, value))
    parts.append(_prop("TY", _type_for(game)))
    result_text = _result_text(game)
    if result_text is not None:
        parts.append(_prop("RE", result_text))
    start = Board(rules=rules)
    parts.append(_prop("BO", _bo_text(start)))
    board = start
    for move in game.moves:
        parts.append(f"{'B' if board.turn == BLACK else 'W'}[{move if move else 'pa'}]")
        board.push(move)
    parts.append(";)")
    return "".join(parts)


def write_ggf_games(games: list[Game]) -> str:
    """Several games, one a line (what ``read_ggf_games`` reads back)."""
    return "".join(write_ggf(game) + "\n" for game in games)


def _prop(name: str, value: str) -> str:
    return f"{name}[{value.replace(chr(92), chr(92) * 2).replace(']', chr(92) + ']')}]"


def _type_text(rules: Rules) -> str:
    return f"{rules.size}{'a' if rules.goal == 'inverted' else ''}"


def _type_for(game: Game) -> str:
    """The ``TY`` kept in metadata when it still describes the rules, else the plain one."""
    kept = game.metadata.get("TY")
    if kept is not None:
        try:
            if _parse_type(kept, "TY") == (game.rules.size, game.rules.goal):
                return kept
        except InvalidPositionError:
            pass
    return _type_text(game.rules)


def _result_text(game: Game) -> str | None:
    """``RE``: the text kept in metadata when it still agrees with the result, else the margin."""
    kept = game.metadata.get("RE")
    if game.result is None:
        return kept
    if kept is not None and _margin(kept) == game.result[0] - game.result[1]:
        return kept
    return _format_margin(game.result)


def _bo_text(board: Board) -> str:
    size = board.size
    black, white = board.bitboards()
    line = format_line(size, black, white, board.turn, None)
    cells = line[: size * size].replace("X", "*")
    rows = " ".join(cells[row * size : (row + 1) * size] for row in range(size))
    return f"{size} {rows} {'*' if board.turn == BLACK else 'O'}"
