"""The concept overlay of js/widget.js in headless Chromium, drawn from what Python syncs: the
marks on the squares Python names, each kind its own marker, the note under the board, the
setting in the settings menu, and every marker readable in the light, dark and high-contrast
themes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reversi_widget import Board, Rules
from reversi_widget.play.overlays import CONCEPTS
from reversi_widget.widget import ReversiWidget
from tests.contrast import GRAPHICS_AA, MEASURE, TEXT_AA, TEXTS
from tests.frontend.test_frontend import V1, V2, attr_map, set_traits, sq
from tests.support import play_random

pytestmark = pytest.mark.browser

#: A game of 40 plies with stable discs of both colours, three regions of either parity, legal
#: moves for both sides and discs on X- and C-squares.
GAME = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1g8f5g5a4"
#: The parts of a square's marker each kind shows (the others stay hidden).
PARTS = {
    "black": {"pip"},
    "white": {"pip"},
    "both": {"pip", "half"},
    "odd": {"frame"},
    "even": {"frame"},
    "corner": {"frame"},
    "c_square": {"frame"},
    "x_square": {"frame", "cross"},
}
#: Per square of a view: the parts of the concept marker that are painted.
PAINTED = """v => Object.fromEntries([...document.querySelectorAll(v + ' [data-square]')].map(g => {
    const parts = [...g.querySelectorAll('.rw-concept-frame, .rw-concept > *')].filter(el => {
        const st = getComputedStyle(el);
        return st.opacity !== '0' && st.display !== 'none' && st.visibility === 'visible';
    }).map(el => el.getAttribute('class').replace('rw-concept-', ''));
    return [g.dataset.square, parts.sort()];
}))"""


def synced(w: ReversiWidget, **over: Any) -> dict[str, Any]:
    """Everything the widget syncs to its views, as a fake model's traits."""
    state = {key: value for key, value in w.get_state().items() if not key.startswith("_")}
    for key in ("layout", "tabbable", "tooltip"):
        state.pop(key, None)
    return {**state, "animation": "off", "theme": "light", **over}


def drawn(page: Any, view: str) -> dict[str, str]:
    return {square: kind for square, kind in attr_map(page, view, "data-concept-mark").items() if kind is not None}


@pytest.mark.parametrize("concept", CONCEPTS[1:])
def test_the_marks_are_drawn_on_the_squares_python_names(boot: Any, concept: str) -> None:
    w = ReversiWidget(GAME, concept=concept)
    page = boot(8, **synced(w))
    assert w.concept_marks  # every concept marks something here
    for view in (V1, V2):
        assert drawn(page, view) == w.concept_marks
        painted = page.evaluate(PAINTED, view)
        for square, parts in painted.items():
            kind = w.concept_marks.get(square)
            assert set(parts) == (PARTS[kind] if kind else set()), (square, kind)
        assert page.text_content(f"{view} [data-role=concept-note]") == w.concept_note
        assert page.locator(f"{view} [data-role=concept-note]").is_visible()
    square, kind = next(iter(w.concept_marks.items()))
    label = w.strings[kind] if kind in ("black", "white") else w.strings[f"concept_kind_{kind}"]
    assert page.get_attribute(sq(V1, square), "aria-label").endswith(f", {w.strings[f'concept_{concept}']}: {label}")


