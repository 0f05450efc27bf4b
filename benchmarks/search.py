"""Midgame search speed: the expert's nodes per second and the depth it reaches in its time,
compiled beside pure Python, in one run.

Positions come from seeded random games on 8x8, 12 to 36 plies in (far enough from the end
that no exact solve starts). On each, ``Engine("expert", time_limit=...)`` chooses a move
once with the compiled search and once with the pure-Python one, in turns, so a slow spell
of a shared machine hits both alike. Nodes per second are taken over CPU time (steadier
here than wall time); the depth is the last iteration the engine completed. Medians.

    python benchmarks/search.py [--positions 12] [--time-limit 1.0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from reversi_widget import Board, engine, native
from reversi_widget.engine import Engine


@contextmanager
def pure_midgame() -> Iterator[None]:
    """Engines made inside search in pure Python, as without numba."""
    ready = engine.compiled_midgame_ready
    engine.compiled_midgame_ready = lambda size: False  # type: ignore[assignment]
    try:
        yield
    finally:
        engine.compiled_midgame_ready = ready  # type: ignore[assignment]


def positions(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    out = []
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


def think(board: Board, time_limit: float) -> tuple[int, int, float]:
    """(depth reached, nodes, CPU seconds) of one expert move."""
    player = Engine("expert", time_limit=time_limit, seed=1)
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
    if not native.wait("midgame"):
        raise SystemExit(f"the compiled search is not available: {native.failure()}")
    print(f"compiled kernels ready after {time.perf_counter() - start:.1f} s")
    results: dict[str, list[tuple[int, int, float]]] = {"compiled": [], "pure": []}
    for board in positions(args.positions, args.seed):
        results["compiled"].append(think(board, args.time_limit))
        with pure_midgame():
            results["pure"].append(think(board, args.time_limit))
    rates = {}
    for path, rows in results.items():
        rates[path] = [nodes / max(cpu, 1e-9) for _, nodes, cpu in rows]
        depths = sorted(depth for depth, _, _ in rows)
        print(
            f"{path:8} at {args.time_limit:g} s a move: median {statistics.median(rates[path]):>12,.0f} nodes/s (CPU),"
            f" depth median {statistics.median(depths):g} (range {depths[0]}-{depths[-1]})"
        )
    ratios = [c / p for c, p in zip(rates["compiled"], rates["pure"], strict=True)]
    print(f"compiled / pure nodes per second: median {statistics.median(ratios):.1f}x over {len(ratios)} positions")


if __name__ == "__main__":
    main()
