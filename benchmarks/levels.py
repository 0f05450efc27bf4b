"""Whether each level beats the one below it: adjacent levels on 8x8, as they ship.

Each pair plays every opening (random 4-ply starts from a seed, as in ``learned_match.py``)
twice, colours swapped, each level at its own time budget, on the compiled core (ready before
the first game) unless ``--pure``. Draws count half.

    python benchmarks/levels.py [--openings 5] [--pairs 2-3 3-4 4-5 5-6 6-7]
"""

from __future__ import annotations

import argparse
import os
import time

from learned_match import openings, play

from reversi_widget import Rules, native
from reversi_widget.engine import Engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=5)
    parser.add_argument("--pairs", nargs="+", default=["2-3", "3-4", "4-5", "5-6", "6-7"])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--pure", action="store_true", help="play on the pure-Python path")
    args = parser.parse_args()
    if args.pure:
        os.environ[native.PURE_ENV] = "1"
    elif not all([native.wait(name) for name in native.KERNELS]):
        raise SystemExit(f"the compiled core is not available: {native.failure()}")
    for pair in args.pairs:
        low, high = sorted(int(level) for level in pair.split("-"))
        points, games, start = 0.0, 0, time.perf_counter()
        rules = Rules()
        for index, opening in enumerate(openings(args.openings, args.seed, rules)):
            for high_black in (True, False):
                strong, weak = Engine(high, seed=index), Engine(low, seed=100 + index)
                margin = play(strong, weak, opening, rules)[0] if high_black else -play(weak, strong, opening, rules)[0]
                points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
                games += 1
        print(f"level {high} against level {low}: {points:g}/{games} ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
