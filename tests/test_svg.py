"""SVG pictures of positions, checked by structure (parsed with xml.etree), then once in Chromium."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from reversi_widget import BLACK, Board, Move, ReversiError, Rules, parse_square, square_name, svg
from reversi_widget.game import Game

NS = {"s": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script>"
OPENING = "f5d6c3d3c4f4f6"  # after it: white to move, f6 just flipped e5


def parse(image: str) -> ET.Element:
    return ET.fromstring(image)


def element_at(element: ET.Element, path: str) -> ET.Element:
    """The first element at ``path`` under ``element``, which must be there."""
    match = element.find(path, NS)
    assert match is not None, f"no {path}"
    return match


def squares(root: ET.Element) -> dict[str, ET.Element]:
    found = root.findall(".//s:g[@data-square]", NS)
    return {g.attrib["data-square"]: g for g in found if "square" in g.attrib["class"].split()}


def translate(element: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([\d.]+),([\d.]+)\)", element.attrib["transform"])
    assert match, element.attrib["transform"]
    return float(match.group(1)), float(match.group(2))


def all_text(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def after_opening() -> tuple[Board, Move, list[int]]:
    board = Board.from_transcript(OPENING)
    before = board.copy()
    move = before.pop()
    return board, move, before.flips(move)


# -- one board ----------------------------------------------------------------------------


def test_svg_image_is_a_string_that_notebooks_show(tmp_path: Path) -> None:
    image = svg.board(Board())
    assert isinstance(image, str)
    assert image._repr_svg_() == image
    assert image.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in image
    target = tmp_path / "start.svg"
    image.save(target)
    assert target.read_text(encoding="utf-8") == image


@pytest.mark.parametrize("size", [4, 6, 8, 10, 16])
def test_one_square_per_cell_and_discs_match_the_board(size: int) -> None:
    board = Board(rules=Rules(size=size))
    first = next(iter(board.legal_moves))
    board.push(first)
    root = parse(svg.board(board))
    found = squares(root)
    assert len(found) == size * size
    assert set(found) == {square_name(sq, size) for sq in range(size * size)}
    for sq in range(size * size):
        colour = board.disc_at(sq)
        expected = "empty" if colour is None else "black" if colour == BLACK else "white"
        assert found[square_name(sq, size)].attrib["data-disc"] == expected
    discs = root.findall(".//s:circle[@class='disc']", NS)
    assert sum(d.attrib["data-disc"] == "black" for d in discs) == board.count(BLACK)
    assert sum(d.attrib["data-disc"] == "white" for d in discs) == board.count(not BLACK)
    assert root.attrib["data-size"] == str(size)


def test_view_box_and_pixel_size() -> None:
    root = parse(svg.board(Board(), size=250))
    assert root.attrib["width"] == root.attrib["height"] == "250"
    # 40 units per square and a 24-unit frame holding the coordinates
    assert root.attrib["viewBox"] == f"0 0 {8 * 40 + 2 * 24} {8 * 40 + 2 * 24}"
    bare = parse(svg.board(Board(), coordinates=False))
    assert bare.attrib["viewBox"] == f"0 0 {8 * 40 + 2 * 8} {8 * 40 + 2 * 8}"
    assert bare.attrib["width"] == str(svg.DEFAULT_SIZE)
    assert not bare.findall(".//s:g[@class='coordinates']", NS)
    labels = all_text(root)
    assert labels[:4] == ["a", "1", "b", "2"] and "h" in labels and "8" in labels


def test_legal_markers_follow_the_side_to_move() -> None:
    board, _, _ = after_opening()
    root = parse(svg.board(board, legal=True))
    marked = {name for name, g in squares(root).items() if "legal" in g.attrib["class"].split()}
    assert marked == {str(m) for m in board.legal_moves}
    dots = root.findall(".//s:circle[@class='legal-move']", NS)
    assert len(dots) == len(marked)
    assert {d.attrib["fill"] for d in dots} == {svg.THEMES["light"].white}  # white to move
    board.push(next(iter(board.legal_moves)))
    black_dots = parse(svg.board(board, legal=True)).findall(".//s:circle[@class='legal-move']", NS)
    assert {d.attrib["fill"] for d in black_dots} == {svg.THEMES["light"].black}
    assert not parse(svg.board(board)).findall(".//s:circle[@class='legal-move']", NS)


@pytest.mark.parametrize("how", ["move", "name", "int"])
def test_last_move_and_flips(how: str) -> None:
    board, move, flipped = after_opening()
    lastmove = {"move": move, "name": str(move), "int": move.square}[how]
    root = parse(svg.board(board, lastmove=lastmove, flips=flipped))
    found = squares(root)
    assert [n for n, g in found.items() if "lastmove" in g.attrib["class"].split()] == ["f6"]
    assert {n for n, g in found.items() if "flip" in g.attrib["class"].split()} == {square_name(sq) for sq in flipped}
    assert len(root.findall(".//s:circle[@class='lastmove-marker']", NS)) == 1
    assert found["f6"].find("s:circle[@class='lastmove-marker']", NS) is not None


def test_a_pass_as_last_move_marks_nothing() -> None:
    root = parse(svg.board(Board(), lastmove=Move.null()))
    assert not [g for g in squares(root).values() if "lastmove" in g.attrib["class"]]


def test_fills_marks_and_arrows() -> None:
    board = Board()
    image = svg.board(
        board,
        fill={"a1": "red", 63: "#00ff0080", "d4": "rgba(0, 0, 255, 0.4)"},
        marks={"c4": "A", "e4": "12", "f5": "cross", "h1": "circle", 0: "triangle", "b2": "square", "g7": "best"},
        arrows=[("c4", "f7"), (parse_square("b2"), "b2"), ("a8", "h1", "blue")],
    )
    root = parse(image)
    fills = {r.attrib["data-square"]: r.attrib["fill"] for r in root.findall(".//s:rect[@class='fill']", NS)}
    assert fills == {"a1": "red", "h8": "#00ff0080", "d4": "rgba(0, 0, 255, 0.4)"}
    found = squares(root)
    assert "".join(found["c4"].itertext()) == "A"
    assert "".join(found["e4"].itertext()) == "12"
    assert "".join(found["g7"].itertext()) == "best"
    symbols = {g.attrib["data-symbol"]: g for g in root.findall(".//s:g[@data-symbol]", NS)}
    assert set(symbols) == {"cross", "circle", "triangle", "square"}
    assert found["a1"].find("s:g[@data-symbol='triangle']", NS) is not None
    arrows = root.findall(".//s:g[@class='arrow']", NS)
    assert [(a.attrib["data-from"], a.attrib["data-to"]) for a in arrows] == [("c4", "f7"), ("b2", "b2"), ("a8", "h1")]
    assert arrows[0].find("s:line", NS) is not None and arrows[0].find("s:polygon", NS) is not None
    assert arrows[1].find("s:circle", NS) is not None  # a square pointing at itself is a ring
    assert element_at(arrows[2], "s:polygon").attrib["fill"] == "blue"
    # the arrow's tip is the centre of its target square
    tip = element_at(arrows[0], "s:polygon").attrib["points"].split()[0]
    x, y = translate(found["f7"])
    assert tip == f"{x + 20:g},{y + 20:g}"


def test_flipped_orientation_puts_a1_bottom_right() -> None:
    normal = squares(parse(svg.board(Board())))
    flipped_root = parse(svg.board(Board(), orientation="flipped"))
    flipped = squares(flipped_root)
    xs = [translate(g)[0] for g in flipped.values()]
    ys = [translate(g)[1] for g in flipped.values()]
    assert translate(flipped["a1"]) == (max(xs), max(ys))
    assert translate(flipped["h8"]) == (min(xs), min(ys))
    assert translate(normal["a1"]) == (min(xs), min(ys))
    # same discs, turned around: d4 (white) sits where e5 sits normally
    assert translate(flipped["d4"]) == translate(normal["e5"])
    assert flipped["d4"].attrib["data-disc"] == "white"
    labels = all_text(flipped_root)
    assert labels[:4] == ["h", "8", "g", "7"]
    assert flipped_root.attrib["data-orientation"] == "flipped"


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_themes(theme: str) -> None:
    root = parse(svg.board(Board(), theme=theme, legal=True))
    palette = svg.THEMES[theme]
    assert element_at(root, ".//s:rect[@class='field']").attrib["fill"] == palette.field
    discs = {d.attrib["data-disc"]: d.attrib["fill"] for d in root.findall(".//s:circle[@class='disc']", NS)}
    assert discs == {"black": palette.black, "white": palette.white}
    assert root.attrib["data-theme"] == theme


def test_light_theme_is_the_widgets_green_board() -> None:
    light = svg.THEMES["light"]
    red, green, blue = (int(light.field[i : i + 2], 16) for i in (1, 3, 5))
    assert green > 1.4 * red and green > 1.4 * blue  # a green board
    assert light.black_edge and light.white_edge  # discs have an outline


def test_user_text_is_escaped_never_markup() -> None:
    image = svg.board(Board(), marks={"a1": EVIL, "b1": "&amp; \"q\" 'x'", "c1": "bad\x00char"})
    root = parse(image)  # parses: the document is well formed
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter("script"))
    texts = all_text(root)
    assert EVIL in texts
    assert "&amp; \"q\" 'x'" in texts
    assert "bad\ufffdchar" in texts
    assert "<script>" not in image


def test_colours_that_are_not_colours_are_refused() -> None:
    with pytest.raises(ReversiError, match="not a colour"):
        svg.board(Board(), fill={"a1": 'red" onload="alert(1)'})
    with pytest.raises(ReversiError, match="not a colour"):
        svg.board(Board(), arrows=[("a1", "b2", "url(javascript:x)")])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"theme": "sepia"}, "theme must be one of"),
        ({"orientation": "sideways"}, "orientation must be one of"),
        ({"lastmove": "z9"}, "is not a square name"),
        ({"lastmove": 64}, "off a 8x8 board"),
        ({"flips": ["a1", 2.5]}, "is not a square"),
        ({"arrows": [("a1",)]}, "an arrow must be"),
        ({"arrows": ["a1b2"]}, "an arrow must be"),
        ({"size": -3}, "size must be"),
        ({"marks": {"i9": "x"}}, "i9"),
    ],
)
def test_bad_options_raise_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        svg.board(Board(), **options)  # type: ignore[arg-type]


def test_not_a_board_is_refused() -> None:
    with pytest.raises(ReversiError, match="expected a Board"):
        svg.board("---", size=100)  # type: ignore[arg-type]


def test_svg_board_directly_for_repr() -> None:
    root = parse(svg.board(Board()))
    assert len(squares(root)) == 64


def test_bare_board_shows_as_svg() -> None:
    board = Board.from_transcript("f5")
    image = board._repr_svg_()
    root = parse(image)
    assert len(squares(root)) == 64
    assert squares(root)["f5"].attrib["data-disc"] == "black"


# -- grids ----------------------------------------------------------------------------------


def test_grid_of_positions_with_captions() -> None:
    positions = [Board.from_transcript(OPENING[: 2 * i]) for i in range(6)]
    image = svg.boards(positions, columns=4, captions=[f"p{i}" for i in range(6)], size=100)
    root = parse(image)
    boards = root.findall("./s:g/s:svg[@class='reversi-board']", NS)
    assert len(boards) == 6
    assert [c.text for c in root.findall(".//s:text[@class='caption']", NS)] == [f"p{i}" for i in range(6)]
    xs = sorted({float(b.attrib["x"]) for b in boards})
    ys = sorted({float(b.attrib["y"]) for b in boards})
    assert len(xs) == 4 and len(ys) == 2  # four columns, two rows
    assert all(b.attrib["width"] == "100" for b in boards)
    for board, element in zip(positions, boards, strict=True):
        discs = element.findall(".//s:circle[@class='disc']", NS)
        assert len(discs) == board.count(True) + board.count(False)
    assert float(root.attrib["width"]) >= 4 * 100 and float(root.attrib["height"]) >= 2 * 100


def test_grid_per_board_options_and_escaped_captions() -> None:
    image = svg.boards(
        [Board(), (Board(), {"marks": {"a1": "X"}, "orientation": "flipped"})],
        captions=[EVIL, "plain"],
        legal=True,
    )
    root = parse(image)
    boards = root.findall("./s:g/s:svg", NS)
    assert [b.attrib["data-orientation"] for b in boards] == ["normal", "flipped"]
    assert all(len(b.findall(".//s:circle[@class='legal-move']", NS)) == 4 for b in boards)
    assert "X" in all_text(boards[1]) and "X" not in all_text(boards[0])
    assert not list(root.iter(f"{SVG}script"))
    assert element_at(root, ".//s:text[@class='caption']").text == EVIL


def test_grid_refuses_bad_items() -> None:
    with pytest.raises(ReversiError, match="captions for"):
        svg.boards([Board()], captions=["a", "b"])
    with pytest.raises(ReversiError, match="item 1"):
        svg.boards([Board(), "f5"])  # type: ignore[list-item]
    with pytest.raises(ReversiError, match="columns"):
        svg.boards([Board()], columns=0)


def test_game_sequence_with_move_numbers() -> None:
    game = Game.from_transcript(OPENING)
    root = parse(svg.game(game, columns=4))
    captions = [c.text for c in root.findall(".//s:text[@class='caption']", NS)]
    assert captions == ["start", "1. f5", "2. d6", "3. c3", "4. d3", "5. c4", "6. f4", "7. f6"]
    boards = root.findall("./s:g/s:svg", NS)
    assert len(boards) == len(game) + 1
    for ply, element in enumerate(boards[1:], 1):
        last = [g.attrib["data-square"] for g in squares(element).values() if "lastmove" in g.attrib["class"]]
        assert last == [str(game.moves[ply - 1])]
        board = game.board_at(ply - 1)
        flips = {square_name(sq) for sq in board.flips(game.moves[ply - 1])}
        assert {g.attrib["data-square"] for g in squares(element).values() if "flip" in g.attrib["class"]} == flips


def test_game_with_a_pass_is_captioned() -> None:
    # on 4x4 random play soon reaches a forced pass: take the first seed that does
    for seed in range(200):
        rng = random.Random(seed)
        board = Board(rules=Rules(size=4))
        while not board.must_pass() and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if board.must_pass():
            break
    assert board.must_pass(), "some random 4x4 game reaches a forced pass"
    board.push_pass()
    game = Game.from_board(board)
    root = parse(svg.game(game, start=False))
    captions = [c.text for c in root.findall(".//s:text[@class='caption']", NS)]
    assert captions[-1] == f"{len(game)}. pass"
    assert len(captions) == len(game)


# -- in a real browser --------------------------------------------------------------------

SHOTS = Path("/tmp/shots")


MEASURE = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => {
    const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height,
      name: e.getAttribute('data-square') || e.getAttribute('data-disc')};
  });
  const board = document.querySelector('svg.reversi-board').getBoundingClientRect();
  return {board: {x: board.x, y: board.y, w: board.width, h: board.height},
          squares: boxes('g.square').map((s, i) => {
            const r = document.querySelectorAll('g.square > rect.cell')[i].getBoundingClientRect();
            return {...s, x: r.x, y: r.y, w: r.width, h: r.height};  // the cell, not its overflowing mark
          }),
          discs: boxes('circle.disc'), legal: boxes('circle.legal-move'),
          arrows: boxes('g.arrow'), texts: [...document.querySelectorAll('text.mark')].map((t) => t.textContent),
          scripts: document.querySelectorAll('script').length};
}"""


