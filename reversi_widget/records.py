"""``GameLog``: finished games kept in an SQLite file, and questions asked of them (R25).

Record the games you play (or import GGF and WTHOR files), then see who wins most
often and what is played most. The file is plain SQLite from the standard library:

- one connection per ``GameLog``, shared by threads under a lock (``check_same_thread=False``).
  A connection per operation would pay SQLite's open and schema read every time; one
  connection and a lock keeps operations cheap and still lets a widget's callbacks write
  from another thread. A process that inherits the object through ``fork`` reopens the file
  instead of using the parent's connection, and a pickled ``GameLog`` reopens by path.
- WAL journal and a busy timeout, so several notebooks (several processes) can write to the
  same file at once: writers queue for the lock instead of failing.
- every write is one ``BEGIN IMMEDIATE`` transaction: a batch is all there or not at all, and
  a process killed mid-write leaves the file as it was after its last commit.
- ``PRAGMA application_id`` marks the file as a game log and ``PRAGMA user_version`` holds the
  schema version; anything else (another database, a damaged file, a text file) is refused
  with ``InvalidPositionError`` naming the file.
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import os
import pickle
import re
import sqlite3
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape as html_escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .board import Move
from .errors import InvalidMoveError, InvalidPositionError, ReversiError
from .game import Game
from .notation import parse_transcript
from .rules import FREE_START, GOALS, SCORINGS, START_LAYOUTS, Rules
from .squares import square_name

if TYPE_CHECKING:
    from .svg import SvgImage

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "GameLog", "MostPlayed", "Stats", "Table", "analyse_games"]

APPLICATION_ID = 0x52564C47  # "RVLG": this file is a reversi-widget game log
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 60_000  # how long a writer waits for another process's transaction
PAGE = 500  # rows fetched per step when iterating a log
SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
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
_COLUMNS = (
    "black, white, size, start, goal, scoring, supply, moves, plies, "
    "black_score, white_score, winner, date, year, event, source, metadata, added"
)
_SELECT = f"SELECT id, {_COLUMNS} FROM games"
_YEAR_RE = re.compile(r"(?<!\d)(1[89]\d\d|2\d\d\d)(?!\d)")
_VARIANT_SIZE_RE = re.compile(r"(\d+)x(\d+)\Z")
_VARIANT_KEYS = ("size", "start", "goal", "scoring", "supply")
_INHERITED: list[object] = []  # connections a forked process got from its parent: never used, never closed


# -- small tables that print and show in notebooks ------------------------------------


class Table:
    """Rows with named columns: ``str()`` is aligned text, ``_repr_html_`` a notebook table.
    Long tables show their first ``max_rows`` rows; ``rows`` always holds them all."""

    def __init__(self, title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, max_rows: int = 20):
        self.title = title
        self.columns = tuple(columns)
        self.rows = [tuple(row) for row in rows]
        self.max_rows = max_rows
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"row {row!r} has {len(row)} cells for {len(self.columns)} columns")

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def as_dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def row(self, key: object) -> dict[str, Any]:
        """The row whose first cell is ``key`` (e.g. a player's name)."""
        for row in self.rows:
            if row[0] == key:
                return dict(zip(self.columns, row, strict=True))
        raise KeyError(key)

    def column(self, name: str) -> list[Any]:
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    @staticmethod
    def _cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.1f}"
        return "" if value is None else str(value)

    def _shown(self) -> tuple[list[tuple[Any, ...]], int]:
        return self.rows[: self.max_rows], max(0, len(self.rows) - self.max_rows)

    def __str__(self) -> str:
        shown, hidden = self._shown()
        cells = [list(self.columns)] + [[self._cell(v) for v in row] for row in shown]
        widths = [max(len(line[i]) for line in cells) for i in range(len(self.columns))]
        numeric = [all(isinstance(row[i], (int, float)) for row in shown) for i in range(len(self.columns))]

        def line(values: list[str]) -> str:
            return "  ".join(
                v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric, strict=True)
            ).rstrip()

        out = [self.title, line(cells[0]), "  ".join("-" * w for w in widths)]
        out += [line(row) for row in cells[1:]]
        if not shown:
            out.append("(no games)")
        if hidden:
            out.append(f"... and {hidden} more rows")
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"<Table {self.title!r}: {len(self.rows)} rows>"

    def _repr_html_(self) -> str:
        shown, hidden = self._shown()
        numeric = [
            bool(shown) and all(isinstance(row[i], (int, float)) for row in shown) for i in range(len(self.columns))
        ]
        head = "".join(
            f'<th style="text-align:{"right" if num else "left"}">{html_escape(c)}</th>'
            for c, num in zip(self.columns, numeric, strict=True)
        )
        body = "".join(
            "<tr>"
            + "".join(
                f'<td style="text-align:{"right" if isinstance(v, (int, float)) else "left"}">'
                f"{html_escape(self._cell(v))}</td>"
                for v in row
            )
            + "</tr>"
            for row in shown
        )
        if not shown:
            body = f'<tr><td colspan="{len(self.columns)}">(no games)</td></tr>'
        more = f"<p>… and {hidden} more rows</p>" if hidden else ""
        return (
            f'<div class="reversi-table"><strong>{html_escape(self.title)}</strong>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}</div>"
        )


