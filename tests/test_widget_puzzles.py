"""Puzzle mode and the position editor without a browser: the front end is simulated by
the widget's message handler, as in test_widget_model.py."""

from __future__ import annotations

import contextlib
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from reversi_widget import Board, InvalidPositionError, ReversiError, Rules, analyse
from reversi_widget.play import puzzling
from reversi_widget.play.editor import Editor
from reversi_widget.play.puzzling import PerfectDefence, hint_region
from reversi_widget.play.workers import Backlog, Workers
from reversi_widget.puzzles import class_results, pose, puzzle_tries, shipped
from reversi_widget.puzzles.puzzle import Puzzle
from reversi_widget.records import GameLog
from reversi_widget.solver import solve
from reversi_widget.squares import BLACK, WHITE, square_name
from tests.support import click, send, snapshot, widget


def quick() -> list[Puzzle]:
    """Shallow puzzles, so perfect defence answers at once."""
    return [p for p in shipped(size=8) if p.difficulty.empties <= 10][:4]


def wrong_move(puzzle: Puzzle) -> str:
    return str(next(r.move for r in puzzle.results if r.move not in puzzle.solution))


def intent(w: Any, kind: str, **fields: object) -> None:
    """An intent as the front end sends it: with the ply shown, and a puzzle button's with
    the puzzle shown."""
    content: dict[str, object] = {"kind": kind, "ply": w.ply}
    if kind.startswith("puzzle_"):
        content["puzzle"] = w.puzzle_state.get("index", 0)
    send(w, {**content, **fields})


# -- puzzles ---------------------------------------------------------------------------------


def test_a_puzzle_is_shown_with_its_task_and_the_learner_on_its_side() -> None:
    puzzles = quick()
    w, _ = widget(puzzle=puzzles, learner="Ann")
    first = puzzles[0]
    assert w.board.to_string() == first.position and w.current_puzzle == first
    state = w.puzzle_state
    assert state["task"] == first.task_text() and state["index"] == 0 and state["count"] == len(puzzles)
    assert (state["verdict"], state["solved"], state["tried"], state["learner"]) == ("", 0, 0, "Ann")
    learner_side, defence_side = ("black", "white") if first.turn == BLACK else ("white", "black")
    assert getattr(w, learner_side) == "human" and isinstance(getattr(w, defence_side), PerfectDefence)
    assert set(w.legal) == {str(m) for m in first.moves}


def test_a_right_click_gets_the_exact_verdict_and_the_defence_answers() -> None:
    w, _ = widget(puzzle=quick())
    puzzle = w.current_puzzle
    assert puzzle is not None
    answer = str(puzzle.solution[0])
    click(w, answer)
    assert w.wait(60)
    assert w.puzzle_state["verdict"] == puzzle.verdict(answer).text and w.notice == ""  # said once, in the panel
    assert w.puzzle_state["verdict_kind"] == "right" and w.puzzle_score == (1, 1)
    assert str(w.puzzle_score) == "solved 1 of 1 puzzle at the first try"  # printed, it reads as words
    assert w.moves[0] == answer
    if len(w.moves) > 1:  # perfect defence replied with a move that keeps the exact result
        assert w.moves[1] == str(puzzle.result(answer).reply) or w.moves[1] == "pass"


def test_a_wrong_click_is_explained_without_the_answer_and_counts_as_a_miss() -> None:
    w, _ = widget(puzzle=quick())
    puzzle = w.current_puzzle
    assert puzzle is not None
    wrong = wrong_move(puzzle)
    click(w, wrong)
    assert w.wait(60)
    assert w.puzzle_state["verdict_kind"] == "wrong"
    assert w.puzzle_state["verdict"] == puzzle.verdict(wrong).text and "not a solution" in w.puzzle_state["verdict"]
    intent(w, "puzzle_retry")
    assert w.board.to_string() == puzzle.position and w.puzzle_state["verdict"] == ""
    click(w, str(puzzle.solution[0]))
    assert w.wait(60)
    assert w.puzzle_state["verdict_kind"] == "right"
    assert w.puzzle_score == (0, 1)  # only the first try counts


