"""What every search of the package shares: the score scale, stopping, the transposition
table's bounds and the root of a principal variation search.

The computer player, the analysis and the exact solver each search differently (estimates
to a depth, or exact margins to the end), on the pure path or compiled, but they agree on
these pieces; each lives here once.

Scores: the midgame search counts centi-discs from the side to move's point of view, and a
finished position scores its exact final margin (times 100) plus or minus ``WIN``, so any
proven win ranks above any estimate and any proven loss below. The exact solver counts
plain disc margins. ``INFINITY`` is beyond both.
"""

from __future__ import annotations

import gc
import heapq
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..board import Board
from ..errors import IllegalMoveError, InvalidPositionError

__all__ = [
    "CLOCK_EVERY",
    "DEADLINE",
    "HALTED",
    "INFINITY",
    "MAX_DEPTH",
    "WIN",
    "RootInterrupted",
    "SearchTimeout",
    "StopSignal",
    "bounds",
    "exact_score",
    "paused_gc",
    "probe",
    "root_search",
    "score_to_margin",
]

#: Added to the scaled margin of a finished game, beyond any evaluation.
WIN = 1_000_000
#: Beyond every score of every search (fits a signed 32-bit int).
INFINITY = 100_000_000
#: Nodes between two looks at the clock in a pure-Python search (a node costs 5 µs-2 ms
#: there, so a deadline is overrun by a few milliseconds; compiled searches need no clock).
CLOCK_EVERY = 64
#: The deepest iteration ever started.
MAX_DEPTH = 64
#: The selectivity of a search that makes no probable cut (the compiled midgame search's
#: levels of selectivity are below it: ``native.midgame.SELECTIVITY_T``).
FULL_WIDTH = 5


def exact_score(margin: int) -> int:
    """The midgame search score of a known final margin."""
    if margin > 0:
        return margin * 100 + WIN
    if margin < 0:
        return margin * 100 - WIN
    return 0


def score_to_margin(score: int) -> tuple[float, bool]:
    """(disc margin, exact?) of a midgame search score: proven results give their margin
    exactly, estimates their centi-discs divided by 100."""
    if score >= WIN:
        return (score - WIN) / 100, True
    if score <= -WIN:
        return (score + WIN) / 100, True
    return score / 100, False


