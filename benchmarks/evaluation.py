"""How close the evaluations come to exact scores, on games they never saw.

The test set is every WTHOR game of 2016-2021 (the learned weights train on 1977-2015 only):
the position each game reached at 24 empties, whose exact margin for the side to move is the
record's theoretical score. For today's hand-weighted evaluation and the learned pattern
evaluation it reports, against that exact margin:

* the mean absolute error in discs of the static evaluation, and of depth-4 and depth-8
  searches: the package's own, as it ships, for the learned evaluation (the best score of
  ``analyse(board, depth=d)``, compiled when the core is there), and the same search made with
  ``make_midgame(..., learned=False)`` for the hand-made one;
* the correlation, the share of positions with the right winner (the estimate rounded to
  whole discs has the exact margin's sign, so a squeezed +0.3 for a won position is a draw and
  wrong), the share with the right sign (estimate above 0 exactly when the margin is, drawn
  positions left out), and the spread of the estimates against the spread of the truth
  (1.0 = real discs, 0.3 = squeezed threefold);
* on a sample of them, the share where the depth-8 best move keeps the exact score (the exact
  solver checks each such move, compiled a few seconds a move).

Predicting 0 everywhere is the baseline row.

    python benchmarks/evaluation.py          # static on all, depth 4 on 300, depth 8 on 40, 20 checked
    python benchmarks/evaluation.py --depth4 1000 --depth8 100 --keep 100
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from reversi_widget import Board, native
from reversi_widget.analysis import analyse
from reversi_widget.errors import InvalidPositionError
from reversi_widget.geometry import geometry
from reversi_widget.rules import Rules
from reversi_widget.search import INFINITY, patterns, score_to_margin
from reversi_widget.search.endgame import make_endgame
from reversi_widget.search.evaluate import make_evaluator
from reversi_widget.search.midgame import make_midgame
from reversi_widget.search.patterns import WEIGHTS_FILE, make_pattern_evaluator
from reversi_widget.squares import parse_square
from reversi_widget.wthor import read_wthor

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"
TEST_YEARS = range(2016, 2022)
EMPTIES = 24

Evaluate = Callable[[int, int, int], int]


@dataclass(frozen=True)
class Position:
    mover: int
    opponent: int
    exact: int  # the exact final margin for the mover: the record's theoretical score
    moves: tuple[str, ...]  # the game's moves up to here

    def board(self) -> Board:
        board = Board()
        for name in self.moves:
            if board.must_pass():
                board.push_pass()
            board.push(name)
        if board.must_pass():
            board.push_pass()
        return board


def test_positions(folder: Path, empties: int) -> list[Position]:
    """The position at ``empties`` of every test-year game, mover to play."""
    geo = geometry(8)
    out = []
    files = [folder / f"WTH_{year}.wtb" for year in TEST_YEARS]
    missing = [f.name for f in files if not f.exists()]
    if missing:
        raise InvalidPositionError(f"{folder} lacks the test years' WTHOR files: {', '.join(missing)}")
    for path in files:
        for record in read_wthor(path):
            p, o, black = 0x0000000810000000, 0x0000001008000000, True
            margin = 2 * record.theoretical_score - 64
            for ply, name in enumerate(record.moves):
                legal = geo.moves(p, o)
                if not legal:
                    p, o, black = o, p, not black
                if (geo.full ^ (p | o)).bit_count() == empties:
                    out.append(Position(p, o, margin if black else -margin, tuple(record.moves[:ply])))
                    break
                sq = parse_square(name)
                f = geo.flips(p, o, sq)
                p, o, black = o ^ f, p | f | (1 << sq), not black
    return out


def searched(name: str, depth: int, positions: Sequence[Position]) -> tuple[list[float], list[int], float]:
    """(estimated margins, best squares, nodes per second) of depth-``depth`` searches with the
    ``learned`` evaluation (``analyse``, as it ships) or ``today``'s (the same search, hand-made)."""
    moves = geometry(8).moves
    estimates, best = [], []
    nodes, start = 0, time.perf_counter()
    for pos in positions:
        if name == "learned":
            analysis = analyse(pos.board(), depth=depth)
            estimates.append(analysis.best.score)
            square = analysis.best.move.square
            best.append(-1 if square is None else square)
            nodes += analysis.nodes
            continue
        search = make_midgame(8, "classic", Rules().scoring, learned=False)
        legal = moves(pos.mover, pos.opponent)
        score = search.negamax(pos.mover, pos.opponent, depth, -INFINITY, INFINITY, legal)
        estimates.append(score_to_margin(score)[0])
        line = search.principal_line(pos.mover, pos.opponent, 1)
        best.append(line[0] if line and line[0] is not None else -1)
        nodes += search.take_nodes()
    return estimates, best, nodes / max(1e-9, time.perf_counter() - start)


class Sided(Protocol):
    """A position as the static evaluation reads it: the mover's and the opponent's discs."""

    @property
    def mover(self) -> int: ...

    @property
    def opponent(self) -> int: ...


def static(evaluate: Evaluate, positions: Sequence[Sided]) -> tuple[list[float], float]:
    """(static estimates, evaluations per second)."""
    moves = geometry(8).moves
    legal = [moves(pos.mover, pos.opponent) for pos in positions]
    start = time.perf_counter()
    values = [evaluate(pos.mover, pos.opponent, mine) / 100 for pos, mine in zip(positions, legal, strict=True)]
    return values, len(positions) / max(1e-9, time.perf_counter() - start)


@dataclass(frozen=True)
class Row:
    name: str
    count: int
    mae: float
    correlation: float
    winner: float  # the estimate rounded to whole discs has the sign of the exact margin
    sign: float  # the estimate is above 0 exactly when the exact margin is (drawn positions left out)
    spread: float