def test_the_marks_follow_python_and_go_with_the_concept(boot: Any) -> None:
    w = ReversiWidget(concept="mobility")
    page = boot(8, **synced(w))
    start = {"d3": "black", "e3": "white", "c4": "black", "f4": "white", "c5": "white", "f5": "black", "d6": "white"}
    assert drawn(page, V1) == w.concept_marks == {**start, "e6": "black"}
    # a legal move keeps its dot beside the corner marker: the overlay hides nothing
    assert page.evaluate(f"getComputedStyle(document.querySelector('{sq(V1, 'd3')} .rw-dot')).opacity") == "1"
    w.play("d3")
    w.concept = "regions"
    set_traits(
        page, **{key: w.get_state()[key] for key in ("discs", "legal", "turn", "ply", "concept", "concept_marks")}
    )
    set_traits(page, concept_note=w.concept_note)
    assert drawn(page, V2) == w.concept_marks and set(w.concept_marks.values()) == {"odd"}
    assert page.text_content(f"{V2} [data-role=concept-note]") == w.concept_note
    w.concept = ""
    set_traits(page, concept="", concept_marks=w.concept_marks, concept_note=w.concept_note)
    assert drawn(page, V1) == {} and page.evaluate(PAINTED, V1)["e3"] == []
    assert page.locator(f"{V1} [data-role=concept-note]").is_hidden()
    assert page.get_attribute(sq(V1, "e3"), "aria-label") == "e3, empty, legal, flips 1"


@pytest.mark.parametrize(
    ("size", "goal", "concept", "plies"),
    [
        (6, "inverted", "corners", 0),
        (10, "classic", "potential_mobility", 12),
        (4, "inverted", "stable", None),
        (4, "classic", "corners", 0),
        (16, "classic", "regions", 40),
    ],
)
def test_every_size_and_the_inverted_goal(boot: Any, size: int, goal: str, concept: str, plies: int | None) -> None:
    board = play_random(Board(rules=Rules(size=size, goal=goal)), random.Random(size), plies)
    w = ReversiWidget(board, concept=concept)
    page = boot(size, **synced(w))
    assert drawn(page, V1) == w.concept_marks and w.concept_marks
    note = page.text_content(f"{V1} [data-role=concept-note]")
    assert note == w.concept_note and (("inverted goal" in note) == (goal == "inverted"))


def test_the_settings_menu_chooses_a_concept(boot: Any) -> None:
    w = ReversiWidget(language="pl")
    page = boot(8, **synced(w))
    select = f"{V1} select[data-setting=concept]"
    options = page.eval_on_selector_all(f"{select} option", "els => els.map(e => [e.value, e.textContent])")
    assert options == [[value, w.strings[f"concept_{value or 'off'}"]] for value in CONCEPTS]
    assert options[0] == ["", "Brak"] and options[4] == ["stable", "Stabilne pionki"]
    assert page.input_value(select) == ""
    page.select_option(select, "stable")
    assert page.evaluate("window.setCalls") == [["concept", "stable"]] and page.evaluate("window.saves") == 1
    assert page.input_value(f"{V2} select[data-setting=concept]") == "stable"  # the other view follows the model
    label = page.eval_on_selector(select, "el => el.closest('label').textContent")
    assert label.startswith(w.strings["concept"])


def test_the_note_is_text_not_markup(boot: Any) -> None:
    evil = "<img src=x onerror=alert(1)>"
    page = boot(8, concept="mobility", concept_marks={"d3": "black"}, concept_note=evil)
    assert page.text_content(f"{V1} [data-role=concept-note]") == evil
    assert page.locator(".reversi-widget img").count() == 0


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_every_concept_marker_is_readable_in_every_theme(boot: Any, theme: str) -> None:
    """Measured as painted against the board around the disc: 3:1 at least; in the high-contrast
    theme the note meets WCAG AA for text."""
    found: dict[str, float] = {}
    for concept in CONCEPTS[1:]:
        w = ReversiWidget(GAME, concept=concept)
        page = boot(8, **synced(w, theme=theme))
        measured = page.evaluate(MEASURE, V1)
        found.update({name: value for name, value in measured.items() if name.startswith("concept")})
        if theme == "high-contrast":
            texts = dict(page.evaluate(TEXTS, V1))
            assert texts[w.concept_note.strip()[:30]] >= TEXT_AA
    kinds = {f"concept {kind}" for kind in PARTS} | {"concept x_square cross"}
    assert set(found) == kinds
    low = {name: value for name, value in found.items() if value < GRAPHICS_AA}
    assert not low, low