def test_solution_next_and_the_end_of_the_list() -> None:
    puzzles = quick()[:2]
    w, sent = widget(puzzle=puzzles)
    intent(w, "puzzle_solution")
    assert w.hints == [str(m) for m in puzzles[0].solution] == w.puzzle_state["solution"]
    assert w.notice == puzzles[0].solution_text() and w.puzzle_score == (0, 1)
    intent(w, "puzzle_next")
    assert w.current_puzzle == puzzles[1] and w.board.to_string() == puzzles[1].position
    assert w.hints == [] and w.notice == ""
    before = snapshot(w)
    intent(w, "puzzle_next")
    assert sent.custom()[-1]["reason"] == "Refused: this is the last of the 2 puzzles"
    assert snapshot(w) == before
    with pytest.raises(ReversiError, match="last of the 2 puzzles"):
        w.next_puzzle()


def test_puzzle_buttons_are_judged_by_the_puzzle_shown_not_the_ply() -> None:
    """Perfect defence may answer the learner's move while a click on Next is on its way:
    the click still counts; a click made for another puzzle is refused and changes nothing."""
    puzzles = quick()[:3]
    w, sent = widget(puzzle=puzzles)
    click(w, str(puzzles[0].solution[0]))
    assert w.wait(60)
    intent(w, "puzzle_next", ply=0)  # made before the learner's move and the reply landed
    assert w.current_puzzle == puzzles[1] and w.board.to_string() == puzzles[1].position
    before = snapshot(w)
    intent(w, "puzzle_next", puzzle=0)  # a second click on the first puzzle's Next
    assert sent.custom()[-1]["reason"] == "Refused: the message was made for puzzle 1 but puzzle 2 is shown; try again"
    assert snapshot(w) == before and w.current_puzzle == puzzles[1]


def test_the_next_puzzle_button_puts_the_learner_on_the_new_side_to_move() -> None:
    """The buttons act like the Python methods: perfect defence never plays a learner's move."""
    shallow = [p for p in shipped(size=8) if p.difficulty.empties <= 10]
    puzzles = [next(p for p in shallow if p.turn == BLACK), next(p for p in shallow if p.turn == WHITE)]
    w, _ = widget(puzzle=puzzles)
    assert w.black == "human" and isinstance(w.white, PerfectDefence)
    intent(w, "puzzle_next")
    assert w.wait(30)
    black: object = w.black  # read again: the sides changed
    white: object = w.white
    assert isinstance(black, PerfectDefence) and white == "human"
    assert w.moves == [] and w.puzzle_state["verdict"] == "" and w.puzzle_score == (0, 0)
    assert w.board.to_string() == puzzles[1].position


def test_after_a_try_the_line_is_played_out_by_perfect_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzling, "PLAY_OUT_DELAY", 0.01)
    puzzle = next(p for p in quick() if ends_not_at_once(p, wrong_move(p)))
    w, sent = widget(puzzle=puzzle)
    assert w.puzzle_state["can_play_out"] is False
    before = snapshot(w)
    intent(w, "puzzle_play_out")  # nothing tried yet: it would give the answer away
    assert sent.custom()[-1]["reason"].startswith("Refused: try a move or show the solution first")
    assert snapshot(w) == before
    wrong = wrong_move(puzzle)
    click(w, wrong)
    assert w.wait(60) and w.puzzle_state["can_play_out"] is True
    w.jump(0)  # back at the puzzle's position, perfect play would play the answer
    with pytest.raises(ReversiError, match="try a move or show the solution first"):
        w.play_out()
    w.jump(1)  # the play-out goes on from the position shown: the moves after it go
    intent(w, "puzzle_play_out")
    assert isinstance(w.black, PerfectDefence) and isinstance(w.white, PerfectDefence)
    assert w.puzzle_state["playing_out"] is True and w._puzzles.computer_delay(w.move_delay) == max(w.move_delay, 0.01)
    assert w.wait(120) and w.game_over
    outcome = w.board.outcome()
    assert outcome is not None
    margin = outcome.black - outcome.white if puzzle.turn == BLACK else outcome.white - outcome.black
    assert margin == puzzle.result(wrong).score  # the tried move's exact result, played out
    assert w.moves[0] == wrong and w.puzzle_score == (0, 1) and w.puzzle_state["verdict_kind"] == "wrong"
    w.retry_puzzle()
    learner = "black" if puzzle.turn == BLACK else "white"
    assert getattr(w, learner) == "human" and w.puzzle_state["playing_out"] is False and w.moves == []


