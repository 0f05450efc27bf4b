"""Property tests: random games on every kind of board, checked against a plain reference, and
hostile input, each class of defect of issue 14 as a property that would have caught it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reversi_widget import (
    BLACK,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    ReversiError,
    Rules,
    explain,
    parse_square,
    perft,
    read_ggf_games,
    square_name,
)
from reversi_widget.geometry import DIRECTIONS
from reversi_widget.notation import parse_position, parse_transcript
from reversi_widget.records.logtable import filters, variant_fields


@st.composite
def rules_strategy(draw: st.DrawFn, size: int | None = None) -> Rules:
    size = size or draw(st.sampled_from([4, 6, 8, 10]))
    return Rules(
        size=size,
        start=draw(st.sampled_from(["standard", "mirrored", "parallel-left", "parallel-top", "free"])),
        goal=draw(st.sampled_from(["classic", "inverted"])),
        scoring=draw(st.sampled_from(["count", "tournament"])),
        supply=draw(st.sampled_from([None, size * size // 2])),
    )


def reference_flips(board: Board, square: int) -> set[int]:
    """Walk the eight directions square by square: the textbook rule (R10, R13-R16)."""
    n = board.size
    me = board.turn
    row, col = divmod(square, n)
    flipped: set[int] = set()
    for dc, dr in DIRECTIONS.values():
        run: list[int] = []
        r, c = row + dr, col + dc
        while 0 <= r < n and 0 <= c < n and board.disc_at(r * n + c) == (not me):
            run.append(r * n + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < n and 0 <= c < n and board.disc_at(r * n + c) == me:
            flipped.update(run)
    return flipped


def reference_moves(board: Board) -> set[int]:
    if board.in_placement():
        n = board.size
        centre = {(n // 2 - 1 + r) * n + n // 2 - 1 + c for r in (0, 1) for c in (0, 1)}
        return {sq for sq in centre if board.disc_at(sq) is None}
    return {sq for sq in range(board.size**2) if board.disc_at(sq) is None and reference_flips(board, sq)}


@st.composite
def games(draw: st.DrawFn, size: int | None = None) -> Board:
    """A board after a random number of random legal moves (forced passes played)."""
    board = Board(rules=draw(rules_strategy(size)))
    for _ in range(draw(st.integers(0, board.size**2))):
        if board.is_game_over():
            break
        if board.must_pass():
            board.push_pass()
            continue
        moves = list(board.legal_moves)
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


@settings(max_examples=150, deadline=None)
@given(games())
def test_moves_and_flips_match_the_reference(board: Board) -> None:
    # Listed once each, in square order, on one-word (up to 8x8) and longer (10x10) masks alike.
    assert [m.square for m in board.legal_moves] == sorted(reference_moves(board))
    for move in board.legal_moves:
        expected = set() if board.in_placement() else reference_flips(board, move.square or 0)
        assert set(board.flips(move)) == expected


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_move_conserves_discs_and_flips_only_opponent_discs(board: Board) -> None:
    for move in list(board.legal_moves):
        me = board.turn
        mine, theirs = board.count(me), board.count(not me)
        flips = board.flips(move)
        assert all(board.disc_at(sq) == (not me) for sq in flips)
        board.push(move)
        assert board.count(me) == mine + 1 + len(flips)
        assert board.count(not me) == theirs - len(flips)
        assert all(board.disc_at(sq) == me for sq in flips)
        board.pop()


@settings(max_examples=150, deadline=None)
@given(games())
def test_push_then_pop_restores_the_exact_position(board: Board) -> None:
    def state() -> tuple[object, ...]:
        return board.to_string(), board.supply, list(board.move_stack), board.turn, list(board.legal_moves)

    snapshot = state()
    view = board.legal_moves  # a live view: it follows every push and pop
    for move in list(board.legal_moves):
        board.push(move)
        assert {m.square for m in view} == reference_moves(board)
        board.pop()
        assert state() == snapshot
    if board.must_pass():
        board.push_pass()
        assert {m.square for m in view} == reference_moves(board)
        board.pop()
        assert state() == snapshot


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_pass_is_legal_exactly_when_no_move_is(board: Board) -> None:
    before = board.to_string()
    can_pass = not board.legal_moves and not board.is_game_over()
    assert board.must_pass() == can_pass
    try:
        board.push_pass()
        passed = True
    except IllegalMoveError:
        passed = False
        assert board.to_string() == before
    assert passed == can_pass


@settings(max_examples=150, deadline=None)
@given(games())
def test_strings_and_transcripts_round_trip(board: Board) -> None:
    rules = board.rules
    assert Board(board.to_string(), rules=rules) == board
    assert Board(str(board), rules=rules) == board
    assert eval(repr(board), {"Board": Board, "Rules": Rules}) == board
    # Without passes written, a pass is inserted only where a move needs it: trailing passes
    # after the last move are not in the text, so compare with them taken back.
    untrailed = board.copy()
    while untrailed.move_stack and not untrailed.move_stack[-1]:
        untrailed.pop()
    replayed = Board.from_transcript(board.transcript(), rules=rules)
    assert replayed == untrailed and replayed.move_stack == untrailed.move_stack
    explicit = Board.from_transcript(board.transcript(passes=True), rules=rules)
    assert explicit == board and explicit.move_stack == board.move_stack


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(1, 3))
def test_perft_matches_push_pop_enumeration(board: Board, depth: int) -> None:
    def slow(b: Board, d: int) -> int:
        if d == 0 or b.is_game_over():
            return 1
        if b.must_pass():
            b.push_pass()
            total = slow(b, d - 1)
            b.pop()
            return total
        total = 0
        for m in list(b.legal_moves):
            b.push(m)
            total += slow(b, d - 1)
            b.pop()
        return total

    assert perft(board, depth) == slow(board.copy(), depth)


@settings(max_examples=100, deadline=None)
@given(games())
def test_supply_always_covers_the_empty_squares(board: Board) -> None:
    assume(board.supply is not None)
    assert board.supply is not None
    black, white = board.supply
    assert black >= 0 and white >= 0
    # With half the squares' discs each, the supplies always hold exactly the empties' worth.
    assert black + white == board.empty_count()
    assert board.count(BLACK) + board.count(not BLACK) + black + white == board.size**2


# -- hostile input (issue 14): each class of defect as a property -------------------------

#: Non-ASCII characters that look like an ASCII one of a text form, or fold to one.
LOOK_ALIKES: dict[str, str] = {
    **{d: f"{chr(0x660 + int(d))}{chr(0xFF10 + int(d))}{chr(0x966 + int(d))}" for d in "0123456789"},
    **{c: chr(0xFF41 + ord(c) - ord("a")) + chr(0xFF21 + ord(c) - ord("a")) for c in "abcdefghijklmnop"},
    "k": "\u212a\uff4b",  # the Kelvin sign folds to k
    "s": "\u017f\uff53",  # the long s folds to s
    "X": "\u0425\u03a7\uff38",
    "O": "\u041e\u039f\uff2f",
    "-": "\u2010\u2212\uff0d",
    " ": "\u00a0\u2003\u3000\u2028\u0085",
    "\n": "\u2028\u2029\u0085",
}
ODD_CHARACTERS = "".join(LOOK_ALIKES.values()) + "\u00b2\u2460\u200b\ufeff\x00"


def hostile_text() -> st.SearchStrategy[str]:
    """Text made of a format's own characters and their look-alikes."""
    return st.text(alphabet=st.sampled_from("abcdefghpXxOo*-.; \n\t0123456789" + ODD_CHARACTERS), max_size=40)


