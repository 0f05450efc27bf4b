"""The computer player: ``Engine(level).choose(board)``.

The search is a negamax alpha-beta with principal variation search, iterative deepening
under a time budget, a transposition table keyed by the two bitboards, and move ordering
(the table's best move first, then the move leaving the opponent the fewest replies, then
corners). It runs on the raw bitboards of ``geometry(size)``; ``Board`` objects are only
touched at the root. Positions close enough to the end are handed to the exact solver.

Boards up to 8x8 are searched by the compiled kernel of ``native.midgame`` when numba is
installed and ready; it returns the same scores as the pure-Python ``MidgameSearch`` here,
many times faster, so the strongest levels search deeper there (``NATIVE_LEVEL_SETTINGS``).

Scores are in centi-discs from the side to move's point of view (see ``search``).

The evaluation at the leaves (``make_midgame``, the one place every search is made): on 8x8,
for every goal with learned weights (``learned_weights``: the classic goal today), the
learned pattern tables of ``patterns``, whose scores are estimates in real discs; on other
sizes and goals, the hand-made evaluation of ``evaluation``. ``Engine(..., learned=False)``
keeps the hand-made one everywhere, to measure the two against each other.

Levels 1-7 (``Engine.LEVELS`` names five of them) trade depth, time and randomness: level
1 looks one move ahead with a crude square table and much noise, level 7 deepens for about
a second a move, proves a win or draw near the end when it can, and plays the last moves
perfectly. Levels 1 and 2 keep their crude evaluation everywhere; levels 3-7 use the
variant's evaluation. How games vary: with the hand-made evaluation each level perturbs its
weights a little (``spread``) and levels 1-4 add noise to each root move's score. The
learned tables are not perturbed: they are fitted, and a perturbed table is only a worse
one. Levels 3 and 4 keep their root noise, made ``LEARNED_NOISE_SCALE`` times larger to stay
the same share of a score in real discs; levels 5-7 play the best move they find, so their
games vary only as far as the depth reached in their time does (and with the opponent),
except in the opening of 8x8 classic: there they play from the opening book (``book``), at
random among its moves close to the best.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Literal, Protocol

from . import native
from .board import Board, Move
from .errors import IllegalMoveError
from .evaluation import Evaluate, Weights, default_weights, make_crude_evaluator, make_evaluator, square_table
from .geometry import geometry, squares_of
from .search import (
    CLOCK_EVERY,
    INFINITY,
    MAX_DEPTH,
    WIN,
    RootInterrupted,
    SearchTimeout,
    StopSignal,
    bounds,
    exact_score,
    paused_gc,
    probe,
    root_search,
    score_to_margin,
)
from .solver import EndgameSearch, final_score_function, side_bitboards

__all__ = [
    "INFINITY",
    "LEVEL_SETTINGS",
    "MAX_DEPTH",
    "WIN",
    "Engine",
    "LevelSettings",
    "MidgameSearch",
    "SearchInfo",
    "check_level",
    "check_time_limit",
    "exact_score",
    "learned_weights",
    "make_midgame",
    "score_to_margin",
]

#: The transposition table of the pure-Python search is emptied past this many positions.
TT_LIMIT = 200_000
#: Share of the time after which the strongest levels start no new iteration.
SOFT_SHARE = 0.6
#: The hand-made evaluation's scores are squeezed about threefold (``benchmarks/evaluation.py``:
#: its depth-4 and depth-8 estimates spread 0.27-0.33 times as wide as the exact margins, the
#: learned ones 0.92), so a level's root noise, set on that scale, is this many times larger
#: on the learned evaluation's real discs.
LEARNED_NOISE_SCALE = 3


@dataclass(frozen=True)
class LevelSettings:
    """How one level plays."""

    depth: int  # deepest iteration
    time_limit: float  # default budget a move, seconds
    exact_empties: int  # solve exactly from this many empty squares (0: never)
    wld_empties: int  # try a win/draw/loss solve from this many, if time allows (0: never)
    noise: int  # random centi-discs added to each root move's score
    spread: float  # random relative perturbation of the evaluation weights
    crude: bool  # use the beginner's square-table evaluation
    crude_mobility: int = 0  # mobility weight added to the crude evaluation


LEVEL_SETTINGS: dict[int, LevelSettings] = {
    1: LevelSettings(depth=1, time_limit=0.5, exact_empties=0, wld_empties=0, noise=900, spread=0.3, crude=True),
    2: LevelSettings(2, 0.5, 4, 0, noise=300, spread=0.2, crude=True, crude_mobility=40),
    3: LevelSettings(3, 1.0, 8, 0, noise=80, spread=0.1, crude=False),
    4: LevelSettings(4, 1.0, 10, 0, noise=25, spread=0.05, crude=False),
    5: LevelSettings(6, 1.5, 12, 0, noise=0, spread=0.03, crude=False),
    6: LevelSettings(MAX_DEPTH, 0.5, 10, 14, noise=0, spread=0.02, crude=False),
    7: LevelSettings(MAX_DEPTH, 1.0, 12, 18, noise=0, spread=0.02, crude=False),
}

#: The strongest levels with the compiled search: solving is many times faster there, so
#: they solve exactly and prove wins from further out. The other levels play the same.
NATIVE_LEVEL_SETTINGS: dict[int, LevelSettings] = {
    **LEVEL_SETTINGS,
    6: LevelSettings(MAX_DEPTH, 0.5, 16, 18, noise=0, spread=0.02, crude=False),
    7: LevelSettings(MAX_DEPTH, 1.0, 18, 20, noise=0, spread=0.02, crude=False),
}


#: How sure a search's score is: the final margin, a proven result whose margin is a bound,
#: or an estimate.
Certainty = Literal["exact", "bound", "estimate"]


@dataclass(frozen=True)
class SearchInfo:
    """What the last ``choose`` found: its move, score, depth reached and cost."""

    move: Move
    score: int  # centi-discs, side to move's view (see ``score_to_margin``)
    depth: int  # plies of the last completed iteration (empties when solved)
    exact: bool  # the score is the final margin under perfect play
    nodes: int
    seconds: float
    #: the result (win or loss) is proven but the margin only bounds it: a win by at least
    #: ``margin`` (a win/draw/loss solve, or a search that saw every reply lose in its depth)
    bound: bool = False
    #: the move came from the opening book (``book``), unsearched; the score is the book's value
    book: bool = False

    @property
    def margin(self) -> float:
        return score_to_margin(self.score)[0]

    @property
    def proven(self) -> bool:
        """Whether the result is proven, the margin exactly or as a bound."""
        return self.exact or self.bound


class Midgame(Protocol):
    """A depth-limited negamax over one size, goal and scoring, with its transposition table:
    the pure-Python ``MidgameSearch`` or the compiled ``native.midgame.NativeMidgame``.

    ``negamax(p, o, depth, alpha, beta, legal)`` takes the mover's legal moves (already known
    to the caller) and returns a fail-soft score; it raises ``SearchTimeout`` once ``stop``
    says so. ``take_nodes()`` returns the nodes searched since it was last called.
    """

    stop: StopSignal

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int: ...

    def principal_line(self, p: int, o: int, limit: int) -> list[int | None]: ...

    def take_nodes(self) -> int: ...


class MidgameSearch:
    """The pure-Python ``Midgame``, for every size. Its table maps ``(p, o)`` to
    ``(depth, lower, upper, best square)``."""

    def __init__(self, size: int, goal: str, scoring: str, evaluate: Evaluate) -> None:
        self.size = size
        self.nodes = 0
        self.stop = StopSignal()
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        geo = geometry(size)
        self.moves, self.flips = geo.moves, geo.flips
        final = final_score_function(size, goal, scoring)

        def terminal(p: int, o: int) -> int:
            return exact_score(final(p, o))

        self.terminal = terminal
        self.values = square_table(size)
        self.negamax = self._build(evaluate)

    def _build(self, evaluate: Evaluate) -> Callable[[int, int, int, int, int, int], int]:
        moves, flips, terminal = self.moves, self.flips, self.terminal
        table = self.table
        values = self.values
        corners = geometry(self.size).corners
        owner = self
        count = 0

        def tick() -> None:
            nonlocal count
            owner.nodes += count
            count = 0
            if owner.stop.expired():
                raise SearchTimeout

        def negamax(p: int, o: int, depth: int, alpha: int, beta: int, legal: int) -> int:
            nonlocal count
            count += 1
            if count >= CLOCK_EVERY:
                tick()
            if not legal:
                legal_o = moves(o, p)
                if not legal_o:
                    return terminal(p, o)
                return -negamax(o, p, depth, -beta, -alpha, legal_o)  # a pass costs no depth
            if depth <= 0:
                return evaluate(p, o, legal)
            key = (p, o)
            entry = table.get(key)
            first = -1
            if entry is not None:
                e_depth, lower, upper, first = entry
                if e_depth >= depth:
                    value, alpha, beta = probe(lower, upper, alpha, beta)
                    if value != -INFINITY:
                        return value
            alpha0, beta0 = alpha, beta
            best = -INFINITY
            best_sq = -1
            if depth == 1:
                # The children are leaves: order by the square table only, and let each
                # child's evaluation count the replies it needs anyway.
                squares = squares_of(legal)
                squares.sort(key=lambda s: -1000 if s == first else -values[s])
                for sq in squares:
                    count += 1  # each leaf evaluated counts as a node, for the clock too
                    bit = 1 << sq
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    reply = moves(no, np_)
                    # A child where the opponent must pass goes through the pass logic.
                    score = -evaluate(no, np_, reply) if reply else -negamax(no, np_, 0, -beta, -alpha, 0)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            else:
                children = []
                rest = legal
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    sq = bit.bit_length() - 1
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    reply = moves(no, np_)
                    if sq == first:
                        order = -1_000_000
                    else:
                        order = reply.bit_count() * 100 - values[sq] - (bit & corners != 0) * 1000
                    children.append((order, sq, no, np_, reply))
                children.sort()
                child_depth = depth - 1
                searched = False
                for _, sq, no, np_, reply in children:
                    if not searched:
                        score = -negamax(no, np_, child_depth, -beta, -alpha, reply)
                        searched = True
                    else:
                        score = -negamax(no, np_, child_depth, -alpha - 1, -alpha, reply)
                        if alpha < score < beta:
                            score = -negamax(no, np_, child_depth, -beta, -score, reply)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            if len(table) > TT_LIMIT:
                table.clear()
            lower, upper = bounds(best, alpha0, beta0)
            table[key] = (depth, lower, upper, best_sq)
            return best

        def take_nodes() -> int:
            nonlocal count
            taken = owner.nodes + count
            owner.nodes = count = 0
            return taken

        self._take_nodes = take_nodes
        return negamax

    def take_nodes(self) -> int:
        return self._take_nodes()

    def principal_line(self, p: int, o: int, limit: int) -> list[int | None]:
        """Follow the table's best moves from ``(p, o)``: squares, ``None`` for a pass."""
        line: list[int | None] = []
        moves, flips, table = self.moves, self.flips, self.table
        seen = set()
        while len(line) < limit:
            legal = moves(p, o)
            if not legal:
                if not moves(o, p):
                    break
                line.append(None)
                p, o = o, p
                continue
            entry = table.get((p, o))
            if entry is None or (p, o) in seen:
                break
            seen.add((p, o))
            sq = entry[3]
            if sq < 0 or not legal >> sq & 1:
                break
            line.append(sq)
            f = flips(p, o, sq)
            p, o = o ^ f, p | f | (1 << sq)
        return line


