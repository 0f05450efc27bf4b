"""The analysis aids: a hint, the score overlay and the game review.

Each result belongs to what it analysed and is never shown stale. A hint and the scores
belong to one position under one set of analysis settings (an ``AidKey``: the session's
generation and the settings' epoch); a review belongs to one line of moves (the session's
``line_id``). The analyses themselves run elsewhere (see ``workers``): ``due`` says which
to start now, and their results come back through ``analysis_done``/``review_done``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..analysis import Analysis, analyse
from ..errors import ReversiError
from ..game_review import MoveReview, review, review_totals
from ..progress import Progress
from ..search import StopSignal
from ..search.root import MoveAnalysis
from ..squares import BLACK, WHITE
from .exploring import ExplorerPanel
from .live import LiveEvaluation, live_wanted
from .puzzling import hides_answer
from .session import Session
from .texts import Listed, Plain, Refusal, Text, color_text, discs_text, margin_text, player_title

__all__ = ["AidKey", "Aids", "AnalysisRefusedError", "Job"]

#: What a position's analysis belongs to: the session's generation and the settings' epoch.
AidKey = tuple[int, int]


class AnalysisRefusedError(ReversiError):
    """A hint or a review asked for when there is nothing to analyse (the game is over,
    a computer is to move, the game is not finished yet...)."""


@dataclass(frozen=True, eq=False)
class Job:
    """An analysis to run away from the game: ``compute`` (which reports progress to
    ``record``), then ``finish`` with the result, ``None`` when it was stopped, or the
    exception it raised. Once ``alive`` says its result is no longer wanted, ``stop`` is
    halted, and the search inside ``compute`` ends at its next look at it."""

    name: str  # "analysis" or "review"
    compute: Callable[[Progress], Any]
    alive: Callable[[], bool]
    record: Callable[[float], None]
    finish: Callable[[Any], None]
    stop: StopSignal
    background: bool = False  # only the live evaluation wants it: it yields to the game (workers)


class Aids:
    """What the hint, the scores and the review were asked for, their results and their jobs."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.show_scores = False
        self.concept = ""  # the concept overlay's setting (play/overlays.py)
        self.explorer = ExplorerPanel()  # the Explorer panel's index, and the games it loads
        self.live = LiveEvaluation()  # the live evaluation's setting and readings (play/live.py)
        self.depth: int | None = None  # analysis_depth and analysis_time_limit (None: analyse's defaults)
        self.time_limit: float | None = None
        self.epoch = 0  # bumped when the analysis settings change
        self.hint_for: AidKey | None = None  # the position a hint was asked for
        self.analysis: tuple[AidKey, Analysis] | None = None
        self.analysis_job: AidKey | None = None  # the position a worker is analysing
        self.analysis_failed: AidKey | None = None  # not retried for this position
        self.review_asked: int | None = None  # the line a review was asked for and not yet started
        self.reviewed: tuple[int, list[MoveReview]] | None = None
        self.review_job: int | None = None  # the line a worker is reviewing
        self.progress: dict[str, float] = {}  # "analysis" / "review" -> fraction done

    # -- what belongs to what is shown ------------------------------------------------------

    def key(self) -> AidKey:
        """What an analysis started now belongs to: this position, these settings."""
        return self.session.generation, self.epoch

    def busy(self) -> bool:
        return self.analysis_job is not None or self.review_job is not None

    def current_analysis(self) -> Analysis | None:
        """The analysis of the position shown: on a reviewed line the one the review read its
        verdict from (so a mark and the scores on the board agree), else this position's own."""
        entry = self.reviewed_here()
        if entry is not None and entry.analysis is not None:
            return entry.analysis
        if self.analysis is not None and self.analysis[0] == self.key():
            return self.analysis[1]
        return None

    def reviewed_here(self) -> MoveReview | None:
        """The review's verdict on the move played from the position shown, when that
        position is on the reviewed line."""
        reviews = self.current_review()
        ply = self.session.board.ply
        return None if reviews is None or ply >= len(reviews) else reviews[ply]

    def reviewed_last(self) -> MoveReview | None:
        """The review's verdict on the move that led to the position shown (the list's
        current move), when that move is on the reviewed line."""
        reviews = self.current_review()
        ply = self.session.board.ply
        return None if reviews is None or not 1 <= ply <= len(reviews) else reviews[ply - 1]

    def current_review(self) -> list[MoveReview] | None:
        if self.reviewed is not None and self.reviewed[0] == self.session.line_id:
            return self.reviewed[1]
        return None

    def scores_wanted(self) -> bool:
        board = self.session.board
        return (
            self.show_scores
            and self.session.human_to_move()
            and not hides_answer(self.session)
            and self.session.editor is None
            and not board.is_game_over()
            and not board.in_placement()
            and not board.must_pass()
        )

    def shown_wanted(self) -> bool:
        """The score overlay or a hint needs the analysis of the position shown (its progress is shown)."""
        return self.scores_wanted() or (self.hint_for == self.key() and self.hint_refusal() is None)

    def analysis_wanted(self) -> bool:
        """The score overlay, a hint or the live evaluation needs the analysis of the position shown."""
        return self.shown_wanted() or live_wanted(self.session, self.live)

    def settings_changed(self) -> None:
        """Other settings, other scores: what was analysed is redone when still wanted."""
        self.epoch += 1
        self.live.forget()

    # -- actions ------------------------------------------------------------------------------

    def hint(self) -> Refusal | None:
        """Ring the best move(s) of this position: at once if it is analysed, else once it is."""
        refusal = self.hint_refusal()
        if refusal is not None:
            return refusal
        key = self.key()
        self.hint_for = key
        if self.analysis_failed == key:
            self.analysis_failed = None  # asked again: try again
        analysis = self.current_analysis()
        if analysis is not None:
            self.session.notify("info", self.hint_text(analysis))
        return None

    def hint_refusal(self) -> Refusal | None:
        """Why no hint can be given now (None when it can)."""
        session = self.session
        board = session.board
        waiting = session.practice_waiting(AnalysisRefusedError)
        if waiting is not None:
            return waiting
        if board.is_game_over():
            return Refusal(Text("notice_refused_hint_over"), AnalysisRefusedError)
        computer = session.players[board.turn]
        if computer is not None:
            text = Text("notice_refused_hint_computer", color=color_text(board.turn), player=player_title(computer))
            return Refusal(text, AnalysisRefusedError)
        if board.in_placement():
            return Refusal(Text("notice_refused_hint_placement"), AnalysisRefusedError)
        if board.must_pass():
            return Refusal(Text("notice_refused_hint_pass", color=color_text(board.turn)), AnalysisRefusedError)
        return None

    def review(self) -> Refusal | None:
        """Review the whole line, once it reaches the end of the game."""
        session = self.session
        if not session.line:
            return Refusal(Text("notice_refused_review_empty"), AnalysisRefusedError)
        if not session.line_finished():
            return Refusal(Text("notice_refused_review_unfinished"), AnalysisRefusedError)
        line_id = session.line_id
        if self.review_job != line_id and self.current_review() is None:
            self.review_asked = line_id
        return None

    # -- the jobs -----------------------------------------------------------------------------

    def due(self) -> list[Job]:
        """The analyses to start now: a review asked for, and the analysis of the position
        when a hint or the overlay needs it and neither its result nor a job for it exists."""
        jobs = []
        session = self.session
        if self.review_asked is not None:
            line_id, self.review_asked = self.review_asked, None
            if line_id == session.line_id:
                jobs.append(self._review_job(line_id))
        key = self.key()
        idle = key not in (self.analysis_job, self.analysis_failed) and self.current_analysis() is None
        if idle and self.analysis_wanted():
            jobs.append(self._analysis_job(key))
        return jobs

    def _analysis_job(self, key: AidKey) -> Job:
        self.analysis_job = key
        self.progress["analysis"] = 0.0
        board = self.session.board.copy(stack=False)
        depth, limit = self.depth, self.time_limit
        entry = self.reviewed_here()
        if entry is not None and entry.exact and entry.analysis is None:
            # The review solved this position: the scores are solved too, so they agree with it.
            depth, limit = board.empty_count(), None
        stop = StopSignal()

        def compute(progress: Progress) -> Analysis:
            return analyse(board, depth=depth, time_limit=limit, progress=progress, stop=stop)

        # Stale once the position changes, or once neither the scores nor a hint want it.
        alive = lambda: self.key() == key and self.analysis_wanted()  # noqa: E731
        background = not self.shown_wanted()
        return Job("analysis", compute, alive, self._recorder("analysis"), self._analysed(key), stop, background)

    def _analysed(self, key: AidKey) -> Callable[[Any], None]:
        def finish(result: Analysis | Exception | None) -> None:
            if self.analysis_job == key:
                self.analysis_job = None
            if isinstance(result, Analysis) and key[1] == self.epoch:
                self.live.record(result)  # a reading of its position, even once the game moved on
            if self.key() != key:
                return  # the position has moved on: none of this is shown
            if isinstance(result, Exception):
                self.analysis_failed = key
                self.session.notify("error", Text("notice_analysis_failed", error=str(result)))
            elif result is not None:
                self.analysis = (key, result)
                if self.hint_for == key:
                    self.session.notify("info", self.hint_text(result))

        return finish

    def _review_job(self, line_id: int) -> Job:
        self.review_job = line_id
        self.progress["review"] = 0.0
        board = self.session.whole_line()
        depth, limit = self.depth, self.time_limit
        stop = StopSignal()

        def compute(progress: Progress) -> list[MoveReview]:
            return review(board, depth=depth, time_limit=limit, progress=progress, stop=stop)

        def finish(result: list[MoveReview] | Exception | None) -> None:
            if self.review_job == line_id:
                self.review_job = None
            if self.session.line_id != line_id:
                return
            if isinstance(result, Exception):
                self.session.notify("error", Text("notice_analysis_failed", error=str(result)))
            elif result is not None:
                self.reviewed = (line_id, result)
                self.session.notify("info", review_done_text(result))

        alive = lambda: self.session.line_id == line_id  # noqa: E731
        return Job("review", compute, alive, self._recorder("review"), finish, stop)

    def _recorder(self, name: str) -> Callable[[float], None]:
        def record(fraction: float) -> None:
            self.progress[name] = fraction

        return record

    # -- texts --------------------------------------------------------------------------------

    def hint_text(self, analysis: Analysis) -> Text:
        best = best_moves(analysis)
        return Text(
            "notice_hint",
            color=color_text(self.session.board.turn),
            moves=Listed(tuple(str(entry.move) for entry in best)),
            score=margin_text(best[0].score, best[0].exact, best[0].bound),
        )


