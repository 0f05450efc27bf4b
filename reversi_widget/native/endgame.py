"""The compiled exact endgame solver: the final margin under perfect play on 4x4, 6x6 and 8x8.

The same scores as ``solver.final_score_function`` (classic or inverted goal, count or
tournament scoring, from the side to move's point of view), found by a fail-soft negamax
alpha-beta with principal variation search:

* with many empties, children are tried *fastest first*: the move that leaves the opponent
  the fewest replies (corners counted twice), then the fewest empty squares next to the
  mover's discs and the most discs held on and next to corners; the transposition table's
  move before all of them. Positions are stored in a transposition table kept in a numpy
  array, whose entries for the children may settle a node before any search (enhanced
  transposition cut-off), and a bound from the discs that can never flip again (stability)
  cuts off windows the position cannot reach;
* with few empties (``SHALLOW_EMPTIES``), no table and no move list: the empty squares are
  walked in quadrants with an odd number of empties first (parity), by square class
  (corners first, X squares last); the last four plies are spelled out (``few_empties``,
  ``two_empties``) down to a last empty square played without a search (``last_move``).

The search cannot read a clock: it polls ``stop[0]`` at every node with many empties and
returns at once when another thread has set it (the caller then discards the result).
``stats[0]`` counts the nodes.
"""

from __future__ import annotations

import threading

import numpy as np

from ..geometry import geometry
from ..search import FULL_WIDTH, SearchTimeout, StopSignal, final_score_function
from ..search.evaluate import masks, square_table
from . import SIZES
from .bits import ONE, ZERO, entry_point, kernel, popcount, trailing_zeros
from .moves import FULL, flips, legal
from .table import NO_VALUE, best_of, bounds, find, probe, store, upper_of

__all__ = [
    "INVERTED",
    "MAX_MOVES",
    "SHALLOW_EMPTIES",
    "TABLE_SIZE",
    "TOURNAMENT",
    "NativeEndgame",
    "final_score",
    "search",
    "stable",
]

#: Beyond every disc margin: the window is clamped to +-NO_BOUND (``search.INFINITY`` comes
#: in), it marks "no move yet", and as a table bound it means none; it fits the table's bytes
#: (offset by 128).
NO_BOUND = 100
#: Up to this many empties the table-less walk over the empty squares is used.
SHALLOW_EMPTIES = 7
#: From this many empties on, the children's table entries are looked at before searching.
ETC_EMPTIES = 15
#: Rules as bits of one int: the inverted goal, tournament scoring.
INVERTED, TOURNAMENT = 1, 2
#: The four axes, each as its (forward, backward) directions.
AXES = (("east", "west"), ("south", "north"), ("south-east", "north-west"), ("south-west", "north-east"))
#: Move slots per node in the caller's ``slots`` array (more than any position has moves).
MAX_MOVES = 64
#: Transposition table entries of the compiled solver, per board size (a power of two).
TABLE_SIZE = {4: 1 << 12, 6: 1 << 20, 8: 1 << 20}
#: The selectivity an exact search stores its bounds with (``search.FULL_WIDTH``: none).
EXACT = FULL_WIDTH


