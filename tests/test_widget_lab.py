"""The widget in real JupyterLab, as a player meets it: several boards on one page, the move
list of a long game, keys pressed in its controls, its colours in every theme.

One JupyterLab server for the module; each test opens its own notebook and asks the kernel
what it holds.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from reversi_widget import Board
from tests.contrast import GRAPHICS_AA, MEASURE, TEXT_AA, TEXTS
from tests.lab import Server, open_and_run, run_code, settled_output, view, write_notebook
from tests.support import KERNEL_IDLE, play_random

pytestmark = [pytest.mark.browser, pytest.mark.slow]

IMPORT = "from reversi_widget import ReversiWidget\n"


def notebook_state(page: Any) -> dict[str, Any]:
    """Which cell is active, how many there are, the notebook's mode and scroll position."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const nb = window.jupyterapp.shell.currentWidget.content;
            return {active: nb.activeCellIndex, cells: nb.widgets.length, mode: nb.mode,
                    scroll: nb.node.closest('.jp-WindowedPanel-outer, .jp-Notebook').scrollTop}; }"""
    )


# -- 1: ids ---------------------------------------------------------------------------------------

REFERENCES = """() => [...document.querySelectorAll('.reversi-widget')].map(root => {
    const refs = [...root.querySelectorAll('[marker-end], [fill^="url("]')]
        .map(e => (e.getAttribute('marker-end') || e.getAttribute('fill')).slice(5, -1));
    refs.push(root.querySelector('.rw-board').getAttribute('aria-activedescendant'));
    const foreign = refs.filter(id => { const t = document.getElementById(id); return !t || !root.contains(t); });
    return [refs.length, foreign.length];
})"""
IDS = "() => [...document.querySelectorAll('.reversi-widget [id]')].map(e => e.id)"


def test_two_widgets_and_a_rerun_cell_keep_their_own_ids(server: Server, page: Any) -> None:
    """Two widgets and a second view of the first: every id on the page is unique and every
    arrowhead, disc sheen and active square resolves inside its own view, also after the
    first cell is run again."""
    name = write_notebook(
        server,
        "ids.ipynb",
        IMPORT + "a = ReversiWidget(animation='off', arrows=[['a1', 'c3']])\na",
        "b = ReversiWidget(animation='off', arrows=[['h8', 'f6']])\nb",
        "a",
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    for cell in (1, 2, 3):
        page.wait_for_selector(f'{view(panel, cell)} [data-square="d3"]')
    ids = page.evaluate(IDS)
    assert len(ids) == 3 * (64 + 2) == len(set(ids))
    references = page.evaluate(REFERENCES)
    assert [foreign for _, foreign in references] == [0, 0, 0] and all(count == 64 + 2 for count, _ in references)

    before = set(ids)
    page.evaluate(
        """() => { const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = 0;
            return window.jupyterapp.commands.execute('notebook:run-cell'); }"""
    )
    page.wait_for_function(
        f"(ids) => {{ const g = document.querySelector('{view(panel, 1)} [data-square=\"d3\"]');"
        " return g && !ids.includes(g.id); }",
        arg=list(before),
    )
    ids = page.evaluate(IDS)
    assert len(ids) == len(set(ids)) == 3 * (64 + 2)
    assert [foreign for _, foreign in page.evaluate(REFERENCES)] == [0, 0, 0]


# -- 2 and 3: the move list of a long game, keys in the controls ----------------------------------

CURRENT_MOVE = """(v) => {
    const list = document.querySelector(v + ' [data-role=moves]');
    const cur = list.querySelector('[aria-current]');
    if (!cur) return null;
    const a = list.getBoundingClientRect(), b = cur.getBoundingClientRect();
    return {ply: +cur.dataset.ply, inside: b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5};
}"""


def test_long_game_move_list_and_keys_in_the_controls(server: Server, page: Any) -> None:
    """A 61-ply game: the current move is in the list's view wherever the game is shown; the
    slider's arrow keys, Home and End step through it; keys pressed on a button or a choice
    do what they do there and nothing to the notebook, and the notebook never scrolls."""
    transcript = play_random(Board(), random.Random(3)).transcript()
    plies = Board.from_transcript(transcript).ply
    name = write_notebook(server, "long.ipynb", IMPORT + f"w = ReversiWidget({transcript!r}, animation='off')\nw", "")
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f"{widget} [data-role=moves] [aria-current]")
    page.click(f"{widget} .rw-heading")  # a click on the widget: the cell is selected, in command mode
    start = notebook_state(page)
    assert start["mode"] == "command" and start["active"] == 0

    def shown_ply(expected: int) -> None:
        page.wait_for_function(
            "([v, p]) => { const c = document.querySelector(v + ' [data-role=moves] [aria-current]');"
            " return p === 0 ? !c : c && +c.dataset.ply === p; }",
            arg=[widget, expected],
        )
        if expected:
            assert page.evaluate(CURRENT_MOVE, widget) == {"ply": expected, "inside": True}
        state = notebook_state(page)
        assert (state["active"], state["cells"], state["scroll"]) == (0, 2, start["scroll"])

    assert page.evaluate(CURRENT_MOVE, widget) == {"ply": plies, "inside": True}  # the end, in view at once
    slider = page.locator(f"{widget} input[data-role=replay]")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    shown_ply(plies - 1)
    page.keyboard.press("Home")
    shown_ply(0)
    page.keyboard.press("ArrowRight")
    shown_ply(1)
    page.keyboard.press("End")
    shown_ply(plies)
    for step in range(1, 4):
        page.keyboard.press("ArrowLeft")
        shown_ply(plies - step)
    # JupyterLab's command-mode keys (a, b: new cell; Enter: edit the cell) stay with the control
    page.locator(f"{widget} [data-action=undo]").focus()
    page.keyboard.press("a")
    page.keyboard.press("b")
    page.keyboard.press("Enter")  # the button's own key: undo
    shown_ply(plies - 4)
    theme = page.locator(f"{widget} select[data-setting=theme]")
    theme.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(f"{widget}[data-theme=light]")
    page.locator(f"{widget} input[data-setting=show_coordinates]").focus()
    page.keyboard.press("Space")
    page.wait_for_function(f"() => !document.querySelector('{widget} .rw-coords')")
    shown_ply(plies - 4)
    expected = f"{plies - 4} light False END"
    printed = settled_output(page, 1, "print(w.ply, w.theme, w.show_coordinates, 'END')", expected)
    assert printed.split() == expected.split()


# -- 11: contrast in every theme ------------------------------------------------------------------

MARKERS = (
    IMPORT
    + "b = ReversiWidget('f5d6', animation='off', analysis_depth=2, arrows=[['a1', 'c3']])\nb.hint()\nb.wait(60)\nb",
    "w = ReversiWidget('f5', animation='off')\nw",
    "s = ReversiWidget('f5d6c3d3c4', animation='off', show_scores=True, analysis_depth=2)\ns.wait(60)\ns",
    "p = ReversiWidget(practice=True, animation='off')\n"
    "p.practice_place('d3')\np.practice_flip('e5')\np.practice_done()\np",
    "",
)
BOARDS = (1, 2, 3, 4)
#: What must be measured in each theme (the four boards together show every marker).
EXPECTED = {
    "legal dot (black to move)",
    "legal dot (white to move)",
    "hint ring",
    "last move on black",
    "last move on white",
    "flipped ring on black",
    "flipped ring on white",
    "score",
    "best score",
    "wrong flip mark",
    "missed flip mark",
    "ghost black",
    "ghost white",
    "ghost number on black",
    "ghost number on white",
    "keyboard cursor",
    "arrow",
    "black chip",
    "white chip",
}


def measure(page: Any, panel: str) -> dict[str, float]:
    """Every marker of the four boards, with the keyboard cursor shown on the first."""
    board = f"{view(panel, 1)} .rw-board"
    page.locator(board).focus()
    page.keyboard.press("ArrowUp")
    out: dict[str, float] = {}
    for cell in BOARDS:
        out.update(page.evaluate(MEASURE, view(panel, cell)))
    return out


def test_every_marker_is_readable_in_every_theme(server: Server, page: Any) -> None:
    """Measured as painted, against the board (or the disc) under each marker: 3:1 at least
    in every theme, JupyterLab's dark one included; WCAG AA (4.5:1 for text) for everything
    the high-contrast theme writes. No legal dot is drawn through a score, and legal dots
    are larger than the board's star points."""
    name = write_notebook(server, "contrast.ipynb", *MARKERS)
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    first = view(panel, 1)
    page.wait_for_selector(f"{first} [data-square][data-hint]")
    page.wait_for_selector(f"{view(panel, 3)} [data-square][data-score]")
    page.wait_for_selector(f"{view(panel, 4)} [data-practice-mark=missed]")
    page.wait_for_function(KERNEL_IDLE)
    seen: dict[str, dict[str, float]] = {}
    for lab_theme, themes in (
        ("JupyterLab Light", ("auto", "light", "dark", "high-contrast")),
        ("JupyterLab Dark", ("auto",)),
    ):
        page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", lab_theme)
        page.wait_for_function(
            "(dark) => document.body.dataset.jpThemeLight === String(!dark)", arg=lab_theme.endswith("Dark")
        )
        for theme in themes:
            run_code(page, 4, f"for x in (b, w, s, p):\n    x.theme = {theme!r}\nprint('END')")
            page.wait_for_function(
                "([v, t]) => [...document.querySelectorAll(v + ' .reversi-widget')].every(r => r.dataset.theme === t)",
                arg=[panel, theme],
            )
            page.wait_for_timeout(300)  # the theme's stylesheet has been applied
            key = f"{theme} in {lab_theme}"
            seen[key] = found = measure(page, panel)
            assert set(found) >= EXPECTED, (key, EXPECTED - set(found))
            low = {marker: value for marker, value in found.items() if marker in EXPECTED and value < GRAPHICS_AA}
            assert not low, (key, low)
            assert found["dots under scores"] == 0, key
            assert found["legal dot / star point size"] >= 2, key
            if theme == "high-contrast":
                assert found["score"] >= TEXT_AA and found["best score"] >= TEXT_AA
                assert found["ghost number on black"] >= TEXT_AA and found["ghost number on white"] >= TEXT_AA
                texts = [t for cell in BOARDS for t in page.evaluate(TEXTS, view(panel, cell))]
                assert len(texts) > 30 and not [t for t in texts if t[1] < TEXT_AA], texts
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    # the dark board under JupyterLab's dark theme is the dark theme's board
    assert (
        seen["auto in JupyterLab Dark"]["legal dot (black to move)"]
        == seen["dark in JupyterLab Light"]["legal dot (black to move)"]
    )


