"""``Explorer``: what masters played from a position, how it scored, and the games behind it.

``build(games_or_paths, path)`` makes an index of every position of the games up to a depth
(or adds games to one), ``open(path)`` opens one, and ``Explorer.lookup(board)`` answers for
a board: its next moves, each with its games, Black's share of the points, the mean final
margin, the mean WTHOR theoretical margin, its years and a few example games, the most
recent first. A position and its seven mirror images and turns are one entry; moves and
example games come back in the orientation of the board asked about.

The default depth, 24 plies, is where the book of master games thins out: over the whole
WTHOR database, 39% of the games still share their position with another game at ply 20,
26% at ply 23, and each ply more adds some 100,000 positions, 3 MB (``benchmarks/explorer.py``).
"""

from __future__ import annotations

import concurrent.futures
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..board import Board
from ..errors import InvalidPositionError, ReversiError, quote
from ..rules import Rules
from ..squares import BLACK, square_name
from .sources import Played, Source, played_games, variant_of
from .store import GameRow, SqliteStore
from .symmetry import PASS, SIZE, canonical, inverse, square_map
from .tally import EXAMPLE, Partial, Row, Work, position_key, tally

__all__ = [
    "DEFAULT_DEPTH",
    "INLINE_GAMES",
    "BuildReport",
    "ExampleGame",
    "Explorer",
    "MoveStats",
    "MoveTable",
    "SkippedGame",
    "build",
    "open_index",
]

DEFAULT_DEPTH = 24
#: Below this many new games a build counts them here: starting worker processes costs more.
INLINE_GAMES = 1000
_CHUNK = 2000  # games per task at most


@dataclass(frozen=True)
class ExampleGame:
    """A game behind a move, its moves turned to the orientation of the board looked up."""

    black: str
    white: str
    year: int | None
    event: str
    black_score: int
    white_score: int
    transcript: str  # "f5d6c3...", passes left out
    #: True when ``transcript`` passes through the board looked up. False when the board is a
    #: mirror image that cannot come from the start that way round (its centre's colours
    #: swapped): the game is then written as played, and passes through that mirror image.
    through_board: bool


@dataclass(frozen=True)
class MoveStats:
    """One next move from a position, over the games of the index that played it there."""

    move: str  # the square, in the orientation of the board looked up, or "pass"
    games: int
    black_score: float  # Black's share of the points, 0 to 1 (a draw is half a point)
    mean_margin: float  # Black's discs minus White's at the end, on average
    mean_theoretical: float | None  # the same under perfect play from WTHOR's point, where known
    theoretical_games: int  # the games that had a theoretical score
    first_year: int | None
    last_year: int | None
    examples: tuple[ExampleGame, ...]  # the most recent first


class MoveTable(list[MoveStats]):
    """The answer of a lookup: a list of ``MoveStats``, most played first, that shows as a table."""

    def __init__(self, moves: Iterable[MoveStats], *, depth: int, beyond: bool) -> None:
        super().__init__(moves)
        self.depth = depth
        self.beyond = beyond  # True when the position is deeper than the index goes

    @property
    def games(self) -> int:
        return sum(move.games for move in self)

    def _repr_html_(self) -> str:
        from .view import table_html

        return table_html(self)


@dataclass(frozen=True)
class SkippedGame:
    where: str
    why: str


@dataclass(frozen=True)
class BuildReport:
    """What a build did: the games added, those already there, and those it could not index."""

    added: int
    already_indexed: int  # in the index before, or more than once in what was given
    skipped: tuple[SkippedGame, ...]
    seconds: float

    def __str__(self) -> str:
        lines = [
            f"{self.added} games added, {self.already_indexed} already indexed, "
            f"{len(self.skipped)} skipped, in {self.seconds:.1f} s"
        ]
        lines += [f"  skipped {game.where}: {game.why}" for game in self.skipped[:20]]
        if len(self.skipped) > 20:
            lines.append(f"  ... and {len(self.skipped) - 20} more")
        return "\n".join(lines)


