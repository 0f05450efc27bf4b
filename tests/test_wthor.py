"""WTHOR: the reader on small files written here, its refusals, and the replay of the whole
database (127,475 tournament games) in ../shared/data/wthor beside the checkout, as CI has it."""

from __future__ import annotations

import os
import random
import struct
import time
import tracemalloc
from pathlib import Path

import pytest

from reversi_widget import Board, IllegalMoveError, InvalidPositionError, Rules, square_name
from reversi_widget.geometry import geometry
from reversi_widget.squares import SQUARE_NAMES
from reversi_widget.wthor import MAX_RECORDS, WthorRecord, _names, read_wthor, replay
from reversi_widget.wthor_data import WTHOR_SOURCE
from tests.support import as_unprivileged, unavailable

WTHOR_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"
TOTAL_GAMES = 127_475

# -- building small files ---------------------------------------------------------------


def header(records: int, *, n2: int = 0, year: int = 2024, size: int = 8, p2: int = 0, month: int = 5) -> bytes:
    return struct.pack("<BBBBIHHBBBB", 20, 24, month, 17, records, n2, year, size, p2, 24, 0)


def move_byte(name: str) -> int:
    col = "abcdefgh".index(name[0]) + 1
    return 10 * int(name[1]) + col


def record(moves: list[str], *, tournament: int = 1, black: int = 1, white: int = 2, score: int = 0) -> bytes:
    body = bytes(move_byte(m) for m in moves).ljust(60, b"\0")
    return struct.pack("<HHHBB", tournament, black, white, score, score) + body


def name_file(names: list[str], width: int) -> bytes:
    return header(0, n2=len(names), year=0, size=0) + b"".join(n.encode("latin-1").ljust(width, b"\0") for n in names)


def random_game(seed: int, *, want_pass: bool) -> tuple[list[str], Board]:
    """A random finished game (moves without passes, final board); with a pass if asked."""
    rng = random.Random(seed)
    while True:
        board = Board()
        while not board.is_game_over():
            if board.must_pass():
                board.push_pass()
            else:
                board.push(rng.choice(list(board.legal_moves)))
        if not want_pass or any(not m for m in board.move_stack):
            return [str(m) for m in board.move_stack if m], board


