"""The ``games`` table of a game log: its schema, a ``Game`` as a row and back, and query filters."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from ..board import Move
from ..errors import InvalidMoveError, InvalidPositionError, ReversiError, quote
from ..game import Game
from ..notation import parse_transcript
from ..rules import FREE_START, GOALS, SCORINGS, START_LAYOUTS, Rules
from ..squares import square_name

__all__ = [
    "COLUMNS",
    "SCHEMA",
    "SELECT",
    "check_game_id",
    "describe",
    "filters",
    "game_of",
    "identity",
    "recorded_from",
    "row_of",
    "text_of",
    "variant_fields",
    "variant_label",
]

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    size INTEGER NOT NULL,
    start TEXT NOT NULL,
    goal TEXT NOT NULL,
    scoring TEXT NOT NULL,
    supply INTEGER,
    moves TEXT NOT NULL,
    plies INTEGER NOT NULL,
    black_score INTEGER NOT NULL,
    white_score INTEGER NOT NULL,
    winner TEXT NOT NULL CHECK (winner IN ('black', 'white', 'draw')),
    date TEXT NOT NULL,
    year INTEGER,
    event TEXT NOT NULL,
    source TEXT NOT NULL,
    metadata TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE INDEX games_black ON games (black);
CREATE INDEX games_white ON games (white);
CREATE INDEX games_year ON games (year);
CREATE INDEX games_variant ON games (size, goal, start);
"""
COLUMNS = (
    "black, white, size, start, goal, scoring, supply, moves, plies, "
    "black_score, white_score, winner, date, year, event, source, metadata, added"
)
SELECT = f"SELECT id, {COLUMNS} FROM games"
# ASCII digits only: a year or size written in another script's digits is not read as one.
_YEAR_RE = re.compile(r"(?<![0-9])(1[89][0-9][0-9]|2[0-9][0-9][0-9])(?![0-9])")
_VARIANT_SIZE_RE = re.compile(r"([0-9]{1,2})x([0-9]{1,2})\Z")
_BLANKS_RE = re.compile(r"[ \t\n\r\f\v]+")
_VARIANT_KEYS = ("size", "start", "goal", "scoring", "supply")


def variant_label(size: int, goal: str, start: str) -> str:
    """``"8x8 classic standard"``; a custom start position is called ``custom``."""
    name = start if start in START_LAYOUTS or start == FREE_START else "custom"
    return f"{size}x{size} {goal} {name}"


def check_game_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReversiError(f"a game id is an int, got {quote(value)}")
    return value


