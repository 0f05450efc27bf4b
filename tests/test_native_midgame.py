"""The compiled midgame search and evaluation against the pure-Python ones: the same
evaluation of every position, the same score at every depth from a fresh table (both goals,
both scorings, 4x4 to 8x8, the hand-made evaluation and the learned one), and the same
stopping through the stop signal."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest

from reversi_widget import Board, InvalidPositionError, Rules, native
from reversi_widget.engine import Engine
from reversi_widget.search import INFINITY, SearchTimeout, patterns
from reversi_widget.search.evaluate import default_weights, make_evaluator, weight_table
from reversi_widget.search.midgame import Midgame, MidgameSearch, make_midgame
from reversi_widget.search.patterns import INVERTED_WEIGHTS_FILE, WEIGHTS_FILE, make_pattern_evaluator
from tests.native_support import random_positions, random_weights_file, require_compiled
from tests.support import cpu_seconds, play_random

VARIANTS = [("classic", "count"), ("classic", "tournament"), ("inverted", "count"), ("inverted", "tournament")]
#: Depths compared per size: to the end of the game on 4x4, a few plies on larger boards.
DEPTHS = {4: (1, 2, 3, 5, 12), 6: (1, 2, 3, 4), 8: (1, 2, 3, 4)}


@pytest.fixture(scope="module")
def kernels() -> ModuleType:
    require_compiled("midgame")
    from reversi_widget.native import midgame

    return midgame


@pytest.fixture(scope="module")
def weights_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The shipped weights, and random ones where no table entry is zero, so that a wrong
    index or phase cannot hide behind a table the fit left empty."""
    return WEIGHTS_FILE, random_weights_file(tmp_path_factory.mktemp("weights") / "random.bin", 7)


@pytest.mark.parametrize("goal", ["classic", "inverted"])
@pytest.mark.parametrize("size", native.SIZES)
def test_the_compiled_evaluation_equals_the_pure_one(kernels: ModuleType, size: int, goal: str) -> None:
    from reversi_widget.native.evaluate import evaluate, weight_array
    from reversi_widget.native.patterns import NO_PATTERNS

    rng = random.Random(f"{size}{goal}")
    for spread in (0.0, 0.3):  # the level's weights, and perturbed ones as the engine uses
        weights = default_weights(goal).perturbed(rng, spread)
        pure = make_evaluator(size, goal, weights)
        table = weight_array(weight_table(size, weights))
        checked = 0
        for board in random_positions(size, 12, rng.randint(0, 10**6)):
            black, white = board.bitboards()
            for p, o in ((black, white), (white, black)):
                legal = board.geometry.moves(p, o)
                expected = pure(p, o, legal)
                assert evaluate(size, p, o, legal, table, NO_PATTERNS.tables, NO_PATTERNS.extras) == expected
                checked += 1
        assert checked > 100


def test_the_compiled_learned_evaluation_equals_the_pure_one(
    kernels: ModuleType, weights_files: tuple[Path, Path]
) -> None:
    """The evaluation kernel the search calls, given pattern arrays, adds what the pure
    learned evaluation adds; the hand-made weights passed beside them are not used."""
    from reversi_widget.native.evaluate import evaluate, weight_array
    from reversi_widget.native.patterns import arrays_of

    hand = weight_array(weight_table(8, default_weights("classic")))
    for path in weights_files:
        arrays, pure = arrays_of(path), make_pattern_evaluator(path)
        checked = 0
        for board in random_positions(8, 6, 11):
            black, white = board.bitboards()
            for p, o in ((black, white), (white, black)):
                legal = board.geometry.moves(p, o)
                assert evaluate(8, p, o, legal, hand, arrays.tables, arrays.extras) == pure(p, o, legal), board
                checked += 1
        assert checked > 600


def searches_agree(pure: MidgameSearch, compiled: Callable[[], Midgame], board: Board, depths: Iterable[int]) -> None:
    """The compiled search (``compiled()`` makes a fresh one) scores ``board`` as the pure one
    at every depth from a fresh table, and a narrow window gives a bound on the right side."""
    p, o = board.sides()
    legal = board.geometry.moves(p, o)
    for depth in depths:
        pure.table.clear()
        expected = pure.negamax(p, o, depth, -INFINITY, INFINITY, legal)
        search = compiled()
        assert search.negamax(p, o, depth, -INFINITY, INFINITY, legal) == expected, (board.to_string(), depth)
        assert search.negamax(p, o, depth, expected - 1, expected + 1, legal) == expected
        assert compiled().negamax(p, o, depth, expected + 5, expected + 6, legal) <= expected + 5


