"""The documentation site as a reader meets it: built by scripts/docs.sh, with the JupyterLite
site beside it. Shared by tests/test_docs_site.py and tests/test_examples.py.

scripts/test.sh starts scripts/docs.sh before the tests (``EARLY_BUILD_ENV`` names its log), as
it starts the JupyterLite build: the tests wait for it instead of building again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import wait_for_early_build

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "docs" / "_build" / "site"
#: Set by scripts/test.sh, which starts scripts/docs.sh before the tests: the build's log.
#: Its exit status is written to the same path with ``.status`` added when it ends.
EARLY_BUILD_ENV = "REVERSI_DOCS_BUILD_LOG"


class BuildFailed(RuntimeError):
    """scripts/docs.sh failed; the message is the end of its output."""


def early_build() -> Path | None:
    """The log of the build scripts/test.sh started, if it started one."""
    log = os.environ.get(EARLY_BUILD_ENV)
    return Path(log) if log else None


def wait_for_build(log: Path) -> tuple[int, str]:
    """(exit status, output) of the scripts/docs.sh build that writes ``log``, once it has ended."""
    return wait_for_early_build(log, "scripts/docs.sh")


def build_site() -> Path:
    """docs/_build/site/ built from this clone by scripts/docs.sh (with this Python), or the
    one scripts/test.sh is building, once it is done."""
    log = early_build()
    if log:
        status, output = wait_for_build(log)
    else:
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "docs.sh")],
            capture_output=True,
            text=True,
            env={**os.environ, "DOCS_PYTHON": sys.executable},
            check=False,
        )
        status, output = done.returncode, done.stdout + done.stderr
    if status != 0:
        raise BuildFailed(output[-6000:])
    return SITE
