"""``ReversiWidget``: a clickable Reversi board for Jupyter, with Python as the only referee.

The game lives here: a ``Board`` with its ``Rules``, the whole line (so moves can be
redone) and the two players. The synced traits are a picture of that game, written only
by Python; every view draws them, so several views of one widget always agree. A view
sends intents ("play d3", "undo"...) as custom messages; each one is checked in full and
either changes the game or is refused with a notice, leaving the game as it was. The
contract with the front end is js/PROTOCOL.md.

Computer players run in a worker thread on a copy of the position, so the notebook stays
responsive; their move is applied only if the game is still where it was when they
started (a generation counter tells), so a stale move is never played.

Teaching aids: every text comes from the locale files in the widget's ``language``; an
illegal click is answered with the one-sentence reason of ``explain()``; "show me" sends
each played move's flanked lines (``demo``) for the front end to walk through; practice
mode (R17) lets the learner flip the discs by hand (see ``reversi_widget.practice``).

Analysis aids run in worker threads too, and like computer moves they are never shown
stale: a hint (the best moves, ringed) and the score overlay (every legal move's score
from ``analyse()``) belong to one position and vanish when it changes; a game review
(``analysis.review``: each move's loss, marks in the move list, an evaluation chart)
belongs to one line of moves. A running analysis whose position has gone is cancelled at
its next progress report. The engine's levels are player names: ``white="expert"``.
"""

from __future__ import annotations

import importlib
import reprlib
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import anywidget
import traitlets

from .analysis import Analysis, MoveAnalysis, MoveReview, analyse
from .analysis import review as review_line
from .board import Board, Move, Outcome
from .engine import MAX_DEPTH, Engine, check_time_limit
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, ReversiError
from .explain import explain
from .game import Game
from .i18n import LANGUAGES, check_language, translate
from .notation import parse_position
from .players import Player, make_player, player_name
from .practice import FlipRefusal, PracticeError, PracticeMove
from .progress import Progress
from .records import GameLog
from .rules import Rules
from .squares import BLACK, WHITE, Color, Square, parse_square, square_name
from .strings import front_end_strings

_HERE = Path(__file__).parent
#: Wheels carry the front end in ``static/``; editable installs and the repository use ``js/``.
ASSETS = _HERE / "static" if (_HERE / "static").is_dir() else _HERE.parent / "js"

#: The traits a front end may write (js/PROTOCOL.md, "Settings").
SETTINGS = (
    "show_legal",
    "show_flips",
    "show_coordinates",
    "show_me",
    "practice",
    "show_scores",
    "animation",
    "theme",
    "size",
)
ANIMATIONS = ("off", "slow", "normal", "fast")
THEMES = ("auto", "light", "dark", "high-contrast")
MIN_PIXELS, MAX_PIXELS = 120, 4000

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
}
#: Intents that do not depend on the position, so they are never refused as stale (a
#: Pause click during a fast computer game is always out of date by a move or two).
TIMELESS_INTENTS = ("pause", "resume")
#: A reviewed move that gave away at least this many discs is marked (worst first).
REVIEW_MARKS = ((12.0, "??"), (6.0, "?"), (2.0, "?!"))
#: Seconds between two progress updates sent to the views by one running analysis.
PROGRESS_EVERY = 0.1
#: Seconds per disc of the flip animation, as js/widget.js plays it ("off" is 0).
ANIMATION_STEP = {"off": 0.0, "slow": 0.48, "normal": 0.3, "fast": 0.18}
#: "Show me" walks a move in steps of ANIMATION_STEP: the disc lands, each flanked line
#: is lit for DEMO_LINE_STEPS, then the discs flip one by one (js/PROTOCOL.md, "Show me").
DEMO_LINE_STEPS = 2
#: An intent is a few short fields; anything bigger (counting characters) is refused unread.
MAX_INTENT_SIZE = 256
MAX_MARK_LENGTH = 12
MAX_FILL_LENGTH = 64

_COLOR_KEY = {BLACK: "black", WHITE: "white"}


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

MoveCallback = Callable[["ReversiWidget", Move], object]
GameOverCallback = Callable[["ReversiWidget", Outcome], object]
_F = TypeVar("_F")


class NavigationError(ReversiError, IndexError):
    """Undo, redo or jump to a position the line does not have."""


class InvalidAnnotationError(ReversiError, traitlets.TraitError):
    """A ``fill``, ``marks`` or ``arrows`` value that does not fit the board."""


class UnknownLanguageError(ReversiError, traitlets.TraitError):
    """A ``language`` the locale files do not have."""


class InvalidSettingError(ReversiError, traitlets.TraitError):
    """An analysis setting out of range (``analysis_depth``, ``analysis_time_limit``)."""


class AnalysisRefusedError(ReversiError):
    """A hint or a review asked for when there is nothing to analyse (the game is over,
    a computer is to move, the game is not finished yet...)."""


class _Stale(Exception):
    """Raised from a progress report to stop an analysis whose position has gone."""


#: What a position's analysis belongs to: the game's generation and the settings' epoch.
AidKey = tuple[int, int]

#: The level names of the engine, by level number ("expert" for 7...).
LEVEL_NAMES = {level: name for name, level in Engine.LEVELS.items()}


#: A notice's text, rendered when shown and again when ``language`` changes.
Message = Callable[[], str]


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


def _type_key(expected: type) -> str:
    return "type_integer" if expected is int else "type_string"


class _Language(traitlets.TraitType[str, str]):
    """A language of the locale files; anything else (None included) gets the clear error."""

    default_value = "en"
    info_text = "one of " + ", ".join(LANGUAGES)

    def validate(self, obj: Any, value: Any) -> str:
        return _checked_language(value)


class _Explained:
    """A refusal that teaches: an illegal move's reason from ``explain()`` (notice kind "explain")."""

    def __init__(self, render: Message) -> None:
        self.render = render

    def __call__(self) -> str:
        return self.render()


_FLIP_REFUSALS = {
    FlipRefusal.EMPTY: "notice_refused_practice_empty",
    FlipRefusal.PLACED: "notice_refused_practice_placed",
    FlipRefusal.OWN: "notice_refused_practice_own",
}


def _number(value: float) -> str:
    """A disc count for texts: "6", "2.5" (one decimal at most)."""
    return f"{round(value, 1):g}"


def evaluations(reviews: list[MoveReview]) -> list[float]:
    """The evaluation of every position of a reviewed line, from Black's point of view
    (positive: Black is ahead): the start, then after each move. A forced move (a pass, a
    single legal move, a placement) keeps the evaluation of the position before it."""

    def for_black(entry: MoveReview, score: float) -> float:
        return round(score if entry.color == BLACK else -score, 2)

    first = next((entry for entry in reviews if not entry.forced), None)
    current = 0.0 if first is None else for_black(first, first.best_score)
    values = [current]
    for entry in reviews:
        if not entry.forced:
            current = for_black(entry, entry.played_score)
        values.append(current)
    return values


def _checked_language(language: object) -> str:
    """``language`` if the locale files have it; otherwise the error says which they have."""
    try:
        return check_language(language)
    except ReversiError as error:
        raise UnknownLanguageError(str(error)) from None


