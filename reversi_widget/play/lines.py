"""The best line: the moves the analysis expects after a move, as the views draw them.

A hint and each scored square carry their move's principal variation (``MoveAnalysis.line``,
the move itself first) as square names with whose move each is, a pass as ``"pass"``, and
a sentence in the language saying the line and how far it is proven (js/PROTOCOL.md,
``lines``). In a review, the move that led to the position shown carries its best line
beside the moves that were played instead (``review_here``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis import Analysis
from ..board import Board, Move
from ..errors import ReversiError
from ..game_review import MoveReview, review_mark
from ..i18n import translate
from ..search.root import MoveAnalysis
from .texts import COLOR_KEY

__all__ = ["line_entry", "line_note", "lines_picture", "marked_lines", "review_lines"]


def replay(board: Board, line: Sequence[Move]) -> tuple[list[str], list[str]]:
    """The squares of ``line`` from ``board`` ("pass" for a pass) and whose move each is,
    as far as it replays legally (the analysis' lines always do)."""
    probe = board.copy(stack=False)
    names: list[str] = []
    colors: list[str] = []
    for move in line:
        color = COLOR_KEY[probe.turn]
        try:
            probe.push(move)
        except ReversiError:
            break
        names.append(str(move) if move else "pass")
        colors.append(color)
    return names, colors


def moves_text(names: Sequence[str], language: str) -> str:
    """``"f5 d6 c3"``, a pass named in the language."""
    return " ".join(translate("pass_move", language) if name == "pass" else name for name in names)


def line_note(entry: MoveAnalysis, language: str) -> str:
    """How far the line is proven: exact to the end, a proven win or loss found at a depth,
    or an estimate at a depth."""
    if entry.exact:
        return translate("line_exact", language)
    if entry.bound:
        key = "line_bound_win" if entry.score > 0 else "line_bound_loss"
        return translate(key, language, depth=entry.depth)
    return translate("line_estimate", language, depth=entry.depth)


def line_entry(board: Board, entry: MoveAnalysis, language: str) -> dict[str, object]:
    """One move's line as the views get it: ``line``, ``colors``, ``note`` and ``text``."""
    names, colors = replay(board, entry.line or (entry.move,))
    note = line_note(entry, language)
    text = translate("line_text", language, moves=moves_text(names, language), note=note)
    return {"line": names, "colors": colors, "note": note, "text": text}


def lines_picture(board: Board, analysis: Analysis, squares: Sequence[str], language: str) -> dict[str, object]:
    """The lines of the moves on ``squares`` (the hinted and the scored ones), by square."""
    wanted = set(squares)
    return {str(e.move): line_entry(board, e, language) for e in analysis.moves if e.move and str(e.move) in wanted}


def review_lines(entry: MoveReview, played: Sequence[Move], before: Board, language: str) -> dict[str, object]:
    """The best line of a reviewed move (from the analysis its verdict was read from) and as
    many of the moves played from the same position (``played``, the reviewed move first),
    for ``review_here``; empty where the review kept no analysis (a position it solved move
    by move) or the best move has no line."""
    if entry.analysis is None:
        return {}
    try:
        best = entry.analysis[entry.best]
    except KeyError:
        return {}
    names, colors = replay(before, best.line or (best.move,))
    if not names:
        return {}
    played_names, _ = replay(before, list(played)[: len(names)])
    text = translate(
        "review_lines",
        language,
        best=moves_text(names, language),
        played=moves_text(played_names, language),
        note=line_note(best, language),
    )
    return {"line": names, "line_colors": colors, "played_line": played_names, "lines_note": text}


def marked_lines(board: Board, line: Sequence[Move], reviews: Sequence[MoveReview], language: str) -> dict[int, str]:
    """For each marked move of a reviewed line (by its index in ``line``), its best line beside
    the moves played, in words (``review_lines``): the move list's tooltips. ``board`` is any
    position of the line; the line is replayed from its start up to the last marked move."""
    marked = {i for i, entry in enumerate(reviews[: len(line)]) if entry.analysis is not None and review_mark(entry)}
    out: dict[int, str] = {}
    probe = board.root()
    for i in range(max(marked, default=-1) + 1):
        if i in marked:
            found = review_lines(reviews[i], line[i:], probe, language)
            if found:
                out[i] = str(found["lines_note"])
        probe.push(line[i])
    return out
