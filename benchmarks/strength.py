"""The expert (``Engine(7)``) against Zebra, WZebra's engine, at equal time, with a referee of
its own.

Zebra is built outside this project from its public source (github lk16/zebra, which keeps
its trained weights, ``coeffs2.bin``, beside the code) and plays without an opening book
(``-b 0``). Pass the built binary as ``--zebra``; ``coeffs2.bin`` is looked for beside it.
Build it with gcc's ``-fwrapv``: its bitboard flip code counts on signed overflow wrapping
around, and a gcc 12 build without the flag crashes in most exact endgame searches. Before the
first game, Zebra's exact scores of three positions are checked against the package's solver,
and a build that crashes or errs there is refused.

A game: Zebra plays one colour on a game clock of ``--clock`` seconds (``-time T 0 T 0``) and
reads the other side's moves from its standard input, as it would a person's. The expert
plays on the same game clock, ``Engine(7, clock=T)``; an engine without a game clock gets
``time_limit=T/30`` a move instead, and the output says so. Each of ``--openings`` random
4-ply openings (fixed by ``--seed``) is played twice, colours swapped. The default clock
gives each side about a second a move; the figures printed say how much each really used.

The referee is independent of both players: a small rules implementation written here (a
10x10 mailbox walked square by square, nothing of the package's bitboards). It checks the
opening, every move and pass of both sides, the end and the final count. Zebra's moves are
read from the board it prints after moving (the one legal move that makes that board), and
the package's ``Board`` is compared with the referee's position after every move.

Zebra runs in a scratch directory holding a link to ``coeffs2.bin``: it writes files there
(current.gam, current.mov, zebra.log), which two runs sharing its own folder would
overwrite. Its standard input stays open until it is killed at the end of each game (at end
of input it would prompt forever). A Zebra that crashes, stops answering or prints a board
no legal move makes ends that game: it is reported and left out of the score, and the match
goes on. A move of ours that the referee refuses, or a package ``Board`` that disagrees with
it, stops the match with the position: that is a bug to fix, not a game to count.

Every game (moves, times, depths, both engines' own scores) goes to ``--json`` as it ends;
``benchmarks/where_lost.py`` reads that file.

    python benchmarks/strength.py                          # 20 openings, 40 games
    python benchmarks/strength.py --openings 10 --clock 40 --json strength.json
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import random
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reversi_widget import BLACK, Board, native
from reversi_widget.engine import Engine
from reversi_widget.solver import solve

DEFAULT_ZEBRA = Path(__file__).resolve().parents[2] / "anchors" / "zebra" / "zebra"
#: Seconds on each side's game clock by default: about a second a move for each side
#: (Zebra keeps 10 s of any clock in reserve; see the README's figures).
DEFAULT_CLOCK = 40
#: Our moves in a game, for the fallback per-move limit of an engine without a game clock.
MOVES_PER_SIDE = 30
#: Positions with at least this many empty squares count for the depth reached.
DEPTH_EMPTIES = 24
#: Seconds Zebra may stay silent past its whole clock before it is taken to have hung.
HANG_MARGIN = 30.0
#: Output past this many bytes in one game means Zebra has run away; it is killed.
OUTPUT_LIMIT = 20_000_000

# -- the referee ------------------------------------------------------------------------------

NAMES = [f"{col}{row}" for row in "12345678" for col in "abcdefgh"]  # a1, b1, ..., h8
EMPTY, DARK, LIGHT, OUTSIDE = 0, 1, -1, 9
STEPS = (-11, -10, -9, -1, 1, 9, 10, 11)


def cell_of(name: str) -> int:
    """The mailbox cell of a square name such as ``"f5"`` (rows and columns 1-8)."""
    if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
        raise RefereeError(f"{name!r} is not a square of the 8x8 board")
    return 10 * int(name[1]) + "abcdefgh".index(name[0]) + 1


CELLS = [cell_of(name) for name in NAMES]


class RefereeError(Exception):
    """A move, pass or result the rules do not allow."""


class Referee:
    """8x8 Othello on a 10x10 mailbox: the board with a frame of ``OUTSIDE`` cells, so a walk
    in any of the eight directions stops at the edge without bounds checks."""

    def __init__(self) -> None:
        self.cells = [OUTSIDE] * 100
        for cell in CELLS:
            self.cells[cell] = EMPTY
        for name, colour in (("d4", LIGHT), ("e5", LIGHT), ("d5", DARK), ("e4", DARK)):
            self.cells[cell_of(name)] = colour
        self.to_move = DARK

    def flips(self, cell: int, colour: int) -> list[int]:
        """The discs that a disc of ``colour`` on the empty ``cell`` turns over."""
        if self.cells[cell] != EMPTY:
            return []
        turned: list[int] = []
        for step in STEPS:
            line: list[int] = []
            at = cell + step
            while self.cells[at] == -colour:
                line.append(at)
                at += step
            if line and self.cells[at] == colour:
                turned += line
        return turned

    def moves(self, colour: int) -> list[str]:
        return [name for name, cell in zip(NAMES, CELLS, strict=True) if self.flips(cell, colour)]

    def over(self) -> bool:
        return not self.moves(DARK) and not self.moves(LIGHT)

    def play(self, name: str | None) -> None:
        """Play ``name`` for the side to move, or pass with None; refuse what the rules do not allow."""
        side = "Black" if self.to_move == DARK else "White"
        if self.over():
            raise RefereeError(f"{side} cannot play {name or 'a pass'}: the game is over")
        if name is None:
            if self.moves(self.to_move):
                raise RefereeError(f"{side} passed with legal moves {' '.join(self.moves(self.to_move))}")
        else:
            cell = cell_of(name)
            turned = self.flips(cell, self.to_move)
            if not turned:
                raise RefereeError(f"{side} played {name}, which is not a legal move")
            for at in (cell, *turned):
                self.cells[at] = self.to_move
        self.to_move = -self.to_move

    def after(self, name: str) -> str:
        """The board (``grid()``) after the side to move plays ``name``, the position unchanged."""
        cell = cell_of(name)
        turned = self.flips(cell, self.to_move)
        saved = {at: self.cells[at] for at in (cell, *turned)}
        for at in saved:
            self.cells[at] = self.to_move
        grid = self.grid()
        for at, before in saved.items():
            self.cells[at] = before
        return grid

    def counts(self) -> tuple[int, int]:
        discs = [self.cells[cell] for cell in CELLS]
        return discs.count(DARK), discs.count(LIGHT)

    def grid(self) -> str:
        """64 characters, a1 to h8: ``X`` black, ``O`` white, ``-`` empty."""
        return "".join({DARK: "X", LIGHT: "O", EMPTY: "-"}[self.cells[cell]] for cell in CELLS)


def package_grid(board: Board) -> str:
    black, white = board.bitboards()
    return "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(64))


def check_package(board: Board, referee: Referee) -> None:
    """The package's Board must hold the referee's position, side to move, legal moves and end."""
    problems = []
    if package_grid(board) != referee.grid():
        problems.append(f"discs {package_grid(board)} against the referee's {referee.grid()}")
    if board.is_game_over() != referee.over():
        problems.append(f"game over {board.is_game_over()} against the referee's {referee.over()}")
    elif not referee.over():
        if (board.turn == BLACK) != (referee.to_move == DARK):
            problems.append("a different side to move")
        ours = sorted(str(move) for move in board.legal_moves if move)
        if ours != sorted(referee.moves(referee.to_move)):
            problems.append(f"legal moves {ours} against the referee's {sorted(referee.moves(referee.to_move))}")
    else:
        outcome = board.outcome()
        if outcome is None or (outcome.black, outcome.white) != referee.counts():
            problems.append(f"final count {outcome} against the referee's {referee.counts()}")
    if problems:
        raise RefereeError(f"the package's Board disagrees with the referee after {board.transcript()}: {problems}")


# -- what Zebra prints ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    """One of Zebra's search lines, e.g. ``-->  21  +1.09  3659282  d6 c4 d3 c3 f4  1.5 s  2421699 nps``:
    the depth of a midgame iteration or, in an endgame search, the empties solved, and the
    score for the side to move in discs."""

    text: str
    kind: str  # midgame, exact, wld (win/loss/draw only), selective (endgame at a confidence), forced, pass
    depth: int
    interrupted: bool
    score: float | None  # discs, mover's view; None for a bare win/loss/draw
    sign: int  # the sign of the result the score stands for
    seconds: float | None


STATUS = re.compile(r"^-->\s?(?P<star>\*)?\s*(?P<depth>\d+)\s{2}(?P<eval>\S+(?: \S+)*)\s{2,}(?P<rest>.*)$")
SECONDS = re.compile(r"\s(\d+(?:\.\d+)?) s(?:\s|$)")
WLD = {"Win": 1, "Draw": 0, "Loss": -1}


def parse_status(line: str) -> Status | None:
    """A search line of Zebra's, or None for any other line."""
    if not line.startswith("-->"):
        return None
    words = line[3:].split()
    if words and words[0] in ("forced", "pass"):
        return Status(line, words[0], 0, False, None, 0, None)
    match = STATUS.match(line)
    if match is None:
        return None
    text = match["eval"]
    seconds_match = SECONDS.search(" " + match["rest"])
    seconds = float(seconds_match[1]) if seconds_match else None
    selective = re.fullmatch(r"(\S+) @ \d+%", text)
    value = selective[1] if selective else text
    if value in WLD:
        score, sign = (0.0 if value == "Draw" else None), WLD[value]
    elif re.fullmatch(r"[+-]?\d+(?:\.\d+)?", value):
        score = float(value)
        sign = (score > 0) - (score < 0)
    else:
        return None
    if selective:
        kind = "selective"
    elif "." in value:
        kind = "midgame"
    else:
        kind = "exact" if score is not None else "wld"
    return Status(line, kind, int(match["depth"]), match["star"] is not None, score, sign, seconds)


