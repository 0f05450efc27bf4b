"""Texts as values: what the widget will say, kept apart from the language it is said in.

A ``Text`` names a key of the locale files and its fields; it is rendered when shown, and
again whenever ``language`` changes. Fields may be texts themselves (a colour's name, a
player's level), so a whole sentence follows the language. Being plain values, texts
compare equal, and a test can ask which refusal it got without reading English.

A ``Refusal`` is a text with what it means to each caller: the notice kind the views show,
and the error type the Python API raises.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Union

from ..board import Board, Outcome
from ..engine import Engine
from ..errors import ReversiError
from ..explain import Explanation
from ..i18n import translate
from ..players import Player, player_name
from ..search.root import MoveAnalysis
from ..squares import BLACK, WHITE, Color

__all__ = [
    "COLOR_KEY",
    "Explained",
    "Joined",
    "Listed",
    "Plain",
    "Refusal",
    "Renders",
    "Text",
    "color_text",
    "discs_text",
    "margin_text",
    "number",
    "pass_notice",
    "player_title",
    "quote_input",
    "result_text",
    "score_text",
    "squares_text",
]

COLOR_KEY = {BLACK: "black", WHITE: "white"}

#: The level names of the engine, by level number ("expert" for 7...).
LEVEL_NAMES = {level: name for name, level in Engine.LEVELS.items()}


class Renders(Protocol):
    """Anything the widget can say in any of its languages."""

    def render(self, language: str) -> str: ...


Field = Union[str, int, float, "Renders"]


class Text:
    """A text of the locale files with its fields: ``Text("notice_refused_stale", got="3", ply=4)``."""

    __slots__ = ("fields", "key")

    def __init__(self, key: str, /, **fields: Field) -> None:
        self.key = key
        self.fields = tuple(fields.items())

    def render(self, language: str) -> str:
        return translate(self.key, language, **{name: _render(value, language) for name, value in self.fields})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.fields) == (other.key, other.fields)

    def __hash__(self) -> int:
        return hash((self.key, self.fields))

    def __repr__(self) -> str:
        fields = "".join(f", {name}={value!r}" for name, value in self.fields)
        return f"Text({self.key!r}{fields})"


@dataclass(frozen=True)
class Plain:
    """A text that is the same in every language: a name, or a message only Python callers see."""

    text: str

    def render(self, language: str) -> str:
        return self.text


@dataclass(frozen=True)
class Explained:
    """An illegal move's reason in one sentence (``explain()``'s short form)."""

    explanation: Explanation

    def render(self, language: str) -> str:
        return self.explanation.short(language)


@dataclass(frozen=True)
class Listed:
    """Names joined with the language's list separator ("d3, e4")."""

    names: tuple[str, ...]

    def render(self, language: str) -> str:
        return translate("explain_list_separator", language).join(self.names)


@dataclass(frozen=True)
class Joined:
    """Several texts said one after the other."""

    parts: tuple[Renders, ...]
    separator: str = " "

    def render(self, language: str) -> str:
        return self.separator.join(part.render(language) for part in self.parts)


def _render(value: Field, language: str) -> str | int | float:
    return value if isinstance(value, (str, int, float)) else value.render(language)


@dataclass(frozen=True)
class Refusal:
    """Why an action was not taken (the game is exactly as before): the notice the views
    show (``kind`` "error", or "explain" for a rule's reason) and the error Python raises."""

    text: Renders
    error: type[ReversiError] = ReversiError
    kind: str = "error"

    def exception(self, language: str) -> ReversiError:
        return self.error(self.text.render(language))


# -- the texts several parts of the widget say ----------------------------------------------


class _ShortRepr(reprlib.Repr):
    """``reprlib`` that also keeps huge integers short (``repr`` of one over 4,300 digits raises)."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<an integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_short = _ShortRepr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlist = _short.maxdict = _short.maxtuple = 4


def quote_input(value: object) -> str:
    """A bad input as a refusal quotes it: its ``repr``, shortened."""
    return _short.repr(value)


def number(value: float) -> str:
    """A disc count for texts: "6", "2.5" (one decimal at most)."""
    return f"{round(value, 1):g}"


def color_text(color: Color) -> Text:
    return Text(COLOR_KEY[color])


def player_title(player: Player) -> Renders:
    """A computer's name for labels: the engine's level in the widget's language ("expert",
    "ekspert", "level 3"), else the player's own name."""
    if isinstance(player, Engine):
        name = LEVEL_NAMES.get(player.level)
        return Text(f"level_{name}") if name is not None else Text("level_number", level=player.level)
    return Plain(player_name(player))