def test_the_solution_shown_is_played_out_without_counting_as_a_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(puzzling, "PLAY_OUT_DELAY", 0.01)
    puzzle = quick()[1]
    log = GameLog(tmp_path / "class.sqlite")
    w, _ = widget(puzzle=puzzle, learner="Ann", log=log)
    w.show_solution()
    w.play_out()
    assert w.wait(120) and w.game_over
    assert w.moves[0] in {str(m) for m in puzzle.solution} and w.puzzle_state["verdict_kind"] == "right"
    assert w.puzzle_score == (0, 1) and puzzle_tries(log).rows == []  # seen, not tried
    assert len(log) == 0  # the line played on from a puzzle is no game of the class's log
    with pytest.raises(ReversiError, match="the game is over"):
        w.play_out()


def test_hints_name_a_region_and_scores_stay_hidden_until_it_is_solved() -> None:
    puzzle = next(p for p in quick() if hint_region(p) != "puzzle_hint_none")
    w, _ = widget(puzzle=puzzle, show_scores=True)
    intent(w, "hint")
    assert w.notice.startswith("Hint: look") and w.hints == []
    assert not any(str(m) in w.notice for m in puzzle.moves)
    assert w.wait(30) and w.scores == {}
    w.show_solution()
    assert w.wait(60)
    assert w.scores  # settled: the scores may show now


def test_puzzle_intents_outside_puzzle_mode_are_refused() -> None:
    w, sent = widget()
    before = snapshot(w)
    intent(w, "puzzle_next")
    assert sent.custom()[-1]["reason"] == "Refused: puzzle_next works only in puzzle mode"
    assert snapshot(w) == before


def test_the_log_keeps_each_learners_tries(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "class.sqlite")
    puzzle = quick()[0]
    w, _ = widget(puzzle=puzzle, learner="Ann", log=log)
    click(w, wrong_move(puzzle))
    assert w.wait(60)
    w.retry_puzzle()
    click(w, str(puzzle.solution[0]))
    assert w.wait(60)
    games = log.games(player="Ann")
    assert [(g.metadata["tried"], g.metadata["solved"], g.metadata["first_try"]) for g in games] == [
        (wrong_move(puzzle), "no", "yes"),
        (str(puzzle.solution[0]), "yes", "no"),
    ]
    for game in games:  # each a real game: the puzzle's position, the try, perfect play to the end
        assert game.event == f"puzzle: {puzzle.name}" and game.rules.start == puzzle.position
        outcome = game.outcome()
        assert outcome is not None and game.result == (outcome.black, outcome.white)
        margin = outcome.black - outcome.white if puzzle.turn == BLACK else outcome.white - outcome.black
        assert margin == puzzle.result(game.moves[0]).score
    other, _ = widget(puzzle=puzzle, learner="Ben", log=log)
    click(other, str(puzzle.solution[0]))
    assert other.wait(60)
    assert puzzle_tries(log, "Ben").rows == [("Ben", puzzle.name, str(puzzle.solution[0]), "yes", "yes")]
    assert class_results(log).rows == [("Ann", 1, 0, 2), ("Ben", 1, 1, 1)]
    assert len(log) == 3  # the tries alone, whether the lines went on to the end or not


def ends_not_at_once(puzzle: Puzzle, move: str) -> bool:
    board = puzzle.board()
    board.push(board.parse_move(move))
    return not board.is_game_over()