def text_of(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidPositionError(f"{what} must be a string, got {quote(value)}")
    return value


# What makes two recorded games the same game: every column of ``COLUMNS`` but the date
# and year (a game without a date is dated the day it is recorded), the source (the same
# by construction) and when it was added.
_IDENTITY = (
    "black, white, size, start, goal, scoring, supply, moves, plies, black_score, white_score, winner, event, metadata"
)
_IDENTITY_AT = tuple(COLUMNS.split(", ").index(name) for name in _IDENTITY.split(", "))


def identity(row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(row[i] for i in _IDENTITY_AT)


def recorded_from(conn: sqlite3.Connection, source: str) -> dict[tuple[Any, ...], list[int]]:
    """The games already recorded from a source, by identity, oldest id first."""
    recorded: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    rows = conn.execute(f"SELECT id, {_IDENTITY} FROM games WHERE source = ? ORDER BY id", (source,))
    for number, *key in rows:
        recorded[tuple(key)].append(number)
    return recorded


def row_of(game: Game, source: str | None) -> tuple[Any, ...]:
    """The database row of a game, checked: a game without a result cannot be recorded."""
    if not isinstance(game, Game):
        raise InvalidPositionError(f"expected a Game to record, got {type(game).__name__}: {quote(game)}")
    rules = game.rules
    result = game.result
    if result is None:
        outcome = game.outcome()
        if outcome is None:
            raise InvalidPositionError(
                f"the game {quote(game.black_player)} vs {quote(game.white_player)} is not finished and has no "
                "recorded result: play it to the end or set Game.result"
            )
        result = (outcome.black, outcome.white)
    if (
        not isinstance(result, tuple)
        or len(result) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in result)
        or sum(result) > rules.size * rules.size
    ):
        raise InvalidPositionError(
            f"result {quote(result)} is not (black discs, white discs) on a {rules.size}x{rules.size} board"
        )
    black_score, white_score = result
    if black_score == white_score:
        winner = "draw"
    elif (black_score > white_score) == (rules.goal == "classic"):
        winner = "black"
    else:
        winner = "white"
    metadata = {str(k): str(v) for k, v in game.metadata.items() if k not in ("id", "source")}
    source_text = source if source is not None else str(game.metadata.get("source", ""))
    date = text_of(game.date, "date") or datetime.now(timezone.utc).date().isoformat()
    year_match = _YEAR_RE.search(date) or _YEAR_RE.search(str(game.metadata.get("year", "")))
    moves = " ".join(square_name(m.square, rules.size) if m.square is not None else "pass" for m in game.moves)
    return (
        text_of(game.black_player, "black_player"),
        text_of(game.white_player, "white_player"),
        rules.size,
        rules.start,
        rules.goal,
        rules.scoring,
        rules.supply,
        moves,
        len(game.moves),
        black_score,
        white_score,
        winner,
        date,
        int(year_match.group(1)) if year_match else None,
        text_of(game.event, "event"),
        text_of(source_text, "source"),
        json.dumps(metadata, ensure_ascii=False, sort_keys=True),
        datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def filters(
    player: str | None,
    year: int | None,
    opening: str | None,
    variant: Rules | str | Mapping[str, Any] | None,
) -> tuple[str, list[Any]]:
    """A ``WHERE`` clause and its parameters for the query filters."""
    clauses: list[str] = []
    params: list[Any] = []
    if player is not None:
        clauses.append("(black = ? OR white = ?)")
        params += [text_of(player, "player"), player]
    if year is not None:
        if isinstance(year, bool) or not isinstance(year, int):
            raise ReversiError(f"year must be an int like 1990, got {quote(year)}")
        clauses.append("year = ?")
        params.append(year)
    fields = variant_fields(variant) if variant is not None else {}
    for key, value in fields.items():
        clauses.append(f"{key} IS ?")
        params.append(value)
    if opening is not None:
        size = fields.get("size", 8)
        try:
            squares = parse_transcript(text_of(opening, "opening"), size)
        except InvalidMoveError as error:
            raise InvalidMoveError(f"opening {quote(opening)}: {error}") from None
        if not squares:
            raise InvalidMoveError(f"opening {quote(opening)} has no moves: expected a transcript like 'f5d6c3'")
        prefix = " ".join("pass" if sq is None else square_name(sq, size) for sq in squares)
        clauses.append("(moves = ? OR substr(moves, 1, ?) = ?)")
        params += [prefix, len(prefix) + 1, prefix + " "]
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def describe(
    player: str | None, year: int | None, opening: str | None, variant: Rules | str | Mapping[str, Any] | None
) -> str:
    """What the filters selected, for table titles: ``" (Ann, 1985)"``."""
    parts = [str(v) for v in (player, year, opening) if v is not None]
    if isinstance(variant, Rules):
        parts.append(variant_label(variant.size, variant.goal, variant.start))
    elif isinstance(variant, Mapping):
        parts.append(", ".join(f"{k}={v}" for k, v in variant.items()))
    elif variant is not None:
        parts.append(str(variant))
    return f" ({', '.join(parts)})" if parts else ""


def variant_fields(variant: Rules | str | Mapping[str, Any]) -> dict[str, Any]:
    """Column values a variant filter pins down."""
    if isinstance(variant, Rules):
        return {key: getattr(variant, key) for key in _VARIANT_KEYS}
    if isinstance(variant, Mapping):
        unknown = set(variant) - set(_VARIANT_KEYS)
        if unknown:
            raise ReversiError(f"variant keys must be among {_VARIANT_KEYS}, got {sorted(unknown)}")
        return dict(variant)
    if not isinstance(variant, str) or not variant.strip():
        raise ReversiError(f"variant must be Rules, a mapping or a name like '8x8 inverted', got {quote(variant)}")
    fields: dict[str, Any] = {}
    for word in _BLANKS_RE.split(variant.lower() if variant.isascii() else variant):
        if not word:
            continue
        if m := _VARIANT_SIZE_RE.match(word):
            if m.group(1) != m.group(2):
                raise ReversiError(f"variant {quote(variant)}: boards are square, got {quote(word)}")
            fields["size"] = int(m.group(1))
        elif word in GOALS:
            fields["goal"] = word
        elif word in START_LAYOUTS or word == FREE_START:
            fields["start"] = word
        elif word in SCORINGS:
            fields["scoring"] = word
        else:
            raise ReversiError(
                f"variant {quote(variant)}: {quote(word)} is not a size (8x8), goal {GOALS}, start "
                f"or scoring {SCORINGS}"
            )
    return fields


def game_of(row: Sequence[Any]) -> Game:
    """The ``Game`` of a row read with ``SELECT``; a row that makes no game is refused."""
    (game_id, black, white, size, start, goal, scoring, supply, moves, _plies) = row[:10]
    (black_score, white_score, _winner, date, _year, event, source, metadata, _added) = row[10:]
    try:
        rules = Rules(size=size, start=start, goal=goal, scoring=scoring, supply=supply)
        meta = json.loads(metadata)
        if not isinstance(meta, dict):
            raise InvalidPositionError(f"metadata is not an object: {quote(metadata)}")
        meta = {str(k): str(v) for k, v in meta.items()}
        meta.update(id=str(game_id), source=source)
        return Game(
            [Move.from_name(token, size) for token in moves.split()],
            rules,
            black_player=black,
            white_player=white,
            event=event,
            date=date,
            result=(black_score, white_score),
            metadata=meta,
        )
    except (ReversiError, ValueError, TypeError) as error:
        raise InvalidPositionError(f"game id {game_id} cannot be read: {error}") from None
