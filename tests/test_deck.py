"""The deck of one's own mistakes: the SM-2 schedule (unit and property tests), the cards made
from a ``GameLog`` (each mistake's loss re-solved), the empty deck that says why, and the
widget's puzzle mode playing the deck with its tries kept in the log and read back as grades."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Rules
from reversi_widget.analysis import analyse
from reversi_widget.board import Move
from reversi_widget.deck import MISTAKE_LOSS, MistakeDeck, Sm2, deeper_depth, grade, review
from reversi_widget.errors import InvalidPositionError, ReversiError
from reversi_widget.game import Game
from reversi_widget.i18n import LANGUAGES
from reversi_widget.play.puzzling import PerfectDefence
from reversi_widget.puzzles import Puzzle, format_puzzles, parse_puzzles
from reversi_widget.puzzles.puzzle import ESTIMATE_MARGIN
from reversi_widget.records import GameLog
from reversi_widget.solver import solve
from reversi_widget.squares import BLACK
from reversi_widget.widget import ReversiWidget

DAY = date(2026, 3, 2)

# -- SM-2 -------------------------------------------------------------------------------------------


def test_sm2_by_hand() -> None:
    """The intervals and E-Factors of the published description, worked by hand."""
    s = review(Sm2(), 5, DAY)
    assert (s.repetitions, s.interval, round(s.easiness, 6), s.due, s.again) == (1, 1, 2.6, DAY + timedelta(1), False)
    s = review(s, 5, DAY + timedelta(1))
    assert (s.repetitions, s.interval, round(s.easiness, 6)) == (2, 6, 2.7)
    s = review(s, 4, DAY + timedelta(7))
    assert (s.repetitions, s.interval, round(s.easiness, 6)) == (3, 17, 2.7)  # 6 x 2.7 = 16.2, rounded up
    s = review(s, 3, DAY + timedelta(24))
    assert (s.repetitions, s.interval, round(s.easiness, 6), s.again) == (4, 46, 2.56, True)  # 17 x 2.7 = 45.9
    s = review(s, 1, DAY + timedelta(70))
    assert (s.repetitions, s.interval, round(s.easiness, 6)) == (0, 1, 2.02)  # 2.56 - 0.54: kept, not reset
    assert s.due == DAY + timedelta(71) and s.again
    low = Sm2()
    for offset in range(6):
        low = review(low, 0, DAY + timedelta(offset))
    assert low.easiness == 1.3 and low.interval == 1


def test_sm2_repeats_a_weak_card_the_same_day_without_changing_its_schedule() -> None:
    s = review(Sm2(), 3, DAY)
    assert s.again and s.is_due(DAY)  # graded 3: to be repeated today
    again = review(s, 2, DAY)  # a repeat the same day, still weak
    assert (again.interval, again.easiness, again.due, again.again) == (s.interval, s.easiness, s.due, True)
    found = review(again, 5, DAY)
    assert (found.interval, found.easiness, found.due) == (s.interval, s.easiness, s.due) and not found.again
    assert not found.is_due(DAY) and found.is_due(DAY + timedelta(1))
    assert Sm2().is_due(DAY)  # a new card is due at once


@pytest.mark.parametrize("bad", [6, -1, True, 4.0, "5"])
def test_sm2_refuses_a_grade_that_is_not_0_to_5(bad: object) -> None:
    with pytest.raises(ReversiError, match="grade is a whole number from 0 to 5"):
        review(Sm2(), bad, DAY)  # type: ignore[arg-type]


def test_sm2_refuses_a_day_out_of_order() -> None:
    s = review(Sm2(), 5, DAY)
    with pytest.raises(ReversiError, match="replayed in order"):
        review(s, 5, DAY - timedelta(1))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5)), min_size=1, max_size=30))
def test_sm2_properties(steps: list[tuple[int, int]]) -> None:
    """Whatever the grades: the E-Factor stays in [1.3, 2.5 + 0.1 n], intervals are whole days of
    at least one, a wrong answer starts over, recalled in a row the intervals grow, and a card
    is due on its day."""
    s, day = Sm2(), DAY
    for gap, quality in steps:
        day += timedelta(gap)
        before = s
        s = review(s, quality, day)
        assert 1.3 <= s.easiness <= 2.5 + 0.1 * len(steps) + 1e-9
        assert s.interval >= 1 and s.last == (day if before.last != day else before.last)
        if before.last == day:  # a repeat the same day changes nothing but "again"
            assert (s.interval, s.easiness, s.due, s.repetitions) == (
                before.interval,
                before.easiness,
                before.due,
                before.repetitions,
            )
            continue
        assert s.due == day + timedelta(s.interval) and s.again == (quality < 4)
        if quality < 3:
            assert (s.repetitions, s.interval) == (0, 1)
        else:
            assert s.repetitions == before.repetitions + 1
            if s.repetitions >= 3:
                assert s.interval > before.interval
        assert not s.is_due(day) or s.again
        assert s.is_due(s.due)


def test_grades_of_a_try() -> None:
    assert [grade_of(solved, score) for solved, score in [(True, 10), (True, 4), (False, -2)]] == [5, 4, 1]


def grade_of(solved: bool, score: int) -> int:
    class Best:
        best_score = 10

    return grade(Best(), solved, score)  # type: ignore[arg-type]


# -- the deck from a log ------------------------------------------------------------------------------


def random_game(seed: int, black: str, white: str, size: int = 6, goal: str = "classic") -> Game:
    rng = random.Random(seed)
    board = Board(rules=Rules(size=size, goal=goal))
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return Game.from_board(board, black_player=black, white_player=white)


@pytest.fixture
def log(tmp_path: Path) -> GameLog:
    return GameLog(tmp_path / "games.sqlite")


def test_a_log_without_the_learners_games_gives_an_empty_deck_that_says_why(log: GameLog) -> None:
    deck = MistakeDeck.from_log(log, "ada")
    assert len(deck) == 0 and deck.due() == []
    assert deck.why().startswith("The deck of ada's mistakes is empty: no game of ada is in this log.")
    log.add(random_game(1, "bob", "carl"))
    deck = MistakeDeck.from_log(log, "ada")
    assert len(deck) == 0 and "no game of ada" in str(deck) and "no game of ada" in deck._repr_html_()
    with pytest.raises(ReversiError, match="no game of ada"):
        deck.due_puzzles()
    for language in LANGUAGES:
        said = MistakeDeck.from_log(log, "ada", language=language).why()
        assert "ada" in said and "{" not in said


def test_a_learner_without_mistakes_in_reach_is_told_what_was_looked_at(log: GameLog) -> None:
    """The learner plays perfectly from 10 empty squares on: no card, and the positions before
    are counted as beyond the solver."""
    rng = random.Random(3)
    board = Board(rules=Rules(size=6))
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
        elif board.empty_count() <= 10:
            board.push(solve(board).best_moves[0])
        else:
            board.push(rng.choice(list(board.legal_moves)))
    log.add(Game.from_board(board, black_player="ada", white_player="ada"))
    deck = MistakeDeck.from_log(log, "ada", max_empties=10)
    assert len(deck) == 0 and deck.games == 1 and deck.beyond > 0
    assert deck.why() == (
        "The deck of ada's mistakes is empty: in 1 game no move of ada lost 6 discs or more where the solver "
        f"reaches (the last 10 empty squares); {deck.beyond} positions earlier were left out, as there a mistake "
        "is only an estimate."
    )


@pytest.mark.parametrize("goal", ["classic", "inverted"])
def test_every_card_is_a_mistake_of_the_learner_re_solved(log: GameLog, goal: str) -> None:
    for seed in range(3):
        log.add(random_game(seed, "ada", "bob", goal=goal))
    log.add(random_game(7, "bob", "ada", goal=goal))
    deck = MistakeDeck.from_log(log, "ada", max_empties=10, today=DAY)
    assert len(deck) >= 3 and deck.due() and {card.mark for card in deck} <= {"?", "??"}
    games = {int(game.metadata["id"]): game for game in log}
    for card in deck:
        game = games[card.game_id]
        position = game.board().root()
        for move in game.moves[: card.ply - 1]:
            position.push(move)
        assert (game.black_player if position.turn else game.white_player) == "ada"
        assert position.to_string() == card.puzzle.position and game.moves[card.ply - 1] == card.played
        best = solve(position).score
        after = position.copy()
        after.push(card.played)
        played = -solve(after).score  # the opponent's score, to move (or to pass) after it
        assert card.loss == best - played >= MISTAKE_LOSS
        assert card.mark == ("??" if card.loss >= 12 else "?")
        puzzle = card.puzzle
        assert puzzle.task == "better" and puzzle.rules.goal == goal and card.played not in puzzle.solution
        assert all(puzzle.result(move).score > puzzle.result(card.played).score for move in puzzle.solution)
        side = "Black" if position.turn else "White"
        task = f"{side} to move: find a better move than {card.played}, the move played here."
        assert puzzle.task_text() == task + (" Inverted goal: fewer discs win." if goal == "inverted" else "")
        assert not puzzle.verdict(card.played).solved and puzzle.verdict(puzzle.solution[0]).solved


def test_the_better_task_round_trips_a_puzzle_file_and_is_checked(log: GameLog) -> None:
    log.add(random_game(0, "ada", "bob"))
    card = MistakeDeck.from_log(log, "ada", max_empties=10).cards[0]
    (again,) = parse_puzzles(format_puzzles([card.puzzle]))
    assert again.task == "better" and again.solution == card.puzzle.solution and again.source.played == card.played
    puzzle = card.puzzle
    best = puzzle.solution[0]
    with pytest.raises(InvalidPositionError, match="is a best move"):
        Puzzle(
            "p",
            puzzle.position,
            puzzle.rules,
            "better",
            puzzle.results,
            source=type(puzzle.source)(played=puzzle.moves[0]),
        )
    with pytest.raises(InvalidPositionError, match="needs the move played there"):
        Puzzle("p", puzzle.position, puzzle.rules, "better", puzzle.results)
    assert best in puzzle.moves


# -- earlier mistakes, found by a deeper search: cards that say they are estimates ----------------------

DEEPER = 4  # plies: the pure search's own review depth on 6x6 is 4, the deck's suggestion 6


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameLog, MistakeDeck]:
    log = GameLog(tmp_path_factory.mktemp("deck") / "games.sqlite")
    for seed in range(3):
        log.add(random_game(seed, "ada", "bob"))
    return log, MistakeDeck.from_log(log, "ada", max_empties=10, depth=DEEPER, today=DAY)


def positions_of(log: GameLog, learner: str) -> list[tuple[int, int, Board, Move]]:
    """(game id, ply, position before the move, the move) for each of the learner's moves."""
    out: list[tuple[int, int, Board, Move]] = []
    for game in log.games(player=learner):
        board = game.board().root()
        for ply, move in enumerate(game.moves, 1):
            if (game.black_player if board.turn else game.white_player) == learner:
                out.append((int(game.metadata["id"]), ply, board.copy(stack=False), move))
            board.push(move)
    return out


