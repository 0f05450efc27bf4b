"""GameLog under processes and hostile files: writers at once, writers killed with SIGKILL
mid-write, damaged files, paths that are no log, and a lock held around the timeout.

The writer script and its report format are those of tests/test_records.py (``WRITER``):
each commit (one game, or a batch of five in one transaction) is printed on a pipe right
after it returns, so the test knows what was committed before the kill.

- Two processes write at once into one log: every game each reported is there, under the
  id it was given, and nothing else.
- A writer is killed at a random moment, again and again on the same file (some of the
  times while a second writer keeps writing): each time the file passes SQLite's
  ``PRAGMA integrity_check``, opens as a ``GameLog``, holds every reported commit, and
  every batch is whole or absent; the second writer finishes with nothing lost.
- Issue 14, class 6: a damaged log, a device, a pipe, a folder, a read-only log, and a lock
  another process holds past the timeout give the package's errors only, never a raw
  ``sqlite3`` error, and the log holds exactly what was reported recorded.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

from reversi_widget import ReversiError
from reversi_widget.game import Game
from reversi_widget.records import GameLog, GameLogBusyError, GameLogError
from tests.stress.test_files import mutate_bytes
from tests.test_records import _reported, _writer, games, random_game


def games_per_writer(steps: int) -> int:
    """Games a WRITER run of ``steps`` steps commits: a batch of five on every fourth step."""
    return steps // 4 * 5 + steps - steps // 4


def steps_for(games: int) -> int:
    steps = 1
    while games_per_writer(steps) < games:
        steps += 1
    return steps


def check_reported(log: GameLog, lines: list[str], tag: str) -> dict[int, str]:
    """Every commit the writer reported is in the log under its id; returns them."""
    reported = _reported(lines)
    for game_id, name in reported.items():
        assert log.get(game_id).black_player == name.replace("TAG", tag), (tag, game_id)
    return reported


def integrity(db: Path) -> list[tuple[str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA integrity_check").fetchall()
    finally:
        conn.close()


def test_two_processes_writing_at_once_lose_nothing(stress: Any, figures: Any, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    wanted = stress.count(full=1_000, short=150)
    steps = steps_for(wanted)
    started = figures.clock()
    procs = {tag: _writer(tmp_path, db, tag, steps) for tag in ("p", "q")}
    outputs = {tag: proc.communicate(timeout=600)[0] for tag, proc in procs.items()}
    elapsed = figures.clock() - started
    assert all(proc.returncode == 0 for proc in procs.values()), outputs
    assert integrity(db) == [("ok",)]
    log = GameLog(db)
    log.check()
    per_writer = games_per_writer(steps)
    assert len(log) == 2 * per_writer
    ids: set[int] = set()
    for tag, out in outputs.items():
        reported = check_reported(log, out.splitlines(keepends=True), tag)
        assert len(reported) == per_writer
        ids |= set(reported)
    assert ids == set(log.ids())  # nothing unreported, nothing twice
    log.close()
    figures.record("records", f"two writers at once: games each ({steps} commits each)", per_writer, elapsed)


def kill_one(tmp_path: Path, db: Path, tag: str, rng: random.Random, partner: str | None) -> tuple[int, int]:
    """Start a writer (and maybe a partner writing beside it), kill it at a random moment,
    check the file. Returns (games reported by the killed writer, games of the partner)."""
    victim = _writer(tmp_path, db, tag, 1_000_000)
    other = _writer(tmp_path, db, partner, 120) if partner else None
    assert victim.stdout is not None
    lines: list[str] = []
    wanted = rng.randint(1, 40)
    for line in victim.stdout:
        lines.append(line)
        if len(lines) >= wanted:
            break
    time.sleep(rng.uniform(0, 0.05))  # land anywhere: between commits or inside one
    victim.send_signal(signal.SIGKILL)
    lines += victim.stdout.read().splitlines(keepends=True)  # what it reported before dying
    victim.wait(timeout=30)
    assert victim.returncode == -signal.SIGKILL
    partner_games = 0
    if other is not None:
        out, _ = other.communicate(timeout=300)
        assert other.returncode == 0, out
    assert integrity(db) == [("ok",)]
    log = GameLog(db)  # opens cleanly after the crash
    log.check()
    reported = check_reported(log, lines, tag)
    mine = [g for g in log if g.white_player == tag]
    batches = Counter(g.black_player.rsplit("-", 1)[0] for g in mine if "batch" in g.black_player)
    assert set(batches.values()) <= {5}, batches  # a batch is all there or not at all
    assert len(mine) - len(reported) in (0, 1, 5)  # at most the one commit it had no time to report
    if other is not None and partner is not None:
        partner_reported = check_reported(log, out.splitlines(keepends=True), partner)
        assert len(partner_reported) == games_per_writer(120)
        partner_games = len(partner_reported)
    log.close()
    return len(reported), partner_games


def test_writers_killed_mid_write_leave_a_whole_log(stress: Any, figures: Any, tmp_path: Path) -> None:
    rng = random.Random(random.randrange(1 << 30))
    db = tmp_path / "games.db"
    GameLog(db).close()
    kills = stress.count(full=12, short=3)
    started = figures.clock()
    reported = partner_games = 0
    for index in range(kills):
        partner = f"w{index}" if index % 3 == 1 else None  # one kill in three has a writer beside it
        got, beside = kill_one(tmp_path, db, f"k{index}", rng, partner)
        reported += got
        partner_games += beside
    elapsed = figures.clock() - started
    log = GameLog(db)
    assert len(log) >= reported + partner_games
    log.close()
    figures.record("records", f"SIGKILLs ({reported} commits reported before them, all found)", kills, elapsed)


BIG_BATCH = textwrap.dedent(
    """
    import sys
    from reversi_widget.game import Game
    from reversi_widget.records import GameLog

    log = GameLog(sys.argv[1])
    game = Game.from_transcript("f5d6c3d3c4", black_player="one", result=(33, 31))
    log.add(game)
    print("first", flush=True)
    log.add_many([game] * int(sys.argv[2]))
    print("done", flush=True)
    """
)


def test_a_kill_inside_a_big_transaction_leaves_none_of_it(tmp_path: Path) -> None:
    """Aimed rather than random: the writer is killed once its batch transaction has spilled
    rows into the WAL file (so it is surely inside the transaction); none of the batch stays."""
    db = tmp_path / "games.db"
    wal = tmp_path / "games.db-wal"
    script = tmp_path / "big_batch.py"
    script.write_text(BIG_BATCH)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(db), "200000"], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "first"
    base = wal.stat().st_size
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if wal.stat().st_size > base + (1 << 20):
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.002)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the batch finished (or never started) before the kill"
    assert wal.stat().st_size > base + (1 << 20)  # the uncommitted rows were in the WAL
    assert integrity(db) == [("ok",)]
    log = GameLog(db)
    assert len(log) == 1 and next(iter(log)).black_player == "one"
    log.check()
    log.close()


# -- hostile log files (issue 14, class 6): only the package's errors come out ----------------


def exercise(path: Path, game: Game) -> str:
    """Open a log and use every kind of operation; 'ok' or the package error's class name.
    Anything else (a raw sqlite3 error above all) fails the test."""
    try:
        log = GameLog(path, timeout=0.5)
        try:
            len(log)
            for _ in log:
                pass
            log.stats()
            log.most_played()
            log.check()
            log.add(game)
        finally:
            log.close()
    except ReversiError as error:
        message = str(error)
        assert path.name in message, f"{path.name}: the refusal does not name the file: {message}"
        assert len(message) < 600, f"{path.name}: a refusal of {len(message)} characters"
        return type(error).__name__
    except Exception as error:
        raise AssertionError(f"{path.name}: {type(error).__module__}.{type(error).__name__}: {error}") from error
    return "ok"


def test_damaged_log_files_give_only_package_errors(stress: Any, figures: Any, tmp_path: Path) -> None:
    """A real log, damaged at random (bits flipped, cut short, pages spliced, bytes added):
    opened, read, asked, checked and written to, it answers or says it is damaged; no
    ``sqlite3`` error escapes (the file's header page is damaged as often as the rest)."""
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    original = tmp_path / "original.db"
    log = GameLog(original)
    log.add_many(games(30))
    log.close()
    data = original.read_bytes()
    game = random_game(99)
    outcomes: Counter[str] = Counter()
    count = stress.count(full=1_500, short=150)
    started = figures.clock()
    for index in range(count):
        if rng.random() < 0.5:  # aim at the header page, where SQLite reads its settings
            head, what = mutate_bytes(data[:100], rng)
            damaged = head + data[100:]
        else:
            damaged, what = mutate_bytes(data, rng)
        path = tmp_path / f"damaged{index}.db"
        path.write_bytes(damaged)
        outcome = exercise(path, game)
        outcomes[outcome] += 1
        assert outcome in ("ok", "InvalidPositionError", "GameLogError"), f"{what} (run seed {seed}): {outcome}"
        path.unlink()
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
    elapsed = figures.clock() - started
    figures.record("records", f"damaged log files ({dict(outcomes)})", count, elapsed)
    assert outcomes["InvalidPositionError"] > 0 and outcomes["ok"] > 0


def test_paths_that_are_no_log_and_readonly_logs(tmp_path: Path) -> None:
    game = random_game(98)
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    (tmp_path / "folder.db").mkdir()
    for path in (Path("/dev/zero"), Path("/dev/null"), fifo, tmp_path / "folder.db", tmp_path / "no" / "such.db"):
        assert exercise(path, game) in ("InvalidPositionError", "GameLogError"), path
    kept = tmp_path / "kept.db"
    GameLog(kept).add_many(games(5))
    readonly = GameLog(kept, readonly=True)
    for write in (lambda: readonly.add(game), lambda: readonly.add_many([game]), lambda: readonly.delete(1)):
        try:
            write()
        except GameLogError as error:
            assert "readonly=True" in str(error)
        else:
            raise AssertionError("a read-only log was written to")
    assert len(readonly) == 5


HOLD = textwrap.dedent(
    """
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
    for line in sys.stdin:  # each line: seconds to hold the write lock
        conn.execute("BEGIN IMMEDIATE")
        print("holding", flush=True)
        time.sleep(float(line))
        conn.execute("COMMIT")
        print("free", flush=True)
    """
)


def test_writers_against_a_lock_held_around_the_timeout(stress: Any, figures: Any, tmp_path: Path) -> None:
    """Another process takes the write lock again and again, for a random time around this
    log's timeout: each ``add`` either records its game or raises ``GameLogBusyError``, and
    the log then holds exactly the games whose ``add`` returned."""
    rng = random.Random(random.randrange(1 << 30))
    db = tmp_path / "games.db"
    log = GameLog(db, timeout=0.1)
    script = tmp_path / "hold.py"
    script.write_text(HOLD)
    holder = subprocess.Popen(
        [sys.executable, str(script), str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdin is not None and holder.stdout is not None
    recorded: list[int] = []
    busy = 0
    rounds = stress.count(full=200, short=25)
    started = figures.clock()
    try:
        for index in range(rounds):
            holder.stdin.write(f"{rng.uniform(0.0, 0.25)}\n")
            holder.stdin.flush()
            assert holder.stdout.readline().strip() == "holding"
            try:
                recorded.append(log.add(random_game(index)))
            except GameLogBusyError:
                busy += 1
            assert holder.stdout.readline().strip() == "free"
    finally:
        holder.stdin.close()
        holder.wait(30)
    elapsed = figures.clock() - started
    assert sorted(log.ids()) == sorted(recorded) and len(recorded) + busy == rounds
    log.close()
    figures.record("records", f"adds against a held lock ({len(recorded)} recorded, {busy} busy)", rounds, elapsed)
    assert busy > 0 and recorded  # the lock really outlasted the timeout sometimes, and not always