class Explorer:
    """An opening index in a file; ``build`` makes one and ``open_index`` opens one."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._store = SqliteStore(self.path)
        meta = self._store.meta()
        try:
            self.depth = int(meta["depth"])
            self.variant = meta["variant"]
        except (KeyError, ValueError):
            raise self._store.refuse(f"an opening index without its settings ({quote(meta)})") from None
        size, start, goal = self.variant.split(" ")
        self.rules = Rules(size=int(size.split("x")[0]), start=start, goal=goal)
        self.report: BuildReport | None = None
        black = _start(self.rules)[0]
        self._start_black = {square for square in range(SIZE * SIZE) if black >> square & 1}

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Explorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Explorer {str(self.path)!r}: {self.variant}, {self.depth} plies>"

    def __len__(self) -> int:
        return self._store.counts()[0]

    def _repr_html_(self) -> str:
        from .view import summary_html

        games, positions = self._store.counts()
        return summary_html(self, games, positions)

    # -- looking up -------------------------------------------------------------------

    def check(self, board: Board) -> None:
        """Refuse a board this index cannot answer for, saying why."""
        if not isinstance(board, Board):
            raise TypeError(f"lookup takes a Board, got {type(board).__name__}: {quote(board)}")
        rules = board.rules
        if rules.size != self.rules.size:
            raise InvalidPositionError(
                f"this index is of {self.variant} games; a {rules.size}x{rules.size} board is not in it"
            )
        if (rules.start, rules.goal) != (self.rules.start, self.rules.goal) or rules.supply is not None:
            raise InvalidPositionError(
                f"this index is of {self.variant} games; the board plays {variant_of(rules)}"
                f"{' with a disc supply' if rules.supply is not None else ''}, a variant it was not built for"
            )

    def lookup(self, board: Board) -> MoveTable:
        """The next moves played from ``board``'s position (in any of its eight orientations),
        most played first, in ``board``'s orientation; empty when no game of the index passed
        through it (``MoveTable.beyond`` says when that is because it is deeper than the index)."""
        self.check(board)
        black, white = board.bitboards()
        if (black | white).bit_count() - 4 >= self.depth:
            return MoveTable([], depth=self.depth, beyond=True)
        pair, symmetries = canonical(black, white)
        rows = self._store.moves(position_key(pair, board.turn == BLACK))
        wanted = [number for row in rows for _, number, _ in EXAMPLE.iter_unpack(row[9])]
        games = self._store.games(wanted)
        played = (black | white).bit_count() - 4
        moves = [self._stats(row, _back(row, symmetries, games, played), games) for row in rows]
        moves.sort(key=lambda stats: (-stats.games, stats.move))
        return MoveTable(moves, depth=self.depth, beyond=False)

    def _stats(self, row: Row, back: tuple[int, ...], games: dict[int, GameRow]) -> MoveStats:
        _, move, count, points, margin, theory_games, theory, first, last, examples = row
        shown = []
        for _, number, symmetry in EXAMPLE.iter_unpack(examples):
            game = games.get(number)
            if game is None:
                raise self._store.refuse(f"damaged opening index: example game {number} is missing")
            there = square_map(symmetry)
            turn = tuple(back[there[square]] for square in range(PASS + 1))
            through = {turn[square] for square in self._start_black} == self._start_black
            squares = (turn[square] for square in game[8]) if through else iter(game[8])
            transcript = "".join(square_name(square, SIZE) for square in squares if square != PASS)
            shown.append(ExampleGame(game[1], game[2], game[4], game[3], game[5], game[6], transcript, through))
        return MoveStats(
            "pass" if move == PASS else square_name(back[move], SIZE),
            count,
            points / (2 * count),
            margin / count,
            theory / theory_games if theory_games else None,
            theory_games,
            first,
            last,
            tuple(shown),
        )

    # -- building ---------------------------------------------------------------------

    def add(
        self,
        games_or_paths: Source | Iterable[Source],
        executor: concurrent.futures.Executor | None = None,
        *,
        progress: Callable[[int, int], object] | bool | None = None,
    ) -> BuildReport:
        """Index more games (see ``build``); games already in the index are not counted again."""
        began = time.perf_counter()
        fresh, skipped, repeated = self._select(games_or_paths)
        report = _reporter(progress, len(fresh))
        work: list[Work] = [_work(game, self.rules) for game in fresh]
        by_id = {game.id: game for game in fresh}
        partials = _run(work, self.depth, _start(self.rules), executor)
        counted: set[int] = set()
        failed: list[tuple[int, str]] = []
        done = 0

        def rows() -> Iterator[list[Row]]:
            nonlocal done
            for partial in partials:
                _check_partial(partial, by_id, counted)
                counted.update(partial.counted)
                failed.extend(partial.failed)
                done += len(partial.counted) + len(partial.failed)
                if report is not None:
                    report(done, len(work))
                yield partial.rows

        def game_rows() -> Iterator[GameRow]:
            for game in fresh:
                if game.id in counted:
                    yield _game_row(game)

        writer = SqliteStore(self.path, writable=True)
        try:
            writer.add(rows(), game_rows())
        finally:
            writer.close()
            self._store.close()  # read the new rows from a fresh connection
        order = {game.id: place for place, game in enumerate(fresh)}  # the order given, whatever finished first
        skipped += [SkippedGame(by_id[number].source, why) for number, why in sorted(failed, key=lambda f: order[f[0]])]
        self.report = BuildReport(len(counted), repeated, tuple(skipped), time.perf_counter() - began)
        return self.report

    def _select(self, sources: Source | Iterable[Source]) -> tuple[list[Played], list[SkippedGame], int]:
        """The new games to index (read in full first: a source that cannot be read changes
        nothing), those skipped and why, and how many were already indexed or repeated."""
        fresh: list[Played] = []
        skipped: list[SkippedGame] = []
        seen: set[int] = set()
        repeated = 0
        for game in played_games(sources):
            if isinstance(game, tuple):
                skipped.append(SkippedGame(*game))
            elif (why := self._unfit(game)) is not None:
                skipped.append(SkippedGame(game.source, why))
            elif game.id in seen:
                repeated += 1
            else:
                seen.add(game.id)
                fresh.append(game)
        known = self._store.known([game.id for game in fresh])
        if known:
            kept = []
            for game in fresh:
                row = known.get(game.id)
                if row is None:
                    kept.append(game)
                elif _same_game(row, game):
                    repeated += 1
                else:  # two games whose 64-bit ids are equal (some 1 in 10^9 over the whole database)
                    skipped.append(SkippedGame(game.source, f"its id {game.id} is that of another game indexed"))
            fresh = kept
        return fresh, skipped, repeated

    def _unfit(self, game: Played) -> str | None:
        rules = game.rules
        if rules.size != self.rules.size or rules.start != self.rules.start or rules.goal != self.rules.goal:
            return f"a game of {variant_of(rules)}, not of the index's {self.variant}"
        if rules.supply is not None:
            return "a game with a disc supply, which the index was not built for"
        return None


def _back(row: Row, symmetries: tuple[int, ...], games: dict[int, GameRow], played: int) -> tuple[int, ...]:
    """Square map from the canonical orientation to the user's. A symmetric position has
    several; then the one that shows the move as the latest example game wrote it (so the
    start shows f5, as the records have it, not one of its three mirror images)."""
    maps = [square_map(inverse(symmetry)) for symmetry in symmetries]
    if len(maps) > 1 and row[9]:
        _, number, _ = EXAMPLE.unpack_from(row[9])
        game = games.get(number)
        written = _move_after(game[8], played) if game is not None else None
        for back in maps:
            if back[row[1]] == written:
                return back
    return maps[0]


def _move_after(moves: bytes, played: int) -> int | None:
    """The move of a game after ``played`` discs were placed (a pass there counts as the move)."""
    placed = 0
    for square in moves:
        if placed == played:
            return square
        placed += square != PASS
    return None


def _same_game(row: GameRow, game: Played) -> bool:
    """Whether a stored game is this game: every field its id is made of."""
    moves = bytes(square for square in row[8] if square != PASS)
    played = (row[1], row[2], row[3], row[4], row[5], row[6], moves)
    return played == (
        game.black,
        game.white,
        game.event,
        game.year,
        game.black_score,
        game.white_score,
        bytes(square for square in game.moves if square != PASS),
    )


def _start(rules: Rules) -> tuple[int, int]:
    return Board(rules=rules).bitboards()


def _work(game: Played, rules: Rules) -> Work:
    black, white = game.black_score, game.white_score
    points = 1 if black == white else 2 if (black > white) == (rules.goal == "classic") else 0
    theory = None if game.theoretical is None else 2 * game.theoretical - SIZE * SIZE
    return (game.id, game.moves, game.year or 0, points, black - white, theory)


def _game_row(game: Played) -> GameRow:
    return (
        game.id,
        game.black,
        game.white,
        game.event,
        game.year,
        game.black_score,
        game.white_score,
        game.theoretical,
        game.moves,
        game.source,
    )


def _check_partial(partial: Partial, by_id: dict[int, Played], counted: set[int]) -> None:
    """A partial index counts only games it was sent, each once over all partials."""
    for number in partial.counted:
        if number not in by_id or number in counted:
            raise ReversiError(f"a worker counted game {number} that it was not sent, or twice: the build is refused")


def _run(
    work: list[Work], depth: int, start: tuple[int, int], executor: concurrent.futures.Executor | None
) -> Iterator[Partial]:
    """The partials of every chunk, as they finish, computed by ``executor``."""
    if not work:
        return
    inline = executor is None and (len(work) < INLINE_GAMES or sys.platform == "emscripten")
    if inline:
        for begin in range(0, len(work), _CHUNK // 4):
            yield tally(work[begin : begin + _CHUNK // 4], depth, start)
        return
    pool = executor if executor is not None else concurrent.futures.ProcessPoolExecutor()
    workers = getattr(pool, "_max_workers", None) or os.cpu_count() or 1
    size = max(1, min(_CHUNK, math.ceil(len(work) / (4 * workers))))
    futures = [pool.submit(tally, work[begin : begin + size], depth, start) for begin in range(0, len(work), size)]
    try:
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)


def _reporter(progress: Callable[[int, int], object] | bool | None, total: int) -> Callable[[int, int], object] | None:
    if progress is None or progress is True:
        from ..progress import notebook_progress

        bar = notebook_progress("games") if total else None
        return (lambda done, all_: bar(done / all_, f"{done}/{all_} games")) if bar is not None else None
    if progress is False:
        return None
    if callable(progress):
        return progress
    raise TypeError(f"progress must be a callback(done, total), True, False or None, got {quote(progress)}")


def build(
    games_or_paths: Source | Iterable[Source],
    path: str | os.PathLike[str],
    executor: concurrent.futures.Executor | None = None,
    *,
    depth: int | None = None,
    rules: Rules | None = None,
    progress: Callable[[int, int], object] | bool | None = None,
) -> Explorer:
    """Make an index at ``path`` of the games given, or add them to the index already there;
    return it, with ``report`` saying what was added, already there, or skipped and why.

    Games: a WTHOR folder or ``.wtb`` file, a ``.ggf`` file, a game-log file or ``GameLog``,
    ``Game``s, ``WthorRecord``s, or a list of those. Counting runs on ``executor`` (any
    ``concurrent.futures.Executor``: dask's ``client.get_executor()`` too); by default on
    local processes, or here for fewer than ``INLINE_GAMES`` games. ``depth`` (plies, 24 by
    default) and ``rules`` (classic 8x8 by default) are fixed when the index is made."""
    target = Path(path)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 60):
        raise ReversiError(f"depth must be a number of plies from 1 to 60, got {quote(depth)}")
    if rules is not None and (not isinstance(rules, Rules) or rules.size != SIZE or not rules.is_named_start):
        raise ReversiError(f"an index is of 8x8 games from a named start, got rules {quote(rules)}")
    if rules is not None and (rules.start == "free" or rules.supply is not None):
        raise ReversiError("an index cannot be of the free start or of a disc supply")
    created = not target.exists()
    if not created:
        explorer = Explorer(target)
        if depth is not None and depth != explorer.depth:
            raise ReversiError(f"{target}: an index of {explorer.depth} plies; it cannot be extended to {depth}")
        if rules is not None and variant_of(rules) != explorer.variant:
            raise ReversiError(f"{target}: an index of {explorer.variant} games, not of {variant_of(rules)}")
    else:
        chosen = rules or Rules()
        meta = {"depth": str(depth or DEFAULT_DEPTH), "variant": variant_of(chosen)}
        SqliteStore.create(target, meta).close()
        explorer = Explorer(target)
    try:
        explorer.add(games_or_paths, executor, progress=progress)
    except BaseException:
        explorer.close()
        if created:  # a build that failed leaves no empty index behind
            target.unlink(missing_ok=True)
        raise
    return explorer


def open_index(path: str | os.PathLike[str]) -> Explorer:
    """The index at ``path``, to look positions up in (refused, naming it, if it is none)."""
    return Explorer(path)
