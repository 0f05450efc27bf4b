"""How well the review's marks (``?!``, ``?``, ``??``) made from estimates match the marks the
exact scores would give, on positions of games the learned weights never saw.

``review()`` charges a move the discs it gives away against the best move. Where the solver
does not reach, both scores are the analysis' estimates (``analyse(position)``, as the
review calls it, in real discs with the learned evaluation on 8x8), and a loss worth a mark
is searched again two plies deeper, the played and the best move only, before it is charged
(``analysis.judge``), or, with ``analysis.REVIEW_END_EMPTIES`` empty squares or fewer, the
played and the best move are searched to the end by a selective search within
``analysis.REVIEW_END_SECONDS`` (the rows "marks checked" do this at 21 empties); the marks'
thresholds (``analysis.REVIEW_MARKS``: 2, 6 and 12 discs) are set in real discs. Here every
legal move of each position is scored both ways: estimated as the review does, and exactly
(``analyse(position, depth=empties)``). The tables count each move by the mark its estimated
loss gives (rows) and the mark its exact loss gives (columns), for the shipping evaluation
at the compiled review's depth (``review_depth``: 6, checked at 8), at the compiled
analysis' depth (8) and at the pure path's (4: the compiled search gives the pure one's
scores at a depth, faster), with and without the deeper check, for the hand-made evaluation
(the same search, ``learned=False``) beside them, and with ``--selective`` for selective
searches to the end.

Positions: the 2016-2021 WTHOR games at ``--empties`` (21 by default: one more than the
compiled ``analyse`` solves exactly, so the first the review estimates, and few enough to
solve every move in seconds; the estimates only get rougher further from the end).

    python benchmarks/review_marks.py --data ../shared/data/wthor --positions 60
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from reversi_widget import Board, native
from reversi_widget.analysis import REVIEW_CHECK_PLIES, REVIEW_MARKS, analyse, default_depth, judge, review_depth
from reversi_widget.search import FULL_WIDTH, INFINITY, score_to_margin
from reversi_widget.search.midgame import make_midgame
from reversi_widget.wthor import read_wthor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluation import DEFAULT_DATA, TEST_YEARS, test_positions

MARKS = ["", *(sign for _, sign in sorted(REVIEW_MARKS))]
#: ``analysis.default_depth(8)`` on the pure path: the compiled search scores alike at a depth.
PURE_DEPTH = 4

Scores = dict[str, float]


def mark(loss: float) -> str:
    """The mark the review gives a loss (as ``play.view.review_entry`` does)."""
    return next((sign for least, sign in REVIEW_MARKS if round(loss, 1) >= least), "")


def learned_losses(board: Board, depth: int, check: bool) -> Scores:
    """Every move's loss as the review judges it where it estimates: ``analyse`` at a depth
    (given, so that it estimates however few the empties), and with ``check`` an estimated
    loss worth a mark searched again deeper (``analysis.judge``), as the review does."""
    analysis = analyse(board, depth=depth)
    return {str(m.move): judge(board, analysis, m.move, check=check)[2] for m in analysis.moves}


def children(board: Board) -> list[tuple[str, int, int, int]]:
    """(move, opponent's and mover's bitboards after it, the opponent's replies) for every
    legal move: the positions a search of each move starts from."""
    p, o = board.sides()
    geo = board.geometry
    out = []
    for move in board.legal_moves:
        sq = move.square
        assert sq is not None
        f = geo.flips(p, o, sq)
        no, np_ = o ^ f, p | f | (1 << sq)
        out.append((str(move), no, np_, geo.moves(no, np_)))
    return out


def hand_made_losses(board: Board, depth: int) -> Scores:
    """The same with the hand-made evaluation: each move searched with a full window."""
    rules = board.rules
    search = make_midgame(board.size, rules.goal, rules.scoring, learned=False)
    scores: Scores = {}
    for move, no, np_, reply in children(board):
        for d in range(1, depth + 1):  # iterative deepening fills the table, as analyse does
            value = -search.negamax(no, np_, d - 1, -INFINITY, INFINITY, reply)
        scores[move] = min(64.0, max(-64.0, score_to_margin(value)[0]))
    return losses(scores)


def selective_end_losses(board: Board, selectivity: int) -> Scores:
    """Every move scored by a selective search to the end (probable cuts at ``selectivity``,
    ``native.midgame.SELECTIVITY_T``), each with a full window: what the review would get if
    it searched to the end selectively where it now estimates at a depth."""
    rules = board.rules
    search = make_midgame(board.size, rules.goal, rules.scoring)
    search.selectivity = selectivity
    empties = board.empty_count()
    scores: Scores = {}
    for move, no, np_, reply in children(board):
        value = -search.negamax(no, np_, empties - 1, -INFINITY, INFINITY, reply)
        scores[move] = score_to_margin(value)[0]
    return losses(scores)


def losses(scores: Scores) -> Scores:
    best = max(scores.values())
    return {move: best - score for move, score in scores.items()}


def table(name: str, pairs: Sequence[tuple[float, float]]) -> None:
    counts = {(a, b): 0 for a in MARKS for b in MARKS}
    for estimated, exact in pairs:
        counts[mark(estimated), mark(exact)] += 1
    print(f"\n{name}: {len(pairs)} moves; rows: mark by the estimate, columns: mark by the exact score")
    print("| estimate \\ exact | " + " | ".join(m or "none" for m in MARKS) + " | share right |")
    print("|---|" + "---:|" * (len(MARKS) + 1))
    for a in MARKS:
        row = [counts[a, b] for b in MARKS]
        right = f"{100 * counts[a, a] / sum(row):.0f}%" if sum(row) else "-"
        print(f"| {a or 'none'} | " + " | ".join(str(c) for c in row) + f" | {right} |")
    marked = [(e, x) for e, x in pairs if mark(e)]
    false = sum(1 for e, x in marked if x < REVIEW_MARKS[-1][0])
    missed = sum(1 for e, x in pairs if x >= REVIEW_MARKS[1][0] and not mark(e))
    error = statistics.fmean(abs(e - x) for e, x in pairs)
    print(
        f"marked moves that lose under {REVIEW_MARKS[-1][0]:g} discs exactly: {false}/{len(marked)};"
        f" moves losing {REVIEW_MARKS[1][0]:g}+ exactly left unmarked: {missed};"
        f" mean |estimated - exact loss| {error:.2f} discs"
    )


def next_moves(folder: Path, lines: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """The move each line's game played next (the first test-year game that has the line)."""
    wanted: dict[int, set[tuple[str, ...]]] = {}
    for line in lines:
        wanted.setdefault(len(line), set()).add(line)
    found: dict[tuple[str, ...], str] = {}
    for year in TEST_YEARS:
        for record in read_wthor(folder / f"WTH_{year}.wtb"):
            moves = tuple(record.moves)
            for length, group in wanted.items():
                if length < len(moves) and moves[:length] in group:
                    found.setdefault(moves[:length], moves[length])
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--empties", type=int, default=21)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--selective",
        type=int,
        nargs="*",
        default=[],
        choices=range(FULL_WIDTH),
        help="also score every move by a selective search to the end at these selectivities (slow)",
    )
    args = parser.parse_args(argv)
    if not (native.wait("midgame") and native.wait("endgame")):
        raise SystemExit(f"the compiled core is not available: {native.failure()}")
    positions = random.Random(args.seed).sample(test_positions(args.data, args.empties), args.positions)
    played_next = next_moves(args.data, [p.moves for p in positions])
    depth = default_depth(8)  # the compiled analysis' own; the pure path's (4) gives the same scores at 4
    deeper = depth + REVIEW_CHECK_PLIES
    at = review_depth(8)  # the compiled review's own
    estimators: dict[str, Callable[[Board], Scores]] = {
        f"learned, depth {at}, marks checked at {at + REVIEW_CHECK_PLIES} (the review)": lambda board: learned_losses(
            board, at, True
        ),
        f"learned, depth {depth}, marks checked at {deeper} (analyse's depth)": lambda board: learned_losses(
            board, depth, True
        ),
        f"learned, depth {depth}, unchecked": lambda board: learned_losses(board, depth, False),
        f"learned, depth {PURE_DEPTH}, marks checked at {PURE_DEPTH + REVIEW_CHECK_PLIES} (the pure path's review)": (
            lambda board: learned_losses(board, PURE_DEPTH, True)
        ),
        f"learned, depth {PURE_DEPTH}, unchecked": lambda board: learned_losses(board, PURE_DEPTH, False),
        f"hand-made, depth {depth}, unchecked": lambda board: hand_made_losses(board, depth),
    }
    for s in args.selective:
        estimators[f"learned, selective search to the end, selectivity {s}"] = partial(
            selective_end_losses, selectivity=s
        )
    pairs: dict[str, list[tuple[float, float]]] = {name: [] for name in estimators}
    played: dict[str, list[tuple[float, float]]] = {name: [] for name in estimators}
    start = time.perf_counter()
    for index, position in enumerate(positions):
        board = position.board()
        exact = losses({str(m.move): m.score for m in analyse(board, depth=board.empty_count()).moves})
        following = played_next.get(position.moves, "")
        for name, estimate in estimators.items():
            estimated = estimate(board)
            pairs[name] += [(estimated[move], exact[move]) for move in exact]
            if following in exact:
                played[name].append((estimated[following], exact[following]))
        print(f"{index + 1}/{len(positions)} positions ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    for name in estimators:
        table(f"{name}, every legal move", pairs[name])
        table(f"{name}, the move the master played", played[name])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
