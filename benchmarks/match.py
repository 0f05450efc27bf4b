"""Match this package's engine against computer players published on PyPI, or against
the pure-Python engine of a given copy of this package.

Peers (each is skipped with a message when it is not installed; this script installs
nothing — put them in a separate venv together with this package):

* ``cli-othello``: its ``OthelloAI`` at level 5 (depth 4, square table and mobility);
* ``reversi42``: its Apocalyptron search at depth 7 (a fresh engine for every move, since a
  reused one can return a stale move; parallel workers off, as this machine has two cores);
* ``rust-reversi``: its alpha-beta search at depth 8 with a ``MatrixEvaluator``;
* ``pure``: this package's own engine on the pure-Python path (``REVERSI_WIDGET_PURE=1``), at
  ``--peer-level`` with ``--peer-time-limit``, in a child process. ``--baseline DIR`` runs the
  package found in ``DIR`` instead (a checkout of an older commit, e.g. made with
  ``git worktree add /tmp/baseline origin/main``), to measure a change against what it replaced.
  The child keeps one engine per game, as a player keeps its tables between moves.

Every game starts from one of a fixed set of random 4-ply openings, and each opening is
played twice with the colours swapped. The referee is this package's rules engine: every
move a peer returns is checked against ``board.legal_moves`` before it is played.

    python benchmarks/match.py --peer rust-reversi --games 20
    python benchmarks/match.py --peer all --games 4 --level 7
    python benchmarks/match.py --peer pure --baseline /tmp/baseline --games 20 --level 7
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from reversi_widget import BLACK, Board, Move, native
from reversi_widget.engine import Engine

Chooser = Callable[[Board], Move]

#: The usual square table of Othello programs, for rust-reversi's matrix evaluator.
MATRIX = [
    [100, -20, 10, 5, 5, 10, -20, 100],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [10, -2, -1, -1, -1, -1, -2, 10],
    [5, -2, -1, -1, -1, -1, -2, 5],
    [5, -2, -1, -1, -1, -1, -2, 5],
    [10, -2, -1, -1, -1, -1, -2, 10],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [100, -20, 10, 5, 5, 10, -20, 100],
]


class PeerMissing(Exception):
    """The peer's package is not installed."""


def cli_othello_player(level: int = 5) -> Chooser:
    try:
        from cli_othello import ai as cli_ai
        from cli_othello import board as cli_board
    except ImportError as error:
        raise PeerMissing(f"cli-othello is not installed ({error})") from None

    def choose(board: Board) -> Move:
        theirs = cli_board.Board()
        black, white = board.bitboards()
        theirs.cells = [
            cli_board.BLACK if black >> sq & 1 else cli_board.WHITE if white >> sq & 1 else cli_board.EMPTY
            for sq in range(64)
        ]
        colour = cli_board.BLACK if board.turn == BLACK else cli_board.WHITE
        answer = cli_ai.OthelloAI(colour, level).choose_move(theirs)
        if answer is None:
            return Move.null()
        row, col = answer
        return Move(row * 8 + col)

    return choose


def reversi42_player(depth: int = 7) -> Chooser:
    try:
        from AI.Apocalyptron import ApocalyptronConfigBuilder, ApocalyptronEngine
        from Reversi.BitboardGame import BitboardGame
    except ImportError as error:
        raise PeerMissing(f"reversi42 is not installed ({error})") from None

    def choose(board: Board) -> Move:
        game = BitboardGame.create_empty()
        game.black, game.white = board.bitboards()
        game.turn = "B" if board.turn == BLACK else "W"
        game.black_cnt, game.white_cnt = game.black.bit_count(), game.white.bit_count()
        game._create_virtual_matrix()
        if not game.get_move_list():
            return Move.null()
        config = (
            ApocalyptronConfigBuilder()
            .with_depth(depth)
            .enable_iterative_deepening()
            .enable_all_optimizations()
            .enable_parallel(False)
            .quiet_mode()
            .build()
        )
        with contextlib.redirect_stdout(io.StringIO()):
            engine = ApocalyptronEngine(config=config)
            answer = engine.get_best_move(game, depth)
        if answer is None:
            return Move.null()
        return Move((answer.y - 1) * 8 + answer.x - 1)

    return choose


