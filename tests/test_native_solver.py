"""The compiled exact solver against the pure-Python one: the same scores and best-move sets
on random positions of 4x4, 6x6 and 8x8 under both goals and both scorings, correct bounds
for any window, and the same stopping behaviour (deadline, halt) and bad-input errors."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Move, Rules, native
from reversi_widget.search import INFINITY, SearchTimeout
from reversi_widget.search.endgame import make_endgame
from reversi_widget.solver import solve
from tests.native_support import require_compiled
from tests.test_solver import VARIANTS, final_margin, random_position

#: Empty squares of the random positions per size: as many as the pure path solves quickly.
EMPTIES = {4: (1, 12), 6: (1, 12), 8: (1, 11)}


@pytest.fixture(scope="module")
def kernels() -> ModuleType:
    require_compiled("endgame")
    from reversi_widget.native import endgame

    return endgame


@contextmanager
def pure_solver(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Searches made inside run on the pure-Python path."""
    real = native.ready
    with monkeypatch.context() as patch:
        patch.setattr(native, "ready", lambda name: False if name == "endgame" else real(name))
        yield


def positions(rules: Rules, count: int, seed: str) -> list[Board]:
    rng = random.Random(seed)
    low, high = EMPTIES[rules.size]
    return [random_position(rules, rng.randint(low, high), rng) for _ in range(count)]


@pytest.mark.parametrize(("goal", "scoring"), VARIANTS)
@pytest.mark.parametrize("size", native.SIZES)
def test_same_scores_and_best_moves(
    kernels: ModuleType, monkeypatch: pytest.MonkeyPatch, size: int, goal: str, scoring: str
) -> None:
    rules = Rules(size=size, goal=goal, scoring=scoring)
    for board in positions(rules, 100, f"{size}{goal}{scoring}"):
        compiled = solve(board)
        with pure_solver(monkeypatch):
            pure = solve(board)
        assert (compiled.score, set(compiled.best_moves)) == (pure.score, set(pure.best_moves)), board.to_string()
        # The compiled line is legal, starts with a best move and ends at the score.
        end = board.copy()
        for move in compiled.line:
            end.push(move)
        assert end.is_game_over() and compiled.line[0] in compiled.best_moves
        assert final_margin(end) * (1 if end.turn == board.turn else -1) == compiled.score


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(native.SIZES),
    st.sampled_from(VARIANTS),
    st.randoms(use_true_random=False),
    st.integers(-20, 20),
    st.integers(1, 24),
)
def test_any_window_gives_a_bound_on_the_right_side(
    kernels: ModuleType, size: int, variant: tuple[str, str], rng: random.Random, alpha: int, width: int
) -> None:
    goal, scoring = variant
    board = positions(Rules(size=size, goal=goal, scoring=scoring), 1, str(rng.random()))[0]
    p, o = board.sides()
    search = make_endgame(size, goal, scoring)
    assert search.compiled
    exact = search.search(p, o, -INFINITY, INFINITY)
    # The table now holds this position: windows on every side of the score must agree with it.
    for low, high in ((alpha, alpha + width), (exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact)):
        value = search.search(p, o, low, high)
        if low < value < high:
            assert value == exact
        elif value <= low:
            assert exact <= value
        else:
            assert exact >= value
    fresh = make_endgame(size, goal, scoring)
    value = fresh.search(p, o, alpha, alpha + width)
    assert value == exact if alpha < value < alpha + width else (exact <= value if value <= alpha else exact >= value)


def hard_position() -> Board:
    """A 6x6 start: 32 empties, far beyond what either path solves in a second."""
    return Board(rules=Rules(size=6))


