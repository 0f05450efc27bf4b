"""Where the widget's work runs: the one lock, the worker threads and the callbacks.

Every change of the game is an *operation*: it holds the lock, its trait changes are sent
as one batch, and at its end the widget settles (starts what is due, redraws) before the
callbacks it made due run, outside the lock. Slow work (a computer's move, an analysis)
runs away from the game on a copy and comes back as an operation of its own: in a worker
thread, or where there are no threads (Pyodide, or ``THREADS = False``) in slices on the
event loop (``slices``). This module alone decides how work is scheduled (``spawn``).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..players import Player, player_name
from ..progress import Progress
from .session import Session
from .slices import EventLoopRunner, Work

if TYPE_CHECKING:  # aids needs puzzle mode, which needs the workers
    from .aids import Job

__all__ = [
    "BACKGROUND_DELAY",
    "BACKGROUND_NICE",
    "PROGRESS_EVERY",
    "THREADS",
    "Backlog",
    "Callbacks",
    "Stale",
    "Workers",
]

#: Seconds between two progress updates sent to the views by one running analysis.
PROGRESS_EVERY = 0.1
#: An analysis only the live evaluation wants starts this many seconds after the move that
#: made it due (the move's redraw goes out first, and a position clicked past is not searched)...
BACKGROUND_DELAY = 0.15
#: ... and its thread runs at this nice value where the system gives threads their own (Linux):
#: on a small machine the kernel's answer to the next click, the server and the browser come first.
BACKGROUND_NICE = 10

#: Whether widgets made from now on run their work in threads. Pyodide has none; tests set
#: this to False to run the no-thread mode under CPython.
THREADS = sys.platform != "emscripten"


class Stale(Exception):
    """Raised from a progress report to stop an analysis whose result is no longer wanted."""


Callback = tuple[Callable[..., object], tuple[object, ...]]
_F = TypeVar("_F")
_T = TypeVar("_T")


class Backlog(Generic[_T]):
    """Items to be handled away from the lock one after the other, in the order they came
    (a learner's tries, kept in a log): one worker at a time takes them (``Workers.drain``).
    Read and changed under the widget's lock."""

    def __init__(self) -> None:
        self.waiting: deque[_T] = deque()
        self.draining = False  # a worker takes the items; it stops when none is left

    def add(self, item: _T) -> bool:
        """Queue ``item``; True when no worker takes the items yet, so one must start."""
        self.waiting.append(item)
        start, self.draining = not self.draining, True
        return start

    def busy(self) -> bool:
        return self.draining


class Callbacks(Generic[_F]):
    """The callbacks registered for one event, added and removed from any thread."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._callbacks: list[_F] = []

    def add(self, callback: _F) -> Callable[[], None]:
        """Register ``callback``; returns a function that removes it (twice is harmless)."""
        if not callable(callback):
            raise TypeError(f"a callback must be callable, got {callback!r}")
        with self._lock:
            self._callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def __iter__(self) -> Iterator[_F]:
        with self._lock:
            return iter(list(self._callbacks))

    def __contains__(self, callback: object) -> bool:
        with self._lock:
            return callback in self._callbacks


class Workers:
    """The lock, the idle condition, the worker threads, per-player locks and the callback queue.

    ``batch`` holds back trait updates for the length of an operation; ``settle`` runs at
    the end of the outermost one, still under the lock; ``failed`` is told when a queued
    callback raises."""

    def __init__(
        self,
        batch: Callable[[], AbstractContextManager[Any]],
        settle: Callable[[], None],
        failed: Callable[[Callable[..., object], Exception], None],
        log: logging.Logger,
    ) -> None:
        self.lock = threading.RLock()
        self.idle = threading.Condition(self.lock)
        self.writer: int | None = threading.get_ident()  # the thread allowed to write the picture
        self.threads: set[threading.Thread] = set()
        self._batch, self._settle, self._failed, self._log = batch, settle, failed, log
        self._depth = 0
        self._queued: list[Callback] = []
        self._calling: Counter[int] = Counter()  # threads running queued callbacks (wait() waits for them)
        self._player_locks: dict[int, threading.Lock] = {}  # one choose() at a time per player object
        self.jobs: list[Job] = []  # the analyses running
        self.runner = None if THREADS else EventLoopRunner(log)  # the event loop's slices, without threads

    # -- operations ---------------------------------------------------------------------------

    @contextmanager
    def operation(self) -> Iterator[None]:
        """Hold the lock and batch trait changes; on the way out settle, then run the
        callbacks the operation queued (outside the lock)."""
        callbacks: list[Callback] = []
        with self.lock:
            outer = self._depth == 0
            self._depth += 1
            previous_writer, self.writer = self.writer, threading.get_ident()
            try:
                with self._batch():
                    try:
                        yield
                    finally:
                        if outer:
                            self._settle()
                            self._stop_stale_jobs()
            finally:
                if outer:
                    callbacks, self._queued = self._queued, []
                    if callbacks:
                        self._calling[threading.get_ident()] += 1
                    self.idle.notify_all()
                self.writer = previous_writer
                self._depth -= 1
        if callbacks:
            try:
                self._run(callbacks)
            finally:
                with self.idle:
                    me = threading.get_ident()
                    self._calling[me] -= 1
                    if not self._calling[me]:
                        del self._calling[me]
                    self.idle.notify_all()

    def queue(self, callback: Callable[..., object], *args: object) -> None:
        """Run ``callback(*args)`` once the current operation is over."""
        self._queued.append((callback, args))

    def _run(self, callbacks: list[Callback]) -> None:
        for callback, args in callbacks:
            try:
                callback(*args)
            except Exception as error:
                with self.operation():
                    self._failed(callback, error)

    def wait(self, busy: Callable[[], bool], timeout: float | None) -> bool:
        """Block until nothing is ``busy`` and no other thread runs callbacks (True), or
        ``timeout`` seconds pass (False). Without threads, run the pending work meanwhile."""

        def idle() -> bool:
            # A callback that itself waits must not wait for its own thread.
            me = threading.get_ident()
            return not busy() and not any(thread != me for thread in self._calling)

        if self.runner is not None:
            return self.runner.wait(idle, timeout)
        with self.idle:
            return self.idle.wait_for(idle, timeout)

    # -- work away from the lock ------------------------------------------------------------

    def spawn(self, name: str, work: Work) -> None:
        """The one place work leaves the caller: ``work`` is run in a thread, or in slices on
        the event loop when there are no threads. It may return an iterator of delays, to
        be waited for between its parts."""
        if self.runner is not None:
            self.runner.spawn(name, work)
            return

        def run() -> None:
            try:
                for delay in work() or ():
                    time.sleep(delay)
            except Exception:  # a bug must not die silently in a thread
                self._log.exception("reversi-widget: the %s worker failed", name)
            finally:
                with self.lock:
                    self.threads.discard(threading.current_thread())

        worker = threading.Thread(target=run, name=f"reversi-{name}", daemon=True)
        with self.lock:
            self.threads.add(worker)
        worker.start()

    def computer_move(self, session: Session, player: Player, move_delay: Callable[[], float]) -> None:
        """Let ``player`` choose on a copy of the position; the choice comes back to the
        session, which plays it only if the game has not moved on."""
        generation = session.think(player)
        board = session.board.copy()

        def work() -> Iterable[float]:
            started = time.monotonic()
            choice: object = None
            try:
                # A stale choose() of the same player may still run (after an undo, say): the
                # engine keeps search tables between moves, so one call at a time.
                with self._player_lock(player):
                    with self.lock:
                        wanted = session.generation == generation
                    if not wanted:
                        return  # gone stale while waiting for the player: not worth thinking about
                    choice = player.choose(board)
            except Exception as error:
                choice = error
            # Let the views finish walking through the previous move ("show me") first, and
            # drawing the one before a forced pass of the other side.
            with self.lock:
                delay = max(move_delay() - (time.monotonic() - started), session.demo_wait(), session.pass_wait())
            if delay > 0:
                yield delay
            with self.operation():
                session.computer_moved(generation, choice)

        self.spawn(player_name(player), work)

    def drain(
        self,
        name: str,
        backlog: Backlog[_T],
        handle: Callable[[_T], None],
        failed: Callable[[_T, Exception], None],
    ) -> None:
        """Handle the items of ``backlog`` away from the lock, oldest first, until none is
        left; ``failed(item, error)`` is told, as an operation, of an item that raised. Call
        it when ``backlog.add`` says a worker must start."""

        def work() -> Iterator[float]:
            while True:
                with self.idle:
                    if not backlog.waiting:
                        backlog.draining = False
                        self.idle.notify_all()  # wait() may return now
                        return
                    item = backlog.waiting.popleft()
                try:
                    handle(item)
                except Exception as error:
                    try:
                        with self.operation():
                            failed(item, error)
                    except Exception:  # the worker goes on: the items after it still wait
                        self._log.exception("reversi-widget: could not report a failure of the %s worker", name)
                yield 0.0  # without threads, the event loop gets a turn between two items

        self.spawn(name, work)

    def run_job(self, job: Job) -> None:
        """Run an analysis away from the lock: its progress is recorded at most every
        PROGRESS_EVERY seconds, and once an operation leaves it stale, its search is
        halted where it is (or it stops at its next report)."""
        progress = self._reporter(job.alive, job.record)
        if self.runner is not None:
            job.stop.on_check = self.runner.breathe  # the kernel's messages get in mid-search too

        def work() -> Iterator[float]:
            result: object = None
            if job.background:
                if self.runner is None:
                    _yield_to_others()
                yield BACKGROUND_DELAY
            with self.lock:
                wanted = job.alive()
            try:
                result = job.compute(progress) if wanted else None
            except Stale:
                pass
            except Exception as error:
                result = None if job.stop.halted else error  # halted: stale, not failed
            with self.operation():
                if job in self.jobs:
                    self.jobs.remove(job)
                job.finish(result)

        with self.lock:
            self.jobs.append(job)
        self.spawn(job.name, work)

    def _stop_stale_jobs(self) -> None:
        """At the end of every operation (under the lock): halt the analyses it made stale."""
        for job in self.jobs:
            if not job.stop.halted and not job.alive():
                job.stop.halt()

    def _reporter(self, alive: Callable[[], bool], record: Callable[[float], None]) -> Progress:
        last = 0.0

        def report(fraction: float, message: str) -> None:
            nonlocal last
            if self.runner is not None:
                self.runner.breathe()  # without threads, the kernel's messages get in here
            with self.lock:  # the game may be changing in the kernel's thread
                still = alive()
            if not still:
                raise Stale
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY:
                last = now
                with self.operation():
                    if alive():
                        record(min(1.0, max(0.0, fraction)))

        return report

    def _player_lock(self, player: Player) -> threading.Lock:
        with self.lock:
            return self._player_locks.setdefault(id(player), threading.Lock())


def _yield_to_others() -> None:
    """Lower this worker thread's priority (``BACKGROUND_NICE``) where threads have their own;
    elsewhere, or when it is not allowed, it runs as it is."""
    with suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICE)
