"""The compiled midgame search for 4x4, 6x6 and 8x8: ``engine.MidgameSearch``, many times faster.

The same search as the pure one, node for node in what it computes: a fail-soft negamax
alpha-beta with principal variation search, a pass that costs no depth, the evaluation at
depth 0 (``native.evaluate``: the learned patterns of ``native.patterns`` when the search is
made with them, else the hand-made weights; equal to the pure evaluation either way), a
finished game scored as its exact margin beyond ``search.WIN``. With a fresh table both return the same score at every
depth. Only the table differs: here a numpy array of ``TABLE_SIZE[n]`` slots in pairs (the
second slot of a pair takes what the first cannot), replacing entries of earlier searches
first, then shallower ones.

Move ordering: the table's move first, then (above depth 1) the move that leaves the
opponent the fewest replies, corners before other squares, good squares before bad ones.

The search cannot read a clock: it polls ``stop[0]`` at every node and returns at once
when another thread has set it (``search.StopSignal``: ``Engine.stop`` or the deadline's
alarm); the caller then discards the result. ``stats[0]`` counts the nodes.
"""

from __future__ import annotations

import numpy as np

from ..evaluation import Weights, default_weights, square_table, weight_table
from ..geometry import geometry
from ..search import INFINITY, WIN, SearchTimeout, StopSignal
from . import SIZES
from .bits import ONE, ZERO, kernel, popcount, signed, trailing_zeros, u64, unsigned
from .endgame import HASH_O, HASH_P, INVERTED, TOURNAMENT, final_score
from .evaluate import evaluate, weight_array
from .moves import flips, legal
from .patterns import NO_PATTERNS, PatternArrays

__all__ = [
    "CORNERS",
    "GENERATIONS",
    "MASK_6",
    "MASK_7",
    "MASK_22",
    "MAX_PLY",
    "NO_BOUND",
    "OFFSET",
    "SHIFT_BEST",
    "SHIFT_DEPTH",
    "SHIFT_GENERATION",
    "SHIFT_HASH",
    "SHIFT_UPPER",
    "TABLE_SIZE",
    "VALUES",
    "NativeMidgame",
    "best_of",
    "depth_of",
    "finished",
    "generation_of",
    "lower_of",
    "negamax",
    "pack",
    "slot_of",
    "table_move",
    "upper_of",
]

#: Transposition table slots per board size (a power of two; three uint64 a slot).
TABLE_SIZE = {4: 1 << 12, 6: 1 << 18, 8: 1 << 20}
#: The deepest a search goes below its root, in plies, passes included.
MAX_PLY = 130

#: A table entry's third word: lower and upper bound (22 bits each, offset), depth (7 bits),
#: best square + 1 (7 bits), generation (6 bits).
OFFSET = 1 << 21
NO_BOUND = OFFSET - 1  # stands for +-INFINITY
GENERATIONS = 64
MASK_22 = u64((1 << 22) - 1)
MASK_7 = u64(0x7F)
MASK_6 = u64(0x3F)
SHIFT_HASH, SHIFT_UPPER, SHIFT_DEPTH, SHIFT_BEST, SHIFT_GENERATION = u64(31), u64(22), u64(44), u64(51), u64(58)


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


@kernel("int64(int64, uint64, uint64, int64)", inline=True)
def finished(n: int, p: int, o: int, rules: int) -> int:
    """``search.exact_score`` of a finished position."""
    margin = final_score(n, p, o, rules)
    if margin > 0:
        return margin * 100 + WIN
    if margin < 0:
        return margin * 100 - WIN
    return 0


@kernel("int64(uint64, uint64, int64)", inline=True)
def slot_of(p: int, o: int, slots: int) -> int:
    """The first slot of the pair where ``(p, o)`` belongs."""
    h = p * HASH_P ^ o * HASH_O
    h ^= h >> SHIFT_HASH
    return signed(h & unsigned(slots - 1)) & ~1


@kernel("uint64(int64, int64, int64, int64, int64)", inline=True)
def pack(lower: int, upper: int, depth: int, best: int, generation: int) -> int:
    lower = max(lower, -NO_BOUND)
    upper = min(upper, NO_BOUND)
    return (
        unsigned(lower + OFFSET)
        | unsigned(upper + OFFSET) << SHIFT_UPPER
        | unsigned(depth) << SHIFT_DEPTH
        | unsigned(best + 1) << SHIFT_BEST
        | unsigned(generation) << SHIFT_GENERATION
    )


@kernel("int64(uint64)", inline=True)
def lower_of(data: int) -> int:
    value = signed(data & MASK_22) - OFFSET
    return -INFINITY if value == -NO_BOUND else value


@kernel("int64(uint64)", inline=True)
def upper_of(data: int) -> int:
    value = signed(data >> SHIFT_UPPER & MASK_22) - OFFSET
    return INFINITY if value == NO_BOUND else value


@kernel("int64(uint64)", inline=True)
def depth_of(data: int) -> int:
    return signed(data >> SHIFT_DEPTH & MASK_7)


@kernel("int64(uint64)", inline=True)
def best_of(data: int) -> int:
    return signed(data >> SHIFT_BEST & MASK_7) - 1


@kernel("int64(uint64)", inline=True)
def generation_of(data: int) -> int:
    return signed(data >> SHIFT_GENERATION & MASK_6)


