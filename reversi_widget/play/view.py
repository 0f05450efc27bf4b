"""The picture of a game: every trait the views draw, from the session, the aids and the language.

``picture`` is a pure function: the same game, aids and language give the same traits,
so a change of language is a redraw, and the widget only copies the result onto its
traits (js/PROTOCOL.md names each one).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis import move_label
from ..board import Board, Move, Outcome
from ..errors import ReversiError
from ..game_review import MoveReview, evaluations, review_mark
from ..i18n import translate
from ..openings import name as opening_name
from ..reasons import why
from ..squares import BLACK, WHITE, Color, square_name
from .aids import Aids, best_moves
from .lines import lines_picture, marked_lines, review_lines
from .live import live_picture
from .overlays import overlay_picture
from .puzzling import hides_answer
from .quizzing import quiz_picture, without_answers
from .session import Session
from .strings import front_end_strings
from .texts import COLOR_KEY, Text, discs_text, player_title, result_text, score_text, whole
from .variations import variations_picture

__all__ = ["actions", "checked_learner", "course_picture", "opening_picture", "picture", "recorded_names", "rule_notes"]


def picture(session: Session, aids: Aids, language: str) -> dict[str, object]:
    """Every trait written by Python alone, for the game as it stands."""
    board, n = session.board, session.board.size
    outcome = board.outcome()
    practice = session.practice
    editor = session.editor
    black, white = board.bitboards() if practice is None else practice.overlay()
    if editor is not None:
        black, white = editor.black, editor.white
    discs = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(n * n))
    legal: dict[str, list[str]] = {}
    if (
        outcome is None
        and practice is None
        and editor is None
        and session.players[board.turn] is None
        and session.pending is None
    ):
        for move in board.legal_moves:
            legal[str(move)] = [square_name(sq, n) for sq in board.flips(move)]
    last_move, last_flips = "", []
    if board.move_stack:
        last = board.move_stack[-1]
        last_move = str(last)
        before = board.copy()
        before.pop()
        last_flips = [square_name(sq, n) for sq in before.flips(last)]
    counts = {"black": black.bit_count(), "white": white.bit_count()}
    checked = practice is not None and practice.checked
    notice = session.notice
    return {
        "explorer_view": aids.explorer.view(board, language),
        "board_size": n,
        "discs": discs,
        "turn": "" if outcome is not None else COLOR_KEY[board.turn],
        "ply": board.ply,
        "legal": legal,
        "last_move": last_move,
        "last_flips": last_flips,
        "counts": counts,
        "count_labels": {color: translate("count_discs", language, count=count) for color, count in counts.items()},
        "supply": {} if board.supply is None else {"black": board.supply[0], "white": board.supply[1]},
        "status": status(session, outcome, language),
        "game_over": outcome is not None,
        "result": "" if outcome is None else result_text(outcome, board).render(language),
        "moves": [str(move) for move in session.line],
        "opening": opening_picture(board, language),
        "variations": variations_picture(session),
        "can_undo": practice is not None or session.undo_target() is not None,
        "can_redo": session.redo_target() is not None,
        "thinking": session.pending is not None,
        "players": {"black": label(session, BLACK, language), "white": label(session, WHITE, language)},
        "strings": front_end_strings(language),
        "demo": session.demo,
        "practice_move": "" if practice is None else str(practice.move),
        "practice_flips": [] if practice is None else _names(sorted(practice.flipped), n),
        "practice_wrong": _names(practice.wrong, n) if practice is not None and checked else [],
        "practice_missed": _names(practice.missed, n) if practice is not None and checked else [],
        "practice_mistakes": session.mistakes,
        "practice_moves": session.practised,
        "notice": "" if notice is None else notice.text.render(language),
        "notice_kind": "info" if notice is None else notice.kind,
        "notice_id": session.notice_id,
        "paused": session.paused,
        "rule_notes": [note.render(language) for note in rule_notes(board)],
        **aids_picture(session, aids, language),
        **overlay_picture(session, aids.concept, language),
        **modes_picture(session, language),
        **({"coach_state": {}} if session.coach is None else session.coach.picture(language)),
        **quiz_picture(session, language),
        **without_answers(session),
    }


def modes_picture(session: Session, language: str) -> dict[str, object]:
    """The puzzle and the editor: their own traits, and what they change in the others."""
    editor, run = session.editor, session.puzzles
    out: dict[str, object] = {
        "editing": editor is not None,
        "position": session.board.to_string() if editor is None else editor.position(),
        "puzzle_state": {} if run is None else run.picture(session, language),
    }
    if editor is not None:
        color = translate(COLOR_KEY[editor.turn], language)
        out.update(
            turn=COLOR_KEY[editor.turn],
            status=translate("status_editing", language, color=color),
            last_move="",
            last_flips=[],
            opening={},
            hints=[],
            scores={},
            lines={},
            can_undo=False,
            can_redo=False,
        )
    elif run is not None:
        if run.solution_shown and session.board.ply == 0:
            out["hints"] = [str(move) for move in run.puzzle.solution]
        elif hides_answer(session):
            out["hints"], out["scores"], out["lines"] = [], {}, {}
    return out


def opening_picture(board: Board, language: str) -> dict[str, object]:
    """The named opening the moves up to the position shown follow, with its label in the
    language (the name itself stays as players write it); ``{}`` when none applies."""
    opening = opening_name(board)
    if opening is None:
        return {}
    left = opening.left_theory
    if left is None:
        text = translate("opening", language, name=opening.name)
    else:
        move = board.move_stack[left - 1]
        text = translate("opening_left", language, name=opening.name, move=move_label(left, move if move else "pass"))
    return {"name": opening.name, "plies": opening.plies, "left": left, "text": text}


def _names(squares: list[int], size: int) -> list[str]:
    return [square_name(sq, size) for sq in squares]


def checked_learner(learner: object) -> str:
    """The learner's name (``""``: none), or ``ReversiError`` for anything that is not one."""
    if not isinstance(learner, str) or learner != " ".join(learner.split()):
        raise ReversiError(f"learner must be a name on one line, got {learner!r:.40}")
    return learner


