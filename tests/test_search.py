"""The search skeleton every search shares: root PVS, the table's bounds, stopping, scores."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reversi_widget import search
from reversi_widget.search import (
    CLOCK_EVERY,
    DEADLINE,
    HALTED,
    INFINITY,
    WIN,
    RootInterrupted,
    SearchTimeout,
    StopSignal,
    bounds,
    exact_score,
    probe,
    root_search,
    score_to_margin,
)

scores = st.integers(min_value=-50, max_value=50)


def fail_soft(true_value: int, slack: int) -> object:
    """A child search that knows its exact value and answers like a fail-soft alpha-beta:
    the value inside the window, else a bound up to ``slack`` beyond the window's edge."""

    calls: list[tuple[int, int]] = []

    def value(alpha: int, beta: int) -> int:
        calls.append((alpha, beta))
        if true_value <= alpha:
            return max(true_value, alpha - slack)
        if true_value >= beta:
            return min(true_value, beta + slack)
        return true_value

    return value


@given(st.lists(scores, min_size=1, max_size=12), st.integers(0, 3))
def test_root_search_finds_the_best_move_and_all_ties(values: list[int], slack: int) -> None:
    children = {sq: fail_soft(v, slack) for sq, v in enumerate(values)}

    def value(sq: int, alpha: int, beta: int) -> int:
        return children[sq](alpha, beta)  # type: ignore[operator, no-any-return]

    squares = list(range(len(values)))
    best, best_squares, _ = root_search(squares, value)
    assert best == max(values) and values[best_squares[0]] == best
    best, best_squares, _ = root_search(squares, value, ties=True)
    assert best == max(values)
    assert best_squares == [sq for sq, v in enumerate(values) if v == best]
    best, best_squares, found = root_search(squares, value, full_window=True)
    assert found == dict(enumerate(values)) and best == max(values)


def test_root_search_with_noise_compares_noisy_exact_scores() -> None:
    values = [10, 12, 11]
    noise = {0: 5, 1: -4, 2: 0}
    best, best_squares, found = root_search(
        [0, 1, 2], lambda sq, a, b: values[sq], full_window=True, bonus=noise.__getitem__
    )
    assert (best, best_squares) == (15, [0])
    assert found == {0: 15, 1: 8, 2: 11}


def test_an_interrupted_root_search_keeps_the_best_move_finished() -> None:
    def value(sq: int, alpha: int, beta: int) -> int:
        if sq == 3:
            raise SearchTimeout
        return [5, 9, 7][sq]

    with pytest.raises(RootInterrupted) as stopped:
        root_search([0, 1, 2, 3], value, full_window=True)
    assert (stopped.value.square, stopped.value.score) == (1, 9)
    with pytest.raises(RootInterrupted) as at_once:
        root_search([3, 0], value)
    assert at_once.value.square is None


@given(scores, scores, st.integers(1, 20), scores, st.integers(1, 20), st.integers(0, 3))
def test_table_bounds_and_probes_keep_fail_soft_results_valid(
    true_value: int, alpha: int, width: int, alpha2: int, width2: int, slack: int
) -> None:
    # A search with window (alpha, beta) returned a fail-soft result; store what it proves.
    beta = alpha + width
    best = fail_soft(true_value, slack)(alpha, beta)  # type: ignore[operator]
    lower, upper = bounds(best, alpha, beta)
    assert lower <= true_value <= upper
    # A later visit with another window: a value the entry decides must be a valid fail-soft
    # result there; otherwise the window only shrinks towards the bounds.
    beta2 = alpha2 + width2
    value, narrowed_alpha, narrowed_beta = probe(lower, upper, alpha2, beta2)
    if value != -INFINITY:
        assert (
            (value <= alpha2 and true_value <= value)
            or (value >= beta2 and true_value >= value)
            or (value == true_value)
        )
    else:
        assert (narrowed_alpha, narrowed_beta) == (max(alpha2, lower), min(beta2, upper))
        assert narrowed_alpha < narrowed_beta


def test_score_scale_round_trips() -> None:
    for margin in (-64, -1, 0, 1, 64):
        assert score_to_margin(exact_score(margin)) == (margin, margin != 0)
    assert exact_score(1) > WIN > 0
    assert score_to_margin(-250) == (-2.5, False)
    assert exact_score(16 * 16) < INFINITY


def wait_for(condition: Callable[[], object], seconds: float = 10.0) -> None:
    until = time.perf_counter() + seconds
    while not condition() and time.perf_counter() < until:
        time.sleep(0.01)


