"""ReversiWidget without a browser or kernel: the front end is simulated by calling the
message handlers directly, and what Python sends is captured from the widget's comm."""

from __future__ import annotations

import copy
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import pytest
import traitlets

from reversi_widget import BLACK, Board, IllegalMoveError, InvalidMoveError, InvalidPositionError, Move, Rules
from reversi_widget.game import Game
from reversi_widget.players import (
    PLAYERS,
    GreedyPlayer,
    Player,
    RandomPlayer,
    UnknownPlayerError,
    make_player,
    register_player,
)
from reversi_widget.widget import (
    ASSETS,
    INTENTS,
    SETTINGS,
    InvalidAnnotationError,
    NavigationError,
    ReversiWidget,
)

NOTICE_TRAITS = ("notice", "notice_kind", "notice_id")
# A game (seeded random moves) whose last move, f2, leaves the opponent without a move.
PASS_LINE = (
    "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3a7g5g8c2h4g3a2h3c1d1d2e1f1f7a6h6e2b8g7c8h5g6h2h7h8g1b2"
)
# Neither side can move: a1 and h8 are empty, every line from them is black to the edge.
# 33 black, 29 white, 2 empty (the example of rule R23).
_ROWS = [
    "-XXXXXXX",
    "XXOOOOOX",
    "XOXOOOOX",
    "XOXXOOOX",
    "XOOOXOOX",
    "XOOOOXOX",
    "XOOOOOXX",
    "XXXXXXX-",
]
END_33_29 = "".join(_ROWS) + " X"
FULL_DRAW = "XO" * 32 + " X"
# Black plays c1 and White is wiped out: 3-0 with 61 empty squares.
WIPE_OUT = "XO" + "-" * 62 + " X"


class Capture:
    """Stands in for the front end's end of the comm: records every message Python sends."""

    def __init__(self, widget: ReversiWidget) -> None:
        self.messages: list[dict[str, Any]] = []
        widget.comm.send = self._send

    def _send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.messages.append(copy.deepcopy(data))

    def custom(self) -> list[dict[str, Any]]:
        return [m["content"] for m in self.messages if m.get("method") == "custom"]

    def updates(self) -> dict[str, Any]:
        """The latest value of every trait sent in state updates."""
        state: dict[str, Any] = {}
        for m in self.messages:
            if m.get("method") == "update":
                state.update(m["state"])
        return state

    def clear(self) -> None:
        self.messages.clear()


def widget(**kwargs: Any) -> tuple[ReversiWidget, Capture]:
    w = ReversiWidget(**kwargs)
    return w, Capture(w)


def send(w: ReversiWidget, content: Any, buffers: list[bytes] | None = None) -> None:
    """What a view's model.send(content) becomes on the Python side."""
    w._handle_custom_msg(content, buffers or [])


def snapshot(w: ReversiWidget) -> dict[str, Any]:
    """The whole game as Python and the front end see it, notices aside."""
    state = {k: v for k, v in copy.deepcopy(w.get_state()).items() if k not in NOTICE_TRAITS}
    state["_board"] = w.board.to_string()
    state["_stack"] = [str(m) for m in w.board.move_stack]
    state["_line"] = [str(m) for m in w.line]
    return state


def click(w: ReversiWidget, square: str) -> None:
    send(w, {"kind": "move", "square": square, "ply": w.ply})


def join_workers(w: ReversiWidget) -> None:
    for worker in list(w._workers.threads):
        worker.join(5)
        assert not worker.is_alive()


class Gate:
    """A computer player that waits for the test to let it answer."""

    name = "gate"

    def __init__(self, answer: str | None = None) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.answer = answer
        self.calls = 0

    def choose(self, board: Board) -> Move:
        self.calls += 1
        self.started.set()
        assert self.release.wait(5)
        if self.answer is not None:
            return Move.from_name(self.answer, board.size)
        return next(iter(board.legal_moves))


# -- refusals ---------------------------------------------------------------------------------

BAD_MESSAGES: list[tuple[str, Any, list[bytes], str]] = [
    ("list", ["move", "d3"], [], "must be an object"),
    ("string", "d3", [], "must be an object"),
    ("null", None, [], "must be an object"),
    ("number", 42, [], "must be an object"),
    ("buffers", {"kind": "undo", "ply": 0}, [b"x"], "no binary buffers"),
    ("unknown kind", {"kind": "resign", "ply": 0}, [], "unknown kind 'resign'"),
    ("kind missing", {"square": "d3", "ply": 0}, [], "unknown kind None"),
    ("kind not a string", {"kind": 1, "ply": 0}, [], "unknown kind 1"),
    ("field missing", {"kind": "move", "ply": 0}, [], "exactly the fields kind, square, ply"),
    ("ply missing", {"kind": "move", "square": "d3"}, [], "exactly the fields"),
    ("extra field", {"kind": "move", "square": "d3", "ply": 0, "by": "me"}, [], "exactly the fields"),
    ("extra field on undo", {"kind": "undo", "ply": 0, "square": "d3"}, [], "exactly the fields kind, ply"),
    ("ply as string", {"kind": "move", "square": "d3", "ply": "0"}, [], "ply must be an integer"),
    ("ply as float", {"kind": "move", "square": "d3", "ply": 0.0}, [], "ply must be an integer"),
    ("ply as bool", {"kind": "move", "square": "d3", "ply": False}, [], "ply must be an integer, got False"),
    ("square as int", {"kind": "move", "square": 19, "ply": 0}, [], "square must be a string"),
    ("square as list", {"kind": "move", "square": ["d3"], "ply": 0}, [], "square must be a string"),
    ("jump to as bool", {"kind": "jump", "to": True, "ply": 0}, [], "to must be an integer, got True"),
    ("jump to as string", {"kind": "jump", "to": "1", "ply": 0}, [], "to must be an integer"),
    ("square off the board", {"kind": "move", "square": "i1", "ply": 0}, [], "'i1' is not a square of this 8x8 board"),
    ("row off the board", {"kind": "move", "square": "a9", "ply": 0}, [], "(a1 to h8)"),
    ("not a square", {"kind": "move", "square": "z9", "ply": 0}, [], "'z9' is not a square of"),
    ("empty square name", {"kind": "move", "square": "", "ply": 0}, [], "'' is not a square of"),
    ("upper case", {"kind": "move", "square": "D3", "ply": 0}, [], "expected d3"),
    ("padded", {"kind": "move", "square": " d3", "ply": 0}, [], "expected d3"),
    (
        "illegal square",
        {"kind": "move", "square": "a1", "ply": 0},
        [],
        "a1: no white disc is flanked in any direction.",
    ),
    ("occupied square", {"kind": "move", "square": "d4", "ply": 0}, [], "d4: the square already holds a white disc."),
    ("stale ply", {"kind": "move", "square": "d3", "ply": 1}, [], "made at ply 1 but the game is at ply 0"),
    ("negative ply", {"kind": "undo", "ply": -1}, [], "made at ply -1"),
    (
        "pass with moves",
        {"kind": "pass", "ply": 0},
        [],
        "Black may not pass: there are 4 legal moves (d3, c4, f5, e6).",
    ),
    ("nothing to undo", {"kind": "undo", "ply": 0}, [], "no move to undo"),
    ("nothing to redo", {"kind": "redo", "ply": 0}, [], "no move to redo"),
    ("jump past the line", {"kind": "jump", "to": 3, "ply": 0}, [], "outside the line of 0 moves"),
    ("jump before the start", {"kind": "jump", "to": -1, "ply": 0}, [], "outside the line"),
    ("huge square", {"kind": "move", "square": "d3" * 100_000, "ply": 0}, [], "too big"),
    ("huge kind", {"kind": "x" * 1_000_000, "ply": 0}, [], "too big"),
    ("huge nested", {"kind": "move", "square": "d3", "ply": 0, "x": [[0] * 1000] * 1000}, [], "too big"),
    ("many fields", {f"k{i}": i for i in range(10_000)}, [], "too big"),
]


