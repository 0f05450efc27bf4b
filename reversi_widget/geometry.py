"""The bitboard core: legal moves and flips on Python ints, for any even size 4 to 16.

Bit ``row * size + col`` is one square. Everything here works on two ints, the
discs of the side to move (``p``) and of its opponent (``o``); ``Board`` is a thin
layer over it, and the computer player calls it directly in its search.

Speed comes from doing as few interpreted big-int operations as possible:
moves are found with one flood fill per direction (the opponent board masked
once per direction), flips with per-square ray tables where ``x & -x`` and
``bit_length()`` find the first disc that is not the opponent's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .squares import check_size

#: (column step, row step) of the eight directions, as a learner names them.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "north": (0, -1),
    "north-east": (1, -1),
    "east": (1, 0),
    "south-east": (1, 1),
    "south": (0, 1),
    "south-west": (-1, 1),
    "west": (-1, 0),
    "north-west": (-1, -1),
}


class Geometry:
    """Masks, ray tables and the move generator for one board size."""

    def __init__(self, size: int) -> None:
        check_size(size)
        self.size = n = size
        self.squares = n * n
        self.full = (1 << self.squares) - 1
        col0 = sum(1 << (r * n) for r in range(n))
        not_first_col = self.full & ~col0
        not_last_col = self.full & ~(col0 << (n - 1))
        # (shift, mask of squares a shifted bit may land on) for each direction:
        # positive shifts move towards higher bits (east, south).
        self._left = ((1, not_first_col), (n, self.full), (n + 1, not_first_col), (n - 1, not_last_col))
        self._right = ((1, not_last_col), (n, self.full), (n + 1, not_last_col), (n - 1, not_first_col))
        self.rays_up, self.rays_down = self._ray_tables()
        self.rays: dict[str, list[int]] = {
            name: [self._ray(sq, dc, dr) for sq in range(self.squares)] for name, (dc, dr) in DIRECTIONS.items()
        }
        self.centre = sum(1 << ((n // 2 - 1 + r) * n + n // 2 - 1 + c) for r in (0, 1) for c in (0, 1))
        self.corners = (1 << 0) | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (n * n - 1))
        self.moves: Callable[[int, int], int] = self._make_move_generator()

    def _ray(self, sq: int, dc: int, dr: int) -> int:
        """The squares from ``sq`` (excluded) to the edge in one direction."""
        n = self.size
        row, col = divmod(sq, n)
        ray = 0
        row, col = row + dr, col + dc
        while 0 <= row < n and 0 <= col < n:
            ray |= 1 << (row * n + col)
            row, col = row + dr, col + dc
        return ray

    def _ray_tables(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """Per square, the rays of at least two squares, split by whether bits grow along them."""
        up: list[tuple[int, ...]] = []
        down: list[tuple[int, ...]] = []
        for sq in range(self.squares):
            rays = [(self._ray(sq, dc, dr), dr * self.size + dc > 0) for dc, dr in DIRECTIONS.values()]
            # A one-square ray can never hold a flanked run, so it is left out.
            up.append(tuple(r for r, grows in rays if grows and r.bit_count() >= 2))
            down.append(tuple(r for r, grows in rays if not grows and r.bit_count() >= 2))
        return up, down

    def _make_move_generator(self) -> Callable[[int, int], int]:
        """Build ``moves(p, o)`` with this size's constants bound as closure locals."""
        steps = range(self.size - 3)  # longest run of opponent discs is size - 2
        full = self.full
        (s1, m1), (s2, m2), (s3, m3), (s4, m4) = self._left
        (t1, k1), (t2, k2), (t3, k3), (t4, k4) = self._right

        def moves(p: int, o: int) -> int:
            """Bitboard of the empty squares where the side with ``p`` may play."""
            empty = full & ~(p | o)
            result = 0
            for s, m, t, k in ((s1, m1, t1, k1), (s2, m2, t2, k2), (s3, m3, t3, k3), (s4, m4, t4, k4)):
                om = o & m
                x = (p << s) & om
                for _ in steps:
                    x |= (x << s) & om
                result |= (x << s) & m
                ok = o & k
                x = (p >> t) & ok
                for _ in steps:
                    x |= (x >> t) & ok
                result |= (x >> t) & k
            return result & empty

        return moves

    def flips(self, p: int, o: int, sq: int) -> int:
        """Bitboard of the opponent discs a disc placed on ``sq`` flanks (0 if none)."""
        flipped = 0
        not_o = ~o
        for ray in self.rays_up[sq]:
            blockers = ray & not_o
            first = blockers & -blockers
            if first & p:
                flipped |= ray & (first - 1)
        for ray in self.rays_down[sq]:
            blockers = ray & not_o
            if blockers:
                first = 1 << (blockers.bit_length() - 1)
                if first & p:
                    flipped |= ray & -(first << 1)
        return flipped


@cache
def geometry(size: int) -> Geometry:
    """The shared ``Geometry`` of a size (built once, then reused)."""
    return Geometry(size)


def squares_of(bits: int) -> list[int]:
    """The set bits of a bitboard, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