def depth_scores(position: Board) -> dict[Move, int]:
    """Every legal move's depth-``DEEPER`` estimate, rounded to whole discs, searched anew."""
    return {entry.move: round(entry.score) for entry in analyse(position, DEEPER).moves}


def test_a_midgame_mistake_found_by_the_deeper_search_is_a_card_that_says_it_is_an_estimate(
    searched: tuple[GameLog, MistakeDeck],
) -> None:
    _log, deck = searched
    estimated = [card for card in deck if card.depth is not None]
    assert estimated and all(card.depth == DEEPER for card in estimated)
    for card in estimated:
        position = card.puzzle.board()
        assert position.empty_count() > 10  # before the solver's reach
        scores = depth_scores(position)
        assert card.loss == max(scores.values()) - scores[card.played] >= MISTAKE_LOSS
        assert card.mark == ("??" if card.loss >= 12 else "?")
        puzzle = card.puzzle
        side = "Black" if position.turn else "White"
        assert puzzle.task_text() == (
            f"{side} to move: find a move that scores at least 6 discs more than {card.played}, the move played "
            "here, by a depth-4 search (an estimate: no solver reaches this position)."
        )
        texts = [puzzle.task_text(), *(puzzle.verdict(move).text for move in puzzle.moves)]
        assert all("depth-4 search" in text and "exact" not in text for text in texts)
        for language in LANGUAGES:
            for text in (puzzle.task_text(language), puzzle.verdict(card.played, language).text):
                assert "4" in text and "{" not in text
        row = deck._row(card)
        assert row[2] == f"about {card.loss} (a depth-4 estimate)"
    assert "a depth-4 estimate" in deck._repr_html_()
    with pytest.raises(InvalidPositionError, match="estimates: a puzzle file keeps proven scores only"):
        format_puzzles([estimated[0].puzzle])
    with pytest.raises(ReversiError, match="nothing to prove"):
        estimated[0].puzzle.prove()


