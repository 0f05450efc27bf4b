"""The best line in js/widget.js, in headless Chromium, drawn from what Python syncs (``lines``,
``review_here``): numbered ghost discs in the movers' colours on the squares the line plays,
for the hint, for the scored square under the pointer or the keyboard cursor, and for the
marked move hovered in the move list; its words under the board; gone when it no longer
applies; readable in the light, dark and high-contrast themes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contrast import GRAPHICS_AA, MEASURE, TEXT_AA
from tests.frontend.test_frontend import REVIEW, REVIEWED_MOVES, V1, V2, set_traits, sq

pytestmark = pytest.mark.browser

#: As Python sends them (play/lines.py), from the start position, Black to move.
LINES = {
    "f5": {
        "line": ["f5", "d6", "c3", "d3", "c4"],
        "colors": ["black", "white", "black", "white", "black"],
        "note": "an estimate at depth 8",
        "text": "Line: f5 d6 c3 d3 c4 (an estimate at depth 8)",
    },
    "d3": {  # a pass in the line: not numbered, and the other side moves again
        "line": ["d3", "c5", "pass", "f6"],
        "colors": ["black", "white", "black", "white"],
        "note": "exact, to the end of the game",
        "text": "Line: d3 c5 pass f6 (exact, to the end of the game)",
    },
}
SCORES = {"f5": "+2", "d3": "W+4"}
GHOSTS = """v => Object.fromEntries([...document.querySelectorAll(v + ' [data-role=ghosts] .rw-ghost')].map(g =>
    [g.dataset.ghostSquare, [g.dataset.ghost, g.dataset.color, g.querySelector('.rw-ghost-num').textContent]]))"""


def ghosts(page: Any, view: str = V1) -> dict[str, list[str]]:
    return page.evaluate(GHOSTS, view)  # type: ignore[no-any-return]


def line_note(page: Any, view: str = V1) -> str | None:
    """The line's words under the board, None while hidden."""
    if page.is_hidden(f"{view} [data-role=line-note]"):
        return None
    return page.text_content(f"{view} [data-role=line-note]")  # type: ignore[no-any-return]


F5_GHOSTS = {
    "f5": ["1", "black", "1"],
    "d6": ["2", "white", "2"],
    "c3": ["3", "black", "3"],
    "d3": ["4", "white", "4"],
    "c4": ["5", "black", "5"],
}
D3_GHOSTS = {"d3": ["1", "black", "1"], "c5": ["2", "white", "2"], "f6": ["3", "white", "3"]}


def test_a_hint_draws_its_line_as_numbered_ghosts_and_in_words(boot: Any) -> None:
    page = boot(8)
    assert ghosts(page) == {} and line_note(page) is None
    set_traits(page, hints=["f5"], lines={"f5": LINES["f5"]})
    assert ghosts(page) == ghosts(page, V2) == F5_GHOSTS
    assert line_note(page) == line_note(page, V2) == LINES["f5"]["text"]
    label = page.get_attribute(sq(V1, "f5"), "aria-label")
    assert label == f"f5, empty, legal, flips 1, hint: best move, {LINES['f5']['text']}"  # for screen readers too
    # a ghost is never drawn on a disc, and never takes the pointer from its square
    assert page.evaluate(f"getComputedStyle(document.querySelector('{V1} .rw-ghosts')).pointerEvents") == "none"
    set_traits(page, hints=[], lines={})  # the position moved on
    assert ghosts(page) == ghosts(page, V2) == {} and line_note(page) is None


