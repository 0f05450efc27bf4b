"""The package's errors, and how their messages quote the input they refuse.

Every error is a ``ReversiError``, a ``ValueError``, so callers may catch broadly. A
message quotes the bad input so the reader can find it, but never more than a short piece
of it: ``quote`` and ``cut`` are the one way messages do that.
"""

from __future__ import annotations

import os
import reprlib

__all__ = [
    "QUOTE_LIMIT",
    "GameLogBusyError",
    "GameLogError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "ReversiError",
    "VariationError",
    "cut",
    "naming_file",
    "quote",
]


class ReversiError(ValueError):
    """Base of every error this package raises for bad input."""


class InvalidMoveError(ReversiError):
    """The text is not a move at all: not a square name, or wrong syntax."""


class IllegalMoveError(ReversiError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(ReversiError):
    """A malformed or impossible position, position string, record or file."""


class VariationError(ReversiError, LookupError):
    """A variation operation on a node a game's tree of moves does not have (never had, or
    no longer has: removed), or that the operation does not apply to (the main line)."""


class GameLogError(ReversiError):
    """A game log that cannot do what was asked now: its file is read-only, missing its
    folder, or failing; the message says what happened and what to do."""


class GameLogBusyError(GameLogError):
    """Another process held the game log's lock past the timeout: wait, then retry."""


#: How much of an input a message quotes.
QUOTE_LIMIT = 60

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = QUOTE_LIMIT
_REPR.maxlong = 40
_HUGE_INT_BITS = 128  # past this an int is described, not written out (str() of a huge int is slow or refused)


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A piece of the input as a message quotes it unquoted: long pieces end in ``...``."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters.

    Cheap on any input: a long string is cut before it is written out, a huge int is
    described by its size, and an object whose ``repr`` fails is named by its type."""
    if isinstance(value, str):
        shown = repr(value[: limit + 1])  # cut first: the whole of a huge text is never written out
        if len(value) > limit or len(shown) > limit + 2:  # escapes (\u3000) make a repr longer
            shown = shown[: limit - 3] + "..." + shown[-1]
        return shown
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _HUGE_INT_BITS:
        return f"<an int of {value.bit_length()} bits>"
    try:
        return cut(_REPR.repr(value), limit)
    except Exception:
        return f"<a {type(value).__name__}>"


def naming_file(error: OSError, path: str | os.PathLike[str]) -> OSError:
    """``error`` with the file's name in its message: ``open`` names it, but a read or a
    ``stat`` that fails may not."""
    if error.filename is not None:
        return error
    if error.errno is None:
        return type(error)(f"{os.fspath(path)}: {error}")
    return type(error)(error.errno, error.strerror or str(error), os.fspath(path))
