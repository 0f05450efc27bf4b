"""Where the expert's games against Zebra are lost: what each move cost against a reference
value of every position, per band of empty squares, and how far each engine's own judgement
was from that value.

Input: the JSON that ``benchmarks/strength.py`` writes.

The reference value of a position is its disc margin under perfect play, as far as it can be
had: exact (the package's solver, ``reversi_widget.solver``) up to ``--exact`` empties, each
solve within ``--solve-limit`` seconds, and beyond that one of two deep searches, kept side by
side because each leans towards its own engine's judgement:

* ``zebra``: Zebra at a fixed depth ``--zebra-depth`` (its selective midgame search, with no
  endgame solving: ``-l D 0 0``);
* ``ours``: the package's search at a fixed depth ``--ours-depth``, full width, the mean of its
  last two iterations (the learned evaluation leans one way at odd depths and the other at
  even ones; the table of the check says by how much).

Both deep searches are also run on the positions with an exact value at the last three
empties counts that have one, where they do not reach the end, and compared with it: that
says how far to trust them where nothing exact exists.

A move's cost is the value before it minus the value after it, from the mover's point of
view; passes cost nothing. Costs are summed per band of empties before the move (``BANDS``,
with the band that holds the exact horizon split there) for each engine. A move from an
estimated position to an exact one is judged by the deep search on both sides, and the deep
search's error at that point is charged to no one; so a game's costs add up to its result:
final margin = value after the opening - our costs + Zebra's - that error.

The engines' own judgement: the score each engine reported for its move in the game (at the
depth it reached then), and a fixed shallow search of every position by each (``--shallow``
plies; Zebra's with ``-l S 0 0``), against the reference: mean absolute error, mean signed
error (positive: too hopeful for the side to move) and the share with the winner right.

Values are kept in ``--values`` (default: beside the input, ``.values.json``) as they are
computed, so a run can be stopped and resumed, and the tables printed again without searching.

    python benchmarks/where_lost.py strength.json
    python benchmarks/where_lost.py strength.json --zebra-depth 16 --ours-depth 10 --exact 22
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reversi_widget import BLACK, Board, native
from reversi_widget.search import INFINITY, WIN, SearchTimeout, StopSignal, score_to_margin
from reversi_widget.search.endgame import Endgame, make_endgame
from reversi_widget.search.midgame import make_midgame

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import DEFAULT_ZEBRA, ZebraFailure, zebra_search

#: Bands of empty squares before a move, (most, fewest); the one that holds the exact
#: horizon is split there (``Bands``).
BANDS = ((60, 53), (52, 45), (44, 37), (36, 29), (28, 21), (20, 0))
#: The deep searches are checked against exact values at this many empties counts.
CHECK_COUNTS = 3
REFERENCES = ("zebra", "ours")
PLAYERS = ("ours", "zebra")
NAMES = {"ours": "the expert", "zebra": "Zebra"}


class Bands:
    """The bands of the tables: ``BANDS``, with the one holding the exact horizon split there,
    so that no band mixes exact and estimated values."""

    def __init__(self, exact: int) -> None:
        self.bounds: list[tuple[int, int]] = []
        for most, fewest in BANDS:
            split = fewest <= exact < most
            self.bounds += [(most, exact + 1), (exact, fewest)] if split else [(most, fewest)]
        self.names = [f"{most}-{fewest}" for most, fewest in self.bounds]

    def of(self, empties: int) -> str:
        for most, fewest in self.bounds:
            if fewest <= empties <= most:
                return f"{most}-{fewest}"
        raise ValueError(f"no band holds {empties} empties")


@dataclass
class Position:
    """A position before a move of a game (after any pass), or the final one."""

    key: str  # the moves that lead to it, passes left out: unique within the match's games
    moves: list[str]
    board: Board
    black_to_move: bool
    empties: int


@dataclass
class Step:
    """One move of a game: who made it, from which position to which, and what the mover said."""

    player: str | None  # ours, zebra, or None in the opening
    black: bool
    before: Position
    after: Position
    record: dict[str, Any] | None  # the move's entry in strength.py's JSON


@dataclass
class GameLine:
    number: int
    ours_black: bool
    margin: int  # ours, final
    positions: list[Position]
    steps: list[Step]
    opening_plies: int


def replay(game: dict[str, Any]) -> GameLine:
    """The positions and moves of one game of the match file."""
    board = Board()
    moves: list[str] = []
    positions: list[Position] = []

    def here() -> Position:
        position = Position("".join(moves), list(moves), board.copy(), board.turn == BLACK, board.empty_count())
        positions.append(position)
        return position

    entries: list[tuple[str | None, dict[str, Any] | None, str]] = [(None, None, name) for name in game["opening"]]
    entries += [(m["player"], m, m["move"]) for m in game["moves"]]
    steps: list[Step] = []
    before = here()
    for player, record, name in entries:
        if name == "pass":
            board.push_pass()
            before.black_to_move = board.turn == BLACK  # the same discs, the other side to move
            before.board = board.copy()
            continue
        black = board.turn == BLACK
        board.push(name)
        moves.append(name)
        after = here()
        steps.append(Step(player, black, before, after, record))
        before = after
    if not board.is_game_over():
        raise ValueError(f"game {game['number']} does not reach its end")
    outcome = board.outcome()
    assert outcome is not None
    margin = (outcome.black - outcome.white) * (1 if game["ours"] == "black" else -1)
    if margin != game["margin"]:
        raise ValueError(f"game {game['number']} ends {margin:+d} replayed, {game['margin']:+d} in the file")
    return GameLine(game["number"], game["ours"] == "black", margin, positions, steps, len(game["opening"]))


# -- values ---------------------------------------------------------------------------------------


class Values:
    """Every value found so far, by position and kind, from Black's point of view, in a file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}

    def get(self, position: Position, kind: str) -> Any:
        return self.data.get(position.key, {}).get(kind)

    def has(self, position: Position, kind: str) -> bool:
        return kind in self.data.get(position.key, {})

    def put(self, position: Position, kind: str, value: Any) -> None:
        self.data.setdefault(position.key, {})[kind] = value

    def save(self) -> None:
        temporary = self.path.with_name(self.path.name + ".part")
        temporary.write_text(json.dumps(self.data))
        temporary.replace(self.path)