def test_hover_or_the_keyboard_cursor_on_a_scored_square_shows_its_line(boot: Any) -> None:
    page = boot(8, scores=SCORES, lines=LINES)
    assert ghosts(page) == {} and line_note(page) is None  # no hint: nothing until a square is pointed at
    page.hover(sq(V1, "d3"))
    assert ghosts(page) == D3_GHOSTS and line_note(page) == LINES["d3"]["text"]
    assert ghosts(page, V2) == {} and line_note(page, V2) is None  # hover is per view
    page.hover(sq(V1, "f5"))
    assert ghosts(page) == F5_GHOSTS
    page.hover(sq(V1, "h8"))  # not scored: nothing
    assert ghosts(page) == {} and line_note(page) is None
    page.mouse.move(0, 0)
    # the keyboard: the cursor starts on d4, one up is d3
    page.focus(f"{V1} .rw-board")
    page.keyboard.press("ArrowUp")
    assert ghosts(page) == D3_GHOSTS and line_note(page) == LINES["d3"]["text"]
    page.keyboard.press("ArrowRight")  # e3: not scored
    assert ghosts(page) == {}
    page.keyboard.press("ArrowLeft")
    assert ghosts(page) == D3_GHOSTS
    page.focus(f"{V1} [data-action=new]")  # the board loses the focus: the line goes
    assert ghosts(page) == {} and line_note(page) is None
    # with a hint, pointing at another scored square shows that square's line instead
    set_traits(page, hints=["f5"])
    assert ghosts(page) == F5_GHOSTS
    page.hover(sq(V1, "d3"))
    assert ghosts(page) == D3_GHOSTS
    page.mouse.move(0, 0)
    assert ghosts(page) == F5_GHOSTS


REVIEW_HERE = {  # the marked move 4. d3?? (White), as play/view.py review_here sends it
    "best": "c4",
    "played": "d3",
    "color": "white",
    "note": "2... d3?? (White): best: c4, lost 14 discs (exact)",
    "line": ["c4", "pass", "e3"],
    "line_colors": ["white", "black", "white"],
    "played_line": ["d3", "c4", "pass"],
    "lines_note": "Best line: c4 pass e3 (exact, to the end of the game); played: d3 c4 pass",
}


def test_a_marked_move_shows_its_best_line_beside_the_played_one(boot: Any) -> None:
    review = [{**e, "lines_note": REVIEW_HERE["lines_note"]} if e["ply"] == 4 else e for e in REVIEW]
    page = boot(8, moves=REVIEWED_MOVES, ply=4, review_moves=review, review_here=REVIEW_HERE)
    move = f"{V1} .rw-move[data-ply='4']"
    assert page.get_attribute(move, "title") == f"{REVIEW[3]['note']}\n{REVIEW_HERE['lines_note']}"  # its tooltip
    assert page.get_attribute(move, "aria-label") == f"d3, {REVIEW[3]['note']}; {REVIEW_HERE['lines_note']}"
    assert page.get_attribute(f"{V1} .rw-move[data-ply='3']", "title") == REVIEW[2]["note"]  # none sent: none said
    assert page.text_content(f"{V1} [data-role=review-lines]") == REVIEW_HERE["lines_note"]
    assert page.text_content(f"{V1} [data-role=review-note]") == REVIEW_HERE["note"]  # the verdict unchanged
    assert ghosts(page) == {}
    page.hover(f"{V1} .rw-move[data-ply='4']")
    assert ghosts(page) == {"c4": ["1", "white", "1"], "e3": ["2", "white", "2"]}
    assert ghosts(page, V2) == {}
    page.hover(f"{V1} .rw-move[data-ply='2']")  # marked, but not the move that led here
    assert ghosts(page) == {}
    page.focus(f"{V1} .rw-move[data-ply='4']")  # the keyboard too
    assert ghosts(page) == {"c4": ["1", "white", "1"], "e3": ["2", "white", "2"]}
    page.focus(f"{V1} [data-action=new]")
    page.mouse.move(0, 0)
    assert ghosts(page) == {}
    set_traits(page, review_here={k: v for k, v in REVIEW_HERE.items() if "line" not in k})  # no line kept
    assert page.is_hidden(f"{V1} [data-role=review-lines]")


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_the_ghosts_are_readable_in_every_theme(boot: Any, theme: str) -> None:
    page = boot(8, theme=theme, hints=["f5"], lines={"f5": LINES["f5"]})
    measured = page.evaluate(MEASURE, V1)
    found = {name: value for name, value in measured.items() if name.startswith("ghost")}
    assert set(found) == {"ghost black", "ghost white", "ghost number on black", "ghost number on white"}
    low = {
        name: value
        for name, value in found.items()
        if value < (TEXT_AA if name.startswith("ghost number") else GRAPHICS_AA)
    }
    assert not low, low