def look_alike(text: str, index: int, pick: int) -> str | None:
    """``text`` with its character at ``index`` replaced by a look-alike (None if it has none)."""
    options = LOOK_ALIKES.get(text[index]) or LOOK_ALIKES.get(text[index].lower())
    if not options:
        return None
    return text[:index] + options[pick % len(options)] + text[index + 1 :]


def state(board: Board) -> tuple[object, ...]:
    """Everything a board holds, the moves it can take back included."""
    return (board.rules, board.bitboards(), board.turn, board.supply, list(board.move_stack), list(board._undo),
            board._initial)  # fmt: skip


@st.composite
def failing_calls(draw: st.DrawFn, board: Board) -> tuple[str, Callable[[Board], object]]:
    """A call of a mutating method of ``board`` that its rules or the text forms refuse."""
    other = draw(games(draw(st.sampled_from([board.size, board.size, board.size, 4]))))
    kind = draw(st.sampled_from(["position", "position", "move", "pass", "transcript"]))
    if kind == "position":
        text = draw(st.sampled_from([other.to_string(), str(other)]))
        edit = draw(st.sampled_from(["look-alike", "supply", "supply", "cut", "other"]))
        if edit == "look-alike":
            at = draw(st.integers(0, len(text) - 1))
            text = look_alike(text, at, draw(st.integers(0, 4))) or text[:at]
        elif edit == "supply":  # counts the rules have no supply for, or too few for the empties
            words = other.to_string().split()[:2]
            counts = draw(st.sampled_from(["0 0", "1 0", "2 3", "999", "x y", "\u0663 \u0663", "\u00b2 \u2460"]))
            text = " ".join([*words, counts])
        elif edit == "cut":
            text = text[: draw(st.integers(0, len(text) - 1))]
        return f"set_position({text!r})", lambda b: b.set_position(text)
    if kind == "move":
        move = draw(
            st.one_of(
                st.sampled_from(["a1", "q1", "d33", "", "pass", "\u212a1", "d\u0663", "a\u00a01"]),
                st.integers(-300, 300),
                st.builds(Move, st.integers(0, 15), st.just(4)),
                st.builds(Move, st.integers(0, 255), st.just(16)),
                st.none(),
                st.floats(),
            )
        )
        return f"push({move!r})", lambda b: b.push(move)
    if kind == "pass":
        return "push_pass()", lambda b: b.push_pass()
    moves = board.copy()
    text = ""
    for _ in range(draw(st.integers(0, 6))):
        if moves.is_game_over():
            break
        move = moves.legal_moves and draw(st.sampled_from(list(moves.legal_moves)))
        moves.push(move if move else Move.null(board.size))
        text += str(move) if move else "pass"
    text += draw(st.sampled_from(["a1", "zz", "pass", "q9", "\u212a1", "d\u0663", "p16p16"]))
    return f"push_transcript({text!r})", lambda b: b.push_transcript(text)


