"""``GameLog``: finished games kept in an SQLite file, and questions asked of them (R25).

Record the games you play (or import GGF and WTHOR files), then see who wins most
often and what is played most. The file is plain SQLite from the standard library;
``logfile`` says how it stays whole when threads and processes share it, ``logtable``
how a game is stored. A pickled ``GameLog`` reopens by path.

The tables the questions answer with (``tables``) and ``analyse_games`` (``batch``) are
importable from here too.
"""

from __future__ import annotations

import os
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GameLogBusyError, GameLogError, InvalidPositionError, ReversiError, cut, quote
from ..game import Game
from ..rules import Rules
from .batch import analyse_games
from .logfile import APPLICATION_ID, BUSY_TIMEOUT_MS, SCHEMA_VERSION, LogFile
from .logtable import (
    COLUMNS,
    SELECT,
    check_game_id,
    describe,
    filters,
    game_of,
    identity,
    recorded_from,
    row_of,
    variant_label,
)
from .tables import MostPlayed, Stats, Table

if TYPE_CHECKING:
    from ..svg import SvgImage

#: In JupyterLite (Pyodide) the notebooks' folder lives in the browser's storage, where SQLite
#: cannot write ("database disk image is malformed"): logs go to memory-backed /tmp instead.
BROWSER_DRIVE = Path("/drive")
BROWSER_LOGS = Path("/tmp")

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "GameLog",
    "GameLogBusyError",
    "GameLogError",
    "MostPlayed",
    "Stats",
    "Table",
    "analyse_games",
]

PAGE = 500  # rows fetched per step when iterating a log