@pytest.mark.parametrize(
    ("content", "buffers", "reason"), [b[1:] for b in BAD_MESSAGES], ids=[b[0] for b in BAD_MESSAGES]
)
def test_bad_message_is_refused_and_changes_nothing(content: Any, buffers: list[bytes], reason: str) -> None:
    w, sent = widget()
    before, notice_id = snapshot(w), w.notice_id
    send(w, content, buffers)
    assert snapshot(w) == before
    # a move the rules forbid is explained (one sentence of explain()); anything else is an error
    assert w.notice_kind == ("explain" if reason.endswith(".") else "error")
    assert w.notice_id == notice_id + 1
    assert reason in w.notice
    assert len(w.notice) < 400  # a huge input is never echoed back whole
    assert sent.custom() == [{"kind": "refused", "reason": w.notice}]
    assert set(sent.updates()) <= set(NOTICE_TRAITS)


def test_the_same_refusal_twice_is_news_twice() -> None:
    w, _ = widget()
    click(w, "a1")
    first_id, first_text = w.notice_id, w.notice
    click(w, "a1")
    assert (w.notice, w.notice_id) == (first_text, first_id + 1)


def test_refusals_out_of_turn_and_while_thinking() -> None:
    gate = Gate()
    w, sent = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5)
    assert w.thinking and w.legal == {}
    before = snapshot(w)
    send(w, {"kind": "move", "square": "c3", "ply": 1})
    assert "is thinking" in w.notice and w.notice_kind == "error"
    assert snapshot(w) == before
    w.pause()  # still thinking about this move: pausing stops only the next one
    gate.release.set()
    assert w.wait(5)
    assert w.ply == 2 and w.turn == "black"
    # Back to White's turn with White paused: a click is out of turn, not "thinking".
    w.undo()  # to Black's last turn (ply 0), the line keeps both moves
    w.jump(1)
    assert w.turn == "white" and not w.thinking
    before = snapshot(w)
    send(w, {"kind": "move", "square": "c3", "ply": 1})
    assert "the computer (gate) plays White" in w.notice
    assert snapshot(w) == before
    w.play("c5")  # Python may play for anyone
    w.jump(w.ply)
    assert sent.custom()[-1]["kind"] == "refused"


def test_a_move_after_the_game_is_over_is_refused() -> None:
    w, _ = widget(board=Board(END_33_29))
    before = snapshot(w)
    send(w, {"kind": "move", "square": "a1", "ply": 0})
    assert "the game is over" in w.notice and snapshot(w) == before


def test_nothing_raises_out_of_the_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    w, sent = widget()

    def broken(content: object, buffers: object) -> str | None:
        raise RuntimeError("boom")

    monkeypatch.setattr(w, "_apply_intent", broken)
    before = snapshot(w)
    send(w, {"kind": "move", "square": "d3", "ply": 0})
    assert "could not handle the message" in w.notice and "boom" in w.notice
    assert snapshot(w) == before
    assert sent.custom()[-1]["kind"] == "refused"


# -- accepted intents -------------------------------------------------------------------------


def test_a_legal_click_plays_and_updates_every_trait() -> None:
    w, sent = widget()
    click(w, "a1")  # a notice to be cleared by the next good move
    sent.clear()
    click(w, "d3")
    expected = Board()
    expected.push("d3")
    assert w.board == expected and w.board.move_stack == expected.move_stack
    n = expected.size
    black, white = expected.bitboards()
    discs = "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(n * n))
    legal = {str(m): [f"{'abcdefgh'[s % 8]}{s // 8 + 1}" for s in expected.flips(m)] for m in expected.legal_moves}
    picture = {
        "discs": discs,
        "turn": "white",
        "ply": 1,
        "legal": legal,
        "last_move": "d3",
        "last_flips": ["d4"],
        "counts": {"black": 4, "white": 1},
        "status": "White to move",
        "moves": ["d3"],
        "can_undo": True,
        "can_redo": False,
        "game_over": False,
        "result": "",
        "notice": "",
    }
    assert {k: getattr(w, k) for k in picture} == picture
    assert legal == {"c3": ["d4"], "e3": ["e4"], "c5": ["d5"]}
    # The views got one batched update with the new picture, and nothing was refused.
    updates = [m for m in sent.messages if m.get("method") == "update"]
    assert len(updates) == 1
    assert {k: v for k, v in updates[0]["state"].items() if k in picture} == {
        k: v for k, v in picture.items() if k in updates[0]["state"]
    }
    assert {"discs", "turn", "ply", "legal", "moves"} <= set(updates[0]["state"])
    assert sent.custom() == []


def test_a_forced_pass_is_played_with_a_notice() -> None:
    w, _ = widget(board=PASS_LINE)
    mover = "black" if w.board.turn == BLACK else "white"
    other = "white" if mover == "black" else "black"
    after = w.board
    after.push("f2")
    assert after.must_pass() and not after.is_game_over()  # the premise of this test
    notice_id = w.notice_id
    click(w, "f2")
    assert w.moves[-2:] == ["f2", "pass"] and w.last_move == "pass"
    assert w.turn == mover and w.ply == after.ply + 1
    assert w.notice_kind == "pass" and w.notice_id == notice_id + 1
    assert w.notice == f"{other.title()} has no legal move and passes; {mover.title()} moves again"
    # Undo skips the forced pass: back to the position before f2.
    w.undo()
    assert w.ply == after.ply - 1 and w.turn == mover
    w.redo()
    assert w.ply == after.ply + 1 and w.moves[-1] == "pass"


