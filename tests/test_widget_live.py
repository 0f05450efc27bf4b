"""The live evaluation in the widget, driven by simulated messages: off by default, a bar
that follows the position shown, exact once solved, a chart that grows with the game, not
run while a computer thinks, stopped by a move that makes it stale, in four languages."""

from __future__ import annotations

import random
import re
import threading
import time
from typing import Any

import pytest

from reversi_widget import Board
from reversi_widget.analysis import analyse
from reversi_widget.play import aids as aids_module
from reversi_widget.play.live import LIVE_EVALUATIONS
from reversi_widget.squares import BLACK
from reversi_widget.widget import ReversiWidget
from tests.support import END_33_29, Gate, click, join_workers, play_random, widget

CHANCE = re.compile(r"Black (\d+)%")


def test_off_by_default_and_nothing_is_analysed_for_it() -> None:
    w, _ = widget()
    click(w, "f5")
    assert w.wait(5)
    assert w.live_evaluation == "off" and w.live == {} and w.evaluations == []
    assert w._aids.analysis is None  # no analysis ran: nobody wanted one
    assert w.config["live_evaluations"] == list(LIVE_EVALUATIONS)


def test_turned_on_from_a_view_the_bar_shows_blacks_chance_of_the_position() -> None:
    w, sent = widget(analysis_depth=2)
    w.set_state({"live_evaluation": "chance"})  # the settings menu's choice
    assert w.wait(10)
    live = w.live
    assert live["mode"] == "chance" and live["known"] and live["note"] == "estimate (depth 2)"
    analysis = analyse(w.board, depth=2)
    chance = analysis.win_chance
    assert chance is not None
    match = CHANCE.fullmatch(live["text"])
    assert match and int(match.group(1)) == max(1, min(99, round(chance * 100)))
    assert live["black"] == pytest.approx(chance, abs=1e-4)
    assert sent.updates()["live"] == live  # sent to the views
    assert w.busy == ""  # the bar says it is evaluating; no progress bar for it


def test_a_bad_choice_from_a_view_is_refused_and_nothing_changes() -> None:
    w, _ = widget()
    before = (w.live_evaluation, w.live, w.evaluations)
    w.set_state({"live_evaluation": "loud"})
    assert (w.live_evaluation, w.live, w.evaluations) == before
    assert "live_evaluation" in w.notice and "loud" in w.notice
    with pytest.raises(Exception, match="live_evaluation"):
        ReversiWidget(live_evaluation="always")


def test_the_disc_score_is_blacks_and_the_chart_grows_with_the_game() -> None:
    w, _ = widget(analysis_depth=2, live_evaluation="score")
    assert w.wait(10)
    for square in ("f5", "d6", "c3"):
        click(w, square)
        assert w.wait(10)
        values = w.evaluations
        assert len(values) == len(w.moves) + 1 and all(v is not None for v in values)
        assert len(w.live["course_exact"]) == len(values) and not any(w.live["course_exact"])
    board = w.board
    own = analyse(board, depth=2).best.score
    black = own if board.turn == BLACK else -own
    assert re.fullmatch(r"Black ([+-]\d+|0)", w.live["text"])
    # the last position's reading is the mean of its own analysis and the move's score before it
    before = board.copy()
    played = before.pop()
    entry = analyse(before, depth=2)[played]
    after = entry.score if before.turn == BLACK else -entry.score
    assert w.evaluations[-1] == pytest.approx((black + after) / 2, abs=0.011)
    # the chart's values stay with the line: undo keeps them, a new game drops them
    known = list(w.evaluations)
    w.undo()
    assert w.wait(10) and w.evaluations == known
    w.new_game()
    assert w.wait(10) and len(w.evaluations) == 1


def test_a_solved_position_is_exact() -> None:
    board = play_random(Board(), random.Random(7), 50)  # 10 empties or fewer: solved on either path
    assert not board.is_game_over()
    w, _ = widget(board=board, live_evaluation="chance")
    assert w.wait(30)
    analysis = analyse(board)
    assert analysis.exact and analysis.win_chance in (0.0, 0.5, 1.0)
    assert w.live["text"] == f"Black {round(analysis.win_chance * 100)}%"
    assert w.live["note"] == "exact: the position is solved" and w.live["course_exact"][-1]


def test_the_end_of_the_game_shows_the_result() -> None:
    w, _ = widget(board=END_33_29, live_evaluation="chance")
    assert w.wait(5) and w.game_over
    assert w.live["text"] == "Black 100%" and w.live["black"] == 1.0
    w.live_evaluation = "score"
    assert w.live["text"] == "Black +4"


def test_nothing_is_analysed_while_a_computer_thinks_and_the_bar_keeps_the_moves_reading() -> None:
    gate = Gate()
    w, _ = widget(white=gate, analysis_depth=2, live_evaluation="chance")
    assert w.wait(10) and w.live["known"]
    click(w, "f5")
    assert gate.started.wait(5)
    assert w._aids.analysis_job is None  # the engine keeps the machine
    assert w.live["known"] and w.evaluations[1] is not None  # read from the analysis before f5
    gate.release.set()
    assert w.wait(10) and w.ply == 2 and w.live["known"]
    join_workers(w)