def rust_reversi_player(depth: int = 8) -> Chooser:
    try:
        import rust_reversi
    except ImportError as error:
        raise PeerMissing(f"rust-reversi is not installed ({error})") from None
    search = rust_reversi.AlphaBetaSearch(rust_reversi.MatrixEvaluator(MATRIX), depth, 1 << 20)

    def mirrored(bits: int) -> int:
        """rust-reversi's bitboards hold a1 in bit 63 and h8 in bit 0, the reverse of this
        package's; its move numbers, though, are square indices from a1 = 0 as here."""
        return int(f"{bits:064b}"[::-1], 2)

    def choose(board: Board) -> Move:
        theirs = rust_reversi.Board()
        black, white = (mirrored(bits) for bits in board.bitboards())
        if board.turn == BLACK:
            theirs.set_board(black, white, rust_reversi.Turn.BLACK)
        else:
            theirs.set_board(white, black, rust_reversi.Turn.WHITE)
        if theirs.is_pass():
            return Move.null()
        return Move(search.get_move(theirs))

    return choose


#: The child process of the ``pure`` peer: "new <level> <seconds or -> <seed>" starts a game
#: with a new engine, "move <position>" asks for its move.
CHILD = """
import sys
from reversi_widget import Board
from reversi_widget.engine import Engine

engine = None
for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "new":
        level, limit, seed = rest.split()
        engine = Engine(int(level) if level.isdigit() else level, None if limit == "-" else float(limit), int(seed))
        print("ok", flush=True)
    elif command == "move":
        print(engine.choose(Board(rest)), flush=True)
"""


class PurePeer:
    """This package's engine on the pure-Python path, in a child process (of ``baseline``'s
    copy of the package when given)."""

    def __init__(self, level: str, time_limit: float | None, baseline: str | None) -> None:
        env = dict(os.environ, **{native.PURE_ENV: "1"})
        if baseline is not None:
            env["PYTHONPATH"] = os.path.abspath(baseline)
        self.settings = f"{level} {'-' if time_limit is None else time_limit}"
        self.child = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=os.path.abspath(baseline) if baseline is not None else None,
        )

    def _ask(self, line: str) -> str:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()
        answer = self.child.stdout.readline().strip()
        if not answer:
            raise RuntimeError(f"the pure peer's process ended (exit code {self.child.poll()})")
        return answer

    def new_game(self, seed: int) -> None:
        self._ask(f"new {self.settings} {seed}")

    def __call__(self, board: Board) -> Move:
        return Move.from_name(self._ask(f"move {board.to_string()}"), board.size)


PEERS: dict[str, Callable[[], Chooser]] = {
    "cli-othello": cli_othello_player,
    "reversi42": reversi42_player,
    "rust-reversi": rust_reversi_player,
}


def openings(count: int, seed: int = 2024) -> list[list[Move]]:
    """``count`` distinct random 4-ply openings (fixed by ``seed``)."""
    rng = random.Random(seed)
    seen: dict[str, list[Move]] = {}
    while len(seen) < count:
        board = Board()
        for _ in range(4):
            board.push(rng.choice(list(board.legal_moves)))
        seen.setdefault(board.transcript(), list(board.move_stack))
    return list(seen.values())


@dataclass
class Tally:
    peer: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    disc_diff: int = 0
    our_times: list[float] = field(default_factory=list)
    peer_times: list[float] = field(default_factory=list)
    games: list[dict[str, object]] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        return 100 * (self.wins + 0.5 * self.draws) / max(1, self.played)

    def summary(self) -> str:
        def timing(values: list[float]) -> str:
            if not values:
                return "-"
            return f"mean {statistics.mean(values):.2f} median {statistics.median(values):.2f} max {max(values):.2f}"

        return (
            f"{self.peer}: {self.played} games, W/L/D {self.wins}/{self.losses}/{self.draws}, "
            f"points {self.points:.1f}%, disc diff {self.disc_diff:+d} "
            f"({self.disc_diff / max(1, self.played):+.1f}/game); s/move ours {timing(self.our_times)}; "
            f"theirs {timing(self.peer_times)}"
        )


