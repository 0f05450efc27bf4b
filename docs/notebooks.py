"""Execute the example notebooks for the documentation's tutorials.

    python docs/notebooks.py [NOTEBOOK ...]

Each notebook of examples/ (kept there without outputs) is run top to bottom in a fresh
kernel, as tests/test_examples.py runs it, and written with its outputs to docs/tutorials/.
A static page cannot run a live widget, so each board a cell shows is replaced by a picture of
the position that board showed right after that cell ran (``reversi_widget.svg``), with the
status line the widget showed; the "Try it" link at the top opens the notebook itself, live,
in the JupyterLite site placed beside the docs (``scripts/docs.sh --lite``).

A copy is made again only when the source notebook, this runner or the package has changed
since (their hash is kept in the copy's metadata), so a second build costs nothing. Any error
in a cell stops the build, naming the notebook and the cell.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TUTORIALS = ROOT / "docs" / "tutorials"
#: Where a tutorial page links to open its notebook live: the JupyterLite site, built by
#: scripts/lite.sh and placed by scripts/docs.sh as site/lite beside site/docs.
LITE_FROM_TUTORIAL = "../../lite/lab/index.html?path="
#: Seconds a cell may take where one does a long job: 06 indexes the whole WTHOR database when
#: it is there (some 2 to 3 minutes on 2 loaded cores, benchmarks/explorer.py).
LONG_CELLS = {"06-explorer.ipynb": 900}
CELL_TIMEOUT = 180
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
METADATA_KEY = "reversi_docs"

#: Run first, unseen: keeps every widget the notebook makes.
_RECORD_WIDGETS = """\
import ipywidgets as _docs_ipw
_docs_widgets = []
_docs_ipw.Widget.on_widget_constructed(_docs_widgets.append)
"""
#: Asked after a cell that shows a widget: a picture of each board in it (a widget may hold
#: several in a box), with the status line each showed.
_PICTURE = """\
import json as _docs_json
from reversi_widget import ReversiWidget as _DocsBoard, svg as _docs_svg
def _docs_boards(w):
    if isinstance(w, _DocsBoard):
        return [w]
    return [b for child in getattr(w, "children", ()) for b in _docs_boards(child)]
def _docs_picture(w):
    last = w.last_move if w.last_move not in ("", "pass") else None
    picture = _docs_svg.board(w.board, lastmove=last, flips=w.last_flips or None, legal=not w.game_over, size=320)
    return {{"svg": str(picture), "status": w.status}}
_docs_shown = [w for w in _docs_widgets if w.model_id == {model_id!r}]
print(_docs_json.dumps([_docs_picture(b) for w in _docs_shown for b in _docs_boards(w)]))
"""


def source_hash(source: Path) -> str:
    """The hash of a notebook's source, of this runner and of every file of the package it runs."""
    digest = hashlib.sha256(source.read_bytes())
    digest.update(Path(__file__).read_bytes())
    for path in sorted((ROOT / "reversi_widget").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(ROOT).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def up_to_date(source: Path, copy: Path, wanted: str) -> bool:
    if not copy.exists():
        return False
    metadata = json.loads(copy.read_text(encoding="utf-8")).get("metadata", {})
    return bool(metadata.get(METADATA_KEY, {}).get("source") == wanted)


def run_unseen(client: NotebookClient, cell: Any, index: int) -> None:
    """Run ``cell`` in the notebook's kernel without it showing in the notebook: nbclient puts
    the cell it ran at ``index``, so the notebook's own cell is put back, and its count is kept."""
    own = client.nb.cells[index] if index < len(client.nb.cells) else None
    client.execute_cell(cell, index, store_history=False)
    if own is not None:
        client.nb.cells[index] = own


def pictures_of(client: NotebookClient, model_id: str, index: int) -> list[Any]:
    """The outputs that stand for the widget ``model_id`` in a static page."""
    probe = nbformat.v4.new_code_cell(_PICTURE.format(model_id=model_id))
    run_unseen(client, probe, index)
    text = "".join(o.get("text", "") for o in probe.outputs if o.get("name") == "stdout")
    boards = json.loads(text)
    if not boards:  # a widget without a board: said in words
        return [nbformat.v4.new_output("display_data", data={"text/plain": "(a live widget: try it in the notebook)"})]
    return [
        nbformat.v4.new_output(
            "display_data",
            data={
                "image/svg+xml": shown["svg"],
                "text/plain": f"The board, as the live widget shows it: {shown['status']}",
            },
        )
        for shown in boards
    ]


def try_it_cell(name: str) -> Any:
    link = f'<a class="try-it" href="{LITE_FROM_TUTORIAL}{name}">Try it live: open this notebook in your browser</a>'
    note = (
        "The boards below are pictures of what each live board showed when this page was made. "
        "The link opens the notebook in the JupyterLite site, where Python runs in your browser "
        "and the boards can be played."
    )
    return nbformat.v4.new_markdown_cell(f"{link}\n\n{note}")


def execute(source: Path, copy: Path) -> None:
    """Run ``source`` and write it, with its outputs and pictures of its boards, to ``copy``."""
    notebook = nbformat.read(source, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=LONG_CELLS.get(source.name, CELL_TIMEOUT),
        kernel_name="python3",
        resources={"metadata": {"path": str(EXAMPLES)}},
    )
    with client.setup_kernel():
        run_unseen(client, nbformat.v4.new_code_cell(_RECORD_WIDGETS), 0)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, index)  # raises CellExecutionError, naming the cell, on an error
            cell.outputs = [
                shown
                for output in cell.outputs
                for shown in (
                    pictures_of(client, output["data"][WIDGET_VIEW]["model_id"], index)
                    if WIDGET_VIEW in output.get("data", {})
                    else [output]
                )
            ]
    after_title = 1 if notebook.cells and notebook.cells[0].cell_type == "markdown" else 0
    notebook.cells.insert(after_title, try_it_cell(source.name))
    notebook.metadata.pop("widgets", None)
    notebook.metadata[METADATA_KEY] = {"source": source_hash(source)}
    copy.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, copy)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="names in examples/ (default: all)")
    args = parser.parse_args(argv)
    names = args.notebooks or sorted(p.name for p in EXAMPLES.glob("*.ipynb"))
    for name in names:
        source, copy = EXAMPLES / name, TUTORIALS / name
        wanted = source_hash(source)
        if up_to_date(source, copy, wanted):
            print(f"{name}: up to date")
            continue
        print(f"{name}: executing", flush=True)
        execute(source, copy)
    for stale in TUTORIALS.glob("*.ipynb"):
        if not (EXAMPLES / stale.name).exists():
            stale.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
