"""The coach's verdict on one move (``play/coaching.verdict``): the review's mark and words."""

from __future__ import annotations

import pytest

from reversi_widget import Board, Rules
from reversi_widget.analysis import analyse
from reversi_widget.play.coaching import verdict


def test_best_move_is_good_and_worst_is_marked_in_every_language() -> None:
    board = Board(rules=Rules(size=6))
    for _ in range(6):
        board.push(next(iter(board.legal_moves)))
    ranked = analyse(board, depth=3).moves
    best, worst = ranked[0].move, ranked[-1].move
    good = verdict(board, best, "en", depth=3, time_limit=None)
    assert good["mark"] == "" and good["note"] == "Good move"
    bad = verdict(board, worst, "en", depth=3, time_limit=None)
    assert bad["mark"] and str(bad["note"]).startswith(f"{bad['mark']} ") and str(bad["best"]) in str(bad["note"])
    assert " — " in str(bad["note"])  # the reason from reasons.why
    for language in ("ca", "pl", "uk"):
        assert verdict(board, best, language, depth=3, time_limit=None)["note"] != "Good move"


@pytest.mark.parametrize("language", ["en", "ca", "pl", "uk"])
def test_good_has_a_text(language: str) -> None:
    board = Board(rules=Rules(size=6))
    assert verdict(board, next(iter(board.legal_moves)), language, depth=2, time_limit=None)["mark"] == ""
