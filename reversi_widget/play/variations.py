"""Variations in the widget: every line played stays in the session's tree (``Session.tree``).

A move played in the middle of the line shown goes into a variation and what followed it is
kept (``Session.push``). The views name a node by its number (``GameNode.number``, never
given twice in a game), so a message about a node that was deleted meanwhile is refused,
not applied to another. The move list shows the line shown with, after each of its moves,
the other moves played there, each with its own main continuation (js/PROTOCOL.md,
``variations``); a click on one jumps into it, and the line shown can be made the main line
or, when it is a variation, deleted.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..errors import VariationError
from ..game import Game, GameNode
from .session import Session
from .texts import Plain, Refusal, Renders, Text, quote_input

__all__ = ["VARIATION_INTENTS", "line_nodes", "record", "variation_action", "variations_picture"]

#: The intents about a node of the tree: each names it by ``node``, its number.
VARIATION_INTENTS = ("variation_jump", "variation_promote", "variation_delete")


def variation_action(session: Session, kind: str, number: int | None = None) -> Refusal | None:
    """Jump into, promote or delete (``kind``, one of ``VARIATION_INTENTS``) the line through
    the node ``number`` (None: where the line shown ends); a node the tree does not have is
    refused and nothing changes."""
    if session.editor is not None:
        return Refusal(Text("notice_refused_editing"))
    if number is None:
        node = line_nodes(session)[-1]
    else:
        try:
            node = session.tree.find(number)
        except VariationError:
            return Refusal(Text("notice_refused_variation_node", got=quote_input(number)), VariationError)
    return _ACTIONS[kind](session, node)


def line_nodes(session: Session) -> list[GameNode]:
    """The nodes of the line shown, from the start (the tree's root) to its end."""
    nodes = [session.tree.tree]
    for move in session.line:
        nodes.append(next(child for child in nodes[-1].variations if child.move == move))
    return nodes


def _jump(session: Session, node: GameNode) -> Refusal | None:
    """Show the position at ``node``; its line, with its main continuation, becomes the line shown."""
    line = node.line()
    session.show_line([*line, *node.mainline_moves()], len(line))
    return None


def _promote(session: Session, node: GameNode) -> Refusal | None:
    """The line through ``node`` becomes the main line; the former main line stays, as a variation."""
    if node.is_mainline():
        return Refusal(Text("notice_refused_variation_promote", line=_label(node)), VariationError)
    while node.parent is not None:
        node.parent.promote_to_main(node)
        node = node.parent
    return None


def _delete(session: Session, node: GameNode) -> Refusal | None:
    """Delete the variation that holds ``node`` (the innermost one), from where it branches
    off; if it was the line shown, the main continuation there becomes the line shown, and
    a position inside the deleted variation gives way to the one it branched from."""
    branch = node
    while branch.parent is not None and branch.is_main_variation():
        branch = branch.parent
    parent = branch.parent
    if parent is None:
        return Refusal(Text("notice_refused_variation_main", line=_label(node)), VariationError)
    shown = session.line[: branch.ply()] == branch.line()
    parent.remove_variation(branch)
    if shown:
        line = parent.line()
        session.show_line([*line, *parent.mainline_moves()], min(session.board.ply, len(line)))
    return None


_ACTIONS: dict[str, Callable[[Session, GameNode], Refusal | None]] = {
    "variation_jump": _jump,
    "variation_promote": _promote,
    "variation_delete": _delete,
}


def _label(node: GameNode) -> Renders:
    """ "f5 d6 c3": a line as messages name it (its last moves only, when long)."""
    moves = [str(move) for move in node.line()]
    if not moves:
        return Text("variation_start")
    return Plain(" ".join(moves) if len(moves) <= 8 else "… " + " ".join(moves[-8:]))


def variations_picture(session: Session) -> dict[str, object]:
    """The ``variations`` trait: the line shown's nodes, whether it is the main line, and
    the other moves played after each of its positions (js/PROTOCOL.md)."""
    nodes = line_nodes(session)
    branches: list[dict[str, object]] = []
    for ply, (parent, node) in enumerate(itertools.pairwise(nodes), 1):
        for other in parent.variations:
            if other is not node:
                moves = [other, *other.mainline()]
                branches.append(
                    {
                        "ply": ply,
                        "main": other.is_mainline(),
                        "moves": [str(n.move) for n in moves],
                        "nodes": [n.number for n in moves],
                    }
                )
    return {
        "main": nodes[-1].is_mainline(),
        "nodes": [node.number for node in nodes[1:]],
        "branches": branches,
    }


def record(session: Session, **meta: object) -> Game:
    """The line shown as a game record, its main line, with every other line of the tree
    kept as a variation, in the tree's order."""
    game = Game.from_board(session.whole_line(), **meta)
    pending = [(session.tree.tree, game.tree)]
    while pending:
        source, target = pending.pop()
        for child in source.variations:
            if child.move is not None:
                pending.append((child, target.add_variation(child.move)))
    return game
