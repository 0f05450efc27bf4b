"""Computer players: the ``Player`` protocol, two simple players, and a registry of names.

A player is any object with ``choose(board) -> Move``. The widget calls it on a copy of
the position, in a worker thread, only when the side to move has a legal move (forced
passes are played without asking). ``name``, when present, labels the player. A
player may also have ``stop()``: the widget calls it (from another thread) when the move
being chosen is no longer wanted, after an undo or a new game, so that a long search
ends at once instead of delaying the next move; ``Engine`` has one.

Names such as ``"greedy"`` map to factories in ``PLAYERS``; stronger players register
theirs with ``register_player`` so that ``ReversiWidget(white="...")`` accepts them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from .board import Board, Move
from .errors import IllegalMoveError, ReversiError

__all__ = [
    "HUMAN",
    "PLAYERS",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "UnknownPlayerError",
    "make_player",
    "player_name",
    "register_player",
]

HUMAN = "human"


@runtime_checkable
class Player(Protocol):
    """Anything that picks a legal move for the side to move."""

    def choose(self, board: Board) -> Move:
        """A legal move of ``board`` (which is a copy: the player may push and pop freely)."""
        ...


class UnknownPlayerError(ReversiError):
    """A player name that is not registered, or an object without ``choose``."""


def _legal(board: Board) -> list[Move]:
    moves = list(board.legal_moves)
    if not moves:
        raise IllegalMoveError(f"no legal move to choose in {board.to_string()!r}: the side to move must pass")
    return moves


class RandomPlayer:
    """Plays a uniformly random legal move; ``seed`` makes its games repeatable."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, board: Board) -> Move:
        return self._rng.choice(_legal(board))


class GreedyPlayer:
    """Flips as many discs as it can; among equal moves it prefers a corner (R26), then
    picks at random (``seed`` makes that repeatable)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, board: Board) -> Move:
        n = board.size
        corners = {0, n - 1, n * (n - 1), n * n - 1}

        def key(move: Move) -> tuple[int, bool]:
            return len(board.flips(move)), move.square in corners

        moves = _legal(board)
        best = max(key(move) for move in moves)
        return self._rng.choice([move for move in moves if key(move) == best])


#: Player names accepted by ``make_player`` (and ``black=`` / ``white=`` of the widget).
PLAYERS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def register_player(name: str, factory: Callable[[], Player]) -> None:
    """Make ``name`` (lower case, e.g. ``"engine-3"``) usable wherever a player is given."""
    if not isinstance(name, str) or not name or name.lower() != name or name == HUMAN:
        raise UnknownPlayerError(
            f"a player name must be a non-empty lower-case string other than 'human', got {name!r}"
        )
    if not callable(factory):
        raise UnknownPlayerError(f"the factory for {name!r} must be callable, got {factory!r}")
    PLAYERS[name] = factory


def _register_engine_levels() -> None:
    """The engine's levels as player names: ``"beginner"`` ... ``"expert"`` and
    ``"level-1"`` ... ``"level-7"``, each a new ``Engine`` of that level."""
    from .engine import LEVEL_SETTINGS, Engine

    for name, level in Engine.LEVELS.items():
        register_player(name, functools.partial(Engine, level))
    for level in LEVEL_SETTINGS:
        register_player(f"level-{level}", functools.partial(Engine, level))


_register_engine_levels()


def make_player(spec: object) -> Player | None:
    """``None`` for ``"human"``, a new player for a registered name, the object itself if it
    has ``choose``; anything else raises ``UnknownPlayerError``."""
    if isinstance(spec, str):
        name = spec.strip().lower()
        if name == HUMAN:
            return None
        factory = PLAYERS.get(name)
        if factory is None:
            known = ", ".join(repr(n) for n in [HUMAN, *PLAYERS])
            raise UnknownPlayerError(
                f"unknown player {spec!r}: expected one of {known} or an object with choose(board)"
            )
        return factory()
    if isinstance(spec, Player):
        return spec
    raise UnknownPlayerError(f"a player must be a name like 'greedy' or an object with choose(board), got {spec!r}")


def player_name(player: Player) -> str:
    """A short name for labels: the player's ``name`` attribute, else its class name."""
    name = getattr(player, "name", None)
    return name if isinstance(name, str) and name else type(player).__name__
