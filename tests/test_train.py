"""The training pipeline, end to end: on a few hundred games written here as a WTHOR file, and
on a few self-play games of the inverted goal."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from reversi_widget import Board
from reversi_widget.errors import InvalidPositionError
from reversi_widget.geometry import geometry
from reversi_widget.search.patterns import make_pattern_evaluator, read_weights
from reversi_widget.selfplay import SelfPlaySettings
from reversi_widget.wthor import HEADER, RECORD, WthorRecord
from tests.support import play_random

try:
    from reversi_widget import train
except ImportError as error:  # CI installs the train extra: there a missing one fails
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(f"the training pipeline needs the train extra ({error})", allow_module_level=True)


def wthor_bytes(games: list[Board], year: int) -> bytes:
    """A WTHOR game file of finished games; the theoretical score is the final one."""
    data = bytearray(HEADER.pack(20, 24, 1, 1, len(games), 0, year, 8, 0, 24))
    for board in games:
        squares = [m.square for m in board.move_stack if m.square is not None]
        moves = bytes(10 * (sq // 8 + 1) + sq % 8 + 1 for sq in squares).ljust(60, b"\0")
        black = board.count(True)
        white = board.count(False)
        score = black + (64 - black - white) * (black > white)
        data += RECORD.pack(0, 0, 0, score, score, moves)
    return bytes(data)


def random_games(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    return [play_random(Board(), rng) for _ in range(count)]


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wthor")
    (folder / "WTH_2001.wtb").write_bytes(wthor_bytes(random_games(200, 1), 2001))
    (folder / "WTH_2002.wtb").write_bytes(wthor_bytes(random_games(100, 2), 2002))
    (folder / "WTH_2017.wtb").write_bytes(b"a test year: never read, so not even checked")
    return folder


def test_a_folder_without_wthor_files_is_refused_saying_where_data_is_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("no games here")
    with pytest.raises(InvalidPositionError, match=r"no WTHOR files .* in .* the training data is expected there"):
        train.wthor_files(tmp_path)
    assert train.main(["--data", str(tmp_path), "--out", str(tmp_path / "w.bin")]) == 2
    error = capsys.readouterr().err
    assert str(tmp_path) in error and "--data" in error
    assert not (tmp_path / "w.bin").exists()
    with pytest.raises(InvalidPositionError, match="does not exist"):
        train.wthor_files(tmp_path / "missing")


def test_the_test_years_can_never_train(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        train.main(["--data", str(tmp_path), "--last-year", "2016"])


def test_labels_are_the_theoretical_score_from_24_empties_up_and_the_final_score_below() -> None:
    board = play_random(Board(), random.Random(4))
    names = [str(m) for m in board.move_stack if m.square is not None]
    record = WthorRecord("a", "b", "t", 2000, names, black_score=40, theoretical_score=30)
    data = train.positions_of([record])
    geo = geometry(8)
    replay = Board()
    checked = 0
    for index, name in enumerate(names):
        if replay.must_pass():
            replay.push_pass()
        black, white = replay.bitboards()
        mover = black if replay.turn else white
        assert int(data.mover[index]) == mover
        assert int(data.empties[index]) == replay.empty_count()
        sign = 1 if replay.turn else -1
        expected = (2 * 30 - 64 if replay.empty_count() >= 24 else 2 * 40 - 64) * sign
        assert data.label[index] == expected
        opponent = white if replay.turn else black
        assert data.mobility[index] == geo.moves(mover, opponent).bit_count() - geo.moves(opponent, mover).bit_count()
        replay.push(name)
        checked += 1
    assert checked == len(data.label) == len(names)


def test_training_runs_end_to_end_and_the_weights_beat_guessing_zero(data_folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "weights.bin"
    assert train.main(["--data", str(data_folder), "--out", str(out), "--quiet", "--damp", "1"]) == 0
    weights = read_weights(out)
    assert weights.notes["games"] == 300
    assert weights.notes["years"] == "1977-2015"
    files = train.wthor_files(data_folder)
    assert [f.name for f in files] == ["WTH_2001.wtb", "WTH_2002.wtb"]
    data = train.positions_of(train.load_games(files, None, 0, show=False))
    evaluate = make_pattern_evaluator(out)
    geo = geometry(8)
    fitted = zero = 0.0
    for p, o, label in zip(data.mover.tolist(), data.opponent.tolist(), data.label.tolist(), strict=True):
        fitted += abs(evaluate(p, o, geo.moves(p, o)) / 100 - label)
        zero += abs(label)
    assert fitted < 0.6 * zero  # the fit explains most of the training margins


def test_a_sampled_run_is_reproducible_with_its_seed(data_folder: Path, tmp_path: Path) -> None:
    runs = []
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        out = tmp_path / f"{name}.bin"
        args = ["--data", str(data_folder), "--out", str(out), "--games", "120", "--seed", str(seed), "--quiet"]
        assert train.main([*args, "--iterations", "50"]) == 0
        runs.append(out.read_bytes())
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_the_progress_bar_counts_to_the_end() -> None:
    import io

    stream = io.StringIO()
    assert list(train.progress_bar([1, 2, 3], "work", stream)) == [1, 2, 3]
    assert "[##############################] 3/3" in stream.getvalue()


def inverted_args(out: Path, seed: int) -> list[str]:
    """A tiny inverted-goal run: a few self-play games, exact labels in their last moves."""
    return ["--goal", "inverted", "--games", "4", "--seed", str(seed), "--solve-empties", "8", "--out", str(out)]


def test_the_inverted_goal_trains_end_to_end_on_self_play_reproducibly(tmp_path: Path) -> None:
    outs = [tmp_path / f"{name}.bin" for name in "ab"]
    for out in outs:
        assert train.main([*inverted_args(out, 3), "--quiet", "--iterations", "40", "--damp", "1"]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    weights = read_weights(outs[0])
    assert weights.goal == "inverted"
    assert weights.notes["source"] == "self-play" and weights.notes["games"] == 4 and weights.notes["seed"] == 3
    assert weights.notes["solve_empties"] == 8
    games = train.self_play(4, 3, SelfPlaySettings(solve_empties=8), show=False)
    data = train.positions_of_labelled(games)
    assert train.self_play(4, 4, SelfPlaySettings(solve_empties=8), show=False) != games  # another seed
    assert weights.notes["positions"] == len(data.label) == sum(len(g) for g in games)
    evaluate = make_pattern_evaluator(outs[0], "inverted")
    geo = geometry(8)
    fitted = zero = 0.0
    for p, o, label in zip(data.mover.tolist(), data.opponent.tolist(), data.label.tolist(), strict=True):
        fitted += abs(evaluate(p, o, geo.moves(p, o)) / 100 - label)
        zero += abs(label)
    assert fitted < 0.6 * zero


def test_inverted_positions_carry_their_labels_and_mobility() -> None:
    games = train.self_play(2, 9, SelfPlaySettings(level=3, solve_empties=6), show=False)
    data = train.positions_of_labelled(games)
    flat = [pos for game in games for pos in game]
    geo = geometry(8)
    assert data.games == 2 and len(data.label) == len(flat)
    for index, pos in enumerate(flat):
        assert (int(data.mover[index]), int(data.opponent[index])) == (pos.mover, pos.opponent)
        assert data.label[index] == pos.margin and data.empties[index] == pos.empties
        moves = geo.moves(pos.mover, pos.opponent).bit_count() - geo.moves(pos.opponent, pos.mover).bit_count()
        assert data.mobility[index] == moves


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--goal", "inverted", "--data", "somewhere"], "--data applies to the classic goal"),
        (["--goal", "inverted", "--first-year", "1990"], "--first-year applies to the classic goal"),
        (["--goal", "inverted", "--solve-empties", "25"], "--solve-empties must be from 0 to 20, got 25"),
        (["--solve-empties", "10"], "--solve-empties applies to the inverted goal"),
        (["--goal", "inverted", "--games", "0"], "--games must be at least 1, got 0"),
        (["--games", "-3"], "--games must be at least 1, got -3"),
        (["--damp", "-1"], r"--damp must be a finite number >= 0, got -1\.0"),
        (["--damp", "nan"], "--damp must be a finite number >= 0, got nan"),
        (["--iterations", "0"], "--iterations must be at least 1, got 0"),
        (["--goal", "reverse"], "invalid choice: 'reverse'"),
    ],
)
def test_bad_options_are_refused_before_any_work(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.bin"
    with pytest.raises(SystemExit) as exit_info:
        train.main([*args, "--out", str(out)])
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err)
    assert not out.exists()


def test_an_unwritable_output_is_refused_naming_it(
    data_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no such folder" / "w.bin"
    args = ["--data", str(data_folder), "--out", str(out), "--games", "20", "--iterations", "5", "--quiet"]
    assert train.main(args) == 2
    assert f"cannot write the weights file {out}: its folder does not exist" in capsys.readouterr().err
    assert not out.parent.exists()
