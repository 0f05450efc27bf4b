"""The bitboard core: legal moves and flips on Python ints, for any even size 4 to 16.

Bit ``row * size + col`` is one square. Everything here works on two ints, the
discs of the side to move (``p``) and of its opponent (``o``); ``Board`` is a thin
layer over it, and the computer player calls it directly in its search.

Speed comes from doing as few interpreted big-int operations as possible:
moves are found with one flood fill per direction (the opponent board masked
once per direction), flips with per-square ray tables where ``x & -x`` and
``bit_length()`` find the first disc that is not the opponent's.

On the boards that fit 64 bits, ``moves`` and ``flippers`` are swapped for the compiled
kernels of ``native.moves`` once those are loaded (see ``native``): same results, a
fraction of the time, and everything that calls them gets faster untouched. ``play`` then
does a whole move in one call, for ``Board.push``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from types import ModuleType

from . import native
from .squares import check_size

__all__ = ["DIRECTIONS", "Geometry", "flipper_source", "geometry", "move_generator_source", "squares_of"]

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
        #: The pure-Python move generator and flippers; ``moves`` and ``flippers`` start as
        #: these and become the compiled kernels once loaded.
        self.pure_moves: Callable[[int, int], int] = self._make_move_generator()
        self.pure_flippers = self._make_flippers()
        self.moves = self.pure_moves
        self.flippers = self.pure_flippers
        #: With the compiled kernels: ``play(size, sq, p, o)`` gives (flips, the opponent's
        #: legal moves after the move) in one call, or (0, 0) for no move; None until then.
        self.play: Callable[[int, int, int, int], tuple[int, int]] | None = None
        if size in native.SIZES:
            native.when_ready("moves", self._use_compiled)

    def _use_compiled(self, kernels: ModuleType) -> None:
        """Back ``moves`` and ``flippers`` by the compiled kernels (identical results)."""
        from .native.bits import entry_point

        n, flips = self.size, entry_point(kernels.flips)
        self.flippers = tuple(partial(flips, n, sq) for sq in range(self.squares))
        self.moves = partial(entry_point(kernels.legal), n)
        self.play = entry_point(kernels.play)

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
        """Compile ``moves(p, o)`` for this size: see ``move_generator_source``."""
        namespace: dict[str, Callable[[int, int], int]] = {}
        exec(compile(move_generator_source(self), f"<moves {self.size}x{self.size}>", "exec"), namespace)
        return namespace["moves"]

    def _make_flippers(self) -> tuple[Callable[[int, int], int], ...]:
        """Compile one ``flips`` function per square: see ``flipper_source``."""
        namespace: dict[str, Callable[[int, int], int]] = {}
        source = "".join(flipper_source(self, sq) for sq in range(self.squares))
        exec(compile(source, f"<flips {self.size}x{self.size}>", "exec"), namespace)
        return tuple(namespace[f"flips_{sq}"] for sq in range(self.squares))

    def flips(self, p: int, o: int, sq: int) -> int:
        """Bitboard of the opponent discs a disc placed on ``sq`` flanks (0 if none).

        Hot loops call ``flippers[sq](p, o)`` directly and save this call."""
        return self.flippers[sq](p, o)


def move_generator_source(geo: Geometry) -> str:
    """Python source of ``moves(p, o)`` for one size, unrolled with the masks as literals.

    Per direction, a Kogge-Stone fill finds every run of opponent discs that starts next
    to one of ours, doubling the run length it covers at each step (so 4 steps reach
    the 14-disc runs of 16x16 where a plain fill needs 13); the square past a run is a
    move if it is empty. Writing it out as straight-line code with literal constants
    takes the loops and name look-ups out of the hottest function of the package.

    Two facts save operations. A flanked run never touches the first or last column
    (each of its discs has a square on both sides), so the opponent discs are masked to
    the inner columns once per pair of opposite directions, and a shift off one row's end,
    which lands in column 0 or the last, falls off that mask: no other wrap masks are
    needed. The opposite direction's doubled runs are the same runs shifted back. And
    eastwards a run is a block of consecutive bits, so adding its first disc carries
    through the block to the square past it (what the addition leaves of the
    opponent's discs, the final mask of empty squares removes).
    """
    n = geo.size
    longest_run = n - 2
    inner = geo._left[0][1] & geo._right[0][1]  # not the first column and not the last
    lines = [
        "def moves(p, o):",
        f"    inner = o & {inner:#x}",
        # East, in one addition: the carry from a run's first disc ripples to the square past it.
        "    r = inner + ((p << 1) & inner)",
    ]
    for shift in (1, n, n + 1, n - 1):
        q1 = "o" if shift == n else "inner"  # a vertical step cannot wrap around a row
        names: dict[int, str] = {1: q1}
        for op in ("<<", ">>") if shift != 1 else (">>",):
            lines.append(f"    f = (p {op} {shift}) & {q1}")
            covered, level = 1, 1
            while covered < longest_run:
                # Jump twice as far once the runs covered allow it and one more jump of
                # the current length would not already be enough.
                while level * 2 <= covered and longest_run - covered > level:
                    q, level = names[level], level * 2
                    if op == "<<":
                        names[level] = f"q{level}"
                        lines.append(f"    q{level} = {q} & ({q} << {shift * (level // 2)})")
                    elif shift == 1:  # west: no eastward runs were worked out to reuse
                        names[level] = f"s{level}"
                        lines.append(f"    s{level} = {q} & ({q} >> {shift * (level // 2)})")
                    else:  # the runs ending here, shifted back to where they start
                        names[level] = f"s{level}"
                        lines.append(f"    s{level} = q{level} >> {shift * (level - 1)}")
                lines.append(f"    f |= {names[level]} & (f {op} {shift * level})")
                covered += level
            lines.append(f"    r |= f {op} {shift}")
    lines.append(f"    return r & ({geo.full:#x} ^ (p | o))")  # the empty squares
    return "\n".join(lines) + "\n"


def flipper_source(geo: Geometry, sq: int) -> str:
    """Python source of ``flips_<sq>(p, o)``: the discs flanked from ``sq``, ray by ray.

    A ray only matters when the square next to ``sq`` on it holds an opponent disc; then
    the first disc on the ray that is not the opponent's (``x & -x`` going up the bits,
    ``bit_length()`` going down) must be ours, and everything before it flips.
    """
    lines = [f"def flips_{sq}(p, o):", "    r = 0", "    no = ~o"]
    for rays, grows in ((geo.rays_up[sq], True), (geo.rays_down[sq], False)):
        for ray in rays:
            nearest = ray & -ray if grows else 1 << (ray.bit_length() - 1)
            lines.append(f"    if o & {nearest:#x}:")
            lines.append(f"        c = {ray:#x} & no")
            if grows:
                lines.append("        f = c & -c")
                lines.append(f"        if f & p: r |= {ray:#x} & (f - 1)")
            else:
                lines.append("        if c:")
                lines.append("            f = 1 << (c.bit_length() - 1)")
                lines.append(f"            if f & p: r |= {ray:#x} & -(f << 1)")
    lines.append("    return r")
    return "\n".join(lines) + "\n"


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
