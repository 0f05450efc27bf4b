"""A deck of one's own mistakes, scheduled by spaced repetition.

``mistakes``: the learner's moves that lost 6 discs or more where the solver reaches, from a
``GameLog``, posed again as puzzles ("find a better move than the one you played") for the
widget's puzzle mode. ``sm2``: the SM-2 schedule, replayed from the tries the widget keeps in
the same log. ``estimated``: with ``from_log(depth=...)``, the mistakes before the solver
reaches, found by a deeper search than the review's own; their cards say they are estimates.
"""

from __future__ import annotations

from .estimated import deeper_depth, estimated_results
from .mistakes import MISTAKE_LOSS, Card, MistakeDeck, grade, learner_colors
from .sm2 import FIRST_INTERVAL, MIN_EASINESS, SECOND_INTERVAL, START_EASINESS, Sm2, review

__all__ = [
    "FIRST_INTERVAL",
    "MIN_EASINESS",
    "MISTAKE_LOSS",
    "SECOND_INTERVAL",
    "START_EASINESS",
    "Card",
    "MistakeDeck",
    "Sm2",
    "deeper_depth",
    "estimated_results",
    "grade",
    "learner_colors",
    "review",
]
