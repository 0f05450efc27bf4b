"""Front-end messages: a hypothesis state machine throws random and malformed messages at
``ReversiWidget`` (intents, trait writes, raw comm envelopes, floods while a computer
thinks) and checks each answer against a model of the game kept in the test.

The model is a reference ``Board`` and line to which the test pushes only what it has seen
Python accept, with the rules of js/PROTOCOL.md for what should be accepted. After every
step: the widget's game equals the model, the line replays legally from the start, every
synced trait the views hold equals Python's, a refused message was answered (a new error
notice and a ``refused`` message with a short reason), and nothing escaped or was swallowed
by a handler. The computer player is a puppet whose ``choose`` blocks until a rule
releases it, so "thinking" lasts as long as the test wants and stale moves can be provoked.

Size (see conftest.py): rounds of the machine run until 10,000 messages were sent in the
full form (1,000 in the short form); hypothesis chooses how long each run is.

Two bugs of widget.py that the machine steers around (it keeps its numbers small, and writes
only trait names the widget has) have their own tests at the end, xfail until fixed.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from reversi_widget import BLACK, WHITE, Board, Move, ReversiError, Rules
from reversi_widget.play.texts import Refusal
from reversi_widget.squares import parse_square, square_name
from reversi_widget.widget import INTENTS, SETTINGS, TIMELESS_INTENTS, ReversiWidget
from tests.support import NOTICE_TRAITS, Capture, send

#: How long any single wait may take before the test calls it a hang.
WAIT = 10.0
#: A refused intent's notice kind: an error, or (an illegal move) the rules' explanation.
REFUSAL_KINDS = ("error", "explain")
#: A refusal quotes the bad input only in part (an intent is at most 256 characters and
#: items, quoted through reprlib): a notice is never longer than this.
MAX_NOTICE = 1_000
#: The settings this model understands (others that the widget may add are not written).
MODELLED_SETTINGS = tuple(
    name for name in ("show_legal", "show_flips", "show_coordinates", "animation", "theme", "size") if name in SETTINGS
)
ANIMATIONS = ("off", "slow", "normal", "fast")
THEMES = ("auto", "light", "dark", "high-contrast")
MIN_PIXELS, MAX_PIXELS = 120, 4000
#: Traits besides the settings that a front end might try to write.
OTHER_TRAITS = ("fill", "marks", "arrows", "language", "layout", "_esm", "_css", "tabbable", "tooltip", "_dom_classes")
#: Intents whose meaning this model knows; others (e.g. practice mode's) must be refused while
#: their mode is off, which it always is here.
MODELLED_INTENTS = ("move", "pass", "undo", "redo", "new_game", "jump", "pause", "resume")
#: Intents that start an analysis in a thread: its notice, arriving at any moment, would
#: race this model's count of notices, so they are only ever sent stale here (and refused);
#: tests/test_widget_aids.py tests them.
ANALYSIS_INTENTS = ("hint", "review")
#: A message whose size (characters plus items) lies between these is not judged on size.
SMALL_MESSAGE, BIG_MESSAGE = 150, 1_000

MESSAGES = {"sent": 0, "refused": 0, "accepted": 0, "flood": 0, "state_writes": 0, "stale_released": 0}


# -- the puppet computer player ---------------------------------------------------------


@dataclass
class Call:
    """One ``choose`` call: the position it was asked about, and what the test answers."""

    board: Board
    thread: threading.Thread
    release: threading.Event = field(default_factory=threading.Event)
    answer: object = None  # a Move or name to return, or an exception to raise


class Puppet:
    """A computer player that thinks until the test releases it with an answer."""

    name = "puppet"

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._arrived = threading.Condition()
        self.closing = threading.Event()  # set when the example ends: answer at once

    def choose(self, board: Board) -> Move:
        if self.closing.is_set():
            raise RuntimeError("the example is over")
        call = Call(board.copy(), threading.current_thread())
        with self._arrived:
            self.calls.append(call)
            self._arrived.notify_all()
        if not call.release.wait(60):
            raise TimeoutError("the puppet was never released")
        if isinstance(call.answer, BaseException):
            raise call.answer
        return call.answer  # type: ignore[return-value]

    def wait_for_calls(self, count: int) -> bool:
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.calls) >= count, WAIT)

    def release_all(self) -> None:
        self.closing.set()
        with self._arrived:
            for call in self.calls:
                if not call.release.is_set():
                    call.answer = RuntimeError("released when the example ended")
                    call.release.set()


# -- values a hostile front end might send ------------------------------------------------

ALL_SQUARES = [square_name(sq, n) for n in range(4, 17, 2) for sq in range(n * n)]
ODD_SQUARES = [
    *("z9", "", " ", "pass", "pa", "D3", " d3", "d3 ", "d3\n", "d0", "a-1", "a01", "h8", "p16", "q1", "a17", "i1"),
    *("١", "d３", "\u202ed3", "\x00", "d3\x00", "\ud800", "<b>d3</b>", "'; DROP TABLE games; --", "d3d4", "3d"),
]
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=24,
)
HUGE_STRINGS = st.one_of(
    st.integers(300, 4_000).map(lambda n: "x" * n),
    st.integers(150, 60_000).map(lambda n: "d3" * n),
    st.text(min_size=300, max_size=1_500),
)
SQUARE_VALUES = st.one_of(
    st.sampled_from(ALL_SQUARES),
    st.sampled_from(ODD_SQUARES),
    st.text(max_size=6),
    HUGE_STRINGS,
    JSON_VALUES,
)
KINDS = st.one_of(
    # "edit" opens the position editor, a mode of its own: tests/test_widget_puzzles.py tests it
    st.sampled_from([kind for kind in INTENTS if kind != "edit"]),
    st.sampled_from(["resign", "MOVE", "Move", "", "move ", "undo\x00", "__proto__", "constructor"]),
    JSON_VALUES,
    HUGE_STRINGS,
)
SETTING_VALUES = st.one_of(
    st.booleans(),
    st.sampled_from([*ANIMATIONS, *THEMES, "warp", "neon", "", "DARK", None]),
    st.integers(-10, 5_000),
    st.sampled_from([MIN_PIXELS, MAX_PIXELS, MIN_PIXELS - 1, MAX_PIXELS + 1, 0, 1, 360.0, 360.5]),
    st.floats(-1e9, 1e9) | st.sampled_from([float("nan"), float("inf"), float("-inf")]),
    st.text(max_size=20),
    st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=2), max_leaves=3),
)
SMALL_BUFFERS = st.lists(st.binary(max_size=16), min_size=1, max_size=3)


def payload_size(value: object) -> int:
    """Characters plus items of a decoded JSON value (the measure js/PROTOCOL.md caps)."""
    size, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, dict):
            size += len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            size += len(item)
            stack.extend(item)
        else:
            size += 1
        if size > BIG_MESSAGE:
            break
    return size


def valid_setting(name: str, value: object) -> bool | None:
    """Whether a front end may write ``value`` to setting ``name``; None when either answer is fine."""
    if name.startswith("show_"):
        return isinstance(value, bool)
    if name == "animation":
        return isinstance(value, str) and value in ANIMATIONS
    if name == "theme":
        return isinstance(value, str) and value in THEMES
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        whole = value == value and value not in (float("inf"), float("-inf")) and value == int(value)
        return None if whole and MIN_PIXELS <= value <= MAX_PIXELS else False
    return isinstance(value, int) and MIN_PIXELS <= value <= MAX_PIXELS


def plain(value: object) -> object:
    """A trait value as JSON would carry it (tuples become lists)."""
    return json.loads(json.dumps(value, default=str))


class ErrorLog(logging.Handler):
    """Collects errors a widget logs (a handler that swallows an exception logs it)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


