"""The shipped opening table row by row: every line is legal and unique, one position has one
name, a line is named in the mirror image from any symmetric position on it and by another
move order through the table's positions, the matcher agrees with a plain reference on games
that wander off the lines, and well-known names are found in real master games (WTHOR)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board, IllegalMoveError, InvalidPositionError, Rules
from reversi_widget.explorer.symmetry import SYMMETRIES, orient, orient_bits
from reversi_widget.move import Move
from reversi_widget.notation import format_line
from reversi_widget.openings import FORMAT_LINE, NamedLine, load_openings, name, parse_openings
from reversi_widget.squares import BLACK, square_name
from reversi_widget.wthor import WthorRecord, read_wthor
from tests.support import unavailable

LINES = load_openings().lines
WTHOR_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def images(board: Board) -> set[tuple[int, int]]:
    """The position's bitboards under all eight symmetries, computed here without the table."""
    black, white = board.bitboards()
    return {(orient_bits(black, s), orient_bits(white, s)) for s in range(SYMMETRIES)}


def played(squares: tuple[int, ...] | list[int]) -> Board:
    board = Board()
    for square in squares:
        board.push(Move(square, 8))
    return board


def stabilizer(board: Board) -> list[int]:
    """The symmetries other than the identity that map the position onto itself."""
    black, white = board.bitboards()
    return [s for s in range(1, SYMMETRIES) if (orient_bits(black, s), orient_bits(white, s)) == (black, white)]


# -- every row ------------------------------------------------------------------------------------


def test_the_table_holds_its_sourced_named_lines_each_legal_from_f5() -> None:
    # every row the cited descriptions support so far: 17 lines, 15 names (two orders of the
    # Tiger, two orientations of the Sailboat)
    assert len(LINES) >= 17 and len({line.name for line in LINES}) >= 15
    for line in LINES:
        board = Board()
        for ply, square in enumerate(line.squares, 1):
            move = Move(square, 8)
            assert move in board.legal_moves, f"{line.name}: {line.moves} cannot play {move} at move {ply}"
            board.push(move)
        assert line.moves.startswith("f5") and line.citation and line.name.strip() == line.name


def test_no_two_rows_share_moves_and_one_position_has_one_name() -> None:
    assert len({line.squares for line in LINES}) == len(LINES)
    names_of: dict[frozenset[tuple[int, int]], set[str]] = {}
    for line in LINES:
        names_of.setdefault(frozenset(images(played(line.squares))), set()).add(line.name)
    assert all(len(names) == 1 for names in names_of.values()), [n for n in names_of.values() if len(n) > 1]


def test_every_row_is_named_by_its_own_name_at_its_own_length() -> None:
    for line in LINES:
        opening = name(line.moves)
        assert opening is not None, line.moves
        assert (opening.name, opening.plies, opening.left_theory) == (line.name, len(line.squares), None)


def test_rows_that_give_one_position_two_names_are_refused_naming_both_lines() -> None:
    text = "\n".join(
        [
            FORMAT_LINE,
            "source: t a test",
            "opening: f5 f6 e6 f4 e3 | Cow | t",
            "opening: f5 f6 e6 d6 c5 | Not a cow | t",
        ]
    )
    with pytest.raises(InvalidPositionError, match=r"line 4: this line reaches the position that line 3 names 'Cow'"):
        parse_openings(text, "two names")
    same = parse_openings(text.replace("Not a cow", "Cow"), "one name, two move orders")
    assert [line.name for line in same.lines] == ["Cow", "Cow"]


# -- symmetry and transposition ------------------------------------------------------------------


def mirrored_continuations() -> Iterator[tuple[NamedLine, int, int, list[int]]]:
    """Every row continued in a mirror image from each symmetric position on it (after at
    least one move): the row, the ply, the symmetry and the line so played."""
    for line in LINES:
        board = Board()
        for ply, square in enumerate(line.squares):
            if ply:
                for symmetry in stabilizer(board):
                    image = [*line.squares[:ply], *(orient(s, symmetry) for s in line.squares[ply:])]
                    yield line, ply, symmetry, image
            board.push(Move(square, 8))


