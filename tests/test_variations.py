"""Variations: ``Game``'s tree of moves (``GameNode``), and the session keeping every line
played through undo, redo, jumps, promotions and deletions.

The tree is checked by hand on small cases, and against a simple model (a dict from each
position's moves to the moves played there, main first) by a hypothesis state machine that
drives a ``Session`` through random sequences."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from reversi_widget import Board, Game, GameNode, IllegalMoveError, Move, Rules, VariationError, read_ggf, write_ggf
from reversi_widget.play.session import Session
from reversi_widget.play.variations import line_nodes, variation_action
from reversi_widget.squares import BLACK, WHITE

OPENING = "f5d6c3d3c4"

# The compiled core imports numpy in a background thread, and hypothesis's sampled_from looks
# numpy up in sys.modules: imported whole here first, it is never seen half imported.
with contextlib.suppress(ImportError):
    import numpy  # noqa: F401


def names(moves: list[Move]) -> list[str]:
    return [str(move) for move in moves]


# -- Game and GameNode ---------------------------------------------------------------------


def test_a_game_is_a_tree_whose_main_line_is_its_moves() -> None:
    game = Game.from_transcript(OPENING)
    root = game.tree
    assert root.parent is None and root.move is None and root.ply() == 0
    assert names(root.mainline_moves()) == ["f5", "d6", "c3", "d3", "c4"] and game.tree.end().ply() == 5
    node = game.node_at(["f5", "d6"])
    assert node.is_mainline() and node.is_main_variation() and names(node.line()) == ["f5", "d6"]
    assert node.board() == game.board_at(2)
    assert [n.ply() for n in root.mainline()] == [1, 2, 3, 4, 5]
    assert game.find(node.number) is node


def test_a_variation_keeps_what_followed_and_promotion_changes_the_main_line() -> None:
    game = Game.from_transcript(OPENING)
    branch = game.node_at(["f5", "d6"])
    c5 = branch.add_variation("c5")
    assert names(game.moves) == ["f5", "d6", "c3", "d3", "c4"]  # the main line is unchanged
    assert [str(v.move) for v in branch.variations] == ["c3", "c5"]
    assert not c5.is_mainline() and not c5.is_main_variation() and c5.parent is branch
    assert branch.add_variation("c5") is c5  # the same move twice is the same node
    c5.add_variation("f4")
    branch.promote_to_main("c5")
    assert names(game.moves) == ["f5", "d6", "c5", "f4"] and c5.is_mainline()
    assert names(branch.variation("c3").mainline_moves()) == ["d3", "c4"]  # the old line is kept
    branch.demote(c5)
    assert names(game.moves) == ["f5", "d6", "c3", "d3", "c4"]
    branch.promote(c5)
    assert names(game.moves) == ["f5", "d6", "c5", "f4"]
    branch.remove_variation("c3")
    assert [str(v.move) for v in branch.variations] == ["c5"]
    main = game.node_at(["f5"]).add_main_variation("f6")  # a new move, made the main line at once
    assert main.is_mainline() and names(game.moves) == ["f5", "f6"]


def test_an_illegal_variation_is_refused_and_nothing_changes() -> None:
    game = Game.from_transcript(OPENING)
    before = [(n.number, names(n.line())) for n in game.nodes()]
    with pytest.raises(IllegalMoveError):
        game.node_at(["f5"]).add_variation("a1")
    assert [(n.number, names(n.line())) for n in game.nodes()] == before


@pytest.mark.parametrize(
    "operation",
    ["variation", "promote_to_main", "promote", "demote", "remove_variation"],
)
def test_an_operation_on_a_variation_that_does_not_exist_is_refused_and_nothing_changes(operation: str) -> None:
    game = Game.from_transcript(OPENING)
    before = (names(game.moves), [(n.number, names(n.line())) for n in game.nodes()])
    with pytest.raises(VariationError, match=r"after f5 d6 there is no variation e6 \(the moves played there: c3\)"):
        getattr(game.node_at(["f5", "d6"]), operation)("e6")
    assert (names(game.moves), [(n.number, names(n.line())) for n in game.nodes()]) == before


def test_a_removed_node_refuses_every_operation_and_its_number_is_never_reused() -> None:
    game = Game.from_transcript(OPENING)
    branch = game.node_at(["f5", "d6"])
    gone = branch.add_variation("c5")
    number = gone.number
    branch.remove_variation(gone)
    for act in (
        lambda: gone.add_variation("c4"),
        lambda: gone.board(),
        lambda: gone.promote_to_main("c4"),
        lambda: branch.variation(gone),
    ):
        with pytest.raises(VariationError, match=r"removed from its game|no variation|is not a variation"):
            act()
    with pytest.raises(VariationError, match=f"no node number {number}"):
        game.find(number)
    assert branch.add_variation("c5").number != number
    with pytest.raises(VariationError):
        game.node_at(["f5", "e6"])


def test_changing_moves_by_hand_regrafts_the_tree() -> None:
    game = Game.from_transcript(OPENING)
    game.node_at(["f5", "d6"]).add_variation("c5")
    game.moves = [*game.moves[:2], game.board_at(2).parse_move("c5")]
    assert [str(v.move) for v in game.node_at(["f5", "d6"]).variations] == ["c5", "c3"]
    assert names(game.tree.mainline_moves()) == ["f5", "d6", "c5"]


def test_a_copy_has_its_own_tree() -> None:
    game = Game.from_transcript(OPENING)
    game.node_at(["f5", "d6"]).add_variation("c5")
    copy = game.copy()
    copy.node_at(["f5", "d6"]).remove_variation("c5")
    assert game.node_at(["f5", "d6"]).has_variation("c5") and not copy.node_at(["f5", "d6"]).has_variation("c5")
    assert [n.number for n in copy.nodes()] == [n.number for n in game.nodes() if names(n.line())[2:3] != ["c5"]]
    gone = game.node_at(["f5", "d6", "c5"]).number
    game.node_at(["f5", "d6"]).remove_variation("c5")
    assert game.copy().node_at(["f5", "d6"]).add_variation("c5").number > gone  # never given again


def test_ggf_writes_the_main_line_and_reads_back() -> None:
    game = Game.from_transcript(OPENING)
    game.node_at(["f5", "d6"]).add_variation("c5").add_variation("f4")
    text = write_ggf(game)
    assert "[c5]" not in text.lower()
    read = read_ggf(text)
    assert names(read.moves) == names(game.moves) == ["f5", "d6", "c3", "d3", "c4"]
    game.node_at(["f5", "d6"]).promote_to_main("c5")
    assert names(read_ggf(write_ggf(game)).moves) == ["f5", "d6", "c5", "f4"]


# -- the session, against a simple model ---------------------------------------------------

Path = tuple[Move, ...]


class VariationMachine(RuleBasedStateMachine):
    """A session between two humans on a small board, driven at random; the model is the
    tree as a dict (each position's moves, main first), the line shown and its ply."""

    @initialize(size=st.sampled_from([4, 6]))
    def start(self, size: int) -> None:
        self.game_rules = Rules(size=size)
        self.session = Session(Board(rules=self.game_rules), {BLACK: None, WHITE: None})
        self.tree: dict[Path, list[Move]] = {}
        self.line: list[Move] = []
        self.ply = 0
        self.removed: list[int] = []  # numbers of deleted nodes

    # -- the model --------------------------------------------------------------------------

    def board_at(self, moves: Path | list[Move]) -> Board:
        board = Board(rules=self.game_rules)
        for move in moves:
            board.push(move)
        return board

    def continuation(self, path: list[Move]) -> list[Move]:
        line = list(path)
        while self.tree.get(tuple(line)):
            line.append(self.tree[tuple(line)][0])
        return line

    def push(self, move: Move) -> None:
        if self.line[self.ply : self.ply + 1] != [move]:
            path = tuple(self.line[: self.ply])
            played = self.tree.setdefault(path, [])
            if move not in played:
                played.append(move)
            self.line = self.continuation([*path, move])
        self.ply += 1

    def advance(self) -> None:
        """Forced passes at the end of the line play themselves (``Session.advance``)."""
        while self.ply == len(self.line):
            board = self.board_at(self.line)
            if board.is_game_over() or not board.must_pass():
                return
            self.push(Move.null(self.game_rules.size))

    def human_turn(self, ply: int) -> bool:
        board = self.board_at(self.line[:ply])
        return not board.must_pass() and not board.is_game_over()

    def paths(self) -> list[Path]:
        return sorted({(*path, move) for path, moves in self.tree.items() for move in moves}, key=len)

    def number(self, path: Path) -> int:
        return self.session.tree.node_at(path).number

    # -- rules ------------------------------------------------------------------------------

    @precondition(lambda self: not self.session.board.is_game_over())
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        board = self.session.board
        legal = list(board.legal_moves) or [Move.null(board.size)]  # a pass, in the middle of the line
        move = data.draw(st.sampled_from(legal), label="move")
        assert self.session.play(move) is None
        self.push(move)
        self.advance()

    @rule()
    def undo(self) -> None:
        target = next((p for p in range(self.ply - 1, -1, -1) if self.human_turn(p)), None)
        refusal = self.session.undo()
        assert (refusal is None) == (target is not None)
        if target is not None:
            self.ply = target

    @rule()
    def redo(self) -> None:
        target = next(
            (p for p in range(self.ply + 1, len(self.line) + 1) if p == len(self.line) or self.human_turn(p)), None
        )
        refusal = self.session.redo()
        assert (refusal is None) == (target is not None)
        if target is not None:
            self.ply = target
            self.advance()

    @rule(data=st.data())
    def jump(self, data: st.DataObject) -> None:
        to = data.draw(st.integers(0, len(self.line)), label="to")
        assert self.session.jump(to) is None
        if to != self.ply:
            self.ply = to
            self.advance()

    @precondition(lambda self: bool(self.tree))
    @rule(data=st.data())
    def jump_into(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(self.paths()), label="node")
        assert variation_action(self.session, "variation_jump", self.number(path)) is None
        self.line, self.ply = self.continuation(list(path)), len(path)
        self.advance()

    @precondition(lambda self: bool(self.tree))
    @rule(data=st.data())
    def promote(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(self.paths()), label="node")
        on_main = all(self.tree[path[:k]][0] == path[k] for k in range(len(path)))
        refusal = variation_action(self.session, "variation_promote", self.number(path))
        assert (refusal is not None) == on_main
        for k in range(len(path)):
            played = self.tree[path[:k]]
            played.remove(path[k])
            played.insert(0, path[k])

    @precondition(lambda self: bool(self.tree))
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(self.paths()), label="node")
        branch = next((k for k in range(len(path), 0, -1) if self.tree[path[: k - 1]][0] != path[k - 1]), None)
        cut = path[:branch] if branch is not None else ()
        gone = [self.number(p) for p in self.paths() if branch is not None and p[:branch] == cut]
        refusal = variation_action(self.session, "variation_delete", self.number(path))
        assert (refusal is not None) == (branch is None)
        if branch is None:
            return
        self.tree[cut[:-1]].remove(cut[-1])
        for key in [key for key in self.tree if key[:branch] == cut]:
            del self.tree[key]
        if tuple(self.line[:branch]) == cut:
            self.line = self.continuation(list(cut[:-1]))
            self.ply = min(self.ply, branch - 1)
        self.removed += gone
        self.advance()

    @precondition(lambda self: bool(self.removed))
    @rule(data=st.data(), kind=st.sampled_from(["variation_jump", "variation_promote", "variation_delete"]))
    def act_on_a_deleted_node(self, data: st.DataObject, kind: str) -> None:
        number = data.draw(st.sampled_from(self.removed), label="deleted node")
        before = self.shape()
        refusal = variation_action(self.session, kind, number)
        assert refusal is not None and refusal.error is VariationError
        assert self.shape() == before

    # -- the checks -------------------------------------------------------------------------

    def shape(self) -> tuple[object, ...]:
        session = self.session
        tree = [(tuple(names(n.line())), [str(v.move) for v in n.variations], n.number) for n in session.tree.nodes()]
        return tree, names(session.line), session.board.ply, names(session.tree.moves)

    @invariant()
    def the_tree_is_the_model(self) -> None:
        if not hasattr(self, "session"):
            return
        session = self.session
        for node in session.tree.nodes():
            assert [v.move for v in node.variations] == self.tree.get(tuple(node.line()), [])
        assert sum(len(moves) for moves in self.tree.values()) == len(list(session.tree.nodes())) - 1
        assert session.line == self.line and session.board.ply == self.ply
        assert session.board.move_stack == self.line[: self.ply]
        assert session.tree.moves == self.continuation([])  # the record's moves are the main line
        assert [n.move for n in line_nodes(session)[1:]] == self.line


TestVariationMachine = VariationMachine.TestCase
TestVariationMachine.settings = settings(
    max_examples=60, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_a_game_node_names_itself() -> None:
    game = Game.from_transcript("f5d6")
    assert repr(game.tree) == "<GameNode 0 at ply 0: the start>"
    assert isinstance(game.node_at(["f5"]), GameNode) and "f5 d6" in repr(game.node_at(["f5", "d6"]))
