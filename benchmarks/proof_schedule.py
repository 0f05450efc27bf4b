"""What the expert's proof costs near the end, with and without selective searches first.

On WTHOR tournament positions at 18 to 22 empties, the expert (``Engine(7)``, compiled) is
given all the time it wants, so each move ends with its proof; the nodes and the CPU seconds
it took are counted. Two schedules run position by position in turn, so a busy machine slows
both alike:

* ``proof``: as it ships, the deepening then the proof in a window round its estimate
  (``engine.QUICK_EXACT_EMPTIES``);
* ``ladder``: the deepening, then selective searches to the end at every selectivity, then the
  proof (as up to ``QUICK_EXACT_EMPTIES = 16`` before).

Printed: per number of empties, the median nodes and CPU seconds of each schedule, and the
median ratio ladder / proof over all positions. Both schedules must find the same exact margin,
or the run stops.

    python benchmarks/proof_schedule.py [--empties 18 20 22] [--positions 6]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from evaluation import DEFAULT_DATA, test_positions

from reversi_widget import Board, native
from reversi_widget import engine as engine_module
from reversi_widget.clock import MoveBudget

#: ``QUICK_EXACT_EMPTIES`` of the ladder schedule.
LADDER_QUICK_EMPTIES = 16


@contextmanager
def schedule(name: str) -> Iterator[None]:
    """The engine's schedule ``name`` for the duration."""
    shipped = engine_module.QUICK_EXACT_EMPTIES
    engine_module.QUICK_EXACT_EMPTIES = LADDER_QUICK_EMPTIES if name == "ladder" else shipped
    try:
        yield
    finally:
        engine_module.QUICK_EXACT_EMPTIES = shipped


def prove(board: Board) -> tuple[int, float, float]:
    """(nodes, CPU seconds, exact margin) of the expert's move with no time limit."""
    engine = engine_module.Engine(7, book=False)
    engine.move_budget = lambda _board: MoveBudget(1e6, 1e6)  # type: ignore[method-assign,assignment]
    start = time.process_time()
    engine.choose(board)
    seconds = time.process_time() - start
    info = engine.last_search
    assert info is not None
    if not info.exact:
        raise SystemExit(f"no proof of {board.transcript()}: {info}")
    return info.nodes, seconds, info.margin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--empties", type=int, nargs="+", default=[18, 20, 22])
    parser.add_argument("--positions", type=int, default=6, help="positions at each number of empties")
    args = parser.parse_args()
    if not (native.wait("midgame") and native.wait("endgame")):
        raise SystemExit("the compiled core is needed: pip install numba")
    print(f"QUICK_EXACT_EMPTIES: proof {engine_module.QUICK_EXACT_EMPTIES}, ladder {LADDER_QUICK_EMPTIES}")
    node_ratios, time_ratios = [], []
    for empties in args.empties:
        rows: dict[str, list[tuple[int, float]]] = {"proof": [], "ladder": []}
        for position in test_positions(DEFAULT_DATA, empties)[: args.positions]:
            board = position.board()
            margins = set()
            for name in ("ladder", "proof") if len(rows["proof"]) % 2 else ("proof", "ladder"):
                with schedule(name):
                    nodes, seconds, margin = prove(board)
                rows[name].append((nodes, seconds))
                margins.add(margin)
            if len(margins) != 1:
                raise SystemExit(f"the schedules disagree on {board.transcript()}: {margins}")
            (pn, ps), (ln, ls) = rows["proof"][-1], rows["ladder"][-1]
            node_ratios.append(ln / max(1, pn))
            time_ratios.append(ls / max(1e-6, ps))
        for name, found in rows.items():
            median_nodes = statistics.median(n for n, _ in found)
            median_seconds = statistics.median(s for _, s in found)
            print(f"{empties} empties, {name:6}: median {median_nodes / 1e6:6.2f} M nodes, {median_seconds:6.2f} s CPU")
    print(
        f"ladder / proof over {len(node_ratios)} positions: median {statistics.median(node_ratios):.2f}x the nodes,"
        f" {statistics.median(time_ratios):.2f}x the CPU time"
    )


if __name__ == "__main__":
    main()