def play(ours: Engine, theirs: Chooser, opening: list[Move], we_are_black: bool, tally: Tally) -> int:
    """One game; returns our final disc margin. A peer's illegal move raises."""
    board = Board()
    for move in opening:
        board.push(move)
    while not board.is_game_over():
        our_turn = (board.turn == BLACK) == we_are_black
        start = time.perf_counter()
        move = ours.choose(board) if our_turn else theirs(board)
        elapsed = time.perf_counter() - start
        (tally.our_times if our_turn else tally.peer_times).append(elapsed)
        if move:
            if move not in board.legal_moves:
                raise RuntimeError(f"{tally.peer} played the illegal move {move} in {board.to_string()}")
        elif not board.must_pass():
            raise RuntimeError(f"{tally.peer} passed with legal moves in {board.to_string()}")
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    margin = (outcome.black - outcome.white) * (1 if we_are_black else -1)
    if margin > 0:
        tally.wins += 1
    elif margin < 0:
        tally.losses += 1
    else:
        tally.draws += 1
    tally.disc_diff += margin
    tally.games.append({"opening": "".join(map(str, opening)), "we_are_black": we_are_black, "margin": margin,
                        "transcript": board.transcript()})  # fmt: skip
    return margin


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", default="all", choices=[*PEERS, "pure", "all"], help="all: the PyPI peers")
    parser.add_argument("--games", type=int, default=20, help="games per peer (even: each opening twice)")
    parser.add_argument("--level", default="7", help="our level (1-7 or a name)")
    parser.add_argument("--time-limit", type=float, default=None, help="our seconds a move (default: the level's)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the openings")
    parser.add_argument("--first", type=int, default=0, help="skip this many games (to run a match in parts)")
    parser.add_argument("--json", default=None, help="write the tallies to this file")
    parser.add_argument("--peer-level", default="7", help="the pure peer's level")
    parser.add_argument("--peer-time-limit", type=float, default=None, help="the pure peer's seconds a move")
    parser.add_argument("--baseline", default=None, help="the pure peer runs the package in this directory")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    compiled = native.wait("midgame")
    print(f"our engine: {'compiled' if compiled else 'pure Python'} (ready after {time.perf_counter() - start:.1f} s)")
    level: int | str = int(args.level) if args.level.isdigit() else args.level
    names = list(PEERS) if args.peer == "all" else [args.peer]
    book = openings((args.first + args.games + 1) // 2, args.seed)
    schedule = [(opening, colour) for opening in book for colour in (True, False)][args.first : args.first + args.games]
    random.seed(args.seed)  # cli-othello breaks ties with the random module
    tallies = []
    for name in names:
        theirs: Chooser
        if name == "pure":
            theirs = pure = PurePeer(args.peer_level, args.peer_time_limit, args.baseline)
        else:
            try:
                theirs = PEERS[name]()
            except PeerMissing as missing:
                print(f"skipping {name}: {missing}", flush=True)
                continue
        tally = Tally(name)
        for number, (opening, we_are_black) in enumerate(schedule, args.first + 1):
            if name == "pure":
                pure.new_game(number)
            ours = Engine(level, time_limit=args.time_limit, seed=number)
            margin = play(ours, theirs, opening, we_are_black, tally)
            colour = "black" if we_are_black else "white"
            opening_text = "".join(map(str, opening))
            print(f"{name} game {number}: opening {opening_text}, we are {colour}, margin {margin:+d}", flush=True)
        print(tally.summary(), flush=True)
        tallies.append(tally)
    if args.json:
        with open(args.json, "w") as out:
            json.dump([asdict(t) | {"points": t.points} for t in tallies], out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
