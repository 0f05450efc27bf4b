"""The three ways input can be wrong; all are ``ValueError`` so callers may catch broadly."""

from __future__ import annotations


class ReversiError(ValueError):
    """Base of every error this package raises for bad input."""


class InvalidMoveError(ReversiError):
    """The text is not a move at all: not a square name, or wrong syntax."""


class IllegalMoveError(ReversiError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(ReversiError):
    """A malformed or impossible position, position string, record or file."""