def _tables() -> dict[str, np.ndarray]:
    """Per size ``n``: the square classes in the order empties are tried (``CLASSES[n, k]``)
    and each square's class (``RANK[n, sq]``); the quadrants (``QUADRANTS[n, q]``) and each
    square's quadrant as a bit (``QUADRANT_OF[n, sq]``); the neighbours of each square
    (``AROUND[n, sq]``); the corners; the columns but the first and but the last; every line
    along each axis (``LINES[n, axis, k]``) and the squares with a neighbour off the board
    along each axis (``EDGES[n, axis]``)."""
    top = max(SIZES) + 1
    t = {
        "classes": np.zeros((top, 6), dtype=np.uint64),
        "quadrants": np.zeros((top, 4), dtype=np.uint64),
        "around": np.zeros((top, 64), dtype=np.uint64),
        "corners": np.zeros(top, dtype=np.uint64),
        "not_first_col": np.zeros(top, dtype=np.uint64),
        "not_last_col": np.zeros(top, dtype=np.uint64),
        "lines": np.zeros((top, 4, 2 * max(SIZES) - 1), dtype=np.uint64),
        "edges": np.zeros((top, 4), dtype=np.uint64),
        "quadrant_of": np.zeros((top, 64), dtype=np.int64),
        "rank": np.zeros((top, 64), dtype=np.int64),
    }
    for n in SIZES:
        m, geo, values = masks(n), geometry(n), square_table(n)
        for k, value in enumerate(sorted(set(values), reverse=True)):
            t["classes"][n, k] = sum(1 << sq for sq in range(n * n) if values[sq] == value)
            for sq in range(n * n):
                if values[sq] == value:
                    t["rank"][n, sq] = k
        t["quadrants"][n] = m.quadrants
        for q, quadrant in enumerate(m.quadrants):
            for sq in range(n * n):
                if quadrant >> sq & 1:
                    t["quadrant_of"][n, sq] = 1 << q
        t["corners"][n] = m.corners
        t["not_first_col"][n] = m.not_first_col
        t["not_last_col"][n] = m.not_last_col
        for sq in range(n * n):
            row, col = divmod(sq, n)
            t["around"][n, sq] = sum(
                1 << (r * n + c)
                for r in range(max(row - 1, 0), min(row + 2, n))
                for c in range(max(col - 1, 0), min(col + 2, n))
                if (r, c) != (row, col)
            )
        for axis, (forward, backward) in enumerate(AXES):
            lines = sorted({geo.rays[forward][sq] | geo.rays[backward][sq] | 1 << sq for sq in range(n * n)})
            t["lines"][n, axis, : len(lines)] = lines
            t["edges"][n, axis] = sum(
                1 << sq for sq in range(n * n) if not geo.rays[forward][sq] or not geo.rays[backward][sq]
            )
    return t


_t = _tables()
CLASSES, QUADRANTS, AROUND, CORNERS = _t["classes"], _t["quadrants"], _t["around"], _t["corners"]
NOT_FIRST_COL, NOT_LAST_COL, LINES, EDGES = _t["not_first_col"], _t["not_last_col"], _t["lines"], _t["edges"]
QUADRANT_OF, RANK = _t["quadrant_of"], _t["rank"]


@kernel("int64(int64, uint64, uint64, int64)", inline=True)
def final_score(n: int, p: int, o: int, rules: int) -> int:
    """The score of a finished position for the side with ``p`` (``solver.final_score_function``)."""
    pc, oc = popcount(p), popcount(o)
    margin = oc - pc if rules & INVERTED else pc - oc
    if rules & TOURNAMENT:
        if margin > 0:
            return margin + n * n - pc - oc
        if margin < 0:
            return margin - (n * n - pc - oc)
    return margin


@kernel("uint64(int64, int64, uint64)")
def axis_safe(n: int, axis: int, occupied: int) -> int:
    """Squares that cannot be flipped along one axis whatever their neighbours: those with a
    neighbour off the board on that axis, and those whose line on that axis is full."""
    safe: int = EDGES[n, axis]
    for k in range(2 * n - 1):
        line = LINES[n, axis, k]
        if occupied & line == line:
            safe |= line
    return safe


@kernel("uint64(int64, uint64, uint64)")
def stable(n: int, me: int, occupied: int) -> int:
    """Discs of ``me`` that can never flip. Along each axis such a disc cannot be flipped
    (``axis_safe``) or has a neighbour that is itself such a disc; the set is grown from
    nothing (the least such set), so every disc in it really is stable."""
    h, v = axis_safe(n, 0, occupied), axis_safe(n, 1, occupied)
    d, a = axis_safe(n, 2, occupied), axis_safe(n, 3, occupied)
    found = ZERO
    while True:
        grown = (
            me
            & (h | (found >> 1) | (found << 1))
            & (v | (found >> n) | (found << n))
            & (d | (found >> (n + 1)) | (found << (n + 1)))
            & (a | (found >> (n - 1)) | (found << (n - 1)))
        )
        if grown == found:
            return found
        found = grown


@kernel("int64(int64, uint64, uint64, int64, int64)", inline=True)
def last_move(n: int, p: int, o: int, sq: int, rules: int) -> int:
    """One empty square left: whoever can play it does (the side to move first), then the
    game is over."""
    bit = ONE << sq
    if o & AROUND[n, sq]:
        f = flips(n, sq, p, o)
        if f:
            return final_score(n, p | f | bit, o ^ f, rules)
    if p & AROUND[n, sq]:
        f = flips(n, sq, o, p)
        if f:
            return final_score(n, p ^ f, o | f | bit, rules)
    return final_score(n, p, o, rules)


