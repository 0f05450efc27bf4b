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
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .native import alarm

#: Added to the scaled margin of a finished game, beyond any evaluation.
WIN = 1_000_000
#: Beyond every score of every search (fits a signed 32-bit int).
INFINITY = 100_000_000
#: Nodes between two looks at the clock in a pure-Python search (a node costs 5 µs-2 ms
#: there, so a deadline is overrun by a few milliseconds; compiled searches need no clock).
CLOCK_EVERY = 64
#: The deepest iteration ever started.
MAX_DEPTH = 64


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


def _new_flag() -> Any:
    """A one-cell int64 array a compiled search polls, or None without numpy."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy.zeros(1, dtype=numpy.int64)


class StopSignal:
    """When a search must end: at ``deadline`` (a ``time.perf_counter`` value) or as soon as
    another thread calls ``halt()`` (``Engine.stop``).

    Pure-Python searches ask ``expired()`` every ``CLOCK_EVERY`` nodes. Compiled code cannot
    read the clock, so it polls ``flag[0]`` instead: ``halt()`` sets it, and so does an alarm
    thread at the deadline (``native.alarm``). ``clear()`` makes the signal ready for the
    next search.
    """

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.halted = False
        self.flag = _new_flag()
        self._alarm: int | None = None

    def expired(self) -> bool:
        return self.halted or (self.deadline is not None and time.perf_counter() > self.deadline)

    def halt(self) -> None:
        self.halted = True
        if self.flag is not None:
            self.flag[0] = 1

    def set_deadline(self, deadline: float | None) -> None:
        """Stop at ``deadline`` (None: only ``halt()`` stops), replacing any earlier one."""
        self._disarm()
        self.deadline = deadline
        if self.flag is None:
            return
        self.flag[0] = 1 if self.halted else 0
        if deadline is not None and not self.halted:
            self._alarm = alarm.arm(self.flag, deadline)

    def clear(self) -> None:
        """No deadline, not halted: the state between two searches."""
        self._disarm()
        self.deadline = None
        self.halted = False
        if self.flag is not None:
            self.flag[0] = 0

    def _disarm(self) -> None:
        if self._alarm is not None:
            alarm.disarm(self._alarm)
            self._alarm = None


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
