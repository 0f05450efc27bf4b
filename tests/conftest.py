"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import MissingBrowser, chromium, unavailable


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for one test module (closed after it, so the next module can open its own)."""
    try:
        with chromium() as b:
            yield b
    except MissingBrowser as error:
        unavailable(str(error))