def tournament_score(board: Board) -> int:
    """Black's discs with the empties to the winner (R23), the WTHOR convention."""
    outcome = Board(board.to_string(), rules=Rules(scoring="tournament")).outcome()
    assert outcome is not None
    return outcome.black


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with a 3-game file and both name files."""
    games = [random_game(seed, want_pass=seed == 0) for seed in range(3)]
    records = [
        record(moves, tournament=1, black=1 + i, white=3 - i, score=tournament_score(board))
        for i, (moves, board) in enumerate(games)
    ]
    (tmp_path / "WTH_2024.wtb").write_bytes(header(3) + b"".join(records))
    (tmp_path / "WTHOR.JOU").write_bytes(name_file(["???", "Dupont Élise", "Smith Ann", "Nakamura Ken"], 20))
    (tmp_path / "WTHOR.TRN").write_bytes(name_file(["Diverses parties", "Open de Lyon"], 26))
    return tmp_path


# -- reading --------------------------------------------------------------------------


def test_reads_records_with_names_year_moves_and_scores(folder: Path) -> None:
    records = list(read_wthor(folder / "WTH_2024.wtb"))
    assert len(records) == 3
    first = records[0]
    moves, board = random_game(0, want_pass=True)
    assert first.moves == moves
    assert first.black_player == "Dupont Élise" and first.white_player == "Nakamura Ken"
    assert records[1].black_player == "Smith Ann" and records[1].white_player == "Smith Ann"
    assert first.tournament == "Open de Lyon" and first.year == 2024
    assert first.black_score == first.theoretical_score == tournament_score(board)
    assert first.source == "WTH_2024.wtb record 1"


def test_replay_and_to_game_put_the_forced_passes_back(folder: Path) -> None:
    first = next(read_wthor(folder / "WTH_2024.wtb"))
    _, expected = random_game(0, want_pass=True)
    board = replay(first)
    assert board == expected and board.move_stack == expected.move_stack
    assert any(not m for m in board.move_stack)  # the pass is there, though the file leaves it out
    game = first.to_game()
    assert game.moves == expected.move_stack
    assert game.result == (first.black_score, 64 - first.black_score)
    assert (game.black_player, game.white_player, game.event, game.date) == (
        "Dupont Élise",
        "Nakamura Ken",
        "Open de Lyon",
        "2024",
    )
    assert game.metadata["theoretical_score"] == str(first.theoretical_score)


def test_names_fall_back_to_numbers(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    alone = tmp_path_factory.mktemp("alone")
    (alone / "WTH_2024.wtb").write_bytes((folder / "WTH_2024.wtb").read_bytes())
    first = next(read_wthor(alone / "WTH_2024.wtb"))
    assert (first.black_player, first.white_player, first.tournament) == ("player 1", "player 3", "tournament 1")
    # A number past the end of a name file falls back the same way.
    moves, _ = random_game(5, want_pass=False)
    (folder / "WTH_2025.wtb").write_bytes(header(1) + record(moves, tournament=9, black=700, white=2))
    other = next(read_wthor(folder / "WTH_2025.wtb"))
    assert (other.black_player, other.white_player, other.tournament) == ("player 700", "Smith Ann", "tournament 9")


def test_name_tables_are_read_once_per_folder(folder: Path) -> None:
    first = _names(folder)
    assert _names(folder) is first
    players = folder / "WTHOR.JOU"
    players.write_bytes(name_file(["???", "Renamed Player"], 20))
    os.utime(players, ns=(1, 1))  # a changed file is read again, whatever the clock says
    assert _names(folder)[0] == ["???", "Renamed Player"]


def test_record_equality_ignores_the_source() -> None:
    a = WthorRecord("a", "b", "t", 2000, ["f5"], 40, 40, source="x record 1")
    b = WthorRecord("a", "b", "t", 2000, ["f5"], 40, 40, source="y record 9")
    assert a == b


# -- refusals -------------------------------------------------------------------------


def test_refuses_a_truncated_file_naming_the_record(folder: Path) -> None:
    path = folder / "WTH_2024.wtb"
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb: .*3 records.*record 3 is cut short"):
        read_wthor(path)


def test_refuses_extra_bytes(folder: Path) -> None:
    path = folder / "WTH_2024.wtb"
    path.write_bytes(path.read_bytes() + b"\0" * 68)
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb: .*need 220 bytes \(68 bytes follow record 3\)"):
        read_wthor(path)


def test_refuses_missing_records(folder: Path) -> None:
    path = folder / "WTH_2024.wtb"
    path.write_bytes(path.read_bytes()[: 16 + 68])
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb: .*\(records 2 to 3 are missing\)"):
        read_wthor(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x14\x18\x05", "too short for the 16-byte WTHOR header"),
        (header(0, month=13), "bad header: creation date .* is not a date"),
        (header(0, n2=5), "bad header: N2 is 5"),
        (header(0, size=10), "10x10 WTHOR files are not supported"),
        (header(0, size=6), "bad header: board size P1 is 6"),
        (header(0, p2=1), "solitaire files"),
    ],
)
def test_refuses_bad_headers(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "WTH_BAD.wtb"
    path.write_bytes(data)
    with pytest.raises(InvalidPositionError, match=rf"WTH_BAD\.wtb: .*{message}"):
        read_wthor(path)


def test_refuses_a_move_byte_that_is_not_a_square(tmp_path: Path) -> None:
    good = record(["f5", "d6"])
    bad = bytearray(record(["f5", "d6", "c3", "d3"]))
    bad[8 + 2] = 19  # row 1, column 9: off the board
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(2) + good + bytes(bad))
    records = read_wthor(path)
    assert next(records).moves == ["f5", "d6"]  # the good record comes out first
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb record 2: move 3 is byte 19, not a square"):
        next(records)


def test_refuses_moves_after_the_end_marker(tmp_path: Path) -> None:
    bad = bytearray(record(["f5", "d6"]))
    bad[8 + 5] = move_byte("c3")
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(1) + bytes(bad))
    with pytest.raises(InvalidPositionError, match=r"record 1: move bytes continue after the 0 .* move 3"):
        list(read_wthor(path))


def test_refuses_impossible_scores(tmp_path: Path) -> None:
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(1) + record(["f5"], score=65))
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb record 1: scores 65 and 65"):
        list(read_wthor(path))


def test_refuses_a_malformed_name_file(folder: Path) -> None:
    (folder / "WTHOR.TRN").write_bytes(name_file(["Open"], 26)[:-3])
    with pytest.raises(InvalidPositionError, match=r"WTHOR\.TRN: .*1 names of 26 bytes"):
        read_wthor(folder / "WTH_2024.wtb")


def test_an_illegal_move_names_file_record_and_move(tmp_path: Path) -> None:
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(1) + record(["f5", "d6", "a1"]))
    (rec,) = read_wthor(path)
    with pytest.raises(IllegalMoveError, match=r"WTH_2024\.wtb record 1, move 3 \(a1\)"):
        replay(rec)
    with pytest.raises(IllegalMoveError, match=r"record 1, move 3"):
        rec.to_game()


# -- the whole database ---------------------------------------------------------------


def wthor_files() -> list[Path]:
    if not WTHOR_DIR.is_dir():
        unavailable(
            f"the whole WTHOR database is missing: expected it in {WTHOR_DIR} (the shared folder beside the "
            f"checkout, as in CI; the files are free to download from {WTHOR_SOURCE})"
        )
    return sorted(WTHOR_DIR.glob("*.wtb"))


@pytest.mark.slow
def test_every_wthor_game_replays_and_every_finished_score_follows_tournament_scoring() -> None:
    """Replay all 127,475 games on the raw bitboard core, with implied passes; check R23 scoring."""
    files = wthor_files()
    assert len(files) == 45
    geo = geometry(8)
    moves, flips = geo.moves, geo.flips
    square_of = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
    start_black, start_white = Board().bitboards()
    games = finished = unfinished = passes = 0
    draws_with_empties: list[tuple[int, int, int]] = []
    unfinished_lengths: list[int] = []
    samples: list[tuple[WthorRecord, int, int, int]] = []
    began = time.perf_counter()
    for path in files:
        for rec in read_wthor(path):
            games += 1
            p, o, black_to_move = start_black, start_white, True  # p: the side to move
            passes_before = passes
            for number, name in enumerate(rec.moves, 1):
                sq = square_of[name]
                bit = 1 << sq
                flipped = 0 if (p | o) & bit else flips(p, o, sq)
                if not flipped:
                    # Legal only as an implied pass: the mover has no move and the opponent can play here.
                    if moves(p, o) or (p | o) & bit or not (flipped := flips(o, p, sq)):
                        pytest.fail(f"{rec.source}: move {number} ({name}) is illegal")
                    p, o, black_to_move = o, p, not black_to_move
                    passes += 1
                p, o, black_to_move = o ^ flipped, p | flipped | bit, not black_to_move
            black, white = (p, o) if black_to_move else (o, p)
            if games % 251 == 0:
                samples.append((rec, black, white, passes - passes_before))
            if moves(p, o) or moves(o, p):
                unfinished += 1
                unfinished_lengths.append(len(rec.moves))
                continue
            finished += 1
            b, w = black.bit_count(), white.bit_count()
            empties = 64 - b - w
            if b == w and empties:
                # The database splits the empties of a draw evenly (R23 would leave the draw as it is).
                draws_with_empties.append((b, w, rec.black_score))
                assert rec.black_score == b + empties // 2, rec.source
            else:
                expected = b + empties if b > w else b  # R23: the empties go to the winner
                assert rec.black_score == expected, f"{rec.source}: board {b}-{w}, recorded {rec.black_score}"
    elapsed = time.perf_counter() - began
    print(
        f"\nWTHOR replay: {games} games in {elapsed:.1f} s; {finished} finished, {unfinished} unfinished, "
        f"{len(draws_with_empties)} draws with empties {draws_with_empties}, {passes} implied passes"
    )
    assert games == TOTAL_GAMES
    assert finished + unfinished == TOTAL_GAMES
    assert 300 <= unfinished <= 500  # resignations and adjudications
    assert all(20 <= n < 60 for n in unfinished_lengths)  # stopped early, yet well into the game
    assert draws_with_empties  # the split convention is really exercised, not vacuously true
    assert all(score != b for b, _, score in draws_with_empties)
    assert passes > games // 2  # implied passes are common in real endgames

    # The Board-based path of the module agrees with the fast loop on a sample of games.
    assert len(samples) > 500
    for rec, black, white, game_passes in samples:
        board = replay(rec)
        assert board.bitboards() == (black, white), rec.source
        assert sum(1 for m in board.move_stack if not m) == game_passes, rec.source
        game = rec.to_game()
        assert game.result == (rec.black_score, 64 - rec.black_score)
        assert len([m for m in game.moves if m]) == len(rec.moves)
        outcome = Board(board.to_string(), rules=Rules(scoring="tournament")).outcome()
        if outcome is not None and outcome.winner is not None:
            assert outcome.black == rec.black_score, rec.source


def test_move_bytes_are_row_then_column_from_a1(tmp_path: Path) -> None:
    # Corners as raw bytes (the reader does not judge legality, replay does): a1 = 11, h1 = 18,
    # a8 = 81, h8 = 88, the same corners as the project's square names.
    raw = struct.pack("<HHHBB", 0, 0, 0, 0, 0) + bytes([11, 18, 81, 88]).ljust(60, b"\0")
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(1) + raw)
    (rec,) = read_wthor(path)
    assert rec.moves == ["a1", "h1", "a8", "h8"] == [square_name(sq) for sq in (0, 7, 56, 63)]


# -- hostile files (issue 14: classes 5 and 9) -------------------------------------------------


def test_a_names_file_that_is_there_but_unusable_is_refused_naming_it(folder: Path) -> None:
    """A missing name file leaves the names as numbers (above); one that is there but cannot
    be read is reported, not skipped: the names would silently be numbers."""
    (folder / "WTHOR.JOU").unlink()
    (folder / "WTHOR.JOU").mkdir()
    with pytest.raises(InvalidPositionError, match=r"WTHOR\.JOU: is a folder: the names .* move it away"):
        read_wthor(folder / "WTH_2024.wtb")
    (folder / "WTHOR.JOU").rmdir()
    # A header that promises more than the file holds is refused before the names are read.
    with open(folder / "WTHOR.JOU", "wb") as handle:
        handle.write(name_file(["a", "b"], 20))
        handle.truncate(3 * 1024**3)
    with pytest.raises(InvalidPositionError, match=r"WTHOR\.JOU: 3221225472 bytes, but the header's 2 names"):
        read_wthor(folder / "WTH_2024.wtb")


def test_an_unreadable_names_file_is_refused_naming_it(shared_folder: Path) -> None:
    game = shared_folder / "WTH_2024.wtb"
    moves, _ = random_game(1, want_pass=False)
    game.write_bytes(header(1) + record(moves))
    (shared_folder / "WTHOR.TRN").write_bytes(name_file(["Open"], 26))
    (shared_folder / "WTHOR.TRN").chmod(0)
    refused = as_unprivileged(lambda: next(read_wthor(game)))
    assert refused.startswith("InvalidPositionError: ") and "WTHOR.TRN: Permission denied" in refused, refused


def test_the_game_files_own_troubles_stay_os_errors_naming_it(tmp_path: Path, shared_folder: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"WTH_1999\.wtb"):
        read_wthor(tmp_path / "WTH_1999.wtb")
    (tmp_path / "WTH_2000.wtb").mkdir()
    with pytest.raises(IsADirectoryError, match=r"WTH_2000\.wtb"):
        read_wthor(tmp_path / "WTH_2000.wtb")
    with pytest.raises(InvalidPositionError, match="zero: not a regular file"):
        read_wthor("/dev/zero")
    locked = shared_folder / "WTH_2001.wtb"
    locked.write_bytes(header(0))
    locked.chmod(0)
    refused = as_unprivileged(lambda: read_wthor(locked))
    assert refused.startswith("PermissionError: ") and "WTH_2001.wtb" in refused, refused


def test_a_huge_file_is_refused_from_its_header_and_size(tmp_path: Path) -> None:
    """Class 9: the header says how many records to expect; the file's size is looked at
    before any record is read (3 GB used to end in a MemoryError)."""
    path = tmp_path / "WTH_2024.wtb"
    with open(path, "wb") as handle:
        handle.write(header(3))
        handle.truncate(3 * 1024**3)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidPositionError, match=r"3221225472 bytes, but the header's 3 records need 220"):
            read_wthor(path)
        too_many = MAX_RECORDS + 1
        with open(path, "wb") as handle:
            handle.write(header(too_many))
            handle.truncate(16 + 68 * too_many)
        with pytest.raises(InvalidPositionError, match=r"1,000,001 records is more than the 1,000,000 .* split"):
            read_wthor(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024**2


def test_records_are_read_a_block_at_a_time(tmp_path: Path) -> None:
    """Reading a file costs the same memory whatever its size: 30,000 records (2 MB) here."""
    moves, _ = random_game(2, want_pass=False)
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(30_000) + record(moves) * 30_000)
    records = read_wthor(path)
    tracemalloc.start()
    try:
        count = sum(1 for _ in records)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 30_000 and peak < 600_000  # one block of 4,096 records is 278 KB


def test_a_file_cut_while_it_is_read_is_refused(tmp_path: Path) -> None:
    moves, _ = random_game(3, want_pass=False)
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(header(5_000) + record(moves) * 5_000)
    records = read_wthor(path)  # checked against the whole file...
    path.write_bytes(header(5_000) + record(moves) * 10)  # ...which then shrinks
    with pytest.raises(InvalidPositionError, match=r"WTH_2024\.wtb: the file ends in record 11 of 5000"):
        list(records)