def test_an_estimated_card_judges_a_try_by_the_same_deeper_search(searched: tuple[GameLog, MistakeDeck]) -> None:
    _log, deck = searched
    judged_right = judged_wrong = 0
    for card in (card for card in deck if card.depth is not None):
        puzzle = card.puzzle
        scores = depth_scores(puzzle.board())
        for move, score in scores.items():
            verdict = puzzle.verdict(move)
            right = score >= scores[card.played] + ESTIMATE_MARGIN
            assert (verdict.solved, verdict.score) == (right, score)
            said = f"{move} scores {score:+d} by a depth-4 search (an estimate)"
            assert verdict.text.startswith(said)
            judged_right += right
            judged_wrong += not right
        best = max(scores, key=lambda move: scores[move])
        assert puzzle.verdict(best).solved and not puzzle.verdict(card.played).solved
        assert puzzle.verdict(card.played).text.startswith(f"{card.played} scores {scores[card.played]:+d}")
        assert "not 6 discs more than" in puzzle.verdict(card.played).text
    assert judged_right and judged_wrong


def test_the_deeper_search_leaves_the_solvers_cards_as_they_were(searched: tuple[GameLog, MistakeDeck]) -> None:
    log, deck = searched
    exact = MistakeDeck.from_log(log, "ada", max_empties=10, today=DAY)
    assert exact.cards and all(card.depth is None for card in exact)
    kept = [card for card in deck if card.depth is None]
    assert kept == exact.cards
    assert deck.beyond == exact.beyond > 0 and deck.depth == DEEPER and exact.depth is None


