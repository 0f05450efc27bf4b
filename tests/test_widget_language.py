"""Every text of the widget in its language, retranslated live, and the "show me" walk-through."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from reversi_widget import Board, Rules
from reversi_widget.widget import (
    ReversiWidget,
)
from tests.support import (
    END_33_29,
    PASS_LINE,
    click,
    send,
    snapshot,
    widget,
)

# -- languages ---------------------------------------------------------------------------------

LANGUAGE_WORDS = {
    "en": ("Black to move", "Undo", "Black"),
    "ca": ("Juguen les Negres", "Desfés", "Negres"),
    "pl": ("Czarne mają ruch", "Cofnij", "Czarne"),
    "uk": ("Темні ходять", "Скасувати", "Темні"),
}


@pytest.mark.parametrize("language", sorted(LANGUAGE_WORDS))
def test_every_language_switch_retranslates_everything(language: str) -> None:
    from reversi_widget.i18n import LANGUAGES, strings_for, translate

    status, undo, black = LANGUAGE_WORDS[language]
    assert translate("undo", language) == undo  # the table above is the locale file's
    w, sent = widget(white="greedy")
    click(w, "a1")  # a notice to re-translate
    for other in LANGUAGES:  # from every language to this one
        w.language = other
        notice_id = w.notice_id
        sent.clear()
        w.language = language
        assert w.status == status
        assert w.strings["undo"] == undo and w.strings["black"] == black
        assert w.strings == {key: strings_for(language)[key] for key in w.strings}
        assert w.notice == explain_short(Board(), "a1", language)
        assert w.notice_id == notice_id  # the same notice, said again: not news
        assert w.players["white"] == translate("player_computer", language, name="greedy")
        if other != language:
            assert {"strings", "status", "notice", "language"} <= set(sent.updates())


def explain_short(board: Board, square: str, language: str) -> str:
    from reversi_widget import explain

    return explain(board, square, language=language).short()


def test_result_and_count_labels_follow_the_language() -> None:
    w = ReversiWidget(END_33_29, rules=Rules(scoring="tournament"), language="pl")
    assert w.result == "Wygrywają Czarne: czarne 35, białe 29 (punktacja turniejowa: puste pola (2) dla zwycięzcy)"
    assert w.count_labels == {"black": "33 pionki", "white": "29 pionków"}
    w.language = "uk"
    assert w.result.startswith("Темні перемагають: темні 35, світлі 29")
    assert w.count_labels == {"black": "33 фішки", "white": "29 фішок"}
    w.language = "en"
    assert w.result == "Black wins: Black 35, White 29 (tournament scoring: 2 empty squares to the winner)"
    assert w.count_labels == {"black": "33 discs", "white": "29 discs"}


@pytest.mark.parametrize(
    ("count", "pl", "uk", "en"),
    [
        (1, "1 pionek", "1 фішка", "1 disc"),
        (2, "2 pionki", "2 фішки", "2 discs"),
        (5, "5 pionków", "5 фішок", "5 discs"),
        (22, "22 pionki", "22 фішки", "22 discs"),
    ],
)
def test_disc_counts_use_each_languages_plural(count: int, pl: str, uk: str, en: str) -> None:
    position = "X" * count + "O" + "-" * (63 - count) + " O"
    for language, expected in (("pl", pl), ("uk", uk), ("en", en)):
        w = ReversiWidget(position, language=language)
        assert w.count_labels["black"] == expected


def test_an_unknown_language_is_refused_clearly_and_changes_nothing() -> None:
    from reversi_widget.widget import UnknownLanguageError

    with pytest.raises(UnknownLanguageError, match="unknown language 'de': expected one of en, ca, pl, uk"):
        ReversiWidget(language="de")
    w = ReversiWidget(language="ca")
    before = snapshot(w)
    for bad in ("PL", "", None, 3):
        with pytest.raises(ValueError, match="unknown language"):
            w.language = bad  # type: ignore[assignment]
    assert w.language == "ca" and snapshot(w) == before
    w.set_state({"language": "pl"})  # the front end may not choose it
    assert w.language == "ca" and "language" in w.notice


def _english_words() -> set[str]:
    """Every ASCII word of three letters or more in the English locale file's texts."""
    import json
    import re

    data = json.loads((Path(__file__).resolve().parent.parent / "reversi_widget/locales/en.json").read_text())
    words: set[str] = set()
    for section in ("widget", "explain"):
        for value in data[section].values():
            for text in value.values() if isinstance(value, dict) else [value]:
                words |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", text))}
    return words


