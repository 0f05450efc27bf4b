"""Time the exact endgame solver: the FFO endgame suite beside Edax, or WTHOR positions.

By default, FFO positions #40 to #44 (20 to 23 empties, from ``shared/data/ffo``) are solved
with ``solve()`` under the tournament scoring the suite's published scores use (empty squares
go to the winner); the score and the set of best moves are checked against the file. With
``--edax PATH`` (an Edax binary built from its public source, with ``data/eval.dat`` beside
its ``bin/`` folder) Edax solves each position too, one thread, in the same run: the two take
turns position by position, and the ratios of our time to Edax's are printed with their
medians, in wall time (what a user waits) and in CPU time (steadier on a shared machine).

    python benchmarks/endgame.py [--edax PATH] [--positions 40-44] [--repeat 1]
    python benchmarks/endgame.py --wthor [--empties 14 16 18] [--positions 3]
    python benchmarks/endgame.py --six --limit 600     # the whole 6x6 game from the start

WTHOR mode: positions from tournament games (replayed until the wanted number of empties),
each solved with a time limit; at 24 empties the database's perfect-play score is checked.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reversi_widget import BLACK, Board, Move, Rules, native
from reversi_widget.solver import solve

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
DEFAULT_DATA = SHARED / "wthor"
DEFAULT_FFO = SHARED / "ffo" / "fforum-40-59.obf"
#: The target: each position within this many times Edax's time in the same run.
TARGET_RATIO = 10.0


@dataclass(frozen=True)
class Problem:
    """One FFO position: its number, the line as the file has it, the board, the published scores."""

    number: int
    line: str
    board: Board
    scores: dict[str, int]

    @property
    def best(self) -> tuple[int, set[str]]:
        top = max(self.scores.values())
        return top, {move for move, score in self.scores.items() if score == top}


def ffo_problems(path: Path, first: int, numbers: range) -> list[Problem]:
    """The positions ``numbers`` of an .obf file whose first line is position ``first``."""
    problems = []
    for index, line in enumerate(path.read_text().splitlines()):
        if first + index not in numbers or not line.strip():
            continue
        cells, rest = line.split(maxsplit=1)
        turn, *moves = (part.strip() for part in rest.split(";") if part.strip())
        board = Board(f"{cells} {turn}", rules=Rules(scoring="tournament"))
        scores = {move.split(":")[0].lower(): int(move.split(":")[1]) for move in moves}
        problems.append(Problem(first + index, line, board, scores))
    return problems


def solve_ours(problem: Problem) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, a check of the result against the file)."""
    wall, cpu = time.perf_counter(), time.process_time()
    solution = solve(problem.board)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    score, best = problem.best
    found = {str(move) for move in solution.best_moves}
    check = "ok" if (solution.score, found) == (score, best) else f"WRONG: {solution.score} {sorted(found)}"
    return wall, cpu, check


def solve_edax(edax: Path, problem: Problem) -> tuple[float, float, str]:
    """(wall seconds as Edax reports them, CPU seconds of its process, its score)."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as file:
        file.write(problem.line + "\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(
        [str(edax.resolve()), "-solve", file.name, "-n", "1", "-l", "60", "-book-usage", "off"],
        cwd=edax.resolve().parent.parent,  # where Edax finds data/eval.dat
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    Path(file.name).unlink()
    row = re.search(r"^\s*1\|\s*\d+\s+([+-]\d+)\s+(\d+):(\d+)\.(\d+)", output, re.MULTILINE)
    if row is None:
        raise RuntimeError(f"no result line in Edax's output:\n{output}")
    minutes, seconds, millis = int(row.group(2)), int(row.group(3)), int(row.group(4))
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return minutes * 60 + seconds + millis / 1000, cpu, row.group(1)


def load_kernels() -> None:
    """Wait for every compiled kernel before timing anything (a compile in the background
    would eat the time measured) and say whether the compiled solver is there."""
    start = time.perf_counter()
    for name in native.KERNELS:
        native.wait(name)
    ready = native.ready("endgame")
    print(
        f"compiled solver: {'ready' if ready else 'not available (' + str(native.failure()) + ')'}"
        f" after {time.perf_counter() - start:.1f} s",
        flush=True,
    )


def ffo(args: argparse.Namespace) -> int:
    low, _, high = args.positions.partition("-")
    problems = ffo_problems(args.ffo, 40, range(int(low), int(high or low) + 1))
    ratios: dict[str, list[float]] = {"wall": [], "cpu": []}
    worst = 0.0
    failures = 0
    medians: list[str] = []
    for problem in problems:
        empties = problem.board.empty_count()
        walls: list[tuple[float, float]] = []  # (ours, Edax's) of each round
        for _ in range(args.repeat):
            wall, cpu, check = solve_ours(problem)
            failures += check != "ok"
            line = f"#{problem.number} ({empties} empties): ours {wall:6.2f} s wall, {cpu:6.2f} s CPU, {check}"
            edax_wall = float("nan")
            if args.edax is not None:
                edax_wall, edax_cpu, edax_score = solve_edax(args.edax, problem)
                ratio_wall, ratio_cpu = wall / max(edax_wall, 1e-3), cpu / max(edax_cpu, 1e-3)
                ratios["wall"].append(ratio_wall)
                ratios["cpu"].append(ratio_cpu)
                worst = max(worst, ratio_wall)
                line += (
                    f"; Edax {edax_wall:6.2f} s wall, {edax_cpu:6.2f} s CPU, score {edax_score}"
                    f"; ratio {ratio_wall:.2f}x wall, {ratio_cpu:.2f}x CPU"
                )
            walls.append((wall, edax_wall))
            print(line, flush=True)
        if args.repeat > 1:
            ours_median = statistics.median(w for w, _ in walls)
            summary = f"#{problem.number}: median of {args.repeat}: ours {ours_median:.2f} s wall"
            if args.edax is not None:
                edax_median = statistics.median(e for _, e in walls)
                ratio_median = statistics.median(w / max(e, 1e-3) for w, e in walls)
                summary += f", Edax {edax_median:.2f} s, ratio {ratio_median:.2f}x"
            medians.append(summary)
    for summary in medians:
        print(summary)
    if ratios["wall"]:
        for kind, values in ratios.items():
            print(
                f"ratio ours / Edax, {kind} time: median {statistics.median(values):.2f}x,"
                f" range {min(values):.2f}-{max(values):.2f}x over {len(values)} solves"
            )
        verdict = "met" if worst <= TARGET_RATIO else "NOT met"
        print(f"target (every position within {TARGET_RATIO:.0f}x Edax's wall time): {verdict}")
    if failures:
        print(f"{failures} solves disagree with the published scores")
    return 1 if failures else 0


def wthor_games(path: Path) -> Iterator[tuple[list[int], int]]:
    """(squares played, theoretical Black score) of each game of a .wtb file, with the
    package's reader when it is there, else straight from the bytes (16-byte header, 68-byte
    records: 8 bytes then 60 move bytes of 10 * row + column)."""
    try:
        from reversi_widget.squares import parse_square
        from reversi_widget.wthor import read_wthor

        for record in read_wthor(path):
            yield [parse_square(name) for name in record.moves], record.theoretical_score
        return
    except ImportError:
        pass
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 4)
    for index in range(count):
        raw = data[16 + 68 * index : 16 + 68 * (index + 1)]
        squares = [(b // 10 - 1) * 8 + b % 10 - 1 for b in raw[8:68] if b]
        yield squares, raw[7]


def position_at(squares: list[int], empties: int) -> Board | None:
    """The game's position with ``empties`` empty squares and a move to make, or None."""
    board = Board()
    for square in squares:
        if board.empty_count() == empties:
            break
        if board.must_pass():
            board.push_pass()
        board.push(Move(square))
    if board.empty_count() != empties or board.is_game_over():
        return None
    if board.must_pass():
        board.push_pass()
    return board


