"""Small SVG charts for game records: disc counts over a game, win rates, generic bars.

They are plain SVG strings (``SvgImage``) so they show in any notebook and save to a
file with no plotting library. Every label comes from users (player names, openings)
and is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .drawing.markup import SvgImage, element
from .drawing.themes import FONT, theme_named
from .errors import ReversiError
from .squares import BLACK, WHITE

if TYPE_CHECKING:
    from .game import Game

__all__ = ["PALETTE", "bar_chart", "disc_count", "line_chart", "win_rates"]

#: Series colours (colour-blind friendly, Okabe-Ito order).
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000")
WIN, DRAW, LOSS = "#2e7d32", "#9e9e9e", "#c62828"
LABEL_CHARS = 28  # longer labels are cut (the whole text stays in a tooltip)


@dataclass(frozen=True)
class _Frame:
    """The plotting area inside the chart."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low``..``high`` (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = [round(start, 10)]
    while ticks[-1] < high - step * 1e-9:
        ticks.append(round(start + len(ticks) * step, 10))
    return ticks


def _short(label: str, limit: int = LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _tick_text(value: float, percent: bool) -> str:
    text = f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"
    return text + "%" if percent else text


def _numbers(values: Sequence[Any], where: str) -> list[float]:
    out = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ReversiError(f"{where}: {value!r} is not a finite number")
        out.append(float(value))
    return out


def _chart(
    width: float,
    height: float,
    theme: str,
    title: str,
    body: list[str],
    *,
    kind: str,
) -> SvgImage:
    pal = theme_named(theme)
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "class": f"reversi-chart {kind}",
        "viewBox": f"0 0 {width:g} {height:g}",
        "width": width,
        "height": height,
        "role": "img",
        "aria-label": title or kind,
        "font-family": FONT,
        "font-size": 12,
    }
    parts = [element("rect", {"class": "background", "width": width, "height": height, "fill": pal.background})]
    if title:
        parts.append(element("title", text=title))
        parts.append(
            element(
                "text",
                {
                    "class": "title",
                    "x": width / 2,
                    "y": 20,
                    "text-anchor": "middle",
                    "font-size": 15,
                    "font-weight": 600,
                }
                | {"fill": pal.text},
                text=title,
            )
        )
    return SvgImage(element("svg", attrs, *parts, *body))


def _legend(names: Sequence[str], colours: Sequence[str], x: float, y: float, text: str) -> str:
    """Swatches and names in a row, starting at ``(x, y)``."""
    items = []
    for name, colour in zip(names, colours, strict=False):
        items.append(
            element(
                "g",
                {"class": "legend-item", "data-series": name},
                element(
                    "rect",
                    {"x": x, "y": y - 6, "width": 12, "height": 12, "rx": 2, "fill": colour}
                    | {"stroke": "#555555", "stroke-width": 0.8},
                ),
                element("text", {"x": x + 17, "y": y, "dominant-baseline": "central", "fill": text}, text=name),
            )
        )
        x += 30 + 7 * len(_short(name))
    return element("g", {"class": "legend"}, *items)


def _value_axis(
    frame: _Frame, ticks: list[float], scale: Any, *, vertical: bool, percent: bool, text: str, grid: str
) -> str:
    """Grid lines and tick labels along the value axis."""
    parts = []
    for tick in ticks:
        pos = scale(tick)
        if vertical:
            line = {"x1": frame.left, "x2": frame.right, "y1": pos, "y2": pos}
            label = {"x": frame.left - 6, "y": pos, "text-anchor": "end", "dominant-baseline": "central"}
        else:
            line = {"x1": pos, "x2": pos, "y1": frame.top, "y2": frame.bottom}
            label = {"x": pos, "y": frame.bottom + 14, "text-anchor": "middle", "dominant-baseline": "central"}
        parts.append(element("line", line | {"stroke": grid, "stroke-opacity": 0.3, "stroke-width": 1}))
        parts.append(element("text", {"class": "tick"} | label | {"fill": text}, text=_tick_text(tick, percent)))
    return element("g", {"class": "value-axis"}, *parts)


