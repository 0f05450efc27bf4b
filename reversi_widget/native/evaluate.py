"""The evaluation of the compiled midgame search: hand-weighted or learned, as the search was made.

``hand_weighted`` is ``evaluation.make_evaluator`` compiled for 4x4, 6x6, 8x8: the same
terms, the same masks (built from ``evaluation.masks``) and the same integer weights (a
``evaluation.weight_table``, one row per number of empty squares), so it returns exactly
what the pure evaluation returns for every position, goal and set of weights.

``evaluate`` scores a position from scratch with either kind of weights: the learned
pattern arrays of ``native.patterns`` (8x8 only), used when they are not empty, else the
hand-made weight table. One compiled kernel serves both, with one explicit signature. The
midgame search calls ``hand_weighted`` itself, and with learned patterns
``patterns.feature_score``, which reads the features it keeps move by move rather than the
board: the same integer as ``evaluate``.
"""

from __future__ import annotations

import numpy as np

from ..geometry import geometry
from ..search.evaluate import TERMS, masks
from . import SIZES
from .bits import ONE, ZERO, kernel, popcount, unsigned
from .moves import legal
from .patterns import Int16s, Int32s, pattern_score

__all__ = [
    "BOTTOM_CORNERS",
    "COLUMNS",
    "CORNER",
    "CORNERS",
    "CORNER_SQUARES",
    "C_SQUARE",
    "DISC",
    "EDGE",
    "EDGES",
    "EDGE_COLS",
    "EDGE_LINES",
    "EDGE_ROWS",
    "FRONTIER",
    "FULL",
    "LEFT_CORNERS",
    "MASKS",
    "MOBILITY",
    "NEAR_C",
    "NEAR_X",
    "NOT_FIRST_COL",
    "NOT_LAST_COL",
    "PARITY",
    "RIGHT_CORNERS",
    "SPANS",
    "STABLE",
    "TOP_CORNERS",
    "X_SQUARE",
    "edge_stable",
    "evaluate",
    "hand_weighted",
    "weight_array",
]

MOBILITY, FRONTIER, CORNER, X_SQUARE, C_SQUARE, EDGE, STABLE, DISC, PARITY = range(len(TERMS))

# Columns of ``MASKS[n]``.
FULL, NOT_FIRST_COL, NOT_LAST_COL, CORNERS, EDGES = 0, 1, 2, 3, 4
EDGE_ROWS, EDGE_COLS, LEFT_CORNERS, RIGHT_CORNERS, TOP_CORNERS, BOTTOM_CORNERS = 5, 6, 7, 8, 9, 10
EDGE_LINES = 11  # the four edges, corners included: 11-14
NEAR_X = 15  # per pattern of empty corners (4 bits): the X squares next to them, 15-30
NEAR_C = 31  # ... and the C squares, 31-46
CORNER_SQUARES = 47  # the four corners' square numbers, 47-50, in the order of the pattern bits
SPANS = 51  # how many doubling steps an edge fill needs (1, 2, 4, ... below n)
COLUMNS = 52


def _masks() -> np.ndarray:
    """Per size, the square classes of ``evaluation.masks`` as uint64 (see the columns)."""
    table = np.zeros((max(SIZES) + 1, COLUMNS), dtype=np.uint64)
    for n in SIZES:
        m, row = masks(n), table[n]
        row[FULL] = geometry(n).full
        row[NOT_FIRST_COL], row[NOT_LAST_COL] = m.not_first_col, m.not_last_col
        row[CORNERS], row[EDGES] = m.corners, m.edges
        row[EDGE_ROWS], row[EDGE_COLS] = m.edge_rows, m.edge_cols
        row[LEFT_CORNERS], row[RIGHT_CORNERS] = m.left_corners, m.right_corners
        row[TOP_CORNERS], row[BOTTOM_CORNERS] = m.top_corners, m.bottom_corners
        row[EDGE_LINES : EDGE_LINES + 4] = m.edge_lines
        corners = (0, n - 1, n * (n - 1), n * n - 1)
        row[CORNER_SQUARES : CORNER_SQUARES + 4] = corners
        for pattern in range(16):
            empty_corners = sum(1 << sq for bit, sq in enumerate(corners) if pattern >> bit & 1)
            row[NEAR_X + pattern], row[NEAR_C + pattern] = m.near_empty_corner[empty_corners]
        row[SPANS] = len([span for span in (1, 2, 4, 8) if span < n])
    return table


