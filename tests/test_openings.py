"""Opening names (``reversi_widget.openings``): the shipped table replays, names are found in
all eight orientations of the board, the longest named line wins, the ply where a game left
theory is right, and a damaged table is refused naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Game, IllegalMoveError, InvalidPositionError, Rules
from reversi_widget.explorer.symmetry import SYMMETRIES, orient, orient_bits
from reversi_widget.move import Move
from reversi_widget.notation import format_line
from reversi_widget.openings import (
    FORMAT_LINE,
    OPENINGS_FILE,
    NamedLine,
    OpeningTable,
    load_openings,
    name,
    parse_openings,
    read_openings,
)
from reversi_widget.squares import BLACK, square_name

TABLE = load_openings()
LINES = TABLE.lines


def image_board(line: NamedLine, symmetry: int) -> Board:
    """The line in one orientation, played from that orientation's image of the standard
    start (the standard start itself for four symmetries, the mirrored one for the others)."""
    black, white = Board().bitboards()
    start = format_line(8, orient_bits(black, symmetry), orient_bits(white, symmetry), BLACK, None)
    board = Board(rules=Rules(start=start))
    for square in line.squares:
        board.push(Move(orient(square, symmetry), 8))
    return board


def small_table(*rows: str) -> OpeningTable:
    return parse_openings("\n".join([FORMAT_LINE, "source: test a test source", *rows]), "test table")


# -- the shipped table ----------------------------------------------------------------------


def test_the_shipped_table_loads_and_every_line_replays_from_the_start() -> None:
    assert len(LINES) == len(read_openings(OPENINGS_FILE))
    for line in LINES:
        board = Board()
        for square in line.squares:
            move = Move(square, 8)
            assert move in board.legal_moves, (line.name, line.moves, str(move))
            board.push(move)
        assert line.moves.startswith("f5")
        assert line.citation and line.name == line.name.strip()


def test_every_line_of_the_shipped_table_cites_a_source_it_declares() -> None:
    text = OPENINGS_FILE.read_text(encoding="utf-8")
    declared = {row.split()[1] for row in text.splitlines() if row.startswith("source:")}
    assert {line.source for line in LINES} <= declared
    assert len({line.squares for line in LINES}) == len(LINES)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(LINES), st.integers(0, SYMMETRIES - 1))
def test_a_line_is_named_in_every_orientation(line: NamedLine, symmetry: int) -> None:
    board = image_board(line, symmetry)
    opening = name(board)
    assert opening is not None
    assert (opening.name, opening.plies, opening.left_theory) == (line.name, len(line.squares), None)
    assert opening.moves == tuple(board.move_stack)
    # the row given is this one, or another order of the same name to the same position (the
    # Tiger's two), and its citation comes with it
    row = next(other for other in LINES if other.moves == opening.line)
    assert row.name == line.name and len(row.squares) == len(line.squares)
    assert image_board(row, 0).bitboards() in {image_board(line, s).bitboards() for s in range(SYMMETRIES)}
    assert opening.source == row.citation


@pytest.mark.parametrize("symmetry", range(SYMMETRIES))
def test_every_orientation_is_reached_by_some_start(symmetry: int) -> None:
    """Four orientations keep the standard start, the other four give the mirrored one: the
    property above covers both kinds of start."""
    black, white = Board().bitboards()
    image = (orient_bits(black, symmetry), orient_bits(white, symmetry))
    assert image in (Board().bitboards(), Board(rules=Rules(start="mirrored")).bitboards())


def test_a_game_from_the_mirrored_start_is_named_by_the_mirrored_lines() -> None:
    board = Board(rules=Rules(start="mirrored"))
    tiger = next(line for line in LINES if line.name == "Tiger")
    for square in tiger.squares:  # mirroring the columns (symmetry 1) maps the standard start to the mirrored one
        board.push(Move(orient(square, 1), 8))
    opening = name(board)
    assert opening is not None and opening.name == "Tiger"


# -- matching ---------------------------------------------------------------------------------


def test_the_longest_named_line_wins() -> None:
    table = small_table(
        "opening: f5 d6 | Short | test",
        "opening: f5 d6 c3 d3 c4 b3 | Long | test",
        "opening: f5 d6 c3 d3 c4 | Middle | test",
    )
    assert [name(line, table=table).name for line in ("f5d6", "f5d6c3d3c4", "f5d6c3d3c4b3", "f5d6c3d3c4b3b4")] == [  # type: ignore[union-attr]
        "Short",
        "Middle",
        "Long",
        "Long",
    ]
    assert name("f5d6c3d3c4b3", table=table).plies == 6  # type: ignore[union-attr]


def test_the_ply_where_the_game_left_theory() -> None:
    table = small_table("opening: f5 d6 | Short | test", "opening: f5 d6 c3 d3 c4 | Middle | test")
    on_the_way = name("f5d6c3d3", table=table)  # still on the Middle's line, not yet there
    assert on_the_way is not None and (on_the_way.name, on_the_way.left_theory) == ("Short", None)
    off_early = name("f5d6c3f4", table=table)  # 4. f4 is on no line
    assert off_early is not None and (off_early.name, off_early.plies, off_early.left_theory) == ("Short", 2, 4)
    off_after = name("f5d6c3d3c4f4", table=table)
    assert off_after is not None and (off_after.name, off_after.left_theory) == ("Middle", 6)
    off_at_once = name("f5d6c5", table=table)
    assert off_at_once is not None and (off_at_once.name, off_at_once.left_theory) == ("Short", 3)
    assert name("f5f6e6", table=table) is None  # on no named line at all
    assert name("f5", table=table) is None  # in theory, but no name reached yet


def test_the_first_row_gives_the_name_of_a_line_named_twice_over_moves() -> None:
    with pytest.raises(InvalidPositionError, match="line 4: this line is already named on line 3"):
        small_table("opening: f5 d6 | One | test", "opening: f5d6 | Two | test")


def test_a_board_a_game_and_a_transcript_name_alike() -> None:
    text = "c4e3f6e6f5"  # the Tiger from 1. c4
    board = Board.from_transcript(text)
    names = {name(text), name(board), name(Game.from_board(board))}
    assert len(names) == 1
    only = names.pop()
    assert only is not None and only.name == "Tiger" and [str(m) for m in only.moves] == ["c4", "e3", "f6", "e6", "f5"]


def test_what_has_no_name() -> None:
    assert name(Board()) is None  # no move yet
    assert name(Board.from_transcript("f5d6c3d3c4", rules=Rules(goal="inverted"))) is None
    assert name(Board.from_transcript("c2b2", rules=Rules(size=6))) is None
    odd = Board(rules=Rules(start="parallel-top"))
    odd.push(next(iter(odd.legal_moves)))
    assert name(odd) is None
    custom = Board.from_transcript("f5d6c3")
    assert name(Board(custom.to_string())) is None  # its root is not a start


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="Board, a Game or a transcript"):
        name(42)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="transcript move 2"):
        name("f5f5")


def test_the_named_moves_are_in_the_games_orientation() -> None:
    opening = name("d3c5f6f5e6f3")  # 6. f3 is on no line of the table
    assert opening is not None and opening.name == "Tiger"
    assert "".join(str(m) for m in opening.moves) == "d3c5f6f5e6" and opening.line == "f5d6c3d3c4"
    assert opening.left_theory == 6
    assert "".join(square_name(s, 8) for s in next(x for x in LINES if x.name == "Tiger").squares) == opening.line


# -- a damaged table is refused, naming the file and the line -----------------------------------


def damaged(tmp_path: Path, old: str, new: str) -> Path:
    text = OPENINGS_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "openings.txt"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in row)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("f5 d6 c3 d3 c4 | Tiger", "f5 d6 c3 d3 d2 | Tiger", "cannot play d2 at move 5"),
        ("f5 d6 c3 d3 c4 | Tiger", "f5 d6 c3 d3 z9 | Tiger", "cannot read"),
        ("f5 d6 c3 d3 c4 | Tiger", "d3 c5 f6 f5 e6 | Tiger", "must begin with Black's f5"),
        ("f5 d6 c3 d3 c4 | Tiger", "f5 d6 c3 d3 c4 Tiger", "reads 'opening: MOVES | NAME | SOURCE'"),
        (
            "f5 d6 c3 d3 c4 | Tiger | egaroucid-technology",
            "f5 d6 c3 d3 c4 | Tiger | nowhere",
            "source 'nowhere' is not given",
        ),
        ("f5 d6 c3 d3 c4 | Tiger", "f5 d6 | Tiger", "already named on line"),
        ("opening: f5 d6 c3 d3 c4", "openin f5 d6 c3 d3 c4", "expected 'source: ...' or 'opening: ...'"),
    ],
)
def test_a_damaged_copy_is_refused_naming_the_file_and_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = damaged(tmp_path, old, new)
    row = line_of(path, new)
    with pytest.raises(InvalidPositionError) as caught:
        read_openings(path)
    text = str(caught.value)
    assert text.startswith(f"{path}, line {row}: "), text
    assert message in text


def test_a_table_without_its_format_line_or_file_is_refused(tmp_path: Path) -> None:
    path = damaged(tmp_path, FORMAT_LINE, "# some other file")
    with pytest.raises(InvalidPositionError, match=f"{path}: not an opening table"):
        read_openings(path)
    missing = tmp_path / "missing.txt"
    with pytest.raises(InvalidPositionError, match=f"{missing}: cannot be read"):
        read_openings(missing)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe")
    with pytest.raises(InvalidPositionError, match="is not UTF-8"):
        read_openings(binary)
    with pytest.raises(InvalidPositionError, match="names no opening"):
        parse_openings(FORMAT_LINE + "\nsource: a b\n", "empty")
