"""The computer player: ``Engine(level).choose(board)``.

The search is a negamax alpha-beta with principal variation search, iterative deepening
under a time budget, a transposition table keyed by the two bitboards, and move ordering
(the table's best move first, then the move leaving the opponent the fewest replies, then
corners). It runs on the raw bitboards of ``geometry(size)``; ``Board`` objects are only
touched at the root. Positions close enough to the end are handed to the exact solver.

The search itself is ``search.midgame`` (``make_midgame`` picks the path): boards up to 8x8
are searched by the compiled kernel of ``native.midgame`` when numba is installed and ready;
at full width it returns the same scores as the pure-Python ``search.midgame.MidgameSearch``,
many times faster, so the strongest levels search deeper there (``NATIVE_LEVEL_SETTINGS``),
and where a calibration exists it also cuts probably (``search.probcut``), which the pure
search does not.

Scores are in centi-discs from the side to move's point of view (see ``search``).

The evaluation at the leaves (``make_midgame``, the one place every search is made): on 8x8,
for every goal with learned weights (``learned_weights``: the classic goal today), the
learned pattern tables of ``search.patterns``, whose scores are estimates in real discs; on
other sizes and goals, the hand-made evaluation of ``search.evaluate``. ``Engine(..., learned=False)``
keeps the hand-made one everywhere, to measure the two against each other.

Levels 1-7 (``Engine.LEVELS`` names six of them) trade depth, time and randomness: level
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

import random
import time
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from .board import Board, Move
from .clock import GameClock, MoveBudget, check_clock
from .errors import IllegalMoveError
from .geometry import geometry, squares_of
from .search import FULL_WIDTH, RootInterrupted, StopSignal, paused_gc, root_search

# The search's names, importable from here as before (each is defined in reversi_widget.search).
from .search import INFINITY as INFINITY
from .search import MAX_DEPTH as MAX_DEPTH
from .search import WIN as WIN
from .search import check_time_limit as check_time_limit
from .search import exact_score as exact_score
from .search import score_to_margin as score_to_margin
from .search.evaluate import Weights, default_weights, make_crude_evaluator, square_table
from .search.midgame import TT_LIMIT as TT_LIMIT
from .search.midgame import Midgame as Midgame
from .search.midgame import MidgameSearch as MidgameSearch
from .search.midgame import compiled_midgame_ready as compiled_midgame_ready
from .search.midgame import learned_weights as learned_weights
from .search.midgame import make_midgame as make_midgame

__all__ = [
    "ASPIRATION",
    "DEEPEN_SHARE",
    "ENDGAME_GAP",
    "LEARNED_NOISE_SCALE",
    "LEVEL_SETTINGS",
    "NATIVE_LEVEL_SETTINGS",
    "QUICK_EXACT_EMPTIES",
    "SOFT_SHARE",
    "STABLE_DEPTH",
    "STRETCH",
    "Certainty",
    "Engine",
    "Iteration",
    "LevelSettings",
    "SearchInfo",
    "aspiration",
    "check_level",
    "schedule",
]

#: Share of the target time after which the strongest levels start no deeper iteration.
SOFT_SHARE = 0.6
#: Share of the target time the deepening gets when proofs follow it (they get the rest,
#: and may go on to the move's limit). A search to the end that the time cuts short leaves
#: only the deepening's move, so the deepening keeps close to half.
DEEPEN_SHARE = 0.45
#: When the best move changes between iterations from this depth on, the target time
#: stretches by ``STRETCH`` (up to the move's limit).
STABLE_DEPTH = 6
STRETCH = 1.5
#: The deepening before a search to the end (selective, or the proof close to the end) stops
#: this many plies below the end's depth (or at half), leaving the time to that search.
ENDGAME_GAP = 8
#: Discs either side of the last iteration's margin that a search to the end first looks in.
ASPIRATION = 4
#: Up to this many empties (within the level's exact solve) the proof follows the deepening
#: with no selective search to the end first: the ladder of selective searches cost about
#: three times the nodes and time of the proof alone at 18-21 empties
#: (``benchmarks/proof_schedule.py``).
QUICK_EXACT_EMPTIES = 22
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
    #: probable cuts of the compiled search (``SELECTIVITY_T`` level; ``FULL_WIDTH``: none)
    selectivity: int = FULL_WIDTH
    #: from this many empties on, selective searches to the end come before the proofs
    selective_empties: int = 0


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
    6: LevelSettings(MAX_DEPTH, 0.5, 18, 20, noise=0, spread=0.02, crude=False, selectivity=0, selective_empties=24),
    7: LevelSettings(MAX_DEPTH, 1.0, 22, 24, noise=0, spread=0.02, crude=False, selectivity=0, selective_empties=24),
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


@dataclass(frozen=True)
class Iteration:
    """One search of the iterative deepening: ``depth`` plies at ``selectivity``, inside the
    window ``(alpha, beta)``. A depth that reaches the end at ``FULL_WIDTH`` is exact (a
    proof of win, draw or loss with the window (-1, 1))."""

    depth: int
    selectivity: int = FULL_WIDTH
    alpha: int = -INFINITY
    beta: int = INFINITY


def schedule(s: LevelSettings, empties: int, selective: bool) -> list[Iteration]:
    """The searches a level runs on a position with ``empties`` empty squares, in order,
    each a step beyond the last: deeper and deeper at the level's selectivity (``selective``:
    the search can cut probably), then, close enough to the end, searches to the end ever
    less selectively, and last, where the level proves results, a proof of the exact margin,
    or of win, draw or loss; a fixed depth that reaches the end solves it. (A level that
    deepens without limit just deepens: its time ends it.)"""
    sel = s.selectivity if selective else FULL_WIDTH
    quick = min(QUICK_EXACT_EMPTIES, s.exact_empties)
    selective_end = sel < FULL_WIDTH and quick < empties <= s.selective_empties
    last = min(s.depth, MAX_DEPTH, empties - 1)
    proves_next = sel < FULL_WIDTH and empties <= quick
    if selective_end or proves_next:
        last = min(last, max(empties - ENDGAME_GAP, empties // 2))
    plan = [Iteration(depth, sel) for depth in range(1, max(1, last) + 1)]
    if selective_end:
        plan += [Iteration(empties, level) for level in range(sel, FULL_WIDTH)]
    if empties <= s.exact_empties or empties <= s.depth < MAX_DEPTH:
        plan.append(Iteration(empties))
    elif empties <= s.wld_empties:
        plan.append(Iteration(empties, FULL_WIDTH, -1, 1))
    return plan


def aspiration(step: Iteration, guess: int) -> Iteration:
    """``step`` (a search to the end in the full window) in a window of ``ASPIRATION`` discs
    either side of the margin the last iteration found (``guess``, a search score): a narrow
    window proves a margin in a fraction of the nodes. A step with a window of its own (a
    win/draw/loss proof) keeps it."""
    if (step.alpha, step.beta) != (-INFINITY, INFINITY):
        return step
    margin = round(score_to_margin(guess)[0])
    return replace(step, alpha=exact_score(margin - ASPIRATION), beta=exact_score(margin + ASPIRATION))


class Engine:
    """A computer player. ``Engine("expert").choose(board)`` returns the move it plays.

    ``level`` is 1 (weakest) to 7 (strongest) or a name of ``LEVELS``; ``time_limit`` caps
    the seconds a move (default: the level's own budget); ``clock`` gives the engine that
    many seconds for all its moves of a game instead, shared over the game by
    ``clock.GameClock`` (with ``time_limit`` too, that stays a hard limit a move); ``seed``
    makes the small random variations (perturbed weights, noise, placement in the free start)
    reproducible. With a time budget the depth reached depends on the machine, so only levels
    that finish their fixed depth in time repeat exactly. ``learned=False`` evaluates with the
    hand-made evaluation where the learned one would serve (see the module's docstring).
    Levels 5-7 play from the opening book on 8x8 classic while it has a move close to its
    best that stays in it (``book.Book.pick``; ``book=False`` turns that off). ``choose``
    never changes the board.
    """

    LEVELS: ClassVar[dict[str, int]] = {
        "beginner": 1,
        "easy": 2,
        "intermediate": 3,
        "medium": 4,
        "hard": 5,
        "expert": 7,
    }

    def __init__(
        self,
        level: int | str = 4,
        time_limit: float | None = None,
        seed: int | None = None,
        *,
        learned: bool = True,
        clock: float | None = None,
        book: bool = True,
    ) -> None:
        self.level = check_level(level)
        self.time_limit = check_time_limit(time_limit)
        seconds = check_clock(clock)
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
        #: The time left for this game's moves, when playing on a clock.
        self.clock = None if seconds is None else GameClock(seconds)
        self._rng = random.Random(seed)
        self._weights: dict[str, Weights] = {}
        self._searches: dict[tuple[int, str, str, bool, bool], Midgame] = {}
        self.stop_signal = StopSignal()
        self._last_empties: int | None = None
        self.last_search: SearchInfo | None = None

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        seed = "" if self.seed is None else f", seed={self.seed}"
        learned = "" if self.learned else ", learned=False"
        clock = "" if self.clock is None else f", clock={self.clock.total}"
        book = "" if self.book else ", book=False"
        return f"Engine(level={self.level}{limit}{seed}{learned}{clock}{book})"

    @property
    def budget(self) -> float:
        """Seconds allowed for one move without a clock."""
        return self.settings.time_limit if self.time_limit is None else self.time_limit

    def new_game(self) -> None:
        """Start the clock again (a position with more empty squares than the last one this
        engine played in does so too)."""
        if self.clock is not None:
            self.clock.reset()
        self._last_empties = None

    def move_budget(self, board: Board) -> MoveBudget:
        """The time the next move in ``board`` gets: the clock's share where there is one
        (capped by ``time_limit``), else the budget a move."""
        if self.clock is None:
            return MoveBudget(self.budget, self.budget)
        share = self.clock.budget(board.empty_count(), board.size)
        if self.time_limit is None:
            return share
        return MoveBudget(min(share.target, self.time_limit), min(share.limit, self.time_limit))

    # -- the searches, one per variant, kept between moves so their tables help ---------

    def _search_for(self, board: Board) -> Midgame:
        """The search of the board's variant: compiled when the kernel is ready for this
        size, else pure (until it is)."""
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
        empties = board.empty_count()
        if self._last_empties is not None and empties > self._last_empties:
            self.new_game()
        self._last_empties = empties
        if board.in_placement():
            # The placement flips nothing and every arrangement is playable: vary it.
            square = self._rng.choice([m.square for m in board.legal_moves])
            move = Move(square, size)
            self.last_search = SearchInfo(move, 0, 0, False, 0, time.perf_counter() - start)
            return move
        p, o = board.sides()
        legal = board.geometry.moves(p, o)
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
                if self.clock is not None:
                    self.clock.spend(seconds)
                self.last_search = SearchInfo(picked.move, round(picked.value * 100), 0, False, 0, seconds, book=True)
                return picked.move
        # Building a variant's search (its tables, and its learned weights read once a
        # process) is setting up, not thinking: the move's time starts after it.
        search = self._search_for(board)
        budget = self.move_budget(board)
        thinking = time.perf_counter()
        self.stop_signal.clear()
        search.take_nodes()
        try:
            with paused_gc():
                square, score, depth, certainty = self._think(board, search, p, o, legal, thinking, budget)
        finally:
            self.stop_signal.clear()
        move = Move(square, size)
        nodes = search.take_nodes()
        seconds = time.perf_counter() - start
        if self.clock is not None:
            self.clock.spend(seconds)
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
        self, board: Board, search: Midgame, p: int, o: int, legal: int, start: float, budget: MoveBudget
    ) -> tuple[int, int, int, Certainty]:
        """(square, score, depth, certainty) for the position, within the budget."""
        if legal & (legal - 1) == 0:  # a single legal move: play it at once
            return legal.bit_length() - 1, 0, 0, "estimate"
        s = self._level_settings(board, search)
        plan = schedule(s, board.empty_count(), search.selective)
        return self._deepen(search, s, board.size, p, o, legal, start, budget, plan)

    def _deepen(
        self,
        search: Midgame,
        s: LevelSettings,
        size: int,
        p: int,
        o: int,
        legal: int,
        start: float,
        budget: MoveBudget,
        plan: list[Iteration],
    ) -> tuple[int, int, int, Certainty]:
        """Run the iterations of ``plan`` while the time allows: (square, score, depth,
        certainty) of the last one that finished, or of the best move found so far in the one
        the deadline interrupted when that deepens the same search. A new iteration starts
        only with most of the target time left; the target stretches (up to the limit) when
        the best move changes between iterations."""
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
        certainty: Certainty = "estimate"
        done: Iteration | None = None
        noise = s.noise
        noise_of = {sq: self._rng.randint(-noise, noise) if noise else 0 for sq in order}
        deadline = start + budget.limit
        target = budget.target
        # With proofs ahead, deepening gets a share of the target and the proofs the rest.
        proofs = [step for step in plan if step.depth >= empties]
        deepening = len(plan) - len(proofs)
        deepen_until = target * (DEEPEN_SHARE if proofs else 1.0)
        self.stop_signal.set_deadline(deadline)
        try:
            for index, step in enumerate(plan):
                elapsed = time.perf_counter() - start
                if index < deepening and index > 0 and s.depth == MAX_DEPTH and elapsed > SOFT_SHARE * deepen_until:
                    continue  # no time to deepen further: on to the proofs, if any
                if index >= deepening and index > 0 and elapsed > target:
                    break
                search.selectivity = step.selectivity
                search.certain_since()

                def value(sq: int, alpha: int, beta: int, depth: int = step.depth) -> int:
                    no, np_, reply = children[sq]
                    return -search.negamax(no, np_, depth - 1, -beta, -alpha, reply)

                window = step
                if step.depth >= empties and done is not None and noise == 0:
                    window = aspiration(step, best_score)
                try:
                    score, best_squares, scores = root_search(
                        order, value, window.alpha, window.beta, full_window=noise > 0,
                        bonus=noise_of.__getitem__ if noise else None,
                    )  # fmt: skip
                    if window is not step and not window.alpha < score < window.beta:
                        # Outside the guess: the true score lies beyond the bound found, so
                        # search again on that side, from the bound on.
                        low, high = (step.alpha, score + 1) if score <= window.alpha else (score - 1, step.beta)
                        window = replace(step, alpha=max(step.alpha, low), beta=min(step.beta, high))
                        score, best_squares, scores = root_search(order, value, window.alpha, window.beta)
                except RootInterrupted as stop:
                    # The moves it finished were searched deeper than before and the first of
                    # them was the previous best: keep the best of them, when the search only
                    # went deeper at the same selectivity (an estimate either way).
                    if stop.square is not None and done is not None and step.selectivity == done.selectivity:
                        best_sq, best_score, certainty = stop.square, stop.score, "estimate"
                    break
                changed = best_squares[0] != best_sq
                best_sq, best_score, reached, done = best_squares[0], score, step.depth, step
                certainty = self._certainty(window, score, empties, search.certain)
                order.sort(key=lambda sq: -scores.get(sq, -INFINITY))
                if certainty == "exact" and noise == 0:
                    break  # a proven margin does not change with depth
                if certainty == "estimate" and abs(score) >= WIN:
                    best_score = score - WIN if score > 0 else score + WIN  # a probable end
                if changed and step.depth >= STABLE_DEPTH:
                    target = min(budget.limit, target * STRETCH)
                    deepen_until = target * (DEEPEN_SHARE if proofs else 1.0)
        finally:
            self.stop_signal.set_deadline(None)
        return best_sq, best_score, reached, certainty

    @staticmethod
    def _certainty(step: Iteration, score: int, empties: int, certain: bool) -> Certainty:
        """How sure an iteration's score is. Only a search that no probable cut could touch
        (``certain``) proves anything; to the end, in the full window, it proves the margin
        (a draw in any window); elsewhere a proven win or loss bounds the margin."""
        if not certain:
            return "estimate"
        if step.depth >= empties and step.alpha < score < step.beta:
            return "exact"
        return "bound" if abs(score) >= WIN else "estimate"
