"""The traits of ``ReversiWidget``: the state every view syncs, as js/PROTOCOL.md lists it.

The picture of the game (written by Python only, listed in ``READ_ONLY``), the annotations,
and the settings; where the front end's files are. The widget's behaviour is in
``reversi_widget.widget``; here are only the declarations, so the protocol reads in one place.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..players import make_player
from ..rules import Rules
from .checks import (
    ANIMATION_STEP,
    ANIMATIONS,
    MAX_PIXELS,
    MIN_PIXELS,
    SHOWN_MAX,
    THEME_NAMES,
    Concept,
    Language,
    analysis_depth,
    analysis_time_limit,
)
from .exploring import explorer_setting
from .live import LIVE_EVALUATIONS, checked_live_evaluation
from .overlays import CONCEPTS
from .session import DEMO_LINE_STEPS

__all__ = ["ASSETS", "FRONT_END_CONFIG", "WidgetTraits", "running_in_marimo"]

_PACKAGE = Path(__file__).parent.parent
#: Wheels carry the front end in ``static/``; editable installs and the repository use ``js/``.
ASSETS = _PACKAGE / "static" if (_PACKAGE / "static").is_dir() else _PACKAGE.parent / "js"

#: The constants js/widget.js draws with, defined here only (js/PROTOCOL.md, ``config``).
FRONT_END_CONFIG = {
    "animations": list(ANIMATIONS),
    "animation_ms": {name: round(step * 1000) for name, step in ANIMATION_STEP.items()},
    "themes": list(THEME_NAMES),
    "concepts": list(CONCEPTS),
    "live_evaluations": list(LIVE_EVALUATIONS),
    "demo_line_steps": DEMO_LINE_STEPS,
    "report_shown": False,
}


def running_in_marimo() -> bool:
    """marimo re-runs the cells that read a widget only when a view writes to it: there the
    views report each new picture in ``shown`` (js/PROTOCOL.md)."""
    marimo = sys.modules.get("marimo")
    running = getattr(marimo, "running_in_notebook", None)
    try:
        return bool(callable(running) and running())
    except Exception:  # an unknown marimo version: behave as in Jupyter
        return False


class WidgetTraits(anywidget.AnyWidget):
    """Every synced and Python-side trait of the widget, with the front end's files."""

    _esm = ASSETS / "widget.js"
    _css = ASSETS / "widget.css"

    # -- the picture of the game: written by Python only (js/PROTOCOL.md) ----------------
    board_size = traitlets.Int(8).tag(sync=True, echo_update=False)
    discs = traitlets.Unicode("").tag(sync=True, echo_update=False)
    turn = traitlets.Unicode("black").tag(sync=True, echo_update=False)
    ply = traitlets.Int(0).tag(sync=True, echo_update=False)
    legal = traitlets.Dict().tag(sync=True, echo_update=False)
    last_move = traitlets.Unicode("").tag(sync=True, echo_update=False)
    last_flips: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    counts = traitlets.Dict().tag(sync=True, echo_update=False)
    supply = traitlets.Dict().tag(sync=True, echo_update=False)
    status = traitlets.Unicode("").tag(sync=True, echo_update=False)
    notice = traitlets.Unicode("").tag(sync=True, echo_update=False)
    notice_kind = traitlets.Unicode("info").tag(sync=True, echo_update=False)
    notice_id = traitlets.Int(0).tag(sync=True, echo_update=False)
    game_over = traitlets.Bool(False).tag(sync=True, echo_update=False)
    result = traitlets.Unicode("").tag(sync=True, echo_update=False)
    moves: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    opening = traitlets.Dict().tag(sync=True, echo_update=False)
    variations = traitlets.Dict().tag(sync=True, echo_update=False)
    can_undo = traitlets.Bool(False).tag(sync=True, echo_update=False)
    can_redo = traitlets.Bool(False).tag(sync=True, echo_update=False)
    thinking = traitlets.Bool(False).tag(sync=True, echo_update=False)
    players = traitlets.Dict().tag(sync=True, echo_update=False)
    strings = traitlets.Dict().tag(sync=True, echo_update=False)
    count_labels = traitlets.Dict().tag(sync=True, echo_update=False)
    demo = traitlets.Dict().tag(sync=True, echo_update=False)
    practice_move = traitlets.Unicode("").tag(sync=True, echo_update=False)
    practice_flips: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_wrong: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_missed: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    practice_mistakes = traitlets.Int(0).tag(sync=True, echo_update=False)
    practice_moves = traitlets.Int(0).tag(sync=True, echo_update=False)
    hints: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    scores = traitlets.Dict().tag(sync=True, echo_update=False)
    lines = traitlets.Dict().tag(sync=True, echo_update=False)
    review_moves: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True, echo_update=False)
    review_here = traitlets.Dict().tag(sync=True, echo_update=False)
    evaluations: traitlets.List[float | None] = traitlets.List().tag(sync=True, echo_update=False)
    live = traitlets.Dict().tag(sync=True, echo_update=False)
    busy = traitlets.Unicode("").tag(sync=True, echo_update=False)
    progress = traitlets.Float(0.0).tag(sync=True, echo_update=False)
    can_review = traitlets.Bool(False).tag(sync=True, echo_update=False)
    can_pause = traitlets.Bool(False).tag(sync=True, echo_update=False)
    puzzle_state = traitlets.Dict().tag(sync=True, echo_update=False)
    editing = traitlets.Bool(False).tag(sync=True, echo_update=False)
    position = traitlets.Unicode("").tag(sync=True, echo_update=False)
    actions = traitlets.Dict().tag(sync=True, echo_update=False)
    rule_notes: traitlets.List[str] = traitlets.List().tag(sync=True, echo_update=False)
    explorer_view = traitlets.Dict().tag(sync=True, echo_update=False)
    concept_marks = traitlets.Dict().tag(sync=True, echo_update=False)
    concept_note = traitlets.Unicode("").tag(sync=True, echo_update=False)
    quiz_state = traitlets.Dict().tag(sync=True, echo_update=False)
    coach_state = traitlets.Dict().tag(sync=True, echo_update=False)
    config = traitlets.Dict(FRONT_END_CONFIG).tag(sync=True, echo_update=False)

    # -- annotations: set from Python, drawn by the front end ----------------------------
    fill = traitlets.Dict().tag(sync=True, echo_update=False)
    marks = traitlets.Dict().tag(sync=True, echo_update=False)
    arrows: traitlets.List[list[str]] = traitlets.List().tag(sync=True, echo_update=False)

    # -- settings: Python keywords that a front end may also change ----------------------
    show_legal = traitlets.Bool(True).tag(sync=True)
    show_flips = traitlets.Bool(True).tag(sync=True)
    show_coordinates = traitlets.Bool(True).tag(sync=True)
    show_me = traitlets.Bool(False).tag(sync=True)
    practice = traitlets.Bool(False).tag(sync=True)
    coach = traitlets.Bool(False).tag(sync=True)
    show_scores = traitlets.Bool(False).tag(sync=True)
    show_explorer = traitlets.Bool(False).tag(sync=True)
    concept = Concept().tag(sync=True)
    live_evaluation = traitlets.Enum(LIVE_EVALUATIONS, default_value="off").tag(sync=True)
    animation = traitlets.Enum(ANIMATIONS, default_value="normal").tag(sync=True)
    theme = traitlets.Enum(THEME_NAMES, default_value="auto").tag(sync=True)
    size = traitlets.Int(None, allow_none=True, min=MIN_PIXELS, max=MAX_PIXELS).tag(sync=True)
    #: Written by the views, read by nobody here: a fingerprint of the picture they drew last,
    #: so that marimo sees a front-end change after every move (only where config says so).
    shown = traitlets.Int(0, min=0, max=SHOWN_MAX).tag(sync=True)

    # -- Python settings (synced so views know them, but only Python may change them) --------
    language = Language().tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)

    # -- Python-only settings --------------------------------------------------------------
    rules = traitlets.Instance(Rules)
    black = traitlets.Any("human")
    white = traitlets.Any("human")
    move_delay = traitlets.Float(0.0, min=0.0)
    analysis_depth = traitlets.Int(None, allow_none=True)
    analysis_time_limit = traitlets.Float(None, allow_none=True)
    explorer = traitlets.Any(None)  # the opening index of the Explorer panel (play/exploring.py)

    #: The traits only Python writes; the front end's writes to them are reverted.
    # fmt: off
    READ_ONLY = (
        "board_size", "discs", "turn", "ply", "legal", "last_move", "last_flips", "counts", "supply", "status",
        "notice", "notice_kind", "notice_id", "game_over", "result", "moves", "opening", "variations",
        "can_undo", "can_redo",
        "thinking", "players", "strings", "count_labels", "demo", "practice_move", "practice_flips", "practice_wrong",
        "practice_missed", "practice_mistakes", "practice_moves", "hints", "scores", "lines", "review_here",
        "review_moves", "evaluations", "busy", "progress", "can_review", "can_pause", "config", "puzzle_state",
        "editing", "position", "actions", "rule_notes", "explorer_view", "concept_marks", "concept_note",
        "quiz_state", "coach_state", "live"
    )
    # fmt: on

    # -- what the Python-only settings accept (the others are checked where they are used) --

    @traitlets.validate("black", "white")
    def _valid_player(self, proposal: Any) -> Any:
        make_player(proposal["value"])  # raises UnknownPlayerError for anything unusable
        return proposal["value"]

    @traitlets.validate("explorer")
    def _valid_explorer(self, proposal: Any) -> Any:
        return explorer_setting(proposal["value"])

    @traitlets.validate("live_evaluation")
    def _valid_live_evaluation(self, proposal: Any) -> str:
        return checked_live_evaluation(proposal["value"])

    @traitlets.validate("analysis_depth")
    def _valid_analysis_depth(self, proposal: Any) -> int | None:
        return analysis_depth(proposal["value"])

    @traitlets.validate("analysis_time_limit")
    def _valid_analysis_time_limit(self, proposal: Any) -> float | None:
        return analysis_time_limit(proposal["value"])