@pytest.mark.parametrize(
    ("position", "goal", "scoring", "banner"),
    [
        (END_33_29, "classic", "count", "Black wins 33-29"),
        (END_33_29, "classic", "tournament", "Black wins 35-29 (tournament scoring: 2 empty squares to the winner)"),
        (END_33_29, "inverted", "count", "White wins 29-33 (inverted goal: fewer discs win)"),
        (
            END_33_29,
            "inverted",
            "tournament",
            "White wins 29-35 (inverted goal: fewer discs win; tournament scoring: 2 empty squares to the loser)",
        ),
        (FULL_DRAW, "classic", "tournament", "Draw 32-32"),
        (FULL_DRAW, "inverted", "count", "Draw 32-32 (inverted goal: fewer discs win)"),
    ],
)
def test_game_over_banner(position: str, goal: str, scoring: str, banner: str) -> None:
    board = Board(position, rules=Rules(goal=goal, scoring=scoring))
    assert board.is_game_over()
    w, _ = widget(board=board)
    assert w.game_over and w.result == banner
    assert w.turn == "" and w.legal == {}
    assert w.status.startswith("Game over, ") and w.status.endswith(banner)


def test_game_over_by_a_move_fires_callbacks_and_banner() -> None:
    w, _ = widget(board=Board(WIPE_OUT, rules=Rules(scoring="tournament")))
    moves: list[tuple[ReversiWidget, Move]] = []
    outcomes: list[Any] = []
    w.on_move(lambda widget, move: moves.append((widget, move)))
    w.on_game_over(lambda widget, outcome: outcomes.append(outcome))
    click(w, "c1")
    assert moves == [(w, Move.from_name("c1"))]
    assert len(outcomes) == 1 and outcomes[0].winner == BLACK
    assert (outcomes[0].black, outcomes[0].white) == (64, 0)
    assert w.result == "Black wins 64-0 (tournament scoring: 61 empty squares to the winner)"
    assert w.status == f"Game over, one colour has no discs left: {w.result}"


def test_undo_redo_jump_and_new_game_intents() -> None:
    w, _ = widget()
    for square in ("d3", "c5", "e6"):
        click(w, square)
    assert w.moves == ["d3", "c5", "e6"] and w.ply == 3
    send(w, {"kind": "undo", "ply": 3})
    assert w.ply == 2 and w.moves == ["d3", "c5", "e6"] and w.can_redo
    assert w.board == Board.from_transcript("d3c5")
    send(w, {"kind": "redo", "ply": 2})
    assert w.ply == 3 and not w.can_redo
    send(w, {"kind": "jump", "to": 1, "ply": 3})
    assert w.ply == 1 and w.board == Board.from_transcript("d3") and w.last_move == "d3"
    assert w.turn == "white" and "c5" in w.legal
    send(w, {"kind": "jump", "to": 0, "ply": 1})
    assert w.ply == 0 and w.last_move == "" and w.can_redo and not w.can_undo
    send(w, {"kind": "jump", "to": 1, "ply": 0})
    click(w, "e3")  # a new move in the middle of the line replaces the rest
    assert w.moves == ["d3", "e3"] and not w.can_redo
    send(w, {"kind": "new_game", "ply": 2})
    assert w.ply == 0 and w.moves == [] and w.board == Board()


def test_python_api_play_pass_undo_redo_jump() -> None:
    w, _ = widget()
    w.play("f5")
    w.play(Move.from_name("d6"))
    assert w.moves == ["f5", "d6"]
    before = snapshot(w)
    with pytest.raises(IllegalMoveError, match="a1: no white disc is flanked"):
        w.play("a1")
    with pytest.raises(InvalidMoveError, match="'z9' is not a square name"):
        w.play("z9")
    with pytest.raises(IllegalMoveError, match="may not pass"):
        w.pass_turn()
    with pytest.raises(NavigationError, match="jump to 5 is outside the line of 2 moves"):
        w.jump(5)
    with pytest.raises(NavigationError, match="expected a ply from 0 to 2"):
        w.jump(True)
    assert snapshot(w) == before
    w.undo()
    w.undo()
    with pytest.raises(NavigationError, match="no move to undo"):
        w.undo()
    w.redo()
    assert w.ply == 1
    w.jump(2)
    with pytest.raises(NavigationError, match="no move to redo"):
        w.redo()
    assert isinstance(NavigationError("x"), IndexError) and isinstance(NavigationError("x"), ValueError)


def test_board_property_is_a_copy() -> None:
    w, _ = widget()
    b = w.board
    b.push("d3")
    assert w.ply == 0 and w.board == Board()
    w.board = b  # assigning loads it
    assert w.ply == 1 and w.moves == ["d3"]


# -- writes from the front end to synced traits ----------------------------------------------


def test_front_end_writes_to_read_only_traits_are_reverted() -> None:
    w, sent = widget()
    click(w, "d3")
    sent.clear()
    before = snapshot(w)
    bogus = {
        "discs": "X" * 64,
        "ply": 9,
        "legal": {"a1": []},
        "game_over": True,
        "moves": ["a1"],
        "fill": {"a1": "red"},
    }
    w.set_state(bogus)
    assert snapshot(w) == before
    assert w.notice_kind == "error" and "may not change" in w.notice
    for name in bogus:
        assert name in w.notice
    # The writer's view is given Python's values back.
    state = sent.updates()
    for name in bogus:
        assert state[name] == getattr(w, name)


def test_a_read_only_write_through_the_comm_message_is_reverted() -> None:
    w, sent = widget()
    before = snapshot(w)
    w._handle_msg({"content": {"data": {"method": "update", "state": {"turn": "white"}}}, "buffers": []})
    assert snapshot(w) == before and "turn" in w.notice
    assert sent.updates()["turn"] == "black"


def test_front_end_settings_are_accepted_when_valid() -> None:
    w, _ = widget()
    w.set_state({"show_legal": False, "animation": "fast", "theme": "dark", "size": 360, "show_coordinates": False})
    assert (w.show_legal, w.animation, w.theme, w.size, w.show_coordinates) == (False, "fast", "dark", 360, False)
    assert w.notice == ""
    w.set_state({"size": None, "show_flips": False})
    assert w.size is None and not w.show_flips
    assert set(SETTINGS) == {
        "show_legal",
        "show_flips",
        "show_coordinates",
        "show_me",
        "practice",
        "show_scores",
        "animation",
        "theme",
        "size",
    }


@pytest.mark.parametrize(
    "state",
    [{"animation": "warp"}, {"theme": "neon"}, {"show_legal": 1}, {"size": True}, {"size": 5}, {"size": "big"}],
)
def test_front_end_settings_are_refused_when_invalid(state: dict[str, Any]) -> None:
    w, sent = widget()
    before = snapshot(w)
    w.set_state(state)
    assert snapshot(w) == before
    (name,) = state
    assert w.notice_kind == "error" and f"Refused setting {name}" in w.notice
    assert sent.updates()[name] == getattr(w, name)