@pytest.mark.parametrize("scoring", ["count", "tournament"])
def test_the_compiled_learned_search_scores_like_the_pure_one(
    kernels: ModuleType, weights_files: tuple[Path, Path], scoring: str
) -> None:
    """Both weights files, and the random ones under the inverted goal too (the end of the
    game is scored by the goal, the leaves by whatever weights the search was given)."""
    from reversi_widget.native.patterns import arrays_of

    rng = random.Random(f"learned{scoring}")
    compared = 0
    for path in weights_files:
        for goal in ("classic", "inverted") if path != WEIGHTS_FILE else ("classic",):
            deep = True  # the first position of each to depth 5, the others to depth 4 (the pure
            # search to depth 5 costs some five times depth 4, and proves nothing more each time)
            for board in random_positions(8, 2, rng.randint(0, 10**6)):
                if board.is_game_over() or rng.random() < 0.6:
                    continue
                arrays = arrays_of(path)
                searches_agree(
                    MidgameSearch(8, goal, scoring, make_pattern_evaluator(path)),
                    partial(kernels.NativeMidgame, 8, goal, scoring, patterns=arrays),
                    board,
                    range(1, 6 if deep else 5),
                )
                deep = False
                compared += 1
    assert compared >= 20


@pytest.mark.parametrize(("goal", "scoring"), VARIANTS)
@pytest.mark.parametrize("size", native.SIZES)
def test_the_compiled_search_scores_like_the_pure_one(kernels: ModuleType, size: int, goal: str, scoring: str) -> None:
    rng = random.Random(f"{size}{goal}{scoring}")
    compared = 0
    for board in random_positions(size, 3, rng.randint(0, 10**6)):
        if board.is_game_over() or board.in_placement() or rng.random() < 0.5:
            continue
        weights = default_weights(goal).perturbed(rng, 0.1)
        searches_agree(
            MidgameSearch(size, goal, scoring, make_evaluator(size, goal, weights)),
            partial(kernels.NativeMidgame, size, goal, scoring, weights),
            board,
            DEPTHS[size],
        )
        compared += 1
    assert compared >= 10


def test_a_reused_table_keeps_the_scores_and_gives_a_line(kernels: ModuleType) -> None:
    board = play_random(Board(), random.Random(11), 20)
    p, o = board.sides()
    legal = board.geometry.moves(p, o)
    search = kernels.NativeMidgame(8, "classic", "count")
    scores = [search.negamax(p, o, depth, -INFINITY, INFINITY, legal) for depth in range(1, 7)]
    fresh = [kernels.NativeMidgame(8, "classic", "count").negamax(p, o, d, -INFINITY, INFINITY, legal) for d in (5, 6)]
    assert scores[4:] == fresh  # iterative deepening over one table: the same scores
    assert search.take_nodes() > 0 and search.take_nodes() == 0
    line = search.principal_line(p, o, 6)
    assert 1 <= len(line) <= 6
    replay = board.copy()
    for square in line:
        move = next(m for m in replay.legal_moves if m.square == square) if square is not None else None
        if move is None:
            replay.push_pass()
        else:
            replay.push(move)


def test_make_midgame_picks_the_compiled_search_when_ready(kernels: ModuleType) -> None:
    from reversi_widget.native.patterns import NO_PATTERNS, arrays_of

    search = make_midgame(8, "classic", "count")
    assert isinstance(search, kernels.NativeMidgame) and search.patterns is arrays_of(WEIGHTS_FILE)
    assert cast(Any, make_midgame(8, "classic", "count", learned=False)).patterns is NO_PATTERNS
    assert cast(Any, make_midgame(8, "inverted", "count")).patterns is arrays_of(INVERTED_WEIGHTS_FILE)
    with pytest.raises(InvalidPositionError, match="fitted for the classic goal, not the inverted goal"):
        arrays_of(WEIGHTS_FILE, "inverted")
    assert cast(Any, make_midgame(6, "classic", "count")).patterns is NO_PATTERNS
    assert isinstance(make_midgame(10, "classic", "count"), MidgameSearch)  # beyond 64 bits
    assert isinstance(make_midgame(8, "classic", "count", compiled=False), MidgameSearch)
    with pytest.raises(ValueError, match="10x10"):
        kernels.NativeMidgame(10, "classic", "count")
    with pytest.raises(ValueError, match="8x8 boards only, not 6x6"):
        kernels.NativeMidgame(6, "classic", "count", patterns=arrays_of(WEIGHTS_FILE))
    with pytest.raises(ValueError, match="not both"):
        kernels.NativeMidgame(8, "classic", "count", default_weights("classic"), arrays_of(WEIGHTS_FILE))


