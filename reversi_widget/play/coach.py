"""A coached game: a verdict after each of the learner's moves, Try again or Go on, and a
summary at the end.

While the coach is on (``session.coach``), every real move a human side plays, with more
than one legal move to choose from, is judged (``observe``, at the end of each operation):
``due`` gives the job, which runs on the workers that run the hints (``coaching.verdict``).
Until its verdict comes, and while a marked move waits for the learner's choice, the
computer waits (``holds``, read by ``Session.computer_due``): Try again takes the move back
(it leaves the line), Go on lets the computer reply. A good move needs no choice: the
computer replies once the verdict is in.

A verdict belongs to one move of one line (a ``MoveKey``: the rules, the start and the moves
up to it), so undo, redo and jumps find it again and it is never shown for another move. A
job whose move is no longer the last one of the line shown is stale, and stopped. Once the
line reaches the end of the game, the summary counts the learner's moves kept, judged and
marked, the moves taken back, and offers the worst three to replay: a jump to the position
before one lets the learner play there again, and the game goes on from there, coached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..analysis import move_label
from ..board import Board, Move
from ..progress import Progress
from ..search import StopSignal
from .aids import Job
from .coaching import COACH_SECONDS, WORST_SHOWN, Summary, Verdict, verdict
from .session import Session
from .texts import COLOR_KEY, Refusal, Text, color_text

__all__ = ["COACH_INTENTS", "Asked", "Coach", "CoachMethods", "MoveKey", "coach_action"]

#: The intents of a coached game (js/PROTOCOL.md).
COACH_INTENTS = ("coach_retry", "coach_go_on")

#: A move of a line: the rules (their repr), the start position, and the moves up to it.
MoveKey = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True)
class Asked:
    """A learner's move the coach was asked about: the position before it and the move."""

    before: Board
    move: Move


