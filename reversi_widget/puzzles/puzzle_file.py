"""The puzzle file: plain text, one ``key: value`` line per field, a blank line between puzzles.

::

    # reversi-widget puzzles 2
    puzzle: Tastet–Shaman 1990, after 23... b3
    position: -----...----XO-- X
    rules: 8x8 classic count
    task: win
    solution: d3
    results: d3 +6 e1, c7 -4 b8, a1 -10 pass, h8 +0 end
    black: Tastet
    white: Shaman
    event: Paris Open
    year: 1990
    ply: 47
    played: c7
    difficulty: 5

The first line names the format and its version. ``position`` is the one-line form of
``Board.to_string``; ``rules`` the size, goal and scoring; ``task`` one of ``best``, ``win``,
``win-by N`` and ``draw``. ``results`` gives every legal move with its exact score for the side
to move and the opponent's best reply (a square, ``pass``, or ``end`` when the move ends the
game). ``solution`` and ``difficulty`` are what the results imply: a file is refused when they
disagree, so a hand-edited score cannot silently change the answer, and reading re-proves the
results themselves with the solver. The source lines are
optional, and ``#`` starts a comment line. Every error names the file, the line and the puzzle.

``ply`` is where the game reached the position: the move ``played`` there is the game's
move of that ply, its moves counted one by one from 1, passes included. The move list counts
them in pairs, so ply 47 is ``24. c7`` and ply 48 would be ``24... c7``; names and texts say
it that way. Version 1 of the format called the same number ``move``, which read as the
move list's number; version 2 renamed it. Files of version 1 are still read (their ``move``
is the ply); in a version 2 file ``move`` is refused, so a move list's number is never taken
for a ply. A version 2 file is refused by a package that reads version 1 only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..board import Move
from ..errors import InvalidMoveError, InvalidPositionError, ReversiError
from ..rules import GOALS, SCORINGS, Rules
from .puzzle import MoveResult, Puzzle, Source

__all__ = ["FORMAT_LINE", "format_puzzles", "parse_puzzles", "read_puzzles", "write_puzzles"]

FORMAT_LINE = "# reversi-widget puzzles 2"
#: The first lines of the versions read, and the version each names.
_VERSIONS = {FORMAT_LINE: 2, "# reversi-widget puzzles 1": 1}
#: Longest file read (tens of thousands of puzzles); a longer one is refused before it is read.
MAX_FILE_BYTES = 32 * 1024 * 1024

_REQUIRED = ("puzzle", "position", "rules", "task", "solution", "results")
_OPTIONAL = ("black", "white", "event", "year", "ply", "played", "difficulty")
#: Version 1's name of a key: ``move`` was the ply.
_OLD_KEYS = {1: {"move": "ply"}}
_LINE_RE = re.compile(r"([a-z]+):(.*)\Z")
_RULES_RE = re.compile(r"([0-9]{1,2})x([0-9]{1,2}) ([a-z]+) ([a-z]+)\Z")
_TASK_RE = re.compile(r"(best|win|draw|better|win-by ([1-9][0-9]{0,2}))\Z")
_RESULT_RE = re.compile(r"([a-p][0-9]{1,2}) ([+-]?[0-9]{1,3}) ([a-p][0-9]{1,2}|pass|end)\Z")
_NUMBER_RE = re.compile(r"[0-9]{1,6}\Z")


# -- writing ----------------------------------------------------------------------------


def format_puzzle(puzzle: Puzzle) -> str:
    """One puzzle's block of lines (no blank line around it)."""
    if puzzle.estimated:
        raise InvalidPositionError(
            f"puzzle {puzzle.name!r} holds a depth-{puzzle.depth} search's estimates: "
            "a puzzle file keeps proven scores only"
        )
    source = puzzle.source
    rules = puzzle.rules
    task = f"win-by {puzzle.target}" if puzzle.task == "win-by" else puzzle.task
    fields = [
        ("puzzle", puzzle.name),
        ("position", puzzle.position),
        ("rules", f"{rules.size}x{rules.size} {rules.goal} {rules.scoring}"),
        ("task", task),
        ("solution", " ".join(str(m) for m in puzzle.solution)),
        ("results", ", ".join(_format_result(r) for r in puzzle.results)),
        ("black", source.black),
        ("white", source.white),
        ("event", source.event),
        ("year", "" if source.year is None else str(source.year)),
        ("ply", "" if source.move_number is None else str(source.move_number)),
        ("played", "" if source.played is None else str(source.played)),
        ("difficulty", str(puzzle.difficulty.level)),
    ]
    return "\n".join(f"{key}: {value}" for key, value in fields if value)


