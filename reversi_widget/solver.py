"""Exact endgame solving: the final margin under perfect play, and the moves that reach it.

Scores are *final disc margins from the side to move's point of view*, positive = good for
the side to move, under the board's goal and scoring:

* classic goal: the mover's discs minus the opponent's at the end of perfect play;
* inverted goal (fewer discs wins): the opponent's discs minus the mover's, so a positive
  score is still a win for the side to move;
* tournament scoring (R23) adds the empty squares left at the end to the size of a
  non-zero margin, exactly as ``Board.outcome`` does; a draw stays 0.

The search is a negamax alpha-beta (principal variation search) on raw bitboards. Far from
the end, moves are tried *fastest first* (the reply that leaves the opponent the fewest
moves) with a transposition table; in the last few empties it walks a short list of empty
squares, trying first those in a quadrant with an odd number of empties (parity) and corners
before X squares, and finishes the last empty square without generating moves at all.

On 4x4, 6x6 and 8x8 the same search runs compiled (``native.endgame``) once that kernel is
loaded, with the same scores and best moves; ``EndgameSearch`` picks the path when it is
made, and ``solve`` waits for the compiled one on positions that would take pure Python long.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import native
from .board import Board, Move
from .errors import IllegalMoveError, InvalidPositionError
from .evaluation import masks, square_table
from .geometry import geometry, squares_of
from .progress import Progress, notebook_progress
from .search import (
    CLOCK_EVERY,
    INFINITY,
    RootInterrupted,
    SearchTimeout,
    StopSignal,
    bounds,
    paused_gc,
    probe,
    root_search,
)
from .squares import BLACK

__all__ = [
    "INFINITY",
    "EndgameSearch",
    "SearchTimeout",
    "Solution",
    "check_searchable",
    "final_score_function",
    "side_bitboards",
    "solve",
    "solve_root",
]

#: Below this many empties, the list-walking search without move generation is used (the
#: compiled solver has its own threshold, ``native.endgame.SHALLOW_EMPTIES``, tuned to its speed).
SHALLOW_EMPTIES = 6
#: Up to this many empties, children are tried in static order rather than fastest first.
STATIC_ORDER_EMPTIES = 5
#: From this many empties on, positions are stored in the transposition table.
TT_EMPTIES = 7
#: The table is emptied when it grows past this many positions (memory stays bounded).
TT_LIMIT = 300_000
#: From this many empties on, ``solve`` waits for the compiled solver rather than search in
#: Python (where it would need seconds to minutes).
WAIT_EMPTIES = 16
#: Transposition table entries of the compiled solver, per board size (a power of two).
COMPILED_TABLE = {4: 1 << 12, 6: 1 << 20, 8: 1 << 20}


def final_score_function(size: int, goal: str, scoring: str) -> Callable[[int, int], int]:
    """``final(p, o)``: the score of a finished position for the side with ``p``."""
    squares = size * size
    sign = 1 if goal == "classic" else -1
    tournament = scoring == "tournament"

    if not tournament:
        if sign == 1:

            def final(p: int, o: int) -> int:
                return p.bit_count() - o.bit_count()

        else:

            def final(p: int, o: int) -> int:
                return o.bit_count() - p.bit_count()

        return final

    def final_tournament(p: int, o: int) -> int:
        pc, oc = p.bit_count(), o.bit_count()
        margin = sign * (pc - oc)
        if margin > 0:
            return margin + squares - pc - oc
        if margin < 0:
            return margin - (squares - pc - oc)
        return 0

    return final_tournament


def static_rank(size: int) -> list[int]:
    """Per square, its place in the static order of squares: corners first, X squares last
    (from the square table)."""
    values = square_table(size)
    priority = sorted(range(size * size), key=lambda sq: -values[sq])
    rank = [0] * (size * size)
    for position, sq in enumerate(priority):
        rank[sq] = position
    return rank


class EndgameSearch:
    """The exact search for one size, goal and scoring. ``search(p, o, alpha, beta)`` returns
    the exact score if it lies inside (alpha, beta), else a bound on the right side of it
    (fail-soft). It raises ``SearchTimeout`` once its ``stop`` signal says so: past
    ``deadline`` (a ``time.perf_counter`` value), or once ``stop.halt()`` is called (from any
    thread). An engine passes its own ``stop`` signal, so that one ``halt()`` ends whichever
    of its searches runs. The transposition table lives as long as the object, so repeated searches
    share it. ``compiled`` says which path it runs on."""

    def __init__(
        self, size: int, goal: str = "classic", scoring: str = "count", stop: StopSignal | None = None
    ) -> None:
        self.size = size
        self.goal = goal
        self.scoring = scoring
        self.nodes = 0
        self.stop = StopSignal() if stop is None else stop
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._rank = static_rank(size)
        self.compiled = size in native.SIZES and native.ready("endgame")
        if self.compiled:
            self._build_compiled()
        else:
            self._build()

    @property
    def deadline(self) -> float | None:
        return self.stop.deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self.stop.set_deadline(value)

    def _build_compiled(self) -> None:
        """``search`` as a call of the compiled kernel, which polls the stop signal's flag
        instead of a clock."""
        import numpy as np

        from .native import endgame
        from .native.bits import entry_point

        geo = geometry(self.size)
        n = self.size
        kernel = entry_point(endgame.search)
        rules = (endgame.INVERTED if self.goal == "inverted" else 0) | (
            endgame.TOURNAMENT if self.scoring == "tournament" else 0
        )
        table = np.zeros((COMPILED_TABLE[n], 3), dtype=np.uint64)
        slots = np.zeros((n * n + 1, endgame.MAX_MOVES), dtype=np.int64)
        self.compiled = True
        stats = np.zeros(1, dtype=np.int64)
        owner = self
        # One search at a time per object: the table and the move slots are shared.
        lock = threading.Lock()

        def search(p: int, o: int, alpha: int, beta: int) -> int:
            signal = owner.stop
            if signal.expired():
                raise SearchTimeout
            flag = signal.flag
            with lock:
                try:
                    score = int(kernel(n, p, o, alpha, beta, rules, table, slots, flag, stats))
                finally:
                    owner.nodes += int(stats[0])
                    stats[0] = 0
                if flag[0]:
                    raise SearchTimeout
            return score

        self.search: Callable[[int, int, int, int], int] = search
        self.final = final_score_function(self.size, self.goal, self.scoring)
        self.moves = geo.moves
        self.flips = geo.flips

    def _build(self) -> None:
        geo = geometry(self.size)
        moves, flips = geo.moves, geo.flips
        final = final_score_function(self.size, self.goal, self.scoring)
        m = masks(self.size)
        corners = m.corners
        rank = self._rank
        quadrant_bit = [0] * (self.size * self.size)
        for index, quadrant in enumerate(m.quadrants):
            for sq in range(self.size * self.size):
                if quadrant >> sq & 1:
                    quadrant_bit[sq] = 1 << index
        # The 8 neighbours of each square: a move must touch an opponent disc (R12), so a
        # square with none around it is skipped without computing its flips.
        n = self.size
        around = []
        for sq in range(n * n):
            row, col = divmod(sq, n)
            mask = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= row + dr < n and 0 <= col + dc < n:
                        mask |= 1 << ((row + dr) * n + col + dc)
            around.append(mask)
        table = self.table
        owner = self
        count = 0  # nodes since the last clock check
        shallow_limit = SHALLOW_EMPTIES
        static_limit = STATIC_ORDER_EMPTIES
        clock_every = CLOCK_EVERY
        nfc, nlc = m.not_first_col, m.not_last_col
        full = geo.full
        tt_min = TT_EMPTIES

        def tick() -> None:
            nonlocal count
            owner.nodes += count
            count = 0
            if owner.stop.expired():
                raise SearchTimeout

        def last(p: int, o: int, sq: int) -> int:
            """One empty square left: play it if either side can, then count."""
            bit = 1 << sq
            near = around[sq]
            if o & near:
                f = flips(p, o, sq)
                if f:
                    return final(p | f | bit, o ^ f)
            if p & near:
                f = flips(o, p, sq)
                if f:
                    return final(p ^ f, o | f | bit)
            return final(p, o)

        def shallow(p: int, o: int, alpha: int, beta: int, empties: list[int], passed: bool) -> int:
            """Few empties: walk the list of empty squares, odd quadrants first."""
            nonlocal count
            count += 1
            if count >= clock_every:
                tick()
            parity = 0
            for sq in empties:
                parity ^= quadrant_bit[sq]
            if parity:
                ordered = [sq for sq in empties if parity & quadrant_bit[sq]]
                ordered += [sq for sq in empties if not parity & quadrant_bit[sq]]
            else:
                ordered = empties
            best = -INFINITY
            two = len(empties) == 2
            for sq in ordered:
                if not o & around[sq]:
                    continue
                f = flips(p, o, sq)
                if not f:
                    continue
                bit = 1 << sq
                if two:
                    other = empties[0] if empties[1] == sq else empties[1]
                    score = -last(o ^ f, p | f | bit, other)
                else:
                    rest = [e for e in empties if e != sq]
                    score = -shallow(o ^ f, p | f | bit, -beta, -alpha, rest, False)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            return best
            if best == -INFINITY:  # no move
                if passed:
                    return final(p, o)
                return -shallow(o, p, -beta, -alpha, empties, True)
            return best

        def deep(p: int, o: int, alpha: int, beta: int, n_empty: int, legal: int) -> int:
            """Many empties: fastest-first ordering, PVS, transposition table."""
            nonlocal count
            count += 1
            if count >= clock_every:
                tick()
            if not legal:
                legal_o = moves(o, p)
                if not legal_o:
                    return final(p, o)
                return -deep(o, p, -beta, -alpha, n_empty, legal_o)
            key = (p, o)
            first = -1
            use_table = n_empty >= tt_min
            if use_table:
                entry = table.get(key)
                if entry is not None:
                    lower, upper, first = entry
                    value, alpha, beta = probe(lower, upper, alpha, beta)
                    if value != -INFINITY:
                        return value
            alpha0, beta0 = alpha, beta
            child_empty = n_empty - 1
            best = -INFINITY
            best_sq = -1
            if child_empty <= static_limit:
                # The children are solved by the list walk: order by the static priority
                # only, since counting the opponent's moves would cost more than it saves.
                empties = _empties_of(p | o)
                if first >= 0:
                    empties.remove(first)
                    empties.insert(0, first)
                searched = False
                for sq in empties:
                    bit = 1 << sq
                    if not legal & bit:
                        continue
                    f = flips(p, o, sq)
                    np_, no = p | f | bit, o ^ f
                    rest_list = [e for e in empties if e != sq]
                    if not searched:
                        score = -shallow(no, np_, -beta, -alpha, rest_list, False)
                        searched = True
                    else:
                        score = -shallow(no, np_, -alpha - 1, -alpha, rest_list, False)
                        if alpha < score < beta:
                            score = -shallow(no, np_, -beta, -score, rest_list, False)
                    if score > best:
                        best, best_sq = score, sq
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            else:
                # The table's best move first, searched before the others are even
                # generated: when it cuts off, their flips and replies are never computed.
                searched = False
                rest = legal
                if first >= 0 and legal >> first & 1 and child_empty > shallow_limit:
                    bit = 1 << first
                    f = flips(p, o, first)
                    np_, no = p | f | bit, o ^ f
                    best = -deep(no, np_, -beta, -alpha, child_empty, moves(no, np_))
                    best_sq = first
                    searched = True
                    if best > alpha:
                        alpha = best
                    rest ^= bit
                if alpha < beta:
                    # Then fastest first: the move that leaves the opponent the fewest
                    # replies, then the fewest empty squares next to the mover's discs
                    # (the opponent's replies to come), corners first.
                    children = []
                    while rest:
                        bit = rest & -rest
                        rest ^= bit
                        sq = bit.bit_length() - 1
                        f = flips(p, o, sq)
                        np_ = p | f | bit
                        no = o ^ f
                        reply = moves(no, np_)
                        h = np_ | ((np_ << 1) & nfc) | ((np_ >> 1) & nlc)
                        pm = ((h | (h << n) | (h >> n)) & ~(np_ | no) & full).bit_count()
                        order = -1000 if sq == first else reply.bit_count() * 8 + pm - (bit & corners != 0) * 6
                        children.append((order, sq, no, np_, reply))
                    children.sort()
                    if child_empty <= shallow_limit:
                        empties = _empties_of(p | o)
                    for _, sq, no, np_, reply in children:
                        if child_empty <= shallow_limit:
                            rest_list = [e for e in empties if e != sq]
                            if not searched:
                                score = -shallow(no, np_, -beta, -alpha, rest_list, False)
                                searched = True
                            else:
                                score = -shallow(no, np_, -alpha - 1, -alpha, rest_list, False)
                                if alpha < score < beta:
                                    score = -shallow(no, np_, -beta, -score, rest_list, False)
                        elif not searched:
                            score = -deep(no, np_, -beta, -alpha, child_empty, reply)
                            searched = True
                        else:
                            score = -deep(no, np_, -alpha - 1, -alpha, child_empty, reply)
                            if alpha < score < beta:
                                score = -deep(no, np_, -beta, -score, child_empty, reply)
                        if score > best:
                            best, best_sq = score, sq
                            if score > alpha:
                                alpha = score
                                if alpha >= beta:
                                    break
            if use_table:
                if len(table) > TT_LIMIT:
                    table.clear()
                lower, upper = bounds(best, alpha0, beta0)
                table[key] = (lower, upper, best_sq)
            return best

        def _empties_of(occupied: int) -> list[int]:
            """The empty squares in static priority order."""
            out = squares_of(full & ~occupied)
            out.sort(key=rank.__getitem__)
            return out

        upgradable = self.size in native.SIZES

        def search(p: int, o: int, alpha: int, beta: int) -> int:
            if upgradable and (owner.compiled or native.ready("endgame")):
                # The compiled search was loaded since: switch to it, for good.
                if not owner.compiled:
                    owner._build_compiled()
                return owner.search(p, o, alpha, beta)
            empties = _empties_of(p | o)
            n_empty = len(empties)
            try:
                if n_empty == 0:
                    return final(p, o)
                if n_empty == 1:
                    return last(p, o, empties[0])
                if n_empty <= shallow_limit:
                    return shallow(p, o, alpha, beta, empties, False)
                return deep(p, o, alpha, beta, n_empty, moves(p, o))
            finally:
                nonlocal count
                owner.nodes += count
                count = 0

        self.search = search
        self.final = final
        self.moves = moves
        self.flips = flips

    def best_line(self, p: int, o: int, first: int | None = None, limit: int = 64) -> list[int | None]:
        """A principal line from ``(p, o)``: squares (``None`` for a pass), each move one that
        keeps the exact score, found by re-searching (cheap once the table is filled)."""
        line: list[int | None] = []
        moves, flips, search = self.moves, self.flips, self.search
        while len(line) < limit:
            legal = moves(p, o)
            if not legal:
                if not moves(o, p):
                    break
                line.append(None)
                p, o = o, p
                continue
            target = search(p, o, -INFINITY, INFINITY)
            chosen = -1
            candidates = squares_of(legal)
            if first is not None and first in candidates:
                candidates = [first]
                first = None
            else:
                candidates.sort(key=lambda sq: self._rank[sq])
            for sq in candidates:
                f = flips(p, o, sq)
                np_, no = p | f | (1 << sq), o ^ f
                if len(candidates) == 1 or -search(no, np_, -target - 1, -target + 1) == target:
                    chosen = sq
                    break
            if chosen < 0:  # cannot happen with an exact search; stop rather than loop
                break
            line.append(chosen)
            f = flips(p, o, chosen)
            p, o = o ^ f, p | f | (1 << chosen)
        return line


@dataclass(frozen=True)
class Solution:
    """The exact result of a position under perfect play.

    ``score`` is the final margin from the side to move's point of view under the board's
    goal and scoring (see the module docstring): positive means the side to move wins.
    ``best_moves`` are all the moves that reach it (a pass when the side must pass), and
    ``line`` one principal line starting with ``best_moves[0]``.
    """

    score: int
    best_moves: tuple[Move, ...]
    line: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def result(self) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move."""
        return "win" if self.score > 0 else "loss" if self.score < 0 else "draw"

    def __str__(self) -> str:
        best = " ".join(str(m) for m in self.best_moves)
        line = " ".join(str(m) for m in self.line)
        return f"{self.result} by {abs(self.score)} (score {self.score:+d}); best: {best}; line: {line}"


