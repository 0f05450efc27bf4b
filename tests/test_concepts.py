"""The strategy concepts (``reversi_widget.concepts``): positions worked out by hand, each
concept against a square-by-square definition on random games of every size, stable discs
against every continuation of the game on small boards, and bad input."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import BLACK, WHITE, Board, Color, Rules, concepts, native, parse_square, square_name
from reversi_widget.concepts import Region
from reversi_widget.geometry import DIRECTIONS, squares_of
from tests.native_support import random_positions, require_compiled
from tests.support import play_random

SquareConcept = Callable[[Board, Color], frozenset[str]]
BoardConcept = Callable[[Board], object]
COLOR_CONCEPTS: list[SquareConcept] = [
    concepts.mobility,
    concepts.potential_mobility,
    concepts.frontier,
    concepts.stable,
]
BOARD_CONCEPTS: list[BoardConcept] = [concepts.regions, concepts.corners, concepts.x_squares, concepts.c_squares]
STARTS = ["standard", "mirrored", "parallel-top", "parallel-bottom", "parallel-left", "parallel-right"]


def position(rows: list[str], turn: str = "X") -> Board:
    """A board from its rows, a1's row first (``X`` black, ``O`` white, ``-`` empty)."""
    return Board("".join(rows) + " " + turn)


def names(*squares: str) -> frozenset[str]:
    return frozenset(squares)


# -- positions worked out by hand ------------------------------------------------------


def test_the_8x8_start() -> None:
    board = Board()
    assert concepts.mobility(board, BLACK) == names("d3", "c4", "f5", "e6")
    assert concepts.mobility(board, WHITE) == names("e3", "f4", "c5", "d6")  # not to move: its moves all the same
    # White has d4 and e5: the empty squares around them.
    assert concepts.potential_mobility(board, BLACK) == names(
        "c3", "d3", "e3", "c4", "c5", "f4", "f5", "d6", "e6", "f6"
    )
    assert concepts.frontier(board, BLACK) == names("e4", "d5")
    assert concepts.frontier(board, WHITE) == names("d4", "e5")
    assert concepts.stable(board, BLACK) == concepts.stable(board, WHITE) == frozenset()
    [region] = concepts.regions(board)
    assert len(region.squares) == 60 and not region.odd
    assert concepts.corners(board) == names("a1", "h1", "a8", "h8")
    assert concepts.x_squares(board) == names("b2", "g2", "b7", "g7")
    assert concepts.c_squares(board) == names("b1", "a2", "g1", "h2", "a7", "b8", "g8", "h7")


def test_a_corner_anchors_its_neighbours_on_8x8() -> None:
    """a1 is a corner; b1, c1 lean on it along the edge, a2 and a3 down the a-file, and b2 on
    each line has a1, a2, b1 or c1 beside it. White's d1 lies between c1 and the empty e1,
    where Black can take it, and Black's h3 on the edge has empty squares above and below."""
    board = position(
        [
            "XXXO----",
            "XX------",
            "X------X",
            "---OX---",
            "---XO---",
            "--------",
            "--------",
            "--------",
        ]
    )
    assert concepts.stable(board, BLACK) == names("a1", "b1", "c1", "a2", "b2", "a3")
    assert concepts.stable(board, WHITE) == frozenset()
    assert "e1" in concepts.mobility(board, BLACK)  # and e1 flips d1: it was not stable


def test_an_edge_disc_without_a_corner_is_not_stable() -> None:
    """c1 on the top edge cannot flip up or down, but b1 and d1 are empty: White can flank it
    as soon as a white disc stands on one side (here d1 is white, so b1 takes it)."""
    board = position(["--XO----", "--X-----", *["--------"] * 6], turn="O")
    assert concepts.stable(board, BLACK) == frozenset()
    assert concepts.mobility(board, WHITE) == names("b1", "b3")  # b1 flanks c1; b3 flanks c2 towards d1


