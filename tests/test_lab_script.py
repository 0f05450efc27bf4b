"""scripts/lab.sh as a newcomer runs it: in a fresh clone, open an example, run it, save it,
make a notebook of one's own; the clone stays clean and examples/ untouched."""

from __future__ import annotations

import os
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


def ready_lines(log: Path, proc: subprocess.Popen[bytes], timeout: float = 300) -> list[str]:
    """The lines scripts/lab.sh prints once JupyterLab answers (it is then ready for a browser); the
    wait ends as soon as they are there, long only on a loaded machine."""
    deadline = time.monotonic() + timeout
    while True:
        said = [line for line in log.read_text().splitlines() if line.startswith("scripts/lab.sh: ")]
        if any("press Ctrl-C" in line for line in said):
            return said
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)


def test_lab_script_serves_a_working_copy_and_keeps_examples_clean(tmp_path: Path, browser: Any) -> None:
    clone = fresh_clone(tmp_path)
    examples = {p.name: p.read_bytes() for p in (clone / "examples").glob("*.ipynb")}
    disable_news()
    port = free_port()
    log = (tmp_path / "lab.log").open("w")
    proc = subprocess.Popen(
        ["bash", "scripts/lab.sh", "--no-browser", f"--port={port}", "--LabApp.expose_app_in_browser=True"],
        cwd=clone,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        # It says what it does, then where JupyterLab is, with its token, and what to open first.
        said = ready_lines(tmp_path / "lab.log", proc)
        assert (
            said[0]
            == f"scripts/lab.sh: copied {len(examples)} example notebook(s) into notebooks/ (examples/ stays as it is)."
        )
        ready = next(line for line in said if "JupyterLab is ready at " in line).split(" at ", 1)[1]
        first = next(line for line in said if "open 01-play.ipynb first: " in line).split("first: ", 1)[1]
        base, token = ready.split("/lab?token=")
        assert base == f"http://localhost:{port}" and len(token) >= 32
        assert first == f"{base}/lab/tree/01-play.ipynb?token={token}"
        url = base  # the browser keeps the token's login for this host
        # the working copy holds every example; JupyterLab serves it, not the repository
        assert sorted(p.name for p in (clone / "notebooks").glob("*.ipynb")) == sorted(examples)
        with urllib.request.urlopen(f"{url}/api/contents?token={token}") as response:
            listed = response.read().decode()
        assert "03-scripting-positions.ipynb" in listed and '"examples"' not in listed

        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.set_default_timeout(120_000)
        page.goto(first)  # the address as printed opens the first notebook, logged in by its token
        page.wait_for_function(KERNEL_IDLE)
        assert page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path") == "01-play.ipynb"
        page.goto(f"{url}/lab/tree/03-scripting-positions.ipynb?reset")  # that one alone
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


def test_lab_script_says_what_it_does_while_it_installs(tmp_path: Path) -> None:
    """The first run installs for a minute or more: it says so at once, and keeps saying that
    it works (here with a stand-in pip that takes 11 s and a stand-in JupyterLab)."""
    clone = fresh_clone(tmp_path)
    (clone / ".venv").unlink()
    tools = tmp_path / "tools"
    tools.mkdir()
    # python3 -m venv .venv makes a .venv whose python has nothing installed until pip ran.
    fake_python = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then sleep 11; touch .venv/installed; exit 0; fi
if [ "$1" = "-c" ]; then [ -e .venv/installed ]; exit $?; fi
exit 1
"""
    (tools / "python3").write_text(
        "#!/bin/sh\nmkdir -p .venv/bin\n"
        f"cat > .venv/bin/python <<'EOF'\n{fake_python}EOF\n"
        "printf '#!/bin/sh\\necho JupyterLab stand-in \"$@\"\\n' > .venv/bin/jupyter\n"
        "chmod +x .venv/bin/python .venv/bin/jupyter\n"
    )
    (tools / "python3").chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}"}
    started = time.monotonic()
    done = subprocess.run(
        ["bash", "scripts/lab.sh", "--no-browser"], cwd=clone, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[0].startswith("scripts/lab.sh: first run: making .venv and installing reversi-widget with JupyterLab")
    assert "a minute or two" in said[1]
    assert said[2] == "scripts/lab.sh:   still installing... (10 s)"
    assert said[3].startswith("scripts/lab.sh: installed in ") and said[3].endswith(" s.")
    notebooks = len(list((clone / "examples").glob("*.ipynb")))
    assert said[4].startswith(f"scripts/lab.sh: copied {notebooks} example notebook(s)")
    assert said[5] == "scripts/lab.sh: starting JupyterLab on notebooks/..."
    assert said[6].startswith("JupyterLab stand-in ") and "--LabApp.default_url=/lab/tree/01-play.ipynb" in said[6]
    assert time.monotonic() - started >= 11
