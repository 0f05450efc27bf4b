"""The named opening in js/widget.js, in headless Chromium: shown above the move list from the
``opening`` trait Python syncs, in every view, hidden when there is none, the name kept as
Python sends it (markup stays text), and readable in the high-contrast theme."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget import Board
from reversi_widget.widget import ReversiWidget
from tests.contrast import TEXT_AA, TEXTS
from tests.frontend.test_frontend import V1, V2, set_traits

pytestmark = pytest.mark.browser

OPENING = """v => {
  const el = document.querySelector(v + ' [data-role=opening]');
  const list = document.querySelector(v + ' [data-role=moves]');
  return {hidden: el.hidden, text: el.textContent, name: el.dataset.name || null,
          above: !!(el.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING),
          height: el.getBoundingClientRect().height};
}"""


def opening(page: Any, view: str = V1) -> dict[str, Any]:
    return page.evaluate(OPENING, view)  # type: ignore[no-any-return]


def synced(w: ReversiWidget) -> dict[str, Any]:
    """The traits a real widget syncs for its game."""
    state = w.get_state()
    return {k: state[k] for k in ("discs", "turn", "ply", "legal", "moves", "last_move", "opening", "actions")}


def test_the_opening_name_renders_above_the_move_list(boot: Any) -> None:
    page = boot(8)
    assert opening(page)["hidden"] and opening(page)["text"] == ""
    w = ReversiWidget(Board.from_transcript("f5d6c3d3c4"))
    assert w.opening["name"] == "Tiger"
    set_traits(page, **synced(w))
    for view in (V1, V2):
        shown = opening(page, view)
        assert shown == {
            "hidden": False,
            "text": "Opening: Tiger",
            "name": "Tiger",
            "above": True,
            "height": shown["height"],
        }
        assert shown["height"] > 0
    w.play("g5")  # off every line of the table
    set_traits(page, **synced(w))
    assert opening(page)["text"] == "Opening: Tiger (left the known lines at 3... g5)"
    set_traits(page, opening={})  # a new game, or a line the table does not name
    assert opening(page)["hidden"] and opening(page, V2)["hidden"]
    assert opening(page)["name"] is None


def test_the_text_is_shown_as_text_in_the_widgets_language(boot: Any) -> None:
    page = boot(8)
    w = ReversiWidget(Board.from_transcript("f5d6"), language="uk")
    set_traits(page, **synced(w))
    assert opening(page)["text"] == "Дебют: Perpendicular"
    set_traits(page, opening={"name": "<b>x</b>", "plies": 2, "left": None, "text": "Opening: <b>x</b>"})
    assert opening(page)["text"] == "Opening: <b>x</b>"
    assert page.evaluate(f"document.querySelector('{V1} [data-role=opening] b')") is None


def test_the_opening_is_readable_in_high_contrast(boot: Any) -> None:
    w = ReversiWidget(Board.from_transcript("f5d6c3d3c4"))
    page = boot(8, theme="high-contrast", **synced(w))
    texts = dict(page.evaluate(TEXTS, V1))
    assert texts["Opening: Tiger"] >= TEXT_AA
