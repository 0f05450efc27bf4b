"""The analysis aids in the widget: the engine's levels as players, hints, the score
overlay, the game review and pausing, each never shown stale."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

from reversi_widget import Board, Rules
from reversi_widget.play.texts import discs_text, margin_text
from reversi_widget.players import (
    GreedyPlayer,
    RandomPlayer,
    make_player,
)
from reversi_widget.widget import (
    ReversiWidget,
)
from tests.support import (
    END_33_29,
    PASS_LINE,
    Capture,
    Gate,
    click,
    join_workers,
    send,
    snapshot,
    widget,
)

# -- the engine's levels, hints, scores, review, pause -----------------------------------------


def test_named_levels_are_engines_with_translated_labels() -> None:
    from reversi_widget.engine import Engine

    for name, level in Engine.LEVELS.items():
        player = make_player(name)
        assert isinstance(player, Engine) and player.level == level
        assert make_player(name) is not player  # each widget side gets its own engine
    for level in range(1, 8):
        player = make_player(f"level-{level}")
        assert isinstance(player, Engine) and player.level == level
    w = ReversiWidget(white="expert", black="level-6", paused=True)
    assert w.players == {"black": "Computer (level 6)", "white": "Computer (expert)"}
    assert w.status == "Black (level 6) to move, paused" and w.can_pause
    w.language = "pl"
    assert w.players == {"black": "Komputer (poziom 6)", "white": "Komputer (ekspert)"}
    w.language = "uk"
    assert w.players["white"] == "Комп'ютер (експерт)"
    w.white = "beginner"
    assert w.players["white"] == "Комп'ютер (початківець)"


def test_a_beginner_replies_to_a_human() -> None:
    w, _ = widget(white="beginner")
    assert w.players["white"] == "Computer (beginner)"
    click(w, "d3")
    assert w.wait(5)
    assert w.ply == 2 and w.turn == "black" and w.moves[1] in {"c3", "e3", "c5"}
    assert w.board.transcript() == "d3" + w.moves[1]


def best_names(board: Board, depth: int) -> tuple[list[str], str]:
    """The best moves of ``analyse(board, depth)`` and the score of the best."""
    from reversi_widget.analysis import analyse

    analysis = analyse(board, depth=depth)
    best = analysis.best
    names = [str(m.move) for m in analysis.moves if m.score == best.score]
    return names, margin_text(best.score, best.exact, best.bound).render("en")


def test_a_hint_intent_rings_the_best_moves_of_the_position() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
    w, sent = widget(board=board, analysis_depth=3)
    assert w.hints == [] and w.busy == ""
    send(w, {"kind": "hint", "ply": 9})
    assert w.wait(5)
    best, score = best_names(board, 3)
    assert w.hints == best and set(best) <= set(w.legal)
    assert w.notice == f"Hint for White: {', '.join(best)} ({score})" and w.notice_kind == "info"
    assert sent.updates()["hints"] == best and w.busy == ""
    assert all(m["kind"] != "refused" for m in sent.custom())
    w.language = "pl"
    assert w.notice.startswith("Podpowiedź (Białe): ")
    # the ring belongs to this position: a move takes it away, undo does not bring it back
    w.play(best[0])
    assert w.hints == []
    w.undo()
    assert w.hints == [] and w.ply == 9
    w.hint()  # from Python too
    assert w.wait(5) and w.hints == best


HINT_REFUSALS = [
    ("game over", {"board": END_33_29}, None, "the game is over; there is no move to hint"),
    ("free start", {"rules": Rules(start="free")}, None, "no hint during the free start"),
    ("stale ply", {}, {"kind": "hint", "ply": 3}, "made at ply 3 but the game is at ply 0"),
    ("ply as string", {}, {"kind": "hint", "ply": "0"}, "ply must be an integer"),
    ("extra field", {}, {"kind": "hint", "ply": 0, "square": "d3"}, "exactly the fields kind, ply"),
]


@pytest.mark.parametrize(
    ("kwargs", "content", "reason"), [r[1:] for r in HINT_REFUSALS], ids=[r[0] for r in HINT_REFUSALS]
)
def test_a_hint_is_refused_when_there_is_nothing_to_hint(
    kwargs: dict[str, Any], content: dict[str, Any] | None, reason: str
) -> None:
    from reversi_widget.widget import AnalysisRefusedError

    w, sent = widget(**kwargs)
    before = snapshot(w)
    send(w, content or {"kind": "hint", "ply": w.ply})
    assert reason in w.notice and w.notice_kind == "error"
    assert snapshot(w) == before and w._workers.threads == set()  # nothing was started
    assert sent.custom()[-1] == {"kind": "refused", "reason": w.notice}
    if content is None:  # the position itself has no hint: Python's hint() says the same
        with pytest.raises(AnalysisRefusedError, match=reason.split(";")[0]):
            w.hint()
        assert snapshot(w) == before


def test_a_hint_is_refused_for_a_computer_a_forced_pass_and_a_waiting_practice_disc() -> None:
    from reversi_widget.widget import AnalysisRefusedError

    gate = Gate()
    w, _ = widget(white=gate)
    click(w, "d3")
    assert gate.started.wait(5)
    send(w, {"kind": "hint", "ply": 1})
    assert "hints are for a human's turn, and the computer (gate) plays White" in w.notice
    gate.release.set()
    assert w.wait(5)
    w, _ = widget(board=PASS_LINE)
    click(w, "f2")  # the opponent must pass: the widget passed; go back to see that position
    w.jump(w.ply - 1)
    colour = w.turn.capitalize()
    assert w.legal == {} and w.moves[w.ply] == "pass"
    with pytest.raises(AnalysisRefusedError, match=f"{colour} has no legal move; the only move is to pass"):
        w.hint()
    w, _ = widget(practice=True)
    click(w, "d3")
    send(w, {"kind": "hint", "ply": 0})
    assert "first finish the flips of d3" in w.notice and w.hints == []


def score_text(entry: Any) -> str:
    """How the overlay writes one of ``analyse()``'s scores (English)."""
    margin = round(entry.score)
    if entry.bound:
        return f"W≥+{margin}" if margin > 0 else f"L≤{margin}"
    if entry.exact:
        return f"W+{margin}" if margin > 0 else f"L{margin}" if margin < 0 else "D"
    return f"{margin:+d}" if margin else "0"


