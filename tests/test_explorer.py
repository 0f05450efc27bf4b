"""The opening explorer: its counts against a brute-force count over the games, symmetries,
incremental and parallel builds (processes and a real dask cluster), and bad input."""

from __future__ import annotations

import concurrent.futures
import functools
import random
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Game, InvalidPositionError, ReversiError, Rules, WthorRecord, explorer, read_wthor
from reversi_widget.explorer.symmetry import canonical, orient
from reversi_widget.records import GameLog
from reversi_widget.search.patterns import SYMMETRIES
from reversi_widget.squares import BLACK, square_name
from reversi_widget.wthor import replay
from reversi_widget.wthor_data import SAMPLE
from tests.support import unavailable

DEPTH = 10


@functools.cache
def year() -> tuple[WthorRecord, ...]:
    return tuple(read_wthor(SAMPLE / "WTH_2021.wtb"))


def turned(record: WthorRecord, symmetry: int) -> WthorRecord:
    """A record played in another orientation, its squares mapped square by square."""
    names = [turn_name(name, symmetry) for name in record.moves]
    return WthorRecord(
        record.black_player,
        record.white_player,
        record.tournament,
        record.year - symmetry,  # a spread of years
        names,
        record.black_score,
        record.theoretical_score,
        source=f"{record.source} turned {symmetry}",
    )


def image(bits: int, symmetry: int) -> int:
    out = 0
    for square in range(64):
        if bits >> square & 1:
            r, c = SYMMETRIES[symmetry](*divmod(square, 8))
            out |= 1 << (r * 8 + c)
    return out


START = Board().bitboards()
#: The symmetries that keep the start position (the others swap its colours): games turned by
#: them are still games from the start.
START_SYMMETRIES = [s for s in range(8) if image(START[0], s) == START[0] and image(START[1], s) == START[1]]


def plies(record: WthorRecord, depth: int) -> list[tuple[int, int, bool, int | None]]:
    """(black, white, Black to move, next square or None for a pass) while fewer than
    ``depth`` discs were placed: the positions a brute-force count looks at."""
    final = replay(record)
    board = Board()
    out = []
    for move in final.move_stack:
        black, white = board.bitboards()
        if (black | white).bit_count() - 4 < depth:
            out.append((black, white, board.turn == BLACK, move.square))
        board.push(move)
    return out


def brute_force(
    games: list[tuple[WthorRecord, list[tuple[int, int, bool, int | None]]]], board: Board
) -> dict[frozenset[str], list[Any]]:
    """For each class of moves equivalent in ``board``'s position: games, points x2, margin sum,
    years; found by comparing every position of every game under every symmetry."""
    black, white = board.bitboards()
    to_move = board.turn == BLACK
    same = [s for s in range(8) if image(black, s) == black and image(white, s) == white]
    found: dict[frozenset[str], list[Any]] = defaultdict(lambda: [0, 0, 0, set()])
    for game, positions in games:
        for b, w, turn, square in positions:
            if (b | w).bit_count() != (black | white).bit_count():
                continue  # a quick filter: a symmetry keeps the number of discs
            hits = [s for s in range(8) if turn == to_move and image(b, s) == black and image(w, s) == white]
            if not hits:
                continue
            if square is None:
                names = frozenset({"pass"})
            else:
                r, c = SYMMETRIES[hits[0]](*divmod(square, 8))
                names = frozenset(square_name(image(1 << (r * 8 + c), t).bit_length() - 1) for t in same)
            entry = found[names]
            entry[0] += 1
            margin = 2 * game.black_score - 64
            entry[1] += 2 if margin > 0 else 1 if margin == 0 else 0
            entry[2] += margin
            entry[3].add(game.year)
    return dict(found)


def board_after(record: WthorRecord, ply: int) -> Board:
    final = replay(record)
    board = Board()
    for move in final.move_stack[:ply]:
        board.push(move)
    return board


def dump(path: Path) -> tuple[list[Any], list[Any]]:
    with sqlite3.connect(path) as conn:
        moves = conn.execute("SELECT * FROM moves ORDER BY position, move").fetchall()
        games = conn.execute("SELECT id, black, white, event, year, moves FROM games ORDER BY id").fetchall()
    return moves, games


# -- symmetries ---------------------------------------------------------------------------


