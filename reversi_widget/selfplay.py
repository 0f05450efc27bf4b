"""Self-play games labelled by the exact solver: training data for a goal without master games.

No master games of the inverted goal (fewer discs wins, R21) are recorded, so its pattern
evaluation learns from games the package plays itself. Each game is reproducible from its
seed and number:

* a random opening of a few random moves, so that the games spread over many openings;
* then the engine at a fixed depth (its weights perturbed a little in every game, see
  ``Engine``), with a small share of random moves, to the end;
* every position where the side to move has a move is labelled with a final margin for that
  side under the goal: from ``solve_empties`` empties on, each position is solved exactly;
  an earlier position takes the exact value of the game's own position at that point, the
  way WTHOR's theoretical score at 24 empties labels a game's earlier positions.

Standard library only: ``train`` turns the positions into a fit, ``benchmarks`` measure
evaluations on games of another seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import Board
from .engine import LEVEL_SETTINGS, Engine
from .errors import InvalidPositionError, quote
from .rules import GOALS, Rules
from .search import INFINITY, final_score_function
from .search.endgame import Endgame

__all__ = [
    "MAX_SOLVE_EMPTIES",
    "MOVE_SECONDS",
    "Game",
    "LabelledPosition",
    "Position",
    "SelfPlaySettings",
    "game_rng",
    "label_game",
    "play_game",
]

#: The engine's budget a move: far more than a fixed-depth level needs, so that no move is
#: cut short by the clock and the games repeat exactly from their seed on any machine.
MOVE_SECONDS = 60.0
#: The most empties the exact solver labels from (20 already costs seconds a position).
MAX_SOLVE_EMPTIES = 20


@dataclass(frozen=True)
class SelfPlaySettings:
    """How the games are played and labelled."""

    goal: str = "inverted"
    #: the engine level that plays after the opening (a fixed-depth level, see ``LEVEL_SETTINGS``)
    level: int = 5
    #: fewest and most random moves of the opening
    opening: tuple[int, int] = (2, 12)
    #: the share of later moves played at random
    random_share: float = 0.05
    #: positions with at most this many empties are solved exactly
    solve_empties: int = 16

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise InvalidPositionError(f"goal must be one of {GOALS}, got {quote(self.goal)}")
        if self.level not in LEVEL_SETTINGS or LEVEL_SETTINGS[self.level].depth > 10:
            raise InvalidPositionError(f"self-play needs a fixed-depth level (1-5), got {quote(self.level)}")
        low, high = self.opening
        if not 0 <= low <= high <= 40:
            raise InvalidPositionError(f"opening must be 0 <= fewest <= most <= 40 random moves, got {self.opening}")
        if not 0.0 <= self.random_share <= 1.0:
            raise InvalidPositionError(f"random_share must be from 0 to 1, got {quote(self.random_share)}")
        if not 0 <= self.solve_empties <= MAX_SOLVE_EMPTIES:
            raise InvalidPositionError(
                f"solve_empties must be from 0 to {MAX_SOLVE_EMPTIES}, got {quote(self.solve_empties)}"
            )


@dataclass(frozen=True)
class Position:
    """A position of a game: the side to move's and the other side's discs, whether Black
    moves (the mover has a legal move)."""

    mover: int
    opponent: int
    black: bool

    @property
    def empties(self) -> int:
        return 64 - (self.mover | self.opponent).bit_count()


@dataclass(frozen=True)
class LabelledPosition:
    """A position with its final margin for the side to move under the goal: ``exact`` when
    solved from this very position, else the exact value of the game's later position."""

    mover: int
    opponent: int
    margin: int
    exact: bool

    @property
    def empties(self) -> int:
        return 64 - (self.mover | self.opponent).bit_count()


def game_rng(seed: int, number: int) -> random.Random:
    """The random source of game ``number`` of a seed: the same game on every run and machine."""
    return random.Random(f"self-play {seed} {number}")


@dataclass(frozen=True)
class Game:
    """A finished game: its positions in order, and the final discs of Black and White."""

    positions: tuple[Position, ...]
    black: int
    white: int


def play_game(seed: int, number: int, settings: SelfPlaySettings) -> Game:
    """Game ``number`` of ``seed``, played to the end."""
    rng = game_rng(seed, number)
    board = Board(rules=Rules(goal=settings.goal))
    # Without the opening book: the games explore the engine's own play, as they did before it.
    engine = Engine(settings.level, time_limit=MOVE_SECONDS, seed=rng.randrange(2**31), book=False)
    opening = rng.randint(*settings.opening)
    positions: list[Position] = []
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
            continue
        p, o = board.sides()
        positions.append(Position(p, o, board.turn))
        if board.ply < opening or rng.random() < settings.random_share:
            board.push(rng.choice(list(board.legal_moves)))
        else:
            board.push(engine.choose(board))
    black, white = board.bitboards()
    return Game(tuple(positions), black, white)


def label_game(game: Game, solver: Endgame, solve_empties: int) -> list[LabelledPosition]:
    """The game's positions with their margins (``solver`` of the game's goal): exact from
    ``solve_empties`` empties on, and before that the exact value of the first position
    solved, seen from each position's side to move. A game over before that point labels
    every position with its final result."""
    positions = game.positions
    exact = {
        index: solver.search(pos.mover, pos.opponent, -INFINITY, INFINITY)
        for index, pos in enumerate(positions)
        if pos.empties <= solve_empties
    }
    if exact:
        anchor = min(exact)
        value, black = exact[anchor], positions[anchor].black
    else:
        value, black = final_score_function(8, solver.goal, solver.scoring)(game.black, game.white), True
    return [
        LabelledPosition(
            pos.mover,
            pos.opponent,
            exact.get(index, value if pos.black == black else -value),
            index in exact,
        )
        for index, pos in enumerate(positions)
    ]
