"""One test (at least) per rule of RULES.md, named after it, using the seeds' own examples."""

import pytest

from reversi_widget import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Rules,
    Termination,
    parse_square,
    square_name,
)


def row_board(row: str, turn: str = "X", size: int = 8) -> Board:
    """A board whose first row is ``row`` (padded with empties) and the rest empty."""
    cells = row.ljust(size, "-") + "-" * (size * size - size)
    return Board.from_string(f"{cells} {turn}")


def names(squares: list[int], size: int = 8) -> set[str]:
    return {square_name(sq, size) for sq in squares}


def test_r1_two_colours_and_black_is_also_dark() -> None:
    board = Board()
    assert board.count(BLACK) == 2 and board.count(WHITE) == 2
    assert BLACK is not WHITE and (not BLACK) == WHITE


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14, 16])
def test_r2_other_even_sizes_start_in_the_centre(size: int) -> None:
    board = Board(rules=Rules(size=size))
    mid = size // 2
    assert board.disc_at((mid - 1) * size + mid - 1) == WHITE
    assert board.disc_at((mid - 1) * size + mid) == BLACK
    assert len(board.legal_moves) == 4


@pytest.mark.parametrize("size", [3, 5, 7, 18, 2, 0])
def test_r2_odd_or_out_of_range_sizes_are_refused(size: int) -> None:
    with pytest.raises(InvalidPositionError, match=str(size)):
        Rules(size=size)


def test_r3_placed_disc_never_moves_only_flips() -> None:
    board = Board()
    board.push("d3")  # black on d3
    d3 = parse_square("d3")
    for move in ["c3", "c4", "c5"]:
        if move in board.legal_moves:
            board.push(move)
        else:
            board.push(next(iter(board.legal_moves)))
        assert board.disc_at(d3) is not None  # the disc stays on its square, whatever its colour


def test_r4_supply_counts_down_and_borrows_when_empty() -> None:
    board = Board(rules=Rules(supply=32))
    assert board.supply == (30, 30)  # each player put two of 32 on the board
    board.push("d3")
    assert board.supply == (29, 30)
    # A black player out of discs with a legal move borrows one from White (R4).
    cells = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
    borrowed = Board(f"{cells} X 0 60", rules=Rules(supply=32))
    borrowed.push("d3")
    assert borrowed.supply == (0, 59)
    borrowed.pop()
    assert borrowed.supply == (0, 60)
    assert "supply: black 30, white 30" in str(Board(rules=Rules(supply=32)))


def test_r4_supply_too_small_for_the_board_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="cannot cover"):
        Rules(supply=31)


def test_r5_standard_start() -> None:
    board = Board()
    assert [board.disc_at(s) for s in ("d4", "e4", "d5", "e5")] == [WHITE, BLACK, BLACK, WHITE]
    assert board.turn == BLACK
    # It looks the same from both sides of the board (180-degree rotation swaps nothing).
    black, white = board.bitboards()

    def rotate(bits: int) -> int:
        return sum(1 << (63 - sq) for sq in range(64) if bits >> sq & 1)

    assert rotate(black) == black and rotate(white) == white


def test_r6_mirrored_start_plays_the_same() -> None:
    board = Board(rules=Rules(start="mirrored"))
    assert [board.disc_at(s) for s in ("d4", "e4", "d5", "e5")] == [BLACK, WHITE, WHITE, BLACK]
    # Mirroring the board left to right maps the games one to one.
    assert sorted(str(m) for m in board.legal_moves) == ["c5", "d6", "e3", "f4"]
    from reversi_widget import perft

    assert perft(board, 5) == perft(Board(), 5)


@pytest.mark.parametrize("start", ["parallel-top", "parallel-bottom", "parallel-left", "parallel-right"])
def test_r7_other_start_layouts(start: str) -> None:
    board = Board(rules=Rules(start=start))
    assert board.count(BLACK) == 2 and board.count(WHITE) == 2
    assert len(board.legal_moves) > 0


def test_r7_custom_start_position() -> None:
    custom = "-" * 18 + "XO" + "-" * 6 + "OX" + "-" * 36 + " O"
    board = Board(rules=Rules(start=custom))
    assert board.turn == WHITE and board.to_string() == custom