# 4x4, Black to move, 8 empties: at depth 7, a3 is proven to win, by 1 disc as far as the
# search sees; solved, it wins by 6.
PROVEN_SHORT_OF_THE_END = "c4b4a1b1"


def test_a_win_proven_short_of_the_end_is_said_with_its_margin_as_a_bound() -> None:
    from reversi_widget import solve

    board = Board.from_transcript(PROVEN_SHORT_OF_THE_END, rules=Rules(size=4))
    w, _ = widget(board=board, analysis_depth=7, show_scores=True)
    w.hint()
    assert w.wait(10)
    assert w.hints == ["a3"] and w.notice == "Hint for Black: a3 (ahead by at least 1 disc)"
    assert w.scores["a3"] == "W≥+1"
    after = board.copy()
    after.push("a3")
    assert -solve(after).score == 6  # the truth is above the bound, never below
    w.language = "ca"
    assert w.scores["a3"] == "G≥+1" and "almenys 1 peça d'avantatge" in w.notice
    w.analysis_depth = None  # the default solves these 8 empties: the margin is exact now
    assert w.wait(10) and w.scores["a3"] == "G+6"


# A game near its end: 10 empty squares, White to move, solved exactly by default.
ENDGAME = "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3a7g5g8c2h4g3a2h3c1d1d2e1f1f7a6h6e2b8"


@pytest.mark.parametrize(("transcript", "depth"), [("f5d6c3d3c4f4c5b3c2", 3), (ENDGAME, None)])
def test_show_scores_writes_every_legal_moves_score_from_analyse(transcript: str, depth: int | None) -> None:
    from reversi_widget.analysis import analyse

    board = Board.from_transcript(transcript)
    w, sent = widget(board=board, show_scores=True, analysis_depth=depth)
    assert w.wait(10)
    analysis = analyse(board, depth=depth)
    assert set(w.scores) == set(w.legal) == {str(m) for m in board.legal_moves}
    assert w.scores == {str(e.move): score_text(e) for e in analysis.moves}
    assert next(iter(w.scores)) == str(analysis.best.move)  # best first, for the front end
    assert sent.updates()["scores"] == w.scores
    if depth is None:  # solved: every score a proven result, its margin the solver's
        assert analysis.exact and all(text[0] in "WLD" for text in w.scores.values())
        w.language = "uk"
        assert all(text[0] in "ВПН" for text in w.scores.values())
    # hidden from the front end's toggle, and shown again
    w.set_state({"show_scores": False})
    assert w.scores == {} and not w.show_scores and w.notice == ""
    w.set_state({"show_scores": True})
    assert w.wait(10) and set(w.scores) == set(w.legal)


