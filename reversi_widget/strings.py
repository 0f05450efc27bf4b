"""Every word the widget shows, in one table, so that translations are data files.

``ENGLISH`` maps a key to a text; texts with ``{fields}`` are filled in with ``str.format``.
The keys in ``FRONT_END_KEYS`` are the labels the front end draws itself (buttons, headings,
aria words); the widget sends them in its ``strings`` trait. The other keys are the status
line, result banner, notices and player labels that Python writes.
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # -- front end labels (js/widget.js reads these from the `strings` trait) --------------
    "black": "Black",
    "white": "White",
    "empty": "empty",
    "legal": "legal",
    "flips": "flips",
    "last_move": "last move",
    "flipped": "flipped",
    "board": "Reversi board",
    "undo": "Undo",
    "redo": "Redo",
    "new_game": "New game",
    "pass": "Pass",
    "pass_move": "pass",
    "moves": "Moves",
    "no_moves": "No moves yet",
    "replay": "Replay",
    "thinking": "Thinking…",
    "discs": "discs",
    "supply": "left",
    "to_move": "to move",
    "dismiss": "Dismiss",
    "show_legal": "Legal moves",
    "show_flips": "Preview flips",
    "show_coordinates": "Coordinates",
    "animation": "Animation",
    "animation_off": "Off",
    "animation_slow": "Slow",
    "animation_normal": "Normal",
    "animation_fast": "Fast",
    "theme": "Theme",
    "theme_auto": "Auto",
    "theme_light": "Light",
    "theme_dark": "Dark",
    "theme_high_contrast": "High contrast",
    # -- players ---------------------------------------------------------------------------
    "player_human": "Human",
    "player_computer": "Computer ({name})",
    # -- status line -----------------------------------------------------------------------
    "status_to_move": "{color} to move",
    "status_to_place": "{color} to place a centre disc (free start)",
    "status_thinking": "{color} ({player}) is thinking…",
    "status_paused": "{color} ({player}) to move, paused",
    "status_review": "{color} ({player}) to move: redo or jump to the last move to let it play",
    "status_over": "Game over, {reason}: {result}",
    # -- result banner ---------------------------------------------------------------------
    "result_win": "{color} wins {score}",
    "result_draw": "Draw {score}",
    "result_inverted": "inverted goal: fewer discs win",
    "result_tournament_winner": "tournament scoring: {empties} empty squares to the winner",
    "result_tournament_loser": "tournament scoring: {empties} empty squares to the loser",
    "result_tournament_one_winner": "tournament scoring: 1 empty square to the winner",
    "result_tournament_one_loser": "tournament scoring: 1 empty square to the loser",
    "result_with_notes": "{result} ({notes})",
    "reason_full_board": "the board is full",
    "reason_no_moves": "neither side can move",
    "reason_wipe_out": "one colour has no discs left",
    # -- notices ---------------------------------------------------------------------------
    "notice_pass": "{color} has no legal move and passes; {other} moves again",
    "notice_refused_not_dict": "Refused: a message must be an object like {{'kind': 'move', ...}}, got {got}",
    "notice_refused_buffers": "Refused: messages carry no binary buffers, got {count}",
    "notice_refused_too_big": "Refused: a message of {size} characters is too big (at most {limit})",
    "notice_refused_kind": "Refused: unknown kind {got}; expected one of {expected}",
    "notice_refused_fields": "Refused: a {kind!r} message has exactly the fields {expected}, got {got}",
    "notice_refused_type": "Refused: {field} must be {expected}, got {got}",
    "notice_refused_square": "Refused: {error}",
    "notice_refused_stale": "Refused: the message was made at ply {got} but the game is at ply {ply}; try again",
    "notice_refused_thinking": "Refused: wait, {color} ({player}) is thinking",
    "notice_refused_not_human": "Refused: it is {color}'s turn, and the computer ({player}) plays {color}",
    "notice_refused_over": "Refused: the game is over ({result}); start a new game or undo",
    "notice_refused_review": "Refused: the computer ({player}) plays {color}; redo or jump to the last move to go on",
    "notice_refused_illegal": "Refused: {error}",
    "notice_refused_undo": "Refused: there is no move to undo",
    "notice_refused_redo": "Refused: there is no move to redo",
    "notice_refused_jump": "Refused: jump to {got} is outside the line of {length} moves",
    "notice_refused_internal": "Refused: the widget could not handle the message ({error})",
    "notice_readonly": "The front end may not change {names}; Python's value was restored",
    "notice_setting": "Refused setting {name} = {got}: {error}",
    "notice_player_failed": "{color} ({player}) could not move: {error}. The game is paused; call resume() to retry",
    "notice_callback_failed": "A {what} callback raised {error}",
}

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
    "thinking",
    "discs",
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
)


def front_end_strings(table: dict[str, str] = ENGLISH) -> dict[str, str]:
    """The part of a string table that the front end needs."""
    return {key: table[key] for key in FRONT_END_KEYS}


def text(key: str, table: dict[str, str] = ENGLISH, /, **fields: object) -> str:
    """The text for ``key`` with its ``{fields}`` filled in (English when a table lacks it)."""
    template = table.get(key, ENGLISH[key])
    return template.format(**fields)
