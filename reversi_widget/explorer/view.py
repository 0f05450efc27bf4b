"""How an index and a lookup show in a notebook: HTML tables, in any of the four languages."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..i18n import translate

if TYPE_CHECKING:
    from ..board import Board
    from .index import ExampleGame, Explorer, MoveStats, MoveTable

__all__ = ["COLUMNS", "cells", "panel_rows", "summary_html", "table_html"]

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


def panel_rows(explorer: Explorer, board: Board, language: str = "en") -> dict[str, Any]:
    """What the widget's Explorer panel shows for ``board``, as plain JSON: the column
    headings, a row of cells per move (with Black's share for its bar) and the example games
    to load, or the sentence saying why there is nothing."""
    table = explorer.lookup(board)
    if not table:
        state = "beyond" if table.beyond else "empty"
        return {"state": state, "message": translate(f"explorer_{state}", language, depth=table.depth), "moves": []}
    return {
        "state": "moves",
        "message": "",
        "headings": [translate(key, language) for key in COLUMNS[:-1]],
        "moves": [
            {
                "move": stats.move,
                "cells": list(cells(stats)[:-1]),
                "share": stats.black_score,
                "games": [
                    {"label": _label(game), "transcript": game.transcript}
                    for game in stats.examples
                    if game.through_board
                ],
            }
            for stats in table
        ],
    }


def _label(game: ExampleGame) -> str:
    parts = [f"{game.black} – {game.white} {game.black_score}-{game.white_score}", str(game.year or ""), game.event]
    return ", ".join(part for part in parts if part)
