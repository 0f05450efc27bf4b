"""Variations in js/widget.js, in headless Chromium: the move list shows the other lines played
inline after the move they replace, a click on one sends ``variation_jump``, and the line shown,
when it is a variation, is tagged with its two actions. The traits come from a real widget
(``variations`` as Python computes it), and each intent the page sends is handed back to that
widget, whose new traits the page then draws: the loop as in a notebook, without Jupyter."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget.widget import ReversiWidget
from tests.frontend.test_frontend import V1, V2, sent, set_traits
from tests.support import click, send

pytestmark = pytest.mark.browser

#: The traits of the game the move list draws.
DRAWN = ("moves", "ply", "variations", "discs", "turn", "legal", "actions", "counts", "status", "last_move")


def traits(w: ReversiWidget) -> dict[str, Any]:
    return {name: getattr(w, name) for name in DRAWN}


def branched() -> ReversiWidget:
    """f5 d6 c3 d3 c4, back to ply 2, then c5: the first line is kept as a variation."""
    w = ReversiWidget()
    for square in ["f5", "d6", "c3", "d3", "c4"]:
        click(w, square)
    w.jump(2)
    click(w, "c5")
    return w


def list_text(page: Any, view: str = V1) -> str:
    return " ".join(page.inner_text(f"{view} [data-role=moves]").split())


def test_variations_are_shown_inline_and_a_click_jumps_into_one(boot: Any) -> None:
    w = branched()
    page = boot(8, **traits(w))
    for view in (V1, V2):
        assert list_text(page, view).replace("( ", "(").replace(" )", ")") == "1. f5 d6 2. c5 (2. c3 d3 3. c4)"
    branch = page.locator(f"{V1} .rw-variation[data-branch='3']")
    assert branch.get_attribute("data-main") == ""  # the first line is still the main line
    assert branch.get_attribute("title") == "Main line"
    assert (
        page.is_visible(f"{V1} [data-role=variation-tag]")
        and page.inner_text(f"{V1} [data-role=variation-tag]") == "Variation"
    )
    nodes = w.variations["branches"][0]["nodes"]
    assert [b.get_attribute("data-node") for b in branch.locator("button").all()] == [str(n) for n in nodes]
    assert page.locator(f"{V1} .rw-variation [data-ply]").count() == 0  # no ply of the line shown in it

    page.click(f"{V1} .rw-variation button:text('d3')")
    assert sent(page) == [{"kind": "variation_jump", "node": nodes[1], "ply": 3}]
    send(w, sent(page)[0])  # Python answers: the variation is the line shown now
    set_traits(page, **traits(w))
    text = list_text(page).replace("( ", "(").replace(" )", ")")
    assert text == "1. f5 d6 2. c3 (2. c5) 2... d3 3. c4"
    assert page.get_attribute(f"{V1} [data-role=moves] [aria-current]", "data-ply") == "4"
    assert page.get_attribute(f"{V1} .rw-variation[data-branch='3']", "data-main") is None
    assert not page.is_visible(f"{V1} [data-role=variation-tag]")  # the line shown is the main line
    assert not page.is_visible(f"{V2} [data-role=variation-promote]")


def test_the_variation_shown_is_promoted_and_deleted_by_its_buttons(boot: Any) -> None:
    w = branched()
    page = boot(8, **traits(w))
    end = w.variations["nodes"][-1]
    assert page.inner_text(f"{V1} [data-role=variation-promote]") == "Make main line"
    page.click(f"{V1} [data-role=variation-promote]")
    assert sent(page) == [{"kind": "variation_promote", "node": end, "ply": 3}]
    send(w, sent(page)[0])
    set_traits(page, **traits(w))
    assert not page.is_visible(f"{V1} [data-role=variation-tag]")
    assert page.get_attribute(f"{V1} .rw-variation[data-branch='3']", "data-main") is None

    send(w, {"kind": "variation_jump", "node": w.variations["branches"][0]["nodes"][0], "ply": w.ply})
    set_traits(page, **traits(w))
    page.click(f"{V2} [data-role=variation-delete]")
    assert sent(page)[-1] == {"kind": "variation_delete", "node": w.variations["nodes"][-1], "ply": 3}
    send(w, sent(page)[-1])
    set_traits(page, **traits(w))
    assert list_text(page) == "1. f5 d6 2. c5" and page.locator(f"{V1} .rw-variation").count() == 0
    assert page.get_attribute(f"{V1} [data-role=moves] [aria-current]", "data-ply") == "2"


def test_a_variation_of_whites_move_is_numbered_from_it(boot: Any) -> None:
    w = ReversiWidget()
    for square in ["f5", "d6", "c3"]:
        click(w, square)
    w.jump(1)
    click(w, "f6")
    page = boot(8, **traits(w))
    assert list_text(page).replace("( ", "(").replace(" )", ")") == "1. f5 f6 (1... d6 2. c3)"
