"""The fit of the win-chance curves: positions drawn from master games as the module says,
the logistic fit recovering known curves, and the file it writes read back."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from reversi_widget import Board
from reversi_widget.errors import InvalidPositionError
from reversi_widget.winchance import load_model
from reversi_widget.wthor import read_wthor, replay
from reversi_widget.wthor_data import SAMPLE

try:
    import numpy as np

    from reversi_widget import win_fit
except ImportError as error:  # CI installs the train extra: there a missing one fails
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(f"the fit needs the train extra ({error})", allow_module_level=True)


def test_outcomes_follow_the_recorded_score() -> None:
    assert [win_fit.outcome(score) for score in (64, 33, 32, 31, 0)] == [1.0, 1.0, 0.5, 0.0, 0.0]


def test_positions_are_drawn_from_the_games_at_the_empties_asked_for() -> None:
    files = sorted(SAMPLE.glob("WTH_*.wtb"))
    results: dict[str, set[float]] = {}  # every position the games went through -> how they ended
    for path in files:
        for record in read_wthor(path):
            probe = Board()
            for move in replay(record).move_stack:
                probe.push(move)
                results.setdefault(probe.to_string(), set()).add(win_fit.outcome(record.black_score))
    drawn = win_fit.master_positions(files, random.Random(3), 40, (20, 30))
    assert len(drawn) == 40
    for board, result in drawn:
        assert 20 <= board.empty_count() <= 30 and not board.is_game_over()
        assert result in results[board.to_string()]  # a position of a game, labelled as it ended


def test_the_logistic_fit_recovers_a_known_curve() -> None:
    rng = np.random.default_rng(5)
    scores = rng.uniform(-30, 30, 20_000)
    truth = 1 / (1 + np.exp(-(0.4 + 0.15 * scores)))
    results = (rng.uniform(size=scores.size) < truth).astype(float)
    slope, intercept = win_fit.fit_band(scores, results)
    assert slope == pytest.approx(0.15, abs=0.01) and intercept == pytest.approx(0.4, abs=0.06)


def test_draws_count_as_half_a_win() -> None:
    scores = np.array([-2.0, -1.0, 0.0, 0.0, 1.0, 2.0])
    results = np.array([0.0, 0.5, 0.5, 0.5, 0.5, 1.0])
    slope, intercept = win_fit.fit_band(scores, results)
    assert slope > 0 and intercept == pytest.approx(0.0, abs=1e-4)  # symmetric data, curve through 0.5


def test_the_written_file_is_read_back_and_too_few_positions_are_refused(tmp_path: Path) -> None:
    rng = random.Random(1)
    samples = []
    for _ in range(600):
        empties = rng.randint(0, 64)
        score = rng.uniform(-20, 20)
        won = rng.random() < 1 / (1 + pow(2.718281828, -0.2 * score))
        samples.append(win_fit.Scored(empties, rng.random() < 0.5, score, None, 1.0 if won else 0.0))
    samples = [
        s if s.black_to_move else win_fit.Scored(s.empties, False, s.score, None, 1 - s.black_result) for s in samples
    ]
    bands = win_fit.fit(samples, min_samples=20)
    out = tmp_path / "chances.json"
    win_fit.write(out, bands, {"source": "made up here"})
    model = load_model(8, "classic", out)
    assert model is not None and [b.low for b in model.bands] == [low for low, _ in win_fit.BANDS]
    assert all(0.1 < b.slope < 0.35 for b in model.bands)
    with pytest.raises(InvalidPositionError, match="too few positions with 0-16 empties"):
        win_fit.fit(samples[:50], min_samples=20)