def test_stop_signal_halt_deadline_and_clear() -> None:
    signal = StopSignal()
    assert not signal.expired() and signal.flag[0] == 0
    signal.halt()
    assert signal.expired() and signal.flag[0] == HALTED
    signal.set_deadline(time.perf_counter() + 60)  # a new deadline keeps the halt
    assert signal.expired() and signal.flag[0] == HALTED
    signal.clear()
    assert not signal.expired() and signal.flag[0] == 0
    signal.set_deadline(time.perf_counter() + 0.05)
    assert not signal.expired()
    wait_for(lambda: signal.flag[0])
    assert signal.expired() and signal.flag[0] == DEADLINE  # the alarm wrote what kernels poll
    signal.set_deadline(None)
    assert not signal.expired() and signal.flag[0] == 0
    signal.set_deadline(time.perf_counter() + 0.05)
    signal.clear()
    time.sleep(0.15)
    assert not signal.expired() and signal.flag[0] == 0


def test_the_alarm_rings_each_deadline_and_no_cancelled_one() -> None:
    early, late = StopSignal(), StopSignal()
    late.set_deadline(time.perf_counter() + 30)
    early.set_deadline(time.perf_counter() + 0.05)
    cancelled = [StopSignal() for _ in range(50)]
    for signal in cancelled:
        signal.set_deadline(time.perf_counter() + 0.05)
    for index, signal in enumerate(cancelled):
        signal.set_deadline(None) if index % 2 else signal.clear()
    marker = StopSignal()
    marker.set_deadline(time.perf_counter() + 0.1)  # rings after all the cancelled deadlines
    wait_for(lambda: marker.flag[0])
    assert early.flag[0] == marker.flag[0] == DEADLINE
    assert late.flag[0] == 0 and not late.expired()
    assert all(signal.flag[0] == 0 and not signal.expired() for signal in cancelled)
    late.clear()


def test_a_halt_is_never_overwritten_by_the_alarm() -> None:
    halted, other = StopSignal(), StopSignal()
    halted.set_deadline(time.perf_counter() + 0.02)
    halted.halt()
    other.set_deadline(time.perf_counter() + 0.05)
    wait_for(lambda: other.flag[0])
    assert halted.flag[0] == HALTED and halted.halted


def test_halt_from_another_thread_stops_a_pure_search_at_its_next_look() -> None:
    signal = StopSignal()
    looks = 0

    def pure_search() -> None:  # looks at the signal every CLOCK_EVERY nodes
        nonlocal looks
        while True:
            for _ in range(CLOCK_EVERY):
                pass
            looks += 1
            if signal.expired():
                raise SearchTimeout

    stopped: list[SearchTimeout] = []

    def run() -> None:
        try:
            pure_search()
        except SearchTimeout as error:
            stopped.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    wait_for(lambda: looks > 100)
    signal.halt()
    worker.join(10)
    assert not worker.is_alive() and stopped


def test_without_threads_the_clock_alone_stops_a_pure_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(search, "_alarm_clock", search._AlarmClock())  # its thread not started yet
    signal = StopSignal()
    with monkeypatch.context() as patched:
        patched.setattr(threading.Thread, "start", no_threads)
        signal.set_deadline(time.perf_counter() + 0.05)  # no alarm can ring: no error either
        assert not signal.expired()
        time.sleep(0.1)
        assert signal.expired() and signal.flag[0] == 0
        signal.halt()
        assert signal.expired()
    # Where threads can start again, the alarm clock starts with the next deadline.
    signal.clear()
    signal.set_deadline(time.perf_counter() + 0.02)
    wait_for(lambda: signal.flag[0])
    assert signal.flag[0] == DEADLINE


def test_on_check_runs_at_every_look() -> None:
    signal = StopSignal()
    calls: list[int] = []
    signal.on_check = lambda: calls.append(1)
    for _ in range(3):
        assert not signal.expired()
    assert len(calls) == 3


def test_root_search_matches_a_plain_maximum_on_random_trees() -> None:
    rng = random.Random(7)
    for _ in range(200):
        values = [rng.randint(-30, 30) for _ in range(rng.randint(1, 10))]

        def value(sq: int, alpha: int, beta: int, values: list[int] = values) -> int:
            v = values[sq]
            return alpha if v <= alpha else beta if v >= beta else v  # fail-hard answers

        best, best_squares, _ = root_search(range(len(values)), value)
        assert best == max(values) and values[best_squares[0]] == best