@settings(max_examples=300, deadline=None)
@given(games(), st.data())
def test_a_refused_call_leaves_the_board_exactly_as_it_was(board: Board, data: st.DataObject) -> None:
    """Class 1: every mutating method checks everything before it changes anything."""
    what, call = data.draw(failing_calls(board))
    before = state(board)
    copy = board.copy()
    try:
        call(board)
    except (ReversiError, TypeError):
        pass
    else:
        return  # not a failing call after all (a look-alike-free cut can still be a position)
    assert state(board) == before, what
    while copy.move_stack:  # and every move still takes back to the same positions
        assert board.pop() == copy.pop() and board == copy, what
    assert board.ply == 0 and board == copy


PARSERS: list[tuple[str, Callable[[str], object]]] = [
    ("parse_square", lambda t: parse_square(t, 16)),
    ("Move.from_name", lambda t: Move.from_name(t, 10)),
    ("parse_transcript", lambda t: parse_transcript(t, 8)),
    ("parse_position", parse_position),
    ("Board", lambda t: Board(t, rules=Rules(4, supply=8))),
    ("Rules", lambda t: Rules(size=4, start=t, supply=8)),
    ("read_ggf_games", lambda t: read_ggf_games(f"(;GM[Othello]TY[{t}]BO[{t}]B[{t}];)")),
    ("GameLog variant", lambda t: variant_fields(t)),
    ("explain colour", lambda t: explain(Board(), "d3", color=t)),
]


