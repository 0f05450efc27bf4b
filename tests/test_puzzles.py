"""Puzzles: exact results against a brute-force search, the task and its solution set, the
verdict texts in four languages, the file format and its refusals, mining on any executor
(a real dask.distributed cluster included), and the shipped set re-proved by the solver."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_widget import Board, Game, InvalidPositionError, Move, ReversiError, Rules, solve
from reversi_widget.i18n import LANGUAGES
from reversi_widget.puzzles import (
    FORMAT_LINE,
    Puzzle,
    Source,
    choose_task,
    exact_results,
    format_puzzles,
    from_games,
    parse_puzzles,
    pose,
    quick_order,
    read_puzzles,
    shipped,
    write_puzzles,
)
from reversi_widget.puzzles.puzzle import MoveResult
from reversi_widget.records import GameLog
from reversi_widget.search.endgame import make_endgame
from reversi_widget.squares import BLACK, WHITE
from tests.native_support import require_compiled
from tests.support import play_random, unavailable

WTHOR_DIR = Path(os.environ.get("REVERSI_WTHOR_DIR", Path(__file__).resolve().parents[2] / "shared/data/wthor"))


# -- an independent referee: plain minimax through the Board API ----------------------------


def brute_force(board: Board) -> int:
    """The exact final margin for the side to move, by trying every line (small endgames only)."""
    if board.is_game_over():
        outcome = board.outcome()
        assert outcome is not None
        mine, theirs = (outcome.black, outcome.white) if board.turn == BLACK else (outcome.white, outcome.black)
        return (mine - theirs) if board.rules.goal == "classic" else (theirs - mine)
    if board.must_pass():
        board.push_pass()
        score = -brute_force(board)
        board.pop()
        return score
    best = -10_000
    for move in list(board.legal_moves):
        board.push(move)
        best = max(best, -brute_force(board))
        board.pop()
    return best


def endgame(seed: int, size: int, empties: int, goal: str = "classic", scoring: str = "count") -> Board | None:
    """A position of a random game with ``empties`` empty squares and at least three moves."""
    board = play_random(Board(rules=Rules(size=size, goal=goal, scoring=scoring)), random.Random(seed))
    game = Game.from_board(board)
    for position in game.positions():
        if position.empty_count() == empties and len(position.legal_moves) >= 3:
            return position
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([6, 8]),
    empties=st.integers(4, 7),
    goal=st.sampled_from(["classic", "inverted"]),
    scoring=st.sampled_from(["count", "tournament"]),
)
def test_exact_results_and_solutions_match_a_brute_force_search(
    seed: int, size: int, empties: int, goal: str, scoring: str
) -> None:
    board = endgame(seed, size, empties, goal, scoring)
    if board is None:
        return
    results = exact_results(board)
    assert sorted(str(r.move) for r in results) == sorted(str(m) for m in board.legal_moves)
    for r in results:
        after = board.copy(stack=False)
        after.push(r.move)
        assert r.score == -brute_force(after), r.move
        if r.reply is None:
            assert after.is_game_over()
        else:
            after.push(r.reply)  # the reply keeps the opponent's exact score
            assert brute_force(after) == r.score
    best = max(r.score for r in results)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    try:
        puzzle = pose(board)
    except ReversiError:
        assert choose_task([r.score for r in results]) is None
        return
    kept = {str(r.move) for r in results if puzzle.solves(r.score)}
    assert {str(m) for m in puzzle.solution} == kept
    assert 1 <= len(kept) <= 2 and len(kept) < len(results)
    if puzzle.task == "best":
        assert kept == {str(m) for m in solve(board).best_moves} == {str(r.move) for r in results if r.score == best}
    if puzzle.task == "win":
        assert kept == {str(r.move) for r in results if r.score > 0}
    if puzzle.task == "draw":
        assert best == 0 and kept == {str(r.move) for r in results if r.score == 0}
    if puzzle.task == "win-by":
        assert kept == {str(r.move) for r in results if r.score >= puzzle.target} and best > puzzle.target


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([6, -4, -10], ("win", 0)),  # one winning move
        ([6, 2, -4], ("win", 0)),  # two
        ([0, -2, -8], ("draw", 0)),  # only one move holds the draw
        ([14, 10, 2, 2], ("win-by", 10)),  # many win, the top two stand apart
        ([14, 10, 10, 2], ("best", 0)),  # many win, only the best stands apart
        ([8, 8, 8, 4], None),  # three share the best
        ([-2, -6, -6], ("best", 0)),  # a lost position: lose by the least
        ([4, 4], None),  # nothing fails
        ([0, 0, 0, -2], None),  # three hold the draw
    ],
)
def test_choose_task(scores: list[int], expected: tuple[str, int] | None) -> None:
    assert choose_task(scores) == expected
    assert choose_task(list(reversed(scores))) == expected


def test_a_larger_solution_set_can_be_allowed() -> None:
    assert choose_task([8, 8, 8, 4]) is None
    assert choose_task([8, 8, 8, 4], max_solutions=3) == ("best", 0)


# -- the shipped set ------------------------------------------------------------------------


def test_the_shipped_set_spans_what_it_promises() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 200
    assert len({p.name for p in puzzles}) == len(puzzles)
    eight = [p for p in puzzles if p.rules.size == 8]
    assert {p.difficulty.empties for p in eight if p.rules.goal == "classic"} == set(range(8, 21))
    assert {p.difficulty.empties for p in eight if p.rules.goal == "inverted"} == set(range(8, 20))
    assert {p.rules.goal for p in puzzles if p.rules.size == 6} == {"classic", "inverted"}
    assert {p.task for p in puzzles} == {"best", "win", "win-by", "draw"}
    assert len({p.difficulty.level for p in puzzles}) >= 5
    classic = [p for p in eight if p.rules.goal == "classic"]
    assert all(p.source.black and p.source.white and p.source.year and p.source.played for p in classic)
    assert any(p.source.played in p.solution for p in classic) and any(
        p.source.played not in p.solution for p in classic
    )
    assert shipped(size=6) == [p for p in puzzles if p.rules.size == 6]
    assert {p.difficulty.empties for p in shipped(empties=[9, 10])} == {9, 10}
    assert all(p.rules.goal == "inverted" for p in shipped(goal="inverted"))
    with pytest.raises(ReversiError, match="goal must be None or one of"):
        shipped(goal="reverse")
    with pytest.raises(ReversiError, match="empties must be None, an int or ints"):
        shipped(empties="12")  # type: ignore[arg-type]


def prove(puzzle: Puzzle) -> str:
    search = make_endgame(puzzle.rules.size, puzzle.rules.goal, puzzle.rules.scoring)
    assert search.compiled
    puzzle.prove(search)
    return puzzle.name


def test_every_shipped_puzzle_is_proved_by_the_solver() -> None:
    """The CI check: every score and every reply of the shipped file, re-proved exactly by
    the compiled solver, the deepest first on two threads (the kernel lets go of the GIL; a
    wrong score raises naming its puzzle). The pure-path pass skips it: 20 empties would take
    it hours."""
    require_compiled("endgame")
    puzzles = sorted(shipped(), key=lambda p: -p.difficulty.empties)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        proved = list(pool.map(prove, puzzles))
    assert proved == [p.name for p in puzzles]


def test_deep_puzzles_wait_for_the_compiled_solver_and_shallow_ones_do_not() -> None:
    """In a fresh process (a notebook's, a mining worker's) the compiled solver is still
    compiling or loading: a shallow position is solved in Python meanwhile, a deep one waits."""
    require_compiled("endgame")
    code = (
        "from reversi_widget import Rules\n"
        "from reversi_widget.puzzles.puzzle import endgame_search\n"
        "print(endgame_search(Rules(), 12).compiled, endgame_search(Rules(), 16).compiled)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    told = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert told.stdout.split() == ["False", "True"], told.stderr


def test_the_shipped_file_is_exactly_what_the_writer_makes(tmp_path: Path) -> None:
    from importlib import resources

    text = resources.files("reversi_widget").joinpath("data/puzzles.txt").read_text(encoding="utf-8")
    assert format_puzzles(shipped()) == text
    write_puzzles(shipped(), tmp_path / "again.txt")
    assert read_puzzles(tmp_path / "again.txt", prove=False) == shipped()  # proved above


NAMED_AFTER = re.compile(r", after (\d+)(\.|\.\.\.) ([a-p][0-9]{1,2}|pass)(?: \(inverted\))?\Z")


def test_the_shipped_names_say_where_as_the_move_list_numbers_it() -> None:
    """A name said "move 53" for ply 53, which the move list shows as 27. Each name now says
    the move that led to the position as the list names it ("after 26... d2"), and it agrees
    with the puzzle's ply, the side to move and the disc that move put down; the source says
    the move played there the same way."""
    for puzzle in shipped():
        ply, played = puzzle.source.move_number, puzzle.source.played
        assert ply is not None and played is not None, puzzle.name
        told = NAMED_AFTER.search(puzzle.name)
        assert told is not None and "move" not in puzzle.name, puzzle.name
        number, dots, square = int(told[1]), told[2], told[3]
        before = 2 * number - 1 if dots == "." else 2 * number  # the ply of the move named
        assert before == ply - 1, puzzle.name
        # Games from the standard start, passes counted: Black plays the odd plies.
        assert puzzle.turn == (BLACK if ply % 2 else WHITE), puzzle.name
        if square != "pass":
            assert puzzle.board().disc_at(square) == (BLACK if before % 2 else WHITE), puzzle.name
        pair, dots = (ply + 1) // 2, "." if ply % 2 else "..."
        assert str(puzzle.source).endswith(f", where {pair}{dots} {played} was played")
    first = shipped()[0]  # ply 53: Black's 27. a7 in the move list, after White's 26... a3
    assert first.source.move_number == 53 and first.name == "Andriani Bintsa–Lazard Emmanuel 2017, after 26... a3"
    assert str(first.source) == "Andriani Bintsa vs Lazard Emmanuel, Open Idf 8 2017, where 27. a7 was played"


def test_a_source_names_its_move_as_the_move_list_does() -> None:
    c7 = Move.from_name("c7")
    assert str(Source("Tastet", "Shaman", "Paris Open", 1990, 47, c7)) == (
        "Tastet vs Shaman, Paris Open 1990, where 24. c7 was played"
    )
    assert str(Source("Tastet", "Shaman", move_number=48, played=c7)) == "Tastet vs Shaman, where 24... c7 was played"
    assert str(Source(event="Paris Open", move_number=47)) == "Paris Open, before 24."
    assert str(Source(move_number=48)) == "before 24..."
    assert str(Source(played=c7)) == "where c7 was played"
    assert str(Source()) == ""


# -- verdicts -------------------------------------------------------------------------------


def a_puzzle(task: str, **where: object) -> Puzzle:
    """A shipped puzzle of this task (and other traits), for the text tests."""
    for puzzle in shipped():
        if puzzle.task == task and all(getattr(puzzle, k) == v for k, v in where.items()):
            return puzzle
    raise AssertionError(f"no shipped {task} puzzle with {where}")


def said(score: int) -> str:
    return f"wins by {score}" if score > 0 else f"loses by {-score}" if score < 0 else "draws"


def would(score: int) -> str:
    return f"would win by {score}" if score > 0 else f"would lose by {-score}" if score < 0 else "would draw"


def test_the_verdict_on_the_best_move_names_the_most_tempting_wrong_one() -> None:
    puzzle = a_puzzle("best")
    best, tempting = puzzle.results[0], puzzle.result(puzzle.tempting())
    verdict = puzzle.verdict(str(best.move))
    assert verdict.solved and verdict.best and verdict.score == best.score
    assert verdict.text == f"{best.move} {said(best.score)} — the best. {tempting.move} {would(tempting.score)}."
    assert tempting.move not in puzzle.solution
    assert tempting.move == next(m for m in quick_order(puzzle.board()) if m not in puzzle.solution)


def test_a_wrong_move_gets_its_result_and_the_reply_not_the_answer() -> None:
    puzzle = a_puzzle("win")
    wrong = next(r for r in puzzle.results if r.move not in puzzle.solution and r.reply)
    verdict = puzzle.verdict(wrong.move)
    other = "White" if puzzle.turn == BLACK else "Black"
    assert not verdict.solved and not verdict.best
    assert verdict.text == f"{wrong.move} {said(wrong.score)} — not a solution. {other} answers {wrong.reply}."
    assert not any(str(m) in verdict.text for m in puzzle.solution if m != wrong.reply)


def test_a_solving_move_that_is_not_the_best_says_what_the_best_gives() -> None:
    puzzle = next(p for p in shipped() if len(p.solution) == 2 and p.results[0].score > p.results[1].score)
    second = puzzle.result(puzzle.solution[1])
    verdict = puzzle.verdict(second.move)
    assert verdict.solved and not verdict.best
    top = puzzle.results[0]
    assert verdict.text == f"{second.move} {said(second.score)} — solved. {top.move} {would(top.score)}."
    assert puzzle.solution_text() == puzzle.verdict(top.move).text


def test_task_texts() -> None:
    win = a_puzzle("win", rules=Rules())
    side = "Black" if win.turn == BLACK else "White"
    assert win.task_text() == f"{side} to move: find a winning move."
    target = a_puzzle("win-by")
    assert target.task_text().endswith(f"to move: win by at least {target.target}.")
    inverted = next(p for p in shipped(goal="inverted") if p.task == "best")
    assert inverted.task_text().endswith("find the best move. Inverted goal: fewer discs win.")
    assert a_puzzle("draw").task_text().endswith("to move: save the draw.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_verdict_and_task_has_its_words_in_every_language(language: str) -> None:
    for puzzle in shipped()[::7]:
        assert "{" not in puzzle.task_text(language)
        for r in puzzle.results:
            text = puzzle.verdict(r.move, language).text
            assert "{" not in text and str(r.move) in text and (str(abs(r.score)) in text or r.score == 0)
    english = shipped()[0].verdict(shipped()[0].results[0].move).text
    if language != "en":
        assert shipped()[0].verdict(shipped()[0].results[0].move, language).text != english


@pytest.mark.parametrize(
    ("language", "count", "words"),
    [
        ("pl", 1, "wygrywa o 1 pionek"),
        ("pl", 22, "wygrywa o 22 pionki"),
        ("pl", 12, "wygrywa o 12 pionków"),
        ("uk", 1, "виграє на 1 фішку"),
        ("uk", 21, "виграє на 21 фішку"),
        ("uk", 4, "виграє на 4 фішки"),
        ("uk", 6, "виграє на 6 фішок"),
        ("ca", 1, "guanya per 1 peça"),
        ("ca", 6, "guanya per 6 peces"),
        ("en", 6, "wins by 6"),
    ],
)
def test_margins_take_the_plural_their_number_needs(language: str, count: int, words: str) -> None:
    puzzle = a_puzzle("best")
    move = puzzle.results[0].move
    fake = dataclasses.replace(
        puzzle, results=(MoveResult(move, count, puzzle.results[0].reply), *puzzle.results[1:]), task="best"
    )
    assert fake.verdict(move, language).text.startswith(f"{move} {words} — ")


def test_a_move_that_is_not_legal_is_refused_by_name() -> None:
    puzzle = shipped()[0]
    illegal = next(m for m in Board(rules=puzzle.rules).legal_moves if m not in puzzle.moves)
    with pytest.raises(ReversiError, match=rf"{illegal} is not a legal move in puzzle '{re.escape(puzzle.name)}'"):
        puzzle.verdict(illegal)
    with pytest.raises(ReversiError, match="z9"):
        puzzle.verdict("z9")
    with pytest.raises(ReversiError, match="6x6 board, not 8x8"):
        shipped(size=8)[0].verdict(Move(0, 6))


def test_repr_and_str_are_readable() -> None:
    puzzle = a_puzzle("win", rules=Rules())
    text = repr(puzzle)
    assert text.startswith(f"<Puzzle {puzzle.name!r}: ") and "find a winning move" in text
    assert f"solution {' '.join(map(str, puzzle.solution))}; difficulty {puzzle.difficulty.level}>" in text
    assert "6x6" in repr(shipped(size=6)[0]) and "inverted goal" in repr(shipped(goal="inverted")[0])
    assert str(puzzle.board()) in str(puzzle) and puzzle.task_text() in str(puzzle)
    assert puzzle._repr_svg_().startswith("<svg")


def test_a_puzzle_draws_itself_in_a_notebook_with_its_task_in_words() -> None:
    """``first`` at the end of a cell (examples/05-puzzles.ipynb): the board, and the task,
    its source and its difficulty said in words, not only ``<Puzzle ...>``."""
    puzzle = next(p for p in shipped(size=8) if p.difficulty.empties <= 10)
    html = puzzle._repr_html_()
    assert html.startswith('<figure class="reversi-puzzle"><svg') and html.count("<svg") == 1
    figure = ElementTree.fromstring(html)
    words = [" ".join(div.itertext()) for div in figure.iter("div")]
    assert words == [puzzle.name, puzzle.task_text(), f"From {puzzle.source}.", f"Difficulty {puzzle.difficulty}."]
    assert words[3].startswith(f"Difficulty level {puzzle.difficulty.level} of 10: read ")
    assert "+" not in words[3] and "depth" not in words[3]
    marked_up = dataclasses.replace(puzzle, name="<b>Ann</b> & Ben")._repr_html_()
    assert "<b>" not in marked_up and "&lt;b&gt;Ann&lt;/b&gt; &amp; Ben" in marked_up  # names show as text


def test_difficulty_follows_its_definition() -> None:
    for puzzle in shipped()[::5]:
        d = puzzle.difficulty
        order = quick_order(puzzle.board())
        assert d.decoys == next(i for i, m in enumerate(order) if m in puzzle.solution)
        assert d.failing == len(puzzle.results) - len(puzzle.solution)
        assert d.level == max(1, min(10, (d.empties - 6) // 2 + (d.failing >= 4) + min(d.decoys, 2)))
        told = re.fullmatch(
            r"level (\d+) of 10: read (\d+) moves? deep \((\d+) empty squares\), (a|no) trap \((\d+) of the (\d+) "
            r"moves fail\), (?:(no) decoy \(a quick eye finds a solution first\)|([12]) decoys? \(a quick eye tries "
            r"(\d+) failing moves? first\))",
            str(d),
        )
        assert told is not None, str(d)
        level, depth, empties, failing, moves = (int(told[i]) for i in (1, 2, 3, 5, 6))
        traps, decoys, tried = int(told[4] == "a"), int(told[8] or 0), int(told[9] or 0)
        assert (level, empties, failing, moves, tried) == (d.level, d.empties, d.failing, len(puzzle.results), d.decoys)
        assert level == max(1, min(10, depth + traps + decoys))


# -- the file: round trip and refusals -------------------------------------------------------


def test_a_file_round_trips(tmp_path: Path) -> None:
    chosen = shipped()[::20]
    write_puzzles(chosen, tmp_path / "set.txt")
    text = (tmp_path / "set.txt").read_text(encoding="utf-8")
    assert text.startswith(FORMAT_LINE + "\n\npuzzle: ")
    assert read_puzzles(tmp_path / "set.txt") == chosen  # re-proved on the way in
    with_comments = text.replace("\npuzzle: ", "\n# a comment\n\n  puzzle: ", 1)
    assert parse_puzzles(with_comments, prove=False) == chosen  # proved just above


def block_of(puzzle: Puzzle) -> str:
    return format_puzzles([puzzle])


@pytest.fixture
def sample() -> Puzzle:
    return a_puzzle("win", rules=Rules())


def edit(text: str, key: str, value: str | None) -> str:
    """The text with one ``key:`` line changed (``None`` drops it)."""
    pattern = re.compile(rf"^{key}: .*$", re.M)
    assert pattern.search(text), key
    return pattern.sub("" if value is None else f"{key}: {value}", text, count=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t, p: t.replace(FORMAT_LINE, "# something else"), "not a puzzle file"),
        (lambda t, p: edit(t, "task", "lose"), "task 'lose' is not best, win, win-by N, draw or better"),
        (lambda t, p: edit(t, "rules", "8x6 classic count"), "must read like '8x8 classic count'"),
        (lambda t, p: edit(t, "rules", "8x8 reverse count"), "the goal is one of"),
        (lambda t, p: edit(t, "results", None), "missing results"),
        (lambda t, p: t + "colour: red\n", "unknown key 'colour'"),
        (lambda t, p: t + "task: win\n", "'task' is given twice"),
        (lambda t, p: t.replace("puzzle: ", "puzzle ", 1), "expected 'key: value'"),
        (lambda t, p: edit(t, "year", "nineteen"), "year 'nineteen' must be a whole number"),
        (lambda t, p: edit(t, "position", "X" * 64 + " X"), "legal|no legal|game is over|results must list"),
        (lambda t, p: edit(t, "solution", "a1"), "the solution says a1, but the results make it"),
        (lambda t, p: edit(t, "difficulty", "10" if p.difficulty.level != 10 else "1"), "the difficulty says"),
        (
            lambda t, p: edit(t, "results", ", ".join(t.split("results: ")[1].split("\n")[0].split(", ")[1:])),
            "must list each legal move once",
        ),
        (lambda t, p: edit(t, "results", "d3 +6 e1, c7 -4"), "must read like 'd3 \\+6 e1'"),
        (lambda t, p: edit(t, "task", "draw"), "not a draw"),
        (lambda t, p: edit(t, "played", "z99"), "not a square"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_puzzle_and_line(
    sample: Puzzle, change: Callable[[str, Puzzle], str], message: str
) -> None:
    text = change(block_of(sample), sample)
    with pytest.raises(InvalidPositionError, match=message) as caught:
        parse_puzzles(text, where="class.txt")
    assert str(caught.value).startswith("class.txt")
    if "puzzle file" not in str(caught.value):
        assert f"puzzle {sample.name!r}" in str(caught.value) or "line" in str(caught.value)


#: The first puzzle of the file shipped with version 1 of the format, as it was.
VERSION_1 = """# reversi-widget puzzles 1