def test_a_move_the_deeper_search_does_not_find_to_lose_enough_makes_no_card(
    searched: tuple[GameLog, MistakeDeck],
) -> None:
    log, deck = searched
    carded = {(card.game_id, card.ply) for card in deck}
    uncarded = 0
    for game_id, ply, position, move in positions_of(log, "ada"):
        if position.empty_count() <= 10 or position.must_pass() or len(position.legal_moves) < 2:
            continue
        scores = depth_scores(position)
        loss = max(scores.values()) - scores[move]
        assert ((game_id, ply) in carded) == (loss >= MISTAKE_LOSS)
        uncarded += loss < MISTAKE_LOSS
    assert uncarded  # some earlier moves lost less than 6 discs by the search: no card for them


def test_an_empty_searched_deck_says_how_deep_it_looked(log: GameLog) -> None:
    """Ada (Black) plays the search's best move before the solver reaches, and the solver's
    after: no card, and the sentence says how deep the earlier positions were searched."""
    rng = random.Random(11)
    board = Board(rules=Rules(size=6))
    while not board.is_game_over():
        if board.must_pass():
            board.push_pass()
        elif board.turn == BLACK and board.empty_count() <= 10:
            board.push(solve(board).best_moves[0])
        elif board.turn == BLACK:
            board.push(analyse(board, DEEPER).best.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    log.add(Game.from_board(board, black_player="ada", white_player="bob"))
    deck = MistakeDeck.from_log(log, "ada", max_empties=10, depth=DEEPER)
    assert len(deck) == 0 and deck.beyond > 0
    assert deck.why() == (
        "The deck of ada's mistakes is empty: in 1 game no move of ada lost 6 discs or more, neither exactly "
        "where the solver reaches (the last 10 empty squares) nor by the estimates of a depth-4 search in "
        f"{deck.beyond} positions earlier."
    )
    for language in LANGUAGES:
        said = MistakeDeck.from_log(log, "ada", max_empties=10, depth=DEEPER, language=language).why()
        assert "ada" in said and "4" in said and "{" not in said
    assert deeper_depth(6) >= DEEPER


# -- the widget plays the deck; the tries go into the log and come back as the schedule ---------------


def test_the_widget_plays_the_deck_and_the_log_keeps_the_schedule(log: GameLog) -> None:
    for seed in range(2):
        log.add(random_game(seed, "ada", "bob"))
    deck = MistakeDeck.from_log(log, "ada", max_empties=10)
    due = deck.due()
    assert len(due) >= 2
    w = ReversiWidget(puzzle=deck.due_puzzles(), learner="ada", log=log)
    assert w.puzzle_state["task"] == due[0].puzzle.task_text() and w.puzzle_state["count"] == len(due)
    w.play(str(due[0].puzzle.solution[0]))  # found: the best move
    w.wait(30)
    assert w.puzzle_state["verdict_kind"] == "right"
    w.next_puzzle()
    w.play(str(due[1].played))  # the same mistake again
    w.wait(30)
    assert w.puzzle_state["verdict_kind"] == "wrong"
    tries = [game for game in log if "puzzle" in game.metadata]
    assert [game.metadata["puzzle"] for game in tries] == [due[0].puzzle.name, due[1].puzzle.name]
    assert all(game.metadata["learner"] == "ada" for game in tries)

    today = deck.today
    after = MistakeDeck.from_log(log, "ada", max_empties=10, today=today)
    schedules = {card.puzzle.name: card.schedule for card in after}
    found, missed = schedules[due[0].puzzle.name], schedules[due[1].puzzle.name]
    assert (found.repetitions, found.interval, found.due, found.again) == (1, 1, today + timedelta(1), False)
    assert (missed.repetitions, missed.interval, missed.again) == (0, 1, True)
    due_now = [card.puzzle.name for card in after.due()]
    assert due[0].puzzle.name not in due_now and due[1].puzzle.name in due_now  # repeated today until found
    assert len(due_now) == len(due) - 1 and "again today" in str(after)
    tomorrow = MistakeDeck.from_log(log, "ada", max_empties=10, today=today + timedelta(1))
    assert len(tomorrow.due()) == len(due)


def test_nothing_due_says_when(log: GameLog) -> None:
    log.add(random_game(0, "ada", "bob"))
    deck = MistakeDeck.from_log(log, "ada", max_empties=10)
    w = ReversiWidget(puzzle=deck.due_puzzles(), learner="ada", log=log)
    for index, card in enumerate(deck.due()):
        if index:
            w.next_puzzle()
        w.play(str(card.puzzle.solution[0]))
        w.wait(30)
    later = MistakeDeck.from_log(log, "ada", max_empties=10, today=deck.today)
    assert later.due() == [] and len(later) == len(deck)
    assert later.why() == (
        f"Nothing is due today: the deck holds {len(deck)} card{'s' if len(deck) > 1 else ''}, "
        f"the next due on {deck.today + timedelta(1)}."
    )


def test_bad_arguments_are_refused(log: GameLog) -> None:
    with pytest.raises(TypeError, match="GameLog"):
        MistakeDeck.from_log("games.sqlite", "ada")  # type: ignore[arg-type]
    with pytest.raises(ReversiError, match="learner must be"):
        MistakeDeck.from_log(log, " ")
    with pytest.raises(ReversiError, match="max_empties"):
        MistakeDeck.from_log(log, "ada", max_empties="10")  # type: ignore[arg-type]
    for depth in (0, 21, True, 4.0):
        with pytest.raises(ReversiError, match="depth must be None or a search depth"):
            MistakeDeck.from_log(log, "ada", depth=depth)  # type: ignore[arg-type]


def test_the_widget_plays_an_estimated_card_with_the_same_search(
    searched: tuple[GameLog, MistakeDeck], log: GameLog
) -> None:
    """Its opponent is the depth-4 search until the solver reaches, the verdict says it is an
    estimate, and the try goes into the log with that search named as the other side."""
    _log, deck = searched
    card = next(card for card in deck if card.depth is not None)
    w = ReversiWidget(puzzle=[card.puzzle], learner="ada", log=log)
    defence = w.white if card.puzzle.turn == BLACK else w.black
    assert isinstance(defence, PerfectDefence) and defence.depth == DEEPER and defence.name == "depth-4 search"
    w.play(str(card.played))
    assert w.wait(60)
    assert w.puzzle_state["verdict_kind"] == "wrong"
    assert "by a depth-4 search (an estimate)" in str(w.puzzle_state["verdict"])
    (kept,) = [game for game in log if "puzzle" in game.metadata]
    assert kept.metadata["solved"] == "no" and "depth-4 search" in (kept.black_player, kept.white_player)
    assert kept.metadata["score"] == str(card.puzzle.result(card.played).score)


def test_the_widget_records_a_human_side_under_the_learners_name(log: GameLog) -> None:
    """Games played in the widget with ``learner=`` are the learner's in the log: the deck finds them."""
    rng = random.Random(5)
    w = ReversiWidget(rules=Rules(size=6), learner="Ann", white="random", log=log, animation="off")
    while not w.game_over:
        assert w.wait(30)
        if w.game_over:
            break
        legal = list(w.board.legal_moves)
        w.play(rng.choice(legal) if legal else "pass")
    assert w.wait(30)
    (game,) = list(log)
    assert (game.black_player, game.white_player) == ("Ann", w.players["white"])
    deck = MistakeDeck.from_log(log, "Ann", max_empties=10)
    assert deck.games == 1 and "no game of Ann" not in deck.why()
    assert MistakeDeck.from_log(log, "Human").games == 0  # the label is not the learner's name
    with pytest.raises(ReversiError, match="learner must be a name on one line"):
        ReversiWidget(learner=" Ann")
