"""The coach's verdict on one of the learner's moves, and the summary of a coached game.

``verdict(before, played)`` analyses the position before the move within ``COACH_SECONDS``
(``analyse`` with a time limit: it deepens as far as the time allows and solves near the
end), judges the move as the review does (``analysis.judge``) and marks it by
``REVIEW_MARKS``. Within that time the review's deeper check of a marked move is left out:
the verdict is the timed analysis' own, so its losses say "about" unless the position was
solved; with a fixed ``depth`` and no time limit the check is made, as in the review. A
marked move carries why it lost where ``reasons.why`` finds a computed fact that stands out.

A ``Verdict`` and a ``Summary`` are values rendered in the widget's language when shown, so
they follow a change of language; ``play/coach.py`` runs them in a widget.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import analyse
from ..board import Board
from ..game_review import REVIEW_MARKS, judge
from ..move import Move
from ..progress import Progress
from ..reasons import MistakeReason, why
from ..search import StopSignal
from .texts import Text, discs_text

__all__ = ["COACH_SECONDS", "WORST_SHOWN", "Summary", "Verdict", "verdict"]

#: Seconds the coach thinks about a move (its analysis' time limit).
COACH_SECONDS = 1.0
#: How many of the worst mistakes the summary offers to replay.
WORST_SHOWN = 3


@dataclass(frozen=True)
class Verdict:
    """The coach's word on ``move``: ``mark`` ("" for a good move, else the review's "?!",
    "?" or "??"), the ``best`` move, the discs ``loss`` against it (to a tenth; ``exact``
    when both scores are solved) and, for a marked move, the computed ``reason`` if one
    stands out."""

    move: str
    best: str
    loss: float
    exact: bool
    mark: str
    reason: MistakeReason | None = None

    def render(self, language: str) -> str:
        """ "c4?! loses about 4 discs: the best was f5 — c4 leaves White 9 moves instead of 3"."""
        lost = discs_text(self.loss, self.exact)
        if not self.mark:
            key = "coach_best" if self.loss <= 0 or self.best == self.move else "coach_good"
            return Text(key, move=self.move, best=self.best, loss=lost).render(language)
        note = Text("coach_mistake", move=self.move, mark=self.mark, best=self.best, loss=lost)
        if self.reason is None:
            return note.render(language)
        return Text("review_reason", note=note, reason=self.reason.render(language)).render(language)


def verdict(
    before: Board,
    played: Move,
    *,
    depth: int | None = None,
    time_limit: float | None = COACH_SECONDS,
    progress: Progress | None = None,
    stop: StopSignal | None = None,
) -> Verdict:
    """The coach's verdict on ``played`` (a legal move, not a pass) in ``before``: analysed to
    ``depth`` and/or within ``time_limit`` seconds; ``stop.halt()`` ends it at once with
    ``SearchTimeout`` (the widget stops a verdict whose move was taken back)."""
    analysis = analyse(before, depth=depth, time_limit=time_limit, progress=progress, stop=stop)
    top, mine, loss = judge(before, analysis, played, check=time_limit is None, stop=stop)
    loss = round(loss, 1)
    mark = next((sign for least, sign in REVIEW_MARKS if loss >= least), "")
    reason = why(before, played, top.move) if mark else None
    return Verdict(str(played), str(top.move), loss, mine.exact and top.exact, mark, reason)


@dataclass(frozen=True)
class Summary:
    """A coached game at its end: the learner's moves ``kept`` in the game, how many the coach
    ``judged`` and marked as ``mistakes``, the moves ``taken_back`` with Try again, and the
    ``worst`` marked moves (up to ``WORST_SHOWN``, the largest loss first) as (ply after the
    move, its label in the move list, its verdict)."""

    kept: int
    judged: int
    mistakes: int
    taken_back: int
    worst: tuple[tuple[int, str, Verdict], ...]

    def render(self, language: str) -> str:
        """ "You kept 30 moves; the coach judged 30 of them and marked 4 as mistakes; you tried
        again 2 times.", with what to replay when there is a mistake."""
        parts = [
            Text("coach_summary_kept", count=self.kept),
            Text("coach_summary_judged", judged=self.judged, count=self.mistakes),
            Text("coach_summary_taken_back", count=self.taken_back),
        ]
        if self.worst:
            parts.append(Text("coach_summary_replay"))
        return " ".join(part.render(language) for part in parts)
