"""The opening book: its values are those of its tree, symmetric positions share one entry,
a bad file is refused naming it, the engine's levels 5-7 play from it with variety, and it
is read with the standard library on first use.

A small book is built here from the 320 games of the shipped WTHOR sample (a few seconds);
the tests of the engine's use of the book read the shipped one."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from reversi_widget import BLACK, WHITE, Board, Engine, InvalidPositionError, Rules, book
from reversi_widget.book import (
    CLOSE,
    NO_VALUE,
    SQUARE_IMAGES,
    Book,
    BookMove,
    canonical,
    images,
    load_book,
    read_book,
)
from reversi_widget.geometry import geometry, squares_of
from reversi_widget.wthor_data import SAMPLE
from tests.support import play_random

GEO = geometry(8)


SMALL = ["--data", str(SAMPLE), "--min-games", "2", "--max-ply", "14", "--depth", "3", "--quiet"]


def build(out: Path) -> Book:
    """A small book of the 320 sample games (positions of 2+ games, 14 plies, depth 3)."""
    assert book.main(["build", *SMALL, "--out", str(out)]) == 0
    return read_book(out)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Book:
    return build(tmp_path_factory.mktemp("book") / "small.bin")


def board_of(p: int, o: int, turn: int = BLACK) -> Board:
    """A board with ``p`` to move (as ``turn``) against ``o``."""
    black, white = (p, o) if turn == BLACK else (o, p)
    cells = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(64))
    return Board(f"{cells} {'X' if turn == BLACK else 'O'}")


def entries(small: Book) -> list[tuple[int, int]]:
    return list(zip(small.movers, small.opponents, strict=True))


# -- symmetry --------------------------------------------------------------------------


def test_the_eight_symmetries_move_squares_as_the_board_turns() -> None:
    for s in range(8):
        for sq in range(64):
            row, col = divmod(sq, 8)
            if s & 1:
                col = 7 - col
            if s & 2:
                row = 7 - row
            if s & 4:
                row, col = col, row
            assert SQUARE_IMAGES[s][sq] == row * 8 + col
            # and a bitboard's image is its squares' images
    rng = random.Random(5)
    for _ in range(200):
        x = rng.getrandbits(64)
        for s, image in enumerate(images(x)):
            assert image == sum(1 << SQUARE_IMAGES[s][sq] for sq in range(64) if x >> sq & 1)


def test_the_symmetries_work_alike_on_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(6)
    values = [rng.getrandbits(64) for _ in range(50)]
    array = np.array(values, dtype=np.uint64)
    for s, image in enumerate(cast(Any, images)(array)):  # the symmetries take numpy arrays too
        assert [int(v) for v in image] == [images(v)[s] for v in values]
    assert [int(v) for v in array] == values  # the caller's array is left alone


def test_symmetric_positions_share_one_entry_and_give_the_same_moves_turned(small: Book) -> None:
    rng = random.Random(7)
    keys = entries(small)
    checked = 0
    for p, o in [keys[0], *rng.sample(keys, 60)]:
        row = small.index(p, o)
        assert row is not None and (small.movers[row], small.opponents[row]) == (p, o)  # stored as its key
        turn = BLACK if (p | o).bit_count() % 2 == 0 else WHITE
        base = small.lookup(board_of(p, o, turn))
        assert base, "every book position has moves"
        for s, (ip, io) in enumerate(zip(images(p), images(o), strict=True)):
            assert small.index(ip, io) == row
            assert canonical(ip, io)[0] == (p, o)
            turned = small.lookup(board_of(ip, io, turn))
            expected = {(SQUARE_IMAGES[s][cast(int, m.move.square)], m.value, m.games, m.in_book) for m in base}
            assert {(m.move.square, m.value, m.games, m.in_book) for m in turned} == expected
            checked += 1
    assert checked == 61 * 8


def test_the_start_has_four_equal_moves_in_every_book(small: Book) -> None:
    moves = small.lookup(Board())
    assert sorted(str(m.move) for m in moves) == ["c4", "d3", "e6", "f5"]
    assert len({(m.value, m.games) for m in moves}) == 1
    assert all(m.in_book for m in moves)
    assert moves[0].games == small.header["games"]  # every game starts with one of them


# -- the tree --------------------------------------------------------------------------


def test_every_value_is_the_minimax_of_its_children_and_its_move_leaving_the_book(small: Book) -> None:
    """Read from the file: each position's value is the best of its book moves (the negated
    values of the positions they lead to) and of its leave; the leave is a legal move that
    does not stay in the book; every position is reached from the start through the book."""
    keys = entries(small)
    has_parent = {0: False}
    for row, (p, o) in enumerate(keys):
        options = []
        book_moves = 0
        for sq in squares_of(GEO.moves(p, o)):
            f = GEO.flips(p, o, sq)
            child = small.index(o ^ f, p | f | (1 << sq))
            if child is not None:
                options.append(-small.values[child])
                book_moves |= 1 << sq
                has_parent[child] = True
        leave = small.leave_squares[row]
        if leave >= 0:
            assert GEO.moves(p, o) >> leave & 1 and not book_moves >> leave & 1
            options.append(small.leave_values[row])
        else:
            assert small.leave_values[row] == NO_VALUE
            assert book_moves == GEO.moves(p, o)  # no leave only when every move stays in the book
        assert options and small.values[row] == max(options)
    root = small.index(*canonical(0x0000000810000000, 0x0000001008000000)[0])
    orphans = [row for row in range(len(keys)) if row != root and not has_parent.get(row)]
    assert orphans == []
    assert small.header["entries"] == len(keys) > 100


def test_lookup_lists_book_moves_with_their_games_and_the_move_leaving_it(small: Book) -> None:
    board = Board.from_transcript("f5d6")
    moves = small.lookup(board)
    assert [m.value for m in moves] == sorted((m.value for m in moves), reverse=True)
    assert all(m.move in board.legal_moves for m in moves)
    staying = [m for m in moves if m.in_book]
    assert staying and all(m.games >= 2 for m in staying)  # the book keeps positions of 2+ games
    assert sum(m.games for m in staying) <= small.lookup(Board.from_transcript("f5"))[0].games
    leaving = [m for m in moves if not m.in_book]
    assert all(m.games == 0 for m in leaving)
    row = small.index(*book_sides(board))
    assert row is not None
    assert small.values[row] / 100 == moves[0].value
    assert str(moves[0]).startswith(str(moves[0].move))


def book_sides(board: Board) -> tuple[int, int]:
    black, white = board.bitboards()
    return (black, white) if board.turn == BLACK else (white, black)


def test_revalue_keeps_the_tree_and_extend_adds_to_it_reproducibly(small: Book, tmp_path: Path) -> None:
    source = small.path
    again = tmp_path / "again.bin"
    assert book.main(["revalue", "--book", str(source), "--out", str(again), "--depth", "2", "--quiet"]) == 0
    revalued = read_book(again)
    assert entries(revalued) == entries(small) and list(revalued.games) == list(small.games)
    assert revalued.header["depth"] == 2 and list(revalued.values) != list(small.values)
    test_every_value_is_the_minimax_of_its_children_and_its_move_leaving_the_book(revalued)

    outs = [tmp_path / "extended1.bin", tmp_path / "extended2.bin"]
    for out in outs:
        command = ["extend", "--book", str(source), "--out", str(out), "--games", "6", "--seed", "3", "--quiet"]
        assert book.main(command) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()  # the same seed, the same book
    extended = read_book(outs[0])
    assert set(entries(small)) < set(entries(extended))
    added = [row for row, games in enumerate(extended.games) if games == 0]
    assert added and len(extended) == len(small) + len(added)
    [record] = extended.header["extensions"]
    assert record["added"] == len(added) and record["games"] == 6 and record["seed"] == 3
    test_every_value_is_the_minimax_of_its_children_and_its_move_leaving_the_book(extended)
    other = tmp_path / "other.bin"
    command = ["extend", "--book", str(source), "--out", str(other), "--games", "6", "--seed", "4", "--quiet"]
    assert book.main(command) == 0
    assert other.read_bytes() != outs[0].read_bytes()


def test_building_is_deterministic(small: Book, tmp_path: Path) -> None:
    assert build(tmp_path / "twice.bin").path.read_bytes() == small.path.read_bytes()


# -- choosing ----------------------------------------------------------------------------


def test_choose_plays_only_moves_close_to_the_best(small: Book) -> None:
    rng = random.Random(8)
    for p, o in rng.sample(entries(small), 40):
        board = board_of(p, o)
        moves = small.lookup(board)
        for _ in range(5):
            picked = small.pick(board, rng)
            assert picked is not None and picked in moves and picked.value >= moves[0].value - CLOSE
            staying = small.pick(board, rng, leaving=False)
            if staying is None:
                assert not any(m.in_book and m.value >= moves[0].value - CLOSE for m in moves)
            else:
                assert staying.in_book and staying.value >= moves[0].value - CLOSE
            assert small.choose(board, rng) in board.legal_moves


def lines(pick_book: Book | None, seeds: range, plies: int) -> set[tuple[tuple[int, int], ...]]:
    """The lines (canonical positions) played from the start with each seed, by the book
    given, or by the engine at level 7 when None."""
    found = set()
    for seed in seeds:
        board, rng, engine = Board(), random.Random(seed), Engine(7, seed=seed)
        line = []
        for _ in range(plies):
            if pick_book is None:
                move = engine.choose(board)
                assert engine.last_search is not None and engine.last_search.book
            else:
                choice = pick_book.choose(board, rng)
                assert choice is not None
                move = choice
            board.push(move)
            line.append(canonical(*book_sides(board))[0])
        found.add(tuple(line))
    return found


def test_several_seeds_play_more_than_one_line(small: Book) -> None:
    assert len(lines(small, range(12), 4)) > 1


def test_out_of_book_gives_none(small: Book) -> None:
    rng = random.Random(9)
    board = Board()
    while small.lookup(board):
        board.push(rng.choice(list(board.legal_moves)))
    assert small.choose(board, rng) is None and small.pick(board, rng) is None
    assert small.index(*book_sides(board)) is None
    for other in (Board(rules=Rules(size=6)), Board(rules=Rules(goal="inverted")), Board(rules=Rules(start="free"))):
        assert small.lookup(other) == [] and small.choose(other, rng) is None
    finished = Board("X" * 64 + " O")
    assert small.lookup(finished) == []


# -- the file ----------------------------------------------------------------------------


def refused(path: Path, fault: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        read_book(path)
    assert str(path) in str(caught.value) and fault in str(caught.value)


def test_a_damaged_truncated_or_foreign_file_is_refused_naming_it(small: Book, tmp_path: Path) -> None:
    data = small.path.read_bytes()
    cases = {
        "flipped.bin": (data[:-40] + bytes([data[-40] ^ 1]) + data[-39:], "checksum"),
        "header.bin": (data[:40] + bytes([data[40] ^ 4]) + data[41:], "checksum"),
        "short.bin": (data[: len(data) // 2], "cut short"),
        "long.bin": (data + b"\0", "extended"),
        "empty.bin": (b"", "not an opening book"),
        "version.bin": (data[:10] + b"\x09\x00" + data[12:], "version 9"),
        "weights.bin": (
            (Path(book.__file__).parent / "data" / "pattern_weights.bin").read_bytes(),
            "not an opening book",
        ),
    }
    for name, (content, fault) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        refused(path, fault)
    refused(tmp_path / "missing.bin", "cannot be read")


def test_an_engine_with_a_damaged_book_refuses_to_play_rather_than_play_without_it(
    small: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / "opening_book.bin"
    shutil.copy(small.path, damaged)
    damaged.write_bytes(damaged.read_bytes()[:-1])
    monkeypatch.setattr(book, "BOOK_FILE", damaged)
    with pytest.raises(InvalidPositionError, match=str(damaged)):
        Engine(7).choose(Board())
    assert Engine(7, book=False).choose(Board()) in Board().legal_moves
    assert Engine(4).choose(Board()) in Board().legal_moves  # below level 5 the book is never read


# -- the engine and the shipped book ---------------------------------------------------


def test_levels_5_to_7_play_from_the_shipped_book_and_level_4_does_not() -> None:
    board = Board.from_transcript("f5d6c3")
    for level in (5, 6, 7):
        engine = Engine(level, seed=level)
        move = engine.choose(board)
        info = engine.last_search
        assert info is not None and info.book and info.move == move and info.depth == 0 and info.nodes == 0
        entry = {m.move: m for m in book.lookup(board)}[move]
        assert entry.in_book and info.score == round(entry.value * 100)
    for engine in (Engine(4, seed=1), Engine(7, seed=1, book=False)):
        engine.choose(board)
        assert engine.last_search is not None and not engine.last_search.book
    assert repr(Engine(7, book=False)) == "Engine(level=7, book=False)"
    with pytest.raises(ValueError, match="book must be True or False"):
        Engine(7, book=1)  # type: ignore[arg-type]


def test_the_engine_plays_varied_lines_from_the_shipped_book() -> None:
    assert len(lines(None, range(10), 6)) > 1


def test_the_engine_searches_where_the_shipped_book_has_no_move() -> None:
    rng = random.Random(11)
    board = play_random(Board(), rng, 12)
    while book.lookup(board) or board.must_pass():
        board = play_random(Board(), rng, 12)
    engine = Engine(7, time_limit=0.2, seed=1)
    engine.choose(board)
    assert engine.last_search is not None and not engine.last_search.book and engine.last_search.depth > 0
    six = Board(rules=Rules(size=6))
    engine.choose(six)
    assert engine.last_search is not None and not engine.last_search.book


def test_the_shipped_book_holds_the_main_lines() -> None:
    shipped = load_book()
    assert shipped.header["games"] == 127_475 and len(shipped) > 10_000
    for transcript in ("f5d6c3d3c4", "f5f6e6f4", "f5d6c5f4e3"):
        moves = book.lookup(Board.from_transcript(transcript))
        assert moves and moves[0].in_book and moves[0].games > 100, transcript
    assert all(isinstance(m, BookMove) for m in book.lookup(Board()))


def test_the_book_is_read_on_first_use_with_the_standard_library_only() -> None:
    first_use = (
        "from reversi_widget import Board, Engine, book\n"
        "Engine(7)\n"
        "assert not book._books, 'read at import'\n"
        "assert book.lookup(Board.from_transcript('f5d6')) and book._books\n"
    )
    standard_library = (
        "import sys\n"
        "from reversi_widget import Board, book\n"
        "assert book.lookup(Board.from_transcript('f5d6'))\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported'\n"
    )
    env = {**os.environ, "REVERSI_WIDGET_PURE": "1"}
    for code in (first_use, standard_library):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr
