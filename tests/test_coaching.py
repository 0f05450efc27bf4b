"""The coach's verdict on one move (``play/coaching.verdict``) and the summary of a coached
game (``Summary``): the review's mark and loss, the reason only where one stands out, words
in the four languages, a time limit kept and a halt obeyed."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest

from reversi_widget import Board, Rules
from reversi_widget.analysis import REVIEW_MARKS, analyse, judge
from reversi_widget.i18n import LANGUAGES
from reversi_widget.play.coaching import COACH_SECONDS, Summary, Verdict, verdict
from reversi_widget.reasons import why
from reversi_widget.search import SearchTimeout, StopSignal
from tests.support import play_random
from tests.test_widget_coach import load_the_compiled_searches


@pytest.fixture(autouse=True, scope="module")
def compiled_searches() -> None:
    load_the_compiled_searches()  # one search for both sides of each comparison


def _position(seed: int, plies: int, size: int = 6) -> Board:
    board = play_random(Board(rules=Rules(size=size)), random.Random(seed), plies)
    assert not board.is_game_over() and not board.must_pass()
    return board


def test_every_move_of_a_position_is_judged_as_the_review_judges_it() -> None:
    board = _position(3, 8)
    analysis = analyse(board, depth=3)
    marks = set()
    for move in board.legal_moves:
        found = verdict(board, move, depth=3, time_limit=None)
        top, mine, loss = judge(board, analysis, move)  # the review's verdict, with its check
        assert (found.move, found.best, found.loss) == (str(move), str(top.move), round(loss, 1))
        assert found.exact == (mine.exact and top.exact)
        assert found.mark == next((sign for least, sign in REVIEW_MARKS if found.loss >= least), "")
        # A reason only for a marked move, and exactly the one reasons.why computes.
        assert found.reason == (why(board, move, top.move) if found.mark else None)
        marks.add(found.mark)
    assert "" in marks and marks - {""}  # this position has good moves and marked ones


def test_a_marked_move_says_what_it_lost_the_best_move_and_why() -> None:
    board = _position(3, 8)
    moves = {str(m): verdict(board, m, depth=3, time_limit=None) for m in board.legal_moves}
    bad = max(moves.values(), key=lambda v: v.loss)
    assert bad.mark and bad.reason is not None
    lost = f"{round(bad.loss)} discs" if bad.exact else f"about {round(bad.loss)} discs"
    expected = f"{bad.move}{bad.mark} loses {lost}: the best was {bad.best} — {bad.reason.render('en')}"
    assert bad.render("en") == expected
    plain = Verdict(bad.move, bad.best, bad.loss, bad.exact, bad.mark)  # no reason stands out
    assert plain.render("en") == f"{bad.move}{bad.mark} loses {lost}: the best was {bad.best}"
    best = next(v for v in moves.values() if v.move == v.best)
    assert best.render("en") == f"{best.move}: best move"
    good = Verdict("c4", "f5", 1.4, False, "")
    assert good.render("en") == "c4: good move"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_verdict_is_said_in_every_language(language: str) -> None:
    board = _position(3, 8)
    for move in board.legal_moves:
        found = verdict(board, move, depth=2, time_limit=None)
        text = found.render(language)
        assert found.move in text and "{" not in text
        if found.mark:
            assert found.best in text and found.mark in text
        if language != "en":
            assert text != found.render("en")


def test_a_timed_verdict_keeps_to_about_a_second() -> None:
    board = _position(11, 20, size=8)
    move = next(iter(board.legal_moves))
    verdict(board, move, time_limit=0.2)  # the searches are loaded (and compiled, where numba is)
    started = time.perf_counter()
    found = verdict(board, move)
    took = time.perf_counter() - started
    assert found.move == str(move)
    assert took < COACH_SECONDS + 1.0, took  # the analysis' limit, and no unbounded check after it


def test_a_halt_stops_the_verdict() -> None:
    board = _position(11, 20, size=8)
    stop = StopSignal()
    threading.Timer(0.2, stop.halt).start()
    started = time.perf_counter()
    with pytest.raises(SearchTimeout):
        verdict(board, next(iter(board.legal_moves)), depth=30, time_limit=None, stop=stop)
    assert time.perf_counter() - started < 5


def test_the_summary_counts_in_words_in_every_language() -> None:
    worst = (
        (17, "9. g7??", Verdict("g7", "c5", 40.0, False, "??")),
        (21, "11. b2?", Verdict("b2", "f6", 8.0, False, "?")),
    )
    summary = Summary(kept=29, judged=28, mistakes=5, taken_back=1, worst=worst)
    assert summary.render("en") == (
        "You kept 29 moves; the coach judged 28 of them and marked 5 as mistakes. You tried again 1 time. "
        "To replay, the worst first:"
    )
    assert Summary(1, 1, 1, 2, ()).render("en") == (
        "You kept 1 move; the coach judged 1 of them and marked 1 as a mistake. You tried again 2 times."
    )
    assert "Zachowano 22 ruchy" in Summary(22, 22, 0, 0, ()).render("pl")  # the plural forms of each language
    assert "Збережено 25 ходів" in Summary(25, 25, 0, 0, ()).render("uk")
    for language in LANGUAGES:
        text = summary.render(language)
        assert all(re.search(rf"\b{n}\b", text) for n in ("29", "28", "5", "1")) and "{" not in text