def margin_floor(score: int) -> int:
    """The largest final margin whose search score (``exact_score``) is at most ``score``."""
    if score >= WIN:
        return (score - WIN) // 100
    if score >= 0:
        return 0
    if score > -WIN:
        return -1
    return min(-1, (score + WIN) // 100)


def margin_ceil(score: int) -> int:
    """The smallest final margin whose search score is at least ``score``."""
    return -margin_floor(-score)


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed or it was stopped; the caller
    keeps its last result."""


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector during a timed search: the search makes no
    reference cycles, and a full collection walking a big transposition table can stall
    for a good part of a second, past the time budget."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: What a stop flag holds: 0 while the search may run, then why it must end.
HALTED = 1
DEADLINE = 2


def _new_flag() -> Any:
    """A one-cell int64 array a compiled search can poll, or a one-item list without numpy
    (where nothing is compiled and only pure-Python searches read it)."""
    try:
        import numpy
    except ImportError:
        return [0]
    return numpy.zeros(1, dtype=numpy.int64)


class StopSignal:
    """When a search must end: at ``deadline`` (a ``time.perf_counter`` value) or as soon as
    any thread calls ``halt()`` (``Engine.stop``, a widget whose position has moved on).

    Every search, pure or compiled, reads the same ``flag[0]``: 0 while it may run, then
    ``HALTED`` or ``DEADLINE``. Compiled kernels poll it at every node, as they cannot read a
    clock: one alarm thread writes ``DEADLINE`` there when the deadline passes. Pure-Python
    searches ask ``expired()`` every ``CLOCK_EVERY`` nodes, which reads the flag and the
    clock itself, so they stop in time even where no thread can start (Pyodide).
    ``on_check``, if set, is called at each such look (the no-thread mode lets the event
    loop in there). A halt lasts until ``clear()``; ``set_deadline`` keeps it.
    """

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.halted = False
        self.flag = _new_flag()
        self.on_check: Callable[[], None] | None = None
        self._alarm: int | None = None

    def expired(self) -> bool:
        if self.on_check is not None:
            self.on_check()
        if self.halted or self.flag[0]:
            return True
        return self.deadline is not None and time.perf_counter() > self.deadline

    def halt(self) -> None:
        """Stop the running search at its next look at the flag (safe from any thread)."""
        self.halted = True
        self.flag[0] = HALTED

    def set_deadline(self, deadline: float | None) -> None:
        """Stop at ``deadline`` (None: only ``halt()`` stops), replacing any earlier one."""
        self._disarm()
        self.deadline = deadline
        self.flag[0] = 0
        if self.halted:  # (also when a halt came from another thread meanwhile)
            self.flag[0] = HALTED
        elif deadline is not None:
            self._alarm = _alarm_clock.arm(self.flag, deadline)

    def clear(self) -> None:
        """No deadline, not halted: the state between two searches."""
        self._disarm()
        self.deadline = None
        self.halted = False
        self.flag[0] = 0

    def _disarm(self) -> None:
        if self._alarm is not None:
            _alarm_clock.disarm(self._alarm)
            self._alarm = None


class _AlarmClock:
    """One background thread that writes ``DEADLINE`` into stop flags as their deadlines pass,
    soonest first; arming and disarming are cheap, so every search can arm its own."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.pending: list[tuple[float, int, Any]] = []  # a heap of (deadline, token, flag)
        self.armed: set[int] = set()  # tokens neither rung nor disarmed
        self.tokens = itertools.count()
        self.thread: threading.Thread | None = None

    def arm(self, flag: Any, deadline: float) -> int | None:
        """Ring ``flag`` at ``deadline``; a token for ``disarm``, or None where no thread can
        start (Pyodide, where nothing is compiled either: the clock checks stop the search)."""
        with self.condition:
            if self.thread is None:
                thread = threading.Thread(target=self._run, name="reversi-widget-alarm", daemon=True)
                try:
                    thread.start()
                except RuntimeError:
                    return None
                self.thread = thread
            token = next(self.tokens)
            heapq.heappush(self.pending, (deadline, token, flag))
            self.armed.add(token)
            self.condition.notify()
            return token

    def disarm(self, token: int) -> None:
        """After this returns, the alarm of ``token`` never rings (harmless once it has)."""
        with self.condition:
            self.armed.discard(token)

    def _run(self) -> None:
        with self.condition:
            while True:
                if not self.pending:
                    self.condition.wait()
                    continue
                deadline, token, flag = self.pending[0]
                if token not in self.armed:
                    heapq.heappop(self.pending)
                    continue
                delay = deadline - time.perf_counter()
                if delay > 0:
                    self.condition.wait(delay)
                    continue
                heapq.heappop(self.pending)
                self.armed.discard(token)
                if not flag[0]:  # a halt already there stays what it is
                    flag[0] = DEADLINE


_alarm_clock = _AlarmClock()


def probe(lower: int, upper: int, alpha: int, beta: int) -> tuple[int, int, int]:
    """What a table entry's bounds on a node tell a search with window (alpha, beta):
    ``(value, alpha, beta)`` where ``value`` is the node's fail-soft result when the entry
    decides it, else ``-INFINITY`` with the window narrowed by the bounds."""
    if lower >= beta:
        return lower, alpha, beta
    if upper <= alpha:
        return upper, alpha, beta
    if lower == upper:
        return lower, alpha, beta
    return -INFINITY, max(alpha, lower), min(beta, upper)


def bounds(best: int, alpha: int, beta: int) -> tuple[int, int]:
    """The (lower, upper) bounds that a fail-soft result ``best``, searched with the window
    (alpha, beta), proves on a node's value: to be stored in a transposition table."""
    if best <= alpha:
        return -INFINITY, best
    if best >= beta:
        return best, INFINITY
    return best, best


class RootInterrupted(Exception):
    """A root search stopped early; carries the best move among those it finished."""

    def __init__(self, square: int | None, score: int) -> None:
        super().__init__()
        self.square = square
        self.score = score


def root_search(
    squares: Sequence[int],
    value: Callable[[int, int, int], int],
    alpha: int = -INFINITY,
    beta: int = INFINITY,
    *,
    ties: bool = False,
    full_window: bool = False,
    bonus: Callable[[int], int] | None = None,
    done: Callable[[int], None] | None = None,
) -> tuple[int, list[int], dict[int, int]]:
    """Principal variation search over the root moves, in the order given (best guess first).

    ``value(square, alpha, beta)`` is the fail-soft score of one move inside that window (the
    negated search of the position it leads to). The first move gets the whole window, the
    others a null window that only proves them worse, and a full re-search when they are not.
    ``ties`` also finds every move equal to the best (a window of one either side of it);
    ``full_window`` scores every move exactly, so that ``bonus(square)`` (random noise) is added
    to comparable scores. ``done(index)`` is called as each move is scored (for progress).
    Returns (best score, best squares, the score of each move searched).
    A ``SearchTimeout`` inside becomes ``RootInterrupted`` with the best move finished so far.
    """
    best = -INFINITY
    best_squares: list[int] = []
    scores: dict[int, int] = {}
    for index, sq in enumerate(squares):
        try:
            if full_window or index == 0:
                score = value(sq, alpha, beta)
            elif ties:
                score = value(sq, best - 1, best + 1)
                if score > best:
                    score = value(sq, score, beta)
            else:
                score = value(sq, alpha, alpha + 1)
                if alpha < score < beta:
                    score = value(sq, score, beta)
        except SearchTimeout:
            # The moves finished so far are comparable, and the first of them was the best
            # guess (the previous iteration's best), so the best of them stands.
            raise RootInterrupted(best_squares[0] if best_squares else None, best) from None
        if bonus is not None:
            score += bonus(sq)
        scores[sq] = score
        if score > best:
            best, best_squares = score, [sq]
            if not full_window and score > alpha:
                alpha = score
                if alpha >= beta and not ties:
                    break
        elif ties and score == best:
            best_squares.append(sq)
        if done is not None:
            done(index)
    return best, best_squares, scores


# -- what a search may start from ------------------------------------------------------------


def check_searchable(board: Board, what: str) -> None:
    """Refuse positions a search cannot start from, with a message that says why."""
    if not isinstance(board, Board):
        raise TypeError(f"{what} needs a Board, got {type(board).__name__}")
    if board.in_placement():
        raise InvalidPositionError(
            f"cannot {what} during the free start's placement of the centre discs (R8): place them first"
        )
    if board.is_game_over():
        raise IllegalMoveError(f"cannot {what}: the game is over ({board.outcome()})")


def check_time_limit(time_limit: object) -> float | None:
    """A positive finite number of seconds, or None; ValueError otherwise."""
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    return float(time_limit)


def final_score_function(size: int, goal: str, scoring: str) -> Callable[[int, int], int]:
    """``final(p, o)``: the score of a finished position for the side with ``p``."""
    squares = size * size
    sign = 1 if goal == "classic" else -1
    tournament = scoring == "tournament"

    if not tournament:
        if sign == 1:

            def final(p: int, o: int) -> int:
                return p.bit_count() - o.bit_count()

        else:

            def final(p: int, o: int) -> int:
                return o.bit_count() - p.bit_count()

        return final

    def final_tournament(p: int, o: int) -> int:
        pc, oc = p.bit_count(), o.bit_count()
        margin = sign * (pc - oc)
        if margin > 0:
            return margin + squares - pc - oc
        if margin < 0:
            return margin - (squares - pc - oc)
        return 0

    return final_tournament
