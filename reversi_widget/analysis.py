"""Position analysis and game review: a score for every legal move, and the cost of each
move actually played.

Scores are disc margins from the point of view of the side to move in the analysed
position: ``+4`` means that after this move the mover expects to finish four discs ahead
(under the inverted goal: four discs *behind*, which is what it wants). An exact score is a
proven final margin under perfect play (see ``solver``). A depth-limited search that finds a
forced end on every line the opponent can choose proves a win or a loss, but only a bound on
its margin (a win by at least the score, a loss by at least as much: longer lines it did not
see to the end may do better for the winner); otherwise the score is the evaluation's
estimate at the depth searched.

The searches are ``search.root``'s (each move searched on its own, exactly or by iterative
deepening) and the game review is ``game_review``'s: both stay importable from here.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass

from .board import Board, Move
from .progress import Progress, notebook_progress
from .search import MAX_DEPTH, SearchTimeout, StopSignal, check_searchable, check_time_limit, paused_gc
from .search.endgame import compiled_endgame_ready, make_endgame
from .search.midgame import compiled_midgame_ready
from .search.root import exact_entries, midgame_entries
from .squares import COLOR_NAMES, Color
from .winchance import black_win_chance

# isort: off
# The per-move searches' names, importable from here as before (defined in search.root).
from .search.root import ANALYSIS_SELECTIVITY as ANALYSIS_SELECTIVITY, ASPIRATION as ASPIRATION
from .search.root import END_ASPIRATION as END_ASPIRATION, MoveAnalysis as MoveAnalysis
from .search.root import within_board as within_board
# isort: on

__all__ = [
    "EXACT_EMPTIES",
    "EXACT_EMPTIES_TIMED",
    "Analysis",
    "analyse",
    "check_depth",
    "default_depth",
    "exact_empties",
    "move_label",
]

#: Positions with at most this many empty squares are solved exactly by default (pure
#: Python, compiled).
EXACT_EMPTIES = (12, 20)
#: With a time limit, an exact solve is attempted up to this many empty squares.
EXACT_EMPTIES_TIMED = (16, 22)


def exact_empties(size: int, timed: bool) -> int:
    """Up to how many empty squares ``analyse`` solves exactly, with or without a time limit."""
    return (EXACT_EMPTIES_TIMED if timed else EXACT_EMPTIES)[compiled_endgame_ready(size)]


def default_depth(size: int) -> int:
    """A depth that analyses a position in well under a second on this size (deeper with
    the compiled search)."""
    if compiled_midgame_ready(size):
        return 10 if size <= 6 else 8
    return 4 if size <= 8 else 3 if size <= 12 else 2


def move_label(ply: int, move: Move | str) -> str:
    """A move of a line as the move list numbers it: plies in pairs, ``"21. f5"`` for the
    first of pair 21 and ``"21... d2"`` for the second (passes count as plies, as they stand
    in the list)."""
    number = (ply + 1) // 2
    return f"{number}{'.' if ply % 2 else '...'} {move}"


@dataclass(frozen=True)
class Analysis:
    """Every legal move of a position, best first."""

    position: str
    size: int
    turn: Color
    goal: str
    scoring: str
    moves: tuple[MoveAnalysis, ...]
    depth: int
    nodes: int
    seconds: float

    @property
    def best(self) -> MoveAnalysis:
        return self.moves[0]

    @property
    def exact(self) -> bool:
        """True when every score is a proven result."""
        return all(m.exact for m in self.moves)

    @property
    def empties(self) -> int:
        """The empty squares of the analysed position."""
        return self.position[: self.size * self.size].count("-")

    @property
    def win_chance(self) -> float | None:
        """Black's chance of winning, from 0 to 1 (a draw counts as half a win): exact (1.0,
        0.5, 0.0) where the analysis proves the result, else an estimate read from the best
        score by curves fitted on master games (``winchance``), None on a variant without
        curves (only 8x8 classic has them)."""
        return black_win_chance(
            self.turn, self.best.score, self.empties, self.size, self.goal, [m.result for m in self.moves]
        )

    def __getitem__(self, move: Move | str) -> MoveAnalysis:
        """The analysis of one move, by ``Move`` or name (``analysis["d3"]``)."""
        for entry in self.moves:
            if entry.move == move or str(entry.move) == str(move).strip().lower():
                return entry
        raise KeyError(f"{move!s} is not a legal move here: moves are {', '.join(str(m.move) for m in self.moves)}")

    def _heading(self) -> str:
        how = "exact" if self.exact else f"depth {self.depth}"
        return f"{COLOR_NAMES[self.turn]} to move ({self.size}x{self.size}, {self.goal}, {how})"

    def __str__(self) -> str:
        rows = [("move", "score", "result", "line")]
        for m in self.moves:
            rows.append((str(m.move), m.score_text(), m.result or "", " ".join(str(x) for x in m.line)))
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = [self._heading()]
        for r in rows:
            lines.append(f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}".rstrip())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        cells = []
        for m in self.moves:
            line = html.escape(" ".join(str(x) for x in m.line))
            cells.append(
                f"<tr><td>{html.escape(str(m.move))}</td><td style='text-align:right'>{m.score_text()}</td>"
                f"<td>{m.result or ''}</td><td>{line}</td></tr>"
            )
        return (
            f"<table class='reversi-analysis'><caption>{html.escape(self._heading())}</caption>"
            "<thead><tr><th>move</th><th>score</th><th>result</th><th>line</th></tr></thead>"
            f"<tbody>{''.join(cells)}</tbody></table>"
        )


def check_depth(depth: object) -> int | None:
    """``depth`` as ``analyse`` and ``review`` take it: None, or a depth the search allows."""
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH} or None, got {depth!r}")
    return depth


def analyse(
    board: Board,
    depth: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    *,
    show_progress: bool = False,
    stop: StopSignal | None = None,
) -> Analysis:
    """Score every legal move of ``board`` for the side to move, best first.

    Without ``depth`` and ``time_limit`` it searches ``default_depth(size)`` plies and solves
    exactly from ``EXACT_EMPTIES`` empty squares (12 in pure Python, 20 with the compiled
    solver). ``depth`` fixes the depth (a depth that reaches the end solves exactly);
    ``time_limit`` deepens until the time is up (keeping the last depth completed for every
    move) and tries an exact solve from ``EXACT_EMPTIES_TIMED`` in two thirds of it.
    Moves are ranked by ``MoveAnalysis.rank``: a proven win above any estimate.
    ``progress(fraction, message)`` is called along the way; ``show_progress`` shows a bar in
    a notebook. A position where the side to move must pass has one entry, the pass. The
    board is not changed. ``stop.halt()``, from another thread, ends it at once with
    ``SearchTimeout`` (the widget stops an analysis whose position has moved on).
    """
    check_searchable(board, "analyse")
    depth = check_depth(depth)
    time_limit = check_time_limit(time_limit)
    if progress is None and show_progress:
        progress = notebook_progress("Analysing")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    signal = StopSignal() if stop is None else stop
    rules = board.rules
    if board.must_pass():
        passed = board.copy(stack=False)
        passed.push_pass()
        reply = analyse(passed, depth, time_limit, progress, stop=signal)
        best = reply.best
        entry = MoveAnalysis(
            Move.null(board.size), -best.score, best.exact, (Move.null(board.size), *best.line), best.depth, best.bound
        )
        return Analysis(
            board.to_string(), board.size, board.turn, rules.goal, rules.scoring, (entry,), reply.depth, reply.nodes,
            time.perf_counter() - start,
        )  # fmt: skip
    empties = board.empty_count()
    want_exact = depth >= empties if depth is not None else empties <= exact_empties(board.size, time_limit is not None)
    entries: list[MoveAnalysis] | None = None
    nodes = 0
    reached = empties
    if want_exact:
        solver = make_endgame(board.size, rules.goal, rules.scoring, signal)
        # With a time limit the exact attempt leaves a third of it for the estimate.
        solver.deadline = None if time_limit is None else start + time_limit * 2 / 3
        try:
            with paused_gc():
                entries = exact_entries(board, solver, progress)
        except SearchTimeout:
            if signal.halted:
                raise
            entries = None
        finally:
            signal.set_deadline(None)
        nodes += solver.nodes
    if entries is None:
        if depth is None:
            depth = MAX_DEPTH if deadline is not None else default_depth(board.size)
        with paused_gc():
            entries, reached, mid_nodes = midgame_entries(board, depth, deadline, progress, signal)
        nodes += mid_nodes
    entries.sort(key=lambda e: -e.rank)
    if progress is not None:
        progress(1.0, "analysis done")
    return Analysis(
        board.to_string(), board.size, board.turn, rules.goal, rules.scoring, tuple(entries), reached, nodes,
        time.perf_counter() - start,
    )  # fmt: skip


# isort: off
# The game review's names, importable from here as before (defined in ``game_review``). The
# review is built on ``analyse`` above, so it comes last: ``game_review`` imports this module,
# complete by then (the package imports this module before any other of its own).
from .game_review import REVIEW_CHECK_PLIES as REVIEW_CHECK_PLIES  # noqa: E402
from .game_review import REVIEW_DEPTH_COMPILED_8X8 as REVIEW_DEPTH_COMPILED_8X8  # noqa: E402
from .game_review import REVIEW_END_EMPTIES as REVIEW_END_EMPTIES  # noqa: E402
from .game_review import REVIEW_END_SECONDS as REVIEW_END_SECONDS  # noqa: E402
from .game_review import REVIEW_END_SELECTIVITY as REVIEW_END_SELECTIVITY  # noqa: E402
from .game_review import REVIEW_EXACT_PLIES as REVIEW_EXACT_PLIES  # noqa: E402
from .game_review import REVIEW_EXTRA_SECONDS as REVIEW_EXTRA_SECONDS, REVIEW_MARKS as REVIEW_MARKS  # noqa: E402
from .game_review import MoveReview as MoveReview, ReviewTotals as ReviewTotals  # noqa: E402
from .game_review import evaluations as evaluations, judge as judge, judged as judged, review as review  # noqa: E402
from .game_review import review_depth as review_depth, review_mark as review_mark  # noqa: E402
from .game_review import review_totals as review_totals  # noqa: E402
# isort: on