@kernel("int64(uint64, uint64, uint64[:, :])")
def table_move(p: int, o: int, table: np.ndarray) -> int:
    """The best square the table holds for ``(p, o)``, or -1."""
    first = slot_of(p, o, table.shape[0])
    for entry in range(first, first + 2):
        if table[entry, 0] == p and table[entry, 1] == o and table[entry, 2] != ZERO:
            return best_of(table[entry, 2])
    return -1


@kernel(
    "int64(int64, uint64, uint64, int64, int64, int64, uint64, int64, int64, int64,"
    " int64[:, :], int16[:, :], int32[:, :], uint64[:, :], int64[:, :], uint64[:, :], int64[:], int64[:])"
)
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
    weights: np.ndarray,
    pattern_tables: np.ndarray,
    pattern_extras: np.ndarray,
    table: np.ndarray,
    slots: np.ndarray,
    boards: np.ndarray,
    stop: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The fail-soft score of ``p`` to move (``legal_p`` its moves) searched ``depth`` plies;
    meaningless if ``stop[0]`` got set. ``ply`` is the distance from the root (the row of
    ``slots`` and ``boards`` where this node sorts its moves). ``weights`` (hand-made) or
    ``pattern_tables`` and ``pattern_extras`` (learned, when not empty) evaluate the leaves."""
    stats[0] += 1
    if stop[0]:
        return 0
    if legal_p == ZERO:
        legal_o = legal(n, o, p)
        if legal_o == ZERO:
            return finished(n, p, o, rules)
        return -negamax(
            n, o, p, depth, -beta, -alpha, legal_o, ply + 1, rules, generation,
            weights, pattern_tables, pattern_extras, table, slots, boards, stop, stats,
        )  # fmt: skip
    if depth <= 0:
        return evaluate(n, p, o, legal_p, weights, pattern_tables, pattern_extras)
    first_slot = slot_of(p, o, table.shape[0])
    entry = -1
    for candidate in range(first_slot, first_slot + 2):
        if table[candidate, 0] == p and table[candidate, 1] == o and table[candidate, 2] != ZERO:
            entry = candidate
    first = -1
    if entry >= 0:
        data = table[entry, 2]
        first = best_of(data)
        if depth_of(data) >= depth:
            lower, upper = lower_of(data), upper_of(data)
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    alpha0, beta0 = alpha, beta
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
            order = popcount(reply) * 100 - VALUES[n, sq] - (1000 if bit & corners else 0)
            if sq == first:
                order = -1_000_000_000
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
        if i == 0:
            score = -negamax(
                n, theirs, mine, depth - 1, -beta, -alpha, reply, ply + 1, rules, generation,
                weights, pattern_tables, pattern_extras, table, slots, boards, stop, stats,
            )  # fmt: skip
        else:
            score = -negamax(
                n, theirs, mine, depth - 1, -alpha - 1, -alpha, reply, ply + 1, rules, generation,
                weights, pattern_tables, pattern_extras, table, slots, boards, stop, stats,
            )  # fmt: skip
            if alpha < score < beta:
                score = -negamax(
                    n, theirs, mine, depth - 1, -beta, -score, reply, ply + 1, rules, generation,
                    weights, pattern_tables, pattern_extras, table, slots, boards, stop, stats,
                )  # fmt: skip
        if stop[0]:
            return 0
        if score > best:
            best, best_sq = score, sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    if entry < 0:  # a free slot, else one of an earlier search, else the shallower one
        entry = first_slot
        a, b = table[first_slot, 2], table[first_slot + 1, 2]
        if a != ZERO:
            a_old, b_old = generation_of(a) != generation, generation_of(b) != generation
            if b == ZERO or (b_old and not a_old) or (a_old == b_old and depth_of(b) < depth_of(a)):
                entry = first_slot + 1
    lower = -INFINITY if best <= alpha0 else best
    upper = INFINITY if best >= beta0 else best
    table[entry, 0] = p
    table[entry, 1] = o
    table[entry, 2] = pack(lower, upper, depth, best_sq, generation)
    return best


class NativeMidgame:
    """The compiled ``engine.Midgame`` for one size, goal, scoring and evaluation, with its
    table (kept between searches, as the pure one keeps its dict). The evaluation is the
    learned one of ``patterns`` (8x8 only) when given, else the hand-made one with
    ``weights`` (default: the goal's own)."""

    def __init__(
        self, size: int, goal: str, scoring: str, weights: Weights | None = None, patterns: PatternArrays | None = None
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
        self.table = np.zeros((TABLE_SIZE[size], 3), dtype=np.uint64)
        self.slots = np.zeros((MAX_PLY + 1, 128), dtype=np.int64)
        self.boards = np.zeros((MAX_PLY + 1, 128), dtype=np.uint64)
        self.stats = np.zeros(1, dtype=np.int64)
        self.generation = 0
        self._root_discs = -1

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int:
        flag = self.stop.flag
        if self.stop.expired():
            raise SearchTimeout
        discs = (p | o).bit_count()
        if discs != self._root_discs:  # another position: a new generation of table entries
            self._root_discs = discs
            self.generation = (self.generation + 1) % GENERATIONS
        score = negamax(
            self.size, p, o, depth, alpha, beta, legal, 0, self.rules, self.generation,
            self.weights, self.patterns.tables, self.patterns.extras, self.table, self.slots, self.boards, flag,
            self.stats,
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
