"""The widget where there are no threads (Pyodide in a browser), forced under CPython:
``workers.THREADS = False`` and any thread start fails as it does there. Computer moves,
hints, scores and reviews run in slices on the event loop (or inside ``wait()``), the
kernel's messages get in between, and a stale computer move is still never applied."""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reversi_widget import Board, Move, native
from reversi_widget.analysis import analyse, review
from reversi_widget.play import slices, workers
from reversi_widget.play.slices import EventLoopRunner
from reversi_widget.players import GreedyPlayer, RandomPlayer
from tests.support import click, send, snapshot, widget
from tests.test_widget_computers import STALE_MAKERS, make_stale


@pytest.fixture(autouse=True)
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "THREADS", False)
    # The compiled core's warm-up as Pyodide sees it: not started, and its thread cannot
    # start. A throwaway one, so the failure it records does not outlive the test.
    monkeypatch.setattr(native, "_warm_up", native._WarmUp())

    def refuse(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


class Counting:
    """A computer player that counts its calls and plays its first legal move."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, board: Board) -> Move:
        self.calls += 1
        return next(iter(board.legal_moves))


def legal_squares(board: Board) -> set[str]:
    return {str(move) for move in board.legal_moves}


def test_the_mode_follows_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    assert isinstance(widget()[0]._workers.runner, EventLoopRunner)
    monkeypatch.setattr(workers, "THREADS", True)
    assert widget()[0]._workers.runner is None
    import importlib

    fresh = importlib.reload(workers)
    try:
        assert fresh.THREADS is (sys.platform != "emscripten")
    finally:
        importlib.reload(workers)


# -- computer moves -------------------------------------------------------------------------------


def test_wait_plays_the_computers_reply_in_the_callers_thread() -> None:
    w, sent = widget(white="greedy")
    click(w, "d3")
    assert w.thinking and w.ply == 1  # nothing runs until the loop (or wait) takes it up
    assert w.wait(5)
    assert w.ply == 2 and not w.thinking and w.moves[1] in {"c3", "e3", "c5"}
    assert sent.updates()["moves"] == w.moves


def test_on_the_event_loop_the_reply_waits_for_its_own_turn_and_its_delay() -> None:
    async def main() -> tuple[list[int], float]:
        w, _ = widget(white="greedy", move_delay=0.3)
        start = time.monotonic()
        click(w, "d3")
        seen = [w.ply]  # the click is answered first: the computer has not started
        await asyncio.sleep(0.1)
        seen.append(w.ply)  # chosen, but its delay is not over; the loop is free meanwhile
        while w.ply < 2 and time.monotonic() - start < 5:
            await asyncio.sleep(0.01)
        seen.append(w.ply)
        return seen, time.monotonic() - start

    seen, took = asyncio.run(main())
    assert seen == [1, 1, 2] and took >= 0.29


@pytest.mark.parametrize("action", STALE_MAKERS)
@pytest.mark.parametrize("when", ["before it thinks", "during its delay"])
def test_a_stale_computer_move_is_never_applied(action: str, when: str) -> None:
    player = Counting()

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        w, _ = widget(white=player, move_delay=0.3)
        click(w, "d3")
        if when == "during its delay":
            await asyncio.sleep(0.1)
            assert player.calls == 1 and w.thinking
        make_stale(w, action)
        assert not w.thinking
        before = snapshot(w)
        await asyncio.sleep(0.5)  # past the delay: whatever was scheduled has run
        return before, snapshot(w)

    before, after = asyncio.run(main())
    assert after == before
    assert player.calls == (1 if when == "during its delay" else 0)


def test_two_computers_play_a_whole_game_inside_wait() -> None:
    w, _ = widget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2))
    assert w.wait(20) and w.game_over
    board = Board()
    black, white = RandomPlayer(seed=1), GreedyPlayer(seed=2)
    while not board.is_game_over():
        player = black if board.turn else white
        board.push(Move.null(board.size) if board.must_pass() else player.choose(board))
    assert w.board.transcript() == board.transcript()


def test_wait_gives_up_at_its_timeout_and_can_be_asked_again() -> None:
    w, _ = widget(white="greedy", move_delay=2.0)
    click(w, "d3")
    start = time.monotonic()
    assert not w.wait(0.2)
    # It waited its time, and gave up before the reply (which comes 2 s after the click): a
    # loaded machine only makes the wait later, so no upper bound on the clock is needed.
    assert time.monotonic() - start > 0.15 and w.ply == 1 and w.thinking
    assert w.wait(60) and w.ply == 2


def test_a_failing_computer_still_pauses_the_game_with_a_notice() -> None:
    class Broken:
        name = "broken"

        def choose(self, board: Board) -> Move:
            raise ValueError("no idea")

    w, _ = widget(white=Broken())
    click(w, "d3")
    assert w.wait(5)
    assert w.ply == 1 and w.paused and "no idea" in w.notice


# -- hints, scores, reviews -----------------------------------------------------------------------


def test_hint_scores_and_review_without_threads() -> None:
    w, _ = widget(analysis_depth=2)
    w.hint()
    assert w.busy == "hint" and w.wait(10) and w.busy == ""
    assert w.hints and set(w.hints) <= legal_squares(Board())
    w.show_scores = True
    assert w.wait(10)
    expected = analyse(Board(), depth=2)
    assert set(w.scores) == legal_squares(Board()) == {str(e.move) for e in expected.moves}

    w, _ = widget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2), analysis_depth=2)
    assert w.wait(20) and w.game_over
    send(w, {"kind": "review", "ply": w.ply})
    assert w.wait(30) and w.busy == ""
    assert [e["loss"] for e in w.review_moves] == [round(r.loss, 1) for r in review(w.board, depth=2)]


def test_an_analysis_lets_messages_in_at_its_progress_reports_and_one_there_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside a slice the runner pauses at the analysis' progress reports (in Pyodide the
    stack is suspended there and the kernel handles what came in); a move made there makes
    the analysis stale, and it stops there."""
    from reversi_widget.play import aids as aids_module

    start = Board().to_string()
    calls: list[str] = []
    reports_after_the_move: list[int] = []

    def long_analysis(
        board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None
    ) -> Any:
        calls.append(board.to_string())
        if board.to_string() != start:
            return analyse(board, depth=1)
        for step in range(200):
            time.sleep(0.005)
            if w.ply:
                reports_after_the_move.append(step)
            progress(step / 200, "working")
        raise AssertionError("a stale analysis went on to its end")

    monkeypatch.setattr(aids_module, "analyse", long_analysis)
    w, _ = widget(show_scores=True)
    pauses: list[int] = []

    def kernel_handles_a_click() -> None:
        pauses.append(w.ply)
        if len(pauses) == 1:
            click(w, "d3")

    assert w._workers.runner is not None
    w._workers.runner.pause = kernel_handles_a_click
    assert w.wait(10)
    assert calls == [start, Board.from_transcript("d3").to_string()] and pauses[0] == 0
    assert reports_after_the_move == []  # stopped in the very report where the click got in
    assert set(w.scores) == legal_squares(Board.from_transcript("d3")) and w.busy == ""


def test_puzzle_tries_reach_the_log_in_slices(tmp_path: Path) -> None:
    """A try is judged at once; its game for the log (which takes a solve) is made in a
    slice of its own, after the click's message is answered."""
    from reversi_widget.puzzles import puzzle_tries, shipped
    from reversi_widget.records import GameLog

    puzzle = next(p for p in shipped(size=8) if p.difficulty.empties <= 10)
    log = GameLog(tmp_path / "class.sqlite")
    w, _ = widget(puzzle=puzzle, learner="Ann", log=log)
    wrong = next(str(r.move) for r in puzzle.results if r.move not in puzzle.solution)
    click(w, wrong)
    assert w.puzzle_state["verdict_kind"] == "wrong" and puzzle_tries(log).rows == []  # not yet written
    w.retry_puzzle()
    click(w, str(puzzle.solution[0]))
    assert w.wait(60)
    assert [row[2:4] for row in puzzle_tries(log, "Ann")] == [(wrong, "no"), (str(puzzle.solution[0]), "yes")]


def test_a_pure_search_lets_messages_in_at_its_clock_checks_and_one_there_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the middle of a root move, far from any progress report, the pure search's clock
    checks pause too (the job's stop signal breathes there); a click handled at one makes
    the analysis stale, and the search ends at that very check."""
    from reversi_widget.play import aids as aids_module
    from reversi_widget.search import SearchTimeout

    monkeypatch.setenv(native.PURE_ENV, "1")  # what Pyodide runs: no numba there
    reports: list[float] = []
    raised: list[BaseException] = []

    def watched(board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None) -> Any:
        def report(fraction: float, message: str) -> None:
            reports.append(time.monotonic())
            progress(fraction, message)

        try:
            return analyse(board, depth=depth, time_limit=time_limit, progress=report, stop=stop)
        except BaseException as error:
            raised.append(error)
            raise

    monkeypatch.setattr(aids_module, "analyse", watched)
    w, _ = widget(analysis_time_limit=30)  # deepens for 30 s unless stopped
    w.hint()
    clicked: list[int] = []  # the reports made before the click

    def kernel_handles_a_click() -> None:
        if not clicked and reports and time.monotonic() - reports[-1] > 0.3:
            clicked.append(len(reports))
            click(w, "d3")  # the hint was for the start: stale now

    assert w._workers.runner is not None
    w._workers.runner.pause = kernel_handles_a_click
    assert w.wait(120)
    assert clicked and isinstance(raised[0], SearchTimeout)
    assert len(reports) == clicked[0]  # not one more report: it stopped inside the root move
    assert w.ply == 1 and w.busy == "" and w.hints == [] and "failed" not in w.notice


# -- the runner itself ----------------------------------------------------------------------------


@pytest.mark.parametrize("on_the_loop", [True, False])
def test_slices_run_in_turn_with_their_delays_on_the_loop_or_in_wait(on_the_loop: bool) -> None:
    runner = EventLoopRunner(logging.getLogger("test"))
    done: list[tuple[str, float]] = []
    start = time.monotonic()

    def work(name: str, delay: float) -> Iterator[float]:
        done.append((name, time.monotonic() - start))
        yield delay
        done.append((name, time.monotonic() - start))

    def spawn_both() -> None:
        runner.spawn("a", lambda: work("a", 0.2))
        runner.spawn("b", lambda: work("b", 0.05))
        assert done == []  # spawning runs nothing

    async def on_loop() -> None:
        spawn_both()
        while runner.runs:
            await asyncio.sleep(0.01)

    if on_the_loop:
        asyncio.run(on_loop())
    else:
        spawn_both()
        assert runner.wait(lambda: not runner.runs, 5)
    assert [name for name, _ in done] == ["a", "b", "b", "a"]
    assert done[2][1] - done[1][1] >= 0.045 and done[3][1] - done[0][1] >= 0.195


def test_a_failing_piece_of_work_is_logged_and_the_others_go_on(caplog: pytest.LogCaptureFixture) -> None:
    runner = EventLoopRunner(logging.getLogger("test"))
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("a bug")

    runner.spawn("broken", broken)
    runner.spawn("fine", lambda: ran.append("fine"))
    assert runner.wait(lambda: not runner.runs, 5)
    assert ran == ["fine"] and "the broken work failed" in caplog.text and "a bug" in caplog.text


def test_breathe_pauses_at_most_once_a_slice() -> None:
    pauses: list[float] = []
    runner = EventLoopRunner(logging.getLogger("test"), pause=lambda: pauses.append(time.monotonic()))

    def busy() -> None:
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            runner.breathe()

    runner.spawn("busy", busy)
    assert runner.wait(lambda: not runner.runs, 5)
    assert 3 <= len(pauses) <= int(0.3 / slices.SLICE) + 1
    assert all(b - a >= slices.SLICE * 0.9 for a, b in itertools.pairwise(pauses))


def test_the_live_evaluation_runs_in_slices_and_follows_the_game() -> None:
    w, _ = widget(white=GreedyPlayer(seed=1), live_evaluation="chance", analysis_depth=2)
    assert w.wait(30) and w.live["known"]
    click(w, "f5")
    assert w.wait(30) and w.ply == 2 and w.live["known"]
    assert len(w.evaluations) == 3 and w.evaluations[0] is not None and w.evaluations[2] is not None
    assert w.live["note"] == "estimate (depth 2)"
