"""The switch between the compiled core and the pure path, seen from a fresh interpreter:
forced pure by the environment, numba missing, numba failing to compile. Each time the
package stays correct, and a missing or failing numba logs exactly one warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import unavailable

PROGRAM = """
from reversi_widget import Board, Rules, native, perft
from reversi_widget.geometry import geometry
counts = perft(Board(), 5), perft(Board(rules=Rules(size=6)), 5), perft(Board(rules=Rules(size=4)), 6)
print(native.wait("moves"), *counts)
print(all(geometry(n).moves is geometry(n).pure_moves for n in native.SIZES))
"""


def run(tmp_path: Path, prelude: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "REVERSI_WIDGET_PURE"} | env
    environment["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(Path(__file__).parents[1])])
    return subprocess.run(
        [sys.executable, "-c", prelude + PROGRAM], capture_output=True, text=True, env=environment, timeout=300
    )


#: perft 5 of 8x8 and 6x6, perft 6 of 4x4, as the pure path counts them.
COUNTS = "1396 1364 1256"


def test_forced_pure_never_loads_numba(tmp_path: Path) -> None:
    result = run(tmp_path, REVERSI_WIDGET_PURE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["False " + COUNTS, "True"]
    assert "numba" not in result.stderr


def test_missing_numba_warns_once(tmp_path: Path) -> None:
    result = run(tmp_path, "import sys\nsys.modules['numba'] = None\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["False " + COUNTS, "True"]
    assert result.stderr.count("pure-Python path") == 1 and "numba is not installed" in result.stderr


def test_failing_compiler_warns_once(tmp_path: Path) -> None:
    fake = tmp_path / "numba"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "types = None\ndef njit(*args, **kwargs):\n    raise RuntimeError('no code generator here')\n"
    )
    (fake / "extending.py").write_text("def intrinsic(function):\n    return function\n")
    result = run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["False " + COUNTS, "True"]
    assert result.stderr.count("pure-Python path") == 1
    assert "RuntimeError: no code generator here" in result.stderr


@pytest.mark.parametrize("value", ["", "0"])
def test_compiled_when_not_forced(tmp_path: Path, value: str) -> None:
    result = run(tmp_path, REVERSI_WIDGET_PURE=value)
    if "numba is not installed" in result.stderr:
        unavailable("numba is not installed")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["True " + COUNTS, "False"]
    assert "pure-Python path" not in result.stderr


DURING_A_COLD_COMPILE = """
import importlib, threading
from reversi_widget import Board, analyse, native
from reversi_widget.widget import ReversiWidget

# The compilation is held back until the answers are in, as on a slow machine (on a fast one it
# could end first, and the answers would not show that they do not wait for it: they would
# hang here if they did).
compiled, release = importlib.import_module, threading.Event()
def held(name, *args):
    if name.startswith("reversi_widget.native."):
        release.wait(300)
    return compiled(name, *args)
importlib.import_module = held

w = ReversiWidget(analysis_depth=3)  # the first board starts the compilation in the background
w.hint()
hinted = w.wait(60)
board = Board.from_transcript("f5d6c3")
every_move = len(analyse(board, depth=3).moves) == len(board.legal_moves)
print(hinted, w.hints != [], every_move, native.ready("moves"), native.ready("midgame"))
release.set()
"""


def test_a_cold_compile_leaves_the_widget_and_analyse_answering(tmp_path: Path) -> None:
    """With an empty numba cache (a fresh machine), the first widget's hint and an analysis
    answer on the pure path while the kernels compile in the background (the differential
    tests show the compiled core then gives the same results)."""
    result = subprocess.run(
        [sys.executable, "-c", DURING_A_COLD_COMPILE],
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "REVERSI_WIDGET_PURE"}
        | {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    if "numba is not installed" in result.stderr:
        unavailable("numba is not installed")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "False", "False"], result.stdout
