"""Hostile files: mutated WTHOR databases, GGF records, transcripts, position strings and moves.

Every input starts from a real one (games of the WTHOR database in ../shared/data/wthor,
GGF written by our own writer and GGS-style text, transcripts and positions of real and
random games) and is then truncated, bit-flipped, stretched, spliced or edited where the
format is fragile. For each one, the parser either accepts it (and what it returns is
checked: a GGF game writes and reads back the same, a board prints and reads back the same)
or refuses it with one of the package's ``ReversiError``s whose message names the place
(the file, record, game, move, character, line or square) and quotes no more than a short
piece of it. Anything else, a parse that runs past ``TIME_LIMIT`` (SIGALRM), or memory beyond
a bound on the largest inputs (tracemalloc) fails the test with the mutation that caused it.

The classes of issue 14 each have their part: a refused ``set_position``/``push_transcript``
on a board with moves leaves it exactly as it was (1); look-alike characters (digits of other
scripts, ``²``, the Kelvin sign, Unicode blanks) are among the mutations, and only the
package's errors may come out (2, 3); hand-built moves and squares of every type and size (4);
name files that are folders or missing, game files that are folders (5); custom starts under
rules that cannot use them (7); every message short (8); files of gigabytes and past the game
and record limits, refused before they are read (9). The game log's part (6) is in
``test_records_stress.py``.
"""

from __future__ import annotations

import random
import re
import signal
import struct
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from reversi_widget import Board, InvalidMoveError, Move, ReversiError, Rules, explain, ggf
from reversi_widget.game import Game
from reversi_widget.ggf import (
    MAX_GAMES,
    MAX_TEXT_CHARS,
    load_ggf,
    read_ggf,
    read_ggf_games,
    write_ggf,
    write_ggf_games,
)
from reversi_widget.notation import parse_position, parse_transcript
from reversi_widget.rules import FREE_START, START_LAYOUTS
from reversi_widget.wthor import HEADER, MAX_RECORDS, PLAYERS_FILE, RECORD, TOURNAMENTS_FILE, read_wthor
from tests.support import play_random
from tests.test_ggf import ggs_text
from tests.test_records import random_game, same_game
from tests.test_wthor import header, wthor_files

TIME_LIMIT = 5.0  # seconds for one parse of one small mutated input: far above the real cost
MESSAGE_LIMIT = 600  # characters of a refusal: a few short quotes and a file's path

#: Where a refusal must say the trouble is, per format.
WTHOR_PLACE = re.compile(r"WTH_\w+\.wtb|WTHOR\.(JOU|TRN)")
GGF_PLACE = re.compile(r"GGF (game \d+|input of \d+ bytes|text of \d+ characters)")
TRANSCRIPT_PLACE = re.compile(r"character \d+|move \d+|transcript of \d+ characters")
POSITION_PLACE = re.compile(
    r"square \d+|line \d+|row \d+|\d+ squares|side to move|whose turn|suppl|\d+ characters|\d+ rows|two discs"
)


class ParserHang(BaseException):
    """Raised by the alarm: a BaseException, so no ``except Exception`` in a parser hides it."""


