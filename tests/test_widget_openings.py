"""The named opening in the widget (the ``opening`` trait), driven by simulated messages: it
follows the position shown, its label is in the widget's language while the name stays as it
is, and a refused message leaves it as it was."""

from __future__ import annotations

from reversi_widget import Board, Rules
from reversi_widget.i18n import LANGUAGES, translate
from reversi_widget.openings import name
from tests.support import click, send, widget


def play(w: object, transcript: str) -> None:
    for i in range(0, len(transcript), 2):
        click(w, transcript[i : i + 2])  # type: ignore[arg-type]


def test_the_opening_follows_the_moves_played_and_is_synced() -> None:
    w, sent = widget()
    assert w.opening == {}
    play(w, "f5d6")
    assert w.opening == {"name": "Perpendicular", "plies": 2, "left": None, "text": "Opening: Perpendicular"}
    play(w, "c3d3c4")
    assert w.opening == {"name": "Tiger", "plies": 5, "left": None, "text": "Opening: Tiger"}
    assert sent.updates()["opening"] == w.opening


def test_leaving_theory_is_said_with_the_move_as_the_move_list_numbers_it() -> None:
    w, _ = widget()
    play(w, "f5d6c3d3c4g5")  # 6. g5 is on no line of the table
    opening = name(w.board)
    assert opening is not None and opening.left_theory == 6
    assert w.opening == {
        "name": "Tiger",
        "plies": 5,
        "left": 6,
        "text": translate("opening_left", "en", name="Tiger", move="3... g5"),
    }


def test_the_opening_is_the_one_of_the_position_shown() -> None:
    w, _ = widget()
    play(w, "f5d6c3d3c4")
    send(w, {"kind": "jump", "to": 2, "ply": 5})
    assert w.ply == 2 and w.opening["name"] == "Perpendicular"
    send(w, {"kind": "jump", "to": 0, "ply": 2})
    assert w.opening == {}
    send(w, {"kind": "jump", "to": 5, "ply": 0})
    assert w.opening["name"] == "Tiger"
    send(w, {"kind": "undo", "ply": 5})
    assert w.opening["name"] == "Perpendicular"  # undo takes back the Tiger's last move
    send(w, {"kind": "new_game", "ply": w.ply})
    assert w.opening == {}


def test_the_label_is_translated_and_the_name_is_not() -> None:
    w, _ = widget()
    play(w, "e6f4c3c4d3")  # the Tiger from 1. e6
    for language in LANGUAGES:
        w.language = language
        assert w.opening["name"] == "Tiger"
        assert w.opening["text"] == translate("opening", language, name="Tiger")
        assert "Tiger" in w.opening["text"]


def test_a_refused_message_leaves_the_opening_as_it_was() -> None:
    w, sent = widget()
    play(w, "f5d6c3")
    before = dict(w.opening)
    sent.clear()
    click(w, "a1")  # illegal
    send(w, {"kind": "move", "square": "zz", "ply": w.ply})  # malformed
    send(w, {"kind": "jump", "to": 99, "ply": w.ply})  # no such ply
    assert w.opening == before
    assert "opening" not in sent.updates()
    assert any(m.get("kind") == "refused" for m in sent.custom())


def test_no_opening_where_none_applies() -> None:
    w, _ = widget(rules=Rules(goal="inverted"))
    play(w, "f5d6c3d3c4")
    assert w.opening == {}
    w2, _ = widget(board=Board.from_transcript("f5d6c3d3c4"))
    assert w2.opening["name"] == "Tiger"
    w2.edit()
    assert w2.opening == {}
    w2.edit_cancel()
    assert w2.opening["name"] == "Tiger"
