"""An opening explorer over master games: the moves played from a position, how they scored,
and the games behind them (see ``index``).

``explorer.build(games_or_paths, path)`` makes or extends an index and returns an
``Explorer``; ``explorer.open(path)`` opens one; ``Explorer.lookup(board)`` answers.
"""

from __future__ import annotations

import os

from .index import (
    DEFAULT_DEPTH,
    INLINE_GAMES,
    BuildReport,
    ExampleGame,
    Explorer,
    MoveStats,
    MoveTable,
    SkippedGame,
    build,
    open_index,
)
from .sources import Played, Source, game_id
from .store import GameRow, SqliteStore, Store
from .view import panel_rows

__all__ = [
    "DEFAULT_DEPTH",
    "INLINE_GAMES",
    "BuildReport",
    "ExampleGame",
    "Explorer",
    "GameRow",
    "MoveStats",
    "MoveTable",
    "Played",
    "SkippedGame",
    "Source",
    "SqliteStore",
    "Store",
    "build",
    "game_id",
    "open",
    "open_index",
    "panel_rows",
]


def open(path: str | os.PathLike[str]) -> Explorer:
    """The index at ``path`` (refused, naming it, if it is none); ``open_index`` by the
    name it has in ``explorer``, beside ``build``."""
    return open_index(path)
