"""The learned pattern evaluation: the shipped weights, refusal of bad files, symmetry, and
the compiled twin agreeing exactly with the pure path."""

from __future__ import annotations

import atexit
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_widget import Board
from reversi_widget.errors import InvalidPositionError
from reversi_widget.geometry import geometry
from reversi_widget.search.endgame import make_endgame
from reversi_widget.search.patterns import (
    INVERTED_WEIGHTS_FILE,
    MAGIC,
    PATTERNS,
    PHASES,
    SYMMETRIES,
    WEIGHTS_FILE,
    WEIGHTS_FILES,
    canonical_columns,
    load_weights,
    make_pattern_evaluator,
    phase_of,
    read_weights,
    weights_file,
    weights_per_phase,
    write_weights,
)
from reversi_widget.selfplay import SelfPlaySettings, label_game, play_game
from tests.support import play_random, unavailable

GEO = geometry(8)


def random_weights(seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randint(-2000, 2000) for _ in range(weights_per_phase())] for _ in range(PHASES)]


#: Random weights, so that every table entry is non-zero and a wrong index cannot hide.
RANDOM_FILE = Path(tempfile.mkdtemp()) / "random.bin"
atexit.register(shutil.rmtree, RANDOM_FILE.parent, True)
write_weights(RANDOM_FILE, random_weights(7), {"source": "test"})


@pytest.fixture
def random_file() -> Path:
    return RANDOM_FILE


def position(seed: int, plies: int) -> tuple[int, int]:
    """(mover, opponent) after random play, with the mover able to move."""
    board = play_random(Board(), random.Random(seed), plies)
    if board.must_pass():
        board.push_pass()
    black, white = board.bitboards()
    return (black, white) if board.turn else (white, black)


def transform(bits: int, symmetry: int) -> int:
    out = 0
    for sq in range(64):
        if bits >> sq & 1:
            r, c = SYMMETRIES[symmetry](*divmod(sq, 8))
            out |= 1 << (r * 8 + c)
    return out


def test_the_shipped_weights_load_and_say_how_they_were_trained() -> None:
    weights = load_weights()
    assert weights.path == WEIGHTS_FILE
    assert weights.notes["years"] == "1977-2015"
    assert weights.notes["games"] > 100_000
    assert len(weights.tables) == PHASES
    assert [len(t) for t in weights.tables[0]] == [p.fillings for p in PATTERNS]
    assert WEIGHTS_FILE.stat().st_size < 2_000_000


def test_the_shipped_weights_judge_plain_positions_sensibly() -> None:
    evaluate = make_pattern_evaluator()
    start_p, start_o = 0x0000000810000000, 0x0000001008000000
    assert abs(evaluate(start_p, start_o, GEO.moves(start_p, start_o))) < 500  # the start is about even
    # One side owns the whole border, the other the centre: the border wins by many discs.
    edges = 0xFF818181818181FF
    centre = 0x00003C3C3C3C0000
    assert evaluate(edges, centre, GEO.moves(edges, centre)) > 800
    assert evaluate(centre, edges, GEO.moves(centre, edges)) < -800


def test_the_shipped_inverted_weights_load_and_say_how_they_were_trained() -> None:
    weights = load_weights(goal="inverted")
    assert weights.path == INVERTED_WEIGHTS_FILE == weights_file("inverted")
    assert weights.goal == "inverted" and weights.notes["source"] == "self-play"
    assert weights.notes["games"] >= 10_000 and weights.notes["positions"] > 500_000
    assert [len(t) for t in weights.tables[0]] == [p.fillings for p in PATTERNS]
    assert INVERTED_WEIGHTS_FILE.stat().st_size + WEIGHTS_FILE.stat().st_size < 2_000_000
    with pytest.raises(InvalidPositionError, match="fitted for the inverted goal, not the classic goal"):
        load_weights(INVERTED_WEIGHTS_FILE, "classic")


def test_the_shipped_inverted_weights_come_closer_to_exact_margins_than_guessing_zero() -> None:
    """Positions at 10 empties of fresh self-play games (another seed than the training
    games'), solved exactly: fewer discs winning, as the solver scores it."""
    evaluate = make_pattern_evaluator(goal="inverted")
    settings = SelfPlaySettings(level=3, solve_empties=10)
    solver = make_endgame(8, "inverted")
    learned = zero = 0.0
    for number in range(30):
        labelled = label_game(play_game(99, number, settings), solver, settings.solve_empties)
        pos = next(p for p in labelled if p.exact)
        learned += abs(evaluate(pos.mover, pos.opponent, GEO.moves(pos.mover, pos.opponent)) / 100 - pos.margin)
        zero += abs(pos.margin)
    assert learned < 0.6 * zero
    start_p, start_o = 0x0000000810000000, 0x0000001008000000
    assert abs(evaluate(start_p, start_o, GEO.moves(start_p, start_o))) < 500  # the start is about even


def test_weights_load_on_first_use_not_at_import() -> None:
    code = (
        "import reversi_widget, reversi_widget.search.patterns as p\n"
        "e = p.make_pattern_evaluator()\n"
        "assert not p._loaded, 'loaded too early'\n"
        "e(0x0000000810000000, 0x0000001008000000, 0x0000102004080000)\n"
        "assert p._loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_missing_file_is_refused_when_first_used_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.bin"
    evaluate = make_pattern_evaluator(missing)  # building costs nothing and reads nothing
    with pytest.raises(InvalidPositionError, match=r"nowhere\.bin cannot be read"):
        evaluate(0x0000000810000000, 0x0000001008000000, 0x0000102004080000)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: b"NOTWEIGHTS" + data[10:], "bad magic bytes"),
        (lambda data: data[:-100], "damaged"),
        (lambda data: data[:-40] + bytes(b ^ 0x55 for b in data[-40:]), "damaged"),
        (lambda data: data[:5], "not a weights file"),
        (lambda data: MAGIC + b"\x03\x00" + data[12:], "format version 3"),
        (lambda data: data.replace(b'"phases": 12', b'"phases": 13'), "other patterns or phases"),
    ],
)
def test_a_damaged_file_is_refused_naming_it(tmp_path: Path, random_file: Path, damage: object, message: str) -> None:
    bad = tmp_path / "damaged.bin"
    bad.write_bytes(damage(random_file.read_bytes()))  # type: ignore[operator]
    with pytest.raises(InvalidPositionError, match=message) as caught:
        read_weights(bad)
    assert str(bad) in str(caught.value)


