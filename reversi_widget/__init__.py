"""Reversi (Othello) for Jupyter: a rules engine, a scripting API and a clickable widget."""

from __future__ import annotations

from .board import Board, LegalMoveList, Move, Outcome, Termination
from .errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, ReversiError
from .perft import perft
from .rules import Rules
from .squares import BLACK, COLOR_NAMES, SQUARE_NAMES, WHITE, Color, Square, parse_square, square_name

__all__ = [
    "BLACK",
    "COLOR_NAMES",
    "SQUARE_NAMES",
    "WHITE",
    "Board",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "LegalMoveList",
    "Move",
    "Outcome",
    "ReversiError",
    "Rules",
    "Square",
    "Termination",
    "parse_square",
    "perft",
    "square_name",
]
