"""The compiled midgame search for 4x4, 6x6 and 8x8: ``search.midgame.MidgameSearch``, many
times faster, and more.

At full width the same search as the pure one, with the same scores (only the node count
differs: a leaf with moves is evaluated in its parent's loop, so a leaf is never searched
twice by the principal variation search's second look): a fail-soft negamax alpha-beta with
principal variation search, a pass that costs no depth, the evaluation at depth 0 (the
learned patterns of ``native.patterns`` when the search is made with them, else the
hand-made weights of ``native.evaluate``; equal to the pure evaluation either way), a
finished game scored as its exact margin beyond ``search.WIN``. With the learned patterns,
every ply keeps its row of pattern features (``features``), written from its parent's row as
each move is made (``patterns.played``), so a leaf costs a look-up an image rather than
reading the board afresh; the hand-made evaluation keeps none. With a fresh table both
return the same score at every depth. Only the table differs: here a numpy array of
``TABLE_SIZE[n]`` slots in pairs (the second slot of a pair takes what the first cannot),
replacing entries of earlier searches first, then shallower ones.

Move ordering: the table's move first, then (above depth 1) the move that leaves the
opponent the fewest replies, corners before other squares, good squares before bad ones.

What the pure search does not do (so only full-width scores are compared with it): probable
cuts (Multi-ProbCut, ``search.probcut``) at a selectivity below ``FULL_WIDTH``, where a
calibration exists; from ``SORT_SEARCH_DEPTH`` on, a shallow search of each move to order
them; and a search to the end handed to the compiled exact solver even when selective, from
``SELECTIVE_EXACT_EMPTIES`` down.

The search cannot read a clock: it polls ``stop[0]`` at every node and returns at once
when another thread has set it (``search.StopSignal``: ``Engine.stop`` or the deadline's
alarm); the caller then discards the result. ``stats[0]`` counts the nodes.
"""

from __future__ import annotations

import numpy as np

from ..geometry import geometry
from ..search import FULL_WIDTH, INFINITY, WIN, SearchTimeout, StopSignal, exact_score
from ..search import margin_floor as search_margin_floor
from ..search.evaluate import Weights, default_weights, square_table, weight_table
from ..search.probcut import Calibration, cut_rows
from . import SIZES
from .bits import ONE, ZERO, kernel, popcount, trailing_zeros, unsigned
from .endgame import INVERTED, MAX_MOVES, TOURNAMENT, final_score
from .endgame import search as exact_search
from .evaluate import hand_weighted, weight_array
from .moves import FULL, flips, legal
from .patterns import IMAGES, NO_PATTERNS, PatternArrays, feature_score, features_of, passed, played
from .table import (
    GENERATIONS,
    NO_VALUE,
    best_of,
    bounds,
    depth_of,
    find,
    lower_of,
    probe,
    selectivity_of,
    store,
    table_move,
    upper_of,
)

__all__ = [
    "SELECTIVITY_T",
    "NativeMidgame",
    "negamax",
]

#: Transposition table slots per board size (a power of two; three uint64 a slot).
TABLE_SIZE = {4: 1 << 12, 6: 1 << 18, 8: 1 << 20}
#: ... and of the exact solver's table that searches to the end hand over to.
EXACT_TABLE_SIZE = {4: 1 << 10, 6: 1 << 16, 8: 1 << 18}
#: The deepest a search goes below its root, in plies, passes included (probable cuts'
#: shallow searches start again at their node's ply).
MAX_PLY = 130
#: Selectivity: a probable cut needs the deep score beyond the window by this many spreads
#: (level 0: 1.1, cut when about 73% sure ... level 4: 3.3, 99.9%); ``FULL_WIDTH`` makes none.
SELECTIVITY_T = np.array([1.1, 1.5, 2.0, 2.6, 3.3])
assert len(SELECTIVITY_T) == FULL_WIDTH
#: The shallowest node where a probable cut is tried.
MPC_MIN_DEPTH = 3
#: From this depth on, a node orders its moves by a shallow search of each (``sort_depth``),
#: plus ``ORDER_MOBILITY`` centi-discs for each reply it leaves the opponent.
SORT_SEARCH_DEPTH = 9
ORDER_MOBILITY = 400
#: A search to the end hands over to the exact solver from this many empties down, even a
#: selective one (below, its probable cuts save less than they cost).
SELECTIVE_EXACT_EMPTIES = 10


