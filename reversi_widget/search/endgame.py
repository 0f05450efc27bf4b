"""The exact endgame search: the final margin under perfect play, for the solver, the
analysis, the review, the puzzles and the engine.

Scores are *final disc margins from the side to move's point of view*, positive = good for
the side to move, under the board's goal and scoring (``search.final_score_function``).

``Endgame`` is what every exact search offers; ``EndgameSearch`` is the pure-Python one, for
every size, and ``native.endgame.NativeEndgame`` its compiled twin for 4x4, 6x6 and 8x8, with
the same scores and best moves (``tests/test_native_solver.py``). ``make_endgame`` is the one
place an exact search is made, and the one that picks the path.

The search is a negamax alpha-beta (principal variation search) on raw bitboards. Far from
the end, moves are tried *fastest first* (the reply that leaves the opponent the fewest
moves) with a transposition table; in the last few empties it walks a short list of empty
squares, trying first those in a quadrant with an odd number of empties (parity) and corners
before X squares, and finishes the last empty square without generating moves at all. The
compiled twin does more: a bound from the discs that can never flip (stability), children's
table entries that settle a node before it is searched (enhanced transposition cut-off), and
the last four plies written out.
"""

from __future__ import annotations

from typing import Protocol

from .. import native
from ..geometry import geometry, squares_of
from . import CLOCK_EVERY, INFINITY, SearchTimeout, StopSignal, bounds, final_score_function, probe
from .evaluate import masks, square_table

__all__ = [
    "SHALLOW_EMPTIES",
    "STATIC_ORDER_EMPTIES",
    "TT_EMPTIES",
    "TT_LIMIT",
    "Endgame",
    "EndgameSearch",
    "best_line",
    "compiled_endgame_ready",
    "make_endgame",
    "static_rank",
]

#: Below this many empties, the list-walking search without move generation is used (the
#: compiled solver has its own threshold, ``native.endgame.SHALLOW_EMPTIES``, tuned to its speed).
SHALLOW_EMPTIES = 6
#: Up to this many empties, children are tried in static order rather than fastest first.
STATIC_ORDER_EMPTIES = 5
#: From this many empties on, positions are stored in the transposition table.
TT_EMPTIES = 7
#: The table is emptied when it grows past this many positions (memory stays bounded).
TT_LIMIT = 300_000


def static_rank(size: int) -> list[int]:
    """Per square, its place in the static order of squares: corners first, X squares last
    (from the square table)."""
    values = square_table(size)
    priority = sorted(range(size * size), key=lambda sq: -values[sq])
    rank = [0] * (size * size)
    for position, sq in enumerate(priority):
        rank[sq] = position
    return rank


class Endgame(Protocol):
    """An exact search of one size, goal and scoring, with its transposition table (kept as
    long as the object, so repeated searches share it).

    ``search(p, o, alpha, beta)`` returns the exact score if it lies inside (alpha, beta), else
    a bound on the right side of it (fail-soft). It raises ``SearchTimeout`` once its ``stop``
    signal says so: past ``deadline`` (a ``time.perf_counter`` value), or once ``stop.halt()``
    is called (from any thread). An engine passes its own ``stop`` signal, so that one
    ``halt()`` ends whichever of its searches runs. ``nodes`` counts the positions searched.
    """

    size: int
    goal: str
    scoring: str
    nodes: int
    stop: StopSignal
    #: whether it runs compiled
    compiled: bool

    def search(self, p: int, o: int, alpha: int, beta: int) -> int: ...

    def final(self, p: int, o: int) -> int:
        """The score of a finished position (``search.final_score_function``)."""
        ...

    def moves(self, p: int, o: int) -> int:
        """The legal moves of ``p`` (``Geometry.moves``)."""
        ...

    def flips(self, p: int, o: int, sq: int) -> int:
        """The discs a move of ``p`` on ``sq`` flips (``Geometry.flips``)."""
        ...

    @property
    def deadline(self) -> float | None: ...

    @deadline.setter
    def deadline(self, value: float | None) -> None: ...

    def best_line(self, p: int, o: int, first: int | None = None, limit: int = 64) -> list[int | None]: ...