def _format_result(r: MoveResult) -> str:
    reply = "end" if r.reply is None else str(r.reply)
    return f"{r.move} {r.score:+d} {reply}"


def format_puzzles(puzzles: Iterable[Puzzle]) -> str:
    """The text of a puzzle file; names must be unique, so errors can name a puzzle."""
    blocks = [FORMAT_LINE]
    seen: set[str] = set()
    for puzzle in puzzles:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"expected Puzzle values, got {type(puzzle).__name__}")
        if puzzle.name in seen:
            raise InvalidPositionError(f"two puzzles are named {puzzle.name!r}: names must be unique in a file")
        seen.add(puzzle.name)
        blocks.append(format_puzzle(puzzle))
    return "\n\n".join(blocks) + "\n"


def write_puzzles(puzzles: Iterable[Puzzle], path: str | os.PathLike[str]) -> None:
    """Write a puzzle file (UTF-8); nothing is written if a puzzle cannot be."""
    text = format_puzzles(puzzles)
    Path(path).write_text(text, encoding="utf-8")


# -- reading ----------------------------------------------------------------------------


def read_puzzles(path: str | os.PathLike[str], *, prove: bool = True) -> list[Puzzle]:
    """The puzzles of a file. Each is checked for consistency, and every score and reply is
    re-proved by the exact solver, so a solution wrong for its position is refused (the
    compiled solver from 16 empties on: up to seconds a puzzle at 20 empties). ``prove=False``
    trusts the scores of a file proved before."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InvalidPositionError(f"{path}: {size} bytes is more than a puzzle file holds ({MAX_FILE_BYTES})")
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidPositionError(f"{path}: cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InvalidPositionError(f"{path}: is not UTF-8 text ({error.reason} at byte {error.start})") from None
    return parse_puzzles(text, where=str(path), prove=prove)


def parse_puzzles(text: str, *, where: str = "puzzle text", prove: bool = True) -> list[Puzzle]:
    """The puzzles of a file's text, checked as ``read_puzzles`` does; ``where`` names it in errors."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"{where}: puzzle text must be a string, got {type(text).__name__}")
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    version = None if first is None else _VERSIONS.get(lines[first].strip())
    if first is None or version is None:
        raise InvalidPositionError(
            f"{where}: not a puzzle file this package reads: the first line must be {FORMAT_LINE!r} "
            f"(or an older version's, {' or '.join(repr(line) for line in _VERSIONS if line != FORMAT_LINE)})"
        )
    renamed = _OLD_KEYS.get(version, {})
    named = {new: old for old, new in renamed.items()}
    keys = tuple(named.get(key, key) for key in _REQUIRED + _OPTIONAL)
    blocks: list[tuple[int, dict[str, tuple[int, str]]]] = []
    for number, raw in enumerate(lines[first + 1 :], first + 2):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE_RE.match(line)
        if match is None:
            raise InvalidPositionError(f"{where}, line {number}: expected 'key: value', got {line[:60]!r}")
        key, value = match.group(1), match.group(2).strip()
        if key == "puzzle":
            blocks.append((number, {}))
        elif not blocks:
            raise InvalidPositionError(f"{where}, line {number}: {key!r} comes before the first 'puzzle:' line")
        fields = blocks[-1][1]
        if key == "move" and version == 2:
            raise InvalidPositionError(
                f"{where}, line {number}: 'move' is how version 1 of the format gave the ply; version 2 "
                f"gives it as 'ply' (the game's moves counted one by one: 'ply: 47' for 24. c7), so a "
                f"move list's number is never read as a ply"
            )
        if key not in keys:
            raise InvalidPositionError(f"{where}, line {number}: unknown key {key!r} (keys: {', '.join(keys)})")
        stored = renamed.get(key, key)
        if stored in fields:
            raise InvalidPositionError(f"{where}, line {number}: {key!r} is given twice in one puzzle")
        fields[stored] = (number, value)
    puzzles: list[Puzzle] = []
    names: set[str] = set()
    for number, fields in blocks:
        name = fields["puzzle"][1]
        try:
            puzzle = _puzzle(fields)
            if prove:
                puzzle.prove()
        except ReversiError as error:
            message = str(error)
            prefix = f"puzzle {name!r}: "
            raise InvalidPositionError(
                f"{where}, line {number}: {message if message.startswith(prefix) else prefix + message}"
            ) from None
        if name in names:
            raise InvalidPositionError(f"{where}, line {number}: a second puzzle is named {name!r}")
        names.add(name)
        puzzles.append(puzzle)
    return puzzles


