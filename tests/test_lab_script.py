"""scripts/lab.sh as a newcomer runs it: in a fresh clone, open an example, run it, save it,
make a notebook of one's own; the clone stays clean and examples/ untouched."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.support import KERNEL_IDLE, disable_news, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)


def git(clone: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=clone, check=True, capture_output=True, text=True).stdout


def fresh_clone(tmp_path: Path) -> Path:
    """A repository holding exactly the files tracked here, as this working tree has them
    (a clone of HEAD would miss uncommitted work), with this test run's .venv beside it so
    the script finds its packages installed."""
    clone = tmp_path / "clone"
    for name in git(ROOT, "ls-files").splitlines():
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    git(clone, "init", "-q")
    git(clone, "add", "-A")
    git(clone, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "clone")
    (clone / ".venv").symlink_to(VENV, target_is_directory=True)
    return clone


def dirty(clone: Path) -> str:
    """What git sees changed or new (the .venv link aside, which a real .venv folder is not)."""
    return git(clone, "status", "--porcelain", "--", ".", ":!.venv")


def test_lab_script_serves_a_working_copy_and_keeps_examples_clean(tmp_path: Path, browser: Any) -> None:
    clone = fresh_clone(tmp_path)
    examples = {p.name: p.read_bytes() for p in (clone / "examples").glob("*.ipynb")}
    disable_news()
    port = free_port()
    args = ["--no-browser", f"--port={port}", "--IdentityProvider.token=", "--ServerApp.password="]
    log = (tmp_path / "lab.log").open("w")
    proc = subprocess.Popen(
        ["bash", "scripts/lab.sh", *args, "--LabApp.expose_app_in_browser=True"],
        cwd=clone,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # ends when the server answers; long only on a loaded machine
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "lab.log").read_text()
                time.sleep(0.2)
        # the working copy holds every example; JupyterLab serves it, not the repository
        assert sorted(p.name for p in (clone / "notebooks").glob("*.ipynb")) == sorted(examples)
        with urllib.request.urlopen(f"{url}/api/contents") as response:
            listed = response.read().decode()
        assert "03-scripting-positions.ipynb" in listed and '"examples"' not in listed

        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.set_default_timeout(120_000)
        page.goto(f"{url}/lab/tree/03-scripting-positions.ipynb")
        page.wait_for_function(KERNEL_IDLE)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(
            """() => window.jupyterapp.shell.currentWidget.content.widgets
                .every(c => c.model.type !== 'code' || c.model.executionCount)"""
        )
        page.wait_for_function(KERNEL_IDLE)
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.evaluate(
            "() => window.jupyterapp.commands.execute('docmanager:new-untitled', {path: '', type: 'notebook'})"
        )
        deadline = time.monotonic() + 30
        while not list((clone / "notebooks").glob("Untitled*.ipynb")) and time.monotonic() < deadline:
            time.sleep(0.2)
        page.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()

    saved = (clone / "notebooks" / "03-scripting-positions.ipynb").read_text()
    code = [c for c in nbformat.reads(saved, as_version=4).cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code) and sum(bool(c.outputs) for c in code) > len(code) // 2  # saved there
    assert list((clone / "notebooks").glob("Untitled*.ipynb"))  # the new notebook went there too
    assert {p.name: p.read_bytes() for p in (clone / "examples").glob("*.ipynb")} == examples
    assert dirty(clone) == ""

    # Run again: a notebook the user changed is kept, one they deleted comes back.
    (clone / "notebooks" / "01-play.ipynb").unlink()
    before = saved
    again = subprocess.run(["bash", "scripts/lab.sh", "--version"], cwd=clone, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert (clone / "notebooks" / "03-scripting-positions.ipynb").read_text() == before
    assert (clone / "notebooks" / "01-play.ipynb").read_bytes() == examples["01-play.ipynb"]
    assert dirty(clone) == ""
