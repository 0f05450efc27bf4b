"""The alarm that stops compiled searches at their deadline (no numba needed: a flag is a list)."""

from __future__ import annotations

import time
from collections.abc import Callable

from reversi_widget.native import alarm


def wait_for(condition: Callable[[], object], seconds: float = 10.0) -> None:
    until = time.perf_counter() + seconds
    while not condition() and time.perf_counter() < until:
        time.sleep(0.01)


def test_rings_at_the_deadline_and_not_before() -> None:
    early, late = [0], [0]
    alarm.arm(early, time.perf_counter() + 0.05)
    alarm.arm(late, time.perf_counter() + 30)
    wait_for(lambda: early[0])
    assert early == [alarm.DEADLINE] and late == [0]


def test_disarmed_alarms_stay_silent() -> None:
    flags = [[0] for _ in range(50)]
    tokens = [alarm.arm(flag, time.perf_counter() + 0.05) for flag in flags]
    for token in tokens:
        alarm.disarm(token)
    marker = [0]
    alarm.arm(marker, time.perf_counter() + 0.1)  # rings after all the cancelled deadlines
    wait_for(lambda: marker[0])
    assert marker == [alarm.DEADLINE] and all(flag == [0] for flag in flags)
    alarm.disarm(tokens[0])  # harmless after the fact


def test_a_stop_request_is_not_overwritten() -> None:
    stopped, other = [1], [0]
    alarm.arm(stopped, time.perf_counter() + 0.02)
    alarm.arm(other, time.perf_counter() + 0.05)
    wait_for(lambda: other[0])
    assert stopped == [1]
