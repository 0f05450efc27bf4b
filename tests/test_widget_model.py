"""ReversiWidget without a browser or kernel: the front end is simulated by calling the
message handlers directly, and what Python sends is captured from the widget's comm.

Here: accepted intents and the Python methods, front-end writes to synced traits,
loading, settings and annotations, and recording finished games. Refused intents are in
test_intents.py, computer players in test_widget_computers.py, the aids in
test_widget_aids.py, languages and "show me" in test_widget_language.py; the session
below them all is tested without anywidget in test_session.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
import traitlets

from reversi_widget import BLACK, Board, IllegalMoveError, InvalidMoveError, InvalidPositionError, Move, Rules
from reversi_widget.game import Game
from reversi_widget.players import (
    GreedyPlayer,
    UnknownPlayerError,
)
from reversi_widget.widget import (
    ASSETS,
    SETTINGS,
    InvalidAnnotationError,
    NavigationError,
    ReversiWidget,
)
from tests.support import (
    END_33_29,
    FULL_DRAW,
    PASS_LINE,
    WIPE_OUT,
    click,
    send,
    snapshot,
    widget,
)

# -- accepted intents -------------------------------------------------------------------------


def test_a_legal_click_plays_and_updates_every_trait() -> None:
    w, sent = widget()
    click(w, "a1")  # a notice to be cleared by the next good move
    sent.clear()
    click(w, "d3")
    expected = Board()
    expected.push("d3")
    assert w.board == expected and w.board.move_stack == expected.move_stack
    n = expected.size
    black, white = expected.bitboards()
    discs = "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(n * n))
    legal = {str(m): [f"{'abcdefgh'[s % 8]}{s // 8 + 1}" for s in expected.flips(m)] for m in expected.legal_moves}
    picture = {
        "discs": discs,
        "turn": "white",
        "ply": 1,
        "legal": legal,
        "last_move": "d3",
        "last_flips": ["d4"],
        "counts": {"black": 4, "white": 1},
        "status": "White to move",
        "moves": ["d3"],
        "can_undo": True,
        "can_redo": False,
        "game_over": False,
        "result": "",
        "notice": "",
    }
    assert {k: getattr(w, k) for k in picture} == picture
    assert legal == {"c3": ["d4"], "e3": ["e4"], "c5": ["d5"]}
    # The views got one batched update with the new picture, and nothing was refused.
    updates = [m for m in sent.messages if m.get("method") == "update"]
    assert len(updates) == 1
    assert {k: v for k, v in updates[0]["state"].items() if k in picture} == {
        k: v for k, v in picture.items() if k in updates[0]["state"]
    }
    assert {"discs", "turn", "ply", "legal", "moves"} <= set(updates[0]["state"])
    assert sent.custom() == []


def test_a_forced_pass_is_played_with_a_notice() -> None:
    w, _ = widget(board=PASS_LINE)
    mover = "black" if w.board.turn == BLACK else "white"
    other = "white" if mover == "black" else "black"
    after = w.board
    after.push("f2")
    assert after.must_pass() and not after.is_game_over()  # the premise of this test
    notice_id = w.notice_id
    click(w, "f2")
    assert w.moves[-2:] == ["f2", "pass"] and w.last_move == "pass"
    assert w.turn == mover and w.ply == after.ply + 1
    assert w.notice_kind == "pass" and w.notice_id == notice_id + 1
    assert w.notice == f"{other.title()} has no legal move and passes; {mover.title()} moves again"
    # Undo skips the forced pass: back to the position before f2.
    w.undo()
    assert w.ply == after.ply - 1 and w.turn == mover
    w.redo()
    assert w.ply == after.ply + 1 and w.moves[-1] == "pass"


@pytest.mark.parametrize(
    ("position", "goal", "scoring", "banner"),
    [
        (END_33_29, "classic", "count", "Black wins: Black 33, White 29"),
        (
            END_33_29,
            "classic",
            "tournament",
            "Black wins: Black 35, White 29 (tournament scoring: 2 empty squares to the winner)",
        ),
        (END_33_29, "inverted", "count", "White wins: Black 33, White 29 (inverted goal: fewer discs win)"),
        (
            END_33_29,
            "inverted",
            "tournament",
            "White wins: Black 35, White 29 "
            "(inverted goal: fewer discs win; tournament scoring: 2 empty squares to the loser)",
        ),
        (FULL_DRAW, "classic", "tournament", "Draw: Black 32, White 32"),
        (FULL_DRAW, "inverted", "count", "Draw: Black 32, White 32 (inverted goal: fewer discs win)"),
    ],
)
def test_game_over_banner(position: str, goal: str, scoring: str, banner: str) -> None:
    board = Board(position, rules=Rules(goal=goal, scoring=scoring))
    assert board.is_game_over()
    w, _ = widget(board=board)
    assert w.game_over and w.result == banner
    assert w.turn == "" and w.legal == {}
    assert w.status.startswith("Game over (") and w.status.endswith(f"). {banner}")


def test_game_over_by_a_move_fires_callbacks_and_banner() -> None:
    w, _ = widget(board=Board(WIPE_OUT, rules=Rules(scoring="tournament")))
    moves: list[tuple[ReversiWidget, Move]] = []
    outcomes: list[Any] = []
    w.on_move(lambda widget, move: moves.append((widget, move)))
    w.on_game_over(lambda widget, outcome: outcomes.append(outcome))
    click(w, "c1")
    assert moves == [(w, Move.from_name("c1"))]
    assert len(outcomes) == 1 and outcomes[0].winner == BLACK
    assert (outcomes[0].black, outcomes[0].white) == (64, 0)
    assert w.result == "Black wins: Black 64, White 0 (tournament scoring: 61 empty squares to the winner)"
    assert w.status == f"Game over (one colour has no discs left). {w.result}"


def test_undo_redo_jump_and_new_game_intents() -> None:
    w, _ = widget()
    for square in ("d3", "c5", "e6"):
        click(w, square)
    assert w.moves == ["d3", "c5", "e6"] and w.ply == 3
    send(w, {"kind": "undo", "ply": 3})
    assert w.ply == 2 and w.moves == ["d3", "c5", "e6"] and w.can_redo
    assert w.board == Board.from_transcript("d3c5")
    send(w, {"kind": "redo", "ply": 2})
    assert w.ply == 3 and not w.can_redo
    send(w, {"kind": "jump", "to": 1, "ply": 3})
    assert w.ply == 1 and w.board == Board.from_transcript("d3") and w.last_move == "d3"
    assert w.turn == "white" and "c5" in w.legal
    send(w, {"kind": "jump", "to": 0, "ply": 1})
    assert w.ply == 0 and w.last_move == "" and w.can_redo and not w.can_undo
    send(w, {"kind": "jump", "to": 1, "ply": 0})
    click(w, "e3")  # a new move in the middle of the line replaces the rest
    assert w.moves == ["d3", "e3"] and not w.can_redo
    send(w, {"kind": "new_game", "ply": 2})
    assert w.ply == 0 and w.moves == [] and w.board == Board()


def test_python_api_play_pass_undo_redo_jump() -> None:
    w, _ = widget()
    w.play("f5")
    w.play(Move.from_name("d6"))
    assert w.moves == ["f5", "d6"]
    before = snapshot(w)
    with pytest.raises(IllegalMoveError, match="a1: no white disc is flanked"):
        w.play("a1")
    with pytest.raises(InvalidMoveError, match="'z9' is not a square name"):
        w.play("z9")
    with pytest.raises(IllegalMoveError, match="may not pass"):
        w.pass_turn()
    with pytest.raises(NavigationError, match="jump to ply 5 is outside the line, which ends at ply 2"):
        w.jump(5)
    with pytest.raises(NavigationError, match="expected a ply from 0 to 2"):
        w.jump(True)
    assert snapshot(w) == before
    w.undo()
    w.undo()
    with pytest.raises(NavigationError, match="no move to undo"):
        w.undo()
    w.redo()
    assert w.ply == 1
    w.jump(2)
    with pytest.raises(NavigationError, match="no move to redo"):
        w.redo()
    assert isinstance(NavigationError("x"), IndexError) and isinstance(NavigationError("x"), ValueError)


def test_board_property_is_a_copy() -> None:
    w, _ = widget()
    b = w.board
    b.push("d3")
    assert w.ply == 0 and w.board == Board()
    w.board = b  # assigning loads it
    assert w.ply == 1 and w.moves == ["d3"]


# -- writes from the front end to synced traits ----------------------------------------------


def test_front_end_writes_to_read_only_traits_are_reverted() -> None:
    w, sent = widget()
    click(w, "d3")
    sent.clear()
    before = snapshot(w)
    bogus = {
        "discs": "X" * 64,
        "ply": 9,
        "legal": {"a1": []},
        "game_over": True,
        "moves": ["a1"],
        "fill": {"a1": "red"},
    }
    w.set_state(bogus)
    assert snapshot(w) == before
    assert w.notice_kind == "error" and "may not change" in w.notice
    for name in bogus:
        assert name in w.notice
    # The writer's view is given Python's values back.
    state = sent.updates()
    for name in bogus:
        assert state[name] == getattr(w, name)


def test_a_read_only_write_through_the_comm_message_is_reverted() -> None:
    w, sent = widget()
    before = snapshot(w)
    w._handle_msg({"content": {"data": {"method": "update", "state": {"turn": "white"}}}, "buffers": []})
    assert snapshot(w) == before and "turn" in w.notice
    assert sent.updates()["turn"] == "black"


def test_front_end_settings_are_accepted_when_valid() -> None:
    w, _ = widget()
    w.set_state({"show_legal": False, "animation": "fast", "theme": "dark", "size": 360, "show_coordinates": False})
    assert (w.show_legal, w.animation, w.theme, w.size, w.show_coordinates) == (False, "fast", "dark", 360, False)
    assert w.notice == ""
    w.set_state({"size": None, "show_flips": False})
    assert w.size is None and not w.show_flips
    assert set(SETTINGS) == {
        "show_legal",
        "show_flips",
        "show_coordinates",
        "show_me",
        "practice",
        "show_scores",
        "live_evaluation",
        "show_explorer",
        "concept",
        "animation",
        "theme",
        "size",
        "shown",
    }


@pytest.mark.parametrize(
    "state",
    [{"animation": "warp"}, {"theme": "neon"}, {"show_legal": 1}, {"size": True}, {"size": 5}, {"size": "big"}],
)
def test_front_end_settings_are_refused_when_invalid(state: dict[str, Any]) -> None:
    w, sent = widget()
    before = snapshot(w)
    w.set_state(state)
    assert snapshot(w) == before
    (name,) = state
    assert w.notice_kind == "error" and f"Refused setting {name}" in w.notice
    assert sent.updates()[name] == getattr(w, name)


def test_python_cannot_write_the_picture_traits() -> None:
    w, _ = widget()
    with pytest.raises(traitlets.TraitError, match="written by the widget"):
        w.discs = "X" * 64
    with pytest.raises(traitlets.TraitError, match="written by the widget"):
        w.ply = 3
    assert w.discs == snapshot(ReversiWidget())["discs"] and w.ply == 0


# -- loading ----------------------------------------------------------------------------------


def test_load_from_board_transcript_game_and_position() -> None:
    w, _ = widget()
    board = Board.from_transcript("f5d6c3")
    w.load(board)
    assert w.moves == ["f5", "d6", "c3"] and w.ply == 3 and w.board == board
    w.undo()
    assert w.board == Board.from_transcript("f5d6")
    w.load("f5f6e6")
    assert w.moves == ["f5", "f6", "e6"]
    game = Game.from_transcript("c2b2b3", rules=Rules(size=6))
    w.load(game)
    assert w.board_size == 6 and len(w.discs) == 36 and w.moves == ["c2", "b2", "b3"]
    assert w.rules == Rules(size=6)
    w.new_game()
    assert w.board == Board(rules=Rules(size=6))
    w.load(Board().to_string().replace("-", "X", 1))
    assert w.board_size == 8 and w.discs.startswith("X") and w.moves == []


def test_load_refuses_junk_and_changes_nothing() -> None:
    w, _ = widget()
    w.play("d3")
    before = snapshot(w)
    with pytest.raises(InvalidPositionError, match=r"as a transcript .* or as a position"):
        w.load("hello world")
    with pytest.raises(IllegalMoveError, match="transcript move 1"):
        w.load("a1")
    with pytest.raises(InvalidPositionError, match="expected a Board, a Game"):
        w.load(42)  # type: ignore[arg-type]
    assert snapshot(w) == before


def test_load_reads_a_real_ggf_record() -> None:
    from reversi_widget import ggf

    game = Game.from_transcript("f5d6c3d3c4")
    w, _ = widget()
    w.load(ggf.write_ggf(game))
    assert w.moves == ["f5", "d6", "c3", "d3", "c4"] and w.board == game.board()


# -- settings, rules and annotations ----------------------------------------------------------


def test_every_setting_is_a_trait_and_the_assets_exist() -> None:
    w = ReversiWidget(
        show_legal=False, show_flips=False, show_coordinates=False, animation="off", theme="dark", size=300
    )
    assert (w.show_legal, w.show_flips, w.show_coordinates, w.animation, w.theme, w.size) == (
        False,
        False,
        False,
        "off",
        "dark",
        300,
    )
    assert (ASSETS / "widget.js").is_file() and (ASSETS / "widget.css").is_file()
    state = w.get_state()
    assert state["_esm"] == (ASSETS / "widget.js").read_text()
    assert state["_css"] == (ASSETS / "widget.css").read_text()
    assert set(w.strings) >= {"undo", "redo", "new_game", "pass", "black", "white"}
    with pytest.raises(traitlets.TraitError):
        ReversiWidget(animation="warp")
    with pytest.raises(UnknownPlayerError, match="unknown player 'grandmaster'"):
        ReversiWidget(white="grandmaster")


def test_rules_variants() -> None:
    w, _ = widget(rules=Rules(size=6))
    assert w.board_size == 6 and len(w.discs) == 36
    w.rules = Rules(start="free")  # a new game under the new rules
    assert w.board_size == 8 and w.legal == {"d4": [], "e4": [], "d5": [], "e5": []}
    assert w.status == "Black to place a centre disc (free start)"
    w.rules = Rules(supply=32)
    assert w.supply == {"black": 30, "white": 30}
    click(w, "d3")
    assert w.supply == {"black": 29, "white": 30}
    with pytest.raises(InvalidPositionError, match="rules= says"):
        ReversiWidget(Board(), rules=Rules(size=6))


def test_annotations_are_checked_and_cleared_with_a_new_size() -> None:
    w, _ = widget(fill={"d3": "#ff0"}, marks={"c4": 4, "f5": "+2"}, arrows=[("d3", "e4")])
    assert w.fill == {"d3": "#ff0"} and w.marks == {"c4": "4", "f5": "+2"} and w.arrows == [["d3", "e4"]]
    with pytest.raises(InvalidAnnotationError, match="off a 8x8 board"):
        w.fill = {"i9": "red"}
    with pytest.raises(InvalidAnnotationError, match="pair of squares"):
        w.arrows = [["d3"]]
    with pytest.raises(InvalidAnnotationError, match="longer than"):
        w.marks = {"d3": "x" * 50}
    assert w.fill == {"d3": "#ff0"}
    w.new_game(Rules(size=6))
    assert (w.fill, w.marks, w.arrows) == ({}, {}, [])


# -- recording finished games (R25) ------------------------------------------------------------


def test_a_finished_game_is_recorded_once_in_the_log(tmp_path: Path) -> None:
    from reversi_widget.records import GameLog

    log = GameLog(tmp_path / "games.db")
    w = ReversiWidget(rules=Rules(size=4), black=GreedyPlayer(seed=1), white=GreedyPlayer(seed=2), log=log)
    w.wait(30)
    board = w.board
    assert board.is_game_over() and w.game_over
    games = log.games()
    assert len(games) == 1
    assert games[0].transcript(passes=True) == board.transcript(passes=True)
    assert games[0].rules == Rules(size=4)
    outcome = board.outcome()
    assert outcome is not None and games[0].result == (outcome.black, outcome.white)
    # Going back into the game and forward to the same end records nothing new.
    w.pause()
    w.undo()
    w.redo()
    assert len(log) == 1
    log.close()


def test_wait_returns_after_the_callbacks_a_move_made_due() -> None:
    finished = threading.Event()
    inner_waits: list[tuple[bool, float]] = []

    def slow_callback(widget: ReversiWidget, outcome: object) -> None:
        started = time.monotonic()
        inner_waits.append((widget.wait(5), time.monotonic() - started))  # its own thread: no deadlock
        time.sleep(0.3)
        finished.set()

    w = ReversiWidget(rules=Rules(size=4), black=GreedyPlayer(seed=1), white=GreedyPlayer(seed=2), paused=True)
    w.on_game_over(slow_callback)
    w.resume()
    assert w.wait(30)
    assert finished.is_set(), "wait() returned before the game-over callback had run"
    assert inner_waits and inner_waits[0][0] and inner_waits[0][1] < 2


def test_log_must_be_a_game_log() -> None:
    with pytest.raises(TypeError, match="GameLog"):
        ReversiWidget(log="games.db")  # type: ignore[arg-type]


@pytest.mark.parametrize("state", [{"board_size": 6}, {"discs": "X" * 64, "turn": "white"}, {"ply": 3}])
def test_the_games_state_is_not_taken_as_an_argument(state: dict[str, Any]) -> None:
    """``ReversiWidget(board_size=6)`` used to give an 8x8 board without a word: the state a
    picture is drawn from comes from the board, so naming it is refused, and says how."""
    with pytest.raises(TypeError, match=f"takes no {sorted(state)[0]}.*rules=Rules"):
        ReversiWidget(**state)
    assert ReversiWidget(rules=Rules(size=6), paused=True).board_size == 6  # the way to say it
