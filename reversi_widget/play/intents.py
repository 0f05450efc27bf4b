"""Intents from the front end: a message checked in full becomes an ``Intent``, or a refusal.

``parse`` checks the envelope (a small dict without buffers), the kind, the exact fields
and their JSON types, the square's spelling and the ply the intent was made at;
``perform`` then looks the kind up in ``ACTIONS``, a table from kind to the session's (or
the aids') method. The contract is js/PROTOCOL.md, "Intents".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..board import Move
from ..errors import InvalidMoveError
from ..squares import parse_square, square_name
from .aids import Aids
from .coach import COACH_INTENTS, coach_action
from .editor import EDIT_INTENTS, edit_action
from .practising import practice_done, practice_flip, practice_reveal
from .puzzling import PUZZLE_INTENTS, hides_answer, puzzle_action
from .quizzing import QUIZ_INTENTS, quiz_action
from .session import Session
from .texts import Refusal, Text, quote_input
from .variations import VARIATION_INTENTS, variation_action

__all__ = ["ACTIONS", "INTENTS", "MAX_INTENT_SIZE", "TIMELESS_INTENTS", "Intent", "parse", "perform"]

#: Intent kind -> its fields besides ``kind`` and their JSON types (js/PROTOCOL.md, "Intents").
INTENTS: dict[str, dict[str, type]] = {
    "move": {"square": str, "ply": int},
    "pass": {"ply": int},
    "undo": {"ply": int},
    "redo": {"ply": int},
    "new_game": {"ply": int},
    "jump": {"to": int, "ply": int},
    "practice_flip": {"square": str, "ply": int},
    "practice_done": {"ply": int},
    "practice_reveal": {"ply": int},
    "hint": {"ply": int},
    "review": {"ply": int},
    "pause": {"ply": int},
    "resume": {"ply": int},
    "puzzle_next": {"puzzle": int, "ply": int},
    "puzzle_retry": {"puzzle": int, "ply": int},
    "puzzle_solution": {"puzzle": int, "ply": int},
    "puzzle_play_out": {"puzzle": int, "ply": int},
    "edit": {"ply": int},
    "edit_square": {"square": str, "ply": int},
    "edit_turn": {"color": str, "ply": int},
    "edit_clear": {"ply": int},
    "edit_start": {"ply": int},
    "edit_done": {"ply": int},
    "edit_cancel": {"ply": int},
    "explorer_game": {"square": str, "to": int, "ply": int},
    "quiz_mark": {"square": str, "ply": int},
    "quiz_check": {"ply": int},
    "quiz_clear": {"ply": int},
    "quiz_reveal": {"ply": int},
    "coach_retry": {"ply": int},
    "coach_go_on": {"ply": int},
    **{kind: {"node": int, "ply": int} for kind in VARIATION_INTENTS},
}
#: Intents that do not depend on the position, so they are never refused as stale (a
#: Pause click during a fast computer game is always out of date by a move or two).
TIMELESS_INTENTS = ("pause", "resume")
#: What a click on the board sends outside square-marking mode: refused while a quiz is open.
_CLICKS = ("move", "practice_flip", "edit", "edit_square")
#: An intent is a few short fields; anything bigger (counting characters) is refused unread.
MAX_INTENT_SIZE = 256


@dataclass(frozen=True)
class Intent:
    """A checked intent: its kind, the move on its square (or the pass), ``to`` for a jump,
    ``node`` for a variation's node."""

    kind: str
    move: Move
    to: int = 0
    color: str = ""
    node: int = 0


Action = Callable[[Session, Aids, Intent], "Refusal | None"]

#: What each kind of intent does: one method of the session or the aids.
ACTIONS: dict[str, Action] = {
    "move": lambda session, aids, intent: session.human_move(intent.move),
    "pass": lambda session, aids, intent: session.human_move(intent.move),
    "undo": lambda session, aids, intent: session.undo(),
    "redo": lambda session, aids, intent: session.redo(),
    "new_game": lambda session, aids, intent: session.new_game(),
    "jump": lambda session, aids, intent: session.jump(intent.to),
    "practice_flip": lambda session, aids, intent: practice_flip(session, intent.move),
    "practice_done": lambda session, aids, intent: practice_done(session),
    "practice_reveal": lambda session, aids, intent: practice_reveal(session),
    "hint": lambda session, aids, intent: _hint(session, aids),
    "review": lambda session, aids, intent: aids.review(),
    "pause": lambda session, aids, intent: session.pause(),
    "resume": lambda session, aids, intent: session.resume(),
    "explorer_game": lambda session, aids, intent: aids.explorer.load(session, str(intent.move), intent.to),
    **{kind: lambda session, aids, intent: puzzle_action(session, intent.kind) for kind in PUZZLE_INTENTS},
    **{kind: lambda session, aids, intent: coach_action(session, intent.kind) for kind in COACH_INTENTS},
    **{
        kind: lambda session, aids, intent: quiz_action(session, intent.kind, str(intent.move)) for kind in QUIZ_INTENTS
    },
    **{
        kind: lambda session, aids, intent: variation_action(session, intent.kind, intent.node)
        for kind in VARIATION_INTENTS
    },
    **{
        kind: lambda session, aids, intent: edit_action(session, intent.kind, intent.move, intent.color)
        for kind in EDIT_INTENTS
    },
}


