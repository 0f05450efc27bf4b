"""Probable cuts: the shipped calibration loads and a damaged one is refused naming the file;
the refit writes a file that loads; a selective search agrees exactly with the full-width one
whenever it says its result is proven; the compiled selective search runs from numba's
on-disk cache in a fresh process."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from reversi_widget import Board, InvalidPositionError
from reversi_widget.engine import Engine
from reversi_widget.geometry import geometry
from reversi_widget.search import FULL_WIDTH, INFINITY, WIN
from reversi_widget.search.midgame import make_midgame
from reversi_widget.search.probcut import (
    CALIBRATION_FILE,
    MIN_DEPTH,
    cut_rows,
    load_calibration,
    shallow_depth,
)
from reversi_widget.solver import solve
from tests.native_support import require_compiled
from tests.support import play_random

ROOT = Path(__file__).resolve().parents[1]
MOVES = geometry(8).moves


def test_the_shipped_calibration_loads_and_cuts_every_deep_enough_node() -> None:
    calibration = load_calibration(8, "classic")
    assert calibration is not None
    rows = cut_rows(calibration, 64)
    for empties in range(MIN_DEPTH, 61):
        for depth in range(MIN_DEPTH, empties + 1):
            shallow, slope, _, spread = rows[empties][depth]
            assert 0 <= shallow < depth and slope > 0 and spread > 0
        assert rows[empties][MIN_DEPTH - 1][3] == 0  # too shallow to cut
    # The spread grows with the distance between the two depths, and is discs, not thousands.
    assert calibration.midgame_cut(30, 12)[3] < calibration.midgame_cut(30, 12)[3] * 2
    assert 50 < calibration.midgame_cut(30, 10)[3] < 1500
    assert 50 < calibration.endgame_cut(20)[3] < 2000


def test_variants_without_calibration_search_full_width() -> None:
    assert load_calibration(6, "classic") is None
    assert all(cut[3] == 0 for row in cut_rows(None, 36) for cut in row)


def test_shallow_depths_are_about_half_with_the_same_parity() -> None:
    for depth in range(MIN_DEPTH, 61):
        shallow = shallow_depth(depth)
        assert 0 <= shallow <= depth - 2 and (depth - shallow) % 2 == 0


def _shipped() -> dict[str, object]:
    data = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text[: len(text) // 2], "is damaged"),
        (lambda text: "", "is damaged"),
        (lambda text: json.dumps({"format": "something else"}), "not a calibration file"),
        (lambda text: text.replace('"version": 1', '"version": 99'), "has version 99"),
        (lambda text: text.replace('"spread"', '"spreads"', 1), "must be"),
        (lambda text: text.replace('"slope": [', '"slope": [NaN, ', 1), "must be"),
    ],
)
def test_a_damaged_calibration_is_refused_naming_it(tmp_path: Path, damage: object, message: str) -> None:
    path = tmp_path / "damaged.json"
    path.write_text(damage(CALIBRATION_FILE.read_text(encoding="utf-8")), encoding="utf-8")  # type: ignore[operator]
    with pytest.raises(InvalidPositionError, match=message) as caught:
        load_calibration(8, "classic", path)
    assert str(path) in str(caught.value)


def test_a_non_positive_slope_is_refused(tmp_path: Path) -> None:
    data = _shipped()
    variants = data["variants"]
    assert isinstance(variants, dict)
    variants["8x8 classic"]["endgame"]["slope"] = [0.0]
    path = tmp_path / "flat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidPositionError, match="slope <= 0"):
        load_calibration(8, "classic", path)


def test_a_missing_calibration_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(InvalidPositionError, match="cannot be read") as caught:
        load_calibration(8, "classic", path)
    assert str(path) in str(caught.value)


def test_the_refit_writes_a_calibration_that_loads(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    require_compiled("midgame")
    out = tmp_path / "probcut.json"
    command = [
        sys.executable, "-m", "reversi_widget.calibrate", "--out", str(out), "--files", "2", "--positions", "40",
        "--depth", "5", "--end-positions", "24", "--end-empties", "13", "--theoretical", "12", "--min-samples", "4",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    calibration = load_calibration(8, "classic", out)
    assert calibration is not None
    data = json.loads(out.read_text(encoding="utf-8"))["variants"]["8x8 classic"]
    assert data["fits"]["midgame"] and data["fits"]["endgame"]  # the regressions it summarises
    assert all(fit["count"] >= 4 for fit in data["fits"]["midgame"])


def _positions(empties: range, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = play_random(Board(), rng, 60 - rng.choice(empties))
        if not board.is_game_over() and not board.must_pass() and board.empty_count() in empties:
            out.append(board)
    return out


def test_selective_searches_to_the_end_agree_with_full_width_ones_when_they_say_so() -> None:
    """Every move of positions 10 to 15 empties from the end, searched to the end at every
    selectivity: where the search used no probable result (``certain``), its scores are the
    exact ones; where it did, it must say so (both happen here)."""
    require_compiled("midgame")
    certain = uncertain = 0
    for board in _positions(range(12, 16), 10, 1):
        exact = {}
        for move in board.legal_moves:
            child = board.copy(stack=False)
            child.push(move)
            exact[move.square] = -solve(child).score
        search = make_midgame(8, "classic", "count")
        for selectivity in range(FULL_WIDTH + 1):
            search.selectivity = selectivity
            for move in board.legal_moves:
                child = board.copy(stack=False)
                child.push(move)
                q, r = child.sides()
                search.certain_since()
                score = -search.negamax(q, r, 64, -INFINITY, INFINITY, MOVES(q, r))
                if search.certain:
                    certain += 1
                    margin = (score - WIN) // 100 if score > 0 else (score + WIN) // 100 if score < 0 else 0
                    assert abs(score) >= WIN or score == 0
                    assert margin == exact[move.square]
                else:
                    uncertain += 1
                    assert selectivity < FULL_WIDTH
    assert certain and uncertain


def test_a_proven_result_of_the_selective_engine_is_true() -> None:
    """The expert on positions it can prove: what it reports as exact is the exact margin,
    and a bound never overstates it."""
    require_compiled("midgame")
    for board in _positions(range(14, 19), 8, 2):
        engine = Engine("expert", time_limit=2.0)
        engine.choose(board)
        info = engine.last_search
        assert info is not None
        if info.proven:
            truth = solve(board).score
            if info.exact:
                assert info.margin == truth
            else:
                assert (info.margin > 0) == (truth > 0) and abs(info.margin) <= abs(truth)


def test_the_selective_search_runs_from_the_disk_cache() -> None:
    """A fresh process that loads the compiled search from numba's cache (the second run
    below always does) searches at every selectivity: a kernel that breaks only when loaded
    from the cache would crash it."""
    require_compiled("midgame")
    script = (
        "from reversi_widget import Board, native\n"
        "from reversi_widget.engine import make_midgame\n"
        "from reversi_widget.geometry import geometry\n"
        "assert native.wait('midgame') and native.wait('endgame')\n"
        "board = Board()\n"
        "p, o = board.sides()\n"
        "search = make_midgame(8, 'classic', 'count')\n"
        "for selectivity in range(6):\n"
        "    search.selectivity = selectivity\n"
        "    search.negamax(p, o, 10, -10**8, 10**8, geometry(8).moves(p, o))\n"
        "print('searched')\n"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and "searched" in done.stdout, (done.returncode, done.stderr[-2000:])
