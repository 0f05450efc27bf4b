"""The concept overlay in the widget: the ``concept`` setting, the squares it marks (the sets of
``reversi_widget.concepts``, on every size and both goals), its sentence in the four languages,
and the refusal of a bad value, which changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reversi_widget import BLACK, WHITE, Board, Rules, concepts
from reversi_widget.i18n import LANGUAGES, translate
from reversi_widget.play.checks import InvalidSettingError
from reversi_widget.play.overlays import CONCEPTS, KINDS
from reversi_widget.play.texts import quote_input
from reversi_widget.widget import ReversiWidget
from tests.support import click, play_random, send, snapshot, widget

SIDED = {
    "mobility": concepts.mobility,
    "potential_mobility": concepts.potential_mobility,
    "frontier": concepts.frontier,
    "stable": concepts.stable,
}
#: Black has 7 moves and White 1 here (Black to move): a count of each plural form.
SEVEN_AND_ONE = "d3c3c4e3d2c1c2c5"


def expected_marks(board: Board, concept: str) -> dict[str, str]:
    """What the overlay must mark, read from ``concepts`` square by square."""
    if concept in SIDED:
        black, white = SIDED[concept](board, BLACK), SIDED[concept](board, WHITE)
        return {
            sq: "both" if sq in black and sq in white else "black" if sq in black else "white" for sq in black | white
        }
    if concept == "regions":
        return {sq: "odd" if region.odd else "even" for region in concepts.regions(board) for sq in region.squares}
    assert concept == "corners"
    kinds = {
        "corner": concepts.corners(board),
        "x_square": concepts.x_squares(board),
        "c_square": concepts.c_squares(board),
    }
    return {sq: kind for kind, squares in kinds.items() for sq in squares}


def positions() -> list[tuple[str, Board]]:
    """Starts and random games on every kind of board: small and large, both goals, ongoing and over."""
    out = []
    for size, goal, plies, seed in [
        (8, "classic", 0, 0),
        (8, "classic", 40, 12),
        (8, "inverted", 30, 3),
        (6, "classic", None, 5),
        (6, "inverted", 20, 7),
        (4, "classic", 6, 1),
        (10, "classic", 50, 2),
        (16, "classic", 30, 4),
    ]:
        board = play_random(Board(rules=Rules(size=size, goal=goal)), random.Random(seed), plies)
        out.append((f"{size}x{size}-{goal}-{board.ply}", board))
    return out


def in_board_order(squares: list[str]) -> bool:
    return squares == sorted(squares, key=lambda name: (int(name[1:]), name[0]))


@pytest.mark.parametrize(("name", "board"), positions(), ids=[name for name, _ in positions()])
def test_every_concept_marks_the_concepts_sets(name: str, board: Board) -> None:
    w = ReversiWidget(board)
    assert w.concept == "" and w.concept_marks == {} and w.concept_note == ""
    for concept in CONCEPTS[1:]:
        w.concept = concept
        expected = expected_marks(board, concept)
        assert w.concept_marks == expected, concept
        assert in_board_order(list(w.concept_marks)) and set(w.concept_marks.values()) <= set(KINDS)
        assert w.concept_note == translate_note(board, concept, "en")
    w.concept = ""
    assert w.concept_marks == {} and w.concept_note == ""
    assert w.board == board  # looking changes nothing


def translate_note(board: Board, concept: str, language: str) -> str:
    """The note, built from the counts of ``concepts``."""
    inverted = board.rules.goal == "inverted" and concept in ("stable", "corners")
    key = f"concept_note_{concept}" + ("_inverted" if inverted else "")
    if concept == "corners":
        return translate(key, language)
    if concept == "regions":
        found = concepts.regions(board)
        odd = sum(1 for region in found if region.odd)
        tally = translate("concept_odd_regions", language, count=odd) + ", "
        tally += translate("concept_even_regions", language, count=len(found) - odd)
        return translate(key, language, tally=tally)
    unit = {"mobility": "concept_moves", "potential_mobility": "concept_squares"}.get(concept, "count_discs")
    black, white = (translate(unit, language, count=len(SIDED[concept](board, color))) for color in (BLACK, WHITE))
    return translate(key, language, tally=translate("concept_tally", language, black=black, white=white))


def test_the_marks_follow_the_position_shown() -> None:
    w, _ = widget(concept="mobility")
    assert w.concept_marks == {"d3": "black", "e3": "white", "c4": "black", "f4": "white",
                               "c5": "white", "f5": "black", "d6": "white", "e6": "black"}  # fmt: skip
    click(w, "d3")
    assert w.concept_marks == expected_marks(w.board, "mobility") and "d3" not in w.concept_marks
    click(w, "c3")
    w.concept = "frontier"
    assert w.concept_marks == expected_marks(w.board, "frontier") and w.concept_marks["c3"] == "white"
    w.undo()
    assert w.ply == 1 and w.concept_marks == expected_marks(Board.from_transcript("d3"), "frontier")
    send(w, {"kind": "jump", "to": 0, "ply": 1})
    assert w.concept_marks == {"d4": "white", "e4": "black", "d5": "black", "e5": "white"}
    w.new_game(Rules(size=6, goal="inverted"))
    assert w.concept_marks == expected_marks(Board(rules=Rules(size=6)), "frontier")


def test_a_game_over_and_a_free_start() -> None:
    full = play_random(Board(), random.Random(9))
    w = ReversiWidget(full, concept="mobility")
    assert full.is_game_over() and w.concept_marks == {}
    assert w.concept_note.endswith("(Black: 0 moves, White: 0 moves).")
    w.concept = "regions"
    assert w.concept_marks == expected_marks(full, "regions")
    assert w.concept_note == translate_note(full, "regions", "en")
    w = ReversiWidget(rules=Rules(start="free"), concept="mobility")  # the centre is placed first (R8)
    assert w.concept_marks == {"d4": "both", "e4": "both", "d5": "both", "e5": "both"}


NOTES = {  # (concept, transcript): the end of the note in each language
    ("mobility", SEVEN_AND_ONE): {
        "en": "(Black: 7 moves, White: 1 move).",
        "ca": "(Negres: 7 jugades, blanques: 1 jugada).",
        "pl": "(Czarne: 7 ruchów, białe: 1 ruch).",
        "uk": "(Темні: 7 ходів, світлі: 1 хід).",
    },
    ("mobility", ""): {
        "en": "(Black: 4 moves, White: 4 moves).",
        "ca": "(Negres: 4 jugades, blanques: 4 jugades).",
        "pl": "(Czarne: 4 ruchy, białe: 4 ruchy).",
        "uk": "(Темні: 4 ходи, світлі: 4 ходи).",
    },
    ("potential_mobility", ""): {
        "en": "(Black: 10 squares, White: 10 squares).",
        "ca": "(Negres: 10 caselles, blanques: 10 caselles).",
        "pl": "(Czarne: 10 pól, białe: 10 pól).",
        "uk": "(Темні: 10 полів, світлі: 10 полів).",
    },
    ("frontier", ""): {
        "en": "(Black: 2 discs, White: 2 discs).",
        "ca": "(Negres: 2 peces, blanques: 2 peces).",
        "pl": "(Czarne: 2 pionki, białe: 2 pionki).",
        "uk": "(Темні: 2 фішки, світлі: 2 фішки).",
    },
    ("regions", ""): {
        "en": "(0 odd regions, 1 even region).",
        "ca": "(0 regions senars, 1 regió parella).",
        "pl": "(0 obszarów nieparzystych, 1 obszar parzysty).",
        "uk": "(0 непарних областей, 1 парна область).",
    },
}


@pytest.mark.parametrize(("concept", "transcript"), list(NOTES))
def test_the_note_is_in_the_widgets_language_with_its_plural_forms(concept: str, transcript: str) -> None:
    w = ReversiWidget(transcript, concept=concept)
    marks = dict(w.concept_marks)
    for language in (*LANGUAGES, "en"):
        w.language = language  # the note is said again, live; the marks stay
        assert w.concept_note.endswith(NOTES[concept, transcript][language]), (language, w.concept_note)
        assert w.concept_note == translate_note(w.board, concept, language)
        assert w.concept_marks == marks
    assert ReversiWidget(transcript, concept=concept, language="uk").concept_note.endswith(
        NOTES[concept, transcript]["uk"]
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_under_the_inverted_goal_stable_discs_and_corners_are_a_burden(language: str) -> None:
    inverted = {"en": "inverted goal", "ca": "objectiu invertit", "pl": "odwróconym celu", "uk": "оберненої мети"}
    w = ReversiWidget(rules=Rules(goal="inverted"), language=language)
    classic = ReversiWidget(language=language)
    for concept in CONCEPTS[1:]:
        w.concept = classic.concept = concept
        assert w.concept_marks == classic.concept_marks  # the facts do not depend on the goal
        says_so = inverted[language] in w.concept_note
        assert says_so == (concept in ("stable", "corners")), concept
        assert (w.concept_note == classic.concept_note) != says_so
        assert inverted[language] not in classic.concept_note


def test_nothing_is_marked_while_the_board_shows_no_game_position() -> None:
    w, _ = widget(practice=True, concept="stable")
    w.practice_place("d3")  # the disc waits for its flips: the board is half a move
    assert w.concept_marks == {} and w.concept_note == ""
    w.practice_reveal()
    assert w.concept_marks == expected_marks(w.board, "stable") and w.concept_note
    w.concept = "corners"
    w.edit()
    assert w.concept_marks == {} and w.concept_note == ""
    w.edit_cancel()
    assert len(w.concept_marks) == 16


# -- the setting: from the front end, and refused when it is not a concept --------------------------


def test_a_front_end_may_choose_a_concept() -> None:
    w, _ = widget()
    assert w.config["concepts"] == list(CONCEPTS)
    w.set_state({"concept": "regions"})
    assert w.concept == "regions" and w.notice == ""
    assert w.concept_marks == expected_marks(w.board, "regions")
    envelope = {"method": "update", "state": {"concept": "corners"}, "buffer_paths": []}
    w._handle_msg({"content": {"data": envelope}, "buffers": []})
    assert w.concept == "corners" and len(w.concept_marks) == 16
    w.set_state({"concept": ""})
    assert w.concept_marks == {} and w.concept_note == ""


BAD = ["mobilty", "Stable", " stable", "none", None, 1, True, ["stable"], {"concept": "stable"}, "x" * 500]


@pytest.mark.parametrize("value", BAD, ids=lambda value: repr(value)[:20])
def test_python_refuses_a_bad_concept_and_changes_nothing(value: Any) -> None:
    w, _ = widget(concept="frontier")
    click(w, "d3")
    before = snapshot(w)
    with pytest.raises(InvalidSettingError) as refused:
        w.concept = value
    message = str(refused.value)
    assert message.startswith('concept must be "" (no overlay) or one of mobility, potential_mobility, frontier,')
    assert f"got {quote_input(value)}" in message  # the value is named (a long one in part)
    assert snapshot(w) == before and w.concept == "frontier"
    with pytest.raises(InvalidSettingError, match="concept must be"):
        ReversiWidget(concept=value)


@pytest.mark.parametrize("value", BAD, ids=lambda value: repr(value)[:20])
def test_a_front_end_is_refused_a_bad_concept_and_changes_nothing(value: Any) -> None:
    w, sent = widget(concept="stable")
    click(w, "d3")
    sent.clear()
    before = snapshot(w)
    w.set_state({"concept": value})
    assert snapshot(w) == before
    assert w.notice_kind == "error" and w.notice.startswith(f"Refused setting concept = {quote_input(value)}")
    assert 'expected one of "", mobility, potential_mobility, frontier, stable, regions, corners' in w.notice
    assert sent.updates()["concept"] == "stable"  # the writer's view takes Python's value back
    w.language = "pl"
    assert w.notice.startswith("Odrzucono ustawienie concept")


def test_a_front_end_may_not_write_the_marks_or_the_note() -> None:
    w, sent = widget(concept="mobility")
    before = snapshot(w)
    w.set_state({"concept_marks": {"a1": "corner"}, "concept_note": "<b>hi</b>"})
    assert snapshot(w) == before
    assert "concept_marks" in w.notice and "concept_note" in w.notice
    assert sent.updates()["concept_marks"] == w.concept_marks
