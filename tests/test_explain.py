"""explain(): every direction and every reason, checked against the engine and in four languages."""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    ReversiError,
    Rules,
    parse_square,
    square_name,
)
from reversi_widget.explain import Explanation, LineCode, Reason, ReasonCode, explain
from reversi_widget.geometry import DIRECTIONS
from reversi_widget.i18n import LANGUAGES, catalog, translate

# The package exports the function explain() under the module's name, so fetch the module itself.
explain_module = importlib.import_module("reversi_widget.explain")


def sq(name: str) -> int:
    return parse_square(name)


def names(squares: tuple[int, ...]) -> list[str]:
    return [square_name(s) for s in squares]


def position(discs: dict[str, str], turn: str = "X", size: int = 8) -> Board:
    """A board with the given discs ({"a1": "X", "b1": "O"}) and side to move."""
    cells = ["-"] * (size * size)
    for name, disc in discs.items():
        cells[parse_square(name, size)] = disc
    return Board("".join(cells) + f" {turn}", rules=Rules(size=size))


# -- legal moves ---------------------------------------------------------------------------------


def test_the_rules_example_row_black_white_white_empty() -> None:
    """R11: black, white, white, empty in a row: Black plays the empty square and both whites flip."""
    board = position({"a1": "X", "b1": "O", "c1": "O"})
    expl = explain(board, "d1")
    assert expl.legal and expl.color == BLACK and expl.reasons == ()
    west = expl.direction("west")
    assert west.code is LineCode.FLANKS and names(west.run) == ["c1", "b1"] and west.end == sq("a1")
    assert names(expl.flips) == ["b1", "c1"] == [square_name(s) for s in board.flips("d1")]
    assert [d.direction for d in expl.directions if d.flanks] == ["west"]
    assert str(expl) == "d1 is legal for Black: west: flanks c1, b1 (closed by a1); it flips 2 discs."


def test_the_standard_opening_move() -> None:
    expl = explain(Board(), "d3")
    assert expl.text() == "d3 is legal for Black: south: flanks d4 (closed by d5); it flips 1 disc."
    assert expl.short() == "d3 is legal: it flips 1 disc."
    assert expl.square == sq("d3") and expl.flips == (sq("d4"),)


def test_one_move_flanks_in_several_directions_at_once() -> None:
    """R13: every flanked line flips in the same move."""
    board = position(
        {
            "d3": "O", "d2": "X",  # north
            "e4": "O", "f4": "O", "g4": "X",  # east
            "e5": "O", "f6": "X",  # south-east
            "c5": "O", "b6": "X",  # south-west
            "c4": "O",  # west: runs into b4 (empty)
            "c3": "X",  # north-west: own disc next to it
        }
    )  # fmt: skip
    expl = explain(board, "d4")
    flanking = {d.direction: names(d.run) for d in expl.directions if d.flanks}
    assert flanking == {"north": ["d3"], "east": ["e4", "f4"], "south-east": ["e5"], "south-west": ["c5"]}
    assert names(expl.flips) == sorted(["d3", "e4", "f4", "e5", "c5"], key=sq)
    assert expl.flips == tuple(board.flips("d4"))
    assert expl.direction("west").code is LineCode.RUN_TO_EMPTY
    assert expl.direction("north-west").code is LineCode.OWN_DISC
    assert "it flips 5 discs" in str(expl)


def test_flipped_discs_do_not_flank_further() -> None:
    """R15: b1 turns black, but b1-b2-b3 is not a line from the new disc, so b2 stays white."""
    board = position({"b1": "O", "c1": "X", "b2": "O", "b3": "X"})
    expl = explain(board, "a1")
    assert names(expl.flips) == ["b1"]
    assert expl.direction("south-east").code is LineCode.RUN_TO_EMPTY  # b2 then the empty c3
    board.push("a1")
    assert board.disc_at("b2") == WHITE


def test_no_jumping_over_an_own_disc() -> None:
    """R16: a1 with own b1 next to it cannot reach the white c1 beyond it."""
    board = position({"b1": "X", "c1": "O", "d1": "X", "h8": "O"})
    expl = explain(board, "a1")
    east = expl.direction("east")
    assert east.code is LineCode.OWN_DISC and east.end == sq("b1") and east.run == ()
    assert not expl.legal and expl.codes == (ReasonCode.FLANKS_NOTHING,)
    assert "a1" not in [str(m) for m in board.legal_moves]


# -- why a direction flanks nothing -------------------------------------------------------------


