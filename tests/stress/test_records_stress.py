"""GameLog under processes: writers at once, and writers killed with SIGKILL mid-write.

The writer script and its report format are those of tests/test_records.py (``WRITER``):
each commit (one game, or a batch of five in one transaction) is printed on a pipe right
after it returns, so the test knows what was committed before the kill.

- Two processes write at once into one log: every game each reported is there, under the
  id it was given, and nothing else.
- A writer is killed at a random moment, again and again on the same file (some of the
  times while a second writer keeps writing): each time the file passes SQLite's
  ``PRAGMA integrity_check``, opens as a ``GameLog``, holds every reported commit, and
  every batch is whole or absent; the second writer finishes with nothing lost.
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

from reversi_widget.records import GameLog
from tests.test_records import _reported, _writer


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
        reported = check_reported(log, out.splitlines(), tag)
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
    lines += victim.stdout.read().splitlines()  # what it reported before dying
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
        partner_reported = check_reported(log, out.splitlines(), partner)
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