def for_black(position: Position, mover_value: float) -> float:
    return mover_value if position.black_to_move else -mover_value


def for_mover(position: Position, black_value: float) -> float:
    return black_value if position.black_to_move else -black_value


def final_margin(position: Position) -> float:
    outcome = position.board.outcome()
    assert outcome is not None
    return float(outcome.black - outcome.white)


class Searches:
    """The searches that value positions, with the settings of this run."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        # Apart, so that no shallow search reads a deep one's results from the table.
        self.deep_search = make_midgame(8, "classic", "count", compiled=True)
        self.shallow_search = make_midgame(8, "classic", "count", compiled=True)
        self.deep_search.stop = self.shallow_search.stop = StopSignal()

    def exact(self, solver: Endgame, position: Position) -> float | None:
        """The exact margin for Black, or None past the time limit."""
        p, o = position.board.sides()
        solver.deadline = time.perf_counter() + self.args.solve_limit
        try:
            return for_black(position, float(solver.search(p, o, -INFINITY, INFINITY)))
        except SearchTimeout:
            return None
        finally:
            solver.deadline = None

    def ours(self, position: Position, depth: int, shallow: bool = False) -> list[list[float]]:
        """Our search's margins for Black at its last two depths up to ``depth``, as [depth,
        margin] pairs (one pair when depth 1 already proves the result or reaches the end).
        Shallower iterations are not kept: the table holds the position from the search of the
        one before it, which answers them at once with a deeper value."""
        search = self.shallow_search if shallow else self.deep_search
        board = position.board
        p, o = board.sides()
        legal = board.geometry.moves(p, o)
        out: list[list[float]] = []
        for d in range(1, min(depth, position.empties) + 1):
            score = search.negamax(p, o, d, -INFINITY, INFINITY, legal)
            out.append([d, for_black(position, score_to_margin(score)[0])])
            if abs(score) >= WIN:
                break
        return out[-2:]

    def zebra(self, position: Position, depth: int) -> float | str | None:
        """Zebra's margin for Black at ``depth``; ``"forced"`` when it does not search a forced
        move; None when it gives only a win, loss or draw."""
        status = zebra_search(self.args.zebra, self.workdir, position.moves, (depth, 0, 0), self.args.zebra_timeout)
        if status.kind == "forced":
            return "forced"
        if status.score is None:
            return None
        return for_black(position, status.score)


def compute(lines: Sequence[GameLine], values: Values, searches: Searches, args: argparse.Namespace) -> None:
    """Fill ``values`` with everything the tables need, saving after each game."""
    started = time.perf_counter()
    checked = set(range(args.exact - CHECK_COUNTS + 1, args.exact + 1))
    for index, line in enumerate(lines):
        solver = make_endgame(8)
        open_positions = [p for p in line.positions if not p.board.is_game_over()]
        # Exact values from the most empties down: the solver's table then helps the later ones.
        for position in sorted(open_positions, key=lambda p: -p.empties):
            if position.empties <= args.exact and not values.has(position, "exact"):
                values.put(position, "exact", searches.exact(solver, position))
        for position in line.positions:
            if position.board.is_game_over():
                values.put(position, "exact", final_margin(position))
        for position in open_positions:
            deep = values.get(position, "exact") is None or position.empties in checked
            if deep and not values.has(position, "ours_deep"):
                values.put(position, "ours_deep", searches.ours(position, args.ours_depth))
            if deep and not values.has(position, "zebra_deep"):
                values.put(position, "zebra_deep", zebra_value(searches, position, args.zebra_depth))
            if not values.has(position, "ours_shallow"):
                values.put(position, "ours_shallow", searches.ours(position, args.shallow, shallow=True)[-1][1])
            if not values.has(position, "zebra_shallow"):
                values.put(position, "zebra_shallow", zebra_value(searches, position, args.shallow))
        values.save()
        print(
            f"game {line.number} valued ({index + 1}/{len(lines)}, {time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )


def zebra_value(searches: Searches, position: Position, depth: int) -> float | str | None:
    try:
        return searches.zebra(position, depth)
    except ZebraFailure as failure:
        print(f"Zebra failed on {position.key}: {failure}", file=sys.stderr, flush=True)
        return None


# -- reading the values ---------------------------------------------------------------------------


def deep_value(values: Values, name: str, position: Position) -> float | str | None:
    """A deep search's value for Black (ours: the mean of its last two depths), ``"forced"``
    where Zebra did not search a forced move, None where there is none."""
    if name == "ours":
        pairs = values.get(position, "ours_deep")
        return float(statistics.fmean(v for _, v in pairs)) if pairs else None
    value = values.get(position, "zebra_deep")
    return value if value is None or value == "forced" else float(value)


class Reference:
    """Reference values (for Black) of a match's positions: exact where known, else one deep
    search; and the deep search's own value where exact values begin."""

    def __init__(self, name: str, values: Values, lines: Sequence[GameLine]) -> None:
        self.name = name
        self.value: dict[str, float | None] = {}
        self.deep: dict[str, float | None] = {}
        self.exact: set[str] = set()
        for line in lines:
            following: float | None = None
            for position in reversed(line.positions):
                key = position.key
                found = deep_value(values, name, position)
                # Zebra does not search a forced move: the position takes the value after it.
                deep = following if found == "forced" else None if isinstance(found, str) else found
                exact = values.get(position, "exact")
                self.deep[key] = deep
                self.value[key] = deep if exact is None else float(exact)
                if exact is not None:
                    self.exact.add(key)
                following = deep if deep is not None else self.value[key]

    def __getitem__(self, position: Position) -> float | None:
        return self.value.get(position.key)

    def cost(self, step: Step) -> tuple[float, float] | None:
        """What the move cost its mover, and (for Black) the deep search's value minus the exact
        one of the position after it when the move leads from estimated values to exact ones:
        the move is judged by the deep search on both sides, and that difference, the deep
        search's error there, is charged to neither player. None where a value is missing."""
        before, after = self.value.get(step.before.key), self.value.get(step.after.key)
        if before is None or after is None:
            return None
        switch = 0.0
        deep_after = self.deep.get(step.after.key)
        if step.before.key not in self.exact and step.after.key in self.exact and deep_after is not None:
            switch, after = deep_after - after, deep_after
        return (before - after) * (1 if step.black else -1), switch

    def describe(self, args: argparse.Namespace) -> str:
        deep = (
            f"Zebra at depth {args.zebra_depth}"
            if self.name == "zebra"
            else f"ours at depth {args.ours_depth} (mean of depths {args.ours_depth - 1} and {args.ours_depth})"
        )
        return f"exact up to {args.exact} empties, {deep} beyond"