def test_scores_only_on_a_humans_turn_and_never_for_a_past_position() -> None:
    gate = Gate()
    w, _ = widget(white=gate, show_scores=True, analysis_depth=2)
    assert w.wait(5) and set(w.scores) == {"d3", "c4", "f5", "e6"}
    click(w, "d3")
    assert gate.started.wait(5) and w.scores == {} and w.busy == ""
    gate.release.set()
    assert w.wait(5) and w.ply == 2
    board = w.board
    assert set(w.scores) == {str(m) for m in board.legal_moves}
    w.set_state({"show_scores": "yes"})  # refused, like every setting with a wrong type
    assert w.show_scores and "Refused setting show_scores" in w.notice


class HeldAnalysis:
    """Stands in for ``analyse`` in the widget: each call waits for the test, then returns
    the real analysis of the position it was given (at depth 2)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[str] = []
        self.started = threading.Semaphore(0)

    def __call__(
        self, board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None
    ) -> Any:
        from reversi_widget.analysis import analyse

        self.calls.append(board.to_string())
        self.started.release()
        assert self.release.wait(5)
        return analyse(board, depth=2)


def test_a_stale_hint_or_score_result_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget.analysis import analyse
    from reversi_widget.play import aids as aids_module

    held = HeldAnalysis()
    monkeypatch.setattr(aids_module, "analyse", held)
    w, sent = widget(show_scores=True)
    w.hint()  # the analysis already running for the scores serves the hint too
    assert held.started.acquire(timeout=5) and w.busy == "hint"
    start = Board().to_string()
    w.play("d3")  # the position changes while the analysis of the start runs
    assert held.started.acquire(timeout=5)  # the new position's analysis has begun
    assert w.busy == "scores" and w.hints == [] and w.scores == {}
    sent.clear()
    held.release.set()
    join_workers(w)
    assert held.calls == [start, Board.from_transcript("d3").to_string()]
    after = Board.from_transcript("d3")
    assert w.hints == []  # the hint was for the start: never shown
    assert w.scores == {str(e.move): score_text(e) for e in analyse(after, depth=2).moves}
    assert set(w.scores) == {"c3", "e3", "c5"}
    assert not w.notice.startswith("Hint")
    shown = [m["state"].get("hints") for m in sent.messages if m.get("method") == "update"]
    assert all(not hints for hints in shown if hints is not None)


@pytest.mark.parametrize("trigger", ["a move", "scores hidden"])
def test_a_stale_analysis_is_cancelled_at_its_next_progress_report(
    monkeypatch: pytest.MonkeyPatch, trigger: str
) -> None:

    from reversi_widget.analysis import analyse
    from reversi_widget.play import aids as aids_module

    started, stopped = threading.Event(), threading.Event()
    calls = []

    def endless(board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None) -> Any:
        calls.append(board.ply)
        if len(calls) > 1:
            return analyse(board, depth=1)
        started.set()
        try:
            while True:  # only a stale position stops it
                progress(0.25, "working")
                time.sleep(0.01)
        except BaseException:
            stopped.set()
            raise

    monkeypatch.setattr(aids_module, "analyse", endless)
    w, _ = widget(show_scores=True)
    assert started.wait(5)
    deadline = time.monotonic() + 5
    while w.progress != 0.25 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (w.busy, w.progress) == ("scores", 0.25)
    if trigger == "a move":
        click(w, "d3")
        assert stopped.wait(5)
        assert w.wait(5) and w.busy == "" and set(w.scores) == {"c3", "e3", "c5"}
    else:
        w.set_state({"show_scores": False})  # the toggle: nobody wants the analysis now
        assert w.busy == "" and stopped.wait(5)
        assert w.wait(5) and w.scores == {} and calls == [0]
    join_workers(w)


class Watched:
    """The real ``analyse`` or ``review`` for the widget, noting when each progress report
    comes and how the call ends."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.reports: list[float] = []  # time.monotonic() of each report
        self.ended = threading.Event()
        self.raised: list[BaseException] = []

    def __call__(self, board: Board, *args: Any, progress: Any = None, stop: Any = None, **kwargs: Any) -> Any:
        def report(fraction: float, message: str) -> None:
            self.reports.append(time.monotonic())
            progress(fraction, message)

        try:
            return self.real(board, *args, progress=report, stop=stop, **kwargs)
        except BaseException as error:
            self.raised.append(error)
            raise
        finally:
            self.ended.set()

    def wait_inside_a_search(self, seconds: float) -> None:
        """Until ``seconds`` have passed since the last report: deep inside one root move."""
        until = time.monotonic() + 120
        while not (self.reports and time.monotonic() - self.reports[-1] > seconds):
            assert time.monotonic() < until and not self.ended.is_set()
            time.sleep(0.01)


