"""A reviewed game and a run of forced passes in real JupyterLab, as a learner sees them: the
move list's rows, the best move marked on the board with its verdict, the labelled chart, and
the notice of the passes with the computer's moves drawn one by one.

One JupyterLab server for the module; each test opens its own notebook.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.lab import Server, open_and_run, run_code, view, write_notebook
from tests.test_analysis import WIPE_OUT
from tests.test_widget_computers import PASS_RUN

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REVIEWED = (
    "from reversi_widget import Board, ReversiWidget, native\n"
    "native.wait('midgame'); native.wait('endgame')  # the review the shipping configuration makes\n"
    f"w = ReversiWidget(Board.from_transcript({WIPE_OUT!r}), animation='off')\n"
    "w.review()\n"
    "assert w.wait(300) and w.review_moves\n"
    "w"
)

#: How far the list's top row sits above the list's top edge (negative: cut), and whether the
#: current move is in the list's view.
LIST_VIEW = """(v) => {
    const list = document.querySelector(v + ' [data-role=moves]');
    const box = list.getBoundingClientRect(), top = box.top + list.clientTop;
    const rows = [...list.children].map(r => r.getBoundingClientRect()).filter(r => r.bottom > top + 0.5);
    const first = Math.min(...rows.map(r => r.top));
    const cur = list.querySelector('[aria-current]');
    const at = cur && cur.getBoundingClientRect();
    return {cut: Math.round((first - top) * 10) / 10, scrolled: list.scrollTop > 0,
            current: cur ? +cur.dataset.ply : 0, inside: !!at && at.top >= top - 0.5 && at.bottom <= box.bottom + 0.5};
}"""


def reviewed_entries(page: Any) -> list[dict[str, Any]]:
    printed = run_code(page, 1, "import json\nprint(json.dumps(w.review_moves)); print('END')")
    return list(json.loads(printed.split("\n")[0]))


def test_the_move_list_shows_whole_rows_and_the_current_move_after_a_review(server: Server, page: Any) -> None:
    name = write_notebook(server, "rows.ipynb", REVIEWED, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f"{widget} [data-role=moves] .rw-annot", timeout=300_000)  # the marks are drawn
    seen = page.evaluate(LIST_VIEW, widget)
    assert seen["scrolled"] and seen["inside"] and seen["cut"] >= -0.5, seen  # the last move, rows whole
    plies = len(reviewed_entries(page))
    for ply in (36, 35, 12, plies - 1, 2, 47):
        page.click(f"{widget} [data-role=moves] [data-ply='{ply}']")
        page.wait_for_function(
            "([v, p]) => { const c = document.querySelector(v + ' [data-role=moves] [aria-current]');"
            " return c && +c.dataset.ply === p; }",
            arg=[widget, ply],
        )
        page.wait_for_timeout(100)
        seen = page.evaluate(LIST_VIEW, widget)
        assert seen["current"] == ply and seen["inside"] and seen["cut"] >= -0.5, (ply, seen)


def test_a_reviewed_move_shows_its_best_move_on_the_board_and_says_it(server: Server, page: Any) -> None:
    name = write_notebook(server, "best.ipynb", REVIEWED, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f"{widget} [data-role=moves] .rw-annot", timeout=300_000)
    entries = reviewed_entries(page)
    marked = [e for e in entries if e["mark"] and e["best"] != e["move"]]
    assert marked
    for entry in (marked[0], marked[-1]):
        page.click(f"{widget} [data-role=moves] [data-ply='{entry['ply']}']")
        best = f'{widget} [data-square="{entry["best"]}"]'
        page.wait_for_selector(f"{best}[data-review-best={entry['color']}]")
        ring = page.eval_on_selector(f"{best} .rw-review-ring", "e => [getComputedStyle(e).opacity, e.getBBox().width]")
        assert ring[0] == "1" and ring[1] > 10  # drawn, on the square
        assert page.get_attribute(best, "data-disc") == "empty"  # where the disc should have gone
        assert page.locator(f"{widget} [data-review-best]").count() == 1
        note = page.inner_text(f"{widget} [data-role=review-note]")
        color = entry["color"].capitalize()
        assert note == f"{entry['label']}{entry['mark']} ({color}): {entry['note']}", note
        assert f"best: {entry['best']}" in note
        label = page.get_attribute(best, "aria-label")
        assert label is not None and f"{color}: best move" in label  # said to a screen reader too
    page.click(f"{widget} [data-role=moves] [data-ply='{marked[0]['ply'] - 1}']")  # no mark there: gone
    page.wait_for_function("(v) => document.querySelectorAll(v + ' [data-review-best]').length <= 1", arg=widget)


def test_the_evaluation_chart_is_labelled_and_stays_in_its_frame(server: Server, page: Any) -> None:
    name = write_notebook(server, "chart.ipynb", REVIEWED, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    chart = f"{widget} [data-role=review-chart]"
    page.wait_for_selector(f"{chart} .rw-chart-axis", timeout=300_000)
    labels = page.eval_on_selector_all(
        f"{chart} .rw-chart-axis text",
        "els => els.map(e => { const b = e.getBoundingClientRect();"
        " return [e.textContent, b.width > 0 && b.height > 5]; })",
    )
    texts = [text for text, _ in labels]
    assert all(shown for _, shown in labels)  # painted, at a size one can read
    assert "\u25b2 Black ahead" in texts and "\u25bc White ahead" in texts and "discs" in texts and "move" in texts
    assert "0" in texts and "+64" in texts and "\u221264" in texts  # a game won 64-0: the whole scale
    numbers = page.eval_on_selector_all(
        f"{chart} .rw-chart-axis text[text-anchor=middle]", "els => els.map(e => e.textContent)"
    )
    assert numbers == ["10", "20", "30"]
    frame = page.eval_on_selector(
        f"{chart} .rw-chart-frame", "e => { const b = e.getBoundingClientRect(); return [b.top, b.bottom]; }"
    )
    dots = page.eval_on_selector_all(
        f"{chart} circle[data-ply]",
        "els => els.map(e => { const b = e.getBoundingClientRect(); return (b.top + b.bottom) / 2; })",
    )
    assert all(frame[0] + 2 <= y <= frame[1] - 2 for y in dots)  # the line never runs along the edge
    assert page.locator(f"{chart} .rw-chart-line[data-certainty=exact]").count() >= 1


def test_a_run_of_forced_passes_is_said_and_each_computer_move_is_seen(server: Server, page: Any) -> None:
    """After d2 the computer plays 8 moves while Black must pass 7 times: each move is drawn
    (they come a flip animation apart), and the notice says how many passes and which moves."""
    code = (
        "from reversi_widget import Board, ReversiWidget\nfrom reversi_widget.players import GreedyPlayer\n"
        f"w = ReversiWidget(Board({PASS_RUN!r}), white=GreedyPlayer(seed=1), animation='fast')\nw"
    )
    name = write_notebook(server, "passes.ipynb", code, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f'{widget} [data-square="d2"][data-legal]')
    page.evaluate(
        """(v) => { window.whiteCounts = [];
            const count = document.querySelector(v + ' [data-role=player][data-color=white] [data-role=count]');
            new MutationObserver(() => window.whiteCounts.push([performance.now(), count.textContent]))
                .observe(count, {childList: true, characterData: true, subtree: true}); }""",
        widget,
    )
    page.click(f'{widget} [data-square="d2"]')
    page.wait_for_function("() => window.whiteCounts.length > 0")  # d2 played: White's count went down
    notice = f"{widget} [data-role=notice][data-kind=pass]"
    page.wait_for_function(  # Black's turn again, with legal moves: White's run is over
        "(v) => document.querySelector(v + '[data-turn=black]:not([data-thinking]) [data-square][data-legal]')",
        arg=widget,
        timeout=60_000,
    )
    text = page.inner_text(f"{notice} .rw-notice-text")
    assert text.startswith("Black had no legal move and passed 7 times in a row; White played ")
    assert len(text.split("White played ")[1].split(", ")) == 8
    assert page.inner_text(f"{widget} [data-role=status]") == "Black to move"
    counts = page.evaluate("window.whiteCounts")
    distinct = [t for i, (t, c) in enumerate(counts) if i == 0 or c != counts[i - 1][1]]
    assert len(distinct) >= 9  # d2, then each of White's 8 moves drawn on its own
    assert distinct[-1] - distinct[1] >= 7 * 0.18 * 2 * 1000  # at least a flip step and a disc apart


def test_the_review_shows_its_progress_while_it_runs(server: Server, page: Any) -> None:
    code = (
        "from reversi_widget import Board, ReversiWidget, native\nnative.wait('midgame'); native.wait('endgame')\n"
        f"w = ReversiWidget(Board.from_transcript({WIPE_OUT!r}), animation='off')\nw"
    )
    name = write_notebook(server, "progress.ipynb", code, "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    review = f"{widget} [data-action=review]"
    page.wait_for_selector(f"{review}[data-primary]")
    page.evaluate(
        """(v) => { window.progressSeen = [];
            const bar = document.querySelector(v + ' [data-role=progress]');
            const value = () => bar.querySelector('progress').value;
            const seen = () => window.progressSeen.push([!bar.hidden, value(), bar.innerText]);
            new MutationObserver(seen).observe(bar, {attributes: true, subtree: true, childList: true}); }""",
        widget,
    )
    page.click(review)
    page.wait_for_selector(f"{widget} [data-role=moves] .rw-annot", timeout=300_000)
    page.wait_for_selector(f"{widget} [data-role=progress]", state="hidden")
    seen = page.evaluate("window.progressSeen")
    shown = [value for visible, value, _ in seen if visible]
    assert any(text == "Reviewing the game…" for visible, _, text in seen if visible)
    assert len({round(value, 2) for value in shown}) >= 3 and max(shown) > 0.5  # it moved along
    assert shown == sorted(shown)  # forward only
