"""examples/02-learn-the-rules.ipynb: every rule R1-R26 in order, and each board shows what it claims.

The notebook is executed once with nbclient (widget state saved, as a notebook server
would); the kernel is kept, and each test runs a short check in it against the variables
the rule's cell left behind (``r11``, ``r23``...).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parent.parent / "examples" / "02-learn-the-rules.ipynb"
RULES = [f"R{n}" for n in range(1, 27)]
#: CPU seconds the lesson may take in its kernel, top to bottom (a class waits for it).
MAX_SECONDS = 30


class Lesson:
    """The executed notebook and a way to run more code in its kernel."""

    def __init__(self, notebook: Any, client: NotebookClient, seconds: float) -> None:
        self.notebook = notebook
        self.client = client
        self.seconds = seconds

    def run(self, source: str) -> str:
        """Run ``source`` in the lesson's kernel; return what it printed (an error fails the test)."""
        cell = nbformat.v4.new_code_cell(source)
        self.notebook.cells.append(cell)
        self.client.execute_cell(cell, len(self.notebook.cells) - 1)
        return "".join(out.get("text", "") for out in cell.outputs if out.get("output_type") == "stream")


def kernel_cpu(client: NotebookClient, notebook: Any) -> float:
    """CPU seconds the notebook's kernel has used so far: what the lesson costs, which a loaded
    machine does not stretch as it does the wall clock. Asked in a cell of its own, removed after."""
    cell = nbformat.v4.new_code_cell("print(__import__('time').process_time())")
    notebook.cells.append(cell)
    try:
        client.execute_cell(cell, len(notebook.cells) - 1)
    finally:
        notebook.cells.pop()
    return float("".join(out.get("text", "") for out in cell.outputs))


@pytest.fixture(scope="module")
def lesson() -> Iterator[Lesson]:
    notebook = nbformat.read(LESSON, as_version=4)
    for cell in notebook.cells:  # run from scratch, as a reader would
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(LESSON.parent)}},
    )
    with client.setup_kernel():
        started = kernel_cpu(client, notebook)
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        seconds = kernel_cpu(client, notebook) - started
        client.set_widgets_metadata()
        yield Lesson(notebook, client, seconds)


def test_every_rule_in_order_with_a_heading_a_text_and_a_board() -> None:
    notebook = nbformat.read(LESSON, as_version=4)
    headings: list[tuple[str, int]] = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            headings += [(m.group(1), index) for m in re.finditer(r"^### (R\d+)\. \S", cell.source, re.M)]
    assert [rule for rule, _ in headings] == RULES
    bounds = [index for _, index in headings] + [len(notebook.cells)]
    for (rule, start), end in zip(headings, bounds[1:], strict=True):
        heading = notebook.cells[start].source
        text = heading.split(f"### {rule}.", 1)[1].split("\n", 1)
        assert len(text) == 2 and len(text[1].split()) >= 6, f"{rule} needs a short text under its heading"
        sources = "\n".join(cell.source for cell in notebook.cells[start:end] if cell.cell_type == "code")
        assert re.search(rf"^r{rule[1:]}\s*=", sources, re.M), f"{rule}'s cell leaves no r{rule[1:]} variable"


def test_the_lesson_runs_quickly_without_errors_and_saves_every_board(lesson: Lesson) -> None:
    errors = [
        out for cell in lesson.notebook.cells for out in cell.get("outputs", []) if out.get("output_type") == "error"
    ]
    assert not errors
    assert lesson.seconds < MAX_SECONDS
    state = lesson.notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    boards = [model["state"] for model in state.values() if "discs" in model["state"]]
    made = sum(cell.source.count("ReversiWidget(") for cell in lesson.notebook.cells if cell.cell_type == "code")
    assert len(boards) == made >= 24  # every board made in the lesson is saved with the notebook
    assert {"uk", "ca", "en"} <= {board["language"] for board in boards}


def test_the_saved_lesson_has_no_errors() -> None:
    notebook = nbformat.read(LESSON, as_version=4)
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]