@dataclass(frozen=True)
class Stats:
    """Who wins: results per player and per variant."""

    players: Table  # player, games, wins, losses, draws, win %
    variants: Table  # variant, games, black wins, white wins, draws

    def __str__(self) -> str:
        return f"{self.players}\n\n{self.variants}"

    def _repr_html_(self) -> str:
        return self.players._repr_html_() + self.variants._repr_html_()

    def chart(self, *, limit: int = 12, theme: str = "light") -> SvgImage:
        """Wins, draws and losses per player (``charts.win_rates``)."""
        from .charts import win_rates

        return win_rates(self, limit=limit, theme=theme)


@dataclass(frozen=True)
class MostPlayed:
    """What is played most: variants and openings."""

    variants: Table  # variant, games, share %
    openings: Table  # opening, games, black wins, white wins, draws

    def __str__(self) -> str:
        return f"{self.variants}\n\n{self.openings}"

    def _repr_html_(self) -> str:
        return self.variants._repr_html_() + self.openings._repr_html_()


# -- the log ----------------------------------------------------------------------------


def variant_label(size: int, goal: str, start: str) -> str:
    """``"8x8 classic standard"``; a custom start position is called ``custom``."""
    name = start if start in START_LAYOUTS or start == FREE_START else "custom"
    return f"{size}x{size} {goal} {name}"


