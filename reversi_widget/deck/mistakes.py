"""A deck of one's own mistakes: the learner's moves that lost discs, posed again as puzzles.

``MistakeDeck.from_log(log, learner)`` reads the learner's games from a ``GameLog`` and, in
every position where the learner was to move and the exact solver reaches (at most
``max_empties`` empty squares), solves every legal move. A move that gave away 6 discs or
more against the best one is a mistake, marked ``?`` (``??`` from 12) as the review marks
it (``analysis.REVIEW_MARKS``); it becomes a ``Puzzle`` with the task "find a better move
than the one you played" (``"better"``), its verdicts exact. Earlier positions, beyond the
solver, are counted and left out: their marks would be estimates. With ``depth`` (e.g.
``deeper_depth(8)``) they are searched that deep instead (``deck.estimated``): a move that
loses 6 discs or more by that search's estimates becomes a card too, its puzzle judging a try
by the same search (right from 6 discs above the move played) and saying that every number
is a depth-N estimate.

The widget's puzzle mode plays the cards due (``ReversiWidget(puzzle=deck.due_puzzles(),
learner=..., log=log)``), and keeps every try in the same log. The schedule is SM-2
(``deck.sm2``), replayed from those tries: the first try of a day grades the card (5: the
best move; 4: a better move than the one played; 1: no better), and a card graded below 4
is due again that day until it is found.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timezone

from ..analysis import exact_empties, move_label
from ..board import Board, Move
from ..errors import ReversiError
from ..game import Game
from ..game_review import REVIEW_MARKS
from ..i18n import check_language, translate
from ..puzzles.puzzle import MoveResult, Puzzle, Source, endgame_search, exact_results
from ..records import GameLog
from ..rules import Rules
from ..squares import BLACK, WHITE, Color
from .estimated import estimated_results
from .sm2 import Sm2, review

__all__ = ["MISTAKE_LOSS", "Card", "MistakeDeck", "grade", "learner_colors"]

#: Discs given away from which a move is a mistake: the review's ``?`` (``??`` from 12).
MISTAKE_LOSS = next(loss for loss, mark in REVIEW_MARKS if mark == "?")


@dataclass(frozen=True)
class Card:
    """One mistake: the puzzle that poses it again, where it comes from, and its schedule."""

    puzzle: Puzzle
    game_id: int
    ply: int
    played: Move
    loss: int
    schedule: Sm2

    @property
    def mark(self) -> str:
        return next(mark for loss, mark in REVIEW_MARKS if self.loss >= loss)

    @property
    def depth(self) -> int | None:
        """None when the loss is exact; else the depth of the search that estimated it."""
        return self.puzzle.depth


def grade(puzzle: Puzzle, solved: bool, score: int) -> int:
    """The SM-2 grade of a try: 5 for the best move, 4 for a better move than the one played,
    1 for none better."""
    if solved and score == puzzle.best_score:
        return 5
    return 4 if solved else 1


def learner_colors(game: Game, learner: str) -> tuple[Color, ...]:
    """The sides ``learner`` played in ``game`` (both in a game against themselves)."""
    return tuple(color for color, name in ((BLACK, game.black_player), (WHITE, game.white_player)) if name == learner)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class MistakeDeck:
    """The cards of a learner's mistakes with their schedules, and why the deck is empty if it is."""

    def __init__(
        self,
        learner: str,
        cards: list[Card],
        today: date,
        *,
        games: int = 0,
        beyond: int = 0,
        max_empties: int = 0,
        depth: int | None = None,
        language: str = "en",
    ) -> None:
        self.learner = learner
        self.cards = cards
        self.today = today
        self.games = games
        self.beyond = beyond
        self.max_empties = max_empties
        self.depth = depth
        self.language = check_language(language)

    @classmethod
    def from_log(
        cls,
        log: GameLog,
        learner: str,
        *,
        today: date | None = None,
        max_empties: int | None = None,
        depth: int | None = None,
        language: str = "en",
    ) -> MistakeDeck:
        """The deck of ``learner``'s mistakes in ``log``, scheduled by the tries kept there.

        ``max_empties`` is how far from the end the solver poses mistakes (default: where
        ``analyse`` solves exactly, 12 empty squares in pure Python and 20 compiled);
        ``today`` the day the deck is for (default: today, UTC, as the log dates games).
        Every legal move of every such position is solved, which takes seconds per 8x8 game
        from 20 empty squares; a smaller ``max_empties`` is quicker and finds fewer mistakes.
        ``depth`` searches the learner's earlier positions too, every legal move that many
        plies deep (``deeper_depth(size)`` is the review's checking depth); their cards say
        they are estimates of that search. None (the default) leaves them out."""
        if not isinstance(log, GameLog):
            raise TypeError(f"log must be a reversi_widget.records.GameLog, got {type(log).__name__}")
        if not isinstance(learner, str) or not learner.strip():
            raise ReversiError(f"learner must be the name the learner's games are recorded under, got {learner!r:.40}")
        if max_empties is not None and (isinstance(max_empties, bool) or not isinstance(max_empties, int)):
            raise ReversiError(f"max_empties must be None or a whole number, got {max_empties!r:.20}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 20):
            raise ReversiError(f"depth must be None or a search depth from 1 to 20, got {depth!r:.20}")
        day = datetime.now(timezone.utc).date() if today is None else today
        if not isinstance(day, date):
            raise ReversiError(f"today must be a datetime.date, got {today!r:.40}")
        recorded = log.games(player=learner)
        games = [(game, int(game.metadata.get("id", 0))) for game in recorded if "puzzle" not in game.metadata]
        tries = [game for game in recorded if "puzzle" in game.metadata and game.metadata.get("learner") == learner]
        cards: list[Card] = []
        beyond = 0
        reach = 0
        for game, game_id in games:
            found, skipped, reach = _mistakes(game, game_id, learner, max_empties, depth)
            cards += found
            beyond += skipped
        cards = [_scheduled(card, tries) for card in cards]
        return cls(
            learner, cards, day, games=len(games), beyond=beyond, max_empties=reach, depth=depth, language=language
        )

    # -- what is due ----------------------------------------------------------------------

    def due(self) -> list[Card]:
        """The cards due today, the longest overdue first, then the costliest."""
        ready = [card for card in self.cards if card.schedule.is_due(self.today)]
        return sorted(ready, key=lambda card: (card.schedule.due or date.min, -card.loss, card.game_id, card.ply))

    def due_puzzles(self) -> list[Puzzle]:
        """The puzzles of the cards due today, for the widget's puzzle mode (``ReversiError``
        when none is due, saying why)."""
        puzzles = [card.puzzle for card in self.due()]
        if not puzzles:
            raise ReversiError(self.why())
        return puzzles

    def why(self) -> str:
        """In one sentence, in the deck's language: what is due today, or why nothing is."""
        language, learner = self.language, self.learner
        if not self.games:
            return translate("deck_no_games", language, learner=learner)
        if not self.cards:
            return translate(
                "deck_no_mistakes" if self.depth is None else "deck_no_mistakes_searched",
                language,
                depth=self.depth,
                learner=learner,
                games=translate("deck_games", language, count=self.games),
                empties=self.max_empties,
                beyond=translate("deck_positions", language, count=self.beyond),
            )
        due = self.due()
        if not due:
            upcoming = min(card.schedule.due or self.today for card in self.cards)
            return translate("deck_none_due", language, cards=translate("deck_cards", language, count=len(self.cards)),
                             day=upcoming.isoformat())  # fmt: skip
        return translate(
            "deck_due",
            language,
            due=translate("deck_cards", language, count=len(due)),
            total=len(self.cards),
        )

    # -- reading it -----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __repr__(self) -> str:
        return f"<MistakeDeck of {self.learner!r}: {len(self.cards)} cards, {len(self.due())} due on {self.today}>"

    def __str__(self) -> str:
        lines = [self.why()]
        for card in self.due():
            lines.append("  " + " | ".join(self._row(card)))
        return "\n".join(lines)

    def _row(self, card: Card) -> tuple[str, ...]:
        schedule = card.schedule
        if schedule.due is None:
            due = translate("deck_new", self.language)
        elif schedule.again and schedule.last == self.today:
            due = translate("deck_again", self.language)
        else:
            due = schedule.due.isoformat()
        depth = card.depth
        loss = (
            str(card.loss)
            if depth is None
            else translate("deck_loss_estimate", self.language, count=card.loss, depth=depth)
        )
        return (card.puzzle.name, f"{card.played}{card.mark}", loss, due, str(schedule.repetitions))

    def _repr_html_(self) -> str:
        """In a notebook: what is due today, as a table, under the sentence that says so."""
        language = self.language
        heads = "".join(
            f"<th>{html.escape(translate(key, language))}</th>"
            for key in ("deck_head_card", "deck_head_played", "deck_head_loss", "deck_head_due", "deck_head_repeated")
        )
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in self._row(card)) + "</tr>"
            for card in self.due()
        )
        table = (
            f"<table class='reversi-deck'><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>" if rows else ""
        )
        return f"<div class='reversi-deck'><p>{html.escape(self.why())}</p>{table}</div>"


