"""The learned 8x8 evaluation: pattern tables fitted to master games.

A *pattern* is a fixed list of squares (an edge with its two X squares, a 2x5 or 3x3 corner
block, a row, a diagonal); each of its ``3**n`` fillings (empty, mover's, opponent's disc) has
a weight in centi-discs, one table per game phase. The board is read through every symmetric
image of each pattern (four edges, eight 2x5 blocks, ...), and all images share one table, so
a corner shape learned at a1 counts the same at h8. A pattern that maps onto itself (an edge
read backwards) gives mirror fillings one weight. Mobility (moves now minus the opponent's),
parity (odd empties) and a bias complete the sum. The result is an estimate of the final disc
margin for the side to move, in real discs times 100, like ``evaluation.make_evaluator``.

Each goal has its own weights, since the same position is judged differently when fewer
discs win: ``pattern_weights.bin`` for the classic goal (fitted to master games) and
``pattern_weights_inverted.bin`` for the inverted one (fitted to self-play games labelled by
the exact solver), both written by ``python -m reversi_widget.train``. They are read on the
first evaluation, never at import: a missing or damaged file, or one fitted for another
goal, is refused then with an ``InvalidPositionError`` that names it.

File layout (little-endian): the magic ``b"RWPATTERNS"``, a uint16 format version, a uint32
length and that many bytes of JSON (pattern names and sizes, phases, training notes), then
zlib-compressed int16 weights: per phase, each pattern's canonical fillings in order, then the
extras ``bias``, ``mobility``, ``parity``.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InvalidPositionError, quote
from ..geometry import geometry

__all__ = [
    "BASE_PATTERNS",
    "EXTRAS",
    "INVERTED_WEIGHTS_FILE",
    "MAGIC",
    "PATTERNS",
    "PHASES",
    "PHASE_WIDTH",
    "SIZE",
    "SYMMETRIES",
    "VERSION",
    "WEIGHTS_FILE",
    "WEIGHTS_FILES",
    "Pattern",
    "PatternWeights",
    "Square",
    "canonical_columns",
    "digits",
    "header_of",
    "load_weights",
    "lookup_source",
    "make_pattern_evaluator",
    "permuted_indices",
    "phase_bands",
    "phase_of",
    "read_weights",
    "shipped_file",
    "weights_file",
    "weights_per_phase",
    "write_weights",
]

SIZE = 8
#: Empty squares per phase: phase ``k`` holds ``5k-1`` to ``5k+3`` empties (the first from 0,
#: the last to 60), so that one phase starts at 24 empties, where WTHOR's exact scores hold.
PHASE_WIDTH = 5
PHASES = 12
EXTRAS = ("bias", "mobility", "parity")
MAGIC = b"RWPATTERNS"
VERSION = 2
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "pattern_weights.bin"
INVERTED_WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "pattern_weights_inverted.bin"
#: The shipped weights of every goal that has learned ones (the others keep the hand-made
#: evaluation of ``evaluation.make_evaluator``).
WEIGHTS_FILES: dict[str, Path] = {"classic": WEIGHTS_FILE, "inverted": INVERTED_WEIGHTS_FILE}

Square = tuple[int, int]  # (row, column)

#: Each pattern once, as (row, column) squares near the a1 corner; the order fixes the index
#: (the first square is the most significant base-3 digit).
BASE_PATTERNS: dict[str, tuple[Square, ...]] = {
    "edge_x": (*((0, c) for c in range(8)), (1, 1), (1, 6)),
    "corner_2x5": tuple((r, c) for r in range(2) for c in range(5)),
    "corner_3x3": tuple((r, c) for r in range(3) for c in range(3)),
    "row_2": tuple((1, c) for c in range(8)),
    "row_3": tuple((2, c) for c in range(8)),
    "row_4": tuple((3, c) for c in range(8)),
    "diagonal_8": tuple((i, i) for i in range(8)),
    "diagonal_7": tuple((i, i + 1) for i in range(7)),
    "diagonal_6": tuple((i, i + 2) for i in range(6)),
    "diagonal_5": tuple((i, i + 3) for i in range(5)),
    "diagonal_4": tuple((i, i + 4) for i in range(4)),
}

#: The eight symmetries of the square board.
SYMMETRIES: tuple[Callable[[int, int], Square], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
    lambda r, c: (7 - c, 7 - r),
)


@dataclass(frozen=True)
class Pattern:
    """One pattern: its images on the board and how its fillings fold onto shared weights."""

    name: str
    length: int
    #: every distinct image, as square numbers in index order
    instances: tuple[tuple[int, ...], ...]
    #: permutations of the index positions that map the pattern onto itself (identity excluded)
    self_maps: tuple[tuple[int, ...], ...]

    @property
    def fillings(self) -> int:
        return int(3**self.length)


def _pattern(name: str, base: tuple[Square, ...]) -> Pattern:
    instances: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    self_maps: list[tuple[int, ...]] = []
    for symmetry in SYMMETRIES:
        image = [symmetry(r, c) for r, c in base]
        mapping = tuple(base.index(sq) for sq in image) if set(image) == set(base) else None
        if mapping is not None and mapping != tuple(range(len(base))) and mapping not in self_maps:
            self_maps.append(mapping)
        squares = tuple(r * SIZE + c for r, c in image)
        if frozenset(squares) not in seen:
            seen.add(frozenset(squares))
            instances.append(squares)
    return Pattern(name, len(base), tuple(instances), tuple(self_maps))


PATTERNS: tuple[Pattern, ...] = tuple(_pattern(name, base) for name, base in BASE_PATTERNS.items())


def phase_of(empties: int) -> int:
    """The weight phase of a position with this many empty squares."""
    return min(PHASES - 1, (empties + 1) // PHASE_WIDTH)


def phase_bands() -> list[tuple[int, int]]:
    """(fewest, most) empties of each phase."""
    return [
        (min(e for e in range(61) if phase_of(e) == k), max(e for e in range(61) if phase_of(e) == k))
        for k in range(PHASES)
    ]


def permuted_indices(pattern: Pattern, mapping: tuple[int, ...]) -> list[int]:
    """For every filling index, the index of the filling moved by ``mapping`` (digit ``k``
    goes to position ``mapping[k]``), built digit by digit in index order."""
    n = pattern.length
    values = [0]
    for k in range(n):
        weight = 3 ** (n - 1 - mapping[k])
        values = [v + d * weight for v in values for d in range(3)]
    return values


@cache
def canonical_columns(pattern: Pattern) -> tuple[array[int], int]:
    """(column of each filling among the pattern's shared weights, number of shared weights):
    fillings that a self-map of the pattern exchanges share one column."""
    reps = list(range(pattern.fillings))
    for mapping in pattern.self_maps:
        moved = permuted_indices(pattern, mapping)
        reps = [min(r, m) for r, m in zip(reps, moved, strict=True)]
    position: dict[int, int] = {}
    columns = array("i", bytes(4 * len(reps)))
    for index, rep in enumerate(reps):
        column = position.get(rep)
        if column is None:
            column = position[rep] = len(position)
        columns[index] = column
    return columns, len(position)


def weights_per_phase() -> int:
    """Stored weights per phase: every pattern's shared weights, then the extras."""
    return sum(canonical_columns(p)[1] for p in PATTERNS) + len(EXTRAS)


def header_of(notes: dict[str, Any]) -> dict[str, Any]:
    """The JSON header that describes this module's layout, plus training notes."""
    return {
        "patterns": [[p.name, p.length, canonical_columns(p)[1]] for p in PATTERNS],
        "phases": PHASES,
        "phase_bands": [list(band) for band in phase_bands()],
        "extras": list(EXTRAS),
        "unit": "centi-discs",
        "notes": notes,
    }


def write_weights(path: Path, weights: list[list[int]], notes: dict[str, Any]) -> int:
    """Write ``weights`` (one list of ``weights_per_phase()`` ints per phase) to ``path``;
    return the file's size in bytes."""
    per_phase = weights_per_phase()
    if len(weights) != PHASES or any(len(w) != per_phase for w in weights):
        raise ValueError(f"expected {PHASES} phases of {per_phase} weights")
    values = array("h", [max(-32768, min(32767, int(v))) for phase in weights for v in phase])
    if values.itemsize != 2:
        raise RuntimeError("array('h') is not 16 bits on this platform")
    header = json.dumps(header_of(notes), sort_keys=True).encode()
    payload = zlib.compress(_little_endian(values).tobytes(), 9)
    data = MAGIC + struct.pack("<HI", VERSION, len(header)) + header + payload
    path.write_bytes(data)
    return len(data)


def _little_endian(values: array[int]) -> array[int]:
    """The values in the file's byte order (a copy, swapped, on a big-endian machine)."""
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values


@dataclass(frozen=True)
class PatternWeights:
    """Loaded weights, expanded for lookup: ``tables[phase][pattern]`` holds one weight per
    filling index, ``extras[phase]`` the bias, mobility and parity weights."""

    tables: tuple[tuple[array[int], ...], ...]
    extras: tuple[tuple[int, int, int], ...]
    notes: dict[str, Any]
    path: Path

    @property
    def goal(self) -> str:
        """The goal the weights were fitted for (files without the note are classic)."""
        goal = self.notes.get("goal", "classic")
        return goal if isinstance(goal, str) else repr(goal)


def read_weights(path: Path) -> PatternWeights:
    """Read and check a weights file; refuse anything else naming the file and the fault."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InvalidPositionError(
            f"pattern weights file {path} cannot be read ({error.strerror or error}); "
            "reinstall the package or write it with `python -m reversi_widget.train`"
        ) from None
    start = len(MAGIC) + 6
    if len(data) < start or not data.startswith(MAGIC):
        raise InvalidPositionError(f"pattern weights file {path} is not a weights file (bad magic bytes)")
    version, header_length = struct.unpack_from("<HI", data, len(MAGIC))
    if version != VERSION:
        raise InvalidPositionError(f"pattern weights file {path} has format version {version}; expected {VERSION}")
    try:
        header = json.loads(data[start : start + header_length])
        raw = zlib.decompress(data[start + header_length :])
    except (ValueError, zlib.error) as error:
        raise InvalidPositionError(f"pattern weights file {path} is damaged: {error}") from None
    expected = header_of(header.get("notes", {}) if isinstance(header, dict) else {})
    if header != expected:
        raise InvalidPositionError(
            f"pattern weights file {path} describes other patterns or phases than this version of the package"
        )
    per_phase = weights_per_phase()
    if len(raw) != 2 * PHASES * per_phase:
        raise InvalidPositionError(
            f"pattern weights file {path} holds {len(raw) // 2} weights; expected {PHASES * per_phase}"
        )
    values = array("h")
    values.frombytes(raw)
    values = _little_endian(values)
    tables = []
    extras = []
    for phase in range(PHASES):
        offset = phase * per_phase
        phase_tables = []
        for pattern in PATTERNS:
            columns, count = canonical_columns(pattern)
            shared = values[offset : offset + count]
            # A pattern with no self-map keeps one weight per filling: no expansion needed.
            phase_tables.append(shared if count == pattern.fillings else array("h", [shared[c] for c in columns]))
            offset += count
        tables.append(tuple(phase_tables))
        extras.append((values[offset], values[offset + 1], values[offset + 2]))
    return PatternWeights(tuple(tables), tuple(extras), header["notes"], path)


def weights_file(goal: str) -> Path | None:
    """The shipped weights file of ``goal``, or None where that goal has no learned weights."""
    return WEIGHTS_FILES.get(goal)


_loaded: dict[Path, PatternWeights] = {}


def shipped_file(goal: str) -> Path:
    """The shipped weights file of ``goal``; refuse a goal without learned weights."""
    path = weights_file(goal)
    if path is None:
        raise InvalidPositionError(
            f"the {quote(goal)} goal has no learned pattern weights (goals with them: {', '.join(WEIGHTS_FILES)}); "
            "it keeps the hand-made evaluation of evaluation.make_evaluator"
        )
    return path


def load_weights(path: Path | None = None, goal: str | None = None) -> PatternWeights:
    """The weights of ``path`` (by default the shipped file of ``goal``, or of the classic
    goal), read once and then reused. With ``goal``, a file fitted for another goal is refused."""
    path = shipped_file(goal or "classic") if path is None else path
    weights = _loaded.get(path)
    if weights is None:
        weights = _loaded[path] = read_weights(path)
    if goal is not None and weights.goal != goal:
        raise InvalidPositionError(
            f"pattern weights file {path} was fitted for the {weights.goal} goal, not the {goal} goal"
        )
    return weights


def _slices(squares: tuple[int, ...]) -> list[str]:
    """The squares of an instance as few slices as possible of the 64-digit board string,
    written as Python slice expressions (``b[0:8]``, ``b[7::-1]``, ``b[0::9]``)."""
    out = []
    i = 0
    while i < len(squares):
        j = i + 1
        step = squares[j] - squares[i] if j < len(squares) else 1
        while j < len(squares) and squares[j] - squares[j - 1] == step:
            j += 1
        stop = squares[j - 1] + step
        out.append(f"b[{squares[i]}:{stop if stop >= 0 else ''}:{step}]")
        i = j
    return out


def lookup_source() -> str:
    """Python source of ``pattern_sum(b, tables)``: every pattern image's weight, read from
    the digit string ``b`` by slicing, written out as one straight-line sum (no loop, no
    name look-ups: the hottest code of the pure learned evaluation)."""
    lines = ["def pattern_sum(b, tables):", f"    {', '.join(f't{i}' for i in range(len(PATTERNS)))}, = tables"]
    terms = [
        f"t{index}[int({' + '.join(_slices(squares))}, 3)]"
        for index, pattern in enumerate(PATTERNS)
        for squares in pattern.instances
    ]
    lines.append("    return (\n        " + "\n        + ".join(terms) + "\n    )")
    return "\n".join(lines) + "\n"


@cache
def _pattern_sum() -> Callable[[bytes, tuple[array[int], ...]], int]:
    namespace: dict[str, Callable[[bytes, tuple[array[int], ...]], int]] = {}
    exec(compile(lookup_source(), "<pattern sum>", "exec"), namespace)
    return namespace["pattern_sum"]


#: Byte ``b`` spread to one byte per bit: bit ``i`` of ``b`` becomes byte ``i`` (0 or 1).
_SPREAD = tuple(sum(((b >> i) & 1) << (8 * i) for i in range(8)) for b in range(256))
_DIGIT_ZERO = int.from_bytes(b"0" * 64, "little")


def digits(p: int, o: int) -> bytes:
    """The board as 64 ASCII digits, square by square: ``0`` empty, ``1`` mover, ``2`` opponent."""
    spread = _SPREAD
    value = _DIGIT_ZERO
    for row in range(8):
        shift = 8 * row
        value += (spread[(p >> shift) & 255] + 2 * spread[(o >> shift) & 255]) << (8 * shift)
    return value.to_bytes(64, "little")


def make_pattern_evaluator(path: Path | None = None, goal: str | None = None) -> Callable[[int, int, int], int]:
    """The learned evaluation as ``evaluate(p, o, legal_p)`` in centi-discs (8x8 only), with
    the weights of ``path`` or else the shipped ones of ``goal`` (default classic); with
    ``goal``, weights fitted for another goal are refused.

    The weights are read on the first call, so building the evaluator costs nothing."""
    if path is None:
        path = shipped_file(goal or "classic")
    moves = geometry(SIZE).moves
    full = geometry(SIZE).full
    pattern_sum = _pattern_sum()
    phases: list[tuple[tuple[array[int], ...], tuple[int, int, int]]] = []

    def evaluate(p: int, o: int, legal_p: int) -> int:
        if not phases:
            weights = load_weights(path, goal)
            phases.extend(zip(weights.tables, weights.extras, strict=True))
        empties = (full ^ (p | o)).bit_count()
        tables, (bias, mobility, parity) = phases[phase_of(empties)]
        score = bias + mobility * (legal_p.bit_count() - moves(o, p).bit_count()) + parity * (empties & 1)
        return score + pattern_sum(digits(p, o), tables)

    return evaluate