@kernel("int64(int64, uint64, uint64, int64, int64, int64, int64[:])")
def two_empties(n: int, p: int, o: int, alpha: int, beta: int, rules: int, stats: np.ndarray) -> int:
    """Two empty squares: the mover's two options, else the opponent's, each ended by
    ``last_move``; no move list, no recursion."""
    stats[0] += 1
    empty = ~(p | o) & FULL[n]
    x1 = trailing_zeros(empty)
    x2 = trailing_zeros(empty & (empty - ONE))
    best = -NO_BOUND
    if o & AROUND[n, x1]:
        f = flips(n, x1, p, o)
        if f:
            best = -last_move(n, o ^ f, p | f | (ONE << x1), x2, rules)
            if best >= beta:
                return best
    if o & AROUND[n, x2]:
        f = flips(n, x2, p, o)
        if f:
            best = max(best, -last_move(n, o ^ f, p | f | (ONE << x2), x1, rules))
    if best > -NO_BOUND:
        return best
    # The mover passes: the opponent picks the lower of its options (from the mover's side).
    best = NO_BOUND
    if p & AROUND[n, x1]:
        f = flips(n, x1, o, p)
        if f:
            best = last_move(n, p ^ f, o | f | (ONE << x1), x2, rules)
            if best <= alpha:
                return best
    if p & AROUND[n, x2]:
        f = flips(n, x2, o, p)
        if f:
            best = min(best, last_move(n, p ^ f, o | f | (ONE << x2), x1, rules))
    if best < NO_BOUND:
        return best
    return final_score(n, p, o, rules)


@kernel("int64(int64, uint64, uint64, int64, int64, int64, int64[:])")
def few_empties(n: int, p: int, o: int, alpha: int, beta: int, rules: int, stats: np.ndarray) -> int:
    """Three or four empty squares: tried in parity order (a square alone in its quadrant
    first, then by class), the mover's moves, else the opponent's; no move list."""
    stats[0] += 1
    empty = ~(p | o) & FULL[n]
    parity = 0
    rest = empty
    while rest:
        parity ^= QUADRANT_OF[n, trailing_zeros(rest)]
        rest &= rest - ONE
    # The squares sorted by key, packed eight bits each into ``order`` (insertion sort).
    order = 0
    keys = 0
    count = 0
    rest = empty
    while rest:
        sq = trailing_zeros(rest)
        rest &= rest - ONE
        key = RANK[n, sq] + (0 if parity & QUADRANT_OF[n, sq] else 8)
        i = count
        while i > 0 and (keys >> (8 * (i - 1))) & 255 > key:
            i -= 1
        low = (1 << (8 * i)) - 1
        order = (order & low) | (sq << (8 * i)) | ((order & ~low) << 8)
        keys = (keys & low) | (key << (8 * i)) | ((keys & ~low) << 8)
        count += 1
    best = -NO_BOUND
    for i in range(count):
        sq = (order >> (8 * i)) & 255
        if o & AROUND[n, sq]:
            f = flips(n, sq, p, o)
            if f:
                bit = ONE << sq
                if count == 3:
                    score = -two_empties(n, o ^ f, p | f | bit, -beta, -alpha, rules, stats)
                else:
                    score = -few_empties(n, o ^ f, p | f | bit, -beta, -alpha, rules, stats)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            return best
    if best > -NO_BOUND:
        return best
    # The mover passes: the opponent moves, and minimises the mover's score.
    best = NO_BOUND
    for i in range(count):
        sq = (order >> (8 * i)) & 255
        if p & AROUND[n, sq]:
            f = flips(n, sq, o, p)
            if f:
                bit = ONE << sq
                if count == 3:
                    score = two_empties(n, p ^ f, o | f | bit, alpha, beta, rules, stats)
                else:
                    score = few_empties(n, p ^ f, o | f | bit, alpha, beta, rules, stats)
                if score < best:
                    best = score
                    if score < beta:
                        beta = score
                        if beta <= alpha:
                            return best
    if best < NO_BOUND:
        return best
    return final_score(n, p, o, rules)


