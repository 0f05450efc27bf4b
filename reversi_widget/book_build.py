"""Make the opening book (``python -m reversi_widget.book build|revalue|extend``).

* **build**: replay the WTHOR master games to ``max_ply`` moves, merge each position with its
  symmetric images, and keep the positions seen in at least ``min_games`` games that the
  start reaches through kept positions (a tree with no orphans); then value it.
* **value**: search every position with its book moves excluded (``leave``: the best move
  leaving the book and its value, the engine's fixed-depth search through
  ``engine.make_midgame``), then minimax from the deepest positions to the start: a
  position's value is the best of its leave and of its book moves (each the negated value of
  the position it leads to). ``revalue`` does this again on the same tree, at a new depth or
  with a stronger engine.
* **extend**: self-play from the start: each side picks its moves from the book as the engine
  does (``Book.pick``, seeded), until a move leaves the book; the position reached and the
  next ``plies`` positions of the engine's best line join the book (with 0 games). Every
  position whose book moves changed is searched again, then the whole tree is minimaxed.

Each search starts from an empty transposition table, so a position's leave depends on the
position, its book moves and the depth alone: build, revalue and extend agree, in any
order, and on the compiled and the pure path. Building needs the ``train`` extra (numpy).
"""

from __future__ import annotations

import argparse
import random
import time
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import native
from .board import Board, Move
from .book import MAX_VALUE, NO_VALUE, SQUARE_ORIGINS, Book, canonical, images, read_book, write_book
from .errors import InvalidPositionError
from .geometry import geometry, squares_of
from .search import root_search, score_to_margin
from .search.evaluate import square_table
from .search.midgame import make_midgame
from .squares import BLACK, parse_square
from .train import DEFAULT_DATA, progress_bar
from .wthor import WthorRecord, read_wthor
from .wthor_data import wthor_years

#: Positions seen in at least this many master games join the book...
MIN_GAMES = 5
#: ... up to this many moves from the start...
MAX_PLY = 30
#: ... and are searched this deep (plies) for their moves leaving the book.
DEPTH = 8
#: The start: Black (to move) on d5 and e4, White on d4 and e5.
START = (0x0000000810000000, 0x0000001008000000)

Key = tuple[int, int]


@dataclass
class Node:
    """One book position (mover and opponent bitboards of its key) while the book is made."""

    games: int
    #: the squares of its book moves (legal moves leading to book positions), as a bitboard
    book_moves: int = 0
    children: list[Key] = field(default_factory=list)
    #: the best move leaving the book and its value (centi-discs), None when all moves stay
    leave: tuple[int, int] | None = None
    #: the book moves the leave was searched with, -1 before any search
    searched: int = -1
    value: int = 0


Tree = dict[Key, Node]


# -- collecting master-game positions ------------------------------------------------