@dataclass(frozen=True)
class Shown:
    """A board Zebra printed: 64 characters as ``Referee.grid``, and whose turn it marks."""

    grid: str
    black_to_move: bool
    at: float


@dataclass(frozen=True)
class Prompt:
    """Zebra asks for our move."""

    black: bool
    at: float


@dataclass(frozen=True)
class MustPass:
    """Zebra tells us we have no move and waits for Enter."""

    at: float


@dataclass(frozen=True)
class Final:
    """Zebra's count at the end of the game."""

    black: int
    white: int
    at: float


@dataclass(frozen=True)
class Searched:
    status: Status
    at: float


Event = Shown | Prompt | MustPass | Final | Searched

BOARD_HEADER = re.compile(r"^\s+a b c d e f g h\s*$")
BOARD_ROW = re.compile(r"^      (?P<row>[1-8])  (?P<cells>.{15})(?P<rest>.*)$")
FINAL = re.compile(r"^Black: (\d+)\s+White: (\d+)\s*$")
PROMPT = re.compile(r"(Black|White) move: ")


class ZebraFailure(Exception):
    """Zebra crashed, hung, ran away or printed what the referee cannot accept."""


class ZebraProcess:
    """One Zebra game as a child process, its output turned into events as it comes.

    Its standard input is never closed (see the module's docstring); ``close`` kills it."""

    def __init__(self, command: Sequence[str], workdir: Path) -> None:
        # Unbuffered output: Zebra prints its prompt without a newline and then waits.
        self.process = subprocess.Popen(
            ["stdbuf", "-o0", *command],
            cwd=workdir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        self.fd = self.process.stdout.fileno()
        self.partial = ""  # the last line, not yet ended
        self.prompts_in_partial = 0
        self.received = 0
        self.tail: list[str] = []  # the last lines, for reports
        self.events: list[Event] = []
        self.rows: dict[int, tuple[str, str]] | None = None  # a board being read
        self.ended = False

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text.encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise ZebraFailure(f"Zebra stopped reading its input (exit code {self.process.poll()})") from None

    def close(self) -> None:
        """Kill Zebra (its whole process group) and reap it."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()

    def searches_to_exit(self, timeout: float) -> list[Status]:
        """Every search line until Zebra exits by itself (``-evalone``), within ``timeout`` seconds."""
        found: list[Status] = []
        try:
            while True:
                event = self.next_event(timeout)
                if isinstance(event, Searched):
                    found.append(event.status)
                elif isinstance(event, Prompt | MustPass):
                    raise ZebraFailure(f"Zebra asks for input while evaluating: {self.report()}")
        except ZebraFailure:
            if not self.ended or self.process.returncode != 0:
                raise
        return found

    def report(self) -> str:
        return " | ".join(line.strip() for line in self.tail[-6:] if line.strip())

    def next_event(self, timeout: float) -> Event:
        """The next event, waiting at most ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        while not self.events:
            if self.ended:
                raise ZebraFailure(f"Zebra ended mid-game (exit code {self.process.poll()}): {self.report()}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ZebraFailure(f"Zebra gave no answer in {timeout:.0f} s: {self.report()}")
            ready, _, _ = select.select([self.fd], [], [], min(remaining, 1.0))
            if ready:
                self._take(os.read(self.fd, 65536), time.perf_counter())
        return self.events.pop(0)

    def _take(self, chunk: bytes, at: float) -> None:
        if not chunk:
            self.ended = True
            self.process.wait()
            return
        self.received += len(chunk)
        if self.received > OUTPUT_LIMIT:
            raise ZebraFailure(f"Zebra printed over {OUTPUT_LIMIT} bytes in one game: {self.report()}")
        lines = (self.partial + chunk.decode(errors="replace")).split("\n")
        self.partial = lines.pop()
        for line in lines:
            self._line(line, at)
        # A prompt ends without a newline: count those not yet announced.
        prompts = PROMPT.findall(self.partial)
        for colour in prompts[self.prompts_in_partial :]:
            self.events.append(Prompt(colour == "Black", at))
        self.prompts_in_partial = len(prompts)

    def _line(self, line: str, at: float) -> None:
        line = line.rstrip("\r")
        self.tail = [*self.tail[-20:], line]
        for colour in PROMPT.findall(line)[self.prompts_in_partial :]:
            self.events.append(Prompt(colour == "Black", at))
        self.prompts_in_partial = 0
        if BOARD_HEADER.match(line):
            self.rows = {}
            return
        if self.rows == {} and not line.strip():
            return  # the blank line under the column letters
        row = BOARD_ROW.match(line)
        if row is not None and self.rows is not None:
            self.rows[int(row["row"])] = (row["cells"], row["rest"])
            if len(self.rows) == 8:
                grid = "".join(
                    {"*": "X", "O": "O", " ": "-"}.get(self.rows[r][0][2 * c], "?")
                    for r in range(1, 9)
                    for c in range(8)
                )
                self.events.append(Shown(grid, "(*)" in self.rows[3][1], at))
                self.rows = None
            return
        self.rows = None
        if "You must pass" in line:
            self.events.append(MustPass(at))
        elif (final := FINAL.match(line)) is not None:
            self.events.append(Final(int(final[1]), int(final[2]), at))
        elif (status := parse_status(line)) is not None:
            self.events.append(Searched(status, at))


def zebra_search(zebra: Path, workdir: Path, moves: Sequence[str], levels: Sequence[int], timeout: float) -> Status:
    """Zebra's own search of the position after ``moves`` (without passes: Zebra plays those by
    itself) with ``levels`` = (depth, exact empties, win/loss/draw empties): its last search line,
    for the side to move there."""
    command = [str(zebra), "-quiet", "-b", "0", "-r", "0", "-l", *[str(level) for level in levels] * 2, "-evalone"]
    process = ZebraProcess([*command, "-seq", "".join(moves)], workdir)
    try:
        found = process.searches_to_exit(timeout)
    finally:
        process.close()
    if not found:
        raise ZebraFailure(f"Zebra printed no search for {''.join(moves)}: {process.report()}")
    return found[-1]


def check_zebra_endgame(zebra: Path, workdir: Path, empties: int = 16, positions: int = 3) -> None:
    """Zebra's exact scores of a few random positions against the package's solver, before any
    game: a build whose endgame solver crashes or errs is refused with the reason."""
    rng = random.Random(empties)
    checked = 0
    while checked < positions:
        referee, moves = Referee(), list[str]()
        while 60 - len(moves) > empties and not referee.over():
            options = referee.moves(referee.to_move)
            name = rng.choice(options) if options else None
            referee.play(name)
            if name is not None:
                moves.append(name)
        if referee.over() or not referee.moves(referee.to_move):
            continue
        board = Board()
        for name in moves:
            if board.must_pass():
                board.push_pass()
            board.push(name)
        exact = solve(board).score
        try:
            status = zebra_search(zebra, workdir, moves, (60, 60, 60), 120.0)
        except ZebraFailure as failure:
            raise SystemExit(
                f"Zebra fails on an exact endgame search of {''.join(moves)} ({failure}). A gcc build of Zebra"
                " whose flip code relies on signed overflow wrapping around crashes there: build it with -fwrapv."
            ) from None
        if status.kind != "exact" or status.score != exact:
            raise SystemExit(f"Zebra scores {''.join(moves)} {status.text!r}; the exact score is {exact:+d}")
        checked += 1


# -- a game ---------------------------------------------------------------------------------------


@dataclass
class Game:
    """One game: who played which colour, every move with its time and the mover's own view
    of it, and the final count (or why the game does not count)."""

    number: int
    opening: list[str]
    ours_black: bool
    moves: list[dict[str, Any]] = field(default_factory=list)
    black: int | None = None
    white: int | None = None
    void: str | None = None

    @property
    def margin(self) -> int | None:
        """Our final disc margin, None for a void game."""
        if self.black is None or self.white is None or self.void is not None:
            return None
        return (self.black - self.white) * (1 if self.ours_black else -1)

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "opening": self.opening,
            "ours": "black" if self.ours_black else "white",
            "moves": self.moves,
            "black": self.black,
            "white": self.white,
            "margin": self.margin,
            "void": self.void,
        }


def zebra_summary(searches: list[Status], empties: int) -> dict[str, Any]:
    """What Zebra's search lines of one move say: the depth it completed (the empties, when
    it searched to the end), what kind of search that was, and its score for the move."""
    if not searches:
        return {"depth": None, "kind": None, "score": None, "sign": None, "search_seconds": None, "status": None}
    last = searches[-1]
    if last.kind in ("forced", "pass"):
        return {"depth": 0, "kind": last.kind, "score": None, "sign": None, "search_seconds": 0.0, "status": last.text}
    ends = [s for s in searches if s.kind != "midgame" and not s.interrupted]
    finished = [s.depth for s in searches if s.kind == "midgame" and not s.interrupted]
    if ends:
        depth, kind = empties, ends[-1].kind
    elif finished:
        depth, kind = max(finished), "midgame"
    else:
        depth, kind = max(0, last.depth - 1), "midgame"
    return {
        "depth": depth,
        "kind": kind,
        "score": last.score,
        "sign": last.sign,
        "search_seconds": last.seconds,
        "status": last.text.strip(),
    }


@dataclass(frozen=True)
class Settings:
    zebra: Path
    workdir: Path
    clock: int
    clocked: bool  # the engine plays on a game clock (else on the fallback limit a move)
    our_clock: float  # seconds on our game clock (Zebra leaves part of its own unused)

    def engine(self, seed: int) -> Engine:
        make: Any = Engine  # ``clock`` is new; an engine without it takes a limit a move
        if self.clocked:
            return make(7, clock=self.our_clock, seed=seed)  # type: ignore[no-any-return]
        return Engine(7, time_limit=self.our_clock / MOVES_PER_SIDE, seed=seed)

    def command(self, ours_black: bool, opening: Sequence[str]) -> list[str]:
        zebra = ["60", "60", "60"]
        levels = ["0", *zebra] if ours_black else [*zebra, "0"]
        clock = str(self.clock)
        return [
            str(self.zebra), "-b", "0", "-r", "0", "-l", *levels, "-time", clock, "0", clock, "0", "-w", "0",
            "-seq", "".join(opening),
        ]  # fmt: skip


def play_game(number: int, opening: list[str], ours_black: bool, settings: Settings) -> Game:
    """Play one game against a fresh Zebra; a Zebra failure makes the game void."""
    game = Game(number, list(opening), ours_black)
    referee, board = Referee(), Board()
    ours = DARK if ours_black else LIGHT
    engine = settings.engine(seed=number)
    zebra = ZebraProcess(settings.command(ours_black, opening), settings.workdir)
    left = list(opening)
    turn_start: float | None = None  # when Zebra's present turn began
    searches: list[Status] = []
    our_pass_at: float | None = None  # Zebra told us to pass; its move before it is not shown yet

    def record(player: str, name: str | None, seconds: float, extra: dict[str, Any]) -> None:
        game.moves.append(
            {
                "ply": len(game.moves) + len(opening) + 1,
                "colour": "black" if referee.to_move == DARK else "white",
                "player": player,
                "move": name or "pass",
                "empties": board.empty_count(),
                "seconds": round(seconds, 4),
                **extra,
            }
        )

    def zebra_plays(name: str | None, end: float) -> None:
        seconds = end - turn_start if name is not None and turn_start is not None else 0.0
        extra = zebra_summary(searches, board.empty_count()) if name is not None else {}
        record("zebra", name, seconds, extra)
        try:
            referee.play(name)
        except RefereeError as refused:
            raise ZebraFailure(f"the referee refuses Zebra's move: {refused}") from None
        if name is None:
            board.push_pass()
        else:
            board.push(name)
        check_package(board, referee)

    def shown(event: Shown) -> None:
        nonlocal turn_start, searches, our_pass_at
        if "?" in event.grid:
            raise ZebraFailure(f"unreadable board from Zebra: {zebra.report()}")
        if left:
            if event.grid != referee.grid():
                raise ZebraFailure(f"Zebra shows {event.grid} in the opening, the referee {referee.grid()}")
            name = left.pop(0)
            referee.play(name)
            board.push(name)
            check_package(board, referee)
            return
        zebra_marked = event.black_to_move == (ours == LIGHT)
        if not referee.over() and referee.to_move != ours:
            if event.grid == referee.grid():
                if zebra_marked:
                    turn_start, searches = event.at, []
                    return
                zebra_plays(None, event.at)  # it had no move
            else:
                made = [name for name in referee.moves(referee.to_move) if referee.after(name) == event.grid]
                if len(made) != 1:
                    raise ZebraFailure(f"no legal move of Zebra's makes the board it shows, {event.grid}")
                zebra_plays(made[0], event.at if our_pass_at is None else our_pass_at)
                if our_pass_at is not None:
                    record("ours", None, 0.0, {})
                    try:
                        referee.play(None)
                    except RefereeError as refused:
                        raise ZebraFailure(f"Zebra made us pass wrongly: {refused}") from None
                    board.push_pass()
                    check_package(board, referee)
                    our_pass_at = None
        if event.grid != referee.grid():
            raise ZebraFailure(f"Zebra shows {event.grid}, the referee holds {referee.grid()}")
        if not referee.over() and referee.to_move != ours and zebra_marked:
            turn_start, searches = event.at, []

    def prompted(event: Prompt) -> None:
        if left or referee.over() or referee.to_move != ours or event.black != (ours == DARK):
            raise ZebraFailure(f"Zebra asks for a move out of turn, at {referee.grid()}")
        start = time.perf_counter()
        move = engine.choose(board)
        seconds = time.perf_counter() - start
        info = engine.last_search
        name = str(move) if move else None
        extra: dict[str, Any] = {}
        if info is not None:
            certainty = "exact" if info.exact else "bound" if info.bound else "estimate"
            extra = {"depth": info.depth, "score": info.margin, "certainty": certainty, "nodes": info.nodes}
        record("ours", name, seconds, extra)
        referee.play(name)  # a refusal here is our bug: it stops the match
        board.push(move)
        check_package(board, referee)
        assert name is not None
        zebra.send(name)

    try:
        while True:
            event = zebra.next_event(settings.clock + HANG_MARGIN)
            if isinstance(event, Searched):
                searches.append(event.status)
            elif isinstance(event, Shown):
                shown(event)
            elif isinstance(event, Prompt):
                prompted(event)
            elif isinstance(event, MustPass):
                our_pass_at = event.at
                zebra.send("")
            else:
                if left or not referee.over():
                    raise ZebraFailure(f"Zebra ended the game before its end, at {referee.grid()}")
                if (event.black, event.white) != referee.counts():
                    raise ZebraFailure(f"Zebra counts {event.black}-{event.white}, the referee {referee.counts()}")
                game.black, game.white = referee.counts()
                break
    except ZebraFailure as failure:
        game.void = str(failure)
    finally:
        zebra.close()
    return game


# -- the match ------------------------------------------------------------------------------------


def openings(count: int, seed: int) -> list[list[str]]:
    """``count`` distinct random 4-ply openings, drawn by the referee's rules."""
    rng = random.Random(seed)
    found: list[list[str]] = []
    while len(found) < count:
        referee = Referee()
        line = []
        for _ in range(4):
            name = rng.choice(referee.moves(referee.to_move))
            referee.play(name)
            line.append(name)
        if line not in found:
            found.append(line)
    return found


def spread(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values):.2f} s, mean {statistics.fmean(values):.2f} s, max {max(values):.2f} s"


