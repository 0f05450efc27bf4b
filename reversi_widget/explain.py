"""Why a move is legal or illegal, as data first and as text in four languages second.

``explain(board, "d3")`` walks the eight directions from the square the way a player
checks a move by eye (R10-R16) and records, per direction, the discs it flanks or why
it flanks nothing. Illegal moves get every reason that forbids them, not just the
first. The result is a frozen value that scripts and tests can inspect; its text forms
are built only from the locale files, so every language says the same thing.
"""

from __future__ import annotations

import enum
import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import Board, Move
from .errors import InvalidMoveError, ReversiError, quote
from .geometry import DIRECTIONS, geometry, squares_of
from .i18n import check_language, translate
from .rules import Rules
from .squares import ASCII_SPACE, BLACK, COLOR_NAMES, WHITE, Color, Square, check_square, square_name

if TYPE_CHECKING:
    from .svg import SvgImage

__all__ = ["DirectionExplanation", "Explanation", "LineCode", "Reason", "ReasonCode", "explain"]

FLIP_FILL = "rgba(255, 193, 7, 0.55)"  # amber under the discs that would flip
OPEN_RUN_ARROW = "#9e9e9e"  # grey arrows for runs that nothing closes


class ReasonCode(enum.Enum):
    """A rule-level fact about a move; the ones that ``forbid`` make it illegal."""

    GAME_OVER = "game_over"  # R20: neither side can move
    NOT_YOUR_TURN = "not_your_turn"  # R9: the players alternate
    OCCUPIED = "occupied"  # R10: a disc goes on an empty square
    CENTRE_FIRST = "centre_first"  # R8: the free start fills the four centre squares first
    PASS_WHILE_MOVES = "pass_while_moves"  # R19: no pass while a move exists
    FLANKS_NOTHING = "flanks_nothing"  # R12: a move must flank at least one disc
    PLACEMENT = "placement"  # R8: a free-start placement, legal and flipping nothing
    NO_LEGAL_MOVE = "no_legal_move"  # R18: a legal pass

    @property
    def forbids(self) -> bool:
        """True for the reasons that make a move illegal."""
        return self not in (ReasonCode.PLACEMENT, ReasonCode.NO_LEGAL_MOVE)

    @property
    def rule(self) -> str:
        """The rule of RULES.md this reason applies."""
        return _RULES[self]


_RULES = {
    ReasonCode.GAME_OVER: "R20",
    ReasonCode.NOT_YOUR_TURN: "R9",
    ReasonCode.OCCUPIED: "R10",
    ReasonCode.CENTRE_FIRST: "R8",
    ReasonCode.PASS_WHILE_MOVES: "R19",
    ReasonCode.FLANKS_NOTHING: "R12",
    ReasonCode.PLACEMENT: "R8",
    ReasonCode.NO_LEGAL_MOVE: "R18",
}


@dataclass(frozen=True)
class Reason:
    """One reason with its parameters.

    ``color`` is the owner of the disc for ``OCCUPIED`` and the side to move for
    ``NOT_YOUR_TURN``; ``squares`` are the empty centre squares for ``CENTRE_FIRST``
    and the legal moves for ``PASS_WHILE_MOVES``.
    """

    code: ReasonCode
    color: Color | None = None
    squares: tuple[Square, ...] = ()


class LineCode(enum.Enum):
    """What one direction from the square holds (R10, R16)."""

    FLANKS = "flanks"  # opponent discs closed by an own disc: they flip
    EDGE = "edge"  # the square is on the edge in this direction
    EMPTY = "empty"  # the next square is empty
    OWN_DISC = "own_disc"  # the next square holds an own disc, so there is nothing between
    RUN_TO_EDGE = "run_to_edge"  # opponent discs up to the edge, no own disc closes them
    RUN_TO_EMPTY = "run_to_empty"  # opponent discs followed by an empty square


@dataclass(frozen=True)
class DirectionExplanation:
    """One of the eight directions from the square.

    ``run`` is the unbroken line of opponent discs next to the square (possibly empty);
    ``end`` is the square that stopped the walk: the closing own disc (``FLANKS``), the
    own neighbour (``OWN_DISC``) or the empty square (``EMPTY``, ``RUN_TO_EMPTY``);
    ``None`` when the walk reached the edge.
    """

    direction: str
    code: LineCode
    run: tuple[Square, ...] = ()
    end: Square | None = None

    @property
    def flanks(self) -> bool:
        return self.code is LineCode.FLANKS