def _puzzle(fields: dict[str, tuple[int, str]]) -> Puzzle:
    """A puzzle from its fields, every stated consequence checked against the results."""
    missing = [key for key in _REQUIRED if key not in fields]
    if missing:
        raise InvalidPositionError(f"missing {', '.join(missing)}")
    value = {key: text for key, (_, text) in fields.items()}
    rules = _rules(value["rules"])
    task_match = _TASK_RE.match(value["task"])
    if task_match is None:
        raise InvalidPositionError(f"task {value['task']!r} is not best, win, win-by N, draw or better")
    task, target = ("win-by", int(task_match.group(2))) if task_match.group(2) else (task_match.group(1), 0)
    results = tuple(_result(item.strip(), rules.size) for item in value["results"].split(","))
    source = Source(
        black=value.get("black", ""),
        white=value.get("white", ""),
        event=value.get("event", ""),
        year=_number(value, "year"),
        move_number=_number(value, "ply"),
        played=_move(value["played"], rules.size) if value.get("played") else None,
    )
    puzzle = Puzzle(value["puzzle"], value["position"], rules, task, results, target, source)
    stated = [_move(name, rules.size) for name in value["solution"].split()]
    if sorted(map(str, stated)) != sorted(map(str, puzzle.solution)):
        raise InvalidPositionError(
            f"the solution says {value['solution'] or 'nothing'}, but the results make it "
            f"{' '.join(str(m) for m in puzzle.solution)}"
        )
    if "difficulty" in value and value["difficulty"] != str(puzzle.difficulty.level):
        raise InvalidPositionError(
            f"the difficulty says {value['difficulty']}, but the position and results make it {puzzle.difficulty.level}"
        )
    return puzzle


def _rules(text: str) -> Rules:
    match = _RULES_RE.match(text)
    if match is None or match.group(1) != match.group(2):
        raise InvalidPositionError(f"rules {text!r} must read like '8x8 classic count'")
    goal, scoring = match.group(3), match.group(4)
    if goal not in GOALS or scoring not in SCORINGS:
        raise InvalidPositionError(f"rules {text!r}: the goal is one of {GOALS}, the scoring one of {SCORINGS}")
    return Rules(size=int(match.group(1)), goal=goal, scoring=scoring)


def _result(text: str, size: int) -> MoveResult:
    match = _RESULT_RE.match(text)
    if match is None:
        raise InvalidPositionError(f"result {text[:40]!r} must read like 'd3 +6 e1' (move, score, reply)")
    reply_text = match.group(3)
    reply = None if reply_text == "end" else Move.null(size) if reply_text == "pass" else _move(reply_text, size)
    return MoveResult(_move(match.group(1), size), int(match.group(2)), reply)


def _move(name: str, size: int) -> Move:
    try:
        move = Move.from_name(name, size)
    except InvalidMoveError as error:
        raise InvalidPositionError(f"{name[:20]!r} is not a square of a {size}x{size} board: {error}") from None
    if move.square is None:
        raise InvalidPositionError("a pass is not a move to find")
    return move


def _number(value: dict[str, str], key: str) -> int | None:
    text = value.get(key, "")
    if not text:
        return None
    if _NUMBER_RE.match(text) is None:
        raise InvalidPositionError(f"{key} {text[:20]!r} must be a whole number")
    return int(text)