def test_each_reason_a_direction_flanks_nothing() -> None:
    board = position(
        {
            "b1": "O", "c1": "O", "d1": "O", "e1": "O", "f1": "O", "g1": "O", "h1": "O",  # east: to the edge
            "b2": "O",  # south-east: b2 then empty c3
            "a2": "X",  # south: own disc next to it
            "h8": "X",
        }
    )  # fmt: skip
    expl = explain(board, "a1")
    codes = {d.direction: d.code for d in expl.directions}
    assert codes == {
        "north": LineCode.EDGE,
        "north-east": LineCode.EDGE,
        "east": LineCode.RUN_TO_EDGE,
        "south-east": LineCode.RUN_TO_EMPTY,
        "south": LineCode.OWN_DISC,
        "south-west": LineCode.EDGE,
        "west": LineCode.EDGE,
        "north-west": LineCode.EDGE,
    }
    assert names(expl.direction("east").run) == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert expl.direction("east").end is None
    assert expl.direction("south-east").end == sq("c3") and names(expl.direction("south-east").run) == ["b2"]
    assert expl.direction("south").end == sq("a2")
    assert not expl.legal and expl.flips == () and expl.codes == (ReasonCode.FLANKS_NOTHING,)
    text = str(expl)
    assert text.startswith("a1 is illegal for Black: it flanks no white disc in any direction — north: the edge")
    assert "east: b1, c1, d1, e1, f1, g1, h1 run into the edge with no black disc to close them" in text
    assert "south-east: b2 is followed by the empty square c3, not by a black disc" in text
    assert "south: the next square, a2, already holds a black disc" in text
    assert expl.short() == "a1: no white disc is flanked in any direction."


def test_an_empty_neighbour() -> None:
    expl = explain(Board(), "a1")
    assert all(d.code in (LineCode.EDGE, LineCode.EMPTY) for d in expl.directions)
    assert expl.direction("east").end == sq("b1") and "east: the next square, b1, is empty" in str(expl)


# -- why a square is illegal --------------------------------------------------------------------


def test_an_occupied_square_says_by_whom() -> None:
    board = Board()
    white = explain(board, "d4")
    assert white.reasons == (Reason(ReasonCode.OCCUPIED, color=WHITE),) and white.directions == ()
    assert str(white) == "d4 is illegal for Black: the square already holds a white disc."
    black = explain(board, "e4", language="pl")
    assert black.reasons == (Reason(ReasonCode.OCCUPIED, color=BLACK),)
    assert black.short() == "e4: na tym polu leży już czarny pionek."
    with pytest.raises(ReversiError, match="occupied"):
        black.direction("north")


def test_not_your_turn() -> None:
    """e3 flanks e4 for White, but it is Black's turn."""
    expl = explain(Board(), "e3", color=WHITE)
    assert expl.color == WHITE and not expl.legal
    assert expl.reasons == (Reason(ReasonCode.NOT_YOUR_TURN, color=BLACK),)
    assert expl.direction("south").flanks and expl.flips == ()
    assert str(expl) == "e3 is illegal for White: it is Black's turn."
    assert expl.short("uk") == "e3: зараз ходять Темні."
    # asking for the side to move by name is the same as the default
    assert explain(Board(), "d3", color="black") == explain(Board(), "d3")


def test_not_your_turn_and_flanks_nothing_are_both_given() -> None:
    expl = explain(Board(), "a1", color="white")
    assert expl.codes == (ReasonCode.NOT_YOUR_TURN, ReasonCode.FLANKS_NOTHING)
    assert str(expl).startswith("a1 is illegal for White: it is Black's turn; it flanks no black disc")


def test_game_over() -> None:
    board = position({"a1": "X", "h8": "X"}, turn="O")  # White wiped out
    assert board.is_game_over()
    empty = explain(board, "d3")
    assert empty.codes == (ReasonCode.GAME_OVER, ReasonCode.FLANKS_NOTHING) and not empty.legal
    assert empty.short() == "d3: the game is over."
    taken = explain(board, "a1")
    assert taken.codes == (ReasonCode.GAME_OVER, ReasonCode.OCCUPIED)
    passing = explain(board, "pass")
    assert passing.codes == (ReasonCode.GAME_OVER,) and not passing.legal
    assert str(passing) == "White may not pass: the game is over: neither side can move."
    with pytest.raises(IllegalMoveError):
        board.push_pass()  # the engine agrees


