"""The pattern features the compiled midgame search keeps up to date move by move
(``native.patterns.played``, ``passed``) against the same features computed from scratch, and
their score (``feature_score``) against ``pattern_score`` and the pure learned evaluation: at
even plies (the root's side to move) and odd ones, across passes, from roots of either colour."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board
from reversi_widget.search.patterns import PATTERNS, PHASES, WEIGHTS_FILE, make_pattern_evaluator
from tests.native_support import random_weights_file, require_compiled
from tests.support import play_random


@cache
def random_weights() -> Path:
    """Random weights where no table entry is zero, so that no wrong index can hide behind
    an entry the fit left empty (written once per run, like a module fixture)."""
    import tempfile

    return random_weights_file(Path(tempfile.mkdtemp()) / "random.bin", 5)


def expected_features(mine: int, theirs: int) -> list[int]:
    """Every image's position in a phase's row of tables, square by square from the patterns
    themselves: its table's start, plus its base-3 index with ``mine`` as digit 1 and
    ``theirs`` as digit 2 (the first square most significant)."""
    out, start = [], 0
    for pattern in PATTERNS:
        for instance in pattern.instances:
            index = 0
            for sq in instance:
                index = 3 * index + (1 if mine >> sq & 1 else 2 if theirs >> sq & 1 else 0)
            out.append(start + index)
        start += pattern.fillings
    return out


def replay(board: Board, root_ply: int, path: Path) -> tuple[int, int]:
    """Follow ``board``'s game from ``root_ply`` to its end as a search would, the features
    written move by move from the root's, and check each ply's features and score; (plies
    checked at odd distance from the root, passes followed)."""
    from reversi_widget.native.patterns import (
        IMAGES,
        arrays_of,
        feature_score,
        features_of,
        passed,
        pattern_score,
        played,
    )

    arrays, pure = arrays_of(path), make_pattern_evaluator(path)
    line = board.move_stack[root_ply:]
    position = Board(rules=board.rules)
    for move in board.move_stack[:root_ply]:
        position.push(move)
    features = np.zeros((len(line) + 1, IMAGES), dtype=np.int32)
    p, o = position.sides()
    features_of(np.uint64(p), np.uint64(o), features[0])
    odd = passes = 0
    for ply in range(len(line) + 1):
        p, o = position.sides()
        root_mover, root_other = (p, o) if ply % 2 == 0 else (o, p)
        assert list(features[ply]) == expected_features(root_mover, root_other), (position.to_string(), ply)
        legal = position.geometry.moves(p, o)
        expected = pure(p, o, legal)
        u = np.uint64
        assert pattern_score(u(p), u(o), u(legal), arrays.tables, arrays.extras) == expected
        assert feature_score(u(p), u(o), u(legal), ply, features, arrays.by_parity, arrays.extras) == expected
        odd += ply % 2
        if ply == len(line):
            break
        move = line[ply]
        if move.square is None:
            passed(features, ply)
            passes += 1
        else:
            played(features, ply, move.square, u(position.geometry.flips(p, o, move.square)))
        position.push(move)
    return odd, passes


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    require_compiled("midgame")


def test_the_features_of_a_root_are_the_patterns_indices() -> None:
    from reversi_widget.native.patterns import IMAGES, features_of

    rng = random.Random(3)
    for _ in range(200):
        board = play_random(Board(), rng, rng.randint(0, 60))
        p, o = board.sides()
        row = np.zeros(IMAGES, dtype=np.int32)
        features_of(np.uint64(p), np.uint64(o), row)
        assert list(row) == expected_features(p, o)


def test_the_swapped_tables_read_each_index_with_the_digits_exchanged() -> None:
    from reversi_widget.native.patterns import arrays_of, swapped_digits

    assert list(swapped_digits(2)) == [0, 2, 1, 6, 8, 7, 3, 5, 4]  # 00 02 01 20 22 21 10 12 11
    arrays = arrays_of(random_weights())
    assert arrays.by_parity.shape[0] == 2 * PHASES and np.shares_memory(arrays.tables, arrays.by_parity)
    start = 0
    for pattern in PATTERNS:
        swap = swapped_digits(pattern.length)
        assert sorted(swap) == list(range(pattern.fillings)) and all(swap[swap] == np.arange(pattern.fillings))
        columns = slice(start, start + pattern.fillings)
        assert (arrays.by_parity[PHASES:, columns] == arrays.tables[:, columns][:, swap]).all()
        start += pattern.fillings


@pytest.mark.parametrize("weights", ["random", "shipped"])
def test_features_kept_move_by_move_match_the_ones_from_scratch(weights: str) -> None:
    """Whole random games from roots at every few plies: passes and odd plies do occur."""
    path = random_weights() if weights == "random" else WEIGHTS_FILE
    rng = random.Random(weights)
    odd = passes = 0
    for _ in range(12):
        board = play_random(Board(), rng)
        for root in range(0, len(board.move_stack), 7):
            more_odd, more_passes = replay(board, root, path)
            odd, passes = odd + more_odd, passes + more_passes
    assert odd > 300 and passes > 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), root=st.integers(0, 60))
def test_features_kept_move_by_move_match_any_random_game(seed: int, root: int) -> None:
    board = play_random(Board(), random.Random(seed))
    replay(board, min(root, len(board.move_stack)), random_weights())
