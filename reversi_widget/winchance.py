"""Win chances: the chance that Black wins from a position, given the engine's score of it.

A disc margin of "+6" says little to a learner at move 10, and much at move 50: the same
score wins far more often late in the game. The chance is read from a logistic curve per
band of empty squares, ``P(the mover wins) = 1 / (1 + exp(-(intercept + slope * score)))``,
with ``score`` the best move's score in discs for the side to move, as ``analyse`` gives it.
The curves were fitted, not guessed: ``python -m reversi_widget.win_fit`` scores positions
of master games (WTHOR 1977-2015) with ``analyse`` at the compiled search's default depth
and fits each band to how those games ended; ``benchmarks/win_chance.py`` measures the
result on the years after (2016-2021). A draw counts as half a win, in the fit and here, so
a chance is what Black expects to score out of one point.

Where the analysis proves the result (the best move wins, or every move is proven), the
chance is exact: 1.0 for a Black win, 0.0 for a loss, 0.5 for a draw. Elsewhere it is an
estimate, and only on a variant the file has curves for (8x8 classic); on others it is None.

The file (JSON, ``data/win_chance.json``) is read at the first chance asked for, never at
import; a damaged or malformed one is refused with ``WinChanceFileError`` naming it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ReversiError
from .squares import BLACK, Color

__all__ = [
    "FORMAT",
    "VERSION",
    "WIN_CHANCE_FILE",
    "Band",
    "WinChanceFileError",
    "WinModel",
    "black_win_chance",
    "load_model",
    "model_key",
]

WIN_CHANCE_FILE = Path(__file__).parent / "data" / "win_chance.json"
FORMAT = "reversi-widget win chance"
VERSION = 1


class WinChanceFileError(ReversiError):
    """The win-chance file cannot be read, or is not one (its name is in the message)."""


def model_key(size: int, goal: str) -> str:
    """How the file names a variant: ``"8x8 classic"``."""
    return f"{size}x{size} {goal}"


@dataclass(frozen=True)
class Band:
    """The curve of the positions with ``low`` to ``high`` empty squares (both included)."""

    low: int
    high: int
    slope: float  # per disc of the mover's score; always > 0, so the chance grows with the score
    intercept: float


@dataclass(frozen=True)
class WinModel:
    """One variant's curves, one per band; the bands cover every count of empty squares."""

    bands: tuple[Band, ...]

    def band(self, empties: int) -> Band:
        for band in self.bands:
            if band.low <= empties <= band.high:
                return band
        return self.bands[0] if empties < self.bands[0].low else self.bands[-1]

    def mover_chance(self, score: float, empties: int) -> float:
        """The mover's chance of winning with ``score`` (discs, the mover's point of view)."""
        band = self.band(empties)
        x = band.intercept + band.slope * score
        # Written both ways round so that exp never overflows, however large the score.
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        e = math.exp(x)
        return e / (1.0 + e)


def black_win_chance(
    turn: Color,
    score: float,
    empties: int,
    size: int,
    goal: str,
    proven: Sequence[str | None],
) -> float | None:
    """Black's chance of winning a position whose best move scores ``score`` (discs, for the
    side to move ``turn``), with ``empties`` empty squares. ``proven`` holds the result of
    each move (``"win"``, ``"draw"``, ``"loss"`` or None for an estimate), best first: a
    proven best win, or every move proven, makes the chance exact; else it is the variant's
    curve, or None where the file has none for it."""
    result: str | None = None
    if proven and proven[0] == "win":
        result = "win"
    elif proven and all(each is not None for each in proven):
        result = proven[0]
    if result is not None:
        mover = 1.0 if result == "win" else 0.5 if result == "draw" else 0.0
    else:
        model = load_model(size, goal)
        if model is None:
            return None
        mover = model.mover_chance(score, empties)
    return mover if turn == BLACK else 1.0 - mover


def load_model(size: int, goal: str, path: Path | None = None) -> WinModel | None:
    """The curves of a variant from ``path`` (default: the shipped file), None where the file
    has none for it; the file is read and checked once."""
    return _read(WIN_CHANCE_FILE if path is None else path).get(model_key(size, goal))


@cache
def _read(path: Path) -> dict[str, WinModel]:
    def refuse(why: str) -> WinChanceFileError:
        return WinChanceFileError(
            f"win-chance file {path} {why}; reinstall the package or write it with `python -m reversi_widget.win_fit`"
        )

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise refuse(f"cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise refuse(f"is damaged: {error}") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise refuse(f"is damaged: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise refuse(f"is not a win-chance file (its format is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise refuse(f"has version {data.get('version')!r}; expected {VERSION}")
    variants = data.get("variants")
    if not isinstance(variants, dict) or not variants:
        raise refuse("has no variants")
    models = {}
    for key, value in variants.items():
        try:
            models[key] = _model(key, value)
        except ValueError as error:
            raise refuse(f"is malformed: {key}: {error}") from None
    return models


def _model(key: str, value: Any) -> WinModel:
    size = _squares(key)
    bands = value.get("bands") if isinstance(value, dict) else None
    if not isinstance(bands, list) or not bands:
        raise ValueError("no list of bands")
    out = []
    expected_low = 0
    for index, band in enumerate(bands):
        if not isinstance(band, dict):
            raise ValueError(f"band {index + 1} is not an object")
        low, high = band.get("low"), band.get("high")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            raise ValueError(f"band {index + 1}: low and high must be whole numbers of empty squares")
        assert isinstance(low, int) and isinstance(high, int)
        if low != expected_low or high < low:
            raise ValueError(
                f"band {index + 1} covers {low}-{high} empties; the bands must follow on from {expected_low}"
            )
        numbers = [band.get("slope"), band.get("intercept")]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in numbers):
            raise ValueError(f"band {index + 1} ({low}-{high} empties): slope and intercept must be finite numbers")
        slope, intercept = (float(v) for v in numbers)  # type: ignore[arg-type]
        if slope <= 0:
            raise ValueError(
                f"band {index + 1} ({low}-{high} empties) has slope {slope} <= 0: a chance must grow with the score"
            )
        out.append(Band(low, high, slope, intercept))
        expected_low = high + 1
    if expected_low != size + 1:
        raise ValueError(f"the bands end at {expected_low - 1} empties; they must reach {size}")
    return WinModel(tuple(out))


def _squares(key: str) -> int:
    """The squares of the board a variant key names (``"8x8 classic"``: 64)."""
    dims = key.split(" ", 1)[0].split("x")
    if len(dims) != 2 or dims[0] != dims[1] or not dims[0].isdigit():
        raise ValueError("the variant must be named as '8x8 classic'")
    return int(dims[0]) ** 2
