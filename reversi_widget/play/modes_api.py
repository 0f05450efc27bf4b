"""The widget's Python methods for puzzle mode and the position editor.

Each is one action of ``play/puzzling.py`` or ``play/editor.py`` run like every other
widget method: under the widget's lock, its refusal raised, nothing changed then. A judged
try is kept in the widget's log as a game that ends with perfect play: making it takes a
solve, so a worker makes and writes it (``Workers.drain``), in the order of the tries, while
the widget goes on answering.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..board import Move
from ..game import Game
from ..puzzle import Puzzle
from ..records import GameLog
from ..rules import Rules
from ..solver import solve
from ..squares import COLOR_NAMES
from .editor import edit_action
from .puzzling import Attempt, PerfectDefence, PuzzleRun, PuzzleScore, puzzle_action
from .session import Session
from .texts import Text
from .workers import Backlog, Workers

__all__ = ["PLAY_OUT_DELAY", "KeptTry", "ModeMethods", "attempt_game", "keep_try"]

#: Seconds between two moves of a puzzle's play-out, at least (the learner follows it).
PLAY_OUT_DELAY = 0.8


def attempt_game(attempt: Attempt, learner: str) -> Game:
    """A judged first move as a finished game for the log: the puzzle's position as the
    start, the learner's move, then perfect play by both sides to the end."""
    puzzle = attempt.puzzle
    board = puzzle.board()
    mover = COLOR_NAMES[board.turn]
    board.push(attempt.verdict.move)
    if not board.is_game_over():
        for move in solve(board).line:
            board.push(move)
    rules = Rules(size=puzzle.rules.size, start=puzzle.position, goal=puzzle.rules.goal, scoring=puzzle.rules.scoring)
    game = Game(list(board.move_stack), rules, event=f"puzzle: {puzzle.name}")
    name = learner or "learner"
    game.black_player, game.white_player = (name, "perfect defence") if mover == "black" else ("perfect defence", name)
    outcome = board.outcome()
    assert outcome is not None
    game.result = (outcome.black, outcome.white)
    game.metadata = {
        "puzzle": puzzle.name,
        "learner": name,
        "tried": str(attempt.verdict.move),
        "solved": "yes" if attempt.verdict.solved else "no",
        "first_try": "yes" if attempt.first_try else "no",
        "score": str(attempt.verdict.score),
    }
    return game


@dataclass(frozen=True)
class KeptTry:
    """A judged try on its way to a log: the attempt, who made it, and the log it goes to."""

    attempt: Attempt
    learner: str
    log: GameLog


def keep_try(kept: KeptTry) -> None:
    """Write one try to its log as a game (this solves the rest of the game: off the lock)."""
    kept.log.add(attempt_game(kept.attempt, kept.learner))


class ModeMethods:
    """Mixed into ``ReversiWidget``: puzzles and the editor from Python."""

    if TYPE_CHECKING:
        _session: Session
        _workers: Workers
        _tries: Backlog[KeptTry]
        _puzzle_sides_of: tuple[int, bool] | None
        game_log: GameLog | None
        black: Any
        white: Any
        move_delay: float

        def _act(self, action: Any) -> None: ...
        def _operation(self) -> Any: ...

    # -- puzzles --------------------------------------------------------------------------------

    def start_puzzles(self, puzzles: Puzzle | Sequence[Puzzle], *, learner: str = "") -> None:
        """Puzzle mode: show the first of ``puzzles``, the learner on the side to move and
        perfect defence on the other. ``learner`` names who plays, in the log."""
        run = PuzzleRun(puzzles, learner)  # type: ignore[arg-type]
        with self._operation():
            self._session.puzzles = run
            run.begin(self._session, 0)

    def stop_puzzles(self) -> None:
        """Leave puzzle mode; the position stays, both sides human."""
        with self._operation():
            self._session.puzzles = None
            self._puzzle_sides_of = None
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
        move every ``PLAY_OUT_DELAY`` seconds (or ``move_delay``, if longer), so the learner
        sees why. Refused before a move was tried or the solution shown."""
        self._act(lambda session: puzzle_action(session, "puzzle_play_out"))

    @property
    def current_puzzle(self) -> Puzzle | None:
        run = self._session.puzzles
        return None if run is None else run.puzzle

    @property
    def puzzle_score(self) -> PuzzleScore:
        """(puzzles solved at the first try, puzzles tried) in this session; prints in words
        ("solved 1 of 2 puzzles at the first try")."""
        run = self._session.puzzles
        return PuzzleScore(0, 0) if run is None else run.score

    def _puzzle_sides(self) -> None:
        """At the start of every settle: a puzzle just shown (by Python or by a button) or
        played out gets its sides, before any computer is asked to move."""
        run = self._session.puzzles
        if run is None:
            return
        key = (run.begun, run.playing_out)
        if key != self._puzzle_sides_of:
            self._puzzle_sides_of = key
            black, white = run.sides()
            self.black = PerfectDefence() if black else "human"
            self.white = PerfectDefence() if white else "human"

    def _computer_delay(self) -> float:
        """Seconds a computer's move takes at least: slower while a puzzle is played out."""
        run = self._session.puzzles
        playing_out = run is not None and run.playing_out
        return max(self.move_delay, PLAY_OUT_DELAY) if playing_out else self.move_delay

    def _judge(self) -> Attempt | None:
        """Judge a new first move of the puzzle shown (under the lock, from the proven
        results: instant); a log gets it as a game from a worker."""
        run = self._session.puzzles
        attempt = None if run is None else run.observe(self._session)
        log = self.game_log
        if attempt is None or run is None or log is None:
            return attempt
        if self._tries.add(KeptTry(attempt, run.learner, log)):  # no worker takes them yet
            self._workers.drain("puzzle log", self._tries, keep_try, self._try_not_kept)
        return attempt

    def _try_not_kept(self, kept: KeptTry, error: Exception) -> None:
        """Said until the learner acts again: perfect defence's reply does not hide it."""
        text = Text("notice_try_not_kept", puzzle=kept.attempt.puzzle.name, error=str(error))
        self._session.notify("error", text, lasting=True)

    # -- the position editor ----------------------------------------------------------------

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
