"""How well the win chances are calibrated, on master games the curves never saw.

    python benchmarks/win_chance.py [--data FOLDER] [--positions 4000] [--seed 2]

Positions are drawn from WTHOR 2016-2021 (the curves were fitted on 1977-2015) exactly as
``python -m reversi_widget.win_fit`` draws its own: one per game, at 9 to 58 empties, scored
by ``analyse`` at the compiled default depth. Each gets ``Analysis.win_chance`` (exact where
the analysis proves the result) and is compared with how its game ended (1 a Black win,
0.5 a draw, 0 a loss). Printed as Markdown: the reliability table (predicted chance in bins
of a tenth against the observed share of points, with counts) and the Brier score, beside
a baseline that predicts Black's average score of the training years for every position.
Needs the ``train`` extra and the compiled core (a few minutes on one core).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from reversi_widget import native
from reversi_widget.analysis import default_depth
from reversi_widget.train import DEFAULT_DATA, FIRST_YEAR, LAST_YEAR, wthor_files
from reversi_widget.win_fit import DEFAULT_EMPTIES, Scored, master_positions, outcome, score_positions
from reversi_widget.wthor import read_wthor

TEST_YEARS = (2016, 2021)


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    return statistics.fmean((p - y) ** 2 for p, y in pairs)


def table(samples: Sequence[Scored], title: str, base_rate: float) -> list[str]:
    pairs = [(chance, s.black_result) for s in samples if (chance := s.black_chance()) is not None]
    lines = [
        f"**{title}** ({len(pairs)} positions)",
        "",
        "| predicted | positions | mean predicted | observed |",
        "| --- | ---: | ---: | ---: |",
    ]
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        inside = [(p, y) for p, y in pairs if low <= p < high or (tenth == 9 and p == 1.0)]
        if not inside:
            lines.append(f"| {low:.1f}-{high:.1f} | 0 | | |")
            continue
        predicted = statistics.fmean(p for p, _ in inside)
        observed = statistics.fmean(y for _, y in inside)
        lines.append(f"| {low:.1f}-{high:.1f} | {len(inside)} | {predicted:.3f} | {observed:.3f} |")
    model, base = brier(pairs), brier([(base_rate, y) for _, y in pairs])
    lines += [
        "",
        f"Brier score {model:.4f}; the baseline (always {base_rate:.3f}) {base:.4f}; skill {1 - model / base:.1%}.",
        "",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--positions", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument(
        "--scores", type=Path, default=None, help="keep the analysed positions here (JSON), and reuse them"
    )
    args = parser.parse_args(argv)
    native.wait("midgame")
    native.wait("endgame")
    train_results = [
        outcome(r.black_score) for path in wthor_files(args.data, FIRST_YEAR, LAST_YEAR) for r in read_wthor(path)
    ]
    base_rate = statistics.fmean(train_results)
    if args.scores is not None and args.scores.exists():
        samples = [Scored(**each) for each in json.loads(args.scores.read_text(encoding="utf-8"))]
    else:
        files = wthor_files(args.data, *TEST_YEARS)
        positions = master_positions(files, random.Random(args.seed), args.positions, DEFAULT_EMPTIES)
        samples = score_positions(positions, default_depth(8))
        if args.scores is not None:
            args.scores.write_text(json.dumps([dataclasses.asdict(s) for s in samples]), encoding="utf-8")
    estimated = [s for s in samples if not s.proven]
    late = [s for s in estimated if s.empties <= 20]
    low, high = DEFAULT_EMPTIES
    years = f"{TEST_YEARS[0]}-{TEST_YEARS[1]}"
    print(f"WTHOR {years}, {len(samples)} positions at {low}-{high} empties, depth {default_depth(8)}\n")
    out = table(samples, "every position (exact chances included)", base_rate)
    out += table(estimated, "estimated chances only (the result not proven)", base_rate)
    out += table(
        [s for s in estimated if s.empties > 20],
        "estimated, more than 20 empties (the widget's default: solved below)",
        base_rate,
    )
    if late:
        out += table(late, "estimated, 9-20 empties", base_rate)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
