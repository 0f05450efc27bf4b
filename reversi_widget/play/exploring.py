"""The widget's Explorer panel: the master games' moves from the position shown, from an index.

Off by default (``show_explorer``). The index is the widget's ``explorer`` setting (an
``Explorer`` or the path of one); without one, an index of the WTHOR year shipped with the
package is built once per process, in a temporary folder. The panel's picture is
``explorer_view`` (js/PROTOCOL.md): Python looks the position up and writes the rows in the
widget's language; a click on a move is an ordinary ``move`` intent, and a click on a game
an ``explorer_game`` intent, which loads that game and shows it at the position.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from ..board import Board
from ..errors import InvalidPositionError, ReversiError
from ..explorer import Explorer, build, open_index, panel_rows
from ..i18n import translate
from ..wthor_data import SAMPLE
from .session import Session
from .texts import Refusal, Text, quote_input

__all__ = ["ExplorerPanel", "explorer_setting", "shipped_index"]

_shipped: list[Explorer] = []
_shipped_lock = threading.Lock()


def shipped_index() -> Explorer:
    """The index of the shipped WTHOR year, built on first use (about a second) and kept."""
    with _shipped_lock:
        if not _shipped:
            folder = Path(tempfile.mkdtemp(prefix="reversi-explorer-"))
            _shipped.append(build(SAMPLE, folder / "wthor-sample.sqlite", progress=False))
        return _shipped[0]


def explorer_setting(value: object) -> Explorer | None:
    """The ``explorer`` setting checked: ``None``, an ``Explorer``, or the path of an index."""
    if value is None or isinstance(value, Explorer):
        return value
    if isinstance(value, (str, os.PathLike)):
        return open_index(value)
    raise ReversiError(f"explorer must be an Explorer, the path of an index or None, got {quote_input(value)}")


class ExplorerPanel:
    """What the panel shows for a board, and the games it loads."""

    def __init__(self) -> None:
        #: The widget's ``show_explorer`` and ``explorer`` settings.
        self.settings: tuple[bool, Explorer | None] = (False, None)

    def current(self) -> Explorer:
        index = self.settings[1]
        return index if index is not None else shipped_index()

    def view(self, board: Board, language: str) -> dict[str, Any]:
        """The panel's picture (``explorer_view``), ``{}`` while it is off."""
        if not self.settings[0]:
            return {}
        index = self.current()
        try:
            view = panel_rows(index, board, language)
        except InvalidPositionError:
            view = {
                "state": "variant",
                "message": translate("explorer_variant", language, variant=index.variant),
                "moves": [],
            }
        view["title"] = translate("explorer", language)
        view["load"] = translate("explorer_load", language)
        return view

    def load(self, session: Session, move: str, number: int) -> Refusal | None:
        """Load example game ``number`` of ``move`` from the position shown, and show it
        there: the rest of the game is the line ahead (redo, the replay slider)."""
        board = session.board
        try:
            rows = panel_rows(self.current(), board)["moves"]
        except InvalidPositionError:
            rows = []
        games: list[dict[str, str]] = next((row["games"] for row in rows if row["move"] == move), [])
        if not 0 <= number < len(games):
            return Refusal(Text("notice_refused_explorer_game", got=quote_input(f"{move} {number + 1}")))
        game = Board.from_transcript(games[number]["transcript"], rules=board.rules)
        here = board.bitboards(), board.turn
        session.start(game)
        return session.jump(_ply_of(game, here))


def _ply_of(game: Board, here: tuple[tuple[int, int], int]) -> int:
    """The ply at which a game reaches a position (the example games all pass through it)."""
    replay = Board(rules=game.rules)
    for ply, move in enumerate(game.move_stack):
        if (replay.bitboards(), replay.turn) == here:
            return ply
        replay.push(move)
    return len(game.move_stack)