@dataclass(frozen=True)
class Explanation:
    """Why ``square`` is legal or illegal for ``color`` in ``position`` (``square`` is None for a pass).

    ``legal`` is True when no reason forbids the move; ``directions`` covers all eight
    directions whenever flanking decides (an empty square outside the free start);
    ``flips`` are the discs a legal move flips, as ``board.flips`` gives them.
    """

    square: Square | None
    color: Color
    legal: bool
    reasons: tuple[Reason, ...]
    directions: tuple[DirectionExplanation, ...]
    flips: tuple[Square, ...]
    position: str
    rules: Rules
    language: str = "en"

    @property
    def size(self) -> int:
        return self.rules.size

    @property
    def is_pass(self) -> bool:
        return self.square is None

    @property
    def codes(self) -> tuple[ReasonCode, ...]:
        """The reason codes alone, in order."""
        return tuple(reason.code for reason in self.reasons)

    def board(self) -> Board:
        """A fresh board of the explained position."""
        return Board(self.position, rules=self.rules)

    def direction(self, name: str) -> DirectionExplanation:
        """The explanation of one direction by its name ("north", "south-east"...)."""
        for item in self.directions:
            if item.direction == name:
                return item
        if name not in DIRECTIONS:
            raise ReversiError(f"unknown direction {quote(name)}: expected one of {', '.join(DIRECTIONS)}")
        raise ReversiError(f"no direction is explained for {self._name('en')}: {self._why_no_directions()}")

    def _why_no_directions(self) -> str:
        if self.is_pass:
            return "a pass places no disc"
        if ReasonCode.OCCUPIED in self.codes:
            return "the square is occupied"
        return "the free start places discs without flanking"

    # -- text -----------------------------------------------------------------------------

    def text(self, language: str | None = None) -> str:
        """The full explanation as one sentence, in ``language`` (default: the one asked for)."""
        return _Writer(self, language).text()

    def short(self, language: str | None = None) -> str:
        """One short sentence for a notice: the main reason only."""
        return _Writer(self, language).short()

    def __str__(self) -> str:
        return self.text()

    def _name(self, language: str) -> str:
        if self.square is None:
            return translate("explain_pass_name", language)
        return square_name(self.square, self.size)

    # -- pictures -------------------------------------------------------------------------

    def svg(self, *, size: float | None = None) -> SvgImage:
        """The position with the move marked, arrows along each flanked line and the flips filled.

        Lines that nothing closes get grey arrows to where the walk stopped.
        """
        from . import svg  # drawing is only needed for pictures

        arrows: list[tuple[Square, Square] | tuple[Square, Square, str]] = []
        if self.square is not None:
            for line in self.directions:
                if line.code is LineCode.FLANKS and line.end is not None:
                    arrows.append((self.square, line.end))
                elif line.code is LineCode.RUN_TO_EMPTY and line.end is not None:
                    arrows.append((self.square, line.end, OPEN_RUN_ARROW))
                elif line.code is LineCode.RUN_TO_EDGE:
                    arrows.append((self.square, line.run[-1], OPEN_RUN_ARROW))
        marks: dict[Square | str, object] = {}
        if self.square is not None:
            marks[self.square] = "circle" if self.legal else "cross"
        return svg.board(
            self.board(),
            size=size,
            fill=dict.fromkeys(self.flips, FLIP_FILL),
            marks=marks,
            arrows=arrows,
        )

    def _repr_html_(self) -> str:
        """Notebook display: the picture with the explanation below it."""
        text = html.escape(self.text())
        return (
            f'<div class="reversi-explanation" lang="{self.language}">{self.svg()}'
            f'<p style="max-width: 40em">{text}</p></div>'
        )