def _mistakes(
    game: Game, game_id: int, learner: str, max_empties: int | None, depth: int | None
) -> tuple[list[Card], int, int]:
    """The mistakes of ``learner`` in ``game`` where the solver reaches (and before, by a
    search ``depth`` plies deep if given), the positions of the learner's beyond the
    solver's reach, and that reach in empty squares."""
    rules = game.rules
    colors = learner_colors(game, learner)
    board = game.board().root()
    reach = exact_empties(board.size, timed=False) if max_empties is None else max_empties
    if rules.supply is not None or not rules.is_named_start or rules.start != "standard":
        return [], 0, reach  # a puzzle is posed on the standard start's rules only
    puzzle_rules = Rules(size=rules.size, goal=rules.goal, scoring=rules.scoring)
    search = None
    cards, beyond = [], 0
    for ply, move in enumerate(game.moves, 1):
        learner_moves = board.turn in colors and move and not board.must_pass() and len(board.legal_moves) > 1
        position = Board(board.to_string(), rules=puzzle_rules)
        results: tuple[MoveResult, ...] | None = None
        estimate = learner_moves and board.empty_count() > reach
        if estimate:
            beyond += 1
            results = None if depth is None else estimated_results(position, depth)
        elif learner_moves:
            search = search or endgame_search(puzzle_rules, reach)
            results = exact_results(position, search)
        if results is not None:
            played = next(result for result in results if result.move == move)
            loss = results[0].score - played.score
            if loss >= MISTAKE_LOSS:
                source = Source(
                    _one_line(game.black_player), _one_line(game.white_player), move_number=ply, played=move
                )
                name = _one_line(f"{learner}, game {game_id}, {move_label(ply, move)}")
                at = depth if estimate else None
                puzzle = Puzzle(name, position.to_string(), puzzle_rules, "better", results, source=source, depth=at)
                cards.append(Card(puzzle, game_id, ply, move, loss, Sm2()))
        board.push(move)
    return cards, beyond, reach


def _scheduled(card: Card, tries: list[Game]) -> Card:
    """The card with its schedule replayed from the tries of its puzzle kept in the log."""
    schedule = Sm2()
    puzzle = card.puzzle
    for kept in tries:
        meta = kept.metadata
        if meta.get("puzzle") != puzzle.name:
            continue
        try:
            day = date.fromisoformat(kept.date[:10])
            score = int(meta.get("score", ""))
        except ValueError:
            continue  # a try without a readable day or score cannot be graded
        schedule = review(schedule, grade(puzzle, meta.get("solved") == "yes", score), max(day, schedule.last or day))
    return Card(card.puzzle, card.game_id, card.ply, card.played, card.loss, schedule)
