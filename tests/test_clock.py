"""The engine's game clock: every budget fits in what is left, the clock is never overrun over
a whole game whatever its length and however each move uses its time, a per-move limit stays
a hard limit, and a bad clock is refused naming it."""

from __future__ import annotations

import math
import random

import pytest

from reversi_widget import BLACK, Board
from reversi_widget.clock import OVERHEAD, GameClock, check_clock, move_weight
from reversi_widget.engine import Engine
from tests.support import cpu_seconds, play_random

#: What a move may take past its limit (a compiled kernel stops at its next node, a pure one
#: within ``search.CLOCK_EVERY`` nodes, then the move is made): the fake timer charges all of
#: it on every move, the worst case.
OVERRUN = OVERHEAD


def simulated_game(rng: random.Random, seconds: float) -> tuple[GameClock, list[float]]:
    """One side's moves of a game of random length, with passes, against a fake timer: each
    move takes a random share of its limit, often all of it, plus the worst overrun."""
    clock = GameClock(seconds)
    empties = rng.randint(0, 1) + 60
    taken: list[float] = []
    while empties > 0:
        budget = clock.budget(empties)
        assert 0 <= budget.target <= budget.limit
        assert budget.limit <= max(clock.left, 0)
        use = budget.limit if rng.random() < 0.5 else rng.uniform(0, budget.limit)
        clock.spend(use + OVERRUN)
        taken.append(use + OVERRUN)
        empties -= rng.choice((2, 2, 2, 2, 1, 1, 3))  # the opponent moves, or one side passes
    return clock, taken


def test_a_thousand_random_clocks_are_never_overrun() -> None:
    rng = random.Random(2026)
    for _ in range(1000):
        seconds = math.exp(rng.uniform(math.log(OVERHEAD * 61), math.log(3600)))
        clock, taken = simulated_game(rng, seconds)
        assert clock.left >= 0, (seconds, taken)
        assert sum(taken) <= seconds


def test_the_time_goes_where_it_matters() -> None:
    """A game of 29 own moves on a 60 s clock, each move taking its target: the middle game
    and the moves before the end get more than the opening and the last moves, and the
    clock is used, not hoarded."""
    clock = GameClock(60)
    target = {}
    for empties in range(58, 0, -2):
        target[empties] = clock.budget(empties).target
        clock.spend(target[empties])
    assert target[24] > target[34] > target[16] > target[6]
    assert target[34] > target[54]
    assert move_weight(22) > move_weight(36) > move_weight(50) > move_weight(16) > move_weight(6)
    assert 1.5 < target[34] < 4.0
    assert 0 < clock.left < 0.1 * 60


def test_a_move_gets_at_most_its_share_of_what_is_left() -> None:
    clock = GameClock(10)
    clock.spend(9.5)
    budget = clock.budget(20)
    assert 0 < budget.limit <= 0.5 - OVERHEAD * 20


def test_the_engine_keeps_to_its_clock_over_a_game() -> None:
    rng = random.Random(7)
    board = play_random(Board(), rng, 20)
    engine = Engine("expert", clock=4.0)
    spent = 0.0
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
            continue
        if board.turn == BLACK:
            board.push(engine.choose(board))
            assert engine.last_search is not None
            spent += engine.last_search.seconds
        else:
            play_random(board, rng, board.ply + 1)
    assert engine.clock is not None
    assert spent < 4.0 and engine.clock.left > 0
    assert engine.clock.left == pytest.approx(4.0 - spent, abs=1e-6)


def test_a_new_game_gives_the_time_back() -> None:
    engine = Engine("expert", clock=2.0)
    board = play_random(Board(), random.Random(3), 30)
    engine.choose(board)
    assert engine.clock is not None and engine.clock.left < 2.0
    engine.choose(Board())  # more empty squares than before: another game
    assert engine.clock.left > 1.5
    engine.new_game()
    assert engine.clock.left == 2.0


def test_a_per_move_limit_stays_a_hard_limit_on_a_clock() -> None:
    board = play_random(Board(), random.Random(11), 24)
    engine = Engine("expert", clock=600, time_limit=0.2)
    budget = engine.move_budget(board)
    assert budget.limit <= 0.2
    start = cpu_seconds()  # not the wall clock, which a loaded machine stretches
    engine.choose(board)
    assert engine.last_search is not None and cpu_seconds() - start < 0.2 + 0.15


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), True, "5", [5]])
def test_a_bad_clock_is_refused_naming_it(bad: object) -> None:
    with pytest.raises(ValueError, match="clock must be a positive number of seconds"):
        Engine("expert", clock=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="clock"):
        GameClock(bad)  # type: ignore[arg-type]
    assert check_clock(None) is None
