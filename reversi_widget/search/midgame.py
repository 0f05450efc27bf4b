"""The midgame search: a negamax alpha-beta to a depth, for the engine and the analysis.

``Midgame`` is what every midgame search offers; ``MidgameSearch`` is the pure-Python one, for
every size, and ``native.midgame.NativeMidgame`` its compiled twin for 4x4, 6x6 and 8x8, with
the same scores at every depth from a fresh table (``tests/test_native_midgame.py``).
``make_midgame`` is the one place a midgame search is made, and the one that picks the path.

The search is a fail-soft negamax with principal variation search, a pass that costs no
depth, a transposition table keyed by the two bitboards, and move ordering (the table's best
move first, then the move leaving the opponent the fewest replies, then corners). A finished
game scores its exact margin beyond ``search.WIN``. Where a depth reaches the end of the game
the exact solver (``search.endgame``) takes over. Scores are centi-discs from the side to
move's point of view (see ``search``).

The compiled search does more than its pure twin: probable cuts (``search.probcut``) where a
calibration exists (8x8 classic), a shallow search to order the moves of deep nodes, and the
exact solver's own compiled refinements. At full width both give the same scores.

The evaluation at the leaves: on 8x8, for every goal with learned weights
(``learned_weights``), the learned pattern tables of ``search.patterns``, whose scores are
estimates in real discs; elsewhere the hand-made evaluation of ``search.evaluate``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from .. import native
from ..geometry import geometry, squares_of
from . import (
    CLOCK_EVERY,
    FULL_WIDTH,
    INFINITY,
    SearchTimeout,
    StopSignal,
    bounds,
    exact_score,
    final_score_function,
    margin_ceil,
    margin_floor,
    probe,
)
from .endgame import Endgame, make_endgame
from .evaluate import Evaluate, Weights, make_evaluator, square_table
from .probcut import load_calibration

__all__ = [
    "TT_LIMIT",
    "Midgame",
    "MidgameSearch",
    "compiled_midgame_ready",
    "learned_weights",
    "make_midgame",
]

#: The transposition table of the pure-Python search is emptied past this many positions.
TT_LIMIT = 200_000


class Midgame(Protocol):
    """A depth-limited negamax over one size, goal and scoring, with its transposition table:
    the pure-Python ``MidgameSearch`` or the compiled ``native.midgame.NativeMidgame``.

    ``negamax(p, o, depth, alpha, beta, legal)`` takes the mover's legal moves (already known
    to the caller) and returns a fail-soft score; it raises ``SearchTimeout`` once ``stop``
    says so. ``take_nodes()`` returns the nodes searched since it was last called.
    """

    stop: StopSignal
    #: ``FULL_WIDTH``, or a level of probable cuts (where ``selective``)
    selectivity: int
    #: whether the search can cut probably (calibrated: ``probcut``)
    selective: bool

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int: ...

    def certain_since(self) -> None:
        """Start watching for probable results that could make a proven score wrong."""

    @property
    def certain(self) -> bool:
        """Whether no such result was used since ``certain_since``: proven scores are exact."""
        ...

    def principal_line(self, p: int, o: int, limit: int) -> list[int | None]: ...

    def take_nodes(self) -> int: ...


class MidgameSearch:
    """The pure-Python ``Midgame``, for every size. Its table maps ``(p, o)`` to
    ``(depth, lower, upper, best square)``."""

    def __init__(self, size: int, goal: str, scoring: str, evaluate: Evaluate) -> None:
        self.size = size
        self.goal = goal
        self.scoring = scoring
        self.nodes = 0
        self.stop = StopSignal()
        self.selectivity = FULL_WIDTH  # this search makes no probable cuts
        self.selective = False
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self._exact: Endgame | None = None
        geo = geometry(size)
        self.moves, self.flips = geo.moves, geo.flips
        final = final_score_function(size, goal, scoring)

        def terminal(p: int, o: int) -> int:
            return exact_score(final(p, o))

        self.terminal = terminal
        self.values = square_table(size)
        self.negamax = self._build(evaluate)

    def certain_since(self) -> None:
        """Nothing to watch: this search makes no probable cuts."""

    @property
    def certain(self) -> bool:
        return True

    def exact_search(self, p: int, o: int, alpha: int, beta: int) -> int:
        """The exact solver's score (a disc margin, fail-soft in ``(alpha, beta)``), with
        this search's stop signal: where a depth reaches the end, the solver takes over."""
        exact = self._exact
        if exact is None or exact.stop is not self.stop:
            exact = self._exact = make_endgame(self.size, self.goal, self.scoring, self.stop)
        try:
            return exact.search(p, o, alpha, beta)
        finally:
            self.nodes += exact.nodes
            exact.nodes = 0

    # Long on purpose, for speed: the search is a closure over the locals below (a local name
    # is read faster than an attribute or a global in CPython), with a node's whole work inside.
    def _build(self, evaluate: Evaluate) -> Callable[[int, int, int, int, int, int], int]:
        moves, flips, terminal = self.moves, self.flips, self.terminal
        table = self.table
        values = self.values
        corners = geometry(self.size).corners
        area = self.size * self.size
        exact_search = self.exact_search
        owner = self
        count = 0

        def tick() -> None:
            nonlocal count
            owner.nodes += count
            count = 0
            if owner.stop.expired():
                raise SearchTimeout

        def negamax(p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int:
            nonlocal count
            count += 1
            if count >= CLOCK_EVERY:
                tick()
            if not legal:
                legal_o = moves(o, p)
                if not legal_o:
                    return terminal(p, o)
                return -negamax(o, p, depth, -beta, -alpha, legal_o)  # a pass costs no depth
            if depth <= 0:
                return evaluate(p, o, legal)
            if depth >= area - (p | o).bit_count():  # every line ends: solve it
                return exact_score(exact_search(p, o, margin_floor(alpha), margin_ceil(beta)))
            key = (p, o)
            entry = table.get(key)
            first = -1
            if entry is not None:
                e_depth, lower, upper, first = entry
                if e_depth >= depth:
                    value, alpha, beta = probe(lower, upper, alpha, beta)
                    if value != -INFINITY:
                        return value
            alpha0, beta0 = alpha, beta
            best = -INFINITY
            best_sq = -1
            if depth == 1:
                # The children are leaves: order by the square table only, and let each
                # child's evaluation count the replies it needs anyway.
                squares = squares_of(legal)
                squares.sort(key=lambda s: -1000 if s == first else -values[s])
                for sq in squares:
                    count += 1  # each leaf evaluated counts as a node, for the clock too
                    bit = 1 << sq
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    reply = moves(no, np_)
                    # A child where the opponent must pass goes through the pass logic.
                    score = -evaluate(no, np_, reply) if reply else -negamax(no, np_, 0, -beta, -alpha, 0)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            else:
                children = []
                rest = legal
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    sq = bit.bit_length() - 1
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    reply = moves(no, np_)
                    if sq == first:
                        order = -1_000_000
                    else:
                        order = reply.bit_count() * 100 - values[sq] - (bit & corners != 0) * 1000
                    children.append((order, sq, no, np_, reply))
                children.sort()
                child_depth = depth - 1
                searched = False
                for _, sq, no, np_, reply in children:
                    if not searched:
                        score = -negamax(no, np_, child_depth, -beta, -alpha, reply)
                        searched = True
                    else:
                        score = -negamax(no, np_, child_depth, -alpha - 1, -alpha, reply)
                        if alpha < score < beta:
                            score = -negamax(no, np_, child_depth, -beta, -score, reply)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            if len(table) > TT_LIMIT:
                table.clear()
            lower, upper = bounds(best, alpha0, beta0)
            table[key] = (depth, lower, upper, best_sq)
            return best

        def take_nodes() -> int:
            nonlocal count
            taken = owner.nodes + count
            owner.nodes = count = 0
            return taken

        self._take_nodes = take_nodes
        return negamax

    def take_nodes(self) -> int:
        return self._take_nodes()

    def principal_line(self, p: int, o: int, limit: int) -> list[int | None]:
        """Follow the table's best moves from ``(p, o)``: squares, ``None`` for a pass."""
        line: list[int | None] = []
        moves, flips, table = self.moves, self.flips, self.table
        seen = set()
        while len(line) < limit:
            legal = moves(p, o)
            if not legal:
                if not moves(o, p):
                    break
                line.append(None)
                p, o = o, p
                continue
            entry = table.get((p, o))
            if entry is None or (p, o) in seen:
                break
            seen.add((p, o))
            sq = entry[3]
            if sq < 0 or not legal >> sq & 1:
                break
            line.append(sq)
            f = flips(p, o, sq)
            p, o = o ^ f, p | f | (1 << sq)
        return line


def compiled_midgame_ready(size: int) -> bool:
    """Whether the compiled midgame search can take a board of this size now (asking
    starts the compilation in the background when it has not started yet)."""
    return size in native.SIZES and native.ready("midgame")


def learned_weights(size: int, goal: str) -> Path | None:
    """The learned weights file the searches of a variant evaluate with: the goal's shipped
    one (``patterns.weights_file``) on 8x8, None where the hand-made evaluation serves.
    (``patterns`` is imported on this first need, not with the package: a first board or
    widget does not wait for it.)"""
    from . import patterns

    return patterns.weights_file(goal) if size == patterns.SIZE else None


def make_midgame(
    size: int,
    goal: str,
    scoring: str,
    weights: Weights | None = None,
    compiled: bool | None = None,
    *,
    learned: bool = True,
) -> Midgame:
    """A midgame search of one variant: compiled when ``compiled`` (default: when it is ready
    for this size), else pure Python. It evaluates with the learned patterns where the variant
    has them (``learned_weights``), else, or with ``learned=False``, with the hand-made
    evaluation and ``weights`` (default: the goal's own). The learned weights are read here
    on the first search that needs them (compiled), or at its first evaluation (pure);
    a missing or damaged file is refused then, naming it."""
    path = learned_weights(size, goal) if learned else None
    if path is not None and weights is not None:
        raise ValueError(
            f"hand-made weights do not apply to {size}x{size} {goal}, which evaluates with the learned "
            "patterns: pass learned=False to use them"
        )
    if compiled is None:
        compiled = compiled_midgame_ready(size)
    if compiled:
        from ..native.midgame import NativeMidgame
        from ..native.patterns import arrays_of

        if path is None:
            return NativeMidgame(size, goal, scoring, weights)
        return NativeMidgame(size, goal, scoring, None, arrays_of(path, goal), load_calibration(size, goal))
    if path is None:
        return MidgameSearch(size, goal, scoring, make_evaluator(size, goal, weights))
    from .patterns import make_pattern_evaluator

    return MidgameSearch(size, goal, scoring, make_pattern_evaluator(path, goal))
