"""One board as an SVG element: the frame, the grid, the discs and every annotation.

Arguments are checked here, where they are drawn: squares as ints, names or moves,
colours as CSS colours; anything else is refused rather than drawn wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Board, Move
from ..errors import ReversiError
from ..squares import BLACK, COLOR_NAMES, LETTERS, Square, parse_square
from .markup import coordinate, element
from .themes import FONT, Theme, theme_named

__all__ = ["CELL", "ORIENTATIONS", "SYMBOLS", "board_element", "check_pixels"]

CELL = 40  # user units per square, as in the widget; size= scales the whole picture
SYMBOLS = ("circle", "cross", "triangle", "square")  # marks drawn as shapes rather than text
ORIENTATIONS = ("normal", "flipped")


# -- argument checking ------------------------------------------------------------------

_COLOUR_RE = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]+|(?:rgb|rgba|hsl|hsla)\([0-9.,%\s/a-z-]*\)")


def _colour(value: object, where: str) -> str:
    """A CSS colour (name, #hex, rgb()/hsl()); anything else is refused rather than drawn wrong."""
    if not isinstance(value, str) or not _COLOUR_RE.fullmatch(value.strip()):
        raise ReversiError(f"{where}: {value!r} is not a colour: expected a name, #rrggbb or rgb(...)")
    return value.strip()


def _square(value: object, size: int, where: str) -> Square:
    """A square given as an int, a name like ``"d3"`` or a ``Move``."""
    if isinstance(value, Move):
        if value.square is None:
            raise ReversiError(f"{where}: a pass is not a square")
        value = value.square
    if isinstance(value, str):
        return parse_square(value, size)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReversiError(
            f"{where}: {value!r} is not a square: expected an int 0-{size * size - 1} or a name like 'd3'"
        )
    if not 0 <= value < size * size:
        raise ReversiError(f"{where}: square {value} is off a {size}x{size} board (0-{size * size - 1})")
    return value


def check_pixels(value: object, default: int) -> int | float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 10_000:
        raise ReversiError(f"size must be a number of pixels between 1 and 10000, got {value!r}")
    return value


@dataclass(frozen=True)
class _Layout:
    """Where squares are: the frame margin and the orientation."""

    n: int
    margin: float
    flipped: bool

    @property
    def width(self) -> float:
        return self.n * CELL + 2 * self.margin

    def origin(self, square: Square) -> tuple[float, float]:
        """Top-left corner of a square in user units."""
        row, col = divmod(square, self.n)
        if self.flipped:
            row, col = self.n - 1 - row, self.n - 1 - col
        return self.margin + col * CELL, self.margin + row * CELL

    def centre(self, square: Square) -> tuple[float, float]:
        x, y = self.origin(square)
        return x + CELL / 2, y + CELL / 2


def board_element(
    position: Board,
    *,
    pixels: float | None,
    root: bool,
    x: float | None = None,
    y: float | None = None,
    coordinates: bool = True,
    lastmove: Move | Square | str | None = None,
    flips: Iterable[Square | str] | None = None,
    legal: bool = False,
    fill: Mapping[Square | str, str] | None = None,
    marks: Mapping[Square | str, object] | None = None,
    arrows: Iterable[Sequence[Any]] | None = None,
    orientation: str = "normal",
    theme: str = "light",
) -> str:
    """The ``<svg>`` element of one board (a whole document when ``root``)."""
    if not isinstance(position, Board):
        raise ReversiError(f"expected a Board, got {type(position).__name__}")
    if orientation not in ORIENTATIONS:
        raise ReversiError(f"orientation must be one of {', '.join(map(repr, ORIENTATIONS))}, got {orientation!r}")
    pal = theme_named(theme)
    n = position.size
    layout = _Layout(n, CELL * (0.6 if coordinates else 0.2), orientation == "flipped")

    last_sq: Square | None = None
    if lastmove is not None and not (isinstance(lastmove, Move) and lastmove.square is None):
        last_sq = _square(lastmove, n, "lastmove")
    flipped_sqs = {_square(sq, n, "flips") for sq in (flips or ())}
    fills = {_square(sq, n, "fill"): _colour(c, f"fill[{sq!r}]") for sq, c in (fill or {}).items()}
    mark_text = {_square(sq, n, "marks"): str(text) for sq, text in (marks or {}).items() if text is not None}
    arrow_list = [_arrow(spec, n, pal) for spec in (arrows or ())]
    legal_mask = 0
    if legal:
        legal_mask = sum(1 << m.square for m in position.legal_moves if m.square is not None)
    black, white = position.bitboards()

    width = layout.width
    parts = [_defs(pal, theme), _frame(layout, pal)]
    parts.append(
        element(
            "g",
            {"class": "fills"},
            *(
                element(
                    "rect",
                    {
                        "class": "fill",
                        "data-square": _name(sq, n),
                        "x": layout.origin(sq)[0],
                        "y": layout.origin(sq)[1],
                        "width": CELL,
                        "height": CELL,
                        "fill": colour,
                    },
                )
                for sq, colour in sorted(fills.items())
            ),
        )
    )
    parts.append(_grid(layout, pal))
    if coordinates:
        parts.append(_coordinates(layout, pal))
    turn_colour = pal.legal_override or (pal.black if position.turn == BLACK else pal.white)
    squares = []
    for sq in range(n * n):
        disc = "black" if black >> sq & 1 else "white" if white >> sq & 1 else "empty"
        classes = ["square"]
        if legal_mask >> sq & 1:
            classes.append("legal")
        if sq == last_sq:
            classes.append("lastmove")
        if sq in flipped_sqs:
            classes.append("flip")
        if sq in mark_text:
            classes.append("marked")
        squares.append(
            _square_element(
                sq,
                layout,
                pal,
                disc=disc,
                classes=classes,
                legal_colour=turn_colour,
                mark=mark_text.get(sq),
                theme=theme,
            )
        )
    parts.append(element("g", {"class": "squares"}, *squares))
    if arrow_list:
        parts.append(element("g", {"class": "arrows"}, *(a(layout) for a in arrow_list)))

    turn = COLOR_NAMES[position.turn]
    summary = (
        f"{n}x{n} Reversi position, {turn} to move: "
        f"{position.count(BLACK)} black and {position.count(not BLACK)} white discs"
    )
    attrs: dict[str, object] = {
        "xmlns": "http://www.w3.org/2000/svg" if root else None,
        "class": "reversi-board",
        "viewBox": f"0 0 {coordinate(width)} {coordinate(width)}",
        "x": x,
        "y": y,
        "width": pixels,
        "height": pixels,
        "role": "img",
        "aria-label": summary,
        "data-size": n,
        "data-turn": turn,
        "data-orientation": orientation,
        "data-theme": theme,
        "font-family": FONT,
    }
    return element("svg", attrs, element("title", text=summary), *parts)


def _name(square: Square, size: int) -> str:
    row, col = divmod(square, size)
    return f"{LETTERS[col]}{row + 1}"


def _defs(pal: Theme, theme: str) -> str:
    """The disc sheen; its id depends only on the theme, so repeated boards share it safely."""
    if not pal.sheen:
        return ""
    gradient = element(
        "radialGradient",
        {"id": f"reversi-sheen-{theme}", "cx": "0.35", "cy": "0.3", "r": "0.75"},
        element("stop", {"offset": "0", "stop-color": "#ffffff", "stop-opacity": "0.32"}),
        element("stop", {"offset": "1", "stop-color": "#ffffff", "stop-opacity": "0"}),
    )
    return element("defs", None, gradient)


def _frame(layout: _Layout, pal: Theme) -> str:
    inner = layout.n * CELL
    frame = {"class": "frame", "width": layout.width, "height": layout.width, "rx": CELL * 0.18, "fill": pal.frame}
    return element("rect", frame) + element(
        "rect",
        {
            "class": "field",
            "x": layout.margin,
            "y": layout.margin,
            "width": inner,
            "height": inner,
            "fill": pal.field,
            "stroke": pal.field_stroke,
            "stroke-width": 3 if pal.field_stroke else None,
        },
    )


def _grid(layout: _Layout, pal: Theme) -> str:
    m, n = layout.margin, layout.n
    lines = []
    for i in range(n + 1):
        pos = coordinate(m + i * CELL)
        lines.append(f"M{pos},{coordinate(m)}v{n * CELL}M{coordinate(m)},{pos}h{n * CELL}")
    grid = element(
        "path",
        {
            "class": "grid",
            "d": "".join(lines),
            "fill": "none",
            "stroke": pal.grid,
            "stroke-opacity": pal.grid_opacity,
            "stroke-width": pal.grid_width,
        },
    )
    if n < 8:
        return grid
    # the four small dots of a real Othello board, at the corners of the central block
    dots = [
        element("circle", {"cx": m + a * CELL, "cy": m + b * CELL, "r": CELL * 0.07})
        for a in (2, n - 2)
        for b in (2, n - 2)
    ]
    return grid + element(
        "g", {"class": "stars", "fill": pal.grid, "fill-opacity": min(1.0, pal.grid_opacity + 0.17)}, *dots
    )


def _coordinates(layout: _Layout, pal: Theme) -> str:
    m, n = layout.margin, layout.n
    texts = []
    for i in range(n):
        index = n - 1 - i if layout.flipped else i
        texts.append(element("text", {"class": "coord", "x": m + (i + 0.5) * CELL, "y": m / 2}, text=LETTERS[index]))
        texts.append(element("text", {"class": "coord", "x": m / 2, "y": m + (i + 0.5) * CELL}, text=index + 1))
    attrs = {
        "class": "coordinates",
        "fill": pal.coord,
        "fill-opacity": pal.coord_opacity,
        "font-size": 13,
        "font-weight": 600,
        "text-anchor": "middle",
        "dominant-baseline": "central",
    }
    return element("g", attrs, *texts)


def _square_element(
    sq: Square,
    layout: _Layout,
    pal: Theme,
    *,
    disc: str,
    classes: list[str],
    legal_colour: str,
    mark: str | None,
    theme: str,
) -> str:
    x, y = layout.origin(sq)
    half = CELL / 2
    kids = []
    if disc != "empty":
        face, edge = (pal.black, pal.black_edge) if disc == "black" else (pal.white, pal.white_edge)
        if "flip" in classes:
            edge = pal.flipped
        radius = CELL * 0.41
        disc_parts = []
        if pal.shadow_opacity:
            disc_parts.append(
                element(
                    "circle",
                    {"class": "shadow", "cx": half, "cy": half + 1.2, "r": radius, "fill": "#000000"}
                    | {"fill-opacity": pal.shadow_opacity},
                )
            )
        disc_parts.append(
            element(
                "circle",
                {
                    "class": "disc",
                    "data-disc": disc,
                    "cx": half,
                    "cy": half,
                    "r": radius,
                    "fill": face,
                    "stroke": edge,
                    "stroke-width": 2.2 if "flip" in classes else pal.disc_edge_width,
                },
            )
        )
        if pal.sheen:
            disc_parts.append(
                element("circle", {"cx": half, "cy": half, "r": radius, "fill": f"url(#reversi-sheen-{theme})"})
            )
        kids.append(element("g", {"class": "piece"}, *disc_parts))
    if "legal" in classes:
        kids.append(
            element(
                "circle",
                {
                    "class": "legal-move",
                    "cx": half,
                    "cy": half,
                    "r": CELL * 0.1,
                    "fill": legal_colour,
                    "fill-opacity": pal.legal_opacity,
                },
            )
        )
    if "lastmove" in classes:
        kids.append(
            element(
                "circle",
                {
                    "class": "lastmove-marker",
                    "cx": half,
                    "cy": half,
                    "r": CELL * 0.085,
                    "fill": pal.last,
                    "stroke": pal.last_edge,
                    "stroke-width": 1.5,
                },
            )
        )
    if mark is not None:
        on_white = disc == "white"
        colour = pal.mark_dark if on_white else pal.mark_light
        kids.append(_mark(mark, colour, halo=disc == "empty"))
    return element(
        "g",
        {
            "class": " ".join(classes),
            "data-square": _name(sq, layout.n),
            "data-disc": disc,
            "transform": f"translate({coordinate(x)},{coordinate(y)})",
        },
        element("rect", {"class": "cell", "width": CELL, "height": CELL, "fill": "none"}),
        *kids,
    )


def _mark(text: str, colour: str, *, halo: bool) -> str:
    """A short text, or a drawn symbol for the names in ``SYMBOLS``."""
    c = CELL / 2
    stroke = {
        "fill": "none",
        "stroke": colour,
        "stroke-width": 3,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
    }
    if text == "circle":
        shape = element("circle", {"cx": c, "cy": c, "r": CELL * 0.3} | stroke)
    elif text == "cross":
        d = CELL * 0.22
        shape = element("path", {"d": f"M{c - d},{c - d}L{c + d},{c + d}M{c + d},{c - d}L{c - d},{c + d}"} | stroke)
    elif text == "triangle":
        r = CELL * 0.28
        points = " ".join(
            f"{coordinate(c + r * math.cos(a))},{coordinate(c + 2 + r * math.sin(a))}"
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        )
        shape = element("polygon", {"points": points} | stroke)
    elif text == "square":
        d = CELL * 0.22
        shape = element("rect", {"x": c - d, "y": c - d, "width": 2 * d, "height": 2 * d} | stroke)
    else:
        font = 15 if len(text) <= 2 else 12 if len(text) == 3 else max(6.0, 40 / len(text))
        attrs: dict[str, object] = {
            "class": "mark",
            "x": c,
            "y": c,
            "fill": colour,
            "font-size": font,
            "font-weight": 700,
            "text-anchor": "middle",
            "dominant-baseline": "central",
        }
        if len(text) > 4:  # squeeze a long mark into its square rather than spill over the next ones
            attrs |= {"textLength": CELL * 0.9, "lengthAdjust": "spacingAndGlyphs"}
        if halo:
            attrs |= {"stroke": "#000000", "stroke-opacity": 0.45, "stroke-width": 2.5, "paint-order": "stroke"}
        return element("text", attrs, text=text)
    return element("g", {"class": "mark", "data-symbol": text}, shape)


def _arrow(spec: Sequence[Any], n: int, pal: Theme) -> Any:
    """Check an arrow now (so errors come before drawing) and return its drawing function."""
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence) or len(spec) not in (2, 3):
        raise ReversiError(f"an arrow must be (from, to) or (from, to, colour), got {spec!r}")
    start = _square(spec[0], n, "arrows")
    end = _square(spec[1], n, "arrows")
    colour = _colour(spec[2], f"arrow {spec!r}") if len(spec) == 3 else pal.arrow

    def draw(layout: _Layout) -> str:
        x1, y1 = layout.centre(start)
        x2, y2 = layout.centre(end)
        attrs = {"class": "arrow", "data-from": _name(start, n), "data-to": _name(end, n), "opacity": 0.9}
        if start == end:  # python-chess draws a ring for a square pointing at itself
            ring = element(
                "circle", {"cx": x1, "cy": y1, "r": CELL * 0.42, "fill": "none", "stroke": colour, "stroke-width": 4}
            )
            return element("g", attrs, ring)
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        head, half_width = 14.0, 8.0
        bx, by = x2 - ux * head, y2 - uy * head
        line = element(
            "line",
            {
                "x1": x1,
                "y1": y1,
                "x2": bx,
                "y2": by,
                "stroke": colour,
                "stroke-width": 4.5,
                "stroke-linecap": "round",
            },
        )
        tip = f"{coordinate(x2)},{coordinate(y2)}"
        left = f"{coordinate(bx - uy * half_width)},{coordinate(by + ux * half_width)}"
        right = f"{coordinate(bx + uy * half_width)},{coordinate(by - ux * half_width)}"
        return element("g", attrs, line, element("polygon", {"points": f"{tip} {left} {right}", "fill": colour}))

    return draw