def test_pointing_at_a_scored_square_draws_its_line_as_ghosts(server: Server, page: Any) -> None:
    """The scores' lines as Python sends them, drawn in JupyterLab: the pointer on a scored
    square numbers the empty squares of its line in the movers' colours, writes the line under
    the board, and takes both away when it leaves."""
    import json

    name = write_notebook(
        server,
        "lines.ipynb",
        IMPORT + "s = ReversiWidget('f5d6c3', animation='off', show_scores=True, analysis_depth=3)\ns.wait(60)\ns",
        "",
    )
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    page.wait_for_selector(f"{widget} [data-square][data-score]")
    page.wait_for_function(KERNEL_IDLE)
    printed = run_code(page, 1, "import json\nprint(json.dumps(s.lines), s.discs, 'END')")
    lines_json, discs = printed.split("END")[0].strip().rsplit(" ", 1)
    lines = json.loads(lines_json)
    square = sorted(lines)[0]
    line = lines[square]
    ghosts = f"{widget} [data-role=ghosts] .rw-ghost"
    assert page.locator(ghosts).count() == 0
    page.hover(f'{widget} [data-square="{square}"]')
    page.wait_for_selector(ghosts)
    drawn = page.eval_on_selector_all(
        ghosts, "els => els.map(g => [g.dataset.ghostSquare, g.dataset.color, g.textContent])"
    )
    files = "abcdefgh"
    expected, number = [], 0
    for move, color in zip(line["line"], line["colors"], strict=True):
        if move == "pass":
            continue
        number += 1
        if discs[(int(move[1:]) - 1) * 8 + files.index(move[0])] == "-":
            expected.append([move, color, str(number)])
    assert drawn == expected and drawn[0][:2] == [square, "white"]  # White to move after f5 d6 c3
    assert page.inner_text(f"{widget} [data-role=line-note]") == line["text"]
    page.mouse.move(0, 0)
    page.wait_for_selector(ghosts, state="detached")
    assert page.is_hidden(f"{widget} [data-role=line-note]")