def test_python_cannot_write_the_picture_traits() -> None:
    w, _ = widget()
    with pytest.raises(traitlets.TraitError, match="written by the widget"):
        w.discs = "X" * 64
    with pytest.raises(traitlets.TraitError, match="written by the widget"):
        w.ply = 3
    assert w.discs == snapshot(ReversiWidget())["discs"] and w.ply == 0


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
    import time

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


# -- loading ----------------------------------------------------------------------------------


def test_load_from_board_transcript_game_and_position() -> None:
    w, _ = widget()
    board = Board.from_transcript("f5d6c3")
    w.load(board)
    assert w.moves == ["f5", "d6", "c3"] and w.ply == 3 and w.board == board
    w.undo()
    assert w.board == Board.from_transcript("f5d6")
    w.load("f5f6e6")
    assert w.moves == ["f5", "f6", "e6"]
    game = Game.from_transcript("c2b2b3", rules=Rules(size=6))
    w.load(game)
    assert w.board_size == 6 and len(w.discs) == 36 and w.moves == ["c2", "b2", "b3"]
    assert w.rules == Rules(size=6)
    w.new_game()
    assert w.board == Board(rules=Rules(size=6))
    w.load(Board().to_string().replace("-", "X", 1))
    assert w.board_size == 8 and w.discs.startswith("X") and w.moves == []


def test_load_refuses_junk_and_changes_nothing() -> None:
    w, _ = widget()
    w.play("d3")
    before = snapshot(w)
    with pytest.raises(InvalidPositionError, match=r"as a transcript .* or as a position"):
        w.load("hello world")
    with pytest.raises(IllegalMoveError, match="transcript move 1"):
        w.load("a1")
    with pytest.raises(InvalidPositionError, match="expected a Board, a Game"):
        w.load(42)  # type: ignore[arg-type]
    assert snapshot(w) == before


def test_load_reads_a_real_ggf_record() -> None:
    from reversi_widget import ggf

    game = Game.from_transcript("f5d6c3d3c4")
    w, _ = widget()
    w.load(ggf.write_ggf(game))
    assert w.moves == ["f5", "d6", "c3", "d3", "c4"] and w.board == game.board()


# -- settings, rules and annotations ----------------------------------------------------------


def test_every_setting_is_a_trait_and_the_assets_exist() -> None:
    w = ReversiWidget(
        show_legal=False, show_flips=False, show_coordinates=False, animation="off", theme="dark", size=300
    )
    assert (w.show_legal, w.show_flips, w.show_coordinates, w.animation, w.theme, w.size) == (
        False,
        False,
        False,
        "off",
        "dark",
        300,
    )
    assert (ASSETS / "widget.js").is_file() and (ASSETS / "widget.css").is_file()
    state = w.get_state()
    assert state["_esm"] == (ASSETS / "widget.js").read_text()
    assert state["_css"] == (ASSETS / "widget.css").read_text()
    assert set(w.strings) >= {"undo", "redo", "new_game", "pass", "black", "white"}
    with pytest.raises(traitlets.TraitError):
        ReversiWidget(animation="warp")
    with pytest.raises(UnknownPlayerError, match="unknown player 'grandmaster'"):
        ReversiWidget(white="grandmaster")


def test_rules_variants() -> None:
    w, _ = widget(rules=Rules(size=6))
    assert w.board_size == 6 and len(w.discs) == 36
    w.rules = Rules(start="free")  # a new game under the new rules
    assert w.board_size == 8 and w.legal == {"d4": [], "e4": [], "d5": [], "e5": []}
    assert w.status == "Black to place a centre disc (free start)"
    w.rules = Rules(supply=32)
    assert w.supply == {"black": 30, "white": 30}
    click(w, "d3")
    assert w.supply == {"black": 29, "white": 30}
    with pytest.raises(InvalidPositionError, match="rules= says"):
        ReversiWidget(Board(), rules=Rules(size=6))


def test_annotations_are_checked_and_cleared_with_a_new_size() -> None:
    w, _ = widget(fill={"d3": "#ff0"}, marks={"c4": 4, "f5": "+2"}, arrows=[("d3", "e4")])
    assert w.fill == {"d3": "#ff0"} and w.marks == {"c4": "4", "f5": "+2"} and w.arrows == [["d3", "e4"]]
    with pytest.raises(InvalidAnnotationError, match="off a 8x8 board"):
        w.fill = {"i9": "red"}
    with pytest.raises(InvalidAnnotationError, match="pair of squares"):
        w.arrows = [["d3"]]
    with pytest.raises(InvalidAnnotationError, match="longer than"):
        w.marks = {"d3": "x" * 50}
    assert w.fill == {"d3": "#ff0"}
    w.new_game(Rules(size=6))
    assert (w.fill, w.marks, w.arrows) == ({}, {}, [])


# -- players ----------------------------------------------------------------------------------


def test_players_registry_and_protocol() -> None:
    assert make_player("human") is None and make_player("Human") is None
    assert isinstance(make_player("random"), RandomPlayer) and isinstance(make_player("greedy"), GreedyPlayer)
    gate = Gate()
    assert make_player(gate) is gate and isinstance(gate, Player)
    with pytest.raises(UnknownPlayerError, match="object with choose"):
        make_player(3)
    register_player("first-legal", lambda: Gate())
    try:
        assert isinstance(make_player("first-legal"), Gate)
    finally:
        del PLAYERS["first-legal"]
    with pytest.raises(UnknownPlayerError):
        register_player("Bad Name", RandomPlayer)


