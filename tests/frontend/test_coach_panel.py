"""The coach's panel of js/widget.js in headless Chromium, with what a real coached widget
syncs: the verdict under the board in both views, Try again and Go on sending their intents
(answered by Python, whose new state the views then draw), and the summary at the end, whose
worst moves jump to the position before them."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget import Rules
from reversi_widget.widget import ReversiWidget
from tests.frontend.test_concept_overlay import synced
from tests.frontend.test_frontend import V1, V2, sent, set_traits
from tests.support import Gate, click, send
from tests.test_widget_coach import DEPTH, OPENING, load_the_compiled_searches, marked_and_good

pytestmark = pytest.mark.browser

PANEL = "[data-role=coach]"


@pytest.fixture(autouse=True, scope="module")
def compiled_searches() -> None:
    load_the_compiled_searches()


def visible(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).is_visible())


def answer(page: Any, w: ReversiWidget) -> None:
    """Python takes the views' intents, as the kernel would, and the views get its new state."""
    for message in sent(page):
        send(w, message)
    assert w.wait(60)
    page.evaluate("() => { window.sent = []; }")
    set_traits(page, **synced(w))


def test_a_marked_move_shows_its_verdict_and_try_again_takes_it_back(boot: Any) -> None:
    bad, _ = marked_and_good()
    w = ReversiWidget(OPENING, coach=True, white=Gate(), analysis_depth=DEPTH)
    page = boot(8, **synced(w))
    assert not visible(page, f"{V1} {PANEL}")  # nothing judged yet
    click(w, bad.move)
    assert w.wait(60) and w.coach_state["state"] == "waiting"
    set_traits(page, **synced(w))
    for view in (V1, V2):
        assert visible(page, f"{view} {PANEL}")
        assert page.get_attribute(f"{view} {PANEL}", "data-state") == "waiting"
        assert page.get_attribute(f"{view} {PANEL}", "data-kind") == "mistake"
        assert page.inner_text(f"{view} [data-role=coach-verdict]") == w.coach_state["verdict"] == bad.render("en")
        assert page.inner_text(f"{view} [data-action=coach_retry]") == "Try again"
        assert page.inner_text(f"{view} [data-action=coach_go_on]") == "Go on"
        assert page.get_attribute(f"{view} [data-action=coach_retry]", "data-primary") is not None
        assert not visible(page, f"{view} [data-role=coach-summary]")
    assert page.inner_text(f"{V1} [data-role=status]") == "Try again, or go on: White waits for your choice"
    for view in (V1, V2):  # where the disc should have gone, ringed in the mover's colour
        assert page.get_attribute(f'{view} [data-square="{bad.best}"]', "data-review-best") == "black"
        assert page.locator(f"{view} [data-review-best]").count() == 1
    page.click(f"{V2} [data-action=coach_retry]")
    assert sent(page) == [{"kind": "coach_retry", "ply": 7}]
    answer(page, w)
    assert w.ply == 6 and len(w.line) == 6
    for view in (V1, V2):
        assert not visible(page, f"{view} {PANEL}")  # the move is gone, and its verdict with it
        assert page.get_attribute(f'{view} [data-square="{bad.move}"]', "data-disc") == "empty"
    assert page.inner_text(f"{V1} [data-role=notice]").startswith(f"{bad.move} taken back")


def test_go_on_lets_the_computer_reply_and_the_verdict_stays_said(boot: Any) -> None:
    bad, _ = marked_and_good()
    gate = Gate()
    gate.release.set()
    w = ReversiWidget(OPENING, coach=True, white=gate, analysis_depth=DEPTH)
    click(w, bad.move)
    assert w.wait(60)
    page = boot(8, **synced(w))
    page.click(f"{V1} [data-action=coach_go_on]")
    assert sent(page) == [{"kind": "coach_go_on", "ply": 7}]
    answer(page, w)
    assert w.ply == 8 and gate.calls == 1
    for view in (V1, V2):
        assert page.get_attribute(f"{view} {PANEL}", "data-state") == "verdict"
        assert page.inner_text(f"{view} [data-role=coach-verdict]") == bad.render("en")
        assert not visible(page, f"{view} [data-action=coach_retry]")
        assert not visible(page, f"{view} [data-action=coach_go_on]")
        assert page.locator(f"{view} [data-review-best]").count() == 0  # chosen: no longer ringed


def test_the_summary_lists_the_worst_moves_and_a_click_goes_back_to_replay_one(boot: Any) -> None:
    w = ReversiWidget(rules=Rules(size=6), coach=True, white="greedy", analysis_depth=1, move_delay=0)
    while not w.game_over:
        legal = sorted(w.legal)
        click(w, legal[len(legal) // 2])
        assert w.wait(60)
        if w.coach_state["state"] == "waiting":
            w.go_on()
            assert w.wait(60)
    summary = w.coach_state["summary"]
    assert summary["worst"], summary  # a middle move each time: some were mistakes
    page = boot(6, **synced(w))
    for view in (V1, V2):
        assert visible(page, f"{view} [data-role=coach-summary]")
        assert page.inner_text(f"{view} [data-role=coach-summary-text]") == summary["text"]
        entries = page.eval_on_selector_all(
            f"{view} [data-coach-replay]", "els => els.map(e => [e.dataset.coachReplay, e.textContent, e.title])"
        )
        assert entries == [[str(e["to"]), f"{e['label']} {e['note']}", e["note"]] for e in summary["worst"]]
    second = summary["worst"][-1]
    page.click(f"{V1} [data-coach-replay='{second['to']}']")
    assert sent(page) == [{"kind": "jump", "to": second["to"], "ply": len(w.line)}]
    answer(page, w)
    assert w.ply == second["to"] and w.turn == "black"
    for view in (V1, V2):
        assert page.get_attribute(f"{view} [data-coach-replay='{second['to']}']", "aria-current") == "step"
        assert page.locator(f"{view} [data-coach-replay][aria-current]").count() == 1
        assert page.locator(f"{view} [data-square][data-legal]").count() == len(w.legal) > 0  # play again here


def test_the_coachs_words_are_text_not_markup(boot: Any) -> None:
    markup = '<img src=x onerror="alert(1)">'
    state = {"state": "verdict", "verdict": markup, "kind": "good", "can_retry": False, "can_go_on": False}
    state["summary"] = {"text": markup, "worst": [{"ply": 3, "to": 2, "label": markup, "note": markup}]}
    page = boot(8, coach_state=state)
    assert page.inner_text(f"{V1} [data-role=coach-verdict]") == markup
    assert page.locator(f"{V1} {PANEL} img").count() == 0
