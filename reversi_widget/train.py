"""Fit the pattern evaluation to WTHOR master games: ``python -m reversi_widget.train``.

Every position of every training game becomes one row: the fillings of the 46 pattern images
(see ``patterns``), mobility, parity and a bias, with the final disc margin for the side to
move as the label. The label is the best truth the record holds for the position:

* with 24 or more empty squares, the *theoretical* score, Black's discs after perfect play
  from the game's own position at 24 empties (exact there, and free of the endgame mistakes
  that the final score carries back into the middle game);
* with fewer, the final score (the theoretical score no longer follows the moves played).

Each phase (``patterns.PHASES`` bands of five empties, one starting at 24) is a separate ridge-regularised sparse
least-squares fit (``scipy.sparse.linalg.lsqr`` with ``damp``): fillings seen rarely stay
near 0, and fillings never seen are exactly 0. Only the years 1977-2015 train; 2016-2021 are
the held-out test set of ``benchmarks/evaluation.py``.

Needs the ``train`` extra (numpy, scipy); the package itself never imports this module.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import lsqr

from .errors import IllegalMoveError, InvalidPositionError
from .geometry import geometry
from .patterns import (
    EXTRAS,
    PATTERNS,
    PHASES,
    WEIGHTS_FILE,
    canonical_columns,
    phase_bands,
    phase_of,
    write_weights,
)
from .squares import parse_square
from .wthor import WthorRecord, read_wthor

#: The training years; later years are the test set and are never read here.
FIRST_YEAR = 1977
LAST_YEAR = 2015
#: WTHOR's theoretical scores hold for the position at this many empties (header P3).
THEORETICAL_EMPTIES = 24
DEFAULT_DAMP = 3.0
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"

T = TypeVar("T")


def progress_bar(items: Sequence[T], label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items`` while drawing a one-line text bar on stderr."""
    out = sys.stderr if stream is None else stream
    total = max(1, len(items))
    start = time.perf_counter()
    for done, item in enumerate(items):
        _draw(out, label, done, total, start)
        yield item
    _draw(out, label, total, total, start)
    print(file=out)


def _draw(out: TextIO, label: str, done: int, total: int, start: float) -> None:
    width = 30
    filled = round(width * done / total)
    bar = "#" * filled + "-" * (width - filled)
    text = f"\r{label:<12} [{bar}] {done}/{total} {time.perf_counter() - start:6.1f} s"
    print(text, end="", file=out, flush=True)


def wthor_files(folder: Path, first_year: int = FIRST_YEAR, last_year: int = LAST_YEAR) -> list[Path]:
    """The ``WTH_<year>.wtb`` files of ``folder`` within the years; refuse a folder with none."""
    if not folder.is_dir():
        raise InvalidPositionError(
            f"WTHOR data folder {folder} does not exist: the training data (WTH_<year>.wtb files) is expected "
            f"there, by default in {DEFAULT_DATA}; pass another folder with --data"
        )
    files = []
    for path in sorted(folder.glob("WTH_*.wtb")):
        year = path.stem[4:]
        if year.isdigit() and first_year <= int(year) <= last_year:
            files.append(path)
    if not files:
        raise InvalidPositionError(
            f"no WTHOR files (WTH_<year>.wtb for {first_year}-{last_year}) in {folder}: the training data is "
            f"expected there, by default in {DEFAULT_DATA}; pass another folder with --data"
        )
    return files


@dataclass
class Positions:
    """Positions as columns: mover and opponent bitboards, empties, mobility difference and
    the label (final disc margin for the mover)."""

    mover: npt.NDArray[np.uint64]
    opponent: npt.NDArray[np.uint64]
    empties: npt.NDArray[np.int64]
    mobility: npt.NDArray[np.int64]
    label: npt.NDArray[np.float64]
    games: int
    skipped: int


