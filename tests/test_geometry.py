"""The bitboard core on any discs at all, not only positions reached in play, for every size."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget.geometry import DIRECTIONS, geometry, squares_of
from reversi_widget.squares import MAX_SIZE, MIN_SIZE

SIZES = range(MIN_SIZE, MAX_SIZE + 1, 2)


def walk_flips(size: int, p: int, o: int, square: int) -> int:
    """The textbook rule, square by square: the opponent runs closed by one of ours."""
    row, col = divmod(square, size)
    flipped = 0
    for dc, dr in DIRECTIONS.values():
        run = 0
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and o >> (r * size + c) & 1:
            run |= 1 << (r * size + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < size and 0 <= c < size and p >> (r * size + c) & 1:
            flipped |= run
    return flipped


@st.composite
def discs(draw: st.DrawFn) -> tuple[int, int, int]:
    """A size and two disjoint bitboards; dense or sparse, any pattern (long runs included)."""
    size = draw(st.sampled_from(list(SIZES)))
    squares = size * size
    full = (1 << squares) - 1
    density = draw(st.sampled_from([0.1, 0.5, 0.9]))
    taken = draw(st.integers(0, full)) | (draw(st.integers(0, full)) if density > 0.5 else full)
    if density < 0.5:
        taken &= draw(st.integers(0, full))
    p = taken & draw(st.integers(0, full))
    if draw(st.booleans()):  # few of ours: long opponent runs
        p &= draw(st.integers(0, full)) & draw(st.integers(0, full))
    return size, p, taken & ~p


@settings(max_examples=600, deadline=None)
@given(discs())
def test_moves_and_flips_match_a_square_by_square_walk(case: tuple[int, int, int]) -> None:
    size, p, o = case
    geo = geometry(size)
    expected = {sq for sq in range(size * size) if not (p | o) >> sq & 1 and walk_flips(size, p, o, sq)}
    assert set(squares_of(geo.moves(p, o))) == expected
    for sq in range(size * size):
        if not (p | o) >> sq & 1:
            assert geo.flips(p, o, sq) == walk_flips(size, p, o, sq)


def test_full_lines_of_opponent_discs_on_every_size() -> None:
    """Longest runs: a row, a column and both diagonals of opponent discs, closed at one end."""
    for size in SIZES:
        geo = geometry(size)
        lines = {
            "row": [size + c for c in range(size)],
            "column": [r * size + 1 for r in range(size)],
            "diagonal": [r * size + r for r in range(size)],
            "anti-diagonal": [r * size + size - 1 - r for r in range(size)],
        }
        for name, line in lines.items():
            for p_sq, empty_sq in ((line[0], line[-1]), (line[-1], line[0])):
                p = 1 << p_sq
                o = sum(1 << sq for sq in line) & ~p & ~(1 << empty_sq)
                assert geo.moves(p, o) >> empty_sq & 1, (size, name)
                assert geo.flips(p, o, empty_sq) == o, (size, name)
