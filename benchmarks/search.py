"""Midgame search speed: the expert's nodes per second and the depth it reaches in its time,
compiled and in pure Python, with the learned evaluation (8x8 as it ships) and with the
hand-made one (``Engine(..., learned=False)``), in one run.

Positions come from seeded random games on 8x8, 12 to 36 plies in (far enough from the end
that no exact solve starts). On each, ``Engine("expert", time_limit=...)`` chooses a move
once in every configuration, in turns, so a slow spell of a shared machine hits all alike;
the pure path is chosen as without numba, by ``REVERSI_WIDGET_PURE``. Nodes per second are
taken over CPU time (steadier here than wall time); the depth is the last iteration the
engine completed. Medians, and medians of the per-position ratios.

    python benchmarks/search.py [--positions 12] [--time-limit 1.0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from reversi_widget import Board, native
from reversi_widget.engine import Engine

#: (name, pure path, learned evaluation)
CONFIGURATIONS = (
    ("compiled, learned", False, True),
    ("compiled, hand-made", False, False),
    ("pure, learned", True, True),
    ("pure, hand-made", True, False),
)


@contextmanager
def pure_path(pure: bool) -> Iterator[None]:
    """Engines made and run inside on the pure-Python path when ``pure``, as without numba."""
    before = os.environ.get(native.PURE_ENV)
    if pure:
        os.environ[native.PURE_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(native.PURE_ENV, None)
        else:
            os.environ[native.PURE_ENV] = before


def positions(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = Board()
        for _ in range(rng.randint(12, 36)):
            if board.is_game_over():
                break
            if board.must_pass():
                board.push_pass()
            else:
                board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and len(board.legal_moves) >= 2:
            out.append(board)
    return out


def think(board: Board, time_limit: float, learned: bool) -> tuple[int, int, float]:
    """(depth reached, nodes, CPU seconds) of one expert move."""
    player = Engine("expert", time_limit=time_limit, seed=1, learned=learned, book=False)  # the search, always
    start = time.process_time()
    player.choose(board)
    cpu = time.process_time() - start
    info = player.last_search
    assert info is not None
    return info.depth, info.nodes, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    if not all([native.wait(name) for name in native.KERNELS]):
        raise SystemExit(f"the compiled search is not available: {native.failure()}")
    print(f"compiled kernels ready after {time.perf_counter() - start:.1f} s")
    results: dict[str, list[tuple[int, int, float]]] = {name: [] for name, _, _ in CONFIGURATIONS}
    for board in positions(args.positions, args.seed):
        for name, pure, learned in CONFIGURATIONS:
            with pure_path(pure):
                results[name].append(think(board, args.time_limit, learned))
    rates = {}
    for name, rows in results.items():
        rates[name] = [nodes / max(cpu, 1e-9) for _, nodes, cpu in rows]
        depths = sorted(depth for depth, _, _ in rows)
        print(
            f"{name:20} at {args.time_limit:g} s a move: median {statistics.median(rates[name]):>12,.0f} nodes/s"
            f" (CPU), depth median {statistics.median(depths):g} (range {depths[0]}-{depths[-1]})"
        )

    def ratio(a: str, b: str) -> str:
        ratios = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
        return f"{statistics.median(ratios):.2f}x"

    print(f"nodes per second, over {args.positions} positions (medians of per-position ratios):")
    print(f"  compiled / pure: {ratio('compiled, learned', 'pure, learned')} learned, ", end="")
    print(f"{ratio('compiled, hand-made', 'pure, hand-made')} hand-made")
    print(f"  learned / hand-made: {ratio('compiled, learned', 'compiled, hand-made')} compiled, ", end="")
    print(f"{ratio('pure, learned', 'pure, hand-made')} pure")


if __name__ == "__main__":
    main()