def test_free_start_placement() -> None:
    """R8: the four centre squares first, one disc at a time, flipping nothing."""
    board = Board(rules=Rules(start="free"))
    off = explain(board, "c3")
    assert off.reasons == (Reason(ReasonCode.CENTRE_FIRST, squares=tuple(map(sq, ["d4", "e4", "d5", "e5"]))),)
    assert str(off) == (
        "c3 is illegal for Black: the free start fills the four centre squares first, "
        "and d4, e4, d5, e5 are still empty."
    )
    centre = explain(board, "e5")
    assert centre.legal and centre.codes == (ReasonCode.PLACEMENT,) and centre.flips == () and centre.directions == ()
    assert centre.short() == "e5: a centre disc of the free start; it flips nothing."
    board.push("e5")
    board.push("d4")
    board.push("e4")
    last = explain(board, "a8", color=WHITE)
    assert last.codes == (ReasonCode.CENTRE_FIRST,) and names(last.reasons[0].squares) == ["d5"]
    assert "and d5 is still empty" in str(last)
    assert explain(board, "d4", color=WHITE).codes == (ReasonCode.OCCUPIED,)
    assert explain(board, "pass", color=WHITE).codes == (ReasonCode.PASS_WHILE_MOVES,)


def test_a_pass_while_a_move_exists() -> None:
    """R19: no pass while a move exists; the reason lists the moves."""
    expl = explain(Board(), "pass")
    assert expl.square is None and expl.is_pass and not expl.legal
    assert expl.reasons == (Reason(ReasonCode.PASS_WHILE_MOVES, squares=tuple(map(sq, ["d3", "c4", "f5", "e6"]))),)
    assert str(expl) == (
        "Black may not pass: a player may pass only without a legal move, and there are 4: d3, c4, f5, e6."
    )
    assert expl.short("pl") == "Czarne nie mogą pasować: mają 4 dozwolone ruchy (d3, c4, f5, e6)."
    assert explain(Board(), Move.null()) == expl


def test_a_forced_pass_is_legal() -> None:
    """R18: Black has no move (a1 is White's corner), White has c1."""
    board = position({"a1": "O", "b1": "X"})
    assert board.must_pass()
    expl = explain(board, "pass")
    assert expl.legal and expl.codes == (ReasonCode.NO_LEGAL_MOVE,) and expl.flips == ()
    assert str(expl) == "Black may pass: Black has no legal move, so White moves again."
    assert expl.short() == "Black has no legal move and must pass."


def test_every_reason_code_names_its_rule() -> None:
    assert {code: code.rule for code in ReasonCode} == {
        ReasonCode.GAME_OVER: "R20",
        ReasonCode.NOT_YOUR_TURN: "R9",
        ReasonCode.OCCUPIED: "R10",
        ReasonCode.CENTRE_FIRST: "R8",
        ReasonCode.PASS_WHILE_MOVES: "R19",
        ReasonCode.FLANKS_NOTHING: "R12",
        ReasonCode.PLACEMENT: "R8",
        ReasonCode.NO_LEGAL_MOVE: "R18",
    }
    assert {code for code in ReasonCode if not code.forbids} == {ReasonCode.PLACEMENT, ReasonCode.NO_LEGAL_MOVE}


# -- against the engine -------------------------------------------------------------------------


def _check_against_engine(board: Board) -> None:
    """For every square and the pass: legal as the engine says, flips as the engine flips, lines well-formed."""
    before = (board.to_string(), list(board.move_stack))
    black, white = board.bitboards()
    own, other = (black, white) if board.turn == BLACK else (white, black)
    for square in range(board.size * board.size):
        move = Move(square, board.size)
        expl = explain(board, move)
        assert expl.legal == (move in board.legal_moves), (board.to_string(), square)
        if expl.legal:
            assert list(expl.flips) == board.flips(move)
        else:
            assert expl.flips == ()
            with pytest.raises(IllegalMoveError):
                board.copy().push(move)
        if expl.directions:
            assert [d.direction for d in expl.directions] == list(DIRECTIONS)
            for line in expl.directions:
                assert all(other >> s & 1 for s in line.run)
                if line.code is LineCode.FLANKS:
                    assert line.run and line.end is not None and own >> line.end & 1
    assert explain(board, "pass").legal == board.must_pass()
    assert (board.to_string(), list(board.move_stack)) == before  # explaining changes nothing


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([4, 6, 8, 10]), picks=st.lists(st.integers(min_value=0, max_value=10**6), max_size=40))
def test_flips_equal_the_engine_in_played_positions(size: int, picks: list[int]) -> None:
    board = Board(rules=Rules(size=size))
    for pick in picks:
        if board.is_game_over():
            break
        if board.must_pass():
            board.push_pass()
            continue
        moves = list(board.legal_moves)
        board.push(moves[pick % len(moves)])
    _check_against_engine(board)


