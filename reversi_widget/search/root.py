"""Every legal move of a position searched at the root, one by one: the searches that
``analysis.analyse`` and ``game_review`` are made of.

Each move gets its own search of the position after it (not one root search that keeps only
the best move, as ``search.root_search`` does for a player): exactly by the endgame search
(``exact_entries``), or by iterative deepening with the midgame search in a window around the
last depth's score (``midgame_entries``, ``window_search``), or to the end in a window around
an estimate (``end_window_search``). ``value_above`` finds a position's exact value from a
bound on it, as a review walks a game back from its end. The scores are disc margins for the
side to move, in a ``MoveAnalysis`` each (see ``analysis``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..board import Board, Move
from ..progress import Progress
from . import INFINITY, WIN, SearchTimeout, StopSignal, exact_score, score_to_margin
from .endgame import Endgame
from .midgame import Midgame, make_midgame

__all__ = [
    "ANALYSIS_SELECTIVITY",
    "ASPIRATION",
    "END_ASPIRATION",
    "MoveAnalysis",
    "children_of",
    "end_window_search",
    "exact_entries",
    "midgame_entries",
    "moves_of",
    "value_above",
    "window_search",
    "within_board",
]

#: Centi-discs either side of a move's score at the last depth where the analysis looks for
#: it at the next depth first.
ASPIRATION = 300
#: The selectivity of the analysis' searches within a time limit, where the search can cut
#: probably (see ``search.probcut``): a cut needs the deep score beyond the window by 2
#: spreads (about 95% sure). In the same time they reach some two plies deeper (errors at 21
#: empties, against exact scores: 4.0 discs at depth 10 where full width at depth 8 is off
#: by 5.0). A fixed depth is searched full width: its scores repeat on both paths.
ANALYSIS_SELECTIVITY = 2
#: Discs either side of a move's estimate where its search to the end looks first.
END_ASPIRATION = 4


@dataclass(frozen=True)
class MoveAnalysis:
    """One legal move: its score for the side to move, and the line the search expects.

    ``exact``: the score is the final margin under perfect play. ``bound``: the move is a
    proven win or loss, but the score only bounds its margin (a win by at least ``score``,
    a loss by at least ``-score``). Neither: the score is an estimate."""

    move: Move
    score: float
    exact: bool
    line: tuple[Move, ...]
    depth: int
    bound: bool = False

    @property
    def proven(self) -> bool:
        """Whether the result (win, draw or loss) is proven, its margin exact or a bound."""
        return self.exact or self.bound

    @property
    def result(self) -> str | None:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move when proven, else ``None``."""
        if not self.proven:
            return None
        return "win" if self.score > 0 else "loss" if self.score < 0 else "draw"

    def score_text(self) -> str:
        """``"+4"`` (exact), ``">=+6"`` or ``"<=-6"`` (a proven win or loss by at least that
        many discs) or ``"+3.25"`` (estimate)."""
        if self.bound:
            return f"{'>=' if self.score > 0 else '<='}{self.score:+.0f}"
        return f"{self.score:+.0f}" if self.exact else f"{self.score:+.2f}"

    @property
    def rank(self) -> int:
        """The score on the search's scale, by which moves are compared: a proven win ranks
        above every estimate, however large, and a proven loss below; a bound ranks by the
        margin it guarantees, as the search that found it compared it."""
        return exact_score(round(self.score)) if self.proven else round(self.score * 100)


def within_board(estimate: float, size: int) -> float:
    """An estimate held to the widest margin the board allows (every square the mover's, or
    the opponent's). Estimates in real discs pass it in a lopsided position: two moves
    estimated +70 and +78 both win everything there is to win, and neither loses anything
    against the other."""
    widest = float(size * size)
    return max(-widest, min(widest, estimate))


def children_of(board: Board) -> list[tuple[Move, int, int]]:
    """(move, opponent's bitboard, mover's bitboard) after each legal move."""
    p, o = board.sides()
    flips = board.geometry.flips
    out = []
    for move in board.legal_moves:
        sq = move.square
        assert sq is not None
        f = flips(p, o, sq)
        out.append((move, o ^ f, p | f | (1 << sq)))
    return out


def moves_of(squares: list[int | None], size: int) -> tuple[Move, ...]:
    """A line of squares (``None`` for a pass) as moves."""
    return tuple(Move(sq, size) for sq in squares)


def exact_entries(board: Board, solver: Endgame, progress: Progress | None) -> list[MoveAnalysis]:
    """Every move of ``board`` solved exactly, in the order of its legal moves."""
    children = children_of(board)
    entries = []
    empties = board.empty_count()
    for index, (move, no, np_) in enumerate(children):
        score = -solver.search(no, np_, -INFINITY, INFINITY)
        line = (move, *moves_of(solver.best_line(no, np_), board.size))
        entries.append(MoveAnalysis(move, float(score), True, line, empties))
        if progress is not None:
            progress((index + 1) / len(children), f"solved {move} ({index + 1} of {len(children)})")
    return entries


