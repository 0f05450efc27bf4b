"""Exact endgame solving: the final margin under perfect play, and the moves that reach it.

Scores are *final disc margins from the side to move's point of view*, positive = good for
the side to move, under the board's goal and scoring:

* classic goal: the mover's discs minus the opponent's at the end of perfect play;
* inverted goal (fewer discs wins): the opponent's discs minus the mover's, so a positive
  score is still a win for the side to move;
* tournament scoring (R23) adds the empty squares left at the end to the size of a
  non-zero margin, exactly as ``Board.outcome`` does; a draw stays 0.

The search is a negamax alpha-beta (principal variation search) on raw bitboards. Far from
the end, moves are tried *fastest first* (the reply that leaves the opponent the fewest
moves) with a transposition table; in the last few empties it walks a short list of empty
squares, trying first those in a quadrant with an odd number of empties (parity) and corners
before X squares, and finishes the last empty square without generating moves at all.

The search itself is ``search.endgame`` (pure) and ``native.endgame`` (compiled, on 4x4,
6x6 and 8x8 once that kernel is loaded, with the same scores and best moves);
``search.endgame.make_endgame`` picks the path, and ``solve`` waits for the compiled one on
positions that would take pure Python long.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from . import native
from .board import Board, Move
from .geometry import squares_of
from .progress import Progress, notebook_progress

# The search's names, importable from here as before (each is defined in reversi_widget.search;
# ``Board.sides`` replaces ``side_bitboards``).
from .search import INFINITY as INFINITY
from .search import RootInterrupted, paused_gc, root_search
from .search import SearchTimeout as SearchTimeout
from .search import check_searchable as check_searchable
from .search import final_score_function as final_score_function
from .search.endgame import Endgame, make_endgame
from .search.endgame import EndgameSearch as EndgameSearch

__all__ = ["WAIT_EMPTIES", "Solution", "solve", "solve_root", "wait_for_compiled_solver"]

#: From this many empties on, ``solve`` waits for the compiled solver rather than search in
#: Python (where it would need seconds to minutes).
WAIT_EMPTIES = 16


def wait_for_compiled_solver(
    size: int, empties: int, timeout: float | None = None, progress: Progress | None = None
) -> None:
    """Wait (at most ``timeout`` seconds) for the compiled solver before solving a position of
    ``empties`` empty squares, from ``WAIT_EMPTIES`` on, on a size it takes, while it is still
    compiling: seconds of compiling, once, against seconds to minutes of pure Python a
    position. ``progress`` hears of the wait."""
    if size in native.SIZES and empties >= WAIT_EMPTIES and not native.ready("endgame"):
        if progress is not None:
            progress(0.0, "preparing the compiled solver")
        native.wait("endgame", timeout=timeout)


@dataclass(frozen=True)
class Solution:
    """The exact result of a position under perfect play.

    ``score`` is the final margin from the side to move's point of view under the board's
    goal and scoring (see the module docstring): positive means the side to move wins.
    ``best_moves`` are all the moves that reach it (a pass when the side must pass), and
    ``line`` one principal line starting with ``best_moves[0]``.
    """

    score: int
    best_moves: tuple[Move, ...]
    line: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def result(self) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move."""
        return "win" if self.score > 0 else "loss" if self.score < 0 else "draw"

    def __str__(self) -> str:
        best = " ".join(str(m) for m in self.best_moves)
        line = " ".join(str(m) for m in self.line)
        return f"{self.result} by {abs(self.score)} (score {self.score:+d}); best: {best}; line: {line}"


def solve(
    board: Board,
    progress: Progress | None = None,
    *,
    time_limit: float | None = None,
    show_progress: bool = False,
) -> Solution:
    """Solve ``board`` exactly: the final margin under perfect play and every best move.

    ``progress(fraction, message)`` is called as the root moves are done; ``show_progress``
    shows a progress bar instead when running in a notebook. ``time_limit`` (seconds) makes
    it give up with ``TimeoutError``. The board is not changed. Practical up to about 16-20
    empty squares on 8x8.
    """
    check_searchable(board, "solve")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0
    ):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    if progress is None and show_progress:
        progress = notebook_progress("Solving")
    start = time.perf_counter()
    wait_for_compiled_solver(board.size, board.empty_count(), time_limit, progress)  # within the whole call's time
    engine = make_endgame(board.size, board.rules.goal, board.rules.scoring)
    if time_limit is not None:
        engine.deadline = start + time_limit
    p, o = board.sides()
    size = board.size
    try:
        with paused_gc():
            score, best = solve_root(engine, p, o, progress)
            line_squares = engine.best_line(p, o, best[0]) if best else []
    except SearchTimeout:
        raise TimeoutError(f"solve gave up after its time limit of {time_limit} s") from None
    if progress is not None:
        progress(1.0, "solved")
    moves = tuple(Move(sq, size) for sq in best)
    line = tuple(Move(sq, size) for sq in line_squares)
    return Solution(score, moves, line, engine.nodes, time.perf_counter() - start)


def solve_root(engine: Endgame, p: int, o: int, progress: Progress | None = None) -> tuple[int, list[int | None]]:
    """The exact score and all best first moves (``[None]`` for a forced pass)."""
    legal = engine.moves(p, o)
    if not legal:
        if not engine.moves(o, p):
            return engine.final(p, o), []
        return -engine.search(o, p, -INFINITY, INFINITY), [None]
    flips, moves = engine.flips, engine.moves
    squares = squares_of(legal)
    # Try the most promising move first so the others are refuted by a narrow window.
    squares.sort(key=lambda sq: moves(o ^ flips(p, o, sq), p | flips(p, o, sq) | (1 << sq)).bit_count())

    def value(sq: int, alpha: int, beta: int) -> int:
        f = flips(p, o, sq)
        return -engine.search(o ^ f, p | f | (1 << sq), -beta, -alpha)

    def done(index: int) -> None:
        if progress is not None:
            progress((index + 1) / len(squares), f"solved {index + 1} of {len(squares)} moves")

    try:
        best_score, best, _ = root_search(squares, value, ties=True, done=done)
    except RootInterrupted:
        raise SearchTimeout from None
    return best_score, list(best)