@settings(max_examples=40, deadline=None)
@given(cells=st.lists(st.sampled_from("XO--"), min_size=36, max_size=36), turn=st.sampled_from("XO"))
def test_flips_equal_the_engine_in_random_positions(cells: list[str], turn: str) -> None:
    _check_against_engine(Board("".join(cells) + " " + turn, rules=Rules(size=6)))


# -- text in four languages ---------------------------------------------------------------------


def _every_kind_of_explanation() -> Iterator[Explanation]:
    """Explanations that together reach every reason, every line code and both colours."""
    start = Board()
    yield explain(start, "d3")
    yield explain(start, "a1")
    yield explain(start, "d4")
    yield explain(start, "e4")
    yield explain(start, "pass")
    yield explain(start, "e3", color=WHITE)
    yield explain(start, "a1", color=WHITE)
    yield explain(start, "pass", color=WHITE)
    after = Board.from_transcript("f5")
    yield explain(after, "d6")  # White to move, legal
    yield explain(after, "a1")
    yield explain(after, "d3", color=BLACK)
    yield explain(after, "pass")
    yield explain(position({"a1": "O", "b1": "X"}), "pass")
    yield explain(position({"a1": "X", "b1": "O"}, turn="O"), "pass")
    yield explain(position({"a1": "X", "h8": "X"}, turn="O"), "d3")
    yield explain(position({"a1": "X", "h8": "X"}, turn="O"), "pass")
    edge_rows = {f"{c}1": "O" for c in "bcdefgh"} | {"b2": "O", "a2": "X", "h8": "X"}
    yield explain(position(edge_rows), "a1")
    yield explain(position({k: "XO"[v == "X"] for k, v in edge_rows.items()}, turn="O"), "a1")
    yield explain(position({"a1": "X", "b1": "O", "c1": "O"}), "d1")
    free = Board(rules=Rules(start="free"))
    yield explain(free, "a1")
    yield explain(free, "d4")
    free.push("d4")
    free.push("e4")
    free.push("d5")
    yield explain(free, "h8", color=WHITE)
    yield explain(free, "pass", color=WHITE)


EXPLANATIONS = list(_every_kind_of_explanation())


@pytest.mark.parametrize("language", LANGUAGES)
def test_texts_name_the_square_and_fill_every_placeholder(language: str) -> None:
    english = [e.text("en") for e in EXPLANATIONS]
    for expl, in_english in zip(EXPLANATIONS, english, strict=True):
        for text in (expl.text(language), expl.short(language)):
            assert "{" not in text and "}" not in text, text
            assert text.endswith("."), text
        if expl.square is not None:
            name = square_name(expl.square, expl.size)
            assert expl.text(language).startswith(name) and expl.short(language).startswith(name)
        if language != "en":
            assert expl.text(language) != in_english
    assert dataclasses.replace(EXPLANATIONS[0], language=language).text() == EXPLANATIONS[0].text(language)