#: A good text of each parser's format, to damage.
GOOD_TEXTS = {
    "parse_square": ["d3", "p16", "J10"],
    "Move.from_name": ["pass", "d3", "P16"],
    "parse_transcript": ["f5d6c3d3", "f5 d6 PASS c3"],
    "parse_position": ["-" * 16 + " X 8 8", "-" * 64 + " O", str(Board(rules=Rules(4, supply=8)))],
    "Board": ["-" * 16 + " X 8 8", str(Board(rules=Rules(4, supply=8)))],
    "Rules": ["-" * 16 + " X 8 8", "standard"],
    "read_ggf_games": ["8", "8a", "4 ---- -OX- -XO- ---- *", "d3"],
    "GameLog variant": ["8x8 inverted free", "10x10 classic"],
    "explain colour": ["black", " WHITE "],
}
DIGIT_LIKE = "\u00b2\u2460\u2467\u0663\u06f8\uff18\u0968\U0001d7d8"  # ², ①, ⑧, Arabic-Indic, ...


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PARSERS), st.data())
def test_damaged_text_is_read_or_refused_with_the_package_error(
    parser: tuple[str, Callable[[str], object]], data: st.DataObject
) -> None:
    """Class 2: nothing but a ``ReversiError`` escapes, whatever replaces a character of a good
    text: digits of other scripts, ``²`` and ``①`` (which ``str.isdigit`` accepts and ``int`` not)."""
    name, parse = parser
    text = data.draw(st.sampled_from(GOOD_TEXTS[name]))
    for _ in range(data.draw(st.integers(1, 3))):
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        where = st.integers(0, len(text))
        if digits and bool(data.draw(st.booleans())):
            where = st.sampled_from(digits)
        at = data.draw(where)
        odd = data.draw(st.sampled_from(DIGIT_LIKE) if text[at : at + 1].isdigit() else st.sampled_from(ODD_CHARACTERS))
        text = text[:at] + odd + text[at + data.draw(st.integers(0, 1)) :]
    try:
        parse(text)
    except ReversiError:
        pass
    except Exception as error:
        raise AssertionError(f"{name}({text!r}) raised {type(error).__name__}: {error}") from error


@settings(max_examples=300, deadline=None)
@given(games(), st.data())
def test_a_look_alike_in_a_text_form_is_refused(board: Board, data: st.DataObject) -> None:
    """Class 3: a non-ASCII character in place of an ASCII one is never read as that one."""
    texts = [board.to_string(), str(board), square_name(data.draw(st.integers(0, board.size**2 - 1)), board.size)]
    if board.move_stack:
        texts.append(board.transcript(passes=True))
    text = data.draw(st.sampled_from(texts))
    at = data.draw(st.integers(0, len(text) - 1))
    mutated = look_alike(text, at, data.draw(st.integers(0, 4)))
    assume(mutated is not None)
    assert mutated is not None
    if text == str(board) and mutated.splitlines()[-1 if board.supply is None else -2] != text.splitlines()[-1]:
        assume("to move" not in text.splitlines()[text[:at].count("\n")])  # that line's middle is free text
    with pytest.raises(ReversiError):
        if text == board.transcript(passes=True):
            Board.from_transcript(mutated, rules=board.rules)
        elif len(text) <= 3:
            parse_square(mutated, board.size)
        else:
            Board(mutated, rules=board.rules)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.integers(-1000, 1000), st.integers(), st.none(), st.booleans(), st.floats(), st.text(max_size=4)),
    st.one_of(st.integers(-20, 40), st.booleans(), st.floats(), st.text(max_size=2), st.none()),
)
def test_a_move_is_a_square_of_some_board_or_refused(square: object, size: object) -> None:
    """Class 4: ``Move`` refuses what is no square with ``InvalidMoveError`` or a ``TypeError``."""
    try:
        move = Move(square, size)  # type: ignore[arg-type]
    except (InvalidMoveError, TypeError) as error:
        assert len(str(error)) < 200
        return
    assert type(move.size) is int and move.size in range(4, 17, 2)
    assert move.square is None or (type(move.square) is int and 0 <= move.square < move.size**2)
    assert Board(rules=Rules(size=move.size)).parse_move(move) == move