def _hint(session: Session, aids: Aids) -> Refusal | None:
    """The best move, or in an unsolved puzzle only where to look (play/puzzling.py)."""
    if session.puzzles is not None and hides_answer(session):
        return session.puzzles.hint(session)
    return aids.hint()


def perform(intent: Intent, session: Session, aids: Aids) -> Refusal | None:
    if session.editor is not None and intent.kind not in (*EDIT_INTENTS, *TIMELESS_INTENTS):
        return Refusal(Text("notice_refused_editing"))  # the board shows the editor, not the game
    if session.quiz is not None and intent.kind in _CLICKS:
        return Refusal(Text("notice_refused_quiz_open"))  # a click marks a square while a quiz is open
    if intent.kind == "hint" and session.quiz is not None and not session.quiz.settled():
        return Refusal(Text("notice_refused_quiz_hint"))  # the hint's notice could give the answer away
    return ACTIONS[intent.kind](session, aids, intent)


#: How many kinds a refusal of an unknown kind names (the rest are counted: js/PROTOCOL.md lists them).
KINDS_NAMED = 12


def _kinds_named() -> str:
    """The first kinds of ``INTENTS`` and how many more, so that the notice stays a sentence."""
    kinds = list(INTENTS)
    rest = len(kinds) - KINDS_NAMED
    return ", ".join(kinds[:KINDS_NAMED]) + (f", ... (+{rest})" if rest > 0 else "")


def parse(content: object, buffers: object, session: Session) -> Intent | Refusal:
    """The intent a message asks for, or why it is refused (nothing is changed either way)."""
    if not isinstance(content, dict):
        return Refusal(Text("notice_refused_not_dict", got=quote_input(content)))
    if buffers:
        count = len(buffers) if isinstance(buffers, (list, tuple)) else 1
        return Refusal(Text("notice_refused_buffers", count=count))
    if _payload_size(content, MAX_INTENT_SIZE) > MAX_INTENT_SIZE:
        return Refusal(Text("notice_refused_too_big", limit=MAX_INTENT_SIZE))
    kind = content.get("kind")
    if not isinstance(kind, str) or kind not in INTENTS:
        return Refusal(Text("notice_refused_kind", got=quote_input(kind), expected=_kinds_named()))
    fields = INTENTS[kind]
    if set(content) != {"kind", *fields}:
        got = ", ".join(sorted(quote_input(key) for key in content))
        return Refusal(Text("notice_refused_fields", kind=kind, expected=", ".join(["kind", *fields]), got=got))
    for field, expected in fields.items():
        value = content[field]
        if type(value) is not expected:  # bool is not an int here; 3.0 is not 3
            expected_text = Text("type_integer" if expected is int else "type_string")
            return Refusal(Text("notice_refused_type", field=field, expected=expected_text, got=quote_input(value)))
    board = session.board
    move = session.pass_move()
    if "square" in fields:
        square = _square(content["square"], board.size)
        if isinstance(square, Refusal):
            return square
        move = square
    if kind in PUZZLE_INTENTS:
        # A puzzle button speaks of the puzzle shown, not of the ply: perfect defence may
        # have answered the learner's move between the click and its arrival.
        shown = session.puzzles.index if session.puzzles is not None else None
        if shown is not None and content["puzzle"] != shown:
            return Refusal(Text("notice_refused_stale_puzzle", got=quote_input(content["puzzle"] + 1), shown=shown + 1))
    elif content["ply"] != board.ply and kind not in TIMELESS_INTENTS:
        return Refusal(Text("notice_refused_stale", got=quote_input(content["ply"]), ply=board.ply))
    return Intent(kind, move, content.get("to", 0), content.get("color", ""), content.get("node", 0))


def _square(square: str, size: int) -> Move | Refusal:
    """The move on a square named exactly as the front end writes it, or why not."""
    try:
        move = Move(parse_square(square, size), size)
    except InvalidMoveError:
        last = square_name(size * size - 1, size)
        return Refusal(Text("notice_refused_square", got=quote_input(square), size=size, last=last))
    if str(move) != square:
        return Refusal(Text("notice_refused_square_spelling", got=quote_input(square), square=str(move)))
    return move


def _payload_size(value: object, limit: int) -> int:
    """Characters and items in a decoded JSON value, counting stops soon after ``limit``."""
    size, stack = 0, [value]
    while stack and size <= limit:
        item = stack.pop()
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, dict):
            size += len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            size += len(item)
            stack.extend(item)
        else:
            size += 1
    return size