def test_a_try_is_kept_in_the_log_by_a_worker_while_the_widget_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keeping a try solves the rest of its game: that runs away from the widget's lock, so
    the verdict, the next click and every read of the widget go on meanwhile, and the tries
    reach the log in the order they were made."""
    puzzle = next(p for p in quick() if ends_not_at_once(p, wrong_move(p)) and ends_not_at_once(p, str(p.solution[0])))
    release, solving = threading.Event(), threading.Event()
    real_solve = solve

    def held_solve(board: Board, *args: Any, **kwargs: Any) -> Any:
        solving.set()
        if not release.wait(30):
            raise TimeoutError("the test never let the solve go on")
        return real_solve(board, *args, **kwargs)

    monkeypatch.setattr(puzzling, "solve", held_solve)
    log = GameLog(tmp_path / "class.sqlite")
    w, _ = widget(puzzle=puzzle, learner="Ann", log=log)
    wrong, answer = wrong_move(puzzle), str(puzzle.solution[0])

    def learner() -> None:
        click(w, wrong)
        assert solving.wait(10)
        w.retry_puzzle()  # from Python: perfect defence may be replying to the wrong move now
        click(w, answer)

    clicks = threading.Thread(target=learner, daemon=True)
    clicks.start()
    clicks.join(10)
    assert not clicks.is_alive(), "a click waited for the try to be kept"
    assert w.puzzle_state["verdict_kind"] == "right" and w.puzzle_score == (0, 1)
    assert w.board.move_stack[:1] == [w.board.parse_move(answer)]  # read under the lock, not blocked
    assert not w.wait(0.2) and puzzle_tries(log).rows == []  # the first try's game is still being made
    release.set()
    assert w.wait(60)
    assert [row[2:4] for row in puzzle_tries(log, "Ann")] == [(wrong, "no"), (answer, "yes")]


def test_a_backlog_is_taken_in_order_by_one_worker_that_outlives_failures(caplog: pytest.LogCaptureFixture) -> None:
    workers = Workers(contextlib.nullcontext, lambda: None, lambda callback, error: None, logging.getLogger("test"))
    backlog: Backlog[int] = Backlog()
    assert [backlog.add(item) for item in (1, 2, 3, 4)] == [True, False, False, False]  # one worker to start
    handled: list[int] = []
    reported: list[int] = []

    def handle(item: int) -> None:
        if item == 2:
            raise ValueError("two")
        handled.append(item)

    def failed(item: int, error: Exception) -> None:
        reported.append(item)
        raise RuntimeError("the report fails too")

    workers.drain("test", backlog, handle, failed)
    assert workers.wait(backlog.busy, 10)
    assert handled == [1, 3, 4] and reported == [2] and not backlog.waiting
    assert "could not report a failure of the test worker" in caplog.text
    assert backlog.add(5)  # the worker ended with the backlog: the next item starts one again


def test_a_try_the_log_cannot_keep_is_said_in_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite"
    GameLog(path).add_many([])
    puzzle = quick()[0]
    w, _ = widget(puzzle=puzzle, learner="Ann", log=GameLog(path, readonly=True))
    click(w, str(puzzle.solution[0]))
    assert w.wait(60)
    assert w.puzzle_state["verdict_kind"] == "right" and w.notice_kind == "error"
    assert w.notice.startswith(f"The try at {puzzle.name} could not be kept in the log: ")
    assert "opened with readonly=True" in w.notice and len(GameLog(path)) == 0


# -- the editor --------------------------------------------------------------------------------


def test_edit_a_position_by_clicks_and_play_from_it() -> None:
    w, _ = widget()
    intent(w, "edit")
    assert w.editing and w.legal == {} and w.status.startswith("Editing")
    intent(w, "edit_clear")
    assert w.discs == "-" * 64
    for square, clicks in (("d4", 1), ("e4", 2), ("d5", 2), ("e5", 1), ("c3", 1), ("f6", 2)):
        for _ in range(clicks):
            intent(w, "edit_square", square=square)
    intent(w, "edit_turn", color="white")
    assert w.turn == "white" and w.position.endswith(" O")
    expected = w.position
    intent(w, "edit_done")
    assert not w.editing and w.board.to_string() == expected and w.notice == "Position set up: White to move"
    assert w.board.turn == WHITE and w.legal
    assert analyse(w.board, depth=2).position == w.board.to_string()  # straight into an analysis
    move = sorted(w.legal)[0]
    click(w, move)
    assert w.moves == [move]


def test_a_master_position_set_up_square_by_square_is_the_puzzle_again() -> None:
    """The editor's result is a real position: ``w.board``, ``load()`` of the copied string,
    ``pose`` and ``analyse`` all see it."""
    puzzle = quick()[2]
    w, _ = widget()
    w.edit()
    w.edit_clear()
    squares = puzzle.position.split()[0]
    for index, disc in enumerate(squares):
        for _ in range({"X": 1, "O": 2}.get(disc, 0)):
            intent(w, "edit_square", square=square_name(index))
    w.edit_turn("black" if puzzle.turn == BLACK else "white")
    assert w.position == puzzle.position  # what Copy position copies
    w.edit_done()
    assert w.board.to_string() == puzzle.position and not w.editing
    again = pose(w.board, name=puzzle.name)
    assert again.solution == puzzle.solution and again.results == puzzle.results and again.task == puzzle.task
    assert {str(e.move) for e in analyse(w.board).moves} == {str(m) for m in puzzle.moves}
    other, _ = widget()
    other.load(w.position)
    assert other.board == w.board


@pytest.mark.parametrize(
    ("steps", "reason"),
    [
        (
            [("edit_clear", {})],
            "the centre squares must hold discs, every game starts with them (R5); empty: d4, e4, d5, e5",
        ),
        (
            [("edit_square", {"square": "a1"})],
            "a1 is cut off from the centre, but every disc is placed next to another (R12)",
        ),
        (
            [("edit_square", {"square": sq}) for sq in ("e4", "d3", "f3", "f5")],
            "Black has no legal move here and White has one: choose White to move (R18)",
        ),
    ],
)
def test_a_position_the_rules_refuse_keeps_the_editor_open(
    steps: list[tuple[str, dict[str, object]]], reason: str
) -> None:
    w, sent = widget()
    intent(w, "edit")
    for kind, fields in steps:
        intent(w, kind, **fields)
    editing = snapshot(w)
    intent(w, "edit_done")
    assert sent.custom()[-1]["reason"] == f"Refused: {reason}"
    assert w.editing and {k: v for k, v in snapshot(w).items() if k != "notice_id"} == {
        k: v for k, v in editing.items() if k != "notice_id"
    }
    with pytest.raises(InvalidPositionError, match=reason[:30].replace("(", r"\(")):
        w.edit_done()
    intent(w, "edit_cancel")
    assert not w.editing and w.board == Board()


def test_while_editing_the_game_waits_and_other_intents_are_refused() -> None:
    w, sent = widget(black="greedy")
    assert w.wait(10)
    ply = w.ply
    w.edit()
    click(w, "a1")
    assert sent.custom()[-1]["reason"] == "Refused: finish editing first (Done or Cancel)"
    intent(w, "edit_turn", color="purple")
    assert sent.custom()[-1]["reason"] == "Refused: the side to move is black or white, got 'purple'"
    with pytest.raises(ReversiError, match="finish editing first"):
        w.play("d3")
    w.edit_start()
    w.edit_done()
    assert w.wait(10) and w.ply == 1 and ply == 1  # a new game from the start: greedy moves again
    intent(w, "edit_square", square="a1")
    assert sent.custom()[-1]["reason"] == "Refused: edit_square works only while editing the position"


def test_the_editor_follows_the_rules_size_and_refuses_editing_in_puzzle_mode() -> None:
    editor = Editor(Board(rules=Rules(size=6)))
    editor.clear()
    editor.start()
    assert editor.position() == Board(rules=Rules(size=6)).to_string()
    w, sent = widget(puzzle=quick()[:1])
    intent(w, "edit")
    assert sent.custom()[-1]["reason"] == "Refused: leave puzzle mode before editing the position"
    w.stop_puzzles()
    w.edit()
    assert w.editing


def test_practice_and_explanations_work_inside_a_puzzle() -> None:
    puzzle = quick()[0]
    w, _ = widget(puzzle=puzzle, practice=True)
    occupied = next(sq for sq in ("a1", "h8", "a8", "h1", "d4") if puzzle.board().disc_at(sq) is not None)
    click(w, occupied)  # an illegal click is explained as in a game, and judges nothing
    assert w.notice_kind == "explain" and w.notice.startswith(f"{occupied}: the square already holds")
    assert w.puzzle_state["verdict"] == ""
    answer = str(puzzle.solution[0])
    click(w, answer)  # practice: the disc waits for its flips; nothing is judged yet
    assert w.practice_move == answer and w.puzzle_state["verdict"] == ""
    intent(w, "practice_reveal")
    assert w.wait(60)
    assert w.moves[0] == answer and w.puzzle_state["verdict_kind"] == "right" and w.puzzle_score == (1, 1)