class ReversiWidget(anywidget.AnyWidget):
    """A Reversi game in a notebook cell: click to play, or drive it from Python.

    ``board`` is where to start: a ``Board``, a ``Game``, a transcript (``"f5d6c3"``), a
    position string or a GGF record (see ``load``). ``black``/``white`` are ``"human"``,
    a registered name (``"random"``, ``"greedy"``, the engine's levels ``"beginner"``,
    ``"easy"``, ``"medium"``, ``"hard"``, ``"expert"`` and ``"level-1"`` ... ``"level-7"``)
    or an object with ``choose(board)``. With two computers the game plays by itself;
    ``pause()``/``resume()`` (or the Pause button) stop and restart it. Every keyword is
    also a trait: ``w.white = "greedy"`` switches players, ``w.rules =
    Rules(goal="inverted")`` starts a new game with those rules, ``w.animation = "off"``
    changes every view. ``w.board`` is a copy: change the game with ``play``, ``undo``,
    ``load``...

    ``language`` ("en", "ca", "pl", "uk") translates every text the widget shows, live.
    ``show_me=True`` walks each played move through its flanked lines before the discs
    flip. ``practice=True`` is rule R17 as an exercise: a human's move only places the
    disc; the learner clicks the discs that flip and presses Done, and the opponent moves
    once the flips are right (or after "Show me the answer"). The tally is
    ``practice_mistakes`` (discs wrong or missed at a move's first check) over
    ``practice_moves`` (moves completed).

    Practice and R17: the correction window is exactly the pending practice move. Once it
    is played the opponent moves and the board stands, so undo and redo only ever replay
    moves with their true flips; undoing back to a practised move does not re-open its
    corrections (playing it again is a new practice move). Undo while a practice move is
    pending lifts the placed disc and leaves the game as it was.

    Analysis aids: ``hint()`` (or the Hint button) rings the best move(s) for a human to
    move; ``show_scores=True`` writes every legal move's score on its square whenever a
    human is to move (a disc margin such as "+4", or "W+6"/"D"/"L-4" once solved);
    ``review()`` (or the Review button, once the game is over) scores every move played:
    ``review_moves`` and the marks in the move list say what each move lost against the
    best one, ``evaluations`` draws the game's course. They run in worker threads with the
    progress in ``busy``/``progress``; ``analysis_depth`` and ``analysis_time_limit`` are
    passed to ``analyse``/``review`` (None: their defaults).
    """

    _esm = ASSETS / "widget.js"
    _css = ASSETS / "widget.css"

    # -- the picture of the game: written by Python only (js/PROTOCOL.md) ----------------
    board_size = traitlets.Int(8).tag(sync=True, echo_update=False)
    discs = traitlets.Unicode("").tag(sync=True, echo_update=False)
    turn = traitlets.Unicode("black").tag(sync=True, echo_update=False)
    ply = traitlets.Int(0).tag(sync=True, echo_update=False)
    legal = traitlets.Dict().tag(sync=True, echo_update=False)
    last_move = traitlets.Unicode("").tag(sync=True, echo_update=False)
    last_flips: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    counts = traitlets.Dict().tag(sync=True, echo_update=False)
    supply = traitlets.Dict().tag(sync=True, echo_update=False)
    status = traitlets.Unicode("").tag(sync=True, echo_update=False)
    notice = traitlets.Unicode("").tag(sync=True, echo_update=False)
    notice_kind = traitlets.Unicode("info").tag(sync=True, echo_update=False)
    notice_id = traitlets.Int(0).tag(sync=True, echo_update=False)
    game_over = traitlets.Bool(False).tag(sync=True, echo_update=False)
    result = traitlets.Unicode("").tag(sync=True, echo_update=False)
    moves: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    can_undo = traitlets.Bool(False).tag(sync=True, echo_update=False)
    can_redo = traitlets.Bool(False).tag(sync=True, echo_update=False)
    thinking = traitlets.Bool(False).tag(sync=True, echo_update=False)
    players = traitlets.Dict().tag(sync=True, echo_update=False)
    strings = traitlets.Dict().tag(sync=True, echo_update=False)
    count_labels = traitlets.Dict().tag(sync=True, echo_update=False)
    demo = traitlets.Dict().tag(sync=True, echo_update=False)
    practice_move = traitlets.Unicode("").tag(sync=True, echo_update=False)
    practice_flips: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_wrong: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_missed: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_mistakes = traitlets.Int(0).tag(sync=True, echo_update=False)
    practice_moves = traitlets.Int(0).tag(sync=True, echo_update=False)
    hints: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    scores = traitlets.Dict().tag(sync=True, echo_update=False)
    review_moves: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True, echo_update=False)
    evaluations: traitlets.List[float] = traitlets.List().tag(sync=True, echo_update=False)
    busy = traitlets.Unicode("").tag(sync=True, echo_update=False)
    progress = traitlets.Float(0.0).tag(sync=True, echo_update=False)
    can_review = traitlets.Bool(False).tag(sync=True, echo_update=False)
    can_pause = traitlets.Bool(False).tag(sync=True, echo_update=False)

    # -- annotations: set from Python, drawn by the front end ----------------------------
    fill = traitlets.Dict().tag(sync=True, echo_update=False)
    marks = traitlets.Dict().tag(sync=True, echo_update=False)
    arrows: traitlets.List[list[str]] = traitlets.List().tag(sync=True, echo_update=False)

    # -- settings: Python keywords that a front end may also change ----------------------
    show_legal = traitlets.Bool(True).tag(sync=True)
    show_flips = traitlets.Bool(True).tag(sync=True)
    show_coordinates = traitlets.Bool(True).tag(sync=True)
    show_me = traitlets.Bool(False).tag(sync=True)
    practice = traitlets.Bool(False).tag(sync=True)
    show_scores = traitlets.Bool(False).tag(sync=True)
    animation = traitlets.Enum(ANIMATIONS, default_value="normal").tag(sync=True)
    theme = traitlets.Enum(THEMES, default_value="auto").tag(sync=True)
    size = traitlets.Int(None, allow_none=True, min=MIN_PIXELS, max=MAX_PIXELS).tag(sync=True)

    # -- Python settings (synced so views know them, but only Python may change them) --------
    language = _Language().tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)

    # -- Python-only settings --------------------------------------------------------------
    rules = traitlets.Instance(Rules)
    black = traitlets.Any("human")
    white = traitlets.Any("human")
    move_delay = traitlets.Float(0.0, min=0.0)
    analysis_depth = traitlets.Int(None, allow_none=True)
    analysis_time_limit = traitlets.Float(None, allow_none=True)

    #: The traits only Python writes; the front end's writes to them are reverted.
    READ_ONLY = (
        "board_size",
        "discs",
        "turn",
        "ply",
        "legal",
        "last_move",
        "last_flips",
        "counts",
        "supply",
        "status",
        "notice",
        "notice_kind",
        "notice_id",
        "game_over",
        "result",
        "moves",
        "can_undo",
        "can_redo",
        "thinking",
        "players",
        "strings",
        "count_labels",
        "demo",
        "practice_move",
        "practice_flips",
        "practice_wrong",
        "practice_missed",
        "practice_mistakes",
        "practice_moves",
        "hints",
        "scores",
        "review_moves",
        "evaluations",
        "busy",
        "progress",
        "can_review",
        "can_pause",
    )

    def __init__(
        self,
        board: Board | Game | str | None = None,
        *,
        rules: Rules | None = None,
        black: object = "human",
        white: object = "human",
        show_legal: bool = True,
        show_flips: bool = True,
        show_coordinates: bool = True,
        show_me: bool = False,
        practice: bool = False,
        show_scores: bool = False,
        language: str = "en",
        animation: str = "normal",
        theme: str = "auto",
        size: int | None = None,
        fill: dict[str, str] | None = None,
        marks: dict[str, object] | None = None,
        arrows: list[list[str]] | None = None,
        log: GameLog | None = None,
        **kwargs: Any,
    ) -> None:
        if log is not None and not isinstance(log, GameLog):
            raise TypeError(f"log must be a reversi_widget.records.GameLog, got {type(log).__name__}")
        self._lock = threading.RLock()
        self._idle = threading.Condition(self._lock)
        self._writer: int | None = threading.get_ident()  # the thread allowed to write READ_ONLY traits
        self._ready = False
        self._depth = 0
        self._events: list[tuple[Callable[..., object], tuple[object, ...]]] = []
        self._calling: Counter[int] = Counter()  # threads running queued callbacks (wait() waits for them)
        self._move_callbacks: list[MoveCallback] = []
        self._over_callbacks: list[GameOverCallback] = []
        self._generation = 0
        self._pending: int | None = None  # generation a computer is thinking about
        self._workers: set[threading.Thread] = set()
        self._language = _checked_language(language)
        self._notice_message: Message | None = None
        self._demo: dict[str, object] = {}
        self._demo_id = 0
        self._demo_until = 0.0  # when the front end's walk through the last move ends
        self._practice: PracticeMove | None = None
        self._tally = [0, 0]  # practice mistakes, practice moves completed
        self._players: dict[Color, Player | None] = {BLACK: make_player(black), WHITE: make_player(white)}
        self._player_locks: dict[int, threading.Lock] = {}  # one choose() at a time per player object
        self._thinking: Player | None = None  # the computer player last asked to choose
        # Analysis aids (see "hints, scores and review"): what they belong to, and results.
        self._aid_epoch = 0  # bumped when the analysis settings change
        self._hint_for: AidKey | None = None  # the position a hint was asked for
        self._analysis: tuple[AidKey, Analysis] | None = None
        self._analysis_job: AidKey | None = None  # the position a worker is analysing
        self._analysis_failed: AidKey | None = None  # not retried for this position
        self._line_id = 0  # bumped whenever the line of moves changes
        self._finished: tuple[int, bool] = (-1, False)  # (line id, the line ends the game)
        self._review: tuple[int, list[MoveReview]] | None = None
        self._review_job: int | None = None  # the line a worker is reviewing
        self._progress: dict[str, float] = {}  # "analysis" / "review" -> fraction done
        start = self._read(board, rules)
        if rules is not None and isinstance(board, (Board, Game)) and start.rules != rules:
            raise InvalidPositionError(f"the board is played under {start.rules!r} but rules= says {rules!r}")
        self._board = start
        self._line: list[Move] = list(start.move_stack)
        super().__init__(
            rules=start.rules,
            black=black,
            white=white,
            show_legal=show_legal,
            show_flips=show_flips,
            show_coordinates=show_coordinates,
            show_me=show_me,
            practice=practice,
            show_scores=show_scores,
            language=language,
            animation=animation,
            theme=theme,
            size=size,
            fill={} if fill is None else fill,
            marks={} if marks is None else marks,
            arrows=[] if arrows is None else arrows,
            **self._picture(),
            **kwargs,
        )
        self._writer = None
        self._ready = True
        #: Where finished games are recorded (R25); ``self.log`` stays the traitlets logger.
        self.game_log = log
        self._recorded: set[str] = set()
        if log is not None:
            self.on_game_over(self._record)
        self.on_msg(self._on_intent)
        with self._operation():
            self._advance()

    # -- reading the game ------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the current position with its move stack: changing it does not change
        the widget (use ``play``, ``undo``, ``load``... or assign ``w.board = b``)."""
        with self._lock:
            return self._board.copy()

    @board.setter
    def board(self, value: Board | Game | str) -> None:
        self.load(value)

    @property
    def line(self) -> list[Move]:
        """The whole line, including moves that can be redone."""
        with self._lock:
            return list(self._line)

    def game(self) -> Game:
        """The current line as a ``Game`` record (players named by their labels)."""
        with self._lock:
            board = self._board.copy()
            for move in self._line[board.ply :]:
                board.push(move)
            return Game.from_board(board, black_player=self._label(BLACK), white_player=self._label(WHITE))

    # -- playing from Python -----------------------------------------------------------------

    def play(self, move: Move | str) -> None:
        """Play a move for the side to move (``"d3"``, ``Move``, or ``"pass"`` when forced).

        Raises ``InvalidMoveError``/``IllegalMoveError`` like ``Board.push`` and changes
        nothing then. A computer's pending move is dropped; the game then goes on by itself
        (forced passes, computer replies)."""
        with self._operation():
            self._push(self._board._parse_move(move))
            self._clear_notice()
            self._advance()

    def pass_turn(self) -> None:
        """Pass; legal only when the side to move has no move (R18, R19)."""
        self.play(Move.null(self._board.size))

    def undo(self) -> None:
        """Take back to the last position where a human is to move (one move if both
        players are computers); the moves stay in the line for ``redo``."""
        with self._operation():
            if self._practice is not None:  # lift the placed disc: the game is as it was
                self._practice = None
                self._clear_notice()
                return
            target = self._undo_target()
            if target is None:
                raise NavigationError("there is no move to undo")
            self._goto(target)
            self._clear_notice()

    def redo(self) -> None:
        """Replay the line forward to the next position where a human is to move."""
        with self._operation():
            target = self._redo_target()
            if target is None:
                raise NavigationError("there is no move to redo")
            self._goto(target)
            self._clear_notice()
            self._advance()

    def jump(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line (0 is the start). A computer
        plays on only at the end of the line; in the middle the game waits for review."""
        with self._operation():
            if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self._line):
                raise NavigationError(f"jump to {ply!r}: expected a ply from 0 to {len(self._line)}")
            if ply != self._board.ply:
                self._goto(ply)
                self._clear_notice()
                self._advance()

    def new_game(self, rules: Rules | None = None) -> None:
        """Start again, with new ``rules`` or the current ones."""
        with self._operation():
            self._start(Board(rules=self.rules if rules is None else rules))

    def load(self, source: Board | Game | str, *, rules: Rules | None = None) -> None:
        """Load a ``Board`` (its move stack becomes the line), a ``Game``, a GGF record
        (``"(;GM[Othello]..."``), a transcript (``"f5d6c3"``) or a position string. Text is
        read under ``rules`` (default: the current rules). On an error nothing changes."""
        with self._operation():
            self._start(self._read(source, rules if rules is not None else self.rules))

    # -- practice (R17) from Python: what the learner's clicks do ------------------------------

    def practice_place(self, square: Move | str) -> None:
        """Place a disc for the side to move as a practice move: nothing flips yet.

        Needs ``practice=True`` and a human to move; raises ``PracticeError`` (or
        ``IllegalMoveError`` for an illegal square) and changes nothing otherwise."""
        with self._operation():
            board = self._board
            move = board._parse_move(square)
            self._raise(self._practice_refusal())
            if not move or board.in_placement():
                raise PracticeError(f"{move}: only a disc placed under the normal rules flips discs to practise")
            if move not in board.legal_moves:
                raise IllegalMoveError(explain(board, move, language=self._language).short())
            self._practice = PracticeMove.start(board, move)
            self._clear_notice()

    def practice_flip(self, square: str) -> None:
        """Turn an opponent disc of the pending practice move (or turn it back)."""
        with self._operation():
            move = self._board._parse_move(square)
            if not move:
                raise PracticeError(f"practice_flip needs the square of a disc, got {square!r}")
            self._raise(self._practice_flip(move))

    def practice_done(self) -> bool:
        """Check the pending practice move: True if it was right and has been played, False
        if discs are wrong or missed (they are marked; correct them and call again)."""
        with self._operation():
            self._raise(self._practice_pending_refusal())
            return self._practice_done()

    def practice_reveal(self) -> None:
        """Show the answer: play the pending practice move with its true flips (mistakes count)."""
        with self._operation():
            self._raise(self._practice_pending_refusal())
            self._practice_reveal()

    def _raise(self, refusal: Message | None) -> None:
        if refusal is not None:
            raise PracticeError(refusal())

    def pause(self) -> None:
        """Stop computer players after the move they are thinking about."""
        self.paused = True

    def resume(self) -> None:
        """Let computer players move again."""
        self.paused = False

    def hint(self) -> None:
        """Ring the best move(s) for the side to move (the ``hints`` trait) and say them in a
        notice. The analysis runs in a worker thread, so this returns at once; the ring
        goes when the position changes. Raises ``AnalysisRefusedError`` (and changes
        nothing) when there is no move to hint: the game is over, a computer is to move,
        the side to move must pass, or the free start's centre discs are being placed."""
        with self._operation():
            self._refuse_analysis(self._hint_refusal())
            self._request_hint()

    def review(self) -> None:
        """Review the finished game in a worker thread: for every move the best move and
        the discs it lost (``review_moves``, marks in the move list) and the evaluation
        after each move (``evaluations``, drawn as a chart). Returns at once; ``wait()``
        blocks until it is done. Raises ``AnalysisRefusedError`` when the line is empty
        or does not reach the end of the game."""
        with self._operation():
            self._refuse_analysis(self._review_refusal())
            self._start_review()

    def _refuse_analysis(self, refusal: Message | None) -> None:
        if refusal is not None:
            raise AnalysisRefusedError(refusal())

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no computer move is pending, no hint, score or review analysis runs
        and every ``on_move``/``on_game_over`` callback already due has run (True), or
        ``timeout`` seconds pass (False). With two unpaused computers this
        waits for the end of the game. Meant for scripts and tests: in a notebook it blocks
        the kernel until it returns."""
        with self._idle:
            return self._idle.wait_for(self._idle_now, timeout)

    def _idle_now(self) -> bool:
        # Callbacks of other threads count as work; a callback that itself waits must not
        # wait for its own thread.
        me = threading.get_ident()
        calling = any(thread != me for thread in self._calling)
        return self._pending is None and self._analysis_job is None and self._review_job is None and not calling

    def on_move(self, callback: MoveCallback) -> Callable[[], None]:
        """Call ``callback(widget, move)`` after every move (passes included, also computer
        moves, which run it in the computer's thread). Returns a function that removes it."""
        return self._register(self._move_callbacks, callback)

    def on_game_over(self, callback: GameOverCallback) -> Callable[[], None]:
        """Call ``callback(widget, outcome)`` when a move ends the game. Returns a remover."""
        return self._register(self._over_callbacks, callback)

    def _record(self, widget: ReversiWidget, outcome: Outcome) -> None:
        """Keep a finished game in ``game_log``, once per line of moves (undo and redo to
        the same end records nothing new)."""
        game = self.game()
        key = f"{game.rules!r} {game.transcript(passes=True)}"
        if self.game_log is not None and key not in self._recorded:
            self.game_log.add(game)
            self._recorded.add(key)

    def _register(self, callbacks: list[_F], callback: _F) -> Callable[[], None]:
        if not callable(callback):
            raise TypeError(f"a callback must be callable, got {callback!r}")
        with self._lock:
            callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in callbacks:
                    callbacks.remove(callback)

        return remove

    # -- the referee's machinery -------------------------------------------------------------

    @contextmanager
    def _operation(self) -> Iterator[None]:
        """Hold the lock and batch trait changes; on the way out, redraw every view from the
        game and then run the callbacks the operation queued (outside the lock)."""
        events: list[tuple[Callable[..., object], tuple[object, ...]]] = []
        with self._lock:
            outer = self._depth == 0
            self._depth += 1
            previous_writer, self._writer = self._writer, threading.get_ident()
            try:
                with self.hold_sync():
                    try:
                        yield
                    finally:
                        if outer:
                            self._refresh_aids()
                            self._sync()
            finally:
                if outer:
                    events, self._events = self._events, []
                    if events:
                        self._calling[threading.get_ident()] += 1
                    self._idle.notify_all()
                self._writer = previous_writer
                self._depth -= 1
        if events:
            try:
                self._run_callbacks(events)
            finally:
                with self._idle:
                    me = threading.get_ident()
                    self._calling[me] -= 1
                    if not self._calling[me]:
                        del self._calling[me]
                    self._idle.notify_all()

    def _run_callbacks(self, events: list[tuple[Callable[..., object], tuple[object, ...]]]) -> None:
        for callback, args in events:
            try:
                callback(*args)
            except Exception as error:
                what = "on_move" if callback in self._move_callbacks else "on_game_over"
                with self._operation():
                    self._notify("error", self._say("notice_callback_failed", what=what, error=repr(error)))

    def _notify_trait(self, name: str, old_value: object, new_value: object) -> None:
        # Trait changes may come from the kernel's thread and a computer's thread at once:
        # one at a time keeps ipywidgets' batching state consistent.
        with self._lock:
            super()._notify_trait(name, old_value, new_value)

    def _read(self, source: object, rules: Rules | None) -> Board:
        """A board (with its move stack) from anything ``load`` accepts."""
        if source is None:
            return Board(rules=rules)
        if isinstance(source, Board):
            return source.copy()
        if isinstance(source, Game):
            return source.board()
        if not isinstance(source, str):
            raise InvalidPositionError(
                f"cannot load {_short.repr(source)}: expected a Board, a Game, a GGF record, a transcript or a position"
            )
        if source.lstrip().startswith("(;"):
            return self._read_ggf(source)
        try:
            return Board.from_transcript(source, rules=rules)
        except InvalidMoveError as transcript_error:
            try:
                parse_position(source)
            except InvalidPositionError as position_error:
                raise InvalidPositionError(
                    f"cannot read {_short.repr(source)} as a transcript ({transcript_error}) "
                    f"or as a position ({position_error})"
                ) from None
            if rules is not None and parse_position(source).size == rules.size:
                return Board(source, rules=rules)
            return Board.from_string(source)

    def _read_ggf(self, text_: str) -> Board:
        try:
            ggf = importlib.import_module(f"{__package__}.ggf")
        except ImportError:
            raise InvalidPositionError(
                "this looks like a GGF record, but reversi_widget.ggf (the GGF reader) is not available"
            ) from None
        game = ggf.read_ggf(text_)
        if not isinstance(game, Game):
            raise InvalidPositionError(f"read_ggf returned {type(game).__name__}, not a Game")
        return game.board()

    def _start(self, board: Board) -> None:
        """Replace the game (new game or load): the board's stack becomes the line."""
        old_size = self._board.size
        self._board = board
        self._line = list(board.move_stack)
        self._line_id += 1
        self._invalidate()
        self._demo = {}
        if board.rules != self.rules:
            self.rules = board.rules  # the observer sees the board already has these rules
        if board.size != old_size:
            self.fill, self.marks, self.arrows = {}, {}, []
        self._clear_notice()
        self._advance()

    def _invalidate(self) -> None:
        """The position (or who plays it) changed: a computer's pending move is now stale,
        and so is a practice move waiting for its flips."""
        self._generation += 1
        if self._pending is not None:
            self._stop_thinking()
        self._pending = None
        self._practice = None

    def _stop_thinking(self) -> None:
        """Ask the computer player thinking about a position that has gone to stop, if it
        can (``Engine.stop``), so that the next move does not wait for a useless search."""
        player = self._thinking
        stop = getattr(player, "stop", None)
        if player is not None and callable(stop):
            try:
                stop()
            except Exception:
                self.log.exception("stop() of the computer player %s failed", player_name(player))

    def _push(self, move: Move) -> None:
        """Play a legal move here, replacing the rest of the line; raise and change nothing
        if it is not legal."""
        demo = self._demo_of(move) if self.show_me and move else None
        self._board.push(move)
        self._line[self._board.ply - 1 :] = [move]
        self._line_id += 1
        self._invalidate()
        if demo is not None or not self.show_me:
            self._demo = demo or {}  # a pass keeps the walk-through of the move before it
        self._events.extend((callback, (self, move)) for callback in self._move_callbacks)
        outcome = self._board.outcome()
        if outcome is not None:
            self._events.extend((callback, (self, outcome)) for callback in self._over_callbacks)

    def _demo_of(self, move: Move) -> dict[str, object]:
        """The walk-through of a move about to be played: each flanked line from the move to
        its closing disc, in the order ``explain`` walks the directions (js/PROTOCOL.md)."""
        board = self._board
        expl = explain(board, move)
        lines = [
            [square_name(sq, board.size) for sq in (*line.run, line.end)]
            for line in expl.directions
            if line.flanks and line.end is not None
        ]
        self._demo_id += 1
        step = ANIMATION_STEP[self.animation]
        self._demo_until = time.monotonic() + step * (1 + DEMO_LINE_STEPS * len(lines) + len(expl.flips))
        return {
            "id": self._demo_id,
            "ply": board.ply + 1,
            "move": str(move),
            "color": _COLOR_KEY[board.turn],
            "lines": lines,
        }

    def _goto(self, ply: int) -> None:
        """Move along the line to ``ply``."""
        self._demo = {}
        board = self._board
        while board.ply > ply:
            board.pop()
        while board.ply < ply:
            board.push(self._line[board.ply])
        self._invalidate()

    def _humans(self) -> bool:
        return self._players[BLACK] is None or self._players[WHITE] is None

    def _human_turn(self, board: Board) -> bool:
        """A human has a real decision here (not a forced pass, not the end)."""
        return self._players[board.turn] is None and not board.must_pass() and not board.is_game_over()

    def _undo_target(self) -> int | None:
        probe = self._board.copy()
        if not probe.ply:
            return None
        if not self._humans():
            return probe.ply - 1
        while probe.ply:
            probe.pop()
            if self._human_turn(probe):
                return probe.ply
        return None

    def _redo_target(self) -> int | None:
        if self._board.ply >= len(self._line):
            return None
        if not self._humans():
            return self._board.ply + 1
        probe = self._board.copy()
        probe.push(self._line[probe.ply])
        while probe.ply < len(self._line) and not self._human_turn(probe) and not probe.is_game_over():
            probe.push(self._line[probe.ply])
        return probe.ply

    def _advance(self) -> None:
        """Let the game go on by itself: play forced passes, start a computer's move. Only at
        the end of the line; in the middle (after undo or jump) the game waits."""
        board = self._board
        while board.ply == len(self._line) and not board.is_game_over():
            if board.must_pass():
                color = board.turn
                self._push(Move.null(board.size))
                self._notify(
                    "pass",
                    self._say("notice_pass", color=self._color_message(color), other=self._color_message(not color)),
                )
                continue
            player = self._players[board.turn]
            if player is not None and not self.paused and self._pending is None:
                self._think(player)
            break

    def _think(self, player: Player) -> None:
        generation = self._generation
        self._pending = generation
        self._thinking = player
        worker = threading.Thread(
            target=self._computer_move,
            args=(player, self._board.copy(), generation),
            name=f"reversi-{player_name(player)}",
            daemon=True,
        )
        self._workers.add(worker)
        worker.start()

    def _computer_move(self, player: Player, board: Board, generation: int) -> None:
        """In the worker thread: choose, then apply only if the game has not moved on."""
        try:
            self._choose_and_play(player, board, generation)
        finally:
            with self._lock:
                self._workers.discard(threading.current_thread())

    def _choose_and_play(self, player: Player, board: Board, generation: int) -> None:
        started = time.monotonic()
        choice: object = None
        failure: Exception | None = None
        try:
            # A stale choose() of the same player may still run (after an undo, say): the
            # engine keeps search tables between moves, so one call at a time.
            with self._player_lock(player):
                if self._generation != generation:
                    return  # gone stale while waiting for the player: not worth thinking about
                choice = player.choose(board)
        except Exception as error:
            failure = error
        # Let the views finish walking through the previous move ("show me") first.
        delay = max(self.move_delay - (time.monotonic() - started), self._demo_until - time.monotonic())
        if delay > 0:
            time.sleep(delay)
        with self._operation():
            if self._pending != generation or self._generation != generation:
                return  # stale: undo, new game, load, jump or a Python move came first
            self._pending = None
            color = self._board.turn
            try:
                if failure is not None:
                    raise failure
                if not isinstance(choice, (Move, str)):
                    raise InvalidMoveError(f"choose() returned {_short.repr(choice)}, not a Move")
                self._push(self._board._parse_move(choice))
            except Exception as error:
                self.paused = True
                name = self._player_title(player)
                self._notify(
                    "error",
                    self._say("notice_player_failed", color=self._color_message(color), player=name, error=error),
                )
                return
            self._advance()

    def _player_lock(self, player: Player) -> threading.Lock:
        with self._lock:
            return self._player_locks.setdefault(id(player), threading.Lock())

    # -- the picture ----------------------------------------------------------------------

    def _text(self, key: str, **fields: object) -> str:
        return translate(key, self._language, **fields)

    def _say(self, key: str, **fields: object) -> Message:
        """A notice text kept as a recipe, so a change of ``language`` can render it again.
        Fields that are themselves messages (a colour's name...) are rendered with it."""

        def render() -> str:
            return self._text(key, **{name: value() if callable(value) else value for name, value in fields.items()})

        return render

    def _color(self, color: Color) -> str:
        return self._text(_COLOR_KEY[color])

    def _color_message(self, color: Color) -> Message:
        """A colour's name as a message (rendered in the language of the moment)."""
        return self._say(_COLOR_KEY[color])

    def _label(self, color: Color) -> str:
        player = self._players[color]
        if player is None:
            return self._text("player_human")
        return self._text("player_computer", name=self._player_title(player)())

    def _player_title(self, player: Player) -> Message:
        """A computer's name for labels, as a message: the engine's level in the widget's
        language ("expert", "ekspert", "level 3"), else the player's own name."""
        if isinstance(player, Engine):
            level = player.level
            name = LEVEL_NAMES.get(level)
            if name is not None:
                return self._say(f"level_{name}")
            return self._say("level_number", level=level)
        name = player_name(player)
        return lambda: name

    def _result_text(self, outcome: Outcome, board: Board | None = None) -> str:
        board = self._board if board is None else board
        scores = {BLACK: outcome.black, WHITE: outcome.white}
        if outcome.winner is None:
            head = self._text("result_draw", score=outcome.result())
        else:
            winner = outcome.winner
            score = f"{scores[winner]}-{scores[not winner]}"
            head = self._text("result_win", color=self._color(winner), score=score)
        notes = []
        if board.rules.goal == "inverted":
            notes.append(self._text("result_inverted"))
        empties = board.empty_count()
        if board.rules.scoring == "tournament" and empties and outcome.winner is not None:
            to = "winner" if board.rules.goal == "classic" else "loser"
            key = f"result_tournament_one_{to}" if empties == 1 else f"result_tournament_{to}"
            notes.append(self._text(key, empties=empties))
        return self._text("result_with_notes", result=head, notes="; ".join(notes)) if notes else head

    def _status(self, outcome: Outcome | None) -> str:
        board = self._board
        if outcome is not None:
            reason = self._text(f"reason_{outcome.reason.name.lower()}")
            return self._text("status_over", reason=reason, result=self._result_text(outcome))
        color, computer = self._color(board.turn), self._players[board.turn]
        if self._practice is not None:
            return self._text("status_practice", color=color, square=str(self._practice.move))
        if computer is not None:
            player = self._player_title(computer)()
            if self._pending is not None:
                return self._text("status_thinking", color=color, player=player)
            if board.ply < len(self._line):
                return self._text("status_review", color=color, player=player)
            if self.paused:
                return self._text("status_paused", color=color, player=player)
        if board.in_placement():
            return self._text("status_to_place", color=color)
        return self._text("status_to_move", color=color)

    def _picture(self) -> dict[str, object]:
        """Every READ_ONLY trait except notices, computed from the game (and a pending
        practice move, whose placed disc and hand-made flips the views show)."""
        board, n = self._board, self._board.size
        outcome = board.outcome()
        practice = self._practice
        black, white = board.bitboards() if practice is None else practice.overlay()
        discs = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(n * n))
        legal: dict[str, list[str]] = {}
        if outcome is None and practice is None and self._players[board.turn] is None and self._pending is None:
            for move in board.legal_moves:
                legal[str(move)] = [square_name(sq, n) for sq in board.flips(move)]
        last_move, last_flips = "", []
        if board.move_stack:
            last = board.move_stack[-1]
            last_move = str(last)
            before = board.copy()
            before.pop()
            last_flips = [square_name(sq, n) for sq in before.flips(last)]
        counts = {"black": black.bit_count(), "white": white.bit_count()}
        checked = practice is not None and practice.checked
        names = self._names
        return {
            "board_size": n,
            "discs": discs,
            "turn": "" if outcome is not None else _COLOR_KEY[board.turn],
            "ply": board.ply,
            "legal": legal,
            "last_move": last_move,
            "last_flips": last_flips,
            "counts": counts,
            "count_labels": {color: self._text("count_discs", count=count) for color, count in counts.items()},
            "supply": {} if board.supply is None else {"black": board.supply[0], "white": board.supply[1]},
            "status": self._status(outcome),
            "game_over": outcome is not None,
            "result": "" if outcome is None else self._result_text(outcome),
            "moves": [str(move) for move in self._line],
            "can_undo": practice is not None or self._undo_target() is not None,
            "can_redo": self._redo_target() is not None,
            "thinking": self._pending is not None,
            "players": {"black": self._label(BLACK), "white": self._label(WHITE)},
            "strings": front_end_strings(self._language),
            "demo": self._demo,
            "practice_move": "" if practice is None else str(practice.move),
            "practice_flips": [] if practice is None else names(sorted(practice.flipped)),
            "practice_wrong": names(practice.wrong) if practice is not None and checked else [],
            "practice_missed": names(practice.missed) if practice is not None and checked else [],
            "practice_mistakes": self._tally[0],
            "practice_moves": self._tally[1],
            **self._aids_picture(),
        }

    def _names(self, squares: list[Square]) -> list[str]:
        return [square_name(sq, self._board.size) for sq in squares]

    def _sync(self) -> None:
        for name, value in self._picture().items():
            setattr(self, name, value)

    def _notify(self, kind: str, message: Message) -> None:
        self._notice_message = message
        self.notice, self.notice_kind = message(), kind
        self.notice_id += 1

    def _clear_notice(self) -> None:
        self._notice_message = None
        if self.notice:
            self.notice, self.notice_kind = "", "info"

    # -- intents from the front end ---------------------------------------------------------

    def _on_intent(self, _widget: object, content: object, buffers: object) -> None:
        """Check an intent in full, then apply it or refuse it. Never raises."""
        try:
            with self._operation():
                reason = self._apply_intent(content, buffers)
                if reason is not None:
                    self._refuse(reason)
        except Exception as error:  # a bug must not escape into the kernel's comm handler
            try:
                with self._operation():
                    self._refuse(self._say("notice_refused_internal", error=_short.repr(error)))
            except Exception:
                self.log.exception("reversi-widget could not refuse an intent")

    def _refuse(self, reason: Message) -> None:
        self._notify("explain" if isinstance(reason, _Explained) else "error", reason)
        self.send({"kind": "refused", "reason": self.notice})

    def _apply_intent(self, content: object, buffers: object) -> Message | None:
        """Apply a valid intent and return None, or return why it is refused (unchanged)."""
        if not isinstance(content, dict):
            return self._say("notice_refused_not_dict", got=_short.repr(content))
        if buffers:
            count = len(buffers) if isinstance(buffers, (list, tuple)) else 1
            return self._say("notice_refused_buffers", count=count)
        if _payload_size(content, MAX_INTENT_SIZE) > MAX_INTENT_SIZE:
            return self._say("notice_refused_too_big", limit=MAX_INTENT_SIZE)
        kind = content.get("kind")
        if not isinstance(kind, str) or kind not in INTENTS:
            return self._say("notice_refused_kind", got=_short.repr(kind), expected=", ".join(INTENTS))
        fields = INTENTS[kind]
        if set(content) != {"kind", *fields}:
            got = ", ".join(sorted(_short.repr(key) for key in content))
            return self._say("notice_refused_fields", kind=kind, expected=", ".join(["kind", *fields]), got=got)
        for field, expected in fields.items():
            value = content[field]
            if type(value) is not expected:  # bool is not an int here; 3.0 is not 3
                return self._say(
                    "notice_refused_type", field=field, expected=self._say(_type_key(expected)), got=_short.repr(value)
                )
        board = self._board
        move: Move | None = None
        if "square" in fields:
            move, refusal = self._square_of(content["square"])
            if refusal is not None:
                return refusal
        if content["ply"] != board.ply and kind not in TIMELESS_INTENTS:
            return self._say("notice_refused_stale", got=_short.repr(content["ply"]), ply=board.ply)
        if kind.startswith("practice_"):
            return self._practice_intent(kind, move)
        if kind in ("hint", "review", "pause", "resume"):
            return self._aid_intent(kind)
        if self._practice is not None and kind in ("move", "pass"):
            return self._say("notice_refused_practice_pending", square=str(self._practice.move))
        if kind in ("move", "pass"):
            return self._human_move(move if move is not None else Move.null(board.size))
        if kind == "undo":
            if self._practice is not None:  # lift the placed disc: the game is as it was
                self._practice = None
                self._clear_notice()
                return None
            target = self._undo_target()
            if target is None:
                return self._say("notice_refused_undo")
            self._goto(target)
        elif kind == "redo":
            target = self._redo_target()
            if target is None:
                return self._say("notice_refused_redo")
            self._goto(target)
        elif kind == "jump":
            to = content["to"]
            if not 0 <= to <= len(self._line):
                return self._say("notice_refused_jump", got=_short.repr(to), length=len(self._line))
            if to == board.ply:
                return None
            self._goto(to)
        else:  # new_game
            self._start(Board(rules=self.rules))
            return None
        self._clear_notice()
        self._advance()
        return None

    def _square_of(self, square: str) -> tuple[Move | None, Message | None]:
        """The move on a square named exactly as the front end writes it, or why not."""
        n = self._board.size
        try:
            move = Move(parse_square(square, n), n)
        except InvalidMoveError:
            last = square_name(n * n - 1, n)
            return None, self._say("notice_refused_square", got=_short.repr(square), size=n, last=last)
        if str(move) != square:
            return None, self._say("notice_refused_square_spelling", got=_short.repr(square), square=str(move))
        return move, None

    def _human_move(self, move: Move) -> Message | None:
        board = self._board
        refusal = self._human_move_refusal()
        if refusal is not None:
            return refusal
        if self.practice and move and not board.in_placement() and move in board.legal_moves:
            self._practice = PracticeMove.start(board, move)  # placed; the learner flips
            self._clear_notice()
            return None
        try:
            self._push(move)
        except IllegalMoveError:  # the rule that forbids it, in one sentence (R10-R19)
            expl = explain(board, move)
            return _Explained(lambda: expl.short(self._language))
        self._clear_notice()
        self._advance()
        return None

    def _human_move_refusal(self) -> Message | None:
        """Why no human may move now: the game is over, or a computer plays this side."""
        board = self._board
        outcome = board.outcome()
        if outcome is not None:
            final = board.copy()
            return self._say("notice_refused_over", result=lambda: self._result_text(outcome, final))
        computer = self._players[board.turn]
        if computer is not None:
            colour, name = self._color_message(board.turn), self._player_title(computer)
            if self._pending is not None:
                return self._say("notice_refused_thinking", color=colour, player=name)
            key = "notice_refused_review" if board.ply < len(self._line) else "notice_refused_not_human"
            return self._say(key, color=colour, player=name)
        return None

    # -- practice (R17) ---------------------------------------------------------------------------

    def _practice_refusal(self) -> Message | None:
        """Why a practice disc cannot be placed now (None when it can)."""
        if not self.practice:
            return self._say("notice_refused_practice_off", kind="practice_place")
        if self._practice is not None:
            return self._say("notice_refused_practice_pending", square=str(self._practice.move))
        return self._human_move_refusal()

    def _practice_pending_refusal(self, kind: str = "practice_done") -> Message | None:
        if not self.practice:
            return self._say("notice_refused_practice_off", kind=kind)
        if self._practice is None:
            return self._say("notice_refused_practice_none")
        return None

    def _practice_intent(self, kind: str, move: Move | None) -> Message | None:
        refusal = self._practice_pending_refusal(kind)
        if refusal is not None:
            return refusal
        if kind == "practice_flip":
            assert move is not None  # the square was checked with the other fields
            return self._practice_flip(move)
        if kind == "practice_done":
            self._practice_done()
        else:
            self._practice_reveal()
        return None

    def _practice_flip(self, move: Move) -> Message | None:
        refusal = self._practice_pending_refusal("practice_flip")
        if refusal is not None:
            return refusal
        practice = self._practice
        assert practice is not None and move.square is not None
        why = practice.refusal(move.square)
        if why is not None:
            return self._say(_FLIP_REFUSALS[why], square=str(move))
        practice.toggle(move.square)
        return None

    def _practice_done(self) -> bool:
        practice = self._practice
        assert practice is not None
        if not practice.check():
            square, size = str(practice.move), practice.move.size
            problems: list[Message] = []
            if practice.wrong:
                problems.append(self._say_squares("practice_should_not_flip", practice.wrong, size))
            if practice.missed:
                problems.append(self._say_squares("practice_should_flip", practice.missed, size))
            self._notify(
                "explain",
                self._say("notice_practice_not_yet", square=square, problems=lambda: " ".join(p() for p in problems)),
            )
            return False
        expl = explain(self._board, practice.move)
        self._complete_practice(practice)
        self._notify("info", self._say("notice_practice_correct", explanation=lambda: expl.short(self._language)))
        self._advance()
        return True

    def _practice_reveal(self) -> None:
        practice = self._practice
        assert practice is not None
        practice.reveal()
        expl = explain(self._board, practice.move)
        flips = ", ".join(self._names(sorted(practice.correct)))
        self._complete_practice(practice)
        self._notify(
            "info", self._say("notice_practice_revealed", explanation=lambda: expl.short(self._language), flips=flips)
        )
        self._advance()

    def _complete_practice(self, practice: PracticeMove) -> None:
        """The flips are settled: play the move for real and count it."""
        self._tally[0] += practice.mistakes or 0
        self._tally[1] += 1
        self._push(practice.move)

    def _say_squares(self, key: str, squares: list[Square], size: int) -> Message:
        names = [square_name(sq, size) for sq in squares]
        return lambda: self._text(key, squares=self._text("explain_list_separator").join(names), count=len(names))

    # -- hints, scores and review: analysis in worker threads ----------------------------------

    def _aid_key(self) -> AidKey:
        """What an analysis started now belongs to: this position, these settings."""
        return self._generation, self._aid_epoch

    def _human_to_move(self) -> bool:
        """A human is to move and may act (no computer thinking, no practice disc waiting)."""
        return self._players[self._board.turn] is None and self._pending is None and self._practice is None

    def _scores_wanted(self) -> bool:
        board = self._board
        return (
            self.show_scores
            and self._human_to_move()
            and not board.is_game_over()
            and not board.in_placement()
            and not board.must_pass()
        )

    def _current_analysis(self) -> Analysis | None:
        if self._analysis is not None and self._analysis[0] == self._aid_key():
            return self._analysis[1]
        return None

    def _aid_intent(self, kind: str) -> Message | None:
        """A hint, review, pause or resume intent (fields and ply already checked)."""
        if kind == "hint":
            refusal = self._hint_refusal()
            if refusal is None:
                self._request_hint()
            return refusal
        if kind == "review":
            refusal = self._review_refusal()
            if refusal is None:
                self._start_review()
            return refusal
        if kind == "pause":
            if all(player is None for player in self._players.values()):
                return self._say("notice_refused_pause_no_computer")
            self.paused = True
        else:
            self.paused = False
        self._clear_notice()  # what was refused or went wrong before is now out of date
        return None

    def _hint_refusal(self) -> Message | None:
        """Why no hint can be given now (None when it can)."""
        board = self._board
        if self._practice is not None:
            return self._say("notice_refused_practice_pending", square=str(self._practice.move))
        if board.is_game_over():
            return self._say("notice_refused_hint_over")
        computer = self._players[board.turn]
        if computer is not None:
            return self._say(
                "notice_refused_hint_computer",
                color=self._color_message(board.turn),
                player=self._player_title(computer),
            )
        if board.in_placement():
            return self._say("notice_refused_hint_placement")
        if board.must_pass():
            return self._say("notice_refused_hint_pass", color=self._color_message(board.turn))
        return None

    def _request_hint(self) -> None:
        """Show the hint now if this position is analysed, else let ``_refresh_aids`` start it."""
        key = self._aid_key()
        self._hint_for = key
        if self._analysis_failed == key:
            self._analysis_failed = None  # asked again: try again
        analysis = self._current_analysis()
        if analysis is not None:
            self._notify("info", self._hint_message(analysis))

    def _best_moves(self, analysis: Analysis) -> list[MoveAnalysis]:
        top = analysis.best.score
        return [entry for entry in analysis.moves if entry.move and entry.score == top]

    def _hint_message(self, analysis: Analysis) -> Message:
        best = self._best_moves(analysis)
        names = [str(entry.move) for entry in best]
        return self._say(
            "notice_hint",
            color=self._color_message(self._board.turn),
            moves=lambda: self._text("explain_list_separator").join(names),
            score=lambda: self._score_text(best[0]),
        )

    def _score_text(self, entry: MoveAnalysis) -> str:
        """A move's score as the overlay writes it: "+4", "-2", "0" (estimates, rounded) or
        "W+6", "D", "L-4" (proven results) in the widget's language."""
        margin = round(entry.score)
        if entry.exact:
            if margin > 0:
                return self._text("score_win", margin=f"+{margin}")
            if margin < 0:
                return self._text("score_loss", margin=str(margin))
            return self._text("score_draw")
        return f"{margin:+d}" if margin else "0"

    def _review_refusal(self) -> Message | None:
        if not self._line:
            return self._say("notice_refused_review_empty")
        if not self._line_finished():
            return self._say("notice_refused_review_unfinished")
        return None

    def _line_finished(self) -> bool:
        """The line of moves (redo tail included) reaches the end of the game."""
        line_id, finished = self._finished
        if line_id != self._line_id:
            probe = self._board.copy(stack=False)
            for move in self._line[self._board.ply :]:
                probe.push(move)
            finished = probe.is_game_over()
            self._finished = (self._line_id, finished)
        return finished

    def _start_review(self) -> None:
        line_id = self._line_id
        if self._review_job == line_id or (self._review is not None and self._review[0] == line_id):
            return  # on its way, or done
        board = self._board.copy()
        for move in self._line[board.ply :]:
            board.push(move)
        self._review_job = line_id
        self._progress["review"] = 0.0
        depth, limit = self.analysis_depth, self.analysis_time_limit
        self._spawn("review", lambda: self._review_in_background(board, line_id, depth, limit))

    def _analysis_wanted(self) -> bool:
        """The score overlay or a hint needs the analysis of the position shown."""
        return self._scores_wanted() or (self._hint_for == self._aid_key() and self._hint_refusal() is None)

    def _refresh_aids(self) -> None:
        """At the end of every operation: start analysing the position when a hint or the
        score overlay needs it and neither its result nor a worker for it exists."""
        key = self._aid_key()
        if key in (self._analysis_job, self._analysis_failed) or self._current_analysis() is not None:
            return
        if not self._analysis_wanted():
            return
        self._analysis_job = key
        self._progress["analysis"] = 0.0
        board = self._board.copy(stack=False)
        depth, limit = self.analysis_depth, self.analysis_time_limit
        self._spawn("analysis", lambda: self._analyse_in_background(board, key, depth, limit))

    def _spawn(self, what: str, work: Callable[[], None]) -> None:
        def run() -> None:
            try:
                work()
            except Exception:  # a bug must not die silently in a thread
                self.log.exception("reversi-widget: the %s worker failed", what)
            finally:
                with self._lock:
                    self._workers.discard(threading.current_thread())

        worker = threading.Thread(target=run, name=f"reversi-{what}", daemon=True)
        self._workers.add(worker)
        worker.start()

    def _reporter(self, job: str, current: Callable[[], bool]) -> Progress:
        """A progress callback for a worker: it shows the fraction done (at most every
        PROGRESS_EVERY seconds) and stops the work, by raising, once the work is stale."""
        last = 0.0

        def report(fraction: float, message: str) -> None:
            nonlocal last
            with self._lock:  # the game may be changing in the kernel's thread
                alive = current()
            if not alive:
                raise _Stale
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY:
                last = now
                with self._operation():
                    if current():
                        self._progress[job] = min(1.0, max(0.0, fraction))

        return report

    def _analyse_in_background(self, board: Board, key: AidKey, depth: int | None, limit: float | None) -> None:
        """In a worker thread: analyse, then keep the result only for the position it is of."""
        result: Analysis | None = None
        failure: Exception | None = None
        try:
            # Stale once the position changes, or once neither the scores nor a hint want it.
            progress = self._reporter("analysis", lambda: self._aid_key() == key and self._analysis_wanted())
            result = analyse(board, depth=depth, time_limit=limit, progress=progress)
        except _Stale:
            pass
        except Exception as error:
            failure = error
        with self._operation():
            if self._analysis_job == key:
                self._analysis_job = None
            if self._aid_key() != key:
                return  # the position has moved on: none of this is shown
            if failure is not None:
                self._analysis_failed = key
                self._notify("error", self._say("notice_analysis_failed", error=failure))
                return
            if result is not None:
                self._analysis = (key, result)
                if self._hint_for == key:
                    self._notify("info", self._hint_message(result))

    def _review_in_background(self, board: Board, line_id: int, depth: int | None, limit: float | None) -> None:
        """In a worker thread: review the line, kept only if the line is still the same."""
        reviews: list[MoveReview] | None = None
        failure: Exception | None = None
        try:
            progress = self._reporter("review", lambda: self._line_id == line_id)
            reviews = review_line(board, depth, limit, progress)
        except _Stale:
            pass
        except Exception as error:
            failure = error
        with self._operation():
            if self._review_job == line_id:
                self._review_job = None
            if self._line_id != line_id:
                return
            if failure is not None:
                self._notify("error", self._say("notice_analysis_failed", error=failure))
                return
            if reviews is not None:
                self._review = (line_id, reviews)
                self._notify("info", self._review_done_message(reviews))

    def _review_done_message(self, reviews: list[MoveReview]) -> Message:
        lost = {BLACK: 0.0, WHITE: 0.0}
        for entry in reviews:
            lost[entry.color] += entry.loss
        return self._say(
            "notice_review_done",
            black=self._color_message(BLACK),
            white=self._color_message(WHITE),
            black_loss=_number(lost[BLACK]),
            white_loss=_number(lost[WHITE]),
        )

    def _review_entry(self, entry: MoveReview) -> dict[str, object]:
        """One reviewed move as the views get it (js/PROTOCOL.md, ``review_moves``)."""
        loss = round(entry.loss, 1)
        mark = "" if entry.forced else next((sign for least, sign in REVIEW_MARKS if loss >= least), "")
        if entry.forced:
            note = self._text("review_forced")
        elif loss <= 0:
            note = self._text("review_best")
        else:
            note = self._text("review_loss", best=str(entry.best), loss=_number(loss))
        return {
            "ply": entry.ply,
            "color": _COLOR_KEY[entry.color],
            "move": str(entry.played),
            "best": str(entry.best),
            "score": round(entry.played_score, 2),
            "best_score": round(entry.best_score, 2),
            "loss": loss,
            "exact": entry.exact,
            "forced": entry.forced,
            "mark": mark,
            "note": note,
        }

    def _aids_picture(self) -> dict[str, object]:
        """The aids' traits: only results that belong to what is shown now."""
        key = self._aid_key()
        analysis = self._current_analysis() if self._human_to_move() else None
        hint: list[str] = []
        scores: dict[str, str] = {}
        if analysis is not None:
            if self._hint_for == key:
                hint = [str(entry.move) for entry in self._best_moves(analysis)]
            if self.show_scores:
                scores = {str(entry.move): self._score_text(entry) for entry in analysis.moves if entry.move}
        reviews = self._review[1] if self._review is not None and self._review[0] == self._line_id else None
        busy, progress = "", 0.0
        if self._review_job is not None and self._review_job == self._line_id:
            busy, progress = "review", self._progress.get("review", 0.0)
        elif self._analysis_job == key and self._analysis_wanted():
            busy = "hint" if self._hint_for == key else "scores"
            progress = self._progress.get("analysis", 0.0)
        return {
            "hints": hint,
            "scores": scores,
            "review_moves": [] if reviews is None else [self._review_entry(entry) for entry in reviews],
            "evaluations": [] if reviews is None else evaluations(reviews),
            "busy": busy,
            "progress": progress,
            "can_review": bool(self._line) and self._line_finished(),
            "can_pause": any(player is not None for player in self._players.values()),
        }

    # -- writes to synced traits --------------------------------------------------------------

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A front end changed synced traits: accept valid settings, put everything else
        back to Python's value (and say so). Never raises."""
        try:
            with self._operation():
                accepted: dict[str, Any] = {}
                reverted: list[str] = []
                problems: list[Message] = []
                if not isinstance(sync_data, dict):
                    self._notify("error", self._say("notice_unknown_state", got=_short.repr(sync_data)))
                    return
                unknown = [name for name in sync_data if name not in self.keys]
                if unknown:
                    problems.append(self._say("notice_unknown_state", got=_short.repr(unknown)))
                for name, value in sync_data.items():
                    if name in SETTINGS:
                        problem = self._setting_problem(name, value)
                        if problem is None:
                            accepted[name] = value
                            continue
                        problems.append(problem)
                        reverted.append(name)
                    elif name in self.keys:
                        reverted.append(name)
                if accepted:
                    super().set_state(accepted)
                if reverted:
                    self.send_state(reverted)  # the writer's view takes Python's value back
                    read_only = [name for name in reverted if name not in SETTINGS]
                    if read_only:
                        problems.append(self._say("notice_readonly", names=", ".join(read_only)))
                if problems:
                    self._notify("error", lambda: "; ".join(problem() for problem in problems))
        except Exception:
            self.log.exception("reversi-widget could not apply a state update from the front end")

    def _setting_problem(self, name: str, value: object) -> Message | None:
        trait = self.traits()[name]
        if isinstance(trait, traitlets.Bool):
            expected = None if isinstance(value, bool) else self._say("setting_expected_bool")
        elif isinstance(trait, traitlets.Enum):
            values = ", ".join(str(v) for v in trait.values or ())
            expected = None if value in (trait.values or ()) else self._say("setting_expected_one_of", values=values)
        else:  # size
            fits = value is None or (
                isinstance(value, int) and not isinstance(value, bool) and MIN_PIXELS <= value <= MAX_PIXELS
            )
            expected = None if fits else self._say("setting_expected_size", low=MIN_PIXELS, high=MAX_PIXELS)
        if expected is None:
            return None
        return self._say("notice_setting", name=name, got=_short.repr(value), error=expected)

    # -- validation and reactions to Python-side changes -------------------------------------

    @traitlets.validate(*READ_ONLY)
    def _only_the_widget_writes(self, proposal: Any) -> Any:
        if self._writer != threading.get_ident():
            name = proposal["trait"].name
            raise traitlets.TraitError(
                f"{name} is part of the game's picture and is written by the widget; "
                f"change the game with play(), undo(), redo(), jump(), new_game() or load()"
            )
        return proposal["value"]

    @traitlets.validate("black", "white")
    def _valid_player(self, proposal: Any) -> Any:
        make_player(proposal["value"])  # raises UnknownPlayerError for anything unusable
        return proposal["value"]

    @traitlets.observe("black", "white")
    def _players_changed(self, change: Any) -> None:
        if not self._ready:
            return
        color = BLACK if change["name"] == "black" else WHITE
        with self._operation():
            self._players[color] = make_player(change["new"])
            if self._board.turn == color and (self._pending is not None or self._practice is not None):
                self._invalidate()  # the old player's move (or practice disc) is no longer wanted
            self._advance()

    @traitlets.observe("language")
    def _language_changed(self, change: Any) -> None:
        """Say everything again in the new language: labels, status, result and the notice."""
        self._language = change["new"]
        if self._ready:
            with self._operation():
                if self._notice_message is not None:
                    self.notice = self._notice_message()

    @traitlets.observe("practice")
    def _practice_changed(self, change: Any) -> None:
        """Practice switched off with a disc placed: the move is played with its true flips,
        outside the tally (the learner chose to stop practising)."""
        if self._ready and not change["new"] and self._practice is not None:
            with self._operation():
                move = self._practice.move
                self._push(move)
                self._clear_notice()
                self._advance()

    @traitlets.observe("rules")
    def _rules_changed(self, change: Any) -> None:
        if self._ready and change["new"] != self._board.rules:
            self.new_game(change["new"])

    @traitlets.observe("paused")
    def _paused_changed(self, change: Any) -> None:
        if self._ready:
            with self._operation():
                self._advance()

    @traitlets.observe("show_scores")
    def _show_scores_changed(self, change: Any) -> None:
        if self._ready:
            with self._operation():
                pass  # on the way out: the overlay is drawn, or its analysis started

    @traitlets.validate("analysis_depth")
    def _valid_analysis_depth(self, proposal: Any) -> int | None:
        value = proposal["value"]
        if value is not None and (isinstance(value, bool) or not 1 <= value <= MAX_DEPTH):
            raise InvalidSettingError(f"analysis_depth must be an int from 1 to {MAX_DEPTH} or None, got {value!r}")
        return value

    @traitlets.validate("analysis_time_limit")
    def _valid_analysis_time_limit(self, proposal: Any) -> float | None:
        try:
            return check_time_limit(proposal["value"])
        except ValueError as error:
            raise InvalidSettingError(f"analysis_{error}") from None

    @traitlets.observe("analysis_depth", "analysis_time_limit")
    def _analysis_settings_changed(self, change: Any) -> None:
        """Other settings, other scores: what was analysed is redone when still wanted."""
        if self._ready:
            with self._operation():
                self._aid_epoch += 1

    @traitlets.validate("fill")
    def _valid_fill(self, proposal: Any) -> dict[str, str]:
        value = proposal["value"]
        out: dict[str, str] = {}
        for square, colour in self._annotation_items("fill", value):
            if not isinstance(colour, str) or len(colour) > MAX_FILL_LENGTH:
                raise InvalidAnnotationError(f"fill[{square!r}] must be a CSS colour string, got {_short.repr(colour)}")
            out[square] = colour
        return out

    @traitlets.validate("marks")
    def _valid_marks(self, proposal: Any) -> dict[str, str]:
        out: dict[str, str] = {}
        for square, mark in self._annotation_items("marks", proposal["value"]):
            if isinstance(mark, bool) or not isinstance(mark, (str, int, float)):
                raise InvalidAnnotationError(
                    f"marks[{square!r}] must be a short text or a number, got {_short.repr(mark)}"
                )
            label = mark if isinstance(mark, str) else f"{mark:g}"
            if len(label) > MAX_MARK_LENGTH:
                raise InvalidAnnotationError(
                    f"marks[{square!r}] = {label!r} is longer than {MAX_MARK_LENGTH} characters"
                )
            out[square] = label
        return out

    @traitlets.validate("arrows")
    def _valid_arrows(self, proposal: Any) -> list[list[str]]:
        value = proposal["value"]
        out: list[list[str]] = []
        for pair in value:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise InvalidAnnotationError(
                    f"each arrow must be a [from, to] pair of squares, got {_short.repr(pair)}"
                )
            out.append([self._annotation_square("arrows", square) for square in pair])
        return out

    def _annotation_items(self, name: str, value: object) -> list[tuple[str, object]]:
        if not isinstance(value, dict):
            raise InvalidAnnotationError(f"{name} must map square names to values, got {_short.repr(value)}")
        return [(self._annotation_square(name, square), item) for square, item in value.items()]

    def _annotation_square(self, name: str, square: object) -> str:
        size = self._board.size
        try:
            if isinstance(square, str):
                return square_name(parse_square(square, size), size)
            if isinstance(square, int) and not isinstance(square, bool):
                return square_name(square, size)
        except InvalidMoveError as error:
            raise InvalidAnnotationError(f"{name}: {error}") from None
        raise InvalidAnnotationError(f"{name}: expected a square name like 'd3', got {_short.repr(square)}")
