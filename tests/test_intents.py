"""Intents from the front end that are refused: each is answered with a notice and a
``refused`` message, and the game is exactly as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reversi_widget import Board
from reversi_widget.widget import (
    INTENTS,
    SETTINGS,
    ReversiWidget,
)
from tests.support import (
    END_33_29,
    NOTICE_TRAITS,
    Gate,
    click,
    send,
    snapshot,
    widget,
)

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
    ("jump past the line", {"kind": "jump", "to": 3, "ply": 0}, [], "outside the line, which ends at ply 0"),
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
    w.pause()  # pausing stops at once: the move being thought about is dropped
    assert not w.thinking and w.status == "White (gate) to move, paused"
    gate.release.set()
    assert w.wait(5)
    assert w.ply == 1 and w.turn == "white"  # the late answer was not played
    w.resume()  # thinks again, and plays
    assert w.wait(5)
    assert w.ply == 2 and w.turn == "black"
    w.pause()
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


def test_intent_table_matches_the_protocol() -> None:
    text = (Path(__file__).resolve().parent.parent / "js" / "PROTOCOL.md").read_text()
    for kind, fields in INTENTS.items():
        assert f'"kind": "{kind}"' in text
        for field in fields:
            assert f'"{field}":' in text
    for name in [*ReversiWidget.READ_ONLY, "fill", "marks", "arrows", *SETTINGS]:
        assert f"`{name}`" in text