def _axis_labels(frame: _Frame, xlabel: str, ylabel: str, text: str, height: float) -> list[str]:
    out = []
    if xlabel:
        out.append(
            element(
                "text",
                {"class": "xlabel", "x": frame.left + frame.width / 2, "y": height - 8, "text-anchor": "middle"}
                | {"fill": text},
                text=xlabel,
            )
        )
    if ylabel:
        cy = frame.top + frame.height / 2
        out.append(
            element(
                "text",
                {"class": "ylabel", "x": 14, "y": cy, "text-anchor": "middle", "transform": f"rotate(-90 14 {cy:g})"}
                | {"fill": text},
                text=ylabel,
            )
        )
    return out


def bar_chart(
    labels: Sequence[object],
    values: Sequence[float] | Mapping[str, Sequence[float]],
    *,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    stacked: bool = False,
    horizontal: bool = False,
    percent: bool = False,
    colors: Sequence[str] | None = None,
    width: float | None = None,
    height: float | None = None,
    theme: str = "light",
    label_tips: Sequence[str] | None = None,
) -> SvgImage:
    """Bars for ``labels``: ``values`` is one number per label, or ``{series: numbers}``
    for several series (side by side, or ``stacked``) with a legend. Long labels are cut;
    their tooltip (``label_tips`` if given) keeps the whole text.
    ``horizontal=True`` suits long labels such as player names."""
    names = [str(label) for label in labels]
    series = {"": values} if not isinstance(values, Mapping) else dict(values)
    if not series:
        raise ReversiError("bar_chart needs at least one series of values")
    data = {str(name): _numbers(vals, f"series {name!r}" if name else "values") for name, vals in series.items()}
    for name, vals in data.items():
        if len(vals) != len(names):
            raise ReversiError(f"{len(vals)} values{f' in series {name!r}' if name else ''} for {len(names)} labels")
    pal = theme_named(theme)
    colours = list(colors) if colors is not None else list(PALETTE)
    if len(colours) < len(data):
        raise ReversiError(f"{len(colours)} colours for {len(data)} series")
    legend = len(data) > 1 or any(data)
    n = max(1, len(names))
    rotate = not horizontal and bool(names) and (n > 8 or max(len(x) for x in names) > 8)  # slant long labels
    if horizontal:
        width = width or 640
        height = height or 70 + 26 * n + (28 if legend else 0)
        label_room = 10 + 7 * max((len(_short(x)) for x in names), default=4)
        frame = _Frame(label_room, 34 if title else 12, width - label_room - 24, height - (34 if title else 12) - 44)
    else:
        width = width or max(360, 90 + 46 * n * (1 if stacked else len(data)))
        height = height or 340
        below = 44 + 7 * min(LABEL_CHARS, max(len(x) for x in names)) * 0.6 if rotate else 44  # room for labels
        frame = _Frame(64, 34 if title else 12, width - 64 - 16, height - (34 if title else 12) - below)
    if legend:
        frame = _Frame(frame.left, frame.top + 22, frame.width, frame.height - 22)
    rows = list(zip(*data.values(), strict=True)) if names else []
    peaks = [sum(v for v in row if v > 0) if stacked else max((v for v in row), default=0) for row in rows]
    lows = [sum(v for v in row if v < 0) if stacked else min((v for v in row), default=0) for row in rows]
    ticks = nice_ticks(min([0.0, *lows]), max([0.0, *peaks]) or 1.0)
    lo, hi = ticks[0], ticks[-1]
    span = (frame.height if not horizontal else frame.width) / (hi - lo)

    def scale(value: float) -> float:
        if horizontal:
            return frame.left + (value - lo) * span
        return frame.bottom - (value - lo) * span

    body = [_value_axis(frame, ticks, scale, vertical=not horizontal, percent=percent, text=pal.muted, grid=pal.muted)]
    band = (frame.height if horizontal else frame.width) / n
    bars = []
    for index, label in enumerate(names):
        start = (frame.top if horizontal else frame.left) + index * band
        inner = band * 0.72
        offset = start + (band - inner) / 2
        stack_pos = stack_neg = 0.0
        group = []
        for series_index, (name, vals) in enumerate(data.items()):
            value = vals[index]
            if stacked:
                base = stack_pos if value >= 0 else stack_neg
                a, b = scale(base), scale(base + value)
                if value >= 0:
                    stack_pos += value
                else:
                    stack_neg += value
                across, thick = offset, inner
            else:
                a, b = scale(0), scale(value)
                thick = inner / len(data)
                across = offset + series_index * thick
            lo_pos, extent = min(a, b), abs(b - a)
            rect = (
                {"x": lo_pos, "y": across, "width": extent, "height": thick}
                if horizontal
                else {"x": across, "y": lo_pos, "width": thick, "height": extent}
            )
            tip = f"{label}: {name + ' ' if name else ''}{_tick_text(value, percent)}"
            group.append(
                element(
                    "rect",
                    {"class": "bar", "data-label": label, "data-series": name, "data-value": f"{value:g}"}
                    | rect
                    | {"fill": colours[series_index % len(colours)]},
                    element("title", text=tip),
                )
            )
        centre = start + band / 2
        if horizontal:
            lab = {"x": frame.left - 6, "y": centre, "text-anchor": "end", "dominant-baseline": "central"}
        else:
            lab = {"x": centre, "y": frame.bottom + 14, "text-anchor": "middle", "dominant-baseline": "central"}
            if rotate:
                lab = {
                    "x": centre,
                    "y": frame.bottom + 10,
                    "text-anchor": "end",
                    "transform": f"rotate(-35 {centre:g} {frame.bottom + 10:g})",
                }
        text = element("text", {"class": "label"} | lab | {"fill": pal.text}, text=_short(label))
        tip = label if label_tips is None else str(label_tips[index])
        group.append(element("g", {"class": "label-group"}, element("title", text=tip), text))
        bars.append(element("g", {"class": "bar-group", "data-label": label}, *group))
    body.append(element("g", {"class": "bars"}, *bars))
    axis = (
        {"x1": scale(0), "x2": scale(0), "y1": frame.top, "y2": frame.bottom}
        if horizontal
        else {"x1": frame.left, "x2": frame.right, "y1": scale(0), "y2": scale(0)}
    )
    body.append(element("line", {"class": "axis"} | axis | {"stroke": pal.text, "stroke-width": 1}))
    body += _axis_labels(frame, xlabel, ylabel, pal.text, height)
    if legend and len(data) > 1:
        body.append(_legend(list(data), colours, frame.left, frame.top - 16, pal.text))
    return _chart(width, height, theme, title, body, kind="bar-chart")


