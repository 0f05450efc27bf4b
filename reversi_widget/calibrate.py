"""Measure how shallow searches predict deep ones, and write ``data/probcut.json``:
``python -m reversi_widget.calibrate``.

Positions come from master games (WTHOR, training years 1977-2015 only: later years are the
test set of the benchmarks), taken at a random point and sometimes pushed one or two random
moves off the game, and from self-play games of the package's engine (``selfplay``). Each
midgame position is searched full width at every depth from 0 to ``--depth``; each endgame
position (12 to ``--end-empties`` empties) to a depth of 10 and solved exactly, and the
master games' own positions at 24 empties add their recorded exact (theoretical) scores.
Then, per phase and per pair of depths, the deep score is regressed on the shallow one,
and the coefficients of ``probcut`` are fitted to those regressions (see that module).

Needs the ``train`` extra (numpy) and the compiled core for speed; the same seed gives
the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from . import native
from .errors import InvalidPositionError
from .geometry import geometry, squares_of
from .search import INFINITY, WIN
from .search.endgame import make_endgame
from .search.midgame import make_midgame
from .search.probcut import CALIBRATION_FILE, FORMAT, VERSION, variant_key
from .selfplay import SelfPlaySettings, play_game
from .squares import parse_square
from .train import DEFAULT_DATA, THEORETICAL_EMPTIES, progress_bar, wthor_files
from .wthor import read_wthor

__all__ = ["Sample", "fit_endgame", "fit_midgame", "main"]

T = TypeVar("T")

START = (0x0000000810000000, 0x0000001008000000)  # Black to move on d5 and e4
#: Phases of this many empties for the midgame regressions, and for the endgame ones.
MIDGAME_BAND = 6
ENDGAME_BAND = 3
#: Fewer positions than this in a phase and pair of depths make no regression.
MIN_SAMPLES = 25
#: The endgame positions are searched to this depth before being solved.
END_SHALLOW = 10


@dataclass(frozen=True)
class Sample:
    """A position with its full-width scores at depths 0, 1, ... and, near the end, its exact
    margin (centi-discs for the mover), or None."""

    empties: int
    scores: tuple[int, ...]
    exact: int | None = None


def _play(p: int, o: int, sq: int) -> tuple[int, int]:
    f = geometry(8).flips(p, o, sq)
    return o ^ f, p | f | (1 << sq)


def master_positions(
    files: Sequence[Path], rng: random.Random, count: int, empties: tuple[int, int]
) -> Iterator[tuple[int, int]]:
    """Positions with a move for the mover and empties within the range, from random games
    of ``files``: a random point of the game, then 0 to 2 random moves."""
    geo = geometry(8)
    games = [record.moves for path in files for record in read_wthor(path)]
    made = 0
    while made < count:
        moves = rng.choice(games)
        target = rng.randint(*empties)
        p, o = START
        for name in moves:
            if 64 - (p | o).bit_count() <= target:
                break
            if not geo.moves(p, o):
                p, o = o, p
            p, o = _play(p, o, parse_square(name))
        for _ in range(rng.choice((0, 0, 1, 2))):
            legal = geo.moves(p, o)
            if not legal:
                break
            p, o = _play(p, o, rng.choice(squares_of(legal)))
        if geo.moves(p, o) and empties[0] <= 64 - (p | o).bit_count() <= empties[1]:
            made += 1
            yield p, o


def self_play_positions(
    seed: int, rng: random.Random, count: int, empties: tuple[int, int]
) -> Iterator[tuple[int, int]]:
    """Positions of self-play games (``selfplay.play_game``), one taken at random from each."""
    settings = SelfPlaySettings()
    number = 0
    made = 0
    while made < count:
        game = play_game(seed, number, settings)
        number += 1
        inside = [pos for pos in game.positions if empties[0] <= pos.empties <= empties[1]]
        if inside:
            pos = rng.choice(inside)
            made += 1
            yield pos.mover, pos.opponent


def theoretical_positions(files: Sequence[Path], rng: random.Random, count: int) -> Iterator[tuple[int, int, int]]:
    """(mover, opponent, exact margin for the mover) of master games' positions at the
    empties where their theoretical score holds."""
    geo = geometry(8)
    records = [record for path in files for record in read_wthor(path) if len(record.moves) >= 40]
    rng.shuffle(records)
    made = 0
    for record in records:
        if made >= count:
            return
        p, o = START
        black = True
        for name in record.moves:
            if 64 - (p | o).bit_count() <= THEORETICAL_EMPTIES:
                break
            if not geo.moves(p, o):
                p, o, black = o, p, not black
            p, o = _play(p, o, parse_square(name))
            black = not black
        if 64 - (p | o).bit_count() == THEORETICAL_EMPTIES and geo.moves(p, o):
            margin = 2 * record.theoretical_score - 64
            made += 1
            yield p, o, margin if black else -margin


def scores_to(search: object, p: int, o: int, depth: int) -> tuple[int, ...]:
    """Full-width, full-window scores of ``p`` to move at depths 0 to ``depth``, shallowest
    first (so no deeper table entry stands in for a shallower search)."""
    legal = geometry(8).moves(p, o)
    negamax = search.negamax  # type: ignore[attr-defined]
    return tuple(int(negamax(p, o, d, -INFINITY, INFINITY, legal)) for d in range(depth + 1))


def _regress(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    slope, intercept = np.polyfit(x, y, 1)
    rest = y - (slope * x + intercept)
    return float(slope), float(intercept), float(rest.std())


def _estimates(samples: Sequence[Sample], depth: int) -> np.ndarray:
    """Which samples have an estimate (no proven score) at ``depth``."""
    return np.array([len(s.scores) > depth and abs(s.scores[depth]) < WIN for s in samples])


def fit_midgame(
    samples: Sequence[Sample], min_samples: int = MIN_SAMPLES
) -> tuple[dict[str, list[float]], list[dict[str, float]]]:
    """The midgame coefficients, and the regressions they summarise: per phase and per pair
    of depths of the same parity (deep 3 and more, shallow 0 and more, at least 2 apart)."""
    empties = np.array([s.empties for s in samples])
    deepest = min(len(s.scores) for s in samples) - 1
    fits: list[dict[str, float]] = []
    for deep in range(3, deepest + 1):
        for shallow in range(deep % 2, deep - 1, 2):
            both = _estimates(samples, deep) & _estimates(samples, shallow)
            for low in range(min(empties), max(empties) + 1, MIDGAME_BAND):
                chosen = both & (empties >= low) & (empties < low + MIDGAME_BAND)
                if chosen.sum() < min_samples:
                    continue
                x = np.array([s.scores[shallow] for s, c in zip(samples, chosen, strict=True) if c], dtype=float)
                y = np.array([s.scores[deep] for s, c in zip(samples, chosen, strict=True) if c], dtype=float)
                slope, intercept, spread = _regress(x, y)
                middle = float(empties[chosen].mean())
                fits.append(
                    {"empties": middle, "deep": deep, "shallow": shallow, "count": int(chosen.sum()),
                     "slope": slope, "intercept": intercept, "spread": spread}
                )  # fmt: skip
    if not fits:
        raise InvalidPositionError(
            f"too few midgame positions to calibrate probable cuts: no phase has {min_samples} (use more --positions)"
        )
    table = np.array([[f["empties"], f["deep"], f["shallow"], f["count"], f["slope"], f["intercept"], f["spread"]]
                      for f in fits])  # fmt: skip
    e, deep, shallow, count, slope, intercept, spread = table.T
    weight = np.sqrt(count)
    slope_model = _weighted_lstsq(np.stack([np.ones_like(e), e], axis=1), slope, weight)
    spread_model = _weighted_lstsq(np.stack([np.ones_like(e), e, deep, shallow], axis=1), np.log(spread), weight)
    coefficients = {
        "slope": slope_model,
        "intercept": [float(np.average(intercept, weights=count))],
        "spread": spread_model,
    }
    return coefficients, fits


def fit_endgame(
    samples: Sequence[Sample], min_samples: int = MIN_SAMPLES
) -> tuple[dict[str, list[float]], list[dict[str, float]]]:
    """The endgame coefficients, and their regressions: per phase and shallow depth, the exact
    margin (centi-discs) on the shallow score."""
    ends = [s for s in samples if s.exact is not None]
    empties = np.array([s.empties for s in ends])
    fits: list[dict[str, float]] = []
    for shallow in range(END_SHALLOW + 1):
        usable = _estimates(ends, shallow)
        for low in range(min(empties), max(empties) + 1, ENDGAME_BAND):
            chosen = usable & (empties >= low) & (empties < low + ENDGAME_BAND) & (empties > shallow)
            if chosen.sum() < min_samples:
                continue
            x = np.array([s.scores[shallow] for s, c in zip(ends, chosen, strict=True) if c], dtype=float)
            y = np.array([s.exact for s, c in zip(ends, chosen, strict=True) if c], dtype=float)
            slope, intercept, spread = _regress(x, y)
            fits.append(
                {"empties": float(empties[chosen].mean()), "shallow": shallow, "count": int(chosen.sum()),
                 "slope": slope, "intercept": intercept, "spread": spread}
            )  # fmt: skip
    if not fits:
        raise InvalidPositionError(
            f"too few endgame positions to calibrate probable cuts: no phase has {min_samples} "
            "(use more --end-positions)"
        )
    table = np.array([[f["empties"], f["shallow"], f["count"], f["slope"], f["intercept"], f["spread"]] for f in fits])
    e, shallow, count, slope, intercept, spread = table.T
    weight = np.sqrt(count)
    odd = shallow % 2 == 1
    coefficients = {
        "slope": [float(np.average(slope, weights=count))],
        "intercept_even": [float(np.average(intercept[~odd], weights=count[~odd]))],
        "intercept_odd": [float(np.average(intercept[odd], weights=count[odd]))],
        "spread": _weighted_lstsq(np.stack([np.ones_like(e), e, shallow], axis=1), np.log(spread), weight),
    }
    return coefficients, fits


def _weighted_lstsq(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> list[float]:
    solution, *_ = np.linalg.lstsq(x * weight[:, None], y * weight, rcond=None)
    return [float(v) for v in solution]


def gather(args: argparse.Namespace, show: bool = True) -> tuple[list[Sample], list[Sample]]:
    """The midgame and the endgame samples the arguments ask for."""
    native.wait("midgame")
    native.wait("endgame")
    rng = random.Random(args.seed)
    files = wthor_files(args.data)
    chosen = rng.sample(files, min(len(files), args.files))
    search = make_midgame(8, "classic", "count", compiled=native.ready("midgame"))
    solver = make_endgame(8, "classic", "count")
    mid_range = (args.depth + 2, 58)
    half = args.positions // 2
    sources = list(master_positions(chosen, rng, args.positions - half, mid_range))
    sources += list(self_play_positions(args.seed, rng, half, mid_range))
    midgame = [
        Sample(64 - (p | o).bit_count(), scores_to(search, p, o, args.depth))
        for p, o in _shown(sources, "midgame", show)
    ]
    end_range = (12, args.end_empties)
    ends = list(master_positions(chosen, rng, args.end_positions, end_range))
    endgame: list[Sample] = []
    for p, o in _shown(ends, "endgame", show):
        empties = 64 - (p | o).bit_count()
        exact = solver.search(p, o, -64, 64)
        endgame.append(Sample(empties, scores_to(search, p, o, min(END_SHALLOW, empties - 1)), 100 * exact))
    theory = list(theoretical_positions(chosen, rng, args.theoretical))
    for p, o, margin in _shown(theory, "theoretical", show):
        endgame.append(Sample(THEORETICAL_EMPTIES, scores_to(search, p, o, END_SHALLOW), 100 * margin))
    return midgame, endgame


def _shown(items: list[T], label: str, show: bool) -> Iterator[T]:
    return iter(progress_bar(items, label) if show else items)


def write(
    path: Path,
    midgame: Sequence[Sample],
    endgame: Sequence[Sample],
    notes: dict[str, object],
    min_samples: int = MIN_SAMPLES,
) -> None:
    """Fit both models and write the calibration file of 8x8 classic."""
    mid_coefficients, mid_fits = fit_midgame(midgame, min_samples)
    end_coefficients, end_fits = fit_endgame(endgame, min_samples)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "variants": {
            variant_key(8, "classic"): {
                "midgame": mid_coefficients,
                "endgame": end_coefficients,
                "notes": notes,
                "fits": {"midgame": mid_fits, "endgame": end_fits},
            }
        },
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m reversi_widget.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_<year>.wtb files")
    parser.add_argument("--out", type=Path, default=CALIBRATION_FILE, help="the calibration file to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=12, help="WTHOR years to draw positions from")
    parser.add_argument("--positions", type=int, default=600, help="midgame positions (half of them self-play)")
    parser.add_argument("--depth", type=int, default=11, help="deepest full-width search of a midgame position")
    parser.add_argument("--end-positions", type=int, default=400, help="positions solved exactly")
    parser.add_argument("--end-empties", type=int, default=20, help="most empties of a position solved exactly")
    parser.add_argument("--theoretical", type=int, default=400, help="master positions at 24 empties")
    parser.add_argument("--min-samples", type=int, default=MIN_SAMPLES, help="fewest positions a regression uses")
    args = parser.parse_args(argv)
    for name in ("files", "positions", "depth", "end_positions", "theoretical", "min_samples"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if not 12 <= args.end_empties <= 24:
        parser.error("--end-empties must be 12 to 24")
    if args.depth < 4:
        parser.error("--depth must be at least 4")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    midgame, endgame = gather(args)
    notes = {
        "seed": args.seed,
        "midgame positions": len(midgame),
        "midgame depth": args.depth,
        "endgame positions": len(endgame),
        "source": "WTHOR 1977-2015 (master games) and self-play",
    }
    write(args.out, midgame, endgame, notes, args.min_samples)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