@settings(max_examples=200, deadline=None)
@given(games(), st.integers(-(2**70), 2**70) | st.integers(-600, 600))
def test_a_board_answers_for_its_squares_and_refuses_the_rest(board: Board, square: int) -> None:
    """Class 4: every method taking a square refuses one off this board, with the package's error."""
    cells = board.size**2
    if 0 <= square < cells:
        assert board.disc_at(square) in (BLACK, not BLACK, None)
        return
    before = state(board)
    readers: tuple[Callable[[Any], object], ...] = (
        board.disc_at,
        lambda sq: explain(board, sq),
        lambda sq: square_name(sq, board.size),
    )
    for call in readers:
        with pytest.raises(InvalidMoveError, match=f"off a {board.size}x{board.size} board"):
            call(square)
    other = 4 if board.size != 4 else 6
    movers: tuple[Callable[[Any], object], ...] = (board.push, board.flips, lambda m: explain(board, m))
    for call in movers:
        with pytest.raises(InvalidMoveError, match=f"{other}x{other} board"):
            call(Move(square % other**2, other))
    assert state(board) == before


@st.composite
def rules_values(draw: st.DrawFn) -> dict[str, object]:
    """Keyword arguments for ``Rules``: custom starts of a position of the size, with or without
    supply counts (which may not cover the empties), under rules with or without a supply."""
    size = draw(st.sampled_from([4, 6, 8]))
    start = draw(st.sampled_from(["standard", "free", "custom", "custom", "custom"]))
    if start == "custom":
        words = draw(games(draw(st.sampled_from([size, size, size, 4])))).to_string().split()[:2]
        counts = draw(
            st.one_of(st.just(""), st.tuples(st.integers(0, 300), st.integers(0, 300)).map("{0[0]} {0[1]}".format))
        )
        start = " ".join([*words, counts]).strip()
    return {"size": size, "start": start, "supply": draw(st.sampled_from([None, size * size // 2, size * size]))}


@settings(max_examples=300, deadline=None)
@given(rules_values())
def test_rules_that_are_made_make_a_board(values: dict[str, object]) -> None:
    """Class 7: ``Rules`` refuses a start no ``Board`` can use, so every ``Rules`` makes one."""
    try:
        rules = Rules(**values)  # type: ignore[arg-type]
    except InvalidPositionError:
        return
    board = Board(rules=rules)
    assert board.rules == rules and Board(board.to_string(), rules=rules) == board


LONG = 4_000


@settings(max_examples=60, deadline=None)
@given(hostile_text().filter(bool), st.data())
def test_every_refusal_quotes_its_input_in_part(seed: str, data: st.DataObject) -> None:
    """Class 8: a 4,000-character input, or a huge int, is quoted in a few dozen characters."""
    text = (seed * (LONG // len(seed) + 1))[:LONG]
    huge = data.draw(st.sampled_from([10**5000, -(10**5000), 2**200]))
    calls: list[Callable[[], object]] = [
        *(lambda parse=parse: parse(text) for _, parse in PARSERS),
        lambda: read_ggf_games(f"(;GM[{text}];)"),
        lambda: read_ggf_games("(;" + "PB" * (LONG // 2) + ";)"),
        lambda: Rules(goal=text),
        lambda: Rules(scoring=text),
        lambda: Rules(size=huge),
        lambda: Rules(supply=huge),
        lambda: Move(huge),
        lambda: Move(19, huge),
        lambda: Board().disc_at(huge),
        lambda: Board().push(huge),  # type: ignore[arg-type]
        lambda: square_name(huge),
        lambda: explain(Board(), huge),
        lambda: filters(None, None, text, None),
        lambda: filters(text, huge, None, None),
    ]
    for call in calls:
        try:
            call()
        except (ReversiError, TypeError) as error:
            assert len(str(error)) < 400, f"{len(str(error))} characters: {str(error)[:200]}..."
