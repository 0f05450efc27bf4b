"""The game a widget shows, as plain Python: no traits, no threads, no front end.

A ``Session`` owns the position, the line of moves shown (so moves can be redone) within
the tree of every line played (``tree``, a ``Game``: a move played in the middle of the
line keeps what followed as a variation, play/variations.py), the two players and a
pending practice move (whose actions are play/practising.py's). Each action is one method
that either changes the game and returns None, or returns a ``Refusal`` and leaves
everything as it was; the widget's Python methods raise the refusal, its intents show it as
a notice.

A computer's move is asked for by whoever runs the work (``computer_due`` and ``think``),
computed elsewhere on a copy, and handed back to ``computer_moved``, which plays it only
if the game is still where it was (``generation`` tells): a stale move is never played.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import Board, Move, Outcome
from ..errors import IllegalMoveError, InvalidMoveError, ReversiError
from ..explain import explain
from ..game import Game
from ..players import Player, player_name
from ..practice import PracticeError, PracticeMove
from ..squares import BLACK, WHITE, Color, square_name
from .texts import (
    COLOR_KEY,
    Explained,
    Plain,
    Refusal,
    Renders,
    Text,
    color_text,
    pass_notice,
    player_title,
    quote_input,
    result_text,
)

if TYPE_CHECKING:
    from .coach import Coach
    from .editor import Editor
    from .puzzling import PuzzleRun
    from .quizzing import QuizRun

__all__ = ["DEMO_LINE_STEPS", "NavigationError", "Notice", "Played", "Session", "walk_through"]

#: "Show me" walks a move in steps of the animation: the disc lands, each flanked line is
#: lit for DEMO_LINE_STEPS, then the discs flip one by one (js/PROTOCOL.md, "Show me").
DEMO_LINE_STEPS = 2

_log = logging.getLogger(__name__)


class NavigationError(ReversiError, IndexError):
    """Undo, redo or jump to a position the line does not have."""


@dataclass(frozen=True)
class Notice:
    """What the views say under the board: ``kind`` is "info", "pass", "error" or "explain".

    A notice is about the position it was made in and goes when the position changes.
    ``lasting`` feedback on a learner's practice move stays through the computer's reply,
    until the learner acts again or the game ends."""

    kind: str
    text: Renders
    lasting: bool = False


@dataclass(frozen=True)
class Played:
    """A move was played (``outcome`` when it ended the game): what ``on_move`` callbacks hear of."""

    move: Move
    outcome: Outcome | None


class Session:
    """One game with its line, players, practice move and notice."""

    def __init__(
        self, board: Board, players: dict[Color, Player | None], log: logging.Logger = _log, tree: Game | None = None
    ) -> None:
        self.board = board
        self.line: list[Move] = list(board.move_stack)
        self.tree = tree.copy() if tree is not None else Game.from_board(board)  # every line played
        self.players = players
        self.log = log
        # Settings the widget keeps up to date.
        self.practice_mode = False
        self.show_me = False
        self.step = 0.3  # seconds per disc of the flip animation
        self.paused = False
        # What changes with the game.
        self.practice: PracticeMove | None = None  # a placed disc waiting for its flips
        self.mistakes = 0  # practice mistakes at each move's first check, summed there
        self.practised = 0  # practice moves completed
        self.notice: Notice | None = None
        self.notice_id = 0  # bumped with every notice, so the same text twice is news twice
        self.played: list[Played] = []  # moves not yet told to the callbacks
        # Staleness counters: what a worker's result or an aid belongs to.
        self.generation = 0  # bumped when the position (or who plays it) changes
        self.line_id = 0  # bumped when the line of moves changes
        self.pending: int | None = None  # the generation a computer is thinking about
        self.thinking: Player | None = None  # the computer player last asked to choose
        self.demo: dict[str, object] = {}
        self.demo_id = 0
        self.demo_until = 0.0  # when the views' walk through the last move ends
        self.drawn_until = 0.0  # when the views' flip animation of the last move ends
        self._finished = (-1, False)  # (line id, the line ends the game)
        self.puzzles: PuzzleRun | None = None  # puzzle mode (play/puzzling.py)
        self.editor: Editor | None = None  # a position being set up by hand (play/editor.py)
        self.quiz: QuizRun | None = None  # square-marking mode (play/quizzing.py)
        self.coach: Coach | None = None  # a coached game (play/coach.py): the computer may wait for it

    # -- questions ----------------------------------------------------------------------------

    def humans(self) -> bool:
        return self.players[BLACK] is None or self.players[WHITE] is None

    def human_turn(self, board: Board) -> bool:
        """A human has a real decision here (not a forced pass, not the end)."""
        return self.players[board.turn] is None and not board.must_pass() and not board.is_game_over()

    def human_to_move(self) -> bool:
        """A human is to move and may act (no computer thinking, no practice disc waiting)."""
        return self.players[self.board.turn] is None and self.pending is None and self.practice is None

    def undo_target(self) -> int | None:
        """The ply undo goes back to: the last position where a human had a decision (one
        move back when both players are computers)."""
        probe = self.board.copy()
        if not probe.ply:
            return None
        if not self.humans():
            return probe.ply - 1
        while probe.ply:
            probe.pop()
            if self.human_turn(probe):
                return probe.ply
        return None

    def redo_target(self) -> int | None:
        if self.board.ply >= len(self.line):
            return None
        if not self.humans():
            return self.board.ply + 1
        probe = self.board.copy()
        probe.push(self.line[probe.ply])
        while probe.ply < len(self.line) and not self.human_turn(probe) and not probe.is_game_over():
            probe.push(self.line[probe.ply])
        return probe.ply

    def whole_line(self, stack: bool = True) -> Board:
        """The position at the end of the line (redo tail included)."""
        board = self.board.copy(stack=stack)
        for move in self.line[self.board.ply :]:
            board.push(move)
        return board

    def line_finished(self) -> bool:
        """The line of moves (redo tail included) reaches the end of the game."""
        line_id, finished = self._finished
        if line_id != self.line_id:
            finished = self.whole_line(stack=False).is_game_over()
            self._finished = (self.line_id, finished)
        return finished

    def human_refusal(self, error: type[ReversiError] = IllegalMoveError) -> Refusal | None:
        """Why no human may move now: the game is over, or a computer plays this side."""
        board = self.board
        outcome = board.outcome()
        if outcome is not None:
            return Refusal(Text("notice_refused_over", result=result_text(outcome, board)), error)
        computer = self.players[board.turn]
        if computer is not None:
            colour, name = color_text(board.turn), player_title(computer)
            if self.pending is not None:
                return Refusal(Text("notice_refused_thinking", color=colour, player=name), error)
            key = "notice_refused_review" if board.ply < len(self.line) else "notice_refused_not_human"
            return Refusal(Text(key, color=colour, player=name), error)
        return None

    def practice_waiting(self, error: type[ReversiError] = PracticeError) -> Refusal | None:
        if self.practice is None:
            return None
        return Refusal(Text("notice_refused_practice_pending", square=str(self.practice.move)), error)

    # -- notices ------------------------------------------------------------------------------

    def notify(self, kind: str, text: Renders, lasting: bool = False) -> None:
        self.notice = Notice(kind, text, lasting)
        self.notice_id += 1

    def clear_notice(self) -> None:
        self.notice = None

    # -- playing ------------------------------------------------------------------------------

    def play(self, move: Move) -> Refusal | None:
        """Play a legal move for the side to move, whoever plays it (Python may move for a
        computer: its pending move is dropped). An illegal move is refused with its reason."""
        if self.editor is not None:
            return Refusal(Text("notice_refused_editing"))
        try:
            self.push(move)
        except IllegalMoveError:  # the rule that forbids it, in one sentence (R10-R19)
            return Refusal(Explained(explain(self.board, move)), IllegalMoveError, "explain")
        self.clear_notice()
        self.advance()
        return None

    def human_move(self, move: Move) -> Refusal | None:
        """A click on a square (or the Pass button): only for a human's side; in practice
        mode a legal move only places the disc."""
        if self.editor is not None:
            return Refusal(Text("notice_refused_editing"))
        refusal = self.practice_waiting() or self.human_refusal()
        if refusal is not None:
            return refusal
        board = self.board
        if self.practice_mode and move and not board.in_placement() and move in board.legal_moves:
            self.practice = PracticeMove.start(board, move)
            self.clear_notice()
            return None
        return self.play(move)

    def pass_move(self) -> Move:
        return Move.null(self.board.size)

    def undo(self) -> Refusal | None:
        """Back to the last position where a human is to move (one move if both players are
        computers); the moves stay in the line for ``redo``. A waiting practice disc is
        lifted instead: the game is then as it was."""
        if self.practice is not None:
            self.practice = None
            self.clear_notice()
            return None
        target = self.undo_target()
        if target is None:
            return Refusal(Text("notice_refused_undo"), NavigationError)
        self._goto(target)
        self.clear_notice()
        return None

    def redo(self) -> Refusal | None:
        """Forward along the line to the next position where a human is to move."""
        target = self.redo_target()
        if target is None:
            return Refusal(Text("notice_refused_redo"), NavigationError)
        self._goto(target)
        self.clear_notice()
        self.advance()
        return None

    def jump(self, to: int) -> Refusal | None:
        """Show the position after ``to`` moves of the line."""
        if not 0 <= to <= len(self.line):
            return Refusal(Text("notice_refused_jump", got=quote_input(to), length=len(self.line)), NavigationError)
        if to != self.board.ply:
            self._goto(to)
            self.clear_notice()
            self.advance()
        return None

    def new_game(self) -> Refusal | None:
        """Start again under the same rules."""
        self.start(Board(rules=self.board.rules))
        return None

    def start(self, board: Board, tree: Game | None = None) -> None:
        """Replace the game (a new game or a load): the board's stack becomes the line, the
        main line of ``tree`` when a loaded game brings its variations."""
        self.board = board
        self.editor = None  # a new game or a load ends the editing
        self.line = list(board.move_stack)
        self.tree = tree.copy() if tree is not None else Game.from_board(board)
        self.line_id += 1
        self._invalidate()
        self.demo = {}
        self.clear_notice()
        self.advance()

    def cut_line(self) -> None:
        """Drop the moves after the position shown, variations too (a puzzle's play-out goes on from here)."""
        if self.board.ply < len(self.line):
            node = self.tree.node_at(self.line[: self.board.ply])
            for child in node.variations:
                node.remove_variation(child)
            del self.line[self.board.ply :]
            self.line_id += 1
            self._invalidate()

    def show_line(self, line: list[Move], ply: int) -> None:
        """Show the position after ``ply`` moves of ``line``, a line of ``tree`` that becomes
        the line shown (a jump into a variation, or off a deleted one)."""
        board, common = self.board, 0
        while common < min(board.ply, ply) and board.move_stack[common] == line[common]:
            common += 1
        while board.ply > common:
            board.pop()
        if line != self.line:
            self.line = list(line)
            self.line_id += 1
        self._goto(ply)
        self.advance()

    def stop_for_editing(self) -> None:
        """The position is about to be edited: a computer's move or a practice disc is dropped."""
        self._invalidate()

    def pause(self) -> Refusal | None:
        if all(player is None for player in self.players.values()):
            return Refusal(Text("notice_refused_pause_no_computer"))
        self.set_paused(True)
        self.clear_notice()  # what was refused or went wrong before is now out of date
        return None

    def resume(self) -> Refusal | None:
        self.paused = False
        self.clear_notice()
        self.advance()
        return None

    def set_paused(self, paused: bool) -> None:
        """Paused, nothing moves: a computer thinking is stopped and its move dropped (it
        thinks again on resume), so a paused game never says that someone is thinking."""
        self.paused = paused
        if paused and self.pending is not None:
            self._invalidate()
        self.advance()

    def set_player(self, color: Color, player: Player | None) -> None:
        self.players[color] = player
        if self.board.turn == color and (self.pending is not None or self.practice is not None):
            self._invalidate()  # the old player's move (or practice disc) is no longer wanted
        self.advance()

    def advance(self) -> None:
        """Let the game go on by itself as far as it can without a player: play forced
        passes, each said in a notice that lasts through the other side's moves until the
        passing side acts (``pass_notice``). Only at the end of the line; in the middle (after
        undo or jump) it waits."""
        board = self.board
        while board.ply == len(self.line) and not board.is_game_over() and board.must_pass():
            color = board.turn
            self.push(Move.null(board.size))
            self.notify("pass", pass_notice(self.board, color), lasting=True)

    def pass_wait(self) -> float:
        """Seconds a computer moving again right after the other side's forced pass waits, so
        that the views finish drawing its move before (0 with the animation off): a run of
        moves between passes is seen move by move, not as one jump."""
        board = self.board
        if not board.move_stack or board.move_stack[-1] or self.players[board.turn] is None:
            return 0.0
        return self.drawn_until - time.monotonic()

    # -- computer players ---------------------------------------------------------------------

    def computer_due(self) -> Player | None:
        """The computer that should start thinking now, if any."""
        board = self.board
        if board.ply != len(self.line) or board.is_game_over() or self.paused or self.pending is not None:
            return None
        if self.editor is not None or (self.coach is not None and self.coach.holds()):
            return None
        return self.players[board.turn]

    def think(self, player: Player) -> int:
        """``player`` starts on this position: the generation its move must come back to."""
        self.pending = self.generation
        self.thinking = player
        return self.generation

    def computer_moved(self, generation: int, choice: object) -> None:
        """A computer's answer (a move, or the exception it raised): played only if the game
        is still where it was; a failure pauses the game with a notice."""
        if self.pending != generation or self.generation != generation:
            return  # stale: undo, new game, load, jump or a Python move came first
        self.pending = None
        color, player = self.board.turn, self.thinking
        try:
            if isinstance(choice, Exception):
                raise choice
            if not isinstance(choice, (Move, str)):
                raise InvalidMoveError(f"choose() returned {quote_input(choice)}, not a Move")
            kept = self.notice if self.notice is not None and self.notice.lasting else None
            self.push(self.board.parse_move(choice))
            if kept is not None and not self.board.is_game_over():  # at the end the banner stands alone
                # A pass is said until the side that passed acts, with the moves the computer makes
                # meanwhile; feedback on the learner's move outlives the reply to it.
                passed = kept.kind == "pass"
                self.notice = Notice("pass", pass_notice(self.board, not color), lasting=True) if passed else kept
        except Exception as error:
            self.paused = True
            name = player_title(player) if player is not None else Plain("?")
            self.notify("error", Text("notice_player_failed", color=color_text(color), player=name, error=str(error)))
            return
        self.advance()

    def demo_wait(self) -> float:
        """Seconds until the views have walked through the last move ("show me")."""
        return self.demo_until - time.monotonic()

    # -- changing the position ----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a legal move here: the next move of the line goes on along it, another one
        goes into its variation (made new, after what was played there before); raise and
        change nothing if it is not legal."""
        before = self.board.copy() if self.show_me and move else None
        flipped = len(self.board.flips(move)) if move and not self.board.in_placement() else 0
        self.board.push(move)
        if move:  # the views flip the discs one after the other, a step each (js/widget.js)
            self.drawn_until = time.monotonic() + self.step * (1 + flipped)
        self.clear_notice()  # it spoke of the position before this move
        ply = self.board.ply - 1
        if self.line[ply : ply + 1] != [move]:  # the next move of the line just goes on along it
            node = self.tree.node_at(self.line[:ply]).add_variation(move)  # what followed is kept
            self.line = [*self.line[:ply], move, *node.mainline_moves()]
            self.line_id += 1
        self._invalidate()
        if before is not None:
            walk, steps = walk_through(before, move)
            self.demo_id += 1
            self.demo_until = time.monotonic() + self.step * steps
            self.demo = {"id": self.demo_id, **walk}
        elif not self.show_me:
            self.demo = {}  # with show_me, a pass keeps the walk-through of the move before it
        self.played.append(Played(move, self.board.outcome()))

    def _goto(self, ply: int) -> None:
        """Move along the line to ``ply``."""
        self.demo = {}
        self.clear_notice()
        board = self.board
        while board.ply > ply:
            board.pop()
        while board.ply < ply:
            board.push(self.line[board.ply])
        self._invalidate()

    def _invalidate(self) -> None:
        """The position (or who plays it) changed: a computer's pending move is now stale,
        and so is a practice move waiting for its flips."""
        self.generation += 1
        if self.pending is not None:
            self._stop_thinking()
        self.pending = None
        self.practice = None

    def _stop_thinking(self) -> None:
        """Ask the computer thinking about a position that has gone to stop, if it can
        (``Engine.stop``), so that the next move does not wait for a useless search."""
        player = self.thinking
        stop = getattr(player, "stop", None)
        if player is not None and callable(stop):
            try:
                stop()
            except Exception:
                self.log.exception("stop() of the computer player %s failed", player_name(player))


def walk_through(board: Board, move: Move) -> tuple[dict[str, object], int]:
    """The walk-through of a move from the position before it, and how many steps of the
    animation it takes: each flanked line from the move to its closing disc, in the order
    ``explain`` walks the directions (js/PROTOCOL.md, "Show me")."""
    expl = explain(board, move)
    lines = [
        [square_name(sq, board.size) for sq in (*line.run, line.end)]
        for line in expl.directions
        if line.flanks and line.end is not None
    ]
    walk = {"ply": board.ply + 1, "move": str(move), "color": COLOR_KEY[board.turn], "lines": lines}
    return walk, 1 + DEMO_LINE_STEPS * len(lines) + len(expl.flips)