def test_r7_bad_start_is_refused() -> None:
    with pytest.raises(InvalidPositionError):
        Rules(start="sideways")


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"size": 4, "start": "-" * 16 + " X 8 8"}, "gives disc supplies but the rules have no supply"),
        ({"size": 4, "start": "-" * 16 + " X 3 4", "supply": 8}, "supplies 3 \\+ 4 cannot cover the 16 empty squares"),
        ({"size": 4, "start": "-" * 64 + " X"}, "64 squares; a 4x4 board needs 16"),
    ],
)
def test_r7_a_custom_start_no_board_can_use_is_refused_by_the_rules(rules: dict[str, object], words: str) -> None:
    """Refused when the ``Rules`` value is made, not later by the first ``Board`` of it."""
    with pytest.raises(InvalidPositionError, match=words):
        Rules(**rules)  # type: ignore[arg-type]
    # The same start with rules that fit is a board.
    fitting = Rules(size=4, start="-" * 16 + " X 8 8", supply=8)
    assert Board(rules=fitting).supply == (8, 8)


def test_r8_free_start_places_four_centre_discs_flipping_nothing() -> None:
    board = Board(rules=Rules(start="free"))
    assert board.count(BLACK) == board.count(WHITE) == 0
    assert sorted(str(m) for m in board.legal_moves) == ["d4", "d5", "e4", "e5"]
    with pytest.raises(IllegalMoveError, match="centre"):
        board.push("c3")
    for square in ["d4", "e4", "d5", "e5"]:  # same colours side by side in the end
        assert board.flips(square) == []
        board.push(square)
    assert [board.disc_at(s) for s in ("d4", "e4", "d5", "e5")] == [BLACK, WHITE, BLACK, WHITE]
    assert board.turn == BLACK and not board.in_placement()
    assert board.legal_moves  # now the normal rules apply


def test_r9_black_moves_first() -> None:
    for start in ["standard", "mirrored", "free", "parallel-left"]:
        assert Board(rules=Rules(start=start)).turn == BLACK


def test_r10_legal_moves_of_the_start() -> None:
    assert sorted(str(m) for m in Board().legal_moves) == ["c4", "d3", "e6", "f5"]


def test_r11_black_white_white_empty() -> None:
    board = row_board("XOO-")
    assert "d1" in board.legal_moves
    assert names(board.flips("d1")) == {"b1", "c1"}
    board.push("d1")
    assert board.to_string().startswith("XXXX----")


def test_r12_a_move_that_flanks_nothing_is_illegal() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="flanks no opponent disc"):
        board.push("a1")
    assert board == Board()


def test_r13_one_move_flips_in_all_eight_directions() -> None:
    # A black ring two squares out, white discs between it and the centre d4.
    rows = [
        "-X-X-X--",
        "--OOO---",
        "-XO-OX--",
        "--OOO---",
        "-X-X-X--",
        "--------",
        "--------",
        "--------",
    ]
    board = Board.from_string("".join(rows) + " X")
    assert names(board.flips("d3")) == {"c2", "d2", "e2", "c3", "e3", "c4", "d4", "e4"}


def test_r14_every_flanked_disc_flips() -> None:
    board = row_board("XOOOOOO-")
    board.push("h1")
    assert board.count(WHITE) == 0 and board.count(BLACK) == 8


def test_r15_no_chain_reaction() -> None:
    # Black plays a1; b1 flips. The flipped b1 would flank b2 against b3, but it may not.
    rows = ["-OX-----", "-O------", "-X------"] + ["--------"] * 5
    board = Board.from_string("".join(rows) + " X")
    assert names(board.flips("a1")) == {"b1"}


def test_r16_no_jumping_over_an_own_disc() -> None:
    board = row_board("-XOX")  # black a1 cannot flank c1 past its own b1
    with pytest.raises(IllegalMoveError):
        board.push("a1")
    assert names(row_board("OXO-", "X").flips("d1")) == {"c1"}


