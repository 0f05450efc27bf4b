"""How an index and a lookup show in a notebook: HTML tables, in any of the four languages."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..i18n import translate

if TYPE_CHECKING:
    from .index import Explorer, MoveStats, MoveTable

__all__ = ["COLUMNS", "cells", "summary_html", "table_html"]

#: The columns of a lookup's table, by their text keys.
COLUMNS = (
    "explorer_move",
    "explorer_games",
    "explorer_black_score",
    "explorer_margin",
    "explorer_theory",
    "explorer_years",
    "explorer_example",
)


def cells(stats: MoveStats) -> tuple[str, ...]:
    """One move's row as text: percentages and signed margins, blank where unknown."""
    theory = "" if stats.mean_theoretical is None else f"{stats.mean_theoretical:+.1f}"
    years = "" if stats.first_year is None else f"{stats.first_year}–{stats.last_year}"
    if stats.first_year == stats.last_year and stats.first_year is not None:
        years = str(stats.first_year)
    example = ""
    if stats.examples:
        game = stats.examples[0]
        parts = [f"{game.black} – {game.white}", str(game.year or ""), game.event]
        example = ", ".join(part for part in parts if part)
    return (
        stats.move,
        str(stats.games),
        f"{100 * stats.black_score:.1f}%",
        f"{stats.mean_margin:+.1f}",
        theory,
        years,
        example,
    )


def table_html(table: MoveTable, language: str = "en") -> str:
    if not table:
        key = "explorer_beyond" if table.beyond else "explorer_empty"
        return f"<p>{escape(translate(key, language, depth=table.depth))}</p>"
    head = "".join(f"<th>{escape(translate(key, language))}</th>" for key in COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells(stats)) + "</tr>" for stats in table)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def summary_html(explorer: Explorer, games: int, positions: int, language: str = "en") -> str:
    text = translate(
        "explorer_summary", language, variant=explorer.variant, depth=explorer.depth, games=games, positions=positions
    )
    return f"<p>{escape(text)} <code>{escape(str(explorer.path))}</code></p>"
