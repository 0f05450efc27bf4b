"""The position editor: set up a position by hand, checked by the rules when editing ends.

While editing, a click cycles a square empty -> black -> white -> empty, and the side to
move, clear and start buttons change the position freely; the game underneath is not
touched. ``check`` then referees the position as the rules referee a move: the four centre
squares hold discs (every game starts with them, R5), every disc is joined to them through
neighbouring discs (a disc is always placed next to another, R12), and the side to move has a move
unless neither side has (R18). A refused position keeps the editor open with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import Board, Move
from ..errors import InvalidPositionError
from ..geometry import geometry, squares_of
from ..notation import format_line
from ..rules import FREE_START, Rules
from ..squares import BLACK, WHITE, Color, square_name
from .session import Session
from .texts import Listed, Refusal, Text, color_text, quote_input

__all__ = ["EDIT_INTENTS", "Editor", "EditorMethods", "edit_action"]


class Editor:
    """A position being set up: discs and the side to move, nothing checked until ``check``."""

    def __init__(self, board: Board) -> None:
        self.rules = board.rules
        self.size = board.size
        self.black, self.white = board.bitboards()
        self.turn: Color = board.turn

    def position(self) -> str:
        """The one-line position string, as ``Board.to_string`` writes it."""
        return format_line(self.size, self.black, self.white, self.turn, None)

    def cycle(self, move: Move) -> None:
        """Empty -> black -> white -> empty."""
        assert move.square is not None
        bit = 1 << move.square
        if self.black & bit:
            self.black ^= bit
            self.white |= bit
        elif self.white & bit:
            self.white ^= bit
        else:
            self.black |= bit

    def set_turn(self, color: Color) -> None:
        self.turn = color

    def clear(self) -> None:
        self.black = self.white = 0

    def start(self) -> None:
        """The start of the rules' layout (the standard one for a custom or free start)."""
        rules = self.rules
        if not rules.is_named_start or rules.start == FREE_START:
            rules = Rules(size=rules.size, goal=rules.goal, scoring=rules.scoring, supply=rules.supply)
        self.black, self.white = Board(rules=rules).bitboards()
        self.turn = BLACK

    def check(self) -> Board | Refusal:
        """The position as a board to play from, or why the rules refuse it."""
        geo = geometry(self.size)
        occupied = self.black | self.white
        missing = geo.centre & ~occupied
        if missing and self.rules.start != FREE_START:
            names = tuple(square_name(sq, self.size) for sq in squares_of(missing))
            return Refusal(Text("notice_refused_edit_centre", squares=Listed(names)), InvalidPositionError)
        apart = self._apart(occupied, geo.centre)
        if apart is not None:
            return Refusal(Text("notice_refused_edit_apart", square=apart), InvalidPositionError)
        rules = Rules(size=self.size, goal=self.rules.goal, scoring=self.rules.scoring, supply=self.rules.supply)
        board = Board(self.position(), rules=rules)
        if board.must_pass():
            turn = board.turn
            text = Text("notice_refused_edit_turn", color=color_text(turn), other=color_text(not turn))
            return Refusal(text, InvalidPositionError)
        return board

    def _apart(self, occupied: int, centre: int) -> str | None:
        """The first disc not joined to the centre's discs through neighbouring discs."""
        n = self.size
        reached = occupied & centre
        frontier = squares_of(reached)
        while frontier:
            sq = frontier.pop()
            row, col = divmod(sq, n)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = row + dr, col + dc
                    if 0 <= r < n and 0 <= c < n and occupied >> (r * n + c) & 1 and not reached >> (r * n + c) & 1:
                        reached |= 1 << (r * n + c)
                        frontier.append(r * n + c)
        apart = squares_of(occupied & ~reached)
        return square_name(apart[0], n) if apart else None


def color_of(name: str) -> Color | None:
    """``"black"``/``"white"`` as a colour, else None."""
    return {"black": BLACK, "white": WHITE}.get(name)


EDIT_INTENTS = ("edit", "edit_square", "edit_turn", "edit_clear", "edit_start", "edit_done", "edit_cancel")


def edit_action(session: Session, kind: str, move: Move | None = None, color: str = "") -> Refusal | None:
    """One step of the editor; ``edit`` opens it, ``edit_done`` closes it if the rules agree."""
    if kind == "edit":
        if session.puzzles is not None:
            return Refusal(Text("notice_refused_edit_in_puzzle"))
        if session.editor is None:
            session.stop_for_editing()
            session.editor = Editor(session.board)
            session.clear_notice()
        return None
    editor = session.editor
    if editor is None:
        return Refusal(Text("notice_refused_not_editing", kind=kind))
    if kind == "edit_square" and move is not None and move.square is not None:
        editor.cycle(move)
    elif kind == "edit_turn":
        turn = color_of(color)
        if turn is None:
            return Refusal(Text("notice_refused_edit_color", got=quote_input(color)))
        editor.set_turn(turn)
    elif kind == "edit_clear":
        editor.clear()
    elif kind == "edit_start":
        editor.start()
    elif kind == "edit_cancel":
        session.editor = None
    elif kind == "edit_done":
        checked = editor.check()
        if isinstance(checked, Refusal):
            return checked
        session.start(checked)
        session.notify("info", Text("notice_edit_done", color=color_text(checked.turn)))
    if kind != "edit_done":
        session.clear_notice()  # a refusal shown before is out of date
    return None


class EditorMethods:
    """The position editor from Python: ``ReversiWidget`` has these methods."""

    def _act(self, action: Callable[[Session], Refusal | None]) -> None:
        """One action of the session, its refusal raised (the widget's own)."""
        raise NotImplementedError

    def edit(self) -> None:
        """Edit mode: the board shows the position being set up; the game waits."""
        self._act(lambda session: edit_action(session, "edit"))

    def edit_square(self, square: Move | str) -> None:
        """Cycle a square empty -> black -> white -> empty."""
        self._act(lambda session: edit_action(session, "edit_square", session.board.parse_move(square)))

    def edit_turn(self, color: str) -> None:
        """``"black"`` or ``"white"`` to move."""
        self._act(lambda session: edit_action(session, "edit_turn", color=color))

    def edit_clear(self) -> None:
        self._act(lambda session: edit_action(session, "edit_clear"))

    def edit_start(self) -> None:
        self._act(lambda session: edit_action(session, "edit_start"))

    def edit_done(self) -> None:
        """Leave edit mode with the position set up; refused (and still editing) when the
        rules cannot accept it: empty centre squares, a disc apart, a side that must pass."""
        self._act(lambda session: edit_action(session, "edit_done"))

    def edit_cancel(self) -> None:
        self._act(lambda session: edit_action(session, "edit_cancel"))