def recorded_names(session: Session, labels: dict[str, str], learner: str) -> tuple[str, str]:
    """(Black, White) as a game record names them: a human side by ``learner``'s name when one
    is given (the deck of mistakes finds the learner's games by it), else by its label."""
    black, white = (
        learner if learner and session.players[color] is None else labels[COLOR_KEY[color]] for color in (BLACK, WHITE)
    )
    return black, white


def label(session: Session, color: Color, language: str) -> str:
    """ "Human", or "Computer (expert)" in the language."""
    player = session.players[color]
    if player is None:
        return translate("player_human", language)
    return translate("player_computer", language, name=player_title(player).render(language))


def status(session: Session, outcome: Outcome | None, language: str) -> str:
    """The one line under the board: whose turn, who thinks, or how the game ended."""
    board = session.board
    if outcome is not None:
        reason = translate(f"reason_{outcome.reason.name.lower()}", language)
        return translate("status_over", language, reason=reason, result=result_text(outcome, board).render(language))
    color, computer = translate(COLOR_KEY[board.turn], language), session.players[board.turn]
    if session.practice is not None:
        return translate("status_practice", language, color=color, square=str(session.practice.move))
    if computer is not None:
        player = player_title(computer).render(language)
        if session.pending is not None:
            return translate("status_thinking", language, color=color, player=player)
        if board.ply < len(session.line):
            return translate("status_review", language, color=color, player=player)
        if session.paused:
            return translate("status_paused", language, color=color, player=player)
    if board.in_placement():
        return translate("status_to_place", language, color=color)
    return translate("status_to_move", language, color=color)


def aids_picture(session: Session, aids: Aids, language: str) -> dict[str, object]:
    """The aids' traits: only results that belong to what is shown now."""
    key = aids.key()
    analysis = aids.current_analysis() if session.human_to_move() else None
    hint: list[str] = []
    scores: dict[str, str] = {}
    lines: dict[str, object] = {}
    if analysis is not None:
        if aids.hint_for == key:
            hint = [str(entry.move) for entry in best_moves(analysis)]
        if aids.show_scores:
            scores = {str(entry.move): score_text(entry).render(language) for entry in analysis.moves if entry.move}
        if hint or scores:
            lines = lines_picture(session.board, analysis, [*hint, *scores], language)
    reviews = aids.current_review()
    busy, progress = "", 0.0
    if aids.review_job is not None and aids.review_job == session.line_id:
        busy, progress = "review", aids.progress.get("review", 0.0)
    elif aids.analysis_job == key and aids.shown_wanted():
        busy = "hint" if aids.hint_for == key else "scores"
        progress = aids.progress.get("analysis", 0.0)
    buttons = actions(session, aids)
    return {
        "hints": hint,
        "scores": scores,
        "lines": lines,
        "review_here": review_here(aids.reviewed_last(), language, session.board, session.line),
        "review_moves": [] if reviews is None else review_moves(session, reviews, language),
        **course_picture(session, aids, reviews, language),
        "busy": busy,
        "progress": progress,
        "actions": buttons,
        "can_review": "review" in buttons,
        "can_pause": "pause" in buttons,
    }


def course_picture(session: Session, aids: Aids, reviews: list[MoveReview] | None, language: str) -> dict[str, object]:
    """The evaluation chart's values (a review's, else the live evaluation's as it grows) and
    the live evaluation's bar."""
    if not aids.live.on:
        return {"evaluations": [] if reviews is None else evaluations(reviews), "live": {}}
    values, exact = aids.live.course(session)
    live = live_picture(session, aids.live, exact, aids.analysis_job == aids.key(), language)
    if reviews is not None:
        values = list[float | None](evaluations(reviews))
    elif not live:  # no bar (the editor, a puzzle not yet settled): no course either
        values = []
    return {"evaluations": values, "live": live}


