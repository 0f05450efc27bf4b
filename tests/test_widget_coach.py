"""A coached game in the widget model, driven by the messages a view sends: the verdict after
the learner's move while the computer waits, Try again and Go on, refusals that change
nothing, a verdict made stale and stopped, and the summary at the end."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from reversi_widget import Board, Move, native
from reversi_widget.errors import ReversiError
from reversi_widget.play import coach as coach_module
from reversi_widget.play import workers
from reversi_widget.play.coaching import Verdict, verdict
from reversi_widget.search import SearchTimeout, StopSignal
from reversi_widget.squares import BLACK
from tests.support import Capture, Gate, click, send, snapshot, widget


def load_the_compiled_searches() -> None:
    """The searches as they will stay: a verdict made while the compiled core still loads (the
    pure search, without the review's end check) may differ from one made after it."""
    for kernel in native.KERNELS:
        native.wait(kernel)


@pytest.fixture(autouse=True, scope="module")
def compiled_searches() -> None:
    load_the_compiled_searches()


#: Black to move after six plies: some of its moves are marked at depth 2, some are good.
OPENING = "f5d6c3d3c4f4"
DEPTH = 2


def verdicts(transcript: str) -> dict[str, Verdict]:
    """What the coach says of each move of the position, worked out here the same way."""
    board = Board.from_transcript(transcript)
    return {str(m): verdict(board, m, depth=DEPTH, time_limit=None) for m in board.legal_moves}


def coached(gate: Gate, **kwargs: Any) -> tuple[Any, Capture]:
    return widget(board=OPENING, coach=True, white=gate, analysis_depth=DEPTH, animation="off", **kwargs)


def marked_and_good() -> tuple[Verdict, Verdict]:
    found = verdicts(OPENING)
    bad = max(found.values(), key=lambda v: v.loss)
    good = next(v for v in found.values() if not v.mark)
    assert bad.mark
    return bad, good


def test_a_marked_move_waits_for_go_on_before_the_computer_replies() -> None:
    bad, _ = marked_and_good()
    gate = Gate()
    w, capture = coached(gate)
    click(w, bad.move)
    assert w.wait(60)
    state = w.coach_state
    assert state["state"] == "waiting" and state["move"] == bad.move and state["ply"] == 7
    assert state["verdict"] == bad.render("en") and state["mark"] == bad.mark and state["kind"] == "mistake"
    assert state["can_retry"] and state["can_go_on"] and state["summary"] == {}
    assert (state["best"], state["color"]) == (bad.best, "black")
    assert w.status == "Try again, or go on: White waits for your choice"
    assert not gate.started.is_set() and not w.thinking  # the computer waits for the learner
    gate.release.set()
    send(w, {"kind": "coach_go_on", "ply": w.ply})
    assert gate.started.wait(5) and w.wait(10)
    assert w.ply == 8 and [str(m) for m in w.line][6] == bad.move  # the move was kept, and answered
    assert w.coach_state["state"] == "verdict" and w.coach_state["verdict"] == bad.render("en")  # still said
    assert not w.coach_state["can_retry"] and not w.coach_state["can_go_on"]
    assert not [m for m in capture.custom() if m.get("kind") == "refused"]


def test_try_again_takes_the_move_back_and_a_good_move_is_answered_at_once() -> None:
    bad, good = marked_and_good()
    gate = Gate()
    gate.release.set()
    w, _ = coached(gate)
    click(w, bad.move)
    assert w.wait(60) and w.coach_state["state"] == "waiting"
    send(w, {"kind": "coach_retry", "ply": w.ply})
    assert w.ply == 6 and len(w.line) == 6 and w.turn == "black"  # taken back, out of the line
    assert not w.can_redo and w.notice == f"{bad.move} taken back: try another move"
    assert not gate.started.is_set()
    click(w, good.move)
    assert gate.started.wait(60) and w.wait(10)  # no choice asked for a good move
    assert w.ply == 8 and str(w.line[6]) == good.move
    assert w.coach_state["verdict"] == good.render("en") and w.coach_state["kind"] == "good"
    w.language = "uk"
    assert w.coach_state["verdict"] == good.render("uk")


REFUSALS = [
    ({"kind": "coach_retry", "ply": 6}, "Refused: there is no move of yours to try again"),
    ({"kind": "coach_go_on", "ply": 6}, "Refused: no marked move of yours waits for you to go on"),
    ({"kind": "coach_retry"}, "a 'coach_retry' message has exactly the fields kind, ply"),
    ({"kind": "coach_go_on", "ply": 6, "move": "d3"}, "a 'coach_go_on' message has exactly the fields kind, ply"),
    ({"kind": "coach_go_on", "ply": "6"}, "ply must be an integer"),
    ({"kind": "coach_retry", "ply": 5}, "made at ply 5 but the game is at ply 6"),
]


@pytest.mark.parametrize(("message", "says"), REFUSALS)
def test_an_intent_with_nothing_to_do_is_refused_and_changes_nothing(message: dict[str, Any], says: str) -> None:
    w, capture = coached(Gate())
    before = snapshot(w)
    send(w, message)
    assert snapshot(w) == before
    refused = [m["reason"] for m in capture.custom() if m.get("kind") == "refused"]
    assert len(refused) == 1 and says in refused[0], refused
    assert w.notice_kind == "error" and says in w.notice


def test_outside_a_coached_game_the_coach_intents_are_refused_and_python_raises() -> None:
    w, capture = widget(board=OPENING, white=Gate())
    before = snapshot(w)
    send(w, {"kind": "coach_retry", "ply": 6})
    assert capture.custom()[-1]["reason"] == "Refused: coach_retry needs a coached game (coach=True)"
    assert snapshot(w) == before and w.coach_state == {}
    with pytest.raises(ReversiError, match="coached game"):
        w.go_on()
    with pytest.raises(ReversiError, match="no move of yours to try again"):
        coached(Gate())[0].try_again()


def test_a_verdict_made_stale_by_undo_is_stopped_and_go_on_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    release, stops, started = threading.Event(), [], threading.Semaphore(0)

    def slow(before: Board, played: Move, *, stop: StopSignal, **settings: Any) -> Verdict:
        stops.append(stop)
        started.release()
        while not release.wait(0.01):
            if stop.halted:
                raise SearchTimeout
        return verdict(before, played, stop=stop, **settings)

    monkeypatch.setattr(coach_module, "verdict", slow)
    bad, _ = marked_and_good()
    gate = Gate()
    w, capture = coached(gate)
    click(w, bad.move)
    assert w.coach_state["state"] == "judging" and w.busy == "coach"
    assert started.acquire(timeout=30)  # the verdict runs on its worker
    assert w.status == f"The coach is judging {bad.move}; White waits"
    before = snapshot(w)
    send(w, {"kind": "coach_go_on", "ply": w.ply})  # no verdict yet: refused, nothing changes
    assert (
        capture.custom()[-1]["reason"]
        == f"Refused: the coach is still judging {bad.move}; its verdict comes within about a second"
    )
    assert snapshot(w) == before
    send(w, {"kind": "undo", "ply": w.ply})  # the move it judges is gone: the verdict is stale
    assert len(stops) == 1 and stops[0].halted
    assert w.wait(10) and w.busy == "" and w.ply == 6 and w.coach_state["state"] == ""
    send(w, {"kind": "redo", "ply": w.ply})  # back to the move: judged again, from the start
    assert started.acquire(timeout=30)
    assert len(stops) == 2 and not stops[1].halted and w.coach_state["state"] == "judging"
    release.set()
    assert w.wait(60) and w.coach_state["state"] == "waiting" and not gate.started.is_set()


def test_the_summary_counts_the_game_and_its_worst_moves_replay() -> None:
    w, _ = widget(coach=True, white="greedy", analysis_depth=1, animation="off", move_delay=0)
    taken_back = 0
    said: dict[int, tuple[str, str]] = {}  # each kept move of the learner: its mark and verdict, as shown

    def keep() -> None:
        state = w.coach_state
        said[state["ply"]] = (state["mark"], state["verdict"])

    while not w.game_over:
        moves = sorted(w.legal)
        click(w, moves[len(moves) // 2])
        assert w.wait(60)
        if w.coach_state["state"] == "waiting" and taken_back < 2:
            send(w, {"kind": "coach_retry", "ply": w.ply})
            taken_back += 1
            click(w, moves[0])
            assert w.wait(60)
        if w.coach_state["state"] == "waiting":
            keep()
            send(w, {"kind": "coach_go_on", "ply": w.ply})
            assert w.wait(60)
        elif w.coach_state.get("move") is not None and w.coach_state["ply"] not in said:
            keep()  # a good move, answered at once (a single legal move is not judged)
    summary = w.coach_state["summary"]
    board, line, kept, choices = Board(), w.line, 0, []
    for ply, move in enumerate(line, 1):
        if board.turn == BLACK and move:
            kept += 1
            if len(list(board.legal_moves)) > 1:
                choices.append(ply)  # the learner's moves with a choice: each was judged
        board.push(move)
    assert sorted(said) == choices
    marked = [ply for ply, (mark, _) in said.items() if mark]
    assert (summary["kept"], summary["judged"], summary["mistakes"]) == (kept, len(choices), len(marked))
    assert summary["taken_back"] == taken_back and summary["text"].startswith(f"You kept {kept} move")
    worst = summary["worst"]
    assert len(worst) == min(3, len(marked)) and {e["ply"] for e in worst} <= set(marked)
    assert [(e["to"], e["note"]) for e in worst] == [(e["ply"] - 1, said[e["ply"]][1]) for e in worst]
    losses = {ply: w._coach.verdicts[w._coach.key(ply)].loss for ply in marked}  # the coach's own record
    shown = [losses[e["ply"]] for e in worst]
    assert shown == sorted(shown, reverse=True) and all(
        loss <= shown[-1] for loss in losses.values() if loss not in shown
    )
    first = worst[0]
    send(w, {"kind": "jump", "to": first["to"], "ply": w.ply})  # replay it: the position before the move
    assert w.ply == first["to"] and w.turn == "black" and w.coach_state["summary"] == summary
    other = next(m for m in sorted(w.legal) if m != str(line[first["to"]]))
    click(w, other)  # a new move there: the game goes on from it, coached
    assert w.wait(60) and w.coach_state["move"] == other and w.coach_state["summary"] == {}


def test_without_threads_the_verdict_runs_in_slices_and_the_computer_still_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad, _ = marked_and_good()
    monkeypatch.setattr(workers, "THREADS", False)  # as in Pyodide: no thread may start
    monkeypatch.setattr(native, "_warm_up", native._WarmUp())

    def refuse(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    gate = Gate()
    gate.release.set()
    w, _ = coached(gate)
    click(w, bad.move)
    assert w.coach_state["state"] == "judging"
    assert w.wait(60) and w.coach_state["state"] == "waiting" and gate.calls == 0
    send(w, {"kind": "coach_go_on", "ply": w.ply})
    assert w.wait(60) and gate.calls == 1 and w.ply == 8


def test_the_coach_switched_off_lets_the_waiting_computer_reply_and_a_view_cannot_switch_it() -> None:
    bad, _ = marked_and_good()
    gate = Gate()
    gate.release.set()
    w, _ = coached(gate)
    click(w, bad.move)
    assert w.wait(60) and w.coach_state["state"] == "waiting" and not gate.started.is_set()
    w.coach = False
    assert gate.started.wait(10) and w.wait(10) and w.ply == 8 and w.coach_state == {}
    w.set_state({"coach": True})  # only Python sets it
    assert w.coach is False and "coach" in w.notice and w.notice_kind == "error"
