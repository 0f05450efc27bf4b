"""GGF: reading GGS-style records, many-game files, round trips and every refusal."""

from __future__ import annotations

import random
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_widget import BLACK, Board, IllegalMoveError, InvalidPositionError, Move, Rules, ggf
from reversi_widget.game import Game
from reversi_widget.ggf import load_ggf, read_ggf, read_ggf_games, write_ggf, write_ggf_games
from reversi_widget.rules import START_LAYOUTS
from tests.support import cpu_seconds, play_random

STANDARD_BO = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
HEAD = "(;GM[Othello]PB[b]PW[w]TY[8]" + STANDARD_BO


def find_game(size: int, wanted: Callable[[Board], bool]) -> Board:
    """The first seeded random finished game of a size that has the wanted property."""
    for seed in range(10_000):
        board = play_random(Board(rules=Rules(size=size)), random.Random(seed))
        if wanted(board):
            return board
    raise AssertionError("no such game in 10,000 seeds")


def has_pass(board: Board) -> bool:
    return any(not m for m in board.move_stack)


def ggs_text(board: Board, *, margin: int, extra: str = "") -> str:
    """A game written the way GGS writes it, built here move by move (not with write_ggf):
    evaluations and times after the squares, some upper-case squares, passes as PA/pass."""
    n = board.size
    root = board.root()
    black, white = root.bitboards()
    cells = "".join("*" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(n * n))
    rows = " ".join(cells[r * n : (r + 1) * n] for r in range(n))
    moves = []
    replay = root.copy()
    for i, move in enumerate(board.move_stack):
        color = "B" if replay.turn == BLACK else "W"
        if not move:
            value = "PA" if i % 2 else "pass"
        else:
            name = str(move)
            value = (name.upper() if i % 3 == 0 else name) + f"/{(i % 7) - 3}.00/{i / 10:.2f}"
        moves.append(f"{color}[{value}]")
        replay.push(move)
    return (
        f"(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]RB[2197.01]"
        f"RW[2199.72]TI[05:00//02:00]TY[{n}]RE[{margin:+.3f}]{extra}BO[{n} {rows} *]" + "".join(moves) + ";)"
    )


# -- reading what GGS writes ----------------------------------------------------------


def test_reads_a_ggs_game_with_evaluations_times_and_passes() -> None:
    board = find_game(8, has_pass)
    outcome = Board(board.to_string(), rules=Rules(scoring="tournament")).outcome()
    assert outcome is not None
    game = read_ggf(ggs_text(board, margin=outcome.black - outcome.white))
    assert game.moves == board.move_stack
    assert game.rules == Rules()
    assert (game.black_player, game.white_player) == ("Saio1200", "Saio3000")
    assert (game.event, game.date) == ("GGS/os", "2003.12.15_13:24:03.MST")
    assert game.metadata == {"RB": "2197.01", "RW": "2199.72", "TI": "05:00//02:00"}
    assert game.result == (outcome.black, outcome.white)
    assert game.board() == board


def test_reads_the_short_form_with_an_unspaced_board() -> None:
    text = (
        "(;GM[othello]PC[..]DT[..]PB[name]PW[other]RB[..]RW[..]TI[..]TY[8]RE[+4.000]"
        "BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c5]B[F6];)"
    )
    game = read_ggf(text)
    assert game.transcript() == "d3c5f6"
    # Not played out: +4 stands for the 64 squares split 34-30, as for a resignation.
    assert game.result == (34, 30) and "RE" not in game.metadata


def test_a_result_on_a_finished_board_is_its_count_or_the_tournament_count() -> None:
    board = find_game(6, lambda b: b.empty_count() >= 2 and b.count(True) != b.count(False))
    b, w = board.count(True), board.count(False)
    tournament = Board(board.to_string(), rules=Rules(size=6, scoring="tournament")).outcome()
    assert tournament is not None
    assert read_ggf(ggs_text(board, margin=b - w)).result == (b, w)
    by_r23 = read_ggf(ggs_text(board, margin=tournament.black - tournament.white))
    assert by_r23.result == (tournament.black, tournament.white) != (b, w)
    # A margin the board cannot give (a loss on time) is kept as the split of the 36 squares.
    assert read_ggf(ggs_text(board, margin=-36)).result == (0, 36)


