"""Puzzles and the position editor in real JupyterLab, as a learner and a teacher meet them:
solve a puzzle by clicking, get a wrong answer explained and played out, set up a position
and play from it.

One JupyterLab server for the module; each test opens its own notebook, clicks the board and
then asks the kernel what it holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from reversi_widget.puzzles import Puzzle, shipped
from tests.lab import Server, open_and_run, run_code, view, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Shallow puzzles: perfect defence answers at once.
SETUP = (
    "from reversi_widget import ReversiWidget\n"
    "from reversi_widget.puzzles import shipped\n"
    "puzzles = [p for p in shipped(size=8) if p.difficulty.empties <= 10][:3]\n"
    "w = ReversiWidget(puzzle=puzzles, learner='Ann', animation='off')\n"
    "w"
)


def first_puzzle() -> Puzzle:
    return next(p for p in shipped(size=8) if p.difficulty.empties <= 10)


def test_solve_a_puzzle_by_clicking(server: Server, page: Any) -> None:
    puzzle = first_puzzle()
    name = write_notebook(server, "solve.ipynb", SETUP, "")
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    root = view(panel, 1)
    task = page.wait_for_selector(f"{root} [data-role=puzzle-task]")
    assert task.inner_text() == puzzle.task_text()
    answer = str(puzzle.solution[0])
    page.click(f'{root} [data-square="{answer}"]')
    verdict = page.wait_for_selector(f'{root} [data-role=puzzle][data-verdict="right"] [data-role=puzzle-verdict]')
    assert verdict.inner_text() == puzzle.verdict(answer).text
    assert page.inner_text(f"{root} [data-role=puzzle-score]") == "Solved 1 of 1"
    page.click(f'{root} [data-action="puzzle_next"]')
    page.wait_for_function(
        "(v) => document.querySelector(v + ' [data-role=puzzle-counter]').textContent === 'Puzzle 2 of 3'", arg=root
    )
    told = run_code(page, 1, "w.wait(30); print(w.puzzle_score, w.current_puzzle == puzzles[1], 'END')")
    assert told.startswith("solved 1 of 1 puzzle at the first try True")


def test_a_wrong_answer_is_explained(server: Server, page: Any) -> None:
    puzzle = first_puzzle()
    wrong = next(r for r in puzzle.results if r.move not in puzzle.solution)
    name = write_notebook(server, "wrong.ipynb", SETUP, "")
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    root = view(panel, 1)
    page.wait_for_selector(f"{root} [data-role=puzzle-task]")
    page.click(f'{root} [data-square="{wrong.move}"]')
    verdict = page.wait_for_selector(f'{root} [data-role=puzzle][data-verdict="wrong"] [data-role=puzzle-verdict]')
    assert verdict.inner_text() == puzzle.verdict(wrong.move).text
    assert "not a solution" in verdict.inner_text()
    assert page.inner_text(f'{root} [data-action="puzzle_play_out"]') == "Play it out"
    page.click(f'{root} [data-action="puzzle_play_out"]')  # see why: perfect play to the end
    page.wait_for_selector(f"{root}[data-game-over]", timeout=90_000)
    told = run_code(page, 1, "o = w.board.outcome(); print(o.black - o.white, w.moves[0], 'END')")
    margin = puzzle.result(wrong.move).score * (1 if puzzle.turn else -1)
    assert told.startswith(f"{margin} {wrong.move}")  # the tried move's exact result, played out
    page.click(f'{root} [data-action="puzzle_retry"]')
    page.wait_for_selector(f'{root} [data-square="{wrong.move}"][data-disc="empty"]')
    page.click(f'{root} [data-action="puzzle_solution"]')
    page.wait_for_function(
        "([v, squares]) => squares.every(sq => document.querySelector(`${v} [data-square=${sq}][data-hint]`))",
        arg=[root, [str(m) for m in puzzle.solution]],
    )
    told = run_code(page, 1, "w.wait(30); print(w.puzzle_score, w.puzzle_state['solution'], 'END')")
    assert told.startswith(f"solved 0 of 1 puzzle at the first try {[str(m) for m in puzzle.solution]}")  # miss counts


def test_set_up_a_position_in_the_editor_and_play_from_it(server: Server, page: Any) -> None:
    name = write_notebook(
        server, "editor.ipynb", "from reversi_widget import ReversiWidget\nw = ReversiWidget(animation='off')\nw", ""
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    root = view(panel, 1)
    page.click(f'{root} [data-action="edit"]')
    page.wait_for_selector(f"{root}[data-editing]")
    page.click(f'{root} [data-action="edit_clear"]')
    page.wait_for_function(
        "(v) => !document.querySelector(v + ' [data-disc=black], ' + v + ' [data-disc=white]')", arg=root
    )
    page.click(f'{root} [data-action="edit_done"]')  # an empty centre: refused, still editing
    page.wait_for_function(
        "(v) => (document.querySelector(v + ' [data-role=notice]') || {}).textContent?.includes('centre squares')",
        arg=root,
    )
    assert page.query_selector(f"{root}[data-editing]") is not None
    clicks = {"d4": 1, "e4": 2, "d5": 2, "e5": 1, "c3": 1}  # 1: black, 2: white
    for square, times in clicks.items():
        for _ in range(times):
            page.click(f'{root} [data-square="{square}"]')
    page.wait_for_selector(f'{root} [data-square="c3"][data-disc="black"]')
    page.select_option(f"{root} [data-role=edit-turn]", "white")
    page.wait_for_selector(f"{root}[data-turn=white]")
    page.click(f'{root} [data-action="edit_done"]')
    page.wait_for_selector(f"{root}:not([data-editing])")
    legal = page.wait_for_selector(f"{root} [data-legal]")
    square = legal.get_attribute("data-square")
    page.click(f'{root} [data-square="{square}"]')
    page.wait_for_selector(f'{root} [data-square="{square}"][data-disc="white"]')  # Python played it
    told = run_code(page, 1, "w.wait(10); print(w.board.move_stack, w.board.root().to_string(), 'END')")
    expected_root = "-" * 18 + "X" + "-" * 8 + "XO------OX" + "-" * 27 + " O"
    assert told.startswith(f"[Move.from_name('{square}')] {expected_root}")


def test_a_puzzle_at_the_end_of_a_cell_shows_its_board_and_its_task(server: Server, page: Any) -> None:
    """examples/05-puzzles.ipynb ends a cell with ``first``: JupyterLab draws the position
    with its task, source and difficulty in words, not only the ``<Puzzle ...>`` line."""
    puzzle = first_puzzle()
    code = "\n".join(
        [
            "from reversi_widget.puzzles import shipped",
            "first = [p for p in shipped(size=8) if p.difficulty.empties <= 10][0]",
            "first",
        ]
    )
    name = write_notebook(server, "show.ipynb", code)
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    figure = page.wait_for_selector(f"{panel} .jp-Cell:nth-child(1) .jp-OutputArea-output figure.reversi-puzzle")
    board = figure.query_selector("svg.reversi-board")
    assert board is not None and board.bounding_box()["width"] > 200  # drawn, at a size one can read
    words = figure.inner_text()
    assert puzzle.task_text() in words and f"Difficulty level {puzzle.difficulty.level} of 10" in words
    assert "<Puzzle" not in page.inner_text(f"{panel} .jp-Cell:nth-child(1) .jp-OutputArea")