puzzle: Andriani Bintsa–Lazard Emmanuel 2017, move 53
position: OXXXXXXXOXXOOOOXOOOOOOXX-OOOOXXXXOOOXXXXOOOOOOXX--OXOO---OOOOO-- X
rules: 8x8 classic count
task: win
solution: a7 a4
results: a7 +34 b7, a4 +14 b7, g7 -2 a4, b7 -8 a4
black: Andriani Bintsa
white: Lazard Emmanuel
event: Open Idf 8
year: 2017
move: 53
played: a7
difficulty: 2
"""


def test_a_version_1_file_still_reads_with_its_move_as_the_ply() -> None:
    """Version 2 writes the ply as ``ply``; version 1 called it ``move``, which read as the
    move list's number. Old files still load; in a new one ``move`` is refused, saying why."""
    (old,) = parse_puzzles(VERSION_1)
    assert old.source.move_number == 53 and str(old.source).endswith("where 27. a7 was played")
    assert dataclasses.replace(old, name=shipped()[0].name) == shipped()[0]
    written = format_puzzles([old])
    assert written.startswith("# reversi-widget puzzles 2\n") and FORMAT_LINE == "# reversi-widget puzzles 2"
    assert "\nply: 53\nplayed: a7\n" in written and "\nmove:" not in written
    with pytest.raises(
        InvalidPositionError, match=r"^class.txt, line 13: 'move' is how version 1 .* \(.*'ply: 47' for 24\. c7\)"
    ):
        parse_puzzles(written.replace("\nply: ", "\nmove: "), where="class.txt")
    with pytest.raises(InvalidPositionError, match=r"line 13: unknown key 'ply' \(keys: .*, year, move, played"):
        parse_puzzles(written.replace(FORMAT_LINE, "# reversi-widget puzzles 1"))
    with pytest.raises(InvalidPositionError, match=r"line 16: 'move' is given twice"):
        parse_puzzles(VERSION_1 + "move: 53\n")
    with pytest.raises(
        InvalidPositionError,
        match=r"not a puzzle file this package reads: the first line must be '# reversi-widget puzzles 2' "
        r"\(or an older version's, '# reversi-widget puzzles 1'\)",
    ):
        parse_puzzles(written.replace(FORMAT_LINE, "# reversi-widget puzzles 3"))