# -- the model and the machine ------------------------------------------------------------


class WidgetMessages(RuleBasedStateMachine):
    """One widget, one puppet, and a model of the game they should be playing."""

    def __init__(self) -> None:
        super().__init__()
        self.w: ReversiWidget | None = None
        self.puppet = Puppet()

    # -- set-up and tear-down -------------------------------------------------------------

    @initialize(
        size=st.sampled_from([4, 6, 8]),
        black_computer=st.booleans(),
        white_computer=st.booleans(),
        paused=st.booleans(),
    )
    def start(self, size: int, black_computer: bool, white_computer: bool, paused: bool) -> None:
        self.game_rules = Rules(size=size)
        self.computer = {BLACK: black_computer, WHITE: white_computer}
        self.paused = paused
        self.line: list[Move] = []
        self.tree: dict[tuple[Move, ...], list[Move]] = {}  # every line played: a position's moves, main first
        self.ref = Board(rules=self.game_rules)
        self.pending: Call | None = None  # the computer's call the widget waits for
        self.stale: list[Call] = []  # calls the widget no longer waits for, to be answered
        self.think_expected = False
        self.calls_seen = 0
        self.errors: list[BaseException] = []
        self.log = ErrorLog()
        self.w = ReversiWidget(
            rules=self.game_rules,
            black=self.puppet if black_computer else "human",
            white=self.puppet if white_computer else "human",
            paused=paused,
            animation="off",
        )
        self.sent = Capture(self.w)
        self.read = 0  # messages of self.sent already folded into self.front
        self.front: dict[str, Any] = plain(self.w.get_state())  # type: ignore[assignment]
        self.w.log.addHandler(self.log)
        self._spy_on_intents()
        self._advance()
        self._settle()

    def _spy_on_intents(self) -> None:
        """Record any exception the intent handler turns into an 'internal error' refusal."""
        w = self.w
        assert w is not None
        apply: Callable[[object, object], Refusal | None] = w._apply_intent

        def spied(content: object, buffers: object) -> Refusal | None:
            try:
                return apply(content, buffers)
            except Exception as error:
                self.errors.append(error)
                raise

        w._apply_intent = spied  # type: ignore[method-assign]

    def teardown(self) -> None:
        if self.w is None:
            return
        self.puppet.release_all()
        for thread in threading.enumerate():
            if thread.name == "reversi-puppet":
                thread.join(WAIT)
                assert not thread.is_alive(), "a computer's thread did not finish"
        self.w.log.removeHandler(self.log)
        self.w.close()

    # -- the model ------------------------------------------------------------------------

    @property
    def widget(self) -> ReversiWidget:
        assert self.w is not None
        return self.w

    def _position(self, ply: int) -> Board:
        board = Board(rules=self.game_rules)
        for move in self.line[:ply]:
            board.push(move)
        return board

    def _human_turn(self, board: Board) -> bool:
        return not self.computer[board.turn] and not board.must_pass() and not board.is_game_over()

    def _humans(self) -> bool:
        return not (self.computer[BLACK] and self.computer[WHITE])

    def _undo_target(self) -> int | None:
        """js/PROTOCOL.md: back to the last position where a human has a decision (one
        move when both players are computers)."""
        ply = self.ref.ply
        if ply == 0:
            return None
        if not self._humans():
            return ply - 1
        for target in range(ply - 1, -1, -1):
            if self._human_turn(self._position(target)):
                return target
        return None

    def _redo_target(self) -> int | None:
        ply = self.ref.ply
        if ply >= len(self.line):
            return None
        if not self._humans():
            return ply + 1
        for target in range(ply + 1, len(self.line) + 1):
            board = self._position(target)
            if target == len(self.line) or self._human_turn(board) or board.is_game_over():
                return target
        return None

    def _invalidate(self) -> None:
        """The position changed: a computer's call in progress is now stale."""
        if self.pending is not None:
            self.stale.append(self.pending)
        self.pending = None
        self.think_expected = False

    def _push(self, move: Move) -> None:
        """The next move of the line goes on along it; another one goes into its variation,
        and the line follows that variation's main continuation."""
        self.ref.push(move)
        ply = self.ref.ply - 1
        if self.line[ply : ply + 1] != [move]:
            path = tuple(self.line[:ply])
            played = self.tree.setdefault(path, [])
            if move not in played:
                played.append(move)
            line = [*path, move]
            while self.tree.get(tuple(line)):
                line.append(self.tree[tuple(line)][0])
            self.line = line
        self._invalidate()

    def _goto(self, ply: int) -> None:
        while self.ref.ply > ply:
            self.ref.pop()
        while self.ref.ply < ply:
            self.ref.push(self.line[self.ref.ply])
        self._invalidate()

    def _start(self, board: Board) -> None:
        self.ref = board
        self.line = list(board.move_stack)
        self.tree = {tuple(self.line[:ply]): [move] for ply, move in enumerate(self.line)}
        self._invalidate()
        self._advance()

    def _advance(self) -> None:
        """Forced passes are played; a computer to move at the end of the line starts thinking."""
        board = self.ref
        while board.ply == len(self.line) and not board.is_game_over():
            if board.must_pass():
                self._push(Move.null(board.size))
                continue
            if self.computer[board.turn] and not self.paused and self.pending is None:
                self.think_expected = True
            break

    def _settle(self) -> None:
        """After an operation: answer the calls it made stale (their answers must change
        nothing, not even pause the game when the answer is a failure), then match a think
        the model expects with the puppet's new call.

        Stale calls are answered at once rather than at a random later step: the widget may
        let one player object think about one position at a time, so a stale call left
        waiting could hold up the next one. tests/stress/test_concurrency.py answers them
        at random moments instead."""
        w = self.widget
        if self.stale:
            before = (w.board.to_string(), [str(m) for m in w.line], w.paused, w.notice_id, w.thinking)
            for call in self.stale:
                legal = list(call.board.legal_moves)
                MESSAGES["stale_released"] += 1
                call.answer = (
                    legal[0] if legal and MESSAGES["stale_released"] % 3 else RuntimeError("stale and failing")
                )
                call.release.set()
                call.thread.join(WAIT)
                assert not call.thread.is_alive(), "a stale computer's move never finished (deadlock?)"
            after = (w.board.to_string(), [str(m) for m in w.line], w.paused, w.notice_id, w.thinking)
            assert after == before, "a stale answer changed the game"
            self.stale.clear()
        if self.think_expected:
            assert self.puppet.wait_for_calls(self.calls_seen + 1), "the computer was never asked to move"
            call = self.puppet.calls[self.calls_seen]
            self.calls_seen += 1
            assert call.board == self.ref and call.board.move_stack == self.ref.move_stack
            self.pending, self.think_expected = call, False
        assert len(self.puppet.calls) == self.calls_seen, "the computer was asked to move when it should not be"

    def _legal_picture(self) -> dict[str, list[str]]:
        board = self.ref
        if self.computer[board.turn] or board.is_game_over():
            return {}
        n = board.size
        return {str(m): [square_name(sq, n) for sq in board.flips(m)] for m in board.legal_moves}

    def _fold_messages(self) -> list[dict[str, Any]]:
        """Apply what Python sent since the last step to the views' copy; return custom messages."""
        custom = []
        messages = self.sent.messages
        for message in messages[self.read :]:
            if message.get("method") in ("update", "echo_update"):
                state = plain(message["state"])
                assert isinstance(state, dict)
                self.front.update(state)
            elif message.get("method") == "custom":
                custom.append(message["content"])
        self.read = len(messages)
        return custom

    # -- checks ---------------------------------------------------------------------------

    @invariant()
    def the_widget_plays_the_models_game(self) -> None:
        if self.w is None:
            return
        w, ref = self.w, self.ref
        assert w.board.to_string() == ref.to_string()
        assert [str(m) for m in w.board.move_stack] == [str(m) for m in ref.move_stack]
        assert [str(m) for m in w.line] == [str(m) for m in self.line]
        replay = Board(rules=self.game_rules)
        for move in self.line:
            replay.push(move)  # the line always replays legally from the start
        assert (w.ply, w.moves, w.game_over) == (ref.ply, [str(m) for m in self.line], ref.is_game_over())
        assert w.thinking == (self.pending is not None)
        assert w.can_undo == (self._undo_target() is not None)
        assert w.can_redo == (self._redo_target() is not None)
        assert w.legal == self._legal_picture()
        assert w.paused == self.paused

    @invariant()
    def the_views_hold_what_python_holds(self) -> None:
        if self.w is None:
            return
        custom = self._fold_messages()
        assert not [c for c in custom if c.get("kind") != "refused"], custom
        state = plain(self.w.get_state())
        assert isinstance(state, dict)
        stale = {k: (self.front.get(k), v) for k, v in state.items() if self.front.get(k) != v}
        assert not stale, stale

    @invariant()
    def nothing_was_swallowed(self) -> None:
        assert not self.errors, self.errors
        if self.w is not None:
            assert not self.log.records, self.log.records

    # -- intents ----------------------------------------------------------------------------

    def _verdict(self, content: object, buffers: list[bytes]) -> tuple[bool | None, Callable[[], None]]:
        """(accept?, what accepting does to the model); accept is None when either is fine."""
        nothing: Callable[[], None] = lambda: None  # noqa: E731
        if not isinstance(content, dict) or buffers:
            return False, nothing
        size = payload_size(content)
        if size >= BIG_MESSAGE:
            return False, nothing
        judged_on_size = size <= SMALL_MESSAGE
        kind = content.get("kind")
        if not isinstance(kind, str) or kind not in INTENTS or kind not in MODELLED_INTENTS:
            return False, nothing
        fields = INTENTS[kind]
        if set(content) != {"kind", *fields} or any(type(content[f]) is not t for f, t in fields.items()):
            return False, nothing
        ref = self.ref
        move: Move | None = None
        if kind == "move":
            square = content["square"]
            try:
                move = Move(parse_square(square, ref.size), ref.size)
            except ReversiError:
                return False, nothing
            if str(move) != square:
                return False, nothing
        if content["ply"] != ref.ply and kind not in TIMELESS_INTENTS:
            return False, nothing
        accept: bool
        effect = nothing
        if kind in TIMELESS_INTENTS:
            pausing = kind == "pause"

            def effect() -> None:
                self.paused = pausing
                if pausing:
                    self._invalidate()  # a pause stops a computer thinking at once; it thinks again on resume
                self._advance()

            return (any(self.computer.values()) if pausing else True), effect
        if kind in ("move", "pass"):
            played = move if move is not None else Move.null(ref.size)
            legal = ref.must_pass() if played.square is None else played in ref.legal_moves
            accept = not self.computer[ref.turn] and not ref.is_game_over() and legal

            def effect() -> None:
                self._push(played)
                self._advance()

        elif kind in ("undo", "redo"):
            target = self._undo_target() if kind == "undo" else self._redo_target()
            accept = target is not None

            def effect() -> None:
                assert target is not None
                self._goto(target)
                self._advance()

        elif kind == "jump":
            to = content["to"]
            accept = 0 <= to <= len(self.line)

            def effect() -> None:
                if to != self.ref.ply:
                    self._goto(to)
                    self._advance()

        else:  # new_game
            accept = True

            def effect() -> None:
                self._start(Board(rules=self.game_rules))

        return (accept if judged_on_size or not accept else None), effect

    def _send_intent(self, content: object, buffers: list[bytes]) -> None:
        w = self.widget
        MESSAGES["sent"] += 1
        accept, effect = self._verdict(content, buffers)
        before_id, before_custom = w.notice_id, len(self.sent.custom())
        before = (w.board.to_string(), list(w.moves), w.ply, w.thinking)
        send(w, content, buffers)
        refusals = self.sent.custom()[before_custom:]
        refused = bool(refusals)
        if accept is not None:
            assert refused != accept, f"expected {'acceptance' if accept else 'a refusal'}; notice {w.notice!r}"
        if refused:
            MESSAGES["refused"] += 1
            assert refusals == [{"kind": "refused", "reason": w.notice}]
            assert w.notice_kind in REFUSAL_KINDS, (w.notice_kind, w.notice[:300])
            assert w.notice_id == before_id + 1, (w.notice_id, before_id, w.notice[:300])
            assert w.notice and len(w.notice) <= MAX_NOTICE, len(w.notice)
            assert (w.board.to_string(), list(w.moves), w.ply, w.thinking) == before
        else:
            MESSAGES["accepted"] += 1
            effect()
            self._settle()
            assert isinstance(content, dict)  # accepted: an intent
            same_place = content.get("kind") == "jump" and content.get("to") == before[2]
            assert w.notice_kind not in REFUSAL_KINDS or same_place, (w.notice_kind, w.notice)

    def _draw_intent(self, data: st.DataObject) -> tuple[object, list[bytes]]:
        """A message: mostly shaped like an intent, often wrong in one way or several."""
        ref = self.ref
        shape = data.draw(st.sampled_from(["good", "good", "good", "mangled", "mangled", "garbage"]), label="shape")
        if shape == "garbage":
            content = data.draw(JSON_VALUES | st.just([]) | HUGE_STRINGS, label="garbage")
            buffers = data.draw(st.just([]) | SMALL_BUFFERS, label="buffers")
            return content, buffers
        kind = data.draw(st.sampled_from(MODELLED_INTENTS) if shape == "good" else KINDS, label="kind")
        legal = [str(m) for m in ref.legal_moves] if not ref.is_game_over() else []
        fields: dict[str, Any] = {"kind": kind}
        names = INTENTS.get(kind, {}) if isinstance(kind, str) else {}
        for name in names:
            if shape == "mangled" and data.draw(st.integers(0, 9), label=f"drop {name}") == 0:
                continue
            if name == "square":
                if shape == "good" or data.draw(st.booleans(), label="plain square"):
                    choices = legal or [square_name(sq, ref.size) for sq in range(ref.size**2)]
                    fields[name] = data.draw(st.sampled_from(choices) | st.sampled_from(ALL_SQUARES), label="square")
                else:
                    fields[name] = data.draw(SQUARE_VALUES, label="square")
            elif name == "to":
                fields[name] = data.draw(st.integers(-2, len(self.line) + 2), label="to")
                if shape == "mangled" and data.draw(st.booleans(), label="odd to"):
                    fields[name] = data.draw(JSON_VALUES, label="to")
            else:  # ply
                ply = ref.ply
                good = st.just(ply) | st.integers(ply - 2, ply + 2)
                odd = st.one_of(
                    st.just(float(ply)),
                    st.just(str(ply)),
                    st.just(bool(ply)),
                    st.integers(-(10**30), 10**30),
                    JSON_VALUES,
                )
                fields[name] = data.draw(good if shape == "good" else good | odd, label="ply")
        if kind in ANALYSIS_INTENTS and fields.get("ply") == ref.ply:
            fields["ply"] = ref.ply + 1
        if shape == "mangled" and data.draw(st.integers(0, 5), label="extra?") == 0:
            fields[data.draw(st.text(max_size=8), label="extra key")] = data.draw(JSON_VALUES, label="extra value")
        buffers = []
        if shape == "mangled" and data.draw(st.integers(0, 9), label="buffers?") == 0:
            buffers = data.draw(SMALL_BUFFERS, label="buffers")
        return fields, buffers

    @rule(data=st.data(), count=st.integers(1, 4))
    def a_few_messages(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            self._send_intent(*self._draw_intent(data))

    @rule(data=st.data())
    def a_legal_click(self, data: st.DataObject) -> None:
        """Keeps games going deep enough to reach passes, the end, and long lines."""
        legal = [str(m) for m in self.ref.legal_moves] if not self.ref.is_game_over() else []
        if legal:
            square = data.draw(st.sampled_from(legal), label="legal square")
            self._send_intent({"kind": "move", "square": square, "ply": self.ref.ply}, [])

    @rule(data=st.data(), kind=st.sampled_from(["undo", "redo", "new_game", "jump"]))
    def a_navigation(self, data: st.DataObject, kind: str) -> None:
        content: dict[str, Any] = {"kind": kind, "ply": self.ref.ply}
        if kind == "jump":
            content["to"] = data.draw(st.integers(0, len(self.line)), label="to")
        self._send_intent(content, [])

    @precondition(lambda self: self.w is not None and self.pending is not None)
    @rule(data=st.data(), count=st.integers(10, 40))
    def a_flood_while_thinking(self, data: st.DataObject, count: int) -> None:
        """Many messages while the computer thinks: every one is answered, nothing moves."""
        for _ in range(count):
            MESSAGES["flood"] += 1
            self._send_intent(*self._draw_intent(data))

    # -- the computer ---------------------------------------------------------------------

    @precondition(lambda self: self.w is not None and self.pending is not None)
    @rule(data=st.data())
    def the_computer_answers(self, data: st.DataObject) -> None:
        call = self.pending
        assert call is not None
        legal = list(call.board.legal_moves)
        bad: list[object] = [
            Move.null(call.board.size),
            "z9",
            42,
            RuntimeError("the puppet gives up"),
            *(Move(sq, call.board.size) for sq in range(call.board.size**2) if Move(sq, call.board.size) not in legal),
        ]
        answers: st.SearchStrategy[object] = st.sampled_from(bad)
        if legal and bool(data.draw(st.integers(0, 4))):
            answers = st.sampled_from(legal)
        answer = data.draw(answers)
        call.answer = answer
        call.release.set()
        call.thread.join(WAIT)
        assert not call.thread.is_alive(), "the computer's move never finished (deadlock?)"
        self.pending = None
        if isinstance(answer, Move) and answer in legal:
            self._push(answer)
            self._advance()
        else:
            self.paused = True
            assert self.widget.notice_kind == "error" and self.widget.paused
        self._settle()

    # -- Python's own calls ---------------------------------------------------------------

    @rule(data=st.data())
    def python_plays(self, data: st.DataObject) -> None:
        legal = list(self.ref.legal_moves) if not self.ref.is_game_over() else []
        if legal and bool(data.draw(st.integers(0, 3))):
            move = data.draw(st.sampled_from(legal), label="python move")
            self.widget.play(move)
            self._push(move)
            self._advance()
            self._settle()
            return
        square = data.draw(st.sampled_from(ALL_SQUARES[:64] + ODD_SQUARES), label="python square")
        probe = self.ref.copy()
        try:
            probe.push(square)
        except ReversiError:
            before = (self.widget.board.to_string(), list(self.widget.moves), self.widget.thinking)
            with pytest.raises(ReversiError):
                self.widget.play(square)
            assert (self.widget.board.to_string(), list(self.widget.moves), self.widget.thinking) == before

    @rule(color=st.sampled_from([BLACK, WHITE]), computer=st.booleans())
    def python_switches_a_player(self, color: bool, computer: bool) -> None:
        if self.computer[color] == computer:
            return
        setattr(self.widget, "black" if color == BLACK else "white", self.puppet if computer else "human")
        self.computer[color] = computer
        if self.pending is not None and self.ref.turn == color:
            self._invalidate()
        self._advance()
        self._settle()

    @rule(paused=st.booleans())
    def python_pauses_or_resumes(self, paused: bool) -> None:
        self.widget.paused = paused
        self.paused = paused
        if paused:
            self._invalidate()
        self._advance()
        self._settle()

    @rule(data=st.data())
    def python_loads_a_transcript(self, data: st.DataObject) -> None:
        plies = data.draw(st.integers(0, len(self.line)), label="plies")
        text = "".join(str(m) if m else "pass" for m in self.line[:plies])
        self.widget.load(text)
        self._start(Board.from_transcript(text, rules=self.game_rules))
        self._settle()

    # -- writes to synced traits ---------------------------------------------------------------

    @rule(data=st.data())
    def a_state_write(self, data: st.DataObject) -> None:
        w = self.widget
        known = [name for name in (*ReversiWidget.READ_ONLY, *OTHER_TRAITS) if name in w.keys]
        names = st.sampled_from([*MODELLED_SETTINGS, *known])
        state = data.draw(st.dictionaries(names, SETTING_VALUES, min_size=1, max_size=3), label="state")
        MESSAGES["sent"] += 1
        MESSAGES["state_writes"] += 1
        verdicts = {
            name: valid_setting(name, value) if name in MODELLED_SETTINGS else False for name, value in state.items()
        }
        before_id = w.notice_id
        before = {name: plain(getattr(w, name)) for name in state}
        game = (w.board.to_string(), list(w.moves), w.ply)
        for name, value in state.items():  # the writer's view already shows what it wrote
            self.front[name] = plain(value)
        how = data.draw(st.sampled_from(["set_state", "comm"]), label="how")
        if how == "set_state":
            w.set_state(copy.deepcopy(state))
        else:
            envelope = {"method": "update", "state": copy.deepcopy(state), "buffer_paths": []}
            w._handle_msg({"content": {"data": envelope}, "buffers": []})
        refused = [name for name, ok in verdicts.items() if ok is False]
        for name, ok in verdicts.items():
            if ok is False and name not in NOTICE_TRAITS:  # a refusal changes the notice, of course
                assert plain(getattr(w, name)) == before[name], name
            elif ok:
                assert plain(getattr(w, name)) == plain(state[name]), name
        if refused:
            assert w.notice_id == before_id + 1 and w.notice_kind == "error", (state, w.notice)
            assert len(w.notice) <= MAX_NOTICE
        elif all(verdicts.values()):
            assert w.notice_id == before_id
        assert (w.board.to_string(), list(w.moves), w.ply) == game

    @rule(data=st.data())
    def a_raw_comm_message(self, data: st.DataObject) -> None:
        """A whole comm envelope as the kernel would hand it over, with a custom intent inside."""
        content, buffers = self._draw_intent(data)
        MESSAGES["sent"] += 1
        accept, effect = self._verdict(content, buffers)
        before = len(self.sent.custom())
        self.widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": buffers})
        refused = len(self.sent.custom()) > before
        if accept is not None:
            assert refused != accept
        if not refused:
            effect()
            self._settle()


def test_random_and_malformed_messages(stress: Any, figures: Any) -> None:
    """Rounds of the state machine until the message count is reached (hypothesis picks how
    long each run is, so the count, not the number of examples, is the knob)."""
    for key in MESSAGES:
        MESSAGES[key] = 0
    target = stress.count(full=10_000)
    examples_per_round = stress.count(full=100, short=20)
    started = figures.clock()
    rounds = 0
    while MESSAGES["sent"] < target:
        assert rounds < 20, f"only {MESSAGES['sent']} messages in {rounds} rounds"
        rounds += 1
        run_state_machine_as_test(
            WidgetMessages,
            settings=settings(
                max_examples=examples_per_round,
                stateful_step_count=50,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                # Shrinking a failure of this machine (threads, floods) takes minutes: the failing
                # run is printed step by step instead, ending with the step that failed.
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
            ),
        )
    elapsed = figures.clock() - started
    figures.record("messages", "state machine examples", rounds * examples_per_round)
    for key, value in MESSAGES.items():
        figures.record("messages", key.replace("_", " "), value)
    figures.record("messages", "state machine time", seconds=elapsed)
    assert MESSAGES["refused"] and MESSAGES["accepted"] and MESSAGES["flood"] and MESSAGES["stale_released"]


# -- bugs of widget.py the machine steers around (it keeps its values small) --------------------

#: A JSON number a front end can send: Python's json reads integers of up to 4,300 digits.
HUGE_NUMBER = json.loads("9" * 4_000)


def fresh_widget() -> tuple[ReversiWidget, Capture]:
    w = ReversiWidget()
    return w, Capture(w)


@pytest.mark.parametrize(
    "content", [{"kind": "undo", "ply": HUGE_NUMBER}, {"kind": "jump", "to": HUGE_NUMBER, "ply": 0}], ids=["ply", "to"]
)
def test_a_refusal_never_quotes_a_huge_number_whole(content: dict[str, Any]) -> None:
    w, sent = fresh_widget()
    send(w, content)
    assert sent.custom() and w.notice_kind == "error"
    assert len(w.notice) <= MAX_NOTICE, len(w.notice)


@pytest.mark.parametrize(
    "state",
    [{"theme": "x" * 100_000}, {"animation": list(range(10_000))}, {"size": "9" * 50_000}],
    ids=["theme", "animation", "size"],
)
def test_a_setting_refusal_never_quotes_a_huge_value_whole(state: dict[str, Any]) -> None:
    """The machine keeps setting values small; this checks the big ones (set_state has no
    size limit, so the notice must not quote the value whole)."""
    w, _ = fresh_widget()
    w.set_state(state)
    assert w.notice_kind == "error"
    assert len(w.notice) <= MAX_NOTICE, len(w.notice)


@pytest.mark.parametrize("how", ["unknown name", "not an object"])
def test_a_write_the_widget_cannot_use_is_answered(how: str) -> None:
    w, _ = fresh_widget()
    state: object = {"no_such_trait": 1} if how == "unknown name" else ["show_legal", False]
    w._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})
    assert w.notice_id == 1 and w.notice_kind == "error"
