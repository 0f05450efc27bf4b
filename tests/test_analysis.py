"""analyse and review: a score for every move, consistent with the solver and the engine."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from reversi_widget import BLACK, Board, IllegalMoveError, InvalidPositionError, Move, Rules, game_review, native
from reversi_widget.analysis import (
    REVIEW_CHECK_PLIES,
    REVIEW_END_EMPTIES,
    REVIEW_MARKS,
    Analysis,
    MoveAnalysis,
    analyse,
    default_depth,
    evaluations,
    exact_empties,
    judge,
    judged,
    review,
    review_depth,
    review_mark,
    review_totals,
    within_board,
)
from reversi_widget.engine import Engine
from reversi_widget.game import Game
from reversi_widget.search import WIN, final_score_function
from reversi_widget.solver import solve
from reversi_widget.squares import WHITE
from tests.support import cpu_seconds, play_random

#: A real game, Black winning 64-0: Engine("expert", time_limit=0.2, seed=10) against
#: Engine("beginner", seed=110), recorded, since a level with a time budget does not replay
#: move for move on another machine.
WIPE_OUT = (
    "d3c5f6e3c3f3f5d2c4b5f2g1b4a3a4g5a6c2e6f7e2d1f1b3h1e1c1a5a2b1b2a1b6c6g2a7a8c7b7b8c8d7d6d8e7f4g4g3g7h2h6g6h7g8"
    "h3e8h8f8h4h5"
)


def position(size: int, plies: int, seed: int, goal: str = "classic") -> Board:
    """A running position with at least two legal moves, reached by random play."""
    while True:
        rng = random.Random(seed)
        board = Board(rules=Rules(size=size, goal=goal))
        for _ in range(plies):
            if board.is_game_over():
                break
            if board.must_pass():
                board.push_pass()
            else:
                board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and len(board.legal_moves) >= 2:
            return board
        seed += 1000


def replays(board: Board, line: tuple[Move, ...]) -> bool:
    copy = board.copy()
    for move in line:
        if move not in copy.legal_moves and not (not move and copy.must_pass()):
            return False
        copy.push(move)
    return True


def test_every_legal_move_is_scored_best_first() -> None:
    board = position(8, 12, 1)
    before = (board.to_string(), list(board.move_stack))
    analysis = analyse(board)
    assert (board.to_string(), list(board.move_stack)) == before
    assert sorted(str(m.move) for m in analysis.moves) == sorted(str(m) for m in board.legal_moves)
    scores = [m.score for m in analysis.moves]
    assert scores == sorted(scores, reverse=True)
    assert analysis.best is analysis.moves[0]
    assert analysis.depth == default_depth(8) and not analysis.exact
    for entry in analysis.moves:
        assert entry.line[0] == entry.move
        assert replays(board, entry.line)
        assert entry.result is None


@pytest.mark.parametrize("goal", ["classic", "inverted"])
def test_exact_analysis_agrees_with_the_solver(goal: str) -> None:
    board = position(6, 24, 2, goal)
    analysis = analyse(board)
    assert analysis.exact
    for entry in analysis.moves:
        child = board.copy()
        child.push(entry.move)
        if child.is_game_over():
            continue
        assert entry.score == -solve(child).score
        assert entry.result == ("win" if entry.score > 0 else "loss" if entry.score < 0 else "draw")
    best = solve(board)
    assert analysis.best.score == best.score
    assert analysis.best.move in best.best_moves


def test_depth_one_ranks_like_the_evaluation() -> None:
    board = position(8, 10, 3)
    shallow = analyse(board, depth=1)
    assert shallow.depth == 1
    assert all(len(m.line) == 1 for m in shallow.moves)


def test_time_limited_analysis_stops_in_time() -> None:
    board = position(10, 20, 4)
    start = cpu_seconds()  # not the wall clock, which a loaded machine stretches
    analysis = analyse(board, time_limit=0.3)
    assert cpu_seconds() - start < 0.9
    assert analysis.depth >= 1
    assert len(analysis.moves) == len(board.legal_moves)


def test_time_limit_too_short_for_the_exact_solve_falls_back_to_estimates() -> None:
    board = position(8, 45, 7)  # 15 empties: an exact solve of every move takes seconds
    start = cpu_seconds()  # the solve would use seconds; the wall clock stretches under load
    analysis = analyse(board, time_limit=0.2)
    assert cpu_seconds() - start < 1.0
    assert len(analysis.moves) == len(board.legal_moves)
    assert analysis.depth >= 1


def test_pass_position_has_one_pass_entry() -> None:
    board = Board.from_string("OXXX-OOOOXXX-XXX X", rules=Rules(size=4))
    analysis = analyse(board)
    assert [str(m.move) for m in analysis.moves] == ["pass"]
    assert analysis.best.score == solve(board).score


def test_text_and_html_tables() -> None:
    board = position(6, 26, 5)
    analysis = analyse(board)
    text = str(analysis)
    assert "to move" in text and "exact" in text
    for entry in analysis.moves:
        assert str(entry.move) in text
        assert entry.score_text() in text
    html = analysis._repr_html_()
    assert html.startswith("<table") and html.count("<tr>") == len(analysis.moves) + 1
    assert isinstance(analysis, Analysis)
    assert analysis[str(analysis.best.move)] is analysis.best
    with pytest.raises(KeyError, match="not a legal move"):
        analysis["pass"]  # the side to move has moves, so passing is not among them


def test_progress_is_reported() -> None:
    board = position(8, 14, 6)
    calls: list[float] = []
    analyse(board, depth=2, progress=lambda fraction, message: calls.append(fraction))
    assert calls == sorted(calls) and calls[-1] == 1.0
    assert len(calls) == 2 * len(board.legal_moves) + 1


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="depth"):
        analyse(Board(), depth=0)
    with pytest.raises(ValueError, match="time_limit"):
        analyse(Board(), time_limit=-1)
    with pytest.raises(IllegalMoveError, match="game is over"):
        analyse(Board.from_string("XXXXXXXXXXXXXXXX O", rules=Rules(size=4)))
    with pytest.raises(InvalidPositionError, match="placement"):
        analyse(Board(rules=Rules(start="free")))
    with pytest.raises(TypeError, match="Game or a Board"):
        review("f5d6")


def test_review_of_a_game() -> None:
    board = Board(rules=Rules(size=6))
    engines = (Engine("easy", seed=1), Engine("beginner", seed=2))
    while not board.is_game_over():
        board.push(engines[board.ply % 2].choose(board))
    game = Game.from_board(board)
    before = (board.to_string(), list(board.move_stack))
    calls: list[float] = []
    reviews = review(game, depth=2, progress=lambda fraction, message: calls.append(fraction))
    assert (board.to_string(), list(board.move_stack)) == before
    assert len(reviews) == len(board.move_stack) == len(calls)
    assert [r.played for r in reviews] == board.move_stack
    replay = board.root()
    for entry in reviews:
        assert entry.color == replay.turn
        assert entry.loss >= 0
        if entry.forced:
            assert entry.loss == 0 and entry.best == entry.played
        else:
            assert entry.best in replay.legal_moves
            assert entry.loss == pytest.approx(entry.best_score - entry.played_score)
            if entry.played == entry.best:
                assert entry.loss == 0
        # named as the move list numbers it: "1. d3" for ply 1, "1... c5" for ply 2
        label = f"{(entry.ply + 1) // 2}{'.' if entry.ply % 2 else '...'} {entry.played}"
        assert entry.label == label and str(entry).startswith(label.split(" ")[0] + " ")
        replay.push(entry.played)
    # The beginner's moves lose more on average than the easy level's.
    easy = [r.loss for r in reviews if r.color and not r.forced]
    beginner = [r.loss for r in reviews if not r.color and not r.forced]
    assert sum(easy) / max(1, len(easy)) < sum(beginner) / max(1, len(beginner))
    assert review(board, depth=2) == reviews  # a board with its move stack reviews the same


def finished_game(size: int, goal: str, scoring: str, seed: int) -> Board:
    board = Board(rules=Rules(size=size, goal=goal, scoring=scoring))
    engines = (Engine("easy", seed=seed), Engine("beginner", seed=seed + 1))
    while not board.is_game_over():
        board.push(engines[board.ply % 2].choose(board))
    return board


@pytest.mark.parametrize(("goal", "scoring"), [("classic", "count"), ("inverted", "tournament")])
def test_review_solves_the_end_exactly_and_never_blames_a_move_that_keeps_the_result(goal: str, scoring: str) -> None:
    board = finished_game(6, goal, scoring, 3)
    reviews = review(board)
    position = board.root()
    solved = 0
    for entry in reviews:
        if position.empty_count() <= 12:  # where analyse solves exactly, review does too
            assert entry.exact
        if entry.exact and not entry.forced:
            exact = analyse(position)
            assert exact.exact
            assert entry.best_score == exact.best.score
            assert entry.played_score == exact[entry.played].score
            assert entry.best in [m.move for m in exact.moves if m.score == exact.best.score]
            # A move that keeps the best result loses nothing; any other loses what it gives away.
            keeps = entry.played_score == exact.best.score
            assert (entry.loss == 0) == keeps and (entry.best == entry.played) == keeps
            assert entry.loss == exact.best.score - entry.played_score
            assert " exact: " in str(entry)
            solved += 1
        elif not entry.forced:
            assert " estimate: " in str(entry)
        position.push(entry.played)
    assert solved >= 5


def true_score(board: Board, move: Move) -> int:
    """The exact final margin of ``move`` for the side to move in ``board``."""
    child = board.copy(stack=False)
    child.push(move)
    if child.is_game_over():
        rules = board.rules
        p, o = child.sides()
        return -final_score_function(board.size, rules.goal, rules.scoring)(p, o)
    return -solve(child).score


def test_a_depth_limited_proof_is_a_proven_result_with_a_bound_on_its_margin() -> None:
    """Short of the end, a search that reaches finished games on every line the opponent can
    choose proves a win or a loss, but its margin is a bound: the solver finds some wins
    larger and some losses larger than the search saw. Such a score is never called exact."""
    bounds = strict = 0
    for seed in range(1000):
        rng = random.Random(seed)
        rules = Rules(size=rng.choice([4, 6, 6, 8]), goal=rng.choice(["classic", "inverted"]),
                      scoring=rng.choice(["count", "tournament"]))  # fmt: skip
        board = play_random(Board(rules=rules), rng)
        # Up to 10 empty squares: there a search short of the end reaches finished games on
        # every line often enough (39 bounds in these positions, 16 of them short of the margin);
        # with 11 to 14, none did in 300 positions, and their pure searches took minutes.
        empties = rng.randint(4, 10)
        while board.empty_count() < empties and board.move_stack:
            board.pop()
        if board.is_game_over() or board.must_pass():
            continue
        depth = max(1, board.empty_count() - rng.randint(2, 6))  # never to the end: estimates
        for entry in analyse(board, depth=depth).moves:
            assert not entry.exact and not (entry.exact and entry.bound)
            if not entry.bound:
                assert entry.result is None and abs(entry.rank) < WIN
                continue
            truth = true_score(board, entry.move)
            bounds += 1
            if entry.score > 0:
                assert entry.result == "win" and truth >= entry.score > 0
                assert entry.score_text() == f">=+{entry.score:.0f}" and entry.rank > WIN
            else:
                assert entry.result == "loss" and truth <= entry.score < 0
                assert entry.score_text() == f"<={entry.score:.0f}" and entry.rank < -WIN
            strict += truth != entry.score
    assert bounds >= 30 and strict >= 10  # the bounds are there, and some are not the margin


def test_a_midgame_search_to_the_end_is_exact() -> None:
    """Where the exact attempt runs out of time, the deepening may still reach the end on
    every line: every score is then exact, draws included."""
    from reversi_widget.search import StopSignal
    from reversi_widget.search.root import midgame_entries

    board = position(6, 24, 3)  # 8 empties
    entries, reached, _ = midgame_entries(board, board.empty_count(), None, None, StopSignal())
    assert reached == board.empty_count()
    assert all(entry.exact and not entry.bound for entry in entries)
    assert {str(e.move): e.score for e in entries} == {str(e.move): true_score(board, e.move) for e in entries}


@pytest.mark.parametrize("size", [4, 6, 8])
def test_analysis_and_review_are_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """What a user gets does not depend on numba: every move's score and how sure it is,
    and every reviewed move, are the same with the compiled core and on the pure path."""
    from reversi_widget import native
    from tests.native_support import require_compiled

    require_compiled("midgame")
    require_compiled("endgame")
    rng = random.Random(size)

    def seen(board: Board, depth: int) -> dict[str, tuple[float, bool, bool]]:
        return {str(e.move): (e.score, e.exact, e.bound) for e in analyse(board, depth=depth).moves}

    cases = []
    for _ in range(6):
        rules = Rules(size=size, goal=rng.choice(["classic", "inverted"]), scoring=rng.choice(["count", "tournament"]))
        board = play_random(Board(rules=rules), rng, rng.randint(2, size * size - 8))
        if not board.is_game_over():
            cases.append((board, rng.randint(1, 4)))
    game = play_random(Board(rules=Rules(size=size)), rng)
    compiled = [seen(board, depth) for board, depth in cases], [str(r) for r in review(game, depth=2)]
    with monkeypatch.context() as pure:
        pure.setenv(native.PURE_ENV, "1")
        assert [seen(board, depth) for board, depth in cases] == compiled[0]
        assert [str(r) for r in review(game, depth=2)] == compiled[1]


def test_a_proven_win_ranks_above_any_estimate() -> None:
    move = Move.from_name("a1")
    win, loss, draw = (MoveAnalysis(move, score, True, (move,), 10) for score in (2.0, -2.0, 0.0))
    big, bad = (MoveAnalysis(move, score, False, (move,), 4) for score in (60.0, -60.0))
    assert win.rank > big.rank > draw.rank > bad.rank > loss.rank
    assert MoveAnalysis(move, 4.0, True, (move,), 10).rank > win.rank


def staged_review(monkeypatch: pytest.MonkeyPatch, staged: dict[int, list[MoveAnalysis]], line: str) -> list[Any]:
    """``review`` of ``line`` where ``analyse`` answers what ``staged`` gives for each ply (at a
    depth given, so that the review takes the staged scores as they are: no deeper check)."""

    def analyse_staged(
        position: Board, depth: int | None = None, time_limit: float | None = None, stop: Any = None
    ) -> Analysis:
        entries = sorted(staged[position.ply], key=lambda e: -e.rank)
        assert sorted(str(e.move) for e in entries) == sorted(str(m) for m in position.legal_moves)
        rules = position.rules
        return Analysis(position.to_string(), 8, position.turn, rules.goal, rules.scoring, tuple(entries), 6, 0, 0.0)

    monkeypatch.setattr(game_review, "analyse", analyse_staged)
    return review(Board.from_transcript(line), depth=6)


def staged(name: str, score: float, kind: str) -> MoveAnalysis:
    move = Move.from_name(name)
    return MoveAnalysis(move, score, kind == "exact", (move,), 6, bound=kind == "bound")


def test_review_before_the_solved_end_never_charges_one_proven_win_against_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A depth-limited search proves a win but only a lower bound of its margin, so a move
    proven to win is not blamed for a smaller proven margin than another's; an estimate
    above a proven win does not count against it either. Estimates against estimates do."""
    plies = {
        0: [staged("d3", 20.0, "bound"), staged("c4", 45.0, "estimate"), staged("f5", 4.0, "bound"),
            staged("e6", -3.0, "estimate")],
        1: [staged("f4", 5.0, "estimate"), staged("f6", 3.0, "estimate"), staged("d6", 1.0, "estimate")],
    }  # fmt: skip
    kept, blamed = staged_review(monkeypatch, plies, "f5d6")
    assert (str(kept.played), str(kept.best), kept.loss, kept.exact) == ("f5", "f5", 0.0, False)
    assert (str(blamed.played), str(blamed.best), blamed.loss, blamed.exact) == ("d6", "f4", 4.0, False)
    assert str(blamed).endswith("+1 estimate: loses 4 (best f4 +5)")


