"""SM-2: when to see a card again, from how well it was recalled each time.

SM-2 is the spaced-repetition algorithm Piotr Woźniak published for SuperMemo 2 in 1987 and
described in his 1990 thesis, "Optimization of learning" (University of Technology in
Poznań); the description followed here is the public one, "Application of a computer to
improve the results obtained in working with the SuperMemo method" (super-memory.com,
``english/ol/sm2.htm``). Its steps, as implemented:

1. Each card starts with an easiness factor (E-Factor) of 2.5 and no repetition.
2. After a repetition the learner's answer gets a grade ``q`` from 0 to 5 (5: perfect; 3:
   correct with difficulty; below 3: wrong).
3. The E-Factor becomes ``EF + (0.1 - (5 - q) * (0.08 + (5 - q) * 0.02))``, never below 1.3.
4. With ``q >= 3`` the intervals are 1 day after the first repetition, 6 days after the second,
   and the previous interval times the E-Factor (as it was before this grade) after each later
   one, rounded up to whole days.
5. With ``q < 3`` the repetitions start again from the first interval (1 day); the E-Factor
   is kept (as changed by step 3), not reset.
6. Within a day, a card graded below 4 is repeated again until it is graded 4 or 5; these
   repeats of the same day change neither the E-Factor nor the interval.

The schedule is a plain value (``Sm2``); ``review`` returns the next one, so a card's schedule
is the replay of its grades in order, and anything that keeps the grades (the game log of
``reversi_widget.deck``) keeps the schedule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import date, timedelta

from ..errors import ReversiError

__all__ = ["FIRST_INTERVAL", "MIN_EASINESS", "SECOND_INTERVAL", "START_EASINESS", "Sm2", "review"]

START_EASINESS = 2.5
MIN_EASINESS = 1.3
FIRST_INTERVAL = 1
SECOND_INTERVAL = 6


@dataclass(frozen=True)
class Sm2:
    """A card's schedule: ``repetitions`` recalled in a row (grade 3 or more), the last
    ``interval`` in days, the ``easiness`` (E-Factor), the day it was last graded (``last``)
    and the day it is ``due`` (None: new, due at once); ``again``: graded below 4 on ``last``,
    so it is repeated that same day (step 6)."""

    repetitions: int = 0
    interval: int = 0
    easiness: float = START_EASINESS
    last: date | None = None
    due: date | None = None
    again: bool = False

    def is_due(self, day: date) -> bool:
        """To be repeated on ``day``: new, its day has come, or to be repeated again that day."""
        if self.due is None:
            return True
        return self.due <= day or (self.again and self.last == day)


def review(schedule: Sm2, quality: int, day: date) -> Sm2:
    """The schedule after a repetition on ``day`` graded ``quality`` (0 to 5).

    A first grade on a day is a repetition (steps 3 to 5); another on the same day only says
    whether the card is to be repeated again that day (step 6). A day before the last one
    graded is refused: grades are replayed in order."""
    if isinstance(quality, bool) or not isinstance(quality, int) or not 0 <= quality <= 5:
        raise ReversiError(f"an SM-2 grade is a whole number from 0 to 5, got {quality!r:.20}")
    if not isinstance(day, date):
        raise ReversiError(f"day must be a datetime.date, got {day!r:.40}")
    if schedule.last is not None and day < schedule.last:
        raise ReversiError(f"grades are replayed in order: {day} is before the last one, {schedule.last}")
    if schedule.last == day:
        return replace(schedule, again=schedule.again and quality < 4)
    easiness = max(MIN_EASINESS, schedule.easiness + 0.1 - (5 - quality) * (0.08 + (5 - quality) * 0.02))
    if quality < 3:
        repetitions, interval = 0, FIRST_INTERVAL
    else:
        repetitions = schedule.repetitions + 1
        if repetitions == 1:
            interval = FIRST_INTERVAL
        elif repetitions == 2:
            interval = SECOND_INTERVAL
        else:
            # the E-Factor the card had, before this grade changes it; a product of floats a hair above a
            # whole day is that day
            interval = math.ceil(schedule.interval * schedule.easiness - 1e-9)
    return Sm2(repetitions, interval, easiness, day, day + timedelta(days=interval), quality < 4)