# -- 4 and 5: the buttons that apply, and no stale notice -------------------------------------------


def visible_buttons(page: Any, widget: str) -> list[str]:
    """The game's buttons a player sees (the editor's aside): their action, '-' when disabled,
    '*' for the primary one."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        f"{widget} :is(.rw-actions, .rw-practice-actions) button[data-action]",
        "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.action"
        " + (e.disabled ? '-' : '') + (e.hasAttribute('data-primary') ? '*' : ''))",
    )


def test_only_the_buttons_that_apply_show_and_the_next_step_is_primary(server: Server, page: Any) -> None:
    from tests.support import PASS_LINE

    name = write_notebook(
        server,
        "buttons.ipynb",
        IMPORT + "from reversi_widget.players import RandomPlayer\n"
        f"c = ReversiWidget({PASS_LINE[:-24]!r}, black=RandomPlayer(seed=0), white=RandomPlayer(seed=0),"
        " animation='off', move_delay=1.5, analysis_depth=1)\nc",
        "h = ReversiWidget(white='greedy', animation='off')\nh",
        "p = ReversiWidget(practice=True, animation='off')\np",
        f"q = ReversiWidget({PASS_LINE + 'f2'!r}, animation='off')\nq",
        "",
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    computers, human, practice, passing = (view(panel, cell) for cell in (1, 2, 3, 4))
    for widget in (computers, human, practice, passing):
        page.wait_for_selector(f"{widget} [data-square]")
    # two computers: Pause while they play, then Review as the next step, then New game
    page.wait_for_selector(f"{computers}:not([data-game-over]) [data-action=pause]", state="visible")
    assert visible_buttons(page, computers) == ["undo", "redo-", "new", "pause"]
    page.wait_for_selector(f"{computers}[data-game-over]", timeout=60_000)
    assert visible_buttons(page, computers) == ["undo", "redo-", "new", "review*"]
    page.click(f"{computers} [data-action=review]")
    page.wait_for_selector(f"{computers} [data-role=review-chart]")
    page.wait_for_function(f"() => !document.querySelector('{computers} [data-busy]')")
    assert visible_buttons(page, computers) == ["undo", "redo-", "new*"]
    # each reviewed move says how sure its scores are, in its tooltip too
    certainty = page.eval_on_selector_all(
        f"{computers} [data-role=moves] [data-certainty]", "els => els.map(e => [e.dataset.certainty, e.title])"
    )
    said = {"exact": "(exact)", "estimate": "(estimate)", "bound": "by at least"}
    assert certainty and all(said[kind] in title for kind, title in certainty)
    # a person against the computer: no Pause, no Pass, Hint for the person's turn
    assert visible_buttons(page, human) == ["undo-", "redo-", "new", "hint"]
    # practice: the placed disc waits for its flips, Done is the one step to take
    page.click(f'{practice} [data-square="d3"]')
    page.wait_for_selector(f"{practice} [data-role=practice-actions]:not([hidden])")
    assert visible_buttons(page, practice) == ["practice_done*", "practice_reveal", "undo", "redo-", "new", "hint-"]
    # Pass shows only where it is the only move: back before the forced pass, it is the primary step
    entries = page.eval_on_selector_all(f"{passing} [data-role=moves] [data-ply]", "els => els.map(e => e.textContent)")
    plies = len(entries)
    assert entries[-1] == "pass"  # at the end of the line the forced pass played itself
    assert "pass" not in "".join(visible_buttons(page, passing))
    page.click(f"{passing} [data-role=moves] [data-ply='{plies - 1}']")
    page.wait_for_selector(f"{passing} [data-action=pass][data-primary]")
    assert "pass*" in visible_buttons(page, passing)
    page.click(f"{passing} [data-action=pass]")
    page.wait_for_selector(f"{passing} [data-action=pass]", state="hidden")
    printed = run_code(page, 4, "print(c.can_pause, c.can_review, h.can_pause, q.ply, q.moves[-1], 'END')")
    assert printed.split() == ["False", "False", "False", str(plies), "pass", "END"]


def test_no_stale_notice_under_the_game_over_banner(server: Server, page: Any) -> None:
    """Two computers finish a game in which Black passes: the pass notice shows while it is
    news and is gone when the next move is played, so the banner stands alone."""
    from tests.support import PASS_LINE

    name = write_notebook(
        server,
        "stale.ipynb",
        IMPORT + "from reversi_widget.players import RandomPlayer\n"
        f"w = ReversiWidget({PASS_LINE!r}, black=RandomPlayer(seed=0), white=RandomPlayer(seed=0),"
        " animation='off', move_delay=1.5)\nw",
        "",
    )
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    notice = f"{widget} [data-role=notice]"
    page.wait_for_selector(f"{notice}[data-kind=pass]:not([hidden])", timeout=60_000)
    assert "passes" in page.inner_text(notice)
    page.wait_for_selector(f"{widget}[data-game-over]", timeout=60_000)
    assert page.is_visible(f"{widget} [data-role=result]") and not page.is_visible(notice)
    printed = run_code(page, 1, "print(repr(w.notice), w.moves[-4:], 'END')")
    assert printed.split("END")[0].strip().split(maxsplit=1) == ["''", "['f2', 'pass', 'b1', 'a1']"]


# -- the concept overlay ---------------------------------------------------------------------------


def test_a_concept_overlay_marks_its_squares_and_says_what_they_are(server: Server, page: Any) -> None:
    """In real JupyterLab: the stable discs of a position are marked on exactly the squares
    ``concepts.stable`` names, by colour, with the sentence under the board; switching the
    setting in Python redraws the marks for the new concept, and switching it off clears them."""
    from reversi_widget import BLACK, WHITE, concepts

    line = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1"
    board = Board.from_transcript(line)
    stable = {name: "black" for name in concepts.stable(board, BLACK)}
    stable.update({name: "white" for name in concepts.stable(board, WHITE)})
    assert stable  # the position has stable discs to mark
    name = write_notebook(
        server,
        "concepts.ipynb",
        IMPORT + f"from reversi_widget import Board\nw = ReversiWidget(Board.from_transcript({line!r}), "
        "concept='stable', animation='off')\nw",
        "print('END')",
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    board_view = view(panel, 1)
    page.wait_for_selector(f"{board_view} [data-square][data-concept-mark]", state="attached")
    marks = (
        "(v) => Object.fromEntries([...document.querySelectorAll(v + ' [data-square][data-concept-mark]')]"
        ".map(g => [g.dataset.square, g.dataset.conceptMark]))"
    )
    assert page.evaluate(marks, board_view) == stable
    note = page.locator(f'{board_view} [data-role="concept-note"]')
    assert note.is_visible() and note.inner_text().strip()
    stable_note = note.inner_text()
    mobility = set(concepts.mobility(board, BLACK)) | set(concepts.mobility(board, WHITE))
    run_code(page, 1, "w.concept = 'mobility'\nprint('END')")
    page.wait_for_function(
        "([v, n]) => document.querySelectorAll(v + ' [data-square][data-concept-mark]').length === n",
        arg=[board_view, len(mobility)],
    )
    assert set(page.evaluate(marks, board_view)) == mobility
    assert note.inner_text() != stable_note
    run_code(page, 1, "w.concept = ''\nprint('END')")
    page.wait_for_function(
        "(v) => document.querySelectorAll(v + ' [data-square][data-concept-mark]').length === 0", arg=board_view
    )
    assert not note.is_visible()


def test_a_quiz_is_answered_wrong_then_right_by_clicks(server: Server, page: Any) -> None:
    """In real JupyterLab: a quiz asks for Black's stable discs; clicks mark squares (the game
    does not move), Check with a wrong mark says what is missing and which mark is wrong, in
    the kernel too; after the learner corrects the marks, Check says right."""
    from reversi_widget import BLACK, concepts

    line = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1"
    board = Board.from_transcript(line)
    stable = sorted(concepts.stable(board, BLACK))
    wrong = next(name for name in ("d4", "e4", "d5", "e5") if name not in stable)
    assert len(stable) >= 2
    name = write_notebook(
        server,
        "quiz.ipynb",
        IMPORT + f"from reversi_widget import Board, quizzes\nw = ReversiWidget(Board.from_transcript({line!r}), "
        "animation='off')\nw.quiz.ask(quizzes.stable('black'))\nw",
        "print('END')",
    )
    panel = open_and_run(page, f"{server.url}/lab/tree/{name}?reset")
    board_view = view(panel, 1)
    page.wait_for_selector(f'{board_view} [data-role="quiz"]')
    marked = "(v) => [...document.querySelectorAll(v + ' [data-square][data-quiz]')].map(g => g.dataset.square).sort()"
    page.click(f'{board_view} [data-square="{stable[0]}"]')
    page.click(f'{board_view} [data-square="{wrong}"]')
    page.wait_for_function(f"(v) => ({marked})(v).length === 2", arg=board_view)
    page.click(f'{board_view} [data-action="quiz_check"]')
    verdict = page.locator(f'{board_view} [data-role="quiz-verdict"]')
    page.wait_for_selector(f'{board_view} [data-role="quiz"][data-verdict="wrong"]')
    assert verdict.inner_text().startswith(f"Not yet: {len(stable) - 1} square")
    assert f"{wrong} is not one of them" in verdict.inner_text()
    assert page.get_attribute(f'{board_view} [data-square="{wrong}"]', "data-quiz-result") == "wrong"
    said = run_code(page, 1, "print(w.quiz_state['verdict_kind'], w.quiz.marked, w.ply)\nprint('END')")
    assert said.startswith(f"wrong {sorted([stable[0], wrong], key=lambda s: (int(s[1:]), s[0]))} {board.ply}")
    page.click(f'{board_view} [data-square="{wrong}"]')  # unmark the wrong one
    for square in stable[1:]:
        page.click(f'{board_view} [data-square="{square}"]')
    page.wait_for_function(f"([v, n]) => ({marked})(v).length === n", arg=[board_view, len(stable)])
    page.click(f'{board_view} [data-action="quiz_check"]')
    page.wait_for_selector(f'{board_view} [data-role="quiz"][data-verdict="right"]')
    assert verdict.inner_text().startswith(f"Right: all {len(stable)} of them")
    assert run_code(page, 1, "print(w.quiz_state['solved'], w.quiz_state['checks'])\nprint('END')").startswith("True 2")


# -- the live evaluation ------------------------------------------------------------------------------


def test_the_live_bar_follows_a_game_against_the_computer(server: Server, page: Any) -> None:
    """With the live evaluation on, the bar beside the board shows what the kernel holds for
    each position of a game against the engine, and the evaluation chart grows a point per
    position read."""
    import json

    name = write_notebook(
        server,
        "live.ipynb",
        IMPORT + "g = ReversiWidget(white='beginner', animation='off', live_evaluation='chance', analysis_depth=4)\ng",
        "",
    )
    widget = view(open_and_run(page, f"{server.url}/lab/tree/{name}?reset"), 1)
    bar, text = f"{widget} [data-role=evalbar]", f"{widget} [data-role=evalbar-text]"
    page.wait_for_selector(f"{bar}[data-known]")
    page.wait_for_function(KERNEL_IDLE)
    chart_points = f"{widget} [data-role=review-chart] .rw-chart-point"
    for turn in range(3):
        # a human move, the computer's reply, and the live evaluation of the position it leaves
        legal = page.eval_on_selector_all(
            f"{widget} [data-square][data-legal]", "els => els.map(e => e.dataset.square)"
        )
        page.click(f'{widget} [data-square="{legal[0]}"]')
        page.wait_for_function(
            "([w, n]) => document.querySelectorAll(w + ' [data-ply]').length >= n", arg=[widget, 2 * turn + 2]
        )
        printed = run_code(page, 1, "g.wait(60)\nimport json\nprint(json.dumps([g.ply, g.live, g.evaluations]), 'END')")
        ply, live, evaluations = json.loads(printed.split("END")[0])
        assert ply == 2 * turn + 2 and live["known"] and re.fullmatch(r"Black \d+%", live["text"])
        page.wait_for_function(
            "([t, want]) => document.querySelector(t).textContent === want", arg=[text, live["text"]]
        )
        assert page.get_attribute(bar, "aria-valuenow") == str(round(live["black"] * 100))
        assert page.inner_text(f"{widget} [data-role=evalbar-note]") == live["note"] == "estimate (depth 4)"
        share = page.evaluate(
            """b => { const e = document.querySelector(b), fill = e.querySelector('[data-role=evalbar-black]');
                return fill.getBoundingClientRect().height / e.clientHeight; }""",
            bar,
        )
        assert share == pytest.approx(live["black"], abs=0.02)
        assert len(evaluations) == ply + 1
        known = [i for i, value in enumerate(evaluations) if value is not None]
        assert known[0] == 0 and known[-1] == ply  # the chart has grown to the position shown
        page.wait_for_function("([p, n]) => document.querySelectorAll(p).length === n", arg=[chart_points, len(known)])