def positions_of(records: Iterable[WthorRecord]) -> Positions:
    """Replay games on raw bitboards and keep every position where the mover has a move."""
    geo = geometry(8)
    moves, flippers, full = geo.moves, geo.flippers, geo.full
    squares = {name: parse_square(name) for name in (f"{c}{r}" for c in "abcdefgh" for r in range(1, 9))}
    mover, opponent = array("Q"), array("Q")
    empties, mobility, label = array("q"), array("q"), array("d")
    games = skipped = 0
    for record in records:
        if len(record.moves) < 60 - THEORETICAL_EMPTIES:
            skipped += 1  # stopped before its theoretical score's position
            continue
        games += 1
        theoretical = 2 * record.theoretical_score - 64
        final = 2 * record.black_score - 64
        p, o = 0x0000000810000000, 0x0000001008000000  # Black (to move) on d5 and e4
        black = True
        for number, name in enumerate(record.moves, 1):
            legal = moves(p, o)
            if not legal:
                p, o, black = o, p, not black
                legal = moves(p, o)
            sq = squares[name]
            if not legal >> sq & 1:
                raise IllegalMoveError(f"{record.source}, move {number} ({name}) is illegal")
            empty = (full ^ (p | o)).bit_count()
            margin = theoretical if empty >= THEORETICAL_EMPTIES else final
            mover.append(p)
            opponent.append(o)
            empties.append(empty)
            mobility.append(legal.bit_count() - moves(o, p).bit_count())
            label.append(margin if black else -margin)
            f = flippers[sq](p, o)
            p, o, black = o ^ f, p | f | (1 << sq), not black
    return Positions(
        np.frombuffer(mover, dtype=np.uint64),
        np.frombuffer(opponent, dtype=np.uint64),
        np.frombuffer(empties, dtype=np.int64),
        np.frombuffer(mobility, dtype=np.int64),
        np.frombuffer(label, dtype=np.float64),
        games,
        skipped,
    )