def best_moves(analysis: Analysis) -> list[MoveAnalysis]:
    top = analysis.best.score
    return [entry for entry in analysis.moves if entry.move and entry.score == top]


def review_done_text(reviews: list[MoveReview]) -> Text:
    """What a finished review found: the discs each side gave away where the scores are
    exact (they add up: see ``analysis.ReviewTotals``), from which move on that is, and
    before it the marked moves of each side (estimates are not added up)."""
    totals = review_totals(reviews)
    colors = {"black": color_text(BLACK), "white": color_text(WHITE)}
    exact = {
        "black_loss": discs_text(totals.exact_loss[BLACK], True),
        "white_loss": discs_text(totals.exact_loss[WHITE], True),
    }
    marked = {"black_marks": totals.marked[BLACK], "white_marks": totals.marked[WHITE]}
    if totals.exact_from is None:
        found = Text("review_totals_estimates", **colors, **marked)
    elif totals.exact_from == min((r.ply for r in reviews if not r.forced), default=totals.exact_from):
        found = Text("review_totals_exact", **colors, **exact)
    else:
        first = reviews[totals.exact_from - 1]
        move = Plain(first.label)
        found = Text("review_totals_exact_from", move=move, color=color_text(first.color), **colors, **exact, **marked)
    return Text("notice_review_done", found=found)
