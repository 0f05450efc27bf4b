"""Static SVG pictures of positions (python-chess's ``chess.svg`` for Reversi).

A picture is a plain string, so it can be saved, embedded in HTML or shown in a
notebook (``SvgImage`` has ``_repr_svg_``). It draws like the widget's light board
and needs no browser, no widget and no dependency. Every piece of text that comes
from a user (marks, captions, colours) is escaped: it is shown, never run.

The pieces live in ``reversi_widget.drawing``: the markup (``markup``), the palettes
(``themes``) and one board's picture (``position``); this module puts them together.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .board import Board, Move
from .drawing.markup import coordinate, element
from .drawing.position import board_element, check_pixels
from .drawing.themes import FONT, theme_named
from .errors import ReversiError
from .squares import Square

if TYPE_CHECKING:
    from .game import Game

# isort: off
# The pieces, importable from here as before (each is defined in reversi_widget.drawing).
from .drawing.markup import SvgImage as SvgImage, escape as escape
from .drawing.position import CELL as CELL, ORIENTATIONS as ORIENTATIONS, SYMBOLS as SYMBOLS
from .drawing.themes import THEMES as THEMES, Theme as Theme
# isort: on

__all__ = ["board", "boards", "game"]

DEFAULT_SIZE = 360  # pixels for one board when size=None: readable, not the whole output width
DEFAULT_GRID_SIZE = 180  # pixels for each board of a grid
CAPTION_HEIGHT = 26
GRID_GAP = 12


# -- the board --------------------------------------------------------------------------


def board(
    board: Board,
    *,
    size: float | None = None,
    coordinates: bool = True,
    lastmove: Move | Square | str | None = None,
    flips: Iterable[Square | str] | None = None,
    legal: bool = False,
    fill: Mapping[Square | str, str] | None = None,
    marks: Mapping[Square | str, object] | None = None,
    arrows: Iterable[Sequence[Any]] | None = None,
    orientation: str = "normal",
    theme: str = "light",
) -> SvgImage:
    """A picture of ``board``.

    ``lastmove`` gets a red dot and ``flips`` a red ring (python-chess style: pass them,
    nothing is guessed). ``legal=True`` dots the legal moves of the side to move.
    ``fill`` colours squares, ``marks`` writes short text (or draws one of ``SYMBOLS``),
    ``arrows`` are ``(from, to)`` or ``(from, to, colour)``. ``orientation="flipped"``
    turns the board 180 degrees. ``size`` is the width in pixels (``None``: 360).
    Squares may be ints or names.
    """
    return SvgImage(
        board_element(
            board,
            pixels=check_pixels(size, DEFAULT_SIZE),
            root=True,
            coordinates=coordinates,
            lastmove=lastmove,
            flips=flips,
            legal=legal,
            fill=fill,
            marks=marks,
            arrows=arrows,
            orientation=orientation,
            theme=theme,
        )
    )


# -- grids ------------------------------------------------------------------------------


def boards(
    positions: Iterable[Board | tuple[Board, Mapping[str, Any]]],
    *,
    columns: int = 4,
    captions: Sequence[object] | None = None,
    size: float | None = None,
    theme: str = "light",
    **options: Any,
) -> SvgImage:
    """Several positions in a grid (a game, a set of puzzles), each with an optional caption.

    An item may be a ``Board`` or ``(board, {option: value})`` for options of that board
    alone (``lastmove``, ``marks`` ...); ``options`` apply to every board.
    """
    items: list[tuple[Board, dict[str, Any]]] = []
    for index, item in enumerate(positions):
        if isinstance(item, Board):
            items.append((item, dict(options)))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Board) and isinstance(item[1], Mapping):
            items.append((item[0], {**options, **item[1]}))
        else:
            raise ReversiError(f"item {index} of the grid is not a Board or (Board, options): {item!r}")
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ReversiError(f"columns must be a positive int, got {columns!r}")
    if captions is not None and len(captions) != len(items):
        raise ReversiError(f"{len(captions)} captions for {len(items)} positions: give one caption per position")
    pal = theme_named(theme)
    cell = check_pixels(size, DEFAULT_GRID_SIZE)
    caption_h = CAPTION_HEIGHT if captions is not None else 0
    cols = max(1, min(columns, len(items)))
    rows = math.ceil(len(items) / cols) if items else 0
    width = GRID_GAP + cols * (cell + GRID_GAP)
    height = GRID_GAP + rows * (cell + caption_h + GRID_GAP)
    cells = []
    for index, (position, extra) in enumerate(items):
        row, col = divmod(index, cols)
        x = GRID_GAP + col * (cell + GRID_GAP)
        y = GRID_GAP + row * (cell + caption_h + GRID_GAP)
        extra.pop("theme", None)  # one theme for the whole grid, so captions and boards agree
        kids = [board_element(position, pixels=cell, root=False, x=x, y=y, theme=theme, **extra)]
        if captions is not None:
            kids.append(
                element(
                    "text",
                    {
                        "class": "caption",
                        "x": x + cell / 2,
                        "y": y + cell + caption_h / 2 + 1,
                        "fill": pal.text,
                        "font-size": 14,
                        "text-anchor": "middle",
                        "dominant-baseline": "central",
                    },
                    text=captions[index],
                )
            )
        cells.append(element("g", {"class": "grid-cell", "data-index": index}, *kids))
    background = element("rect", {"class": "background", "width": width, "height": height, "fill": pal.background})
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "class": "reversi-boards",
        "viewBox": f"0 0 {coordinate(width)} {coordinate(height)}",
        "width": width,
        "height": height,
        "data-count": len(items),
        "data-columns": cols,
        "font-family": FONT,
    }
    return SvgImage(element("svg", attrs, background, *cells))


def game(
    game: Game,
    *,
    columns: int = 4,
    size: float | None = None,
    start: bool = True,
    **options: Any,
) -> SvgImage:
    """Every position of a game in a grid, captioned by move number (``"12. e6"``), each
    with its last move and the discs it flipped marked. ``start=False`` leaves out the start."""
    position = Board(rules=game.rules)
    items: list[tuple[Board, Mapping[str, Any]]] = []
    captions: list[str] = []
    if start:
        items.append((position.copy(stack=False), {}))
        captions.append("start")
    for ply, move in enumerate(game.moves, 1):
        flipped = position.flips(move) if move else []
        position.push(move)
        items.append((position.copy(stack=False), {"lastmove": move, "flips": flipped}))
        captions.append(f"{ply}. {move}")
    return boards(items, columns=columns, captions=captions, size=size, **options)
