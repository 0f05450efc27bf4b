"""The scripting API: names, text forms, and refusals that leave the board untouched."""

import pytest

import reversi_widget as rw
from reversi_widget import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Rules,
    parse_square,
    square_name,
)
from reversi_widget.squares import D3, H8, SQUARE_NAMES


def test_square_names_and_constants() -> None:
    assert parse_square("a1") == 0 and parse_square("h8") == H8 == 63
    assert square_name(D3) == "d3" and SQUARE_NAMES[19] == "d3"
    assert parse_square("j10", 10) == 99 and square_name(255, 16) == "p16"
    assert parse_square(" D3 ") == D3


@pytest.mark.parametrize(("text", "size"), [("i1", 8), ("a9", 8), ("a0", 8), ("z3", 8), ("d", 8), ("", 8), ("k1", 10)])
def test_bad_square_names_are_refused_with_the_input_quoted(text: str, size: int) -> None:
    with pytest.raises(InvalidMoveError, match=repr(text).replace("'", "'?")):
        parse_square(text, size)


def test_square_name_off_the_board() -> None:
    with pytest.raises(InvalidMoveError, match="64"):
        square_name(64)


def test_move_value_type() -> None:
    move = Move.from_name("d3")
    assert str(move) == "d3" and move and move == Move(D3)
    assert eval(repr(move), {"Move": Move}) == move
    assert not Move.null() and str(Move.null()) == "pass" and Move.from_name("pass") == Move.null()
    big = Move.from_name("j10", 10)
    assert eval(repr(big), {"Move": Move}) == big


def test_legal_moves_container() -> None:
    moves = Board().legal_moves
    assert len(moves) == moves.count() == 4 and bool(moves)
    assert "d3" in moves and Move.from_name("f5") in moves
    assert "a1" not in moves and "zz" not in moves and 19 not in moves and Move.null() not in moves
    assert Move(19, 10) not in moves
    assert "d3" in repr(moves)


def test_legal_moves_is_a_live_view_of_the_board() -> None:
    board = Board()
    moves = board.legal_moves
    assert [str(m) for m in moves] == ["d3", "c4", "f5", "e6"]
    board.push("d3")
    assert [str(m) for m in moves] == ["c3", "e3", "c5"] and "d3" not in moves
    board.pop()
    assert len(moves) == 4 and "d3" in moves
    board.set_position(Board.from_transcript("f5d6c3d3c4").to_string())
    assert moves and set(moves) == set(Board.from_transcript("f5d6c3d3c4").legal_moves)
    on_16 = Board(rules=Rules(size=16))  # masks of more than one byte per row
    assert [str(m) for m in on_16.legal_moves] == ["h7", "g8", "j9", "i10"]


def test_a_reader_racing_a_push_cannot_leave_a_wrong_answer_behind() -> None:
    """A thread that worked out the moves of the position before a push, and stores them
    after it, must not make the board answer with them for the new position."""
    board = Board()
    black, white, turn = board._black, board._white, board.turn
    before = board.geometry.moves(black, white)  # what the slow reader computed...
    board.push("d3")
    board._legal = (black, white, turn, before)  # ...and stored after the push
    assert [str(m) for m in board.legal_moves] == ["c3", "e3", "c5"]


def test_push_accepts_names_and_moves_and_checks_legality() -> None:
    board = Board()
    board.push("f5")
    board.push(Move.from_name("d6"))
    assert board.transcript() == "f5d6" and board.ply == 2 and str(board.peek()) == "d6"
    assert board.pop() == Move.from_name("d6") and board.transcript() == "f5"