def test_a_wrong_reply_is_refused() -> None:
    puzzle = next(p for p in shipped() if any(r.reply and r.reply.square is not None for r in p.results))
    r = next(r for r in puzzle.results if r.reply)
    board = puzzle.board()
    taken = next(str(Move(sq)) for sq in range(64) if board.disc_at(sq) is not None)
    text = block_of(puzzle).replace(f"{r.move} {r.score:+d} {r.reply}", f"{r.move} {r.score:+d} {taken}")
    with pytest.raises(InvalidPositionError, match=f"the reply {taken} to {r.move} is not a legal move"):
        parse_puzzles(text)


def test_a_solution_wrong_for_its_position_is_refused() -> None:
    """Scores changed together with their solution read as consistent, and only the solver
    can tell: reading proves them (unless told not to), naming the puzzle and the move."""
    puzzle = a_puzzle("best", rules=Rules())
    top, second = puzzle.results[0], puzzle.results[1]
    swapped = block_of(puzzle)
    line = re.search(r"^results: .*$", swapped, re.M)
    assert line is not None
    items = line.group(0)[len("results: ") :].split(", ")
    items[0] = f"{top.move} {second.score:+d} {'end' if top.reply is None else top.reply}"
    items[1] = f"{second.move} {top.score:+d} {'end' if second.reply is None else second.reply}"
    lying = swapped.replace(line.group(0), "results: " + ", ".join(items))
    lying = re.sub(r"^solution: .*$", f"solution: {second.move}", lying, flags=re.M)
    lying = re.sub(r"^difficulty: .*$\n?", "", lying, flags=re.M)
    accepted = parse_puzzles(lying, prove=False)  # consistent on its face
    assert accepted[0].solution == (second.move,)
    claimed = re.escape(f"{top.score:+d}")
    expected = (
        rf"lying.txt, line 3: puzzle '{re.escape(puzzle.name)}': {second.move} scores at most [-+][0-9]+, not {claimed}"
    )
    with pytest.raises(InvalidPositionError, match=expected):
        parse_puzzles(lying, where="lying.txt")


