"""Every notebook in examples/ runs from top to bottom without an error, as CI runs it.

The documentation build runs them too, for the tutorials (docs/notebooks.py, the same kernel
and time limits): where it has run a notebook of this very source and package, its run is the
one checked here, so that CI runs each notebook once (scripts/test.sh starts that build before
the tests; they wait for it)."""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from docs import notebooks as docs_notebooks
from tests import docs_site

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
#: Seconds a cell may take where one does a long job: 06 indexes the whole WTHOR database
#: when it is there (some 2 to 3 minutes on 2 loaded cores, benchmarks/explorer.py).
LONG_CELLS = docs_notebooks.LONG_CELLS


def test_there_are_example_notebooks() -> None:
    assert NOTEBOOKS, f"no notebooks in {EXAMPLES}"


def run_for_the_docs(path: Path) -> nbformat.NotebookNode | None:
    """The documentation build's run of ``path``, if it ran this source with this package."""
    log = docs_site.early_build()
    if log:
        docs_site.wait_for_build(log)  # its failure, if any, is the docs test's to report
    copy = docs_notebooks.TUTORIALS / path.name
    if not docs_notebooks.up_to_date(path, copy, docs_notebooks.source_hash(path)):
        return None
    notebook: nbformat.NotebookNode = nbformat.read(copy, as_version=4)
    return notebook


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path) -> None:
    notebook = run_for_the_docs(path)
    if notebook is None:
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(
            notebook,
            timeout=LONG_CELLS.get(path.name, 180),
            kernel_name="python3",
            resources={"metadata": {"path": str(EXAMPLES)}},
        )
        client.execute()
    assert sum(1 for cell in notebook.cells if cell.cell_type == "code" and cell.get("outputs")) > 0
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors


def test_no_notebook_calls_a_number_of_plies_moves() -> None:
    """The move list numbers moves in pairs: a chart of the openings' first ``plies=6`` says
    6 plies, not "6 moves", which would read as twice as many."""
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            for plies in re.findall(r"\bplies=(\d+)", cell.source):
                assert f"({plies} moves)" not in cell.source, path.name
                assert f"({plies} plies)" in cell.source or "title" not in cell.source, path.name
