"""Computer players in the widget: replies in worker threads, stale moves never played,
pausing, failures, and the on_move/on_game_over callbacks."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from reversi_widget import Board, Move
from reversi_widget.play.checks import ANIMATION_STEP
from reversi_widget.players import (
    GreedyPlayer,
    RandomPlayer,
)
from reversi_widget.widget import (
    ReversiWidget,
)
from tests.support import (
    PASS_LINE,
    Gate,
    click,
    join_workers,
    send,
    snapshot,
    widget,
)

# -- computer players -------------------------------------------------------------------------


def test_a_computer_reply_arrives() -> None:
    w, sent = widget(white="greedy")
    assert w.players == {"black": "Human", "white": "Computer (greedy)"}
    click(w, "d3")
    assert w.wait(5)
    assert w.ply == 2 and w.turn == "black" and not w.thinking
    assert w.moves[0] == "d3" and w.moves[1] in {"c3", "e3", "c5"}
    assert sent.updates()["moves"] == w.moves
    # Undo against the computer goes back to the human's last turn.
    w.undo()
    assert w.ply == 0 and w.can_redo and w.turn == "black"
    w.redo()
    assert w.ply == 2 and w.turn == "black"


def test_a_computer_playing_black_moves_first() -> None:
    w, _ = widget(black="random")
    assert w.wait(5)
    assert w.ply == 1 and w.turn == "white"
    assert not w.can_undo  # the human has had no turn to go back to


STALE_MAKERS = ["undo", "new_game", "jump", "load", "play", "switch player"]


def make_stale(w: ReversiWidget, action: str) -> None:
    """After Black's d3, with White thinking: move the game on so White's move is stale."""
    if action == "undo":
        send(w, {"kind": "undo", "ply": 1})
    elif action == "new_game":
        send(w, {"kind": "new_game", "ply": 1})
    elif action == "jump":
        send(w, {"kind": "jump", "to": 0, "ply": 1})
    elif action == "load":
        w.load("f5d6")
    elif action == "play":
        w.play("c5")  # Python plays White's move itself
    else:
        w.white = "human"


class StoppableGate(Gate):
    """A gate with ``stop()``, as ``Engine`` has: stopping lets it answer at once."""

    def __init__(self) -> None:
        super().__init__()
        self.stopped = threading.Event()

    def stop(self) -> None:
        self.stopped.set()
        self.release.set()


@pytest.mark.parametrize("stoppable", [False, True], ids=["player", "player with stop"])
@pytest.mark.parametrize("action", STALE_MAKERS)
def test_a_stale_computer_move_is_never_applied(action: str, stoppable: bool) -> None:
    gate = StoppableGate() if stoppable else Gate()
    w, _ = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5) and w.thinking
    make_stale(w, action)
    assert not w.thinking
    if isinstance(gate, StoppableGate):
        assert gate.stopped.is_set()  # told to stop at once, by the action itself
    before = snapshot(w)
    gate.release.set()
    join_workers(w)
    assert snapshot(w) == before
    assert w.wait(1)


def test_a_move_gone_stale_before_the_computer_took_it_up_is_never_asked_for() -> None:
    gate = Gate()  # no stop(): its first, stale choose() runs to its end
    w, _ = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5)
    send(w, {"kind": "undo", "ply": 1})
    click(w, "d3")  # a second worker now waits for the first choose() to end
    assert w.thinking
    send(w, {"kind": "undo", "ply": 1})  # ...and goes stale while it waits
    gate.release.set()
    join_workers(w)
    assert gate.calls == 1 and w.ply == 0 and not w.thinking


def test_a_failing_stop_is_logged_and_changes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    class BadStop(Gate):
        def stop(self) -> None:
            raise RuntimeError("cannot stop")

    gate = BadStop()
    w, _ = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5)
    send(w, {"kind": "undo", "ply": 1})
    assert w.ply == 0 and not w.thinking
    assert "cannot stop" in caplog.text
    gate.release.set()
    join_workers(w)
    assert w.ply == 0


def test_computer_against_computer_runs_by_itself_and_pauses() -> None:
    w, _ = widget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2), paused=True)
    assert w.ply == 0 and not w.thinking and "paused" in w.status
    w.resume()
    assert w.wait(10)
    assert w.game_over and w.result
    assert len(w.moves) >= 58
    # Both are computers: undo steps back one move and the game waits in the middle of the line.
    w.undo()
    assert w.ply == len(w.moves) - 1 and not w.thinking
    w.redo()
    assert w.game_over


def test_pausing_a_computer_that_is_thinking_stops_it_at_once() -> None:
    """A paused demo says it is paused, never that someone is thinking (01-play's demo)."""
    gate = Gate()
    w, _ = widget(black=gate, white="random")
    assert gate.started.wait(5) and w.thinking and "is thinking" in w.status
    w.pause()
    assert w.paused and not w.thinking
    assert w.status == "Black (gate) to move, paused"
    gate.release.set()  # the answer to the dropped question comes late: it is not played
    join_workers(w)
    assert w.ply == 0 and w.status == "Black (gate) to move, paused"
    w.resume()
    assert w.wait(10) and w.game_over and gate.calls > 1


def test_a_failing_computer_pauses_the_game_with_a_notice() -> None:
    class Broken:
        name = "broken"

        def choose(self, board: Board) -> Move:
            raise RuntimeError("out of ideas")

    class Cheater:
        name = "cheater"

        def choose(self, board: Board) -> Move:
            return Move.from_name("a1")

    for player, words in ((Broken(), "out of ideas"), (Cheater(), "a1 is illegal")):
        w, _ = widget(white=player)
        click(w, "d3")
        assert w.wait(5)
        assert w.paused and w.notice_kind == "error" and words in w.notice
        assert w.ply == 1 and w.turn == "white"
    w.white = "greedy"  # a working player takes over after resume
    w.resume()
    assert w.wait(5) and w.ply == 2


def test_switching_a_side_to_a_computer_makes_it_move() -> None:
    w, _ = widget()
    click(w, "d3")
    w.white = "random"
    assert w.wait(5) and w.ply == 2
    assert w.players["white"] == "Computer (random)"


def test_move_delay_spaces_computer_moves() -> None:

    w, _ = widget(white="greedy", move_delay=0.3)
    start = time.monotonic()
    click(w, "d3")
    assert w.thinking
    assert w.wait(5)
    assert time.monotonic() - start >= 0.29 and w.ply == 2


# -- callbacks --------------------------------------------------------------------------------


def test_callbacks_see_every_move_including_passes_and_can_be_removed() -> None:
    w, _ = widget(board=PASS_LINE)
    seen: list[str] = []
    remove = w.on_move(lambda widget, move: seen.append(str(move)))
    click(w, "f2")
    assert seen == ["f2", "pass"]
    remove()
    remove()  # removing twice is harmless
    w.undo()
    click(w, "f2")
    assert seen == ["f2", "pass"]


def test_a_failing_callback_becomes_a_notice_and_the_game_goes_on() -> None:
    w, _ = widget()

    def bad(widget: ReversiWidget, move: Move) -> None:
        raise ValueError("callback bug")

    w.on_move(bad)
    click(w, "d3")
    assert w.ply == 1 and "on_move callback raised" in w.notice and "callback bug" in w.notice
    with pytest.raises(TypeError):
        w.on_move("not callable")  # type: ignore[arg-type]


#: Black to move; after d2 White (GreedyPlayer(seed=1)) plays 8 moves and Black must pass 7 times between them.
PASS_RUN = "OOOOOOOO-O--OOOOOXOOOOOO-XOOOOOO-XOOOOOOOXOOXXOO-X--X-X--X-XXXXX X"


def test_a_run_of_forced_passes_is_said_with_its_count_and_each_move_is_drawn_before_the_next() -> None:
    """After d2 the computer plays 8 moves while Black passes 7 times: the notice says so, with
    White's moves, until Black acts; and each of White's moves after a pass waits until the
    views have flipped the discs of the one before (a step of the animation a disc)."""
    w = ReversiWidget(Board(PASS_RUN), white=GreedyPlayer(seed=1), animation="fast")
    seen: list[tuple[float, str]] = []
    push = w._session.push

    def timed_push(move: Move) -> None:  # when each move reaches the game, under the widget's lock
        seen.append((time.monotonic(), str(move)))
        push(move)

    w._session.push = timed_push  # type: ignore[method-assign]
    w.play("d2")
    assert w.wait(60)
    assert w.turn == "black" and not w.game_over and w.legal
    moves = [move for _, move in seen]
    assert moves[0] == "d2" and moves.count("pass") == 7
    white = [move for move in moves[1:] if move != "pass"]
    assert len(white) == 8
    assert w.notice_kind == "pass"
    assert w.notice == f"Black had no legal move and passed 7 times in a row; White played {', '.join(white)}"
    replay = Board(PASS_RUN)
    step = ANIMATION_STEP["fast"]
    for (before, move), (after, following) in itertools.pairwise([s for s in seen if s[1] != "pass"]):
        flips = len(replay.flips(replay.parse_move(move)))
        replay.push(move)
        while replay.must_pass():
            replay.push_pass()
        if move != "d2":  # a White move, then Black's pass: the next one waits for its picture
            assert after - before >= step * (1 + flips), (move, following, after - before)
    w.language = "pl"
    assert w.notice.startswith("Czarne nie miały dozwolonego ruchu i spasowały 7 razy z rzędu; Białe zagrały ")
    w.language = "en"
    w.play(next(iter(w.board.legal_moves)))  # Black acts: the notice has said its piece
    assert w.notice_kind != "pass" or "7 times" not in w.notice


def test_an_engine_on_a_game_clock_plays_in_the_widget_and_gets_its_time_back_in_a_new_game() -> None:
    from reversi_widget.engine import Engine

    engine = Engine("expert", clock=3.0, book=False)
    w, _ = widget(white=engine)
    assert engine.clock is not None
    for _ in range(4):
        click(w, str(next(iter(w.board.legal_moves))))
        assert w.wait(30)
    assert w.ply == 8 and engine.last_search is not None
    after_four = engine.clock.left
    assert 0 < after_four < engine.clock.total  # four moves took time, and never all of it
    w.new_game()
    click(w, "d3")
    assert w.wait(30) and w.ply == 2
    assert after_four < engine.clock.left < engine.clock.total  # one move spent of a new clock