@pytest.mark.parametrize(
    ("move", "error", "words"),
    [
        ("a1", IllegalMoveError, "flanks no opponent disc"),
        ("d4", IllegalMoveError, "occupied"),
        ("q1", InvalidMoveError, "'q1'"),
        ("d33", InvalidMoveError, "'d33'"),
        (19, InvalidMoveError, "19"),
        (None, InvalidMoveError, "None"),
        (Move(19, 6), InvalidMoveError, "6x6"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(move: object, error: type, words: str) -> None:
    board = Board.from_transcript("f5")
    before = (board.to_string(), list(board.move_stack))
    with pytest.raises(error, match=words):
        board.push(move)  # type: ignore[arg-type]
    assert (board.to_string(), list(board.move_stack)) == before


def test_parse_move_reads_names_and_moves_without_playing_them() -> None:
    board = Board.from_transcript("f5")
    assert board.parse_move("d3") == Move(D3) and board.parse_move(" PASS ") == Move.null()
    assert board.parse_move(Move(D3)) == Move(D3)
    assert board.parse_move("a1") == Move(0)  # the form only: a1 is illegal here but a square
    assert board.transcript() == "f5"
    with pytest.raises(InvalidMoveError, match="6x6"):
        board.parse_move(Move(19, 6))


def test_sides_are_the_mover_first() -> None:
    board = Board()
    black, white = board.bitboards()
    assert board.sides() == (black, white)
    board.push("f5")
    black, white = board.bitboards()
    assert board.sides() == (white, black)


def test_every_error_is_a_value_error() -> None:
    for error in (InvalidMoveError, IllegalMoveError, InvalidPositionError):
        assert issubclass(error, ValueError) and issubclass(error, rw.ReversiError)


def test_pop_on_an_empty_stack() -> None:
    with pytest.raises(IndexError):
        Board().pop()
    with pytest.raises(IndexError):
        Board().peek()


def test_outcome_is_none_while_the_game_runs() -> None:
    assert Board().outcome() is None and not Board().is_game_over()


def test_copy_is_independent() -> None:
    board = Board.from_transcript("f5d6")
    copy = board.copy()
    copy.push("c3")
    assert board.transcript() == "f5d6" and copy.transcript() == "f5d6c3"
    assert board.copy(stack=False).move_stack == []
    assert board.root() == Board()


def test_to_string_is_the_edax_form() -> None:
    assert Board().to_string() == "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
    ffo = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    board = Board.from_string(ffo)
    assert board.to_string() == ffo and board.turn == BLACK and board.count(WHITE) == 23
    assert Board.from_string(ffo.replace(" X", " O;")).turn == WHITE  # Edax writes a trailing ';'


@pytest.mark.parametrize("size", [4, 6, 10, 16])
def test_string_forms_generalise_to_other_sizes(size: int) -> None:
    board = Board(rules=Rules(size=size))
    assert len(board.to_string()) == size * size + 2
    assert Board.from_string(board.to_string()) == board
    assert Board.from_string(str(board)) == board


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("X" * 63 + " X", "63 squares"),
        ("-" * 64, "whose turn"),
        ("-" * 64 + " Z", "'Z'"),
        ("-" * 63 + "Q X", "'Q'"),
        ("-" * 64 + " X 30", "supply"),
        ("-" * 5000, "too long"),
        ("", "0 squares"),
    ],
)
def test_malformed_position_strings_are_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        Board.from_string(text)


def test_malformed_diagrams_are_refused() -> None:
    good = str(Board())
    with pytest.raises(InvalidPositionError, match="whose turn"):
        Board.from_string(good.replace("black (X) to move", ""))
    with pytest.raises(InvalidPositionError, match="line 3"):
        Board.from_string(good.replace(" 2 - - -", " 2 - ? -"))
    with pytest.raises(InvalidPositionError, match="expected row 3"):
        Board.from_string(good.replace(" 3 -", " 9 -"))


def test_set_position_failure_keeps_the_old_position() -> None:
    board = Board.from_transcript("f5d6")
    with pytest.raises(InvalidPositionError):
        board.set_position("nonsense")
    assert board.transcript() == "f5d6"


def test_supply_in_the_string_needs_supply_rules() -> None:
    with pytest.raises(InvalidPositionError, match="supply"):
        Board("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X 30 30")
    board = Board("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X 30 30", rules=Rules(supply=32))
    assert board.supply == (30, 30) and board.to_string().endswith(" X 30 30")


def test_transcript_with_omitted_and_explicit_passes() -> None:
    # A 4x4 game with a forced pass: found by playing out; the explicit form must agree.
    board = Board(rules=Rules(size=4))
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
        else:
            board.push(next(iter(board.legal_moves)))
    implicit = Board.from_transcript(board.transcript(), rules=Rules(size=4))
    explicit = Board.from_transcript(board.transcript(passes=True), rules=Rules(size=4))
    assert implicit == explicit == board
    assert implicit.move_stack == board.move_stack


def test_transcript_accepts_spaces_and_case() -> None:
    assert Board.from_transcript("F5 d6  C3").transcript() == "f5d6c3"


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("d6c3x3", InvalidMoveError, "character 5"),
        ("d6c3a1", IllegalMoveError, "move 3"),
        ("d6pass", IllegalMoveError, "move 2.*may not pass"),
        ("d6c3c9", InvalidMoveError, "'c9'"),
    ],
)
def test_bad_transcripts_are_refused_and_change_nothing(text: str, error: type, words: str) -> None:
    board = Board.from_transcript("f5")
    with pytest.raises(error, match=words):
        board.push_transcript(text)
    assert board.transcript() == "f5"


def test_ten_by_ten_transcript_with_two_digit_rows() -> None:
    board = Board(rules=Rules(size=10))
    first = next(iter(board.legal_moves))
    board.push(first)
    text = board.transcript()
    assert Board.from_transcript(text, rules=Rules(size=10)) == board


def test_rules_are_immutable_and_checked() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.size = 6  # type: ignore[misc]
    for bad in (dict(goal="reverse"), dict(scoring="points"), dict(supply=True), dict(start=5)):
        with pytest.raises(InvalidPositionError):
            Rules(**bad)


def test_a_position_without_rules_brings_its_own_size() -> None:
    board = Board("XX-O" + "-" * 12 + " X")
    assert board.size == 4 and board.rules == Rules(size=4)
    with pytest.raises(InvalidPositionError, match="16 squares"):
        Board("XX-O" + "-" * 12 + " X", rules=Rules())


# -- hand-built moves and squares (issue 14, class 4) ---------------------------------------


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ((64,), InvalidMoveError, "square 64 is off a 8x8 board"),
        ((-1,), InvalidMoveError, "square -1 is off"),
        ((16, 4), InvalidMoveError, "off a 4x4 board"),
        ((10**5000,), InvalidMoveError, "an int of 16610 bits"),
        ((19, 7), InvalidMoveError, "even size 4 to 16, got size 7"),
        ((None, 18), InvalidMoveError, "got size 18"),
        ((19.0,), TypeError, "a square is an int 0-63, got 19.0"),
        (("d3",), TypeError, r"Move.from_name\('d3'\)"),
        ((True,), TypeError, "got True"),  # bool is not an int here: True is not b1
        ((19, 8.0), TypeError, "board size is an int, got 8.0"),
        ((19, True), TypeError, "got True"),
    ],
)
def test_a_move_is_always_a_square_of_some_board(args: tuple[object, ...], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        Move(*args)  # type: ignore[arg-type]


def test_a_move_made_any_other_way_is_checked_too() -> None:
    import copy
    import pickle

    move = Move(D3)
    assert pickle.loads(pickle.dumps(move)) == move == copy.deepcopy(move)
    assert move._replace(square=20) == Move(20)
    with pytest.raises(InvalidMoveError, match="square 64"):
        move._replace(square=64)
    with pytest.raises(InvalidMoveError):
        Move._make([99, 8])


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda b: b.disc_at(64), InvalidMoveError, "square 64 is off a 8x8 board"),
        (lambda b: b.disc_at(-1), InvalidMoveError, "square -1"),
        (lambda b: b.disc_at(True), TypeError, "got True"),
        (lambda b: b.disc_at(27.0), TypeError, "got 27.0"),
        (lambda b: b.flips(Move(80, 10)), InvalidMoveError, "10x10 board, this one is 8x8"),
        (lambda b: b.push(Move(80, 10)), InvalidMoveError, "10x10 board"),
        (lambda b: b.parse_move(Move(3, 4)), InvalidMoveError, "4x4 board"),
        (lambda b: rw.explain(b, 64), InvalidMoveError, "square 64 is off"),
        (lambda b: rw.explain(b, Move(99, 10)), InvalidMoveError, "10x10 board"),
    ],
)
def test_a_board_refuses_a_square_outside_its_size(call: object, error: type, words: str) -> None:
    board = Board.from_transcript("f5")
    before = (board.to_string(), list(board.move_stack))
    with pytest.raises(error, match=words):
        call(board)  # type: ignore[operator]
    assert (board.to_string(), list(board.move_stack)) == before
    assert board.disc_at(63) is None and board.disc_at("d4") == WHITE  # the real squares still answer