@pytest.mark.parametrize(
    ("played", "best", "charged", "exact"),
    [("exact", "exact", 16.0, True), ("exact", "bound", 0.0, False), ("bound", "exact", 0.0, False)],
)
def test_review_charges_a_smaller_win_only_when_both_margins_are_exact(
    monkeypatch: pytest.MonkeyPatch, played: str, best: str, charged: float, exact: bool
) -> None:
    plies = {
        0: [staged("d3", 20.0, best), staged("c4", -2.0, "estimate"), staged("f5", 4.0, played),
            staged("e6", -3.0, "estimate")],
        1: [staged("f4", 5.0, "estimate"), staged("f6", 3.0, "estimate"), staged("d6", 1.0, "estimate")],
    }  # fmt: skip
    first, _ = staged_review(monkeypatch, plies, "f5d6")
    assert (first.loss, first.exact) == (charged, exact)
    assert str(first.best) == ("d3" if charged else "f5")


def test_a_game_won_64_0_marks_no_move_of_the_winner_that_lost_nothing() -> None:
    """In the middle of this game the winner's moves are estimated beyond +64, where two
    moves that both win everything differ by discs that do not exist: the review judges
    such estimates as +64 and charges nothing. A mark on the winner's move is shown only
    where it is proven, and then it is the exact loss. (On the shipping configuration: the
    compiled analysis estimates at depth 8 and solves the last 20 plies.)"""
    from tests.native_support import require_compiled

    require_compiled("midgame")
    require_compiled("endgame")
    board = Board.from_transcript(WIPE_OUT)
    assert (board.count(BLACK), board.count(not BLACK)) == (64, 0)
    reviews = review(board)
    position = board.root()
    unproven, capped = [], 0
    for entry in reviews:
        if entry.color == BLACK and not entry.forced:
            if entry.loss >= min(least for least, _ in REVIEW_MARKS):
                if not entry.exact:
                    unproven.append(str(entry))
                else:
                    exact = analyse(position, depth=position.empty_count())
                    assert entry.loss == exact.best.score - exact[entry.played].score
            if -64 <= entry.best_score <= 64 and -64 <= entry.played_score <= 64:
                capped += not entry.exact and entry.best_score == 64
            else:
                unproven.append(f"{entry} (beyond the board's margins)")
        position.push(entry.played)
    assert unproven == []
    assert capped >= 3  # the case arises in this game: estimates above +64, judged as +64


