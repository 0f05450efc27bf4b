"""The coach's verdict on one of the learner's moves, in the review's words.

``verdict(before, played, language)`` analyses the position before the move (time-bound),
judges the move as the review does (``analysis.judge``), marks it by ``REVIEW_MARKS`` and
says, for a marked move, what it lost, the best move and (where ``reasons.why`` finds a
computed fact that stands out) why; an unmarked move is "good". The widget's wiring (the
``coach`` setting, the background job, Try again / Go on, the summary) is yet to come.
"""

from __future__ import annotations

from reversi_widget.analysis import REVIEW_MARKS, analyse, judge
from reversi_widget.board import Board
from reversi_widget.i18n import translate
from reversi_widget.move import Move
from reversi_widget.play.texts import discs_text
from reversi_widget.reasons import why

__all__ = ["verdict"]


def verdict(
    before: Board, played: Move, language: str, *, depth: int | None = None, time_limit: float | None = 1.0
) -> dict[str, object]:
    """The coach's verdict on ``played`` in ``before``: ``mark`` ("" for a good move),
    ``best``, ``loss`` (discs, to a tenth) and ``note``, the sentence shown."""
    analysis = analyse(before, depth=depth, time_limit=time_limit)
    top, mine, loss = judge(before, analysis, played)
    loss = round(loss, 1)
    mark = next((sign for least, sign in REVIEW_MARKS if loss >= least), "")
    if not mark:
        note = translate("coach_good", language)
    else:
        lost = discs_text(loss, mine.exact and top.exact).render(language)
        note = f"{mark} " + translate("review_loss", language, best=str(top.move), loss=lost)
        reason = why(before, played, top.move)
        if reason is not None:
            note = translate("review_reason", language, note=note, reason=reason.render(language))
    return {"mark": mark, "best": str(top.move), "loss": loss, "note": note}