@pytest.mark.parametrize("compiled", [True, False])
def test_every_goal_with_learned_weights_evaluates_8x8_with_them(
    kernels: ModuleType,
    weights_files: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    compiled: bool,
) -> None:
    """A goal gets the learned evaluation by its entry in ``patterns.WEIGHTS_FILES`` alone;
    other sizes, and ``learned=False``, keep the hand-made one. A search's leaves (depth 0)
    are its evaluation."""
    shipped, _ = weights_files
    other_inverted = random_weights_file(tmp_path / "random_inverted.bin", 8, "inverted")

    def leaves(search: Midgame, board: Board) -> int:
        p, o = board.sides()
        return search.negamax(p, o, 0, -INFINITY, INFINITY, board.geometry.moves(p, o))

    def check(goal: str, expected: dict[int, Callable[[int, int, int], int]], learned: bool = True) -> None:
        for size, evaluate in expected.items():
            search = make_midgame(size, goal, "count", compiled=compiled, learned=learned)
            for board in random_positions(size, 1, 3):
                if board.is_game_over():
                    continue
                if board.must_pass():
                    board.push_pass()
                p, o = board.sides()
                assert leaves(search, board) == evaluate(p, o, board.geometry.moves(p, o)), (goal, size, learned)

    check("classic", {8: make_pattern_evaluator(shipped), 6: make_evaluator(6, "classic")})
    check("inverted", {8: make_pattern_evaluator(INVERTED_WEIGHTS_FILE), 6: make_evaluator(6, "inverted")})
    monkeypatch.setitem(patterns.WEIGHTS_FILES, "inverted", other_inverted)
    check("inverted", {8: make_pattern_evaluator(other_inverted), 6: make_evaluator(6, "inverted")})
    check("inverted", {8: make_evaluator(8, "inverted")}, learned=False)
    with pytest.raises(ValueError, match="learned=False"):
        make_midgame(8, "inverted", "count", default_weights("inverted"), compiled)
    monkeypatch.delitem(patterns.WEIGHTS_FILES, "inverted")
    check("inverted", {8: make_evaluator(8, "inverted")})


def test_the_compiled_search_stops_on_the_signal(kernels: ModuleType) -> None:
    board = play_random(Board(), random.Random(5), 16)
    p, o = board.sides()
    legal = board.geometry.moves(p, o)
    search = kernels.NativeMidgame(8, "classic", "count")
    # The search's CPU, not the wall clock, which a loaded machine stretches: a depth-30
    # search left to run would use minutes of it.
    search.stop.set_deadline(time.perf_counter() + 0.2)
    start = cpu_seconds()
    with pytest.raises(SearchTimeout):
        search.negamax(p, o, 30, -INFINITY, INFINITY, legal)
    assert cpu_seconds() - start < 1.0
    search.stop.clear()
    halted: list[float] = []

    def halt_soon() -> None:
        time.sleep(0.2)
        halted.append(cpu_seconds(searching))
        search.stop.halt()

    searching = threading.current_thread()
    threading.Thread(target=halt_soon).start()
    with pytest.raises(SearchTimeout):
        search.negamax(p, o, 30, -INFINITY, INFINITY, legal)
    assert halted and cpu_seconds() - halted[0] < 0.5
    search.stop.clear()
    # Searching goes on as before the stops (in a position of its own: the table may hold
    # deeper results for the one searched, which the depth-3 search would rightly use).
    other = play_random(Board(), random.Random(6), 30)
    q, r = other.sides()
    assert search.negamax(q, r, 3, -INFINITY, INFINITY, other.geometry.moves(q, r)) == MidgameSearch(
        8, "classic", "count", make_evaluator(8, "classic")
    ).negamax(q, r, 3, -INFINITY, INFINITY, other.geometry.moves(q, r))


