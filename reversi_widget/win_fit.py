"""Fit the win-chance curves and write ``data/win_chance.json``: ``python -m reversi_widget.win_fit``.

Positions come from master games (WTHOR, training years 1977-2015 only: the years after are
the test set of ``benchmarks/win_chance.py``), one from each game drawn, at a number of empty
squares drawn evenly from ``--empties``. Each is scored by ``analyse`` at the compiled
search's default depth (``default_depth(8)``, 8 plies: what the widget's live evaluation and
``analyse()`` give by default, short of the exact solve of the last 20 empties), and labelled
with how its game ended for the side to move (1 a win, 0.5 a draw, 0 a loss, from the
recorded score). Positions whose result the analysis proves are left out: their chance is
exact. Per band of empties, a logistic curve in the score is fitted by maximum likelihood
(``scipy.optimize``); see ``winchance``.

Needs the ``train`` extra (numpy, scipy) and the compiled core; the same seed gives the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from . import native
from .analysis import analyse, default_depth
from .board import Board
from .errors import InvalidPositionError
from .squares import BLACK, WHITE
from .train import DEFAULT_DATA, FIRST_YEAR, LAST_YEAR, progress_bar, wthor_files
from .winchance import FORMAT, VERSION, WIN_CHANCE_FILE, black_win_chance, model_key
from .wthor import read_wthor, replay

__all__ = ["BANDS", "Scored", "fit_band", "main", "master_positions", "outcome", "score_positions"]

#: The bands of empty squares fitted (low, high): eight empties each through the midgame,
#: the last one reaching the full board (the first moves' scores hardly differ).
BANDS = ((0, 16), (17, 24), (25, 32), (33, 40), (41, 48), (49, 64))
#: Positions with these empties are drawn (more are openings every game shares, fewer are solved).
DEFAULT_EMPTIES = (9, 58)


@dataclass(frozen=True)
class Scored:
    """A position's analysis as the curves read it, and how its game ended for Black."""

    empties: int
    black_to_move: bool
    score: float  # the best move's score, discs for the side to move
    result: str | None  # the result the analysis proves for the side to move, or None
    black_result: float  # 1 a Black win, 0.5 a draw, 0 a loss, as the game went

    @property
    def proven(self) -> bool:
        return self.result is not None

    @property
    def mover_result(self) -> float:
        return self.black_result if self.black_to_move else 1.0 - self.black_result

    def black_chance(self) -> float | None:
        """``Analysis.win_chance`` of the position, with the curves in use."""
        return black_win_chance(
            BLACK if self.black_to_move else WHITE, self.score, self.empties, 8, "classic", [self.result]
        )


def outcome(black_score: int) -> float:
    """How a WTHOR game ended for Black from its recorded discs (R23: 32 is a draw)."""
    return 1.0 if black_score > 32 else 0.5 if black_score == 32 else 0.0


def master_positions(
    files: Sequence[Path], rng: random.Random, count: int, empties: tuple[int, int]
) -> list[tuple[Board, float]]:
    """(position, Black's result) of ``count`` games drawn from ``files``, each at a number of
    empties drawn from the range (a game that ends before it gives none)."""
    records = [record for path in files for record in read_wthor(path)]
    rng.shuffle(records)
    out: list[tuple[Board, float]] = []
    for record in records:
        if len(out) >= count:
            break
        target = rng.randint(*empties)
        played = replay(record)
        board = Board()
        for move in played.move_stack:
            if board.empty_count() <= target and not board.must_pass():
                break
            board.push(move)
        if board.empty_count() == target and not board.is_game_over():
            out.append((board.copy(stack=False), outcome(record.black_score)))
    return out


def score_positions(positions: Sequence[tuple[Board, float]], depth: int, show: bool = True) -> list[Scored]:
    """Each position analysed at ``depth`` and read as ``Analysis.win_chance`` reads it: the
    best score, and the result where the best move is a proven win or every move is proven."""
    scored = []
    for board, result in progress_bar(positions, "analyse") if show else positions:
        analysis = analyse(board, depth=depth)
        best = analysis.best
        proven = best.result == "win" or all(m.proven for m in analysis.moves)
        scored.append(
            Scored(analysis.empties, board.turn == BLACK, best.score, best.result if proven else None, result)
        )
    return scored


def fit_band(scores: np.ndarray, results: np.ndarray) -> tuple[float, float]:
    """(slope, intercept) of the logistic curve that best explains ``results`` (1, 0.5, 0 for
    the mover) from ``scores`` (discs): the maximum of the likelihood, draws as half a win."""

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        slope, intercept = theta
        x = intercept + slope * scores
        # log(1 + exp(x)) without overflow; p = sigmoid(x).
        softplus = np.logaddexp(0.0, x)
        value = float(np.sum(softplus - results * x))
        p = 1.0 / (1.0 + np.exp(-x))
        grad = np.array([np.sum((p - results) * scores), np.sum(p - results)])
        return value, grad

    found = minimize(loss, np.array([0.1, 0.0]), jac=True, method="L-BFGS-B")
    if not found.success:
        raise InvalidPositionError(f"the logistic fit did not converge: {found.message}")
    slope, intercept = (float(v) for v in found.x)
    return slope, intercept


def fit(samples: Sequence[Scored], min_samples: int) -> list[dict[str, float]]:
    """One curve per band of ``BANDS`` from the positions whose result is not proven."""
    bands = []
    for low, high in BANDS:
        chosen = [s for s in samples if low <= s.empties <= high and not s.proven]
        if len(chosen) < min_samples:
            raise InvalidPositionError(
                f"too few positions with {low}-{high} empties to fit a curve: {len(chosen)} of {min_samples} "
                "(use more --positions)"
            )
        scores = np.array([s.score for s in chosen], dtype=float)
        results = np.array([s.mover_result for s in chosen], dtype=float)
        slope, intercept = fit_band(scores, results)
        if slope <= 0:
            raise InvalidPositionError(f"the curve of {low}-{high} empties has slope {slope} <= 0: more positions")
        bands.append({"low": low, "high": high, "slope": slope, "intercept": intercept, "count": len(chosen)})
    return bands


def write(path: Path, bands: list[dict[str, float]], notes: dict[str, object]) -> None:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "variants": {model_key(8, "classic"): {"bands": bands, "notes": notes}},
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m reversi_widget.win_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_<year>.wtb files")
    parser.add_argument("--out", type=Path, default=WIN_CHANCE_FILE, help="the win-chance file to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=8000, help="positions drawn, one per game")
    parser.add_argument("--min-samples", type=int, default=200, help="fewest positions a band's curve is fitted on")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.min_samples < 2:
        parser.error("--positions must be at least 1 and --min-samples at least 2")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    native.wait("midgame")
    native.wait("endgame")
    depth = default_depth(8)
    files = wthor_files(args.data, FIRST_YEAR, LAST_YEAR)
    positions = master_positions(files, random.Random(args.seed), args.positions, DEFAULT_EMPTIES)
    samples = score_positions(positions, depth)
    bands = fit(samples, args.min_samples)
    notes = {
        "seed": args.seed,
        "positions": len(samples),
        "proven (left out)": sum(s.proven for s in samples),
        "empties": f"{DEFAULT_EMPTIES[0]}-{DEFAULT_EMPTIES[1]}",
        "score": f"analyse(board, depth={depth}): the best move's score, discs for the side to move",
        "source": f"WTHOR {FIRST_YEAR}-{LAST_YEAR}, one position per game, labelled with the recorded result",
    }
    write(args.out, bands, notes)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