def test_random_player_is_repeatable_and_legal() -> None:
    board = Board()
    picks = [RandomPlayer(seed=7).choose(board) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in board.legal_moves
    seen = {RandomPlayer(seed=s).choose(board) for s in range(40)}
    assert seen == set(board.legal_moves)


def test_greedy_player_takes_most_flips_then_corners() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
    best = max(len(board.flips(m)) for m in board.legal_moves)
    for seed in range(10):
        move = GreedyPlayer(seed=seed).choose(board)
        assert len(board.flips(move)) == best
    # Two moves flipping one disc each, one of them a corner: the corner wins.
    both = Board("-OX-OX--" + "-" * 56 + " X")  # a1 (corner) and d1 each flip one
    assert {str(m): len(both.flips(m)) for m in both.legal_moves} == {"a1": 1, "d1": 1}
    assert {str(GreedyPlayer(seed=s).choose(both)) for s in range(20)} == {"a1"}
    with pytest.raises(IllegalMoveError, match="must pass"):
        GreedyPlayer().choose(Board(END_33_29))


def test_intent_table_matches_the_protocol() -> None:
    text = (Path(__file__).resolve().parent.parent / "js" / "PROTOCOL.md").read_text()
    for kind, fields in INTENTS.items():
        assert f'"kind": "{kind}"' in text
        for field in fields:
            assert f'"{field}":' in text
    for name in [*ReversiWidget.READ_ONLY, "fill", "marks", "arrows", *SETTINGS]:
        assert f"`{name}`" in text


# -- languages ---------------------------------------------------------------------------------

LANGUAGE_WORDS = {
    "en": ("Black to move", "Undo", "Black"),
    "ca": ("Juguen les Negres", "Desfés", "Negres"),
    "pl": ("Czarne mają ruch", "Cofnij", "Czarne"),
    "uk": ("Темні ходять", "Скасувати", "Темні"),
}


@pytest.mark.parametrize("language", sorted(LANGUAGE_WORDS))
def test_every_language_switch_retranslates_everything(language: str) -> None:
    from reversi_widget.i18n import LANGUAGES, strings_for, translate

    status, undo, black = LANGUAGE_WORDS[language]
    assert translate("undo", language) == undo  # the table above is the locale file's
    w, sent = widget(white="greedy")
    click(w, "a1")  # a notice to re-translate
    for other in LANGUAGES:  # from every language to this one
        w.language = other
        notice_id = w.notice_id
        sent.clear()
        w.language = language
        assert w.status == status
        assert w.strings["undo"] == undo and w.strings["black"] == black
        assert w.strings == {key: strings_for(language)[key] for key in w.strings}
        assert w.notice == explain_short(Board(), "a1", language)
        assert w.notice_id == notice_id  # the same notice, said again: not news
        assert w.players["white"] == translate("player_computer", language, name="greedy")
        if other != language:
            assert {"strings", "status", "notice", "language"} <= set(sent.updates())


def explain_short(board: Board, square: str, language: str) -> str:
    from reversi_widget import explain

    return explain(board, square, language=language).short()


def test_result_and_count_labels_follow_the_language() -> None:
    w = ReversiWidget(END_33_29, rules=Rules(scoring="tournament"), language="pl")
    assert w.result == "Wygrywają Czarne 35-29 (punktacja turniejowa: 2 puste pola dla zwycięzcy)" or (
        w.result.startswith("Wygrywają Czarne 35-29")
    )
    assert w.count_labels == {"black": "33 pionki", "white": "29 pionków"}
    w.language = "uk"
    assert w.result.startswith("Перемагають Темні 35-29") or "35-29" in w.result
    assert w.count_labels == {"black": "33 фішки", "white": "29 фішок"}
    w.language = "en"
    assert w.result == "Black wins 35-29 (tournament scoring: 2 empty squares to the winner)"
    assert w.count_labels == {"black": "33 discs", "white": "29 discs"}


@pytest.mark.parametrize(
    ("count", "pl", "uk", "en"),
    [
        (1, "1 pionek", "1 фішка", "1 disc"),
        (2, "2 pionki", "2 фішки", "2 discs"),
        (5, "5 pionków", "5 фішок", "5 discs"),
        (22, "22 pionki", "22 фішки", "22 discs"),
    ],
)
def test_disc_counts_use_each_languages_plural(count: int, pl: str, uk: str, en: str) -> None:
    position = "X" * count + "O" + "-" * (63 - count) + " O"
    for language, expected in (("pl", pl), ("uk", uk), ("en", en)):
        w = ReversiWidget(position, language=language)
        assert w.count_labels["black"] == expected


def test_an_unknown_language_is_refused_clearly_and_changes_nothing() -> None:
    from reversi_widget.widget import UnknownLanguageError

    with pytest.raises(UnknownLanguageError, match="unknown language 'de': expected one of en, ca, pl, uk"):
        ReversiWidget(language="de")
    w = ReversiWidget(language="ca")
    before = snapshot(w)
    for bad in ("PL", "", None, 3):
        with pytest.raises(ValueError, match="unknown language"):
            w.language = bad  # type: ignore[assignment]
    assert w.language == "ca" and snapshot(w) == before
    w.set_state({"language": "pl"})  # the front end may not choose it
    assert w.language == "ca" and "language" in w.notice


def _english_words() -> set[str]:
    """Every ASCII word of three letters or more in the English locale file's texts."""
    import json
    import re

    data = json.loads((Path(__file__).resolve().parent.parent / "reversi_widget/locales/en.json").read_text())
    words: set[str] = set()
    for section in ("widget", "explain"):
        for value in data[section].values():
            for text in value.values() if isinstance(value, dict) else [value]:
                words |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", text))}
    return words


@pytest.mark.parametrize("language", ["pl", "uk"])
def test_illegal_click_notices_carry_no_english(language: str) -> None:
    import re

    english = _english_words()
    assert {"flanked", "disc", "square", "holds"} <= english  # the check would see a leak
    w = ReversiWidget(language=language)
    seen = []
    for square, intent in (("a1", "move"), ("d4", "move"), ("", "pass")):
        content = {"kind": intent, "ply": 0, **({"square": square} if square else {})}
        send(w, content)
        assert w.notice_kind == "explain"
        seen.append(w.notice)
        leaked = {word for word in re.findall(r"[A-Za-z]{3,}", w.notice) if word.lower() in english}
        assert not leaked, (w.notice, leaked)
    assert seen[0] == explain_short(Board(), "a1", language)
    assert len(set(seen)) == 3


@pytest.mark.parametrize("language", ["pl", "uk"])
def test_refusals_and_settings_carry_no_english_words(language: str) -> None:
    import re

    from reversi_widget.widget import ANIMATIONS

    # names and values a user types (protocol fields, JSON literals, setting values) stay as they are
    typed = {"kind", "ply", "square", "move", "true", "false", "null", "pass", "undo", "animation", *ANIMATIONS}
    english = _english_words() - typed
    w = ReversiWidget(language=language)
    for content in (
        {"kind": "move", "square": "i1", "ply": 0},
        {"kind": "move", "square": "D3", "ply": 0},
        {"kind": "move", "square": "d3", "ply": "0"},
        {"kind": "move", "square": "d3" * 300, "ply": 0},
        {"kind": "practice_done", "ply": 0},
    ):
        send(w, content)
        words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\w+_\w+", "", w.notice))  # protocol names aside
        leaked = {word for word in words if word.lower() in english}
        assert not leaked, (w.notice, leaked)
    for setting in ({"show_me": "yes"}, {"animation": "warp"}, {"size": 5}):
        w.set_state(setting)
        words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\w+_\w+", "", w.notice))
        leaked = {word for word in words if word.lower() in english}
        assert not leaked, (w.notice, leaked)


def test_an_illegal_click_is_explained_and_changes_nothing() -> None:
    w, sent = widget()
    click(w, "d3")
    before = snapshot(w)
    click(w, "a1")
    assert snapshot(w) == before
    assert (w.notice_kind, w.notice) == ("explain", "a1: no black disc is flanked in any direction.")
    assert sent.custom()[-1] == {"kind": "refused", "reason": w.notice}
    click(w, "d3")
    assert w.notice == "d3: the square already holds a black disc."


# -- show me -------------------------------------------------------------------------------------


def test_show_me_sends_each_flanked_line_of_a_move() -> None:
    # White's d6 flips d5 (north), e5 (north-east) and e6 (east): three lines
    board = Board.from_transcript("f5f6e6f4e3")
    w = ReversiWidget(board, show_me=True)
    assert w.demo == {}
    w.play("d6")
    assert w.demo == {
        "id": 1,
        "ply": 6,
        "move": "d6",
        "color": "white",
        "lines": [["d5", "d4"], ["e5", "f4"], ["e6", "f6"]],
    }
    flipped = {square for line in w.demo["lines"] for square in line[:-1]}
    assert flipped == set(w.last_flips)
    # the engine's explanation agrees: each line closes on a white disc
    assert all(w.board.disc_at(line[-1]) is False for line in w.demo["lines"])


def test_show_me_for_human_and_computer_moves_and_cleared_on_navigation() -> None:
    w, _ = widget(show_me=True, white="greedy", animation="off")
    click(w, "d3")
    assert w.wait(5) and w.ply == 2
    assert w.demo["id"] == 2 and w.demo["color"] == "white" and w.demo["ply"] == 2
    assert w.demo["move"] == w.moves[1]
    undo_from = w.demo
    send(w, {"kind": "undo", "ply": 2})
    assert w.demo == {} and undo_from["id"] == 2
    w.show_me = False
    click(w, "d3")
    assert w.wait(5) and w.demo == {}


def test_a_computer_waits_for_the_walk_through_of_the_move_before() -> None:
    import time

    w = ReversiWidget(show_me=True, white="greedy", animation="fast")
    started = time.monotonic()
    w.play("d3")  # 1 line, 1 flip: 0.18 s x (1 + 2 + 1) = 0.72 s
    assert w.wait(5)
    assert time.monotonic() - started >= 0.7 and w.ply == 2


def test_a_forced_pass_keeps_the_walk_through_of_the_move_before() -> None:
    w, _ = widget(board=PASS_LINE, show_me=True)
    click(w, "f2")
    assert w.moves[-2:] == ["f2", "pass"]
    assert w.demo["move"] == "f2" and w.demo["ply"] == w.ply - 1  # views allow the passes after it


# -- the engine's levels, hints, scores, review, pause -----------------------------------------


def test_named_levels_are_engines_with_translated_labels() -> None:
    from reversi_widget.engine import Engine

    for name, level in Engine.LEVELS.items():
        player = make_player(name)
        assert isinstance(player, Engine) and player.level == level
        assert make_player(name) is not player  # each widget side gets its own engine
    for level in range(1, 8):
        player = make_player(f"level-{level}")
        assert isinstance(player, Engine) and player.level == level
    w = ReversiWidget(white="expert", black="level-3", paused=True)
    assert w.players == {"black": "Computer (level 3)", "white": "Computer (expert)"}
    assert w.status == "Black (level 3) to move, paused" and w.can_pause
    w.language = "pl"
    assert w.players == {"black": "Komputer (poziom 3)", "white": "Komputer (ekspert)"}
    w.language = "uk"
    assert w.players["white"] == "Комп'ютер (експерт)"
    w.white = "beginner"
    assert w.players["white"] == "Комп'ютер (початківець)"


def test_a_beginner_replies_to_a_human() -> None:
    w, _ = widget(white="beginner")
    assert w.players["white"] == "Computer (beginner)"
    click(w, "d3")
    assert w.wait(5)
    assert w.ply == 2 and w.turn == "black" and w.moves[1] in {"c3", "e3", "c5"}
    assert w.board.transcript() == "d3" + w.moves[1]


def best_names(board: Board, depth: int) -> tuple[list[str], str]:
    """The best moves of ``analyse(board, depth)`` and the score of the best."""
    from reversi_widget.analysis import analyse

    analysis = analyse(board, depth=depth)
    top = analysis.best.score
    return [str(m.move) for m in analysis.moves if m.score == top], f"{round(top):+d}" if round(top) else "0"


def test_a_hint_intent_rings_the_best_moves_of_the_position() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
    w, sent = widget(board=board, analysis_depth=3)
    assert w.hints == [] and w.busy == ""
    send(w, {"kind": "hint", "ply": 9})
    assert w.wait(5)
    best, score = best_names(board, 3)
    assert w.hints == best and set(best) <= set(w.legal)
    assert w.notice == f"Hint for White: {', '.join(best)} ({score})" and w.notice_kind == "info"
    assert sent.updates()["hints"] == best and w.busy == ""
    assert all(m["kind"] != "refused" for m in sent.custom())
    w.language = "pl"
    assert w.notice.startswith("Podpowiedź (Białe): ")
    # the ring belongs to this position: a move takes it away, undo does not bring it back
    w.play(best[0])
    assert w.hints == []
    w.undo()
    assert w.hints == [] and w.ply == 9
    w.hint()  # from Python too
    assert w.wait(5) and w.hints == best


HINT_REFUSALS = [
    ("game over", {"board": END_33_29}, None, "the game is over; there is no move to hint"),
    ("free start", {"rules": Rules(start="free")}, None, "no hint during the free start"),
    ("stale ply", {}, {"kind": "hint", "ply": 3}, "made at ply 3 but the game is at ply 0"),
    ("ply as string", {}, {"kind": "hint", "ply": "0"}, "ply must be an integer"),
    ("extra field", {}, {"kind": "hint", "ply": 0, "square": "d3"}, "exactly the fields kind, ply"),
]


@pytest.mark.parametrize(
    ("kwargs", "content", "reason"), [r[1:] for r in HINT_REFUSALS], ids=[r[0] for r in HINT_REFUSALS]
)
def test_a_hint_is_refused_when_there_is_nothing_to_hint(
    kwargs: dict[str, Any], content: dict[str, Any] | None, reason: str
) -> None:
    from reversi_widget.widget import AnalysisRefusedError

    w, sent = widget(**kwargs)
    before = snapshot(w)
    send(w, content or {"kind": "hint", "ply": w.ply})
    assert reason in w.notice and w.notice_kind == "error"
    assert snapshot(w) == before and w._workers.threads == set()  # nothing was started
    assert sent.custom()[-1] == {"kind": "refused", "reason": w.notice}
    if content is None:  # the position itself has no hint: Python's hint() says the same
        with pytest.raises(AnalysisRefusedError, match=reason.split(";")[0]):
            w.hint()
        assert snapshot(w) == before


def test_a_hint_is_refused_for_a_computer_a_forced_pass_and_a_waiting_practice_disc() -> None:
    from reversi_widget.widget import AnalysisRefusedError

    gate = Gate()
    w, _ = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5)
    send(w, {"kind": "hint", "ply": 1})
    assert "hints are for a human's turn, and the computer (gate) plays White" in w.notice
    gate.release.set()
    assert w.wait(5)
    w, _ = widget(board=PASS_LINE)
    click(w, "f2")  # the opponent must pass: the widget passed; go back to see that position
    w.jump(w.ply - 1)
    colour = w.turn.capitalize()
    assert w.legal == {} and w.moves[w.ply] == "pass"
    with pytest.raises(AnalysisRefusedError, match=f"{colour} has no legal move; the only move is to pass"):
        w.hint()
    w, _ = widget(practice=True)
    click(w, "d3")
    send(w, {"kind": "hint", "ply": 0})
    assert "first finish the flips of d3" in w.notice and w.hints == []