def moves_of(games: Sequence[Game], player: str) -> Iterator[dict[str, Any]]:
    for game in games:
        if game.margin is not None:
            yield from (m for m in game.moves if m["player"] == player and m["move"] != "pass")


def summary(games: Sequence[Game]) -> list[str]:
    """The lines that sum up the match so far."""
    margins = [g.margin for g in games if g.margin is not None]
    wins = sum(1 for m in margins if m > 0)
    draws = sum(1 for m in margins if m == 0)
    losses = len(margins) - wins - draws
    lines = []
    if margins:
        share = 100 * (wins + draws / 2) / len(margins)
        lines.append(
            f"score: +{wins} ={draws} -{losses} in {len(margins)} games, {share:.1f}%;"
            f" mean margin {statistics.fmean(margins):+.1f} discs (median {statistics.median(margins):+g})"
        )
    void = [g for g in games if g.void is not None]
    if void:
        lines.append(f"void games (left out): {len(void)}: " + "; ".join(f"#{g.number}: {g.void}" for g in void))
    for player, name in (("ours", "ours "), ("zebra", "Zebra")):
        moves = list(moves_of(games, player))
        deep = [m["depth"] for m in moves if m["empties"] >= DEPTH_EMPTIES and m.get("depth")]
        lines.append(
            f"{name}: time a move {spread([m['seconds'] for m in moves])} ({len(moves)} moves);"
            f" depth at {DEPTH_EMPTIES}+ empties median {f'{statistics.median(deep):g}' if deep else '-'}"
            f" (max {max(deep) if deep else '-'}, {len(deep)} searched moves)"
        )
    solved = [m for m in moves_of(games, "zebra") if m["empties"] >= DEPTH_EMPTIES and m.get("kind") not in
              (None, "midgame", "forced")]  # fmt: skip
    if solved:
        lines.append(
            f"Zebra searched to the end at {DEPTH_EMPTIES}+ empties on {len(solved)} moves (depth: the empties)"
        )
    return lines


