"""Rules-engine speed beside its peers, in one run: perft and random playouts.

Each engine is driven through its public board API, as a user would call it:
ours through ``Board.legal_moves``, ``push``, ``push_pass`` and ``pop``. The peers
are timed only when installed (``pip install creversi-python rust-reversi``);
this script installs nothing. The engines take turns in rounds; ratios (ours / peer
speed) are taken within each round and their median is printed. Times are CPU times.

The core ``perft()`` (the compiled kernel when numba is installed, which this script waits
for) is timed at ``--core-depth`` beside Edax's perft when ``--edax`` gives an Edax binary,
again in rounds. Edax counts a pass differently (its perft 11 is 212,258,216, ours
212,258,800), so leaves per second are compared, not counts.

    python benchmarks/engine.py [--depth 7] [--playouts 200] [--repeat 7] [--edax PATH]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reversi_widget import Board, native, perft


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


def edax_perft(edax: Path, depth: int) -> tuple[float, int]:
    """(seconds, leaves) of Edax's own perft from the start, as it reports them. Edax counts in
    a search thread: the script waits for the line of the last depth before it says quit."""
    process = subprocess.Popen(
        [str(edax), "-n", "1", "-book-usage", "off"],
        cwd=edax.resolve().parent.parent,  # where Edax finds data/eval.dat
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"perft {depth}\n")
    process.stdin.flush()
    pattern = re.compile(rf"^\s*{depth},\s*(\d+),.*?(\d+):(\d+)\.(\d+),")
    try:
        for line in process.stdout:
            found = pattern.match(line)
            if found:
                leaves, minutes, seconds, millis = (int(g) for g in found.groups())
                return minutes * 60 + seconds + millis / 1000, leaves
        raise RuntimeError(f"no perft {depth} line in Edax's output")
    finally:
        process.stdin.write("quit\n")
        process.stdin.close()
        process.wait(30)


def core_perft(depth: int, repeat: int, edax: Path | None) -> None:
    """The core ``perft()`` beside Edax's, in rounds; leaves per second and their ratio."""
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        seconds, leaves = timed(lambda: perft(Board(), depth))
        ours.append(leaves / seconds)
        if edax is not None:
            seconds, edax_leaves = edax_perft(edax, depth)
            theirs.append(edax_leaves / max(seconds, 1e-3))
    print(f"perft({depth}) = {leaves}; the core perft() of reversi-widget: {statistics.median(ours):,.0f} leaves/s")
    if theirs:
        ratios = sorted(o / t for o, t in zip(ours, theirs, strict=True))
        print(
            f"Edax perft({depth}) = {edax_leaves}: {statistics.median(theirs):,.0f} leaves/s;"
            f" ratio reversi-widget / Edax (median of {repeat} rounds, range):"
            f" {statistics.median(ratios):.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})"
        )


def timed(fn: Callable[[], int]) -> tuple[float, int]:
    """(CPU seconds, result): every engine runs in this process on one thread, and CPU time
    is far steadier than wall time on a shared machine (Edax's perft reports CPU time too)."""
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--core-depth", type=int, default=None, help="depth of the core perft (11 if compiled)")
    parser.add_argument("--edax", type=Path, default=None, help="an Edax binary to time its perft beside ours")
    args = parser.parse_args()
    start = time.perf_counter()
    compiled = all([native.wait(name) for name in native.KERNELS])  # nothing compiles while timed
    print(
        f"compiled core: {'ready' if compiled else 'not available (' + str(native.failure()) + ')'}"
        f" after {time.perf_counter() - start:.1f} s"
    )
    core_perft(args.core_depth or (11 if compiled else args.depth), args.repeat, args.edax)

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

    # Rounds: every engine runs once per round, one after the other, so that a slow spell
    # of a shared machine hits all of them alike; each ratio is taken within a round.
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(args.repeat):
        for name, (run_perft, run_playouts) in engines.items():
            t_perft, nodes = timed(run_perft)
            t_play, positions = timed(run_playouts)
            rates[name].append((nodes / t_perft, positions / t_play))
            counts[name] = (nodes, positions)
    for name, rounds in rates.items():
        nodes, positions = counts[name]
        perft_rate = statistics.median(r[0] for r in rounds)
        play_rate = statistics.median(r[1] for r in rounds)
        print(
            f"{name:16} perft {nodes}: {perft_rate:>12,.0f} nodes/s;"
            f" {args.playouts} playouts, {positions} positions: {play_rate:>10,.0f} pos/s (medians)"
        )
    ours = rates["reversi-widget"]
    for name, rounds in rates.items():
        if name == "reversi-widget":
            continue
        perft_ratios = sorted(o[0] / r[0] for o, r in zip(ours, rounds, strict=True))
        play_ratios = sorted(o[1] / r[1] for o, r in zip(ours, rounds, strict=True))
        print(
            f"ratio reversi-widget / {name} (median of {args.repeat} rounds, range):"
            f" perft {statistics.median(perft_ratios):.2f}x ({perft_ratios[0]:.2f}-{perft_ratios[-1]:.2f}),"
            f" playouts {statistics.median(play_ratios):.2f}x ({play_ratios[0]:.2f}-{play_ratios[-1]:.2f})"
        )


if __name__ == "__main__":
    main()