def test_duplicate_names_and_bad_files_are_refused(tmp_path: Path, sample: Puzzle) -> None:
    with pytest.raises(InvalidPositionError, match="two puzzles are named"):
        format_puzzles([sample, sample])
    doubled = block_of(sample) + "\n" + block_of(sample).replace(FORMAT_LINE, "")
    with pytest.raises(InvalidPositionError, match="a second puzzle is named"):
        parse_puzzles(doubled)
    with pytest.raises(InvalidPositionError, match="cannot be read"):
        read_puzzles(tmp_path / "missing.txt")
    (tmp_path / "latin1.txt").write_bytes(FORMAT_LINE.encode() + b"\npuzzle: caf\xe9\n")
    with pytest.raises(InvalidPositionError, match="not UTF-8"):
        read_puzzles(tmp_path / "latin1.txt")
    with pytest.raises(InvalidPositionError, match="needs a one-line name"):
        dataclasses.replace(sample, name="two\nlines")
    with pytest.raises(InvalidPositionError, match="source event must be one line"):
        dataclasses.replace(sample, source=dataclasses.replace(sample.source, event=" padded"))


def test_a_puzzle_value_refuses_inconsistent_parts(sample: Puzzle) -> None:
    with pytest.raises(InvalidPositionError, match="no move wins"):
        dataclasses.replace(
            sample, results=tuple(dataclasses.replace(r, score=-abs(r.score) - 1) for r in sample.results)
        )
    with pytest.raises(InvalidPositionError, match="every legal move solves it"):
        dataclasses.replace(
            sample, results=tuple(dataclasses.replace(r, score=abs(r.score) + 1) for r in sample.results)
        )
    with pytest.raises(InvalidPositionError, match="a target is given for the task 'win-by', and only for it"):
        dataclasses.replace(sample, target=3)
    with pytest.raises(InvalidPositionError, match="no start, no disc supply"):
        dataclasses.replace(sample, rules=Rules(supply=32))
    with pytest.raises(InvalidPositionError, match="source black must be one line"):
        Source(black="a\nb")


