"""What the widget says about a game: one score order, margins with their unit and whether
they are proven, the rules that differ shown all game long, in all four languages; and the
marimo switch of the views' ``shown`` reports."""

from __future__ import annotations

import sys
import types

import pytest

from reversi_widget import BLACK, Board, Rules
from reversi_widget.i18n import LANGUAGES, translate
from reversi_widget.play.texts import discs_text, margin_text, result_text, whole
from reversi_widget.widget import SHOWN_MAX, ReversiWidget, running_in_marimo
from tests.support import END_33_29, widget

# A full 4x4 board: White 14, Black 2.
WHITE_14_2 = Board("OOOO" + "OOOO" + "OOOO" + "OOXX" + " X", rules=Rules(size=4))


def test_one_score_order_everywhere_blacks_count_first() -> None:
    outcome = WHITE_14_2.outcome()
    assert outcome is not None and outcome.winner is not BLACK and (outcome.black, outcome.white) == (2, 14)
    assert outcome.result() == "2-14" and str(outcome).startswith("white wins 2-14")
    banner = {language: result_text(outcome, WHITE_14_2).render(language) for language in LANGUAGES}
    assert banner == {
        "en": "White wins: Black 2, White 14",
        "ca": "Guanyen les Blanques: negres 2, blanques 14",
        "pl": "Wygrywają Białe: czarne 2, białe 14",
        "uk": "Світлі перемагають: темні 2, світлі 14",
    }
    for language in LANGUAGES:  # each count comes after its colour, Black's first
        text = banner[language]
        assert text.index("2") < text.index("14")


def test_the_banner_status_and_refusal_say_the_same_result() -> None:
    w, _ = widget(board=Board(END_33_29, rules=Rules(goal="inverted")))
    assert w.result == "White wins: Black 33, White 29 (inverted goal: fewer discs win)"
    assert w.status == f"Game over (neither side can move). {w.result}"


@pytest.mark.parametrize(
    ("margin", "exact", "bound", "english"),
    [
        (6, True, False, "ahead by 6 discs"),
        (-1, True, False, "behind by 1 disc"),
        (0, True, False, "a draw"),
        (6, False, True, "ahead by at least 6 discs"),
        (-1, False, True, "behind by at least 1 disc"),
        (2.5, False, False, "about 3 discs ahead"),
        (-0.4, False, False, "about even"),
        (-5.2, False, False, "about 5 discs behind"),
    ],
)
def test_a_margin_says_its_unit_and_whether_it_is_proven(margin: float, exact: bool, bound: bool, english: str) -> None:
    text = margin_text(margin, exact, bound)
    assert text.render("en") == english
    discs = whole(abs(margin))
    at_least = {"en": "at least", "ca": "almenys", "pl": "co najmniej", "uk": "щонайменше"}
    for language in LANGUAGES:
        said = text.render(language)
        if discs:  # the number with the language's plural of "disc"
            assert translate("count_discs", language, count=discs) in said
        assert ("about" in said) == (not exact and not bound and language == "en")
        assert (at_least[language] in said) == bound
    assert text.render("pl") != text.render("uk") != text.render("ca")


def test_losses_are_whole_discs_with_about_when_estimated() -> None:
    assert discs_text(3.8, False).render("en") == "about 4 discs"
    assert discs_text(14, True).render("en") == "14 discs"
    assert discs_text(1, True).render("pl") == "1 pionek" and discs_text(5, True).render("pl") == "5 pionków"
    assert discs_text(2.4, False).render("uk") == "приблизно 2 фішки"


def test_the_hint_notice_says_what_its_number_is() -> None:
    w, _ = widget(board=Board.from_transcript("f5d6c3d3c4f4c5b3c2"), analysis_depth=2)
    w.hint()
    assert w.wait(30)
    head, _, margin = w.notice.partition(" (")
    assert head.startswith("Hint for White: ") and margin.endswith(")")
    said = {margin_text(s, e, b).render("en") for s in range(-64, 65) for e in (True, False) for b in (True, False)}
    assert margin[:-1] in said
    assert "disc" in margin or "even" in margin or "draw" in margin


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_that_differ_are_said_for_the_whole_game(language: str) -> None:
    classic = ReversiWidget(language=language)
    assert classic.rule_notes == []
    w = ReversiWidget(rules=Rules(goal="inverted", scoring="tournament", supply=32), language=language)
    notes = list(w.rule_notes)
    assert len(notes) == 3 and translate("count_discs", language, count=32) in notes[2]
    assert notes[0] == translate("rule_inverted", language)
    assert notes[1] == translate("rule_tournament_loser", language)  # inverted: the empties go to the loser
    w.play("f5")
    assert w.rule_notes == notes  # not only in the game-over banner
    tournament = ReversiWidget(rules=Rules(scoring="tournament"), language=language)
    assert tournament.rule_notes == [translate("rule_tournament_winner", language)]


def test_views_report_what_they_drew_only_under_marimo(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not running_in_marimo() and ReversiWidget().config["report_shown"] is False
    fake = types.ModuleType("marimo")
    fake.running_in_notebook = lambda: True  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "marimo", fake)
    assert running_in_marimo() and ReversiWidget().config["report_shown"] is True
    fake.running_in_notebook = lambda: False  # type: ignore[attr-defined]  # imported, but not in a notebook
    assert ReversiWidget().config["report_shown"] is False


def test_shown_is_a_write_the_widget_accepts_and_ignores() -> None:
    w, _ = widget()
    before = (w.board.to_string(), w.ply, w.notice_id)
    w.set_state({"shown": SHOWN_MAX})
    assert w.shown == SHOWN_MAX and (w.board.to_string(), w.ply, w.notice_id) == before
    for bad in (-1, SHOWN_MAX + 1, "12", True, None):
        w.set_state({"shown": bad})
        assert w.shown == SHOWN_MAX and w.notice_kind == "error" and "shown" in w.notice