def row(name: str, estimates: Sequence[float], truth: Sequence[int]) -> Row:
    mae = statistics.fmean(abs(e - t) for e, t in zip(estimates, truth, strict=True))
    try:
        corr = statistics.correlation(estimates, [float(t) for t in truth])
    except statistics.StatisticsError:
        corr = math.nan
    right = sum(_sign(round(e)) == _sign(t) for e, t in zip(estimates, truth, strict=True))
    decided = [(e, t) for e, t in zip(estimates, truth, strict=True) if t != 0]
    sign = sum((e > 0) == (t > 0) for e, t in decided) / max(1, len(decided))
    spread = statistics.pstdev(estimates) / max(1e-9, statistics.pstdev(truth))
    return Row(name, len(truth), mae, corr, right / len(truth), sign, spread)


def print_rows(rows: Sequence[Row]) -> None:
    """The rows as a Markdown table."""
    print("| evaluation | positions | MAE (discs) | correlation | right winner | right sign | spread / truth |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r.name} | {r.count} | {r.mae:.2f} | {r.correlation:.3f} | {100 * r.winner:.1f}% "
            f"| {100 * r.sign:.1f}% | {r.spread:.2f} |"
        )


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def keeps_exact(evaluators: dict[str, Evaluate], positions: Sequence[Position]) -> dict[str, float]:
    """Per evaluation, the share of positions where its depth-8 best move keeps the exact
    value. The position's exact value is its record's theoretical score, and no move does
    better, so a move keeps it exactly when the solver proves, by one null-window search of
    the position after it, that the opponent gets no more than minus that value."""
    best = {name: searched(name, 8, positions)[1] for name in evaluators}
    solver = make_endgame(8)
    geo = geometry(8)
    kept = dict.fromkeys(evaluators, 0)
    for index, pos in enumerate(positions):
        verdicts: dict[int, bool] = {}
        for name in evaluators:
            square = best[name][index]
            if square not in verdicts:
                flips = geo.flips(pos.mover, pos.opponent, square)
                mover, opponent = pos.opponent ^ flips, pos.mover | flips | (1 << square)
                verdicts[square] = solver.search(mover, opponent, -pos.exact, -pos.exact + 1) <= -pos.exact
            kept[name] += verdicts[square]
        print(f"  solved {index + 1}/{len(positions)}", end="\r", file=sys.stderr)
    return {name: count / max(1, len(positions)) for name, count in kept.items()}


def compiled_speed(weights: Path, positions: Sequence[Position]) -> float | None:
    """Evaluations per second of the compiled twin called from Python (None without numba)."""
    try:
        from reversi_widget.native.patterns import pattern_arrays, score
    except ImportError:
        return None
    from reversi_widget.search.patterns import read_weights

    arrays = pattern_arrays(read_weights(weights))
    moves = geometry(8).moves
    legal = [moves(pos.mover, pos.opponent) for pos in positions]
    score(arrays, positions[0].mover, positions[0].opponent, legal[0])  # compile or load the cache
    start = time.perf_counter()
    for pos, mine in zip(positions, legal, strict=True):
        score(arrays, pos.mover, pos.opponent, mine)
    return len(positions) / max(1e-9, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--depth4", type=int, default=300, help="positions searched at depth 4")
    parser.add_argument("--depth8", type=int, default=40, help="positions searched at depth 8")
    parser.add_argument("--keep", type=int, default=20, help="positions whose depth-8 move the solver checks")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"skipping: no WTHOR folder at {args.data}")
        return 0
    patterns.WEIGHTS_FILES["classic"] = args.weights  # the package's searches evaluate with these
    core = native.wait("midgame") and native.wait("endgame")
    print(f"searches on the {'compiled core' if core else 'pure-Python path'}")
    positions = test_positions(args.data, EMPTIES)
    truth = [p.exact for p in positions]
    rng = random.Random(args.seed)
    evaluators = {"today": make_evaluator(8, "classic"), "learned": make_pattern_evaluator(args.weights)}
    start = time.perf_counter()
    evaluators["learned"](0x0000000810000000, 0x0000001008000000, 0)
    print(f"learned weights loaded in {time.perf_counter() - start:.2f} s")
    print(f"{len(positions)} test positions at {EMPTIES} empties (years {TEST_YEARS[0]}-{TEST_YEARS[-1]})")
    rows = [row("always 0", [0.0] * len(truth), truth)]
    speeds = {}
    for name, evaluate in evaluators.items():
        values, per_second = static(evaluate, positions)
        speeds[name] = per_second
        rows.append(row(f"{name} static", values, truth))
    for depth, count in ((4, args.depth4), (8, args.depth8)):
        if count <= 0:
            continue
        sample = rng.sample(positions, min(count, len(positions)))
        for name in evaluators:
            estimates, _best, nps = searched(name, depth, sample)
            rows.append(row(f"{name} depth {depth}", estimates, [p.exact for p in sample]))
            print(f"  {name} depth {depth}: {nps:,.0f} nodes/s", file=sys.stderr)
    keep = rng.sample(positions, min(args.keep, len(positions)))
    kept = keeps_exact(evaluators, keep)
    print()
    print_rows(rows)
    print()
    for name, share in kept.items():
        print(
            f"{name}: depth-8 best move keeps the exact score in {100 * share:.0f}% of {len(keep)} positions "
            f"at {EMPTIES} empties (checked by the solver)"
        )
    compiled = compiled_speed(args.weights, positions)
    if compiled is not None:
        speeds["learned, compiled (called from Python)"] = compiled
    for name, per_second in speeds.items():
        print(f"{name} static evaluation: {per_second:,.0f} positions/s ({1e6 / per_second:.1f} µs each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
