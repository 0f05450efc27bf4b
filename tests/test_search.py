"""The search skeleton every search shares: root PVS, the table's bounds, stopping, scores."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reversi_widget.search import (
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


def test_stop_signal_halt_deadline_and_clear() -> None:
    signal = StopSignal()
    assert not signal.expired()
    signal.halt()
    assert signal.expired() and (signal.flag is None or signal.flag[0])
    signal.clear()
    assert not signal.expired() and (signal.flag is None or not signal.flag[0])
    signal.set_deadline(time.perf_counter() + 0.05)
    assert not signal.expired()
    time.sleep(0.2)
    assert signal.expired()
    if signal.flag is not None:
        assert signal.flag[0]  # the alarm wrote the flag a compiled search polls
    signal.set_deadline(None)
    assert not signal.expired() and (signal.flag is None or not signal.flag[0])
    signal.set_deadline(time.perf_counter() + 0.05)
    signal.clear()
    time.sleep(0.15)
    assert not signal.expired() and (signal.flag is None or not signal.flag[0])


def test_root_search_matches_a_plain_maximum_on_random_trees() -> None:
    rng = random.Random(7)
    for _ in range(200):
        values = [rng.randint(-30, 30) for _ in range(rng.randint(1, 10))]

        def value(sq: int, alpha: int, beta: int, values: list[int] = values) -> int:
            v = values[sq]
            return alpha if v <= alpha else beta if v >= beta else v  # fail-hard answers

        best, best_squares, _ = root_search(range(len(values)), value)  # type: ignore[arg-type]
        assert best == max(values) and values[best_squares[0]] == best
