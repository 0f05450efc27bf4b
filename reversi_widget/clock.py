"""A game clock for the computer: how much of its time for the whole game one move gets.

``GameClock(seconds)`` holds what is left of one side's time for a game. Before each move
``budget(empties)`` says how long to think: a *target* the search aims at, and a hard
*limit* it never passes. The time left is shared over the moves still to play by weight:
the middle game and the last moves before the end can be proven get more than the opening
or the last few moves, which a search settles at once. ``spend(seconds)`` takes a move's
time off. The clock never runs out: every budget leaves a reserve for each move still to
come, and no single move may take more than a fixed share of what is left.

The engine thinks past its target, up to ``stretch`` times it within the limit, when the
best move keeps changing between iterations (``Engine`` does that, not the clock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["OVERHEAD", "GameClock", "MoveBudget", "check_clock", "move_weight"]

#: The most a move is expected to run past its limit (the search stops at its next look at
#: the stop signal; then the move is made): kept back for every move that may still come.
OVERHEAD = 0.01
#: Seconds kept back besides for each own move still to come, so the last moves never go without.
RESERVE_PER_MOVE = 0.02
#: Share of the whole game's time kept back besides (for the overhead around the search).
RESERVE_SHARE = 0.02
#: No move may take more than this share of the time left (beyond the reserve).
MOST_OF_LEFT = 0.25
#: A move's limit is at most this many times its target.
LIMIT_OVER_TARGET = 4.0


def move_weight(empties: int) -> float:
    """How much time a move with this many empty squares deserves, relative to others:
    little in the first moves and in the last ones (a search settles both fast), most in
    the middle game, and by far the most where the result can first be proven (26 to 19
    empties): matches against a classic engine lost their discs there, not in the middle
    game, with the clock shared more evenly."""
    if empties <= 12:
        return 0.05
    if empties <= 18:
        return 0.5
    if empties <= 26:
        return 3.0
    if empties <= 30:
        return 1.5
    if empties <= 44:
        return 1.0
    return 0.6


def check_clock(seconds: object, name: str = "clock") -> float | None:
    """A positive finite number of seconds, or None; ValueError naming ``name`` otherwise."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"{name} must be a positive number of seconds or None, got {seconds!r}")
    return float(seconds)


@dataclass(frozen=True)
class MoveBudget:
    """The time one move gets: aim at ``target`` seconds, never pass ``limit``."""

    target: float
    limit: float


class GameClock:
    """One side's time for a game (see the module's docstring)."""

    def __init__(self, seconds: float) -> None:
        checked = check_clock(seconds)
        assert checked is not None
        self.total = checked
        self.left = checked

    def __repr__(self) -> str:
        return f"GameClock({self.total}) with {self.left:.2f} s left"

    def reset(self) -> None:
        """A new game: all the time back."""
        self.left = self.total

    def spend(self, seconds: float) -> None:
        """Take a move's time off (the clock may go below zero only if a move overran)."""
        self.left -= max(0.0, seconds)

    def budget(self, empties: int, size: int = 8) -> MoveBudget:
        """The time of the next move with ``empties`` empty squares to its side: the share of
        the usable time left that this move's weight is of all the side's remaining moves'
        (every second empty square is one of its moves). Whatever happens, the limit leaves
        ``OVERHEAD`` for every move that could still come (one per empty square, should the
        opponent pass every time), so the clock never runs out while each move keeps within
        ``OVERHEAD`` of its limit."""
        own = list(range(empties, 0, -2))
        ceiling = max(0.0, self.left - OVERHEAD * empties)
        reserve = RESERVE_SHARE * self.total + (OVERHEAD + RESERVE_PER_MOVE) * len(own)
        usable = max(0.0, self.left - reserve)
        weights = sum(move_weight(_eight_by_eight(e, size)) for e in own)
        target = usable * move_weight(_eight_by_eight(empties, size)) / weights if weights else 0.0
        limit = min(usable * MOST_OF_LEFT, target * LIMIT_OVER_TARGET)
        limit = min(max(limit, min(RESERVE_PER_MOVE, ceiling / (len(own) + 1))), ceiling)
        return MoveBudget(min(target, limit), limit)


def _eight_by_eight(empties: int, size: int) -> int:
    """Empties on another board size read as the same stage of an 8x8 game."""
    if size == 8:
        return empties
    return round(empties * 60 / max(1, size * size - 4))