def canonical_arrays(
    p: npt.NDArray[np.uint64], o: npt.NDArray[np.uint64]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``book.canonical`` of many positions at once: each one's least image."""
    ps, os = images(p), images(o)  # type: ignore[arg-type]  # the bit operations suit uint64 arrays
    best_p, best_o = np.array(ps[0], dtype=np.uint64), np.array(os[0], dtype=np.uint64)
    for image_p, image_o in zip(ps[1:], os[1:], strict=True):
        better = (image_p < best_p) | ((image_p == best_p) & (image_o < best_o))
        best_p = np.where(better, image_p, best_p)
        best_o = np.where(better, image_o, best_o)
    return best_p, best_o


def game_positions(records: Iterable[WthorRecord], max_ply: int) -> tuple[array[int], array[int]]:
    """Mover and opponent bitboards of every position in the first ``max_ply`` moves of every
    game, the start included, up to the first where the side to move must pass (the book
    holds none of those)."""
    geo = geometry(8)
    moves, flippers = geo.moves, geo.flippers
    squares = {name: parse_square(name) for name in (f"{c}{r}" for c in "abcdefgh" for r in range(1, 9))}
    movers, opponents = array("Q"), array("Q")
    for record in records:
        p, o = START
        movers.append(p)
        opponents.append(o)
        for name in record.moves[:max_ply]:
            sq = squares[name]
            f = flippers[sq](p, o)
            p, o = o ^ f, p | f | (1 << sq)
            if not moves(p, o):
                break
            movers.append(p)
            opponents.append(o)
    return movers, opponents


def count_positions(records: Sequence[WthorRecord], max_ply: int, min_games: int, show: bool) -> dict[Key, int]:
    """Games through each canonical position within ``max_ply`` moves (a game never passes
    one position twice), for the positions of at least ``min_games`` games."""
    movers, opponents = [], []
    chunks = [records[i : i + 5000] for i in range(0, len(records), 5000)]
    for chunk in progress_bar(chunks, "replaying") if show else chunks:
        played = game_positions(chunk, max_ply)
        p, o = canonical_arrays(*(np.frombuffer(column, dtype=np.uint64) for column in played))
        movers.append(p)
        opponents.append(o)
    positions = np.stack([np.concatenate(movers), np.concatenate(opponents)], axis=1)
    keys, seen = np.unique(positions, axis=0, return_counts=True)
    kept = seen >= min_games
    return {(p, o): n for (p, o), n in zip(keys[kept].tolist(), seen[kept].tolist(), strict=True)}


def children_of(keys: Sequence[Key]) -> list[list[tuple[int, Key]]]:
    """Every legal move of each position with the key of the position it leads to."""
    geo = geometry(8)
    moves, flippers = geo.moves, geo.flippers
    owners, squares, movers, opponents = [], [], array("Q"), array("Q")
    for index, (p, o) in enumerate(keys):
        for sq in squares_of(moves(p, o)):
            f = flippers[sq](p, o)
            owners.append(index)
            squares.append(sq)
            movers.append(o ^ f)
            opponents.append(p | f | (1 << sq))
    found: list[list[tuple[int, Key]]] = [[] for _ in keys]
    if owners:
        cp, co = canonical_arrays(np.frombuffer(movers, dtype=np.uint64), np.frombuffer(opponents, dtype=np.uint64))
        for index, sq, child in zip(owners, squares, zip(cp.tolist(), co.tolist(), strict=True), strict=True):
            found[index].append((sq, child))
    return found


def select(counts: dict[Key, int], min_games: int) -> Tree:
    """The positions seen in at least ``min_games`` games that the start reaches through
    such positions, as a tree (the start always belongs)."""
    root, _ = canonical(*START)
    tree: Tree = {root: Node(counts.get(root, 0))}
    layer = [root]
    while layer:
        found = []
        for children in children_of(layer):
            for _, child in children:
                if child not in tree and counts.get(child, 0) >= min_games:
                    tree[child] = Node(counts[child])
                    found.append(child)
        layer = found
    return tree


def link(tree: Tree, keys: Iterable[Key] | None = None) -> None:
    """Set the book moves and children of ``keys`` (default: every position)."""
    chosen = list(tree if keys is None else keys)
    for key, children in zip(chosen, children_of(chosen), strict=True):
        node = tree[key]
        node.children = [child for _, child in children if child in tree]
        node.book_moves = sum(1 << sq for sq, child in children if child in tree)


# -- valuing ----------------------------------------------------------------------------


def best_move(p: int, o: int, moves: int, depth: int) -> tuple[int, int]:
    """(square, centi-discs) of the best of ``moves`` for the mover of ``(p, o)`` by a search
    ``depth`` plies deep (iterative deepening from an empty table)."""
    geo = geometry(8)
    search = make_midgame(8, "classic", "count")
    values = square_table(8)
    order = sorted(squares_of(moves), key=lambda sq: -values[sq])
    children = {}
    for sq in order:
        f = geo.flips(p, o, sq)
        np_, no = p | f | (1 << sq), o ^ f
        children[sq] = (no, np_, geo.moves(no, np_))
    best_score, best_sq = 0, order[0]
    for level in range(1, depth + 1):

        def value(sq: int, alpha: int, beta: int, level: int = level) -> int:
            no, np_, reply = children[sq]
            return -search.negamax(no, np_, level - 1, -beta, -alpha, reply)

        best_score, best_squares, scores = root_search(order, value)
        best_sq = best_squares[0]
        order.sort(key=lambda sq: -scores.get(sq, -best_score - 1))
    margin = score_to_margin(best_score)[0]
    return best_sq, max(-MAX_VALUE, min(MAX_VALUE, round(margin * 100)))


def search_leaves(tree: Tree, depth: int, show: bool, keys: Iterable[Key] | None = None) -> int:
    """Search the leave of every position (of ``keys``) whose book moves changed since its
    last search; the number searched."""
    geo = geometry(8)
    pending = sorted(
        (key for key in (tree if keys is None else keys) if tree[key].searched != tree[key].book_moves),
        key=lambda key: ((key[0] | key[1]).bit_count(), key),
    )
    for key in progress_bar(pending, "searching") if show else pending:
        node = tree[key]
        others = geo.moves(*key) & ~node.book_moves
        node.leave = best_move(*key, others, depth) if others else None
        node.searched = node.book_moves
    return len(pending)


def minimax(tree: Tree) -> None:
    """Every position's value: the best of its leave and of its children's negated values,
    from the deepest positions up."""
    for key in sorted(tree, key=lambda key: -(key[0] | key[1]).bit_count()):
        node = tree[key]
        options = [-tree[child].value for child in node.children]
        if node.leave is not None:
            options.append(node.leave[1])
        node.value = max(options)


def value(tree: Tree, depth: int, show: bool) -> int:
    """Link, search and minimax the whole tree; the number of positions searched."""
    link(tree)
    searched = search_leaves(tree, depth, show)
    minimax(tree)
    return searched


# -- the file ---------------------------------------------------------------------------


def columns_of(tree: Tree) -> list[array[Any]]:
    """The book file's columns, rows sorted by key."""
    keys = sorted(tree)
    nodes = [tree[key] for key in keys]
    return [
        array("Q", [p for p, _ in keys]),
        array("Q", [o for _, o in keys]),
        array("I", [min(node.games, 0xFFFFFFFF) for node in nodes]),
        array("h", [node.value for node in nodes]),
        array("h", [NO_VALUE if node.leave is None else node.leave[1] for node in nodes]),
        array("b", [-1 if node.leave is None else node.leave[0] for node in nodes]),
    ]


def tree_of(book: Book) -> Tree:
    """A book's tree with its stored leaves, as searched with its current book moves."""
    tree: Tree = {}
    for p, o, games, worth, leave_value, leave_square in zip(
        book.movers, book.opponents, book.games, book.values, book.leave_values, book.leave_squares, strict=True
    ):
        leave = None if leave_square < 0 else (leave_square, leave_value)
        tree[p, o] = Node(games, leave=leave, value=worth)
    link(tree)
    for node in tree.values():
        node.searched = node.book_moves
    return tree


def book_of(tree: Tree, header: dict[str, Any]) -> Book:
    """The tree as a ``Book`` in memory, to look positions up while extending it."""
    return Book(Path("<in memory>"), header, columns_of(tree))


def write(path: Path, tree: Tree, header: dict[str, Any]) -> int:
    return write_book(path, header, columns_of(tree))


# -- extending --------------------------------------------------------------------------


def extend(tree: Tree, header: dict[str, Any], games: int, seed: int, plies: int, show: bool) -> dict[str, int]:
    """Play ``games`` self-play games from the start (see the module's docstring) and add
    their positions after leaving the book; every position whose book moves changed is
    searched again. Returns counts of what was done."""
    depth = int(header["depth"])
    geo = geometry(8)
    added = searched = 0
    numbers = range(games)
    for number in progress_bar(numbers, "self-play") if show else numbers:
        rng = random.Random(f"book extend {seed} {number}")
        book = book_of(tree, header)
        board = Board()
        parent: Key | None = None
        while True:
            picked = book.pick(board, rng)
            if picked is None:
                break
            key, _ = canonical(*_sides(board))
            board.push(picked.move)
            if not picked.in_book:
                parent = key
                break
        if parent is None:
            continue
        line: list[Key] = []
        for _ in range(plies):
            key, symmetries = canonical(*_sides(board))
            legal = geo.moves(*key)  # (in the key's orientation, like the square searched)
            if not legal or key in tree:  # a pass, or a transposition into the book
                break
            line.append(key)
            tree[key] = Node(0)
            sq, _ = best_move(*key, legal, depth)
            board.push(Move(SQUARE_ORIGINS[symmetries[0]][sq], 8))  # the key's square, on the board
        added += len(line)
        touched = [parent, *line]
        link(tree, touched)
        searched += search_leaves(tree, depth, False, touched)
        minimax(tree)
    # Positions reached from elsewhere by transposition gained book moves too: find them all.
    link(tree)
    searched += search_leaves(tree, depth, show)
    minimax(tree)
    return {"games": games, "seed": seed, "plies": plies, "added": added, "searched": searched}


def _sides(board: Board) -> Key:
    black, white = board.bitboards()
    return (black, white) if board.turn == BLACK else (white, black)


# -- the command ------------------------------------------------------------------------


def read_records(folder: Path, games: int | None, seed: int, show: bool) -> list[WthorRecord]:
    """Every game of the folder's yearly files, or a seeded random sample of ``games``."""
    files = list(wthor_years(folder).values())
    records: list[WthorRecord] = []
    for path in progress_bar(files, "reading") if show else files:
        records.extend(read_wthor(path))
    if games is not None and games < len(records):
        records = random.Random(seed).sample(records, games)
    return records


def run(args: argparse.Namespace) -> int:
    """Carry out ``build``, ``revalue`` or ``extend`` (arguments checked by ``book.main``)."""
    show = not args.quiet
    native.wait("midgame")  # the same values either way, only sooner compiled
    start = time.perf_counter()
    if args.command == "build":
        folder = DEFAULT_DATA if args.data is None else args.data
        records = read_records(folder, args.games, args.seed, show)
        min_games = MIN_GAMES if args.min_games is None else args.min_games
        max_ply = MAX_PLY if args.max_ply is None else args.max_ply
        depth = DEPTH if args.depth is None else args.depth
        tree = select(count_positions(records, max_ply, min_games, show), min_games)
        collected = time.perf_counter() - start
        value(tree, depth, show)
        header: dict[str, Any] = {
            "source": "WTHOR master games",
            "years": f"{min(r.year for r in records)}-{max(r.year for r in records)}",
            "games": len(records),
            "sample": args.games,
            "seed": args.seed,
            "min_games": min_games,
            "max_ply": max_ply,
            "depth": depth,
            "extensions": [],
            "unit": "centi-discs",
        }
        print(f"{len(records):,} games read, {len(tree):,} positions chosen in {collected:.1f} s")
        out = args.out
    else:
        book = read_book(args.book)
        header = dict(book.header)
        tree = tree_of(book)
        out = args.book if args.out is None else args.out
        if args.command == "revalue":
            header["depth"] = header["depth"] if args.depth is None else args.depth
            for node in tree.values():
                node.searched = -1
            value(tree, int(header["depth"]), show)
        else:
            if args.depth is not None and args.depth != header["depth"]:
                raise InvalidPositionError(
                    f"opening book {args.book} was searched at depth {header['depth']}: extend it at that depth, "
                    "or revalue it at the new depth first"
                )
            done = extend(tree, header, args.games, args.seed, args.plies, show)
            header["extensions"] = [*header.get("extensions", []), done]
    size = write(out, tree, header)
    print(
        f"{len(tree):,} positions, depth {header['depth']}; wrote {out} ({size:,} bytes) in "
        f"{time.perf_counter() - start:.1f} s"
    )
    return 0


__all__ = ["Node", "Tree", "extend", "minimax", "run", "select", "value"]