class EndgameSearch:
    """The pure-Python ``Endgame``, for every size."""

    compiled = False

    def __init__(
        self, size: int, goal: str = "classic", scoring: str = "count", stop: StopSignal | None = None
    ) -> None:
        self.size = size
        self.goal = goal
        self.scoring = scoring
        self.nodes = 0
        self.stop = StopSignal() if stop is None else stop
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._rank = static_rank(size)
        self._build()

    @property
    def deadline(self) -> float | None:
        return self.stop.deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self.stop.set_deadline(value)

    def best_line(self, p: int, o: int, first: int | None = None, limit: int = 64) -> list[int | None]:
        """A principal line from ``(p, o)`` (see ``best_line``)."""
        return best_line(self, p, o, first, limit)

    # Long on purpose, for speed: the searches are closures over the locals below (a local
    # name is read faster than an attribute or a global in CPython), so they are written out
    # here, in one function, with the node's whole work inside each of them.
    def _build(self) -> None:
        geo = geometry(self.size)
        moves, flips = geo.moves, geo.flips
        final = final_score_function(self.size, self.goal, self.scoring)
        m = masks(self.size)
        corners = m.corners
        rank = self._rank
        quadrant_bit = [0] * (self.size * self.size)
        for index, quadrant in enumerate(m.quadrants):
            for sq in range(self.size * self.size):
                if quadrant >> sq & 1:
                    quadrant_bit[sq] = 1 << index
        # The 8 neighbours of each square: a move must touch an opponent disc (R12), so a
        # square with none around it is skipped without computing its flips.
        n = self.size
        around = []
        for sq in range(n * n):
            row, col = divmod(sq, n)
            mask = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= row + dr < n and 0 <= col + dc < n:
                        mask |= 1 << ((row + dr) * n + col + dc)
            around.append(mask)
        table = self.table
        owner = self
        count = 0  # nodes since the last clock check
        shallow_limit = SHALLOW_EMPTIES
        static_limit = STATIC_ORDER_EMPTIES
        clock_every = CLOCK_EVERY
        nfc, nlc = m.not_first_col, m.not_last_col
        full = geo.full
        tt_min = TT_EMPTIES

        def tick() -> None:
            nonlocal count
            owner.nodes += count
            count = 0
            if owner.stop.expired():
                raise SearchTimeout

        def last(p: int, o: int, sq: int) -> int:
            """One empty square left: play it if either side can, then count."""
            bit = 1 << sq
            near = around[sq]
            if o & near:
                f = flips(p, o, sq)
                if f:
                    return final(p | f | bit, o ^ f)
            if p & near:
                f = flips(o, p, sq)
                if f:
                    return final(p ^ f, o | f | bit)
            return final(p, o)

        def shallow(p: int, o: int, alpha: int, beta: int, empties: list[int], passed: bool) -> int:
            """Few empties: walk the list of empty squares, odd quadrants first."""
            nonlocal count
            count += 1
            if count >= clock_every:
                tick()
            parity = 0
            for sq in empties:
                parity ^= quadrant_bit[sq]
            if parity:
                ordered = [sq for sq in empties if parity & quadrant_bit[sq]]
                ordered += [sq for sq in empties if not parity & quadrant_bit[sq]]
            else:
                ordered = empties
            best = -INFINITY
            two = len(empties) == 2
            for sq in ordered:
                if not o & around[sq]:
                    continue
                f = flips(p, o, sq)
                if not f:
                    continue
                bit = 1 << sq
                if two:
                    other = empties[0] if empties[1] == sq else empties[1]
                    score = -last(o ^ f, p | f | bit, other)
                else:
                    rest = [e for e in empties if e != sq]
                    score = -shallow(o ^ f, p | f | bit, -beta, -alpha, rest, False)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            return best
            if best == -INFINITY:  # no move
                if passed:
                    return final(p, o)
                return -shallow(o, p, -beta, -alpha, empties, True)
            return best

        def deep(p: int, o: int, alpha: int, beta: int, n_empty: int, legal: int) -> int:
            """Many empties: fastest-first ordering, PVS, transposition table."""
            nonlocal count
            count += 1
            if count >= clock_every:
                tick()
            if not legal:
                legal_o = moves(o, p)
                if not legal_o:
                    return final(p, o)
                return -deep(o, p, -beta, -alpha, n_empty, legal_o)
            key = (p, o)
            first = -1
            use_table = n_empty >= tt_min
            if use_table:
                entry = table.get(key)
                if entry is not None:
                    lower, upper, first = entry
                    value, alpha, beta = probe(lower, upper, alpha, beta)
                    if value != -INFINITY:
                        return value
            alpha0, beta0 = alpha, beta
            child_empty = n_empty - 1
            best = -INFINITY
            best_sq = -1
            if child_empty <= static_limit:
                # The children are solved by the list walk: order by the static priority
                # only, since counting the opponent's moves would cost more than it saves.
                empties = _empties_of(p | o)
                if first >= 0:
                    empties.remove(first)
                    empties.insert(0, first)
                searched = False
                for sq in empties:
                    bit = 1 << sq
                    if not legal & bit:
                        continue
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    rest_list = [e for e in empties if e != sq]
                    if not searched:
                        score = -shallow(no, np_, -beta, -alpha, rest_list, False)
                        searched = True
                    else:
                        score = -shallow(no, np_, -alpha - 1, -alpha, rest_list, False)
                        if alpha < score < beta:
                            score = -shallow(no, np_, -beta, -score, rest_list, False)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            else:
                # The table's best move first, searched before the others are even
                # generated: when it cuts off, their flips and replies are never computed.
                searched = False
                rest = legal
                if first >= 0 and legal >> first & 1 and child_empty > shallow_limit:
                    bit = 1 << first
                    f = flips(p, o, first)
                    np_, no = p | f | bit, o ^ f
                    best = -deep(no, np_, -beta, -alpha, child_empty, moves(no, np_))
                    best_sq = first
                    searched = True
                    if best > alpha:
                        alpha = best
                    rest ^= bit
                if alpha < beta:
                    # Then fastest first: the move that leaves the opponent the fewest
                    # replies, then the fewest empty squares next to the mover's discs
                    # (the opponent's replies to come), corners first.
                    children = []
                    while rest:
                        bit = rest & -rest
                        rest ^= bit
                        sq = bit.bit_length() - 1
                        f = flips(p, o, sq)
                        np_ = p | f | bit
                        no = o ^ f
                        reply = moves(no, np_)
                        h = np_ | ((np_ << 1) & nfc) | ((np_ >> 1) & nlc)
                        pm = ((h | (h << n) | (h >> n)) & ~(np_ | no) & full).bit_count()
                        order = -1000 if sq == first else reply.bit_count() * 8 + pm - (bit & corners != 0) * 6
                        children.append((order, sq, no, np_, reply))
                    children.sort()
                    if child_empty <= shallow_limit:
                        empties = _empties_of(p | o)
                    for _, sq, no, np_, reply in children:
                        if child_empty <= shallow_limit:
                            rest_list = [e for e in empties if e != sq]
                            if not searched:
                                score = -shallow(no, np_, -beta, -alpha, rest_list, False)
                                searched = True
                            else:
                                score = -shallow(no, np_, -alpha - 1, -alpha, rest_list, False)
                                if alpha < score < beta:
                                    score = -shallow(no, np_, -beta, -score, rest_list, False)
                        elif not searched:
                            score = -deep(no, np_, -beta, -alpha, child_empty, reply)
                            searched = True
                        else:
                            score = -deep(no, np_, -alpha - 1, -alpha, child_empty, reply)
                            if alpha < score < beta:
                                score = -deep(no, np_, -beta, -score, child_empty, reply)
                        if score > best:
                            best, best_sq = score, sq
                            if score > alpha:
                                alpha = score
                                if alpha >= beta:
                                    break
            if use_table:
                if len(table) > TT_LIMIT:
                    table.clear()
                lower, upper = bounds(best, alpha0, beta0)
                table[key] = (lower, upper, best_sq)
            return best

        def _empties_of(occupied: int) -> list[int]:
            """The empty squares in static priority order."""
            out = squares_of(full & ~occupied)
            out.sort(key=rank.__getitem__)
            return out

        def search(p: int, o: int, alpha: int, beta: int) -> int:
            empties = _empties_of(p | o)
            n_empty = len(empties)
            try:
                if n_empty == 0:
                    return final(p, o)
                if n_empty == 1:
                    return last(p, o, empties[0])
                if n_empty <= shallow_limit:
                    return shallow(p, o, alpha, beta, empties, False)
                return deep(p, o, alpha, beta, n_empty, moves(p, o))
            finally:
                nonlocal count
                owner.nodes += count
                count = 0

        self.search = search
        self.final = final
        self.moves = moves
        self.flips = flips