# -- posing and mining -----------------------------------------------------------------------


def test_pose_a_position_set_up_by_hand() -> None:
    board = endgame(7, 8, 10)
    assert board is not None
    puzzle = pose(board, name="by hand")
    assert puzzle.position == board.to_string() and puzzle.rules == Rules()
    assert [r.score for r in puzzle.results] == [r.score for r in exact_results(board)]
    puzzle.prove()
    with pytest.raises(ReversiError, match="the solver plays 8x8 inverted count, not the position's 8x8 classic count"):
        exact_results(board, make_endgame(8, "inverted"))
    with pytest.raises(InvalidPositionError, match=r"no move wins|not a draw"):
        pose(board, task="win") if puzzle.best_score <= 0 else pose(board, task="draw")


def random_games(count: int, size: int = 8, seed: int = 11) -> list[Game]:
    rng = random.Random(seed)
    return [
        Game.from_board(
            play_random(Board(rules=Rules(size=size)), rng), black_player=f"b{i}", white_player=f"w{i}", date="2001"
        )
        for i in range(count)
    ]


def test_mining_gives_the_same_puzzles_on_threads_and_processes() -> None:
    games = random_games(16)
    calls: list[tuple[int, int]] = []
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        by_threads = from_games(
            games, [8, 9], played="any", executor=threads, progress=lambda d, t: calls.append((d, t))
        )
    with concurrent.futures.ProcessPoolExecutor(2) as processes:
        by_processes = from_games(games, [8, 9], played="any", executor=processes, progress=False)
    assert by_threads == by_processes and len(by_threads) >= 5
    assert calls and calls[-1] == (16, 16)
    for puzzle in by_threads:
        game = games[int(puzzle.source.black[1:])]
        assert puzzle.source.year == 2001 and puzzle.difficulty.empties in (8, 9)
        assert game.board_at(puzzle.source.move_number - 1).to_string() == puzzle.position  # type: ignore[operator]
        assert game.moves[puzzle.source.move_number - 1] == puzzle.source.played  # type: ignore[operator]
        ply = puzzle.source.move_number
        assert ply is not None
        # The move that led to the position, as the move list numbers it: ply 52 is "26... d2".
        named = f"{ply // 2}{'...' if ply % 2 else '.'} {game.moves[ply - 2]}"
        assert puzzle.name == f"{puzzle.source.black}–{puzzle.source.white} 2001, after {named}"


