"""``Board``: a position, its rules, and the moves that led to it (python-chess style)."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from .errors import IllegalMoveError, InvalidMoveError, quote
from .geometry import Geometry, geometry, squares_of
from .move import Move as Move
from .move import moves_of_mask, single_word_tables
from .notation import format_diagram, format_line, parse_position, parse_transcript
from .rules import FREE_START, START_LAYOUTS, Rules, read_position, supplies
from .squares import (
    BLACK,
    COLOR_NAMES,
    WHITE,
    Color,
    Square,
    check_square,
    parse_square,
)

__all__ = ["Board", "LegalMoveList", "Outcome", "Termination"]


@cache
def _named_start(size: int, start: str) -> tuple[int, int]:
    """(black, white) bitboards of a named start (R5-R8), worked out once per size."""
    if start == FREE_START:
        return 0, 0
    base = (size // 2 - 1) * size + size // 2 - 1
    centre = [base, base + 1, base + size, base + size + 1]
    black_squares = {base + r * size + c for r, c in START_LAYOUTS[start]}
    return sum(1 << sq for sq in black_squares), sum(1 << sq for sq in centre if sq not in black_squares)


class Termination(enum.Enum):
    """Why the game ended (R20)."""

    FULL_BOARD = "the board is full"
    NO_MOVES = "neither side can move"
    WIPE_OUT = "one colour has no discs left"


@dataclass(frozen=True)
class Outcome:
    """The result: ``winner`` is ``BLACK``, ``WHITE`` or ``None`` (draw) under the goal;
    ``black`` and ``white`` are the final counts under the scoring."""

    winner: Color | None
    black: int
    white: int
    reason: Termination

    def result(self) -> str:
        """``"35-29"``: Black's score first."""
        return f"{self.black}-{self.white}"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{COLOR_NAMES[self.winner]} wins"
        return f"{who} {self.result()} ({self.reason.value})"


# What ``pop`` needs to take a move back exactly: the move, the flipped discs, and
# whether the disc was borrowed from the opponent's supply (R4).
_Undo = tuple[Move, int, bool]


