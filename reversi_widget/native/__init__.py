"""The switch between the compiled core and the pure-Python path, in one place.

With the ``fast`` extra (numba) installed, the kernels of this package (``KERNELS``) are
compiled for the boards that fit 64 bits (4x4, 6x6, 8x8). Without numba, with
``REVERSI_WIDGET_PURE=1`` in the environment, or for larger boards, everything runs on the
pure-Python path, with identical results.

Compiling takes a while the first time on a machine (later runs load numba's on-disk cache),
so it happens in a background thread: the first caller that asks for a kernel starts it,
and nothing waits for it unless it asks to. The thread lets ``START_DELAY`` seconds pass
before it imports numba, so the first board or widget of a fresh notebook is not slowed
down by it, unless someone waits for a kernel. ``ready(name)`` says whether a kernel module
can be used now; ``wait(name)`` blocks until it can (or is known to be unavailable), which
suits scripts and long computations. If numba is missing or compiling fails, one warning is
logged and the pure path is used from then on.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections.abc import Callable
from types import ModuleType

__all__ = [
    "KERNELS",
    "PURE_ENV",
    "SIZES",
    "START_DELAY",
    "failure",
    "logger",
    "pure_forced",
    "ready",
    "wait",
    "when_ready",
]

#: Set to anything but "" or "0" to force the pure-Python path.
PURE_ENV = "REVERSI_WIDGET_PURE"

#: Board sizes whose squares fit one 64-bit word.
SIZES = (4, 6, 8)

#: The kernel modules of this package, compiled in this order by the warm-up.
KERNELS = ("moves", "perft", "endgame", "patterns", "midgame")

#: Seconds the warm-up leaves to whatever started it before it imports numba.
START_DELAY = 1.0

logger = logging.getLogger(__name__)


def pure_forced() -> bool:
    """Whether the environment asks for the pure-Python path."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


class _WarmUp:
    """Loads the kernel modules once, in a background thread, and tells who waits."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.done = {name: threading.Event() for name in KERNELS}
        self.modules: dict[str, ModuleType] = {}
        self.callbacks: dict[str, list[Callable[[ModuleType], None]]] = {name: [] for name in KERNELS}
        self.failure: str | None = None
        self.hurry = threading.Event()  # someone waits: no delay

    def start(self) -> None:
        with self.lock:
            if self.thread is not None:
                return
            self.thread = threading.Thread(target=self._run, name="reversi-widget-compile", daemon=True)
            try:
                self.thread.start()
            except RuntimeError as error:  # no threads here (Pyodide, which has no numba either)
                self.failure = f"no thread to compile in: {error}"
                for event in self.done.values():
                    event.set()

    def _run(self) -> None:
        try:
            # Started while the compiled path was wanted: compile whatever the environment
            # says by the time the delay is over (``ready`` and ``wait`` read it at each call,
            # so a process that asks for the pure path for a while gets it back later).
            self.hurry.wait(START_DELAY)
            try:
                import numba  # noqa: F401
            except ImportError:
                self._fail("numba is not installed (pip install 'reversi-widget[fast]' adds it)")
                return
            for name in KERNELS:
                try:
                    module = importlib.import_module(f"{__name__}.{name}")
                except Exception as error:  # any failure to import or compile means: stay pure
                    self._fail(f"compiling the {name} kernels failed: {type(error).__name__}: {error}")
                    return
                with self.lock:
                    self.modules[name] = module
                    callbacks = self.callbacks[name]
                    self.callbacks[name] = []
                for callback in callbacks:
                    callback(module)
                self.done[name].set()
        finally:
            for event in self.done.values():
                event.set()

    def _fail(self, reason: str) -> None:
        self.failure = reason
        logger.warning("the compiled engine core is not available, using the pure-Python path: %s", reason)

    def when_ready(self, name: str, callback: Callable[[ModuleType], None]) -> None:
        with self.lock:
            module = self.modules.get(name)
            if module is None:
                self.callbacks[name].append(callback)
        if module is not None:
            callback(module)
        else:
            self.start()


_warm_up = _WarmUp()


def ready(name: str) -> bool:
    """Whether the kernel module ``name`` is compiled and loaded (starts the warm-up if needed)."""
    if name not in _warm_up.done:
        raise ValueError(f"no kernel module {name!r}: expected one of {', '.join(KERNELS)}")
    if pure_forced():
        return False
    if name in _warm_up.modules:
        return True
    _warm_up.start()
    return False


def wait(name: str, timeout: float | None = None) -> bool:
    """Block until the kernel module ``name`` is loaded or known to be unavailable; its readiness."""
    if ready(name):
        return True
    if pure_forced():
        return False
    _warm_up.hurry.set()
    _warm_up.done[name].wait(timeout)
    return name in _warm_up.modules


def when_ready(name: str, callback: Callable[[ModuleType], None]) -> None:
    """Call ``callback(module)`` once the kernel module ``name`` is loaded: at once if it is,
    later from the warm-up thread if it is not, never if it cannot be (pure path)."""
    if name not in _warm_up.done:
        raise ValueError(f"no kernel module {name!r}: expected one of {', '.join(KERNELS)}")
    if pure_forced():
        return
    _warm_up.when_ready(name, callback)


def failure() -> str | None:
    """Why the compiled core is unavailable, once that is known (``None`` otherwise)."""
    if pure_forced():
        return f"{PURE_ENV} asks for the pure-Python path"
    return _warm_up.failure