def result_text(outcome: Outcome, board: Board) -> Renders:
    """The game-over banner: who won, and each side's count named, Black's first as in every
    score the package writes ("White wins: Black 2, White 13"), with the notes the rules call for."""
    score = Text("result_score", black=outcome.black, white=outcome.white)
    head: Text
    if outcome.winner is None:
        head = Text("result_draw", score=score)
    else:
        head = Text("result_win", color=color_text(outcome.winner), score=score)
    notes: list[Renders] = []
    if board.rules.goal == "inverted":
        notes.append(Text("result_inverted"))
    empties = board.empty_count()
    if board.rules.scoring == "tournament" and empties and outcome.winner is not None:
        to = "winner" if board.rules.goal == "classic" else "loser"
        key = f"result_tournament_one_{to}" if empties == 1 else f"result_tournament_{to}"
        notes.append(Text(key, empties=empties))
    return Text("result_with_notes", result=head, notes=Joined(tuple(notes), "; ")) if notes else head


def score_text(entry: MoveAnalysis) -> Renders:
    """A move's score as the overlay writes it: "+4", "-2", "0" (estimates, rounded), "W+6",
    "D", "L-4" (solved) or "W≥+6", "L≤-4" (a proven win or loss, by at least that margin)
    in the widget's language."""
    margin = round(entry.score)
    if entry.proven:
        bound = "_bound" if entry.bound else ""
        if margin > 0:
            return Text(f"score_win{bound}", margin=f"+{margin}")
        if margin < 0:
            return Text(f"score_loss{bound}", margin=str(margin))
        return Text("score_draw")
    return Plain(f"{margin:+d}" if margin else "0")


def whole(value: float) -> int:
    """The nearest whole number, halves away from zero (2.5 discs is about 3, not 2)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def margin_text(margin: float, exact: bool, bound: bool = False) -> Text:
    """A final disc margin for the side to move, in words with its unit: "ahead by 6 discs",
    "a draw" when it is solved, "ahead by at least 6 discs" for a proven win whose margin
    is a bound (``bound``), "about 2 discs behind" when it is an estimate."""
    discs = whole(margin)
    kind = "margin" if exact else "bound" if bound and discs else "estimate"
    if not discs:
        return Text(f"{kind}_even")
    return Text(f"{kind}_{'ahead' if discs > 0 else 'behind'}", discs=Text("count_discs", count=abs(discs)))


def discs_text(amount: float, exact: bool) -> Text:
    """A number of discs: "6 discs" when proven, "about 4 discs" (rounded) when estimated."""
    discs = Text("count_discs", count=whole(amount))
    return discs if exact else Text("about_discs", discs=discs)


def squares_text(key: str, names: Sequence[str]) -> Text:
    """A text about some squares, with the language's plural for their number."""
    return Text(key, squares=Listed(tuple(names)), count=len(names))


def pass_notice(board: Board, color: Color) -> Renders:
    """``color`` passed: once ("Black has no legal move and passes; White moves again", then
    once White has moved "Black had no legal move and passed; White played e3"), or how
    many times in a row since its last move, and what the other side played meanwhile
    ("... passed 6 times in a row; White played e3, f2, ...")."""
    stack = board.move_stack
    root_turn = board.turn if len(stack) % 2 == 0 else not board.turn
    passes, theirs = 0, []
    for ply in range(len(stack) - 1, -1, -1):
        move, mover = stack[ply], root_turn if ply % 2 == 0 else not root_turn
        if mover == color:
            if move:
                break  # its last move
            passes += 1
        elif move:
            theirs.append(str(move))
    other, played = color_text(not color), Listed(tuple(theirs[::-1]))
    if passes > 1:
        return Text("notice_passes", color=color_text(color), other=other, count=passes, moves=played)
    if stack and not stack[-1]:  # just passed: the other side moves next
        return Text("notice_pass", color=color_text(color), other=other)
    return Text("notice_passed", color=color_text(color), other=other, moves=played)