@dataclass
class Judged:
    """Estimates against reference values, both from the same side's point of view."""

    pairs: list[tuple[float, float]]

    @property
    def error(self) -> float:
        return statistics.fmean(abs(e - r) for e, r in self.pairs) if self.pairs else 0.0

    def cells(self) -> list[str]:
        if not self.pairs:
            return ["-", "-", "-"]
        bias = statistics.fmean(e - r for e, r in self.pairs)
        decided = [(e, r) for e, r in self.pairs if r != 0]
        right = sum(1 for e, r in decided if (e > 0) == (r > 0) and e != 0) / len(decided) if decided else 0.0
        return [f"{self.error:.2f}", f"{bias:+.2f}", f"{100 * right:.0f}%"]


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def check_table(lines: Sequence[GameLine], values: Values, bands: Bands, args: argparse.Namespace) -> None:
    """The deep searches against exact values where both exist, and against each other beyond."""
    depth, shallower = args.ours_depth, args.ours_depth - 1
    rows = {
        f"Zebra, depth {args.zebra_depth}": "zebra",
        f"ours, mean of depths {shallower} and {depth}": "ours",
        f"ours, depth {shallower} alone": shallower,
        f"ours, depth {depth} alone": depth,
    }
    exact_pairs: dict[str, list[tuple[float, float]]] = {row: [] for row in rows}
    apart: dict[str, list[float]] = {band: [] for band in bands.names}
    swing: dict[str, list[float]] = {band: [] for band in bands.names}
    for line in lines:
        for position in line.positions:
            if position.board.is_game_over():
                continue
            zebra = deep_value(values, "zebra", position)
            ours = deep_value(values, "ours", position)
            pairs = {int(d): for_mover(position, v) for d, v in values.get(position, "ours_deep") or []}
            exact = values.get(position, "exact")
            if exact is not None:
                truth = for_mover(position, exact)
                for row, source in rows.items():
                    if isinstance(source, int):
                        estimate: float | str | None = pairs.get(source)
                    else:
                        found = zebra if source == "zebra" else ours
                        estimate = None if found is None or isinstance(found, str) else for_mover(position, found)
                    if isinstance(estimate, float):
                        exact_pairs[row].append((estimate, truth))
            elif isinstance(zebra, float) and ours is not None and not isinstance(ours, str):
                apart[bands.of(position.empties)].append(abs(zebra - ours))
            if shallower in pairs and depth in pairs:
                odd, even = (pairs[shallower], pairs[depth]) if shallower % 2 else (pairs[depth], pairs[shallower])
                swing[bands.of(position.empties)].append(odd - even)
    low = args.exact - CHECK_COUNTS + 1
    print(f"\nThe deep searches against exact values, positions at {low}-{args.exact} empties (mover's view)")
    table(
        ["deep search", "positions", "mean error", "mean signed", "winner right"],
        [[row, str(len(exact_pairs[row])), *Judged(exact_pairs[row]).cells()] for row in rows],
    )
    odd, even = sorted((shallower, depth), key=lambda d: d % 2 == 0)
    print(
        "\nWhere nothing is exact: how far apart the two deep searches are, and our search at its odd"
        " depth minus its even one (mover's view), per band of empties"
    )
    table(
        ["empties", "positions", "mean abs(Zebra - ours)", f"ours: depth {odd} minus depth {even}"],
        [[band, str(len(apart[band])), f"{statistics.fmean(apart[band]):.2f}" if apart[band] else "-",
          f"{statistics.fmean(swing[band]):+.2f}" if swing[band] else "-"] for band in bands.names],
    )  # fmt: skip