def use_path(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget import native
    from tests.native_support import require_compiled

    if path == "pure":
        native.wait("midgame")  # a warm-up under way that saw the variable would give up for good
        monkeypatch.setenv(native.PURE_ENV, "1")
    else:
        require_compiled("midgame")
        require_compiled("endgame")


@pytest.mark.parametrize("path", ["pure", "compiled"])
@pytest.mark.parametrize("trigger", ["a move", "scores hidden"])
def test_a_stale_analysis_stops_in_the_middle_of_its_search(
    monkeypatch: pytest.MonkeyPatch, path: str, trigger: str
) -> None:
    from reversi_widget.analysis import analyse
    from reversi_widget.play import aids as aids_module
    from reversi_widget.search import SearchTimeout

    use_path(path, monkeypatch)
    watched = Watched(analyse)
    monkeypatch.setattr(aids_module, "analyse", watched)
    w, _ = widget(show_scores=trigger == "scores hidden", analysis_depth=40)
    if trigger == "a move":
        w.hint()  # for the start only: after a move nothing wants it
    watched.wait_inside_a_search(0.5)
    (job,) = w._workers.jobs
    reports = len(watched.reports)
    if trigger == "a move":
        click(w, "d3")
    else:
        w.set_state({"show_scores": False})
    assert job.stop.halted  # by the very operation that made it stale
    assert watched.ended.wait(5) and isinstance(watched.raised[0], SearchTimeout)
    assert len(watched.reports) == reports  # it never finished the root move it was in
    assert w.wait(5) and w.busy == "" and w._workers.jobs == []
    assert w.hints == [] and w.scores == {} and "failed" not in w.notice
    join_workers(w)


@pytest.mark.parametrize("path", ["pure", "compiled"])
def test_a_stale_review_stops_in_the_middle_of_its_search(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    from reversi_widget.analysis import review
    from reversi_widget.play import aids as aids_module
    from reversi_widget.search import SearchTimeout

    use_path(path, monkeypatch)
    watched = Watched(review)
    monkeypatch.setattr(aids_module, "review", watched)
    w, _ = finished_game()
    w.analysis_depth = 40  # every position estimated to depth 40: far more than the test waits
    w.review()
    watched.wait_inside_a_search(0.5)
    (job,) = w._workers.jobs
    reports = len(watched.reports)
    send(w, {"kind": "new_game", "ply": w.ply})
    assert job.stop.halted
    assert watched.ended.wait(5) and isinstance(watched.raised[0], SearchTimeout)
    assert len(watched.reports) == reports
    assert w.wait(5) and w.busy == "" and w.review_moves == [] and "failed" not in w.notice
    join_workers(w)


def finished_game(**kwargs: Any) -> tuple[ReversiWidget, Capture]:
    w, sent = widget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2), **kwargs)
    assert w.wait(10) and w.game_over
    return w, sent