def test_a_result_that_is_not_a_disc_count_is_kept_as_text() -> None:
    game = read_ggf(HEAD + "RE[+0.500]B[d3];)")
    assert game.result is None and game.metadata["RE"] == "+0.500"
    assert "RE[+0.500]" in write_ggf(game)
    resigned = read_ggf(HEAD + "RE[+64.000:r]B[d3];)")
    assert resigned.result == (64, 0) and resigned.metadata["RE"] == "+64.000:r"
    assert read_ggf(write_ggf(resigned)) == resigned


def test_variant_letters() -> None:
    anti = read_ggf(HEAD.replace("TY[8]", "TY[8a]") + "B[d3];)")
    assert anti.rules.goal == "inverted" and "TY" not in anti.metadata
    assert "TY[8a]" in write_ggf(anti)
    random_start = read_ggf(HEAD.replace("TY[8]", "TY[8r]") + ";)")
    assert random_start.metadata["TY"] == "8r" and "TY[8r]" in write_ggf(random_start)
    # A kept TY that no longer fits the rules is not written.
    changed = Game(rules=Rules(goal="inverted"), metadata={"TY": "8r"})
    assert "TY[8a]" in write_ggf(changed)


def test_start_positions_map_to_named_layouts() -> None:
    mirrored = "BO[8 -------- -------- -------- ---*O--- ---O*--- -------- -------- -------- *]"
    assert read_ggf("(;GM[Othello]" + mirrored + ";)").rules.start == "mirrored"
    assert read_ggf("(;GM[Othello]BO[4 " + "-" * 16 + " *];)").rules == Rules(size=4, start="free")
    white_first = read_ggf("(;GM[Othello]" + STANDARD_BO[:-2] + "O]W[c5];)")
    assert white_first.rules.start == Board().to_string()[:-1] + "O"
    assert white_first.transcript() == "c5"
    assert read_ggf("(;GM[Othello]TY[6];)").rules == Rules(size=6)  # no BO: the standard start


def test_an_omitted_forced_pass_is_put_back() -> None:
    board = find_game(8, has_pass)
    full = ggs_text(board, margin=0)
    without = full.replace("W[PA]", "").replace("B[PA]", "").replace("W[pass]", "").replace("B[pass]", "")
    assert without != full
    assert read_ggf(without).moves == board.move_stack


def test_property_values_unescape() -> None:
    game = read_ggf(r"(;GM[Othello]PB[a\]b\\c]PW[x\y];)")
    assert (game.black_player, game.white_player) == ("a]b\\c", "xy")
    assert r"PB[a\]b\\c]" in write_ggf(game)


# -- many games -----------------------------------------------------------------------


def some_games() -> list[Game]:
    rng = random.Random(7)
    return [
        Game.from_board(play_random(Board(), rng), black_player="A", white_player="B", event="Open"),
        Game.from_board(play_random(Board(rules=Rules(size=6, goal="inverted")), rng), date="2024-05-17"),
        Game.from_board(play_random(Board(rules=Rules(size=10)), rng, plies=30)),
    ]


def test_reads_a_file_of_many_games(tmp_path: Path) -> None:
    games = some_games()
    text = "\n\n".join(write_ggf(g) for g in games) + "\n"
    assert read_ggf_games(text) == games
    assert read_ggf_games(text.encode()) == games
    path = tmp_path / "games.ggf"
    path.write_text(write_ggf_games(games), encoding="utf-8")
    assert load_ggf(path) == games
    assert read_ggf_games("  \n") == []
    with pytest.raises(InvalidPositionError, match="exactly one GGF game, found 3"):
        read_ggf(text)


def test_errors_in_a_file_name_the_file_and_the_game(tmp_path: Path) -> None:
    path = tmp_path / "bad.ggf"
    path.write_text(write_ggf_games(some_games()[:2]) + HEAD + "B[a1];)", encoding="utf-8")
    with pytest.raises(IllegalMoveError, match=r"bad\.ggf: GGF game 3, move 1 B\[a1\] at character \d+"):
        load_ggf(path)


# -- round trips ----------------------------------------------------------------------


NAME_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)  # any text UTF-8 can carry