def test_a_position_after_a_pass_or_at_the_start_is_named_so() -> None:
    from reversi_widget.puzzles import _where

    rng = random.Random(3)
    game = next(g for g in (random_games(1, seed=rng.randrange(10**6))[0] for _ in range(200)) if not all(g.moves))
    passed = next(i for i, move in enumerate(game.moves) if not move) + 1  # its ply
    assert _where(game, passed + 1) == f"after {(passed + 1) // 2}{'.' if passed % 2 else '...'} pass"
    assert _where(game, 1) == "at the start"
    assert _where(game, 53) == f"after 26... {game.moves[51]}" and _where(game, 54) == f"after 27. {game.moves[52]}"


def test_the_played_filter_and_the_other_goal() -> None:
    games = random_games(12, seed=5)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        kinds = {
            played: from_games(games, 9, played=played, executor=pool, progress=False)
            for played in ("any", "right", "wrong", "interesting")
        }
        inverted = from_games(games, 9, goal="inverted", played="any", executor=pool, progress=False)
        once = from_games(games, range(8, 12), played="any", per_game=1, executor=pool, progress=False)
    assert all(p.source.played in p.solution for p in kinds["right"])
    assert all(p.source.played not in p.solution for p in kinds["wrong"])
    assert len(kinds["right"]) + len(kinds["wrong"]) == len(kinds["any"]) > 0
    assert {p.name for p in kinds["interesting"]} == {p.name for p in kinds["wrong"]} | {
        p.name for p in kinds["right"] if p.difficulty.decoys
    }
    assert inverted and all(p.rules.goal == "inverted" and p.name.endswith("(inverted)") for p in inverted)
    assert len({p.source.black for p in once}) == len(once)