def actions(session: Session, aids: Aids) -> dict[str, str]:
    """The buttons that apply now, each "primary" (the step to take), "enabled" or "disabled";
    a button left out does not apply and is not shown (js/PROTOCOL.md, ``actions``)."""
    if session.editor is not None:  # the editor's own buttons apply, nothing of the game's
        return {}
    board = session.board
    over = board.is_game_over()
    waiting = session.practice is not None
    human = session.players[board.turn] is None and session.pending is None and not over and not waiting
    out = {
        "undo": "enabled" if waiting or session.undo_target() is not None else "disabled",
        "redo": "enabled" if session.redo_target() is not None else "disabled",
        "new": "enabled",
    }
    if human and board.must_pass():  # only in the middle of a line: at its end passes play themselves
        out["pass"] = "primary"
    if session.humans() and not over:
        out["hint"] = "enabled" if human and not board.must_pass() and not board.in_placement() else "disabled"
    if (not session.humans() and not over) or session.paused:  # computers playing each other; Resume
        out["pause"] = "enabled"
    reviewing = aids.review_job is not None and aids.review_job == session.line_id
    if session.line and session.line_finished() and aids.current_review() is None and not reviewing:
        out["review"] = "enabled"
    if waiting:
        out["practice_done"], out["practice_reveal"] = "primary", "enabled"
    if over:  # what a learner does next: look back at the game, or play again
        out["review" if "review" in out else "new"] = "primary"
    return out


def rule_notes(board: Board) -> list[Text]:
    """What differs from the classic game, shown for the whole game: the goal, the scoring,
    the disc supply (the game-over banner repeats the first two)."""
    rules, notes = board.rules, []
    if rules.goal == "inverted":
        notes.append(Text("rule_inverted"))
    if rules.scoring == "tournament":
        notes.append(Text("rule_tournament_winner" if rules.goal == "classic" else "rule_tournament_loser"))
    if rules.supply is not None:
        notes.append(Text("rule_supply", discs=Text("count_discs", count=rules.supply)))
    return notes


def review_moves(session: Session, reviews: list[MoveReview], language: str) -> list[dict[str, object]]:
    """The reviewed moves as the move list gets them, a marked one with its best line beside
    the moves played (``lines_note``, for its tooltip)."""
    entries = [review_entry(entry, language) for entry in reviews]
    for i, text in marked_lines(session.board, session.line, reviews, language).items():
        entries[i]["lines_note"] = text
    return entries


def review_entry(entry: MoveReview, language: str) -> dict[str, object]:
    """One reviewed move as the views get it (js/PROTOCOL.md, ``review_moves``)."""
    loss = round(entry.loss, 1)
    if entry.forced:
        note = translate("review_forced", language)
    else:
        if loss <= 0:
            verdict = translate("review_best", language)
        else:
            lost = discs_text(loss, entry.exact).render(language)
            verdict = translate("review_loss", language, best=str(entry.best), loss=lost)
        note = review_certainty(entry, verdict, language)
    return {
        "ply": entry.ply,
        "label": entry.label,
        "color": COLOR_KEY[entry.color],
        "move": str(entry.played),
        "best": str(entry.best),
        "score": round(entry.played_score, 2),
        "best_score": round(entry.best_score, 2),
        "loss": loss,
        "exact": entry.exact,
        "bound": entry.bound,
        "forced": entry.forced,
        "mark": review_mark(entry),
        "note": note,
    }


def review_here(
    entry: MoveReview | None, language: str, shown_board: Board | None = None, played: Sequence[Move] = ()
) -> dict[str, object]:
    """The reviewed move that led to the position shown (``shown_board``), for the board to
    mark its best move (``best``, the square, and ``color``, whose move it was) and say the
    verdict (``note``: "5. d6?? (Black): best: f5, lost about 24 discs (estimate)"), with
    why a marked move lost where a computed fact stands out ("— d6 gives White the corner
    a1", ``reasons.why``); for a marked move, its best line beside the moves played
    (``played``: the game's whole line, ``lines.review_lines``); empty elsewhere, and for a
    forced move (js/PROTOCOL.md, ``review_here``)."""
    if entry is None or entry.forced:
        return {}
    shown = review_entry(entry, language)
    color = COLOR_KEY[entry.color]
    move = f"{entry.label}{shown['mark']}"
    note = translate("review_note", language, move=move, color=translate(color, language), note=shown["note"])
    lines: dict[str, object] = {}
    if shown["mark"] and shown_board is not None:
        before = shown_board.copy()
        before.pop()
        reason = why(before, entry.played, entry.best)
        if reason is not None:
            note = translate("review_reason", language, note=note, reason=reason.render(language))
        lines = review_lines(entry, played[entry.ply - 1 :], before, language)
    return {"best": str(entry.best), "played": str(entry.played), "color": color, "note": note, **lines}


def review_certainty(entry: MoveReview, verdict: str, language: str) -> str:
    """A reviewed move's verdict with how sure it is: exact, a proven win or loss by at least
    some margin, or an estimate."""
    if entry.exact:
        return translate("review_exact", language, note=verdict)
    if entry.bound:
        discs = Text("count_discs", count=whole(abs(entry.played_score))).render(language)
        key = "review_bound_win" if entry.played_score > 0 else "review_bound_loss"
        return translate(key, language, note=verdict, discs=discs)
    return translate("review_estimate", language, note=verdict)