def test_a_move_that_makes_it_stale_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    started, stopped = threading.Event(), threading.Event()
    calls: list[int] = []

    def endless(board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None) -> Any:
        calls.append(board.empty_count())
        if len(calls) > 1:
            return analyse(board, depth=1)
        started.set()
        try:
            while True:  # only a stale position stops it
                progress(0.25, "working")
                time.sleep(0.01)
        except BaseException:
            stopped.set()
            raise

    monkeypatch.setattr(aids_module, "analyse", endless)
    w, _ = widget(live_evaluation="score")
    assert started.wait(5)
    assert w.live["known"] is False and w.live["note"] == "evaluating…"
    click(w, "d3")
    assert stopped.wait(5)
    assert w.wait(5) and calls == [60, 59] and w.live["known"]
    join_workers(w)


def test_turning_it_off_stops_it_and_clears_the_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    started, stopped = threading.Event(), threading.Event()

    def endless(board: Board, progress: Any = None, **kwargs: Any) -> Any:
        started.set()
        try:
            while True:
                progress(0.5, "working")
                time.sleep(0.01)
        except BaseException:
            stopped.set()
            raise

    monkeypatch.setattr(aids_module, "analyse", endless)
    w, _ = widget(live_evaluation="chance")
    assert started.wait(5)
    w.set_state({"live_evaluation": "off"})
    assert stopped.wait(5) and w.wait(5)
    assert w.live == {} and w.evaluations == []
    join_workers(w)


@pytest.mark.parametrize(
    ("language", "word", "note"),
    [
        ("en", "Black", "estimate"),
        ("ca", "Negres", "estimació"),
        ("pl", "Czarne", "szacunek"),
        ("uk", "Темні", "оцінка"),
    ],
)
def test_the_bar_speaks_the_widgets_language(language: str, word: str, note: str) -> None:
    w, _ = widget(analysis_depth=2, live_evaluation="chance", language=language)
    assert w.wait(10)
    assert re.fullmatch(rf"{word} \d+%", w.live["text"]) and w.live["note"].startswith(note)
    assert w.strings["live_evaluation_chance"] and w.strings["live_bar"]


def test_the_puzzle_answer_is_not_given_away() -> None:
    from reversi_widget.puzzles import shipped

    w, _ = widget(live_evaluation="chance")
    w.start_puzzles([p for p in shipped(size=8) if p.difficulty.empties <= 10][:1])
    assert w.wait(10)
    # no bar, and no analysis of the puzzle's position (one of the start may have finished)
    assert w.live == {} and w._aids.current_analysis() is None and w._aids.analysis_job is None


def test_a_damaged_win_chance_file_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from reversi_widget import winchance

    damaged = tmp_path / "win_chance.json"
    damaged.write_text('{"format": "reversi-widget win chance", "version": 1, "variants": {', encoding="utf-8")
    monkeypatch.setattr(winchance, "WIN_CHANCE_FILE", damaged)
    with pytest.raises(winchance.WinChanceFileError, match=re.escape(str(damaged))):
        ReversiWidget(live_evaluation="chance")
    w, _ = widget()
    with pytest.raises(winchance.WinChanceFileError, match="is damaged"):
        w.live_evaluation = "score"
    assert w.live_evaluation == "off" and w.live == {}
    w.set_state({"live_evaluation": "chance"})  # from the settings menu: a notice names the file
    assert w.live_evaluation == "off" and w.live == {}
    assert w.notice_kind == "error" and str(damaged) in w.notice and "live_evaluation" in w.notice


def test_a_live_only_analysis_yields_to_the_game_and_a_hint_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from reversi_widget.play import workers

    seen: list[tuple[int, float]] = []  # (the thread's nice value, seconds since the move)
    moved = [0.0]

    def noting(board: Board, **kwargs: Any) -> Any:
        seen.append((os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), time.monotonic() - moved[0]))
        return analyse(board, depth=1)

    monkeypatch.setattr(aids_module, "analyse", noting)
    base = os.getpriority(os.PRIO_PROCESS, 0)
    w, _ = widget(live_evaluation="score")
    assert w.wait(10)
    moved[0] = time.monotonic()
    click(w, "f5")
    assert w.wait(10) and len(seen) == 2
    nice, after = seen[-1]
    assert after >= workers.BACKGROUND_DELAY and nice == min(19, base + workers.BACKGROUND_NICE)
    w.hint()  # wanted by a player now: at once, at the kernel's own priority
    moved[0] = time.monotonic()
    assert w.wait(10)
    assert len(seen) == 2  # the live evaluation's analysis serves the hint: nothing runs again
    w.show_scores = True
    moved[0] = time.monotonic()
    click(w, "d6")
    assert w.wait(10) and len(seen) == 3
    nice, after = seen[-1]
    assert nice == base and after < workers.BACKGROUND_DELAY