@pytest.mark.parametrize("language", ["pl", "uk"])
def test_illegal_click_notices_carry_no_english(language: str) -> None:
    import re

    english = _english_words()
    assert {"flanked", "disc", "square", "holds"} <= english  # the check would see a leak
    w = ReversiWidget(language=language)
    seen = []
    for square, intent in (("a1", "move"), ("d4", "move"), ("", "pass")):
        content = {"kind": intent, "ply": 0, **({"square": square} if square else {})}
        send(w, content)
        assert w.notice_kind == "explain"
        seen.append(w.notice)
        leaked = {word for word in re.findall(r"[A-Za-z]{3,}", w.notice) if word.lower() in english}
        assert not leaked, (w.notice, leaked)
    assert seen[0] == explain_short(Board(), "a1", language)
    assert len(set(seen)) == 3


@pytest.mark.parametrize("language", ["pl", "uk"])
def test_refusals_and_settings_carry_no_english_words(language: str) -> None:
    import re

    from reversi_widget.widget import ANIMATIONS

    # names and values a user types (protocol fields, JSON literals, setting values) stay as they are
    typed = {"kind", "ply", "square", "move", "true", "false", "null", "pass", "undo", "animation", *ANIMATIONS}
    english = _english_words() - typed
    w = ReversiWidget(language=language)
    for content in (
        {"kind": "move", "square": "i1", "ply": 0},
        {"kind": "move", "square": "D3", "ply": 0},
        {"kind": "move", "square": "d3", "ply": "0"},
        {"kind": "move", "square": "d3" * 300, "ply": 0},
        {"kind": "practice_done", "ply": 0},
    ):
        send(w, content)
        words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\w+_\w+", "", w.notice))  # protocol names aside
        leaked = {word for word in words if word.lower() in english}
        assert not leaked, (w.notice, leaked)
    for setting in ({"show_me": "yes"}, {"animation": "warp"}, {"size": 5}):
        w.set_state(setting)
        words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\w+_\w+", "", w.notice))
        leaked = {word for word in words if word.lower() in english}
        assert not leaked, (w.notice, leaked)


def test_an_illegal_click_is_explained_and_changes_nothing() -> None:
    w, sent = widget()
    click(w, "d3")
    before = snapshot(w)
    click(w, "a1")
    assert snapshot(w) == before
    assert (w.notice_kind, w.notice) == ("explain", "a1: no black disc is flanked in any direction.")
    assert sent.custom()[-1] == {"kind": "refused", "reason": w.notice}
    click(w, "d3")
    assert w.notice == "d3: the square already holds a black disc."


# -- show me -------------------------------------------------------------------------------------


def test_show_me_sends_each_flanked_line_of_a_move() -> None:
    # White's d6 flips d5 (north), e5 (north-east) and e6 (east): three lines
    board = Board.from_transcript("f5f6e6f4e3")
    w = ReversiWidget(board, show_me=True)
    assert w.demo == {}
    w.play("d6")
    assert w.demo == {
        "id": 1,
        "ply": 6,
        "move": "d6",
        "color": "white",
        "lines": [["d5", "d4"], ["e5", "f4"], ["e6", "f6"]],
    }
    flipped = {square for line in w.demo["lines"] for square in line[:-1]}
    assert flipped == set(w.last_flips)
    # the engine's explanation agrees: each line closes on a white disc
    assert all(w.board.disc_at(line[-1]) is False for line in w.demo["lines"])


def test_show_me_for_human_and_computer_moves_and_cleared_on_navigation() -> None:
    w, _ = widget(show_me=True, white="greedy", animation="off")
    click(w, "d3")
    assert w.wait(5) and w.ply == 2
    assert w.demo["id"] == 2 and w.demo["color"] == "white" and w.demo["ply"] == 2
    assert w.demo["move"] == w.moves[1]
    undo_from = w.demo
    send(w, {"kind": "undo", "ply": 2})
    assert w.demo == {} and undo_from["id"] == 2
    w.show_me = False
    click(w, "d3")
    assert w.wait(5) and w.demo == {}


def test_a_computer_waits_for_the_walk_through_of_the_move_before() -> None:

    w = ReversiWidget(show_me=True, white="greedy", animation="fast")
    started = time.monotonic()
    w.play("d3")  # 1 line, 1 flip: 0.18 s x (1 + 2 + 1) = 0.72 s
    assert w.wait(5)
    assert time.monotonic() - started >= 0.7 and w.ply == 2


def test_a_forced_pass_keeps_the_walk_through_of_the_move_before() -> None:
    w, _ = widget(board=PASS_LINE, show_me=True)
    click(w, "f2")
    assert w.moves[-2:] == ["f2", "pass"]
    assert w.demo["move"] == "f2" and w.demo["ply"] == w.ply - 1  # views allow the passes after it