def test_a_row_continued_in_the_mirror_image_from_a_symmetric_position_keeps_its_name() -> None:
    checked: set[tuple[str, int]] = set()
    for line, ply, symmetry, image in mirrored_continuations():
        if list(line.squares) == image:
            continue  # the image of the rest is the rest itself
        opening = name("".join(square_name(s, 8) for s in image))
        assert opening is not None, (line.name, ply, symmetry)
        assert (opening.name, opening.plies, opening.left_theory) == (line.name, len(line.squares), None)
        assert images(played(image)) == images(played(line.squares))
        checked.add((line.moves, ply))
    # after 1. f5 f6 2. e6 the position is symmetric: every longer row through it was checked there
    through = {line.moves for line in LINES if line.moves.startswith("f5f6e6") and len(line.squares) > 3}
    assert through and through <= {moves for moves, ply in checked if ply == 3}
    cow = name("f5f6e6d6c5")  # as players also write it, 2... d6 for 2... f4
    assert cow is not None and (cow.name, cow.line) == ("Cow", "f5f6e6f4e3")


def test_another_move_order_through_the_tables_positions_reaches_the_name() -> None:
    """The Egaroucid explanation cited in the table: the Tiger is reached from the Cat system
    as f5 d6 c4 d3 c3, and the two orders give one position."""
    assert images(Board.from_transcript("f5d6c4d3c3")) == images(Board.from_transcript("f5d6c3d3c4"))
    tiger = name("f5d6c4d3c3")
    assert tiger is not None and (tiger.name, tiger.line, tiger.left_theory) == ("Tiger", "f5d6c3d3c4", None)
    assert "".join(str(m) for m in tiger.moves) == "f5d6c4d3c3"  # the moves as the game played them
    aubrey = name("f5d6c4d3c3b3")  # the same order, then on to the Aubrey
    assert aubrey is not None and (aubrey.name, aubrey.line) == ("Aubrey", "f5d6c3d3c4b3")


def test_the_move_orders_a_source_gives_for_one_name_reach_one_position_and_that_name() -> None:
    """The page cited for the Chimney and the Sailboat gives each in two orientations
    (F5f6E6f4E3d6 and F5f6E6d6c5f4; F5f6E6d6C5e3D3g5E2b5 and F5f6E6f4E3c5C4e7B5e2): each pair is
    one position, and both orders, in any of the four orientations of the start, are named."""
    pairs = {"Chimney": ("f5f6e6f4e3d6", "f5f6e6d6c5f4"), "Sailboat": ("f5f6e6d6c5e3d3g5e2b5", "f5f6e6f4e3c5c4e7b5e2")}
    for label, (first, second) in pairs.items():
        assert images(Board.from_transcript(first)) == images(Board.from_transcript(second))
        for transcript in (first, second):
            squares = Board.from_transcript(transcript).move_stack
            for symmetry in (0, 3, 4, 7):  # the symmetries that keep the standard start
                played_here = "".join(
                    square_name(orient(m.square, symmetry), 8) for m in squares if m.square is not None
                )
                opening = name(played_here)
                assert opening is not None, (label, played_here)
                assert (opening.name, opening.plies, opening.left_theory) == (label, len(squares), None)


@cache
def row_positions() -> list[list[set[tuple[int, int]]]]:
    """For each row, every image of its position after each ply."""
    return [[images(played(line.squares[:k])) for k in range(1, len(line.squares) + 1)] for line in LINES]