class _Writer:
    """Turns an ``Explanation`` into text of one language, phrase by phrase from the locale file."""

    def __init__(self, expl: Explanation, language: str | None) -> None:
        self.expl = expl
        self.language = expl.language if language is None else check_language(language)

    def t(self, key: str, **params: object) -> str:
        return translate(key, self.language, **params)

    def name(self, square: Square) -> str:
        return square_name(square, self.expl.size)

    def names(self, squares: tuple[Square, ...]) -> str:
        return self.t("explain_list_separator").join(self.name(sq) for sq in squares)

    def clauses(self, parts: list[str]) -> str:
        return self.t("explain_clause_separator").join(parts)

    @property
    def mover(self) -> str:
        return COLOR_NAMES[self.expl.color]

    # -- long form ------------------------------------------------------------------------

    def text(self) -> str:
        expl = self.expl
        kind = "explain_pass_head" if expl.is_pass else "explain_head"
        legal = "legal" if expl.legal else "illegal"
        return self.t(f"{kind}_{legal}_{self.mover}", square=expl._name(self.language), details=self.details())

    def details(self) -> str:
        expl = self.expl
        if not expl.legal:
            return self.clauses([self.reason(reason) for reason in expl.reasons if reason.code.forbids])
        if expl.is_pass:
            return self.t(f"explain_no_legal_move_{self.mover}")
        if ReasonCode.PLACEMENT in expl.codes:
            return self.t("explain_placement")
        lines = [self.line(line) for line in expl.directions if line.flanks]
        return self.clauses([*lines, self.t("explain_flips_count", count=len(expl.flips))])

    def reason(self, reason: Reason) -> str:
        code = reason.code
        if code is ReasonCode.GAME_OVER:
            return self.t("explain_game_over")
        if code is ReasonCode.NOT_YOUR_TURN:
            return self.t(f"explain_not_your_turn_{COLOR_NAMES[bool(reason.color)]}")
        if code is ReasonCode.OCCUPIED:
            return self.t(f"explain_occupied_{COLOR_NAMES[bool(reason.color)]}")
        if code is ReasonCode.CENTRE_FIRST:
            return self.t("explain_centre_first", squares=self.names(reason.squares), count=len(reason.squares))
        if code is ReasonCode.PASS_WHILE_MOVES:
            return self.t("explain_pass_while_moves", moves=self.names(reason.squares), count=len(reason.squares))
        # FLANKS_NOTHING: every direction says why
        lines = self.clauses([self.line(line) for line in self.expl.directions])
        return self.t(f"explain_flanks_nothing_{self.mover}", lines=lines)

    def line(self, line: DirectionExplanation) -> str:
        direction = self.t("explain_dir_" + line.direction.replace("-", "_"))
        params: dict[str, object] = {
            "direction": direction,
            "run": self.names(line.run),
            "count": len(line.run),
            "square": "" if line.end is None else self.name(line.end),
        }
        if line.code is LineCode.FLANKS:
            return self.t("explain_line_flanks", closer=params["square"], **params)
        if line.code is LineCode.EDGE:
            return self.t("explain_line_edge", **params)
        if line.code is LineCode.EMPTY:
            return self.t("explain_line_empty", **params)
        if line.code is LineCode.OWN_DISC:
            return self.t(f"explain_line_own_{self.mover}", **params)
        if line.code is LineCode.RUN_TO_EDGE:
            return self.t(f"explain_line_run_edge_{self.mover}", **params)
        return self.t(f"explain_line_run_empty_{self.mover}", **params)

    # -- short form -----------------------------------------------------------------------

    def short(self) -> str:
        expl = self.expl
        square = expl._name(self.language)
        if expl.legal:
            if expl.is_pass:
                return self.t(f"explain_short_pass_legal_{self.mover}")
            if ReasonCode.PLACEMENT in expl.codes:
                return self.t("explain_short_placement", square=square)
            flips = self.t("explain_flips_count", count=len(expl.flips))
            return self.t("explain_short_legal", square=square, flips=flips)
        reason = next(r for r in expl.reasons if r.code.forbids)  # the first is the main one
        code = reason.code
        if code is ReasonCode.GAME_OVER:
            return self.t("explain_short_game_over", square=square)
        if code is ReasonCode.NOT_YOUR_TURN:
            return self.t(f"explain_short_not_your_turn_{COLOR_NAMES[bool(reason.color)]}", square=square)
        if code is ReasonCode.OCCUPIED:
            return self.t(f"explain_short_occupied_{COLOR_NAMES[bool(reason.color)]}", square=square)
        if code is ReasonCode.CENTRE_FIRST:
            return self.t("explain_short_centre_first", square=square)
        if code is ReasonCode.PASS_WHILE_MOVES:
            return self.t(
                f"explain_short_pass_while_moves_{self.mover}",
                moves=self.names(reason.squares),
                count=len(reason.squares),
            )
        return self.t(f"explain_short_flanks_nothing_{self.mover}", square=square)


# -- the analysis ---------------------------------------------------------------------------


