"""The exact endgame solver against a plain minimax written on the Board API."""

from __future__ import annotations

import random

import pytest

from reversi_widget import Board, IllegalMoveError, InvalidPositionError, Move, Rules
from reversi_widget.progress import NotebookProgress
from reversi_widget.solver import Solution, solve

VARIANTS = [(goal, scoring) for goal in ("classic", "inverted") for scoring in ("count", "tournament")]


def final_margin(board: Board) -> int:
    """The finished game's margin for the side to move, read from ``Board.outcome`` only."""
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0
    margin = abs(outcome.black - outcome.white)
    return margin if outcome.winner == board.turn else -margin


def minimax(board: Board, memo: dict[tuple[int, int, bool], int] | None = None) -> int:
    """Plain minimax, no pruning: the reference the solver must match. ``memo`` remembers
    positions already valued (transpositions), which keeps the full 4x4 tree quick."""
    key = (*board.bitboards(), board.turn)
    if memo is not None and key in memo:
        return memo[key]
    if board.is_game_over():
        score = final_margin(board)
    elif board.must_pass():
        board.push_pass()
        score = -minimax(board, memo)
        board.pop()
    else:
        score = -1000
        for move in board.legal_moves:
            board.push(move)
            score = max(score, -minimax(board, memo))
            board.pop()
    if memo is not None:
        memo[key] = score
    return score


def random_position(rules: Rules, empties: int, rng: random.Random) -> Board:
    """A position reached by random legal moves with ``empties`` squares left, game not over."""
    while True:
        board = Board(rules=rules)
        while board.empty_count() > empties and not board.is_game_over():
            if board.must_pass():
                board.push_pass()
            else:
                board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            return board


def replay_line(board: Board, line: tuple[Move, ...]) -> Board:
    end = board.copy()
    for move in line:
        end.push(move)
    return end


@pytest.mark.parametrize(("goal", "scoring"), VARIANTS)
@pytest.mark.parametrize("size", [4, 6, 8])
def test_solver_matches_minimax(size: int, goal: str, scoring: str) -> None:
    rng = random.Random(f"{size}{goal}{scoring}")
    rules = Rules(size=size, goal=goal, scoring=scoring)
    for _ in range(6):
        board = random_position(rules, rng.randint(1, min(8, size * size - 5)), rng)
        before = (board.to_string(), list(board.move_stack))
        solution = solve(board)
        assert (board.to_string(), list(board.move_stack)) == before  # never mutates
        assert solution.score == minimax(board.copy()), board.to_string()
        # Every best move keeps the score and every other move does worse.
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            value = -minimax(child)
            assert (value == solution.score) == (move in solution.best_moves)
            assert value <= solution.score
        # The principal line is legal, reaches the end and scores exactly.
        end = replay_line(board, solution.line)
        assert end.is_game_over()
        sign = 1 if end.turn == board.turn else -1
        assert sign * final_margin(end) == solution.score


def test_4x4_full_solve_matches_minimax() -> None:
    for goal in ("classic", "inverted"):
        board = Board(rules=Rules(size=4, goal=goal))
        solution = solve(board)
        assert solution.score == minimax(board.copy(), {})
        end = replay_line(board, solution.line)
        outcome = end.outcome()
        assert outcome is not None
        assert (outcome.black - outcome.white) * (1 if goal == "classic" else -1) == solution.score
    # Classic 4x4: the second player wins (White 11-3 under perfect play).
    classic = solve(Board(rules=Rules(size=4)))
    assert classic.score == -8
    assert classic.result == "loss"
    assert {str(m) for m in classic.best_moves} == {"b1", "a2", "d3", "c4"}  # the four symmetric openings


def test_pass_position_solves_through_the_pass() -> None:
    board = Board.from_string("OXXX-OOOOXXX-XXX X", rules=Rules(size=4))
    # Black to move has no legal move but White has: the best "move" is the pass.
    assert not board.legal_moves and board.must_pass()
    solution = solve(board)
    assert solution.best_moves == (Move.null(4),)
    passed = board.copy()
    passed.push_pass()
    assert solution.score == -solve(passed).score == minimax(board.copy())


def test_tournament_scoring_gives_the_empties_to_the_winner() -> None:
    # Black to move wipes White out with one move, leaving empty squares.
    board = Board.from_string("XO-------------- X", rules=Rules(size=4, scoring="tournament"))
    assert solve(board).score == 16  # 3 discs to 0 plus the 13 empty squares
    plain = Board.from_string("XO-------------- X", rules=Rules(size=4))
    assert solve(plain).score == 3


def test_finished_and_placement_positions_are_refused() -> None:
    finished = Board.from_string("XXXXXXXXXXXXXXXX O", rules=Rules(size=4))
    with pytest.raises(IllegalMoveError, match="game is over"):
        solve(finished)
    free = Board(rules=Rules(size=4, start="free"))
    with pytest.raises(InvalidPositionError, match="placement"):
        solve(free)
    with pytest.raises(ValueError, match="time_limit"):
        solve(Board(rules=Rules(size=4)), time_limit=0)


def test_time_limit_gives_up_with_timeout_error() -> None:
    board = Board(rules=Rules(size=6))  # 32 empties: far beyond a few milliseconds
    with pytest.raises(TimeoutError, match="time limit"):
        solve(board, time_limit=0.05)


def test_progress_callback_reports_rising_fractions() -> None:
    rng = random.Random(11)
    board = random_position(Rules(size=6), 9, rng)
    calls: list[tuple[float, str]] = []
    solution = solve(board, progress=lambda fraction, message: calls.append((fraction, message)))
    assert isinstance(solution, Solution)
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions)
    assert fractions[-1] == 1.0
    assert len(calls) == len(board.legal_moves) + 1
    assert all(isinstance(message, str) and message for _, message in calls)


def test_notebook_progress_updates_its_widgets() -> None:
    indicator = NotebookProgress("Solving")
    indicator(0.25, "move <1> of 4")
    assert indicator.bar.value == 25
    assert indicator.label.value == "move &lt;1&gt; of 4"
    indicator(1.0, "solved")
    assert indicator.bar.value == 100
    assert indicator.bar.bar_style == "success"


def test_show_progress_outside_a_notebook_is_silent() -> None:
    board = Board.from_string("XO-------------- X", rules=Rules(size=4))
    assert solve(board, show_progress=True).score == 3


def test_solution_text_names_result_and_moves() -> None:
    solution = solve(Board(rules=Rules(size=4)))
    text = str(solution)
    assert text.startswith("loss by 8")
    assert all(str(m) in text for m in solution.best_moves)
    assert " ".join(str(m) for m in solution.line) in text
