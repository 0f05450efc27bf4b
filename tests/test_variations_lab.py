"""Variations in real JupyterLab: moves clicked on the board, a jump back in the move list, a
different move played there (the old continuation stays, inline in the list), then the new
line promoted to the main line with its button; the kernel agrees at each step."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lab import Server, open_and_run, settled_output, view, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_variation_made_in_the_middle_of_a_line_then_promoted(server: Server, page: Any) -> None:
    name = write_notebook(
        server,
        "variations.ipynb",
        "from reversi_widget import ReversiWidget\nw = ReversiWidget(animation='off')\nw",
        "print('END')",
    )
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    moves = f"{widget} [data-role=moves]"
    for ply, square in enumerate(["f5", "d6", "c3"], 1):
        page.click(f'{widget} [data-square="{square}"]')
        page.wait_for_selector(f"{moves} [data-ply='{ply}'][aria-current]")
    page.click(f"{moves} [data-ply='2']")  # back to the position after d6
    page.wait_for_selector(f"{moves} [data-ply='2'][aria-current]")
    page.click(f'{widget} [data-square="c5"]')  # another move than the next one: a variation

    branch = f"{moves} .rw-variation[data-branch='3'][data-main]"
    page.wait_for_selector(branch)
    assert " ".join(page.inner_text(branch).split()) in ("(2. c3)", "( 2. c3 )")
    assert page.is_visible(f"{widget} [data-role=variation-tag]")
    check = "print(w.moves, w.variations['main'], [b['moves'] for b in w.variations['branches']], 'END')"
    expected = "['f5', 'd6', 'c5'] False [['c3']] END"
    assert settled_output(page, 1, check, expected).strip() == expected

    page.click(f"{widget} [data-role=variation-promote]")
    page.wait_for_selector(f"{moves} .rw-variation[data-branch='3']:not([data-main])")
    assert not page.is_visible(f"{widget} [data-role=variation-tag]")
    expected = "['f5', 'd6', 'c5'] True [['c3']] END"
    assert settled_output(page, 1, check, expected).strip() == expected
    order = "print([str(v.move) for v in w.game().node_at(['f5', 'd6']).variations], w.notice == '', 'END')"
    assert settled_output(page, 1, order, "['c5', 'c3'] True END").strip() == "['c5', 'c3'] True END"
