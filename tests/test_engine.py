"""The computer player: legal on every size and goal, within its time, reproducible, strong
enough to beat the beginner, and never touching the board it is given."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reversi_widget import BLACK, Board, IllegalMoveError, InvalidPositionError, Move, Rules
from reversi_widget.engine import LEVEL_SETTINGS, Engine
from reversi_widget.search import INFINITY, WIN, patterns, score_to_margin
from reversi_widget.search.evaluate import make_crude_evaluator, make_edge_stability, make_evaluator, masks
from reversi_widget.search.patterns import WEIGHTS_FILE, make_pattern_evaluator
from tests.support import cpu_seconds, play_random

SIZES = [4, 6, 8, 10, 12, 14, 16]
GOALS = ["classic", "inverted"]
CORNER_POSITION = "-OOOX--XXX---OXX--O-XX---O-X-------- O"  # 6x6, White may take the f1 corner


def advance(board: Board, plies: int, rng: random.Random) -> Board:
    return play_random(board, rng, board.ply + plies)


def snapshot(board: Board) -> tuple[str, list[Move]]:
    return board.to_string(), list(board.move_stack)


def play_game(black: Engine, white: Engine, board: Board) -> Board:
    while not board.is_game_over():
        engine = black if board.turn == BLACK else white
        move = engine.choose(board)
        board.push(move)  # raises if the engine picked an illegal move
    return board


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("size", SIZES)
def test_every_level_plays_legal_moves(size: int, goal: str) -> None:
    rng = random.Random(size)
    board = advance(Board(rules=Rules(size=size, goal=goal)), size, rng)
    before = snapshot(board)
    for level in LEVEL_SETTINGS:
        engine = Engine(level, time_limit=0.05, seed=level)
        move = engine.choose(board)
        assert move in board.legal_moves, (level, str(move))
        assert snapshot(board) == before  # the engine never mutates the board


@pytest.mark.parametrize("goal", GOALS)
def test_whole_games_on_small_boards_end_legally(goal: str) -> None:
    for size, levels in ((4, (1, 7)), (6, (2, 5))):
        board = play_game(
            Engine(levels[0], time_limit=0.05, seed=1),
            Engine(levels[1], time_limit=0.05, seed=2),
            Board(rules=Rules(size=size, goal=goal)),
        )
        assert board.outcome() is not None


def test_free_start_places_centre_discs_first() -> None:
    board = Board(rules=Rules(size=6, start="free"))
    engine = Engine("medium", seed=3)
    for _ in range(4):
        move = engine.choose(board)
        assert move.square is not None and board.geometry.centre >> move.square & 1
        board.push(move)
    assert not board.in_placement()
    assert engine.choose(board) in board.legal_moves


def test_pass_and_game_over() -> None:
    must_pass = Board.from_string("OXXX-OOOOXXX-XXX X", rules=Rules(size=4))
    assert must_pass.must_pass()
    move = Engine("expert").choose(must_pass)
    assert not move and move == Move.null(4)
    finished = Board.from_string("XXXXXXXXXXXXXXXX O", rules=Rules(size=4))
    before = snapshot(finished)
    with pytest.raises(IllegalMoveError, match="game is over"):
        Engine().choose(finished)
    assert snapshot(finished) == before


def leaf_value(engine: Engine, board: Board) -> int:
    """What the engine's search of this board's variant scores at its leaves (depth 0)."""
    p, o = board.sides()
    return engine._search_for(board).negamax(p, o, 0, -INFINITY, INFINITY, board.geometry.moves(p, o))


@pytest.mark.parametrize("goal", GOALS)
def test_levels_3_to_7_evaluate_8x8_with_the_learned_patterns_where_the_goal_has_them(goal: str) -> None:
    board = advance(Board(rules=Rules(goal=goal)), 20, random.Random(4))
    p, o = board.sides()
    legal = board.geometry.moves(p, o)
    path = patterns.weights_file(goal)
    learned = make_evaluator(8, goal) if path is None else make_pattern_evaluator(path)
    for level in LEVEL_SETTINGS:
        s = LEVEL_SETTINGS[level]
        if s.crude:
            expected = make_crude_evaluator(8, goal, s.crude_mobility)(p, o, legal)
        elif path is None:  # the hand-made evaluation, perturbed as the level perturbs it
            expected = leaf_value(Engine(level, seed=3, learned=False), board)
        else:
            expected = learned(p, o, legal)
        assert leaf_value(Engine(level, seed=3), board) == expected, level
    if path is not None:
        hand = Engine(7, seed=3, learned=False)
        assert leaf_value(hand, board) != learned(p, o, legal)
        assert repr(hand) == "Engine(level=7, seed=3, learned=False)"
    six = advance(Board(rules=Rules(size=6, goal=goal)), 10, random.Random(4))
    assert leaf_value(Engine(5, seed=3), six) == leaf_value(Engine(5, seed=3, learned=False), six)


def test_a_damaged_weights_file_is_refused_when_the_engine_first_needs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing falls back to another evaluation, or to random play: the move is refused,
    naming the file, and the board is as it was."""
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(WEIGHTS_FILE.read_bytes()[:-200])
    monkeypatch.setitem(patterns.WEIGHTS_FILES, "classic", damaged)
    board = advance(Board(), 12, random.Random(6))
    before = snapshot(board)
    for level in (3, 7):
        with pytest.raises(InvalidPositionError, match="damaged") as refused:
            Engine(level, time_limit=0.2).choose(board)
        assert str(damaged) in str(refused.value)
        assert snapshot(board) == before
    assert Engine(2).choose(board) in board.legal_moves  # the crude levels need no weights
    assert Engine(7, time_limit=0.1, learned=False).choose(board) in board.legal_moves