def _tables() -> tuple[np.ndarray, np.ndarray]:
    """Per size, ``evaluation.square_table`` (``VALUES[n, sq]``) and the corners, for ordering
    moves."""
    values = np.zeros((max(SIZES) + 1, 64), dtype=np.int64)
    corners = np.zeros(max(SIZES) + 1, dtype=np.uint64)
    for n in SIZES:
        values[n, : n * n] = square_table(n)
        corners[n] = geometry(n).corners
    return values, corners


VALUES, CORNERS = _tables()


#: ``search.exact_score``: the search score of a final disc margin (the pure function, compiled).
exact_value = kernel("int64(int64)", inline=True)(exact_score)


@kernel("int64(int64, uint64, uint64, int64)", inline=True)
def finished(n: int, p: int, o: int, rules: int) -> int:
    """``search.exact_score`` of a finished position."""
    return exact_value(final_score(n, p, o, rules))


#: ``search.margin_floor``: the largest final margin whose search score is at most a score.
margin_floor = kernel("int64(int64)", inline=True)(search_margin_floor)


@kernel("int64(int64)", inline=True)
def margin_ceil(score: int) -> int:
    """The smallest final margin whose search score is at least ``score``."""
    return -margin_floor(-score)


@kernel("int64(int64)", inline=True)
def centi_discs(score: int) -> int:
    """A search score as centi-discs of margin: a proven result loses its ``WIN`` offset."""
    if score >= WIN:
        return score - WIN
    if score <= -WIN:
        return score + WIN
    return score


@kernel("int64(int64, uint64, uint64, uint64, int64, int64[:, :], int16[:, :], int32[:, :], int32[:, :])", inline=True)
def leaf_value(
    n: int,
    p: int,
    o: int,
    legal_p: int,
    ply: int,
    weights: np.ndarray,
    pattern_tables: np.ndarray,
    pattern_extras: np.ndarray,
    features: np.ndarray,
) -> int:
    """The evaluation of ``p`` to move (``legal_p`` its moves) at ``ply``: the learned patterns'
    (from that ply's features) when ``pattern_tables`` is not empty, else the hand-made one."""
    if pattern_tables.shape[0]:
        return feature_score(p, o, legal_p, ply, features, pattern_tables, pattern_extras)
    return hand_weighted(n, p, o, legal_p, weights)


SIGNATURE = (
    "int64(int64, uint64, uint64, int64, int64, int64, uint64, int64, int64, int64, int64,"
    " int64[:, :], int16[:, :], int32[:, :], int32[:, :], float64[:, :, :],"
    " uint64[:, :], int64[:, :], uint64[:, :], uint64[:, :], int64[:, :], int64[:], int64[:])"
)


