"""The palettes of the pictures: the same colours as the widget's themes (js/widget.css)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ReversiError

__all__ = ["FONT", "THEMES", "Theme", "theme_named"]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"


@dataclass(frozen=True)
class Theme:
    """Colours of one theme, the same palette as the widget's (js/widget.css)."""

    background: str  # around grids and charts
    text: str
    muted: str
    frame: str
    field: str
    field_stroke: str | None
    grid: str
    grid_opacity: float
    grid_width: float
    coord: str
    coord_opacity: float
    black: str
    black_edge: str
    white: str
    white_edge: str
    disc_edge_width: float
    shadow_opacity: float
    sheen: bool
    last: str
    last_edge: str
    flipped: str
    legal_opacity: float
    legal_override: str | None  # one colour for legal dots whatever the side to move
    arrow: str
    mark_light: str
    mark_dark: str


THEMES: dict[str, Theme] = {
    "light": Theme(
        background="#ffffff",
        text="#1f2328",
        muted="#6b7280",
        frame="#1d5a35",
        field="#2e8a50",
        field_stroke=None,
        grid="#000000",
        grid_opacity=0.38,
        grid_width=1,
        coord="#ffffff",
        coord_opacity=0.82,
        black="#1c1c1c",
        black_edge="#000000",
        white="#f7f7f2",
        white_edge="#b9b9b0",
        disc_edge_width=1,
        shadow_opacity=0.28,
        sheen=True,
        last="#e53935",
        last_edge="none",
        flipped="#e53935",
        legal_opacity=0.55,
        legal_override=None,
        arrow="#ffa000",
        mark_light="#ffffff",
        mark_dark="#111111",
    ),
    "dark": Theme(
        background="#1f2227",
        text="#f0f0f0",
        muted="#9aa0a6",
        frame="#123a24",
        field="#1f6139",
        field_stroke=None,
        grid="#000000",
        grid_opacity=0.5,
        grid_width=1,
        coord="#ffffff",
        coord_opacity=0.7,
        black="#121212",
        black_edge="#000000",
        white="#e6e6e0",
        white_edge="#9d9d95",
        disc_edge_width=1,
        shadow_opacity=0.45,
        sheen=True,
        last="#ff5a52",
        last_edge="none",
        flipped="#ff5a52",
        legal_opacity=0.55,
        legal_override=None,
        arrow="#ffa000",
        mark_light="#ffffff",
        mark_dark="#111111",
    ),
    "high-contrast": Theme(
        background="#000000",
        text="#ffffff",
        muted="#ffffff",
        frame="#000000",
        field="#000000",
        field_stroke="#ffff00",
        grid="#ffff00",
        grid_opacity=1,
        grid_width=2,
        coord="#ffff00",
        coord_opacity=1,
        black="#000000",
        black_edge="#ffffff",
        white="#ffffff",
        white_edge="#ffffff",
        disc_edge_width=2.5,
        shadow_opacity=0,
        sheen=False,
        last="#ffff00",
        last_edge="#000000",
        flipped="#ffff00",
        legal_opacity=1,
        legal_override="#ffff00",
        arrow="#00ffff",
        mark_light="#ffff00",
        mark_dark="#000000",
    ),
}


def theme_named(name: str) -> Theme:
    """The palette called ``name``; a clear error for anything else."""
    if not isinstance(name, str) or name not in THEMES:
        raise ReversiError(f"theme must be one of {', '.join(map(repr, THEMES))}, got {name!r}")
    return THEMES[name]
