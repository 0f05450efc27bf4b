"""The live evaluation: a bar beside the board, and an evaluation chart that grows with the game.

With the setting ``live_evaluation`` on (``"score"``: the disc score; ``"chance"``: Black's
win chance, ``Analysis.win_chance``), the position shown is analysed as a hint's is: by the
same job (``aids``), on the same workers, stopped by a move that makes it stale. Every
finished analysis is kept as a *reading* of its position, by the position itself, so the
course of a game is known wherever it was analysed, and each analysis reads two positions:
its own (the best move's score) and, through the move played from it, the next one (that
move's score). The position after a human's move is so known at once, before any search of
its own; while a computer thinks nothing else is searched (the engine keeps the machine),
and the bar shows that reading.

The course (``evaluations``, Black's view in discs) holds, per position of the line, the
mean of its readings as ``analysis.evaluations`` reads a review (an exact one is the value),
and None where it has none yet: the chart draws the points it has.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from ..analysis import Analysis
from ..board import Board, Move
from ..i18n import translate
from ..search.root import MoveAnalysis
from ..squares import BLACK, Color
from ..winchance import black_win_chance, load_model
from .puzzling import hides_answer
from .session import Session

__all__ = [
    "LIVE_EVALUATIONS",
    "MAX_READINGS",
    "LiveEvaluation",
    "Reading",
    "checked_live_evaluation",
    "live_picture",
    "live_wanted",
]

#: The values of the ``live_evaluation`` setting: off, the disc score, the win chance.
LIVE_EVALUATIONS: tuple[str, ...] = ("off", "score", "chance")
#: The most positions whose analyses are kept (the oldest go first): a few long games.
MAX_READINGS = 600

_Key = tuple[str, str, str]  # position (with the side to move), goal, scoring


def checked_live_evaluation(value: str) -> str:
    """``value`` (one of ``LIVE_EVALUATIONS``), once the win-chance file the bar reads loads:
    a damaged one is refused here, naming it (``WinChanceFileError``), rather than at every
    redraw, and the setting stays as it was."""
    if value != "off":
        load_model(8, "classic")  # read and checked once, then kept
    return value


@dataclass(frozen=True)
class Reading:
    """What is known of a position: its score for Black (discs), whether that is its exact
    value, whether its result is proven, and Black's win chance (None without a curve)."""

    black_score: float
    exact: bool
    proven: bool
    chance: float | None
    depth: int


class LiveEvaluation:
    """The setting and the analyses kept as readings, by position."""

    def __init__(self) -> None:
        self.setting = "off"
        # By position: its own reading, and the reading of the position after each of its moves.
        self._known: OrderedDict[_Key, tuple[Reading, dict[Move, Reading]]] = OrderedDict()
        # The positions of the line last read (its start, its moves, their keys, its end), so
        # that a move only adds one: the picture is drawn after every change of the game.
        self._line: tuple[_Key, tuple[Move, ...], list[_Key], Board] | None = None

    @property
    def on(self) -> bool:
        return self.setting != "off"

    def record(self, analysis: Analysis) -> None:
        """Keep a finished analysis as the readings of its position and of the positions after its moves."""
        key = (analysis.position, analysis.goal, analysis.scoring)
        after = {entry.move: _move_reading(analysis, entry) for entry in analysis.moves}
        self._known[key] = (_own_reading(analysis), after)
        self._known.move_to_end(key)
        while len(self._known) > MAX_READINGS:
            self._known.popitem(last=False)

    def forget(self) -> None:
        """Other analysis settings: the readings of the old ones are not mixed with the new."""
        self._known.clear()

    def readings(self, board: Board, played: Move | None) -> tuple[Reading | None, Reading | None]:
        """(the reading of ``board`` by its own analysis, the reading of the position after
        ``played`` by the same analysis), either None when not known."""
        return self._readings(_key(board), played)

    def _readings(self, key: _Key, played: Move | None) -> tuple[Reading | None, Reading | None]:
        known = self._known.get(key)
        if known is None:
            return None, None
        own, after = known
        return own, None if played is None else after.get(played)

    def _line_keys(self, session: Session) -> list[_Key]:
        """The key of every position of the line, from its start."""
        root = session.board.root()
        start, moves = _key(root), tuple(session.line)
        cached = self._line
        if cached is None or cached[0] != start or moves[: len(cached[1])] != cached[1]:
            cached = (start, (), [start], root)
        _, done, keys, end = cached
        if len(done) < len(moves):
            keys, end = list(keys), end.copy(stack=False)
            for move in moves[len(done) :]:
                end.push(move)
                keys.append(_key(end))
            self._line = (start, moves, keys, end)
        else:
            self._line = cached
        return keys[: len(moves) + 1]

    def course(self, session: Session) -> tuple[list[float | None], list[bool]]:
        """Black's evaluation of every position of the line (None where none is known), and
        whether each is exact."""
        line = session.line
        seen: list[list[Reading]] = [[] for _ in range(len(line) + 1)]
        for ply, key in enumerate(self._line_keys(session)):
            own, after = self._readings(key, line[ply] if ply < len(line) else None)
            if own is not None:
                seen[ply].append(own)
            if after is not None:
                seen[ply + 1].append(after)
        values: list[float | None] = []
        exact: list[bool] = []
        for readings in seen:
            known = [r for r in readings if r.exact]
            if known:
                values.append(round(known[0].black_score, 2))
            elif readings:
                values.append(round(sum(r.black_score for r in readings) / len(readings), 2))
            else:
                values.append(None)
            exact.append(bool(known))
        return values, exact

    def shown(self, session: Session) -> Reading | None:
        """The reading of the position shown: its own analysis, else the one before it
        (through the move that led here)."""
        board = session.board
        own, _ = self.readings(board, None)
        if own is not None:
            return own
        if not board.move_stack:
            return None
        before = board.copy()
        played = before.pop()
        return self.readings(before, played)[1]