@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise ParserHang(f"{what} ran past {seconds}s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Tally:
    """What became of the inputs of one format."""

    accepted: int = 0
    refused: int = 0
    errors: Counter[str] = field(default_factory=Counter)  # error class -> count

    @property
    def total(self) -> int:
        return self.accepted + self.refused


def judge(tally: Tally, label: str, place: re.Pattern[str], parse: Callable[[], object]) -> object | None:
    """Run ``parse`` under the time limit; return what it returned, or None if it refused."""
    try:
        with time_limit(TIME_LIMIT, label):
            result = parse()
    except ReversiError as error:
        message = str(error)
        assert place.search(message), f"{label}: the refusal names no place: {message!r}"
        assert len(message) < MESSAGE_LIMIT, f"{label}: a refusal of {len(message)} characters quotes too much"
        tally.refused += 1
        tally.errors[type(error).__name__] += 1
        return None
    except ParserHang as hang:
        pytest.fail(str(hang))
    except Exception as error:
        pytest.fail(f"{label}: {type(error).__name__} is not a ReversiError: {error}")
    tally.accepted += 1
    return result


# -- generic byte and text mutations -------------------------------------------------------


def mutate_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One random damage to ``data``, and a description of it for failure messages."""
    n = len(data)
    how = rng.choice(["truncate", "flip", "flip", "set", "insert", "delete", "duplicate", "append", "splice"])
    if n == 0:
        how = "append"
    if how == "truncate":
        at = rng.randrange(n)
        return data[:at], f"truncated to {at} bytes"
    if how == "flip":
        out = bytearray(data)
        flips = rng.randint(1, 8)
        for _ in range(flips):
            out[rng.randrange(n)] ^= 1 << rng.randrange(8)
        return bytes(out), f"{flips} bits flipped"
    if how == "set":
        out = bytearray(data)
        at = rng.randrange(n)
        out[at] = rng.choice([0, 0xFF, 0x7F, 0x80, 0x5B, 0x5D, 0x5C, rng.randrange(256)])
        return bytes(out), f"byte {at} set to {out[at]:#04x}"
    if how == "insert":
        at = rng.randrange(n + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
        return data[:at] + junk + data[at:], f"{len(junk)} random bytes inserted at {at}"
    if how == "delete":
        at = rng.randrange(n)
        length = rng.randint(1, max(1, n // 4))
        return data[:at] + data[at + length :], f"{length} bytes deleted at {at}"
    if how == "duplicate":
        at = rng.randrange(n)
        length = rng.randint(1, max(1, n // 2))
        return data[:at] + data[at : at + length] * 2 + data[at + length :], f"{length} bytes doubled at {at}"
    if how == "append":
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
        return data + junk, f"{len(junk)} random bytes appended"
    a, b = sorted(rng.randrange(n + 1) for _ in range(2))
    c = rng.randrange(n + 1)
    return data[:c] + data[a:b] + data[c:], f"bytes {a}:{b} copied to {c}"


# -- WTHOR ----------------------------------------------------------------------------


def real_records(rng: random.Random, count: int) -> tuple[bytes, list[bytes]]:
    """A real file's header and ``count`` consecutive real records of it."""
    path = rng.choice([p for p in wthor_files() if p.stat().st_size > HEADER.size + RECORD.size * 10])
    data = path.read_bytes()
    records = (len(data) - HEADER.size) // RECORD.size
    first = rng.randrange(records - count + 1)
    chunk = [
        data[HEADER.size + RECORD.size * i : HEADER.size + RECORD.size * (i + 1)] for i in range(first, first + count)
    ]
    return data[: HEADER.size], chunk


def with_count(head: bytes, records: int) -> bytes:
    return head[:4] + struct.pack("<I", records) + head[8:]


def mutate_wthor(rng: random.Random) -> tuple[bytes, str]:
    """A small real WTHOR file, damaged in one way."""
    head, records = real_records(rng, rng.randint(1, 6))
    how = rng.choice(["bytes", "bytes", "header", "count", "move", "move", "moves-end", "score", "players", "records"])
    if how == "bytes":
        return mutate_bytes(with_count(head, len(records)) + b"".join(records), rng)
    body = b"".join(records)
    if how == "count":
        count = rng.choice([0, len(records) - 1, len(records) + 1, 0xFFFFFFFF, rng.randrange(1 << 32)])
        return with_count(head, count) + body, f"header says {count} records for {len(records)}"
    if how == "header":
        out = bytearray(with_count(head, len(records)))
        at = rng.choice([0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15])
        out[at] = rng.choice([0, 1, 8, 10, 12, 13, 31, 32, 60, 61, 99, 100, 255, rng.randrange(256)])
        return bytes(out) + body, f"header byte {at} set to {out[at]}"
    index = rng.randrange(len(records))
    record = bytearray(records[index])
    if how == "move":
        at = 8 + rng.randrange(60)
        record[at] = rng.choice([0, 9, 10, 11, 19, 20, 88, 89, 90, 99, 255, rng.randrange(11, 89), rng.randrange(256)])
        what = f"record {index + 1} move byte {at - 7} set to {record[at]}"
    elif how == "moves-end":
        at = 8 + rng.randrange(60)
        record[at:] = bytes(68 - at) if rng.random() < 0.5 else bytes([rng.randrange(256) for _ in range(68 - at)])
        what = f"record {index + 1} moves from {at - 7} on replaced"
    elif how == "score":
        at = rng.choice([6, 7])
        record[at] = rng.choice([0, 32, 64, 65, 128, 255])
        what = f"record {index + 1} score byte {at} set to {record[at]}"
    elif how == "players":
        at = rng.randrange(6)
        record[at] = rng.randrange(256)
        what = f"record {index + 1} name number byte {at} set to {record[at]}"
    else:  # records: shuffle record bytes between records
        other = records[rng.randrange(len(records))]
        cut = rng.randrange(68)
        record[cut:] = other[cut:]
        what = f"record {index + 1} spliced with another from byte {cut}"
    records[index] = bytes(record)
    return with_count(head, len(records)) + b"".join(records), what


def test_a_game_file_that_is_no_file_is_an_os_error_naming_it(tmp_path: Path) -> None:
    """Class 5: the game file's own troubles stay OSErrors, and name it."""
    (tmp_path / "WTH_2024.wtb").mkdir()
    for path in (tmp_path / "WTH_2024.wtb", tmp_path / "WTH_2025.wtb"):
        with pytest.raises(OSError, match=re.escape(path.name)):
            read_wthor(path)
        with pytest.raises(OSError, match=re.escape(path.name)):
            load_ggf(path)


def read_whole_wthor(path: Path) -> list[Game]:
    """Read every record and turn each into a game (which replays every move)."""
    return [record.to_game() for record in read_wthor(path)]


@pytest.fixture(scope="module")
def real_names(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    folder = wthor_files()[0].parent
    return (folder / PLAYERS_FILE).read_bytes(), (folder / TOURNAMENTS_FILE).read_bytes()


def test_mutated_wthor_files(stress: Any, figures: Any, tmp_path: Path, real_names: tuple[bytes, bytes]) -> None:
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    players, tournaments = real_names
    folder = tmp_path / "db"
    folder.mkdir()
    (folder / PLAYERS_FILE).write_bytes(players)
    (folder / TOURNAMENTS_FILE).write_bytes(tournaments)
    path = folder / "WTH_2024.wtb"
    tally = Tally()
    count = stress.count(full=2_500)
    started = figures.clock()
    for index in range(count):
        data, what = mutate_wthor(rng)
        path.write_bytes(data)
        judge(tally, f"WTHOR input {index} ({what}; run seed {seed})", WTHOR_PLACE, lambda: read_whole_wthor(path))
    # The name files: damaged copies beside a small valid game file, each in a new folder
    # (the reader keeps the names of a folder while its files look unchanged).
    names = stress.count(full=500)
    head, records = real_records(rng, 2)
    game_file = with_count(head, 2) + b"".join(records)
    for index in range(names):
        which = rng.choice([PLAYERS_FILE, TOURNAMENTS_FILE])
        original = players if which == PLAYERS_FILE else tournaments
        damage = rng.random()
        if damage < 0.25:
            count_field = rng.choice([0, 1, 65535, rng.randrange(65536)])
            data, what = original[:6] + struct.pack("<H", count_field) + original[8:], f"N2 set to {count_field}"
        elif damage < 0.35:
            data, what = b"", "a folder"  # issue 14, class 5: refused naming it, not IsADirectoryError
        elif damage < 0.45:
            data, what = b"", "missing"  # the names stay numbers
        else:
            data, what = mutate_bytes(original, rng)
        here = tmp_path / f"names{index}"
        here.mkdir()
        (here / PLAYERS_FILE).write_bytes(players)
        (here / TOURNAMENTS_FILE).write_bytes(tournaments)
        if what == "a folder":
            (here / which).unlink()
            (here / which).mkdir()
        elif what == "missing":
            (here / which).unlink()
        else:
            (here / which).write_bytes(data)
        (here / "WTH_2024.wtb").write_bytes(game_file)
        label = f"{which} input {index} ({what}; run seed {seed})"
        games = judge(tally, label, WTHOR_PLACE, lambda here=here: read_whole_wthor(here / "WTH_2024.wtb"))  # type: ignore[misc]
        if what == "missing":
            assert isinstance(games, list) and len(games) == 2, label
        elif what == "a folder":
            assert games is None, f"{label}: a folder was taken for a name file"
    elapsed = figures.clock() - started
    figures.record("files", f"WTHOR inputs ({tally.accepted} read, {tally.refused} refused)", tally.total, elapsed)
    assert tally.total == count + names
    assert tally.refused > tally.total // 4 and tally.accepted > 0  # the mutations really bite, and not all


# -- GGF ----------------------------------------------------------------------------------

NAMES = ["Ann", "Élise Dupont", "<b>Bob</b>", "x]y\\z", "名人", "O'Brien; DROP TABLE games", ""]


def ggf_sources(rng: random.Random) -> list[str]:
    """GGF texts to start from: our writer's output for many variants, GGS-style text, and
    real WTHOR games written as GGF."""
    texts = []
    for seed in range(12):
        size = rng.choice([4, 6, 8, 8, 10, 16])
        start = rng.choice([*START_LAYOUTS, FREE_START])
        goal = rng.choice(["classic", "inverted"])
        board = play_random(Board(rules=Rules(size=size, start=start, goal=goal)), random.Random(seed))
        game = Game.from_board(
            board,
            black_player=rng.choice(NAMES),
            white_player=rng.choice(NAMES),
            event=rng.choice(NAMES),
            date="2024-05-17",
            metadata={"RB": "2197", "TI": "05:00//02:00"},
        )
        texts.append(write_ggf(game))
    for seed in range(4):
        board = play_random(Board(), random.Random(100 + seed))
        texts.append(ggs_text(board, margin=board.count(True) - board.count(False)))
    games = [record.to_game() for record in islice(read_wthor(rng.choice(wthor_files())), 40)]
    texts.append(write_ggf_games(rng.sample(games, min(5, len(games)))))
    texts.append(write_ggf(random_game(3)))
    return texts


GGF_EDITS: list[tuple[re.Pattern[str], Callable[[random.Random], str]]] = [
    (
        re.compile(r"(?<=BO\[)\d+"),
        lambda r: r.choice(["0", "2", "3", "4", "6", "10", "16", "18", "99", "-8", "8x", ""]),
    ),
    (re.compile(r"(?<=TY\[)[^\]]*"), lambda r: r.choice(["8s", "8k", "10", "8a", "", "r8", "88", "8r20", "a", "8 a"])),
    (re.compile(r"(?<=RE\[)[^\]]*"), lambda r: r.choice(["+4", "-64", "+999", "9" * 400, "+1e5", "nan", "+4.5", ""])),
    (re.compile(r"(?<=[BW]\[)[^\]]*"), lambda r: r.choice(["a1", "h8", "p16", "q1", "pa", "PASS", "", "d3//", "zz"])),
    (re.compile(r"\b[BW](?=\[)"), lambda r: r.choice(["B", "W", "b", "X"])),
    (re.compile(r"GM\[Othello\]"), lambda r: r.choice(["GM[Go]", "", "GM[othello]", "GM[]", "GM[Othello][x]"])),
    (re.compile(r"[\[\]]"), lambda r: r.choice(["", "[", "]", "\\", "[[", "]]"])),
    (re.compile(r"\(;|;\)"), lambda r: r.choice(["", "(;", ";)", "(", ")", ";;"])),
    (re.compile(r"\d+"), lambda r: r.choice(["9" * r.randint(5, 400), "0", "-1"])),
    (re.compile(r"[*O-](?=[*O-]{3})"), lambda r: r.choice(["*", "O", "-", "X", "o", "."])),
    (re.compile(r"(?<=\])"), lambda r: r.choice(["PB[again]", "XX[", "BO[8 * ]", "B[d3]", " ", "\n", "Zz[1]"])),
    # Look-alikes where the format wants ASCII: sizes, margins, squares, blanks (issue 14, class 3).
    (
        re.compile(r"(?<=TY\[)[0-9]|(?<=BO\[)[0-9]|(?<=RE\[.)[0-9]|(?<=[BW]\[)[a-p0-9]|\](?=[A-Z])"),
        lambda r: r.choice(LOOK_ALIKES),
    ),
]


def mutate_ggf(source: str, rng: random.Random) -> tuple[str | bytes, str]:
    how = rng.choice(["bytes", "bytes", "edit", "edit", "edit", "edit", "truncate", "huge", "games", "utf8"])
    if how == "bytes":
        return mutate_bytes(source.encode(), rng)
    if how == "truncate":
        at = rng.randrange(len(source))
        return source[:at], f"truncated at character {at}"
    if how == "huge":
        pick = rng.random()
        if pick < 0.4:
            return source.replace("PW[", "PW[" + "w" * rng.choice([1_000, 250_000]), 1), "a huge player name"
        if pick < 0.7:  # quoted in a message: it must be cut short there (issue 14, class 8)
            return source.replace("PW[", "PW" * rng.choice([2_000, 50_000]) + "[", 1), "a huge property name"
        return source.replace("B[", "B[" + "\\]" * 120_000, 1), "a huge escaped move"
    if how == "games":
        return (source + "\n") * rng.randint(2, 40) + rng.choice(["", "junk", "(;", "(;GM[Othello];)"]), "repeated"
    if how == "utf8":
        at = rng.randrange(len(source) + 1)
        junk = rng.choice([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xf0\x9f", b"\x00", b"\xef\xbb\xbf"])
        data = source.encode()
        return data[:at] + junk + data[at:], f"bytes {junk!r} at {at}"
    text, edits = source, []
    for _ in range(rng.randint(1, 3)):
        pattern, replacement = rng.choice(GGF_EDITS)
        spots = list(pattern.finditer(text))
        if not spots:
            continue
        spot = rng.choice(spots)
        new = replacement(rng)
        text = text[: spot.start()] + new + text[spot.end() :]
        edits.append(f"{spot.group()!r}->{new[:12]!r} at {spot.start()}")
    return text, "edited " + ", ".join(edits)


def test_mutated_ggf(stress: Any, figures: Any, tmp_path: Path) -> None:
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    sources = ggf_sources(rng)
    for source in sources:  # the starting points are good
        assert read_ggf_games(source)
    tally = Tally()
    count = stress.count(full=3_500)
    started = figures.clock()
    for index in range(count):
        source = rng.choice(sources)
        text, what = mutate_ggf(source, rng)
        label = f"GGF input {index} ({what}; run seed {seed}); source {source[:60]!r}"
        games = judge(tally, label, GGF_PLACE, lambda text=text: read_ggf_games(text))  # type: ignore[misc]
        if games is None:
            if index % 10 == 0:  # the file reader names the file too
                path = tmp_path / "games.ggf"
                path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
                with pytest.raises(ReversiError, match=re.escape(str(path))), time_limit(TIME_LIMIT, label):
                    load_ggf(path)
            continue
        assert isinstance(games, list)
        for game in games[:3]:  # what was accepted is a real game that writes and reads back
            back = read_ggf(write_ggf(game))
            assert same_game(back, game), f"{label}: {write_ggf(game)[:200]!r} does not read back the same"
    elapsed = figures.clock() - started
    figures.record("files", f"GGF inputs ({tally.accepted} read, {tally.refused} refused)", tally.total, elapsed)
    assert tally.refused > tally.total // 4 and tally.accepted > 0


# -- transcripts and positions ------------------------------------------------------------

ODD_TEXT = ["", " ", "  ", ",", ";", "-", "--", "pass", "pa", "PS", "x", "a0", "a10", "i1", "p16", "q5", "\n", "\t",
            "\u00a0", "５", "é", "\x00", "\ud800", "<", ">", "[", "]"]  # fmt: skip
#: Characters that look like ASCII ones of the text forms, or fold or convert to them: digits of
#: other scripts (``int`` reads them), ``²`` and ``①`` (``isdigit`` accepts them), the Kelvin sign
#: and the long s (case folding makes them k and s), fullwidth letters, Unicode blanks and breaks.
LOOK_ALIKES: list[str] = ["\u0663", "\u06f5", "\u0968", "\uff18", "\u00b2", "\u2460", "\u212a", "\u017f", "\uff44",
                          "\u0425", "\u041e", "\u2212", "\u2003", "\u3000", "\u2028", "\u0085",
                          "\u200b"]  # fmt: skip
ODD_TEXT += LOOK_ALIKES


def mutate_text(text: str, rng: random.Random, extra: list[str]) -> tuple[str, str]:
    how = rng.choice(["replace", "insert", "delete", "truncate", "case", "swap", "huge", "extra"])
    n = len(text)
    if n == 0 or how == "extra":
        at = rng.randrange(n + 1)
        piece = rng.choice(extra + ODD_TEXT)
        return text[:at] + piece + text[at:], f"{piece!r} inserted at {at}"
    if how == "replace":
        at = rng.randrange(n)
        piece = rng.choice([*ODD_TEXT, chr(rng.randrange(32, 0x2FFF))])
        return text[:at] + piece + text[at + 1 :], f"character {at} replaced by {piece!r}"
    if how == "insert":
        at = rng.randrange(n + 1)
        piece = "".join(rng.choice(ODD_TEXT) for _ in range(rng.randint(1, 4)))
        return text[:at] + piece + text[at:], f"{piece!r} inserted at {at}"
    if how == "delete":
        at = rng.randrange(n)
        length = rng.randint(1, 6)
        return text[:at] + text[at + length :], f"{length} characters deleted at {at}"
    if how == "truncate":
        at = rng.randrange(n)
        return text[:at], f"truncated at {at}"
    if how == "case":
        return text.swapcase() if rng.random() < 0.5 else text.upper(), "case changed"
    if how == "swap":
        a, b = sorted(rng.randrange(n) for _ in range(2))
        return text[:a] + text[b : b + 2] + text[a + 2 : b] + text[a : a + 2] + text[b + 2 :], f"swapped {a} and {b}"
    repeat = rng.choice([2, 10, 400, 10_000])
    return text * repeat, f"repeated {repeat} times"


def random_boards(rng: random.Random, count: int) -> list[Board]:
    boards = []
    for _ in range(count):
        size = rng.choice([4, 6, 8, 8, 10, 12, 16])
        supply = rng.choice([None, None, size * size // 2 + rng.randint(0, 4)])
        board = Board(rules=Rules(size=size, supply=supply))
        plies = rng.randint(0, size * size)
        boards.append(play_random(board, rng, plies))
    return boards


def state(board: Board) -> tuple[object, ...]:
    """Everything a board holds, the moves it can take back included."""
    return (board.rules, board.bitboards(), board.turn, board.supply, list(board.move_stack), list(board._undo),
            board._initial)  # fmt: skip


def refused_without_a_trace(board: Board, call: Callable[[Board], object], label: str) -> bool:
    """Run a mutating ``call`` on ``board``; if it is refused, the board must be exactly as it
    was and take back its moves to the same positions (issue 14, class 1). True if refused."""
    before, copy = state(board), board.copy()
    try:
        with time_limit(TIME_LIMIT, label):
            call(board)
    except ReversiError as error:
        assert len(str(error)) < MESSAGE_LIMIT, label
        assert state(board) == before, f"{label}: refused, but the board changed"
        while copy.move_stack:
            assert board.pop() == copy.pop() and board == copy, f"{label}: the moves no longer take back"
        return True
    except ParserHang as hang:
        pytest.fail(str(hang))
    except Exception as error:
        pytest.fail(f"{label}: {type(error).__name__} is not a ReversiError: {error}")
    return False


def test_mutated_transcripts(stress: Any, figures: Any) -> None:
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    boards = random_boards(rng, 30)
    real = [record.to_game() for record in islice(read_wthor(rng.choice(wthor_files())), 20)]
    sources = [(b.transcript(passes=rng.random() < 0.5), b.size) for b in boards]
    sources += [(g.transcript(), 8) for g in real]
    sources += [(" ".join(g.transcript()[i : i + 2] for i in range(0, len(g.transcript()), 2)), 8) for g in real[:5]]
    tally = Tally()
    count = stress.count(full=2_000)
    started = figures.clock()
    for index in range(count):
        text, size = rng.choice(sources)
        mutated, what = mutate_text(text, rng, ["d3", "f5", "pass", "a1", "h8", "p16", "j10"])
        label = f"transcript {index} on {size}x{size} ({what}; run seed {seed}): {mutated[:80]!r}"
        board = judge(tally, label, TRANSCRIPT_PLACE, partial(Board.from_transcript, mutated, rules=Rules(size=size)))
        if isinstance(board, Board):  # accepted: its own transcript replays to the same game
            again = Board.from_transcript(board.transcript(passes=True), rules=Rules(size=size))
            assert again == board and again.move_stack == board.move_stack, label
            assert parse_transcript(mutated, size) is not None
        # Played on top of a game in progress, a refused transcript leaves the game as it was.
        played = play_random(Board(rules=Rules(size=size)), rng, rng.randint(1, 12))
        refused_without_a_trace(played, partial(Board.push_transcript, text=mutated), label + " (pushed)")
    elapsed = figures.clock() - started
    figures.record("files", f"transcripts ({tally.accepted} read, {tally.refused} refused)", tally.total, elapsed)
    assert tally.refused > tally.total // 4 and tally.accepted > 0


def test_mutated_positions(stress: Any, figures: Any) -> None:
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    boards = random_boards(rng, 40)
    sources = [(board.to_string(), board.rules) for board in boards] + [(str(board), board.rules) for board in boards]
    tally = Tally()
    count = stress.count(full=2_000)
    started = figures.clock()
    for index in range(count):
        text, rules = rng.choice(sources)
        if "\n" in text and rng.random() < 0.5:
            lines = text.splitlines()
            at = rng.randrange(len(lines))
            edit = rng.choice(["drop", "double", "renumber", "turn", "supply", "header"])
            if edit == "drop":
                del lines[at]
            elif edit == "double":
                lines.insert(at, lines[at])
            elif edit == "renumber":
                lines[at] = re.sub(r"\d+", str(rng.choice([0, 1, 7, 17, 99, 10**6])), lines[at], count=1)
            elif edit == "turn":
                lines[at] = rng.choice(["black to move", "white (O) to move", "nobody to move", "X to move", ""])
            elif edit == "supply":
                lines.insert(at, rng.choice(["supply: black 30, white 30", "supply: black 999, white 1", "supply:"]))
            else:
                lines[at] = rng.choice(["   a b c d", "a b c d e f g h i j k l m n o p q", " ".join("abcdefgh")])
            mutated, what = "\n".join(lines), f"line {at + 1}: {edit}"
        else:
            mutated, what = mutate_text(text, rng, [" X", " O", " 30 30", " 999 999", "X", "O", "-", "*", "."])
        label = f"position {index} ({what}; run seed {seed}): {mutated[:80]!r}"
        board = judge(tally, label, POSITION_PLACE, partial(Board, mutated, rules=rules))
        if isinstance(board, Board):
            assert Board(board.to_string(), rules=rules) == board, label
            assert Board(str(board), rules=rules) == board, label
        judge(tally, label + " (size inferred)", POSITION_PLACE, partial(Board.from_string, mutated))
        # Set on a game in progress, a refused position leaves the game and its moves as they were.
        played = play_random(Board(rules=rules), rng, rng.randint(1, 12))
        refused_without_a_trace(played, partial(Board.set_position, position=mutated), label + " (set)")
        # As the custom start of rules (with or without a supply): refused by the rules, or a board.
        for supply in (None, rules.size**2 // 2):
            as_rules = partial(Rules, size=rules.size, start=mutated, supply=supply)
            made = judge(tally, f"{label} as Rules({supply=})", POSITION_PLACE, as_rules)
            if isinstance(made, Rules):
                assert Board(rules=made).rules == made, label
    elapsed = figures.clock() - started
    figures.record("files", f"positions ({tally.accepted} read, {tally.refused} refused)", tally.total, elapsed)
    assert tally.refused > tally.total // 4 and tally.accepted > 0


# -- hand-built moves and squares ---------------------------------------------------------


def odd_value(rng: random.Random) -> object:
    """A value someone might hand in as a square or a board size."""
    return rng.choice(
        [rng.randrange(-300, 300), rng.randrange(-(1 << 80), 1 << 80), 10 ** rng.randint(20, 5_000), -1, 64, 256,
         rng.random() * 100, float("nan"), float("inf"), 19.0, True, False, None, "d3", "", "\u212a1", b"d3", (19,),
         [19], object(), complex(1, 1)]
    )  # fmt: skip


def test_hand_built_moves_and_squares(stress: Any, figures: Any) -> None:
    """Class 4: ``Move`` is a square of some board or refused (``InvalidMoveError``, or a
    ``TypeError`` for a wrong type), and every ``Board`` method taking a square or a move
    refuses one that is not of its board with those errors, changing nothing."""
    rng = random.Random(random.randrange(1 << 30))
    seed = rng.random()
    boards = random_boards(rng, 20)
    tally = Tally()
    count = stress.count(full=20_000)
    started = figures.clock()
    for index in range(count):
        square, size = odd_value(rng), rng.choice([odd_value(rng), 4, 6, 8, 10, 16])
        label = f"Move({quote_value(square)}, {quote_value(size)}) (run seed {seed})"
        move: Move | None = None
        try:
            move = Move(square, size)  # type: ignore[arg-type]
        except (InvalidMoveError, TypeError) as error:
            assert len(str(error)) < MESSAGE_LIMIT, label
            tally.refused += 1
            tally.errors[type(error).__name__] += 1
        except Exception as error:
            pytest.fail(f"{label}: {type(error).__name__}: {error}")
        else:
            tally.accepted += 1
            assert move.size in range(4, 17, 2), label
            assert move.square is None or 0 <= move.square < move.size**2, label
        board = boards[index % len(boards)]
        given = move if move is not None and rng.random() < 0.7 else square
        calls: list[tuple[str, Callable[[Board], object]]] = [
            ("push", lambda b, v=given: b.push(v)),  # type: ignore[misc]
            ("flips", lambda b, v=given: b.flips(v)),  # type: ignore[misc]
            ("parse_move", lambda b, v=given: b.parse_move(v)),  # type: ignore[misc]
            ("disc_at", lambda b, v=given: b.disc_at(v)),  # type: ignore[misc]
            ("explain", lambda b, v=given: explain(b, v)),  # type: ignore[misc]
        ]
        for name, call in calls:
            before = state(board)
            try:
                call(board)
            except (ReversiError, TypeError) as error:
                assert len(str(error)) < MESSAGE_LIMIT, f"{name} of {label}"
                assert state(board) == before, f"{name} of {label} changed the board"
            except Exception as error:
                pytest.fail(f"{name} of {label}: {type(error).__name__}: {error}")
            else:
                if name == "push":
                    board.pop()  # a legal move: taken back for the next value
    elapsed = figures.clock() - started
    figures.record("files", f"hand-built moves ({tally.accepted} made, {tally.refused} refused)", tally.total, elapsed)
    assert tally.refused > tally.total // 4 and tally.accepted > 0


def quote_value(value: object) -> str:
    """A value for a failure message, short even for a 5,000-digit int."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<int of {value.bit_length()} bits>"
    return repr(value)[:40]


# -- the largest inputs: time and memory ------------------------------------------------


def sparse(path: Path, head: bytes, size: int) -> Path:
    """A file of ``size`` bytes taking no disk space: ``head``, then a hole of zeros."""
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(size)
    return path


def peak_memory(run: Callable[[], object]) -> tuple[int, object]:
    """Peak bytes allocated (tracemalloc) while ``run`` runs, and what it returned or raised."""
    tracemalloc.start()
    try:
        outcome: object = run()
    except ReversiError as error:
        outcome = error
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, outcome


MB = 1 << 20


def test_the_largest_inputs_stay_in_bounds(
    stress: Any, figures: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inputs at and beyond each reader's limit: refused at once or read with memory in
    proportion to the input (bounds from measurements, with room), never a hang."""
    largest = max(wthor_files(), key=lambda p: p.stat().st_size)
    rows: list[tuple[str, int, int, Callable[[], object]]] = []

    def case(what: str, size: int, bound: int, run: Callable[[], object]) -> None:
        rows.append((what, size, bound, run))

    size = largest.stat().st_size
    case(
        f"the largest WTHOR file ({largest.name}), every record", size, 40 * MB, lambda: len(list(read_wthor(largest)))
    )
    oversized = tmp_path / "WTH_2099.wtb"
    oversized.write_bytes(header(3) + b"\0" * (20 * MB))
    case("a WTHOR file with 20 MB of extra bytes", 20 * MB, 22 * MB, lambda: list(read_wthor(oversized)))
    too_long = b"(;GM[Othello]PB[" + b"x" * (MAX_TEXT_CHARS + 10) + b"];)"
    case("GGF bytes past the 16 MiB limit", len(too_long), 2 * MB, lambda: read_ggf_games(too_long))
    one_game = "(;GM[Othello]PB[" + "x" * (MAX_TEXT_CHARS - 100) + "]B[d3];)"
    case("one GGF game of 16 MiB", len(one_game), 3 * len(one_game) + MB, lambda: read_ggf_games(one_game))
    games = [record.to_game() for record in islice(read_wthor(largest), stress.count(full=1_500, short=150))]
    many = write_ggf_games(games)
    # The games read are some 2 times the text (their moves are shared Move values; a new Move
    # per move made it 11 times); scanning the whole text before building any game used to hold
    # some 30 times more: the bound catches both.
    case(f"{len(games):,} real games as one GGF text", len(many), 5 * len(many), lambda: len(read_ggf_games(many)))
    case("a transcript of 1 MB", MB, 3 * MB, lambda: Board.from_transcript("f5" * (MB // 2)))
    longest = "f5d6" * 700 + "c3"
    case("a transcript at the length limit", len(longest), MB, lambda: parse_transcript(longest, 8))
    case("a position of 1 MB", MB, 3 * MB, lambda: parse_position("-" * MB + " X"))
    diagram = "\n".join(f"{r:>2} " + " ".join("-" * 16) for r in range(1, 17)) + "\nblack to move"
    case("a 16x16 diagram padded to the limit", 4096, MB, lambda: parse_position(diagram + " " * (4096 - len(diagram))))
    # Files of gigabytes and past the count limits: refused from their size and header, unread
    # (issue 14, class 9; a 3 GB file used to end in a MemoryError). Sparse: no disk space.
    gigabytes = 3 * 1024**3
    huge_wthor = sparse(tmp_path / "WTH_3000.wtb", header(3), gigabytes)
    case("a WTHOR file of 3 GB", gigabytes, MB, lambda: read_wthor(huge_wthor))
    too_many = sparse(tmp_path / "WTH_3001.wtb", header(MAX_RECORDS + 1), HEADER.size + RECORD.size * (MAX_RECORDS + 1))
    case(f"a WTHOR file of {MAX_RECORDS + 1:,} records", too_many.stat().st_size, MB, lambda: read_wthor(too_many))
    huge_ggf = sparse(tmp_path / "huge.ggf", b"(;GM[Othello];)", gigabytes)
    case("a GGF file of 3 GB", gigabytes, MB, lambda: load_ggf(huge_ggf))
    # 1.1 million of the smallest games in 16 MiB used to take 14 s and 440 MB: the game count
    # stops them. Under tracemalloc 50,000 games take some 10 s, so the short form lowers the limit.
    games_limit = MAX_GAMES if stress.full else MAX_GAMES // 10
    monkeypatch.setattr(ggf, "MAX_GAMES", games_limit)
    smallest = "(;GM[Othello];)" * (games_limit + 1)
    bound = 40 * MB * games_limit // MAX_GAMES
    case(f"{games_limit + 1:,} of the smallest GGF games", len(smallest), bound, lambda: read_ggf_games(smallest))
    for what, input_size, bound, run in rows:
        started = figures.clock()
        with time_limit(60, what):
            peak, outcome = peak_memory(run)
        took = figures.clock() - started
        figures.record("files", f"largest: {what}: peak {peak / MB:.1f} MB for {input_size / MB:.1f} MB", seconds=took)
        assert peak <= bound, f"{what}: peak {peak:,} bytes, bound {bound:,}"
        if isinstance(outcome, ReversiError):
            assert (
                GGF_PLACE.search(str(outcome))
                or WTHOR_PLACE.search(str(outcome))
                or TRANSCRIPT_PLACE.search(str(outcome))
                or POSITION_PLACE.search(str(outcome))
            ), str(outcome)


# -- regressions found by the mutations above ----------------------------------------------


def test_a_margin_too_big_for_a_float_is_kept_as_text() -> None:
    """RE[999...9] (400 digits) reads as infinity: it used to raise OverflowError. Now it is
    no disc count, and the text is kept."""
    board = play_random(Board(), random.Random(5))
    margin = "9" * 400
    game = read_ggf(write_ggf(Game.from_board(board)).replace("RE[", f"RE[{margin}]XX[", 1))
    assert game.result is None and game.metadata["RE"] == margin
    assert read_ggf(write_ggf(game)).metadata["RE"] == margin


def test_the_first_bad_game_in_a_text_is_the_one_reported() -> None:
    """Games are built as they are scanned: a bad move in game 1 is reported even when game 2
    is cut short (before, the syntax of the whole text was checked first)."""
    good = write_ggf(Game.from_board(play_random(Board(), random.Random(6))))
    bad_move = good.replace("B[", "B[a1]W[", 1)
    with pytest.raises(ReversiError, match=r"GGF game 1, move 1"):
        read_ggf_games(bad_move + good[:-5])


@pytest.mark.parametrize(
    "text",
    [
        "-" * 16 + " X " + "9 " * 1_500,  # supply counts
        "-" * 16 + " " + "x" * 3_000,  # side to move
        "1 - -\n" + "9" * 3_000 + " - -\nblack to move",  # row number
        "\n".join(f"{i} - - - -" for i in range(1, 800)) + "\nblack to move",  # rows
    ],
    ids=["supply", "side", "row number", "rows"],
)
def test_a_refused_position_quotes_its_text_in_part(text: str) -> None:
    """Position messages used to quote the supply words, the side word, the row number and
    the row lengths whole: up to the 4,096-character limit."""
    with pytest.raises(ReversiError) as refusal:
        Board.from_string(text)
    assert len(str(refusal.value)) < 300 and POSITION_PLACE.search(str(refusal.value))