def midgame_entries(
    board: Board,
    depth: int,
    deadline: float | None,
    progress: Progress | None,
    stop: StopSignal,
    only: tuple[Move, ...] | None = None,
) -> tuple[list[MoveAnalysis], int, int]:
    """Iterative deepening over every move (or the moves ``only`` names) with a full window,
    selective within a ``deadline`` where the search can cut probably
    (``ANALYSIS_SELECTIVITY``), to ``depth`` (or as deep as the ``deadline`` allows); the
    last depth completed for all of them is kept. Depth 1 always completes, whatever the
    deadline; a halt of ``stop`` ends it anywhere with ``SearchTimeout``."""
    rules = board.rules
    search = make_midgame(board.size, rules.goal, rules.scoring)
    search.stop = stop
    if search.selective and deadline is not None:
        search.selectivity = ANALYSIS_SELECTIVITY
    empties = board.empty_count()
    moves = board.geometry.moves
    children = [(move, no, np_, moves(no, np_)) for move, no, np_ in children_of(board) if only is None or move in only]
    scores: dict[Move, int] = {}
    certain: dict[Move, bool] = {}
    reached = 0
    max_depth = min(depth, empties)
    start = time.perf_counter()
    try:
        for d in range(1, max_depth + 1):
            stop.set_deadline(deadline if d > 1 else None)
            current: dict[Move, int] = {}
            sure: dict[Move, bool] = {}
            # Best moves of the last depth first: their lines fill the table for the rest.
            ordered = sorted(children, key=lambda c: -scores.get(c[0], 0))
            for index, (move, no, np_, reply) in enumerate(ordered):
                search.certain_since()
                current[move] = window_search(search, no, np_, d - 1, reply, scores.get(move))
                sure[move] = search.certain
                if progress is not None:
                    if deadline is None:
                        fraction = (d - 1 + (index + 1) / len(ordered)) / max_depth
                    else:
                        span = max(1e-9, deadline - start)
                        fraction = min(0.99, max(0.0, (time.perf_counter() - start) / span))
                    progress(fraction, f"depth {d}: {move} ({index + 1} of {len(ordered)})")
            scores, certain, reached = current, sure, d
            if all(score_to_margin(v)[1] and certain[m] for m, v in scores.items()):
                break  # every move is already proven: deeper changes nothing
    except SearchTimeout:
        if stop.halted:
            raise
        # Past the deadline: keep the last depth completed.
    finally:
        stop.set_deadline(None)
    entries = []
    # Searched to the end on every line, a proven score is exact; short of it, it only bounds
    # its margin. A score a probable cut may have touched is an estimate, proven or not.
    to_the_end = reached >= empties
    for move, no, np_, _reply in children:
        margin, proven = score_to_margin(scores[move])
        proven = proven and certain[move]
        exact = (proven and to_the_end) or (scores[move] == 0 and to_the_end and certain[move])
        if not proven:
            margin = within_board(margin, board.size)
        line = (move, *moves_of(search.principal_line(no, np_, max(0, reached - 1)), board.size))
        entries.append(MoveAnalysis(move, margin, exact, line, reached, proven and not to_the_end))
    return entries, reached, search.take_nodes()


def window_search(search: Midgame, no: int, np_: int, depth: int, reply: int, guess: int | None) -> int:
    """The exact score of a move (the negated search of the position after it): first in a
    window around the previous depth's score, which settles most moves at a fraction of the
    cost, then, if the score falls outside it, in the full window."""
    if guess is not None and abs(guess) < WIN:
        alpha, beta = guess - ASPIRATION, guess + ASPIRATION
        score = -search.negamax(no, np_, depth, -beta, -alpha, reply)
        if alpha < score < beta:
            return score
    return -search.negamax(no, np_, depth, -INFINITY, INFINITY, reply)


def end_window_search(search: Midgame, no: int, np_: int, depth: int, reply: int, guess: float) -> int:
    """The score of a move searched to the end (``depth`` is the empties after it): first in
    a window of ``END_ASPIRATION`` discs either side of its estimate ``guess``, which most
    final margins fall in at a fraction of the cost, then, outside it, in the full window."""
    centre = round(guess)
    alpha, beta = exact_score(centre - END_ASPIRATION), exact_score(centre + END_ASPIRATION)
    score = -search.negamax(no, np_, depth, -beta, -alpha, reply)
    if alpha < score < beta:
        return score
    return -search.negamax(no, np_, depth, -INFINITY, INFINITY, reply)


def value_above(solver: Endgame, position: Board, floor: int) -> tuple[int, Move | None]:
    """The exact value of ``position``, known to be at least ``floor`` (the played move's
    score), and a move reaching it when that is more (``None`` when the played move is best)."""
    p, o = position.sides()
    value = solver.search(p, o, floor, INFINITY)
    if value <= floor:
        return floor, None
    for move, no, np_ in children_of(position):
        if -solver.search(no, np_, -value - 1, -value + 1) == value:
            return value, move
    raise AssertionError("no move reaches the exact value of the position")  # the search is exact