def test_a_6x6_ending_worked_out_by_hand() -> None:
    """Four empty squares: f2, f3 (one region) and a6, b6 (another).

    Black: the first row and the a-file lean on a1 and f1; b2 has a2, b1, a1 and c1 beside it;
    e5's four lines are all full. c3 has White on both sides of its row, which is open at f3.
    White: f6 is a corner, f5 and f4 lean on it up the f-file, e6, d6, c6 along the sixth row;
    d5's anti-diagonal (f3 e4 d5 c6) is open at f3 but c6 is stable beside it, and then e4
    leans on d5 (its other lines are full). The row-2 and row-3 whites and the b-file are open."""
    board = position(["XXXXXX", "XXOOO-", "XOXOO-", "XOOXOO", "XOOOXO", "--OOOO"])
    first_row = ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert concepts.stable(board, BLACK) == names(*first_row, "a2", "a3", "a4", "a5", "b2", "e5")
    assert concepts.stable(board, WHITE) == names("f6", "f5", "f4", "e6", "d6", "c6", "d5", "e4")
    # f2 and f3 flank along rows 2 and 3, b6 up the b-file, a6 along the diagonal to f1.
    assert concepts.mobility(board, BLACK) == names("f2", "f3", "a6", "b6")
    assert concepts.mobility(board, WHITE) == frozenset()  # every line from an empty square ends at an edge
    assert concepts.potential_mobility(board, BLACK) == names("f2", "f3", "a6", "b6")
    assert concepts.potential_mobility(board, WHITE) == names("f2", "a6", "b6")  # f3 touches no black disc
    assert concepts.frontier(board, BLACK) == names("e1", "f1", "a5")
    assert concepts.frontier(board, WHITE) == names("e2", "e3", "e4", "f4", "b5", "c5", "c6")
    assert concepts.regions(board) == [Region(names("f2", "f3"), False), Region(names("a6", "b6"), False)]
    assert concepts.corners(board) == names("a1", "f1", "a6", "f6")
    assert concepts.x_squares(board) == names("b2", "e2", "b5", "e5")
    assert concepts.c_squares(board) == names("b1", "a2", "e1", "f2", "a5", "b6", "e6", "f5")


def test_regions_join_diagonal_neighbours() -> None:
    """a1 and b2 touch only at a corner: one region of two (8-connectivity), where 4-connectivity
    would make two odd regions. d4 and e5 likewise; h8 is a region of one."""
    rows = ["-XXXXXXX", "X-XXXXXX", "XXXXXXXX", "XXX-XXXX", "XXXO-XXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXX-"]
    board = position(rows, turn="O")
    assert concepts.regions(board) == [
        Region(names("a1", "b2"), False),
        Region(names("d4", "e5"), False),
        Region(names("h8"), True),
    ]


def test_the_special_squares_of_4x4_and_16x16() -> None:
    small = Board(rules=Rules(size=4))
    assert concepts.x_squares(small) == names("b2", "c2", "b3", "c3")  # the centre itself
    assert concepts.c_squares(small) == names("b1", "c1", "a2", "d2", "a3", "d3", "b4", "c4")
    big = Board(rules=Rules(size=16))
    assert concepts.corners(big) == names("a1", "p1", "a16", "p16")
    assert concepts.x_squares(big) == names("b2", "o2", "b15", "o15")
    assert concepts.c_squares(big) == names("b1", "a2", "o1", "p2", "a15", "b16", "o16", "p15")


def test_the_free_start_offers_the_open_centre_to_both() -> None:
    board = Board(rules=Rules(size=6, start="free"))
    board.push("c3")
    assert concepts.mobility(board, WHITE) == concepts.mobility(board, BLACK) == names("d3", "c4", "d4")


def test_a_full_board_is_all_stable() -> None:
    rng = random.Random(25)
    for size in (4, 6, 8, 10):
        colours = [rng.choice("XO") for _ in range(size * size)]
        board = Board("".join(colours) + " X", rules=Rules(size=size))
        for color, mark in ((BLACK, "X"), (WHITE, "O")):
            owned = {square_name(sq, size) for sq, c in enumerate(colours) if c == mark}
            assert concepts.stable(board, color) == owned
            assert concepts.frontier(board, color) == concepts.mobility(board, color) == frozenset()
        assert concepts.regions(board) == []


# -- against square-by-square definitions, on random games of every size ----------------


