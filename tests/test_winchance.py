"""Win chances: monotone in the score, exact where the result is proven, and a damaged
curve file refused naming it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Rules
from reversi_widget.analysis import analyse
from reversi_widget.solver import solve
from reversi_widget.squares import BLACK, WHITE
from reversi_widget.winchance import (
    FORMAT,
    VERSION,
    WIN_CHANCE_FILE,
    WinChanceFileError,
    black_win_chance,
    load_model,
)
from tests.support import play_random

scores = st.floats(min_value=-64, max_value=64, allow_nan=False)
empties = st.integers(min_value=0, max_value=64)


def test_the_shipped_file_has_curves_for_every_count_of_empties() -> None:
    model = load_model(8, "classic")
    assert model is not None
    assert model.bands[0].low == 0 and model.bands[-1].high == 64
    assert all(band.slope > 0 for band in model.bands)
    data = json.loads(WIN_CHANCE_FILE.read_text(encoding="utf-8"))
    notes = data["variants"]["8x8 classic"]["notes"]
    assert "1977-2015" in notes["source"] and "depth=8" in notes["score"]


@settings(max_examples=300, deadline=None)
@given(scores, scores, empties)
def test_a_higher_score_never_has_a_lower_chance(a: float, b: float, count: int) -> None:
    low, high = sorted((a, b))  # Black's scores
    for turn in (BLACK, WHITE):
        # the score passed is the mover's: Black's own, or its opposite when White moves
        at_low = black_win_chance(turn, low if turn == BLACK else -low, count, 8, "classic", [None])
        at_high = black_win_chance(turn, high if turn == BLACK else -high, count, 8, "classic", [None])
        assert at_low is not None and at_high is not None
        assert 0.0 < at_low <= at_high < 1.0  # an estimate is never certain


@settings(max_examples=200, deadline=None)
@given(scores, empties)
def test_an_estimate_for_one_side_is_the_complement_for_the_other(score: float, count: int) -> None:
    black = black_win_chance(BLACK, score, count, 8, "classic", [None])
    white_view = black_win_chance(WHITE, score, count, 8, "classic", [None])
    assert black is not None and white_view is not None
    assert black + white_view == pytest.approx(1.0)


def test_a_proven_result_is_exact_whatever_the_score() -> None:
    for turn, result, expected in [
        (BLACK, "win", 1.0), (BLACK, "loss", 0.0), (BLACK, "draw", 0.5),
        (WHITE, "win", 0.0), (WHITE, "loss", 1.0), (WHITE, "draw", 0.5),
    ]:  # fmt: skip
        assert black_win_chance(turn, 3.0, 30, 8, "classic", [result, result]) == expected
    # A best move that wins is enough; a proven draw or loss beside an estimate is not.
    assert black_win_chance(BLACK, 2.0, 30, 8, "classic", ["win", None]) == 1.0
    between = black_win_chance(BLACK, 0.0, 30, 8, "classic", ["draw", None])
    assert between is not None and 0.0 < between < 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_solved_positions_have_exact_chances(seed: int) -> None:
    rng = random.Random(seed)
    board = play_random(Board(), rng, 50 + rng.randint(0, 6))
    if board.is_game_over():
        return
    analysis = analyse(board)  # at most 10 empties: solved on either path
    assert analysis.exact
    value = solve(board).score  # the mover's final margin under perfect play
    mover = 1.0 if value > 0 else 0.0 if value < 0 else 0.5
    assert analysis.win_chance == (mover if board.turn == BLACK else 1.0 - mover)


def test_estimates_read_the_curve_and_variants_without_one_have_none() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4")
    analysis = analyse(board, depth=2)
    model = load_model(8, "classic")
    assert model is not None
    expected = model.mover_chance(analysis.best.score, analysis.empties)
    assert analysis.win_chance == pytest.approx(expected if board.turn == BLACK else 1 - expected)
    small = analyse(Board(rules=Rules(size=10)), depth=1)
    assert small.win_chance is None  # no curves for 10x10: no number rather than a wrong one
    inverted = analyse(Board(rules=Rules(goal="inverted")), depth=1)
    assert inverted.win_chance is None


def good_file() -> dict[str, Any]:
    bands = [
        {"low": 0, "high": 30, "slope": 0.3, "intercept": 0.0},
        {"low": 31, "high": 64, "slope": 0.1, "intercept": 0.1},
    ]
    return {"format": FORMAT, "version": VERSION, "variants": {"8x8 classic": {"bands": bands}}}


def damaged(data: dict[str, Any], change: str) -> Any:
    bands = data["variants"]["8x8 classic"]["bands"]
    if change == "not json":
        return b"{not json"
    if change == "not utf-8":
        return b"\xff\xfe\x00"
    if change == "format":
        data["format"] = "reversi-widget probcut"
    elif change == "version":
        data["version"] = 99
    elif change == "no variants":
        data["variants"] = {}
    elif change == "slope zero":
        bands[1]["slope"] = 0
    elif change == "slope text":
        bands[0]["slope"] = "0.3"
    elif change == "slope nan":
        return json.dumps(data).replace("0.3", "NaN").encode()
    elif change == "gap":
        bands[1]["low"] = 32
    elif change == "short":
        bands[1]["high"] = 60
    elif change == "bands missing":
        del data["variants"]["8x8 classic"]["bands"]
    elif change == "bad key":
        data["variants"]["eight classic"] = data["variants"].pop("8x8 classic")
    return json.dumps(data).encode()


CHANGES = ["not json", "not utf-8", "format", "version", "no variants", "slope zero", "slope text", "slope nan",
           "gap", "short", "bands missing", "bad key"]  # fmt: skip


@pytest.mark.parametrize("change", CHANGES)
def test_a_damaged_file_is_refused_naming_it(tmp_path: Path, change: str) -> None:
    path = tmp_path / f"chances-{change.replace(' ', '-')}.json"
    path.write_bytes(damaged(good_file(), change))
    with pytest.raises(WinChanceFileError, match=str(path).replace(".", r"\.")) as caught:
        load_model(8, "classic", path)
    assert "win_fit" in str(caught.value)  # and says how to write a good one


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(WinChanceFileError, match=r"nowhere\.json.*cannot be read"):
        load_model(8, "classic", path)


def test_a_good_file_loads_and_other_variants_are_none(tmp_path: Path) -> None:
    path = tmp_path / "chances.json"
    path.write_text(json.dumps(good_file()), encoding="utf-8")
    model = load_model(8, "classic", path)
    assert model is not None and model.band(40).slope == 0.1 and model.band(99).slope == 0.1
    assert model.mover_chance(0.0, 10) == 0.5
    assert model.mover_chance(1e9, 10) == 1.0 and model.mover_chance(-1e9, 10) == 0.0  # no overflow
    assert load_model(6, "classic", path) is None