@pytest.mark.browser
def test_pictures_render_in_chromium(browser: Any) -> None:
    board, move, flipped = after_opening()
    pictures = {
        "annotated": svg.board(
            board,
            size=400,
            lastmove=move,
            flips=flipped,
            legal=True,
            fill={"a1": "rgba(255, 0, 0, 0.5)", "h1": "#1976d2"},
            marks={"e6": "A", "b2": "12", "g7": "circle", "h8": "cross", "a8": EVIL},
            arrows=[("c4", "f7")],
        ),
        "flipped": svg.board(board, size=400, orientation="flipped", legal=True),
        "dark": svg.board(board, size=400, theme="dark", legal=True, lastmove=move),
        "high_contrast": svg.board(board, size=400, theme="high-contrast", legal=True, lastmove=move),
        "game": svg.game(Game.from_transcript(OPENING), columns=4, size=160),
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 900, "height": 700})
    results = {}
    for name, image in pictures.items():
        page.set_content(f"<!doctype html><body style='margin:10px'>{image}</body>")
        page.screenshot(path=str(SHOTS / f"svg_{name}.png"), full_page=True)
        results[name] = page.evaluate(MEASURE)
    page.close()
    shot = results["annotated"]
    assert shot["board"]["w"] == pytest.approx(400) and shot["board"]["h"] == pytest.approx(400)
    assert len(shot["squares"]) == 64
    assert len(shot["discs"]) == board.count(True) + board.count(False)
    assert len(shot["legal"]) == len(board.legal_moves)
    assert len(shot["arrows"]) == 1
    assert EVIL in shot["texts"] and shot["scripts"] == 0
    # every square is 40 of the board's 368 units, and every disc lies inside its board
    cell = 400 * 40 / 368
    b = shot["board"]
    for sq in shot["squares"]:
        assert sq["w"] == pytest.approx(cell, abs=0.6) and sq["h"] == pytest.approx(cell, abs=0.6)
    for disc in shot["discs"]:
        assert b["x"] <= disc["x"] and disc["x"] + disc["w"] <= b["x"] + b["w"]
        assert disc["w"] == pytest.approx(cell * 0.82, abs=1.5)
    flipped_squares = {s["name"]: s for s in results["flipped"]["squares"]}
    assert flipped_squares["a1"]["x"] == max(s["x"] for s in flipped_squares.values())
    assert flipped_squares["a1"]["y"] == max(s["y"] for s in flipped_squares.values())
    grid = results["game"]
    assert len(grid["squares"]) == 64 * (len(OPENING) // 2 + 1)
