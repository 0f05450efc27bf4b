"""The transposition table of the compiled searches: one layout, one probe and one store for
the midgame search and the exact solver alike. What bounds tell a window and what a result
proves are the pure ``search.probe`` and ``search.bounds`` themselves, compiled.

A table is a numpy ``uint64`` array of ``(slots, 3)``: the two bitboards of a position, then
one word that packs its bounds, the depth they hold for, the best move, the selectivity of the
search that found them and its generation. Slots go in pairs: a position belongs to one pair,
found by a multiplicative hash, and takes the slot of its own earlier entry, else a free one,
else one of an earlier search, else the shallower one.
"""

from __future__ import annotations

import numpy as np

from ..search import INFINITY
from ..search import bounds as search_bounds
from ..search import probe as search_probe
from .bits import ZERO, kernel, signed, u64, unsigned

__all__ = [
    "GENERATIONS",
    "NO_VALUE",
    "best_of",
    "bounds",
    "depth_of",
    "find",
    "lower_of",
    "probe",
    "probe_bounds",
    "selectivity_of",
    "store",
    "table_move",
    "upper_of",
]

#: The multipliers of a position's hash.
HASH_P = u64(0x9E3779B97F4A7C15)
HASH_O = u64(0xC2B2AE3D27D4EB4F)
#: What ``probe`` returns as value when the entry does not settle the node.
NO_VALUE = -INFINITY

#: A table entry's third word: lower and upper bound (22 bits each, offset), depth (6 bits),
#: best square + 1 (7 bits), selectivity (3 bits), generation (4 bits).
OFFSET = 1 << 21
NO_BOUND = OFFSET - 1  # stands for +-INFINITY
GENERATIONS = 16
MASK_22 = u64((1 << 22) - 1)
MASK_7 = u64(0x7F)
MASK_6 = u64(0x3F)
MASK_4 = u64(0xF)
MASK_3 = u64(0x7)
SHIFT_HASH, SHIFT_UPPER, SHIFT_DEPTH, SHIFT_BEST = u64(31), u64(22), u64(44), u64(50)
SHIFT_SELECTIVITY, SHIFT_GENERATION = u64(57), u64(60)


@kernel("int64(uint64, uint64, int64)", inline=True)
def slot_of(p: int, o: int, slots: int) -> int:
    """The first slot of the pair where ``(p, o)`` belongs."""
    h = p * HASH_P ^ o * HASH_O
    h ^= h >> SHIFT_HASH
    return signed(h & unsigned(slots - 1)) & ~1


@kernel("uint64(int64, int64, int64, int64, int64, int64)", inline=True)
def pack(lower: int, upper: int, depth: int, best: int, selectivity: int, generation: int) -> int:
    lower = max(lower, -NO_BOUND)
    upper = min(upper, NO_BOUND)
    return (
        unsigned(lower + OFFSET)
        | unsigned(upper + OFFSET) << SHIFT_UPPER
        | unsigned(min(depth, 63)) << SHIFT_DEPTH
        | unsigned(best + 1) << SHIFT_BEST
        | unsigned(selectivity) << SHIFT_SELECTIVITY
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
    return signed(data >> SHIFT_DEPTH & MASK_6)


@kernel("int64(uint64)", inline=True)
def best_of(data: int) -> int:
    return signed(data >> SHIFT_BEST & MASK_7) - 1


@kernel("int64(uint64)", inline=True)
def selectivity_of(data: int) -> int:
    return signed(data >> SHIFT_SELECTIVITY & MASK_3)


@kernel("int64(uint64)", inline=True)
def generation_of(data: int) -> int:
    return signed(data >> SHIFT_GENERATION & MASK_4)


@kernel("int64(uint64, uint64, uint64[:, :])")
def table_move(p: int, o: int, table: np.ndarray) -> int:
    """The best square the table holds for ``(p, o)``, or -1."""
    first = slot_of(p, o, table.shape[0])
    for entry in range(first, first + 2):
        if table[entry, 0] == p and table[entry, 1] == o and table[entry, 2] != ZERO:
            return best_of(table[entry, 2])
    return -1


@kernel("int64(uint64[:, :], uint64, uint64)", inline=True)
def find(table: np.ndarray, p: int, o: int) -> int:
    """The slot holding ``(p, o)``, or -1."""
    first = slot_of(p, o, table.shape[0])
    for entry in range(first, first + 2):
        if table[entry, 0] == p and table[entry, 1] == o and table[entry, 2] != ZERO:
            return entry
    return -1


#: ``search.probe``: what a node's (lower, upper) bounds tell a window (the pure function, compiled).
probe_bounds = kernel("UniTuple(int64, 3)(int64, int64, int64, int64)", inline=True)(search_probe)


@kernel("UniTuple(int64, 3)(uint64, int64, int64)", inline=True)
def probe(data: int, alpha: int, beta: int) -> tuple[int, int, int]:
    """What an entry's bounds tell a search with window (alpha, beta): ``(value, alpha,
    beta)`` where ``value`` is the node's fail-soft result when the entry settles it, else
    ``NO_VALUE`` with the window narrowed by the bounds (``search.probe``)."""
    return probe_bounds(lower_of(data), upper_of(data), alpha, beta)


#: ``search.bounds``: the (lower, upper) bounds a fail-soft result of a window proves (the
#: pure function, compiled).
bounds = kernel("UniTuple(int64, 2)(int64, int64, int64)", inline=True)(search_bounds)


@kernel("void(uint64[:, :], uint64, uint64, int64, int64, int64, int64, int64, int64)", inline=True)
def store(table: np.ndarray, p: int, o: int, lower: int, upper: int, depth: int, best: int, sel: int, gen: int) -> None:
    """Keep a node's bounds: in its own entry, else a free slot of its pair, else one of an
    earlier search, else the shallower one."""
    first = slot_of(p, o, table.shape[0])
    entry = -1
    for candidate in range(first, first + 2):
        if table[candidate, 0] == p and table[candidate, 1] == o:
            entry = candidate
    if entry < 0:
        entry = first
        a, b = table[first, 2], table[first + 1, 2]
        if a != ZERO:
            a_old, b_old = generation_of(a) != gen, generation_of(b) != gen
            if b == ZERO or (b_old and not a_old) or (a_old == b_old and depth_of(b) < depth_of(a)):
                entry = first + 1
    table[entry, 0] = p
    table[entry, 1] = o
    table[entry, 2] = pack(lower, upper, depth, best, sel, gen)