def line_chart(
    x: Sequence[float],
    series: Mapping[str, Sequence[float]],
    *,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    colors: Sequence[str] | None = None,
    outlines: Sequence[str | None] | None = None,
    width: float = 640,
    height: float = 320,
    theme: str = "light",
) -> SvgImage:
    """Lines of ``series`` over ``x`` with axes and a legend. ``outlines`` draws a
    darker edge under a light line (so white stays visible on white)."""
    xs = _numbers(x, "x")
    if not series:
        raise ReversiError("line_chart needs at least one series")
    data = {str(name): _numbers(vals, f"series {name!r}") for name, vals in series.items()}
    for name, vals in data.items():
        if len(vals) != len(xs):
            raise ReversiError(f"series {name!r} has {len(vals)} values for {len(xs)} x values")
    pal = theme_named(theme)
    colours = list(colors) if colors is not None else list(PALETTE)
    edges = list(outlines) if outlines is not None else [None] * len(data)
    top = (34 if title else 12) + 22
    frame = _Frame(56, top, width - 56 - 18, height - top - 44)
    all_y = [v for vals in data.values() for v in vals]
    y_ticks = nice_ticks(min([0.0, *all_y]), max([1.0, *all_y]))
    x_ticks = nice_ticks(min(xs, default=0.0), max(xs, default=1.0), count=8)
    x_lo, x_hi, y_lo, y_hi = x_ticks[0], x_ticks[-1], y_ticks[0], y_ticks[-1]

    def sx(value: float) -> float:
        return frame.left + (value - x_lo) / (x_hi - x_lo) * frame.width

    def sy(value: float) -> float:
        return frame.bottom - (value - y_lo) / (y_hi - y_lo) * frame.height

    body = [_value_axis(frame, y_ticks, sy, vertical=True, percent=False, text=pal.muted, grid=pal.muted)]
    x_axis = []
    for tick in x_ticks:
        tick_line = {"x1": sx(tick), "x2": sx(tick), "y1": frame.bottom, "y2": frame.bottom + 4, "stroke": pal.muted}
        x_axis.append(element("line", tick_line))
        x_axis.append(
            element(
                "text",
                {"class": "tick", "x": sx(tick), "y": frame.bottom + 15, "text-anchor": "middle", "fill": pal.muted},
                text=_tick_text(tick, False),
            )
        )
    body.append(element("g", {"class": "x-axis"}, *x_axis))
    lines = []
    for index, (name, vals) in enumerate(data.items()):
        points = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in zip(xs, vals, strict=True))
        colour = colours[index % len(colours)]
        group = []
        edge = edges[index] if index < len(edges) else None
        if edge:
            group.append(
                element(
                    "polyline",
                    {"points": points, "fill": "none", "stroke": edge, "stroke-width": 5, "stroke-linejoin": "round"},
                )
            )
        group.append(
            element(
                "polyline",
                {"class": "line", "points": points, "fill": "none", "stroke": colour, "stroke-width": 2.5}
                | {"stroke-linejoin": "round"},
            )
        )
        lines.append(element("g", {"class": "series", "data-series": name, "data-points": len(vals)}, *group))
    body.append(element("g", {"class": "lines"}, *lines))
    body.append(
        element(
            "path",
            {"class": "axis", "d": f"M{frame.left:g},{frame.top:g}V{frame.bottom:g}H{frame.right:g}"}
            | {"fill": "none", "stroke": pal.text},
        )
    )
    body += _axis_labels(frame, xlabel, ylabel, pal.text, height)
    body.append(_legend(list(data), colours, frame.left, frame.top - 14, pal.text))
    return _chart(width, height, theme, title, body, kind="line-chart")


