"""How long the compiled core takes to be ready: the first time on a machine (an empty numba
cache) and every time after (loaded from the cache), kernel module by kernel module.

Each run is a fresh interpreter with ``NUMBA_CACHE_DIR`` pointing at a directory of its own:
a cold run starts from an empty one, a warm run reuses the directory a cold run filled.
Inside, the kernels are waited for in the warm-up's own order (``native.wait``), so what is
timed is what a notebook's background warm-up does. Wall and CPU time (all threads), medians.

    python benchmarks/compile.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, time
start, cpu = time.perf_counter(), time.process_time()
import numba
times = {"numba import": (time.perf_counter() - start, time.process_time() - cpu)}
from reversi_widget import native
for name in native.KERNELS:
    start, cpu = time.perf_counter(), time.process_time()
    assert native.wait(name), native.failure()
    times[name] = (time.perf_counter() - start, time.process_time() - cpu)
print(json.dumps(times))
"""


def run(cache: Path) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds of each step in a fresh interpreter using ``cache``."""
    env = {k: v for k, v in os.environ.items() if k != "REVERSI_WIDGET_PURE"} | {"NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, check=True)
    return {name: (wall, cpu) for name, (wall, cpu) in json.loads(done.stdout).items()}


def report(label: str, runs: list[dict[str, tuple[float, float]]]) -> None:
    names = list(runs[0])
    print(f"{label} ({len(runs)} runs, medians):")
    for name in names:
        wall = statistics.median(r[name][0] for r in runs)
        cpu = statistics.median(r[name][1] for r in runs)
        print(f"  {name:14} {wall:6.1f} s wall {cpu:6.1f} s CPU")
    kernels = [n for n in names if n != "numba import"]
    wall = statistics.median(sum(r[n][0] for n in kernels) for r in runs)
    cpu = statistics.median(sum(r[n][1] for n in kernels) for r in runs)
    print(f"  {'all kernels':14} {wall:6.1f} s wall {cpu:6.1f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cold: list[dict[str, tuple[float, float]]] = []
    warm: list[dict[str, tuple[float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="reversi-numba-") as scratch:
        for index in range(args.repeat):  # cold and warm in turns: a slow spell hits both
            cache = Path(scratch) / f"cache{index}"
            cold.append(run(cache))
            warm.append(run(cache))
    report("cold: an empty numba cache, as on a fresh machine", cold)
    report("warm: the kernels loaded from numba's cache", warm)


if __name__ == "__main__":
    main()
