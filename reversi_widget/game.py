"""``Game``: a whole game as a record, with players, moves, result and metadata.

Boards are for playing; a game record is for keeping, exchanging (GGF, WTHOR,
transcripts) and counting who wins most often (R25).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .board import Board, Move, Outcome
from .errors import IllegalMoveError, InvalidPositionError
from .rules import Rules
from .squares import square_name

__all__ = ["Game"]


@dataclass
class Game:
    """A game record. ``moves`` are replayed from the start of ``rules`` (which may be a
    custom start position); ``result`` is the recorded final score ``(black, white)``
    when the source gives one (it may differ from the board, e.g. after a resignation)."""

    moves: list[Move] = field(default_factory=list)
    rules: Rules = field(default_factory=Rules)
    black_player: str = "Black"
    white_player: str = "White"
    event: str = ""
    date: str = ""
    result: tuple[int, int] | None = None
    metadata: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board()  # refuse a record whose moves are not legal, at once

    # -- building ---------------------------------------------------------------------

    @classmethod
    def from_board(cls, board: Board, **meta: object) -> Game:
        """The game that led to ``board``: its rules, root position and move stack."""
        rules = board.rules
        root = board.root()
        if root != Board(rules=rules):
            rules = Rules(
                size=rules.size, start=root.to_string(), goal=rules.goal, scoring=rules.scoring, supply=rules.supply
            )
        game = cls(list(board.move_stack), rules, **meta)  # type: ignore[arg-type]
        if game.result is None and (outcome := board.outcome()) is not None:
            game.result = (outcome.black, outcome.white)
        return game

    @classmethod
    def from_transcript(cls, text: str, *, rules: Rules | None = None, **meta: object) -> Game:
        """A game from a transcript like ``"f5d6c3..."`` (forced passes may be omitted)."""
        return cls.from_board(Board.from_transcript(text, rules=rules), **meta)

    # -- reading ----------------------------------------------------------------------

    def board(self) -> Board:
        """The final position, with the whole move stack."""
        return self.board_at(len(self.moves))

    def board_at(self, ply: int) -> Board:
        """The position after ``ply`` moves (0 is the start)."""
        if not 0 <= ply <= len(self.moves):
            raise IndexError(f"ply {ply} is outside this game of {len(self.moves)} moves")
        board = Board(rules=self.rules)
        for number, move in enumerate(self.moves[:ply], 1):
            try:
                board.push(move)
            except (IllegalMoveError, ValueError) as error:
                raise InvalidPositionError(f"move {number} of the game ({move}) cannot be played: {error}") from None
        return board

    def positions(self) -> Iterator[Board]:
        """Every position from the start to the end (copies, so they can be kept)."""
        board = Board(rules=self.rules)
        yield board.copy()
        for move in self.moves:
            board.push(move)
            yield board.copy()

    def __iter__(self) -> Iterator[Board]:
        return self.positions()

    def __len__(self) -> int:
        return len(self.moves)

    def outcome(self) -> Outcome | None:
        """The result the board gives (``None`` if the moves stop before the end)."""
        return self.board().outcome()

    def transcript(self, *, passes: bool = False) -> str:
        """The moves as ``"f5d6c3..."`` (passes omitted unless ``passes=True``)."""
        return "".join(
            square_name(m.square, self.rules.size) if m.square is not None else "pass"
            for m in self.moves
            if m or passes
        )