def test_r17_a_wrong_flip_can_be_taken_back_before_the_opponent_moves() -> None:
    # The engine never flips wrongly; what R17 needs from it is an exact take-back.
    board = Board.from_transcript("f5d6c3")
    before = board.to_string()
    board.push("d3")
    board.pop()
    assert board.to_string() == before


def test_r18_forced_pass_and_the_opponent_moves_again() -> None:
    # White has nothing to flank; Black does.
    board = Board.from_string("XO------" + "-" * 56 + " O")
    assert not board.legal_moves and board.must_pass() and not board.is_game_over()
    board.push_pass()
    assert board.turn == BLACK and str(board.peek()) == "pass"


def test_r19_a_voluntary_pass_is_refused() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="may not pass"):
        board.push_pass()
    assert board == Board() and board.move_stack == []


def test_r20_game_ends_with_empties_nobody_can_take() -> None:
    # 4x4: black a1 b1, white d1; c1 and the rest flank nothing for either side.
    board = Board.from_string("XX-O" + "-" * 12 + " X")
    assert not board.legal_moves and not board.must_pass() and board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == Termination.NO_MOVES and outcome.winner == BLACK
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push_pass()
    assert board.empty_count() == 13


def test_r20_wipe_out_ends_the_game_at_once() -> None:
    board = row_board("XO-")
    board.push("c1")
    assert board.count(WHITE) == 0 and board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == Termination.WIPE_OUT and outcome.winner == BLACK


def test_r20_full_board() -> None:
    board = Board.from_string("X" * 33 + "O" * 31 + " X")
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == Termination.FULL_BOARD


def test_r21_classic_and_inverted_goals() -> None:
    cells = "X" * 33 + "O" * 31
    classic = Board.from_string(f"{cells} X").outcome()
    inverted = Board(f"{cells} X", rules=Rules(goal="inverted")).outcome()
    assert classic is not None and classic.winner == BLACK
    assert inverted is not None and inverted.winner == WHITE


def test_r22_draw_32_32_in_both_goals() -> None:
    for goal in ("classic", "inverted"):
        outcome = Board("X" * 32 + "O" * 32 + " X", rules=Rules(goal=goal)).outcome()
        assert outcome is not None and outcome.winner is None and outcome.result() == "32-32"


def corners_empty_position(whites: int) -> str:
    """Black everywhere except the empty a1 and h8 and ``whites`` white discs placed off every
    line through a1 or h8, so that neither corner can be taken: the game is over."""
    on_corner_lines = {sq for sq in range(64) if sq // 8 in (0, 7) or sq % 8 in (0, 7) or sq % 9 == 0}
    cells = ["X"] * 64
    cells[0] = cells[63] = "-"
    for sq in [sq for sq in range(64) if sq not in on_corner_lines][:whites]:
        cells[sq] = "O"
    return "".join(cells) + " X"


def test_r23_tournament_scoring_33_29_with_2_empty_is_35_29() -> None:
    position = corners_empty_position(29)
    board = Board(position, rules=Rules(scoring="tournament"))
    assert board.count(BLACK) == 33 and board.count(WHITE) == 29 and board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == BLACK and outcome.result() == "35-29"
    counted = Board(position).outcome()
    assert counted is not None and counted.result() == "33-29"


def test_r23_a_draw_stays_a_draw_under_tournament_scoring() -> None:
    # 4x4, 7 black, 7 white, g2 and c4 empty and out of reach of both sides.
    board = Board("OOOOXX-OXXOOXX-X X", rules=Rules(size=4, scoring="tournament"))
    assert board.count(BLACK) == board.count(WHITE) == 7
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None and outcome.result() == "7-7"


def test_r23_inverted_tournament_gives_empties_to_the_loser() -> None:
    position = corners_empty_position(29)
    outcome = Board(position, rules=Rules(goal="inverted", scoring="tournament")).outcome()
    assert outcome is not None and outcome.winner == WHITE and outcome.result() == "35-29"


def test_r24_a_click_is_a_square_name() -> None:
    board = Board()
    board.push(Move.from_name("D3"))
    assert str(board.peek()) == "d3"
