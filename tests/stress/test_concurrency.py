"""Concurrency: clicks, undo, redo, new game, jumps and Python calls racing computer moves.

Each interleaving is one widget, a computer player (``Latch``) whose ``choose`` blocks until
a releaser thread lets it go at a random moment, a "front end" thread sending intents with
the ply it last saw (often stale by the time they arrive), and a "Python" thread calling the
widget's methods. A checker looks at the game under the widget's lock while they run, and
again at the end:

- the line always replays legally from the start, and the board is its prefix;
- the traits the views get describe exactly that board (no half-done update);
- every move of a computer's colour was chosen *for the position it was played in* (a stale
  move, chosen for an earlier position, is never applied);
- every operation returns within ``OP_TIMEOUT`` and every thread finishes (no deadlock).

Three interleavings also run in Chromium: the real js/widget.js (the tests/frontend harness)
bridged to a real Python widget, clicking while computer moves land.
"""

from __future__ import annotations

import faulthandler
import queue
import random
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from reversi_widget import BLACK, WHITE, Board, Move, ReversiError, Rules
from reversi_widget.squares import square_name
from reversi_widget.widget import ReversiWidget
from tests.support import send

OP_TIMEOUT = 5.0  # no single operation may take longer
RUN_TIMEOUT = 60.0  # nor a whole interleaving
Stack = tuple[str, ...]


class Latch:
    """A computer player: ``choose`` waits until released, then picks a seeded random legal
    move and records which position it was chosen for."""

    name = "latch"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.waiting: list[threading.Event] = []
        self.answers: set[tuple[Stack, str]] = set()
        self.free = threading.Event()  # once set, every call answers at once
        self.calls = 0

    def choose(self, board: Board) -> Move:
        gate = threading.Event()
        with self.lock:
            self.calls += 1
            self.waiting.append(gate)
        if not self.free.is_set() and not gate.wait(RUN_TIMEOUT):
            raise TimeoutError("never released")
        with self.lock:
            move = self.rng.choice(list(board.legal_moves))
            self.answers.add((stack_of(board), str(move)))
        return move

    def release_one(self, rng: random.Random) -> bool:
        with self.lock:
            if not self.waiting:
                return False
            gate = self.waiting.pop(rng.randrange(len(self.waiting)))
        gate.set()
        return True

    def release_all(self) -> None:
        self.free.set()
        with self.lock:
            gates, self.waiting = self.waiting, []
        for gate in gates:
            gate.set()


def stack_of(board: Board) -> Stack:
    return tuple(str(m) for m in board.move_stack)


def discs_of(board: Board) -> str:
    black, white = board.bitboards()
    return "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(board.size * board.size))


