"""Static evaluation of a position for the search, for the classic and the inverted goal.

An evaluator is a closure over one board size's masks and one set of weights, called as
``evaluate(p, o, legal_p)`` on raw bitboards (``p`` = side to move, ``legal_p`` = its legal
moves, which the search has already computed). It returns an int in *centi-discs* from the
side to move's point of view: 100 is worth about one disc of final margin.

The classic terms are the usual ones of Reversi programs: mobility (moves now), potential
mobility (frontier discs touching empty squares give the opponent moves later), corners and
the X/C squares next to an empty corner, edges, stable discs anchored on corners, parity
(who gets the last move) and, late, the disc count.

The inverted goal (fewer discs wins, R21) is not the classic evaluation negated: moves are
the same and only the final count is reversed, so

* mobility still helps (more choice means never being forced to take many discs), and
  restricting the opponent still hurts them;
* a corner, and every stable disc, is a disc its owner can never lose: bad;
* an X or C square next to an empty corner is mildly good, since it offers the opponent
  the corner that nobody wants;
* edges tend to become stable, so they are mildly bad;
* the last move of a region is bad (every move adds discs to the mover), so parity flips;
* late in the game the disc count itself counts, with the sign reversed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from ..geometry import Geometry, geometry

__all__ = [
    "CLASSIC_WEIGHTS",
    "GOALS",
    "INVERTED_WEIGHTS",
    "TERMS",
    "Evaluate",
    "Masks",
    "Weights",
    "default_weights",
    "make_crude_evaluator",
    "make_edge_stability",
    "make_evaluator",
    "masks",
    "square_table",
    "weight_table",
]

Evaluate = Callable[[int, int, int], int]

GOALS = ("classic", "inverted")


@dataclass(frozen=True)
class Weights:
    """Coefficients of the evaluation terms, in centi-discs per unit.

    ``*_open`` applies with the board empty and ``*_end`` with it full; in between the
    weight is interpolated by the share of empty squares, so mobility can dominate the
    opening and the disc count the end.
    """

    mobility_open: float
    mobility_end: float
    frontier: float
    corner: float
    x_square: float
    c_square: float
    edge: float
    stable: float
    disc_open: float
    disc_end: float
    parity: float

    def perturbed(self, rng: random.Random, spread: float) -> Weights:
        """A copy with every weight scaled by a random factor in [1 - spread, 1 + spread],
        so that two games against the same level do not repeat move for move."""
        if spread <= 0:
            return self
        changes = {f.name: getattr(self, f.name) * (1 + rng.uniform(-spread, spread)) for f in fields(self)}
        return replace(self, **changes)


CLASSIC_WEIGHTS = Weights(
    mobility_open=45,
    mobility_end=25,
    frontier=14,
    corner=420,
    x_square=-180,
    c_square=-60,
    edge=12,
    stable=55,
    disc_open=-4,
    disc_end=70,
    parity=70,
)

INVERTED_WEIGHTS = Weights(
    mobility_open=40,
    mobility_end=30,
    frontier=6,
    corner=-380,
    x_square=50,
    c_square=25,
    edge=-15,
    stable=-60,
    disc_open=0,
    disc_end=-80,
    parity=-60,
)


def default_weights(goal: str) -> Weights:
    """The hand-set weights of a goal."""
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, got {goal!r}")
    return CLASSIC_WEIGHTS if goal == "classic" else INVERTED_WEIGHTS


@dataclass(frozen=True)
class Masks:
    """The square classes the evaluation weighs, for one board size."""

    corners: int
    x_squares: int
    c_squares: int
    edges: int  # border squares that are neither corners nor C squares
    left_corners: int
    right_corners: int
    top_corners: int
    bottom_corners: int
    edge_rows: int  # first and last row
    edge_cols: int  # first and last column
    edge_lines: tuple[int, int, int, int]  # the four edges, corners included
    quadrants: tuple[int, int, int, int]
    #: per empty-corner pattern (corners & empty): the X and C squares next to an empty corner
    near_empty_corner: dict[int, tuple[int, int]]
    not_first_col: int
    not_last_col: int


def masks(size: int) -> Masks:
    """Build the square classes of a size (cheap; callers cache what they build from it)."""
    geo = geometry(size)
    n = size

    def bit(row: int, col: int) -> int:
        return 1 << (row * n + col)

    last = n - 1
    corner_list = [(0, 0), (0, last), (last, 0), (last, last)]
    x_of = {}
    c_of = {}
    for row, col in corner_list:
        dr = 1 if row == 0 else -1
        dc = 1 if col == 0 else -1
        x_of[bit(row, col)] = bit(row + dr, col + dc)
        c_of[bit(row, col)] = bit(row + dr, col) | bit(row, col + dc)
    corners = geo.corners
    top = sum(bit(0, c) for c in range(n))
    bottom = sum(bit(last, c) for c in range(n))
    left = sum(bit(r, 0) for r in range(n))
    right = sum(bit(r, last) for r in range(n))
    border = top | bottom | left | right
    x_squares = sum(x_of.values())
    c_squares = sum(c_of.values())
    near: dict[int, tuple[int, int]] = {}
    corner_bits = list(x_of)
    for pattern in range(16):
        empty_corners = sum(c for i, c in enumerate(corner_bits) if pattern >> i & 1)
        xs = sum(x_of[c] for c in corner_bits if empty_corners & c)
        cs = sum(c_of[c] for c in corner_bits if empty_corners & c)
        near[empty_corners] = (xs, cs & ~corners)
    half = n // 2
    quadrants = tuple(
        sum(bit(r, c) for r in rows for c in cols)
        for rows in (range(half), range(half, n))
        for cols in (range(half), range(half, n))
    )
    return Masks(
        corners=corners,
        x_squares=x_squares & ~corners,
        c_squares=c_squares & ~corners,
        edges=border & ~corners & ~c_squares,
        left_corners=bit(0, 0) | bit(last, 0),
        right_corners=bit(0, last) | bit(last, last),
        top_corners=bit(0, 0) | bit(0, last),
        bottom_corners=bit(last, 0) | bit(last, last),
        edge_rows=top | bottom,
        edge_cols=left | right,
        edge_lines=(top, bottom, left, right),
        quadrants=(quadrants[0], quadrants[1], quadrants[2], quadrants[3]),
        near_empty_corner=near,
        not_first_col=geo.full & ~left,
        not_last_col=geo.full & ~right,
    )


def make_edge_stability(size: int) -> Callable[[int, int], int]:
    """``stable(discs, occupied)``: the discs of one colour that can never flip because they
    are joined to a corner of that colour along an edge, or lie on a completely filled edge.

    The fill along each edge doubles its step each round (1, 2, 4, 8 squares), so a 16-square
    edge takes four rounds instead of fifteen.
    """
    m = masks(size)
    n = size
    rows, cols = m.edge_rows, m.edge_cols
    left_c, right_c, top_c, bottom_c = m.left_corners, m.right_corners, m.top_corners, m.bottom_corners
    lines = m.edge_lines
    spans = [s for s in (1, 2, 4, 8) if s < n]

    def stable(d: int, occupied: int) -> int:
        result = 0
        for line in lines:
            if occupied & line == line:
                result |= d & line
        if d & left_c:  # eastwards along the first and last row
            gen, pro = d & left_c, d & rows
            for s in spans:
                gen |= pro & (gen << s)
                pro &= pro << s
            result |= gen
        if d & right_c:  # westwards
            gen, pro = d & right_c, d & rows
            for s in spans:
                gen |= pro & (gen >> s)
                pro &= pro >> s
            result |= gen
        if d & top_c:  # southwards along the first and last column
            gen, pro = d & top_c, d & cols
            for s in spans:
                gen |= pro & (gen << (s * n))
                pro &= pro << (s * n)
            result |= gen
        if d & bottom_c:  # northwards
            gen, pro = d & bottom_c, d & cols
            for s in spans:
                gen |= pro & (gen >> (s * n))
                pro &= pro >> (s * n)
            result |= gen
        return result

    return stable


#: The order of a ``weight_table`` row.
TERMS = ("mobility", "frontier", "corner", "x_square", "c_square", "edge", "stable", "disc", "parity")


def weight_table(size: int, weights: Weights) -> list[tuple[int, ...]]:
    """Per number of empty squares, the weights of the terms (``TERMS``) as ints: the
    ``*_open``/``*_end`` pairs interpolated between a full and an empty board, and the disc
    count and parity brought in over the last 40% of the game. The pure evaluation and the
    compiled one both read this table, so they score every position the same."""
    squares = size * size
    table: list[tuple[int, ...]] = []
    w = weights
    for empties in range(squares + 1):
        t = empties / squares  # 1 at the start, 0 at the end
        late = max(0.0, 1 - 2.5 * t)  # the disc count and parity matter in the last ~40%
        table.append(
            (
                round(w.mobility_end + (w.mobility_open - w.mobility_end) * t),
                round(w.frontier),
                round(w.corner),
                round(w.x_square),
                round(w.c_square),
                round(w.edge),
                round(w.stable),
                round(w.disc_open + (w.disc_end - w.disc_open) * late),
                round(w.parity * late),
            )
        )
    return table


def make_evaluator(size: int, goal: str = "classic", weights: Weights | None = None) -> Evaluate:
    """The full evaluation for a size and goal, as a fast closure ``evaluate(p, o, legal_p)``."""
    w = default_weights(goal) if weights is None else weights
    geo: Geometry = geometry(size)
    m = masks(size)
    n = size
    full = geo.full
    moves = geo.moves
    corners = m.corners
    near = m.near_empty_corner
    edges = m.edges
    nfc, nlc = m.not_first_col, m.not_last_col
    stable_of = make_edge_stability(size)
    table = weight_table(size, w)

    def evaluate(p: int, o: int, legal_p: int) -> int:
        occupied = p | o
        empty = full ^ occupied
        w_mob, w_front, w_corner, w_x, w_c, w_edge, w_stable, w_disc, w_parity = table[empty.bit_count()]
        score = w_mob * (legal_p.bit_count() - moves(o, p).bit_count())
        # Frontier: discs next to an empty square (8-neighbourhood of the empties).
        h = empty | ((empty << 1) & nfc) | ((empty >> 1) & nlc)
        near_empty = (h | (h << n) | (h >> n)) & full
        score += w_front * ((o & near_empty).bit_count() - (p & near_empty).bit_count())
        if occupied & corners:
            score += w_corner * ((p & corners).bit_count() - (o & corners).bit_count())
            score += w_stable * (stable_of(p, occupied).bit_count() - stable_of(o, occupied).bit_count())
        xs, cs = near[corners & empty]
        if xs:
            score += w_x * ((p & xs).bit_count() - (o & xs).bit_count())
            score += w_c * ((p & cs).bit_count() - (o & cs).bit_count())
        score += w_edge * ((p & edges).bit_count() - (o & edges).bit_count())
        if w_disc:
            score += w_disc * (p.bit_count() - o.bit_count())
        if w_parity and empty.bit_count() & 1:
            score += w_parity
        return score

    return evaluate


def square_table(size: int) -> list[int]:
    """A crude static value per square (corners high, X and C squares low, edges fair),
    used by the weakest level and for cheap move ordering."""
    m = masks(size)
    values = []
    for sq in range(size * size):
        b = 1 << sq
        if b & m.corners:
            values.append(100)
        elif b & m.x_squares:
            values.append(-50)
        elif b & m.c_squares:
            values.append(-20)
        elif b & m.edges:
            values.append(10)
        else:
            row, col = divmod(sq, size)
            ring = min(row, col, size - 1 - row, size - 1 - col)
            values.append(-5 if ring == 1 else 1)
    return values


def make_crude_evaluator(size: int, goal: str = "classic", mobility: int = 0) -> Evaluate:
    """The beginner's evaluation: the square table only (negated for the inverted goal, where
    good squares are the ones nobody wants), plus an optional mobility weight."""
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, got {goal!r}")
    sign = 1 if goal == "classic" else -1
    values = square_table(size)
    classes: dict[int, int] = {}
    for sq, value in enumerate(values):
        classes[value] = classes.get(value, 0) | (1 << sq)
    groups = tuple((sign * value * 10, mask) for value, mask in classes.items())
    moves = geometry(size).moves

    def evaluate(p: int, o: int, legal_p: int) -> int:
        score = 0
        for weight, mask in groups:
            score += weight * ((p & mask).bit_count() - (o & mask).bit_count())
        if mobility:
            score += mobility * (legal_p.bit_count() - moves(o, p).bit_count())
        return score

    return evaluate
