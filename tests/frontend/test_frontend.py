"""js/widget.js in headless Chromium against a fake model (see conftest.py and harness.html)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.conftest import CONFIG, START_ACTIONS, start_traits

pytestmark = pytest.mark.browser
JS = Path(__file__).resolve().parents[2] / "js"

V1, V2 = "#view1 .reversi-widget", "#view2 .reversi-widget"


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.sent")  # type: ignore[no-any-return]


def set_traits(page: Any, **traits: Any) -> None:
    """Set traits as an update from Python would, and return after the next frame, as it is
    shown: what waits for the frame to measure the page (the move list's scroll) has run."""
    page.evaluate(
        "t => { window.setTraits(t); return new Promise((done) => requestAnimationFrame(() => done(null))); }", traits
    )


def sq(view: str, name: str) -> str:
    return f'{view} [data-square="{name}"]'


def attr_map(page: Any, view: str, attr: str) -> dict[str, str | None]:
    return page.evaluate(  # type: ignore[no-any-return]
        """([v, a]) => Object.fromEntries([...document.querySelectorAll(v + ' [data-square]')]
            .map(g => [g.dataset.square, g.getAttribute(a)]))""",
        [view, attr],
    )


def squares_with(page: Any, view: str, selector: str) -> set[str]:
    return set(page.eval_on_selector_all(f"{view} [data-square]{selector}", "els => els.map(e => e.dataset.square)"))


def entries_with(page: Any, attr: str) -> list[str]:
    """data-ply of the move-list entries of view 1 carrying attr."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        f"{V1} [data-role=moves] [{attr}]", "els => els.map(e => e.dataset.ply)"
    )


def test_module_is_self_contained() -> None:
    src = (JS / "widget.js").read_text()
    assert not re.search(r"^\s*import\b|\bimport\s*\(|https?://(?!www\.w3\.org/2000/svg)", src, re.M)
    assert "export default" in src
    assert "innerHTML" not in src and "insertAdjacentHTML" not in src


def test_module_defines_no_texts_or_constants_of_python() -> None:
    """Labels come from `strings`, animation times and the lists of choices from `config`."""
    from reversi_widget.play.strings import ENGLISH

    src = (JS / "widget.js").read_text()
    for key in ("undo", "new_game", "practice_reveal", "busy_review", "evaluation_help", "theme_high_contrast"):
        assert f'"{ENGLISH[key]}"' not in src, key
    for constant in ("480", "180", '"high-contrast"', '"slow"', '"fast"'):
        assert constant not in src, constant


def test_initial_8x8(boot: Any) -> None:
    page = boot(8)
    discs = attr_map(page, V1, "data-disc")
    assert len(discs) == 64
    assert {k: v for k, v in discs.items() if v != "empty"} == {
        "d4": "white",
        "e4": "black",
        "d5": "black",
        "e5": "white",
    }
    assert squares_with(page, V1, "[data-legal]") == {"d3", "c4", "f5", "e6"}
    assert page.get_attribute(sq(V1, "d3"), "aria-label") == "d3, empty, legal, flips 1"
    assert page.get_attribute(sq(V1, "e4"), "aria-label") == "e4, Black"
    coords = page.eval_on_selector_all(f"{V1} .rw-coords text", "els => els.map(e => e.textContent)")
    assert set(coords) == set("abcdefgh") | {str(i) for i in range(1, 9)}
    # a1 is top-left, rows numbered downwards
    a1, h1, a8 = (page.locator(sq(V1, s)).bounding_box() for s in ("a1", "h1", "a8"))
    assert a1["x"] < h1["x"] and abs(a1["y"] - h1["y"]) < 1 and a8["y"] > a1["y"]
    assert page.get_attribute(f"{V1} .rw-player[data-color=black]", "data-turn") == ""
    assert "Black" in page.inner_text(f"{V1} .rw-player[data-color=black]")
    assert page.inner_text(f"{V1} .rw-player[data-color=white] [data-role=count]") == "2"


@pytest.mark.parametrize("n", [6, 10])
def test_other_sizes(boot: Any, legal_moves: Any, n: int) -> None:
    page = boot(n)
    discs = attr_map(page, V1, "data-disc")
    last = "abcdefghij"[n - 1] + str(n)
    assert len(discs) == n * n and last in discs
    mid = n // 2
    a, b = "abcdefghij"[mid - 1], "abcdefghij"[mid]
    assert discs[f"{a}{mid}"] == "white" and discs[f"{b}{mid}"] == "black"
    assert squares_with(page, V1, "[data-legal]") == set(legal_moves(page.evaluate("model.get('discs')"), n, "X"))
    # the board is square and fills its column
    box = page.locator(f"{V1} .rw-board").bounding_box()
    assert abs(box["width"] - box["height"]) < 1 and box["width"] > 250


def test_resize_board_live(boot: Any) -> None:
    page = boot(8)
    set_traits(page, board_size=6, discs="-" * 36, legal={})
    assert page.locator(f"{V1} [data-square]").count() == 36
    assert page.locator(f"{V2} [data-square]").count() == 36


def test_click_sends_move_without_changing_board(boot: Any) -> None:
    page = boot(8)
    page.click(sq(V1, "d3"))
    assert sent(page) == [{"kind": "move", "square": "d3", "ply": 0}]
    assert page.get_attribute(sq(V1, "d3"), "data-disc") == "empty"  # Python decides, not the view
    set_traits(page, ply=5)
    page.click(sq(V2, "f5"))
    assert sent(page)[-1] == {"kind": "move", "square": "f5", "ply": 5}


def test_click_illegal_square_also_sends(boot: Any) -> None:
    page = boot(8)
    page.click(sq(V1, "a1"))
    page.click(sq(V1, "d4"))  # occupied
    assert sent(page) == [{"kind": "move", "square": "a1", "ply": 0}, {"kind": "move", "square": "d4", "ply": 0}]


def test_a_mouse_plays_as_its_button_goes_down_once(boot: Any) -> None:
    """The press is not part of the wait: the move goes at pointerdown, its click sends nothing more;
    a click no pointer made (a keyboard's, a screen reader's) still plays, a right press does not."""
    page = boot(8)
    box = page.locator(sq(V1, "d3")).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert sent(page) == [{"kind": "move", "square": "d3", "ply": 0}]
    page.mouse.up()
    assert sent(page) == [{"kind": "move", "square": "d3", "ply": 0}]
    page.mouse.down(button="right")
    page.mouse.up(button="right")
    assert len(sent(page)) == 1
    page.eval_on_selector(sq(V1, "c4"), "g => g.dispatchEvent(new MouseEvent('click', { bubbles: true }))")
    assert sent(page)[-1] == {"kind": "move", "square": "c4", "ply": 0}
    assert len(sent(page)) == 2


def test_a_move_redraws_only_the_squares_it_changes(boot: Any) -> None:
    """One update from Python (discs, legal, last move, flips, ply, moves) writes each changed
    square's disc once, and leaves the others' untouched."""
    page = boot(8)
    page.evaluate(
        """() => { window.writes = [];
            const observer = new MutationObserver((records) => { for (const r of records)
                if (r.attributeName === 'data-disc') window.writes.push(r.target.dataset.square); });
            for (const g of document.querySelectorAll('#view1 .reversi-widget [data-square]'))
                observer.observe(g, { attributes: true });
            window.observer = observer; }"""
    )
    discs = list(start_traits(8)["discs"])
    for name in ("d3", "d4"):
        discs[(int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])] = "X"
    set_traits(page, discs="".join(discs), last_move="d3", last_flips=["d4"], ply=1, legal={"c3": ["d4"]})
    page.wait_for_timeout(50)
    assert sorted(page.evaluate("() => { window.observer.takeRecords(); return window.writes; }")) == ["d3", "d4"]


def test_hover_previews_exactly_the_flips(boot: Any, legal_moves: Any) -> None:
    discs = list("-" * 64)
    for s, d in {"a1": "X", "b1": "O", "c1": "O", "d4": "O", "e5": "O", "e4": "X", "d5": "X"}.items():
        discs[(int(s[1]) - 1) * 8 + "abcdefgh".index(s[0])] = d
    board = "".join(discs)
    legal = legal_moves(board, 8, "X")
    assert legal["d1"] == ["c1", "b1"]
    page = boot(8, discs=board, legal=legal)
    page.hover(sq(V1, "d1"))
    assert squares_with(page, V1, "[data-preview=flip]") == {"b1", "c1"}
    assert squares_with(page, V1, "[data-preview=place]") == {"d1"}
    assert squares_with(page, V2, "[data-preview]") == set()  # hover is per view
    page.hover(sq(V1, "h8"))  # not legal: nothing previewed
    assert squares_with(page, V1, "[data-preview]") == set()
    set_traits(page, show_flips=False)
    page.hover(sq(V1, "d1"))
    assert squares_with(page, V1, "[data-preview]") == set()


def test_show_legal_off(boot: Any) -> None:
    page = boot(8)
    set_traits(page, show_legal=False)
    assert squares_with(page, V1, "[data-legal]") == set()
    assert squares_with(page, V2, "[data-legal]") == set()
    assert "legal" not in page.get_attribute(sq(V1, "d3"), "aria-label")
    set_traits(page, show_legal=True)
    assert squares_with(page, V1, "[data-legal]") == {"d3", "c4", "f5", "e6"}


AFTER_D3 = dict(
    discs="-" * 19 + "X" + "-" * 7 + "XX" + "-" * 6 + "XO" + "-" * 27,
    ply=1,
    turn="white",
    last_move="d3",
    last_flips=["d4"],
    moves=["d3"],
)
# One update's traits, then the redraw they share (it runs as a microtask after their change events).
SET_AND_REDRAW = "window.setTraits(t); await Promise.resolve();"
SNAPSHOT = """v => ['d3', 'd4', 'e5'].map(s => {
    const g = document.querySelector(v + ` [data-square="${s}"]`);
    return [g.dataset.disc, g.dataset.anim || null, g.style.getPropertyValue('--rw-delay'),
            getComputedStyle(g.querySelector('.rw-disc-base')).fill];
})"""


def test_discs_change_at_once_animation_is_visual(boot: Any) -> None:
    page = boot(8, animation="normal", show_coordinates=False)
    set_traits(page, show_coordinates=True)  # a rebuilt board still animates the next move
    snap = page.evaluate(f"async t => {{ {SET_AND_REDRAW} return ({SNAPSHOT})('{V1}'); }}", AFTER_D3)
    (d3, d4, e5) = snap
    assert d3[:3] == ["black", "place", "0ms"]
    assert d4[:3] == ["black", "flip", "300ms"]  # flipped after the placed disc, in sequence
    assert e5[:2] == ["white", None]
    white, black = page.evaluate(
        f"""['e5', 'e4'].map(s =>
            getComputedStyle(document.querySelector(`{V1} [data-square="${{s}}"] .rw-disc-base`)).fill)"""
    )
    assert d4[3] == white  # already black in the DOM, still painted white while it waits its turn
    # Seek the paused CSS animations: d4 (delay 300, 300 ms) turns colour halfway through its flip.
    seek = f"""t => {{
        const g = document.querySelector('{sq(V1, "d4")}'), d3 = document.querySelector('{sq(V1, "d3")}');
        for (const a of g.getAnimations({{subtree: true}}).concat(d3.getAnimations({{subtree: true}}))) {{
            a.pause(); a.currentTime = t; }}
        const shown = el => getComputedStyle(el).visibility === 'visible' && getComputedStyle(el).opacity !== '0';
        return [getComputedStyle(g.querySelector('.rw-disc-base')).fill,
                getComputedStyle(g.querySelector('.rw-disc')).transform,
                shown(g.querySelector('.rw-ring')), shown(d3.querySelector('.rw-ring')),
                shown(d3.querySelector('.rw-last'))];
    }}"""
    fill, transform, ring, d3_ring, d3_last = page.evaluate(seek, 375)
    assert fill == white and transform != "none" and not ring  # first half: old colour, narrowing
    fill, _, ring, d3_ring, d3_last = page.evaluate(seek, 525)
    assert fill == black and not ring and not d3_ring and d3_last  # second half: new colour
    ring = page.evaluate(seek, 620)[2]
    assert ring  # the "flipped" ring once the flip is over; never on the placed disc
    page.evaluate("document.getAnimations().forEach(a => a.play())")
    page.wait_for_function(f"!document.querySelector('{V1} [data-anim]')", timeout=3000)
    assert page.get_attribute(sq(V1, "d4"), "data-disc") == "black"


def test_no_animation_when_off_or_reduced_motion(boot: Any) -> None:
    page = boot(8, animation="off")
    snap = page.evaluate(f"async t => {{ {SET_AND_REDRAW} return ({SNAPSHOT})('{V1}'); }}", AFTER_D3)
    assert [s[:2] for s in snap] == [["black", None], ["black", None], ["white", None]]
    assert page.locator("[data-anim], .rw-anim").count() == 0
    page.emulate_media(reduced_motion="reduce")
    set_traits(page, animation="fast", discs=str(AFTER_D3["discs"]).replace("O", "X"))
    assert page.locator("[data-anim], .rw-anim").count() == 0


def test_keyboard(boot: Any) -> None:
    page = boot(8, ply=2)
    page.focus(f"{V1} .rw-board")
    page.keyboard.press("ArrowUp")  # cursor starts on d4
    assert page.get_attribute(f"{V1} .rw-board", "aria-activedescendant").endswith("-d3")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    page.keyboard.type("f5")
    page.keyboard.press("Enter")
    page.keyboard.press("u")
    page.keyboard.press("r")
    assert sent(page) == [
        {"kind": "move", "square": "d3", "ply": 2},
        {"kind": "move", "square": "b3", "ply": 2},
        {"kind": "move", "square": "f5", "ply": 2},
        {"kind": "undo", "ply": 2},
        {"kind": "redo", "ply": 2},
    ]
    assert page.is_visible(f"{V1} .rw-cursor")
    assert not page.is_visible(f"{V2} .rw-cursor")
    # the keyboard cursor on a legal square previews its flips too
    assert squares_with(page, V1, "[data-preview=flip]") == {"e5"}


def test_status_thinking_result(boot: Any) -> None:
    page = boot(8)
    status = page.locator(f"{V1} [data-role=status]")
    assert status.get_attribute("aria-live") == "polite"
    assert status.inner_text() == "Black to move"
    assert not page.is_visible(f"{V1} [data-role=thinking]")
    assert not page.is_visible(f"{V1} [data-role=result]")
    set_traits(page, status="White is thinking…", thinking=True)
    assert page.inner_text(f"{V2} [data-role=status]") == "White is thinking…"
    assert page.is_visible(f"{V1} [data-role=thinking]")
    assert page.inner_text(f"{V1} .rw-statusbar") == "White is thinking…"  # said once: the spinner has no words
    set_traits(page, thinking=False, game_over=True, turn="", result="Black wins 40–24", status="Game over")
    assert page.inner_text(f"{V1} [data-role=result]") == "Black wins 40–24"
    assert not page.is_visible(f"{V1} [data-role=thinking]")


def test_notice_reshown_on_new_id(boot: Any) -> None:
    page = boot(8)
    notice = f"{V1} [data-role=notice]"
    assert not page.is_visible(notice)
    set_traits(page, notice="a1 is not a legal move", notice_kind="error", notice_id=1)
    assert page.is_visible(notice) and page.get_attribute(notice, "data-kind") == "error"
    assert page.inner_text(notice).startswith("a1 is not a legal move")
    page.click(f"{notice} .rw-dismiss")
    assert not page.is_visible(notice)
    set_traits(page, notice_id=2)  # same text again is still news
    assert page.is_visible(notice)
    set_traits(page, notice="White passes", notice_kind="pass", notice_id=3)
    assert page.get_attribute(notice, "data-kind") == "pass"
    colours = page.evaluate(
        f"""() => {{ const n = document.querySelector('{notice}'); const a = getComputedStyle(n).borderLeftColor;
        window.setTraits({{notice_kind: 'error'}}); return [a, getComputedStyle(n).borderLeftColor]; }}"""
    )
    assert colours[0] != colours[1]
    set_traits(page, notice="", notice_id=4)
    assert not page.is_visible(notice)


MOVES = ["d3", "c5", "f6", "pass", "e6"]


def test_move_list_and_jump(boot: Any) -> None:
    page = boot(8, moves=MOVES, ply=3, actions={"undo": "enabled", "redo": "enabled", "new": "enabled"})
    text = " ".join(page.inner_text(f"{V1} [data-role=moves]").split())
    assert text == "1. d3 c5 2. f6 pass 3. e6"
    entries = page.locator(f"{V1} [data-role=moves] [data-ply]")
    assert [entries.nth(i).get_attribute("data-ply") for i in range(5)] == ["1", "2", "3", "4", "5"]
    assert entries_with(page, "data-future") == ["4", "5"]
    assert entries_with(page, "aria-current") == ["3"]
    faded = page.evaluate(f"getComputedStyle(document.querySelector('{V1} [data-ply=\"5\"]')).opacity")
    assert float(faded) < 1
    page.click(f"{V1} [data-role=moves] [data-ply='2']")
    assert sent(page) == [{"kind": "jump", "to": 2, "ply": 3}]
    set_traits(page, ply=2)
    assert entries_with(page, "aria-current") == ["2"]
    assert page.inner_text(f"{V2} .rw-move-count") == "2 / 5"


def test_replay_slider(boot: Any) -> None:
    page = boot(8, moves=MOVES, ply=3)
    slider = f"{V1} input[data-role=replay]"
    assert page.get_attribute(slider, "max") == "5" and page.input_value(slider) == "3"
    page.fill(slider, "1")
    assert sent(page) == [{"kind": "jump", "to": 1, "ply": 3}]
    # while that jump is unanswered, further drags are coalesced, then sent with the fresh ply
    page.fill(slider, "0")
    page.fill(slider, "4")
    assert len(sent(page)) == 1
    set_traits(page, ply=1)
    assert sent(page)[1:] == [{"kind": "jump", "to": 4, "ply": 1}]
    set_traits(page, ply=4)
    assert page.input_value(f"{V2} input[data-role=replay]") == "4"


def test_both_views_follow_the_model(boot: Any) -> None:
    page = boot(8)
    set_traits(page, **AFTER_D3, legal={"c3": ["d4"]}, counts={"black": 4, "white": 1})
    for view in (V1, V2):
        assert page.get_attribute(sq(view, "d3"), "data-disc") == "black"
        assert page.get_attribute(sq(view, "d3"), "data-last") == ""
        assert page.get_attribute(sq(view, "d4"), "data-flipped") == ""
        assert squares_with(page, view, "[data-legal]") == {"c3"}
        assert page.inner_text(f"{view} .rw-player[data-color=black] [data-role=count]") == "4"
        assert page.get_attribute(f"{view} .rw-player[data-color=white]", "data-turn") == ""
    assert "last move" in page.get_attribute(sq(V1, "d3"), "aria-label")


def test_themes(boot: Any) -> None:
    page = boot(8)
    seen = {}
    for theme in ("light", "dark", "high-contrast", "auto"):
        set_traits(page, theme=theme)
        assert page.get_attribute(V1, "data-theme") == theme
        assert page.input_value(f"{V2} select[data-setting=theme]") == theme
        seen[theme] = page.evaluate(
            f"""() => [getComputedStyle(document.querySelector('{V1}')).backgroundColor,
                       getComputedStyle(document.querySelector('{V1} .rw-field')).fill,
                       getComputedStyle(document.querySelector('{V1} .rw-grid')).stroke]"""
        )
    assert len({v[0] for v in seen.values() if v is not seen["auto"]}) == 3  # backgrounds differ
    assert len({v[1] for v in seen.values()}) >= 3  # board green, darker green, black
    assert seen["high-contrast"][:3] == ["rgb(0, 0, 0)", "rgb(0, 0, 0)", "rgb(255, 255, 0)"]
    assert seen["auto"][0] == "rgb(255, 255, 255)"  # no JupyterLab variables: light fallbacks


def test_player_names_are_text_not_markup(boot: Any) -> None:
    evil = "<img src=x onerror=alert(1)>"
    page = boot(8, players={"black": evil, "white": "<script>alert(2)</script>"}, status=evil, marks={"a1": "<b>"})
    set_traits(page, notice=evil, notice_id=1, strings={"undo": evil})
    assert page.inner_text(f"{V1} .rw-player[data-color=black] .rw-name") == evil
    assert page.inner_text(f"{V1} [data-role=status]") == evil
    assert page.inner_text(f"{V1} [data-action=undo]") == evil
    assert page.text_content(f"{V1} [data-square=a1] .rw-mark") == "<b>"
    assert page.locator("img, .reversi-widget script, .reversi-widget b").count() == 0
    page.wait_for_timeout(50)  # an injected onerror would have fired by now (the fixture fails on dialogs)


def test_annotations(boot: Any) -> None:
    page = boot(
        8,
        fill={"a1": "rgb(255, 0, 0)", "b2": "not a colour"},
        marks={"c4": "+3", "d4": "12"},
        arrows=[["a1", "h8"], ["zz", "a2"]],
    )
    fill = page.evaluate(f"getComputedStyle(document.querySelectorAll('{V1} .rw-fill')[0]).fill")
    assert fill == "rgb(255, 0, 0)"
    assert page.text_content(f"{V1} [data-square=c4] .rw-mark") == "+3"
    assert "+3" in page.get_attribute(sq(V1, "c4"), "aria-label")
    # marks on a white disc are drawn dark, on the board light
    mark_fill = "s => getComputedStyle(document.querySelector(s + ' .rw-mark')).fill"
    dark, light = (page.evaluate(mark_fill, sq(V1, s)) for s in ("d4", "c4"))
    assert dark != light
    set_traits(page, marks={"c4": "+3", "d4": "12", "a8": "123456789012"})
    long_mark, cell = page.locator(f"{sq(V1, 'a8')} .rw-mark").bounding_box(), page.locator(sq(V1, "a8")).bounding_box()
    assert long_mark["width"] <= cell["width"]  # squeezed into its square
    arrows = page.locator(f"{V1} .rw-arrow")
    assert arrows.count() == 1 and arrows.get_attribute("data-from") == "a1" and arrows.get_attribute("data-to") == "h8"
    assert arrows.get_attribute("marker-end").startswith("url(#")
    box = arrows.bounding_box()
    a1, h8 = page.locator(sq(V1, "a1")).bounding_box(), page.locator(sq(V1, "h8")).bounding_box()
    assert a1["x"] < box["x"] < a1["x"] + a1["width"] and box["x"] + box["width"] < h8["x"] + h8["width"]
    set_traits(page, fill={}, marks={}, arrows=[])
    assert page.locator(f"{V1} .rw-arrow").count() == 0
    assert page.text_content(f"{V1} [data-square=c4] .rw-mark") == ""


def test_buttons_follow_pythons_actions(boot: Any) -> None:
    """Python's ``actions`` decides: a button left out is hidden, "disabled" is disabled,
    "primary" is the one drawn as the step to take."""
    page = boot(8, ply=4)

    def shown(v: str) -> list[str]:
        return list(
            page.eval_on_selector_all(
                f"{v} .rw-actions [data-action]",
                "els => els.filter(e => !e.hidden).map(e => e.dataset.action + (e.disabled ? '-' : '')"
                " + (e.hasAttribute('data-primary') ? '*' : ''))",
            )
        )

    assert shown(V1) == ["undo-", "redo-", "new", "hint"]  # a new game between two people
    set_traits(
        page, actions={"undo": "enabled", "redo": "disabled", "new": "enabled", "pass": "primary", "hint": "disabled"}
    )
    assert shown(V2) == ["undo", "redo-", "pass*", "new", "hint-"]
    for action in ("undo", "pass", "new"):
        page.click(f"{V1} [data-action={action}]")
    assert sent(page) == [{"kind": "undo", "ply": 4}, {"kind": "pass", "ply": 4}, {"kind": "new_game", "ply": 4}]
    set_traits(page, actions={"undo": "enabled", "redo": "disabled", "new": "enabled", "review": "primary"})
    assert shown(V1) == ["undo", "redo-", "new", "review*"]  # the game is over: look back at it
    primary, plain = (
        page.evaluate(f"getComputedStyle(document.querySelector('{V1} [data-action={a}]')).backgroundColor")
        for a in ("review", "new")
    )
    assert primary != plain


def test_settings_write_traits(boot: Any) -> None:
    page = boot(8, animation="normal")
    page.uncheck(f"{V1} input[data-setting=show_legal]")
    page.uncheck(f"{V1} input[data-setting=show_coordinates]")
    page.select_option(f"{V1} select[data-setting=animation]", "slow")
    page.select_option(f"{V1} select[data-setting=theme]", "dark")
    page.uncheck(f"{V1} input[data-setting=show_flips]")
    assert page.evaluate("window.setCalls") == [
        ["show_legal", False],
        ["show_coordinates", False],
        ["animation", "slow"],
        ["theme", "dark"],
        ["show_flips", False],
    ]
    assert page.evaluate("window.saves") == 5
    assert sent(page) == []  # settings are traits, not intents
    # the other view follows the model
    assert not page.is_checked(f"{V2} input[data-setting=show_legal]")
    assert page.input_value(f"{V2} select[data-setting=animation]") == "slow"
    assert page.get_attribute(V2, "data-theme") == "dark"
    assert squares_with(page, V2, "[data-legal]") == set()
    assert page.locator(f"{V2} .rw-coords").count() == 0


def test_strings_supply_and_size(boot: Any) -> None:
    page = boot(8, supply={"black": 30, "white": 30}, size=320)
    assert page.inner_text(f"{V1} .rw-player[data-color=white] [data-role=supply]") == "30 left"
    assert abs(page.locator(f"{V1} .rw-board").bounding_box()["width"] - 320) < 1
    german = {"black": "Schwarz", "undo": "Zurück", "legal": "legal", "flips": "dreht", "supply": "übrig"}
    set_traits(page, strings=german)
    assert page.get_attribute(sq(V1, "e4"), "aria-label") == "e4, Schwarz"
    assert page.get_attribute(sq(V1, "d3"), "aria-label") == "d3, empty, legal, dreht 1"
    assert page.inner_text(f"{V2} [data-action=undo]") == "Zurück"
    assert page.inner_text(f"{V2} .rw-player[data-color=black] .rw-color") == "Schwarz"
    assert page.inner_text(f"{V1} .rw-player[data-color=black] [data-role=supply]") == "30 übrig"
    set_traits(page, size=None, supply={})
    assert 300 < page.locator(f"{V1} .rw-board").bounding_box()["width"] <= 480
    assert not page.is_visible(f"{V1} [data-role=supply]")


def test_cleanup_removes_listeners(boot: Any) -> None:
    page = boot(8)
    assert page.evaluate("window.handlerCount()") > 0
    page.evaluate("window.cleanups[0]()")
    assert page.locator(V1).count() == 0 and page.locator(V2).count() == 1
    page.evaluate("window.cleanups[1]()")
    assert page.evaluate("window.handlerCount()") == 0
    set_traits(page, discs="-" * 64)  # no listener left to throw on a removed view


# -- teaching: show me, practice, languages --------------------------------------------------------


def _discs_of(board: Any) -> str:
    black, white = board.bitboards()
    return "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(64))


def _after(transcript: str, move: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Traits before and after ``move`` is played from ``transcript``, as Python syncs them."""
    from reversi_widget import Board

    board = Board.from_transcript(transcript)
    before: dict[str, Any] = {"discs": _discs_of(board), "ply": board.ply, "moves": transcript_moves(transcript)}
    board.push(move)
    after = {
        "discs": _discs_of(board),
        "ply": board.ply,
        "moves": [*before["moves"], move],
        "last_move": move,
        "turn": "black" if board.turn else "white",
    }
    return before, after


def transcript_moves(transcript: str) -> list[str]:
    return [transcript[i : i + 2] for i in range(0, len(transcript), 2)]


DEMO_LOG = """v => {
    const root = document.querySelector(v);
    window.demoLog = [];
    const snap = () => {
        const of = a => [...root.querySelectorAll('[' + a + ']')]
            .map(g => g.dataset.square + '=' + g.getAttribute(a)).sort().join(' ');
        const entry = [root.getAttribute('data-demo'), of('data-demo-line'), of('data-demo-closer')];
        const last = window.demoLog[window.demoLog.length - 1];
        if (!last || JSON.stringify(last) !== JSON.stringify(entry)) window.demoLog.push(entry);
    };
    window.demoObserver = new MutationObserver(snap);
    window.demoObserver.observe(root, {subtree: true, attributes: true,
        attributeFilter: ['data-demo', 'data-demo-line', 'data-demo-closer']});
}"""
D6_DEMO = {"id": 7, "ply": 6, "move": "d6", "color": "white", "lines": [["d5", "d4"], ["e5", "f4"], ["e6", "f6"]]}


def test_show_me_lights_each_line_in_turn_then_flips(boot: Any) -> None:
    before, after = _after("f5f6e6f4e3", "d6")
    page = boot(8, **before, show_me=True, animation="fast", turn="white")
    page.evaluate(DEMO_LOG, V1)
    state = page.evaluate(
        f"""async t => {{ {SET_AND_REDRAW}
            const g = s => document.querySelector('{V1} [data-square="' + s + '"]');
            return [g('d5').dataset.disc, g('d5').getAttribute('data-demo-hold'),
                    getComputedStyle(g('d5').querySelector('.rw-disc-base')).fill,
                    getComputedStyle(g('e3').querySelector('.rw-disc-base')).fill]; }}""",
        {**after, "demo": D6_DEMO},
    )
    disc, hold, d5_fill, black_fill = state
    assert disc == "white" and hold == "black"  # data-disc is final at once; the picture waits
    assert d5_fill == black_fill  # still painted black until its flip
    page.wait_for_function(f"!document.querySelector('{V1}').hasAttribute('data-demo')", timeout=5000)
    page.evaluate("window.demoObserver.disconnect()")
    log = page.evaluate("window.demoLog")
    assert log == [
        ["place", "", ""],
        ["line-0", "d5=0", "d4=0"],
        ["line-1", "e5=1", "f4=1"],
        ["line-2", "e6=2", "f6=2"],
        ["flip", "", ""],
        [None, "", ""],
    ]
    assert page.locator(f"{V1} [data-demo-hold], {V1} [data-anim]").count() == 0
    assert page.get_attribute(sq(V1, "d5"), "data-disc") == "white"
    # the other view walked through it too, and a demo is played once only
    assert page.locator(f"{V2} [data-demo-line]").count() == 0
    set_traits(page, demo=dict(D6_DEMO))
    assert page.get_attribute(V1, "data-demo") is None


def test_show_me_with_animation_off_shows_every_line_at_once(boot: Any) -> None:
    before, after = _after("f5f6e6f4e3", "d6")
    page = boot(8, **before, show_me=True, animation="off", turn="white")
    set_traits(page, **after, demo=D6_DEMO)
    assert page.get_attribute(V1, "data-demo") == "final"
    assert squares_with(page, V1, "[data-demo-line]") == {"d5", "e5", "e6"}
    assert squares_with(page, V1, "[data-demo-closer]") == {"d4", "f4", "f6"}
    assert page.locator(f"{V1} [data-anim], {V1} [data-demo-hold]").count() == 0
    # lit squares are painted differently from the board
    lit, plain = (
        page.evaluate(f"getComputedStyle(document.querySelector('{sq(V1, s)} .rw-cell')).fill") for s in ("d5", "a1")
    )
    assert lit != plain
    _, next_move = _after("f5f6e6f4e3d6", "c5")
    set_traits(page, **next_move)  # the next change clears the picture
    assert page.locator(f"{V1} [data-demo-line], {V1} [data-demo-closer]").count() == 0


def test_show_me_ignores_a_demo_for_another_position_and_survives_forced_passes(boot: Any) -> None:
    before, after = _after("f5f6e6f4e3", "d6")
    page = boot(8, **before, show_me=True, animation="off")
    set_traits(page, **after, demo={**D6_DEMO, "ply": 5})  # not this position: ignored
    assert page.locator(f"{V1} [data-demo-line]").count() == 0
    passed = {**after, "ply": 7, "moves": [*after["moves"], "pass"]}
    set_traits(page, **passed, demo={**D6_DEMO, "id": 8})  # after a forced pass: still shown
    assert squares_with(page, V1, "[data-demo-line]") == {"d5", "e5", "e6"}
    set_traits(page, show_me=False, demo={**D6_DEMO, "id": 9})
    assert page.locator(f"{V1} [data-demo-line]").count() == 0


PRACTICE = {
    "practice": True,
    "practice_move": "d3",
    "practice_flips": ["e5"],
    "discs": "-" * 19 + "X" + "-" * 7 + "OX" + "-" * 6 + "XX" + "-" * 27,  # d3 placed, e5 turned
    "legal": {},
    "can_undo": True,
    "counts": {"black": 4, "white": 1},
    # as Python sends them while a practice disc waits (tests/test_widget_buttons.py)
    "actions": {
        "undo": "enabled",
        "redo": "disabled",
        "new": "enabled",
        "hint": "disabled",
        "practice_done": "primary",
        "practice_reveal": "enabled",
    },
}


def test_practice_clicks_marks_and_buttons(boot: Any) -> None:
    page = boot(8, practice=True, practice_mistakes=3, practice_moves=4)
    actions = f"{V1} [data-role=practice-actions]"
    assert not page.is_visible(actions)
    assert page.inner_text(f"{V1} [data-role=practice-tally]").split() == ["Mistakes:", "3", "Practice", "moves:", "4"]
    page.click(sq(V1, "d3"))
    assert sent(page) == [{"kind": "move", "square": "d3", "ply": 0}]
    set_traits(page, **PRACTICE)
    assert page.is_visible(actions) and page.is_visible(f"{V2} [data-role=practice-actions]")
    # Done is the step to take; Pass does not apply while the disc waits
    assert page.get_attribute(f"{V1} [data-action=practice_done]", "data-primary") == ""
    assert page.get_attribute(f"{V1} [data-action=practice_reveal]", "data-primary") is None
    assert not page.is_visible(f"{V1} [data-action=pass]") and page.locator(f"{V1} [data-primary]:visible").count() == 1
    assert page.get_attribute(V1, "data-practice-pending") == ""
    assert squares_with(page, V1, '[data-practice="placed"]') == {"d3"}
    assert squares_with(page, V1, '[data-practice="flipped"]') == {"e5"}
    assert squares_with(page, V1, "[data-practice-mark]") == set()
    page.click(sq(V1, "e5"))  # now a click turns a disc back
    page.click(f"{V1} [data-action=practice_done]")
    set_traits(
        page, practice_wrong=["e5"], practice_missed=["d4"], notice="Not yet", notice_kind="explain", notice_id=1
    )
    assert squares_with(page, V1, '[data-practice-mark="wrong"]') == {"e5"}
    assert squares_with(page, V2, '[data-practice-mark="missed"]') == {"d4"}
    assert "should not flip" in page.get_attribute(sq(V1, "e5"), "aria-label")
    assert "should flip" in page.get_attribute(sq(V1, "d4"), "aria-label")
    strokes = [
        page.evaluate(f"getComputedStyle(document.querySelector('{sq(V1, s)} .rw-cell')).stroke") for s in ("e5", "d4")
    ]
    assert strokes[0] != strokes[1] and "none" not in strokes
    page.focus(f"{V1} .rw-board")
    page.keyboard.press("ArrowUp")  # from e5, where the click left the cursor, to d4
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # the keyboard turns discs too
    page.click(f"{V2} [data-action=practice_reveal]")
    assert sent(page)[1:] == [
        {"kind": "practice_flip", "square": "e5", "ply": 0},
        {"kind": "practice_done", "ply": 0},
        {"kind": "practice_flip", "square": "d4", "ply": 0},
        {"kind": "practice_reveal", "ply": 0},
    ]
    assert page.get_attribute(f"{V1} [data-role=notice]", "data-kind") == "explain"
    set_traits(page, practice_move="", practice_flips=[], practice_wrong=[], practice_missed=[], practice_moves=5)
    assert not page.is_visible(actions)
    assert page.locator(f"{V1} [data-practice], {V1} [data-practice-mark]").count() == 0
    assert page.inner_text(f"{V1} [data-role=practice-moves]") == "5"


def test_show_me_and_practice_toggles_write_traits(boot: Any) -> None:
    page = boot(8)
    assert not page.is_checked(f"{V1} input[data-setting=show_me]")
    page.check(f"{V1} input[data-setting=show_me]")
    page.check(f"{V1} input[data-setting=practice]")
    assert page.evaluate("window.setCalls") == [["show_me", True], ["practice", True]]
    assert page.is_checked(f"{V2} input[data-setting=practice]")
    assert page.is_visible(f"{V2} [data-role=practice-tally]")


@pytest.mark.parametrize("language", ["pl", "uk", "ca"])
def test_labels_in_every_language(boot: Any, language: str) -> None:
    from reversi_widget.i18n import translate
    from reversi_widget.widget import ReversiWidget

    strings = ReversiWidget(language=language).strings  # what Python sends, aids included
    labels = {
        "black": translate("count_discs", language, count=2),
        "white": translate("count_discs", language, count=5),
    }
    page = boot(8, strings=strings, language=language, count_labels=labels, counts={"black": 2, "white": 5})
    assert page.get_attribute(V1, "lang") == language
    assert page.inner_text(f"{V1} [data-action=undo]") == strings["undo"]
    assert page.inner_text(f"{V2} .rw-player[data-color=black] .rw-color") == strings["black"]
    toggles = page.eval_on_selector_all(f"{V1} .rw-toggle span", "els => els.map(e => e.textContent)")
    assert strings["show_me"] in toggles and strings["practice"] in toggles
    assert page.inner_text(f"{V1} [data-action=practice_done]") == strings["practice_done"]
    assert page.inner_text(f"{V1} [data-action=hint]") == strings["hint"]
    assert strings["show_scores"] in toggles
    card = page.get_attribute(f"{V1} .rw-player[data-color=black]", "aria-label")
    assert labels["black"] in card and "discs" not in card
    words = {"pl": ("2 pionki", "5 pionków"), "uk": ("2 фішки", "5 фішок"), "ca": ("2 peces", "5 peces")}[language]
    assert (labels["black"], labels["white"]) == words
    # every label the view draws is from the table: no English default is left
    english = ReversiWidget().strings
    shown = page.evaluate(f"document.querySelector('{V1}').innerText")
    for key in ("undo", "redo", "new_game", "moves", "show_legal", "practice_mistakes", "theme", "hint", "show_scores"):
        if english[key] != strings[key]:
            assert english[key] not in shown, key


# -- analysis aids: hint, scores, review, pause, progress -------------------------------------------


def shown(page: Any, selector: str) -> bool:
    """The element is painted: visible, and neither it nor its styles hide it."""
    return page.evaluate(  # type: ignore[no-any-return]
        """s => { const el = document.querySelector(s); if (!el) return false;
            const st = getComputedStyle(el);
            return st.visibility === 'visible' && st.opacity !== '0' && st.display !== 'none'; }""",
        selector,
    )


def test_hint_button_sends_the_intent_and_the_ring_marks_the_hinted_squares(boot: Any) -> None:
    page = boot(8, ply=3)
    assert page.is_enabled(f"{V1} [data-action=hint]") and page.inner_text(f"{V1} [data-action=hint]") == "Hint"
    page.click(f"{V1} [data-action=hint]")
    assert sent(page) == [{"kind": "hint", "ply": 3}]
    assert squares_with(page, V1, "[data-hint]") == set()
    assert not shown(page, f"{sq(V1, 'd3')} .rw-hint-ring")
    set_traits(page, hints=["d3", "f5"])
    assert squares_with(page, V1, "[data-hint]") == squares_with(page, V2, "[data-hint]") == {"d3", "f5"}
    assert shown(page, f"{sq(V1, 'd3')} .rw-hint-ring") and not shown(page, f"{sq(V1, 'c4')} .rw-hint-ring")
    assert page.get_attribute(sq(V1, "d3"), "aria-label") == "d3, empty, legal, flips 1, hint: best move"
    set_traits(page, hints=[])  # the position moved on
    assert squares_with(page, V1, "[data-hint]") == set()
    set_traits(page, legal={}, actions={**START_ACTIONS, "hint": "disabled"})  # a computer's turn
    assert page.is_disabled(f"{V2} [data-action=hint]")


SCORES = {"f5": "W+6", "d3": "+4", "e6": "D", "c4": "L-2"}  # as Python sends them: best first


def test_score_overlay_writes_each_score_and_the_toggle_hides_it(boot: Any) -> None:
    page = boot(8)
    assert not page.is_checked(f"{V1} input[data-setting=show_scores]")
    page.check(f"{V1} input[data-setting=show_scores]")
    assert page.evaluate("window.setCalls") == [["show_scores", True]]
    assert page.is_checked(f"{V2} input[data-setting=show_scores]") and sent(page) == []
    set_traits(page, scores=SCORES)
    texts = page.evaluate(
        f"""() => Object.fromEntries([...document.querySelectorAll('{V1} [data-square]')]
            .map(g => [g.dataset.square, g.querySelector('.rw-eval').textContent]).filter(([, t]) => t))"""
    )
    assert texts == SCORES
    assert attr_map(page, V2, "data-score") == {name: SCORES.get(name) for name in attr_map(page, V2, "data-score")}
    assert squares_with(page, V1, "[data-score-best]") == {"f5"}
    assert shown(page, f"{sq(V1, 'd3')} .rw-eval") and not shown(page, f"{sq(V1, 'd3')} .rw-dot")
    fills = {s: page.evaluate(f"getComputedStyle(document.querySelector('{sq(V1, s)} .rw-eval')).fill") for s in SCORES}
    assert fills["f5"] != fills["d3"] == fills["c4"]  # the best score stands out
    assert page.get_attribute(sq(V1, "c4"), "aria-label") == "c4, empty, legal, flips 1, score L-2"
    page.uncheck(f"{V2} input[data-setting=show_scores]")
    set_traits(page, scores={})  # Python clears the overlay when it is switched off
    assert page.evaluate("window.setCalls")[-1] == ["show_scores", False]
    assert squares_with(page, V1, "[data-score]") == set()
    assert page.text_content(f"{sq(V1, 'f5')} .rw-eval") == "" and shown(page, f"{sq(V1, 'd3')} .rw-dot")


REVIEWED_MOVES = ["f5", "d6", "c3", "d3", "c4", "pass"]
REVIEW = [  # as Python sends them (play/view.py review_entry), in English
    {"ply": 1, "move": "f5", "best": "f5", "loss": 0.0, "mark": "", "exact": False, "bound": True,
     "note": "best move (a proven win, by at least 4 discs)", "forced": False},
    {"ply": 2, "move": "d6", "best": "f6", "loss": 2.5, "mark": "?!", "exact": False, "bound": False,
     "note": "best: f6, lost about 3 discs (estimate)", "forced": False},
    {"ply": 3, "move": "c3", "best": "d3", "loss": 6.0, "mark": "?", "exact": True, "bound": False,
     "note": "best: d3, lost 6 discs (exact)", "forced": False},
    {"ply": 4, "move": "d3", "best": "c4", "loss": 14.0, "mark": "??", "exact": True, "bound": False,
     "note": "best: c4, lost 14 discs (exact)", "forced": False},
    {"ply": 5, "move": "c4", "best": "c4", "loss": 0.0, "mark": "", "exact": True, "bound": False,
     "note": "best move (exact)", "forced": False},
    {"ply": 6, "move": "pass", "best": "pass", "loss": 0.0, "mark": "", "exact": True, "bound": False,
     "note": "forced", "forced": True},
]  # fmt: skip
EVALUATIONS = [0.0, -0.5, 2.0, -4.0, 10.0, 10.0, 10.0]


def test_review_button_marks_in_the_move_list_and_chart(boot: Any) -> None:
    page = boot(8, moves=REVIEWED_MOVES, ply=6, turn="", legal={}, game_over=True)
    assert not page.is_visible(f"{V1} [data-action=review]") and not page.is_visible(f"{V1} [data-role=review]")
    set_traits(page, actions={**START_ACTIONS, "review": "primary"})
    page.click(f"{V2} [data-action=review]")
    assert sent(page) == [{"kind": "review", "ply": 6}]
    set_traits(page, busy="review", progress=0.4)
    assert page.is_visible(f"{V1} [data-role=progress]") and page.get_attribute(V1, "data-busy") == "review"
    assert page.inner_text(f"{V1} [data-role=progress]") == "Reviewing the game…"
    assert page.evaluate(f"document.querySelector('{V1} [data-role=progress] progress').value") == 0.4
    set_traits(page, busy="", progress=0.0, review_moves=REVIEW, evaluations=EVALUATIONS)
    assert not page.is_visible(f"{V1} [data-role=progress]") and page.get_attribute(V1, "data-busy") is None
    loss = page.eval_on_selector_all(
        f"{V1} [data-role=moves] [data-ply]",
        """els => els.map(e => [e.dataset.ply, e.dataset.loss ?? null, e.dataset.mark ?? null,
            e.dataset.certainty ?? null, e.title, e.innerText])""",
    )
    assert loss == [
        ["1", "0", None, "bound", "best move (a proven win, by at least 4 discs)", "f5"],
        ["2", "2.5", "?!", "estimate", "best: f6, lost about 3 discs (estimate)", "d6?!"],
        ["3", "6", "?", "exact", "best: d3, lost 6 discs (exact)", "c3?"],
        ["4", "14", "??", "exact", "best: c4, lost 14 discs (exact)", "d3??"],
        ["5", "0", None, "exact", "best move (exact)", "c4"],
        ["6", None, None, None, "forced", "pass"],
    ]
    assert page.get_attribute(f"{V2} [data-role=moves] [data-ply='3']", "aria-label") == (
        "c3, best: d3, lost 6 discs (exact)"
    )
    assert page.get_attribute(f"{V2} [data-role=moves] [data-ply='2']", "data-certainty") == "estimate"
    # the chart: one point per position, the line through them, a marker on the shown ply
    chart = f"{V1} [data-role=review-chart]"
    assert page.is_visible(chart) and page.is_visible(f"{V2} [data-role=review-chart]")
    points = page.eval_on_selector_all(
        f"{chart} circle[data-ply]", "els => els.map(e => [e.dataset.ply, +e.dataset.value])"
    )
    assert points == [[str(i), v] for i, v in enumerate(EVALUATIONS)]
    ys = page.eval_on_selector_all(f"{chart} circle[data-ply]", "els => els.map(e => +e.getAttribute('cy'))")
    assert ys[4] < ys[0] < ys[3]  # Black ahead is drawn above the middle line
    # dashed over the estimates (up to the position after ply 2), solid over the exact part
    pieces = page.eval_on_selector_all(
        f"{chart} .rw-chart-line",
        "els => els.map(e => [e.dataset.certainty, e.getAttribute('points').split(' ').length])",
    )
    assert pieces == [["estimate", 3], ["exact", 5]]
    # labelled: the scale in discs with 0, which side is ahead, the move numbers
    labels = page.eval_on_selector_all(f"{chart} .rw-chart-axis text", "els => els.map(e => e.textContent)")
    assert labels[:5] == ["+16", "+8", "0", "\u22128", "\u221216"]
    assert "\u25b2 Black ahead" in labels and "\u25bc White ahead" in labels and "discs" in labels and "move" in labels
    numbers = page.eval_on_selector_all(
        f"{chart} .rw-chart-axis text[text-anchor=middle]", "els => els.map(e => e.textContent)"
    )
    assert numbers == []  # 6 plies: no 5th move yet to number
    assert page.get_attribute(f"{chart} .rw-chart-ply", "data-ply") == "6"
    set_traits(page, ply=2)
    assert page.get_attribute(f"{chart} .rw-chart-ply", "data-ply") == "2"
    box = page.locator(chart).bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the start of the game
    assert sent(page)[-1] == {"kind": "jump", "to": 0, "ply": 2}
    set_traits(page, review_moves=[], evaluations=[])  # a new line: the review is gone
    assert not page.is_visible(chart) and entries_with(page, "data-loss") == []
    assert entries_with(page, "data-certainty") == []
    assert page.locator(f"{V1} .rw-annot").count() == 0


def test_the_chart_numbers_the_moves_and_keeps_a_lost_game_inside_its_frame(boot: Any) -> None:
    """A 60-move game lost 0-64 (item 5 of issue 27): the move numbers of the move list along
    the bottom, and the line, flat at -64 for half the game, inside the frame, not on its edge."""
    moves = ["d3"] * 60
    values = [0.0, -2.0, 3.0] + [-20.0 - i for i in range(28)] + [-64.0] * 30
    page = boot(8, moves=moves, ply=60, turn="", legal={}, game_over=True)
    set_traits(page, review_moves=[], evaluations=values)
    chart = f"{V1} [data-role=review-chart]"
    labels = page.eval_on_selector_all(f"{chart} .rw-chart-axis text", "els => els.map(e => e.textContent)")
    numbers = page.eval_on_selector_all(
        f"{chart} .rw-chart-axis text[text-anchor=middle]", "els => els.map(e => e.textContent)"
    )
    assert numbers == ["10", "20", "30"]
    assert labels[:5] == ["+64", "+32", "0", "\u221232", "\u221264"]
    frame = page.eval_on_selector(f"{chart} .rw-chart-frame", "e => [+e.getAttribute('y'), +e.getAttribute('height')]")
    ys = page.eval_on_selector_all(f"{chart} circle[data-ply]", "els => els.map(e => +e.getAttribute('cy'))")
    assert all(frame[0] + 3 <= y <= frame[0] + frame[1] - 3 for y in ys)  # never on the frame's edge
    assert [
        p for p in page.eval_on_selector_all(f"{chart} .rw-chart-line", "els => els.map(e => e.dataset.certainty)")
    ] == ["estimate"]


def test_pause_button_follows_paused_and_sends_pause_or_resume(boot: Any) -> None:
    page = boot(8, ply=7)
    assert not page.is_visible(f"{V1} [data-action=pause]")
    set_traits(page, actions={**START_ACTIONS, "pause": "enabled"})
    button = f"{V1} [data-action=pause]"
    assert page.inner_text(button) == "Pause" and page.get_attribute(button, "aria-pressed") == "false"
    page.click(button)
    set_traits(page, paused=True, ply=9)  # Python paused after two more moves
    assert page.inner_text(f"{V2} [data-action=pause]") == "Resume"
    assert page.get_attribute(button, "aria-pressed") == "true" and page.get_attribute(V1, "data-paused") == ""
    page.click(f"{V2} [data-action=pause]")
    assert sent(page) == [{"kind": "pause", "ply": 7}, {"kind": "resume", "ply": 9}]
    set_traits(page, strings={"pause": "Wstrzymaj", "resume": "Wznów"})
    assert page.inner_text(button) == "Wznów"


def test_progress_of_a_hint_or_the_scores(boot: Any) -> None:
    page = boot(8)
    assert not page.is_visible(f"{V1} [data-role=progress]")
    set_traits(page, busy="hint", progress=0.0)
    assert page.inner_text(f"{V2} [data-role=progress]") == "Looking for the best move…"
    set_traits(page, busy="scores", progress=0.75)
    assert page.inner_text(f"{V1} [data-role=progress]") == "Scoring the moves…"
    assert page.get_attribute(f"{V1} [data-role=progress] progress", "aria-valuetext") == "75%"
    set_traits(page, busy="")
    assert not page.is_visible(f"{V2} [data-role=progress]")


# -- issue 13: ids, the move list, the player cards, the keyboard cursor ------------------------------

COPY_VIEW = """async () => {
    // anywidget loads a fresh copy of the module for each view: do the same for a third view
    const src = await (await fetch('widget.js')).text();
    const copy = (await import(URL.createObjectURL(new Blob([src], {type: 'text/javascript'})))).default;
    const el = document.createElement('div');
    el.id = 'view3';
    el.className = 'view';
    document.body.append(el);
    window.cleanups.push(copy.render({model: window.model, el}));
}"""
REFERENCES = """() => [...document.querySelectorAll('.reversi-widget')].map(root => {
    // each url(#id) and aria-activedescendant of a view names an element of that same view
    const refs = [...root.querySelectorAll('[marker-end], [fill^="url("]')]
        .map(e => (e.getAttribute('marker-end') || e.getAttribute('fill')).slice(5, -1));
    refs.push(root.querySelector('.rw-board').getAttribute('aria-activedescendant'));
    return refs.filter(id => { const t = document.getElementById(id); return !t || !root.contains(t); }).length;
})"""


def test_ids_are_unique_per_view_with_a_module_copy_per_view(boot: Any) -> None:
    page = boot(8, arrows=[["a1", "h8"]])

    def ids() -> list[str]:
        return list(page.eval_on_selector_all(".reversi-widget [id]", "els => els.map(e => e.id)"))

    try:
        page.evaluate(COPY_VIEW)
        first = ids()
        assert len(first) == 3 * (64 + 2) and len(set(first)) == len(first)
        assert page.evaluate(REFERENCES) == [0, 0, 0]
        page.evaluate("window.cleanups[0](); window.cleanups[0] = () => {}")  # its cell is cleared...
        assert page.evaluate(REFERENCES) == [0, 0]  # ...and the others still draw their own arrowheads
        page.evaluate("document.getElementById('view3').remove()")
        page.evaluate(COPY_VIEW)  # ...and re-run: one more copy of the module
        again = ids()
        assert len(set(again)) == len(again) == 2 * (64 + 2)
        assert page.evaluate(REFERENCES) == [0, 0]
    finally:
        page.evaluate("document.getElementById('view3') && document.getElementById('view3').remove()")


CURRENT_MOVE = """v => {
    // where the current move is, against the visible part of the list
    const list = document.querySelector(v + ' [data-role=moves]');
    const cur = list.querySelector('[aria-current]');
    const a = list.getBoundingClientRect(), b = cur.getBoundingClientRect();
    return {inside: b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5, scrolled: list.scrollTop, page: window.scrollY};
}"""


def test_the_move_list_keeps_the_current_move_in_view_and_never_scrolls_the_page(boot: Any) -> None:
    from reversi_widget import Board
    from tests.support import play_random

    moves = [str(m) for m in play_random(Board(), random.Random(3)).move_stack]  # 61 moves, one a pass
    page = boot(8, moves=moves, ply=len(moves), size=320)
    page.evaluate("document.body.style.minHeight = '4000px'; window.scrollTo(0, 40)")
    try:
        scrolled = []
        for ply in (len(moves), 1, 30, len(moves) - 3, 12):
            set_traits(page, ply=ply)
            where = page.evaluate(CURRENT_MOVE, V1)
            assert where["inside"], (ply, where)
            assert where["page"] == 40  # the list scrolled, the page did not
            assert page.evaluate(CURRENT_MOVE, V2)["inside"]
            scrolled.append(where["scrolled"])
        assert scrolled[0] > 0 and scrolled[1] == 0  # the list is longer than its box
    finally:
        page.evaluate("document.body.style.minHeight = ''; window.scrollTo(0, 0)")


NAME_SHOWN = """v => [...document.querySelectorAll(v + ' .rw-player')].map(card => {
    const name = card.querySelector('[data-role=player-name]');
    const a = card.getBoundingClientRect(), b = name.getBoundingClientRect();
    return {text: name.innerText, title: name.title, label: card.getAttribute('aria-label'),
            whole: name.scrollWidth <= name.clientWidth && name.scrollHeight <= name.clientHeight
                   && b.left >= a.left && b.right <= a.right && b.bottom <= a.bottom && b.width > 0};
})"""


@pytest.mark.parametrize("language", ["en", "uk", "pl", "ca"])
def test_every_level_is_readable_at_every_size(boot: Any, language: str) -> None:
    """Boards side by side at different levels: each card shows its player whole, also
    at the smallest size, and says it to screen readers."""
    from reversi_widget.widget import MAX_PIXELS, MIN_PIXELS, ReversiWidget

    widget = ReversiWidget(black="beginner", white="expert", language=language)
    page = boot(8, players=widget.players, strings=widget.strings, language=language)
    for size in (MIN_PIXELS, 200, 260, 480, MAX_PIXELS):
        set_traits(page, size=size)
        for card, colour in zip(page.evaluate(NAME_SHOWN, V1), ("black", "white"), strict=True):
            name = widget.players[colour]
            assert card["text"] == card["title"] == name and card["whole"], (size, card)
            assert name in card["label"]


def test_a_new_game_brings_the_keyboard_cursor_back_to_the_centre(boot: Any) -> None:
    page = boot(8, **AFTER_D3)
    board = f"{V1} .rw-board"
    page.focus(board)
    page.keyboard.type("a1")  # the cursor goes to the corner
    assert page.get_attribute(board, "aria-activedescendant").endswith("-a1")
    page.keyboard.press("Enter")
    page.click(f"{V1} [data-action=new]")
    assert sent(page)[-1] == {"kind": "new_game", "ply": 1}
    set_traits(page, **start_traits(8))  # Python's answer: the start position, an empty line
    for view in (V1, V2):
        assert page.get_attribute(f"{view} .rw-board", "aria-activedescendant").endswith("-d4")
    page.focus(board)
    page.keyboard.press("Enter")
    assert sent(page)[-1] == {"kind": "move", "square": "d4", "ply": 0}
    set_traits(page, **AFTER_D3)
    page.keyboard.press("ArrowUp")  # moves do not move the cursor: only a new game does
    assert page.get_attribute(board, "aria-activedescendant").endswith("-d3")


def test_rules_that_differ_show_for_the_whole_game_and_the_scores_have_a_legend(boot: Any) -> None:
    from reversi_widget import ReversiWidget, Rules

    widget = ReversiWidget(rules=Rules(goal="inverted", scoring="tournament", supply=32), language="pl")
    page = boot(8, rule_notes=widget.rule_notes, strings=widget.strings)
    notes = page.eval_on_selector_all(f"{V2} [data-role=rules] .rw-rule", "els => els.map(e => e.textContent)")
    assert notes == widget.rule_notes and len(notes) == 3 and "32 pionki" in notes[2]
    set_traits(page, **AFTER_D3)  # a move later: still there
    assert page.is_visible(f"{V1} [data-role=rules]")
    set_traits(page, rule_notes=[])  # the classic game says nothing
    assert not page.is_visible(f"{V1} [data-role=rules]")
    legend = f"{V1} [data-role=scores-legend]"
    assert not page.is_visible(legend)
    set_traits(page, scores={"c3": "+2", "e3": "-1"})
    assert page.is_visible(legend) and page.inner_text(legend) == widget.strings["scores_legend"]
    set_traits(page, scores={})
    assert not page.is_visible(legend)


def test_views_report_each_picture_where_config_asks(boot: Any) -> None:
    """marimo re-runs cells only on a view's writes: there each new picture is reported once
    (``shown``), by whichever view draws it first; elsewhere nothing is written."""
    page = boot(8)
    set_traits(page, **AFTER_D3)
    assert page.evaluate("window.setCalls") == []
    page = boot(8, config={**CONFIG, "report_shown": True}, shown=0)
    first = page.evaluate("window.setCalls")
    assert len(first) == 1 and first[0][0] == "shown" and 0 < first[0][1] < 2**32
    set_traits(page, **AFTER_D3)
    calls = page.evaluate("window.setCalls")
    assert len(calls) == 2 and calls[1][1] != calls[0][1]  # two views, one write per picture
    set_traits(page, **AFTER_D3)  # the same picture again: nothing new to report
    set_traits(page, status="White is thinking…", thinking=True)
    assert [c[0] for c in page.evaluate("window.setCalls")] == ["shown"] * 3
    assert page.evaluate("window.saves") == 3 and sent(page) == []


KEY_TEXTS = """v => {
    // every text and label a person or a screen reader meets
    const root = document.querySelector(v);
    const out = [root.innerText];
    for (const el of root.querySelectorAll('[aria-label], [title]')) {
        out.push(el.getAttribute('aria-label') || '', el.title || '');
    }
    for (const el of root.querySelectorAll('option')) out.push(el.textContent);
    return out.join(' ');
}"""


@pytest.mark.parametrize("language", ["ca", "pl", "uk"])
def test_every_label_the_view_draws_comes_from_strings(boot: Any, language: str) -> None:
    """The front end has no texts of its own: a label missing from Python's table would show
    its bare key. With every part on screen, no key shows."""
    from reversi_widget.play.strings import FRONT_END_KEYS, front_end_strings

    everything = {
        **AFTER_D3,
        "strings": front_end_strings(language),
        "language": language,
        "scores": {"c3": "+2"},
        "hints": ["c3"],
        "practice": True,
        "busy": "review",
        "thinking": True,
        "supply": {"black": 30, "white": 31},
        "moves": REVIEWED_MOVES,
        "ply": 3,
        "review_moves": REVIEW,
        "evaluations": EVALUATIONS,
        "actions": {
            "undo": "enabled",
            "redo": "enabled",
            "new": "enabled",
            "pass": "primary",
            "hint": "enabled",
            "pause": "enabled",
            "review": "enabled",
        },
    }
    page = boot(8, **everything)
    set_traits(page, practice_move="d3", practice_wrong=["e5"], practice_missed=["d4"])
    tokens = set(re.split(r"[\s,.:;()…]+", page.evaluate(KEY_TEXTS, V1)))
    words = {w.lower() for text in front_end_strings(language).values() for w in re.split(r"[\s,.:;()…]+", text)}
    names = set(FRONT_END_KEYS) | set(re.findall(r'"([a-z]+_[a-z_]+)"', (JS / "widget.js").read_text()))
    bare = names - words  # Catalan's "jugada legal" holds a key as a word of its own
    assert not tokens & bare, sorted(tokens & bare)


def test_puzzle_buttons_send_the_puzzle_shown(boot: Any) -> None:
    """A puzzle button names the puzzle it was clicked on (Python judges staleness by it)."""
    state = {"index": 1, "count": 3, "task": "Black to move: find a winning move.", "verdict": "",
             "verdict_kind": "", "solved": 0, "tried": 0, "at_start": False, "can_play_out": True}  # fmt: skip
    page = boot(8, puzzle_state=state, ply=2)
    page.click(f'{V1} [data-action="puzzle_next"]')
    page.click(f'{V1} [data-action="puzzle_solution"]')
    assert sent(page) == [
        {"kind": "puzzle_next", "puzzle": 1, "ply": 2},
        {"kind": "puzzle_solution", "puzzle": 1, "ply": 2},
    ]


def _restyled_during(page: Any, script: str, arg: Any) -> list[int]:
    """How many elements each style recalculation restyled while ``script`` ran and the next
    frame was drawn (Chromium's trace)."""
    cdp = page.context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda data: events.extend(data["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    cdp.send("Tracing.start", {"categories": "devtools.timeline", "transferMode": "ReportEvents"})
    page.evaluate(script, arg)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(20)
    cdp.detach()
    return [e["args"].get("elementCount", 0) for e in events if e.get("name") == "UpdateLayoutTree" and "args" in e]


def test_a_move_restyles_only_what_it_changes_and_nothing_fades_with_animation_off(boot: Any) -> None:
    """A move late in a long game: the browser restyles the squares and rows that changed, not
    every element of the widget (a custom property or an attribute written on the widget's
    root restyles all of them, milliseconds each time in JupyterLab), and with animation off
    no transition runs after it (a fading frame repaints at every frame)."""
    from reversi_widget import Board
    from tests.support import play_random

    board = play_random(Board(), random.Random(3))
    moves = [str(m) for m in board.move_stack]
    page = boot(8, moves=moves, ply=len(moves) - 2, animation="off", turn="white")
    page.wait_for_timeout(300)
    elements = page.evaluate("() => document.querySelectorAll('.reversi-widget *').length")
    discs = page.evaluate(f"() => document.querySelector('{V1} [data-square=\"a1\"]').getAttribute('data-disc')")
    move = {
        "ply": len(moves) - 1,
        "turn": "black",
        "last_move": "a1",
        "discs": ("O" if discs != "white" else "X") + str(start_traits(8)["discs"])[1:],
        "status": "Black to move",
        "counts": {"black": 30, "white": 31},
    }
    restyled = _restyled_during(page, "t => window.setTraits(t)", move)
    assert restyled, "no style recalculation was traced"
    assert sum(restyled) < 0.35 * elements, (restyled, elements)
    assert page.evaluate("() => document.getAnimations().length") == 0