def side_bitboards(board: Board) -> tuple[int, int]:
    """(mover, opponent) bitboards of a board."""
    black, white = board.bitboards()
    return (black, white) if board.turn == BLACK else (white, black)


def check_searchable(board: Board, what: str) -> None:
    """Refuse positions a search cannot start from, with a message that says why."""
    if not isinstance(board, Board):
        raise TypeError(f"{what} needs a Board, got {type(board).__name__}")
    if board.in_placement():
        raise InvalidPositionError(
            f"cannot {what} during the free start's placement of the centre discs (R8): place them first"
        )
    if board.is_game_over():
        raise IllegalMoveError(f"cannot {what}: the game is over ({board.outcome()})")


def solve(
    board: Board,
    progress: Progress | None = None,
    *,
    time_limit: float | None = None,
    show_progress: bool = False,
) -> Solution:
    """Solve ``board`` exactly: the final margin under perfect play and every best move.

    ``progress(fraction, message)`` is called as the root moves are done; ``show_progress``
    shows a progress bar instead when running in a notebook. ``time_limit`` (seconds) makes
    it give up with ``TimeoutError``. The board is not changed. Practical up to about 16-20
    empty squares on 8x8.
    """
    check_searchable(board, "solve")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0
    ):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    if progress is None and show_progress:
        progress = notebook_progress("Solving")
    start = time.perf_counter()
    if board.size in native.SIZES and board.empty_count() >= WAIT_EMPTIES and not native.ready("endgame"):
        if progress is not None:
            progress(0.0, "preparing the compiled solver")
        native.wait("endgame", timeout=time_limit)  # within the time allowed for the whole call
    engine = EndgameSearch(board.size, board.rules.goal, board.rules.scoring)
    if time_limit is not None:
        engine.deadline = start + time_limit
    p, o = side_bitboards(board)
    size = board.size
    try:
        with paused_gc():
            score, best = solve_root(engine, p, o, progress)
            line_squares = engine.best_line(p, o, best[0]) if best else []
    except SearchTimeout:
        raise TimeoutError(f"solve gave up after its time limit of {time_limit} s") from None
    if progress is not None:
        progress(1.0, "solved")
    moves = tuple(Move(sq, size) for sq in best)
    line = tuple(Move(sq, size) for sq in line_squares)
    return Solution(score, moves, line, engine.nodes, time.perf_counter() - start)


def solve_root(engine: EndgameSearch, p: int, o: int, progress: Progress | None = None) -> tuple[int, list[int | None]]:
    """The exact score and all best first moves (``[None]`` for a forced pass)."""
    legal = engine.moves(p, o)
    if not legal:
        if not engine.moves(o, p):
            return engine.final(p, o), []
        return -engine.search(o, p, -INFINITY, INFINITY), [None]
    flips, moves = engine.flips, engine.moves
    squares = squares_of(legal)
    # Try the most promising move first so the others are refuted by a narrow window.
    squares.sort(key=lambda sq: moves(o ^ flips(p, o, sq), p | flips(p, o, sq) | (1 << sq)).bit_count())

    def value(sq: int, alpha: int, beta: int) -> int:
        f = flips(p, o, sq)
        return -engine.search(o ^ f, p | f | (1 << sq), -beta, -alpha)

    def done(index: int) -> None:
        if progress is not None:
            progress((index + 1) / len(squares), f"solved {index + 1} of {len(squares)} moves")

    try:
        best_score, best, _ = root_search(squares, value, ties=True, done=done)
    except RootInterrupted:
        raise SearchTimeout from None
    return best_score, list(best)
