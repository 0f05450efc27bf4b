"""The best line in the widget: the ``lines`` trait of a hint and of the scores, and the
best line beside the played one in a review (``review_here``), as ``analyse()`` gives them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reversi_widget import Board, Rules
from reversi_widget.analysis import Analysis, MoveAnalysis
from reversi_widget.i18n import translate
from reversi_widget.move import Move
from reversi_widget.play.lines import line_note
from reversi_widget.players import GreedyPlayer, RandomPlayer
from reversi_widget.squares import BLACK
from reversi_widget.widget import ReversiWidget
from tests.support import PASS_LINE, play_random, send, widget


def at_ply(transcript: str, ply: int) -> Board:
    board = Board.from_transcript(transcript)
    while board.ply > ply:
        board.pop()
    return board


def check_replay(board: Board, names: list[str], colors: list[str]) -> None:
    """``names`` replay legally from ``board``, ``colors[i]`` the side to move before each."""
    probe = board.copy(stack=False)
    for name, color in zip(names, colors, strict=True):
        assert color == ("black" if probe.turn == BLACK else "white")
        if name == "pass":
            assert probe.must_pass()
            probe.push(Move(None, board.size))
        else:
            assert name in {str(m) for m in probe.legal_moves}
            probe.push(name)


def check_lines(board: Board, analysis: Analysis, lines: dict[str, Any], language: str = "en") -> None:
    """Each sent line is its move's line in ``analysis``, replays legally from ``board`` with
    the colours of the sides to move (a pass keeps no turn), and says how sure it is."""
    for square, sent in lines.items():
        entry = analysis[square]
        assert sent["line"] == [str(m) if m else "pass" for m in entry.line], square
        check_replay(board, sent["line"], sent["colors"])
        assert sent["note"] == line_note(entry, language)
        assert sent["line"][0] == square


def test_a_hint_sends_the_best_moves_line_as_analyse_gives_it() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
    w, sent = widget(board=board, analysis_depth=3)
    assert w.lines == {}
    send(w, {"kind": "hint", "ply": 9})
    assert w.wait(5) and w.hints
    analysis = w._aids.current_analysis()
    assert analysis is not None
    assert set(w.lines) == set(w.hints)
    check_lines(board, analysis, w.lines)
    first = w.lines[w.hints[0]]
    assert first["note"] == "an estimate at depth 3"
    assert first["text"] == f"Line: {' '.join(first['line'])} (an estimate at depth 3)"
    assert first["colors"][:3] == ["white", "black", "white"]
    assert "lines" in sent.updates()
    w.language = "pl"  # the language follows
    assert w.lines[w.hints[0]]["note"] == "ocena szacunkowa na głębokości 3"
    assert w.lines[w.hints[0]]["text"].startswith("Wariant: ")
    w.play(w.hints[0])  # the line belongs to the position: a move takes it away
    assert w.lines == {}


def test_scores_send_every_scored_squares_line_and_passes_keep_the_colours_right() -> None:
    board = at_ply(PASS_LINE, 52)  # solved exactly; the best lines pass near the end
    w, _ = widget(board=board, show_scores=True)
    assert w.wait(10) and w.scores
    analysis = w._aids.current_analysis()
    assert analysis is not None and analysis.exact
    assert set(w.lines) == set(w.scores)
    check_lines(board, analysis, w.lines)
    passing = [sent for sent in w.lines.values() if "pass" in sent["line"]]
    assert passing
    for sent in passing:
        i = sent["line"].index("pass")
        assert sent["colors"][i + 1] == sent["colors"][i - 1]  # the side that did not pass moves again
        assert sent["note"] == "exact, to the end of the game"
    w.language = "uk"
    sent = passing[0]
    assert (
        "пропуск" in w.lines[sent["line"][0]]["text"] and w.lines[sent["line"][0]]["note"] == "точно, до кінця партії"
    )
    w.show_scores = False
    assert w.lines == {}


@pytest.mark.parametrize("language", ["en", "ca", "pl", "uk"])
def test_the_note_says_exact_a_proven_result_or_an_estimate(language: str) -> None:
    d3 = Move.from_name("d3")
    exact = MoveAnalysis(d3, 4.0, True, (d3,), 9)
    win = MoveAnalysis(d3, 6.0, False, (d3,), 12, bound=True)
    loss = MoveAnalysis(d3, -6.0, False, (d3,), 12, bound=True)
    estimate = MoveAnalysis(d3, 1.5, False, (d3,), 8)
    assert line_note(exact, language) == translate("line_exact", language)
    assert line_note(win, language) == translate("line_bound_win", language, depth=12)
    assert line_note(loss, language) == translate("line_bound_loss", language, depth=12)
    assert line_note(estimate, language) == translate("line_estimate", language, depth=8)
    assert "12" in line_note(win, language) and "8" in line_note(estimate, language)
    assert len({line_note(e, language) for e in (exact, win, loss, estimate)}) == 4


def test_a_marked_move_in_a_review_shows_its_best_line_beside_the_played_one() -> None:
    w = ReversiWidget(black=RandomPlayer(seed=1), white=GreedyPlayer(seed=2), analysis_depth=3)
    assert w.wait(10) and w.game_over
    w.review()
    assert w.wait(30)
    reviews = w._aids.current_review()
    assert reviews is not None
    line = w.board.move_stack
    shown = 0
    for entry in reviews:
        w.jump(entry.ply)
        here = w.review_here
        if not here or not here.get("line"):
            assert not here or "lines_note" not in here
            assert "lines_note" not in w.review_moves[entry.ply - 1]
            continue
        assert entry.analysis is not None and here["line"][0] == str(entry.best)
        best = entry.analysis[entry.best]
        assert here["line"] == [str(m) if m else "pass" for m in best.line]
        before = w.board.copy()
        before.pop()
        check_replay(before, here["line"], here["line_colors"])
        played = [str(m) if m else "pass" for m in line[entry.ply - 1 : entry.ply - 1 + len(here["line"])]]
        assert here["played_line"] == played and played[0] == str(entry.played)
        assert here["lines_note"].startswith(f"Best line: {' '.join(here['line'])} (")
        assert here["lines_note"].endswith(f"; played: {' '.join(played)}")
        assert w.review_moves[entry.ply - 1]["lines_note"] == here["lines_note"]  # the move list's tooltip
        w.language = "ca"
        assert w.review_here["lines_note"].startswith("Millor línia: ")
        w.language = "en"
        shown += 1
    assert shown >= 2


@pytest.mark.parametrize(("size", "seed"), [(8, 1), (8, 2), (6, 3), (6, 4), (10, 5)])
def test_random_positions_send_every_scored_line_legal_and_as_analysed(size: int, seed: int) -> None:
    """Random positions of several sizes: every scored square's line is its analysed line,
    replays legally with the right colours, and says the analysis' certainty."""
    rng = random.Random(seed)
    board = play_random(Board(rules=Rules(size=size)), rng, plies=rng.randrange(4, size * size - 12))
    if board.is_game_over() or board.must_pass():
        pytest.skip("no move to score here")
    w, _ = widget(board=board, show_scores=True, analysis_depth=2)
    assert w.wait(30) and w.scores
    analysis = w._aids.current_analysis()
    assert analysis is not None and set(w.lines) == set(w.scores) == {str(e.move) for e in analysis.moves}
    check_lines(board, analysis, w.lines)


def test_a_line_proven_short_of_the_end_says_so_with_its_depth() -> None:
    """4x4, 8 empties: at depth 7 a3 is a proven win whose margin is only a bound; its line
    says so, and solved by default it says exact."""
    from tests.test_widget_aids import PROVEN_SHORT_OF_THE_END

    board = Board.from_transcript(PROVEN_SHORT_OF_THE_END, rules=Rules(size=4))
    w, _ = widget(board=board, analysis_depth=7)
    w.hint()
    assert w.wait(10) and w.hints == ["a3"]
    analysis = w._aids.current_analysis()
    assert analysis is not None and analysis["a3"].bound
    check_lines(board, analysis, w.lines)
    assert w.lines["a3"]["note"] == "a proven win, searched to depth 7"
    w.language = "pl"
    assert w.lines["a3"]["note"] == "udowodniona wygrana, przeszukano do głębokości 7"
    w.language = "en"
    w.analysis_depth = None  # the default solves these 8 empties; other settings, a new hint
    assert w.lines == {}
    w.hint()
    assert w.wait(10) and w.hints == ["a4"]  # solved, a4 wins by more
    assert w.lines["a4"]["note"] == "exact, to the end of the game"