def test_on_the_pure_path_a_game_won_64_0_marks_none_of_the_winners_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """What JupyterLite runs: the analysis estimates at depth 4, where the differences of two
    estimates often exceed the smallest mark by noise alone; each such loss is searched again
    two plies deeper before it is charged, and here none of the winner's survives. The
    loser's blunders still do."""
    monkeypatch.setenv(native.PURE_ENV, "1")
    board = Board.from_transcript(WIPE_OUT)
    reviews = review(board)
    least = REVIEW_MARKS[-1][0]
    assert [str(e) for e in reviews if e.color == BLACK and e.loss >= least and not e.exact] == []
    assert sum(e.loss >= least for e in reviews if e.color != BLACK) >= 3


def test_judge_checks_an_estimated_loss_worth_a_mark_deeper() -> None:
    """``judge`` charges the analysis' own scores where the loss is too small to mark, and
    the two moves' scores searched ``REVIEW_CHECK_PLIES`` deeper where it is not."""
    checked = unchecked = 0
    for seed in range(12):
        board = play_random(Board(), random.Random(seed), 14)
        if board.is_game_over() or board.must_pass():
            continue
        analysis = analyse(board, depth=2)
        for entry in analysis.moves:
            top, mine, loss = judge(board, analysis, entry.move)
            assert judge(board, analysis, entry.move, check=False) == (
                analysis.best,
                entry,
                max(0.0, analysis.best.score - entry.score) if entry.rank < analysis.best.rank else 0.0,
            )
            if analysis.best.score - entry.score >= REVIEW_MARKS[-1][0]:
                checked += 1
                # Both searched deeper, and any other move that then ranked first, until the
                # best one is a move searched deeper: the verdict's analysis is its own.
                verdict = judged(board, analysis, entry.move)
                assert mine.move == entry.move and mine.depth == 2 + REVIEW_CHECK_PLIES
                assert top == verdict.best and top.depth == 2 + REVIEW_CHECK_PLIES
                assert loss == max(0.0, top.score - mine.score) if mine.rank < top.rank else loss == 0.0
                assert {m.move for m in verdict.moves} == {m.move for m in analysis.moves}
                assert all(m.rank <= top.rank for m in verdict.moves)
            else:
                unchecked += 1
                assert (top, mine) == (analysis.best, entry)
    assert checked >= 10 and unchecked >= 10