def reference(transcript: str) -> tuple[str | None, int, int | None]:
    """The name, plies and left theory of a game by a plain search over the rows' positions,
    each compared in all eight images, without the table's index."""
    on_lines = row_positions()
    board = Board()
    named: tuple[str | None, int] = (None, 0)
    moves = Board.from_transcript(transcript).move_stack
    for ply, move in enumerate(moves, 1):
        board.push(move)
        here = (board.bitboards()[0], board.bitboards()[1])
        rows = [i for i, path in enumerate(on_lines) if len(path) >= ply and here in path[ply - 1]]
        if not rows:
            return named[0], named[1], ply
        ends = [LINES[i].name for i in rows if len(on_lines[i]) == ply]
        if ends:
            named = (ends[0], ply)
    return named[0], named[1], None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LINES), st.integers(0, 3), st.integers(0, 30), st.randoms(use_true_random=False))
def test_the_matcher_agrees_with_a_plain_search(line: NamedLine, turn: int, cut: int, rng: random.Random) -> None:
    """A row in one of the four orientations of the standard start, cut short, then random
    legal moves: the name, its length and the move that left the lines are the reference's."""
    symmetry = (0, 3, 4, 7)[turn]  # the four symmetries that keep the standard start
    board = Board()
    for square in line.squares[: min(cut, len(line.squares))]:
        board.push(Move(orient(square, symmetry), 8))
    for _ in range(rng.randint(0, 6)):
        legal = sorted(board.legal_moves, key=str)
        if not legal:
            break
        board.push(rng.choice(legal))
    transcript = "".join(str(m) for m in board.move_stack)
    if not transcript:
        return
    expected = reference(transcript)
    opening = name(transcript)
    got = (None, 0, None) if opening is None else (opening.name, opening.plies, opening.left_theory)
    if opening is None:
        assert expected[0] is None
    else:
        assert got == expected


def test_a_game_from_the_mirrored_start_follows_the_mirrored_table() -> None:
    black, white = Board().bitboards()
    mirrored = format_line(8, orient_bits(black, 1), orient_bits(white, 1), BLACK, None)
    for line in LINES:
        board = Board(rules=Rules(start=mirrored))
        for square in line.squares:
            board.push(Move(orient(square, 1), 8))
        opening = name(board)
        assert opening is not None and opening.name == line.name


# -- real games -------------------------------------------------------------------------------


def master_games() -> Iterator[WthorRecord]:
    """The games of the 2004 WTHOR file, read as they are needed."""
    path = WTHOR_DIR / "WTH_2004.wtb"
    if not path.is_file():
        unavailable(f"the WTHOR master games are missing: expected {path} (the shared folder beside the checkout)")
    return read_wthor(path)


def test_well_known_names_are_found_in_master_games_at_the_right_position() -> None:
    """In the 2004 WTHOR file, each of these names is given to some game, and where it is, the
    game's position after the named plies is the row's own position (checked here by replaying
    both), and the move that left the table is on no row."""
    on_rows: dict[int, set[tuple[int, int]]] = {ply: set() for ply in range(1, 61)}  # every row's images by ply
    for path in row_positions():
        for ply, here in enumerate(path, 1):
            on_rows[ply] |= here
    wanted = {"Tiger", "Cat", "Rabbit", "Cow", "Snake", "Aubrey", "Chimney", "Sailboat", "Nezumi (Mouse)"}
    found: dict[str, str] = {}
    for record in master_games():
        if len(found) == len(wanted):
            break
        transcript = "".join(record.moves[:30])
        try:
            opening = name(transcript)
        except IllegalMoveError:  # a pass in the first 30 moves, which WTHOR leaves out
            continue
        if opening is None or opening.name not in wanted or opening.name in found:
            continue
        row = next(line for line in LINES if line.moves == opening.line)
        game = Board.from_transcript(transcript[: 2 * opening.plies])
        assert images(game) == images(played(row.squares)), (record.black_player, record.white_player, transcript)
        assert "".join(str(m) for m in opening.moves) == transcript[: 2 * opening.plies]
        if opening.left_theory is not None:
            off = Board.from_transcript(transcript[: 2 * opening.left_theory])
            assert images(off).isdisjoint(on_rows[opening.left_theory])
        found[opening.name] = f"{record.black_player} - {record.white_player}"
    assert set(found) == wanted, wanted - set(found)