class Interleaving:
    """One widget under fire from several threads, and the checks of its game."""

    def __init__(self, seed: int, size: int = 8) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.latch = Latch(seed)
        self.computer = self.rng.choice([(False, True), (True, False), (True, True), (False, True)])
        self.rules = Rules(size=size)
        self.w = ReversiWidget(
            rules=self.rules,
            black=self.latch if self.computer[0] else "human",
            white=self.latch if self.computer[1] else "human",
            animation="off",
        )
        self.w.comm.send = lambda *args, **kwargs: None  # no front end: drop what Python sends
        self.failures: list[str] = []
        self.slowest = 0.0
        self.operations = 0
        self.checks = 0
        self.stop = threading.Event()

    def is_computer(self, color: bool) -> bool:
        return self.computer[0] if color == BLACK else self.computer[1]

    # -- timed operations -----------------------------------------------------------------

    def timed(self, what: str, operation: Callable[[], object]) -> None:
        started = time.monotonic()
        try:
            operation()
        except ReversiError:
            pass  # refused from Python (nothing to undo, illegal now...): fine
        except Exception as error:  # anything else is a failure of the widget
            self.failures.append(f"{what} raised {error!r}")
        took = time.monotonic() - started
        self.slowest = max(self.slowest, took)
        self.operations += 1
        if took > OP_TIMEOUT:
            self.failures.append(f"{what} took {took:.1f}s")

    # -- the threads ------------------------------------------------------------------------

    def front_end(self, steps: int, rng: random.Random) -> None:
        """Intents as views send them: made with the ply the view last saw."""
        n = self.rules.size
        for _ in range(steps):
            ply = self.w.ply
            if rng.random() < 0.1:
                ply += rng.choice([-1, 1])
            legal = list(self.w.legal)
            kind = rng.choice(["move", "move", "move", "undo", "redo", "new_game", "jump"])
            content: dict[str, Any] = {"kind": kind, "ply": ply}
            if kind == "move":
                content["square"] = (
                    rng.choice(legal) if legal and rng.random() < 0.8 else square_name(rng.randrange(n * n), n)
                )
            elif kind == "jump":
                content["to"] = rng.randint(0, len(self.w.moves))
            elif kind == "new_game" and rng.random() < 0.7:
                continue  # keep games long enough to reach passes and endings
            self.timed(f"intent {content}", lambda c=content: send(self.w, c))  # type: ignore[misc]
            time.sleep(rng.random() * 0.002)

    def python(self, steps: int, rng: random.Random) -> None:
        """The notebook's own calls. A move is played only for a human's colour (checked and
        played under the widget's lock), so every move of a computer's colour is the computer's."""
        for _ in range(steps):
            action = rng.choice(["play", "play", "undo", "redo", "jump", "wait"])
            if action == "play":

                def play() -> None:
                    with self.w._lock:
                        board = self.w.board
                        if self.is_computer(board.turn) or board.is_game_over() or board.must_pass():
                            return
                        move = rng.choice(list(board.legal_moves))
                        self.w.play(move)

                self.timed("play", play)
            elif action == "undo":
                self.timed("undo", self.w.undo)
            elif action == "redo":
                self.timed("redo", self.w.redo)
            elif action == "jump":
                self.timed("jump", lambda: self.w.jump(rng.randint(0, len(self.w.line))))
            else:
                self.timed("wait", lambda: self.w.wait(0.01))
            time.sleep(rng.random() * 0.002)

    def releaser(self, rng: random.Random) -> None:
        while not self.stop.is_set():
            if rng.random() < 0.6:
                self.latch.release_one(rng)
            time.sleep(rng.random() * 0.003)

    def checker(self) -> None:
        while not self.stop.is_set():
            self.check("while running")
            time.sleep(0.002)

    # -- the checks --------------------------------------------------------------------------

    def check(self, when: str) -> None:
        """Look at the game between two operations (under the widget's lock)."""
        with self.w._lock:
            board = self.w.board
            line = self.w.line
            traits = (self.w.discs, self.w.ply, list(self.w.moves), self.w.thinking)
        self.checks += 1
        replay = Board(rules=self.rules)
        for number, move in enumerate(line, 1):
            stack = stack_of(replay)
            if move and self.is_computer(replay.turn) and (stack, str(move)) not in self.latch.answers:
                self.failures.append(f"{when}: move {number} ({move}) was not chosen for its position")
            try:
                replay.push(move)
            except ReversiError as error:
                self.failures.append(f"{when}: the line does not replay at move {number}: {error}")
                return
        if stack_of(board) != tuple(str(m) for m in line[: board.ply]):
            self.failures.append(f"{when}: the board is not a prefix of the line")
        if traits[:3] != (discs_of(board), board.ply, [str(m) for m in line]):
            self.failures.append(f"{when}: the views' picture does not match the board")

    def run(self, steps: int) -> None:
        rng = self.rng
        workers = [
            threading.Thread(target=self.front_end, args=(steps, random.Random(rng.random())), name="front-end"),
            threading.Thread(target=self.python, args=(steps // 2, random.Random(rng.random())), name="python"),
        ]
        helpers = [
            threading.Thread(target=self.releaser, args=(random.Random(rng.random()),), name="releaser"),
            threading.Thread(target=self.checker, name="checker"),
        ]
        for thread in workers + helpers:
            thread.daemon = True
            thread.start()
        deadline = time.monotonic() + RUN_TIMEOUT
        for thread in workers:
            thread.join(max(0.0, deadline - time.monotonic()))
        self.stop.set()
        self.latch.release_all()
        for thread in helpers:
            thread.join(max(0.0, deadline - time.monotonic()))
        stuck = [t.name for t in workers + helpers if t.is_alive()]
        if stuck:
            faulthandler.dump_traceback(file=sys.stderr)
            pytest.fail(f"seed {self.seed}: threads {stuck} did not finish in {RUN_TIMEOUT}s (deadlock?)")
        if not self.w.wait(RUN_TIMEOUT):
            pytest.fail(f"seed {self.seed}: the computer never finished its move")
        self.check("at the end")
        assert not self.w.thinking
        assert not self.failures, f"seed {self.seed}: {self.failures[:5]}"
        self.w.close()


def test_random_interleavings(stress: Any, figures: Any) -> None:
    count = stress.count(full=1_000)
    started = figures.clock()
    operations = checks = computer_calls = 0
    slowest = 0.0
    base = random.randrange(1 << 30)
    for index in range(count):
        run = Interleaving(base + index, size=random.Random(base + index).choice([4, 6, 8, 8]))
        run.run(steps=24)
        operations += run.operations
        checks += run.checks
        computer_calls += run.latch.calls
        slowest = max(slowest, run.slowest)
    elapsed = figures.clock() - started
    figures.record("concurrency", "interleavings (Python threads)", count, elapsed)
    figures.record("concurrency", "operations", operations)
    figures.record("concurrency", "computer moves asked for", computer_calls)
    figures.record("concurrency", "consistency checks under the lock", checks)
    figures.record("concurrency", f"slowest operation {slowest * 1000:.0f} ms")
    assert computer_calls > count  # the computers were really racing the other threads


def test_a_stale_move_is_caught_by_these_checks() -> None:
    """The checks above can fail: a widget that plays a computer's answer on a later
    position is reported (guards against a check that never looks)."""
    run = Interleaving(seed=7)
    run.computer = (False, True)  # whatever the seed chose, the check now reads White as the computer
    run.w.play("d3")
    run.w.play("c5")  # White's move, played from Python: not an answer the computer gave
    run.check("planted")
    assert any("move 2 (c5) was not chosen for its position" in failure for failure in run.failures)
    run.latch.release_all()
    run.w.close()


# -- analyses racing the game ------------------------------------------------------------------


class AnalysisInterleaving:
    """Two humans' widget whose hint, scores and review run real searches (30 s each unless
    stopped) while a front end plays, undoes, asks for hints and reviews, and toggles the
    scores. Checked under the lock after every operation: no analysis that has gone stale
    is still allowed to run (each is halted by the operation that made it stale), and the
    scores shown are those of the position shown. At the end nobody wants an analysis, and
    every worker must be gone at once."""

    def __init__(self, seed: int, size: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.w = ReversiWidget(rules=Rules(size=size), analysis_time_limit=30, animation="off")
        self.w.comm.send = lambda *args, **kwargs: None
        self.failures: list[str] = []
        self.operations = self.halted = 0

    def check(self, when: str) -> None:
        with self.w._lock:
            for job in self.w._workers.jobs:
                if not job.alive() and not job.stop.halted:
                    self.failures.append(f"{when}: a stale {job.name} still runs")
            board, scores = self.w.board, dict(self.w.scores)
        if scores and set(scores) != {str(move) for move in board.legal_moves}:
            self.failures.append(f"{when}: scores {sorted(scores)} are not for the position shown")

    def run(self, steps: int) -> None:
        rng, w = self.rng, self.w
        for step in range(steps):
            kind = rng.choice(["move", "move", "move", "undo", "redo", "hint", "hint", "scores", "review", "new_game"])
            content: dict[str, Any] = {"kind": kind, "ply": w.ply}
            if kind == "move":
                legal = list(w.legal)
                if not legal:
                    content = {"kind": "pass", "ply": w.ply}
                else:
                    content["square"] = rng.choice(legal)
            with w._lock:
                before = [job for job in w._workers.jobs if not job.stop.halted]
            if kind == "scores":
                w.set_state({"show_scores": not w.show_scores})
            else:
                send(w, content)
            self.operations += 1
            self.halted += sum(job.stop.halted for job in before)
            self.check(f"step {step} ({kind})")
            time.sleep(rng.random() * 0.05)
        w.set_state({"show_scores": False})
        send(w, {"kind": "new_game", "ply": w.ply})  # the review's line is gone, the hint's position too
        self.check("at the end")
        started = time.monotonic()
        if not w.wait(OP_TIMEOUT):
            self.failures.append(f"the analyses still ran {OP_TIMEOUT} s after nobody wanted them")
        for thread in list(w._workers.threads):
            thread.join(max(0.0, OP_TIMEOUT - (time.monotonic() - started)))
            if thread.is_alive():
                self.failures.append(f"worker {thread.name} still runs")
        assert not self.failures, f"seed {self.seed}: {self.failures[:5]}"
        w.close()


def test_stale_analyses_stop_at_once_in_random_interleavings(stress: Any, figures: Any) -> None:
    count = stress.count(full=100)
    started = figures.clock()
    operations = halted = 0
    base = random.randrange(1 << 30)
    for index in range(count):
        run = AnalysisInterleaving(base + index, size=random.Random(base + index).choice([6, 8]))
        run.run(steps=30)
        operations += run.operations
        halted += run.halted
    figures.record("concurrency", "analysis interleavings", count, figures.clock() - started)
    figures.record("concurrency", "analysis operations", operations)
    figures.record("concurrency", "analyses halted mid-search", halted)
    assert halted > 0  # analyses really were running when the game moved on


# -- in Chromium: the real front end against the real referee -----------------------------------

BUTTONS = {"undo": "undo", "redo": "redo", "new_game": "new"}


class Bridge:
    """Carries messages between a Python widget and the harness page, like a kernel's comm."""

    def __init__(self, widget: ReversiWidget, page: Any) -> None:
        self.w, self.page = widget, page
        self.outbox: queue.Queue[dict[str, Any]] = queue.Queue()  # filled from any thread
        widget.comm.send = self._from_python
        self.intents = 0

    def _from_python(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.outbox.put(data)

    def pump(self) -> int:
        """Deliver what is waiting in both directions; the number of messages moved."""
        moved = 0
        for intent in self.page.evaluate("() => window.sent.splice(0)"):
            send(self.w, intent)
            self.intents += 1
            moved += 1
        while True:
            try:
                message = self.outbox.get_nowait()
            except queue.Empty:
                break
            moved += 1
            if message.get("method") in ("update", "echo_update"):
                self.page.evaluate("s => window.setTraits(s)", message["state"])
            elif message.get("method") == "custom":
                self.page.evaluate("m => window.customMsg(m)", message["content"])
        return moved


def page_discs(page: Any, view: str) -> str:
    names = page.evaluate(
        """v => [...document.querySelectorAll(v + ' [data-square]')]
            .map(g => ({black: 'X', white: 'O'})[g.getAttribute('data-disc')] || '-').join('')""",
        view,
    )
    return str(names)


@pytest.mark.browser
@pytest.mark.parametrize("seed", [11, 22, 33])
def test_interleavings_in_the_browser(boot: Any, seed: int, figures: Any) -> None:
    started = figures.clock()
    rng = random.Random(seed)
    latch = Latch(seed)
    w = ReversiWidget(white=latch, animation="off")
    traits = {k: v for k, v in w.get_state().items() if not k.startswith("_") and k not in ("layout", "tooltip")}
    page = boot(8, **traits)
    bridge = Bridge(w, page)
    answered = 0
    for _ in range(30):
        action = rng.choice(["click", "click", "click", "release", "release", "button", "jump", "pump"])
        if action == "click":
            legal = page.evaluate(
                "() => [...document.querySelectorAll('#view1 [data-legal]')].map(g => g.dataset.square)"
            )
            square = rng.choice(legal) if legal and rng.random() < 0.8 else square_name(rng.randrange(64))
            page.click(f'#view1 .reversi-widget [data-square="{square}"]')
        elif action == "release":
            latch.release_one(rng)
            time.sleep(0.01)  # let the computer's move land between the page's actions
        elif action == "button":
            button = BUTTONS[rng.choice(list(BUTTONS))]
            page.evaluate("sel => document.querySelector(sel).click()", f"#view1 [data-action={button}]")
        elif action == "jump":
            plies = page.evaluate("() => document.querySelectorAll('#view1 [data-role=moves] [data-ply]').length")
            if plies:
                page.evaluate(
                    "sel => document.querySelector(sel).click()",
                    f"#view1 [data-role=moves] [data-ply='{rng.randint(1, plies)}']",
                )
        if rng.random() < 0.6:
            bridge.pump()
        answered = len(latch.answers)  # computer moves chosen while the page was being clicked
    latch.release_all()
    assert w.wait(OP_TIMEOUT)
    deadline = time.monotonic() + OP_TIMEOUT
    while bridge.pump() and time.monotonic() < deadline:
        pass
    board = w.board
    assert bridge.intents > 5 and answered >= 1
    for view in ("#view1", "#view2"):
        assert page_discs(page, view) == discs_of(board) == w.discs
    shown = page.evaluate("() => document.querySelectorAll('#view1 [data-role=moves] [data-ply]').length")
    assert shown == len(w.moves)
    replay = Board()
    for move in w.line:
        if move and replay.turn == WHITE:
            assert (stack_of(replay), str(move)) in latch.answers, "a stale computer move was applied"
        replay.push(move)
    assert stack_of(board) == tuple(str(m) for m in w.line[: board.ply])
    figures.record(
        "concurrency", f"browser interleaving seed {seed}: {bridge.intents} intents", seconds=figures.clock() - started
    )
    w.close()
