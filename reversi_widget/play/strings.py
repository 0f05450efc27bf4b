"""Which of the widget's texts the front end draws itself, read from the locale files.

The texts live in ``locales/<language>.json`` (see ``i18n``); this module only names the
keys the front end needs (buttons, headings, aria words), which the widget sends in its
``strings`` trait. Python writes every other text (status, notices, result) itself.
``ENGLISH`` is the English widget table, for code that wants the default texts.
"""

from __future__ import annotations

from functools import cache

from ..i18n import strings_for

__all__ = ["ENGLISH", "FRONT_END_KEYS", "front_end_strings"]

ENGLISH: dict[str, str] = strings_for("en")

#: The keys the front end reads from the ``strings`` trait (see js/PROTOCOL.md).
FRONT_END_KEYS: tuple[str, ...] = (
    "black",
    "white",
    "empty",
    "legal",
    "flips",
    "last_move",
    "flipped",
    "board",
    "undo",
    "redo",
    "new_game",
    "pass",
    "pass_move",
    "moves",
    "no_moves",
    "replay",
    "variation_promote",
    "variation_delete",
    "variation_shown",
    "variation_main",
    "thinking",
    "supply",
    "to_move",
    "dismiss",
    "show_legal",
    "show_flips",
    "show_coordinates",
    "animation",
    "animation_off",
    "animation_slow",
    "animation_normal",
    "animation_fast",
    "theme",
    "theme_auto",
    "theme_light",
    "theme_dark",
    "theme_high_contrast",
    "show_me",
    "practice",
    "practice_done",
    "practice_reveal",
    "practice_mistakes",
    "practice_moves",
    "practice_wrong",
    "practice_missed",
    "demo_line",
    "hint",
    "pause",
    "resume",
    "review",
    "show_scores",
    "busy_hint",
    "busy_scores",
    "busy_review",
    "evaluation",
    "evaluation_help",
    "chart_black_ahead",
    "chart_white_ahead",
    "chart_unit",
    "chart_moves",
    "chart_exact",
    "chart_estimate",
    "review_best",
    "score",
    "hint_move",
    "puzzle_next",
    "puzzle_retry",
    "puzzle_solution",
    "puzzle_play_out",
    "puzzle_counter",
    "puzzle_score",
    "edit",
    "edit_done",
    "edit_cancel",
    "edit_clear",
    "edit_start",
    "edit_copy",
    "edit_copied",
    "edit_to_move",
    "scores_legend",
    "concept",
    "concept_off",
    "concept_mobility",
    "concept_potential_mobility",
    "concept_frontier",
    "concept_stable",
    "concept_regions",
    "concept_corners",
    "concept_kind_both",
    "concept_kind_odd",
    "concept_kind_even",
    "concept_kind_corner",
    "concept_kind_x_square",
    "concept_kind_c_square",
    "quiz_check",
    "quiz_clear",
    "quiz_reveal",
    "quiz_marked",
    "quiz_count",
    "quiz_mark_wrong",
    "quiz_mark_missed",
    "busy_coach",
    "coach_heading",
    "coach_retry",
    "coach_go_on",
    "coach_summary_heading",
    "live_evaluation",
    "live_evaluation_off",
    "live_evaluation_score",
    "live_evaluation_chance",
    "live_bar",
)


def front_end_strings(language: str = "en") -> dict[str, str]:
    """The labels the front end draws, in ``language`` (a fresh dict)."""
    return dict(_front_end_items(language))


@cache
def _front_end_items(language: str) -> tuple[tuple[str, str], ...]:
    # The widget redraws after every move: the table is read from the locale files once.
    table = strings_for(language)
    return tuple((key, table[key]) for key in FRONT_END_KEYS)