def test_review_scores_every_move_with_its_loss_marks_and_chart() -> None:
    from reversi_widget.analysis import review
    from reversi_widget.play.aids import review_done_text

    w, sent = finished_game(analysis_depth=3)
    assert w.can_review and w.review_moves == [] and w.evaluations == []
    send(w, {"kind": "review", "ply": w.ply})
    assert w.wait(10)
    expected = review(w.board, depth=3)
    entries = w.review_moves
    assert [e["ply"] for e in entries] == list(range(1, len(w.moves) + 1))
    assert [e["move"] for e in entries] == w.moves
    assert all(e["loss"] >= 0 for e in entries)
    assert [e["loss"] for e in entries] == [round(r.loss, 1) for r in expected]
    assert [e["best"] for e in entries] == [str(r.best) for r in expected]
    for e in entries:
        least = {"??": 12, "?": 6, "?!": 2, "": 0}[e["mark"]]
        assert e["loss"] >= least and not (e["mark"] == "" and e["loss"] >= 2)
        how = " (exact)" if e["exact"] else " (estimate)"  # each note says which it is
        if e["forced"]:
            assert e["note"] == "forced" and e["mark"] == ""
        elif e["loss"] == 0:
            assert e["note"] == "best move" + how
        else:
            assert e["note"] == f"best: {e['best']}, lost {discs_text(e['loss'], e['exact']).render('en')}{how}"
            assert re.fullmatch(r"best: \w+, lost (about )?\d+ discs? \((exact|estimate)\)", e["note"])
    assert {e["exact"] for e in entries if not e["forced"]} == {True, False}  # the end is solved
    assert any(e["mark"] for e in entries)  # a random player makes mistakes
    assert any(e["move"] == "pass" and e["forced"] for e in entries)  # this game has a pass
    # the chart: every position from Black's side, the mean of its two readings (the score of
    # the move to it, and of its own best move) or the exact one; a forced move keeps the value
    values = [value for value in w.evaluations if value is not None]
    assert len(values) == len(w.evaluations)  # a reviewed line has every value
    assert len(values) == len(w.moves) + 1

    def black(e: dict[str, Any], key: str) -> float:
        return float(e[key] if e["color"] == "black" else -e[key])

    for i in range(1, len(values)):
        came, here = entries[i - 1], entries[i] if i < len(entries) else None
        readings = [] if came["forced"] else [(black(came, "score"), came["exact"])]
        if here is not None and not here["forced"]:
            readings.append((black(here, "best_score"), here["exact"]))
        if not readings:
            assert values[i] == values[i - 1]
            continue
        exact = [value for value, proven in readings if proven]
        expected_value = exact[0] if exact else sum(value for value, _ in readings) / len(readings)
        assert abs(values[i] - expected_value) <= 0.011, (i, values[i], readings)
    outcome = w.board.outcome()
    last = [e for e in entries if not e["forced"]][-1]  # solved exactly: 3 plies reach the end
    assert outcome is not None and w.board.empty_count() == 0 and last["exact"]
    assert values[-1] == outcome.black - outcome.white
    assert sent.updates()["review_moves"] == entries and w.busy == ""
    assert w.notice.startswith("Review done.") and w.notice_kind == "info"
    first_exact = min(e["ply"] for e in entries if e["exact"])
    assert all(e["exact"] for e in entries[first_exact - 1 :] if not e["forced"])
    first = entries[first_exact - 1]
    label = f"{(first_exact + 1) // 2}{'.' if first_exact % 2 else '...'} {first['move']}"  # as the move list has it
    assert first["label"] == label
    assert f"Scores are exact from {label} ({first['color'].capitalize()}) on: from there, given away" in w.notice
    # kept while navigating the reviewed game, retranslated, gone once the line changes
    w.jump(10)
    assert w.review_moves == entries
    w.language = "pl"
    notes = {e["note"] for e in w.review_moves}
    assert {"najlepszy ruch (dokładnie)", "najlepszy ruch (szacunkowo)"} & notes
    assert f"Oceny są dokładne od ruchu {label} (" in review_done_text(expected).render("pl")
    w.white = "human"
    w.black = "human"
    w.play(next(iter(w.board.legal_moves)))
    assert w.review_moves == [] and w.evaluations == [] and not w.can_review


@pytest.mark.parametrize(
    ("exact", "bound", "score", "loss", "english"),
    [
        (True, False, 4.0, 0.0, "best move (exact)"),
        (True, False, -2.0, 6.0, "best: c4, lost 6 discs (exact)"),
        (False, True, 6.0, 0.0, "best move (a proven win, by at least 6 discs)"),
        (False, True, -3.0, 0.0, "best move (a proven loss, by at least 3 discs)"),
        (False, False, 1.5, 3.6, "best: c4, lost about 4 discs (estimate)"),
    ],
)
def test_each_reviewed_move_says_how_sure_its_scores_are(
    exact: bool, bound: bool, score: float, loss: float, english: str
) -> None:
    from reversi_widget import BLACK, Move
    from reversi_widget.analysis import MoveReview
    from reversi_widget.i18n import LANGUAGES
    from reversi_widget.play.view import review_entry

    played, best = Move.from_name("d3"), Move.from_name("c4" if loss else "d3")
    entry = MoveReview(5, BLACK, played, best, score, score + loss, loss, exact, False, bound)
    shown = review_entry(entry, "en")
    assert shown["note"] == english and (shown["exact"], shown["bound"]) == (exact, bound)
    notes = {language: review_entry(entry, language)["note"] for language in LANGUAGES}
    assert len(set(notes.values())) == len(LANGUAGES)  # said in each language
    said = {"exact": f" {score:+g} exact: ", "bound": f" {'>=' if score > 0 else '<='}{score:+g} proven: "}
    assert said.get("exact" if exact else "bound" if bound else "", f" {score:+g} estimate: ") in str(entry)


