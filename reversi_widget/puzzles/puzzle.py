"""``Puzzle``: a position, a task, and the proven result of every legal move.

A puzzle is a real position where one move, or a small set, keeps the exact result. Every
verdict it gives is a final margin proven by the exact solver, never an estimate, so a
learner's answer is judged at once and without doubt.

Scores are final disc margins from the side to move's point of view under the puzzle's
goal and scoring, as ``solver`` defines them: positive is a win for the side to move, also
under the inverted goal. The task says which moves solve it:

* ``"best"``: find the best move (the moves reaching the best score);
* ``"win"``: find a winning move (the moves scoring more than 0);
* ``"win-by"``: win by at least ``target`` (the moves scoring ``target`` or more);
* ``"draw"``: save the draw (the position is drawn under perfect play; the moves scoring 0);
* ``"better"``: find a better move than ``source.played``, the move played there (the moves
  scoring more than it): a mistake of one's own, posed again (``reversi_widget.deck``).

A ``"better"`` puzzle may instead carry the estimates of a depth-limited search (``depth``):
a mistake made before the solver reaches. Its scores are then that search's estimates,
rounded to whole discs, and a move solves it only when it scores ``ESTIMATE_MARGIN`` discs
(the review's ``?``) or more above the move played, so that a try is not judged right on the
noise of two estimates; every text it gives says the numbers are a depth-N estimate.

The difficulty (``Difficulty.level``, 1 to 10) adds three things a learner meets:

* depth: how far the proof reaches, ``(empties - 6) // 2``: 1 at 8 empties, 7 at 20;
* traps: 1 more when four or more legal moves fail;
* decoys: 1 for each failing move (at most 2) that a quick eye tries before every solution.
  A quick eye takes corners first, then the move that leaves the opponent the fewest replies,
  then the one flipping the most discs; a solution it finds first is no puzzle at all.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..analysis import move_label
from ..board import Board, Move
from ..errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, ReversiError
from ..game_review import REVIEW_MARKS
from ..geometry import squares_of
from ..i18n import translate
from ..notation import format_line
from ..rules import Rules
from ..search import INFINITY, check_searchable, paused_gc
from ..search.endgame import Endgame, make_endgame
from ..solver import wait_for_compiled_solver
from ..squares import BLACK

__all__ = [
    "ESTIMATE_MARGIN",
    "TASKS",
    "Difficulty",
    "MoveResult",
    "Puzzle",
    "Source",
    "Verdict",
    "endgame_search",
    "exact_results",
    "quick_order",
]

TASKS: tuple[str, ...] = ("best", "win", "win-by", "draw", "better")
#: Discs above the move played that a try must score, by a depth-limited search's estimates,
#: to solve a ``"better"`` puzzle posed from estimates: the review's ``?``.
ESTIMATE_MARGIN = int(next(loss for loss, mark in REVIEW_MARKS if mark == "?"))


@dataclass(frozen=True)
class MoveResult:
    """One legal move: its exact score, and the opponent's best answer to it.

    ``reply`` is a square, ``Move.null()`` when the opponent must pass, or ``None`` when the
    move ends the game. It is what explains a wrong move without giving the answer away.
    """

    move: Move
    score: int
    reply: Move | None


@dataclass(frozen=True)
class Source:
    """Where the position comes from: ``move_number`` is the ply of the move played there,
    the game's moves counted one by one from 1, passes included (ply 53 is ``"27. a7"`` in
    the move list, which numbers them in pairs), and ``played`` is that move."""

    black: str = ""
    white: str = ""
    event: str = ""
    year: int | None = None
    move_number: int | None = None
    played: Move | None = None

    def __post_init__(self) -> None:
        for key in ("black", "white", "event"):
            text = getattr(self, key)
            if not one_line(text):
                raise InvalidPositionError(f"source {key} must be one line without spaces around, got {text!r:.60}")
        for key in ("year", "move_number"):
            number = getattr(self, key)
            if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < 0):
                raise InvalidPositionError(f"source {key} must be a whole number or None, got {number!r:.60}")
        if self.played is not None and not isinstance(self.played, Move):
            raise InvalidPositionError(f"source played must be a Move or None, got {self.played!r:.60}")

    def __str__(self) -> str:
        """``"Tastet vs Shaman, Paris Open 1990, where 24. c7 was played"``: the move named
        as the move list names it."""
        parts = [f"{self.black} vs {self.white}" if self.black or self.white else ""]
        parts.append(" ".join(part for part in (self.event, str(self.year or "")) if part))
        if self.move_number is not None and self.played is not None:
            parts.append(f"where {move_label(self.move_number, self.played)} was played")
        elif self.move_number is not None:
            parts.append(f"before {move_label(self.move_number, '').rstrip()}")
        elif self.played is not None:
            parts.append(f"where {self.played} was played")
        return ", ".join(part for part in parts if part)


@dataclass(frozen=True)
class Difficulty:
    """The three parts of a puzzle's difficulty; ``level`` sums them (see the module docstring)."""

    empties: int
    moves: int
    failing: int
    decoys: int

    @property
    def depth(self) -> int:
        return max(0, (self.empties - 6) // 2)

    @property
    def traps(self) -> int:
        return int(self.failing >= 4)

    @property
    def level(self) -> int:
        """1 (easy) to 10 (hard)."""
        return max(1, min(10, self.depth + self.traps + min(self.decoys, 2)))

    def __str__(self) -> str:
        """The level and what makes it, in words, e.g. ``"level 5 of 10: read 3 moves deep
        (12 empty squares), a trap (5 of the 6 moves fail), 1 decoy (a quick eye tries 1
        failing move first)"``."""
        steps = f"read {self.depth} move{'' if self.depth == 1 else 's'} deep ({self.empties} empty squares)"
        fail = f"{self.failing} of the {self.moves} moves fail"
        trap = f"a trap ({fail})" if self.traps else f"no trap ({fail})"
        counted = min(self.decoys, 2)
        if self.decoys:
            tries = f"a quick eye tries {self.decoys} failing move{'' if self.decoys == 1 else 's'} first"
            decoy = f"{counted} decoy{'' if counted == 1 else 's'} ({tries})"
        else:
            decoy = "no decoy (a quick eye finds a solution first)"
        return f"level {self.level} of 10: {steps}, {trap}, {decoy}"


@dataclass(frozen=True)
class Verdict:
    """What a tried move gets: its exact score, whether it solves the puzzle, and the words."""

    move: Move
    score: int
    solved: bool
    best: bool
    text: str

    def __str__(self) -> str:
        return self.text


def one_line(text: object) -> bool:
    """True for text a puzzle file keeps on one line as it is: no line break, no spaces around."""
    return isinstance(text, str) and text == text.strip() and len(text.splitlines()) <= 1


def quick_order(board: Board) -> list[Move]:
    """The legal moves in the order a quick eye tries them: corners first, then the fewest
    replies left to the opponent, then the most discs flipped (then square order)."""
    corners = {0, board.size - 1, board.size * (board.size - 1), board.size * board.size - 1}

    def key(move: Move) -> tuple[bool, int, int, int]:
        assert move.square is not None
        after = board.copy(stack=False)
        flipped = len(board.flips(move))
        after.push(move)
        replies = len(after.legal_moves) if not after.must_pass() else 0
        return (move.square not in corners, replies, -flipped, move.square)

    return sorted(board.legal_moves, key=key)


def exact_results(board: Board, search: Endgame | None = None) -> tuple[MoveResult, ...]:
    """The exact score and best reply of every legal move of ``board``, best first.

    ``search`` may be a solver of the board's size, goal and scoring to reuse its table.
    """
    check_searchable(board, "pose a puzzle from")
    if board.must_pass():
        raise IllegalMoveError(f"the side to move must pass here; a puzzle needs a move to find ({board.to_string()})")
    engine = _solver_for(board, search)
    p, o = board.sides()
    out = []
    with paused_gc():
        for sq in squares_of(engine.moves(p, o)):
            f = engine.flips(p, o, sq)
            np_, no = p | f | (1 << sq), o ^ f
            score = -engine.search(no, np_, -INFINITY, INFINITY)
            out.append(MoveResult(Move(sq, board.size), score, _best_reply(engine, no, np_, -score, board.size)))
    return tuple(sorted(out, key=lambda r: (-r.score, r.move.square)))


def endgame_search(rules: Rules, empties: int) -> Endgame:
    """A solver for positions of up to ``empties`` empty squares under ``rules``: from
    ``solver.WAIT_EMPTIES`` on it waits for the compiled one, as ``solve`` does (seconds of
    compiling, once, against minutes of pure Python a position)."""
    wait_for_compiled_solver(rules.size, empties)
    return make_endgame(rules.size, rules.goal, rules.scoring)


def _solver_for(board: Board, search: Endgame | None) -> Endgame:
    """The given solver if it plays the board's size, goal and scoring, else a new one."""
    if search is None:
        return endgame_search(board.rules, board.empty_count())
    if (search.size, search.goal, search.scoring) != (board.size, board.rules.goal, board.rules.scoring):
        raise ReversiError(
            f"the solver plays {search.size}x{search.size} {search.goal} {search.scoring}, "
            f"not the position's {board.size}x{board.size} {board.rules.goal} {board.rules.scoring}"
        )
    return search


def _best_reply(engine: Endgame, p: int, o: int, value: int, size: int) -> Move | None:
    """A move of the side with ``p`` that keeps its exact ``value``: a pass, or ``None`` at the end."""
    legal = engine.moves(p, o)
    if not legal:
        return None if not engine.moves(o, p) else Move.null(size)
    for sq in squares_of(legal):
        f = engine.flips(p, o, sq)
        if -engine.search(o ^ f, p | f | (1 << sq), -value - 1, -value + 1) == value:
            return Move(sq, size)
    raise AssertionError("no reply keeps the exact score")  # cannot happen with an exact search


@dataclass(frozen=True, repr=False)
class Puzzle:
    """A position to solve; see the module docstring. Made directly it is checked for
    consistency (every legal move listed, the task fits the scores); ``prove`` re-solves it."""

    name: str
    position: str
    rules: Rules
    task: str
    results: tuple[MoveResult, ...]
    target: int = 0
    source: Source = field(default_factory=Source)
    depth: int | None = None

    def __post_init__(self) -> None:
        try:
            self._check()
        except ReversiError as error:
            raise InvalidPositionError(f"puzzle {self.name!r}: {error}") from None

    def _check(self) -> None:
        if not self.name or not one_line(self.name):
            raise InvalidPositionError("a puzzle needs a one-line name without spaces around it")
        rules = self.rules
        if not isinstance(rules, Rules):
            raise InvalidPositionError(f"rules must be a Rules value, got {type(rules).__name__}")
        if rules.supply is not None or not rules.is_named_start or rules.start != "standard":
            raise InvalidPositionError("puzzle rules give only size, goal and scoring (no start, no disc supply)")
        board = Board(self.position, rules=rules)
        black, white = board.bitboards()
        object.__setattr__(self, "position", format_line(board.size, black, white, board.turn, None))
        check_searchable(board, "pose a puzzle from")
        if self.task not in TASKS:
            raise InvalidPositionError(f"task must be one of {', '.join(TASKS)}, got {self.task!r}")
        results = tuple(self.results)
        if not all(isinstance(r, MoveResult) and isinstance(r.move, Move) for r in results):
            raise InvalidPositionError("results must be MoveResult values of Move")
        if any(r.move.size != rules.size for r in results):
            raise InvalidPositionError(f"the results must be moves of a {rules.size}x{rules.size} board")
        limit = rules.size * rules.size
        for r in results:
            if isinstance(r.score, bool) or not isinstance(r.score, int) or abs(r.score) > limit:
                raise InvalidPositionError(f"{r.move} has score {r.score!r:.20}, not a margin of a {rules.size}x board")
        results = tuple(sorted(results, key=lambda r: (-r.score, _index(r.move))))
        object.__setattr__(self, "results", results)
        listed = [r.move for r in results]
        legal = list(board.legal_moves)
        if not legal:
            raise InvalidPositionError(f"the side to move must pass in {self.position}: there is no move to find")
        if sorted(map(_index, listed)) != sorted(map(_index, legal)) or len(set(listed)) != len(listed):
            raise InvalidPositionError(
                f"the results must list each legal move once: legal {_names(legal)}, listed {_names(listed)}"
            )
        for r in results:
            _check_reply(board, r)
        best = results[0].score
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise InvalidPositionError(f"target must be an int, got {self.target!r}")
        if (self.task == "win-by") != (self.target != 0):
            raise InvalidPositionError("a target is given for the task 'win-by', and only for it")
        if self.task == "win" and best <= 0:
            raise InvalidPositionError(f"no move wins (the best scores {best:+d}): the task cannot be 'win'")
        if self.task == "draw" and best != 0:
            raise InvalidPositionError(
                f"the position is not a draw (the best scores {best:+d}): the task is not 'draw'"
            )
        if self.task == "win-by" and not 0 < self.target <= best:
            raise InvalidPositionError(f"win by at least {self.target} is not possible: the best scores {best:+d}")
        self._check_depth()
        if not isinstance(self.source, Source):
            raise InvalidPositionError(f"source must be a Source value, got {type(self.source).__name__}")
        if self.task == "better" and self.source.played not in listed:
            raise InvalidPositionError(
                f"the task 'better' needs the move played there, a legal move: got {self.source.played}"
            )
        if self.task == "better" and not self.solution:
            raise InvalidPositionError(f"{self.source.played} is a best move (it scores {best:+d}): no move is better")
        if len(self.solution) == len(results):
            raise InvalidPositionError("every legal move solves it: a puzzle needs a move that fails")

    def _check_depth(self) -> None:
        depth = self.depth
        if depth is None:
            return
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidPositionError(
                f"depth must be None (exact scores) or a search depth of 1 or more, got {depth!r:.20}"
            )
        if self.task != "better":
            raise InvalidPositionError(f"only the task 'better' is posed from estimates, not {self.task!r}")

    # -- what it is --------------------------------------------------------------------

    def board(self) -> Board:
        """A fresh board of the position (change it freely)."""
        return Board(self.position, rules=self.rules)

    @property
    def turn(self) -> bool:
        """The side to move (``BLACK`` or ``WHITE``)."""
        return self.position.endswith(" X")

    @property
    def best_score(self) -> int:
        return self.results[0].score

    def solves(self, score: int) -> bool:
        """True if a move with this exact score solves the task."""
        if self.task == "best":
            return score == self.best_score
        if self.task == "win":
            return score > 0
        if self.task == "win-by":
            return score >= self.target
        if self.task == "better":
            if self.source.played is None:
                return False
            played = self.result(self.source.played).score
            return score >= played + ESTIMATE_MARGIN if self.estimated else score > played
        return score >= 0

    @property
    def estimated(self) -> bool:
        """True when the scores are a depth-limited search's estimates, not exact margins."""
        return self.depth is not None

    @property
    def solution(self) -> tuple[Move, ...]:
        """The moves that solve it, best first."""
        return tuple(r.move for r in self.results if self.solves(r.score))

    def result(self, move: Move | str) -> MoveResult:
        """The exact result of one legal move (``IllegalMoveError`` for any other)."""
        wanted = _parse(move, self.rules.size)
        for r in self.results:
            if r.move == wanted:
                return r
        raise IllegalMoveError(f"{wanted} is not a legal move in puzzle {self.name!r} (legal: {_names(self.moves)})")

    @property
    def moves(self) -> list[Move]:
        return [r.move for r in self.results]

    @property
    def difficulty(self) -> Difficulty:
        solution = set(self.solution)
        order = quick_order(self.board())
        first = next(i for i, move in enumerate(order) if move in solution)
        return Difficulty(
            empties=self.board().empty_count(),
            moves=len(self.results),
            failing=len(self.results) - len(solution),
            decoys=first,
        )

    def tempting(self) -> Move:
        """The failing move a quick eye tries first: the one a verdict compares against."""
        solution = set(self.solution)
        return next(move for move in quick_order(self.board()) if move not in solution)

    # -- words -------------------------------------------------------------------------

    def task_text(self, language: str = "en") -> str:
        """``"Black to move: find a winning move."``, with the inverted goal said when it applies."""
        color = translate("black" if self.turn == BLACK else "white", language)
        key = "puzzle_task_" + self.task.replace("-", "_") + ("_estimate" if self.estimated else "")
        count = ESTIMATE_MARGIN if self.estimated else self.target
        text = translate(key, language, color=color, count=count, played=str(self.source.played), depth=self.depth)
        if self.rules.goal == "inverted":
            text += " " + translate("puzzle_inverted", language)
        return text

    def verdict(self, move: Move | str, language: str = "en") -> Verdict:
        """The exact verdict on a tried move, e.g. ``"d3 wins by 6 — the best. c7 would lose by 4."``

        A wrong move is answered with its result and the opponent's best reply, never with
        the solution; a right one is compared with the most tempting wrong move (or the best).
        """
        tried = self.result(move)
        solved = self.solves(tried.score)
        best = tried.score == self.best_score
        if self.depth is not None:
            return self._estimate_verdict(tried, solved, best, language, self.depth)
        said = _outcome(tried, language, would=False)
        if solved and best:
            other = self.result(self.tempting())
            text = translate("puzzle_verdict_best", language, result=said) + " " + _outcome(other, language, True)
        elif solved:
            top = self.results[0]
            text = translate("puzzle_verdict_solved", language, result=said) + " " + _outcome(top, language, True)
        else:
            text = translate("puzzle_verdict_failed", language, result=said)
            if tried.reply is not None:
                color = translate("white" if self.turn == BLACK else "black", language)
                key = "puzzle_reply" if tried.reply else "puzzle_reply_pass"
                text += " " + translate(key, language, color=color, move=str(tried.reply))
        return Verdict(tried.move, tried.score, solved, best, text)

    def _estimate_verdict(self, tried: MoveResult, solved: bool, best: bool, language: str, depth: int) -> Verdict:
        """The verdict of a puzzle posed from estimates: every number said to be a depth-N estimate."""
        played = self.result(self.source.played) if self.source.played is not None else tried
        said = translate(
            "puzzle_estimate_scores", language, move=str(tried.move), score=f"{tried.score:+d}", depth=depth
        )
        key = "puzzle_estimate_best" if best else "puzzle_estimate_solved" if solved else "puzzle_estimate_failed"
        text = translate(key, language, result=said, count=ESTIMATE_MARGIN, played=str(played.move),
                         score=f"{played.score:+d}")  # fmt: skip
        if not solved and tried.reply is not None:
            color = translate("white" if self.turn == BLACK else "black", language)
            key = "puzzle_estimate_reply" if tried.reply else "puzzle_reply_pass"
            text += " " + translate(key, language, color=color, move=str(tried.reply))
        return Verdict(tried.move, tried.score, solved, best, text)

    def solution_text(self, language: str = "en") -> str:
        """The answer in words: the verdict on the best solving move."""
        return self.verdict(self.solution[0], language).text

    # -- proof -------------------------------------------------------------------------

    def prove(self, search: Endgame | None = None) -> None:
        """Re-prove every score and reply with the exact solver; a wrong one raises
        ``InvalidPositionError`` naming the puzzle and the move. Each check is a search in a
        window of width two around the claimed score, cheaper than solving from scratch."""
        if self.estimated:
            raise ReversiError(f"puzzle {self.name!r} holds a depth-{self.depth} search's estimates: nothing to prove")
        board = self.board()
        engine = _solver_for(board, search)
        p, o = board.sides()
        with paused_gc():
            for r in self.results:
                sq = _index(r.move)
                f = engine.flips(p, o, sq)
                np_, no = p | f | (1 << sq), o ^ f
                found = -engine.search(no, np_, -r.score - 1, -r.score + 1)
                if found != r.score:
                    raise InvalidPositionError(
                        f"puzzle {self.name!r}: {r.move} scores {_exact_or_bound(found, r.score)}, "
                        f"not {r.score:+d} as given"
                    )
                if r.reply:
                    reply = _index(r.reply)
                    g = engine.flips(no, np_, reply)
                    after = (np_ ^ g, no | g | (1 << reply))
                    if engine.search(*after, r.score - 1, r.score + 1) != r.score:
                        raise InvalidPositionError(
                            f"puzzle {self.name!r}: {r.reply} is not a best reply to {r.move}: it changes the score"
                        )

    # -- display -----------------------------------------------------------------------

    def __repr__(self) -> str:
        side = "Black" if self.turn == BLACK else "White"
        task = {
            "best": "find the best move",
            "win": "find a winning move",
            "draw": "save the draw",
            "better": f"find a better move than {self.source.played}",
        }.get(self.task, f"win by at least {self.target}")
        goal = ", inverted goal" if self.rules.goal == "inverted" else ""
        size = "" if self.rules.size == 8 else f", {self.rules.size}x{self.rules.size}"
        estimate = f", depth-{self.depth} estimates" if self.estimated else ""
        return (
            f"<Puzzle {self.name!r}: {side} to move, {task}{goal}{size}{estimate}; "
            f"solution {_names(self.solution)}; difficulty {self.difficulty.level}>"
        )

    def __str__(self) -> str:
        lines = [self.name, str(self.board()), self.task_text()]
        if str(self.source):
            lines.append(f"From {self.source}.")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        from ..svg import board as svg_board  # imported late: puzzles need no pictures

        return svg_board(self.board(), legal=True)

    def _repr_html_(self) -> str:
        """In a notebook: the board, and in words the task, where it comes from and how hard it is."""
        lines = [self.name, self.task_text()]
        if str(self.source):
            lines.append(f"From {self.source}.")
        lines.append(f"Difficulty {self.difficulty}.")
        words = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
        return f'<figure class="reversi-puzzle">{self._repr_svg_()}<figcaption>{words}</figcaption></figure>'


def _index(move: Move) -> int:
    if move.square is None:
        raise InvalidMoveError("a pass is not a move to find")
    return move.square


def _parse(move: Move | str, size: int) -> Move:
    """A tried move as a ``Move`` of this size: a square name or a ``Move``."""
    if isinstance(move, str):
        return Move.from_name(move, size)
    if not isinstance(move, Move):
        raise InvalidMoveError(f"a move is a square name like 'd3' or a Move, got {type(move).__name__}")
    if move.size != size:
        raise InvalidMoveError(f"{move!r} is a move of a {move.size}x{move.size} board, not {size}x{size}")
    return move


def _names(moves: Iterable[Move]) -> str:
    return " ".join(str(m) for m in moves) or "none"


def _check_reply(board: Board, r: MoveResult) -> None:
    """The reply is legal after the move: a square the opponent may take, a pass it must
    make, or nothing when the move ends the game."""
    after = board.copy(stack=False)
    after.push(r.move)
    if r.reply is None:
        if not after.is_game_over():
            raise InvalidPositionError(f"{r.move} does not end the game, so it needs a reply")
    elif not r.reply:
        if not after.must_pass():
            raise InvalidPositionError(f"after {r.move} the opponent has a move, so the reply cannot be a pass")
    elif r.reply.size != board.size or r.reply not in after.legal_moves:
        raise InvalidPositionError(f"the reply {r.reply} to {r.move} is not a legal move")


def _exact_or_bound(found: int, claimed: int) -> str:
    """What a search in the window (claimed - 1, claimed + 1) proved when it missed: a bound."""
    return f"at least {found:+d}" if found > claimed else f"at most {found:+d}"


def _outcome(result: MoveResult, language: str, would: bool) -> str:
    """``"d3 wins by 6"`` or, for a move not played, ``"c7 would lose by 4."``."""
    verb = "win" if result.score > 0 else "lose" if result.score < 0 else "draw"
    key = f"puzzle_would_{verb}" if would else f"puzzle_{verb}s"
    return translate(key, language, move=str(result.move), count=abs(result.score))
