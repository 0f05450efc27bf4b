"""Markup in names: HTML and script in player and event names, from GGF files, WTHOR name
files and Python, is shown as text by the widget, the SVG pictures, the charts and the
game log's tables, and never runs.

Each payload, if it ran, would set ``window.__pwned``. The browser tests render the real
js/widget.js (tests/frontend harness) with the traits of a real ``ReversiWidget`` whose
names carry the payloads, and SVG/HTML output inline in a page and as an SVG document,
then check: ``window.__pwned`` is unset, no ``img``/``script`` element was made, and the
literal text is what the page shows.
"""

from __future__ import annotations

import base64
import html
import random
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from reversi_widget import Board, Move, Rules, charts, svg
from reversi_widget.game import Game
from reversi_widget.ggf import read_ggf, write_ggf
from reversi_widget.records import GameLog
from reversi_widget.widget import ReversiWidget
from reversi_widget.wthor import PLAYERS_FILE, TOURNAMENTS_FILE, read_wthor
from tests.support import play_random, send
from tests.test_wthor import header, move_byte, name_file

IMG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = "<script>window.__pwned=1</script>"
SVG_ONLOAD = '<svg onload="window.__pwned=1"></svg>'
#: Fit the 19 and 25 characters of WTHOR's name fields; ``f`` sets the flag if ever called.
SHORT_SVG = "<svg/onload=f()>"
SHORT_SCRIPT = "<script>f()</script>"
PAYLOADS = [IMG, SCRIPT, SVG_ONLOAD, "</text><script>window.__pwned=1</script>", "]]><script>x</script>", "&amp; &lt;"]
SVG_NS = "{http://www.w3.org/2000/svg}"


