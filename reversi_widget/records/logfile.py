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
  schema version; anything else (another database, a damaged file, a text file, a device) is
  refused with ``InvalidPositionError`` naming the file.
- no ``sqlite3`` error reaches the caller: a lock held past the timeout is a
  ``GameLogBusyError`` (wait and retry), a read-only file or folder, a missing folder, a full
  or failing disk are ``GameLogError``s saying what to do.
- a log opened with ``readonly=True`` is only read, so a log in a read-only file or folder
  can still be read (a folder it cannot write in is read with SQLite's ``immutable`` mode,
  as the file is at that moment).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ..errors import GameLogBusyError, GameLogError, InvalidPositionError, ReversiError, cut
from .logtable import SCHEMA

__all__ = ["APPLICATION_ID", "BUSY_TIMEOUT_MS", "SCHEMA_VERSION", "SQLITE_MAGIC", "LogFile"]

APPLICATION_ID = 0x52564C47  # "RVLG": this file is a reversi-widget game log
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 60_000  # how long a writer waits for another process's transaction
SQLITE_MAGIC = b"SQLite format 3\x00"

_INHERITED: list[object] = []  # connections a forked process got from its parent: never used, never closed

# SQLite's primary result codes that say what went wrong (``sqlite3`` errors carry them from
# Python 3.11 on; before, the message text tells).
_ERROR, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 1, 5, 6, 8, 10, 11, 13, 14, 26
_CODE_WORDS = {
    _BUSY: "database is locked",
    _READONLY: "readonly database",
    _IOERR: "disk I/O error",
    _FULL: "disk is full",
    _CANTOPEN: "unable to open database file",
    _NOTADB: "file is not a database",
    _CORRUPT: "malformed",
}


