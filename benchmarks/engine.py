"""Rules-engine speed beside its peers, in one run: perft and random playouts.

Each engine is driven through its public board API, as a user would call it:
ours through ``Board.legal_moves``, ``push``, ``push_pass`` and ``pop``. The peers
are timed only when installed (``pip install creversi-python rust-reversi``);
this script installs nothing. Medians of several runs; ratios are ours / peer speed.

    python benchmarks/engine.py [--depth 7] [--playouts 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from reversi_widget import Board, perft


def perft_ours(board: Board, depth: int) -> int:
    """Perft through the public API (Bik's counting: a pass uses a ply, a finished game is one leaf).
    At the last ply only the number of moves is needed, so ``len(legal_moves)`` is asked."""
    if depth == 1:
        return len(board.legal_moves) or 1
    moves = list(board.legal_moves)
    if not moves:
        if depth == 0 or board.is_game_over():
            return 1
        board.push_pass()
        total = perft_ours(board, depth - 1)
        board.pop()
        return total
    total = 0
    for move in moves:
        board.push(move)
        total += perft_ours(board, depth - 1)
        board.pop()
    return total


def playouts_ours(count: int, seed: int) -> int:
    """Random games to the end; returns the number of positions visited."""
    rng = random.Random(seed)
    positions = 0
    for _ in range(count):
        board = Board()
        while True:
            moves = list(board.legal_moves)
            positions += 1
            if moves:
                board.push(rng.choice(moves))
            elif board.is_game_over():
                break
            else:
                board.push_pass()
    return positions


def perft_creversi(board: Any, depth: int) -> int:
    """The same walk through creversi's API (it has no pop: children are copies)."""
    if depth == 1:
        return len(board.legal_moves)  # a pass is listed as one move (PASS)
    moves = list(board.legal_moves)
    if moves == [64]:  # creversi yields PASS (64) when no move is legal
        if board.is_game_over():
            return 1
        child = board.copy()
        child.move_pass()
        return perft_creversi(child, depth - 1)
    total = 0
    for move in moves:
        child = board.copy()
        child.move(move)
        total += perft_creversi(child, depth - 1)
    return total


def playouts_creversi(count: int, seed: int) -> int:
    import creversi

    rng = random.Random(seed)
    positions = 0
    for _ in range(count):
        board = creversi.Board()
        while True:
            moves = list(board.legal_moves)
            positions += 1
            if board.is_game_over():
                break
            board.move(rng.choice(moves))
    return positions


def perft_rust(board: Any, depth: int) -> int:
    if board.is_game_over():
        return 1
    if depth == 1:
        return len(board.get_legal_moves_vec()) or 1
    moves = board.get_legal_moves_vec()
    if not moves:
        child = board.clone()
        child.do_pass()
        return perft_rust(child, depth - 1)
    total = 0
    for move in moves:
        child = board.clone()
        child.do_move(move)
        total += perft_rust(child, depth - 1)
    return total


def playouts_rust(count: int, seed: int) -> int:
    import rust_reversi

    rng = random.Random(seed)
    positions = 0
    for _ in range(count):
        board = rust_reversi.Board()
        while True:
            moves = board.get_legal_moves_vec()
            positions += 1
            if moves:
                board.do_move(rng.choice(moves))
            elif board.is_game_over():
                break
            else:
                board.do_pass()
    return positions


def median_time(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times = []
    result = 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    engines: dict[str, tuple[Callable[[], int], Callable[[], int]]] = {
        "reversi-widget": (lambda: perft_ours(Board(), args.depth), lambda: playouts_ours(args.playouts, args.seed)),
    }
    try:
        import creversi

        engines["creversi-python"] = (
            lambda: perft_creversi(creversi.Board(), args.depth),
            lambda: playouts_creversi(args.playouts, args.seed),
        )
    except ImportError:
        print("creversi-python is not installed: pip install creversi-python")
    try:
        import rust_reversi

        engines["rust-reversi"] = (
            lambda: perft_rust(rust_reversi.Board(), args.depth),
            lambda: playouts_rust(args.playouts, args.seed),
        )
    except ImportError:
        print("rust-reversi is not installed: pip install rust-reversi")

    core_time, core_nodes = median_time(lambda: perft(Board(), args.depth), args.repeat)
    core_rate = core_nodes / core_time
    print(f"perft({args.depth}) = {core_nodes}; the core perft() of reversi-widget: {core_rate:,.0f} nodes/s")
    rates: dict[str, tuple[float, float]] = {}
    for name, (run_perft, run_playouts) in engines.items():
        t_perft, nodes = median_time(run_perft, args.repeat)
        t_play, positions = median_time(run_playouts, args.repeat)
        rates[name] = (nodes / t_perft, positions / t_play)
        print(
            f"{name:16} perft {nodes} in {t_perft:.3f} s = {nodes / t_perft:>12,.0f} nodes/s;"
            f" {args.playouts} playouts, {positions} positions in {t_play:.3f} s = {positions / t_play:>10,.0f} pos/s"
        )
    ours = rates["reversi-widget"]
    for name, (perft_rate, play_rate) in rates.items():
        if name != "reversi-widget":
            ratios = f"perft {ours[0] / perft_rate:.2f}x, playouts {ours[1] / play_rate:.2f}x"
            print(f"ratio reversi-widget / {name}: {ratios}")


if __name__ == "__main__":
    main()
