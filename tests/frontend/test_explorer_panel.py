"""The Explorer panel of js/widget.js in headless Chromium, drawn from what Python syncs."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget.widget import ReversiWidget
from tests.frontend.test_frontend import V1, V2, sent, set_traits

pytestmark = pytest.mark.browser


def after_f5() -> dict[str, Any]:
    """The panel Python writes after f5, from the shipped year's index."""
    w = ReversiWidget(show_explorer=True)
    w.play("f5")
    return dict(w.explorer_view)


def test_the_panel_is_hidden_until_it_is_switched_on(boot: Any) -> None:
    page = boot(8, explorer_view=after_f5(), show_explorer=False)
    assert page.locator(f"{V1} [data-role=explorer]").is_hidden()
    set_traits(page, show_explorer=True)
    assert page.locator(f"{V1} [data-role=explorer]").is_visible()
    assert page.locator(f"{V2} [data-role=explorer]").is_visible()


def test_rows_show_the_moves_and_a_click_plays_or_loads(boot: Any) -> None:
    view = after_f5()
    page = boot(8, explorer_view=view, show_explorer=True, ply=1)
    moves = page.eval_on_selector_all(f"{V1} .rw-explorer-move", "els => els.map(e => e.textContent)")
    assert moves == [row["move"] for row in view["moves"]] == ["d6", "f6", "f4"]
    heads = page.eval_on_selector_all(f"{V1} .rw-explorer-table th", "els => els.map(e => e.textContent)")
    assert heads == view["headings"]
    first = page.eval_on_selector_all(f'{V1} tr[data-move="d6"] td', "els => els.map(e => e.textContent)")
    assert first[1:] == view["moves"][0]["cells"][1:]
    width = page.get_attribute(f'{V1} tr[data-move="d6"] .rw-explorer-bar', "style")
    assert width == f"--rw-share: {100 * view['moves'][0]['share']:.1f}%"
    page.click(f'{V1} .rw-explorer-move[data-move="f6"]')
    page.click(f'{V2} .rw-explorer-game[data-game="d6-1"]')
    assert sent(page) == [
        {"kind": "move", "square": "f6", "ply": 1},
        {"kind": "explorer_game", "square": "d6", "to": 1, "ply": 1},
    ]


def test_out_of_the_book_says_so_and_text_stays_text(boot: Any) -> None:
    view = after_f5()
    view["moves"][0]["games"][0]["label"] = "<b>bold</b> – <img src=x onerror=alert(1)>"
    page = boot(8, explorer_view=view, show_explorer=True)
    assert page.locator(f"{V1} .rw-explorer-game b, {V1} .rw-explorer img").count() == 0
    assert page.text_content(f'{V1} [data-game="d6-0"]') == view["moves"][0]["games"][0]["label"]
    set_traits(page, explorer_view={"state": "empty", "message": "No master game.", "moves": [], "title": "Explorer"})
    assert page.text_content(f"{V1} [data-role=explorer-message]") == "No master game."
    assert page.locator(f"{V1} .rw-explorer-table").count() == 0