def test_a_file_with_the_wrong_number_of_weights_is_refused(tmp_path: Path, random_file: Path) -> None:
    import zlib

    data = random_file.read_bytes()
    header_end = len(MAGIC) + 6 + struct.unpack_from("<I", data, len(MAGIC) + 2)[0]
    short = tmp_path / "short.bin"
    short.write_bytes(data[:header_end] + zlib.compress(bytes(100)))
    with pytest.raises(InvalidPositionError, match="holds 50 weights"):
        read_weights(short)


def test_written_weights_read_back_in_pattern_order(tmp_path: Path) -> None:
    weights = random_weights(3)
    path = tmp_path / "w.bin"
    write_weights(path, weights, {"note": 1})
    loaded = read_weights(path)
    for phase in (0, PHASES - 1):
        offset = 0
        for index, pattern in enumerate(PATTERNS):
            columns, count = canonical_columns(pattern)
            table = loaded.tables[phase][index]
            assert [table[i] for i in range(0, pattern.fillings, 97)] == [
                weights[phase][offset + columns[i]] for i in range(0, pattern.fillings, 97)
            ]
            offset += count
        assert loaded.extras[phase] == tuple(weights[phase][offset : offset + 3])


def naive_score(path: Path, p: int, o: int) -> int:
    """The evaluation written out square by square, to check the fast pure path."""
    weights = load_weights(path)
    empties = 64 - (p | o).bit_count()
    phase = phase_of(empties)
    bias, mobility, parity = weights.extras[phase]
    score = bias + mobility * (GEO.moves(p, o).bit_count() - GEO.moves(o, p).bit_count()) + parity * (empties % 2)
    for index, pattern in enumerate(PATTERNS):
        for instance in pattern.instances:
            filling = 0
            for sq in instance:
                filling = 3 * filling + (1 if p >> sq & 1 else 2 if o >> sq & 1 else 0)
            score += weights.tables[phase][index][filling]
    return score


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 59))
def test_the_pure_evaluation_is_the_sum_it_describes_and_blind_to_symmetry(seed: int, plies: int) -> None:
    p, o = position(seed, plies)
    evaluate = make_pattern_evaluator(RANDOM_FILE)
    value = evaluate(p, o, GEO.moves(p, o))
    assert value == naive_score(RANDOM_FILE, p, o)
    for symmetry in range(1, 8):
        tp, to = transform(p, symmetry), transform(o, symmetry)
        assert evaluate(tp, to, GEO.moves(tp, to)) == value


def test_the_compiled_twin_agrees_exactly_with_the_pure_path() -> None:
    try:
        from reversi_widget.native.patterns import pattern_arrays, score
    except ImportError as error:
        unavailable(f"numba is not installed ({error})")
    for path in (WEIGHTS_FILE, RANDOM_FILE):
        arrays = pattern_arrays(read_weights(path))
        evaluate = make_pattern_evaluator(path)
        rng = random.Random(5)
        for _ in range(400):
            p, o = position(rng.randrange(10**9), rng.randrange(60))
            legal = GEO.moves(p, o)
            assert score(arrays, p, o, legal) == evaluate(p, o, legal)


def test_weights_fitted_for_another_goal_are_refused_naming_the_file() -> None:
    assert load_weights(RANDOM_FILE).goal == "classic"  # a file without the note is classic
    with pytest.raises(InvalidPositionError, match="fitted for the classic goal, not the inverted goal") as caught:
        load_weights(RANDOM_FILE, "inverted")
    assert str(RANDOM_FILE) in str(caught.value)
    evaluate = make_pattern_evaluator(RANDOM_FILE, "inverted")  # building still reads nothing
    with pytest.raises(InvalidPositionError, match=r"random\.bin was fitted for the classic goal"):
        evaluate(0x0000000810000000, 0x0000001008000000, 0x0000102004080000)


def test_a_goal_without_learned_weights_is_refused_when_the_evaluator_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(WEIGHTS_FILES, "inverted", raising=False)
    assert weights_file("inverted") is None
    with pytest.raises(InvalidPositionError, match="the 'inverted' goal has no learned pattern weights"):
        make_pattern_evaluator(goal="inverted")
    with pytest.raises(InvalidPositionError, match="goals with them: classic"):
        load_weights(goal="inverted")


@pytest.mark.parametrize("damage", ["missing", "truncated", "classic weights"])
def test_a_missing_or_damaged_inverted_file_is_refused_on_first_use_naming_it(
    damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "pattern_weights_inverted.bin"
    if damage == "truncated":
        bad.write_bytes(RANDOM_FILE.read_bytes()[:-50])
    elif damage == "classic weights":
        bad.write_bytes(RANDOM_FILE.read_bytes())
    monkeypatch.setitem(WEIGHTS_FILES, "inverted", bad)
    evaluate = make_pattern_evaluator(goal="inverted")
    with pytest.raises(InvalidPositionError) as caught:
        evaluate(0x0000000810000000, 0x0000001008000000, 0x0000102004080000)
    assert str(bad) in str(caught.value)
