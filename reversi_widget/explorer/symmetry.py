"""The eight symmetries of the 8x8 board on bitboards, and the one canonical form they share.

A position and its seven images (mirrored, turned, reflected in a diagonal) are the same
position to a player, so the explorer keeps one entry for all eight: the image whose
(black, white) bitboards are smallest. ``orient(i)`` maps a square by symmetry ``i``;
``orient(inverse(i))`` maps it back, which is how moves reach the user's own orientation.

Symmetry ``i`` is ``mirror_columns ** (i & 1)`` after ``mirror_rows ** (i >> 1 & 1)`` after
``transpose ** (i >> 2)``: the four reflections and turns of the square in bytes (reversing
the bytes mirrors the rows, a table reversing each byte's bits mirrors the columns), and the
transpose by three delta swaps.
"""

from __future__ import annotations

from functools import cache

__all__ = ["PASS", "SIZE", "SYMMETRIES", "canonical", "inverse", "orient", "orient_bits", "square_map"]

SIZE = 8
SYMMETRIES = 8
#: The square number a pass is stored as: every symmetry maps it to itself.
PASS = 64

_REVERSE_BITS = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
_FULL = (1 << 64) - 1
_FULL_PAIR = (1 << 128) - 1
_read = int.from_bytes


def _transpose(x: int) -> int:
    """Reflect in the a1-h8 diagonal: square (row, column) goes to (column, row)."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & _FULL


def _images(x: int) -> tuple[int, int, int, int, int, int, int, int]:
    """A bitboard under the eight symmetries, in symmetry order."""
    out: list[int] = []
    for y in (x, _transpose(x)):
        raw = y.to_bytes(8, "little")
        columns = raw.translate(_REVERSE_BITS)
        out += (
            y,
            int.from_bytes(columns, "little"),
            int.from_bytes(raw, "big"),
            int.from_bytes(columns, "big"),
        )
    return out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]


def orient_bits(x: int, symmetry: int) -> int:
    """A bitboard under one symmetry."""
    return _images(x)[symmetry]


def _transpose_pair(x: int) -> int:
    """``_transpose`` of both 64-bit halves of a 128-bit pair at once (no bit crosses a half)."""
    t = 0x0F0F0F0F000000000F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x33330000333300003333000033330000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x55005500550055005500550055005500 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & _FULL_PAIR


def canonical(black: int, white: int) -> tuple[int, tuple[int, ...]]:
    """The canonical image as one pair ``black << 64 | white``, and every symmetry that maps
    the position onto it (more than one when the position is symmetric; the first is used).

    The hot loop of an index build: both bitboards go through each symmetry together, as one
    128-bit pair (reading its bytes the other way round reverses the rows of both halves)."""
    wb = white.to_bytes(8, "little") + black.to_bytes(8, "little")
    bw = wb[8:] + wb[:8]
    tw = _transpose_pair(black << 64 | white).to_bytes(16, "little")
    tb = tw[8:] + tw[:8]
    images = (
        _read(wb, "little"),
        _read(wb.translate(_REVERSE_BITS), "little"),
        _read(bw, "big"),
        _read(bw.translate(_REVERSE_BITS), "big"),
        _read(tw, "little"),
        _read(tw.translate(_REVERSE_BITS), "little"),
        _read(tb, "big"),
        _read(tb.translate(_REVERSE_BITS), "big"),
    )
    best = min(images)
    if images.count(best) == 1:
        return best, (images.index(best),)
    return best, tuple(i for i, image in enumerate(images) if image == best)


@cache
def square_map(symmetry: int) -> tuple[int, ...]:
    """Square number -> its image under ``symmetry`` (a pass, 64, stays a pass)."""
    images = [0] * (SIZE * SIZE + 1)
    for square in range(SIZE * SIZE):
        images[square] = orient_bits(1 << square, symmetry).bit_length() - 1
    images[PASS] = PASS
    return tuple(images)


def orient(square: int, symmetry: int) -> int:
    """A square number (or ``PASS``) under one symmetry."""
    return square_map(symmetry)[square]


@cache
def inverse(symmetry: int) -> int:
    """The symmetry that undoes ``symmetry``."""
    there = square_map(symmetry)
    return next(j for j in range(SYMMETRIES) if all(square_map(j)[there[s]] == s for s in range(SIZE * SIZE)))