class GameLog:
    """Finished games in an SQLite file; see the module docstring for how it stays whole."""

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = BUSY_TIMEOUT_MS / 1000) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._pid = os.getpid()
        self._open()

    # -- connection -------------------------------------------------------------------

    def _where(self) -> str:
        return str(self.path)

    def _refuse(self, why: str) -> InvalidPositionError:
        return InvalidPositionError(f"{self._where()}: {why}")

    def _open(self) -> None:
        """Connect, then check (or create) the schema; a foreign or damaged file is refused."""
        path = self.path
        memory = str(path) == ":memory:"
        if not memory:
            if path.is_dir():
                raise self._refuse("is a folder, not a game log file")
            if path.exists() and path.stat().st_size > 0:
                with open(path, "rb") as handle:
                    magic = handle.read(len(SQLITE_MAGIC))
                if magic != SQLITE_MAGIC:
                    raise self._refuse(f"is not a GameLog database (it does not start like an SQLite file: {magic!r})")
        try:
            conn = sqlite3.connect(str(path), timeout=self.timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise self._refuse(f"cannot be opened as a game log: {error}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._check_schema(conn)
            if not memory:
                self._use_wal(conn)
            # In WAL mode NORMAL keeps every committed transaction when a process dies;
            # only a power cut can drop the last ones. FULL would add an fsync per commit.
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as error:
            conn.close()
            if type(error) is not sqlite3.DatabaseError:
                raise
            raise self._refuse(f"is not a GameLog database or is damaged: {error}") from None
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._pid = os.getpid()

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to write-ahead logging, which lets readers and a writer work at once.

        The switch needs the file to itself, and SQLite answers "locked" at once rather than
        waiting when another process holds it (as when several open a new log together), so
        it is retried until the timeout.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
                    return
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            self._create_schema(conn)
        self._check_version(conn)

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        """Create the schema in a new file, or refuse a foreign one.

        Everything is read again under the write lock: another process may be creating the
        schema at this very moment, and reads outside one transaction could see its tables
        but not yet its application id.
        """
        conn.execute("BEGIN IMMEDIATE")
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                if app_id != 0 or tables:
                    found = f"application id {app_id:#x}, tables {tables or 'none'}"
                    raise self._refuse(f"is an SQLite database but not a GameLog ({found})")
                for statement in _SCHEMA.split(";"):  # not executescript: it would commit first
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _check_version(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise self._refuse(
                f"has GameLog schema version {version}; this version of reversi_widget reads version {SCHEMA_VERSION}"
            )

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; errors of a damaged file name the file."""
        with self._lock:
            if self._pid != os.getpid():
                # A forked child must not use, or even close, its parent's connection: closing
                # could checkpoint the parent's WAL. Keep it referenced and open a new one.
                _INHERITED.append(self._conn)
                self._conn = None
            if self._conn is None:
                self._open()
            assert self._conn is not None
            try:
                yield self._conn
            except sqlite3.DatabaseError as error:
                # SQLite reports a damaged or foreign file as the base DatabaseError itself;
                # its subclasses (locked, constraint, ...) are other stories and pass through
                if type(error) is not sqlite3.DatabaseError:
                    raise
                raise self._refuse(f"the game log is damaged: {error}") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")  # take the write lock now, not halfway through
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        """Close the file (a later operation opens it again)."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path, self.timeout = state["path"], state["timeout"]
        self._lock = threading.RLock()
        self._conn = None
        self._pid = os.getpid()

    def __repr__(self) -> str:
        return f"GameLog({str(self.path)!r})"

    # -- writing ----------------------------------------------------------------------

    def add(self, game: Game, *, source: str | None = None) -> int:
        """Record one finished game; return its id."""
        row = _row(game, source)
        with self._transaction() as conn:
            cursor = conn.execute(f"INSERT INTO games ({_COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def add_many(self, games: Iterable[Game], *, source: str | None = None) -> list[int]:
        """Record many games in one transaction: all of them, or (on any error) none."""
        return self._record(games, source, match_recorded=False)

    def _record(self, games: Iterable[Game], source: str | None, *, match_recorded: bool) -> list[int]:
        """Record games in one transaction; with ``match_recorded``, a game already recorded
        from the same source is not recorded again and its existing id is returned."""
        rows = []
        for index, game in enumerate(games, 1):
            try:
                rows.append(_row(game, source))
            except ReversiError as error:
                where = f"{source}: " if source else ""
                raise type(error)(f"{where}game {index}: {error}") from None
        ids = []
        with self._transaction() as conn:
            recorded = _recorded_from(conn, source) if match_recorded and source else {}
            for row in rows:
                same = recorded.get(_identity(row))
                if same:
                    ids.append(same.pop(0))  # each recorded game stands for one game of the file
                    continue
                cursor = conn.execute(f"INSERT INTO games ({_COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)
                assert cursor.lastrowid is not None
                ids.append(cursor.lastrowid)
        return ids

    def import_ggf(self, path_or_text: str | os.PathLike[str], *, source: str | None = None) -> list[int]:
        """Record every game of a GGF file (or GGF text) in one transaction; return their ids.
        Importing the same file again records nothing twice (see ``import_wthor``)."""
        from .ggf import load_ggf, read_ggf_games

        text_given = isinstance(path_or_text, str) and ("(;" in path_or_text or "\n" in path_or_text)
        if text_given:
            games = read_ggf_games(str(path_or_text))
            label = source or "ggf"
        else:
            path = Path(path_or_text)
            if not path.is_file():
                raise InvalidPositionError(f"{path}: no such GGF file (and the text is not GGF: no '(;')")
            games = load_ggf(path)
            label = source or f"ggf:{path.name}"
        return self._record(games, label, match_recorded=True)

    def import_wthor(self, path: str | os.PathLike[str], *, source: str | None = None) -> list[int]:
        """Record every game of a WTHOR ``.wtb`` file in one transaction; return their ids.
        Player and tournament names come from ``WTHOR.JOU``/``WTHOR.TRN`` beside it.

        Importing the same file again records nothing twice: a game equal to one already
        recorded from the same source (players, rules, moves, result, event) is matched to
        it and its id returned, so statistics are not counted double."""
        from .wthor import read_wthor

        path = Path(path)
        games = []
        for index, record in enumerate(read_wthor(path), 1):
            try:
                game = record.to_game()
            except ReversiError as error:
                raise type(error)(f"{path}: record {index}: {error}") from None
            game.metadata.setdefault("year", str(record.year))
            games.append(game)
        return self._record(games, source or f"wthor:{path.name}", match_recorded=True)

    def delete(self, game_id: int) -> None:
        """Remove one game (``KeyError`` if there is none with that id)."""
        with self._transaction() as conn:
            if conn.execute("DELETE FROM games WHERE id = ?", (_game_id(game_id),)).rowcount == 0:
                raise KeyError(game_id)

    # -- reading ----------------------------------------------------------------------

    def __len__(self) -> int:
        with self._connection() as conn:
            count: int = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return count

    def __iter__(self) -> Iterator[Game]:
        """Every game, oldest first, read a page at a time (other writers may go on meanwhile)."""
        last = 0
        while True:
            with self._connection() as conn:
                rows = conn.execute(f"{_SELECT} WHERE id > ? ORDER BY id LIMIT ?", (last, PAGE)).fetchall()
            if not rows:
                return
            for row in rows:
                yield self._game(row)
            last = rows[-1][0]

    def ids(self) -> list[int]:
        with self._connection() as conn:
            return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]

    def get(self, game_id: int) -> Game:
        """The game with this id (``KeyError`` if there is none)."""
        with self._connection() as conn:
            row = conn.execute(f"{_SELECT} WHERE id = ?", (_game_id(game_id),)).fetchone()
        if row is None:
            raise KeyError(game_id)
        return self._game(row)

    def games(
        self,
        player: str | None = None,
        year: int | None = None,
        opening: str | None = None,
        variant: Rules | str | Mapping[str, Any] | None = None,
    ) -> list[Game]:
        """The games matching every filter given: a player (either colour), a year, an
        opening (the first moves, ``"f5d6c3"``), a variant (``Rules``, ``"8x8 inverted"``
        or ``{"goal": "inverted"}``)."""
        where, params = _filters(player, year, opening, variant)
        with self._connection() as conn:
            rows = conn.execute(f"{_SELECT}{where} ORDER BY id", params).fetchall()
        return [self._game(row) for row in rows]

    def _game(self, row: Sequence[Any]) -> Game:
        (game_id, black, white, size, start, goal, scoring, supply, moves, _plies) = row[:10]
        (black_score, white_score, _winner, date, _year, event, source, metadata, _added) = row[10:]
        try:
            rules = Rules(size=size, start=start, goal=goal, scoring=scoring, supply=supply)
            meta = json.loads(metadata)
            if not isinstance(meta, dict):
                raise InvalidPositionError(f"metadata is not an object: {metadata[:60]!r}")
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
            raise self._refuse(f"game id {game_id} cannot be read: {error}") from None

    def check(self) -> None:
        """Run SQLite's integrity check; raise ``InvalidPositionError`` naming the problems."""
        with self._connection() as conn:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise self._refuse(f"integrity check failed: {'; '.join(problems[:5])}")

    # -- questions --------------------------------------------------------------------

    def stats(
        self,
        player: str | None = None,
        year: int | None = None,
        opening: str | None = None,
        variant: Rules | str | Mapping[str, Any] | None = None,
    ) -> Stats:
        """Wins, losses and draws per player (most games first) and per variant."""
        where, params = _filters(player, year, opening, variant)
        query = f"""
            SELECT player, COUNT(*) AS games, SUM(result = 'win'), SUM(result = 'loss'), SUM(result = 'draw')
            FROM (
                SELECT black AS player,
                       CASE winner WHEN 'black' THEN 'win' WHEN 'white' THEN 'loss' ELSE 'draw' END AS result
                FROM games{where}
                UNION ALL
                SELECT white,
                       CASE winner WHEN 'white' THEN 'win' WHEN 'black' THEN 'loss' ELSE 'draw' END
                FROM games{where}
            )
            GROUP BY player ORDER BY games DESC, player
        """
        with self._connection() as conn:
            player_rows = conn.execute(query, params + params).fetchall()
            variant_rows = conn.execute(
                f"SELECT size, goal, start, COUNT(*), SUM(winner = 'black'), SUM(winner = 'white'), "
                f"SUM(winner = 'draw') FROM games{where} GROUP BY size, goal, start",
                params,
            ).fetchall()
        scope = _describe(player, year, opening, variant)
        players = Table(
            f"Results per player{scope}",
            ("player", "games", "wins", "losses", "draws", "win %"),
            [(p, g, w, lo, d, round(100 * w / g, 1)) for p, g, w, lo, d in player_rows],
        )
        merged: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for size, goal, start, *counts in variant_rows:
            totals = merged[variant_label(size, goal, start)]
            for i, value in enumerate(counts):
                totals[i] += value
        variants = Table(
            f"Results per variant{scope}",
            ("variant", "games", "black wins", "white wins", "draws"),
            sorted(((label, *counts) for label, counts in merged.items()), key=lambda r: (-r[1], r[0])),
        )
        return Stats(players, variants)

    def most_played(
        self,
        *,
        plies: int = 4,
        limit: int = 10,
        player: str | None = None,
        year: int | None = None,
        variant: Rules | str | Mapping[str, Any] | None = None,
    ) -> MostPlayed:
        """The variants played most, and the most common openings of ``plies`` moves."""
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 1:
            raise ReversiError(f"plies must be a positive int, got {plies!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ReversiError(f"limit must be a positive int, got {limit!r}")
        where, params = _filters(player, year, None, variant)
        with self._connection() as conn:
            variant_rows = conn.execute(
                f"SELECT size, goal, start, COUNT(*) FROM games{where} GROUP BY size, goal, start", params
            ).fetchall()
            move_rows = conn.execute(f"SELECT moves, winner FROM games{where}", params).fetchall()
        counts: Counter[str] = Counter()
        for size, goal, start, count in variant_rows:
            counts[variant_label(size, goal, start)] += count
        total = sum(counts.values())
        scope = _describe(player, year, None, variant)
        variants = Table(
            f"Most played variants{scope}",
            ("variant", "games", "share %"),
            [(label, n, round(100 * n / total, 1)) for label, n in counts.most_common(limit)],
        )
        openings: dict[str, Counter[str]] = defaultdict(Counter)
        for moves, winner in move_rows:
            tokens = moves.split(" ", plies)[:plies]
            if len(tokens) == plies:
                openings["".join(tokens)][winner] += 1  # shown as a transcript: "f5d6c3d3"
        ranked = sorted(openings.items(), key=lambda item: (-item[1].total(), item[0]))[:limit]
        opening_table = Table(
            f"Most played openings ({plies} plies){scope}",
            ("opening", "games", "black wins", "white wins", "draws"),
            [(name, c.total(), c["black"], c["white"], c["draw"]) for name, c in ranked],
        )
        return MostPlayed(variants, opening_table)

    def chart(self, *, limit: int = 12, theme: str = "light", **filters: Any) -> SvgImage:
        """Win rates of the players with most games (``charts.win_rates`` of ``stats``)."""
        return self.stats(**filters).chart(limit=limit, theme=theme)


# -- rows -------------------------------------------------------------------------------


def _game_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReversiError(f"a game id is an int, got {value!r}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidPositionError(f"{what} must be a string, got {value!r}")
    return value


# What makes two recorded games the same game: every column of ``_COLUMNS`` but the date
# and year (a game without a date is dated the day it is recorded), the source (the same
# by construction) and when it was added.
_IDENTITY = (
    "black, white, size, start, goal, scoring, supply, moves, plies, black_score, white_score, winner, event, metadata"
)
_IDENTITY_AT = tuple(_COLUMNS.split(", ").index(name) for name in _IDENTITY.split(", "))


def _identity(row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(row[i] for i in _IDENTITY_AT)


def _recorded_from(conn: sqlite3.Connection, source: str) -> dict[tuple[Any, ...], list[int]]:
    """The games already recorded from a source, by identity, oldest id first."""
    recorded: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    rows = conn.execute(f"SELECT id, {_IDENTITY} FROM games WHERE source = ? ORDER BY id", (source,))
    for game_id, *identity in rows:
        recorded[tuple(identity)].append(game_id)
    return recorded


def _row(game: Game, source: str | None) -> tuple[Any, ...]:
    """The database row of a game, checked: a game without a result cannot be recorded."""
    if not isinstance(game, Game):
        raise InvalidPositionError(f"expected a Game to record, got {type(game).__name__}: {game!r:.80}")
    rules = game.rules
    result = game.result
    if result is None:
        outcome = game.outcome()
        if outcome is None:
            raise InvalidPositionError(
                f"the game {game.black_player!r} vs {game.white_player!r} is not finished and has no recorded "
                "result: play it to the end or set Game.result"
            )
        result = (outcome.black, outcome.white)
    if (
        not isinstance(result, tuple)
        or len(result) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in result)
        or sum(result) > rules.size * rules.size
    ):
        raise InvalidPositionError(
            f"result {result!r} is not (black discs, white discs) on a {rules.size}x{rules.size} board"
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
    date = _text(game.date, "date") or datetime.now(timezone.utc).date().isoformat()
    year_match = _YEAR_RE.search(date) or _YEAR_RE.search(str(game.metadata.get("year", "")))
    moves = " ".join(square_name(m.square, rules.size) if m.square is not None else "pass" for m in game.moves)
    return (
        _text(game.black_player, "black_player"),
        _text(game.white_player, "white_player"),
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
        _text(game.event, "event"),
        _text(source_text, "source"),
        json.dumps(metadata, ensure_ascii=False, sort_keys=True),
        datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def _filters(
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
        params += [_text(player, "player"), player]
    if year is not None:
        if isinstance(year, bool) or not isinstance(year, int):
            raise ReversiError(f"year must be an int like 1990, got {year!r}")
        clauses.append("year = ?")
        params.append(year)
    fields = _variant_fields(variant) if variant is not None else {}
    for key, value in fields.items():
        clauses.append(f"{key} IS ?")
        params.append(value)
    if opening is not None:
        size = fields.get("size", 8)
        try:
            squares = parse_transcript(_text(opening, "opening"), size)
        except InvalidMoveError as error:
            raise InvalidMoveError(f"opening {opening!r}: {error}") from None
        if not squares:
            raise InvalidMoveError(f"opening {opening!r} has no moves: expected a transcript like 'f5d6c3'")
        prefix = " ".join("pass" if sq is None else square_name(sq, size) for sq in squares)
        clauses.append("(moves = ? OR substr(moves, 1, ?) = ?)")
        params += [prefix, len(prefix) + 1, prefix + " "]
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _describe(
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


def _variant_fields(variant: Rules | str | Mapping[str, Any]) -> dict[str, Any]:
    """Column values a variant filter pins down."""
    if isinstance(variant, Rules):
        return {key: getattr(variant, key) for key in _VARIANT_KEYS}
    if isinstance(variant, Mapping):
        unknown = set(variant) - set(_VARIANT_KEYS)
        if unknown:
            raise ReversiError(f"variant keys must be among {_VARIANT_KEYS}, got {sorted(unknown)}")
        return dict(variant)
    if not isinstance(variant, str) or not variant.strip():
        raise ReversiError(f"variant must be Rules, a mapping or a name like '8x8 inverted', got {variant!r}")
    fields: dict[str, Any] = {}
    for word in variant.lower().split():
        if m := _VARIANT_SIZE_RE.match(word):
            if m.group(1) != m.group(2):
                raise ReversiError(f"variant {variant!r}: boards are square, got {word!r}")
            fields["size"] = int(m.group(1))
        elif word in GOALS:
            fields["goal"] = word
        elif word in START_LAYOUTS or word == FREE_START:
            fields["start"] = word
        elif word in SCORINGS:
            fields["scoring"] = word
        else:
            raise ReversiError(
                f"variant {variant!r}: {word!r} is not a size (8x8), goal {GOALS}, start or scoring {SCORINGS}"
            )
    return fields


# -- batch analysis ---------------------------------------------------------------------

T = TypeVar("T")


def _analyse_chunk(fn: Callable[[Game], T], games: list[Game], first: int) -> list[T]:
    """Run ``fn`` over a chunk in a worker; an error says which game it came from."""
    out = []
    for offset, game in enumerate(games):
        try:
            out.append(fn(game))
        except Exception as error:
            note = getattr(error, "add_note", None)  # Python 3.11+
            if note is not None:
                note(f"while analysing game {first + offset} ({game.black_player} vs {game.white_player})")
            raise
    return out


def analyse_games(
    games: Iterable[Game],
    fn: Callable[[Game], T],
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], object] | bool | None = None,
    *,
    chunksize: int | None = None,
) -> list[T]:
    """``[fn(game) for game in games]``, computed by ``executor`` and returned in order.

    Any ``concurrent.futures.Executor`` works (threads, processes, dask.distributed's
    ``client.get_executor()``); the default is a local ``ProcessPoolExecutor``, so ``fn``
    must be picklable: a module-level function, not a lambda. ``progress(done, total)`` is
    called as chunks finish; by default a progress bar is shown when running in a notebook
    (``progress=False`` turns it off).
    """
    items = list(games)
    total = len(items)
    own = executor is None
    if not callable(fn):
        raise TypeError(f"fn must be a function of one game, got {fn!r}")
    if not isinstance(executor, concurrent.futures.ThreadPoolExecutor):
        try:
            pickle.dumps(fn)
        except Exception as error:
            raise TypeError(
                f"fn {fn!r} cannot be sent to worker processes ({error}): use a module-level function, not a "
                "lambda or a nested function, or pass a ThreadPoolExecutor"
            ) from None
    report: Callable[[int, int], object] | None
    if progress is None or progress is True:
        from .progress import notebook_progress

        bar = notebook_progress("games") if total else None
        report = (lambda done, all_: bar(done / all_, f"{done}/{all_} games")) if bar is not None else None
    elif progress is False:
        report = None
    elif callable(progress):
        report = progress
    else:
        raise TypeError(f"progress must be a callback(done, total), True, False or None, got {progress!r}")
    if not total:
        return []
    pool = executor if executor is not None else concurrent.futures.ProcessPoolExecutor()
    workers = getattr(pool, "_max_workers", None) or os.cpu_count() or 1
    size = chunksize or max(1, min(64, math.ceil(total / (4 * workers))))
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ReversiError(f"chunksize must be a positive int, got {chunksize!r}")
    results: list[list[T] | None] = []
    try:
        futures = {}
        for start in range(0, total, size):
            future = pool.submit(_analyse_chunk, fn, items[start : start + size], start)
            futures[future] = len(results)
            results.append(None)
        done = 0
        try:
            for future in concurrent.futures.as_completed(futures):
                chunk = future.result()
                results[futures[future]] = chunk
                done += len(chunk)
                if report is not None:
                    report(done, total)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return [value for chunk in results if chunk is not None for value in chunk]
