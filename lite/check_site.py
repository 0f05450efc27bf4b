"""Check a freshly built JupyterLite site before it replaces the old one (run by scripts/lite.sh).

A site that would reach outside itself or miss a piece fails here, naming what is wrong:
every package Pyodide is told to load is a wheel inside the site with the hash the lock gives,
the packages loaded before the first cell (this one among them) and all they depend on are in
the lock, Pyodide and the widget front ends are there, and every example notebook is.

Usage: python lite/check_site.py SITE_FOLDER
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
#: The JupyterLab extensions the site needs: the widgets' front ends, the kernel, and the site's own
#: plugin that keeps a Run All asked for while Python starts (lite/run-when-ready).
EXTENSIONS = (
    "anywidget",
    "@jupyter-widgets/jupyterlab-manager",
    "@jupyterlite/pyodide-kernel-extension",
    "reversi-run-when-ready",
)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")


def problems(site: Path) -> list[str]:
    """Everything missing or pointing outside ``site``; empty when the site is whole."""
    config_path = site / "jupyter-lite.json"
    if not config_path.is_file():
        return [f"{config_path} is missing"]
    config: dict[str, Any] = json.loads(config_path.read_text(encoding="utf-8"))["jupyter-config-data"]
    kernel: dict[str, Any] = config.get("litePluginSettings", {}).get(KERNEL_SETTINGS, {})
    found: list[str] = []

    pyodide_url = str(kernel.get("pyodideUrl", ""))
    if not pyodide_url.startswith("./"):
        found.append(f"Pyodide is loaded from {pyodide_url or 'its default CDN'}, not from the site")
    found += [
        f"static/pyodide/{name} is missing" for name in PYODIDE_FILES if not (site / "static/pyodide" / name).exists()
    ]
    if not kernel.get("disablePyPIFallback"):
        found.append("the kernel would fall back to PyPI for a package the site lacks")

    options: dict[str, Any] = kernel.get("loadPyodideOptions", {})
    lock_url = str(options.get("lockFileURL", ""))
    lock_path = site / lock_url
    if not lock_url.startswith("./") or not lock_path.is_file():
        found.append(f"the package lock {lock_url or '(none)'} is not a file in the site")
        return found
    packages: dict[str, Any] = json.loads(lock_path.read_text(encoding="utf-8"))["packages"]
    for name, package in sorted(packages.items()):
        wheel = lock_path.parent / package["file_name"]
        if "://" in package["file_name"]:
            found.append(f"{name} would load from outside the site: {package['file_name']}")
        elif not wheel.is_file():
            found.append(f"{name}: its wheel {wheel.name} is not in the site")
        elif hashlib.sha256(wheel.read_bytes()).hexdigest() != package["sha256"]:
            found.append(f"{wheel.name} does not match the hash in the lock")

    needed, seen = list(options.get("packages", [])), set()
    if "reversi-widget" not in needed:
        found.append("reversi-widget is not loaded before the first cell")
    while needed:
        name = needed.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in packages:
            found.append(f"{name} is needed before the first cell but not in the lock")
            continue
        needed += packages[name]["depends"]

    names = {ext["name"] for ext in config.get("federated_extensions", [])}
    found += [f"the JupyterLab extension {ext} is missing" for ext in EXTENSIONS if ext not in names]

    for notebook in sorted((ROOT / "examples").glob("*.ipynb")):
        if not (site / "files" / notebook.name).is_file():
            found.append(f"the notebook {notebook.name} is missing")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = problems(Path(argv[1]))
    for problem in found:
        print(f"check_site: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
