"""A coached game in real JupyterLab, as a learner plays it: a marked move clicked on the
board gets its verdict under it while the computer waits, Try again takes it back, and a
good move is answered by the computer at once.

One JupyterLab server for the run; the test opens its own notebook and asks the kernel what
it holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.lab import Server, open_and_run, run_code, settled_output, view, write_notebook
from tests.test_widget_coach import DEPTH, OPENING, load_the_compiled_searches, marked_and_good

pytestmark = [pytest.mark.browser, pytest.mark.slow]

COACHED = (
    "from reversi_widget import ReversiWidget, native\n"
    "for kernel in native.KERNELS:\n"
    "    native.wait(kernel)  # the searches the test's own verdicts are made with\n"
    f"w = ReversiWidget({OPENING!r}, coach=True, white='medium', analysis_depth={DEPTH}, animation='off')\n"
    "w"
)


def test_a_coached_move_waits_for_the_learner_and_try_again_takes_it_back(server: Server, page: Any) -> None:
    load_the_compiled_searches()
    bad, good = marked_and_good()
    name = write_notebook(server, "coached.ipynb", COACHED, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f'{widget} [data-square="{bad.move}"][data-legal]', timeout=300_000)
    panel = f"{widget} [data-role=coach]"
    assert not page.locator(panel).is_visible()

    page.click(f'{widget} [data-square="{bad.move}"]')
    page.wait_for_selector(f"{panel}[data-state=waiting]")
    assert page.inner_text(f"{widget} [data-role=coach-verdict]") == bad.render("en")
    assert page.inner_text(f"{widget} [data-role=status]") == "Try again, or go on: White waits for your choice"
    assert page.locator(f"{widget} [data-action=coach_go_on]").is_visible()
    page.wait_for_timeout(1500)  # long enough for the computer's reply, were it not waiting
    printed = run_code(page, 1, "print(w.ply, len(w.line), w.coach_state['state'], w.thinking); print('END')")
    assert printed.split("\n")[0] == "7 7 waiting False"

    page.click(f"{widget} [data-action=coach_retry]")
    page.wait_for_selector(f'{widget} [data-square="{bad.move}"][data-disc=empty]')
    page.wait_for_selector(panel, state="hidden")
    assert page.inner_text(f"{widget} [data-role=notice]").startswith(f"{bad.move} taken back")
    printed = run_code(page, 1, "print(w.ply, len(w.line), w.turn); print('END')")
    assert printed.split("\n")[0] == "6 6 black"

    page.click(f'{widget} [data-square="{good.move}"]')  # a good move: the computer replies at once
    page.wait_for_selector(f"{panel}[data-kind=good]")
    assert page.inner_text(f"{widget} [data-role=coach-verdict]") == good.render("en")
    code = "print(w.ply, w.coach_state['state'], 'END')"
    assert settled_output(page, 1, code, "8 verdict END", tries=120).strip() == "8 verdict END"
    page.wait_for_selector(f'{widget} [data-role=moves] [data-ply="8"]')