def test_what_the_r25_lesson_prints_is_the_same_on_every_run() -> None:
    """A printed handout must match the notebook a class runs: the players that make the R25
    games are seeded. The setup cell and the R25 cell, run in three fresh interpreters."""
    notebook = nbformat.read(LESSON, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    r25 = next(source for source in code if source.lstrip().startswith("r25_folder"))
    program = code[0] + "\n" + r25
    printed = [
        subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
        for _ in range(3)
    ]
    assert "Greta Greedy" in printed[0] and "Rudi Random" in printed[0]
    assert printed[1] == printed[0] and printed[2] == printed[0]


CHECKS: dict[str, str] = {
    "R1": """
assert (r1.language, r1.strings["black"], r1.strings["white"]) == ("uk", "Темні", "Світлі")
assert r1.status == "Темні ходять"
""",
    "R2": """
assert r2.board_size == 6 and len(r2.discs) == 36 and r2.board.rules.size == 6
""",
    "R3": """
colours = [c for c in r3_history]
placed = colours.index("black") if "black" in colours else colours.index("white")
assert "empty" not in colours[placed:]  # once placed, the disc never leaves e5
changes = sum(a != b for a, b in zip(colours[placed:], colours[placed + 1:]))
assert changes >= 3, changes  # ...but changes colour again and again
assert r3.board.transcript() == r3_line
""",
    "R4": """
assert r4_before.supply == (0, 2) and r4.board.supply == (0, 1)
assert r4.supply == {"black": 0, "white": 1}  # Black played with White's disc
assert r4.moves[-1] == "a1" and r4.board.count(BLACK) == r4_before.count(BLACK) + 2
""",
    "R5": """
assert [r5.board.disc_at(s) for s in ("d4", "e5", "e4", "d5")] == [WHITE, WHITE, BLACK, BLACK]
assert r5.board.count(BLACK) == r5.board.count(WHITE) == 2 and r5.turn == "black"
""",
    "R6": """
assert [r6.board.disc_at(s) for s in ("d4", "e5", "e4", "d5")] == [BLACK, BLACK, WHITE, WHITE]
assert all(a == b for a, b in r6_perft) and len(r6_perft) == 5
assert sorted(len(f) for f in r6.legal.values()) == sorted(len(f) for f in r5.legal.values())
""",
    "R7": """
assert r7.board.disc_at("d4") == r7.board.disc_at("e4") and r7.board.disc_at("d5") == r7.board.disc_at("e5")
assert r7.board.disc_at("d4") != r7.board.disc_at("d5")
""",
    "R8": """
probe = Board(rules=Rules(start="free"))
for square in ("d4", "e5", "e4", "d5"):
    before = probe.count(BLACK) + probe.count(WHITE)
    probe.push(square)
    assert probe.count(BLACK) + probe.count(WHITE) == before + 1  # nothing flips
assert r8.board.to_string() == probe.to_string()
assert r8.board.disc_at("d4") == r8.board.disc_at("e4") == BLACK  # side by side
assert r8.status == "Black to move" and r8.legal
""",
    "R9": """
assert Board().turn == BLACK and r9.ply >= 1
assert r9.moves[0] in {"d3", "c4", "f5", "e6"}
""",
    "R10": """
assert r10.legal and [square_name(s, 8) for s in r10.flips] == ["d4"]
assert r10.direction("south").flanks
""",
    "R11": """
assert r11.moves == ["d1"] and r11.discs[:4] == "XXXX"
assert r11.demo["lines"] == [["c1", "b1", "a1"]] and sorted(r11.last_flips) == ["b1", "c1"]
""",
    "R12": """
assert not r12.legal and r12.codes[0].rule == "R12"
before = r12_widget.board.to_string()
r12_widget._handle_custom_msg({"kind": "move", "square": "a1", "ply": 0}, [])
assert r12_widget.notice_kind == "explain" and r12_widget.board.to_string() == before
assert r12_widget.notice == explain(Board(), "a1", language="ca").short()
for board in (r3.board, r13.board, r26_board):  # every legal move lands next to an opponent disc
    black, white = board.bitboards()
    other = white if board.turn == BLACK else black
    for move in board.legal_moves:
        row, col = divmod(move.square, 8)
        near = [(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)]
        assert any(0 <= r < 8 and 0 <= c < 8 and other >> (r * 8 + c) & 1 for r, c in near), move
""",
    "R13": """
lines = r13.demo["lines"]
assert len(lines) == 3 and len({line[-1] for line in lines}) == 3
assert {sq for line in lines for sq in line[:-1]} == set(r13.last_flips) == {"d5", "e5", "e6"}
""",
    "R14": """
assert r14.practice_missed == ["e5", "e6"] and r14.practice_move == "d6"
assert r14.ply == 5 and r14.board.transcript() == "f5f6e6f4e3"  # not accepted with discs left unflipped
""",
    "R15": """
def chain_flips(board, square):
    # what a chain reaction would flip: flipped discs flanking further, again and again
    own = {s for s in range(64) if board.disc_at(s) == board.turn}
    other = {s for s in range(64) if board.disc_at(s) == (not board.turn)}
    new, flipped = [square], set()
    own.add(square)
    while new:
        start = new.pop()
        for dr, dc in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]:
            run, r, c = [], start // 8 + dr, start % 8 + dc
            while 0 <= r < 8 and 0 <= c < 8 and r * 8 + c in other:
                run.append(r * 8 + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < 8 and 0 <= c < 8 and r * 8 + c in own:
                for s in run:
                    other.discard(s)
                    own.add(s)
                    flipped.add(s)
                    new.append(s)
    return {square_name(s, 8) for s in flipped}

chain = chain_flips(r15_before, 0)
assert chain == {"b1", "b2"}  # a chain reaction would also take b2...
assert r15.last_flips == ["b1"] and r15.board.disc_at("b2") == WHITE  # ...the rules do not
""",
    "R16": """
assert not r16.legal and r16.direction("east").code.value == "own_disc"
assert r16.board().disc_at("c1") == WHITE and "b1, already holds a black disc" in r16.text()
""",
    "R17": """
assert r17.practice_wrong == ["e5"] and r17.practice_missed == ["d4"]
assert r17.ply == 0 and r17.board.to_string() == Board().to_string()  # the opponent waits
r17.practice_flip("e5")
r17.practice_flip("d4")
assert r17.practice_done() and r17.wait(10)
assert r17.ply == 2 and r17.practice_move == "" and (r17.practice_mistakes, r17.practice_moves) == (2, 1)
""",
    "R18": """
assert r18.moves[-2:] == ["f2", "pass"] and r18.notice_kind == "pass" and not r18.game_over
assert r18.turn == "white" and r18.legal  # the side that played f2 moves again
""",
    "R19": """
assert "may not pass" in r19_error and r19.ply == 0 and r19.moves == []
""",
    "R20": """
assert r20.game_over and r20.board.empty_count() == 2 and not r20.board.legal_moves
assert r20_wipe_out.game_over and r20_wipe_out.board.count(WHITE) == 0
assert r20_wipe_out.board.empty_count() == 61
""",
    "R21": """
assert r21.board.outcome().winner == WHITE and r20.board.outcome().winner == BLACK
assert r21.board.to_string() == r20.board.to_string()
""",
    "R22": """
outcome = r22.board.outcome()
assert r22.game_over and outcome.winner is None and (outcome.black, outcome.white) == (32, 32)
assert r22.result == "Draw: Black 32, White 32"
""",
    "R23": """
outcome = r23.board.outcome()
assert (outcome.black, outcome.white, outcome.winner) == (35, 29, BLACK)
assert r23.result.startswith("Black wins: Black 35, White 29") and r23.board.count(BLACK) == 33
""",
    "R24": """
r24._handle_custom_msg({"kind": "move", "square": "d3", "ply": 0}, [])  # what a click sends
assert r24.wait(10) and r24.moves[0] == "d3" and r24.ply == 2
""",
    "R25": """
assert len(r25.ids()) == 6 and r25.path.exists()
players = {row["player"]: row for row in r25.stats().players.as_dicts()}
assert set(players) == {"Rudi Random", "Greta Greedy"}
assert all(row["games"] == 6 for row in players.values())
assert sum(row["games"] for row in r25.most_played(plies=2).openings.as_dicts()) == 6
""",
    "R26": """
assert r26_board.disc_at("a1") == BLACK and r26_board.turn == WHITE and len(r26_flips) >= 5
assert r26_corner_safe
for move in r26_board.legal_moves:
    after = r26_board.copy()
    after.push(move)
    assert after.disc_at("a1") == BLACK
assert r26.marks == {"a1": "★"}
""",
}


@pytest.fixture(scope="module")
def checked(lesson: Lesson) -> Callable[[str], str]:
    lesson.run("from reversi_widget import square_name")
    return lesson.run


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_shows_what_it_claims(checked: Callable[[str], str], rule: str) -> None:
    assert checked(CHECKS[rule] + f"\nprint('{rule} ok')").strip().endswith(f"{rule} ok")
