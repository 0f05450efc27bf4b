"""Make the README's pictures: the widget in JupyterLab (light, dark, dark with scores, high
contrast, a puzzle, a reviewed game, a hint with its line, a quiz, the deck of one's own
mistakes, a coached game), a board grid and charts.

    python docs/make_images.py [static widget puzzle review line quiz deck coach concept variation]

Needs jupyterlab, playwright and Debian's Chromium, like the browser tests.
"""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reversi_widget import Board, Game, charts, svg  # noqa: E402
from reversi_widget.records import GameLog  # noqa: E402
from tests.support import KERNEL_IDLE, chromium, jupyter_lab, play_random  # noqa: E402

IMAGES = ROOT / "docs" / "images"
OPENING = "f5d6c3d3c4f4f6f3e6e7d7c5"


THEME = "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})"


def random_game(rng: random.Random, black: str, white: str) -> Game:
    return Game.from_board(play_random(Board(), rng), black_player=black, white_player=white)


def static_pictures() -> None:
    game = Game.from_transcript(OPENING, black_player="Ada", white_player="Blaise")
    svg.game(game, columns=4, size=150).save(IMAGES / "grid.svg")
    rng = random.Random(25)
    with tempfile.TemporaryDirectory() as tmp:
        log = GameLog(Path(tmp) / "games.db")
        players = ["Ada", "Blaise", "Chen"]
        log.add_many(random_game(rng, *rng.sample(players, 2)) for _ in range(30))
        log.chart().save(IMAGES / "win-rates.svg")
        log.close()
    charts.disc_count(random_game(rng, "Ada", "Blaise")).save(IMAGES / "disc-count.svg")


def widget_screenshots() -> None:
    board = Board.from_transcript(OPENING)
    hover = max(board.legal_moves, key=lambda move: len(board.flips(move)))
    square = f'.reversi-widget [data-square="{hover}"]'
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        source = (
            "from reversi_widget import Board, ReversiWidget\n"
            f"w = ReversiWidget(Board.from_transcript({OPENING!r}), white='greedy', animation='off')\n"
            "w"
        )
        notebook = nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell(source)],
            metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        )
        nbformat.write(notebook, root / "board.ipynb")
        with jupyter_lab(root, ["--LabApp.expose_app_in_browser=True"]) as url, chromium() as browser:
            page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
            page.set_default_timeout(60_000)
            page.goto(f"{url}/lab/tree/board.ipynb?reset")
            page.wait_for_function(KERNEL_IDLE)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            widget = page.locator(".reversi-widget").first
            widget.wait_for()
            page.wait_for_function(KERNEL_IDLE)
            page.locator(square).first.hover()
            page.wait_for_timeout(500)
            widget.screenshot(path=str(IMAGES / "board-light.png"))
            page.evaluate(
                "() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})"
            )
            page.wait_for_timeout(2000)
            page.locator(square).first.hover()
            page.wait_for_timeout(500)
            widget.screenshot(path=str(IMAGES / "board-dark.png"))
            # the score of every legal move, as a player turns it on, in the dark theme...
            page.locator(".reversi-widget input[data-setting=show_scores]").first.check()
            page.locator(".reversi-widget [data-square][data-score]").first.wait_for()
            page.mouse.move(0, 0)
            page.wait_for_timeout(500)
            widget.screenshot(path=str(IMAGES / "board-dark-scores.png"))
            # ...and in the high-contrast theme
            page.locator(".reversi-widget select[data-setting=theme]").first.select_option("high-contrast")
            page.wait_for_selector('.reversi-widget[data-theme="high-contrast"]')
            page.wait_for_timeout(500)
            widget.screenshot(path=str(IMAGES / "board-high-contrast.png"))
            page.evaluate(
                "() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})"
            )


def puzzle_screenshot() -> None:
    """A shipped puzzle in the widget, right after its answer was clicked: task and verdict."""
    from reversi_widget.puzzles import shipped

    puzzle = next(p for p in shipped(size=8) if p.task == "win" and p.difficulty.empties == 10)
    source = (
        "from reversi_widget import ReversiWidget\n"
        "from reversi_widget.puzzles import shipped\n"
        f"w = ReversiWidget(puzzle=[p for p in shipped() if p.name == {puzzle.name!r}], animation='off')\n"
        "w"
    )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        notebook = nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell(source)],
            metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        )
        nbformat.write(notebook, root / "puzzle.ipynb")
        with jupyter_lab(root, ["--LabApp.expose_app_in_browser=True"]) as url, chromium() as browser:
            page = browser.new_page(viewport={"width": 1100, "height": 1000}, device_scale_factor=1)
            page.set_default_timeout(60_000)
            page.goto(f"{url}/lab/tree/puzzle.ipynb?reset")
            page.wait_for_function(KERNEL_IDLE)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            widget = page.locator(".reversi-widget").first
            widget.wait_for()
            page.locator(f'.reversi-widget [data-square="{puzzle.solution[0]}"]').first.click()
            page.locator('.reversi-widget [data-role=puzzle][data-verdict="right"]').first.wait_for()
            page.wait_for_function(KERNEL_IDLE)
            page.wait_for_timeout(500)
            widget.screenshot(path=str(IMAGES / "puzzle.png"))