EXACT_FROM_3 = (
    "Scores are exact from 2. d3 (Black) on: from there, given away against perfect play: Black {} discs, "
    "White 2 discs. Before it they are estimates, which are not added up; marked moves: Black 1, White {}."
)
THEN = "Click a move in the list to see its position, with the best move marked on the board."


@pytest.mark.parametrize(
    ("exact", "english"),
    [
        ("EEEE", "Every score is exact. Given away against perfect play: Black 4 discs, White 4 discs."),
        ("eeEE", EXACT_FROM_3.format(2, 1)),
        ("EeEE", EXACT_FROM_3.format(2, 1)),
        ("EEEe", "The scores are estimates, which are not added up; marked moves: Black 2, White 2."),
        ("eFEE", EXACT_FROM_3.format(2, 0)),
        ("eeeF", "The scores are estimates, which are not added up; marked moves: Black 2, White 1."),
    ],
)
def test_the_review_notice_adds_up_only_exact_losses_and_says_from_which_move(exact: str, english: str) -> None:
    """E: an exact move, e: an estimate, F: a forced move (not scored, so it does not count);
    each scored move gave away 2 discs (a ?!). The exact stretch is named as the move list
    names its first move ("2. d3", not ply 3), its losses are added up; the estimates before
    it are counted as marked moves, never added up."""
    from reversi_widget import BLACK, WHITE, Move
    from reversi_widget.analysis import MoveReview
    from reversi_widget.play.aids import review_done_text

    move = Move.from_name("d3")
    reviews = [
        MoveReview(
            ply,
            BLACK if ply % 2 else WHITE,
            move,
            move,
            0.0,
            2.0 * (kind != "F"),
            2.0 * (kind != "F"),
            kind == "E",
            kind == "F",
        )
        for ply, kind in enumerate(exact, 1)
    ]
    assert review_done_text(reviews).render("en") == f"Review done. {english} {THEN}"
    assert len({review_done_text(reviews).render(language) for language in ("en", "ca", "pl", "uk")}) == 4


def test_review_is_refused_before_the_game_ends() -> None:
    from reversi_widget.widget import AnalysisRefusedError

    w, _ = widget()
    assert not w.can_review
    send(w, {"kind": "review", "ply": 0})
    assert "no move to review yet" in w.notice
    w.play("d3")
    before = snapshot(w)
    send(w, {"kind": "review", "ply": 1})
    assert "the review comes once the game is over" in w.notice and snapshot(w) == before
    with pytest.raises(AnalysisRefusedError, match="once the game is over"):
        w.review()
    assert w._workers.threads == set()


def test_review_shows_its_progress_and_a_stale_review_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    from reversi_widget.play import aids as aids_module

    w, _ = finished_game()
    halfway, go_on = threading.Event(), threading.Event()

    def slow_review(
        board: Board, depth: Any = None, time_limit: Any = None, progress: Any = None, stop: Any = None
    ) -> Any:
        progress(0.5, "half")
        halfway.set()
        assert go_on.wait(5)
        progress(1.0, "done")  # stale by now: this raises
        raise AssertionError("a stale review went on")

    monkeypatch.setattr(aids_module, "review", slow_review)
    w.review()
    assert halfway.wait(5)
    assert (w.busy, w.progress) == ("review", 0.5)
    w.new_game()
    assert w.busy == ""
    go_on.set()
    join_workers(w)
    assert w.review_moves == [] and w.wait(1) and "analysis failed" not in w.notice