#: What reading the file can raise: SQLite's errors, and text in it that is not UTF-8
#: (``sqlite3`` raises ``UnicodeDecodeError`` for some of that, not its own error).
_SQLITE_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def _code(error: Exception) -> int | None:
    """SQLite's primary result code of an error."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(error)
    return next((code for code, words in _CODE_WORDS.items() if words in text), None)


class LogFile:
    """The connection to one game-log file, opened on first use and after a ``fork``."""

    def __init__(self, path: Path, timeout: float, *, readonly: bool = False) -> None:
        self.path = path
        self.timeout = timeout
        self.readonly = readonly
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._pid = os.getpid()

    def refuse(self, why: str) -> InvalidPositionError:
        """The error for a file that is not a usable game log, naming it."""
        return InvalidPositionError(f"{self.path}: {why}")

    def failure(self, error: Exception) -> ReversiError:
        """The package's error for what SQLite reported, saying what to do about it."""
        code = _code(error)
        said = cut(str(error), 100)  # SQLite may quote a whole damaged row
        if code in (_BUSY, _LOCKED):
            return GameLogBusyError(
                f"{self.path}: another process held the game log's lock for more than {self.timeout:g} s: "
                "wait for it to finish and retry, or give GameLog a longer timeout"
            )
        if code == _READONLY:
            if self.readonly:
                return GameLogError(f"{self.path}: the game log was opened with readonly=True: it cannot record games")
            return GameLogError(
                f"{self.path}: the game log cannot be written: the file or its folder is read-only. Open it "
                "with GameLog(path, readonly=True) to read it, or make both writable to record games"
            )
        if code == _CANTOPEN:
            if self.readonly or not self.path.exists():
                return GameLogError(
                    f"{self.path}: SQLite cannot open the game log: check the path, and that its folder may be "
                    "read (and written, to make a new log)"
                )
            return GameLogError(
                f"{self.path}: SQLite cannot open the game log to write to it: if the file or its folder is "
                "read-only, open it with GameLog(path, readonly=True) to read it; else check the permissions"
            )
        if code == _FULL:
            return GameLogError(f"{self.path}: the disk is full: free some space and retry (nothing was recorded)")
        if code == _IOERR:
            return GameLogError(
                f"{self.path}: the disk reported an input/output error ({said}): check the file system; "
                "every game recorded before is kept"
            )
        # The statements are the package's own, so a plain SQL error (no such table or column,
        # an unsupported file format) or text that is not UTF-8 means the file is not as written.
        damaged = code in (_ERROR, _NOTADB, _CORRUPT) or isinstance(error, UnicodeDecodeError)
        damaged = damaged or "Could not decode to UTF-8" in str(error)
        if damaged or type(error) is sqlite3.DatabaseError:
            return self.refuse(f"is not a GameLog database or is damaged: {said}")
        if isinstance(error, sqlite3.IntegrityError):
            return GameLogError(f"{self.path}: the database refused the change ({said}): nothing was recorded")
        return GameLogError(f"{self.path}: SQLite failed: {said}")

    def open(self) -> None:
        """Connect, then check (or create) the schema; a foreign or damaged file is refused."""
        memory = str(self.path) == ":memory:"
        if not memory:
            self._check_path()
        try:
            conn = self._connect(immutable=False)
        except _SQLITE_ERRORS as error:
            raise self.failure(error) from None
        try:
            try:
                self._prepare(conn, memory)
            except sqlite3.OperationalError as error:
                if not (self.readonly and _code(error) in (_READONLY, _CANTOPEN) and self._wal_is_empty()):
                    raise
                # A WAL log in a folder this process cannot write: SQLite cannot make the
                # shared-memory file it reads through, so the file is read as it stands.
                conn.close()
                conn = self._connect(immutable=True)
                self._prepare(conn, memory)
        except _SQLITE_ERRORS as error:
            conn.close()
            raise self.failure(error) from None
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._pid = os.getpid()

    def _check_path(self) -> None:
        """Refuse what is no game-log file before SQLite touches it: a folder, a device, a text."""
        path = self.path
        try:
            info = path.stat()
        except FileNotFoundError:
            if self.readonly:
                raise GameLogError(f"{path}: there is no game log here to read: check the path") from None
            if not path.parent.is_dir():
                raise GameLogError(
                    f"{path}: its folder {path.parent} does not exist: create it or check the path"
                ) from None
            return
        except OSError as error:
            raise GameLogError(
                f"{path}: cannot be reached ({error.strerror}): check the path and its folders"
            ) from None
        if stat.S_ISDIR(info.st_mode):
            raise self.refuse("is a folder, not a game log file")
        if not stat.S_ISREG(info.st_mode):
            raise self.refuse("is not a regular file (a device or a pipe), so not a game log file")
        if info.st_size == 0:
            if self.readonly:
                raise self.refuse("is empty: there is no game log in it to read")
            return
        try:
            with open(path, "rb") as handle:
                magic = handle.read(len(SQLITE_MAGIC))
        except OSError as error:
            raise GameLogError(f"{path}: cannot be read ({error.strerror}): check its permissions") from None
        if magic != SQLITE_MAGIC:
            raise self.refuse(f"is not a GameLog database (it does not start like an SQLite file: {magic!r})")

    def _connect(self, *, immutable: bool) -> sqlite3.Connection:
        if self.readonly:
            uri = self.path.absolute().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")
            target, use_uri = uri, True
        else:
            target, use_uri = str(self.path), False
        conn = sqlite3.connect(target, timeout=self.timeout, isolation_level=None, check_same_thread=False, uri=use_uri)
        conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        return conn

    def _wal_is_empty(self) -> bool:
        """True when no committed transaction waits in the ``-wal`` file (it is absent or empty)."""
        try:
            return Path(f"{self.path}-wal").stat().st_size == 0
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def _prepare(self, conn: sqlite3.Connection, memory: bool) -> None:
        self._check_schema(conn)
        if not memory and not self.readonly:
            self._use_wal(conn)
        # In WAL mode NORMAL keeps every committed transaction when a process dies;
        # only a power cut can drop the last ones. FULL would add an fsync per commit.
        conn.execute("PRAGMA synchronous = NORMAL")

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
                if _code(error) not in (_BUSY, _LOCKED) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            if self.readonly:
                tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                raise self.refuse(f"is an SQLite database but not a GameLog (tables {tables or 'none'})")
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
            _roll_back(conn)
            raise

    def _check_version(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise self.refuse(
                f"has GameLog schema version {version}; this version of reversi_widget reads version {SCHEMA_VERSION}"
            )

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; what SQLite reports becomes the package's errors."""
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
            except _SQLITE_ERRORS as error:
                raise self.failure(error) from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        if self.readonly:
            raise GameLogError(f"{self.path}: the game log was opened with readonly=True: it cannot record games")
        with self.connection() as conn:
            conn.execute("BEGIN IMMEDIATE")  # take the write lock now, not halfway through
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                _roll_back(conn)
                raise

    def close(self) -> None:
        """Close the connection (a later operation opens it again)."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


def _roll_back(conn: sqlite3.Connection) -> None:
    """Undo the open transaction, if SQLite has not already (a failed ``COMMIT`` may have):
    the error that led here is the one to report, not a failed ``ROLLBACK``."""
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
