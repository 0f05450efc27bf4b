"""WTHOR, the French Othello Federation's binary game database: read ``.wtb`` files.

A game file is a 16-byte header and 68-byte records (little-endian):

- header: creation century, year, month, day (1 byte each); N1 (uint32) records; N2 (uint16,
  0 in game files); the games' year (uint16); P1 board size (0 or 8 is 8x8; 10x10 files exist
  but are not read here); P2 (1 for solitaire files, not read here); P3 the empties at which
  the theoretical score was computed; a reserved byte. The file is 16 + 68 * N1 bytes.
- record: tournament, black and white player numbers (uint16 each), Black's actual score
  and theoretical score (uint8), then 60 move bytes ``10 * row + column`` (a1 = 11, h8 = 88),
  passes left out, 0 after the last move.

Player and tournament numbers index ``WTHOR.JOU`` (20-byte names) and ``WTHOR.TRN`` (26-byte
names): a 16-byte header whose N2 is the number of names, then zero-padded Latin-1 names.
When they sit beside the game file their names are used, else ``"player 123"``.

The recorded score is Black's discs under tournament scoring (R23: empties to the winner).
On a draw with empty squares the database splits them evenly (31-31 with two empties is
recorded as 32); this module keeps the recorded score as it is: ``WthorRecord.to_game``
sets ``Game.result`` to ``(black_score, 64 - black_score)`` and leaves the rules classic
8x8 with count scoring, so ``game.outcome()`` is what the board says.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .board import Board, Move
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from .game import Game
from .rules import Rules
from .squares import parse_square, square_name

HEADER = struct.Struct("<BBBBIHHBBBx")
RECORD = struct.Struct("<HHHBB60s")
PLAYER_NAME_BYTES = 20
TOURNAMENT_NAME_BYTES = 26
PLAYERS_FILE = "WTHOR.JOU"
TOURNAMENTS_FILE = "WTHOR.TRN"

#: Move byte -> square name, for the 64 bytes that are squares (11 to 88).
_SQUARE_OF_BYTE: dict[int, str] = {
    10 * (row + 1) + col + 1: square_name(row * 8 + col) for row in range(8) for col in range(8)
}


@dataclass(frozen=True)
class WthorRecord:
    """One game of a WTHOR file: names, year, moves (passes left out) and scores."""

    black_player: str
    white_player: str
    tournament: str
    year: int
    moves: list[str]
    black_score: int  # Black's discs at the end, as recorded (R23 scoring)
    theoretical_score: int  # Black's discs after perfect play from the file's P3 empties
    source: str = field(default="", compare=False)  # "WTH_1990.wtb record 12", for messages

    def to_game(self) -> Game:
        """The game record, with forced passes put in and the recorded score as its result."""
        board = replay(self)
        return Game(
            list(board.move_stack),
            Rules(),
            black_player=self.black_player,
            white_player=self.white_player,
            event=self.tournament,
            date=str(self.year),
            result=(self.black_score, 64 - self.black_score),
            metadata={"theoretical_score": str(self.theoretical_score)},
        )


def replay(record: WthorRecord) -> Board:
    """The final board of a record, passes included (raise ``IllegalMoveError`` naming the move)."""
    where = record.source or "WTHOR record"
    board = Board()
    for number, name in enumerate(record.moves, 1):
        try:
            square = parse_square(name)
        except InvalidMoveError as error:
            raise InvalidPositionError(f"{where}, move {number}: {error}") from None
        if board.must_pass():
            board.push_pass()  # WTHOR leaves forced passes out
        try:
            board.push(Move(square))
        except IllegalMoveError as error:
            raise IllegalMoveError(f"{where}, move {number} ({name}): {error}") from None
    return board


@dataclass(frozen=True)
class _Header:
    records: int
    name_records: int
    year: int
    board_size: int
    solitaire: int
    empties: int


def read_wthor(path: str | os.PathLike[str]) -> Iterator[WthorRecord]:
    """The games of a ``.wtb`` file, in order. The header and size are checked at once;
    each record is checked as it is read, and a bad one raises naming the file and record."""
    path = Path(path)
    data = path.read_bytes()
    header = _check_header(data, path.name)
    players, tournaments = _names(path.parent)
    return _records(data, header, path.name, players, tournaments)


def _check_header(data: bytes, name: str) -> _Header:
    if len(data) < HEADER.size:
        raise InvalidPositionError(f"{name}: {len(data)} bytes is too short for the 16-byte WTHOR header")
    century, year, month, day, records, name_records, games_year, size, solitaire, empties = HEADER.unpack_from(data)
    if not (1 <= month <= 12 and 1 <= day <= 31 and year < 100):
        raise InvalidPositionError(
            f"{name}: bad header: creation date {century:02d}{year:02d}-{month:02d}-{day:02d} is not a date"
        )
    if name_records != 0:
        raise InvalidPositionError(
            f"{name}: bad header: N2 is {name_records}, which marks a name file; a game file has 0"
        )
    if size == 10:
        raise InvalidPositionError(f"{name}: 10x10 WTHOR files are not supported (header P1 = 10)")
    if size not in (0, 8):
        raise InvalidPositionError(f"{name}: bad header: board size P1 is {size}; expected 0 or 8 for 8x8")
    if solitaire != 0:
        raise InvalidPositionError(f"{name}: solitaire files (header P2 = {solitaire}) hold no games and are not read")
    if empties > 60:
        raise InvalidPositionError(f"{name}: bad header: P3 = {empties} empties is more than a board has")
    expected = HEADER.size + RECORD.size * records
    if len(data) != expected:
        whole, extra = divmod(len(data) - HEADER.size, RECORD.size)
        if len(data) > expected:
            detail = f"{len(data) - expected} bytes follow record {records}"
        elif extra:
            detail = f"record {whole + 1} is cut short"
        else:
            detail = f"records {whole + 1} to {records} are missing"
        raise InvalidPositionError(
            f"{name}: {len(data)} bytes, but the header's {records} records need {expected} bytes ({detail})"
        )
    return _Header(records, name_records, games_year, size, solitaire, empties)


def _records(
    data: bytes, header: _Header, name: str, players: list[str], tournaments: list[str]
) -> Iterator[WthorRecord]:
    for index in range(header.records):
        number = index + 1
        where = f"{name} record {number}"
        tournament, black, white, score, theoretical, move_bytes = RECORD.unpack_from(
            data, HEADER.size + RECORD.size * index
        )
        if score > 64 or theoretical > 64:
            raise InvalidPositionError(f"{where}: scores {score} and {theoretical} must be Black's discs, 0 to 64")
        yield WthorRecord(
            black_player=_lookup(players, black, "player"),
            white_player=_lookup(players, white, "player"),
            tournament=_lookup(tournaments, tournament, "tournament"),
            year=header.year,
            moves=_moves(move_bytes, where),
            black_score=score,
            theoretical_score=theoretical,
            source=where,
        )


def _moves(move_bytes: bytes, where: str) -> list[str]:
    length = move_bytes.find(0)
    if length < 0:
        length = len(move_bytes)
    elif any(move_bytes[length:]):
        raise InvalidPositionError(f"{where}: move bytes continue after the 0 that ends the game at move {length + 1}")
    try:
        return [_SQUARE_OF_BYTE[byte] for byte in move_bytes[:length]]
    except KeyError:
        number, byte = next((n, b) for n, b in enumerate(move_bytes[:length], 1) if b not in _SQUARE_OF_BYTE)
        raise InvalidPositionError(
            f"{where}: move {number} is byte {byte}, not a square: expected 10 * row + column, 11 (a1) to 88 (h8)"
        ) from None


def _lookup(names: list[str], number: int, kind: str) -> str:
    return names[number] if number < len(names) and names[number] else f"{kind} {number}"


# -- name files ------------------------------------------------------------------------

_NameKey = tuple[str, int, int]
_name_cache: dict[str, tuple[tuple[_NameKey | None, _NameKey | None], tuple[list[str], list[str]]]] = {}


def _names(folder: Path) -> tuple[list[str], list[str]]:
    """(players, tournaments) of a folder, read once and reused while the files are unchanged."""
    files = (folder / PLAYERS_FILE, folder / TOURNAMENTS_FILE)
    keys = (_file_key(files[0]), _file_key(files[1]))
    cached = _name_cache.get(str(folder.resolve()))
    if cached is not None and cached[0] == keys:
        return cached[1]
    tables = (
        _read_names(files[0], PLAYER_NAME_BYTES) if keys[0] else [],
        _read_names(files[1], TOURNAMENT_NAME_BYTES) if keys[1] else [],
    )
    _name_cache[str(folder.resolve())] = (keys, tables)
    return tables


def _file_key(path: Path) -> _NameKey | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return str(path), stat.st_mtime_ns, stat.st_size


def _read_names(path: Path, width: int) -> list[str]:
    """The names of a ``WTHOR.JOU``/``WTHOR.TRN`` file, by number."""
    data = path.read_bytes()
    if len(data) < HEADER.size:
        raise InvalidPositionError(f"{path.name}: {len(data)} bytes is too short for the 16-byte WTHOR header")
    count = HEADER.unpack_from(data)[5]
    if len(data) != HEADER.size + width * count:
        raise InvalidPositionError(
            f"{path.name}: {len(data)} bytes, but the header's {count} names of {width} bytes need "
            f"{HEADER.size + width * count} bytes"
        )
    return [
        data[start : start + width].split(b"\0", 1)[0].decode("latin-1").strip()
        for start in range(HEADER.size, len(data), width)
    ]