def score_text(entry: Any) -> str:
    """How the overlay writes one of ``analyse()``'s scores (English)."""
    margin = round(entry.score)
    if entry.exact:
        return f"W+{margin}" if margin > 0 else f"L{margin}" if margin < 0 else "D"
    return f"{margin:+d}" if margin else "0"


# A game near its end: 10 empty squares, White to move, solved exactly by default.
ENDGAME = "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3a7g5g8c2h4g3a2h3c1d1d2e1f1f7a6h6e2b8"


@pytest.mark.parametrize(("transcript", "depth"), [("f5d6c3d3c4f4c5b3c2", 3), (ENDGAME, None)])
def test_show_scores_writes_every_legal_moves_score_from_analyse(transcript: str, depth: int | None) -> None:
    from reversi_widget.analysis import analyse

    board = Board.from_transcript(transcript)
    w, sent = widget(board=board, show_scores=True, analysis_depth=depth)
    assert w.wait(10)
    analysis = analyse(board, depth=depth)
    assert set(w.scores) == set(w.legal) == {str(m) for m in board.legal_moves}
    assert w.scores == {str(e.move): score_text(e) for e in analysis.moves}
    assert next(iter(w.scores)) == str(analysis.best.move)  # best first, for the front end
    assert sent.updates()["scores"] == w.scores
    if depth is None:  # solved: every score a proven result, its margin the solver's
        assert analysis.exact and all(text[0] in "WLD" for text in w.scores.values())
        w.language = "uk"
        assert all(text[0] in "ВПН" for text in w.scores.values())
    # hidden from the front end's toggle, and shown again
    w.set_state({"show_scores": False})
    assert w.scores == {} and not w.show_scores and w.notice == ""
    w.set_state({"show_scores": True})
    assert w.wait(10) and set(w.scores) == set(w.legal)


