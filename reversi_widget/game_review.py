"""Game review: every move of a game judged against the best move of its position, by how
many discs of final margin it gave away.

A review analyses each position of the game (``analysis.analyse``), at a depth two plies short
of ``analyse``'s with the compiled search, and checks every estimated loss worth a mark deeper
(``judged``), to the end where a selective search can reach it in time. The last positions of
a game are solved exactly instead, from the end back: there the losses are proven and add up
(``review_totals``). Scores are disc margins for the side to move, as in ``analysis``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .analysis import Analysis, analyse, check_depth, default_depth, exact_empties, move_label
from .board import Board, Move
from .progress import Progress, notebook_progress
from .search import SearchTimeout, StopSignal, check_time_limit, paused_gc, score_to_margin
from .search.endgame import compiled_endgame_ready, make_endgame
from .search.midgame import compiled_midgame_ready, make_midgame
from .search.root import MoveAnalysis, children_of, end_window_search, midgame_entries, moves_of, value_above
from .squares import BLACK, COLOR_NAMES, WHITE, Color

__all__ = [
    "REVIEW_CHECK_PLIES",
    "REVIEW_DEPTH_COMPILED_8X8",
    "REVIEW_END_EMPTIES",
    "REVIEW_END_SECONDS",
    "REVIEW_END_SELECTIVITY",
    "REVIEW_EXACT_PLIES",
    "REVIEW_EXTRA_SECONDS",
    "REVIEW_MARKS",
    "MoveReview",
    "ReviewTotals",
    "evaluations",
    "judge",
    "judged",
    "review",
    "review_depth",
    "review_mark",
    "review_totals",
]

#: ``review`` solves the positions of a game's last this many plies exactly (with the
#: compiled solver), even where ``analyse`` would only estimate them...
REVIEW_EXACT_PLIES = 20
#: ... giving each such position at most this many seconds (without a time limit).
REVIEW_EXTRA_SECONDS = 3.0
#: The review's marks by the discs a move gave away, largest first.
REVIEW_MARKS = ((12.0, "??"), (6.0, "?"), (2.0, "?!"))
#: At the review's own depth, an estimated loss worth a mark is searched again this many
#: plies deeper (the played move and the best one only) before it is charged: differences of
#: two estimates are noisy, and a mark tells a learner the move was a mistake.
REVIEW_CHECK_PLIES = 2
#: The depth ``review`` estimates the positions of an 8x8 game at with the compiled search:
#: two plies short of ``analyse``'s, so that a 60-70-ply game is reviewed in a few seconds
#: (``benchmarks/review.py``); its marks are checked two plies deeper, at ``analyse``'s depth.
REVIEW_DEPTH_COMPILED_8X8 = 6
#: With ``check``, a position that is not solved exactly but has at most this many empty
#: squares has its played and best move searched to the end by a selective search (where
#: one is calibrated: 8x8 classic) before the verdict: there two estimates at a depth
#: disagree with the exact scores on one mark in three, the search to the end on fewer than
#: one in six (``benchmarks/review_marks.py``)...
REVIEW_END_EMPTIES = 22
#: ... at this selectivity (``native.midgame.SELECTIVITY_T``: a cut needs the deep score
#: 1.5 spreads beyond the window, about 87% sure) ...
REVIEW_END_SELECTIVITY = 1
#: ... within this many seconds for the position; past them the check falls back to the
#: search ``REVIEW_CHECK_PLIES`` deeper.
REVIEW_END_SECONDS = 1.0


def review_depth(size: int) -> int:
    """The depth ``review`` estimates a position at: ``REVIEW_DEPTH_COMPILED_8X8`` on 8x8 with
    the compiled search (a review analyses every position of a game), else ``default_depth``."""
    if size == 8 and compiled_midgame_ready(size):
        return REVIEW_DEPTH_COMPILED_8X8
    return default_depth(size)


@dataclass(frozen=True)
class MoveReview:
    """One played move of a game, judged against the best move of its position.

    ``loss`` is how many discs of final margin the played move gave away by the analysis
    (0 for the best move, a pass or a placement); ``forced`` marks passes, placements of the
    free start and positions with a single legal move. ``exact`` says the scores, and so the
    loss, are proven final margins under perfect play rather than the analysis' estimates;
    ``bound`` that the played move is a proven win or loss whose margin ``played_score``
    only bounds (see ``MoveAnalysis.bound``). ``analysis`` is the analysis of the position
    before the move that the verdict was read from, deeper checks included (None where the
    end was solved move by move, and for forced moves): the scores overlay shows it there,
    so that a mark and the scores on the board cannot disagree."""

    ply: int
    color: Color
    played: Move
    best: Move
    played_score: float
    best_score: float
    loss: float
    exact: bool
    forced: bool
    bound: bool = False
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """The move as the move list names it: ``"21... d2"``."""
        return move_label(self.ply, self.played)

    def __str__(self) -> str:
        who = COLOR_NAMES[self.color]
        number, move = self.label.split(" ")
        if self.forced:
            return f"{number} {who} {move} (forced)"
        how = "exact" if self.exact else "proven" if self.bound else "estimate"
        score = (
            f"{'>=' if self.played_score > 0 else '<='}{self.played_score:+g}"
            if self.bound
            else f"{self.played_score:+g}"
        )
        verdict = "best" if self.loss <= 0 else f"loses {self.loss:g} (best {self.best} {self.best_score:+g})"
        return f"{number} {who} {move} {score} {how}: {verdict}"


def review(
    game_or_board: object,
    depth: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    *,
    show_progress: bool = False,
    stop: StopSignal | None = None,
) -> list[MoveReview]:
    """Review every move of a game (a ``Game`` or a ``Board`` with its move stack): the best
    move of each position, the played move's score and the discs it lost. ``depth`` and
    ``time_limit`` apply to each position as in ``analyse``; without them the review
    estimates at ``review_depth`` (two plies short of ``analyse`` on 8x8 with the compiled
    search) and checks every estimated loss worth a mark two plies deeper (``judge``).

    The end of the game is solved exactly, from the last position back (each position's
    value bounds the one before, and the solver's table carries over), wherever ``analyse``
    would solve exactly, and for the last ``REVIEW_EXACT_PLIES`` plies with the compiled
    solver. There a move that keeps the best result is never charged a loss, and the losses
    add up: each side's minus the other's is what it lost on the board from there on. Before
    that the scores are estimates (in real discs on 8x8 with the learned evaluation, and never
    beyond the board's widest margin: ``within_board``) or bounds, and a proven win is never
    charged against another proven win unless both margins are exact (a depth-limited search
    proves a win but only a lower bound of its margin: see ``MoveAnalysis.bound``). An
    estimated loss is the difference of two estimates in one position: estimated losses of
    different positions do not add up to anything the game allows, and ``review_totals``
    does not add them.
    ``progress(fraction, message)`` is called after every move reviewed, the exact ones
    first (from the end back), naming the move as the move list does.
    ``stop.halt()``, from another thread, ends it at once with ``SearchTimeout``.
    """
    from .game import Game

    if isinstance(game_or_board, Game):
        board = game_or_board.board()
    elif isinstance(game_or_board, Board):
        board = game_or_board
    else:
        raise TypeError(f"review needs a Game or a Board, got {type(game_or_board).__name__}")
    check_depth(depth)
    check_time_limit(time_limit)
    if progress is None and show_progress:
        progress = notebook_progress("Reviewing")
    played_moves = list(board.move_stack)
    positions = [board.root()]
    for move in played_moves:
        following = positions[-1].copy(stack=False)
        following.push(move)
        positions.append(following)
    done = 0

    def reviewed(ply: int) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            label = move_label(ply, played_moves[ply - 1])
            progress(done / len(played_moves), f"reviewed {label} ({done} of {len(played_moves)} moves)")

    signal = StopSignal() if stop is None else stop
    # A depth or a time limit given is the judgement asked for: no deeper check then.
    check = depth is None and time_limit is None
    values = _exact_values(positions, played_moves, depth, time_limit, reviewed, signal)
    reviews: list[MoveReview] = []
    for index, played in enumerate(played_moves):
        ply = index + 1
        position = positions[index]
        color = position.turn
        forced = not played or position.in_placement() or len(position.legal_moves) == 1
        if index in values:
            value, best_move = values[index]
            score = float(-values[index + 1][0])
            best = played if best_move is None else best_move
            reviews.append(MoveReview(ply, color, played, best, score, float(value), value - score, True, forced))
            continue
        if forced:
            reviews.append(MoveReview(ply, color, played, played, 0.0, 0.0, 0.0, False, True))
        else:
            solved = depth is None and position.empty_count() <= exact_empties(position.size, time_limit is not None)
            at = depth if depth is not None or solved else review_depth(position.size)
            analysis = judged(
                position, analyse(position, at, time_limit, stop=signal), played, check=check, stop=signal
            )
            top, mine = analysis.best, analysis[played]
            loss = _loss(top, mine)
            best = played if loss == 0 else top.move
            best_score = mine.score if loss == 0 else top.score
            exact = mine.exact and top.exact
            entry = MoveReview(
                ply, color, played, best, mine.score, best_score, loss, exact, False, mine.bound, analysis
            )
            reviews.append(entry)
        reviewed(ply)
    return reviews


def judge(
    position: Board, analysis: Analysis, played: Move, *, check: bool = True, stop: StopSignal | None = None
) -> tuple[MoveAnalysis, MoveAnalysis, float]:
    """The review's verdict on ``played`` in ``position`` from its ``analysis``: the best
    move's entry, the played move's, and the discs it gave away, as ``judged`` reads them."""
    verdict = judged(position, analysis, played, check=check, stop=stop)
    top, mine = verdict.best, verdict[played]
    return top, mine, _loss(top, mine)


def judged(
    position: Board, analysis: Analysis, played: Move, *, check: bool = True, stop: StopSignal | None = None
) -> Analysis:
    """The analysis a review's verdict on ``played`` is read from: ``analysis`` itself, or
    with ``check``, where the played move estimates a loss worth a mark, that analysis with
    the played and the best move searched again ``REVIEW_CHECK_PLIES`` deeper, and again
    the best of the others while one of them ranks above both (so the move it calls best
    is always one searched deeper). The best move of the result, its played move's entry and
    the loss between them are the verdict; shown as the scores overlay, it agrees with the
    mark. An analysis of another position is refused."""
    rules = position.rules
    if (analysis.position, analysis.turn, analysis.goal, analysis.scoring) != (
        position.to_string(),
        position.turn,
        rules.goal,
        rules.scoring,
    ):
        raise ValueError(
            "judge needs the analysis of the position it judges: this one is of "
            f"{analysis.position!r} ({COLOR_NAMES[analysis.turn]} to move, {analysis.goal}, {analysis.scoring}), "
            f"not {position.to_string()!r} ({COLOR_NAMES[position.turn]} to move, {rules.goal}, {rules.scoring})"
        )
    top, mine = analysis.best, analysis[played]
    if not check or (mine.exact and top.exact):
        return analysis
    signal = StopSignal() if stop is None else stop
    if _ends_checkable(position):
        ended = _end_checked(position, analysis, played, signal)
        if ended is not None:
            return ended
    if _loss(top, mine) < REVIEW_MARKS[-1][0]:
        return analysis
    deeper = analysis.depth + REVIEW_CHECK_PLIES
    entries = {entry.move: entry for entry in analysis.moves}
    checked: set[Move] = set()
    ranked = list(analysis.moves)
    while top.move not in checked:
        wanted = tuple(move for move in (top.move, mine.move) if move not in checked)
        with paused_gc():
            found, _reached, _nodes = midgame_entries(position, deeper, None, None, signal, wanted)
        for entry in found:
            entries[entry.move] = entry
            checked.add(entry.move)
        ranked = sorted(entries.values(), key=lambda e: -e.rank)
        top, mine = ranked[0], entries[played]
    return replace(analysis, moves=tuple(ranked))


def _ends_checkable(position: Board) -> bool:
    """Whether ``judged`` searches this position's moves to the end (``REVIEW_END_EMPTIES``):
    only where the compiled search can cut probably; a full-width one would not finish."""
    rules = position.rules
    return (
        position.empty_count() <= REVIEW_END_EMPTIES
        and compiled_midgame_ready(position.size)
        and make_midgame(position.size, rules.goal, rules.scoring).selective
    )


def _end_checked(position: Board, analysis: Analysis, played: Move, stop: StopSignal) -> Analysis | None:
    """``analysis`` with the played and the best move (the runner-up, where the played move
    is best) searched to the end by a selective search, and again the best of the others
    while one of them ranks above both; None past ``REVIEW_END_SECONDS``. Its scores are
    final margins: exact where no probable cut touched any of them, else estimates (then
    every margin searched to the end is one, so that they compare with each other by their
    margins, and with the rest by their scores)."""
    rules = position.rules
    search = make_midgame(position.size, rules.goal, rules.scoring)
    search.stop = stop
    search.selectivity = REVIEW_END_SELECTIVITY
    depth = position.empty_count() - 1
    children = {move: (no, np_) for move, no, np_ in children_of(position)}
    moves = position.geometry.moves
    entries = {entry.move: entry for entry in analysis.moves}
    ended: dict[Move, tuple[float, tuple[Move, ...]]] = {}
    certain = True
    top = analysis.best
    ranked = list(analysis.moves)
    stop.set_deadline(time.perf_counter() + REVIEW_END_SECONDS)
    try:
        with paused_gc():
            while top.move not in ended:
                # The best move played is weighed against the runner-up: an estimate that
                # ranks it first may be wrong, and the mistake is what a review is for.
                rival = top.move if top.move != played else next(iter(ranked[1:2]), top).move
                for move in dict.fromkeys((rival, played)):
                    if move in ended:
                        continue
                    no, np_ = children[move]
                    search.certain_since()
                    score = end_window_search(search, no, np_, depth, moves(no, np_), entries[move].score)
                    certain = certain and search.certain
                    line = (move, *moves_of(search.principal_line(no, np_, depth), position.size))
                    # A probable cut inside a null window returns a margin's bound, a hair off it.
                    ended[move] = (float(round(score_to_margin(score)[0])), line)
                    for each, (margin, each_line) in ended.items():
                        entries[each] = MoveAnalysis(each, margin, certain, each_line, depth + 1)
                ranked = sorted(entries.values(), key=lambda e: -e.rank)
                top = ranked[0]
    except SearchTimeout:
        if stop.halted:
            raise
        return None
    finally:
        stop.set_deadline(None)
    return replace(analysis, moves=tuple(ranked), nodes=analysis.nodes + search.take_nodes())


def _loss(top: MoveAnalysis, mine: MoveAnalysis) -> float:
    """The discs ``mine`` gives away against ``top``, by their scores: none where it ranks as
    high, or where both are proven wins and a margin is only a bound (which is larger is
    not known)."""
    both_won = mine.result == top.result == "win" and not (mine.exact and top.exact)
    return 0.0 if mine.rank >= top.rank or both_won else max(0.0, top.score - mine.score)


def _exact_values(
    positions: list[Board],
    played_moves: list[Move],
    depth: int | None,
    time_limit: float | None,
    reviewed: Callable[[int], None],
    stop: StopSignal,
) -> dict[int, tuple[int, Move | None]]:
    """The exact value of the positions at the end of a game, for the side to move in each,
    with a best move where the played one is not (``None`` where it is): by index into
    ``positions``, from the last one back to the first that is not to be solved or does not
    finish in time. The played move's score in position ``i`` is minus the value of ``i + 1``.
    """
    values: dict[int, tuple[int, Move | None]] = {}
    last = positions[-1]
    if not last.is_game_over():
        return values  # an unfinished line: nothing to start the chain from
    first = last.rules
    solver = make_endgame(last.size, first.goal, first.scoring, stop)
    p, o = last.sides()
    values[len(positions) - 1] = (solver.final(p, o), None)
    plies = len(played_moves)
    try:
        with paused_gc():
            for index in range(plies - 1, -1, -1):
                position = positions[index]
                if not _solve_in_review(position, plies - index, depth, time_limit):
                    break
                floor = -values[index + 1][0]  # the played move's exact score
                played = played_moves[index]
                if not played or position.in_placement() or len(position.legal_moves) == 1:
                    values[index] = (floor, None)
                else:
                    budget = _review_budget(position, time_limit)
                    solver.deadline = None if budget is None else time.perf_counter() + budget
                    try:
                        value, best = value_above(solver, position, floor)
                    except SearchTimeout:
                        if stop.halted:
                            raise
                        break
                    values[index] = (value, best)
                reviewed(index + 1)
    finally:
        solver.deadline = None
    return values


def _solve_in_review(position: Board, plies_left: int, depth: int | None, time_limit: float | None) -> bool:
    """Whether ``review`` solves this position, ``plies_left`` before the end, exactly."""
    empties = position.empty_count()
    if depth is not None:
        return depth >= empties
    if empties <= exact_empties(position.size, time_limit is not None):
        return True
    return plies_left <= REVIEW_EXACT_PLIES and compiled_endgame_ready(position.size)


def _review_budget(position: Board, time_limit: float | None) -> float | None:
    """Seconds for solving one position of a review: the time limit, else none where
    ``analyse`` would solve it, else ``REVIEW_EXTRA_SECONDS``."""
    if time_limit is not None:
        return time_limit
    if position.empty_count() <= exact_empties(position.size, False):
        return None
    return REVIEW_EXTRA_SECONDS


def review_mark(entry: MoveReview) -> str:
    """The mark of a reviewed move (``REVIEW_MARKS``, by its loss to a tenth of a disc), or
    ``""``: none for a move that lost less, or was forced."""
    loss = round(entry.loss, 1)
    return "" if entry.forced else next((sign for least, sign in REVIEW_MARKS if loss >= least), "")


@dataclass(frozen=True)
class ReviewTotals:
    """What a review can add up. Where every score is exact (from the move of ply
    ``exact_from`` to the end; None when no move is), each side's losses are proven and add
    up: ``exact_loss[BLACK] - exact_loss[WHITE]`` is what Black lost on the board over that
    stretch, from the value of its first position to the final margin. Before it a loss is
    the difference of two estimates of one position, and estimates of different positions
    do not add up to anything the game allows: they are counted as marked moves per side
    (``marked``), not summed."""

    exact_from: int | None
    exact_loss: dict[Color, float]
    marked: dict[Color, int]


def review_totals(reviews: list[MoveReview]) -> ReviewTotals:
    """The totals of a review (see ``ReviewTotals``)."""
    scored = [entry for entry in reviews if not entry.forced]
    estimated = [entry.ply for entry in scored if not entry.exact]
    last_estimate = estimated[-1] if estimated else 0
    exact_from = next((entry.ply for entry in scored if entry.ply > last_estimate), None)
    exact_loss = {BLACK: 0.0, WHITE: 0.0}
    marked = {BLACK: 0, WHITE: 0}
    for entry in scored:
        if exact_from is not None and entry.ply >= exact_from:
            exact_loss[entry.color] += entry.loss
        elif review_mark(entry):
            marked[entry.color] += 1
    return ReviewTotals(exact_from, exact_loss, marked)


def evaluations(reviews: list[MoveReview]) -> list[float]:
    """The evaluation of every position of a reviewed line, from Black's point of view
    (positive: Black is ahead): the start, then after each move.

    A position has two readings: the score of the move that led to it, as the analysis of
    the position before saw it, and the score of its own best move. An estimate favours the
    side its search ended with to move, which is the mover's opponent in one reading and
    the mover in the other, so each reading alone zig-zags from move to move; their mean
    is one steady point of view. An exact reading, where there is one, is the value. A
    forced move (a pass, a single legal move, a placement) has no reading of its own and
    keeps the value before it."""

    def for_black(entry: MoveReview, score: float) -> float:
        return score if entry.color == BLACK else -score

    readings: list[list[tuple[float, bool]]] = [[] for _ in range(len(reviews) + 1)]
    for index, entry in enumerate(reviews):
        if not entry.forced:
            readings[index].append((for_black(entry, entry.best_score), entry.exact))
            readings[index + 1].append((for_black(entry, entry.played_score), entry.exact))
    first = next((reading for reading in readings if reading), [(0.0, False)])
    current = first[0][0]
    values = []
    for seen in readings:
        exact = [value for value, proven in seen if proven]
        if exact or seen:
            current = exact[0] if exact else sum(value for value, _ in seen) / len(seen)
        values.append(round(current, 2))
    return values
