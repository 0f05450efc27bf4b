"""The documentation's examples run as written (python-chess does the same): every ``>>>``
example of every page in docs/ is a doctest, and the README's example runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_pages_hold_examples() -> None:
    with_examples = [page for page in PAGES if ">>> " in page.read_text(encoding="utf-8")]
    assert len(with_examples) >= 6, with_examples


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT / "docs").as_posix() for p in PAGES])
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert (result.attempted > 0) == (">>> " in page.read_text(encoding="utf-8"))


def test_the_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's five lines: the Tiger analysed, and a board to play on from there."""
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) == 1 and len(blocks[0].strip().splitlines()) <= 6
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    printed = capsys.readouterr().out.split()
    assert printed[0] in {"f4", "f6", "b3", "d7"}, printed  # a legal move of White after the Tiger
    widget = namespace["ReversiWidget"]
    assert isinstance(widget, type)


def test_the_readme_is_a_front_door() -> None:
    """Short, with the two commands CI and a newcomer run, and links into the docs that exist."""
    assert len(README.splitlines()) <= 150
    assert "```bash\nbash scripts/lab.sh\n```" in README and "```bash\nbash scripts/test.sh\n```" in README
    links = re.findall(r"\]\(((?:docs/|[A-Z]+\.md)[^)#]*)\)", README)
    assert len(links) >= 10
    assert all((ROOT / link).is_file() for link in links), links


def test_the_docs_say_ply_where_they_count_one_players_moves() -> None:
    """The move list numbers moves in pairs, so "up to move 30" reads as its 30, twice as
    far as the opening book reaches: the book's depth is said in plies, and as the list's move."""
    from reversi_widget.book_build import MAX_PLY

    text = (ROOT / "docs" / "explanation" / "engine.md").read_text(encoding="utf-8")
    assert f"in their first {MAX_PLY} plies\n(up to White's move {MAX_PLY // 2})" in text
    assert not any("up to move" in page.read_text(encoding="utf-8") for page in PAGES)
