"""Puzzles from master games: find them, pose them, keep them in files, and the shipped set.

``from_games`` walks any games (WTHOR records, GGF games, a ``GameLog``) and keeps the
positions where one move, or a small set, keeps the exact result, and where the move the
master actually played is worth a look: a mistake, or a right choice next to a tempting wrong
one. It runs through ``analyse_games``, so any ``concurrent.futures`` executor can mine, a
dask cluster's (``client.get_executor()``) included. ``pose`` makes a puzzle of any position.
``shipped()`` is the curated set that comes with the package (``scripts/make_puzzles.py``
makes it from the WTHOR database with a seed). The value itself is in ``puzzle``, the file
format in ``puzzle_file``; both are re-exported here.
"""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..analysis import move_label
from ..board import Board, Move
from ..errors import ReversiError
from ..game import Game
from ..notation import format_line
from ..records import GameLog, Table, analyse_games
from ..rules import GOALS, Rules
from ..search.endgame import Endgame
from ..wthor import WthorRecord
from .puzzle import (
    TASKS,
    Difficulty,
    MoveResult,
    Puzzle,
    Source,
    Verdict,
    endgame_search,
    exact_results,
    quick_order,
)
from .puzzle_file import FORMAT_LINE, format_puzzles, parse_puzzles, read_puzzles, write_puzzles

__all__ = [
    "FORMAT_LINE",
    "PLAYED",
    "TASKS",
    "Difficulty",
    "MoveResult",
    "Puzzle",
    "Source",
    "Verdict",
    "choose_task",
    "class_results",
    "exact_results",
    "format_puzzles",
    "from_games",
    "parse_puzzles",
    "pose",
    "puzzle_tries",
    "quick_order",
    "read_puzzles",
    "shipped",
    "write_puzzles",
]

#: Which master's moves make a position worth keeping (``from_games(played=...)``):
#: any; only right ones; only wrong ones; wrong ones, or right ones a quick eye would miss.
PLAYED: tuple[str, ...] = ("any", "right", "wrong", "interesting")
SHIPPED_FILE = "data/puzzles.txt"
_YEAR_RE = re.compile(r"(?<![0-9])(1[89][0-9][0-9]|2[0-9][0-9][0-9])(?![0-9])")


def choose_task(scores: Sequence[int], max_solutions: int = 2) -> tuple[str, int] | None:
    """The task that a position's move scores (any order) pose, as ``(task, target)``, or
    ``None`` when every task would have too many solutions or none failing.

    In order: a winning move, when few moves win; saving the draw, when few moves hold it;
    winning by at least N, when the top few moves stand apart from the rest but the best
    alone is not the only good one; else the best move, when few moves reach it.
    """
    ranked = sorted(scores, reverse=True)
    best = ranked[0]

    def fits(count: int) -> bool:
        return 1 <= count <= max_solutions and count < len(ranked)

    if best > 0 and fits(sum(s > 0 for s in ranked)):
        return "win", 0
    if best == 0 and fits(sum(s >= 0 for s in ranked)):
        return "draw", 0
    if best > 0:
        for k in range(min(max_solutions, len(ranked) - 1), 1, -1):
            if best > ranked[k - 1] > ranked[k] and ranked[k - 1] > 0:
                return "win-by", ranked[k - 1]
    if fits(ranked.count(best)):
        return "best", 0
    return None


def puzzle_rules(rules: Rules, goal: str | None = None) -> Rules:
    """The rules a puzzle keeps from a game's: size, goal (or the one asked for) and scoring."""
    return Rules(size=rules.size, goal=goal or rules.goal, scoring=rules.scoring)


def pose(
    board: Board,
    *,
    name: str = "puzzle",
    task: str | None = None,
    target: int = 0,
    source: Source | None = None,
    max_solutions: int = 2,
) -> Puzzle:
    """A puzzle of any position: every legal move solved exactly, the task chosen by
    ``choose_task`` unless given. Refused (``ReversiError``) when no task fits."""
    if not isinstance(board, Board):
        raise TypeError(f"pose needs a Board, got {type(board).__name__}")
    rules = puzzle_rules(board.rules)
    black, white = board.bitboards()
    position = Board(format_line(board.size, black, white, board.turn, None), rules=rules)
    results = exact_results(position)
    if task is None:
        chosen = choose_task([r.score for r in results], max_solutions)
        if chosen is None:
            scores = ", ".join(f"{r.move} {r.score:+d}" for r in results)
            raise ReversiError(f"no puzzle here: no task has between 1 and {max_solutions} solutions ({scores})")
        task, target = chosen
    return Puzzle(name, position.to_string(), rules, task, results, target, source or Source())