def test_near_the_end_judge_searches_the_played_and_the_best_move_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to ``REVIEW_END_EMPTIES`` the verdict is read from selective searches to the end of
    the played move and of the best one (the runner-up where the played move ranks first),
    not from estimates at a depth: their scores are final margins, nearer the solver's than
    the estimates, and a margin called exact is the solver's."""
    from tests.native_support import require_compiled

    require_compiled("midgame")
    require_compiled("endgame")
    monkeypatch.setattr(game_review, "REVIEW_END_SECONDS", 60.0)  # no fallback on a loaded machine
    errors: dict[str, list[float]] = {"to the end": [], "estimate": []}
    for seed in (3,):  # a few seconds a position: the compiled solver checks each move
        board = position(8, 61 - REVIEW_END_EMPTIES, seed)
        empties = board.empty_count()
        assert exact_empties(8, timed=False) < empties <= REVIEW_END_EMPTIES
        analysis = analyse(board, depth=review_depth(8))
        solved: dict[Move, float] = {}
        for entry in (analysis.best, analysis.moves[-1]):
            verdict = judged(board, analysis, entry.move)
            ended = [m for m in verdict.moves if m.depth == empties]
            top, mine = verdict.best, verdict[entry.move]
            assert mine in ended and top in ended and len(ended) >= 2
            assert all(m.score == round(m.score) and not m.bound for m in ended)
            assert {m.exact for m in ended} in ({True}, {False})  # exact only if all are
            for m in ended:
                if m.move not in solved:
                    after = board.copy()
                    after.push(m.move)
                    solved[m.move] = -solve(after).score
            assert all(m.score == solved[m.move] for m in ended if m.exact)
            errors["to the end"] += [abs(m.score - solved[m.move]) for m in ended]
            errors["estimate"] += [abs(analysis[m.move].score - solved[m.move]) for m in ended]
            assert all(m.rank <= top.rank for m in verdict.moves)
            assert judge(board, analysis, entry.move)[2] == (
                max(0.0, top.score - mine.score) if mine.rank < top.rank else 0.0
            )
            assert {m.move for m in verdict.moves} == {m.move for m in analysis.moves}
    mean = {kind: sum(values) / len(values) for kind, values in errors.items()}
    assert mean["to the end"] <= 3.0 and mean["to the end"] < mean["estimate"], mean