def test_the_engine_thinks_while_other_threads_run(kernels: ModuleType) -> None:
    """The compiled search releases the GIL. With Python's thread switching turned off, a
    thread gets the GIL only where the one holding it lets it go: this one takes it fifty
    times while the engine thinks, and its stop then ends the search. A search holding the
    GIL (as the pure one does) lets it go a few times a search, so the fifty would come
    after its time limit. Nothing is timed: a loaded machine changes nothing."""
    board = play_random(Board(), random.Random(8), 18)
    engine = Engine("expert", time_limit=120)
    chosen: list[object] = []
    thinking = threading.Thread(target=lambda: chosen.append(engine.choose(board)))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1_000)
    try:
        thinking.start()
        while thinking.is_alive() and engine.stop_signal.deadline is None:  # not searching yet
            time.sleep(0.05)  # each sleep lets the GIL go
        for _ in range(50):
            time.sleep(0.001)
        still_thinking = thinking.is_alive()
        engine.stop()
    finally:
        sys.setswitchinterval(interval)
        thinking.join()
    assert still_thinking
    assert chosen and chosen[0] in board.legal_moves


@pytest.mark.parametrize("size", native.SIZES)
def test_the_engine_plays_the_compiled_search_deeper(kernels: ModuleType, size: int) -> None:
    """With half a second of CPU, the expert reaches depth 6 (the pure search does not). The
    budget is kept in wall time, so on a loaded machine, which gives the search less CPU in that
    time, it is given longer until the search has had about that much CPU."""
    board = play_random(Board(rules=Rules(size=size)), random.Random(size), size * size // 4)
    for limit in (0.5, 1.0, 2.0, 4.0, 8.0):
        engine = Engine("expert", time_limit=limit, seed=1)
        start = cpu_seconds()
        assert engine.choose(board) in board.legal_moves
        info = engine.last_search
        assert info is not None
        if info.proven or cpu_seconds() - start >= 0.4:
            break
    assert info is not None and (info.proven or info.depth >= min(6, board.empty_count()))


def refusals() -> list[tuple[str, str]]:
    """What each bad call raises: (error type, message)."""
    from reversi_widget.analysis import analyse, review

    finished = Board.from_string("XXXXXXXXXXXXXXXX O", rules=Rules(size=4))
    calls: list[Callable[[], object]] = [
        lambda: Engine("expert").choose(finished),
        lambda: Engine("expert").choose("f5d6"),  # type: ignore[arg-type]
        lambda: Engine(8),
        lambda: Engine(7, time_limit=-1),
        lambda: analyse(finished),
        lambda: analyse(Board(), depth=0),
        lambda: analyse(Board(rules=Rules(start="free"))),
        lambda: review("f5d6"),
    ]
    out = []
    for call in calls:
        with pytest.raises(Exception) as refused:
            call()
        out.append((type(refused.value).__name__, str(refused.value)))
    return out


def test_bad_input_is_refused_alike_on_both_paths(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget import analysis, engine, game_review

    compiled = refusals()
    monkeypatch.setattr(engine, "compiled_midgame_ready", lambda size: False)
    for module in (analysis, game_review):
        monkeypatch.setattr(module, "compiled_midgame_ready", lambda size: False)
        monkeypatch.setattr(module, "compiled_endgame_ready", lambda size: False)
    assert refusals() == compiled


@pytest.mark.parametrize("goal", ["classic", "inverted"])
def test_fixed_depth_levels_play_the_same_games_on_both_paths(
    kernels: ModuleType, monkeypatch: pytest.MonkeyPatch, goal: str
) -> None:
    from reversi_widget import engine

    def game() -> str:
        board = Board(rules=Rules(size=6, goal=goal))
        players = (Engine(3, seed=5), Engine(4, seed=6))
        while not board.is_game_over():
            board.push(players[board.ply % 2].choose(board))
        return board.transcript()

    compiled = game()
    monkeypatch.setattr(engine, "compiled_midgame_ready", lambda size: False)
    assert game() == compiled