def test_the_eight_symmetries_are_those_of_the_square() -> None:
    mine = {tuple(orient(square, s) for square in range(64)) for s in range(8)}
    reference = {tuple(image(1 << square, s).bit_length() - 1 for square in range(64)) for s in range(8)}
    assert mine == reference and len(mine) == 8


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_canonical_is_the_least_image_square_by_square(black: int, white: int) -> None:
    white &= ~black
    images = [(image(black, s) << 64 | image(white, s), s) for s in range(8)]
    pair, symmetries = canonical(black, white)
    least = min(images)[0]
    assert pair == least
    assert set(symmetries) == {s for value, s in images if value == least}
    assert all(image(black, s) << 64 | image(white, s) == pair for s in symmetries)


# -- counts -------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_every_count_equals_a_brute_force_count(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    base = rng.sample(year(), 16)
    games = base + [turned(record, rng.choice(START_SYMMETRIES[1:])) for record in rng.sample(base, 8)]
    path = tmp_path_factory.mktemp("explorer") / "index.sqlite"
    index = explorer.build(games, path, depth=DEPTH, progress=False)
    assert index.report is not None and index.report.added == len(games)
    replayed = [(game, plies(game, DEPTH)) for game in games]
    probes = [Board(), board_after(games[0], 1)]  # symmetric positions: the start, and after f5
    for _ in range(6):
        game = rng.choice(games)
        ply = rng.randrange(0, DEPTH + 2)
        board = board_after(game, min(ply, len(game.moves)))
        probes.append(mirrored(board, rng.randrange(8)))
    for board in probes:
        table = index.lookup(board)
        expected = brute_force(replayed, board)
        assert table.beyond == ((sum(board.bitboards()[i].bit_count() for i in (0, 1)) - 4) >= DEPTH)
        got = {}
        for stats in table:
            names = next(key for key in expected if stats.move in key)
            games_, points, margin, years = expected[names]
            got[names] = stats.games
            assert stats.games == games_
            assert stats.black_score == points / (2 * games_)
            assert stats.mean_margin == margin / games_
            assert (stats.first_year, stats.last_year) == (min(years), max(years))
            assert len(stats.examples) == min(3, games_)
            assert [e.year or 0 for e in stats.examples] == sorted((e.year or 0 for e in stats.examples), reverse=True)
            for example in stats.examples:  # each example passes through the board and plays the move
                through = Board.from_transcript(example.transcript[: 2 * board_discs(board)])
                assert through.turn == board.turn
                if example.through_board:
                    assert through.bitboards() == board.bitboards()
                    assert stats.move == "pass" or example.transcript[2 * board_discs(board) :].startswith(stats.move)
                else:  # a mirror image of the board that the start cannot reach this way round
                    turns = [s for s in range(8) if mirrored(through, s).bitboards() == board.bitboards()]
                    assert turns and not set(turns) & set(START_SYMMETRIES)
        assert got == {names: entry[0] for names, entry in expected.items()}
    index.close()


def mirrored(board: Board, symmetry: int) -> Board:
    """The position under a symmetry (any of the eight: it may not be reachable from the start)."""
    black, white = (image(bits, symmetry) for bits in board.bitboards())
    cells = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(64))
    return Board(f"{cells} {'X' if board.turn == BLACK else 'O'}")


def board_discs(board: Board) -> int:
    black, white = board.bitboards()
    return (black | white).bit_count() - 4


def test_the_tiger_is_found_in_every_orientation(tmp_path: Path) -> None:
    index = explorer.build(SAMPLE, tmp_path / "year.sqlite", progress=False)
    tiger = Board.from_transcript("f5d6c3d3c4")
    table = index.lookup(tiger)
    written = sum(1 for g in year() if "".join(g.moves).startswith("f5d6c3d3c4"))
    assert table.games >= written > 0  # and the games that reached it by another order, or mirrored
    assert len(canonical(*tiger.bitboards())[1]) == 1  # not a symmetric position: one way to show each move
    for symmetry in range(8):
        other = index.lookup(mirrored(tiger, symmetry))
        assert [(s.move, s.games, s.black_score) for s in other] == [
            (turn_name(s.move, symmetry), s.games, s.black_score) for s in table
        ]