def best_line(search: Endgame, p: int, o: int, first: int | None = None, limit: int = 64) -> list[int | None]:
    """A principal line from ``(p, o)``: squares (``None`` for a pass), each move one that
    keeps the exact score, found by re-searching (cheap once the table is filled)."""
    line: list[int | None] = []
    moves, flips, solve = search.moves, search.flips, search.search
    rank = static_rank(search.size)
    while len(line) < limit:
        legal = moves(p, o)
        if not legal:
            if not moves(o, p):
                break
            line.append(None)
            p, o = o, p
            continue
        target = solve(p, o, -INFINITY, INFINITY)
        chosen = -1
        candidates = squares_of(legal)
        if first is not None and first in candidates:
            candidates = [first]
            first = None
        else:
            candidates.sort(key=rank.__getitem__)
        for sq in candidates:
            f = flips(p, o, sq)
            np_, no = p | f | (1 << sq), o ^ f
            if len(candidates) == 1 or -solve(no, np_, -target - 1, -target + 1) == target:
                chosen = sq
                break
        if chosen < 0:  # cannot happen with an exact search; stop rather than loop
            break
        line.append(chosen)
        f = flips(p, o, chosen)
        p, o = o ^ f, p | f | (1 << chosen)
    return line


def compiled_endgame_ready(size: int) -> bool:
    """Whether the compiled exact search takes this size now (asking starts the compilation
    in the background when it has not started yet)."""
    return size in native.SIZES and native.ready("endgame")


def make_endgame(
    size: int,
    goal: str = "classic",
    scoring: str = "count",
    stop: StopSignal | None = None,
    compiled: bool | None = None,
) -> Endgame:
    """An exact search of one variant: compiled when ``compiled`` (default: when it is ready
    for this size), else pure Python."""
    if compiled is None:
        compiled = compiled_endgame_ready(size)
    if compiled:
        from ..native.endgame import NativeEndgame

        return NativeEndgame(size, goal, scoring, stop)
    return EndgameSearch(size, goal, scoring, stop)