def in_thread(work: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(work())
        except SearchTimeout as stopped:
            outcome.append(stopped)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_halt_stops_a_running_search_and_the_gil_is_free(kernels: ModuleType) -> None:
    search = make_endgame(6)
    assert search.compiled
    p, o = hard_position().sides()
    thread, outcome = in_thread(lambda: search.search(p, o, -INFINITY, INFINITY))
    # While it searches, this thread runs Python freely: the kernel released the GIL.
    spins, until = 0, time.perf_counter() + 0.3
    while time.perf_counter() < until:
        spins += 1
    assert thread.is_alive() and spins > 10_000
    search.stop.halt()
    thread.join(30)
    assert not thread.is_alive() and isinstance(outcome[0], SearchTimeout)
    assert search.nodes > 0
    # Halted stays halted until cleared, then the same object searches again.
    with pytest.raises(SearchTimeout):
        search.search(p, o, -INFINITY, INFINITY)
    search.stop.clear()
    board = random_position(Rules(size=6), 8, random.Random(3))
    assert search.search(*board.sides(), -INFINITY, INFINITY) == solve(board).score


def test_deadline_stops_both_paths(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TimeoutError, match="time limit"):
        solve(hard_position(), time_limit=0.05)
    with pure_solver(monkeypatch), pytest.raises(TimeoutError, match="time limit"):
        solve(hard_position(), time_limit=0.05)
    search = make_endgame(6)
    search.deadline = time.perf_counter() + 0.1
    with pytest.raises(SearchTimeout):
        search.search(*hard_position().sides(), -INFINITY, INFINITY)
    # A deadline that has passed leaves the next search with a new deadline unharmed.
    search.deadline = time.perf_counter() + 60
    board = random_position(Rules(size=6), 9, random.Random(4))
    assert search.search(*board.sides(), -INFINITY, INFINITY) == solve(board).score


def test_the_factory_picks_the_kernel_once_it_is_loaded(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    with pure_solver(monkeypatch):
        pure = make_endgame(8)
    compiled = make_endgame(8)
    assert not pure.compiled and compiled.compiled
    board = random_position(Rules(size=8), 10, random.Random(5))
    score = solve(board).score
    assert pure.search(*board.sides(), -INFINITY, INFINITY) == score
    assert compiled.search(*board.sides(), -INFINITY, INFINITY) == score


def test_larger_boards_stay_pure(kernels: ModuleType) -> None:
    board = random_position(Rules(size=10), 6, random.Random(6))
    search = make_endgame(10)
    assert not search.compiled
    assert search.search(*board.sides(), -INFINITY, INFINITY) == solve(board).score


BAD = [
    lambda: solve(Board.from_string("XXXXXXXXXXXXXXXX O", rules=Rules(size=4))),
    lambda: solve(Board(rules=Rules(size=6, start="free"))),
    lambda: solve(Board(), time_limit=0),
    lambda: solve(Board(), time_limit=True),
    lambda: solve("not a board"),  # type: ignore[arg-type]
    lambda: Board().push(Move(None)),
    lambda: Board().push("d4"),
]


@pytest.mark.parametrize("bad", BAD)
def test_bad_input_is_refused_the_same_way(
    kernels: ModuleType, monkeypatch: pytest.MonkeyPatch, bad: Callable[[], object]
) -> None:
    with pytest.raises(Exception) as compiled:
        bad()
    with pure_solver(monkeypatch), pytest.raises(Exception) as pure:
        bad()
    assert (type(compiled.value), str(compiled.value)) == (type(pure.value), str(pure.value))


def test_one_search_object_shared_by_threads(kernels: ModuleType) -> None:
    """Searches on one object from several threads wait for each other and stay exact."""
    boards = [random_position(Rules(size=8), 12, random.Random(seed)) for seed in range(6)]
    expected = [solve(board).score for board in boards]
    search = make_endgame(8)
    results: dict[int, int] = {}

    def work(index: int) -> None:
        results[index] = search.search(*boards[index].sides(), -INFINITY, INFINITY)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(boards))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [results[i] for i in range(len(boards))] == expected


@pytest.mark.parametrize("size", native.SIZES)
def test_stable_discs_never_flip(kernels: ModuleType, size: int) -> None:
    """What the stability cut-off relies on: the discs ``stable`` finds keep their colour in
    every continuation (here: random games to the end from random positions)."""
    rng = random.Random(size)
    found = 0
    for _ in range(60):
        board = random_position(Rules(size=size), rng.randint(3, size * size // 2), rng)
        black, white = board.bitboards()
        stable_black = kernels.stable(size, black, black | white)
        stable_white = kernels.stable(size, white, black | white)
        found += bin(stable_black | stable_white).count("1")
        for _ in range(5):
            game = board.copy()
            while not game.is_game_over():
                if game.must_pass():
                    game.push_pass()
                else:
                    game.push(rng.choice(list(game.legal_moves)))
                now_black, now_white = game.bitboards()
                assert now_black & stable_black == stable_black and now_white & stable_white == stable_white
    assert found > 60  # the test is not empty: corners and edges do get found
