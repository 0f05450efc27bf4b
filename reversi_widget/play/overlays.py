"""The concept overlay: one strategy concept of ``reversi_widget.concepts`` marked on the board,
with one sentence saying what it is, in the widget's language.

The setting ``concept`` names the concept (``""``: none). The view sends ``concept_marks``,
each marked square with its kind, and ``concept_note``, the sentence, which ends with each
side's count where the concept has one. What each concept marks (js/PROTOCOL.md draws it):

* ``mobility``: the empty squares where a side could play now, for both sides whoever is to
  move, so that the two can be compared: ``"black"``, ``"white"`` or ``"both"``;
* ``potential_mobility``: the empty squares next to a disc of the other side, where a side may
  get moves later, with the same kinds;
* ``frontier`` and ``stable``: the discs of both sides, each marked with its colour;
* ``regions``: every empty square, ``"odd"`` or ``"even"`` by the parity of its region;
* ``corners``: the corners, X-squares and C-squares, empty or not (``"corner"``,
  ``"x_square"``, ``"c_square"``).

The facts are the same under both goals; what they are worth is not, so under the inverted
goal the notes on stable discs and corners say they are a burden. Nothing is marked while the
board does not show a position of the game: a practice disc waiting for its flips, or the
position editor.
"""

from __future__ import annotations

from .. import concepts
from ..board import Board
from ..i18n import translate
from ..squares import BLACK, WHITE
from .session import Session

__all__ = ["CONCEPTS", "KINDS", "concept_marks", "concept_note", "overlay_picture"]

#: The values of the ``concept`` setting: ``""`` shows none.
CONCEPTS: tuple[str, ...] = ("", "mobility", "potential_mobility", "frontier", "stable", "regions", "corners")
#: The kinds of ``concept_marks``.
KINDS: tuple[str, ...] = ("black", "white", "both", "odd", "even", "corner", "x_square", "c_square")
#: The concepts whose note changes under the inverted goal.
_INVERTED_NOTES = ("stable", "corners")
#: The plural text of each counted concept's unit.
_UNITS = {
    "mobility": "concept_moves",
    "potential_mobility": "concept_squares",
    "frontier": "count_discs",
    "stable": "count_discs",
}


def overlay_picture(session: Session, concept: str, language: str) -> dict[str, object]:
    """``concept_marks`` and ``concept_note`` for the position shown (none while the board
    shows no position of the game)."""
    if not concept or session.practice is not None or session.editor is not None:
        return {"concept_marks": {}, "concept_note": ""}
    board = session.board
    return {"concept_marks": concept_marks(board, concept), "concept_note": concept_note(board, concept, language)}


def concept_marks(board: Board, concept: str) -> dict[str, str]:
    """Each square the concept marks on ``board`` -> its kind, in board order (a1, b1...)."""
    marks: dict[str, str]
    if concept in ("mobility", "potential_mobility", "frontier", "stable"):
        black, white = _sets(board, concept)
        marks = {square: "both" if square in white else "black" for square in black}
        marks.update({square: "white" for square in white - black})
    elif concept == "regions":
        marks = {square: "odd" if part.odd else "even" for part in concepts.regions(board) for square in part.squares}
    elif concept == "corners":
        marks = dict.fromkeys(concepts.corners(board), "corner")
        marks.update(dict.fromkeys(concepts.x_squares(board), "x_square"))
        marks.update(dict.fromkeys(concepts.c_squares(board), "c_square"))
    else:
        return {}  # no concept (the setting's values are checked: checks.Concept)
    return {square: marks[square] for square in sorted(marks, key=lambda name: (int(name[1:]), name[0]))}


def concept_note(board: Board, concept: str, language: str) -> str:
    """The concept in one sentence, with each side's count where it has one ("" for none)."""
    if concept not in CONCEPTS[1:]:
        return ""
    key = f"concept_note_{concept}"
    if concept in _INVERTED_NOTES and board.rules.goal == "inverted":
        key += "_inverted"
    if concept == "corners":
        return translate(key, language)
    if concept == "regions":
        found = concepts.regions(board)
        odd = sum(region.odd for region in found)
        counts = (
            translate("concept_odd_regions", language, count=odd),
            translate("concept_even_regions", language, count=len(found) - odd),
        )
        return translate(key, language, tally=translate("explain_list_separator", language).join(counts))
    black, white = (translate(_UNITS[concept], language, count=len(side)) for side in _sets(board, concept))
    return translate(key, language, tally=translate("concept_tally", language, black=black, white=white))


def _sets(board: Board, concept: str) -> tuple[frozenset[str], frozenset[str]]:
    """The squares of a concept that belongs to a side: (Black's, White's)."""
    of_side = {
        "mobility": concepts.mobility,
        "potential_mobility": concepts.potential_mobility,
        "frontier": concepts.frontier,
        "stable": concepts.stable,
    }[concept]
    return of_side(board, BLACK), of_side(board, WHITE)