def write_json(path: Path, settings: Settings, note: str, games: Sequence[Game], lines: list[str]) -> None:
    data = {
        "settings": {
            "zebra": str(settings.zebra),
            "clock": settings.clock,
            "ours": note,
            "zebra_command": settings.command(True, ["<opening>"])[1:],
            "compiled": native.ready("midgame"),
        },
        "summary": lines,
        "games": [g.as_json() for g in games],
    }
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(json.dumps(data, indent=1))
    temporary.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zebra", type=Path, default=DEFAULT_ZEBRA, help="the Zebra binary (coeffs2.bin beside it)")
    parser.add_argument("--coeffs", type=Path, default=None, help="Zebra's coeffs2.bin (default: beside the binary)")
    parser.add_argument("--clock", type=int, default=DEFAULT_CLOCK, help="seconds on each side's game clock")
    parser.add_argument(
        "--our-clock",
        type=float,
        default=None,
        help="seconds on our game clock (default: --clock); Zebra keeps part of its clock unused, so for an"
        " equal time a move give ours what Zebra spends (the summary prints both)",
    )
    parser.add_argument("--openings", type=int, default=20, help="random 4-ply openings, each played with both colours")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings")
    parser.add_argument("--first", type=int, default=0, help="skip this many games (to run a match in parts)")
    parser.add_argument("--games", type=int, default=None, help="play at most this many games")
    parser.add_argument("--json", type=Path, default=Path("strength.json"), help="where every game is written")
    args = parser.parse_args(argv)
    if args.clock <= 0:
        parser.error(f"--clock must be a positive number of seconds, got {args.clock}")
    our_clock = float(args.clock) if args.our_clock is None else args.our_clock
    if not (0 < our_clock < float("inf")):
        parser.error(f"--our-clock must be a positive number of seconds, got {args.our_clock}")
    coeffs = args.coeffs or args.zebra.parent / "coeffs2.bin"
    for path, what in ((args.zebra, "the Zebra binary"), (coeffs, "Zebra's coeffs2.bin")):
        if not path.is_file():
            raise SystemExit(f"{what} is not at {path}: build Zebra from its public source and pass --zebra")
    if shutil.which("stdbuf") is None:
        raise SystemExit("stdbuf (GNU coreutils) is needed to read Zebra's prompts as they come")
    start = time.perf_counter()
    if not all([native.wait(name) for name in native.KERNELS]):
        raise SystemExit(f"the compiled core is not available: {native.failure()}")
    # The process's first search loads the evaluation's tables (about half a second): not in game 1.
    Engine(7, time_limit=0.5).choose(Board())
    print(f"compiled kernels and evaluation ready after {time.perf_counter() - start:.1f} s", flush=True)
    clocked = "clock" in inspect.signature(Engine).parameters
    if clocked:
        same = "the same game clock as Zebra" if our_clock == args.clock else f"Zebra's clock is {args.clock} s"
        note = f"Engine(7, clock={our_clock:g}): {same}"
    else:
        limit = our_clock / MOVES_PER_SIDE
        note = (
            f"Engine(7, time_limit={limit:.2f}): this engine has no game clock yet, so it gets"
            f" {our_clock:g} s / {MOVES_PER_SIDE} a move instead"
        )
    print(f"Zebra: {args.zebra}, no book, -time {args.clock} 0 {args.clock} 0; ours: {note}", flush=True)
    schedule = [(line, black) for line in openings(args.openings, args.seed) for black in (True, False)]
    schedule = schedule[args.first : None if args.games is None else args.first + args.games]
    games: list[Game] = []
    with tempfile.TemporaryDirectory(prefix="zebra-") as scratch:
        workdir = Path(scratch)
        (workdir / "coeffs2.bin").symlink_to(coeffs.resolve())
        settings = Settings(args.zebra.resolve(), workdir, args.clock, clocked, our_clock)
        check_zebra_endgame(settings.zebra, workdir)
        print("Zebra's exact endgame scores agree with the package's solver on 3 positions at 16 empties", flush=True)
        for number, (line, ours_black) in enumerate(schedule, args.first + 1):
            game = play_game(number, line, ours_black, settings)
            games.append(game)
            colour = "black" if ours_black else "white"
            result = f"void: {game.void}" if game.void else f"{game.black}-{game.white}, ours {game.margin:+d}"
            ours_time = sum(m["seconds"] for m in game.moves if m["player"] == "ours")
            zebra_time = sum(m["seconds"] for m in game.moves if m["player"] == "zebra")
            print(
                f"game {number}: {''.join(line)}, ours {colour}: {result}"
                f" (time used: ours {ours_time:.1f} s, Zebra {zebra_time:.1f} s)",
                flush=True,
            )
            write_json(args.json, settings, note, games, summary(games))
    for text in summary(games):
        print(text)
    print(f"every game: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