def turn_name(name: str, symmetry: int) -> str:
    row, col = int(name[1]) - 1, ord(name[0]) - ord("a")
    r, c = SYMMETRIES[symmetry](row, col)
    return square_name(r * 8 + c)


# -- building -----------------------------------------------------------------------------


def test_an_incremental_build_equals_a_full_build_and_counts_nothing_twice(tmp_path: Path) -> None:
    games = list(year())
    full = explorer.build(games, tmp_path / "full.sqlite", depth=DEPTH, progress=False)
    part = explorer.build(games[:200], tmp_path / "part.sqlite", depth=DEPTH, progress=False)
    report = part.add(games[150:] + games[:10], progress=False)
    assert (report.added, report.already_indexed, report.skipped) == (120, 60, ())
    again = explorer.build(games, tmp_path / "part.sqlite", progress=False)
    assert again.report is not None and (again.report.added, again.report.already_indexed) == (0, 320)
    for index in (full, part, again):
        index.close()
    assert dump(tmp_path / "full.sqlite") == dump(tmp_path / "part.sqlite")


def test_a_game_whose_id_is_taken_by_another_game_is_skipped_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reversi_widget.explorer import sources

    first, second = year()[:2]
    index = explorer.build([first], tmp_path / "index.sqlite", depth=DEPTH, progress=False)
    taken = next(sources.played_games([first]))
    assert isinstance(taken, sources.Played)
    monkeypatch.setattr(sources, "game_id", lambda *args: taken.id)  # what a collision of two ids would do
    report = index.add([second], progress=False)
    assert (report.added, report.already_indexed) == (0, 0)
    assert [(s.where, s.why) for s in report.skipped] == [
        (second.source, f"its id {taken.id} is that of another game indexed")
    ]


def test_a_game_log_of_the_same_games_adds_nothing(tmp_path: Path) -> None:
    index = explorer.build(SAMPLE / "WTH_2021.wtb", tmp_path / "index.sqlite", depth=DEPTH, progress=False)
    log = GameLog(tmp_path / "games.sqlite")
    log.import_wthor(SAMPLE / "WTH_2021.wtb")
    report = index.add(log, progress=False)
    assert (report.added, report.already_indexed) == (0, 320)
    games = [record.to_game() for record in year()[:5]]
    assert index.add(games, progress=False).added == 0


def test_processes_and_a_dask_cluster_build_the_same_index(tmp_path: Path) -> None:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        unavailable("dask.distributed is not installed (it is in the test extra)")
    games = list(year())
    inline = explorer.build(games, tmp_path / "inline.sqlite", depth=DEPTH, progress=False)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        processes = explorer.build(games, tmp_path / "processes.sqlite", pool, depth=DEPTH, progress=False)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        seen: list[int] = []
        on_dask = explorer.build(
            games,
            tmp_path / "dask.sqlite",
            client.get_executor(),
            depth=DEPTH,
            progress=lambda done, total: seen.append(done),
        )
    assert seen[-1] == len(games) and seen == sorted(seen)
    for index in (inline, processes, on_dask):
        index.close()
    assert dump(tmp_path / "dask.sqlite") == dump(tmp_path / "processes.sqlite") == dump(tmp_path / "inline.sqlite")


# -- bad input ----------------------------------------------------------------------------


def test_a_game_that_does_not_replay_is_skipped_and_named(tmp_path: Path) -> None:
    good = list(year()[:20])
    bad = WthorRecord("Ann", "Bob", "Cup", 2020, ["f5", "f5"], 40, 40, source="hand-made record 1")
    worse = WthorRecord("Ann", "Bob", "Cup", 2020, ["f5", "z9"], 40, 40, source="hand-made record 2")
    report_index = explorer.build([*good, bad, worse], tmp_path / "index.sqlite", depth=DEPTH, progress=False)
    report = report_index.report
    assert report is not None and report.added == 20
    assert [(s.where, s.why) for s in report.skipped] == [
        ("hand-made record 1", "move 2 (f5) is not legal"),
        ("hand-made record 2", "move 2 is not a square of the 8x8 board"),
    ]
    assert "hand-made record 1" in str(report) and len(report_index) == 20


