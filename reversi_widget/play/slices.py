"""Work in slices on the event loop, for where there are no threads (Pyodide in a browser).

A piece of work is a function that may return an iterator of delays: the function's body up
to its first ``yield`` is one slice, each delay it yields is waited for on the event loop,
and the body from there to the next ``yield`` is the next slice. Between slices the kernel
handles its messages (a click, an undo), so a result can go stale while its work waits.
Inside a slice, ``pause()`` lets the event loop run where the runtime can suspend the call
stack (Pyodide with JavaScript promise integration); elsewhere it returns at once.

``wait()`` runs what is pending itself, in order and keeping each delay: a cell that waits
for a computer's move blocks the only thread, so nothing else would.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

__all__ = ["SLICE", "EventLoopRunner", "Work", "pause_the_stack"]

#: Seconds of work between two pauses inside one slice.
SLICE = 0.05

#: A piece of work: one slice, or several separated by the delays it yields.
Work = Callable[[], Iterable[float] | None]


def pause_the_stack() -> None:
    """Let the event loop run for a moment in the middle of a slice, if the runtime can
    suspend this call stack (Pyodide with JavaScript promise integration)."""
    try:
        from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found]
    except ImportError:
        return
    if can_run_sync():
        run_sync(asyncio.sleep(0))


@dataclass(eq=False)
class _Run:
    name: str
    work: Work
    steps: Iterator[float] | None = None
    ready_at: float = 0.0  # time.monotonic() when its next slice may run
    running: bool = False  # a slice of it is on the stack (paused, or running wait())
    timer: asyncio.Handle | None = field(default=None, repr=False)


class EventLoopRunner:
    """The pending pieces of work, each run one slice at a time on the event loop."""

    def __init__(self, log: logging.Logger, pause: Callable[[], None] = pause_the_stack) -> None:
        self._log = log
        self.pause = pause
        self.runs: list[_Run] = []
        self._last_pause = time.monotonic()

    def spawn(self, name: str, work: Work) -> None:
        """Run ``work`` from the event loop's next turn (or from ``wait()``)."""
        run = _Run(name, work, ready_at=time.monotonic())
        self.runs.append(run)
        self._schedule(run, 0.0)

    def breathe(self) -> None:
        """Called often from inside a slice: pause at most every ``SLICE`` seconds."""
        now = time.monotonic()
        if now - self._last_pause >= SLICE:
            self.pause()
            self._last_pause = time.monotonic()

    def wait(self, idle: Callable[[], bool], timeout: float | None) -> bool:
        """Run pending slices here until ``idle()`` (True) or ``timeout`` seconds pass (False)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not idle():
            waiting = [run for run in self.runs if not run.running]
            if not waiting:
                if not self.runs:
                    return idle()
                # Every run left is paused in the middle of a slice, below this call: only
                # the event loop can take it further.
                self.pause()
                if deadline is not None and time.monotonic() >= deadline:
                    return False
                continue
            run = min(waiting, key=lambda r: r.ready_at)
            delay = run.ready_at - time.monotonic()
            if deadline is not None and time.monotonic() + max(delay, 0.0) > deadline:
                time.sleep(max(0.0, deadline - time.monotonic()))
                return idle()
            if delay > 0:
                time.sleep(delay)
            self._step(run)
        return True

    # -- the slices ---------------------------------------------------------------------------

    def _schedule(self, run: _Run, delay: float) -> None:
        loop: asyncio.AbstractEventLoop | None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = self._idle_loop()
        if loop is not None:  # else the run waits for wait()
            run.timer = loop.call_later(delay, self._step, run)

    @staticmethod
    def _idle_loop() -> asyncio.AbstractEventLoop | None:
        """Pyodide's loop is the browser's: always there, running between calls into Python."""
        if sys.platform != "emscripten":
            return None
        return asyncio.get_event_loop()

    def _step(self, run: _Run) -> None:
        """One slice of ``run``, then its next one scheduled (or it is done)."""
        if run.running or run not in self.runs:
            return  # wait() took it further already, or it is paused below this call
        if run.timer is not None:
            run.timer.cancel()
            run.timer = None
        run.running = True
        self._last_pause = time.monotonic()
        try:
            if run.steps is None:
                steps = run.work()
                if steps is None:
                    raise StopIteration
                run.steps = iter(steps)
            delay = max(0.0, float(next(run.steps)))
        except StopIteration:
            self.runs.remove(run)
            return
        except Exception:  # a bug must not stop the other runs
            self.runs.remove(run)
            self._log.exception("reversi-widget: the %s work failed", run.name)
            return
        finally:
            run.running = False
        run.ready_at = time.monotonic() + delay
        self._schedule(run, delay)