class LegalMoveList:
    """The legal moves of a board's current position: supports ``in`` (a ``Move`` or a square
    name), ``len``, iteration and ``bool``. A live view, like python-chess's: after a push
    it lists the new position's moves. A pass is never in it: ``board.must_pass()`` says
    when one is due."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __contains__(self, move: object) -> bool:
        size = self._board.size
        try:
            if isinstance(move, str):
                move = Move.from_name(move, size)
        except InvalidMoveError:
            return False
        if not isinstance(move, Move) or move.square is None or move.size != size:
            return False
        return bool(self._board._legal_mask() >> move.square & 1)

    def __iter__(self) -> Iterator[Move]:
        board = self._board
        cached = board._legal  # ``_legal_mask``'s cache, looked at here to save a call
        if cached is not None and cached[0] is board._black and cached[1] is board._white and cached[2] is board.turn:
            mask = cached[3]
        else:
            mask = board._legal_mask()
        tables = board._word_tables
        if tables is None:
            return iter(moves_of_mask(board.size, mask))
        t0, t1, t2, t3, t4, t5, t6, t7 = tables  # one 64-square word: the look-up of ``moves_of_mask``, inlined
        b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
        return iter((*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7]))

    def __len__(self) -> int:
        board = self._board
        cached = board._legal
        if cached is not None and cached[0] is board._black and cached[1] is board._white and cached[2] is board.turn:
            return cached[3].bit_count()
        return board._legal_mask().bit_count()

    def __bool__(self) -> bool:
        return bool(self._board._legal_mask())

    def count(self) -> int:
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalMoveList ({', '.join(str(m) for m in self)})>"


class Board:
    """A Reversi position with its rules and move stack.

    ``Board()`` is the start of classic 8x8 Othello; ``Board(position, rules=...)`` takes
    either text form of ``to_string``/``str``. Every method that can fail leaves the
    board exactly as it was.
    """

    def __init__(self, position: str | None = None, *, rules: Rules | None = None) -> None:
        if rules is None:  # without rules, a position's own size decides (classic rules otherwise)
            rules = Rules() if position is None else Rules(size=parse_position(position).size)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}")
        self.rules = rules
        self.size = rules.size
        self._geo: Geometry = geometry(rules.size)
        self._word_tables = single_word_tables(rules.size)
        self._free = rules.start == FREE_START
        # Neither the free start nor a disc supply: ``push`` and ``pop`` take a short path.
        self._plain = not self._free and rules.supply is None
        # The legal-move mask with the position it belongs to: (black, white, turn, mask).
        self._legal: tuple[int, int, bool, int] | None = None
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        if position is None:
            self._set_start()
        else:
            self.set_position(position)
        self._initial = (self._black, self._white, self.turn, self.supply)

    @property
    def geometry(self) -> Geometry:
        """The masks and move generation of this board's size, for searches that work on
        bitboards (``sides()``) instead of ``Move`` lists."""
        return self._geo

    # -- setting up -------------------------------------------------------------------

    def _set_start(self) -> None:
        if self.rules.is_named_start:
            black, white = _named_start(self.size, self.rules.start)
            self._black, self._white, self.turn = black, white, BLACK
            self.supply = supplies(self.rules, black, white, None)
        else:
            self._black, self._white, self.turn, self.supply = read_position(self.rules.start, self.rules)

    def set_position(self, position: str) -> None:
        """Replace the position (and clear the move stack) from either text form.

        The text is read and checked whole before anything changes."""
        state = read_position(position, self.rules)
        self._black, self._white, self.turn, self.supply = state
        self.move_stack.clear()
        self._undo.clear()
        self._initial = state

    @classmethod
    def from_string(cls, text: str, *, rules: Rules | None = None) -> Board:
        """Read either text form; the size comes from the text unless ``rules`` gives one."""
        return cls(text, rules=rules)

    @classmethod
    def from_transcript(cls, text: str, *, rules: Rules | None = None) -> Board:
        """Play a transcript like ``"f5d6c3d3c4"`` from the start; forced passes may be omitted."""
        board = cls(rules=rules)
        board.push_transcript(text)
        return board

    def push_transcript(self, text: str) -> None:
        """Play a transcript from here, all or nothing: on an error the board is unchanged.

        The moves are played on a copy; the board takes them over only when all are legal."""
        squares = parse_transcript(text, self.size)
        trial = self.copy()
        for number, square in enumerate(squares, 1):
            if square is not None and trial.must_pass():
                trial.push_pass()  # an omitted forced pass
            move = Move(square, self.size)
            try:
                trial.push(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"transcript move {number} ({move}): {error}") from None
        played = len(self.move_stack)
        self._black, self._white, self.turn, self.supply = trial._black, trial._white, trial.turn, trial.supply
        self._undo.extend(trial._undo[played:])
        self.move_stack.extend(trial.move_stack[played:])

    # -- reading ----------------------------------------------------------------------

    def bitboards(self) -> tuple[int, int]:
        """(black, white) as bitboards: bit ``square`` is set where that colour has a disc."""
        return self._black, self._white

    def sides(self) -> tuple[int, int]:
        """(mover, opponent) bitboards: the pair the move generator and the searches take."""
        return (self._black, self._white) if self.turn == BLACK else (self._white, self._black)

    def disc_at(self, square: Square | str) -> Color | None:
        """The colour of the disc on a square, or ``None`` if it is empty."""
        sq = parse_square(square, self.size) if isinstance(square, str) else check_square(square, self.size)
        if self._black >> sq & 1:
            return BLACK
        if self._white >> sq & 1:
            return WHITE
        return None

    def count(self, color: Color) -> int:
        """Discs of a colour on the board."""
        return (self._black if color == BLACK else self._white).bit_count()

    def empty_count(self) -> int:
        return self.size * self.size - (self._black | self._white).bit_count()

    @property
    def ply(self) -> int:
        """Moves (passes included) played since the position was set."""
        return len(self.move_stack)

    def in_placement(self) -> bool:
        """True while the four centre discs of the free start are still being placed (R8)."""
        return self._free and bool(self._geo.centre & ~(self._black | self._white))

    def _legal_mask(self) -> int:
        """The side to move's legal moves as a bitboard, worked out once per position.

        The cache is keyed by the very int objects of the position it was computed from, so
        it can never answer for another position, even when a reader in another thread
        races a push: a push or pop makes new ints, and the key no longer matches."""
        black, white, turn = self._black, self._white, self.turn
        cached = self._legal
        if cached is not None and cached[0] is black and cached[1] is white and cached[2] is turn:
            return cached[3]
        if self._free and (open_centre := self._geo.centre & ~(black | white)):
            mask = open_centre  # the free start's centre discs are still being placed (R8)
        elif turn:
            mask = self._geo.moves(black, white)
        else:
            mask = self._geo.moves(white, black)
        self._legal = (black, white, turn, mask)
        return mask

    @property
    def legal_moves(self) -> LegalMoveList:
        return LegalMoveList(self)

    def flips(self, move: Move | str) -> list[Square]:
        """The squares a legal move would flip (empty for a pass or a free-start placement)."""
        m = self.parse_move(move)
        if m.square is None:
            return []
        self._check_legal(m)
        return squares_of(self._flip_mask(m.square))

    def _flip_mask(self, square: Square) -> int:
        if self.in_placement():
            return 0
        p, o = self.sides()
        return self._geo.flips(p, o, square)

    def must_pass(self) -> bool:
        """True when the side to move has no legal move but the opponent has one (R18)."""
        if self._legal_mask():
            return False
        p, o = self.sides()
        return bool(self._geo.moves(o, p))

    def is_game_over(self) -> bool:
        """Neither side can move (R20): full board, wipe-out, or empties nobody can take."""
        if self._legal_mask():  # a free start's placements count; usually already worked out
            return False
        p, o = self.sides()
        return not self._geo.moves(o, p)

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs, else the result under the goal and scoring (R21-R23)."""
        if not self.is_game_over():
            return None
        black, white = self.count(BLACK), self.count(WHITE)
        empties = self.empty_count()
        if not black or not white:
            reason = Termination.WIPE_OUT
        elif not empties:
            reason = Termination.FULL_BOARD
        else:
            reason = Termination.NO_MOVES
        if black == white:
            return Outcome(None, black, white, reason)  # R22: a draw, whatever the scoring
        more = BLACK if black > white else WHITE
        winner = more if self.rules.goal == "classic" else not more
        if self.rules.scoring == "tournament":
            # R23: the empties widen the winner's margin. Under the inverted goal a wider
            # margin means more discs for the loser, so that is where they go.
            gets_empties = winner if self.rules.goal == "classic" else not winner
            if gets_empties == BLACK:
                black += empties
            else:
                white += empties
        return Outcome(winner, black, white, reason)

    def peek(self) -> Move:
        """The last move played."""
        if not self.move_stack:
            raise IndexError("no move has been played")
        return self.move_stack[-1]

    # -- playing ----------------------------------------------------------------------

    def parse_move(self, move: Move | str) -> Move:
        """A ``Move`` of this board from a ``Move`` or a square name (``"pass"`` for the pass).

        Checks the form only, not legality (``push`` does that); raises ``InvalidMoveError``."""
        if isinstance(move, Move):
            if move.size != self.size:
                raise InvalidMoveError(
                    f"{move!r} is for a {move.size}x{move.size} board, this one is {self.size}x{self.size}"
                )
            return move
        if isinstance(move, str):
            return Move.from_name(move, self.size)
        raise InvalidMoveError(f"a move must be a Move or a square name like 'd3', got {quote(move)}")

    def _check_legal(self, move: Move) -> None:
        if self.is_game_over():
            raise IllegalMoveError(f"{move} is illegal: the game is over")
        if move.square is None:
            if self._legal_mask():
                raise IllegalMoveError(
                    f"{COLOR_NAMES[self.turn]} may not pass while a move exists (R19): "
                    f"legal moves are {', '.join(str(m) for m in self.legal_moves)}"
                )
            return
        sq = move.square
        if (self._black | self._white) >> sq & 1:
            raise IllegalMoveError(f"{move} is illegal: the square is occupied")
        if not self._legal_mask() >> sq & 1:
            if self.in_placement():
                raise IllegalMoveError(f"{move} is illegal: the free start first fills the four centre squares (R8)")
            raise IllegalMoveError(
                f"{move} is illegal for {COLOR_NAMES[self.turn]}: it flanks no opponent disc in any direction (R12)"
            )

    def push(self, move: Move | str) -> None:
        """Play a legal move (a ``Move`` or a square name); raise and change nothing otherwise."""
        if type(move) is Move and self._plain:
            # The common case, kept short: a disc that flips something is a legal move.
            sq, size = move
            if sq is not None and size == self.size:
                black, white, turn = self._black, self._white, self.turn
                play = self._geo.play
                if play is not None:
                    # Compiled: the flips and the replies in one call; the replies fill the
                    # legal-move cache of the position the move leads to.
                    flipped, replies = play(size, sq, black, white) if turn else play(size, sq, white, black)
                    if flipped:
                        if turn:
                            black, white = black | flipped | 1 << sq, white ^ flipped
                        else:
                            black, white = black ^ flipped, white | flipped | 1 << sq
                        self._black, self._white, self.turn = black, white, not turn
                        self._legal = (black, white, not turn, replies)
                        self._undo.append((move, flipped, False))
                        self.move_stack.append(move)
                        return
                else:
                    p, o = (black, white) if turn else (white, black)
                    if not (p | o) >> sq & 1 and (flipped := self._geo.flippers[sq](p, o)):
                        if turn:
                            self._black, self._white = black | flipped | 1 << sq, white ^ flipped
                        else:
                            self._black, self._white = black ^ flipped, white | flipped | 1 << sq
                        self.turn = not turn
                        self._undo.append((move, flipped, False))
                        self.move_stack.append(move)
                        return
        m = self.parse_move(move)
        self._check_legal(m)
        if m.square is None:
            self._push_unchecked(m, 0)
        else:
            self._push_unchecked(m, self._flip_mask(m.square))

    def push_pass(self) -> None:
        """Pass; legal only when the side to move has no move and the game is not over (R18, R19)."""
        self.push(Move(None, self.size))

    def _push_unchecked(self, move: Move, flipped: int) -> None:
        borrowed = False
        if move.square is not None:
            bit = 1 << move.square
            if self.turn == BLACK:
                self._black |= bit | flipped
                self._white ^= flipped
            else:
                self._white |= bit | flipped
                self._black ^= flipped
            if self.supply is not None:
                own, other = self.supply if self.turn == BLACK else self.supply[::-1]
                borrowed = own == 0  # R4: a player out of discs is given one by the opponent
                own, other = (own, other - 1) if borrowed else (own - 1, other)
                self.supply = (own, other) if self.turn == BLACK else (other, own)
        self._undo.append((move, flipped, borrowed))
        self.move_stack.append(move)
        self.turn = not self.turn

    def pop(self) -> Move:
        """Take back the last move and return it; the position is restored exactly."""
        if not self._undo:
            raise IndexError("pop from a board with no moves played")
        move, flipped, borrowed = self._undo.pop()
        self.move_stack.pop()
        self.turn = turn = not self.turn
        if move.square is not None:
            placed = flipped | 1 << move.square
            if turn:
                self._black, self._white = self._black & ~placed, self._white | flipped
            else:
                self._black, self._white = self._black | flipped, self._white & ~placed
            if self.supply is not None:
                own, other = self.supply if turn else self.supply[::-1]
                own, other = (own, other + 1) if borrowed else (own + 1, other)
                self.supply = (own, other) if turn else (other, own)
        return move

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy (with the move stack unless ``stack=False``)."""
        board = Board.__new__(Board)
        board.rules, board.size, board._geo, board._free = self.rules, self.size, self._geo, self._free
        board._word_tables = self._word_tables
        board._plain, board._legal = self._plain, self._legal
        board._black, board._white, board.turn, board.supply = self._black, self._white, self.turn, self.supply
        board.move_stack = list(self.move_stack) if stack else []
        board._undo = list(self._undo) if stack else []
        board._initial = self._initial if stack else (self._black, self._white, self.turn, self.supply)
        return board

    def root(self) -> Board:
        """A copy of the position before the first move of the stack."""
        board = self.copy(stack=False)
        board._black, board._white, board.turn, board.supply = self._initial
        board._initial = self._initial
        return board

    # -- text forms -------------------------------------------------------------------

    def to_string(self) -> str:
        """The one-line form: squares from a1 (``X``/``O``/``-``), the side to move, the supplies."""
        return format_line(self.size, self._black, self._white, self.turn, self.supply)

    def transcript(self, *, passes: bool = False) -> str:
        """The moves from the start as ``"f5d6c3..."``; passes only if ``passes=True``."""
        return "".join(str(m) if m else "pass" for m in self.move_stack if m or passes)

    def _repr_svg_(self) -> str:
        """A bare ``board`` at the end of a notebook cell shows the picture, last move marked."""
        from .svg import board as svg_board  # imported late: the rules engine needs no pictures

        return svg_board(self, lastmove=self.move_stack[-1] if self.move_stack else None)

    def __str__(self) -> str:
        return format_diagram(self.size, self._black, self._white, self.turn, self.supply)

    def __repr__(self) -> str:
        rules = "" if self.rules == Rules() else f", rules={self.rules!r}"
        return f"Board({self.to_string()!r}{rules})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rules, self._black, self._white, self.turn, self.supply) == (
            other.rules,
            other._black,
            other._white,
            other.turn,
            other.supply,
        )

    __hash__ = None  # type: ignore[assignment]  # a board is mutable
