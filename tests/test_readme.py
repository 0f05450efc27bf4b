"""The README's examples run as written (python-chess does the same)."""

import doctest
from pathlib import Path


def test_readme_examples() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5
    assert result.failed == 0


def test_the_readme_says_ply_where_it_counts_one_players_moves() -> None:
    """The move list numbers moves in pairs, so "up to move 30" reads as its 30, twice as
    far as the opening book reaches: the book's depth is said in plies, and as the list's move."""
    from reversi_widget.book_build import MAX_PLY

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"in their first {MAX_PLY} plies\n(up to White's move {MAX_PLY // 2})" in text
    assert "up to move" not in text
