"""Mistakes before the solver reaches, found by a deeper search than the review's own.

Where the exact solver does not reach, ``estimated_results`` scores every legal move of a
position with a fixed-depth search (``analysis.analyse`` at ``depth``, full width, so the
pure and the compiled search give the same scores), rounded to whole discs. The deck makes a
card of the learner's move when it loses ``MISTAKE_LOSS`` discs or more against the best by
those scores; the card's puzzle keeps the depth, so it judges a try by the same search and
says so in every text (``Puzzle.depth``, ``ESTIMATE_MARGIN``).

``deeper_depth(size)`` is the depth the deck suggests, deeper than the review's own
``review_depth``: with the compiled search the depth the review checks a mark at
(``REVIEW_CHECK_PLIES`` deeper: 8 on 8x8, adding well under a second to a deck of three
8x8 games, where solving their ends takes some 20 seconds); in pure Python one ply deeper
only (5 on 8x8: some 25 seconds for the 72 earlier positions of three 8x8 games, where 6
took 95).
"""

from __future__ import annotations

from ..analysis import REVIEW_CHECK_PLIES, analyse, review_depth
from ..board import Board, Move
from ..puzzles.puzzle import MoveResult
from ..search.midgame import compiled_midgame_ready

__all__ = ["deeper_depth", "estimated_results"]


def deeper_depth(size: int) -> int:
    """The depth the deck suggests for earlier positions: the review's own depth plus the
    plies its marks are checked deeper with (compiled), or plus one (pure Python, where each
    ply costs some four times as much)."""
    return review_depth(size) + (REVIEW_CHECK_PLIES if compiled_midgame_ready(size) else 1)


def estimated_results(board: Board, depth: int) -> tuple[MoveResult, ...] | None:
    """Every legal move of ``board`` with its depth-``depth`` estimate in whole discs and the
    reply that search expects, best first; None when a reply is not known (a line cut short),
    so that no card says a reply its search did not find."""
    out = []
    for entry in analyse(board, depth).moves:
        after = board.copy(stack=False)
        after.push(entry.move)
        reply: Move | None
        if after.is_game_over():
            reply = None
        elif after.must_pass():
            reply = Move.null(board.size)
        elif len(entry.line) > 1 and entry.line[1] in after.legal_moves:
            reply = entry.line[1]
        else:
            return None
        out.append(MoveResult(entry.move, round(entry.score), reply))
    return tuple(sorted(out, key=lambda r: (-r.score, r.move.square or 0)))
