"""The stress suite's size knob and shared plumbing.

``REVERSI_STRESS`` picks the size: unset or ``short`` is the form CI runs (about a tenth of
the counts), ``full`` is the long form::

    REVERSI_STRESS=full python -m pytest tests/stress

Tests ask the ``stress`` fixture for their counts (``stress.count(full=10_000)``) and record
what they actually ran with ``figures.record(...)``; the figures are printed at the end of
the run, so the counts and times of a run can be quoted.

The helpers of the other test modules are reused, not copied: they are imported from
``tests.test_widget_model``, ``tests.test_records``..., and the harness fixtures of
``tests/frontend/conftest.py`` are imported here so the stress tests can use them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.frontend.conftest import _shared_page, boot, page, server_url

SIZES = ("short", "full")
SIZE = os.environ.get("REVERSI_STRESS", "short").strip().lower() or "short"
if SIZE not in SIZES:
    raise pytest.UsageError(f"REVERSI_STRESS={SIZE!r}: expected one of {', '.join(SIZES)} (unset means short)")
SHORT_FRACTION = 10  # the short form runs about 1/10 of every full count


@dataclass(frozen=True)
class Stress:
    """How big this run is; ``count`` turns a full-form count into this run's count."""

    full: bool

    def count(self, full: int, short: int | None = None) -> int:
        """``full`` in the full form, else ``short`` (default: a tenth of ``full``, at least 1)."""
        if self.full:
            return full
        return short if short is not None else max(1, full // SHORT_FRACTION)


@dataclass
class Figures:
    """Counts and times the stress tests report, printed in the terminal summary."""

    lines: list[str] = field(default_factory=list)

    def record(self, part: str, what: str, count: int | None = None, seconds: float | None = None) -> None:
        items = [f"{part}: {what}"]
        if count is not None:
            items.append(f"{count:,}")
        if seconds is not None:
            items.append(f"{seconds:.1f}s")
        self.lines.append("  ".join(items))

    @staticmethod
    def clock() -> float:
        return time.perf_counter()


_FIGURES = Figures()


@pytest.fixture(scope="session")
def stress() -> Stress:
    return Stress(full=SIZE == "full")


@pytest.fixture(scope="session")
def figures() -> Figures:
    return _FIGURES


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _FIGURES.lines:
        terminalreporter.section(f"stress figures ({SIZE} form)")
        for line in _FIGURES.lines:
            terminalreporter.write_line(line)


# -- the front-end harness (tests/frontend), shared rather than copied -----------------
# ``browser`` (one Chromium per test module) comes from tests/conftest.py; the harness page
# fixtures of tests/frontend/conftest.py are imported at the top, which makes them visible here.


@pytest.fixture
def fresh_page(browser: Any) -> Iterator[Any]:
    """A page of its own (not the harness page), failing the test on any page error or dialog."""
    context = browser.new_context(viewport={"width": 900, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def dismiss(dialog: Any) -> None:
        errors.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    pg.on("dialog", dismiss)
    pg.js_errors = errors
    yield pg
    context.close()
    assert not errors, errors


__all__ = ["_shared_page", "boot", "page", "server_url"]  # boot() needs the other three