@st.composite
def games(draw: st.DrawFn) -> Game:
    size = draw(st.sampled_from([4, 6, 8]))
    goal = draw(st.sampled_from(["classic", "inverted"]))
    start = draw(st.sampled_from([*START_LAYOUTS, "free", "custom"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if start == "custom":  # a position from a few random moves, either side to move
        position = play_random(Board(rules=Rules(size=size)), rng, plies=draw(st.integers(1, 6))).to_string()
        start = position if draw(st.booleans()) else position[:-1] + ("O" if position[-1] == "X" else "X")
    board = play_random(
        Board(rules=Rules(size=size, start=start, goal=goal)), rng, draw(st.none() | st.integers(0, 40))
    )
    keys = st.text("ACKLNQSUVXYZ", min_size=1, max_size=3)  # never a reserved name like PB or TY
    game = Game.from_board(
        board,
        black_player=draw(NAME_TEXT),
        white_player=draw(NAME_TEXT),
        event=draw(NAME_TEXT),
        date=draw(NAME_TEXT),
        metadata=draw(st.dictionaries(keys, NAME_TEXT, max_size=3)),
    )
    if draw(st.booleans()):  # the result with the empties to the winner (R23) instead of the count
        outcome = Board(
            board.to_string(), rules=Rules(size=size, start=start, goal=goal, scoring="tournament")
        ).outcome()
        if outcome is not None:
            game.result = (outcome.black, outcome.white)
    return game


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_round_trip(game: Game) -> None:
    text = write_ggf(game)
    assert read_ggf(text) == game
    assert read_ggf_games(write_ggf_games([game, game])) == [game, game]


def test_round_trip_covers_passes_sizes_and_starts() -> None:
    cases = [
        find_game(4, has_pass),
        find_game(6, has_pass),
        find_game(8, has_pass),
        play_random(Board(rules=Rules(size=10)), random.Random(1)),
        play_random(Board(rules=Rules(size=10, goal="inverted", start="parallel-left")), random.Random(2), 50),
        play_random(Board(rules=Rules(start="free")), random.Random(3), 20),
        play_random(Board(Board.from_transcript("f5d6c3").to_string(), rules=Rules()), random.Random(4)),
    ]
    for board in cases:
        game = Game.from_board(board, black_player="Ann", event="Club night")
        assert read_ggf(write_ggf(game)) == game, write_ggf(game)
    assert any(has_pass(b) for b in cases)


def test_write_refuses_a_disc_supply() -> None:
    with pytest.raises(InvalidPositionError, match="disc supply"):
        write_ggf(Game(rules=Rules(supply=32)))


def test_write_leaves_out_metadata_that_is_not_a_property() -> None:
    text = write_ggf(Game(metadata={"theoretical_score": "34", "KM": "0", "GM": "Go"}))
    assert "KM[0]" in text and "theoretical" not in text and "GM[Go]" not in text


# -- malformed input ------------------------------------------------------------------

M = len(HEAD) + 1  # the character where the first move of HEAD + "..." stands
MALFORMED = [
    ("(;GM[Othello]PB[x;)", InvalidPositionError, r"game 1: property PB at character 14 is never closed"),
    ("(;GM[Othello]]PB[x];)", InvalidPositionError, r"game 1: unexpected '\]PB\[x\];\)' at character 14"),
    ("(;GM[Othello]pb[x];)", InvalidPositionError, r"game 1: unexpected 'pb\[x\];\)' at character 14"),
    ("(;GM[Othello]PB x;)", InvalidPositionError, r"game 1: property PB at character 14 has no value"),
    ("(;GM[Othello]PB[a][b];)", InvalidPositionError, r"game 1: property PB at character 14 has more than one"),
    ("(;PB[x]PW[y];)", InvalidPositionError, r"game 1 \(from character 1\) has no GM property"),
    ("(;GM[Go]B[dd];)", InvalidPositionError, r"game 1 \(from character 1\) is a game of 'Go', not Othello"),
    ("(;GM[Othello]GM[Othello];)", InvalidPositionError, r"game 1 .*property GM is given twice .*3 and 14"),
    (HEAD + "B[a1];)", IllegalMoveError, rf"game 1, move 1 B\[a1\] at character {M}: a1 is illegal"),
    (HEAD + "W[d3];)", IllegalMoveError, rf"game 1, move 1 W\[d3\] at character {M}: it is black's turn"),
    (HEAD + "B[d3]W[z9];)", InvalidPositionError, rf"game 1, move 2 W\[z9\] at character {M + 5}: 'z9' is not a"),
    (HEAD + "B[pa];)", IllegalMoveError, r"game 1, move 1 B\[pa\] .*may not pass"),
    ("(;GM[Othello]BO[8 ---- *];)", InvalidPositionError, r"game 1 .*BO at character 14: 4 squares, but a 8x8"),
    ("(;GM[Othello]BO[8 " + "x" * 64 + " *];)", InvalidPositionError, r"BO at character 14: 'x' at square 1"),
    ("(;GM[Othello]BO[8 " + "-" * 64 + " X];)", InvalidPositionError, r"BO at character 14: side to move 'X'"),
    ("(;GM[Othello]BO[7 " + "-" * 49 + " *];)", InvalidPositionError, r"BO at character 14: .*even"),
    ("(;GM[Othello]BO[];)", InvalidPositionError, r"BO at character 14: expected the size"),
    ("(;GM[Othello]TY[6]" + STANDARD_BO + ";)", InvalidPositionError, r"is a 8x8 board but TY says 6x6"),
    ("(;GM[Othello]TY[s8r20];)", InvalidPositionError, r"TY\[s8r20\] at character 14: synchro games"),
    ("(;GM[Othello]TY[8k];)", InvalidPositionError, r"TY\[8k\] at character 14: komi games"),
    ("(;GM[Othello]TY[8q];)", InvalidPositionError, r"TY\[8q\] at character 14: unknown variant letter 'q'"),
    ("(;GM[Othello]TY[99999999];)", InvalidPositionError, r"TY\[99999999\] at character 14: board size"),
    ("(;GM[Othello]PB[x]", InvalidPositionError, r"game 1 \(from character 1\) is truncated"),
    ("(;GM[Othello]PB[x\\", InvalidPositionError, r"property PB at character 14 is never closed"),
    ("(;GM[Othello];) junk", InvalidPositionError, r"game 2: expected '\(;' to start a game at character 17"),
    ("(;GM[Othello];)(;GM[Chess];)", InvalidPositionError, r"game 2 \(from character 16\) is a game of 'Chess'"),
]


@pytest.mark.parametrize(("text", "error", "message"), MALFORMED)
def test_malformed_input_names_the_place(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        read_ggf_games(text)
    assert type(caught.value) is error  # exactly this type, not a subclass or another ValueError


def test_a_move_after_the_end_is_illegal() -> None:
    board = find_game(4, lambda b: True)
    text = write_ggf(Game.from_board(board))
    extra = "B[a1]" if board.turn == BLACK else "W[a1]"
    with pytest.raises(IllegalMoveError, match=rf"move {len(board.move_stack) + 1} .*the game is over"):
        read_ggf(text.replace(";)", extra + ";)"))


def test_truncated_anywhere_is_refused_cleanly() -> None:
    text = write_ggf(some_games()[0])
    for cut in range(1, len(text) - 1):
        with pytest.raises(InvalidPositionError, match=r"GGF game 1"):
            read_ggf(text[:cut])


def test_non_utf8_bytes_name_the_offset_and_game() -> None:
    first = (HEAD + ";)").encode() + b"(;GM[Othello]PB["
    with pytest.raises(InvalidPositionError, match=rf"game 2: byte 0xff at byte offset {len(first)} is not UTF-8"):
        read_ggf_games(first + b"\xff];)")


def test_absurdly_long_input_is_refused_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    began = cpu_seconds()  # not the wall clock, which a loaded machine stretches
    with pytest.raises(InvalidPositionError, match=r"game 1 \(from character 1\) runs past 200000 characters"):
        read_ggf("(;GM[Othello]C[" + "x" * 5_000_000 + "];)")
    with pytest.raises(InvalidPositionError, match=r"game 1 \(from character 1\) runs past"):
        read_ggf("(;GM[Othello]" + "C[x]" * 100_000 + ";)")
    assert cpu_seconds() - began < 5
    monkeypatch.setattr(ggf, "MAX_TEXT_CHARS", 1000)
    with pytest.raises(InvalidPositionError, match=r"2000 characters is too long"):
        read_ggf_games(" " * 2000)
    with pytest.raises(InvalidPositionError, match=r"2000 bytes is too long"):
        read_ggf_games(b" " * 2000)


def test_a_byte_order_mark_is_ignored_and_offsets_stay_right() -> None:
    text = write_ggf(some_games()[0])
    assert read_ggf(b"\xef\xbb\xbf" + text.encode()) == some_games()[0]
    with pytest.raises(InvalidPositionError, match=r"unexpected '\];\)' at character 15"):
        read_ggf("\ufeff(;GM[Othello]];)")


def test_long_values_are_cut_short_in_messages() -> None:
    where = r"move 1 B\[xxxxxxxxxxxxxxxxxxxxx\.\.\.\] at character 108: not a move"
    with pytest.raises(InvalidPositionError, match=where) as caught:
        read_ggf(HEAD + "B[" + "x" * 5000 + "];)")
    assert len(str(caught.value)) < 300


def test_move_text_forms() -> None:
    game = read_ggf(HEAD + "B[D3//1.2]W[c5/-0.5/3.1]B[f6];)")
    assert game.moves == [Move.from_name(n) for n in ("d3", "c5", "f6")]


# -- hostile files (issue 14: classes 3, 5 and 9) --------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;GM[Othello]TY[\u0668];)", r"TY\[\u0668\] at character 14: expected a board size"),  # Arabic-Indic 8
        ("(;GM[Othello]TY[\uff18];)", "expected a board size"),  # fullwidth 8
        ("(;GM[Othello]BO[\u0664 ---- -O*- -*O- ---- *];)", "BO at character 14: expected the size"),
        ("(;GM[Othello]BO[4\u00a0---- -O*- -*O- ---- *];)", "BO at character 14: expected the size"),
        ("(;GM[\uff2f\uff34\uff28\uff25\uff2c\uff2c\uff2f];)", "not Othello"),  # fullwidth OTHELLO
        (HEAD + "B[\uff44\uff13];)", r"move 1 B\[\uff44\uff13\] at character 108"),  # fullwidth d3
        (HEAD + "B[d\u0663];)", "not a square name"),
        ("(;GM[Othello]TY[10\u212a];)", "expected a board size"),  # the Kelvin sign is no k (komi)
        ("(;GM[Othello]\u3000PB[x];)", "unexpected"),  # an ideographic space is no blank here
    ],
)
def test_non_ascii_look_alikes_are_not_read_as_ascii(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        read_ggf(text)


def test_a_margin_in_other_digits_is_no_margin() -> None:
    board = find_game(8, lambda b: b.is_game_over())
    text = re.sub(r"RE\[[^\]]*\]", "RE[+\u0664\u0660]", write_ggf(Game.from_board(board)))
    game = read_ggf(text)  # float() reads Arabic-Indic digits: the margin is matched as ASCII first
    assert game.result is None and game.metadata["RE"] == "+\u0664\u0660"


def sparse_file(path: Path, head: bytes, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space: ``head``, then a hole of zeros."""
    path.write_bytes(head)
    with open(path, "r+b") as handle:
        handle.truncate(size)
    return path


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Class 9: 3 GB used to end in a MemoryError; the size is looked at first."""
    path = sparse_file(tmp_path / "huge.ggf", b"(;GM[Othello];)", 3 * 1024**3)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidPositionError, match=r"huge\.ggf: GGF input of 3221225472 bytes is too long"):
            load_ggf(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024**2


def test_a_device_is_read_no_further_than_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ggf, "MAX_TEXT_CHARS", 100_000)
    with pytest.raises(InvalidPositionError, match=r"/dev/zero: GGF input of 100001 bytes is too long"):
        load_ggf("/dev/zero")


def test_more_games_than_the_limit_are_refused_at_the_first_one_past_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """16 MiB of the smallest games used to take 16-47 s and 480 MB: the games are counted too."""
    assert ggf.MAX_GAMES * 15 < ggf.MAX_TEXT_CHARS  # the count limit bites before the size limit
    monkeypatch.setattr(ggf, "MAX_GAMES", 100)
    assert len(read_ggf_games("(;GM[Othello];)" * 100)) == 100
    with pytest.raises(InvalidPositionError, match=r"GGF game 101 \(from character 1501\): a text of more than 100"):
        read_ggf_games("(;GM[Othello];)" * 101 + "(;junk")


def test_the_files_own_troubles_stay_os_errors_naming_it(tmp_path: Path) -> None:
    """Class 5, for GGF: a missing file, a folder."""
    with pytest.raises(FileNotFoundError, match=r"missing\.ggf"):
        load_ggf(tmp_path / "missing.ggf")
    with pytest.raises(IsADirectoryError, match=str(tmp_path).replace("/", ".")):
        load_ggf(tmp_path)
