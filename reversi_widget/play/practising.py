"""Practice (R17) in a game: a human's move only places the disc, the learner turns the
discs it flips and asks for a check, and the move is played once the flips are right (or
revealed). The state lives in the ``Session`` (``practice``, ``practice_mode``, the tally
``mistakes`` and ``practised``); these are its actions, each a change or a ``Refusal`` that
leaves everything as it was, as the session's own.
"""

from __future__ import annotations

from ..board import Move
from ..errors import IllegalMoveError
from ..explain import explain
from ..practice import FlipRefusal, PracticeError, PracticeMove
from ..squares import square_name
from .session import Session
from .texts import Explained, Joined, Plain, Refusal, Renders, Text, squares_text

__all__ = ["practice_done", "practice_flip", "practice_place", "practice_reveal", "set_practice_mode"]

_FLIP_REFUSALS = {
    FlipRefusal.EMPTY: "notice_refused_practice_empty",
    FlipRefusal.PLACED: "notice_refused_practice_placed",
    FlipRefusal.OWN: "notice_refused_practice_own",
}


def set_practice_mode(session: Session, on: bool) -> None:
    """Practice switched off with a disc placed: the move is played with its true flips,
    outside the tally (the learner chose to stop practising)."""
    session.practice_mode = on
    if not on and session.practice is not None:
        session.push(session.practice.move)
        session.clear_notice()
        session.advance()


def practice_place(session: Session, move: Move) -> Refusal | None:
    """Place a disc for the side to move as a practice move: nothing flips yet."""
    board = session.board
    refusal = (
        _practice_off(session, "practice_place") or session.practice_waiting() or session.human_refusal(PracticeError)
    )
    if refusal is not None:
        return refusal
    if not move or board.in_placement():
        text = Plain(f"{move}: only a disc placed under the normal rules flips discs to practise")
        return Refusal(text, PracticeError)
    if move not in board.legal_moves:
        return Refusal(Explained(explain(board, move)), IllegalMoveError, "explain")
    session.practice = PracticeMove.start(board, move)
    session.clear_notice()
    return None


def practice_flip(session: Session, move: Move) -> Refusal | None:
    """Turn an opponent disc of the waiting practice move (or turn it back)."""
    refusal = _no_practice(session, "practice_flip")
    if refusal is not None:
        return refusal
    practice = session.practice
    assert practice is not None
    if move.square is None:
        return Refusal(Plain(f"practice_flip needs the square of a disc, got {move}"), PracticeError)
    why = practice.refusal(move.square)
    if why is not None:
        return Refusal(Text(_FLIP_REFUSALS[why], square=str(move)), PracticeError)
    practice.toggle(move.square)
    return None


def practice_done(session: Session) -> Refusal | None:
    """Check the flips: right, the move is played; else the wrong and missed discs are
    marked and a notice says which."""
    refusal = _no_practice(session, "practice_done")
    if refusal is not None:
        return refusal
    practice = session.practice
    assert practice is not None
    first = not practice.checked
    right = practice.check()
    if first:  # the tally counts them now, beside the feedback that names them
        session.mistakes += practice.mistakes or 0
    if not right:
        size = practice.move.size
        problems: list[Renders] = []
        if practice.wrong:
            problems.append(squares_text("practice_should_not_flip", _names(practice.wrong, size)))
        if practice.missed:
            problems.append(squares_text("practice_should_flip", _names(practice.missed, size)))
        text = Text("notice_practice_not_yet", square=str(practice.move), problems=Joined(tuple(problems)))
        session.notify("explain", text)
        return None
    expl = Explained(explain(session.board, practice.move))
    _complete_practice(session, practice)
    session.notify("info", Text("notice_practice_correct", explanation=expl), lasting=True)
    session.advance()
    return None


def practice_reveal(session: Session) -> Refusal | None:
    """Show the answer: play the waiting practice move with its true flips (mistakes count)."""
    refusal = _no_practice(session, "practice_reveal")
    if refusal is not None:
        return refusal
    practice = session.practice
    assert practice is not None
    first = not practice.checked
    practice.reveal()
    if first:
        session.mistakes += practice.mistakes or 0
    expl = Explained(explain(session.board, practice.move))
    flips = ", ".join(_names(sorted(practice.correct), practice.move.size))
    _complete_practice(session, practice)
    session.notify("info", Text("notice_practice_revealed", explanation=expl, flips=flips), lasting=True)
    session.advance()
    return None


def _practice_off(session: Session, kind: str) -> Refusal | None:
    if session.practice_mode:
        return None
    return Refusal(Text("notice_refused_practice_off", kind=kind), PracticeError)


def _no_practice(session: Session, kind: str) -> Refusal | None:
    refusal = _practice_off(session, kind)
    if refusal is None and session.practice is None:
        refusal = Refusal(Text("notice_refused_practice_none"), PracticeError)
    return refusal


def _complete_practice(session: Session, practice: PracticeMove) -> None:
    """The flips are settled: play the move for real and count it (its mistakes were
    counted at its first check)."""
    session.practised += 1
    session.push(practice.move)


def _names(squares: list[int], size: int) -> list[str]:
    return [square_name(sq, size) for sq in squares]
