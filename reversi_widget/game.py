"""``Game``: a whole game as a record, with players, moves, result, metadata and variations.

Boards are for playing; a game record is for keeping, exchanging (GGF, WTHOR,
transcripts) and counting who wins most often (R25).

A game is also a tree of moves, as python-chess's ``GameNode`` is: ``game.tree`` is the
start, each ``GameNode`` holds the move that led to it and its ``variations`` (the first is
the main continuation, the others are alternatives kept beside it). ``game.moves`` is always
the main line; a move played in the middle of a line is kept as a variation instead of
replacing what followed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .board import Board, Move, Outcome
from .errors import IllegalMoveError, InvalidPositionError, VariationError
from .rules import Rules
from .squares import square_name

__all__ = ["Game", "GameNode"]


@dataclass
class Game:
    """A game record. ``moves`` are replayed from the start of ``rules`` (which may be a
    custom start position); ``result`` is the recorded final score ``(black, white)``
    when the source gives one (it may differ from the board, e.g. after a resignation)."""

    moves: list[Move] = field(default_factory=list)
    rules: Rules = field(default_factory=Rules)
    black_player: str = "Black"
    white_player: str = "White"
    event: str = ""
    date: str = ""
    result: tuple[int, int] | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    _tree: GameNode | None = field(default=None, init=False, repr=False, compare=False)
    _next_number: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.board()  # refuse a record whose moves are not legal, at once

    # -- the tree of moves --------------------------------------------------------------

    @property
    def tree(self) -> GameNode:
        """The start of the game's tree of moves: following ``variations[0]`` from it gives
        ``moves``. ``moves`` stays the record of the main line: changed by hand, the tree
        follows it (variations branching off the new main line are kept; what followed the
        end of a shortened main line is dropped)."""
        if self._tree is None:
            self._tree = GameNode(self, None, None, self._number())
        if self._tree.mainline_moves() != list(self.moves):
            self.board()  # the moves are checked before the tree follows them
            self._tree._follow(self.moves)
        return self._tree

    def node_at(self, moves: Sequence[Move | str]) -> GameNode:
        """The node reached by ``moves`` from the start, along any line of the tree."""
        node = self.tree
        for move in moves:
            child = next((c for c in node._variations if c.move == move), None)
            node = node.variation(move) if child is None else child  # the error names what is missing
        return node

    def find(self, number: int) -> GameNode:
        """The node with this ``number``; a ``VariationError`` if the tree has none (any
        more: a removed node's number is never given again)."""
        stack = [self.tree]
        while stack:
            node = stack.pop()
            if node.number == number:
                return node
            stack.extend(node.variations)
        raise VariationError(f"this game has no node number {number} (it may have been removed)")

    def nodes(self) -> Iterator[GameNode]:
        """Every node of the tree, each before its variations, the main one first."""
        stack = [self.tree]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def copy(self) -> Game:
        """A copy with its own tree (the same variations, in the same order, same numbers)."""
        game = Game(
            list(self.moves),
            self.rules,
            self.black_player,
            self.white_player,
            self.event,
            self.date,
            self.result,
            dict(self.metadata),
        )
        game._tree = self.tree._clone(game, None)
        game._next_number = self._next_number  # numbers removed here are not given again there
        return game

    def _number(self) -> int:
        """A node number never given before in this game."""
        self._next_number += 1
        return self._next_number - 1

    # -- building ---------------------------------------------------------------------

    @classmethod
    def from_board(cls, board: Board, **meta: object) -> Game:
        """The game that led to ``board``: its rules, root position and move stack."""
        rules = board.rules
        root = board.root()
        if root != Board(rules=rules):
            rules = Rules(
                size=rules.size, start=root.to_string(), goal=rules.goal, scoring=rules.scoring, supply=rules.supply
            )
        game = cls(list(board.move_stack), rules, **meta)  # type: ignore[arg-type]
        if game.result is None and (outcome := board.outcome()) is not None:
            game.result = (outcome.black, outcome.white)
        return game

    @classmethod
    def from_transcript(cls, text: str, *, rules: Rules | None = None, **meta: object) -> Game:
        """A game from a transcript like ``"f5d6c3..."`` (forced passes may be omitted)."""
        return cls.from_board(Board.from_transcript(text, rules=rules), **meta)

    # -- reading ----------------------------------------------------------------------

    def board(self) -> Board:
        """The final position, with the whole move stack."""
        return self.board_at(len(self.moves))

    def board_at(self, ply: int) -> Board:
        """The position after ``ply`` moves (0 is the start)."""
        if not 0 <= ply <= len(self.moves):
            raise IndexError(f"ply {ply} is outside this game of {len(self.moves)} moves")
        board = Board(rules=self.rules)
        for number, move in enumerate(self.moves[:ply], 1):
            try:
                board.push(move)
            except (IllegalMoveError, ValueError) as error:
                raise InvalidPositionError(f"move {number} of the game ({move}) cannot be played: {error}") from None
        return board

    def positions(self) -> Iterator[Board]:
        """Every position from the start to the end (copies, so they can be kept)."""
        board = Board(rules=self.rules)
        yield board.copy()
        for move in self.moves:
            board.push(move)
            yield board.copy()

    def __iter__(self) -> Iterator[Board]:
        return self.positions()

    def __len__(self) -> int:
        return len(self.moves)

    def outcome(self) -> Outcome | None:
        """The result the board gives (``None`` if the moves stop before the end)."""
        return self.board().outcome()

    def transcript(self, *, passes: bool = False) -> str:
        """The moves as ``"f5d6c3..."`` (passes omitted unless ``passes=True``)."""
        return "".join(
            square_name(m.square, self.rules.size) if m.square is not None else "pass"
            for m in self.moves
            if m or passes
        )


class GameNode:
    """One position of a game's tree: ``move`` led here from ``parent`` (both ``None`` at
    the start); ``variations`` are the moves played from here, the main one first. Nodes are
    changed only through their methods, which keep ``game.moves`` the main line. ``number``
    names the node in its game, and is never given to another (``Game.find``).

    A node that was removed from its game refuses every operation with a ``VariationError``,
    and so does an operation naming a variation the node does not have: nothing changes."""

    def __init__(self, game: Game, parent: GameNode | None, move: Move | None, number: int) -> None:
        self.game = game
        self.parent = parent
        self.move = move
        self.number = number
        self._variations: list[GameNode] = []

    def __repr__(self) -> str:
        line = " ".join(str(move) for move in self.line()) if self._attached() else "(removed)"
        return f"<GameNode {self.number} at ply {self.ply()}: {line or 'the start'}>"

    # -- reading ----------------------------------------------------------------------

    @property
    def variations(self) -> tuple[GameNode, ...]:
        """The moves played from here as nodes, the main continuation first."""
        return tuple(self._variations)

    def ply(self) -> int:
        """How many moves lead here from the start."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def line(self) -> list[Move]:
        """The moves from the start to here."""
        moves, node = [], self
        while node.parent is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        return moves[::-1]

    def board(self) -> Board:
        """The position here, with its move stack."""
        self._check()
        return _replay(self.game, self.line())

    def next(self) -> GameNode | None:
        """The main continuation, or ``None`` at the end of a line."""
        return self._variations[0] if self._variations else None

    def end(self) -> GameNode:
        """The last node of the main continuation from here."""
        node = self
        while node._variations:
            node = node._variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main continuation from here (this one excluded)."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[Move]:
        """The moves of the main continuation from here."""
        return [node.move for node in self.mainline() if node.move is not None]

    def is_main_variation(self) -> bool:
        """The first variation of its parent (the start is)."""
        return self.parent is None or self.parent._variations[0] is self

    def is_mainline(self) -> bool:
        """On the game's main line: every step from the start is a main variation."""
        node: GameNode | None = self
        while node is not None:
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def has_variation(self, move: Move | str | GameNode) -> bool:
        try:
            self.variation(move)
        except (VariationError, ValueError):
            return False
        return True

    def variation(self, move: Move | str | GameNode) -> GameNode:
        """The variation that plays ``move`` (a ``Move``, a square name or a child node)."""
        self._check()
        if isinstance(move, GameNode):
            if move.parent is self and move in self._variations:
                return move
            raise VariationError(f"{move!r} is not a variation played {self._where()}")
        wanted = Move.from_name(move, self.game.rules.size) if isinstance(move, str) else move
        for node in self._variations:
            if node.move == wanted:
                return node
        played = ", ".join(str(node.move) for node in self._variations) or "none"
        raise VariationError(f"{self._where()} there is no variation {wanted} (the moves played there: {played})")

    # -- changing ---------------------------------------------------------------------

    def add_variation(self, move: Move | str) -> GameNode:
        """Play ``move`` from here as a new variation, after the others (the main one if it
        is the first), and return its node; a move already played from here returns its
        node unchanged. An illegal move raises and changes nothing."""
        self._check()
        parsed = Board(rules=self.game.rules).parse_move(move)  # its form: a move of this size
        for node in self._variations:
            if node.move == parsed:
                return node
        self.board().push(parsed)  # IllegalMoveError, nothing added
        node = GameNode(self.game, self, parsed, self.game._number())
        self._variations.append(node)
        self._changed()
        return node

    def add_main_variation(self, move: Move | str) -> GameNode:
        """Like ``add_variation``, and the move becomes the main continuation from here."""
        node = self.add_variation(move)
        self.promote_to_main(node)
        return node

    def promote_to_main(self, move: Move | str | GameNode) -> None:
        """The variation playing ``move`` becomes the main continuation from here."""
        node = self.variation(move)
        self._variations.remove(node)
        self._variations.insert(0, node)
        self._changed()

    def promote(self, move: Move | str | GameNode) -> None:
        """The variation playing ``move`` moves up one place among the variations."""
        node = self.variation(move)
        i = self._variations.index(node)
        if i > 0:
            self._variations[i - 1], self._variations[i] = node, self._variations[i - 1]
            self._changed()

    def demote(self, move: Move | str | GameNode) -> None:
        """The variation playing ``move`` moves down one place among the variations."""
        node = self.variation(move)
        i = self._variations.index(node)
        if i < len(self._variations) - 1:
            self._variations[i], self._variations[i + 1] = self._variations[i + 1], node
            self._changed()

    def remove_variation(self, move: Move | str | GameNode) -> None:
        """Remove the variation playing ``move``, with everything after it."""
        node = self.variation(move)
        self._variations.remove(node)
        self._changed()

    # -- the machinery ----------------------------------------------------------------

    def _attached(self) -> bool:
        """Still in its game's tree (not removed, with none of its parents removed)."""
        node = self
        while node.parent is not None:
            if not any(child is node for child in node.parent._variations):
                return False
            node = node.parent
        return node is self.game._tree

    def _where(self) -> str:
        """ "at the start" or "after f5 d6", for messages."""
        line = " ".join(str(move) for move in self.line())
        return f"after {line}" if line else "at the start"

    def _check(self) -> None:
        _ = self.game.tree  # a main line changed by hand is followed first
        if not self._attached():
            what = f"node {self.number} ({self.move or 'the start'})"
            raise VariationError(f"{what} was removed from its game: it cannot be read or changed")

    def _changed(self) -> None:
        """The main line follows the tree."""
        root = self.game._tree
        assert root is not None
        self.game.moves = root.mainline_moves()

    def _follow(self, moves: Sequence[Move]) -> None:
        """Make ``moves`` the main line from here (``Game.tree``): existing variations are
        promoted, missing ones added, and what followed the last move is dropped."""
        node = self
        for move in moves:
            child = next((c for c in node._variations if c.move == move), None)
            if child is None:
                child = GameNode(self.game, node, move, self.game._number())
                node._variations.insert(0, child)
            else:
                node._variations.remove(child)
                node._variations.insert(0, child)
            node = child
        node._variations.clear()

    def _clone(self, game: Game, parent: GameNode | None) -> GameNode:
        node = GameNode(game, parent, self.move, self.number)
        node._variations = [child._clone(game, node) for child in self._variations]
        return node


def _replay(game: Game, moves: Sequence[Move]) -> Board:
    board = Board(rules=game.rules)
    for move in moves:
        board.push(move)
    return board