def test_pause_and_resume_intents_are_never_stale() -> None:

    w, sent = widget(black="random", white="random", move_delay=0.01)
    assert w.can_pause and not w.paused
    send(w, {"kind": "pause", "ply": 0})  # made at the start, arriving moves later
    assert w.paused and sent.updates()["paused"] is True
    assert w.wait(5)
    ply = w.ply
    time.sleep(0.1)
    assert w.ply == ply and not w.game_over and "paused" in w.status
    send(w, {"kind": "resume", "ply": 0})
    assert not w.paused and w.wait(10) and w.game_over
    w.set_state({"paused": True})  # the front end may only ask through intents
    assert not w.paused and "paused" in w.notice
    for content, reason in (
        ({"kind": "pause", "ply": "0"}, "ply must be an integer"),
        ({"kind": "pause"}, "exactly the fields kind, ply"),
    ):
        send(w, content)
        assert reason in w.notice and not w.paused
    humans, _ = widget()
    send(humans, {"kind": "pause", "ply": 0})
    assert "no computer plays in this game" in humans.notice and not humans.paused
    assert not humans.can_pause


def test_analysis_settings_are_checked() -> None:
    from reversi_widget.widget import InvalidSettingError

    w = ReversiWidget()
    for name, value in (("analysis_depth", 0), ("analysis_depth", 65), ("analysis_time_limit", -1.0)):
        with pytest.raises(InvalidSettingError, match=name):
            setattr(w, name, value)
    w.analysis_time_limit = 0.2
    assert w.analysis_time_limit == 0.2 and w.analysis_depth is None


def overlay_number(text: str) -> int:
    """The margin a square of the scores overlay shows: "+4", "-2", "0", "W+6", "D", "L-4", "W≥+6"."""
    return 0 if text == "D" else int(text.lstrip("WL≥≤"))


def test_a_review_mark_agrees_with_the_scores_overlay_at_its_position() -> None:
    """The mark on a move and the scores on the board at the position it was played in come
    from one and the same analysis: the review's best move has the best score there, and the
    loss is the difference the overlay shows (each rounded to a whole disc: at most one
    apart). Estimated moves show the review's own analysis, deeper checks included; solved
    ones an exact analysis, which the review's exact values must match."""
    from reversi_widget.play.texts import whole
    from tests.test_analysis import WIPE_OUT

    w = ReversiWidget(Board.from_transcript(WIPE_OUT), show_scores=True)
    w.review()
    assert w.wait(120) and w.review_moves
    reviews = w._aids.current_review()
    assert reviews is not None
    estimated = [r for r in reviews if not r.forced and not r.exact and r.loss >= 2]
    solved = [r for r in reviews if not r.forced and r.exact][:4]
    assert len(estimated) >= 5 and solved
    for entry in estimated + solved:
        w.jump(entry.ply - 1)  # the position the move was played in
        assert w.wait(120)
        shown = {square: overlay_number(text) for square, text in w.scores.items()}
        assert shown and str(entry.played) in shown, entry
        analysis = w._aids.current_analysis()
        assert analysis is not None and analysis.position == w.board.to_string()
        top, mine = analysis.best, analysis[entry.played]
        assert (top.score - mine.score if entry.loss else 0.0) == entry.loss, entry  # the same numbers
        assert shown[str(entry.best)] == max(shown.values()), entry  # the mark's best is the overlay's best
        assert abs(shown[str(entry.best)] - shown[str(entry.played)] - whole(entry.loss)) <= 1, entry
        w.hint()
        assert str(entry.best) in w.hints  # the hint rings it too


def test_a_marked_move_says_why_it_lost_where_a_computed_fact_stands_out() -> None:
    """At the position a marked move led to, the verdict adds the reason ``reasons.why``
    finds (the facts it states hold there: ``tests/test_reasons.py``), in the language shown;
    an unmarked move gets none."""
    from reversi_widget.analysis import review_mark
    from reversi_widget.reasons import why
    from tests.test_reasons import check_facts

    w, _sent = finished_game(analysis_depth=3)
    w.review()
    assert w.wait(30)
    reviews = w._aids.current_review()
    assert reviews is not None
    explained = 0
    for entry in reviews:
        w.jump(entry.ply)
        note = w.review_here.get("note", "")
        before = w.board.copy()
        before.pop()
        reason = why(before, entry.played, entry.best) if review_mark(entry) else None
        if reason is None:
            assert "—" not in note, note
            continue
        check_facts(before, reason)
        assert note.endswith(f" — {reason.render('en')}"), note
        w.language = "uk"
        assert w.review_here["note"].endswith(f" — {reason.render('uk')}")
        w.language = "en"
        explained += 1
    assert explained >= 2
