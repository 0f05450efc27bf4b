"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

from tests.support import MissingBrowser, chromium


def unavailable(reason: str) -> NoReturn:
    """Browser tests must run in CI: there a missing piece is a failure, elsewhere a skip."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for one test module (closed after it, so the next module can open its own)."""
    try:
        with chromium() as b:
            yield b
    except MissingBrowser as error:
        unavailable(str(error))
