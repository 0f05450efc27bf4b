"""The widget's Explorer panel, driven by simulated front-end messages: its picture, a click
on a move and on a game, its settings, and what it refuses (changing nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversi_widget import Board, Rules, explorer
from reversi_widget.errors import ReversiError
from reversi_widget.wthor_data import SAMPLE
from tests.support import click, send, snapshot, widget


def test_the_panel_is_off_by_default_and_shows_the_moves_when_on() -> None:
    w, sent = widget()
    assert w.explorer_view == {} and not w.show_explorer
    w.set_state({"show_explorer": True})  # a front end may switch it on
    assert w.show_explorer and w.explorer_view["state"] == "moves"
    assert [row["move"] for row in w.explorer_view["moves"]] == ["f5"]
    click(w, "f5")
    rows = w.explorer_view["moves"]
    assert [row["move"] for row in rows] == ["d6", "f6", "f4"] and sent.updates()["explorer_view"]["moves"] == rows
    assert sum(int(row["cells"][1]) for row in rows) == 320  # every game of the shipped year


def test_a_click_on_a_game_loads_it_at_the_position_shown() -> None:
    w, _ = widget(show_explorer=True)
    click(w, "f5")
    game = w.explorer_view["moves"][0]["games"][1]
    send(w, {"kind": "explorer_game", "square": "d6", "to": 1, "ply": 1})
    assert w.ply == 1 and "".join(str(m) for m in w.line if m) == game["transcript"]
    assert w.board.transcript() == "f5" and w.can_redo


def test_a_game_it_does_not_show_is_refused_and_nothing_changes() -> None:
    w, sent = widget(show_explorer=True)
    click(w, "f5")
    before = snapshot(w)
    for content in (
        {"kind": "explorer_game", "square": "d6", "to": 3, "ply": 1},  # three examples at most
        {"kind": "explorer_game", "square": "c4", "to": 0, "ply": 1},  # not a move played here
        {"kind": "explorer_game", "square": "d6", "to": -1, "ply": 1},
    ):
        send(w, content)
        assert snapshot(w) == before
        assert sent.custom()[-1]["kind"] == "refused" and "shows no game" in w.notice
    send(w, {"kind": "explorer_game", "square": "d6", "to": 0, "ply": 0})  # stale
    assert snapshot(w) == before and "ply" in w.notice


def test_out_of_the_book_and_other_variants_say_so_in_the_language() -> None:
    w, _ = widget(show_explorer=True, language="ca")
    w.load("f5f4e3d2")  # no game of the year played d2 there
    assert w.explorer_view["state"] == "empty" and "ha sortit del llibre" in w.explorer_view["message"]
    w.new_game(Rules(size=6))
    assert w.explorer_view["state"] == "variant" and "8x8" in w.explorer_view["message"]
    w.language = "uk"
    assert w.explorer_view["title"] == "Дослідник"


def test_the_index_is_a_setting(tmp_path: Path) -> None:
    index = explorer.build(list(SAMPLE.glob("*.wtb")), tmp_path / "index.sqlite", depth=4, progress=False)
    w, _ = widget(show_explorer=True, explorer=index)
    w.load("f5d6c3d3")  # four plies: deeper than the index
    assert w.explorer_view["state"] == "beyond"
    w.explorer = str(tmp_path / "index.sqlite")  # a path opens the index
    assert w.explorer_view["state"] == "beyond"
    w.explorer = None  # back to the shipped year
    assert w.explorer_view["state"] == "moves"
    with pytest.raises(ReversiError, match="explorer must be an Explorer"):
        w.explorer = 42
    assert w.explorer is None and Board().ply == 0