MASKS = _masks()


@kernel("uint64(int64, uint64, uint64)")
def edge_stable(n: int, discs: int, occupied: int) -> int:
    """``evaluation.make_edge_stability``: the discs joined to a corner of their colour along
    an edge, or on a filled edge."""
    t = MASKS[n]
    result = ZERO
    for k in range(4):
        line = t[EDGE_LINES + k]
        if occupied & line == line:
            result |= discs & line
    spans = t[SPANS]
    for k in range(4):  # from the left, right, top and bottom corners, along rows or columns
        anchors = discs & t[LEFT_CORNERS + k]
        if anchors:
            along, step = (t[EDGE_ROWS], ONE) if k < 2 else (t[EDGE_COLS], unsigned(n))
            gen, pro = anchors, discs & along
            for _ in range(spans):
                if k % 2 == 0:  # towards higher bits
                    gen |= pro & (gen << step)
                    pro &= pro << step
                else:
                    gen |= pro & (gen >> step)
                    pro &= pro >> step
                step += step
            result |= gen
    return result


@kernel("int64(int64, uint64, uint64, uint64, int64[:, :])")
def hand_weighted(n: int, p: int, o: int, legal_p: int, weights: np.ndarray) -> int:
    """``evaluation.make_evaluator``'s score of ``p`` to move, with ``legal_p`` its moves and
    ``weights`` a ``weight_table``, in centi-discs."""
    t = MASKS[n]
    occupied = p | o
    empty = t[FULL] ^ occupied
    empties = popcount(empty)
    w = weights[empties]
    score: int = w[MOBILITY] * (popcount(legal_p) - popcount(legal(n, o, p)))
    h = empty | ((empty << ONE) & t[NOT_FIRST_COL]) | ((empty >> ONE) & t[NOT_LAST_COL])
    vertical = unsigned(n)
    near_empty = (h | (h << vertical) | (h >> vertical)) & t[FULL]
    score += w[FRONTIER] * (popcount(o & near_empty) - popcount(p & near_empty))
    corners = t[CORNERS]
    if occupied & corners:
        score += w[CORNER] * (popcount(p & corners) - popcount(o & corners))
        score += w[STABLE] * (popcount(edge_stable(n, p, occupied)) - popcount(edge_stable(n, o, occupied)))
    pattern = 0
    for bit in range(4):
        if empty >> t[CORNER_SQUARES + bit] & ONE:
            pattern |= 1 << bit
    xs = t[NEAR_X + pattern]
    if xs:
        cs = t[NEAR_C + pattern]
        score += w[X_SQUARE] * (popcount(p & xs) - popcount(o & xs))
        score += w[C_SQUARE] * (popcount(p & cs) - popcount(o & cs))
    edges = t[EDGES]
    score += w[EDGE] * (popcount(p & edges) - popcount(o & edges))
    if w[DISC]:
        score += w[DISC] * (popcount(p) - popcount(o))
    if w[PARITY] and empties & 1:
        score += w[PARITY]
    return score


@kernel("int64(int64, uint64, uint64, uint64, int64[:, :], int16[:, :], int32[:, :])", inline=True)
def evaluate(
    n: int, p: int, o: int, legal_p: int, weights: np.ndarray, pattern_tables: Int16s, pattern_extras: Int32s
) -> int:
    """A position's evaluation from scratch: the learned patterns where their tables are
    given, else the hand-made ``weights`` (see the module's docstring)."""
    if pattern_tables.shape[0]:
        return pattern_score(p, o, legal_p, pattern_tables, pattern_extras)
    return hand_weighted(n, p, o, legal_p, weights)


def weight_array(table: list[tuple[int, ...]]) -> np.ndarray:
    """A ``weight_table`` as the kernels take it."""
    array: np.ndarray = np.array(table, dtype=np.int64)
    return array