def test_other_variants_are_skipped_at_build_and_refused_at_lookup(tmp_path: Path) -> None:
    small = Game.from_transcript("", rules=Rules(size=6), result=(18, 18))
    inverted = Game.from_transcript("f5d6", rules=Rules(goal="inverted"), result=(30, 34))
    index = explorer.build([small, inverted, *year()[:3]], tmp_path / "index.sqlite", depth=DEPTH, progress=False)
    assert index.report is not None and index.report.added == 3
    assert ["6x6 standard classic" in s.why for s in index.report.skipped] == [True, False]
    with pytest.raises(InvalidPositionError, match="6x6 board is not in it"):
        index.lookup(Board(rules=Rules(size=6)))
    with pytest.raises(InvalidPositionError, match="inverted, a variant it was not built for"):
        index.lookup(Board(rules=Rules(goal="inverted")))
    with pytest.raises(TypeError, match="lookup takes a Board"):
        index.lookup("f5d6")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not even an SQLite database"),
        (b"hello, world\n" * 100, "not even an SQLite database"),
        (b"SQLite format 3\x00" + bytes(range(256)) * 8, "not a readable opening index|damaged"),
    ],
)
def test_a_damaged_or_foreign_file_is_refused_naming_it(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "broken.sqlite"
    path.write_bytes(content)
    with pytest.raises(InvalidPositionError, match=message) as caught:
        explorer.open(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == content


def test_a_game_log_is_not_an_index(tmp_path: Path) -> None:
    GameLog(tmp_path / "games.sqlite").add(year()[0].to_game())
    with pytest.raises(InvalidPositionError, match="not an opening index") as caught:
        explorer.open(tmp_path / "games.sqlite")
    assert "games.sqlite" in str(caught.value)
    with pytest.raises(InvalidPositionError, match="no such index"):
        explorer.open(tmp_path / "missing.sqlite")


def test_a_truncated_index_is_refused_and_a_failed_build_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    explorer.build(year()[:50], path, depth=DEPTH, progress=False).close()
    data = path.read_bytes()
    before = dump(path)
    (tmp_path / "cut.sqlite").write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidPositionError, match=r"cut\.sqlite"):
        explorer.open(tmp_path / "cut.sqlite").lookup(Board.from_transcript("f5d6c3"))
    with pytest.raises(TypeError, match="item 2 is a int"):
        explorer.build([year()[0], 7], tmp_path / "new.sqlite", progress=False)  # type: ignore[list-item]
    assert not (tmp_path / "new.sqlite").exists()
    with pytest.raises(ReversiError, match="cannot be extended to 12"):
        explorer.build(year()[:5], path, depth=12, progress=False)
    assert dump(path) == before


def test_lookups_beyond_the_depth_and_out_of_the_book(tmp_path: Path) -> None:
    index = explorer.build(year()[:30], tmp_path / "index.sqlite", depth=DEPTH, progress=False)
    deep = board_after(year()[0], DEPTH)
    assert index.lookup(deep) == [] and index.lookup(deep).beyond
    board = Board.from_transcript("f5f4e3f6d3")  # no one plays this line in the sample
    if index.lookup(board) == []:
        assert not index.lookup(board).beyond
        assert "left the book" in index.lookup(board)._repr_html_()
    html = index.lookup(Board())._repr_html_()
    assert "<table>" in html and "f5" in html and "Black" in html
    assert "games: 30" in index._repr_html_()


def test_a_ggf_file_gives_the_same_counts_as_its_records(tmp_path: Path) -> None:
    from reversi_widget.ggf import write_ggf_games

    records = list(year()[:40])
    (tmp_path / "games.ggf").write_text(write_ggf_games([record.to_game() for record in records]))
    from_ggf = explorer.build(tmp_path / "games.ggf", tmp_path / "ggf.sqlite", depth=DEPTH, progress=False)
    from_records = explorer.build(records, tmp_path / "records.sqlite", depth=DEPTH, progress=False)
    assert from_ggf.report is not None and from_ggf.report.added == 40
    for board in (Board(), Board.from_transcript("f5d6"), Board.from_transcript("f5f6e6f4")):
        assert [(m.move, m.games, m.black_score, m.mean_margin) for m in from_ggf.lookup(board)] == [
            (m.move, m.games, m.black_score, m.mean_margin) for m in from_records.lookup(board)
        ]