@kernel("int64(int64, uint64, uint64, int64, int64, int64, int64, int64[:])")
def shallow(n: int, p: int, o: int, alpha: int, beta: int, empties: int, rules: int, stats: np.ndarray) -> int:
    """A few empty squares (at least five): alpha-beta over the empty squares in parity and
    class order, without a move list or a table."""
    stats[0] += 1
    empty = ~(p | o) & FULL[n]
    odd = ZERO
    for q in range(4):
        quadrant = QUADRANTS[n, q]
        if popcount(empty & quadrant) & 1:
            odd |= quadrant
    best = -NO_BOUND
    for phase in range(2):
        group = empty & odd if phase == 0 else empty & ~odd
        for k in range(6):
            squares = group & CLASSES[n, k]
            while squares:
                sq = trailing_zeros(squares)
                squares &= squares - ONE
                if not o & AROUND[n, sq]:
                    continue
                f = flips(n, sq, p, o)
                if not f:
                    continue
                bit = ONE << sq
                if empties == 5:
                    score = -few_empties(n, o ^ f, p | f | bit, -beta, -alpha, rules, stats)
                else:
                    score = -shallow(n, o ^ f, p | f | bit, -beta, -alpha, empties - 1, rules, stats)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            return best
    if best == -NO_BOUND:  # no move: pass, or the game is over
        if not legal(n, o, p):
            return final_score(n, p, o, rules)
        return -shallow(n, o, p, -beta, -alpha, empties, rules, stats)
    return best


# Long on purpose, for speed: a node's whole work (table probe, stability bound, ordering,
# the loop over its children) stays in this one function, with the small helpers inlined
# (``kernel(inline=True)``), so that a node makes no call but its children's.
@kernel("int64(int64, uint64, uint64, int64, int64, int64, int64, uint64[:, :], int64[:, :], int64[:], int64[:])")
def deep(
    n: int,
    p: int,
    o: int,
    alpha: int,
    beta: int,
    empties: int,
    rules: int,
    table: np.ndarray,
    slots: np.ndarray,
    stop: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Many empty squares: PVS over the moves sorted fastest first, with the table and the
    stability cut-off. Returns 0 at once once ``stop[0]`` is set."""
    if stop[0]:
        return 0
    stats[0] += 1
    moves = legal(n, p, o)
    if not moves:
        if not legal(n, o, p):
            return final_score(n, p, o, rules)
        return -deep(n, o, p, -beta, -alpha, empties, rules, table, slots, stop, stats)
    squares = n * n
    # Stability: the discs of the side whose discs lower the mover's score and that can never
    # flip bound the score from above (the same bound under both scorings).
    hurting = p if rules & INVERTED else o
    if alpha >= squares - 2 * popcount(hurting):
        upper = squares - 2 * popcount(stable(n, hurting, p | o))
        if upper <= alpha:
            return upper
    # The table (``native.table``, shared with the midgame search): its bounds may settle
    # the node, and its best move goes first.
    entry = find(table, p, o)
    first = -1
    if entry >= 0:
        data = table[entry, 2]
        first = best_of(data)
        value, alpha, beta = probe(data, alpha, beta)
        if value != NO_VALUE:
            return value
    # Fastest first: key = the opponent's replies (corners twice), then the empty squares next
    # to the mover's discs, less the mover's discs on and next to corners; the table's move
    # and a wipe-out before everything.
    corners = CORNERS[n]
    nfc, nlc, full = NOT_FIRST_COL[n], NOT_LAST_COL[n], FULL[n]
    count = 0
    rest = moves
    while rest:
        sq = trailing_zeros(rest)
        bit = ONE << sq
        rest ^= bit
        if sq == first:
            key = -(1 << 20)
        else:
            f = flips(n, sq, p, o)
            mine, theirs = p | f | bit, o ^ f
            if not theirs:
                key = -(1 << 19)
            else:
                if empties >= ETC_EMPTIES:
                    # Enhanced transposition cut-off: a child already known to be bad enough
                    # for the opponent settles this node without a search.
                    child = find(table, theirs, mine)
                    if child >= 0:
                        child_upper = upper_of(table[child, 2])
                        if -child_upper >= beta:
                            return -child_upper
                reply = legal(n, theirs, mine)
                x = mine | ((mine << 1) & nfc) | ((mine >> 1) & nlc)
                near = (x | (x << n) | (x >> n)) & full & ~(mine | theirs)
                held = mine & corners
                held |= ((held << 1) & nfc) | ((held >> 1) & nlc) | (held << n) | (held >> n)
                key = (popcount(reply) + popcount(reply & corners)) * 64 + popcount(near) - 8 * popcount(held & mine)
        # Insertion sort as the moves come.
        i = count
        while i > 0 and slots[empties, i - 1] >> 6 > key:
            slots[empties, i] = slots[empties, i - 1]
            i -= 1
        slots[empties, i] = key * 64 + sq
        count += 1
    alpha0 = alpha
    best = -NO_BOUND
    best_sq = -1
    for i in range(count):
        sq = slots[empties, i] & 63
        bit = ONE << sq
        f = flips(n, sq, p, o)
        mine, theirs = p | f | bit, o ^ f
        if empties - 1 <= SHALLOW_EMPTIES:
            if i == 0:
                score = -shallow(n, theirs, mine, -beta, -alpha, empties - 1, rules, stats)
            else:
                score = -shallow(n, theirs, mine, -alpha - 1, -alpha, empties - 1, rules, stats)
                if alpha < score < beta:
                    score = -shallow(n, theirs, mine, -beta, -score, empties - 1, rules, stats)
        elif i == 0:
            score = -deep(n, theirs, mine, -beta, -alpha, empties - 1, rules, table, slots, stop, stats)
        else:
            score = -deep(n, theirs, mine, -alpha - 1, -alpha, empties - 1, rules, table, slots, stop, stats)
            if alpha < score < beta and not stop[0]:
                score = -deep(n, theirs, mine, -beta, -score, empties - 1, rules, table, slots, stop, stats)
        if stop[0]:
            return 0
        if score > best:
            best = score
            best_sq = sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    lower, upper = bounds(best, alpha0, beta)
    store(table, p, o, lower, upper, empties, best_sq, EXACT, 0)
    return best


@kernel("int64(int64, uint64, uint64, int64, int64, int64, uint64[:, :], int64[:, :], int64[:], int64[:])")
def search(
    n: int,
    p: int,
    o: int,
    alpha: int,
    beta: int,
    rules: int,
    table: np.ndarray,
    slots: np.ndarray,
    stop: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The exact score of ``p`` to move against ``o`` if it lies inside (alpha, beta), else a
    bound on the right side of it (fail-soft); meaningless if ``stop[0]`` got set."""
    alpha = max(alpha, -NO_BOUND)
    beta = min(beta, NO_BOUND)
    empty = ~(p | o) & FULL[n]
    empties = popcount(empty)
    if empties == 0:
        return final_score(n, p, o, rules)
    if empties == 1:
        return last_move(n, p, o, trailing_zeros(empty), rules)
    if empties == 2:
        return two_empties(n, p, o, alpha, beta, rules, stats)
    if empties <= 4:
        return few_empties(n, p, o, alpha, beta, rules, stats)
    if empties <= SHALLOW_EMPTIES:
        return shallow(n, p, o, alpha, beta, empties, rules, stats)
    return deep(n, p, o, alpha, beta, empties, rules, table, slots, stop, stats)


class NativeEndgame:
    """The compiled ``search.endgame.Endgame`` for one size, goal and scoring, with its table:
    ``search`` calls the kernel, which polls the stop signal's flag instead of a clock."""

    compiled = True

    def __init__(
        self, size: int, goal: str = "classic", scoring: str = "count", stop: StopSignal | None = None
    ) -> None:
        if size not in SIZES:
            raise ValueError(f"the compiled solver takes boards of {SIZES}, not {size}x{size}")
        self.size = size
        self.goal = goal
        self.scoring = scoring
        self.nodes = 0
        self.stop = StopSignal() if stop is None else stop
        geo = geometry(size)
        self.final = final_score_function(size, goal, scoring)
        self.moves = geo.moves
        self.flips = geo.flips
        self.rules = (INVERTED if goal == "inverted" else 0) | (TOURNAMENT if scoring == "tournament" else 0)
        self.table = np.zeros((TABLE_SIZE[size], 3), dtype=np.uint64)
        self.slots = np.zeros((size * size + 1, MAX_MOVES), dtype=np.int64)
        self.stats = np.zeros(1, dtype=np.int64)
        self._kernel = entry_point(search)
        # One search at a time per object: the table and the move slots are shared.
        self._lock = threading.Lock()

    @property
    def deadline(self) -> float | None:
        return self.stop.deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self.stop.set_deadline(value)

    def search(self, p: int, o: int, alpha: int, beta: int) -> int:
        signal = self.stop
        if signal.expired():
            raise SearchTimeout
        flag = signal.flag
        with self._lock:
            try:
                score = int(
                    self._kernel(self.size, p, o, alpha, beta, self.rules, self.table, self.slots, flag, self.stats)
                )
            finally:
                self.nodes += int(self.stats[0])
                self.stats[0] = 0
            if flag[0]:
                raise SearchTimeout
        return score

    def best_line(self, p: int, o: int, first: int | None = None, limit: int = 64) -> list[int | None]:
        """A principal line from ``(p, o)`` (``search.endgame.best_line``)."""
        from ..search.endgame import best_line

        return best_line(self, p, o, first, limit)