class Coach:
    """The coach of one widget, under its lock: the moves asked about, their verdicts, the
    learner's choices, and the job judging the move the game waits on."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.asked: dict[MoveKey, Asked] = {}
        self.verdicts: dict[MoveKey, Verdict] = {}
        self.failed: set[MoveKey] = set()  # not judged: the game goes on without a verdict
        self.went_on: set[MoveKey] = set()  # marked moves the learner chose to keep
        self.taken_back: set[MoveKey] = set()
        self.job: MoveKey | None = None
        self.progress = 0.0
        self._line: tuple[int, MoveKey] = (-1, ("", "", ()))  # the session's line_id, and its whole line

    @property
    def on(self) -> bool:
        return self.session.coach is self

    # -- which move is which ------------------------------------------------------------------

    def key(self, ply: int) -> MoveKey:
        """The move at ``ply`` (1-based) of the session's line."""
        session = self.session
        if self._line[0] != session.line_id:  # read once per line: the views' picture asks often
            board = session.board
            line = (repr(board.rules), board.root().to_string(), tuple(str(move) for move in session.line))
            self._line = (session.line_id, line)
        rules, root, moves = self._line[1]
        return rules, root, moves[:ply]

    def current(self) -> MoveKey | None:
        """The learner's move the game waits on: the last real move of the line, at its end
        (passes may follow it), when the coach was asked about it."""
        session = self.session
        ply = session.board.ply
        if ply != len(session.line):
            return None
        while ply and not session.line[ply - 1]:
            ply -= 1
        key = self.key(ply) if ply else None
        return key if key in self.asked else None

    def latest(self) -> MoveKey | None:
        """The last move the coach was asked about on the way to the position shown."""
        for ply in range(self.session.board.ply, 0, -1):
            key = self.key(ply)
            if key in self.asked:
                return key
        return None

    def judging(self, key: MoveKey) -> bool:
        return key not in self.verdicts and key not in self.failed

    def waiting(self, key: MoveKey) -> bool:
        """A marked move waits for the learner's choice."""
        found = self.verdicts.get(key)
        return found is not None and bool(found.mark) and key not in self.went_on

    def holds(self) -> bool:
        """The computer waits: for the verdict on the learner's move, or for the learner's choice."""
        key = self.current() if self.on else None
        return key is not None and (self.judging(key) or self.waiting(key))

    def busy(self) -> bool:
        return self.job is not None

    # -- what the game does ---------------------------------------------------------------------

    def observe(self) -> None:
        """Ask about the last real move just played, when a human side played it by choice
        (not in puzzle mode, not a placement of the free start, not a single legal move)."""
        session = self.session
        if not self.on or not session.played or session.puzzles is not None or session.editor is not None:
            return
        probe = session.board.copy()
        if probe.ply != len(session.line):
            return
        for _ in range(min(len(session.played), probe.ply)):
            move = probe.pop()
            if not move:
                continue  # a forced pass after it
            chose = not probe.in_placement() and len(list(probe.legal_moves)) > 1
            if session.players[probe.turn] is None and chose:
                self.asked.setdefault(self.key(probe.ply + 1), Asked(probe.copy(stack=False), move))
            return

    def due(self, depth: int | None, limit: float | None) -> list[Job]:
        """The verdict to start now: on the move the game waits on, if none runs for it. The
        analysis settings of the hints hold for it (none: ``COACH_SECONDS``)."""
        key = self.current() if self.on else None
        if key is None or not self.judging(key) or self.job == key:
            return []
        asked = self.asked[key]
        self.job, self.progress = key, 0.0
        if depth is None and limit is None:
            limit = COACH_SECONDS
        stop = StopSignal()

        def compute(progress: Progress) -> Verdict:
            return verdict(asked.before, asked.move, depth=depth, time_limit=limit, progress=progress, stop=stop)

        def record(fraction: float) -> None:
            self.progress = fraction

        def finish(result: Verdict | Exception | None) -> None:
            if self.job == key:
                self.job = None
            if isinstance(result, Exception):
                self.failed.add(key)  # the game goes on without it, and says why
                self.session.notify("error", Text("notice_coach_failed", move=str(asked.move), error=str(result)))
            elif result is not None:
                self.verdicts[key] = result

        alive = lambda: self.on and self.current() == key  # noqa: E731
        return [Job("coach", compute, alive, record, finish, stop)]

    def retry(self) -> Refusal | None:
        """Try again: take back the learner's move the game waits on; it leaves the line."""
        key = self.current()
        if key is None:
            return Refusal(Text("notice_refused_coach_retry"))
        self.session.jump(len(key[2]) - 1)
        self.session.cut_line()
        self.taken_back.add(key)
        self.session.notify("info", Text("notice_coach_taken_back", move=key[2][-1]))
        return None

    def go_on(self) -> Refusal | None:
        """Go on: keep the marked move the game waits on, and let the computer reply."""
        key = self.current()
        if key is not None and self.judging(key):
            return Refusal(Text("notice_refused_coach_judging", move=key[2][-1]))
        if key is None or not self.waiting(key):
            return Refusal(Text("notice_refused_coach_go_on"))
        self.went_on.add(key)
        return None

    # -- the end of the game ------------------------------------------------------------------

    def summary(self) -> Summary | None:
        """The coached game at its end (the line reaches it), else None."""
        session = self.session
        if not session.line_finished():
            return None
        probe = session.board.root()
        rules, root = repr(probe.rules), probe.to_string()
        moves = tuple(str(move) for move in session.line)
        kept, judged = 0, []
        for ply, move in enumerate(session.line, 1):
            human = session.players[probe.turn] is None
            probe.push(move)
            if not move or not human:
                continue
            kept += 1
            found = self.verdicts.get((rules, root, moves[:ply]))
            if found is not None:
                judged.append((ply, move_label(ply, move) + found.mark, found))
        marked = sorted((entry for entry in judged if entry[2].mark), key=lambda entry: (-entry[2].loss, entry[0]))
        back = sum(
            1 for r, s, line in self.taken_back if (r, s) == (rules, root) and moves[: len(line) - 1] == line[:-1]
        )
        return Summary(kept, len(judged), len(marked), back, tuple(marked[:WORST_SHOWN]))

    # -- the picture ------------------------------------------------------------------------------

    def picture(self, language: str) -> dict[str, Any]:
        """The ``coach_state`` trait (js/PROTOCOL.md), and the status and progress while the
        computer waits for the coach or the learner."""
        if not self.on:
            return {"coach_state": {}}
        session = self.session
        current, shown = self.current(), self.latest()
        state: dict[str, Any] = {"state": "", "can_retry": current is not None, "can_go_on": False}
        out: dict[str, Any] = {"coach_state": state}
        if shown is not None:
            move = shown[2][-1]
            found = self.verdicts.get(shown)
            state.update(move=move, ply=len(shown[2]))
            if found is not None:
                kind = "mistake" if found.mark else "good"
                color = COLOR_KEY[self.asked[shown].before.turn]
                state.update(state="verdict", verdict=found.render(language), mark=found.mark, kind=kind)
                state.update(best=found.best, color=color)
            elif shown in self.failed:
                state.update(state="failed")
            elif shown == current:
                state.update(state="judging", verdict=Text("coach_judging", move=move).render(language))
        if current is not None and self.judging(current):
            waiter = session.players[session.board.turn]
            if waiter is not None:
                color = color_text(session.board.turn).render(language)
                out["status"] = Text("status_coach_judging", move=current[2][-1], color=color).render(language)
            if self.job == current:
                out.update(busy="coach", progress=self.progress)
        elif current is not None and self.waiting(current):
            state.update(state="waiting", can_go_on=True)
            color = color_text(session.board.turn).render(language)
            out["status"] = Text("status_coach_waiting", color=color).render(language)
        summary = self.summary()
        state["summary"] = {} if summary is None else _summary_picture(summary, language)
        return out


def _summary_picture(summary: Summary, language: str) -> dict[str, Any]:
    return {
        "text": summary.render(language),
        "kept": summary.kept,
        "judged": summary.judged,
        "mistakes": summary.mistakes,
        "taken_back": summary.taken_back,
        "worst": [
            {"ply": ply, "to": ply - 1, "label": label, "note": found.render(language)}
            for ply, label, found in summary.worst
        ],
    }


def coach_action(session: Session, kind: str) -> Refusal | None:
    """One of ``COACH_INTENTS``: only in a coached game."""
    coach = session.coach
    if coach is None:
        return Refusal(Text("notice_refused_coach_off", kind=kind))
    return coach.retry() if kind == "coach_retry" else coach.go_on()


class CoachMethods:
    """What a Python caller does in a coached game: ``ReversiWidget`` has these methods."""

    def _act(self, action: Callable[[Session], Refusal | None]) -> None:
        """One action of the session, its refusal raised (the widget's own)."""
        raise NotImplementedError

    def try_again(self) -> None:
        """Take back the coached move the game waits on (it leaves the line): play another one.
        Raises ``ReversiError`` (and changes nothing) when there is none or the coach is off."""
        self._act(lambda session: coach_action(session, "coach_retry"))

    def go_on(self) -> None:
        """Keep the marked move the game waits on: the computer replies. Raises ``ReversiError``
        (and changes nothing) when no marked move waits, or while the coach still judges it."""
        self._act(lambda session: coach_action(session, "coach_go_on"))