def compiled_midgame_ready(size: int) -> bool:
    """Whether the compiled midgame search can take a board of this size now (asking
    starts the compilation in the background when it has not started yet)."""
    return size in native.SIZES and native.ready("midgame")


def learned_weights(size: int, goal: str) -> Path | None:
    """The learned weights file the searches of a variant evaluate with: the goal's shipped
    one (``patterns.weights_file``) on 8x8, None where the hand-made evaluation serves.
    (``patterns`` is imported on this first need, not with the package: a first board or
    widget does not wait for it.)"""
    from . import patterns

    return patterns.weights_file(goal) if size == patterns.SIZE else None


def make_midgame(
    size: int,
    goal: str,
    scoring: str,
    weights: Weights | None = None,
    compiled: bool | None = None,
    *,
    learned: bool = True,
) -> Midgame:
    """A midgame search of one variant: compiled when ``compiled`` (default: when it is ready
    for this size), else pure Python. It evaluates with the learned patterns where the variant
    has them (``learned_weights``), else, or with ``learned=False``, with the hand-made
    evaluation and ``weights`` (default: the goal's own). The learned weights are read here
    on the first search that needs them (compiled), or at its first evaluation (pure);
    a missing or damaged file is refused then, naming it."""
    path = learned_weights(size, goal) if learned else None
    if path is not None and weights is not None:
        raise ValueError(
            f"hand-made weights do not apply to {size}x{size} {goal}, which evaluates with the learned "
            "patterns: pass learned=False to use them"
        )
    if compiled is None:
        compiled = compiled_midgame_ready(size)
    if compiled:
        from .native.midgame import NativeMidgame
        from .native.patterns import arrays_of

        return NativeMidgame(size, goal, scoring, weights, None if path is None else arrays_of(path, goal))
    if path is None:
        return MidgameSearch(size, goal, scoring, make_evaluator(size, goal, weights))
    from .patterns import make_pattern_evaluator

    return MidgameSearch(size, goal, scoring, make_pattern_evaluator(path, goal))


