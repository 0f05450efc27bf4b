"""The documentation site (scripts/docs.sh): every public name has its page in the API
reference, every error type its section, every internal link of the built pages leads somewhere,
and a reader who follows a tutorial's "Try it" link lands in the JupyterLite site and gets
the board, with Python running in the browser.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import reversi_widget
from reversi_widget import errors
from tests import docs_site, lite_site
from tests.lite_site import BuildFailed as LiteBuildFailed
from tests.support import KERNEL_IDLE, MissingBrowser, unavailable

ROOT = Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "docs" / "api" / "index.md"
CHECK_LINKS = ROOT / "docs" / "check_links.py"


def api_entries() -> list[str]:
    """The names the API reference lists under ``reversi_widget`` (its autosummary entries)."""
    text = API_PAGE.read_text(encoding="utf-8")
    top = text.split("## Modules")[0]
    return re.findall(r"^   (\w+)$", top, re.M)


def test_every_public_name_is_in_the_api_reference() -> None:
    entries = api_entries()
    assert sorted(entries) == sorted(reversi_widget.__all__)
    assert len(entries) == len(set(entries))


def test_every_error_type_has_its_section() -> None:
    """Each error of reversi_widget/errors.py: what causes it and what to do, under its name."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    kinds = [name for name in errors.__all__ if name.endswith("Error")]
    assert len(kinds) >= 7
    for name in kinds:
        section = re.search(rf"^## `{name}`\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        assert section is not None, name
        assert "What to do" in section.group(1), name


def test_every_picture_is_shown_on_a_page() -> None:
    """The pictures docs/make_images.py makes (they were the README's) each have their page."""
    pages = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    pictures = sorted(p.name for p in (ROOT / "docs" / "images").iterdir())
    assert len(pictures) >= 15
    assert [name for name in pictures if f"images/{name})" not in pages] == []


# -- the built site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def docs() -> Path:
    try:
        return docs_site.build_site()
    except docs_site.BuildFailed as error:
        pytest.fail(f"scripts/docs.sh failed:\n{error}")


@pytest.fixture(scope="module")
def lite() -> Path:
    try:
        return lite_site.build_site()
    except LiteBuildFailed as error:
        if error.missing_tool:
            unavailable(f"scripts/lite.sh cannot build here:\n{error}")
        pytest.fail(f"scripts/lite.sh failed:\n{error}")


@pytest.fixture(scope="module")
def placed(docs: Path, lite: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs and the JupyterLite site side by side, as scripts/docs.sh --lite places them
    (linked here, not copied: the Lite site the run already built)."""
    site = tmp_path_factory.mktemp("site")
    (site / "docs").symlink_to(docs / "docs", target_is_directory=True)
    (site / "lite").symlink_to(lite, target_is_directory=True)
    return site


def test_every_public_name_has_a_page(docs: Path) -> None:
    generated = docs / "docs" / "api" / "generated"
    missing = [name for name in reversi_widget.__all__ if not (generated / f"reversi_widget.{name}.html").is_file()]
    assert not missing


def test_every_public_module_has_a_page_with_its_names(docs: Path) -> None:
    """The modules the API reference lists (records, puzzles, deck, explorer...): an entry for
    every name of each module's ``__all__``, on the module's page."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in API_PAGE.parent.glob("*.md"))
    modules = re.findall(r"^   (reversi_widget\.[\w.]+)$", text.split("## Modules")[1], re.M)
    modules += re.findall(r"^\.\. py:currentmodule:: (reversi_widget[\w.]*)$", text, re.M)
    assert {"reversi_widget.records", "reversi_widget.puzzles", "reversi_widget.explain"} <= set(modules)
    pages = "\n".join(p.read_text(encoding="utf-8") for p in (docs / "docs" / "api").rglob("*.html"))
    for module in modules:
        names = importlib.import_module(module).__all__
        missing = [name for name in names if f'id="{module}.{name}"' not in pages]
        assert not missing, (module, missing)


def test_every_tutorial_has_its_try_it_link(docs: Path) -> None:
    notebooks = sorted(p.name for p in (ROOT / "examples").glob("*.ipynb"))
    for name in notebooks:
        page = (docs / "docs" / "tutorials" / name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        assert f'href="../../lite/lab/index.html?path={name}"' in page, name


def test_every_internal_link_leads_somewhere_with_the_lite_site_beside(placed: Path) -> None:
    done = subprocess.run([sys.executable, str(CHECK_LINKS), str(placed)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "0 broken internal links" in done.stdout


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    """The checker is not blind: a missing page, a missing anchor and a link out of the site."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.html").write_text('<p id="here"><a href="b.html">b</a> <a href="a.html#here">a</a>')
    (tmp_path / "docs" / "c.html").write_text('<a href="a.html#gone">x</a><a href="../../out.html">y</a><img src="i">')
    (tmp_path / "docs" / "d.html").write_text(
        '<a href="https://example.org/">e</a><a href="../lite/lab/index.html">t</a>'
    )
    done = subprocess.run(
        [sys.executable, str(CHECK_LINKS), str(tmp_path), "--unbuilt", "lite"], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "check_links: docs/a.html: b.html (no such file)",
        "check_links: docs/c.html: a.html#gone (no id 'gone' on docs/a.html)",
        "check_links: docs/c.html: ../../out.html (leaves the site)",
        "check_links: docs/c.html: i (no such file)",
    ]


def first_board_cell(notebook: str) -> int:
    """The index of the notebook's first cell that shows a board (``ReversiWidget(...)``)."""
    cells = json.loads((ROOT / "examples" / notebook).read_text(encoding="utf-8"))["cells"]
    return next(i for i, c in enumerate(cells) if c["cell_type"] == "code" and "ReversiWidget(" in "".join(c["source"]))


@pytest.fixture(scope="module")
def browser_on(placed: Path) -> Iterator[tuple[Any, str]]:
    try:
        with lite_site.serve(placed) as url, lite_site.lite_browser() as (browser, _outside, _proxy):
            yield browser, url
    except MissingBrowser as error:
        unavailable(str(error))


def test_a_tutorials_try_it_link_opens_it_live_in_the_jupyterlite_site(browser_on: tuple[Any, str]) -> None:
    browser, url = browser_on
    context = browser.new_context(viewport={"width": 1300, "height": 1000})

    def expose(route: Any) -> None:  # the app object, for driving the notebook (as tests/lite_site.py does)
        response = route.fetch()
        config = response.json()
        config["jupyter-config-data"]["exposeAppInBrowser"] = True
        route.fulfill(response=response, json=config)

    context.route("**/jupyter-lite.json", expose)
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{url}/docs/tutorials/01-play.html")
        assert page.locator("img, svg").count() > 0  # the boards' pictures, where a static page can show no widget
        page.click("a.try-it")
        page.wait_for_url(re.compile(r"/lite/lab/"))
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)
        cell = first_board_cell("01-play.ipynb")
        page.evaluate(
            """(cell) => {
                const app = window.jupyterapp;
                app.shell.currentWidget.content.activeCellIndex = cell;
                return app.commands.execute('notebook:run-all-above')
                    .then(() => app.commands.execute('notebook:run-cell'));
            }""",
            cell,
        )
        board = f".jp-Notebook .jp-Cell:nth-child({cell + 1}) .reversi-widget"
        page.locator(f"{board} [data-square]").first.wait_for(timeout=180_000)
        assert page.eval_on_selector_all(f"{board} [data-square]", "els => els.length") == 64
        discs = page.eval_on_selector_all(f'{board} [data-square]:not([data-disc="empty"])', "els => els.length")
        assert discs == 4  # the start: the notebook's first board, drawn by the widget with Python in the page
    finally:
        context.close()
