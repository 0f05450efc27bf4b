"""GameLog: finished games in SQLite (R25), its questions, its imports, and its durability."""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import json
import os
import random
import signal
import sqlite3
import struct
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_widget import Board, InvalidMoveError, InvalidPositionError, ReversiError, Rules
from reversi_widget.game import Game
from reversi_widget.ggf import write_ggf
from reversi_widget.records import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameLog,
    GameLogBusyError,
    GameLogError,
    analyse_games,
)
from reversi_widget.widget import ReversiWidget
from reversi_widget.wthor_data import SAMPLE, wthor_years
from tests.support import as_unprivileged, play_random

EVIL = "<script>alert(1)</script>"
PLAYERS = ["Ann", "Bob", "Cy", EVIL]
REPO = Path(__file__).resolve().parent.parent


@functools.cache
def random_game(seed: int, size: int = 8, goal: str = "classic") -> Game:
    """A finished random game, with players and a date chosen from the seed."""
    rng = random.Random(seed)
    board = play_random(Board(rules=Rules(size=size, goal=goal)), rng)
    black, white = rng.sample(PLAYERS, 2)
    return Game.from_board(
        board,
        black_player=black,
        white_player=white,
        event=f"club night {seed % 3}",
        date=f"{2020 + seed % 3}-05-0{1 + seed % 9}",
    )


def games(count: int, start: int = 0) -> list[Game]:
    return [random_game(seed) for seed in range(start, start + count)]


def same_game(a: Game, b: Game) -> bool:
    return (a.moves, a.rules, a.black_player, a.white_player, a.event, a.date, a.result) == (
        b.moves,
        b.rules,
        b.black_player,
        b.white_player,
        b.event,
        b.date,
        b.result,
    )


def winner_of(game: Game) -> str:
    assert game.result is not None
    black, white = game.result
    if black == white:
        return "draw"
    return "black" if (black > white) == (game.rules.goal == "classic") else "white"


# -- recording and reading back ------------------------------------------------------------