def test_scores_only_on_a_humans_turn_and_never_for_a_past_position() -> None:
    gate = Gate()
    w, _ = widget(white=gate, show_scores=True, analysis_depth=2)
    assert w.wait(5) and set(w.scores) == {"d3", "c4", "f5", "e6"}
    click(w, "d3")
    assert gate.started.wait(5) and w.scores == {} and w.busy == ""
    gate.release.set()
    assert w.wait(5) and w.ply == 2
    board = w.board
    assert set(w.scores) == {str(m) for m in board.legal_moves}
    w.set_state({"show_scores": "yes"})  # refused, like every setting with a wrong type
    assert w.show_scores and "Refused setting show_scores" in w.notice


class HeldAnalysis:
    """Stands in for ``analyse`` in the widget: each call waits for the test, then returns
    the real analysis of the position it was given (at depth 2)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[str] = []
        self.started = threading.Semaphore(0)

    def __call__(
        self, board: Board, depth: int | None = None, time_limit: float | None = None, progress: Any = None
    ) -> Any:
        from reversi_widget.analysis import analyse

        self.calls.append(board.to_string())
        self.started.release()
        assert self.release.wait(5)
        return analyse(board, depth=2)


def test_a_stale_hint_or_score_result_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget.play import aids as aids_module
    from reversi_widget.analysis import analyse

    held = HeldAnalysis()
    monkeypatch.setattr(aids_module, "analyse", held)
    w, sent = widget(show_scores=True)
    w.hint()  # the analysis already running for the scores serves the hint too
    assert held.started.acquire(timeout=5) and w.busy == "hint"
    start = Board().to_string()
    w.play("d3")  # the position changes while the analysis of the start runs
    assert held.started.acquire(timeout=5)  # the new position's analysis has begun
    assert w.busy == "scores" and w.hints == [] and w.scores == {}
    sent.clear()
    held.release.set()
    join_workers(w)
    assert held.calls == [start, Board.from_transcript("d3").to_string()]
    after = Board.from_transcript("d3")
    assert w.hints == []  # the hint was for the start: never shown
    assert w.scores == {str(e.move): score_text(e) for e in analyse(after, depth=2).moves}
    assert set(w.scores) == {"c3", "e3", "c5"}
    assert not w.notice.startswith("Hint")
    shown = [m["state"].get("hints") for m in sent.messages if m.get("method") == "update"]
    assert all(not hints for hints in shown if hints is not None)


@pytest.mark.parametrize("trigger", ["a move", "scores hidden"])
def test_a_stale_analysis_is_cancelled_at_its_next_progress_report(
    monkeypatch: pytest.MonkeyPatch, trigger: str
) -> None:
    import time

    from reversi_widget.play import aids as aids_module
    from reversi_widget.analysis import analyse

    started, stopped = threading.Event(), threading.Event()
    calls = []

    def endless(board: Board, depth: int | None = None, time_limit: float | None = None, progress: Any = None) -> Any:
        calls.append(board.ply)
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
    w, _ = widget(show_scores=True)
    assert started.wait(5)
    deadline = time.monotonic() + 5
    while w.progress != 0.25 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (w.busy, w.progress) == ("scores", 0.25)
    if trigger == "a move":
        click(w, "d3")
        assert stopped.wait(5)
        assert w.wait(5) and w.busy == "" and set(w.scores) == {"c3", "e3", "c5"}
    else:
        w.set_state({"show_scores": False})  # the toggle: nobody wants the analysis now
        assert w.busy == "" and stopped.wait(5)
        assert w.wait(5) and w.scores == {} and calls == [0]
    join_workers(w)


def finished_game(**kwargs: Any) -> tuple[ReversiWidget, Capture]:
    w, sent = widget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2), **kwargs)
    assert w.wait(10) and w.game_over
    return w, sent


def test_review_scores_every_move_with_its_loss_marks_and_chart() -> None:
    from reversi_widget.analysis import review

    w, sent = finished_game(analysis_depth=3)
    assert w.can_review and w.review_moves == [] and w.evaluations == []
    send(w, {"kind": "review", "ply": w.ply})
    assert w.wait(10)
    expected = review(w.board, depth=3)
    entries = w.review_moves
    assert [e["ply"] for e in entries] == list(range(1, len(w.moves) + 1))
    assert [e["move"] for e in entries] == w.moves
    assert all(e["loss"] >= 0 for e in entries)
    assert [e["loss"] for e in entries] == [round(r.loss, 1) for r in expected]
    assert [e["best"] for e in entries] == [str(r.best) for r in expected]
    for e in entries:
        least = {"??": 12, "?": 6, "?!": 2, "": 0}[e["mark"]]
        assert e["loss"] >= least and not (e["mark"] == "" and e["loss"] >= 2)
        if e["forced"]:
            assert e["note"] == "forced" and e["mark"] == ""
        elif e["loss"] == 0:
            assert e["note"] == "best move"
        else:
            assert e["note"] == f"best: {e['best']}, lost {e['loss']:g}"
    assert any(e["mark"] for e in entries)  # a random player makes mistakes
    assert any(e["move"] == "pass" and e["forced"] for e in entries)  # this game has a pass
    # the chart: every position from Black's side; a forced move keeps the evaluation
    values = w.evaluations
    assert len(values) == len(w.moves) + 1
    for i, e in enumerate(entries, 1):
        if e["forced"]:
            assert values[i] == values[i - 1]
        else:
            assert values[i] == round(e["score"] if e["color"] == "black" else -e["score"], 2)
    outcome = w.board.outcome()
    last = [e for e in entries if not e["forced"]][-1]  # solved exactly: 3 plies reach the end
    assert outcome is not None and w.board.empty_count() == 0 and last["exact"]
    assert values[-1] == outcome.black - outcome.white
    assert sent.updates()["review_moves"] == entries and w.busy == ""
    assert w.notice.startswith("Review done.") and w.notice_kind == "info"
    # kept while navigating the reviewed game, retranslated, gone once the line changes
    w.jump(10)
    assert w.review_moves == entries
    w.language = "pl"
    assert {e["note"] for e in w.review_moves} >= {"najlepszy ruch"}
    w.white = "human"
    w.black = "human"
    w.play(next(iter(w.board.legal_moves)))
    assert w.review_moves == [] and w.evaluations == [] and not w.can_review


def test_review_is_refused_before_the_game_ends() -> None:
    from reversi_widget.widget import AnalysisRefusedError

    w, _ = widget()
    assert not w.can_review
    send(w, {"kind": "review", "ply": 0})
    assert "no move to review yet" in w.notice
    w.play("d3")
    before = snapshot(w)
    send(w, {"kind": "review", "ply": 1})
    assert "the review comes once the game is over" in w.notice and snapshot(w) == before
    with pytest.raises(AnalysisRefusedError, match="once the game is over"):
        w.review()
    assert w._workers.threads == set()


def test_review_shows_its_progress_and_a_stale_review_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget.play import aids as aids_module

    w, _ = finished_game()
    halfway, go_on = threading.Event(), threading.Event()

    def slow_review(board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None) -> Any:
        progress(0.5, "half")
        halfway.set()
        assert go_on.wait(5)
        progress(1.0, "done")  # stale by now: this raises
        raise AssertionError("a stale review went on")

    monkeypatch.setattr(aids_module, "review", slow_review)
    w.review()
    assert halfway.wait(5)
    assert (w.busy, w.progress) == ("review", 0.5)
    w.new_game()
    assert w.busy == ""
    go_on.set()
    join_workers(w)
    assert w.review_moves == [] and w.wait(1) and "analysis failed" not in w.notice


def test_pause_and_resume_intents_are_never_stale() -> None:
    import time

    w, sent = widget(black="random", white="random", move_delay=0.01)
    assert w.can_pause and not w.paused
    send(w, {"kind": "pause", "ply": 0})  # made at the start, arriving moves later
    assert w.paused and sent.updates()["paused"] is True
    assert w.wait(5)
    ply = w.ply
    time.sleep(0.1)
    assert w.ply == ply and not w.game_over and "paused" in w.status
    send(w, {"kind": "resume", "ply": 0})
    assert not w.paused and w.wait(10) and w.game_over
    w.set_state({"paused": True})  # the front end may only ask through intents
    assert not w.paused and "paused" in w.notice
    for content, reason in (
        ({"kind": "pause", "ply": "0"}, "ply must be an integer"),
        ({"kind": "pause"}, "exactly the fields kind, ply"),
    ):
        send(w, content)
        assert reason in w.notice and not w.paused
    humans, _ = widget()
    send(humans, {"kind": "pause", "ply": 0})
    assert "no computer plays in this game" in humans.notice and not humans.paused
    assert not humans.can_pause


def test_analysis_settings_are_checked() -> None:
    from reversi_widget.widget import InvalidSettingError

    w = ReversiWidget()
    for name, value in (("analysis_depth", 0), ("analysis_depth", 65), ("analysis_time_limit", -1.0)):
        with pytest.raises(InvalidSettingError, match=name):
            setattr(w, name, value)
    w.analysis_time_limit = 0.2
    assert w.analysis_time_limit == 0.2 and w.analysis_depth is None


# -- recording finished games (R25) ------------------------------------------------------------


def test_a_finished_game_is_recorded_once_in_the_log(tmp_path: Path) -> None:
    from reversi_widget.records import GameLog

    log = GameLog(tmp_path / "games.db")
    w = ReversiWidget(rules=Rules(size=4), black=GreedyPlayer(seed=1), white=GreedyPlayer(seed=2), log=log)
    w.wait(30)
    board = w.board
    assert board.is_game_over() and w.game_over
    games = log.games()
    assert len(games) == 1
    assert games[0].transcript(passes=True) == board.transcript(passes=True)
    assert games[0].rules == Rules(size=4)
    outcome = board.outcome()
    assert outcome is not None and games[0].result == (outcome.black, outcome.white)
    # Going back into the game and forward to the same end records nothing new.
    w.pause()
    w.undo()
    w.redo()
    assert len(log) == 1
    log.close()


def test_wait_returns_after_the_callbacks_a_move_made_due() -> None:
    finished = threading.Event()
    inner_waits: list[tuple[bool, float]] = []

    def slow_callback(widget: ReversiWidget, outcome: object) -> None:
        started = time.monotonic()
        inner_waits.append((widget.wait(5), time.monotonic() - started))  # its own thread: no deadlock
        time.sleep(0.3)
        finished.set()

    w = ReversiWidget(rules=Rules(size=4), black=GreedyPlayer(seed=1), white=GreedyPlayer(seed=2), paused=True)
    w.on_game_over(slow_callback)
    w.resume()
    assert w.wait(30)
    assert finished.is_set(), "wait() returned before the game-over callback had run"
    assert inner_waits and inner_waits[0][0] and inner_waits[0][1] < 2


def test_log_must_be_a_game_log() -> None:
    with pytest.raises(TypeError, match="GameLog"):
        ReversiWidget(log="games.db")  # type: ignore[arg-type]
