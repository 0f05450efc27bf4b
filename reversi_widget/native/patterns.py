"""The learned 8x8 evaluation compiled with numba: the same sum as ``patterns.make_pattern_evaluator``.

``pattern_score`` is a standalone nopython function over two uint64 bitboards and the two
weight arrays of ``PatternArrays``, so a compiled search can call it at its leaves without
the GIL. Where each pattern image lies (``SQUARES``, ``OFFSETS``) and which phase a number of
empties falls in (``PHASE_OF``) belong to the patterns, not to one weights file: they are
module constants that the kernel compiles in. It adds the same int16 weights in the same
order as the pure path, so both give the same integer for every position. Mobility comes
from the core's move generator (``moves.legal``).

``NO_PATTERNS`` is the empty pair of arrays that the midgame search takes for the
hand-weighted evaluation (``native.evaluate.evaluate`` tells the two apart by it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..patterns import EXTRAS, PATTERNS, PHASES, PatternWeights, load_weights, phase_of
from .bits import ONE, kernel, popcount, signed, unsigned
from .moves import legal

__all__ = [
    "NO_PATTERNS",
    "OFFSETS",
    "PHASE_OF",
    "SQUARES",
    "STARTS",
    "Int16s",
    "Int32s",
    "Int64s",
    "PatternArrays",
    "arrays_of",
    "pattern_arrays",
    "pattern_score",
    "score",
]

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]
Int16s = npt.NDArray[np.int16]


def _layout() -> tuple[Int64s, Int64s, Int64s, Int64s]:
    """(start of each pattern's table in a phase's row, then the total; per image its squares,
    -1 padded; per image its table's start; the phase of 0 to 64 empties)."""
    starts = np.cumsum([0] + [p.fillings for p in PATTERNS]).astype(np.int64)
    instances = [(i, sq) for i, p in enumerate(PATTERNS) for sq in p.instances]
    squares = np.full((len(instances), max(p.length for p in PATTERNS)), -1, dtype=np.int64)
    offsets = np.zeros(len(instances), dtype=np.int64)
    for row, (index, instance) in enumerate(instances):
        squares[row, : len(instance)] = instance
        offsets[row] = starts[index]
    return starts, squares, offsets, np.array([phase_of(e) for e in range(65)], dtype=np.int64)


STARTS, SQUARES, OFFSETS, PHASE_OF = _layout()


@kernel("int64(uint64, uint64, uint64, int16[:, :], int32[:, :])")
def pattern_score(p: int, o: int, legal_p: int, tables: Int16s, extras: Int32s) -> int:
    """Centi-discs for the side to move (``p``), who has the moves ``legal_p``."""
    empties = 64 - popcount(p | o)
    phase = PHASE_OF[empties]
    score = extras[phase, 0]
    score += extras[phase, 1] * (popcount(legal_p) - popcount(legal(8, o, p)))
    score += extras[phase, 2] * (empties & 1)
    row = tables[phase]
    for i in range(SQUARES.shape[0]):
        index = 0
        for k in range(SQUARES.shape[1]):
            sq = SQUARES[i, k]
            if sq < 0:
                break
            bit = unsigned(sq)
            index = index * 3 + signed((p >> bit) & ONE) + 2 * signed((o >> bit) & ONE)
        score += np.int64(row[OFFSETS[i] + index])
    return int(score)


@dataclass(frozen=True)
class PatternArrays:
    """The weights laid out for ``pattern_score``: per phase one row of every pattern's table
    end to end, and per phase the extras (bias, mobility, parity)."""

    tables: Int16s
    extras: Int32s


#: No learned weights: what the midgame search takes with the hand-weighted evaluation.
NO_PATTERNS = PatternArrays(np.zeros((0, 0), dtype=np.int16), np.zeros((0, len(EXTRAS)), dtype=np.int32))


def pattern_arrays(weights: PatternWeights) -> PatternArrays:
    """Lay loaded weights out as numpy arrays for the compiled evaluation."""
    tables = np.zeros((PHASES, int(STARTS[-1])), dtype=np.int16)
    for phase in range(PHASES):
        for index, table in enumerate(weights.tables[phase]):
            tables[phase, STARTS[index] : STARTS[index + 1]] = np.frombuffer(table, dtype=np.int16)
    return PatternArrays(tables, np.array(weights.extras, dtype=np.int32))


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