def test_the_learned_weights_load_on_the_first_search_not_at_import() -> None:
    code = (
        "from reversi_widget import Board, Engine, ReversiWidget, analyse\n"
        "from reversi_widget.search import patterns\n"
        "Engine('expert'); ReversiWidget(show_scores=True).get_state()\n"
        "assert not patterns._loaded, 'loaded before any search'\n"
        "analyse(Board(), depth=2)\n"
        "assert patterns._loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_levels_and_names() -> None:
    assert Engine.LEVELS == {"beginner": 1, "easy": 2, "intermediate": 3, "medium": 4, "hard": 5, "expert": 7}
    for name, number in Engine.LEVELS.items():
        assert Engine(name).level == number
        assert Engine(name.upper()).level == number
    assert Engine(3).level == 3
    assert Engine("expert").budget == pytest.approx(1.0)
    assert Engine(7, time_limit=0.3).budget == pytest.approx(0.3)
    assert Engine(3).learned and not Engine(3, learned=False).learned


@pytest.mark.parametrize("level", [0, 8, -1, 2.5, True, None, "grandmaster", ""])
def test_bad_level_is_refused(level: object) -> None:
    with pytest.raises(ValueError, match="level"):
        Engine(level)  # type: ignore[arg-type]


@pytest.mark.parametrize("time_limit", [0, -1, float("nan"), float("inf"), "fast", True])
def test_bad_time_limit_is_refused(time_limit: object) -> None:
    with pytest.raises(ValueError, match="time_limit"):
        Engine(4, time_limit=time_limit)  # type: ignore[arg-type]


def test_bad_seed_and_board_are_refused() -> None:
    with pytest.raises(ValueError, match="seed"):
        Engine(4, seed="abc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="learned must be True or False, got 'no'"):
        Engine(4, learned="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Board"):
        Engine(4).choose("f5d6")  # type: ignore[arg-type]


@pytest.mark.parametrize(("size", "plies"), [(8, 20), (16, 60)])
def test_time_budget_is_kept(size: int, plies: int) -> None:
    board = advance(Board(rules=Rules(size=size)), plies, random.Random(5))
    for level in (5, 7):
        engine = Engine(level, time_limit=0.2)
        start = cpu_seconds()  # not the wall clock, which a loaded machine stretches
        move = engine.choose(board)
        used = cpu_seconds() - start
        assert move in board.legal_moves
        # Kept in wall time, a budget bounds the CPU a search gets: without it, these searches
        # run for seconds.
        assert used < 0.6, f"level {level} used {used:.2f} s of CPU on {size}x{size} with a 0.2 s budget"


@pytest.mark.parametrize(("plies", "stage"), [(16, "midgame search"), (38, "endgame solver")])
def test_stop_from_another_thread_ends_a_long_search_at_once(plies: int, stage: str) -> None:
    import threading

    board = advance(Board(), plies, random.Random(3))
    assert not board.is_game_over() and len(board.legal_moves) >= 2
    engine = Engine("expert", time_limit=60)  # far more than the test waits
    chosen: list[Move] = []
    used: list[float] = []  # the worker's CPU seconds when it ends (a finished thread has no clock)

    def think() -> None:
        chosen.append(engine.choose(board))
        used.append(time.thread_time())

    worker = threading.Thread(target=think)
    worker.start()
    while worker.is_alive() and engine.stop_signal.deadline is None:  # not searching yet
        time.sleep(0.01)  # (a stop before the search starts is not what is tested here)
    time.sleep(0.3)
    assert worker.is_alive(), f"the {stage} ended by itself before the stop: not a long search"
    stopped = cpu_seconds(worker)
    engine.stop()
    worker.join(60)
    assert not worker.is_alive(), f"stop() did not end the {stage}"
    # The search's CPU, not the wall clock, which a loaded machine stretches: searching on would use it.
    assert used[0] - stopped < 1
    assert chosen and chosen[0] in board.legal_moves
    # The next move thinks for its whole budget again.
    engine.time_limit = 0.5
    start = time.perf_counter()
    assert engine.choose(board) in board.legal_moves
    assert time.perf_counter() - start > 0.2 or (engine.last_search is not None and engine.last_search.proven)


def test_garbage_collector_is_back_on_after_a_search() -> None:
    import gc

    board = advance(Board(), 10, random.Random(2))
    assert gc.isenabled()
    Engine(7, time_limit=0.05).choose(board)  # interrupted by its deadline
    assert gc.isenabled()


def test_strongest_level_uses_its_second() -> None:
    board = advance(Board(), 16, random.Random(9))
    engine = Engine("expert")
    start = cpu_seconds()  # not the wall clock, which a loaded machine stretches
    engine.choose(board)
    used = cpu_seconds() - start
    info = engine.last_search
    assert info is not None and info.depth >= 3
    assert used < 1.5


def test_same_seed_same_game() -> None:
    def game(seed: int) -> list[Move]:
        board = Board(rules=Rules(size=6))
        play_game(Engine(3, seed=seed), Engine(1, seed=seed + 1), board)
        return list(board.move_stack)

    assert game(7) == game(7)
    assert len({tuple(game(seed)) for seed in (1, 2, 3)}) > 1  # the noise varies the games


def test_the_learned_evaluation_keeps_the_noise_of_levels_3_and_4() -> None:
    """Its tables are not perturbed, but the root noise still varies these levels' games."""

    def opening(level: int, seed: int) -> list[Move]:
        board = Board()
        players = (Engine(level, seed=seed), Engine(level, seed=seed + 1))
        while board.ply < 16:
            board.push(players[board.ply % 2].choose(board))
        return list(board.move_stack)

    for level in (3, 4):
        assert opening(level, 7) == opening(level, 7)
        assert len({tuple(opening(level, seed)) for seed in (1, 3, 5)}) > 1


def test_hard_beats_beginner() -> None:
    wins = 0
    for game_number in range(4):
        strong = Engine("hard", time_limit=0.3, seed=game_number)
        weak = Engine("beginner", seed=100 + game_number)
        strong_is_black = game_number % 2 == 0
        board = Board(rules=Rules(size=6))
        play_game(strong if strong_is_black else weak, weak if strong_is_black else strong, board)
        outcome = board.outcome()
        assert outcome is not None
        wins += outcome.winner == (BLACK if strong_is_black else not BLACK)
    assert wins >= 3


def test_inverted_goal_avoids_the_corner_classic_takes() -> None:
    for level in (3, 5):
        classic = Board(CORNER_POSITION, rules=Rules(size=6))
        inverted = Board(CORNER_POSITION, rules=Rules(size=6, goal="inverted"))
        assert str(Engine(level, seed=0).choose(classic)) == "f1"
        assert str(Engine(level, seed=0).choose(inverted)) != "f1"


def test_inverted_evaluation_prefers_fewer_discs_and_no_corners() -> None:
    size = 8
    classic = make_evaluator(size, "classic")
    inverted = make_evaluator(size, "inverted")
    geo = Board().geometry
    # Late in the game, the same shape with more of the mover's discs.
    few = int("".join("1" if i % 5 == 0 else "0" for i in range(60)), 2)
    rest = geo.full & ~few & ~0b1111  # four empties at a1-d1
    more, less = rest, few
    assert inverted(less, more, geo.moves(less, more)) > inverted(more, less, geo.moves(more, less))
    assert classic(less, more, geo.moves(less, more)) < classic(more, less, geo.moves(more, less))
    # Owning a corner is good in classic and bad in inverted.
    p, o = 1 << 27, (1 << 28) | (1 << 35)
    with_corner = p | 1
    for evaluate, sign in ((classic, 1), (inverted, -1)):
        gain = evaluate(with_corner, o, geo.moves(with_corner, o)) - evaluate(p, o, geo.moves(p, o))
        assert gain * sign > 0


def test_edge_stability_follows_corners() -> None:
    stable = make_edge_stability(8)
    m = masks(8)
    top = m.edge_lines[0]
    assert stable(0b111, 0b111) == 0b111  # a1-c1 joined to the a1 corner
    assert stable(0b110, 0b110) == 0  # no corner: nothing is sure
    assert stable(0b1011, 0b1111) == 0b11  # the run stops at the opponent's disc
    assert stable(top & ~0b10, top) == top & ~0b10  # a full edge is stable whatever the colours
    column = sum(1 << (8 * r) for r in range(3))  # a1, a2, a3
    assert stable(column, column) == column


def test_score_scale() -> None:
    assert score_to_margin(WIN + 400) == (4.0, True)
    assert score_to_margin(-WIN - 200) == (-2.0, True)
    assert score_to_margin(250) == (2.5, False)


def test_expert_plays_a_solved_endgame_perfectly() -> None:
    from reversi_widget.solver import solve

    seed = 4
    board = advance(Board(rules=Rules(size=6)), 22, random.Random(seed))
    while board.is_game_over() or len(board.legal_moves) < 2:
        seed += 1
        board = advance(Board(rules=Rules(size=6)), 22, random.Random(seed))
    solution = solve(board)
    engine = Engine("expert")
    move = engine.choose(board)
    assert move in solution.best_moves
    info = engine.last_search
    assert info is not None and info.exact
    assert info.margin == solution.score


def test_a_win_proven_short_of_a_full_solve_is_a_bound_on_its_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Just beyond the expert's exact solve, a win/draw/loss solve proves the win: the engine
    reports the result as proven and its margin as a lower bound, never as the exact margin.
    (The midgame search is held to depth 4 here, so it cannot reach the end first.)"""
    from dataclasses import replace

    from reversi_widget import native
    from reversi_widget.engine import NATIVE_LEVEL_SETTINGS
    from reversi_widget.solver import solve

    table = NATIVE_LEVEL_SETTINGS if native.wait("midgame") else LEVEL_SETTINGS
    # Proofs held short of a full solve (13 empties: quick), with no selective search to the end.
    settings = replace(table[7], depth=4, exact_empties=12, wld_empties=14)
    monkeypatch.setitem(table, 7, settings)
    empties = settings.exact_empties + 1
    assert empties <= settings.wld_empties
    rng = random.Random(5)
    below = checked = 0
    while checked < 3:
        board = advance(Board(), 60 - empties, rng)
        if board.empty_count() != empties or board.must_pass() or len(board.legal_moves) < 2:
            continue
        truth = solve(board).score
        if truth <= 0:
            continue
        engine = Engine("expert", time_limit=30)
        engine.choose(board)
        info = engine.last_search
        assert info is not None and info.proven and info.bound and not info.exact
        assert 0 < info.margin <= truth
        below += info.margin < truth
        checked += 1
    assert below  # the bound is not the margin: reporting it as exact would be wrong


def test_a_search_to_the_end_looks_first_in_a_window_round_the_last_margin() -> None:
    """``aspiration``: a few discs either side of the last iteration's margin, whether that
    was an estimate or a probable result; a win/draw/loss proof keeps its own window."""
    from reversi_widget.engine import ASPIRATION, Iteration, aspiration
    from reversi_widget.search import FULL_WIDTH, exact_score

    step = Iteration(20)
    for guess, margin in ((exact_score(6), 6), (340, 3), (exact_score(-10), -10), (0, 0)):
        window = aspiration(step, guess)
        assert (window.depth, window.selectivity) == (20, FULL_WIDTH)
        assert (window.alpha, window.beta) == (exact_score(margin - ASPIRATION), exact_score(margin + ASPIRATION))
    wld = Iteration(20, FULL_WIDTH, -1, 1)
    assert aspiration(wld, exact_score(12)) == wld == aspiration(wld, exact_score(-30))


def test_a_proof_whose_first_window_misses_still_finds_the_exact_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a window of one disc round the guess, most proofs fail high or low first and
    search again beyond the bound they found: the margin reported is still the exact one, and
    the move one of the best."""
    from reversi_widget import engine as engine_module
    from reversi_widget.search import root_search
    from reversi_widget.solver import solve

    monkeypatch.setattr(engine_module, "ASPIRATION", 1)
    searches: list[tuple[int, int]] = []
    real = root_search

    def counted(squares, value, alpha=-INFINITY, beta=INFINITY, **options):  # type: ignore[no-untyped-def]
        searches.append((alpha, beta))
        return real(squares, value, alpha, beta, **options)

    monkeypatch.setattr(engine_module, "root_search", counted)
    rng = random.Random(8)
    again = checked = 0
    while checked < 6:
        board = play_random(Board(), rng, 60 - 12)
        if board.is_game_over() or board.must_pass() or len(board.legal_moves) < 2:
            continue
        searches.clear()
        engine = Engine("expert", time_limit=60)
        move = engine.choose(board)
        info = engine.last_search
        truth = solve(board)
        assert info is not None and info.exact and info.margin == truth.score
        assert move in truth.best_moves
        last_windows = [w for w in searches if w != (-INFINITY, INFINITY)]
        again += len(last_windows) > 1
        checked += 1
    assert again  # the narrow window did miss, and the search found the margin beyond it


def test_the_expert_proves_straight_after_deepening_up_to_its_quick_exact_empties() -> None:
    """Up to ``QUICK_EXACT_EMPTIES`` (within its exact solve) the expert's plan deepens to
    ``ENDGAME_GAP`` plies short of the end, then proves, with no selective search to the end
    between; beyond it, up to its selective
    empties, selective searches to the end come first, at every selectivity."""
    from reversi_widget.engine import ENDGAME_GAP, NATIVE_LEVEL_SETTINGS, QUICK_EXACT_EMPTIES, schedule
    from reversi_widget.search import FULL_WIDTH

    expert = NATIVE_LEVEL_SETTINGS[7]
    for empties in range(10, expert.selective_empties + 1):
        plan = schedule(expert, empties, selective=True)
        to_end = [step for step in plan if step.depth >= empties]
        assert to_end[-1].selectivity == FULL_WIDTH  # the proof comes last
        ladder = [step.selectivity for step in to_end if step.selectivity < FULL_WIDTH]
        if empties <= min(QUICK_EXACT_EMPTIES, expert.exact_empties):
            assert ladder == [] and len(to_end) == 1
            deepest = max(empties - ENDGAME_GAP, empties // 2)
            assert [step.depth for step in plan[:-1]] == list(range(1, deepest + 1))
        else:
            assert ladder == list(range(expert.selectivity, FULL_WIDTH))
