"""Reading a game to show: a ``Board`` from anything the widget's ``load`` accepts, and the
variations a ``Game`` brings with it."""

from __future__ import annotations

from ..board import Board
from ..errors import InvalidMoveError, InvalidPositionError
from ..game import Game
from ..ggf import read_ggf
from ..notation import parse_position
from ..rules import Rules
from .texts import quote_input

__all__ = ["read_board", "tree_of"]


def read_board(source: object, rules: Rules | None) -> Board:
    """A board with its move stack from a ``Board``, a ``Game``, a GGF record, a transcript
    or a position string; text is read under ``rules``. Raises and reads nothing else."""
    if source is None:
        return Board(rules=rules)
    if isinstance(source, Board):
        return source.copy()
    if isinstance(source, Game):
        return source.board()
    if not isinstance(source, str):
        raise InvalidPositionError(
            f"cannot load {quote_input(source)}: expected a Board, a Game, a GGF record, a transcript or a position"
        )
    if source.lstrip().startswith("(;"):
        return read_ggf(source).board()
    try:
        return Board.from_transcript(source, rules=rules)
    except InvalidMoveError as transcript_error:
        try:
            position = parse_position(source)
        except InvalidPositionError as position_error:
            raise InvalidPositionError(
                f"cannot read {quote_input(source)} as a transcript ({transcript_error}) "
                f"or as a position ({position_error})"
            ) from None
        if rules is not None and position.size == rules.size:
            return Board(source, rules=rules)
        return Board.from_string(source)


def tree_of(source: object) -> Game | None:
    """The tree of variations a loaded ``Game`` brings (its main line is what ``read_board``
    reads); None for anything else, which has a single line."""
    return source if isinstance(source, Game) else None