# Long on purpose, for speed: a node's whole work (table probe, probable cut, move ordering,
# the loop over its children) stays in this one function, with the small helpers inlined
# (``kernel(inline=True)``), so that a node makes no call but its children's.
@kernel(SIGNATURE)
def negamax(
    n: int,
    p: int,
    o: int,
    depth: int,
    alpha: int,
    beta: int,
    legal_p: int,
    ply: int,
    rules: int,
    generation: int,
    sel: int,
    weights: np.ndarray,
    pattern_tables: np.ndarray,
    pattern_extras: np.ndarray,
    features: np.ndarray,
    cuts: np.ndarray,
    table: np.ndarray,
    slots: np.ndarray,
    boards: np.ndarray,
    exact_table: np.ndarray,
    exact_slots: np.ndarray,
    stop: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The fail-soft score of ``p`` to move (``legal_p`` its moves) searched ``depth`` plies;
    meaningless if ``stop[0]`` got set. ``ply`` is the distance from the root (the row of
    ``slots`` and ``boards`` where this node sorts its moves). ``weights`` (hand-made) or
    ``pattern_tables`` (``PatternArrays.by_parity``) and ``pattern_extras`` (learned, when not
    empty) evaluate the leaves; with the learned ones, row ``ply`` of ``features`` holds this
    node's pattern features (the root's side to move as digit 1), and the node writes row
    ``ply + 1`` before each child it searches.

    ``sel`` is the selectivity (``FULL_WIDTH``: none): below it, a node whose shallow search
    predicts, by ``cuts``, a result safely outside the window returns
    without searching its moves. A depth that reaches the end is exact, and handed to the
    exact solver (``exact_table``, ``exact_slots``) once probable cuts no longer pay.
    ``stats[0]`` counts nodes; ``stats[1]`` the uses of a probable result where it could
    make a proven score wrong (a selective cut at the end, a selective bound near a proof):
    while it stays 0, every proven score is exact."""
    stats[0] += 1
    if stop[0]:
        return 0
    if legal_p == ZERO:
        legal_o = legal(n, o, p)
        if legal_o == ZERO:
            return finished(n, p, o, rules)
        if pattern_tables.shape[0]:
            passed(features, ply)
        return -negamax(
            n, o, p, depth, -beta, -alpha, legal_o, ply + 1, rules, generation, sel,
            weights, pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table, exact_slots,
            stop, stats,
        )  # fmt: skip
    if depth <= 0:
        return leaf_value(n, p, o, legal_p, ply, weights, pattern_tables, pattern_extras, features)
    empties = popcount(FULL[n] & ~(p | o))
    if depth >= empties:
        depth = empties  # every line ends: the search is exact (but for probable cuts)
        if sel >= FULL_WIDTH or empties <= SELECTIVE_EXACT_EMPTIES:
            margin = exact_search(
                n, p, o, margin_floor(alpha), margin_ceil(beta), rules, exact_table, exact_slots, stop, stats
            )
            return exact_value(margin)
    entry = find(table, p, o)
    first = -1
    if entry >= 0:
        data = table[entry, 2]
        first = best_of(data)
        entry_sel = selectivity_of(data)
        if depth_of(data) >= depth and entry_sel >= sel:
            if entry_sel < FULL_WIDTH and (
                alpha < -WIN or beta > WIN or lower_of(data) >= WIN or upper_of(data) <= -WIN
            ):
                stats[1] += 1
            value, alpha, beta = probe(data, alpha, beta)
            if value != NO_VALUE:
                return value
    # Multi-ProbCut (written out here: numba compiles no mutual recursion). ``cuts[empties,
    # depth]`` holds (shallow depth, slope, intercept, spread): the deep score is about
    # ``slope * shallow + intercept``, give or take ``spread`` centi-discs (one standard
    # deviation), as fitted on searched positions (``search.probcut``). A shallow null-window
    # search asks whether the shallow score passes the bound that puts the deep one beyond
    # ``beta`` (or ``alpha``) by ``SELECTIVITY_T[sel]`` spreads; if so, the node returns that
    # bound unsearched. At the end the prediction is of the final margin, so the window's
    # proven scores are read as margins; elsewhere the window must hold estimates only, so
    # that no proven score ever comes from a cut.
    if sel < FULL_WIDTH and depth >= MPC_MIN_DEPTH and cuts[empties, depth, 3] > 0.0:
        shallow = int(cuts[empties, depth, 0])
        slope, intercept = cuts[empties, depth, 1], cuts[empties, depth, 2]
        margin = SELECTIVITY_T[sel] * cuts[empties, depth, 3]
        at_end = depth >= empties
        if at_end or (alpha > -WIN and beta < WIN):
            high = 100.0 * margin_ceil(beta) - 50.0 if at_end else float(beta)
            low = 100.0 * margin_floor(alpha) + 50.0 if at_end else float(alpha)
            bound = int(np.ceil((high + margin - intercept) / slope))
            if -WIN < bound < WIN:
                score = negamax(
                    n, p, o, shallow, bound - 1, bound, legal_p, ply, rules, generation, sel, weights,
                    pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table, exact_slots,
                    stop, stats,
                )  # fmt: skip
                if stop[0]:
                    return 0
                if centi_discs(score) >= bound:
                    if at_end:
                        stats[1] += 1
                    return beta
            bound = int(np.floor((low - margin - intercept) / slope))
            if -WIN < bound < WIN:
                score = negamax(
                    n, p, o, shallow, bound, bound + 1, legal_p, ply, rules, generation, sel, weights,
                    pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table, exact_slots,
                    stop, stats,
                )  # fmt: skip
                if stop[0]:
                    return 0
                if centi_discs(score) <= bound:
                    if at_end:
                        stats[1] += 1
                    return alpha
        if first < 0:
            first = table_move(p, o, table)
    alpha0, beta0 = alpha, beta
    learned = pattern_tables.shape[0] > 0
    # The moves, best guess first: (order, square) in this ply's row of ``slots``, and above
    # depth 1 the flips and the replies worked out for the order in its row of ``boards``.
    row = slots[ply]
    after = boards[ply]
    count = 0
    rest = legal_p
    corners = CORNERS[n]
    while rest:
        sq = trailing_zeros(rest)
        bit = ONE << unsigned(sq)
        rest ^= bit
        f = reply = ZERO
        if depth == 1:
            order = -1_000_000_000 if sq == first else -VALUES[n, sq]
        else:
            f = flips(n, sq, p, o)
            reply = legal(n, o ^ f, p | f | bit)
            if sq == first:
                order = -1_000_000_000
            elif depth >= SORT_SEARCH_DEPTH:
                # Deep enough that a shallow look at each reply pays: the opponent's score
                # after the move, searched a little (lower first), and its replies.
                look = min(6, max(0, (depth - 15) // 3))
                mine, theirs = p | f | bit, o ^ f
                if learned:
                    played(features, ply, sq, f)
                value = -negamax(
                    n, theirs, mine, look, -beta, -alpha, reply, ply + 1, rules, generation, sel,
                    weights, pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table,
                    exact_slots, stop, stats,
                )  # fmt: skip
                order = ORDER_MOBILITY * popcount(reply) - value
            else:
                order = popcount(reply) * 100 - VALUES[n, sq] - (1000 if bit & corners else 0)
        i = count
        while i > 0 and row[2 * i - 2] > order:
            row[2 * i] = row[2 * i - 2]
            row[2 * i + 1] = row[2 * i - 1]
            after[2 * i] = after[2 * i - 2]
            after[2 * i + 1] = after[2 * i - 1]
            i -= 1
        row[2 * i] = order
        row[2 * i + 1] = sq
        after[2 * i] = f
        after[2 * i + 1] = reply
        count += 1
    best = -INFINITY
    best_sq = -1
    for i in range(count):
        sq = row[2 * i + 1]
        bit = ONE << unsigned(sq)
        if depth == 1:
            f = flips(n, sq, p, o)
            mine, theirs = p | f | bit, o ^ f
            reply = legal(n, theirs, mine)
        else:
            f, reply = after[2 * i], after[2 * i + 1]
            mine, theirs = p | f | bit, o ^ f
        if learned:
            played(features, ply, sq, f)
        if depth == 1 and reply != ZERO:
            # A leaf with moves, evaluated here as the child's call would (a leaf's value does
            # not depend on the window): a call with every array costs a sixth of a leaf.
            stats[0] += 1
            if stop[0]:
                return 0
            score = -leaf_value(n, theirs, mine, reply, ply + 1, weights, pattern_tables, pattern_extras, features)
        elif i == 0:
            score = -negamax(
                n, theirs, mine, depth - 1, -beta, -alpha, reply, ply + 1, rules, generation, sel,
                weights, pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table, exact_slots,
                stop, stats,
            )  # fmt: skip
        else:
            score = -negamax(
                n, theirs, mine, depth - 1, -alpha - 1, -alpha, reply, ply + 1, rules, generation, sel,
                weights, pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table, exact_slots,
                stop, stats,
            )  # fmt: skip
            if alpha < score < beta:
                score = -negamax(
                    n, theirs, mine, depth - 1, -beta, -score, reply, ply + 1, rules, generation, sel,
                    weights, pattern_tables, pattern_extras, features, cuts, table, slots, boards, exact_table,
                    exact_slots, stop, stats,
                )  # fmt: skip
        if stop[0]:
            return 0
        if score > best:
            best, best_sq = score, sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    lower, upper = bounds(best, alpha0, beta0)
    store(table, p, o, lower, upper, depth, best_sq, sel, generation)
    return best


class NativeMidgame:
    """The compiled ``engine.Midgame`` for one size, goal, scoring and evaluation, with its
    table (kept between searches, as the pure one keeps its dict). The evaluation is the
    learned one of ``patterns`` (8x8 only) when given, else the hand-made one with
    ``weights`` (default: the goal's own)."""

    def __init__(
        self,
        size: int,
        goal: str,
        scoring: str,
        weights: Weights | None = None,
        patterns: PatternArrays | None = None,
        calibration: Calibration | None = None,
    ) -> None:
        if size not in SIZES:
            raise ValueError(f"the compiled search takes boards of {SIZES}, not {size}x{size}")
        if patterns is not None and size != 8:
            raise ValueError(f"learned pattern weights evaluate 8x8 boards only, not {size}x{size}")
        if patterns is not None and weights is not None:
            raise ValueError("a search evaluates with learned patterns or with hand-made weights, not both")
        self.size = size
        self.stop = StopSignal()
        self.rules = (INVERTED if goal == "inverted" else 0) | (TOURNAMENT if scoring == "tournament" else 0)
        self.weights = weight_array(weight_table(size, default_weights(goal) if weights is None else weights))
        self.patterns = NO_PATTERNS if patterns is None else patterns
        self.learned = patterns is not None
        self.table = np.zeros((TABLE_SIZE[size], 3), dtype=np.uint64)
        self.slots = np.zeros((MAX_PLY + 1, 128), dtype=np.int64)
        self.boards = np.zeros((MAX_PLY + 1, 128), dtype=np.uint64)
        self.features = np.zeros((MAX_PLY + 1, IMAGES), dtype=np.int32)
        self.exact_table = np.zeros((EXACT_TABLE_SIZE[size], 3), dtype=np.uint64)
        self.exact_slots = np.zeros((size * size + 1, MAX_MOVES), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.generation = 0
        self._root_discs = -1
        #: ``FULL_WIDTH``, or a level of ``SELECTIVITY_T`` (cuts need a ``calibration``)
        self.selectivity = FULL_WIDTH
        #: The probable-cut parameters of every node (see ``negamax``; none without a calibration).
        self.cuts = np.array(cut_rows(calibration, size * size), dtype=np.float64)
        self.selective = calibration is not None

    def certain_since(self) -> None:
        """Start watching for probable results that could make a proven score wrong."""
        self.stats[1] = 0

    @property
    def certain(self) -> bool:
        """Whether no probable cut or bound stood where it could have changed a proven score
        since ``certain_since``: proven scores are then exact."""
        return int(self.stats[1]) == 0

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int:
        """The kernel's score of ``p`` to move, from ply 0: with learned patterns, the root's
        features (``p`` as digit 1) first."""
        flag = self.stop.flag
        if self.stop.expired():
            raise SearchTimeout
        discs = (p | o).bit_count()
        if discs != self._root_discs:  # another position: a new generation of table entries
            self._root_discs = discs
            self.generation = (self.generation + 1) % GENERATIONS
        if self.learned:
            features_of(np.uint64(p), np.uint64(o), self.features[0])
        score = negamax(
            self.size, p, o, depth, alpha, beta, legal, 0, self.rules, self.generation, self.selectivity,
            self.weights, self.patterns.by_parity, self.patterns.extras, self.features, self.cuts, self.table,
            self.slots, self.boards, self.exact_table, self.exact_slots, flag, self.stats,
        )  # fmt: skip
        if flag[0]:
            raise SearchTimeout
        return int(score)

    def take_nodes(self) -> int:
        nodes = int(self.stats[0])
        self.stats[0] = 0
        return nodes

    def principal_line(self, p: int, o: int, limit: int) -> list[int | None]:
        """Follow the table's best moves from ``(p, o)``: squares, ``None`` for a pass."""
        line: list[int | None] = []
        n = self.size
        seen = set()
        while len(line) < limit:
            moves = int(legal(n, p, o))
            if not moves:
                if not legal(n, o, p):
                    break
                line.append(None)
                p, o = o, p
                continue
            if (p, o) in seen:
                break
            seen.add((p, o))
            sq = int(table_move(p, o, self.table))
            if sq < 0 or not moves >> sq & 1:
                break
            line.append(sq)
            f = int(flips(n, sq, p, o))
            p, o = o ^ f, p | f | (1 << sq)
        return line