@contextmanager
def lab_page(source: str, name: str, height: int, timeout: int) -> Iterator[Any]:
    """A page of real JupyterLab on a one-cell notebook of ``source``, run, its kernel idle."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        notebook = nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell(source)],
            metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        )
        nbformat.write(notebook, root / name)
        with jupyter_lab(root, ["--LabApp.expose_app_in_browser=True"]) as url, chromium() as browser:
            page = browser.new_page(viewport={"width": 1100, "height": height}, device_scale_factor=1)
            page.set_default_timeout(timeout)
            page.goto(f"{url}/lab/tree/{name}?reset")
            page.wait_for_function(KERNEL_IDLE)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            yield page


def review_screenshot() -> None:
    """A reviewed game at its first marked move: the best move ringed on the board, the verdict
    under it, the marks in the move list and the labelled chart."""
    from tests.test_analysis import WIPE_OUT

    source = (
        "from reversi_widget import Board, ReversiWidget, native\n"
        "native.wait('midgame'); native.wait('endgame')\n"
        f"w = ReversiWidget(Board.from_transcript({WIPE_OUT!r}), animation='off')\n"
        "w.review()\n"
        "assert w.wait(300) and w.review_moves\n"
        "w"
    )
    with lab_page(source, "review.ipynb", 1100, 300_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector(".reversi-widget [data-role=review-chart] .rw-chart-axis")
        page.wait_for_function(KERNEL_IDLE)
        page.locator(".reversi-widget [data-role=moves] [data-ply]:has(.rw-annot)").first.click()
        page.wait_for_selector(".reversi-widget [data-review-best]")
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        widget.screenshot(path=str(IMAGES / "review.png"))


def line_screenshot() -> None:
    """A hint with its line: the best move ringed, its line as numbered ghost discs in the
    movers' colours, and the line in words under the board."""
    source = (
        "from reversi_widget import Board, ReversiWidget, native\n"
        "native.wait('midgame'); native.wait('endgame')\n"
        f"w = ReversiWidget(Board.from_transcript({OPENING!r}), animation='off')\n"
        "w.hint()\n"
        "assert w.wait(60) and w.lines\n"
        "w"
    )
    with lab_page(source, "line.ipynb", 1000, 120_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector(".reversi-widget [data-role=ghosts] .rw-ghost")
        page.wait_for_function(KERNEL_IDLE)
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        widget.screenshot(path=str(IMAGES / "hint-line.png"))


def concept_screenshot() -> None:
    """The concept overlay: a middle-game position with every stable disc marked, and the
    sentence that explains the concept under the board."""
    source = (
        "from reversi_widget import Board, ReversiWidget\n"
        f"w = ReversiWidget(Board.from_transcript({QUIZ_GAME!r}), concept='stable', animation='off')\n"
        "w"
    )
    with lab_page(source, "concept.ipynb", 1000, 60_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector(".reversi-widget [data-concept-mark]")
        page.wait_for_function(KERNEL_IDLE)
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        widget.screenshot(path=str(IMAGES / "concept.png"))


def variation_screenshot() -> None:
    """A line with a variation kept: the Aubrey (the Tiger, then 3... b3) named above the
    move list, the old continuation in brackets in the list, and the live evaluation's bar
    beside the board."""
    source = (
        "from reversi_widget import ReversiWidget, native\n"
        "native.wait('midgame'); native.wait('endgame')\n"
        "w = ReversiWidget('f5d6c3d3c4f4f6', animation='off', live_evaluation='chance', analysis_depth=6)\n"
        "w.jump(5); w.play('b3')\n"
        "assert w.wait(60)\n"
        "w"
    )
    with lab_page(source, "variation.ipynb", 1000, 120_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector(".reversi-widget [data-role=opening]:not([hidden])")
        page.wait_for_selector(".reversi-widget .rw-variation")
        page.wait_for_function(KERNEL_IDLE)
        page.mouse.move(0, 0)
        page.wait_for_timeout(800)
        widget.screenshot(path=str(IMAGES / "variation.png"))


QUIZ_GAME = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1"


def quiz_screenshot() -> None:
    """A quiz answered wrong: Black's stable discs asked for, one found and one wrong square
    marked by clicks, and Python's verdict after Check."""
    from reversi_widget import BLACK, concepts

    stable = sorted(concepts.stable(Board.from_transcript(QUIZ_GAME), BLACK))
    source = (
        "from reversi_widget import Board, ReversiWidget, quizzes\n"
        f"w = ReversiWidget(Board.from_transcript({QUIZ_GAME!r}), animation='off')\n"
        "w.quiz.ask(quizzes.stable('black'))\n"
        "w"
    )
    with lab_page(source, "quiz.ipynb", 1000, 60_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector(".reversi-widget [data-role=quiz]")
        page.wait_for_function(KERNEL_IDLE)
        for square in (stable[0], stable[1], "d4"):
            page.locator(f'.reversi-widget [data-square="{square}"]').first.click()
        page.wait_for_selector('.reversi-widget [data-square="d4"][data-quiz]')
        page.locator(".reversi-widget [data-action=quiz_check]").first.click()
        page.wait_for_selector('.reversi-widget [data-role=quiz][data-verdict="wrong"]')
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        widget.screenshot(path=str(IMAGES / "quiz.png"))


def deck_screenshot() -> None:
    """The deck of a learner's own mistakes: what is due today, and the first card in the
    widget's puzzle mode with its task."""
    source = (
        "import random, tempfile\n"
        "from pathlib import Path\n"
        "from IPython.display import display\n"
        "from reversi_widget import Board, Game, ReversiWidget, Rules\n"
        "from reversi_widget.deck import MistakeDeck\n"
        "from reversi_widget.records import GameLog\n"
        "log = GameLog(Path(tempfile.mkdtemp()) / 'class.sqlite')\n"
        "for seed in range(2):\n"
        "    rng, b = random.Random(seed), Board(rules=Rules(size=6))\n"
        "    while not b.is_game_over():\n"
        "        b.push_pass() if b.must_pass() else b.push(rng.choice(list(b.legal_moves)))\n"
        "    log.add(Game.from_board(b, black_player='Ann', white_player='Ben'))\n"
        "deck = MistakeDeck.from_log(log, 'Ann', max_empties=10)\n"
        "display(deck)\n"
        "ReversiWidget(puzzle=deck.due_puzzles(), learner='Ann', log=log, animation='off')"
    )
    with lab_page(source, "deck.ipynb", 1300, 60_000) as page:
        page.wait_for_selector(".reversi-widget [data-role=puzzle]")
        page.wait_for_function(KERNEL_IDLE)
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        page.locator(".jp-Cell-outputArea").first.screenshot(path=str(IMAGES / "deck.png"))


def coach_screenshot() -> None:
    """A coached game: the learner's X-square marked, the verdict with why under the board,
    Try again and Go on, and the computer waiting for the choice."""
    source = (
        "from reversi_widget import Board, ReversiWidget, native\n"
        "native.wait('midgame'); native.wait('endgame')\n"
        "w = ReversiWidget(Board.from_transcript('f5d6c3d3c4f4f6f3e6e7'), coach=True, white='medium',"
        " animation='off')\n"
        "w"
    )
    with lab_page(source, "coach.ipynb", 1000, 120_000) as page:
        widget = page.locator(".reversi-widget").first
        page.wait_for_selector('.reversi-widget [data-square="g2"][data-legal]')
        page.wait_for_function(KERNEL_IDLE)
        page.locator('.reversi-widget [data-square="g2"]').first.click()
        page.wait_for_selector(".reversi-widget [data-role=coach][data-state=waiting]")
        page.mouse.move(0, 0)
        page.wait_for_timeout(500)
        widget.screenshot(path=str(IMAGES / "coach.png"))


#: Each picture's maker, by the name ``python docs/make_images.py NAME...`` makes only it.
MAKERS = {
    "static": static_pictures,
    "widget": widget_screenshots,
    "puzzle": puzzle_screenshot,
    "review": review_screenshot,
    "line": line_screenshot,
    "quiz": quiz_screenshot,
    "deck": deck_screenshot,
    "coach": coach_screenshot,
    "concept": concept_screenshot,
    "variation": variation_screenshot,
}


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[1:] or list(MAKERS)
    unknown = [name for name in wanted if name not in MAKERS]
    if unknown:
        sys.exit(f"make_images: no pictures named {', '.join(unknown)}: choose from {', '.join(MAKERS)}")
    for name in wanted:
        MAKERS[name]()
    print("written:", ", ".join(sorted(p.name for p in IMAGES.iterdir())))


if __name__ == "__main__":
    main()