def explain(
    board: Board,
    move: Move | Square | str,
    *,
    color: Color | str | None = None,
    language: str = "en",
) -> Explanation:
    """Explain ``move`` (a square name, a ``Move``, a square int, or ``"pass"``) for ``color``.

    ``color`` defaults to the side to move; asking for the other colour explains the
    move as that player would see it, with "not your turn" among the reasons.
    ``language`` is the one ``str(explanation)`` uses. The board is not changed.
    """
    if not isinstance(board, Board):
        raise ReversiError(f"explain needs a Board, got {type(board).__name__}")
    language = check_language(language)
    square = _square_of(board, move)
    mover = board.turn if color is None else _color_of(color)
    black, white = board.bitboards()
    own, other = (black, white) if mover == BLACK else (white, black)
    geo = geometry(board.size)
    placing = board.in_placement()
    empty_centre = geo.centre & ~(black | white)

    reasons: list[Reason] = []
    if board.is_game_over():
        reasons.append(Reason(ReasonCode.GAME_OVER))
    elif mover != board.turn:
        reasons.append(Reason(ReasonCode.NOT_YOUR_TURN, color=board.turn))

    directions: tuple[DirectionExplanation, ...] = ()
    info: Reason | None = None
    if square is None:
        moves = empty_centre if placing else geo.moves(own, other)
        if moves:
            reasons.append(Reason(ReasonCode.PASS_WHILE_MOVES, squares=tuple(squares_of(moves))))
        else:
            info = Reason(ReasonCode.NO_LEGAL_MOVE)
    elif (black | white) >> square & 1:
        reasons.append(Reason(ReasonCode.OCCUPIED, color=BLACK if black >> square & 1 else WHITE))
    elif placing:
        if empty_centre >> square & 1:
            info = Reason(ReasonCode.PLACEMENT)
        else:
            reasons.append(Reason(ReasonCode.CENTRE_FIRST, squares=tuple(squares_of(empty_centre))))
    else:
        directions = tuple(_walk(board.size, own, other, square, name) for name in DIRECTIONS)
        if not any(line.flanks for line in directions):
            reasons.append(Reason(ReasonCode.FLANKS_NOTHING))

    legal = not reasons
    if legal and info is not None:
        reasons.append(info)
    flips: tuple[Square, ...] = ()
    if legal and directions:
        flips = tuple(sorted(sq for line in directions if line.flanks for sq in line.run))
    return Explanation(
        square=square,
        color=mover,
        legal=legal,
        reasons=tuple(reasons),
        directions=directions,
        flips=flips,
        position=board.to_string(),
        rules=board.rules,
        language=language,
    )


def _walk(size: int, own: int, other: int, square: Square, direction: str) -> DirectionExplanation:
    """Step from ``square`` in one direction over opponent discs until something else comes."""
    dc, dr = DIRECTIONS[direction]
    row, col = divmod(square, size)
    run: list[Square] = []
    while True:
        row, col = row + dr, col + dc
        if not (0 <= row < size and 0 <= col < size):
            code = LineCode.RUN_TO_EDGE if run else LineCode.EDGE
            return DirectionExplanation(direction, code, tuple(run))
        sq = row * size + col
        if own >> sq & 1:
            return DirectionExplanation(direction, LineCode.FLANKS if run else LineCode.OWN_DISC, tuple(run), sq)
        if not other >> sq & 1:
            return DirectionExplanation(direction, LineCode.RUN_TO_EMPTY if run else LineCode.EMPTY, tuple(run), sq)
        run.append(sq)


def _square_of(board: Board, move: object) -> Square | None:
    """The square of a move given as a ``Move``, a name, ``"pass"`` or an int (None for a pass)."""
    if isinstance(move, int) and not isinstance(move, bool):
        return check_square(move, board.size)
    if isinstance(move, (Move, str)):
        return board.parse_move(move).square
    raise InvalidMoveError(f"a move must be a square name like 'd3', a Move, a square int or 'pass', got {quote(move)}")


def _color_of(color: object) -> Color:
    """``BLACK``/``WHITE`` or their names."""
    if isinstance(color, bool):
        return color
    name = color.strip(ASCII_SPACE).lower() if isinstance(color, str) and color.isascii() else None
    if name in ("black", "white"):
        return BLACK if name == "black" else WHITE
    raise ReversiError(f"color must be BLACK, WHITE, 'black' or 'white', got {quote(color)}")
