"""Small tables of game-log answers that print as text and show as notebook tables."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape as html_escape
from typing import TYPE_CHECKING, Any

from ..errors import ReversiError, quote

if TYPE_CHECKING:
    from ..svg import SvgImage

__all__ = ["MostPlayed", "Stats", "Table"]


class Table:
    """Rows with named columns: ``str()`` is aligned text, ``_repr_html_`` a notebook table.
    Long tables show their first ``max_rows`` rows; ``rows`` always holds them all."""

    def __init__(self, title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, max_rows: int = 20):
        self.title = title
        self.columns = tuple(columns)
        self.rows = [tuple(row) for row in rows]
        self.max_rows = max_rows
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ReversiError(f"row {quote(row)} has {len(row)} cells for {len(self.columns)} columns")

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def as_dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def row(self, key: object) -> dict[str, Any]:
        """The row whose first cell is ``key`` (e.g. a player's name)."""
        for row in self.rows:
            if row[0] == key:
                return dict(zip(self.columns, row, strict=True))
        raise KeyError(key)

    def column(self, name: str) -> list[Any]:
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    @staticmethod
    def _cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.1f}"
        return "" if value is None else str(value)

    def _shown(self) -> tuple[list[tuple[Any, ...]], int]:
        return self.rows[: self.max_rows], max(0, len(self.rows) - self.max_rows)

    def __str__(self) -> str:
        shown, hidden = self._shown()
        cells = [list(self.columns)] + [[self._cell(v) for v in row] for row in shown]
        widths = [max(len(line[i]) for line in cells) for i in range(len(self.columns))]
        numeric = [
            all(isinstance(row[i], (int, float)) or row[i] is None for row in shown) for i in range(len(self.columns))
        ]

        def line(values: list[str]) -> str:
            return "  ".join(
                v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric, strict=True)
            ).rstrip()

        out = [self.title, line(cells[0]), "  ".join("-" * w for w in widths)]
        out += [line(row) for row in cells[1:]]
        if not shown:
            out.append("(no games)")
        if hidden:
            out.append(f"... and {hidden} more rows")
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"<Table {self.title!r}: {len(self.rows)} rows>"

    def _repr_html_(self) -> str:
        shown, hidden = self._shown()
        numeric = [
            bool(shown) and all(isinstance(row[i], (int, float)) for row in shown) for i in range(len(self.columns))
        ]
        head = "".join(
            f'<th style="text-align:{"right" if num else "left"}">{html_escape(c)}</th>'
            for c, num in zip(self.columns, numeric, strict=True)
        )
        body = "".join(
            "<tr>"
            + "".join(
                f'<td style="text-align:{"right" if isinstance(v, (int, float)) else "left"}">'
                f"{html_escape(self._cell(v))}</td>"
                for v in row
            )
            + "</tr>"
            for row in shown
        )
        if not shown:
            body = f'<tr><td colspan="{len(self.columns)}">(no games)</td></tr>'
        more = f"<p>… and {hidden} more rows</p>" if hidden else ""
        return (
            f'<div class="reversi-table"><strong>{html_escape(self.title)}</strong>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}</div>"
        )


@dataclass(frozen=True)
class Stats:
    """Who wins: results per player and per variant."""

    players: Table  # player, games, wins, losses, draws, self-play, win % (see GameLog.stats)
    variants: Table  # variant, games, black wins, white wins, draws

    def __str__(self) -> str:
        return f"{self.players}\n\n{self.variants}"

    def _repr_html_(self) -> str:
        return self.players._repr_html_() + self.variants._repr_html_()

    def chart(self, *, limit: int = 12, theme: str = "light") -> SvgImage:
        """Wins, draws and losses per player (``charts.win_rates``)."""
        from ..charts import win_rates

        return win_rates(self, limit=limit, theme=theme)


@dataclass(frozen=True)
class MostPlayed:
    """What is played most: variants and openings."""

    variants: Table  # variant, games, share %
    openings: Table  # opening, games, black wins, white wins, draws

    def __str__(self) -> str:
        return f"{self.variants}\n\n{self.openings}"

    def _repr_html_(self) -> str:
        return self.variants._repr_html_() + self.openings._repr_html_()