def test_mining_reads_ggf_games_as_the_games_they_hold() -> None:
    from reversi_widget import read_ggf_games, write_ggf_games

    games = random_games(6, size=6, seed=9)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        direct = from_games(games, [8, 10], played="any", executor=pool, progress=False)
        from_ggf = from_games(
            read_ggf_games(write_ggf_games(games)), [8, 10], played="any", executor=pool, progress=False
        )
    assert direct and [p.results for p in from_ggf] == [p.results for p in direct]
    assert all(p.rules.size == 6 for p in direct)


def test_mining_reads_wthor_records_and_a_game_log(tmp_path: Path) -> None:
    if not (WTHOR_DIR / "WTH_1990.wtb").exists():
        unavailable(f"the WTHOR database is not at {WTHOR_DIR}")
    from itertools import islice

    from reversi_widget import read_wthor

    records = list(islice(read_wthor(WTHOR_DIR / "WTH_1990.wtb"), 6))
    log = GameLog(tmp_path / "games.sqlite")
    for record in records:
        log.add(record.to_game())
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        from_records = from_games(records, 10, played="any", executor=pool, progress=False)
        from_log = from_games(log, 10, played="any", executor=pool, progress=False)
    assert from_records and [p.results for p in from_records] == [p.results for p in from_log]
    assert all(p.source.year == 1990 and p.source.event for p in from_records)


def test_mining_on_a_dask_cluster_gives_the_same_puzzles_as_a_process_pool() -> None:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        unavailable("dask.distributed is not installed (it is in the test extra)")
    games = random_games(10, seed=3)
    with concurrent.futures.ProcessPoolExecutor(2) as processes:
        local = from_games(games, [8, 10], played="any", executor=processes, progress=False)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = from_games(games, [8, 10], played="any", executor=client.get_executor(), progress=False)
    assert on_dask == local and len(local) >= 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"empties": 0}, "empties must be a positive int"),
        ({"empties": []}, "empties must be a positive int"),
        ({"goal": "reverse"}, "goal must be None or one of"),
        ({"played": "good"}, "played must be one of any, right, wrong, interesting"),
        ({"max_solutions": 0}, "max_solutions must be an int of at least 1"),
        ({"per_game": True}, "per_game must be None or a positive int"),
    ],
)
def test_mining_parameters_are_checked(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ReversiError, match=message):
        from_games([], **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Game or WthorRecord"):
        from_games(["f5d6"], 8)  # type: ignore[list-item]
