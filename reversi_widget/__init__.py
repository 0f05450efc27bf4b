"""Reversi (Othello) for Jupyter: a rules engine, a scripting API and a clickable widget."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .analysis import Analysis, analyse
from .board import Board, LegalMoveList, Move, Outcome, Termination
from .engine import Engine
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, ReversiError, VariationError
from .explain import Explanation, explain
from .game import Game, GameNode
from .game_review import MoveReview, review
from .ggf import load_ggf, read_ggf, read_ggf_games, write_ggf, write_ggf_games
from .i18n import LANGUAGES, strings_for, translate
from .moved import install as _install_moved_modules
from .perft import perft
from .rules import Rules
from .search.root import MoveAnalysis
from .solver import Solution, solve
from .squares import BLACK, COLOR_NAMES, SQUARE_NAMES, WHITE, Color, Square, parse_square, square_name
from .wthor import WthorRecord, read_wthor
from .wthor import replay as replay_wthor

__all__ = [
    "BLACK",
    "COLOR_NAMES",
    "LANGUAGES",
    "SQUARE_NAMES",
    "WHITE",
    "Analysis",
    "Board",
    "Color",
    "Engine",
    "Explanation",
    "Game",
    "GameNode",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "LegalMoveList",
    "Move",
    "MoveAnalysis",
    "MoveReview",
    "Outcome",
    "ReversiError",
    "ReversiWidget",
    "Rules",
    "Solution",
    "Square",
    "Termination",
    "VariationError",
    "WthorRecord",
    "analyse",
    "explain",
    "load_ggf",
    "parse_square",
    "perft",
    "read_ggf",
    "read_ggf_games",
    "read_wthor",
    "replay_wthor",
    "review",
    "solve",
    "square_name",
    "strings_for",
    "translate",
    "write_ggf",
    "write_ggf_games",
]

if TYPE_CHECKING:
    from .widget import ReversiWidget

_install_moved_modules()  # old paths such as reversi_widget.tables keep working


def __getattr__(name: str) -> object:
    """``ReversiWidget`` is imported on first use, so the rules engine loads without a front end."""
    if name == "ReversiWidget":
        from .widget import ReversiWidget

        return ReversiWidget
    raise AttributeError(f"module 'reversi_widget' has no attribute {name!r}")
