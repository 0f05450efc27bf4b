"""The learned 8x8 evaluation compiled with numba: the same sum as ``patterns.make_pattern_evaluator``.

``pattern_score`` is a standalone nopython function over two uint64 bitboards and the
weight arrays of ``PatternArrays``, scoring a position from scratch: it reads every image's
base-3 index from whole bytes of the board. How each pattern image is read (``_images``) and
which phase a number of empties falls in (``PHASE_OF``) belong to the patterns, not to one
weights file: they are module constants that the kernel compiles in. It adds the same int16
weights as the pure path, so both give the same integer for every position. Mobility comes
from the core's move generator (``moves.legal``).

The midgame search does not read the indices afresh at every leaf: it keeps them, one row
of *features* per ply (each image's index plus its table's start), from one point of view,
the root's side to move as digit 1. ``features_of`` writes the root's row; ``played`` writes
a move's row from its parent's, changing only the images of the placed and flipped squares
(``SQUARE_START``: a handful per square); ``passed`` copies the row. ``feature_score`` then
costs one look-up an image: in the tables as they are at even plies, and at odd ones, where
the side to move is digit 2, in their copy with digits 1 and 2 swapped
(``PatternArrays.by_parity``). It returns exactly what ``pattern_score`` returns.

``NO_PATTERNS`` is the empty set of arrays that the midgame search takes for the
hand-weighted evaluation (the kernels tell the two apart by it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..search.patterns import EXTRAS, PATTERNS, PHASES, PatternWeights, load_weights, phase_of
from .bits import ONE, kernel, popcount, signed, trailing_zeros, u64
from .moves import legal

__all__ = [
    "IMAGES",
    "NO_PATTERNS",
    "Int16s",
    "Int32s",
    "Int64s",
    "PatternArrays",
    "arrays_of",
    "feature_score",
    "features_of",
    "passed",
    "pattern_arrays",
    "pattern_score",
    "played",
    "score",
    "swapped_digits",
    "transposed",
]

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]
Int16s = npt.NDArray[np.int16]


def _layout() -> tuple[Int64s, Int64s]:
    """(start of each pattern's table in a phase's row, then the total; the phase of 0 to 64
    empties)."""
    starts = np.cumsum([0] + [p.fillings for p in PATTERNS]).astype(np.int64)
    return starts, np.array([phase_of(e) for e in range(65)], dtype=np.int64)


STARTS, PHASE_OF = _layout()

#: How an image is read, cheapest first: from whole rows of the board, from whole columns
#: (rows of the transposed board), or gathered in one byte by a multiplication from squares
#: on distinct columns of the board or of the transposed board.
BY_ROWS, BY_COLUMNS, GATHERED, GATHERED_TRANSPOSED = range(4)
#: The multiplication that adds every row of a board into its top byte.
COLLECT = 0x0101010101010101


def _reading(instance: tuple[int, ...]) -> tuple[int, list[tuple[int, dict[int, int]]], int]:
    """How to read one image: (way, segments, mask), each segment (shift of its byte, {bit of
    the byte: the power of 3 its square has in the image's index}); the mask of a gather."""
    power = {sq: 3 ** (len(instance) - 1 - k) for k, sq in enumerate(instance)}
    rows = sorted({sq // 8 for sq in instance})
    columns = sorted({sq % 8 for sq in instance})
    by_rows = [(8 * r, {sq % 8: power[sq] for sq in instance if sq // 8 == r}) for r in rows]
    by_columns = [(8 * c, {sq // 8: power[sq] for sq in instance if sq % 8 == c}) for c in columns]
    readings = [(BY_ROWS, by_rows, 0), (BY_COLUMNS, by_columns, 0)]
    if len(columns) == len(instance):
        readings.append((GATHERED, [(56, {sq % 8: power[sq] for sq in instance})], sum(1 << sq for sq in instance)))
    if len(rows) == len(instance):
        mask = sum(1 << (8 * (sq % 8) + sq // 8) for sq in instance)
        readings.append((GATHERED_TRANSPOSED, [(56, {sq // 8: power[sq] for sq in instance})], mask))
    return min(readings, key=lambda reading: len(reading[1]))


def _images() -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.uint16] | npt.NDArray[np.uint64]]:
    """Every pattern image, grouped by the way it is read (``WAY_START[w]`` to
    ``WAY_START[w + 1]``), each with its table's start in a phase's row (``OFFSET``), the
    first of its segments (``SEGMENT_START``, then the total) and its gather's mask (``MASK``);
    per segment the shift of its byte (``SHIFT``) and its table (``BYTE_TABLE[KIND[s],
    byte]``: what the image's squares set in that byte add to its index for a disc of digit 1;
    twice that for digit 2). Segments read alike share a table, so the few tables stay in the
    fastest cache."""
    images = [
        (_reading(instance), int(STARTS[index]))
        for index, pattern in enumerate(PATTERNS)
        for instance in pattern.instances
    ]
    images.sort(key=lambda image: image[0][0])
    tables: dict[tuple[int, ...], int] = {}
    offsets, masks, starts, shifts, kinds = [], [], [0], [], []
    for (_way, segments, mask), offset in images:
        offsets.append(offset)
        masks.append(mask)
        for shift, bits in segments:
            table = tuple(sum(w for bit, w in bits.items() if byte >> bit & 1) for byte in range(256))
            kinds.append(tables.setdefault(table, len(tables)))
            shifts.append(shift)
        starts.append(len(shifts))
    ways = [way for (way, _, _), _ in images]
    return {
        "way_start": np.array([ways.count(w) for w in range(-1, 4)], dtype=np.int64).cumsum()[0:5],
        "offset": np.array(offsets, dtype=np.int64),
        "mask": np.array(masks, dtype=np.uint64),
        "segment_start": np.array(starts, dtype=np.int64),
        "shift": np.array(shifts, dtype=np.uint64),
        "kind": np.array(kinds, dtype=np.int64),
        "byte_table": np.array(list(tables), dtype=np.uint16),
    }


_i = _images()
WAY_START, OFFSET, MASK, SEGMENT_START = _i["way_start"], _i["offset"], _i["mask"], _i["segment_start"]
SHIFT, KIND, BYTE_TABLE = _i["shift"], _i["kind"], _i["byte_table"]
BYTE = u64(0xFF)
MAGIC = u64(COLLECT)
K1, K2, K4 = u64(0x5500550055005500), u64(0x3333000033330000), u64(0x0F0F0F0F00000000)
S7, S14, S28, S56 = u64(7), u64(14), u64(28), u64(56)


def _squares() -> tuple[Int64s, Int64s, Int64s]:
    """The images' features for the search: each image's table start in a phase's row
    (``IMAGE_OFFSET``), and per square (``SQUARE_START[sq]`` to ``SQUARE_START[sq + 1]``) the
    images it is in with the power of 3 it has in each (``SQUARE_IMAGE``, ``SQUARE_POWER``)."""
    instances = [(instance, int(STARTS[index])) for index, p in enumerate(PATTERNS) for instance in p.instances]
    pairs: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for image, (instance, _offset) in enumerate(instances):
        for k, sq in enumerate(instance):
            pairs[sq].append((image, 3 ** (len(instance) - 1 - k)))
    starts = np.cumsum([0] + [len(square) for square in pairs]).astype(np.int64)
    flat = [pair for square in pairs for pair in square]
    offsets = np.array([offset for _, offset in instances], dtype=np.int64)
    return offsets, starts, np.array(flat, dtype=np.int64).reshape(-1, 2)


IMAGE_OFFSET, SQUARE_START, SQUARE_PAIRS = _squares()
SQUARE_IMAGE, SQUARE_POWER = SQUARE_PAIRS[:, 0].copy(), SQUARE_PAIRS[:, 1].copy()
#: How many pattern images the board is read through (the features the search keeps).
IMAGES = len(IMAGE_OFFSET)


@kernel("uint64(uint64)", inline=True)
def transposed(x: int) -> int:
    """The board flipped about the a1-h8 diagonal: square (row, column) to (column, row)."""
    t = K4 & (x ^ (x << S28))
    x ^= t ^ (t >> S28)
    t = K2 & (x ^ (x << S14))
    x ^= t ^ (t >> S14)
    t = K1 & (x ^ (x << S7))
    x ^= t ^ (t >> S7)
    return x


@kernel("int64(uint64, uint64, uint64, int16[:, :], int32[:, :])")
def pattern_score(p: int, o: int, legal_p: int, tables: Int16s, extras: Int32s) -> int:
    """Centi-discs for the side to move (``p``), who has the moves ``legal_p``. Each image's
    index is put together from whole bytes of the board (``_images``), a table look-up a
    byte, rather than square by square; the images are grouped by how they are read, so the
    loops have no branch."""
    empties = 64 - popcount(p | o)
    phase = PHASE_OF[empties]
    score = extras[phase, 0]
    score += extras[phase, 1] * (popcount(legal_p) - popcount(legal(8, o, p)))
    score += extras[phase, 2] * (empties & 1)
    row = tables[phase]
    pt, ot = transposed(p), transposed(o)
    for way in range(4):
        mine, theirs = (p, o) if way in (BY_ROWS, GATHERED) else (pt, ot)
        for i in range(WAY_START[way], WAY_START[way + 1]):
            index = 0
            if way < GATHERED:
                for s in range(SEGMENT_START[i], SEGMENT_START[i + 1]):
                    shift, kind = SHIFT[s], KIND[s]
                    index += np.int64(BYTE_TABLE[kind, signed((mine >> shift) & BYTE)])
                    index += 2 * np.int64(BYTE_TABLE[kind, signed((theirs >> shift) & BYTE)])
            else:
                mask, kind = MASK[i], KIND[SEGMENT_START[i]]
                index += np.int64(BYTE_TABLE[kind, signed(((mine & mask) * MAGIC) >> S56)])
                index += 2 * np.int64(BYTE_TABLE[kind, signed(((theirs & mask) * MAGIC) >> S56)])
            score += np.int64(row[OFFSET[i] + index])
    return int(score)


@kernel("void(uint64, uint64, int32[:])")
def features_of(p: int, o: int, features: Int32s) -> None:
    """Write every image's index, as a position in a phase's row of tables (its table's start
    plus its index), with ``p``'s discs as digit 1 and ``o``'s as digit 2: a search's features
    at its root, square by square (``played`` keeps them up to date from there)."""
    for image in range(IMAGES):
        features[image] = IMAGE_OFFSET[image]
    for digit in (1, 2):
        rest = p if digit == 1 else o
        while rest:
            sq = trailing_zeros(rest)
            rest &= rest - ONE
            for k in range(SQUARE_START[sq], SQUARE_START[sq + 1]):
                features[SQUARE_IMAGE[k]] += digit * SQUARE_POWER[k]


@kernel("void(int32[:, :], int64, int64, uint64)", inline=True)
def played(features: Int32s, ply: int, sq: int, flipped: int) -> None:
    """Write the features after a move, row ``ply + 1``, from those before it, row ``ply``
    (whose mover's discs are digit 1 at even plies, 2 at odd ones): the disc placed on ``sq``
    gets the mover's digit and each of ``flipped`` goes from the other digit to it."""
    before, after = features[ply], features[ply + 1]
    for image in range(IMAGES):
        after[image] = before[image]
    mover = 1 + (ply & 1)
    for k in range(SQUARE_START[sq], SQUARE_START[sq + 1]):
        after[SQUARE_IMAGE[k]] += mover * SQUARE_POWER[k]
    step = 2 * mover - 3  # a flip changes the digit by -1 (2 to 1) or +1 (1 to 2)
    rest = flipped
    while rest:
        square = trailing_zeros(rest)
        rest &= rest - ONE
        for k in range(SQUARE_START[square], SQUARE_START[square + 1]):
            after[SQUARE_IMAGE[k]] += step * SQUARE_POWER[k]


@kernel("void(int32[:, :], int64)", inline=True)
def passed(features: Int32s, ply: int) -> None:
    """Write the features after a pass, row ``ply + 1``: the same discs, the other side to move."""
    before, after = features[ply], features[ply + 1]
    for image in range(IMAGES):
        after[image] = before[image]


@kernel("int64(uint64, uint64, uint64, int64, int32[:, :], int16[:, :], int32[:, :])", inline=True)
def feature_score(p: int, o: int, legal_p: int, ply: int, features: Int32s, by_parity: Int16s, extras: Int32s) -> int:
    """``pattern_score`` of ``p`` to move at ``ply`` of a search, read from the features of
    that ply (``played``): one look-up an image, in the tables as they are at even plies,
    where ``p`` is digit 1, and in their copy with digits 1 and 2 swapped at odd ones
    (``PatternArrays.by_parity``). The same sum, so the same integer."""
    empties = 64 - popcount(p | o)
    phase = PHASE_OF[empties]
    score = extras[phase, 0]
    score += extras[phase, 1] * (popcount(legal_p) - popcount(legal(8, o, p)))
    score += extras[phase, 2] * (empties & 1)
    row = by_parity[phase + PHASES * (ply & 1)]
    indices = features[ply]
    for image in range(IMAGES):
        score += np.int64(row[indices[image]])
    return int(score)


@dataclass(frozen=True)
class PatternArrays:
    """The weights laid out for the kernels: per phase one row of every pattern's table end
    to end (``tables``, for ``pattern_score``), and per phase the extras (bias, mobility,
    parity). ``by_parity`` holds ``tables`` (its first half: the same memory) and then the
    same rows with digits 1 and 2 swapped in every index, for ``feature_score``."""

    tables: Int16s
    extras: Int32s
    by_parity: Int16s


#: No learned weights: what the midgame search takes with the hand-weighted evaluation.
NO_PATTERNS = PatternArrays(
    np.zeros((0, 0), dtype=np.int16), np.zeros((0, len(EXTRAS)), dtype=np.int32), np.zeros((0, 0), dtype=np.int16)
)


def swapped_digits(length: int) -> Int64s:
    """For every index of a pattern of ``length`` squares, the index with digits 1 and 2
    swapped, built digit by digit from the most significant."""
    indices = np.zeros(1, dtype=np.int64)
    for _ in range(length):
        indices = (3 * indices[:, None] + np.array([0, 2, 1], dtype=np.int64)).ravel()
    return indices


def pattern_arrays(weights: PatternWeights) -> PatternArrays:
    """Lay loaded weights out as numpy arrays for the compiled evaluation."""
    by_parity = np.zeros((2 * PHASES, int(STARTS[-1])), dtype=np.int16)
    tables = by_parity[:PHASES]
    for phase in range(PHASES):
        for index, table in enumerate(weights.tables[phase]):
            tables[phase, STARTS[index] : STARTS[index + 1]] = np.frombuffer(table, dtype=np.int16)
    swap = np.concatenate([STARTS[index] + swapped_digits(p.length) for index, p in enumerate(PATTERNS)])
    by_parity[PHASES:] = tables[:, swap]
    return PatternArrays(tables, np.array(weights.extras, dtype=np.int32), by_parity)


def arrays_of(path: Path, goal: str | None = None) -> PatternArrays:
    """The arrays of a weights file, read (``patterns.load_weights``, which refuses a file
    fitted for another ``goal``) and laid out once: every search evaluating with them shares
    them (and only reads them)."""
    load_weights(path, goal)
    return _laid_out(path)


@cache
def _laid_out(path: Path) -> PatternArrays:
    return pattern_arrays(load_weights(path))


def score(arrays: PatternArrays, p: int, o: int, legal_p: int) -> int:
    """``pattern_score`` called from Python on int bitboards (tests and benchmarks)."""
    return int(pattern_score(np.uint64(p), np.uint64(o), np.uint64(legal_p), arrays.tables, arrays.extras))
