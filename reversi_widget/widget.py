"""``ReversiWidget``: a clickable Reversi board for Jupyter, with Python as the only referee.

The widget is a thin shell over ``reversi_widget.play``: a ``Session`` holds the game
(position, line, players, practice move), ``Aids`` the hint, scores and review, ``Workers``
the lock and the threads, and ``view.picture`` turns them into the synced traits, which
every view draws, so several views of one widget always agree. A view sends intents
("play d3", "undo"...) as custom messages; ``intents.parse`` checks each in full and the
session either changes the game or refuses with a notice, leaving the game as it was. The
Python methods (``w.undo()``...) call the same session methods and raise the refusal. The
contract with the front end is js/PROTOCOL.md.

Computer players and analyses run away from the kernel on a copy of the position (in worker
threads, or in slices on the event loop where there are none, as in JupyterLite), so the
notebook stays responsive; their results are applied only if the game is still where it
was when they started, so a stale move or hint is never shown, and a stale analysis stops
at once. The engine's levels are player names: ``white="expert"``.

The setting ``concept`` marks one strategy concept of ``reversi_widget.concepts`` on the
position shown, with a sentence saying what it is (``"stable"``, ``"regions"``...; ``""``,
the default, none): ``play/overlays.py`` says what each concept marks. Any other value
raises ``InvalidSettingError`` and changes nothing.

``w.quiz`` is square-marking mode (``play/quizzing.py``): ``w.quiz.ask(quizzes.stable("black"))``
asks a question on the position shown; clicks then mark squares and Check has Python compare
them with the answer it computes.

The setting ``coach=True`` coaches the human side(s) (``play/coach.py``): after each of its
moves a verdict in ``coach_state`` (good, or what it lost, the best move and why); after a
marked move the computer waits for ``try_again()`` (the move is taken back) or ``go_on()``,
and at the end ``coach_state["summary"]`` counts the mistakes and offers the worst three to replay.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import traitlets

from .board import Board, Move, Outcome
from .errors import InvalidPositionError
from .game import Game
from .play import checks
from .play.aids import Aids
from .play.checks import ANIMATION_STEP, checked_language, sort_state
from .play.coach import Coach, CoachMethods
from .play.editor import EditorMethods
from .play.intents import parse, perform
from .play.loading import read_board, tree_of
from .play.practising import practice_done, practice_flip, practice_place, practice_reveal, set_practice_mode
from .play.puzzling import PuzzleMode, PuzzleScore, puzzle_action
from .play.quizzing import QuizControl
from .play.session import Session
from .play.texts import Joined, Refusal, Renders, Text, quote_input
from .play.traits import FRONT_END_CONFIG, WidgetTraits
from .play.variations import record, variation_action
from .play.view import checked_learner, picture, recorded_names
from .play.workers import Callbacks, Workers
from .players import make_player
from .puzzles.puzzle import Puzzle
from .records import GameLog
from .rules import Rules
from .squares import BLACK, WHITE

# isort: off
# Names this module exported before they got homes of their own: still importable from here.
from .game_review import REVIEW_MARKS as REVIEW_MARKS, evaluations as evaluations
from .play.aids import AidKey as AidKey, AnalysisRefusedError as AnalysisRefusedError
from .play.checks import ANIMATIONS as ANIMATIONS, MAX_FILL_LENGTH as MAX_FILL_LENGTH, SETTINGS as SETTINGS
from .play.checks import MAX_MARK_LENGTH as MAX_MARK_LENGTH, MAX_PIXELS as MAX_PIXELS, MIN_PIXELS as MIN_PIXELS
from .play.checks import SHOWN_MAX as SHOWN_MAX, THEME_NAMES as THEMES  # noqa: F401 (THEMES, renamed there)
from .play.checks import InvalidAnnotationError as InvalidAnnotationError
from .play.checks import InvalidSettingError as InvalidSettingError, UnknownLanguageError as UnknownLanguageError
from .play.intents import INTENTS as INTENTS, MAX_INTENT_SIZE as MAX_INTENT_SIZE
from .play.intents import TIMELESS_INTENTS as TIMELESS_INTENTS
from .play.session import DEMO_LINE_STEPS as DEMO_LINE_STEPS, NavigationError as NavigationError
from .play.texts import LEVEL_NAMES as LEVEL_NAMES
from .play.traits import ASSETS as ASSETS, running_in_marimo as running_in_marimo
from .play.workers import PROGRESS_EVERY as PROGRESS_EVERY
# isort: on

__all__ = ["GameOverCallback", "MoveCallback", "ReversiWidget"]

#: The settings the session and the aids follow (``ReversiWidget._follow_settings``).
_FOLLOWED_SETTINGS: tuple[str, ...] = ("language", "show_me", "animation", "show_scores", "practice", "show_explorer")
_FOLLOWED_SETTINGS += ("explorer", "concept", "coach", "live_evaluation")

MoveCallback = Callable[["ReversiWidget", Move], object]
GameOverCallback = Callable[["ReversiWidget", Outcome], object]


class ReversiWidget(WidgetTraits, CoachMethods, EditorMethods):
    """A Reversi game in a notebook cell: click to play, or drive it from Python.

    ``board`` is where to start: a ``Board``, a ``Game``, a transcript (``"f5d6c3"``), a position string or a
    GGF record (see ``load``). ``black``/``white`` are ``"human"``, a registered name (``"random"``,
    ``"greedy"``, the engine's levels ``"beginner"``, ``"easy"``, ``"intermediate"``, ``"medium"``, ``"hard"``,
    ``"expert"`` and ``"level-1"`` ... ``"level-7"``) or an object with ``choose(board)``. With two computers
    the game plays by itself; ``pause()``/``resume()`` (or the Pause button) stop it at once and restart it.
    Every keyword is also a trait: ``w.white = "greedy"`` switches players, ``w.rules = Rules(goal="inverted")``
    starts a new game with those rules, ``w.animation = "off"`` changes every view. ``w.board`` is a copy:
    change the game with ``play``, ``undo``, ``load``...

    ``language`` ("en", "ca", "pl", "uk") translates every text the widget shows, live. ``show_me=True`` walks
    each played move through its flanked lines before the discs flip. ``practice=True`` is rule R17 as an
    exercise: a human's move only places the disc; the learner clicks the discs that flip and presses Done, and
    the opponent moves once the flips are right (or after "Show me the answer"). The tally is
    ``practice_mistakes`` (discs wrong or missed at a move's first check, counted then) over ``practice_moves``
    (moves completed).

    Practice and R17: the correction window is exactly the pending practice move. Once it is played the opponent
    moves and the board stands, so undo and redo only ever replay moves with their true flips; undoing back to a
    practised move does not re-open its corrections (playing it again is a new practice move). Undo while a
    practice move is pending lifts the placed disc and leaves the game as it was.

    Analysis aids: ``hint()`` (or the Hint button) rings the best move(s) for a human to move; ``show_scores=True``
    writes every legal move's score on its square whenever a human is to move (a disc margin such as "+4",
    "W+6"/"D"/"L-4" once solved, "W≥+6" for a win proven by at least that margin); ``review()`` (or the Review
    button, once the game is over) scores every move played: ``review_moves`` and the marks in the move list say
    what each move lost against the best one and whether that is exact or estimated, ``evaluations`` draws the
    game's course. They run away from the kernel (see above) with the progress in ``busy``/``progress``;
    ``analysis_depth`` and ``analysis_time_limit`` are passed to ``analyse``/``review`` (None: their defaults).
    ``live_evaluation="chance"`` (or ``"score"``; default ``"off"``) draws Black's win chance or disc score beside
    the board, exact once solved, and grows the evaluation chart with the game (``play/live.py``).
    """

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
        puzzle: Any = None,
        learner: str = "",
        **kwargs: Any,
    ) -> None:
        if log is not None and not isinstance(log, GameLog):
            raise TypeError(f"log must be a reversi_widget.records.GameLog, got {type(log).__name__}")
        self._ready = False
        self._workers = Workers(self.hold_sync, self._settle, self._callback_failed, self.log)
        self._move_callbacks: Callbacks[MoveCallback] = Callbacks(self._workers.lock)
        self._over_callbacks: Callbacks[GameOverCallback] = Callbacks(self._workers.lock)
        start = read_board(board, rules)
        if rules is not None and isinstance(board, (Board, Game)) and start.rules != rules:
            raise InvalidPositionError(f"the board is played under {start.rules!r} but rules= says {rules!r}")
        self._session = Session(start, {BLACK: make_player(black), WHITE: make_player(white)}, self.log, tree_of(board))
        self._aids, self._coach = Aids(self._session), Coach(self._session)
        self._puzzles = PuzzleMode(self._session, self._workers)
        self.quiz = QuizControl(self._session, self._act, self._operation)  # square-marking mode
        self._session.paused = bool(kwargs.get("paused", False))  # the first picture says so
        first = picture(self._session, self._aids, checked_language(language))
        state = sorted(set(kwargs) & set(first) - {"paused"})
        if state:  # the game's state comes from the board, and would be drawn over at once
            raise TypeError(
                f"ReversiWidget() takes no {', '.join(state)}: the game's state comes from the board; "
                "give the position or the rules instead, e.g. ReversiWidget(rules=Rules(size=6))"
            )
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
            config={**FRONT_END_CONFIG, "report_shown": running_in_marimo()},
            **{**first, **kwargs},
        )
        self._follow_settings()
        self._aids.depth, self._aids.time_limit = self.analysis_depth, self.analysis_time_limit
        self._size, self._learner = start.size, checked_learner(learner)
        self._workers.writer = None
        self._ready = True
        #: Where finished games are recorded (R25); ``self.log`` stays the traitlets logger.
        self.game_log = log
        self._recorded: set[str] = set()
        if log is not None:
            self.on_game_over(self._record)
        self.on_msg(self._on_intent)
        with self._operation():
            self._session.advance()
        if puzzle is not None:
            self.start_puzzles(puzzle, learner=learner)

    # -- reading the game ------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the current position with its move stack: changing it does not change
        the widget (use ``play``, ``undo``, ``load``... or assign ``w.board = b``)."""
        with self._lock:
            return self._session.board.copy()

    @board.setter
    def board(self, value: Board | Game | str) -> None:
        self.load(value)

    @property
    def line(self) -> list[Move]:
        """The whole line, including moves that can be redone."""
        with self._lock:
            return list(self._session.line)

    def game(self) -> Game:
        """The current line as a ``Game`` record (players named by their labels, a human by
        ``learner`` if given), other lines as variations."""
        with self._lock:
            black, white = recorded_names(self._session, self.players, self._learner)
            return record(self._session, black_player=black, white_player=white)

    # -- playing from Python: each is one session action, its refusal raised ---------------------

    def play(self, move: Move | str) -> None:
        """Play a move for the side to move (``"d3"``, ``Move``, or ``"pass"`` when forced).

        Raises ``InvalidMoveError``/``IllegalMoveError`` and changes nothing then. A
        computer's pending move is dropped; the game then goes on by itself (forced passes,
        computer replies)."""
        self._act(lambda session: session.play(session.board.parse_move(move)))

    def pass_turn(self) -> None:
        """Pass; legal only when the side to move has no move (R18, R19)."""
        self._act(lambda session: session.play(session.pass_move()))

    def undo(self) -> None:
        """Take back to the last position where a human is to move (one move if both
        players are computers); the moves stay in the line for ``redo``. A waiting practice
        disc is lifted instead. Raises ``NavigationError`` when there is nothing to undo."""
        self._act(Session.undo)

    def redo(self) -> None:
        """Replay the line forward to the next position where a human is to move."""
        self._act(Session.redo)

    def jump(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line (0 is the start). A computer
        plays on only at the end of the line; in the middle the game waits for review."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise NavigationError(f"jump to {quote_input(ply)}: expected a ply from 0 to {len(self.line)}")
        self._act(lambda session: session.jump(ply))

    def new_game(self, rules: Rules | None = None) -> None:
        """Start again, with new ``rules`` or the current ones."""
        self._act(lambda session: session.start(Board(rules=self.rules if rules is None else rules)))

    def load(self, source: Board | Game | str, *, rules: Rules | None = None) -> None:
        """Load a ``Board`` (its move stack becomes the line), a ``Game``, a GGF record
        (``"(;GM[Othello]..."``), a transcript (``"f5d6c3"``) or a position string. Text is
        read under ``rules`` (default: the current rules). On an error nothing changes."""
        tree = tree_of(source)
        self._act(lambda session: session.start(read_board(source, rules if rules is not None else self.rules), tree))

    def promote_variation(self) -> None:
        """Make the line shown the main line, the former one a variation (``VariationError`` if it is main)."""
        self._act(lambda session: variation_action(session, "variation_promote"))

    def delete_variation(self) -> None:
        """Delete the variation shown from where it branches off (``VariationError`` on the main line)."""
        self._act(lambda session: variation_action(session, "variation_delete"))

    # -- practice (R17) from Python: what the learner's clicks do ------------------------------

    def practice_place(self, square: Move | str) -> None:
        """Place a disc for the side to move as a practice move: nothing flips yet.

        Needs ``practice=True`` and a human to move; raises ``PracticeError`` (or
        ``IllegalMoveError`` for an illegal square) and changes nothing otherwise."""
        self._act(lambda session: practice_place(session, session.board.parse_move(square)))

    def practice_flip(self, square: str) -> None:
        """Turn an opponent disc of the pending practice move (or turn it back)."""
        self._act(lambda session: practice_flip(session, session.board.parse_move(square)))

    def practice_done(self) -> bool:
        """Check the pending practice move: True if it was right and has been played, False
        if discs are wrong or missed (they are marked; correct them and call again)."""
        with self._operation():
            self._act(practice_done)
            return self._session.practice is None

    def practice_reveal(self) -> None:
        """Show the answer: play the pending practice move with its true flips (mistakes count)."""
        self._act(practice_reveal)

    # -- computers and aids ---------------------------------------------------------------------

    def pause(self) -> None:
        """Stop computer players at once: a move being thought about is dropped (thought again on resume)."""
        self.paused = True

    def resume(self) -> None:
        """Let computer players move again."""
        self.paused = False

    def hint(self) -> None:
        """Ring the best move(s) for the side to move (the ``hints`` trait), draw the line expected
        after it (``lines``) and say them in a notice. The analysis runs away from the kernel (a
        worker thread, or slices on the event loop where there are no threads), so this returns
        at once; the ring and the line go when the position changes. Raises
        ``AnalysisRefusedError`` (and changes nothing) when there is no move to hint: the game is
        over, a computer is to move, the side to move must pass, or the free start's discs are being placed."""
        self._act(lambda session: self._aids.hint())

    def review(self) -> None:
        """Review the finished game away from the kernel (a worker thread, or slices on the
        event loop where there are no threads): for every move the best move, the discs it
        lost and how sure that is (``review_moves``, marks in the move list) and the
        evaluation after each move (``evaluations``, drawn as a chart). Returns at once;
        ``wait()`` blocks until it is done. Raises ``AnalysisRefusedError`` when the line is empty
        or does not reach the end of the game."""
        self._act(lambda session: self._aids.review())

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no computer move is pending, no hint, score or review analysis runs,
        every puzzle try is kept in the log and every ``on_move``/``on_game_over`` callback
        already due has run (True), or ``timeout`` seconds pass (False). With two unpaused
        computers this waits for the end of the game. Meant for scripts and tests: in a
        notebook it blocks the kernel until it returns."""
        busy = (self._aids.busy, self._coach.busy, self._puzzles.tries.busy)
        return self._workers.wait(lambda: self._session.pending is not None or any(b() for b in busy), timeout)

    # -- puzzles (``play/puzzling.py``); the position editor's methods are ``play/editor.py``'s --

    def start_puzzles(self, puzzles: Puzzle | Sequence[Puzzle], *, learner: str = "") -> None:
        """Puzzle mode: show the first of ``puzzles``, the learner on the side to move and
        perfect defence on the other. ``learner`` names who plays, in the log."""
        with self._operation():
            self._puzzles.start(puzzles, learner)

    def stop_puzzles(self) -> None:
        """Leave puzzle mode; the position stays, both sides human."""
        with self._operation():
            self._puzzles.stop()
            self.black = self.white = "human"

    def next_puzzle(self) -> None:
        """The next puzzle of the list (``ReversiError`` after the last one)."""
        self._act(lambda session: puzzle_action(session, "puzzle_next"))

    def retry_puzzle(self) -> None:
        """Back to the puzzle's position; the score keeps the first try."""
        self._act(lambda session: puzzle_action(session, "puzzle_retry"))

    def show_solution(self) -> None:
        """Say the answer and ring it; an untried puzzle then counts as not solved."""
        self._act(lambda session: puzzle_action(session, "puzzle_solution"))

    def play_out(self) -> None:
        """Perfect play for both sides from the position shown to the end of the game, a
        move every ``puzzling.PLAY_OUT_DELAY`` seconds (or ``move_delay``, if longer), so the
        learner sees why. Refused before a move was tried or the solution shown."""
        self._act(lambda session: puzzle_action(session, "puzzle_play_out"))

    @property
    def current_puzzle(self) -> Puzzle | None:
        return None if self._session.puzzles is None else self._session.puzzles.puzzle

    @property
    def puzzle_score(self) -> PuzzleScore:
        """(solved at the first try, tried) in this session; prints "solved 1 of 2 puzzles at the first try"."""
        run = self._session.puzzles
        return PuzzleScore(0, 0) if run is None else run.score

    # -- callbacks ------------------------------------------------------------------------------

    def on_move(self, callback: MoveCallback) -> Callable[[], None]:
        """Call ``callback(widget, move)`` after every move (passes included, also computer
        moves, which run it where the computer's move came back: its worker thread, or the
        event loop where there are no threads). Returns a function that removes it."""
        return self._move_callbacks.add(callback)

    def on_game_over(self, callback: GameOverCallback) -> Callable[[], None]:
        """Call ``callback(widget, outcome)`` when a move ends the game. Returns a remover."""
        return self._over_callbacks.add(callback)

    def _callback_failed(self, callback: Callable[..., object], error: Exception) -> None:
        what = "on_move" if callback in self._move_callbacks else "on_game_over"
        self._session.notify("error", Text("notice_callback_failed", what=what, error=repr(error)))

    def _record(self, widget: ReversiWidget, outcome: Outcome) -> None:
        """Keep a finished game in ``game_log``, once per line of moves (undo and redo to
        the same end records nothing new). Not in puzzle mode: there the log keeps each try,
        as a game played to its end by perfect play (``puzzles.puzzle_tries``)."""
        with self._lock:
            if self._session.puzzles is not None:
                return
        game = self.game()
        key = f"{game.rules!r} {game.transcript(passes=True)}"
        if self.game_log is not None and key not in self._recorded:
            self.game_log.add(game)
            self._recorded.add(key)

    # -- the machinery --------------------------------------------------------------------------

    @property
    def _lock(self) -> threading.RLock:
        return self._workers.lock

    def _operation(self) -> Any:
        return self._workers.operation()

    def _act(self, action: Callable[[Session], Refusal | None]) -> None:
        """One action of the session for a Python caller: a refusal is raised."""
        with self._operation():
            refusal = action(self._session)
            if refusal is not None:
                raise refusal.exception(self.language)

    def _settle(self) -> None:
        """At the end of every operation: start what is due (a computer's move, an analysis),
        tell the callbacks of the moves played, and redraw every view."""
        session, workers = self._session, self._workers
        sides = self._puzzles.new_sides()
        if sides is not None:
            self.black, self.white = sides
        self._puzzles.judge(self.game_log)
        self._coach.observe()
        player = session.computer_due()
        if player is not None:
            workers.computer_move(session, player, lambda: self._puzzles.computer_delay(self.move_delay))
        for job in [*self._aids.due(), *self._coach.due(self._aids.depth, self._aids.time_limit)]:
            workers.run_job(job)
        for played in session.played:
            for move_callback in self._move_callbacks:
                workers.queue(move_callback, self, played.move)
            if played.outcome is not None:
                for over_callback in self._over_callbacks:
                    workers.queue(over_callback, self, played.outcome)
        session.played.clear()
        board = session.board
        if board.rules != self.rules:
            self.rules = board.rules  # the observer sees the board already has these rules
        if board.size != self._size:
            self._size = board.size
            self.fill, self.marks, self.arrows = {}, {}, []
        for name, value in picture(session, self._aids, self.language).items():
            if getattr(self, name) != value:  # the same value would be validated only to be dropped
                setattr(self, name, value)

    def _notify_trait(self, name: str, old_value: object, new_value: object) -> None:
        # Trait changes may come from the kernel's thread and a computer's thread at once:
        # one at a time keeps ipywidgets' batching state consistent.
        with self._lock:
            super()._notify_trait(name, old_value, new_value)

    def _follow_settings(self) -> None:
        """Hand the settings that change what the game does to the session and the aids."""
        self._session.show_me, self._session.step = self.show_me, ANIMATION_STEP[self.animation]
        set_practice_mode(self._session, self.practice)
        self._aids.show_scores, self._aids.explorer.settings = self.show_scores, (self.show_explorer, self.explorer)
        self._aids.concept, self._aids.live.setting = self.concept, self.live_evaluation
        self._session.coach = self._coach if self.coach else None

    # -- intents from the front end ---------------------------------------------------------

    def _on_intent(self, _widget: object, content: object, buffers: object) -> None:
        """Check an intent in full, then apply it or refuse it. Never raises."""
        try:
            with self._operation():
                refusal = self._apply_intent(content, buffers)
                if refusal is not None:
                    self._refuse(refusal.kind, refusal.text)
        except Exception as error:  # a bug must not escape into the kernel's comm handler
            try:
                with self._operation():
                    self._refuse("error", Text("notice_refused_internal", error=quote_input(error)))
            except Exception:
                self.log.exception("reversi-widget could not refuse an intent")

    def _apply_intent(self, content: object, buffers: object) -> Refusal | None:
        """Apply a valid intent and return None, or return why it is refused (unchanged)."""
        intent = parse(content, buffers, self._session)
        return intent if isinstance(intent, Refusal) else perform(intent, self._session, self._aids)

    def _refuse(self, kind: str, text: Renders) -> None:
        self._session.notify(kind, text)
        self.send({"kind": "refused", "reason": text.render(self.language)})

    # -- writes to synced traits --------------------------------------------------------------

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A front end changed synced traits: accept valid settings, put everything else
        back to Python's value (and say so). Never raises."""
        try:
            with self._operation():
                if not isinstance(sync_data, dict):
                    self._session.notify("error", Text("notice_unknown_state", got=quote_input(sync_data)))
                    return
                accepted, reverted, problems = sort_state(sync_data, self.keys, self.traits())
                if accepted:
                    super().set_state(accepted)
                if reverted:
                    self.send_state(reverted)  # the writer's view takes Python's value back
                if problems:
                    self._session.notify("error", Joined(tuple(problems), "; "))
        except Exception:
            self.log.exception("reversi-widget could not apply a state update from the front end")

    # -- validation and reactions to Python-side changes -------------------------------------

    @traitlets.validate(*WidgetTraits.READ_ONLY)
    def _only_the_widget_writes(self, proposal: Any) -> Any:
        if self._workers.writer != threading.get_ident():
            name = proposal["trait"].name
            raise traitlets.TraitError(
                f"{name} is part of the game's picture and is written by the widget; "
                f"change the game with play(), undo(), redo(), jump(), new_game() or load()"
            )
        return proposal["value"]

    @traitlets.observe("black", "white")
    def _players_changed(self, change: Any) -> None:
        if self._ready:
            with self._operation():
                self._session.set_player(BLACK if change["name"] == "black" else WHITE, make_player(change["new"]))

    @traitlets.observe(*_FOLLOWED_SETTINGS)
    def _settings_changed(self, change: Any) -> None:
        """Say everything again in the new language, or follow a setting (practice switched
        off with a disc placed plays the move with its true flips)."""
        if self._ready:
            with self._operation():
                self._follow_settings()

    @traitlets.observe("rules")
    def _rules_changed(self, change: Any) -> None:
        if self._ready and change["new"] != self._session.board.rules:
            self.new_game(change["new"])

    @traitlets.observe("paused")
    def _paused_changed(self, change: Any) -> None:
        if self._ready:
            with self._operation():
                self._session.set_paused(change["new"])

    @traitlets.observe("analysis_depth", "analysis_time_limit")
    def _analysis_settings_changed(self, change: Any) -> None:
        if self._ready:
            with self._operation():
                self._aids.depth, self._aids.time_limit = self.analysis_depth, self.analysis_time_limit
                self._aids.settings_changed()

    @traitlets.validate("fill", "marks", "arrows")
    def _valid_annotation(self, proposal: Any) -> object:
        check = {"fill": checks.fill, "marks": checks.marks, "arrows": checks.arrows}[proposal["trait"].name]
        return check(proposal["value"], self._session.board.size)