@dataclass(frozen=True)
class PuzzleFinder:
    """The work ``from_games`` sends to each worker: the puzzles of one game (picklable)."""

    empties: frozenset[int]
    goal: str | None = None
    max_solutions: int = 2
    min_failing: int = 2
    played: str = "interesting"
    per_game: int | None = None

    def __call__(self, game: Game) -> list[Puzzle]:
        found: list[Puzzle] = []
        rules = puzzle_rules(game.rules, self.goal)
        search = endgame_search(rules, max(self.empties))
        board = Board(rules=game.rules)
        for number, move in enumerate(game.moves, 1):
            if self.per_game is not None and len(found) >= self.per_game:
                break
            if move and board.empty_count() in self.empties and not board.in_placement():
                puzzle = self._puzzle_at(board, rules, search, game, number, move)
                if puzzle is not None:
                    found.append(puzzle)
            board.push(move)
        return found

    def _puzzle_at(
        self, board: Board, rules: Rules, search: Endgame, game: Game, number: int, move: Move
    ) -> Puzzle | None:
        if len(board.legal_moves) < self.min_failing + 1:
            return None
        black, white = board.bitboards()
        position = Board(format_line(board.size, black, white, board.turn, None), rules=rules)
        results = exact_results(position, search)
        chosen = choose_task([r.score for r in results], self.max_solutions)
        if chosen is None:
            return None
        task, target = chosen
        year = _YEAR_RE.search(game.date)
        source = Source(
            black=_clean(game.black_player),
            white=_clean(game.white_player),
            event=_clean(game.event),
            year=int(year.group(1)) if year else None,
            move_number=number,
            played=move,
        )
        inverted = " (inverted)" if rules.goal != game.rules.goal else ""
        name = f"{source.black or 'Black'}–{source.white or 'White'}{f' {source.year}' if year else ''}"
        name += f", {_where(game, number)}{inverted}"
        puzzle = Puzzle(name, position.to_string(), rules, task, results, target, source)
        if len(puzzle.results) - len(puzzle.solution) < self.min_failing:
            return None
        right = source.played in puzzle.solution
        if (self.played == "right" and not right) or (self.played == "wrong" and right):
            return None
        if self.played == "interesting" and right and puzzle.difficulty.decoys == 0:
            return None
        return puzzle


def _where(game: Game, number: int) -> str:
    """The position before the move of ply ``number``, named by the move that led to it as
    the move list names it (``"after 26... d2"``: Black's move 27 is to find). A name is
    shown wherever the puzzle is listed, so it does not give away the move played there,
    which may be the answer."""
    if number == 1:
        return "at the start"
    return f"after {move_label(number - 1, game.moves[number - 2])}"


def _clean(text: str) -> str:
    """A name as a puzzle file keeps it: one line, single spaces."""
    return " ".join(str(text).split())