@st.composite
def games(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 6, 8, 10, 12, 16)) -> Board:
    """A board after random legal moves (passes included) under random rules."""
    size = draw(st.sampled_from(sizes))
    rules = Rules(
        size=size,
        start=draw(st.sampled_from([*STARTS, "free"])),
        goal=draw(st.sampled_from(["classic", "inverted"])),
        supply=draw(st.sampled_from([None, size * size // 2])),
    )
    board = Board(rules=rules)
    return play_random(board, draw(st.randoms(use_true_random=False)), draw(st.integers(0, size * size)))


def neighbours(board: Board, sq: int) -> list[int]:
    n = board.size
    row, col = divmod(sq, n)
    return [(row + dr) * n + col + dc for dc, dr in DIRECTIONS.values() if 0 <= row + dr < n and 0 <= col + dc < n]


def flanks(board: Board, color: Color, sq: int) -> bool:
    """Whether a ``color`` disc on ``sq`` would flank something: the rule walked square by square."""
    n = board.size
    for dc, dr in DIRECTIONS.values():
        row, col = divmod(sq, n)
        row, col, run = row + dr, col + dc, 0
        while 0 <= row < n and 0 <= col < n and board.disc_at(row * n + col) == (not color):
            row, col, run = row + dr, col + dc, run + 1
        if run and 0 <= row < n and 0 <= col < n and board.disc_at(row * n + col) == color:
            return True
    return False


def named(board: Board, squares: list[int]) -> frozenset[str]:
    return frozenset(square_name(sq, board.size) for sq in squares)


@settings(max_examples=60, deadline=None)
@given(games())
def test_mobility_frontier_and_potential_mobility_match_their_definitions(board: Board) -> None:
    every = range(board.size**2)
    empty = [sq for sq in every if board.disc_at(sq) is None]
    for color in (BLACK, WHITE):
        touching = [sq for sq in empty if any(board.disc_at(s) == (not color) for s in neighbours(board, sq))]
        assert concepts.potential_mobility(board, color) == named(board, touching)
        exposed = [sq for sq in every if board.disc_at(sq) == color and set(neighbours(board, sq)) & set(empty)]
        assert concepts.frontier(board, color) == named(board, exposed)
        if not board.in_placement():
            assert concepts.mobility(board, color) == named(board, [sq for sq in empty if flanks(board, color, sq)])
    assert concepts.mobility(board, board.turn) == frozenset(str(move) for move in board.legal_moves)


@settings(max_examples=60, deadline=None)
@given(games())
def test_regions_split_the_empty_squares_into_touching_groups(board: Board) -> None:
    found = concepts.regions(board)
    squares = [parse_square_set(board, region.squares) for region in found]
    empty = {sq for sq in range(board.size**2) if board.disc_at(sq) is None}
    assert set().union(*squares) == empty and sum(map(len, squares)) == len(empty)
    for region, group in zip(found, squares, strict=True):
        assert region.odd == (len(group) % 2 == 1)
        reached = {min(group)}  # connected: a walk from one square reaches them all
        frontier = list(reached)
        while frontier:
            step = {s for sq in frontier for s in neighbours(board, sq) if s in group} - reached
            reached |= step
            frontier = list(step)
        assert reached == group
    for one, other in itertools.pairwise(squares):  # in board order, and never touching
        assert min(one) < min(other)
    for i, one in enumerate(squares):
        for other in squares[i + 1 :]:
            assert not {s for sq in one for s in neighbours(board, sq)} & other


def parse_square_set(board: Board, squares: frozenset[str]) -> set[int]:
    return {parse_square(name, board.size) for name in squares}


@settings(max_examples=40, deadline=None)
@given(games(sizes=(4, 6, 8, 10)), st.randoms(use_true_random=False))
def test_stable_discs_stay_stable_to_the_end(board: Board, rng: random.Random) -> None:
    """Along a random game, a stable disc keeps its colour and stays stable, an owned corner
    is always stable, and at a full board's end every disc is."""
    corners = concepts.corners(board)
    before = {color: concepts.stable(board, color) for color in (BLACK, WHITE)}
    while not board.is_game_over():
        play_random(board, rng, board.ply + 1)
        for color in (BLACK, WHITE):
            now = concepts.stable(board, color)
            mine = {square_name(sq, board.size) for sq in range(board.size**2) if board.disc_at(sq) == color}
            assert before[color] <= now <= mine
            assert {name for name in corners if name in mine} <= now
            before[color] = now
    if not board.empty_count():
        assert len(before[BLACK]) + len(before[WHITE]) == board.size**2


# -- stable discs against every continuation -------------------------------------------


class Continuations:
    """Every position reachable from the boards given to ``explore``, each with the squares
    whose disc changes colour in at least one continuation from it (every legal move of either
    side, passes included), and the discs ``concepts.stable`` calls stable there."""

    def __init__(self) -> None:
        self.flipped: dict[tuple[int, int, bool], int] = {}
        self.stable: dict[tuple[int, int, bool], int] = {}

    def explore(self, board: Board) -> int:
        """The squares flipped in some continuation of ``board`` (played out and taken back)."""
        key = (*board.bitboards(), board.turn)
        if key in self.flipped:
            return self.flipped[key]
        self.stable[key] = bits_of(board, concepts.stable(board, BLACK) | concepts.stable(board, WHITE))
        flipped = 0
        if board.must_pass():
            board.push_pass()
            flipped = self.explore(board)
            board.pop()
        for move in list(board.legal_moves):
            flips = sum(1 << sq for sq in board.flips(move))
            board.push(move)
            flipped |= flips | self.explore(board)
            board.pop()
        self.flipped[key] = flipped
        return flipped

    def check(self) -> tuple[int, int]:
        """No disc called stable flips in any continuation. Returns (discs called stable, discs
        that never flip), summed over every position."""
        called = never = 0
        for key, flipped in self.flipped.items():
            stable = self.stable[key]
            assert not stable & flipped, f"{key}: stable discs {squares_of(stable & flipped)} flip"
            called += stable.bit_count()
            never += ((key[0] | key[1]) & ~flipped).bit_count()
        return called, never


def bits_of(board: Board, squares: frozenset[str]) -> int:
    bit = bit_of(board.size)
    return sum(bit[name] for name in squares)


@cache
def bit_of(size: int) -> dict[str, int]:
    """Each square's name and bit: a look-up, for the hundreds of thousands of positions."""
    return {square_name(sq, size): 1 << sq for sq in range(size * size)}


def test_stable_discs_on_4x4_never_flip_in_any_game() -> None:
    """Every position of every 4x4 game, and every continuation of each. The standard and
    parallel starts are enough: the other four are their mirror images, and a mirror image
    flips and is stable exactly where the original is."""
    every = Continuations()
    for start in ("standard", "parallel-top"):
        every.explore(Board(rules=Rules(size=4, start=start)))
    called, never = every.check()
    assert len(every.flipped) > 90_000
    # Not trivially empty: of the discs that no continuation flips, 93% are found.
    assert called >= never * 9 // 10 > 0


def ending(board: Board, rng: random.Random, empties: int) -> Board:
    """``board`` played on at random down to ``empties`` empty squares (or to the end)."""
    while board.empty_count() > empties and not board.is_game_over():
        play_random(board, rng, board.ply + 1)
    return board


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 8), st.sampled_from(STARTS))
def test_stable_discs_on_6x6_endings_never_flip(rng: random.Random, empties: int, start: str) -> None:
    """Random 6x6 games played down to a few empty squares, then every continuation."""
    every = Continuations()
    every.explore(ending(Board(rules=Rules(size=6, start=start)), rng, empties))
    every.check()


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 6))
def test_stable_discs_on_8x8_endings_never_flip(rng: random.Random, empties: int) -> None:
    every = Continuations()
    every.explore(ending(Board(), rng, empties))
    every.check()


