"""Counting a batch of games into partial index entries: the work sent to each worker.

A worker gets games as plain tuples (``Work``) and returns a ``Partial``: for every
(canonical position, canonical move) its games played in the batch, their points, margins,
theoretical scores, years and the most recent examples, summed over the batch. Partials of
disjoint batches add up to the index of all their games in any order (every field is a sum,
a minimum, a maximum or the top few of a fixed order), which is what lets any executor build
an index, and dask's workers build it as processes do.

Each game is replayed in full (a record illegal at any move is refused whole, and said why),
and its positions are counted while fewer than ``depth`` moves' worth of discs are on the
board, that is up to ``depth`` plies (a pass adds no disc, so it is counted in the same band).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..geometry import geometry
from ..squares import square_name
from .symmetry import PASS, SIZE, canonical, square_map

__all__ = [
    "EXAMPLE",
    "EXAMPLES",
    "Entry",
    "Partial",
    "Row",
    "Work",
    "merge_examples",
    "position_key",
    "tally",
    "top_examples",
]

#: Example games kept per move, the most recent first.
EXAMPLES = 3
#: One example as stored: year (0 if unknown), game id, the symmetry from its game to the canonical position.
EXAMPLE = struct.Struct(">HqB")

#: What a worker is sent per game: (id, moves, year, black points x2, Black's margin, theoretical margin or None).
Work = tuple[int, bytes, int, int, int, "int | None"]

#: A stored row: (position key, canonical move, games, Black's points x2, sum of Black's margins,
#: games with a theoretical score, sum of their theoretical margins, first year, last year, examples).
Row = tuple[bytes, int, int, int, int, int, int, "int | None", "int | None", bytes]


@dataclass(slots=True)
class Entry:
    """One (position, move) of a batch, summed over its games."""

    games: int
    points: int
    margin: int
    theory_games: int
    theory: int
    first: int | None
    last: int | None
    examples: list[tuple[int, int, int]]


@dataclass
class Partial:
    """What a worker sends back: the rows of its batch, the ids of its games that were
    counted, and the games that did not replay (their id and why)."""

    rows: list[Row]
    counted: list[int]
    failed: list[tuple[int, str]]


def position_key(canonical_pair: int, black_to_move: bool) -> bytes:
    """The stored key of a canonical position: its two bitboards and the side to move."""
    return canonical_pair.to_bytes(16, "big") + (b"\x01" if black_to_move else b"\x00")


def top_examples(examples: list[tuple[int, int, int]]) -> bytes:
    """The stored examples: the ``EXAMPLES`` most recent, ties broken by game id (any order in)."""
    kept = sorted(set(examples), reverse=True)[:EXAMPLES]
    return b"".join(EXAMPLE.pack(*example) for example in kept)


def merge_examples(first: bytes | None, second: bytes | None) -> bytes:
    """Two stored example lists as one (what SQLite calls when a move gets more games)."""
    both = [*EXAMPLE.iter_unpack(first or b""), *EXAMPLE.iter_unpack(second or b"")]
    return top_examples(both)


def tally(work: list[Work], depth: int, start: tuple[int, int]) -> Partial:
    """Replay each game from ``start`` (black, white bitboards, Black to move) and count its
    first ``depth`` plies; a game whose moves are not legal is left out and named."""
    entries: dict[tuple[bytes, int], Entry] = {}
    counted: list[int] = []
    failed: list[tuple[int, str]] = []
    for game in work:
        plies = _replay(game, depth, start)
        if isinstance(plies, str):
            failed.append((game[0], plies))
            continue
        counted.append(game[0])
        _add(entries, game, plies)
    rows: list[Row] = [
        (key, move, e.games, e.points, e.margin, e.theory_games, e.theory, e.first, e.last, top_examples(e.examples))
        for (key, move), e in entries.items()
    ]
    return Partial(rows, counted, failed)


def _replay(game: Work, depth: int, start: tuple[int, int]) -> list[tuple[bytes, int, int]] | str:
    """(position key, canonical move, symmetry used) for each counted ply, or why the game is illegal."""
    geo = geometry(SIZE)
    moves, flippers = geo.moves, geo.flippers
    black, white = start
    player, opponent, black_to_move = black, white, True
    limit = (black | white).bit_count() + depth
    counted: list[tuple[bytes, int, int]] = []
    for number, square in enumerate(game[1], 1):
        # A move is legal when its square is empty and it flips something: one call, no move list.
        if square < PASS and not (player | opponent) >> square & 1:
            flips = flippers[square](player, opponent)
        elif square > PASS:
            return f"move {number} is not a square of the 8x8 board"
        else:
            flips = 0
        if not flips:
            if moves(player, opponent) or not moves(opponent, player):
                if square == PASS:
                    why = "a move is possible" if moves(player, opponent) else "the game is over"
                    return f"move {number} is a pass, but {why}"
                return f"move {number} ({square_name(square, SIZE)}) is not legal"
            # The side to move must pass: a pass in the record, or one left out (WTHOR stores none).
            if (player | opponent).bit_count() < limit:
                counted.append(_counted(player, opponent, black_to_move, PASS))
            player, opponent, black_to_move = opponent, player, not black_to_move
            if square == PASS:
                continue
            flips = flippers[square](player, opponent) if not (player | opponent) >> square & 1 else 0
            if not flips:
                return f"move {number} ({square_name(square, SIZE)}) is not legal"
        if (player | opponent).bit_count() < limit:
            counted.append(_counted(player, opponent, black_to_move, square))
        player |= flips | 1 << square
        opponent &= ~flips
        player, opponent, black_to_move = opponent, player, not black_to_move
    return counted


def _counted(player: int, opponent: int, black_to_move: bool, square: int) -> tuple[bytes, int, int]:
    black, white = (player, opponent) if black_to_move else (opponent, player)
    pair, symmetries = canonical(black, white)
    if len(symmetries) == 1:
        symmetry = symmetries[0]
        move = square_map(symmetry)[square]
    else:  # a symmetric position: its equivalent moves are one move, the smallest image
        move, symmetry = min((square_map(s)[square], s) for s in symmetries)
    return position_key(pair, black_to_move), move, symmetry


def _add(entries: dict[tuple[bytes, int], Entry], game: Work, plies: list[tuple[bytes, int, int]]) -> None:
    number, _, year, points, margin, theory = game
    known = year or None
    for key, move, symmetry in plies:
        example = (year, number, symmetry)
        entry = entries.get((key, move))
        if entry is None:
            entries[key, move] = Entry(1, points, margin, int(theory is not None), theory or 0, known, known, [example])
            continue
        entry.games += 1
        entry.points += points
        entry.margin += margin
        if theory is not None:
            entry.theory_games += 1
            entry.theory += theory
        if known is not None:
            entry.first = known if entry.first is None else min(known, entry.first)
            entry.last = known if entry.last is None else max(known, entry.last)
        entry.examples.append(example)
        if len(entry.examples) > 4 * EXAMPLES:
            entry.examples[:] = sorted(set(entry.examples), reverse=True)[:EXAMPLES]
