"""The learned 8x8 evaluation compiled with numba: the same sum as ``patterns.make_pattern_evaluator``.

``pattern_score`` is a standalone nopython function over two uint64 bitboards and the weight
arrays of ``PatternArrays``, so a compiled search can call it at its leaves without the GIL.
It adds the same int16 weights in the same order as the pure path, so both give the same
integer for every position. Mobility comes from the core's move generator (``moves.legal``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..patterns import PATTERNS, PHASES, PatternWeights, phase_of
from .bits import ONE, kernel, popcount, signed, unsigned
from .moves import legal

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]
Int16s = npt.NDArray[np.int16]


@kernel("int64(uint64, uint64, uint64, int16[:, :], int32[:, :], int64[:, :], int64[:], int64[:])")
def pattern_score(
    p: int,
    o: int,
    legal_p: int,
    tables: Int16s,
    extras: Int32s,
    squares: Int64s,
    offsets: Int64s,
    phases: Int64s,
) -> int:
    """Centi-discs for the side to move (``p``), who has the moves ``legal_p``."""
    empties = 64 - popcount(p | o)
    phase = phases[empties]
    score = extras[phase, 0]
    score += extras[phase, 1] * (popcount(legal_p) - popcount(legal(8, o, p)))
    score += extras[phase, 2] * (empties & 1)
    row = tables[phase]
    for i in range(squares.shape[0]):
        index = 0
        for k in range(squares.shape[1]):
            sq = squares[i, k]
            if sq < 0:
                break
            bit = unsigned(sq)
            index = index * 3 + signed((p >> bit) & ONE) + 2 * signed((o >> bit) & ONE)
        score += np.int64(row[offsets[i] + index])
    return int(score)


@dataclass(frozen=True)
class PatternArrays:
    """The weights laid out for ``pattern_score``: per phase one row of every pattern's table
    end to end, the extras, and per instance its squares (-1 padded) and table offset."""

    tables: Int16s
    extras: Int32s
    squares: Int64s
    offsets: Int64s
    phases: Int64s


def pattern_arrays(weights: PatternWeights) -> PatternArrays:
    """Lay loaded weights out as numpy arrays for the compiled evaluation."""
    starts = np.cumsum([0] + [p.fillings for p in PATTERNS])
    tables = np.zeros((PHASES, int(starts[-1])), dtype=np.int16)
    for phase in range(PHASES):
        for index, table in enumerate(weights.tables[phase]):
            tables[phase, starts[index] : starts[index + 1]] = np.frombuffer(table, dtype=np.int16)
    longest = max(p.length for p in PATTERNS)
    instances = [(i, sq) for i, p in enumerate(PATTERNS) for sq in p.instances]
    squares = np.full((len(instances), longest), -1, dtype=np.int64)
    offsets = np.zeros(len(instances), dtype=np.int64)
    for row, (index, instance) in enumerate(instances):
        squares[row, : len(instance)] = instance
        offsets[row] = starts[index]
    return PatternArrays(
        tables,
        np.array(weights.extras, dtype=np.int32),
        squares,
        offsets,
        np.array([phase_of(e) for e in range(65)], dtype=np.int64),
    )


def score(arrays: PatternArrays, p: int, o: int, legal_p: int) -> int:
    """``pattern_score`` called from Python on int bitboards (tests and benchmarks)."""
    return int(
        pattern_score(
            np.uint64(p),
            np.uint64(o),
            np.uint64(legal_p),
            arrays.tables,
            arrays.extras,
            arrays.squares,
            arrays.offsets,
            arrays.phases,
        )
    )
