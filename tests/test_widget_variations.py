"""Variations in the widget model, driven by simulated messages: a move played in the middle
of the line keeps what followed as a variation, the ``variations`` trait describes it for the
move list, and the variation intents (jump, promote, delete) are checked in full; a refused
one changes nothing (js/PROTOCOL.md, "Variations")."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget import Game, VariationError, read_ggf, write_ggf
from reversi_widget.widget import ReversiWidget
from tests.support import Capture, click, send, snapshot, widget


def line(w: ReversiWidget) -> list[str]:
    return [str(m) for m in w.line]


def branched() -> tuple[ReversiWidget, Capture]:
    """f5 d6 c3 d3 c4 played, back to ply 2, then c5: the old continuation is a variation."""
    w, capture = widget()
    for square in ["f5", "d6", "c3", "d3", "c4"]:
        click(w, square)
    send(w, {"kind": "jump", "to": 2, "ply": w.ply})
    click(w, "c5")
    return w, capture


def test_a_move_in_the_middle_keeps_what_followed_as_a_variation() -> None:
    w, capture = branched()
    assert line(w) == ["f5", "d6", "c5"] and w.moves == ["f5", "d6", "c5"] and w.ply == 3
    variations = capture.updates()["variations"]
    assert variations == w.variations
    assert variations["main"] is False and len(variations["nodes"]) == 3
    (branch,) = variations["branches"]
    assert branch["ply"] == 3 and branch["main"] is True and branch["moves"] == ["c3", "d3", "c4"]
    assert len(branch["nodes"]) == 3 and not set(branch["nodes"]) & set(variations["nodes"])
    game = w.game()  # the line shown is the record's main line, the other line its variation
    assert [str(m) for m in game.moves] == ["f5", "d6", "c5"]
    assert [str(v.move) for v in game.node_at(["f5", "d6"]).variations] == ["c5", "c3"]
    assert [str(m) for m in read_ggf(write_ggf(game)).moves] == ["f5", "d6", "c5"]


def test_the_next_move_of_the_line_goes_on_along_it() -> None:
    w, _ = widget()
    for square in ["f5", "d6", "c3"]:
        click(w, square)
    send(w, {"kind": "jump", "to": 1, "ply": 3})
    click(w, "d6")
    assert line(w) == ["f5", "d6", "c3"] and w.ply == 2 and w.variations["branches"] == []


def test_a_click_on_a_variation_jumps_into_it_and_promote_makes_it_the_main_line() -> None:
    w, _ = branched()
    branch = w.variations["branches"][0]
    send(w, {"kind": "variation_jump", "node": branch["nodes"][1], "ply": w.ply})
    assert line(w) == ["f5", "d6", "c3", "d3", "c4"] and w.ply == 4
    assert w.variations["main"] is True and w.variations["branches"][0]["moves"] == ["c5"]
    assert w.notice == ""
    send(w, {"kind": "variation_jump", "node": w.variations["branches"][0]["nodes"][0], "ply": w.ply})
    assert line(w) == ["f5", "d6", "c5"] and w.ply == 3 and w.variations["main"] is False
    send(w, {"kind": "variation_promote", "node": w.variations["nodes"][-1], "ply": w.ply})
    assert w.variations["main"] is True and w.variations["branches"][0]["main"] is False
    assert line(w) == ["f5", "d6", "c5"] and w.ply == 3 and w.notice == ""


def test_delete_removes_the_variation_shown_and_goes_back_to_where_it_branched_off() -> None:
    w, _ = branched()
    send(w, {"kind": "variation_delete", "node": w.variations["nodes"][-1], "ply": w.ply})
    assert line(w) == ["f5", "d6", "c3", "d3", "c4"] and w.ply == 2
    assert w.variations == {"main": True, "nodes": w.variations["nodes"], "branches": []}
    assert not w.game().node_at(["f5", "d6"]).has_variation("c5")


def test_the_python_methods_promote_and_delete_the_line_shown() -> None:
    w, _ = branched()
    w.promote_variation()
    assert w.variations["main"] is True
    with pytest.raises(VariationError, match="f5 d6 c5 is already the main line"):
        w.promote_variation()
    with pytest.raises(VariationError, match="on the main line; only a variation can be deleted"):
        w.delete_variation()
    send(w, {"kind": "jump", "to": 2, "ply": w.ply})
    click(w, "c3")  # back into the former main line, now a variation
    assert line(w) == ["f5", "d6", "c3", "d3", "c4"] and w.variations["main"] is False
    w.delete_variation()
    assert line(w) == ["f5", "d6", "c5"] and w.ply == 2 and w.variations["branches"] == []


@pytest.mark.parametrize("kind", ["variation_jump", "variation_promote", "variation_delete"])
def test_a_node_that_does_not_exist_is_refused_and_nothing_changes(kind: str) -> None:
    w, capture = branched()
    gone = w.variations["nodes"][-1]
    w.delete_variation()  # c5's node is deleted: its number is never given again
    click(w, "c5")  # the same move again is a new node
    assert gone not in w.variations["nodes"]
    before = snapshot(w)
    capture.clear()
    for node in (gone, 10_000, -1):
        send(w, {"kind": kind, "node": node, "ply": w.ply})
        assert capture.custom()[-1]["kind"] == "refused"
        assert (
            w.notice
            == f"Refused: that move is no longer among the lines played (node {node}); it may have been deleted"
        )
        assert snapshot(w) == before


@pytest.mark.parametrize(
    ("content", "notice"),
    [
        ({"kind": "variation_jump", "node": "3", "ply": 0}, "node must be an integer"),
        ({"kind": "variation_promote", "node": True, "ply": 0}, "node must be an integer"),
        ({"kind": "variation_delete", "ply": 0}, "exactly the fields kind, node, ply"),
        ({"kind": "variation_jump", "node": 1, "ply": 99}, "ply 99"),
    ],
)
def test_malformed_variation_intents_are_refused(content: dict[str, Any], notice: str) -> None:
    w, _ = branched()
    before = snapshot(w)
    send(w, content)
    assert notice in w.notice
    assert snapshot(w) == before


def test_a_loaded_game_brings_its_variations() -> None:
    game = Game.from_transcript("f5d6c3d3c4")
    game.node_at(["f5", "d6"]).add_variation("c5")
    for w in (ReversiWidget(game), ReversiWidget()):
        if not w.moves:
            w.load(game)
        assert w.moves == ["f5", "d6", "c3", "d3", "c4"] and w.variations["main"] is True
        assert [b["moves"] for b in w.variations["branches"]] == [["c5"]]
    game.node_at(["f5", "d6"]).remove_variation("c5")  # the widget keeps its own copy
    assert [b["moves"] for b in w.variations["branches"]] == [["c5"]]


def test_a_new_game_starts_a_new_tree() -> None:
    w, _ = branched()
    w.new_game()
    assert w.variations == {"main": True, "nodes": [], "branches": []}
