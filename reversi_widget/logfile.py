"""The SQLite file under a ``GameLog``: one shared connection, its schema, and safe writes.

- one connection per log, shared by threads under a lock (``check_same_thread=False``).
  A connection per operation would pay SQLite's open and schema read every time; one
  connection and a lock keeps operations cheap and still lets a widget's callbacks write
  from another thread. A process that inherits the object through ``fork`` reopens the file
  instead of using the parent's connection.
- WAL journal and a busy timeout, so several notebooks (several processes) can write to the
  same file at once: writers queue for the lock instead of failing.
- every write is one ``BEGIN IMMEDIATE`` transaction: a batch is all there or not at all, and
  a process killed mid-write leaves the file as it was after its last commit.
- ``PRAGMA application_id`` marks the file as a game log and ``PRAGMA user_version`` holds the
  schema version; anything else (another database, a damaged file, a text file) is refused
  with ``InvalidPositionError`` naming the file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import InvalidPositionError
from .logtable import SCHEMA

APPLICATION_ID = 0x52564C47  # "RVLG": this file is a reversi-widget game log
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 60_000  # how long a writer waits for another process's transaction
SQLITE_MAGIC = b"SQLite format 3\x00"

_INHERITED: list[object] = []  # connections a forked process got from its parent: never used, never closed


class LogFile:
    """The connection to one game-log file, opened on first use and after a ``fork``."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._pid = os.getpid()

    def refuse(self, why: str) -> InvalidPositionError:
        """The error for a file that is not a usable game log, naming it."""
        return InvalidPositionError(f"{self.path}: {why}")

    def open(self) -> None:
        """Connect, then check (or create) the schema; a foreign or damaged file is refused."""
        path = self.path
        memory = str(path) == ":memory:"
        if not memory:
            if path.is_dir():
                raise self.refuse("is a folder, not a game log file")
            if path.exists() and path.stat().st_size > 0:
                with open(path, "rb") as handle:
                    magic = handle.read(len(SQLITE_MAGIC))
                if magic != SQLITE_MAGIC:
                    raise self.refuse(f"is not a GameLog database (it does not start like an SQLite file: {magic!r})")
        try:
            conn = sqlite3.connect(str(path), timeout=self.timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise self.refuse(f"cannot be opened as a game log: {error}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._check_schema(conn)
            if not memory:
                self._use_wal(conn)
            # In WAL mode NORMAL keeps every committed transaction when a process dies;
            # only a power cut can drop the last ones. FULL would add an fsync per commit.
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as error:
            conn.close()
            if type(error) is not sqlite3.DatabaseError:
                raise
            raise self.refuse(f"is not a GameLog database or is damaged: {error}") from None
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._pid = os.getpid()

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to write-ahead logging, which lets readers and a writer work at once.

        The switch needs the file to itself, and SQLite answers "locked" at once rather than
        waiting when another process holds it (as when several open a new log together), so
        it is retried until the timeout.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
                    return
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            self._create_schema(conn)
        self._check_version(conn)

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        """Create the schema in a new file, or refuse a foreign one.

        Everything is read again under the write lock: another process may be creating the
        schema at this very moment, and reads outside one transaction could see its tables
        but not yet its application id.
        """
        conn.execute("BEGIN IMMEDIATE")
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                if app_id != 0 or tables:
                    found = f"application id {app_id:#x}, tables {tables or 'none'}"
                    raise self.refuse(f"is an SQLite database but not a GameLog ({found})")
                for statement in SCHEMA.split(";"):  # not executescript: it would commit first
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _check_version(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise self.refuse(
                f"has GameLog schema version {version}; this version of reversi_widget reads version {SCHEMA_VERSION}"
            )

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; errors of a damaged file name the file."""
        with self._lock:
            if self._pid != os.getpid():
                # A forked child must not use, or even close, its parent's connection: closing
                # could checkpoint the parent's WAL. Keep it referenced and open a new one.
                _INHERITED.append(self._conn)
                self._conn = None
            if self._conn is None:
                self.open()
            assert self._conn is not None
            try:
                yield self._conn
            except sqlite3.DatabaseError as error:
                # SQLite reports a damaged or foreign file as the base DatabaseError itself;
                # its subclasses (locked, constraint, ...) are other stories and pass through
                if type(error) is not sqlite3.DatabaseError:
                    raise
                raise self.refuse(f"the game log is damaged: {error}") from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        with self.connection() as conn:
            conn.execute("BEGIN IMMEDIATE")  # take the write lock now, not halfway through
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        """Close the connection (a later operation opens it again)."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None
