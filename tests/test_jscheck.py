"""The front end is checked without a build step, and the checks can fail.

js/widget.js declares every synced trait and every intent as JSDoc types (`// @ts-check`), so
TypeScript refuses a key that is not a trait's, a value of the wrong type and an intent that
does not exist; Biome lints js/. Both are the pinned npm packages that scripts/jscheck.sh
installs into node_modules/. The types themselves are compared with the Python side here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from reversi_widget.play.intents import INTENTS
from reversi_widget.play.traits import WidgetTraits
from reversi_widget.widget import SETTINGS
from tests.support import unavailable

ROOT = Path(__file__).resolve().parent.parent
WIDGET = ROOT / "js" / "widget.js"
SOURCE = WIDGET.read_text(encoding="utf-8")
#: The tools run from a copy of the file in a directory of its own: no test touches js/.
TIMEOUT = 120


def tool(name: str) -> str:
    """A pinned npm tool from node_modules/.bin."""
    path = ROOT / "node_modules" / ".bin" / name
    if not path.exists():
        unavailable(f"{path} is missing: `bash scripts/jscheck.sh` installs it (npm ci)")
    return str(path)


def type_check(folder: Path, source: str) -> subprocess.CompletedProcess[str]:
    """TypeScript, with the project's jsconfig.json, on ``source`` as the widget's module."""
    (folder / "widget.js").write_text(source, encoding="utf-8")
    config = {"extends": str(ROOT / "jsconfig.json"), "include": ["widget.js"]}
    (folder / "jsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    command = [tool("tsc"), "-p", str(folder / "jsconfig.json")]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def changed(old: str, new: str) -> tuple[str, int]:
    """The module with the first ``old`` replaced by ``new``, and the line of the change."""
    at = SOURCE.index(old)
    return SOURCE[:at] + new + SOURCE[at + len(old) :], SOURCE.count("\n", 0, at) + 1


def test_the_module_type_checks(tmp_path: Path) -> None:
    result = type_check(tmp_path, SOURCE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert SOURCE.startswith("// @ts-check\n")


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ('get("discs", "")', 'get("discz", "")', '"discz"'),  # reading a trait
        ('life.on("discs legal show_legal', 'life.on("discs legl show_legal', '"legl is not a trait"'),  # listening
        ('setting("shown", seen)', 'setting("shwon", seen)', '"shwon"'),  # writing a setting
        ('setting("shown", seen)', 'setting("ply", seen)', '"ply"'),  # writing a trait only Python writes
        ('send({ kind: "undo" })', 'send({ kind: "undoo" })', '"undoo"'),  # an intent
        # a field of a dict trait
        ('const live = get("live", {}) || {};', 'const live = get("live", {}) || {}; void live.blak;', "'blak'"),
    ],
)
def test_a_mistyped_key_fails_the_type_check(tmp_path: Path, old: str, new: str, named: str) -> None:
    """Without the types, a key that is no trait's silently reads the default."""
    source, line = changed(old, new)
    result = type_check(tmp_path, source)
    assert result.returncode != 0
    errors = [e for e in result.stdout.splitlines() if f"widget.js({line}," in e]
    assert errors, f"no error on line {line}:\n{result.stdout}"
    assert any(named in e for e in errors), errors


def test_the_value_type_follows_the_key(tmp_path: Path) -> None:
    source, line = changed('get("ply", 0)', 'get("ply", "0")')
    result = type_check(tmp_path, source)
    assert result.returncode != 0
    assert f"widget.js({line}," in result.stdout and "'number'" in result.stdout, result.stdout


def typedef(name: str) -> str:
    """The JSDoc comment that declares ``name``."""
    for block in re.findall(r"/\*\*.*?\*/", SOURCE, re.S):
        if re.search(rf"@typedef \{{.*?\}} {name}\b|@typedef \{{object\}} {name}\b", block, re.S):
            return str(block)
    raise AssertionError(f"no typedef {name} in js/widget.js")


def properties(name: str) -> set[str]:
    return set(re.findall(r"@property \{.+?\} \[?(\w+)", typedef(name)))


def test_the_types_declare_every_synced_trait() -> None:
    synced = set(WidgetTraits.class_own_traits(sync=True))
    assert properties("Settings") == set(SETTINGS)
    assert properties("Settings") | properties("PythonTraits") == synced


def test_the_types_declare_every_intent_with_its_fields() -> None:
    plain = set(re.findall(r'"(\w+)"', typedef("PlainIntent")))
    declared: dict[str, set[str]] = {kind: {"ply"} for kind in plain}
    for kinds, fields in re.findall(r"\{ kind: ([^,}]+?)(?:, ([^}]*))? \}", typedef("IntentBody")):
        names = {"ply", *re.findall(r"(\w+):", fields)}
        for kind in re.findall(r'"(\w+)"', kinds):
            declared[kind] = names
    assert declared == {kind: set(fields) for kind, fields in INTENTS.items()}


def test_the_linter_passes_on_js() -> None:
    command = [tool("biome"), "ci", "--colors=off", "--error-on-warnings", "--verbose", "js"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    for linted in ("js/widget.js", "js/widget.css"):  # the files it looked at
        assert f"- {linted}" in result.stdout + result.stderr


def test_the_linter_finds_a_fault(tmp_path: Path) -> None:
    shutil.copy(ROOT / "biome.jsonc", tmp_path)
    shutil.copytree(ROOT / "js", tmp_path / "js")
    with (tmp_path / "js" / "widget.js").open("a", encoding="utf-8") as out:
        out.write("export function stop() { debugger; }\n")
    command = [tool("biome"), "ci", "--colors=off", "--error-on-warnings", "js"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert result.returncode != 0
    assert "noDebugger" in result.stdout + result.stderr
