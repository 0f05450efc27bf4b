"""Puzzle mode: a list of puzzles, the verdict on each first move, the score of the session.

The puzzle's position is loaded into the session like any game, the learner on the side to
move and ``PerfectDefence`` on the other (``sides``). Whatever plays the first move (a click,
practice mode, ``w.play``), ``observe`` judges it from the puzzle's proven results, so the
verdict (in the ``puzzle_state`` trait) is instant and exact; the game then goes on against
perfect defence, so the learner sees why. Once a move was tried or the solution shown,
``play_out`` hands the learner's side to perfect play too, and the line plays itself to the
end. The score counts a puzzle as solved when its first judged move solves it before the
solution was shown. A hint names a region ("look at the corners"), never the square.

``PuzzleMode`` is the widget's side of it: the sides it set, and each judged try kept in the
widget's log as a game that ends with perfect play. Making that game takes a solve, so a
worker makes and writes it (``Workers.drain``), in the order of the tries, while the widget
goes on answering.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..analysis import analyse, exact_empties
from ..board import Board, Move
from ..errors import ReversiError
from ..game import Game
from ..puzzles.puzzle import Puzzle, Verdict
from ..records import GameLog
from ..rules import Rules
from ..solver import solve
from ..squares import BLACK, COLOR_NAMES, WHITE
from .session import Session
from .texts import Refusal, Text
from .workers import Backlog, Workers

# fmt: off
__all__ = [
    "PLAY_OUT_DELAY", "PUZZLE_INTENTS", "Attempt", "KeptTry", "PerfectDefence", "PuzzleMode", "PuzzleRun",
    "PuzzleScore", "SolutionText", "attempt_game", "hides_answer", "hint_region", "keep_try", "puzzle_action"
]
# fmt: on

#: The intents of puzzle mode (js/PROTOCOL.md).
PUZZLE_INTENTS = ("puzzle_next", "puzzle_retry", "puzzle_solution", "puzzle_play_out")
#: Seconds between two moves of a puzzle's play-out, at least (the learner follows it).
PLAY_OUT_DELAY = 0.8


class PerfectDefence:
    """The opponent of a puzzle: always a move that keeps the exact result (the solver's).

    For a puzzle posed from a depth-N search's estimates (``Puzzle.depth``), that search's
    best move until the solver reaches: solving a midgame position would take hours."""

    def __init__(self, depth: int | None = None) -> None:
        self.depth = depth
        self.name = "perfect defence" if depth is None else f"depth-{depth} search"

    def choose(self, board: Board) -> Move:
        if self.depth is not None and board.empty_count() > exact_empties(board.size, timed=False):
            return analyse(board, self.depth).best.move
        return solve(board).best_moves[0]


@dataclass(frozen=True)
class SolutionText:
    """The answer, said in the widget's language when shown."""

    puzzle: Puzzle

    def render(self, language: str) -> str:
        return self.puzzle.solution_text(language)


@dataclass(frozen=True)
class Attempt:
    """A judged first move: which puzzle, the verdict, and whether it was the first try."""

    puzzle: Puzzle
    index: int
    verdict: Verdict
    first_try: bool


def hint_region(puzzle: Puzzle) -> str:
    """Where the solution lies, as a hint key: the corners, the edges, or the middle.

    Only a region that holds other legal moves too, so the hint never names the answer;
    ``"puzzle_hint_none"`` when every region would."""
    n = puzzle.rules.size
    corners = {0, n - 1, n * (n - 1), n * n - 1}

    def region(move: Move) -> str:
        assert move.square is not None
        row, col = divmod(move.square, n)
        if move.square in corners:
            return "corners"
        return "edges" if row in (0, n - 1) or col in (0, n - 1) else "middle"

    where = region(puzzle.solution[0])
    others = [m for m in puzzle.moves if region(m) == where and m not in puzzle.solution]
    return f"puzzle_hint_{where}" if others else "puzzle_hint_none"


class PuzzleScore(NamedTuple):
    """A learner's score: puzzles solved at the first try, of the puzzles tried; printed in words."""

    solved: int
    tried: int

    def __str__(self) -> str:
        puzzles = "puzzle" if self.tried == 1 else "puzzles"
        return f"solved {self.solved} of {self.tried} {puzzles} at the first try"


class PuzzleRun:
    """The puzzles of a session, the one shown, and what the learner did with each."""

    def __init__(self, puzzles: Sequence[Puzzle], learner: str = "") -> None:
        items = [puzzles] if isinstance(puzzles, Puzzle) else list(puzzles)
        if not items or not all(isinstance(p, Puzzle) for p in items):
            raise ReversiError(f"puzzle mode needs a Puzzle or a non-empty list of them, got {puzzles!r:.80}")
        if not isinstance(learner, str):
            raise ReversiError(f"learner must be a name, got {learner!r:.40}")
        self.puzzles = items
        self.learner = learner
        self.index = 0
        self.begun = 0  # puzzles shown so far (a retry shows one again): the sides follow it
        self.playing_out = False  # perfect play on both sides, to the end of the game
        self.judged: Move | None = None  # the first move of the line last judged
        self.verdict: Verdict | None = None
        self.solution_shown = False
        self.hint_shown = False
        self.first_tries: dict[int, bool] = {}  # puzzle index -> solved at its first judged move

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    @property
    def score(self) -> PuzzleScore:
        """(puzzles solved at the first try, puzzles tried) in this session."""
        return PuzzleScore(sum(self.first_tries.values()), len(self.first_tries))

    def solved(self) -> bool:
        """The puzzle shown is settled: a solving move was played, or the solution shown."""
        return self.solution_shown or (self.verdict is not None and self.verdict.solved)

    def sides(self) -> tuple[bool, bool]:
        """Whether perfect play takes (Black, White): the side not to move in the puzzle,
        and both while the line is played out."""
        learner = self.puzzle.turn
        return (self.playing_out or learner != BLACK, self.playing_out or learner != WHITE)

    def begin(self, session: Session, index: int) -> None:
        """Show puzzle ``index``: its position in the session, nothing judged yet."""
        self.index = index
        self.begun += 1
        self.judged = self.verdict = None
        self.solution_shown = self.hint_shown = self.playing_out = False
        session.start(self.puzzle.board())

    def observe(self, session: Session) -> Attempt | None:
        """Judge the first move of the line if it is new (a click, a practice move, Python)."""
        if not session.line or session.board.ply == 0 or session.line[0] == self.judged:
            return None
        move = session.line[0]
        self.judged, self.verdict = move, self.puzzle.verdict(move)
        if self.playing_out:  # perfect play moved for the learner (the solution shown): no try
            return None
        first_try = self.index not in self.first_tries
        if first_try:
            self.first_tries[self.index] = self.verdict.solved and not self.solution_shown
        return Attempt(self.puzzle, self.index, self.verdict, first_try)

    # -- actions ------------------------------------------------------------------------------

    def retry(self, session: Session) -> Refusal | None:
        """Back to the puzzle's position (the score keeps the first try)."""
        self.begin(session, self.index)
        return None

    def next(self, session: Session) -> Refusal | None:
        if self.index + 1 >= len(self.puzzles):
            return Refusal(Text("notice_refused_puzzle_last", count=len(self.puzzles)))
        self.begin(session, self.index + 1)
        return None

    def show_solution(self, session: Session) -> Refusal | None:
        """Say the answer and ring its moves; a puzzle not tried yet counts as not solved."""
        self.solution_shown = True
        self.first_tries.setdefault(self.index, False)
        session.notify("info", SolutionText(self.puzzle))
        return None

    def can_play_out(self, session: Session) -> bool:
        """The game is not over, and it goes on from a tried move or the solution was shown:
        from the puzzle's position, perfect play would give the answer away."""
        tried = self.verdict is not None and session.board.ply > 0
        return (tried or self.solution_shown) and not self.playing_out and not session.board.is_game_over()

    def play_out(self, session: Session) -> Refusal | None:
        """Perfect play for both sides from the position shown to the end of the game."""
        refusal = session.practice_waiting() or (session.human_refusal() if session.board.is_game_over() else None)
        if refusal is not None:
            return refusal
        if not self.can_play_out(session):
            return Refusal(Text("notice_refused_puzzle_untried"))
        self.playing_out = True
        session.cut_line()  # it goes on from the position shown, not along moves undone
        session.set_paused(False)
        return None

    def hint(self, session: Session) -> Refusal | None:
        self.hint_shown = True
        session.notify("info", Text(hint_region(self.puzzle)))
        return None

    # -- the picture -------------------------------------------------------------------------

    def picture(self, session: Session, language: str) -> dict[str, object]:
        """The ``puzzle_state`` trait (js/PROTOCOL.md): the task, the verdict, the score."""
        puzzle = self.puzzle
        solved, tried = self.score
        verdict = self.verdict
        return {
            "index": self.index,
            "count": len(self.puzzles),
            "name": puzzle.name,
            "task": puzzle.task_text(language),
            "source": str(puzzle.source),
            "difficulty": puzzle.difficulty.level,
            "verdict": "" if verdict is None else puzzle.verdict(verdict.move, language).text,
            "verdict_kind": "" if verdict is None else "right" if verdict.solved else "wrong",
            "solution": [str(m) for m in puzzle.solution] if self.solution_shown else [],
            "solved": solved,
            "tried": tried,
            "learner": self.learner,
            "at_start": session.board.ply == 0,
            "can_play_out": self.can_play_out(session),
            "playing_out": self.playing_out,
        }


def puzzle_action(session: Session, kind: str) -> Refusal | None:
    """One of ``PUZZLE_INTENTS``: only in puzzle mode."""
    run = session.puzzles
    if run is None:
        return Refusal(Text("notice_refused_no_puzzle", kind=kind))
    if session.editor is not None:
        return Refusal(Text("notice_refused_editing"))
    actions = {
        "puzzle_next": run.next,
        "puzzle_retry": run.retry,
        "puzzle_solution": run.show_solution,
        "puzzle_play_out": run.play_out,
    }
    return actions[kind](session)


def hides_answer(session: Session) -> bool:
    """A puzzle is shown and not yet settled: hints and scores would give the answer away."""
    return session.puzzles is not None and not session.puzzles.solved()


# -- the widget's side: sides, the play-out's pace, and the tries kept in a log ---------------


def attempt_game(attempt: Attempt, learner: str) -> Game:
    """A judged first move as a finished game for the log: the puzzle's position as the
    start, the learner's move, then perfect play by both sides to the end (for a puzzle of a
    depth-N search's estimates, that search's moves until the solver reaches)."""
    puzzle = attempt.puzzle
    board = puzzle.board()
    mover = COLOR_NAMES[board.turn]
    board.push(attempt.verdict.move)
    defence = PerfectDefence(puzzle.depth)
    while not board.is_game_over() and board.empty_count() > exact_empties(board.size, timed=False):
        if board.must_pass():
            board.push_pass()
        else:
            board.push(defence.choose(board))
    if not board.is_game_over():
        for move in solve(board).line:
            board.push(move)
    rules = Rules(size=puzzle.rules.size, start=puzzle.position, goal=puzzle.rules.goal, scoring=puzzle.rules.scoring)
    game = Game(list(board.move_stack), rules, event=f"puzzle: {puzzle.name}")
    name = learner or "learner"
    other = defence.name
    game.black_player, game.white_player = (name, other) if mover == "black" else (other, name)
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


class PuzzleMode:
    """Puzzle mode as a widget runs it, under the widget's lock: the puzzles begun in its
    session, the players it gives each puzzle's sides, and the tries on their way to a log."""

    def __init__(self, session: Session, workers: Workers) -> None:
        self.session = session
        self.workers = workers
        self.tries: Backlog[KeptTry] = Backlog()
        self.sides_of: tuple[int, bool] | None = None  # the puzzle (and play-out) whose sides are set

    def start(self, puzzles: Puzzle | Sequence[Puzzle], learner: str) -> None:
        """Show the first of ``puzzles`` (refused, and nothing changed, if they are not puzzles)."""
        run = PuzzleRun(puzzles, learner)  # type: ignore[arg-type]
        self.session.puzzles = run
        run.begin(self.session, 0)

    def stop(self) -> None:
        self.session.puzzles = None
        self.sides_of = None

    def new_sides(self) -> tuple[object, object] | None:
        """The (Black, White) players of a puzzle just shown or played out, once; else None."""
        run = self.session.puzzles
        if run is None or (run.begun, run.playing_out) == self.sides_of:
            return None
        self.sides_of = (run.begun, run.playing_out)
        black, white = run.sides()
        depth = run.puzzle.depth
        return (PerfectDefence(depth) if black else "human", PerfectDefence(depth) if white else "human")

    def computer_delay(self, move_delay: float) -> float:
        """Seconds a computer's move takes at least: slower while a puzzle is played out."""
        run = self.session.puzzles
        return max(move_delay, PLAY_OUT_DELAY) if run is not None and run.playing_out else move_delay

    def judge(self, log: GameLog | None) -> Attempt | None:
        """Judge a new first move of the puzzle shown (from the proven results: instant); a
        log gets it as a game from a worker."""
        run = self.session.puzzles
        attempt = None if run is None else run.observe(self.session)
        if attempt is None or run is None or log is None:
            return attempt
        if self.tries.add(KeptTry(attempt, run.learner, log)):  # no worker takes them yet
            self.workers.drain("puzzle log", self.tries, keep_try, self._not_kept)
        return attempt

    def _not_kept(self, kept: KeptTry, error: Exception) -> None:
        """Said until the learner acts again: perfect defence's reply does not hide it."""
        text = Text("notice_try_not_kept", puzzle=kept.attempt.puzzle.name, error=str(error))
        self.session.notify("error", text, lasting=True)