def features(mover: npt.NDArray[np.uint64], opponent: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """Column of every pattern image's filling, one row per position (shared columns for
    images of one pattern; the extras come after all pattern columns)."""
    count = len(mover)
    digits = np.empty((count, 64), dtype=np.int64)
    one = np.uint64(1)
    for sq in range(64):
        bit = np.uint64(sq)
        digits[:, sq] = ((mover >> bit) & one) + 2 * ((opponent >> bit) & one)
    columns = []
    start = 0
    for pattern in PATTERNS:
        canonical, shared = canonical_columns(pattern)
        canon = np.frombuffer(canonical, dtype=np.int32)
        powers = 3 ** np.arange(pattern.length - 1, -1, -1, dtype=np.int64)
        for instance in pattern.instances:
            index = digits[:, list(instance)] @ powers
            columns.append(start + canon[index])
        start += shared
    return np.stack(columns, axis=1)


def pattern_columns() -> int:
    return sum(canonical_columns(p)[1] for p in PATTERNS)


def design_matrix(data: Positions, rows: npt.NDArray[np.intp]) -> csr_matrix:
    """The sparse rows of some positions: a 1 per pattern image, then bias, mobility, parity."""
    cols = features(data.mover[rows], data.opponent[rows])
    n, images = cols.shape
    base = pattern_columns()
    extra_cols = np.tile(np.arange(base, base + len(EXTRAS)), (n, 1))
    extra_vals = np.stack([np.ones(n), data.mobility[rows], data.empties[rows] & 1], axis=1).astype(np.float64)
    indices = np.concatenate([cols, extra_cols], axis=1).ravel()
    values = np.concatenate([np.ones((n, images)), extra_vals], axis=1).ravel()
    indptr = np.arange(0, n * (images + len(EXTRAS)) + 1, images + len(EXTRAS))
    matrix = csr_matrix((values, indices, indptr), shape=(n, base + len(EXTRAS)))
    matrix.sum_duplicates()
    return matrix


@dataclass
class Fit:
    weights: list[list[int]]
    rows: list[int]
    errors: list[float]  # training mean absolute error per phase, in discs
    seconds: float


def fit(data: Positions, damp: float = DEFAULT_DAMP, iterations: int = 300, show: bool = True) -> Fit:
    """One ridge least-squares fit per phase; weights rounded to centi-discs."""
    start = time.perf_counter()
    phase = np.array([phase_of(int(e)) for e in range(65)])[data.empties]
    weights, counts, errors = [], [], []
    for k in progress_bar(range(PHASES), "fitting") if show else range(PHASES):
        rows = np.flatnonzero(phase == k)
        counts.append(len(rows))
        if len(rows) == 0:
            weights.append([0] * (pattern_columns() + len(EXTRAS)))
            errors.append(float("nan"))
            continue
        matrix = design_matrix(data, rows)
        target = data.label[rows]
        solution = lsqr(matrix, target, damp=damp, atol=1e-6, btol=1e-6, iter_lim=iterations)[0]
        centi = np.clip(np.rint(solution * 100), -32768, 32767).astype(np.int64)
        weights.append([int(v) for v in centi])
        errors.append(float(np.mean(np.abs(matrix @ (centi / 100.0) - target))))
    return Fit(weights, counts, errors, time.perf_counter() - start)


def load_games(files: Sequence[Path], games: int | None, seed: int, show: bool = True) -> list[WthorRecord]:
    """The records of the files, or a reproducible random sample of ``games`` of them."""
    records: list[WthorRecord] = []
    for path in progress_bar(files, "reading") if show else files:
        records.extend(read_wthor(path))
    if games is not None and games < len(records):
        records = random.Random(seed).sample(records, games)
    return records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reversi_widget.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_<year>.wtb files")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE, help="weights file to write")
    parser.add_argument("--games", type=int, default=None, help="train on a random sample of this many games")
    parser.add_argument("--seed", type=int, default=2021, help="seed of the game sample")
    parser.add_argument("--damp", type=float, default=DEFAULT_DAMP, help="ridge regularisation of lsqr")
    parser.add_argument("--iterations", type=int, default=300, help="lsqr iteration limit per phase")
    parser.add_argument("--first-year", type=int, default=FIRST_YEAR)
    parser.add_argument("--last-year", type=int, default=LAST_YEAR)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    if args.last_year > LAST_YEAR:
        parser.error(f"the years after {LAST_YEAR} are the test set and never train")
    try:
        files = wthor_files(args.data, args.first_year, args.last_year)
    except InvalidPositionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    show = not args.quiet
    start = time.perf_counter()
    records = load_games(files, args.games, args.seed, show)
    chunks = _chunks(records, 2000)
    parts = [positions_of(chunk) for chunk in (progress_bar(chunks, "replaying") if show else chunks)]
    data = Positions(
        np.concatenate([p.mover for p in parts]),
        np.concatenate([p.opponent for p in parts]),
        np.concatenate([p.empties for p in parts]),
        np.concatenate([p.mobility for p in parts]),
        np.concatenate([p.label for p in parts]),
        sum(p.games for p in parts),
        sum(p.skipped for p in parts),
    )
    prepared = time.perf_counter() - start
    result = fit(data, args.damp, args.iterations, show)
    notes = {
        "years": f"{args.first_year}-{args.last_year}",
        "games": data.games,
        "positions": len(data.label),
        "damp": args.damp,
        "seed": args.seed,
        "sample": args.games,
        "labels": f"theoretical score from {THEORETICAL_EMPTIES} empties up, final score below",
    }
    size = write_weights(args.out, result.weights, notes)
    print(
        f"{data.games} games ({data.skipped} too short skipped), {len(data.label)} positions, "
        f"read in {prepared:.1f} s, fitted in {result.seconds:.1f} s; wrote {args.out} ({size} bytes)"
    )
    for k, ((low, high), count, mae) in enumerate(zip(phase_bands(), result.rows, result.errors, strict=True)):
        print(f"phase {k:2d} (empties {low:2d}-{high:2d}): {count:8d} positions, train MAE {mae:5.2f}")
    return 0


def _chunks(items: list[T], size: int) -> list[list[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


if __name__ == "__main__":
    raise SystemExit(main())
