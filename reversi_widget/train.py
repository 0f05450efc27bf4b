"""Fit the pattern evaluation: ``python -m reversi_widget.train``, to WTHOR master games or self-play.

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

``--goal inverted`` fits the inverted goal (fewer discs wins) the same way on its own data:
no master games of it exist, so ``selfplay`` plays games from the seed and the exact solver
labels them (every position from ``--solve-empties`` on exactly, each earlier one with the
exact value of its game's position there). It writes ``pattern_weights_inverted.bin``.

Needs the ``train`` extra (numpy, scipy); the package itself never imports this module.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import lsqr

from . import native
from .errors import IllegalMoveError, InvalidPositionError
from .geometry import geometry
from .search.endgame import make_endgame
from .search.patterns import (
    EXTRAS,
    INVERTED_WEIGHTS_FILE,
    PATTERNS,
    PHASES,
    WEIGHTS_FILE,
    canonical_columns,
    phase_bands,
    phase_of,
    write_weights,
)
from .selfplay import MAX_SOLVE_EMPTIES, LabelledPosition, SelfPlaySettings, label_game, play_game
from .squares import parse_square
from .wthor import WthorRecord, read_wthor

__all__ = [
    "DEFAULT_DAMP",
    "DEFAULT_DATA",
    "DEFAULT_SELF_PLAY_GAMES",
    "DEFAULT_SELF_PLAY_SEED",
    "FIRST_YEAR",
    "LAST_YEAR",
    "THEORETICAL_EMPTIES",
    "Fit",
    "Positions",
    "T",
    "design_matrix",
    "features",
    "fit",
    "load_games",
    "main",
    "pattern_columns",
    "positions_of",
    "positions_of_labelled",
    "progress_bar",
    "self_play",
    "self_play_data",
    "wthor_data",
    "wthor_files",
]

#: The training years; later years are the test set and are never read here.
FIRST_YEAR = 1977
LAST_YEAR = 2015
#: WTHOR's theoretical scores hold for the position at this many empties (header P3).
THEORETICAL_EMPTIES = 24
DEFAULT_DAMP = 3.0
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"
#: Self-play games of the inverted goal by default, and the seed of the shipped weights.
DEFAULT_SELF_PLAY_GAMES = 10_000
DEFAULT_SELF_PLAY_SEED = 1

T = TypeVar("T")


def progress_bar(items: Sequence[T], label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items`` while drawing a one-line text bar on stderr (at most five times a
    second: a bar over many short items would spend its time drawing)."""
    out = sys.stderr if stream is None else stream
    total = max(1, len(items))
    start = drawn = time.perf_counter()
    for done, item in enumerate(items):
        if done == 0 or time.perf_counter() - drawn >= 0.2:
            _draw(out, label, done, total, start)
            drawn = time.perf_counter()
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

    @classmethod
    def of_columns(cls, columns: Sequence[array[Any]], games: int, skipped: int) -> Positions:
        """From the five columns as the ``array`` objects they were gathered in, in order."""
        mover, opponent, empties, mobility, label = columns
        return cls(
            np.frombuffer(mover, dtype=np.uint64),
            np.frombuffer(opponent, dtype=np.uint64),
            np.frombuffer(empties, dtype=np.int64),
            np.frombuffer(mobility, dtype=np.int64),
            np.frombuffer(label, dtype=np.float64),
            games,
            skipped,
        )


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
    return Positions.of_columns((mover, opponent, empties, mobility, label), games, skipped)


def positions_of_labelled(games: Iterable[Sequence[LabelledPosition]]) -> Positions:
    """Self-play games' labelled positions as columns (every one has a move for the mover)."""
    moves = geometry(8).moves
    mover, opponent = array("Q"), array("Q")
    empties, mobility, label = array("q"), array("q"), array("d")
    count = 0
    for game in games:
        count += 1
        for pos in game:
            mover.append(pos.mover)
            opponent.append(pos.opponent)
            empties.append(pos.empties)
            mobility.append(moves(pos.mover, pos.opponent).bit_count() - moves(pos.opponent, pos.mover).bit_count())
            label.append(pos.margin)
    return Positions.of_columns((mover, opponent, empties, mobility, label), count, 0)