class GameLog:
    """Finished games in an SQLite file; see ``logfile`` for how it stays whole.

    ``timeout`` is how long to wait for another process's write (then ``GameLogBusyError``);
    ``readonly=True`` opens an existing log only to read it, as a log in a read-only file or
    folder must be. Trouble with the file is a ``GameLogError`` saying what to do, and a
    file that is no game log an ``InvalidPositionError``."""

    def __init__(
        self, path: str | os.PathLike[str], *, timeout: float = BUSY_TIMEOUT_MS / 1000, readonly: bool = False
    ) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout < 1e9:
            raise ReversiError(f"timeout must be a number of seconds, got {quote(timeout)}")
        self.path = Path(path)
        if sys.platform == "emscripten" and str(path) != ":memory:":
            self._browser_place()
        self.timeout = timeout
        self.readonly = bool(readonly)
        self._file = LogFile(self.path, timeout, readonly=self.readonly)
        self._file.open()

    def _browser_place(self) -> None:
        """In JupyterLite a relative path would land in the notebooks' folder: it goes under
        /tmp instead; a path in that folder is refused, saying where a log can be kept."""
        if not self.path.is_absolute():
            self.path = BROWSER_LOGS / self.path
        where = self.path.resolve()
        if where == BROWSER_DRIVE or BROWSER_DRIVE in where.parents:
            raise InvalidPositionError(
                f"{self.path}: SQLite cannot write in JupyterLite's notebook folder ({BROWSER_DRIVE}); keep the "
                f"log under {BROWSER_LOGS} (a relative path goes there), which lasts until the page is reloaded"
            )

    def close(self) -> None:
        """Close the file (a later operation opens it again)."""
        self._file.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "timeout": self.timeout, "readonly": self.readonly}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path, self.timeout = state["path"], state["timeout"]
        self.readonly = state.get("readonly", False)
        self._file = LogFile(self.path, self.timeout, readonly=self.readonly)

    def __repr__(self) -> str:
        return f"GameLog({str(self.path)!r}{', readonly=True' if self.readonly else ''})"

    # -- writing ----------------------------------------------------------------------

    def add(self, game: Game, *, source: str | None = None) -> int:
        """Record one finished game; return its id."""
        row = row_of(game, source)
        with self._file.transaction() as conn:
            cursor = conn.execute(f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)
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
                rows.append(row_of(game, source))
            except ReversiError as error:
                where = f"{source}: " if source else ""
                raise type(error)(f"{where}game {index}: {error}") from None
        ids = []
        with self._file.transaction() as conn:
            recorded = recorded_from(conn, source) if match_recorded and source else {}
            for row in rows:
                same = recorded.get(identity(row))
                if same:
                    ids.append(same.pop(0))  # each recorded game stands for one game of the file
                    continue
                cursor = conn.execute(f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)
                assert cursor.lastrowid is not None
                ids.append(cursor.lastrowid)
        return ids

    def import_ggf(self, path_or_text: str | os.PathLike[str], *, source: str | None = None) -> list[int]:
        """Record every game of a GGF file (or GGF text) in one transaction; return their ids.
        Importing the same file again records nothing twice (see ``import_wthor``)."""
        from ..ggf import load_ggf, read_ggf_games

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
        from ..wthor import read_wthor

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
        with self._file.transaction() as conn:
            if conn.execute("DELETE FROM games WHERE id = ?", (check_game_id(game_id),)).rowcount == 0:
                raise KeyError(game_id)

    # -- reading ----------------------------------------------------------------------

    def __len__(self) -> int:
        with self._file.connection() as conn:
            count: int = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return count

    def __iter__(self) -> Iterator[Game]:
        """Every game, oldest first, read a page at a time (other writers may go on meanwhile)."""
        last = 0
        while True:
            with self._file.connection() as conn:
                rows = conn.execute(f"{SELECT} WHERE id > ? ORDER BY id LIMIT ?", (last, PAGE)).fetchall()
            if not rows:
                return
            for row in rows:
                yield self._game(row)
            last = rows[-1][0]

    def ids(self) -> list[int]:
        with self._file.connection() as conn:
            return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]

    def get(self, game_id: int) -> Game:
        """The game with this id (``KeyError`` if there is none)."""
        with self._file.connection() as conn:
            row = conn.execute(f"{SELECT} WHERE id = ?", (check_game_id(game_id),)).fetchone()
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
        where, params = filters(player, year, opening, variant)
        with self._file.connection() as conn:
            rows = conn.execute(f"{SELECT}{where} ORDER BY id", params).fetchall()
        return [self._game(row) for row in rows]

    def _game(self, row: Sequence[Any]) -> Game:
        try:
            return game_of(row)
        except InvalidPositionError as error:
            raise self._file.refuse(str(error)) from None

    def check(self) -> None:
        """Run SQLite's integrity check; raise ``InvalidPositionError`` naming the problems."""
        with self._file.connection() as conn:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            shown = "; ".join(cut(" ".join(str(problem).split()), 100) for problem in problems[:3])
            raise self._file.refuse(f"integrity check failed ({len(problems)} problems): {shown}")

    # -- questions --------------------------------------------------------------------

    def stats(
        self,
        player: str | None = None,
        year: int | None = None,
        opening: str | None = None,
        variant: Rules | str | Mapping[str, Any] | None = None,
    ) -> Stats:
        """Wins, losses and draws per player (most games first) and per variant.

        A game between two players of the same name (a computer playing itself, say) is one
        game of that name, counted under ``self-play``: it won and lost it at once, so it is
        none of wins, losses and draws, and ``win %`` is over the games against others (None
        when there are none). Names are the same when they are equal as written."""
        where, params = filters(player, year, opening, variant)
        query = f"""
            SELECT player, COUNT(*) AS games, SUM(result = 'win'), SUM(result = 'loss'), SUM(result = 'draw'),
                   SUM(result = 'self')
            FROM (
                SELECT black AS player,
                       CASE WHEN black = white THEN 'self'
                            WHEN winner = 'black' THEN 'win' WHEN winner = 'white' THEN 'loss' ELSE 'draw' END AS result
                FROM games{where}
                UNION ALL
                SELECT white,
                       CASE WHEN black = white THEN NULL
                            WHEN winner = 'white' THEN 'win' WHEN winner = 'black' THEN 'loss' ELSE 'draw' END
                FROM games{where}
            )
            WHERE result IS NOT NULL
            GROUP BY player ORDER BY games DESC, player
        """
        with self._file.connection() as conn:
            player_rows = conn.execute(query, params + params).fetchall()
            variant_rows = conn.execute(
                f"SELECT size, goal, start, COUNT(*), SUM(winner = 'black'), SUM(winner = 'white'), "
                f"SUM(winner = 'draw') FROM games{where} GROUP BY size, goal, start",
                params,
            ).fetchall()
        scope = describe(player, year, opening, variant)
        players = Table(
            f"Results per player{scope}",
            ("player", "games", "wins", "losses", "draws", "self-play", "win %"),
            [
                (p, g, w, lo, d, own, round(100 * w / (g - own), 1) if g > own else None)
                for p, g, w, lo, d, own in player_rows
            ],
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
            raise ReversiError(f"plies must be a positive int, got {quote(plies)}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ReversiError(f"limit must be a positive int, got {quote(limit)}")
        where, params = filters(player, year, None, variant)
        with self._file.connection() as conn:
            variant_rows = conn.execute(
                f"SELECT size, goal, start, COUNT(*) FROM games{where} GROUP BY size, goal, start", params
            ).fetchall()
            move_rows = conn.execute(f"SELECT moves, winner FROM games{where}", params).fetchall()
        counts: Counter[str] = Counter()
        for size, goal, start, count in variant_rows:
            counts[variant_label(size, goal, start)] += count
        total = sum(counts.values())
        scope = describe(player, year, None, variant)
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