def check_level(level: object) -> int:
    """The level number of an int 1-7 or a name of ``Engine.LEVELS``; ValueError otherwise."""
    if isinstance(level, str):
        key = level.strip().lower()
        if key in Engine.LEVELS:
            return Engine.LEVELS[key]
        raise ValueError(f"unknown level {level!r}: expected 1-7 or one of {', '.join(Engine.LEVELS)}")
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVEL_SETTINGS:
        raise ValueError(f"level must be an int from 1 to 7 or one of {', '.join(Engine.LEVELS)}, got {level!r}")
    return level


def check_time_limit(time_limit: object) -> float | None:
    """A positive finite number of seconds, or None; ValueError otherwise."""
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    return float(time_limit)


class Engine:
    """A computer player. ``Engine("expert").choose(board)`` returns the move it plays.

    ``level`` is 1 (weakest) to 7 (strongest) or a name of ``LEVELS``; ``time_limit`` caps
    the seconds a move (default: the level's own budget); ``seed`` makes the small random
    variations (perturbed weights, noise, placement in the free start) reproducible. With
    a time budget the depth reached depends on the machine, so only levels that finish
    their fixed depth in time repeat exactly. ``learned=False`` evaluates with the hand-made
    evaluation where the learned one would serve (see the module's docstring). Levels 5-7
    play from the opening book on 8x8 classic while it has a move close to its best that
    stays in it (``book.Book.pick``; ``book=False`` turns that off). ``choose`` never
    changes the board.
    """

    LEVELS: ClassVar[dict[str, int]] = {"beginner": 1, "easy": 2, "medium": 4, "hard": 5, "expert": 7}

    def __init__(
        self,
        level: int | str = 4,
        time_limit: float | None = None,
        seed: int | None = None,
        *,
        learned: bool = True,
        book: bool = True,
    ) -> None:
        self.level = check_level(level)
        self.time_limit = check_time_limit(time_limit)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be an int or None, got {seed!r}")
        if not isinstance(learned, bool):
            raise ValueError(f"learned must be True or False, got {learned!r}")
        if not isinstance(book, bool):
            raise ValueError(f"book must be True or False, got {book!r}")
        self.seed = seed
        self.learned = learned
        self.book = book
        self.settings = LEVEL_SETTINGS[self.level]
        self._rng = random.Random(seed)
        self._weights: dict[str, Weights] = {}
        self._searches: dict[tuple[int, str, str, bool, bool], Midgame] = {}
        self._solvers: dict[tuple[int, str, str], EndgameSearch] = {}
        self.stop_signal = StopSignal()
        self._solver_nodes = 0
        self.last_search: SearchInfo | None = None

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        seed = "" if self.seed is None else f", seed={self.seed}"
        learned = "" if self.learned else ", learned=False"
        book = "" if self.book else ", book=False"
        return f"Engine(level={self.level}{limit}{seed}{learned}{book})"

    @property
    def budget(self) -> float:
        """Seconds allowed for one move."""
        return self.settings.time_limit if self.time_limit is None else self.time_limit

    # -- the searches, one per variant, kept between moves so their tables help ---------

    def _search_for(self, board: Board) -> Midgame:
        """The midgame search of the board's variant: compiled when the kernel is ready for
        this size, else pure (until it is)."""
        rules = board.rules
        s = self.settings
        compiled = not s.crude and compiled_midgame_ready(rules.size)
        learned = self._learned_for(board)
        key = (rules.size, rules.goal, rules.scoring, compiled, learned)
        search = self._searches.get(key)
        if search is None:
            if s.crude:
                evaluate = make_crude_evaluator(rules.size, rules.goal, s.crude_mobility)
                search = MidgameSearch(rules.size, rules.goal, rules.scoring, evaluate)
            elif learned:
                search = make_midgame(rules.size, rules.goal, rules.scoring, compiled=compiled)
            else:
                weights = self._weights.get(rules.goal)
                if weights is None:
                    weights = self._weights[rules.goal] = default_weights(rules.goal).perturbed(self._rng, s.spread)
                search = make_midgame(rules.size, rules.goal, rules.scoring, weights, compiled, learned=False)
            search.stop = self.stop_signal
            self._searches[key] = search
        return search

    def _learned_for(self, board: Board) -> bool:
        """Whether this engine evaluates the board's variant with the learned patterns."""
        rules = board.rules
        return self.learned and not self.settings.crude and learned_weights(rules.size, rules.goal) is not None

    def _solver_for(self, board: Board) -> EndgameSearch:
        rules = board.rules
        key = (rules.size, rules.goal, rules.scoring)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = EndgameSearch(rules.size, rules.goal, rules.scoring, self.stop_signal)
        return solver

    # -- choosing a move --------------------------------------------------------------------

    def stop(self) -> None:
        """Ask a ``choose()`` running in another thread to return at once with the best move
        it has found so far. The widget calls it when the move being thought about is no
        longer wanted (an undo, a new game), so the next move need not wait for it."""
        self.stop_signal.halt()  # shared by every search of this engine

    def choose(self, board: Board) -> Move:
        """The move to play in ``board``: a pass if the side to move has none, a centre
        square during the free start's placement. Raises ``IllegalMoveError`` if the game
        is over."""
        if not isinstance(board, Board):
            raise TypeError(f"choose needs a Board, got {type(board).__name__}")
        start = time.perf_counter()
        size = board.size
        if board.is_game_over():
            raise IllegalMoveError(f"no move to choose: the game is over ({board.outcome()})")
        if board.in_placement():
            # The placement flips nothing and every arrangement is playable: vary it.
            square = self._rng.choice([m.square for m in board.legal_moves])
            move = Move(square, size)
            self.last_search = SearchInfo(move, 0, 0, False, 0, time.perf_counter() - start)
            return move
        p, o = side_bitboards(board)
        legal = board._geo.moves(p, o)
        if not legal:
            move = Move(None, size)
            self.last_search = SearchInfo(move, 0, 0, False, 0, time.perf_counter() - start)
            return move
        if self.book:
            from . import book as opening_book  # its file is read on the first 8x8 classic board

            playing = self.level in opening_book.ENGINE_LEVELS
            picked = opening_book.pick(board, self._rng, leaving=False) if playing else None
            if picked is not None:
                seconds = time.perf_counter() - start
                self.last_search = SearchInfo(picked.move, round(picked.value * 100), 0, False, 0, seconds, book=True)
                return picked.move
        search = self._search_for(board)
        self.stop_signal.clear()
        search.take_nodes()
        self._solver_nodes = 0
        try:
            with paused_gc():
                square, score, depth, certainty = self._think(board, search, p, o, legal, start)
        finally:
            self.stop_signal.clear()
        move = Move(square, size)
        nodes = search.take_nodes() + self._solver_nodes
        seconds = time.perf_counter() - start
        exact, bound = certainty == "exact", certainty == "bound"
        self.last_search = SearchInfo(move, score, depth, exact, nodes, seconds, bound)
        return move

    def _level_settings(self, board: Board, search: Midgame) -> LevelSettings:
        """How this level plays with this search: further solving with the compiled one, the
        root noise in real discs with the learned evaluation."""
        s = NATIVE_LEVEL_SETTINGS[self.level] if not isinstance(search, MidgameSearch) else self.settings
        if s.noise and self._learned_for(board):
            s = replace(s, noise=s.noise * LEARNED_NOISE_SCALE)
        return s

    def _think(
        self, board: Board, search: Midgame, p: int, o: int, legal: int, start: float
    ) -> tuple[int, int, int, Certainty]:
        """(square, score, depth, certainty) for the position, within the budget."""
        s = self._level_settings(board, search)
        budget = self.budget
        deadline = start + budget
        empties = board.empty_count()
        if legal & (legal - 1) == 0:  # a single legal move: play it at once
            return legal.bit_length() - 1, 0, 0, "estimate"
        solver_used = s.exact_empties and empties <= max(s.exact_empties, s.wld_empties)
        # With a solve to follow, the midgame search only gets a share of the time.
        mid_share = 0.15 if solver_used and empties <= s.exact_empties else 0.4 if solver_used else 1.0
        mid_deadline = start + budget * min(1.0, 2 * mid_share)
        result = self._deepen(search, s, board.size, p, o, legal, start, start + budget * mid_share, mid_deadline)
        if not solver_used or self.stop_signal.halted or result[3] == "exact":
            return result
        solver = self._solver_for(board)
        solver.deadline = deadline
        try:
            if empties <= s.exact_empties:
                sq, margin = self._solve_root(solver, p, o, legal, result[0], -INFINITY, INFINITY)
                return sq, exact_score(margin), empties, "exact"
            sq, margin = self._solve_root(solver, p, o, legal, result[0], -1, 1)
            if margin >= 0:  # a proven draw, or a proven win whose margin is a lower bound
                return sq, exact_score(margin), empties, "exact" if margin == 0 else "bound"
            return result  # every move loses against perfect play: keep fighting by the estimate
        except RootInterrupted:
            return result
        finally:
            self._solver_nodes += solver.nodes
            solver.nodes = 0
            solver.deadline = None

    def _solve_root(
        self, solver: EndgameSearch, p: int, o: int, legal: int, first: int, alpha: int, beta: int
    ) -> tuple[int, int]:
        """The best square and its exact score inside (alpha, beta), trying ``first`` first."""
        flips, moves = solver.flips, solver.moves
        squares = squares_of(legal)

        def order(sq: int) -> int:
            if sq == first:
                return -1000
            f = flips(p, o, sq)
            return moves(o ^ f, p | f | (1 << sq)).bit_count()

        def value(sq: int, alpha: int, beta: int) -> int:
            f = flips(p, o, sq)
            return -solver.search(o ^ f, p | f | (1 << sq), -beta, -alpha)

        squares.sort(key=order)
        best, best_squares, _ = root_search(squares, value, alpha, beta)
        return best_squares[0], best

    def _deepen(
        self,
        search: Midgame,
        s: LevelSettings,
        size: int,
        p: int,
        o: int,
        legal: int,
        start: float,
        soft_stop: float,
        deadline: float,
    ) -> tuple[int, int, int, Certainty]:
        """Iterative deepening: (square, score, depth, certainty) of the last iteration that
        finished, or of the best move found so far in the one the deadline interrupted. A
        proven result short of the end is a bound: a line not seen to the end may do better."""
        geo = geometry(size)
        values = square_table(size)
        empties = size * size - (p | o).bit_count()
        children: dict[int, tuple[int, int, int]] = {}
        for sq in squares_of(legal):
            f = geo.flips(p, o, sq)
            np_, no = p | f | (1 << sq), o ^ f
            children[sq] = (no, np_, geo.moves(no, np_))
        order = sorted(children, key=lambda sq: -values[sq])
        best_sq, best_score, reached = order[0], -INFINITY, 0
        noise = s.noise
        noise_of = {sq: self._rng.randint(-noise, noise) if noise else 0 for sq in order}
        self.stop_signal.set_deadline(deadline)
        max_depth = min(s.depth, MAX_DEPTH, empties)
        try:
            for depth in range(1, max_depth + 1):

                def value(sq: int, alpha: int, beta: int, depth: int = depth) -> int:
                    no, np_, reply = children[sq]
                    return -search.negamax(no, np_, depth - 1, -beta, -alpha, reply)

                best_score, best_squares, scores = root_search(
                    order, value, full_window=noise > 0, bonus=noise_of.__getitem__ if noise else None
                )
                best_sq, reached = best_squares[0], depth
                order.sort(key=lambda sq: -scores.get(sq, -INFINITY))
                if abs(best_score) >= WIN and noise == 0:
                    break  # a proven result does not change with depth
                # Start another iteration only with most of the time left: an interrupted
                # one still improves on the last (its first move is the previous best).
                if s.depth == MAX_DEPTH and time.perf_counter() - start > SOFT_SHARE * (soft_stop - start):
                    break
        except RootInterrupted as stop:
            if stop.square is not None:
                best_sq, best_score = stop.square, stop.score
        finally:
            self.stop_signal.set_deadline(None)
        if abs(best_score) < WIN:
            return best_sq, best_score, reached, "estimate"
        return best_sq, best_score, reached, "exact" if reached >= empties else "bound"
