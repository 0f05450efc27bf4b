"""Deadlines for compiled searches, which cannot read a clock: one background thread writes
a value into a search's stop flag (``flag[0]``) when its deadline passes.

``arm(flag, deadline)`` returns a token, ``disarm(token)`` cancels it; both are cheap, so a
search can arm one per call. Nothing here imports numba: a flag is any mutable sequence.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Protocol

#: What the alarm writes into a flag whose deadline has passed (a stop request writes 1).
DEADLINE = 2


class Flag(Protocol):
    """A search's stop flag: ``flag[0]`` is 0 while it may run (a one-element numpy array)."""

    def __getitem__(self, index: int, /) -> object: ...

    def __setitem__(self, index: int, value: int, /) -> None: ...


class _Alarm:
    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.pending: list[tuple[float, int, Flag]] = []  # a heap, soonest first
        self.armed: set[int] = set()  # tokens neither rung nor cancelled
        self.tokens = itertools.count()
        self.thread: threading.Thread | None = None

    def arm(self, flag: Flag, deadline: float) -> int:
        with self.condition:
            token = next(self.tokens)
            heapq.heappush(self.pending, (deadline, token, flag))
            self.armed.add(token)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="reversi-widget-alarm", daemon=True)
                self.thread.start()
            self.condition.notify()
            return token

    def disarm(self, token: int) -> None:
        with self.condition:
            self.armed.discard(token)

    def _run(self) -> None:
        with self.condition:
            while True:
                if not self.pending:
                    self.condition.wait()
                    continue
                deadline, token, flag = self.pending[0]
                if token not in self.armed:  # cancelled
                    heapq.heappop(self.pending)
                    continue
                delay = deadline - time.perf_counter()
                if delay > 0:
                    self.condition.wait(delay)
                    continue
                heapq.heappop(self.pending)
                self.armed.discard(token)
                if not flag[0]:  # a stop request already there stays what it is
                    flag[0] = DEADLINE


_alarm = _Alarm()


def arm(flag: Flag, deadline: float) -> int:
    """Write ``DEADLINE`` into ``flag[0]`` once ``time.perf_counter()`` passes ``deadline``
    (unless the flag is already set); returns a token for ``disarm``."""
    return _alarm.arm(flag, deadline)


def disarm(token: int) -> None:
    """Cancel an alarm that has not rung yet (harmless if it has)."""
    _alarm.disarm(token)