def self_play(games: int, seed: int, settings: SelfPlaySettings, show: bool = True) -> list[list[LabelledPosition]]:
    """Games ``0 .. games-1`` of ``seed``, played and labelled (see ``selfplay``)."""
    native.wait("midgame")  # the same games either way, only sooner compiled
    native.wait("endgame")
    solver = make_endgame(8, settings.goal)
    numbers = range(games)
    return [
        label_game(play_game(seed, number, settings), solver, settings.solve_empties)
        for number in (progress_bar(numbers, "self-play") if show else numbers)
    ]


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
    parser.add_argument("--goal", choices=("classic", "inverted"), default="classic", help="the goal to fit")
    parser.add_argument("--data", type=Path, default=None, help=f"folder of WTH_<year>.wtb files ({DEFAULT_DATA})")
    parser.add_argument("--out", type=Path, default=None, help="weights file to write (the goal's shipped one)")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="classic: train on a random sample of this many games; "
        f"inverted: play this many games ({DEFAULT_SELF_PLAY_GAMES})",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the game sample or of the self-play games")
    parser.add_argument("--damp", type=float, default=DEFAULT_DAMP, help="ridge regularisation of lsqr")
    parser.add_argument("--iterations", type=int, default=300, help="lsqr iteration limit per phase")
    parser.add_argument("--first-year", type=int, default=None, help=f"classic: first training year ({FIRST_YEAR})")
    parser.add_argument("--last-year", type=int, default=None, help=f"classic: last training year ({LAST_YEAR})")
    parser.add_argument(
        "--solve-empties",
        type=int,
        default=None,
        help=f"inverted: solve every position exactly from this many empties ({SelfPlaySettings.solve_empties})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if not (args.damp >= 0 and math.isfinite(args.damp)):
        parser.error(f"--damp must be a finite number >= 0, got {args.damp}")
    if args.iterations < 1:
        parser.error(f"--iterations must be at least 1, got {args.iterations}")
    if args.goal == "inverted":
        classic_only = {"--data": args.data, "--first-year": args.first_year, "--last-year": args.last_year}
        for option, value in classic_only.items():
            if value is not None:
                parser.error(f"{option} applies to the classic goal's WTHOR games; the inverted goal plays its own")
        if args.solve_empties is not None and not 0 <= args.solve_empties <= MAX_SOLVE_EMPTIES:
            parser.error(f"--solve-empties must be from 0 to {MAX_SOLVE_EMPTIES}, got {args.solve_empties}")
    else:
        if args.solve_empties is not None:
            parser.error("--solve-empties applies to the inverted goal's self-play games")
        if args.last_year is not None and args.last_year > LAST_YEAR:
            parser.error(f"the years after {LAST_YEAR} are the test set and never train")
    out = args.out if args.out is not None else INVERTED_WEIGHTS_FILE if args.goal == "inverted" else WEIGHTS_FILE
    if not out.parent.is_dir():
        print(f"error: cannot write the weights file {out}: its folder does not exist", file=sys.stderr)
        return 2
    show = not args.quiet
    if args.goal == "inverted":
        start = time.perf_counter()
        data, notes = self_play_data(args, show)
    else:
        first_year = FIRST_YEAR if args.first_year is None else args.first_year
        last_year = LAST_YEAR if args.last_year is None else args.last_year
        try:
            files = wthor_files(DEFAULT_DATA if args.data is None else args.data, first_year, last_year)
        except InvalidPositionError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        start = time.perf_counter()
        seed = 2021 if args.seed is None else args.seed
        data = wthor_data(load_games(files, args.games, seed, show), show)
        notes = {
            "years": f"{first_year}-{last_year}",
            "games": data.games,
            "positions": len(data.label),
            "damp": args.damp,
            "seed": seed,
            "sample": args.games,
            "labels": f"theoretical score from {THEORETICAL_EMPTIES} empties up, final score below",
        }
    prepared = time.perf_counter() - start
    result = fit(data, args.damp, args.iterations, show)
    try:
        size = write_weights(out, result.weights, notes)
    except OSError as error:
        print(f"error: cannot write the weights file {out} ({error.strerror or error})", file=sys.stderr)
        return 2
    games = f"{data.games} self-play games" if args.goal == "inverted" else f"{data.games} games"
    skipped = "" if args.goal == "inverted" else f" ({data.skipped} too short skipped)"
    made = "played and labelled" if args.goal == "inverted" else "read"
    print(
        f"{games}{skipped}, {len(data.label)} positions, "
        f"{made} in {prepared:.1f} s, fitted in {result.seconds:.1f} s; wrote {out} ({size} bytes)"
    )
    for k, ((low, high), count, mae) in enumerate(zip(phase_bands(), result.rows, result.errors, strict=True)):
        print(f"phase {k:2d} (empties {low:2d}-{high:2d}): {count:8d} positions, train MAE {mae:5.2f}")
    return 0


def wthor_data(records: list[WthorRecord], show: bool) -> Positions:
    """The positions of WTHOR records, replayed a chunk at a time."""
    chunks = _chunks(records, 2000)
    parts = [positions_of(chunk) for chunk in (progress_bar(chunks, "replaying") if show else chunks)]
    return Positions(
        np.concatenate([p.mover for p in parts]),
        np.concatenate([p.opponent for p in parts]),
        np.concatenate([p.empties for p in parts]),
        np.concatenate([p.mobility for p in parts]),
        np.concatenate([p.label for p in parts]),
        sum(p.games for p in parts),
        sum(p.skipped for p in parts),
    )


def self_play_data(args: argparse.Namespace, show: bool) -> tuple[Positions, dict[str, object]]:
    """The inverted goal's labelled self-play positions and the notes that describe them."""
    settings = SelfPlaySettings(
        goal="inverted",
        solve_empties=SelfPlaySettings.solve_empties if args.solve_empties is None else args.solve_empties,
    )
    games = DEFAULT_SELF_PLAY_GAMES if args.games is None else args.games
    seed = DEFAULT_SELF_PLAY_SEED if args.seed is None else args.seed
    data = positions_of_labelled(self_play(games, seed, settings, show))
    notes: dict[str, object] = {
        "goal": "inverted",
        "source": "self-play",
        "games": data.games,
        "positions": len(data.label),
        "damp": args.damp,
        "seed": seed,
        "level": settings.level,
        "opening": list(settings.opening),
        "random_share": settings.random_share,
        "solve_empties": settings.solve_empties,
        "labels": f"exact from {settings.solve_empties} empties, the game's exact value there above",
    }
    return data, notes


def _chunks(items: list[T], size: int) -> list[list[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


if __name__ == "__main__":
    raise SystemExit(main())