class ShowOff:
    """A computer player with a hostile name (its ``choose`` is never reached here)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, board: Board) -> Move:
        raise AssertionError("not asked to move in these tests")


def finished_game(seed: int, **names: str) -> Game:
    return Game.from_board(play_random(Board(), random.Random(seed)), **names)


def svg_texts(picture: str) -> list[str]:
    """Every text node of an SVG document, parsed as XML (which also proves it is well formed)."""
    root = ET.fromstring(picture)
    assert not [el for el in root.iter() if el.tag in (f"{SVG_NS}script", f"{SVG_NS}foreignObject", "script")]
    return ["".join(el.itertext()) for el in root.iter() if el.tag in (f"{SVG_NS}text", f"{SVG_NS}title")]


# -- names read from files stay the literal text -----------------------------------------------


def test_ggf_names_are_read_as_literal_text() -> None:
    game = finished_game(1, black_player=IMG, white_player=SCRIPT, event=SVG_ONLOAD)
    text = write_ggf(game)
    back = read_ggf(text)
    assert (back.black_player, back.white_player, back.event) == (IMG, SCRIPT, SVG_ONLOAD)
    raw = text.replace("PB[", "PB[<b onclick=x>\\]", 1)  # an escaped bracket inside markup
    assert read_ggf(raw).black_player == "<b onclick=x>]" + IMG


def hostile_wthor_file(folder: Path) -> Path:
    """A one-game WTHOR file whose name files hold markup."""
    board = play_random(Board(), random.Random(2))
    moves = [str(m) for m in board.move_stack if m]
    record = struct.pack("<HHHBB", 1, 1, 2, 32, 32) + bytes(move_byte(m) for m in moves).ljust(60, b"\0")
    (folder / "WTH_2024.wtb").write_bytes(header(1) + record)
    (folder / PLAYERS_FILE).write_bytes(name_file(["?", SHORT_SVG, "<i>Bob</i>"], 20))
    (folder / TOURNAMENTS_FILE).write_bytes(name_file(["?", SHORT_SCRIPT], 26))
    return folder / "WTH_2024.wtb"


def test_wthor_names_are_read_as_literal_text(tmp_path: Path) -> None:
    (game,) = [r.to_game() for r in read_wthor(hostile_wthor_file(tmp_path))]
    assert (game.black_player, game.white_player, game.event) == (SHORT_SVG, "<i>Bob</i>", SHORT_SCRIPT)


# -- SVG output escapes every name -----------------------------------------------------------------


def hostile_pictures() -> dict[str, str]:
    """Pictures whose text comes from hostile names: marks, captions, chart labels."""
    game = finished_game(3, black_player=IMG, white_player=SCRIPT)
    board = game.board()
    marks: dict[str | int, object] = {"a1": IMG[:12], "b2": SCRIPT[:12], "c3": "<b>x</b>", "d4": "]]>&"}
    return {
        "board": svg.board(board, marks=marks),
        "grid": svg.boards([board, Board()], captions=[f"{game.black_player} vs {game.white_player}", SVG_ONLOAD]),
        "game": svg.game(Game(game.moves[:6]), marks={"h8": "<i>"}, columns=3),
        "chart": charts.win_rates({IMG: (3, 1, 0), SCRIPT: (1, 3, 0), SVG_ONLOAD: (2, 2, 0)}),
        "disc_count": charts.disc_count(game, title=f"{IMG} vs {SCRIPT}"),
    }


def test_svg_pictures_carry_names_as_escaped_text() -> None:
    pictures = hostile_pictures()
    texts = {name: svg_texts(picture) for name, picture in pictures.items()}
    for name, picture in pictures.items():
        assert "<script" not in picture and "<img" not in picture and "<svg onload" not in picture, name
    assert {IMG[:12], SCRIPT[:12], "<b>x</b>", "]]>&"} <= set(texts["board"])
    assert f"{IMG} vs {SCRIPT}" in texts["grid"] and SVG_ONLOAD in texts["grid"]
    assert "<i>" in texts["game"]
    cut = [name[:10] for name in (IMG, SCRIPT, SVG_ONLOAD)]  # win_rates cuts long names (see below)
    assert all(any(text.startswith(prefix) for text in texts["chart"]) for prefix in cut)
    assert any(f"{IMG} vs {SCRIPT}" in text for text in texts["disc_count"])


def test_a_cut_chart_label_keeps_the_whole_name_in_its_tooltip() -> None:
    picture = charts.win_rates({IMG: (3, 1, 0), IMG + "2": (1, 1, 0)})
    assert any(IMG in text for text in svg_texts(picture))


# -- in Chromium ---------------------------------------------------------------------------------

PWNED = "() => window.__pwned"
ELEMENTS = "sel => document.querySelectorAll(sel).length"


def assert_nothing_ran(page: Any, scope: str) -> None:
    page.wait_for_timeout(100)  # an onerror/onload would have fired by now
    assert page.evaluate(PWNED) is None
    assert page.evaluate(ELEMENTS, f"{scope} img, {scope} script, {scope} iframe") == 0


@pytest.mark.browser
def test_the_widget_shows_hostile_names_as_text(boot: Any) -> None:
    w = ReversiWidget(black=ShowOff(IMG), white=ShowOff(SCRIPT), paused=True, marks={"d3": "<b>x</b>"})
    send(w, {"kind": "move", "square": SCRIPT, "ply": 0})  # refused: the notice quotes it
    assert SCRIPT in w.notice and IMG in w.players["black"] and SCRIPT in w.players["white"]
    traits = {k: v for k, v in w.get_state().items() if not k.startswith("_") and k not in ("layout", "tooltip")}
    page = boot(8, **traits)
    page.evaluate("() => { delete window.__pwned; window.f = () => { window.__pwned = 1; }; }")
    for view in ("#view1", "#view2"):
        names = page.eval_on_selector_all(f"{view} .rw-name", "els => els.map(e => e.textContent)")
        assert names == [w.players["black"], w.players["white"]]
        assert IMG in page.inner_text(f"{view} .rw-player[data-color=black]")
        assert SCRIPT in page.inner_text(f"{view} [data-role=notice]")
        assert w.status in page.inner_text(f"{view} [data-role=status]")
        assert page.text_content(f'{view} [data-square="d3"] .rw-mark') == "<b>x</b>"
    assert_nothing_ran(page, ".reversi-widget")
    assert page.evaluate(ELEMENTS, ".reversi-widget b") == 0
    w.close()


def page_with(body: str) -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<script>window.f = () => { window.__pwned = 1; };</script></head>"
        f"<body>{body}</body></html>"
    )


@pytest.mark.browser
@pytest.mark.parametrize("payload", [IMG, SCRIPT, SVG_ONLOAD, SHORT_SVG, SHORT_SCRIPT])
def test_the_payloads_run_when_they_are_markup(fresh_page: Any, payload: str) -> None:
    """The control: each payload does set the flag when a page takes it as markup, so the
    checks of the other tests would see it run."""
    fresh_page.set_content(page_with(payload))
    fresh_page.wait_for_function("() => window.__pwned === 1", timeout=2_000)


@pytest.mark.browser
def test_svg_inline_in_a_page_shows_names_as_text(fresh_page: Any) -> None:
    pictures = hostile_pictures()
    body = "".join(f'<div id="{name}">{picture}</div>' for name, picture in pictures.items())
    fresh_page.set_content(page_with(body))
    assert_nothing_ran(fresh_page, "body")
    marks = fresh_page.eval_on_selector_all("#board text.mark", "els => els.map(e => e.textContent)")
    assert {IMG[:12], SCRIPT[:12], "<b>x</b>", "]]>&"} <= set(marks)
    captions = fresh_page.eval_on_selector_all("#grid text.caption", "els => els.map(e => e.textContent)")
    assert captions == [f"{IMG} vs {SCRIPT}", SVG_ONLOAD]
    labels = fresh_page.eval_on_selector_all("#chart text.label", "els => els.map(e => e.textContent)")
    assert sorted(label[:10] for label in labels) == sorted(name[:10] for name in (IMG, SCRIPT, SVG_ONLOAD))
    # The way a notebook inserts output: as markup into an existing page.
    fresh_page.evaluate(
        "html => { const d = document.createElement('div'); d.innerHTML = html; document.body.append(d); }",
        "".join(pictures.values()),
    )
    assert_nothing_ran(fresh_page, "body")


@pytest.mark.browser
def test_an_svg_document_runs_nothing(fresh_page: Any) -> None:
    picture = hostile_pictures()["grid"]
    fresh_page.goto("data:image/svg+xml;base64," + base64.b64encode(picture.encode()).decode())
    fresh_page.wait_for_timeout(100)
    assert fresh_page.evaluate(PWNED) is None
    assert fresh_page.evaluate(ELEMENTS, "script, img") == 0
    texts = fresh_page.eval_on_selector_all("text.caption", "els => els.map(e => e.textContent)")
    assert texts == [f"{IMG} vs {SCRIPT}", SVG_ONLOAD]


@pytest.mark.browser
def test_game_log_tables_show_imported_names_as_text(fresh_page: Any, tmp_path: Path) -> None:
    """Names from a GGF file and a WTHOR name file, through the game log into its notebook
    tables and chart."""
    games = [finished_game(seed, black_player=IMG, white_player=SCRIPT, event=SVG_ONLOAD) for seed in range(4)]
    log = GameLog(tmp_path / "games.db")
    (tmp_path / "evil.ggf").write_text("".join(write_ggf(g) + "\n" for g in games), encoding="utf-8")
    log.import_ggf(tmp_path / "evil.ggf")
    log.import_wthor(hostile_wthor_file(tmp_path))
    stats = log.stats()
    assert {row["player"] for row in stats.players.as_dicts()} == {IMG, SCRIPT, SHORT_SVG, "<i>Bob</i>"}
    fresh_page.set_content(page_with(stats._repr_html_() + log.most_played()._repr_html_() + stats.chart()))
    assert_nothing_ran(fresh_page, "body")
    assert fresh_page.evaluate(ELEMENTS, "td i, td svg, td b, th svg") == 0
    cells = fresh_page.eval_on_selector_all("td", "els => els.map(e => e.textContent)")
    assert {IMG, SCRIPT, SHORT_SVG, "<i>Bob</i>"} <= set(cells)
    assert html.escape(IMG) in stats._repr_html_()
    log.close()


def test_a_free_start_board_with_names_is_still_escaped() -> None:
    """Other sizes and starts go through the same escaping."""
    board = Board(rules=Rules(size=6, start="free"))
    picture = svg.boards([board], captions=[SCRIPT], size=120)
    assert svg_texts(picture)[-1] == SCRIPT and "<script" not in picture