# -- a failed call changes nothing (issue 14, class 1) ---------------------------------------


def test_a_refused_position_keeps_the_board_and_its_moves() -> None:
    """The example of issue 14: the discs and the turn were written before the supplies were
    checked, so the move stack then popped into a corrupt position."""
    board = Board(rules=Rules(supply=32))
    board.push("f5")
    before = (board.to_string(), list(board.move_stack), board.root().to_string())
    with pytest.raises(InvalidPositionError, match="cannot cover the 64 empty squares"):
        board.set_position("-" * 64 + " X 0 0")
    assert (board.to_string(), list(board.move_stack), board.root().to_string()) == before
    board.pop()
    assert board == Board(rules=Rules(supply=32))


# -- ASCII only, and the package's own errors (issue 14, classes 2 and 3) ---------------------


SUPPLY_DIAGRAM = str(Board(rules=Rules(4, supply=8)))  # ends "supply: black 6, white 6"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: parse_square("\u212a1", 16), "not a square name"),  # the Kelvin sign is not k
        (lambda: Board.from_transcript("f5\u212a1", rules=Rules(size=16)), "cannot read"),
        (lambda: parse_square("d\u0663"), "not a square name"),  # an Arabic-Indic 3
        (lambda: parse_square("\uff44\uff13"), "not a square name"),  # fullwidth d3
        (lambda: Board.from_transcript("f5\u00a0d6"), "cannot read"),  # a no-break space
        (lambda: Board.from_string("-" * 16 + " X \u0663\u0660 \u0663\u0660", rules=Rules(4, supply=8)), "supply"),
        (lambda: Board.from_string("-" * 16 + " X \u00b2 \u00b2", rules=Rules(4, supply=8)), "supply"),  # superscript
        (lambda: Board.from_string("-" * 16 + " X \u2460 \u2460", rules=Rules(4, supply=8)), "supply"),  # circled
        (lambda: Board.from_string("-" * 16 + "\u00a0X"), "squares"),
        (lambda: Board.from_string("\u0661 - - - -\n2 - - - -\n3 - - - -\n4 - - - -\nblack to move"), "line 1"),
        (lambda: Board.from_string("1 - - - -\u20282 - - - -\n3 - - - -\n4 - - - -\nblack to move"), "line 1"),
        (
            lambda: Board(str(Board(rules=Rules(4, supply=8))).replace("6", "\u0666"), rules=Rules(4, supply=8)),
            "line 7",
        ),
    ],
)
def test_non_ascii_look_alikes_are_refused_with_the_package_error(call: object, words: str) -> None:
    with pytest.raises(rw.ReversiError, match=words):
        call()  # type: ignore[operator]
