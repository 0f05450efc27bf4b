"""Property tests: random games on every kind of board, checked against a plain reference."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reversi_widget import BLACK, Board, IllegalMoveError, Rules, perft
from reversi_widget.geometry import DIRECTIONS


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    size = draw(st.sampled_from([4, 6, 8, 10]))
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
def games(draw: st.DrawFn) -> Board:
    """A board after a random number of random legal moves (forced passes played)."""
    board = Board(rules=draw(rules_strategy()))
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
    assert {m.square for m in board.legal_moves} == reference_moves(board)
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
