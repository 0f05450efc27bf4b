"""The whole loop: a real Jupyter server and kernel, the real js/widget.js in headless
Chromium. JupyterLab and Notebook 7 (served by the same server) each run a notebook,
click the board, and the kernel is asked what it now holds. Also: an executed notebook
exported to HTML still carries the board.

The server is started once for the module; each test opens its own notebook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from reversi_widget import Board, Move, explain
from tests.lab import Server, open_and_run, run_code, settled_output, view, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent


def discs(page: Any, widget: str) -> dict[str, str]:
    return page.evaluate(  # type: ignore[no-any-return]
        """(v) => Object.fromEntries([...document.querySelectorAll(v + ' [data-square]')]
            .map(g => [g.dataset.square, g.dataset.disc]))""",
        widget,
    )


def expected_discs(board: Board) -> dict[str, str]:
    black, white = board.bitboards()
    n = board.size
    return {
        f"{'abcdefghijklmnop'[sq % n]}{sq // n + 1}": "black"
        if black >> sq & 1
        else "white"
        if white >> sq & 1
        else "empty"
        for sq in range(n * n)
    }


def play_human_game(page: Any, url: str) -> None:
    """Two views of one widget: a click in one shows in both; an illegal click gives a notice;
    the kernel holds exactly the position shown."""
    panel = open_and_run(page, url)
    first, second = view(panel, 1), view(panel, 2)
    page.wait_for_selector(f'{first} [data-square="d3"]')
    page.wait_for_selector(f'{second} [data-square="d3"]')
    assert discs(page, first) == expected_discs(Board())
    assert page.get_attribute(f'{first} [data-square="d3"]', "data-legal") is not None

    page.click(f'{first} [data-square="d3"]')
    page.wait_for_selector(f'{first} [data-square="d3"][data-disc="black"]')
    page.wait_for_selector(f'{second} [data-square="d3"][data-disc="black"]')
    after = Board.from_transcript("d3")
    assert discs(page, first) == expected_discs(after) == discs(page, second)

    page.click(f'{second} [data-square="a1"]')  # illegal for White: the reason, in one sentence
    notice = page.wait_for_selector(f'{first} [data-role="notice"]:not([hidden])')
    assert page.inner_text(f'{first} [data-role="notice"] .rw-notice-text') == explain(after, "a1").short()
    assert notice.get_attribute("data-kind") == "explain"
    assert page.get_attribute(f'{first} [data-square="a1"]', "data-disc") == "empty"

    # A setting changed in one view reaches Python and the other view.
    page.click(f'{second} input[data-setting="show_legal"]')
    page.wait_for_function("(v) => !document.querySelector(v + ' [data-square][data-legal]')", arg=first)

    # One notice only (the refused a1): loading the views wrote nothing that had to be reverted.
    expected = f"{after.to_string()} ['d3'] explain 1 False END"
    state = "print(w.board.to_string(), w.moves, w.notice_kind, w.notice_id, w.show_legal, 'END')"
    assert settled_output(page, 2, state, expected).strip() == expected


HUMAN_GAME = (
    "from reversi_widget.widget import ReversiWidget\nw = ReversiWidget(animation='off')\nw",
    "w",
    "print('END')",
)


def test_jupyterlab_human_game(server: Server, page: Any) -> None:
    name = write_notebook(server, "lab.ipynb", *HUMAN_GAME)
    play_human_game(page, f"{server.url}/lab/tree/{name}?reset")
    assert page.evaluate("() => window.jupyterapp.name") == "JupyterLab"


def test_notebook7_human_game(server: Server, page: Any) -> None:
    name = write_notebook(server, "nb7.ipynb", *HUMAN_GAME)
    play_human_game(page, f"{server.url}/notebooks/{name}")
    assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"


def test_jupyterlab_computer_replies(server: Server, page: Any) -> None:
    name = write_notebook(
        server,
        "computer.ipynb",
        "from reversi_widget.widget import ReversiWidget\n"
        "w = ReversiWidget(white='greedy', animation='off', move_delay=1.0)\nw",
        "print('END')",
    )
    board = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f'{board} [data-square="d3"][data-legal]')  # the synced position, its moves shown
    page.click(f'{board} [data-square="d3"]')
    page.wait_for_selector(f"{board}[data-thinking]")  # the computer's turn shows
    # The reply is applied in the kernel's worker thread and must still reach the page.
    page.wait_for_function(
        "(v) => document.querySelectorAll(v + ' [data-square]:not([data-disc=\"empty\"])').length === 6",
        arg=board,
    )
    page.wait_for_selector(f'{board}[data-turn="black"]:not([data-thinking])')
    shown = discs(page, board)
    printed = run_code(page, 1, "print(w.board.transcript(), w.ply, 'END')")
    transcript, ply, _ = printed.split()
    assert ply == "2" and transcript.startswith("d3") and transcript[2:] in {"c3", "e3", "c5"}
    assert shown == expected_discs(Board.from_transcript(transcript))
    assert page.get_attribute(f'{board} [data-square="{transcript[2:]}"]', "data-disc") == "white"


def test_jupyterlab_explains_in_polish_and_practises_a_move(server: Server, page: Any) -> None:
    """An illegal click reads its reason in the page (Polish); a practice move with a wrong
    flip is marked, corrected, and only then played (rule R17)."""
    name = write_notebook(
        server,
        "teach.ipynb",
        "from reversi_widget.widget import ReversiWidget\n"
        "w = ReversiWidget(language='pl', practice=True, animation='off')\nw",
        "print('END')",
    )
    board = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)

    def square(name: str) -> str:
        return f'{board} [data-square="{name}"]'

    notice = f'{board} [data-role="notice"]'
    page.wait_for_selector(square("d3"))
    assert page.get_attribute(board, "lang") == "pl"

    page.click(square("a1"))
    page.wait_for_selector(f'{notice}[data-kind="explain"]:not([hidden])')
    assert page.inner_text(f"{notice} .rw-notice-text") == explain(Board(), "a1", language="pl").short()
    assert page.get_attribute(square("a1"), "data-disc") == "empty"

    page.click(square("d3"))  # placed; nothing flips
    page.wait_for_selector(f'{square("d3")}[data-disc="black"][data-practice="placed"]')
    assert page.get_attribute(square("d4"), "data-disc") == "white"
    page.click(square("e5"))  # a wrong flip
    page.wait_for_selector(f'{square("e5")}[data-disc="black"]')
    page.click(f'{board} [data-action="practice_done"]')
    page.wait_for_selector(f'{square("e5")}[data-practice-mark="wrong"]')
    page.wait_for_selector(f'{square("d4")}[data-practice-mark="missed"]')
    assert page.inner_text(notice).startswith("Jeszcze nie: e5 nie powinien się odwrócić.")
    # The tally beside that feedback already counts its two mistakes (e5 wrong, d4 missed).
    page.wait_for_function(
        "(s) => document.querySelector(s).textContent === '2'", arg=f'{board} [data-role="practice-mistakes"]'
    )
    assert page.inner_text(f'{board} [data-role="practice-moves"]') == "0"
    page.click(square("e5"))  # corrected (R17: the opponent has not moved yet)
    page.wait_for_selector(f'{square("e5")}[data-disc="white"]:not([data-practice-mark])')
    page.click(square("d4"))
    page.wait_for_selector(f'{square("d4")}[data-disc="black"]')
    page.click(f'{board} [data-action="practice_done"]')
    page.wait_for_selector(f'{board}[data-turn="white"]:not([data-practice-pending])')
    assert page.inner_text(f'{board} [data-role="practice-mistakes"]') == "2"
    printed = run_code(page, 1, "print(w.board.transcript(), w.practice_mistakes, w.practice_moves, 'END')")
    assert printed.split() == ["d3", "2", "1", "END"]
    assert discs(page, board) == expected_discs(Board.from_transcript("d3"))


def finished_transcript(seed: int) -> str:
    """A whole game between two seeded random players, as a transcript."""
    from reversi_widget.players import RandomPlayer

    board, player = Board(), RandomPlayer(seed)
    while not board.is_game_over():
        board.push(Move.null(board.size) if board.must_pass() else player.choose(board))
    return board.transcript()


def test_jupyterlab_against_the_beginner_with_a_hint_scores_and_a_review(server: Server, page: Any) -> None:
    """A human against the engine's weakest level: the computer replies, the Hint button
    rings a legal square, the score toggle writes every legal move's score, and a
    finished game is reviewed from its button (marks in the move list, the chart)."""
    name = write_notebook(
        server,
        "aids.ipynb",
        "from reversi_widget.widget import ReversiWidget\n"
        "w = ReversiWidget(white='beginner', animation='off', analysis_depth=2)\nw",
        "print('END')",
    )
    board = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    d3 = f'{board} [data-square="d3"]'
    page.wait_for_selector(d3)
    assert page.inner_text(f'{board} .rw-player[data-color="white"] [data-role="player-name"]') == "Computer (beginner)"
    page.click(d3)
    page.wait_for_function(
        "(v) => document.querySelectorAll(v + ' [data-square]:not([data-disc=\"empty\"])').length === 6", arg=board
    )
    page.wait_for_selector(f'{board}[data-turn="black"]:not([data-thinking])')

    page.click(f'{board} [data-action="hint"]')
    page.wait_for_selector(f"{board} [data-square][data-hint]")
    hinted = page.eval_on_selector_all(f"{board} [data-square][data-hint]", "els => els.map(e => e.dataset.square)")
    legal = page.eval_on_selector_all(f"{board} [data-square][data-legal]", "els => els.map(e => e.dataset.square)")
    assert hinted and set(hinted) <= set(legal)
    page.wait_for_selector(f'{board} [data-role="notice"]:not([hidden])')
    assert page.inner_text(f'{board} [data-role="notice"] .rw-notice-text').startswith("Hint for Black: ")

    page.click(f'{board} input[data-setting="show_scores"]')
    page.wait_for_function(
        "([v, n]) => document.querySelectorAll(v + ' [data-square][data-score]').length === n",
        arg=[board, len(legal)],
    )
    printed = run_code(page, 1, "print(sorted(w.hints), sorted(w.scores) == sorted(w.legal), w.show_scores, 'END')")
    assert printed.split("END")[0].strip() == f"{sorted(hinted)} True True"

    transcript = finished_transcript(4)
    run_code(page, 1, f"w.white = 'human'\nw.show_scores = False\nw.load({transcript!r})\nprint('END')")
    page.click(f'{board} [data-action="review"]')
    moves = len(Board.from_transcript(transcript).move_stack)
    page.wait_for_function(
        "([v, n]) => document.querySelectorAll(v + ' [data-role=\"review-chart\"] circle[data-ply]').length === n",
        arg=[board, moves + 1],
    )
    page.wait_for_selector(f"{board} [data-role=moves] [data-mark]")
    losses = page.eval_on_selector_all(f"{board} [data-role=moves] [data-loss]", "els => els.map(e => +e.dataset.loss)")
    assert len(losses) >= moves - 5 and min(losses) >= 0
    printed = run_code(page, 1, "print(len(w.review_moves), len(w.evaluations), w.busy or '-', 'END')")
    assert printed.split() == [str(moves), str(moves + 1), "-", "END"]


def test_executed_notebook_keeps_the_board_in_html(tmp_path: Path) -> None:
    """nbclient runs examples/01-play.ipynb saving widget state; nbconvert's HTML then
    carries every board (its discs) and the front-end module."""
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    notebook = nbformat.read(ROOT / "examples" / "01-play.ipynb", as_version=4)
    NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    boards = [m["state"] for m in state.values() if "discs" in m["state"]]
    assert len(boards) >= 10
    assert any(b["moves"] for b in boards)  # games were played, not only set up
    html, _ = HTMLExporter().from_notebook_node(notebook)
    assert "application/vnd.jupyter.widget-state+json" in html
    for board in boards:
        assert board["discs"] in html
    esm_marker = "export default { render }"
    assert esm_marker in (ROOT / "js" / "widget.js").read_text()
    assert esm_marker in html
    assert html.count("application/vnd.jupyter.widget-view+json") >= len(boards)