def positions(data: Path, empties: int, count: int) -> list[tuple[Board, int]]:
    """``count`` positions with ``empties`` empties, from the most recent files first."""
    found: list[tuple[Board, int]] = []
    for path in sorted(data.glob("WTH_*.wtb"), reverse=True):
        for squares, theoretical in wthor_games(path):
            board = position_at(squares, empties)
            if board is not None:
                found.append((board, theoretical))
                if len(found) == count:
                    return found
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ffo", type=Path, default=DEFAULT_FFO, help="the .obf file of FFO positions 40-59")
    parser.add_argument("--positions", default=None, help="FFO numbers (40-44), or WTHOR positions per count (3)")
    parser.add_argument("--edax", type=Path, default=None, help="an Edax binary to solve the FFO positions too")
    parser.add_argument("--repeat", type=int, default=1, help="solves of each FFO position")
    parser.add_argument("--wthor", action="store_true", help="time WTHOR positions instead of FFO ones")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of WTH_*.wtb files")
    parser.add_argument("--empties", type=int, nargs="*", default=[14, 16, 18, 20, 22, 24])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds allowed for one solve")
    parser.add_argument("--six", action="store_true", help="solve 6x6 from the start instead")
    args = parser.parse_args(argv)
    load_kernels()
    if not args.six and not args.wthor:
        args.positions = args.positions or "40-44"
        return ffo(args)
    args.positions = int(args.positions or 3)
    if args.six:
        board = Board(rules=Rules(size=6))
        start = time.perf_counter()
        try:
            solution = solve(board, time_limit=args.limit)
        except TimeoutError:
            print(f"6x6 from the start: not solved within {args.limit:.0f} s")
            return 0
        print(f"6x6 from the start: {solution} in {time.perf_counter() - start:.1f} s, {solution.nodes} nodes")
        return 0
    if not args.data.is_dir():
        print(f"skipping: no WTHOR folder at {args.data}")
        return 0
    largest = None
    for empties in args.empties:
        cases = positions(args.data, empties, args.positions)
        times, rates, all_solved = [], [], bool(cases)
        for board, theoretical in cases:
            try:
                solution = solve(board, time_limit=args.limit)
            except TimeoutError:
                print(f"{empties} empties: {board.to_string()} not solved within {args.limit:.0f} s", flush=True)
                all_solved = False
                break
            rate = solution.nodes / max(solution.seconds, 1e-9)
            times.append(solution.seconds)
            rates.append(rate)
            check = ""
            if empties == 24:
                # Black's discs under perfect play, counting the empties as the database does.
                black_margin = solution.score if board.turn == BLACK else -solution.score
                check = f", database says Black {theoretical}, solver says Black {(64 + black_margin) // 2}"
            print(
                f"{empties} empties: score {solution.score:+d} best {' '.join(map(str, solution.best_moves))}, "
                f"{solution.seconds:.2f} s, {solution.nodes} nodes, {rate:,.0f} nodes/s{check}",
                flush=True,
            )
        if times:
            print(
                f"== {empties} empties: median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
                f"median {statistics.median(rates):,.0f} nodes/s over {len(times)} positions",
                flush=True,
            )
        if not all_solved:
            break
        largest = empties
    print(f"largest number of empties solved within {args.limit:.0f} s: {largest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