def test_every_explanation_text_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples above reach every explain_ key: no dead text, no path left untested."""
    used: set[str] = set()
    real = translate

    def recording(key: str, language: str = "en", **params: object) -> str:
        used.add(key)
        return real(key, language, **params)

    monkeypatch.setattr(explain_module, "translate", recording)
    for expl in EXPLANATIONS:
        expl.text()
        expl.short()
    every = {key for key in catalog("en") if key.startswith("explain_")}
    assert every - used == set()


def test_texts_in_each_language() -> None:
    expl = explain(Board(), "d3")
    assert expl.text("ca") == "d3 és una jugada legal per a les negres: sud: flanqueja d4 fins a d5; gira 1 peça."
    assert (
        expl.text("pl")
        == "d3 to dozwolony ruch czarnych: południe: zamyka d4 między nowym pionkiem a d5; odwraca 1 pionek."
    )
    assert (
        expl.text("uk")
        == "d3 — дозволений хід для Темних: південь: захоплює d4 між новою фішкою і d5; перевертає 1 фішку."
    )
    assert (
        explain(Board(), "a1", language="uk").short()
        == "a1: цей хід не захоплює жодної світлої фішки в жодному напрямку."
    )
    assert explain(Board(), "a1", language="ca").short() == "a1: no flanqueja cap peça blanca en cap direcció."


# -- the notebook picture ---------------------------------------------------------------------


ARROW_RE = re.compile(r'<g class="arrow" data-from="(\w+)" data-to="(\w+)"[^>]*><line[^>]*stroke="([^"]+)"')


def test_html_draws_arrows_flips_and_the_mark() -> None:
    """Arrows from the move to each closing disc, grey ones along open lines, fills on the flips."""
    board = position({"a1": "X", "b1": "O", "c1": "O", "d2": "O", "d3": "X", "e2": "O"})
    page = explain(board, "d1")._repr_html_()
    assert page.startswith('<div class="reversi-explanation" lang="en"><svg')
    assert "<p" in page and "d1 is legal for Black: south: flanks d2 (closed by d3); west: flanks c1, b1" in page
    arrows = {(start, end): colour for start, end, colour in ARROW_RE.findall(page)}
    assert arrows == {("d1", "d3"): "#ffa000", ("d1", "a1"): "#ffa000", ("d1", "f3"): "#9e9e9e"}
    assert set(re.findall(r'<rect class="fill" data-square="(\w+)"', page)) == {"b1", "c1", "d2"}
    assert re.search(r'<g class="square marked" data-square="d1"[^>]*>.*?data-symbol="circle"', page)


def test_html_marks_an_illegal_square_and_its_open_lines() -> None:
    board = position({"b1": "O", "c1": "O", "b2": "O", "h8": "X"})
    page = explain(board, "a1", language="pl")._repr_html_()
    assert re.search(r'<g class="square marked" data-square="a1"[^>]*>.*?data-symbol="cross"', page)
    assert 'lang="pl"' in page and "a1 to niedozwolony ruch czarnych" in page
    arrows = {(start, end): colour for start, end, colour in ARROW_RE.findall(page)}
    assert arrows == {("a1", "d1"): "#9e9e9e", ("a1", "c3"): "#9e9e9e"}
    assert '<rect class="fill"' not in page


def test_html_escapes_the_text() -> None:
    expl = explain(Board(rules=Rules(start="free")), "c3", language="ca")
    page = expl._repr_html_()
    paragraph = page.split('<p style="max-width: 40em">', 1)[1]
    assert paragraph.endswith("</p></div>")
    text = paragraph[: -len("</p></div>")]
    assert "l'inici" in expl.text() and "'" not in text and "<" not in text
    assert text == expl.text().replace("'", "&#x27;")


# -- bad input ---------------------------------------------------------------------------------


def test_other_ways_to_name_the_move() -> None:
    board = Board()
    by_name = explain(board, "d3")
    assert explain(board, sq("d3")) == by_name == explain(board, Move.from_name("d3")) == explain(board, " D3 ")


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("z9", InvalidMoveError, "'z9' is not a square name"),
        ("i1", InvalidMoveError, "'i1' is off a 8x8 board: columns a-h, rows 1-8"),
        (64, InvalidMoveError, "square 64 is off a 8x8 board: expected an int 0-63"),
        (-1, InvalidMoveError, "square -1 is off a 8x8 board"),
        (3.0, InvalidMoveError, "a move must be a square name like 'd3', a Move, a square int or 'pass', got 3.0"),
        (None, InvalidMoveError, "got None"),
        (True, InvalidMoveError, "got True"),
        (Move(3, 6), InvalidMoveError, "6x6 board, this one is 8x8"),
    ],
)
def test_bad_moves_are_refused_clearly(move: object, error: type[Exception], message: str) -> None:
    board = Board()
    with pytest.raises(error, match=re.escape(message)):
        explain(board, move)  # type: ignore[arg-type]
    assert board == Board()


def test_bad_language_colour_or_board_are_refused_clearly() -> None:
    with pytest.raises(ReversiError, match=re.escape("unknown language 'de': expected one of en, ca, pl, uk")):
        explain(Board(), "d3", language="de")
    expl = explain(Board(), "d3")
    with pytest.raises(ReversiError, match="unknown language 'fr'"):
        expl.text("fr")
    with pytest.raises(ReversiError, match="unknown language 'fr'"):
        expl.short("fr")
    with pytest.raises(ReversiError, match="color must be BLACK, WHITE, 'black' or 'white', got 'red'"):
        explain(Board(), "d3", color="red")
    with pytest.raises(ReversiError, match="explain needs a Board, got str"):
        explain("board", "d3")  # type: ignore[arg-type]
    with pytest.raises(ReversiError, match="unknown direction 'up'"):
        expl.direction("up")


def test_an_explanation_is_a_frozen_value() -> None:
    expl = explain(Board(), "d3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        expl.legal = False  # type: ignore[misc]
    assert hash(expl) == hash(explain(Board(), "d3"))
    assert expl.board() == Board() and expl.board() is not expl.board()