def test_stable_discs_are_the_compiled_solvers() -> None:
    """The same definition as ``native.endgame.stable``, on every position of random games."""
    require_compiled("endgame")
    from reversi_widget.native import endgame

    for size in native.SIZES:
        for board in random_positions(size, games=5, seed=size):
            black, white = board.bitboards()
            for color, own in ((BLACK, black), (WHITE, white)):
                assert bits_of(board, concepts.stable(board, color)) == endgame.stable(size, own, black | white)


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize("concept", [*COLOR_CONCEPTS, *BOARD_CONCEPTS], ids=lambda f: f.__name__)
@pytest.mark.parametrize("thing", [None, Board().to_string(), Rules(), 64])
def test_a_non_board_is_refused(concept: Callable[..., object], thing: object) -> None:
    args = (thing, BLACK) if concept in COLOR_CONCEPTS else (thing,)
    with pytest.raises(TypeError, match="board must be a Board"):
        concept(*args)


@pytest.mark.parametrize("concept", COLOR_CONCEPTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("color", ["black", 1, 0, None, "X"])
def test_a_bad_colour_is_refused_and_changes_nothing(concept: SquareConcept, color: object) -> None:
    board = Board.from_transcript("f5d6c3")
    before = board.to_string(), list(board.move_stack)
    with pytest.raises(ValueError, match="color must be BLACK or WHITE"):
        concept(board, color)  # type: ignore[arg-type]
    assert (board.to_string(), list(board.move_stack)) == before


def test_the_concepts_change_nothing() -> None:
    board = Board.from_transcript("f5d6c3d3c4")
    before = board.to_string(), list(board.move_stack), list(board.legal_moves)
    for concept in COLOR_CONCEPTS:
        concept(board, WHITE)
    for other in BOARD_CONCEPTS:
        other(board)
    assert (board.to_string(), list(board.move_stack), list(board.legal_moves)) == before
