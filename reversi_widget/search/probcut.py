"""The calibration of probable cuts (Multi-ProbCut): how well a shallow search predicts a deep one.

A selective search skips a node's moves when a shallow search says, with enough confidence,
that the deep score lies outside the window. How far to trust the shallow search was
measured, not guessed: ``python -m reversi_widget.calibrate`` searches positions of master
games and of self-play at every depth up to some limit, and solves others exactly; for each
phase (a band of empty squares) and each pair of depths it regresses the deep score on the
shallow one (slope, intercept, and the spread of what is left: one standard deviation, in
centi-discs). A few coefficients summarise those fits for every phase and depth, deeper
ones included (the spread shrinks as both searches deepen, and grows with the distance
between them); they are what the search reads:

* to a depth short of the end: ``slope = a0 + a1 * empties``, ``intercept = b0``, and
  ``spread = exp(c0 + c1 * empties + c2 * depth + c3 * shallow)``;
* to the end (the deep score is the exact final margin): ``slope = a0``, an intercept that
  depends on whether the shallow depth is odd (``b_even``, ``b_odd``: the last ply searched
  favours the side that plays it), and ``spread = exp(c0 + c1 * empties + c2 * shallow)``.

The shallow depth of a deep one is ``shallow_depth``: about half, of the same parity.

The file (JSON, ``data/probcut.json``) holds per variant (``"8x8 classic"``) the coefficients,
the fits they summarise, and notes on the data. It is read on the first selective search,
never at import; a damaged file, or one of another format, is refused with an
``InvalidPositionError`` naming it. A variant the file does not calibrate searches full
width.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InvalidPositionError

__all__ = [
    "CALIBRATION_FILE",
    "FORMAT",
    "MIN_DEPTH",
    "Calibration",
    "cut_rows",
    "load_calibration",
    "shallow_depth",
    "variant_key",
]

CALIBRATION_FILE = Path(__file__).parents[1] / "data" / "probcut.json"
FORMAT = "reversi-widget probcut"
VERSION = 1
#: The shallowest depth where a probable cut is tried.
MIN_DEPTH = 3

_MIDGAME_KEYS = ("slope", "intercept", "spread")
_ENDGAME_KEYS = ("slope", "intercept_even", "intercept_odd", "spread")
_SIZES = {"slope": 2, "intercept": 1, "spread": 4, "intercept_even": 1, "intercept_odd": 1}
_ENDGAME_SIZES = {"slope": 1, "intercept_even": 1, "intercept_odd": 1, "spread": 3}


def shallow_depth(depth: int) -> int:
    """The depth of the shallow search that predicts a search of ``depth``: about half, of
    the same parity (two plies less below 4)."""
    shallow = 2 * (depth // 4) + (depth & 1)
    return shallow if shallow > 0 else depth - 2


def variant_key(size: int, goal: str) -> str:
    """How the file names a variant: ``"8x8 classic"``."""
    return f"{size}x{size} {goal}"


@dataclass(frozen=True)
class Calibration:
    """One variant's coefficients (see the module's docstring)."""

    midgame: dict[str, tuple[float, ...]]
    endgame: dict[str, tuple[float, ...]]

    def midgame_cut(self, empties: int, depth: int) -> tuple[int, float, float, float]:
        """(shallow depth, slope, intercept, spread) for a search of ``depth`` plies short of the end."""
        shallow = shallow_depth(depth)
        a0, a1 = self.midgame["slope"]
        (b0,) = self.midgame["intercept"]
        c0, c1, c2, c3 = self.midgame["spread"]
        return shallow, a0 + a1 * empties, b0, math.exp(c0 + c1 * empties + c2 * depth + c3 * shallow)

    def endgame_cut(self, empties: int) -> tuple[int, float, float, float]:
        """(shallow depth, slope, intercept, spread) for a search to the end from ``empties``."""
        shallow = shallow_depth(empties)
        (a0,) = self.endgame["slope"]
        intercept = self.endgame["intercept_odd" if shallow & 1 else "intercept_even"][0]
        c0, c1, c2 = self.endgame["spread"]
        return shallow, a0, intercept, math.exp(c0 + c1 * empties + c2 * shallow)


def cut_rows(calibration: Calibration | None, squares: int) -> list[list[tuple[int, float, float, float]]]:
    """``rows[empties][depth]``: the probable-cut parameters of every node a search on a board
    of ``squares`` squares can meet (a spread of 0 where no cut is tried: too shallow, or no
    calibration)."""
    none = (0, 1.0, 0.0, 0.0)
    rows = [[none] * (squares + 1) for _ in range(squares + 1)]
    if calibration is None:
        return rows
    for empties in range(squares + 1):
        for depth in range(MIN_DEPTH, empties + 1):
            cut = calibration.endgame_cut(empties) if depth == empties else calibration.midgame_cut(empties, depth)
            if cut[0] >= 0 and cut[1] > 0:
                rows[empties][depth] = cut
    return rows


def load_calibration(size: int, goal: str, path: Path | None = None) -> Calibration | None:
    """The calibration of a variant from ``path`` (default: the shipped file), None where the
    file has none for it; the file is read and checked once."""
    variants = _read(CALIBRATION_FILE if path is None else path)
    return variants.get(variant_key(size, goal))


@cache
def _read(path: Path) -> dict[str, Calibration]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidPositionError(
            f"probable-cut calibration file {path} cannot be read ({error.strerror or error}); "
            "reinstall the package or write it with `python -m reversi_widget.calibrate`"
        ) from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InvalidPositionError(f"probable-cut calibration file {path} is damaged: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidPositionError(f"probable-cut calibration file {path} is not a calibration file (format)")
    if data.get("version") != VERSION:
        raise InvalidPositionError(
            f"probable-cut calibration file {path} has version {data.get('version')!r}; expected {VERSION}"
        )
    variants = data.get("variants")
    if not isinstance(variants, dict):
        raise InvalidPositionError(f"probable-cut calibration file {path} has no variants")
    return {key: _calibration(path, key, value) for key, value in variants.items()}


def _calibration(path: Path, key: str, value: Any) -> Calibration:
    if not isinstance(value, dict):
        raise InvalidPositionError(f"probable-cut calibration file {path}: {key} is not an object")
    midgame = _coefficients(path, f"{key} midgame", value.get("midgame"), _SIZES, _MIDGAME_KEYS)
    endgame = _coefficients(path, f"{key} endgame", value.get("endgame"), _ENDGAME_SIZES, _ENDGAME_KEYS)
    calibration = Calibration(midgame, endgame)
    for empties in range(4, 61):  # the slopes the search divides by must stay positive
        if calibration.endgame_cut(empties)[1] <= 0 or calibration.midgame_cut(empties, 3)[1] <= 0:
            raise InvalidPositionError(f"probable-cut calibration file {path}: {key} has a slope <= 0")
    return calibration


def _coefficients(
    path: Path, where: str, value: Any, sizes: dict[str, int], keys: tuple[str, ...]
) -> dict[str, tuple[float, ...]]:
    if not isinstance(value, dict):
        raise InvalidPositionError(f"probable-cut calibration file {path}: {where} is missing")
    out: dict[str, tuple[float, ...]] = {}
    for name in keys:
        numbers = value.get(name)
        if (
            not isinstance(numbers, list)
            or len(numbers) != sizes[name]
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in numbers)
        ):
            raise InvalidPositionError(
                f"probable-cut calibration file {path}: {where} {name} must be {sizes[name]} finite numbers"
            )
        out[name] = tuple(float(x) for x in numbers)
    return out