def from_games(
    games: Iterable[Game | WthorRecord],
    empties: int | Iterable[int] = range(8, 15),
    *,
    goal: str | None = None,
    max_solutions: int = 2,
    min_failing: int = 2,
    played: str = "interesting",
    per_game: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], object] | bool | None = None,
    chunksize: int | None = None,
) -> list[Puzzle]:
    """The puzzles in ``games``, in game order.

    A position qualifies when it has ``empties`` empty squares (a number or several), the
    master moved there, a task of ``choose_task`` has 1 to ``max_solutions`` solutions, at
    least ``min_failing`` moves fail, and the master's move passes ``played`` (see
    ``PLAYED``). ``goal="inverted"`` re-poses the positions under the other goal (the
    master's move is then judged by it). ``per_game`` caps the puzzles taken from one game.
    Each game is a task of ``analyse_games`` on ``executor`` (default: a local process
    pool); ``progress`` is its progress callback, a bar in a notebook by default.
    """
    wanted = {empties} if isinstance(empties, int) else set(empties)
    if not wanted or not all(isinstance(e, int) and not isinstance(e, bool) and e >= 1 for e in wanted):
        raise ReversiError(f"empties must be a positive int or ints, got {empties!r}")
    if goal is not None and goal not in GOALS:
        raise ReversiError(f"goal must be None or one of {GOALS}, got {goal!r}")
    if played not in PLAYED:
        raise ReversiError(f"played must be one of {', '.join(PLAYED)}, got {played!r}")
    for key, value, low in (("max_solutions", max_solutions, 1), ("min_failing", min_failing, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ReversiError(f"{key} must be an int of at least {low}, got {value!r}")
    if per_game is not None and (isinstance(per_game, bool) or not isinstance(per_game, int) or per_game < 1):
        raise ReversiError(f"per_game must be None or a positive int, got {per_game!r}")
    records = [game.to_game() if isinstance(game, WthorRecord) else game for game in games]
    for game in records:
        if not isinstance(game, Game):
            raise TypeError(f"from_games needs Game or WthorRecord values, got {type(game).__name__}")
    finder = PuzzleFinder(frozenset(wanted), goal, max_solutions, min_failing, played, per_game)
    found = analyse_games(records, finder, executor, progress, chunksize=chunksize)
    return [puzzle for puzzles in found for puzzle in puzzles]


@cache
def _shipped() -> tuple[Puzzle, ...]:
    text = resources.files("reversi_widget").joinpath(SHIPPED_FILE).read_text(encoding="utf-8")
    # Proved in CI (tests/test_puzzles.py), so read as it is: proving all would take a minute.
    return tuple(parse_puzzles(text, where=f"reversi_widget/{SHIPPED_FILE}", prove=False))


def shipped(
    *, size: int | None = None, goal: str | None = None, empties: int | Iterable[int] | None = None
) -> list[Puzzle]:
    """The curated puzzles that come with the package, optionally only of one size, goal or
    number of empty squares: 8x8 before 6x6, classic before inverted, then by empty squares
    and difficulty level."""
    if goal is not None and goal not in GOALS:
        raise ReversiError(f"goal must be None or one of {GOALS}, got {goal!r}")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
        raise ReversiError(f"size must be None or an int, got {size!r}")
    wanted = None if empties is None else {empties} if isinstance(empties, int) else set(empties)
    if wanted is not None and not all(isinstance(e, int) and not isinstance(e, bool) for e in wanted):
        raise ReversiError(f"empties must be None, an int or ints, got {empties!r}")
    return [
        puzzle
        for puzzle in _shipped()
        if (size is None or puzzle.rules.size == size)
        and (goal is None or puzzle.rules.goal == goal)
        and (wanted is None or puzzle.difficulty.empties in wanted)
    ]


# -- a class's results, from the log a widget in puzzle mode writes ------------------------------


def puzzle_tries(log: GameLog, learner: str | None = None) -> Table:
    """Every judged try kept in ``log`` (``ReversiWidget(puzzle=..., log=...)``), oldest first."""
    rows = []
    for game in log.games(player=learner) if learner is not None else log:
        meta = game.metadata
        if "puzzle" in meta and "learner" in meta:
            rows.append(
                (
                    meta["learner"],
                    meta["puzzle"],
                    meta.get("tried", ""),
                    meta.get("solved", ""),
                    meta.get("first_try", ""),
                )
            )
    return Table("Puzzle tries", ("learner", "puzzle", "tried", "solved", "first try"), rows)


def class_results(log: GameLog) -> Table:
    """Per learner: puzzles tried, solved at the first try, and tries in all."""
    per: dict[str, tuple[set[str], set[str], int]] = {}
    for learner, puzzle, _tried, solved, first in puzzle_tries(log):
        tried_set, solved_set, tries = per.setdefault(learner, (set(), set(), 0))
        tried_set.add(puzzle)
        if solved == "yes" and first == "yes":
            solved_set.add(puzzle)
        per[learner] = (tried_set, solved_set, tries + 1)
    rows = [(name, len(t), len(s), n) for name, (t, s, n) in sorted(per.items())]
    return Table("Puzzles per learner", ("learner", "puzzles", "solved first try", "tries"), rows)
