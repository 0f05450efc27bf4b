"""Where an index lives: ``Store``, the small interface the explorer needs, and ``SqliteStore``.

SQLite is the default and only store: one file, read by many notebooks at once (each opens it
read-only; a build is one transaction, so a reader sees an index before or after it, never
half of one), from the standard library. Its two tables are

- ``moves``: one row per (canonical position, canonical move), clustered on that key
  (``WITHOUT ROWID``), so a lookup is one range read of a few rows;
- ``games``: every game indexed, by its ``game_id``, with what an example shows.

``PRAGMA application_id`` marks the file as an index and ``PRAGMA user_version`` holds the
schema version; the ``meta`` table says the depth and variant. Anything else (another SQLite
database, a damaged file, a text file) is refused with ``InvalidPositionError`` naming it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..errors import InvalidPositionError, ReversiError, cut
from .tally import Row, merge_examples

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "GameRow", "SqliteStore", "Store"]

APPLICATION_ID = 0x52564558  # "RVEX": this file is a reversi-widget opening index
SCHEMA_VERSION = 1
_MAGIC = b"SQLite format 3\x00"

#: A game as stored: (id, black, white, event, year, black score, white score, theoretical, moves, source).
GameRow = tuple[int, str, str, str, "int | None", int, int, "int | None", bytes, str]

_SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE moves (
    position BLOB NOT NULL,
    move INTEGER NOT NULL,
    games INTEGER NOT NULL,
    points INTEGER NOT NULL,
    margin INTEGER NOT NULL,
    theory_games INTEGER NOT NULL,
    theory INTEGER NOT NULL,
    first_year INTEGER,
    last_year INTEGER,
    examples BLOB NOT NULL,
    PRIMARY KEY (position, move)
) WITHOUT ROWID;
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    event TEXT NOT NULL,
    year INTEGER,
    black_score INTEGER NOT NULL,
    white_score INTEGER NOT NULL,
    theoretical INTEGER,
    moves BLOB NOT NULL,
    source TEXT NOT NULL
);
"""

# Each column of an entry adds up, except the years (the earliest and latest) and the examples.
_UPSERT = """
INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (position, move) DO UPDATE SET
    games = games + excluded.games,
    points = points + excluded.points,
    margin = margin + excluded.margin,
    theory_games = theory_games + excluded.theory_games,
    theory = theory + excluded.theory,
    first_year = coalesce(min(first_year, excluded.first_year), first_year, excluded.first_year),
    last_year = coalesce(max(last_year, excluded.last_year), last_year, excluded.last_year),
    examples = merge_examples(examples, excluded.examples)
"""


class Store(Protocol):
    """What the explorer asks of a store: its settings, which games it holds, adding a batch,
    and the rows of one position."""

    def meta(self) -> dict[str, str]: ...

    def known(self, ids: Sequence[int]) -> dict[int, GameRow]: ...

    def add(self, rows: Iterable[Sequence[Row]], games: Iterable[GameRow]) -> None: ...

    def moves(self, position: bytes) -> list[Row]: ...

    def games(self, ids: Sequence[int]) -> dict[int, GameRow]: ...

    def counts(self) -> tuple[int, int]: ...


class SqliteStore:
    """An index in one SQLite file; ``create`` makes a new one with its settings."""

    def __init__(self, path: Path, *, writable: bool = False) -> None:
        self.path = path
        self.writable = writable
        self._conn: sqlite3.Connection | None = None

    # -- the file ---------------------------------------------------------------------

    def refuse(self, why: str) -> InvalidPositionError:
        return InvalidPositionError(f"{self.path}: {why}")

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        self._check_header()
        uri = f"{self.path.resolve().as_uri()}?mode={'rw' if self.writable else 'ro'}"
        try:
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
            conn.create_function("merge_examples", 2, merge_examples, deterministic=True)
            application, version = (
                conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("application_id", "user_version")
            )
        except sqlite3.Error as error:
            raise self.refuse(f"not a readable opening index ({cut(str(error), 80)})") from None
        if application != APPLICATION_ID:
            conn.close()
            raise self.refuse("an SQLite database, but not an opening index (made by explorer.build)")
        if version != SCHEMA_VERSION:
            conn.close()
            raise self.refuse(
                f"an opening index of schema {version}; this version reads {SCHEMA_VERSION}: build it again"
            )
        self._conn = conn
        return conn

    def _check_header(self) -> None:
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(_MAGIC))
        except FileNotFoundError:
            raise self.refuse("no such index: make one with explorer.build(games, path)") from None
        except OSError as error:
            raise self.refuse(f"cannot be read ({error.strerror or error})") from None
        if head != _MAGIC:
            raise self.refuse("not an opening index: it is not even an SQLite database")

    @classmethod
    def create(cls, path: Path, meta: dict[str, str]) -> SqliteStore:
        """A new, empty index file (refused if the path already holds a file)."""
        if path.exists():
            raise InvalidPositionError(f"{path}: already exists")
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            with conn:
                conn.executescript(_SCHEMA)
                conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.close()
        except sqlite3.Error as error:
            path.unlink(missing_ok=True)
            raise ReversiError(f"{path}: cannot make an index there ({error})") from None
        return cls(path, writable=True)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._connect().execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise self.refuse(f"damaged or unreadable opening index ({cut(str(error), 80)})") from None

    # -- the interface ----------------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return dict(self._read("SELECT name, value FROM meta"))

    def known(self, ids: Sequence[int]) -> dict[int, GameRow]:
        return self.games(ids)

    def games(self, ids: Sequence[int]) -> dict[int, GameRow]:
        found: dict[int, GameRow] = {}
        unique = sorted(set(ids))
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            rows = self._read(f"SELECT * FROM games WHERE id IN ({', '.join('?' * len(part))})", part)
            found.update((row[0], tuple(row)) for row in rows)
        return found

    def moves(self, position: bytes) -> list[Row]:
        return [tuple(row) for row in self._read("SELECT * FROM moves WHERE position = ?", (position,))]

    def counts(self) -> tuple[int, int]:
        """(games indexed, distinct positions)."""
        games = self._read("SELECT count(*) FROM games")[0][0]
        positions = self._read("SELECT count(DISTINCT position) FROM moves")[0][0]
        return int(games), int(positions)

    def add(self, rows: Iterable[Sequence[Row]], games: Iterable[GameRow]) -> None:
        """Add batches of rows and their games in one transaction: all of it, or (on any
        error or interruption) nothing."""
        conn = self._connect()
        try:
            conn.execute("PRAGMA cache_size = -262144")  # 256 MB while building: the rows land in random order
            conn.execute("BEGIN IMMEDIATE")
            try:
                for batch in rows:
                    conn.executemany(_UPSERT, batch)
                conn.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            raise ReversiError(
                f"{self.path}: the index could not be written ({cut(str(error), 80)}); it is as before"
            ) from None
        finally:
            conn.execute("PRAGMA cache_size = -2000")
