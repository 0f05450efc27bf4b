"""The Explorer panel in real JupyterLab: open it, click a move, click a game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lab import Server, open_and_run, run_code, settled_output, view, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_open_the_panel_click_a_move_then_a_game(server: Server, page: Any) -> None:
    name = write_notebook(
        server,
        "explorer.ipynb",
        "from reversi_widget import ReversiWidget\nw = ReversiWidget(animation='off', show_explorer=True)\nw",
        "print('END')",
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    widget = view(panel, 1)
    page.click(f'{widget} .rw-explorer-move[data-move="f5"]')
    page.wait_for_selector(f'{widget} .rw-explorer-move[data-move="d6"]')
    assert settled_output(page, 1, "print(w.ply, w.moves, 'END')", "1 ['f5'] END").strip() == "1 ['f5'] END"

    label = page.text_content(f'{widget} .rw-explorer-game[data-game="f6-0"]')
    page.click(f'{widget} .rw-explorer-game[data-game="f6-0"]')
    expected = "1 True f6 END"
    check = "print(w.ply, len(w.line) > 20, w.line[1], 'END')"
    assert settled_output(page, 1, check, expected).strip() == expected
    # the game loaded is the one the panel named, shown at the position it was clicked in
    printed = run_code(
        page,
        1,
        "row = next(r for r in w.explorer_view['moves'] if r['move'] == 'f6')\n"
        "print(row['games'][0]['transcript'] == ''.join(str(m) for m in w.line if m), 'END')",
    )
    assert printed.strip() == "True END" and label