def disc_count(game: Game, *, title: str | None = None, theme: str = "light", **options: Any) -> SvgImage:
    """Black's and White's disc counts after every ply of ``game`` (passes are plies too)."""
    counts = [(board.count(BLACK), board.count(WHITE)) for board in game.positions()]
    if title is None:
        title = f"{game.black_player} (black) vs {game.white_player} (white)"
    pal = theme_named(theme)
    return line_chart(
        list(range(len(counts))),
        {"Black": [b for b, _ in counts], "White": [w for _, w in counts]},
        title=title,
        xlabel="ply",
        ylabel="discs",
        colors=[pal.black, pal.white],
        # an edge keeps the white line visible on a light page and the black one on a dark page
        outlines=[None, "#6b7280"] if theme == "light" else [pal.muted, None],
        theme=theme,
        **options,
    )


def win_rates(stats: Any, *, limit: int = 12, title: str = "Results per player", theme: str = "light") -> SvgImage:
    """Wins, draws and losses in percent for the players with most games.

    ``stats`` is ``GameLog.stats()`` or a mapping ``{player: (wins, losses, draws)}``."""
    table = getattr(stats, "players", stats)
    rows: list[tuple[str, int, int, int]] = []
    if isinstance(table, Mapping):
        for player, record in table.items():
            if len(record) != 3:
                raise ReversiError(f"{player!r}: expected (wins, losses, draws), got {record!r}")
            wins, losses, draws = (int(v) for v in record)
            rows.append((str(player), wins, losses, draws))
    elif hasattr(table, "columns") and {"player", "wins", "losses", "draws"} <= set(table.columns):
        rows = [
            (str(row["player"]), int(row["wins"]), int(row["losses"]), int(row["draws"])) for row in table.as_dicts()
        ]
    else:
        raise ReversiError(f"win_rates needs GameLog.stats() or {{player: (wins, losses, draws)}}, got {stats!r}")
    rows = [row for row in rows if sum(row[1:])]
    rows.sort(key=lambda row: (-sum(row[1:]), row[0]))
    rows = rows[:limit]
    labels = [f"{_short(player, LABEL_CHARS - 8)} ({sum(rest)})" for player, *rest in rows]
    tips = [f"{player} ({sum(rest)})" for player, *rest in rows]  # the whole name, in the tooltip
    totals = [sum(row[1:]) for row in rows]

    def share(column: int) -> list[float]:
        return [round(100 * int(row[column]) / total, 1) for row, total in zip(rows, totals, strict=True)]

    return bar_chart(
        labels,
        {"wins": share(1), "draws": share(3), "losses": share(2)},
        stacked=True,
        horizontal=True,
        percent=True,
        colors=[WIN, DRAW, LOSS],
        title=title,
        xlabel="share of games (number of games in brackets)",
        theme=theme,
        label_tips=tips,
    )
