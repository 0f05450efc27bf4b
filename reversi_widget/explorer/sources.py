"""What an index is built from: WTHOR files and folders, GGF files, game logs, games, records.

Every source becomes a list of ``Played`` games: the moves as square numbers, the names and
year shown beside them, the result and, from WTHOR, the theoretical score. Reading is done
whole before anything is indexed, so a source that cannot be read refuses the build with
nothing changed, naming the file.

A game is identified by its moves (passes left out, as WTHOR stores them), both players,
the event, the year and the result: ``game_id`` hashes those into a 64-bit number, so the
same game read from a WTHOR file, from a game log that imported that file, or twice from
the same file is indexed once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path

from ..errors import InvalidPositionError, quote
from ..game import Game
from ..records import GameLog
from ..rules import Rules
from ..squares import square_name
from ..wthor import WthorRecord, read_wthor
from ..wthor_data import wthor_years
from .symmetry import PASS, SIZE

__all__ = ["Played", "Source", "game_id", "played_games", "variant_of"]

#: What ``build`` takes: one of these, or an iterable of them.
Source = str | os.PathLike[str] | GameLog | Game | WthorRecord

_SQUARE = {square_name(square, SIZE): square for square in range(SIZE * SIZE)}
_YEAR = re.compile(r"(?<![0-9])(1[89][0-9][0-9]|2[0-9][0-9][0-9])(?![0-9])")


@dataclass(frozen=True)
class Played:
    """One game as the index keeps it."""

    id: int  # ``game_id``: signed 64-bit, the games table's key
    moves: bytes  # square numbers, ``PASS`` for a pass (forced passes may be left out)
    black: str
    white: str
    event: str
    year: int | None
    black_score: int  # discs, as recorded
    white_score: int
    theoretical: int | None  # Black's discs after perfect play, where the source has it (WTHOR)
    rules: Rules
    source: str  # where it came from, for the build's report: "WTH_1990.wtb record 12"


def game_id(moves: bytes, black: str, white: str, event: str, year: int | None, result: tuple[int, int]) -> int:
    """The number that identifies a game (see the module's docstring), as a signed 64-bit int."""
    transcript = bytes(square for square in moves if square != PASS)
    text = "\x1f".join((black, white, event, "" if year is None else str(year), f"{result[0]}-{result[1]}"))
    digest = blake2b(transcript + b"\x1e" + text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def variant_of(rules: Rules) -> str:
    """The variant an index is for, as it is stored: ``"8x8 standard classic"``."""
    return f"{rules.size}x{rules.size} {rules.start} {rules.goal}"


def _played(
    moves: bytes,
    black: str,
    white: str,
    event: str,
    year: int | None,
    result: tuple[int, int],
    theoretical: int | None,
    rules: Rules,
    source: str,
) -> Played:
    return Played(
        game_id(moves, black, white, event, year, result),
        moves,
        black,
        white,
        event,
        year,
        result[0],
        result[1],
        theoretical,
        rules,
        source,
    )


def _from_record(record: WthorRecord) -> Played:
    result = (record.black_score, 64 - record.black_score)
    moves = bytes(_SQUARE.get(name, 255) for name in record.moves)  # 255: not a square, refused in tally
    return _played(
        moves,
        record.black_player,
        record.white_player,
        record.tournament,
        record.year,
        result,
        record.theoretical_score,
        Rules(),
        record.source or "WTHOR record",
    )


def _from_game(game: Game, where: str) -> Played | str:
    """The game as the index keeps it, or why it cannot be indexed."""
    result = game.result
    if result is None:
        outcome = game.board().outcome()
        if outcome is None:
            return "it is not finished and has no recorded result"
        result = (outcome.black, outcome.white)
    if game.rules.size != SIZE:
        moves = b""
    else:
        moves = bytes(PASS if move.square is None else move.square for move in game.moves)
    year_text = _YEAR.search(game.date) or _YEAR.search(str(game.metadata.get("year", "")))
    theory_text = game.metadata.get("theoretical_score", "")
    theoretical = int(theory_text) if theory_text.isdigit() and int(theory_text) <= 64 else None
    return _played(
        moves,
        game.black_player,
        game.white_player,
        game.event,
        int(year_text.group(1)) if year_text else None,
        result,
        theoretical,
        game.rules,
        where,
    )


def _wthor_file(path: Path) -> Iterator[Played]:
    for record in read_wthor(path):
        yield _from_record(record)


def _path_games(path: Path) -> Iterator[Played | tuple[str, str]]:
    """The games of a path: a WTHOR folder or ``.wtb`` file, a GGF file, or a game log."""
    if path.is_dir():
        for year_file in wthor_years(path).values():
            yield from _wthor_file(year_file)
        return
    suffix = path.suffix.lower()
    if suffix == ".wtb":
        yield from _wthor_file(path)
    elif suffix == ".ggf":
        from ..ggf import load_ggf

        for number, game in enumerate(load_ggf(path), 1):
            yield _or_reason(game, f"{path.name} game {number}")
    elif path.is_file():
        with GameLog(path, readonly=True) as log:
            yield from _log_games(log)
    else:
        raise InvalidPositionError(
            f"{path}: no such file or folder; give a WTHOR folder or .wtb file, a .ggf file or a game log"
        )


def _log_games(log: GameLog) -> Iterator[Played | tuple[str, str]]:
    for number in log.ids():
        yield _or_reason(log.get(number), f"{log.path.name} game {number}")


def _or_reason(game: Game, where: str) -> Played | tuple[str, str]:
    played = _from_game(game, where)
    return (where, played) if isinstance(played, str) else played


def played_games(sources: Source | Iterable[Source]) -> Iterator[Played | tuple[str, str]]:
    """Every game of the sources, in order; a game that cannot be indexed as it stands comes
    as ``(where, why)``. A source of the wrong kind or a file that cannot be read raises."""
    if isinstance(sources, (str, os.PathLike, GameLog, Game, WthorRecord)):
        sources = [sources]
    elif not isinstance(sources, Iterable):
        raise TypeError(
            f"expected games or paths (a WTHOR folder or file, a GGF file, a GameLog, Games, WthorRecords), "
            f"got {type(sources).__name__}: {quote(sources)}"
        )
    for number, source in enumerate(sources, 1):
        if isinstance(source, (str, os.PathLike)):
            yield from _path_games(Path(source))
        elif isinstance(source, GameLog):
            yield from _log_games(source)
        elif isinstance(source, Game):
            yield _or_reason(source, f"game {number} ({source.black_player} vs {source.white_player})")
        elif isinstance(source, WthorRecord):
            yield _from_record(source)
        else:
            raise TypeError(
                f"item {number} is a {type(source).__name__} ({quote(source)}): expected a path, a GameLog, "
                "a Game or a WthorRecord"
            )
