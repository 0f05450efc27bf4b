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
When they sit beside the game file their names are used; when they are missing the names stay
numbers (``"player 123"``). A name file that is there but cannot be used (a folder, unreadable,
a size its header does not give) is refused with ``InvalidPositionError`` naming it, rather
than skipped: the games would silently lose their names. Move it away to read the games with
numbered names.

Reading is checked before it costs: the game file's size must be what its header's record
count says, and at most ``MAX_RECORDS``, before a record is read; records are then read a
block at a time, so memory does not grow with the file.

The recorded score is Black's discs under tournament scoring (R23: empties to the winner).
On a draw with empty squares the database splits them evenly (31-31 with two empties is
recorded as 32); this module keeps the recorded score as it is: ``WthorRecord.to_game``
sets ``Game.result`` to ``(black_score, 64 - black_score)`` and leaves the rules classic
8x8 with count scoring, so ``game.outcome()`` is what the board says.
"""

from __future__ import annotations

import os
import stat
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .board import Board, Move
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, naming_file
from .game import Game
from .rules import Rules
from .squares import square_name

__all__ = [
    "BLOCK_RECORDS",
    "HEADER",
    "MAX_RECORDS",
    "PLAYERS_FILE",
    "PLAYER_NAME_BYTES",
    "RECORD",
    "TOURNAMENTS_FILE",
    "TOURNAMENT_NAME_BYTES",
    "WthorRecord",
    "read_wthor",
    "replay",
]

HEADER = struct.Struct("<BBBBIHHBBBx")
RECORD = struct.Struct("<HHHBB60s")
PLAYER_NAME_BYTES = 20
TOURNAMENT_NAME_BYTES = 26
PLAYERS_FILE = "WTHOR.JOU"
TOURNAMENTS_FILE = "WTHOR.TRN"
#: The most records a game file is read with: some eight times the whole database (127,475
#: games over 1977-2024, the largest year 9,113), 68 MB of file. Records are read a block at
#: a time, so reading costs the same memory for any file; this bounds the time: about 3 s to
#: read them all here, 2.5 minutes for ``to_game`` to replay every game (``benchmarks/records.py``).
MAX_RECORDS = 1_000_000
BLOCK_RECORDS = 4096  # records read from the file at a time (278 KB)

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
            move = Move.from_name(name)
        except InvalidMoveError as error:
            raise InvalidPositionError(f"{where}, move {number}: {error}") from None
        try:
            board.push(move)
        except IllegalMoveError as error:
            if not board.must_pass():  # WTHOR leaves forced passes out: is this move after one?
                raise IllegalMoveError(f"{where}, move {number} ({name}): {error}") from None
            board.push_pass()
            try:
                board.push(move)
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
    """The games of a ``.wtb`` file, in order, read from the file a block at a time.

    The header and the file's size are checked at once, before any record is read (so a
    huge or damaged file is refused without being read), and so are the name files; each
    record is checked as it is read, and a bad one raises naming the file and record. The
    file's own ``OSError`` exceptions (missing, a folder, unreadable) stay such exceptions, naming it."""
    path = Path(path)
    header = _check_file(path)
    players, tournaments = _names(path.parent)
    return _records(path, header, players, tournaments)


def _check_file(path: Path) -> _Header:
    """The header of a game file, checked against the file's size (read from the file system)."""
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise InvalidPositionError(f"{path.name}: not a regular file, so not a WTHOR game file")
            head = handle.read(HEADER.size)
    except OSError as error:
        raise naming_file(error, path) from None
    return _check_header(head, info.st_size, path.name)


def _check_header(head: bytes, file_size: int, name: str) -> _Header:
    if file_size < HEADER.size or len(head) < HEADER.size:
        raise InvalidPositionError(f"{name}: {file_size} bytes is too short for the 16-byte WTHOR header")
    century, year, month, day, records, name_records, games_year, size, solitaire, empties = HEADER.unpack_from(head)
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
    if file_size != expected:
        whole, extra = divmod(file_size - HEADER.size, RECORD.size)
        if file_size > expected:
            detail = f"{file_size - expected} bytes follow record {records}"
        elif extra:
            detail = f"record {whole + 1} is cut short"
        else:
            detail = f"records {whole + 1} to {records} are missing"
        raise InvalidPositionError(
            f"{name}: {file_size} bytes, but the header's {records} records need {expected} bytes ({detail})"
        )
    if records > MAX_RECORDS:
        raise InvalidPositionError(
            f"{name}: {records:,} records is more than the {MAX_RECORDS:,} a WTHOR file is read with "
            "(the whole database holds some 130,000 games): split the file"
        )
    return _Header(records, name_records, games_year, size, solitaire, empties)


def _records(path: Path, header: _Header, players: list[str], tournaments: list[str]) -> Iterator[WthorRecord]:
    """The records, a block at a time: memory stays the same whatever the file's size."""
    name = path.name
    number = 0
    try:
        with open(path, "rb") as handle:
            handle.seek(HEADER.size)
            while number < header.records:
                count = min(BLOCK_RECORDS, header.records - number)
                block = handle.read(RECORD.size * count)
                if len(block) != RECORD.size * count:
                    raise InvalidPositionError(
                        f"{name}: the file ends in record {number + len(block) // RECORD.size + 1} of "
                        f"{header.records}: it changed while it was read"
                    )
                for tournament, black, white, score, theoretical, move_bytes in RECORD.iter_unpack(block):
                    number += 1
                    where = f"{name} record {number}"
                    if score > 64 or theoretical > 64:
                        raise InvalidPositionError(
                            f"{where}: scores {score} and {theoretical} must be Black's discs, 0 to 64"
                        )
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
    except OSError as error:
        raise naming_file(error, path) from None


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
    """What identifies a name file's contents; ``None`` when there is no such file (its names
    then stay numbers). A file that is there but cannot be read is refused."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _unusable(path, error.strerror or str(error)) from None
    if not stat.S_ISREG(info.st_mode):
        raise _unusable(path, "is a folder" if stat.S_ISDIR(info.st_mode) else "is not a regular file")
    return str(path), info.st_mtime_ns, info.st_size


def _unusable(path: Path, why: str) -> InvalidPositionError:
    return InvalidPositionError(
        f"{path}: {why}: the names of the games beside it come from this file; make it a readable "
        "WTHOR name file, or move it away to read the games with numbered names"
    )


def _read_names(path: Path, width: int) -> list[str]:
    """The names of a ``WTHOR.JOU``/``WTHOR.TRN`` file, by number; the header's count is
    checked against the file's size before the names are read."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(HEADER.size)
            if size < HEADER.size or len(head) < HEADER.size:
                raise InvalidPositionError(f"{path}: {size} bytes is too short for the 16-byte WTHOR header")
            count = HEADER.unpack_from(head)[5]
            if size != HEADER.size + width * count:
                raise InvalidPositionError(
                    f"{path}: {size} bytes, but the header's {count} names of {width} bytes need "
                    f"{HEADER.size + width * count} bytes"
                )
            data = handle.read(width * count)
    except OSError as error:
        raise _unusable(path, error.strerror or str(error)) from None
    if len(data) != width * count:
        raise _unusable(path, "it changed while it was read")
    return [
        data[start : start + width].split(b"\0", 1)[0].decode("latin-1").strip() for start in range(0, len(data), width)
    ]