def loss_table(
    lines: Sequence[GameLine], reference: Reference, bands: Bands, args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    """Discs each engine gave away a game per band; prints the table, returns the figures."""
    lost: dict[str, dict[str, float]] = {player: dict.fromkeys(bands.names, 0.0) for player in PLAYERS}
    moves: dict[str, dict[str, int]] = {player: dict.fromkeys(bands.names, 0) for player in PLAYERS}
    start: list[float] = []
    switches: list[float] = []
    margins: list[int] = []
    missing = 0
    for line in lines:
        side = 1 if line.ours_black else -1
        costs = [(step, reference.cost(step)) for step in line.steps[line.opening_plies :]]
        first = reference[line.steps[line.opening_plies - 1].after]
        if first is None or any(cost is None for _, cost in costs):
            missing += 1
            continue
        margins.append(line.margin)
        start.append(side * first)
        switch = 0.0
        for step, cost in costs:
            assert cost is not None and step.player is not None
            band = bands.of(step.before.empties)
            lost[step.player][band] += cost[0]
            moves[step.player][band] += 1
            switch += side * cost[1]
        switches.append(switch)
    if not margins:
        print(f"\nno game has every value by the {reference.name} reference")
        return {}
    games = len(margins)
    per_game = {player: {band: lost[player][band] / games for band in bands.names} for player in PLAYERS}
    totals = {player: sum(per_game[player].values()) for player in PLAYERS}
    print(f"\nDiscs given away a game, by empties before the move: reference {reference.describe(args)}")
    print(f"({games} games{f', {missing} left out for a missing value' if missing else ''})")
    rows = []
    for band in bands.names:
        row = [band]
        for player in PLAYERS:
            share = 100 * per_game[player][band] / totals[player] if totals[player] else 0.0
            row += [f"{per_game[player][band]:.2f}", f"{share:.0f}%", str(moves[player][band])]
        row.append(f"{per_game['zebra'][band] - per_game['ours'][band]:+.2f}")
        rows.append(row)
    rows.append(["all", f"{totals['ours']:.2f}", "100%", "", f"{totals['zebra']:.2f}", "100%", "",
                 f"{totals['zebra'] - totals['ours']:+.2f}"])  # fmt: skip
    table(["empties", "ours: discs", "share", "moves", "Zebra: discs", "share", "moves", "net for ours"], rows)
    opening, switch = statistics.fmean(start), statistics.fmean(switches)
    print(
        f"for ours: value after the opening {opening:+.2f} - ours' costs {totals['ours']:.2f} + Zebra's"
        f" {totals['zebra']:.2f} - the deep search's error where exact values begin {switch:+.2f}"
        f" = {opening - totals['ours'] + totals['zebra'] - switch:+.2f}, the mean final margin"
        f" {statistics.fmean(margins):+.2f}"
    )
    return {player: {**per_game[player], "all": totals[player]} for player in PLAYERS}


def in_words(name: str, figures: dict[str, dict[str, float]], bands: Bands, exact: int) -> str:
    """Where the discs go, said from the figures of one reference."""
    ours, zebra = figures["ours"], figures["zebra"]
    worst = max(bands.names, key=lambda band: ours[band])
    net = {band: zebra[band] - ours[band] for band in bands.names}  # for ours: positive is good
    lost = sorted((b for b in bands.names if net[b] < 0), key=lambda b: net[b])
    gained = sorted((b for b in bands.names if net[b] > 0), key=lambda b: -net[b])
    exact_bands = [name for name, (most, _) in zip(bands.names, bands.bounds, strict=True) if most <= exact]
    words = (
        f"By the {name} reference, the expert gives away {ours['all']:.1f} discs a game and Zebra {zebra['all']:.1f};"
        f" the expert loses most at {worst} empties ({ours[worst]:.1f} discs a game,"
        f" {100 * ours[worst] / ours['all']:.0f}% of its losses)."
        f" Net against Zebra, {zebra['all'] - ours['all']:+.1f} discs a game"
    )
    if lost:
        words += ": lost at " + ", ".join(f"{b} ({net[b]:+.1f})" for b in lost)
    if gained:
        words += "; won back at " + ", ".join(f"{b} ({net[b]:+.1f})" for b in gained)
    ours_exact, zebra_exact = sum(ours[b] for b in exact_bands), sum(zebra[b] for b in exact_bands)
    return (
        words + f". Where both sides of every move are exact ({exact} empties and fewer), the expert gives away"
        f" {ours_exact:.1f} discs a game and Zebra {zebra_exact:.1f}."
    )


def judgement_tables(
    lines: Sequence[GameLine], values: Values, reference: Reference, bands: Bands, args: argparse.Namespace
) -> str:
    """Each engine's own scores (in the game, and at the shallow depth) against the reference:
    prints the table, and returns a sentence on the shallow searches."""
    own: dict[str, dict[str, list[tuple[float, float]]]] = {p: {b: [] for b in bands.names} for p in PLAYERS}
    shallow: dict[str, dict[str, list[tuple[float, float]]]] = {p: {b: [] for b in bands.names} for p in PLAYERS}
    for line in lines:
        for step in line.steps[line.opening_plies :]:
            position, record = step.before, step.record
            truth = reference[position]
            if truth is None or record is None or step.player is None:
                continue
            score = record.get("score")
            # A move played without a search says nothing; a proven win's margin is only a bound.
            searched = record.get("depth") and record.get("kind") not in ("forced", "pass")
            if score is not None and searched and record.get("certainty") != "bound":
                own[step.player][bands.of(position.empties)].append((float(score), for_mover(position, truth)))
        for position in line.positions:
            truth = reference[position]
            if truth is None or position.board.is_game_over():
                continue
            for player in PLAYERS:
                estimate = values.get(position, f"{player}_shallow")
                if isinstance(estimate, (int, float)):
                    pair = (for_mover(position, float(estimate)), for_mover(position, truth))
                    shallow[player][bands.of(position.empties)].append(pair)
    print(
        f"\nThe engines' own scores against the reference ({reference.describe(args)}), mover's view:"
        " mean error / mean signed error / winner right (positions)"
    )
    header = ["empties"]
    for player in PLAYERS:
        header += [f"{NAMES[player]} in the game", f"{NAMES[player]} at depth {args.shallow}"]
    rows = []
    for band in [*bands.names, "all"]:
        row = [band]
        for player in PLAYERS:
            for source in (own, shallow):
                pairs = [p for b in bands.names for p in source[player][b]] if band == "all" else source[player][band]
                mean, bias, right = Judged(pairs).cells()
                row.append(f"{mean} / {bias} / {right} ({len(pairs)})")
        rows.append(row)
    table(header, rows)
    gap = max(bands.names, key=lambda b: Judged(shallow["ours"][b]).error - Judged(shallow["zebra"][b]).error)
    everywhere = {p: Judged([x for b in bands.names for x in shallow[p][b]]).error for p in PLAYERS}
    return (
        f"At depth {args.shallow}, against the {reference.name} reference, the expert's evaluation is off by"
        f" {everywhere['ours']:.2f} discs a position and Zebra's by {everywhere['zebra']:.2f}; the gap is widest at"
        f" {gap} empties ({Judged(shallow['ours'][gap]).error:.2f} against {Judged(shallow['zebra'][gap]).error:.2f})."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("match", type=Path, help="the JSON file of benchmarks/strength.py")
    parser.add_argument("--values", type=Path, default=None, help="where values are kept (default: beside the match)")
    parser.add_argument("--zebra", type=Path, default=DEFAULT_ZEBRA, help="the Zebra binary (coeffs2.bin beside it)")
    parser.add_argument("--exact", type=int, default=24, help="solve exactly up to this many empties")
    parser.add_argument("--solve-limit", type=float, default=300.0, help="seconds for one exact solve")
    parser.add_argument("--zebra-depth", type=int, default=16, help="Zebra's depth for the deep reference")
    parser.add_argument("--ours-depth", type=int, default=10, help="our depth for the deep reference")
    parser.add_argument("--shallow", type=int, default=4, help="the fixed shallow depth of both engines")
    parser.add_argument("--zebra-timeout", type=float, default=600.0, help="seconds for one search of Zebra's")
    parser.add_argument("--games", type=int, default=None, help="only the first this many games")
    args = parser.parse_args(argv)
    for name in ("exact", "zebra_depth", "ours_depth", "shallow"):
        if getattr(args, name) < 2:
            parser.error(f"--{name.replace('_', '-')} must be at least 2, got {getattr(args, name)}")
    match = json.loads(args.match.read_text())
    games = [g for g in match["games"] if g["void"] is None][: args.games]
    lines = [replay(game) for game in games]
    values = Values(args.values or args.match.with_name(args.match.stem + ".values.json"))
    if not (native.wait("midgame") and native.wait("endgame")):
        raise SystemExit(f"the compiled core is not available: {native.failure()}")
    coeffs = args.zebra.parent / "coeffs2.bin"
    if not args.zebra.is_file() or not coeffs.is_file():
        raise SystemExit(f"no Zebra binary with coeffs2.bin beside it at {args.zebra}")
    with tempfile.TemporaryDirectory(prefix="zebra-") as scratch:
        workdir = Path(scratch)
        (workdir / "coeffs2.bin").symlink_to(coeffs.resolve())
        compute(lines, values, Searches(args, workdir), args)
    timeouts = sum(1 for line in lines for p in line.positions if p.empties <= args.exact
                   and values.has(p, "exact") and values.get(p, "exact") is None)  # fmt: skip
    print(f"{len(lines)} games of {args.match} ({len(match['games']) - len(games)} void left out)")
    print(f"match: {'; '.join(match['summary'])}")
    if timeouts:
        print(f"{timeouts} positions at {args.exact} or fewer empties were not solved in {args.solve_limit:g} s:"
              " the deep search values them")  # fmt: skip
    bands = Bands(args.exact)
    check_table(lines, values, bands, args)
    words = []
    for name in REFERENCES:
        reference = Reference(name, values, lines)
        figures = loss_table(lines, reference, bands, args)
        if figures:
            words.append(in_words(f"{name} (deep search beyond {args.exact} empties)", figures, bands, args.exact))
        words.append(judgement_tables(lines, values, reference, bands, args))
    print("\nWhere the discs are lost:")
    for text in words:
        print(f"- {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
