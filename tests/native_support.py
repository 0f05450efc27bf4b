"""What the tests of the compiled core share: loading a kernel module or failing in CI."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_widget import Board, Rules, native
from reversi_widget.search.patterns import PHASES, weights_per_phase, write_weights
from tests.support import play_random, unavailable


def require_compiled(name: str) -> None:
    """Wait for the compiled kernel module ``name``: a failure in CI if it cannot be had
    (numba is installed there and the compiled core must work), a skip elsewhere. A run that
    forces the pure path on purpose (the second pass of scripts/test.sh) skips it: the same
    test runs compiled in the first pass."""
    if native.pure_forced():
        pytest.skip(f"{native.PURE_ENV} forces the pure-Python path; this test runs in the compiled pass")
    if not native.wait(name):
        unavailable(f"the compiled core is not available: {native.failure()}")


def random_positions(size: int, games: int, seed: int) -> Iterator[Board]:
    """Every position of ``games`` seeded random games on a ``size`` board, start to end."""
    rng = random.Random(seed)
    for _ in range(games):
        board = Board(rules=Rules(size=size))
        while True:
            yield board.copy(stack=False)
            if board.is_game_over():
                break
            play_random(board, rng, board.ply + 1)


def random_weights_file(path: Path, seed: int, goal: str = "classic") -> Path:
    """A pattern weights file of random weights (none zero) at ``path``, marked as fitted
    for ``goal``."""
    rng = random.Random(seed)
    weights = [[rng.choice((-1, 1)) * rng.randint(1, 2000) for _ in range(weights_per_phase())] for _ in range(PHASES)]
    write_weights(path, weights, {"source": "random, for tests", "goal": goal})
    return path