def _key(board: Board) -> _Key:
    rules = board.rules
    return board.to_string(), rules.goal, rules.scoring


def _own_reading(analysis: Analysis) -> Reading:
    best = analysis.best
    proven = best.result == "win" or all(m.proven for m in analysis.moves)
    exact = best.exact and all(m.exact for m in analysis.moves)
    return Reading(_for_black(analysis.turn, best.score), exact, proven, analysis.win_chance, analysis.depth)


def _move_reading(analysis: Analysis, entry: MoveAnalysis) -> Reading:
    """The position after ``entry``'s move, read from the analysis of the position before."""
    empties = analysis.empties - (1 if entry.move else 0)
    chance = black_win_chance(analysis.turn, entry.score, empties, analysis.size, analysis.goal, [entry.result])
    return Reading(_for_black(analysis.turn, entry.score), entry.exact, entry.proven, chance, entry.depth)


def _for_black(turn: Color, score: float) -> float:
    return score if turn == BLACK else -score


def live_wanted(session: Session, live: LiveEvaluation) -> bool:
    """Whether the position shown is to be analysed for the live evaluation: the setting is
    on, the board shows a position of the game that has moves, and no computer is thinking
    (its search keeps the machine; the bar shows the reading of the move that led here)."""
    board = session.board
    return (
        live.on
        and session.editor is None
        and session.practice is None
        and session.pending is None
        and not hides_answer(session)
        and not board.is_game_over()
        and not board.in_placement()
    )


def live_picture(
    session: Session, live: LiveEvaluation, course_exact: list[bool], busy: bool, language: str
) -> dict[str, object]:
    """The ``live`` trait (js/PROTOCOL.md): the bar's fill (Black's share), its words, and
    whether each value of the course is exact (``course_exact``, from ``course``); ``{}``
    when the setting is off or the board shows no position of the game."""
    board = session.board
    if not live.on or session.editor is not None or hides_answer(session) or board.in_placement():
        return {}
    outcome = board.outcome()
    reading = live.shown(session)
    if outcome is not None:  # the end: the result itself, scored as the analysis scores (good for Black)
        margin = outcome.black - outcome.white
        won = 0.5 if outcome.winner is None else 1.0 if outcome.winner == BLACK else 0.0
        good = margin if board.rules.goal == "classic" else -margin
        reading = Reading(float(good), True, True, won, 0)
    out: dict[str, object] = {"mode": live.setting, "course_exact": course_exact, "ply": board.ply}
    if reading is None:
        out.update(
            known=False, black=0.5, text="", note=translate("live_waiting" if busy else "live_unknown", language)
        )
        return out
    chance = reading.chance
    fill = chance if chance is not None else 0.5 + max(-0.5, min(0.5, reading.black_score / (2 * board.size**2)))
    if live.setting == "chance" and chance is not None:
        text = translate(
            "live_chance", language, color=translate("black", language), percent=_percent(chance, reading.proven)
        )
    else:
        text = translate("live_score", language, color=translate("black", language), margin=_margin(reading))
    note = (
        "live_exact"
        if reading.exact or (reading.proven and live.setting == "chance")
        else ("live_proven" if reading.proven else "live_estimate")
    )
    out.update(known=True, black=round(fill, 4), text=text, note=translate(note, language, depth=reading.depth))
    return out


def _percent(chance: float, proven: bool) -> str:
    """A chance in whole percent: 0 and 100 only when the result is proven, never from an estimate."""
    percent = round(chance * 100)
    return str(percent if proven else max(1, min(99, percent)))


def _margin(reading: Reading) -> str:
    """Black's score in discs: ``+4``, ``-2``, ``0``; ``≥+6`` for a proven win by at least that."""
    margin = round(reading.black_score)
    signed = f"{margin:+d}" if margin else "0"
    if reading.proven and not reading.exact and margin:
        return ("≥" if margin > 0 else "≤") + signed
    return signed