def test_add_get_iterate_round_trip(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    recorded = games(12)
    first = log.add(recorded[0])
    rest = log.add_many(recorded[1:])
    assert [first, *rest] == list(range(1, 13))
    assert len(log) == 12
    assert all(same_game(a, b) for a, b in zip(recorded, log, strict=True))
    back = log.get(5)
    assert same_game(back, recorded[4])
    assert back.metadata["id"] == "5"
    with pytest.raises(KeyError):
        log.get(99)
    log.close()
    reopened = GameLog(tmp_path / "games.db")  # the data is in the file
    assert len(reopened) == 12 and same_game(reopened.get(12), recorded[11])


def test_file_markers_and_modes(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameLog(path).add(random_game(1))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    row = conn.execute("SELECT moves, plies, winner, source FROM games").fetchone()
    conn.close()
    game = random_game(1)
    assert row[0] == " ".join(str(m) if m else "pass" for m in game.moves)
    assert row[1] == len(game.moves) and row[2] == winner_of(game)


def test_passes_custom_rules_and_metadata_survive(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    # a 4x4 inverted game with a pass, from a custom start, with the disc supply
    for seed in range(500):
        rules = Rules(size=4, goal="inverted", supply=8)
        board = play_random(Board(rules=rules), random.Random(seed))
        if any(not m for m in board.move_stack):
            break
    assert any(not m for m in board.move_stack), "some 4x4 game has a pass"
    game = Game.from_board(
        board, black_player="Zoë", white_player="W", date="2024-01-01", metadata={"note": "ünïcode", "id": "x"}
    )
    custom = Board.from_string("-" * 5 + "XO" + "-" * 2 + "OX" + "-" * 5 + " X", rules=Rules(size=4))
    custom_game = Game.from_board(play_random(custom, random.Random(3)), date="1999")
    ids = log.add_many([game, custom_game], source="tests")
    back, back_custom = log.get(ids[0]), log.get(ids[1])
    assert same_game(back, game) and same_game(back_custom, custom_game)
    assert back.metadata == {"note": "ünïcode", "id": str(ids[0]), "source": "tests"}
    assert back.transcript(passes=True) == game.transcript(passes=True)
    assert back_custom.rules.start == custom_game.rules.start


def test_a_game_without_a_date_is_dated_today(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    game = Game.from_board(play_random(Board(), random.Random(7)))
    game_id = log.add(game)
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert log.get(game_id).date == today
    assert [g.date for g in log.games(year=int(today[:4]))] == [today]


def test_unfinished_games_and_bad_values_are_refused(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    unfinished = Game.from_transcript("f5d6c3")
    with pytest.raises(InvalidPositionError, match="not finished and has no recorded result"):
        log.add(unfinished)
    resigned = Game.from_transcript("f5d6c3", result=(40, 20))  # a recorded result is enough
    assert log.get(log.add(resigned)).result == (40, 20)
    with pytest.raises(InvalidPositionError, match="expected a Game"):
        log.add("f5d6")  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="is not"):
        log.add(Game.from_transcript("f5", result=(50, 30)))
    bad_name = random_game(2)
    bad_name = Game(bad_name.moves, bad_name.rules, black_player=3, result=bad_name.result)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="black_player must be a string"):
        log.add(bad_name)
    assert len(log) == 1


def test_add_many_is_all_or_nothing(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    log.add(random_game(0))
    batch = [*games(3, 1), Game.from_transcript("f5d6"), random_game(9)]
    with pytest.raises(InvalidPositionError, match=r"game 4: .*not finished"):
        log.add_many(batch)
    assert len(log) == 1
    # a failure inside the transaction (here: the database refuses a row) rolls back too
    conn = sqlite3.connect(tmp_path / "games.db")
    conn.execute(
        "CREATE TRIGGER no_bob BEFORE INSERT ON games WHEN NEW.black = 'Bob' BEGIN SELECT RAISE(ABORT, 'no Bob'); END"
    )
    conn.commit()
    conn.close()
    with_bob = [g for g in games(20) if g.black_player == "Bob"][:1]
    with pytest.raises(GameLogError, match=r"refused the change \(no Bob\): nothing was recorded"):
        log.add_many([random_game(30), random_game(31), *with_bob])
    assert len(log) == 1


def refused_game(kind: str) -> object:
    """Something ``add_many`` must refuse, of one kind."""
    if kind == "not a game":
        return "f5d6c3"
    if kind == "unfinished":
        return Game.from_transcript("f5d6")
    if kind == "bad result":
        return Game.from_transcript("f5d6", result=(70, 1))
    if kind == "bad name":
        return Game.from_transcript("f5d6", black_player=7, result=(3, 1))
    return Game.from_transcript("f5d6", date=None, result=(3, 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.integers(0, 30), max_size=6),
    st.sampled_from(["not a game", "unfinished", "bad result", "bad name", "bad date"]),
    st.integers(0, 6),
)
def test_a_refused_batch_leaves_the_log_as_it_was(tmp_path: Path, picks: list[int], kind: str, at: int) -> None:
    """Issue 14, class 1, for the log: a batch with one bad game anywhere in it records nothing."""
    path = tmp_path / "games.db"
    if not path.exists():
        GameLog(path).add_many(games(3))
    log = GameLog(path)
    before = [(g.metadata["id"], g.transcript(passes=True), g.black_player) for g in log]
    batch: list[object] = [random_game(pick) for pick in picks]
    batch.insert(min(at, len(batch)), refused_game(kind))
    with pytest.raises(ReversiError, match=rf"game {min(at, len(picks)) + 1}: "):
        log.add_many(batch)  # type: ignore[arg-type]
    assert [(g.metadata["id"], g.transcript(passes=True), g.black_player) for g in log] == before
    log.close()


# -- questions ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameLog, list[Game]]:
    recorded = games(40) + [random_game(100 + i, goal="inverted") for i in range(6)]
    recorded += [random_game(200 + i, size=6) for i in range(5)]
    log = GameLog(tmp_path_factory.mktemp("log") / "games.db")
    log.add_many(recorded)
    return log, recorded


def test_queries(filled: tuple[GameLog, list[Game]]) -> None:
    log, recorded = filled
    assert len(log.games()) == len(recorded)
    for player in PLAYERS:
        expected = [g for g in recorded if player in (g.black_player, g.white_player)]
        assert [g.moves for g in log.games(player=player)] == [g.moves for g in expected]
    assert len(log.games(year=2021)) == sum(g.date.startswith("2021") for g in recorded)
    eight = [g for g in recorded if g.rules.size == 8]
    prefix = "".join(str(m) for m in eight[0].moves[:3])
    by_opening = [g for g in recorded if "".join(str(m) for m in g.moves[:3]) == prefix]
    assert [g.moves for g in log.games(opening=prefix)] == [g.moves for g in by_opening]
    spaced = " ".join(str(m) for m in eight[0].moves[:3]).upper()  # "F5 D6 C3" is the same opening
    assert len(log.games(opening=spaced)) == len(by_opening)
    inverted = [g for g in recorded if g.rules.goal == "inverted"]
    assert len(log.games(variant="inverted")) == len(inverted) == 6
    assert len(log.games(variant={"goal": "inverted"})) == 6
    assert len(log.games(variant=Rules(size=6))) == 5
    assert len(log.games(variant="6x6 classic standard")) == 5
    both = log.games(player="Ann", variant="8x8 classic", year=2020)
    assert all("Ann" in (g.black_player, g.white_player) and g.date.startswith("2020") for g in both)
    assert len(log.games(player="Nobody")) == 0


@pytest.mark.parametrize(
    ("filters", "error", "message"),
    [
        ({"year": "2020"}, ReversiError, "year must be an int"),
        ({"opening": "f5z9"}, InvalidMoveError, "opening 'f5z9'"),
        ({"opening": ""}, InvalidMoveError, "has no moves"),
        ({"variant": "9x9x"}, ReversiError, "is not a size"),
        ({"variant": "8x6"}, ReversiError, "boards are square"),
        ({"variant": {"colour": "red"}}, ReversiError, "variant keys"),
        ({"player": 7}, InvalidPositionError, "player must be a string"),
    ],
)
def test_bad_filters(filled: tuple[GameLog, list[Game]], filters: dict[str, object], error: type, message: str) -> None:
    log, _ = filled
    with pytest.raises(error, match=message):
        log.games(**filters)  # type: ignore[arg-type]


def test_a_game_between_two_players_of_the_same_name_counts_once_as_self_play(tmp_path: Path) -> None:
    """One game, counted once for the name, under self-play: it won and lost it at once, so it
    is no win, loss or draw, and the win rate is over the games against others."""
    log = GameLog(tmp_path / "games.db")
    ann_wins = Game.from_transcript(
        "b1a1a2c1d1a3a4d2d3b4c4d4", rules=Rules(size=4), black_player="Ann", white_player="Ben"
    )
    log.add(Game.from_board(ann_wins.board(), black_player="Ann", white_player="Ann"))  # practising alone
    log.add(ann_wins)
    winner = winner_of(ann_wins)
    players = log.stats().players
    ann, ben = players.row("Ann"), players.row("Ben")
    assert players.columns == ("player", "games", "wins", "losses", "draws", "self-play", "win %")
    assert (ann["games"], ann["self-play"], ann["wins"] + ann["losses"] + ann["draws"]) == (2, 1, 1)
    assert (ben["games"], ben["self-play"], ben["wins"] + ben["losses"] + ben["draws"]) == (1, 0, 1)
    assert ann["win %"] == (100.0 if winner == "black" else 0.0)
    assert sum(row["games"] for row in players.as_dicts()) == 3  # two games, three seats, one name twice
    alone = log.stats(player="Ann", opening="b1a1").players  # filters apply to both seats alike
    assert alone.row("Ann")["games"] == 2
    # A game the widget records between two computers of one kind (examples/04-game-records.ipynb).
    w = ReversiWidget(rules=Rules(size=4), black="greedy", white="greedy", log=log)
    assert w.wait(30) and w.game_over
    greedy = log.stats().players.row("Computer (greedy)")
    assert (greedy["games"], greedy["self-play"], greedy["wins"], greedy["losses"], greedy["draws"]) == (1, 1, 0, 0, 0)
    assert greedy["win %"] is None  # no game against anyone else: no rate, rather than a made-up one
    assert "Computer (greedy)" in str(log.stats().players)


def test_stats_count_wins_losses_draws(filled: tuple[GameLog, list[Game]]) -> None:
    log, recorded = filled
    stats = log.stats()
    expected: dict[str, Counter[str]] = {p: Counter() for p in PLAYERS}
    for g in recorded:
        w = winner_of(g)
        for colour, name in (("black", g.black_player), ("white", g.white_player)):
            expected[name]["games"] += 1
            expected[name]["draws" if w == "draw" else "wins" if w == colour else "losses"] += 1
    for player, counts in expected.items():
        row = stats.players.row(player)
        assert (row["games"], row["wins"], row["losses"], row["draws"], row["self-play"]) == (
            counts["games"],
            counts["wins"],
            counts["losses"],
            counts["draws"],
            0,  # the fixture's games are all between two players
        )
        assert row["win %"] == round(100 * counts["wins"] / counts["games"], 1)
    games_column = stats.players.column("games")
    assert games_column == sorted(games_column, reverse=True)
    variants = {r["variant"]: r for r in stats.variants.as_dicts()}
    assert set(variants) == {"8x8 classic standard", "8x8 inverted standard", "6x6 classic standard"}
    inverted = [g for g in recorded if g.rules.goal == "inverted"]
    row = variants["8x8 inverted standard"]
    assert (row["games"], row["black wins"], row["white wins"], row["draws"]) == (
        6,
        sum(winner_of(g) == "black" for g in inverted),
        sum(winner_of(g) == "white" for g in inverted),
        sum(winner_of(g) == "draw" for g in inverted),
    )
    # under the inverted goal the side with fewer discs wins
    for g in inverted:
        assert g.result is not None
        if g.result[0] < g.result[1]:
            assert winner_of(g) == "black"


def test_stats_display_escapes_names(filled: tuple[GameLog, list[Game]]) -> None:
    log, _ = filled
    stats = log.stats()
    html = stats._repr_html_()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    text = str(stats)
    assert EVIL in text and "Results per player" in text and "Results per variant" in text
    assert "<table>" in html and html.count("<tr>") == len(stats.players) + len(stats.variants) + 2


def test_table_truncates_long_displays() -> None:
    from reversi_widget.records import Table

    table = Table("t", ("name", "n"), [(f"p{i}", i) for i in range(30)], max_rows=5)
    assert "... and 25 more rows" in str(table) and "and 25 more rows" in table._repr_html_()
    assert len(table) == 30 and table.row("p7") == {"name": "p7", "n": 7}
    with pytest.raises(ValueError, match="cells"):
        Table("t", ("a", "b"), [(1,)])


def test_most_played(filled: tuple[GameLog, list[Game]]) -> None:
    log, recorded = filled
    report = log.most_played(plies=2, limit=3)
    eight = [g for g in recorded if g.rules.size == 8]
    counts = Counter("".join(str(m) for m in g.moves[:2]) for g in recorded)
    top = report.openings.as_dicts()
    assert len(top) == 3
    assert [(r["opening"], r["games"]) for r in top] == sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    for r in top:
        assert r["black wins"] + r["white wins"] + r["draws"] == r["games"]
    variants = report.variants.as_dicts()
    assert variants[0] == {"variant": "8x8 classic standard", "games": 40, "share %": round(100 * 40 / 51, 1)}
    assert len(eight) == 46
    assert "Most played openings (2 plies)" in str(report) and "<table>" in report._repr_html_()
    with pytest.raises(ReversiError, match="plies"):
        log.most_played(plies=0)


def test_win_rate_chart_from_the_log(filled: tuple[GameLog, list[Game]]) -> None:
    import xml.etree.ElementTree as ET

    log, _ = filled
    image = log.chart()
    root = ET.fromstring(image)
    ns = {"s": "http://www.w3.org/2000/svg"}
    labels = {b.attrib["data-label"] for b in root.findall(".//s:rect[@class='bar']", ns)}
    names = {label.rsplit(" (", 1)[0] for label in labels}
    assert names == {p if len(p) <= 20 else p[:19] + "…" for p in PLAYERS}  # long names are cut
    assert "<script>" not in image


# -- bad files -----------------------------------------------------------------------------------


def test_a_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 10)
    with pytest.raises(InvalidPositionError, match=r"notes\.db.*not a GameLog database"):
        GameLog(path)
    assert path.read_text().startswith("these are my notes")  # left untouched


def test_another_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(InvalidPositionError, match=r"other\.sqlite.*not a GameLog.*customers"):
        GameLog(path)


def test_a_newer_schema_and_a_folder_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameLog(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    with pytest.raises(InvalidPositionError, match="schema version 7"):
        GameLog(path)
    with pytest.raises(InvalidPositionError, match="is a folder"):
        GameLog(tmp_path)


def test_a_damaged_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    log = GameLog(path)
    log.add_many(games(40))
    log.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 4 * page_size
    for page in range(1, len(data) // page_size):  # scribble over every page but the header page
        start = page * page_size
        data[start : start + page_size] = bytes(random.Random(page).randrange(256) for _ in range(page_size))
    path.write_bytes(bytes(data))
    with pytest.raises(InvalidPositionError, match=r"games\.db"):
        damaged = GameLog(path)
        damaged.check()
        list(damaged)


# -- threads and processes ------------------------------------------------------------------------


def test_threads_share_one_log(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    pool = games(40)
    errors: list[BaseException] = []

    def writer(part: int) -> None:
        try:
            for game in pool[part::4]:
                log.add(game)
                assert len(log) >= 1
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(log) == 40
    assert Counter(g.transcript(passes=True) for g in log) == Counter(g.transcript(passes=True) for g in pool)


def test_a_log_can_be_pickled_and_reopens(tmp_path: Path) -> None:
    import pickle

    log = GameLog(tmp_path / "games.db")
    log.add(random_game(4))
    copy = pickle.loads(pickle.dumps(log))
    assert len(copy) == 1 and copy.path == log.path
    copy.add(random_game(5))
    assert len(log) == 2


WRITER = textwrap.dedent(
    """
    import random, sys
    from reversi_widget import Board
    from reversi_widget.game import Game
    from reversi_widget.records import GameLog

    path, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    log = GameLog(path)
    rng = random.Random(tag)

    def finished(name):
        board = Board()
        while not board.is_game_over():
            board.push_pass() if board.must_pass() else board.push(rng.choice(list(board.legal_moves)))
        return Game.from_board(board, black_player=name, white_player=tag)

    for i in range(count):
        if i % 4 == 3:  # every fourth step is a batch of five in one transaction
            ids = log.add_many([finished(f"{tag}-batch{i}-{k}") for k in range(5)])
            print("batch", i, *ids, flush=True)
        else:
            print("game", i, log.add(finished(f"{tag}-{i}")), flush=True)
    """
)


def _writer(tmp_path: Path, db: Path, tag: str, count: int) -> subprocess.Popen[str]:
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, str(script), str(db), tag, str(count)], stdout=subprocess.PIPE, text=True, env=env
    )


def _reported(lines: list[str]) -> dict[int, str]:
    """id -> the black player name the writer gave it, for every commit the writer reported.

    ``lines`` keep their line ends: a last line without one was cut short by a kill and
    reports nothing (its commit may or may not have happened)."""
    out: dict[int, str] = {}
    for number, line in enumerate(lines):
        if not line.endswith("\n"):
            assert number == len(lines) - 1, f"only the last line can be cut short: {lines[number:]!r}"
            break
        kind, step, *ids = line.split()
        assert kind in ("game", "batch") and len(ids) == (1 if kind == "game" else 5), line
        if kind == "game":
            out[int(ids[0])] = f"TAG-{step}"
        else:
            for k, game_id in enumerate(ids):
                out[int(game_id)] = f"TAG-batch{step}-{k}"
    return out


@pytest.mark.slow
def test_nothing_is_lost_when_a_writer_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    GameLog(db).close()
    proc = _writer(tmp_path, db, "k", 1_000_000)
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if len(lines) >= 60:
            break
    time.sleep(random.Random().uniform(0, 0.05))  # land somewhere inside a later write
    proc.send_signal(signal.SIGKILL)
    lines += proc.stdout.read().splitlines(keepends=True)  # through the same buffer the loop above read from
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    log = GameLog(db)
    log.check()
    reported = _reported(lines)
    assert len(reported) >= 60
    for game_id, name in reported.items():
        assert log.get(game_id).black_player == name.replace("TAG", "k")
    # every batch is whole or absent, never half there
    batches = Counter(g.black_player.rsplit("-", 1)[0] for g in log if "batch" in g.black_player)
    assert set(batches.values()) <= {5}
    assert len(log) - len(reported) in (0, 1, 5)  # at most the one write that finished unreported


OPENER = textwrap.dedent(
    """
    import sys, time
    from reversi_widget.records import GameLog
    start = float(sys.argv[1])
    paths = sys.argv[2:]
    for path in paths:
        while time.time() < start:
            pass
        GameLog(path).close()
        start += 0.05
    """
)


def test_processes_creating_one_new_log_at_once_all_open_it(tmp_path: Path) -> None:
    """Each process opens the same new files at the same instants; none may call them foreign."""
    script = tmp_path / "opener.py"
    script.write_text(OPENER)
    paths = [str(tmp_path / f"new-{k}.db") for k in range(12)]
    start = time.time() + 1.5  # after every interpreter has started
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen([sys.executable, str(script), str(start), *paths], stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(6)
    ]
    errors = [proc.communicate(timeout=120)[1] for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), errors
    for path in paths:
        with GameLog(path) as log:
            assert len(log) == 0
            log.check()


@pytest.mark.slow
def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    count = 200
    started = time.perf_counter()
    procs = {tag: _writer(tmp_path, db, tag, count) for tag in ("p", "q")}
    outputs = {tag: proc.communicate(timeout=300)[0] for tag, proc in procs.items()}
    elapsed = time.perf_counter() - started
    assert all(proc.returncode == 0 for proc in procs.values()), outputs
    log = GameLog(db)
    log.check()
    per_process = count // 4 * 5 + count - count // 4  # batches of five on every fourth step
    assert len(log) == 2 * per_process
    for tag, out in outputs.items():
        reported = _reported(out.splitlines(keepends=True))
        assert len(reported) == per_process
        for game_id, name in reported.items():
            assert log.get(game_id).black_player == name.replace("TAG", tag)
    print(f"two writers, {2 * per_process} games in {elapsed:.1f}s")


# -- imports -----------------------------------------------------------------------------------


def test_import_ggf_text_and_file(tmp_path: Path) -> None:
    from reversi_widget.ggf import write_ggf_games

    log = GameLog(tmp_path / "games.db")
    recorded = games(5)
    text = write_ggf_games(recorded)
    ids = log.import_ggf(text)
    assert len(ids) == 5
    back = [log.get(i) for i in ids]
    assert [g.moves for g in back] == [g.moves for g in recorded]
    assert [(g.black_player, g.white_player) for g in back] == [(g.black_player, g.white_player) for g in recorded]
    assert {g.metadata["source"] for g in back} == {"ggf"}
    path = tmp_path / "club.ggf"
    path.write_text(text)
    ids = log.import_ggf(path)
    assert {log.get(i).metadata["source"] for i in ids} == {"ggf:club.ggf"}
    assert len(log) == 10


def test_a_bad_ggf_file_is_refused_whole(tmp_path: Path) -> None:
    from reversi_widget.ggf import write_ggf_games

    log = GameLog(tmp_path / "games.db")
    lines = write_ggf_games(games(3)).splitlines()
    lines[1] = lines[1].replace("]B[", "]B[z9//", 1)  # game 2's first move is off the board
    path = tmp_path / "bad.ggf"
    path.write_text("\n".join(lines))
    with pytest.raises(ReversiError, match=r"bad\.ggf"):
        log.import_ggf(path)
    with pytest.raises(InvalidPositionError, match="no such GGF file"):
        log.import_ggf(tmp_path / "missing.ggf")
    assert len(log) == 0


def _wthor_bytes(records: list[tuple[int, int, int, int, list[str]]], year: int) -> bytes:
    header = struct.pack("<BBBBIHHBBBx", 20, 24, 1, 2, len(records), 0, year, 8, 0, 24)
    body = b""
    for tournament, black, white, score, moves in records:
        move_bytes = bytes(10 * (int(m[1])) + "abcdefgh".index(m[0]) + 1 for m in moves).ljust(60, b"\0")
        body += struct.pack("<HHHBB60s", tournament, black, white, score, score, move_bytes)
    return header + body


def _names_file(names: list[str], width: int) -> bytes:
    header = struct.pack("<BBBBIHHBBBx", 20, 24, 1, 2, 0, len(names), 0, 0, 0, 0)
    return header + b"".join(n.encode("latin-1").ljust(width, b"\0") for n in names)


def test_import_wthor_from_a_small_file(tmp_path: Path) -> None:
    recorded = games(3)
    records = []
    for i, g in enumerate(recorded):
        assert g.result is not None
        records.append((i % 2, i, i + 1, g.result[0], [str(m) for m in g.moves if m]))
    (tmp_path / "WTH_2024.wtb").write_bytes(_wthor_bytes(records, 2024))
    (tmp_path / "WTHOR.JOU").write_bytes(_names_file(["Ann", "Bob", "Cy", "Dé"], 20))
    (tmp_path / "WTHOR.TRN").write_bytes(_names_file(["Open", "Cup"], 26))
    log = GameLog(tmp_path / "games.db")
    ids = log.import_wthor(tmp_path / "WTH_2024.wtb")
    back = [log.get(i) for i in ids]
    assert [g.moves for g in back] == [g.moves for g in recorded]
    assert [(g.black_player, g.white_player, g.event) for g in back] == [
        ("Ann", "Bob", "Open"),
        ("Bob", "Cy", "Cup"),
        ("Cy", "Dé", "Open"),
    ]
    assert [g.result for g in back] == [(r[3], 64 - r[3]) for r in records]
    assert len(log.games(year=2024)) == 3
    assert {g.metadata["source"] for g in back} == {"wthor:WTH_2024.wtb"}


def test_importing_a_file_again_records_nothing_twice(tmp_path: Path) -> None:
    from reversi_widget.ggf import write_ggf_games

    played = games(4)
    records = [(0, 1, 0, g.result[0], [str(m) for m in g.moves if m]) for g in played if g.result]
    records.append(records[0])  # the same game twice in one file: two games, both kept
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(_wthor_bytes(records, 2024))
    log = GameLog(tmp_path / "games.db")
    first = log.import_wthor(path)
    assert len(first) == len(log) == 5 and len(set(first)) == 5
    assert log.import_wthor(path) == first and len(log) == 5
    extra = random_game(99)
    assert extra.result is not None
    path.write_bytes(_wthor_bytes([*records, (1, 0, 0, extra.result[0], [str(m) for m in extra.moves if m])], 2024))
    again = log.import_wthor(path)
    assert again[:5] == first and again[5] not in first and len(log) == 6
    # the same games from another source, and games added one by one, are recorded as given
    assert len(set(log.import_wthor(path, source="a copy")) & set(first)) == 0 and len(log) == 12
    ggf = tmp_path / "club.ggf"
    ggf.write_text(write_ggf_games(played))
    assert log.import_ggf(ggf) == log.import_ggf(ggf) and len(log) == 16
    log.add(played[0])
    log.add(played[0])
    log.add_many([played[1]], source="club")
    log.add_many([played[1]], source="club")
    assert len(log) == 20


def test_a_bad_wthor_file_is_refused_whole(tmp_path: Path) -> None:
    good = random_game(0)
    assert good.result is not None
    moves = [str(m) for m in good.moves if m]
    records = [(0, 0, 0, good.result[0], moves), (0, 0, 0, 30, ["f5", "a1"])]  # the second is illegal
    path = tmp_path / "WTH_2023.wtb"
    path.write_bytes(_wthor_bytes(records, 2023))
    log = GameLog(tmp_path / "games.db")
    with pytest.raises(ReversiError, match=r"WTH_2023\.wtb.*record 2"):
        log.import_wthor(path)
    path.write_bytes(_wthor_bytes(records, 2023)[:-10])
    with pytest.raises(InvalidPositionError, match=r"WTH_2023\.wtb"):
        log.import_wthor(path)
    assert len(log) == 0


def test_import_a_real_wthor_year(tmp_path: Path) -> None:
    year = wthor_years(SAMPLE)[2021]  # the year shipped with the package
    log = GameLog(tmp_path / "games.db")
    ids = log.import_wthor(year)
    assert len(ids) == len(log) == (os.path.getsize(year) - 16) // 68 == 320
    assert len(log.games(year=2021)) == len(ids)
    stats = log.stats()
    assert sum(stats.players.column("games")) == 2 * len(ids)
    assert stats.variants.rows[0][:2] == ("8x8 classic standard", len(ids))


# -- batch analysis ------------------------------------------------------------------------------


def final_margin(game: Game) -> int:
    """Black's recorded margin: a module-level function, so processes can run it."""
    assert game.result is not None
    return game.result[0] - game.result[1]


def fails_on_short_games(game: Game) -> int:
    if len(game) < 10:
        raise ValueError("too short")
    return len(game)


@pytest.mark.parametrize("kind", ["threads", "processes"])
def test_analyse_games_in_order(kind: str) -> None:
    pool = games(30)
    seen: list[tuple[int, int]] = []
    executor: concurrent.futures.Executor = (
        concurrent.futures.ThreadPoolExecutor(3) if kind == "threads" else concurrent.futures.ProcessPoolExecutor(2)
    )
    with executor:
        results = analyse_games(pool, final_margin, executor, progress=lambda d, t: seen.append((d, t)), chunksize=4)
        lengths = analyse_games(pool, len, executor, progress=False)
    assert results == [final_margin(g) for g in pool]
    assert lengths == [len(g) for g in pool]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (30, 30)
    assert {t for _, t in seen} == {30} and len(seen) == 8  # one call per chunk of four


def test_analyse_games_default_executor_and_empty_input() -> None:
    pool = games(6)
    assert analyse_games(pool, final_margin) == [final_margin(g) for g in pool]
    assert analyse_games([], final_margin) == []


def test_analyse_games_refuses_what_processes_cannot_run() -> None:
    with pytest.raises(TypeError, match="module-level function"):
        analyse_games(games(2), lambda g: len(g))
    with concurrent.futures.ThreadPoolExecutor(2) as threads:  # threads need no pickling
        assert analyse_games(games(2), lambda g: len(g), threads) == [len(g) for g in games(2)]
    with pytest.raises(TypeError, match="progress"):
        analyse_games(games(2), len, progress="yes")  # type: ignore[arg-type]


def test_analyse_games_reports_which_game_failed() -> None:
    pool = games(7)
    pool.insert(5, Game.from_transcript("f5d6", result=(3, 1)))  # the one short game
    with pytest.raises(ValueError, match="too short") as caught, concurrent.futures.ProcessPoolExecutor(2) as processes:
        analyse_games(pool, fails_on_short_games, processes, chunksize=2)
    assert any(note.startswith("while analysing game 5 ") for note in getattr(caught.value, "__notes__", []))


def test_metadata_json_is_checked_on_read(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    log = GameLog(path)
    game_id = log.add(random_game(3))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET metadata = ? WHERE id = ?", (json.dumps([1, 2]), game_id))
    conn.execute("UPDATE games SET moves = 'f5 zz' WHERE id = ?", (game_id,))
    conn.commit()
    conn.close()
    with pytest.raises(InvalidPositionError, match=rf"games\.db: game id {game_id} cannot be read"):
        log.get(game_id)


# -- trouble with the file: never a raw sqlite3 error (issue 14, class 6) -------------------------

HOLDER = textwrap.dedent(
    """
    import sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    if sys.argv[2] == "exclusive":  # nobody may even read: the lock a rollback-journal writer holds
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("UPDATE games SET event = event")
        conn.execute("COMMIT")
    else:  # the write lock: readers go on, writers wait
        conn.execute("BEGIN IMMEDIATE")
    print("holding", flush=True)
    sys.stdin.read()  # until the test closes our stdin
    """
)


@contextlib.contextmanager
def lock_held(tmp_path: Path, db: Path, kind: str) -> Iterator[None]:
    """Another process holds the log's lock ("write" or "exclusive") while the block runs."""
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen(
        [sys.executable, str(script), str(db), kind], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(10)


def test_a_lock_held_past_the_timeout_is_a_busy_error(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    log = GameLog(path, timeout=0.2)
    log.add(random_game(1))
    with lock_held(tmp_path, path, "write"):
        with pytest.raises(GameLogBusyError, match=r"games\.db: another process held .* 0\.2 s: wait .* retry"):
            log.add(random_game(2))
        with pytest.raises(GameLogBusyError):
            log.add_many(games(3, 10))
        assert len(log) == 1  # readers are not held up by a writer, and nothing was half-recorded
    assert log.add(random_game(2)) == 2  # once the lock is gone the same log works
    log.close()
    with lock_held(tmp_path, path, "exclusive"), pytest.raises(GameLogBusyError, match="retry"):
        GameLog(path, timeout=0.2)
    assert len(GameLog(path)) == 2


def test_what_is_no_log_file_is_refused_before_sqlite_sees_it(tmp_path: Path) -> None:
    with pytest.raises(InvalidPositionError, match=r"/dev/zero: is not a regular file"):
        GameLog("/dev/zero")
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    with pytest.raises(InvalidPositionError, match=r"pipe\.db: is not a regular file"):
        GameLog(fifo)
    with pytest.raises(GameLogError, match=r"its folder .*nowhere does not exist: create it or check the path"):
        GameLog(tmp_path / "nowhere" / "games.db")
    with pytest.raises(GameLogError, match=r"no game log here to read"):
        GameLog(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()  # a read-only log is never created
    (tmp_path / "empty.db").touch()
    with pytest.raises(InvalidPositionError, match="is empty"):
        GameLog(tmp_path / "empty.db", readonly=True)


def test_a_log_opened_readonly_reads_and_refuses_every_write(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameLog(path).add_many(games(3))
    log = GameLog(path, readonly=True)
    assert len(log) == 3 and log.stats().players.rows and repr(log).endswith("readonly=True)")
    for write in (
        lambda: log.add(random_game(9)),
        lambda: log.add_many(games(2, 20)),
        lambda: log.delete(1),
        lambda: log.import_ggf(write_ggf(random_game(9))),
    ):
        with pytest.raises(GameLogError, match=r"games\.db: the game log was opened with readonly=True"):
            write()
    assert len(log) == 3
    import pickle

    copy = pickle.loads(pickle.dumps(log))
    assert copy.readonly and len(copy) == 3


def test_a_read_only_log_says_to_open_it_readonly_and_then_reads(shared_folder: Path) -> None:
    path = shared_folder / "games.db"
    GameLog(path).add_many(games(4))
    path.chmod(0o444)

    def open_and_add() -> int:
        log = GameLog(path)  # SQLite may open a read-only file and fail only at the first write
        return log.add(random_game(9))

    refused = as_unprivileged(open_and_add)
    assert refused.startswith("GameLogError: ") and "read-only" in refused and "readonly=True" in refused, refused
    assert as_unprivileged(lambda: [g.black_player for g in GameLog(path, readonly=True)]) == repr(
        [g.black_player for g in games(4)]
    )
    # The same in a folder nobody may write in, where SQLite cannot make its side files.
    path.chmod(0o644)
    shared_folder.chmod(0o555)
    refused = as_unprivileged(open_and_add)
    assert refused.startswith("GameLogError: ") and "readonly=True" in refused, refused
    assert as_unprivileged(lambda: len(GameLog(path, readonly=True))) == "4"
    new_log = as_unprivileged(lambda: GameLog(shared_folder / "new.db"))
    assert new_log.startswith("GameLogError: ") and "new.db" in new_log, new_log
    assert len(GameLog(path, readonly=True)) == 4  # nothing was changed on the way


@pytest.mark.parametrize(
    ("message", "error", "words"),
    [
        ("database is locked", GameLogBusyError, "retry"),
        ("attempt to write a readonly database", GameLogError, "readonly=True"),
        ("unable to open database file", GameLogError, "check the permissions"),
        ("database or disk is full", GameLogError, "free some space"),
        ("disk I/O error", GameLogError, "input/output error"),
        ("file is not a database", InvalidPositionError, "damaged"),
        ("cannot rollback - no transaction is active", GameLogError, "SQLite failed"),
    ],
)
def test_every_sqlite_failure_becomes_a_package_error(
    tmp_path: Path, message: str, error: type[ReversiError], words: str
) -> None:
    """What SQLite reports (read from its text, as before Python 3.11) says what to do."""
    log = GameLog(tmp_path / "games.db")
    failure = log._file.failure(sqlite3.OperationalError(message))
    assert type(failure) is error and words in str(failure) and "games.db" in str(failure)