def test_a_check_to_the_end_that_overruns_its_time_falls_back_to_the_deeper_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``REVIEW_END_SECONDS`` (here none at all), and on the pure path where no search
    cuts probably, the verdict is the check ``REVIEW_CHECK_PLIES`` deeper, as further from
    the end."""
    board = position(8, 60 - REVIEW_END_EMPTIES, 3)
    analysis = analyse(board, depth=2)
    worst = analysis.moves[-1]
    assert analysis.best.score - worst.score >= REVIEW_MARKS[-1][0]
    for setting in ("no time", "pure"):
        with monkeypatch.context() as patch:
            if setting == "no time":
                patch.setattr(game_review, "REVIEW_END_SECONDS", 0.0)
            else:
                patch.setattr(game_review, "compiled_midgame_ready", lambda size: False)
            verdict = judged(board, analysis, worst.move)
        assert verdict.best.depth == verdict[worst.move].depth == 2 + REVIEW_CHECK_PLIES, setting
        assert judged(board, analysis, analysis.best.move) == analysis


def test_judge_refuses_a_move_or_an_analysis_of_another_position() -> None:
    board = Board.from_transcript("f5d6c3")
    analysis = analyse(board, depth=2)
    before = board.to_string(), [str(m) for m in board.move_stack]
    with pytest.raises(KeyError, match="a1 is not a legal move here"):
        judge(board, analysis, Move.from_name("a1"))
    other = Board.from_transcript("f5d6")
    with pytest.raises(ValueError, match="judge needs the analysis of the position it judges"):
        judge(other, analysis, analysis.best.move)
    inverted = Board.from_transcript("f5d6c3", rules=Rules(goal="inverted"))
    with pytest.raises(ValueError, match=r"classic, count\), not .* inverted, count"):
        judge(inverted, analysis, analysis.best.move)
    assert (board.to_string(), [str(m) for m in board.move_stack]) == before


def test_estimates_stay_within_the_widest_margin_of_the_board() -> None:
    assert within_board(78.5, 8) == 64.0 and within_board(-70.0, 8) == -64.0
    assert within_board(40.0, 6) == 36.0 and within_board(12.25, 8) == 12.25
    # A position this lopsided (36 plies into a game won 64-0) is estimated beyond +64 by the
    # learned tables at depth 2: shown within the board's margins, the best at +64.
    board = Board.from_transcript(WIPE_OUT[:72])
    scores = [m.score for m in analyse(board, depth=2).moves]
    assert all(-64 <= score <= 64 for score in scores) and scores[0] == 64.0, scores


def test_review_with_the_compiled_solver_is_exact_for_the_last_20_plies() -> None:
    from tests.native_support import require_compiled

    require_compiled("endgame")
    board = finished_game(8, "classic", "count", 5)
    reviews = review(board)
    last = reviews[-20:]
    assert all(entry.exact for entry in last)
    # Each played move's score is the value of the position it leads to, for the other side.
    for entry, following in itertools.pairwise(last):
        assert entry.played_score == -following.best_score
    position = board.root()
    for entry in reviews[:-20]:
        position.push(entry.played)
    assert last[0].best_score == solve(position).score


def test_analysis_with_the_compiled_solver_is_exact_from_20_empties() -> None:
    from tests.native_support import require_compiled

    require_compiled("endgame")
    board = position(8, 40, 8)  # 20 empty squares: estimated on the pure path, solved here
    assert board.empty_count() == 20
    analysis = analyse(board)
    assert analysis.exact and analysis.depth == 20
    solution = solve(board)
    assert analysis.best.score == solution.score
    assert {m.move for m in analysis.moves if m.score == solution.score} == set(solution.best_moves)


def test_exact_losses_add_up_to_what_the_game_lost_and_estimates_are_not_added() -> None:
    """In the stretch where every score is exact the losses add up: Black's minus White's is
    what Black's position lost on the board, from its exact value where the stretch starts to
    the final margin. Before it the losses are differences of estimates of different
    positions, which add up to nothing the game allows (in this game, won 64-0, they would
    make White's losses exceed what it lost): they are counted as marked moves, never summed."""
    board = Board.from_transcript(WIPE_OUT)
    reviews = review(board)
    totals = review_totals(reviews)
    assert totals.exact_from is not None
    first = reviews[totals.exact_from - 1]
    start_value = first.best_score if first.color == BLACK else -first.best_score  # for Black
    outcome = board.outcome()
    assert outcome is not None
    lost_on_the_board = start_value - (outcome.black - outcome.white)
    assert totals.exact_loss[BLACK] - totals.exact_loss[WHITE] == lost_on_the_board
    stretch = [r for r in reviews if r.ply >= totals.exact_from and not r.forced]
    assert all(r.exact for r in stretch)
    before = [r for r in reviews if r.ply < totals.exact_from and not r.forced]
    assert totals.marked == {
        color: sum(1 for r in before if r.color == color and review_mark(r)) for color in (BLACK, WHITE)
    }
    assert set(vars(totals)) == {"exact_from", "exact_loss", "marked"}  # no sum of estimates to misread


def test_the_evaluation_chart_is_one_steady_point_of_view() -> None:
    """Each reading alone zig-zags from move to move (an estimate favours the side its search
    ended with to move); the chart's values, the mean of a position's two readings, do not:
    far fewer changes of direction than the scores of the moves played, on master games."""
    from reversi_widget.wthor import read_wthor, replay
    from reversi_widget.wthor_data import SAMPLE

    board = next(b for b in map(replay, read_wthor(SAMPLE / "WTH_2021.wtb")) if b.is_game_over() and b.ply == 60)
    reviews = review(board)
    values = evaluations(reviews)
    played = [0.0] + [r.played_score if r.color == BLACK else -r.played_score for r in reviews]

    def turns(series: list[float]) -> int:
        steps = [b - a for a, b in itertools.pairwise(series) if abs(b - a) > 0.5]
        return sum(1 for a, b in itertools.pairwise(steps) if a * b < 0)

    # About half as many or fewer: 15 against 38 on the compiled core, 20 against 39 on the pure path.
    assert turns(values) <= 0.55 * turns(played), (turns(values), turns(played))
    assert all(-64 <= value <= 64 for value in values)
    assert values[-1] == board.count(BLACK) - board.count(WHITE)
