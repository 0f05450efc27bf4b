"""The live evaluation's bar in js/widget.js, in headless Chromium, drawn from what Python
syncs (``live``, ``evaluations``): beside the board and as tall as it, Black's share filled
from the bottom, Python's words under it, hidden while the setting is off; the evaluation
chart growing over the positions read so far; the setting's choice in the menu."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget.widget import ReversiWidget
from tests.frontend.test_frontend import V1, V2, set_traits
from tests.support import END_33_29

pytestmark = pytest.mark.browser

#: As Python sends it (play/live.py) for an estimate, in English.
ESTIMATE = {
    "mode": "chance",
    "known": True,
    "black": 0.72,
    "text": "Black 72%",
    "note": "estimate (depth 8)",
    "ply": 2,
    "course_exact": [False, False, False],
}

BOXES = """v => {
  const box = (sel) => { const r = document.querySelector(v + ' ' + sel).getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height }; };
  return { bar: box('[data-role=evalbar]'), black: box('[data-role=evalbar-black]'), board: box('[data-role=board]') };
}"""


def boxes(page: Any, view: str = V1) -> dict[str, dict[str, float]]:
    return page.evaluate(BOXES, view)  # type: ignore[no-any-return]


def black_share(page: Any, view: str = V1) -> float:
    b = boxes(page, view)
    inner = page.eval_on_selector(f"{view} [data-role=evalbar]", "e => e.clientHeight")
    assert b["black"]["bottom"] == pytest.approx(
        b["bar"]["bottom"] - 1, abs=1.01
    )  # from the bottom (inside the border)
    return float(b["black"]["height"]) / float(inner)


def test_off_the_bar_and_its_words_are_hidden(boot: Any) -> None:
    page = boot(8)
    for view in (V1, V2):
        assert page.is_hidden(f"{view} [data-role=evalbar]") and page.is_hidden(f"{view} [data-role=evalbar-caption]")


def test_the_bar_stands_beside_the_board_with_blacks_share_and_pythons_words(boot: Any) -> None:
    page = boot(8, animation="off", moves=["f5", "d6"], ply=2)
    set_traits(page, live=ESTIMATE, evaluations=[0.0, 1.5, 0.5])
    for view in (V1, V2):
        assert page.is_visible(f"{view} [data-role=evalbar]")
        b = boxes(page, view)
        assert b["bar"]["right"] <= b["board"]["left"]  # beside the board, to its left
        assert b["bar"]["height"] == pytest.approx(b["board"]["height"], abs=2)  # as tall as it
        assert black_share(page, view) == pytest.approx(0.72, abs=0.01)
        assert page.text_content(f"{view} [data-role=evalbar-text]") == "Black 72%"
        assert page.text_content(f"{view} [data-role=evalbar-note]") == "estimate (depth 8)"
        bar = f"{view} [data-role=evalbar]"
        assert page.get_attribute(bar, "aria-valuenow") == "72" and page.get_attribute(bar, "role") == "meter"
        assert page.get_attribute(bar, "aria-valuetext") == "Black 72%, estimate (depth 8)"
        assert page.get_attribute(bar, "data-known") == "" and page.get_attribute(bar, "data-mode") == "chance"
        assert page.get_attribute(bar, "title") == "Evaluation bar: Black's share from the bottom"


def test_a_solved_position_fills_the_bar_as_python_says() -> None:
    w = ReversiWidget(board=END_33_29, live_evaluation="chance")
    assert w.live["text"] == "Black 100%" and w.live["black"] == 1.0  # what the next test draws


def test_exact_results_fill_the_bar_or_empty_it(boot: Any) -> None:
    page = boot(8, animation="off")
    won = ReversiWidget(board=END_33_29, live_evaluation="chance").live  # the real trait, Black has won
    set_traits(page, live=won)
    assert black_share(page) == pytest.approx(1.0, abs=0.01)
    assert page.text_content(f"{V1} [data-role=evalbar-text]") == "Black 100%"
    lost = {**won, "black": 0.0, "text": "Black 0%"}
    set_traits(page, live=lost)
    assert black_share(page) == pytest.approx(0.0, abs=0.01)
    assert page.get_attribute(f"{V1} [data-role=evalbar]", "aria-valuenow") == "0"


def test_not_known_yet_the_bar_says_so_and_stays_even(boot: Any) -> None:
    page = boot(8, animation="off")
    set_traits(page, live={**ESTIMATE, "known": False, "black": 0.5, "text": "", "note": "evaluating…"})
    bar = f"{V1} [data-role=evalbar]"
    assert page.get_attribute(bar, "data-known") is None
    assert black_share(page) == pytest.approx(0.5, abs=0.01)
    assert page.text_content(f"{V1} [data-role=evalbar-note]") == "evaluating…"
    set_traits(page, live={})  # turned off
    assert page.is_hidden(bar) and page.is_hidden(f"{V1} [data-role=evalbar-caption]")


def test_the_chart_grows_over_the_positions_read_so_far(boot: Any) -> None:
    page = boot(8, animation="off", moves=["f5"], ply=1)
    chart = f"{V1} [data-role=review-chart]"
    set_traits(page, live={**ESTIMATE, "course_exact": [False]}, evaluations=[0.2])
    assert page.is_hidden(chart)  # one value is no course yet
    set_traits(page, moves=["f5", "d6", "c3"], ply=3)
    set_traits(page, live={**ESTIMATE, "course_exact": [False] * 4}, evaluations=[0.2, None, 3.0, None])
    assert page.is_visible(chart)
    points = page.eval_on_selector_all(f"{chart} .rw-chart-point", "ps => ps.map(p => p.dataset.ply)")
    assert points == ["0", "2"]  # the positions not read yet have no point
    assert page.eval_on_selector_all(f"{chart} .rw-chart-line", "ls => ls.map(l => l.dataset.certainty)") == [
        "estimate"
    ]
    set_traits(page, live={**ESTIMATE, "course_exact": [False, False, True, True]}, evaluations=[0.2, 1.0, 3.0, 4.0])
    points = page.eval_on_selector_all(f"{chart} .rw-chart-point", "ps => ps.map(p => p.dataset.ply)")
    assert points == ["0", "1", "2", "3"]
    kinds = page.eval_on_selector_all(f"{chart} .rw-chart-line", "ls => ls.map(l => l.dataset.certainty)")
    assert kinds == ["estimate", "exact"]  # solid where both ends are exact


def test_the_setting_is_a_choice_of_the_menu(boot: Any) -> None:
    page = boot(8, live_evaluation="off")
    select = f"{V1} select[data-setting=live_evaluation]"
    options = page.eval_on_selector_all(f"{select} option", "os => os.map(o => [o.value, o.textContent])")
    assert options == [["off", "Off"], ["score", "Disc score"], ["chance", "Win chance"]]
    page.select_option(select, "chance")
    assert ["live_evaluation", "chance"] in page.evaluate("window.setCalls")
    assert page.evaluate("window.saves") >= 1
