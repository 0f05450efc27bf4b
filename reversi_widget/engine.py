"""The computer player: ``Engine(level).choose(board)``.

The search is a negamax alpha-beta with principal variation search, iterative deepening
under a time budget, a transposition table keyed by the two bitboards, and move ordering
(the table's best move first, then the move leaving the opponent the fewest replies, then
corners). It runs on the raw bitboards of ``geometry(size)``; ``Board`` objects are only
touched at the root. Positions close enough to the end are handed to the exact solver.

Scores are in centi-discs from the side to move's point of view. A finished position
scores its exact final margin (times 100) plus or minus ``WIN``, so any proven win ranks
above any estimate and any proven loss below.

Levels 1-7 (``Engine.LEVELS`` names five of them) trade depth, time and randomness: level
1 looks one move ahead with a crude square table and much noise, level 7 deepens for about
a second a move, proves a win or draw from 18 empty squares when it can, and plays the last
12 perfectly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from .board import Board, Move
from .errors import IllegalMoveError
from .evaluation import Evaluate, default_weights, make_crude_evaluator, make_evaluator, square_table
from .geometry import geometry, squares_of
from .solver import INFINITY as EXACT_INFINITY
from .solver import EndgameSearch, SearchTimeout, final_score_function, paused_gc, side_bitboards

#: Added to the scaled margin of a finished game, beyond any evaluation.
WIN = 1_000_000
#: Beyond every score.
INFINITY = 100_000_000
#: Nodes (leaves included) between two looks at the clock in the midgame search (a node
#: costs 30-200 µs, so the budget is overrun by a few tens of milliseconds at most).
CLOCK_EVERY = 128
#: The transposition table is emptied when it grows past this many positions.
TT_LIMIT = 200_000
#: Share of the time after which the strongest levels start no new iteration.
SOFT_SHARE = 0.6
#: The deepest iteration ever started.
MAX_DEPTH = 64


def exact_score(margin: int) -> int:
    """The search score of a known final margin."""
    if margin > 0:
        return margin * 100 + WIN
    if margin < 0:
        return margin * 100 - WIN
    return 0


def score_to_margin(score: int) -> tuple[float, bool]:
    """(disc margin, exact?) of a search score: proven results give their margin exactly,
    estimates their centi-discs divided by 100."""
    if score >= WIN:
        return (score - WIN) / 100, True
    if score <= -WIN:
        return (score + WIN) / 100, True
    return score / 100, False


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


@dataclass(frozen=True)
class SearchInfo:
    """What the last ``choose`` found: its move, score, depth reached and cost."""

    move: Move
    score: int  # centi-discs, side to move's view (see ``score_to_margin``)
    depth: int  # plies of the last completed iteration (empties when exact)
    exact: bool  # the score is a proven final margin (or a proven win/draw/loss)
    nodes: int
    seconds: float

    @property
    def margin(self) -> float:
        return score_to_margin(self.score)[0]


class MidgameSearch:
    """Depth-limited negamax over one size, goal and scoring, with its transposition table.

    ``negamax(p, o, depth, alpha, beta, legal)`` takes the mover's legal moves (already
    known to the caller) and returns a fail-soft score; ``deadline`` makes it raise
    ``SearchTimeout``. The table maps ``(p, o)`` to ``(depth, lower, upper, best square)``.
    """

    def __init__(self, size: int, goal: str, scoring: str, evaluate: Evaluate) -> None:
        self.size = size
        self.nodes = 0
        self.deadline: float | None = None
        self.halted = False  # set by Engine.stop(): the search raises at its next clock check
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        geo = geometry(size)
        self.moves, self.flips = geo.moves, geo.flips
        final = final_score_function(size, goal, scoring)

        def terminal(p: int, o: int) -> int:
            return exact_score(final(p, o))

        self.terminal = terminal
        self.values = square_table(size)
        self.negamax: Callable[[int, int, int, int, int, int], int] = self._build(evaluate)

    def _build(self, evaluate: Evaluate) -> Callable[[int, int, int, int, int, int], int]:
        moves, flips, terminal = self.moves, self.flips, self.terminal
        table = self.table
        values = self.values
        corners = geometry(self.size).corners
        clock = time.perf_counter
        owner = self
        count = 0

        def tick() -> None:
            nonlocal count
            owner.nodes += count
            count = 0
            if owner.halted or (owner.deadline is not None and clock() > owner.deadline):
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
                    if lower >= beta:
                        return lower
                    if upper <= alpha:
                        return upper
                    if lower == upper:
                        return lower
                    if lower > alpha:
                        alpha = lower
                    if upper < beta:
                        beta = upper
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
            if best <= alpha0:
                table[key] = (depth, -INFINITY, best, best_sq)
            elif best >= beta0:
                table[key] = (depth, best, INFINITY, best_sq)
            else:
                table[key] = (depth, best, best, best_sq)
            return best

        def counted() -> int:
            nonlocal count
            owner.nodes += count
            count = 0
            return owner.nodes

        self.flush_nodes = counted
        return negamax

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
    their fixed depth in time repeat exactly. ``choose`` never changes the board.
    """

    LEVELS: ClassVar[dict[str, int]] = {"beginner": 1, "easy": 2, "medium": 4, "hard": 5, "expert": 7}

    def __init__(self, level: int | str = 4, time_limit: float | None = None, seed: int | None = None) -> None:
        self.level = check_level(level)
        self.time_limit = check_time_limit(time_limit)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be an int or None, got {seed!r}")
        self.seed = seed
        self.settings = LEVEL_SETTINGS[self.level]
        self._rng = random.Random(seed)
        self._searches: dict[tuple[int, str, str], MidgameSearch] = {}
        self._solvers: dict[tuple[int, str, str], EndgameSearch] = {}
        self.last_search: SearchInfo | None = None

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        seed = "" if self.seed is None else f", seed={self.seed}"
        return f"Engine(level={self.level}{limit}{seed})"

    @property
    def budget(self) -> float:
        """Seconds allowed for one move."""
        return self.settings.time_limit if self.time_limit is None else self.time_limit

    # -- the searches, one per variant, kept between moves so their tables help ---------

    def _search_for(self, board: Board) -> MidgameSearch:
        rules = board.rules
        key = (rules.size, rules.goal, rules.scoring)
        search = self._searches.get(key)
        if search is None:
            s = self.settings
            if s.crude:
                evaluate = make_crude_evaluator(rules.size, rules.goal, s.crude_mobility)
            else:
                weights = default_weights(rules.goal).perturbed(self._rng, s.spread)
                evaluate = make_evaluator(rules.size, rules.goal, weights)
            search = MidgameSearch(rules.size, rules.goal, rules.scoring, evaluate)
            self._searches[key] = search
        return search

    def _solver_for(self, board: Board) -> EndgameSearch:
        rules = board.rules
        key = (rules.size, rules.goal, rules.scoring)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = EndgameSearch(rules.size, rules.goal, rules.scoring)
        return solver

    # -- choosing a move --------------------------------------------------------------------

    def stop(self) -> None:
        """Ask a ``choose()`` running in another thread to return at once with the best move
        it has found so far. The widget calls it when the move being thought about is no
        longer wanted (an undo, a new game), so the next move need not wait for it."""
        for search in self._searches.values():
            search.halted = True
        for solver in self._solvers.values():
            solver.halted = True

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
        search = self._search_for(board)
        legal = search.moves(p, o)
        if not legal:
            move = Move(None, size)
            self.last_search = SearchInfo(move, 0, 0, False, 0, time.perf_counter() - start)
            return move
        search.nodes = 0
        search.halted = False
        with paused_gc():
            square, score, depth, exact = self._think(board, search, p, o, legal, start)
        move = Move(square, size)
        self.last_search = SearchInfo(move, score, depth, exact, search.flush_nodes(), time.perf_counter() - start)
        return move

    def _think(
        self, board: Board, search: MidgameSearch, p: int, o: int, legal: int, start: float
    ) -> tuple[int, int, int, bool]:
        """(square, score, depth, exact) for the position, within the budget."""
        s = self.settings
        budget = self.budget
        deadline = start + budget
        empties = board.empty_count()
        if legal & (legal - 1) == 0:  # a single legal move: play it at once
            return legal.bit_length() - 1, 0, 0, False
        solver_used = s.exact_empties and empties <= max(s.exact_empties, s.wld_empties)
        # With a solve to follow, the midgame search only gets a share of the time.
        mid_share = 0.15 if solver_used and empties <= s.exact_empties else 0.4 if solver_used else 1.0
        mid_deadline = start + budget * min(1.0, 2 * mid_share)
        result = self._deepen(search, p, o, legal, start, start + budget * mid_share, mid_deadline, empties)
        if not solver_used or search.halted:
            return result
        solver = self._solver_for(board)
        solver.deadline = deadline
        solver.halted = search.halted  # a stop() since the check above reached only the midgame search
        try:
            if empties <= s.exact_empties:
                sq, margin = self._solve_root(solver, p, o, legal, result[0], -EXACT_INFINITY, EXACT_INFINITY)
                return sq, exact_score(margin), empties, True
            sq, margin = self._solve_root(solver, p, o, legal, result[0], -1, 1)
            if margin >= 0:  # a proven win (the margin is then a lower bound) or draw
                return sq, exact_score(margin), empties, True
            return result  # every move loses against perfect play: keep fighting by the estimate
        except SearchTimeout:
            return result
        finally:
            search.nodes += solver.nodes
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

        squares.sort(key=order)
        best, best_sq = -EXACT_INFINITY, squares[0]
        for index, sq in enumerate(squares):
            f = flips(p, o, sq)
            np_, no = p | f | (1 << sq), o ^ f
            if index == 0:
                score = -solver.search(no, np_, -beta, -alpha)
            else:
                score = -solver.search(no, np_, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -solver.search(no, np_, -beta, -score)
            if score > best:
                best, best_sq = score, sq
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best_sq, best

    def _deepen(
        self,
        search: MidgameSearch,
        p: int,
        o: int,
        legal: int,
        start: float,
        soft_stop: float,
        deadline: float,
        empties: int,
    ) -> tuple[int, int, int, bool]:
        """Iterative deepening: (square, score, depth, exact) of the last iteration that
        finished, or of the best move found so far in the one the deadline interrupted."""
        s = self.settings
        moves, flips = search.moves, search.flips
        children = []
        rest = legal
        values = search.values
        while rest:
            bit = rest & -rest
            rest ^= bit
            sq = bit.bit_length() - 1
            f = flips(p, o, sq)
            np_, no = p | f | bit, o ^ f
            children.append([-values[sq], sq, no, np_, moves(no, np_)])
        children.sort()
        best_sq, best_score, reached = children[0][1], -INFINITY, 0
        noise = s.noise
        noise_of = {c[1]: self._rng.randint(-noise, noise) if noise else 0 for c in children}
        search.deadline = deadline
        max_depth = min(s.depth, MAX_DEPTH, empties)
        try:
            for depth in range(1, max_depth + 1):
                iteration_best, iteration_score = self._root(search, children, depth, noise_of, noise > 0)
                best_sq, best_score, reached = iteration_best, iteration_score, depth
                if abs(best_score) >= WIN and noise == 0:
                    break  # a proven result does not change with depth
                # Start another iteration only with most of the time left: an interrupted
                # one still improves on the last (its first move is the previous best).
                if s.depth == MAX_DEPTH and time.perf_counter() - start > SOFT_SHARE * (soft_stop - start):
                    break
        except _Interrupted as stop:
            if stop.square is not None:
                best_sq, best_score = stop.square, stop.score
        finally:
            search.deadline = None
        exact = abs(best_score) >= WIN
        return best_sq, best_score, reached, exact

    def _root(
        self, search: MidgameSearch, children: list[list[int]], depth: int, noise_of: dict[int, int], full_window: bool
    ) -> tuple[int, int]:
        """One iteration over the root moves, best first; reorders ``children`` in place.
        With noise every move gets an exact score (full window) so the noise compares like
        with like; otherwise later moves are only proven worse (PVS)."""
        negamax = search.negamax
        alpha, beta = -INFINITY, INFINITY
        best_sq, best = -1, -INFINITY
        scores: dict[int, int] = {}
        for index, child in enumerate(children):
            _, sq, no, np_, reply = child
            try:
                if full_window or index == 0:
                    score = -negamax(no, np_, depth - 1, -INFINITY if full_window else -beta, -alpha, reply)
                else:
                    score = -negamax(no, np_, depth - 1, -alpha - 1, -alpha, reply)
                    if score > alpha:
                        score = -negamax(no, np_, depth - 1, -beta, -score, reply)
            except SearchTimeout:
                # Moves searched so far at this depth are comparable with each other; the
                # first one was the previous iteration's best, so the best of them stands.
                raise _Interrupted(best_sq if best_sq >= 0 else None, best) from None
            score += noise_of[sq]
            scores[sq] = score
            if score > best:
                best, best_sq = score, sq
                if not full_window and score > alpha:
                    alpha = score
        children.sort(key=lambda c: -scores.get(c[1], -INFINITY))
        return best_sq, best


class _Interrupted(Exception):
    """The deadline stopped an iteration; carries the best root move it had found."""

    def __init__(self, square: int | None, score: int) -> None:
        super().__init__()
        self.square = square
        self.score = score
